//! What each export's sheet holds: its name, headers and widths, and each row as cells, in
//! Thai or English. Pure: the builder feeds it what the sources answer.

use bo_proto::orders::v1 as opb;
use bo_proto::wms::v1 as wpb;
use bo_proto::Wire as _;

use super::domain::{self as export, Kind, Lang};
use crate::domain::{AreaFigures, Day, Figures, StateFigures};
use crate::fees::FeeFigures;
use crate::store::SkuSales;

/// A cell of a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    Text(String),
    /// Satang, written as baht with two decimals.
    Money(i64),
    Count(i64),
}

/// A sheet's name, headers and column widths.
#[derive(Debug, Clone)]
pub struct Sheet {
    pub name: &'static str,
    pub headers: Vec<&'static str>,
    pub widths: Vec<u16>,
}

/// Pairs of (Thai, English) picked by language.
fn pick(lang: Lang, pairs: &[(&'static str, &'static str)]) -> Vec<&'static str> {
    pairs.iter().map(|(th, en)| if lang == Lang::Th { *th } else { *en }).collect()
}

/// The sales figures' columns after the first.
const FIGURES: [(&str, &str); 9] = [
    ("คำสั่งซื้อ", "Orders"),
    ("ยกเลิก", "Cancelled"),
    ("จำนวนชิ้น", "Units"),
    ("ยอดขายสุทธิ (บาท)", "Net sales (THB)"),
    ("ยอดรวม (บาท)", "Total (THB)"),
    ("ยอดขายก่อนภาษี (บาท)", "Net ex VAT (THB)"),
    ("ต้นทุนสินค้า (บาท)", "Cost of goods (THB)"),
    ("ค่าจัดส่ง (บาท)", "Shipping (THB)"),
    ("กำไรขั้นต้น (บาท)", "Gross profit (THB)"),
];

/// The service fees' columns after the first.
const FEES: [(&str, &str); 12] = [
    ("คำสั่งซื้อที่จัดส่ง", "Orders shipped"),
    ("ใบรับสินค้า", "Goods receipts"),
    ("ค่าจัดเก็บ (บาท)", "Shelving (THB)"),
    ("ค่ารับสินค้า (บาท)", "Goods receipt (THB)"),
    ("ค่าหยิบสินค้า (บาท)", "Picking (THB)"),
    ("ค่าแพ็กสินค้า (บาท)", "Packing (THB)"),
    ("ค่าบรรจุภัณฑ์ (บาท)", "Packaging (THB)"),
    ("ค่าวัสดุแพ็ก (บาท)", "Packaging material (THB)"),
    ("ค่าบริการเพิ่มเติม (บาท)", "Additional (THB)"),
    ("ค่าจัดส่ง (บาท)", "Shipping (THB)"),
    ("ค่าธรรมเนียม COD (บาท)", "COD fee (THB)"),
    ("รวม (บาท)", "Total (THB)"),
];

