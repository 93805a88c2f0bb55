//! Any bytes as a bank statement or COD report (CSV or XLSX), read, fingerprinted and
//! matched against a few open bills: refused with an error or read, never a panic.
#![no_main]

use std::collections::HashMap;

use bo_orders::matching::{self, OpenBill};
use bo_orders::statement;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(parsed) = statement::parse(data) else { return };
    let bills: Vec<OpenBill> = (1..=4)
        .map(|i| OpenBill {
            bill_id: i,
            order_id: i,
            order_no: format!("SO2569-00000{i}"),
            reference: "REF-1234".into(),
            name: "นาย สมชาย ใจดี".into(),
            amount: 19_900 * i,
            created_ms: 1_795_626_000_000,
            cod: i == 4,
            shipped: true,
            tracking: "TH0123456789A".into(),
            payment_state: "pending".into(),
            slip_at: 1_795_626_000_000,
        })
        .collect();
    let prints = matching::fingerprints(parsed.kind, &parsed.lines);
    let matches = matching::match_lines(parsed.kind, &parsed.lines, &prints, &bills, &HashMap::new());
    assert_eq!(matches.len(), parsed.lines.len());
});
