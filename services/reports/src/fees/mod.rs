//! Service fees: what the warehouses charged the store, from wms's fee charges (an order
//! when it shipped, a goods receipt when it was approved), summed per store, day charged
//! (Thailand's time) and warehouse. A document is charged once; a charge never changes, so
//! the daily sums only grow and a charge told twice counts once. Pure.

use std::collections::{BTreeMap, BTreeSet};

use bo_proto::wms::v1 as wpb;

use crate::domain::{self, Day, Span};

pub mod store;

/// Fees by kind in satang, and the documents charged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FeeFigures {
    /// Orders shipped.
    pub orders: i64,
    /// Goods receipts approved.
    pub receipts: i64,
    pub shelving: i64,
    pub goods_receipt: i64,
    pub picking: i64,
    pub packing: i64,
    pub packaging: i64,
    pub material: i64,
    pub additional: i64,
    pub shipping: i64,
    pub cod: i64,
}

impl FeeFigures {
    /// The columns of the daily table, in the order [`FeeFigures::values`] gives them.
    pub const COLUMNS: [&'static str; 11] = [
        "orders",
        "receipts",
        "shelving",
        "goods_receipt",
        "picking",
        "packing",
        "packaging",
        "material",
        "additional",
        "shipping",
        "cod",
    ];

    pub fn values(&self) -> [i64; 11] {
        [
            self.orders,
            self.receipts,
            self.shelving,
            self.goods_receipt,
            self.picking,
            self.packing,
            self.packaging,
            self.material,
            self.additional,
            self.shipping,
            self.cod,
        ]
    }

    pub fn from_values(v: [i64; 11]) -> Self {
        let [orders, receipts, shelving, goods_receipt, picking, packing, packaging, material, additional, shipping, cod] =
            v;
        Self {
            orders,
            receipts,
            shelving,
            goods_receipt,
            picking,
            packing,
            packaging,
            material,
            additional,
            shipping,
            cod,
        }
    }

    /// Every fee added up (the documents counted are not money).
    pub fn total(&self) -> i64 {
        self.values()[2..].iter().sum()
    }

    /// These figures and `other`'s, kind by kind, `sign` times `other`.
    pub fn plus(&self, other: &FeeFigures, sign: i64) -> FeeFigures {
        let (a, b) = (self.values(), other.values());
        FeeFigures::from_values(std::array::from_fn(|i| a[i] + sign * b[i]))
    }

    pub fn of(a: &wpb::FeeAmounts) -> Self {
        Self {
            orders: a.orders,
            receipts: a.receipts,
            shelving: a.shelving,
            goods_receipt: a.goods_receipt,
            picking: a.picking,
            packing: a.packing,
            packaging: a.packaging,
            material: a.material,
            additional: a.additional,
            shipping: a.shipping,
            cod: a.cod,
        }
    }

    pub fn amounts(&self) -> wpb::FeeAmounts {
        wpb::FeeAmounts {
            orders: self.orders,
            receipts: self.receipts,
            shelving: self.shelving,
            goods_receipt: self.goods_receipt,
            picking: self.picking,
            packing: self.packing,
            packaging: self.packaging,
            material: self.material,
            additional: self.additional,
            shipping: self.shipping,
            cod: self.cod,
        }
    }
}

/// One charge as told: its store, document, warehouse, day and fees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charge {
    pub store_id: i64,
    pub document: String,
    pub document_id: i64,
    pub warehouse_id: i64,
    pub day: Day,
    pub fees: FeeFigures,
}

impl Charge {
    /// A charge of the contract, for `store_id`; none without its amounts.
    pub fn of(store_id: i64, c: &wpb::FeeCharge) -> Option<Charge> {
        let at = c.charge_time.as_ref().map(bo_kit::time::timestamp_to_ms)?;
        Some(Charge {
            store_id,
            document: c.document.clone(),
            document_id: c.document_id,
            warehouse_id: c.warehouse_id,
            day: domain::day_of(at),
            fees: FeeFigures::of(c.amounts.as_ref()?),
        })
    }
}

/// Daily fees per (store, day, warehouse).
pub type DailyFees = BTreeMap<(i64, Day, i64), FeeFigures>;

/// What charges add up to per store, day and warehouse, each document counted once (the
/// first time it is told).
pub fn sums<'a>(charges: impl IntoIterator<Item = &'a Charge>) -> DailyFees {
    let mut seen = BTreeSet::new();
    let mut out = DailyFees::new();
    for c in charges {
        if seen.insert((c.store_id, c.document.as_str(), c.document_id)) {
            let e = out.entry((c.store_id, c.day, c.warehouse_id)).or_default();
            *e = e.plus(&c.fees, 1);
        }
    }
    out
}

/// Where `actual` differs from `expected`, one sentence each.
pub fn differences(expected: &DailyFees, actual: &DailyFees) -> Vec<String> {
    let keys: BTreeSet<&(i64, Day, i64)> = expected.keys().chain(actual.keys()).collect();
    let zero = FeeFigures::default();
    keys.into_iter()
        .filter_map(|k| {
            let off = expected.get(k).unwrap_or(&zero).plus(actual.get(k).unwrap_or(&zero), -1);
            (off != zero).then(|| {
                let (store, day, warehouse) = k;
                format!(
                    "store {store}, fees of warehouse {warehouse} on {}: off by {} orders, {} receipts, {} satang",
                    domain::day_text(*day),
                    off.orders,
                    off.receipts,
                    off.total()
                )
            })
        })
        .collect()
}

