//! Import of inadequate goods (SPEC §2 order list "import inadequate goods", §5 one
//! warehouse at a time, §8 'Inadequate goods aren't found'), pure: what short orders of a
//! warehouse wait for ([`shortages`]), and a file of arriving quantities read and checked
//! against it ([`parse`], [`check`]).
//!
//! The list the screen downloads is itself a file this reads: its SKU codes and an
//! arriving-quantity column prefilled with what is missing, to be corrected to what really
//! came. Rows left empty are skipped; a SKU no short order waits for is refused, so the
//! import stays what it is for (stock for short orders), not a second way to adjust stock.

use std::collections::{BTreeMap, HashMap};

use bo_kit::sheet::{self, text_of, Cell, SheetCells, SheetError};

/// The largest file accepted.
pub const MAX_FILE_BYTES: usize = 2 * 1024 * 1024;
/// The most data rows.
pub const MAX_ROWS: usize = 2_000;
/// The most units of one line arriving.
pub const MAX_QUANTITY: i64 = 1_000_000;
const HEADER_SEARCH_ROWS: u32 = 10;
const KEPT_ROWS: usize = HEADER_SEARCH_ROWS as usize + MAX_ROWS + 1;

/// Headers of the SKU column.
const SKU_HEADERS: [&str; 4] = ["sku", "sku code", "รหัส sku", "sku_code"];
/// Headers of the arriving-quantity column.
const QUANTITY_HEADERS: [&str; 5] = ["arriving", "arriving quantity", "จำนวนที่เข้า", "quantity", "จำนวน"];

/// What short orders of a warehouse need of one SKU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shortage {
    pub sku_id: i64,
    pub sku_code: String,
    pub product_name: String,
    pub variant: String,
    /// Units the short orders' lines in this warehouse ask for.
    pub needed: i64,
    /// Units available on the shelf now.
    pub available: i64,
    /// Short orders waiting for it.
    pub orders: i64,
}

impl Shortage {
    /// Units to bring in for every short order to be filled.
    pub fn missing(&self) -> i64 {
        (self.needed - self.available).max(0)
    }
}

/// A short order's line: (sku id, sku code, product name, variant, quantity, order id).
pub type ShortLine = (i64, String, String, String, i64, i64);

/// The SKUs short orders wait for, by code, with what is available of each.
pub fn shortages(lines: &[ShortLine], available: &HashMap<i64, i64>) -> Vec<Shortage> {
    let mut by_sku: BTreeMap<(String, i64), (Shortage, Vec<i64>)> = BTreeMap::new();
    for (sku_id, code, name, variant, quantity, order) in lines {
        let e = by_sku.entry((code.clone(), *sku_id)).or_insert_with(|| {
            (
                Shortage {
                    sku_id: *sku_id,
                    sku_code: code.clone(),
                    product_name: name.clone(),
                    variant: variant.clone(),
                    needed: 0,
                    available: available.get(sku_id).copied().unwrap_or(0),
                    orders: 0,
                },
                Vec::new(),
            )
        });
        e.0.needed += quantity;
        if !e.1.contains(order) {
            e.1.push(*order);
        }
    }
    by_sku
        .into_values()
        .map(|(mut s, orders)| {
            s.orders = orders.len() as i64;
            s
        })
        .collect()
}

/// Why a whole file is refused (codes as the order import's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileError {
    NotReadable,
    TooLarge,
    WrongTemplate,
    Empty,
    TooManyRows,
}

impl FileError {
    pub fn code(&self) -> &'static str {
        match self {
            FileError::NotReadable => "import_wrong_file_type",
            FileError::TooLarge => "import_too_large",
            FileError::WrongTemplate => "import_wrong_template",
            FileError::Empty => "import_empty",
            FileError::TooManyRows => "import_too_many_rows",
        }
    }
}

/// A row of arriving goods as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrival {
    pub row: usize,
    pub sku_code: String,
    pub quantity: i64,
}

/// A problem of a row: (row, field, code).
pub type RowError = (usize, &'static str, &'static str);

/// Reads a file of arriving goods: rows with a SKU code and a quantity; rows whose quantity
/// is empty (or 0) are skipped.
pub fn parse(bytes: &[u8]) -> Result<(Vec<Arrival>, Vec<RowError>), FileError> {
    let (cells, _) = sheet::read_table(bytes, MAX_FILE_BYTES, KEPT_ROWS).map_err(|e| match e {
        SheetError::TooLarge => FileError::TooLarge,
        _ => FileError::NotReadable,
    })?;
    rows_of(&cells)
}

fn find(row: &HashMap<u32, Cell>, names: &[&str]) -> Option<u32> {
    let mut cols: Vec<(u32, usize)> = row
        .iter()
        .filter_map(|(c, v)| match v {
            Cell::Text(s) => {
                let h = s.trim().trim_end_matches('*').trim().to_lowercase();
                names.iter().position(|n| *n == h).map(|rank| (*c, rank))
            }
            _ => None,
        })
        .collect();
    // The most specific header wins (arriving quantity over a plain quantity).
    cols.sort_by_key(|(c, rank)| (*rank, *c));
    cols.first().map(|(c, _)| *c)
}

