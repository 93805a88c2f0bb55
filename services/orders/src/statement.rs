//! Reading a bank statement or a carrier's COD remittance report (pure): a .csv or .xlsx as
//! the main Thai banks' internet banking exports it, or as a carrier lists the cash it
//! collected, into the money that came in ([`Line`]).
//!
//! Banks name their columns differently, in Thai or English, so columns are found by what
//! their headers say: a date (วันที่, Date, Transaction date), a time (เวลา, Time) unless the
//! date holds it, the money in (ฝาก, Deposit, Credit, เงินเข้า) or one amount column (จำนวนเงิน,
//! Amount; only money in counts: a negative amount or a debit is skipped), and what names the
//! transfer (รายละเอียด, Description, Details, รายการ, Reference, ผู้โอน, Sender). A COD report
//! has a tracking number column (เลขพัสดุ, Tracking) and the COD amount. Dates are read as
//! they are written: day/month/year with a Buddhist-era or Christian year (2 or 4 digits),
//! year-month-day, Thai or English month names, or a spreadsheet date; times are Thailand's.

use std::collections::HashMap;

use bo_kit::sheet::{self, text_of, Cell, SheetCells, SheetError};

/// The largest file accepted.
pub const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;
/// The most data rows.
pub const MAX_ROWS: usize = 5_000;
const HEADER_SEARCH_ROWS: u32 = 20;
const KEPT_ROWS: usize = HEADER_SEARCH_ROWS as usize + MAX_ROWS + 1;
/// Thailand is UTC+7 all year.
const THAI_OFFSET_MS: i64 = 7 * 3_600_000;

/// What kind of file it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A bank statement: transfers in.
    Bank,
    /// A carrier's COD remittance: cash collected per parcel.
    Cod,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Bank => "bank",
            Kind::Cod => "cod",
        }
    }
}

/// Money that came in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The row in the file (1-based).
    pub row: usize,
    /// When, unix ms (the day's start when only the day is known).
    pub at_ms: i64,
    /// Only the day is known.
    pub day_only: bool,
    /// Satang in.
    pub amount: i64,
    /// What names it (description, sender, reference), joined.
    pub text: String,
    /// The parcel's tracking number (COD reports).
    pub tracking: String,
}

/// Why a whole file is refused (codes as the imports').
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileError {
    NotReadable,
    TooLarge,
    WrongTemplate,
    Empty,
    TooManyRows,
}

impl FileError {
    pub fn code(&self) -> &'static str {
        match self {
            FileError::NotReadable => "import_wrong_file_type",
            FileError::TooLarge => "import_too_large",
            FileError::WrongTemplate => "statement_columns_not_found",
            FileError::Empty => "import_empty",
            FileError::TooManyRows => "import_too_many_rows",
        }
    }
}

/// A row that could not be read: (row, field, code).
pub type RowError = (usize, &'static str, &'static str);

/// A file read: its kind, the money in, and the rows that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub kind: Kind,
    pub lines: Vec<Line>,
    pub errors: Vec<RowError>,
}

/// Reads a statement or a COD report.
pub fn parse(bytes: &[u8]) -> Result<Statement, FileError> {
    let (cells, _) = sheet::read_table(bytes, MAX_FILE_BYTES, KEPT_ROWS).map_err(|e| match e {
        SheetError::TooLarge => FileError::TooLarge,
        _ => FileError::NotReadable,
    })?;
    read(&cells)
}

