//! gRPC wiring. A [`GrpcChannel`] is one type for a remote connection and for an
//! in-process tonic server, so callers never know which mode they run in. Trace context
//! rides in the headers both ways. Every call carries a token in `authorization` (the
//! user's, forwarded by the gateway, or a short-lived service token), and every server,
//! remote or in-process, checks it with the shared key before any handler runs
//! ([`Verify`]): the store, the acting user and the permissions come from the verified
//! token, never from bare metadata.

use crate::Code;
use std::convert::Infallible;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tonic::body::Body;
use tonic::{Request, Status};

use crate::auth::{Keys, AUD_CALL, AUD_SERVICE};
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

/// A channel that calls `server` (e.g. `FooServiceServer::new(impl)`) in this process,
/// checking each call's token with `keys` as a remote server would.
pub fn in_process<S>(server: S, keys: Arc<Keys>) -> GrpcChannel
where
    S: Service<http::Request<Body>, Response = http::Response<Body>, Error = Infallible>
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    let svc = ServerTrace(Verify { inner: server, keys })
        .map_err(|e: Infallible| -> ChannelError { match e {} })
        .map_request(client_request);
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

/// Serves `routes` on `listener` until `cancel`, then drains. Every call's token is checked
/// with `keys`.
pub async fn serve(
    routes: tonic::service::Routes,
    listener: tokio::net::TcpListener,
    cancel: tokio_util::sync::CancellationToken,
    keys: Arc<Keys>,
) -> anyhow::Result<()> {
    let incoming = tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true));
    tonic::transport::Server::builder()
        .layer(tower::layer::layer_fn(ServerTrace))
        .layer(tower::layer::layer_fn(move |inner| Verify { inner, keys: keys.clone() }))
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

/// Checks the token of every call before the service sees it, and puts the verified
/// [`Caller`] in the request's extensions. A call with no token, a bad signature or an
/// expired token is refused with `Unauthenticated`; a `Caller` set by the client is never
/// trusted.
#[derive(Clone)]
pub struct Verify<S> {
    inner: S,
    keys: Arc<Keys>,
}

impl<S, B> Service<http::Request<B>> for Verify<S>
where
    S: Service<http::Request<B>, Response = http::Response<Body>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    B: Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = S::Error;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: http::Request<B>) -> Self::Future {
        req.extensions_mut().remove::<Caller>();
        let token = req
            .headers()
            .get(http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(crate::auth::bearer)
            .map(str::to_string);
        let caller = match token {
            Some(t) => Caller::verify(&self.keys, &t),
            None => Err(Status::unauthenticated("unauthenticated")),
        };
        match caller {
            Ok(c) => {
                req.extensions_mut().insert(c);
                // The service that was polled ready is the one that is called.
                let clone = self.inner.clone();
                let mut inner = std::mem::replace(&mut self.inner, clone);
                Box::pin(inner.call(req))
            }
            Err(status) => {
                let mut status = status;
                status.metadata_mut().insert(crate::error::ERROR_CODE_KEY, "unauthenticated".parse().expect("ascii"));
                Box::pin(async move { Ok(status.into_http()) })
            }
        }
    }
}

/// Who calls, as the verified token says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// The store (0 when the token names none).
    pub store_id: i64,
    /// The acting user (0 for the system).
    pub user_id: i64,
    /// owner, admin, cashier, or `service`.
    pub permission: String,
    /// The role's permission keys.
    pub perms: Vec<String>,
    /// The token's audience: user, store or service.
    pub audience: String,
    /// The token itself, forwarded on calls made on the caller's behalf.
    pub token: Arc<str>,
}

impl Caller {
    fn verify(keys: &Keys, token: &str) -> Result<Caller, Status> {
        let c = keys.verify(token, &[AUD_CALL, AUD_SERVICE]).map_err(|e| Status::unauthenticated(e.code.as_str()))?;
        let user_id = c.sub.parse().map_err(|_| Status::unauthenticated("unauthenticated"))?;
        Ok(Caller {
            store_id: c.store.unwrap_or(0),
            user_id,
            permission: c.perm.unwrap_or_default(),
            perms: c.perms,
            audience: c.aud,
            token: Arc::from(token),
        })
    }
}

/// The user a user-level call may act for: a user's or store's token acts only for its own
/// user; a service (or a direct call in the same code) for the one it names.
pub fn user_for<T>(req: &Request<T>, named: i64) -> Result<i64, Status> {
    match req.extensions().get::<Caller>() {
        Some(c) if c.audience == AUD_CALL => {
            if c.user_id == named {
                Ok(named)
            } else {
                Err(crate::Error::permission_denied(Code::Forbidden).into())
            }
        }
        Some(_) => Ok(named),
        None => Err(Status::unauthenticated("unauthenticated")),
    }
}

/// Whether the caller holds the permission `key`: an owner, a service, or a role whose keys
/// cover it (a direct call of the implementation in the same code holds every one). For the
/// rules a service keeps itself that depend on a right the gateway did not check, such as
/// who may take a payment to paid by another path than confirming.
pub fn caller_holds<T>(req: &Request<T>, key: &str) -> bool {
    match req.extensions().get::<Caller>() {
        Some(c) if c.audience == AUD_SERVICE || c.audience.is_empty() => true,
        Some(c) => c.permission == "owner" || crate::perms::holds(&c.perms, key),
        None => true,
    }
}

/// Refuses a call that is not a service's own (admin RPCs across stores, such as
/// `CheckInvariants`): a user's or a store's token is refused, whatever its rights.
pub fn service_only<T>(req: &Request<T>) -> Result<(), Status> {
    match req.extensions().get::<Caller>() {
        // A service token, or a direct call of the implementation in the same code.
        Some(c) if c.audience == AUD_SERVICE || c.audience.is_empty() => Ok(()),
        Some(_) => Err(crate::Error::permission_denied(Code::Forbidden).into()),
        None => Err(Status::unauthenticated("unauthenticated")),
    }
}

