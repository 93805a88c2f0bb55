//! Days in Thailand's time, a dashboard's periods and the period before each, and a
//! period's sales lined up over time beside the period before's.

// Days are written as their numbers are read: 2026_11_01 is 1 November 2026.
#![allow(clippy::inconsistent_digit_grouping)]

use std::collections::BTreeMap;

use time::{Date, Month};

use super::Figures;

/// Thailand's offset from UTC, seconds.
const BANGKOK_S: i64 = 7 * 3600;

/// A day as a number, YYYYMMDD (its order is the days' order).
pub type Day = i64;

/// The day of a moment (unix ms) in Thailand's time.
pub fn day_of(ms: i64) -> Day {
    let d = time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000) + BANGKOK_S)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
        .date();
    day_number(d)
}

fn day_number(d: Date) -> Day {
    i64::from(d.year()) * 10_000 + i64::from(u8::from(d.month())) * 100 + i64::from(d.day())
}

fn date_of(day: Day) -> Option<Date> {
    let month = Month::try_from(u8::try_from((day / 100) % 100).ok()?).ok()?;
    Date::from_calendar_date(i32::try_from(day / 10_000).ok()?, month, u8::try_from(day % 100).ok()?).ok()
}

/// A day as YYYY-MM-DD.
pub fn day_text(day: Day) -> String {
    format!("{:04}-{:02}-{:02}", day / 10_000, (day / 100) % 100, day % 100)
}

/// Reads YYYY-MM-DD (a real day, years 2000 to 2999).
pub fn parse_day(text: &str) -> Option<Day> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let part = |r: std::ops::Range<usize>| text.get(r)?.parse::<i64>().ok();
    let day = part(0..4)? * 10_000 + part(5..7)? * 100 + part(8..10)?;
    (date_of(day).is_some() && (2000_00_00..3000_00_00).contains(&day)).then_some(day)
}

/// A dashboard's length of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    Daily,
    Monthly,
    Quarterly,
    Yearly,
}

/// How a period's sales over time are grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bucket {
    Day,
    Month,
}

/// The days a period covers and the period before it (first and last days, included), and
/// how its sales over time are grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub from: Day,
    pub to: Day,
    pub previous_from: Day,
    pub previous_to: Day,
    pub bucket: Bucket,
}

/// The period of `p` that holds `day`, and the one before it.
pub fn span(p: Period, day: Day) -> Option<Span> {
    let d = date_of(day)?;
    let (first, last, bucket) = match p {
        Period::Daily => (d, d, Bucket::Day),
        Period::Monthly => (first_of(d.year(), d.month())?, last_of(d.year(), d.month())?, Bucket::Day),
        Period::Quarterly => {
            let q = (u8::from(d.month()) - 1) / 3;
            let first = Month::try_from(q * 3 + 1).ok()?;
            let last = Month::try_from(q * 3 + 3).ok()?;
            (first_of(d.year(), first)?, last_of(d.year(), last)?, Bucket::Day)
        }
        Period::Yearly => (first_of(d.year(), Month::January)?, last_of(d.year(), Month::December)?, Bucket::Month),
    };
    let previous_to = first.previous_day()?;
    let previous_from = match p {
        Period::Daily => previous_to,
        Period::Monthly => first_of(previous_to.year(), previous_to.month())?,
        Period::Quarterly => {
            let m = previous_to.month().previous().previous();
            first_of(previous_to.year(), m)?
        }
        Period::Yearly => first_of(previous_to.year(), Month::January)?,
    };
    Some(Span {
        from: day_number(first),
        to: day_number(last),
        previous_from: day_number(previous_from),
        previous_to: day_number(previous_to),
        bucket,
    })
}

fn first_of(year: i32, month: Month) -> Option<Date> {
    Date::from_calendar_date(year, month, 1).ok()
}

fn last_of(year: i32, month: Month) -> Option<Date> {
    Date::from_calendar_date(year, month, time::util::days_in_month(month, year)).ok()
}

/// The first day of every bucket from `from` to `to`, in order.
pub fn buckets(from: Day, to: Day, bucket: Bucket) -> Vec<Day> {
    let mut out = Vec::new();
    let (Some(mut d), Some(end)) = (date_of(from), date_of(to)) else { return out };
    if bucket == Bucket::Month {
        d = first_of(d.year(), d.month()).unwrap_or(d);
    }
    while d <= end && out.len() < 400 {
        out.push(day_number(d));
        d = match bucket {
            Bucket::Day => match d.next_day() {
                Some(n) => n,
                None => break,
            },
            Bucket::Month => {
                let (y, m) = if d.month() == Month::December {
                    (d.year() + 1, Month::January)
                } else {
                    (d.year(), d.month().next())
                };
                match first_of(y, m) {
                    Some(n) => n,
                    None => break,
                }
            }
        };
    }
    out
}

