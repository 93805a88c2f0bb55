//! Storage: what the reports know of each order, the sales ledger and the daily tables
//! (written in the inbox's transaction of the event that changed them), and the reads of
//! the dashboards, which only ever sum daily rows.

use std::collections::{BTreeMap, BTreeSet};

use bo_kit::db::{insert_rows, Db, Tx, MAX_PARAMS};
use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::now_ms;
use bo_kit::Result;
use sqlx::{FromRow, Row};

use crate::domain::{self, Area, AreaFigures, Change, Content, Contribution, Day, Figures, Order, SkuFigures, Span};

/// A SKU's names, as an order sold it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkuNames {
    pub sku_id: i64,
    pub product_id: i64,
    pub product_name: String,
    pub sku_code: String,
    pub variant: String,
}

/// A SKU's sales over some days, with its names.
#[derive(Debug, Clone, Default, PartialEq, Eq, FromRow)]
pub struct SkuSales {
    pub sku_id: i64,
    pub product_id: i64,
    pub product_name: String,
    pub sku_code: String,
    pub variant: String,
    pub units: i64,
    pub net: i64,
    pub net_ex_vat: i64,
    pub cost: i64,
}

/// What a period's dashboard reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub current: Figures,
    pub previous: Figures,
    /// Per channel, largest net first (then by channel).
    pub channels: Vec<(String, Figures)>,
    /// The period before's, likewise.
    pub previous_channels: Vec<(String, Figures)>,
    /// Per bucket (its first day), every bucket of the period.
    pub series: Vec<(Day, Figures)>,
    pub top: Vec<SkuSales>,
    /// Orders per state now, by state.
    pub states: Vec<(String, i64)>,
    /// When the store's figures last changed (unix ms).
    pub updated_at: Option<i64>,
}

/// How sold SKUs are ordered (largest first, then by SKU).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SoldSort {
    #[default]
    Net,
    Units,
    Profit,
}

/// What a period's SKUs add up to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SoldTotals {
    pub skus: i64,
    pub units: i64,
    pub net: i64,
    pub net_ex_vat: i64,
    pub cost: i64,
}

/// A page of the SKUs a period sold, each with its sales of the period before.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SoldItems {
    pub current: SoldTotals,
    pub previous: SoldTotals,
    pub page: Option<Page>,
    pub items: Vec<(SkuSales, SkuSales)>,
    pub updated_at: Option<i64>,
}

/// What a period's places of one kind add up to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AreaTotals {
    /// Places with orders.
    pub areas: i64,
    pub figures: AreaFigures,
}

/// One place's sales in a period and in the period before.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AreaSales {
    pub name: String,
    pub parent: String,
    pub current: AreaFigures,
    pub previous: AreaFigures,
}

/// The places a period's orders went to, largest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TopAreas {
    pub current: AreaTotals,
    pub previous: AreaTotals,
    pub areas: Vec<AreaSales>,
    pub updated_at: Option<i64>,
}

/// A period's orders counted by a key (a kind of customer, a word of `domain::NEW`,
/// `RETURNING` or `GUEST`; or a state now), in the period and the one before, and per bucket
/// of the period.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyedSales {
    pub current: BTreeMap<String, AreaFigures>,
    pub previous: BTreeMap<String, AreaFigures>,
    pub series: Vec<(Day, BTreeMap<String, AreaFigures>)>,
    pub updated_at: Option<i64>,
}

/// What one event tells of one order.
#[derive(Debug, Clone)]
pub struct Told {
    pub store_id: i64,
    pub order_id: i64,
    pub event_id: String,
    pub change: Change,
    /// The names of the SKUs its content sells (none for a change of state).
    pub names: Vec<SkuNames>,
}

#[derive(FromRow)]
struct OrderRow {
    order_id: i64,
    channel: String,
    placed_day: i64,
    content: Option<String>,
    content_version: i64,
    state: String,
    state_version: i64,
    cancelled_day: Option<i64>,
    placed_at: i64,
    first_order: i64,
}

const SUMS: &str = "CAST(COALESCE(SUM(orders), 0) AS BIGINT), CAST(COALESCE(SUM(cancelled), 0) AS BIGINT), \
    CAST(COALESCE(SUM(units), 0) AS BIGINT), CAST(COALESCE(SUM(net), 0) AS BIGINT), \
    CAST(COALESCE(SUM(total), 0) AS BIGINT), CAST(COALESCE(SUM(net_ex_vat), 0) AS BIGINT), \
    CAST(COALESCE(SUM(cost), 0) AS BIGINT), CAST(COALESCE(SUM(shipping), 0) AS BIGINT)";

