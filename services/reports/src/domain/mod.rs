//! The rules of the sales figures, pure: what an order adds to the daily tables, how an
//! event changes what is known of an order, and the days a dashboard's period covers.
//!
//! An order counts on the day it was placed (Thailand's time): one order, its units and its
//! money. A cancelled order also counts back on the day it was cancelled: one cancellation,
//! and its units and money taken off. An edit rewrites what the order counts on its placing
//! day. The read model applies the difference between what an order added before an event
//! and what it adds after ([`delta`]), so every event, in whatever order the events arrive,
//! leaves the daily tables equal to the sum of every order's [`contribution`].

// Days are written as their numbers are read: 2026_11_01 is 1 November 2026.
#![allow(clippy::inconsistent_digit_grouping)]

use std::collections::BTreeMap;
use std::ops::{Add, Neg, Sub};

use serde::{Deserialize, Serialize};

mod check;
mod period;

pub use check::{differences, Expected};
pub use period::*;

/// What sales add up to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Figures {
    pub orders: i64,
    pub cancelled: i64,
    pub units: i64,
    pub net: i64,
    pub total: i64,
    pub net_ex_vat: i64,
    pub cost: i64,
    pub shipping: i64,
}

impl Figures {
    /// Nothing at all.
    pub fn is_zero(&self) -> bool {
        *self == Figures::default()
    }

    /// Gross profit: the goods without VAT less their cost.
    pub fn profit(&self) -> i64 {
        self.net_ex_vat - self.cost
    }

    /// Net per order placed, rounded half away from zero (0 without orders).
    pub fn average(&self) -> i64 {
        if self.orders == 0 {
            return 0;
        }
        let (n, d) = (i128::from(self.net), i128::from(self.orders));
        let q = (2 * n.abs() + d) / (2 * d);
        (if n < 0 { -q } else { q }) as i64
    }
}

impl Add for Figures {
    type Output = Figures;
    fn add(self, o: Figures) -> Figures {
        Figures {
            orders: self.orders + o.orders,
            cancelled: self.cancelled + o.cancelled,
            units: self.units + o.units,
            net: self.net + o.net,
            total: self.total + o.total,
            net_ex_vat: self.net_ex_vat + o.net_ex_vat,
            cost: self.cost + o.cost,
            shipping: self.shipping + o.shipping,
        }
    }
}

impl Neg for Figures {
    type Output = Figures;
    fn neg(self) -> Figures {
        Figures::default() - self
    }
}

impl Sub for Figures {
    type Output = Figures;
    fn sub(self, o: Figures) -> Figures {
        Figures {
            orders: self.orders - o.orders,
            cancelled: self.cancelled - o.cancelled,
            units: self.units - o.units,
            net: self.net - o.net,
            total: self.total - o.total,
            net_ex_vat: self.net_ex_vat - o.net_ex_vat,
            cost: self.cost - o.cost,
            shipping: self.shipping - o.shipping,
        }
    }
}

/// What a SKU's sales add up to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SkuFigures {
    pub units: i64,
    pub net: i64,
    pub net_ex_vat: i64,
    pub cost: i64,
}

impl SkuFigures {
    fn is_zero(&self) -> bool {
        *self == SkuFigures::default()
    }

    /// These figures and `o`'s added.
    pub fn plus(self, o: SkuFigures) -> SkuFigures {
        SkuFigures {
            units: self.units + o.units,
            net: self.net + o.net,
            net_ex_vat: self.net_ex_vat + o.net_ex_vat,
            cost: self.cost + o.cost,
        }
    }

    fn scaled(self, by: i64) -> SkuFigures {
        SkuFigures {
            units: self.units * by,
            net: self.net * by,
            net_ex_vat: self.net_ex_vat * by,
            cost: self.cost * by,
        }
    }
}

/// One line of an order as sold.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Line {
    pub sku_id: i64,
    pub units: i64,
    pub net: i64,
    pub net_ex_vat: i64,
    pub cost: i64,
}

/// What an order sells, at one version.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Content {
    pub lines: Vec<Line>,
    pub net: i64,
    pub total: i64,
    pub net_ex_vat: i64,
    pub cost: i64,
    pub shipping: i64,
    /// Where it goes (absent from what was kept before the reports counted places).
    #[serde(default)]
    pub place: Place,
    /// Who placed it: a customer's id, 0 for a guest (absent from what was kept before the
    /// reports counted customers, which is counted nowhere).
    #[serde(default)]
    pub customer: Option<i64>,
    /// Who made it: a member's user id, 0 when no person did (absent from what was kept
    /// before the reports counted who made orders, which is counted nowhere).
    #[serde(default)]
    pub created_by: Option<i64>,
    /// What the buyer has paid of it, satang (0 in what was kept before the reports counted
    /// payments, until a rebuild).
    #[serde(default)]
    pub paid: i64,
}

