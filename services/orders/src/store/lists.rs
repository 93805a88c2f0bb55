//! The order list's SQL: a page by filter, counts per state (kept in `order_counts`,
//! checked against a recount), sums and countries.

use super::*;

impl Repo {
    /// Orders, newest first, paged in the database.
    pub async fn list(&self, store_id: i64, f: &Filter, page: PageRequest) -> Result<(Vec<OrderRow>, Page)> {
        let total =
            if f.states_only() { self.kept_total(store_id, &f.states).await? } else { self.count(store_id, f).await? };
        let page = page.resolve(total);
        let (clause, binds) = f.clause(true);
        let n = binds.len();
        // The page's keys come off an index first; the rows are read by key.
        let sql = format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE id IN (SELECT id FROM orders WHERE store_id = $1{clause} \
             ORDER BY id DESC LIMIT ${} OFFSET ${}) ORDER BY id DESC",
            n + 2,
            n + 3
        );
        let q = bind_all!(sqlx::query_as::<_, OrderRow>(&sql).bind(store_id), &binds);
        let rows = q.bind(page.fetch).bind(page.offset).fetch_all(self.db.pool()).await?;
        Ok((rows, page))
    }

    pub(super) async fn kept_total(&self, store_id: i64, states: &[String]) -> Result<i64> {
        let counts = self.kept_counts(store_id).await?;
        Ok(if states.is_empty() {
            counts.values().sum()
        } else {
            let mut wanted: Vec<&String> = states.iter().collect();
            wanted.sort();
            wanted.dedup();
            wanted.iter().map(|s| counts.get(s.as_str()).copied().unwrap_or(0)).sum()
        })
    }

    /// The kept counts per state.
    pub async fn kept_counts(&self, store_id: i64) -> Result<HashMap<String, i64>> {
        let rows: Vec<(String, i64)> = sqlx::query_as("SELECT state, n FROM order_counts WHERE store_id = $1")
            .bind(store_id)
            .fetch_all(self.db.pool())
            .await?;
        Ok(rows.into_iter().collect())
    }

    /// Orders matching a filter.
    pub async fn count(&self, store_id: i64, f: &Filter) -> Result<i64> {
        let (clause, binds) = f.clause(true);
        let sql = format!("SELECT COUNT(*) FROM orders WHERE store_id = $1{clause}");
        let q = bind_all!(sqlx::query_scalar::<_, i64>(&sql).bind(store_id), &binds);
        Ok(q.fetch_one(self.db.pool()).await?)
    }

    /// Orders per state matching a filter (its states ignored).
    pub async fn counts(&self, store_id: i64, f: &Filter) -> Result<HashMap<String, i64>> {
        if f.states_only() {
            return self.kept_counts(store_id).await;
        }
        let (clause, binds) = f.clause(false);
        let sql = format!("SELECT state, COUNT(*) FROM orders WHERE store_id = $1{clause} GROUP BY state");
        let q = bind_all!(sqlx::query_as::<_, (String, i64)>(&sql).bind(store_id), &binds);
        Ok(q.fetch_all(self.db.pool()).await?.into_iter().collect())
    }

    /// What orders matching a filter come to: (count, net, total, profit, shipping).
    pub async fn sums(&self, store_id: i64, f: &Filter) -> Result<(i64, i64, i64, i64, i64)> {
        let (clause, binds) = f.clause(true);
        let sql = format!(
            "SELECT COUNT(*), CAST(COALESCE(SUM(net), 0) AS BIGINT), CAST(COALESCE(SUM(total), 0) AS BIGINT), \
             CAST(COALESCE(SUM(profit), 0) AS BIGINT), CAST(COALESCE(SUM(shipping_charge + shipping_charge_inter), 0) AS BIGINT) \
             FROM orders WHERE store_id = $1{clause}"
        );
        let q = bind_all!(sqlx::query_as::<_, (i64, i64, i64, i64, i64)>(&sql).bind(store_id), &binds);
        Ok(q.fetch_one(self.db.pool()).await?)
    }

    /// Countries orders matching a filter ship to, most orders first.
    pub async fn countries(&self, store_id: i64, f: &Filter) -> Result<Vec<(String, i64)>> {
        let (clause, binds) = f.clause(true);
        let sql = format!(
            "SELECT ship_country, COUNT(*) AS n FROM orders WHERE store_id = $1{clause} GROUP BY ship_country \
             ORDER BY n DESC, ship_country"
        );
        let q = bind_all!(sqlx::query_as::<_, (String, i64)>(&sql).bind(store_id), &binds);
        Ok(q.fetch_all(self.db.pool()).await?)
    }

    /// Recounts orders per state (tests compare it with the kept counts).
    pub async fn recount(&self, store_id: i64) -> Result<HashMap<String, i64>> {
        let rows: Vec<(String, i64)> =
            sqlx::query_as("SELECT state, COUNT(*) FROM orders WHERE store_id = $1 GROUP BY state")
                .bind(store_id)
                .fetch_all(self.db.pool())
                .await?;
        Ok(rows.into_iter().collect())
    }
}
