//! Reading untrusted .xlsx files, bounded: the file's size, the zip signature, then the
//! zip's central directory alone (entry count, declared uncompressed sizes, compression
//! ratios) are checked before anything is decompressed. The zip reader that calamine uses
//! bounds every entry's output by its declared size, so an entry that lies about its size
//! fails instead of inflating. A sheet is streamed cell by cell (never as one dense range,
//! which a sheet with two far-apart cells would blow up) and only the first rows that can
//! matter are kept. Importers (products, rate tables, orders) build on this.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Cursor;

use calamine::{DataRef, Reader, SheetType, Xlsx};

/// The most the archive's entries may declare, uncompressed, all together.
pub const MAX_UNCOMPRESSED_BYTES: u64 = 50 * 1024 * 1024;
/// The most entries the archive may hold.
pub const MAX_ENTRIES: usize = 1000;
/// An entry that inflates more than this many times...
const MAX_RATIO: u64 = 200;
/// ...to more than this is a bomb.
const RATIO_FLOOR_BYTES: u64 = 10 * 1024 * 1024;
/// Numbers from here on cannot be held exactly by a spreadsheet (15 significant digits),
/// so a code or id typed as such a number has already lost digits.
pub const EXACT_NUMBER_LIMIT: f64 = 1e15;

/// Why a workbook could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    /// Not an .xlsx file (or one the reader cannot read).
    #[error("not an .xlsx file")]
    NotXlsx,
    /// Larger than allowed, packed or unpacked.
    #[error("file too large")]
    TooLarge,
    /// The named sheet is not in the workbook (or it has no worksheet).
    #[error("sheet not found")]
    SheetNotFound,
}

/// Reads the non-empty cells of a sheet (the one named `sheet`, else the first worksheet),
/// keeping the values of the first `kept_rows` non-empty rows and the indices of all.
pub fn read(
    bytes: &[u8],
    max_file_bytes: usize,
    sheet: Option<&str>,
    kept_rows: usize,
) -> Result<SheetCells, SheetError> {
    if bytes.len() > max_file_bytes {
        return Err(SheetError::TooLarge);
    }
    if !bytes.starts_with(b"PK\x03\x04") {
        return Err(SheetError::NotXlsx);
    }
    check_archive(bytes)?;
    // The spreadsheet reader can panic on a malformed file (fuzzing found an overflow in a
    // cell reference): such a file is simply not a readable .xlsx.
    let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read_sheet(bytes, sheet, kept_rows, false)));
    read.map_err(|_| SheetError::NotXlsx)?
}

/// Like [`read`], but a cell holding a formula is read as the formula's text (`=SUM(A1:A3)`),
/// never as the value a spreadsheet last computed: an import takes what was typed, and a
/// formula in an order file is text like any other.
pub fn read_literal(
    bytes: &[u8],
    max_file_bytes: usize,
    sheet: Option<&str>,
    kept_rows: usize,
) -> Result<SheetCells, SheetError> {
    if bytes.len() > max_file_bytes {
        return Err(SheetError::TooLarge);
    }
    if !bytes.starts_with(b"PK\x03\x04") {
        return Err(SheetError::NotXlsx);
    }
    check_archive(bytes)?;
    let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read_sheet(bytes, sheet, kept_rows, true)));
    read.map_err(|_| SheetError::NotXlsx)?
}

/// The format of a table file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    /// An .xlsx workbook (its first worksheet).
    Xlsx,
    /// Comma-, semicolon- or tab-separated text.
    Csv,
}

/// Reads a table from an .xlsx workbook (first worksheet, formulas as text) or, when the
/// file is not a zip, from CSV text (see [`crate::csv`]).
pub fn read_table(
    bytes: &[u8],
    max_file_bytes: usize,
    kept_rows: usize,
) -> Result<(SheetCells, TableFormat), SheetError> {
    if bytes.starts_with(b"PK\x03\x04") {
        read_literal(bytes, max_file_bytes, None, kept_rows).map(|c| (c, TableFormat::Xlsx))
    } else {
        crate::csv::read(bytes, max_file_bytes, kept_rows).map(|c| (c, TableFormat::Csv))
    }
}

/// The names of the workbook's worksheets, in order (after the same checks as [`read`]).
pub fn sheet_names(bytes: &[u8], max_file_bytes: usize) -> Result<Vec<String>, SheetError> {
    if bytes.len() > max_file_bytes {
        return Err(SheetError::TooLarge);
    }
    if !bytes.starts_with(b"PK\x03\x04") {
        return Err(SheetError::NotXlsx);
    }
    check_archive(bytes)?;
    let names = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).map_err(|_| SheetError::NotXlsx)?;
        Ok(book.sheets_metadata().iter().filter(|s| s.typ == SheetType::WorkSheet).map(|s| s.name.clone()).collect())
    }));
    names.map_err(|_| SheetError::NotXlsx)?
}

/// Checks the archive from its central directory alone: nothing is decompressed.
fn check_archive(bytes: &[u8]) -> Result<(), SheetError> {
    let archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|_| SheetError::NotXlsx)?;
    if archive.len() > MAX_ENTRIES {
        return Err(SheetError::TooLarge);
    }
    let mut total: u64 = 0;
    for i in 0..archive.len() {
        let entry = archive.by_index_data(i).map_err(|_| SheetError::NotXlsx)?;
        let size = entry.size();
        let compressed = entry.compressed_size();
        if size > RATIO_FLOOR_BYTES && u128::from(size) > u128::from(compressed) * u128::from(MAX_RATIO) {
            return Err(SheetError::TooLarge);
        }
        total = total.saturating_add(size);
        if total > MAX_UNCOMPRESSED_BYTES {
            return Err(SheetError::TooLarge);
        }
    }
    Ok(())
}

