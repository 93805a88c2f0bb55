//! The integrator's API (`/api/open-api/v1`): what an app behind an open-API channel's key
//! may do in the store — make orders in the channel (idempotent by `Idempotency-Key` and by
//! its own order reference), read and cancel them, read our SKUs with what is free in the
//! channel's warehouse, link its product ids to our SKUs, and read the linked SKUs' stock.
//! It has an OpenAPI document of its own at `/api/open-api/v1/openapi.json`, apart from the
//! back-office app's.
//!
//! Every call but the document's carries the key as a bearer token. The gateway asks the
//! marketplaces service which channel it opens (and keeps the answer [`KEY_TTL`], so a
//! revoked key stops within that), then counts the call against the key's budget: every
//! answer says `X-RateLimit-Limit`, `-Remaining` and `-Reset`; past the budget the answer is
//! 429 with `Retry-After`. A client address whose keys keep failing is refused for a minute.
//! Amounts are satang (integers), times RFC 3339.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};
use bo_kit::time::{ms_to_rfc3339, timestamp_to_rfc3339};
use bo_kit::Code;
use bo_proto::marketplaces::v1 as pb;
use bo_proto::marketplaces::v1::marketplaces_service_client::MarketplacesServiceClient;
use bo_proto::orders::v1 as opb;
use serde::{Deserialize, Serialize};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{IntoParams, Modify, OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::state::AppState;
use crate::wire::{word, Body, Path, Query};

/// How long a key's channel is trusted before it is asked again.
pub const KEY_TTL: Duration = Duration::from_secs(30);
/// The header a repeat's answer carries.
const REPLAYED: &str = "idempotent-replayed";

/// The channel a key opens, as the handlers see it.
#[derive(Debug, Clone)]
pub struct KeyChannel {
    /// The store.
    pub store_id: i64,
    /// The open-API channel.
    pub channel_id: i64,
}

/// A key's budget: calls left now, and when it was last filled.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The keys seen lately (their channels) and their budgets.
pub struct KeyGate {
    per_minute: u32,
    channels: Mutex<HashMap<String, (KeyChannel, Instant)>>,
    buckets: Mutex<HashMap<String, Bucket>>,
    /// Failed keys per client address.
    failures: crate::auth::LoginLimiter,
}

/// What the budget said of a call: allowed or not, calls left, seconds until full and until
/// the next call is allowed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    pub allowed: bool,
    pub limit: u32,
    pub remaining: u32,
    pub reset_s: u64,
    pub retry_after_s: u64,
}

impl KeyGate {
    /// `per_minute` calls per key per minute (a burst of as many, then that pace).
    pub fn new(per_minute: u32) -> Self {
        KeyGate {
            per_minute: per_minute.max(1),
            channels: Mutex::new(HashMap::new()),
            buckets: Mutex::new(HashMap::new()),
            failures: crate::auth::LoginLimiter::new(20),
        }
    }

    /// Counts a call of `key` at `now`.
    pub fn take(&self, key: &str, now: Instant) -> Budget {
        let limit = f64::from(self.per_minute);
        let rate = limit / 60.0;
        let mut map = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() > 100_000 {
            map.retain(|_, b| now.duration_since(b.at) < Duration::from_secs(60));
        }
        let b = map.entry(key.to_string()).or_insert(Bucket { tokens: limit, at: now });
        b.tokens = (b.tokens + now.duration_since(b.at).as_secs_f64() * rate).min(limit);
        b.at = now;
        let allowed = b.tokens >= 1.0;
        if allowed {
            b.tokens -= 1.0;
        }
        Budget {
            allowed,
            limit: self.per_minute,
            remaining: b.tokens.floor() as u32,
            reset_s: ((limit - b.tokens) / rate).ceil() as u64,
            retry_after_s: if allowed { 0 } else { ((1.0 - b.tokens) / rate).ceil().max(1.0) as u64 },
        }
    }

    fn known(&self, key: &str, now: Instant) -> Option<KeyChannel> {
        let map = self.channels.lock().unwrap_or_else(|p| p.into_inner());
        map.get(key).filter(|(_, at)| now.duration_since(*at) < KEY_TTL).map(|(c, _)| c.clone())
    }

