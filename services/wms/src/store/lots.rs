//! SQL of stock lots. Every change to a lot happens after its stock row was changed in the
//! same transaction (which locks that row on PostgreSQL, and SQLite writes one at a time), so
//! lots of one SKU in one warehouse are never changed by two transactions at once.

use bo_kit::Code;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use bo_kit::db::Tx;
use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::now_ms;
use bo_kit::{Error, Result};
use sqlx::{AnyPool, FromRow};

use crate::domain::lots::{self as rules, Free, DAY_MS, FEFO_ORDER};

/// Units of a lot that a movement took or added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Take {
    /// Lot.
    pub lot_id: i64,
    /// The lot's code.
    pub lot_code: String,
    /// Units.
    pub quantity: i64,
    /// The lot's expiry (0 none).
    pub expires_at: i64,
}

/// A lot to put on hand.
#[derive(Debug, Clone)]
pub struct NewLot {
    /// Warehouse.
    pub warehouse_id: i64,
    /// SKU.
    pub sku_id: i64,
    /// Readable code.
    pub code: String,
    /// Goods receipt (0 when none).
    pub goods_receipt_id: i64,
    /// Cost of one unit in satang; None takes the stock's moving average.
    pub unit_cost: Option<i64>,
    /// Expiry (0 none).
    pub expires_at: i64,
    /// First arrival.
    pub received_at: i64,
    /// Units.
    pub quantity: i64,
}

fn mismatch(what: &str, warehouse_id: i64, sku_id: i64) -> Error {
    tracing::error!(warehouse = warehouse_id, sku = sku_id, "lots and stock disagree: {what}");
    Error::failed_precondition(Code::LotsMismatch)
}

/// Puts a lot on hand: its stock row (made when missing) gains the units and its moving
/// average takes the lot's cost in.
pub async fn put(tx: &mut Tx, store_id: i64, lot: &NewLot) -> Result<Take> {
    let now = now_ms();
    sqlx::query(
        "INSERT INTO stock (store_id, warehouse_id, sku_id, on_hand, reserved, preorder, updated_at) \
         VALUES ($1, $2, $3, 0, 0, 0, $4) ON CONFLICT (warehouse_id, sku_id) DO NOTHING",
    )
    .bind(store_id)
    .bind(lot.warehouse_id)
    .bind(lot.sku_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    let (after, avg): (i64, i64) = sqlx::query_as(
        "UPDATE stock SET on_hand = on_hand + $1, updated_at = $2 WHERE warehouse_id = $3 AND sku_id = $4 \
         RETURNING on_hand, average_cost",
    )
    .bind(lot.quantity)
    .bind(now)
    .bind(lot.warehouse_id)
    .bind(lot.sku_id)
    .fetch_one(&mut **tx)
    .await?;
    let cost = lot.unit_cost.unwrap_or(avg);
    let new_avg = rules::average_after(after - lot.quantity, avg, lot.quantity, cost);
    if new_avg != avg {
        sqlx::query("UPDATE stock SET average_cost = $1 WHERE warehouse_id = $2 AND sku_id = $3")
            .bind(new_avg)
            .bind(lot.warehouse_id)
            .bind(lot.sku_id)
            .execute(&mut **tx)
            .await?;
    }
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO stock_lots (store_id, warehouse_id, sku_id, code, goods_receipt_id, unit_cost, expires_at, \
         received_at, quantity_in, on_hand, reserved, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, 0, $10) \
         RETURNING id",
    )
    .bind(store_id)
    .bind(lot.warehouse_id)
    .bind(lot.sku_id)
    .bind(&lot.code)
    .bind(lot.goods_receipt_id)
    .bind(cost)
    .bind(lot.expires_at)
    .bind(lot.received_at)
    .bind(lot.quantity)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    Ok(Take { lot_id: id, lot_code: lot.code.clone(), quantity: lot.quantity, expires_at: lot.expires_at })
}

#[derive(FromRow)]
struct FreeRow {
    id: i64,
    code: String,
    expires_at: i64,
    free: i64,
}

async fn free_lots(tx: &mut Tx, warehouse_id: i64, sku_id: i64) -> Result<Vec<FreeRow>> {
    Ok(sqlx::query_as::<_, FreeRow>(&format!(
        "SELECT id, code, expires_at, on_hand - reserved AS free FROM stock_lots \
         WHERE warehouse_id = $1 AND sku_id = $2 AND on_hand > reserved ORDER BY {FEFO_ORDER}"
    ))
    .bind(warehouse_id)
    .bind(sku_id)
    .fetch_all(&mut **tx)
    .await?)
}

