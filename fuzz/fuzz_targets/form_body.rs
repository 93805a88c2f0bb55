//! Any bytes as a form-encoded body with nested bracket keys, read into a shape like the
//! API's: refused with an error or read, never a panic.
#![no_main]

use std::collections::BTreeMap;

#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct Line {
    sku_id: Option<i64>,
    quantity: Option<i64>,
    note: Option<String>,
}

#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct Body {
    name: Option<String>,
    items: Option<Vec<Line>>,
    options: Option<BTreeMap<String, String>>,
    vat: Option<bool>,
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = bo_gateway::wire::decode_body::<Body>("application/x-www-form-urlencoded", data);
    let _ = bo_gateway::wire::decode_body::<Body>("application/json", data);
});
