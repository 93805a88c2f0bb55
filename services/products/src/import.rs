//! Reading a product-import spreadsheet (SPEC §3 "TikTok import column mapping", §5
//! "Product import"), pure: bytes in, rows and per-row errors out.
//!
//! The file is untrusted: it is read with the kit's bounded reader (`bo_kit::sheet`), which
//! checks its size and its zip directory before decompressing anything.

use std::collections::HashMap;

use bo_kit::sheet::{self, text_of, Cell as Value, SheetCells, SheetError};

use crate::domain::MAX_MONEY;

/// The most data rows one import may hold.
pub const MAX_ROWS: usize = 100;
/// The largest file accepted.
pub const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;
/// The columns the template must have (the header row is searched for all of them).
pub const REQUIRED_COLUMNS: [&str; 7] =
    ["sku_id", "product_name", "product_id", "variation_value", "product_description", "price", "seller_sku"];

/// The header row must be among the sheet's first rows.
const HEADER_SEARCH_ROWS: u32 = 10;
/// One good row, with the catalog's names in SPEC §3: code ← product_id, name ←
/// product_name, skuCode ← sku_id, variant ← variation_value, explanation ←
/// product_description, price ← price, sellerSku ← seller_sku.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportRow {
    /// The spreadsheet's row number (1-based).
    pub row: usize,
    /// The product's code.
    pub product_id: String,
    /// The product's name.
    pub product_name: String,
    /// The SKU's code.
    pub sku_id: String,
    /// The variant option (may be empty).
    pub variation_value: String,
    /// The product's description (may be empty).
    pub product_description: String,
    /// The price, in satang.
    pub price_satang: i64,
    /// The seller's SKU (may be empty).
    pub seller_sku: String,
}

/// A problem with one cell of one row; the row is left out of the import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    /// The spreadsheet's row number (1-based).
    pub row: usize,
    /// The column's name, as in [`REQUIRED_COLUMNS`].
    pub field: String,
    /// A message key (`validation.required`, `validation.money`, ...).
    pub code: String,
}

/// What a spreadsheet yielded: the good rows and the problems of the others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedImport {
    /// Rows without problems, in sheet order.
    pub rows: Vec<ImportRow>,
    /// Problems, by row then column.
    pub errors: Vec<RowError>,
}

/// Why a whole file is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Not an .xlsx workbook.
    #[error("not an .xlsx file")]
    NotXlsx,
    /// Over the size limits (file, archive entries, or inflated size).
    #[error("file too large")]
    TooLarge,
    /// The header row was not found.
    #[error("Wrong file, please upload valid file")]
    WrongTemplate,
    /// The named sheet is not in the workbook (or it has no worksheet).
    #[error("sheet not found")]
    SheetNotFound,
    /// No data rows.
    #[error("no rows to import")]
    Empty,
    /// More data rows than [`MAX_ROWS`].
    #[error("{0} rows, at most {MAX_ROWS} may be imported at once")]
    TooManyRows(usize),
}

impl ImportError {
    /// A stable code for the wire.
    pub fn code(&self) -> &'static str {
        match self {
            ImportError::NotXlsx => "import_not_xlsx",
            ImportError::TooLarge => "import_too_large",
            ImportError::WrongTemplate => "import_wrong_template",
            ImportError::SheetNotFound => "import_sheet_not_found",
            ImportError::Empty => "import_empty",
            ImportError::TooManyRows(_) => "import_too_many_rows",
        }
    }
}

/// Reads an import file: the sheet named `sheet`, else the first worksheet.
pub fn parse(bytes: &[u8], sheet: Option<&str>) -> Result<ParsedImport, ImportError> {
    let cells = sheet::read(bytes, MAX_FILE_BYTES, sheet, KEPT_ROWS).map_err(|e| match e {
        SheetError::NotXlsx => ImportError::NotXlsx,
        SheetError::TooLarge => ImportError::TooLarge,
        SheetError::SheetNotFound => ImportError::SheetNotFound,
    })?;
    rows_of(&cells)
}

/// Rows kept with their values: enough for the header search and the largest import.
/// If the sheet has more non-empty rows, more than [`MAX_ROWS`] of them follow the header
/// (which is among the first [`HEADER_SEARCH_ROWS`]), so their values are never needed.
const KEPT_ROWS: usize = HEADER_SEARCH_ROWS as usize + MAX_ROWS + 1;