/// Which of these free lots give `quantity` units, first expiry first (None when they are
/// short).
fn pick(rows: &[FreeRow], quantity: i64) -> Option<Vec<Take>> {
    let free: Vec<Free> = rows.iter().map(|r| Free { lot_id: r.id, units: r.free }).collect();
    let taken = rules::take(&free, quantity);
    if taken.short > 0 {
        return None;
    }
    Some(
        taken
            .takes
            .into_iter()
            .map(|(id, n)| {
                let r = rows.iter().find(|r| r.id == id).expect("taken from these rows");
                Take { lot_id: id, lot_code: r.code.clone(), quantity: n, expires_at: r.expires_at }
            })
            .collect(),
    )
}

/// Decides which free lots give `quantity` units, first expiry first.
async fn choose(tx: &mut Tx, warehouse_id: i64, sku_id: i64, quantity: i64) -> Result<Vec<Take>> {
    let rows = free_lots(tx, warehouse_id, sku_id).await?;
    pick(&rows, quantity).ok_or_else(|| mismatch("too few free units in lots", warehouse_id, sku_id))
}

/// The lots that give each (warehouse, SKU, quantity) of `wanted` its units now, first
/// expiry first, read in one statement before the stock rows are locked (a SKU whose lots
/// are short is left out): a hold writes what does not depend on the stock before it takes
/// the rows every hold of the SKU waits for (decision 0028), then reserves these with
/// [`reserve_chosen`].
pub async fn choose_early(tx: &mut Tx, wanted: &[(i64, i64, i64)]) -> Result<BTreeMap<(i64, i64), Vec<Take>>> {
    let mut chosen = BTreeMap::new();
    if wanted.is_empty() {
        return Ok(chosen);
    }
    // Ids are integers, so they can be inlined safely; rows of a pair not wanted are skipped.
    let list = |f: fn(&(i64, i64, i64)) -> i64| {
        let ids: BTreeSet<i64> = wanted.iter().map(f).collect();
        ids.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
    };
    let rows = sqlx::query_as::<_, PairFreeRow>(&format!(
        "SELECT warehouse_id, sku_id, id, code, expires_at, on_hand - reserved AS free FROM stock_lots \
         WHERE warehouse_id IN ({}) AND sku_id IN ({}) AND on_hand > reserved \
         ORDER BY warehouse_id, sku_id, {FEFO_ORDER}",
        list(|w| w.0),
        list(|w| w.1),
    ))
    .fetch_all(&mut **tx)
    .await?;
    let mut free: BTreeMap<(i64, i64), Vec<FreeRow>> = BTreeMap::new();
    for r in rows {
        free.entry((r.warehouse_id, r.sku_id)).or_default().push(r.lot);
    }
    for &(w, s, quantity) in wanted {
        if let Some(takes) = pick(free.get(&(w, s)).map(Vec::as_slice).unwrap_or_default(), quantity) {
            chosen.insert((w, s), takes);
        }
    }
    Ok(chosen)
}

/// A free lot of [`choose_early`]'s statement, with its warehouse and SKU.
#[derive(FromRow)]
struct PairFreeRow {
    warehouse_id: i64,
    sku_id: i64,
    #[sqlx(flatten)]
    lot: FreeRow,
}

/// Reserves the units of lots chosen before the stock rows were locked, in one statement,
/// after the stock rows reserved them. False when a lot no longer has its units free (another
/// hold took them in between): the caller rolls back and chooses again under the lock.
pub async fn reserve_chosen(tx: &mut Tx, takes: &[Take]) -> Result<bool> {
    if takes.is_empty() {
        return Ok(true);
    }
    let chosen = (0..takes.len())
        .map(|i| format!("SELECT ${} AS id, ${} AS quantity", 1 + 2 * i, 2 + 2 * i))
        .collect::<Vec<_>>()
        .join(" UNION ALL ");
    let sql = format!(
        "UPDATE stock_lots SET reserved = stock_lots.reserved + c.quantity FROM ({chosen}) AS c \
         WHERE stock_lots.id = c.id AND stock_lots.on_hand - stock_lots.reserved >= c.quantity"
    );
    let mut q = sqlx::query(&sql);
    for t in takes {
        q = q.bind(t.lot_id).bind(t.quantity);
    }
    Ok(q.execute(&mut **tx).await?.rows_affected() == takes.len() as u64)
}

