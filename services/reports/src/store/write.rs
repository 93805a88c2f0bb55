//! The writes: what an event tells of an order, applied in its transaction to the order's
//! facts, the sales ledger and the daily tables.

use std::collections::{BTreeMap, BTreeSet};

use bo_kit::db::{insert_rows, Tx, MAX_PARAMS};
use bo_kit::time::now_ms;
use bo_kit::Result;

use super::*;
use crate::domain::{
    self, Area, AreaFigures, Change, Content, Contribution, Day, Figures, Order, SkuFigures, StateFigures,
};

impl Repo {
    /// Applies what an event tells of an order, inside the event's transaction (see
    /// [`Repo::apply_all`]). Answers whether anything changed.
    pub async fn apply(
        tx: &mut Tx,
        store_id: i64,
        order_id: i64,
        event_id: &str,
        change: Change,
        names: &[SkuNames],
    ) -> Result<bool> {
        let told = Told { store_id, order_id, event_id: event_id.to_string(), change, names: names.to_vec() };
        Ok(Self::apply_all(tx, vec![told]).await?[0])
    }

    /// Applies what events tell of orders, in their order, inside their transaction: each
    /// order's facts, the ledger rows of the difference each event makes, the daily tables by
    /// the sum of those differences, and the names of the SKUs sold. Whatever the number of
    /// events, it reads the orders once and writes each table once (per a statement's
    /// parameter limit). Answers per event whether it changed anything.
    pub async fn apply_all(tx: &mut Tx, told: Vec<Told>) -> Result<Vec<bool>> {
        if told.is_empty() {
            return Ok(Vec::new());
        }
        let now = now_ms();
        let stores: BTreeSet<i64> = told.iter().map(|t| t.store_id).collect();
        // The stores' rows first: every writer of a store's figures takes turns on it.
        let stores: Vec<i64> = stores.into_iter().collect();
        insert_rows(
            tx,
            "INSERT INTO report_stores (store_id, updated_at)",
            "ON CONFLICT (store_id) DO UPDATE SET updated_at = excluded.updated_at",
            2,
            &stores,
            |q, s| q.bind(*s).bind(now),
        )
        .await?;
        let mut orders = Self::orders_for_update(tx, &told).await?;
        let mut changed = Vec::with_capacity(told.len());
        let mut ledger: Vec<LedgerRow> = Vec::new();
        let mut daily: BTreeMap<i64, Contribution> = BTreeMap::new();
        let mut names: BTreeMap<(i64, i64), SkuNames> = BTreeMap::new();
        let mut touched: BTreeSet<(i64, i64)> = BTreeSet::new();
        // The customers (per store) whose first order may have changed.
        let mut customers: BTreeSet<(i64, i64)> = BTreeSet::new();
        for Told { store_id, order_id, event_id, change, names: sold } in told {
            let key = (store_id, order_id);
            let order = orders.entry(key).or_default();
            let before = domain::contribution(order);
            let content_before = order.content_version;
            let customer_before = order.customer();
            if !domain::apply(order, change) {
                changed.push(false);
                continue;
            }
            changed.push(true);
            touched.insert(key);
            if order.customer() != customer_before {
                customers.extend([(store_id, customer_before), (store_id, order.customer())]);
            }
            let d = domain::delta(&before, &domain::contribution(order));
            ledger.extend(ledger_rows(key, &event_id, &order.channel, &d));
            domain::add_to(daily.entry(store_id).or_default(), &d);
            if order.content_version > content_before {
                // The newest order's names win; an order may sell a SKU on two lines.
                for n in sold {
                    names.insert((store_id, n.sku_id), n);
                }
            }
        }
        let facts: Vec<((i64, i64), Order)> =
            touched.iter().map(|k| (*k, orders.get(k).cloned().unwrap_or_default())).collect();
        write_facts(tx, &facts, now).await?;
        customers.retain(|(_, c)| *c != 0);
        if !customers.is_empty() {
            let flipped = Self::settle_first_orders(tx, &customers, &mut orders, &mut daily).await?;
            write_facts(tx, &flipped, now).await?;
        }
        write_ledger(tx, &ledger, now).await?;
        for (store_id, d) in &daily {
            write_daily(tx, *store_id, d).await?;
        }
        let names: Vec<(i64, SkuNames)> = names.into_iter().map(|((store, _), n)| (store, n)).collect();
        keep_names(tx, &names).await?;
        Ok(changed)
    }

