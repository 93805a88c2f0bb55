//! Types generated from `proto/backoffice`: gRPC services and event messages.

/// `backoffice.common.v1`: messages every service shares (paging).
pub mod common {
    pub mod v1 {
        tonic::include_proto!("backoffice.common.v1");
    }
}

/// `backoffice.stores.v1`
pub mod stores {
    pub mod v1 {
        tonic::include_proto!("backoffice.stores.v1");
        pub use crate::common::v1::{PageInfo, PageRequest};
    }
}

/// `backoffice.events.v1`
pub mod events {
    pub mod v1 {
        tonic::include_proto!("backoffice.events.v1");
    }
}

/// `backoffice.wms.v1`
pub mod wms {
    pub mod v1 {
        tonic::include_proto!("backoffice.wms.v1");
        pub use crate::common::v1::{PageInfo, PageRequest};
    }
}

/// `backoffice.products.v1`
pub mod products {
    pub mod v1 {
        tonic::include_proto!("backoffice.products.v1");
        pub use crate::common::v1::{PageInfo, PageRequest};
    }
}
