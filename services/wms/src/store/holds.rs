//! What orders hold, by revision. An order's reference (`order:<id>`) is set to hold exactly
//! its lines: only the difference is reserved or given back, all lines or none, and a
//! revision at or below the one applied changes nothing, so a retried or late command can
//! never undo a newer one. Once a reference is settled (released or shipped) it holds no more.

use bo_kit::Code;
use std::collections::{BTreeMap, HashMap};

use bo_kit::db::Tx;
use bo_kit::time::now_ms;
use bo_kit::{Error, FieldError, Result};
use sqlx::FromRow;

use super::{announce_reserves, lots, record, reserve_movements, settle_in, Actor, LevelRow, Repo, Settled, SETTLE};
use crate::domain::{kind, state, Line};

/// What a reference holds of a SKU in a warehouse, in any state.
#[derive(Debug, Clone, Default, PartialEq, Eq, FromRow)]
pub struct HoldingRow {
    pub reference: String,
    pub warehouse_id: i64,
    pub sku_id: i64,
    pub quantity: i64,
    /// Reserved, released or committed (`domain::state`).
    pub state: String,
}

/// A holding with its store (for the cross-service stock check).
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct StoreHoldingRow {
    pub store_id: i64,
    #[sqlx(flatten)]
    pub holding: HoldingRow,
}

/// What a hold did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoldOutcome {
    /// What the reference holds now.
    pub held: Vec<Line>,
    /// The revision applied.
    pub revision: i64,
    /// This revision (or a later one) was applied before.
    pub replayed: bool,
}

