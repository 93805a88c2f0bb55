//! Reading untrusted CSV files into the same cells an .xlsx gives ([`SheetCells`]), bounded
//! by the file's size and by the rows whose values are kept.
//!
//! What Thai shops and banks export: UTF-8 (with or without a byte-order mark) or, from
//! older Windows programs, Windows-874 (TIS-620 with a few punctuation marks); separated by
//! commas, semicolons or tabs (the header line decides); quoted as RFC 4180 says (`""` is a
//! quote, a quoted field may hold separators and line breaks). Every value is text: nothing
//! is evaluated, so `=SUM(A1:A3)` is the text it looks like.

use crate::sheet::{Cell, SheetCells, SheetError};

/// The most columns of a row whose values are kept (more are ignored).
pub const MAX_COLUMNS: u32 = 200;

/// Reads the cells of a CSV file, keeping the values of the first `kept_rows` non-empty
/// rows and the indices (0-based, by record) of all.
pub fn read(bytes: &[u8], max_file_bytes: usize, kept_rows: usize) -> Result<SheetCells, SheetError> {
    if bytes.len() > max_file_bytes {
        return Err(SheetError::TooLarge);
    }
    let text = decode(bytes);
    let sep = separator(&text);
    let mut cells = SheetCells::new();
    let mut row: u32 = 0;
    let mut col: u32 = 0;
    let mut field = String::new();
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    let push = |cells: &mut SheetCells, row: u32, col: u32, field: &mut String| {
        let value = std::mem::take(field);
        if col < MAX_COLUMNS && !value.trim().is_empty() {
            cells.insert(row, col, Cell::Text(value), kept_rows);
        }
    };
    // A field starts quoted only when its first character is a quote.
    let mut at_start = true;
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    field.push('"');
                } else {
                    quoted = false;
                }
            } else {
                field.push(c);
            }
            continue;
        }
        match c {
            '"' if at_start => {
                quoted = true;
                at_start = false;
            }
            c if c == sep => {
                push(&mut cells, row, col, &mut field);
                col = col.saturating_add(1);
                at_start = true;
            }
            '\r' | '\n' => {
                if c == '\r' && chars.peek() == Some(&'\n') {
                    chars.next();
                }
                push(&mut cells, row, col, &mut field);
                row = row.saturating_add(1);
                col = 0;
                at_start = true;
            }
            c => {
                field.push(c);
                at_start = false;
            }
        }
    }
    push(&mut cells, row, col, &mut field);
    Ok(cells)
}

/// The file as text: UTF-8 when it is (a byte-order mark dropped), else Windows-874.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|b| windows_874(*b)).collect(),
    }
}

/// A Windows-874 byte as a character (U+FFFD where the code page has none).
fn windows_874(b: u8) -> char {
    match b {
        0x00..=0x7F => b as char,
        0x80 => '€',
        0x85 => '…',
        0x91 => '\u{2018}',
        0x92 => '\u{2019}',
        0x93 => '\u{201C}',
        0x94 => '\u{201D}',
        0x95 => '•',
        0x96 => '–',
        0x97 => '—',
        0xA0 => '\u{A0}',
        // Thai letters, vowels, tone marks and digits sit in TIS-620 at U+0E00 + (b - 0xA0).
        0xA1..=0xDA | 0xDF..=0xFB => char::from_u32(0x0E00 + (b as u32 - 0xA0)).unwrap_or('\u{FFFD}'),
        _ => '\u{FFFD}',
    }
}

