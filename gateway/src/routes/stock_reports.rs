//! The stock reports (SPEC §2 Reports: stock and movements, §7 `GET /reports/stock-movement/
//! histories`): every SKU's stock per warehouse at the end of a day (on hand, reserved,
//! available and the lots' value then), and every movement of the stock ledger with its
//! document, who made it and why, filtered by days, warehouse, kind and SKU, newest first,
//! paged in the ledger. Whoever reads the stock may read them.

use std::collections::HashMap;

use axum::extract::State;
use axum::Json;
use bo_kit::time::{ms_to_timestamp, timestamp_to_rfc3339};
use bo_proto::products::v1 as ppb;
use bo_proto::wms::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::perms::Access;
use crate::routes::orders::moment;
use crate::routes::receipts::member_names;
use crate::state::AppState;
use crate::wire::{baht, page_request, List, Query};
use bo_kit::perms::keys;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(movement_histories)).routes(routes!(stock_report))
}

/// The stock's readers.
pub(crate) const STOCK_READ: Access = Access { roles: &[], perms: &[keys::PRODUCT_SKU_READ] };

/// The most rows one page of the report holds.
pub const PAGE_MAX: i64 = 100;

/// Which movements.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(default, rename_all = "kebab-case")]
#[into_params(parameter_in = Query)]
pub struct MovementReportQuery {
    /// The first day, YYYY-MM-DD in Thailand's time (none: from the first movement).
    pub date_from: Option<String>,
    /// The last day, included (none: to now).
    pub date_to: Option<String>,
    /// Only this warehouse.
    pub warehouse_id: Option<i64>,
    /// Only this kind: receive, adjust, reserve, release, commit, transfer_out or transfer_in.
    pub kind: Option<String>,
    /// Only this SKU, by its code.
    pub sku_code: Option<String>,
    /// Page number.
    pub page: Option<i64>,
    /// Rows per page, 1 to 100 (default 20).
    pub limit: Option<i64>,
}

/// Which stock.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(default, rename_all = "kebab-case")]
#[into_params(parameter_in = Query)]
pub struct StockReportQuery {
    /// The stock at the end of this day, YYYY-MM-DD in Thailand's time (none: now).
    pub date: Option<String>,
    /// Only this warehouse.
    pub warehouse_id: Option<i64>,
    /// Page number.
    pub page: Option<i64>,
    /// Rows per page, 1 to 100 (default 20).
    pub limit: Option<i64>,
}

/// One SKU's stock in a warehouse then.
#[derive(Debug, Serialize, ToSchema)]
pub struct StockRowBody {
    pub warehouse_id: i64,
    pub warehouse_name: String,
    pub sku_id: i64,
    pub sku_code: String,
    pub product_name: String,
    pub on_hand: i64,
    pub reserved: i64,
    /// On hand less reserved.
    pub available: i64,
    /// The lots' units then at their own costs.
    pub value: String,
}

/// The stock report: a page of SKUs holding stock then, and the totals of them all.
#[derive(Debug, Serialize, ToSchema)]
pub struct StockReportBody {
    /// The moment the stock is of (RFC 3339).
    pub at: String,
    pub data: Vec<StockRowBody>,
    pub total: i64,
    pub limit: i64,
    pub page: i64,
    pub pages: i64,
    pub on_hand: i64,
    pub reserved: i64,
    pub available: i64,
    pub value: String,
}

