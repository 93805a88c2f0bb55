//! The orders service: orders and their money, the stock they hold in wms, their states,
//! parcels and shipping, one at a time or in bulk.
//!
//! Background work of the module: the outbox relay; the consumer of `wms.stock.available`,
//! which queues SKUs short orders wait for; the filler, which fills those orders oldest
//! first; the reconciler, which settles with wms what a request left in flight; and the
//! bill expiry, which expires due bills (cancelling their orders or keeping them new). The
//! reconciler and the expiry run on one replica at a time (a lease in the database).

pub mod arrivals;
pub mod convert;
pub mod domain;
pub mod grpc;
pub mod import;
pub mod matching;
pub mod rules;
pub mod service;
pub mod statement;
pub mod store;

use std::time::Duration;

use async_trait::async_trait;
use bo_kit::bus::SharedBus;
use bo_kit::db::{Db, Tx};
use bo_kit::inbox::{Consumer, Meta, On};
use bo_kit::module::{Context, Module, Started};
use bo_kit::outbox::Relay;
use bo_proto::events::v1::StockAvailable;
use bo_proto::logistics::v1::logistics_service_client::LogisticsServiceClient;
use bo_proto::orders::v1::orders_service_server::OrdersServiceServer;
use bo_proto::products::v1::products_service_client::ProductsServiceClient;
use bo_proto::stores::v1::stores_service_client::StoresServiceClient;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
use sqlx::migrate::Migrator;
use tokio_util::sync::CancellationToken;

pub use grpc::OrdersGrpc;
pub use service::{Clients, Orders, Settings};

/// SQLite migrations.
pub static MIGRATIONS_SQLITE: Migrator = sqlx::migrate!("./migrations/sqlite");
/// PostgreSQL migrations.
pub static MIGRATIONS_POSTGRES: Migrator = sqlx::migrate!("./migrations/postgres");

/// The running service's parts.
#[derive(Clone)]
pub struct Service {
    /// The gRPC implementation.
    pub grpc: OrdersGrpc,
    /// The outbox relay (run it as a task).
    pub relay: Relay,
    /// Queues what short orders wait for (run it as a task).
    pub consumer: Consumer,
    /// The database.
    pub db: Db,
}

impl Service {
    /// Migrates `db` and builds the service with the services it calls (none: only what
    /// needs no neighbour works, e.g. the admin stock check) and its identity for
    /// background work.
    pub async fn open(
        db: Db,
        bus: SharedBus,
        settings: Settings,
        neighbours: Option<(Clients, bo_kit::grpc::ServiceIdentity)>,
    ) -> anyhow::Result<Service> {
        db.migrate(&MIGRATIONS_SQLITE, &MIGRATIONS_POSTGRES).await?;
        let relay = Relay::new(db.clone(), bus.clone());
        let mut orders = Orders::new(store::Repo::new(db.clone()), relay.clone(), settings);
        if let Some((clients, identity)) = neighbours {
            orders = orders.with_clients(clients, identity);
        }
        let consumer = Consumer::new(db.clone(), bus, "orders").on::<StockAvailable, _>(Freed(orders.clone()));
        Ok(Service { grpc: OrdersGrpc::new(orders), relay, consumer, db })
    }

    /// The service keeping slips in `files`.
    pub fn with_files(mut self, files: bo_kit::files::Files) -> Service {
        self.grpc = OrdersGrpc::new(self.grpc.orders().clone().with_files(files));
        self
    }

    /// The tonic server.
    pub fn server(&self) -> OrdersServiceServer<OrdersGrpc> {
        OrdersServiceServer::new(self.grpc.clone())
    }

    /// The work behind the server.
    pub fn orders(&self) -> &Orders {
        self.grpc.orders()
    }
}

/// Units became available: queue them for the store's short orders, and wake the filler.
struct Freed(Orders);

