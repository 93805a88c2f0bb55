//! Parcels and shipping (SPEC §3 Parcels, §4 Parcel states, §7 Warehouses and parcels): the
//! packagings, an order's parcels (priced by its shipping channel, with a tracking number
//! from the carrier or the store's range), their labels (A6 or 100 × 150 mm, one order or
//! many), shipping, and a pick list for many prepared orders (lots first expiry first).

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::Code;
use bo_proto::orders::v1 as pb;
use bo_proto::wms::v1 as wpb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::documents::{self, LabelParty, ParcelLabel, PickRow};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::perms::Access;
use crate::routes::orders::{one_order, results_body, within_selection, OrderBody, OrderResultsBody, EDIT, READ};
use crate::routes::receipts::pdf;
use crate::state::AppState;
use crate::wire::{baht, kilograms, Body, Decimal, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(packagings))
        .routes(routes!(add_parcel))
        .routes(routes!(update_parcel))
        .routes(routes!(delete_parcel))
        .routes(routes!(print_parcel_label))
        .routes(routes!(print_labels))
        .routes(routes!(ship_parcels))
        .routes(routes!(order_pick_list))
}

/// Packagings: any member (they are the catalogue's).
const ANY: Access = Access { roles: &[], perms: &[] };

/// A packaging of the catalogue.
#[derive(Debug, Serialize, ToSchema)]
pub struct ParcelPackagingBody {
    pub code: String,
    pub name_th: String,
    pub name_en: String,
    /// cm.
    pub width: i64,
    pub length: i64,
    pub height: i64,
    /// What it costs, baht (the parcel's packing fee).
    pub fee: String,
}

/// The packagings a parcel can go in, smallest first.
#[utoipa::path(get, path = "/wms/packagings", tag = "orders",
    responses((status = 200, body = List<ParcelPackagingBody>)), security(("bearer" = [])))]
async fn packagings(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<List<ParcelPackagingBody>>> {
    auth.require(ANY)?;
    let rules = state.wms_rules().await?;
    Ok(Json(List::all(
        rules
            .packagings
            .iter()
            .map(|p| ParcelPackagingBody {
                code: p.code.clone(),
                name_th: p.name_th.clone(),
                name_en: p.name_en.clone(),
                width: p.width_cm,
                length: p.length_cm,
                height: p.height_cm,
                fee: baht(p.fee),
            })
            .collect(),
    )))
}

/// A parcel as sent.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ParcelInput {
    /// The order (adding only).
    pub order_id: i64,
    /// kg, at most three decimals.
    pub weight: Option<Decimal>,
    /// cm.
    pub width: i64,
    pub length: i64,
    pub height: i64,
    /// GET /wms/packagings ("" for the seller's own).
    pub packaging_code: String,
    /// As printed by the carrier; empty takes one from the carrier or the store's range.
    pub tracking_no: String,
}

impl ParcelInput {
    fn draft(&self) -> ApiResult<pb::ParcelDraft> {
        let weight_g = match &self.weight {
            None => return Err(ApiError::invalid_field("weight", "validation.required")),
            Some(w) => w.grams().ok_or_else(|| ApiError::invalid_field("weight", "validation.weight"))?,
        };
        Ok(pb::ParcelDraft {
            weight_g,
            width_cm: self.width,
            length_cm: self.length,
            height_cm: self.height,
            packaging_code: self.packaging_code.clone(),
            tracking_no: self.tracking_no.clone(),
        })
    }
}

/// Adds a parcel to a prepared order: priced by the order's shipping channel (with the COD
/// and packing fees) and given a tracking number from the carrier (a Flash Express booking)
/// or the store's range, unless one is typed. Answers the order.
#[utoipa::path(post, path = "/wms/parcels/in-store", tag = "orders", request_body = ParcelInput,
    responses((status = 201, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "order_not_ready, order_without_logistic_channel, parcel_limit_reached"),
        (status = 422, body = ErrorBody), (status = 503, body = ErrorBody, description = "the carrier did not answer")),
    security(("bearer" = [])))]
async fn add_parcel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<ParcelInput>,
) -> ApiResult<(StatusCode, Json<OrderBody>)> {
    auth.require(EDIT)?;
    let parcel = b.draft()?;
    let r = state
        .orders()
        .add_parcel(auth.ctx().request(pb::AddParcelRequest { order_id: b.order_id, parcel: Some(parcel) }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(one_order(&state, &auth, r).await?)))
}

/// Changes a pending parcel (priced again). Answers its order.
#[utoipa::path(put, path = "/wms/parcels/{id}/in-store", tag = "orders", params(("id" = i64, Path)), request_body = ParcelInput,
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "parcel_shipped, order_not_ready"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_parcel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<ParcelInput>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(EDIT)?;
    let parcel = b.draft()?;
    let r = state
        .orders()
        .update_parcel(auth.ctx().request(pb::UpdateParcelRequest { id, parcel: Some(parcel) }))
        .await?
        .into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// Removes a pending parcel (its carrier booking is cancelled first). Answers its order.