/// Every SKU's stock per warehouse at the end of a day (now when no day is named): on hand,
/// reserved, available and the lots' value then, paged, with the totals (the stock report).
#[utoipa::path(get, path = "/reports/stock", tag = "reports", params(StockReportQuery),
    responses((status = 200, body = StockReportBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn stock_report(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<StockReportQuery>,
) -> ApiResult<Json<StockReportBody>> {
    auth.require(STOCK_READ)?;
    let at = match q.date.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(d) => moment("date", d, true)?.min(bo_kit::time::now_ms()),
        None => bo_kit::time::now_ms(),
    };
    let limit = q.limit.unwrap_or(20);
    if !(1..=PAGE_MAX).contains(&limit) {
        return Err(ApiError::invalid_field("limit", "validation.invalid"));
    }
    let r = state
        .wms()
        .list_stock_at(auth.ctx().request(pb::ListStockAtRequest {
            warehouse_id: q.warehouse_id.unwrap_or(0),
            at: Some(ms_to_timestamp(at)),
            page: Some(page_request(q.page, Some(limit))),
        }))
        .await?
        .into_inner();
    let warehouses = warehouse_names(&state, &auth).await?;
    let p = r.page.unwrap_or_default();
    Ok(Json(StockReportBody {
        at: bo_kit::time::ms_to_rfc3339(at),
        data: r
            .rows
            .into_iter()
            .map(|s| StockRowBody {
                warehouse_id: s.warehouse_id,
                warehouse_name: warehouses.get(&s.warehouse_id).cloned().unwrap_or_default(),
                sku_id: s.sku_id,
                sku_code: s.sku_code,
                product_name: s.product_name,
                on_hand: s.on_hand,
                reserved: s.reserved,
                available: s.on_hand - s.reserved,
                value: baht(s.value),
            })
            .collect(),
        total: p.total,
        limit: p.limit,
        page: p.page.max(1),
        pages: p.pages.max(1),
        on_hand: r.on_hand,
        reserved: r.reserved,
        available: r.on_hand - r.reserved,
        value: baht(r.value),
    }))
}

/// The store's warehouses' names.
pub(crate) async fn warehouse_names(state: &AppState, auth: &StoreAuth) -> ApiResult<HashMap<i64, String>> {
    Ok(state
        .wms()
        .list_warehouses(auth.ctx().request(pb::ListWarehousesRequest {}))
        .await?
        .into_inner()
        .warehouses
        .into_iter()
        .map(|w| (w.id, w.name))
        .collect())
}

/// The id of the store's SKU of `code`, if it has one.
pub(crate) async fn sku_of_code(state: &AppState, auth: &StoreAuth, code: &str) -> ApiResult<Option<i64>> {
    let found = state
        .products()
        .describe_skus(auth.ctx().request(ppb::DescribeSkusRequest { ids: vec![], codes: vec![code.to_string()] }))
        .await?
        .into_inner();
    Ok(found.skus.first().and_then(|d| d.sku.as_ref()).map(|s| s.id))
}

/// One movement of the stock, with its document.
#[derive(Debug, Serialize, ToSchema)]
pub struct MovementReportRow {
    pub id: i64,
    /// When (RFC 3339).
    pub created_at: String,
    pub warehouse_id: i64,
    pub warehouse_name: String,
    pub sku_id: i64,
    pub sku_code: String,
    /// The product's name and the SKU's options.
    pub product_name: String,
    pub variant: String,
    /// receive, adjust, reserve, release, commit, transfer_out or transfer_in.
    pub kind: String,
    /// Change to on hand.
    pub on_hand: i64,
    /// Change to reserved.
    pub reserved: i64,
    /// Why (an adjustment's reason).
    pub reason: String,
    /// The document that moved it: an order, a goods receipt, a transfer or an adjustment.
    pub reference: String,
    /// Who.
    pub created_by: i64,
    pub created_by_name: String,
}

/// Every stock movement, newest first, filtered and paged (the movements report).
#[utoipa::path(get, path = "/reports/stock-movement/histories", tag = "reports", params(MovementReportQuery),
    responses((status = 200, body = List<MovementReportRow>), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn movement_histories(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<MovementReportQuery>,
) -> ApiResult<Json<List<MovementReportRow>>> {
    auth.require(STOCK_READ)?;
    let day = |field: &str, v: &Option<String>, end: bool| -> ApiResult<Option<i64>> {
        v.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(|t| moment(field, t, end)).transpose()
    };
    let from = day("date_from", &q.date_from, false)?;
    let to = day("date_to", &q.date_to, true)?;
    if let (Some(f), Some(t)) = (from, to) {
        if f >= t {
            return Err(ApiError::invalid_field("date_to", "validation.date_range"));
        }
    }
    let limit = q.limit.unwrap_or(20);
    if !(1..=PAGE_MAX).contains(&limit) {
        return Err(ApiError::invalid_field("limit", "validation.invalid"));
    }
    let sku_id = match q.sku_code.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => 0,
        Some(code) => match sku_of_code(&state, &auth, code).await? {
            Some(id) => id,
            // No such SKU: nothing moved.
            None => return Ok(Json(List { data: Vec::new(), total: 0, limit, page: 1, pages: 1 })),
        },
    };
    let r = state
        .wms()
        .list_movements(auth.ctx().request(pb::ListMovementsRequest {
            kind: q.kind.clone().unwrap_or_default(),
            sku_id,
            page: Some(page_request(q.page, Some(limit))),
            warehouse_id: q.warehouse_id.unwrap_or(0),
            from_time: from.map(ms_to_timestamp),
            to_time: to.map(ms_to_timestamp),
            ..Default::default()
        }))
        .await?
        .into_inner();
    let mut ids: Vec<i64> = r.movements.iter().map(|m| m.sku_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let skus: HashMap<i64, ppb::SkuDescription> = if ids.is_empty() {
        HashMap::new()
    } else {
        state
            .products()
            .describe_skus(auth.ctx().request(ppb::DescribeSkusRequest { ids, codes: vec![] }))
            .await?
            .into_inner()
            .skus
            .into_iter()
            .filter_map(|d| Some((d.sku.as_ref()?.id, d)))
            .collect()
    };
    let warehouses = warehouse_names(&state, &auth).await?;
    let names = member_names(&state, &auth).await?;
    let page = r.page;
    let data = r
        .movements
        .into_iter()
        .map(|m| {
            let d = skus.get(&m.sku_id);
            let sku = d.and_then(|d| d.sku.as_ref());
            let variant = sku
                .map(|s| {
                    [s.option1.as_str(), s.option2.as_str()]
                        .into_iter()
                        .filter(|o| !o.is_empty())
                        .collect::<Vec<_>>()
                        .join(" / ")
                })
                .unwrap_or_default();
            MovementReportRow {
                id: m.id,
                created_at: timestamp_to_rfc3339(m.create_time.as_ref()),
                warehouse_id: m.warehouse_id,
                warehouse_name: warehouses.get(&m.warehouse_id).cloned().unwrap_or_default(),
                sku_id: m.sku_id,
                sku_code: sku.map(|s| s.code.clone()).unwrap_or_default(),
                product_name: d.map(|d| d.product_name.clone()).unwrap_or_default(),
                variant,
                kind: m.kind,
                on_hand: m.on_hand_delta,
                reserved: m.reserved_delta,
                reason: m.reason,
                reference: m.reference,
                created_by: m.actor_user_id,
                created_by_name: names.get(&m.actor_user_id).cloned().unwrap_or_default(),
            }
        })
        .collect();
    Ok(Json(List::new(data, page)))
}
