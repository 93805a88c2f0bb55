//! Order import (SPEC §2 /order-import, §5 "Order import", §7 POST /orders/excel/import),
//! pure: a file in, rows with their problems out ([`parse`]); rows, the store's SKUs and the
//! references it already has in, orders to make and the problems of the others out
//! ([`plan`]). Nothing here reads a database or calls a service.
//!
//! A row is one line of an order; the rows sharing a reference are one order, its buyer and
//! charges taken from its first row (later rows may leave them empty, or repeat them). An
//! order is made whole or not at all: when one of its rows has a problem, its other rows
//! fail with it ('another row of this order has a problem'), so the failed-rows file holds
//! whole orders, ready to be fixed and imported again. Orders are keyed by channel and
//! reference, so a file imported twice makes nothing the second time ('duplicate order
//! reference').
//!
//! The file is untrusted: .xlsx through the kit's bounded reader with formulas read as their
//! text, or CSV (UTF-8 or Windows-874); at most [`MAX_FILE_BYTES`], [`MAX_ROWS`] rows,
//! [`MAX_CELL_CHARS`] characters a cell.

use std::collections::{HashMap, HashSet};

use bo_kit::sheet::{self, text_of, Cell, SheetCells, SheetError, TableFormat};
use bo_kit::FieldError;

use crate::domain::draft::{self, Address, ItemDraft, OrderDraft};
use crate::domain::money::{self, Charges};

/// The largest file accepted.
pub const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;
/// The most data rows one file may hold.
pub const MAX_ROWS: usize = 10_000;
/// The longest text of a cell.
pub const MAX_CELL_CHARS: usize = 1_000;
/// The header row must be among the first rows.
const HEADER_SEARCH_ROWS: u32 = 10;
/// Rows whose values are kept: the header's search and the largest import.
const KEPT_ROWS: usize = HEADER_SEARCH_ROWS as usize + MAX_ROWS + 1;

/// A column of the template: its key (also an accepted header), its Thai and English
/// headers, and whether it must be present.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub key: &'static str,
    pub th: &'static str,
    pub en: &'static str,
    pub required: bool,
}

const fn col(key: &'static str, th: &'static str, en: &'static str, required: bool) -> Column {
    Column { key, th, en, required }
}

/// The template's columns, in order.
pub const COLUMNS: [Column; 15] = [
    col("reference", "เลขอ้างอิงคำสั่งซื้อ", "Order reference", true),
    col("name", "ชื่อผู้รับ", "Recipient name", false),
    col("tel", "เบอร์โทรศัพท์", "Phone", false),
    col("address", "ที่อยู่", "Address", false),
    col("sub_district", "ตำบล/แขวง", "Sub-district", false),
    col("district", "อำเภอ/เขต", "District", false),
    col("province", "จังหวัด", "Province", false),
    col("postcode", "รหัสไปรษณีย์", "Postcode", false),
    col("email", "อีเมล", "Email", false),
    col("sku", "รหัส SKU", "SKU code", true),
    col("quantity", "จำนวน", "Quantity", true),
    col("price", "ราคาต่อชิ้น", "Unit price", false),
    col("shipping_charge", "ค่าส่ง", "Shipping charge", false),
    col("discount", "ส่วนลด", "Discount", false),
    col("note", "หมายเหตุ", "Note", false),
];

/// The column a header names (its key, Thai or English header; trimmed, any case).
fn column_of(header: &str) -> Option<&'static str> {
    // The template marks required columns with a star.
    let h = header.trim().trim_end_matches('*').trim().to_lowercase();
    COLUMNS.iter().find(|c| h == c.key || h == c.th.to_lowercase() || h == c.en.to_lowercase()).map(|c| c.key)
}

/// Why a whole file is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// An .xlsx the reader cannot read.
    #[error("not a readable .xlsx file")]
    NotReadable,
    /// Over the size limits (file, archive entries, inflated size).
    #[error("file too large")]
    TooLarge,
    /// The header row with the required columns was not found.
    #[error("unsuccessful, please upload again")]
    WrongTemplate,
    /// No data rows.
    #[error("no rows to import")]
    Empty,
    /// More data rows than [`MAX_ROWS`].
    #[error("{0} rows, at most {MAX_ROWS} may be imported at once")]
    TooManyRows(usize),
}

