//! Orders in: a marketplace's push is checked, kept and answered at once ([`Intake::receive`]),
//! then handled by the push worker ([`Intake::run_pushes`]), which fetches the order as the
//! marketplace holds it now and hands it to the orders service. Behind the pushes, every
//! connected shop is polled over its update-time watermark ([`Intake::poll_due`], in the
//! marketplace's longest window), so an order whose push was lost still comes in.
//!
//! Nothing is taken twice: pushes are kept once per body, the orders service keys orders by
//! channel and number and ignores a change no newer than the one it follows, and a change
//! already handed over (`channel_orders`) is not fetched again by the poll.
//!
//! Access tokens are refreshed when a shop call is about to need one, by one worker at a time
//! per shop (a lease), and written only over the tokens that were spent (a fence), so two
//! replicas never spend one single-use refresh token. A refusal of the authorization itself
//! marks the shop `token expired`, which stops its pushes and polls until it is connected
//! again; its watermark stays, so the first poll after the reconnect takes in what was missed.

pub mod api;
mod catalog;
pub mod magento;
mod returns;
pub mod shipping;
mod stock;
mod webhooks;

use std::sync::Arc;
use std::time::Duration;

use bo_kit::grpc::{GrpcChannel, ServiceIdentity};
use bo_kit::time::now_ms;
use bo_kit::{Code, Error};
use bo_proto::orders::v1 as opb;
use bo_proto::orders::v1::orders_service_client::OrdersServiceClient;
use bo_proto::products::v1::products_service_client::ProductsServiceClient;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::adapters::{Adapter, ChannelError, MarketOrder, Push, PushError, Secret, Session, Shop};
use crate::domain::channel::runs;
use crate::domain::status::{OrderState, Stage};
use crate::domain::Marketplace;
use crate::store::{outcome, ChannelRow, Learnt, Linked, PushRow, Repo};
use crate::Settings;
pub use catalog::{AutoLinked, FileImport};
pub use stock::StockLinks;
pub use webhooks::WebhookEvents;

/// Pushes handled at once.
const PUSH_BATCH: i64 = 32;
/// Attempts at a push before it is left to the poll.
const PUSH_ATTEMPTS: i64 = 12;
/// A token is refreshed when it ends within this, seconds.
const REFRESH_AHEAD_S: i64 = 300;
/// How long a refresher holds a shop's lease.
const REFRESH_LEASE: Duration = Duration::from_secs(60);
/// The furthest back a poll reaches after a long disconnection, seconds (Shopee keeps
/// order lists of about this long).
const BACKFILL_S: i64 = 90 * 24 * 3600;

/// What went wrong taking orders in.
#[derive(Debug)]
pub enum Trouble {
    /// The marketplace's.
    Channel(ChannelError),
    /// Ours (storage, the orders service).
    Ours(Error),
}

impl From<ChannelError> for Trouble {
    fn from(e: ChannelError) -> Self {
        Trouble::Channel(e)
    }
}

impl From<Trouble> for Error {
    fn from(t: Trouble) -> Self {
        match t {
            Trouble::Channel(e) => e.into(),
            Trouble::Ours(e) => e,
        }
    }
}

impl From<Error> for Trouble {
    fn from(e: Error) -> Self {
        Trouble::Ours(e)
    }
}

impl std::fmt::Display for Trouble {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Trouble::Channel(e) => write!(f, "{e}"),
            Trouble::Ours(e) => write!(f, "{e}"),
        }
    }
}

/// What a poll of one shop did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Polled {
    /// Marketplace orders handed to the orders service.
    pub orders: usize,
    /// Buyers' returns handed to the orders service.
    pub returns: usize,
}

/// The order intake of the marketplaces service.
#[derive(Clone)]
pub struct Intake {
    inner: Arc<Inner>,
}

struct Inner {
    repo: Repo,
    settings: Arc<Settings>,
    adapters: Arc<Vec<Arc<dyn Adapter>>>,
    orders: Option<OrdersServiceClient<GrpcChannel>>,
    wms: Option<WmsServiceClient<GrpcChannel>>,
    products: Option<ProductsServiceClient<GrpcChannel>>,
    identity: Option<ServiceIdentity>,
    wake: Notify,
    wake_imports: Notify,
    wake_webhooks: Notify,
    /// Sends webhooks: its own timeout, no redirects.
    hooks_http: reqwest::Client,
    /// Calls Magento shops (the marketplaces' timeout).
    magento_http: reqwest::Client,
}

