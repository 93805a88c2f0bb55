//! Bills' SQL: written with their order, renewed, and expired by the scheduler. Expiry is a
//! conditional update from `active`, in the same transaction as its consequence on the
//! order (cancelled, or kept new), so a bill expires once however many replicas look.

use bo_kit::db::Tx;
use bo_kit::time::now_ms;
use bo_kit::Code;
use bo_kit::{Error, Result};
use sqlx::FromRow;

use bo_kit::outbox;
use bo_proto::events::v1 as ev;

use super::{apply_move, event, order_in, Actor, Moved, OrderRow, Repo};
use crate::domain::bill::{self, BillAction};
use crate::domain::state::{self, Action};

/// The store's bill-expiry setting as it holds for bills made now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BillTerms {
    /// no_expiry, by_day, by_time or next_day.
    pub expiry_type: String,
    /// cancel_order or keep_new.
    pub on_expiry: String,
    /// When a bill made now expires (0 never).
    pub expires_at: i64,
}

pub(super) const BILL_COLUMNS: &str =
    "id, store_id, order_id, warehouse_id, amount, token, state, expiry_type, on_expiry, \
    expires_at, expired_at, renewed_at, created_at";

/// A bill row.
#[derive(Debug, Clone, FromRow)]
pub struct BillRow {
    pub id: i64,
    pub store_id: i64,
    pub order_id: i64,
    pub warehouse_id: i64,
    pub amount: i64,
    pub token: String,
    pub state: String,
    pub expiry_type: String,
    pub on_expiry: String,
    pub expires_at: i64,
    pub expired_at: i64,
    pub renewed_at: i64,
    pub created_at: i64,
}

/// A bill whose time has passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DueBill {
    pub id: i64,
    pub store_id: i64,
    pub order_id: i64,
}

/// A new bill of an order for one warehouse's share, taking `terms`, with the revision it
/// was announced at (0: not yet).
async fn insert_bill(
    tx: &mut Tx,
    store_id: i64,
    order_id: i64,
    (warehouse, amount): (i64, i64),
    terms: &BillTerms,
    announced: i64,
    now: i64,
) -> Result<BillRow> {
    Ok(sqlx::query_as(&format!(
        "INSERT INTO order_bills (store_id, order_id, warehouse_id, amount, token, state, expiry_type, \
         on_expiry, expires_at, announced, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING {BILL_COLUMNS}"
    ))
    .bind(store_id)
    .bind(order_id)
    .bind(warehouse)
    .bind(amount)
    .bind(bill::new_token())
    .bind(bill::ACTIVE)
    .bind(&terms.expiry_type)
    .bind(&terms.on_expiry)
    .bind(terms.expires_at)
    .bind(announced)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?)
}

/// A new order's bills, one per warehouse share (`amounts`), each taking `terms`: open at
/// once (a new order is unpaid), so each is announced in the same transaction (added to
/// `events`, `orders.bill.opened`, revision 1), and the order's first expiry follows. What
/// [`sync_bills`] then [`announce_bills`] would write for an order without bills, in fewer
/// statements.
pub(super) async fn open_bills(
    tx: &mut Tx,
    events: &mut outbox::Batch,
    order_id: i64,
    amounts: &[(i64, i64)],
    terms: &BillTerms,
    now: i64,
) -> Result<Vec<BillRow>> {
    debug_assert!(bill::is_open(bill::ACTIVE, crate::domain::state::NEW, crate::domain::payment::UNPAID));
    let store_id = events.store_id();
    let mut out = Vec::with_capacity(amounts.len());
    for (warehouse, amount) in amounts {
        let row = insert_bill(tx, store_id, order_id, (*warehouse, *amount), terms, 1, now).await?;
        events.add(0, &ev::BillOpened { bill_id: row.id, order_id, revision: 1 })?;
        out.push(row);
    }
    if terms.expires_at > 0 && !out.is_empty() {
        // Every bill took the same terms: the first expiry is theirs.
        sqlx::query("UPDATE orders SET bill_expire_at = $1 WHERE id = $2")
            .bind(terms.expires_at)
            .bind(order_id)
            .execute(&mut **tx)
            .await?;
    }
    out.sort_by_key(|b| b.warehouse_id);
    Ok(out)
}