fn norm(s: &str) -> String {
    s.trim().trim_end_matches('*').trim().to_lowercase().split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The columns of a header row.
#[derive(Debug, Default)]
struct Columns {
    date: Option<u32>,
    time: Option<u32>,
    credit: Option<u32>,
    debit: Option<u32>,
    amount: Option<u32>,
    texts: Vec<u32>,
    tracking: Option<u32>,
}

fn columns(row: &HashMap<u32, Cell>) -> Columns {
    let mut cols: Vec<(u32, String)> = row
        .iter()
        .filter_map(|(c, v)| match v {
            Cell::Text(s) => Some((*c, norm(s))),
            _ => None,
        })
        .collect();
    cols.sort();
    let has = |h: &str, words: &[&str]| words.iter().any(|w| h.contains(w));
    let mut out = Columns::default();
    for (c, h) in cols {
        if has(&h, &["คงเหลือ", "balance"]) {
            continue;
        }
        if out.tracking.is_none() && has(&h, &["เลขพัสดุ", "หมายเลขพัสดุ", "tracking", "awb", "เลขที่พัสดุ"])
        {
            out.tracking = Some(c);
        } else if out.date.is_none() && has(&h, &["วันที่", "date"]) {
            out.date = Some(c);
        } else if out.time.is_none() && has(&h, &["เวลา", "time"]) {
            out.time = Some(c);
        } else if out.credit.is_none() && has(&h, &["ฝาก", "deposit", "credit", "เงินเข้า", "รับเงิน"])
        {
            out.credit = Some(c);
        } else if out.debit.is_none() && has(&h, &["ถอน", "withdraw", "debit", "เงินออก"]) {
            out.debit = Some(c);
        } else if out.amount.is_none() && has(&h, &["จำนวนเงิน", "amount", "ยอดเงิน", "ยอด cod", "cod"])
        {
            out.amount = Some(c);
        } else if has(
            &h,
            &[
                "รายละเอียด",
                "description",
                "detail",
                "รายการ",
                "reference",
                "อ้างอิง",
                "ผู้โอน",
                "sender",
                "from",
                "memo",
                "หมายเหตุ",
                "ชื่อ",
                "name",
            ],
        ) {
            out.texts.push(c);
        }
    }
    out
}

fn read(cells: &SheetCells) -> Result<Statement, FileError> {
    let (header_row, cols) = cells
        .rows
        .range(..HEADER_SEARCH_ROWS)
        .map(|(r, row)| (*r, columns(row)))
        .find(|(_, c)| c.date.is_some() && (c.credit.is_some() || c.amount.is_some()))
        .ok_or(FileError::WrongTemplate)?;
    let kind = if cols.tracking.is_some() { Kind::Cod } else { Kind::Bank };
    let data: Vec<u32> = cells.non_empty.range(header_row + 1..).copied().collect();
    if data.len() > MAX_ROWS {
        return Err(FileError::TooManyRows);
    }
    let empty = HashMap::new();
    let mut out = Statement { kind, lines: Vec::new(), errors: Vec::new() };
    for r in data {
        let row = cells.rows.get(&r).unwrap_or(&empty);
        let number = r as usize + 1;
        // The money in: the credit column, else one amount column (positive, not a debit).
        let amount = match (cols.credit, cols.amount) {
            (Some(c), _) => match row.get(&c) {
                None => continue,
                Some(v) => money(v),
            },
            (None, Some(c)) => match row.get(&c) {
                None => continue,
                Some(v) => money(v),
            },
            (None, None) => continue,
        };
        let amount = match amount {
            Some(a) if a > 0 => a,
            Some(_) => continue,
            None => {
                out.errors.push((number, "amount", "validation.money"));
                continue;
            }
        };
        if cols.credit.is_none() && cols.debit.is_some_and(|d| row.get(&d).and_then(money).is_some_and(|x| x > 0)) {
            continue;
        }
        let Some(date_cell) = cols.date.and_then(|c| row.get(&c)) else {
            out.errors.push((number, "date", "validation.required"));
            continue;
        };
        let time_cell = cols.time.and_then(|c| row.get(&c));
        let Some((at_ms, day_only)) = moment(date_cell, time_cell) else {
            out.errors.push((number, "date", "validation.date"));
            continue;
        };
        let text = cols
            .texts
            .iter()
            .filter_map(|c| text_of(row.get(c)).ok())
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" · ");
        let tracking = cols.tracking.and_then(|c| text_of(row.get(&c)).ok()).unwrap_or_default();
        if kind == Kind::Cod && tracking.is_empty() {
            out.errors.push((number, "tracking", "validation.required"));
            continue;
        }
        out.lines.push(Line { row: number, at_ms, day_only, amount, text: text.chars().take(300).collect(), tracking });
    }
    if out.lines.is_empty() && out.errors.is_empty() {
        return Err(FileError::Empty);
    }
    Ok(out)
}

