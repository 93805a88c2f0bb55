//! The products service: products, SKUs and variants, categories, and the inventory view
//! kept current from the stock ledger's events.

pub mod convert;
pub mod domain;
pub mod grpc;
pub mod import;
pub mod import_plan;
pub mod photos;
pub mod search;
pub mod store;

use std::path::Path;

use async_trait::async_trait;
use bo_kit::bus::SharedBus;
use bo_kit::db::{Db, Tx};
use bo_kit::files::Files;
use bo_kit::grpc::GrpcChannel;
use bo_kit::inbox::{Consumer, Meta, On, OnAll};
use bo_kit::module::{Context, Module, Started};
use bo_kit::outbox::Relay;
use bo_proto::events::v1::{SafetyStockSet, StockMoved};
use bo_proto::products::v1::products_service_server::ProductsServiceServer;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
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
    /// The inventory view's consumer of `wms.stock.moved` (run it as a task).
    pub consumer: Consumer,
    /// The database.
    pub db: Db,
}

impl Service {
    /// Migrates `db` and builds the service, keeping images in `files` under `limits` and
    /// asking `wms` whether SKUs hold stock before they go.
    pub async fn open(
        db: Db,
        bus: SharedBus,
        files: Files,
        limits: photos::PhotoLimits,
        wms: WmsServiceClient<GrpcChannel>,
    ) -> anyhow::Result<Service> {
        limits.check().map_err(anyhow::Error::msg)?;
        db.migrate(&MIGRATIONS_SQLITE, &MIGRATIONS_POSTGRES).await?;
        let repo = store::Repo::new(db.clone());
        let indexed = repo.index_unsearchable().await?;
        if indexed > 0 {
            tracing::info!(products = indexed, "indexed products for search");
        }
        // Each consumer that arrived after products existed hears of them once.
        let mut announced = repo.announce_all_once("sku-registry").await?;
        announced += repo.announce_all_once("getting-started").await?;
        // wms' registry keeps names, barcodes and options for receipts and pick lists.
        announced += repo.announce_all_once("sku-registry-names").await?;
        if announced > 0 {
            tracing::info!(products = announced, "announced existing products to the stock ledger");
        }
        let relay = Relay::new(db.clone(), bus.clone());
        let grpc = ProductsGrpc::new(repo, relay.clone(), files, limits, wms);
        let consumer = Consumer::new(db.clone(), bus, "products")
            .on_all::<StockMoved, _>(StockView)
            .on::<SafetyStockSet, _>(StoreSafetyStock);
        Ok(Service { grpc, relay, consumer, db })
    }

    /// The tonic server.
    pub fn server(&self) -> ProductsServiceServer<ProductsGrpc> {
        ProductsServiceServer::new(self.grpc.clone())
    }
}

/// Keeps the inventory view current: of the levels of a SKU in a warehouse that arrived
/// together, only the newest is written (an older one would change nothing after it).
struct StockView;

#[async_trait]
impl OnAll<StockMoved> for StockView {
    async fn on_all(&self, tx: &mut Tx, events: Vec<(Meta, StockMoved)>) -> anyhow::Result<()> {
        let mut newest: std::collections::BTreeMap<(i64, i64, i64), (bo_proto::events::v1::StockLevel, i64)> =
            Default::default();
        for (meta, moved) in events {
            if let (Some(level), Some(movement)) = (moved.level, moved.movement) {
                let key = (meta.store_id, level.sku_id, level.warehouse_id);
                match newest.get(&key) {
                    Some((_, kept)) if *kept >= movement.id => {}
                    _ => {
                        newest.insert(key, (level, movement.id));
                    }
                }
            }
        }
        for ((store_id, ..), (level, movement)) in newest {
            store::Repo::apply_stock(tx, store_id, &level, movement).await?;
        }
        Ok(())
    }
}

/// Gives every SKU the store's safety stock when the store sets it.
struct StoreSafetyStock;

#[async_trait]
impl On<SafetyStockSet> for StoreSafetyStock {
    async fn on(&self, tx: &mut Tx, meta: &Meta, set: SafetyStockSet) -> anyhow::Result<()> {
        store::Repo::apply_safety_stock(tx, meta.store_id, set.amount).await?;
        Ok(())
    }
}

/// The products module's settings (`services.products.*`).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Photos per product (`BO_SERVICES__PRODUCTS__PHOTOS__MIN_PER_PRODUCT`, `…__MAX_PER_PRODUCT`).
    pub photos: photos::PhotoLimits,
}

/// Moves the photos of an installation from before the file storage (`<data_dir>/photos`)
/// to where the storage keeps them (`<files>/photos`), once, when both are on this disk.
fn adopt_old_photos(data_dir: &Path, files: &Files) -> anyhow::Result<()> {
    let Some(root) = files.local_root() else { return Ok(()) };
    let (old, new) = (data_dir.join("photos"), root.join("photos"));
    if old.is_dir() && !new.exists() {
        std::fs::rename(&old, &new)?;
        tracing::info!(from = %old.display(), to = %new.display(), "moved photos into the file storage");
    }
    Ok(())
}

/// The products module.
pub struct ProductsModule;

#[async_trait]
impl Module for ProductsModule {
    fn name(&self) -> &'static str {
        "products"
    }

    fn migrations(&self) -> Option<bo_kit::module::Migrations> {
        Some(bo_kit::module::Migrations { sqlite: &MIGRATIONS_SQLITE, postgres: &MIGRATIONS_POSTGRES })
    }

    fn publishes(&self) -> Vec<&'static str> {
        use bo_proto::events::v1 as ev;
        use bo_proto::Event as _;
        vec![ev::ProductSaved::TYPE, ev::ProductsDeleted::TYPE]
    }

    fn subscribes(&self) -> Vec<&'static str> {
        use bo_proto::events::v1 as ev;
        use bo_proto::Event as _;
        vec![ev::StockMoved::TYPE, ev::SafetyStockSet::TYPE]
    }

    fn uses_files(&self) -> bool {
        true
    }

    fn needs(&self) -> Vec<&'static str> {
        vec!["wms"]
    }

    async fn start(&self, ctx: &Context) -> anyhow::Result<Started> {
        let db = ctx.db()?;
        let settings: Settings = ctx.settings()?;
        let files = ctx.files()?;
        adopt_old_photos(&ctx.data_dir, &files)?;
        let svc =
            Service::open(db.clone(), ctx.bus.clone(), files, settings.photos, ctx.client(WmsServiceClient::new)?)
                .await?;
        ctx.spawn_event_tasks(&svc.relay, Some(&svc.consumer))?;
        ctx.serve(svc.server());
        Ok(Started::default())
    }
}
