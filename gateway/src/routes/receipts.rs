//! Goods receipts (SPEC §2 Stock, §3 Goods receipt, §4, §5, §7 Goods receipts): drafts of
//! goods coming in, sent to the warehouse, counted at QC, approved into stock as lots or
//! rejected with a reason; the printed receipt and the SKU labels.
//!
//! Money travels as baht text, weights as kilogram text, dates as `YYYY-MM-DD` and times as
//! `HH:MM` in Thailand's time (UTC+7). A line is written in a unit of the store (a carton of
//! 12) or in the SKU's own piece; QC counts are in pieces.

use bo_kit::Code;
use std::collections::HashMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::{ms_to_rfc3339, timestamp_to_rfc3339};
use bo_kit::FieldError;
use bo_proto::wms::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::state::AppState;
use crate::wire::{baht, enum_field, kilograms, page_request, word, Body, Decimal, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_goods_receipts, create_goods_receipt))
        .routes(routes!(get_goods_receipt, update_goods_receipt, delete_goods_receipt))
        .routes(routes!(send_goods_receipt))
        .routes(routes!(check_goods_receipt))
        .routes(routes!(approve_goods_receipt))
        .routes(routes!(reject_goods_receipt))
        .routes(routes!(shelve_goods_receipt))
        .routes(routes!(print_goods_receipt))
        .routes(routes!(goods_receipt_labels))
}

pub(crate) const READ: Access = Access { roles: &[], perms: &[keys::WMS_GOODS_RECEIPT_READ] };
const CREATE: Access = Access { roles: &[], perms: &[keys::WMS_GOODS_RECEIPT_CREATE] };
const EDIT: Access = Access { roles: &[], perms: &[keys::WMS_GOODS_RECEIPT_EDIT] };
const SEND: Access = Access { roles: &[], perms: &[keys::WMS_GOODS_RECEIPT_CREATE, keys::WMS_GOODS_RECEIPT_EDIT] };
const DELETE: Access = Access { roles: &[], perms: &[keys::WMS_GOODS_RECEIPT_DELETE] };
const APPROVE: Access = Access { roles: &[], perms: &[keys::WMS_GOODS_RECEIPT_APPROVE] };

/// Thailand's offset from UTC, seconds.
const BANGKOK: i64 = 7 * 3600;

/// `YYYY-MM-DD` (and `HH:MM`) in Thailand as unix ms.
pub(crate) fn bangkok_ms(date: &str, hm: &str) -> Option<i64> {
    let fmt = time::macros::format_description!("[year]-[month]-[day]");
    let d = time::Date::parse(date.trim(), &fmt).ok()?;
    let (h, m) = if hm.trim().is_empty() {
        (0, 0)
    } else {
        let (h, m) = hm.trim().split_once(':')?;
        (h.parse::<u8>().ok()?, m.get(..2).unwrap_or(m).parse::<u8>().ok()?)
    };
    let t = time::Time::from_hms(h, m, 0).ok()?;
    Some((d.with_time(t).assume_utc().unix_timestamp() - BANGKOK) * 1000)
}

/// Unix ms as (`YYYY-MM-DD`, `HH:MM`) in Thailand.
pub(crate) fn bangkok_date_time(ms: i64) -> (String, String) {
    let t = time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000) + BANGKOK)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    (format!("{:04}-{:02}-{:02}", t.year(), u8::from(t.month()), t.day()), format!("{:02}:{:02}", t.hour(), t.minute()))
}

/// Size: centimetres, and weight in kilograms.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default, Clone)]
#[serde(default)]
pub struct DimensionBody {
    /// Width, cm.
    pub width: i64,
    /// Length, cm.
    pub length: i64,
    /// Height, cm.
    pub height: i64,
    /// Weight, kg ("0.250").
    #[schema(value_type = String)]
    pub weight: Option<Decimal>,
}

impl DimensionBody {
    fn to_proto(&self, at: &str, errs: &mut Vec<FieldError>) -> pb::Dimension {
        let weight_g = match &self.weight {
            None => 0,
            Some(w) => w.grams().unwrap_or_else(|| {
                errs.push(FieldError::new(format!("{at}.dimension.weight"), "validation.weight"));
                0
            }),
        };
        pb::Dimension { width_cm: self.width, length_cm: self.length, height_cm: self.height, weight_g }
    }

