//! The invariants of the running services, composed from each one's `CheckInvariants`:
//! the ledger's own (stock rows, lots, reservations and movements agree, in wms), and those
//! across orders and wms and of the orders' money (reserved units belong to open orders, an
//! open order holds exactly its lines unless it is flagged short; bills add up to their
//! order's total, one live payment per bill, payment states follow the payments).
//! `backoffice admin check-stock` runs them, and so does every API test after it acts.

use bo_kit::grpc::ServiceIdentity;
use bo_kit::module::Clients;
use bo_proto::orders::v1 as opb;
use bo_proto::orders::v1::orders_service_client::OrdersServiceClient;
use bo_proto::wms::v1 as wpb;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;

/// How long an order may be settling with wms before the check names it, ms.
pub const SETTLING_GRACE_MS: i64 = 60_000;

/// The modules whose invariants are checked.
pub const CHECKED: [&str; 2] = ["wms", "orders"];

/// Sentences naming what breaks the invariants (empty when they hold).
pub async fn invariants(clients: &Clients, identity: &ServiceIdentity, grace_ms: i64) -> anyhow::Result<Vec<String>> {
    let ctx = identity.system();
    let mut wms = clients.client(WmsServiceClient::new)?;
    let mut broken = wms.check_invariants(ctx.request(wpb::CheckInvariantsRequest {})).await?.into_inner().problems;
    let mut orders = clients.client(OrdersServiceClient::new)?;
    let request = opb::CheckInvariantsRequest { grace_ms };
    broken.extend(orders.check_invariants(ctx.request(request)).await?.into_inner().problems);
    Ok(broken)
}