/// A period's fees beside the period before's, per warehouse and per bucket of the period.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FeeSummary {
    pub current: FeeFigures,
    pub previous: FeeFigures,
    /// Every warehouse charged in either period: (warehouse, current, previous), the
    /// period's largest total first, then by id.
    pub warehouses: Vec<(i64, FeeFigures, FeeFigures)>,
    /// Every bucket of the period, in order.
    pub points: Vec<(Day, FeeFigures)>,
    pub updated_at: Option<i64>,
}

/// Sums a store's daily fees (day, warehouse, fees) into a period's summary.
pub fn summary(span: &Span, rows: &[(Day, i64, FeeFigures)]) -> FeeSummary {
    let starts = domain::buckets(span.from, span.to, span.bucket);
    let place: BTreeMap<Day, usize> = starts.iter().enumerate().map(|(i, d)| (*d, i)).collect();
    let mut out =
        FeeSummary { points: starts.iter().map(|d| (*d, FeeFigures::default())).collect(), ..FeeSummary::default() };
    let mut warehouses: BTreeMap<i64, (FeeFigures, FeeFigures)> = BTreeMap::new();
    for (day, warehouse, f) in rows {
        if (span.from..=span.to).contains(day) {
            out.current = out.current.plus(f, 1);
            let w = warehouses.entry(*warehouse).or_default();
            w.0 = w.0.plus(f, 1);
            if let Some(i) = place.get(&domain::bucket_of(*day, span.bucket)) {
                out.points[*i].1 = out.points[*i].1.plus(f, 1);
            }
        }
        if (span.previous_from..=span.previous_to).contains(day) {
            out.previous = out.previous.plus(f, 1);
            let w = warehouses.entry(*warehouse).or_default();
            w.1 = w.1.plus(f, 1);
        }
    }
    out.warehouses = warehouses.into_iter().map(|(w, (now, before))| (w, now, before)).collect();
    out.warehouses.sort_by_key(|(w, now, _)| (std::cmp::Reverse(now.total()), *w));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Bucket, Period};

    fn fees(orders: i64, picking: i64, cod: i64) -> FeeFigures {
        FeeFigures { orders, picking, cod, ..FeeFigures::default() }
    }

    fn charge(document_id: i64, warehouse_id: i64, day: Day, f: FeeFigures) -> Charge {
        Charge { store_id: 1, document: "order".into(), document_id, warehouse_id, day, fees: f }
    }

    #[test]
    fn the_total_is_every_fee_but_not_the_documents() {
        let f = FeeFigures { orders: 3, receipts: 2, shelving: 1, cod: 10, packaging: 100, ..FeeFigures::default() };
        assert_eq!(f.total(), 111);
        assert_eq!(FeeFigures::from_values(f.values()), f);
        assert_eq!(f.plus(&f, -1), FeeFigures::default());
    }

    #[test]
    fn a_document_told_twice_counts_once() {
        let a = charge(7, 1, 20261101, fees(1, 300, 0));
        let b = charge(8, 1, 20261101, fees(1, 600, 50));
        let s = sums([&a, &b, &a]);
        assert_eq!(s.len(), 1);
        assert_eq!(s[&(1, 20261101, 1)], fees(2, 900, 50));
    }

    #[test]
    fn the_check_names_what_is_off() {
        let expected = sums([&charge(7, 1, 20261101, fees(1, 300, 0))]);
        assert!(differences(&expected, &expected).is_empty());
        let problems = differences(&expected, &DailyFees::new());
        assert_eq!(problems, ["store 1, fees of warehouse 1 on 2026-11-01: off by 1 orders, 0 receipts, 300 satang"]);
    }

    #[test]
    fn a_summary_sums_the_period_per_warehouse_and_bucket_beside_the_period_before() {
        let span = domain::span(Period::Monthly, 20261115).unwrap();
        assert_eq!(span.bucket, Bucket::Day);
        let rows = [
            (20261101, 1, fees(1, 300, 0)),
            (20261130, 2, fees(2, 900, 100)),
            (20261130, 1, fees(1, 300, 0)),
            (20261031, 1, fees(5, 1_500, 0)),
            (20261201, 1, fees(9, 9_999, 0)),
        ];
        let s = summary(&span, &rows);
        assert_eq!(s.current, fees(4, 1_500, 100));
        assert_eq!(s.previous, fees(5, 1_500, 0));
        assert_eq!(s.points.len(), 30);
        assert_eq!(s.points[0], (20261101, fees(1, 300, 0)));
        assert_eq!(s.points[29], (20261130, fees(3, 1_200, 100)));
        assert_eq!(
            s.warehouses,
            [(2, fees(2, 900, 100), FeeFigures::default()), (1, fees(2, 600, 0), fees(5, 1_500, 0))]
        );
    }
}