fn rows_of(cells: &SheetCells) -> Result<(Vec<Arrival>, Vec<RowError>), FileError> {
    let (header_row, sku_col, qty_col) = cells
        .rows
        .range(..HEADER_SEARCH_ROWS)
        .find_map(|(r, row)| Some((*r, find(row, &SKU_HEADERS)?, find(row, &QUANTITY_HEADERS)?)))
        .ok_or(FileError::WrongTemplate)?;
    let data: Vec<u32> = cells.non_empty.range(header_row + 1..).copied().collect();
    if data.len() > MAX_ROWS {
        return Err(FileError::TooManyRows);
    }
    let empty = HashMap::new();
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    for r in data {
        let row = cells.rows.get(&r).unwrap_or(&empty);
        let number = r as usize + 1;
        let quantity = match row.get(&qty_col) {
            None => continue,
            Some(Cell::Int(i)) => Some(*i),
            Some(Cell::Float(f)) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e15 => Some(*f as i64),
            Some(Cell::Text(s)) => s.trim().replace(',', "").parse::<i64>().ok(),
            _ => None,
        };
        let code = text_of(row.get(&sku_col)).unwrap_or_default();
        match quantity {
            Some(0) => continue,
            Some(q) if (1..=MAX_QUANTITY).contains(&q) => {
                if code.is_empty() {
                    errors.push((number, "sku", "validation.required"));
                } else {
                    out.push(Arrival { row: number, sku_code: code, quantity: q });
                }
            }
            _ => errors.push((number, "quantity", "validation.quantity")),
        }
    }
    if out.is_empty() && errors.is_empty() {
        return Err(FileError::Empty);
    }
    Ok((out, errors))
}

/// Goods of one SKU that go in: what short orders need of it, the units, the rows.
pub type Accepted = (Shortage, i64, Vec<usize>);

/// The arrivals that go in: each SKU once (rows of one SKU add up), one that short orders of
/// the warehouse wait for; the others are named.
pub fn check(arrivals: &[Arrival], shortages: &[Shortage]) -> (Vec<Accepted>, Vec<RowError>) {
    let by_code: HashMap<&str, &Shortage> = shortages.iter().map(|s| (s.sku_code.as_str(), s)).collect();
    let mut accepted: Vec<Accepted> = Vec::new();
    let mut errors = Vec::new();
    for a in arrivals {
        match by_code.get(a.sku_code.as_str()) {
            None => errors.push((a.row, "sku", "order.arrival_not_short")),
            Some(s) => match accepted.iter_mut().find(|(x, _, _)| x.sku_id == s.sku_id) {
                Some((_, q, rows)) => {
                    *q = (*q + a.quantity).min(MAX_QUANTITY);
                    rows.push(a.row);
                }
                None => accepted.push(((*s).clone(), a.quantity, vec![a.row])),
            },
        }
    }
    (accepted, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(sku: i64, code: &str, qty: i64, order: i64) -> ShortLine {
        (sku, code.into(), "ชาไทย".into(), String::new(), qty, order)
    }

    #[test]
    fn shortages_add_up_per_sku() {
        let lines = [line(1, "TEA", 3, 10), line(2, "MUG", 1, 10), line(1, "TEA", 2, 11), line(1, "TEA", 1, 11)];
        let available: HashMap<i64, i64> = [(1, 2)].into();
        let s = shortages(&lines, &available);
        assert_eq!(s.len(), 2);
        assert_eq!(
            (s[0].sku_code.as_str(), s[0].needed, s[0].available, s[0].missing(), s[0].orders),
            ("MUG", 1, 0, 1, 1)
        );
        assert_eq!(
            (s[1].sku_code.as_str(), s[1].needed, s[1].available, s[1].missing(), s[1].orders),
            ("TEA", 6, 2, 4, 2)
        );
        assert!(shortages(&[], &available).is_empty());
    }

    #[test]
    fn reads_the_downloaded_list_back() {
        let csv = "\u{FEFF}รหัส SKU,สินค้า,ต้องการ,มีอยู่,ขาด,จำนวนที่เข้า\nMUG,แก้ว,1,0,1,1\nTEA,ชา,6,2,4,\nTEA,ชา,,,,3\nCUP,ถ้วย,,,,0\n,x,,,,2\nMUG,แก้ว,,,,-1\nMUG,แก้ว,,,,=1+1\n";
        let (arrivals, errors) = parse(csv.as_bytes()).unwrap();
        assert_eq!(
            arrivals,
            vec![
                Arrival { row: 2, sku_code: "MUG".into(), quantity: 1 },
                Arrival { row: 4, sku_code: "TEA".into(), quantity: 3 }
            ]
        );
        assert_eq!(
            errors,
            vec![
                (6, "sku", "validation.required"),
                (7, "quantity", "validation.quantity"),
                (8, "quantity", "validation.quantity")
            ]
        );
        // English headers, and a plain quantity column.
        let (a, _) = parse(b"SKU code,Quantity\nTEA,5").unwrap();
        assert_eq!(a[0].quantity, 5);
        assert_eq!(parse(b"name,phone\nA,1").unwrap_err(), FileError::WrongTemplate);
        assert_eq!(parse(b"sku,arriving\nTEA,").unwrap_err(), FileError::Empty);
        assert_eq!(parse(b"PK\x03\x04").unwrap_err(), FileError::NotReadable);
    }

    #[test]
    fn only_what_short_orders_wait_for_goes_in() {
        let s = shortages(&[line(1, "TEA", 3, 10)], &HashMap::new());
        let arrivals = [
            Arrival { row: 2, sku_code: "TEA".into(), quantity: 2 },
            Arrival { row: 3, sku_code: "MUG".into(), quantity: 1 },
            Arrival { row: 4, sku_code: "TEA".into(), quantity: 5 },
        ];
        let (ok, errors) = check(&arrivals, &s);
        assert_eq!(ok.len(), 1);
        assert_eq!((ok[0].0.sku_id, ok[0].1, ok[0].2.clone()), (1, 7, vec![2, 4]));
        assert_eq!(errors, vec![(3, "sku", "order.arrival_not_short")]);
    }
}
