//! Payments' SQL. Every change of a payment is one transaction with the order's payment
//! state (from its bills' live payments), its version and its timeline row; a payment moves
//! by a conditional update from the state it was read in, so two confirmations of one
//! payment never both succeed.

use bo_kit::db::Tx;
use bo_kit::outbox;
use bo_kit::time::now_ms;
use bo_kit::Code;
use bo_kit::{Error, Result};
use bo_proto::events::v1 as ev;
use sqlx::FromRow;

use super::bills::BillRow;
use super::{event, order_in, Actor, OrderRow, Repo};
use crate::domain::bill;
use crate::domain::payment::{self, PayAction};
use crate::domain::state;

const PAYMENT_COLUMNS: &str = "id, store_id, order_id, bill_id, warehouse_id, amount, state, store_channel_id, \
    channel_type, attachment, source, note, created_by, confirmed_by, confirmed_at, slip_at, created_at, updated_at";

/// A payment row.
#[derive(Debug, Clone, FromRow)]
pub struct PaymentRow {
    pub id: i64,
    pub store_id: i64,
    pub order_id: i64,
    pub bill_id: i64,
    pub warehouse_id: i64,
    pub amount: i64,
    pub state: String,
    pub store_channel_id: i64,
    pub channel_type: String,
    pub attachment: String,
    pub source: String,
    pub note: String,
    pub created_by: i64,
    pub confirmed_by: i64,
    pub confirmed_at: i64,
    pub slip_at: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// Who paid: the buyer on the bill's page, or the store's staff.
pub mod source {
    pub const BUYER: &str = "buyer";
    pub const STAFF: &str = "staff";
}

/// What a payment is made or changed with.
#[derive(Debug, Clone, Default)]
pub struct PaymentInput {
    /// The store's account paid to (0: not said).
    pub store_channel_id: i64,
    /// Its kind (bank, promptpay, paypal, cod), as the payments service says.
    pub channel_type: String,
    /// The slip's file name ('' none: keep what there is).
    pub attachment: String,
    /// A note ('' keeps the note on an edit).
    pub note: String,
}

/// How many slips the buyer may send for one bill (each kept as evidence; the shop is
/// asked to help past it).
pub const SLIPS_PER_BILL: i64 = 10;

/// How many slips a bill's buyer sent ($1 the bill, $2 `source::BUYER`).
const BUYER_SLIPS: &str = "SELECT COUNT(*) FROM order_payment_slips WHERE bill_id = $1 AND source = $2";

/// A slip a payment was sent.
#[derive(Debug, Clone, FromRow)]
pub struct SlipRow {
    pub id: i64,
    pub payment_id: i64,
    pub name: String,
    pub source: String,
    pub created_by: i64,
    pub created_at: i64,
}

/// Keeps a slip a payment was sent, beside the others.
#[allow(clippy::too_many_arguments)]
async fn record_slip(tx: &mut Tx, who: Actor, p: &PaymentRow, name: &str, from: &str, now: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO order_payment_slips (store_id, order_id, bill_id, payment_id, name, source, created_by, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(who.store_id)
    .bind(p.order_id)
    .bind(p.bill_id)
    .bind(p.id)
    .bind(name)
    .bind(from)
    .bind(if from == source::BUYER { 0 } else { who.user_id })
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn bill_in(tx: &mut Tx, store_id: i64, id: i64) -> Result<BillRow> {
    sqlx::query_as::<_, BillRow>(&format!(
        "SELECT {} FROM order_bills WHERE store_id = $1 AND id = $2",
        super::bills::BILL_COLUMNS
    ))
    .bind(store_id)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::not_found(Code::BillNotFound))
}

/// A bill and its order, the order locked first ([`order_in`]) and the bill read again
/// under the lock, so what is decided about it (expired? paid?) is what it is.
async fn locked_bill(tx: &mut Tx, store_id: i64, id: i64) -> Result<(BillRow, OrderRow)> {
    let b = bill_in(tx, store_id, id).await?;
    let order = order_in(tx, store_id, b.order_id).await?;
    Ok((bill_in(tx, store_id, id).await?, order))
}

async fn payment_in(tx: &mut Tx, store_id: i64, order_id: i64, id: i64) -> Result<PaymentRow> {
    sqlx::query_as::<_, PaymentRow>(&format!(
        "SELECT {PAYMENT_COLUMNS} FROM order_payments WHERE store_id = $1 AND order_id = $2 AND id = $3"
    ))
    .bind(store_id)
    .bind(order_id)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::not_found(Code::PaymentNotFound))
}

/// A payment of an order that must be of `bill_id` (the path's invoice), else not found.
async fn payment_of_bill(tx: &mut Tx, store_id: i64, order_id: i64, bill_id: i64, id: i64) -> Result<PaymentRow> {
    let p = payment_in(tx, store_id, order_id, id).await?;
    if p.bill_id != bill_id {
        return Err(Error::not_found(Code::PaymentNotFound));
    }
    Ok(p)
}

/// The bill's live payment: its newest that is not cancelled or voided.
async fn live_payment(tx: &mut Tx, bill_id: i64) -> Result<Option<PaymentRow>> {
    Ok(sqlx::query_as::<_, PaymentRow>(&format!(
        "SELECT {PAYMENT_COLUMNS} FROM order_payments WHERE bill_id = $1 AND state IN ($2, $3, $4) ORDER BY id DESC LIMIT 1"
    ))
    .bind(bill_id)
    .bind(payment::UNPAID)
    .bind(payment::PENDING)
    .bind(payment::PAID)
    .fetch_optional(&mut **tx)
    .await?)
}

/// What the buyers have paid of orders, by order ([`payment::paid`]; an
/// order with no bill is left out).
pub(crate) async fn paid_of(
    conn: &mut sqlx::AnyConnection,
    order_ids: &[i64],
) -> Result<std::collections::HashMap<i64, i64>> {
    let mut bills: std::collections::HashMap<i64, Vec<(i64, Option<String>)>> = std::collections::HashMap::new();
    for chunk in order_ids.chunks(200) {
        let placeholders: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 1)).collect();
        let sql = format!(
            "SELECT b.order_id, b.amount, (SELECT p.state FROM order_payments p WHERE p.bill_id = b.id ORDER BY p.id DESC LIMIT 1) \
             FROM order_bills b WHERE b.order_id IN ({})",
            placeholders.join(", ")
        );
        let mut q = sqlx::query_as::<_, (i64, i64, Option<String>)>(&sql);
        for id in chunk {
            q = q.bind(*id);
        }
        for (order_id, amount, state) in q.fetch_all(&mut *conn).await? {
            bills.entry(order_id).or_default().push((amount, state));
        }
    }
    Ok(bills
        .into_iter()
        .map(|(id, b)| {
            let b: Vec<(i64, Option<&str>)> = b.iter().map(|(a, s)| (*a, s.as_deref())).collect();
            (id, payment::paid(&b))
        })
        .collect())
}