    fn from_proto(d: Option<pb::Dimension>) -> Self {
        let d = d.unwrap_or_default();
        DimensionBody {
            width: d.width_cm,
            length: d.length_cm,
            height: d.height_cm,
            weight: Some(Decimal::Text(kilograms(d.weight_g))),
        }
    }
}

/// A line of a receipt as written.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ReceiptLineInput {
    /// SKU (product receipts).
    pub sku_id: i64,
    /// What it is (parcel and material receipts).
    pub name: String,
    /// Size.
    pub dimension: Option<DimensionBody>,
    /// Cost of one unit of the line's unit, baht.
    #[schema(value_type = String)]
    pub cost: Option<Decimal>,
    /// Units asked for.
    pub request_qty: i64,
    /// Expiry date, `YYYY-MM-DD` (empty for none).
    pub expired_at: Option<String>,
    /// The store's unit of measurement it is counted in (absent or 0: pieces).
    pub unit_id: Option<i64>,
    /// Print SKU labels for it.
    pub print_label: bool,
}

/// Something the goods arrive in.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PackagingBody {
    /// What (box, pallet, bag…).
    pub name: String,
    /// How many.
    pub quantity: i64,
    /// Size.
    pub dimension: Option<DimensionBody>,
}

/// Where the warehouse picks the goods up.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PickUpBody {
    /// Address.
    pub address: String,
    /// Telephone, 9 or 10 digits.
    pub tel: String,
    /// Expected pick-up time, RFC 3339.
    pub expected_picked_up_at: String,
}

/// A goods receipt draft (create and edit send it whole).
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct GoodsReceiptInput {
    /// product, parcel or material (create only; an edit keeps it).
    pub r#type: String,
    /// Receiving warehouse.
    pub warehouse_id: i64,
    /// Expected received date, `YYYY-MM-DD` (required).
    pub expected_received_date: String,
    /// Expected received time, `HH:MM`.
    pub expected_received_time: String,
    /// Note, up to 500 characters.
    pub note: String,
    /// The warehouse picks the goods up.
    pub is_pick_up: bool,
    /// Pick-up detail (when `is_pick_up`).
    pub pick_up: Option<PickUpBody>,
    /// Lines.
    #[serde(alias = "items")]
    pub products: Vec<ReceiptLineInput>,
    /// Packagings.
    pub packagings: Vec<PackagingBody>,
    /// Options: label_sku, repack, inspect_every_unit.
    pub options: Vec<String>,
}

/// A store unit, as a line snapshots it.
#[derive(Debug, Serialize, ToSchema, Default)]
pub struct LineUnitBody {
    /// The store's unit (0: pieces).
    pub id: i64,
    /// Its name (empty: pieces).
    pub name: String,
    /// Pieces in one.
    pub quantity: i64,
}

/// A line of a receipt.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReceiptLineBody {
    /// Line id.
    pub id: i64,
    /// SKU (0 on parcel and material receipts).
    pub sku_id: i64,
    /// Product.
    pub product_id: i64,
    /// Product name when written.
    pub product_name: String,
    /// SKU code.
    pub sku_code: String,
    /// Barcode.
    pub barcode: String,
    /// Variant option 1.
    pub option1: String,
    /// Variant option 2.
    pub option2: String,
    /// What it is (parcel and material lines).
    pub name: String,
    /// Size.
    pub dimension: DimensionBody,
    /// Cost of one unit, baht.
    pub cost: String,
    /// Units asked for.
    pub request_qty: i64,
    /// Pieces asked for.
    pub request_base_qty: i64,
    /// Pieces counted in at QC.
    pub receive_qty: i64,
    /// Pieces found defective.
    pub defect_qty: i64,
    /// Pieces that went (or go) on hand.
    pub good_qty: i64,
    /// Expiry date, `YYYY-MM-DD` (null for none).
    pub expired_at: Option<String>,
    /// The unit.
    pub unit: LineUnitBody,
    /// Print SKU labels for it.
    pub print_label: bool,
    /// complete, incomplete, no_product or excess_product (empty before QC).
    pub status: String,
}

