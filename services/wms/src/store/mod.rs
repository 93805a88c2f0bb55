//! SQL of the stock ledger: one code path for SQLite and PostgreSQL. Every change to stock
//! is a conditional update, so no interleaving can oversell, and writes its movement and its
//! event in the same transaction.

use bo_kit::db::{Db, Tx};
use bo_kit::outbox;
use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::now_ms;
use bo_kit::Code;
use bo_kit::{Error, FieldError, Result};
use bo_proto::events::v1 as ev;
use sqlx::FromRow;

use crate::domain::{kind, state, Line};

pub mod fees;
pub mod holds;
pub mod lots;
pub mod parcels;
pub mod receipts;
pub mod transfers;
pub mod warehouses;

pub use lots::Take;

/// A warehouse row.
#[derive(Debug, Clone, FromRow)]
pub struct WarehouseRow {
    pub id: i64,
    pub store_id: i64,
    pub name: String,
    pub code: String,
    pub is_default: i64,
    pub created_at: i64,
    pub active: i64,
}

/// A stock row: a SKU's units in one warehouse.
#[derive(Debug, Clone, Default, PartialEq, Eq, FromRow)]
pub struct LevelRow {
    pub warehouse_id: i64,
    pub sku_id: i64,
    pub on_hand: i64,
    pub reserved: i64,
    pub preorder: i64,
}

impl LevelRow {
    /// Units on hand that nothing reserves.
    pub fn available(&self) -> i64 {
        self.on_hand - self.reserved
    }
}

/// Which movements: of a kind, SKU and warehouse (empty or 0 for any), made from `from_ms`
/// (included) to `to_ms` (excluded).
#[derive(Debug, Clone)]
pub struct MovementFilter {
    pub kind: String,
    pub sku_id: i64,
    pub warehouse_id: i64,
    pub from_ms: i64,
    pub to_ms: i64,
    /// Only those before this id (0 for no bound).
    pub before_id: i64,
    /// Leave the count out.
    pub no_total: bool,
}

impl Default for MovementFilter {
    fn default() -> Self {
        Self {
            kind: String::new(),
            sku_id: 0,
            warehouse_id: 0,
            from_ms: i64::MIN,
            to_ms: i64::MAX,
            before_id: 0,
            no_total: false,
        }
    }
}

/// A movement of the ledger.
#[derive(Debug, Clone, FromRow)]
pub struct MovementRow {
    pub id: i64,
    pub warehouse_id: i64,
    pub sku_id: i64,
    pub kind: String,
    pub on_hand_delta: i64,
    pub reserved_delta: i64,
    pub reason: String,
    pub reference: String,
    pub actor_user_id: i64,
    pub created_at: i64,
}

/// A movement with the lots it took or added.
#[derive(Debug, Clone)]
pub struct MovementRecord {
    pub row: MovementRow,
    pub lots: Vec<Take>,
}

/// Who acts, where (the kit's, one for every service).
pub use bo_kit::grpc::Actor;

/// The wms storage.
#[derive(Clone)]
pub struct Repo {
    db: Db,
}

const MAIN_CODE: &str = "MAIN";

