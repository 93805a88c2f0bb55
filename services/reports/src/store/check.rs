//! The check's and the rebuild's side of the storage: every store's daily tables as they
//! are, and emptying them.

use std::collections::BTreeMap;

use bo_kit::Result;
use sqlx::Row;

use super::*;
use crate::domain::{self, AreaFigures, Contribution, Day, SkuFigures, StateFigures};

impl Repo {
    /// Every store's daily tables as they are (rows that come to nothing left out), for the
    /// check.
    pub async fn tables(&self) -> Result<BTreeMap<i64, Contribution>> {
        let pool = self.db.pool();
        let mut out: BTreeMap<i64, Contribution> = BTreeMap::new();
        let rows = sqlx::query(&format!(
            "SELECT store_id, day, channel, {SUMS} FROM daily_sales GROUP BY store_id, day, channel"
        ))
        .fetch_all(pool)
        .await?;
        for r in rows {
            let f = figures_at(&r, 3)?;
            if !f.is_zero() {
                out.entry(r.try_get(0)?).or_default().sales.insert((r.try_get(1)?, r.try_get(2)?), f);
            }
        }
        for r in sqlx::query("SELECT store_id, day, sku_id, units, net, net_ex_vat, cost FROM daily_skus")
            .fetch_all(pool)
            .await?
        {
            let f =
                SkuFigures { units: r.try_get(3)?, net: r.try_get(4)?, net_ex_vat: r.try_get(5)?, cost: r.try_get(6)? };
            if f != SkuFigures::default() {
                out.entry(r.try_get(0)?).or_default().skus.insert((r.try_get(1)?, r.try_get(2)?), f);
            }
        }
        for r in sqlx::query("SELECT store_id, day, state, orders FROM daily_states WHERE orders <> 0")
            .fetch_all(pool)
            .await?
        {
            out.entry(r.try_get(0)?).or_default().states.insert((r.try_get(1)?, r.try_get(2)?), r.try_get(3)?);
        }
        let counted = |r: &sqlx::any::AnyRow, at: usize| -> std::result::Result<AreaFigures, sqlx::Error> {
            Ok(AreaFigures { orders: r.try_get(at)?, cancelled: r.try_get(at + 1)?, net: r.try_get(at + 2)? })
        };
        let sql = "SELECT store_id, day, kind, name, parent, orders, cancelled, net FROM daily_areas";
        for r in sqlx::query(sql).fetch_all(pool).await? {
            let f = counted(&r, 5)?;
            if f != AreaFigures::default() {
                let area = (r.try_get(2)?, r.try_get(3)?, r.try_get(4)?);
                out.entry(r.try_get(0)?).or_default().areas.insert((r.try_get(1)?, area), f);
            }
        }
        for r in sqlx::query("SELECT store_id, day, kind, orders, cancelled, net FROM daily_customers")
            .fetch_all(pool)
            .await?
        {
            let f = counted(&r, 3)?;
            if f != AreaFigures::default() {
                out.entry(r.try_get(0)?).or_default().customers.insert((r.try_get(1)?, r.try_get(2)?), f);
            }
        }
        for r in sqlx::query("SELECT store_id, day, state, orders, net, total, paid FROM daily_state_sales")
            .fetch_all(pool)
            .await?
        {
            let f =
                StateFigures { orders: r.try_get(3)?, net: r.try_get(4)?, total: r.try_get(5)?, paid: r.try_get(6)? };
            if f != StateFigures::default() {
                out.entry(r.try_get(0)?).or_default().state_sales.insert((r.try_get(1)?, r.try_get(2)?), f);
            }
        }
        let sql = "SELECT store_id, day, user_id, orders, cancelled, net FROM daily_staff";
        for r in sqlx::query(sql).fetch_all(pool).await? {
            let f = counted(&r, 3)?;
            if f != AreaFigures::default() {
                out.entry(r.try_get(0)?).or_default().staff.insert((r.try_get(1)?, r.try_get(2)?), f);
            }
        }
        Ok(out)
    }

