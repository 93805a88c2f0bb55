//! Order spreadsheets in. Order import (SPEC §2 /order-import, §5 "Order import", §7 `POST
//! /orders/excel/import`, multipart, answering data and errors; §8 wrong template, wrong
//! file type): a .csv or .xlsx of orders is read and checked first (a dry run: nothing is
//! saved), then imported; the template is offered with Thai or English headers. Whoever
//! creates orders may import them. Import of inadequate goods (SPEC §2 order list, §5 one
//! warehouse at a time, §8 'Inadequate goods aren't found'): what short orders of a
//! warehouse wait for, and a file of arriving quantities received into its stock, which
//! fills them; it takes changing orders and adjusting stock.

use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::IntoResponse;
use axum::Json;
use bo_proto::orders::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::idempotency::{self, Deferred};
use crate::perms::{keys, Access};
use crate::routes::orders::{CREATE, EDIT, READ};
use crate::routes::products::ImportRowErrorBody;
use crate::state::AppState;
use crate::uploads::FileForm;
use crate::wire::{baht, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(import_orders).layer(axum::extract::DefaultBodyLimit::max(crate::uploads::FILE_FORM_LIMIT)))
        .routes(routes!(import_template))
        .routes(routes!(shortages))
        .routes(routes!(receive_arrivals).layer(axum::extract::DefaultBodyLimit::max(crate::uploads::FILE_FORM_LIMIT)))
}

/// Stock comes in with the arrivals: whoever may adjust stock.
const STOCK_IN: Access = Access { roles: &[], perms: &[keys::WMS_GOODS_ADJUST_CREATE] };

/// An order the file makes (or made).
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportedOrderBody {
    pub reference: String,
    /// Its rows in the file.
    pub rows: Vec<i64>,
    pub name: String,
    pub tel: String,
    pub province: String,
    /// Lines.
    pub lines: i64,
    /// Units of all lines.
    pub quantity: i64,
    /// What it comes to, baht.
    pub total: String,
    /// The order made (absent on a dry run).
    pub order_id: Option<i64>,
    pub order_no: Option<String>,
    /// The address is complete enough to ship (else the order waits for it).
    pub address_complete: bool,
}

/// A row that makes no order, as it was in the file.
#[derive(Debug, Serialize, ToSchema)]
pub struct FailedRowBody {
    pub row: i64,
    /// Its cells under the file's header.
    pub cells: Vec<String>,
}

/// What an import read and did.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderImportData {
    /// The orders the good rows make (or made).
    pub orders: Vec<ImportedOrderBody>,
    /// Data rows read.
    pub rows: i64,
    /// Orders made (0 on a dry run).
    pub created: i64,
    /// The file's header.
    pub header: Vec<String>,
    /// Rows that make no order (their reasons are in `errors`).
    pub failed_rows: Vec<FailedRowBody>,
}

/// An import's answer: `data` and per-row `errors` (SPEC §3 "Import results carry data and errors").
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderImportBody {
    pub data: OrderImportData,
    pub errors: Vec<ImportRowErrorBody>,
}

/// The multipart form of an order import.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct OrderImportForm {
    /// The .csv or .xlsx file (at most 10 MB and 10,000 rows).
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
    /// Sales channel code of every order (GET /orders/channels).
    pub channel: String,
    /// Warehouse every order takes its stock from.
    pub warehouse_id: i64,
    /// Only read and check (the preview).
    pub dry_run: Option<bool>,
}

/// Imports orders from a .csv or .xlsx file (multipart: file, channel, warehouse_id,
/// dry_run). Rows sharing a reference are one order; an order with a problem on any row is
/// not made and its rows come back in `failed_rows` with their reasons in `errors`. A
/// reference the store already has on the channel is a duplicate ('duplicate order
/// reference'), so the same file twice makes nothing the second time. A file without the
/// template's columns answers 422 `import_wrong_template`.
#[utoipa::path(post, path = "/orders/excel/import", tag = "orders",
    request_body(content = OrderImportForm, content_type = "multipart/form-data"),
    responses((status = 200, body = OrderImportBody), (status = 403, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "import_wrong_template, import_wrong_file_type, import_empty, import_too_many_rows, or a field's rule")),
    security(("bearer" = [])))]
