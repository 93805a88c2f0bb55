//! SQL of goods receipts. Every state change is a conditional update from the state it was
//! read in, so of two concurrent approves one acts and the other finds it approved; the good
//! units go on hand as lots in the same transaction as the approval.

use bo_kit::db::Tx;
use bo_kit::outbox;
use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::now_ms;
use bo_kit::Code;
use bo_kit::{Error, FieldError, Result};
use bo_proto::events::v1 as ev;
use serde::{Deserialize, Serialize};
use sqlx::FromRow;

use super::{claim, lots, next_code, record, Actor, Repo};
use crate::domain::lots::unit_cost;
use crate::domain::receipt::{self as rules, Action, Draft, LineCount, Next, State};
use crate::domain::{kind, Line};

/// A goods receipt, with its warehouse's name.
#[derive(Debug, Clone, Default, FromRow)]
pub struct ReceiptRow {
    pub id: i64,
    pub store_id: i64,
    pub code: String,
    /// Product, parcel or material (`domain::receipt::TYPES`).
    pub kind: String,
    /// A word of `domain::receipt::State`.
    pub state: String,
    pub warehouse_id: i64,
    pub warehouse_name: String,
    pub expected_received_at: i64,
    pub note: String,
    pub is_pick_up: i64,
    pub pick_up_address: String,
    pub pick_up_tel: String,
    pub pick_up_at: i64,
    /// JSON: a list of [`PackagingJson`] (read with [`ReceiptRow::packagings`]).
    pub packagings: String,
    /// JSON: a list of words (read with [`ReceiptRow::options`]).
    pub options: String,
    pub reject_reason: String,
    pub created_by: i64,
    pub printed_by: i64,
    pub checked_by: i64,
    pub decided_by: i64,
    pub decided_at: i64,
    pub line_count: i64,
    pub total_cost: i64,
    pub total_request_qty: i64,
    pub created_at: i64,
    pub updated_at: i64,
    /// The order whose returned goods it received (0 for a receipt made here).
    pub order_id: i64,
}

/// A receipt with its lines (none when listed).
#[derive(Debug, Clone)]
pub struct ReceiptRecord {
    pub row: ReceiptRow,
    pub lines: Vec<LineRow>,
}

const RECEIPT_COLUMNS: &str = "r.id, r.store_id, r.code, r.type AS kind, r.state, r.warehouse_id, \
    COALESCE(w.name, '') AS warehouse_name, r.expected_received_at, r.note, r.is_pick_up, r.pick_up_address, \
    r.pick_up_tel, r.pick_up_at, r.packagings, r.options, r.reject_reason, r.created_by, r.printed_by, r.checked_by, \
    r.decided_by, r.decided_at, r.line_count, r.total_cost, r.total_request_qty, r.created_at, r.updated_at, \
    r.order_id";

const RECEIPT_FROM: &str = "goods_receipts r LEFT JOIN warehouses w ON w.id = r.warehouse_id";

/// A packaging as a receipt keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackagingJson {
    pub name: String,
    pub quantity: i64,
    #[serde(default)]
    pub width_cm: i64,
    #[serde(default)]
    pub length_cm: i64,
    #[serde(default)]
    pub height_cm: i64,
    #[serde(default)]
    pub weight_g: i64,
}

impl ReceiptRow {
    /// Its packagings (none when the column does not read).
    pub fn packagings(&self) -> Vec<PackagingJson> {
        serde_json::from_str(&self.packagings).unwrap_or_default()
    }

    /// Its options (none when the column does not read).
    pub fn options(&self) -> Vec<String> {
        serde_json::from_str(&self.options).unwrap_or_default()
    }
}

