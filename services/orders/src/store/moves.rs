//! Orders moving between states: one conditional update from the state read, with its
//! timeline, counts, stock to release and event; shipping in steps; a changed address.

use super::*;
use bo_kit::Code;

impl Repo {
    /// Moves orders by `action`, each on its own: `check` says why an order that the table
    /// lets move must still stay (a prepare's address, stock or COD account). One
    /// transaction for all of them; the answer is per order, in the order asked.
    pub async fn change_state(
        &self,
        who: Actor,
        ids: &[i64],
        action: domain::state::Action,
        cause: &str,
        reason: &str,
        check: &(dyn Fn(&OrderRow) -> Option<Code> + Send + Sync),
    ) -> Result<Vec<Moved>> {
        use domain::state::Action;
        let rows = self.orders(who.store_id, ids).await?;
        let by_id: HashMap<i64, &OrderRow> = rows.iter().map(|r| (r.id, r)).collect();
        let mut tx = self.db.begin().await?;
        let now = now_ms();
        let mut round = Round::new(who.store_id);
        let mut out = Vec::with_capacity(ids.len());
        let mut seen = std::collections::HashSet::new();
        for id in ids {
            let Some(row) = by_id.get(id) else {
                out.push(Moved {
                    id: *id,
                    order_no: String::new(),
                    refused: Some(Code::OrderNotFound),
                    state: String::new(),
                    release: false,
                });
                continue;
            };
            if !seen.insert(*id) {
                continue;
            }
            let refuse = |reason: Code| Moved {
                id: row.id,
                order_no: row.order_no.clone(),
                refused: Some(reason),
                state: row.state.clone(),
                release: false,
            };
            let to = match domain::state::next(&row.state, action) {
                Ok(to) => to,
                Err(why) => {
                    out.push(refuse(why));
                    continue;
                }
            };
            if stock::IN_FLIGHT.contains(&row.stock_state.as_str()) && action != Action::Void {
                out.push(refuse(Code::OrderBusy));
                continue;
            }
            if let Some(why) = check(row) {
                out.push(refuse(why));
                continue;
            }
            out.push(apply_move(&mut tx, &mut round, who, row, action, to, cause, reason, now).await?);
        }
        round.write(&mut tx).await?;
        tx.commit().await?;
        Ok(out)
    }

