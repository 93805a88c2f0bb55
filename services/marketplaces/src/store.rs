//! SQL of connected shops and their authorize states: one code path for SQLite and
//! PostgreSQL. Tokens are sealed by the [`Vault`] before they are written and opened only
//! here; a row's tokens change only under its version, so two refreshers never both write
//! (the one that lost sees `false` and leaves the tokens it spent alone).

use bo_kit::db::{changed, Db};
use bo_kit::time::now_ms;
use bo_kit::{Code, Error, Result};
use sqlx::FromRow;

use crate::adapters::{Secret, Shop, Tokens};
use crate::domain::channel::{Link, Status};
use crate::domain::Marketplace;
use crate::vault::Vault;

pub mod api_channels;
pub mod api_orders;
pub mod imports;
mod intake;
pub mod listings;
pub mod magento;
pub mod matching;
pub mod own_channels;
mod returns;
pub mod shipments;
pub mod stock;
pub mod webhooks;
pub use intake::{outcome, PushRow, CLAIM_MS, PUSHES_KEPT_MS};
pub use listings::{linked_by, Learnt, Linked, ListingFilter, ListingRow};
pub use stock::{Level, Pushed, RuleRow, SyncRow, STOCK_LOG_KEPT_MS};

/// The numbered placeholders of an `IN` list of `n` values whose first is `$first`:
/// `marks(2, 3)` is `$2, $3, $4`.
pub(crate) fn marks(first: usize, n: usize) -> String {
    (first..first + n).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

/// A connected shop as kept (tokens sealed).
#[derive(Debug, Clone, FromRow)]
pub struct ChannelRow {
    pub id: i64,
    pub store_id: i64,
    pub marketplace: String,
    pub shop_id: String,
    pub shop_name: String,
    pub region: String,
    pub cipher: String,
    pub warehouse_id: i64,
    pub logistic_channel_id: i64,
    pub payment_channel_id: i64,
    pub status: String,
    pub token_expired: i64,
    pub access_expires_at: i64,
    pub refresh_expires_at: i64,
    pub orders_watermark: i64,
    pub last_order_sync_at: i64,
    pub last_stock_push_at: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub version: i64,
}

impl ChannelRow {
    /// Its marketplace.
    pub fn marketplace(&self) -> Option<Marketplace> {
        Marketplace::parse(&self.marketplace)
    }

    /// Its status.
    pub fn status(&self) -> Status {
        Status::parse(&self.status).unwrap_or(Status::Inactive)
    }

    /// Whether its authorization works.
    pub fn link(&self) -> Link {
        if self.token_expired != 0 {
            Link::TokenExpired
        } else {
            Link::Connected
        }
    }

    /// The shop as the adapters take it.
    pub fn shop(&self) -> Shop {
        Shop {
            shop_id: self.shop_id.clone(),
            name: self.shop_name.clone(),
            region: self.region.clone(),
            cipher: self.cipher.clone(),
        }
    }
}

const COLUMNS: &str = "id, store_id, marketplace, shop_id, shop_name, region, cipher, warehouse_id, logistic_channel_id, \
     payment_channel_id, status, token_expired, access_expires_at, refresh_expires_at, orders_watermark, last_order_sync_at, \
     last_stock_push_at, created_at, updated_at, version";

/// A kept authorize state.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct StateRow {
    pub store_id: i64,
    pub user_id: i64,
    pub marketplace: String,
    pub store_channel_id: i64,
}

/// What a list is narrowed to.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// One marketplace.
    pub marketplace: Option<Marketplace>,
    /// Only shops whose authorization is lost (`Some(true)`) or works (`Some(false)`).
    pub token_expired: Option<bool>,
    /// One status.
    pub status: Option<Status>,
}

/// The owner's settings of a shop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub warehouse_id: i64,
    pub logistic_channel_id: i64,
    pub payment_channel_id: i64,
    pub status: Status,
}

/// The marketplaces repository.
#[derive(Clone)]
pub struct Repo {
    db: Db,
    vault: Vault,
}

fn binding(id: i64, field: &str) -> String {
    format!("store_channel:{id}:{field}")
}

impl Repo {
    /// The repository over `db`, sealing tokens with `vault`.
    pub fn new(db: Db, vault: Vault) -> Repo {
        Repo { db, vault }
    }