/// Who acts, where: the store and the user (0 for the system). What storage records as the
/// author of a change; [`CallCtx::actor`] gives it for an incoming call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Actor {
    /// The store.
    pub store_id: i64,
    /// The user (0 for the system).
    pub user_id: i64,
}

impl Actor {
    /// The system acting in `store_id` (a schedule, a consumer).
    pub fn system(store_id: i64) -> Self {
        Self { store_id, user_id: 0 }
    }

    /// The actor of a store-scoped call (refused without a store).
    pub fn of<T>(req: &Request<T>) -> Result<Self, Status> {
        Ok(CallCtx::store_scoped(req)?.actor())
    }
}

/// Who calls, and for which store: built by the gateway from the verified token it
/// forwards, or by a module acting on its own behalf ([`ServiceIdentity`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CallCtx {
    /// The store (0 when the call is not store-scoped).
    pub store_id: i64,
    /// The acting user (0 for the system).
    pub user_id: i64,
    token: Option<Arc<str>>,
}

impl CallCtx {
    /// A context without a token: only for calling a service's implementation directly in
    /// the same code (tests, admin commands); a channel refuses it.
    pub fn new(store_id: i64, user_id: i64) -> Self {
        Self { store_id, user_id, token: None }
    }

    /// A context carrying `token` (already verified by the caller).
    pub fn with_token(store_id: i64, user_id: i64, token: impl Into<Arc<str>>) -> Self {
        Self { store_id, user_id, token: Some(token.into()) }
    }

    /// A request carrying this context: the token in `authorization` for channels, and the
    /// caller itself for direct calls of an implementation.
    pub fn request<T>(&self, msg: T) -> Request<T> {
        let mut req = Request::new(msg);
        if let Some(t) = &self.token {
            if let Ok(v) = format!("Bearer {t}").parse() {
                req.metadata_mut().insert("authorization", v);
            }
        }
        req.extensions_mut().insert(Caller {
            store_id: self.store_id,
            user_id: self.user_id,
            permission: String::new(),
            perms: Vec::new(),
            audience: String::new(),
            token: self.token.clone().unwrap_or_else(|| Arc::from("")),
        });
        req
    }

    /// Who acts in this call.
    pub fn actor(&self) -> Actor {
        Actor { store_id: self.store_id, user_id: self.user_id }
    }

    /// The context of an incoming call, from its verified caller (zeros without one).
    pub fn of<T>(req: &Request<T>) -> CallCtx {
        match req.extensions().get::<Caller>() {
            Some(c) => CallCtx {
                store_id: c.store_id,
                user_id: c.user_id,
                token: (!c.token.is_empty()).then(|| c.token.clone()),
            },
            None => CallCtx::default(),
        }
    }

    /// The context of an incoming store-scoped call; refused without a store.
    pub fn store_scoped<T>(req: &Request<T>) -> Result<CallCtx, Status> {
        let ctx = Self::of(req);
        if ctx.store_id <= 0 {
            return Err(crate::Error::permission_denied(Code::StoreRequired).into());
        }
        Ok(ctx)
    }
}

/// A module acting on its own behalf (start-up, consumers, schedulers): it signs
/// short-lived service tokens with the shared key.
#[derive(Clone)]
pub struct ServiceIdentity {
    keys: Arc<Keys>,
    module: &'static str,
}

impl ServiceIdentity {
    /// The identity of `module`.
    pub fn new(keys: Arc<Keys>, module: &'static str) -> Self {
        Self { keys, module }
    }

    /// Acting for no store and no user.
    pub fn system(&self) -> CallCtx {
        self.acting(0, 0)
    }

    /// Acting in `store_id` on behalf of `user_id`.
    pub fn acting(&self, store_id: i64, user_id: i64) -> CallCtx {
        match self.keys.service_token(self.module, store_id, user_id) {
            Ok(t) => CallCtx::with_token(store_id, user_id, t),
            Err(e) => {
                tracing::error!(error = %e, "could not sign a service token");
                CallCtx::new(store_id, user_id)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direct_calls_carry_their_context() {
        let req = CallCtx::new(7, 3).request(());
        assert_eq!(CallCtx::of(&req), CallCtx::new(7, 3));
        assert_eq!(CallCtx::store_scoped(&req).unwrap().store_id, 7);
        let bare = Request::new(());
        assert!(CallCtx::store_scoped(&bare).is_err());
    }

    #[test]
    fn a_callers_rights_are_its_tokens() {
        let with = |audience: &str, permission: &str, perms: &[&str]| {
            let mut req = Request::new(());
            req.extensions_mut().insert(Caller {
                store_id: 1,
                user_id: 2,
                permission: permission.into(),
                perms: perms.iter().map(|p| p.to_string()).collect(),
                audience: audience.into(),
                token: Arc::from("t"),
            });
            req
        };
        let approve = crate::perms::keys::PAYMENT_PAYMENT_APPROVE;
        assert!(caller_holds(&with(AUD_CALL, "owner", &[]), approve), "the owner holds every right");
        assert!(caller_holds(&with(AUD_CALL, "admin", &["payment.*"]), approve), "a grant that covers it");
        assert!(!caller_holds(&with(AUD_CALL, "admin", &["payment.payment.delete"]), approve));
        assert!(!caller_holds(&with(AUD_CALL, "", &[]), approve), "a user's call holds no store right");
        assert!(caller_holds(&with(AUD_SERVICE, "service", &[]), approve), "a service acts for the system");
    }
}