/// Takes `quantity` unreserved units off lots (FEFO), after the stock row lost them.
pub async fn take_free(
    tx: &mut Tx,
    _store_id: i64,
    warehouse_id: i64,
    sku_id: i64,
    quantity: i64,
) -> Result<Vec<Take>> {
    let takes = choose(tx, warehouse_id, sku_id, quantity).await?;
    for t in &takes {
        let r = sqlx::query("UPDATE stock_lots SET on_hand = on_hand - $1 WHERE id = $2 AND on_hand - reserved >= $1")
            .bind(t.quantity)
            .bind(t.lot_id)
            .execute(&mut **tx)
            .await?;
        if r.rows_affected() != 1 {
            return Err(mismatch("a lot changed under a take", warehouse_id, sku_id));
        }
    }
    Ok(takes)
}

/// Holds `quantity` units of lots (FEFO) for `reference`, after the stock row reserved them.
pub async fn allocate(
    tx: &mut Tx,
    store_id: i64,
    reference: &str,
    warehouse_id: i64,
    sku_id: i64,
    quantity: i64,
) -> Result<()> {
    let takes = reserve(tx, warehouse_id, sku_id, quantity).await?;
    let held: Vec<Allocation> = takes.into_iter().map(|take| Allocation { warehouse_id, sku_id, take }).collect();
    record_allocations(tx, store_id, reference, &held).await
}

/// Units of a lot held for a reference.
#[derive(Debug, Clone)]
pub struct Allocation {
    pub warehouse_id: i64,
    pub sku_id: i64,
    pub take: Take,
}

/// Reserves `quantity` units of a SKU's lots (FEFO), after the stock row reserved them; the
/// caller records for whom with [`record_allocations`].
pub async fn reserve(tx: &mut Tx, warehouse_id: i64, sku_id: i64, quantity: i64) -> Result<Vec<Take>> {
    let takes = choose(tx, warehouse_id, sku_id, quantity).await?;
    for t in &takes {
        let r =
            sqlx::query("UPDATE stock_lots SET reserved = reserved + $1 WHERE id = $2 AND on_hand - reserved >= $1")
                .bind(t.quantity)
                .bind(t.lot_id)
                .execute(&mut **tx)
                .await?;
        if r.rows_affected() != 1 {
            return Err(mismatch("a lot changed under a reservation", warehouse_id, sku_id));
        }
    }
    Ok(takes)
}

/// Records that `reference` holds these lots' units, in one statement (a reference whose hold
/// grows may take more of a lot it holds already).
pub async fn record_allocations(tx: &mut Tx, store_id: i64, reference: &str, held: &[Allocation]) -> Result<()> {
    // One row per lot: a lot taken twice in one call adds up.
    let mut rows: Vec<(i64, i64, i64, i64)> = Vec::new();
    for a in held {
        match rows.iter_mut().find(|r| r.0 == a.take.lot_id) {
            Some(r) => r.3 += a.take.quantity,
            None => rows.push((a.take.lot_id, a.warehouse_id, a.sku_id, a.take.quantity)),
        }
    }
    if rows.is_empty() {
        return Ok(());
    }
    let values = (0..rows.len())
        .map(|i| format!("($1, $2, ${}, ${}, ${}, ${})", 3 + 4 * i, 4 + 4 * i, 5 + 4 * i, 6 + 4 * i))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "INSERT INTO lot_allocations (store_id, reference, lot_id, warehouse_id, sku_id, quantity) VALUES {values} \
         ON CONFLICT (store_id, reference, lot_id) DO UPDATE SET quantity = lot_allocations.quantity + excluded.quantity"
    );
    let mut q = sqlx::query(&sql).bind(store_id).bind(reference);
    for (lot_id, warehouse_id, sku_id, quantity) in rows {
        q = q.bind(lot_id).bind(warehouse_id).bind(sku_id).bind(quantity);
    }
    q.execute(&mut **tx).await?;
    Ok(())
}

