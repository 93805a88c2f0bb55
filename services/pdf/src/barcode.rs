//! Pure barcode encoders: Code 128 and EAN-13.
//!
//! Each encoder returns the modules of the symbol from its first bar to its last bar, `true` for a
//! dark module. Quiet zones are not included: leave at least 10 modules (Code 128) or 11 modules
//! (EAN-13) of white on each side when drawing.

use std::fmt;

/// Why a barcode could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BarcodeError {
    /// There was nothing to encode.
    Empty,
    /// Code 128 takes printable ASCII only (space to `~`).
    NotPrintableAscii {
        /// The character that was refused.
        ch: char,
        /// Its position in the input, counted in characters from 0.
        position: usize,
    },
    /// EAN-13 takes 12 digits (the check digit is added) or 13 digits.
    EanLength(usize),
    /// EAN-13 takes the digits 0 to 9 only.
    EanNotDigits,
    /// The 13th digit is not the check digit of the first 12.
    EanCheckDigit {
        /// The check digit the first 12 digits call for.
        expected: u8,
        /// The check digit that was given.
        found: u8,
    },
}

impl fmt::Display for BarcodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "nothing to encode"),
            Self::NotPrintableAscii { ch, position } => {
                write!(f, "Code 128 takes printable ASCII only; {ch:?} at position {position} is not")
            }
            Self::EanLength(n) => write!(f, "EAN-13 takes 12 or 13 digits, not {n} characters"),
            Self::EanNotDigits => write!(f, "EAN-13 takes the digits 0 to 9 only"),
            Self::EanCheckDigit { expected, found } => {
                write!(f, "EAN-13 check digit is {found} but should be {expected}")
            }
        }
    }
}

impl std::error::Error for BarcodeError {}

/// Bar and space widths of the Code 128 symbols 0 to 105 (each 11 modules).
const CODE128_WIDTHS: [&[u8; 6]; 106] = [
    b"212222", b"222122", b"222221", b"121223", b"121322", b"131222", b"122213", b"122312", b"132212", b"221213",
    b"221312", b"231212", b"112232", b"122132", b"122231", b"113222", b"123122", b"123221", b"223211", b"221132",
    b"221231", b"213212", b"223112", b"312131", b"311222", b"321122", b"321221", b"312212", b"322112", b"322211",
    b"212123", b"212321", b"232121", b"111323", b"131123", b"131321", b"112313", b"132113", b"132311", b"211313",
    b"231113", b"231311", b"112133", b"112331", b"132131", b"113123", b"113321", b"133121", b"313121", b"211331",
    b"231131", b"213113", b"213311", b"213131", b"311123", b"311321", b"331121", b"312113", b"312311", b"332111",
    b"314111", b"221411", b"431111", b"111224", b"111422", b"121124", b"121421", b"141122", b"141221", b"112214",
    b"112412", b"122114", b"122411", b"142112", b"142211", b"241211", b"221114", b"413111", b"241112", b"134111",
    b"111242", b"121142", b"121241", b"114212", b"124112", b"124211", b"411212", b"421112", b"421211", b"212141",
    b"214121", b"412121", b"111143", b"111341", b"131141", b"114113", b"114311", b"411113", b"411311", b"113141",
    b"114131", b"311141", b"411131", b"211412", b"211214", b"211232",
];

/// The Code 128 stop pattern (13 modules, with the final bar).
const CODE128_STOP: &[u8; 7] = b"2331112";

const CODE_C: u8 = 99;
const CODE_B: u8 = 100;
const START_B: u8 = 104;
const START_C: u8 = 105;

/// Appends alternating bars and spaces, starting with a bar, for the given widths.
fn push_widths(out: &mut Vec<bool>, widths: &[u8]) {
    for (i, w) in widths.iter().enumerate() {
        let dark = i % 2 == 0;
        out.extend(std::iter::repeat_n(dark, usize::from(w - b'0')));
    }
}