/// Where an order goes: in Thailand a province and a district, abroad a country and a city.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Place {
    pub province: String,
    pub district: String,
    /// ISO 3166 alpha-2 (TH at home).
    pub country: String,
    pub city: String,
}

/// One place an order is counted in: its kind (a word of the proto's `AreaKind`), its name and the
/// place it lies in (a district's province, a city's country; empty for the others).
pub type Area = (String, String, String);

impl Place {
    /// The places an order going here is counted in: its country; at home its province and
    /// district, abroad its city, each where it is known. A place not known at all (what was
    /// kept before places were counted) is counted nowhere, so the tables stay as they were.
    pub fn areas(&self) -> Vec<Area> {
        if *self == Place::default() {
            return Vec::new();
        }
        let country =
            if self.country.trim().is_empty() { "TH".to_string() } else { self.country.trim().to_uppercase() };
        let mut out = vec![("country".to_string(), country.clone(), String::new())];
        let province = self.province.trim();
        if !province.is_empty() {
            out.push(("province".to_string(), province.to_string(), String::new()));
            if !self.district.trim().is_empty() {
                out.push(("district".to_string(), self.district.trim().to_string(), province.to_string()));
            }
        }
        if !self.city.trim().is_empty() {
            out.push(("city".to_string(), self.city.trim().to_string(), country));
        }
        out
    }
}

/// What an area's sales add up to: orders placed, cancelled, and their net less what was
/// cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AreaFigures {
    pub orders: i64,
    pub cancelled: i64,
    pub net: i64,
}

impl AreaFigures {
    fn is_zero(&self) -> bool {
        *self == AreaFigures::default()
    }

    /// These figures and `by` times `o`.
    pub fn plus(self, o: AreaFigures, by: i64) -> AreaFigures {
        AreaFigures {
            orders: self.orders + by * o.orders,
            cancelled: self.cancelled + by * o.cancelled,
            net: self.net + by * o.net,
        }
    }
}

/// The orders placed on a day that are in one state now (the sales report): how many, their
/// net, what their buyers pay (`total`) and what of it is paid; the balance owed is
/// `total - paid`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StateFigures {
    pub orders: i64,
    pub net: i64,
    pub total: i64,
    pub paid: i64,
}

impl StateFigures {
    /// What is still owed of these orders.
    pub fn balance(&self) -> i64 {
        self.total - self.paid
    }
}

/// Figures kept per key of a daily table: they add up, and a key whose figures come to
/// nothing is not kept.
pub trait Counted: Copy + Default + PartialEq {
    /// These figures and `by` times `o`.
    fn plus(self, o: Self, by: i64) -> Self;

    fn is_zero(&self) -> bool {
        *self == Self::default()
    }
}

impl Counted for AreaFigures {
    fn plus(self, o: Self, by: i64) -> Self {
        AreaFigures::plus(self, o, by)
    }
}

impl Counted for StateFigures {
    fn plus(self, o: Self, by: i64) -> Self {
        StateFigures {
            orders: self.orders + by * o.orders,
            net: self.net + by * o.net,
            total: self.total + by * o.total,
            paid: self.paid + by * o.paid,
        }
    }
}

/// The order states a cancellation counts back for.
pub const CANCELLED: &str = "cancelled";

/// Who placed an order, as the customer dashboard tells them apart (words of the proto's
/// `CustomerKind`): a customer's first order, a later one, or an order with no customer.
pub const NEW: &str = "new";
pub const RETURNING: &str = "returning";
pub const GUEST: &str = "guest";

/// What the reports know of one order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Order {
    /// Its channel and placing day ("" and 0 until an event told them).
    pub channel: String,
    pub placed_day: Day,
    /// What it sells, at `content_version` (None until an event with figures came).
    pub content: Option<Content>,
    pub content_version: i64,
    /// Its state, at `state_version` ("" until an event told it).
    pub state: String,
    pub state_version: i64,
    /// The day it was cancelled, while it is.
    pub cancelled_day: Option<Day>,
    /// When it was placed, epoch milliseconds (0 until its content came).
    pub placed_at: i64,
    /// Whether it is its customer's first order (placed earliest, the lower id first on a
    /// tie): the storage decides it across the customer's orders.
    pub first: bool,
}

