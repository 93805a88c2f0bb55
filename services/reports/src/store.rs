//! Storage: what the reports know of each order, the sales ledger and the daily tables
//! (written in the inbox's transaction of the event that changed them), and the reads of
//! the dashboards, which only ever sum daily rows.

use std::collections::BTreeMap;

use bo_kit::db::{Db, Tx};
use bo_kit::time::now_ms;
use bo_kit::Result;
use sqlx::{FromRow, Row};

use crate::domain::{self, Change, Content, Contribution, Day, Figures, Order, Span};

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
    /// Per bucket (its first day), every bucket of the period.
    pub series: Vec<(Day, Figures)>,
    pub top: Vec<SkuSales>,
    /// Orders per state now, by state.
    pub states: Vec<(String, i64)>,
    /// When the store's figures last changed (unix ms).
    pub updated_at: Option<i64>,
}

#[derive(FromRow)]
struct OrderRow {
    channel: String,
    placed_day: i64,
    content: Option<String>,
    content_version: i64,
    state: String,
    state_version: i64,
    cancelled_day: Option<i64>,
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

    /// Applies what an event tells of an order, inside the event's transaction: the order's
    /// facts, the ledger rows of the difference it makes, the daily tables by that
    /// difference, and the names of the SKUs it sold. Answers whether anything changed.
    pub async fn apply(
        tx: &mut Tx,
        store_id: i64,
        order_id: i64,
        event_id: &str,
        change: Change,
        names: &[SkuNames],
    ) -> Result<bool> {
        let now = now_ms();
        // The store's row first: every writer of a store's figures takes turns on it.
        sqlx::query(
            "INSERT INTO report_stores (store_id, updated_at) VALUES ($1, $2) \
             ON CONFLICT (store_id) DO UPDATE SET updated_at = excluded.updated_at",
        )
        .bind(store_id)
        .bind(now)
        .execute(&mut **tx)
        .await?;
        let lock = tx.for_update();
        let row: Option<OrderRow> = sqlx::query_as(&format!(
            "SELECT channel, placed_day, content, content_version, state, state_version, cancelled_day \
             FROM report_orders WHERE store_id = $1 AND order_id = $2{lock}"
        ))
        .bind(store_id)
        .bind(order_id)
        .fetch_optional(&mut **tx)
        .await?;
        let exists = row.is_some();
        let mut order = match row {
            Some(r) => Order {
                channel: r.channel,
                placed_day: r.placed_day,
                content: r
                    .content
                    .as_deref()
                    .map(serde_json::from_str::<Content>)
                    .transpose()
                    .map_err(anyhow::Error::from)?,
                content_version: r.content_version,
                state: r.state,
                state_version: r.state_version,
                cancelled_day: r.cancelled_day,
            },
            None => Order::default(),
        };
        let before = domain::contribution(&order);
        let content_before = order.content_version;
        if !domain::apply(&mut order, change) {
            return Ok(false);
        }
        let d = domain::delta(&before, &domain::contribution(&order));
        let content = order.content.as_ref().map(serde_json::to_string).transpose().map_err(anyhow::Error::from)?;
        let q = if exists {
            "UPDATE report_orders SET channel = $3, placed_day = $4, content = $5, content_version = $6, state = $7, \
             state_version = $8, cancelled_day = $9, updated_at = $10 WHERE store_id = $1 AND order_id = $2"
        } else {
            "INSERT INTO report_orders (store_id, order_id, channel, placed_day, content, content_version, state, \
             state_version, cancelled_day, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
        };
        sqlx::query(q)
            .bind(store_id)
            .bind(order_id)
            .bind(&order.channel)
            .bind(order.placed_day)
            .bind(content)
            .bind(order.content_version)
            .bind(&order.state)
            .bind(order.state_version)
            .bind(order.cancelled_day)
            .bind(now)
            .execute(&mut **tx)
            .await?;
        write_delta(tx, store_id, order_id, event_id, &order.channel, &d, now).await?;
        if order.content_version > content_before {
            keep_names(tx, store_id, names).await?;
        }
        Ok(true)
    }