/// Satang of a money cell ("1,500.00", "+1,500", "฿1,500.50", "-20", 1500.5), any sign.
fn money(v: &Cell) -> Option<i64> {
    match v {
        Cell::Int(i) => i.checked_mul(100),
        Cell::Float(f) => sheet::float_satang(*f),
        Cell::Text(s) => {
            let t: String = s.chars().filter(|c| !matches!(c, ',' | ' ' | '฿')).collect();
            let t = t.trim_end_matches("บาท").trim_end_matches("THB").trim_end_matches("thb");
            let (neg, t) = match t.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, t.strip_prefix('+').unwrap_or(t)),
            };
            if t.is_empty() {
                return None;
            }
            let v = bo_kit::money::Satang::parse_baht(t).ok()?.0;
            Some(if neg { -v } else { v })
        }
        Cell::Error => None,
    }
}

/// A Thai date and time as unix ms, and whether only the day is known.
fn moment(date: &Cell, time: Option<&Cell>) -> Option<(i64, bool)> {
    let (days, mut secs) = match date {
        Cell::Float(f) if *f > 1.0 && *f < 200_000.0 => serial(*f),
        Cell::Int(i) if *i > 1 && *i < 200_000 => serial(*i as f64),
        Cell::Text(s) => {
            let s = s.trim();
            // A date and a time in one cell: "26/11/2569 14:05", "2026-11-26T14:05:33".
            let (d, t) = match s.split_once([' ', 'T']) {
                Some((d, t)) if t.contains(':') => (d, Some(t)),
                _ => (s, None),
            };
            let days = day(d).or_else(|| day(s))?;
            (days, t.and_then(clock))
        }
        _ => return None,
    };
    if let Some(t) = time {
        let from_time = match t {
            Cell::Text(s) => clock(s.trim()),
            Cell::Float(f) if (0.0..1.0).contains(f) => Some((f * 86_400.0).round() as i64),
            _ => None,
        };
        if from_time.is_some() {
            secs = from_time;
        }
    }
    let day_only = secs.is_none();
    let ms = days * 86_400_000 + secs.unwrap_or(0) * 1000 - THAI_OFFSET_MS;
    Some((ms, day_only))
}

/// A spreadsheet's date number: days since 1899-12-30, the fraction the time of day.
fn serial(f: f64) -> (i64, Option<i64>) {
    let days = f.floor() as i64 - 25_569;
    let secs = ((f - f.floor()) * 86_400.0).round() as i64;
    (days, (secs > 0).then_some(secs))
}

/// "14:05" or "14:05:33" (or "14.05") as seconds of the day.
fn clock(s: &str) -> Option<i64> {
    let s = s.trim().trim_end_matches("น.").trim();
    let parts: Vec<&str> = s.split([':', '.']).collect();
    if parts.len() < 2 || parts.len() > 3 {
        return None;
    }
    let n: Vec<i64> = parts.iter().map(|p| p.trim().parse::<i64>().ok()).collect::<Option<_>>()?;
    let (h, m, sec) = (n[0], n[1], n.get(2).copied().unwrap_or(0));
    ((0..24).contains(&h) && (0..60).contains(&m) && (0..60).contains(&sec)).then_some(h * 3600 + m * 60 + sec)
}

const THAI_MONTHS: [&str; 12] =
    ["ม.ค.", "ก.พ.", "มี.ค.", "เม.ย.", "พ.ค.", "มิ.ย.", "ก.ค.", "ส.ค.", "ก.ย.", "ต.ค.", "พ.ย.", "ธ.ค."];