/// The services the intake calls.
#[derive(Clone, Default)]
pub struct Services {
    /// Takes the marketplace orders in.
    pub orders: Option<OrdersServiceClient<GrpcChannel>>,
    /// The stock ledger.
    pub wms: Option<WmsServiceClient<GrpcChannel>>,
    /// The catalog (SKUs matched, products made from listings).
    pub products: Option<ProductsServiceClient<GrpcChannel>>,
    /// Who the intake acts as.
    pub identity: Option<ServiceIdentity>,
    /// Sends open-API channels' webhooks (`outbound::client` with the webhook timeout).
    pub webhooks_http: reqwest::Client,
    /// Calls Magento shops.
    pub magento_http: reqwest::Client,
}

/// A text cut to a loggable, storable length.
fn clip_why(s: &str) -> String {
    s.chars().take(200).collect()
}

/// How a stage dates a change within its second: marketplaces date changes in seconds, and
/// an order may be paid and arranged in the same one. A later stage of the same second is
/// newer; the orders service ignores what is not.
fn change_ms(updated_at_s: i64, stage: Stage) -> i64 {
    updated_at_s.max(0) * 1000 + stage as i64
}

fn order_state(s: OrderState) -> opb::OrderState {
    match s {
        OrderState::New => opb::OrderState::New,
        OrderState::ReadyToFulfillment => opb::OrderState::ReadyToFulfillment,
        OrderState::Shipped => opb::OrderState::Shipped,
        OrderState::Closed => opb::OrderState::Closed,
        OrderState::Cancelled => opb::OrderState::Cancelled,
        OrderState::Failed => opb::OrderState::Failed,
    }
}

/// What the orders service is handed for a marketplace order at `stage`: lines at the price
/// the buyer pays for them, the seller's order-wide discounts apart (what the lines' prices
/// do not already take off), shipping as the buyer pays it. The marketplace's own discounts
/// are the marketplace's money and are not the shop's. A listing that is a bundle comes as
/// its parts, at prices sharing what was paid for it (what their rounding adds is taken off
/// again as a discount).
/// `linked` names what each listing is linked to, where it is. Beside the request: for each
/// of its lines, the marketplace line it is (None for a bundle's parts).
pub fn take_request(
    ch: &ChannelRow,
    o: &MarketOrder,
    stage: Stage,
    linked: &std::collections::HashMap<(String, String), Linked>,
) -> (opb::TakeChannelOrderRequest, Vec<Option<usize>>) {
    let meaning = stage.order();
    // A paid price of 0 says nothing (Shopee's bundle items): the line is at its unit price.
    let paid = |l: &crate::adapters::MarketLine| {
        if l.paid_unit_price_satang > 0 {
            l.paid_unit_price_satang
        } else {
            l.unit_price_satang
        }
    };
    let in_lines: i64 = o.lines.iter().map(|l| (l.unit_price_satang - paid(l)).max(0).saturating_mul(l.quantity)).sum();
    let mut lines = Vec::with_capacity(o.lines.len());
    let mut sources = Vec::with_capacity(o.lines.len());
    let mut rounding = 0;
    for (i, l) in o.lines.iter().enumerate() {
        let listing = if l.model_id.is_empty() { l.item_id.clone() } else { format!("{}:{}", l.item_id, l.model_id) };
        match linked.get(&(l.item_id.clone(), l.model_id.clone())) {
            Some(Linked::Bundle(parts)) => {
                let (part_lines, excess) = crate::domain::bundle::lines(l.quantity, paid(l), parts);
                rounding += excess;
                for p in part_lines {
                    lines.push(opb::ChannelLine {
                        seller_sku: l.seller_sku.clone(),
                        name: l.name.clone(),
                        listing: listing.clone(),
                        quantity: p.quantity,
                        unit_price: p.unit_price,
                        sku_id: p.sku_id,
                    });
                    sources.push(None);
                }
            }
            found => {
                lines.push(opb::ChannelLine {
                    seller_sku: l.seller_sku.clone(),
                    name: l.name.clone(),
                    listing,
                    quantity: l.quantity,
                    unit_price: paid(l),
                    sku_id: match found {
                        Some(Linked::Sku(sku)) => *sku,
                        _ => 0,
                    },
                });
                sources.push(Some(i));
            }
        }
    }
    let a = &o.address;
    let request = opb::TakeChannelOrderRequest {
        store_channel_id: ch.id,
        shop_name: ch.shop_name.clone(),
        channel: ch.marketplace.clone(),
        reference: if o.order_number.is_empty() { o.order_id.clone() } else { o.order_number.clone() },
        changed_at_ms: change_ms(o.updated_at_s, stage),
        state: order_state(meaning.state) as i32,
        payment: match meaning.paid {
            Some(true) => opb::ChannelPayment::Paid,
            Some(false) => opb::ChannelPayment::Unpaid,
            None => opb::ChannelPayment::Unspecified,
        } as i32,
        status_word: o.status.clone(),
        cod: o.cod,
        // Set by the caller, which knows the marketplace's adapter.
        platform_ships: false,
        warehouse_id: ch.warehouse_id,
        address: Some(opb::Address {
            name: a.name.clone(),
            tel: a.phone.clone(),
            address: a.full.clone(),
            sub_district: a.sub_district.clone(),
            district: a.district.clone(),
            state_province: a.province.clone(),
            postcode: a.postcode.clone(),
            country: "TH".into(),
            ..Default::default()
        }),
        lines,
        shipping_charge: o.shipping_fee_satang.max(0),
        discount: (o.seller_discount_satang - in_lines).max(0) + rounding,
        note: o.note.clone(),
        source: opb::ChannelSource::Marketplace as i32,
        logistic_store_channel_id: 0,
        ..Default::default()
    };
    (request, sources)
}