#[utoipa::path(delete, path = "/wms/parcels/{id}", tag = "orders", params(("id" = i64, Path)),
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "parcel_shipped")),
    security(("bearer" = [])))]
async fn delete_parcel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(EDIT)?;
    let r = state.orders().delete_parcel(auth.ctx().request(pb::DeleteParcelRequest { id })).await?.into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// The label's size.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct LabelQuery {
    /// a6 (105 × 148 mm, the default) or 100x150.
    pub size: Option<String>,
}

fn label_size(size: Option<&str>) -> ApiResult<(f32, f32)> {
    match size.unwrap_or("a6").trim().to_ascii_lowercase().as_str() {
        "" | "a6" => Ok(documents::A6),
        "100x150" => Ok(documents::THERMAL),
        _ => Err(ApiError::invalid_field("size", "validation.label_size")),
    }
}

/// A carrier's Thai name, from the logistics service's catalogue (the provider's code when it
/// is not one).
fn carrier_name(carriers: &[bo_proto::logistics::v1::Carrier], provider: &str) -> String {
    carriers.iter().find(|c| c.code == provider).map(|c| c.name_th.clone()).unwrap_or_else(|| provider.to_string())
}

/// The labels of the parcels of `orders` (only `only` when given), in order.
async fn labels_of(
    state: &AppState,
    auth: &StoreAuth,
    orders: &[pb::Order],
    only: &[i64],
) -> ApiResult<(Vec<ParcelLabel>, Vec<i64>)> {
    use bo_proto::stores::v1 as spb;
    let store = state
        .stores()
        .get_store(auth.ctx().request(spb::GetStoreRequest {}))
        .await?
        .into_inner()
        .store
        .unwrap_or_default();
    let sender = LabelParty {
        name: store.name.clone(),
        tel: store.tel.clone(),
        lines: vec![[store.address.as_str(), &store.sub_district, &store.district, &store.province, &store.postcode]
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ")],
        postcode: store.postcode.clone(),
    };
    let carriers = &state.logistic_rules().await?.carriers;
    let mut labels = Vec::new();
    let mut ids = Vec::new();
    for o in orders {
        let a = o.shipping_address.clone().unwrap_or_default();
        let place = if a.country.is_empty() || a.country == "TH" {
            [a.sub_district.as_str(), &a.district, &a.state_province]
                .iter()
                .filter(|s| !s.is_empty())
                .cloned()
                .collect::<Vec<_>>()
                .join(" ")
        } else {
            [a.city.as_str(), &a.state_province, &a.country]
                .iter()
                .filter(|s| !s.is_empty())
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        };
        let receiver = LabelParty {
            name: a.name.clone(),
            tel: a.tel.clone(),
            lines: [a.address.clone(), place].into_iter().filter(|s| !s.is_empty()).collect(),
            postcode: a.postcode.clone(),
        };
        let contents = o.items.iter().map(|i| format!("{} ×{}", i.sku_code, i.quantity)).collect::<Vec<_>>().join(", ");
        let n = o.parcels.len();
        for (k, p) in o.parcels.iter().enumerate() {
            if !only.is_empty() && !only.contains(&p.id) {
                continue;
            }
            ids.push(p.id);
            labels.push(ParcelLabel {
                order_no: o.order_no.clone(),
                tracking_no: p.tracking_no.clone(),
                carrier: if o.shipping_name.is_empty() {
                    carrier_name(carriers, &p.provider)
                } else {
                    format!("{} · {}", carrier_name(carriers, &p.provider), o.shipping_name)
                },
                sender: sender.clone(),
                receiver: receiver.clone(),
                cod: (p.cod_amount > 0).then(|| bo_pdf::fmt::baht(p.cod_amount)),
                weight: kilograms(p.weight_g),
                index: (k + 1, n),
                contents: contents.clone(),
            });
        }
    }
    Ok((labels, ids))
}

async fn orders_of(state: &AppState, auth: &StoreAuth, ids: Vec<i64>) -> ApiResult<Vec<pb::Order>> {
    Ok(state.orders().get_orders(auth.ctx().request(pb::GetOrdersRequest { ids })).await?.into_inner().orders)
}

/// One parcel's label (PDF), recorded as printed.
#[utoipa::path(post, path = "/wms/parcels/{id}/print-label", tag = "orders", params(("id" = i64, Path), LabelQuery),
    responses((status = 200, content_type = "application/pdf"), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn print_parcel_label(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Query(q): Query<LabelQuery>,
) -> ApiResult<axum::response::Response> {
    auth.require(READ)?;
    let size = label_size(q.size.as_deref())?;
    let parcel = state
        .wms()
        .list_parcels(auth.ctx().request(wpb::ListParcelsRequest { order_ids: vec![], ids: vec![id] }))
        .await?
        .into_inner()
        .parcels
        .pop()
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, Code::ParcelNotFound))?;
    let orders = orders_of(&state, &auth, vec![parcel.order_id]).await?;
    let (labels, ids) = labels_of(&state, &auth, &orders, &[id]).await?;
    state.orders().mark_labels_printed(auth.ctx().request(pb::MarkLabelsPrintedRequest { parcel_ids: ids })).await?;
    let name =
        labels.first().map(|l| if l.tracking_no.is_empty() { l.order_no.clone() } else { l.tracking_no.clone() });
    let now = bo_kit::time::now_ms();
    let bytes = documents::render(move || documents::parcel_labels(&labels, size, now)).await?;
    Ok(pdf(bytes, &name.unwrap_or_else(|| "label".into())))
}