/// Sets the order's payment state from its bills' newest payments, and tells the read models
/// that count sales what the buyer has paid now (`OrderRevised` at the new version); answers
/// the state.
async fn settle_order(tx: &mut Tx, who: Actor, order_id: i64, now: i64) -> Result<&'static str> {
    let rows: Vec<(i64, Option<String>)> = sqlx::query_as(
        "SELECT b.amount, (SELECT p.state FROM order_payments p WHERE p.bill_id = b.id ORDER BY p.id DESC LIMIT 1) \
         FROM order_bills b WHERE b.order_id = $1 ORDER BY b.id",
    )
    .bind(order_id)
    .fetch_all(&mut **tx)
    .await?;
    let bills: Vec<(i64, Option<&str>)> = rows.iter().map(|(a, s)| (*a, s.as_deref())).collect();
    let states: Vec<&str> = bills.iter().map(|(_, s)| s.unwrap_or(payment::UNPAID)).collect();
    let to = payment::order_state(&states);
    let was: String = sqlx::query_scalar("SELECT payment_state FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_one(&mut **tx)
        .await?;
    sqlx::query(
        "UPDATE orders SET payment_state = $1, updated_at = $2, updated_by = $3, version = version + 1 WHERE id = $4",
    )
    .bind(to)
    .bind(now)
    .bind(who.user_id)
    .bind(order_id)
    .execute(&mut **tx)
    .await?;
    super::bills::announce_bills(tx, who.store_id, order_id).await?;
    let order = order_in(tx, who.store_id, order_id).await?;
    let items = super::items_in(tx, order_id).await?;
    let revised = ev::OrderRevised {
        order_id,
        order_no: order.order_no.clone(),
        figures: Some(super::row_figures(&order, &items, payment::paid(&bills))),
    };
    outbox::enqueue(tx, who.store_id, who.user_id, &revised).await?;
    if to == payment::PAID && was != payment::PAID {
        outbox::enqueue(tx, who.store_id, who.user_id, &super::paid_event(&order)).await?;
    }
    Ok(to)
}

