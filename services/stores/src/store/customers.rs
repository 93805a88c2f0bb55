//! Customers' SQL and their address books: one default address, never the last one removed.

use super::*;
use bo_kit::Code;

impl Repo {
    /// A store's customers matching `search` (name or phone), newest first, paged.
    pub async fn customers(&self, store_id: i64, search: &str, page: PageRequest) -> Result<(Vec<CustomerRow>, Page)> {
        let search = search.trim();
        let (filter, name_pattern, tel_pattern) = if search.is_empty() {
            ("", String::new(), String::new())
        } else {
            let digits: String = search.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
            let tel = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                format!("%{}%", like_escape(&digits))
            } else {
                // Never matches a phone: phones are digits only.
                "\u{1}".to_string()
            };
            (
                " AND (LOWER(c.name) LIKE $2 ESCAPE '\\' OR c.tel LIKE $3 ESCAPE '\\')",
                format!("%{}%", like_escape(&search.to_lowercase())),
                tel,
            )
        };
        let count_sql = format!(
            "SELECT COUNT(*) FROM customers c WHERE c.store_id = $1{}",
            if filter.is_empty() { "" } else { filter }
        );
        let mut count = sqlx::query_scalar::<_, i64>(&count_sql).bind(store_id);
        if !filter.is_empty() {
            count = count.bind(&name_pattern).bind(&tel_pattern);
        }
        let total = count.fetch_one(self.db.pool()).await?;
        let page = page.resolve(total);
        let (limit_at, offset_at) = if filter.is_empty() { (2, 3) } else { (4, 5) };
        let sql = format!(
            "{CUSTOMER_SELECT} WHERE c.store_id = $1{filter} ORDER BY c.id DESC LIMIT ${limit_at} OFFSET ${offset_at}"
        );
        let mut q = sqlx::query_as::<_, CustomerRow>(&sql).bind(store_id);
        if !filter.is_empty() {
            q = q.bind(&name_pattern).bind(&tel_pattern);
        }
        let rows = q.bind(page.fetch).bind(page.offset).fetch_all(self.db.pool()).await?;
        Ok((rows, page))
    }

    /// One customer of a store.
    pub async fn customer(&self, store_id: i64, id: i64) -> Result<CustomerRow> {
        let mut conn = self.db.pool().acquire().await?;
        fetch_customer(&mut conn, store_id, id).await
    }

    /// Creates a customer with its default address.
    pub async fn create_customer(
        &self,
        store_id: i64,
        actor: i64,
        c: CustomerDraft,
        a: AddressDraft,
    ) -> Result<CustomerRow> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO customers (store_id, name, tel, email, facebook, line, created_by, updated_by, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $8) RETURNING id",
        )
        .bind(store_id)
        .bind(&c.name)
        .bind(&c.tel)
        .bind(&c.email)
        .bind(&c.facebook)
        .bind(&c.line)
        .bind(actor)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(phone_conflict)?;
        insert_address(&mut tx, store_id, id, actor, &a, true, now).await?;
        let row = fetch_customer(&mut tx, store_id, id).await?;
        history(&mut tx, store_id, id, "created", actor, "").await?;
        outbox::enqueue(&mut tx, store_id, actor, &ev::CustomerCreated { customer: Some(customer_event(&row)) })
            .await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Changes a customer; `address` (already validated) replaces its default address.
    pub async fn update_customer(
        &self,
        store_id: i64,
        actor: i64,
        id: i64,
        c: CustomerDraft,
        address: Option<AddressDraft>,
    ) -> Result<CustomerRow> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        let changed = sqlx::query(
            "UPDATE customers SET name = $1, tel = $2, email = $3, facebook = $4, line = $5, updated_by = $6, \
             updated_at = $7 WHERE store_id = $8 AND id = $9",
        )
        .bind(&c.name)
        .bind(&c.tel)
        .bind(&c.email)
        .bind(&c.facebook)
        .bind(&c.line)
        .bind(actor)
        .bind(now)
        .bind(store_id)
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(phone_conflict)?;
        if changed.rows_affected() == 0 {
            return Err(Error::not_found(Code::CustomerNotFound));
        }
        if let Some(a) = address {
            let default_id: i64 =
                sqlx::query_scalar("SELECT id FROM customer_addresses WHERE customer_id = $1 AND is_default = 1")
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?;
            write_address(&mut tx, default_id, actor, &a, now).await?;
        }
        let row = fetch_customer(&mut tx, store_id, id).await?;
        history(&mut tx, store_id, id, "updated", actor, "").await?;
        customer_updated(&mut tx, &row, actor).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Deletes a customer and its addresses.
    pub async fn delete_customer(&self, store_id: i64, actor: i64, id: i64) -> Result<()> {
        let mut tx = self.db.begin().await?;
        sqlx::query("DELETE FROM customer_addresses WHERE store_id = $1 AND customer_id = $2")
            .bind(store_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let gone = sqlx::query("DELETE FROM customers WHERE store_id = $1 AND id = $2")
            .bind(store_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if gone.rows_affected() == 0 {
            return Err(Error::not_found(Code::CustomerNotFound));
        }
        history(&mut tx, store_id, id, "deleted", actor, "").await?;
        outbox::enqueue(&mut tx, store_id, actor, &ev::CustomerDeleted { customer_id: id }).await?;
        tx.commit().await?;
        Ok(())
    }

    // ---- addresses ----

    /// A customer's addresses, default first, paged.
    pub async fn addresses(
        &self,
        store_id: i64,
        customer_id: i64,
        page: PageRequest,
    ) -> Result<(Vec<AddressRow>, Page)> {
        self.customer(store_id, customer_id).await?;
        let total: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM customer_addresses WHERE store_id = $1 AND customer_id = $2")
                .bind(store_id)
                .bind(customer_id)
                .fetch_one(self.db.pool())
                .await?;
        let page = page.resolve(total);
        let rows = sqlx::query_as::<_, AddressRow>(&format!(
            "SELECT {ADDRESS_COLUMNS} FROM customer_addresses WHERE store_id = $1 AND customer_id = $2 \
             ORDER BY is_default DESC, id LIMIT $3 OFFSET $4"
        ))
        .bind(store_id)
        .bind(customer_id)
        .bind(page.fetch)
        .bind(page.offset)
        .fetch_all(self.db.pool())
        .await?;
        Ok((rows, page))
    }

    /// One address of a customer.
    pub async fn address(&self, store_id: i64, customer_id: i64, id: i64) -> Result<AddressRow> {
        let mut conn = self.db.pool().acquire().await?;
        fetch_address(&mut conn, store_id, customer_id, id).await
    }

    /// A customer's default address.
    pub async fn default_address(&self, store_id: i64, customer_id: i64) -> Result<AddressRow> {
        sqlx::query_as::<_, AddressRow>(&format!(
            "SELECT {ADDRESS_COLUMNS} FROM customer_addresses WHERE store_id = $1 AND customer_id = $2 AND is_default = 1"
        ))
        .bind(store_id)
        .bind(customer_id)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or_else(|| Error::not_found(Code::AddressNotFound))
    }

    /// Adds an address (validated); the first, or one asked to be, becomes the default.
    pub async fn create_address(
        &self,
        store_id: i64,
        actor: i64,
        customer_id: i64,
        a: AddressDraft,
        make_default: bool,
    ) -> Result<AddressRow> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        fetch_customer(&mut tx, store_id, customer_id).await?;
        if make_default {
            clear_default(&mut tx, customer_id).await?;
        }
        let has_default: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM customer_addresses WHERE customer_id = $1 AND is_default = 1")
                .bind(customer_id)
                .fetch_one(&mut *tx)
                .await?;
        let id = insert_address(&mut tx, store_id, customer_id, actor, &a, has_default == 0, now).await?;
        touch_customer(&mut tx, store_id, customer_id, actor, now).await?;
        let row = fetch_address(&mut tx, store_id, customer_id, id).await?;
        history(&mut tx, store_id, customer_id, "address_added", actor, &id.to_string()).await?;
        let customer = fetch_customer(&mut tx, store_id, customer_id).await?;
        customer_updated(&mut tx, &customer, actor).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Replaces an address's fields (validated by the caller from the current row).
    pub async fn update_address(
        &self,
        store_id: i64,
        actor: i64,
        customer_id: i64,
        id: i64,
        a: AddressDraft,
    ) -> Result<AddressRow> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        fetch_address(&mut tx, store_id, customer_id, id).await?;
        write_address(&mut tx, id, actor, &a, now).await?;
        touch_customer(&mut tx, store_id, customer_id, actor, now).await?;
        let row = fetch_address(&mut tx, store_id, customer_id, id).await?;
        history(&mut tx, store_id, customer_id, "address_updated", actor, &id.to_string()).await?;
        let customer = fetch_customer(&mut tx, store_id, customer_id).await?;
        customer_updated(&mut tx, &customer, actor).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Deletes an address; the last one cannot go, and the default moves to the oldest
    /// remaining address.
    pub async fn delete_address(&self, store_id: i64, actor: i64, customer_id: i64, id: i64) -> Result<()> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        let row = fetch_address(&mut tx, store_id, customer_id, id).await?;
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM customer_addresses WHERE customer_id = $1")
            .bind(customer_id)
            .fetch_one(&mut *tx)
            .await?;
        if count <= 1 {
            return Err(Error::failed_precondition(Code::AddressLastCannotDelete));
        }
        sqlx::query("DELETE FROM customer_addresses WHERE id = $1").bind(id).execute(&mut *tx).await?;
        if row.is_default == 1 {
            sqlx::query(
                "UPDATE customer_addresses SET is_default = 1 WHERE id = \
                 (SELECT MIN(id) FROM customer_addresses WHERE customer_id = $1)",
            )
            .bind(customer_id)
            .execute(&mut *tx)
            .await?;
        }
        touch_customer(&mut tx, store_id, customer_id, actor, now).await?;
        history(&mut tx, store_id, customer_id, "address_deleted", actor, &id.to_string()).await?;
        let customer = fetch_customer(&mut tx, store_id, customer_id).await?;
        customer_updated(&mut tx, &customer, actor).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Makes an address the default one.
    pub async fn set_default_address(
        &self,
        store_id: i64,
        actor: i64,
        customer_id: i64,
        id: i64,
    ) -> Result<AddressRow> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        fetch_address(&mut tx, store_id, customer_id, id).await?;
        clear_default(&mut tx, customer_id).await?;
        sqlx::query("UPDATE customer_addresses SET is_default = 1, updated_by = $1, updated_at = $2 WHERE id = $3")
            .bind(actor)
            .bind(now)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        touch_customer(&mut tx, store_id, customer_id, actor, now).await?;
        let row = fetch_address(&mut tx, store_id, customer_id, id).await?;
        history(&mut tx, store_id, customer_id, "default_address_changed", actor, &id.to_string()).await?;
        let customer = fetch_customer(&mut tx, store_id, customer_id).await?;
        customer_updated(&mut tx, &customer, actor).await?;
        tx.commit().await?;
        Ok(row)
    }

    // ---- idempotency ----
}
