//! Writes a sample goods-receipt sheet, SKU labels and a shipping label to the PDF file named
//! on the command line: `cargo run -p bo-pdf --example sample -- sample.pdf`.

use bo_pdf::{fmt, Align, Doc, Weight};

fn main() -> std::io::Result<()> {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: sample OUT.pdf");
        std::process::exit(2);
    };
    let mut doc = Doc::new("ใบรับสินค้า GR2569-000001");

    let a4 = doc.page(210.0, 297.0);
    a4.text(15.0, 22.0, 20.0, Weight::Bold, Align::Left, "ใบรับสินค้า");
    a4.text(195.0, 22.0, 10.0, Weight::Regular, Align::Right, &fmt::thai_date_time(1_795_590_300_000));
    a4.text(195.0, 28.0, 10.0, Weight::Regular, Align::Right, &fmt::en_date(1_795_590_300_000));
    a4.text(15.0, 32.0, 12.0, Weight::Regular, Align::Left, "ใบรับสินค้า GR2569-000001 น้ำปลา ผู้ใหญ่ กี่ ที่");
    a4.code128(15.0, 37.0, 60.0, 14.0, "GR2569-000001").unwrap();
    a4.text(45.0, 55.0, 9.0, Weight::Regular, Align::Center, "GR2569-000001");
    let x = 15.0;
    let mut y = 65.0;
    a4.rect(x, y, 180.0, 8.0, false, 0.8);
    a4.text(x + 2.0, y + 5.5, 10.0, Weight::Bold, Align::Left, "รหัสสินค้า");
    a4.text(x + 40.0, y + 5.5, 10.0, Weight::Bold, Align::Left, "ชื่อสินค้า");
    a4.text(x + 178.0, y + 5.5, 10.0, Weight::Bold, Align::Right, "ราคา (บาท)");
    y += 8.0;
    let rows = [
        ("SKU-0001", "น้ำปลาแท้ ตราปลาหมึก ขนาด 700 มล. (แพ็ก 12 ขวด) สำหรับร้านอาหารและครัวเรือน", 123_450),
        ("SKU-0002", "ข้าวหอมมะลิใหม่ต้นฤดู 5 กิโลกรัม", 18_900),
        ("SKU-0003", "ผู้ใหญ่ลี ที่นี่ กี่ปี ปู่ฟ้า ญี่ปุ่น ฐูป ฎีกา ฏ ฤๅษี เป็ด เล่ม ปั๊ม ฝั่ง", -500),
    ];
    for (sku, name, satang) in rows {
        let h = a4.wrap(x + 40.0, y + 5.5, 100.0, 10.0, Weight::Regular, name) + 2.0;
        a4.text(x + 2.0, y + 5.5, 10.0, Weight::Regular, Align::Left, sku);
        a4.text(x + 178.0, y + 5.5, 10.0, Weight::Regular, Align::Right, &fmt::baht(satang));
        a4.rect(x, y, 180.0, h, false, 0.5);
        y += h;
    }
    a4.ean13(15.0, y + 10.0, 37.29, 20.0, "885099932001").unwrap();
    a4.text(33.6, y + 35.0, 10.0, Weight::Regular, Align::Center, "8850999320014");
    a4.text(70.0, y + 20.0, 9.0, Weight::Regular, Align::Left, "Missing glyph: 中 (drawn as .notdef)");
    a4.line(15.0, 280.0, 195.0, 280.0, 0.5);

    for sku in ["SKU-0001", "SKU-0002"] {
        let label = doc.page(50.0, 30.0);
        label.text(25.0, 5.5, 8.0, Weight::Bold, Align::Center, "น้ำปลาแท้ ตราปลาหมึก");
        label.code128(4.0, 7.5, 42.0, 15.0, sku).unwrap();
        label.text(25.0, 26.5, 8.0, Weight::Regular, Align::Center, sku);
    }

    let a6 = doc.page(100.0, 150.0);
    a6.rect(3.0, 3.0, 94.0, 144.0, false, 1.0);
    a6.text(6.0, 12.0, 14.0, Weight::Bold, Align::Left, "ผู้รับ");
    a6.wrap(
        6.0,
        20.0,
        88.0,
        12.0,
        Weight::Regular,
        "คุณสมชาย ใจดี 99/1 ถนนสุขุมวิท แขวงคลองเตย เขตคลองเตย กรุงเทพมหานคร 10110 โทร 081-234-5678",
    );
    a6.code128(10.0, 100.0, 80.0, 25.0, "TH0123456789012").unwrap();
    a6.text(50.0, 131.0, 11.0, Weight::Bold, Align::Center, "TH0123456789012");

    std::fs::write(path, doc.finish())
}