fn figures_at(r: &sqlx::any::AnyRow, first: usize) -> std::result::Result<Figures, sqlx::Error> {
    Ok(Figures {
        orders: r.try_get(first)?,
        cancelled: r.try_get(first + 1)?,
        units: r.try_get(first + 2)?,
        net: r.try_get(first + 3)?,
        total: r.try_get(first + 4)?,
        net_ex_vat: r.try_get(first + 5)?,
        cost: r.try_get(first + 6)?,
        shipping: r.try_get(first + 7)?,
    })
}

/// The reports' storage.
#[derive(Clone)]
pub struct Repo {
    db: Db,
}

impl Repo {
    /// The repository on `db`.
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// The database.
    pub fn db(&self) -> &Db {
        &self.db
    }

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
            let first: Option<i64> = sqlx::query_scalar(
                "SELECT order_id FROM report_orders WHERE store_id = $1 AND customer_id = $2 \
                 ORDER BY placed_at, order_id LIMIT 1",
            )
            .bind(store_id)
            .bind(customer)
            .fetch_optional(&mut **tx)
            .await?;
            let marked: Vec<i64> = sqlx::query_scalar(
                "SELECT order_id FROM report_orders WHERE store_id = $1 AND customer_id = $2 AND first_order = 1",
            )
            .bind(store_id)
            .bind(customer)
            .fetch_all(&mut **tx)
            .await?;
            for id in marked.into_iter().filter(|id| Some(*id) != first) {
                want.insert((store_id, id), false);
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

    /// A period's figures, its previous period's totals, and the store's last change.
    pub async fn summary(&self, store_id: i64, span: &Span, top: i64) -> Result<Summary> {
        let pool = self.db.pool();
        let total_sql = format!("SELECT {SUMS} FROM daily_sales WHERE store_id = $1 AND day >= $2 AND day <= $3");
        let total = |from: Day, to: Day| sqlx::query(&total_sql).bind(store_id).bind(from).bind(to);
        let current = figures_at(&total(span.from, span.to).fetch_one(pool).await?, 0)?;
        let previous = figures_at(&total(span.previous_from, span.previous_to).fetch_one(pool).await?, 0)?;
        let channels_sql = format!(
            "SELECT channel, {SUMS} FROM daily_sales WHERE store_id = $1 AND day >= $2 AND day <= $3 GROUP BY channel"
        );
        let by_channel = |from: Day, to: Day| {
            let sql = channels_sql.as_str();
            async move {
                let rows = sqlx::query(sql).bind(store_id).bind(from).bind(to).fetch_all(pool).await?;
                let mut channels = rows
                    .iter()
                    .map(|r| Ok((r.try_get::<String, _>(0)?, figures_at(r, 1)?)))
                    .collect::<std::result::Result<Vec<_>, sqlx::Error>>()?;
                channels.retain(|(_, f)| !f.is_zero());
                channels.sort_by(|a, b| b.1.net.cmp(&a.1.net).then_with(|| a.0.cmp(&b.0)));
                Ok::<_, sqlx::Error>(channels)
            }
        };
        let channels = by_channel(span.from, span.to).await?;
        let previous_channels = by_channel(span.previous_from, span.previous_to).await?;
        let rows = sqlx::query(&format!(
            "SELECT day, {SUMS} FROM daily_sales WHERE store_id = $1 AND day >= $2 AND day <= $3 GROUP BY day"
        ))
        .bind(store_id)
        .bind(span.from)
        .bind(span.to)
        .fetch_all(pool)
        .await?;
        let mut by_bucket: BTreeMap<Day, Figures> =
            domain::buckets(span.from, span.to, span.bucket).into_iter().map(|b| (b, Figures::default())).collect();
        for r in &rows {
            let day: i64 = r.try_get(0)?;
            let e = by_bucket.entry(domain::bucket_of(day, span.bucket)).or_default();
            *e = *e + figures_at(r, 1)?;
        }
        let top = sqlx::query_as::<_, SkuSales>(
            "SELECT d.sku_id, CAST(COALESCE(MAX(n.product_id), 0) AS BIGINT) AS product_id, COALESCE(MAX(n.product_name), '') AS product_name, \
             COALESCE(MAX(n.sku_code), '') AS sku_code, COALESCE(MAX(n.variant), '') AS variant, \
             CAST(SUM(d.units) AS BIGINT) AS units, CAST(SUM(d.net) AS BIGINT) AS net, \
             CAST(SUM(d.net_ex_vat) AS BIGINT) AS net_ex_vat, CAST(SUM(d.cost) AS BIGINT) AS cost \
             FROM daily_skus d LEFT JOIN report_skus n ON n.store_id = d.store_id AND n.sku_id = d.sku_id \
             WHERE d.store_id = $1 AND d.day >= $2 AND d.day <= $3 GROUP BY d.sku_id \
             HAVING SUM(d.units) <> 0 OR SUM(d.net) <> 0 ORDER BY SUM(d.net) DESC, d.sku_id LIMIT $4",
        )
        .bind(store_id)
        .bind(span.from)
        .bind(span.to)
        .bind(top)
        .fetch_all(pool)
        .await?;
        let states: Vec<(String, i64)> = sqlx::query_as(
            "SELECT state, CAST(SUM(orders) AS BIGINT) FROM daily_states WHERE store_id = $1 AND day >= $2 AND day <= $3 \
             GROUP BY state HAVING SUM(orders) <> 0 ORDER BY state",
        )
        .bind(store_id)
        .bind(span.from)
        .bind(span.to)
        .fetch_all(pool)
        .await?;
        let updated_at: Option<i64> = sqlx::query_scalar("SELECT updated_at FROM report_stores WHERE store_id = $1")
            .bind(store_id)
            .fetch_optional(pool)
            .await?;
        Ok(Summary {
            current,
            previous,
            channels,
            previous_channels,
            series: by_bucket.into_iter().collect(),
            top,
            states,
            updated_at,
        })
    }

    /// The places of one kind a period's orders went to, the `limit` with the largest net
    /// (then the most orders, then by name), each with its figures in the period before;
    /// and every place's totals in both periods.
    pub async fn top_areas(&self, store_id: i64, span: &Span, kind: &str, limit: i64) -> Result<TopAreas> {
        let pool = self.db.pool();
        let grouped = "FROM daily_areas WHERE store_id = $1 AND kind = $2 AND day >= $3 AND day <= $4 \
                       GROUP BY name, parent HAVING SUM(orders) <> 0 OR SUM(cancelled) <> 0 OR SUM(net) <> 0";
        let totals_sql = format!(
            "SELECT CAST(COUNT(*) AS BIGINT), CAST(COALESCE(SUM(o), 0) AS BIGINT), CAST(COALESCE(SUM(c), 0) AS BIGINT), \
             CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM (SELECT SUM(orders) AS o, SUM(cancelled) AS c, SUM(net) AS n {grouped}) s"
        );
        let totals = |from: Day, to: Day| {
            let sql = totals_sql.as_str();
            async move {
                let r = sqlx::query(sql).bind(store_id).bind(kind).bind(from).bind(to).fetch_one(pool).await?;
                Ok::<_, sqlx::Error>(AreaTotals {
                    areas: r.try_get(0)?,
                    figures: AreaFigures { orders: r.try_get(1)?, cancelled: r.try_get(2)?, net: r.try_get(3)? },
                })
            }
        };
        let current = totals(span.from, span.to).await?;
        let previous = totals(span.previous_from, span.previous_to).await?;
        let rows = sqlx::query(&format!(
            "SELECT name, parent, CAST(SUM(orders) AS BIGINT), CAST(SUM(cancelled) AS BIGINT), CAST(SUM(net) AS BIGINT) \
             {grouped} ORDER BY SUM(net) DESC, SUM(orders) DESC, name, parent LIMIT $5"
        ))
        .bind(store_id)
        .bind(kind)
        .bind(span.from)
        .bind(span.to)
        .bind(limit)
        .fetch_all(pool)
        .await?;
        let figures = |r: &sqlx::any::AnyRow| -> std::result::Result<(String, String, AreaFigures), sqlx::Error> {
            Ok((
                r.try_get(0)?,
                r.try_get(1)?,
                AreaFigures { orders: r.try_get(2)?, cancelled: r.try_get(3)?, net: r.try_get(4)? },
            ))
        };
        let top = rows.iter().map(figures).collect::<std::result::Result<Vec<_>, _>>()?;
        let mut before: BTreeMap<(String, String), AreaFigures> = BTreeMap::new();
        if !top.is_empty() {
            let list = (0..top.len()).map(|i| format!("${}", i + 5)).collect::<Vec<_>>().join(", ");
            let sql = format!(
                "SELECT name, parent, CAST(SUM(orders) AS BIGINT), CAST(SUM(cancelled) AS BIGINT), CAST(SUM(net) AS BIGINT) \
                 FROM daily_areas WHERE store_id = $1 AND kind = $2 AND day >= $3 AND day <= $4 AND name IN ({list}) \
                 GROUP BY name, parent"
            );
            let mut q = sqlx::query(&sql).bind(store_id).bind(kind).bind(span.previous_from).bind(span.previous_to);
            for (name, _, _) in &top {
                q = q.bind(name.as_str());
            }
            for r in q.fetch_all(pool).await? {
                let (name, parent, f) = figures(&r)?;
                before.insert((name, parent), f);
            }
        }
        let areas = top
            .into_iter()
            .map(|(name, parent, f)| {
                let b = before.remove(&(name.clone(), parent.clone())).unwrap_or_default();
                AreaSales { name, parent, current: f, previous: b }
            })
            .collect();
        Ok(TopAreas { current, previous, areas, updated_at: self.updated_at(store_id).await? })
    }

    /// Who placed a period's orders, beside the period before, and over the period.
    pub async fn customers(&self, store_id: i64, span: &Span) -> Result<KeyedSales> {
        self.keyed("SELECT day, kind, orders, cancelled, net FROM daily_customers", store_id, span).await
    }

    /// The period's orders by the day they were placed and their state now, beside the
    /// period before (the sales report).
    pub async fn state_sales(&self, store_id: i64, span: &Span) -> Result<KeyedSales> {
        self.keyed("SELECT day, state, orders, CAST(0 AS BIGINT), net FROM daily_state_sales", store_id, span).await
    }

    /// The period's sales by the member who made the orders (user id as text; 0 for none),
    /// beside the period before (the sales per employee).
    pub async fn staff(&self, store_id: i64, span: &Span) -> Result<KeyedSales> {
        self.keyed("SELECT day, CAST(user_id AS TEXT), orders, cancelled, net FROM daily_staff", store_id, span).await
    }

    /// The rows of `select` (day, key, orders, cancelled, net of a daily table) summed per key
    /// over the period and the one before, and per key and bucket of the period.
    async fn keyed(&self, select: &str, store_id: i64, span: &Span) -> Result<KeyedSales> {
        let rows = sqlx::query(&format!("{select} WHERE store_id = $1 AND day >= $2 AND day <= $3"))
            .bind(store_id)
            .bind(span.previous_from.min(span.from))
            .bind(span.to.max(span.previous_to))
            .fetch_all(self.db.pool())
            .await?;
        let starts = domain::buckets(span.from, span.to, span.bucket);
        let place: BTreeMap<Day, usize> = starts.iter().enumerate().map(|(i, d)| (*d, i)).collect();
        let mut out = KeyedSales {
            series: starts.iter().map(|d| (*d, BTreeMap::new())).collect(),
            updated_at: self.updated_at(store_id).await?,
            ..Default::default()
        };
        let add = |into: &mut BTreeMap<String, AreaFigures>, kind: &str, f: AreaFigures| {
            let e = into.entry(kind.to_string()).or_default();
            *e = e.plus(f, 1);
        };
        for r in rows {
            let day: Day = r.try_get(0)?;
            let kind: String = r.try_get(1)?;
            let f = AreaFigures { orders: r.try_get(2)?, cancelled: r.try_get(3)?, net: r.try_get(4)? };
            if (span.from..=span.to).contains(&day) {
                add(&mut out.current, &kind, f);
                if let Some(i) = place.get(&domain::bucket_of(day, span.bucket)) {
                    add(&mut out.series[*i].1, &kind, f);
                }
            }
            if (span.previous_from..=span.previous_to).contains(&day) {
                add(&mut out.previous, &kind, f);
            }
        }
        Ok(out)
    }

    /// Every store's daily tables as they are (rows that come to nothing left out), for the
    /// check.
    pub async fn tables(&self) -> Result<BTreeMap<i64, Contribution>> {
        let pool = self.db.pool();
        let mut out: BTreeMap<i64, Contribution> = BTreeMap::new();
        let rows = sqlx::query(&format!(
            "SELECT store_id, day, channel, {SUMS} FROM daily_sales GROUP BY store_id, day, channel"
        ))
        .fetch_all(pool)
        .await?;
        for r in rows {
            let f = figures_at(&r, 3)?;
            if !f.is_zero() {
                out.entry(r.try_get(0)?).or_default().sales.insert((r.try_get(1)?, r.try_get(2)?), f);
            }
        }
        for r in sqlx::query("SELECT store_id, day, sku_id, units, net, net_ex_vat, cost FROM daily_skus")
            .fetch_all(pool)
            .await?
        {
            let f =
                SkuFigures { units: r.try_get(3)?, net: r.try_get(4)?, net_ex_vat: r.try_get(5)?, cost: r.try_get(6)? };
            if f != SkuFigures::default() {
                out.entry(r.try_get(0)?).or_default().skus.insert((r.try_get(1)?, r.try_get(2)?), f);
            }
        }
        for r in sqlx::query("SELECT store_id, day, state, orders FROM daily_states WHERE orders <> 0")
            .fetch_all(pool)
            .await?
        {
            out.entry(r.try_get(0)?).or_default().states.insert((r.try_get(1)?, r.try_get(2)?), r.try_get(3)?);
        }
        let counted = |r: &sqlx::any::AnyRow, at: usize| -> std::result::Result<AreaFigures, sqlx::Error> {
            Ok(AreaFigures { orders: r.try_get(at)?, cancelled: r.try_get(at + 1)?, net: r.try_get(at + 2)? })
        };
        let sql = "SELECT store_id, day, kind, name, parent, orders, cancelled, net FROM daily_areas";
        for r in sqlx::query(sql).fetch_all(pool).await? {
            let f = counted(&r, 5)?;
            if f != AreaFigures::default() {
                let area = (r.try_get(2)?, r.try_get(3)?, r.try_get(4)?);
                out.entry(r.try_get(0)?).or_default().areas.insert((r.try_get(1)?, area), f);
            }
        }
        for r in sqlx::query("SELECT store_id, day, kind, orders, cancelled, net FROM daily_customers")
            .fetch_all(pool)
            .await?
        {
            let f = counted(&r, 3)?;
            if f != AreaFigures::default() {
                out.entry(r.try_get(0)?).or_default().customers.insert((r.try_get(1)?, r.try_get(2)?), f);
            }
        }
        for r in sqlx::query("SELECT store_id, day, state, orders, CAST(0 AS BIGINT), net FROM daily_state_sales")
            .fetch_all(pool)
            .await?
        {
            let f = counted(&r, 3)?;
            if f != AreaFigures::default() {
                out.entry(r.try_get(0)?).or_default().state_sales.insert((r.try_get(1)?, r.try_get(2)?), f);
            }
        }
        let sql = "SELECT store_id, day, user_id, orders, cancelled, net FROM daily_staff";
        for r in sqlx::query(sql).fetch_all(pool).await? {
            let f = counted(&r, 3)?;
            if f != AreaFigures::default() {
                out.entry(r.try_get(0)?).or_default().staff.insert((r.try_get(1)?, r.try_get(2)?), f);
            }
        }
        Ok(out)
    }

    /// Empties every read model (the first step of a rebuild), in one transaction: events
    /// handled meanwhile wait for it (on PostgreSQL the stores' table is locked against every
    /// writer first; SQLite has one writer), and those handled after it count on the empty
    /// tables.
    pub async fn clear(&self) -> Result<()> {
        let mut tx = self.db.begin().await?;
        if self.db.dialect() == bo_kit::db::Dialect::Postgres {
            sqlx::query("LOCK TABLE report_stores IN EXCLUSIVE MODE").execute(&mut *tx).await?;
        }
        for table in [
            "report_stores",
            "report_orders",
            "sales_ledger",
            "daily_sales",
            "daily_skus",
            "daily_states",
            "daily_areas",
            "daily_customers",
            "daily_state_sales",
            "daily_staff",
            "report_skus",
            "report_fee_charges",
            "daily_fees",
        ] {
            sqlx::query(&format!("DELETE FROM {table}")).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// When the store's figures last changed.
    pub async fn updated_at(&self, store_id: i64) -> Result<Option<i64>> {
        Ok(sqlx::query_scalar("SELECT updated_at FROM report_stores WHERE store_id = $1")
            .bind(store_id)
            .fetch_optional(self.db.pool())
            .await?)
    }

    /// A store's sales from `from` to `to` per day and channel.
    pub async fn daily(&self, store_id: i64, from: Day, to: Day) -> Result<Vec<(Day, String, Figures)>> {
        let rows = sqlx::query(&format!(
            "SELECT day, channel, {SUMS} FROM daily_sales WHERE store_id = $1 AND day >= $2 AND day <= $3 \
             GROUP BY day, channel ORDER BY day, channel"
        ))
        .bind(store_id)
        .bind(from)
        .bind(to)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| Ok((r.try_get::<i64, _>(0)?, r.try_get::<String, _>(1)?, figures_at(r, 2)?)))
            .collect::<std::result::Result<Vec<_>, sqlx::Error>>()?)
    }

    /// The SKUs a period sold, those whose product name or SKU code holds `search`, in
    /// `sort` order, one page of them, each with its sales in the period before; and the
    /// totals of every SKU sold in both periods.
    pub async fn sold_items(
        &self,
        store_id: i64,
        span: &Span,
        search: &str,
        sort: SoldSort,
        page: PageRequest,
    ) -> Result<SoldItems> {
        let pool = self.db.pool();
        let totals = |from: Day, to: Day| async move {
            let r = sqlx::query(
                "SELECT CAST(COUNT(*) AS BIGINT), CAST(COALESCE(SUM(units), 0) AS BIGINT), CAST(COALESCE(SUM(net), 0) AS BIGINT), \
                 CAST(COALESCE(SUM(net_ex_vat), 0) AS BIGINT), CAST(COALESCE(SUM(cost), 0) AS BIGINT) FROM ( \
                 SELECT sku_id, SUM(units) AS units, SUM(net) AS net, SUM(net_ex_vat) AS net_ex_vat, SUM(cost) AS cost \
                 FROM daily_skus WHERE store_id = $1 AND day >= $2 AND day <= $3 GROUP BY sku_id \
                 HAVING SUM(units) <> 0 OR SUM(net) <> 0) s",
            )
            .bind(store_id)
            .bind(from)
            .bind(to)
            .fetch_one(pool)
            .await?;
            Ok::<_, sqlx::Error>(SoldTotals {
                skus: r.try_get(0)?,
                units: r.try_get(1)?,
                net: r.try_get(2)?,
                net_ex_vat: r.try_get(3)?,
                cost: r.try_get(4)?,
            })
        };
        let current = totals(span.from, span.to).await?;
        let previous = totals(span.previous_from, span.previous_to).await?;
        let term = search.trim().to_lowercase();
        let filter = if term.is_empty() {
            ""
        } else {
            " AND (LOWER(COALESCE(n.product_name, '')) LIKE $4 ESCAPE '\\' OR LOWER(COALESCE(n.sku_code, '')) LIKE $4 ESCAPE '\\')"
        };
        let pattern = format!("%{}%", term.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
        let grouped = format!(
            "FROM daily_skus d LEFT JOIN report_skus n ON n.store_id = d.store_id AND n.sku_id = d.sku_id \
             WHERE d.store_id = $1 AND d.day >= $2 AND d.day <= $3{filter} GROUP BY d.sku_id \
             HAVING SUM(d.units) <> 0 OR SUM(d.net) <> 0"
        );
        let count_sql = format!("SELECT CAST(COUNT(*) AS BIGINT) FROM (SELECT d.sku_id {grouped}) s");
        let mut q = sqlx::query_scalar::<_, i64>(&count_sql).bind(store_id).bind(span.from).bind(span.to);
        if !term.is_empty() {
            q = q.bind(pattern.as_str());
        }
        let matching = q.fetch_one(pool).await?;
        let page = page.resolve(matching);
        let order = match sort {
            SoldSort::Net => "SUM(d.net)",
            SoldSort::Units => "SUM(d.units)",
            SoldSort::Profit => "SUM(d.net_ex_vat) - SUM(d.cost)",
        };
        let (limit_at, offset_at) = if term.is_empty() { (4, 5) } else { (5, 6) };
        let sql = format!(
            "SELECT d.sku_id, CAST(COALESCE(MAX(n.product_id), 0) AS BIGINT) AS product_id, COALESCE(MAX(n.product_name), '') AS product_name, \
             COALESCE(MAX(n.sku_code), '') AS sku_code, COALESCE(MAX(n.variant), '') AS variant, \
             CAST(SUM(d.units) AS BIGINT) AS units, CAST(SUM(d.net) AS BIGINT) AS net, \
             CAST(SUM(d.net_ex_vat) AS BIGINT) AS net_ex_vat, CAST(SUM(d.cost) AS BIGINT) AS cost \
             {grouped} ORDER BY {order} DESC, d.sku_id LIMIT ${limit_at} OFFSET ${offset_at}"
        );
        let mut q = sqlx::query_as::<_, SkuSales>(&sql).bind(store_id).bind(span.from).bind(span.to);
        if !term.is_empty() {
            q = q.bind(pattern.as_str());
        }
        let rows = q.bind(page.fetch).bind(page.offset).fetch_all(pool).await?;
        let mut before: BTreeMap<i64, SkuSales> = BTreeMap::new();
        if !rows.is_empty() {
            let list = (0..rows.len()).map(|i| format!("${}", i + 4)).collect::<Vec<_>>().join(", ");
            let sql = format!(
                "SELECT sku_id, CAST(SUM(units) AS BIGINT) AS units, CAST(SUM(net) AS BIGINT) AS net, \
                 CAST(SUM(net_ex_vat) AS BIGINT) AS net_ex_vat, CAST(SUM(cost) AS BIGINT) AS cost \
                 FROM daily_skus WHERE store_id = $1 AND day >= $2 AND day <= $3 AND sku_id IN ({list}) GROUP BY sku_id"
            );
            let mut q = sqlx::query(&sql).bind(store_id).bind(span.previous_from).bind(span.previous_to);
            for r in &rows {
                q = q.bind(r.sku_id);
            }
            for r in q.fetch_all(pool).await? {
                let sku_id: i64 = r.try_get(0)?;
                let s = SkuSales {
                    sku_id,
                    units: r.try_get(1)?,
                    net: r.try_get(2)?,
                    net_ex_vat: r.try_get(3)?,
                    cost: r.try_get(4)?,
                    ..Default::default()
                };
                before.insert(sku_id, s);
            }
        }
        let items = rows
            .into_iter()
            .map(|r| {
                let b = before.remove(&r.sku_id).unwrap_or(SkuSales { sku_id: r.sku_id, ..Default::default() });
                let b = SkuSales {
                    product_id: r.product_id,
                    product_name: r.product_name.clone(),
                    sku_code: r.sku_code.clone(),
                    variant: r.variant.clone(),
                    ..b
                };
                (r, b)
            })
            .collect();
        Ok(SoldItems { current, previous, page: Some(page), items, updated_at: self.updated_at(store_id).await? })
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
    let skus: Vec<(&(Day, i64), &SkuFigures)> = d.skus.iter().collect();
    insert_rows(
        tx,
        "INSERT INTO daily_skus (store_id, day, sku_id, units, net, net_ex_vat, cost)",
        "ON CONFLICT (store_id, day, sku_id) DO UPDATE SET units = daily_skus.units + excluded.units, \
         net = daily_skus.net + excluded.net, net_ex_vat = daily_skus.net_ex_vat + excluded.net_ex_vat, \
         cost = daily_skus.cost + excluded.cost",
        7,
        &skus,
        |q, ((day, sku), f)| {
            q.bind(store_id).bind(*day).bind(*sku).bind(f.units).bind(f.net).bind(f.net_ex_vat).bind(f.cost)
        },
    )
    .await?;
    let areas: Vec<(&(Day, Area), &AreaFigures)> = d.areas.iter().collect();
    insert_rows(
        tx,
        "INSERT INTO daily_areas (store_id, day, kind, name, parent, orders, cancelled, net)",
        "ON CONFLICT (store_id, kind, day, name, parent) DO UPDATE SET orders = daily_areas.orders + excluded.orders, \
         cancelled = daily_areas.cancelled + excluded.cancelled, net = daily_areas.net + excluded.net",
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
    let state_sales: Vec<(&(Day, String), &AreaFigures)> = d.state_sales.iter().collect();
    insert_rows(
        tx,
        "INSERT INTO daily_state_sales (store_id, day, state, orders, net)",
        "ON CONFLICT (store_id, day, state) DO UPDATE SET orders = daily_state_sales.orders + excluded.orders, \
         net = daily_state_sales.net + excluded.net",
        5,
        &state_sales,
        |q, ((day, state), f)| q.bind(store_id).bind(*day).bind(state.as_str()).bind(f.orders).bind(f.net),
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
