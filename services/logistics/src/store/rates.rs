//! International rate tables: the store's own, replaced whole.

use super::*;

impl Repo {
    /// Replaces the store's rate table.
    pub async fn save_rate_table(
        &self,
        store_id: i64,
        actor: i64,
        label: &str,
        sample: bool,
        t: &crate::rates::RateTable,
    ) -> Result<()> {
        let mut tx = self.db.begin().await?;
        for table in ["rate_tables", "rate_countries", "rate_zones", "rate_prices"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE store_id = $1")).bind(store_id).execute(&mut *tx).await?;
        }
        sqlx::query(
            "INSERT INTO rate_tables (store_id, label, is_sample, uploaded_by, uploaded_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(store_id)
        .bind(label)
        .bind(sample as i64)
        .bind(actor)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        for (i, c) in t.countries.iter().enumerate() {
            sqlx::query("INSERT INTO rate_countries (store_id, position, country, name) VALUES ($1, $2, $3, $4)")
                .bind(store_id)
                .bind(i as i64)
                .bind(&c.code)
                .bind(&c.name)
                .execute(&mut *tx)
                .await?;
        }
        for ((service, country), zone) in &t.zones {
            sqlx::query("INSERT INTO rate_zones (store_id, service, country, zone) VALUES ($1, $2, $3, $4)")
                .bind(store_id)
                .bind(service)
                .bind(country)
                .bind(zone)
                .execute(&mut *tx)
                .await?;
        }
        for ((service, zone), steps) in &t.prices {
            for (grams, price) in steps {
                sqlx::query(
                    "INSERT INTO rate_prices (store_id, service, zone, max_weight_g, price) VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(store_id)
                .bind(service)
                .bind(zone)
                .bind(grams)
                .bind(price)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// The store's rate table, if it loaded one.
    pub async fn rate_table(&self, store_id: i64) -> Result<Option<(RateTableRow, crate::rates::RateTable)>> {
        let Some(head) = sqlx::query_as::<_, RateTableRow>(
            "SELECT label, is_sample, uploaded_by, uploaded_at FROM rate_tables WHERE store_id = $1",
        )
        .bind(store_id)
        .fetch_optional(self.db.pool())
        .await?
        else {
            return Ok(None);
        };
        let mut t = crate::rates::RateTable::default();
        let countries: Vec<(String, String)> =
            sqlx::query_as("SELECT country, name FROM rate_countries WHERE store_id = $1 ORDER BY position")
                .bind(store_id)
                .fetch_all(self.db.pool())
                .await?;
        t.countries = countries.into_iter().map(|(code, name)| crate::rates::Country { code, name }).collect();
        let zones: Vec<(String, String, String)> =
            sqlx::query_as("SELECT service, country, zone FROM rate_zones WHERE store_id = $1")
                .bind(store_id)
                .fetch_all(self.db.pool())
                .await?;
        for (s, c, z) in zones {
            t.zones.insert((s, c), z);
        }
        let prices: Vec<(String, String, i64, i64)> = sqlx::query_as(
            "SELECT service, zone, max_weight_g, price FROM rate_prices WHERE store_id = $1 \
             ORDER BY service, zone, max_weight_g",
        )
        .bind(store_id)
        .fetch_all(self.db.pool())
        .await?;
        for (s, z, g, p) in prices {
            t.prices.entry((s, z)).or_default().push((g, p));
        }
        Ok(Some((head, t)))
    }
}
