//! The warehouse service: warehouses and the stock ledger (on hand, reserved, available,
//! pre-order per SKU per warehouse), with an append-only movement history. Every stock
//! command is idempotent by its reference and every change publishes `wms.stock.moved`.

pub mod domain;
pub mod grpc;
pub mod store;

use std::sync::Arc;

use async_trait::async_trait;
use bo_kit::bus::SharedBus;
use bo_kit::db::{Db, Tx};
use bo_kit::inbox::{Consumer, Handler};
use bo_kit::outbox::Relay;
use bo_proto::events::v1::{Envelope, StoreCreated};
use bo_proto::wms::v1::wms_service_server::WmsServiceServer;
use prost::Message as _;
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
    /// What it consumes: new stores get their default warehouse (run it as a task).
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
        let consumer = Consumer::new(db.clone(), bus, "wms-stores", "stores.store.>", Arc::new(NewStores));
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
impl Handler for NewStores {
    async fn handle(&self, tx: &mut Tx, event: &Envelope) -> anyhow::Result<()> {
        if event.r#type == "stores.store.created" {
            let created = StoreCreated::decode(event.payload.as_slice())?;
            let store_id = created.store.map(|s| s.id).unwrap_or(event.store_id);
            store::Repo::ensure_default_warehouse(tx, store_id, DEFAULT_WAREHOUSE_NAME).await?;
        }
        Ok(())
    }
}
