//! Payments of orders (SPEC §2 bill and payment review, §3 payment, §4 Payment state, §7
//! `/orders/{id}/pay`, `/orders/{id}/invoices/{inv}/payments/{pay}/pay` and `/{action}`,
//! `/orders/attachment/upload`, §8 payment confirmation): a payment against a bill, its
//! slip, and its confirmation, cancellation or void. Who may: `payment.payment.create`
//! makes one, `.edit` changes it, `.approve` confirms it, `.reject` cancels it, `.delete`
//! voids it; its slip is seen by whoever reads orders or payments.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::Code;
use bo_proto::orders::v1 as pb;
use bo_proto::payments::v1 as paypb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::routes::orders::{one_order, OrderBody};
use crate::state::AppState;
use crate::uploads::Staged;
use crate::wire::{baht, enum_field, page_request, word, Body, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(upload_attachment).layer(axum::extract::DefaultBodyLimit::max(crate::uploads::SLIP_FORM_LIMIT)))
        .routes(routes!(create_payment))
        .routes(routes!(edit_payment))
        .routes(routes!(act_on_payment))
        .routes(routes!(payment_attachment))
        .routes(routes!(pre_confirm_payments))
        .routes(routes!(confirm_payments))
        .routes(routes!(list_payments))
}

const CREATE: Access = Access { roles: &[], perms: &[keys::PAYMENT_PAYMENT_CREATE] };
const EDIT: Access = Access { roles: &[], perms: &[keys::PAYMENT_PAYMENT_EDIT] };
const APPROVE: Access = Access { roles: &[], perms: &[keys::PAYMENT_PAYMENT_APPROVE] };
const REJECT: Access = Access { roles: &[], perms: &[keys::PAYMENT_PAYMENT_REJECT] };
const VOID: Access = Access { roles: &[], perms: &[keys::PAYMENT_PAYMENT_DELETE] };
/// Attaching a slip: who may make or change payments.
const ATTACH: Access = Access { roles: &[], perms: &[keys::PAYMENT_PAYMENT_CREATE, keys::PAYMENT_PAYMENT_EDIT] };
/// Seeing a slip: who reads orders or payments.
const SEE: Access = Access { roles: &[], perms: &[keys::ORDER_ORDER_READ, keys::PAYMENT_PAYMENT_READ] };

/// A payment of an order.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderPaymentBody {
    pub id: i64,
    /// The bill it pays (the invoice of `/invoices/{inv}`).
    pub bill_id: i64,
    pub warehouse_id: i64,
    /// The bill's amount, baht.
    pub amount: String,
    /// unpaid, pending, paid, voided or cancelled.
    pub state: String,
    /// The store's account paid to (0: not said).
    pub store_channel_id: i64,
    /// bank, promptpay, paypal or cod.
    pub channel_type: String,
    /// A slip is attached (`GET /orders/{id}/payments/{pay}/attachment`).
    pub has_attachment: bool,
    /// buyer (the bill's page) or staff.
    pub source: String,
    pub note: String,
    pub created_by: i64,
    pub confirmed_by: i64,
    pub confirmed_at: Option<String>,
    pub slip_at: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// Every slip it was sent, oldest first (`GET /orders/{id}/payments/{pay}/attachment?slip=`);
    /// none is ever dropped.
    pub slips: Vec<PaymentSlipBody>,
}

/// A slip a payment was sent.
#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentSlipBody {
    pub id: i64,
    /// buyer (the bill's page) or staff.
    pub source: String,
    /// Who attached it (0: the buyer).
    pub created_by: i64,
    pub created_at: String,
}

pub(crate) fn payment_body(p: pb::Payment) -> OrderPaymentBody {
    let when = |ms: i64| (ms > 0).then(|| bo_kit::time::ms_to_rfc3339(ms));
    OrderPaymentBody {
        id: p.id,
        bill_id: p.bill_id,
        warehouse_id: p.warehouse_id,
        amount: crate::wire::baht(p.amount),
        state: word::<pb::PaymentState>(p.state),
        store_channel_id: p.store_channel_id,
        channel_type: p.channel_type,
        has_attachment: p.has_attachment,
        source: p.source,
        note: p.note,
        created_by: p.created_by,
        confirmed_by: p.confirmed_by,
        confirmed_at: when(p.confirmed_at_ms),
        slip_at: when(p.slip_at_ms),
        created_at: bo_kit::time::timestamp_to_rfc3339(p.create_time.as_ref()),
        updated_at: bo_kit::time::timestamp_to_rfc3339(p.update_time.as_ref()),
        slips: p
            .slips
            .into_iter()
            .map(|s| PaymentSlipBody {
                id: s.id,
                source: s.source,
                created_by: s.created_by,
                created_at: bo_kit::time::ms_to_rfc3339(s.created_at_ms),
            })
            .collect(),
    }
}

