//! What every handler shares.

use bo_kit::Code;
use std::ops::Deref;
use std::sync::Arc;

use bo_kit::grpc::GrpcChannel;
use bo_kit::module::Clients;
use bo_proto::logistics::v1::logistics_service_client::LogisticsServiceClient;
use bo_proto::orders::v1::orders_service_client::OrdersServiceClient;
use bo_proto::payments::v1::payments_service_client::PaymentsServiceClient;
use bo_proto::products::v1::products_service_client::ProductsServiceClient;
use bo_proto::stores::v1::stores_service_client::StoresServiceClient;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;

use crate::auth::{Keys, LoginLimiter, SessionCache};
use crate::error::ApiError;

/// The gateway's state.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

/// The state's parts.
pub struct Inner {
    /// Every service, in-process or remote.
    pub clients: Clients,
    /// Token keys.
    pub keys: Arc<Keys>,
    /// The gateway acting on its own behalf (sign-in, session checks, public images).
    pub identity: bo_kit::grpc::ServiceIdentity,
    /// Open sessions seen lately.
    pub sessions: SessionCache,
    /// Store tokens whose membership was current a moment ago.
    pub memberships: crate::auth::MembershipCache,
    /// Sign-in attempts per address.
    pub limiter: LoginLimiter,
    /// Slips sent on bills' pages, per address and per bill.
    pub slip_limiter: LoginLimiter,
    /// Unsigned marketplace pushes, per address.
    pub push_limiter: LoginLimiter,
    /// Under maintenance.
    pub maintenance: bool,
    /// File storage: uploads are staged here, downloads stream from here.
    pub files: bo_kit::files::Files,
    /// The largest body read whole (`http.body_limit`); upload routes stream instead.
    pub body_limit: usize,
    /// Proxies whose `X-Forwarded-For` names the client (`http.trusted_proxies`).
    pub trusted_proxies: Vec<crate::auth::IpNet>,
    /// The services' rules and catalogues, kept a minute.
    pub rules: crate::rules::Rules,
    /// The realtime sockets of this replica.
    pub realtime: std::sync::Arc<crate::realtime::Hub>,
    /// Open-API keys seen lately and their budgets.
    pub api_keys: crate::integrator::KeyGate,
}

impl AppState {
    /// Wraps the parts.
    pub fn new(inner: Inner) -> Self {
        Self(Arc::new(inner))
    }
}

impl Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl Inner {
    /// The gateway's own call context, for calls no user token covers.
    pub fn system(&self) -> bo_kit::grpc::CallCtx {
        self.identity.system()
    }

    /// The gateway acting for `user` in `store`, for a call no request token covers (a
    /// download link the gateway signed for them).
    pub fn acting(&self, store: i64, user: i64) -> bo_kit::grpc::CallCtx {
        self.identity.acting(store, user)
    }

    /// A typed client of any service: `state.client(OrdersServiceClient::new)`. A service
    /// that runs elsewhere without a configured address answers 503.
    pub fn client<C: bo_proto::ServiceName>(&self, make: fn(GrpcChannel) -> C) -> Result<C, ApiError> {
        self.clients.client(make).map_err(|e| {
            tracing::error!(service = C::MODULE, error = %format!("{e:#}"), "no channel to a service");
            ApiError::new(axum::http::StatusCode::SERVICE_UNAVAILABLE, Code::ServiceUnavailable)
        })
    }

    /// The stores service.
    pub fn stores(&self) -> StoresServiceClient<GrpcChannel> {
        self.expect(StoresServiceClient::new)
    }

    /// The products service.
    pub fn products(&self) -> ProductsServiceClient<GrpcChannel> {
        self.expect(ProductsServiceClient::new)
    }

    /// The warehouse service.
    pub fn wms(&self) -> WmsServiceClient<GrpcChannel> {
        self.expect(WmsServiceClient::new)
    }

    /// The payments service.
    pub fn payments(&self) -> PaymentsServiceClient<GrpcChannel> {
        self.expect(PaymentsServiceClient::new)
    }

    /// The logistics service.
    pub fn logistics(&self) -> LogisticsServiceClient<GrpcChannel> {
        self.expect(LogisticsServiceClient::new)
    }

    /// The orders service.
    pub fn orders(&self) -> OrdersServiceClient<GrpcChannel> {
        self.expect(OrdersServiceClient::new)
    }

    /// A client of a service the gateway was started with (its channel was checked then).
    fn expect<C: bo_proto::ServiceName>(&self, make: fn(GrpcChannel) -> C) -> C {
        self.clients.client(make).expect("the gateway checks its services' channels at start")
    }
}