    /// Starts shipping a prepared order that holds its stock (`committing`); false when it
    /// is not so.
    pub async fn begin_ship(&self, store_id: i64, id: i64) -> Result<bool> {
        let r = sqlx::query(
            "UPDATE orders SET stock_state = $1, stock_state_at = $2 WHERE store_id = $3 AND id = $4 AND state = $5 \
             AND stock_state = $6",
        )
        .bind(stock::COMMITTING)
        .bind(now_ms())
        .bind(store_id)
        .bind(id)
        .bind(state::READY)
        .bind(stock::HELD)
        .execute(self.db.pool())
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Puts an order whose shipping wms refused back to holding its stock.
    pub async fn abandon_ship(&self, store_id: i64, id: i64) -> Result<()> {
        sqlx::query(
            "UPDATE orders SET stock_state = $1, stock_state_at = $2 WHERE store_id = $3 AND id = $4 AND stock_state = $5",
        )
        .bind(stock::HELD)
        .bind(now_ms())
        .bind(store_id)
        .bind(id)
        .bind(stock::COMMITTING)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }

    /// Records that wms shipped an order: shipped, with its time and tracking numbers.
    pub async fn finish_ship(&self, who: Actor, id: i64, tracking: &str, shipped_at: i64) -> Result<Option<OrderRow>> {
        let mut tx = self.db.begin().await?;
        let Some(row) = pending_at(&mut tx, who.store_id, id, -1, stock::COMMITTING).await? else {
            return Ok(None);
        };
        sqlx::query(
            "UPDATE orders SET state = $1, shipped_at = $2, tracking_no = $3, stock_state = $4, stock_state_at = $5, \
             updated_at = $5, updated_by = $6, version = version + 1 WHERE id = $7 AND stock_state = $8",
        )
        .bind(state::SHIPPED)
        .bind(shipped_at)
        .bind(tracking)
        .bind(stock::COMMITTED)
        .bind(now_ms())
        .bind(who.user_id)
        .bind(id)
        .bind(stock::COMMITTING)
        .execute(&mut *tx)
        .await?;
        event(&mut tx, who, id, "shipped", &row.state, state::SHIPPED, tracking).await?;
        count(&mut tx, who.store_id, &row.state, -1).await?;
        count(&mut tx, who.store_id, state::SHIPPED, 1).await?;
        outbox::enqueue(
            &mut tx,
            who.store_id,
            who.user_id,
            &ev::OrderStateChanged {
                order_id: id,
                order_no: row.order_no.clone(),
                from_state: pb::OrderState::number(&row.state),
                to_state: pb::OrderState::number(state::SHIPPED),
                customer_id: row.customer_id,
                total: row.total,
                version: row.version + 1,
                place_time: Some(bo_kit::time::ms_to_timestamp(row.created_at)),
                channel: row.channel.clone(),
                store_channel_id: row.store_channel_id,
                reference: row.reference.clone(),
                tracking_no: tracking.to_string(),
            },
        )
        .await?;
        let out = order_in(&mut tx, who.store_id, id).await?;
        tx.commit().await?;
        Ok(Some(out))
    }

    /// Sets (or clears) the shipping address of an open order.
    pub async fn set_address(
        &self,
        who: Actor,
        id: i64,
        a: &Address,
        customer_address_id: i64,
        customer_id: Option<i64>,
        action: &str,
    ) -> Result<OrderRow> {
        let mut tx = self.db.begin().await?;
        let row = order_in(&mut tx, who.store_id, id).await?;
        if !state::is_open(&row.state) {
            return Err(Error::failed_precondition(Code::OrderNotEditable));
        }
        let short = row.problems().iter().any(|p| p == problem::STOCK);
        let now = now_ms();
        sqlx::query(
            "UPDATE orders SET ship_name = $1, ship_tel = $2, ship_address = $3, ship_sub_district = $4, \
             ship_district = $5, ship_state_province = $6, ship_postcode = $7, ship_email = $8, ship_country = $9, \
             ship_city = $10, customer_address_id = $11, customer_id = $12, shipping_address_changed = 1, problems = $13, \
             search_text = $14, updated_at = $15, updated_by = $16, version = version + 1 WHERE id = $17 AND store_id = $18",
        )
        .bind(&a.name)
        .bind(&a.tel)
        .bind(&a.address)
        .bind(&a.sub_district)
        .bind(&a.district)
        .bind(&a.state_province)
        .bind(&a.postcode)
        .bind(&a.email)
        .bind(&a.country)
        .bind(&a.city)
        .bind(customer_address_id)
        .bind(customer_id.unwrap_or(row.customer_id))
        .bind(problems_text(short, !a.is_complete()))
        .bind(domain::search_text(&row.order_no, &row.reference, &a.name, &a.tel))
        .bind(now)
        .bind(who.user_id)
        .bind(id)
        .bind(who.store_id)
        .execute(&mut *tx)
        .await?;
        event(&mut tx, who, id, action, &row.state, &row.state, &a.name).await?;
        let out = order_in(&mut tx, who.store_id, id).await?;
        tx.commit().await?;
        Ok(out)
    }
}

/// What a round of moves in one transaction writes once, after its orders: the state counts
/// (hot rows, written last and in key order) and the events, in one outbox write, in the
/// order the moves made them.
pub(super) struct Round {
    counts: std::collections::BTreeMap<String, i64>,
    events: outbox::Batch,
}

impl Round {
    pub(super) fn new(store_id: i64) -> Round {
        Round { counts: Default::default(), events: outbox::Batch::new(store_id) }
    }

