//! Report exports (SPEC §3 report export record, §4 Report export): a spreadsheet of a report
//! built in the background. Its states are one table; the kinds, the tables a kind offers,
//! the files' names, and how a text that a spreadsheet would run as a formula is kept as
//! text, are decided here.
//!
//! ```text
//! exporting ──built──▶ exported ──its time passed──▶ expired
//!     └──────failed──▶ failed
//! ```

use bo_kit::states::Table;

/// Being built.
pub const EXPORTING: &str = "exporting";
/// Ready to download.
pub const EXPORTED: &str = "exported";
/// It could not be built.
pub const FAILED: &str = "failed";
/// Its file was removed after its time.
pub const EXPIRED: &str = "expired";
/// Every state.
pub const STATES: [&str; 4] = [EXPORTING, EXPORTED, FAILED, EXPIRED];

/// How long a file is kept: seven days.
pub const KEEP_MS: i64 = 7 * 24 * 3600 * 1000;
/// How many exports a store may have waiting to be built at once (the builders take every
/// store's in turn, so one store's queue never holds up another's).
pub const MAX_WAITING: i64 = 3;
/// The most days one export may cover.
pub const MAX_DAYS: i64 = 366;

/// What an export holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The orders of a range, one row each.
    Orders,
    /// The order summary's table of a period.
    OrderSummary,
    /// The SKUs a period sold.
    SoldItems,
    /// The service fees of a period.
    ServiceFees,
    /// The sales per employee of a period.
    AdminPerformance,
    /// The stock movements of a range.
    StockMovements,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 6] = [
        Kind::Orders,
        Kind::OrderSummary,
        Kind::SoldItems,
        Kind::ServiceFees,
        Kind::AdminPerformance,
        Kind::StockMovements,
    ];

    /// Its word, as records keep it.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Orders => "orders",
            Kind::OrderSummary => "order_summary",
            Kind::SoldItems => "sold_items",
            Kind::ServiceFees => "service_fees",
            Kind::AdminPerformance => "admin_performance",
            Kind::StockMovements => "stock_movements",
        }
    }

    /// The kind of a word.
    pub fn of(word: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.word() == word)
    }

    /// The tables it may write, its first the one written when none is named.
    pub fn tables(self) -> &'static [&'static str] {
        match self {
            Kind::OrderSummary => &["daily", "channels", "states"],
            Kind::SoldItems => &["skus"],
            Kind::ServiceFees => &["daily", "warehouses"],
            Kind::Orders | Kind::AdminPerformance | Kind::StockMovements => &[""],
        }
    }

    /// The table it writes for `asked` ('' its first), or None when it has no such table.
    pub fn table(self, asked: &str) -> Option<&'static str> {
        let asked = asked.trim();
        if asked.is_empty() {
            return self.tables().first().copied();
        }
        self.tables().iter().copied().find(|t| !t.is_empty() && t.eq_ignore_ascii_case(asked))
    }

    /// Whether its range is a dashboard's period (rather than any range of days).
    pub fn by_period(self) -> bool {
        !matches!(self, Kind::Orders | Kind::StockMovements)
    }

    /// Its file's name before the days.
    fn stem(self, table: &str) -> String {
        let base = match self {
            Kind::Orders => "orders",
            Kind::OrderSummary => "order-summary",
            Kind::SoldItems => "sold-items",
            Kind::ServiceFees => "service-fees",
            Kind::AdminPerformance => "sales-per-employee",
            Kind::StockMovements => "stock-movements",
        };
        if table.is_empty() || self.tables().len() < 2 {
            base.to_string()
        } else {
            format!("{base}-{table}")
        }
    }
}

/// What happens to an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportEvent {
    /// Its file was written.
    Built,
    /// Building it failed.
    Fail,
    /// Its time passed.
    Expire,
}

impl ExportEvent {
    /// Every event.
    pub const ALL: [ExportEvent; 3] = [ExportEvent::Built, ExportEvent::Fail, ExportEvent::Expire];
}

/// The allowed moves: (from, event, to).
pub const TABLE: Table<&str, ExportEvent> = Table::new(&[
    (EXPORTING, ExportEvent::Built, EXPORTED),
    (EXPORTING, ExportEvent::Fail, FAILED),
    (EXPORTED, ExportEvent::Expire, EXPIRED),
]);

