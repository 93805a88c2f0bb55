//! International rate tables (SPEC §1 "an international shipping cost calculator", §9 the
//! eight international services): a store loads, from an .xlsx file, which zone each
//! country is in for each service and what each zone costs up to each weight. Pure: the
//! table, its prices, reading and writing the file, and the sample table a demo store gets.
//!
//! The file has two sheets. `zones`: a header row `country`, `name`, then one column per
//! service (its provider name); each row a country (ISO alpha-2), its name, and its zone per
//! service (blank: the service does not go there). `rates`: a header row `service`, `zone`,
//! `max_weight_g`, `price`; each row the price in baht of a parcel up to that weight. A
//! header cell may carry a label after the key in brackets (`country (ประเทศ)`), as the
//! template's do.

use std::collections::BTreeMap;

use bo_kit::sheet::{self, text_of, Cell, SheetError};
use bo_kit::FieldError;

use crate::domain::{self, INTERNATIONAL};

/// The largest file read.
pub const MAX_FILE_BYTES: usize = 2 * 1024 * 1024;
/// The most countries a table holds.
pub const MAX_COUNTRIES: usize = 300;
/// The most price rows a table holds.
pub const MAX_RATES: usize = 5_000;
/// The highest price of one row, in satang (100,000 baht).
pub const MAX_PRICE: i64 = 10_000_000;

/// The eight international services, in the catalogue's order.
pub fn services() -> Vec<&'static str> {
    domain::CATALOGUE.iter().filter(|c| c.shipment_type == INTERNATIONAL).map(|c| c.code).collect()
}

/// A country a table serves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Country {
    /// ISO alpha-2, upper case.
    pub code: String,
    /// Its name as the table gives it.
    pub name: String,
}

/// A store's international rate table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RateTable {
    /// Countries in the file's order.
    pub countries: Vec<Country>,
    /// (service, country) → zone.
    pub zones: BTreeMap<(String, String), String>,
    /// (service, zone) → (up to grams, satang), rising.
    pub prices: BTreeMap<(String, String), Vec<(i64, i64)>>,
}

/// Why a service cannot take a parcel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoRate {
    /// The service does not go to that country.
    NotServed,
    /// Heavier than the zone's last weight.
    OverWeight,
}

impl NoRate {
    /// The message key.
    pub fn code(self) -> &'static str {
        match self {
            NoRate::NotServed => "shipping.country_not_served",
            NoRate::OverWeight => "shipping.over_weight",
        }
    }
}

impl RateTable {
    /// The zone of `country` for `service`, and the price up to `weight_g`.
    pub fn price(&self, service: &str, country: &str, weight_g: i64) -> Result<(String, i64), NoRate> {
        let zone = self.zones.get(&(service.to_string(), country.to_uppercase())).ok_or(NoRate::NotServed)?;
        let steps = self.prices.get(&(service.to_string(), zone.clone())).ok_or(NoRate::NotServed)?;
        steps.iter().find(|(max, _)| weight_g <= *max).map(|(_, p)| (zone.clone(), *p)).ok_or(NoRate::OverWeight)
    }

    /// Number of price rows.
    pub fn rate_count(&self) -> usize {
        self.prices.values().map(Vec::len).sum()
    }
}

/// Why a file could not be read as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// Not an .xlsx file.
    NotXlsx,
    /// Too large, packed or unpacked.
    TooLarge,
    /// A sheet or a header column is missing ('unsuccessful, please upload again').
    WrongTemplate,
    /// Rows with errors (row numbers as the spreadsheet shows them).
    Rows(Vec<FieldError>),
}

impl ReadError {
    /// The wire code.
    pub fn code(&self) -> &'static str {
        match self {
            ReadError::NotXlsx => "import_not_xlsx",
            ReadError::TooLarge => "import_too_large",
            ReadError::WrongTemplate => "import_wrong_template",
            ReadError::Rows(_) => "validation_failed",
        }
    }
}

fn key_of(cell: Option<&Cell>) -> String {
    let t = text_of(cell).unwrap_or_default();
    t.split('(').next().unwrap_or("").trim().to_lowercase()
}

fn from_sheet(e: SheetError) -> ReadError {
    match e {
        SheetError::NotXlsx => ReadError::NotXlsx,
        SheetError::TooLarge => ReadError::TooLarge,
        SheetError::SheetNotFound => ReadError::WrongTemplate,
    }
}

