//! The warehouse service: warehouses and the stock ledger (on hand, reserved, available,
//! pre-order per SKU per warehouse), with an append-only movement history. Every stock
//! command is idempotent by its reference and every change publishes `wms.stock.moved`.
//! Stock commands name only SKUs of their store, which wms knows from the products
//! service's events (its SKU registry).

pub mod convert;
pub mod domain;
pub mod grpc;
pub mod registry;
pub mod store;

use async_trait::async_trait;
use bo_kit::bus::SharedBus;
use bo_kit::db::{Db, Tx};
use bo_kit::inbox::{Consumer, Meta, On};
use bo_kit::module::{Context, Module, Started};
use bo_kit::outbox::Relay;
use bo_proto::events::v1::StoreCreated;
use bo_proto::wms::v1::wms_service_server::WmsServiceServer;
use sqlx::migrate::Migrator;

pub use grpc::WmsGrpc;

/// SQLite migrations.
pub static MIGRATIONS_SQLITE: Migrator = sqlx::migrate!("./migrations/sqlite");
/// PostgreSQL migrations.
pub static MIGRATIONS_POSTGRES: Migrator = sqlx::migrate!("./migrations/postgres");

/// The name of every store's first warehouse.
pub const DEFAULT_WAREHOUSE_NAME: &str = "คลังสินค้าหลัก";

/// The running service's parts.
#[derive(Clone)]
pub struct Service {
    /// The gRPC implementation.
    pub grpc: WmsGrpc,
    /// The outbox relay (run it as a task).
    pub relay: Relay,
    /// What it consumes: new stores get their default warehouse; products keep the SKU
    /// registry (run it as a task).
    pub consumer: Consumer,
    /// The database.
    pub db: Db,
}

impl Service {
    /// Migrates `db` and builds the service.
    pub async fn open(db: Db, bus: SharedBus) -> anyhow::Result<Service> {
        db.migrate(&MIGRATIONS_SQLITE, &MIGRATIONS_POSTGRES).await?;
        let relay = Relay::new(db.clone(), bus.clone());
        let grpc = WmsGrpc::new(store::Repo::new(db.clone()), relay.clone());
        let consumer = Consumer::new(db.clone(), bus, "wms")
            .on::<StoreCreated, _>(NewStores)
            .on::<bo_proto::events::v1::ProductSaved, _>(registry::Registry)
            .on::<bo_proto::events::v1::ProductsDeleted, _>(registry::Registry);
        Ok(Service { grpc, relay, consumer, db })
    }

    /// The tonic server.
    pub fn server(&self) -> WmsServiceServer<WmsGrpc> {
        WmsServiceServer::new(self.grpc.clone())
    }
}

/// Gives every new store its default warehouse.
struct NewStores;

#[async_trait]
impl On<StoreCreated> for NewStores {
    async fn on(&self, tx: &mut Tx, _meta: &Meta, event: StoreCreated) -> anyhow::Result<()> {
        store::Repo::ensure_default_warehouse(tx, event.store_id, DEFAULT_WAREHOUSE_NAME).await?;
        Ok(())
    }
}

/// The wms module.
pub struct WmsModule;

#[async_trait]
impl Module for WmsModule {
    fn name(&self) -> &'static str {
        "wms"
    }

    fn migrations(&self) -> Option<bo_kit::module::Migrations> {
        Some(bo_kit::module::Migrations { sqlite: &MIGRATIONS_SQLITE, postgres: &MIGRATIONS_POSTGRES })
    }

    fn publishes(&self) -> Vec<&'static str> {
        use bo_proto::events::v1 as ev;
        use bo_proto::Event as _;
        vec![
            ev::StockMoved::TYPE,
            ev::StockAvailable::TYPE,
            ev::WarehouseCreated::TYPE,
            ev::WarehouseUpdated::TYPE,
            ev::GoodsReceiptApproved::TYPE,
            ev::FeesCharged::TYPE,
        ]
    }

    fn subscribes(&self) -> Vec<&'static str> {
        use bo_proto::events::v1 as ev;
        use bo_proto::Event as _;
        vec![ev::StoreCreated::TYPE, ev::ProductSaved::TYPE, ev::ProductsDeleted::TYPE]
    }

    async fn start(&self, ctx: &Context) -> anyhow::Result<Started> {
        let db = ctx.db()?;
        let svc = Service::open(db.clone(), ctx.bus.clone()).await?;
        ctx.spawn_event_tasks(&svc.relay, Some(&svc.consumer))?;
        ctx.serve(svc.server());
        Ok(Started::default())
    }
}
