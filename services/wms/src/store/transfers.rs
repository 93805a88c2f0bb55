//! SQL of transfers between warehouses. Sending takes every line's units off the source's
//! stock row with the same conditional update a reservation uses (so a transfer and a
//! reservation racing for the last units can never both have them), takes them off the
//! source's free lots first expiry first, and carries those lots' cost, expiry and arrival
//! in `transfer_lots` until the receiving side confirms and they become lots there.

use bo_kit::db::Tx;
use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::now_ms;
use bo_kit::Code;
use bo_kit::{Error, FieldError, Result};
use sqlx::FromRow;

use super::{check_active_warehouse, check_warehouse, claim, lots, next_code, record, Actor, Repo, Take};
use crate::domain::{kind, Line};

/// A transfer on its way.
pub const IN_TRANSIT: &str = "in_transit";
/// A transfer that arrived.
pub const RECEIVED: &str = "received";

/// A transfer.
#[derive(Debug, Clone, Default, FromRow)]
pub struct TransferRow {
    pub id: i64,
    pub code: String,
    /// In transit or received.
    pub state: String,
    pub from_warehouse_id: i64,
    pub to_warehouse_id: i64,
    pub note: String,
    pub created_by: i64,
    pub received_by: i64,
    pub created_at: i64,
    pub received_at: i64,
}

const COLUMNS: &str =
    "id, code, state, from_warehouse_id, to_warehouse_id, note, created_by, received_by, created_at, received_at";

/// What a transfer carries of one SKU, and from which lots.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TransferLine {
    pub sku_id: i64,
    pub sku_code: String,
    pub product_name: String,
    pub quantity: i64,
    /// First expiry first.
    pub lots: Vec<Take>,
}

/// A transfer with its lines.
#[derive(Debug, Clone)]
pub struct TransferRecord {
    pub row: TransferRow,
    pub lines: Vec<TransferLine>,
}

/// Units on their way to a warehouse, of one SKU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InTransitRow {
    pub warehouse_id: i64,
    pub sku_id: i64,
    pub quantity: i64,
}

#[derive(Debug, Clone, FromRow)]
struct CarriedRow {
    sku_id: i64,
    lot_id: i64,
    code: String,
    quantity: i64,
    unit_cost: i64,
    expires_at: i64,
    received_at: i64,
}

impl Repo {
    /// Sends units from one warehouse to another: every line or none, once per reference.
    pub async fn create_transfer(
        &self,
        who: Actor,
        reference: &str,
        from: i64,
        to: i64,
        note: &str,
        lines: &[Line],
    ) -> Result<(TransferRecord, bool)> {
        if from == to {
            return Err(Error::invalid_field("to_warehouse_id", "validation.same_warehouse"));
        }
        if note.chars().count() > 500 {
            return Err(Error::invalid_field("note", "validation.too_long"));
        }
        let mut tx = self.db.begin().await?;
        if !claim(&mut tx, who.store_id, "transfer", reference).await? {
            tx.rollback().await?;
            let id: Option<i64> = sqlx::query_scalar("SELECT id FROM transfers WHERE store_id = $1 AND reference = $2")
                .bind(who.store_id)
                .bind(reference)
                .fetch_optional(self.db.pool())
                .await?;
            let id = id.ok_or_else(|| Error::conflict(Code::ReferenceInUse))?;
            return Ok((self.transfer(who.store_id, id).await?, true));
        }
        check_warehouse(&mut tx, who.store_id, from).await?;
        check_active_warehouse(&mut tx, who.store_id, to).await?;
        crate::registry::check(&mut tx, who.store_id, &lines.iter().map(|l| l.sku_id).collect::<Vec<_>>()).await?;
        let code = next_code(&mut tx, who.store_id, "TF").await?;
        let now = now_ms();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO transfers (store_id, code, reference, state, from_warehouse_id, to_warehouse_id, note, \
             created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
        )
        .bind(who.store_id)
        .bind(&code)
        .bind(reference)
        .bind(IN_TRANSIT)
        .bind(from)
        .bind(to)
        .bind(note.trim())
        .bind(who.user_id)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        let movement_ref = format!("tf:{id}");
        for (i, l) in lines.iter().enumerate() {
            let moved = sqlx::query(
                "UPDATE stock SET on_hand = on_hand - $1, updated_at = $2 \
                 WHERE store_id = $3 AND warehouse_id = $4 AND sku_id = $5 AND on_hand - reserved >= $1",
            )
            .bind(l.quantity)
            .bind(now)
            .bind(who.store_id)
            .bind(from)
            .bind(l.sku_id)
            .execute(&mut *tx)
            .await?;
            if moved.rows_affected() == 0 {
                // Nothing is kept: the transaction (and the claim) roll back.
                let mut e = Error::failed_precondition(Code::InsufficientStock);
                e.fields = vec![FieldError::new(format!("lines[{i}].quantity"), "stock.insufficient")];
                return Err(e);
            }
            let taken = lots::take_free(&mut tx, who.store_id, from, l.sku_id, l.quantity).await?;
            for t in &taken {
                sqlx::query(
                    "INSERT INTO transfer_lots (transfer_id, store_id, sku_id, lot_id, code, quantity, unit_cost, \
                     expires_at, received_at) SELECT $1, $2, $3, id, code, $4, unit_cost, expires_at, received_at \
                     FROM stock_lots WHERE id = $5",
                )
                .bind(id)
                .bind(who.store_id)
                .bind(l.sku_id)
                .bind(t.quantity)
                .bind(t.lot_id)
                .execute(&mut *tx)
                .await?;
            }
            record(&mut tx, who, from, l.sku_id, kind::TRANSFER_OUT, -l.quantity, 0, &code, &movement_ref, &taken)
                .await?;
        }
        tx.commit().await?;
        Ok((self.transfer(who.store_id, id).await?, false))
    }

