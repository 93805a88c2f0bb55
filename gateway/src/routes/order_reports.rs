//! Order report exports (SPEC §3 report export record, §4 Report export, §7
//! `/orders/reports/produce-order-report`, `/orders/reports`, `/orders/reports/{id}/files/
//! {fid}/download`, §8 no data for an export): a spreadsheet of the store's orders of a date
//! range and states, built in the background, with its progress, kept for a week. Whoever
//! reads orders may export them.

use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::Json;
use bo_kit::time::{ms_to_rfc3339, timestamp_to_rfc3339};
use bo_kit::Code;
use bo_proto::orders::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::routes::orders::{moment, READ};
use crate::routes::receipts::member_names;
use crate::state::AppState;
use crate::wire::{enum_fields, page_request, word, words, Body, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(produce_order_report))
        .routes(routes!(order_reports))
        .routes(routes!(download_order_report))
}

/// What to export.
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

/// An order export (SPEC §3 report export record).
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderExportBody {
    pub id: i64,
    pub file_name: String,
    /// exporting, exported, failed or expired.
    pub state: String,
    pub date_from: String,
    pub date_to: String,
    pub order_states: Vec<String>,
    /// Orders in it.
    pub total: i64,
    /// Orders written so far.
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
}

fn export_body(e: pb::OrderExport, name: String) -> OrderExportBody {
    let when = |ms: i64| (ms > 0).then(|| ms_to_rfc3339(ms));
    OrderExportBody {
        progress: if e.total > 0 { (e.done * 100 / e.total).clamp(0, 100) } else { 0 },
        id: e.id,
        file_name: e.file_name,
        state: word::<pb::ExportState>(e.state),
        date_from: ms_to_rfc3339(e.date_from_ms),
        date_to: ms_to_rfc3339(e.date_to_ms),
        order_states: words::<pb::OrderState>(&e.states),
        total: e.total,
        done: e.done,
        file_size: e.file_size,
        exporter_id: e.created_by,
        exporter: name,
        created_at: timestamp_to_rfc3339(e.create_time.as_ref()),
        finished_at: when(e.finished_at_ms),
        expires_at: when(e.expires_at_ms),
    }
}

/// Asks for a spreadsheet of the store's orders made in a date range, in some states; it is
/// built in the background (`GET /orders/reports` shows its progress). Refused with
/// `no_data_for_export` when no order matches.
#[utoipa::path(post, path = "/orders/reports/produce-order-report", tag = "orders", request_body = OrderReportInput,
    responses((status = 201, body = OrderExportBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "no_data_for_export, or a field's rule")),
    security(("bearer" = [])))]
async fn produce_order_report(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OrderReportInput>,
) -> ApiResult<(StatusCode, Json<OrderExportBody>)> {
    auth.require(READ)?;
    let day = |field: &str, v: &Option<String>, end: bool| -> ApiResult<i64> {
        match v.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            Some(t) => moment(field, t, end && !t.contains('T')),
            None => Err(ApiError::invalid_field(field, "validation.required")),
        }
    };
    let from = day("date_from", &b.date_from, false)?;
    let to = day("date_to", &b.date_to, true)?;
    let states = enum_fields::<pb::OrderState>(
        "order_states",
        b.order_state.iter().map(String::as_str),
        "validation.order_state",
    )?;
    let r = state
        .orders()
        .produce_order_report(auth.ctx().request(pb::ProduceOrderReportRequest {
            date_from_ms: from,
            date_to_ms: to,
            states,
            lang: b.lang.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    let e = r.export.unwrap_or_default();
    let names = member_names(&state, &auth).await?;
    let name = names.get(&e.created_by).cloned().unwrap_or_default();
    Ok((StatusCode::CREATED, Json(export_body(e, name))))
}

/// Paging of the export history.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct ReportsQuery {
    pub page: Option<i64>,
    pub limit: Option<i64>,
}

/// The store's order exports, newest first: their state and progress, who asked and when.
#[utoipa::path(get, path = "/orders/reports", tag = "orders", params(ReportsQuery),
    responses((status = 200, body = List<OrderExportBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn order_reports(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<ReportsQuery>,
) -> ApiResult<Json<List<OrderExportBody>>> {
    auth.require(READ)?;
    let r = state
        .orders()
        .list_order_reports(
            auth.ctx().request(pb::ListOrderReportsRequest { page: Some(page_request(q.page, q.limit)) }),
        )
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
    auth.require(READ)?;
    if fid != 1 {
        return Err(ApiError::new(StatusCode::NOT_FOUND, Code::ExportNotFound));
    }
    let r = state
        .orders()
        .get_order_report_file(auth.ctx().request(pb::GetOrderReportFileRequest { id }))
        .await?
        .into_inner();
    let mut res = crate::uploads::serve(
        &state.files,
        r.key,
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "private, no-store",
        Code::ExportNotFound,
    )
    .await?;
    let disposition = format!("attachment; filename=\"{}\"", r.file_name.replace(['"', '\\'], ""));
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        res.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(res)
}
