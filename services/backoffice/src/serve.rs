//! The HTTP listener, with the time limits a public server needs so slow clients cannot hold
//! connections: request headers must arrive within `header_timeout` (also the longest an
//! idle keep-alive connection waits for its next request), and each request must be
//! answered within `request_timeout`, body included. HTTP/2 connections are pinged and
//! dropped when they stop answering. On shutdown the listener stops accepting and open
//! connections finish their requests.

use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use serde::{Deserialize, Serialize};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt as _;

/// The listener's time limits (`http.timeouts.*`).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Timeouts {
    /// Seconds for a request's headers to arrive, and for an idle connection to send its
    /// next request.
    pub header_secs: u64,
    /// Seconds to answer a request, body included (uploads of many photos take the longest).
    pub request_secs: u64,
}

impl Default for Timeouts {
    fn default() -> Self {
        Self { header_secs: 15, request_secs: 300 }
    }
}

/// Serves `app` on `listener` until `stop`, then lets open requests finish (at most 20 s).
pub async fn serve(listener: TcpListener, app: Router, timeouts: Timeouts, stop: CancellationToken) {
    let app = app.layer(tower_http::timeout::TimeoutLayer::with_status_code(
        axum::http::StatusCode::REQUEST_TIMEOUT,
        Duration::from_secs(timeouts.request_secs.max(1)),
    ));
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(timeouts.header_secs.max(1)))
        .keep_alive(true);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Duration::from_secs(30))
        .keep_alive_timeout(Duration::from_secs(timeouts.header_secs.max(1)));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors and the like: wait a moment rather than spin.
                    tracing::warn!(error = %e, "could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = stop.cancelled() => break,
        };
        let _ = stream.set_nodelay(true);
        let svc = app.clone().map_request(move |mut req: axum::http::Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            req.map(axum::body::Body::new)
        });
        let conn = builder.serve_connection_with_upgrades(TokioIo::new(stream), TowerToHyperService::new(svc));
        let conn = graceful.watch(conn.into_owned());
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                tracing::debug!(error = %e, peer = %peer, "connection ended");
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(Duration::from_secs(20), graceful.shutdown()).await.is_err() {
        tracing::warn!("open connections did not finish within 20 s");
    }
}
