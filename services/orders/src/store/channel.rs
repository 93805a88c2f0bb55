//! Marketplace orders' own writes: found by their channel and number, paid at the
//! marketplace, and the newest change of the marketplace's they follow.

use super::*;

impl Repo {
    /// The store's order of a channel's reference (None when it has none).
    pub async fn by_reference(&self, store_id: i64, channel: &str, reference: &str) -> Result<Option<OrderRow>> {
        Ok(sqlx::query_as::<_, OrderRow>(&format!("SELECT {ORDER_COLUMNS} FROM orders WHERE {BY_REFERENCE}"))
            .bind(store_id)
            .bind(channel)
            .bind(reference)
            .fetch_optional(self.db.pool())
            .await?)
    }

    /// A marketplace order the buyer paid at the marketplace: paid, once (it has no bills).
    pub async fn mark_paid_at_channel(&self, who: Actor, id: i64, detail: &str) -> Result<bool> {
        let mut tx = self.db.begin().await?;
        let r = sqlx::query(
            "UPDATE orders SET payment_state = $1, updated_at = $2, updated_by = $3, version = version + 1 \
             WHERE store_id = $4 AND id = $5 AND store_channel_id > 0 AND payment_state = $6",
        )
        .bind(payment::PAID)
        .bind(now_ms())
        .bind(who.user_id)
        .bind(who.store_id)
        .bind(id)
        .bind(payment::UNPAID)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Ok(false);
        }
        let row = order_in(&mut tx, who.store_id, id).await?;
        event(&mut tx, who, id, "paid_at_channel", &row.state, &row.state, detail).await?;
        outbox::enqueue(&mut tx, who.store_id, who.user_id, &super::paid_event(&row)).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Whether the order's marketplace ships it, as the marketplaces service now says.
    pub async fn set_platform_ships(&self, store_id: i64, id: i64, platform_ships: bool) -> Result<()> {
        sqlx::query("UPDATE orders SET platform_ships = $1 WHERE store_id = $2 AND id = $3")
            .bind(i64::from(platform_ships))
            .bind(store_id)
            .bind(id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Records that the order follows the marketplace's change of `changed_at` (ms) and,
    /// with `noted`, what its status said in the timeline; false when a newer one was
    /// recorded first.
    pub async fn follow_channel(
        &self,
        who: Actor,
        id: i64,
        changed_at: i64,
        detail: &str,
        noted: bool,
    ) -> Result<bool> {
        let mut tx = self.db.begin().await?;
        let r = sqlx::query(
            "UPDATE orders SET channel_changed_at = $1 WHERE store_id = $2 AND id = $3 AND channel_changed_at < $1",
        )
        .bind(changed_at)
        .bind(who.store_id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Ok(false);
        }
        if noted {
            let row = order_in(&mut tx, who.store_id, id).await?;
            event(&mut tx, who, id, "channel_changed", &row.state, &row.state, detail).await?;
        }
        tx.commit().await?;
        Ok(true)
    }
}

impl Repo {
    /// Gives an unlinked line of a marketplace order our SKU `item` (its snapshot; the line's
    /// price and quantity stay), with the order's money as `totals` now say it: one fewer
    /// unlinked line, the cost and profit with the SKU's cost. Told to the reports as a
    /// revision. False when the line was linked meanwhile.
    pub async fn link_line(
        &self,
        who: Actor,
        order_id: i64,
        item_id: i64,
        item: &Item,
        totals: &Totals,
    ) -> Result<bool> {
        let mut tx = self.db.begin().await?;
        let row = order_in(&mut tx, who.store_id, order_id).await?;
        let was: Option<String> =
            sqlx::query_scalar("SELECT sku_code FROM order_items WHERE id = $1 AND order_id = $2 AND sku_id = 0")
                .bind(item_id)
                .bind(order_id)
                .fetch_optional(&mut *tx)
                .await?;
        let Some(was) = was else { return Ok(false) };
        sqlx::query(
            "UPDATE order_items SET sku_id = $1, product_id = $2, product_name = $3, product_code = $4, sku_code = $5, \
             variant = $6, cost = $7, hs_code = $8, weight_g = $9 WHERE id = $10 AND order_id = $11 AND sku_id = 0",
        )
        .bind(item.sku_id)
        .bind(item.product_id)
        .bind(&item.product_name)
        .bind(&item.product_code)
        .bind(&item.sku_code)
        .bind(&item.variant)
        .bind(item.cost)
        .bind(&item.hs_code)
        .bind(item.weight_g)
        .bind(item_id)
        .bind(order_id)
        .execute(&mut *tx)
        .await?;
        let now = now_ms();
        sqlx::query(
            "UPDATE orders SET unlinked_items = unlinked_items - 1, cost_total = $1, net_ex_vat = $2, profit = $3, \
             estimated_weight_g = estimated_weight_g + $4, updated_at = $5, updated_by = $6, version = version + 1 \
             WHERE id = $7",
        )
        .bind(totals.cost_total)
        .bind(totals.net_ex_vat)
        .bind(totals.profit)
        .bind(item.weight_g.saturating_mul(item.quantity))
        .bind(now)
        .bind(who.user_id)
        .bind(order_id)
        .execute(&mut *tx)
        .await?;
        event(&mut tx, who, order_id, "sku_linked", &row.state, &row.state, &format!("{was} → {}", item.sku_code))
            .await?;
        let now_row = order_in(&mut tx, who.store_id, order_id).await?;
        let lines = items_in(&mut tx, order_id).await?;
        outbox::enqueue(
            &mut tx,
            who.store_id,
            who.user_id,
            &ev::OrderRevised {
                order_id,
                order_no: now_row.order_no.clone(),
                figures: Some(row_figures(&now_row, &lines, 0)),
            },
        )
        .await?;
        tx.commit().await?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::Row as _;

    /// A lookup by reference is answered from the reference index, not by reading every
    /// order of the store (the index is partial, so the query must name its condition).
    #[tokio::test]
    async fn lookups_by_reference_use_the_reference_index() {
        let t = bo_kit::testing::sqlite().await;
        t.db.migrate(&crate::MIGRATIONS_SQLITE, &crate::MIGRATIONS_POSTGRES).await.unwrap();
        let by_one = format!("SELECT {ORDER_COLUMNS} FROM orders WHERE {BY_REFERENCE}");
        for sql in [by_one, taken_sql(3)] {
            let plan = explain(&t.db, &sql).await;
            assert!(plan.iter().any(|d| d.contains("orders_reference")), "{sql}: {plan:?}");
        }
    }

    /// SQLite's plan of `sql` (its `$1` a store, `$2` a channel, the rest references).
    async fn explain(db: &bo_kit::db::Db, sql: &str) -> Vec<String> {
        let explain = format!("EXPLAIN QUERY PLAN {sql}");
        let mut q = sqlx::query(&explain).bind(1i64).bind("facebook");
        for i in 0..sql.matches('$').count().saturating_sub(2) {
            q = q.bind(format!("R-{i}"));
        }
        q.fetch_all(db.pool()).await.unwrap().iter().map(|r| r.get::<String, _>(3)).collect()
    }
}
