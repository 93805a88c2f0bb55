//! Whole documents: structure, size, extractable Thai text.

use bo_pdf::{fmt, Align, BarcodeError, Doc, Weight};

const LINE: &str = "ใบรับสินค้า GR2569-000001 น้ำปลา ผู้ใหญ่ กี่ ที่";

/// A goods-receipt sheet on A4.
fn goods_receipt() -> Vec<u8> {
    let mut doc = Doc::new("ใบรับสินค้า GR2569-000001");
    let page = doc.page(210.0, 297.0);
    page.text(15.0, 20.0, 14.0, Weight::Regular, Align::Left, LINE);
    page.text(195.0, 30.0, 12.0, Weight::Bold, Align::Right, &fmt::thai_date_time(1_795_590_300_000));
    page.code128(15.0, 35.0, 70.0, 15.0, "GR2569-000001").unwrap();
    page.ean13(120.0, 35.0, 40.0, 20.0, "885099932001").unwrap();
    page.rect(15.0, 60.0, 180.0, 30.0, false, 0.8);
    page.line(15.0, 70.0, 195.0, 70.0, 0.5);
    page.text(105.0, 67.0, 10.0, Weight::Bold, Align::Center, "รายการสินค้า");
    let h = page.wrap(
        17.0,
        76.0,
        80.0,
        10.0,
        Weight::Regular,
        "หมายเหตุ: สินค้าที่ได้รับไม่ครบตามใบสั่งซื้อ จะดำเนินการติดตามกับผู้ขายภายในเจ็ดวันทำการ",
    );
    assert!(h > 0.0);
    page.text(195.0, 86.0, 10.0, Weight::Regular, Align::Right, &format!("{} บาท", fmt::baht(123_450)));
    doc.finish()
}

/// The text of a PDF as `pdftotext` reads it, or `None` when the tool is not installed
/// (which fails the test on CI).
use bo_pdf::testing::pdftotext;

#[test]
fn goods_receipt_is_a_small_complete_pdf() {
    let pdf = goods_receipt();
    eprintln!("goods receipt: {} bytes", pdf.len());
    assert!(pdf.starts_with(b"%PDF-"));
    assert!(pdf.trim_ascii_end().ends_with(b"%%EOF"));
    assert!(pdf.len() < 60_000, "{} bytes: is the font subsetted?", pdf.len());
    // Both fonts are embedded as Type0 / CIDFontType2 with a ToUnicode map.
    let text = String::from_utf8_lossy(&pdf);
    assert_eq!(text.matches("/Subtype /Type0").count(), 2);
    assert_eq!(text.matches("/CIDFontType2").count(), 2);
    assert_eq!(text.matches("/ToUnicode").count(), 2);
    assert!(text.contains("/Identity-H"));
    assert!(text.contains("/FlateDecode"));
}

#[test]
fn thai_text_extracts_exactly() {
    let Some(text) = pdftotext(&goods_receipt()) else { return };
    assert!(text.contains(LINE), "extracted:\n{text}");
    assert!(text.contains("25 พ.ย. 2569 14:05"), "extracted:\n{text}");
    assert!(text.contains("1,234.50 บาท"), "extracted:\n{text}");
    assert!(text.contains("รายการสินค้า"), "extracted:\n{text}");
    // The wrapped note comes back whole once its line breaks are removed.
    let flat: String = text.split_whitespace().collect();
    assert!(flat.contains("จะดำเนินการติดตามกับผู้ขายภายในเจ็ดวันทำการ"), "extracted:\n{text}");
}

#[test]
fn labels_of_several_sizes() {
    let mut doc = Doc::new("SKU labels");
    for sku in ["SKU-0001", "SKU-0002"] {
        let page = doc.page(50.0, 30.0);
        page.text(25.0, 6.0, 8.0, Weight::Bold, Align::Center, "น้ำปลาแท้ ตราปลาหมึก");
        page.code128(4.0, 8.0, 42.0, 14.0, sku).unwrap();
        page.text(25.0, 26.0, 8.0, Weight::Regular, Align::Center, sku);
    }
    let a6 = doc.page(100.0, 150.0);
    a6.wrap(
        5.0,
        10.0,
        90.0,
        12.0,
        Weight::Regular,
        "ผู้รับ: คุณสมชาย ใจดี 99/1 ถนนสุขุมวิท แขวงคลองเตย เขตคลองเตย กรุงเทพมหานคร 10110",
    );
    assert_eq!(doc.page_count(), 3);
    let pdf = doc.finish();
    eprintln!("two labels and an A6 page: {} bytes", pdf.len());
    assert!(pdf.len() < 60_000);
    if let Some(text) = pdftotext(&pdf) {
        assert!(text.contains("SKU-0002"), "extracted:\n{text}");
        assert!(text.contains("น้ำปลาแท้ ตราปลาหมึก"), "extracted:\n{text}");
        assert_eq!(text.matches('\u{0C}').count(), 3, "three pages");
    }
}