/// Which labels to print at once.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PrintLabelsInput {
    /// Every parcel of these orders.
    pub order_ids: Vec<i64>,
    /// a6 or 100x150.
    pub size: Option<String>,
}

/// The labels of every parcel of many orders in one PDF (the /print-label screen), recorded
/// as printed.
#[utoipa::path(post, path = "/wms/parcels/print-labels", tag = "orders", request_body = PrintLabelsInput,
    responses((status = 200, content_type = "application/pdf"), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "parcel_required: none of the orders has a parcel"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn print_labels(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<PrintLabelsInput>,
) -> ApiResult<axum::response::Response> {
    auth.require(READ)?;
    let size = label_size(b.size.as_deref())?;
    if b.order_ids.is_empty() {
        return Err(ApiError::invalid_field("order_ids", "validation.required"));
    }
    within_selection(&state, "order_ids", b.order_ids.len()).await?;
    let orders = orders_of(&state, &auth, b.order_ids).await?;
    let (labels, ids) = labels_of(&state, &auth, &orders, &[]).await?;
    if labels.is_empty() {
        return Err(ApiError::new(StatusCode::CONFLICT, Code::ParcelRequired));
    }
    state.orders().mark_labels_printed(auth.ctx().request(pb::MarkLabelsPrintedRequest { parcel_ids: ids })).await?;
    let now = bo_kit::time::now_ms();
    Ok(pdf(documents::render(move || documents::parcel_labels(&labels, size, now)).await?, "labels"))
}

/// Orders to ship or pick.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ShipInput {
    /// Prepared orders (at most the selection limit).
    pub order_ids: Vec<i64>,
}

/// Ships prepared orders with their parcels, each on its own: the stock leaves the shelf and
/// the order becomes shipped with its tracking numbers. An order without a parcel, or with
/// a parcel without a tracking number, stays with its reason.
#[utoipa::path(post, path = "/wms/parcels/ship/in-store", tag = "orders", request_body = ShipInput,
    responses((status = 200, body = OrderResultsBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn ship_parcels(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<ShipInput>,
) -> ApiResult<Json<OrderResultsBody>> {
    auth.require(EDIT)?;
    within_selection(&state, "order_ids", b.order_ids.len()).await?;
    let r = state
        .orders()
        .ship_orders(auth.ctx().request(pb::ShipOrdersRequest { order_ids: b.order_ids }))
        .await?
        .into_inner();
    Ok(Json(results_body(r)))
}

/// One pick list (A4 PDF) for many orders: for each SKU the lots to take, first expiry
/// first, as wms holds them for those orders.
#[utoipa::path(post, path = "/orders/pick-list", tag = "orders", request_body = ShipInput,
    responses((status = 200, content_type = "application/pdf"), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn order_pick_list(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<ShipInput>,
) -> ApiResult<axum::response::Response> {
    auth.require(READ)?;
    if b.order_ids.is_empty() {
        return Err(ApiError::invalid_field("order_ids", "validation.required"));
    }
    within_selection(&state, "order_ids", b.order_ids.len()).await?;
    let orders = orders_of(&state, &auth, b.order_ids).await?;
    let references: Vec<String> = orders.iter().map(|o| o.stock_reference.clone()).collect();
    let picks = state
        .wms()
        .pick_lots(auth.ctx().request(wpb::PickLotsRequest { warehouse_id: 0, lines: vec![], references }))
        .await?
        .into_inner()
        .picks;
    let mut rows = Vec::new();
    let mut total = 0;
    for (i, p) in picks.iter().enumerate() {
        total += p.quantity;
        for lot in &p.lots {
            rows.push(PickRow {
                line: i + 1,
                sku_code: p.sku_code.clone(),
                product_name: p.product_name.clone(),
                lot_code: lot.lot_code.clone(),
                expires: (lot.expires_at_ms > 0)
                    .then(|| crate::routes::receipts::bangkok_date_time(lot.expires_at_ms).0),
                quantity: lot.quantity,
            });
        }
    }
    let numbers: Vec<String> = orders.iter().map(|o| o.order_no.clone()).collect();
    let code = format!("PK-{}", numbers.first().cloned().unwrap_or_default());
    let head = vec![format!("{} คำสั่งซื้อ: {}", orders.len(), numbers.join(", "))];
    let now = bo_kit::time::now_ms();
    let bytes = documents::render(move || {
        documents::pick_sheet(&code, &head, &rows, total, ["ผู้หยิบสินค้า", "ผู้ตรวจสอบ", "ผู้แพ็กสินค้า"], now)
    })
    .await?;
    Ok(pdf(bytes, "pick-list"))
}
