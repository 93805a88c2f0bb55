//! The invariants of the running services, composed from each one's `CheckInvariants`:
//! the ledger's own (stock rows, lots, reservations and movements agree, in wms), and those
//! across orders and wms and of the orders' money (reserved units belong to open orders, an
//! open order holds exactly its lines unless it is flagged short; bills add up to their
//! order's total, one live payment per bill, payment states follow the payments).
//! `backoffice admin check-stock` runs them, and so does every API test after it acts. The
//! reports' check (their daily figures equal what the orders add up to; `backoffice admin
//! reports check`) runs after every API test too.

use bo_kit::grpc::ServiceIdentity;
use bo_kit::module::Clients;
use bo_proto::orders::v1 as opb;
use bo_proto::orders::v1::orders_service_client::OrdersServiceClient;
use bo_proto::reports::v1 as rpb;
use bo_proto::reports::v1::reports_service_client::ReportsServiceClient;
use bo_proto::wms::v1 as wpb;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;

/// How long an order may be settling with wms before the check names it, ms.
pub const SETTLING_GRACE_MS: i64 = 60_000;

/// The modules whose invariants are checked.
pub const CHECKED: [&str; 2] = ["wms", "orders"];

/// The module whose figures `reports` checks (it calls orders for the source).
pub const REPORTS: [&str; 1] = ["reports"];

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

/// Where the reports' daily figures differ from what the orders add up to, store by store and
/// day by day (`backoffice admin reports check`).
pub async fn reports(clients: &Clients, identity: &ServiceIdentity) -> anyhow::Result<rpb::CheckFiguresResponse> {
    let mut reports = clients.client(ReportsServiceClient::new)?;
    Ok(reports.check_figures(identity.system().request(rpb::CheckFiguresRequest {})).await?.into_inner())
}

/// Builds the reports' figures afresh from the orders, while events go on being counted
/// (`backoffice admin reports rebuild`); answers how many orders and fee charges were counted.
pub async fn rebuild_reports(
    clients: &Clients,
    identity: &ServiceIdentity,
) -> anyhow::Result<rpb::RebuildFiguresResponse> {
    let mut reports = clients.client(ReportsServiceClient::new)?;
    Ok(reports.rebuild_figures(identity.system().request(rpb::RebuildFiguresRequest {})).await?.into_inner())
}