    fn remember(&self, key: &str, channel: KeyChannel, now: Instant) {
        let mut map = self.channels.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() > 10_000 {
            map.retain(|_, (_, at)| now.duration_since(*at) < KEY_TTL);
        }
        map.insert(key.to_string(), (channel, now));
    }
}

fn budget_headers(res: &mut Response, b: &Budget) {
    let h = res.headers_mut();
    for (name, v) in [
        ("x-ratelimit-limit", u64::from(b.limit)),
        ("x-ratelimit-remaining", u64::from(b.remaining)),
        ("x-ratelimit-reset", b.reset_s),
    ] {
        h.insert(name, HeaderValue::from(v));
    }
    if !b.allowed {
        h.insert(header::RETRY_AFTER, HeaderValue::from(b.retry_after_s));
    }
}

fn refused() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, Code::ApiKeyRefused)
}

/// Finds the channel of the call's key and counts the call against its budget.
async fn gate(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut req: Request,
    next: Next,
) -> Response {
    let ip: IpAddr = crate::auth::client_ip(peer.ip(), req.headers(), &state.trusted_proxies);
    let key = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
        .map(|k| k.trim().to_string())
        .unwrap_or_default();
    let gate = &state.api_keys;
    let now = Instant::now();
    let channel = match gate.known(&key, now) {
        Some(c) => c,
        None => {
            // A client that keeps sending wrong keys waits.
            let Some(attempt) = gate.failures.begin(ip, "api-key") else {
                let mut res = ApiError::new(StatusCode::TOO_MANY_REQUESTS, Code::ApiRateLimited).into_response();
                res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(60u64));
                return res;
            };
            if key.is_empty() {
                attempt.failed();
                return refused().into_response();
            }
            let answer = match state.client(MarketplacesServiceClient::new) {
                Ok(mut c) => {
                    c.authenticate_api_key(state.system().request(pb::AuthenticateApiKeyRequest { key: key.clone() }))
                        .await
                }
                Err(e) => return e.into_response(),
            };
            match answer {
                Ok(r) => {
                    let r = r.into_inner();
                    let c = KeyChannel { store_id: r.store_id, channel_id: r.channel.map(|c| c.id).unwrap_or(0) };
                    gate.remember(&key, c.clone(), now);
                    c
                }
                Err(s) if s.code() == tonic::Code::Unauthenticated => {
                    attempt.failed();
                    return refused().into_response();
                }
                Err(s) => return ApiError::from(s).into_response(),
            }
        }
    };
    // The budget is the key's, whichever replica's share of it this is.
    let budget = gate.take(&key, now);
    if !budget.allowed {
        let mut res = ApiError::new(StatusCode::TOO_MANY_REQUESTS, Code::ApiRateLimited).into_response();
        budget_headers(&mut res, &budget);
        return res;
    }
    req.extensions_mut().insert(channel);
    let mut res = next.run(req).await;
    budget_headers(&mut res, &budget);
    res
}

/// The key's security scheme in the document.
struct KeyScheme;

impl Modify for KeyScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        openapi.components.get_or_insert_with(Default::default).add_security_scheme(
            "apiKey",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("bok_…").build()),
        );
    }
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Back-office open API",
        version = "1",
        description = "The API an integrator's app uses through an open-API channel of a store: orders in, \
            stock out. Authenticate with the channel's key as a bearer token (`Authorization: Bearer bok_…`). \
            Amounts are satang (1 baht = 100), times RFC 3339. Writes may carry an `Idempotency-Key` header: \
            a repeat answers the first call without acting again. Every answer carries `X-RateLimit-Limit`, \
            `X-RateLimit-Remaining` and `X-RateLimit-Reset`; past the limit the answer is 429 with \
            `Retry-After` (seconds). Errors are `{\"error\": {\"code\", \"message\", \"fields\": [{\"field\", \"code\"}]}}`."
    ),
    modifiers(&KeyScheme),
    tags((name = "integrator", description = "Orders, SKUs, links and stock of the channel the key opens"))
)]
struct IntegratorDoc;

