//! The stock invariant across orders and wms: reserved units belong to open orders, and an
//! open order holds exactly its lines unless it is flagged short.
//!
//! - An open order (new or prepared) whose stock is `held` holds exactly its lines (merged
//!   per warehouse and SKU) in wms; one that is `short` holds nothing.
//! - No other order holds anything reserved: not a cancelled, failed, shipped or closed
//!   one, and no reference of an order that does not exist.
//! - A shipped or closed order (or one voided after shipping) has shipped exactly its lines.
//! - An order still settling with wms (`pending`, `releasing`, `committing`) is skipped for
//!   a grace period, then named: the reconciler should have finished it.

use std::collections::{BTreeMap, HashMap};

use super::{order_of_reference, state, stock};

/// An order as the check sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderStock {
    pub store_id: i64,
    pub order_id: i64,
    pub order_no: String,
    pub state: String,
    pub stock_state: String,
    /// When the stock state was last set (unix ms).
    pub stock_state_at: i64,
    /// Its lines: (warehouse, SKU, units).
    pub lines: Vec<(i64, i64, i64)>,
}

/// A line wms holds for a reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holding {
    pub store_id: i64,
    pub reference: String,
    pub warehouse_id: i64,
    pub sku_id: i64,
    pub quantity: i64,
    /// reserved, released or committed.
    pub state: String,
}

type Lines = BTreeMap<(i64, i64), i64>;

fn merged(lines: &[(i64, i64, i64)]) -> Lines {
    let mut m = Lines::new();
    for (w, s, q) in lines {
        *m.entry((*w, *s)).or_insert(0) += q;
    }
    m
}

fn show(lines: &Lines) -> String {
    if lines.is_empty() {
        return "nothing".into();
    }
    lines.iter().map(|((w, s), q)| format!("{q}×sku {s}@wh {w}")).collect::<Vec<_>>().join(", ")
}

