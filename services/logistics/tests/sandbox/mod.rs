//! Stand-ins for the carriers' services, on 127.0.0.1 with a port of their own. They check
//! keys, tokens and signatures the way the real services do, keep what they are given, and
//! answer in the real services' shapes, their refusals included: the adapters are tested
//! against them over real HTTP, never against a mock of our own code.

#![allow(dead_code)]

pub mod flash;
pub mod thaipost;

use std::time::Duration;

use axum::response::{IntoResponse, Response};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// A server running until dropped.
pub struct Server {
    /// `http://127.0.0.1:<port>`.
    pub base_url: String,
    task: JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Serves `app` on a port of its own.
pub async fn serve(app: axum::Router) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind a port");
    let base_url = format!("http://{}", listener.local_addr().expect("its address"));
    let task = tokio::spawn(async move {
        axum::serve(listener, app).await.expect("serve");
    });
    Server { base_url, task }
}

/// The base URL of a port nothing listens on.
pub fn closed_port() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a port");
    let addr = listener.local_addr().expect("its address");
    drop(listener);
    format!("http://{addr}")
}

/// A server that takes connections and never answers (a carrier that hangs).
pub async fn silent() -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind a port");
    let base_url = format!("http://{}", listener.local_addr().expect("its address"));
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    Server { base_url, task }
}

/// What a load balancer in front of a carrier answers while the carrier is down.
pub fn outage() -> Response {
    (
        axum::http::StatusCode::SERVICE_UNAVAILABLE,
        [(axum::http::header::CONTENT_TYPE, "text/html")],
        "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>",
    )
        .into_response()
}

/// An HTTP client for the adapters, with `timeout`.
pub fn client(timeout: Duration) -> reqwest::Client {
    bo_logistics::carriers::http_client(&bo_logistics::carriers::CarrierConfig {
        timeout_ms: timeout.as_millis() as u64,
        ..Default::default()
    })
    .expect("an HTTP client")
}

/// Now, in unix seconds.
pub fn now_s() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}
