//! Buyers' returns of orders (issue: marketplace catalogues and shipping): each return as its
//! marketplace reports it is shown on its order, and its goods, once back, are received into
//! stock through a goods receipt per warehouse (good units on hand, defective ones counted).
//! Receiving needs `order.order.edit` and `wms.goodsReceipt.approve`: it approves a receipt.

use axum::extract::State;
use axum::Json;
use bo_kit::time::{ms_to_rfc3339, timestamp_to_rfc3339};
use bo_proto::orders::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::routes::orders::{one_order, OrderBody, EDIT};
use crate::state::AppState;
use crate::wire::{baht, word, Body, Path};

/// Approving the receipt that puts returned goods back on hand.
const RECEIPT_APPROVE: Access = Access { roles: &[], perms: &[keys::WMS_GOODS_RECEIPT_APPROVE] };

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(receive_return))
}

/// A line of a return: what comes back of one line of the order.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReturnLineBody {
    /// The order's line (0 when the platform's line matches none of the order's).
    pub item_id: i64,
    /// Its SKU (0: it cannot be received into stock).
    pub sku_id: i64,
    pub name: String,
    pub sku_code: String,
    /// Units the buyer returns.
    pub quantity: i64,
    /// Units received back fit to sell again, and found defective.
    pub good: i64,
    pub defective: i64,
}

/// A goods receipt that put a return's goods back in stock.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReturnReceiptBody {
    pub goods_receipt_id: i64,
    /// GR2569-000001.
    pub code: String,
    pub warehouse_id: i64,
}

/// A buyer's return, as its marketplace reports it.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderReturnBody {
    pub id: i64,
    /// The platform's return number.
    pub reference: String,
    /// requested, accepted, shipped_back, delivered_back, refunded or closed.
    pub stage: String,
    /// The platform's own status word.
    pub status_word: String,
    /// A refund without goods coming back.
    pub refund_only: bool,
    /// The buyer's reason, in the platform's words.
    pub reason: String,
    /// Baht.
    pub refund_amount: String,
    /// The return parcel's tracking number.
    pub tracking_no: String,
    pub lines: Vec<ReturnLineBody>,
    /// The receipts that put its goods back in stock (empty before).
    pub receipts: Vec<ReturnReceiptBody>,
    /// When its goods were received (null before), and by whom.
    pub received_at: Option<String>,
    pub received_by: i64,
    /// Its goods may be received now.
    pub receivable: bool,
    pub created_at: String,
    pub updated_at: String,
}

pub(crate) fn return_body(r: pb::OrderReturn) -> OrderReturnBody {
    OrderReturnBody {
        id: r.id,
        reference: r.reference,
        stage: word::<pb::ReturnStage>(r.stage),
        status_word: r.status_word,
        refund_only: r.refund_only,
        reason: r.reason,
        refund_amount: baht(r.refund_amount),
        tracking_no: r.tracking_no,
        lines: r
            .lines
            .into_iter()
            .map(|l| ReturnLineBody {
                item_id: l.item_id,
                sku_id: l.sku_id,
                name: l.name,
                sku_code: l.sku_code,
                quantity: l.quantity,
                good: l.good,
                defective: l.defective,
            })
            .collect(),
        receipts: r
            .receipts
            .into_iter()
            .map(|x| ReturnReceiptBody {
                goods_receipt_id: x.goods_receipt_id,
                code: x.code,
                warehouse_id: x.warehouse_id,
            })
            .collect(),
        received_at: (r.received_at_ms > 0).then(|| ms_to_rfc3339(r.received_at_ms)),
        received_by: r.received_by,
        receivable: r.receivable,
        created_at: timestamp_to_rfc3339(r.create_time.as_ref()),
        updated_at: timestamp_to_rfc3339(r.update_time.as_ref()),
    }
}

/// A line's goods as they came back.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct ReturnCountInput {
    /// The order's line.
    pub item_id: i64,
    /// Units fit to sell again (they go back on hand).
    pub good: i64,
    /// Units found defective (counted, not put on hand).
    pub defective: i64,
}

/// What came back of a return.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct ReceiveReturnInput {
    /// Per line (a line not named: nothing of it came back).
    pub lines: Vec<ReturnCountInput>,
    /// A note for the receipt (up to 300 characters).
    pub note: String,
}

/// Receives a return's goods back into stock as counted: a goods receipt per warehouse,
/// approved at once (good units on hand as lots at the line's cost, defective ones counted),
/// then the order shows the receipts. Once per return: a second call is refused.
#[utoipa::path(post, path = "/orders/{id}/returns/{return_id}/receive", tag = "orders",
    params(("id" = i64, Path), ("return_id" = i64, Path)),
    request_body = ReceiveReturnInput,
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "order_not_found, order_return_not_found"),
        (status = 409, body = ErrorBody, description = "order_return_not_receivable (received already, or the order has not shipped)"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn receive_return(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, return_id)): Path<(i64, i64)>,
    Body(b): Body<ReceiveReturnInput>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(EDIT)?;
    auth.require(RECEIPT_APPROVE)?;
    let r = state
        .orders()
        .receive_return(
            auth.ctx().request(pb::ReceiveReturnRequest {
                order_id: id,
                return_id,
                lines: b
                    .lines
                    .iter()
                    .map(|l| pb::ReturnLineCount { item_id: l.item_id, good: l.good, defective: l.defective })
                    .collect(),
                note: b.note,
            }),
        )
        .await?
        .into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}