/// The sheet of `kind`'s `table`.
pub fn sheet(kind: Kind, table: &str, lang: Lang) -> Sheet {
    let th = lang == Lang::Th;
    let with = |first: (&'static str, &'static str),
                rest: &[(&'static str, &'static str)],
                name: (&'static str, &'static str)| {
        let mut headers = pick(lang, &[first]);
        headers.extend(pick(lang, rest));
        let mut widths = vec![22];
        widths.extend(std::iter::repeat_n(16, rest.len()));
        Sheet { name: if th { name.0 } else { name.1 }, headers, widths }
    };
    match (kind, table) {
        (Kind::Orders, _) => Sheet {
            name: if th { "คำสั่งซื้อ" } else { "Orders" },
            headers: export::order_headers(lang).to_vec(),
            widths: vec![16, 17, 12, 14, 16, 16, 20, 13, 36, 16, 10, 36, 8, 12, 11, 11, 11, 11, 12, 18, 24],
        },
        (Kind::OrderSummary, "channels") => with(("ช่องทางขาย", "Channel"), &FIGURES, ("ช่องทางขาย", "Channels")),
        (Kind::OrderSummary, "states") => {
            let rest = [
                FIGURES[0],
                FIGURES[3],
                FIGURES[4],
                ("ชำระแล้ว (บาท)", "Paid (THB)"),
                ("ยอดค้างชำระ (บาท)", "Balance due (THB)"),
            ];
            with(("สถานะ", "State"), &rest, ("สถานะคำสั่งซื้อ", "Order states"))
        }
        (Kind::OrderSummary, _) => with(("วันที่", "Day"), &FIGURES, ("ยอดขายรายวัน", "Daily sales")),
        (Kind::SoldItems, _) => {
            let mut s = with(
                ("รหัส SKU", "SKU code"),
                &[
                    ("ชื่อสินค้า", "Product"),
                    ("ตัวเลือก", "Variant"),
                    FIGURES[2],
                    FIGURES[3],
                    FIGURES[5],
                    FIGURES[6],
                    FIGURES[8],
                ],
                ("สินค้าที่ขายได้", "Sold items"),
            );
            s.widths[1] = 36;
            s
        }
        (Kind::ServiceFees, "warehouses") => {
            with(("คลังสินค้า", "Warehouse"), &FEES, ("ค่าบริการตามคลัง", "Fees by warehouse"))
        }
        (Kind::ServiceFees, _) => with(("วันที่", "Day"), &FEES, ("ค่าบริการรายวัน", "Daily fees")),
        (Kind::AdminPerformance, _) => with(
            ("พนักงาน", "Employee"),
            &[FIGURES[0], FIGURES[1], FIGURES[3], ("ยอดขายเฉลี่ยต่อคำสั่งซื้อ (บาท)", "Average order (THB)")],
            ("ยอดขายตามพนักงาน", "Sales per employee"),
        ),
        (Kind::StockMovements, _) => Sheet {
            name: if th { "ความเคลื่อนไหวสต๊อก" } else { "Stock movements" },
            headers: pick(
                lang,
                &[
                    ("วันที่", "When"),
                    ("คลังสินค้า", "Warehouse"),
                    ("รหัส SKU", "SKU code"),
                    ("ชื่อสินค้า", "Product"),
                    ("ประเภท", "Kind"),
                    ("คงคลังเปลี่ยน", "On hand change"),
                    ("จองเปลี่ยน", "Reserved change"),
                    ("เอกสารอ้างอิง", "Reference"),
                    ("เหตุผล", "Reason"),
                    ("ผู้ทำรายการ", "By"),
                ],
            ),
            widths: vec![17, 18, 18, 32, 16, 12, 12, 22, 28, 20],
        },
    }
}

/// A day as people in Thailand write it: 26/11/2569 (Thai) or 26/11/2026.
pub fn day_label(day: Day, lang: Lang) -> String {
    let year = day / 10_000 + if lang == Lang::Th { 543 } else { 0 };
    format!("{:02}/{:02}/{}", day % 100, (day / 100) % 100, year)
}

/// The sales figures as cells.
fn figures(f: &Figures) -> Vec<Cell> {
    vec![
        Cell::Count(f.orders),
        Cell::Count(f.cancelled),
        Cell::Count(f.units),
        Cell::Money(f.net),
        Cell::Money(f.total),
        Cell::Money(f.net_ex_vat),
        Cell::Money(f.cost),
        Cell::Money(f.shipping),
        Cell::Money(f.profit()),
    ]
}

/// A row of the daily sales or the channels: its name, then its figures.
pub fn figures_row(name: String, f: &Figures) -> Vec<Cell> {
    let mut row = vec![Cell::Text(name)];
    row.extend(figures(f));
    row
}

/// A row of the orders' states.
pub fn state_row(state: &str, f: &StateFigures, lang: Lang) -> Vec<Cell> {
    vec![
        Cell::Text(export::state_label(state, lang).to_string()),
        Cell::Count(f.orders),
        Cell::Money(f.net),
        Cell::Money(f.total),
        Cell::Money(f.paid),
        Cell::Money(f.balance()),
    ]
}