/// Why a slip cannot be sent for a bill of an order now.
fn slip_refusal(order: &OrderRow, b: &BillRow) -> Option<Code> {
    if matches!(order.state.as_str(), state::CANCELLED | state::FAILED) {
        return Some(Code::BillOrderClosed);
    }
    if b.state == bill::EXPIRED {
        return Some(Code::BillExpired);
    }
    None
}

/// A payment in the review list, with its order's number and state.
#[derive(Debug, Clone, FromRow)]
pub struct ListedPayment {
    #[sqlx(flatten)]
    pub payment: PaymentRow,
    pub order_no: String,
    pub order_state: String,
    pub cod: i64,
}

/// How one payment fares in a bulk confirmation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirmation {
    pub order_id: i64,
    pub order_no: String,
    /// 0 when the order has no payment to confirm.
    pub payment_id: i64,
    pub bill_id: i64,
    pub amount: i64,
    /// None: confirmed (or would be); else why not.
    pub refused: Option<Code>,
}

impl Repo {
    /// A store's payments of a state (every state when empty), newest first, paged.
    pub async fn list_payments(
        &self,
        store_id: i64,
        st: &str,
        page: bo_kit::paging::PageRequest,
    ) -> Result<(Vec<ListedPayment>, bo_kit::paging::Page)> {
        let cols: String = PAYMENT_COLUMNS.split(", ").map(|c| format!("p.{c}")).collect::<Vec<_>>().join(", ");
        let filter = if st.is_empty() { "" } else { " AND p.state = $2" };
        let count = format!("SELECT COUNT(*) FROM order_payments p WHERE p.store_id = $1{filter}");
        let q = sqlx::query_scalar(&count).bind(store_id);
        let q = if st.is_empty() { q } else { q.bind(st) };
        let total: i64 = q.fetch_one(self.pool()).await?;
        let page = page.resolve(total);
        let n = if st.is_empty() { 2 } else { 3 };
        let sql = format!(
            "SELECT {cols}, o.order_no, o.state AS order_state, o.cod FROM order_payments p \
             JOIN orders o ON o.id = p.order_id WHERE p.store_id = $1{filter} \
             ORDER BY p.updated_at DESC, p.id DESC LIMIT ${n} OFFSET ${}",
            n + 1
        );
        let rows = sqlx::query_as::<_, ListedPayment>(&sql).bind(store_id);
        let rows = if st.is_empty() { rows } else { rows.bind(st) };
        let rows = rows.bind(page.fetch).bind(page.offset).fetch_all(self.pool()).await?;
        Ok((rows, page))
    }

    /// Confirms the live payments of orders (or, with `dry_run`, says what would happen):
    /// each payment on its own, with the reason of SPEC §8 when it cannot be; an order with
    /// no payment is named with `payment_attachment_required` (nothing to confirm).
    pub async fn confirm_many(&self, who: Actor, order_ids: &[i64], dry_run: bool) -> Result<Vec<Confirmation>> {
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for id in order_ids.iter().filter(|id| seen.insert(**id)) {
            let Some(order) = self.get(who.store_id, *id).await? else {
                out.push(Confirmation {
                    order_id: *id,
                    order_no: String::new(),
                    payment_id: 0,
                    bill_id: 0,
                    amount: 0,
                    refused: Some(Code::OrderNotFound),
                });
                continue;
            };
            let payments = self.payments(who.store_id, *id).await?;
            // Each bill's newest payment.
            let mut newest: Vec<&PaymentRow> = Vec::new();
            for p in payments.iter().rev() {
                if !newest.iter().any(|q| q.bill_id == p.bill_id) {
                    newest.push(p);
                }
            }
            newest.reverse();
            if newest.is_empty() {
                out.push(Confirmation {
                    order_id: order.id,
                    order_no: order.order_no.clone(),
                    payment_id: 0,
                    bill_id: 0,
                    amount: 0,
                    refused: Some(Code::PaymentAttachmentRequired),
                });
                continue;
            }
            for p in newest {
                let why = payment::confirm(&p.state, !p.attachment.is_empty(), order.cod != 0, &order.state).err();
                let refused = match (why, dry_run) {
                    (Some(w), _) => Some(w),
                    (None, true) => None,
                    (None, false) => {
                        // Bulk confirmation is the approvers' own call (its route asks the right).
                        match self.act_on_payment(who, order.id, p.bill_id, p.id, PayAction::Confirm, true).await {
                            Ok(_) => None,
                            Err(e) => Some(e.code),
                        }
                    }
                };
                out.push(Confirmation {
                    order_id: order.id,
                    order_no: order.order_no.clone(),
                    payment_id: p.id,
                    bill_id: p.bill_id,
                    amount: p.amount,
                    refused,
                });
            }
        }
        Ok(out)
    }