/// The first day of the year a day falls in.
pub fn year_of(day: Day) -> Day {
    day / 10_000 * 10_000 + 101
}

/// The tables of the SKUs' sales summed over longer times, each with the first day of the
/// time a day falls in: per month and per year.
pub const ROLLUPS: [(&str, FirstDay); 2] = [("monthly_skus", month_of), ("yearly_skus", year_of)];

/// The first day of the time a day falls in.
pub type FirstDay = fn(Day) -> Day;

/// The first day of the month a day falls in.
pub fn month_of(day: Day) -> Day {
    day / 100 * 100 + 1
}

/// The table that sums the SKUs' sales from `from` to `to` with the fewest rows: the yearly
/// one for whole years, the monthly one for whole months, else the daily one.
pub fn skus_table(from: Day, to: Day) -> &'static str {
    if from % 10_000 == 101 && to % 10_000 == 1231 && from <= to {
        "yearly_skus"
    } else if whole_months(from, to) {
        "monthly_skus"
    } else {
        "daily_skus"
    }
}

/// The SKUs' sales from `from` to `to` as rows of `sku_id, units, net, net_ex_vat, cost`, one
/// per SKU that sold (or gave back) anything, read from [`skus_table`]: where the period is one
/// row of that table per SKU (a day, a month, a year) its rows as they are, else summed per
/// SKU. Its store, first and last days are the parameters $1, $2 and $3.
pub fn sku_sums(from: Day, to: Day) -> String {
    let table = skus_table(from, to);
    let one_row = match table {
        "yearly_skus" => from / 10_000 == to / 10_000,
        "monthly_skus" => from / 100 == to / 100,
        _ => from == to,
    };
    if one_row {
        format!(
            "SELECT sku_id, units, net, net_ex_vat, cost FROM {table} \
             WHERE store_id = $1 AND day >= $2 AND day <= $3 AND (units <> 0 OR net <> 0)"
        )
    } else {
        format!(
            "SELECT sku_id, CAST(SUM(units) AS BIGINT) AS units, CAST(SUM(net) AS BIGINT) AS net, \
             CAST(SUM(net_ex_vat) AS BIGINT) AS net_ex_vat, CAST(SUM(cost) AS BIGINT) AS cost FROM {table} \
             WHERE store_id = $1 AND day >= $2 AND day <= $3 GROUP BY sku_id HAVING SUM(units) <> 0 OR SUM(net) <> 0"
        )
    }
}

/// The table that sums the places' sales from `from` to `to` with the fewest rows: the
/// monthly one for whole months, else the daily one.
pub fn areas_table(from: Day, to: Day) -> &'static str {
    if whole_months(from, to) {
        "monthly_areas"
    } else {
        "daily_areas"
    }
}

/// Whether the days from `from` to `to` are whole calendar months (the first of a month to
/// the last of one): what a month, a quarter or a year is, and what the monthly sums answer.
pub fn whole_months(from: Day, to: Day) -> bool {
    from % 100 == 1 && date_of(to).and_then(|d| d.next_day()).is_some_and(|n| n.day() == 1) && from <= to
}

/// The bucket a day falls in.
pub fn bucket_of(day: Day, bucket: Bucket) -> Day {
    match bucket {
        Bucket::Day => day,
        Bucket::Month => day / 100 * 100 + 1,
    }
}

/// One point of a period's sales beside the period before's point at the same place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeriesPoint {
    pub start: Day,
    /// 0 where the period before is shorter.
    pub previous_start: Day,
    /// Per channel of the series' channels, in their order.
    pub current: Vec<Figures>,
    pub previous: Vec<Figures>,
}

/// A period's sales over time beside the period before's.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Series {
    /// The channels, largest net of the period first (then by name); one empty channel when
    /// the series is in total.
    pub channels: Vec<String>,
    pub points: Vec<SeriesPoint>,
}