#[test]
fn bad_input_does_not_panic() {
    let mut doc = Doc::new("");
    let page = doc.page(0.0, f32::NAN);
    page.text(1.0, 1.0, 10.0, Weight::Regular, Align::Left, "");
    page.text(1.0, 1.0, 10.0, Weight::Regular, Align::Left, "中文 \u{0} \n ok");
    assert_eq!(page.wrap(1.0, 1.0, 0.0, 10.0, Weight::Bold, ""), 0.0);
    assert!(page.wrap(1.0, 1.0, 0.0, 10.0, Weight::Bold, "ที่นี่") > 0.0);
    assert_eq!(page.code128(0.0, 0.0, 10.0, 5.0, "ที่"), Err(BarcodeError::NotPrintableAscii { ch: 'ท', position: 0 }));
    assert!(matches!(page.ean13(0.0, 0.0, 10.0, 5.0, "8850999320016"), Err(BarcodeError::EanCheckDigit { .. })));
    let pdf = doc.finish();
    assert!(pdf.starts_with(b"%PDF-"));
    assert!(Doc::new("empty").finish().starts_with(b"%PDF-"));
}

#[test]
fn widths_and_wrapping_agree() {
    let mut doc = Doc::new("wrap");
    let page = doc.page(210.0, 297.0);
    let w = page.text_width(10.0, Weight::Regular, "ที่");
    // Marks take no room: ที่ is as wide as ท.
    assert!((w - page.text_width(10.0, Weight::Regular, "ท")).abs() < 1e-4);
    assert!(page.text_width(10.0, Weight::Bold, "GR2569") > page.text_width(10.0, Weight::Regular, "GR") * 2.0);
    let lh = page.line_height(10.0);
    assert!(lh > 4.0 && lh < 7.0, "{lh}");
    let text = "น้ำปลา ผู้ใหญ่ กี่ ที่ ".repeat(10);
    let full = page.text_width(10.0, Weight::Regular, &text);
    let h = page.wrap(10.0, 10.0, 50.0, 10.0, Weight::Regular, &text);
    let lines = (h / lh).round() as usize;
    assert!(lines as f32 >= full / 50.0, "{lines} lines for {full} mm");
    assert!(lines < 12, "{lines}");
}

/// The old way: the longest prefix that fits, tried from the end, one shaping each.
fn fit_by_trying(page: &bo_pdf::Page, text: &str, max_mm: f32) -> String {
    if page.text_width(7.0, Weight::Bold, text) <= max_mm {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mark = |c: char| matches!(c, '\u{0E31}' | '\u{0E34}'..='\u{0E3A}' | '\u{0E47}'..='\u{0E4E}');
    let mut n = chars.len();
    while n > 1 {
        n -= 1;
        if mark(chars[n]) {
            continue;
        }
        let cut: String = chars[..n].iter().collect::<String>() + "…";
        if page.text_width(7.0, Weight::Bold, &cut) <= max_mm {
            return cut;
        }
    }
    "…".to_string()
}

#[test]
fn a_long_name_is_cut_once_and_where_it_fits() {
    let mut doc = Doc::new("fit");
    let page = doc.page(50.0, 30.0);
    for text in [
        "น้ำปลาแท้ตราปลาหมึก 700 มล.",
        "เสื้อยืดคอกลมผ้าฝ้ายแท้ 100% สีขาวนวล ไซซ์ XL แพ็ก 3 ตัว",
        "Organic Thai Jasmine Rice, premium grade, 5 kg bag",
        "กี่ที่นี่มี่ปี่ผี่ ผู้ใหญ่ กรุ๊ป ฉ่ำๆ น้ำ",
    ] {
        for max in [8.0, 20.0, 40.0, 80.0, 400.0] {
            let fitted = page.fit(7.0, Weight::Bold, text, max);
            assert_eq!(fitted, fit_by_trying(page, text, max), "{text} in {max} mm");
            assert!(page.text_width(7.0, Weight::Bold, &fitted) <= max + 0.01 || fitted == "…");
        }
    }
    // A name of thousands of characters (one shaping; the old way shaped a prefix per
    // character it dropped).
    let long = "ผลิตภัณฑ์ดูแลผิวสูตรอ่อนโยน ".repeat(300);
    let fitted = page.fit(7.0, Weight::Bold, &long, 80.0);
    assert!(fitted.ends_with('…') && long.starts_with(fitted.trim_end_matches('…')));
    assert!(page.text_width(7.0, Weight::Bold, &fitted) <= 80.0);
}