    /// What must always hold of bills and payments (run after every API test, and by
    /// `backoffice admin check-stock`): an order's bills add up to its total; a bill has at
    /// most one live payment; a pending or paid payment is for its bill's amount; an
    /// order's payment state is its bills' newest payments'.
    pub async fn money_check(&self) -> Result<Vec<String>> {
        let mut broken = Vec::new();
        let sums: Vec<(i64, i64, i64, i64)> = sqlx::query_as(
            "SELECT o.id, o.total, CAST(COALESCE(SUM(b.amount), 0) AS BIGINT), COUNT(b.id) FROM orders o \
             LEFT JOIN order_bills b ON b.order_id = o.id GROUP BY o.id, o.total",
        )
        .fetch_all(self.pool())
        .await?;
        for (id, total, billed, bills) in sums {
            if bills > 0 && billed != total {
                broken.push(format!("order {id}: its bills add up to {billed}, its total is {total}"));
            }
        }
        let doubled: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT bill_id, COUNT(*) FROM order_payments WHERE state IN ($1, $2, $3) GROUP BY bill_id HAVING COUNT(*) > 1",
        )
        .bind(payment::UNPAID)
        .bind(payment::PENDING)
        .bind(payment::PAID)
        .fetch_all(self.pool())
        .await?;
        for (bill, n) in doubled {
            broken.push(format!("bill {bill}: {n} live payments"));
        }
        // Money sent or taken is for the bill as it is: a pending or paid payment is for
        // its bill's amount.
        let unequal: Vec<(i64, i64, i64, i64)> = sqlx::query_as(
            "SELECT p.id, p.bill_id, p.amount, b.amount FROM order_payments p JOIN order_bills b ON b.id = p.bill_id \
             WHERE p.state IN ($1, $2) AND p.amount <> b.amount",
        )
        .bind(payment::PENDING)
        .bind(payment::PAID)
        .fetch_all(self.pool())
        .await?;
        for (id, bill, paid, billed) in unequal {
            broken.push(format!("payment {id}: {paid} for bill {bill} of {billed}"));
        }
        let newest: Vec<(i64, String, Option<String>)> = sqlx::query_as(
            "SELECT o.id, o.payment_state, (SELECT p.state FROM order_payments p WHERE p.bill_id = b.id ORDER BY p.id DESC LIMIT 1) \
             FROM orders o JOIN order_bills b ON b.order_id = o.id ORDER BY o.id, b.id",
        )
        .fetch_all(self.pool())
        .await?;
        let mut i = 0;
        while i < newest.len() {
            let id = newest[i].0;
            let mut states = Vec::new();
            let mut j = i;
            while j < newest.len() && newest[j].0 == id {
                states.push(newest[j].2.clone().unwrap_or_else(|| payment::UNPAID.to_string()));
                j += 1;
            }
            let refs: Vec<&str> = states.iter().map(String::as_str).collect();
            let want = payment::order_state(&refs);
            if newest[i].1 != want {
                broken.push(format!("order {id}: payment state {} but its bills say {want}", newest[i].1));
            }
            i = j;
        }
        Ok(broken)
    }

    /// The bill of a public link (None for a token no bill has).
    pub async fn bill_by_token(&self, token: &str) -> Result<Option<BillRow>> {
        Ok(sqlx::query_as::<_, BillRow>(&format!(
            "SELECT {} FROM order_bills WHERE token = $1",
            super::bills::BILL_COLUMNS
        ))
        .bind(token)
        .fetch_optional(self.pool())
        .await?)
    }

    /// An order's payments, oldest first.
    pub async fn payments(&self, store_id: i64, order_id: i64) -> Result<Vec<PaymentRow>> {
        Ok(sqlx::query_as::<_, PaymentRow>(&format!(
            "SELECT {PAYMENT_COLUMNS} FROM order_payments WHERE store_id = $1 AND order_id = $2 ORDER BY id"
        ))
        .bind(store_id)
        .bind(order_id)
        .fetch_all(self.pool())
        .await?)
    }

    /// How many slips the buyer sent for a bill.
    pub async fn buyer_slips(&self, bill_id: i64) -> Result<i64> {
        Ok(sqlx::query_scalar(BUYER_SLIPS).bind(bill_id).bind(source::BUYER).fetch_one(self.pool()).await?)
    }

    /// The slips of an order's payments, oldest first.
    pub async fn slips(&self, store_id: i64, order_id: i64) -> Result<Vec<SlipRow>> {
        Ok(sqlx::query_as::<_, SlipRow>(
            "SELECT id, payment_id, name, source, created_by, created_at FROM order_payment_slips \
             WHERE store_id = $1 AND order_id = $2 ORDER BY id",
        )
        .bind(store_id)
        .bind(order_id)
        .fetch_all(self.pool())
        .await?)
    }

    /// One payment of an order.
    pub async fn payment(&self, store_id: i64, order_id: i64, id: i64) -> Result<PaymentRow> {
        let mut tx = self.db.begin().await?;
        let p = payment_in(&mut tx, store_id, order_id, id).await?;
        tx.commit().await?;
        Ok(p)
    }

    /// A slip for a bill (the buyer's from the bill's page, or staff's): the bill's live
    /// payment takes it and waits for confirmation (pending), or a new pending payment is
    /// made. Refused for a closed order, an expired bill and a confirmed payment.
    pub async fn attach_slip(&self, who: Actor, bill_id: i64, from: &str, input: &PaymentInput) -> Result<PaymentRow> {
        let mut tx = self.db.begin().await?;
        let (b, order) = locked_bill(&mut tx, who.store_id, bill_id).await?;
        if let Some(why) = slip_refusal(&order, &b) {
            return Err(Error::failed_precondition(why));
        }
        if from == source::BUYER && order.cod != 0 {
            // The carrier collects cash on delivery; the buyer sends no slip.
            return Err(Error::failed_precondition(Code::BillCod));
        }
        if from == source::BUYER {
            let sent: i64 = sqlx::query_scalar(BUYER_SLIPS).bind(b.id).bind(source::BUYER).fetch_one(&mut *tx).await?;
            if sent >= SLIPS_PER_BILL {
                return Err(Error::new(bo_kit::error::Kind::TooManyRequests, Code::BillSlipLimit));
            }
        }
        let now = now_ms();
        let changed = match live_payment(&mut tx, b.id).await? {
            Some(p) => {
                let to = payment::next(&p.state, PayAction::Attach).map_err(Error::failed_precondition)?;
                update_payment(&mut tx, who, &p, to, input, from, now).await?
            }
            None => insert_payment(&mut tx, who, &order, &b, payment::PENDING, from, input, now).await?,
        };
        settle_order(&mut tx, who, order.id, now).await?;
        let detail = format!("{}:{}", b.warehouse_id, from);
        event(&mut tx, who, order.id, "payment_slip", &order.state, &order.state, &detail).await?;
        tx.commit().await?;
        Ok(changed)
    }

    /// A payment made by staff for the bill of `warehouse_id` (0: the order's only bill):
    /// pending with a slip, unpaid without. Refused when the bill already has a live one.
    pub async fn create_payment(
        &self,
        who: Actor,
        order_id: i64,
        warehouse_id: i64,
        input: &PaymentInput,
    ) -> Result<PaymentRow> {
        let mut tx = self.db.begin().await?;
        let order = order_in(&mut tx, who.store_id, order_id).await?;
        let bills: Vec<BillRow> = sqlx::query_as::<_, BillRow>(&format!(
            "SELECT {} FROM order_bills WHERE store_id = $1 AND order_id = $2 ORDER BY warehouse_id",
            super::bills::BILL_COLUMNS
        ))
        .bind(who.store_id)
        .bind(order_id)
        .fetch_all(&mut *tx)
        .await?;
        let b = match warehouse_id {
            0 if bills.len() == 1 => bills.into_iter().next(),
            0 => return Err(Error::invalid_field("warehouse_id", "validation.required")),
            w => bills.into_iter().find(|b| b.warehouse_id == w),
        }
        .ok_or_else(|| Error::not_found(Code::BillNotFound))?;
        if let Some(why) = slip_refusal(&order, &b) {
            return Err(Error::failed_precondition(why));
        }
        if live_payment(&mut tx, b.id).await?.is_some() {
            return Err(Error::conflict(Code::PaymentExists));
        }
        let now = now_ms();
        let st = if input.attachment.is_empty() { payment::UNPAID } else { payment::PENDING };
        let p = insert_payment(&mut tx, who, &order, &b, st, source::STAFF, input, now).await?;
        settle_order(&mut tx, who, order.id, now).await?;
        event(&mut tx, who, order.id, "payment_created", &order.state, &order.state, &b.warehouse_id.to_string())
            .await?;
        tx.commit().await?;
        Ok(p)
    }

    /// Changes a payment's account, note or slip (a new slip makes it wait for
    /// confirmation again). Refused once it is confirmed, cancelled or voided.
    pub async fn edit_payment(
        &self,
        who: Actor,
        order_id: i64,
        bill_id: i64,
        id: i64,
        input: &PaymentInput,
    ) -> Result<PaymentRow> {
        let mut tx = self.db.begin().await?;
        let order = order_in(&mut tx, who.store_id, order_id).await?;
        let p = payment_of_bill(&mut tx, who.store_id, order_id, bill_id, id).await?;
        if !matches!(p.state.as_str(), payment::UNPAID | payment::PENDING) {
            return Err(Error::failed_precondition(
                payment::next(&p.state, PayAction::Attach).err().unwrap_or(Code::PaymentNotPending),
            ));
        }
        let to = match (input.attachment.is_empty(), p.state.as_str()) {
            (true, payment::PENDING) => payment::PENDING,
            (true, _) => payment::UNPAID,
            (false, from) => payment::next(from, PayAction::Attach).map_err(Error::failed_precondition)?,
        };
        let now = now_ms();
        let changed = update_payment(&mut tx, who, &p, to, input, source::STAFF, now).await?;
        settle_order(&mut tx, who, order.id, now).await?;
        event(&mut tx, who, order.id, "payment_edited", &order.state, &order.state, &p.warehouse_id.to_string())
            .await?;
        tx.commit().await?;
        Ok(changed)
    }

    /// Confirms, cancels or voids a payment by the table; a confirmation also needs a slip,
    /// and for cash on delivery a shipped order.
    pub async fn act_on_payment(
        &self,
        who: Actor,
        order_id: i64,
        bill_id: i64,
        id: i64,
        action: PayAction,
        may_approve: bool,
    ) -> Result<PaymentRow> {
        let mut tx = self.db.begin().await?;
        let order = order_in(&mut tx, who.store_id, order_id).await?;
        let p = payment_of_bill(&mut tx, who.store_id, order_id, bill_id, id).await?;
        // Cash on delivery: the carrier collects, so no slip, but only once shipped.
        let cod = order.cod != 0;
        let to = match action {
            PayAction::Confirm => payment::confirm(&p.state, !p.attachment.is_empty(), cod, &order.state),
            _ => payment::next(&p.state, action),
        }
        .map_err(Error::failed_precondition)?;
        // Whatever the path, money is taken as paid only by someone who may approve it.
        if to == payment::PAID && !may_approve {
            return Err(Error::permission_denied(Code::Forbidden));
        }
        let now = now_ms();
        let confirming = action == PayAction::Confirm || (action == PayAction::Void && to == payment::PAID);
        let r = sqlx::query(
            "UPDATE order_payments SET state = $1, updated_at = $2, updated_by = $3, \
             confirmed_by = CASE WHEN $4 = 1 THEN $3 ELSE confirmed_by END, \
             confirmed_at = CASE WHEN $4 = 1 THEN $2 ELSE confirmed_at END WHERE id = $5 AND state = $6",
        )
        .bind(to)
        .bind(now)
        .bind(who.user_id)
        .bind(i64::from(confirming))
        .bind(p.id)
        .bind(&p.state)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Err(Error::conflict(Code::PaymentChanged));
        }
        settle_order(&mut tx, who, order.id, now).await?;
        let name = match action {
            PayAction::Confirm => "payment_confirmed",
            PayAction::Cancel => "payment_cancelled",
            PayAction::Void => "payment_voided",
            PayAction::Attach => "payment_slip",
        };
        event(&mut tx, who, order.id, name, &order.state, &order.state, &format!("{}:{}", p.warehouse_id, to)).await?;
        let out = payment_in(&mut tx, who.store_id, order_id, id).await?;
        tx.commit().await?;
        Ok(out)
    }
}