/// A goods receipt.
#[derive(Debug, Serialize, ToSchema)]
pub struct GoodsReceiptBody {
    /// Id.
    pub id: i64,
    /// Code (GR + Buddhist-era year + number).
    pub code: String,
    /// product, parcel or material.
    pub r#type: String,
    /// draft, pending, received, approved, rejected, shelving or shelved.
    pub state: String,
    /// Receiving warehouse.
    pub warehouse_id: i64,
    /// Its name.
    pub warehouse_name: String,
    /// Expected arrival, RFC 3339.
    pub expected_received_at: String,
    /// Expected arrival date in Thailand.
    pub expected_received_date: String,
    /// Expected arrival time in Thailand.
    pub expected_received_time: String,
    /// Note.
    pub note: String,
    /// Picked up by the warehouse.
    pub is_pick_up: bool,
    /// Pick-up detail.
    pub pick_up_detail: Option<PickUpBody>,
    /// Lines (empty in lists).
    pub items: Vec<ReceiptLineBody>,
    /// Packagings.
    pub packagings: Vec<PackagingBody>,
    /// Options.
    pub options: Vec<String>,
    /// Why it was rejected.
    pub reject_reason: String,
    /// Number of lines.
    pub line_count: i64,
    /// Σ cost × units asked, baht.
    pub total_cost: String,
    /// Pieces asked for.
    pub total_request_qty: i64,
    /// Who created it.
    pub created_by: i64,
    /// Their name.
    pub created_by_name: String,
    /// Who last printed it (0 never).
    pub printed_by: i64,
    /// Who counted it at QC.
    pub checked_by: i64,
    /// Who approved or rejected it.
    pub decided_by: i64,
    /// Their name.
    pub decided_by_name: String,
    /// When it was approved or rejected, RFC 3339 (null before).
    pub decided_at: Option<String>,
    /// Created, RFC 3339.
    pub created_at: String,
    /// Last change, RFC 3339.
    pub updated_at: String,
    /// The order whose returned goods it received (0 for a receipt made here).
    pub order_id: i64,
}

fn line_body(l: pb::ReceiptLine) -> ReceiptLineBody {
    let unit = l.unit.unwrap_or_default();
    ReceiptLineBody {
        id: l.id,
        sku_id: l.sku_id,
        product_id: l.product_id,
        product_name: l.product_name,
        sku_code: l.sku_code,
        barcode: l.barcode,
        option1: l.option1,
        option2: l.option2,
        name: l.name,
        dimension: DimensionBody::from_proto(l.dimension),
        cost: baht(l.cost),
        request_qty: l.request_qty,
        request_base_qty: l.request_base_qty,
        receive_qty: l.receive_qty,
        defect_qty: l.defect_qty,
        good_qty: (l.receive_qty - l.defect_qty).max(0),
        expired_at: (l.expires_at_ms > 0).then(|| bangkok_date_time(l.expires_at_ms).0),
        unit: LineUnitBody { id: unit.unit_id, name: unit.name, quantity: unit.quantity.max(1) },
        print_label: l.print_label,
        status: word::<pb::LineOutcome>(l.status),
    }
}