/// Gives back `quantity` of the units `reference` holds of a SKU, from the lots that expire
/// last, so what it keeps is still first expiry first (after the stock row gave them back).
pub async fn unallocate(
    tx: &mut Tx,
    store_id: i64,
    reference: &str,
    warehouse_id: i64,
    sku_id: i64,
    quantity: i64,
) -> Result<()> {
    let held: Vec<(i64, i64)> = sqlx::query_as(&format!(
        "SELECT a.lot_id, a.quantity FROM lot_allocations a JOIN stock_lots l ON l.id = a.lot_id \
         WHERE a.store_id = $1 AND a.reference = $2 AND a.warehouse_id = $3 AND a.sku_id = $4 \
         ORDER BY {}",
        FEFO_ORDER
            .replace("expires_at", "l.expires_at")
            .replace("received_at", "l.received_at")
            .replace(", id", ", l.id")
    ))
    .bind(store_id)
    .bind(reference)
    .bind(warehouse_id)
    .bind(sku_id)
    .fetch_all(&mut **tx)
    .await?;
    let mut left = quantity;
    for (lot_id, n) in held.into_iter().rev() {
        if left == 0 {
            break;
        }
        let give = n.min(left);
        let r = sqlx::query("UPDATE stock_lots SET reserved = reserved - $1 WHERE id = $2 AND reserved >= $1")
            .bind(give)
            .bind(lot_id)
            .execute(&mut **tx)
            .await?;
        if r.rows_affected() != 1 {
            return Err(mismatch("a lot holds less than its allocation", warehouse_id, sku_id));
        }
        if give == n {
            sqlx::query("DELETE FROM lot_allocations WHERE store_id = $1 AND reference = $2 AND lot_id = $3")
                .bind(store_id)
                .bind(reference)
                .bind(lot_id)
                .execute(&mut **tx)
                .await?;
        } else {
            sqlx::query(
                "UPDATE lot_allocations SET quantity = quantity - $1 WHERE store_id = $2 AND reference = $3 AND lot_id = $4",
            )
            .bind(give)
            .bind(store_id)
            .bind(reference)
            .bind(lot_id)
            .execute(&mut **tx)
            .await?;
        }
        left -= give;
    }
    if left > 0 {
        return Err(mismatch("a reservation's lots hold fewer units than it gives back", warehouse_id, sku_id));
    }
    Ok(())
}

/// Gives back (`ship` false) or ships (`ship` true) the lots `reference` holds of a SKU;
/// they must hold exactly `quantity`.
pub async fn settle(
    tx: &mut Tx,
    store_id: i64,
    reference: &str,
    warehouse_id: i64,
    sku_id: i64,
    quantity: i64,
    ship: bool,
) -> Result<Vec<Take>> {
    let held: Vec<(i64, String, i64, i64)> = sqlx::query_as(
        "SELECT a.lot_id, l.code, l.expires_at, a.quantity FROM lot_allocations a JOIN stock_lots l ON l.id = a.lot_id \
         WHERE a.store_id = $1 AND a.reference = $2 AND a.warehouse_id = $3 AND a.sku_id = $4 ORDER BY a.lot_id",
    )
    .bind(store_id)
    .bind(reference)
    .bind(warehouse_id)
    .bind(sku_id)
    .fetch_all(&mut **tx)
    .await?;
    if held.iter().map(|h| h.3).sum::<i64>() != quantity {
        return Err(mismatch("a reservation's lots hold another quantity", warehouse_id, sku_id));
    }
    let out_of_hand = if ship { 1 } else { 0 };
    let mut takes = Vec::with_capacity(held.len());
    for (lot_id, code, expires_at, n) in held {
        let r = sqlx::query(
            "UPDATE stock_lots SET reserved = reserved - $1, on_hand = on_hand - $2 WHERE id = $3 AND reserved >= $1",
        )
        .bind(n)
        .bind(n * out_of_hand)
        .bind(lot_id)
        .execute(&mut **tx)
        .await?;
        if r.rows_affected() != 1 {
            return Err(mismatch("a lot holds less than its reservation", warehouse_id, sku_id));
        }
        takes.push(Take { lot_id, lot_code: code, quantity: n, expires_at });
    }
    sqlx::query(
        "DELETE FROM lot_allocations WHERE store_id = $1 AND reference = $2 AND warehouse_id = $3 AND sku_id = $4",
    )
    .bind(store_id)
    .bind(reference)
    .bind(warehouse_id)
    .bind(sku_id)
    .execute(&mut **tx)
    .await?;
    Ok(takes)
}