impl Repo {
    /// Storage on `db`.
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// The store's warehouses, the default first.
    pub async fn warehouses(&self, store_id: i64) -> Result<Vec<WarehouseRow>> {
        Ok(sqlx::query_as::<_, WarehouseRow>(
            "SELECT id, store_id, name, code, is_default, created_at, active FROM warehouses WHERE store_id = $1 \
             ORDER BY is_default DESC, id",
        )
        .bind(store_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Creates the store's default warehouse unless it has one (inside an inbox transaction).
    pub async fn ensure_default_warehouse(tx: &mut Tx, store_id: i64, name: &str) -> Result<()> {
        let now = now_ms();
        let created: Option<i64> = sqlx::query_scalar(
            "INSERT INTO warehouses (store_id, name, code, is_default, created_at, updated_at) \
             VALUES ($1, $2, $3, 1, $4, $4) ON CONFLICT (store_id, code) DO NOTHING RETURNING id",
        )
        .bind(store_id)
        .bind(name)
        .bind(MAIN_CODE)
        .bind(now)
        .fetch_optional(&mut **tx)
        .await?;
        if let Some(id) = created {
            let w = WarehouseRow {
                id,
                store_id,
                name: name.to_string(),
                code: MAIN_CODE.into(),
                is_default: 1,
                created_at: now,
                active: 1,
            };
            outbox::enqueue(
                tx,
                store_id,
                0,
                &ev::WarehouseCreated {
                    warehouse_id: w.id,
                    name: w.name.clone(),
                    code: w.code.clone(),
                    is_default: true,
                },
            )
            .await?;
        }
        Ok(())
    }

    /// Stock levels of `skus` (in one warehouse, or all when `warehouse_id` is 0).
    pub async fn levels(&self, store_id: i64, skus: &[i64], warehouse_id: i64) -> Result<Vec<LevelRow>> {
        let mut out = Vec::new();
        for chunk in skus.chunks(200) {
            let placeholders: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 3)).collect();
            let sql = format!(
                "SELECT warehouse_id, sku_id, on_hand, reserved, preorder FROM stock WHERE store_id = $1 \
                 AND ($2 = 0 OR warehouse_id = $2) AND sku_id IN ({}) ORDER BY sku_id, warehouse_id",
                placeholders.join(", ")
            );
            let mut q = sqlx::query_as::<_, LevelRow>(&sql).bind(store_id).bind(warehouse_id);
            for s in chunk {
                q = q.bind(*s);
            }
            out.extend(q.fetch_all(self.db.pool()).await?);
        }
        Ok(out)
    }

    /// Reserves every line or none. A repeat of `reference` does nothing again.
    pub async fn reserve(&self, who: Actor, reference: &str, lines: &[Line]) -> Result<(Vec<LevelRow>, bool)> {
        let mut tx = self.db.begin().await?;
        if !claim(&mut tx, who.store_id, kind::RESERVE, reference).await? {
            tx.rollback().await?;
            let lines = self.reserved_lines(who.store_id, reference).await?;
            return Ok((lines, true));
        }
        crate::registry::check(&mut tx, who.store_id, &lines.iter().map(|l| l.sku_id).collect::<Vec<_>>()).await?;
        let now = now_ms();
        let mut levels = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            let moved = sqlx::query(
                "UPDATE stock SET reserved = reserved + $1, updated_at = $2 \
                 WHERE store_id = $3 AND warehouse_id = $4 AND sku_id = $5 AND on_hand - reserved >= $1",
            )
            .bind(l.quantity)
            .bind(now)
            .bind(who.store_id)
            .bind(l.warehouse_id)
            .bind(l.sku_id)
            .execute(&mut *tx)
            .await?;
            if moved.rows_affected() == 0 {
                // Nothing is kept: the transaction (and the claim) roll back.
                let mut e = Error::failed_precondition(Code::InsufficientStock);
                e.fields = vec![FieldError::new(format!("lines[{i}].quantity"), "stock.insufficient")];
                return Err(e);
            }
            sqlx::query(
                "INSERT INTO reservation_lines (store_id, reference, warehouse_id, sku_id, quantity, state, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(who.store_id)
            .bind(reference)
            .bind(l.warehouse_id)
            .bind(l.sku_id)
            .bind(l.quantity)
            .bind(state::RESERVED)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            lots::allocate(&mut tx, who.store_id, reference, l.warehouse_id, l.sku_id, l.quantity).await?;
            levels.push(
                record(&mut tx, who, l.warehouse_id, l.sku_id, kind::RESERVE, 0, l.quantity, "", reference, &[])
                    .await?,
            );
        }
        tx.commit().await?;
        Ok((levels, false))
    }

    async fn reserved_lines(&self, store_id: i64, reference: &str) -> Result<Vec<LevelRow>> {
        let skus: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT warehouse_id, sku_id FROM reservation_lines WHERE store_id = $1 AND reference = $2 ORDER BY sku_id",
        )
        .bind(store_id)
        .bind(reference)
        .fetch_all(self.db.pool())
        .await?;
        let mut out = Vec::new();
        for (w, s) in skus {
            out.extend(self.levels(store_id, &[s], w).await?);
        }
        Ok(out)
    }

