//! SQL of our stock out: listings linked to our SKUs, the quantity each should show (the
//! ledger's newest, by movement id) and what it was last sent, the pushes due, and the log
//! of every push.

use bo_kit::db::{changed, Tx};
use bo_kit::time::now_ms;
use bo_kit::Result;
use sqlx::FromRow;

use super::Repo;
use crate::domain::channel::Status;

/// A listing linked to one of our SKUs.
#[derive(Debug, Clone, FromRow)]
pub struct LinkRow {
    pub id: i64,
    pub store_id: i64,
    pub store_channel_id: i64,
    pub item_id: String,
    pub model_id: String,
    pub seller_sku: String,
    pub sku_id: i64,
    pub linked_by: String,
    /// The quantity it should show (-1 until the ledger is asked).
    pub wanted: i64,
    pub wanted_movement: i64,
    /// What it was last sent (-1: never).
    pub sent: i64,
    pub sent_at: i64,
    pub due_at: i64,
    pub attempts: i64,
    pub last_answer: String,
}

const LINK_COLUMNS: &str = "id, store_id, store_channel_id, item_id, model_id, seller_sku, sku_id, linked_by, wanted, \
    wanted_movement, sent, sent_at, due_at, attempts, last_answer";

/// Who linked a listing.
pub mod linked_by {
    /// Learnt from an order whose line's seller SKU is our SKU's code.
    pub const ORDER: &str = "order";
    /// Chosen by a person (never replaced by what an order says).
    pub const PERSON: &str = "person";
}

/// A listing an order sold as one of our SKUs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Learnt {
    pub item_id: String,
    pub model_id: String,
    pub seller_sku: String,
    pub sku_id: i64,
}

/// A new link of a listing (`$1` store, `$2` shop, `$3` item, `$4` variation, `$5` seller
/// SKU, `$6` SKU, `$7` who linked it, `$8` now), due at once to be read and pushed; what to do
/// when the listing is linked already follows.
const NEW_LINK: &str = "INSERT INTO listing_links (store_id, store_channel_id, item_id, model_id, seller_sku, sku_id, \
    linked_by, wanted, wanted_movement, sent, sent_at, due_at, attempts, last_answer, created_at, updated_at) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, -1, 0, -1, 0, $8, 0, '', $8, $8) ON CONFLICT (store_channel_id, item_id, model_id)";

/// How long the push log is kept, ms.
pub const STOCK_LOG_KEPT_MS: i64 = 30 * 24 * 3600 * 1000;

impl Repo {
    /// Links listings an order sold to our SKUs, unless linked already: the ids of those
    /// new, whose stock is due to be pushed.
    pub async fn learn_links(&self, store_id: i64, store_channel_id: i64, learnt: &[Learnt]) -> Result<Vec<i64>> {
        let now = now_ms();
        let mut out = Vec::new();
        for l in learnt.iter().filter(|l| l.sku_id > 0 && !l.item_id.is_empty()) {
            let id: Option<i64> = sqlx::query_scalar(&format!("{NEW_LINK} DO NOTHING RETURNING id"))
                .bind(store_id)
                .bind(store_channel_id)
                .bind(&l.item_id)
                .bind(&l.model_id)
                .bind(&l.seller_sku)
                .bind(l.sku_id)
                .bind(linked_by::ORDER)
                .bind(now)
                .fetch_optional(self.db.pool())
                .await?;
            out.extend(id);
        }
        Ok(out)
    }

