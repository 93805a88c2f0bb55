//! Storage: what the reports know of each order, the sales ledger and the daily tables
//! (written in the inbox's transaction of the event that changed them), and the reads of
//! the dashboards, which only ever sum daily rows.

use std::collections::BTreeMap;

use bo_kit::db::Db;
use bo_kit::paging::{Page, PageRequest};
use bo_kit::Result;
use sqlx::{FromRow, Row};

use crate::domain::{self, AreaFigures, Change, Counted, Day, Figures, Span, StateFigures};

mod check;
mod write;

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

/// What of a [`Summary`] to read: all of it, the totals and the channels, or the totals
/// alone (the rest left empty).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parts {
    All,
    Channels,
    Totals,
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
pub struct KeyedSales<F = AreaFigures> {
    pub current: BTreeMap<String, F>,
    pub previous: BTreeMap<String, F>,
    pub series: Vec<(Day, BTreeMap<String, F>)>,
    pub updated_at: Option<i64>,
}

/// Orders, cancellations and net, as three sums.
fn counted(m: &[i64]) -> AreaFigures {
    AreaFigures { orders: m[0], cancelled: m[1], net: m[2] }
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

    /// A period's figures, its previous period's totals, and the store's last change.
    pub async fn summary(&self, store_id: i64, span: &Span, top: i64, parts: Parts) -> Result<Summary> {
        let pool = self.db.pool();
        let total_sql = format!("SELECT {SUMS} FROM daily_sales WHERE store_id = $1 AND day >= $2 AND day <= $3");
        let total = |from: Day, to: Day| sqlx::query(&total_sql).bind(store_id).bind(from).bind(to);
        let current = figures_at(&total(span.from, span.to).fetch_one(pool).await?, 0)?;
        let previous = figures_at(&total(span.previous_from, span.previous_to).fetch_one(pool).await?, 0)?;
        let updated_at = self.updated_at(store_id).await?;
        let mut out = Summary { current, previous, updated_at, ..Default::default() };
        if parts == Parts::Totals {
            return Ok(out);
        }
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
        out.channels = by_channel(span.from, span.to).await?;
        out.previous_channels = by_channel(span.previous_from, span.previous_to).await?;
        if parts == Parts::Channels {
            return Ok(out);
        }
        // Summed per point in the database: a year's months are twelve rows, not 365.
        let point = match span.bucket {
            domain::Bucket::Day => "day",
            domain::Bucket::Month => "day / 100 * 100 + 1",
        };
        let rows = sqlx::query(&format!(
            "SELECT CAST({point} AS BIGINT), {SUMS} FROM daily_sales WHERE store_id = $1 AND day >= $2 AND day <= $3 GROUP BY 1"
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
        let top = sqlx::query_as::<_, SkuSales>(&format!(
            // The best sellers first, then their names: only the top few are joined.
            "SELECT s.sku_id, CAST(COALESCE(n.product_id, 0) AS BIGINT) AS product_id, \
             COALESCE(n.product_name, '') AS product_name, COALESCE(n.sku_code, '') AS sku_code, \
             COALESCE(n.variant, '') AS variant, s.units, s.net, s.net_ex_vat, s.cost FROM ( \
             SELECT * FROM ({}) x ORDER BY x.net DESC, x.sku_id LIMIT $4) s \
             LEFT JOIN report_skus n ON n.store_id = $1 AND n.sku_id = s.sku_id ORDER BY s.net DESC, s.sku_id",
            domain::sku_sums(span.from, span.to)
        ))
        .bind(store_id)
        .bind(span.from)
        .bind(span.to)
        .bind(top)
        .fetch_all(pool)
        .await?;
        out.states = sqlx::query_as(
            "SELECT state, CAST(SUM(orders) AS BIGINT) FROM daily_states WHERE store_id = $1 AND day >= $2 AND day <= $3 \
             GROUP BY state HAVING SUM(orders) <> 0 ORDER BY state",
        )
        .bind(store_id)
        .bind(span.from)
        .bind(span.to)
        .fetch_all(pool)
        .await?;
        out.series = by_bucket.into_iter().collect();
        out.top = top;
        Ok(out)
    }

    /// The places of one kind a period's orders went to, the `limit` with the largest net
    /// (then the most orders, then by name), each with its figures in the period before;
    /// and every place's totals in both periods.
    pub async fn top_areas(&self, store_id: i64, span: &Span, kind: &str, limit: i64) -> Result<TopAreas> {
        let pool = self.db.pool();
        // Whole months (a month, a quarter, a year) sum a row per place and month.
        let grouped = |from: Day, to: Day| {
            format!(
                "FROM {} WHERE store_id = $1 AND kind = $2 AND day >= $3 AND day <= $4 \
                 GROUP BY name, parent HAVING SUM(orders) <> 0 OR SUM(cancelled) <> 0 OR SUM(net) <> 0",
                domain::areas_table(from, to)
            )
        };
        let totals = |from: Day, to: Day| {
            let sql = format!(
                "SELECT CAST(COUNT(*) AS BIGINT), CAST(COALESCE(SUM(o), 0) AS BIGINT), CAST(COALESCE(SUM(c), 0) AS BIGINT), \
                 CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM (SELECT SUM(orders) AS o, SUM(cancelled) AS c, SUM(net) AS n {}) s",
                grouped(from, to)
            );
            async move {
                let r = sqlx::query(&sql).bind(store_id).bind(kind).bind(from).bind(to).fetch_one(pool).await?;
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
             {} ORDER BY SUM(net) DESC, SUM(orders) DESC, name, parent LIMIT $5",
            grouped(span.from, span.to)
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
                 FROM {} WHERE store_id = $1 AND kind = $2 AND day >= $3 AND day <= $4 AND name IN ({list}) \
                 GROUP BY name, parent",
                domain::areas_table(span.previous_from, span.previous_to)
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
        let select = "SELECT day, kind AS k, orders AS o, cancelled AS c, net AS n FROM daily_customers";
        self.keyed(select, &["o", "c", "n"], counted, store_id, span).await
    }

    /// The period's orders by the day they were placed and their state now, with what they
    /// come to and what of it is paid, beside the period before (the sales report).
    pub async fn state_sales(&self, store_id: i64, span: &Span) -> Result<KeyedSales<StateFigures>> {
        let select = "SELECT day, state AS k, orders AS o, net AS n, total AS t, paid AS p FROM daily_state_sales";
        let decode = |m: &[i64]| StateFigures { orders: m[0], net: m[1], total: m[2], paid: m[3] };
        self.keyed(select, &["o", "n", "t", "p"], decode, store_id, span).await
    }

    /// The period's sales by the member who made the orders (user id as text; 0 for none),
    /// beside the period before (the sales per employee).
    pub async fn staff(&self, store_id: i64, span: &Span) -> Result<KeyedSales> {
        let select = "SELECT day, CAST(user_id AS TEXT) AS k, orders AS o, cancelled AS c, net AS n FROM daily_staff";
        self.keyed(select, &["o", "c", "n"], counted, store_id, span).await
    }

    /// The rows of `select` (day, a daily table's key `k` and its `measures`) summed per key
    /// over the period and the one before, and per key and bucket of the period; `decode`
    /// makes the figures of a key's sums (in the order of `measures`).
    async fn keyed<F: Counted>(
        &self,
        select: &str,
        measures: &[&str],
        decode: impl Fn(&[i64]) -> F,
        store_id: i64,
        span: &Span,
    ) -> Result<KeyedSales<F>> {
        // Summed per point in the database: a month's days, a year's months (the periods of
        // monthly points are whole months, so each point falls in one of the two periods).
        let point = match span.bucket {
            domain::Bucket::Day => "day",
            domain::Bucket::Month => "day / 100 * 100 + 1",
        };
        let sums: Vec<String> = measures.iter().map(|m| format!("CAST(SUM({m}) AS BIGINT)")).collect();
        let rows = sqlx::query(&format!(
            "SELECT CAST({point} AS BIGINT), k, {} FROM ({select} WHERE store_id = $1 AND day >= $2 AND day <= $3) x \
             GROUP BY 1, 2",
            sums.join(", ")
        ))
        .bind(store_id)
        .bind(span.previous_from.min(span.from))
        .bind(span.to.max(span.previous_to))
        .fetch_all(self.db.pool())
        .await?;
        let starts = domain::buckets(span.from, span.to, span.bucket);
        let place: BTreeMap<Day, usize> = starts.iter().enumerate().map(|(i, d)| (*d, i)).collect();
        let mut out = KeyedSales {
            current: BTreeMap::new(),
            previous: BTreeMap::new(),
            series: starts.iter().map(|d| (*d, BTreeMap::new())).collect(),
            updated_at: self.updated_at(store_id).await?,
        };
        let add = |into: &mut BTreeMap<String, F>, kind: &str, f: F| {
            let e = into.entry(kind.to_string()).or_default();
            *e = e.plus(f, 1);
        };
        for r in rows {
            let day: Day = r.try_get(0)?;
            let kind: String = r.try_get(1)?;
            let m = (0..measures.len()).map(|i| r.try_get(i + 2)).collect::<std::result::Result<Vec<i64>, _>>()?;
            let f = decode(&m);
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

    /// When the store's figures last changed.
    pub async fn updated_at(&self, store_id: i64) -> Result<Option<i64>> {
        Ok(sqlx::query_scalar("SELECT updated_at FROM report_stores WHERE store_id = $1")
            .bind(store_id)
            .fetch_optional(self.db.pool())
            .await?)
    }

    /// A store's sales from `from` to `to` per bucket (its first day) and channel, the
    /// channels summed under the empty one unless `by_channel`: a year's are twelve rows per
    /// channel, not 365.
    pub async fn daily(
        &self,
        store_id: i64,
        from: Day,
        to: Day,
        bucket: domain::Bucket,
        by_channel: bool,
    ) -> Result<Vec<(Day, String, Figures)>> {
        let point = match bucket {
            domain::Bucket::Day => "day",
            domain::Bucket::Month => "day / 100 * 100 + 1",
        };
        let channel = if by_channel { "channel" } else { "CAST('' AS TEXT)" };
        let rows = sqlx::query(&format!(
            "SELECT CAST({point} AS BIGINT) AS point, {channel} AS ch, {SUMS} FROM daily_sales \
             WHERE store_id = $1 AND day >= $2 AND day <= $3 GROUP BY 1, 2 ORDER BY 1, 2"
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
        let SoldItems { current, previous, updated_at, .. } = self.sold_totals(store_id, span).await?;
        let term = search.trim().to_lowercase();
        let filter = if term.is_empty() {
            ""
        } else {
            " AND (LOWER(COALESCE(n.product_name, '')) LIKE $4 ESCAPE '\\' OR LOWER(COALESCE(n.sku_code, '')) LIKE $4 ESCAPE '\\')"
        };
        let pattern = format!("%{}%", term.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
        let grouped = format!(
            "FROM {} d LEFT JOIN report_skus n ON n.store_id = d.store_id AND n.sku_id = d.sku_id \
             WHERE d.store_id = $1 AND d.day >= $2 AND d.day <= $3{filter} GROUP BY d.sku_id \
             HAVING SUM(d.units) <> 0 OR SUM(d.net) <> 0",
            domain::skus_table(span.from, span.to)
        );
        // Without a search every SKU sold is a match (the period's totals counted them), and
        // a page is summed first and named after: only its rows are joined to their names.
        let matching = if term.is_empty() {
            current.skus
        } else {
            let count_sql = format!("SELECT CAST(COUNT(*) AS BIGINT) FROM (SELECT d.sku_id {grouped}) s");
            sqlx::query_scalar::<_, i64>(&count_sql)
                .bind(store_id)
                .bind(span.from)
                .bind(span.to)
                .bind(pattern.as_str())
                .fetch_one(pool)
                .await?
        };
        let page = page.resolve(matching);
        let (order, inner, outer) = match sort {
            SoldSort::Net => ("SUM(d.net)", "x.net", "s.net"),
            SoldSort::Units => ("SUM(d.units)", "x.units", "s.units"),
            SoldSort::Profit => ("SUM(d.net_ex_vat) - SUM(d.cost)", "x.net_ex_vat - x.cost", "s.net_ex_vat - s.cost"),
        };
        let sql = if term.is_empty() {
            format!(
                "SELECT s.sku_id, CAST(COALESCE(n.product_id, 0) AS BIGINT) AS product_id, \
                 COALESCE(n.product_name, '') AS product_name, COALESCE(n.sku_code, '') AS sku_code, \
                 COALESCE(n.variant, '') AS variant, s.units, s.net, s.net_ex_vat, s.cost FROM ( \
                 SELECT * FROM ({}) x ORDER BY {inner} DESC, x.sku_id LIMIT $4 OFFSET $5) s \
                 LEFT JOIN report_skus n ON n.store_id = $1 AND n.sku_id = s.sku_id ORDER BY {outer} DESC, s.sku_id",
                domain::sku_sums(span.from, span.to)
            )
        } else {
            format!(
                "SELECT d.sku_id, CAST(COALESCE(MAX(n.product_id), 0) AS BIGINT) AS product_id, COALESCE(MAX(n.product_name), '') AS product_name, \
                 COALESCE(MAX(n.sku_code), '') AS sku_code, COALESCE(MAX(n.variant), '') AS variant, \
                 CAST(SUM(d.units) AS BIGINT) AS units, CAST(SUM(d.net) AS BIGINT) AS net, \
                 CAST(SUM(d.net_ex_vat) AS BIGINT) AS net_ex_vat, CAST(SUM(d.cost) AS BIGINT) AS cost \
                 {grouped} ORDER BY {order} DESC, d.sku_id LIMIT $5 OFFSET $6"
            )
        };
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
                 FROM {} WHERE store_id = $1 AND day >= $2 AND day <= $3 AND sku_id IN ({list}) GROUP BY sku_id",
                domain::skus_table(span.previous_from, span.previous_to)
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
        Ok(SoldItems { current, previous, page: Some(page), items, updated_at })
    }

    /// What the SKUs a period sold add up to, and the period before's (no page of them).
    pub async fn sold_totals(&self, store_id: i64, span: &Span) -> Result<SoldItems> {
        let pool = self.db.pool();
        let totals = |from: Day, to: Day| async move {
            let r = sqlx::query(&format!(
                "SELECT CAST(COUNT(*) AS BIGINT), CAST(COALESCE(SUM(units), 0) AS BIGINT), CAST(COALESCE(SUM(net), 0) AS BIGINT), \
                 CAST(COALESCE(SUM(net_ex_vat), 0) AS BIGINT), CAST(COALESCE(SUM(cost), 0) AS BIGINT) FROM ({}) s",
                domain::sku_sums(from, to)
            ))
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
        Ok(SoldItems {
            current: totals(span.from, span.to).await?,
            previous: totals(span.previous_from, span.previous_to).await?,
            page: None,
            items: Vec::new(),
            updated_at: self.updated_at(store_id).await?,
        })
    }
}
