//! What orders do with the other services: snapshot SKUs (products), read addresses
//! (stores), price shipping and hand out tracking numbers (logistics), and hold, release
//! and ship stock and parcels (wms).
//!
//! Stock follows a write-ahead rule: an order first records in its own database what it is
//! about to ask wms (`pending` with the next revision, `releasing`, `committing`), then asks,
//! then records the answer. A request that dies in between leaves the order in flight, and
//! the reconciler ([`Orders::reconcile`]) asks wms again: every command is idempotent there
//! (holds by revision, releases and shipping once per reference), and a hold whose answer
//! differs from the order's lines is set again to the lines, so wms always ends holding what
//! the order says.

use bo_kit::Code;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use bo_kit::grpc::{CallCtx, GrpcChannel, ServiceIdentity};
use bo_kit::outbox::Relay;
use bo_kit::paging::PageRequest;
use bo_kit::time::now_ms;
use bo_kit::{Error, FieldError, Result};
use bo_proto::logistics::v1 as lpb;
use bo_proto::logistics::v1::logistics_service_client::LogisticsServiceClient;
use bo_proto::orders::v1 as pb;
use bo_proto::products::v1 as ppb;
use bo_proto::products::v1::products_service_client::ProductsServiceClient;
use bo_proto::stores::v1 as spb;
use bo_proto::stores::v1::stores_service_client::StoresServiceClient;
use bo_proto::wms::v1 as wpb;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
use tokio::sync::Notify;

use crate::convert::book_address;
use crate::domain::draft::{self, Address, OrderDraft};
use crate::domain::money::{self, Charges};
use crate::domain::payment::PayAction;
use crate::domain::state::{self, Action};
use crate::domain::{self, bill, problem, stock};
use crate::store::{
    source, Actor, BillRow, BillTerms, Confirmation, Filter, Item, ItemRow, Moved, OrderData, OrderRow, PaymentInput,
    PaymentRow, Repo,
};
use bo_kit::files::{Files, Key};
use bo_kit::images;

mod channel;
mod imports;
mod orders;
mod parcels;
mod payments;
mod returns;
mod states;

/// True when `code` is a sales channel: a word of the marketplaces contract's `SaleChannel`,
/// whose catalogue (kinds, names) that service keeps.
pub fn known_channel(code: &str) -> bool {
    use bo_proto::Wire as _;
    bo_proto::marketplaces::v1::SaleChannel::from_wire(code).is_some()
}

/// True when `code` is a marketplace's channel (orders taken in from its shops).
pub fn marketplace_channel(code: &str) -> bool {
    use bo_proto::Wire as _;
    bo_proto::marketplaces::v1::Marketplace::from_wire(code).is_some()
}

/// Settings of the orders module (`services.orders`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The most orders one bulk action takes ('cannot choose over {n} orders').
    pub max_selection: usize,
    /// How long an order may wait on wms before the reconciler asks again, ms.
    pub reconcile_after_ms: i64,
    /// How often due bills are expired, ms (bills expire to the minute).
    pub bill_expiry_every_ms: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { max_selection: 500, reconcile_after_ms: 5_000, bill_expiry_every_ms: 15_000 }
    }
}

/// The services orders call.
#[derive(Clone)]
pub struct Clients {
    pub wms: WmsServiceClient<GrpcChannel>,
    pub products: ProductsServiceClient<GrpcChannel>,
    pub stores: StoresServiceClient<GrpcChannel>,
    pub logistics: LogisticsServiceClient<GrpcChannel>,
}

/// The orders service's work.
#[derive(Clone)]
pub struct Orders {
    pub(crate) repo: Repo,
    relay: Relay,
    clients: Option<Clients>,
    identity: Option<ServiceIdentity>,
    pub(crate) settings: Settings,
    /// Where slips are kept.
    files: Option<Files>,
    /// Wakes the filler.
    pub(crate) fills: Arc<Notify>,
    /// The stores' warehouses lately listed by wms: (id, takes new stock).
    warehouses: Lately<i64, Vec<(i64, bool)>>,
    /// Shipping channels lately read from logistics, by (store, id): (name, provider).
    shipping: Lately<(i64, i64), (String, String)>,
}

/// Answers of another service kept for [`LATELY_FOR`]: what an order takes from them may be
/// that old.
#[derive(Clone)]
pub(crate) struct Lately<K, V>(Arc<std::sync::Mutex<HashMap<K, (std::time::Instant, V)>>>);

impl<K: std::hash::Hash + Eq, V: Clone> Lately<K, V> {
    fn new() -> Self {
        Self(Arc::new(std::sync::Mutex::new(HashMap::new())))
    }

