//! The stores service: users and sessions, stores, roles and memberships, customers and
//! their address books, store settings (units of measurement, safety-stock history), and the
//! gateway's idempotency keys.

pub mod convert;
pub mod demo;
pub mod domain;
pub mod grpc;
pub mod store;

use std::time::Duration;

use async_trait::async_trait;
use bo_kit::bus::SharedBus;
use bo_kit::db::Db;
use bo_kit::db::Tx;
use bo_kit::inbox::{Consumer, Meta, On};
use bo_kit::module::{Context, Module, Started};
use bo_kit::outbox::Relay;
use bo_proto::events::v1::{LogisticChannelSaved, PaymentChannelSaved, ProductSaved};
use bo_proto::stores::v1::stores_service_server::StoresServiceServer;
use sqlx::migrate::Migrator;

pub use grpc::StoresGrpc;

/// SQLite migrations.
pub static MIGRATIONS_SQLITE: Migrator = sqlx::migrate!("./migrations/sqlite");
/// PostgreSQL migrations.
pub static MIGRATIONS_POSTGRES: Migrator = sqlx::migrate!("./migrations/postgres");

/// The running service's parts.
#[derive(Clone)]
pub struct Service {
    /// The gRPC implementation.
    pub grpc: StoresGrpc,
    /// The outbox relay (run it as a task).
    pub relay: Relay,
    /// Keeps the getting-started flags from other services' events (run it as a task).
    pub consumer: Consumer,
    /// The database.
    pub db: Db,
}

impl Service {
    /// Migrates `db` and builds the service.
    pub async fn open(db: Db, bus: SharedBus, session_ttl_ms: i64) -> anyhow::Result<Service> {
        db.migrate(&MIGRATIONS_SQLITE, &MIGRATIONS_POSTGRES).await?;
        let relay = Relay::new(db.clone(), bus.clone());
        let grpc = StoresGrpc::new(store::Repo::new(db.clone()), relay.clone(), session_ttl_ms);
        let consumer = Consumer::new(db.clone(), bus, "stores")
            .on::<ProductSaved, _>(GettingStarted)
            .on::<PaymentChannelSaved, _>(GettingStarted)
            .on::<LogisticChannelSaved, _>(GettingStarted)
            .on::<bo_proto::events::v1::GoodsReceiptApproved, _>(GettingStarted)
            .on::<bo_proto::events::v1::OrderPlaced, _>(CustomerOrders);
        Ok(Service { grpc, relay, consumer, db })
    }

    /// The service checking the warehouses branches and POS units name with `wms`.
    pub fn with_wms(mut self, wms: grpc::WmsClient) -> Service {
        self.grpc = self.grpc.with_wms(wms);
        self
    }

    /// The service keeping the store's pictures and identity photos in `files`.
    pub fn with_files(mut self, files: bo_kit::files::Files) -> Service {
        self.grpc = self.grpc.with_files(files);
        self
    }

    /// The tonic server.
    pub fn server(&self) -> StoresServiceServer<StoresGrpc> {
        StoresServiceServer::new(self.grpc.clone())
    }
}

/// The getting-started flags follow what the store has done elsewhere: its first product,
/// payment account, logistic channel and approved goods receipt.
struct GettingStarted;

#[async_trait]
impl On<ProductSaved> for GettingStarted {
    async fn on(&self, tx: &mut Tx, meta: &Meta, _saved: ProductSaved) -> anyhow::Result<()> {
        store::Repo::mark_getting_started(tx, meta.store_id, store::GettingStartedStep::Product).await?;
        Ok(())
    }
}

#[async_trait]
impl On<PaymentChannelSaved> for GettingStarted {
    async fn on(&self, tx: &mut Tx, meta: &Meta, _saved: PaymentChannelSaved) -> anyhow::Result<()> {
        store::Repo::mark_getting_started(tx, meta.store_id, store::GettingStartedStep::Payment).await?;
        Ok(())
    }
}