    /// Releases (`ship` false) or ships (`ship` true) what `reference` holds; returns units.
    /// A reservation is settled once: the reference is claimed (`settle`), so of two
    /// concurrent calls one acts and the other finds it done and moves nothing (0 units),
    /// and every row it changes must change exactly as read, or nothing is kept.
    pub async fn settle(&self, who: Actor, reference: &str, ship: bool) -> Result<i64> {
        let mut tx = self.db.begin().await?;
        match settle_in(&mut tx, who, reference, ship).await? {
            // Settled before; or nothing was reserved under it (yet): keep no claim, so a
            // later settle of a reservation made after this call still acts.
            Settled::Before | Settled::Nothing => {
                tx.rollback().await?;
                Ok(0)
            }
            Settled::Units(n) => {
                tx.commit().await?;
                Ok(n)
            }
        }
    }

    /// Puts received lines on hand as lots, once per reference. Each line carries the cost of
    /// one unit (None: the moving average) and an expiry (0 for none).
    pub async fn receive(
        &self,
        who: Actor,
        reference: &str,
        lines: &[(Line, Option<i64>, i64)],
    ) -> Result<(Vec<LevelRow>, bool)> {
        let mut tx = self.db.begin().await?;
        if !claim(&mut tx, who.store_id, kind::RECEIVE, reference).await? {
            tx.rollback().await?;
            let skus: Vec<i64> = lines.iter().map(|(l, _, _)| l.sku_id).collect();
            return Ok((self.levels(who.store_id, &skus, 0).await?, true));
        }
        for (l, _, _) in lines {
            check_active_warehouse(&mut tx, who.store_id, l.warehouse_id).await?;
        }
        crate::registry::check(&mut tx, who.store_id, &lines.iter().map(|(l, _, _)| l.sku_id).collect::<Vec<_>>())
            .await?;
        let mut levels = Vec::new();
        let now = now_ms();
        for (l, unit_cost, expires_at) in lines {
            let lot = lots::NewLot {
                warehouse_id: l.warehouse_id,
                sku_id: l.sku_id,
                code: lot_code(reference),
                goods_receipt_id: 0,
                unit_cost: *unit_cost,
                expires_at: *expires_at,
                received_at: now,
                quantity: l.quantity,
            };
            let take = lots::put(&mut tx, who.store_id, &lot).await?;
            levels.push(
                record(&mut tx, who, l.warehouse_id, l.sku_id, kind::RECEIVE, l.quantity, 0, "", reference, &[take])
                    .await?,
            );
        }
        tx.commit().await?;
        Ok((levels, false))
    }

    /// Adjusts on hand by `delta`, never below what is reserved; once per reference.
    pub async fn adjust(
        &self,
        who: Actor,
        reference: &str,
        warehouse_id: i64,
        sku_id: i64,
        delta: i64,
        reason: &str,
    ) -> Result<(LevelRow, bool)> {
        let mut tx = self.db.begin().await?;
        if !claim(&mut tx, who.store_id, kind::ADJUST, reference).await? {
            tx.rollback().await?;
            let level = self.levels(who.store_id, &[sku_id], warehouse_id).await?.pop().unwrap_or_default();
            return Ok((level, true));
        }
        if delta > 0 {
            check_active_warehouse(&mut tx, who.store_id, warehouse_id).await?;
        } else {
            check_warehouse(&mut tx, who.store_id, warehouse_id).await?;
        }
        crate::registry::check(&mut tx, who.store_id, &[sku_id]).await?;
        let taken = if delta > 0 {
            let lot = lots::NewLot {
                warehouse_id,
                sku_id,
                code: "ADJ".into(),
                goods_receipt_id: 0,
                unit_cost: None,
                expires_at: 0,
                received_at: now_ms(),
                quantity: delta,
            };
            vec![lots::put(&mut tx, who.store_id, &lot).await?]
        } else {
            let moved = sqlx::query(
                "UPDATE stock SET on_hand = on_hand + $1, updated_at = $2 \
                 WHERE store_id = $3 AND warehouse_id = $4 AND sku_id = $5 AND on_hand + $1 >= reserved",
            )
            .bind(delta)
            .bind(now_ms())
            .bind(who.store_id)
            .bind(warehouse_id)
            .bind(sku_id)
            .execute(&mut *tx)
            .await?;
            if moved.rows_affected() == 0 {
                return Err(Error::failed_precondition(Code::StockBelowReserved));
            }
            lots::take_free(&mut tx, who.store_id, warehouse_id, sku_id, -delta).await?
        };
        let level =
            record(&mut tx, who, warehouse_id, sku_id, kind::ADJUST, delta, 0, reason.trim(), reference, &taken)
                .await?;
        tx.commit().await?;
        Ok((level, false))
    }

