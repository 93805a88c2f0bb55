//! What orders record of their stock in wms: revisions of a hold written ahead and settled,
//! releases, short orders queued for the filler, and the view the invariant check reads.

use super::*;
use bo_kit::db::Write as _;

impl Repo {
    /// A new order's first hold answered: it holds its lines, or it is short. One update
    /// (and the timeline's line when short); false when it no longer waits for it.
    pub async fn settle_new(&self, who: Actor, id: i64, held: bool, address_incomplete: bool) -> Result<bool> {
        let settle = sqlx::query(
            "UPDATE orders SET stock_state = $1, stock_state_at = $2, problems = $3 \
             WHERE id = $4 AND store_id = $5 AND stock_state = $6 AND hold_revision = 1",
        )
        .bind(if held { stock::HELD } else { stock::SHORT })
        .bind(now_ms())
        .bind(problems_text(!held, address_incomplete))
        .bind(id)
        .bind(who.store_id)
        .bind(stock::PENDING);
        if held {
            // Held, as most are: one statement, nothing else to record.
            return Ok(settle.write(&self.db).await?.rows_affected() == 1);
        }
        let mut tx = self.db.begin().await?;
        let r = settle.execute(&mut *tx).await?;
        if r.rows_affected() != 1 {
            return Ok(false);
        }
        event(&mut tx, who, id, "stock_short", state::NEW, state::NEW, "").await?;
        tx.commit().await?;
        Ok(true)
    }