const THAI_MONTH_NAMES: [&str; 12] = [
    "มกราคม",
    "กุมภาพันธ์",
    "มีนาคม",
    "เมษายน",
    "พฤษภาคม",
    "มิถุนายน",
    "กรกฎาคม",
    "สิงหาคม",
    "กันยายน",
    "ตุลาคม",
    "พฤศจิกายน",
    "ธันวาคม",
];
const EN_MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/// A day as days since 1970-01-01.
fn day(s: &str) -> Option<i64> {
    let s = s.trim();
    if let Some((y, rest)) = s.split_once('-') {
        if y.len() == 4 {
            let (m, d) = rest.split_once('-')?;
            return civil(year(y)?, m.parse().ok()?, d.get(..2).unwrap_or(d).parse().ok()?);
        }
    }
    let parts: Vec<&str> = s.split(['/', '-', ' ']).filter(|p| !p.is_empty()).collect();
    if parts.len() != 3 {
        return None;
    }
    let d: u32 = parts[0].parse().ok()?;
    let m: u32 = match parts[1].parse::<u32>() {
        Ok(m) => m,
        Err(_) => {
            let name = parts[1].to_lowercase();
            let at = |list: &[&str]| {
                list.iter().position(|x| x.to_lowercase() == name || name.starts_with(&x.to_lowercase()))
            };
            (at(&THAI_MONTHS)
                .or_else(|| at(&THAI_MONTH_NAMES))
                .or_else(|| EN_MONTHS.iter().position(|x| name.starts_with(x)))? as u32)
                + 1
        }
    };
    civil(year(parts[2])?, m, d)
}

/// A year as written: Buddhist era (2569, or 69) or Christian (2026, or 26).
fn year(y: &str) -> Option<i64> {
    let n: i64 = y.trim().parse().ok()?;
    Some(match n {
        2400.. => n - 543,
        1900..=2399 => n,
        // Two digits: 50 and up are Buddhist-era years (25xx), below are this century's.
        50..=99 => 2500 + n - 543,
        0..=49 => 2000 + n,
        _ => return None,
    })
}