/// Writes which lots a movement touched.
pub async fn record_movement(tx: &mut Tx, movement_id: i64, lots: &[Take]) -> Result<()> {
    for t in lots {
        sqlx::query("INSERT INTO movement_lots (movement_id, lot_id, quantity) VALUES ($1, $2, $3)")
            .bind(movement_id)
            .bind(t.lot_id)
            .bind(t.quantity)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// The lots of movements, by movement id.
pub async fn of_movements(pool: &AnyPool, ids: &[i64]) -> Result<HashMap<i64, Vec<Take>>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    // Ids are integers, so they can be inlined safely.
    let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    let rows: Vec<(i64, i64, String, i64, i64)> = sqlx::query_as(&format!(
        "SELECT m.movement_id, m.lot_id, l.code, m.quantity, l.expires_at FROM movement_lots m \
         JOIN stock_lots l ON l.id = m.lot_id WHERE m.movement_id IN ({list}) ORDER BY m.movement_id, m.lot_id"
    ))
    .fetch_all(pool)
    .await?;
    let mut out: HashMap<i64, Vec<Take>> = HashMap::new();
    for (m, lot_id, lot_code, quantity, expires_at) in rows {
        out.entry(m).or_default().push(Take { lot_id, lot_code, quantity, expires_at });
    }
    Ok(out)
}

/// A lot.
#[derive(Debug, Clone, FromRow)]
pub struct LotRow {
    pub id: i64,
    pub warehouse_id: i64,
    pub sku_id: i64,
    pub code: String,
    pub goods_receipt_id: i64,
    pub unit_cost: i64,
    pub expires_at: i64,
    pub received_at: i64,
    pub quantity_in: i64,
    pub on_hand: i64,
    pub reserved: i64,
}

/// Which lots a list shows.
#[derive(Debug, Clone, Default)]
pub struct LotFilter {
    /// One warehouse (0 for all).
    pub warehouse_id: i64,
    /// These SKUs (empty for all).
    pub sku_ids: Vec<i64>,
    /// Only lots expiring within this many days (0 for all).
    pub expiring_within_days: i64,
    /// Emptied lots too.
    pub include_empty: bool,
}

/// A warehouse's stock value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarehouseValuationRow {
    pub warehouse_id: i64,
    pub on_hand: i64,
    /// At the moving average.
    pub average_value: i64,
    /// At the lots' own costs.
    pub fifo_value: i64,
}

/// A SKU's stock value in one warehouse.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkuValuationRow {
    pub warehouse_id: i64,
    pub sku_id: i64,
    pub sku_code: String,
    pub product_name: String,
    pub on_hand: i64,
    pub average_cost: i64,
    /// At the lots' own costs.
    pub fifo_value: i64,
}

impl SkuValuationRow {
    /// At the moving average (saturating, never wrapping).
    pub fn average_value(&self) -> i64 {
        self.on_hand.saturating_mul(self.average_cost)
    }
}

/// The lots to pick a SKU from in one warehouse.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PickRow {
    pub warehouse_id: i64,
    pub sku_id: i64,
    pub sku_code: String,
    pub product_name: String,
    /// Units asked for.
    pub quantity: i64,
    /// Units no lot had.
    pub short: i64,
    pub lots: Vec<Take>,
}