impl Order {
    /// Its customer (0 for a guest or while unknown).
    pub fn customer(&self) -> i64 {
        self.content.as_ref().and_then(|c| c.customer).unwrap_or(0)
    }

    /// Who placed it, if its content says.
    pub fn customer_kind(&self) -> Option<&'static str> {
        match self.content.as_ref()?.customer? {
            0 => Some(GUEST),
            _ if self.first => Some(NEW),
            _ => Some(RETURNING),
        }
    }
}

/// What one event tells of an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Its content at a version (placed: version 1, state new; revised: a later version).
    Content { version: i64, channel: String, placed_day: Day, placed_at: i64, content: Content, placed: bool },
    /// Its state at a version, moved on `day`.
    State { version: i64, channel: String, placed_day: Day, state: String, day: Day },
}

/// Applies `change` to what is known of an order: a version older than the one kept changes
/// nothing. Answers whether anything changed.
pub fn apply(o: &mut Order, change: Change) -> bool {
    let before = o.clone();
    match change {
        Change::Content { version, channel, placed_day, placed_at, content, placed } => {
            fill(o, &channel, placed_day);
            if o.placed_at == 0 {
                o.placed_at = placed_at;
            }
            if version > o.content_version {
                // Another customer's order now: whether it is their first is decided anew.
                if o.content.as_ref().and_then(|c| c.customer) != content.customer {
                    o.first = false;
                }
                o.content = Some(content);
                o.content_version = version;
            }
            // A placed order is new at version 1, unless a later state came first.
            if placed && o.state_version < 1 {
                o.state = "new".to_string();
                o.state_version = 1;
            }
        }
        Change::State { version, channel, placed_day, state, day } => {
            fill(o, &channel, placed_day);
            if version > o.state_version {
                o.cancelled_day = if state == CANCELLED { Some(o.cancelled_day.unwrap_or(day)) } else { None };
                o.state = state;
                o.state_version = version;
            }
        }
    }
    *o != before
}

fn fill(o: &mut Order, channel: &str, placed_day: Day) {
    if o.channel.is_empty() {
        o.channel = channel.to_string();
    }
    if o.placed_day == 0 {
        o.placed_day = placed_day;
    }
}

/// What one order adds to the daily tables: sales per (day, channel), SKUs per (day, SKU),
/// orders per (placing day, state), sales per (day, area) and per (day, kind of customer).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Contribution {
    pub sales: BTreeMap<(Day, String), Figures>,
    pub skus: BTreeMap<(Day, i64), SkuFigures>,
    pub states: BTreeMap<(Day, String), i64>,
    pub areas: BTreeMap<(Day, Area), AreaFigures>,
    pub customers: BTreeMap<(Day, String), AreaFigures>,
    /// Orders, their net, total and what is paid per (placing day, state now): the sales
    /// report.
    pub state_sales: BTreeMap<(Day, String), StateFigures>,
    /// Sales per (day, member who made the order; 0 for none): the sales per employee.
    pub staff: BTreeMap<(Day, i64), AreaFigures>,
}

impl Contribution {
    /// Adds nothing anywhere.
    pub fn is_empty(&self) -> bool {
        self.sales.is_empty()
            && self.skus.is_empty()
            && self.states.is_empty()
            && self.areas.is_empty()
            && self.customers.is_empty()
            && self.state_sales.is_empty()
            && self.staff.is_empty()
    }
}

/// Counts an order of `net` placed on `placed` (and cancelled on `cancelled`) under `key`:
/// an order and its net on the day it was placed, a cancellation and its net back on the
/// day it was cancelled.
fn count<K: Ord + Clone>(
    into: &mut BTreeMap<(Day, K), AreaFigures>,
    key: K,
    placed: Day,
    cancelled: Option<Day>,
    net: i64,
) {
    into.insert((placed, key.clone()), AreaFigures { orders: 1, cancelled: 0, net });
    if let Some(day) = cancelled {
        let e = into.entry((day, key)).or_default();
        *e = e.plus(AreaFigures { orders: 0, cancelled: 1, net: -net }, 1);
    }
}

