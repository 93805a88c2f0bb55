//! Any bytes as an import file: refused or read, never a panic, a hang or a bomb.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = bo_products::import::parse(data, None);
});
