//! The outbox, the relay, the buses and the inbox together, on the in-process bus always
//! and on NATS JetStream when TEST_NATS_URL is set; on SQLite always and on PostgreSQL
//! when TEST_DATABASE_URL is set.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bo_kit::bus::inproc::InProcBus;
use bo_kit::bus::nats::NatsBus;
use bo_kit::bus::{ConsumerConfig, OutMessage, SharedBus};
use bo_kit::db::{Db, Tx};
use bo_kit::inbox::{Consumer, Handler};
use bo_kit::outbox::{self, Relay};
use bo_kit::testing::{self, Backend};
use bo_proto::events::v1::{CustomerDeleted, Envelope};
use sqlx::Row;
use tokio_util::sync::CancellationToken;

struct Env {
    db: Db,
    bus: SharedBus,
    nats: Option<Arc<NatsBus>>,
    _guard: testing::TestDb,
}

impl Env {
    async fn cleanup(self) {
        if let Some(n) = &self.nats {
            let _ = n.delete_stream().await;
        }
    }
}

async fn env(db: testing::TestDb, nats: bool) -> Option<Env> {
    let _ = tracing_subscriber::fmt().with_test_writer().with_env_filter("info,bo_kit=debug").try_init();
    let prefix = testing::unique_prefix();
    let (bus, nats): (SharedBus, _) = if nats {
        let url = testing::backend_url(Backend::Nats)?;
        let n = Arc::new(NatsBus::connect(&url, &prefix).await.expect("connect NATS"));
        (n.clone(), Some(n))
    } else {
        (Arc::new(InProcBus::new(prefix)), None)
    };
    db.db.create_kit_tables().await.unwrap();
    sqlx::query("CREATE TABLE effects (event_id TEXT NOT NULL, customer_id BIGINT NOT NULL)")
        .execute(db.db.pool())
        .await
        .unwrap();
    Some(Env { db: db.db.clone(), bus, nats, _guard: db })
}

/// Records each event's effect in the inbox transaction.
struct Effects;

#[async_trait]
impl Handler for Effects {
    async fn handle(&self, tx: &mut Tx, e: &Envelope) -> anyhow::Result<()> {
        let msg: CustomerDeleted = prost::Message::decode(e.payload.as_slice())?;
        sqlx::query("INSERT INTO effects (event_id, customer_id) VALUES ($1, $2)")
            .bind(&e.event_id)
            .bind(msg.customer_id)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }
}

/// Hangs on its first call (a consumer killed mid-handling), then works.
struct HangsOnce {
    calls: AtomicUsize,
    started: tokio::sync::Notify,
}

#[async_trait]
impl Handler for HangsOnce {
    async fn handle(&self, tx: &mut Tx, e: &Envelope) -> anyhow::Result<()> {
        if self.calls.fetch_add(1, Ordering::SeqCst) == 0 {
            self.started.notify_one();
            std::future::pending::<()>().await;
        }
        Effects.handle(tx, e).await
    }
}

/// Always fails.
struct Fails(AtomicUsize);

#[async_trait]
impl Handler for Fails {
    async fn handle(&self, _tx: &mut Tx, _e: &Envelope) -> anyhow::Result<()> {
        self.0.fetch_add(1, Ordering::SeqCst);
        anyhow::bail!("handler refuses")
    }
}

async fn count(db: &Db, sql: &str) -> i64 {
    sqlx::query(sql).fetch_one(db.pool()).await.unwrap().get::<i64, _>(0)
}