    /// The ledger, newest first, filtered and paged in the database.
    pub async fn movements(
        &self,
        store_id: i64,
        f: &MovementFilter,
        page: PageRequest,
    ) -> Result<(Vec<MovementRecord>, Page)> {
        let filter = "store_id = $1 AND ($2 = '' OR kind = $2) AND ($3 = 0 OR sku_id = $3) \
                      AND ($4 = 0 OR warehouse_id = $4) AND created_at >= $5 AND created_at < $6 \
                      AND ($7 = 0 OR id < $7)";
        let page = if f.no_total {
            PageRequest { page: 1, ..page }.resolve(0)
        } else {
            let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM movements WHERE {filter}"))
                .bind(store_id)
                .bind(f.kind.as_str())
                .bind(f.sku_id)
                .bind(f.warehouse_id)
                .bind(f.from_ms)
                .bind(f.to_ms)
                .bind(f.before_id)
                .fetch_one(self.db.pool())
                .await?;
            page.resolve(total)
        };
        let rows = sqlx::query_as::<_, MovementRow>(&format!(
            "SELECT id, warehouse_id, sku_id, kind, on_hand_delta, reserved_delta, reason, reference, actor_user_id, \
             created_at FROM movements WHERE {filter} ORDER BY id DESC LIMIT $8 OFFSET $9"
        ))
        .bind(store_id)
        .bind(f.kind.as_str())
        .bind(f.sku_id)
        .bind(f.warehouse_id)
        .bind(f.from_ms)
        .bind(f.to_ms)
        .bind(f.before_id)
        .bind(page.fetch)
        .bind(page.offset)
        .fetch_all(self.db.pool())
        .await?;
        let mut taken = lots::of_movements(self.db.pool(), &rows.iter().map(|m| m.id).collect::<Vec<_>>()).await?;
        let movements = rows
            .into_iter()
            .map(|row| MovementRecord { lots: taken.remove(&row.id).unwrap_or_default(), row })
            .collect();
        Ok((movements, page))
    }
}

impl Repo {
    /// The ledger's invariants, as sentences naming what breaks them (empty when it holds):
    /// what each stock row reserves equals what open reservations hold of it, and no
    /// reservation line is open for a SKU and warehouse without a stock row. Tests run it
    /// after they act; `backoffice admin check-stock` will run it on a live database.
    pub async fn check_invariants(&self) -> Result<Vec<String>> {
        let rows: Vec<(i64, i64, i64, i64, i64)> = sqlx::query_as(
            "SELECT s.store_id, s.warehouse_id, s.sku_id, s.reserved, \
               CAST(COALESCE((SELECT SUM(r.quantity) FROM reservation_lines r \
                 WHERE r.store_id = s.store_id AND r.warehouse_id = s.warehouse_id \
                   AND r.sku_id = s.sku_id AND r.state = $1), 0) AS BIGINT) \
             FROM stock s ORDER BY s.store_id, s.warehouse_id, s.sku_id",
        )
        .bind(state::RESERVED)
        .fetch_all(self.db.pool())
        .await?;
        let mut broken: Vec<String> = rows
            .into_iter()
            .filter(|(_, _, _, reserved, held)| reserved != held)
            .map(|(store, w, sku, reserved, held)| {
                format!("store {store} warehouse {w} sku {sku}: reserved {reserved}, open reservations hold {held}")
            })
            .collect();
        let orphans: Vec<(i64, i64, i64)> = sqlx::query_as(
            "SELECT r.store_id, r.warehouse_id, r.sku_id FROM reservation_lines r \
             WHERE r.state = $1 AND NOT EXISTS (SELECT 1 FROM stock s WHERE s.store_id = r.store_id \
               AND s.warehouse_id = r.warehouse_id AND s.sku_id = r.sku_id)",
        )
        .bind(state::RESERVED)
        .fetch_all(self.db.pool())
        .await?;
        broken.extend(orphans.into_iter().map(|(store, w, sku)| {
            format!("store {store} warehouse {w} sku {sku}: an open reservation without a stock row")
        }));
        broken.extend(lots::invariants(self.db.pool()).await?);
        Ok(broken)
    }
}