/// Reads a rate-table file. Every row is checked; any error refuses the whole file, with
/// each error named by sheet, row and column.
pub fn read(bytes: &[u8]) -> Result<RateTable, ReadError> {
    let zones = sheet::read(bytes, MAX_FILE_BYTES, Some("zones"), MAX_COUNTRIES + 2).map_err(from_sheet)?;
    let rates = sheet::read(bytes, MAX_FILE_BYTES, Some("rates"), MAX_RATES + 2).map_err(from_sheet)?;
    if zones.non_empty.len() > MAX_COUNTRIES + 1 || rates.non_empty.len() > MAX_RATES + 1 {
        return Err(ReadError::TooLarge);
    }
    let services = services();
    let mut table = RateTable::default();
    let mut errs = Vec::new();
    let err = |errs: &mut Vec<FieldError>, sheet: &str, row: u32, col: &str, code: &str| {
        errs.push(FieldError::new(format!("{sheet}[{}].{col}", row + 1), code));
    };

    // zones
    let Some((&head, header)) = zones.rows.iter().next() else { return Err(ReadError::WrongTemplate) };
    let mut cols: BTreeMap<String, u32> = BTreeMap::new();
    for (c, v) in header {
        cols.entry(key_of(Some(v))).or_insert(*c);
    }
    let (Some(&country_col), Some(&name_col)) = (cols.get("country"), cols.get("name")) else {
        return Err(ReadError::WrongTemplate);
    };
    let service_cols: Vec<(&str, u32)> = services.iter().filter_map(|s| cols.get(*s).map(|c| (*s, *c))).collect();
    if service_cols.is_empty() {
        return Err(ReadError::WrongTemplate);
    }
    for (&r, row) in zones.rows.range(head + 1..) {
        let code = text_of(row.get(&country_col)).unwrap_or_default().to_uppercase();
        if code.len() != 2 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
            err(&mut errs, "zones", r, "country", "validation.country_unknown");
            continue;
        }
        if table.countries.iter().any(|c| c.code == code) {
            err(&mut errs, "zones", r, "country", "validation.duplicate");
            continue;
        }
        let name = text_of(row.get(&name_col)).unwrap_or_default();
        if name.chars().count() > 100 {
            err(&mut errs, "zones", r, "name", "validation.too_long");
        }
        for (service, c) in &service_cols {
            match text_of(row.get(c)) {
                Ok(z) if z.is_empty() => {}
                Ok(z) if z.chars().count() <= 10 => {
                    table.zones.insert((service.to_string(), code.clone()), z);
                }
                _ => err(&mut errs, "zones", r, service, "validation.zone"),
            }
        }
        table.countries.push(Country { code, name: if name.is_empty() { String::new() } else { name } });
    }

    // rates
    let Some((&head, header)) = rates.rows.iter().next() else { return Err(ReadError::WrongTemplate) };
    let mut cols: BTreeMap<String, u32> = BTreeMap::new();
    for (c, v) in header {
        cols.entry(key_of(Some(v))).or_insert(*c);
    }
    let (Some(&svc), Some(&zone), Some(&weight), Some(&price)) =
        (cols.get("service"), cols.get("zone"), cols.get("max_weight_g"), cols.get("price"))
    else {
        return Err(ReadError::WrongTemplate);
    };
    for (&r, row) in rates.rows.range(head + 1..) {
        let service = text_of(row.get(&svc)).unwrap_or_default().to_lowercase();
        if !services.contains(&service.as_str()) {
            err(&mut errs, "rates", r, "service", "validation.logistic_provider");
            continue;
        }
        let z = text_of(row.get(&zone)).unwrap_or_default();
        if z.is_empty() || z.chars().count() > 10 {
            err(&mut errs, "rates", r, "zone", "validation.zone");
            continue;
        }
        let grams = match text_of(row.get(&weight)).ok().and_then(|t| t.parse::<i64>().ok()) {
            Some(g) if g > 0 && g <= domain::MAX_WEIGHT_G => g,
            _ => {
                err(&mut errs, "rates", r, "max_weight_g", "validation.weight");
                continue;
            }
        };
        let satang = match sheet::satang_of(row.get(&price), MAX_PRICE) {
            Ok(p) => p,
            Err(code) => {
                err(&mut errs, "rates", r, "price", code);
                continue;
            }
        };
        let steps = table.prices.entry((service, z)).or_default();
        if steps.iter().any(|(g, _)| *g == grams) {
            err(&mut errs, "rates", r, "max_weight_g", "validation.duplicate");
            continue;
        }
        steps.push((grams, satang));
    }
    for steps in table.prices.values_mut() {
        steps.sort();
    }
    if errs.is_empty() && (table.countries.is_empty() || table.prices.is_empty()) {
        errs.push(FieldError::new("file", "import_empty"));
    }
    if errs.is_empty() {
        Ok(table)
    } else {
        errs.truncate(100);
        Err(ReadError::Rows(errs))
    }
}

