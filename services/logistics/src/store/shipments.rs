//! Carrier accounts and the shipments booked with them, with their tracking events.

use super::*;
use bo_kit::Code;

impl Repo {
    /// The store's account with `carrier`.
    pub async fn account(&self, store_id: i64, carrier: &str) -> Result<Option<AccountRow>> {
        Ok(sqlx::query_as::<_, AccountRow>(
            "SELECT store_id, carrier, account_id, secret, webhook_token, status, checked_at FROM carrier_accounts \
             WHERE store_id = $1 AND carrier = $2",
        )
        .bind(store_id)
        .bind(carrier)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// The account whose webhook URL carries `token`.
    pub async fn account_by_token(&self, carrier: &str, token: &str) -> Result<Option<AccountRow>> {
        Ok(sqlx::query_as::<_, AccountRow>(
            "SELECT store_id, carrier, account_id, secret, webhook_token, status, checked_at FROM carrier_accounts \
             WHERE carrier = $1 AND webhook_token = $2",
        )
        .bind(carrier)
        .bind(token)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// Keeps the store's key for `carrier` (its webhook token stays when it has one).
    pub async fn save_account(
        &self,
        store_id: i64,
        actor: i64,
        carrier: &str,
        account_id: &str,
        secret: &str,
        new_token: &str,
    ) -> Result<AccountRow> {
        let now = now_ms();
        sqlx::query(
            "INSERT INTO carrier_accounts (store_id, carrier, account_id, secret, webhook_token, status, checked_at, \
             updated_by, updated_at) VALUES ($1, $2, $7, $3, $4, 'working', $5, $6, $5) \
             ON CONFLICT (store_id, carrier) DO UPDATE SET account_id = $7, secret = $3, status = 'working', \
             checked_at = $5, updated_by = $6, updated_at = $5",
        )
        .bind(store_id)
        .bind(carrier)
        .bind(secret)
        .bind(new_token)
        .bind(now)
        .bind(actor)
        .bind(account_id)
        .execute(self.db.pool())
        .await?;
        self.account(store_id, carrier).await?.ok_or_else(|| Error::not_found(Code::CarrierAccountNotFound))
    }

    /// Records what the carrier said of the key when last asked.
    pub async fn account_checked(&self, store_id: i64, carrier: &str, status: &str) -> Result<()> {
        sqlx::query("UPDATE carrier_accounts SET status = $3, checked_at = $4 WHERE store_id = $1 AND carrier = $2")
            .bind(store_id)
            .bind(carrier)
            .bind(status)
            .bind(now_ms())
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// Starts following a parcel (a repeat answers the one followed).
    pub async fn register_shipment(
        &self,
        store_id: i64,
        actor: i64,
        carrier: &str,
        tracking_no: &str,
        reference: &str,
    ) -> Result<ShipmentRow> {
        let now = now_ms();
        sqlx::query(
            "INSERT INTO shipments (store_id, carrier, tracking_no, reference, state, progress, last_event_at, \
             created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, 'pending', 'awaiting', 0, $5, $6, $6) \
             ON CONFLICT (store_id, carrier, tracking_no) DO NOTHING",
        )
        .bind(store_id)
        .bind(carrier)
        .bind(tracking_no)
        .bind(reference)
        .bind(actor)
        .bind(now)
        .execute(self.db.pool())
        .await?;
        self.shipment(store_id, carrier, tracking_no).await?.ok_or_else(|| Error::not_found(Code::ShipmentNotFound))
    }

    /// A followed parcel.
    pub async fn shipment(&self, store_id: i64, carrier: &str, tracking_no: &str) -> Result<Option<ShipmentRow>> {
        Ok(sqlx::query_as::<_, ShipmentRow>(&format!(
            "SELECT {SHIPMENT_COLUMNS} FROM shipments WHERE store_id = $1 AND carrier = $2 AND tracking_no = $3"
        ))
        .bind(store_id)
        .bind(carrier)
        .bind(tracking_no)
        .fetch_optional(self.db.pool())
        .await?)
    }

    /// Parcels of `carrier` whose journey is not over (neither delivered, returned nor
    /// cancelled), least recently changed first: (store, tracking number).
    pub async fn open_shipments(&self, carrier: &str, limit: i64) -> Result<Vec<(i64, String)>> {
        Ok(sqlx::query_as(
            "SELECT store_id, tracking_no FROM shipments WHERE carrier = $1 AND state <> 'cancelled' \
             AND progress NOT IN ('delivered', 'returned', 'cancelled') ORDER BY updated_at LIMIT $2",
        )
        .bind(carrier)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Marks parcels asked about now, so the next round asks the others first.
    pub async fn touch_shipments(&self, store_id: i64, carrier: &str, tracking: &[String]) -> Result<()> {
        let now = now_ms();
        for t in tracking {
            sqlx::query(
                "UPDATE shipments SET updated_at = $1 WHERE store_id = $2 AND carrier = $3 AND tracking_no = $4",
            )
            .bind(now)
            .bind(store_id)
            .bind(carrier)
            .bind(t)
            .execute(self.db.pool())
            .await?;
        }
        Ok(())
    }

    /// A parcel's events, oldest first.
    pub async fn shipment_events(&self, shipment_id: i64) -> Result<Vec<(String, String, String, String, i64)>> {
        Ok(sqlx::query_as(
            "SELECT status, description, location, progress, at_ms FROM shipment_events WHERE shipment_id = $1 \
             ORDER BY at_ms, id",
        )
        .bind(shipment_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Records carrier events of the store's followed parcels: a repeated event is skipped;
    /// the newest event sets the parcel's progress and, when it says so, its state (a
    /// cancelled parcel stays cancelled). Answers (recorded, about parcels not followed).
    pub async fn apply_events(&self, store_id: i64, events: &[crate::carriers::TrackingEvent]) -> Result<(i64, i64)> {
        let mut tx = self.db.begin().await?;
        let (mut applied, mut unknown) = (0, 0);
        for e in events {
            let found: Option<(i64, String, i64)> = sqlx::query_as(
                "SELECT id, state, last_event_at FROM shipments WHERE store_id = $1 AND carrier = $2 AND tracking_no = $3",
            )
            .bind(store_id)
            .bind(&e.carrier)
            .bind(&e.barcode)
            .fetch_optional(&mut *tx)
            .await?;
            let Some((id, state, last)) = found else {
                unknown += 1;
                continue;
            };
            let progress =
                serde_json::to_value(e.progress).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
            let r = sqlx::query(
                "INSERT INTO shipment_events (shipment_id, status, description, location, progress, at_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (shipment_id, status, at_ms) DO NOTHING",
            )
            .bind(id)
            .bind(&e.status)
            .bind(&e.description)
            .bind(&e.location)
            .bind(&progress)
            .bind(e.at_ms)
            .execute(&mut *tx)
            .await?;
            if !bo_kit::db::changed(&r) {
                continue;
            }
            applied += 1;
            if e.at_ms >= last {
                let next = match (state.as_str(), e.shipment_state()) {
                    ("cancelled", _) => state.clone(),
                    (_, Some(s)) => s.to_string(),
                    (_, None) => state.clone(),
                };
                sqlx::query(
                    "UPDATE shipments SET state = $2, progress = $3, last_event_at = $4, updated_at = $5 WHERE id = $1",
                )
                .bind(id)
                .bind(&next)
                .bind(&progress)
                .bind(e.at_ms)
                .bind(now_ms())
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok((applied, unknown))
    }

    /// Marks a parcel cancelled.
    pub async fn cancel_shipment(&self, store_id: i64, id: i64) -> Result<()> {
        sqlx::query("UPDATE shipments SET state = 'cancelled', progress = 'cancelled', updated_at = $3 WHERE store_id = $1 AND id = $2")
            .bind(store_id)
            .bind(id)
            .bind(now_ms())
            .execute(self.db.pool())
            .await?;
        Ok(())
    }
}
