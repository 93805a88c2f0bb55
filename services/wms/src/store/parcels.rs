//! Orders' parcels. A pending parcel may be changed or removed; shipping an order takes what
//! its reference holds off the shelf and ships its pending parcels in one transaction.

use bo_kit::db::Tx;
use bo_kit::time::now_ms;
use bo_kit::Code;
use bo_kit::{Error, Result};
use sqlx::{FromRow, Row};

use super::{check_warehouse, fees, settle_in, Actor, Repo, Settled};
use crate::domain::fees::{document, ParcelFees};
use crate::domain::parcels::{self as rules, Parcel, ParcelDraft, PENDING, SHIPPED};
use crate::domain::state;

const COLUMNS: &str = "id, order_id, warehouse_id, logistic_store_channel_id, provider, weight_g, width_cm, length_cm, \
    height_cm, packaging_code, shipping_fee, cod_amount, cod_fee, packing_fee, tracking_no, shipment_id, state, printed_at, \
    created_by, created_at, shipped_at";

/// A parcel.
#[derive(Debug, Clone, Default, FromRow)]
pub struct ParcelRow {
    pub id: i64,
    pub order_id: i64,
    pub warehouse_id: i64,
    pub logistic_store_channel_id: i64,
    pub provider: String,
    pub weight_g: i64,
    pub width_cm: i64,
    pub length_cm: i64,
    pub height_cm: i64,
    pub packaging_code: String,
    pub shipping_fee: i64,
    pub cod_amount: i64,
    pub cod_fee: i64,
    pub packing_fee: i64,
    pub tracking_no: String,
    pub shipment_id: i64,
    /// Pending or shipped (`domain::parcels`).
    pub state: String,
    pub printed_at: i64,
    pub created_by: i64,
    pub created_at: i64,
    pub shipped_at: i64,
}

/// The columns a parcel's add and change both write, in the order [`bind_fields`] binds
/// them (placeholders `$1` to `$14`).
const FIELDS: [&str; 14] = [
    "warehouse_id",
    "logistic_store_channel_id",
    "provider",
    "weight_g",
    "width_cm",
    "length_cm",
    "height_cm",
    "packaging_code",
    "shipping_fee",
    "cod_amount",
    "cod_fee",
    "packing_fee",
    "tracking_no",
    "shipment_id",
];

type Query<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

/// Binds [`FIELDS`] of a parcel, in order.
fn bind_fields<'q>(q: Query<'q>, p: &'q Parcel, d: &'q ParcelDraft) -> Query<'q> {
    q.bind(p.warehouse_id)
        .bind(p.logistic_store_channel_id)
        .bind(p.provider.trim())
        .bind(d.weight_g)
        .bind(d.dims_cm[0])
        .bind(d.dims_cm[1])
        .bind(d.dims_cm[2])
        .bind(&d.packaging_code)
        .bind(d.shipping_fee)
        .bind(d.cod_amount)
        .bind(d.cod_fee)
        .bind(d.packing_fee)
        .bind(&d.tracking_no)
        .bind(p.shipment_id)
}

async fn of_order(tx: &mut Tx, store_id: i64, order_id: i64) -> Result<Vec<ParcelRow>> {
    Ok(sqlx::query_as::<_, ParcelRow>(&format!(
        "SELECT {COLUMNS} FROM parcels WHERE store_id = $1 AND order_id = $2 ORDER BY id"
    ))
    .bind(store_id)
    .bind(order_id)
    .fetch_all(&mut **tx)
    .await?)
}