impl FileError {
    /// A stable code for the wire.
    pub fn code(&self) -> &'static str {
        match self {
            FileError::NotReadable => "import_wrong_file_type",
            FileError::TooLarge => "import_too_large",
            FileError::WrongTemplate => "import_wrong_template",
            FileError::Empty => "import_empty",
            FileError::TooManyRows(_) => "import_too_many_rows",
        }
    }
}

/// One data row as read: its cells by column key (trimmed text; absent when empty), and
/// every header column's text as in the file (for the failed-rows file).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Row {
    /// The row's number in the file (1-based, as a spreadsheet shows it).
    pub row: usize,
    /// Values by column key.
    pub values: HashMap<&'static str, Cell>,
    /// The texts of the file's header columns, in the file's order.
    pub cells: Vec<String>,
}

impl Row {
    fn text(&self, key: &str) -> Result<String, &'static str> {
        let s = text_of(self.values.get(key))?;
        if s.chars().count() > MAX_CELL_CHARS {
            return Err("validation.too_long");
        }
        Ok(s)
    }
}

/// A file as read.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The file's header texts, in its order (the failed-rows file repeats them).
    pub header: Vec<String>,
    /// The data rows.
    pub rows: Vec<Row>,
    /// The file's format.
    pub format: TableFormat,
}

/// A problem of one row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    /// The row's number in the file.
    pub row: usize,
    /// The column key (or `reference` for what concerns the whole order).
    pub field: String,
    /// A message key.
    pub code: String,
}

fn err(row: usize, field: &str, code: &str) -> RowError {
    RowError { row, field: field.into(), code: code.into() }
}

/// Reads an import file: .xlsx (first worksheet) or CSV.
pub fn parse(bytes: &[u8]) -> Result<Parsed, FileError> {
    let (cells, format) = sheet::read_table(bytes, MAX_FILE_BYTES, KEPT_ROWS).map_err(|e| match e {
        SheetError::TooLarge => FileError::TooLarge,
        SheetError::NotXlsx | SheetError::SheetNotFound => FileError::NotReadable,
    })?;
    rows_of(&cells, format)
}

fn rows_of(cells: &SheetCells, format: TableFormat) -> Result<Parsed, FileError> {
    let (header_row, columns) = cells
        .rows
        .range(..HEADER_SEARCH_ROWS)
        .find_map(|(r, row)| header_columns(row).map(|c| (*r, c)))
        .ok_or(FileError::WrongTemplate)?;
    let data: Vec<u32> = cells.non_empty.range(header_row + 1..).copied().collect();
    if data.is_empty() {
        return Err(FileError::Empty);
    }
    if data.len() > MAX_ROWS {
        return Err(FileError::TooManyRows(data.len()));
    }
    let head = &cells.rows[&header_row];
    let mut header_cols: Vec<u32> = head.keys().copied().collect();
    header_cols.sort_unstable();
    let header: Vec<String> = header_cols.iter().map(|c| text_of(head.get(c)).unwrap_or_default()).collect();
    let empty = HashMap::new();
    let rows = data
        .into_iter()
        .map(|r| {
            let cells_of = cells.rows.get(&r).unwrap_or(&empty);
            let values = columns.iter().filter_map(|(key, c)| cells_of.get(c).map(|v| (*key, v.clone()))).collect();
            let cells = header_cols.iter().map(|c| raw_text(cells_of.get(c))).collect();
            Row { row: r as usize + 1, values, cells }
        })
        .collect();
    Ok(Parsed { header, rows, format })
}

/// A cell as the failed-rows file repeats it.
fn raw_text(v: Option<&Cell>) -> String {
    match v {
        Some(Cell::Error) => "#ERROR".into(),
        Some(Cell::Float(f)) if f.is_finite() && f.fract() != 0.0 => f.to_string(),
        other => text_of(other).unwrap_or_default(),
    }
}