    /// The receiving side confirms: each carried lot becomes a lot there with the same code,
    /// cost, expiry and first arrival. A transfer already received is answered as it is.
    pub async fn receive_transfer(&self, who: Actor, id: i64) -> Result<(TransferRecord, bool)> {
        let mut tx = self.db.begin().await?;
        let row = read_row(&mut tx, who.store_id, id).await?;
        if row.state == RECEIVED {
            tx.rollback().await?;
            return Ok((self.transfer(who.store_id, id).await?, true));
        }
        check_active_warehouse(&mut tx, who.store_id, row.to_warehouse_id).await?;
        let now = now_ms();
        let moved = sqlx::query(
            "UPDATE transfers SET state = $1, received_by = $2, received_at = $3 WHERE id = $4 AND state = $5",
        )
        .bind(RECEIVED)
        .bind(who.user_id)
        .bind(now)
        .bind(id)
        .bind(IN_TRANSIT)
        .execute(&mut *tx)
        .await?;
        if moved.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok((self.transfer(who.store_id, id).await?, true));
        }
        let carried = carried(&mut tx, id).await?;
        let movement_ref = format!("tf:{id}");
        let mut by_sku: std::collections::BTreeMap<i64, Vec<&CarriedRow>> = Default::default();
        for c in &carried {
            by_sku.entry(c.sku_id).or_default().push(c);
        }
        for (sku, rows) in by_sku {
            let mut takes = Vec::new();
            let mut units = 0;
            for c in rows {
                let lot = lots::NewLot {
                    warehouse_id: row.to_warehouse_id,
                    sku_id: sku,
                    code: c.code.clone(),
                    goods_receipt_id: 0,
                    unit_cost: Some(c.unit_cost),
                    expires_at: c.expires_at,
                    received_at: c.received_at,
                    quantity: c.quantity,
                };
                takes.push(lots::put(&mut tx, who.store_id, &lot).await?);
                units += c.quantity;
            }
            record(
                &mut tx,
                who,
                row.to_warehouse_id,
                sku,
                kind::TRANSFER_IN,
                units,
                0,
                &row.code,
                &movement_ref,
                &takes,
            )
            .await?;
        }
        tx.commit().await?;
        Ok((self.transfer(who.store_id, id).await?, false))
    }

    /// One transfer with its lines and lots.
    pub async fn transfer(&self, store_id: i64, id: i64) -> Result<TransferRecord> {
        let mut tx = self.db.begin().await?;
        let row = read_row(&mut tx, store_id, id).await?;
        let carried = carried(&mut tx, id).await?;
        tx.commit().await?;
        let infos =
            crate::registry::infos(self.db.pool(), store_id, &carried.iter().map(|c| c.sku_id).collect::<Vec<_>>())
                .await?;
        let mut lines: Vec<TransferLine> = Vec::new();
        for c in carried {
            let line = match lines.iter_mut().find(|l| l.sku_id == c.sku_id) {
                Some(l) => l,
                None => {
                    let info = infos.get(&c.sku_id).cloned().unwrap_or_default();
                    lines.push(TransferLine {
                        sku_id: c.sku_id,
                        sku_code: info.code,
                        product_name: info.product_name,
                        ..Default::default()
                    });
                    lines.last_mut().expect("just pushed")
                }
            };
            line.quantity += c.quantity;
            line.lots.push(Take { lot_id: c.lot_id, lot_code: c.code, quantity: c.quantity, expires_at: c.expires_at });
        }
        for l in &mut lines {
            l.lots.sort_by_key(|t| (t.expires_at == 0, t.expires_at, t.lot_id));
        }
        Ok(TransferRecord { row, lines })
    }

    /// Transfers, newest first.
    pub async fn transfers(
        &self,
        store_id: i64,
        state: &str,
        page: PageRequest,
    ) -> Result<(Vec<TransferRecord>, Page)> {
        if !state.is_empty() && state != IN_TRANSIT && state != RECEIVED {
            return Err(Error::invalid_field("state", "validation.choice"));
        }
        let filter = "store_id = $1 AND ($2 = '' OR state = $2)";
        let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM transfers WHERE {filter}"))
            .bind(store_id)
            .bind(state)
            .fetch_one(self.db.pool())
            .await?;
        let page = page.resolve(total);
        let rows = sqlx::query_as::<_, TransferRow>(&format!(
            "SELECT {COLUMNS} FROM transfers WHERE {filter} ORDER BY id DESC LIMIT $3 OFFSET $4"
        ))
        .bind(store_id)
        .bind(state)
        .bind(page.fetch)
        .bind(page.offset)
        .fetch_all(self.db.pool())
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            out.push(self.transfer(store_id, r.id).await?);
        }
        Ok((out, page))
    }

    /// Units on their way to each warehouse, per SKU.
    pub async fn in_transit(&self, store_id: i64, sku_ids: &[i64]) -> Result<Vec<InTransitRow>> {
        let skus: Vec<i64> = sku_ids.iter().copied().filter(|s| *s > 0).take(500).collect();
        let only = if skus.is_empty() {
            String::new()
        } else {
            format!("AND c.sku_id IN ({})", skus.iter().map(i64::to_string).collect::<Vec<_>>().join(", "))
        };
        let rows: Vec<(i64, i64, i64)> = sqlx::query_as(&format!(
            "SELECT t.to_warehouse_id, c.sku_id, CAST(SUM(c.quantity) AS BIGINT) FROM transfer_lots c \
             JOIN transfers t ON t.id = c.transfer_id WHERE t.store_id = $1 AND t.state = $2 {only} \
             GROUP BY t.to_warehouse_id, c.sku_id ORDER BY c.sku_id, t.to_warehouse_id"
        ))
        .bind(store_id)
        .bind(IN_TRANSIT)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows
            .into_iter()
            .map(|(warehouse_id, sku_id, quantity)| InTransitRow { warehouse_id, sku_id, quantity })
            .collect())
    }
}

async fn read_row(tx: &mut Tx, store_id: i64, id: i64) -> Result<TransferRow> {
    sqlx::query_as::<_, TransferRow>(&format!("SELECT {COLUMNS} FROM transfers WHERE store_id = $1 AND id = $2"))
        .bind(store_id)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::not_found(Code::TransferNotFound))
}

async fn carried(tx: &mut Tx, id: i64) -> Result<Vec<CarriedRow>> {
    Ok(sqlx::query_as::<_, CarriedRow>(
        "SELECT sku_id, lot_id, code, quantity, unit_cost, expires_at, received_at FROM transfer_lots \
         WHERE transfer_id = $1 ORDER BY sku_id, lot_id",
    )
    .bind(id)
    .fetch_all(&mut **tx)
    .await?)
}