#[async_trait]
impl On<LogisticChannelSaved> for GettingStarted {
    async fn on(&self, tx: &mut Tx, meta: &Meta, _saved: LogisticChannelSaved) -> anyhow::Result<()> {
        store::Repo::mark_getting_started(tx, meta.store_id, store::GettingStartedStep::Logistic).await?;
        Ok(())
    }
}

#[async_trait]
impl On<bo_proto::events::v1::GoodsReceiptApproved> for GettingStarted {
    async fn on(
        &self,
        tx: &mut Tx,
        meta: &Meta,
        _approved: bo_proto::events::v1::GoodsReceiptApproved,
    ) -> anyhow::Result<()> {
        store::Repo::mark_getting_started(tx, meta.store_id, store::GettingStartedStep::GoodsReceipt).await?;
        Ok(())
    }
}

/// A customer's order count follows the orders placed for them.
struct CustomerOrders;

#[async_trait]
impl On<bo_proto::events::v1::OrderPlaced> for CustomerOrders {
    async fn on(&self, tx: &mut Tx, meta: &Meta, placed: bo_proto::events::v1::OrderPlaced) -> anyhow::Result<()> {
        store::Repo::count_customer_order(tx, meta.store_id, placed.customer_id).await?;
        Ok(())
    }
}

/// Token lifetime, read from the shared `auth` section (sessions last as long).
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct Auth {
    token_ttl_minutes: Option<i64>,
}

/// The stores module.
pub struct StoresModule;

#[async_trait]
impl Module for StoresModule {
    fn name(&self) -> &'static str {
        "stores"
    }

    fn migrations(&self) -> Option<bo_kit::module::Migrations> {
        Some(bo_kit::module::Migrations { sqlite: &MIGRATIONS_SQLITE, postgres: &MIGRATIONS_POSTGRES })
    }

    fn publishes(&self) -> Vec<&'static str> {
        use bo_proto::events::v1 as ev;
        use bo_proto::Event as _;
        vec![
            ev::StoreCreated::TYPE,
            ev::CustomerCreated::TYPE,
            ev::CustomerUpdated::TYPE,
            ev::CustomerDeleted::TYPE,
            ev::SafetyStockSet::TYPE,
        ]
    }

    fn subscribes(&self) -> Vec<&'static str> {
        use bo_proto::events::v1 as ev;
        use bo_proto::Event as _;
        vec![
            ev::ProductSaved::TYPE,
            ev::PaymentChannelSaved::TYPE,
            ev::LogisticChannelSaved::TYPE,
            ev::GoodsReceiptApproved::TYPE,
            ev::OrderPlaced::TYPE,
        ]
    }

    fn needs(&self) -> Vec<&'static str> {
        vec!["wms"]
    }

    async fn start(&self, ctx: &Context) -> anyhow::Result<Started> {
        let db = ctx.db()?;
        let ttl = ctx.shared::<Auth>("auth")?.token_ttl_minutes.unwrap_or(12 * 60);
        let wms = ctx.client(bo_proto::wms::v1::wms_service_client::WmsServiceClient::new)?;
        let svc =
            Service::open(db.clone(), ctx.bus.clone(), ttl * 60_000).await?.with_wms(wms).with_files(ctx.files()?);
        ctx.spawn_event_tasks(&svc.relay, Some(&svc.consumer))?;
        let repo = store::Repo::new(db.clone());
        ctx.spawn(
            "idempotency-purge",
            bo_kit::schedule::every(
                db.clone(),
                "stores.idempotency-purge",
                Duration::from_secs(600),
                ctx.cancel.clone(),
                move || {
                    let repo = repo.clone();
                    async move {
                        repo.purge_idempotency_keys().await?;
                        Ok(())
                    }
                },
            ),
        );
        ctx.serve(svc.server());
        Ok(Started::default())
    }
}