/// The column index of each known column, if this row names the required ones.
fn header_columns(row: &HashMap<u32, Cell>) -> Option<Vec<(&'static str, u32)>> {
    let mut found: HashMap<&'static str, u32> = HashMap::new();
    for (c, v) in row {
        if let Cell::Text(s) = v {
            if let Some(key) = column_of(s) {
                let e = found.entry(key).or_insert(*c);
                *e = (*e).min(*c);
            }
        }
    }
    if COLUMNS.iter().filter(|c| c.required).all(|c| found.contains_key(c.key)) {
        Some(found.into_iter().collect())
    } else {
        None
    }
}

/// A SKU as the import sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkuInfo {
    pub id: i64,
    /// Price of one unit, satang.
    pub price: i64,
    /// The SKU and its product are on sale.
    pub active: bool,
}

/// An order the file makes.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    /// Its rows' numbers.
    pub rows: Vec<usize>,
    /// The order (validated).
    pub draft: OrderDraft,
    /// What it comes to, satang.
    pub total: i64,
    /// Units of all its lines.
    pub quantity: i64,
}

/// What a file makes: the good orders and the problems of the other rows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Plan {
    pub orders: Vec<Planned>,
    pub errors: Vec<RowError>,
    /// Rows that make no order (every row of an order with a problem).
    pub failed_rows: Vec<usize>,
}

/// The SKU codes the rows name (distinct, in first-seen order).
pub fn sku_codes(rows: &[Row]) -> Vec<String> {
    let mut seen = HashSet::new();
    rows.iter().filter_map(|r| r.text("sku").ok()).filter(|c| !c.is_empty() && seen.insert(c.clone())).collect()
}

/// The references the rows name (distinct).
pub fn references(rows: &[Row]) -> Vec<String> {
    let mut seen = HashSet::new();
    rows.iter().filter_map(|r| r.text("reference").ok()).filter(|c| !c.is_empty() && seen.insert(c.clone())).collect()
}

