//! Shipping marketplace orders the platform's way (issue: marketplace shipping): how an order
//! that came from a marketplace shop may be handed to the platform's carrier, arranging it
//! with the platform (our order follows the state the platform then gives it), and the
//! platform's labels of many orders in one A6 PDF with the reason for each one not printed,
//! and the buyer's request to cancel, accepted or rejected on the platform first. Reading
//! needs `order.order.read`; arranging, printing and answering `order.order.edit`.

use axum::extract::State;
use axum::Json;
use base64::Engine as _;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::marketplaces::v1 as pb;
use bo_proto::marketplaces::v1::marketplaces_service_client::MarketplacesServiceClient;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::routes::orders::{EDIT, READ};
use crate::state::AppState;
use crate::wire::{enum_field, word, Body, Path};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_channel_shipping, arrange_channel_shipment))
        .routes(routes!(print_channel_labels))
        .routes(routes!(answer_channel_cancellation))
        .routes(routes!(arrange_channel_shipments))
}

fn client(state: &AppState) -> ApiResult<MarketplacesServiceClient<bo_kit::grpc::GrpcChannel>> {
    state.client(MarketplacesServiceClient::new)
}

/// A pick-up time the platform offers.
#[derive(Debug, Serialize, ToSchema)]
pub struct PickupSlotBody {
    pub id: String,
    /// Its day (RFC 3339).
    pub date: String,
    /// How the platform words it (may be empty).
    pub text: String,
}

/// A shop address the platform's carrier picks up from.
#[derive(Debug, Serialize, ToSchema)]
pub struct PickupAddressBody {
    pub id: String,
    pub address: String,
    pub is_default: bool,
    pub slots: Vec<PickupSlotBody>,
}

/// How the order may be handed over.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShipOptionsBody {
    /// Pick-up addresses with their times (empty: no pick-up).
    pub pickup: Vec<PickupAddressBody>,
    /// A drop-off at a branch of the carrier.
    pub dropoff: bool,
    /// The seller's own carrier, with its tracking number.
    pub own_carrier: bool,
    /// The platform's carrier as the shop is set up on the platform (Lazada: picked up or
    /// dropped off as chosen in Seller Center).
    pub platform: bool,
}

/// The order's shipment as arranged with the platform.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelShipmentBody {
    pub order_id: i64,
    pub store_channel_id: i64,
    /// The marketplace's order id.
    pub channel_order_id: String,
    /// pickup, dropoff, own_carrier or platform.
    pub handover: String,
    /// The carrier's tracking number (empty until the platform gives it).
    pub tracking_no: String,
    pub arranged_at: String,
    /// When its label was last printed (empty: never).
    pub label_printed_at: String,
}

/// The buyer's request to cancel, waiting for the seller's answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelCancelRequestBody {
    /// The buyer's reason in the platform's words (may be empty).
    pub reason: String,
}

/// A marketplace order's shipping: how it may be handed over (null once arranged, and while
/// a cancel request waits), its shipment (null until arranged) and the buyer's request to
/// cancel (null unless one waits).
#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelShippingBody {
    pub options: Option<ShipOptionsBody>,
    pub shipment: Option<ChannelShipmentBody>,
    pub cancel_request: Option<ChannelCancelRequestBody>,
}

impl From<pb::ChannelShippingResponse> for ChannelShippingBody {
    fn from(r: pb::ChannelShippingResponse) -> Self {
        ChannelShippingBody {
            options: r.options.map(|o| ShipOptionsBody {
                pickup: o
                    .pickup
                    .into_iter()
                    .map(|a| PickupAddressBody {
                        id: a.id,
                        address: a.address,
                        is_default: a.is_default,
                        slots: a
                            .slots
                            .into_iter()
                            .map(|s| PickupSlotBody {
                                id: s.id,
                                date: timestamp_to_rfc3339(s.date.as_ref()),
                                text: s.text,
                            })
                            .collect(),
                    })
                    .collect(),
                dropoff: o.dropoff,
                own_carrier: o.own_carrier,
                platform: o.platform,
            }),
            shipment: r.shipment.map(|s| ChannelShipmentBody {
                order_id: s.order_id,
                store_channel_id: s.store_channel_id,
                handover: word::<pb::Handover>(s.handover),
                channel_order_id: s.channel_order_id,
                tracking_no: s.tracking_no,
                arranged_at: timestamp_to_rfc3339(s.arrange_time.as_ref()),
                label_printed_at: timestamp_to_rfc3339(s.label_time.as_ref()),
            }),
            cancel_request: r.cancel_request.map(|c| ChannelCancelRequestBody { reason: c.reason }),
        }
    }
}

