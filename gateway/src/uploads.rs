//! Uploads: a multipart file field is streamed into file storage under a staging key of the
//! caller's store, bounded as it streams, and the service is given the key. The service
//! removes what it was handed, whatever it answers; staged files never handed over (a
//! refused form, a replayed key) are removed when the request ends, and the storage purges
//! any a crash left behind.
//! Each part is fingerprinted as it streams (its field name and a digest of its bytes, and
//! the text fields as they are), so a retry of the same files matches whatever boundary the
//! client picked.

use axum::extract::multipart::Field;
use axum::http::StatusCode;
use bo_kit::files::{FileError, Files, Key};
use bo_kit::Code;
use futures::TryStreamExt as _;

use crate::error::ApiError;
use crate::idempotency::PartHasher;

/// The largest form of one file and a few fields that the file routes read (order import,
/// inadequate goods, statements, rate tables). The file in it is bounded again by its
/// service's own rule (`GetRules`), which is smaller.
pub const FILE_FORM_LIMIT: usize = 16 * 1024 * 1024;

/// The largest form of one picture (a payment slip) and a few fields: the picture's 5 MB
/// (`images::MAX_BYTES`, SPEC's bound) and room for the form around it. Without a limit of
/// their own such routes fall to the 2 MiB default and refuse slips SPEC allows.
pub const SLIP_FORM_LIMIT: usize = bo_kit::images::MAX_BYTES + 64 * 1024;

/// The files one request staged; removed when dropped.
pub struct Staged {
    files: Files,
    keys: Vec<Key>,
    pieces: Vec<Vec<u8>>,
}

impl Staged {
    /// Nothing staged yet.
    pub fn new(files: Files) -> Self {
        Self { files, keys: Vec::new(), pieces: Vec::new() }
    }

    /// Notes a text field for the fingerprint.
    pub fn text(&mut self, name: &str, value: &str) {
        let mut piece = name.as_bytes().to_vec();
        piece.push(0);
        piece.extend_from_slice(value.as_bytes());
        self.pieces.push(piece);
    }

    /// What the form held, for the request's fingerprint: every part's name and contents
    /// (files by their digest), in order, framed and hashed.
    pub fn digest(&self) -> Vec<u8> {
        let pieces: Vec<&[u8]> = self.pieces.iter().map(Vec::as_slice).collect();
        crate::idempotency::fingerprint(&axum::http::Method::POST, "", &pieces).into_bytes()
    }

    /// Streams `field` into a new staging key of `store_id`, refusing it past `max` bytes
    /// with `too_large` on `name` (the field's name in the form).
    pub async fn stage(
        &mut self,
        store_id: i64,
        field: Field<'_>,
        max: u64,
        name: &str,
        too_large: &str,
    ) -> Result<(), ApiError> {
        let key = Key::upload(store_id);
        let name_of_part = field.name().unwrap_or("").to_string();
        let mut hasher = PartHasher::default();
        let body = field.inspect_ok(|chunk| hasher.update(chunk));
        let uploaded = self.files.upload(&key, body, max).await;
        match uploaded {
            Ok(_) => {
                self.keys.push(key);
                self.pieces.push(hasher.finish(&name_of_part));
                Ok(())
            }
            Err(FileError::TooLarge(_)) => Err(ApiError::invalid_field(name, too_large)),
            // The whole request is over the route's limit, or the client went away.
            Err(FileError::Body(_)) => Err(ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, Code::PayloadTooLarge)),
            Err(FileError::Storage(e)) => Err(e.context("staging an upload").into()),
        }
    }

    /// How many files are staged.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when none is.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The staging keys, handed to the service, which removes them whatever it answers.
    pub fn hand_over(&mut self) -> Vec<String> {
        std::mem::take(&mut self.keys).into_iter().map(|k| k.to_string()).collect()
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        let keys = std::mem::take(&mut self.keys);
        if keys.is_empty() {
            return;
        }
        let files = self.files.clone();
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                for k in keys {
                    files.forget(&k).await;
                }
            });
        }
    }
}

/// A multipart form of one file and a few text fields, as the imports send it: the file
/// staged, `dry_run` read as a flag, the other named fields kept as text (all of them in the
/// form's fingerprint).
pub struct FileForm {
    pub staged: Staged,
    pub dry_run: bool,
    fields: std::collections::HashMap<String, String>,
}

impl FileForm {
    /// Reads `form`: the part `file` (at most `max` bytes, refused with `too_large`; a file
    /// name, when sent, must end with one of `extensions`, else `import_wrong_file_type`),
    /// `dry_run`, and the text parts named in `names`. Without a file: `validation.required`.
    pub async fn read(
        files: Files,
        store_id: i64,
        form: &mut axum::extract::Multipart,
        max: u64,
        too_large: &str,
        extensions: &[&str],
        names: &[&str],
    ) -> Result<FileForm, ApiError> {
        let mut out = FileForm { staged: Staged::new(files), dry_run: false, fields: Default::default() };
        let bad = || ApiError::bad_request(Code::InvalidBody);
        while let Some(field) = form.next_field().await.map_err(|_| bad())? {
            let name = field.name().unwrap_or("").to_string();
            if name == "file" && out.staged.is_empty() {
                let file_name = field.file_name().unwrap_or("").to_lowercase();
                if !file_name.is_empty() && !extensions.is_empty() && !extensions.iter().any(|e| file_name.ends_with(e))
                {
                    return Err(ApiError::invalid_field("file", "import_wrong_file_type"));
                }
                out.staged.stage(store_id, field, max, "file", too_large).await?;
            } else if name == "dry_run" || names.contains(&name.as_str()) {
                let text = field.text().await.map_err(|_| bad())?;
                out.staged.text(&name, &text);
                if name == "dry_run" {
                    out.dry_run = matches!(text.trim(), "true" | "1");
                } else {
                    out.fields.insert(name, text);
                }
            }
        }
        if out.staged.is_empty() {
            return Err(ApiError::invalid_field("file", "validation.required"));
        }
        Ok(out)
    }

    /// A text field, trimmed ('' when not sent).
    pub fn text(&self, name: &str) -> String {
        self.fields.get(name).map(|s| s.trim().to_string()).unwrap_or_default()
    }

    /// A whole-number field (0 when not sent or not a number).
    pub fn number(&self, name: &str) -> i64 {
        self.text(name).parse().unwrap_or(0)
    }
}

/// Streams the stored file under `key` with its length, `content_type` and `cache` policy, or
/// 404 `not_found` (a key that is not a key's shape is not found either).
pub async fn serve(
    files: &Files,
    key: String,
    content_type: &str,
    cache: &'static str,
    not_found: Code,
) -> Result<axum::response::Response, ApiError> {
    use axum::http::{header, HeaderValue};
    let missing = || ApiError::new(StatusCode::NOT_FOUND, not_found);
    let key = Key::new(key).map_err(|_| missing())?;
    let file = files.download(&key).await?.ok_or_else(missing)?;
    let mut res = axum::response::Response::new(axum::body::Body::from_stream(file.stream));
    let headers = res.headers_mut();
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(file.size));
    if let Ok(ct) = content_type.parse() {
        headers.insert(header::CONTENT_TYPE, ct);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    Ok(res)
}