    /// Marks each of `customers`' first order (placed earliest, the lower id first on a tie)
    /// as their first and no other, once the batch's facts are written: an order that arrives
    /// late but was placed before the one counted first takes its place, and the other
    /// becomes a returning customer's. Adds what each change makes to the store's `daily`
    /// difference and answers the orders changed, to be written again.
    async fn settle_first_orders(
        tx: &mut Tx,
        customers: &BTreeSet<(i64, i64)>,
        orders: &mut BTreeMap<(i64, i64), Order>,
        daily: &mut BTreeMap<i64, Contribution>,
    ) -> Result<Vec<((i64, i64), Order)>> {
        let mut want: BTreeMap<(i64, i64), bool> = BTreeMap::new();
        for &(store_id, customer) in customers {
            // The customer's orders, earliest first, and which is marked first now (`customer_id
            // <> 0` lets the planner use the partial index of customers' orders).
            let rows: Vec<(i64, i64)> = sqlx::query_as(
                "SELECT order_id, first_order FROM report_orders WHERE store_id = $1 AND customer_id = $2 \
                 AND customer_id <> 0 ORDER BY placed_at, order_id",
            )
            .bind(store_id)
            .bind(customer)
            .fetch_all(&mut **tx)
            .await?;
            let first = rows.first().map(|(id, _)| *id);
            for (id, _) in rows.iter().filter(|(id, marked)| *marked == 1 && Some(*id) != first) {
                want.insert((store_id, *id), false);
            }
            if let Some(id) = first {
                want.insert((store_id, id), true);
            }
        }
        let mut missing: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
        for (store_id, order_id) in want.keys().filter(|k| !orders.contains_key(k)) {
            missing.entry(*store_id).or_default().insert(*order_id);
        }
        orders.extend(Self::orders_locked(tx, missing).await?);
        let mut flipped = Vec::new();
        for (key, first) in want {
            let Some(order) = orders.get_mut(&key) else { continue };
            if order.first == first {
                continue;
            }
            let before = domain::contribution(order);
            order.first = first;
            let d = domain::delta(&before, &domain::contribution(order));
            domain::add_to(daily.entry(key.0).or_default(), &d);
            flipped.push((key, order.clone()));
        }
        Ok(flipped)
    }

    /// What the reports know of the orders `told` is about, their rows locked.
    async fn orders_for_update(tx: &mut Tx, told: &[Told]) -> Result<BTreeMap<(i64, i64), Order>> {
        let mut by_store: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
        for t in told {
            by_store.entry(t.store_id).or_default().insert(t.order_id);
        }
        Self::orders_locked(tx, by_store).await
    }

    /// What the reports know of the orders of each store's ids, their rows locked.
    async fn orders_locked(tx: &mut Tx, by_store: BTreeMap<i64, BTreeSet<i64>>) -> Result<BTreeMap<(i64, i64), Order>> {
        let lock = tx.for_update();
        let mut orders = BTreeMap::new();
        for (store_id, ids) in by_store {
            let ids: Vec<i64> = ids.into_iter().collect();
            for chunk in ids.chunks(MAX_PARAMS - 1) {
                let list = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect::<Vec<_>>().join(", ");
                let sql = format!(
                    "SELECT order_id, channel, placed_day, content, content_version, state, state_version, cancelled_day, \
                     placed_at, first_order FROM report_orders WHERE store_id = $1 AND order_id IN ({list}) ORDER BY order_id{lock}"
                );
                let mut q = sqlx::query_as::<_, OrderRow>(&sql).bind(store_id);
                for id in chunk {
                    q = q.bind(*id);
                }
                for r in q.fetch_all(&mut **tx).await? {
                    let content = r
                        .content
                        .as_deref()
                        .map(serde_json::from_str::<Content>)
                        .transpose()
                        .map_err(anyhow::Error::from)?;
                    let order = Order {
                        channel: r.channel,
                        placed_day: r.placed_day,
                        content,
                        content_version: r.content_version,
                        state: r.state,
                        state_version: r.state_version,
                        cancelled_day: r.cancelled_day,
                        placed_at: r.placed_at,
                        first: r.first_order != 0,
                    };
                    orders.insert((store_id, r.order_id), order);
                }
            }
        }
        Ok(orders)
    }
}