/// The multipart form of an attachment.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct AttachmentForm {
    /// What it is: slip.
    pub r#type: String,
    /// The file (.jpg, .jpeg or .png by content, 5 MB at most).
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
}

/// A kept attachment.
#[derive(Debug, Serialize, ToSchema)]
pub struct AttachmentBody {
    /// Its name, to give as a payment's `attachment`.
    pub name: String,
}

/// Keeps a slip to attach to a payment: checked by content (JPEG or PNG, 5 MB, dimensions
/// bounded) and kept without its metadata.
#[utoipa::path(post, path = "/orders/attachment/upload", tag = "orders",
    request_body(content = AttachmentForm, content_type = "multipart/form-data"),
    responses((status = 201, body = AttachmentBody), (status = 403, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn upload_attachment(
    State(state): State<AppState>,
    auth: StoreAuth,
    mut form: axum::extract::Multipart,
) -> ApiResult<(StatusCode, Json<AttachmentBody>)> {
    auth.require(ATTACH)?;
    let too_large = || ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, Code::PayloadTooLarge);
    let mut staged = Staged::new(state.files.clone());
    let mut kind = String::new();
    while let Some(field) = form.next_field().await.map_err(|_| too_large())? {
        match field.name() {
            Some("file") if staged.is_empty() => {
                staged.stage(auth.store_id, field, bo_kit::images::MAX_BYTES as u64, "file", "photo_too_large").await?
            }
            Some("type") => kind = field.text().await.map_err(|_| ApiError::bad_request(Code::InvalidBody))?,
            _ => {}
        }
    }
    if staged.is_empty() {
        return Err(ApiError::invalid_field("file", "validation.photo_required"));
    }
    let kind = if kind.trim().is_empty() { "slip".to_string() } else { kind.trim().to_string() };
    let upload = staged.hand_over().pop().unwrap_or_default();
    let r =
        state.orders().keep_attachment(auth.ctx().request(pb::KeepAttachmentRequest { upload, r#type: kind })).await?;
    Ok((StatusCode::CREATED, Json(AttachmentBody { name: r.into_inner().name })))
}

/// Who may take `action` on a payment (None: no such action).
fn access_of(action: &str) -> Option<Access> {
    match action {
        "confirm" => Some(APPROVE),
        "cancel" => Some(REJECT),
        "void" => Some(VOID),
        _ => None,
    }
}

/// A payment as made or changed.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PaymentInput {
    /// The bill's warehouse (none: the order's only bill); on create only.
    pub warehouse_id: Option<i64>,
    /// The store's account paid to (none: not said / keep).
    pub store_channel_id: Option<i64>,
    /// A kept attachment's name (`/orders/attachment/upload`; none: no slip / keep).
    pub attachment: Option<String>,
    /// Note (at most 500 characters; none keeps it).
    pub note: Option<String>,
}

impl PaymentInput {
    /// The message, with the account's kind as the payments service knows it (an account
    /// of another store, or one closed, is refused on its field).
    async fn message(&self, state: &AppState, auth: &StoreAuth) -> ApiResult<pb::PaymentInput> {
        let note = self.note.clone().unwrap_or_default();
        if note.chars().count() > 500 {
            return Err(ApiError::invalid_field("note", "validation.too_long"));
        }
        let store_channel_id = self.store_channel_id.unwrap_or(0);
        let mut channel_type = String::new();
        if store_channel_id > 0 {
            let found = state
                .payments()
                .get_store_channel(auth.ctx().request(paypb::GetStoreChannelRequest { id: store_channel_id }))
                .await;
            match found {
                Ok(r) => {
                    let c = r.into_inner().store_channel.unwrap_or_default();
                    if c.status() != paypb::ChannelStatus::Active {
                        return Err(ApiError::invalid_field("store_channel_id", "validation.payment_channel_inactive"));
                    }
                    channel_type = c.channel_type;
                }
                Err(s) if s.code() == tonic::Code::NotFound => {
                    return Err(ApiError::invalid_field("store_channel_id", "validation.payment_channel_unknown"))
                }
                Err(s) => return Err(s.into()),
            }
        } else if store_channel_id < 0 {
            return Err(ApiError::invalid_field("store_channel_id", "validation.payment_channel_unknown"));
        }
        Ok(pb::PaymentInput {
            store_channel_id,
            channel_type,
            attachment: self.attachment.clone().unwrap_or_default().trim().to_string(),
            note,
        })
    }
}

/// Makes a payment for a bill of an order: waiting for confirmation with a slip, unpaid
/// without. Refused when the bill already has one (edit it), or the order is closed.
#[utoipa::path(post, path = "/orders/{id}/pay", tag = "orders", params(("id" = i64, Path)), request_body = PaymentInput,
    responses((status = 201, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "payment_exists, bill_expired or bill_order_closed"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_payment(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<PaymentInput>,
) -> ApiResult<(StatusCode, Json<OrderBody>)> {
    auth.require(CREATE)?;
    let input = b.message(&state, &auth).await?;
    let r = state
        .orders()
        .create_payment(auth.ctx().request(pb::CreatePaymentRequest {
            order_id: id,
            warehouse_id: b.warehouse_id.unwrap_or(0),
            input: Some(input),
        }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(one_order(&state, &auth, r).await?)))
}

/// Changes a payment's account, note or slip; a new slip makes it wait for confirmation.
#[utoipa::path(post, path = "/orders/{id}/invoices/{inv}/payments/{pay}/pay", tag = "orders",
    params(("id" = i64, Path), ("inv" = i64, Path, description = "the bill"), ("pay" = i64, Path)),
    request_body = PaymentInput,
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn edit_payment(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, inv, pay)): Path<(i64, i64, i64)>,
    Body(b): Body<PaymentInput>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(EDIT)?;
    let input = b.message(&state, &auth).await?;
    let r = state
        .orders()
        .edit_payment(auth.ctx().request(pb::EditPaymentRequest {
            order_id: id,
            payment_id: pay,
            input: Some(input),
            bill_id: inv,
        }))
        .await?
        .into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// Confirms (`confirm`), cancels (`cancel`) or voids (`void`) a payment. Confirmation is
/// refused without a slip, for a cancelled or already confirmed payment, for one not
/// waiting, and for cash on delivery before the order is shipped (SPEC §8).
#[utoipa::path(post, path = "/orders/{id}/invoices/{inv}/payments/{pay}/{action}", tag = "orders",
    params(("id" = i64, Path), ("inv" = i64, Path, description = "the bill"), ("pay" = i64, Path),
        ("action" = String, Path, description = "confirm, cancel or void")),
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "payment_attachment_required, payment_cancelled, \
            payment_not_pending, payment_already_confirmed, payment_cod_not_shipped, …"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn act_on_payment(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, inv, pay, action)): Path<(i64, i64, i64, String)>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(access_of(&action).ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, Code::NotFound))?)?;
    let r = state
        .orders()
        .act_on_payment(auth.ctx().request(pb::ActOnPaymentRequest {
            order_id: id,
            payment_id: pay,
            action,
            bill_id: inv,
        }))
        .await?
        .into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// Which slip of a payment.
#[derive(Debug, Deserialize, utoipa::IntoParams, Default)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct SlipQuery {
    /// One of its `slips` (none: its newest).
    pub slip: Option<i64>,
}

