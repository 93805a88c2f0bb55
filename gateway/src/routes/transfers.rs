//! Transfers between warehouses (SPEC §2 `/stock-management-transfer`, on the goods adjust
//! tab screen): units leave one warehouse with their lots, show as in transit, and go on hand
//! at the other when it confirms. Lots and stock value, and the lots to pick.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::{ms_to_rfc3339, timestamp_to_rfc3339};
use bo_proto::wms::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::routes::receipts::{bangkok_date_time, member_names};
use crate::state::AppState;
use crate::wire::{baht, enum_field, page_request, word, Body, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_transfers, create_transfer))
        .routes(routes!(get_transfer))
        .routes(routes!(receive_transfer))
        .routes(routes!(list_in_transit))
        .routes(routes!(list_stock_lots))
        .routes(routes!(stock_valuation))
        .routes(routes!(pick_lots))
        .routes(routes!(transfer_pick_list))
}

/// Moving stock is stock control: the goods adjust rights.
const MOVE_READ: Access = Access { roles: &[], perms: &[keys::WMS_GOODS_ADJUST_READ] };
const MOVE: Access = Access { roles: &[], perms: &[keys::WMS_GOODS_ADJUST_CREATE] };
/// Lots are part of the stock overview, which reads SKUs.
const LOTS_READ: Access = Access { roles: &[], perms: &[keys::PRODUCT_SKU_READ] };
/// Stock value shows costs: those who handle goods receipts (which carry costs).
const VALUE_READ: Access = Access { roles: &[], perms: &[keys::WMS_GOODS_RECEIPT_READ] };

/// Units of a lot.
#[derive(Debug, Serialize, ToSchema)]
pub struct LotTakeBody {
    /// Lot.
    pub lot_id: i64,
    /// Lot code.
    pub lot_code: String,
    /// Units.
    pub quantity: i64,
    /// The lot's expiry date, `YYYY-MM-DD` (null for none).
    pub expired_at: Option<String>,
}

pub(crate) fn take_body(t: pb::LotTake) -> LotTakeBody {
    LotTakeBody {
        lot_id: t.lot_id,
        lot_code: t.lot_code,
        quantity: t.quantity,
        expired_at: (t.expires_at_ms > 0).then(|| bangkok_date_time(t.expires_at_ms).0),
    }
}

/// A line of a transfer.
#[derive(Debug, Serialize, ToSchema)]
pub struct TransferLineBody {
    /// SKU.
    pub sku_id: i64,
    /// SKU code.
    pub sku_code: String,
    /// Product name.
    pub product_name: String,
    /// Units.
    pub quantity: i64,
    /// The lots they came from.
    pub lots: Vec<LotTakeBody>,
}

/// A transfer.
#[derive(Debug, Serialize, ToSchema)]
pub struct TransferBody {
    /// Id.
    pub id: i64,
    /// Code (TF + Buddhist-era year + number).
    pub code: String,
    /// in_transit or received.
    pub state: String,
    /// From.
    pub from_warehouse_id: i64,
    /// To.
    pub to_warehouse_id: i64,
    /// Note.
    pub note: String,
    /// Lines.
    pub items: Vec<TransferLineBody>,
    /// Units in all.
    pub total_qty: i64,
    /// Who sent it.
    pub created_by: i64,
    /// Their name.
    pub created_by_name: String,
    /// Who confirmed its arrival.
    pub received_by: i64,
    /// Their name.
    pub received_by_name: String,
    /// Sent, RFC 3339.
    pub created_at: String,
    /// Arrived, RFC 3339 (null before).
    pub received_at: Option<String>,
}