fn api() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    OpenApiRouter::with_openapi(IntegratorDoc::openapi())
        .routes(routes!(create_order, list_orders))
        .routes(routes!(get_order))
        .routes(routes!(cancel_order))
        .routes(routes!(list_skus))
        .routes(routes!(link_skus))
        .routes(routes!(list_stock))
        .split_for_parts()
}

/// The integrator's OpenAPI document.
pub fn document() -> utoipa::openapi::OpenApi {
    let (_, mut doc) = api();
    doc.servers = Some(vec![utoipa::openapi::Server::new("/api/open-api/v1")]);
    doc
}

/// The integrator's routes under `/open-api/v1` (inside `/api`), behind the key's gate; the
/// document is open to all.
pub fn router(state: AppState) -> Router<AppState> {
    let (routes, _) = api();
    let doc = std::sync::Arc::new(document());
    Router::new()
        .nest("/open-api/v1", routes.layer(axum::middleware::from_fn_with_state(state, gate)))
        .route("/open-api/v1/openapi.json", get(move || async move { Json(doc.as_ref().clone()) }))
}

fn client(state: &AppState) -> ApiResult<MarketplacesServiceClient<bo_kit::grpc::GrpcChannel>> {
    state.client(MarketplacesServiceClient::new)
}

fn ctx(state: &AppState, k: &KeyChannel) -> bo_kit::grpc::CallCtx {
    state.acting(k.store_id, 0)
}

/// Where an order goes.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct IntegratorAddress {
    #[schema(example = "สมหญิง รักดี")]
    pub name: String,
    /// 9 or 10 digits.
    #[schema(example = "0891112233")]
    pub tel: String,
    #[schema(example = "12/3 ถนนนิมมานเหมินท์")]
    pub address: String,
    #[schema(example = "สุเทพ")]
    pub sub_district: String,
    #[schema(example = "เมืองเชียงใหม่")]
    pub district: String,
    #[schema(example = "เชียงใหม่")]
    pub state_province: String,
    /// 5 digits.
    #[schema(example = "50200")]
    pub postcode: String,
    pub email: String,
}

/// A line of an order: one of the store's SKUs by its code, or by your product id once linked.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct IntegratorLineInput {
    /// The store's SKU code (or `external_id`).
    #[schema(example = "TS-001-RED-M")]
    pub sku_code: String,
    /// Your product id, linked with `POST /sku-links` (or `sku_code`).
    pub external_id: String,
    #[schema(example = 2)]
    pub quantity: i64,
    /// The price of one the buyer pays, satang.
    #[schema(example = 19900)]
    pub unit_price_satang: i64,
}

/// An order of your app.
// Each field defaults on its own: a default of the whole would put an object's default in
// the document, which generators refuse.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
pub struct IntegratorOrderInput {
    /// Your order number, unique in the channel: sending it again makes nothing new.
    #[schema(example = "WEB-1001")]
    #[serde(default)]
    pub reference: String,
    #[serde(default)]
    pub note: String,
    #[serde(default)]
    pub address: IntegratorAddress,
    /// 1 to 200 lines.
    #[serde(default)]
    pub lines: Vec<IntegratorLineInput>,
    /// The shipping fee the buyer pays, satang.
    #[schema(example = 4000)]
    #[serde(default)]
    pub shipping_satang: i64,
    /// Your discount on the whole order, satang.
    #[serde(default)]
    pub discount_satang: i64,
    /// Cash on delivery (or `paid`).
    #[serde(default)]
    pub cod: bool,
    /// The buyer has paid you (or `cod`).
    #[schema(example = true)]
    #[serde(default)]
    pub paid: bool,
}

/// A line of an order.
#[derive(Debug, Serialize, ToSchema)]
pub struct IntegratorLine {
    pub sku_id: i64,
    pub sku_code: String,
    pub name: String,
    /// Your product id, where the line came by it.
    pub external_id: String,
    pub quantity: i64,
    pub unit_price_satang: i64,
    pub line_total_satang: i64,
}

