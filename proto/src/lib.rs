//! Types generated from `proto/backoffice`: gRPC services and event messages, with the two
//! facts the rest of the code needs about them: which module serves each client
//! ([`ServiceName`]) and which type string each event carries ([`Event`]). Both are
//! declared once, here, beside the generated code.

/// The module a generated client talks to.
pub trait ServiceName {
    /// The module's target name.
    const MODULE: &'static str;
}

/// An event: a protobuf message with its type, `<svc>.<aggregate>.<event>`. Its subject is
/// `<prefix>.<type>.v1`.
pub trait Event: prost::Message + Default + 'static {
    /// The event's type, e.g. `stores.store.created`.
    const TYPE: &'static str;
}

/// A proto enum whose values travel as lower-case words on the REST API, in events' readers
/// and in storage: `ORDER_STATE_READY_TO_FULFILLMENT` is `ready_to_fulfillment`, the zero
/// value (`…_UNSPECIFIED`) is the empty word. build.rs writes `VALUES` for every enum from
/// the protos, so a state is declared once, in its proto.
pub trait Wire: Sized + Copy + Into<i32> + TryFrom<i32> {
    /// The number and word of every value but the zero one, in declaration order.
    const VALUES: &'static [(i32, &'static str)];

    /// This value's word (empty for the zero value).
    fn wire(self) -> &'static str {
        Self::word_of(self.into())
    }

    /// The word of a field's number (empty for zero or a number this build does not know).
    fn word_of(number: i32) -> &'static str {
        Self::VALUES.iter().find(|(v, _)| *v == number).map_or("", |(_, w)| w)
    }

    /// The value of `word`, if it is one.
    fn from_wire(word: &str) -> Option<Self> {
        Self::VALUES.iter().find(|(_, w)| *w == word).and_then(|(n, _)| Self::try_from(*n).ok())
    }

    /// The field number of `word` (0, unspecified, when it is none of the values).
    fn number(word: &str) -> i32 {
        Self::VALUES.iter().find(|(_, w)| *w == word).map_or(0, |(n, _)| *n)
    }

    /// Every word, in declaration order.
    fn words() -> impl Iterator<Item = &'static str> {
        Self::VALUES.iter().map(|(_, w)| *w)
    }
}

include!(concat!(env!("OUT_DIR"), "/wire.rs"));

// One module per proto package (`stores::v1`, `events::v1`, …), written by build.rs from
// the packages it compiles.
include!(concat!(env!("OUT_DIR"), "/packages.rs"));

macro_rules! services {
    ($($client:path => $module:literal),* $(,)?) => {
        $(impl<T> ServiceName for $client { const MODULE: &'static str = $module; })*
    };
}

macro_rules! events {
    ($($event:path => $type:literal),* $(,)?) => {
        $(impl Event for $event { const TYPE: &'static str = $type; })*
        /// Every event type, for tests and tools.
        pub const EVENT_TYPES: &[&str] = &[$($type),*];
    };
}

services! {
    stores::v1::stores_service_client::StoresServiceClient<T> => "stores",
    wms::v1::wms_service_client::WmsServiceClient<T> => "wms",
    products::v1::products_service_client::ProductsServiceClient<T> => "products",
    payments::v1::payments_service_client::PaymentsServiceClient<T> => "payments",
    logistics::v1::logistics_service_client::LogisticsServiceClient<T> => "logistics",
    orders::v1::orders_service_client::OrdersServiceClient<T> => "orders",
    reports::v1::reports_service_client::ReportsServiceClient<T> => "reports",
    marketplaces::v1::marketplaces_service_client::MarketplacesServiceClient<T> => "marketplaces",
}

events! {
    events::v1::StoreCreated => "stores.store.created",
    events::v1::CustomerCreated => "stores.customer.created",
    events::v1::CustomerUpdated => "stores.customer.updated",
    events::v1::CustomerDeleted => "stores.customer.deleted",
    events::v1::SafetyStockSet => "stores.safety_stock.set",
    events::v1::StockMoved => "wms.stock.moved",
    events::v1::StockAvailable => "wms.stock.available",
    events::v1::WarehouseCreated => "wms.warehouse.created",
    events::v1::WarehouseUpdated => "wms.warehouse.updated",
    events::v1::GoodsReceiptApproved => "wms.goods_receipt.approved",
    events::v1::FeesCharged => "wms.fees.charged",
    events::v1::ProductSaved => "products.product.saved",
    events::v1::ProductsDeleted => "products.product.deleted",
    events::v1::PaymentChannelSaved => "payments.store_channel.saved",
    events::v1::LogisticChannelSaved => "logistics.store_channel.saved",
    events::v1::BillOpened => "orders.bill.opened",
    events::v1::BillClosed => "orders.bill.closed",
    events::v1::OrderPlaced => "orders.order.placed",
    events::v1::OrderStateChanged => "orders.order.state_changed",
    events::v1::OrderRevised => "orders.order.revised",
    events::v1::OrderPaid => "orders.order.paid",
    events::v1::StockSyncChanged => "marketplaces.stock_sync.changed",
    events::v1::ExportChanged => "reports.export.changed",
}

/// Debug for the messages that carry a password, which is never shown (build.rs skips
/// their generated Debug).
mod redacted {
    use std::fmt;

    use crate::stores::v1::{AuthenticateRequest, CreateOwnerRequest, RegisterRequest};

    impl fmt::Debug for AuthenticateRequest {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.debug_struct("AuthenticateRequest")
                .field("email", &self.email)
                .field("password", &"<redacted>")
                .field("known_device", &self.known_device)
                .finish()
        }
    }

    impl fmt::Debug for CreateOwnerRequest {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.debug_struct("CreateOwnerRequest")
                .field("email", &self.email)
                .field("password", &"<redacted>")
                .field("first_name", &self.first_name)
                .field("last_name", &self.last_name)
                .field("store_name", &self.store_name)
                .field("only_if_first", &self.only_if_first)
                .finish()
        }
    }

    impl fmt::Debug for RegisterRequest {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.debug_struct("RegisterRequest")
                .field("invitation_key", &"<redacted>")
                .field("email", &self.email)
                .field("password", &"<redacted>")
                .field("first_name", &self.first_name)
                .field("last_name", &self.last_name)
                .finish()
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn passwords_never_print() {
            let a =
                AuthenticateRequest { email: "a@b.c".into(), password: "hunter2-secret".into(), known_device: false };
            let b = CreateOwnerRequest { password: "hunter2-secret".into(), ..Default::default() };
            let c = RegisterRequest {
                password: "hunter2-secret".into(),
                invitation_key: "hunter2-key".into(),
                ..Default::default()
            };
            assert!(!format!("{a:?}{b:?}{c:?}").contains("hunter2"));
            assert!(format!("{a:?}").contains("a@b.c"));
        }
    }
}