#[allow(clippy::too_many_arguments)]
async fn insert_payment(
    tx: &mut Tx,
    who: Actor,
    order: &OrderRow,
    b: &BillRow,
    st: &str,
    from: &str,
    input: &PaymentInput,
    now: i64,
) -> Result<PaymentRow> {
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO order_payments (store_id, order_id, bill_id, warehouse_id, amount, state, store_channel_id, \
         channel_type, attachment, source, note, created_by, updated_by, slip_at, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13, $14, $14) RETURNING id",
    )
    .bind(who.store_id)
    .bind(order.id)
    .bind(b.id)
    .bind(b.warehouse_id)
    .bind(b.amount)
    .bind(st)
    .bind(input.store_channel_id)
    .bind(&input.channel_type)
    .bind(&input.attachment)
    .bind(from)
    .bind(&input.note)
    .bind(who.user_id)
    .bind(if input.attachment.is_empty() { 0 } else { now })
    .bind(now)
    .fetch_one(&mut **tx)
    .await
    .map_err(|e| {
        // The index of live payments: a bill has one at a time.
        if bo_kit::error::is_unique_violation(&e) {
            Error::conflict(Code::PaymentExists)
        } else {
            e.into()
        }
    })?;
    let p = payment_in(tx, who.store_id, order.id, id).await?;
    if !input.attachment.is_empty() {
        record_slip(tx, who, &p, &input.attachment, from, now).await?;
    }
    Ok(p)
}