/// The Code 128 symbol values for `data`, from the start symbol to the check symbol (no stop).
///
/// Code set B is used for printable ASCII, code set C for runs of digits that it makes shorter:
/// at least 4 digits at the start or the end of the data, or at least 6 digits in the middle.
pub(crate) fn code128_values(data: &str) -> Result<Vec<u8>, BarcodeError> {
    if data.is_empty() {
        return Err(BarcodeError::Empty);
    }
    if let Some((position, ch)) = data.chars().enumerate().find(|(_, c)| !(' '..='~').contains(c)) {
        return Err(BarcodeError::NotPrintableAscii { ch, position });
    }
    let b = data.as_bytes();
    let digit_run = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();

    let mut values = Vec::with_capacity(b.len() + 4);
    let mut in_c;
    let lead = digit_run(0);
    if lead >= 4 || (lead == b.len() && lead % 2 == 0) {
        values.push(START_C);
        in_c = true;
    } else {
        values.push(START_B);
        in_c = false;
    }

    let mut i = 0;
    while i < b.len() {
        if in_c {
            if i + 1 < b.len() && b[i].is_ascii_digit() && b[i + 1].is_ascii_digit() {
                values.push((b[i] - b'0') * 10 + (b[i + 1] - b'0'));
                i += 2;
                continue;
            }
            values.push(CODE_B);
            in_c = false;
        }
        let run = digit_run(i);
        let at_end = i + run == b.len();
        if run >= 6 || (at_end && run >= 4) {
            // An odd run puts its first digit in code set B.
            if run % 2 == 1 {
                values.push(b[i] - b' ');
                i += 1;
            }
            values.push(CODE_C);
            in_c = true;
            continue;
        }
        values.push(b[i] - b' ');
        i += 1;
    }

    let sum: u32 = values.iter().enumerate().map(|(pos, &v)| u32::from(v) * (pos.max(1) as u32)).sum();
    // The check symbol is below 103, so it fits in a u8.
    values.push((sum % 103) as u8);
    Ok(values)
}

/// Encodes printable ASCII `data` as a Code 128 symbol: start, data, check symbol and stop.
///
/// Uses code set B, switching to code set C for long runs of digits (see the crate tests for
/// examples). Characters outside space to `~` are refused.
pub fn code128(data: &str) -> Result<Vec<bool>, BarcodeError> {
    let values = code128_values(data)?;
    let mut out = Vec::with_capacity(values.len() * 11 + 13);
    for v in values {
        push_widths(&mut out, CODE128_WIDTHS[usize::from(v)]);
    }
    push_widths(&mut out, CODE128_STOP);
    Ok(out)
}

/// EAN-13 left-hand digits with odd parity (set A), as 7 modules each.
const EAN_L: [&[u8; 7]; 10] = [
    b"0001101", b"0011001", b"0010011", b"0111101", b"0100011", b"0110001", b"0101111", b"0111011", b"0110111",
    b"0001011",
];

/// Which left-hand digits use even parity (set B), by the first digit; `1` marks set B.
const EAN_PARITY: [&[u8; 6]; 10] =
    [b"000000", b"001011", b"001101", b"001110", b"010011", b"011001", b"011100", b"010101", b"010110", b"011010"];

fn digits_of(s: &str) -> Option<Vec<u8>> {
    s.bytes().map(|c| c.is_ascii_digit().then(|| c - b'0')).collect()
}

/// The EAN-13 check digit for the first 12 digits, or `None` unless `first12` is exactly 12
/// ASCII digits.
pub fn ean13_check_digit(first12: &str) -> Option<u8> {
    let d = digits_of(first12)?;
    if d.len() != 12 {
        return None;
    }
    let sum: u32 = d.iter().enumerate().map(|(i, &x)| u32::from(x) * if i % 2 == 0 { 1 } else { 3 }).sum();
    Some(((10 - sum % 10) % 10) as u8)
}

/// Whether `s` is 13 digits whose last digit is the right check digit.
pub fn is_ean13(s: &str) -> bool {
    s.len() == 13 && s.get(..12).and_then(ean13_check_digit).is_some_and(|c| s.as_bytes()[12] == b'0' + c)
}