/// A payment's slip, its newest or any it was sent (to whoever reads orders or payments).
/// Never cached.
#[utoipa::path(get, path = "/orders/{id}/payments/{pay}/attachment", tag = "orders",
    params(("id" = i64, Path), ("pay" = i64, Path), SlipQuery),
    responses((status = 200, description = "the slip", content_type = "image/jpeg"), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn payment_attachment(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, pay)): Path<(i64, i64)>,
    Query(q): Query<SlipQuery>,
) -> ApiResult<axum::response::Response> {
    auth.require(SEE)?;
    let slip_id = q.slip.unwrap_or(0);
    let r = state
        .orders()
        .get_payment_attachment(auth.ctx().request(pb::GetPaymentAttachmentRequest {
            order_id: id,
            payment_id: pay,
            slip_id,
        }))
        .await?
        .into_inner();
    crate::uploads::serve(&state.files, r.key, &r.content_type, "private, no-store", Code::AttachmentNotFound).await
}

/// Orders whose payments to confirm.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ConfirmPaymentsInput {
    /// Orders (at most the selection limit).
    pub ids: Vec<i64>,
}

/// How one payment fares in a confirmation.
#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentConfirmBody {
    pub order_id: i64,
    pub order_no: String,
    /// 0: the order has no payment.
    pub payment_id: i64,
    pub bill_id: i64,
    /// Baht.
    pub amount: String,
    /// Confirmed (or would be).
    pub ok: bool,
    /// Why not: payment_attachment_required, payment_cancelled, payment_not_pending,
    /// payment_already_confirmed, payment_cod_not_shipped, order_not_found.
    pub reason: String,
}

