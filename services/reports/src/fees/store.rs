//! The fees' read model: each charge's key once (`report_fee_charges`) and the daily sums
//! (`daily_fees`), written in the transaction that records the events.

use std::collections::BTreeSet;

use bo_kit::db::Tx;
use bo_kit::time::now_ms;
use bo_kit::Result;
use sqlx::Row;

use super::{Charge, DailyFees, FeeFigures, FeeSummary};
use crate::domain::{Day, Span};
use crate::store::Repo;

/// The daily table's money and count columns, comma separated.
fn columns() -> String {
    FeeFigures::COLUMNS.join(", ")
}

fn figures_at(r: &sqlx::any::AnyRow, first: usize) -> std::result::Result<FeeFigures, sqlx::Error> {
    let mut v = [0i64; 11];
    for (i, slot) in v.iter_mut().enumerate() {
        *slot = r.try_get(first + i)?;
    }
    Ok(FeeFigures::from_values(v))
}

impl Repo {
    /// Records charges told by events (with each event's id), inside their transaction: the
    /// stores' rows first (every writer of a store's figures takes turns on it), then each
    /// charge not counted before, added to its day's sums. Answers how many were new.
    pub async fn apply_fees(tx: &mut Tx, charges: &[(Charge, String)]) -> Result<usize> {
        if charges.is_empty() {
            return Ok(0);
        }
        let now = now_ms();
        let stores: BTreeSet<i64> = charges.iter().map(|(c, _)| c.store_id).collect();
        for store_id in stores {
            sqlx::query(
                "INSERT INTO report_stores (store_id, updated_at) VALUES ($1, $2) \
                 ON CONFLICT (store_id) DO UPDATE SET updated_at = excluded.updated_at",
            )
            .bind(store_id)
            .bind(now)
            .execute(&mut **tx)
            .await?;
        }
        let mut new = Vec::new();
        for (c, event_id) in charges {
            let inserted: Option<i64> = sqlx::query_scalar(
                "INSERT INTO report_fee_charges (store_id, document, document_id, warehouse_id, day, event_id) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (store_id, document, document_id) DO NOTHING \
                 RETURNING store_id",
            )
            .bind(c.store_id)
            .bind(&c.document)
            .bind(c.document_id)
            .bind(c.warehouse_id)
            .bind(c.day)
            .bind(event_id)
            .fetch_optional(&mut **tx)
            .await?;
            if inserted.is_some() {
                new.push(c);
            }
        }
        let sql = format!(
            "INSERT INTO daily_fees (store_id, day, warehouse_id, {}) VALUES ({}) \
             ON CONFLICT (store_id, day, warehouse_id) DO UPDATE SET {}",
            columns(),
            (1..=14).map(|i| format!("${i}")).collect::<Vec<_>>().join(", "),
            FeeFigures::COLUMNS
                .iter()
                .map(|c| format!("{c} = daily_fees.{c} + excluded.{c}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        for ((store_id, day, warehouse_id), f) in super::sums(new.iter().copied()) {
            let mut q = sqlx::query(&sql).bind(store_id).bind(day).bind(warehouse_id);
            for v in f.values() {
                q = q.bind(v);
            }
            q.execute(&mut **tx).await?;
        }
        Ok(new.len())
    }

    /// A period's fees beside the period before's.
    pub async fn fee_summary(&self, store_id: i64, span: &Span) -> Result<FeeSummary> {
        let rows = sqlx::query(&format!(
            "SELECT day, warehouse_id, {} FROM daily_fees WHERE store_id = $1 AND day >= $2 AND day <= $3",
            columns()
        ))
        .bind(store_id)
        .bind(span.previous_from.min(span.from))
        .bind(span.to.max(span.previous_to))
        .fetch_all(self.db().pool())
        .await?;
        let rows = rows
            .iter()
            .map(|r| Ok((r.try_get::<Day, _>(0)?, r.try_get::<i64, _>(1)?, figures_at(r, 2)?)))
            .collect::<std::result::Result<Vec<_>, sqlx::Error>>()?;
        let mut s = super::summary(span, &rows);
        s.updated_at = self.updated_at(store_id).await?;
        Ok(s)
    }

    /// Every store's daily fees as they are (rows of nothing left out), for the check.
    pub async fn fee_tables(&self) -> Result<DailyFees> {
        let rows = sqlx::query(&format!("SELECT store_id, day, warehouse_id, {} FROM daily_fees", columns()))
            .fetch_all(self.db().pool())
            .await?;
        let mut out = DailyFees::new();
        for r in rows {
            let f = figures_at(&r, 3)?;
            if f != FeeFigures::default() {
                out.insert((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?), f);
            }
        }
        Ok(out)
    }
}
