//! The check's side: what the daily tables must hold, worked out from the orders as their
//! owner keeps them now, and where the tables differ from it.

use std::collections::BTreeMap;

use super::*;

/// A customer's earliest order as the check knows it: when it was placed and its id (the
/// lower first on a tie), and what it counts as.
#[derive(Debug, Clone, Copy)]
struct First {
    at: (i64, i64),
    placed: Day,
    cancelled: Option<Day>,
    net: i64,
}

/// What the daily tables must hold, worked out from the orders as their owner keeps them now
/// (the check's side): orders are added one at a time, each with what it sells and its
/// state, and a customer's first order is settled once all are in.
#[derive(Debug, Default)]
pub struct Expected {
    stores: BTreeMap<i64, Contribution>,
    /// Per (store, customer): their earliest order.
    firsts: BTreeMap<(i64, i64), First>,
    /// The orders added.
    pub orders: i64,
}

impl Expected {
    /// Adds an order of `store_id` as `changes` tell it.
    pub fn add(&mut self, store_id: i64, order_id: i64, changes: Vec<Change>) {
        let mut o = Order::default();
        for c in changes {
            apply(&mut o, c);
        }
        self.orders += 1;
        let c = contribution(&o);
        add_to(self.stores.entry(store_id).or_default(), &c);
        let (customer, net) = (o.customer(), o.content.as_ref().map_or(0, |c| c.net));
        if customer != 0 {
            let first = First { at: (o.placed_at, order_id), placed: o.placed_day, cancelled: o.cancelled_day, net };
            let e = self.firsts.entry((store_id, customer)).or_insert(first);
            if first.at < e.at {
                *e = first;
            }
        }
    }

    /// The daily tables per store: each customer's first order moved from returning to new.
    pub fn finish(mut self) -> BTreeMap<i64, Contribution> {
        for ((store_id, _), f) in std::mem::take(&mut self.firsts) {
            let (mut returning, mut new) = (BTreeMap::new(), BTreeMap::new());
            count(&mut returning, RETURNING.to_string(), f.placed, f.cancelled, f.net);
            count(&mut new, NEW.to_string(), f.placed, f.cancelled, f.net);
            let moved = Contribution { customers: counted_delta(&returning, &new), ..Default::default() };
            add_to(self.stores.entry(store_id).or_default(), &moved);
        }
        self.stores
    }
}

/// Where the daily tables (`actual`, per store) differ from what the orders add up to
/// (`expected`), one sentence per table row, naming the store, the table, the day and by how
/// much the tables are off (their figure less the orders').
pub fn differences(expected: &BTreeMap<i64, Contribution>, actual: &BTreeMap<i64, Contribution>) -> Vec<String> {
    let empty = Contribution::default();
    let stores: std::collections::BTreeSet<i64> = expected.keys().chain(actual.keys()).copied().collect();
    let mut out = Vec::new();
    for store in stores {
        let off = delta(expected.get(&store).unwrap_or(&empty), actual.get(&store).unwrap_or(&empty));
        for ((day, channel), f) in &off.sales {
            out.push(format!(
                "store {store}, sales of {} on channel {channel:?}: off by {} orders, {} cancelled, {} units, {} satang net, {} satang cost",
                day_text(*day), f.orders, f.cancelled, f.units, f.net, f.cost
            ));
        }
        for ((day, sku), f) in &off.skus {
            out.push(format!(
                "store {store}, SKU {sku} on {}: off by {} units, {} satang net, {} satang cost",
                day_text(*day),
                f.units,
                f.net,
                f.cost
            ));
        }
        for ((day, state), n) in &off.states {
            out.push(format!("store {store}, orders placed on {} now {state}: off by {n}", day_text(*day)));
        }
        for ((day, (kind, name, parent)), f) in &off.areas {
            out.push(format!(
                "store {store}, {kind} {name:?} ({parent:?}) on {}: off by {} orders, {} cancelled, {} satang net",
                day_text(*day),
                f.orders,
                f.cancelled,
                f.net
            ));
        }
        for ((day, state), f) in &off.state_sales {
            out.push(format!(
                "store {store}, sales of orders placed on {} now {state}: off by {} orders, {} satang net, {} satang total, {} satang paid",
                day_text(*day),
                f.orders,
                f.net,
                f.total,
                f.paid
            ));
        }
        for ((day, who), f) in &off.staff {
            out.push(format!(
                "store {store}, sales made by user {who} on {}: off by {} orders, {} cancelled, {} satang net",
                day_text(*day),
                f.orders,
                f.cancelled,
                f.net
            ));
        }
        for ((day, kind), f) in &off.customers {
            out.push(format!(
                "store {store}, {kind} customers on {}: off by {} orders, {} cancelled, {} satang net",
                day_text(*day),
                f.orders,
                f.cancelled,
                f.net
            ));
        }
    }
    out
}