/// The 13 digits for `digits`: 12 digits get their check digit added, 13 digits must carry the
/// right one.
pub(crate) fn ean13_digits(digits: &str) -> Result<Vec<u8>, BarcodeError> {
    let n = digits.chars().count();
    if n == 0 {
        return Err(BarcodeError::Empty);
    }
    if n != 12 && n != 13 {
        return Err(BarcodeError::EanLength(n));
    }
    let mut d = digits_of(digits).ok_or(BarcodeError::EanNotDigits)?;
    let expected = ean13_check_digit(&digits[..12]).ok_or(BarcodeError::EanNotDigits)?;
    if n == 13 {
        if d[12] != expected {
            return Err(BarcodeError::EanCheckDigit { expected, found: d[12] });
        }
    } else {
        d.push(expected);
    }
    Ok(d)
}

/// Encodes an EAN-13 symbol (95 modules, guards included) from 12 digits, to which the check
/// digit is added, or from 13 digits, whose check digit is verified.
pub fn ean13(digits: &str) -> Result<Vec<bool>, BarcodeError> {
    let d = ean13_digits(digits)?;
    let mut out = Vec::with_capacity(95);
    let push = |out: &mut Vec<bool>, bits: &[u8]| out.extend(bits.iter().map(|&b| b == b'1'));
    push(&mut out, b"101");
    let parity = EAN_PARITY[usize::from(d[0])];
    for (i, &digit) in d[1..7].iter().enumerate() {
        let l = EAN_L[usize::from(digit)];
        if parity[i] == b'1' {
            // Set B is set C (the complement of set A) read backwards.
            out.extend(l.iter().rev().map(|&b| b == b'0'));
        } else {
            push(&mut out, l);
        }
    }
    push(&mut out, b"01010");
    for &digit in &d[7..13] {
        // Set C is the complement of set A.
        out.extend(EAN_L[usize::from(digit)].iter().map(|&b| b == b'0'));
    }
    push(&mut out, b"101");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Modules as a string of widths-expanded `1`/`0`.
    fn bits(m: &[bool]) -> String {
        m.iter().map(|&b| if b { '1' } else { '0' }).collect()
    }

    /// Expands bar/space width groups (each starting with a bar) into modules.
    fn expand(groups: &[&str]) -> String {
        let mut v = Vec::new();
        for g in groups {
            push_widths(&mut v, g.as_bytes());
        }
        bits(&v)
    }

    #[test]
    fn code128_table_is_well_formed() {
        for (i, w) in CODE128_WIDTHS.iter().enumerate() {
            let sum: u32 = w.iter().map(|c| u32::from(c - b'0')).sum();
            assert_eq!(sum, 11, "symbol {i}");
            let bars: u32 = w.iter().step_by(2).map(|c| u32::from(c - b'0')).sum();
            assert_eq!(bars % 2, 0, "symbol {i} has even bar parity");
        }
        let mut all: Vec<_> = CODE128_WIDTHS.to_vec();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 106);
        assert_eq!(CODE128_STOP.iter().map(|c| u32::from(c - b'0')).sum::<u32>(), 13);
    }

    #[test]
    fn code128_ab_by_hand() {
        // Start B (104), 'A' = 33, 'B' = 34; check = (104 + 33*1 + 34*2) mod 103 = 102.
        assert_eq!(code128_values("AB").unwrap(), vec![104, 33, 34, 102]);
        let want = expand(&["211214", "111323", "131123", "411131", "2331112"]);
        assert_eq!(bits(&code128("AB").unwrap()), want);
        assert_eq!(want.len(), 11 * 4 + 13);
        assert!(want.starts_with("11010010000") && want.ends_with("1100011101011"));
    }

    #[test]
    fn code128_all_digits_use_set_c() {
        // Start C (105), 12, 34, 56, 78; check = (105 + 12 + 68 + 168 + 312) mod 103 = 47.
        assert_eq!(code128_values("12345678").unwrap(), vec![105, 12, 34, 56, 78, 47]);
        let want = expand(&["211232", "112232", "131123", "331121", "241112", "133121", "2331112"]);
        assert_eq!(bits(&code128("12345678").unwrap()), want);
        // Two digits alone are shorter in set C too.
        assert_eq!(code128_values("42").unwrap()[..2], [105, 42]);
    }

    #[test]
    fn code128_switches_for_long_digit_runs() {
        // "2569" in the middle stays in B (4 < 6); "000001" at the end goes to C.
        // check = (104 + 39 + 50*2 + 18*3 + 21*4 + 22*5 + 25*6 + 13*7 + 99*8 + 0*9 + 0*10 + 1*11) mod 103 = 93
        assert_eq!(code128_values("GR2569-000001").unwrap(), vec![104, 39, 50, 18, 21, 22, 25, 13, 99, 0, 0, 1, 93]);
        // An odd run at the end: its first digit stays in B.
        // check = (104 + 33 + 17*2 + 99*3 + 23*4 + 45*5) mod 103 = 785 mod 103 = 64
        assert_eq!(code128_values("A12345").unwrap(), vec![104, 33, 17, 99, 23, 45, 64]);
        // An odd run at the start: pairs in C, then back to B.
        // check = (105 + 12 + 34*2 + 100*3 + 21*4 + 33*5) mod 103 = 734 mod 103 = 13
        assert_eq!(code128_values("12345A").unwrap(), vec![105, 12, 34, 100, 21, 33, 13]);
    }

    #[test]
    fn code128_refuses_non_ascii() {
        assert_eq!(code128(""), Err(BarcodeError::Empty));
        assert_eq!(code128("SKU-ก1"), Err(BarcodeError::NotPrintableAscii { ch: 'ก', position: 4 }));
        assert_eq!(code128("a\tb"), Err(BarcodeError::NotPrintableAscii { ch: '\t', position: 1 }));
        assert!(code128(" ~").is_ok());
    }

    #[test]
    fn ean13_known_pattern() {
        // 5901234123457: first digit 5 gives parity A B B A A B for 9 0 1 2 3 4.
        let want = [
            "101", "0001011", // 9 A
            "0100111", // 0 B
            "0110011", // 1 B
            "0010011", // 2 A
            "0111101", // 3 A
            "0011101", // 4 B
            "01010", "1100110", // 1 C
            "1101100", // 2 C
            "1000010", // 3 C
            "1011100", // 4 C
            "1001110", // 5 C
            "1000100", // 7 C
            "101",
        ]
        .concat();
        assert_eq!(bits(&ean13("5901234123457").unwrap()), want);
        assert_eq!(want.len(), 95);
        // 12 digits get the same symbol.
        assert_eq!(ean13("590123412345").unwrap(), ean13("5901234123457").unwrap());
    }

    #[test]
    fn ean13_parity_of_a_thai_prefix() {
        // Prefix 885 (Thailand): first digit 8 gives parity A B A B B A.
        let m = bits(&ean13("885099932001").unwrap());
        let left: Vec<&str> = (0..6).map(|i| &m[3 + i * 7..10 + i * 7]).collect();
        assert_eq!(left, ["0110111", "0111001", "0001101", "0010111", "0010111", "0001011"]);
    }

    #[test]
    fn ean13_check_digits() {
        assert_eq!(ean13_check_digit("400638133393"), Some(1));
        assert_eq!(ean13_check_digit("590123412345"), Some(7));
        assert_eq!(ean13_check_digit("885099932001"), Some(4));
        assert_eq!(ean13_check_digit("88509993200"), None);
        assert_eq!(ean13_check_digit("88509993200x"), None);
        assert!(is_ean13("4006381333931"));
        assert!(is_ean13("8850999320014"));
        assert!(!is_ean13("8850999320016"));
        assert!(!is_ean13("400638133393"));
        assert!(!is_ean13("40063813339311"));
        assert!(!is_ean13("400638133393x"));
    }

    #[test]
    fn ean13_refuses_bad_input() {
        assert_eq!(ean13("8850999320016"), Err(BarcodeError::EanCheckDigit { expected: 4, found: 6 }));
        assert_eq!(ean13(""), Err(BarcodeError::Empty));
        assert_eq!(ean13("12345"), Err(BarcodeError::EanLength(5)));
        assert_eq!(ean13("12345678901a"), Err(BarcodeError::EanNotDigits));
        assert_eq!(ean13("๑๒๓๔๕๖๗๘๙๐๑๒"), Err(BarcodeError::EanNotDigits));
    }
}
