//! SQL of shipping channels and COD accounts: one code path for SQLite and PostgreSQL. A
//! channel's limit and COD account are checked inside the transaction that writes it, and
//! every change writes its `logistics.store_channel.saved` event there too.

use bo_kit::db::{Db, Tx};
use bo_kit::error::is_unique_violation;
use bo_kit::outbox;
use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::now_ms;
use bo_kit::{Error, Result};
use bo_proto::events::v1 as ev;
use bo_proto::logistics::v1 as pb;
use bo_proto::Wire as _;
use sqlx::FromRow;

use crate::domain::{self, code, Bracket, Channel};

mod ranges;
mod rates;
mod shipments;

/// The logistics repository.
#[derive(Clone)]
pub struct Repo {
    pub(crate) db: Db,
    max_channels: i64,
}

/// A channel row.
#[derive(Debug, Clone, FromRow)]
pub struct ChannelRow {
    pub id: i64,
    pub store_id: i64,
    pub warehouse_id: i64,
    pub logistic_type: String,
    pub name: String,
    pub provider: String,
    pub pricing_method: String,
    pub price: i64,
    pub brackets: String,
    pub free_over: i64,
    pub cod: i64,
    pub status: String,
    pub created_at: i64,
    pub updated_at: i64,
}

impl ChannelRow {
    pub(crate) fn brackets(&self) -> Vec<Bracket> {
        serde_json::from_str(&self.brackets).unwrap_or_default()
    }

    /// As the domain's channel, to price with.
    pub fn channel(&self) -> Channel {
        let t = domain::carrier(&self.provider);
        Channel {
            warehouse_id: self.warehouse_id,
            logistic_type: if self.logistic_type == domain::INTERNATIONAL {
                domain::INTERNATIONAL
            } else {
                domain::DOMESTIC
            },
            name: self.name.clone(),
            provider: t.map(|c| c.code).unwrap_or_default(),
            price: self.price,
            method: domain::METHODS.iter().find(|m| **m == self.pricing_method).copied().unwrap_or(domain::FLAT),
            brackets: self.brackets(),
            free_over: self.free_over,
            cod: self.cod != 0,
            status: if self.status == domain::INACTIVE { domain::INACTIVE } else { domain::ACTIVE },
        }
    }
}

/// A COD account row.
#[derive(Debug, Clone, FromRow)]
pub struct ProviderRow {
    pub id: i64,
    pub provider: String,
    pub cod_account_no: String,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLUMNS: &str = "id, store_id, warehouse_id, logistic_type, name, provider, pricing_method, price, brackets, \
     free_over, cod, status, created_at, updated_at";

/// Which channel.
#[derive(Debug, Clone)]
pub enum Ref {
    /// By id.
    Id(i64),
    /// An international channel by its provider and warehouse.
    Inter { provider: String, warehouse_id: i64 },
}

/// What a list is narrowed to.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub warehouse_id: i64,
    pub provider: String,
    pub logistic_type: String,
    pub status: String,
}

fn inter_key(c: &Channel) -> Option<String> {
    c.international().then(|| format!("{}:{}", c.warehouse_id, c.provider))
}

fn brackets_json(c: &Channel) -> String {
    serde_json::to_string(&c.brackets).unwrap_or_else(|_| "[]".into())
}

fn unique(e: sqlx::Error) -> Error {
    if is_unique_violation(&e) {
        Error::conflict(code::INTER_DUPLICATE)
    } else {
        e.into()
    }
}

async fn saved(tx: &mut Tx, store_id: i64, actor: i64, row: &ChannelRow) -> Result<()> {
    outbox::enqueue(
        tx,
        store_id,
        actor,
        &ev::LogisticChannelSaved {
            store_channel_id: row.id,
            provider: row.provider.clone(),
            status: pb::ChannelStatus::number(&row.status),
        },
    )
    .await?;
    Ok(())
}

