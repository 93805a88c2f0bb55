//! Files: every file the product keeps (product photos, payment slips, identity photos,
//! receipt images, labels, exports) goes through [`Files`], built on the `object_store`
//! crate: a folder under the data folder in the embedded target, an S3-compatible bucket
//! when modules run apart (`files.url = "s3://bucket"`).
//!
//! Files never ride inside gRPC messages. The gateway streams an upload into storage under
//! a staging key ([`Key::upload`]) and gives the service the key; the service reads it
//! (bounded), keeps what it makes under its own keys, and removes the staging file.
//! Downloads stream from storage to the client.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use bytes::Bytes;
use futures::stream::BoxStream;
use futures::{Stream, StreamExt, TryStreamExt};
use object_store::path::Path as StorePath;
use object_store::{ObjectStore, PutPayload, WriteMultipart};
use serde::{Deserialize, Serialize};

use crate::config::Secret;

/// Uploads larger than this go to storage in parts of this size; smaller ones in one write.
/// Also the most one upload holds in memory at a time.
pub const PART_BYTES: usize = 5 * 1024 * 1024;

/// Staged uploads older than this are removed by [`Files::purge_uploads`].
pub const UPLOAD_TTL: Duration = Duration::from_secs(24 * 3600);

/// Creates `dir` (and its parents) when missing; a folder this creates is its owner's only.
pub fn private_dir(dir: &Path) -> anyhow::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt as _;
        b.mode(0o700);
    }
    b.create(dir).with_context(|| format!("creating {}", dir.display()))
}

/// Creates `path` empty when missing, readable and writable by its owner only.
pub fn private_file(path: &Path) -> anyhow::Result<()> {
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        opts.mode(0o600);
    }
    opts.open(path).map(|_| ()).with_context(|| format!("creating {}", path.display()))
}

/// Where files are kept (`files.*`, `BO_FILES__…`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct FilesConfig {
    /// `s3://bucket[/prefix]`, `file:///absolute/folder`, or empty for `<data_dir>/files`
    /// (embedded target only: processes that run apart must share one storage).
    pub url: Option<String>,
    /// An S3-compatible endpoint (`http://minio:9000`); empty for AWS itself.
    pub endpoint: Option<String>,
    /// The bucket's region (default `us-east-1`).
    pub region: Option<String>,
    /// Access key id; empty to take the `AWS_*` environment or the instance's role.
    pub access_key_id: Option<Secret>,
    /// Secret access key.
    pub secret_access_key: Option<Secret>,
    /// Address buckets as `<bucket>.<endpoint>` instead of `<endpoint>/<bucket>`.
    pub virtual_hosted_style: bool,
}

/// A file's name in storage: `/`-separated segments of letters, digits, `.`, `_`, `-` and
/// `@`, no empty, `.` or `..` segment. Keys are made by the code, never taken from a client
/// as they are.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key(String);

impl Key {
    /// A key, refused unless it has the shape above.
    pub fn new(key: impl Into<String>) -> anyhow::Result<Key> {
        let key = key.into();
        anyhow::ensure!(Self::valid(&key), "invalid file key {key:?}");
        Ok(Key(key))
    }

