//! Report exports (SPEC §3 report export record, §4 Report export, §7
//! `/orders/reports/produce-order-report`, `/orders/reports`, `/orders/reports/{id}/files/
//! {fid}/download`, `POST …/export-excel[/{x}]` of the order, sold-item, service-fee and
//! admin-performance summaries, `POST /reports/stock-movement` and the download-url fetch;
//! §8 no data for an export): a spreadsheet of a report built in the background by the
//! reports service, with its progress, kept for a week. Who may ask for one is who may read
//! the report: orders for the order export, the stock for the movements, the owner for the
//! dashboards' summaries; the history shows each member the exports they may read.

use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::Json;
use bo_kit::time::{ms_to_rfc3339, timestamp_to_rfc3339};
use bo_kit::Code;
use bo_proto::orders::v1 as opb;
use bo_proto::reports::v1 as pb;
use bo_proto::reports::v1::reports_service_client::ReportsServiceClient;
use bo_proto::Wire as _;
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::perms::Access;
use crate::routes::dashboards::OWNER;
use crate::routes::orders::{moment, READ};
use crate::routes::receipts::member_names;
use crate::state::AppState;
use crate::wire::{enum_field, enum_fields, page_request, word, words, Body, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(produce_order_report))
        .routes(routes!(order_reports))
        .routes(routes!(download_order_report))
        .routes(routes!(export_order_summaries))
        .routes(routes!(export_order_summaries_table))
        .routes(routes!(export_sold_item_summaries))
        .routes(routes!(export_sold_item_summaries_table))
        .routes(routes!(export_service_fee_summaries))
        .routes(routes!(export_service_fee_summaries_table))
        .routes(routes!(export_admin_performance_summaries))
        .routes(routes!(export_stock_movements))
        .routes(routes!(export_download_url))
        .routes(routes!(export_file))
}

/// Reading the stock (the movements report's right).
const STOCK_READ: Access = crate::routes::stock_reports::STOCK_READ;
/// Reading some report: the history and the downloads (which exports, the kinds decide).
const ANY_REPORT: Access =
    Access { roles: &["owner"], perms: &[crate::perms::keys::ORDER_ORDER_READ, crate::perms::keys::PRODUCT_SKU_READ] };

const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/// The kinds of export the caller may read, and so ask for and download.
pub(crate) fn readable(auth: &StoreAuth) -> Vec<pb::ExportKind> {
    let mut kinds = Vec::new();
    if auth.allows(READ) {
        kinds.push(pb::ExportKind::Orders);
    }
    if auth.allows(OWNER) {
        kinds.extend([
            pb::ExportKind::OrderSummary,
            pb::ExportKind::SoldItems,
            pb::ExportKind::ServiceFees,
            pb::ExportKind::AdminPerformance,
        ]);
    }
    if auth.allows(STOCK_READ) {
        kinds.push(pb::ExportKind::StockMovements);
    }
    kinds
}

/// What to export of the orders.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct OrderReportInput {
    /// The first day (YYYY-MM-DD, Thailand's time) or moment (RFC 3339).
    pub date_from: Option<String>,
    /// The last day (YYYY-MM-DD, included) or moment (RFC 3339, excluded).
    pub date_to: Option<String>,
    /// Order states (none: every state): new, ready_to_fulfillment, shipped, closed,
    /// cancelled, failed.
    pub order_state: Vec<String>,
    /// th (default) or en: the language of the headers and labels.
    pub lang: Option<String>,
}

/// An export (SPEC §3 report export record).
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportBody {
    pub id: i64,
    /// orders, order_summary, sold_items, service_fees, admin_performance or
    /// stock_movements.
    pub kind: String,
    pub file_name: String,
    /// exporting, exported, failed or expired.
    pub state: String,
    pub date_from: String,
    pub date_to: String,
    /// The orders' states (orders).
    pub order_states: Vec<String>,
    /// The summary's table (daily, channels, states, skus, warehouses), or empty.
    pub table: String,
    /// Rows in it (as counted when asked, as written once exported).
    pub total: i64,
    /// Rows written so far.
    pub done: i64,
    /// Percent written (0 to 100).
    pub progress: i64,
    /// Bytes.
    pub file_size: i64,
    /// Who asked, and their name.
    pub exporter_id: i64,
    pub exporter: String,
    pub created_at: String,
    pub finished_at: Option<String>,
    /// When its file is removed.
    pub expires_at: Option<String>,
    /// Why it failed (an error code), or empty.
    pub failure: String,
}