/// The claim of settling a reservation (released or shipped, once).
pub(crate) const SETTLE: &str = "settle";

/// What settling a reference did.
pub(crate) enum Settled {
    /// It was settled before: nothing moved.
    Before,
    /// It holds nothing; the claim is made (the caller keeps or drops it).
    Nothing,
    /// These units were released or shipped.
    Units(i64),
}

/// Releases or ships what `reference` holds, in the caller's transaction, claiming it once.
pub(crate) async fn settle_in(tx: &mut Tx, who: Actor, reference: &str, ship: bool) -> Result<Settled> {
    if !claim(tx, who.store_id, SETTLE, reference).await? {
        return Ok(Settled::Before);
    }
    let held: Vec<(i64, i64, i64)> = sqlx::query_as(
        "SELECT warehouse_id, sku_id, quantity FROM reservation_lines \
         WHERE store_id = $1 AND reference = $2 AND state = $3 ORDER BY warehouse_id, sku_id",
    )
    .bind(who.store_id)
    .bind(reference)
    .bind(state::RESERVED)
    .fetch_all(&mut **tx)
    .await?;
    if held.is_empty() {
        return Ok(Settled::Nothing);
    }
    let now = now_ms();
    let mut units = 0;
    let (on_hand_sign, movement, next) =
        if ship { (-1, kind::COMMIT, state::COMMITTED) } else { (0, kind::RELEASE, state::RELEASED) };
    for (w, s, q) in held {
        let line = sqlx::query(
            "UPDATE reservation_lines SET state = $1, updated_at = $2 \
             WHERE store_id = $3 AND reference = $4 AND warehouse_id = $5 AND sku_id = $6 AND state = $7",
        )
        .bind(next)
        .bind(now)
        .bind(who.store_id)
        .bind(reference)
        .bind(w)
        .bind(s)
        .bind(state::RESERVED)
        .execute(&mut **tx)
        .await?;
        let stock = sqlx::query(
            "UPDATE stock SET on_hand = on_hand + $1, reserved = reserved - $2, updated_at = $3 \
             WHERE store_id = $4 AND warehouse_id = $5 AND sku_id = $6 AND reserved >= $2 AND on_hand >= $2",
        )
        .bind(on_hand_sign * q)
        .bind(q)
        .bind(now)
        .bind(who.store_id)
        .bind(w)
        .bind(s)
        .execute(&mut **tx)
        .await?;
        if line.rows_affected() != 1 || stock.rows_affected() != 1 {
            // The ledger does not hold what the reservation says: change nothing.
            tracing::error!(reference, warehouse = w, sku = s, "a reservation and the stock disagree");
            return Err(Error::failed_precondition(Code::ReservationMismatch));
        }
        let taken = lots::settle(tx, who.store_id, reference, w, s, q, ship).await?;
        record(tx, who, w, s, movement, on_hand_sign * q, -q, "", reference, if ship { &taken } else { &[] }).await?;
        units += q;
    }
    Ok(Settled::Units(units))
}