    /// Whether `key` has a key's shape.
    pub fn valid(key: &str) -> bool {
        !key.is_empty()
            && key.len() <= 512
            && key.split('/').all(|seg| {
                !seg.is_empty()
                    && seg != "."
                    && seg != ".."
                    && seg.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'@'))
            })
    }

    /// A new staging key for an upload to `store_id`: `uploads/<store>/<uuid>`.
    pub fn upload(store_id: i64) -> Key {
        Key(format!("uploads/{store_id}/{}", uuid::Uuid::now_v7().simple()))
    }

    /// True when this is a staging key of `store_id` (a service checks this before it reads
    /// an upload a caller names, so no store can consume another's).
    pub fn is_upload_of(&self, store_id: i64) -> bool {
        self.0
            .strip_prefix("uploads/")
            .and_then(|rest| rest.split_once('/'))
            .is_some_and(|(store, name)| store == store_id.to_string() && !name.contains('/'))
    }

    /// The staging keys a caller names, each an upload of `store_id`; anything else is
    /// refused on `field` as `upload_not_found`, so no store consumes another's upload.
    pub fn uploads_of(store_id: i64, keys: &[String], field: &str) -> crate::Result<Vec<Key>> {
        keys.iter()
            .map(|k| {
                Key::new(k.as_str())
                    .ok()
                    .filter(|k| k.is_upload_of(store_id))
                    .ok_or_else(|| crate::Error::invalid_field(field, "upload_not_found"))
            })
            .collect()
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    fn path(&self) -> StorePath {
        StorePath::from(self.0.as_str())
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why an upload or a bounded read failed.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file is larger than the limit given.
    #[error("the file is larger than {0} bytes")]
    TooLarge(u64),
    /// The client's body broke off.
    #[error("the upload was interrupted: {0}")]
    Body(String),
    /// Storage failed.
    #[error(transparent)]
    Storage(#[from] anyhow::Error),
}

/// A file being read: its size and its bytes as a stream.
pub struct Download {
    /// Size in bytes.
    pub size: u64,
    /// The bytes.
    pub stream: BoxStream<'static, Result<Bytes, std::io::Error>>,
}

/// The storage of every file.
#[derive(Clone)]
pub struct Files {
    store: Arc<dyn ObjectStore>,
    local_root: Option<PathBuf>,
    describe: String,
}

impl std::fmt::Debug for Files {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Files").field("at", &self.describe).finish()
    }
}

impl Files {
    /// The storage `cfg` names, or `<data_dir>/files` when it names none.
    pub fn open(cfg: &FilesConfig, data_dir: &Path) -> anyhow::Result<Files> {
        match cfg.url.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
            None => Files::local(data_dir.join("files")),
            Some(url) if url.starts_with("file://") => Files::local(PathBuf::from(&url["file://".len()..])),
            Some(url) if url.starts_with("s3://") => Files::s3(url, cfg),
            Some(url) => anyhow::bail!("files.url must be s3://bucket or file:///folder, not {url:?}"),
        }
    }

    /// Files in a folder (created when missing).
    pub fn local(root: impl Into<PathBuf>) -> anyhow::Result<Files> {
        let root = root.into();
        private_dir(&root)?;
        let store = object_store::local::LocalFileSystem::new_with_prefix(&root)
            .with_context(|| format!("opening {}", root.display()))?
            .with_automatic_cleanup(true);
        Ok(Files { store: Arc::new(store), describe: root.display().to_string(), local_root: Some(root) })
    }

    /// Files in memory (tests).
    pub fn memory() -> Files {
        Files { store: Arc::new(object_store::memory::InMemory::new()), local_root: None, describe: "memory".into() }
    }

    fn s3(url: &str, cfg: &FilesConfig) -> anyhow::Result<Files> {
        let mut b = object_store::aws::AmazonS3Builder::from_env()
            .with_url(url)
            .with_region(cfg.region.clone().filter(|r| !r.is_empty()).unwrap_or_else(|| "us-east-1".into()))
            .with_virtual_hosted_style_request(cfg.virtual_hosted_style);
        if let Some(endpoint) = cfg.endpoint.as_deref().filter(|e| !e.is_empty()) {
            b = b.with_endpoint(endpoint).with_allow_http(endpoint.starts_with("http://"));
        }
        if let Some(k) = cfg.access_key_id.as_ref().filter(|k| !k.is_empty()) {
            b = b.with_access_key_id(k.expose());
        }
        if let Some(k) = cfg.secret_access_key.as_ref().filter(|k| !k.is_empty()) {
            b = b.with_secret_access_key(k.expose());
        }
        // The builder's error may quote what it was given; say only which setting is wrong.
        let store =
            b.build().map_err(|_| anyhow::anyhow!("files: the S3 settings for {url} are incomplete or wrong"))?;
        let describe = match cfg.endpoint.as_deref().filter(|e| !e.is_empty()) {
            Some(e) => format!("{url} at {e}"),
            None => url.to_string(),
        };
        Ok(Files { store: Arc::new(store), local_root: None, describe })
    }

    /// Where the files are, for logs (never a secret).
    pub fn describe(&self) -> &str {
        &self.describe
    }

    /// The folder, for files on the local disk.
    pub fn local_root(&self) -> Option<&Path> {
        self.local_root.as_deref()
    }

    /// Writes `bytes` under `key`, replacing what was there. Readers never see half a file.
    pub async fn put(&self, key: &Key, bytes: impl Into<Bytes>) -> anyhow::Result<()> {
        self.store.put(&key.path(), PutPayload::from(bytes.into())).await.with_context(|| format!("writing {key}"))?;
        Ok(())
    }

    /// Streams `body` into `key`, refusing it (and keeping nothing) past `max` bytes or when
    /// the body breaks off. At most one part ([`PART_BYTES`]) is held in memory. Returns the
    /// size written.
    pub async fn upload<S, E>(&self, key: &Key, body: S, max: u64) -> Result<u64, FileError>
    where
        S: Stream<Item = Result<Bytes, E>> + Send,
        E: std::fmt::Display,
    {
        let mut body = std::pin::pin!(body);
        let mut buf: Vec<u8> = Vec::new();
        let mut size: u64 = 0;
        let mut parts: Option<WriteMultipart> = None;
        let outcome: Result<(), FileError> = async {
            while let Some(chunk) = body.next().await {
                let chunk = chunk.map_err(|e| FileError::Body(e.to_string()))?;
                size += chunk.len() as u64;
                if size > max {
                    return Err(FileError::TooLarge(max));
                }
                match parts.as_mut() {
                    Some(w) => {
                        w.wait_for_capacity(2).await.map_err(|e| FileError::Storage(e.into()))?;
                        w.write(&chunk);
                    }
                    None => {
                        buf.extend_from_slice(&chunk);
                        if buf.len() >= PART_BYTES {
                            let upload = self
                                .store
                                .put_multipart(&key.path())
                                .await
                                .map_err(|e| FileError::Storage(e.into()))?;
                            let mut w = WriteMultipart::new_with_chunk_size(upload, PART_BYTES);
                            w.write(&std::mem::take(&mut buf));
                            parts = Some(w);
                        }
                    }
                }
            }
            Ok(())
        }
        .await;
        match (outcome, parts) {
            (Ok(()), Some(w)) => {
                w.finish()
                    .await
                    .map_err(|e| FileError::Storage(anyhow::Error::from(e).context(format!("writing {key}"))))?;
            }
            (Ok(()), None) => self.put(key, buf).await?,
            (Err(e), Some(w)) => {
                let _ = w.abort().await;
                return Err(e);
            }
            (Err(e), None) => return Err(e),
        }
        Ok(size)
    }

    /// The bytes under `key`, or `None`; refused past `max` bytes before any is read.
    pub async fn read(&self, key: &Key, max: u64) -> Result<Option<Bytes>, FileError> {
        let got = match self.store.get(&key.path()).await {
            Ok(g) => g,
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(e) => return Err(FileError::Storage(anyhow::Error::from(e).context(format!("reading {key}")))),
        };
        if got.meta.size > max {
            return Err(FileError::TooLarge(max));
        }
        let bytes = got
            .bytes()
            .await
            .map_err(|e| FileError::Storage(anyhow::Error::from(e).context(format!("reading {key}"))))?;
        Ok(Some(bytes))
    }

    /// The bytes of an upload a service was handed, at most `max`: a missing upload is
    /// refused on `field` as `upload_not_found`, a larger one as `too_large`.
    pub async fn read_upload(&self, key: &Key, max: u64, field: &str, too_large: &str) -> crate::Result<Bytes> {
        match self.read(key, max).await {
            Ok(Some(b)) => Ok(b),
            Ok(None) => Err(crate::Error::invalid_field(field, "upload_not_found")),
            Err(FileError::TooLarge(_)) => Err(crate::Error::invalid_field(field, too_large)),
            Err(e) => Err(crate::Error::internal(anyhow::Error::from(e))),
        }
    }

    /// The file under `key` as a stream, or `None`.
    pub async fn download(&self, key: &Key) -> anyhow::Result<Option<Download>> {
        match self.store.get(&key.path()).await {
            Ok(got) => {
                let size = got.meta.size;
                let stream = got.into_stream().map_err(std::io::Error::other).boxed();
                Ok(Some(Download { size, stream }))
            }
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(anyhow::Error::from(e).context(format!("reading {key}"))),
        }
    }

    /// Whether `key` holds a file.
    pub async fn exists(&self, key: &Key) -> anyhow::Result<bool> {
        match self.store.head(&key.path()).await {
            Ok(_) => Ok(true),
            Err(object_store::Error::NotFound { .. }) => Ok(false),
            Err(e) => Err(anyhow::Error::from(e).context(format!("looking up {key}"))),
        }
    }

    /// Removes `key`; a missing file is not an error.
    pub async fn delete(&self, key: &Key) -> anyhow::Result<()> {
        match self.store.delete(&key.path()).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(anyhow::Error::from(e).context(format!("removing {key}"))),
        }
    }

    /// Removes `key`, logging (not returning) a failure: for clean-up after the fact.
    pub async fn forget(&self, key: &Key) {
        if let Err(e) = self.delete(key).await {
            tracing::warn!(key = %key, error = %format!("{e:#}"), "could not remove a file");
        }
    }

    /// The keys under `prefix/`.
    pub async fn list(&self, prefix: &str) -> anyhow::Result<Vec<String>> {
        let prefix = StorePath::from(prefix);
        let metas: Vec<object_store::ObjectMeta> =
            self.store.list(Some(&prefix)).try_collect().await.context("listing files")?;
        Ok(metas.into_iter().map(|m| m.location.to_string()).collect())
    }

    /// Removes the files under `prefix/` last written before `older_than` ago; returns how
    /// many.
    pub async fn purge(&self, prefix: &str, older_than: Duration) -> anyhow::Result<usize> {
        let cutoff = crate::time::now_ms() - older_than.as_millis() as i64;
        let prefix = StorePath::from(prefix);
        let mut listed = self.store.list(Some(&prefix));
        let mut removed = 0;
        while let Some(meta) = listed.next().await {
            let meta = meta.context("listing files")?;
            if meta.last_modified.timestamp_millis() < cutoff {
                match self.store.delete(&meta.location).await {
                    Ok(()) | Err(object_store::Error::NotFound { .. }) => removed += 1,
                    Err(e) => return Err(anyhow::Error::from(e).context("removing an old file")),
                }
            }
        }
        Ok(removed)
    }

    /// Removes staged uploads nobody consumed within [`UPLOAD_TTL`] (a request that died
    /// between the upload and the call that takes it).
    pub async fn purge_uploads(&self) -> anyhow::Result<usize> {
        self.purge("uploads", UPLOAD_TTL).await
    }

    /// Runs [`Files::purge_uploads`] hourly until `cancel`. Harmless when several replicas
    /// run it: removing a removed file is not an error.
    pub async fn purge_uploads_hourly(self, cancel: tokio_util::sync::CancellationToken) {
        let mut wait = Duration::from_secs(60);
        loop {
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = cancel.cancelled() => return,
            }
            wait = Duration::from_secs(3600);
            match self.purge_uploads().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(files = n, "removed stale uploads"),
                Err(e) => tracing::warn!(error = %format!("{e:#}"), "could not purge stale uploads"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(sizes: &[usize]) -> impl Stream<Item = Result<Bytes, std::io::Error>> + Send {
        let parts: Vec<Result<Bytes, std::io::Error>> =
            sizes.iter().enumerate().map(|(i, n)| Ok(Bytes::from(vec![i as u8; *n]))).collect();
        futures::stream::iter(parts)
    }

    #[test]
    fn keys_have_a_safe_shape() {
        for ok in ["photos/1/abc.jpg", "uploads/12/0193ab", "a", "x/y@200.png", "exports/3/r_1-2.xlsx"] {
            assert!(Key::valid(ok), "{ok}");
        }
        for bad in ["", "/a", "a/", "a//b", "../x", "a/../b", "a/./b", "a\\b", "a b", "a/ข", "a\0b", "%2e%2e"] {
            assert!(!Key::valid(bad), "{bad:?}");
        }
        assert!(!Key::valid(&"a".repeat(513)));
    }

    #[test]
    fn uploads_belong_to_their_store() {
        let k = Key::upload(7);
        assert!(k.is_upload_of(7));
        assert!(!k.is_upload_of(70) && !k.is_upload_of(1));
        assert!(!Key::new("uploads/7/a/b").unwrap().is_upload_of(7));
        assert!(!Key::new("photos/7/a.jpg").unwrap().is_upload_of(7));
        assert!(!Key::new("uploads/70/a").unwrap().is_upload_of(7));
    }

    async fn round_trip(files: Files) {
        let key = Key::new("t/one.bin").unwrap();
        assert!(files.read(&key, 10).await.unwrap().is_none());
        assert!(!files.exists(&key).await.unwrap());
        files.put(&key, Bytes::from_static(b"hello")).await.unwrap();
        assert_eq!(files.read(&key, 10).await.unwrap().unwrap(), Bytes::from_static(b"hello"));
        assert!(matches!(files.read(&key, 4).await, Err(FileError::TooLarge(4))));

        // Small uploads are one write; large ones go in parts; both read back whole.
        let small = Key::new("t/small.bin").unwrap();
        assert_eq!(files.upload(&small, chunks(&[3, 4, 5]), 100).await.unwrap(), 12);
        assert_eq!(files.read(&small, 100).await.unwrap().unwrap().len(), 12);
        let big = Key::new("t/big.bin").unwrap();
        let sizes = [PART_BYTES - 1, 2, PART_BYTES, 1000];
        let total: usize = sizes.iter().sum();
        assert_eq!(files.upload(&big, chunks(&sizes), total as u64).await.unwrap(), total as u64);
        let d = files.download(&big).await.unwrap().unwrap();
        assert_eq!(d.size, total as u64);
        let read: Vec<Bytes> = d.stream.try_collect().await.unwrap();
        let read: Vec<u8> = read.concat();
        assert_eq!(read.len(), total);
        assert_eq!(read[PART_BYTES - 1], 1, "parts keep their order");
        assert_eq!(*read.last().unwrap(), 3);

        // Over the limit, or broken off: nothing is kept, in one write or in parts.
        for (name, sizes) in [("t/over-small", vec![60, 50]), ("t/over-big", vec![PART_BYTES, PART_BYTES])] {
            let k = Key::new(name).unwrap();
            let max = sizes.iter().sum::<usize>() as u64 - 1;
            assert!(matches!(files.upload(&k, chunks(&sizes), max).await, Err(FileError::TooLarge(_))));
            assert!(!files.exists(&k).await.unwrap(), "{name}");
        }
        let k = Key::new("t/broken").unwrap();
        let broken = futures::stream::iter(vec![
            Ok(Bytes::from(vec![0u8; PART_BYTES + 1])),
            Err(std::io::Error::other("connection reset")),
        ]);
        assert!(matches!(files.upload(&k, broken, u64::MAX).await, Err(FileError::Body(_))));
        assert!(!files.exists(&k).await.unwrap());

        files.delete(&key).await.unwrap();
        files.delete(&key).await.unwrap();
        assert!(files.download(&key).await.unwrap().is_none());

        // Purging removes only what is old enough, under the prefix.
        let up = Key::upload(1);
        files.put(&up, Bytes::from_static(b"x")).await.unwrap();
        assert_eq!(files.purge("uploads", Duration::from_secs(3600)).await.unwrap(), 0);
        assert!(files.exists(&up).await.unwrap());
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(files.list("uploads").await.unwrap(), vec![up.to_string()]);
        assert_eq!(files.purge("uploads", Duration::from_millis(1)).await.unwrap(), 1);
        assert!(files.list("uploads").await.unwrap().is_empty());
        assert!(!files.exists(&up).await.unwrap());
        assert!(files.exists(&small).await.unwrap());
    }

    #[cfg(unix)]
    #[test]
    fn folders_and_files_made_here_are_private() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let nested = dir.path().join("a/b");
        private_dir(&nested).unwrap();
        assert_eq!(std::fs::metadata(&nested).unwrap().permissions().mode() & 0o777, 0o700);
        let f = nested.join("x.db");
        private_file(&f).unwrap();
        assert_eq!(std::fs::metadata(&f).unwrap().permissions().mode() & 0o777, 0o600);
    }

    #[tokio::test]
    async fn local_files() {
        let dir = tempfile::tempdir().unwrap();
        let files = Files::open(&FilesConfig::default(), dir.path()).unwrap();
        assert_eq!(files.local_root(), Some(dir.path().join("files").as_path()));
        round_trip(files).await;
    }

    #[tokio::test]
    async fn memory_files() {
        round_trip(Files::memory()).await;
    }

    /// Against an S3-compatible server when `TEST_S3_URL` is set (the test script starts
    /// one on loopback).
    #[tokio::test]
    async fn s3_files() {
        let Some((cfg, _bucket)) = crate::testing::s3_bucket().await else { return };
        let files = Files::open(&cfg, Path::new("/nonexistent")).unwrap();
        assert!(files.local_root().is_none());
        assert!(!format!("{files:?}").contains("testing-secret"));
        round_trip(files).await;
    }

    #[test]
    fn unknown_schemes_are_refused() {
        let cfg = FilesConfig { url: Some("ftp://x".into()), ..Default::default() };
        assert!(Files::open(&cfg, Path::new(".")).unwrap_err().to_string().contains("s3://"));
    }
}