/// What `o` adds to the daily tables (the module's rule).
pub fn contribution(o: &Order) -> Contribution {
    let mut c = Contribution::default();
    if o.placed_day == 0 {
        return c;
    }
    if !o.state.is_empty() {
        c.states.insert((o.placed_day, o.state.clone()), 1);
    }
    let Some(content) = &o.content else { return c };
    let sold = Figures {
        orders: 1,
        cancelled: 0,
        units: content.lines.iter().map(|l| l.units).sum(),
        net: content.net,
        total: content.total,
        net_ex_vat: content.net_ex_vat,
        cost: content.cost,
        shipping: content.shipping,
    };
    let mut add_skus = |day: Day, by: i64| {
        for l in &content.lines {
            let f = SkuFigures { units: l.units, net: l.net, net_ex_vat: l.net_ex_vat, cost: l.cost }.scaled(by);
            let e = c.skus.entry((day, l.sku_id)).or_default();
            *e = SkuFigures {
                units: e.units + f.units,
                net: e.net + f.net,
                net_ex_vat: e.net_ex_vat + f.net_ex_vat,
                cost: e.cost + f.cost,
            };
        }
    };
    add_skus(o.placed_day, 1);
    if let Some(day) = o.cancelled_day {
        add_skus(day, -1);
    }
    *c.sales.entry((o.placed_day, o.channel.clone())).or_default() = sold;
    if let Some(day) = o.cancelled_day {
        let back = Figures { orders: 0, cancelled: 1, ..-Figures { orders: 0, ..sold } };
        let e = c.sales.entry((day, o.channel.clone())).or_default();
        *e = *e + back;
    }
    for area in content.place.areas() {
        count(&mut c.areas, area, o.placed_day, o.cancelled_day, content.net);
    }
    if let Some(kind) = o.customer_kind() {
        count(&mut c.customers, kind.to_string(), o.placed_day, o.cancelled_day, content.net);
    }
    if let Some(who) = content.created_by {
        count(&mut c.staff, who, o.placed_day, o.cancelled_day, content.net);
    }
    if !o.state.is_empty() {
        c.state_sales.insert(
            (o.placed_day, o.state.clone()),
            StateFigures { orders: 1, net: content.net, total: content.total, paid: content.paid },
        );
    }
    c.skus.retain(|_, f| !f.is_zero());
    c.sales.retain(|_, f| !f.is_zero());
    c.areas.retain(|_, f| !f.is_zero());
    c.customers.retain(|_, f| !f.is_zero());
    c.state_sales.retain(|_, f| !f.is_zero());
    c.staff.retain(|_, f| !f.is_zero());
    c
}

/// What `new` less `old` is per key, keys that come to nothing left out.
fn counted_delta<K: Ord + Clone, F: Counted>(old: &BTreeMap<K, F>, new: &BTreeMap<K, F>) -> BTreeMap<K, F> {
    let mut d = BTreeMap::new();
    for (k, f) in new {
        d.insert(k.clone(), f.plus(old.get(k).copied().unwrap_or_default(), -1));
    }
    for (k, f) in old {
        if !new.contains_key(k) {
            d.insert(k.clone(), F::default().plus(*f, -1));
        }
    }
    d.retain(|_, f| !f.is_zero());
    d
}

/// Adds `d` to `total` per key, keys that come to nothing dropped.
fn add_counted<K: Ord + Clone, F: Counted>(total: &mut BTreeMap<K, F>, d: &BTreeMap<K, F>) {
    for (k, f) in d {
        let e = total.entry(k.clone()).or_default();
        *e = e.plus(*f, 1);
    }
    total.retain(|_, f| !f.is_zero());
}

/// What the daily tables must change by when an order's contribution goes from `old` to
/// `new` (entries that do not change are left out).
pub fn delta(old: &Contribution, new: &Contribution) -> Contribution {
    let mut d = Contribution::default();
    for (k, f) in &new.sales {
        d.sales.insert(k.clone(), *f - old.sales.get(k).copied().unwrap_or_default());
    }
    for (k, f) in &old.sales {
        if !new.sales.contains_key(k) {
            d.sales.insert(k.clone(), -*f);
        }
    }
    for (k, f) in &new.skus {
        d.skus.insert(*k, diff_sku(*f, old.skus.get(k).copied().unwrap_or_default()));
    }
    for (k, f) in &old.skus {
        if !new.skus.contains_key(k) {
            d.skus.insert(*k, f.scaled(-1));
        }
    }
    for (k, n) in &new.states {
        d.states.insert(k.clone(), n - old.states.get(k).copied().unwrap_or(0));
    }
    for (k, n) in &old.states {
        if !new.states.contains_key(k) {
            d.states.insert(k.clone(), -n);
        }
    }
    d.areas = counted_delta(&old.areas, &new.areas);
    d.customers = counted_delta(&old.customers, &new.customers);
    d.state_sales = counted_delta(&old.state_sales, &new.state_sales);
    d.staff = counted_delta(&old.staff, &new.staff);
    d.sales.retain(|_, f| !f.is_zero());
    d.skus.retain(|_, f| !f.is_zero());
    d.states.retain(|_, n| *n != 0);
    d
}

