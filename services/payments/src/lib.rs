//! The payments service: a store's payment accounts (bank, PayPal, PromptPay, cash on
//! delivery) and the PromptPay QR of an account. It learns which accounts open bills point
//! at from the orders service's bill events, and refuses to delete those.

pub mod domain;
pub mod grpc;
pub mod store;

use async_trait::async_trait;
use bo_kit::bus::SharedBus;
use bo_kit::db::{Db, Tx};
use bo_kit::inbox::{Consumer, Meta, On};
use bo_kit::module::{Context, Module, Started};
use bo_kit::outbox::Relay;
use bo_proto::events::v1::{BillClosed, BillOpened};
use bo_proto::payments::v1::payments_service_server::PaymentsServiceServer;
use sqlx::migrate::Migrator;

pub use grpc::PaymentsGrpc;

/// SQLite migrations.
pub static MIGRATIONS_SQLITE: Migrator = sqlx::migrate!("./migrations/sqlite");
/// PostgreSQL migrations.
pub static MIGRATIONS_POSTGRES: Migrator = sqlx::migrate!("./migrations/postgres");

/// The running service's parts.
#[derive(Clone)]
pub struct Service {
    /// The gRPC implementation.
    pub grpc: PaymentsGrpc,
    /// The outbox relay (run it as a task).
    pub relay: Relay,
    /// Keeps which accounts open bills point at (run it as a task).
    pub consumer: Consumer,
    /// The database.
    pub db: Db,
}

impl Service {
    /// Migrates `db` and builds the service.
    pub async fn open(db: Db, bus: SharedBus) -> anyhow::Result<Service> {
        db.migrate(&MIGRATIONS_SQLITE, &MIGRATIONS_POSTGRES).await?;
        let relay = Relay::new(db.clone(), bus.clone());
        let grpc = PaymentsGrpc::new(store::Repo::new(db.clone()), relay.clone());
        let consumer = Consumer::new(db.clone(), bus, "payments").on::<BillOpened, _>(Bills).on::<BillClosed, _>(Bills);
        Ok(Service { grpc, relay, consumer, db })
    }

    /// The tonic server.
    pub fn server(&self) -> PaymentsServiceServer<PaymentsGrpc> {
        PaymentsServiceServer::new(self.grpc.clone())
    }
}

/// Open bills and the accounts they point at.
struct Bills;

#[async_trait]
impl On<BillOpened> for Bills {
    async fn on(&self, tx: &mut Tx, meta: &Meta, e: BillOpened) -> anyhow::Result<()> {
        store::Repo::bill_opened(tx, meta.store_id, e.bill_id, e.revision).await?;
        Ok(())
    }
}

#[async_trait]
impl On<BillClosed> for Bills {
    async fn on(&self, tx: &mut Tx, meta: &Meta, e: BillClosed) -> anyhow::Result<()> {
        store::Repo::bill_closed(tx, meta.store_id, e.bill_id, e.revision).await?;
        Ok(())
    }
}

/// The payments module.
pub struct PaymentsModule;

#[async_trait]
impl Module for PaymentsModule {
    fn name(&self) -> &'static str {
        "payments"
    }

    fn migrations(&self) -> Option<bo_kit::module::Migrations> {
        Some(bo_kit::module::Migrations { sqlite: &MIGRATIONS_SQLITE, postgres: &MIGRATIONS_POSTGRES })
    }

    fn publishes(&self) -> Vec<&'static str> {
        use bo_proto::events::v1 as ev;
        use bo_proto::Event as _;
        vec![ev::PaymentChannelSaved::TYPE]
    }

    fn subscribes(&self) -> Vec<&'static str> {
        use bo_proto::events::v1 as ev;
        use bo_proto::Event as _;
        vec![ev::BillOpened::TYPE, ev::BillClosed::TYPE]
    }

    async fn start(&self, ctx: &Context) -> anyhow::Result<Started> {
        let db = ctx.db()?;
        let svc = Service::open(db.clone(), ctx.bus.clone()).await?;
        ctx.spawn_event_tasks(&svc.relay, Some(&svc.consumer))?;
        ctx.serve(svc.server());
        Ok(Started::default())
    }
}