/// Claims `reference` for `op`; false when it was done before.
pub(crate) async fn claim(tx: &mut Tx, store_id: i64, op: &str, reference: &str) -> Result<bool> {
    let r = sqlx::query(
        "INSERT INTO stock_ops (store_id, op, reference, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (store_id, op, reference) DO NOTHING",
    )
    .bind(store_id)
    .bind(op)
    .bind(reference)
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// Refuses a warehouse of another store (`warehouse_not_found`) or one that takes no new
/// stock (`warehouse_inactive`).
pub(crate) async fn check_active_warehouse(tx: &mut Tx, store_id: i64, warehouse_id: i64) -> Result<()> {
    let active: Option<i64> = sqlx::query_scalar("SELECT active FROM warehouses WHERE store_id = $1 AND id = $2")
        .bind(store_id)
        .bind(warehouse_id)
        .fetch_optional(&mut **tx)
        .await?;
    match active {
        None => Err(Error::not_found(Code::WarehouseNotFound)),
        Some(0) => Err(Error::failed_precondition(Code::WarehouseInactive)),
        Some(_) => Ok(()),
    }
}

/// A lot's code made of a command's reference (at most 40 characters).
fn lot_code(reference: &str) -> String {
    reference.chars().take(40).collect()
}

pub(crate) async fn check_warehouse(tx: &mut Tx, store_id: i64, warehouse_id: i64) -> Result<()> {
    let found: Option<i64> = sqlx::query_scalar("SELECT id FROM warehouses WHERE store_id = $1 AND id = $2")
        .bind(store_id)
        .bind(warehouse_id)
        .fetch_optional(&mut **tx)
        .await?;
    found.map(|_| ()).ok_or_else(|| Error::not_found(Code::WarehouseNotFound))
}

/// Appends the movement, reads the level after it, and writes the StockMoved event.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn record(
    tx: &mut Tx,
    who: Actor,
    warehouse_id: i64,
    sku_id: i64,
    movement_kind: &str,
    on_hand_delta: i64,
    reserved_delta: i64,
    reason: &str,
    reference: &str,
    lots: &[Take],
) -> Result<LevelRow> {
    record_at(
        tx,
        who,
        warehouse_id,
        sku_id,
        movement_kind,
        on_hand_delta,
        reserved_delta,
        reason,
        reference,
        lots,
        None,
    )
    .await
}

/// [`record`], with the level after the movement when the caller read it already (an
/// update's `RETURNING`).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn record_at(
    tx: &mut Tx,
    who: Actor,
    warehouse_id: i64,
    sku_id: i64,
    movement_kind: &str,
    on_hand_delta: i64,
    reserved_delta: i64,
    reason: &str,
    reference: &str,
    lots: &[Take],
    known: Option<LevelRow>,
) -> Result<LevelRow> {
    let now = now_ms();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO movements (store_id, warehouse_id, sku_id, kind, on_hand_delta, reserved_delta, reason, reference, \
         actor_user_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
    )
    .bind(who.store_id)
    .bind(warehouse_id)
    .bind(sku_id)
    .bind(movement_kind)
    .bind(on_hand_delta)
    .bind(reserved_delta)
    .bind(reason)
    .bind(reference)
    .bind(who.user_id)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    lots::record_movement(tx, id, lots).await?;
    let level = match known {
        Some(level) => level,
        None => {
            sqlx::query_as::<_, LevelRow>(
                "SELECT warehouse_id, sku_id, on_hand, reserved, preorder FROM stock \
                 WHERE store_id = $1 AND warehouse_id = $2 AND sku_id = $3",
            )
            .bind(who.store_id)
            .bind(warehouse_id)
            .bind(sku_id)
            .fetch_one(&mut **tx)
            .await?
        }
    };
    let event = stock_moved(&level, id, movement_kind, on_hand_delta, reserved_delta, reference);
    outbox::enqueue(tx, who.store_id, who.user_id, &event).await?;
    if on_hand_delta - reserved_delta > 0 && level.available() > 0 {
        let freed = ev::StockAvailable { warehouse_id, sku_id, available: level.available() };
        outbox::enqueue(tx, who.store_id, who.user_id, &freed).await?;
    }
    Ok(level)
}

