//! SQL of payment accounts: one code path for SQLite and PostgreSQL. Every change writes
//! its `payments.store_channel.saved` event in the same transaction.

use bo_kit::db::{Db, Tx};
use bo_kit::error::is_unique_violation;
use bo_kit::outbox;
use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::now_ms;
use bo_kit::{Error, Result};
use bo_proto::events::v1 as ev;
use bo_proto::payments::v1 as pb;
use bo_proto::Wire as _;
use sqlx::FromRow;

use crate::domain::{code, Account, MAX_CHANNELS};

/// The payments repository.
#[derive(Clone)]
pub struct Repo {
    pub(crate) db: Db,
}

/// A payment account row, with the number of open bills pointing at it.
#[derive(Debug, Clone, FromRow)]
pub struct ChannelRow {
    pub id: i64,
    pub store_id: i64,
    pub channel_type: String,
    pub country: String,
    pub bank_code: String,
    pub acc_name: String,
    pub acc_no: String,
    pub branch: String,
    pub email: String,
    pub fee_bps: i64,
    pub status: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub open_bills: i64,
}

const SELECT: &str = "SELECT c.id, c.store_id, c.channel_type, c.country, c.bank_code, c.acc_name, c.acc_no, \
     c.branch, c.email, c.fee_bps, c.status, c.created_at, c.updated_at, \
     (SELECT COUNT(*) FROM bill_channels b WHERE b.store_channel_id = c.id) AS open_bills \
     FROM store_channels c";

/// What a list is narrowed to.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Only this kind.
    pub channel_type: String,
    /// Name contains.
    pub acc_name: String,
    /// Exactly this account number.
    pub acc_no: String,
    /// Only this status.
    pub status: String,
}

fn duplicate(e: sqlx::Error) -> Error {
    if is_unique_violation(&e) {
        Error::conflict(code::DUPLICATE)
    } else {
        e.into()
    }
}

async fn saved(tx: &mut Tx, store_id: i64, actor: i64, row: &ChannelRow) -> Result<()> {
    outbox::enqueue(
        tx,
        store_id,
        actor,
        &ev::PaymentChannelSaved {
            store_channel_id: row.id,
            channel_type: row.channel_type.clone(),
            status: pb::ChannelStatus::number(&row.status),
        },
    )
    .await?;
    Ok(())
}

impl Repo {
    /// The repository on `db`.
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// The store's accounts, newest first, filtered and paged.
    pub async fn list(&self, store_id: i64, f: &Filter, page: PageRequest) -> Result<(Vec<ChannelRow>, Page)> {
        let mut cond = String::from(" WHERE c.store_id = $1");
        let mut args: Vec<String> = Vec::new();
        for (col, value, like) in [
            ("c.channel_type", &f.channel_type, false),
            ("c.acc_name", &f.acc_name, true),
            ("c.acc_no", &f.acc_no, false),
            ("c.status", &f.status, false),
        ] {
            if value.is_empty() {
                continue;
            }
            args.push(if like { format!("%{}%", value.to_lowercase()) } else { value.clone() });
            if like {
                cond.push_str(&format!(" AND LOWER({col}) LIKE ${}", args.len() + 1));
            } else {
                cond.push_str(&format!(" AND {col} = ${}", args.len() + 1));
            }
        }
        let count_sql = format!("SELECT COUNT(*) FROM store_channels c{cond}");
        let mut count = sqlx::query_scalar::<_, i64>(&count_sql).bind(store_id);
        for a in &args {
            count = count.bind(a.clone());
        }
        let total = count.fetch_one(self.db.pool()).await?;
        let page = page.resolve(total);
        let n = args.len();
        let sql = format!("{SELECT}{cond} ORDER BY c.id DESC LIMIT ${} OFFSET ${}", n + 2, n + 3);
        let mut q = sqlx::query_as::<_, ChannelRow>(&sql).bind(store_id);
        for a in &args {
            q = q.bind(a.clone());
        }
        let rows = q.bind(page.fetch).bind(page.offset).fetch_all(self.db.pool()).await?;
        Ok((rows, page))
    }

    /// One account of the store.
    pub async fn get(&self, store_id: i64, id: i64) -> Result<ChannelRow> {
        sqlx::query_as::<_, ChannelRow>(&format!("{SELECT} WHERE c.store_id = $1 AND c.id = $2"))
            .bind(store_id)
            .bind(id)
            .fetch_optional(self.db.pool())
            .await?
            .ok_or_else(|| Error::not_found(code::NOT_FOUND))
    }

    async fn get_in(tx: &mut Tx, store_id: i64, id: i64) -> Result<ChannelRow> {
        sqlx::query_as::<_, ChannelRow>(&format!("{SELECT} WHERE c.store_id = $1 AND c.id = $2"))
            .bind(store_id)
            .bind(id)
            .fetch_optional(&mut **tx)
            .await?
            .ok_or_else(|| Error::not_found(code::NOT_FOUND))
    }