/// Writes a table as the file [`read`] reads (also the downloadable template, with the
/// sample's rows as the example).
pub fn write(table: &RateTable, sample_note: Option<&str>) -> Result<Vec<u8>, rust_xlsxwriter::XlsxError> {
    use rust_xlsxwriter::{Format, Workbook};
    let services = services();
    let bold = Format::new().set_bold();
    let mut wb = Workbook::new();
    let zones = wb.add_worksheet();
    zones.set_name("zones")?;
    zones.write_string_with_format(0, 0, "country (ประเทศ)", &bold)?;
    zones.write_string_with_format(0, 1, "name (ชื่อประเทศ)", &bold)?;
    for (i, s) in services.iter().enumerate() {
        let name = domain::carrier(s).map(|c| format!("{s} ({})", c.name_th)).unwrap_or_else(|| s.to_string());
        zones.write_string_with_format(0, 2 + i as u16, name, &bold)?;
    }
    for (r, c) in table.countries.iter().enumerate() {
        let row = 1 + r as u32;
        zones.write_string(row, 0, &c.code)?;
        zones.write_string(row, 1, &c.name)?;
        for (i, s) in services.iter().enumerate() {
            if let Some(z) = table.zones.get(&(s.to_string(), c.code.clone())) {
                zones.write_string(row, 2 + i as u16, z)?;
            }
        }
    }
    zones.set_column_width(1, 24)?;
    let rates = wb.add_worksheet();
    rates.set_name("rates")?;
    for (i, h) in
        ["service (บริการ)", "zone (โซน)", "max_weight_g (น้ำหนักไม่เกิน กรัม)", "price (ราคา บาท)"].iter().enumerate()
    {
        rates.write_string_with_format(0, i as u16, *h, &bold)?;
    }
    let mut row = 1;
    for ((service, zone), steps) in &table.prices {
        for (g, p) in steps {
            rates.write_string(row, 0, service)?;
            rates.write_string(row, 1, zone)?;
            rates.write_number(row, 2, *g as f64)?;
            rates.write_string(row, 3, bo_kit::money::Satang(*p).to_string())?;
            row += 1;
        }
    }
    rates.set_column_width(0, 24)?;
    if let Some(note) = sample_note {
        let about = wb.add_worksheet();
        about.set_name("about")?;
        about.write_string(0, 0, note)?;
    }
    wb.save_to_buffer()
}

/// The sample table a demo store starts with: a few countries and services at made-up
/// prices, labelled as a sample wherever it shows.
pub fn sample() -> RateTable {
    let mut t = RateTable::default();
    let countries = [
        ("JP", "ญี่ปุ่น / Japan", "2"),
        ("CN", "จีน / China", "1"),
        ("SG", "สิงคโปร์ / Singapore", "1"),
        ("US", "สหรัฐอเมริกา / United States", "4"),
        ("GB", "สหราชอาณาจักร / United Kingdom", "3"),
        ("AU", "ออสเตรเลีย / Australia", "3"),
    ];
    for (code, name, zone) in countries {
        t.countries.push(Country { code: code.into(), name: name.into() });
        for s in services() {
            t.zones.insert((s.to_string(), code.to_string()), zone.to_string());
        }
    }
    // Per service: the price of the first 500 g in zone 1, each further 500 g, and the
    // heaviest parcel taken (grams); further zones cost a quarter (first) and a fifth
    // (steps) more each.
    let base: [(&str, i64, i64, i64); 8] = [
        ("surface_parcel", 30_000, 8_000, 30_000),
        ("surface_registered_mail", 12_000, 6_000, 2_000),
        ("air_registered_mail", 18_000, 9_000, 2_000),
        ("epacket_lp", 20_000, 10_000, 2_000),
        ("epacket", 25_000, 12_000, 2_000),
        ("ems_world_package", 60_000, 25_000, 30_000),
        ("ems_world_document", 45_000, 20_000, 2_000),
        ("air_parcel", 50_000, 20_000, 30_000),
    ];
    for (service, first, step, max_g) in base {
        for zone in 1..=4i64 {
            let mut steps = Vec::new();
            let mut grams = 500;
            let mut price = first + (zone - 1) * first / 4;
            while grams <= max_g {
                steps.push((grams, price));
                grams += 500;
                price += step + (zone - 1) * step / 5;
            }
            t.prices.insert((service.to_string(), zone.to_string()), steps);
        }
    }
    t
}

