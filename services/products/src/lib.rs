//! The products service: products, SKUs and variants, categories, and the inventory view
//! kept current from the stock ledger's events.

pub mod domain;
pub mod grpc;
pub mod import;
pub mod import_plan;
pub mod photos;
pub mod search;
pub mod store;

use std::sync::Arc;

use async_trait::async_trait;
use bo_kit::bus::SharedBus;
use bo_kit::db::{Db, Tx};
use bo_kit::inbox::{Consumer, Handler};
use bo_kit::outbox::Relay;
use bo_proto::events::v1::{Envelope, StockMoved};
use bo_proto::products::v1::products_service_server::ProductsServiceServer;
use prost::Message as _;
use sqlx::migrate::Migrator;

pub use grpc::ProductsGrpc;

/// SQLite migrations.
pub static MIGRATIONS_SQLITE: Migrator = sqlx::migrate!("./migrations/sqlite");
/// PostgreSQL migrations.
pub static MIGRATIONS_POSTGRES: Migrator = sqlx::migrate!("./migrations/postgres");

/// The running service's parts.
#[derive(Clone)]
pub struct Service {
    /// The gRPC implementation.
    pub grpc: ProductsGrpc,
    /// The outbox relay (run it as a task).
    pub relay: Relay,
    /// The inventory view's consumer of `wms.stock.*` (run it as a task).
    pub consumer: Consumer,
    /// The database.
    pub db: Db,
}

impl Service {
    /// Migrates `db` and builds the service, keeping images in `photos` under `limits`.
    pub async fn open(
        db: Db,
        bus: SharedBus,
        photos: Arc<dyn photos::PhotoStore>,
        limits: photos::PhotoLimits,
    ) -> anyhow::Result<Service> {
        limits.check().map_err(anyhow::Error::msg)?;
        db.migrate(&MIGRATIONS_SQLITE, &MIGRATIONS_POSTGRES).await?;
        let repo = store::Repo::new(db.clone());
        let indexed = repo.index_unsearchable().await?;
        if indexed > 0 {
            tracing::info!(products = indexed, "indexed products for search");
        }
        let relay = Relay::new(db.clone(), bus.clone());
        let grpc = ProductsGrpc::new(repo, relay.clone(), photos, limits);
        let consumer = Consumer::new(db.clone(), bus, "products-stock", "wms.stock.>", Arc::new(StockView));
        Ok(Service { grpc, relay, consumer, db })
    }

    /// The tonic server.
    pub fn server(&self) -> ProductsServiceServer<ProductsGrpc> {
        ProductsServiceServer::new(self.grpc.clone())
    }
}

/// Keeps the inventory view current.
struct StockView;

#[async_trait]
impl Handler for StockView {
    async fn handle(&self, tx: &mut Tx, event: &Envelope) -> anyhow::Result<()> {
        if event.r#type == "wms.stock.moved" {
            let moved = StockMoved::decode(event.payload.as_slice())?;
            if let (Some(level), Some(movement)) = (moved.level, moved.movement) {
                store::Repo::apply_stock(tx, event.store_id, &level, movement.id).await?;
            }
        }
        Ok(())
    }
}