/// How a marketplace order may be handed to the platform's carrier, or its shipment once
/// arranged (the platform's tracking number asked for while it has none).
#[utoipa::path(get, path = "/orders/{id}/marketplace-shipping", tag = "orders", params(("id" = i64, Path)),
    responses((status = 200, body = ChannelShippingBody),
        (status = 404, body = ErrorBody, description = "channel_order_not_found: not a marketplace order of the store"),
        (status = 409, body = ErrorBody, description = "channel_order_on_hold, channel_shipping_unavailable"),
        (status = 409, body = ErrorBody, description = "marketplace_rejected (the platform refused, in its words), marketplace_token_expired"),
        (status = 503, body = ErrorBody, description = "marketplace_unreachable")),
    security(("bearer" = [])))]
async fn get_channel_shipping(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<ChannelShippingBody>> {
    auth.require(READ)?;
    let r = client(&state)?
        .get_channel_shipping(auth.ctx().request(pb::GetChannelShippingRequest { order_id: id }))
        .await?
        .into_inner();
    Ok(Json(r.into()))
}

/// How the seller hands the order over.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct ArrangeShipmentInput {
    /// pickup, dropoff, own_carrier or platform.
    pub handover: String,
    /// For a pick-up: an address and a time the platform offered.
    pub address_id: String,
    pub slot_id: String,
    /// For the seller's own carrier: its tracking number (at most 64 characters).
    pub tracking_no: String,
}

/// Arranges a marketplace order's shipment with the platform first; our order then takes the
/// state the platform gives it. An order arranged already answers its shipment.
#[utoipa::path(post, path = "/orders/{id}/marketplace-shipping", tag = "orders", params(("id" = i64, Path)),
    request_body = ArrangeShipmentInput,
    responses((status = 200, body = ChannelShippingBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "channel_order_not_found"),
        (status = 409, body = ErrorBody,
            description = "channel_order_on_hold, channel_shipping_unavailable, marketplace_rejected (the platform refused: not ready, a slot gone)"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn arrange_channel_shipment(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<ArrangeShipmentInput>,
) -> ApiResult<Json<ChannelShippingBody>> {
    auth.require(EDIT)?;
    let handover = enum_field::<pb::Handover>("handover", Some(b.handover.as_str()), "validation.choice")?;
    let r = client(&state)?
        .arrange_channel_shipment(auth.ctx().request(pb::ArrangeChannelShipmentRequest {
            order_id: id,
            handover,
            address_id: b.address_id,
            slot_id: b.slot_id,
            tracking_no: b.tracking_no,
        }))
        .await?
        .into_inner();
    Ok(Json(r.into()))
}

/// Which orders' labels to print.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct ChannelLabelsInput {
    /// Arranged marketplace orders (1 to 50).
    pub order_ids: Vec<i64>,
}

/// An order whose label was not printed.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelLabelFailureBody {
    pub order_id: i64,
    /// channel_shipment_not_arranged, channel_tracking_pending, channel_order_not_found,
    /// marketplace_rejected, …
    pub code: String,
    /// The platform's words, where it refused.
    pub message: String,
}

/// The labels printed, and why the others were not.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelLabelsBody {
    /// One PDF of the platforms' labels (A6), base64; empty when none was printed.
    pub pdf: String,
    pub printed: Vec<i64>,
    pub failed: Vec<ChannelLabelFailureBody>,
}

