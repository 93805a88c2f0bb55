//! Any bytes as an uploaded picture: refused or cleaned (and resized), never a panic or an
//! allocation past the limits.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(cleaned) = bo_products::photos::clean(data) {
        let _ = bo_products::photos::resize_square_png(&cleaned.bytes, Some(100));
    }
});
