//! For tests: the text a PDF shows, as `pdftotext` (Debian's poppler-utils) reads it back.

use std::io::Write;
use std::process::{Command, Stdio};

/// The text of `pdf`, or None when `pdftotext` is not installed (which fails the test when
/// the `CI` variable is `true`: there it must be installed).
pub fn pdftotext(pdf: &[u8]) -> Option<String> {
    let child = Command::new("pdftotext")
        .args(["-enc", "UTF-8", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            assert!(std::env::var("CI").as_deref() != Ok("true"), "pdftotext is needed on CI (poppler-utils): {e}");
            eprintln!("note: pdftotext not found ({e}); install poppler-utils to check text extraction");
            return None;
        }
    };
    child.stdin.take().expect("stdin").write_all(pdf).expect("pdf written");
    let out = child.wait_with_output().expect("pdftotext ran");
    assert!(out.status.success(), "pdftotext failed: {}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8(out.stdout).expect("UTF-8 text"))
}