/// The event of a movement, with the level it left.
fn stock_moved(
    level: &LevelRow,
    movement_id: i64,
    movement_kind: &str,
    on_hand_delta: i64,
    reserved_delta: i64,
    reference: &str,
) -> ev::StockMoved {
    ev::StockMoved {
        level: Some(ev::StockLevel {
            warehouse_id: level.warehouse_id,
            sku_id: level.sku_id,
            on_hand: level.on_hand,
            reserved: level.reserved,
            preorder: level.preorder,
        }),
        movement: Some(ev::StockMovement {
            id: movement_id,
            kind: movement_kind.into(),
            on_hand_delta,
            reserved_delta,
            reference: reference.into(),
        }),
    }
}

/// Writes the movements of reserves, one per (warehouse, SKU, units) line, in one statement;
/// answers (movement id, warehouse, SKU). They do not depend on the stock rows, so a hold
/// writes them before it locks those (decision 0028).
pub(crate) async fn reserve_movements(
    tx: &mut Tx,
    who: Actor,
    reference: &str,
    lines: &[(i64, i64, i64)],
) -> Result<Vec<(i64, i64, i64)>> {
    if lines.is_empty() {
        return Ok(Vec::new());
    }
    let now = now_ms();
    let values = (0..lines.len())
        .map(|i| format!("($1, ${}, ${}, $2, 0, ${}, '', $3, $4, $5)", 6 + 3 * i, 7 + 3 * i, 8 + 3 * i))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "INSERT INTO movements (store_id, warehouse_id, sku_id, kind, on_hand_delta, reserved_delta, reason, reference, \
         actor_user_id, created_at) VALUES {values} RETURNING id, warehouse_id, sku_id"
    );
    let mut q = sqlx::query_as::<_, (i64, i64, i64)>(&sql)
        .bind(who.store_id)
        .bind(kind::RESERVE)
        .bind(reference)
        .bind(who.user_id)
        .bind(now);
    for (warehouse_id, sku_id, units) in lines {
        q = q.bind(*warehouse_id).bind(*sku_id).bind(*units);
    }
    Ok(q.fetch_all(&mut **tx).await?)
}

/// Announces reserves with the levels the stock rows answered, naming the movements
/// [`reserve_movements`] wrote.
pub(crate) async fn announce_reserves(
    tx: &mut Tx,
    who: Actor,
    reference: &str,
    reserved: &[(i64, LevelRow)],
    ids: &[(i64, i64, i64)],
) -> Result<()> {
    if reserved.is_empty() {
        return Ok(());
    }
    let mut events = Vec::with_capacity(reserved.len());
    for (units, level) in reserved {
        let id = ids
            .iter()
            .find(|(_, w, s)| *w == level.warehouse_id && *s == level.sku_id)
            .map(|(id, _, _)| *id)
            .ok_or_else(|| Error::internal(anyhow::anyhow!("a reserve's movement was not written")))?;
        events.push(stock_moved(level, id, kind::RESERVE, 0, *units, reference));
    }
    outbox::enqueue_all(tx, who.store_id, who.user_id, &events).await?;
    Ok(())
}

/// The next gap-free document code of `kind` (`GR`, `TF`) for the store in the current
/// Buddhist-era year: the counter row is locked by its update, so two transactions never
/// take one number, and a rolled-back one gives its number back.
pub(crate) async fn next_code(tx: &mut Tx, store_id: i64, kind: &str) -> Result<String> {
    let year = crate::domain::lots::buddhist_year(now_ms());
    sqlx::query(
        "INSERT INTO doc_counters (store_id, kind, year, last) VALUES ($1, $2, $3, 0) \
         ON CONFLICT (store_id, kind, year) DO NOTHING",
    )
    .bind(store_id)
    .bind(kind)
    .bind(year)
    .execute(&mut **tx)
    .await?;
    let n: i64 = sqlx::query_scalar(
        "UPDATE doc_counters SET last = last + 1 WHERE store_id = $1 AND kind = $2 AND year = $3 RETURNING last",
    )
    .bind(store_id)
    .bind(kind)
    .bind(year)
    .fetch_one(&mut **tx)
    .await?;
    Ok(crate::domain::lots::doc_code(kind, year, n))
}

impl Repo {
    /// The pool, for reads.
    pub fn pool(&self) -> &sqlx::AnyPool {
        self.db.pool()
    }
}
