//! The realtime socket (SPEC §6: "A realtime socket is opened; a product sync status request
//! is sent with event PRODUCT_SYNC_STOCK_ALL"): `GET /api/realtime` upgrades to a WebSocket
//! that the app opens once per signed-in store.
//!
//! - Its first message is `{"event": "AUTH", "token": "<store token>"}` within 10 s; the token,
//!   its session and its membership are checked as for any request, and again every minute
//!   (a token that expires or loses its rights closes the socket with 4401 and the reason's
//!   code; the app takes a fresh store token and opens another).
//! - `{"event": "PRODUCT_SYNC_STOCK_ALL"}` asks for the store's shops' "push all" status and
//!   is answered `{"event": "PRODUCT_SYNC_STOCK_ALL", "data": [sync, ...]}`; each step of a
//!   push all arrives the same way, unasked.
//! - `ORDER_CREATED` (`data`: the order's id, number and channel) when an order is placed, and
//!   `REPORT_EXPORT` (`data`: the export's id, kind, state, done and total) as an export moves
//!   on: what the app would otherwise poll for.
//!
//! Each member sees only what their rights let them read in the token's store. Every replica
//! of the gateway follows the bus ([`bo_kit::bus::Bus::tail`]) for the events behind these,
//! so a socket hears what any replica's services did. Frames are at most 4 KiB, a socket may
//! send 20 requests in 10 s, a session may hold 16 sockets, and an address that fails to
//! authenticate 30 times in a minute is refused for the rest of it.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use bo_kit::bus::{subject_for, SharedBus};
use bo_kit::Code;
use bo_proto::events::v1 as ev;
use bo_proto::marketplaces::v1 as mpb;
use bo_proto::reports::v1 as rpb;
use bo_proto::{Event as _, Wire as _};
use prost::Message as _;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use crate::auth::{LoginLimiter, StoreAuth};
use crate::error::ApiError;
use crate::perms::Access;
use crate::state::AppState;

/// Sockets one sign-in session may hold (a tab each).
const PER_SESSION: usize = 16;
/// Sockets one replica holds at most.
const MAX_SOCKETS: usize = 20_000;
/// Time to send the token once the socket is open.
const AUTH_WITHIN: Duration = Duration::from_secs(10);
/// How often the token, its session and its membership are checked again.
const RECHECK_EVERY: Duration = Duration::from_secs(60);
/// The largest frame a client may send.
const MAX_FRAME: usize = 4096;
/// Requests a socket may send per window.
const REQUESTS_PER_WINDOW: u32 = 20;
const WINDOW: Duration = Duration::from_secs(10);
/// Live events a slow socket may fall behind by before it skips ahead.
const BACKLOG: usize = 256;
/// Failed authentications per address per minute.
const FAILURES_PER_MINUTE: u32 = 30;

/// The close code of a socket whose token does not hold (the reason is the error code).
pub const CLOSE_UNAUTHENTICATED: u16 = 4401;
/// The close code of a socket refused for too many sockets or requests.
pub const CLOSE_TOO_MANY: u16 = 4429;

/// The event names on the socket.
pub const PRODUCT_SYNC_STOCK_ALL: &str = "PRODUCT_SYNC_STOCK_ALL";
pub const ORDER_CREATED: &str = "ORDER_CREATED";
pub const REPORT_EXPORT: &str = "REPORT_EXPORT";

/// Who in the store may see a live event.
#[derive(Debug, Clone, Copy)]
enum Audience {
    /// Those the route's access lets in.
    Access(Access),
    /// Those who may read exports of this kind.
    Export(rpb::ExportKind),
}

/// A live event for one store's sockets.
#[derive(Debug, Clone)]
struct Live {
    audience: Audience,
    /// The frame as sent.
    frame: Arc<str>,
}

/// The sockets of this replica, by store, and what limits them.
pub struct Hub {
    stores: Mutex<HashMap<i64, broadcast::Sender<Arc<Live>>>>,
    sessions: Mutex<HashMap<String, usize>>,
    open: AtomicUsize,
    failures: LoginLimiter,
    cancel: CancellationToken,
}

impl Hub {
    /// A hub whose sockets close when `cancel` is (the gateway stopping).
    pub fn new(cancel: CancellationToken) -> Self {
        Self {
            stores: Mutex::new(HashMap::new()),
            sessions: Mutex::new(HashMap::new()),
            open: AtomicUsize::new(0),
            failures: LoginLimiter::new(FAILURES_PER_MINUTE),
            cancel,
        }
    }

    /// Sockets open on this replica.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }

    fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
        m.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Hands a live event to the store's sockets (none may be open).
    fn send(&self, store_id: i64, live: Live) {
        let mut stores = Self::lock(&self.stores);
        if let Some(tx) = stores.get(&store_id) {
            if tx.send(Arc::new(live)).is_err() {
                stores.remove(&store_id);
            }
        }
    }

    /// A seat for an authenticated socket, or `None` when its session holds too many.
    fn join(self: &Arc<Self>, auth: &StoreAuth) -> Option<Seat> {
        {
            let mut sessions = Self::lock(&self.sessions);
            let n = sessions.entry(auth.session_id.clone()).or_default();
            if *n >= PER_SESSION {
                return None;
            }
            *n += 1;
        }
        let rx =
            Self::lock(&self.stores).entry(auth.store_id).or_insert_with(|| broadcast::channel(BACKLOG).0).subscribe();
        Some(Seat { hub: self.clone(), session: auth.session_id.clone(), store_id: auth.store_id, rx })
    }
}

/// An authenticated socket's place in the hub, given back when dropped.
struct Seat {
    hub: Arc<Hub>,
    session: String,
    store_id: i64,
    rx: broadcast::Receiver<Arc<Live>>,
}

impl Drop for Seat {
    fn drop(&mut self) {
        let mut sessions = Hub::lock(&self.hub.sessions);
        if let Some(n) = sessions.get_mut(&self.session) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                sessions.remove(&self.session);
            }
        }
        drop(sessions);
        let mut stores = Hub::lock(&self.hub.stores);
        // This seat's receiver still counts: the last one leaving sees 1.
        if stores.get(&self.store_id).is_some_and(|tx| tx.receiver_count() <= 1) {
            stores.remove(&self.store_id);
        }
    }
}

/// An open socket, counted while it lives.
struct Opened(Arc<Hub>);