    /// Writes the counts that changed, then the events.
    pub(super) async fn write(self, tx: &mut Tx) -> Result<()> {
        let store_id = self.events.store_id();
        for (st, delta) in self.counts.into_iter().filter(|(_, d)| *d != 0) {
            count(tx, store_id, &st, delta).await?;
        }
        self.events.write(tx).await
    }
}

/// Moves one order that the table lets move (from its state by `action` to `to`) in `tx`:
/// its state and time, its stock to release (cancel and fail of an order that holds or
/// waits) and its timeline; its counts and events go to `round`. Refused (`order_changed`) when its state moved
/// since it was read.
#[allow(clippy::too_many_arguments)]
pub(super) async fn apply_move(
    tx: &mut Tx,
    round: &mut Round,
    who: Actor,
    row: &OrderRow,
    action: domain::state::Action,
    to: &'static str,
    cause: &str,
    reason: &str,
    now: i64,
) -> Result<Moved> {
    use domain::state::Action;
    let release = matches!(action, Action::Cancel | Action::Fail)
        && matches!(row.stock_state.as_str(), stock::HELD | stock::SHORT);
    let time_col = match action {
        Action::Prepare => "ready_at",
        Action::Close => "closed_at",
        Action::Cancel => "cancelled_at",
        Action::Void => "voided_at",
        Action::Fail => "failed_at",
        Action::Ship => "shipped_at",
    };
    let extra = match action {
        Action::Void => ", cancelled_at = $1".to_string(),
        Action::Fail => ", failure_cause = $8, failure_reason = $9".to_string(),
        _ => String::new(),
    };
    let sql = format!(
        "UPDATE orders SET state = $2, {time_col} = $1, updated_at = $1, updated_by = $3, version = version + 1, \
         stock_state = CASE WHEN $4 = 1 THEN $5 ELSE stock_state END, \
         stock_state_at = CASE WHEN $4 = 1 THEN $1 ELSE stock_state_at END{extra} \
         WHERE id = $6 AND state = $7"
    );
    let mut q = sqlx::query(&sql)
        .bind(now)
        .bind(to)
        .bind(who.user_id)
        .bind(i64::from(release))
        .bind(stock::RELEASING)
        .bind(row.id)
        .bind(&row.state);
    if action == Action::Fail {
        q = q.bind(cause).bind(reason);
    }
    let changed = q.execute(&mut **tx).await?;
    if changed.rows_affected() != 1 {
        return Ok(Moved {
            id: row.id,
            order_no: row.order_no.clone(),
            refused: Some(Code::OrderChanged),
            state: row.state.clone(),
            release: false,
        });
    }
    let detail = match action {
        Action::Fail => format!("{cause}{}{reason}", if reason.is_empty() { "" } else { ": " }),
        _ => reason.to_string(),
    };
    let name = match action {
        Action::Void => "voided",
        Action::Cancel => "cancelled",
        Action::Close => "closed",
        Action::Fail => "failed",
        Action::Prepare => "ready_to_fulfillment",
        Action::Ship => "shipped",
    };
    event(tx, who, row.id, name, &row.state, to, &detail).await?;
    *round.counts.entry(row.state.clone()).or_default() -= 1;
    *round.counts.entry(to.to_string()).or_default() += 1;
    round.events.add(
        who.user_id,
        &ev::OrderStateChanged {
            order_id: row.id,
            order_no: row.order_no.clone(),
            from_state: pb::OrderState::number(&row.state),
            to_state: pb::OrderState::number(to),
            customer_id: row.customer_id,
            total: row.total,
            version: row.version + 1,
            place_time: Some(bo_kit::time::ms_to_timestamp(row.created_at)),
            channel: row.channel.clone(),
            store_channel_id: row.store_channel_id,
            reference: row.reference.clone(),
            tracking_no: row.tracking_no.clone(),
        },
    )?;
    bills::announce_bills_into(tx, &mut round.events, row.id).await?;
    Ok(Moved { id: row.id, order_no: row.order_no.clone(), refused: None, state: to.to_string(), release })
}