/// Where `event` takes an export in `from`, or None.
pub fn next(from: &str, event: ExportEvent) -> Option<&'static str> {
    TABLE.next(from, event)
}

/// Whether a spreadsheet would take `text` as a formula (it begins with `=`, `+`, `-` or
/// `@`, after any spaces): such a cell is written as text with Excel's quote prefix, which
/// keeps it from ever running.
pub fn looks_like_formula(text: &str) -> bool {
    matches!(text.trim_start().chars().next(), Some('=' | '+' | '-' | '@')) || text.starts_with(['\t', '\r'])
}

/// The language of the headers and labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Th,
    En,
}

impl Lang {
    /// Thai unless English is asked.
    pub fn of(code: &str) -> Lang {
        if code.eq_ignore_ascii_case("en") {
            Lang::En
        } else {
            Lang::Th
        }
    }
}

/// The order export's columns, in order.
pub fn order_headers(lang: Lang) -> [&'static str; 21] {
    match lang {
        Lang::Th => [
            "เลขที่คำสั่งซื้อ",
            "วันที่สั่งซื้อ",
            "ช่องทางขาย",
            "เลขอ้างอิง",
            "สถานะ",
            "การชำระเงิน",
            "ชื่อผู้รับ",
            "เบอร์โทร",
            "ที่อยู่",
            "จังหวัด",
            "รหัสไปรษณีย์",
            "สินค้า",
            "จำนวนชิ้น",
            "ราคาสินค้า (บาท)",
            "ส่วนลด (บาท)",
            "ค่าจัดส่ง (บาท)",
            "ค่าธรรมเนียมเพิ่มเติม (บาท)",
            "ภาษีมูลค่าเพิ่ม (บาท)",
            "ยอดรวม (บาท)",
            "เลขพัสดุ",
            "หมายเหตุ",
        ],
        Lang::En => [
            "Order no.",
            "Ordered at",
            "Channel",
            "Reference",
            "State",
            "Payment",
            "Receiver",
            "Phone",
            "Address",
            "Province",
            "Postcode",
            "Items",
            "Units",
            "Goods (THB)",
            "Discount (THB)",
            "Shipping (THB)",
            "Additional fee (THB)",
            "VAT (THB)",
            "Total (THB)",
            "Tracking no.",
            "Note",
        ],
    }
}

/// An order state in words.
pub fn state_label(state: &str, lang: Lang) -> &str {
    let (th, en) = match state {
        "new" => ("ใหม่", "New"),
        "ready_to_fulfillment" => ("เตรียมจัดส่ง", "Preparing shipment"),
        "shipped" => ("จัดส่งแล้ว", "Sent"),
        "closed" => ("ปิดแล้ว", "Closed"),
        "cancelled" => ("ยกเลิก", "Cancelled"),
        "failed" => ("จัดส่งไม่สำเร็จ", "Failed"),
        _ => return state,
    };
    if lang == Lang::Th {
        th
    } else {
        en
    }
}

/// A payment state in words.
pub fn payment_label(state: &str, lang: Lang) -> &str {
    let (th, en) = match state {
        "unpaid" => ("ยังไม่ชำระ", "Unpaid"),
        "pending" => ("รอยืนยันการชำระ", "Payment pending"),
        "paid" => ("ชำระแล้ว", "Paid"),
        "voided" => ("ยกเลิกรายการ", "Void"),
        "cancelled" => ("ยกเลิก", "Cancel"),
        _ => return state,
    };
    if lang == Lang::Th {
        th
    } else {
        en
    }
}

/// A moment as people in Thailand write it: "26/11/2569 14:05" (Thai, Buddhist era) or
/// "26/11/2026 14:05".
pub fn moment(ms: i64, lang: Lang) -> String {
    let Ok(at) = time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)) else { return String::new() };
    let at = at.to_offset(time::macros::offset!(+7));
    let year = at.year() + if lang == Lang::Th { 543 } else { 0 };
    format!("{:02}/{:02}/{} {:02}:{:02}", at.day(), u8::from(at.month()), year, at.hour(), at.minute())
}

