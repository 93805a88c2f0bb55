//! The admin app: files from the built `frontend/dist`, with every other path answered by
//! its `index.html` so client routes work on reload. Hashed assets under `/assets/` are
//! cached for a year; the shell, the manifest and the service worker are always revalidated.

use std::path::Path;

use axum::http::{header, HeaderValue};
use axum::Router;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

/// The app as a router to use as the HTTP fallback, or `None` when `dir` holds no built app.
pub fn router(dir: &Path) -> Option<Router> {
    let index = dir.join("index.html");
    if !index.is_file() {
        return None;
    }
    let assets = tower::ServiceBuilder::new()
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        ))
        .service(ServeDir::new(dir.join("assets")));
    let shell = Router::new()
        .fallback_service(ServeDir::new(dir).fallback(ServeFile::new(index)))
        .layer(SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static("no-cache")));
    Some(Router::new().nest_service("/assets", assets).merge(shell))
}
