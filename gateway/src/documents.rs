//! Printed documents, in Thai: the goods receipt sheet (A4), SKU barcode labels (50 × 30 mm,
//! one per page, for label printers) and a transfer's pick list (A4). Pure: they take what
//! the API answers and give PDF bytes.

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

/// `text` cut (with …) to at most `max_mm` wide at the label's size.
fn fit(p: &Page, text: &str, max_mm: f32) -> String {
    if p.text_width(7.0, Weight::Bold, text) <= max_mm {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut n = chars.len();
    let mark = |c: char| matches!(c, '\u{0E31}' | '\u{0E34}'..='\u{0E3A}' | '\u{0E47}'..='\u{0E4E}');
    while n > 1 {
        n -= 1;
        if mark(chars[n]) {
            continue;
        }
        let cut: String = chars[..n].iter().collect::<String>() + "…";
        if p.text_width(7.0, Weight::Bold, &cut) <= max_mm {
            return cut;
        }
    }
    "…".to_string()
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
        for _ in 0..*n {
            let p = doc.page(w, h);
            let name = fit(p, &l.product_name, 1.8 * (w - 4.0));
            p.wrap(2.0, 4.0, w - 4.0, 7.0, Weight::Bold, &name);
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

/// A transfer's pick list: for each SKU the lots to take, first expiry first, with a box to
/// tick, and places to sign.
pub fn pick_list(t: &TransferBody, from: &str, to: &str, now_ms: i64) -> Vec<u8> {
    let mut doc = Doc::new(&format!("ใบหยิบสินค้า {}", t.code));
    let cols = [
        Col("#", 8.0, Align::Center),
        Col("รหัส SKU", 30.0, Align::Left),
        Col("สินค้า", 62.0, Align::Left),
        Col("ล็อต", 30.0, Align::Left),
        Col("หมดอายุ", 22.0, Align::Center),
        Col("จำนวน", 18.0, Align::Right),
        Col("หยิบแล้ว", 16.0, Align::Center),
    ];
    let rows: Vec<(usize, &crate::routes::transfers::TransferLineBody, &crate::routes::transfers::LotTakeBody)> =
        t.items.iter().enumerate().flat_map(|(i, l)| l.lots.iter().map(move |lot| (i, l, lot))).collect();
    let mut k = 0;
    let mut page_no = 0;
    loop {
        page_no += 1;
        let p = doc.page(A4.0, A4.1);
        let mut y = MARGIN + 6.0;
        p.text(MARGIN, y, 16.0, Weight::Bold, Align::Left, "ใบหยิบสินค้า");
        p.text(A4.0 - MARGIN, y, 12.0, Weight::Bold, Align::Right, &t.code);
        y += 7.0;
        p.text(MARGIN, y, 9.0, Weight::Regular, Align::Left, &format!("โอนจาก {from} ไป {to}"));
        p.code128(A4.0 - MARGIN - 50.0, y - 3.0, 50.0, 8.0, &t.code).ok();
        y += 5.5;
        p.text(
            MARGIN,
            y,
            9.0,
            Weight::Regular,
            Align::Left,
            &format!("วันที่โอน {}", thai_date_time(ms_of(&t.created_at))),
        );
        y += 5.5;
        if !t.note.is_empty() {
            y += p.wrap(MARGIN, y, A4.0 - 2.0 * MARGIN, 9.0, Weight::Regular, &format!("หมายเหตุ {}", t.note)).max(5.5);
        }
        y += 3.0;
        y = header_row(p, y, &cols);
        while k < rows.len() && y < A4.1 - 50.0 {
            let (i, l, lot) = rows[k];
            let mut x = MARGIN;
            let values = [
                (i + 1).to_string(),
                l.sku_code.clone(),
                String::new(),
                lot.lot_code.clone(),
                lot.expired_at.as_deref().map(date_of).unwrap_or_else(|| "-".into()),
                lot.quantity.to_string(),
                String::new(),
            ];
            let mut row_h: f32 = 5.5;
            for (c, Col(_, w, align)) in cols.iter().enumerate() {
                match c {
                    2 => row_h = row_h.max(p.wrap(x + 1.0, y, w - 2.0, 8.0, Weight::Regular, &l.product_name)),
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
            p.text(A4.0 - MARGIN - 16.0, y, 9.0, Weight::Bold, Align::Right, &t.total_qty.to_string());
            let sy = A4.1 - 30.0;
            for (n, who) in ["ผู้หยิบสินค้า", "ผู้ตรวจสอบ", "ผู้รับสินค้า"].iter().enumerate()
            {
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
            status: "complete".into(),
            ..Default::default()
        };
        let r = pb::GoodsReceipt {
            id: 1,
            code: "GR2569-000001".into(),
            state: "approved".into(),
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
