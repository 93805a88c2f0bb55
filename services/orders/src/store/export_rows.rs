//! The orders an export writes (the reports service builds the file): a store's orders of a
//! date range and states, counted, and read a page at a time by id (never the whole range at
//! once).

use bo_kit::Result;

use super::{OrderRow, Repo, ORDER_COLUMNS};

/// The filter of an export's orders.
fn where_clause(states: &[String]) -> String {
    let mut sql = "store_id = $1 AND created_at >= $2 AND created_at < $3".to_string();
    if !states.is_empty() {
        let list: Vec<String> = (0..states.len()).map(|i| format!("${}", i + 4)).collect();
        sql.push_str(&format!(" AND state IN ({})", list.join(", ")));
    }
    sql
}

impl Repo {
    /// How many orders of the store a range and states hold.
    pub async fn count_for_export(&self, store_id: i64, from: i64, to: i64, states: &[String]) -> Result<i64> {
        let sql = format!("SELECT COUNT(*) FROM orders WHERE {}", where_clause(states));
        let mut q = sqlx::query_scalar(&sql).bind(store_id).bind(from).bind(to);
        for s in states {
            q = q.bind(s);
        }
        Ok(q.fetch_one(self.pool()).await?)
    }

    /// The next page of a range's orders after id `after`, oldest first.
    pub async fn export_page(
        &self,
        store_id: i64,
        from: i64,
        to: i64,
        states: &[String],
        after: i64,
        limit: i64,
    ) -> Result<Vec<OrderRow>> {
        let n = states.len() + 4;
        let sql = format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE {} AND id > ${n} ORDER BY id LIMIT ${}",
            where_clause(states),
            n + 1
        );
        let mut q = sqlx::query_as::<_, OrderRow>(&sql).bind(store_id).bind(from).bind(to);
        for s in states {
            q = q.bind(s);
        }
        Ok(q.bind(after).bind(limit).fetch_all(self.pool()).await?)
    }
}
