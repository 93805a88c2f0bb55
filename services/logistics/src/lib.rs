//! The logistics service: the carrier catalogue, a store's shipping channels with their
//! prices, its COD accounts, and parcel prices for orders. Warehouses are wms's: a channel's
//! warehouse is confirmed with wms for the caller's store.

pub mod carriers;
mod convert;
pub mod domain;
pub mod grpc;
pub mod rates;
pub mod store;

use async_trait::async_trait;
use bo_kit::bus::SharedBus;
use bo_kit::db::Db;
use bo_kit::module::{Context, Module, Started};
use bo_kit::outbox::Relay;
use bo_proto::logistics::v1::logistics_service_server::LogisticsServiceServer;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
use serde::{Deserialize, Serialize};
use sqlx::migrate::Migrator;

pub use grpc::LogisticsGrpc;

/// SQLite migrations.
pub static MIGRATIONS_SQLITE: Migrator = sqlx::migrate!("./migrations/sqlite");
/// PostgreSQL migrations.
pub static MIGRATIONS_POSTGRES: Migrator = sqlx::migrate!("./migrations/postgres");

/// The logistics module's settings (`services.logistics.*`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The most shipping channels a store may keep ('exceeded the set number' past it).
    pub max_store_channels: i64,
    /// Where the carriers' APIs are and how long to wait for them
    /// (`services.logistics.carriers.thaipost_base_url`, `.flash_base_url`, `.timeout_ms`).
    pub carriers: carriers::CarrierConfig,
    /// How often Flash Express is asked where the parcels it carries are, in seconds
    /// (`services.logistics.follow_flash_secs`).
    pub follow_flash_secs: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_store_channels: domain::DEFAULT_MAX_CHANNELS,
            carriers: carriers::CarrierConfig::default(),
            follow_flash_secs: 600,
        }
    }
}

/// The running service's parts.
#[derive(Clone)]
pub struct Service {
    /// The gRPC implementation.
    pub grpc: LogisticsGrpc,
    /// The outbox relay (run it as a task).
    pub relay: Relay,
    /// The database.
    pub db: Db,
}

impl Service {
    /// Migrates `db` and builds the service.
    pub async fn open(db: Db, bus: SharedBus, settings: Settings) -> anyhow::Result<Service> {
        db.migrate(&MIGRATIONS_SQLITE, &MIGRATIONS_POSTGRES).await?;
        let relay = Relay::new(db.clone(), bus);
        let grpc = LogisticsGrpc::new(store::Repo::new(db.clone(), settings.max_store_channels), relay.clone())
            .with_carriers(settings.carriers)?;
        Ok(Service { grpc, relay, db })
    }

    /// The service confirming warehouses with `wms`.
    pub fn with_wms(mut self, wms: grpc::WmsClient) -> Service {
        self.grpc = self.grpc.with_wms(wms);
        self
    }

    /// The service reading uploaded rate tables from `files`.
    pub fn with_files(mut self, files: bo_kit::files::Files) -> Service {
        self.grpc = self.grpc.with_files(files);
        self
    }

    /// The tonic server.
    pub fn server(&self) -> LogisticsServiceServer<LogisticsGrpc> {
        LogisticsServiceServer::new(self.grpc.clone())
    }
}

/// The logistics module.
pub struct LogisticsModule;

#[async_trait]
impl Module for LogisticsModule {
    fn name(&self) -> &'static str {
        "logistics"
    }

    fn migrations(&self) -> Option<bo_kit::module::Migrations> {
        Some(bo_kit::module::Migrations { sqlite: &MIGRATIONS_SQLITE, postgres: &MIGRATIONS_POSTGRES })
    }

    fn publishes(&self) -> Vec<&'static str> {
        use bo_proto::events::v1 as ev;
        use bo_proto::Event as _;
        vec![ev::LogisticChannelSaved::TYPE]
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
        let every = std::time::Duration::from_secs(settings.follow_flash_secs.max(1));
        let svc = Service::open(db.clone(), ctx.bus.clone(), settings)
            .await?
            .with_wms(ctx.client(WmsServiceClient::new)?)
            .with_files(ctx.files()?);
        ctx.spawn_event_tasks(&svc.relay, None)?;
        let following = svc.grpc.clone();
        ctx.spawn(
            "follow_flash",
            bo_kit::schedule::every(db.clone(), "logistics.follow_flash", every, ctx.cancel.clone(), move || {
                let grpc = following.clone();
                async move {
                    grpc.follow_flash(200).await?;
                    Ok(())
                }
            }),
        );
        ctx.serve(svc.server());
        Ok(Started::default())
    }
}