/// Sentences naming what breaks the invariant (empty when it holds).
pub fn compare(orders: &[OrderStock], held: &[Holding], now_ms: i64, grace_ms: i64) -> Vec<String> {
    let mut reserved: HashMap<(i64, i64), Lines> = HashMap::new();
    let mut committed: HashMap<(i64, i64), Lines> = HashMap::new();
    let mut broken = Vec::new();
    let known: HashMap<(i64, i64), &OrderStock> = orders.iter().map(|o| ((o.store_id, o.order_id), o)).collect();
    for h in held {
        let Some(id) = order_of_reference(&h.reference) else { continue };
        let into = match h.state.as_str() {
            "reserved" => &mut reserved,
            "committed" => &mut committed,
            _ => continue,
        };
        *into.entry((h.store_id, id)).or_default().entry((h.warehouse_id, h.sku_id)).or_insert(0) += h.quantity;
        if !known.contains_key(&(h.store_id, id)) && h.state == "reserved" {
            broken.push(format!(
                "store {} {}: {} units reserved for an order that does not exist",
                h.store_id, h.reference, h.quantity
            ));
        }
    }
    let empty = Lines::new();
    for o in orders {
        let key = (o.store_id, o.order_id);
        let name =
            format!("store {} order {} ({}, {}, stock {})", o.store_id, o.order_id, o.order_no, o.state, o.stock_state);
        if stock::IN_FLIGHT.contains(&o.stock_state.as_str()) {
            if now_ms - o.stock_state_at > grace_ms {
                broken.push(format!("{name}: still settling with the warehouse"));
            }
            continue;
        }
        let has = reserved.get(&key).unwrap_or(&empty);
        let open = state::is_open(&o.state);
        if open && o.stock_state == stock::HELD {
            let want = merged(&o.lines);
            if *has != want {
                broken.push(format!("{name}: holds {} instead of its lines {}", show(has), show(&want)));
            }
        } else {
            if open && o.stock_state != stock::SHORT {
                broken.push(format!("{name}: an open order that holds nothing and is not flagged short"));
            }
            if !has.is_empty() {
                broken.push(format!("{name}: reserved units no open order holds: {}", show(has)));
            }
        }
        if o.stock_state == stock::COMMITTED {
            let shipped = committed.get(&key).unwrap_or(&empty);
            let want = merged(&o.lines);
            if *shipped != want {
                broken.push(format!("{name}: shipped {} instead of its lines {}", show(shipped), show(&want)));
            }
        }
    }
    broken
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(id: i64, st: &str, stock_state: &str, lines: &[(i64, i64, i64)]) -> OrderStock {
        OrderStock {
            store_id: 1,
            order_id: id,
            order_no: format!("SO2569-{id:06}"),
            state: st.into(),
            stock_state: stock_state.into(),
            stock_state_at: 0,
            lines: lines.to_vec(),
        }
    }

    fn holding(id: i64, w: i64, s: i64, q: i64, st: &str) -> Holding {
        Holding {
            store_id: 1,
            reference: format!("order:{id}"),
            warehouse_id: w,
            sku_id: s,
            quantity: q,
            state: st.into(),
        }
    }

    #[test]
    fn held_short_cancelled_and_shipped_orders_that_agree_pass() {
        let orders = [
            order(1, state::NEW, stock::HELD, &[(1, 7, 2), (1, 7, 1), (1, 8, 1)]),
            order(2, state::NEW, stock::SHORT, &[(1, 7, 5)]),
            order(3, state::CANCELLED, stock::RELEASED, &[(1, 7, 1)]),
            order(4, state::SHIPPED, stock::COMMITTED, &[(1, 8, 2)]),
            order(5, state::READY, stock::HELD, &[(1, 8, 1)]),
        ];
        let held = [
            holding(1, 1, 7, 3, "reserved"),
            holding(1, 1, 8, 1, "reserved"),
            holding(3, 1, 7, 1, "released"),
            holding(4, 1, 8, 2, "committed"),
            holding(5, 1, 8, 1, "reserved"),
            Holding { reference: "gr:9".into(), ..holding(0, 1, 7, 100, "reserved") },
        ];
        assert_eq!(compare(&orders, &held, 0, 0), Vec::<String>::new());
    }

    #[test]
    fn every_disagreement_is_named() {
        let orders = [
            order(1, state::NEW, stock::HELD, &[(1, 7, 2)]),
            order(2, state::NEW, stock::SHORT, &[(1, 7, 1)]),
            order(3, state::CANCELLED, stock::RELEASED, &[(1, 7, 1)]),
            order(4, state::READY, stock::RELEASED, &[(1, 7, 1)]),
            order(5, state::SHIPPED, stock::COMMITTED, &[(1, 8, 2)]),
        ];
        let held = [
            holding(1, 1, 7, 1, "reserved"),
            holding(2, 1, 7, 1, "reserved"),
            holding(3, 1, 7, 1, "reserved"),
            holding(5, 1, 8, 1, "committed"),
            holding(99, 1, 7, 4, "reserved"),
        ];
        let broken = compare(&orders, &held, 0, 0);
        assert_eq!(broken.len(), 6, "{broken:#?}");
        assert!(broken[0].contains("order:99") && broken[0].contains("does not exist"));
        assert!(
            broken[1].contains("order 1 ")
                && broken[1].contains("holds 1×sku 7@wh 1 instead of its lines 2×sku 7@wh 1")
        );
        assert!(broken[2].contains("order 2 ") && broken[2].contains("reserved units no open order holds"));
        assert!(broken[3].contains("order 3 ") && broken[3].contains("reserved units no open order holds"));
        assert!(broken[4].contains("order 4 ") && broken[4].contains("not flagged short"));
        assert!(broken[5].contains("order 5 ") && broken[5].contains("shipped 1×sku 8@wh 1"));
    }

    #[test]
    fn orders_still_settling_are_named_only_after_the_grace() {
        let mut o = order(1, state::NEW, stock::PENDING, &[(1, 7, 1)]);
        o.stock_state_at = 1_000;
        assert!(compare(std::slice::from_ref(&o), &[], 5_000, 10_000).is_empty());
        let broken = compare(&[o], &[], 20_000, 10_000);
        assert_eq!(broken.len(), 1);
        assert!(broken[0].contains("still settling"));
    }
}