/// The separator the first line uses most, outside quotes (a comma when none).
fn separator(text: &str) -> char {
    let mut counts = [(',', 0usize), (';', 0), ('\t', 0)];
    let mut quoted = false;
    for c in text.chars().take(64 * 1024) {
        match c {
            '"' => quoted = !quoted,
            '\n' | '\r' if !quoted => break,
            c if !quoted => {
                for (s, n) in counts.iter_mut() {
                    if *s == c {
                        *n += 1;
                    }
                }
            }
            _ => {}
        }
    }
    counts.iter().fold((',', 0), |best, &(s, n)| if n > best.1 { (s, n) } else { best }).0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(cells: &SheetCells, row: u32, col: u32) -> Option<String> {
        match cells.rows.get(&row)?.get(&col)? {
            Cell::Text(s) => Some(s.clone()),
            other => panic!("not text: {other:?}"),
        }
    }

    #[test]
    fn reads_quoted_fields_and_line_endings() {
        let csv = "a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",=SUM(A1:A3)\n\"two\nlines\",,3\r4";
        let cells = read(csv.as_bytes(), 1000, 100).unwrap();
        assert_eq!(text(&cells, 0, 2).as_deref(), Some("c"));
        assert_eq!(text(&cells, 1, 0).as_deref(), Some("x, y"));
        assert_eq!(text(&cells, 1, 1).as_deref(), Some("say \"hi\""));
        assert_eq!(text(&cells, 1, 2).as_deref(), Some("=SUM(A1:A3)"));
        assert_eq!(text(&cells, 2, 0).as_deref(), Some("two\nlines"));
        assert_eq!(text(&cells, 2, 1), None);
        assert_eq!(text(&cells, 2, 2).as_deref(), Some("3"));
        assert_eq!(text(&cells, 3, 0).as_deref(), Some("4"));
        assert_eq!(cells.non_empty.iter().copied().collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    }

    #[test]
    fn a_quote_inside_a_field_is_kept() {
        let cells = read(b"5\" pipe,x", 100, 10).unwrap();
        assert_eq!(text(&cells, 0, 0).as_deref(), Some("5\" pipe"));
        assert_eq!(text(&cells, 0, 1).as_deref(), Some("x"));
    }

    #[test]
    fn finds_the_separator_from_the_header() {
        let cells = read("วันที่;ยอดเงิน\n01/11/2569;1.500,00".as_bytes(), 1000, 10).unwrap();
        assert_eq!(text(&cells, 1, 1).as_deref(), Some("1.500,00"));
        let cells = read(b"date\tamount\n1\t2,000.00", 1000, 10).unwrap();
        assert_eq!(text(&cells, 1, 1).as_deref(), Some("2,000.00"));
        // A comma inside quotes does not count.
        let cells = read(b"\"a,b,c\";d\n1;2", 1000, 10).unwrap();
        assert_eq!(text(&cells, 0, 0).as_deref(), Some("a,b,c"));
    }

    #[test]
    fn decodes_utf8_with_a_mark_and_windows_874() {
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend_from_slice("ชื่อ,จำนวน".as_bytes());
        let cells = read(&bytes, 1000, 10).unwrap();
        assert_eq!(text(&cells, 0, 0).as_deref(), Some("ชื่อ"));
        // "สมชาย" in TIS-620.
        let tis = [0xCA, 0xC1, 0xAA, 0xD2, 0xC2, b',', b'1'];
        let cells = read(&tis, 1000, 10).unwrap();
        assert_eq!(text(&cells, 0, 0).as_deref(), Some("สมชาย"));
        assert_eq!(decode(&[0xFF, 0xA1]), "\u{FFFD}ก");
    }

    #[test]
    fn bounded_by_size_and_kept_rows() {
        assert!(matches!(read(&[b'a'; 11], 10, 10), Err(SheetError::TooLarge)));
        let csv: String = (0..50).map(|i| format!("{i}\n")).collect();
        let cells = read(csv.as_bytes(), 10_000, 5).unwrap();
        assert_eq!(cells.rows.len(), 5);
        assert_eq!(cells.non_empty.len(), 50);
        // Blank lines and blank fields are not rows.
        let cells = read(b"a\n\n , \nb", 100, 10).unwrap();
        assert_eq!(cells.non_empty.iter().copied().collect::<Vec<_>>(), vec![0, 3]);
        // Columns past the limit are ignored.
        let wide: String = (0..300).map(|i| i.to_string()).collect::<Vec<_>>().join(",");
        let cells = read(wide.as_bytes(), 100_000, 10).unwrap();
        assert_eq!(cells.rows[&0].len(), MAX_COLUMNS as usize);
    }

    #[test]
    fn binary_is_read_as_text_without_panic() {
        let junk: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
        let cells = read(&junk, 10_000, 100).unwrap();
        assert!(!cells.non_empty.is_empty());
    }
}