fn export_body(e: pb::Export, name: String) -> ExportBody {
    let when = |ms: i64| (ms > 0).then(|| ms_to_rfc3339(ms));
    let s = e.scope.unwrap_or_default();
    ExportBody {
        progress: if e.total > 0 { (e.done * 100 / e.total).clamp(0, 100) } else { 0 },
        id: e.id,
        kind: word::<pb::ExportKind>(e.kind),
        file_name: e.file_name,
        state: word::<pb::ExportState>(e.state),
        date_from: ms_to_rfc3339(s.date_from_ms),
        date_to: ms_to_rfc3339(s.date_to_ms),
        order_states: words::<opb::OrderState>(&s.order_states),
        table: s.table,
        total: e.total,
        done: e.done,
        file_size: e.file_size,
        exporter_id: e.created_by,
        exporter: name,
        created_at: timestamp_to_rfc3339(e.create_time.as_ref()),
        finished_at: when(e.finished_at_ms),
        expires_at: when(e.expires_at_ms),
        failure: e.failure,
    }
}

/// Asks the reports service for an export and answers it as recorded (201).
async fn produce(
    state: &AppState,
    auth: &StoreAuth,
    kind: pb::ExportKind,
    scope: pb::ExportScope,
    lang: Option<String>,
) -> ApiResult<(StatusCode, Json<ExportBody>)> {
    let r = state
        .client(ReportsServiceClient::new)?
        .produce_export(auth.ctx().request(pb::ProduceExportRequest {
            kind: kind.into(),
            scope: Some(scope),
            lang: lang.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    let e = r.export.unwrap_or_default();
    let names = member_names(state, auth).await?;
    let name = names.get(&e.created_by).cloned().unwrap_or_default();
    Ok((StatusCode::CREATED, Json(export_body(e, name))))
}

/// A day or moment of a range, required.
fn range_end(field: &str, v: &Option<String>, end: bool) -> ApiResult<i64> {
    match v.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(t) => moment(field, t, end && !t.contains('T')),
        None => Err(ApiError::invalid_field(field, "validation.required")),
    }
}

/// Asks for a spreadsheet of the store's orders made in a date range, in some states; it is
/// built in the background (`GET /orders/reports` shows its progress). Refused with
/// `no_data_for_export` when no order matches.
#[utoipa::path(post, path = "/orders/reports/produce-order-report", tag = "orders", request_body = OrderReportInput,
    responses((status = 201, body = ExportBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "no_data_for_export, or a field's rule"),
        (status = 429, body = ErrorBody, description = "export_queue_full")),
    security(("bearer" = [])))]
async fn produce_order_report(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OrderReportInput>,
) -> ApiResult<(StatusCode, Json<ExportBody>)> {
    auth.require(READ)?;
    let from = range_end("date_from", &b.date_from, false)?;
    let to = range_end("date_to", &b.date_to, true)?;
    let states = enum_fields::<opb::OrderState>(
        "order_states",
        b.order_state.iter().map(String::as_str),
        "validation.order_state",
    )?;
    let scope = pb::ExportScope { date_from_ms: from, date_to_ms: to, order_states: states, ..Default::default() };
    produce(&state, &auth, pb::ExportKind::Orders, scope, b.lang).await
}

/// Which period of a summary to export.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct SummaryExportInput {
    /// daily, monthly (default), quarterly or yearly.
    pub period: Option<String>,
    /// Any day of the period, YYYY-MM-DD in Thailand's time (default today).
    pub date: Option<String>,
    /// th (default) or en.
    pub lang: Option<String>,
}