pub(crate) fn transfer_body(t: pb::Transfer, names: &std::collections::HashMap<i64, String>) -> TransferBody {
    let name = |id: i64| names.get(&id).cloned().unwrap_or_default();
    TransferBody {
        id: t.id,
        code: t.code,
        state: word::<pb::TransferState>(t.state),
        from_warehouse_id: t.from_warehouse_id,
        to_warehouse_id: t.to_warehouse_id,
        note: t.note,
        total_qty: t.lines.iter().map(|l| l.quantity).sum(),
        items: t
            .lines
            .into_iter()
            .map(|l| TransferLineBody {
                sku_id: l.sku_id,
                sku_code: l.sku_code,
                product_name: l.product_name,
                quantity: l.quantity,
                lots: l.lots.into_iter().map(take_body).collect(),
            })
            .collect(),
        created_by: t.created_by,
        created_by_name: name(t.created_by),
        received_by: t.received_by,
        received_by_name: name(t.received_by),
        created_at: timestamp_to_rfc3339(t.create_time.as_ref()),
        received_at: (t.received_at_ms > 0).then(|| ms_to_rfc3339(t.received_at_ms)),
    }
}

/// Which transfers.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct TransferQuery {
    /// in_transit or received (empty for all).
    pub state: Option<String>,
    /// Page.
    pub page: Option<i64>,
    /// Page size.
    pub limit: Option<i64>,
}

/// Transfers, newest first.
#[utoipa::path(get, path = "/wms/transfers", tag = "wms", params(TransferQuery),
    responses((status = 200, body = List<TransferBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_transfers(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<TransferQuery>,
) -> ApiResult<Json<List<TransferBody>>> {
    auth.require(MOVE_READ)?;
    let r = state
        .wms()
        .list_transfers(auth.ctx().request(pb::ListTransfersRequest {
            state: enum_field::<pb::TransferState>("state", q.state.as_deref(), "validation.choice")?,
            page: Some(page_request(q.page, q.limit)),
        }))
        .await?
        .into_inner();
    let names = member_names(&state, &auth).await?;
    Ok(Json(List::new(r.transfers.into_iter().map(|t| transfer_body(t, &names)).collect(), r.page)))
}

/// A line to move.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct TransferLineInput {
    /// SKU.
    pub sku_id: i64,
    /// Units.
    pub quantity: i64,
}

/// A transfer to send.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct TransferInput {
    /// From.
    pub from_warehouse_id: i64,
    /// To.
    pub to_warehouse_id: i64,
    /// Note (up to 500 characters).
    pub note: String,
    /// Lines.
    pub items: Vec<TransferLineInput>,
}

