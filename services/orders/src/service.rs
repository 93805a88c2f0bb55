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
    source, Actor, BillRow, BillTerms, Changed, Confirmation, ExportRow, Filter, Item, ItemRow, Moved, OrderData,
    OrderRow, PaymentInput, PaymentRow, Repo,
};
use bo_kit::files::{Files, Key};
use bo_kit::images;

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
    /// Where slips and exports are kept.
    files: Option<Files>,
    /// Wakes the export builder.
    pub(crate) exports_waiting: Arc<Notify>,
    /// Wakes the filler.
    pub(crate) fills: Arc<Notify>,
    /// The stores' warehouses lately listed by wms.
    warehouses: Arc<std::sync::Mutex<Warehouses>>,
}

/// Warehouses listed per store: when, and (id, takes new stock).
type Warehouses = HashMap<i64, (std::time::Instant, Vec<(i64, bool)>)>;

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

/// How long a store's warehouse list is trusted.
const WAREHOUSES_FOR: std::time::Duration = std::time::Duration::from_secs(2);

/// An order with what the screens show of it.
#[derive(Debug, Clone, Default)]
pub struct View {
    pub order: pb::Order,
    pub events: Vec<pb::OrderEvent>,
}

fn is_definite(e: &Error) -> bool {
    !matches!(e.kind, bo_kit::error::Kind::Unavailable | bo_kit::error::Kind::Internal)
}