async fn wait_for(db: &Db, sql: &str, want: i64) {
    for _ in 0..200 {
        if count(db, sql).await == want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for `{sql}` to be {want}, it is {}", count(db, sql).await);
}

async fn commit_event(db: &Db, customer_id: i64) -> String {
    let mut tx = db.begin().await.unwrap();
    let id = outbox::enqueue(&mut tx, "stores.customer.deleted", 1, 9, &CustomerDeleted { customer_id }).await.unwrap();
    tx.commit().await.unwrap();
    id
}

async fn relay_dies_between_publish_and_mark(e: Env) {
    let cancel = CancellationToken::new();
    let consumer = Consumer::new(e.db.clone(), e.bus.clone(), "effects", "stores.>", Arc::new(Effects));
    tokio::spawn(consumer.run(cancel.clone()));

    let event_id = commit_event(&e.db, 42).await;
    // The first relay publishes, then dies before marking the row sent.
    let first = Relay::new(e.db.clone(), e.bus.clone());
    let rows = first.pending(10).await.unwrap();
    assert_eq!(rows.len(), 1);
    first.publish(&rows[0]).await.unwrap();
    drop(first);
    // A new relay finds the row unsent and publishes it again.
    let second = Relay::new(e.db.clone(), e.bus.clone());
    assert_eq!(second.relay_once().await.unwrap(), 1);
    assert_eq!(second.relay_once().await.unwrap(), 0, "the row is marked sent");

    wait_for(&e.db, "SELECT COUNT(*) FROM effects", 1).await;
    // The same envelope under another message id gets past the bus: the inbox skips it.
    let envelope = rows[0].envelope.clone();
    e.bus
        .publish(OutMessage {
            subject: format!("{}.stores.customer.deleted.v1", e.bus.prefix()),
            payload: envelope.into(),
            msg_id: "a-different-message-id".into(),
            headers: vec![],
        })
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(count(&e.db, "SELECT COUNT(*) FROM effects").await, 1, "exactly one effect");
    let effect: String = sqlx::query("SELECT event_id FROM effects").fetch_one(e.db.pool()).await.unwrap().get(0);
    assert_eq!(effect, event_id);
    cancel.cancel();
    e.cleanup().await;
}

async fn rollback_publishes_nothing(e: Env) {
    let mut tx = e.db.begin().await.unwrap();
    outbox::enqueue(&mut tx, "stores.customer.deleted", 1, 9, &CustomerDeleted { customer_id: 1 }).await.unwrap();
    tx.rollback().await.unwrap();
    let relay = Relay::new(e.db.clone(), e.bus.clone());
    assert_eq!(relay.relay_once().await.unwrap(), 0);

    let mut sub = e
        .bus
        .subscribe(ConsumerConfig {
            durable: "watcher".into(),
            filter: format!("{}.>", e.bus.prefix()),
            ack_wait: Duration::from_secs(5),
        })
        .await
        .unwrap();
    let got = tokio::time::timeout(Duration::from_millis(800), sub.next()).await;
    assert!(got.is_err(), "nothing may be delivered after a rollback");
    e.cleanup().await;
}

async fn killed_consumer_gets_the_event_again(e: Env) {
    let handler = Arc::new(HangsOnce { calls: AtomicUsize::new(0), started: tokio::sync::Notify::new() });
    let make = || {
        Consumer::new(e.db.clone(), e.bus.clone(), "killable", "stores.>", handler.clone())
            .with_ack_wait(Duration::from_secs(1))
    };
    commit_event(&e.db, 7).await;
    Relay::new(e.db.clone(), e.bus.clone()).relay_once().await.unwrap();
    // The handler holds its inbox transaction while it hangs (on SQLite, the write lock),
    // so the relay runs first.
    let first = tokio::spawn(make().run(CancellationToken::new()));
    tokio::time::timeout(Duration::from_secs(10), handler.started.notified()).await.expect("handling started");
    // Kill the consumer mid-handling: nothing was acked or committed.
    first.abort();
    let _ = first.await;
    assert_eq!(count(&e.db, "SELECT COUNT(*) FROM processed_events").await, 0);

    let cancel = CancellationToken::new();
    tokio::spawn(make().run(cancel.clone()));
    wait_for(&e.db, "SELECT COUNT(*) FROM effects", 1).await;
    assert_eq!(handler.calls.load(Ordering::SeqCst), 2);
    cancel.cancel();
    e.cleanup().await;
}

async fn failing_events_are_dead_lettered(e: Env) {
    let handler = Arc::new(Fails(AtomicUsize::new(0)));
    let cancel = CancellationToken::new();
    let consumer = Consumer::new(e.db.clone(), e.bus.clone(), "failing", "stores.>", handler.clone())
        .with_ack_wait(Duration::from_secs(1))
        .with_max_deliver(3);
    tokio::spawn(consumer.run(cancel.clone()));
    commit_event(&e.db, 5).await;
    Relay::new(e.db.clone(), e.bus.clone()).relay_once().await.unwrap();
    wait_for(&e.db, "SELECT COUNT(*) FROM dead_letters", 1).await;
    assert_eq!(handler.0.load(Ordering::SeqCst), 3);
    assert_eq!(count(&e.db, "SELECT COUNT(*) FROM effects").await, 0);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(handler.0.load(Ordering::SeqCst), 3, "a dead letter is not delivered again");
    cancel.cancel();
    e.cleanup().await;
}

macro_rules! on_every_backend {
    ($($name:ident),*) => {
        mod inproc_sqlite {
            $(#[tokio::test] async fn $name() {
                super::$name(super::env(bo_kit::testing::sqlite().await, false).await.unwrap()).await
            })*
        }
        mod nats_sqlite {
            $(#[tokio::test] async fn $name() {
                if let Some(e) = super::env(bo_kit::testing::sqlite().await, true).await { super::$name(e).await }
            })*
        }
        mod inproc_postgres {
            $(#[tokio::test] async fn $name() {
                if let Some(db) = bo_kit::testing::postgres().await {
                    super::$name(super::env(db, false).await.unwrap()).await
                }
            })*
        }
        mod nats_postgres {
            $(#[tokio::test] async fn $name() {
                if let Some(db) = bo_kit::testing::postgres().await {
                    if let Some(e) = super::env(db, true).await { super::$name(e).await }
                }
            })*
        }
    };
}

on_every_backend!(
    relay_dies_between_publish_and_mark,
    rollback_publishes_nothing,
    killed_consumer_gets_the_event_again,
    failing_events_are_dead_lettered
);