    fn get(&self, k: &K) -> Option<V> {
        let map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        map.get(k).filter(|(at, _)| at.elapsed() < LATELY_FOR).map(|(_, v)| v.clone())
    }

    fn put(&self, k: K, v: V) {
        let mut map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() > 10_000 {
            map.retain(|_, (at, _)| at.elapsed() < LATELY_FOR);
        }
        map.insert(k, (std::time::Instant::now(), v));
    }
}

/// A shortage as the wire carries it.
pub fn shortage_pb(s: &crate::arrivals::Shortage) -> pb::Shortage {
    pb::Shortage {
        sku_id: s.sku_id,
        sku_code: s.sku_code.clone(),
        product_name: s.product_name.clone(),
        variant: s.variant.clone(),
        needed: s.needed,
        available: s.available,
        missing: s.missing(),
        orders: s.orders,
    }
}

/// Orders an import makes at a time.
const IMPORT_AT_ONCE: usize = 4;

/// How long another service's answer is trusted (a store's warehouse list, a shipping
/// channel's name).
const LATELY_FOR: std::time::Duration = std::time::Duration::from_secs(2);

/// An order with what the screens show of it.
#[derive(Debug, Clone, Default)]
pub struct View {
    pub order: pb::Order,
    pub events: Vec<pb::OrderEvent>,
    /// How many entries the whole timeline has (`events` is its newest [`TIMELINE`]).
    pub events_total: i64,
}

/// How many of an order's newest timeline entries its view carries.
pub const TIMELINE: i64 = 300;

fn is_definite(e: &Error) -> bool {
    !matches!(e.kind, bo_kit::error::Kind::Unavailable | bo_kit::error::Kind::Internal)
}

/// The stock lines an order holds: a marketplace line without a SKU holds nothing.
fn lines_of(items: &[Item]) -> Vec<wpb::StockLine> {
    items
        .iter()
        .filter(|i| i.sku_id > 0)
        .map(|i| wpb::StockLine {
            warehouse_id: i.warehouse_id,
            sku_id: i.sku_id,
            quantity: i.quantity,
            ..Default::default()
        })
        .collect()
}

fn merged(lines: &[wpb::StockLine]) -> BTreeMap<(i64, i64), i64> {
    let mut m = BTreeMap::new();
    for l in lines {
        *m.entry((l.warehouse_id, l.sku_id)).or_insert(0) += l.quantity;
    }
    m
}

/// Where a slip of the store is kept.
fn slip_key(store_id: i64, name: &str) -> Result<Key> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.')
        && !name.starts_with('.');
    if !ok {
        return Err(Error::invalid_field("attachment", "validation.attachment_unknown"));
    }
    Key::new(format!("slips/{store_id}/{name}"))
        .map_err(|_| Error::invalid_field("attachment", "validation.attachment_unknown"))
}

/// An insufficient-stock refusal of wms with its lines named as the order's items (wms
/// names a line by its place as sent, and the order sends its items in order).
fn short_items(mut e: Error) -> Error {
    for f in &mut e.fields {
        if let Some(rest) = f.field.strip_prefix("lines[") {
            f.field = format!("items[{rest}");
        }
    }
    e
}

impl Orders {
    /// The service on `repo`.
    pub fn new(repo: Repo, relay: Relay, settings: Settings) -> Self {
        Self {
            repo,
            relay,
            clients: None,
            identity: None,
            settings,
            files: None,
            fills: Arc::new(Notify::new()),
            warehouses: Lately::new(),
            shipping: Lately::new(),
        }
    }

    /// With the services it calls, and its own identity for background work.
    pub fn with_clients(mut self, clients: Clients, identity: ServiceIdentity) -> Self {
        self.clients = Some(clients);
        self.identity = Some(identity);
        self
    }

    /// With the file storage slips are kept in.
    pub fn with_files(mut self, files: Files) -> Self {
        self.files = Some(files);
        self
    }

    pub(crate) fn files(&self) -> Result<&Files> {
        self.files.as_ref().ok_or_else(|| Error::new(bo_kit::error::Kind::Unavailable, Code::FilesUnavailable))
    }

    pub(crate) fn clients(&self) -> Result<&Clients> {
        self.clients.as_ref().ok_or_else(|| Error::internal(anyhow::anyhow!("orders runs without its neighbours")))
    }

    pub(crate) fn system(&self, store_id: i64) -> CallCtx {
        match &self.identity {
            Some(i) => i.acting(store_id, 0),
            None => CallCtx::new(store_id, 0),
        }
    }

    fn actor(ctx: &CallCtx) -> Actor {
        ctx.actor()
    }