/// An order as the store keeps it.
#[derive(Debug, Serialize, ToSchema)]
pub struct IntegratorOrder {
    pub id: i64,
    /// The store's number (SO2569-000001).
    pub order_no: String,
    /// Your order number.
    pub reference: String,
    /// The sales channel it counts as.
    pub channel: String,
    /// new, ready_to_fulfillment, shipped, closed, cancelled or failed.
    pub state: String,
    /// unpaid, pending, paid, voided or cancelled.
    pub payment_state: String,
    pub cod: bool,
    pub note: String,
    pub address: IntegratorAddress,
    pub lines: Vec<IntegratorLine>,
    pub subtotal_satang: i64,
    pub discount_satang: i64,
    pub shipping_satang: i64,
    pub total_satang: i64,
    /// Its parcels' tracking numbers, comma separated ("" before it ships).
    pub tracking_no: String,
    pub created_at: String,
    pub updated_at: String,
    pub shipped_at: Option<String>,
    pub cancelled_at: Option<String>,
}

fn when(ms: i64) -> Option<String> {
    (ms > 0).then(|| ms_to_rfc3339(ms))
}

fn order_body(o: opb::Order) -> IntegratorOrder {
    let t = o.totals.unwrap_or_default();
    let a = o.shipping_address.unwrap_or_default();
    IntegratorOrder {
        id: o.id,
        order_no: o.order_no,
        reference: o.reference,
        channel: o.channel,
        state: word::<opb::OrderState>(o.state),
        payment_state: word::<opb::PaymentState>(o.payment_state),
        cod: o.cod,
        note: o.note,
        address: IntegratorAddress {
            name: a.name,
            tel: a.tel,
            address: a.address,
            sub_district: a.sub_district,
            district: a.district,
            state_province: a.state_province,
            postcode: a.postcode,
            email: a.email,
        },
        lines: o
            .items
            .into_iter()
            .map(|i| IntegratorLine {
                sku_id: i.sku_id,
                sku_code: i.sku_code,
                name: i.product_name,
                external_id: i.listing,
                quantity: i.quantity,
                unit_price_satang: i.price,
                line_total_satang: i.line_total,
            })
            .collect(),
        subtotal_satang: t.subtotal,
        discount_satang: t.discount_amount,
        shipping_satang: t.shipping_total,
        total_satang: t.total,
        tracking_no: o.tracking_no,
        created_at: timestamp_to_rfc3339(o.create_time.as_ref()),
        updated_at: timestamp_to_rfc3339(o.update_time.as_ref()),
        shipped_at: when(o.shipped_at_ms),
        cancelled_at: when(o.cancelled_at_ms),
    }
}

/// Makes an order in the channel: its stock is held in the channel's warehouse and it ships
/// by the channel's shipping channel. 201 when made; a repeat (the same `Idempotency-Key`,
/// or the same `reference`, with the same order) answers 200 with the order made and the
/// header `Idempotent-Replayed: true`; the same key or reference with another order is 409.
#[utoipa::path(post, path = "/orders", tag = "integrator", request_body = IntegratorOrderInput,
    params(("Idempotency-Key" = Option<String>, Header, description = "1 to 255 visible characters")),
    responses((status = 201, body = IntegratorOrder), (status = 200, body = IntegratorOrder, description = "a repeat"),
        (status = 401, body = ErrorBody, description = "api_key_refused"),
        (status = 409, body = ErrorBody, description = "idempotency_key_reused, duplicate_order_reference"),
        (status = 422, body = ErrorBody, description = "a field's rule (validation.*) or an unknown SKU (validation.sku_unknown)"),
        (status = 429, body = ErrorBody, description = "api_rate_limited")),
    security(("apiKey" = [])))]
async fn create_order(
    State(state): State<AppState>,
    Extension(k): Extension<KeyChannel>,
    headers: axum::http::HeaderMap,
    Body(b): Body<IntegratorOrderInput>,
) -> ApiResult<Response> {
    let key = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    let a = b.address;
    let r = client(&state)?
        .api_create_order(
            ctx(&state, &k).request(pb::ApiCreateOrderRequest {
                api_channel_id: k.channel_id,
                idempotency_key: key,
                order: Some(pb::ApiOrderInput {
                    reference: b.reference,
                    note: b.note,
                    address: Some(pb::ApiAddress {
                        name: a.name,
                        tel: a.tel,
                        address: a.address,
                        sub_district: a.sub_district,
                        district: a.district,
                        state_province: a.state_province,
                        postcode: a.postcode,
                        email: a.email,
                    }),
                    lines: b
                        .lines
                        .into_iter()
                        .map(|l| pb::ApiOrderLine {
                            sku_code: l.sku_code,
                            external_id: l.external_id,
                            quantity: l.quantity,
                            unit_price: l.unit_price_satang,
                        })
                        .collect(),
                    shipping_charge: b.shipping_satang,
                    discount: b.discount_satang,
                    cod: b.cod,
                    paid: b.paid,
                }),
            }),
        )
        .await?
        .into_inner();
    let body = Json(order_body(r.order.unwrap_or_default()));
    if r.replayed {
        let mut res = (StatusCode::OK, body).into_response();
        res.headers_mut().insert(REPLAYED, HeaderValue::from_static("true"));
        Ok(res)
    } else {
        Ok((StatusCode::CREATED, body).into_response())
    }
}

