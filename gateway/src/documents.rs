//! Printed documents, in Thai: the goods receipt sheet (A4), SKU barcode labels (50 × 30 mm,
//! one per page, for label printers), pick lists of a transfer or of orders (A4), and
//! parcels' shipping labels (A6 or 100 × 150 mm). Pure: they take what the API answers and
//! give PDF bytes.

use bo_pdf::fmt::{thai_date, thai_date_time};
use bo_pdf::{Align, Doc, Page, Weight};

use crate::routes::receipts::{GoodsReceiptBody, ReceiptLineBody};
use crate::routes::transfers::TransferBody;

const A4: (f32, f32) = (210.0, 297.0);
const MARGIN: f32 = 12.0;
/// A label's size, mm.
pub const LABEL: (f32, f32) = (50.0, 30.0);

fn ms_of(rfc3339: &str) -> i64 {
    time::OffsetDateTime::parse(rfc3339, &time::format_description::well_known::Rfc3339)
        .map(|t| t.unix_timestamp() * 1000)
        .unwrap_or(0)
}

fn date_of(ymd: &str) -> String {
    time::Date::parse(ymd, time::macros::format_description!("[year]-[month]-[day]"))
        .map(|d| thai_date(d.midnight().assume_utc().unix_timestamp() * 1000 + 12 * 3_600_000))
        .unwrap_or_default()
}

fn receipt_type(t: &str) -> &'static str {
    match t {
        "product" => "สินค้า",
        "parcel" => "พัสดุ",
        "material" => "วัสดุ",
        _ => "-",
    }
}

fn receipt_state(s: &str) -> &'static str {
    match s {
        "draft" => "แบบร่าง",
        "pending" => "รอรับสินค้า",
        "received" => "ได้รับสินค้าแล้ว",
        "approved" => "อนุมัติแล้ว",
        "rejected" => "ไม่อนุมัติ",
        "shelving" => "กำลังจัดเก็บ",
        "shelved" => "จัดเก็บแล้ว",
        _ => "-",
    }
}

fn line_status(s: &str) -> &'static str {
    match s {
        "complete" => "ครบ",
        "incomplete" => "ไม่ครบ",
        "no_product" => "ไม่มีสินค้า",
        "excess_product" => "เกิน",
        _ => "",
    }
}

fn option_name(o: &str) -> &'static str {
    match o {
        "label_sku" => "ติดฉลาก SKU",
        "repack" => "แพ็กใหม่",
        "inspect_every_unit" => "ตรวจทุกชิ้น",
        _ => "",
    }
}

