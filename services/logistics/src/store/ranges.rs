//! Tracking-number ranges: added without overlap, numbers handed out once.

use super::*;

impl Repo {
    /// The store's ranges, oldest first (optionally of one provider).
    pub async fn ranges(&self, store_id: i64, provider: &str) -> Result<Vec<RangeRow>> {
        Ok(sqlx::query_as::<_, RangeRow>(&format!(
            "SELECT {RANGE_COLUMNS} FROM tracking_ranges WHERE store_id = $1 AND ($2 = '' OR provider = $2) ORDER BY id"
        ))
        .bind(store_id)
        .bind(provider)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Registers a range; one that overlaps a range of the same provider and prefix is
    /// refused.
    pub async fn add_range(&self, store_id: i64, actor: i64, r: &domain::tracking::Range) -> Result<RangeRow> {
        use domain::tracking::{code as tc, MAX_RANGES};
        let mut tx = self.db.begin().await?;
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM tracking_ranges WHERE store_id = $1")
            .bind(store_id)
            .fetch_one(&mut *tx)
            .await?;
        if n >= MAX_RANGES {
            return Err(Error::failed_precondition(tc::TOO_MANY));
        }
        let overlap: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM tracking_ranges WHERE store_id = $1 AND provider = $2 AND prefix = $3 \
             AND first_serial <= $5 AND last_serial >= $4",
        )
        .bind(store_id)
        .bind(r.provider)
        .bind(&r.prefix)
        .bind(r.first)
        .bind(r.last)
        .fetch_one(&mut *tx)
        .await?;
        if overlap > 0 {
            return Err(Error::conflict(tc::OVERLAP));
        }
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO tracking_ranges (store_id, provider, prefix, first_serial, last_serial, next_serial, width, \
             created_by, created_at) VALUES ($1, $2, $3, $4, $5, $4, $6, $7, $8) RETURNING id",
        )
        .bind(store_id)
        .bind(r.provider)
        .bind(&r.prefix)
        .bind(r.first)
        .bind(r.last)
        .bind(r.width)
        .bind(actor)
        .bind(now_ms())
        .fetch_one(&mut *tx)
        .await?;
        let row = sqlx::query_as::<_, RangeRow>(&format!("SELECT {RANGE_COLUMNS} FROM tracking_ranges WHERE id = $1"))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Hands out `count` numbers of `provider`, oldest range first, each by a conditional
    /// update so no two callers get the same serial; all or none. With a reference, a repeat
    /// answers the numbers it got before (`true`).
    pub async fn reserve_numbers(
        &self,
        store_id: i64,
        actor: i64,
        provider: &str,
        count: i64,
        reference: &str,
    ) -> Result<(Vec<String>, bool)> {
        let mut tx = self.db.begin().await?;
        if !reference.is_empty() {
            let r = sqlx::query(
                "INSERT INTO tracking_reservations (store_id, provider, reference) VALUES ($1, $2, $3) \
                 ON CONFLICT (store_id, provider, reference) DO NOTHING",
            )
            .bind(store_id)
            .bind(provider)
            .bind(reference)
            .execute(&mut *tx)
            .await?;
            if !bo_kit::db::changed(&r) {
                let numbers: Vec<String> = sqlx::query_scalar(
                    "SELECT number FROM tracking_numbers WHERE store_id = $1 AND provider = $2 AND reference = $3 \
                     ORDER BY id",
                )
                .bind(store_id)
                .bind(provider)
                .bind(reference)
                .fetch_all(&mut *tx)
                .await?;
                tx.commit().await?;
                return Ok((numbers, true));
            }
        }
        let now = now_ms();
        let mut numbers = Vec::with_capacity(count as usize);
        while (numbers.len() as i64) < count {
            let taken: Option<(i64, i64, String, i64)> = sqlx::query_as(
                "UPDATE tracking_ranges SET next_serial = next_serial + 1 \
                 WHERE id = (SELECT id FROM tracking_ranges WHERE store_id = $1 AND provider = $2 \
                             AND next_serial <= last_serial ORDER BY id LIMIT 1) \
                 AND next_serial <= last_serial RETURNING id, next_serial - 1, prefix, width",
            )
            .bind(store_id)
            .bind(provider)
            .fetch_optional(&mut *tx)
            .await?;
            let Some((range_id, serial, prefix, width)) = taken else {
                // Another caller took the range's last number between the pick and the
                // update; try the next range unless none has numbers left.
                let left: i64 = sqlx::query_scalar(
                    "SELECT COUNT(*) FROM tracking_ranges WHERE store_id = $1 AND provider = $2 \
                     AND next_serial <= last_serial",
                )
                .bind(store_id)
                .bind(provider)
                .fetch_one(&mut *tx)
                .await?;
                if left == 0 {
                    return Err(Error::failed_precondition(domain::tracking::code::EXHAUSTED));
                }
                continue;
            };
            let number = domain::tracking::number(provider, &prefix, width, serial);
            sqlx::query(
                "INSERT INTO tracking_numbers (store_id, range_id, provider, number, reference, reserved_by, reserved_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(store_id)
            .bind(range_id)
            .bind(provider)
            .bind(&number)
            .bind(reference)
            .bind(actor)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            numbers.push(number);
        }
        tx.commit().await?;
        Ok((numbers, false))
    }
}