/// A page and the cursor of the next one.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct CursorQuery {
    /// The `next_cursor` of the page before (none: the first page).
    pub cursor: Option<String>,
    /// Rows per page.
    pub limit: Option<i64>,
}

/// A page of orders.
#[derive(Debug, Serialize, ToSchema)]
pub struct IntegratorOrderPage {
    pub data: Vec<IntegratorOrder>,
    /// Give it as `cursor` for the next page (null: this is the last).
    pub next_cursor: Option<String>,
}

fn cursor_number(c: Option<&str>) -> ApiResult<i64> {
    match c.map(str::trim).filter(|c| !c.is_empty()) {
        None => Ok(0),
        Some(c) => c
            .parse::<i64>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| ApiError::invalid_field("cursor", "validation.invalid")),
    }
}

/// The channel's orders, oldest first, a page at a time (1 to 100 a page; 50 by default).
#[utoipa::path(get, path = "/orders", tag = "integrator", params(CursorQuery),
    responses((status = 200, body = IntegratorOrderPage), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody)),
    security(("apiKey" = [])))]
async fn list_orders(
    State(state): State<AppState>,
    Extension(k): Extension<KeyChannel>,
    Query(q): Query<CursorQuery>,
) -> ApiResult<Json<IntegratorOrderPage>> {
    let after = cursor_number(q.cursor.as_deref())?;
    let r = client(&state)?
        .api_list_orders(ctx(&state, &k).request(pb::ApiListOrdersRequest {
            api_channel_id: k.channel_id,
            after,
            limit: q.limit.unwrap_or(0),
        }))
        .await?
        .into_inner();
    Ok(Json(IntegratorOrderPage {
        data: r.orders.into_iter().map(order_body).collect(),
        next_cursor: (r.next > 0).then(|| r.next.to_string()),
    }))
}

/// One of the channel's orders.
#[utoipa::path(get, path = "/orders/{id}", tag = "integrator", params(("id" = i64, Path)),
    responses((status = 200, body = IntegratorOrder), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "order_not_found (not an order of this channel)"), (status = 429, body = ErrorBody)),
    security(("apiKey" = [])))]
async fn get_order(
    State(state): State<AppState>,
    Extension(k): Extension<KeyChannel>,
    Path(id): Path<i64>,
) -> ApiResult<Json<IntegratorOrder>> {
    let r = client(&state)?
        .api_get_order(ctx(&state, &k).request(pb::ApiOrderRequest { api_channel_id: k.channel_id, order_id: id }))
        .await?
        .into_inner();
    Ok(Json(order_body(r.order.unwrap_or_default())))
}

/// Why an order is cancelled.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct CancelInput {
    /// 1 to 500 characters.
    #[schema(example = "The buyer cancelled on our site")]
    pub reason: String,
}

/// Cancels one of the channel's orders while it is not sent yet; its stock is freed.
#[utoipa::path(post, path = "/orders/{id}/cancel", tag = "integrator", params(("id" = i64, Path)), request_body = CancelInput,
    responses((status = 200, body = IntegratorOrder), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "already_cancelled, already_shipped, ..."), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody)),
    security(("apiKey" = [])))]