/// One table column: title, width (mm), alignment.
struct Col(&'static str, f32, Align);

fn header_row(p: &mut Page, y: f32, cols: &[Col]) -> f32 {
    let mut x = MARGIN;
    p.rect(MARGIN, y - 4.5, A4.0 - 2.0 * MARGIN, 7.0, false, 0.6);
    for Col(title, w, align) in cols {
        let tx = match align {
            Align::Left => x + 1.0,
            Align::Center => x + w / 2.0,
            Align::Right => x + w - 1.0,
        };
        p.text(tx, y, 8.0, Weight::Bold, *align, title);
        x += w;
    }
    y + 7.0
}

fn cell(p: &mut Page, x: f32, w: f32, y: f32, align: Align, text: &str) {
    let tx = match align {
        Align::Left => x + 1.0,
        Align::Center => x + w / 2.0,
        Align::Right => x + w - 1.0,
    };
    p.text(tx, y, 8.0, Weight::Regular, align, text);
}

fn line_label(l: &ReceiptLineBody) -> String {
    let name = if l.sku_id > 0 { l.product_name.clone() } else { l.name.clone() };
    let variant: Vec<&str> = [l.option1.as_str(), l.option2.as_str()].into_iter().filter(|s| !s.is_empty()).collect();
    if variant.is_empty() {
        name
    } else {
        format!("{name} ({})", variant.join(" / "))
    }
}

/// The goods receipt sheet: who, where, when, every line with its counts, the packagings,
/// and places to sign.
pub fn goods_receipt(r: &GoodsReceiptBody, store_name: &str, printed_by: &str, now_ms: i64) -> Vec<u8> {
    let mut doc = Doc::new(&format!("ใบรับสินค้า {}", r.code));
    let cols = [
        Col("#", 8.0, Align::Center),
        Col("รหัส SKU", 28.0, Align::Left),
        Col("รายการ", 52.0, Align::Left),
        Col("หน่วย", 16.0, Align::Center),
        Col("สั่ง", 14.0, Align::Right),
        Col("รับ (ชิ้น)", 16.0, Align::Right),
        Col("ชำรุด", 12.0, Align::Right),
        Col("หมดอายุ", 20.0, Align::Center),
        Col("ต้นทุน/หน่วย", 20.0, Align::Right),
    ];
    let total_pages_hint = 1 + r.items.len() / 28;
    let mut page_no = 0;
    let mut i = 0;
    loop {
        page_no += 1;
        let p = doc.page(A4.0, A4.1);
        let mut y = MARGIN + 6.0;
        p.text(MARGIN, y, 16.0, Weight::Bold, Align::Left, "ใบรับสินค้า");
        p.text(A4.0 - MARGIN, y, 12.0, Weight::Bold, Align::Right, &r.code);
        y += 6.0;
        p.text(MARGIN, y, 9.0, Weight::Regular, Align::Left, store_name);
        p.code128(A4.0 - MARGIN - 50.0, y - 3.0, 50.0, 8.0, &r.code).ok();
        y += 11.0;
        if page_no == 1 {
            let info = [
                ("ประเภท", receipt_type(&r.r#type).to_string()),
                ("สถานะ", receipt_state(&r.state).to_string()),
                ("คลังสินค้า", r.warehouse_name.clone()),
                ("วันที่คาดว่าจะได้รับ", thai_date_time(ms_of(&r.expected_received_at))),
                ("ผู้สร้าง", r.created_by_name.clone()),
                ("วันที่สร้าง", thai_date_time(ms_of(&r.created_at))),
            ];
            for (k, (label, value)) in info.iter().enumerate() {
                let x = if k % 2 == 0 { MARGIN } else { A4.0 / 2.0 };
                p.text(x, y, 9.0, Weight::Bold, Align::Left, label);
                p.text(x + 34.0, y, 9.0, Weight::Regular, Align::Left, value);
                if k % 2 == 1 {
                    y += 5.5;
                }
            }
            if let Some(pick) = r.pick_up_detail.as_ref().filter(|_| r.is_pick_up) {
                p.text(MARGIN, y, 9.0, Weight::Bold, Align::Left, "รับสินค้าที่");
                let h = p.wrap(
                    MARGIN + 34.0,
                    y,
                    A4.0 - 2.0 * MARGIN - 34.0,
                    9.0,
                    Weight::Regular,
                    &format!(
                        "{} โทร {} เวลา {}",
                        pick.address,
                        pick.tel,
                        thai_date_time(ms_of(&pick.expected_picked_up_at))
                    ),
                );
                y += h.max(5.5);
            }
            if !r.note.is_empty() {
                p.text(MARGIN, y, 9.0, Weight::Bold, Align::Left, "หมายเหตุ");
                let h = p.wrap(MARGIN + 34.0, y, A4.0 - 2.0 * MARGIN - 34.0, 9.0, Weight::Regular, &r.note);
                y += h.max(5.5);
            }
            if r.state == "rejected" && !r.reject_reason.is_empty() {
                p.text(MARGIN, y, 9.0, Weight::Bold, Align::Left, "เหตุผลที่ไม่อนุมัติ");
                let h = p.wrap(MARGIN + 34.0, y, A4.0 - 2.0 * MARGIN - 34.0, 9.0, Weight::Regular, &r.reject_reason);
                y += h.max(5.5);
            }
            y += 3.0;
        }
        y = header_row(p, y, &cols);
        while i < r.items.len() && y < A4.1 - 60.0 {
            let l = &r.items[i];
            let mut x = MARGIN;
            let unit = if l.unit.name.is_empty() {
                "ชิ้น".to_string()
            } else {
                format!("{} ({})", l.unit.name, l.unit.quantity)
            };
            let counted = !l.status.is_empty();
            let values = [
                (i + 1).to_string(),
                l.sku_code.clone(),
                String::new(),
                unit,
                l.request_qty.to_string(),
                if counted { l.receive_qty.to_string() } else { String::new() },
                if counted { l.defect_qty.to_string() } else { String::new() },
                l.expired_at.as_deref().map(date_of).unwrap_or_else(|| "-".into()),
                l.cost.clone(),
            ];
            let mut row_h: f32 = 5.5;
            for (c, Col(_, w, align)) in cols.iter().enumerate() {
                if c == 2 {
                    let mut label = line_label(l);
                    if counted {
                        label = format!("{label} · {}", line_status(&l.status));
                    }
                    row_h = row_h.max(p.wrap(x + 1.0, y, w - 2.0, 8.0, Weight::Regular, &label));
                } else {
                    cell(p, x, *w, y, *align, &values[c]);
                }
                x += w;
            }
            y += row_h + 1.0;
            p.line(MARGIN, y - 4.0, A4.0 - MARGIN, y - 4.0, 0.2);
            i += 1;
        }
        let done = i >= r.items.len();
        if done {
            y += 2.0;
            p.text(A4.0 - MARGIN - 40.0, y, 9.0, Weight::Bold, Align::Right, "รวมต้นทุน");
            p.text(A4.0 - MARGIN, y, 9.0, Weight::Bold, Align::Right, &format!("{} บาท", r.total_cost));
            y += 5.5;
            p.text(A4.0 - MARGIN - 40.0, y, 9.0, Weight::Bold, Align::Right, "จำนวนที่สั่ง (ชิ้น)");
            p.text(A4.0 - MARGIN, y, 9.0, Weight::Regular, Align::Right, &r.total_request_qty.to_string());
            y += 7.0;
            if !r.packagings.is_empty() {
                let text =
                    r.packagings.iter().map(|k| format!("{} × {}", k.name, k.quantity)).collect::<Vec<_>>().join(", ");
                p.text(MARGIN, y, 9.0, Weight::Bold, Align::Left, "บรรจุภัณฑ์");
                y += p.wrap(MARGIN + 34.0, y, A4.0 - 2.0 * MARGIN - 34.0, 9.0, Weight::Regular, &text).max(5.5);
            }
            if !r.options.is_empty() {
                let text = r.options.iter().map(|o| option_name(o)).collect::<Vec<_>>().join(", ");
                p.text(MARGIN, y, 9.0, Weight::Bold, Align::Left, "บริการเพิ่มเติม");
                p.text(MARGIN + 34.0, y, 9.0, Weight::Regular, Align::Left, &text);
            }
            let sy = A4.1 - 34.0;
            for (k, who) in ["ผู้ส่งสินค้า", "ผู้รับสินค้า", "ผู้ตรวจสอบ"].iter().enumerate()
            {
                let x = MARGIN + 8.0 + k as f32 * 64.0;
                p.line(x, sy, x + 50.0, sy, 0.4);
                p.text(x + 25.0, sy + 5.0, 9.0, Weight::Regular, Align::Center, who);
                p.text(x + 25.0, sy + 10.0, 8.0, Weight::Regular, Align::Center, "วันที่ ____/____/______");
            }
        }
        let foot = format!(
            "พิมพ์โดย {printed_by} เมื่อ {} · หน้า {page_no}/{}",
            thai_date_time(now_ms),
            total_pages_hint.max(page_no)
        );
        p.text(A4.0 - MARGIN, A4.1 - 8.0, 7.0, Weight::Regular, Align::Right, &foot);
        if done {
            break;
        }
    }
    doc.finish()
}

/// Renders a document on the CPU pool, off the async workers (a thousand labels take a
/// while, and everyone else's requests keep being answered meanwhile).
pub async fn render(work: impl FnOnce() -> Vec<u8> + Send + 'static) -> Result<Vec<u8>, crate::error::ApiError> {
    Ok(bo_kit::cpu::run(work).await?)
}

/// How many labels each flagged line gets: the good pieces once counted, else the pieces
/// asked for.
pub fn label_counts(r: &GoodsReceiptBody) -> Vec<(usize, i64)> {
    r.items
        .iter()
        .enumerate()
        .filter(|(_, l)| l.print_label && l.sku_id > 0)
        .map(|(i, l)| (i, if l.status.is_empty() { l.request_base_qty } else { l.good_qty }))
        .filter(|(_, n)| *n > 0)
        .collect()
}

/// SKU labels, one 50 × 30 mm page each: the product (two lines at most), the variant, and
/// the barcode: EAN-13 when the SKU's barcode is one, else Code 128 of the SKU code.
pub fn labels(r: &GoodsReceiptBody, counts: &[(usize, i64)]) -> Vec<u8> {
    let mut doc = Doc::new(&format!("ฉลากสินค้า {}", r.code));
    let (w, h) = LABEL;
    for (i, n) in counts {
        let l = &r.items[*i];
        let ean = bo_pdf::barcode::is_ean13(&l.barcode);
        let variant: Vec<&str> =
            [l.option1.as_str(), l.option2.as_str()].into_iter().filter(|s| !s.is_empty()).collect();
        let mut name = None;
        for _ in 0..*n {
            let p = doc.page(w, h);
            // Fitted once per line, not per label: a line may print a thousand.
            let name = name.get_or_insert_with(|| p.fit(7.0, Weight::Bold, &l.product_name, 1.8 * (w - 4.0)));
            p.wrap(2.0, 4.0, w - 4.0, 7.0, Weight::Bold, name);
            if !variant.is_empty() {
                p.text(2.0, 12.0, 6.5, Weight::Regular, Align::Left, &variant.join(" / "));
            }
            let drawn = if ean {
                p.ean13(5.0, 14.0, w - 10.0, 10.0, &l.barcode).map(|_| l.barcode.clone())
            } else {
                p.code128(3.0, 14.0, w - 6.0, 10.0, &l.sku_code).map(|_| l.sku_code.clone())
            };
            let caption = drawn.unwrap_or_else(|_| l.sku_code.clone());
            p.text(w / 2.0, 27.5, 7.0, Weight::Regular, Align::Center, &caption);
        }
    }
    doc.finish()
}

/// One row of a pick list: a lot of a SKU to take.
pub struct PickRow {
    /// The line's number on the sheet.
    pub line: usize,
    pub sku_code: String,
    pub product_name: String,
    pub lot_code: String,
    /// `YYYY-MM-DD`, or None without an expiry.
    pub expires: Option<String>,
    pub quantity: i64,
}

/// A transfer's pick list: for each SKU the lots to take, first expiry first, with a box to
/// tick, and places to sign.
pub fn pick_list(t: &TransferBody, from: &str, to: &str, now_ms: i64) -> Vec<u8> {
    let rows: Vec<PickRow> = t
        .items
        .iter()
        .enumerate()
        .flat_map(|(i, l)| {
            l.lots.iter().map(move |lot| PickRow {
                line: i + 1,
                sku_code: l.sku_code.clone(),
                product_name: l.product_name.clone(),
                lot_code: lot.lot_code.clone(),
                expires: lot.expired_at.clone(),
                quantity: lot.quantity,
            })
        })
        .collect();
    let mut head = vec![format!("โอนจาก {from} ไป {to}"), format!("วันที่โอน {}", thai_date_time(ms_of(&t.created_at)))];
    if !t.note.is_empty() {
        head.push(format!("หมายเหตุ {}", t.note));
    }
    pick_sheet(&t.code, &head, &rows, t.total_qty, ["ผู้หยิบสินค้า", "ผู้ตรวจสอบ", "ผู้รับสินค้า"], now_ms)
}

/// A pick list sheet (A4): a title with its code as a barcode, lines of heading, the lots to
/// take with boxes to tick, the total and places to sign.
pub fn pick_sheet(code: &str, head: &[String], rows: &[PickRow], total: i64, signs: [&str; 3], now_ms: i64) -> Vec<u8> {
    let mut doc = Doc::new(&format!("ใบหยิบสินค้า {code}"));
    let cols = [
        Col("#", 8.0, Align::Center),
        Col("รหัส SKU", 30.0, Align::Left),
        Col("สินค้า", 62.0, Align::Left),
        Col("ล็อต", 30.0, Align::Left),
        Col("หมดอายุ", 22.0, Align::Center),
        Col("จำนวน", 18.0, Align::Right),
        Col("หยิบแล้ว", 16.0, Align::Center),
    ];
    let mut k = 0;
    let mut page_no = 0;
    loop {
        page_no += 1;
        let p = doc.page(A4.0, A4.1);
        let mut y = MARGIN + 6.0;
        p.text(MARGIN, y, 16.0, Weight::Bold, Align::Left, "ใบหยิบสินค้า");
        p.text(A4.0 - MARGIN, y, 12.0, Weight::Bold, Align::Right, code);
        y += 7.0;
        p.code128(A4.0 - MARGIN - 50.0, y - 3.0, 50.0, 8.0, code).ok();
        for line in head {
            y += p.wrap(MARGIN, y, A4.0 - 2.0 * MARGIN - 55.0, 9.0, Weight::Regular, line).max(5.5);
        }
        y += 3.0;
        y = header_row(p, y, &cols);
        while k < rows.len() && y < A4.1 - 50.0 {
            let r = &rows[k];
            let mut x = MARGIN;
            let values = [
                r.line.to_string(),
                r.sku_code.clone(),
                String::new(),
                r.lot_code.clone(),
                r.expires.as_deref().map(date_of).unwrap_or_else(|| "-".into()),
                r.quantity.to_string(),
                String::new(),
            ];
            let mut row_h: f32 = 5.5;
            for (c, Col(_, w, align)) in cols.iter().enumerate() {
                match c {
                    2 => row_h = row_h.max(p.wrap(x + 1.0, y, w - 2.0, 8.0, Weight::Regular, &r.product_name)),
                    6 => p.rect(x + w / 2.0 - 2.0, y - 3.2, 4.0, 4.0, false, 0.5),
                    _ => cell(p, x, *w, y, *align, &values[c]),
                }
                x += w;
            }
            y += row_h + 1.0;
            p.line(MARGIN, y - 4.0, A4.0 - MARGIN, y - 4.0, 0.2);
            k += 1;
        }
        let done = k >= rows.len();
        if done {
            y += 2.0;
            p.text(A4.0 - MARGIN - 20.0, y, 9.0, Weight::Bold, Align::Right, "รวม");
            p.text(A4.0 - MARGIN - 16.0, y, 9.0, Weight::Bold, Align::Right, &total.to_string());
            let sy = A4.1 - 30.0;
            for (n, who) in signs.iter().enumerate() {
                let x = MARGIN + 8.0 + n as f32 * 64.0;
                p.line(x, sy, x + 50.0, sy, 0.4);
                p.text(x + 25.0, sy + 5.0, 9.0, Weight::Regular, Align::Center, who);
            }
        }
        p.text(
            A4.0 - MARGIN,
            A4.1 - 8.0,
            7.0,
            Weight::Regular,
            Align::Right,
            &format!("พิมพ์เมื่อ {} · หน้า {page_no}", thai_date_time(now_ms)),
        );
        if done {
            break;
        }
    }
    doc.finish()
}

/// Label sizes for parcels: A6 (105 × 148 mm) and the 100 × 150 mm of thermal printers.
pub const A6: (f32, f32) = (105.0, 148.0);
/// 100 × 150 mm.
pub const THERMAL: (f32, f32) = (100.0, 150.0);

/// Who sends or receives a parcel, as printed.
#[derive(Debug, Clone, Default)]
pub struct LabelParty {
    pub name: String,
    pub tel: String,
    /// Address lines, printed in order.
    pub lines: Vec<String>,
    pub postcode: String,
}

/// A parcel's shipping label.
#[derive(Debug, Clone, Default)]
pub struct ParcelLabel {
    pub order_no: String,
    pub tracking_no: String,
    /// The carrier's name.
    pub carrier: String,
    pub sender: LabelParty,
    pub receiver: LabelParty,
    /// Baht text to collect on delivery (None: not COD).
    pub cod: Option<String>,
    /// kg text.
    pub weight: String,
    /// This parcel's place among the order's (1-based) and how many.
    pub index: (usize, usize),
    /// What is in it (SKU codes and units).
    pub contents: String,
}

/// Parcel labels, one page each at `size`: carrier and order, the tracking number as a
/// Code 128 barcode, cash on delivery, the receiver with a large postcode, the sender, and
/// the contents.
pub fn parcel_labels(labels: &[ParcelLabel], size: (f32, f32), now_ms: i64) -> Vec<u8> {
    let mut doc = Doc::new("ใบปะหน้าพัสดุ");
    let (w, h) = size;
    let m = 5.0;
    for l in labels {
        let p = doc.page(w, h);
        let mut y = m + 5.0;
        p.text(m, y, 13.0, Weight::Bold, Align::Left, &p.fit(13.0, Weight::Bold, &l.carrier, w * 0.55));
        p.text(w - m, y, 9.0, Weight::Bold, Align::Right, &l.order_no);
        y += 3.0;
        p.line(m, y, w - m, y, 0.6);
        y += 2.0;
        if l.tracking_no.is_empty() {
            p.text(w / 2.0, y + 10.0, 10.0, Weight::Regular, Align::Center, "ยังไม่มีเลขพัสดุ");
        } else {
            p.code128(m + 3.0, y, w - 2.0 * m - 6.0, 17.0, &l.tracking_no).ok();
            p.text(w / 2.0, y + 22.0, 12.0, Weight::Bold, Align::Center, &l.tracking_no);
        }
        y += 26.0;
        match &l.cod {
            Some(amount) => {
                p.rect(m, y, w - 2.0 * m, 12.0, false, 1.2);
                p.text(m + 2.0, y + 5.0, 8.0, Weight::Bold, Align::Left, "เก็บเงินปลายทาง (COD)");
                p.text(w - m - 2.0, y + 9.0, 15.0, Weight::Bold, Align::Right, &format!("฿{amount}"));
            }
            None => {
                p.rect(m, y, w - 2.0 * m, 12.0, false, 0.4);
                p.text(w / 2.0, y + 7.5, 10.0, Weight::Bold, Align::Center, "ไม่เก็บเงินปลายทาง");
            }
        }
        y += 18.0;
        p.text(m, y, 8.0, Weight::Bold, Align::Left, "ผู้รับ");
        y += 5.5;
        y += p.wrap(m, y, w - 2.0 * m, 12.0, Weight::Bold, &l.receiver.name).max(5.0);
        if !l.receiver.tel.is_empty() {
            p.text(m, y, 10.0, Weight::Regular, Align::Left, &format!("โทร {}", l.receiver.tel));
            y += 5.0;
        }
        for line in &l.receiver.lines {
            y += p.wrap(m, y, w - 2.0 * m, 10.0, Weight::Regular, line).max(4.5);
        }
        if !l.receiver.postcode.is_empty() {
            y += 6.0;
            p.rect(w - m - 42.0, y - 8.0, 42.0, 11.0, false, 1.0);
            p.text(w - m - 21.0, y, 20.0, Weight::Bold, Align::Center, &l.receiver.postcode);
            y += 6.0;
        }
        y += 2.0;
        p.line(m, y, w - m, y, 0.3);
        y += 4.5;
        p.text(m, y, 7.5, Weight::Bold, Align::Left, "ผู้ส่ง");
        y += 4.0;
        let sender = [
            l.sender.name.clone(),
            l.sender.lines.join(" "),
            if l.sender.tel.is_empty() { String::new() } else { format!("โทร {}", l.sender.tel) },
        ]
        .into_iter()
        .filter(|s| !s.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" · ");
        y += p.wrap(m, y, w - 2.0 * m, 7.5, Weight::Regular, &sender).max(3.5);
        y += 1.0;
        p.line(m, y, w - m, y, 0.3);
        y += 4.0;
        let facts = format!("น้ำหนัก {} กก. · กล่องที่ {}/{}", l.weight, l.index.0, l.index.1);
        p.text(m, y, 7.5, Weight::Regular, Align::Left, &facts);
        y += 4.0;
        if y < h - 10.0 && !l.contents.is_empty() {
            p.wrap(m, y, w - 2.0 * m, 7.0, Weight::Regular, &l.contents);
        }
        p.text(w - m, h - 4.0, 6.0, Weight::Regular, Align::Right, &format!("พิมพ์เมื่อ {}", thai_date_time(now_ms)));
    }
    doc.finish()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use bo_proto::wms::v1 as pb;

    use super::*;
    use crate::routes::receipts::receipt_body;

    fn sample(lines: usize) -> GoodsReceiptBody {
        let line = |i: usize| pb::ReceiptLine {
            id: i as i64 + 1,
            sku_id: 7,
            product_name: "น้ำปลาแท้ ตราปลาหมึก ขวดใหญ่".into(),
            sku_code: format!("FS-{i}"),
            barcode: "5901234123457".into(),
            option1: "ใหญ่".into(),
            cost: 12_000,
            request_qty: 2,
            request_base_qty: 24,
            receive_qty: 24,
            defect_qty: 1,
            expires_at_ms: 1_814_400_000_000,
            unit: Some(pb::LineUnit { unit_id: 3, name: "ลัง".into(), quantity: 12 }),
            print_label: i == 0,
            status: pb::LineOutcome::Complete.into(),
            ..Default::default()
        };
        let r = pb::GoodsReceipt {
            id: 1,
            code: "GR2569-000001".into(),
            state: pb::GoodsReceiptState::Approved.into(),
            warehouse_name: "คลังสินค้าหลัก".into(),
            draft: Some(pb::GoodsReceiptDraft {
                r#type: "product".into(),
                expected_received_at_ms: 1_795_000_000_000,
                note: "ส่งของช่วงเช้า ก่อนเที่ยง".into(),
                packagings: vec![pb::Packaging { name: "พาเลท".into(), quantity: 2, dimension: None }],
                options: vec!["label_sku".into()],
                ..Default::default()
            }),
            lines: (0..lines).map(line).collect(),
            total_cost: 24_000,
            total_request_qty: 24,
            ..Default::default()
        };
        receipt_body(r, &HashMap::new())
    }

    #[test]
    fn the_receipt_reads_in_thai() {
        let pdf = goods_receipt(&sample(3), "ร้านป้าแดงของฝาก", "สมชาย ใจดี", 1_795_000_000_000);
        assert!(pdf.starts_with(b"%PDF-"));
        let Some(text) = bo_pdf::testing::pdftotext(&pdf) else { return };
        for want in ["ใบรับสินค้า", "GR2569-000001", "น้ำปลาแท้", "ร้านป้าแดงของฝาก", "คลังสินค้าหลัก", "ผู้ตรวจสอบ", "240.00"]
        {
            assert!(text.contains(want), "{want} missing from:\n{text}");
        }
    }

    #[test]
    fn long_receipts_go_on_over_pages() {
        let pdf = goods_receipt(&sample(80), "ร้าน", "x", 0);
        let Some(text) = bo_pdf::testing::pdftotext(&pdf) else { return };
        // pdftotext ends every page with a form feed.
        assert!(text.matches('\u{c}').count() >= 2, "80 lines need more than one page");
        assert!(text.contains("FS-0") && text.contains("FS-79"), "every line is printed");
    }

    #[test]
    fn parcel_labels_read_in_thai_with_cod_and_postcode() {
        let label = ParcelLabel {
            order_no: "SO2569-000042".into(),
            tracking_no: "EF582621151TH".into(),
            carrier: "ไปรษณีย์ไทย".into(),
            sender: LabelParty {
                name: "ร้านป้าแดงของฝาก".into(),
                tel: "0812345678".into(),
                lines: vec!["12 ถนนนิมมาน เชียงใหม่".into()],
                postcode: "50200".into(),
            },
            receiver: LabelParty {
                name: "สมชาย ใจดี".into(),
                tel: "0899999999".into(),
                lines: vec!["99/1 ถนนสุขุมวิท".into(), "คลองเตยเหนือ วัฒนา กรุงเทพมหานคร".into()],
                postcode: "10110".into(),
            },
            cod: Some("1,234.00".into()),
            weight: "0.800".into(),
            index: (1, 2),
            contents: "FS-1 ×2, FS-2 ×1".into(),
        };
        let no_cod = ParcelLabel { cod: None, index: (2, 2), ..label.clone() };
        for size in [A6, THERMAL] {
            let pdf = parcel_labels(&[label.clone(), no_cod.clone()], size, 1_795_000_000_000);
            assert!(pdf.starts_with(b"%PDF-"));
            let Some(text) = bo_pdf::testing::pdftotext(&pdf) else { return };
            for want in [
                "EF582621151TH",
                "สมชาย ใจดี",
                "10110",
                "เก็บเงินปลายทาง",
                "1,234.00",
                "ไม่เก็บเงินปลายทาง",
                "ร้านป้าแดงของฝาก",
                "SO2569-000042",
            ] {
                assert!(text.contains(want), "{want} missing from:\n{text}");
            }
            assert_eq!(text.matches('\u{c}').count(), 2, "one page per parcel");
        }
    }

    #[test]
    fn labels_one_per_good_piece_of_flagged_lines() {
        let r = sample(2);
        let counts = label_counts(&r);
        assert_eq!(counts, vec![(0, 23)]);
        let pdf = labels(&r, &counts);
        if let Some(t) = bo_pdf::testing::pdftotext(&pdf) {
            assert_eq!(t.matches("5901234123457").count(), 23, "EAN-13 caption on each label");
            assert!(t.contains("น้ำปลาแท้"));
        }
    }
}