/// The column index of each of [`REQUIRED_COLUMNS`], if this row names them all.
fn header_columns(row: &HashMap<u32, Value>) -> Option<HashMap<&'static str, u32>> {
    let mut by_name: HashMap<String, u32> = HashMap::new();
    for (col, v) in row {
        if let Value::Text(s) = v {
            let name = s.trim().to_lowercase();
            let e = by_name.entry(name).or_insert(*col);
            *e = (*e).min(*col);
        }
    }
    REQUIRED_COLUMNS.iter().map(|c| by_name.get(*c).map(|col| (*c, *col))).collect()
}

fn rows_of(cells: &SheetCells) -> Result<ParsedImport, ImportError> {
    let (header_row, columns) = cells
        .rows
        .range(..HEADER_SEARCH_ROWS)
        .find_map(|(r, row)| header_columns(row).map(|c| (*r, c)))
        .ok_or(ImportError::WrongTemplate)?;
    let data: Vec<u32> = cells.non_empty.range(header_row + 1..).copied().collect();
    if data.is_empty() {
        return Err(ImportError::Empty);
    }
    if data.len() > MAX_ROWS {
        return Err(ImportError::TooManyRows(data.len()));
    }
    let empty = HashMap::new();
    let mut out = ParsedImport { rows: Vec::new(), errors: Vec::new() };
    for r in data {
        let row = cells.rows.get(&r).unwrap_or(&empty);
        let number = r as usize + 1;
        let mut errors = Vec::new();
        let mut text = |field: &'static str, required: bool| -> String {
            let v = row.get(&columns[field]);
            match text_of(v) {
                Ok(s) if s.is_empty() && required => {
                    errors.push(RowError { row: number, field: field.into(), code: "validation.required".into() });
                    s
                }
                Ok(s) => s,
                Err(code) => {
                    errors.push(RowError { row: number, field: field.into(), code: code.into() });
                    String::new()
                }
            }
        };
        let product_id = text("product_id", true);
        let product_name = text("product_name", true);
        let sku_id = text("sku_id", true);
        let variation_value = text("variation_value", false);
        let product_description = text("product_description", false);
        let seller_sku = text("seller_sku", false);
        let price = match price_of(row.get(&columns["price"])) {
            Ok(p) => p,
            Err(code) => {
                errors.push(RowError { row: number, field: "price".into(), code: code.into() });
                0
            }
        };
        if errors.is_empty() {
            out.rows.push(ImportRow {
                row: number,
                product_id,
                product_name,
                sku_id,
                variation_value,
                product_description,
                price_satang: price,
                seller_sku,
            });
        } else {
            out.errors.extend(errors);
        }
    }
    Ok(out)
}

/// A price cell in satang.
fn price_of(v: Option<&Value>) -> Result<i64, &'static str> {
    sheet::satang_of(v, MAX_MONEY)
}

#[cfg(test)]
mod tests {
    use std::io::{Cursor, Write};

    use bo_kit::sheet::float_satang;

    use rust_xlsxwriter::Workbook;
    use zip::write::SimpleFileOptions;
    use zip::{CompressionMethod, ZipArchive, ZipWriter};

    use super::*;

    const HEADER: [&str; 7] = REQUIRED_COLUMNS;

    enum Cell {
        S(&'static str),
        N(f64),
    }

