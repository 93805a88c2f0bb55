//! Any bytes as the bill page's slip form (multipart, as a browser posts it): its parts read
//! as the page reads them (the file bounded at 5 MB, the account's number, the language),
//! and the file cleaned as a slip is. Refused or read, never a panic.
#![no_main]

const BOUNDARY: &str = "----slipformboundary";

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime.block_on(async {
        let body = futures::stream::once(async move { Ok::<_, std::io::Error>(bytes::Bytes::copy_from_slice(data)) });
        let mut form = multer::Multipart::new(body, BOUNDARY);
        let mut file: Option<Vec<u8>> = None;
        while let Ok(Some(mut field)) = form.next_field().await {
            match field.name() {
                Some("file") if file.is_none() => {
                    let mut kept = Vec::new();
                    while let Ok(Some(chunk)) = field.chunk().await {
                        if kept.len() + chunk.len() > bo_kit::images::MAX_BYTES {
                            return;
                        }
                        kept.extend_from_slice(&chunk);
                    }
                    file = Some(kept);
                }
                Some("store_channel_id") => {
                    let _: i64 = field.text().await.ok().and_then(|t| t.trim().parse().ok()).unwrap_or(-1);
                }
                Some("lang") => {
                    let _ = field.text().await;
                }
                _ => {}
            }
        }
        if let Some(f) = file {
            let _ = bo_kit::images::clean(&f);
        }
    });
});