/// Writes an order's bills to follow its warehouses' shares (`amounts`): a warehouse that
/// had a bill keeps it (its link and expiry) with the new amount; a new warehouse's bill
/// takes `terms`; a warehouse no longer on the order loses its bill. The order's first
/// expiry follows.
pub(super) async fn sync_bills(
    tx: &mut Tx,
    store_id: i64,
    order_id: i64,
    amounts: &[(i64, i64)],
    terms: &BillTerms,
    now: i64,
) -> Result<()> {
    let had: Vec<i64> = sqlx::query_scalar("SELECT warehouse_id FROM order_bills WHERE order_id = $1")
        .bind(order_id)
        .fetch_all(&mut **tx)
        .await?;
    for (warehouse, amount) in amounts {
        if had.contains(warehouse) {
            sqlx::query(
                "UPDATE order_bills SET amount = $1, updated_at = $2 WHERE order_id = $3 AND warehouse_id = $4",
            )
            .bind(amount)
            .bind(now)
            .bind(order_id)
            .bind(warehouse)
            .execute(&mut **tx)
            .await?;
        } else {
            // Announced with the others below, once the order's state is known.
            insert_bill(tx, store_id, order_id, (*warehouse, *amount), terms, 0, now).await?;
        }
    }
    for gone in had.iter().filter(|w| !amounts.iter().any(|(a, _)| a == *w)) {
        let removed: Option<(i64, i64)> =
            sqlx::query_as("DELETE FROM order_bills WHERE order_id = $1 AND warehouse_id = $2 RETURNING id, announced")
                .bind(order_id)
                .bind(gone)
                .fetch_optional(&mut **tx)
                .await?;
        if let Some((bill_id, announced)) = removed.filter(|(_, a)| a % 2 == 1) {
            outbox::enqueue(tx, store_id, 0, &ev::BillClosed { bill_id, revision: announced + 1 }).await?;
        }
    }
    first_expiry(tx, order_id).await?;
    announce_bills(tx, store_id, order_id).await
}

/// Tells the payments service of the order's bills that opened or closed since it was
/// last told (`orders.bill.opened`, `orders.bill.closed`; [`bill::is_open`]), in the
/// transaction that opened or closed them, each with the bill's next revision. Every write that can change a bill's state, its
/// order's state or its order's payment state ends with this.
pub(super) async fn announce_bills(tx: &mut Tx, store_id: i64, order_id: i64) -> Result<()> {
    let mut events = outbox::Batch::new(store_id);
    announce_bills_into(tx, &mut events, order_id).await?;
    events.write(tx).await
}