/// Asks for a summary's table of a period (owner only).
async fn produce_summary(
    state: &AppState,
    auth: &StoreAuth,
    kind: pb::ExportKind,
    table: String,
    b: SummaryExportInput,
) -> ApiResult<(StatusCode, Json<ExportBody>)> {
    let period = enum_field::<pb::Period>("period", b.period.as_deref(), "validation.invalid")?;
    let scope = pb::ExportScope { table, period, date: b.date.unwrap_or_default(), ..Default::default() };
    produce(state, auth, kind, scope, b.lang).await
}

/// A handler that asks for a summary's export (owner only): `whole` for the summary's first
/// table, `table` for the one the path names.
macro_rules! summary_export {
    ($(#[$doc:meta])* whole $name:ident, $path:literal, $kind:ident) => {
        $(#[$doc])*
        #[utoipa::path(post, path = $path, tag = "reports", request_body = SummaryExportInput,
            responses((status = 201, body = ExportBody), (status = 403, body = ErrorBody),
                (status = 422, body = ErrorBody, description = "no_data_for_export, or a field's rule"),
                (status = 429, body = ErrorBody, description = "export_queue_full")),
            security(("bearer" = [])))]
        async fn $name(
            State(state): State<AppState>,
            auth: StoreAuth,
            Body(b): Body<SummaryExportInput>,
        ) -> ApiResult<(StatusCode, Json<ExportBody>)> {
            auth.require(OWNER)?;
            produce_summary(&state, &auth, pb::ExportKind::$kind, String::new(), b).await
        }
    };
    ($(#[$doc:meta])* table $name:ident, $path:literal, $kind:ident, $tables:literal) => {
        $(#[$doc])*
        #[utoipa::path(post, path = $path, tag = "reports",
            params(("table" = String, Path, description = $tables)),
            request_body = SummaryExportInput,
            responses((status = 201, body = ExportBody), (status = 403, body = ErrorBody),
                (status = 422, body = ErrorBody, description = "no_data_for_export, or a field's rule"),
                (status = 429, body = ErrorBody, description = "export_queue_full")),
            security(("bearer" = [])))]
        async fn $name(
            State(state): State<AppState>,
            auth: StoreAuth,
            Path(table): Path<String>,
            Body(b): Body<SummaryExportInput>,
        ) -> ApiResult<(StatusCode, Json<ExportBody>)> {
            auth.require(OWNER)?;
            produce_summary(&state, &auth, pb::ExportKind::$kind, table, b).await
        }
    };
}

summary_export!(
    /// Asks for the order summary of a period as a spreadsheet: its sales day by day.
    whole export_order_summaries, "/order-reports/order-summaries/export-excel", OrderSummary
);
summary_export!(
    /// Asks for one table of the order summary of a period: daily, channels or states.
    table export_order_summaries_table, "/order-reports/order-summaries/export-excel/{table}", OrderSummary,
    "daily, channels or states"
);
summary_export!(
    /// Asks for the SKUs a period sold as a spreadsheet, the largest net first.
    whole export_sold_item_summaries, "/order-reports/sold-item-summaries/export-excel", SoldItems
);
summary_export!(
    /// Asks for one table of the sold items of a period: skus.
    table export_sold_item_summaries_table, "/order-reports/sold-item-summaries/export-excel/{table}", SoldItems, "skus"
);
summary_export!(
    /// Asks for the service fees of a period as a spreadsheet, day by day.
    whole export_service_fee_summaries, "/order-reports/service-fee-summaries/export-excel", ServiceFees
);
summary_export!(
    /// Asks for one table of the service fees of a period: daily or warehouses.
    table export_service_fee_summaries_table, "/order-reports/service-fee-summaries/export-excel/{table}", ServiceFees,
    "daily or warehouses"
);
summary_export!(
    /// Asks for the sales per employee of a period as a spreadsheet.
    whole export_admin_performance_summaries, "/order-reports/admin-performance-summaries/export-excel", AdminPerformance
);

