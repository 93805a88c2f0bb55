//! The shipping calls of the contract: a marketplace order's ways of handing over and its
//! shipment, arranging it, and the platform's labels of many orders in one PDF.

use bo_kit::grpc::CallCtx;
use bo_kit::{Code, Error};
use bo_proto::marketplaces::v1 as pb;
use tonic::{Request, Response};

use super::{timestamp, MarketplacesGrpc, Rpc};
use crate::adapters::shipping::{Handover, ShipOptions};
use crate::intake::shipping::LABELS_MAX;
use crate::store::shipments::{handover, ShipmentRow};

fn options(o: ShipOptions) -> pb::ShipOptions {
    pb::ShipOptions {
        pickup: o
            .pickup
            .into_iter()
            .map(|a| pb::PickupAddress {
                id: a.id,
                address: a.address,
                is_default: a.default,
                slots: a
                    .slots
                    .into_iter()
                    .map(|s| pb::PickupSlot { id: s.id, date: timestamp(s.date_s * 1000), text: s.text })
                    .collect(),
            })
            .collect(),
        dropoff: o.dropoff,
        own_carrier: o.own_carrier,
        platform: o.platform,
    }
}

fn shipment(s: ShipmentRow) -> pb::ChannelShipment {
    let how = match s.handover.as_str() {
        handover::PICKUP => pb::Handover::Pickup,
        handover::DROPOFF => pb::Handover::Dropoff,
        handover::OWN_CARRIER => pb::Handover::OwnCarrier,
        handover::PLATFORM => pb::Handover::Platform,
        _ => pb::Handover::Unspecified,
    };
    pb::ChannelShipment {
        order_id: s.our_order_id,
        store_channel_id: s.store_channel_id,
        channel_order_id: s.order_id,
        handover: how.into(),
        tracking_no: s.tracking_no,
        arrange_time: timestamp(s.arranged_at),
        label_time: timestamp(s.label_at),
    }
}

/// The seller's choice as the request gives it, each field checked.
fn handover_of(r: &pb::ArrangeChannelShipmentRequest) -> Result<Handover, Error> {
    let text = |s: &str, field: &str, max: usize| {
        let s = s.trim();
        if s.is_empty() {
            Err(Error::invalid_field(field, "validation.required"))
        } else if s.chars().count() > max {
            Err(Error::invalid_field(field, "validation.too_long"))
        } else {
            Ok(s.to_string())
        }
    };
    match r.handover() {
        pb::Handover::Pickup => Ok(Handover::Pickup {
            address_id: text(&r.address_id, "address_id", 40)?,
            slot_id: text(&r.slot_id, "slot_id", 40)?,
        }),
        pb::Handover::Dropoff => Ok(Handover::Dropoff),
        // Shopee takes at most 64 characters.
        pb::Handover::OwnCarrier => Ok(Handover::OwnCarrier { tracking_no: text(&r.tracking_no, "tracking_no", 64)? }),
        pb::Handover::Platform => Ok(Handover::Platform),
        pb::Handover::Unspecified => Err(Error::invalid_field("handover", "validation.required")),
    }
}

/// Orders asked for at once: 1 to 50, each once, in the order asked.
fn order_ids(mut ids: Vec<i64>) -> Result<Vec<i64>, Error> {
    if ids.is_empty() {
        return Err(Error::invalid_field("order_ids", "validation.required"));
    }
    if ids.len() > LABELS_MAX {
        return Err(Error::invalid_field("order_ids", "validation.too_many"));
    }
    let mut seen = std::collections::HashSet::new();
    ids.retain(|id| seen.insert(*id));
    Ok(ids)
}

fn failures(failed: Vec<crate::intake::shipping::LabelFailure>) -> Vec<pb::LabelFailure> {
    failed
        .into_iter()
        .map(|(order_id, code, message)| pb::LabelFailure { order_id, code: code.as_str().into(), message })
        .collect()
}