/// Sends units from one warehouse to another: every line or none. With an
/// `Idempotency-Key`, a retry sends nothing again.
#[utoipa::path(post, path = "/wms/transfers", tag = "wms", request_body = TransferInput,
    responses((status = 201, body = TransferBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "warehouse_not_found, sku_not_found"),
        (status = 409, body = ErrorBody, description = "insufficient_stock, warehouse_inactive"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_transfer(
    State(state): State<AppState>,
    auth: StoreAuth,
    proceeding: Option<axum::Extension<crate::idempotency::Proceeding>>,
    Body(input): Body<TransferInput>,
) -> ApiResult<(StatusCode, Json<TransferBody>)> {
    auth.require(MOVE)?;
    let reference = match proceeding {
        Some(axum::Extension(p)) => p.reference("transfer"),
        None => format!("transfer:{}", uuid::Uuid::now_v7()),
    };
    let r = state
        .wms()
        .create_transfer(
            auth.ctx().request(pb::CreateTransferRequest {
                reference,
                from_warehouse_id: input.from_warehouse_id,
                to_warehouse_id: input.to_warehouse_id,
                note: input.note,
                lines: input
                    .items
                    .into_iter()
                    .map(|l| pb::StockLine { sku_id: l.sku_id, quantity: l.quantity, ..Default::default() })
                    .collect(),
            }),
        )
        .await?
        .into_inner();
    let names = member_names(&state, &auth).await?;
    Ok((StatusCode::CREATED, Json(transfer_body(r.transfer.unwrap_or_default(), &names))))
}

/// One transfer with its lots.
#[utoipa::path(get, path = "/wms/transfers/{id}", tag = "wms", params(("id" = i64, Path)),
    responses((status = 200, body = TransferBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn get_transfer(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<TransferBody>> {
    auth.require(MOVE_READ)?;
    let r = state.wms().get_transfer(auth.ctx().request(pb::TransferRequest { id })).await?.into_inner();
    let names = member_names(&state, &auth).await?;
    Ok(Json(transfer_body(r.transfer.unwrap_or_default(), &names)))
}

/// The receiving warehouse confirms: the units go on hand there, in their lots. Confirming
/// again changes nothing.
#[utoipa::path(post, path = "/wms/transfers/{id}/receive", tag = "wms", params(("id" = i64, Path)),
    responses((status = 200, body = TransferBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "warehouse_inactive")),
    security(("bearer" = [])))]
async fn receive_transfer(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<TransferBody>> {
    auth.require(MOVE)?;
    let r = state.wms().receive_transfer(auth.ctx().request(pb::TransferRequest { id })).await?.into_inner();
    let names = member_names(&state, &auth).await?;
    Ok(Json(transfer_body(r.transfer.unwrap_or_default(), &names)))
}

/// SKUs, comma-separated.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct SkusQuery {
    /// SKU ids, comma-separated (up to 500; empty for all).
    pub sku_ids: Option<String>,
}

fn ids(s: &Option<String>) -> Vec<i64> {
    s.as_deref().unwrap_or("").split(',').filter_map(|x| x.trim().parse().ok()).take(500).collect()
}

/// Units on their way to a warehouse.
#[derive(Debug, Serialize, ToSchema)]
pub struct InTransitBody {
    /// The receiving warehouse.
    pub warehouse_id: i64,
    /// SKU.
    pub sku_id: i64,
    /// Units.
    pub quantity: i64,
}

/// Units in transit, per receiving warehouse and SKU (for the stock overview).
#[utoipa::path(get, path = "/wms/in-transit", tag = "wms", params(SkusQuery),
    responses((status = 200, body = List<InTransitBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_in_transit(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<SkusQuery>,
) -> ApiResult<Json<List<InTransitBody>>> {
    auth.require(LOTS_READ)?;
    let r =
        state.wms().list_in_transit(auth.ctx().request(pb::ListInTransitRequest { sku_ids: ids(&q.sku_ids) })).await?;
    Ok(Json(List::all(
        r.into_inner()
            .items
            .into_iter()
            .map(|i| InTransitBody { warehouse_id: i.warehouse_id, sku_id: i.sku_id, quantity: i.quantity })
            .collect(),
    )))
}

/// Which lots.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct LotQuery {
    /// One warehouse.
    pub warehouse_id: Option<i64>,
    /// SKU ids, comma-separated.
    pub sku_ids: Option<String>,
    /// Only lots expiring within this many days.
    pub expiring_within_days: Option<i64>,
    /// Include emptied lots.
    pub include_empty: Option<bool>,
    /// Page.
    pub page: Option<i64>,
    /// Page size (-1 for all).
    pub limit: Option<i64>,
}

/// A stock lot.
#[derive(Debug, Serialize, ToSchema)]
pub struct StockLotBody {
    /// Id.
    pub id: i64,
    /// Warehouse.
    pub warehouse_id: i64,
    /// SKU.
    pub sku_id: i64,
    /// Code (the goods receipt's, or ADJ for stock counted in, or the reference that made it).
    pub code: String,
    /// Goods receipt (0 when none).
    pub goods_receipt_id: i64,
    /// Cost of one unit, baht.
    pub unit_cost: String,
    /// Expiry date, `YYYY-MM-DD` (null for none).
    pub expired_at: Option<String>,
    /// First arrival, RFC 3339.
    pub received_at: String,
    /// Units that came in.
    pub quantity_in: i64,
    /// Units on hand.
    pub on_hand: i64,
    /// Of them, promised to orders.
    pub reserved: i64,
}

/// Stock lots, first expiry first (SPEC §7 `GET /wms/stock-lots`).
#[utoipa::path(get, path = "/wms/stock-lots", tag = "wms", params(LotQuery),
    responses((status = 200, body = List<StockLotBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_stock_lots(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<LotQuery>,
) -> ApiResult<Json<List<StockLotBody>>> {
    auth.require(LOTS_READ)?;
    let r = state
        .wms()
        .list_stock_lots(auth.ctx().request(pb::ListStockLotsRequest {
            warehouse_id: q.warehouse_id.unwrap_or(0),
            sku_ids: ids(&q.sku_ids),
            expiring_within_days: q.expiring_within_days.unwrap_or(0),
            include_empty: q.include_empty.unwrap_or(false),
            page: Some(page_request(q.page, q.limit)),
        }))
        .await?
        .into_inner();
    let data = r
        .lots
        .into_iter()
        .map(|l| StockLotBody {
            id: l.id,
            warehouse_id: l.warehouse_id,
            sku_id: l.sku_id,
            code: l.code,
            goods_receipt_id: l.goods_receipt_id,
            unit_cost: baht(l.unit_cost),
            expired_at: (l.expires_at_ms > 0).then(|| bangkok_date_time(l.expires_at_ms).0),
            received_at: ms_to_rfc3339(l.received_at_ms),
            quantity_in: l.quantity_in,
            on_hand: l.on_hand,
            reserved: l.reserved,
        })
        .collect();
    Ok(Json(List::new(data, r.page)))
}

/// Stock value of a warehouse.
#[derive(Debug, Serialize, ToSchema)]
pub struct WarehouseValueBody {
    /// Warehouse.
    pub warehouse_id: i64,
    /// Units on hand.
    pub on_hand: i64,
    /// At moving average cost, baht.
    pub average_value: String,
    /// At the cost of the lots still on hand (first in, first out), baht.
    pub fifo_value: String,
}

/// Stock value of a SKU in a warehouse.
#[derive(Debug, Serialize, ToSchema)]
pub struct SkuValueBody {
    /// Warehouse.
    pub warehouse_id: i64,
    /// SKU.
    pub sku_id: i64,
    /// SKU code.
    pub sku_code: String,
    /// Product name.
    pub product_name: String,
    /// Units on hand.
    pub on_hand: i64,
    /// Moving average cost of one unit, baht.
    pub average_cost: String,
    /// At moving average cost, baht.
    pub average_value: String,
    /// At lot costs, baht.
    pub fifo_value: String,
}

/// Stock value: per warehouse, and per SKU (paged).
#[derive(Debug, Serialize, ToSchema)]
pub struct ValuationBody {
    /// Per warehouse.
    pub warehouses: Vec<WarehouseValueBody>,
    /// Per SKU and warehouse, this page.
    pub data: Vec<SkuValueBody>,
    /// SKU rows in all.
    pub total: i64,
    /// Page size.
    pub limit: i64,
    /// This page.
    pub page: i64,
    /// Number of pages.
    pub pages: i64,
}

/// Which stock to value.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct ValuationQuery {
    /// One warehouse (all when absent).
    pub warehouse_id: Option<i64>,
    /// Page.
    pub page: Option<i64>,
    /// Page size.
    pub limit: Option<i64>,
}

/// Stock value per warehouse from lot costs: at moving average cost and at the cost of the
/// lots on hand (FIFO).
#[utoipa::path(get, path = "/wms/stock-valuation", tag = "wms", params(ValuationQuery),
    responses((status = 200, body = ValuationBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn stock_valuation(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<ValuationQuery>,
) -> ApiResult<Json<ValuationBody>> {
    auth.require(VALUE_READ)?;
    let r = state
        .wms()
        .get_valuation(auth.ctx().request(pb::GetValuationRequest {
            warehouse_id: q.warehouse_id.unwrap_or(0),
            page: Some(page_request(q.page, q.limit)),
        }))
        .await?
        .into_inner();
    let page = r.page.unwrap_or_default();
    Ok(Json(ValuationBody {
        warehouses: r
            .warehouses
            .into_iter()
            .map(|w| WarehouseValueBody {
                warehouse_id: w.warehouse_id,
                on_hand: w.on_hand,
                average_value: baht(w.average_value),
                fifo_value: baht(w.fifo_value),
            })
            .collect(),
        data: r
            .skus
            .into_iter()
            .map(|s| SkuValueBody {
                warehouse_id: s.warehouse_id,
                sku_id: s.sku_id,
                sku_code: s.sku_code,
                product_name: s.product_name,
                on_hand: s.on_hand,
                average_cost: baht(s.average_cost),
                average_value: baht(s.average_value),
                fifo_value: baht(s.fifo_value),
            })
            .collect(),
        total: page.total,
        limit: page.limit,
        page: page.page,
        pages: page.pages,
    }))
}

/// Quantities to pick.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PickInput {
    /// Warehouse.
    pub warehouse_id: i64,
    /// SKUs and units.
    pub items: Vec<TransferLineInput>,
}

/// What to pick of one SKU.
#[derive(Debug, Serialize, ToSchema)]
pub struct PickBody {
    /// Warehouse.
    pub warehouse_id: i64,
    /// SKU.
    pub sku_id: i64,
    /// SKU code.
    pub sku_code: String,
    /// Product name.
    pub product_name: String,
    /// Units asked for.
    pub quantity: i64,
    /// Units no lot holds.
    pub short: i64,
    /// Lots to take, first expiry first.
    pub lots: Vec<LotTakeBody>,
}

pub(crate) fn pick_body(p: pb::Pick) -> PickBody {
    PickBody {
        warehouse_id: p.warehouse_id,
        sku_id: p.sku_id,
        sku_code: p.sku_code,
        product_name: p.product_name,
        quantity: p.quantity,
        short: p.short,
        lots: p.lots.into_iter().map(take_body).collect(),
    }
}

/// The lots to take for quantities of SKUs in a warehouse, first expiry first.
#[utoipa::path(post, path = "/wms/pick-lots", tag = "wms", request_body = PickInput,
    responses((status = 200, body = List<PickBody>), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn pick_lots(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(input): Body<PickInput>,
) -> ApiResult<Json<List<PickBody>>> {
    auth.require(MOVE_READ)?;
    let r = state
        .wms()
        .pick_lots(
            auth.ctx().request(pb::PickLotsRequest {
                warehouse_id: input.warehouse_id,
                lines: input
                    .items
                    .into_iter()
                    .map(|l| pb::StockLine { sku_id: l.sku_id, quantity: l.quantity, ..Default::default() })
                    .collect(),
                references: vec![],
            }),
        )
        .await?
        .into_inner();
    Ok(Json(List::all(r.picks.into_iter().map(pick_body).collect())))
}

/// A transfer's pick list as a printable PDF in Thai (A4): the lots to take, first expiry
/// first.
#[utoipa::path(get, path = "/wms/transfers/{id}/pick-list", tag = "wms", params(("id" = i64, Path)),
    responses((status = 200, content_type = "application/pdf"), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn transfer_pick_list(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<axum::response::Response> {
    auth.require(MOVE_READ)?;
    let r = state.wms().get_transfer(auth.ctx().request(pb::TransferRequest { id })).await?.into_inner();
    let body = transfer_body(r.transfer.unwrap_or_default(), &Default::default());
    let warehouses = state.wms().list_warehouses(auth.ctx().request(pb::ListWarehousesRequest {})).await?.into_inner();
    let name = |id: i64| warehouses.warehouses.iter().find(|w| w.id == id).map(|w| w.name.clone()).unwrap_or_default();
    let (from, to, now) = (name(body.from_warehouse_id), name(body.to_warehouse_id), bo_kit::time::now_ms());
    let file = format!("{}-pick-list", body.code);
    let bytes = crate::documents::render(move || crate::documents::pick_list(&body, &from, &to, now)).await?;
    Ok(crate::routes::receipts::pdf(bytes, &file))
}