async fn import_orders(
    State(state): State<AppState>,
    auth: StoreAuth,
    key: Option<axum::Extension<Deferred>>,
    mut form: axum::extract::Multipart,
) -> ApiResult<axum::response::Response> {
    auth.require(CREATE)?;
    let max = state.order_rules().await?.import_file_bytes as u64;
    let f = FileForm::read(
        state.files.clone(),
        auth.store_id,
        &mut form,
        max,
        "import_too_large",
        &[".csv", ".xlsx"],
        &["channel", "warehouse_id"],
    )
    .await?;
    let (channel, warehouse_id, dry_run) = (f.text("channel"), f.number("warehouse_id"), f.dry_run);
    let mut staged = f.staged;
    let mut missing = Vec::new();
    if channel.is_empty() {
        missing.push(bo_kit::FieldError::new("channel", "validation.required"));
    }
    if warehouse_id <= 0 {
        missing.push(bo_kit::FieldError::new("warehouse_id", "validation.required"));
    }
    if !missing.is_empty() {
        return Err(bo_kit::Error::invalid(missing).into());
    }
    let form = staged.digest();
    let act = async {
        let upload = staged.hand_over().pop().unwrap_or_default();
        let r = state
            .orders()
            .import_orders(auth.ctx().request(pb::ImportOrdersRequest { upload, channel, warehouse_id, dry_run }))
            .await?
            .into_inner();
        Ok(Json(import_body(r)))
    };
    Ok(idempotency::deferred(&state, &auth, key.map(|k| k.0), &form, act).await)
}

fn import_body(r: pb::ImportOrdersResponse) -> OrderImportBody {
    OrderImportBody {
        data: OrderImportData {
            orders: r
                .orders
                .into_iter()
                .map(|o| ImportedOrderBody {
                    reference: o.reference,
                    rows: o.rows,
                    name: o.name,
                    tel: o.tel,
                    province: o.province,
                    lines: o.lines,
                    quantity: o.quantity,
                    total: baht(o.total),
                    order_id: (o.order_id > 0).then_some(o.order_id),
                    order_no: (!o.order_no.is_empty()).then_some(o.order_no),
                    address_complete: o.address_complete,
                })
                .collect(),
            rows: r.rows,
            created: r.created,
            header: r.header,
            failed_rows: r.failed_rows.into_iter().map(|f| FailedRowBody { row: f.row, cells: f.cells }).collect(),
        },
        errors: r.errors.into_iter().map(|e| ImportRowErrorBody { row: e.row, field: e.field, code: e.code }).collect(),
    }
}

/// The template's language.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct TemplateQuery {
    /// th (default) or en.
    pub lang: Option<String>,
}

/// The order import template (.xlsx): the columns with Thai or English headers (required
/// ones starred) and an example order of two lines.
#[utoipa::path(get, path = "/orders/excel/template", tag = "orders", params(TemplateQuery),
    responses((status = 200, description = "the template",
        content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
async fn import_template(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<TemplateQuery>,
) -> ApiResult<axum::response::Response> {
    auth.require(CREATE)?;
    let lang = if q.lang.as_deref() == Some("en") { "en" } else { "th" };
    let bytes = state
        .orders()
        .get_import_template(auth.ctx().request(pb::GetImportTemplateRequest { lang: lang.into() }))
        .await?
        .into_inner()
        .content;
    let mut res = bytes.into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
    let name = if lang == "en" { "order-import-template.xlsx" } else { "order-import-template-th.xlsx" };
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(res)
}

/// The warehouse whose short orders to look at.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct ShortagesQuery {
    /// One warehouse at a time (SPEC §5).
    #[serde(rename = "warehouse-id")]
    #[param(rename = "warehouse-id")]
    pub warehouse_id: i64,
}

/// What short orders need of one SKU in the warehouse.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShortageBody {
    pub sku_id: i64,
    pub sku_code: String,
    pub product_name: String,
    pub variant: String,
    /// Units the short orders ask for.
    pub needed: i64,
    /// Units available now.
    pub available: i64,
    /// Units to bring in for every short order to be filled.
    pub missing: i64,
    /// Short orders waiting for it.
    pub orders: i64,
}

fn shortage_body(s: pb::Shortage) -> ShortageBody {
    ShortageBody {
        sku_id: s.sku_id,
        sku_code: s.sku_code,
        product_name: s.product_name,
        variant: s.variant,
        needed: s.needed,
        available: s.available,
        missing: s.missing,
        orders: s.orders,
    }
}

/// The SKUs short orders of a warehouse wait for.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShortagesBody {
    /// By SKU code; empty when no order is short there ('Inadequate goods aren't found').
    pub data: Vec<ShortageBody>,
}

