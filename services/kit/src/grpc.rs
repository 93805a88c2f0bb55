//! gRPC wiring. A [`GrpcChannel`] is one type for a remote connection and for an
//! in-process tonic server, so callers never know which mode they run in. Trace context
//! rides in the headers both ways; the store and acting user ride in metadata
//! ([`CallCtx`]), set by the gateway from the verified token.

use std::convert::Infallible;
use std::task::{Context, Poll};
use std::time::Duration;

use tonic::body::Body;
use tonic::{Request, Status};
use tower::util::BoxCloneSyncService;
use tower::{Service, ServiceExt as _};
use tracing::instrument::Instrumented;
use tracing::Instrument as _;

/// Any error a channel can give.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A channel's error. A concrete type rather than a boxed trait object, so futures that
/// call through a channel stay `Send` in async handlers; the cause stays reachable through
/// `source()`, where tonic looks for transport failures.
#[derive(Debug)]
pub struct ChannelError(pub BoxError);

impl std::fmt::Display for ChannelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "gRPC channel: {}", self.0)
    }
}

impl std::error::Error for ChannelError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.0.as_ref())
    }
}

/// A gRPC channel: remote or in-process.
pub type GrpcChannel = BoxCloneSyncService<http::Request<Body>, http::Response<Body>, ChannelError>;

/// A channel that calls `server` (e.g. `FooServiceServer::new(impl)`) in this process.
pub fn in_process<S>(server: S) -> GrpcChannel
where
    S: Service<http::Request<Body>, Response = http::Response<Body>, Error = Infallible>
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    let svc = ServerTrace(server).map_err(|e: Infallible| -> ChannelError { match e {} }).map_request(client_request);
    BoxCloneSyncService::new(svc)
}

/// A lazily connecting channel to `addr` (`http://host:port`).
pub fn remote(addr: &str) -> anyhow::Result<GrpcChannel> {
    let channel = tonic::transport::Endpoint::from_shared(addr.to_string())?
        .connect_timeout(Duration::from_secs(5))
        .timeout(Duration::from_secs(30))
        .tcp_nodelay(true)
        .connect_lazy();
    let svc = channel.map_err(|e| ChannelError(Box::new(e))).map_request(client_request);
    Ok(BoxCloneSyncService::new(svc))
}

fn client_request(mut req: http::Request<Body>) -> http::Request<Body> {
    crate::telemetry::inject_http(req.headers_mut());
    req
}

/// Serves `routes` on `listener` until `cancel`, then drains.
pub async fn serve(
    routes: tonic::service::Routes,
    listener: tokio::net::TcpListener,
    cancel: tokio_util::sync::CancellationToken,
) -> anyhow::Result<()> {
    let incoming = tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true));
    tonic::transport::Server::builder()
        .layer(tower::layer::layer_fn(ServerTrace))
        .add_routes(routes)
        .serve_with_incoming_shutdown(incoming, cancel.cancelled_owned())
        .await?;
    Ok(())
}

/// Wraps a server so each call runs in a span that continues the caller's trace.
#[derive(Clone)]
pub struct ServerTrace<S>(pub S);

impl<S, B> Service<http::Request<B>> for ServerTrace<S>
where
    S: Service<http::Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Instrumented<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<B>) -> Self::Future {
        let span = tracing::info_span!("grpc", rpc = %req.uri().path());
        crate::telemetry::set_parent_from_http(&span, req.headers());
        self.0.call(req).instrument(span)
    }
}

/// Metadata key of the store a call acts in.
pub const STORE_KEY: &str = "bo-store-id";
/// Metadata key of the acting user.
pub const USER_KEY: &str = "bo-user-id";

/// Who calls, and for which store: set by the gateway from the verified token, never from
/// a request body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CallCtx {
    /// The store (0 when the call is not store-scoped).
    pub store_id: i64,
    /// The acting user (0 for the system).
    pub user_id: i64,
}

impl CallCtx {
    /// A store-scoped context.
    pub fn new(store_id: i64, user_id: i64) -> Self {
        Self { store_id, user_id }
    }

    /// The system's context, for background work and start-up (no store, no user).
    pub fn system() -> Self {
        Self::default()
    }

    /// The context of acting in `store_id` as `user_id` on the system's behalf (seeding,
    /// consumers).
    pub fn acting(&self, store_id: i64, user_id: i64) -> Self {
        Self { store_id, user_id }
    }

    /// A request carrying this context.
    pub fn request<T>(&self, msg: T) -> Request<T> {
        let mut req = Request::new(msg);
        let md = req.metadata_mut();
        if self.store_id > 0 {
            md.insert(STORE_KEY, self.store_id.into());
        }
        if self.user_id > 0 {
            md.insert(USER_KEY, self.user_id.into());
        }
        req
    }

    /// The context of an incoming call (zeros where absent).
    pub fn of<T>(req: &Request<T>) -> CallCtx {
        let get =
            |k: &str| req.metadata().get(k).and_then(|v| v.to_str().ok()).and_then(|s| s.parse().ok()).unwrap_or(0);
        CallCtx { store_id: get(STORE_KEY), user_id: get(USER_KEY) }
    }

    /// The context of an incoming store-scoped call; refused without a store.
    pub fn store_scoped<T>(req: &Request<T>) -> Result<CallCtx, Status> {
        let ctx = Self::of(req);
        if ctx.store_id <= 0 {
            return Err(crate::Error::permission_denied("store_required").into());
        }
        Ok(ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_rides_in_metadata() {
        let req = CallCtx::new(7, 3).request(());
        assert_eq!(CallCtx::of(&req), CallCtx::new(7, 3));
        assert_eq!(CallCtx::store_scoped(&req).unwrap().store_id, 7);
        let bare = Request::new(());
        assert!(CallCtx::store_scoped(&bare).is_err());
    }
}