/// What a confirmation did or would do.
#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentConfirmsBody {
    /// Per payment.
    pub data: Vec<PaymentConfirmBody>,
    /// Payments confirmed (or that would be).
    pub confirmable: i64,
    /// Their amount, baht.
    pub amount: String,
}

async fn confirm(state: &AppState, auth: &StoreAuth, ids: Vec<i64>, dry_run: bool) -> ApiResult<PaymentConfirmsBody> {
    let r = state
        .orders()
        .confirm_payments(auth.ctx().request(pb::ConfirmPaymentsRequest { order_ids: ids, dry_run }))
        .await?
        .into_inner();
    let ok: Vec<&pb::PaymentConfirmResult> = r.results.iter().filter(|c| c.ok).collect();
    Ok(PaymentConfirmsBody {
        confirmable: ok.len() as i64,
        amount: baht(ok.iter().map(|c| c.amount).sum()),
        data: r
            .results
            .into_iter()
            .map(|c| PaymentConfirmBody {
                order_id: c.order_id,
                order_no: c.order_no,
                payment_id: c.payment_id,
                bill_id: c.bill_id,
                amount: baht(c.amount),
                ok: c.ok,
                reason: c.reason,
            })
            .collect(),
    })
}

/// What confirming the payments of these orders would do: each payment that would be
/// confirmed, and each that would not with its reason (SPEC §8). Changes nothing.
#[utoipa::path(post, path = "/orders/payments/pre-confirm", tag = "orders", request_body = ConfirmPaymentsInput,
    responses((status = 200, body = PaymentConfirmsBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn pre_confirm_payments(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<ConfirmPaymentsInput>,
) -> ApiResult<Json<PaymentConfirmsBody>> {
    auth.require(APPROVE)?;
    Ok(Json(confirm(&state, &auth, b.ids, true).await?))
}

/// Confirms the payments of these orders, each on its own: the answer names each payment
/// confirmed and each refused with its reason.
#[utoipa::path(post, path = "/orders/payments/confirm", tag = "orders", request_body = ConfirmPaymentsInput,
    responses((status = 200, body = PaymentConfirmsBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn confirm_payments(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<ConfirmPaymentsInput>,
) -> ApiResult<Json<PaymentConfirmsBody>> {
    auth.require(APPROVE)?;
    Ok(Json(confirm(&state, &auth, b.ids, false).await?))
}

/// Which payments to list.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct PaymentListQuery {
    /// unpaid, pending, paid, voided or cancelled (none: every state).
    pub state: Option<String>,
    /// Page number.
    pub page: Option<i64>,
    /// Page size (10 by default).
    pub limit: Option<i64>,
}

/// A payment in the review list, with its order.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListedPaymentBody {
    pub order_id: i64,
    pub order_no: String,
    /// The order's state.
    pub order_state: String,
    pub cod: bool,
    pub payment: OrderPaymentBody,
}

/// The store's payments of a state, most recently changed first (the payment review).
#[utoipa::path(get, path = "/orders/payments", tag = "orders", params(PaymentListQuery),
    responses((status = 200, body = List<ListedPaymentBody>), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list_payments(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PaymentListQuery>,
) -> ApiResult<Json<List<ListedPaymentBody>>> {
    auth.require(SEE)?;
    let r = state
        .orders()
        .list_payments(auth.ctx().request(pb::ListPaymentsRequest {
            state: enum_field::<pb::PaymentState>("state", q.state.as_deref(), "validation.payment_state")?,
            page: Some(page_request(q.page, q.limit)),
        }))
        .await?
        .into_inner();
    let data = r
        .payments
        .into_iter()
        .map(|l| ListedPaymentBody {
            order_id: l.order_id,
            order_no: l.order_no,
            order_state: word::<pb::OrderState>(l.order_state),
            cod: l.cod,
            payment: payment_body(l.payment.unwrap_or_default()),
        })
        .collect();
    Ok(Json(List::new(data, r.page)))
}