pub(crate) fn receipt_body(r: pb::GoodsReceipt, names: &HashMap<i64, String>) -> GoodsReceiptBody {
    let d = r.draft.unwrap_or_default();
    let (date, hm) = bangkok_date_time(d.expected_received_at_ms);
    let name = |id: i64| names.get(&id).cloned().unwrap_or_default();
    GoodsReceiptBody {
        id: r.id,
        code: r.code,
        r#type: d.r#type,
        state: word::<pb::GoodsReceiptState>(r.state),
        warehouse_id: d.warehouse_id,
        warehouse_name: r.warehouse_name,
        expected_received_at: ms_to_rfc3339(d.expected_received_at_ms),
        expected_received_date: date,
        expected_received_time: hm,
        note: d.note,
        is_pick_up: d.is_pick_up,
        pick_up_detail: d.pick_up.map(|p| PickUpBody {
            address: p.address,
            tel: p.tel,
            expected_picked_up_at: ms_to_rfc3339(p.expected_picked_up_at_ms),
        }),
        items: r.lines.into_iter().map(line_body).collect(),
        packagings: d
            .packagings
            .into_iter()
            .map(|p| PackagingBody {
                name: p.name,
                quantity: p.quantity,
                dimension: Some(DimensionBody::from_proto(p.dimension)),
            })
            .collect(),
        options: d.options,
        reject_reason: r.reject_reason,
        line_count: r.line_count,
        total_cost: baht(r.total_cost),
        total_request_qty: r.total_request_qty,
        created_by: r.created_by,
        created_by_name: name(r.created_by),
        printed_by: r.printed_by,
        checked_by: r.checked_by,
        decided_by: r.decided_by,
        decided_by_name: name(r.decided_by),
        decided_at: (r.decided_at_ms > 0).then(|| ms_to_rfc3339(r.decided_at_ms)),
        created_at: timestamp_to_rfc3339(r.create_time.as_ref()),
        updated_at: timestamp_to_rfc3339(r.update_time.as_ref()),
        order_id: r.order_id,
    }
}

/// The names of the store's members, by user id (for who did what).
pub(crate) async fn member_names(state: &AppState, auth: &StoreAuth) -> ApiResult<HashMap<i64, String>> {
    use bo_proto::stores::v1 as spb;
    let members = state
        .stores()
        .list_members(auth.ctx().request(spb::ListMembersRequest {
            page: Some(page_request(None, Some(-1))),
            status: spb::MemberStatus::Unspecified.into(),
            search: String::new(),
        }))
        .await?
        .into_inner()
        .memberships;
    Ok(members
        .into_iter()
        .map(|m| {
            let u = m.user.unwrap_or_default();
            (m.user_id, format!("{} {}", u.first_name, u.last_name).trim().to_string())
        })
        .collect())
}

impl GoodsReceiptInput {
    /// The draft for wms, with each line's store unit looked up (a line names a unit of this
    /// store or none). Every field error at once.
    async fn into_proto(self, state: &AppState, auth: &StoreAuth) -> ApiResult<pb::GoodsReceiptDraft> {
        let mut errs = Vec::new();
        let units: HashMap<i64, (String, i64)> = if self.products.iter().any(|l| l.unit_id.unwrap_or(0) > 0) {
            use bo_proto::stores::v1 as spb;
            state
                .stores()
                .list_units_of_measurement(
                    auth.ctx().request(spb::ListUnitsOfMeasurementRequest { page: Some(page_request(None, Some(-1))) }),
                )
                .await?
                .into_inner()
                .units
                .into_iter()
                .map(|u| (u.id, (u.name, u.converted_quantity.max(u.quantity).max(1))))
                .collect()
        } else {
            HashMap::new()
        };
        let expected = if self.expected_received_date.trim().is_empty() {
            0
        } else {
            bangkok_ms(&self.expected_received_date, &self.expected_received_time).unwrap_or_else(|| {
                errs.push(FieldError::new("expected_received_date", "validation.date"));
                -1
            })
        };
        let pick_up = self.pick_up.map(|p| {
            let at = if p.expected_picked_up_at.trim().is_empty() {
                0
            } else {
                time::OffsetDateTime::parse(
                    p.expected_picked_up_at.trim(),
                    &time::format_description::well_known::Rfc3339,
                )
                .map(|t| t.unix_timestamp() * 1000)
                .unwrap_or_else(|_| {
                    errs.push(FieldError::new("pick_up.expected_picked_up_at", "validation.date"));
                    -1
                })
            };
            pb::PickUpDetail { address: p.address, tel: p.tel, expected_picked_up_at_ms: at }
        });
        let mut lines = Vec::with_capacity(self.products.len());
        for (i, l) in self.products.into_iter().enumerate() {
            let at = format!("products[{i}]");
            let cost = match &l.cost {
                None => 0,
                Some(c) => c.satang().unwrap_or_else(|| {
                    errs.push(FieldError::new(format!("{at}.cost"), "validation.money"));
                    0
                }),
            };
            let expires = match l.expired_at.as_deref().map(str::trim) {
                None | Some("") => 0,
                Some(d) => bangkok_ms(d, "").unwrap_or_else(|| {
                    errs.push(FieldError::new(format!("{at}.expired_at"), "validation.date"));
                    0
                }),
            };
            let unit = match l.unit_id.unwrap_or(0) {
                0 => pb::LineUnit { unit_id: 0, name: String::new(), quantity: 1 },
                id => match units.get(&id) {
                    Some((name, q)) => pb::LineUnit { unit_id: id, name: name.clone(), quantity: *q },
                    None => {
                        errs.push(FieldError::new(format!("{at}.unit_id"), "validation.choice"));
                        pb::LineUnit { unit_id: 0, name: String::new(), quantity: 1 }
                    }
                },
            };
            let dimension = l.dimension.as_ref().map(|d| d.to_proto(&at, &mut errs));
            lines.push(pb::ReceiptLineInput {
                sku_id: l.sku_id,
                name: l.name,
                dimension,
                cost,
                request_qty: l.request_qty,
                expires_at_ms: expires,
                unit: Some(unit),
                print_label: l.print_label,
            });
        }
        let packagings = self
            .packagings
            .into_iter()
            .enumerate()
            .map(|(i, p)| pb::Packaging {
                dimension: p.dimension.as_ref().map(|d| d.to_proto(&format!("packagings[{i}]"), &mut errs)),
                name: p.name,
                quantity: p.quantity,
            })
            .collect();
        if !errs.is_empty() {
            return Err(bo_kit::Error::invalid(errs).into());
        }
        Ok(pb::GoodsReceiptDraft {
            r#type: self.r#type,
            warehouse_id: self.warehouse_id,
            expected_received_at_ms: expected,
            note: self.note,
            is_pick_up: self.is_pick_up,
            pick_up: if self.is_pick_up { pick_up.or(Some(Default::default())) } else { None },
            lines,
            packagings,
            options: self.options,
        })
    }
}