    /// Keeps an authorize state until `expires_at` (ms).
    pub async fn save_state(&self, state: &str, at: &StateRow, expires_at: i64) -> Result<()> {
        sqlx::query(
            "INSERT INTO auth_states (state, store_id, user_id, marketplace, store_channel_id, expires_at, used_at) \
             VALUES ($1, $2, $3, $4, $5, $6, 0)",
        )
        .bind(state)
        .bind(at.store_id)
        .bind(at.user_id)
        .bind(&at.marketplace)
        .bind(at.store_channel_id)
        .bind(expires_at)
        .execute(self.db.pool())
        .await?;
        // States are short-lived: those a day past their end are dropped as new ones come.
        sqlx::query("DELETE FROM auth_states WHERE expires_at < $1")
            .bind(now_ms() - 86_400_000)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Spends an authorize state: what it was kept for, once, before it ends.
    pub async fn take_state(&self, state: &str) -> Result<Option<StateRow>> {
        let now = now_ms();
        let spent =
            sqlx::query("UPDATE auth_states SET used_at = $1 WHERE state = $2 AND used_at = 0 AND expires_at > $1")
                .bind(now)
                .bind(state)
                .execute(self.db.pool())
                .await?;
        if !changed(&spent) {
            return Ok(None);
        }
        Ok(sqlx::query_as::<_, StateRow>(
            "SELECT store_id, user_id, marketplace, store_channel_id FROM auth_states WHERE state = $1",
        )
        .bind(state)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// Keeps a shop the seller authorized for `store_id`: a new row, or the same shop's row
    /// of this store with its new tokens and name (a reconnect), connected again. A shop
    /// another store holds is refused.
    pub async fn connect(
        &self,
        store_id: i64,
        user_id: i64,
        marketplace: Marketplace,
        shop: &Shop,
        tokens: &Tokens,
    ) -> Result<ChannelRow> {
        let now = now_ms();
        let mut tx = self.db.begin().await?;
        let found: Option<(i64, i64)> = sqlx::query_as(&format!(
            "SELECT id, store_id FROM store_channels WHERE marketplace = $1 AND shop_id = $2 {}",
            tx.for_update()
        ))
        .bind(marketplace.code())
        .bind(&shop.shop_id)
        .fetch_optional(&mut *tx)
        .await?;
        let id = match found {
            Some((_, owner)) if owner != store_id => return Err(Error::conflict(Code::MarketplaceShopTaken)),
            Some((id, _)) => {
                sqlx::query(
                    "UPDATE store_channels SET shop_name = $1, region = $2, cipher = $3, token_expired = 0, updated_by = $4, \
                     updated_at = $5, version = version + 1 WHERE id = $6",
                )
                .bind(&shop.name)
                .bind(&shop.region)
                .bind(&shop.cipher)
                .bind(user_id)
                .bind(now)
                .bind(id)
                .execute(&mut *tx)
                .await?;
                id
            }
            None => {
                let (id,): (i64,) = sqlx::query_as(
                    "INSERT INTO store_channels (store_id, marketplace, shop_id, shop_name, region, cipher, warehouse_id, \
                     logistic_channel_id, payment_channel_id, status, token_expired, access_token, refresh_token, \
                     access_expires_at, refresh_expires_at, orders_watermark, last_order_sync_at, last_stock_push_at, \
                     created_by, updated_by, created_at, updated_at, version, polled_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, 0, 0, 0, $7, 0, '', '', 0, 0, $8, 0, 0, $9, $9, $10, $10, 1, $10) \
                     RETURNING id",
                )
                .bind(store_id)
                .bind(marketplace.code())
                .bind(&shop.shop_id)
                .bind(&shop.name)
                .bind(&shop.region)
                .bind(&shop.cipher)
                .bind(Status::Active.as_str())
                .bind(now / 1000)
                .bind(user_id)
                .bind(now)
                .fetch_one(&mut *tx)
                .await?;
                id
            }
        };
        self.write_tokens(&mut tx, id, tokens).await?;
        tx.commit().await?;
        self.get(store_id, id).await?.ok_or_else(|| Error::not_found(Code::MarketplaceChannelNotFound))
    }

    async fn write_tokens(&self, tx: &mut bo_kit::db::Tx, id: i64, tokens: &Tokens) -> Result<()> {
        sqlx::query(
            "UPDATE store_channels SET access_token = $1, refresh_token = $2, access_expires_at = $3, refresh_expires_at = $4 \
             WHERE id = $5",
        )
        .bind(self.vault.seal(&binding(id, "access"), tokens.access.expose()))
        .bind(self.vault.seal(&binding(id, "refresh"), tokens.refresh.expose()))
        .bind(tokens.access_expires_at_s)
        .bind(tokens.refresh_expires_at_s)
        .bind(id)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// A shop of the store.
    pub async fn get(&self, store_id: i64, id: i64) -> Result<Option<ChannelRow>> {
        Ok(sqlx::query_as::<_, ChannelRow>(&format!(
            "SELECT {COLUMNS} FROM store_channels WHERE id = $1 AND store_id = $2"
        ))
        .bind(id)
        .bind(store_id)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// The store's shops, oldest first.
    pub async fn list(&self, store_id: i64, f: &Filter) -> Result<Vec<ChannelRow>> {
        let mut sql = format!("SELECT {COLUMNS} FROM store_channels WHERE store_id = $1");
        let mut n = 1;
        if f.marketplace.is_some() {
            n += 1;
            sql.push_str(&format!(" AND marketplace = ${n}"));
        }
        if f.token_expired.is_some() {
            n += 1;
            sql.push_str(&format!(" AND token_expired = ${n}"));
        }
        if f.status.is_some() {
            n += 1;
            sql.push_str(&format!(" AND status = ${n}"));
        }
        sql.push_str(" ORDER BY id");
        let mut q = sqlx::query_as::<_, ChannelRow>(&sql).bind(store_id);
        if let Some(m) = f.marketplace {
            q = q.bind(m.code());
        }
        if let Some(e) = f.token_expired {
            q = q.bind(i64::from(e));
        }
        if let Some(s) = f.status {
            q = q.bind(s.as_str());
        }
        Ok(q.fetch_all(self.db.pool()).await?)
    }

    /// Changes the owner's settings of a shop; `None` when the store has no such shop.
    pub async fn update_settings(
        &self,
        store_id: i64,
        id: i64,
        user_id: i64,
        s: &Settings,
    ) -> Result<Option<ChannelRow>> {
        let done = sqlx::query(
            "UPDATE store_channels SET warehouse_id = $1, logistic_channel_id = $2, payment_channel_id = $3, status = $4, \
             updated_by = $5, updated_at = $6, version = version + 1 WHERE id = $7 AND store_id = $8",
        )
        .bind(s.warehouse_id)
        .bind(s.logistic_channel_id)
        .bind(s.payment_channel_id)
        .bind(s.status.as_str())
        .bind(user_id)
        .bind(now_ms())
        .bind(id)
        .bind(store_id)
        .execute(self.db.pool())
        .await?;
        if !changed(&done) {
            return Ok(None);
        }
        self.get(store_id, id).await
    }

    /// A shop's tokens, opened.
    pub async fn tokens(&self, id: i64) -> Result<Tokens> {
        Ok(self.tokens_fenced(id).await?.0)
    }

    /// A shop's tokens, opened, with the fence a refresh of them writes under (the sealed
    /// refresh token: it changes with every write of the tokens, and only then).
    pub async fn tokens_fenced(&self, id: i64) -> Result<(Tokens, String)> {
        let (access, refresh, access_at, refresh_at): (String, String, i64, i64) = sqlx::query_as(
            "SELECT access_token, refresh_token, access_expires_at, refresh_expires_at FROM store_channels WHERE id = $1",
        )
        .bind(id)
        .fetch_one(self.db.pool())
        .await?;
        let open = |field: &str, sealed: &str| -> Result<Secret> {
            self.vault.open(&binding(id, field), sealed).map_err(|e| {
                tracing::error!(store_channel = id, error = %e, "a marketplace token does not open");
                Error::failed_precondition(Code::MarketplaceTokenExpired)
            })
        };
        let tokens = Tokens {
            access: open("access", &access)?,
            refresh: open("refresh", &refresh)?,
            access_expires_at_s: access_at,
            refresh_expires_at_s: refresh_at,
        };
        Ok((tokens, refresh))
    }

    /// Writes refreshed tokens if the row still holds the tokens of `fence` (no other
    /// refresher wrote first, and no reconnect): true when written. An edit of the shop's
    /// settings meanwhile does not stand in the way (a spent single-use refresh token must
    /// not be lost to it).
    pub async fn save_refreshed(&self, id: i64, fence: &str, tokens: &Tokens) -> Result<bool> {
        let mut tx = self.db.begin().await?;
        let bumped =
            sqlx::query("UPDATE store_channels SET version = version + 1 WHERE id = $1 AND refresh_token = $2")
                .bind(id)
                .bind(fence)
                .execute(&mut *tx)
                .await?;
        if !changed(&bumped) {
            return Ok(false);
        }
        self.write_tokens(&mut tx, id, tokens).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The database (for the kit's leases).
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Forgets when a shop's access token ends (the marketplace refused it early): the next
    /// call refreshes it.
    pub async fn expire_access(&self, id: i64) -> Result<()> {
        sqlx::query("UPDATE store_channels SET access_expires_at = 0 WHERE id = $1")
            .bind(id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Records when a shop's authorization ends, as the marketplace announced it (unix s).
    pub async fn set_authorization_end(&self, id: i64, ends_at_s: i64) -> Result<()> {
        sqlx::query("UPDATE store_channels SET refresh_expires_at = $1, updated_at = $2 WHERE id = $3")
            .bind(ends_at_s)
            .bind(now_ms())
            .bind(id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Takes (or renews) the lease `name` for this process until `ttl` from now: false when
    /// another holds it.
    pub async fn lease(&self, name: &str, ttl: std::time::Duration) -> Result<bool> {
        bo_kit::schedule::try_lease(&self.db, name, bo_kit::schedule::holder_id(), ttl).await.map_err(Error::internal)
    }

    /// Gives the lease `name` back early.
    pub async fn release_lease(&self, name: &str) -> Result<()> {
        sqlx::query("DELETE FROM leases WHERE name = $1 AND holder = $2")
            .bind(name)
            .bind(bo_kit::schedule::holder_id())
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Unlinks a shop of the store: the row with its tokens, its listings with their links
    /// and rules, its imports and what its orders' intake remembered; false when the store
    /// has no such shop.
    pub async fn unlink(&self, store_id: i64, id: i64) -> Result<bool> {
        let mut tx = self.db.begin().await?;
        let gone = sqlx::query("DELETE FROM store_channels WHERE id = $1 AND store_id = $2")
            .bind(id)
            .bind(store_id)
            .execute(&mut *tx)
            .await?;
        if !changed(&gone) {
            return Ok(false);
        }
        sqlx::query(
            "DELETE FROM listing_parts WHERE listing_id IN (SELECT id FROM listings WHERE store_channel_id = $1)",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "DELETE FROM import_rows WHERE import_id IN (SELECT id FROM listing_imports WHERE store_channel_id = $1)",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
        for table in ["listings", "channel_orders", "stock_rules", "stock_syncs", "listing_imports"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE store_channel_id = $1")).bind(id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Marks a shop's authorization lost (its jobs stop until it is connected again).
    pub async fn lose_link(&self, id: i64) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE store_channels SET token_expired = 1, updated_at = $1, version = version + 1 WHERE id = $2 AND token_expired = 0",
        )
        .bind(now_ms())
        .bind(id)
        .execute(self.db.pool())
        .await?;
        Ok(changed(&done))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn repo(db: Db) -> Repo {
        db.migrate(&crate::MIGRATIONS_SQLITE, &crate::MIGRATIONS_POSTGRES).await.unwrap();
        Repo::new(db, Vault::new(&Vault::generate_key(), &[]).unwrap())
    }

    fn tokens(tag: &str) -> Tokens {
        Tokens {
            access: Secret::new(format!("access-{tag}")),
            refresh: Secret::new(format!("refresh-{tag}")),
            access_expires_at_s: 100,
            refresh_expires_at_s: 200,
        }
    }

    fn shop(id: &str) -> Shop {
        Shop { shop_id: id.into(), name: format!("ร้าน {id}"), region: "TH".into(), cipher: String::new() }
    }

    async fn connects_reconnects_and_refreshes_once(db: Db) {
        let r = repo(db).await;
        let a = r.connect(1, 9, Marketplace::Shopee, &shop("55"), &tokens("a")).await.unwrap();
        assert_eq!((a.status(), a.link(), a.shop_name.as_str()), (Status::Active, Link::Connected, "ร้าน 55"));
        assert_eq!(r.tokens(a.id).await.unwrap().access.expose(), "access-a");
        // Tokens are sealed at rest.
        let (raw,): (String,) = sqlx::query_as("SELECT access_token FROM store_channels WHERE id = $1")
            .bind(a.id)
            .fetch_one(r.db.pool())
            .await
            .unwrap();
        assert!(raw.starts_with("v1:") && !raw.contains("access-a"));
        // Another store cannot take the shop.
        let taken = r.connect(2, 9, Marketplace::Shopee, &shop("55"), &tokens("b")).await.unwrap_err();
        assert_eq!(taken.code, Code::MarketplaceShopTaken);
        // The same shop on another marketplace is another shop.
        r.connect(2, 9, Marketplace::Lazada, &shop("55"), &tokens("c")).await.unwrap();

        // Two refreshers of the same tokens: one writes, even when the settings changed meanwhile.
        let (_, fence) = r.tokens_fenced(a.id).await.unwrap();
        let s = Settings { warehouse_id: 1, logistic_channel_id: 0, payment_channel_id: 0, status: Status::Active };
        r.update_settings(1, a.id, 9, &s).await.unwrap().unwrap();
        assert!(r.save_refreshed(a.id, &fence, &tokens("r1")).await.unwrap());
        assert!(!r.save_refreshed(a.id, &fence, &tokens("r2")).await.unwrap());
        assert_eq!(r.tokens(a.id).await.unwrap().refresh.expose(), "refresh-r1");

        // Lost, then reconnected.
        assert!(r.lose_link(a.id).await.unwrap());
        assert!(!r.lose_link(a.id).await.unwrap(), "once");
        let lost = r.list(1, &Filter { token_expired: Some(true), ..Default::default() }).await.unwrap();
        assert_eq!(lost.iter().map(|c| c.id).collect::<Vec<_>>(), vec![a.id]);
        let again = r.connect(1, 9, Marketplace::Shopee, &shop("55"), &tokens("d")).await.unwrap();
        assert_eq!((again.id, again.link()), (a.id, Link::Connected));
        assert_eq!(r.tokens(a.id).await.unwrap().access.expose(), "access-d");

        // Settings, scoped by store.
        let s = Settings { warehouse_id: 3, logistic_channel_id: 4, payment_channel_id: 5, status: Status::Inactive };
        assert!(r.update_settings(2, a.id, 9, &s).await.unwrap().is_none(), "another store's shop");
        let set = r.update_settings(1, a.id, 9, &s).await.unwrap().unwrap();
        assert_eq!((set.warehouse_id, set.status()), (3, Status::Inactive));
        assert!(r.get(2, a.id).await.unwrap().is_none());
        assert_eq!(r.list(1, &Filter { status: Some(Status::Active), ..Default::default() }).await.unwrap().len(), 0);
        assert_eq!(
            r.list(2, &Filter { marketplace: Some(Marketplace::Lazada), ..Default::default() }).await.unwrap().len(),
            1
        );
    }

    async fn states_are_spent_once(db: Db) {
        let r = repo(db).await;
        let at = StateRow { store_id: 1, user_id: 2, marketplace: "shopee".into(), store_channel_id: 0 };
        r.save_state("s1", &at, now_ms() + 60_000).await.unwrap();
        r.save_state("s2", &at, now_ms() - 1).await.unwrap();
        assert_eq!(r.take_state("s1").await.unwrap(), Some(at));
        assert_eq!(r.take_state("s1").await.unwrap(), None, "single use");
        assert_eq!(r.take_state("s2").await.unwrap(), None, "ended");
        assert_eq!(r.take_state("nope").await.unwrap(), None);
    }

    bo_kit::on_both_databases!(connects_reconnects_and_refreshes_once, states_are_spent_once);
}
