//! Photos' SQL: added within the product's limit, ordered, deleted above the minimum.

use super::*;
use bo_kit::Code;

impl Repo {
    /// Records stored photos after the product's current ones (or replaces the size chart);
    /// returns the names of files no longer used.
    pub async fn add_photos(
        &self,
        who: Actor,
        product_id: i64,
        kind: &str,
        added: &[(String, i64, i64, i64)],
        max_photos: usize,
    ) -> Result<Vec<String>> {
        let mut tx = self.db.begin().await?;
        fetch(&mut tx, who.store_id, product_id).await?;
        let mut replaced = Vec::new();
        if kind == SIZE_CHART {
            replaced = sqlx::query_scalar("SELECT name FROM product_photos WHERE product_id = $1 AND kind = $2")
                .bind(product_id)
                .bind(SIZE_CHART)
                .fetch_all(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM product_photos WHERE product_id = $1 AND kind = $2")
                .bind(product_id)
                .bind(SIZE_CHART)
                .execute(&mut *tx)
                .await?;
        } else {
            let count: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM product_photos WHERE product_id = $1 AND kind = $2")
                    .bind(product_id)
                    .bind(PHOTO)
                    .fetch_one(&mut *tx)
                    .await?;
            if count as usize + added.len() > max_photos {
                return Err(Error::failed_precondition(Code::PhotoTooMany));
            }
        }
        let start: i64 = sqlx::query_scalar(
            "SELECT COALESCE(MAX(position) + 1, 0) FROM product_photos WHERE product_id = $1 AND kind = $2",
        )
        .bind(product_id)
        .bind(kind)
        .fetch_one(&mut *tx)
        .await?;
        for (i, (name, width, height, bytes)) in added.iter().enumerate() {
            sqlx::query(
                "INSERT INTO product_photos (store_id, product_id, name, kind, position, width, height, bytes, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(who.store_id)
            .bind(product_id)
            .bind(name)
            .bind(kind)
            .bind(start + i as i64)
            .bind(width)
            .bind(height)
            .bind(bytes)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        }
        let saved = fetch(&mut tx, who.store_id, product_id).await?;
        saved_event(&mut tx, who, &saved).await?;
        tx.commit().await?;
        Ok(replaced)
    }

    /// Puts the product's photos in the order of `ids` (every photo, once).
    pub async fn reorder_photos(&self, who: Actor, product_id: i64, ids: &[i64]) -> Result<ProductRecord> {
        let mut tx = self.db.begin().await?;
        let current = fetch(&mut tx, who.store_id, product_id).await?;
        let mut have: Vec<i64> = current.photos.iter().filter(|p| p.kind == PHOTO).map(|p| p.id).collect();
        let mut want = ids.to_vec();
        have.sort_unstable();
        want.sort_unstable();
        if have != want {
            return Err(Error::invalid_field("ids", "validation.photo_order"));
        }
        for (position, id) in ids.iter().enumerate() {
            sqlx::query("UPDATE product_photos SET position = $1 WHERE id = $2 AND product_id = $3")
                .bind(position as i64)
                .bind(id)
                .bind(product_id)
                .execute(&mut *tx)
                .await?;
        }
        let saved = fetch(&mut tx, who.store_id, product_id).await?;
        saved_event(&mut tx, who, &saved).await?;
        tx.commit().await?;
        Ok(saved)
    }

    /// Removes a photo; returns its stored name. A product never drops under `min_photos`
    /// photos this way (the size chart has no minimum).
    pub async fn delete_photo(&self, who: Actor, product_id: i64, id: i64, min_photos: usize) -> Result<String> {
        let mut tx = self.db.begin().await?;
        let product = fetch(&mut tx, who.store_id, product_id).await?;
        let (name, kind): (String, String) =
            sqlx::query_as("SELECT name, kind FROM product_photos WHERE id = $1 AND product_id = $2 AND store_id = $3")
                .bind(id)
                .bind(product_id)
                .bind(who.store_id)
                .fetch_optional(&mut *tx)
                .await?
                .ok_or_else(|| Error::not_found(Code::PhotoNotFound))?;
        if kind == PHOTO && product.photos.iter().filter(|p| p.kind == PHOTO).count() <= min_photos {
            return Err(Error::failed_precondition(Code::PhotoTooFew));
        }
        sqlx::query("DELETE FROM product_photos WHERE id = $1").bind(id).execute(&mut *tx).await?;
        let saved = fetch(&mut tx, who.store_id, product_id).await?;
        saved_event(&mut tx, who, &saved).await?;
        tx.commit().await?;
        Ok(name)
    }

    /// True when `name` is a photo the catalog knows.
    pub async fn photo_exists(&self, name: &str) -> Result<bool> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM product_photos WHERE name = $1")
            .bind(name)
            .fetch_one(self.db.pool())
            .await?;
        Ok(n > 0)
    }
}
