//! Orders moving between states, one or many at a time, and their bills renewed.

use super::*;
use bo_kit::Code;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(change_order_state))
        .routes(routes!(bulk_ready_to_fulfillment))
        .routes(routes!(bulk_close))
        .routes(routes!(bulk_cancel))
        .routes(routes!(bulk_void))
        .routes(routes!(renew_bill_expiry))
        .routes(routes!(renew_bill_link))
}

/// What a state action takes.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct OrderStateInput {
    /// fail: fulfillment_failed or cancelled_by_warehouse.
    pub cause: String,
    /// Why (kept on the timeline).
    pub reason: String,
}

/// How one order of a bulk action fared.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderResultBody {
    pub id: i64,
    pub order_no: String,
    pub ok: bool,
    /// already_cancelled, already_ready_to_fulfillment, already_shipped, address_incomplete,
    /// insufficient_stock, incorrect_cod_account, not_shipped, order_busy, ...
    pub reason: String,
    /// Its state after.
    pub state: String,
}

/// A bulk action's answer: every order with its outcome.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderResultsBody {
    pub data: Vec<OrderResultBody>,
    /// Orders that moved.
    pub succeeded: i64,
    /// Orders that did not.
    pub failed: i64,
}

pub(crate) fn results_body(r: pb::ChangeStateResponse) -> OrderResultsBody {
    let data: Vec<OrderResultBody> = r
        .results
        .into_iter()
        .map(|x| OrderResultBody {
            id: x.id,
            order_no: x.order_no,
            ok: x.ok,
            reason: x.reason,
            state: word::<pb::OrderState>(x.state),
        })
        .collect();
    let succeeded = data.iter().filter(|x| x.ok).count() as i64;
    OrderResultsBody { failed: data.len() as i64 - succeeded, succeeded, data }
}

/// A discount of a fixed amount, baht.
pub(super) const FIXED: &str = "fixed";
/// A discount of a percentage.
pub(super) const PERCENT: &str = "percent";

/// The actions `POST /orders/{id}/{action}` takes (dash-separated in the path), as the
/// orders service names them, and who may take each.
pub(super) const ACTIONS: [(&str, Access); 5] =
    [("ready_to_fulfillment", EDIT), ("close", EDIT), ("cancel", CANCEL), ("void", CANCEL), ("fail", CANCEL)];

/// The action a path names (dash-separated), as the orders service names it, with who may.
fn action_of(path: &str) -> Option<(&'static str, Access)> {
    let named = path.trim().replace('-', "_");
    ACTIONS.iter().find(|(a, _)| *a == named).copied()
}

pub(super) async fn change(
    state: &AppState,
    auth: &StoreAuth,
    ids: Vec<i64>,
    action: &str,
    b: OrderStateInput,
) -> ApiResult<pb::ChangeStateResponse> {
    Ok(state
        .orders()
        .change_state(auth.ctx().request(pb::ChangeStateRequest {
            ids,
            action: action.into(),
            cause: b.cause,
            reason: b.reason,
        }))
        .await?
        .into_inner())
}

/// Moves one order: `ready-to-fulfillment` (prepare shipment), `close`, `cancel`, `void` or
/// `fail` (the action dash-separated). A refusal is 409 with its reason as the code.
#[utoipa::path(post, path = "/orders/{id}/{action}", tag = "orders",
    params(("id" = i64, Path), ("action" = String, Path, description = "ready-to-fulfillment, close, cancel, void or fail")),
    request_body = OrderStateInput,
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "the reason: already_cancelled, address_incomplete, insufficient_stock, ...")),
    security(("bearer" = [])))]
pub(super) async fn change_order_state(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, action)): Path<(i64, String)>,
    Body(b): Body<OrderStateInput>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(action_of(&action).map_or(READ, |(_, access)| access))?;
    let Some((act, _)) = action_of(&action) else {
        return Err(ApiError::new(StatusCode::NOT_FOUND, Code::RouteNotFound));
    };
    let r = change(&state, &auth, vec![id], act, b).await?;
    let first = r.results.into_iter().next().unwrap_or_default();
    if !first.ok {
        return Err(ApiError::refused(&first.reason, Code::OrderNotFound));
    }
    let r =
        state.orders().get_order(auth.ctx().request(pb::GetOrderRequest { id, with_events: true })).await?.into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// Orders for a bulk action.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct OrderBulkInput {
    /// Orders (at most the selection limit: GET /orders/limits).
    pub ids: Vec<i64>,
    /// fail only.
    pub cause: String,
    /// Why (kept on each order's timeline).
    pub reason: String,
}