fn id_list(ids: &[i64]) -> String {
    ids.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

/// Lots of the store, first expiry first, paged.
pub async fn list(pool: &AnyPool, store_id: i64, r: &LotFilter, page: PageRequest) -> Result<(Vec<LotRow>, Page)> {
    let mut filter = String::from("store_id = $1 AND ($2 = 0 OR warehouse_id = $2) AND ($3 = 0 OR on_hand > 0)");
    let skus: Vec<i64> = r.sku_ids.iter().copied().filter(|s| *s > 0).take(500).collect();
    if !skus.is_empty() {
        filter.push_str(&format!(" AND sku_id IN ({})", id_list(&skus)));
    }
    let until = if r.expiring_within_days > 0 {
        now_ms().saturating_add(r.expiring_within_days.min(36_500) * DAY_MS)
    } else {
        0
    };
    filter.push_str(" AND ($4 = 0 OR (expires_at > 0 AND expires_at <= $4))");
    let not_empty = if r.include_empty { 0 } else { 1 };
    let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM stock_lots WHERE {filter}"))
        .bind(store_id)
        .bind(r.warehouse_id)
        .bind(not_empty)
        .bind(until)
        .fetch_one(pool)
        .await?;
    let page = page.resolve(total);
    let rows = sqlx::query_as::<_, LotRow>(&format!(
        "SELECT id, warehouse_id, sku_id, code, goods_receipt_id, unit_cost, expires_at, received_at, quantity_in, \
         on_hand, reserved FROM stock_lots WHERE {filter} ORDER BY sku_id, warehouse_id, {FEFO_ORDER} LIMIT $5 OFFSET $6"
    ))
    .bind(store_id)
    .bind(r.warehouse_id)
    .bind(not_empty)
    .bind(until)
    .bind(page.fetch)
    .bind(page.offset)
    .fetch_all(pool)
    .await?;
    Ok((rows, page))
}

/// Stock value per warehouse (all of them) and per SKU and warehouse (paged).
pub async fn valuation(
    pool: &AnyPool,
    store_id: i64,
    warehouse_id: i64,
    page: PageRequest,
) -> Result<(Vec<WarehouseValuationRow>, Vec<SkuValuationRow>, Page)> {
    let totals: Vec<(i64, i64, i64)> = sqlx::query_as(
        "SELECT warehouse_id, CAST(SUM(on_hand) AS BIGINT), CAST(SUM(on_hand * average_cost) AS BIGINT) FROM stock \
         WHERE store_id = $1 AND ($2 = 0 OR warehouse_id = $2) GROUP BY warehouse_id ORDER BY warehouse_id",
    )
    .bind(store_id)
    .bind(warehouse_id)
    .fetch_all(pool)
    .await?;
    let fifo: HashMap<i64, i64> = sqlx::query_as::<_, (i64, i64)>(
        "SELECT warehouse_id, CAST(SUM(on_hand * unit_cost) AS BIGINT) FROM stock_lots \
         WHERE store_id = $1 AND ($2 = 0 OR warehouse_id = $2) AND on_hand > 0 GROUP BY warehouse_id",
    )
    .bind(store_id)
    .bind(warehouse_id)
    .fetch_all(pool)
    .await?
    .into_iter()
    .collect();
    let warehouses = totals
        .into_iter()
        .map(|(w, on_hand, average_value)| WarehouseValuationRow {
            warehouse_id: w,
            on_hand,
            average_value,
            fifo_value: fifo.get(&w).copied().unwrap_or(0),
        })
        .collect();
    let filter = "s.store_id = $1 AND ($2 = 0 OR s.warehouse_id = $2) AND s.on_hand > 0";
    let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM stock s WHERE {filter}"))
        .bind(store_id)
        .bind(warehouse_id)
        .fetch_one(pool)
        .await?;
    let page = page.resolve(total);
    let rows: Vec<(i64, i64, i64, i64, i64, String, String)> = sqlx::query_as(&format!(
        "SELECT s.warehouse_id, s.sku_id, s.on_hand, s.average_cost, \
           CAST(COALESCE((SELECT SUM(l.on_hand * l.unit_cost) FROM stock_lots l \
             WHERE l.warehouse_id = s.warehouse_id AND l.sku_id = s.sku_id AND l.on_hand > 0), 0) AS BIGINT), \
           COALESCE(k.code, ''), COALESCE(k.product_name, '') \
         FROM stock s LEFT JOIN skus k ON k.sku_id = s.sku_id \
         WHERE {filter} ORDER BY s.warehouse_id, k.code, s.sku_id LIMIT $3 OFFSET $4"
    ))
    .bind(store_id)
    .bind(warehouse_id)
    .bind(page.fetch)
    .bind(page.offset)
    .fetch_all(pool)
    .await?;
    let skus = rows
        .into_iter()
        .map(|(w, sku, on_hand, avg, fifo_value, code, name)| SkuValuationRow {
            warehouse_id: w,
            sku_id: sku,
            sku_code: code,
            product_name: name,
            on_hand,
            average_cost: avg,
            fifo_value,
        })
        .collect();
    Ok((warehouses, skus, page))
}

/// A SKU's stock in a warehouse as it stood at a moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StockAtRow {
    pub warehouse_id: i64,
    pub sku_id: i64,
    pub sku_code: String,
    pub product_name: String,
    pub on_hand: i64,
    pub reserved: i64,
    /// At the lots' own costs.
    pub value: i64,
}

