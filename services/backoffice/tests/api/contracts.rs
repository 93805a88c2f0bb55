//! The contracts between modules, checked once over every module of the binary: each
//! service's two migration folders yield the same tables and columns, every event type a
//! module subscribes to has exactly one producer among the modules, and every event type
//! the protos declare is published by exactly one.

use std::collections::BTreeMap;

/// Both dialects of every module with a database migrate to the same tables and columns
/// (PostgreSQL when `TEST_DATABASE_URL` is set).
#[tokio::test]
async fn every_service_migrates_to_the_same_tables_on_both_dialects() {
    let mut checked = Vec::new();
    for m in bo_backoffice::modules() {
        let Some(migrations) = m.migrations() else {
            assert!(!m.has_database(), "{} keeps a database without migrations", m.name());
            continue;
        };
        let Some((sqlite, postgres)) = bo_kit::testing::schemas_of(&migrations).await.unwrap() else { return };
        assert!(!sqlite.is_empty(), "{} has no tables", m.name());
        assert_eq!(sqlite, postgres, "{}: the SQLite and PostgreSQL migrations differ", m.name());
        checked.push(m.name());
    }
    assert!(checked.contains(&"orders") && checked.len() >= 6, "{checked:?}");
}

/// Which modules publish each event type.
fn producers() -> BTreeMap<&'static str, Vec<&'static str>> {
    let mut by_type: BTreeMap<&'static str, Vec<&'static str>> = BTreeMap::new();
    for m in bo_backoffice::modules() {
        for t in m.publishes() {
            by_type.entry(t).or_default().push(m.name());
        }
    }
    by_type
}

/// What breaks the rule that every subscribed type has one producer and every declared
/// type is published by one module.
fn broken_contracts(producers: &BTreeMap<&'static str, Vec<&'static str>>) -> Vec<String> {
    let mut broken = Vec::new();
    for m in bo_backoffice::modules() {
        for t in m.subscribes() {
            match producers.get(t).map(Vec::len) {
                Some(1) => {}
                Some(n) => broken.push(format!("{} subscribes to {t}, which {n} modules publish", m.name())),
                None => broken.push(format!("{} subscribes to {t}, which no module publishes", m.name())),
            }
        }
    }
    for t in bo_proto::EVENT_TYPES {
        match producers.get(t).map(Vec::len) {
            Some(1) => {}
            Some(n) => broken.push(format!("{t} is published by {n} modules")),
            None => broken.push(format!("{t} is declared in the protos and published by no module")),
        }
    }
    for t in producers.keys() {
        if !bo_proto::EVENT_TYPES.contains(t) {
            broken.push(format!("{t} is published but not declared in the protos (bo_proto::events!)"));
        }
    }
    broken
}

#[test]
fn every_subscribed_event_has_one_producer() {
    assert_eq!(broken_contracts(&producers()), Vec::<String>::new());
}

#[test]
fn a_consumer_without_its_producer_is_named() {
    // Take the orders service's bill events away: the payments service's consumer of them
    // is left without a producer, and the check says so.
    let mut without = producers();
    without.remove("orders.bill.opened");
    let broken = broken_contracts(&without);
    assert!(
        broken.contains(&"payments subscribes to orders.bill.opened, which no module publishes".to_string()),
        "{broken:?}"
    );
}