/// What the short orders of one warehouse wait for, SKU by SKU: how many units they ask
/// for, how many are available, how many are missing.
#[utoipa::path(get, path = "/orders/inadequate-goods", tag = "orders", params(ShortagesQuery),
    responses((status = 200, body = ShortagesBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn shortages(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<ShortagesQuery>,
) -> ApiResult<Json<ShortagesBody>> {
    auth.require(READ)?;
    if q.warehouse_id <= 0 {
        return Err(ApiError::invalid_field("warehouse_id", "validation.required"));
    }
    let r = state
        .orders()
        .list_shortages(auth.ctx().request(pb::ListShortagesRequest { warehouse_id: q.warehouse_id }))
        .await?
        .into_inner();
    Ok(Json(ShortagesBody { data: r.shortages.into_iter().map(shortage_body).collect() }))
}

/// Goods of one SKU arriving.
#[derive(Debug, Serialize, ToSchema)]
pub struct ArrivalBody {
    pub shortage: ShortageBody,
    /// Units arriving.
    pub quantity: i64,
    /// Its rows in the file.
    pub rows: Vec<i64>,
}

/// What an import of arriving goods read and did.
#[derive(Debug, Serialize, ToSchema)]
pub struct ArrivalsData {
    /// What arrives (or arrived).
    pub lines: Vec<ArrivalBody>,
    /// Orders filled.
    pub filled: Vec<i64>,
    /// Orders still short.
    pub short: Vec<i64>,
    /// The file had been received before: nothing was added again.
    pub replayed: bool,
}

/// The answer: `data` and per-row `errors`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ArrivalsBody {
    pub data: ArrivalsData,
    pub errors: Vec<ImportRowErrorBody>,
}

/// The multipart form of arriving goods.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ArrivalsForm {
    /// .csv or .xlsx with a SKU code column and an arriving quantity column (at most 2 MB).
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
    /// The warehouse the goods arrive at.
    pub warehouse_id: i64,
    /// Only read and check.
    pub dry_run: Option<bool>,
}

/// Imports inadequate goods: a file of quantities arriving at one warehouse for its short
/// orders (the list `GET /orders/inadequate-goods` gives, with a quantity column) is read
/// and, unless dry_run, received into the warehouse's stock; the short orders are then
/// filled, oldest first. A SKU no short order waits for is named, not received; the same
/// file twice is received once. 409 `inadequate_goods_not_found` when no order is short.
#[utoipa::path(post, path = "/orders/inadequate-goods/import", tag = "orders",
    request_body(content = ArrivalsForm, content_type = "multipart/form-data"),
    responses((status = 200, body = ArrivalsBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "inadequate_goods_not_found"),
        (status = 413, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn receive_arrivals(
    State(state): State<AppState>,
    auth: StoreAuth,
    key: Option<axum::Extension<Deferred>>,
    mut form: axum::extract::Multipart,
) -> ApiResult<axum::response::Response> {
    auth.require(EDIT)?;
    auth.require(STOCK_IN)?;
    let max = state.order_rules().await?.arrivals_file_bytes as u64;
    let f = FileForm::read(
        state.files.clone(),
        auth.store_id,
        &mut form,
        max,
        "import_too_large",
        &[".csv", ".xlsx"],
        &["warehouse_id"],
    )
    .await?;
    let (warehouse_id, dry_run) = (f.number("warehouse_id"), f.dry_run);
    let mut staged = f.staged;
    if warehouse_id <= 0 {
        return Err(ApiError::invalid_field("warehouse_id", "validation.required"));
    }
    let form = staged.digest();
    let act = async {
        let upload = staged.hand_over().pop().unwrap_or_default();
        let r = state
            .orders()
            .receive_arrivals(auth.ctx().request(pb::ReceiveArrivalsRequest { upload, warehouse_id, dry_run }))
            .await?
            .into_inner();
        Ok(Json(ArrivalsBody {
            data: ArrivalsData {
                lines: r
                    .lines
                    .into_iter()
                    .map(|l| ArrivalBody {
                        shortage: shortage_body(l.shortage.unwrap_or_default()),
                        quantity: l.quantity,
                        rows: l.rows,
                    })
                    .collect(),
                filled: r.filled,
                short: r.short,
                replayed: r.replayed,
            },
            errors: r
                .errors
                .into_iter()
                .map(|e| ImportRowErrorBody { row: e.row, field: e.field, code: e.code })
                .collect(),
        }))
    };
    Ok(idempotency::deferred(&state, &auth, key.map(|k| k.0), &form, act).await)
}