/// The board's filter.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct GoodsReceiptQuery {
    /// Board group or state: draft, pending (with received), approved (with shelving and
    /// shelved) or rejected; empty for all.
    pub state: Option<String>,
    /// Part of the code or the note.
    pub search: Option<String>,
    /// product, parcel or material.
    pub r#type: Option<String>,
    /// Page (clamped to 1..last).
    pub page: Option<i64>,
    /// Page size.
    pub limit: Option<i64>,
}

/// Receipts per board group.
#[derive(Debug, Serialize, ToSchema, Default)]
pub struct GoodsReceiptCounts {
    /// Drafts.
    pub draft: i64,
    /// Pending and received.
    pub pending: i64,
    /// Approved, shelving and shelved.
    pub approved: i64,
    /// Rejected.
    pub rejected: i64,
}

/// A page of the board, with every group's count.
#[derive(Debug, Serialize, ToSchema)]
pub struct GoodsReceiptList {
    /// The rows (without their lines).
    pub data: Vec<GoodsReceiptBody>,
    /// Rows matching.
    pub total: i64,
    /// Page size.
    pub limit: i64,
    /// This page.
    pub page: i64,
    /// Number of pages.
    pub pages: i64,
    /// Receipts per group, for the board's tabs (same search and type).
    pub counts: GoodsReceiptCounts,
}