async fn update_payment(
    tx: &mut Tx,
    who: Actor,
    p: &PaymentRow,
    to: &str,
    input: &PaymentInput,
    from: &str,
    now: i64,
) -> Result<PaymentRow> {
    let new_slip = !input.attachment.is_empty();
    let r = sqlx::query(
        "UPDATE order_payments SET state = $1, \
         store_channel_id = CASE WHEN $2 > 0 THEN $2 ELSE store_channel_id END, \
         channel_type = CASE WHEN $2 > 0 THEN $3 ELSE channel_type END, \
         attachment = CASE WHEN $4 = 1 THEN $5 ELSE attachment END, \
         slip_at = CASE WHEN $4 = 1 THEN $6 ELSE slip_at END, \
         note = CASE WHEN $7 <> '' THEN $7 ELSE note END, \
         amount = (SELECT amount FROM order_bills WHERE id = $8), \
         updated_at = $6, updated_by = $9 WHERE id = $10 AND state = $11",
    )
    .bind(to)
    .bind(input.store_channel_id)
    .bind(&input.channel_type)
    .bind(i64::from(new_slip))
    .bind(&input.attachment)
    .bind(now)
    .bind(&input.note)
    .bind(p.bill_id)
    .bind(who.user_id)
    .bind(p.id)
    .bind(&p.state)
    .execute(&mut **tx)
    .await?;
    if r.rows_affected() != 1 {
        return Err(Error::conflict(Code::PaymentChanged));
    }
    let payment = payment_in(tx, who.store_id, p.order_id, p.id).await?;
    if new_slip && p.attachment != input.attachment {
        // The earlier slip stays kept: evidence is never dropped.
        record_slip(tx, who, &payment, &input.attachment, from, now).await?;
    }
    Ok(payment)
}

