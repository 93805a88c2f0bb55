//! What every handler shares.

use std::ops::Deref;
use std::sync::Arc;

use bo_kit::grpc::GrpcChannel;
use bo_proto::products::v1::products_service_client::ProductsServiceClient;
use bo_proto::stores::v1::stores_service_client::StoresServiceClient;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;

use crate::auth::{Keys, LoginLimiter, SessionCache};

/// The gateway's state.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

/// The state's parts.
pub struct Inner {
    /// The stores service (remote or in-process).
    pub stores_channel: GrpcChannel,
    /// The warehouse service (remote or in-process).
    pub wms_channel: GrpcChannel,
    /// The products service (remote or in-process).
    pub products_channel: GrpcChannel,
    /// Token keys.
    pub keys: Keys,
    /// Open sessions seen lately.
    pub sessions: SessionCache,
    /// Sign-in attempts per address.
    pub limiter: LoginLimiter,
    /// Under maintenance.
    pub maintenance: bool,
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
    /// A stores client.
    pub fn stores(&self) -> StoresServiceClient<GrpcChannel> {
        StoresServiceClient::new(self.stores_channel.clone())
    }

    /// A products client.
    pub fn products(&self) -> ProductsServiceClient<GrpcChannel> {
        ProductsServiceClient::new(self.products_channel.clone())
    }

    /// A warehouse client.
    pub fn wms(&self) -> WmsServiceClient<GrpcChannel> {
        WmsServiceClient::new(self.wms_channel.clone())
    }
}