    /// Adds an account (checked); a number already in the store is a conflict.
    pub async fn create(&self, store_id: i64, actor: i64, a: &Account) -> Result<ChannelRow> {
        let mut tx = self.db.begin().await?;
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM store_channels WHERE store_id = $1")
            .bind(store_id)
            .fetch_one(&mut *tx)
            .await?;
        if n >= MAX_CHANNELS {
            return Err(Error::failed_precondition(code::TOO_MANY));
        }
        let now = now_ms();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO store_channels (store_id, channel_type, country, bank_code, acc_name, acc_no, acc_no_key, \
             branch, email, fee_bps, status, created_by, updated_by, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13, $13) RETURNING id",
        )
        .bind(store_id)
        .bind(&a.channel_type)
        .bind(&a.country)
        .bind(&a.bank_code)
        .bind(&a.acc_name)
        .bind(&a.acc_no)
        .bind(a.number_key().map(str::to_string))
        .bind(&a.branch)
        .bind(&a.email)
        .bind(a.fee_bps)
        .bind(&a.status)
        .bind(actor)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(duplicate)?;
        let row = Self::get_in(&mut tx, store_id, id).await?;
        saved(&mut tx, store_id, actor, &row).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Replaces an account's fields; its kind stays.
    pub async fn update(&self, store_id: i64, actor: i64, id: i64, a: &Account) -> Result<ChannelRow> {
        let mut tx = self.db.begin().await?;
        let current = Self::get_in(&mut tx, store_id, id).await?;
        if current.channel_type != a.channel_type {
            return Err(Error::invalid_field("channel_type", "validation.payment_channel_type_fixed"));
        }
        sqlx::query(
            "UPDATE store_channels SET country = $3, bank_code = $4, acc_name = $5, acc_no = $6, acc_no_key = $7, \
             branch = $8, email = $9, fee_bps = $10, status = $11, updated_by = $12, updated_at = $13 \
             WHERE store_id = $1 AND id = $2",
        )
        .bind(store_id)
        .bind(id)
        .bind(&a.country)
        .bind(&a.bank_code)
        .bind(&a.acc_name)
        .bind(&a.acc_no)
        .bind(a.number_key().map(str::to_string))
        .bind(&a.branch)
        .bind(&a.email)
        .bind(a.fee_bps)
        .bind(&a.status)
        .bind(actor)
        .bind(now_ms())
        .execute(&mut *tx)
        .await
        .map_err(duplicate)?;
        let row = Self::get_in(&mut tx, store_id, id).await?;
        saved(&mut tx, store_id, actor, &row).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Sets the status of one account (`id`) or of every account of `kind`; answers how
    /// many changed.
    pub async fn set_status(
        &self,
        store_id: i64,
        actor: i64,
        id: Option<i64>,
        kind: Option<&str>,
        status: &str,
    ) -> Result<i64> {
        let mut tx = self.db.begin().await?;
        let ids: Vec<i64> = match (id, kind) {
            (Some(id), _) => vec![Self::get_in(&mut tx, store_id, id).await?.id],
            (None, Some(kind)) => {
                sqlx::query_scalar(
                    "SELECT id FROM store_channels WHERE store_id = $1 AND channel_type = $2 ORDER BY id",
                )
                .bind(store_id)
                .bind(kind)
                .fetch_all(&mut *tx)
                .await?
            }
            (None, None) => return Err(Error::invalid_field("channel_type", code::REQUIRED)),
        };
        let now = now_ms();
        let mut changed = 0;
        for id in ids {
            let r = sqlx::query(
                "UPDATE store_channels SET status = $3, updated_by = $4, updated_at = $5 \
                 WHERE store_id = $1 AND id = $2 AND status <> $3",
            )
            .bind(store_id)
            .bind(id)
            .bind(status)
            .bind(actor)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if bo_kit::db::changed(&r) {
                changed += 1;
                let row = Self::get_in(&mut tx, store_id, id).await?;
                saved(&mut tx, store_id, actor, &row).await?;
            }
        }
        tx.commit().await?;
        Ok(changed)
    }

    /// Deletes an account; refused while an open bill points at it.
    pub async fn delete(&self, store_id: i64, id: i64) -> Result<()> {
        let mut tx = self.db.begin().await?;
        let row = Self::get_in(&mut tx, store_id, id).await?;
        if row.open_bills > 0 {
            return Err(Error::failed_precondition(code::IN_USE));
        }
        sqlx::query("DELETE FROM store_channels WHERE store_id = $1 AND id = $2")
            .bind(store_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// A bill opened (the orders service's `orders.bill.opened`): it points at the
    /// store's active accounts its page shows the buyer (every kind but COD). Nothing
    /// changes when a newer revision of the bill was seen already.
    pub async fn bill_opened(tx: &mut Tx, store_id: i64, bill_id: i64, revision: i64) -> Result<()> {
        if !Self::newer_revision(tx, store_id, bill_id, revision).await? {
            return Ok(());
        }
        sqlx::query(
            "INSERT INTO bill_channels (store_id, bill_id, store_channel_id) \
             SELECT store_id, $2, id FROM store_channels WHERE store_id = $1 AND status = $3 AND channel_type <> $4 \
             ON CONFLICT (bill_id, store_channel_id) DO NOTHING",
        )
        .bind(store_id)
        .bind(bill_id)
        .bind(crate::domain::ACTIVE)
        .bind(crate::domain::COD)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// A bill was paid, expired or cancelled (`orders.bill.closed`): it points at nothing.
    pub async fn bill_closed(tx: &mut Tx, store_id: i64, bill_id: i64, revision: i64) -> Result<()> {
        if !Self::newer_revision(tx, store_id, bill_id, revision).await? {
            return Ok(());
        }
        sqlx::query("DELETE FROM bill_channels WHERE store_id = $1 AND bill_id = $2")
            .bind(store_id)
            .bind(bill_id)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    /// Records `revision` as the bill's newest; false when it is not newer than one seen.
    async fn newer_revision(tx: &mut Tx, store_id: i64, bill_id: i64, revision: i64) -> Result<bool> {
        let kept = sqlx::query(
            "INSERT INTO bill_revisions (bill_id, store_id, revision) VALUES ($1, $2, $3) \
             ON CONFLICT (bill_id) DO UPDATE SET revision = excluded.revision \
             WHERE bill_revisions.revision < excluded.revision",
        )
        .bind(bill_id)
        .bind(store_id)
        .bind(revision)
        .execute(&mut **tx)
        .await?;
        Ok(kept.rows_affected() == 1)
    }
}