/// The platforms' own labels (air waybills) of arranged marketplace orders in one PDF, in the
/// order asked, with each order not printed and why.
#[utoipa::path(post, path = "/orders/marketplace-labels", tag = "orders", request_body = ChannelLabelsInput,
    responses((status = 200, body = ChannelLabelsBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn print_channel_labels(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<ChannelLabelsInput>,
) -> ApiResult<Json<ChannelLabelsBody>> {
    auth.require(EDIT)?;
    let r = client(&state)?
        .print_channel_labels(auth.ctx().request(pb::PrintChannelLabelsRequest { order_ids: b.order_ids }))
        .await?
        .into_inner();
    Ok(Json(ChannelLabelsBody {
        pdf: if r.pdf.is_empty() { String::new() } else { base64::engine::general_purpose::STANDARD.encode(&r.pdf) },
        printed: r.printed,
        failed: failures(r.failures),
    }))
}

/// The seller's answer to a buyer's request to cancel.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct CancelAnswerInput {
    /// accept (the order is cancelled and its stock released) or reject (it goes on).
    pub decision: String,
}

/// What the platform did with the order.
#[derive(Debug, Serialize, ToSchema)]
pub struct CancelAnswerBody {
    /// The platform cancelled the order; ours follows.
    pub cancelled: bool,
}

/// Accepts or rejects the buyer's request to cancel a marketplace order, on the platform
/// first; our order then follows the platform. A request answered no longer waits: a second
/// answer is refused and releases nothing.
#[utoipa::path(post, path = "/orders/{id}/marketplace-cancellation", tag = "orders", params(("id" = i64, Path)),
    request_body = CancelAnswerInput,
    responses((status = 200, body = CancelAnswerBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "channel_order_not_found"),
        (status = 409, body = ErrorBody,
            description = "channel_cancel_not_asked, channel_cancel_unavailable, marketplace_rejected (the platform refused, in its words)"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn answer_channel_cancellation(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<CancelAnswerInput>,
) -> ApiResult<Json<CancelAnswerBody>> {
    auth.require(EDIT)?;
    let accept = match b.decision.trim() {
        "accept" => true,
        "reject" => false,
        "" => return Err(ApiError::invalid_field("decision", "validation.required")),
        _ => return Err(ApiError::invalid_field("decision", "validation.choice")),
    };
    let r = client(&state)?
        .answer_channel_cancellation(auth.ctx().request(pb::AnswerChannelCancellationRequest { order_id: id, accept }))
        .await?
        .into_inner();
    Ok(Json(CancelAnswerBody { cancelled: r.cancelled }))
}

/// Marketplace orders to arrange at once, one way for all.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct ArrangeShipmentsInput {
    /// Our marketplace orders (1 to 50).
    pub order_ids: Vec<i64>,
    /// pickup (each order's default pick-up address, the first time offered) or dropoff; an
    /// order whose platform hands over only as the shop is set up there goes that way.
    pub handover: String,
}

/// The orders arranged, and why the others were not.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelArrangedBody {
    /// Arranged now or before, in the order asked.
    pub arranged: Vec<i64>,
    pub failed: Vec<ChannelLabelFailureBody>,
}

/// Arranges many marketplace orders' shipments with their platforms, each on its own and
/// the platform first (each of ours then follows what its platform says).
#[utoipa::path(post, path = "/orders/marketplace-shipping", tag = "orders", request_body = ArrangeShipmentsInput,
    responses((status = 200, body = ChannelArrangedBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn arrange_channel_shipments(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<ArrangeShipmentsInput>,
) -> ApiResult<Json<ChannelArrangedBody>> {
    auth.require(EDIT)?;
    let handover = match b.handover.trim() {
        "pickup" => pb::Handover::Pickup,
        "dropoff" => pb::Handover::Dropoff,
        "" => return Err(ApiError::invalid_field("handover", "validation.required")),
        _ => return Err(ApiError::invalid_field("handover", "validation.choice")),
    };
    let r = client(&state)?
        .arrange_channel_shipments(
            auth.ctx()
                .request(pb::ArrangeChannelShipmentsRequest { order_ids: b.order_ids, handover: handover.into() }),
        )
        .await?
        .into_inner();
    Ok(Json(ChannelArrangedBody { arranged: r.arranged, failed: failures(r.failures) }))
}

fn failures(f: Vec<pb::LabelFailure>) -> Vec<ChannelLabelFailureBody> {
    f.into_iter().map(|f| ChannelLabelFailureBody { order_id: f.order_id, code: f.code, message: f.message }).collect()
}