    /// Empties every read model (the first step of a rebuild), in one transaction: events
    /// handled meanwhile wait for it (on PostgreSQL the stores' table is locked against every
    /// writer first; SQLite has one writer), and those handled after it count on the empty
    /// tables.
    pub async fn clear(&self) -> Result<()> {
        let mut tx = self.db.begin().await?;
        if self.db.dialect() == bo_kit::db::Dialect::Postgres {
            sqlx::query("LOCK TABLE report_stores IN EXCLUSIVE MODE").execute(&mut *tx).await?;
        }
        for table in [
            "report_stores",
            "report_orders",
            "sales_ledger",
            "daily_sales",
            "daily_skus",
            "monthly_skus",
            "yearly_skus",
            "daily_states",
            "daily_areas",
            "monthly_areas",
            "daily_customers",
            "daily_state_sales",
            "daily_staff",
            "report_skus",
            "report_fee_charges",
            "daily_fees",
        ] {
            sqlx::query(&format!("DELETE FROM {table}")).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Where the monthly and yearly sums of the SKUs' sales differ from their days', one
    /// sentence each.
    pub async fn rollup_problems(&self) -> Result<Vec<String>> {
        type Sums = BTreeMap<(i64, Day, i64), SkuFigures>;
        let rows = |table: &'static str| async move {
            let mut out: Vec<(i64, Day, i64, SkuFigures)> = Vec::new();
            let sql = format!("SELECT store_id, day, sku_id, units, net, net_ex_vat, cost FROM {table}");
            for r in sqlx::query(&sql).fetch_all(self.db().pool()).await? {
                let f = SkuFigures {
                    units: r.try_get(3)?,
                    net: r.try_get(4)?,
                    net_ex_vat: r.try_get(5)?,
                    cost: r.try_get(6)?,
                };
                out.push((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, f));
            }
            Ok::<_, sqlx::Error>(out)
        };
        let sum = |rows: &[(i64, Day, i64, SkuFigures)], first_of: fn(Day) -> Day| {
            let mut out = Sums::new();
            for (store, day, sku, f) in rows {
                let e = out.entry((*store, first_of(*day), *sku)).or_default();
                *e = e.plus(*f);
            }
            out.retain(|_, f| *f != SkuFigures::default());
            out
        };
        let days = rows("daily_skus").await?;
        let zero = SkuFigures::default();
        let mut problems = Vec::new();
        for (table, first_of) in domain::ROLLUPS {
            let (want, kept) = (sum(&days, first_of), sum(&rows(table).await?, first_of));
            let keys: std::collections::BTreeSet<&(i64, Day, i64)> = want.keys().chain(kept.keys()).collect();
            for k in keys {
                let (w, h) = (want.get(k).unwrap_or(&zero), kept.get(k).unwrap_or(&zero));
                if w != h {
                    let (store, day, sku) = k;
                    problems.push(format!(
                        "store {store}, SKU {sku} in {table} from {}: off by {} units, {} satang net",
                        domain::day_text(*day),
                        h.units - w.units,
                        h.net - w.net
                    ));
                }
            }
        }
        problems.extend(self.area_rollup_problems().await?);
        Ok(problems)
    }

    /// Where the monthly sums of the places' sales differ from their days', one sentence each.
    async fn area_rollup_problems(&self) -> Result<Vec<String>> {
        type Key = (i64, String, Day, String, String);
        let sums = |table: &'static str| async move {
            let sql = format!("SELECT store_id, kind, day, name, parent, orders, cancelled, net FROM {table}");
            let mut out: BTreeMap<Key, AreaFigures> = BTreeMap::new();
            for r in sqlx::query(&sql).fetch_all(self.db().pool()).await? {
                let day: Day = r.try_get(2)?;
                let key = (r.try_get(0)?, r.try_get(1)?, domain::month_of(day), r.try_get(3)?, r.try_get(4)?);
                let f = AreaFigures { orders: r.try_get(5)?, cancelled: r.try_get(6)?, net: r.try_get(7)? };
                let e = out.entry(key).or_default();
                *e = e.plus(f, 1);
            }
            out.retain(|_, f| *f != AreaFigures::default());
            Ok::<_, sqlx::Error>(out)
        };
        let (want, kept) = (sums("daily_areas").await?, sums("monthly_areas").await?);
        let zero = AreaFigures::default();
        let keys: std::collections::BTreeSet<&Key> = want.keys().chain(kept.keys()).collect();
        Ok(keys
            .into_iter()
            .filter_map(|k| {
                let (w, h) = (want.get(k).unwrap_or(&zero), kept.get(k).unwrap_or(&zero));
                let (store, kind, day, name, _) = k;
                (w != h).then(|| {
                    format!(
                        "store {store}, {kind} {name} in monthly_areas from {}: off by {} orders, {} satang net",
                        domain::day_text(*day),
                        h.orders - w.orders,
                        h.net - w.net
                    )
                })
            })
            .collect())
    }
}