/// One row of the sales ledger: an event's difference to one day's sales of a channel
/// (SKU 0) or of a SKU.
struct LedgerRow {
    store_id: i64,
    order_id: i64,
    event_id: String,
    day: Day,
    channel: String,
    sku_id: i64,
    figures: Figures,
}

/// The ledger rows of an event's difference `d` to an order (`(store, order)`) sold on
/// `channel`: the sales rows, then the SKU rows.
fn ledger_rows((store_id, order_id): (i64, i64), event_id: &str, channel: &str, d: &Contribution) -> Vec<LedgerRow> {
    let row = |day: Day, channel: &str, sku_id: i64, figures: Figures| LedgerRow {
        store_id,
        order_id,
        event_id: event_id.to_string(),
        day,
        channel: channel.to_string(),
        sku_id,
        figures,
    };
    let mut rows: Vec<LedgerRow> = d.sales.iter().map(|((day, ch), f)| row(*day, ch, 0, *f)).collect();
    rows.extend(d.skus.iter().map(|((day, sku), f)| {
        let f = Figures { units: f.units, net: f.net, net_ex_vat: f.net_ex_vat, cost: f.cost, ..Default::default() };
        row(*day, channel, *sku, f)
    }));
    rows
}

/// Writes the orders' facts, in key order.
async fn write_facts(tx: &mut Tx, facts: &[((i64, i64), Order)], now: i64) -> Result<()> {
    let contents = facts
        .iter()
        .map(|(_, o)| o.content.as_ref().map(serde_json::to_string).transpose())
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(anyhow::Error::from)?;
    let rows: Vec<(&(i64, i64), &Order, Option<String>)> =
        facts.iter().zip(contents).map(|((k, o), c)| (k, o, c)).collect();
    insert_rows(
        tx,
        "INSERT INTO report_orders (store_id, order_id, channel, placed_day, content, content_version, state, \
         state_version, cancelled_day, updated_at, customer_id, placed_at, first_order)",
        "ON CONFLICT (store_id, order_id) DO UPDATE SET channel = excluded.channel, placed_day = excluded.placed_day, \
         content = excluded.content, content_version = excluded.content_version, state = excluded.state, \
         state_version = excluded.state_version, cancelled_day = excluded.cancelled_day, updated_at = excluded.updated_at, \
         customer_id = excluded.customer_id, placed_at = excluded.placed_at, first_order = excluded.first_order",
        13,
        &rows,
        |q, ((store_id, order_id), o, content)| {
            q.bind(*store_id)
                .bind(*order_id)
                .bind(o.channel.as_str())
                .bind(o.placed_day)
                .bind(content.as_deref())
                .bind(o.content_version)
                .bind(o.state.as_str())
                .bind(o.state_version)
                .bind(o.cancelled_day)
                .bind(now)
                .bind(o.customer())
                .bind(o.placed_at)
                .bind(i64::from(o.first))
        },
    )
    .await?;
    Ok(())
}