/// Days since 1970-01-01 of a valid date.
fn civil(y: i64, m: u32, d: u32) -> Option<i64> {
    let month = ::time::Month::try_from(u8::try_from(m).ok()?).ok()?;
    let date = ::time::Date::from_calendar_date(i32::try_from(y).ok()?, month, u8::try_from(d).ok()?).ok()?;
    Some(i64::from(date.to_julian_day()) - 2_440_588)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-11-26 00:00 in Thailand, unix ms.
    const NOV_26: i64 = 1_795_626_000_000;

    #[test]
    fn days_and_times_as_banks_write_them() {
        for d in [
            "26/11/2569",
            "26/11/2026",
            "2026-11-26",
            "26-11-69",
            "26 พ.ย. 2569",
            "26 พฤศจิกายน 2569",
            "26 Nov 2026",
            "26/11/26",
        ] {
            assert_eq!(day(d), Some(20_783), "{d}");
        }
        assert_eq!(day("31/02/2569"), None);
        assert_eq!(day("hello"), None);
        assert_eq!(clock("14:05"), Some(50_700));
        assert_eq!(clock("14.05.30 น."), Some(50_730));
        assert_eq!(clock("25:00"), None);
        let at = |d: &str, t: Option<&str>| moment(&Cell::Text(d.into()), t.map(|t| Cell::Text(t.into())).as_ref());
        assert_eq!(at("26/11/2569", Some("14:05")), Some((NOV_26 + 50_700_000, false)));
        assert_eq!(at("26/11/2569 14:05", None), Some((NOV_26 + 50_700_000, false)));
        assert_eq!(at("2026-11-26T14:05:00", None), Some((NOV_26 + 50_700_000, false)));
        assert_eq!(at("26/11/2569", None), Some((NOV_26, true)));
        // A spreadsheet date with its time.
        assert_eq!(moment(&Cell::Float(46_352.5), None), Some((NOV_26 + 12 * 3_600_000, false)));
    }

    #[test]
    fn money_as_banks_write_it() {
        assert_eq!(money(&Cell::Text("1,500.00".into())), Some(150_000));
        assert_eq!(money(&Cell::Text("+1,500.50".into())), Some(150_050));
        assert_eq!(money(&Cell::Text("฿ 99".into())), Some(9_900));
        assert_eq!(money(&Cell::Text("-20.00".into())), Some(-2_000));
        assert_eq!(money(&Cell::Float(1500.5)), Some(150_050));
        assert_eq!(money(&Cell::Text("abc".into())), None);
    }

    #[test]
    fn a_kasikorn_style_statement() {
        let csv = "\u{FEFF}บัญชีเงินฝากออมทรัพย์ 123-4-56789-0\n\
                   วันที่,เวลา,รายการ,ถอนเงิน,ฝากเงิน,ยอดคงเหลือ,ช่องทาง,รายละเอียด\n\
                   26/11/2569,09:15,รับโอนเงิน,,738.00,10738.00,K PLUS,จาก นาย สมชาย ใจดี SO2569-000123\n\
                   26/11/2569,10:00,ถอนเงิน,500.00,,10238.00,ATM,\n\
                   26/11/2569,11:30,รับโอนเงิน,,\"1,250.50\",11488.50,PromptPay,จาก น.ส. มานี มีนา\n\
                   26/11/2569,xx,รับโอนเงิน,,10.00,,,\n";
        let s = parse(csv.as_bytes()).unwrap();
        assert_eq!(s.kind, Kind::Bank);
        assert_eq!(s.lines.len(), 3, "the withdrawal is not money in");
        assert_eq!(s.lines[0].row, 3);
        assert_eq!(s.lines[0].amount, 73_800);
        assert_eq!(s.lines[0].at_ms, NOV_26 + (9 * 3600 + 15 * 60) * 1000);
        assert!(
            s.lines[0].text.contains("รับโอนเงิน") && s.lines[0].text.contains("SO2569-000123"),
            "{}",
            s.lines[0].text
        );
        assert_eq!(s.lines[1].amount, 125_050);
        // A time that is not one: the day is still known.
        assert_eq!((s.lines[2].at_ms, s.lines[2].day_only), (NOV_26, true));
        assert_eq!(s.errors, vec![]);
    }

    #[test]
    fn an_english_statement_with_one_amount_column() {
        let csv = "Date,Time,Description,Amount,Balance\n2026-11-26,14:05,Transfer from SOMCHAI,738.00,1000\n2026-11-26,15:00,Payment to shop,-200.00,800\n2026-11-27,,Deposit,abc,\n";
        let s = parse(csv.as_bytes()).unwrap();
        assert_eq!(s.lines.len(), 1);
        assert_eq!(s.lines[0].text, "Transfer from SOMCHAI");
        assert_eq!(s.errors, vec![(4, "amount", "validation.money")]);
    }

    #[test]
    fn a_cod_remittance_report() {
        let csv = "วันที่โอน,เลขพัสดุ,ชื่อผู้รับ,ยอด COD\n26/11/2569,TH0123456789A,สมชาย,738\n26/11/2569,,มานี,100\n";
        let s = parse(csv.as_bytes()).unwrap();
        assert_eq!(s.kind, Kind::Cod);
        assert_eq!(s.lines.len(), 1);
        assert_eq!(
            (s.lines[0].tracking.as_str(), s.lines[0].amount, s.lines[0].day_only),
            ("TH0123456789A", 73_800, true)
        );
        assert_eq!(s.errors, vec![(3, "tracking", "validation.required")]);
    }

    #[test]
    fn refuses_what_is_not_a_statement() {
        assert_eq!(parse(b"name,phone\nA,1").unwrap_err(), FileError::WrongTemplate);
        assert_eq!(parse(b"Date,Amount\n").unwrap_err(), FileError::Empty);
        assert_eq!(FileError::WrongTemplate.code(), "statement_columns_not_found");
    }
}