/// A proof of payment that is not a slip: a line of a bank statement or a COD remittance.
#[derive(Debug, Clone)]
pub struct Proof {
    /// The line's fingerprint (a line confirms one payment, ever).
    pub fingerprint: String,
    /// What the line said, kept as the payment's note.
    pub note: String,
    /// bank or cod.
    pub channel_type: String,
}

impl Repo {
    /// The store's bills made since `since` that may still be paid (not expired, their order
    /// not cancelled or failed, no confirmed payment), with their orders.
    pub async fn open_bills(&self, store_id: i64, since: i64) -> Result<Vec<crate::matching::OpenBill>> {
        #[derive(FromRow)]
        struct Open {
            bill_id: i64,
            order_id: i64,
            order_no: String,
            reference: String,
            ship_name: String,
            amount: i64,
            created_at: i64,
            cod: i64,
            state: String,
            tracking_no: String,
            payment_state: Option<String>,
            slip_at: Option<i64>,
        }
        let live =
            "FROM order_payments p WHERE p.bill_id = b.id AND p.state IN ($5, $6, $7) ORDER BY p.id DESC LIMIT 1";
        let rows = sqlx::query_as::<_, Open>(&format!(
            "SELECT b.id AS bill_id, o.id AS order_id, o.order_no, o.reference, o.ship_name, b.amount, b.created_at, \
             o.cod, o.state, o.tracking_no, (SELECT p.state {live}) AS payment_state, (SELECT p.slip_at {live}) AS slip_at \
             FROM order_bills b JOIN orders o ON o.id = b.order_id \
             WHERE b.store_id = $1 AND b.created_at >= $2 AND b.state <> $3 AND o.state NOT IN ($4, $8) \
             ORDER BY b.id LIMIT 50000"
        ))
        .bind(store_id)
        .bind(since)
        .bind(bill::EXPIRED)
        .bind(state::CANCELLED)
        .bind(payment::UNPAID)
        .bind(payment::PENDING)
        .bind(payment::PAID)
        .bind(state::FAILED)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows
            .into_iter()
            .filter(|r| r.payment_state.as_deref() != Some(payment::PAID))
            .map(|r| crate::matching::OpenBill {
                bill_id: r.bill_id,
                order_id: r.order_id,
                order_no: r.order_no,
                reference: r.reference,
                name: r.ship_name,
                amount: r.amount,
                created_ms: r.created_at,
                cod: r.cod != 0,
                shipped: matches!(r.state.as_str(), state::SHIPPED | state::CLOSED),
                tracking: r.tracking_no,
                payment_state: r.payment_state.unwrap_or_default(),
                slip_at: r.slip_at.unwrap_or(0),
            })
            .collect())
    }

    /// Which of `proofs` already confirmed a payment of the store: proof → the order's number.
    pub async fn used_proofs(
        &self,
        store_id: i64,
        proofs: &[String],
    ) -> Result<std::collections::HashMap<String, String>> {
        let mut out = std::collections::HashMap::new();
        for chunk in proofs.chunks(200) {
            let placeholders: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "SELECT p.proof, o.order_no FROM order_payments p JOIN orders o ON o.id = p.order_id \
                 WHERE p.store_id = $1 AND p.proof <> '' AND p.proof IN ({})",
                placeholders.join(", ")
            );
            let mut q = sqlx::query_as::<_, (String, String)>(&sql).bind(store_id);
            for p in chunk {
                q = q.bind(p.as_str());
            }
            out.extend(q.fetch_all(self.db.pool()).await?);
        }
        Ok(out)
    }

    /// Confirms a bill's payment with a statement's line as its proof ([`payment::reconcile`]):
    /// its live payment becomes paid, or, without one, a paid payment is made. Refused as a
    /// slip would be (order closed, bill expired, already confirmed, COD not shipped), and
    /// with `statement_line_used` when the line already confirmed a payment.
    pub async fn settle_by_proof(&self, who: Actor, bill_id: i64, proof: &Proof) -> Result<PaymentRow> {
        let mut tx = self.db.begin().await?;
        let (b, order) = locked_bill(&mut tx, who.store_id, bill_id).await?;
        if let Some(why) = slip_refusal(&order, &b) {
            return Err(Error::failed_precondition(why));
        }
        let live = live_payment(&mut tx, b.id).await?;
        payment::reconcile(live.as_ref().map(|p| p.state.as_str()), order.cod != 0, &order.state)
            .map_err(Error::failed_precondition)?;
        let now = now_ms();
        let id = match live {
            Some(p) => p.id,
            None => {
                let input = PaymentInput {
                    store_channel_id: 0,
                    channel_type: proof.channel_type.clone(),
                    attachment: String::new(),
                    note: String::new(),
                };
                insert_payment(&mut tx, who, &order, &b, payment::UNPAID, source::STAFF, &input, now).await?.id
            }
        };
        let r = sqlx::query(
            "UPDATE order_payments SET state = $1, proof = $2, note = CASE WHEN note = '' THEN $3 ELSE note END, \
             confirmed_by = $4, confirmed_at = $5, updated_by = $4, updated_at = $5 \
             WHERE id = $6 AND state IN ($7, $8)",
        )
        .bind(payment::PAID)
        .bind(&proof.fingerprint)
        .bind(&proof.note)
        .bind(who.user_id)
        .bind(now)
        .bind(id)
        .bind(payment::UNPAID)
        .bind(payment::PENDING)
        .execute(&mut *tx)
        .await
        .map_err(|e| {
            if bo_kit::error::is_unique_violation(&e) {
                Error::conflict(Code::StatementLineUsed)
            } else {
                e.into()
            }
        })?;
        if r.rows_affected() != 1 {
            return Err(Error::conflict(Code::PaymentChanged));
        }
        settle_order(&mut tx, who, order.id, now).await?;
        event(
            &mut tx,
            who,
            order.id,
            "payment_reconciled",
            &order.state,
            &order.state,
            &format!("{}:{}", b.warehouse_id, payment::PAID),
        )
        .await?;
        let out = payment_in(&mut tx, who.store_id, order.id, id).await?;
        tx.commit().await?;
        Ok(out)
    }
}