/// [`announce_bills`], its events added to `events` (written by the caller).
pub(super) async fn announce_bills_into(tx: &mut Tx, events: &mut outbox::Batch, order_id: i64) -> Result<()> {
    let bills: Vec<(i64, String, i64, String, String)> = sqlx::query_as(
        "SELECT b.id, b.state, b.announced, o.state, o.payment_state FROM order_bills b \
         JOIN orders o ON o.id = b.order_id WHERE b.order_id = $1 ORDER BY b.id",
    )
    .bind(order_id)
    .fetch_all(&mut **tx)
    .await?;
    for (bill_id, bill_state, announced, order_state, payment_state) in bills {
        let open = bill::is_open(&bill_state, &order_state, &payment_state);
        if open == (announced % 2 == 1) {
            continue;
        }
        let revision = announced + 1;
        if open {
            events.add(0, &ev::BillOpened { bill_id, order_id, revision })?;
        } else {
            events.add(0, &ev::BillClosed { bill_id, revision })?;
        }
        sqlx::query("UPDATE order_bills SET announced = $1 WHERE id = $2")
            .bind(revision)
            .bind(bill_id)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// The order's `bill_expire_at`: the first expiry of its active bills (0 none).
async fn first_expiry(tx: &mut Tx, order_id: i64) -> Result<()> {
    sqlx::query(
        "UPDATE orders SET bill_expire_at = COALESCE((SELECT MIN(expires_at) FROM order_bills \
         WHERE order_id = $1 AND state = $2 AND expires_at > 0), 0) WHERE id = $1",
    )
    .bind(order_id)
    .bind(bill::ACTIVE)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl Repo {
    /// The bills of orders of the store, by order, by warehouse.
    pub async fn bills(&self, store_id: i64, order_id: i64) -> Result<Vec<BillRow>> {
        Ok(sqlx::query_as::<_, BillRow>(&format!(
            "SELECT {BILL_COLUMNS} FROM order_bills WHERE store_id = $1 AND order_id = $2 ORDER BY warehouse_id"
        ))
        .bind(store_id)
        .bind(order_id)
        .fetch_all(self.pool())
        .await?)
    }

    /// Renews the bills of a new order (or only its warehouse's) until `until`: each
    /// becomes active again. Refused as a whole when one of them may not be renewed.
    pub async fn renew_bills(&self, who: Actor, order_id: i64, warehouse_id: i64, days: i64, until: i64) -> Result<()> {
        let mut tx = self.db.begin().await?;
        let row = order_in(&mut tx, who.store_id, order_id).await?;
        let bills: Vec<BillRow> = sqlx::query_as::<_, BillRow>(&format!(
            "SELECT {BILL_COLUMNS} FROM order_bills WHERE store_id = $1 AND order_id = $2 ORDER BY warehouse_id"
        ))
        .bind(who.store_id)
        .bind(order_id)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .filter(|b| warehouse_id == 0 || b.warehouse_id == warehouse_id)
        .collect();
        if bills.is_empty() {
            return Err(Error::not_found(Code::BillNotFound));
        }
        let now = now_ms();
        let mut renewed = Vec::new();
        for b in &bills {
            if let Some(why) = bill::renew_refusal(&row.state, &row.payment_state, b.expires_at) {
                return Err(Error::failed_precondition(why));
            }
            let to = bill::next(&b.state, BillAction::Renew).map_err(Error::failed_precondition)?;
            sqlx::query(
                "UPDATE order_bills SET state = $1, expires_at = $2, renewed_at = $3, updated_at = $3 \
                 WHERE id = $4 AND state = $5",
            )
            .bind(to)
            .bind(until)
            .bind(now)
            .bind(b.id)
            .bind(&b.state)
            .execute(&mut *tx)
            .await?;
            renewed.push(b.warehouse_id.to_string());
        }
        touch_order(&mut tx, who, order_id, now).await?;
        first_expiry(&mut tx, order_id).await?;
        announce_bills(&mut tx, who.store_id, order_id).await?;
        let detail = format!("{days}");
        event(&mut tx, who, order_id, "bill_renewed", &row.state, &row.state, &detail).await?;
        tx.commit().await?;
        tracing::debug!(order = order_id, warehouses = %renewed.join(","), days, "renewed bills");
        Ok(())
    }

    /// Gives a bill of an order a new public link: whoever holds the old one (a forwarded
    /// chat) finds nothing from then on.
    pub async fn rotate_bill_token(&self, who: Actor, order_id: i64, bill_id: i64) -> Result<()> {
        let mut tx = self.db.begin().await?;
        let row = order_in(&mut tx, who.store_id, order_id).await?;
        let now = now_ms();
        let r = sqlx::query(
            "UPDATE order_bills SET token = $1, updated_at = $2 WHERE store_id = $3 AND order_id = $4 AND id = $5",
        )
        .bind(bill::new_token())
        .bind(now)
        .bind(who.store_id)
        .bind(order_id)
        .bind(bill_id)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Err(Error::not_found(Code::BillNotFound));
        }
        touch_order(&mut tx, who, order_id, now).await?;
        event(&mut tx, who, order_id, "bill_link_renewed", &row.state, &row.state, &bill_id.to_string()).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Active bills whose time has passed, of new unpaid orders, oldest first.
    pub async fn due_bills(&self, now: i64, limit: i64) -> Result<Vec<DueBill>> {
        let rows: Vec<(i64, i64, i64)> = sqlx::query_as(
            "SELECT b.id, b.store_id, b.order_id FROM order_bills b JOIN orders o ON o.id = b.order_id \
             WHERE b.state = $1 AND b.expires_at > 0 AND b.expires_at <= $2 AND o.state = $3 AND o.payment_state = $4 \
             ORDER BY b.expires_at, b.id LIMIT $5",
        )
        .bind(bill::ACTIVE)
        .bind(now)
        .bind(state::NEW)
        .bind(crate::domain::payment::UNPAID)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.into_iter().map(|(id, store_id, order_id)| DueBill { id, store_id, order_id }).collect())
    }

    /// Expires a due bill, once: the bill and what its setting does to the order (cancel it,
    /// or keep it new) in one transaction. None when another got there first, the order
    /// can no longer lose its bill (paid, pending, prepared) or is busy with wms (it is
    /// tried again on the next round); else how the order moved (a kept order is not moved).
    pub async fn expire_bill(&self, due: DueBill, now: i64) -> Result<Option<Moved>> {
        let mut tx = self.db.begin().await?;
        let row = order_in(&mut tx, due.store_id, due.order_id).await?;
        expire_as_read(tx, row, due, now).await
    }
}

/// Expires `due` as its order `row` was read: what the row says decides only whether to
/// try; the bill's own update asks again, in the same statement, that no payment is
/// pending or paid, so a slip that came after the read keeps the order.
async fn expire_as_read(mut tx: Tx, row: OrderRow, due: DueBill, now: i64) -> Result<Option<Moved>> {
    if !bill::may_expire(&row.state, &row.payment_state) {
        return Ok(None);
    }
    let to = bill::next(bill::ACTIVE, BillAction::Expire).map_err(Error::failed_precondition)?;
    let expired: Option<(i64, String)> = sqlx::query_as(
        "UPDATE order_bills SET state = $1, expired_at = $2, updated_at = $2 \
         WHERE id = $3 AND state = $4 AND expires_at > 0 AND expires_at <= $2 AND NOT EXISTS \
         (SELECT 1 FROM order_payments p WHERE p.store_id = order_bills.store_id AND p.order_id = order_bills.order_id \
         AND p.state IN ($5, $6)) \
         RETURNING warehouse_id, on_expiry",
    )
    .bind(to)
    .bind(now)
    .bind(due.id)
    .bind(bill::ACTIVE)
    .bind(crate::domain::payment::PENDING)
    .bind(crate::domain::payment::PAID)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((warehouse_id, on_expiry)) = expired else { return Ok(None) };
    let who = Actor::system(due.store_id);
    event(&mut tx, who, row.id, "bill_expired", &row.state, &row.state, &format!("{warehouse_id}:{on_expiry}")).await?;
    let moved = if on_expiry == bill::CANCEL_ORDER {
        if crate::domain::stock::IN_FLIGHT.contains(&row.stock_state.as_str()) {
            return Ok(None);
        }
        let to = state::next(&row.state, Action::Cancel).map_err(Error::failed_precondition)?;
        let mut round = super::moves::Round::new(due.store_id);
        let moved = apply_move(&mut tx, &mut round, who, &row, Action::Cancel, to, "", "bill_expired", now).await?;
        round.write(&mut tx).await?;
        if moved.refused.is_some() {
            return Ok(None);
        }
        moved
    } else {
        Moved { id: row.id, order_no: row.order_no.clone(), refused: None, state: row.state.clone(), release: false }
    };
    first_expiry(&mut tx, row.id).await?;
    announce_bills(&mut tx, due.store_id, row.id).await?;
    tx.commit().await?;
    Ok(Some(moved))
}

/// Marks an order changed by `who` (its bills changed): a new version, for the screens'
/// optimistic checks.
async fn touch_order(tx: &mut Tx, who: Actor, order_id: i64, now: i64) -> Result<()> {
    sqlx::query("UPDATE orders SET updated_at = $1, updated_by = $2, version = version + 1 WHERE id = $3")
        .bind(now)
        .bind(who.user_id)
        .bind(order_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{source, Item, OrderData, PaymentInput};
    use bo_kit::db::Db;

    /// An order of one line in warehouse 1 whose bill cancels it once due, its stock held.
    async fn held_order(repo: &Repo, who: Actor) -> i64 {
        let data = OrderData {
            channel: "facebook".into(),
            warehouse_id: 1,
            items: vec![Item { sku_id: 7, warehouse_id: 1, quantity: 1, price: 19_900, ..Item::default() }],
            totals: crate::domain::money::Totals {
                subtotal: 19_900,
                net: 19_900,
                total: 19_900,
                per_warehouse: [(1, 19_900)].into(),
                ..Default::default()
            },
            bill_terms: BillTerms {
                expiry_type: "by_time".into(),
                on_expiry: bill::CANCEL_ORDER.into(),
                expires_at: now_ms() + 60_000,
            },
            ..OrderData::default()
        };
        let id = repo.insert(who, &data).await.unwrap().row.id;
        assert!(repo.settle_new(who, id, true, false).await.unwrap());
        id
    }

    /// Bill expiry reads the order (new, unpaid), then the buyer's slip commits, then expiry
    /// writes: the order keeps its slip and its bill, and is not cancelled.
    async fn a_slip_after_expirys_read_keeps_the_order(db: Db) {
        db.migrate(&crate::MIGRATIONS_SQLITE, &crate::MIGRATIONS_POSTGRES).await.unwrap();
        let repo = Repo::new(db.clone());
        let who = Actor { store_id: 3, user_id: 5 };
        let id = held_order(&repo, who).await;
        sqlx::query("UPDATE order_bills SET expires_at = $1 WHERE order_id = $2")
            .bind(now_ms() - 1_000)
            .bind(id)
            .execute(repo.pool())
            .await
            .unwrap();
        let now = now_ms();
        let due = repo.due_bills(now, 10).await.unwrap();
        assert_eq!(due.len(), 1);
        let read = repo.order(who.store_id, id).await.unwrap();
        assert!(bill::may_expire(&read.state, &read.payment_state), "{read:?}");

        let slip = PaymentInput { channel_type: "bank".into(), attachment: "slip.png".into(), ..Default::default() };
        repo.attach_slip(Actor::system(who.store_id), due[0].id, source::BUYER, &slip).await.unwrap();

        let tx = db.begin().await.unwrap();
        assert_eq!(expire_as_read(tx, read, due[0], now).await.unwrap(), None);
        let after = repo.order(who.store_id, id).await.unwrap();
        assert_eq!((after.state.as_str(), after.payment_state.as_str()), (state::NEW, crate::domain::payment::PENDING));
        let bills = repo.bills(who.store_id, id).await.unwrap();
        assert_eq!(bills[0].state, bill::ACTIVE);
        assert!(repo.due_bills(now, 10).await.unwrap().is_empty(), "a pending order's bill is not due");
    }

    #[tokio::test]
    async fn a_slip_after_expirys_read_keeps_the_order_on_sqlite() {
        let t = bo_kit::testing::sqlite().await;
        a_slip_after_expirys_read_keeps_the_order(t.db.clone()).await;
    }

    #[tokio::test]
    async fn a_slip_after_expirys_read_keeps_the_order_on_postgres() {
        if let Some(t) = bo_kit::testing::postgres().await {
            a_slip_after_expirys_read_keeps_the_order(t.db.clone()).await;
        }
    }
}