/// The stock of every SKU and warehouse (one warehouse unless 0) as it stood at `at_ms`:
/// what is kept now less every movement made since, and the lots' units then at their own
/// costs (a lot's units then are its units now less what movements since added to it, plus
/// what they took from it). Those holding nothing then are left out. A page of rows, in
/// warehouse and SKU code order, and the totals of them all (on hand, reserved, value).
pub async fn stock_at(
    pool: &AnyPool,
    store_id: i64,
    warehouse_id: i64,
    at_ms: i64,
    page: PageRequest,
) -> Result<(Vec<StockAtRow>, Page, (i64, i64, i64))> {
    let since = "FROM movements m WHERE m.store_id = s.store_id AND m.warehouse_id = s.warehouse_id \
                 AND m.sku_id = s.sku_id AND m.created_at >= $3";
    let lot_then = "l.on_hand - COALESCE((SELECT SUM(CASE WHEN m.on_hand_delta > 0 THEN ml.quantity \
                      WHEN m.on_hand_delta < 0 THEN -ml.quantity ELSE 0 END) FROM movement_lots ml \
                      JOIN movements m ON m.id = ml.movement_id WHERE ml.lot_id = l.id AND m.created_at >= $3), 0)";
    let then = format!(
        "SELECT s.warehouse_id, s.sku_id, \
           s.on_hand - COALESCE((SELECT SUM(m.on_hand_delta) {since}), 0) AS on_hand, \
           s.reserved - COALESCE((SELECT SUM(m.reserved_delta) {since}), 0) AS reserved, \
           COALESCE((SELECT SUM(({lot_then}) * l.unit_cost) FROM stock_lots l WHERE l.store_id = s.store_id \
             AND l.warehouse_id = s.warehouse_id AND l.sku_id = s.sku_id), 0) AS value \
         FROM stock s WHERE s.store_id = $1 AND ($2 = 0 OR s.warehouse_id = $2)"
    );
    let held = "t.on_hand <> 0 OR t.reserved <> 0";
    let (total, on_hand, reserved, value): (i64, i64, i64, i64) = sqlx::query_as(&format!(
        "SELECT COUNT(*), CAST(COALESCE(SUM(t.on_hand), 0) AS BIGINT), CAST(COALESCE(SUM(t.reserved), 0) AS BIGINT), \
           CAST(COALESCE(SUM(t.value), 0) AS BIGINT) FROM ({then}) t WHERE {held}"
    ))
    .bind(store_id)
    .bind(warehouse_id)
    .bind(at_ms)
    .fetch_one(pool)
    .await?;
    let page = page.resolve(total);
    let rows: Vec<(i64, i64, i64, i64, i64, String, String)> = sqlx::query_as(&format!(
        "SELECT t.warehouse_id, t.sku_id, CAST(t.on_hand AS BIGINT), CAST(t.reserved AS BIGINT), CAST(t.value AS BIGINT), \
           COALESCE(k.code, ''), COALESCE(k.product_name, '') \
         FROM ({then}) t LEFT JOIN skus k ON k.sku_id = t.sku_id WHERE {held} \
         ORDER BY t.warehouse_id, k.code, t.sku_id LIMIT $4 OFFSET $5"
    ))
    .bind(store_id)
    .bind(warehouse_id)
    .bind(at_ms)
    .bind(page.fetch)
    .bind(page.offset)
    .fetch_all(pool)
    .await?;
    let rows = rows
        .into_iter()
        .map(|(warehouse_id, sku_id, on_hand, reserved, value, sku_code, product_name)| StockAtRow {
            warehouse_id,
            sku_id,
            sku_code,
            product_name,
            on_hand,
            reserved,
            value,
        })
        .collect();
    Ok((rows, page, (on_hand, reserved, value)))
}

/// The lots to pick `lines` from in `warehouse_id`, first expiry first (over all units on
/// hand, reserved or not: a pick list names shelves, not promises).
pub async fn pick_lines(
    pool: &AnyPool,
    store_id: i64,
    warehouse_id: i64,
    lines: &[(i64, i64)],
) -> Result<Vec<PickRow>> {
    let mut picks = Vec::with_capacity(lines.len());
    for (sku_id, quantity) in lines {
        let rows: Vec<(i64, String, i64, i64)> = sqlx::query_as(&format!(
            "SELECT id, code, expires_at, on_hand FROM stock_lots WHERE store_id = $1 AND warehouse_id = $2 \
             AND sku_id = $3 AND on_hand > 0 ORDER BY {FEFO_ORDER}"
        ))
        .bind(store_id)
        .bind(warehouse_id)
        .bind(sku_id)
        .fetch_all(pool)
        .await?;
        let free: Vec<Free> = rows.iter().map(|r| Free { lot_id: r.0, units: r.3 }).collect();
        let taken = rules::take(&free, *quantity);
        let lots = taken
            .takes
            .iter()
            .map(|(id, n)| {
                let r = rows.iter().find(|r| r.0 == *id).expect("taken from these rows");
                Take { lot_id: *id, lot_code: r.1.clone(), quantity: *n, expires_at: r.2 }
            })
            .collect();
        picks.push(PickRow {
            sku_id: *sku_id,
            quantity: *quantity,
            short: taken.short,
            lots,
            warehouse_id,
            ..Default::default()
        });
    }
    name_picks(pool, store_id, &mut picks).await?;
    Ok(picks)
}

/// The lots open reservations of `references` hold, per warehouse and SKU.
pub async fn pick_references(pool: &AnyPool, store_id: i64, references: &[String]) -> Result<Vec<PickRow>> {
    let mut by: std::collections::BTreeMap<(i64, i64), PickRow> = Default::default();
    for chunk in references.chunks(200) {
        let placeholders: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT a.warehouse_id, a.sku_id, a.lot_id, l.code, l.expires_at, a.quantity FROM lot_allocations a \
             JOIN stock_lots l ON l.id = a.lot_id WHERE a.store_id = $1 AND a.reference IN ({})",
            placeholders.join(", ")
        );
        let mut q = sqlx::query_as::<_, (i64, i64, i64, String, i64, i64)>(&sql).bind(store_id);
        for r in chunk {
            q = q.bind(r);
        }
        for (w, sku, lot_id, code, expires_at, n) in q.fetch_all(pool).await? {
            let p =
                by.entry((w, sku)).or_insert_with(|| PickRow { warehouse_id: w, sku_id: sku, ..Default::default() });
            p.quantity += n;
            match p.lots.iter_mut().find(|t| t.lot_id == lot_id) {
                Some(t) => t.quantity += n,
                None => p.lots.push(Take { lot_id, lot_code: code, quantity: n, expires_at }),
            }
        }
    }
    let mut picks: Vec<PickRow> = by.into_values().collect();
    for p in &mut picks {
        p.lots.sort_by_key(|t| (t.expires_at == 0, t.expires_at, t.lot_id));
    }
    name_picks(pool, store_id, &mut picks).await?;
    Ok(picks)
}