/// A row of the sales per employee.
pub fn staff_row(name: String, f: &AreaFigures) -> Vec<Cell> {
    let average = Figures { orders: f.orders, net: f.net, ..Default::default() }.average();
    vec![Cell::Text(name), Cell::Count(f.orders), Cell::Count(f.cancelled), Cell::Money(f.net), Cell::Money(average)]
}

/// A row of the SKUs sold.
pub fn sku_row(s: &SkuSales) -> Vec<Cell> {
    vec![
        Cell::Text(s.sku_code.clone()),
        Cell::Text(s.product_name.clone()),
        Cell::Text(s.variant.clone()),
        Cell::Count(s.units),
        Cell::Money(s.net),
        Cell::Money(s.net_ex_vat),
        Cell::Money(s.cost),
        Cell::Money(s.net_ex_vat - s.cost),
    ]
}

/// A row of the service fees: its name, the counts, each fee and their total.
pub fn fee_row(name: String, f: &FeeFigures) -> Vec<Cell> {
    let v = f.values();
    let mut row = vec![Cell::Text(name), Cell::Count(v[0]), Cell::Count(v[1])];
    row.extend(v[2..].iter().map(|m| Cell::Money(*m)));
    row.push(Cell::Money(f.total()));
    row
}

/// One order as its row.
pub fn order_row(o: &opb::ExportOrder, channel: &str, lang: Lang) -> Vec<Cell> {
    let units: i64 = o.lines.iter().map(|l| l.quantity).sum();
    let lines: Vec<String> = o.lines.iter().map(|l| format!("{} × {}", l.sku_code, l.quantity)).collect();
    vec![
        Cell::Text(o.order_no.clone()),
        Cell::Text(export::moment(o.created_at_ms, lang)),
        Cell::Text(channel.to_string()),
        Cell::Text(o.reference.clone()),
        Cell::Text(export::state_label(opb::OrderState::word_of(o.state), lang).to_string()),
        Cell::Text(export::payment_label(opb::PaymentState::word_of(o.payment_state), lang).to_string()),
        Cell::Text(o.ship_name.clone()),
        Cell::Text(o.ship_tel.clone()),
        Cell::Text(o.ship_place.clone()),
        Cell::Text(o.ship_province.clone()),
        Cell::Text(o.ship_postcode.clone()),
        Cell::Text(lines.join(", ")),
        Cell::Count(units),
        Cell::Money(o.subtotal),
        Cell::Money(o.discount),
        Cell::Money(o.shipping),
        Cell::Money(o.additional_fee),
        Cell::Money(o.vat),
        Cell::Money(o.total),
        Cell::Text(o.tracking_no.clone()),
        Cell::Text(o.note.clone()),
    ]
}

/// A stock movement's kind in words.
pub fn movement_label(kind: &str, lang: Lang) -> &str {
    let (th, en) = match kind {
        "receive" => ("รับเข้า", "Received"),
        "adjust" => ("ปรับสต๊อก", "Adjusted"),
        "reserve" => ("จอง", "Reserved"),
        "release" => ("คืนการจอง", "Released"),
        "commit" => ("ตัดสต๊อก", "Shipped"),
        "transfer_out" => ("โอนออก", "Transferred out"),
        "transfer_in" => ("โอนเข้า", "Transferred in"),
        _ => return kind,
    };
    if lang == Lang::Th {
        th
    } else {
        en
    }
}

/// What a stock movement's row names: its warehouse, SKU code, product and who made it.
pub struct MovementNames<'a> {
    pub warehouse: &'a str,
    pub sku_code: &'a str,
    pub product: &'a str,
    pub by: &'a str,
}