fn lines_of(items: &[Item]) -> Vec<wpb::StockLine> {
    items
        .iter()
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
            exports_waiting: Arc::new(Notify::new()),
            fills: Arc::new(Notify::new()),
            warehouses: Arc::new(std::sync::Mutex::new(HashMap::new())),
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
        self.files.as_ref().ok_or_else(|| Error::new(bo_kit::error::Kind::Unavailable, "files_unavailable"))
    }

    fn clients(&self) -> Result<&Clients> {
        self.clients.as_ref().ok_or_else(|| Error::internal(anyhow::anyhow!("orders runs without its neighbours")))
    }

    fn system(&self, store_id: i64) -> CallCtx {
        match &self.identity {
            Some(i) => i.acting(store_id, 0),
            None => CallCtx::new(store_id, 0),
        }
    }

    fn actor(ctx: &CallCtx) -> Actor {
        Actor { store_id: ctx.store_id, user_id: ctx.user_id }
    }

    /// The order's view: its lines, its parcels (from wms) and, when asked, its timeline.
    pub async fn view(&self, ctx: &CallCtx, row: &OrderRow, items: &[ItemRow], with_events: bool) -> Result<View> {
        let mut order = row.to_proto(items);
        order.parcels = self.parcels(ctx, &[row.id]).await?.remove(&row.id).unwrap_or_default();
        order.bills = self.repo.bills(ctx.store_id, row.id).await?.iter().map(|b| b.to_proto()).collect();
        order.payments = self.repo.payments(ctx.store_id, row.id).await?.iter().map(|p| p.to_proto()).collect();
        let events = if with_events { self.repo.events(ctx.store_id, row.id).await? } else { Vec::new() };
        Ok(View { order, events })
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

    /// Makes an order: it holds its stock, or is saved short (`stock_not_enough`).
    pub async fn create(&self, ctx: &CallCtx, d: OrderDraft) -> Result<View> {
        let d = draft::validate(d)?;
        let data = self.build(ctx, &d, None).await?;
        let id = self.repo.insert(Self::actor(ctx), &data).await?;
        self.relay.wake();
        let lines = lines_of(&data.items);
        let incomplete = !data.address.is_complete();
        match self.hold(ctx, id, 1, lines).await {
            Ok(_) => {
                self.repo.settle_new(Self::actor(ctx), id, true, incomplete).await?;
            }
            Err(e) if e.code == "insufficient_stock" => {
                self.repo.settle_new(Self::actor(ctx), id, false, incomplete).await?;
            }
            // The order is kept: the reconciler asks wms again.
            Err(e) => tracing::warn!(order = id, error = %e, "could not hold a new order's stock yet"),
        }
        // A new order has no parcels yet, and its timeline is its creation.
        let row = self.repo.order(ctx.store_id, id).await?;
        let items = self.repo.items(&[id]).await?.remove(&id).unwrap_or_default();
        let mut order = row.to_proto(&items);
        order.bills = self.repo.bills(ctx.store_id, id).await?.iter().map(|b| b.to_proto()).collect();
        Ok(View { order, events: Vec::new() })
    }

    /// Rewrites a new order; its hold follows by the difference. When a held order's new
    /// lines cannot be held, nothing changes and the short lines are named.
    pub async fn update(&self, ctx: &CallCtx, id: i64, d: OrderDraft, version: i64) -> Result<View> {
        let row = self.repo.order(ctx.store_id, id).await?;
        if row.state != state::NEW {
            return Err(Error::failed_precondition("order_not_editable"));
        }
        if version > 0 && row.version != version {
            return Err(Error::conflict("order_changed"));
        }
        if stock::IN_FLIGHT.contains(&row.stock_state.as_str()) {
            return Err(Error::conflict("order_busy"));
        }
        let d = draft::validate(d)?;
        let old_items = self.repo.items(&[id]).await?.remove(&id).unwrap_or_default();
        let data = self.build(ctx, &d, Some(&old_items)).await?;
        let was = row.stock_state.clone();
        let rev = self
            .repo
            .next_revision(ctx.store_id, id, &[stock::HELD, stock::SHORT], row.version, None)
            .await?
            .ok_or_else(|| Error::conflict("order_changed"))?;
        let detail = edit_detail(&old_items, &data.items);
        match self.hold(ctx, id, rev, lines_of(&data.items)).await {
            Ok(_) => {
                self.repo.write_edit(Self::actor(ctx), id, rev, &data, true, &detail).await?;
            }
            Err(e) if e.code == "insufficient_stock" && was == stock::HELD => {
                self.repo.abandon_revision(ctx.store_id, id, rev, &was).await?;
                return Err(short_items(e));
            }
            Err(e) if e.code == "insufficient_stock" => {
                self.repo.write_edit(Self::actor(ctx), id, rev, &data, false, &detail).await?;
            }
            Err(e) if is_definite(&e) => {
                self.repo.abandon_revision(ctx.store_id, id, rev, &was).await?;
                return Err(e);
            }
            // Unknown: the reconciler makes wms hold what the order says.
            Err(e) => return Err(e),
        }
        self.relay.wake();
        self.load(ctx, id).await
    }

    /// The store's warehouses (id, takes new stock), as wms listed them at most
    /// [`WAREHOUSES_FOR`] ago: a chat sale is written every few seconds, a warehouse opens
    /// or closes a few times a year.
    async fn warehouses(&self, ctx: &CallCtx, fresh: bool) -> Result<Vec<(i64, bool)>> {
        if !fresh {
            if let Some((at, list)) = self.warehouses.lock().unwrap_or_else(|p| p.into_inner()).get(&ctx.store_id) {
                if at.elapsed() < WAREHOUSES_FOR {
                    return Ok(list.clone());
                }
            }
        }
        let list: Vec<(i64, bool)> = self
            .clients()?
            .wms
            .clone()
            .list_warehouses(ctx.request(wpb::ListWarehousesRequest {}))
            .await
            .map_err(Error::from)?
            .into_inner()
            .warehouses
            .into_iter()
            .map(|w| (w.id, w.active))
            .collect();
        self.warehouses
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(ctx.store_id, (std::time::Instant::now(), list.clone()));
        Ok(list)
    }

    async fn hold(
        &self,
        ctx: &CallCtx,
        id: i64,
        revision: i64,
        lines: Vec<wpb::StockLine>,
    ) -> Result<wpb::HoldResponse> {
        Ok(self
            .clients()?
            .wms
            .clone()
            .hold(ctx.request(wpb::HoldRequest { reference: domain::reference(id), revision, lines }))
            .await
            .map_err(Error::from)?
            .into_inner())
    }

    /// Snapshots, address, shipping and money of a draft: what the order will keep.
    async fn build(&self, ctx: &CallCtx, d: &OrderDraft, existing: Option<&[ItemRow]>) -> Result<OrderData> {
        let c = self.clients()?;
        // Every warehouse named is one of the store's, taking new orders (a warehouse the
        // list does not know yet is asked of wms again).
        let named: Vec<i64> = std::iter::once(d.warehouse_id).chain(d.items.iter().map(|i| i.warehouse_id)).collect();
        let mut warehouses = self.warehouses(ctx, false).await?;
        if named.iter().any(|w| !warehouses.iter().any(|(id, _)| id == w)) {
            warehouses = self.warehouses(ctx, true).await?;
        }
        let usable = |w: i64| warehouses.iter().any(|(id, active)| *id == w && *active);
        let mut errs = Vec::new();
        if !usable(d.warehouse_id) {
            errs.push(FieldError::new("warehouse_id", "validation.warehouse_unknown"));
        }
        for (i, it) in d.items.iter().enumerate() {
            if it.warehouse_id != d.warehouse_id && !usable(it.warehouse_id) {
                errs.push(FieldError::new(format!("items[{i}].warehouse_id"), "validation.warehouse_unknown"));
            }
        }
        let kept: HashMap<i64, &ItemRow> = existing.unwrap_or_default().iter().map(|i| (i.sku_id, i)).collect();
        let mut wanted: Vec<i64> = d.items.iter().map(|i| i.sku_id).filter(|s| !kept.contains_key(s)).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let described: HashMap<i64, ppb::SkuDescription> = if wanted.is_empty() {
            HashMap::new()
        } else {
            c.products
                .clone()
                .describe_skus(ctx.request(ppb::DescribeSkusRequest { ids: wanted, codes: Vec::new() }))
                .await
                .map_err(Error::from)?
                .into_inner()
                .skus
                .into_iter()
                .map(|s| (s.sku.as_ref().map(|k| k.id).unwrap_or(0), s))
                .collect()
        };
        let mut items = Vec::with_capacity(d.items.len());
        for (i, it) in d.items.iter().enumerate() {
            let base = if let Some(k) = kept.get(&it.sku_id) {
                Item { price: k.price, ..k.item() }
            } else if let Some(s) = described.get(&it.sku_id) {
                let sku = s.sku.clone().unwrap_or_default();
                if sku.status != "active" || s.product_status != "active" {
                    errs.push(FieldError::new(format!("items[{i}].sku_id"), "order.sku_inactive"));
                }
                let variant = [(&s.variant1, &sku.option1), (&s.variant2, &sku.option2)]
                    .iter()
                    .filter(|(n, o)| !n.is_empty() && !o.is_empty())
                    .map(|(n, o)| format!("{n}: {o}"))
                    .collect::<Vec<_>>()
                    .join(" / ");
                Item {
                    sku_id: sku.id,
                    product_id: s.product_id,
                    product_name: s.product_name.clone(),
                    product_code: s.product_code.clone(),
                    sku_code: sku.code.clone(),
                    variant,
                    price: sku.price,
                    cost: sku.cost,
                    hs_code: s.hs_code.clone(),
                    weight_g: s.weight_grams,
                    ..Default::default()
                }
            } else {
                errs.push(FieldError::new(format!("items[{i}].sku_id"), "order.sku_unknown"));
                continue;
            };
            items.push(Item {
                price: it.price.unwrap_or(base.price),
                packing_options: it.packing_options.clone(),
                note: it.note.clone(),
                warehouse_id: it.warehouse_id,
                quantity: it.quantity,
                ..base
            });
        }
        // The address: an entry of the customer's book, or as typed.
        let mut address = d.address.clone();
        if d.customer_address_id > 0 {
            match c
                .stores
                .clone()
                .get_address(
                    ctx.request(spb::GetAddressRequest { customer_id: d.customer_id, id: d.customer_address_id }),
                )
                .await
            {
                Ok(r) => address = book_address(r.into_inner().address.unwrap_or_default()),
                Err(s) if s.code() == tonic::Code::NotFound => {
                    errs.push(FieldError::new("customer_address_id", "order.address_unknown"))
                }
                Err(s) => return Err(s.into()),
            }
        } else if d.customer_id > 0 {
            match c.stores.clone().get_customer(ctx.request(spb::GetCustomerRequest { id: d.customer_id })).await {
                Ok(_) => {}
                Err(s) if s.code() == tonic::Code::NotFound => {
                    errs.push(FieldError::new("customer_id", "order.customer_unknown"))
                }
                Err(s) => return Err(s.into()),
            }
        }
        if !errs.is_empty() {
            return Err(Error::invalid(errs));
        }
        let estimated_weight_g: i64 = items.iter().map(|i| i.weight_g.saturating_mul(i.quantity)).sum();
        let money_lines: Vec<money::Line> = items
            .iter()
            .map(|i| money::Line { price: i.price, cost: i.cost, quantity: i.quantity, warehouse_id: i.warehouse_id })
            .collect();
        let mut charges = Charges {
            discount: draft::discount(&d.discount_type, d.discount_value),
            vat_included: d.vat_included,
            shipping_charge: d.shipping_charge.unwrap_or(0),
            shipping_charge_inter: 0,
            additional_fee: d.additional_fee,
        };
        let goods =
            money::totals(&money_lines, &charges).map_err(|_| Error::invalid_field("items", "validation.price"))?;
        let (mut shipping_name, mut shipping_provider) = (String::new(), String::new());
        if d.logistic_store_channel_id > 0 {
            let quotes = c
                .logistics
                .clone()
                .quote_shipping(ctx.request(lpb::QuoteShippingRequest {
                    warehouse_id: d.warehouse_id,
                    parcel: Some(lpb::Parcel {
                        weight_g: estimated_weight_g.max(1),
                        postcode: if address.is_international() { String::new() } else { address.postcode.clone() },
                        country: address.country.clone(),
                        order_total_satang: goods.net,
                        cod: d.cod,
                        ..Default::default()
                    }),
                }))
                .await
                .map_err(Error::from)?
                .into_inner()
                .quotes;
            let Some(q) = quotes
                .into_iter()
                .find(|q| q.store_channel.as_ref().is_some_and(|s| s.id == d.logistic_store_channel_id))
            else {
                return Err(Error::invalid_field("logistic_store_channel_id", "order.logistic_channel_unknown"));
            };
            let channel = q.store_channel.clone().unwrap_or_default();
            if d.cod && !channel.cod {
                return Err(Error::invalid_field("cod", "shipping.cod_not_offered"));
            }
            let price = match d.shipping_charge {
                Some(p) => p,
                None if q.available => q.price_satang,
                None => return Err(Error::invalid_field("logistic_store_channel_id", &q.reason)),
            };
            if channel.international {
                charges.shipping_charge = 0;
                charges.shipping_charge_inter = price;
            } else {
                charges.shipping_charge = price;
            }
            shipping_name = channel.name;
            shipping_provider = channel.provider;
        }
        let totals =
            money::totals(&money_lines, &charges).map_err(|_| Error::invalid_field("items", "validation.price"))?;
        if let Some((w, _)) = money::over_limit(&totals).first() {
            let mut e = Error::new(bo_kit::error::Kind::Invalid, "order_value_exceeds_limit");
            e.fields = vec![FieldError::new("items", "order.value_exceeds_limit")];
            tracing::debug!(warehouse = w, "an order over the bill limit");
            return Err(e);
        }
        let bill_terms = self.bill_terms(ctx).await?;
        Ok(OrderData {
            channel: d.channel.clone(),
            reference: d.reference.clone(),
            note: d.note.clone(),
            warehouse_id: d.warehouse_id,
            customer_id: d.customer_id,
            customer_address_id: d.customer_address_id,
            address,
            items,
            discount_type: d.discount_type.clone(),
            discount_value: d.discount_value,
            vat_included: d.vat_included,
            totals,
            logistic_store_channel_id: d.logistic_store_channel_id,
            shipping_name,
            shipping_provider,
            cod: d.cod,
            estimated_weight_g,
            imported: d.imported,
            bill_terms,
        })
    }

    /// The store's bill-expiry setting for bills made now, and when such a bill expires.
    async fn bill_terms(&self, ctx: &CallCtx) -> Result<BillTerms> {
        let r = self
            .clients()?
            .stores
            .clone()
            .get_bill_expiry(ctx.request(spb::GetBillExpiryRequest { at_ms: now_ms(), with_history: false }))
            .await
            .map_err(Error::from)?
            .into_inner();
        let setting = r.setting.unwrap_or_default();
        Ok(BillTerms { expiry_type: setting.expiry_type, on_expiry: setting.on_expiry, expires_at: r.expires_at_ms })
    }

    /// Gives a new order's bills (or one warehouse's) `days` more from now.
    pub async fn renew_bill(&self, ctx: &CallCtx, id: i64, warehouse_id: i64, days: i64) -> Result<View> {
        let until = bill::renewed_until(now_ms(), days).map_err(|code| Error::invalid_field("days", code))?;
        self.repo.renew_bills(Self::actor(ctx), id, warehouse_id, days, until).await?;
        self.load(ctx, id).await
    }

    /// A bill by its public token, its order (its lines, money and address) and the bill's
    /// newest payment. An unknown or malformed token is `bill_not_found`.
    pub async fn bill_page(&self, token: &str) -> Result<(BillRow, pb::Order, Option<PaymentRow>)> {
        if token.len() != 32 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(Error::not_found("bill_not_found"));
        }
        let bill = self.repo.bill_by_token(token).await?.ok_or_else(|| Error::not_found("bill_not_found"))?;
        let row = self.repo.order(bill.store_id, bill.order_id).await?;
        let items = self.repo.items(&[row.id]).await?.remove(&row.id).unwrap_or_default();
        let mut order = row.to_proto(&items);
        order.bills = vec![bill.to_proto()];
        let payment =
            self.repo.payments(bill.store_id, bill.order_id).await?.into_iter().rev().find(|p| p.bill_id == bill.id);
        Ok((bill, order, payment))
    }

    /// The buyer's slip for the bill of `token`: kept, and the bill's payment waits for
    /// the store's confirmation.
    pub async fn submit_slip(
        &self,
        token: &str,
        upload: &str,
        store_channel_id: i64,
        channel_type: &str,
    ) -> Result<()> {
        let (bill, _, _) = self.bill_page(token).await?;
        let name = self.keep_slip(bill.store_id, upload).await?;
        let input = PaymentInput {
            store_channel_id,
            channel_type: channel_type.to_string(),
            attachment: name.clone(),
            note: String::new(),
        };
        let who = Actor { store_id: bill.store_id, user_id: 0 };
        let changed = self.repo.attach_slip(who, bill.id, source::BUYER, &input).await;
        self.settle_slips(bill.store_id, &name, changed).await.map(|_| ())
    }

    /// Removes the slip a change no longer keeps, or the new one when the change was refused.
    async fn settle_slips(&self, store_id: i64, new: &str, changed: Result<Changed>) -> Result<PaymentRow> {
        let files = self.files()?;
        match changed {
            Ok(c) => {
                if let Some(old) = c.dropped.as_deref().and_then(|n| slip_key(store_id, n).ok()) {
                    files.forget(&old).await;
                }
                Ok(c.payment)
            }
            Err(e) => {
                if let Ok(k) = slip_key(store_id, new) {
                    files.forget(&k).await;
                }
                Err(e)
            }
        }
    }

    /// The bytes of a staged upload of the store, at most `max` (else `too_large` on
    /// `file`); the staged file is removed whatever happens.
    async fn staged_bytes(&self, store_id: i64, upload: &str, max: usize, too_large: &str) -> Result<bytes::Bytes> {
        let files = self.files()?;
        let staged = Key::uploads_of(store_id, &[upload.to_string()], "file")?.remove(0);
        let read = files.read_upload(&staged, max as u64, "file", too_large).await;
        files.forget(&staged).await;
        read
    }

    /// Reads a staged upload of the store as a slip: a JPEG or PNG of at most 5 MB,
    /// re-encoded without its metadata and kept; answers its name.
    async fn keep_slip(&self, store_id: i64, upload: &str) -> Result<String> {
        let files = self.files()?;
        let bytes = self.staged_bytes(store_id, upload, images::MAX_BYTES, "slip_too_large").await?;
        let cleaned = bo_kit::cpu::run(move || images::clean(&bytes))
            .await
            .map_err(Error::internal)?
            .map_err(|e| Error::invalid_field("file", &format!("validation.{}", e.code())))?;
        let name = format!("{}.{}", uuid::Uuid::new_v4().simple(), cleaned.format.extension());
        files.put(&slip_key(store_id, &name)?, cleaned.bytes).await.map_err(Error::internal)?;
        Ok(name)
    }

    /// Keeps an uploaded attachment of the caller's store; answers its name.
    pub async fn keep_attachment(&self, ctx: &CallCtx, upload: &str) -> Result<String> {
        self.keep_slip(ctx.store_id, upload).await
    }

    /// Reads an order spreadsheet and, unless `dry_run`, makes its good orders (several at
    /// a time, each as if typed: it holds its stock or is saved short). An order that could
    /// not be made after the check (its reference taken meanwhile, a SKU taken off sale)
    /// joins the failed rows with its reason. Made orders are never made twice: a reference
    /// the store has is a duplicate, so an import cut short can simply be sent again.
    pub async fn import_orders(
        &self,
        ctx: &CallCtx,
        upload: &str,
        channel: &str,
        warehouse_id: i64,
        dry_run: bool,
    ) -> Result<pb::ImportOrdersResponse> {
        use crate::import::{self as imp, FileError};
        let bytes = self.staged_bytes(ctx.store_id, upload, imp::MAX_FILE_BYTES, "import_too_large").await?;
        if domain::channel_of(channel).is_none() {
            return Err(Error::invalid_field("channel", "validation.channel_unknown"));
        }
        let warehouses = self.warehouses(ctx, true).await?;
        if !warehouses.iter().any(|(id, active)| *id == warehouse_id && *active) {
            return Err(Error::invalid_field("warehouse_id", "validation.warehouse_unknown"));
        }
        let parsed = bo_kit::cpu::run(move || imp::parse(&bytes))
            .await
            .map_err(Error::internal)?
            .map_err(|e: FileError| Error::invalid_field("file", e.code()))?;
        // The store's SKUs the file names, and the references it already has.
        let mut skus = HashMap::new();
        for chunk in imp::sku_codes(&parsed.rows).chunks(500) {
            let found = self
                .clients()?
                .products
                .clone()
                .describe_skus(ctx.request(ppb::DescribeSkusRequest { ids: Vec::new(), codes: chunk.to_vec() }))
                .await
                .map_err(Error::from)?
                .into_inner()
                .skus;
            for d in found {
                let sku = d.sku.unwrap_or_default();
                let active = sku.status == "active" && d.product_status == "active";
                skus.insert(sku.code.clone(), imp::SkuInfo { id: sku.id, price: sku.price, active });
            }
        }
        let taken = self.repo.taken_references(ctx.store_id, channel, &imp::references(&parsed.rows)).await?;
        let channel_code = channel.to_string();
        let (parsed, mut plan) = bo_kit::cpu::run(move || {
            let plan = imp::plan(&parsed.rows, &channel_code, warehouse_id, &skus, &taken);
            (parsed, plan)
        })
        .await
        .map_err(Error::internal)?;
        let mut made: HashMap<usize, (i64, String)> = HashMap::new();
        if !dry_run {
            let mut results: Vec<(usize, Result<View>)> = Vec::with_capacity(plan.orders.len());
            for (n, batch) in plan.orders.chunks(IMPORT_AT_ONCE).enumerate() {
                let mut pending = Vec::with_capacity(batch.len());
                for p in batch {
                    pending.push(self.create(ctx, p.draft.clone()));
                }
                let done = futures::future::join_all(pending).await;
                results.extend(done.into_iter().enumerate().map(|(j, r)| (n * IMPORT_AT_ONCE + j, r)));
            }
            let mut failed = Vec::new();
            for (i, r) in results {
                match r {
                    Ok(v) => {
                        made.insert(i, (v.order.id, v.order.order_no.clone()));
                    }
                    Err(e) if is_definite(&e) => failed.push((i, e)),
                    Err(e) => return Err(e),
                }
            }
            for (i, e) in failed.into_iter().rev() {
                let p = plan.orders.remove(i);
                let code = if e.code == "duplicate_order_reference" {
                    "order.duplicate_reference".to_string()
                } else {
                    e.fields.first().map(|f| f.code.to_string()).unwrap_or_else(|| e.code.to_string())
                };
                for row in &p.rows {
                    plan.errors.push(imp::RowError { row: *row, field: "reference".into(), code: code.clone() });
                    plan.failed_rows.push(*row);
                }
                // Later indices shift down by one.
                made = made.into_iter().map(|(j, m)| (if j > i { j - 1 } else { j }, m)).collect();
            }
            plan.errors.sort_by_key(|e| e.row);
            plan.failed_rows.sort_unstable();
            self.relay.wake();
        }
        let by_row: HashMap<usize, &imp::Row> = parsed.rows.iter().map(|r| (r.row, r)).collect();
        Ok(pb::ImportOrdersResponse {
            created: made.len() as i64,
            rows: parsed.rows.len() as i64,
            orders: plan
                .orders
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let (order_id, order_no) = made.get(&i).cloned().unwrap_or_default();
                    pb::ImportedOrder {
                        reference: p.draft.reference.clone(),
                        rows: p.rows.iter().map(|r| *r as i64).collect(),
                        name: p.draft.address.name.clone(),
                        tel: p.draft.address.tel.clone(),
                        province: p.draft.address.state_province.clone(),
                        lines: p.draft.items.len() as i64,
                        quantity: p.quantity,
                        total: p.total,
                        order_id,
                        order_no,
                        address_complete: p.draft.address.is_complete(),
                    }
                })
                .collect(),
            errors: plan
                .errors
                .iter()
                .map(|e| pb::ImportOrderError { row: e.row as i64, field: e.field.clone(), code: e.code.clone() })
                .collect(),
            failed_rows: plan
                .failed_rows
                .iter()
                .filter_map(|r| by_row.get(r))
                .map(|r| pb::ImportFailedRow { row: r.row as i64, cells: r.cells.clone() })
                .collect(),
            header: parsed.header,
        })
    }

    /// What short orders of a warehouse of the store wait for, with what is available there.
    pub async fn shortages(&self, ctx: &CallCtx, warehouse_id: i64) -> Result<Vec<crate::arrivals::Shortage>> {
        if !self.warehouses(ctx, true).await?.iter().any(|(id, _)| *id == warehouse_id) {
            return Err(Error::invalid_field("warehouse_id", "validation.warehouse_unknown"));
        }
        let lines = self.repo.short_lines(ctx.store_id, warehouse_id).await?;
        let mut skus: Vec<i64> = lines.iter().map(|l| l.0).collect();
        skus.sort_unstable();
        skus.dedup();
        let mut available = HashMap::new();
        for chunk in skus.chunks(500) {
            let levels = self
                .clients()?
                .wms
                .clone()
                .get_stock(ctx.request(wpb::GetStockRequest { sku_ids: chunk.to_vec(), warehouse_id }))
                .await
                .map_err(Error::from)?
                .into_inner()
                .levels;
            available.extend(levels.into_iter().map(|l| (l.sku_id, l.available.max(0))));
        }
        Ok(crate::arrivals::shortages(&lines, &available))
    }

    /// Reads a file of goods arriving for the short orders of a warehouse and, unless
    /// `dry_run`, receives them into its stock and fills the short orders, oldest first. The
    /// same file twice is received once (its digest is the receipt's reference).
    pub async fn receive_arrivals(
        &self,
        ctx: &CallCtx,
        upload: &str,
        warehouse_id: i64,
        dry_run: bool,
    ) -> Result<pb::ReceiveArrivalsResponse> {
        use crate::arrivals;
        use sha2::Digest;
        let bytes = self.staged_bytes(ctx.store_id, upload, arrivals::MAX_FILE_BYTES, "import_too_large").await?;
        let shortages = self.shortages(ctx, warehouse_id).await?;
        if shortages.is_empty() {
            return Err(Error::failed_precondition("inadequate_goods_not_found"));
        }
        let digest = hex::encode(sha2::Sha256::digest(&bytes));
        let (arrived, mut errors) = bo_kit::cpu::run(move || arrivals::parse(&bytes))
            .await
            .map_err(Error::internal)?
            .map_err(|e| Error::invalid_field("file", e.code()))?;
        let (accepted, refused) = arrivals::check(&arrived, &shortages);
        errors.extend(refused);
        errors.sort();
        let mut out = pb::ReceiveArrivalsResponse {
            lines: accepted
                .iter()
                .map(|(s, q, rows)| pb::ArrivalLine {
                    shortage: Some(shortage_pb(s)),
                    quantity: *q,
                    rows: rows.iter().map(|r| *r as i64).collect(),
                })
                .collect(),
            errors: errors
                .iter()
                .map(|(row, field, code)| pb::ImportOrderError {
                    row: *row as i64,
                    field: field.to_string(),
                    code: code.to_string(),
                })
                .collect(),
            ..Default::default()
        };
        if dry_run || accepted.is_empty() {
            return Ok(out);
        }
        let lines = accepted
            .iter()
            .map(|(s, q, _)| wpb::StockLine { warehouse_id, sku_id: s.sku_id, quantity: *q, ..Default::default() })
            .collect();
        let reference = format!("arrivals-{warehouse_id}-{}", &digest[..32]);
        // The filler may take some of them first (the stock's event wakes it): what was
        // short before and is not after was filled, by either.
        let mut before: Vec<i64> =
            self.repo.short_lines(ctx.store_id, warehouse_id).await?.iter().map(|l| l.5).collect();
        before.dedup();
        let received = self
            .clients()?
            .wms
            .clone()
            .receive(ctx.request(wpb::ReceiveRequest { reference, lines }))
            .await
            .map_err(Error::from)?
            .into_inner();
        out.replayed = received.replayed;
        self.fill(ctx, warehouse_id, 0).await?;
        // Filled: holding their stock now. The filler (woken by the stock's event) may be
        // holding some meanwhile: their answer is waited for a little, else they count as
        // short until settled.
        let mut rows = self.repo.orders(ctx.store_id, &before).await?;
        for _ in 0..20 {
            if !rows.iter().any(|o| stock::IN_FLIGHT.contains(&o.stock_state.as_str())) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            rows = self.repo.orders(ctx.store_id, &before).await?;
        }
        let held: std::collections::HashSet<i64> =
            rows.into_iter().filter(|o| o.stock_state == stock::HELD).map(|o| o.id).collect();
        let (filled, short): (Vec<i64>, Vec<i64>) = before.into_iter().partition(|id| held.contains(id));
        out.filled = filled;
        out.short = short;
        Ok(out)
    }

    /// Reads a bank statement or COD remittance report, matches its lines to the store's open
    /// bills ([`crate::matching`]) and, unless `dry_run`, confirms the chosen matches (none
    /// chosen: every confident one), each with its line as the payment's proof.
    pub async fn reconcile_statement(
        &self,
        ctx: &CallCtx,
        upload: &str,
        dry_run: bool,
        choices: &[(i64, i64)],
    ) -> Result<pb::ReconcileResponse> {
        use crate::matching::{self, Status};
        use crate::statement;
        let bytes = self.staged_bytes(ctx.store_id, upload, statement::MAX_FILE_BYTES, "import_too_large").await?;
        let parsed = bo_kit::cpu::run(move || statement::parse(&bytes))
            .await
            .map_err(Error::internal)?
            .map_err(|e| Error::invalid_field("file", e.code()))?;
        let earliest = parsed.lines.iter().map(|l| l.at_ms).min().unwrap_or_else(now_ms);
        let bills = self.repo.open_bills(ctx.store_id, earliest - matching::WINDOW_MS - 86_400_000).await?;
        let prints = matching::fingerprints(parsed.kind, &parsed.lines);
        let used = self.repo.used_proofs(ctx.store_id, &prints).await?;
        let matches = matching::match_lines(parsed.kind, &parsed.lines, &prints, &bills, &used);
        let reason = |r: &matching::Reason| pb::MatchReason {
            code: r.code.to_string(),
            values: r.values.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
        };
        let mut out = pb::ReconcileResponse {
            kind: parsed.kind.name().to_string(),
            lines: parsed
                .lines
                .iter()
                .zip(&matches)
                .map(|(l, m)| pb::StatementLine {
                    row: l.row as i64,
                    at_ms: l.at_ms,
                    day_only: l.day_only,
                    amount: l.amount,
                    text: l.text.clone(),
                    tracking: l.tracking.clone(),
                    status: m.status.name().to_string(),
                    bill_id: m.bill_id.unwrap_or(0),
                    reasons: m.reasons.iter().map(reason).collect(),
                    candidates: m
                        .candidates
                        .iter()
                        .map(|c| pb::MatchCandidate {
                            bill_id: c.bill_id,
                            order_id: c.order_id,
                            order_no: c.order_no.clone(),
                            amount: c.amount,
                            evidence: c.evidence.iter().map(reason).collect(),
                        })
                        .collect(),
                    confirmed: false,
                    refused: String::new(),
                })
                .collect(),
            errors: parsed
                .errors
                .iter()
                .map(|(row, field, code)| pb::ImportOrderError {
                    row: *row as i64,
                    field: field.to_string(),
                    code: code.to_string(),
                })
                .collect(),
            confirmed: 0,
        };
        if dry_run {
            return Ok(out);
        }
        let targets: Vec<(usize, i64)> = if choices.is_empty() {
            matches
                .iter()
                .enumerate()
                .filter_map(|(i, m)| (m.status == Status::Confident).then_some((i, m.bill_id.unwrap_or(0))))
                .collect()
        } else {
            let mut t = Vec::new();
            for (row, bill) in choices {
                let Some(i) = parsed.lines.iter().position(|l| l.row as i64 == *row) else {
                    return Err(Error::invalid_field("choices", "validation.reconcile_row"));
                };
                let m = &matches[i];
                if m.status == Status::Used
                    || m.status == Status::Unmatched
                    || !m.candidates.iter().any(|c| c.bill_id == *bill)
                {
                    out.lines[i].refused = "reconcile_not_a_candidate".into();
                    continue;
                }
                t.push((i, *bill));
            }
            t
        };
        let who = Self::actor(ctx);
        for (i, bill) in targets {
            let l = &parsed.lines[i];
            let when = bo_kit::time::ms_to_rfc3339(l.at_ms + 7 * 3_600_000);
            let what = if l.tracking.is_empty() { l.text.clone() } else { l.tracking.clone() };
            let note: String = format!(
                "{} {} {} {}",
                if parsed.kind == statement::Kind::Cod { "COD" } else { "Statement" },
                when.get(..16).unwrap_or(&when).replace('T', " "),
                bo_kit::money::Satang(l.amount),
                what
            )
            .chars()
            .take(200)
            .collect();
            let proof = crate::store::Proof {
                fingerprint: prints[i].clone(),
                note: note.trim().to_string(),
                channel_type: if parsed.kind == statement::Kind::Cod { "cod".into() } else { "bank".into() },
            };
            match self.repo.settle_by_proof(who, bill, &proof).await {
                Ok(_) => {
                    out.lines[i].confirmed = true;
                    out.lines[i].bill_id = bill;
                    out.confirmed += 1;
                }
                Err(e) => out.lines[i].refused = e.code.to_string(),
            }
        }
        Ok(out)
    }

    /// Checks that `name` is a kept slip of the store.
    async fn kept(&self, store_id: i64, name: &str) -> Result<()> {
        if name.is_empty() {
            return Ok(());
        }
        let key = slip_key(store_id, name)?;
        if self.files()?.exists(&key).await.map_err(Error::internal)? {
            Ok(())
        } else {
            Err(Error::invalid_field("attachment", "validation.attachment_unknown"))
        }
    }

    /// Makes a payment for a bill of an order.
    pub async fn create_payment(
        &self,
        ctx: &CallCtx,
        order_id: i64,
        warehouse_id: i64,
        input: PaymentInput,
    ) -> Result<View> {
        self.kept(ctx.store_id, &input.attachment).await?;
        self.repo.create_payment(Self::actor(ctx), order_id, warehouse_id, &input).await?;
        self.load(ctx, order_id).await
    }

    /// Changes a payment's account, note or slip.
    pub async fn edit_payment(
        &self,
        ctx: &CallCtx,
        order_id: i64,
        bill_id: i64,
        id: i64,
        input: PaymentInput,
    ) -> Result<View> {
        self.kept(ctx.store_id, &input.attachment).await?;
        let c = self.repo.edit_payment(Self::actor(ctx), order_id, bill_id, id, &input).await?;
        if let Some(old) = c.dropped.as_deref().and_then(|n| slip_key(ctx.store_id, n).ok()) {
            self.files()?.forget(&old).await;
        }
        self.load(ctx, order_id).await
    }

    /// Confirms, cancels or voids a payment.
    pub async fn act_on_payment(
        &self,
        ctx: &CallCtx,
        order_id: i64,
        bill_id: i64,
        id: i64,
        action: &str,
    ) -> Result<View> {
        let action = match PayAction::parse(action) {
            Some(a) if a != PayAction::Attach => a,
            _ => return Err(Error::invalid_field("action", "validation.payment_action")),
        };
        self.repo.act_on_payment(Self::actor(ctx), order_id, bill_id, id, action).await?;
        self.load(ctx, order_id).await
    }

    /// Confirms the payments of orders, each on its own, or says what would happen.
    pub async fn confirm_payments(&self, ctx: &CallCtx, order_ids: &[i64], dry_run: bool) -> Result<Vec<Confirmation>> {
        if order_ids.is_empty() {
            return Err(Error::invalid_field("ids", "validation.required"));
        }
        if order_ids.len() > self.settings.max_selection {
            return Err(Error::invalid_field("ids", "order.too_many_selected"));
        }
        self.repo.confirm_many(Self::actor(ctx), order_ids, dry_run).await
    }

    /// Asks for an export of the store's orders made in [from, to) in `states` (every state
    /// when empty); refused with `no_data_for_export` when none match.
    pub async fn produce_report(
        &self,
        ctx: &CallCtx,
        from: i64,
        to: i64,
        states: &[String],
        lang: &str,
    ) -> Result<ExportRow> {
        let mut errs = Vec::new();
        if from <= 0 {
            errs.push(FieldError::new("date_from", "validation.required"));
        }
        if to <= 0 {
            errs.push(FieldError::new("date_to", "validation.required"));
        }
        if from > 0 && to > 0 && to <= from {
            errs.push(FieldError::new("date_to", "validation.date_range"));
        }
        if from > 0 && to - from > domain::export::MAX_DAYS * 24 * 3600 * 1000 {
            errs.push(FieldError::new("date_to", "validation.export_range"));
        }
        if let Some(i) = states.iter().position(|s| !state::STATES.contains(&s.as_str())) {
            errs.push(FieldError::new(format!("order_states[{i}]"), "validation.order_state"));
        }
        if !errs.is_empty() {
            return Err(Error::invalid(errs));
        }
        let mut states: Vec<String> = states.to_vec();
        states.sort();
        states.dedup();
        let total = self.repo.count_for_export(ctx.store_id, from, to, &states).await?;
        if total == 0 {
            return Err(Error::new(bo_kit::error::Kind::Invalid, "no_data_for_export"));
        }
        let lang = domain::export::Lang::of(lang);
        let name = domain::export::file_name(from, to, lang);
        let code = if lang == domain::export::Lang::En { "en" } else { "th" };
        let row = self.repo.insert_export(ctx.store_id, ctx.user_id, &name, code, from, to, &states, total).await?;
        self.exports_waiting.notify_one();
        Ok(row)
    }

    /// Where an exported file is kept, and its name.
    pub async fn report_file(&self, ctx: &CallCtx, id: i64) -> Result<(String, String)> {
        let e = self.repo.export(ctx.store_id, id).await?;
        match e.state.as_str() {
            domain::export::EXPORTED => Ok((e.file_key, e.file_name)),
            domain::export::EXPIRED => Err(Error::not_found("export_expired")),
            _ => Err(Error::failed_precondition("export_not_ready")),
        }
    }

    /// Where a payment's slip is kept, and its type.
    pub async fn payment_attachment(&self, ctx: &CallCtx, order_id: i64, id: i64) -> Result<(String, &'static str)> {
        let p = self.repo.payment(ctx.store_id, order_id, id).await?;
        if p.attachment.is_empty() {
            return Err(Error::not_found("attachment_not_found"));
        }
        let mime = if p.attachment.ends_with(".png") { "image/png" } else { "image/jpeg" };
        Ok((slip_key(ctx.store_id, &p.attachment)?.as_str().to_string(), mime))
    }

    /// Expires the bills whose time has passed, each once, and releases the stock of the
    /// orders their setting cancels. Answers how many bills expired.
    pub async fn expire_bills(&self) -> Result<usize> {
        let mut expired = 0;
        loop {
            let now = now_ms();
            let due = self.repo.due_bills(now, 200).await?;
            let mut released: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
            let mut moved_any = false;
            for b in &due {
                match self.repo.expire_bill(*b, now).await {
                    Ok(Some(m)) => {
                        expired += 1;
                        moved_any = true;
                        if m.release {
                            released.entry(b.store_id).or_default().push(m.id);
                        }
                    }
                    Ok(None) => {}
                    Err(e) => tracing::warn!(bill = b.id, order = b.order_id, error = %e, "could not expire a bill"),
                }
            }
            self.relay.wake();
            for (store_id, ids) in released {
                // Left releasing on failure: the reconciler finishes it.
                if let Err(e) = self.release(&self.system(store_id), &ids).await {
                    tracing::warn!(store = store_id, error = %e, "could not release expired orders' stock yet");
                }
            }
            if due.len() < 200 || !moved_any {
                return Ok(expired);
            }
        }
    }

    /// Moves orders by an action, each on its own.
    pub async fn change_state(
        &self,
        ctx: &CallCtx,
        ids: &[i64],
        action: Action,
        cause: &str,
        reason: &str,
    ) -> Result<Vec<Moved>> {
        if ids.is_empty() {
            return Err(Error::invalid_field("ids", "validation.required"));
        }
        if ids.len() > self.settings.max_selection {
            return Err(Error::invalid_field("ids", "order.too_many_selected"));
        }
        if action == Action::Ship {
            return Err(Error::invalid_field("action", "validation.order_action"));
        }
        if action == Action::Fail && !state::CAUSES.contains(&cause) {
            return Err(Error::invalid_field("cause", "validation.failure_cause"));
        }
        if reason.chars().count() > 500 {
            return Err(Error::invalid_field("reason", "validation.too_long"));
        }
        let cod_ok = if action == Action::Prepare { self.cod_channels(ctx).await? } else { HashSet::new() };
        let check = move |row: &OrderRow| -> Option<&'static str> {
            if action != Action::Prepare {
                return None;
            }
            let problems = row.problems();
            if row.stock_state == stock::SHORT || problems.iter().any(|p| p == problem::STOCK) {
                return Some("insufficient_stock");
            }
            if problems.iter().any(|p| p == problem::ADDRESS) {
                return Some("address_incomplete");
            }
            if row.cod != 0 && !cod_ok.contains(&row.logistic_store_channel_id) {
                return Some("incorrect_cod_account");
            }
            None
        };
        let moved = self.repo.change_state(Self::actor(ctx), ids, action, cause, reason, &check).await?;
        self.relay.wake();
        let release: Vec<i64> = moved.iter().filter(|m| m.release).map(|m| m.id).collect();
        if !release.is_empty() {
            if let Err(e) = self.release(ctx, &release).await {
                tracing::warn!(error = %e, "could not release cancelled orders' stock yet");
            }
        }
        Ok(moved)
    }

    async fn release(&self, ctx: &CallCtx, ids: &[i64]) -> Result<()> {
        let references = ids.iter().map(|id| domain::reference(*id)).collect();
        self.clients()?
            .wms
            .clone()
            .release_many(ctx.request(wpb::ReleaseManyRequest { references, r#final: true }))
            .await
            .map_err(Error::from)?;
        self.repo.mark_released(ctx.store_id, ids).await
    }

    /// Shipping channels that collect cash on delivery with the store's COD account.
    async fn cod_channels(&self, ctx: &CallCtx) -> Result<HashSet<i64>> {
        let c = self.clients()?;
        let channels = c
            .logistics
            .clone()
            .list_store_channels(ctx.request(lpb::ListStoreChannelsRequest {
                page: Some(bo_proto::common::v1::PageRequest { page: 1, limit: -1 }),
                ..Default::default()
            }))
            .await
            .map_err(Error::from)?
            .into_inner()
            .store_channels;
        let providers: HashSet<String> = c
            .logistics
            .clone()
            .list_store_providers(ctx.request(lpb::ListStoreProvidersRequest {}))
            .await
            .map_err(Error::from)?
            .into_inner()
            .store_providers
            .into_iter()
            .filter(|p| !p.cod_account_no.is_empty())
            .map(|p| p.provider)
            .collect();
        Ok(channels
            .into_iter()
            .filter(|ch| ch.cod && ch.status == "active" && providers.contains(&ch.provider))
            .map(|ch| ch.id)
            .collect())
    }

    /// Sets an open order's shipping address (typed or from the customer's book).
    pub async fn change_address(
        &self,
        ctx: &CallCtx,
        id: i64,
        a: Address,
        book_id: i64,
        customer_id: i64,
    ) -> Result<View> {
        let row = self.repo.order(ctx.store_id, id).await?;
        let (address, customer) = if book_id > 0 {
            let customer = if customer_id > 0 { customer_id } else { row.customer_id };
            if customer == 0 {
                return Err(Error::invalid_field("customer_id", "validation.required"));
            }
            let a = self
                .clients()?
                .stores
                .clone()
                .get_address(ctx.request(spb::GetAddressRequest { customer_id: customer, id: book_id }))
                .await
                .map_err(|s| {
                    if s.code() == tonic::Code::NotFound {
                        Error::invalid_field("customer_address_id", "order.address_unknown")
                    } else {
                        s.into()
                    }
                })?
                .into_inner()
                .address
                .unwrap_or_default();
            (book_address(a), Some(customer))
        } else {
            (draft::validate_address(a)?, None)
        };
        self.repo.set_address(Self::actor(ctx), id, &address, book_id, customer, "address_changed").await?;
        self.load(ctx, id).await
    }

    /// Empties an open order's shipping address.
    pub async fn clear_address(&self, ctx: &CallCtx, id: i64) -> Result<View> {
        let blank = Address { country: "TH".into(), ..Default::default() };
        self.repo.set_address(Self::actor(ctx), id, &blank, 0, None, "address_cleared").await?;
        self.load(ctx, id).await
    }

    /// Fills short orders of a warehouse (holding `sku_id`, or any when 0), oldest first:
    /// each takes all its lines or stays short. Answers (filled, still short).
    pub async fn fill(&self, ctx: &CallCtx, warehouse_id: i64, sku_id: i64) -> Result<(Vec<i64>, Vec<i64>)> {
        let ids = self.repo.short_orders(ctx.store_id, warehouse_id, sku_id).await?;
        let (mut filled, mut short) = (Vec::new(), Vec::new());
        for id in ids {
            let Some(rev) = self.repo.next_revision(ctx.store_id, id, &[stock::SHORT], 0, None).await? else {
                continue;
            };
            let items: Vec<Item> =
                self.repo.items(&[id]).await?.remove(&id).unwrap_or_default().iter().map(ItemRow::item).collect();
            match self.hold(ctx, id, rev, lines_of(&items)).await {
                Ok(_) => {
                    self.repo.settle_hold(Self::actor(ctx), id, rev, true, false).await?;
                    filled.push(id);
                }
                Err(e) if e.code == "insufficient_stock" => {
                    self.repo.settle_hold(Self::actor(ctx), id, rev, false, false).await?;
                    short.push(id);
                }
                Err(e) => {
                    tracing::warn!(order = id, error = %e, "could not fill a short order yet");
                    short.push(id);
                    break;
                }
            }
        }
        if !filled.is_empty() {
            self.relay.wake();
        }
        Ok((filled, short))
    }

    /// Fills from the queue the stock events left (the filler task).
    pub async fn fill_queued(&self) -> Result<usize> {
        let queued = self.repo.queued_fills(50).await?;
        let n = queued.len();
        for (store_id, warehouse_id, sku_id, queued_at) in queued {
            let ctx = self.system(store_id);
            self.fill(&ctx, warehouse_id, sku_id).await?;
            self.repo.unqueue_fill(store_id, warehouse_id, sku_id, queued_at).await?;
        }
        Ok(n)
    }

    /// Asks wms again for orders a request left in flight, until wms and the order agree.
    pub async fn reconcile(&self) -> Result<usize> {
        let rows = self.repo.in_flight(now_ms() - self.settings.reconcile_after_ms, 200).await?;
        let n = rows.len();
        for row in rows {
            let ctx = self.system(row.store_id);
            let who = Actor { store_id: row.store_id, user_id: 0 };
            let outcome = match row.stock_state.as_str() {
                stock::PENDING => self.reconcile_hold(&ctx, &row).await,
                stock::RELEASING => self.release(&ctx, &[row.id]).await,
                stock::COMMITTING => self.ship_one(&ctx, who, &row).await.map(|_| ()),
                _ => Ok(()),
            };
            if let Err(e) = outcome {
                tracing::warn!(order = row.id, stock = %row.stock_state, error = %e, "could not settle an order with wms yet");
            }
        }
        Ok(n)
    }

    async fn reconcile_hold(&self, ctx: &CallCtx, row: &OrderRow) -> Result<()> {
        let items: Vec<Item> =
            self.repo.items(&[row.id]).await?.remove(&row.id).unwrap_or_default().iter().map(ItemRow::item).collect();
        let lines = lines_of(&items);
        let who = Self::actor(ctx);
        let mut rev = row.hold_revision;
        for _ in 0..3 {
            match self.hold(ctx, row.id, rev, lines.clone()).await {
                Ok(r) if !r.replayed || merged(&r.held) == merged(&lines) => {
                    self.repo.settle_hold(who, row.id, rev, true, false).await?;
                    return Ok(());
                }
                Ok(_) => {
                    // A newer revision holds other lines: set them to the order's again.
                    let Some(next) =
                        self.repo.next_revision(row.store_id, row.id, &[stock::PENDING], 0, Some(rev)).await?
                    else {
                        return Ok(());
                    };
                    rev = next;
                }
                Err(e) if e.code == "insufficient_stock" => {
                    let Some(next) =
                        self.repo.next_revision(row.store_id, row.id, &[stock::PENDING], 0, Some(rev)).await?
                    else {
                        return Ok(());
                    };
                    self.hold(ctx, row.id, next, Vec::new()).await?;
                    self.repo.settle_hold(who, row.id, next, false, false).await?;
                    return Ok(());
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Ships prepared orders with their parcels, each on its own.
    pub async fn ship(&self, ctx: &CallCtx, ids: &[i64]) -> Result<Vec<Moved>> {
        if ids.is_empty() {
            return Err(Error::invalid_field("order_ids", "validation.required"));
        }
        if ids.len() > self.settings.max_selection {
            return Err(Error::invalid_field("order_ids", "order.too_many_selected"));
        }
        let mut out = Vec::with_capacity(ids.len());
        let mut seen = HashSet::new();
        for id in ids {
            if !seen.insert(*id) {
                continue;
            }
            let refused = |row: Option<&OrderRow>, why: &str| Moved {
                id: *id,
                order_no: row.map(|r| r.order_no.clone()).unwrap_or_default(),
                refused: Some(why.to_string()),
                state: row.map(|r| r.state.clone()).unwrap_or_default(),
                release: false,
            };
            let Some(row) = self.repo.get(ctx.store_id, *id).await? else {
                out.push(refused(None, "order_not_found"));
                continue;
            };
            if let Err(why) = state::next(&row.state, Action::Ship) {
                out.push(refused(Some(&row), why));
                continue;
            }
            if !self.repo.begin_ship(ctx.store_id, *id).await? {
                let why = if row.stock_state == stock::SHORT { "insufficient_stock" } else { "order_busy" };
                out.push(refused(Some(&row), why));
                continue;
            }
            match self.ship_one(ctx, Self::actor(ctx), &row).await {
                Ok(None) => out.push(Moved {
                    id: *id,
                    order_no: row.order_no.clone(),
                    refused: None,
                    state: state::SHIPPED.into(),
                    release: false,
                }),
                Ok(Some(why)) => out.push(refused(Some(&row), &why)),
                Err(e) => out.push(refused(Some(&row), &e.code)),
            }
        }
        self.relay.wake();
        Ok(out)
    }

    /// Ships one order that is `committing`: None when shipped, Some(reason) when wms refused.
    async fn ship_one(&self, ctx: &CallCtx, who: Actor, row: &OrderRow) -> Result<Option<String>> {
        let shipped = self
            .clients()?
            .wms
            .clone()
            .ship_order(ctx.request(wpb::ShipOrderRequest { order_id: row.id, reference: domain::reference(row.id) }))
            .await
            .map_err(Error::from);
        match shipped {
            Ok(r) => {
                let r = r.into_inner();
                let tracking: Vec<String> =
                    r.parcels.iter().map(|p| p.tracking_no.clone()).filter(|t| !t.is_empty()).collect();
                let at = r.parcels.iter().map(|p| p.shipped_at_ms).max().filter(|t| *t > 0).unwrap_or_else(now_ms);
                self.repo.finish_ship(who, row.id, &tracking.join(","), at).await?;
                self.follow(ctx, row, &r.parcels).await;
                Ok(None)
            }
            Err(e) if is_definite(&e) => {
                self.repo.abandon_ship(row.store_id, row.id).await?;
                Ok(Some(e.code.to_string()))
            }
            Err(e) => Err(e),
        }
    }

    /// Starts following shipped postal parcels (their tracking pushes then reach the order);
    /// Flash bookings are followed from the moment they are made.
    async fn follow(&self, ctx: &CallCtx, row: &OrderRow, parcels: &[wpb::Parcel]) {
        let Ok(c) = self.clients() else { return };
        for p in parcels.iter().filter(|p| p.shipment_id == 0 && p.provider == "thaipost" && !p.tracking_no.is_empty())
        {
            let followed = c
                .logistics
                .clone()
                .register_shipment(ctx.request(lpb::RegisterShipmentRequest {
                    carrier: "thaipost".into(),
                    tracking_no: p.tracking_no.clone(),
                    reference: row.order_no.clone(),
                }))
                .await;
            if let Err(e) = followed {
                tracing::info!(order = row.id, error = %e.message(), "a parcel's tracking is not followed");
            }
        }
    }

    /// Adds a parcel to a prepared order, priced by its channel, with a tracking number.
    pub async fn add_parcel(&self, ctx: &CallCtx, order_id: i64, d: pb::ParcelDraft) -> Result<View> {
        let row = self.repo.order(ctx.store_id, order_id).await?;
        self.save_parcel(ctx, &row, None, d).await?;
        self.load(ctx, order_id).await
    }

    /// Changes a pending parcel.
    pub async fn update_parcel(&self, ctx: &CallCtx, parcel_id: i64, d: pb::ParcelDraft) -> Result<View> {
        let p = self.parcel(ctx, parcel_id).await?;
        let row = self.repo.order(ctx.store_id, p.order_id).await?;
        self.save_parcel(ctx, &row, Some(p), d).await?;
        self.load(ctx, row.id).await
    }

    async fn parcel(&self, ctx: &CallCtx, id: i64) -> Result<wpb::Parcel> {
        self.clients()?
            .wms
            .clone()
            .list_parcels(ctx.request(wpb::ListParcelsRequest { order_ids: vec![], ids: vec![id] }))
            .await
            .map_err(Error::from)?
            .into_inner()
            .parcels
            .pop()
            .ok_or_else(|| Error::not_found("parcel_not_found"))
    }

    async fn save_parcel(
        &self,
        ctx: &CallCtx,
        row: &OrderRow,
        current: Option<wpb::Parcel>,
        d: pb::ParcelDraft,
    ) -> Result<()> {
        if row.state != state::READY {
            return Err(Error::failed_precondition("order_not_ready"));
        }
        if row.logistic_store_channel_id == 0 {
            return Err(Error::failed_precondition("order_without_logistic_channel"));
        }
        let c = self.clients()?;
        let others = self.parcels(ctx, &[row.id]).await?.remove(&row.id).unwrap_or_default();
        // The cash on delivery rides on the order's first parcel.
        let carries_cod = match &current {
            Some(p) => p.cod_amount > 0,
            None => others.iter().all(|p| p.cod_amount == 0),
        };
        let cod_amount = if row.cod != 0 && carries_cod { row.total } else { 0 };
        let a = row.address();
        let quotes = c
            .logistics
            .clone()
            .quote_shipping(ctx.request(lpb::QuoteShippingRequest {
                warehouse_id: row.warehouse_id,
                parcel: Some(lpb::Parcel {
                    weight_g: d.weight_g,
                    length_cm: d.length_cm,
                    width_cm: d.width_cm,
                    height_cm: d.height_cm,
                    postcode: if a.is_international() { String::new() } else { a.postcode.clone() },
                    country: a.country.clone(),
                    order_total_satang: row.net,
                    cod: cod_amount > 0,
                    cod_amount_satang: cod_amount,
                }),
            }))
            .await
            .map_err(Error::from)?
            .into_inner()
            .quotes;
        let q = quotes
            .into_iter()
            .find(|q| q.store_channel.as_ref().is_some_and(|s| s.id == row.logistic_store_channel_id))
            .ok_or_else(|| Error::failed_precondition("order_without_logistic_channel"))?;
        if !q.available {
            return Err(Error::invalid_field("weight", &q.reason));
        }
        let keep = current.clone().unwrap_or_default();
        let typed = d.tracking_no.trim().to_uppercase();
        let mut parcel = wpb::Parcel {
            id: keep.id,
            order_id: row.id,
            warehouse_id: row.warehouse_id,
            logistic_store_channel_id: row.logistic_store_channel_id,
            provider: row.shipping_provider.clone(),
            weight_g: d.weight_g,
            width_cm: d.width_cm,
            length_cm: d.length_cm,
            height_cm: d.height_cm,
            packaging_code: d.packaging_code.trim().to_string(),
            shipping_fee: q.price_satang,
            cod_amount,
            cod_fee: q.cod_fee_satang,
            tracking_no: if typed.is_empty() { keep.tracking_no.clone() } else { typed },
            shipment_id: keep.shipment_id,
            ..Default::default()
        };
        let saved = c
            .wms
            .clone()
            .save_parcel(ctx.request(wpb::SaveParcelRequest { parcel: Some(parcel.clone()) }))
            .await
            .map_err(Error::from)?
            .into_inner()
            .parcel
            .unwrap_or_default();
        let mut detail = format!("{} g", saved.weight_g);
        if saved.tracking_no.is_empty() {
            match self.tracking_for(ctx, row, &saved).await {
                Ok(Some((no, shipment))) => {
                    parcel.id = saved.id;
                    parcel.tracking_no = no;
                    parcel.shipment_id = shipment;
                    let again = c
                        .wms
                        .clone()
                        .save_parcel(ctx.request(wpb::SaveParcelRequest { parcel: Some(parcel.clone()) }))
                        .await
                        .map_err(Error::from)?
                        .into_inner()
                        .parcel
                        .unwrap_or_default();
                    detail = format!("{} · {}", again.tracking_no, detail);
                }
                Ok(None) => {}
                Err(e) => {
                    if current.is_none() {
                        let _ =
                            c.wms.clone().delete_parcel(ctx.request(wpb::DeleteParcelRequest { id: saved.id })).await;
                    }
                    return Err(e);
                }
            }
        } else {
            detail = format!("{} · {}", saved.tracking_no, detail);
        }
        let action = if current.is_some() { "parcel_changed" } else { "parcel_added" };
        self.repo.note_event(Self::actor(ctx), row.id, action, &detail).await
    }

    /// A tracking number for a parcel: a booking with Flash Express when the store has its
    /// account, else the next number of the store's range for the provider; None when the
    /// provider has neither (the number is typed in).
    async fn tracking_for(&self, ctx: &CallCtx, row: &OrderRow, p: &wpb::Parcel) -> Result<Option<(String, i64)>> {
        let c = self.clients()?;
        let reference = format!("parcel:{}", p.id);
        if row.shipping_provider == "flash" {
            let account = c
                .logistics
                .clone()
                .get_carrier_account(
                    ctx.request(lpb::GetCarrierAccountRequest { carrier: "flash".into(), check: false }),
                )
                .await
                .map_err(Error::from)?
                .into_inner();
            if !account.connected {
                return Ok(None);
            }
            let store = c
                .stores
                .clone()
                .get_store(ctx.request(spb::GetStoreRequest {}))
                .await
                .map_err(Error::from)?
                .into_inner()
                .store
                .unwrap_or_default();
            let a = row.address();
            let booked = c
                .logistics
                .clone()
                .create_shipment(ctx.request(lpb::CreateShipmentRequest {
                    carrier: "flash".into(),
                    reference,
                    sender: Some(lpb::CarrierAddress {
                        name: store.name,
                        phone: store.tel,
                        province: store.province,
                        district: store.district,
                        sub_district: store.sub_district,
                        postcode: store.postcode,
                        detail: store.address,
                    }),
                    receiver: Some(lpb::CarrierAddress {
                        name: a.name,
                        phone: a.tel,
                        province: a.state_province,
                        district: a.district,
                        sub_district: a.sub_district,
                        postcode: a.postcode,
                        detail: a.address,
                    }),
                    weight_g: p.weight_g,
                    cod_satang: p.cod_amount,
                }))
                .await
                .map_err(Error::from)?
                .into_inner()
                .shipment
                .unwrap_or_default();
            return Ok(Some((booked.tracking_no, booked.id)));
        }
        match c
            .logistics
            .clone()
            .reserve_tracking_numbers(ctx.request(lpb::ReserveTrackingNumbersRequest {
                provider: row.shipping_provider.clone(),
                count: 1,
                reference,
            }))
            .await
        {
            Ok(r) => Ok(r.into_inner().numbers.into_iter().next().map(|n| (n, 0))),
            Err(s) if matches!(s.code(), tonic::Code::NotFound | tonic::Code::FailedPrecondition) => Ok(None),
            Err(s) => Err(s.into()),
        }
    }

    /// Removes a pending parcel (cancelling its carrier booking first).
    pub async fn delete_parcel(&self, ctx: &CallCtx, parcel_id: i64) -> Result<View> {
        let p = self.parcel(ctx, parcel_id).await?;
        let row = self.repo.order(ctx.store_id, p.order_id).await?;
        if p.state != "pending" {
            return Err(Error::failed_precondition("parcel_shipped"));
        }
        let c = self.clients()?;
        if p.shipment_id > 0 && p.provider == "flash" {
            c.logistics
                .clone()
                .cancel_shipment(
                    ctx.request(lpb::GetShipmentRequest {
                        carrier: "flash".into(),
                        tracking_no: p.tracking_no.clone(),
                    }),
                )
                .await
                .map_err(Error::from)?;
        }
        c.wms
            .clone()
            .delete_parcel(ctx.request(wpb::DeleteParcelRequest { id: parcel_id }))
            .await
            .map_err(Error::from)?;
        let detail = if p.tracking_no.is_empty() { format!("{} g", p.weight_g) } else { p.tracking_no.clone() };
        self.repo.note_event(Self::actor(ctx), row.id, "parcel_removed", &detail).await?;
        self.load(ctx, row.id).await
    }

    /// Records that parcels' labels were printed, on each order's timeline.
    pub async fn labels_printed(&self, ctx: &CallCtx, parcel_ids: &[i64]) -> Result<()> {
        if parcel_ids.is_empty() || parcel_ids.len() > 1000 {
            return Err(Error::invalid_field("parcel_ids", "validation.too_many"));
        }
        let c = self.clients()?;
        let parcels = c
            .wms
            .clone()
            .list_parcels(ctx.request(wpb::ListParcelsRequest { order_ids: vec![], ids: parcel_ids.to_vec() }))
            .await
            .map_err(Error::from)?
            .into_inner()
            .parcels;
        c.wms
            .clone()
            .mark_parcels_printed(
                ctx.request(wpb::MarkParcelsPrintedRequest { ids: parcels.iter().map(|p| p.id).collect() }),
            )
            .await
            .map_err(Error::from)?;
        let mut per_order: BTreeMap<i64, Vec<String>> = BTreeMap::new();
        for p in &parcels {
            per_order.entry(p.order_id).or_default().push(if p.tracking_no.is_empty() {
                format!("#{}", p.id)
            } else {
                p.tracking_no.clone()
            });
        }
        for (order, labels) in per_order {
            self.repo.note_event(Self::actor(ctx), order, "labels_printed", &labels.join(", ")).await?;
        }
        Ok(())
    }

    /// The store's default filler context, for the consumer.
    pub fn wake_filler(&self) {
        self.fills.notify_one();
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

/// What an edit changed in the lines, for the timeline: `A-1 2→3, +B-2 ×1, −C-3`.
fn edit_detail(before: &[ItemRow], after: &[Item]) -> String {
    let mut was: BTreeMap<&str, i64> = BTreeMap::new();
    for i in before {
        *was.entry(i.sku_code.as_str()).or_insert(0) += i.quantity;
    }
    let mut now: BTreeMap<&str, i64> = BTreeMap::new();
    for i in after {
        *now.entry(i.sku_code.as_str()).or_insert(0) += i.quantity;
    }
    let mut parts = Vec::new();
    for (code, q) in &now {
        match was.get(code) {
            None => parts.push(format!("+{code} ×{q}")),
            Some(p) if p != q => parts.push(format!("{code} {p}→{q}")),
            _ => {}
        }
    }
    for code in was.keys().filter(|c| !now.contains_key(*c)) {
        parts.push(format!("−{code}"));
    }
    parts.join(", ")
}