/// A line of a receipt, with its SKU's names as they were when it was written.
#[derive(Debug, Clone, Default, FromRow)]
pub struct LineRow {
    pub id: i64,
    pub sku_id: i64,
    pub product_id: i64,
    pub product_name: String,
    pub sku_code: String,
    pub barcode: String,
    pub option1: String,
    pub option2: String,
    pub name: String,
    pub width_cm: i64,
    pub length_cm: i64,
    pub height_cm: i64,
    pub weight_g: i64,
    pub cost: i64,
    pub request_qty: i64,
    pub receive_qty: i64,
    pub defect_qty: i64,
    pub expires_at: i64,
    pub unit_id: i64,
    pub unit_name: String,
    pub unit_quantity: i64,
    pub print_label: i64,
    /// Empty until counted, then a word of `domain::receipt::line_status`.
    pub status: String,
}

const LINE_COLUMNS: &str =
    "id, sku_id, product_id, product_name, sku_code, barcode, option1, option2, name, width_cm, \
    length_cm, height_cm, weight_g, cost, request_qty, receive_qty, defect_qty, expires_at, unit_id, unit_name, \
    unit_quantity, print_label, status";

fn not_found() -> Error {
    Error::not_found(Code::GoodsReceiptNotFound)
}

impl Repo {
    /// One receipt with its lines.
    pub async fn goods_receipt(&self, store_id: i64, id: i64) -> Result<ReceiptRecord> {
        let mut tx = self.db.begin().await?;
        let r = read(&mut tx, store_id, id).await?;
        tx.commit().await?;
        Ok(r)
    }

    /// Receipts by board group, newest first, and the count of every group.
    pub async fn goods_receipts(
        &self,
        store_id: i64,
        group: &str,
        search: &str,
        kind_filter: &str,
        page: PageRequest,
    ) -> Result<(Vec<ReceiptRow>, Page, Vec<(String, i64)>)> {
        let states = if group.is_empty() {
            rules::STATES.to_vec()
        } else {
            rules::states_of_group(group).ok_or_else(|| Error::invalid_field("group", "validation.choice"))?
        };
        if !kind_filter.is_empty() && !rules::TYPES.contains(&kind_filter) {
            return Err(Error::invalid_field("type", "validation.choice"));
        }
        let pattern = format!("%{}%", search.trim().to_lowercase().replace(['%', '_'], ""));
        let base = "r.store_id = $1 AND ($2 = '' OR r.type = $2) AND (LOWER(r.code) LIKE $3 OR LOWER(r.note) LIKE $3)";
        let by_state: Vec<(String, i64)> =
            sqlx::query_as(&format!("SELECT r.state, COUNT(*) FROM goods_receipts r WHERE {base} GROUP BY r.state"))
                .bind(store_id)
                .bind(kind_filter)
                .bind(&pattern)
                .fetch_all(self.db.pool())
                .await?;
        let counts: Vec<(String, i64)> = rules::GROUPS
            .iter()
            .map(|g| {
                let n = by_state
                    .iter()
                    .filter(|(s, _)| State::parse(s).map(|st| st.group()) == Some(*g))
                    .map(|(_, n)| n)
                    .sum();
                (g.to_string(), n)
            })
            .collect();
        let in_states = states.iter().map(|s| format!("'{}'", s.as_str())).collect::<Vec<_>>().join(", ");
        let filter = format!("{base} AND r.state IN ({in_states})");
        let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM goods_receipts r WHERE {filter}"))
            .bind(store_id)
            .bind(kind_filter)
            .bind(&pattern)
            .fetch_one(self.db.pool())
            .await?;
        let page = page.resolve(total);
        let rows = sqlx::query_as::<_, ReceiptRow>(&format!(
            "SELECT {RECEIPT_COLUMNS} FROM {RECEIPT_FROM} WHERE {filter} ORDER BY r.id DESC LIMIT $4 OFFSET $5"
        ))
        .bind(store_id)
        .bind(kind_filter)
        .bind(&pattern)
        .bind(page.fetch)
        .bind(page.offset)
        .fetch_all(self.db.pool())
        .await?;
        Ok((rows, page, counts))
    }

