//! The outbox, the relay, the buses and the inbox together, on the in-process bus always
//! and on NATS JetStream when TEST_NATS_URL is set; on SQLite always and on PostgreSQL
//! when TEST_DATABASE_URL is set.

use bo_kit::Code;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bo_kit::bus::nats::NatsBus;
use bo_kit::bus::{ConsumerConfig, OutMessage, SharedBus};
use bo_kit::db::{Db, Tx};
use bo_kit::inbox::{Consumer, Meta, On, OnAll, Retry};
use bo_kit::outbox::{self, Relay};
use bo_kit::testing::{self, Backend};
use bo_proto::events::v1::{CustomerDeleted, CustomerUpdated};
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
        (bo_kit::testing::bus().await, None)
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
impl On<CustomerDeleted> for Effects {
    async fn on(&self, tx: &mut Tx, meta: &Meta, msg: CustomerDeleted) -> anyhow::Result<()> {
        sqlx::query("INSERT INTO effects (event_id, customer_id) VALUES ($1, $2)")
            .bind(&meta.event_id)
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
impl On<CustomerDeleted> for HangsOnce {
    async fn on(&self, tx: &mut Tx, meta: &Meta, e: CustomerDeleted) -> anyhow::Result<()> {
        if self.calls.fetch_add(1, Ordering::SeqCst) == 0 {
            self.started.notify_one();
            std::future::pending::<()>().await;
        }
        Effects.on(tx, meta, e).await
    }
}

/// Fails while its switch is on.
struct Fails {
    calls: AtomicUsize,
    failing: std::sync::atomic::AtomicBool,
}

#[async_trait]
impl On<CustomerDeleted> for Fails {
    async fn on(&self, tx: &mut Tx, meta: &Meta, e: CustomerDeleted) -> anyhow::Result<()> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if self.failing.load(Ordering::SeqCst) {
            anyhow::bail!("handler refuses")
        }
        Effects.on(tx, meta, e).await
    }
}

/// Fails on one customer while its switch is on.
struct FailsOn {
    customer_id: i64,
    failing: std::sync::atomic::AtomicBool,
}

#[async_trait]
impl On<CustomerDeleted> for FailsOn {
    async fn on(&self, tx: &mut Tx, meta: &Meta, e: CustomerDeleted) -> anyhow::Result<()> {
        if e.customer_id == self.customer_id && self.failing.load(Ordering::SeqCst) {
            anyhow::bail!("handler refuses customer {}", e.customer_id)
        }
        Effects.on(tx, meta, e).await
    }
}

fn quick_retry(max_deliver: u64) -> Retry {
    Retry { first: Duration::from_millis(100), max: Duration::from_millis(400), max_deliver }
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
    let id = outbox::enqueue(&mut tx, 1, 9, &CustomerDeleted { customer_id }).await.unwrap();
    tx.commit().await.unwrap();
    id
}

async fn relay_dies_between_publish_and_mark(e: Env) {
    let cancel = CancellationToken::new();
    let consumer = Consumer::new(e.db.clone(), e.bus.clone(), "effects").on::<CustomerDeleted, _>(Effects);
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
    outbox::enqueue(&mut tx, 1, 9, &CustomerDeleted { customer_id: 1 }).await.unwrap();
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
        Consumer::new(e.db.clone(), e.bus.clone(), "killable")
            .on::<CustomerDeleted, _>(handler.clone())
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

async fn failing_events_back_off_are_dead_lettered_and_replayed(e: Env) {
    let handler = Arc::new(Fails { calls: AtomicUsize::new(0), failing: true.into() });
    let cancel = CancellationToken::new();
    let consumer = Consumer::new(e.db.clone(), e.bus.clone(), "failing")
        .on::<CustomerDeleted, _>(handler.clone())
        .with_ack_wait(Duration::from_secs(5))
        .with_retry(quick_retry(4));
    tokio::spawn(consumer.clone().run(cancel.clone()));
    let started = std::time::Instant::now();
    commit_event(&e.db, 5).await;
    Relay::new(e.db.clone(), e.bus.clone()).relay_once().await.unwrap();
    wait_for(&e.db, "SELECT COUNT(*) FROM dead_letters", 1).await;
    assert_eq!(handler.calls.load(Ordering::SeqCst), 4);
    // Three waits between four deliveries: 100 + 200 + 400 ms at least.
    assert!(started.elapsed() >= Duration::from_millis(650), "backed off: {:?}", started.elapsed());
    assert_eq!(count(&e.db, "SELECT COUNT(*) FROM effects").await, 0);
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(handler.calls.load(Ordering::SeqCst), 4, "a dead letter is not delivered again");

    // The admin asks for a replay once the cause is fixed; the running consumer handles it.
    handler.failing.store(false, Ordering::SeqCst);
    let dead = bo_kit::inbox::dead_letters(&e.db).await.unwrap();
    assert_eq!((dead.len(), dead[0].consumer.as_str()), (1, "failing"));
    assert_eq!(bo_kit::inbox::request_replay(&e.db, Some(dead[0].id)).await.unwrap(), 1);
    wait_for(&e.db, "SELECT COUNT(*) FROM effects", 1).await;
    wait_for(&e.db, "SELECT COUNT(*) FROM dead_letters WHERE replayed_at IS NOT NULL", 1).await;
    assert_eq!(bo_kit::inbox::request_replay(&e.db, None).await.unwrap(), 0, "nothing left to replay");
    cancel.cancel();
    e.cleanup().await;
}

async fn unknown_types_are_skipped_not_dead_lettered(e: Env) {
    let cancel = CancellationToken::new();
    let consumer = Consumer::new(e.db.clone(), e.bus.clone(), "picky").on::<CustomerDeleted, _>(Effects);
    // Another type on the consumer's subject (as an older or newer publisher might send).
    let mut tx = e.db.begin().await.unwrap();
    outbox::enqueue(&mut tx, 1, 9, &CustomerUpdated { customer: None }).await.unwrap();
    tx.commit().await.unwrap();
    let relay = Relay::new(e.db.clone(), e.bus.clone());
    relay.relay_once().await.unwrap();
    let row = sqlx::query("SELECT envelope FROM outbox ORDER BY id DESC LIMIT 1").fetch_one(e.db.pool()).await.unwrap();
    let envelope: Vec<u8> = row.get(0);
    e.bus
        .publish(OutMessage {
            subject: format!("{}.stores.customer.deleted.v1", e.bus.prefix()),
            payload: envelope.into(),
            msg_id: "odd-one".into(),
            headers: vec![],
        })
        .await
        .unwrap();
    commit_event(&e.db, 3).await;
    relay.relay_once().await.unwrap();
    tokio::spawn(consumer.run(cancel.clone()));
    wait_for(&e.db, "SELECT COUNT(*) FROM effects", 1).await;
    assert_eq!(count(&e.db, "SELECT COUNT(*) FROM dead_letters").await, 0);
    cancel.cancel();
    e.cleanup().await;
}

async fn a_row_the_bus_refuses_is_set_aside_without_blocking_the_rest(e: Env) {
    // An envelope over the bus's limit (NATS refuses payloads over 1 MiB; the log bus has none,
    // so there the row simply goes). `enqueue` refuses such an event now, so the row is
    // written as one from before that check would have been.
    let mut tx = e.db.begin().await.unwrap();
    let big = CustomerUpdated {
        customer: Some(bo_proto::events::v1::Customer { name: "ก".repeat(700_000), ..Default::default() }),
    };
    let refused = outbox::enqueue(&mut tx, 1, 9, &big).await.unwrap_err();
    assert_eq!(refused.code, Code::EventTooLarge);
    let envelope = bo_proto::events::v1::Envelope {
        event_id: bo_kit::new_event_id(),
        r#type: "stores.customer.updated".into(),
        store_id: 1,
        occur_time: None,
        actor_user_id: 9,
        payload: prost::Message::encode_to_vec(&big),
    };
    sqlx::query(
        "INSERT INTO outbox (event_id, event_type, store_id, envelope, trace_context, created_at) \
         VALUES ($1, $2, $3, $4, '[]', $5)",
    )
    .bind(&envelope.event_id)
    .bind("stores.customer.updated")
    .bind(1i64)
    .bind(prost::Message::encode_to_vec(&envelope))
    .bind(bo_kit::time::now_ms())
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    commit_event(&e.db, 8).await;
    let relay = Relay::new(e.db.clone(), e.bus.clone());
    relay.relay_once().await.unwrap();
    let unsent = count(&e.db, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL").await;
    if e.nats.is_some() {
        assert_eq!(unsent, 1, "the small event behind the big one went out");
        let attempts = count(&e.db, "SELECT attempts FROM outbox WHERE sent_at IS NULL").await;
        assert_eq!(attempts, 1);
        sqlx::query("UPDATE outbox SET attempts = 9, next_attempt_at = 0 WHERE sent_at IS NULL")
            .execute(e.db.pool())
            .await
            .unwrap();
        relay.relay_once().await.unwrap();
        assert_eq!(Relay::set_aside(&e.db).await.unwrap().len(), 1);
        assert_eq!(relay.relay_once().await.unwrap(), 0, "a set-aside row is not tried again");
        assert_eq!(Relay::retry_set_aside(&e.db, None).await.unwrap(), 1);
        assert_eq!(relay.pending(10).await.unwrap().len(), 1, "requeued");
    } else {
        assert_eq!(unsent, 0);
    }
    e.cleanup().await;
}

/// Publishes the outbox's `nth` envelope again under another message id, as a repeat the
/// bus's de-duplication does not catch.
async fn publish_again(e: &Env, nth: i64, msg_id: &str) {
    let row = sqlx::query("SELECT envelope FROM outbox ORDER BY id LIMIT 1 OFFSET $1")
        .bind(nth)
        .fetch_one(e.db.pool())
        .await
        .unwrap();
    let envelope: Vec<u8> = row.get(0);
    let subject = format!("{}.stores.customer.deleted.v1", e.bus.prefix());
    e.bus
        .publish(OutMessage { subject, payload: envelope.into(), msg_id: msg_id.into(), headers: vec![] })
        .await
        .unwrap();
}

async fn a_burst_is_applied_once_and_one_failure_spoils_none(e: Env) {
    use bo_kit::inbox::Outcome::{Duplicate, Handled, Retry};
    let handler = Arc::new(FailsOn { customer_id: 5, failing: true.into() });
    let consumer = Consumer::new(e.db.clone(), e.bus.clone(), "bursty")
        .on::<CustomerDeleted, _>(handler.clone())
        .with_retry(quick_retry(50));
    let mut sub = e
        .bus
        .subscribe(ConsumerConfig {
            durable: "bursty-by-hand".into(),
            filter: format!("{}.stores.customer.deleted.v1", e.bus.prefix()),
            ack_wait: Duration::from_secs(30),
        })
        .await
        .unwrap();
    for customer in 1..=6 {
        commit_event(&e.db, customer).await;
    }
    let relay = Relay::new(e.db.clone(), e.bus.clone());
    relay.relay_once().await.unwrap();
    publish_again(&e, 0, "customer-1-again").await;

    // One of the burst fails: the burst's transaction rolls back, and each event is then
    // handled on its own, the failing one left to come again, the repeat skipped.
    let outcomes = consumer.process_all(take(&mut sub, 7).await).await.unwrap();
    assert_eq!(outcomes, [Handled, Handled, Handled, Handled, Retry, Handled, Duplicate]);
    assert_eq!(count(&e.db, "SELECT COUNT(*) FROM effects").await, 5);
    assert_eq!(count(&e.db, "SELECT COUNT(*) FROM effects WHERE customer_id = 5").await, 0);

    // A burst that succeeds is applied together, a repeat inside it once.
    handler.failing.store(false, Ordering::SeqCst);
    commit_event(&e.db, 7).await;
    commit_event(&e.db, 8).await;
    relay.relay_once().await.unwrap();
    publish_again(&e, 6, "customer-7-again").await;
    // Four: 7, 8, the repeat of 7, and the failed one come again after its backoff, in an
    // order that depends on the bus.
    let outcomes = consumer.process_all(take(&mut sub, 4).await).await.unwrap();
    let handled = outcomes.iter().filter(|o| **o == Handled).count();
    assert_eq!((handled, outcomes.len()), (3, 4), "{outcomes:?}");
    assert!(outcomes.contains(&Duplicate), "{outcomes:?}");
    assert_eq!(count(&e.db, "SELECT COUNT(*) FROM effects").await, 8);
    assert_eq!(count(&e.db, "SELECT COUNT(DISTINCT customer_id) FROM effects").await, 8);
    assert_eq!(count(&e.db, "SELECT COUNT(*) FROM processed_events").await, 8);

    // A whole burst seen before changes nothing.
    publish_again(&e, 6, "customer-7-once-more").await;
    publish_again(&e, 7, "customer-8-once-more").await;
    let outcomes = consumer.process_all(take(&mut sub, 2).await).await.unwrap();
    assert_eq!(outcomes, [Duplicate, Duplicate]);
    assert_eq!(count(&e.db, "SELECT COUNT(*) FROM effects").await, 8);
    e.cleanup().await;
}

/// Records the runs it is given (their customers), and their effects; fails a run holding
/// `failing_on`.
#[derive(Default)]
struct Runs {
    runs: std::sync::Mutex<Vec<Vec<i64>>>,
    failing_on: Option<i64>,
}

#[async_trait]
impl OnAll<CustomerDeleted> for Runs {
    async fn on_all(&self, tx: &mut Tx, events: Vec<(Meta, CustomerDeleted)>) -> anyhow::Result<()> {
        self.runs.lock().unwrap().push(events.iter().map(|(_, e)| e.customer_id).collect());
        if events.iter().any(|(_, e)| Some(e.customer_id) == self.failing_on) {
            anyhow::bail!("customer {} refused", self.failing_on.unwrap_or_default());
        }
        for (meta, e) in events {
            Effects.on(tx, &meta, e).await?;
        }
        Ok(())
    }
}

async fn a_burst_reaches_an_all_at_once_handler_in_one_run(e: Env) {
    use bo_kit::inbox::Outcome::{Duplicate, Handled, Retry};
    let runs = Arc::new(Runs::default());
    let consumer = Consumer::new(e.db.clone(), e.bus.clone(), "runs").on_all::<CustomerDeleted, _>(runs.clone());
    let subscribe = |durable: &str| {
        e.bus.subscribe(ConsumerConfig {
            durable: durable.into(),
            filter: format!("{}.stores.customer.deleted.v1", e.bus.prefix()),
            ack_wait: Duration::from_secs(30),
        })
    };
    let mut sub = subscribe("runs-by-hand").await.unwrap();
    let mut failing_sub = subscribe("failing-runs-by-hand").await.unwrap();
    for customer in 1..=5 {
        commit_event(&e.db, customer).await;
    }
    Relay::new(e.db.clone(), e.bus.clone()).relay_once().await.unwrap();
    publish_again(&e, 1, "customer-2-again").await;

    // Five events and a repeat: one run of the five, in the order they came.
    let outcomes = consumer.process_all(take(&mut sub, 6).await).await.unwrap();
    assert_eq!(outcomes, [Handled, Handled, Handled, Handled, Handled, Duplicate]);
    assert_eq!(*runs.runs.lock().unwrap(), [vec![1, 2, 3, 4, 5]]);
    assert_eq!(count(&e.db, "SELECT COUNT(*) FROM effects").await, 5);

    // A run that fails is given again one event at a time; only the failing one waits.
    let failing = Arc::new(Runs { failing_on: Some(3), ..Default::default() });
    let consumer = Consumer::new(e.db.clone(), e.bus.clone(), "failing-runs")
        .on_all::<CustomerDeleted, _>(failing.clone())
        .with_retry(quick_retry(50));
    let outcomes = consumer.process_all(take(&mut failing_sub, 6).await).await.unwrap();
    assert_eq!(outcomes, [Handled, Handled, Retry, Handled, Handled, Duplicate]);
    assert_eq!(*failing.runs.lock().unwrap(), [vec![1, 2, 3, 4, 5], vec![1], vec![2], vec![3], vec![4], vec![5]]);
    assert_eq!(count(&e.db, "SELECT COUNT(*) FROM effects").await, 9);
    e.cleanup().await;
}

/// Live followers see what the relay publishes from the time they follow, each of them all
/// of it and only under its filter, and nothing is kept for them.
async fn live_followers_see_what_is_published_from_now_on(e: Env) {
    let before = commit_event(&e.db, 1).await;
    let relay = Relay::new(e.db.clone(), e.bus.clone());
    relay.relay_once().await.unwrap();
    let prefix = e.bus.prefix().to_string();
    let mut all = e.bus.tail(&format!("{prefix}.>")).await.unwrap();
    let mut second = e.bus.tail(&format!("{prefix}.stores.customer.deleted.v1")).await.unwrap();
    let mut other = e.bus.tail(&format!("{prefix}.orders.>")).await.unwrap();
    let after = commit_event(&e.db, 2).await;
    relay.relay_once().await.unwrap();
    for tail in [&mut all, &mut second] {
        let (subject, payload) = tokio::time::timeout(Duration::from_secs(5), tail.next()).await.unwrap().unwrap();
        assert_eq!(subject, format!("{prefix}.stores.customer.deleted.v1"));
        let envelope = <bo_proto::events::v1::Envelope as prost::Message>::decode(payload).unwrap();
        assert_eq!(envelope.event_id, after, "the event before {before} was published before they followed");
    }
    assert!(tokio::time::timeout(Duration::from_millis(300), other.next()).await.is_err(), "nothing under its filter");
    e.cleanup().await;
}

async fn take(sub: &mut Box<dyn bo_kit::bus::Subscription>, n: usize) -> Vec<bo_kit::bus::Delivery> {
    let mut batch = Vec::new();
    for _ in 0..n {
        batch.push(tokio::time::timeout(Duration::from_secs(5), sub.next()).await.unwrap().unwrap().unwrap());
    }
    batch
}

macro_rules! on_every_backend {
    ($($name:ident),*) => {
        mod log_sqlite {
            $(#[tokio::test] async fn $name() {
                super::$name(super::env(bo_kit::testing::sqlite().await, false).await.unwrap()).await
            })*
        }
        mod nats_sqlite {
            $(#[tokio::test] async fn $name() {
                if let Some(e) = super::env(bo_kit::testing::sqlite().await, true).await { super::$name(e).await }
            })*
        }
        mod log_postgres {
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
    failing_events_back_off_are_dead_lettered_and_replayed,
    unknown_types_are_skipped_not_dead_lettered,
    a_row_the_bus_refuses_is_set_aside_without_blocking_the_rest,
    a_burst_is_applied_once_and_one_failure_spoils_none,
    a_burst_reaches_an_all_at_once_handler_in_one_run,
    live_followers_see_what_is_published_from_now_on
);