/// A push's kept form: its marketplace, its digest (the body and its place in it) and shop.
fn push_digest(m: Marketplace, body: &[u8], index: usize) -> String {
    let mut ctx = ring::digest::Context::new(&ring::digest::SHA256);
    ctx.update(m.code().as_bytes());
    ctx.update(&(index as u64).to_be_bytes());
    ctx.update(body);
    hex::encode(ctx.finish().as_ref())
}

fn push_shop(p: &Push) -> (&str, &'static str) {
    match p {
        Push::OrderChanged { shop_id, .. } => (shop_id, "order_changed"),
        Push::AuthorizationExpiring { shop_id, .. } => (shop_id, "authorization_expiring"),
        Push::Deauthorized { shop_id } => (shop_id, "deauthorized"),
        Push::ReturnChanged { shop_id } => (shop_id, "return_changed"),
        Push::Other { .. } => ("", "other"),
    }
}

/// The wait before attempt `n + 1` of a push: 2 s doubling, at most 30 minutes.
fn backoff_ms(attempts: i64) -> i64 {
    (2_000i64 << attempts.clamp(0, 10)).min(30 * 60 * 1000)
}

impl Intake {
    /// The intake over `repo`, handing orders to the orders service, reading the stock ledger
    /// and the catalog, as the services' identity.
    pub fn new(
        repo: Repo,
        settings: Arc<Settings>,
        adapters: Arc<Vec<Arc<dyn Adapter>>>,
        services: Services,
    ) -> Intake {
        let Services { orders, wms, products, identity, webhooks_http: hooks_http, magento_http } = services;
        Intake {
            inner: Arc::new(Inner {
                repo,
                settings,
                adapters,
                orders,
                wms,
                products,
                identity,
                wake: Notify::new(),
                wake_imports: Notify::new(),
                wake_webhooks: Notify::new(),
                hooks_http,
                magento_http,
            }),
        }
    }

    fn adapter(&self, m: Marketplace) -> Option<&Arc<dyn Adapter>> {
        self.inner.adapters.iter().find(|a| a.marketplace() == m)
    }

    /// Where `m` pushes to, as the marketplace is given it (its signature covers it).
    pub fn push_url(&self, m: Marketplace) -> String {
        format!("{}/api/marketplaces/{}/push", self.inner.settings.public_url.trim_end_matches('/'), m.path())
    }

    /// Checks a push's signature over its raw body, keeps what it says, and answers how the
    /// marketplace wants to be answered: (HTTP status, body, pushes newly kept).
    pub async fn receive(
        &self,
        m: Marketplace,
        headers: &http::HeaderMap,
        body: &[u8],
    ) -> bo_kit::Result<(u16, &'static str, usize)> {
        let adapter = self.adapter(m).ok_or_else(|| Error::not_found(Code::MarketplaceNotConfigured))?;
        let pushes = adapter.read_push(&self.push_url(m), headers, body).map_err(|e| match e {
            PushError::BadSignature => Error::new(bo_kit::error::Kind::Unauthenticated, Code::MarketplacePushUnsigned),
            PushError::Malformed(why) => {
                tracing::info!(marketplace = m.code(), why = %why, "an unreadable marketplace push");
                Error::invalid_field("body", "validation.invalid")
            }
        })?;
        let mut kept = 0;
        for (i, p) in pushes.iter().enumerate() {
            let (shop, kind) = push_shop(p);
            let text = serde_json::to_string(p).map_err(Error::internal)?;
            if self.inner.repo.keep_push(m, &push_digest(m, body, i), shop, kind, &text).await? {
                kept += 1;
            }
        }
        if kept > 0 {
            self.inner.wake.notify_one();
        }
        let (status, answer) = adapter.push_answer();
        Ok((status, answer, kept))
    }