impl MarketplacesGrpc {
    pub(super) async fn get_channel_shipping_rpc(
        &self,
        req: Request<pb::GetChannelShippingRequest>,
    ) -> Rpc<pb::ChannelShippingResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let (o, s, cancel) =
            self.intake.channel_shipping(ctx.store_id, req.into_inner().order_id).await.map_err(Error::from)?;
        Ok(Response::new(pb::ChannelShippingResponse {
            options: o.map(options),
            shipment: s.map(shipment),
            cancel_request: cancel.map(|reason| pb::ChannelCancelRequest { reason }),
        }))
    }

    pub(super) async fn arrange_channel_shipment_rpc(
        &self,
        req: Request<pb::ArrangeChannelShipmentRequest>,
    ) -> Rpc<pb::ChannelShippingResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let how = handover_of(&r)?;
        let s = self.intake.arrange(ctx.store_id, ctx.user_id, r.order_id, &how).await.map_err(Error::from)?;
        Ok(Response::new(pb::ChannelShippingResponse {
            options: None,
            shipment: Some(shipment(s)),
            cancel_request: None,
        }))
    }

    pub(super) async fn arrange_channel_shipments_rpc(
        &self,
        req: Request<pb::ArrangeChannelShipmentsRequest>,
    ) -> Rpc<pb::ArrangeChannelShipmentsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let pickup = match r.handover() {
            pb::Handover::Pickup => true,
            pb::Handover::Dropoff => false,
            pb::Handover::Unspecified | pb::Handover::OwnCarrier | pb::Handover::Platform => {
                return Err(Error::invalid_field("handover", "validation.choice").into())
            }
        };
        let ids = order_ids(r.order_ids)?;
        let (arranged, failed) = self.intake.arrange_many(ctx.store_id, ctx.user_id, &ids, pickup).await;
        Ok(Response::new(pb::ArrangeChannelShipmentsResponse { arranged, failures: failures(failed) }))
    }

    pub(super) async fn answer_channel_cancellation_rpc(
        &self,
        req: Request<pb::AnswerChannelCancellationRequest>,
    ) -> Rpc<pb::AnswerChannelCancellationResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let cancelled =
            self.intake.answer_cancellation(ctx.store_id, r.order_id, r.accept).await.map_err(Error::from)?;
        Ok(Response::new(pb::AnswerChannelCancellationResponse { cancelled }))
    }

    pub(super) async fn print_channel_labels_rpc(
        &self,
        req: Request<pb::PrintChannelLabelsRequest>,
    ) -> Rpc<pb::PrintChannelLabelsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let ids = order_ids(req.into_inner().order_ids)?;
        let (pdf, printed, failed) = self.intake.labels(ctx.store_id, &ids).await.map_err(Error::from)?;
        if printed.is_empty() && failed.is_empty() {
            return Err(Error::conflict(Code::ChannelLabelsNone).into());
        }
        Ok(Response::new(pb::PrintChannelLabelsResponse { pdf, printed, failures: failures(failed) }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handover_is_checked_field_by_field() {
        let r = |h: pb::Handover, address: &str, slot: &str, tracking: &str| pb::ArrangeChannelShipmentRequest {
            order_id: 1,
            handover: h.into(),
            address_id: address.into(),
            slot_id: slot.into(),
            tracking_no: tracking.into(),
        };
        assert_eq!(
            handover_of(&r(pb::Handover::Pickup, " 2826 ", "1639472400", "")).unwrap(),
            Handover::Pickup { address_id: "2826".into(), slot_id: "1639472400".into() }
        );
        let missing = handover_of(&r(pb::Handover::Pickup, "2826", "", "")).unwrap_err();
        assert_eq!(missing.fields[0].field, "slot_id");
        assert_eq!(handover_of(&r(pb::Handover::Dropoff, "", "", "")).unwrap(), Handover::Dropoff);
        let long = "K".repeat(65);
        assert_eq!(
            handover_of(&r(pb::Handover::OwnCarrier, "", "", &long)).unwrap_err().fields[0].code,
            "validation.too_long"
        );
        assert_eq!(handover_of(&r(pb::Handover::Unspecified, "", "", "")).unwrap_err().fields[0].field, "handover");
    }
}
