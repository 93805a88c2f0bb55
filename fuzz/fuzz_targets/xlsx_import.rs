//! Any bytes as an import file: refused or read, never a panic, a hang or a bomb.
#![no_main]

libfuzzer_sys::fuzz_target!(
    init: {
        // The import catches the spreadsheet reader's own panics (a malformed file is refused,
        // see `import::parse`), so let them unwind to it instead of aborting at once. A panic
        // that escapes the import still ends the run as a crash.
        std::panic::set_hook(Box::new(|info| eprintln!("{info}")));
    },
    |data: &[u8]| {
        let _ = bo_products::import::parse(data, None);
    }
);