/// Which stock movements to export.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct MovementExportInput {
    /// The first day (YYYY-MM-DD, Thailand's time) or moment (RFC 3339).
    pub date_from: Option<String>,
    /// The last day (YYYY-MM-DD, included) or moment (RFC 3339, excluded).
    pub date_to: Option<String>,
    /// receive, adjust, reserve, release, commit, transfer_out or transfer_in (none: all).
    pub kind: Option<String>,
    /// One SKU's code (none: all).
    pub sku_code: Option<String>,
    /// One warehouse (none: all).
    pub warehouse_id: Option<i64>,
    /// th (default) or en.
    pub lang: Option<String>,
}

/// Asks for the stock movements of a date range as a spreadsheet, newest first, filtered as
/// the movements report is.
#[utoipa::path(post, path = "/reports/stock-movement", tag = "reports", request_body = MovementExportInput,
    responses((status = 201, body = ExportBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "no_data_for_export, or a field's rule"),
        (status = 429, body = ErrorBody, description = "export_queue_full")),
    security(("bearer" = [])))]
async fn export_stock_movements(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<MovementExportInput>,
) -> ApiResult<(StatusCode, Json<ExportBody>)> {
    auth.require(STOCK_READ)?;
    let from = range_end("date_from", &b.date_from, false)?;
    let to = range_end("date_to", &b.date_to, true)?;
    let sku_id = match b.sku_code.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => 0,
        Some(code) => crate::routes::stock_reports::sku_of_code(&state, &auth, code)
            .await?
            // No such SKU: nothing moved.
            .ok_or_else(|| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, Code::NoDataForExport))?,
    };
    let scope = pb::ExportScope {
        date_from_ms: from,
        date_to_ms: to,
        movement_kind: b.kind.unwrap_or_default(),
        sku_id,
        warehouse_id: b.warehouse_id.unwrap_or(0),
        ..Default::default()
    };
    produce(&state, &auth, pb::ExportKind::StockMovements, scope, b.lang).await
}

/// Paging of the export history, and which kind.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct ReportsQuery {
    pub page: Option<i64>,
    pub limit: Option<i64>,
    /// Only this kind (none: every kind the caller may read).
    pub kind: Option<String>,
}

/// The store's exports the caller may read, newest first: their state and progress, who
/// asked and when.
#[utoipa::path(get, path = "/orders/reports", tag = "orders", params(ReportsQuery),
    responses((status = 200, body = List<ExportBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn order_reports(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<ReportsQuery>,
) -> ApiResult<Json<List<ExportBody>>> {
    auth.require(ANY_REPORT)?;
    let mut kinds = readable(&auth);
    if let Some(k) = q.kind.as_deref().filter(|k| !k.is_empty()) {
        let asked =
            pb::ExportKind::from_wire(k).ok_or_else(|| ApiError::invalid_field("kind", "validation.invalid"))?;
        kinds.retain(|x| *x == asked);
        if kinds.is_empty() {
            return Err(ApiError::new(StatusCode::FORBIDDEN, Code::Forbidden));
        }
    }
    let r = state
        .client(ReportsServiceClient::new)?
        .list_exports(auth.ctx().request(pb::ListExportsRequest {
            page: Some(page_request(q.page, q.limit)),
            kinds: kinds.into_iter().map(i32::from).collect(),
        }))
        .await?
        .into_inner();
    let names = if r.exports.is_empty() { Default::default() } else { member_names(&state, &auth).await? };
    let data = r
        .exports
        .into_iter()
        .map(|e| {
            let name = names.get(&e.created_by).cloned().unwrap_or_default();
            export_body(e, name)
        })
        .collect();
    Ok(Json(List::new(data, r.page)))
}

/// Where an export of a kind the caller may read is kept, and its name.
async fn export_file_of(state: &AppState, auth: &StoreAuth, id: i64) -> ApiResult<pb::GetExportFileResponse> {
    let kinds = readable(auth);
    if kinds.is_empty() {
        return Err(ApiError::new(StatusCode::FORBIDDEN, Code::Forbidden));
    }
    Ok(state
        .client(ReportsServiceClient::new)?
        .get_export_file(
            auth.ctx().request(pb::GetExportFileRequest { id, kinds: kinds.into_iter().map(i32::from).collect() }),
        )
        .await?
        .into_inner())
}

/// An exported file as an attachment.
async fn attachment(state: &AppState, key: String, file_name: &str) -> ApiResult<axum::response::Response> {
    let mut res = crate::uploads::serve(&state.files, key, XLSX, "private, no-store", Code::ExportNotFound).await?;
    let disposition = format!("attachment; filename=\"{}\"", file_name.replace(['"', '\\'], ""));
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        res.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(res)
}

/// The file of an export (an export has one file, number 1), as an attachment.
#[utoipa::path(post, path = "/orders/reports/{id}/files/{fid}/download", tag = "orders",
    params(("id" = i64, Path), ("fid" = i64, Path, description = "the file (1)")),
    responses((status = 200, description = "the spreadsheet",
        content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody, description = "export_not_found or export_expired"),
        (status = 409, body = ErrorBody, description = "export_not_ready")),
    security(("bearer" = [])))]