    /// Handles kept pushes as they come, until cancelled.
    pub async fn run_pushes(self, cancel: CancellationToken) {
        loop {
            let handled = match self.handle_due().await {
                Ok(n) => n,
                Err(e) => {
                    tracing::warn!(error = %e, "could not read the marketplaces' pushes");
                    0
                }
            };
            if handled > 0 {
                continue;
            }
            tokio::select! {
                _ = self.inner.wake.notified() => {}
                _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                _ = cancel.cancelled() => return,
            }
        }
    }

    /// Handles the pushes due now (a batch at a time, together): how many.
    pub async fn handle_due(&self) -> bo_kit::Result<usize> {
        let due = self.inner.repo.claim_pushes(PUSH_BATCH).await?;
        let n = due.len();
        futures::future::join_all(due.into_iter().map(|p| self.handle(p))).await;
        Ok(n)
    }

    async fn handle(&self, row: PushRow) {
        let done = self.handle_one(&row).await;
        let repo = &self.inner.repo;
        let kept = match done {
            Ok(outcome) => repo.finish_push(row.id, outcome).await,
            Err(Trouble::Channel(ChannelError::AuthorizationEnded(_))) => {
                repo.finish_push(row.id, outcome::GAVE_UP).await
            }
            Err(e) if row.attempts >= PUSH_ATTEMPTS => {
                // The poll takes in what the push named.
                tracing::warn!(push = row.id, error = %e, "a marketplace push was given up after its attempts");
                repo.finish_push(row.id, outcome::GAVE_UP).await
            }
            Err(e) => {
                tracing::info!(push = row.id, attempts = row.attempts, error = %e, "a marketplace push will be tried again");
                let why: String = e.to_string().chars().take(200).collect();
                repo.retry_push(row.id, backoff_ms(row.attempts), &why).await
            }
        };
        if let Err(e) = kept {
            tracing::warn!(push = row.id, error = %e, "could not record a push's handling");
        }
    }