    /// A workbook with one sheet `name`: an optional title row, then `header`, then `rows`.
    fn book(name: &str, title: bool, header: &[&str], rows: &[Vec<Cell>]) -> Vec<u8> {
        let mut wb = Workbook::new();
        let ws = wb.add_worksheet();
        ws.set_name(name).unwrap();
        let mut r = 0;
        if title {
            ws.write_string(0, 0, "TikTok product template").unwrap();
            r = 1;
        }
        for (c, h) in header.iter().enumerate() {
            ws.write_string(r, c as u16, *h).unwrap();
        }
        for (i, row) in rows.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                let rr = r + 1 + i as u32;
                match cell {
                    Cell::S("") => {}
                    Cell::S(s) => {
                        ws.write_string(rr, c as u16, *s).unwrap();
                    }
                    Cell::N(n) => {
                        ws.write_number(rr, c as u16, *n).unwrap();
                    }
                }
            }
        }
        wb.save_to_buffer().unwrap()
    }

    /// A row in REQUIRED_COLUMNS order.
    fn row(sku: &'static str, name: &'static str, code: &'static str, price: Cell) -> Vec<Cell> {
        vec![Cell::S(sku), Cell::S(name), Cell::S(code), Cell::S("Red"), Cell::S("desc"), price, Cell::S("SS-1")]
    }

    #[test]
    fn reads_a_good_file() {
        let bytes = book(
            "Template",
            true,
            &HEADER,
            &[
                row("SKU-1", "เสื้อยืดสีแดง", "P-1", Cell::N(199.5)),
                row("SKU-2", "Mug", "P-2", Cell::S("1,299.50")),
                vec![
                    Cell::N(1001.0),
                    Cell::S("  กางเกง  "),
                    Cell::N(42.0),
                    Cell::S(""),
                    Cell::S("ผ้าฝ้าย"),
                    Cell::N(0.1 + 0.2),
                    Cell::S(""),
                ],
            ],
        );
        let got = parse(&bytes, None).unwrap();
        assert_eq!(got.errors, vec![]);
        assert_eq!(
            got.rows,
            vec![
                ImportRow {
                    row: 3,
                    product_id: "P-1".into(),
                    product_name: "เสื้อยืดสีแดง".into(),
                    sku_id: "SKU-1".into(),
                    variation_value: "Red".into(),
                    product_description: "desc".into(),
                    price_satang: 19_950,
                    seller_sku: "SS-1".into(),
                },
                ImportRow {
                    row: 4,
                    product_id: "P-2".into(),
                    product_name: "Mug".into(),
                    sku_id: "SKU-2".into(),
                    variation_value: "Red".into(),
                    product_description: "desc".into(),
                    price_satang: 129_950,
                    seller_sku: "SS-1".into(),
                },
                ImportRow {
                    row: 5,
                    product_id: "42".into(),
                    product_name: "กางเกง".into(),
                    sku_id: "1001".into(),
                    variation_value: String::new(),
                    product_description: "ผ้าฝ้าย".into(),
                    price_satang: 30,
                    seller_sku: String::new(),
                },
            ]
        );
        // The sheet can be named, and headers match trimmed and case-insensitively.
        let shouted: Vec<String> = HEADER.iter().map(|h| format!(" {} ", h.to_uppercase())).collect();
        let shouted: Vec<&str> = shouted.iter().map(String::as_str).collect();
        let bytes = book("Products", false, &shouted, &[row("S", "N", "C", Cell::N(7.0))]);
        let got = parse(&bytes, Some("Products")).unwrap();
        assert_eq!(got.rows.len(), 1);
        assert_eq!(got.rows[0].row, 2);
        assert_eq!(got.rows[0].price_satang, 700);
    }

    #[test]
    fn refuses_a_wrong_template() {
        let bytes = book("Sheet1", false, &HEADER[..6], &[row("S", "N", "C", Cell::N(1.0))]);
        let err = parse(&bytes, None).unwrap_err();
        assert_eq!(err, ImportError::WrongTemplate);
        assert_eq!(err.code(), "import_wrong_template");
        assert_eq!(err.to_string(), "Wrong file, please upload valid file");
    }

    #[test]
    fn refuses_more_than_100_rows() {
        let rows: Vec<Vec<Cell>> = (0..101).map(|_| row("S", "N", "C", Cell::N(1.0))).collect();
        let bytes = book("Sheet1", false, &HEADER, &rows);
        let err = parse(&bytes, None).unwrap_err();
        assert_eq!(err, ImportError::TooManyRows(101));
        assert_eq!(err.code(), "import_too_many_rows");
        // 100 is fine.
        let bytes = book("Sheet1", false, &HEADER, &rows[..100]);
        assert_eq!(parse(&bytes, None).unwrap().rows.len(), 100);
    }

    #[test]
    fn refuses_a_file_without_data() {
        let bytes = book("Sheet1", false, &HEADER, &[]);
        assert_eq!(parse(&bytes, None), Err(ImportError::Empty));
        // Blank cells and empty rows do not count.
        let blank = vec![Cell::S("  "), Cell::S(""), Cell::S(""), Cell::S(""), Cell::S(""), Cell::S(""), Cell::S("")];
        let bytes = book("Sheet1", false, &HEADER, &[blank]);
        assert_eq!(parse(&bytes, None), Err(ImportError::Empty));
    }

    #[test]
    fn refuses_a_missing_sheet() {
        let bytes = book("Sheet1", false, &HEADER, &[row("S", "N", "C", Cell::N(1.0))]);
        let err = parse(&bytes, Some("Products")).unwrap_err();
        assert_eq!(err, ImportError::SheetNotFound);
        assert_eq!(err.code(), "import_sheet_not_found");
    }

    #[test]
    fn refuses_what_is_not_xlsx() {
        let html = b"<!doctype html><html><body>Sign in</body></html>";
        assert_eq!(parse(html, None), Err(ImportError::NotXlsx));
        assert_eq!(parse(b"", None), Err(ImportError::NotXlsx));
        // A zip signature followed by garbage.
        assert_eq!(parse(b"PK\x03\x04garbage", None), Err(ImportError::NotXlsx));
        // A real zip that is not a workbook.
        let mut w = ZipWriter::new(Cursor::new(Vec::new()));
        w.start_file("hello.txt", SimpleFileOptions::default()).unwrap();
        w.write_all(b"hello").unwrap();
        let bytes = w.finish().unwrap().into_inner();
        assert_eq!(parse(&bytes, None), Err(ImportError::NotXlsx));
        assert_eq!(ImportError::NotXlsx.code(), "import_not_xlsx");
    }

    #[test]
    fn a_file_that_trips_the_reader_is_refused_not_a_crash() {
        // Found by `make fuzz` (xlsx_import): a cell reference whose column overflows.
        let bytes = include_bytes!("../tests/fixtures/fuzz-cell-reference-overflow.xlsx");
        let e = parse(bytes, None).unwrap_err();
        assert!(matches!(e, ImportError::NotXlsx | ImportError::WrongTemplate), "{e:?}");
    }

    #[test]
    fn refuses_an_oversized_file() {
        let mut bytes = b"PK\x03\x04".to_vec();
        bytes.resize(MAX_FILE_BYTES + 1, 0);
        assert_eq!(parse(&bytes, None), Err(ImportError::TooLarge));
        assert_eq!(ImportError::TooLarge.code(), "import_too_large");
    }

    #[test]
    fn reports_bad_rows_by_row_number() {
        let bytes = book(
            "Sheet1",
            true,
            &HEADER,
            &[
                row("S1", "Good", "P1", Cell::S("10")),
                row("S2", "Bad price", "P2", Cell::S("12.345")),
                row("S3", "", "P3", Cell::N(5.0)),
                row("S4", "Float noise", "P4", Cell::N(1.005)),
                row("S5", "Negative", "P5", Cell::N(-1.0)),
                row("", "No sku, no price", "P6", Cell::S("")),
            ],
        );
        let got = parse(&bytes, None).unwrap();
        assert_eq!(got.rows.iter().map(|r| r.row).collect::<Vec<_>>(), vec![3]);
        let errs: Vec<(usize, &str, &str)> =
            got.errors.iter().map(|e| (e.row, e.field.as_str(), e.code.as_str())).collect();
        assert_eq!(
            errs,
            vec![
                (4, "price", "validation.money"),
                (5, "product_name", "validation.required"),
                (6, "price", "validation.money"),
                (7, "price", "validation.money"),
                (8, "sku_id", "validation.required"),
                (8, "price", "validation.required"),
            ]
        );
    }

    #[test]
    fn reads_float_prices_exactly() {
        assert_eq!(float_satang(199.5), Some(19_950));
        assert_eq!(float_satang(0.1 + 0.2), Some(30));
        assert_eq!(float_satang(1299.99), Some(129_999));
        assert_eq!(float_satang(1.005), None);
        assert_eq!(float_satang(f64::NAN), None);
        assert_eq!(float_satang(1e300), None);
        assert_eq!(text_of(Some(&Value::Float(1.7e18))), Err("validation.number_precision"));
        assert_eq!(text_of(Some(&Value::Float(1.5))), Ok("1.5".into()));
    }

    #[test]
    fn far_apart_cells_are_read_sparsely() {
        // A1 and XFD1048576 would make a dense range of 17 billion cells.
        let mut wb = Workbook::new();
        let ws = wb.add_worksheet();
        for (c, h) in HEADER.iter().enumerate() {
            ws.write_string(0, c as u16, *h).unwrap();
        }
        for (c, v) in ["S", "N", "C", "", "", "9.99", ""].iter().enumerate() {
            if !v.is_empty() {
                ws.write_string(1, c as u16, *v).unwrap();
            }
        }
        ws.write_string(1_048_575, 16_383, "far").unwrap();
        let bytes = wb.save_to_buffer().unwrap();
        let got = parse(&bytes, None).unwrap();
        assert_eq!(got.rows.len(), 1);
        assert_eq!(got.rows[0].price_satang, 999);
        let fields: Vec<(usize, &str)> = got.errors.iter().map(|e| (e.row, e.field.as_str())).collect();
        assert_eq!(
            fields,
            vec![(1_048_576, "product_id"), (1_048_576, "product_name"), (1_048_576, "sku_id"), (1_048_576, "price")]
        );
    }

    /// A real workbook's parts plus `extra` entries.
    fn with_extra(extra: impl FnOnce(&mut ZipWriter<Cursor<Vec<u8>>>)) -> Vec<u8> {
        let good = book("Sheet1", false, &HEADER, &[row("S", "N", "C", Cell::N(1.0))]);
        assert!(parse(&good, None).is_ok());
        let mut src = ZipArchive::new(Cursor::new(good)).unwrap();
        let mut w = ZipWriter::new(Cursor::new(Vec::new()));
        for i in 0..src.len() {
            w.raw_copy_file(src.by_index_raw(i).unwrap()).unwrap();
        }
        extra(&mut w);
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn refuses_a_zip_bomb_without_inflating_it() {
        let bytes = with_extra(|w| {
            let opts = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
            w.start_file("xl/media/zeros.bin", opts).unwrap();
            let zeros = vec![0u8; 1024 * 1024];
            for _ in 0..60 {
                w.write_all(&zeros).unwrap();
            }
        });
        assert!(bytes.len() < 1024 * 1024, "the bomb is small: {} bytes", bytes.len());
        // The entry really holds 60 MB.
        let mut z = ZipArchive::new(Cursor::new(&bytes[..])).unwrap();
        assert_eq!(z.by_name("xl/media/zeros.bin").unwrap().size(), 60 * 1024 * 1024);
        assert_eq!(parse(&bytes, None), Err(ImportError::TooLarge));

        // One entry under the total but with an absurd ratio is refused too.
        let bytes = with_extra(|w| {
            let opts = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
            w.start_file("xl/media/zeros.bin", opts).unwrap();
            w.write_all(&vec![0u8; 12 * 1024 * 1024]).unwrap();
        });
        assert_eq!(parse(&bytes, None), Err(ImportError::TooLarge));
    }

    #[test]
    fn refuses_too_many_entries() {
        let bytes = with_extra(|w| {
            for i in 0..2000 {
                w.start_file(format!("xl/junk/{i}.txt"), SimpleFileOptions::default()).unwrap();
                w.write_all(b"x").unwrap();
            }
        });
        assert_eq!(parse(&bytes, None), Err(ImportError::TooLarge));
    }

    #[test]
    fn an_entry_lying_about_its_size_does_not_inflate() {
        // The sheet's declared size is patched down to 10 bytes (local and central headers):
        // the reader must stop there instead of inflating what the entry really holds.
        // Rewritten by the zip crate, so the local header holds the sizes (no data descriptor).
        let good = with_extra(|_| {});
        let mut src = ZipArchive::new(Cursor::new(&good[..])).unwrap();
        let real = src.by_name("xl/worksheets/sheet1.xml").unwrap().size() as u32;
        drop(src);
        let mut bytes = good.clone();
        let name = b"xl/worksheets/sheet1.xml";
        let mut patched = 0;
        let mut i = 0;
        while i + 46 + name.len() <= bytes.len() {
            let local = bytes[i..].starts_with(b"PK\x03\x04") && bytes[i + 30..].starts_with(name);
            let central = bytes[i..].starts_with(b"PK\x01\x02") && bytes[i + 46..].starts_with(name);
            let at = if local {
                i + 22
            } else if central {
                i + 24
            } else {
                i += 1;
                continue;
            };
            assert_eq!(u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()), real);
            bytes[at..at + 4].copy_from_slice(&10u32.to_le_bytes());
            patched += 1;
            i += 1;
        }
        assert_eq!(patched, 2);
        assert_eq!(parse(&bytes, None), Err(ImportError::NotXlsx));
    }
}