impl Drop for Opened {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Follows the bus for the events the sockets carry, until `cancel`: each replica of the
/// gateway does, so every replica's sockets hear every replica's services.
pub async fn follow(bus: SharedBus, hub: Arc<Hub>, cancel: CancellationToken) {
    let subjects = [ev::StockSyncChanged::TYPE, ev::OrderPlaced::TYPE, ev::ExportChanged::TYPE]
        .map(|t| (subject_for(bus.prefix(), t), t));
    loop {
        let mut tails = Vec::new();
        for (subject, _) in &subjects {
            match bus.tail(subject).await {
                Ok(t) => tails.push(t),
                Err(e) => tracing::warn!(error = %e, subject, "could not follow the bus for the realtime socket"),
            }
        }
        if tails.len() == subjects.len() {
            loop {
                let (got, _, _) = tokio::select! {
                    got = futures::future::select_all(tails.iter_mut().map(|t| t.next())) => got,
                    _ = cancel.cancelled() => return,
                };
                let Some((subject, payload)) = got else { break };
                let Some((_, kind)) = subjects.iter().find(|(s, _)| *s == subject) else { continue };
                if let Some((store_id, live)) = live_of(kind, &payload) {
                    hub.send(store_id, live);
                }
            }
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
            _ = cancel.cancelled() => return,
        }
    }
}

/// The live event of a bus message of `kind`, for its store.
fn live_of(kind: &str, payload: &[u8]) -> Option<(i64, Live)> {
    let envelope = ev::Envelope::decode(payload).ok()?;
    let body = envelope.payload.as_slice();
    let (event, audience, data) = if kind == ev::StockSyncChanged::TYPE {
        let e = ev::StockSyncChanged::decode(body).ok()?;
        let sync = crate::routes::listing_sync::sync_body(e.sync.unwrap_or_default());
        (PRODUCT_SYNC_STOCK_ALL, Audience::Access(crate::routes::listing_sync::READ), json!([sync]))
    } else if kind == ev::OrderPlaced::TYPE {
        let e = ev::OrderPlaced::decode(body).ok()?;
        let data = json!({"order_id": e.order_id, "order_no": e.order_no, "channel": e.channel});
        (ORDER_CREATED, Audience::Access(crate::routes::orders::READ), data)
    } else if kind == ev::ExportChanged::TYPE {
        let e = ev::ExportChanged::decode(body).ok()?;
        let kind = rpb::ExportKind::try_from(e.kind).ok()?;
        let data = json!({"id": e.export_id, "kind": kind.wire(), "state": rpb::ExportState::word_of(e.state),
            "done": e.done, "total": e.total, "exporter_id": e.created_by});
        (REPORT_EXPORT, Audience::Export(kind), data)
    } else {
        return None;
    };
    let frame = json!({"event": event, "data": data}).to_string();
    Some((envelope.store_id, Live { audience, frame: frame.into() }))
}

/// What a client sends.
#[derive(Debug, Deserialize)]
struct Request {
    event: String,
    #[serde(default)]
    token: String,
}

/// Upgrades `GET /api/realtime` to the socket.
pub async fn upgrade(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let ip = crate::auth::client_ip(peer.ip(), &headers, &state.trusted_proxies);
    let hub = state.realtime.clone();
    match hub.failures.begin(ip, "realtime") {
        Some(check) => drop(check),
        None => return ApiError::new(StatusCode::TOO_MANY_REQUESTS, Code::TooManyAttempts).into_response(),
    }
    if hub.open.fetch_add(1, Ordering::Relaxed) >= MAX_SOCKETS {
        hub.open.fetch_sub(1, Ordering::Relaxed);
        return ApiError::new(StatusCode::SERVICE_UNAVAILABLE, Code::RealtimeTooMany).into_response();
    }
    let opened = Opened(hub);
    ws.max_message_size(MAX_FRAME).max_frame_size(MAX_FRAME).on_upgrade(move |socket| async move {
        let _opened = opened;
        run(state, socket, ip).await;
    })
}

fn close(code: u16, reason: Code) -> Message {
    Message::Close(Some(CloseFrame { code, reason: reason.as_str().into() }))
}

fn error(code: Code) -> Message {
    Message::Text(json!({"event": "ERROR", "code": code.as_str(), "message": code.english()}).to_string().into())
}

/// Checks a store token as a request's bearer token.
async fn authenticate(state: &AppState, token: &str) -> Result<StoreAuth, ApiError> {
    let mut headers = HeaderMap::new();
    let bearer = HeaderValue::from_str(&format!("Bearer {token}"))
        .map_err(|_| ApiError::unauthenticated(Code::Unauthenticated))?;
    headers.insert(axum::http::header::AUTHORIZATION, bearer);
    StoreAuth::authenticate(state, &headers).await
}

/// The code a refused token closes the socket with (the app signs in again, or takes a
/// fresh store token, as it would for a request refused so).
fn refusal(e: &ApiError) -> Code {
    e.code
}

async fn run(state: AppState, mut socket: WebSocket, ip: IpAddr) {
    let hub = state.realtime.clone();
    // The token first.
    let first = tokio::select! {
        m = tokio::time::timeout(AUTH_WITHIN, socket.recv()) => m,
        _ = hub.cancel.cancelled() => return,
    };
    let token = match first {
        Ok(Some(Ok(Message::Text(t)))) => match serde_json::from_str::<Request>(&t) {
            Ok(r) if r.event == "AUTH" && !r.token.is_empty() => r.token,
            _ => {
                let _ = socket.send(close(CLOSE_UNAUTHENTICATED, Code::Unauthenticated)).await;
                return;
            }
        },
        Ok(_) => return,
        Err(_) => {
            let _ = socket.send(close(CLOSE_UNAUTHENTICATED, Code::Unauthenticated)).await;
            return;
        }
    };
    let mut auth = match authenticate(&state, &token).await {
        Ok(a) => a,
        Err(e) => {
            if let Some(failed) = hub.failures.begin(ip, "realtime") {
                failed.failed();
            }
            let _ = socket.send(close(CLOSE_UNAUTHENTICATED, refusal(&e))).await;
            return;
        }
    };
    let Some(mut seat) = hub.join(&auth) else {
        let _ = socket.send(close(CLOSE_TOO_MANY, Code::RealtimeTooMany)).await;
        return;
    };
    let hello = json!({"event": "AUTH", "data": {"store_id": auth.store_id, "user_id": auth.user_id}});
    if socket.send(Message::Text(hello.to_string().into())).await.is_err() {
        return;
    }
    let mut recheck = tokio::time::interval_at(tokio::time::Instant::now() + RECHECK_EVERY, RECHECK_EVERY);
    let (mut window, mut asked) = (Instant::now(), 0u32);
    loop {
        tokio::select! {
            _ = hub.cancel.cancelled() => {
                let _ = socket.send(Message::Close(Some(CloseFrame { code: 1001, reason: "".into() }))).await;
                return;
            }
            _ = recheck.tick() => match authenticate(&state, &token).await {
                Ok(a) => auth = a,
                Err(e) => {
                    let _ = socket.send(close(CLOSE_UNAUTHENTICATED, refusal(&e))).await;
                    return;
                }
            },
            live = seat.rx.recv() => match live {
                Ok(live) => {
                    let sees = match live.audience {
                        Audience::Access(a) => auth.allows(a),
                        Audience::Export(kind) => crate::routes::exports::readable(&auth).contains(&kind),
                    };
                    if sees && socket.send(Message::Text(live.frame.as_ref().into())).await.is_err() {
                        return;
                    }
                }
                Err(broadcast::error::RecvError::Lagged(missed)) => {
                    tracing::debug!(missed, "a slow realtime socket skipped ahead");
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    // Pings are answered by the socket itself; binary frames mean nothing here.
                    Some(Ok(_)) => continue,
                };
                if window.elapsed() >= WINDOW {
                    (window, asked) = (Instant::now(), 0);
                }
                asked += 1;
                if asked > REQUESTS_PER_WINDOW {
                    let _ = socket.send(close(CLOSE_TOO_MANY, Code::RealtimeTooMany)).await;
                    return;
                }
                let answer = match serde_json::from_str::<Request>(&text) {
                    Ok(r) if r.event == PRODUCT_SYNC_STOCK_ALL => sync_status(&state, &auth).await,
                    Ok(r) if r.event == "PING" => Message::Text(json!({"event": "PONG"}).to_string().into()),
                    _ => error(Code::RealtimeRequestInvalid),
                };
                if socket.send(answer).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// The answer to PRODUCT_SYNC_STOCK_ALL: every shop's last push all in the store.
async fn sync_status(state: &AppState, auth: &StoreAuth) -> Message {
    if !auth.allows(crate::routes::listing_sync::READ) {
        return error(Code::Forbidden);
    }
    let asked = async {
        let r = state
            .client(mpb::marketplaces_service_client::MarketplacesServiceClient::new)?
            .list_stock_syncs(auth.ctx().request(mpb::ListStockSyncsRequest {}))
            .await
            .map_err(ApiError::from)?
            .into_inner();
        Ok::<_, ApiError>(r.syncs.into_iter().map(crate::routes::listing_sync::sync_body).collect::<Vec<_>>())
    };
    match asked.await {
        Ok(syncs) => Message::Text(json!({"event": PRODUCT_SYNC_STOCK_ALL, "data": syncs}).to_string().into()),
        Err(e) => error(e.code),
    }
}

/// Routes of the socket (outside the OpenAPI document, which has no words for a socket).
pub fn router() -> axum::Router<AppState> {
    axum::Router::new().route("/realtime", axum::routing::get(upgrade))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn envelope<E: prost::Message>(store_id: i64, e: &E) -> Vec<u8> {
        ev::Envelope { store_id, payload: e.encode_to_vec(), ..Default::default() }.encode_to_vec()
    }

    #[test]
    fn bus_events_become_the_socket_frames() {
        let sync = mpb::StockSync { store_channel_id: 7, running: true, total: 10, done: 4, ..Default::default() };
        let (store, live) =
            live_of(ev::StockSyncChanged::TYPE, &envelope(3, &ev::StockSyncChanged { sync: Some(sync) })).unwrap();
        assert_eq!(store, 3);
        let v: Value = serde_json::from_str(&live.frame).unwrap();
        assert_eq!(v["event"], PRODUCT_SYNC_STOCK_ALL);
        assert_eq!(
            (v["data"][0]["store_channel_id"].as_i64(), v["data"][0]["status"].as_str()),
            (Some(7), Some("in_progress"))
        );
        assert_eq!(v["data"][0]["done"], 4);

        let (_, live) = live_of(
            ev::OrderPlaced::TYPE,
            &envelope(
                3,
                &ev::OrderPlaced {
                    order_id: 9,
                    order_no: "SO-9".into(),
                    channel: "shopee".into(),
                    ..Default::default()
                },
            ),
        )
        .unwrap();
        let v: Value = serde_json::from_str(&live.frame).unwrap();
        assert_eq!((v["event"].as_str(), v["data"]["order_no"].as_str()), (Some(ORDER_CREATED), Some("SO-9")));

        let e = ev::ExportChanged {
            export_id: 5,
            kind: rpb::ExportKind::Orders as i32,
            state: rpb::ExportState::Exported as i32,
            done: 20,
            total: 20,
            created_by: 2,
        };
        let (_, live) = live_of(ev::ExportChanged::TYPE, &envelope(3, &e)).unwrap();
        assert!(matches!(live.audience, Audience::Export(rpb::ExportKind::Orders)));
        let v: Value = serde_json::from_str(&live.frame).unwrap();
        assert_eq!((v["data"]["kind"].as_str(), v["data"]["state"].as_str()), (Some("orders"), Some("exported")));

        assert!(live_of(ev::OrderPlaced::TYPE, b"not an envelope").is_none());
        assert!(live_of("stores.customer.created", &envelope(3, &e)).is_none());
    }
}