impl Repo {
    /// What `reference` holds (reserved lines), by warehouse and SKU.
    pub async fn held(&self, store_id: i64, reference: &str) -> Result<Vec<Line>> {
        let rows: Vec<(i64, i64, i64)> = sqlx::query_as(
            "SELECT warehouse_id, sku_id, quantity FROM reservation_lines \
             WHERE store_id = $1 AND reference = $2 AND state = $3 ORDER BY warehouse_id, sku_id",
        )
        .bind(store_id)
        .bind(reference)
        .bind(state::RESERVED)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows.into_iter().map(|(warehouse_id, sku_id, quantity)| Line { warehouse_id, sku_id, quantity }).collect())
    }

    /// Sets what `reference` holds to `lines` (merged, sorted) at `revision`. Refused with
    /// `insufficient_stock`, naming every line that cannot grow (`lines[i].quantity` by the
    /// merged lines' order), and nothing changes.
    pub async fn hold(&self, who: Actor, reference: &str, revision: i64, lines: &[Line]) -> Result<HoldOutcome> {
        // Lots are chosen before the stock rows are locked; if another hold took one of them
        // meanwhile, the hold is tried once more choosing them under the lock.
        match self.hold_once(who, reference, revision, lines, true).await? {
            Some(outcome) => Ok(outcome),
            // Chosen under the lock, the lots cannot have changed.
            None => self
                .hold_once(who, reference, revision, lines, false)
                .await?
                .ok_or_else(|| Error::internal(anyhow::anyhow!("lots chosen under the stock rows' lock changed"))),
        }
    }

    /// One try of [`Repo::hold`]: None (nothing written) when a lot chosen `early` changed.
    async fn hold_once(
        &self,
        who: Actor,
        reference: &str,
        revision: i64,
        lines: &[Line],
        early: bool,
    ) -> Result<Option<HoldOutcome>> {
        // An id that cannot be a SKU's is refused after the settled and replay answers, as before.
        let known = crate::registry::Known::of(&lines.iter().map(|l| l.sku_id).collect::<Vec<_>>());
        let mut tx = self.db.begin().await?;
        // Settled for good? At which revision? Are its SKUs the store's? (one round trip)
        let (settled, applied, counted): (Option<i64>, Option<i64>, i64) = sqlx::query_as(&format!(
            "SELECT (SELECT 1 FROM stock_ops WHERE store_id = $1 AND op = $2 AND reference = $3), \
             (SELECT revision FROM reservation_holds WHERE store_id = $1 AND reference = $3), {}",
            known.as_ref().map_or_else(|_| crate::registry::NONE_COUNTED.into(), |k| k.count_sql())
        ))
        .bind(who.store_id)
        .bind(SETTLE)
        .bind(reference)
        .fetch_one(&mut *tx)
        .await?;
        if settled.is_some() {
            return Err(Error::failed_precondition(Code::ReservationSettled));
        }
        if let Some(r) = applied.filter(|r| revision <= *r) {
            tx.rollback().await?;
            let held = self.held(who.store_id, reference).await?;
            return Ok(Some(HoldOutcome { held, revision: r, replayed: true }));
        }
        known?.check(counted)?;
        let now = now_ms();
        sqlx::query(
            "INSERT INTO reservation_holds (store_id, reference, revision, updated_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (store_id, reference) DO UPDATE SET revision = excluded.revision, updated_at = excluded.updated_at",
        )
        .bind(who.store_id)
        .bind(reference)
        .bind(revision)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        // A reference never held before holds nothing yet.
        let current: Vec<(i64, i64, i64)> = if applied.is_none() {
            Vec::new()
        } else {
            sqlx::query_as(
                "SELECT warehouse_id, sku_id, quantity FROM reservation_lines \
                 WHERE store_id = $1 AND reference = $2 AND state = $3",
            )
            .bind(who.store_id)
            .bind(reference)
            .bind(state::RESERVED)
            .fetch_all(&mut *tx)
            .await?
        };
        // (target, held) per warehouse and SKU, in one fixed order so locks are taken alike.
        let mut plan: BTreeMap<(i64, i64), (i64, i64)> = BTreeMap::new();
        for l in lines {
            plan.entry((l.warehouse_id, l.sku_id)).or_default().0 += l.quantity;
        }
        for (w, s, q) in current {
            plan.entry((w, s)).or_default().1 += q;
        }
        let place: HashMap<(i64, i64), usize> =
            lines.iter().enumerate().map(|(i, l)| ((l.warehouse_id, l.sku_id), i)).collect();
        // Everything that does not depend on the stock is written first, and the transaction
        // rolls back if stock is short: what the reference holds, the lots its growing lines
        // take (read now, reserved after the stock rows), their allocations and the
        // movements. The stock and lot rows, which every hold of a SKU updates, come last, so
        // they stay locked (PostgreSQL) for the few statements before the commit (decision
        // 0028).
        let mut kept = Vec::new();
        for (&(w, s), &(target, held)) in &plan {
            if target == held {
                continue;
            }
            if target == 0 {
                sqlx::query(
                    "DELETE FROM reservation_lines WHERE store_id = $1 AND reference = $2 \
                     AND warehouse_id = $3 AND sku_id = $4",
                )
                .bind(who.store_id)
                .bind(reference)
                .bind(w)
                .bind(s)
                .execute(&mut *tx)
                .await?;
            } else {
                kept.push((w, s, target));
            }
        }
        keep_lines(&mut tx, who.store_id, reference, &kept, now).await?;
        let growing: Vec<(i64, i64, i64)> =
            plan.iter().filter(|(_, (t, h))| t > h).map(|(&(w, s), &(t, h))| (w, s, t - h)).collect();
        let chosen = if early { lots::choose_early(&mut tx, &growing).await? } else { BTreeMap::new() };
        let early_allocations: Vec<lots::Allocation> = chosen
            .iter()
            .flat_map(|(&(w, s), takes)| {
                takes.iter().map(move |t| lots::Allocation { warehouse_id: w, sku_id: s, take: t.clone() })
            })
            .collect();
        lots::record_allocations(&mut tx, who.store_id, reference, &early_allocations).await?;
        let movements = reserve_movements(&mut tx, who, reference, &growing).await?;
        let mut short = Vec::new();
        let mut late_allocations = Vec::new();
        let mut reserved = Vec::new();
        for (&(w, s), &(target, held)) in &plan {
            let diff = target - held;
            if diff > 0 {
                let moved: Option<LevelRow> = sqlx::query_as(
                    "UPDATE stock SET reserved = reserved + $1, updated_at = $2 \
                     WHERE store_id = $3 AND warehouse_id = $4 AND sku_id = $5 AND on_hand - reserved >= $1 \
                     RETURNING warehouse_id, sku_id, on_hand, reserved, preorder",
                )
                .bind(diff)
                .bind(now)
                .bind(who.store_id)
                .bind(w)
                .bind(s)
                .fetch_optional(&mut *tx)
                .await?;
                let Some(level) = moved else {
                    let i = place.get(&(w, s)).copied().unwrap_or(0);
                    short.push(FieldError::new(format!("lines[{i}].quantity"), "stock.insufficient"));
                    continue;
                };
                if !short.is_empty() {
                    // Refused anyway: the transaction rolls back, lots need not follow.
                    continue;
                }
                if !chosen.contains_key(&(w, s)) {
                    for take in lots::reserve(&mut tx, w, s, diff).await? {
                        late_allocations.push(lots::Allocation { warehouse_id: w, sku_id: s, take });
                    }
                }
                reserved.push((diff, level));
            } else if diff < 0 && short.is_empty() {
                let give = -diff;
                let moved = sqlx::query(
                    "UPDATE stock SET reserved = reserved - $1, updated_at = $2 \
                     WHERE store_id = $3 AND warehouse_id = $4 AND sku_id = $5 AND reserved >= $1",
                )
                .bind(give)
                .bind(now)
                .bind(who.store_id)
                .bind(w)
                .bind(s)
                .execute(&mut *tx)
                .await?;
                if moved.rows_affected() != 1 {
                    tracing::error!(reference, warehouse = w, sku = s, "a hold and the stock disagree");
                    return Err(Error::failed_precondition(Code::ReservationMismatch));
                }
                lots::unallocate(&mut tx, who.store_id, reference, w, s, give).await?;
                record(&mut tx, who, w, s, kind::RELEASE, 0, -give, "", reference, &[]).await?;
            }
        }
        if !short.is_empty() {
            // Nothing is kept: the transaction (and the revision) roll back.
            let mut e = Error::failed_precondition(Code::InsufficientStock);
            e.fields = short;
            return Err(e);
        }
        let early_takes: Vec<lots::Take> = chosen.into_values().flatten().collect();
        if !lots::reserve_chosen(&mut tx, &early_takes).await? {
            tx.rollback().await?;
            return Ok(None);
        }
        lots::record_allocations(&mut tx, who.store_id, reference, &late_allocations).await?;
        announce_reserves(&mut tx, who, reference, &reserved, &movements).await?;
        tx.commit().await?;
        let held = lines.to_vec();
        Ok(Some(HoldOutcome { held, revision, replayed: false }))
    }

    /// Releases what each reference holds, each once, in one transaction. With `last`, a
    /// reference that holds nothing is closed too, so no later hold can take stock for it.
    pub async fn release_many(&self, who: Actor, references: &[String], last: bool) -> Result<Vec<(String, i64)>> {
        let mut tx = self.db.begin().await?;
        let mut out = Vec::with_capacity(references.len());
        let mut sorted: Vec<&String> = references.iter().collect();
        sorted.sort();
        sorted.dedup();
        let mut units: HashMap<&str, i64> = HashMap::new();
        for r in sorted {
            let n = match settle_in(&mut tx, who, r, false).await? {
                Settled::Before => 0,
                Settled::Nothing => {
                    if !last {
                        sqlx::query("DELETE FROM stock_ops WHERE store_id = $1 AND op = $2 AND reference = $3")
                            .bind(who.store_id)
                            .bind(SETTLE)
                            .bind(r)
                            .execute(&mut *tx)
                            .await?;
                    }
                    0
                }
                Settled::Units(n) => n,
            };
            units.insert(r.as_str(), n);
        }
        tx.commit().await?;
        for r in references {
            out.push((r.clone(), units.get(r.as_str()).copied().unwrap_or(0)));
        }
        Ok(out)
    }

    /// What references hold (every state) and the revision each applied.
    pub async fn holdings(
        &self,
        store_id: i64,
        references: &[String],
    ) -> Result<(Vec<HoldingRow>, HashMap<String, i64>)> {
        let mut holdings = Vec::new();
        let mut revisions = HashMap::new();
        for chunk in references.chunks(200) {
            let placeholders: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
            let list = placeholders.join(", ");
            let sql = format!(
                "SELECT reference, warehouse_id, sku_id, quantity, state FROM reservation_lines \
                 WHERE store_id = $1 AND reference IN ({list}) ORDER BY reference, warehouse_id, sku_id"
            );
            let mut q = sqlx::query_as::<_, HoldingRow>(&sql).bind(store_id);
            for r in chunk {
                q = q.bind(r);
            }
            holdings.extend(q.fetch_all(self.db.pool()).await?);
            let sql = format!(
                "SELECT reference, revision FROM reservation_holds WHERE store_id = $1 AND reference IN ({list})"
            );
            let mut q = sqlx::query_as::<_, (String, i64)>(&sql).bind(store_id);
            for r in chunk {
                q = q.bind(r);
            }
            revisions.extend(q.fetch_all(self.db.pool()).await?);
        }
        Ok((holdings, revisions))
    }

    /// Every reference with `prefix` and what it holds, reserved or shipped (for the
    /// cross-service stock check).
    pub async fn holdings_with_prefix(&self, prefix: &str) -> Result<Vec<StoreHoldingRow>> {
        Ok(sqlx::query_as::<_, StoreHoldingRow>(
            "SELECT store_id, reference, warehouse_id, sku_id, quantity, state FROM reservation_lines \
             WHERE reference LIKE $1 ORDER BY store_id, reference, warehouse_id, sku_id",
        )
        .bind(format!("{prefix}%"))
        .fetch_all(self.db.pool())
        .await?)
    }
}

/// Sets the units `reference` holds of each (warehouse, SKU, units), in one statement.
async fn keep_lines(tx: &mut Tx, store_id: i64, reference: &str, kept: &[(i64, i64, i64)], now: i64) -> Result<()> {
    if kept.is_empty() {
        return Ok(());
    }
    let values = (0..kept.len())
        .map(|i| format!("($1, $2, ${}, ${}, ${}, $3, $4)", 5 + 3 * i, 6 + 3 * i, 7 + 3 * i))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "INSERT INTO reservation_lines (store_id, reference, warehouse_id, sku_id, quantity, state, updated_at) \
         VALUES {values} ON CONFLICT (store_id, reference, warehouse_id, sku_id) \
         DO UPDATE SET quantity = excluded.quantity, state = excluded.state, updated_at = excluded.updated_at"
    );
    let mut q = sqlx::query(&sql).bind(store_id).bind(reference).bind(state::RESERVED).bind(now);
    for (w, s, quantity) in kept {
        q = q.bind(*w).bind(*s).bind(*quantity);
    }
    q.execute(&mut **tx).await?;
    Ok(())
}