async fn name_picks(pool: &AnyPool, store_id: i64, picks: &mut [PickRow]) -> Result<()> {
    let infos = crate::registry::infos(pool, store_id, &picks.iter().map(|p| p.sku_id).collect::<Vec<_>>()).await?;
    for p in picks.iter_mut() {
        if let Some(i) = infos.get(&p.sku_id) {
            p.sku_code = i.code.clone();
            p.product_name = i.product_name.clone();
        }
    }
    picks.sort_by(|a, b| (a.warehouse_id, &a.sku_code, a.sku_id).cmp(&(b.warehouse_id, &b.sku_code, b.sku_id)));
    Ok(())
}

/// The lots' invariants, as sentences (empty when they hold): a stock row's on hand and
/// reserved are its lots' sums, and so is what the ledger's movements add up to; a lot's
/// reserved is what open reservations hold of it; no lot is below zero.
pub async fn invariants(pool: &AnyPool) -> Result<Vec<String>> {
    let mut broken = Vec::new();
    /// Store, warehouse, SKU, on hand, reserved, lots' on hand, lots' reserved, ledger sum.
    type Sums = (i64, i64, i64, i64, i64, i64, i64, i64);
    let rows: Vec<Sums> = sqlx::query_as(
        "SELECT s.store_id, s.warehouse_id, s.sku_id, s.on_hand, s.reserved, \
           CAST(COALESCE((SELECT SUM(l.on_hand) FROM stock_lots l WHERE l.warehouse_id = s.warehouse_id \
             AND l.sku_id = s.sku_id), 0) AS BIGINT), \
           CAST(COALESCE((SELECT SUM(l.reserved) FROM stock_lots l WHERE l.warehouse_id = s.warehouse_id \
             AND l.sku_id = s.sku_id), 0) AS BIGINT), \
           CAST(COALESCE((SELECT SUM(m.on_hand_delta) FROM movements m WHERE m.store_id = s.store_id \
             AND m.warehouse_id = s.warehouse_id AND m.sku_id = s.sku_id), 0) AS BIGINT) \
         FROM stock s ORDER BY s.store_id, s.warehouse_id, s.sku_id",
    )
    .fetch_all(pool)
    .await?;
    for (store, w, sku, on_hand, reserved, lots_on_hand, lots_reserved, ledger) in rows {
        if on_hand != lots_on_hand || reserved != lots_reserved || on_hand != ledger {
            broken.push(format!(
                "store {store} warehouse {w} sku {sku}: on hand {on_hand} (lots {lots_on_hand}, ledger {ledger}), \
                 reserved {reserved} (lots {lots_reserved})"
            ));
        }
    }
    let lots: Vec<(i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT l.id, l.on_hand, l.reserved, \
           CAST(COALESCE((SELECT SUM(a.quantity) FROM lot_allocations a WHERE a.lot_id = l.id), 0) AS BIGINT) \
         FROM stock_lots l WHERE l.on_hand < 0 OR l.reserved < 0 OR l.reserved > l.on_hand OR l.reserved <> \
           COALESCE((SELECT SUM(a.quantity) FROM lot_allocations a WHERE a.lot_id = l.id), 0)",
    )
    .fetch_all(pool)
    .await?;
    broken.extend(lots.into_iter().map(|(id, on_hand, reserved, held)| {
        format!("lot {id}: on hand {on_hand}, reserved {reserved}, reservations hold {held}")
    }));
    // Stock that arrived without a stock row cannot exist: every lot has its row.
    let orphans: Vec<(i64,)> = sqlx::query_as(
        "SELECT l.id FROM stock_lots l WHERE NOT EXISTS (SELECT 1 FROM stock s WHERE s.warehouse_id = l.warehouse_id \
         AND s.sku_id = l.sku_id)",
    )
    .fetch_all(pool)
    .await?;
    broken.extend(orphans.into_iter().map(|(id,)| format!("lot {id}: no stock row")));
    Ok(broken)
}