/// The goods receipt board: one group at a time, newest first, with counts per group.
#[utoipa::path(get, path = "/wms/goods-receipts", tag = "wms", params(GoodsReceiptQuery),
    responses((status = 200, body = GoodsReceiptList), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list_goods_receipts(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<GoodsReceiptQuery>,
) -> ApiResult<Json<GoodsReceiptList>> {
    auth.require(READ)?;
    let group = match q.state.as_deref().unwrap_or("").trim() {
        "received" => "pending".to_string(),
        "shelving" | "shelved" => "approved".to_string(),
        g => g.to_string(),
    };
    let r = state
        .wms()
        .list_goods_receipts(auth.ctx().request(pb::ListGoodsReceiptsRequest {
            group,
            search: q.search.unwrap_or_default(),
            r#type: q.r#type.unwrap_or_default(),
            page: Some(page_request(q.page, q.limit)),
        }))
        .await?
        .into_inner();
    let names = member_names(&state, &auth).await?;
    let page = r.page.unwrap_or_default();
    let count = |g: &str| r.counts.get(g).copied().unwrap_or(0);
    Ok(Json(GoodsReceiptList {
        counts: GoodsReceiptCounts {
            draft: count("draft"),
            pending: count("pending"),
            approved: count("approved"),
            rejected: count("rejected"),
        },
        data: r.receipts.into_iter().map(|x| receipt_body(x, &names)).collect(),
        total: page.total,
        limit: page.limit,
        page: page.page,
        pages: page.pages,
    }))
}

async fn answer(state: &AppState, auth: &StoreAuth, r: pb::GoodsReceiptResponse) -> ApiResult<Json<GoodsReceiptBody>> {
    let names = member_names(state, auth).await?;
    Ok(Json(receipt_body(r.receipt.unwrap_or_default(), &names)))
}

/// One goods receipt with its lines.
#[utoipa::path(get, path = "/wms/goods-receipts/{id}", tag = "wms", params(("id" = i64, Path)),
    responses((status = 200, body = GoodsReceiptBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn get_goods_receipt(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<GoodsReceiptBody>> {
    auth.require(READ)?;
    let r = state.wms().get_goods_receipt(auth.ctx().request(pb::GoodsReceiptRequest { id })).await?.into_inner();
    answer(&state, &auth, r).await
}

/// Writes a goods receipt draft.
#[utoipa::path(post, path = "/wms/goods-receipts", tag = "wms", request_body = GoodsReceiptInput,
    responses((status = 201, body = GoodsReceiptBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "warehouse_not_found, sku_not_found"),
        (status = 409, body = ErrorBody, description = "warehouse_inactive"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_goods_receipt(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(input): Body<GoodsReceiptInput>,
) -> ApiResult<(StatusCode, Json<GoodsReceiptBody>)> {
    auth.require(CREATE)?;
    let draft = input.into_proto(&state, &auth).await?;
    let r = state
        .wms()
        .create_goods_receipt(auth.ctx().request(pb::CreateGoodsReceiptRequest { draft: Some(draft) }))
        .await?;
    Ok((StatusCode::CREATED, answer(&state, &auth, r.into_inner()).await?))
}

/// Rewrites a draft, whole (drafts only).
#[utoipa::path(put, path = "/wms/goods-receipts/{id}", tag = "wms", params(("id" = i64, Path)),
    request_body = GoodsReceiptInput,
    responses((status = 200, body = GoodsReceiptBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "goods_receipt_state"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_goods_receipt(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(input): Body<GoodsReceiptInput>,
) -> ApiResult<Json<GoodsReceiptBody>> {
    auth.require(EDIT)?;
    let mut input = input;
    if input.r#type.is_empty() {
        let current =
            state.wms().get_goods_receipt(auth.ctx().request(pb::GoodsReceiptRequest { id })).await?.into_inner();
        input.r#type = current.receipt.and_then(|r| r.draft).map(|d| d.r#type).unwrap_or_default();
    }
    let draft = input.into_proto(&state, &auth).await?;
    let r = state
        .wms()
        .update_goods_receipt(auth.ctx().request(pb::UpdateGoodsReceiptRequest { id, draft: Some(draft) }))
        .await?;
    answer(&state, &auth, r.into_inner()).await
}

/// Deletes a draft.
#[utoipa::path(delete, path = "/wms/goods-receipts/{id}", tag = "wms", params(("id" = i64, Path)),
    responses((status = 204), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)),
    security(("bearer" = [])))]
async fn delete_goods_receipt(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    auth.require(DELETE)?;
    state.wms().delete_goods_receipt(auth.ctx().request(pb::GoodsReceiptRequest { id })).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Sends a draft to the warehouse (draft → pending).
#[utoipa::path(post, path = "/wms/goods-receipts/{id}/ready-to-warehouse", tag = "wms", params(("id" = i64, Path)),
    responses((status = 200, body = GoodsReceiptBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)),
    security(("bearer" = [])))]
async fn send_goods_receipt(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<GoodsReceiptBody>> {
    auth.require(SEND)?;
    let r = state.wms().send_goods_receipt(auth.ctx().request(pb::GoodsReceiptRequest { id })).await?;
    answer(&state, &auth, r.into_inner()).await
}

/// QC counts of one line, in pieces.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct LineCheckInput {
    /// Line id.
    pub id: i64,
    /// Pieces counted in.
    pub receive_qty: i64,
    /// Pieces of them defective.
    pub defect_qty: i64,
}

/// QC counts.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct QcInput {
    /// Counts per line (approve: lines not named keep theirs, or count as complete).
    pub items: Vec<LineCheckInput>,
}

impl QcInput {
    fn into_proto(self) -> Vec<pb::LineCheck> {
        self.items
            .into_iter()
            .map(|l| pb::LineCheck { line_id: l.id, receive_qty: l.receive_qty, defect_qty: l.defect_qty })
            .collect()
    }
}

/// Records QC counts (pending or received → received): the "confirm check" of the detail.
#[utoipa::path(post, path = "/wms/goods-receipts/{id}/qc-check", tag = "wms", params(("id" = i64, Path)),
    request_body = QcInput,
    responses((status = 200, body = GoodsReceiptBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn check_goods_receipt(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(input): Body<QcInput>,
) -> ApiResult<Json<GoodsReceiptBody>> {
    auth.require(APPROVE)?;
    let r = state
        .wms()
        .check_goods_receipt(auth.ctx().request(pb::CheckGoodsReceiptRequest { id, lines: input.into_proto() }))
        .await?;
    answer(&state, &auth, r.into_inner()).await
}

/// QC approve in store: the counts given are recorded, and every line's good pieces go on
/// hand as a lot with the line's cost and expiry. Approving again changes nothing.
#[utoipa::path(post, path = "/wms/goods-receipts/{id}/qc-approve/in-store", tag = "wms", params(("id" = i64, Path)),
    request_body = QcInput,
    responses((status = 200, body = GoodsReceiptBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "goods_receipt_state, warehouse_inactive, goods_receipt_sku_gone"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn approve_goods_receipt(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(input): Body<QcInput>,
) -> ApiResult<Json<GoodsReceiptBody>> {
    auth.require(APPROVE)?;
    let r = state
        .wms()
        .approve_goods_receipt(auth.ctx().request(pb::CheckGoodsReceiptRequest { id, lines: input.into_proto() }))
        .await?;
    answer(&state, &auth, r.into_inner()).await
}

/// Why a receipt is rejected.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct RejectInput {
    /// The reason (required, up to 500 characters).
    pub reason: String,
}

/// QC reject with a reason: nothing goes on hand.
#[utoipa::path(post, path = "/wms/goods-receipts/{id}/qc-reject", tag = "wms", params(("id" = i64, Path)),
    request_body = RejectInput,
    responses((status = 200, body = GoodsReceiptBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn reject_goods_receipt(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(input): Body<RejectInput>,
) -> ApiResult<Json<GoodsReceiptBody>> {
    auth.require(APPROVE)?;
    let r = state
        .wms()
        .reject_goods_receipt(auth.ctx().request(pb::RejectGoodsReceiptRequest { id, reason: input.reason }))
        .await?;
    answer(&state, &auth, r.into_inner()).await
}

/// Put-away step.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ShelveInput {
    /// shelving (start) or shelved (done).
    pub state: String,
}

/// Puts an approved receipt's goods away: approved → shelving → shelved.
#[utoipa::path(post, path = "/wms/goods-receipts/{id}/shelve", tag = "wms", params(("id" = i64, Path)),
    request_body = ShelveInput,
    responses((status = 200, body = GoodsReceiptBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn shelve_goods_receipt(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(input): Body<ShelveInput>,
) -> ApiResult<Json<GoodsReceiptBody>> {
    auth.require(APPROVE)?;
    let r = state
        .wms()
        .shelve_goods_receipt(auth.ctx().request(pb::ShelveGoodsReceiptRequest {
            id,
            state: enum_field::<pb::GoodsReceiptState>("state", Some(&input.state), "validation.choice")?,
        }))
        .await?;
    answer(&state, &auth, r.into_inner()).await
}

/// A PDF answer, shown in the browser (never cached: it holds costs).
pub(crate) fn pdf(bytes: Vec<u8>, name: &str) -> axum::response::Response {
    use axum::http::header;
    use axum::response::IntoResponse;
    (
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (header::CONTENT_DISPOSITION, format!("inline; filename=\"{name}.pdf\"")),
            (header::CACHE_CONTROL, "private, no-store".to_string()),
        ],
        bytes,
    )
        .into_response()
}

/// The store's name, for printed headers.
pub(crate) async fn store_name(state: &AppState, auth: &StoreAuth) -> ApiResult<String> {
    let r = state.stores().get_store(auth.ctx().request(bo_proto::stores::v1::GetStoreRequest {})).await?;
    Ok(r.into_inner().store.map(|s| s.name).unwrap_or_default())
}

/// The receipt as a printable PDF in Thai (A4); records who printed it.
#[utoipa::path(get, path = "/wms/goods-receipts/{id}/print", tag = "wms", params(("id" = i64, Path)),
    responses((status = 200, content_type = "application/pdf"), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn print_goods_receipt(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<axum::response::Response> {
    auth.require(READ)?;
    let r = state.wms().mark_goods_receipt_printed(auth.ctx().request(pb::GoodsReceiptRequest { id })).await?;
    let names = member_names(&state, &auth).await?;
    let body = receipt_body(r.into_inner().receipt.unwrap_or_default(), &names);
    let store = store_name(&state, &auth).await?;
    let by = names.get(&auth.user_id).cloned().unwrap_or_default();
    let now = bo_kit::time::now_ms();
    let code = body.code.clone();
    let bytes = crate::documents::render(move || crate::documents::goods_receipt(&body, &store, &by, now)).await?;
    Ok(pdf(bytes, &code))
}

/// SKU barcode labels (50 × 30 mm, one a page) for the lines flagged print-label: one per
/// good piece once counted, else per piece asked for; at most 2,000.
#[utoipa::path(get, path = "/wms/goods-receipts/{id}/labels", tag = "wms", params(("id" = i64, Path)),
    responses((status = 200, content_type = "application/pdf"), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "no_labels"),
        (status = 422, body = ErrorBody, description = "too many labels")),
    security(("bearer" = [])))]
async fn goods_receipt_labels(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<axum::response::Response> {
    auth.require(READ)?;
    let r = state.wms().get_goods_receipt(auth.ctx().request(pb::GoodsReceiptRequest { id })).await?;
    let body = receipt_body(r.into_inner().receipt.unwrap_or_default(), &HashMap::new());
    let counts = crate::documents::label_counts(&body);
    let total: i64 = counts.iter().map(|(_, n)| n).sum();
    if total == 0 {
        return Err(bo_kit::Error::failed_precondition(Code::NoLabels).into());
    }
    if total > state.wms_rules().await?.max_labels {
        return Err(crate::error::ApiError::invalid_field("items", "validation.too_many_labels"));
    }
    let name = format!("{}-labels", body.code);
    Ok(pdf(crate::documents::render(move || crate::documents::labels(&body, &counts)).await?, &name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_read_and_written_in_thailand() {
        // 25 Nov 2026 00:30 in Bangkok is 24 Nov 17:30 UTC.
        let ms = bangkok_ms("2026-11-25", "00:30").unwrap();
        assert_eq!(ms_to_rfc3339(ms), "2026-11-24T17:30:00.000Z");
        assert_eq!(bangkok_date_time(ms), ("2026-11-25".to_string(), "00:30".to_string()));
        assert!(bangkok_ms("2026-13-01", "").is_none());
        assert!(bangkok_ms("2026-11-25", "25:00").is_none());
        assert!(bangkok_ms("25/11/2026", "").is_none());
        assert_eq!(bangkok_ms("2026-11-25", ""), bangkok_ms("2026-11-25", "00:00"));
    }
}