/// Lines up a period's daily sales (`current`, per day and channel) with the period
/// before's (`previous`) bucket by bucket: the period's buckets are the points, the period
/// before's n-th bucket sits beside the n-th (a longer period before has its last days left
/// out of the points, never of its totals). `by_channel` keeps the channels apart;
/// otherwise they are summed under the empty channel.
pub fn series(
    span: &Span,
    current: &[(Day, String, Figures)],
    previous: &[(Day, String, Figures)],
    by_channel: bool,
) -> Series {
    let channel = |c: &String| if by_channel { c.clone() } else { String::new() };
    let mut net: BTreeMap<String, i64> = BTreeMap::new();
    for (_, c, f) in current {
        *net.entry(channel(c)).or_default() += f.net;
    }
    for (_, c, _) in previous {
        net.entry(channel(c)).or_default();
    }
    if !by_channel {
        net.entry(String::new()).or_default();
    }
    let mut channels: Vec<(String, i64)> = net.into_iter().collect();
    channels.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let channels: Vec<String> = channels.into_iter().map(|(c, _)| c).collect();
    let index: BTreeMap<&str, usize> = channels.iter().enumerate().map(|(i, c)| (c.as_str(), i)).collect();
    let fill = |from: Day, to: Day, rows: &[(Day, String, Figures)]| {
        let starts = buckets(from, to, span.bucket);
        let place: BTreeMap<Day, usize> = starts.iter().enumerate().map(|(i, d)| (*d, i)).collect();
        let mut cells = vec![vec![Figures::default(); channels.len()]; starts.len()];
        for (day, c, f) in rows {
            if let (Some(i), Some(j)) = (place.get(&bucket_of(*day, span.bucket)), index.get(channel(c).as_str())) {
                cells[*i][*j] = cells[*i][*j] + *f;
            }
        }
        (starts, cells)
    };
    let (starts, mut now) = fill(span.from, span.to, current);
    let (before_starts, mut before) = fill(span.previous_from, span.previous_to, previous);
    let points = starts
        .iter()
        .enumerate()
        .map(|(i, start)| SeriesPoint {
            start: *start,
            previous_start: before_starts.get(i).copied().unwrap_or(0),
            current: std::mem::take(&mut now[i]),
            previous: before.get_mut(i).map(std::mem::take).unwrap_or_else(|| vec![Figures::default(); channels.len()]),
        })
        .collect();
    Series { channels, points }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_thailands() {
        // 2026-11-30 17:00 UTC is 2026-12-01 00:00 in Bangkok.
        assert_eq!(day_of(1_796_058_000_000), 2026_12_01);
        assert_eq!(day_of(1_796_057_999_999), 2026_11_30);
        assert_eq!(day_text(2026_01_05), "2026-01-05");
        assert_eq!(parse_day("2026-02-28"), Some(2026_02_28));
        for bad in ["2026-02-29", "2026-13-01", "2026-1-01", "26-01-01", "1999-12-31", "", "2026/01/01"] {
            assert_eq!(parse_day(bad), None, "{bad}");
        }
        assert_eq!(parse_day("2024-02-29"), Some(2024_02_29));
    }

    #[test]
    fn periods_and_the_periods_before_them() {
        let s = |p, d| {
            let s = span(p, d).unwrap();
            (s.from, s.to, s.previous_from, s.previous_to, s.bucket)
        };
        assert_eq!(s(Period::Daily, 2026_03_01), (2026_03_01, 2026_03_01, 2026_02_28, 2026_02_28, Bucket::Day));
        assert_eq!(s(Period::Monthly, 2024_03_15), (2024_03_01, 2024_03_31, 2024_02_01, 2024_02_29, Bucket::Day));
        assert_eq!(s(Period::Monthly, 2026_01_31), (2026_01_01, 2026_01_31, 2025_12_01, 2025_12_31, Bucket::Day));
        assert_eq!(s(Period::Quarterly, 2026_05_20), (2026_04_01, 2026_06_30, 2026_01_01, 2026_03_31, Bucket::Day));
        assert_eq!(s(Period::Quarterly, 2026_02_01), (2026_01_01, 2026_03_31, 2025_10_01, 2025_12_31, Bucket::Day));
        assert_eq!(s(Period::Yearly, 2026_07_04), (2026_01_01, 2026_12_31, 2025_01_01, 2025_12_31, Bucket::Month));
    }

    #[test]
    fn a_series_lines_the_period_before_up_point_by_point() {
        let f = |net| Figures { orders: 1, net, ..Default::default() };
        let row = |day, c: &str, net| (day, c.to_string(), f(net));
        // March (31 days) beside February 2026 (28 days).
        let s = span(Period::Monthly, 2026_03_10).unwrap();
        let current = [row(2026_03_01, "line", 100), row(2026_03_01, "shopee", 500), row(2026_03_31, "line", 7)];
        let previous = [row(2026_02_01, "line", 40), row(2026_02_28, "facebook", 9)];
        let total = series(&s, &current, &previous, false);
        assert_eq!(total.channels, vec![String::new()]);
        assert_eq!(total.points.len(), 31);
        assert_eq!((total.points[0].start, total.points[0].previous_start), (2026_03_01, 2026_02_01));
        assert_eq!((total.points[0].current[0].net, total.points[0].current[0].orders), (600, 2));
        assert_eq!(total.points[0].previous[0].net, 40);
        assert_eq!(total.points[27].previous[0].net, 9);
        assert_eq!((total.points[30].previous_start, total.points[30].previous[0]), (0, Figures::default()));
        assert_eq!(total.points[30].current[0].net, 7);

        let per = series(&s, &current, &previous, true);
        // Largest net of the period first; a channel sold only before comes last.
        assert_eq!(per.channels, ["shopee", "line", "facebook"]);
        assert_eq!(per.points[0].current.iter().map(|f| f.net).collect::<Vec<_>>(), [500, 100, 0]);
        assert_eq!(per.points[27].previous[2].net, 9);

        // The year is in months; December beside last December.
        let y = span(Period::Yearly, 2026_06_01).unwrap();
        let ys = series(&y, &[row(2026_12_31, "line", 3)], &[row(2025_12_01, "line", 2)], false);
        assert_eq!(ys.points.len(), 12);
        assert_eq!((ys.points[11].start, ys.points[11].previous_start), (2026_12_01, 2025_12_01));
        assert_eq!((ys.points[11].current[0].net, ys.points[11].previous[0].net), (3, 2));
    }

    #[test]
    fn whole_months_are_from_a_first_to_a_last_day() {
        assert!(whole_months(2026_11_01, 2026_11_30));
        assert!(whole_months(2026_01_01, 2026_12_31));
        assert!(whole_months(2024_02_01, 2024_02_29));
        assert!(!whole_months(2024_02_01, 2024_02_28), "a leap February ends on the 29th");
        assert!(!whole_months(2026_11_02, 2026_11_30));
        assert!(!whole_months(2026_11_15, 2026_11_15));
        assert!(!whole_months(2026_12_01, 2026_11_30));
        let p = span(Period::Quarterly, 2026_05_20).unwrap();
        assert!(whole_months(p.from, p.to) && whole_months(p.previous_from, p.previous_to));
        assert_eq!(skus_table(p.from, p.to), "monthly_skus");
        let y = span(Period::Yearly, 2026_05_20).unwrap();
        assert_eq!(
            (skus_table(y.from, y.to), skus_table(y.previous_from, y.previous_to)),
            ("yearly_skus", "yearly_skus")
        );
        let d = span(Period::Daily, 2026_05_20).unwrap();
        assert_eq!(skus_table(d.from, d.to), "daily_skus");
        assert_eq!((month_of(2026_05_20), year_of(2026_05_20)), (2026_05_01, 2026_01_01));
        // A day, a month, a year: one row per SKU, read as it is; a quarter or a week summed.
        let summed = |from, to| sku_sums(from, to).contains("GROUP BY");
        assert!(!summed(d.from, d.to) && !summed(y.from, y.to));
        let m = span(Period::Monthly, 2026_05_20).unwrap();
        assert!(!summed(m.from, m.to) && !summed(m.previous_from, m.previous_to));
        assert!(summed(p.from, p.to), "a quarter is three months");
        assert!(summed(2026_05_20, 2026_05_26), "days of a month");
        assert!(summed(2025_01_01, 2026_12_31), "two years");
    }

    #[test]
    fn buckets_cover_the_period() {
        assert_eq!(
            buckets(2024_02_27, 2024_03_02, Bucket::Day),
            vec![2024_02_27, 2024_02_28, 2024_02_29, 2024_03_01, 2024_03_02]
        );
        let months = buckets(2026_01_01, 2026_12_31, Bucket::Month);
        assert_eq!(months.len(), 12);
        assert_eq!((months[0], months[11]), (2026_01_01, 2026_12_01));
        assert_eq!(
            buckets(2025_11_01, 2026_02_28, Bucket::Month),
            vec![2025_11_01, 2025_12_01, 2026_01_01, 2026_02_01]
        );
        assert_eq!(bucket_of(2026_07_19, Bucket::Month), 2026_07_01);
        assert_eq!(bucket_of(2026_07_19, Bucket::Day), 2026_07_19);
    }
}