impl Repo {
    /// Adds (`id` 0) or rewrites a pending parcel of an order.
    pub async fn save_parcel(&self, who: Actor, p: &Parcel) -> Result<ParcelRow> {
        let mut d = p.draft.clone();
        rules::check(&d)?;
        // The packing fee is what the packaging of the catalogue costs.
        d.packing_fee = rules::packaging(&d.packaging_code).map_or(0, |k| k.fee);
        if p.order_id <= 0 {
            return Err(Error::invalid_field("order_id", "validation.required"));
        }
        let mut tx = self.db.begin().await?;
        check_warehouse(&mut tx, who.store_id, p.warehouse_id).await?;
        let now = now_ms();
        let id = if p.id > 0 {
            let row: Option<(i64, String)> =
                sqlx::query_as("SELECT order_id, state FROM parcels WHERE store_id = $1 AND id = $2")
                    .bind(who.store_id)
                    .bind(p.id)
                    .fetch_optional(&mut *tx)
                    .await?;
            match row {
                None => return Err(Error::not_found(Code::ParcelNotFound)),
                Some((order, _)) if order != p.order_id => return Err(Error::not_found(Code::ParcelNotFound)),
                Some((_, s)) if s != PENDING => return Err(Error::failed_precondition(Code::ParcelShipped)),
                Some(_) => {}
            }
            let sql = format!(
                "UPDATE parcels SET {}, updated_at = $15 WHERE store_id = $16 AND id = $17 AND state = $18",
                FIELDS.iter().enumerate().map(|(i, f)| format!("{f} = ${}", i + 1)).collect::<Vec<_>>().join(", ")
            );
            bind_fields(sqlx::query(&sql), p, &d)
                .bind(now)
                .bind(who.store_id)
                .bind(p.id)
                .bind(PENDING)
                .execute(&mut *tx)
                .await?;
            p.id
        } else {
            let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM parcels WHERE store_id = $1 AND order_id = $2")
                .bind(who.store_id)
                .bind(p.order_id)
                .fetch_one(&mut *tx)
                .await?;
            if count >= rules::MAX_PER_ORDER {
                return Err(Error::failed_precondition(Code::ParcelLimitReached));
            }
            let sql = format!(
                "INSERT INTO parcels ({}, store_id, order_id, state, created_by, created_at, updated_at) \
                 VALUES ({}, $15, $16, $17, $18, $19, $19) RETURNING id",
                FIELDS.join(", "),
                (1..=FIELDS.len()).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
            );
            bind_fields(sqlx::query(&sql), p, &d)
                .bind(who.store_id)
                .bind(p.order_id)
                .bind(PENDING)
                .bind(who.user_id)
                .bind(now)
                .fetch_one(&mut *tx)
                .await?
                .get::<i64, _>(0)
        };
        let row = sqlx::query_as::<_, ParcelRow>(&format!("SELECT {COLUMNS} FROM parcels WHERE id = $1"))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Removes a pending parcel; answers it as it was.
    pub async fn delete_parcel(&self, who: Actor, id: i64) -> Result<ParcelRow> {
        let mut tx = self.db.begin().await?;
        let row =
            sqlx::query_as::<_, ParcelRow>(&format!("SELECT {COLUMNS} FROM parcels WHERE store_id = $1 AND id = $2"))
                .bind(who.store_id)
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?
                .ok_or_else(|| Error::not_found(Code::ParcelNotFound))?;
        if row.state != PENDING {
            return Err(Error::failed_precondition(Code::ParcelShipped));
        }
        sqlx::query("DELETE FROM parcels WHERE store_id = $1 AND id = $2 AND state = $3")
            .bind(who.store_id)
            .bind(id)
            .bind(PENDING)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Parcels of orders, or parcels by id (at most 1,000 of either).
    pub async fn parcels(&self, store_id: i64, order_ids: &[i64], ids: &[i64]) -> Result<Vec<ParcelRow>> {
        let (column, keys) = if ids.is_empty() { ("order_id", order_ids) } else { ("id", ids) };
        let mut out = Vec::new();
        for chunk in keys.chunks(200) {
            let placeholders: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "SELECT {COLUMNS} FROM parcels WHERE store_id = $1 AND {column} IN ({}) ORDER BY order_id, id",
                placeholders.join(", ")
            );
            let mut q = sqlx::query_as::<_, ParcelRow>(&sql).bind(store_id);
            for k in chunk {
                q = q.bind(*k);
            }
            out.extend(q.fetch_all(self.db.pool()).await?);
        }
        Ok(out)
    }

    /// Records that parcels' labels were printed now.
    pub async fn mark_parcels_printed(&self, store_id: i64, ids: &[i64]) -> Result<()> {
        let mut tx = self.db.begin().await?;
        let now = now_ms();
        for id in ids {
            sqlx::query("UPDATE parcels SET printed_at = $1 WHERE store_id = $2 AND id = $3")
                .bind(now)
                .bind(store_id)
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Ships an order: what `reference` holds leaves the shelf and the order's pending parcels
    /// (at least one, each with a tracking number) are shipped, in one transaction. A repeat
    /// answers the shipped parcels with `replayed`. Answers (parcels, units, replayed).
    pub async fn ship_order(
        &self,
        who: Actor,
        order_id: i64,
        reference: &str,
        by_channel: bool,
    ) -> Result<(Vec<ParcelRow>, i64, bool)> {
        let mut tx = self.db.begin().await?;
        let units = match settle_in(&mut tx, who, reference, true).await? {
            Settled::Before => {
                let committed: Option<i64> = sqlx::query_scalar(
                    "SELECT 1 FROM reservation_lines WHERE store_id = $1 AND reference = $2 AND state = $3 LIMIT 1",
                )
                .bind(who.store_id)
                .bind(reference)
                .bind(state::COMMITTED)
                .fetch_optional(&mut *tx)
                .await?;
                let parcels = of_order(&mut tx, who.store_id, order_id).await?;
                tx.rollback().await?;
                if committed.is_none() {
                    return Err(Error::failed_precondition(Code::ReservationSettled));
                }
                return Ok((parcels, 0, true));
            }
            Settled::Nothing => return Err(Error::failed_precondition(Code::NothingReserved)),
            Settled::Units(n) => n,
        };
        let pending: Vec<ParcelRow> =
            of_order(&mut tx, who.store_id, order_id).await?.into_iter().filter(|p| p.state == PENDING).collect();
        if pending.is_empty() && !by_channel {
            return Err(Error::failed_precondition(Code::ParcelRequired));
        }
        if !by_channel && pending.iter().any(|p| p.tracking_no.is_empty()) {
            return Err(Error::failed_precondition(Code::ParcelTrackingMissing));
        }
        let now = now_ms();
        sqlx::query(
            "UPDATE parcels SET state = $1, shipped_at = $2, updated_at = $2 WHERE store_id = $3 AND order_id = $4 \
             AND state = $5",
        )
        .bind(SHIPPED)
        .bind(now)
        .bind(who.store_id)
        .bind(order_id)
        .bind(PENDING)
        .execute(&mut *tx)
        .await?;
        // The order's fees, at the plan of the warehouse it ships from.
        let warehouse_id = match pending.first() {
            Some(p) => p.warehouse_id,
            None => reserved_warehouse(&mut tx, who.store_id, reference).await?,
        };
        let plan = fees::plan_in(&mut tx, who.store_id, warehouse_id).await?;
        let sent: Vec<ParcelFees> = pending
            .iter()
            .map(|p| ParcelFees {
                catalogue_box: !p.packaging_code.is_empty(),
                box_price: p.packing_fee,
                shipping_fee: p.shipping_fee,
                cod_amount: p.cod_amount,
                cod_fee: p.cod_fee,
            })
            .collect();
        let amounts = crate::domain::fees::order(&plan, units, &sent);
        fees::charge(&mut tx, who, warehouse_id, document::ORDER, order_id, &amounts).await?;
        let parcels = of_order(&mut tx, who.store_id, order_id).await?;
        tx.commit().await?;
        Ok((parcels, units, false))
    }
}

/// The warehouse an order's stock was held in (its first line's), for an order shipped
/// without parcels of ours.
async fn reserved_warehouse(tx: &mut Tx, store_id: i64, reference: &str) -> Result<i64> {
    let w: Option<i64> = sqlx::query_scalar(
        "SELECT warehouse_id FROM reservation_lines WHERE store_id = $1 AND reference = $2 ORDER BY warehouse_id LIMIT 1",
    )
    .bind(store_id)
    .bind(reference)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(w.unwrap_or_default())
}