    /// Links a listing to our SKU as a person chose it (replacing what orders taught), due to
    /// be pushed from the ledger's level.
    pub async fn link_by_person(&self, store_id: i64, store_channel_id: i64, l: &Learnt) -> Result<()> {
        let now = now_ms();
        sqlx::query(&format!(
            "{NEW_LINK} DO UPDATE SET sku_id = excluded.sku_id, seller_sku = excluded.seller_sku, \
             linked_by = excluded.linked_by, wanted = -1, wanted_movement = 0, due_at = excluded.due_at, \
             updated_at = excluded.updated_at"
        ))
        .bind(store_id)
        .bind(store_channel_id)
        .bind(&l.item_id)
        .bind(&l.model_id)
        .bind(&l.seller_sku)
        .bind(l.sku_id)
        .bind(linked_by::PERSON)
        .bind(now)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// The SKUs a shop's listings are linked to, of those named.
    pub async fn linked_skus(
        &self,
        store_channel_id: i64,
        listings: &[(String, String)],
    ) -> Result<Vec<((String, String), i64)>> {
        let mut out = Vec::new();
        for (item, model) in listings {
            let sku: Option<i64> = sqlx::query_scalar(
                "SELECT sku_id FROM listing_links WHERE store_channel_id = $1 AND item_id = $2 AND model_id = $3",
            )
            .bind(store_channel_id)
            .bind(item)
            .bind(model)
            .fetch_optional(self.db.pool())
            .await?;
            out.extend(sku.map(|s| ((item.clone(), model.clone()), s)));
        }
        Ok(out)
    }

    /// The ledger's level of a SKU in a warehouse after movement `movement`: every listing
    /// linked to it in the store's shops of that warehouse should show `available`, and is
    /// due to be pushed unless it already is (a burst of changes is one push). Older
    /// movements than the one applied change nothing. Run in the inbox's transaction.
    pub async fn apply_level(
        tx: &mut Tx,
        store_id: i64,
        warehouse_id: i64,
        sku_id: i64,
        available: i64,
        movement: i64,
    ) -> Result<u64> {
        let now = now_ms();
        let r = sqlx::query(
            "UPDATE listing_links SET wanted = $1, wanted_movement = $2, updated_at = $3, \
             due_at = CASE WHEN due_at = 0 AND sent <> $1 THEN $3 ELSE due_at END \
             WHERE store_id = $4 AND sku_id = $5 AND wanted_movement < $2 \
             AND store_channel_id IN (SELECT id FROM store_channels WHERE store_id = $4 AND warehouse_id = $6)",
        )
        .bind(available.max(0))
        .bind(movement)
        .bind(now)
        .bind(store_id)
        .bind(sku_id)
        .bind(warehouse_id)
        .execute(&mut **tx)
        .await?;
        Ok(r.rows_affected())
    }

    /// Sets what a listing should show from a reading of the ledger, unless a movement's
    /// event has told it since (a reading is never newer than an event applied).
    pub async fn read_level(&self, id: i64, available: i64) -> Result<bool> {
        let r =
            sqlx::query("UPDATE listing_links SET wanted = $1, updated_at = $2 WHERE id = $3 AND wanted_movement = 0")
                .bind(available.max(0))
                .bind(now_ms())
                .bind(id)
                .execute(self.db.pool())
                .await?;
        Ok(changed(&r))
    }

    /// Up to `limit` links due now, of active, connected shops, longest waiting first.
    pub async fn due_links(&self, limit: i64) -> Result<Vec<LinkRow>> {
        Ok(sqlx::query_as::<_, LinkRow>(&format!(
            "SELECT {LINK_COLUMNS} FROM listing_links WHERE due_at > 0 AND due_at <= $1 AND store_channel_id IN \
             (SELECT id FROM store_channels WHERE status = $2 AND token_expired = 0) ORDER BY due_at, id LIMIT $3"
        ))
        .bind(now_ms())
        .bind(Status::Active.as_str())
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// The links of a shop (or of every shop of the store with 0).
    pub async fn links(&self, store_id: i64, store_channel_id: i64) -> Result<Vec<LinkRow>> {
        Ok(sqlx::query_as::<_, LinkRow>(&format!(
            "SELECT {LINK_COLUMNS} FROM listing_links WHERE store_id = $1 AND ($2 = 0 OR store_channel_id = $2) ORDER BY id"
        ))
        .bind(store_id)
        .bind(store_channel_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Records what the marketplace said of a push of `quantity` to a link: taken (`refused`
    /// None) or refused with its reason (not tried again until the level changes). The link
    /// stays due when the ledger moved meanwhile. Logged either way.
    pub async fn pushed(&self, link: &LinkRow, quantity: i64, refused: Option<&str>) -> Result<()> {
        let now = now_ms();
        let answer = refused.unwrap_or_default();
        let mut tx = self.db.begin().await?;
        sqlx::query(
            "UPDATE listing_links SET sent = CASE WHEN $1 = '' THEN $2 ELSE sent END, sent_at = $3, attempts = 0, \
             last_answer = $1, due_at = CASE WHEN wanted = $2 THEN 0 ELSE due_at END WHERE id = $4",
        )
        .bind(answer)
        .bind(quantity)
        .bind(now)
        .bind(link.id)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO stock_pushes (store_id, store_channel_id, sku_id, item_id, model_id, quantity, outcome, answer, sent_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(link.store_id)
        .bind(link.store_channel_id)
        .bind(link.sku_id)
        .bind(&link.item_id)
        .bind(&link.model_id)
        .bind(quantity)
        .bind(if refused.is_some() { "refused" } else { "set" })
        .bind(answer)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE store_channels SET last_stock_push_at = $1 WHERE id = $2")
            .bind(now)
            .bind(link.store_channel_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Puts links' pushes off by `wait_ms` (the marketplace throttled us or could not be
    /// reached), with why.
    pub async fn push_later(&self, ids: &[i64], wait_ms: i64, why: &str) -> Result<()> {
        let at = now_ms() + wait_ms.max(1);
        for id in ids {
            sqlx::query(
                "UPDATE listing_links SET due_at = $1, attempts = attempts + 1, last_answer = $2 WHERE id = $3 AND due_at > 0",
            )
            .bind(at)
            .bind(why)
            .bind(id)
            .execute(self.db.pool())
            .await?;
        }
        Ok(())
    }

    /// Leaves links' pushes (their shop has no warehouse set): nothing is due until it has.
    pub async fn push_none(&self, ids: &[i64], why: &str) -> Result<()> {
        for id in ids {
            sqlx::query("UPDATE listing_links SET due_at = 0, last_answer = $1 WHERE id = $2")
                .bind(why)
                .bind(id)
                .execute(self.db.pool())
                .await?;
        }
        Ok(())
    }

    /// Makes every link of a shop (or of every shop with 0) due again: a re-assert of what
    /// the marketplaces show. Those whose ledger level was never read are read first.
    pub async fn reassert(&self, store_channel_id: i64) -> Result<u64> {
        let r =
            sqlx::query("UPDATE listing_links SET due_at = $1 WHERE due_at = 0 AND ($2 = 0 OR store_channel_id = $2)")
                .bind(now_ms())
                .bind(store_channel_id)
                .execute(self.db.pool())
                .await?;
        Ok(r.rows_affected())
    }

    /// The newest pushes of a SKU's listings, newest first.
    pub async fn stock_log(
        &self,
        store_id: i64,
        sku_id: i64,
        limit: i64,
    ) -> Result<Vec<(i64, String, String, i64, String, String, i64)>> {
        Ok(sqlx::query_as(
            "SELECT store_channel_id, item_id, model_id, quantity, outcome, answer, sent_at FROM stock_pushes \
             WHERE store_id = $1 AND sku_id = $2 ORDER BY id DESC LIMIT $3",
        )
        .bind(store_id)
        .bind(sku_id)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Drops push log entries older than `older_than_ms`: how many.
    pub async fn purge_stock_log(&self, older_than_ms: i64) -> Result<u64> {
        let r = sqlx::query("DELETE FROM stock_pushes WHERE sent_at < $1")
            .bind(now_ms() - older_than_ms)
            .execute(self.db.pool())
            .await?;
        Ok(r.rows_affected())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::{Secret, Shop, Tokens};
    use crate::domain::Marketplace;
    use crate::store::Settings;
    use crate::vault::Vault;
    use bo_kit::db::Db;

    fn learnt(item: &str, sku: i64) -> Learnt {
        Learnt { item_id: item.into(), model_id: "1".into(), seller_sku: format!("S-{sku}"), sku_id: sku }
    }

    async fn level(r: &Repo, sku: i64, available: i64, movement: i64) -> u64 {
        let mut tx = r.db.begin().await.unwrap();
        let n = Repo::apply_level(&mut tx, 1, 3, sku, available, movement).await.unwrap();
        tx.commit().await.unwrap();
        n
    }

    /// Links follow the ledger's newest level, a burst is one push, a person's link stands.
    async fn links_follow_the_newest_level_and_a_persons_choice(db: Db) {
        db.migrate(&crate::MIGRATIONS_SQLITE, &crate::MIGRATIONS_POSTGRES).await.unwrap();
        let r = Repo::new(db, Vault::new(&Vault::generate_key(), &[]).unwrap());
        let tokens = Tokens {
            access: Secret::new("a"),
            refresh: Secret::new("r"),
            access_expires_at_s: i64::MAX / 2,
            refresh_expires_at_s: i64::MAX / 2,
        };
        let shop =
            Shop { shop_id: "55".into(), name: "ร้าน".into(), region: "TH".into(), cipher: String::new() };
        let ch = r.connect(1, 9, Marketplace::Shopee, &shop, &tokens).await.unwrap();
        let s = Settings {
            warehouse_id: 3,
            logistic_channel_id: 0,
            payment_channel_id: 0,
            status: crate::domain::channel::Status::Active,
        };
        r.update_settings(1, ch.id, 9, &s).await.unwrap();

        // Learnt once; a line without a SKU teaches nothing.
        let new = r.learn_links(1, ch.id, &[learnt("A", 7), learnt("B", 0)]).await.unwrap();
        assert_eq!(new.len(), 1);
        assert!(r.learn_links(1, ch.id, &[learnt("A", 8)]).await.unwrap().is_empty(), "an order never relinks");
        let due = r.due_links(10).await.unwrap();
        assert_eq!((due.len(), due[0].wanted, due[0].sku_id), (1, -1, 7), "new links are due, their level unknown");

        // Read from the ledger and sent; then the ledger moves twice: one push of the newest,
        // an older movement ignored.
        assert!(r.read_level(due[0].id, 5).await.unwrap());
        r.pushed(&due[0], 5, None).await.unwrap();
        assert!(r.due_links(10).await.unwrap().is_empty());
        assert_eq!(level(&r, 7, 4, 10).await, 1);
        assert_eq!(level(&r, 7, 2, 11).await, 1);
        assert_eq!(level(&r, 7, 9, 9).await, 0, "older than what it holds");
        assert_eq!(level(&r, 99, 6, 12).await, 0, "another SKU's level");
        let due = r.due_links(10).await.unwrap();
        assert_eq!((due.len(), due[0].wanted), (1, 2));
        // The ledger moves while the push is in flight: the link stays due.
        assert_eq!(level(&r, 7, 1, 13).await, 1);
        r.pushed(&due[0], 2, None).await.unwrap();
        let again = r.due_links(10).await.unwrap();
        assert_eq!((again.len(), again[0].wanted, again[0].sent), (1, 1, 2));
        // A refusal is logged and not tried again until the level changes.
        r.pushed(&again[0], 1, Some("item deleted")).await.unwrap();
        assert!(r.due_links(10).await.unwrap().is_empty());
        assert_eq!(r.stock_log(1, 7, 10).await.unwrap().len(), 3);

        // A person's link replaces the order's and is due; orders never undo it.
        r.link_by_person(1, ch.id, &learnt("A", 8)).await.unwrap();
        r.learn_links(1, ch.id, &[learnt("A", 7)]).await.unwrap();
        let links = r.links(1, ch.id).await.unwrap();
        assert_eq!((links[0].sku_id, links[0].linked_by.as_str(), links[0].wanted), (8, linked_by::PERSON, -1));
        assert_eq!(r.linked_skus(ch.id, &[("A".into(), "1".into()), ("Z".into(), "1".into())]).await.unwrap().len(), 1);
        // A re-assert makes every link due; a read level never overwrites a movement's.
        let d = r.due_links(10).await.unwrap().remove(0);
        assert!(r.read_level(d.id, 0).await.unwrap());
        r.pushed(&d, 0, None).await.unwrap();
        assert_eq!(r.reassert(ch.id).await.unwrap(), 1);
        assert_eq!(level(&r, 8, 3, 20).await, 1);
        assert!(!r.read_level(links[0].id, 50).await.unwrap());
        assert_eq!(r.due_links(10).await.unwrap()[0].wanted, 3);
    }

    bo_kit::on_both_databases!(links_follow_the_newest_level_and_a_persons_choice);
}