async fn cancel_order(
    State(state): State<AppState>,
    Extension(k): Extension<KeyChannel>,
    Path(id): Path<i64>,
    Body(b): Body<CancelInput>,
) -> ApiResult<Json<IntegratorOrder>> {
    let r = client(&state)?
        .api_cancel_order(ctx(&state, &k).request(pb::ApiCancelOrderRequest {
            api_channel_id: k.channel_id,
            order_id: id,
            reason: b.reason,
        }))
        .await?
        .into_inner();
    Ok(Json(order_body(r.order.unwrap_or_default())))
}

/// One of the store's SKUs.
#[derive(Debug, Serialize, ToSchema)]
pub struct IntegratorSku {
    pub sku_id: i64,
    pub sku_code: String,
    pub product_id: i64,
    pub product_name: String,
    pub option1: String,
    pub option2: String,
    pub price_satang: i64,
    pub barcode: String,
    /// Units free in the channel's warehouse.
    pub available: i64,
    /// Your product ids linked to it.
    pub external_ids: Vec<String>,
}

/// A page of SKUs.
#[derive(Debug, Serialize, ToSchema)]
pub struct IntegratorSkuPage {
    pub data: Vec<IntegratorSku>,
    /// Give it as `cursor` for the next page (null: this is the last).
    pub next_cursor: Option<String>,
}

/// Which SKUs.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct SkuQuery {
    /// The `next_cursor` of the page before.
    pub cursor: Option<String>,
    /// SKUs per page (1 to 100; 50 by default).
    pub limit: Option<i64>,
    /// Part of a product's name, a SKU code or a barcode.
    pub search: Option<String>,
}

/// The store's SKUs with what is free of each in the channel's warehouse.
#[utoipa::path(get, path = "/skus", tag = "integrator", params(SkuQuery),
    responses((status = 200, body = IntegratorSkuPage), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody)),
    security(("apiKey" = [])))]
async fn list_skus(
    State(state): State<AppState>,
    Extension(k): Extension<KeyChannel>,
    Query(q): Query<SkuQuery>,
) -> ApiResult<Json<IntegratorSkuPage>> {
    let page = cursor_number(q.cursor.as_deref())?.max(1);
    let r = client(&state)?
        .api_list_skus(ctx(&state, &k).request(pb::ApiListSkusRequest {
            api_channel_id: k.channel_id,
            page,
            limit: q.limit.unwrap_or(0),
            search: q.search.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    Ok(Json(IntegratorSkuPage {
        data: r
            .skus
            .into_iter()
            .map(|s| IntegratorSku {
                sku_id: s.sku_id,
                sku_code: s.sku_code,
                product_id: s.product_id,
                product_name: s.product_name,
                option1: s.option1,
                option2: s.option2,
                price_satang: s.price,
                barcode: s.barcode,
                available: s.available,
                external_ids: s.external_ids,
            })
            .collect(),
        next_cursor: (r.next_page > 0).then(|| r.next_page.to_string()),
    }))
}

/// Your product id linked to one of the store's SKUs.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct IntegratorLinkInput {
    #[schema(example = "woo-77")]
    pub external_id: String,
    /// The SKU by code (or `sku_id`; neither unlinks the id).
    #[schema(example = "TS-001-RED-M")]
    pub sku_code: String,
    pub sku_id: i64,
}

/// Links to make.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct IntegratorLinksInput {
    /// 1 to 500 links.
    pub links: Vec<IntegratorLinkInput>,
}

/// What became of one link.
#[derive(Debug, Serialize, ToSchema)]
pub struct IntegratorLinkResult {
    pub external_id: String,
    /// The SKU it is linked to (0: unlinked, or refused).
    pub sku_id: i64,
    /// Why it was refused (null: done): validation.sku_unknown, validation.external_id.
    pub error: Option<String>,
}

/// Each link's outcome, in the order sent.
#[derive(Debug, Serialize, ToSchema)]
pub struct IntegratorLinkResults {
    pub data: Vec<IntegratorLinkResult>,
}

/// Links your product ids to the store's SKUs, each answered on its own: order lines may then
/// name the id, and the stock of a linked SKU is what `GET /stock` tells.
#[utoipa::path(post, path = "/sku-links", tag = "integrator", request_body = IntegratorLinksInput,
    responses((status = 200, body = IntegratorLinkResults), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody)),
    security(("apiKey" = [])))]