/// One stock movement as its row.
pub fn movement_row(m: &wpb::Movement, names: MovementNames<'_>, lang: Lang) -> Vec<Cell> {
    let at = m.create_time.as_ref().map(bo_kit::time::timestamp_to_ms).unwrap_or(0);
    vec![
        Cell::Text(export::moment(at, lang)),
        Cell::Text(names.warehouse.to_string()),
        Cell::Text(names.sku_code.to_string()),
        Cell::Text(names.product.to_string()),
        Cell::Text(movement_label(&m.kind, lang).to_string()),
        Cell::Count(m.on_hand_delta),
        Cell::Count(m.reserved_delta),
        Cell::Text(m.reference.clone()),
        Cell::Text(m.reason.clone()),
        Cell::Text(names.by.to_string()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sheet_has_a_width_per_header_in_both_languages() {
        for kind in Kind::ALL {
            for table in kind.tables() {
                let (th, en) = (sheet(kind, table, Lang::Th), sheet(kind, table, Lang::En));
                assert_eq!(th.headers.len(), en.headers.len(), "{kind:?} {table}");
                assert_eq!(th.headers.len(), th.widths.len(), "{kind:?} {table}");
                assert_ne!(th.name, en.name);
            }
        }
    }

    #[test]
    fn rows_are_as_long_as_their_headers() {
        let f = Figures {
            orders: 3,
            cancelled: 1,
            units: 5,
            net: 30_000,
            total: 32_100,
            net_ex_vat: 28_037,
            cost: 12_000,
            shipping: 5_000,
        };
        let len = |k: Kind, t: &str| sheet(k, t, Lang::En).headers.len();
        assert_eq!(figures_row("x".into(), &f).len(), len(Kind::OrderSummary, "daily"));
        assert_eq!(figures_row("x".into(), &f).len(), len(Kind::OrderSummary, "channels"));
        let a = AreaFigures { orders: 3, cancelled: 1, net: 30_001 };
        let st = StateFigures { orders: 3, net: 30_001, total: 32_101, paid: 10_700 };
        assert_eq!(state_row("new", &st, Lang::Th).len(), len(Kind::OrderSummary, "states"));
        assert_eq!(staff_row("x".into(), &a).len(), len(Kind::AdminPerformance, ""));
        assert_eq!(sku_row(&SkuSales::default()).len(), len(Kind::SoldItems, "skus"));
        assert_eq!(fee_row("x".into(), &FeeFigures::default()).len(), len(Kind::ServiceFees, "daily"));
        assert_eq!(order_row(&opb::ExportOrder::default(), "", Lang::En).len(), len(Kind::Orders, ""));
        let names = MovementNames { warehouse: "", sku_code: "", product: "", by: "" };
        assert_eq!(movement_row(&wpb::Movement::default(), names, Lang::En).len(), len(Kind::StockMovements, ""));
    }

    #[test]
    // Days are written as their numbers are read: 2026_11_26 is 26 November 2026.
    #[allow(clippy::inconsistent_digit_grouping)]
    fn figures_and_averages_are_written_as_computed() {
        let f = Figures { orders: 3, net: 30_000, net_ex_vat: 28_037, cost: 12_000, ..Default::default() };
        let row = figures_row(day_label(2026_11_26, Lang::Th), &f);
        assert_eq!(row[0], Cell::Text("26/11/2569".into()));
        assert_eq!(row[9], Cell::Money(16_037), "gross profit: net ex VAT less cost");
        // 100.01 baht over 3 orders: 33.34 baht, rounded half away from zero.
        let s = staff_row("สมชาย".into(), &AreaFigures { orders: 3, cancelled: 0, net: 10_001 });
        assert_eq!(s[4], Cell::Money(3_334));
        // Of 321.01 baht, 107 paid: 214.01 still owed.
        let st = state_row("shipped", &StateFigures { orders: 3, net: 30_001, total: 32_101, paid: 10_700 }, Lang::En);
        assert_eq!(st[0], Cell::Text("Sent".into()));
        assert_eq!(st[4..], [Cell::Money(10_700), Cell::Money(21_401)]);
        assert_eq!(day_label(2026_01_05, Lang::En), "05/01/2026");
        assert_eq!(movement_label("transfer_in", Lang::Th), "โอนเข้า");
    }
}