/// A kept cell's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Text.
    Text(String),
    /// A whole number.
    Int(i64),
    /// A number.
    Float(f64),
    /// An error cell (`#N/A`, `#VALUE!`, ...).
    Error,
}

impl Cell {
    /// A cell, or None when empty.
    pub fn of(d: DataRef<'_>) -> Option<Cell> {
        let v = match d {
            DataRef::Empty => return None,
            DataRef::String(s) | DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => Cell::Text(s),
            DataRef::SharedString(s) => Cell::Text(s.to_string()),
            DataRef::Int(i) => Cell::Int(i),
            DataRef::Float(f) => Cell::Float(f),
            DataRef::Bool(b) => Cell::Text(if b { "TRUE" } else { "FALSE" }.to_string()),
            DataRef::DateTime(d) => Cell::Float(d.as_f64()),
            DataRef::Error(_) => Cell::Error,
        };
        match &v {
            Cell::Text(s) if s.trim().is_empty() => None,
            _ => Some(v),
        }
    }
}

/// The non-empty cells of a sheet's first rows, and the row indices (0-based) of all its
/// non-empty rows.
pub struct SheetCells {
    /// The kept rows' cells by column.
    pub rows: BTreeMap<u32, HashMap<u32, Cell>>,
    /// Every non-empty row.
    pub non_empty: BTreeSet<u32>,
}

fn read_sheet(bytes: &[u8], sheet: Option<&str>, kept_rows: usize, literal: bool) -> Result<SheetCells, SheetError> {
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).map_err(|_| SheetError::NotXlsx)?;
    let sheets = book.sheets_metadata();
    let name = match sheet {
        Some(want) => sheets.iter().find(|s| s.name == want),
        None => sheets.iter().find(|s| s.typ == SheetType::WorkSheet),
    }
    .map(|s| s.name.clone())
    .ok_or(SheetError::SheetNotFound)?;
    let mut reader = book.worksheet_cells_reader(&name).map_err(|_| SheetError::NotXlsx)?;
    let mut cells = SheetCells { rows: BTreeMap::new(), non_empty: BTreeSet::new() };
    loop {
        let ((row, col), value) = if literal {
            let Some(cell) = reader.next_cell_with_formula().map_err(|_| SheetError::NotXlsx)? else { break };
            match cell.formula {
                Some(f) if !f.is_empty() => (cell.pos, Some(Cell::Text(format!("={f}")))),
                _ => (cell.pos, Cell::of(cell.value)),
            }
        } else {
            let Some(cell) = reader.next_cell().map_err(|_| SheetError::NotXlsx)? else { break };
            (cell.get_position(), Cell::of(cell.get_value().clone()))
        };
        let Some(value) = value else { continue };
        cells.insert(row, col, value, kept_rows);
    }
    Ok(cells)
}

impl SheetCells {
    /// An empty table.
    pub fn new() -> SheetCells {
        SheetCells { rows: BTreeMap::new(), non_empty: BTreeSet::new() }
    }

    /// Notes a non-empty cell, keeping the values of the first `kept_rows` rows only.
    pub fn insert(&mut self, row: u32, col: u32, value: Cell, kept_rows: usize) {
        let cells = self;
        cells.non_empty.insert(row);
        let largest_kept = cells.rows.last_key_value().map(|(r, _)| *r);
        if cells.rows.len() >= kept_rows && !cells.rows.contains_key(&row) {
            match largest_kept {
                Some(largest) if row < largest => {
                    cells.rows.remove(&largest);
                }
                _ => return,
            }
        }
        cells.rows.entry(row).or_default().entry(col).or_insert(value);
    }
}

impl Default for SheetCells {
    fn default() -> Self {
        Self::new()
    }
}

/// A cell as trimmed text; numbers as a person would type them.
pub fn text_of(v: Option<&Cell>) -> Result<String, &'static str> {
    match v {
        None => Ok(String::new()),
        Some(Cell::Text(s)) => Ok(s.trim().to_string()),
        Some(Cell::Int(i)) => Ok(i.to_string()),
        Some(Cell::Float(f)) if !f.is_finite() => Err("validation.invalid"),
        Some(Cell::Float(f)) if f.abs() >= EXACT_NUMBER_LIMIT => Err("validation.number_precision"),
        // Below the limit an integral float is an exact i64.
        Some(Cell::Float(f)) if f.fract() == 0.0 => Ok((*f as i64).to_string()),
        Some(Cell::Float(f)) => Ok(f.to_string()),
        Some(Cell::Error) => Err("validation.invalid"),
    }
}

/// `x` baht in satang, if `x` is within 1e-6 of a value with at most two decimals.
pub fn float_satang(x: f64) -> Option<i64> {
    if !x.is_finite() || x.abs() >= EXACT_NUMBER_LIMIT {
        return None;
    }
    let cents = (x * 100.0).round();
    if (x - cents / 100.0).abs() > 1e-6 {
        return None;
    }
    // |cents| < 1e17 fits an i64.
    Some(cents as i64)
}

/// A money cell in satang, from 0 to `max`: text read exactly, numbers only when they are
/// a whole number of satang (within float noise).
pub fn satang_of(v: Option<&Cell>, max: i64) -> Result<i64, &'static str> {
    let satang = match v {
        None => return Err("validation.required"),
        Some(Cell::Text(s)) => crate::money::Satang::parse_baht(s).map_err(|_| "validation.money")?.0,
        Some(Cell::Int(i)) => i.checked_mul(100).ok_or("validation.money")?,
        Some(Cell::Float(f)) => float_satang(*f).ok_or("validation.money")?,
        Some(Cell::Error) => return Err("validation.money"),
    };
    if (0..=max).contains(&satang) {
        Ok(satang)
    } else {
        Err("validation.money")
    }
}