/// The label of the sample table.
pub const SAMPLE_LABEL: &str = "ตัวอย่างอัตราค่าส่ง (ไม่ใช่ราคาจริง) / Sample rates (not real prices)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_are_looked_up_by_zone_and_weight() {
        let t = sample();
        let (zone, p) = t.price("ems_world_package", "jp", 1_200).unwrap();
        assert_eq!(zone, "2");
        // Zone 2: 600 baht + 150 for the first 500 g, then two steps of 250 + 50.
        assert_eq!(p, 75_000 + 2 * 30_000);
        assert_eq!(t.price("ems_world_package", "JP", 500).unwrap().1, 75_000, "a step's limit is inclusive");
        assert_eq!(t.price("ems_world_package", "FR", 500), Err(NoRate::NotServed));
        assert_eq!(t.price("surface_registered_mail", "JP", 2_001), Err(NoRate::OverWeight));
    }

    #[test]
    fn a_written_table_reads_back_the_same() {
        let t = sample();
        let bytes = write(&t, Some(SAMPLE_LABEL)).unwrap();
        let back = read(&bytes).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.countries.len(), 6);
        assert!(back.rate_count() > 100);
    }

    #[test]
    fn rows_with_errors_refuse_the_file_and_say_where() {
        use rust_xlsxwriter::Workbook;
        let mut wb = Workbook::new();
        let z = wb.add_worksheet();
        z.set_name("zones").unwrap();
        for (c, h) in ["country", "name", "ems_world_package"].iter().enumerate() {
            z.write_string(0, c as u16, *h).unwrap();
        }
        z.write_string(1, 0, "JPN").unwrap();
        z.write_string(2, 0, "JP").unwrap();
        z.write_string(2, 2, "2").unwrap();
        let r = wb.add_worksheet();
        r.set_name("rates").unwrap();
        for (c, h) in ["service", "zone", "max_weight_g", "price"].iter().enumerate() {
            r.write_string(0, c as u16, *h).unwrap();
        }
        r.write_string(1, 0, "kerry").unwrap();
        r.write_string(2, 0, "ems_world_package").unwrap();
        r.write_string(2, 1, "2").unwrap();
        r.write_number(2, 2, 500.0).unwrap();
        r.write_string(2, 3, "12.345").unwrap();
        let e = read(&wb.save_to_buffer().unwrap()).unwrap_err();
        let ReadError::Rows(errs) = e else { panic!("{e:?}") };
        let got: Vec<(String, String)> = errs.into_iter().map(|f| (f.field, f.code)).collect();
        assert_eq!(
            got,
            [
                ("zones[2].country".to_string(), "validation.country_unknown".to_string()),
                ("rates[2].service".to_string(), "validation.logistic_provider".to_string()),
                ("rates[3].price".to_string(), "validation.money".to_string()),
            ]
        );
    }

    #[test]
    fn a_file_without_the_sheets_is_the_wrong_template() {
        let mut wb = rust_xlsxwriter::Workbook::new();
        wb.add_worksheet().write_string(0, 0, "hello").unwrap();
        assert_eq!(read(&wb.save_to_buffer().unwrap()), Err(ReadError::WrongTemplate));
        assert_eq!(read(b"not a zip"), Err(ReadError::NotXlsx));
    }
}