    /// A period's figures, its previous period's totals, and the store's last change.
    pub async fn summary(&self, store_id: i64, span: &Span, top: i64) -> Result<Summary> {
        let pool = self.db.pool();
        let total_sql = format!("SELECT {SUMS} FROM daily_sales WHERE store_id = $1 AND day >= $2 AND day <= $3");
        let total = |from: Day, to: Day| sqlx::query(&total_sql).bind(store_id).bind(from).bind(to);
        let current = figures_at(&total(span.from, span.to).fetch_one(pool).await?, 0)?;
        let previous = figures_at(&total(span.previous_from, span.previous_to).fetch_one(pool).await?, 0)?;
        let rows = sqlx::query(&format!(
            "SELECT channel, {SUMS} FROM daily_sales WHERE store_id = $1 AND day >= $2 AND day <= $3 GROUP BY channel"
        ))
        .bind(store_id)
        .bind(span.from)
        .bind(span.to)
        .fetch_all(pool)
        .await?;
        let mut channels = rows
            .iter()
            .map(|r| Ok((r.try_get::<String, _>(0)?, figures_at(r, 1)?)))
            .collect::<std::result::Result<Vec<_>, sqlx::Error>>()?;
        channels.retain(|(_, f)| !f.is_zero());
        channels.sort_by(|a, b| b.1.net.cmp(&a.1.net).then_with(|| a.0.cmp(&b.0)));
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
        Ok(Summary { current, previous, channels, series: by_bucket.into_iter().collect(), top, states, updated_at })
    }
}