#[async_trait]
impl On<StockAvailable> for Freed {
    async fn on(&self, tx: &mut Tx, meta: &Meta, e: StockAvailable) -> anyhow::Result<()> {
        store::Repo::queue_fill(tx, meta.store_id, e.warehouse_id, e.sku_id).await?;
        self.0.wake_filler();
        Ok(())
    }
}

/// Fills queued short orders whenever woken, and every few seconds.
async fn filler(orders: Orders, cancel: CancellationToken) {
    loop {
        tokio::select! {
            _ = orders.fills.notified() => {}
            _ = tokio::time::sleep(Duration::from_secs(2)) => {}
            _ = cancel.cancelled() => return,
        }
        // Let a burst of events land before the queue is read.
        tokio::time::sleep(Duration::from_millis(50)).await;
        loop {
            match orders.fill_queued().await {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "could not fill short orders");
                    break;
                }
            }
        }
    }
}

/// The orders module.
pub struct OrdersModule;

#[async_trait]
impl Module for OrdersModule {
    fn name(&self) -> &'static str {
        "orders"
    }

    fn migrations(&self) -> Option<bo_kit::module::Migrations> {
        Some(bo_kit::module::Migrations { sqlite: &MIGRATIONS_SQLITE, postgres: &MIGRATIONS_POSTGRES })
    }

    fn publishes(&self) -> Vec<&'static str> {
        use bo_proto::events::v1 as ev;
        use bo_proto::Event as _;
        vec![
            ev::BillOpened::TYPE,
            ev::BillClosed::TYPE,
            ev::OrderPlaced::TYPE,
            ev::OrderStateChanged::TYPE,
            ev::OrderRevised::TYPE,
            ev::OrderPaid::TYPE,
        ]
    }

    fn subscribes(&self) -> Vec<&'static str> {
        use bo_proto::events::v1 as ev;
        use bo_proto::Event as _;
        vec![ev::StockAvailable::TYPE]
    }

    fn uses_files(&self) -> bool {
        true
    }

    fn needs(&self) -> Vec<&'static str> {
        vec!["wms", "products", "stores", "logistics"]
    }

    async fn start(&self, ctx: &Context) -> anyhow::Result<Started> {
        let db = ctx.db()?;
        let settings: Settings = ctx.settings()?;
        let clients = Clients {
            wms: ctx.client(WmsServiceClient::new)?,
            products: ctx.client(ProductsServiceClient::new)?,
            stores: ctx.client(StoresServiceClient::new)?,
            logistics: ctx.client(LogisticsServiceClient::new)?,
        };
        let svc = Service::open(db.clone(), ctx.bus.clone(), settings, Some((clients, ctx.identity())))
            .await?
            .with_files(ctx.files()?);
        ctx.spawn_event_tasks(&svc.relay, Some(&svc.consumer))?;
        ctx.spawn("filler", filler(svc.orders().clone(), ctx.cancel.clone()));
        let reconciling = svc.orders().clone();
        ctx.spawn(
            "reconciler",
            bo_kit::schedule::every(
                db.clone(),
                "orders.reconcile",
                Duration::from_secs(3),
                ctx.cancel.clone(),
                move || {
                    let orders = reconciling.clone();
                    async move {
                        let n = orders.reconcile().await?;
                        if n > 0 {
                            tracing::info!(orders = n, "settled orders left in flight with wms");
                        }
                        Ok(())
                    }
                },
            ),
        );
        let expiring = svc.orders().clone();
        ctx.spawn(
            "bill-expiry",
            bo_kit::schedule::every(
                db.clone(),
                "orders.bill_expiry",
                Duration::from_millis(svc.orders().settings.bill_expiry_every_ms.max(100)),
                ctx.cancel.clone(),
                move || {
                    let orders = expiring.clone();
                    async move {
                        let n = orders.expire_bills().await?;
                        if n > 0 {
                            tracing::info!(bills = n, "expired bills");
                        }
                        Ok(())
                    }
                },
            ),
        );
        ctx.serve(svc.server());
        Ok(Started::default())
    }
}