    async fn handle_one(&self, row: &PushRow) -> Result<&'static str, Trouble> {
        let m =
            Marketplace::parse(&row.marketplace).ok_or_else(|| Error::internal(anyhow::anyhow!("no marketplace")))?;
        let push: Push = serde_json::from_str(&row.body).map_err(Error::internal)?;
        let repo = &self.inner.repo;
        match push {
            Push::OrderChanged { shop_id, order_id, .. } => {
                let Some(ch) = repo.by_shop(m, &shop_id).await?.filter(|c| runs(c.status(), c.link())) else {
                    return Ok(outcome::NO_SHOP);
                };
                self.take_orders(&ch, &[order_id]).await?;
                Ok(outcome::DONE)
            }
            Push::AuthorizationExpiring { shop_id, expires_at_s } => {
                let Some(ch) = repo.by_shop(m, &shop_id).await? else { return Ok(outcome::NO_SHOP) };
                if expires_at_s > bo_kit::time::now_ms() / 1000 {
                    // Announced ahead: the shop works until then, and its owner is warned.
                    repo.set_authorization_end(ch.id, expires_at_s).await?;
                } else if repo.lose_link(ch.id).await? {
                    tracing::info!(store_channel = ch.id, "a marketplace said a shop's authorization ended");
                }
                Ok(outcome::DONE)
            }
            Push::ReturnChanged { shop_id } => {
                let Some(ch) = repo.by_shop(m, &shop_id).await?.filter(|c| runs(c.status(), c.link())) else {
                    return Ok(outcome::NO_SHOP);
                };
                let adapter =
                    self.adapter(m).ok_or_else(|| Error::failed_precondition(Code::MarketplaceNotConfigured))?.clone();
                self.poll_returns(&ch, adapter.as_ref()).await?;
                Ok(outcome::DONE)
            }
            Push::Deauthorized { shop_id } => {
                if let Some(ch) = repo.by_shop(m, &shop_id).await? {
                    repo.lose_link(ch.id).await?;
                    tracing::info!(store_channel = ch.id, "a seller took back a shop's authorization");
                }
                Ok(outcome::DONE)
            }
            Push::Other { .. } => Ok(outcome::DONE),
        }
    }

    /// A live access token for a shop: the kept one, or a new one when it ends soon (one
    /// refresher per shop; the others wait for its tokens). An authorization the marketplace
    /// refuses marks the shop lost.
    async fn access(&self, adapter: &dyn Adapter, ch: &ChannelRow) -> Result<Secret, Trouble> {
        let repo = &self.inner.repo;
        for _ in 0..10 {
            let (tokens, fence) = repo.tokens_fenced(ch.id).await?;
            if tokens.access_expires_at_s > now_ms() / 1000 + REFRESH_AHEAD_S {
                return Ok(tokens.access);
            }
            let lease = format!("marketplaces.refresh.{}", ch.id);
            if !repo.lease(&lease, REFRESH_LEASE).await? {
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            }
            let refreshed = bo_kit::schedule::held(
                repo.db(),
                &lease,
                bo_kit::schedule::holder_id(),
                REFRESH_LEASE,
                adapter.refresh(&ch.shop(), &tokens.refresh),
            )
            .await;
            let out = match refreshed {
                None => Err(Trouble::Ours(Error::internal(anyhow::anyhow!("lost the refresh lease")))),
                Some(Ok(new)) => {
                    if repo.save_refreshed(ch.id, &fence, &new).await? {
                        Ok(new.access)
                    } else {
                        // Another refresher wrote first (its tokens are the live ones).
                        Err(Trouble::Ours(Error::conflict(Code::MarketplaceTokenExpired)))
                    }
                }
                Some(Err(e @ ChannelError::AuthorizationEnded(_))) => {
                    if repo.lose_link(ch.id).await? {
                        tracing::info!(store_channel = ch.id, error = %e, "a shop's authorization ended: it must be connected again");
                    }
                    Err(e.into())
                }
                Some(Err(e)) => Err(e.into()),
            };
            repo.release_lease(&lease).await?;
            return out;
        }
        Err(Trouble::Ours(Error::new(bo_kit::error::Kind::Unavailable, Code::MarketplaceUnreachable)))
    }

    /// Fetches the orders of `ids` as the marketplace holds them now and hands each to the
    /// orders service: how many made or moved an order.
    async fn take_orders(&self, ch: &ChannelRow, ids: &[String]) -> Result<usize, Trouble> {
        let m = ch.marketplace().ok_or_else(|| Error::internal(anyhow::anyhow!("no marketplace")))?;
        let adapter =
            self.adapter(m).ok_or_else(|| Error::failed_precondition(Code::MarketplaceNotConfigured))?.clone();
        let shop: Shop = ch.shop();
        let mut taken = 0;
        for chunk in ids.chunks(adapter.limits().details_per_call.max(1)) {
            let fetched = self
                .call(adapter.as_ref(), ch, |access| {
                    let (adapter, shop) = (&adapter, &shop);
                    async move { adapter.orders(Session { shop, access: &access }, chunk).await }
                })
                .await?;
            for o in &fetched {
                if self.take(ch, o).await? {
                    taken += 1;
                }
            }
        }
        Ok(taken)
    }

    /// A shop call with a live access token; a token the marketplace refused before its
    /// time is refreshed and the call made once more.
    async fn call<T, F, Fut>(&self, adapter: &dyn Adapter, ch: &ChannelRow, f: F) -> Result<T, Trouble>
    where
        F: Fn(Secret) -> Fut,
        Fut: std::future::Future<Output = Result<T, ChannelError>>,
    {
        let access = self.access(adapter, ch).await?;
        match f(access).await {
            Err(ChannelError::TokenRefused(_)) => {
                self.inner.repo.expire_access(ch.id).await?;
                let access = self.access(adapter, ch).await?;
                Ok(f(access).await?)
            }
            other => Ok(other?),
        }
    }

    /// Hands one marketplace order to the orders service: true when it made or moved an
    /// order (false for a change it had, and for a status we do not know, which is logged).
    async fn take(&self, ch: &ChannelRow, o: &MarketOrder) -> Result<bool, Trouble> {
        let Some(stage) = o.stage else {
            tracing::warn!(store_channel = ch.id, order = %o.order_id, status = %o.status, "a marketplace status we do not know");
            return Ok(false);
        };
        let unavailable = || Error::new(bo_kit::error::Kind::Unavailable, Code::ServiceUnavailable);
        let mut orders = self.inner.orders.clone().ok_or_else(unavailable)?;
        let identity = self.inner.identity.as_ref().ok_or_else(unavailable)?;
        let listings: Vec<(String, String)> = o.lines.iter().map(|l| (l.item_id.clone(), l.model_id.clone())).collect();
        let linked = self.inner.repo.linked(ch.id, &listings).await?.into_iter().collect();
        let (mut req, sources) = take_request(ch, o, stage, &linked);
        // Where we ship the marketplace's way, its orders move on the platform first.
        req.platform_ships = ch.marketplace().and_then(|m| self.adapter(m)).is_some_and(|a| a.shipping().is_some());
        let r = orders
            .take_channel_order(identity.acting(ch.store_id, 0).request(req))
            .await
            .map_err(|s| Error::from_status(&s))?
            .into_inner();
        let stage_word =
            serde_json::to_value(stage).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
        // The listings sold as our SKUs are linked, and their stock is pushed from now on.
        let learnt: Vec<Learnt> = sources
            .iter()
            .zip(&r.line_sku_ids)
            .filter_map(|(source, sku)| {
                let l = &o.lines[(*source)?];
                Some(Learnt {
                    item_id: l.item_id.clone(),
                    model_id: l.model_id.clone(),
                    seller_sku: l.seller_sku.clone(),
                    sku_id: *sku,
                })
            })
            .collect();
        self.inner.repo.learn_links(ch.store_id, ch.id, &learnt).await?;
        self.inner
            .repo
            .record_taken(ch.id, &o.order_id, o.updated_at_s, &stage_word, &o.cancel_reason, r.order_id)
            .await?;
        Ok(matches!(r.outcome(), opb::ChannelTake::Created | opb::ChannelTake::Updated))
    }

    /// Takes the pushes a marketplace could not deliver and kept for us (Shopee's lost-push
    /// list) into the inbox, and confirms them: how many.
    pub async fn recover_lost(&self) -> usize {
        let mut kept = 0;
        for adapter in self.inner.adapters.iter() {
            let m = adapter.marketplace();
            // At most ten pages a round: the next round goes on.
            for _ in 0..10 {
                let lost = match adapter.lost_pushes().await {
                    Ok(Some(lost)) => lost,
                    Ok(None) => break,
                    Err(e) => {
                        tracing::info!(marketplace = m.code(), error = %e, "could not read the marketplace's lost pushes");
                        break;
                    }
                };
                let (pushes, mark, more) = lost;
                for p in &pushes {
                    let (shop, kind) = push_shop(p);
                    let Ok(text) = serde_json::to_string(p) else { continue };
                    let digest = push_digest(m, format!("lost:{text}").as_bytes(), 0);
                    match self.inner.repo.keep_push(m, &digest, shop, kind, &text).await {
                        Ok(true) => kept += 1,
                        Ok(false) => {}
                        Err(e) => {
                            tracing::warn!(error = %e, "could not keep a lost push");
                            return kept;
                        }
                    }
                }
                if let Err(e) = adapter.confirm_lost_pushes(mark).await {
                    tracing::info!(marketplace = m.code(), error = %e, "could not confirm the marketplace's lost pushes");
                    break;
                }
                if !more {
                    break;
                }
            }
        }
        if kept > 0 {
            self.inner.wake.notify_one();
        }
        kept
    }

    /// Refreshes the tokens of connected shops whose access ends within the hour, whether
    /// or not their jobs run (a shop turned off keeps its authorization alive).
    pub async fn refresh_due(&self) -> bo_kit::Result<usize> {
        let due = self.inner.repo.access_ending(now_ms() / 1000 + 3600, 50).await?;
        let mut refreshed = 0;
        for ch in due {
            let Some(adapter) = ch.marketplace().and_then(|m| self.adapter(m)).cloned() else { continue };
            match self.access(adapter.as_ref(), &ch).await {
                Ok(_) => refreshed += 1,
                Err(e) => {
                    tracing::info!(store_channel = ch.id, error = %e, "a shop's tokens could not be refreshed now")
                }
            }
        }
        Ok(refreshed)
    }

    /// Polls the shops whose turn it is (each at most once per `poll_every_ms`).
    pub async fn poll_due(&self) -> bo_kit::Result<usize> {
        let every = self.inner.settings.poll_every_ms as i64;
        let due = self.inner.repo.due_for_poll(now_ms() - every, 50).await?;
        let mut taken = 0;
        for ch in due {
            match self.poll(&ch).await {
                Ok(p) => taken += p.orders,
                Err(e) => {
                    tracing::info!(store_channel = ch.id, error = %e, "a shop's poll failed; the next round tries again")
                }
            }
        }
        Ok(taken)
    }

    /// Polls one shop: the orders it changed since its watermark (less an overlap, in the
    /// marketplace's longest window at a time) that were not taken in at that change yet.
    pub async fn poll(&self, ch: &ChannelRow) -> Result<Polled, Trouble> {
        let out = self.poll_once(ch).await;
        if out.is_err() {
            self.inner.repo.poll_tried(ch.id).await?;
        }
        out
    }

    async fn poll_once(&self, ch: &ChannelRow) -> Result<Polled, Trouble> {
        let m = ch.marketplace().ok_or_else(|| Error::internal(anyhow::anyhow!("no marketplace")))?;
        let adapter =
            self.adapter(m).ok_or_else(|| Error::failed_precondition(Code::MarketplaceNotConfigured))?.clone();
        let shop = ch.shop();
        let now_s = now_ms() / 1000;
        let window = adapter.limits().window_s.max(60);
        let mut from = (ch.orders_watermark - self.inner.settings.poll_overlap_s as i64).max(now_s - BACKFILL_S);
        let mut polled = Polled::default();
        while from < now_s {
            let to = (from + window).min(now_s);
            let mut cursor: Option<String> = None;
            loop {
                let at = cursor.clone();
                let page = self
                    .call(adapter.as_ref(), ch, |access| {
                        let (adapter, shop, at) = (&adapter, &shop, at.clone());
                        async move {
                            adapter.changed_orders(Session { shop, access: &access }, from, to, at.as_deref()).await
                        }
                    })
                    .await?;
                let ids: Vec<String> = page.orders.iter().map(|c| c.order_id.clone()).collect();
                let known: std::collections::HashMap<String, i64> =
                    self.inner.repo.taken_changes(ch.id, &ids).await?.into_iter().collect();
                let wanted: Vec<String> = page
                    .orders
                    .iter()
                    .filter(|c| c.updated_at_s == 0 || known.get(&c.order_id).is_none_or(|t| *t < c.updated_at_s))
                    .map(|c| c.order_id.clone())
                    .collect();
                if !wanted.is_empty() {
                    polled.orders += self.take_orders(ch, &wanted).await?;
                }
                match page.next {
                    Some(next) if !page.orders.is_empty() => cursor = Some(next),
                    _ => break,
                }
            }
            from = to;
        }
        self.inner.repo.polled(ch.id, now_s).await?;
        // Returns after the orders they return.
        polled.returns = self.poll_returns(ch, adapter.as_ref()).await?;
        Ok(polled)
    }

    /// Polls the store's connected shops now (one, or all with 0): (shops polled, orders
    /// taken, shops that failed).
    pub async fn sync_store(&self, store_id: i64, store_channel_id: i64) -> bo_kit::Result<(usize, usize, Vec<i64>)> {
        let shops: Vec<ChannelRow> = self
            .inner
            .repo
            .list(store_id, &Default::default())
            .await?
            .into_iter()
            .filter(|c| store_channel_id == 0 || c.id == store_channel_id)
            .filter(|c| c.status() == crate::domain::channel::Status::Active)
            .collect();
        if store_channel_id != 0 && shops.is_empty() {
            return Err(Error::not_found(Code::MarketplaceChannelNotFound));
        }
        // What a marketplace kept for us comes in first (it names orders of any store).
        self.recover_lost().await;
        let (mut polled, mut taken, mut failed) = (0, 0, Vec::new());
        for ch in shops {
            if ch.token_expired != 0 {
                failed.push(ch.id);
                continue;
            }
            match self.poll(&ch).await {
                Ok(p) => {
                    polled += 1;
                    taken += p.orders;
                }
                Err(e) => {
                    tracing::info!(store_channel = ch.id, error = %e, "a shop could not be polled now");
                    failed.push(ch.id);
                }
            }
        }
        Ok((polled, taken, failed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::{Address, MarketLine};

    fn row() -> ChannelRow {
        ChannelRow {
            id: 7,
            store_id: 1,
            marketplace: "lazada".into(),
            shop_id: "100".into(),
            shop_name: "ร้านลาซาด้า".into(),
            region: "TH".into(),
            cipher: String::new(),
            warehouse_id: 2,
            logistic_channel_id: 0,
            payment_channel_id: 0,
            status: "active".into(),
            token_expired: 0,
            access_expires_at: 0,
            refresh_expires_at: 0,
            orders_watermark: 0,
            last_order_sync_at: 0,
            last_stock_push_at: 0,
            created_at: 0,
            updated_at: 0,
            version: 1,
        }
    }

    fn order() -> MarketOrder {
        MarketOrder {
            order_id: "555".into(),
            order_number: "LZ-555".into(),
            status: "pending".into(),
            stage: Some(Stage::Paid),
            updated_at_s: 1_700_000_000,
            address: Address {
                name: "สมชาย".into(),
                phone: "0812345678".into(),
                postcode: "10110".into(),
                ..Default::default()
            },
            lines: vec![
                MarketLine {
                    item_id: "1".into(),
                    model_id: "11".into(),
                    seller_sku: "TS-001".into(),
                    quantity: 2,
                    unit_price_satang: 25_000,
                    paid_unit_price_satang: 20_000,
                    ..Default::default()
                },
                MarketLine {
                    item_id: "2".into(),
                    seller_sku: "MUG".into(),
                    quantity: 1,
                    unit_price_satang: 9_900,
                    paid_unit_price_satang: 0,
                    ..Default::default()
                },
            ],
            shipping_fee_satang: 4_000,
            seller_discount_satang: 12_000,
            platform_discount_satang: 3_000,
            ..Default::default()
        }
    }

    #[test]
    fn a_marketplace_order_is_handed_over_at_what_the_shop_earns() {
        let linked = [(("2".to_string(), String::new()), Linked::Sku(42))].into_iter().collect();
        let (r, sources) = take_request(&row(), &order(), Stage::Paid, &linked);
        assert_eq!(sources, vec![Some(0), Some(1)]);
        assert_eq!((r.lines[0].sku_id, r.lines[1].sku_id), (0, 42), "a linked listing comes as its SKU");
        assert_eq!((r.store_channel_id, r.channel.as_str(), r.reference.as_str()), (7, "lazada", "LZ-555"));
        assert_eq!((r.state, r.payment), (opb::OrderState::New as i32, opb::ChannelPayment::Paid as i32));
        assert_eq!(r.lines[0].listing, "1:11");
        assert_eq!(r.lines[1].listing, "2", "a listing without variations");
        assert_eq!(
            (r.lines[0].unit_price, r.lines[1].unit_price),
            (20_000, 9_900),
            "a paid price of 0 is the unit price"
        );
        // 12,000 of seller discount, of which 2 × 5,000 already in the lines' prices.
        assert_eq!(r.discount, 2_000);
        assert_eq!(r.shipping_charge, 4_000);
        assert_eq!(r.warehouse_id, 2);
    }

    #[test]
    fn a_bundle_comes_as_its_parts_at_what_was_paid() {
        use crate::domain::bundle::Part;
        // Listing 1:11 is a set of two shirts (SKU 5) and a bag (SKU 6), the shirts 70%.
        let parts =
            vec![Part { sku_id: 5, per_set: 2, share_bp: 7000 }, Part { sku_id: 6, per_set: 1, share_bp: 3000 }];
        let linked = [(("1".to_string(), "11".to_string()), Linked::Bundle(parts))].into_iter().collect();
        let (r, sources) = take_request(&row(), &order(), Stage::Paid, &linked);
        assert_eq!(sources, vec![None, None, Some(1)]);
        let got: Vec<(i64, i64, i64)> = r.lines.iter().map(|l| (l.sku_id, l.quantity, l.unit_price)).collect();
        // Two sets at 200.00: 280.00 over 4 shirts, 120.00 over 2 bags.
        assert_eq!(got, vec![(5, 4, 7_000), (6, 2, 6_000), (0, 1, 9_900)]);
        assert_eq!(r.lines[0].listing, "1:11");
        let lines: i64 = r.lines.iter().map(|l| l.quantity * l.unit_price).sum();
        assert_eq!(lines - r.discount, 2 * 20_000 + 9_900 - 2_000, "the order comes to what was paid");
    }

    #[test]
    fn a_cancellation_says_nothing_of_the_payment() {
        let (r, _) = take_request(&row(), &order(), Stage::Cancelled, &Default::default());
        assert_eq!((r.state, r.payment), (opb::OrderState::Cancelled as i32, opb::ChannelPayment::Unspecified as i32));
    }

    #[test]
    fn later_stages_of_one_second_are_newer() {
        assert!(change_ms(100, Stage::Packed) > change_ms(100, Stage::Paid));
        assert!(change_ms(101, Stage::Unpaid) > change_ms(100, Stage::Failed));
    }

    #[test]
    fn a_push_is_kept_once_per_body_and_place() {
        let a = push_digest(Marketplace::Shopee, b"{}", 0);
        assert_eq!(a, push_digest(Marketplace::Shopee, b"{}", 0));
        assert_ne!(a, push_digest(Marketplace::Shopee, b"{}", 1));
        assert_ne!(a, push_digest(Marketplace::Lazada, b"{}", 0));
    }

    #[test]
    fn pushes_wait_longer_each_time_up_to_half_an_hour() {
        assert_eq!(backoff_ms(0), 2_000);
        assert_eq!(backoff_ms(1), 4_000);
        assert_eq!(backoff_ms(12), 30 * 60 * 1000);
    }
}