/// Writes the ledger rows.
async fn write_ledger(tx: &mut Tx, rows: &[LedgerRow], now: i64) -> Result<()> {
    insert_rows(
        tx,
        "INSERT INTO sales_ledger (store_id, order_id, event_id, day, channel, sku_id, orders, cancelled, units, net, \
         total, net_ex_vat, cost, shipping, recorded_at)",
        "",
        15,
        rows,
        |q, r| {
            let f = &r.figures;
            q.bind(r.store_id)
                .bind(r.order_id)
                .bind(r.event_id.as_str())
                .bind(r.day)
                .bind(r.channel.as_str())
                .bind(r.sku_id)
                .bind(f.orders)
                .bind(f.cancelled)
                .bind(f.units)
                .bind(f.net)
                .bind(f.total)
                .bind(f.net_ex_vat)
                .bind(f.cost)
                .bind(f.shipping)
                .bind(now)
        },
    )
    .await?;
    Ok(())
}

/// Adds `d` to a store's daily tables: one statement per table, its rows in key order (so
/// two writers of the same days take the rows in the same order).
async fn write_daily(tx: &mut Tx, store_id: i64, d: &Contribution) -> Result<()> {
    let sales: Vec<(&(Day, String), &Figures)> = d.sales.iter().collect();
    insert_rows(
        tx,
        "INSERT INTO daily_sales (store_id, day, channel, orders, cancelled, units, net, total, net_ex_vat, cost, shipping)",
        "ON CONFLICT (store_id, day, channel) DO UPDATE SET \
         orders = daily_sales.orders + excluded.orders, cancelled = daily_sales.cancelled + excluded.cancelled, \
         units = daily_sales.units + excluded.units, net = daily_sales.net + excluded.net, \
         total = daily_sales.total + excluded.total, net_ex_vat = daily_sales.net_ex_vat + excluded.net_ex_vat, \
         cost = daily_sales.cost + excluded.cost, shipping = daily_sales.shipping + excluded.shipping",
        11,
        &sales,
        |q, ((day, ch), f)| {
            q.bind(store_id)
                .bind(*day)
                .bind(ch.as_str())
                .bind(f.orders)
                .bind(f.cancelled)
                .bind(f.units)
                .bind(f.net)
                .bind(f.total)
                .bind(f.net_ex_vat)
                .bind(f.cost)
                .bind(f.shipping)
        },
    )
    .await?;
    // The SKUs per day, and the same changes per month and per year.
    type Sums = BTreeMap<(Day, i64), SkuFigures>;
    let mut tables: Vec<(&str, Sums)> = vec![("daily_skus", d.skus.clone())];
    for (table, first_of) in domain::ROLLUPS {
        let mut sums: BTreeMap<(Day, i64), SkuFigures> = BTreeMap::new();
        for ((day, sku), f) in &d.skus {
            let e = sums.entry((first_of(*day), *sku)).or_default();
            *e = e.plus(*f);
        }
        tables.push((table, sums));
    }
    for (table, sums) in &tables {
        let rows: Vec<(&(Day, i64), &SkuFigures)> = sums.iter().collect();
        insert_rows(
            tx,
            &format!("INSERT INTO {table} (store_id, day, sku_id, units, net, net_ex_vat, cost)"),
            &format!(
                "ON CONFLICT (store_id, day, sku_id) DO UPDATE SET units = {table}.units + excluded.units, \
                 net = {table}.net + excluded.net, net_ex_vat = {table}.net_ex_vat + excluded.net_ex_vat, \
                 cost = {table}.cost + excluded.cost"
            ),
            7,
            &rows,
            |q, ((day, sku), f)| {
                q.bind(store_id).bind(*day).bind(*sku).bind(f.units).bind(f.net).bind(f.net_ex_vat).bind(f.cost)
            },
        )
        .await?;
    }
    // The places per day, and the same changes per month.
    let mut monthly: BTreeMap<(Day, Area), AreaFigures> = BTreeMap::new();
    for ((day, area), f) in &d.areas {
        let e = monthly.entry((domain::month_of(*day), area.clone())).or_default();
        *e = e.plus(*f, 1);
    }
    for (table, sums) in [("daily_areas", &d.areas), ("monthly_areas", &monthly)] {
        let areas: Vec<(&(Day, Area), &AreaFigures)> = sums.iter().collect();
        insert_rows(
            tx,
            &format!("INSERT INTO {table} (store_id, day, kind, name, parent, orders, cancelled, net)"),
            &format!(
                "ON CONFLICT (store_id, kind, day, name, parent) DO UPDATE SET orders = {table}.orders + excluded.orders, \
                 cancelled = {table}.cancelled + excluded.cancelled, net = {table}.net + excluded.net"
            ),
            8,
            &areas,
            |q, ((day, (kind, name, parent)), f)| {
                q.bind(store_id)
                    .bind(*day)
                    .bind(kind.as_str())
                    .bind(name.as_str())
                    .bind(parent.as_str())
                    .bind(f.orders)
                    .bind(f.cancelled)
                    .bind(f.net)
            },
        )
        .await?;
    }
    let state_sales: Vec<(&(Day, String), &StateFigures)> = d.state_sales.iter().collect();
    insert_rows(
        tx,
        "INSERT INTO daily_state_sales (store_id, day, state, orders, net, total, paid)",
        "ON CONFLICT (store_id, day, state) DO UPDATE SET orders = daily_state_sales.orders + excluded.orders, \
         net = daily_state_sales.net + excluded.net, total = daily_state_sales.total + excluded.total, \
         paid = daily_state_sales.paid + excluded.paid",
        7,
        &state_sales,
        |q, ((day, state), f)| {
            q.bind(store_id).bind(*day).bind(state.as_str()).bind(f.orders).bind(f.net).bind(f.total).bind(f.paid)
        },
    )
    .await?;
    let staff: Vec<(&(Day, i64), &AreaFigures)> = d.staff.iter().collect();
    insert_rows(
        tx,
        "INSERT INTO daily_staff (store_id, day, user_id, orders, cancelled, net)",
        "ON CONFLICT (store_id, day, user_id) DO UPDATE SET orders = daily_staff.orders + excluded.orders, \
         cancelled = daily_staff.cancelled + excluded.cancelled, net = daily_staff.net + excluded.net",
        6,
        &staff,
        |q, ((day, who), f)| q.bind(store_id).bind(*day).bind(*who).bind(f.orders).bind(f.cancelled).bind(f.net),
    )
    .await?;
    let customers: Vec<(&(Day, String), &AreaFigures)> = d.customers.iter().collect();
    insert_rows(
        tx,
        "INSERT INTO daily_customers (store_id, day, kind, orders, cancelled, net)",
        "ON CONFLICT (store_id, day, kind) DO UPDATE SET orders = daily_customers.orders + excluded.orders, \
         cancelled = daily_customers.cancelled + excluded.cancelled, net = daily_customers.net + excluded.net",
        6,
        &customers,
        |q, ((day, kind), f)| {
            q.bind(store_id).bind(*day).bind(kind.as_str()).bind(f.orders).bind(f.cancelled).bind(f.net)
        },
    )
    .await?;
    let states: Vec<(&(Day, String), &i64)> = d.states.iter().collect();
    insert_rows(
        tx,
        "INSERT INTO daily_states (store_id, day, state, orders)",
        "ON CONFLICT (store_id, day, state) DO UPDATE SET orders = daily_states.orders + excluded.orders",
        4,
        &states,
        |q, ((day, state), n)| q.bind(store_id).bind(*day).bind(state.as_str()).bind(**n),
    )
    .await?;
    Ok(())
}

/// Keeps the names of the SKUs orders sold, one row per store and SKU.
async fn keep_names(tx: &mut Tx, names: &[(i64, SkuNames)]) -> Result<()> {
    insert_rows(
        tx,
        "INSERT INTO report_skus (store_id, sku_id, product_id, product_name, sku_code, variant)",
        "ON CONFLICT (store_id, sku_id) DO UPDATE SET product_id = excluded.product_id, \
         product_name = excluded.product_name, sku_code = excluded.sku_code, variant = excluded.variant",
        6,
        names,
        |q, (store_id, n)| {
            q.bind(*store_id)
                .bind(n.sku_id)
                .bind(n.product_id)
                .bind(n.product_name.as_str())
                .bind(n.sku_code.as_str())
                .bind(n.variant.as_str())
        },
    )
    .await?;
    Ok(())
}