/// COD needs the store's COD account with the channel's provider ('missing COD number').
async fn cod_account(tx: &mut Tx, store_id: i64, c: &Channel) -> Result<()> {
    if !c.cod {
        return Ok(());
    }
    let found: Option<i64> = sqlx::query_scalar("SELECT id FROM store_providers WHERE store_id = $1 AND provider = $2")
        .bind(store_id)
        .bind(c.provider)
        .fetch_optional(&mut **tx)
        .await?;
    found.map(|_| ()).ok_or_else(|| Error::failed_precondition(code::COD_ACCOUNT_MISSING))
}

impl Repo {
    /// The repository on `db`, allowing `max_channels` channels per store.
    pub fn new(db: Db, max_channels: i64) -> Self {
        Self { db, max_channels }
    }

    /// The store's channels by warehouse, domestic first, then by name.
    pub async fn list(&self, store_id: i64, f: &Filter, page: PageRequest) -> Result<(Vec<ChannelRow>, Page)> {
        let mut cond = String::from(" WHERE store_id = $1");
        let mut texts: Vec<String> = Vec::new();
        if f.warehouse_id > 0 {
            cond.push_str(&format!(" AND warehouse_id = {}", f.warehouse_id));
        }
        for (col, v) in [("provider", &f.provider), ("logistic_type", &f.logistic_type), ("status", &f.status)] {
            if !v.is_empty() {
                texts.push(v.clone());
                cond.push_str(&format!(" AND {col} = ${}", texts.len() + 1));
            }
        }
        let count_sql = format!("SELECT COUNT(*) FROM store_channels{cond}");
        let mut count = sqlx::query_scalar::<_, i64>(&count_sql).bind(store_id);
        for t in &texts {
            count = count.bind(t.clone());
        }
        let page = page.resolve(count.fetch_one(self.db.pool()).await?);
        let n = texts.len();
        let sql = format!(
            "SELECT {COLUMNS} FROM store_channels{cond} ORDER BY warehouse_id, logistic_type, name, id LIMIT ${} OFFSET ${}",
            n + 2,
            n + 3
        );
        let mut q = sqlx::query_as::<_, ChannelRow>(&sql).bind(store_id);
        for t in &texts {
            q = q.bind(t.clone());
        }
        Ok((q.bind(page.fetch).bind(page.offset).fetch_all(self.db.pool()).await?, page))
    }

    async fn find(tx: &mut Tx, store_id: i64, r: &Ref) -> Result<ChannelRow> {
        let row = match r {
            Ref::Id(id) => {
                sqlx::query_as::<_, ChannelRow>(&format!(
                    "SELECT {COLUMNS} FROM store_channels WHERE store_id = $1 AND id = $2"
                ))
                .bind(store_id)
                .bind(*id)
                .fetch_optional(&mut **tx)
                .await?
            }
            Ref::Inter { provider, warehouse_id } => {
                sqlx::query_as::<_, ChannelRow>(&format!(
                    "SELECT {COLUMNS} FROM store_channels WHERE store_id = $1 AND inter_key = $2"
                ))
                .bind(store_id)
                .bind(format!("{warehouse_id}:{provider}"))
                .fetch_optional(&mut **tx)
                .await?
            }
        };
        row.ok_or_else(|| Error::not_found(code::NOT_FOUND))
    }

