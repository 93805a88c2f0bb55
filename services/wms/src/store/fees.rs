//! Fee plans and fee charges. A charge is written in the transaction of what it charges for
//! (an order shipping, a goods receipt approved), once per document, and told with
//! `wms.fees.charged` from the same transaction.

use bo_kit::db::Tx;
use bo_kit::outbox;
use bo_kit::time::now_ms;
use bo_kit::Result;
use bo_proto::events::v1 as ev;
use bo_proto::wms::v1 as pb;
use sqlx::FromRow;

use super::{check_warehouse, Actor, Repo};
use crate::domain::fees::{Amounts, Plan};

const PLAN_COLUMNS: &str = "receipt_line, shelving, pick, pack, packaging, material, additional, shipping, cod_rate_bp";
const AMOUNT_COLUMNS: &str =
    "orders, receipts, shelving, goods_receipt, picking, packing, packaging, material, additional, shipping, cod";

/// A warehouse's plan as kept (zeros and `updated_at` 0 where none was set).
#[derive(Debug, Clone, Default, FromRow)]
pub struct PlanRow {
    pub warehouse_id: i64,
    #[sqlx(flatten)]
    pub plan: Plan,
    pub updated_by: i64,
    pub updated_at: i64,
}

/// A charge as kept.
#[derive(Debug, Clone, Default, FromRow)]
pub struct ChargeRow {
    pub id: i64,
    pub store_id: i64,
    pub warehouse_id: i64,
    pub document: String,
    pub document_id: i64,
    pub charged_at: i64,
    #[sqlx(flatten)]
    pub amounts: Amounts,
}

/// The plan a warehouse charges by now (a zero plan where none was set).
pub(crate) async fn plan_in(tx: &mut Tx, store_id: i64, warehouse_id: i64) -> Result<Plan> {
    let row = sqlx::query_as::<_, PlanRow>(&format!(
        "SELECT warehouse_id, {PLAN_COLUMNS}, updated_by, updated_at FROM fee_plans \
         WHERE store_id = $1 AND warehouse_id = $2"
    ))
    .bind(store_id)
    .bind(warehouse_id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|r| r.plan).unwrap_or_default())
}

/// Charges a document's fees once, and tells it; a second charge of the same document
/// changes nothing. A charge of nothing but the document is still kept: it counts the order
/// or receipt.
pub(crate) async fn charge(
    tx: &mut Tx,
    who: Actor,
    warehouse_id: i64,
    document: &str,
    document_id: i64,
    a: &Amounts,
) -> Result<()> {
    let now = now_ms();
    let id: Option<i64> = sqlx::query_scalar(&format!(
        "INSERT INTO fee_charges (store_id, warehouse_id, document, document_id, charged_at, {AMOUNT_COLUMNS}) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) \
         ON CONFLICT (store_id, document, document_id) DO NOTHING RETURNING id"
    ))
    .bind(who.store_id)
    .bind(warehouse_id)
    .bind(document)
    .bind(document_id)
    .bind(now)
    .bind(a.orders)
    .bind(a.receipts)
    .bind(a.shelving)
    .bind(a.goods_receipt)
    .bind(a.picking)
    .bind(a.packing)
    .bind(a.packaging)
    .bind(a.material)
    .bind(a.additional)
    .bind(a.shipping)
    .bind(a.cod)
    .fetch_optional(&mut **tx)
    .await?;
    if id.is_some() {
        let charge = fee_charge(warehouse_id, document, document_id, now, a);
        outbox::enqueue(tx, who.store_id, who.user_id, &ev::FeesCharged { charge: Some(charge) }).await?;
    }
    Ok(())
}

/// A charge as the contract says it.
pub fn fee_charge(warehouse_id: i64, document: &str, document_id: i64, at_ms: i64, a: &Amounts) -> pb::FeeCharge {
    pb::FeeCharge {
        warehouse_id,
        document: document.to_string(),
        document_id,
        charge_time: Some(bo_kit::time::ms_to_timestamp(at_ms)),
        amounts: Some(pb::FeeAmounts {
            orders: a.orders,
            receipts: a.receipts,
            shelving: a.shelving,
            goods_receipt: a.goods_receipt,
            picking: a.picking,
            packing: a.packing,
            packaging: a.packaging,
            material: a.material,
            additional: a.additional,
            shipping: a.shipping,
            cod: a.cod,
        }),
    }
}

impl Repo {
    /// Every warehouse of the store with its plan, in warehouse order.
    pub async fn fee_plans(&self, store_id: i64) -> Result<Vec<PlanRow>> {
        let columns = PLAN_COLUMNS.split(", ").map(|c| format!("COALESCE(p.{c}, 0) AS {c}")).collect::<Vec<_>>();
        Ok(sqlx::query_as::<_, PlanRow>(&format!(
            "SELECT w.id AS warehouse_id, {}, COALESCE(p.updated_by, 0) AS updated_by, \
             COALESCE(p.updated_at, 0) AS updated_at FROM warehouses w \
             LEFT JOIN fee_plans p ON p.store_id = w.store_id AND p.warehouse_id = w.id \
             WHERE w.store_id = $1 ORDER BY w.id",
            columns.join(", ")
        ))
        .bind(store_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Sets a warehouse's plan from now on; answers it as kept.
    pub async fn save_fee_plan(&self, who: Actor, warehouse_id: i64, plan: &Plan) -> Result<PlanRow> {
        plan.check()?;
        let mut tx = self.db.begin().await?;
        check_warehouse(&mut tx, who.store_id, warehouse_id).await?;
        let set = PLAN_COLUMNS.split(", ").map(|c| format!("{c} = excluded.{c}")).collect::<Vec<_>>();
        sqlx::query(&format!(
            "INSERT INTO fee_plans (store_id, warehouse_id, {PLAN_COLUMNS}, updated_by, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) \
             ON CONFLICT (store_id, warehouse_id) DO UPDATE SET {}, updated_by = excluded.updated_by, \
             updated_at = excluded.updated_at",
            set.join(", ")
        ))
        .bind(who.store_id)
        .bind(warehouse_id)
        .bind(plan.receipt_line)
        .bind(plan.shelving)
        .bind(plan.pick)
        .bind(plan.pack)
        .bind(plan.packaging)
        .bind(plan.material)
        .bind(plan.additional)
        .bind(plan.shipping)
        .bind(plan.cod_rate_bp)
        .bind(who.user_id)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        let row = sqlx::query_as::<_, PlanRow>(&format!(
            "SELECT warehouse_id, {PLAN_COLUMNS}, updated_by, updated_at FROM fee_plans \
             WHERE store_id = $1 AND warehouse_id = $2"
        ))
        .bind(who.store_id)
        .bind(warehouse_id)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(row)
    }

    /// Every store's charges after `after_id`, in id order.
    pub async fn fee_charges(&self, after_id: i64, limit: i64) -> Result<Vec<ChargeRow>> {
        Ok(sqlx::query_as::<_, ChargeRow>(&format!(
            "SELECT id, store_id, warehouse_id, document, document_id, charged_at, {AMOUNT_COLUMNS} \
             FROM fee_charges WHERE id > $1 ORDER BY id LIMIT $2"
        ))
        .bind(after_id)
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?)
    }
}
