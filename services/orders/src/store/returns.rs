//! Buyers' returns of orders: kept once per order and platform return number, moved along
//! by newer changes only, their goods received once; every write recomputes the order's
//! return mark under the order's lock and tells the timeline.

use serde::{Deserialize, Serialize};

use super::*;
use crate::domain::returns::{self, Facts, Line, Mark, Stage};

/// A return as kept.
#[derive(Debug, Clone, FromRow)]
pub struct ReturnRow {
    pub id: i64,
    pub store_id: i64,
    pub order_id: i64,
    pub reference: String,
    pub stage: String,
    pub status_word: String,
    pub refund_only: i64,
    pub reason: String,
    pub refund_amount: i64,
    pub tracking_no: String,
    /// JSON: its [`Line`]s.
    pub lines: String,
    /// JSON: its [`ReceiptRef`]s.
    pub receipts: String,
    pub changed_at: i64,
    pub received_at: i64,
    pub received_by: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

const RETURN_COLUMNS: &str = "id, store_id, order_id, reference, stage, status_word, refund_only, reason, \
    refund_amount, tracking_no, lines, receipts, changed_at, received_at, received_by, created_at, updated_at";

/// A goods receipt that put a return's goods back in stock.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReceiptRef {
    pub goods_receipt_id: i64,
    pub code: String,
    pub warehouse_id: i64,
}

impl ReturnRow {
    /// Its lines (none when the column does not read).
    pub fn lines(&self) -> Vec<Line> {
        serde_json::from_str(&self.lines).unwrap_or_default()
    }

    /// Its receipts.
    pub fn receipts(&self) -> Vec<ReceiptRef> {
        serde_json::from_str(&self.receipts).unwrap_or_default()
    }

    /// Its stage (requested when the word does not read).
    pub fn stage(&self) -> Stage {
        Stage::parse(&self.stage).unwrap_or(Stage::Requested)
    }

    /// What decides its mark.
    pub fn facts(&self) -> Facts {
        Facts { stage: self.stage(), refund_only: self.refund_only != 0, received: self.received_at > 0 }
    }
}

/// A return as its platform reports it now.
#[derive(Debug, Clone)]
pub struct Reported {
    pub reference: String,
    pub stage: Stage,
    pub status_word: String,
    pub refund_only: bool,
    pub reason: String,
    pub refund_amount: i64,
    pub tracking_no: String,
    pub lines: Vec<Line>,
    pub changed_at: i64,
}

/// What keeping a reported return did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// New.
    Created,
    /// Moved along.
    Updated,
    /// The same change again.
    Unchanged,
    /// Older than the change kept.
    Stale,
}

fn json<T: Serialize>(v: &T) -> Result<String> {
    serde_json::to_string(v).map_err(Error::internal)
}

impl Repo {
    /// Keeps a return of order `order_id` as its platform reports it: made the first time,
    /// moved along by a newer change (a return whose goods were received keeps its counted
    /// lines); the order's mark follows.
    pub async fn keep_return(&self, who: Actor, order_id: i64, r: &Reported) -> Result<(i64, Kept)> {
        let mut tx = self.db.begin().await?;
        let order = order_in(&mut tx, who.store_id, order_id).await?;
        let found = sqlx::query_as::<_, ReturnRow>(&format!(
            "SELECT {RETURN_COLUMNS} FROM order_returns WHERE store_id = $1 AND order_id = $2 AND reference = $3"
        ))
        .bind(who.store_id)
        .bind(order_id)
        .bind(&r.reference)
        .fetch_optional(&mut *tx)
        .await?;
        let now = now_ms();
        let detail = |stage: Stage| format!("{} {} {}", r.reference, stage.as_str(), r.status_word);
        let (id, kept) = match found {
            None => {
                let id: i64 = sqlx::query_scalar(
                    "INSERT INTO order_returns (store_id, order_id, reference, stage, status_word, refund_only, reason, \
                     refund_amount, tracking_no, lines, changed_at, created_at, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING id",
                )
                .bind(who.store_id)
                .bind(order_id)
                .bind(&r.reference)
                .bind(r.stage.as_str())
                .bind(&r.status_word)
                .bind(i64::from(r.refund_only))
                .bind(&r.reason)
                .bind(r.refund_amount)
                .bind(&r.tracking_no)
                .bind(json(&r.lines)?)
                .bind(r.changed_at)
                .bind(now)
                .fetch_one(&mut *tx)
                .await?;
                event(&mut tx, who, order_id, "return_reported", &order.state, &order.state, &detail(r.stage)).await?;
                (id, Kept::Created)
            }
            Some(row) if row.changed_at == r.changed_at => (row.id, Kept::Unchanged),
            Some(row) if row.changed_at > r.changed_at => (row.id, Kept::Stale),
            Some(row) => {
                let lines = if row.received_at > 0 { row.lines.clone() } else { json(&r.lines)? };
                sqlx::query(
                    "UPDATE order_returns SET stage = $1, status_word = $2, refund_only = $3, reason = $4, \
                     refund_amount = $5, tracking_no = $6, lines = $7, changed_at = $8, updated_at = $9 \
                     WHERE id = $10 AND changed_at < $8",
                )
                .bind(r.stage.as_str())
                .bind(&r.status_word)
                .bind(i64::from(r.refund_only))
                .bind(&r.reason)
                .bind(r.refund_amount)
                .bind(&r.tracking_no)
                .bind(lines)
                .bind(r.changed_at)
                .bind(now)
                .bind(row.id)
                .execute(&mut *tx)
                .await?;
                if row.stage() != r.stage {
                    event(&mut tx, who, order_id, "return_changed", &order.state, &order.state, &detail(r.stage))
                        .await?;
                }
                (row.id, Kept::Updated)
            }
        };
        if matches!(kept, Kept::Created | Kept::Updated) {
            remark(&mut tx, who.store_id, order_id, &order.return_mark).await?;
        }
        tx.commit().await?;
        Ok((id, kept))
    }