/// Refuses more orders than one bulk action takes ('cannot choose over {n} orders'), on
/// `field`, before anything is asked of them.
pub async fn within_selection(state: &AppState, field: &str, chosen: usize) -> ApiResult<()> {
    if chosen as i64 > state.order_rules().await?.max_selection {
        return Err(ApiError::invalid_field(field, "order.too_many_selected"));
    }
    Ok(())
}

pub(super) async fn bulk(
    state: &AppState,
    auth: &StoreAuth,
    b: OrderBulkInput,
    action: &str,
) -> ApiResult<Json<OrderResultsBody>> {
    within_selection(state, "ids", b.ids.len()).await?;
    let r = change(state, auth, b.ids, action, OrderStateInput { cause: b.cause, reason: b.reason }).await?;
    Ok(Json(results_body(r)))
}

/// Prepares shipment of many orders: each moves or fails on its own with its reason
/// (already cancelled, already ready to fulfilment, incomplete address, insufficient stock,
/// incorrect COD account).
#[utoipa::path(post, path = "/orders/ready-to-fulfillment", tag = "orders", request_body = OrderBulkInput,
    responses((status = 200, body = OrderResultsBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "order.too_many_selected")),
    security(("bearer" = [])))]
pub(super) async fn bulk_ready_to_fulfillment(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OrderBulkInput>,
) -> ApiResult<Json<OrderResultsBody>> {
    auth.require(EDIT)?;
    bulk(&state, &auth, b, "ready_to_fulfillment").await
}

/// Closes many shipped orders, each on its own.
#[utoipa::path(post, path = "/orders/close", tag = "orders", request_body = OrderBulkInput,
    responses((status = 200, body = OrderResultsBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn bulk_close(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OrderBulkInput>,
) -> ApiResult<Json<OrderResultsBody>> {
    auth.require(EDIT)?;
    bulk(&state, &auth, b, "close").await
}

/// Cancels many orders, each on its own; their stock comes back.
#[utoipa::path(post, path = "/orders/cancel", tag = "orders", request_body = OrderBulkInput,
    responses((status = 200, body = OrderResultsBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn bulk_cancel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OrderBulkInput>,
) -> ApiResult<Json<OrderResultsBody>> {
    auth.require(CANCEL)?;
    bulk(&state, &auth, b, "cancel").await
}

/// Voids many shipped or closed orders, each on its own.
#[utoipa::path(post, path = "/orders/void", tag = "orders", request_body = OrderBulkInput,
    responses((status = 200, body = OrderResultsBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn bulk_void(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OrderBulkInput>,
) -> ApiResult<Json<OrderResultsBody>> {
    auth.require(CANCEL)?;
    bulk(&state, &auth, b, "void").await
}

/// How long to renew a bill for.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct BillExpiryInput {
    /// Days from now (1 to 30).
    pub days: Option<Decimal>,
    /// The warehouse whose bill (none: every bill of the order).
    pub warehouse_id: Option<i64>,
}

/// Renews a new order's bills by a number of days from now: each becomes active again and
/// expires then (SPEC §4 Bill).
#[utoipa::path(patch, path = "/orders/{id}/bill-expiry", tag = "orders", params(("id" = i64, Path)),
    request_body = BillExpiryInput,
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "bill_order_not_new, bill_paid or bill_never_expires"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn renew_bill_expiry(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<BillExpiryInput>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(EDIT)?;
    let days = match &b.days {
        Some(d) => d.whole().ok_or_else(|| ApiError::invalid_field("days", "validation.bill_renew_days"))?,
        None => return Err(ApiError::invalid_field("days", "validation.required")),
    };
    let r = state
        .orders()
        .renew_bill(auth.ctx().request(pb::RenewBillRequest { id, days, warehouse_id: b.warehouse_id.unwrap_or(0) }))
        .await?
        .into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// Gives a bill a new public link for the buyer: the old link (forwarded in a chat, say)
/// finds nothing from then on. Kept on the timeline.
#[utoipa::path(post, path = "/orders/{id}/invoices/{inv}/new-link", tag = "orders",
    params(("id" = i64, Path), ("inv" = i64, Path)),
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn renew_bill_link(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, inv)): Path<(i64, i64)>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(EDIT)?;
    let r = state
        .orders()
        .rotate_bill_link(auth.ctx().request(pb::RotateBillLinkRequest { id, bill_id: inv }))
        .await?
        .into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}