    /// One channel.
    pub async fn get(&self, store_id: i64, r: &Ref) -> Result<ChannelRow> {
        let mut tx = self.db.begin().await?;
        let row = Self::find(&mut tx, store_id, r).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Adds a channel (checked; its warehouse confirmed by the caller).
    pub async fn create(&self, store_id: i64, actor: i64, c: &Channel) -> Result<ChannelRow> {
        let mut tx = self.db.begin().await?;
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM store_channels WHERE store_id = $1")
            .bind(store_id)
            .fetch_one(&mut *tx)
            .await?;
        if n >= self.max_channels {
            return Err(Error::failed_precondition(code::TOO_MANY));
        }
        cod_account(&mut tx, store_id, c).await?;
        let now = now_ms();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO store_channels (store_id, warehouse_id, logistic_type, name, provider, pricing_method, price, \
             brackets, free_over, cod, status, inter_key, created_by, updated_by, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14, $14) RETURNING id",
        )
        .bind(store_id)
        .bind(c.warehouse_id)
        .bind(c.logistic_type)
        .bind(&c.name)
        .bind(c.provider)
        .bind(c.method)
        .bind(c.price)
        .bind(brackets_json(c))
        .bind(c.free_over)
        .bind(c.cod as i64)
        .bind(c.status)
        .bind(inter_key(c))
        .bind(actor)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(unique)?;
        let row = Self::find(&mut tx, store_id, &Ref::Id(id)).await?;
        saved(&mut tx, store_id, actor, &row).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Replaces a channel's fields.
    pub async fn update(&self, store_id: i64, actor: i64, r: &Ref, c: &Channel) -> Result<ChannelRow> {
        let mut tx = self.db.begin().await?;
        let current = Self::find(&mut tx, store_id, r).await?;
        cod_account(&mut tx, store_id, c).await?;
        sqlx::query(
            "UPDATE store_channels SET warehouse_id = $3, logistic_type = $4, name = $5, provider = $6, \
             pricing_method = $7, price = $8, brackets = $9, free_over = $10, cod = $11, status = $12, inter_key = $13, \
             updated_by = $14, updated_at = $15 WHERE store_id = $1 AND id = $2",
        )
        .bind(store_id)
        .bind(current.id)
        .bind(c.warehouse_id)
        .bind(c.logistic_type)
        .bind(&c.name)
        .bind(c.provider)
        .bind(c.method)
        .bind(c.price)
        .bind(brackets_json(c))
        .bind(c.free_over)
        .bind(c.cod as i64)
        .bind(c.status)
        .bind(inter_key(c))
        .bind(actor)
        .bind(now_ms())
        .execute(&mut *tx)
        .await
        .map_err(unique)?;
        let row = Self::find(&mut tx, store_id, &Ref::Id(current.id)).await?;
        saved(&mut tx, store_id, actor, &row).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Sets the status of one channel or of every channel of `provider`; answers how many
    /// changed.
    pub async fn set_status(
        &self,
        store_id: i64,
        actor: i64,
        id: Option<i64>,
        provider: &str,
        status: &str,
    ) -> Result<i64> {
        let mut tx = self.db.begin().await?;
        let ids: Vec<i64> = match id {
            Some(id) => vec![Self::find(&mut tx, store_id, &Ref::Id(id)).await?.id],
            None => {
                sqlx::query_scalar("SELECT id FROM store_channels WHERE store_id = $1 AND provider = $2 ORDER BY id")
                    .bind(store_id)
                    .bind(provider)
                    .fetch_all(&mut *tx)
                    .await?
            }
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
                let row = Self::find(&mut tx, store_id, &Ref::Id(id)).await?;
                saved(&mut tx, store_id, actor, &row).await?;
            }
        }
        tx.commit().await?;
        Ok(changed)
    }

    /// Deletes a channel.
    pub async fn delete(&self, store_id: i64, r: &Ref) -> Result<()> {
        let mut tx = self.db.begin().await?;
        let row = Self::find(&mut tx, store_id, r).await?;
        sqlx::query("DELETE FROM store_channels WHERE store_id = $1 AND id = $2")
            .bind(store_id)
            .bind(row.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The store's COD accounts.
    pub async fn providers(&self, store_id: i64) -> Result<Vec<ProviderRow>> {
        Ok(sqlx::query_as::<_, ProviderRow>(
            "SELECT id, provider, cod_account_no, created_at, updated_at FROM store_providers \
             WHERE store_id = $1 ORDER BY provider",
        )
        .bind(store_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Adds or changes a COD account: by id when given, else the provider's (created when
    /// the store has none).
    pub async fn save_provider(
        &self,
        store_id: i64,
        actor: i64,
        id: Option<i64>,
        provider: &str,
        account: &str,
        create_only: bool,
    ) -> Result<ProviderRow> {
        let mut tx = self.db.begin().await?;
        let now = now_ms();
        let existing: Option<i64> = match id {
            Some(id) => Some(
                sqlx::query_scalar("SELECT id FROM store_providers WHERE store_id = $1 AND id = $2")
                    .bind(store_id)
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?
                    .ok_or_else(|| Error::not_found(code::PROVIDER_NOT_FOUND))?,
            ),
            None => {
                sqlx::query_scalar("SELECT id FROM store_providers WHERE store_id = $1 AND provider = $2")
                    .bind(store_id)
                    .bind(provider)
                    .fetch_optional(&mut *tx)
                    .await?
            }
        };
        let id = match existing {
            Some(_) if create_only => return Err(Error::conflict(code::PROVIDER_DUPLICATE)),
            Some(id) => {
                sqlx::query(
                    "UPDATE store_providers SET provider = $3, cod_account_no = $4, updated_by = $5, updated_at = $6 \
                     WHERE store_id = $1 AND id = $2",
                )
                .bind(store_id)
                .bind(id)
                .bind(provider)
                .bind(account)
                .bind(actor)
                .bind(now)
                .execute(&mut *tx)
                .await
                .map_err(|e| {
                    if is_unique_violation(&e) {
                        Error::conflict(code::PROVIDER_DUPLICATE)
                    } else {
                        e.into()
                    }
                })?;
                id
            }
            None => sqlx::query_scalar(
                "INSERT INTO store_providers (store_id, provider, cod_account_no, created_by, updated_by, created_at, \
                 updated_at) VALUES ($1, $2, $3, $4, $4, $5, $5) RETURNING id",
            )
            .bind(store_id)
            .bind(provider)
            .bind(account)
            .bind(actor)
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .map_err(|e| {
                if is_unique_violation(&e) {
                    Error::conflict(code::PROVIDER_DUPLICATE)
                } else {
                    e.into()
                }
            })?,
        };
        let row = sqlx::query_as::<_, ProviderRow>(
            "SELECT id, provider, cod_account_no, created_at, updated_at FROM store_providers WHERE id = $1",
        )
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(row)
    }

    /// The active channels of a warehouse.
    pub async fn active_in(&self, store_id: i64, warehouse_id: i64) -> Result<Vec<ChannelRow>> {
        Ok(sqlx::query_as::<_, ChannelRow>(&format!(
            "SELECT {COLUMNS} FROM store_channels WHERE store_id = $1 AND warehouse_id = $2 AND status = $3 \
             ORDER BY name, id"
        ))
        .bind(store_id)
        .bind(warehouse_id)
        .bind(domain::ACTIVE)
        .fetch_all(self.db.pool())
        .await?)
    }
}

/// A tracking-number range row.
#[derive(Debug, Clone, FromRow)]
pub struct RangeRow {
    pub id: i64,
    pub provider: String,
    pub prefix: String,
    pub first_serial: i64,
    pub last_serial: i64,
    pub next_serial: i64,
    pub width: i64,
}

const RANGE_COLUMNS: &str = "id, provider, prefix, first_serial, last_serial, next_serial, width";

/// A rate table's summary row.
#[derive(Debug, Clone, FromRow)]
pub struct RateTableRow {
    pub label: String,
    pub is_sample: i64,
    pub uploaded_by: i64,
    pub uploaded_at: i64,
}

/// A carrier account row.
#[derive(Debug, Clone, FromRow)]
pub struct AccountRow {
    pub store_id: i64,
    pub carrier: String,
    pub account_id: String,
    pub secret: String,
    pub webhook_token: String,
    pub status: String,
    pub checked_at: i64,
}

/// A shipment row.
#[derive(Debug, Clone, FromRow)]
pub struct ShipmentRow {
    pub id: i64,
    pub carrier: String,
    pub tracking_no: String,
    pub reference: String,
    pub state: String,
    pub progress: String,
}

const SHIPMENT_COLUMNS: &str = "id, carrier, tracking_no, reference, state, progress";