    /// Writes a new draft.
    pub async fn create_goods_receipt(&self, who: Actor, draft: &Draft) -> Result<ReceiptRecord> {
        rules::check_draft(draft)?;
        let mut tx = self.db.begin().await?;
        super::check_active_warehouse(&mut tx, who.store_id, draft.warehouse_id).await?;
        let code = next_code(&mut tx, who.store_id, "GR").await?;
        let now = now_ms();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO goods_receipts (store_id, code, type, state, warehouse_id, expected_received_at, created_by, \
             created_at, updated_at) VALUES ($1, $2, $3, 'draft', $4, $5, $6, $7, $7) RETURNING id",
        )
        .bind(who.store_id)
        .bind(&code)
        .bind(&draft.kind)
        .bind(draft.warehouse_id)
        .bind(draft.expected_received_at_ms)
        .bind(who.user_id)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        write_draft(&mut tx, who, id, draft).await?;
        let r = read(&mut tx, who.store_id, id).await?;
        tx.commit().await?;
        Ok(r)
    }

    /// Rewrites a draft, whole.
    pub async fn update_goods_receipt(&self, who: Actor, id: i64, draft: &Draft) -> Result<ReceiptRecord> {
        rules::check_draft(draft)?;
        let mut tx = self.db.begin().await?;
        transition(&mut tx, who, id, Action::Edit).await?;
        let kind_now: String =
            sqlx::query_scalar("SELECT type FROM goods_receipts WHERE id = $1").bind(id).fetch_one(&mut *tx).await?;
        if kind_now != draft.kind {
            return Err(Error::invalid_field("type", "validation.type_fixed"));
        }
        super::check_active_warehouse(&mut tx, who.store_id, draft.warehouse_id).await?;
        sqlx::query("DELETE FROM goods_receipt_lines WHERE receipt_id = $1").bind(id).execute(&mut *tx).await?;
        write_draft(&mut tx, who, id, draft).await?;
        let r = read(&mut tx, who.store_id, id).await?;
        tx.commit().await?;
        Ok(r)
    }

    /// Deletes a draft.
    pub async fn delete_goods_receipt(&self, who: Actor, id: i64) -> Result<()> {
        let mut tx = self.db.begin().await?;
        transition(&mut tx, who, id, Action::Delete).await?;
        sqlx::query("DELETE FROM goods_receipt_lines WHERE receipt_id = $1").bind(id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM goods_receipts WHERE id = $1").bind(id).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Sends a draft to the warehouse.
    pub async fn send_goods_receipt(&self, who: Actor, id: i64) -> Result<ReceiptRecord> {
        self.simple(who, id, Action::Send, "").await
    }

    /// Starts or finishes putting away.
    pub async fn shelve_goods_receipt(&self, who: Actor, id: i64, to: &str) -> Result<ReceiptRecord> {
        let action = match to {
            "shelving" => Action::StartShelving,
            "shelved" => Action::FinishShelving,
            _ => return Err(Error::invalid_field("state", "validation.choice")),
        };
        self.simple(who, id, action, "").await
    }

    /// Rejects at QC with a reason: nothing goes on hand.
    pub async fn reject_goods_receipt(&self, who: Actor, id: i64, reason: &str) -> Result<ReceiptRecord> {
        rules::check_reason(reason)?;
        self.simple(who, id, Action::Reject, reason.trim()).await
    }

    async fn simple(&self, who: Actor, id: i64, action: Action, reason: &str) -> Result<ReceiptRecord> {
        let mut tx = self.db.begin().await?;
        transition(&mut tx, who, id, action).await?;
        if action == Action::Reject {
            sqlx::query("UPDATE goods_receipts SET reject_reason = $1, decided_by = $2, decided_at = $3 WHERE id = $4")
                .bind(reason)
                .bind(who.user_id)
                .bind(now_ms())
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        let r = read(&mut tx, who.store_id, id).await?;
        tx.commit().await?;
        Ok(r)
    }

    /// Records who printed a receipt.
    pub async fn mark_goods_receipt_printed(&self, who: Actor, id: i64) -> Result<ReceiptRecord> {
        let mut tx = self.db.begin().await?;
        let done = sqlx::query("UPDATE goods_receipts SET printed_by = $1 WHERE store_id = $2 AND id = $3")
            .bind(who.user_id)
            .bind(who.store_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Err(not_found());
        }
        let r = read(&mut tx, who.store_id, id).await?;
        tx.commit().await?;
        Ok(r)
    }

    /// Records QC counts (pending or received → received).
    pub async fn check_goods_receipt(&self, who: Actor, id: i64, counts: &[LineCount]) -> Result<ReceiptRecord> {
        let mut tx = self.db.begin().await?;
        transition(&mut tx, who, id, Action::Check).await?;
        apply_counts(&mut tx, id, counts).await?;
        sqlx::query("UPDATE goods_receipts SET checked_by = $1 WHERE id = $2")
            .bind(who.user_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let r = read(&mut tx, who.store_id, id).await?;
        tx.commit().await?;
        Ok(r)
    }

    /// Goods a buyer sent back, received against an order's return: a product receipt of
    /// `lines` (one per SKU: good and defective units) written, sent and approved in one
    /// transaction, its good units on hand as lots at the lines' costs. Once per `origin`: a
    /// repeat (or a concurrent twin) answers the receipt made, with `replayed`.
    pub async fn receive_returned_goods(
        &self,
        who: Actor,
        returned: &rules::Returned,
    ) -> Result<(ReceiptRecord, bool)> {
        let draft = rules::returned_draft(returned, now_ms())?;
        if let Some(r) = self.by_origin(who.store_id, &returned.origin).await? {
            return Ok((r, true));
        }
        let mut tx = self.db.begin().await?;
        super::check_active_warehouse(&mut tx, who.store_id, draft.warehouse_id).await?;
        let code = next_code(&mut tx, who.store_id, "GR").await?;
        let now = now_ms();
        let inserted: std::result::Result<i64, sqlx::Error> = sqlx::query_scalar(
            "INSERT INTO goods_receipts (store_id, code, type, state, warehouse_id, expected_received_at, created_by, \
             created_at, updated_at, origin, order_id) VALUES ($1, $2, $3, 'draft', $4, $5, $6, $7, $7, $8, $9) \
             RETURNING id",
        )
        .bind(who.store_id)
        .bind(&code)
        .bind(&draft.kind)
        .bind(draft.warehouse_id)
        .bind(draft.expected_received_at_ms)
        .bind(who.user_id)
        .bind(now)
        .bind(&returned.origin)
        .bind(returned.order_id)
        .fetch_one(&mut *tx)
        .await;
        let id = match inserted {
            Ok(id) => id,
            Err(e) if bo_kit::error::is_unique_violation(&e) => {
                // Made meanwhile by the same call arriving twice at once.
                tx.rollback().await?;
                return match self.by_origin(who.store_id, &returned.origin).await? {
                    Some(r) => Ok((r, true)),
                    None => Err(e.into()),
                };
            }
            Err(e) => return Err(e.into()),
        };
        write_draft(&mut tx, who, id, &draft).await?;
        transition(&mut tx, who, id, Action::Send).await?;
        transition(&mut tx, who, id, Action::Approve).await?;
        let line_ids: Vec<i64> =
            sqlx::query_scalar("SELECT id FROM goods_receipt_lines WHERE receipt_id = $1 ORDER BY position")
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
        let counts: Vec<LineCount> = line_ids
            .iter()
            .zip(&returned.lines)
            .map(|(line_id, l)| LineCount {
                line_id: *line_id,
                receive_qty: l.good + l.defective,
                defect_qty: l.defective,
            })
            .collect();
        approve_in(&mut tx, who, id, &counts).await?;
        let r = read(&mut tx, who.store_id, id).await?;
        tx.commit().await?;
        Ok((r, false))
    }

    async fn by_origin(&self, store_id: i64, origin: &str) -> Result<Option<ReceiptRecord>> {
        let id: Option<i64> =
            sqlx::query_scalar("SELECT id FROM goods_receipts WHERE store_id = $1 AND origin <> '' AND origin = $2")
                .bind(store_id)
                .bind(origin)
                .fetch_optional(self.db.pool())
                .await?;
        match id {
            Some(id) => Ok(Some(self.goods_receipt(store_id, id).await?)),
            None => Ok(None),
        }
    }

    /// QC approve: records `counts` (lines never counted are taken as complete), then puts
    /// every line's good units (received − defective) on hand as a lot with the line's cost
    /// and expiry. A receipt already approved is answered as it is, with `replayed`.
    pub async fn approve_goods_receipt(
        &self,
        who: Actor,
        id: i64,
        counts: &[LineCount],
    ) -> Result<(ReceiptRecord, bool)> {
        let mut tx = self.db.begin().await?;
        match transition(&mut tx, who, id, Action::Approve).await {
            Ok(_) => {}
            Err(e) if e.code == Code::GoodsReceiptState => {
                tx.rollback().await?;
                let r = self.goods_receipt(who.store_id, id).await?;
                let done = State::parse(&r.row.state).is_some_and(|s| s.group() == "approved");
                return if done { Ok((r, true)) } else { Err(e) };
            }
            Err(e) => return Err(e),
        }
        approve_in(&mut tx, who, id, counts).await?;
        let r = read(&mut tx, who.store_id, id).await?;
        tx.commit().await?;
        Ok((r, false))
    }
}

/// What approving receipt `id` (already moved to approved in `tx`) writes: the counts, every
/// line's good units on hand as a lot at the line's cost, the warehouse's fee and
/// `wms.goods_receipt.approved`.
async fn approve_in(tx: &mut Tx, who: Actor, id: i64, counts: &[LineCount]) -> Result<()> {
    apply_counts(tx, id, counts).await?;
    sqlx::query(
        "UPDATE goods_receipt_lines SET receive_qty = request_qty * unit_quantity, defect_qty = 0, \
         status = 'complete' WHERE receipt_id = $1 AND status = ''",
    )
    .bind(id)
    .execute(&mut **tx)
    .await?;
    let now = now_ms();
    sqlx::query(
        "UPDATE goods_receipts SET decided_by = $1, decided_at = $2, \
         checked_by = CASE WHEN checked_by = 0 THEN $1 ELSE checked_by END WHERE id = $3",
    )
    .bind(who.user_id)
    .bind(now)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    let (code, kind_of, warehouse_id): (String, String, i64) =
        sqlx::query_as("SELECT code, type, warehouse_id FROM goods_receipts WHERE id = $1")
            .bind(id)
            .fetch_one(&mut **tx)
            .await?;
    let reference = format!("gr:{id}");
    let mut units = 0;
    if kind_of == "product" && claim(tx, who.store_id, kind::RECEIVE, &reference).await? {
        super::check_active_warehouse(tx, who.store_id, warehouse_id).await?;
        let lines = sqlx::query_as::<_, LineRow>(&format!(
            "SELECT {LINE_COLUMNS} FROM goods_receipt_lines WHERE receipt_id = $1 ORDER BY position"
        ))
        .bind(id)
        .fetch_all(&mut **tx)
        .await?;
        let good: Vec<&LineRow> = lines.iter().filter(|l| l.receive_qty - l.defect_qty > 0).collect();
        crate::registry::check(tx, who.store_id, &good.iter().map(|l| l.sku_id).collect::<Vec<_>>())
            .await
            .map_err(|_| Error::failed_precondition(Code::GoodsReceiptSkuGone))?;
        for l in &good {
            let quantity = l.receive_qty - l.defect_qty;
            let lot = lots::NewLot {
                warehouse_id,
                sku_id: l.sku_id,
                code: code.clone(),
                goods_receipt_id: id,
                unit_cost: Some(unit_cost(l.cost, l.unit_quantity)),
                expires_at: l.expires_at,
                received_at: now,
                quantity,
            };
            let take = lots::put(tx, who.store_id, &lot).await?;
            let line = Line { warehouse_id, sku_id: l.sku_id, quantity };
            record(
                &mut *tx,
                who,
                line.warehouse_id,
                line.sku_id,
                kind::RECEIVE,
                quantity,
                0,
                &code,
                &reference,
                &[take],
            )
            .await?;
            units += quantity;
        }
        let plan = super::fees::plan_in(tx, who.store_id, warehouse_id).await?;
        let amounts = crate::domain::fees::receipt(&plan, good.len() as i64, units);
        super::fees::charge(tx, who, warehouse_id, crate::domain::fees::document::GOODS_RECEIPT, id, &amounts).await?;
    }
    outbox::enqueue(
        &mut *tx,
        who.store_id,
        who.user_id,
        &ev::GoodsReceiptApproved { goods_receipt_id: id, code, warehouse_id, units },
    )
    .await?;
    Ok(())
}

/// Moves a receipt of the store by `action` per the state table, from the state it is in
/// now; a concurrent change in between refuses (`goods_receipt_state`).
async fn transition(tx: &mut Tx, who: Actor, id: i64, action: Action) -> Result<Next> {
    let state: Option<String> = sqlx::query_scalar("SELECT state FROM goods_receipts WHERE store_id = $1 AND id = $2")
        .bind(who.store_id)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
    let from = state.as_deref().and_then(State::parse).ok_or_else(not_found)?;
    let next = rules::next(from, action)?;
    let to = match next {
        Next::To(s) => s,
        Next::Gone => from,
    };
    let moved = sqlx::query(
        "UPDATE goods_receipts SET state = $1, updated_at = $2 WHERE store_id = $3 AND id = $4 AND state = $5",
    )
    .bind(to.as_str())
    .bind(now_ms())
    .bind(who.store_id)
    .bind(id)
    .bind(from.as_str())
    .execute(&mut **tx)
    .await?;
    if moved.rows_affected() != 1 {
        return Err(Error::failed_precondition(Code::GoodsReceiptState));
    }
    Ok(next)
}

/// Writes a draft's fields and lines onto receipt `id` (its old lines already gone).
async fn write_draft(tx: &mut Tx, who: Actor, id: i64, d: &Draft) -> Result<()> {
    let product = d.kind == "product";
    let infos = if product {
        let skus: Vec<i64> = d.lines.iter().map(|l| l.sku_id).collect();
        crate::registry::check(tx, who.store_id, &skus).await.map_err(|e| {
            let mut e = e;
            e.fields = vec![FieldError::new("lines", "validation.sku_unknown")];
            e
        })?;
        crate::registry::infos(&mut **tx, who.store_id, &skus).await?
    } else {
        Default::default()
    };
    let packagings: Vec<PackagingJson> = d
        .packagings
        .iter()
        .map(|p| {
            let [w, l, h, g] = p.dimension;
            PackagingJson {
                name: p.name.trim().to_string(),
                quantity: p.quantity,
                width_cm: w,
                length_cm: l,
                height_cm: h,
                weight_g: g,
            }
        })
        .collect();
    let mut options = d.options.clone();
    options.sort();
    let costs: Vec<(i64, i64)> = d.lines.iter().map(|l| (l.cost, l.request_qty)).collect();
    let base: i64 = d.lines.iter().map(|l| l.request_qty * l.unit_quantity).sum();
    sqlx::query(
        "UPDATE goods_receipts SET warehouse_id = $1, expected_received_at = $2, note = $3, is_pick_up = $4, \
         pick_up_address = $5, pick_up_tel = $6, pick_up_at = $7, packagings = $8, options = $9, line_count = $10, \
         total_cost = $11, total_request_qty = $12, updated_at = $13 WHERE id = $14",
    )
    .bind(d.warehouse_id)
    .bind(d.expected_received_at_ms)
    .bind(d.note.trim())
    .bind(i64::from(d.is_pick_up))
    .bind(if d.is_pick_up { d.pick_up_address.trim().to_string() } else { String::new() })
    .bind(if d.is_pick_up { d.pick_up_tel.trim().to_string() } else { String::new() })
    .bind(if d.is_pick_up { d.pick_up_at_ms } else { 0 })
    .bind(serde_json::to_string(&packagings).map_err(Error::internal)?)
    .bind(serde_json::to_string(&options).map_err(Error::internal)?)
    .bind(d.lines.len() as i64)
    .bind(rules::total_cost(&costs))
    .bind(base)
    .bind(now_ms())
    .bind(id)
    .execute(&mut **tx)
    .await?;
    for (i, l) in d.lines.iter().enumerate() {
        let info = infos.get(&l.sku_id).cloned().unwrap_or_default();
        let [w, len, h, g] = l.dimension;
        sqlx::query(
            "INSERT INTO goods_receipt_lines (receipt_id, store_id, position, sku_id, product_id, product_name, sku_code, \
             barcode, option1, option2, name, width_cm, length_cm, height_cm, weight_g, cost, request_qty, expires_at, \
             unit_id, unit_name, unit_quantity, print_label) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, \
             $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)",
        )
        .bind(id)
        .bind(who.store_id)
        .bind(i as i64)
        .bind(if product { l.sku_id } else { 0 })
        .bind(info.product_id)
        .bind(&info.product_name)
        .bind(&info.code)
        .bind(&info.barcode)
        .bind(&info.option1)
        .bind(&info.option2)
        .bind(if product { String::new() } else { l.name.trim().to_string() })
        .bind(w)
        .bind(len)
        .bind(h)
        .bind(g)
        .bind(l.cost)
        .bind(l.request_qty)
        .bind(l.expires_at_ms)
        .bind(l.unit_id)
        .bind(l.unit_name.trim())
        .bind(l.unit_quantity.max(1))
        .bind(i64::from(l.print_label))
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Records QC counts of named lines, with their status.
async fn apply_counts(tx: &mut Tx, id: i64, counts: &[LineCount]) -> Result<()> {
    if counts.is_empty() {
        return Ok(());
    }
    let lines: Vec<(i64, i64)> =
        sqlx::query_as("SELECT id, request_qty * unit_quantity FROM goods_receipt_lines WHERE receipt_id = $1")
            .bind(id)
            .fetch_all(&mut **tx)
            .await?;
    let mut errs = Vec::new();
    for (i, c) in counts.iter().enumerate() {
        let at = format!("lines[{i}]");
        if let Err(e) = rules::check_counts(&at, c.receive_qty, c.defect_qty) {
            errs.extend(e.fields);
        }
        if !lines.iter().any(|(lid, _)| *lid == c.line_id) {
            errs.push(FieldError::new(format!("{at}.line_id"), "validation.not_found"));
        }
    }
    if !errs.is_empty() {
        return Err(Error::invalid(errs));
    }
    for c in counts {
        let base = lines.iter().find(|(lid, _)| *lid == c.line_id).map(|(_, b)| *b).unwrap_or(0);
        sqlx::query(
            "UPDATE goods_receipt_lines SET receive_qty = $1, defect_qty = $2, status = $3 WHERE id = $4 AND receipt_id = $5",
        )
        .bind(c.receive_qty)
        .bind(c.defect_qty)
        .bind(rules::line_status(base, c.receive_qty))
        .bind(c.line_id)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// A receipt of the store with its lines.
async fn read(tx: &mut Tx, store_id: i64, id: i64) -> Result<ReceiptRecord> {
    let row = sqlx::query_as::<_, ReceiptRow>(&format!(
        "SELECT {RECEIPT_COLUMNS} FROM {RECEIPT_FROM} WHERE r.store_id = $1 AND r.id = $2"
    ))
    .bind(store_id)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(not_found)?;
    let lines = sqlx::query_as::<_, LineRow>(&format!(
        "SELECT {LINE_COLUMNS} FROM goods_receipt_lines WHERE receipt_id = $1 ORDER BY position"
    ))
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(ReceiptRecord { row, lines })
}
