use super::*;

const EN: [&str; 15] = [
    "Order reference",
    "Recipient name",
    "Phone",
    "Address",
    "Sub-district",
    "District",
    "Province",
    "Postcode",
    "Email",
    "SKU code",
    "Quantity",
    "Unit price",
    "Shipping charge",
    "Discount",
    "Note",
];

/// A CSV line of the 15 columns from the given (column, value) pairs.
fn line(values: &[(&str, &str)]) -> String {
    COLUMNS
        .iter()
        .map(|c| {
            let v = values.iter().find(|(k, _)| *k == c.key).map(|(_, v)| *v).unwrap_or("");
            if v.contains(',') || v.contains('"') {
                format!("\"{}\"", v.replace('"', "\"\""))
            } else {
                v.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn buyer(reference: &'static str, sku: &'static str, qty: &'static str) -> Vec<(&'static str, &'static str)> {
    vec![
        ("reference", reference),
        ("name", "สมชาย ใจดี"),
        ("tel", "081-234-5678"),
        ("address", "99/1 ถนนสุขุมวิท"),
        ("sub_district", "คลองเตยเหนือ"),
        ("district", "วัฒนา"),
        ("province", "กรุงเทพมหานคร"),
        ("postcode", "10110"),
        ("sku", sku),
        ("quantity", qty),
    ]
}

fn csv(lines: &[Vec<(&str, &str)>]) -> Vec<u8> {
    let mut s = EN.join(",");
    for l in lines {
        s.push_str("\r\n");
        s.push_str(&line(l));
    }
    s.into_bytes()
}

fn skus() -> HashMap<String, SkuInfo> {
    let mut m = HashMap::new();
    m.insert("TS-1".into(), SkuInfo { id: 11, price: 19_900, active: true });
    m.insert("MUG".into(), SkuInfo { id: 12, price: 9_900, active: true });
    m.insert("OLD".into(), SkuInfo { id: 13, price: 100, active: false });
    m.insert("GOLD".into(), SkuInfo { id: 14, price: 3_000_000, active: true });
    m
}

fn codes(p: &Plan) -> Vec<(usize, &str, &str)> {
    p.errors.iter().map(|e| (e.row, e.field.as_str(), e.code.as_str())).collect()
}

#[test]
fn rows_of_one_reference_make_one_order() {
    let mut second = vec![("reference", "A-1"), ("sku", "MUG"), ("quantity", "3"), ("price", "50")];
    second.push(("name", "สมชาย ใจดี"));
    let mut first = buyer("A-1", "TS-1", "2");
    first.push(("shipping_charge", "40"));
    first.push(("discount", "10.50"));
    let file = csv(&[first, buyer("B-2", "MUG", "1"), second]);
    let parsed = parse(&file).unwrap();
    assert_eq!(parsed.format, TableFormat::Csv);
    assert_eq!(parsed.header, EN.map(String::from).to_vec());
    assert_eq!(parsed.rows.iter().map(|r| r.row).collect::<Vec<_>>(), vec![2, 3, 4]);
    let p = plan(&parsed.rows, "facebook", 7, &skus(), &HashSet::new());
    assert_eq!(codes(&p), vec![]);
    assert_eq!(p.orders.len(), 2);
    let a = &p.orders[0];
    assert_eq!(a.rows, vec![2, 4]);
    assert_eq!(a.draft.reference, "A-1");
    assert_eq!(a.draft.channel, "facebook");
    assert!(a.draft.imported);
    assert_eq!(a.draft.address.tel, "0812345678");
    assert_eq!(a.draft.items.len(), 2);
    assert_eq!(a.draft.items[0].sku_id, 11);
    assert_eq!(a.draft.items[0].price, None);
    assert_eq!(a.draft.items[1].price, Some(5_000));
    assert_eq!(a.draft.items[1].warehouse_id, 7);
    assert_eq!(a.quantity, 5);
    // 2 × 199 + 3 × 50 − 10.50 + 40 shipping, VAT included.
    assert_eq!(a.total, 39_800 + 15_000 - 1_050 + 4_000);
    assert_eq!(p.orders[1].rows, vec![3]);
    assert_eq!(p.orders[1].total, 9_900);
    assert!(p.failed_rows.is_empty());
}

#[test]
fn a_bad_row_fails_its_whole_order_and_only_it() {
    let mut bad_phone = buyer("C-3", "TS-1", "1");
    bad_phone[2] = ("tel", "12345");
    let file = csv(&[
        buyer("A-1", "TS-1", "1"),
        vec![("reference", "A-1"), ("sku", "NOPE"), ("quantity", "1")],
        buyer("B-2", "MUG", "0"),
        bad_phone,
        buyer("D-4", "OLD", "1"),
        buyer("E-5", "MUG", "2.5"),
        vec![("sku", "MUG"), ("quantity", "1")],
        buyer("F-6", "GOLD", "2"),
        buyer("G-7", "MUG", "1"),
        vec![("reference", "G-7"), ("name", "คนอื่น"), ("sku", "MUG"), ("quantity", "1")],
        buyer("H-8", "MUG", "1"),
    ]);
    let parsed = parse(&file).unwrap();
    let p = plan(&parsed.rows, "line", 7, &skus(), &HashSet::new());
    assert_eq!(p.orders.iter().map(|o| o.draft.reference.as_str()).collect::<Vec<_>>(), vec!["H-8"]);
    assert_eq!(
        codes(&p),
        vec![
            (2, "reference", "order.import_order_has_errors"),
            (3, "sku", "order.sku_unknown"),
            (4, "quantity", "validation.quantity"),
            (5, "tel", "validation.phone_digits"),
            (6, "sku", "order.sku_inactive"),
            (7, "quantity", "validation.quantity"),
            (8, "reference", "validation.required"),
            (9, "reference", "order.value_exceeds_limit"),
            (10, "reference", "order.import_order_has_errors"),
            (11, "name", "order.import_differs_from_first_row"),
        ]
    );
    assert_eq!(p.failed_rows, vec![2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
}

#[test]
fn a_reference_the_store_has_is_a_duplicate() {
    let file = csv(&[buyer("A-1", "TS-1", "1"), buyer("A-1", "MUG", "1"), buyer("B-2", "MUG", "1")]);
    let parsed = parse(&file).unwrap();
    let taken: HashSet<String> = ["A-1".to_string()].into();
    let p = plan(&parsed.rows, "line", 7, &skus(), &taken);
    assert_eq!(
        codes(&p),
        vec![(2, "reference", "order.duplicate_reference"), (3, "reference", "order.duplicate_reference")]
    );
    assert_eq!(p.orders.len(), 1);
    assert_eq!(references(&parsed.rows), vec!["A-1", "B-2"]);
    assert_eq!(sku_codes(&parsed.rows), vec!["TS-1", "MUG"]);
}

#[test]
fn thai_headers_and_the_template_are_read() {
    for lang in ["th", "en"] {
        let bytes = template(lang).unwrap();
        let parsed = parse(&bytes).unwrap();
        assert_eq!(parsed.format, TableFormat::Xlsx);
        assert_eq!(parsed.rows.len(), 2, "{lang}");
        let p = plan(&parsed.rows, "facebook", 1, &HashMap::new(), &HashSet::new());
        // The example's SKUs are not this store's.
        assert_eq!(codes(&p), vec![(2, "sku", "order.sku_unknown"), (3, "sku", "order.sku_unknown")], "{lang}");
        let mut known = HashMap::new();
        known.insert("TS-WHITE-M".to_string(), SkuInfo { id: 1, price: 1, active: true });
        known.insert("MUG-01".to_string(), SkuInfo { id: 2, price: 9_900, active: true });
        let p = plan(&parsed.rows, "facebook", 1, &known, &HashSet::new());
        assert_eq!(codes(&p), vec![]);
        assert_eq!(p.orders[0].total, 2 * 19_900 + 9_900 + 4_000);
    }
    let th: Vec<&str> = COLUMNS.iter().map(|c| c.th).collect();
    let mut file = th.join(",");
    file.push_str("\nX-1,,,,,,,,,MUG,1,,,,\n");
    let parsed = parse(file.as_bytes()).unwrap();
    assert_eq!(parsed.rows.len(), 1);
    // An address may come later: the order is made with the problem address_incomplete.
    let p = plan(&parsed.rows, "facebook", 1, &skus(), &HashSet::new());
    assert_eq!(codes(&p), vec![]);
    assert!(!p.orders[0].draft.address.is_complete());
}

#[test]
fn refuses_wrong_files() {
    assert_eq!(parse(b"name,phone\nA,1").unwrap_err(), FileError::WrongTemplate);
    assert_eq!(FileError::WrongTemplate.code(), "import_wrong_template");
    assert_eq!(FileError::WrongTemplate.to_string(), "unsuccessful, please upload again");
    assert_eq!(parse(EN.join(",").as_bytes()).unwrap_err(), FileError::Empty);
    assert_eq!(parse(b"PK\x03\x04garbage").unwrap_err(), FileError::NotReadable);
    let mut big = b"a,".to_vec();
    big.resize(MAX_FILE_BYTES + 1, b'a');
    assert_eq!(parse(&big).unwrap_err(), FileError::TooLarge);
    let mut many = EN.join(",");
    for i in 0..=MAX_ROWS {
        many.push_str(&format!("\nR{i},,,,,,,,,MUG,1,,,,"));
    }
    assert_eq!(parse(many.as_bytes()).unwrap_err(), FileError::TooManyRows(MAX_ROWS + 1));
    // A cell too long for any field is named.
    let long = "ก".repeat(MAX_CELL_CHARS + 1);
    let mut row = buyer("A-1", "MUG", "1");
    row.push(("note", &long));
    let parsed = parse(&csv(&[row])).unwrap();
    let p = plan(&parsed.rows, "line", 7, &skus(), &HashSet::new());
    assert_eq!(codes(&p), vec![(2, "note", "validation.too_long")]);
}

#[test]
fn a_formula_is_text_never_its_value() {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    for (c, h) in EN.iter().enumerate() {
        ws.write_string(0, c as u16, *h).unwrap();
    }
    let values = buyer("A-1", "MUG", "1");
    for (c, col) in COLUMNS.iter().enumerate() {
        if let Some((_, v)) = values.iter().find(|(k, _)| *k == col.key) {
            ws.write_string(1, c as u16, *v).unwrap();
        }
    }
    // The quantity is a formula whose cached value would be 5; the note one that would run.
    let qty = COLUMNS.iter().position(|c| c.key == "quantity").unwrap() as u16;
    let note = COLUMNS.iter().position(|c| c.key == "note").unwrap() as u16;
    ws.write_formula(1, qty, rust_xlsxwriter::Formula::new("=2+3").set_result("5")).unwrap();
    ws.write_formula(1, note, "=HYPERLINK(\"http://x\",\"hi\")").unwrap();
    let parsed = parse(&wb.save_to_buffer().unwrap()).unwrap();
    assert_eq!(parsed.rows[0].values.get("quantity"), Some(&Cell::Text("=2+3".into())));
    let p = plan(&parsed.rows, "line", 7, &skus(), &HashSet::new());
    assert_eq!(codes(&p), vec![(2, "quantity", "validation.quantity")]);
    // In a text column it is kept as typed.
    let parsed = parse(&csv(&[{
        let mut r = buyer("A-1", "MUG", "1");
        r.push(("note", "=HYPERLINK(\"http://x\")"));
        r
    }]))
    .unwrap();
    let p = plan(&parsed.rows, "line", 7, &skus(), &HashSet::new());
    assert_eq!(p.orders[0].draft.note, "=HYPERLINK(\"http://x\")");
}

#[test]
fn numbers_typed_as_numbers_are_read() {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    for (c, h) in EN.iter().enumerate() {
        ws.write_string(0, c as u16, *h).unwrap();
    }
    let at = |k: &str| COLUMNS.iter().position(|c| c.key == k).unwrap() as u16;
    ws.write_string(1, at("reference"), "A-1").unwrap();
    ws.write_string(1, at("name"), "สมหญิง").unwrap();
    ws.write_number(1, at("tel"), 812345678.0).unwrap();
    ws.write_number(1, at("postcode"), 10110.0).unwrap();
    ws.write_string(1, at("sku"), "MUG").unwrap();
    ws.write_number(1, at("quantity"), 3.0).unwrap();
    ws.write_number(1, at("price"), 99.5).unwrap();
    let parsed = parse(&wb.save_to_buffer().unwrap()).unwrap();
    let p = plan(&parsed.rows, "line", 7, &skus(), &HashSet::new());
    assert_eq!(codes(&p), vec![]);
    let d = &p.orders[0].draft;
    assert_eq!(d.address.tel, "0812345678");
    assert_eq!(d.address.postcode, "10110");
    assert_eq!(d.items[0].quantity, 3);
    assert_eq!(d.items[0].price, Some(9_950));
    // The failed-rows file repeats the cells as they were.
    assert_eq!(parsed.rows[0].cells[at("price") as usize], "99.5");
    assert_eq!(parsed.rows[0].cells[at("tel") as usize], "812345678");
}