    /// The order's view: its lines, its parcels (from wms) and, when asked, its timeline.
    pub async fn view(&self, ctx: &CallCtx, row: &OrderRow, items: &[ItemRow], with_events: bool) -> Result<View> {
        let mut order = row.to_proto(items);
        order.parcels = self.parcels(ctx, &[row.id]).await?.remove(&row.id).unwrap_or_default();
        order.bills = self.repo.bills(ctx.store_id, row.id).await?.iter().map(|b| b.to_proto()).collect();
        order.payments = self.repo.payments(ctx.store_id, row.id).await?.iter().map(|p| p.to_proto()).collect();
        order.returns = self.returns_view(ctx, row).await?;
        if order.payments.iter().any(|p| p.has_attachment) {
            for slip in self.repo.slips(ctx.store_id, row.id).await? {
                if let Some(p) = order.payments.iter_mut().find(|p| p.id == slip.payment_id) {
                    p.slips.push(crate::convert::slip_message(&slip));
                }
            }
        }
        let (events, events_total) = if with_events {
            let (rows, total) = self.repo.events(ctx.store_id, row.id, TIMELINE).await?;
            (rows.into_iter().map(crate::convert::event_message).collect(), total)
        } else {
            (Vec::new(), 0)
        };
        Ok(View { order, events, events_total })
    }

    async fn parcels(&self, ctx: &CallCtx, order_ids: &[i64]) -> Result<HashMap<i64, Vec<pb::OrderParcel>>> {
        let mut out: HashMap<i64, Vec<pb::OrderParcel>> = HashMap::new();
        if order_ids.is_empty() {
            return Ok(out);
        }
        let parcels = self
            .clients()?
            .wms
            .clone()
            .list_parcels(ctx.request(wpb::ListParcelsRequest { order_ids: order_ids.to_vec(), ids: vec![] }))
            .await
            .map_err(Error::from)?
            .into_inner()
            .parcels;
        for p in parcels {
            out.entry(p.order_id).or_default().push(parcel_proto(p));
        }
        Ok(out)
    }

    async fn load(&self, ctx: &CallCtx, id: i64) -> Result<View> {
        let row = self.repo.order(ctx.store_id, id).await?;
        let items = self.repo.items(&[id]).await?.remove(&id).unwrap_or_default();
        self.view(ctx, &row, &items, true).await
    }

    /// One order.
    pub async fn get(&self, ctx: &CallCtx, id: i64, with_events: bool) -> Result<View> {
        let row = self.repo.order(ctx.store_id, id).await?;
        let items = self.repo.items(&[id]).await?.remove(&id).unwrap_or_default();
        self.view(ctx, &row, &items, with_events).await
    }

    /// Orders by id with lines and parcels, in the order asked.
    pub async fn get_many(&self, ctx: &CallCtx, ids: &[i64]) -> Result<Vec<pb::Order>> {
        let rows = self.repo.orders(ctx.store_id, ids).await?;
        let found: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let mut items = self.repo.items(&found).await?;
        let mut parcels = self.parcels(ctx, &found).await?;
        let mut by_id: HashMap<i64, pb::Order> = rows
            .iter()
            .map(|r| {
                let mut o = r.to_proto(&items.remove(&r.id).unwrap_or_default());
                o.parcels = parcels.remove(&r.id).unwrap_or_default();
                (r.id, o)
            })
            .collect();
        Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
    }

    /// A page of orders with their lines.
    pub async fn list(
        &self,
        ctx: &CallCtx,
        f: &Filter,
        page: PageRequest,
    ) -> Result<(Vec<pb::Order>, bo_kit::paging::Page)> {
        let (rows, page) = self.repo.list(ctx.store_id, f, page).await?;
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let mut items = self.repo.items(&ids).await?;
        Ok((rows.iter().map(|r| r.to_proto(&items.remove(&r.id).unwrap_or_default())).collect(), page))
    }
}

/// A parcel of wms as the order shows it.
fn parcel_proto(p: wpb::Parcel) -> pb::OrderParcel {
    pb::OrderParcel {
        id: p.id,
        warehouse_id: p.warehouse_id,
        weight_g: p.weight_g,
        width_cm: p.width_cm,
        length_cm: p.length_cm,
        height_cm: p.height_cm,
        packaging_code: p.packaging_code,
        shipping_fee: p.shipping_fee,
        cod_fee: p.cod_fee,
        packing_fee: p.packing_fee,
        cod_amount: p.cod_amount,
        tracking_no: p.tracking_no,
        state: p.state,
        provider: p.provider,
        logistic_store_channel_id: p.logistic_store_channel_id,
        shipped_at_ms: p.shipped_at_ms,
        printed_at_ms: p.printed_at_ms,
        shipment_id: p.shipment_id,
    }
}
