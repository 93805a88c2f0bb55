//! Formatting helpers for printed documents: money in baht and dates in Bangkok time.

/// Bangkok is UTC+7 all year.
const BANGKOK_OFFSET_MS: i64 = 7 * 3_600_000;
const DAY_MS: i64 = 86_400_000;
/// The Buddhist era is the common era plus 543 years.
const BUDDHIST_ERA_OFFSET: i64 = 543;

const THAI_MONTHS: [&str; 12] =
    ["ม.ค.", "ก.พ.", "มี.ค.", "เม.ย.", "พ.ค.", "มิ.ย.", "ก.ค.", "ส.ค.", "ก.ย.", "ต.ค.", "พ.ย.", "ธ.ค."];
const EN_MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// An amount in satang as baht with thousands separators and two decimals: `123450` gives
/// `"1,234.50"`, `-123450` gives `"-1,234.50"`. No currency sign is added.
pub fn baht(satang: i64) -> String {
    let abs = satang.unsigned_abs();
    let whole = (abs / 100).to_string();
    let mut out = String::with_capacity(whole.len() + whole.len() / 3 + 4);
    if satang < 0 {
        out.push('-');
    }
    // The first group has 1 to 3 digits, the others 3.
    let head = (whole.len() + 2) % 3 + 1;
    out.push_str(&whole[..head]);
    let mut i = head;
    while i < whole.len() {
        out.push(',');
        out.push_str(&whole[i..i + 3]);
        i += 3;
    }
    out.push_str(&format!(".{:02}", abs % 100));
    out
}

/// Bangkok local time of a UTC instant in milliseconds.
struct Local {
    year: i64,
    month: usize,
    day: u32,
    hour: i64,
    minute: i64,
}

fn bangkok(ms: i64) -> Local {
    let local = ms.saturating_add(BANGKOK_OFFSET_MS);
    let days = local.div_euclid(DAY_MS);
    let in_day = local.rem_euclid(DAY_MS) / 60_000;
    // Days since 1970-01-01 to a civil date (proleptic Gregorian), after H. Hinnant.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as usize;
    let year = yoe + era * 400 + i64::from(month <= 2);
    Local { year, month, day, hour: in_day / 60, minute: in_day % 60 }
}

/// The Bangkok (UTC+7) date of a UTC instant in milliseconds since the Unix epoch, in the
/// Buddhist era with the Thai short month name: `"25 พ.ย. 2569"`.
pub fn thai_date(ms: i64) -> String {
    let t = bangkok(ms);
    format!("{} {} {}", t.day, THAI_MONTHS[t.month - 1], t.year + BUDDHIST_ERA_OFFSET)
}

/// Like [`thai_date`], followed by the Bangkok time on the 24-hour clock: `"25 พ.ย. 2569 14:05"`.
pub fn thai_date_time(ms: i64) -> String {
    let t = bangkok(ms);
    format!("{} {:02}:{:02}", thai_date(ms), t.hour, t.minute)
}

/// The Bangkok (UTC+7) date of a UTC instant in milliseconds since the Unix epoch, in English
/// with the common era: `"25 Nov 2026"`.
pub fn en_date(ms: i64) -> String {
    let t = bangkok(ms);
    format!("{} {} {}", t.day, EN_MONTHS[t.month - 1], t.year)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baht_groups_and_pads() {
        assert_eq!(baht(0), "0.00");
        assert_eq!(baht(5), "0.05");
        assert_eq!(baht(-5), "-0.05");
        assert_eq!(baht(100), "1.00");
        assert_eq!(baht(99_999), "999.99");
        assert_eq!(baht(123_450), "1,234.50");
        assert_eq!(baht(-123_450), "-1,234.50");
        assert_eq!(baht(100_000_000), "1,000,000.00");
        assert_eq!(baht(12_345_678_901), "123,456,789.01");
        assert_eq!(baht(i64::MIN), "-92,233,720,368,547,758.08");
        assert_eq!(baht(i64::MAX), "92,233,720,368,547,758.07");
    }

    #[test]
    fn thai_date_crosses_midnight_in_bangkok() {
        // 2026-11-24T17:30:00Z is 2026-11-25 00:30 in Bangkok.
        assert_eq!(thai_date(1_795_541_400_000), "25 พ.ย. 2569");
        assert_eq!(thai_date_time(1_795_541_400_000), "25 พ.ย. 2569 00:30");
        // 2026-11-24T16:59:59Z is still the 24th in Bangkok.
        assert_eq!(thai_date_time(1_795_539_599_000), "24 พ.ย. 2569 23:59");
        // 2026-11-25T07:05:00Z
        assert_eq!(thai_date_time(1_795_590_300_000), "25 พ.ย. 2569 14:05");
        // New year in Bangkok: 2026-12-31T17:00:00Z.
        assert_eq!(thai_date(1_798_736_400_000), "1 ม.ค. 2570");
        // Leap day: 2024-02-28T17:00:00Z.
        assert_eq!(thai_date(1_709_139_600_000), "29 ก.พ. 2567");
        // Before the epoch: 1969-12-31T16:59:59Z.
        assert_eq!(thai_date_time(-25_201_000), "31 ธ.ค. 2512 23:59");
        assert_eq!(thai_date_time(0), "1 ม.ค. 2513 07:00");
    }

    #[test]
    fn en_dates() {
        assert_eq!(en_date(1_795_541_400_000), "25 Nov 2026");
        assert_eq!(en_date(1_795_539_599_000), "24 Nov 2026");
        // 2026-01-05T03:00:00Z
        assert_eq!(en_date(1_767_582_000_000), "5 Jan 2026");
        assert_eq!(en_date(0), "1 Jan 1970");
    }

    #[test]
    fn extreme_instants_do_not_panic() {
        for ms in [i64::MIN, i64::MAX, -1, 1] {
            assert!(!thai_date_time(ms).is_empty());
            assert!(!en_date(ms).is_empty());
        }
    }
}
