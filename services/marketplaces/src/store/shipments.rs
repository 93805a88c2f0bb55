//! SQL of marketplace orders shipped the platform's way: which marketplace order one of ours
//! is (from the orders taken in), and its shipment once arranged.

use bo_kit::time::now_ms;
use bo_kit::Result;
use sqlx::FromRow;

use super::Repo;

/// Ways an order is handed to the platform's carrier, as kept.
pub mod handover {
    pub const PICKUP: &str = "pickup";
    pub const DROPOFF: &str = "dropoff";
    pub const OWN_CARRIER: &str = "own_carrier";
    pub const PLATFORM: &str = "platform";
}

/// A marketplace order of ours: its shop, the marketplace's id and stage.
#[derive(Debug, Clone, FromRow)]
pub struct ChannelOrderRow {
    pub store_channel_id: i64,
    pub order_id: String,
    pub stage: String,
    /// The buyer's reason while a cancellation the buyer asked for waits (empty otherwise).
    pub cancel_reason: String,
    pub our_order_id: i64,
}

/// A shipment as kept.
#[derive(Debug, Clone, FromRow)]
pub struct ShipmentRow {
    pub store_channel_id: i64,
    pub order_id: String,
    pub our_order_id: i64,
    pub handover: String,
    pub tracking_no: String,
    pub arranged_at: i64,
    pub label_at: i64,
}

const SHIPMENT: &str = "store_channel_id, order_id, our_order_id, handover, tracking_no, arranged_at, label_at";

impl Repo {
    /// Which marketplace order our order `our_order_id` of the store is (`None`: none is).
    pub async fn channel_order(&self, store_id: i64, our_order_id: i64) -> Result<Option<ChannelOrderRow>> {
        Ok(sqlx::query_as(
            "SELECT o.store_channel_id, o.order_id, o.stage, o.cancel_reason, o.our_order_id FROM channel_orders o \
             JOIN store_channels c ON c.id = o.store_channel_id WHERE o.our_order_id = $1 AND c.store_id = $2",
        )
        .bind(our_order_id)
        .bind(store_id)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// The shipment of a marketplace order, once arranged.
    pub async fn shipment(&self, store_channel_id: i64, order_id: &str) -> Result<Option<ShipmentRow>> {
        Ok(sqlx::query_as(&format!("SELECT {SHIPMENT} FROM shipments WHERE store_channel_id = $1 AND order_id = $2"))
            .bind(store_channel_id)
            .bind(order_id)
            .fetch_optional(self.db.pool())
            .await?)
    }

    /// Keeps a shipment the platform took (once: a second arrangement changes nothing).
    pub async fn save_shipment(
        &self,
        store_id: i64,
        o: &ChannelOrderRow,
        handover: &str,
        tracking_no: &str,
        user_id: i64,
    ) -> Result<ShipmentRow> {
        sqlx::query(
            "INSERT INTO shipments (store_channel_id, order_id, store_id, our_order_id, handover, tracking_no, arranged_at, \
             arranged_by, label_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0) ON CONFLICT (store_channel_id, order_id) DO NOTHING",
        )
        .bind(o.store_channel_id)
        .bind(&o.order_id)
        .bind(store_id)
        .bind(o.our_order_id)
        .bind(handover)
        .bind(tracking_no)
        .bind(now_ms())
        .bind(user_id)
        .execute(self.db.pool())
        .await?;
        Ok(self.shipment(o.store_channel_id, &o.order_id).await?.expect("kept above"))
    }

    /// The tracking number the platform gave a shipment.
    pub async fn set_tracking(&self, store_channel_id: i64, order_id: &str, tracking_no: &str) -> Result<()> {
        sqlx::query("UPDATE shipments SET tracking_no = $1 WHERE store_channel_id = $2 AND order_id = $3")
            .bind(tracking_no)
            .bind(store_channel_id)
            .bind(order_id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// A shipment's label was printed now.
    pub async fn label_printed(&self, store_channel_id: i64, order_id: &str) -> Result<()> {
        sqlx::query("UPDATE shipments SET label_at = $1 WHERE store_channel_id = $2 AND order_id = $3")
            .bind(now_ms())
            .bind(store_channel_id)
            .bind(order_id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::{Secret, Shop, Tokens};
    use crate::domain::Marketplace;
    use crate::vault::Vault;
    use bo_kit::db::Db;

    /// Our order is found as its marketplace order in its own store only; a shipment is kept
    /// once, then its tracking number and label time.
    async fn a_shipment_is_kept_once(db: Db) {
        db.migrate(&crate::MIGRATIONS_SQLITE, &crate::MIGRATIONS_POSTGRES).await.unwrap();
        let r = Repo::new(db.clone(), Vault::new(&Vault::generate_key(), &[]).unwrap());
        let tokens = Tokens {
            access: Secret::new("a"),
            refresh: Secret::new("r"),
            access_expires_at_s: i64::MAX / 2,
            refresh_expires_at_s: i64::MAX / 2,
        };
        let shop =
            Shop { shop_id: "55".into(), name: "ร้าน".into(), region: "TH".into(), cipher: String::new() };
        let ch = r.connect(1, 9, Marketplace::Shopee, &shop, &tokens).await.unwrap().id;
        sqlx::query(
            "INSERT INTO channel_orders (store_channel_id, order_id, changed_at, stage, our_order_id, taken_at) \
             VALUES ($1, '2612020001', 1, 'paid', 70, 1)",
        )
        .bind(ch)
        .execute(db.pool())
        .await
        .unwrap();
        assert!(r.channel_order(2, 70).await.unwrap().is_none(), "another store's");
        assert!(r.channel_order(1, 71).await.unwrap().is_none());
        let o = r.channel_order(1, 70).await.unwrap().unwrap();
        assert_eq!((o.order_id.as_str(), o.stage.as_str()), ("2612020001", "paid"));
        assert!(r.shipment(ch, "2612020001").await.unwrap().is_none());
        let kept = r.save_shipment(1, &o, handover::PICKUP, "", 9).await.unwrap();
        let again = r.save_shipment(1, &o, handover::DROPOFF, "X", 9).await.unwrap();
        assert_eq!((again.handover.as_str(), again.arranged_at), (handover::PICKUP, kept.arranged_at));
        r.set_tracking(ch, "2612020001", "TH4100000000001").await.unwrap();
        r.label_printed(ch, "2612020001").await.unwrap();
        let s = r.shipment(ch, "2612020001").await.unwrap().unwrap();
        assert_eq!((s.tracking_no.as_str(), s.label_at > 0, s.our_order_id), ("TH4100000000001", true, 70));
    }

    bo_kit::on_both_databases!(a_shipment_is_kept_once);
}
