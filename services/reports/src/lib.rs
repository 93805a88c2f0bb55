//! The reports service: the owner's numbers. It keeps a sales ledger and daily totals per
//! store, day, channel and SKU from the orders service's events (placed, revised, moved),
//! and the warehouses' service fees from wms's fee charges,
//! in the transaction that records each event, so a dashboard sums daily rows and never
//! reads orders (DESIGN.md: read models from events). Events that arrive together are
//! applied together: one read of their orders and one write per table.

pub mod domain;
pub mod exports;
pub mod fees;
pub mod grpc;
pub mod store;

use async_trait::async_trait;
use bo_kit::bus::SharedBus;
use bo_kit::db::{Db, Tx};
use bo_kit::inbox::{Consumer, Meta, OnAll};
use bo_kit::module::{Context, Module, Started};
use bo_kit::outbox::Relay;
use bo_kit::time::timestamp_to_ms;
use bo_proto::events::v1::{FeesCharged, OrderPlaced, OrderRevised, OrderStateChanged};
use bo_proto::orders::v1::orders_service_client::OrdersServiceClient;
use bo_proto::orders::v1::{OrderFigures, OrderState};
use bo_proto::products::v1::products_service_client::ProductsServiceClient;
use bo_proto::reports::v1::reports_service_server::ReportsServiceServer;
use bo_proto::stores::v1::stores_service_client::StoresServiceClient;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
use bo_proto::Wire as _;
use sqlx::migrate::Migrator;

pub use exports::{Exports, Sources};
pub use grpc::ReportsGrpc;

use crate::domain::{Change, Content, Line, Place};
use crate::store::{Repo, SkuNames, Told};

/// SQLite migrations.
pub static MIGRATIONS_SQLITE: Migrator = sqlx::migrate!("./migrations/sqlite");
/// PostgreSQL migrations.
pub static MIGRATIONS_POSTGRES: Migrator = sqlx::migrate!("./migrations/postgres");

/// The running service's parts.
#[derive(Clone)]
pub struct Service {
    /// The gRPC implementation.
    pub grpc: ReportsGrpc,
    /// The outbox relay (the exports' progress).
    pub relay: Relay,
    /// Keeps the sales figures from orders' events (run it as a task).
    pub consumer: Consumer,
    /// The report exports (their builder runs as a task).
    pub exports: Exports,
    /// The database.
    pub db: Db,
}

impl Service {
    /// Migrates `db` and builds the service.
    pub async fn open(db: Db, bus: SharedBus) -> anyhow::Result<Service> {
        db.migrate(&MIGRATIONS_SQLITE, &MIGRATIONS_POSTGRES).await?;
        let relay = Relay::new(db.clone(), bus.clone());
        let exports = Exports::new(Repo::new(db.clone()));
        let grpc = ReportsGrpc::new(Repo::new(db.clone()), exports.clone());
        let consumer = Consumer::new(db.clone(), bus, "reports")
            .on_all::<OrderPlaced, _>(Sales)
            .on_all::<OrderRevised, _>(Sales)
            .on_all::<OrderStateChanged, _>(Sales)
            .on_all::<FeesCharged, _>(Fees);
        Ok(Service { grpc, relay, consumer, exports, db })
    }

    /// The service reading `sources` (checks, rebuilds and exports) and keeping its exports'
    /// files in `files`.
    pub fn with_sources(mut self, sources: Sources, files: Option<bo_kit::files::Files>) -> Service {
        self.exports = self.exports.clone().with(Some(sources.clone()), files);
        self.grpc = ReportsGrpc::new(Repo::new(self.db.clone()), self.exports.clone()).with_source(sources);
        self
    }

    /// The tonic server.
    pub fn server(&self) -> ReportsServiceServer<ReportsGrpc> {
        ReportsServiceServer::new(self.grpc.clone())
    }
}

/// The sales figures, from orders' events.
struct Sales;

/// The change an order's figures make, and the names of the SKUs it sold.
fn content_change(f: OrderFigures, placed: bool) -> (Change, Vec<SkuNames>) {
    let placed_at = f.place_time.as_ref().map(timestamp_to_ms).unwrap_or(0);
    let placed_day = domain::day_of(placed_at);
    let names = f
        .lines
        .iter()
        .map(|l| SkuNames {
            sku_id: l.sku_id,
            product_id: l.product_id,
            product_name: l.product_name.clone(),
            sku_code: l.sku_code.clone(),
            variant: l.variant.clone(),
        })
        .collect();
    let content = Content {
        lines: f
            .lines
            .iter()
            .map(|l| Line { sku_id: l.sku_id, units: l.quantity, net: l.net, net_ex_vat: l.net_ex_vat, cost: l.cost })
            .collect(),
        net: f.net,
        total: f.total,
        net_ex_vat: f.net_ex_vat,
        cost: f.cost,
        shipping: f.shipping,
        place: Place { province: f.province, district: f.district, country: f.country, city: f.city },
        customer: Some(f.customer_id.max(0)),
        created_by: Some(f.created_by.max(0)),
        paid: f.paid,
    };
    (Change::Content { version: f.version.max(1), channel: f.channel, placed_day, placed_at, content, placed }, names)
}