/// Groups the rows into orders of `channel` from `warehouse_id` and checks each: its cells,
/// its SKUs (`skus` by code), the rules of any order ([`draft::validate`]), the 50,000-baht
/// bill limit, and that the store has no order of that reference yet (`taken`).
pub fn plan(
    rows: &[Row],
    channel: &str,
    warehouse_id: i64,
    skus: &HashMap<String, SkuInfo>,
    taken: &HashSet<String>,
) -> Plan {
    let mut out = Plan::default();
    let mut groups: Vec<(String, Vec<&Row>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for r in rows {
        match r.text("reference") {
            Ok(reference) if !reference.is_empty() => {
                let i = *index.entry(reference.clone()).or_insert_with(|| {
                    groups.push((reference, Vec::new()));
                    groups.len() - 1
                });
                groups[i].1.push(r);
            }
            Ok(_) => {
                out.errors.push(err(r.row, "reference", "validation.required"));
                out.failed_rows.push(r.row);
            }
            Err(code) => {
                out.errors.push(err(r.row, "reference", code));
                out.failed_rows.push(r.row);
            }
        }
    }
    for (reference, group) in groups {
        match plan_order(&reference, &group, channel, warehouse_id, skus, taken) {
            Ok(p) => out.orders.push(p),
            Err(mut errors) => {
                let with_own: HashSet<usize> = errors.iter().map(|e| e.row).collect();
                for r in &group {
                    if !with_own.contains(&r.row) {
                        errors.push(err(r.row, "reference", "order.import_order_has_errors"));
                    }
                    out.failed_rows.push(r.row);
                }
                out.errors.extend(errors);
            }
        }
    }
    out.failed_rows.sort_unstable();
    out.errors.sort_by_key(|e| e.row);
    out
}

fn plan_order(
    reference: &str,
    group: &[&Row],
    channel: &str,
    warehouse_id: i64,
    skus: &HashMap<String, SkuInfo>,
    taken: &HashSet<String>,
) -> Result<Planned, Vec<RowError>> {
    let first = group[0];
    let mut errors = Vec::new();
    if taken.contains(reference) {
        for r in group {
            errors.push(err(r.row, "reference", "order.duplicate_reference"));
        }
        return Err(errors);
    }
    // The order's cells: from its first row; later rows leave them empty or repeat them.
    let mut order_text = |key: &'static str| -> String {
        let v = first.text(key).unwrap_or_else(|code| {
            errors.push(err(first.row, key, code));
            String::new()
        });
        for r in &group[1..] {
            if let Ok(other) = r.text(key) {
                if !other.is_empty() && other != v {
                    errors.push(err(r.row, key, "order.import_differs_from_first_row"));
                }
            }
        }
        v
    };
    let address = Address {
        name: order_text("name"),
        tel: phone(order_text("tel"), first.values.get("tel")),
        address: order_text("address"),
        sub_district: order_text("sub_district"),
        district: order_text("district"),
        state_province: order_text("province"),
        postcode: order_text("postcode"),
        email: order_text("email"),
        country: "TH".into(),
        city: String::new(),
    };
    let note = order_text("note");
    let shipping = order_text("shipping_charge");
    let discount = order_text("discount");
    let money_cell = |key: &str, text: &str, errors: &mut Vec<RowError>| -> Option<i64> {
        if text.is_empty() {
            return None;
        }
        match sheet::satang_of(first.values.get(key), draft::MAX_CHARGE) {
            Ok(v) => Some(v),
            Err(code) => {
                errors.push(err(first.row, key, code));
                None
            }
        }
    };
    let shipping_charge = money_cell("shipping_charge", &shipping, &mut errors).unwrap_or(0);
    let discount_value = money_cell("discount", &discount, &mut errors).unwrap_or(0);
    let mut items = Vec::with_capacity(group.len());
    let mut prices = Vec::with_capacity(group.len());
    for r in group {
        let sku = match r.text("sku") {
            Ok(code) if code.is_empty() => {
                errors.push(err(r.row, "sku", "validation.required"));
                None
            }
            Ok(code) => match skus.get(&code) {
                Some(s) if s.active => Some(s),
                Some(_) => {
                    errors.push(err(r.row, "sku", "order.sku_inactive"));
                    None
                }
                None => {
                    errors.push(err(r.row, "sku", "order.sku_unknown"));
                    None
                }
            },
            Err(code) => {
                errors.push(err(r.row, "sku", code));
                None
            }
        };
        let quantity = match quantity_of(r.values.get("quantity")) {
            Ok(q) => Some(q),
            Err(code) => {
                errors.push(err(r.row, "quantity", code));
                None
            }
        };
        let price = match r.values.get("price") {
            None => None,
            Some(v) => match sheet::satang_of(Some(v), draft::MAX_PRICE) {
                Ok(p) => Some(p),
                Err(code) => {
                    errors.push(err(r.row, "price", code));
                    None
                }
            },
        };
        if let (Some(s), Some(q)) = (sku, quantity) {
            items.push(ItemDraft { sku_id: s.id, quantity: q, price, ..Default::default() });
            prices.push(price.unwrap_or(s.price));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let d = OrderDraft {
        channel: channel.into(),
        reference: reference.into(),
        note,
        warehouse_id,
        address,
        items,
        discount_type: if discount_value > 0 { draft::FIXED.into() } else { String::new() },
        discount_value,
        vat_included: true,
        shipping_charge: Some(shipping_charge),
        imported: true,
        ..Default::default()
    };
    let d = match draft::validate(d, crate::service::known_channel) {
        Ok(d) => d,
        Err(e) => {
            return Err(e.fields.iter().map(|f| field_error(f, group)).collect());
        }
    };
    let lines: Vec<money::Line> = d
        .items
        .iter()
        .zip(&prices)
        .map(|(i, p)| money::Line { price: *p, cost: 0, quantity: i.quantity, warehouse_id: i.warehouse_id })
        .collect();
    let charges = Charges {
        discount: draft::discount(&d.discount_type, d.discount_value),
        vat_included: d.vat_included,
        shipping_charge,
        shipping_charge_inter: 0,
        additional_fee: 0,
    };
    let totals = match money::totals(&lines, &charges) {
        Ok(t) => t,
        Err(_) => return Err(vec![err(first.row, "price", "validation.price")]),
    };
    if !money::over_limit(&totals).is_empty() {
        return Err(vec![err(first.row, "reference", "order.value_exceeds_limit")]);
    }
    Ok(Planned {
        rows: group.iter().map(|r| r.row).collect(),
        quantity: d.items.iter().map(|i| i.quantity).sum(),
        total: totals.total,
        draft: d,
    })
}

/// A field error of [`draft::validate`] on the row and column it came from.
fn field_error(f: &FieldError, group: &[&Row]) -> RowError {
    let first = group[0].row;
    if let Some(rest) = f.field.strip_prefix("items[") {
        let (i, field) = rest.split_once("].").unwrap_or(("0", "sku_id"));
        let row = i.parse::<usize>().ok().and_then(|i| group.get(i)).map(|r| r.row).unwrap_or(first);
        let column = match field {
            "quantity" => "quantity",
            "price" => "price",
            _ => "sku",
        };
        return err(row, column, &f.code);
    }
    let column = match f.field.as_str() {
        "shipping_address.state_province" => "province",
        "discount_value" | "discount_type" => "discount",
        "items" => "sku",
        other => other.strip_prefix("shipping_address.").unwrap_or(other),
    };
    let column = COLUMNS.iter().find(|c| c.key == column).map(|c| c.key).unwrap_or("reference");
    err(first, column, &f.code)
}

/// A phone typed as a number loses its leading zero: 812345678 is 0812345678.
fn phone(text: String, cell: Option<&Cell>) -> String {
    let numeric = matches!(cell, Some(Cell::Int(_)) | Some(Cell::Float(_)));
    if numeric && (8..=9).contains(&text.len()) && !text.starts_with('0') {
        format!("0{text}")
    } else {
        text
    }
}

/// A whole number of units, 1 to [`draft::MAX_QUANTITY`].
fn quantity_of(v: Option<&Cell>) -> Result<i64, &'static str> {
    let q = match v {
        None => return Err("validation.required"),
        Some(Cell::Int(i)) => *i,
        Some(Cell::Float(f)) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e15 => *f as i64,
        Some(Cell::Text(s)) => s.trim().replace(',', "").parse::<i64>().map_err(|_| "validation.quantity")?,
        _ => return Err("validation.quantity"),
    };
    if (1..=draft::MAX_QUANTITY).contains(&q) {
        Ok(q)
    } else {
        Err("validation.quantity")
    }
}

/// An order import template: the header row in `lang` (th or en) and one example order of
/// two lines.
pub fn template(lang: &str) -> Result<Vec<u8>, rust_xlsxwriter::XlsxError> {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    ws.set_name(if lang == "en" { "Orders" } else { "คำสั่งซื้อ" })?;
    let bold = rust_xlsxwriter::Format::new().set_bold();
    let text = rust_xlsxwriter::Format::new().set_num_format("@");
    for (c, column) in COLUMNS.iter().enumerate() {
        let c = c as u16;
        let header = if lang == "en" { column.en } else { column.th };
        let header = if column.required { format!("{header} *") } else { header.to_string() };
        ws.write_string_with_format(0, c, header, &bold)?;
        ws.set_column_width(c, 18)?;
        // Phones, postcodes, references and SKU codes keep their leading zeros.
        ws.set_column_format(c, &text)?;
    }
    let example: [[&str; 15]; 2] = [
        [
            "FB-0001",
            "สมชาย ใจดี",
            "0812345678",
            "99/1 ถนนสุขุมวิท",
            "คลองเตยเหนือ",
            "วัฒนา",
            "กรุงเทพมหานคร",
            "10110",
            "",
            "TS-WHITE-M",
            "2",
            "199.00",
            "40",
            "",
            "",
        ],
        ["FB-0001", "", "", "", "", "", "", "", "", "MUG-01", "1", "", "", "", ""],
    ];
    for (r, row) in example.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            if !v.is_empty() {
                ws.write_string(r as u32 + 1, c as u16, *v)?;
            }
        }
    }
    wb.save_to_buffer()
}

#[cfg(test)]
mod tests;