/// The file's name: `orders-2569-11-01-2569-11-30.xlsx` (days in the store's calendar, the
/// range [from, to) of unix ms).
pub fn file_name(kind: Kind, table: &str, from_ms: i64, to_ms: i64, lang: Lang) -> String {
    let day = |ms: i64| moment(ms, lang).split(' ').next().unwrap_or("").split('/').rev().collect::<Vec<_>>().join("-");
    format!("{}-{}-{}.xlsx", kind.stem(table), day(from_ms), day(to_ms - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bo_kit::states::check_every_pair;

    #[test]
    fn every_allowed_and_refused_move() {
        use ExportEvent::*;
        // An export's moves have no reason to give: a refused one is `Err(())`.
        let expected: &[(&str, ExportEvent, Result<&str, ()>)] = &[
            (EXPORTING, Built, Ok(EXPORTED)),
            (EXPORTING, Fail, Ok(FAILED)),
            (EXPORTING, Expire, Err(())),
            (EXPORTED, Built, Err(())),
            (EXPORTED, Fail, Err(())),
            (EXPORTED, Expire, Ok(EXPIRED)),
            (FAILED, Built, Err(())),
            (FAILED, Fail, Err(())),
            (FAILED, Expire, Err(())),
            (EXPIRED, Built, Err(())),
            (EXPIRED, Fail, Err(())),
            (EXPIRED, Expire, Err(())),
        ];
        check_every_pair(&TABLE, &STATES, &ExportEvent::ALL, expected, |from, e| next(from, e).ok_or(()));
    }

    #[test]
    fn formulas_are_recognised_however_they_start() {
        for f in ["=1+1", "+66812345678", "-2", "@SUM(A1)", "  =HYPERLINK(\"x\")", "\t=1", "\r=1"] {
            assert!(looks_like_formula(f), "{f:?}");
        }
        for t in ["สมชาย", "SO2569-000001", "089-123-4567", "", "1+1", "a=b"] {
            assert!(!looks_like_formula(t), "{t:?}");
        }
    }

    #[test]
    fn moments_and_names_follow_the_store_s_calendar() {
        // 2026-11-25 17:30 UTC is the 26th, 00:30 in Bangkok.
        let ms = 1_795_627_800_000;
        assert_eq!(moment(ms, Lang::Th), "26/11/2569 00:30");
        assert_eq!(moment(ms, Lang::En), "26/11/2026 00:30");
        let day = 24 * 3600 * 1000;
        // The 1st to the 30th of November 2026, Bangkok days.
        let from = 1_793_466_000_000;
        assert_eq!(file_name(Kind::Orders, "", from, from + 30 * day, Lang::Th), "orders-2569-11-01-2569-11-30.xlsx");
        assert_eq!(file_name(Kind::Orders, "", from, from + 30 * day, Lang::En), "orders-2026-11-01-2026-11-30.xlsx");
        assert_eq!(
            file_name(Kind::ServiceFees, "warehouses", from, from + day, Lang::En),
            "service-fees-warehouses-2026-11-01-2026-11-01.xlsx"
        );
        assert_eq!(
            file_name(Kind::SoldItems, "skus", from, from + day, Lang::En),
            "sold-items-2026-11-01-2026-11-01.xlsx"
        );
    }

    #[test]
    fn kinds_name_their_tables() {
        for k in Kind::ALL {
            assert_eq!(Kind::of(k.word()), Some(k));
            assert_eq!(k.table(""), k.tables().first().copied());
        }
        assert_eq!(Kind::OrderSummary.table("Channels"), Some("channels"));
        assert_eq!(Kind::OrderSummary.table("skus"), None);
        assert_eq!(Kind::Orders.table("daily"), None);
        assert!(Kind::SoldItems.by_period() && !Kind::StockMovements.by_period());
    }

    #[test]
    fn labels_in_both_languages() {
        assert_eq!(state_label("ready_to_fulfillment", Lang::Th), "เตรียมจัดส่ง");
        assert_eq!(state_label("ready_to_fulfillment", Lang::En), "Preparing shipment");
        assert_eq!(payment_label("pending", Lang::En), "Payment pending");
        assert_eq!(order_headers(Lang::Th).len(), order_headers(Lang::En).len());
    }
}