    /// A hold's answer: the order now holds its lines (`held`) or nothing (short). Only if it
    /// still waits for this revision; false otherwise.
    pub async fn settle_hold(&self, who: Actor, id: i64, revision: i64, held: bool, on_create: bool) -> Result<bool> {
        let mut tx = self.db.begin().await?;
        let Some(row) = pending_at(&mut tx, who.store_id, id, revision, stock::PENDING).await? else {
            return Ok(false);
        };
        let address = row.problems().iter().any(|p| p == problem::ADDRESS);
        let was_short = row.problems().iter().any(|p| p == problem::STOCK);
        sqlx::query(
            "UPDATE orders SET stock_state = $1, stock_state_at = $2, problems = $3, version = version + 1, \
             updated_at = $2 WHERE id = $4 AND stock_state = $5 AND hold_revision = $6",
        )
        .bind(if held { stock::HELD } else { stock::SHORT })
        .bind(now_ms())
        .bind(problems_text(!held, address))
        .bind(id)
        .bind(stock::PENDING)
        .bind(revision)
        .execute(&mut *tx)
        .await?;
        if !held && (on_create || !was_short) {
            event(&mut tx, who, id, "stock_short", &row.state, &row.state, "").await?;
        } else if held && was_short {
            event(&mut tx, who, id, "stock_filled", &row.state, &row.state, "").await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Takes the next revision of a new order to ask wms for (an edit, a fill or the
    /// reconciler's retry): the order becomes `pending` from `from` (any when empty).
    /// Answers the revision, or None when the order is not (or no longer) so.
    pub async fn next_revision(
        &self,
        store_id: i64,
        id: i64,
        from: &[&str],
        version: i64,
        current_revision: Option<i64>,
    ) -> Result<Option<i64>> {
        let mut tx = self.db.begin().await?;
        let row: Option<(String, String, i64, i64)> = sqlx::query_as(
            "SELECT state, stock_state, hold_revision, version FROM orders WHERE store_id = $1 AND id = $2",
        )
        .bind(store_id)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((st, stock_state, rev, v)) = row else { return Ok(None) };
        if st != state::NEW
            || !from.contains(&stock_state.as_str())
            || (version > 0 && v != version)
            || current_revision.is_some_and(|r| r != rev)
        {
            return Ok(None);
        }
        let changed = sqlx::query(
            "UPDATE orders SET hold_revision = hold_revision + 1, stock_state = $1, stock_state_at = $2 \
             WHERE id = $3 AND stock_state = $4 AND hold_revision = $5 AND state = $6",
        )
        .bind(stock::PENDING)
        .bind(now_ms())
        .bind(id)
        .bind(&stock_state)
        .bind(rev)
        .bind(state::NEW)
        .execute(&mut *tx)
        .await?;
        if changed.rows_affected() != 1 {
            return Ok(None);
        }
        tx.commit().await?;
        Ok(Some(rev + 1))
    }

    /// Puts an order waiting for `revision` back to `stock_state` (an edit wms refused).
    pub async fn abandon_revision(&self, store_id: i64, id: i64, revision: i64, stock_state: &str) -> Result<()> {
        sqlx::query(
            "UPDATE orders SET stock_state = $1, stock_state_at = $2 WHERE store_id = $3 AND id = $4 \
             AND stock_state = $5 AND hold_revision = $6",
        )
        .bind(stock_state)
        .bind(now_ms())
        .bind(store_id)
        .bind(id)
        .bind(stock::PENDING)
        .bind(revision)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// Orders whose stock has waited on wms since before `older_than` (the reconciler's work).
    pub async fn in_flight(&self, older_than: i64, limit: i64) -> Result<Vec<OrderRow>> {
        Ok(sqlx::query_as::<_, OrderRow>(&format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE stock_state IN ($1, $2, $3) AND stock_state_at < $4 \
             ORDER BY stock_state_at LIMIT $5"
        ))
        .bind(stock::PENDING)
        .bind(stock::RELEASING)
        .bind(stock::COMMITTING)
        .bind(older_than)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Marks orders released once wms gave their stock back.
    pub async fn mark_released(&self, store_id: i64, ids: &[i64]) -> Result<()> {
        let mut tx = self.db.begin().await?;
        let now = now_ms();
        for id in ids {
            sqlx::query(
                "UPDATE orders SET stock_state = $1, stock_state_at = $2 WHERE store_id = $3 AND id = $4 AND stock_state = $5",
            )
            .bind(stock::RELEASED)
            .bind(now)
            .bind(store_id)
            .bind(id)
            .bind(stock::RELEASING)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Short new orders of a store holding a SKU in a warehouse (or any, `sku_id` 0), oldest
    /// first.
    pub async fn short_orders(&self, store_id: i64, warehouse_id: i64, sku_id: i64) -> Result<Vec<i64>> {
        Ok(sqlx::query_scalar(
            "SELECT o.id FROM orders o WHERE o.store_id = $1 AND o.stock_state = $2 AND o.state = $3 \
             AND EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id AND i.warehouse_id = $4 \
               AND ($5 = 0 OR i.sku_id = $5)) ORDER BY o.id",
        )
        .bind(store_id)
        .bind(stock::SHORT)
        .bind(state::NEW)
        .bind(warehouse_id)
        .bind(sku_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// The lines short orders of a warehouse hold there: (sku, code, product, variant,
    /// quantity, order), oldest order first. An order the filler is trying again stays short
    /// (its problem stays until it holds).
    pub async fn short_lines(&self, store_id: i64, warehouse_id: i64) -> Result<Vec<crate::arrivals::ShortLine>> {
        Ok(sqlx::query_as(
            "SELECT i.sku_id, i.sku_code, i.product_name, i.variant, i.quantity, o.id FROM orders o \
             JOIN order_items i ON i.order_id = o.id WHERE o.store_id = $1 AND o.stock_state <> $2 AND o.state = $3 \
             AND i.warehouse_id = $4 AND o.problems LIKE $5 ORDER BY o.id, i.position",
        )
        .bind(store_id)
        .bind(stock::HELD)
        .bind(state::NEW)
        .bind(warehouse_id)
        .bind(format!("%{}%", problem::STOCK))
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Queues a SKU that became available, when the store has short orders (inside the
    /// consumer's transaction).
    pub async fn queue_fill(tx: &mut Tx, store_id: i64, warehouse_id: i64, sku_id: i64) -> Result<()> {
        let short: Option<i64> =
            sqlx::query_scalar("SELECT id FROM orders WHERE store_id = $1 AND stock_state = $2 LIMIT 1")
                .bind(store_id)
                .bind(stock::SHORT)
                .fetch_optional(&mut **tx)
                .await?;
        if short.is_some() {
            sqlx::query(
                "INSERT INTO fill_queue (store_id, warehouse_id, sku_id, queued_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (store_id, warehouse_id, sku_id) DO NOTHING",
            )
            .bind(store_id)
            .bind(warehouse_id)
            .bind(sku_id)
            .bind(now_ms())
            .execute(&mut **tx)
            .await?;
        }
        Ok(())
    }

    /// The oldest queued fills.
    pub async fn queued_fills(&self, limit: i64) -> Result<Vec<(i64, i64, i64, i64)>> {
        Ok(sqlx::query_as(
            "SELECT store_id, warehouse_id, sku_id, queued_at FROM fill_queue ORDER BY queued_at LIMIT $1",
        )
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Takes a fill off the queue (unless it was queued again since `queued_at`).
    pub async fn unqueue_fill(&self, store_id: i64, warehouse_id: i64, sku_id: i64, queued_at: i64) -> Result<()> {
        sqlx::query(
            "DELETE FROM fill_queue WHERE store_id = $1 AND warehouse_id = $2 AND sku_id = $3 AND queued_at = $4",
        )
        .bind(store_id)
        .bind(warehouse_id)
        .bind(sku_id)
        .bind(queued_at)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// Every order's stock as the check compares it.
    pub async fn stock_view(&self) -> Result<Vec<domain::check::OrderStock>> {
        let rows: Vec<(i64, i64, String, String, String, i64)> = sqlx::query_as(
            "SELECT store_id, id, order_no, state, stock_state, stock_state_at FROM orders ORDER BY store_id, id",
        )
        .fetch_all(self.db.pool())
        .await?;
        let lines: Vec<(i64, i64, i64, i64)> =
            // A marketplace line without a SKU holds nothing.
            sqlx::query_as(
                "SELECT order_id, warehouse_id, sku_id, quantity FROM order_items WHERE sku_id > 0 ORDER BY order_id",
            )
                .fetch_all(self.db.pool())
                .await?;
        let mut by_order: HashMap<i64, Vec<(i64, i64, i64)>> = HashMap::new();
        for (o, w, s, q) in lines {
            by_order.entry(o).or_default().push((w, s, q));
        }
        Ok(rows
            .into_iter()
            .map(|(store_id, order_id, order_no, state, stock_state, stock_state_at)| domain::check::OrderStock {
                store_id,
                order_id,
                order_no,
                state,
                stock_state,
                stock_state_at,
                lines: by_order.remove(&order_id).unwrap_or_default(),
            })
            .collect())
    }
}