/// The VALUES list of a multi-row INSERT: `rows` rows of `cols` SQL parameters each,
/// numbered from `$1` ("($1, $2), ($3, $4)" for 2 × 2).
fn values(rows: usize, cols: usize) -> String {
    (0..rows)
        .map(|r| format!("({})", (1..=cols).map(|c| format!("${}", r * cols + c)).collect::<Vec<_>>().join(", ")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes the ledger rows of `d` and adds it to the daily tables: one statement per table,
/// its rows in key order (so two writers of the same days take the rows in the same order).
async fn write_delta(
    tx: &mut Tx,
    store_id: i64,
    order_id: i64,
    event_id: &str,
    channel: &str,
    d: &Contribution,
    now: i64,
) -> Result<()> {
    // The ledger: the sales rows (sku 0), then the SKU rows.
    let mut rows: Vec<(Day, &str, i64, Figures)> =
        d.sales.iter().map(|((day, ch), f)| (*day, ch.as_str(), 0, *f)).collect();
    rows.extend(d.skus.iter().map(|((day, sku), f)| {
        (
            *day,
            channel,
            *sku,
            Figures { units: f.units, net: f.net, net_ex_vat: f.net_ex_vat, cost: f.cost, ..Default::default() },
        )
    }));
    if !rows.is_empty() {
        let sql = format!(
            "INSERT INTO sales_ledger (store_id, order_id, event_id, day, channel, sku_id, orders, cancelled, units, net, \
             total, net_ex_vat, cost, shipping, recorded_at) VALUES {}",
            values(rows.len(), 15)
        );
        let mut q = sqlx::query(&sql);
        for (day, ch, sku, f) in &rows {
            q = q
                .bind(store_id)
                .bind(order_id)
                .bind(event_id)
                .bind(*day)
                .bind(*ch)
                .bind(*sku)
                .bind(f.orders)
                .bind(f.cancelled)
                .bind(f.units)
                .bind(f.net)
                .bind(f.total)
                .bind(f.net_ex_vat)
                .bind(f.cost)
                .bind(f.shipping)
                .bind(now);
        }
        q.execute(&mut **tx).await?;
    }
    if !d.sales.is_empty() {
        let sql = format!(
            "INSERT INTO daily_sales (store_id, day, channel, orders, cancelled, units, net, total, net_ex_vat, cost, shipping) \
             VALUES {} ON CONFLICT (store_id, day, channel) DO UPDATE SET \
             orders = daily_sales.orders + excluded.orders, cancelled = daily_sales.cancelled + excluded.cancelled, \
             units = daily_sales.units + excluded.units, net = daily_sales.net + excluded.net, \
             total = daily_sales.total + excluded.total, net_ex_vat = daily_sales.net_ex_vat + excluded.net_ex_vat, \
             cost = daily_sales.cost + excluded.cost, shipping = daily_sales.shipping + excluded.shipping",
            values(d.sales.len(), 11)
        );
        let mut q = sqlx::query(&sql);
        for ((day, ch), f) in &d.sales {
            q = q
                .bind(store_id)
                .bind(*day)
                .bind(ch.as_str())
                .bind(f.orders)
                .bind(f.cancelled)
                .bind(f.units)
                .bind(f.net)
                .bind(f.total)
                .bind(f.net_ex_vat)
                .bind(f.cost)
                .bind(f.shipping);
        }
        q.execute(&mut **tx).await?;
    }
    if !d.skus.is_empty() {
        let sql = format!(
            "INSERT INTO daily_skus (store_id, day, sku_id, units, net, net_ex_vat, cost) VALUES {} \
             ON CONFLICT (store_id, day, sku_id) DO UPDATE SET units = daily_skus.units + excluded.units, \
             net = daily_skus.net + excluded.net, net_ex_vat = daily_skus.net_ex_vat + excluded.net_ex_vat, \
             cost = daily_skus.cost + excluded.cost",
            values(d.skus.len(), 7)
        );
        let mut q = sqlx::query(&sql);
        for ((day, sku), f) in &d.skus {
            q = q.bind(store_id).bind(*day).bind(*sku).bind(f.units).bind(f.net).bind(f.net_ex_vat).bind(f.cost);
        }
        q.execute(&mut **tx).await?;
    }
    if !d.states.is_empty() {
        let sql = format!(
            "INSERT INTO daily_states (store_id, day, state, orders) VALUES {} \
             ON CONFLICT (store_id, day, state) DO UPDATE SET orders = daily_states.orders + excluded.orders",
            values(d.states.len(), 4)
        );
        let mut q = sqlx::query(&sql);
        for ((day, state), n) in &d.states {
            q = q.bind(store_id).bind(*day).bind(state.as_str()).bind(*n);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

/// Keeps the names of the SKUs an order sold (the newest order's names win).
async fn keep_names(tx: &mut Tx, store_id: i64, names: &[SkuNames]) -> Result<()> {
    // One row per SKU: an order may sell a SKU on two lines.
    let mut unique: Vec<&SkuNames> = Vec::with_capacity(names.len());
    for n in names {
        if !unique.iter().any(|u| u.sku_id == n.sku_id) {
            unique.push(n);
        }
    }
    if unique.is_empty() {
        return Ok(());
    }
    let sql = format!(
        "INSERT INTO report_skus (store_id, sku_id, product_id, product_name, sku_code, variant) VALUES {} \
         ON CONFLICT (store_id, sku_id) DO UPDATE SET product_id = excluded.product_id, \
         product_name = excluded.product_name, sku_code = excluded.sku_code, variant = excluded.variant",
        values(unique.len(), 6)
    );
    let mut q = sqlx::query(&sql);
    for n in unique {
        q = q
            .bind(store_id)
            .bind(n.sku_id)
            .bind(n.product_id)
            .bind(n.product_name.as_str())
            .bind(n.sku_code.as_str())
            .bind(n.variant.as_str());
    }
    q.execute(&mut **tx).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn values_number_every_parameter_once_row_by_row() {
        assert_eq!(super::values(2, 2), "($1, $2), ($3, $4)");
        assert_eq!(super::values(1, 3), "($1, $2, $3)");
        assert_eq!(super::values(0, 3), "");
    }
}