async fn link_skus(
    State(state): State<AppState>,
    Extension(k): Extension<KeyChannel>,
    Body(b): Body<IntegratorLinksInput>,
) -> ApiResult<Json<IntegratorLinkResults>> {
    let r = client(&state)?
        .api_link_skus(
            ctx(&state, &k).request(pb::ApiLinkSkusRequest {
                api_channel_id: k.channel_id,
                links: b
                    .links
                    .into_iter()
                    .map(|l| pb::ApiLink { external_id: l.external_id, sku_code: l.sku_code, sku_id: l.sku_id })
                    .collect(),
            }),
        )
        .await?
        .into_inner();
    Ok(Json(IntegratorLinkResults {
        data: r
            .results
            .into_iter()
            .map(|x| IntegratorLinkResult {
                external_id: x.external_id,
                sku_id: x.sku_id,
                error: (!x.error.is_empty()).then_some(x.error),
            })
            .collect(),
    }))
}

/// A linked SKU's stock.
#[derive(Debug, Serialize, ToSchema)]
pub struct IntegratorStock {
    pub external_id: String,
    pub sku_id: i64,
    pub sku_code: String,
    /// Units free in the channel's warehouse.
    pub available: i64,
}

/// A page of stock.
#[derive(Debug, Serialize, ToSchema)]
pub struct IntegratorStockPage {
    pub data: Vec<IntegratorStock>,
    /// Give it as `cursor` for the next page (null: this is the last).
    pub next_cursor: Option<String>,
}

/// The stock of your linked product ids as the channel is told it, in id order (1 to 500 a
/// page; 100 by default).
#[utoipa::path(get, path = "/stock", tag = "integrator", params(CursorQuery),
    responses((status = 200, body = IntegratorStockPage), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 429, body = ErrorBody)),
    security(("apiKey" = [])))]
async fn list_stock(
    State(state): State<AppState>,
    Extension(k): Extension<KeyChannel>,
    Query(q): Query<CursorQuery>,
) -> ApiResult<Json<IntegratorStockPage>> {
    let r = client(&state)?
        .api_list_stock(ctx(&state, &k).request(pb::ApiListStockRequest {
            api_channel_id: k.channel_id,
            after: q.cursor.unwrap_or_default(),
            limit: q.limit.unwrap_or(0),
        }))
        .await?
        .into_inner();
    Ok(Json(IntegratorStockPage {
        data: r
            .stock
            .into_iter()
            .map(|s| IntegratorStock {
                external_id: s.external_id,
                sku_id: s.sku_id,
                sku_code: s.sku_code,
                available: s.available,
            })
            .collect(),
        next_cursor: (!r.next.is_empty()).then_some(r.next),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keys_budget_is_spent_then_refilled_at_its_pace() {
        let gate = KeyGate::new(60);
        let t0 = Instant::now();
        for i in 0..60 {
            let b = gate.take("k", t0);
            assert!(b.allowed, "call {i}");
            assert_eq!(b.remaining, 59 - i);
        }
        let b = gate.take("k", t0);
        assert!(!b.allowed);
        assert_eq!((b.limit, b.remaining, b.retry_after_s, b.reset_s), (60, 0, 1, 60));
        assert!(gate.take("other", t0).allowed, "each key has its own budget");
        // A second later, one call more.
        let b = gate.take("k", t0 + Duration::from_millis(1_000));
        assert!(b.allowed);
        assert!(!gate.take("k", t0 + Duration::from_millis(1_000)).allowed);
    }

    #[test]
    fn the_document_names_every_call_with_the_key() {
        let doc = document();
        let paths: Vec<&String> = doc.paths.paths.keys().collect();
        assert_eq!(paths, vec!["/orders", "/orders/{id}", "/orders/{id}/cancel", "/sku-links", "/skus", "/stock"]);
        assert!(doc.components.unwrap().security_schemes.contains_key("apiKey"));
    }

    #[test]
    fn cursors_are_positive_numbers() {
        assert_eq!(cursor_number(None).unwrap(), 0);
        assert_eq!(cursor_number(Some(" 12 ")).unwrap(), 12);
        assert!(cursor_number(Some("-1")).is_err());
        assert!(cursor_number(Some("abc")).is_err());
    }
}