/// What an order as the orders service keeps it now tells (the check's and the rebuild's
/// source): its content and its state, both at the order's version, cancelled on the day it
/// was. An order without figures tells nothing.
pub fn told_now(e: bo_proto::orders::v1::OrderFiguresEntry) -> Vec<Told> {
    let Some(f) = e.figures else { return Vec::new() };
    let (version, channel) = (f.version.max(1), f.channel.clone());
    let placed_at = f.place_time.as_ref().map(timestamp_to_ms).unwrap_or(0);
    let cancelled_at = e.cancel_time.as_ref().map(timestamp_to_ms).unwrap_or(placed_at);
    let (content, names) = content_change(f, false);
    let state = Change::State {
        version,
        channel,
        placed_day: domain::day_of(placed_at),
        state: OrderState::word_of(e.state).to_string(),
        day: domain::day_of(cancelled_at),
    };
    let told =
        |change, names| Told { store_id: e.store_id, order_id: e.order_id, event_id: REBUILD.into(), change, names };
    vec![told(content, names), told(state, Vec::new())]
}

/// The event id the ledger's rows of a rebuild carry.
pub const REBUILD: &str = "rebuild";

/// What a placed or revised order's figures tell, if they were sent (an order placed before
/// its events carried figures is counted by a rebuild).
fn told_content(meta: Meta, order_id: i64, figures: Option<OrderFigures>, placed: bool) -> Option<Told> {
    let (change, names) = content_change(figures?, placed);
    Some(Told { store_id: meta.store_id, order_id, event_id: meta.event_id, change, names })
}

#[async_trait]
impl OnAll<OrderPlaced> for Sales {
    async fn on_all(&self, tx: &mut Tx, events: Vec<(Meta, OrderPlaced)>) -> anyhow::Result<()> {
        let told = events.into_iter().filter_map(|(m, e)| told_content(m, e.order_id, e.figures, true)).collect();
        Repo::apply_all(tx, told).await?;
        Ok(())
    }
}

#[async_trait]
impl OnAll<OrderRevised> for Sales {
    async fn on_all(&self, tx: &mut Tx, events: Vec<(Meta, OrderRevised)>) -> anyhow::Result<()> {
        let told = events.into_iter().filter_map(|(m, e)| told_content(m, e.order_id, e.figures, false)).collect();
        Repo::apply_all(tx, told).await?;
        Ok(())
    }
}

#[async_trait]
impl OnAll<OrderStateChanged> for Sales {
    async fn on_all(&self, tx: &mut Tx, events: Vec<(Meta, OrderStateChanged)>) -> anyhow::Result<()> {
        let told = events
            .into_iter()
            .filter(|(_, e)| e.version != 0)
            .map(|(meta, e)| Told {
                store_id: meta.store_id,
                order_id: e.order_id,
                event_id: meta.event_id,
                change: Change::State {
                    version: e.version,
                    channel: e.channel,
                    placed_day: domain::day_of(e.place_time.as_ref().map(timestamp_to_ms).unwrap_or(0)),
                    state: OrderState::word_of(e.to_state).to_string(),
                    day: domain::day_of(meta.occur_ms),
                },
                names: Vec::new(),
            })
            .collect();
        Repo::apply_all(tx, told).await?;
        Ok(())
    }
}

/// The service fees, from wms's fee charges.
struct Fees;

#[async_trait]
impl OnAll<FeesCharged> for Fees {
    async fn on_all(&self, tx: &mut Tx, events: Vec<(Meta, FeesCharged)>) -> anyhow::Result<()> {
        let charges: Vec<_> = events
            .into_iter()
            .filter_map(|(m, e)| Some((fees::Charge::of(m.store_id, e.charge.as_ref()?)?, m.event_id)))
            .collect();
        Repo::apply_fees(tx, &charges).await?;
        Ok(())
    }
}

/// The reports module.
pub struct ReportsModule;

#[async_trait]
impl Module for ReportsModule {
    fn name(&self) -> &'static str {
        "reports"
    }

    fn migrations(&self) -> Option<bo_kit::module::Migrations> {
        Some(bo_kit::module::Migrations { sqlite: &MIGRATIONS_SQLITE, postgres: &MIGRATIONS_POSTGRES })
    }

    fn publishes(&self) -> Vec<&'static str> {
        use bo_proto::Event as _;
        vec![bo_proto::events::v1::ExportChanged::TYPE]
    }

    fn subscribes(&self) -> Vec<&'static str> {
        use bo_proto::events::v1 as ev;
        use bo_proto::Event as _;
        vec![ev::OrderPlaced::TYPE, ev::OrderRevised::TYPE, ev::OrderStateChanged::TYPE, ev::FeesCharged::TYPE]
    }

    /// Orders and wms: the sources its check, rebuild and exports read; products and stores:
    /// the names its exports write.
    fn needs(&self) -> Vec<&'static str> {
        vec!["orders", "wms", "products", "stores", "marketplaces"]
    }

    fn uses_files(&self) -> bool {
        true
    }

    async fn start(&self, ctx: &Context) -> anyhow::Result<Started> {
        let db = ctx.db()?;
        let sources = Sources {
            orders: ctx.client(OrdersServiceClient::new)?,
            marketplaces: ctx
                .client(bo_proto::marketplaces::v1::marketplaces_service_client::MarketplacesServiceClient::new)?,
            wms: ctx.client(WmsServiceClient::new)?,
            products: ctx.client(ProductsServiceClient::new)?,
            stores: ctx.client(StoresServiceClient::new)?,
            identity: ctx.identity(),
        };
        let svc = Service::open(db.clone(), ctx.bus.clone()).await?.with_sources(sources, Some(ctx.files()?));
        ctx.spawn("exports", exports::build::run(svc.exports.clone(), ctx.cancel.clone()));
        ctx.spawn_event_tasks(&svc.relay, Some(&svc.consumer))?;
        ctx.serve(svc.server());
        Ok(Started::default())
    }
}