/// Adds the difference `d` to the running sum `total` (entries that come to nothing are
/// dropped): events applied together change the daily tables once, by their sum.
pub fn add_to(total: &mut Contribution, d: &Contribution) {
    for (k, f) in &d.sales {
        let e = total.sales.entry(k.clone()).or_default();
        *e = *e + *f;
    }
    for (k, f) in &d.skus {
        let e = total.skus.entry(*k).or_default();
        *e = diff_sku(*e, f.scaled(-1));
    }
    for (k, n) in &d.states {
        *total.states.entry(k.clone()).or_default() += n;
    }
    add_counted(&mut total.areas, &d.areas);
    add_counted(&mut total.customers, &d.customers);
    add_counted(&mut total.state_sales, &d.state_sales);
    add_counted(&mut total.staff, &d.staff);
    total.sales.retain(|_, f| !f.is_zero());
    total.skus.retain(|_, f| !f.is_zero());
    total.states.retain(|_, n| *n != 0);
}

fn diff_sku(a: SkuFigures, b: SkuFigures) -> SkuFigures {
    SkuFigures {
        units: a.units - b.units,
        net: a.net - b.net,
        net_ex_vat: a.net_ex_vat - b.net_ex_vat,
        cost: a.cost - b.cost,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(lines: &[(i64, i64, i64)]) -> Content {
        // (sku, units, net); VAT added on top, cost half the net, no shipping.
        let lines: Vec<Line> = lines
            .iter()
            .map(|&(sku_id, units, net)| Line { sku_id, units, net, net_ex_vat: net, cost: net / 2 })
            .collect();
        let net = lines.iter().map(|l| l.net).sum();
        let place = Place {
            province: "เชียงใหม่".into(),
            district: "เมืองเชียงใหม่".into(),
            country: "TH".into(),
            city: String::new(),
        };
        Content {
            net,
            total: net + net * 7 / 100,
            net_ex_vat: net,
            cost: net / 2,
            shipping: 0,
            lines,
            place,
            customer: None,
            created_by: None,
            paid: 0,
        }
    }

    fn placed(day: Day, c: Content) -> Change {
        Change::Content { version: 1, channel: "line".into(), placed_day: day, placed_at: 0, content: c, placed: true }
    }

    fn moved(version: i64, state: &str, day: Day) -> Change {
        Change::State { version, channel: "line".into(), placed_day: 2026_11_01, state: state.into(), day }
    }

    /// Every daily table as the sum of the orders' contributions.
    fn sum(orders: &[&Order]) -> Contribution {
        let mut total = Contribution::default();
        for o in orders {
            total = add(&total, &contribution(o));
        }
        total
    }

    fn add(a: &Contribution, d: &Contribution) -> Contribution {
        let mut out = a.clone();
        add_to(&mut out, d);
        out
    }

    #[test]
    fn an_order_counts_on_its_day_and_a_cancellation_counts_back_on_its_own() {
        let mut o = Order::default();
        assert!(apply(&mut o, placed(2026_11_01, content(&[(7, 2, 200_00), (8, 1, 50_00)]))));
        let c = contribution(&o);
        assert_eq!(
            c.sales[&(2026_11_01, "line".to_string())],
            Figures {
                orders: 1,
                cancelled: 0,
                units: 3,
                net: 250_00,
                total: 267_50,
                net_ex_vat: 250_00,
                cost: 125_00,
                shipping: 0
            }
        );
        assert_eq!(c.skus[&(2026_11_01, 7)], SkuFigures { units: 2, net: 200_00, net_ex_vat: 200_00, cost: 100_00 });
        assert_eq!(c.states, BTreeMap::from([((2026_11_01, "new".to_string()), 1)]));

        assert!(apply(&mut o, moved(2, "cancelled", 2026_11_03)));
        let c = contribution(&o);
        // The sale stays on the 1st; the 3rd takes it back.
        assert_eq!(c.sales[&(2026_11_01, "line".to_string())].net, 250_00);
        assert_eq!(
            c.sales[&(2026_11_03, "line".to_string())],
            Figures {
                orders: 0,
                cancelled: 1,
                units: -3,
                net: -250_00,
                total: -267_50,
                net_ex_vat: -250_00,
                cost: -125_00,
                shipping: 0
            }
        );
        assert_eq!(c.skus[&(2026_11_03, 8)], SkuFigures { units: -1, net: -50_00, net_ex_vat: -50_00, cost: -25_00 });
        assert_eq!(c.states, BTreeMap::from([((2026_11_01, "cancelled".to_string()), 1)]));
    }

    #[test]
    fn the_sales_report_follows_what_is_paid_under_the_state_now() {
        let mut o = Order::default();
        apply(&mut o, placed(2026_11_01, content(&[(7, 2, 200_00)])));
        let before = contribution(&o);
        let key = (2026_11_01, "new".to_string());
        assert_eq!(before.state_sales[&key], StateFigures { orders: 1, net: 200_00, total: 214_00, paid: 0 });
        assert_eq!(before.state_sales[&key].balance(), 214_00);
        // Paid: a later version of the same content, now with what was paid.
        let paid = Content { paid: 214_00, ..content(&[(7, 2, 200_00)]) };
        let revised = Change::Content {
            version: 2,
            channel: "line".into(),
            placed_day: 2026_11_01,
            placed_at: 0,
            content: paid,
            placed: false,
        };
        assert!(apply(&mut o, revised));
        let after = contribution(&o);
        assert_eq!(after.state_sales[&key].balance(), 0);
        // Only the sales report moves: the sales, SKUs and states stay as they were.
        let d = delta(&before, &after);
        assert_eq!(d.state_sales, BTreeMap::from([(key, StateFigures { orders: 0, net: 0, total: 0, paid: 214_00 })]));
        assert!(d.sales.is_empty() && d.skus.is_empty() && d.states.is_empty() && d.areas.is_empty());
        // Shipped: the paid order moves to its new state whole.
        apply(&mut o, moved(3, "shipped", 2026_11_02));
        let shipped = delta(&after, &contribution(&o)).state_sales;
        assert_eq!(
            shipped[&(2026_11_01, "new".to_string())],
            StateFigures { orders: -1, net: -200_00, total: -214_00, paid: -214_00 }
        );
        assert_eq!(
            shipped[&(2026_11_01, "shipped".to_string())],
            StateFigures { orders: 1, net: 200_00, total: 214_00, paid: 214_00 }
        );
    }

    #[test]
    fn a_cancellation_on_the_day_it_was_placed_leaves_only_the_count() {
        let mut o = Order::default();
        apply(&mut o, placed(2026_11_01, content(&[(7, 2, 200_00)])));
        apply(&mut o, moved(2, "cancelled", 2026_11_01));
        let c = contribution(&o);
        let f = c.sales[&(2026_11_01, "line".to_string())];
        assert_eq!((f.orders, f.cancelled, f.units, f.net, f.total), (1, 1, 0, 0, 0));
        assert!(c.skus.is_empty(), "the SKU's sale and its reversal cancel out");
    }

    #[test]
    fn events_in_any_order_leave_the_same_figures() {
        let changes = [
            placed(2026_11_01, content(&[(7, 2, 200_00)])),
            Change::Content {
                version: 2,
                channel: "line".into(),
                placed_day: 2026_11_01,
                placed_at: 0,
                content: content(&[(7, 1, 100_00), (9, 4, 80_00)]),
                placed: false,
            },
            moved(3, "ready_to_fulfillment", 2026_11_02),
            moved(4, "cancelled", 2026_11_05),
        ];
        let mut expected = Order::default();
        for c in changes.clone() {
            apply(&mut expected, c);
        }
        let want = contribution(&expected);
        // Every order of arrival, and the daily tables kept by deltas, agree.
        let orders: [[usize; 4]; 6] =
            [[0, 1, 2, 3], [3, 2, 1, 0], [1, 0, 3, 2], [2, 3, 0, 1], [3, 0, 1, 2], [1, 3, 2, 0]];
        for order in orders {
            let mut o = Order::default();
            let mut tables = Contribution::default();
            for i in order {
                let before = contribution(&o);
                apply(&mut o, changes[i].clone());
                tables = add(&tables, &delta(&before, &contribution(&o)));
            }
            assert_eq!(contribution(&o), want, "{order:?}");
            assert_eq!(tables, want, "{order:?}");
        }
        assert_eq!(want.sales[&(2026_11_05, "line".to_string())].net, -180_00);
        assert_eq!(want.skus[&(2026_11_01, 9)].units, 4);
        assert_eq!(want.skus[&(2026_11_01, 7)].units, 1, "the edit's quantity, not the placing's");
    }

    #[test]
    fn an_old_version_or_a_repeat_changes_nothing() {
        let mut o = Order::default();
        apply(&mut o, placed(2026_11_01, content(&[(7, 2, 200_00)])));
        apply(&mut o, moved(3, "shipped", 2026_11_02));
        let kept = o.clone();
        assert!(!apply(&mut o, moved(2, "ready_to_fulfillment", 2026_11_02)), "older than the state kept");
        assert!(!apply(&mut o, moved(3, "shipped", 2026_11_02)), "a repeat");
        assert!(!apply(&mut o, placed(2026_11_01, content(&[(7, 2, 200_00)]))));
        assert_eq!(o, kept);
    }

    #[test]
    fn a_state_before_the_content_counts_the_order_once_the_content_comes() {
        let mut o = Order::default();
        apply(&mut o, moved(2, "ready_to_fulfillment", 2026_11_02));
        let c = contribution(&o);
        assert!(c.sales.is_empty());
        assert_eq!(c.states.len(), 1);
        apply(&mut o, placed(2026_11_01, content(&[(7, 2, 200_00)])));
        assert_eq!(o.state, "ready_to_fulfillment", "placed (version 1) does not undo a later state");
        assert_eq!(contribution(&o).sales[&(2026_11_01, "line".to_string())].orders, 1);
    }

    #[test]
    fn many_orders_sum_to_their_tables() {
        let mut a = Order::default();
        apply(&mut a, placed(2026_11_01, content(&[(7, 2, 200_00)])));
        let mut b = Order::default();
        apply(&mut b, placed(2026_11_01, content(&[(7, 1, 100_00)])));
        apply(&mut b, moved(2, "cancelled", 2026_11_02));
        let t = sum(&[&a, &b]);
        let day1 = t.sales[&(2026_11_01, "line".to_string())];
        assert_eq!((day1.orders, day1.units, day1.net), (2, 3, 300_00));
        let day2 = t.sales[&(2026_11_02, "line".to_string())];
        assert_eq!((day2.cancelled, day2.units, day2.net), (1, -1, -100_00));
        assert_eq!(t.states[&(2026_11_01, "new".to_string())], 1);
        assert_eq!(t.states[&(2026_11_01, "cancelled".to_string())], 1);
    }

    #[test]
    fn an_order_counts_in_its_places_and_a_cancellation_takes_its_net_back_there() {
        let mut o = Order::default();
        apply(&mut o, placed(2026_11_01, content(&[(7, 2, 200_00)])));
        let province = (2026_11_01, ("province".to_string(), "เชียงใหม่".to_string(), String::new()));
        let district = (2026_11_01, ("district".to_string(), "เมืองเชียงใหม่".to_string(), "เชียงใหม่".to_string()));
        let c = contribution(&o);
        assert_eq!(c.areas[&province], AreaFigures { orders: 1, cancelled: 0, net: 200_00 });
        assert_eq!(c.areas[&district].net, 200_00);
        assert_eq!(c.areas.len(), 3, "country, province and district: {:?}", c.areas.keys());
        apply(&mut o, moved(2, "cancelled", 2026_11_04));
        let c = contribution(&o);
        let back = (2026_11_04, ("province".to_string(), "เชียงใหม่".to_string(), String::new()));
        assert_eq!(c.areas[&back], AreaFigures { orders: 0, cancelled: 1, net: -200_00 });
        assert_eq!(c.areas[&province].net, 200_00, "the sale stays on its day");

        // Abroad: the country (in capitals) and the city in it; no province.
        let abroad = Place { country: "jp".into(), city: "Osaka".into(), ..Default::default() };
        let kinds: Vec<(String, String, String)> = abroad.areas();
        assert_eq!(
            kinds,
            vec![
                ("country".to_string(), "JP".to_string(), String::new()),
                ("city".to_string(), "Osaka".to_string(), "JP".to_string())
            ]
        );
        // A province without its country is Thailand's; a place not known is counted nowhere.
        let home = Place { province: "ตาก".into(), ..Default::default() };
        assert_eq!(home.areas()[0], ("country".to_string(), "TH".to_string(), String::new()));
        assert!(Place::default().areas().is_empty());
    }

    #[test]
    fn an_order_counts_under_who_placed_it_and_an_edit_to_another_customer_is_decided_anew() {
        let with = |customer: Option<i64>| Content { customer, ..content(&[(7, 1, 100_00)]) };
        let mut o = Order::default();
        apply(&mut o, placed(2026_11_01, with(Some(0))));
        assert_eq!(o.customer_kind(), Some(GUEST));
        let mut known = Order::default();
        apply(&mut known, placed(2026_11_01, with(Some(5))));
        assert_eq!(known.customer_kind(), Some(RETURNING), "until the storage finds it is the first");
        known.first = true;
        let c = contribution(&known);
        assert_eq!(c.customers[&(2026_11_01, NEW.to_string())], AreaFigures { orders: 1, cancelled: 0, net: 100_00 });
        let edit = Change::Content {
            version: 2,
            channel: "line".into(),
            placed_day: 2026_11_01,
            placed_at: 0,
            content: with(Some(6)),
            placed: false,
        };
        apply(&mut known, edit);
        assert!(!known.first, "another customer's first order is for the storage to decide");
        let mut before = Order::default();
        apply(&mut before, placed(2026_11_01, with(None)));
        assert_eq!(before.customer_kind(), None, "what was kept before customers were counted counts nowhere");
        assert!(contribution(&before).customers.is_empty());
    }

    #[test]
    fn the_check_expects_what_the_orders_leave_and_names_a_difference() {
        let with = |customer: i64, at: i64, day: Day, lines: &[(i64, i64, i64)]| Change::Content {
            version: 1,
            channel: "line".into(),
            placed_day: day,
            placed_at: at,
            content: Content { customer: Some(customer), ..content(lines) },
            placed: false,
        };
        let state = |version: i64, state: &str, day: Day| Change::State {
            version,
            channel: "line".into(),
            placed_day: 0,
            state: state.into(),
            day,
        };
        // Customer 5's order 2 was placed before order 1; order 3 is a guest's, cancelled on
        // the 5th.
        let orders = [
            (1, vec![with(5, 300, 2026_11_03, &[(7, 1, 100_00)]), state(1, "new", 2026_11_03)]),
            (2, vec![with(5, 200, 2026_11_01, &[(7, 2, 200_00)]), state(2, "shipped", 2026_11_02)]),
            (3, vec![with(0, 250, 2026_11_02, &[(8, 1, 50_00)]), state(3, CANCELLED, 2026_11_05)]),
        ];
        let mut e = Expected::default();
        for (id, changes) in orders.clone() {
            e.add(7, id, changes);
        }
        assert_eq!(e.orders, 3);
        let expected = e.finish();
        // What the events leave: the same orders, order 2 known as customer 5's first.
        let mut live = Contribution::default();
        for (id, changes) in orders {
            let mut o = Order::default();
            for c in changes {
                apply(&mut o, c);
            }
            o.first = id == 2;
            add_to(&mut live, &contribution(&o));
        }
        let mut actual = BTreeMap::from([(7, live)]);
        assert_eq!(differences(&expected, &actual), Vec::<String>::new());
        assert_eq!(expected[&7].customers[&(2026_11_01, NEW.to_string())].net, 200_00);
        // A row the events never made is named, with what it is off by.
        let sales = actual.get_mut(&7).unwrap().sales.get_mut(&(2026_11_03, "line".to_string())).unwrap();
        sales.orders += 1;
        sales.net += 99_00;
        assert_eq!(
            differences(&expected, &actual),
            vec![
                "store 7, sales of 2026-11-03 on channel \"line\": off by 1 orders, 0 cancelled, 0 units, 9900 satang net, 0 satang cost"
                    .to_string()
            ]
        );
        // A store the orders know nothing of.
        let stray = BTreeMap::from([(
            9,
            Contribution { states: BTreeMap::from([((2026_11_01, "new".to_string()), 1)]), ..Default::default() },
        )]);
        assert_eq!(
            differences(&BTreeMap::new(), &stray),
            vec!["store 9, orders placed on 2026-11-01 now new: off by 1".to_string()]
        );
    }

    #[test]
    fn averages_round_half_away_from_zero() {
        let f = |orders, net| Figures { orders, net, ..Default::default() };
        assert_eq!(f(0, 100).average(), 0);
        assert_eq!(f(3, 100).average(), 33);
        assert_eq!(f(2, 101).average(), 51);
        assert_eq!(f(2, -101).average(), -51);
        assert_eq!(Figures { net_ex_vat: 90, cost: 100, ..Default::default() }.profit(), -10);
    }
}