    /// The returns of an order, oldest first.
    pub async fn returns_of(&self, store_id: i64, order_id: i64) -> Result<Vec<ReturnRow>> {
        Ok(sqlx::query_as::<_, ReturnRow>(&format!(
            "SELECT {RETURN_COLUMNS} FROM order_returns WHERE store_id = $1 AND order_id = $2 ORDER BY id"
        ))
        .bind(store_id)
        .bind(order_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// One return of an order.
    pub async fn return_of(&self, store_id: i64, order_id: i64, id: i64) -> Result<ReturnRow> {
        sqlx::query_as::<_, ReturnRow>(&format!(
            "SELECT {RETURN_COLUMNS} FROM order_returns WHERE store_id = $1 AND order_id = $2 AND id = $3"
        ))
        .bind(store_id)
        .bind(order_id)
        .bind(id)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or_else(|| Error::not_found(Code::OrderReturnNotFound))
    }

    /// Records a return's goods received: its counted lines and the receipts that put them
    /// back in stock, once (false when they were recorded before); the order's mark follows.
    pub async fn record_received(
        &self,
        who: Actor,
        order_id: i64,
        id: i64,
        lines: &[Line],
        receipts: &[ReceiptRef],
    ) -> Result<bool> {
        let mut tx = self.db.begin().await?;
        let order = order_in(&mut tx, who.store_id, order_id).await?;
        let now = now_ms();
        let done = sqlx::query(
            "UPDATE order_returns SET lines = $1, receipts = $2, received_at = $3, received_by = $4, updated_at = $3 \
             WHERE store_id = $5 AND order_id = $6 AND id = $7 AND received_at = 0",
        )
        .bind(json(&lines)?)
        .bind(json(&receipts)?)
        .bind(now)
        .bind(who.user_id)
        .bind(who.store_id)
        .bind(order_id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        let codes: Vec<&str> = receipts.iter().map(|r| r.code.as_str()).collect();
        let (good, defective): (i64, i64) = lines.iter().fold((0, 0), |(g, d), l| (g + l.good, d + l.defective));
        let detail = format!("{} good {good} defective {defective}", codes.join(", "));
        event(&mut tx, who, order_id, "return_received", &order.state, &order.state, &detail).await?;
        remark(&mut tx, who.store_id, order_id, &order.return_mark).await?;
        tx.commit().await?;
        Ok(true)
    }
}

/// Recomputes the order's return mark from its returns, written when it changed.
async fn remark(tx: &mut Tx, store_id: i64, order_id: i64, was: &str) -> Result<()> {
    let rows = sqlx::query_as::<_, ReturnRow>(&format!(
        "SELECT {RETURN_COLUMNS} FROM order_returns WHERE store_id = $1 AND order_id = $2"
    ))
    .bind(store_id)
    .bind(order_id)
    .fetch_all(&mut **tx)
    .await?;
    let mark: Mark = returns::mark(rows.iter().map(ReturnRow::facts));
    if mark.as_str() != was {
        sqlx::query("UPDATE orders SET return_mark = $1, updated_at = $2 WHERE store_id = $3 AND id = $4")
            .bind(mark.as_str())
            .bind(now_ms())
            .bind(store_id)
            .bind(order_id)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}