async fn download_order_report(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, fid)): Path<(i64, i64)>,
) -> ApiResult<axum::response::Response> {
    // Any member who may read some report: which exports they may download is the kinds'.
    auth.require(ANY_REPORT)?;
    if fid != 1 {
        return Err(ApiError::new(StatusCode::NOT_FOUND, Code::ExportNotFound));
    }
    let r = export_file_of(&state, &auth, id).await?;
    attachment(&state, r.key, &r.file_name).await
}

/// A link that downloads an export without a header, for a few minutes.
#[derive(Debug, Serialize, ToSchema)]
pub struct DownloadUrlBody {
    /// Relative to the API's root (`/api`).
    pub url: String,
    pub file_name: String,
    /// When the link stops working (RFC 3339).
    pub expires_at: String,
}

/// A short-lived link to an exported file (the download-url fetch), for a browser to follow.
#[utoipa::path(get, path = "/reports/exports/{id}/download-url", tag = "reports", params(("id" = i64, Path)),
    responses((status = 200, body = DownloadUrlBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "export_not_found or export_expired"),
        (status = 409, body = ErrorBody, description = "export_not_ready")),
    security(("bearer" = [])))]
async fn export_download_url(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<DownloadUrlBody>> {
    auth.require(ANY_REPORT)?;
    let r = export_file_of(&state, &auth, id).await?;
    let ctx = auth.ctx();
    let (token, exp) =
        state.keys.link_token(ctx.user_id, ctx.store_id, &format!("export:{id}")).map_err(ApiError::from)?;
    Ok(Json(DownloadUrlBody {
        url: format!("/reports/exports/{id}/file?token={token}"),
        file_name: r.file_name,
        expires_at: ms_to_rfc3339(exp * 1000),
    }))
}

/// The token of a download link.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct LinkQuery {
    pub token: String,
}

/// An exported file by the link `download-url` gave (no header: the link's token is the
/// key, for its file only, for a few minutes). Failed tries are limited per address.
#[utoipa::path(get, path = "/reports/exports/{id}/file", tag = "reports", params(("id" = i64, Path), LinkQuery),
    responses((status = 200, description = "the spreadsheet",
        content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        (status = 401, body = ErrorBody, description = "a link expired or not this file's"),
        (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn export_file(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Query(q): Query<LinkQuery>,
) -> ApiResult<axum::response::Response> {
    let ip = crate::auth::client_ip(peer.ip(), &headers, &state.trusted_proxies);
    let Some(attempt) = state.limiter.begin(ip, "export-link") else {
        return Err(ApiError::new(StatusCode::TOO_MANY_REQUESTS, Code::TooManyAttempts));
    };
    let (store, user) = match state.keys.verify_link(&q.token, &format!("export:{id}")) {
        Ok(who) => who,
        Err(e) => {
            attempt.failed();
            return Err(e.into());
        }
    };
    drop(attempt);
    // The link was given to a member who could read this export; the file is read as them.
    let r = state
        .client(ReportsServiceClient::new)?
        .get_export_file(state.acting(store, user).request(pb::GetExportFileRequest { id, kinds: Vec::new() }))
        .await?
        .into_inner();
    attachment(&state, r.key, &r.file_name).await
}
