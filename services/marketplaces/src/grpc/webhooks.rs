//! Open-API channels' webhooks on the contract: the delivery log (30 days) with each
//! delivery's body and attempts, a delivery or a time range sent again, the owner's test
//! send, turning a webhook back on, and a product's stock sent now.

use bo_kit::grpc::CallCtx;
use bo_kit::time::{now_ms, timestamp_to_ms};
use bo_kit::Error;
use bo_proto::marketplaces::v1 as pb;
use bo_proto::Wire as _;
use tonic::{Request, Response};

use super::{timestamp, MarketplacesGrpc, Rpc};
use crate::domain::webhook;
use crate::store::webhooks::{AttemptRow, LogFilter, MessageRow};

/// The most deliveries of one page.
const PAGE_MAX: i64 = 100;
/// The most SKUs of one "send stock now".
const PUSH_MAX: usize = 500;

/// A delivery as the contract shows it; its body and attempts where `key` signs them.
fn delivery(m: &MessageRow, detail: Option<(&[u8], &[AttemptRow])>) -> pb::WebhookDelivery {
    let (payload, attempt_log) = match detail {
        Some((key, attempts)) => (
            m.payload.clone(),
            attempts
                .iter()
                .map(|a| pb::WebhookAttempt {
                    time: timestamp(a.at),
                    url: a.url.clone(),
                    timestamp: a.timestamp_s,
                    signature: webhook::signature(key, &m.message_id, a.timestamp_s, &m.payload),
                    status: a.status as i32,
                    duration_ms: a.duration_ms,
                    answer: a.answer.clone(),
                    error: a.error.clone(),
                })
                .collect(),
        ),
        None => (String::new(), Vec::new()),
    };
    let pending = m.state == webhook::State::Pending.as_str();
    pb::WebhookDelivery {
        message_id: m.message_id.clone(),
        event_type: m.event_type.clone(),
        state: pb::WebhookDeliveryState::number(&m.state),
        attempts: m.attempts,
        create_time: timestamp(m.created_at),
        next_attempt_time: if pending { timestamp(m.next_at) } else { None },
        deliver_time: timestamp(m.delivered_at),
        last_status: m.last_status as i32,
        last_error: m.last_error.clone(),
        payload,
        attempt_log,
    }
}

impl MarketplacesGrpc {
    /// One delivery of a channel of the store, whole.
    async fn delivery_whole(
        &self,
        store_id: i64,
        channel: i64,
        message_id: &str,
    ) -> bo_kit::Result<pb::WebhookDelivery> {
        let (m, attempts) = self.repo.webhook_message(store_id, channel, message_id).await?;
        let secret = self.repo.webhook_secret(store_id, channel).await?;
        let key = webhook::key_of(secret.expose()).unwrap_or_default();
        Ok(delivery(&m, Some((key.as_slice(), attempts.as_slice()))))
    }

    pub(super) async fn list_webhook_deliveries_rpc(
        &self,
        req: Request<pb::ListWebhookDeliveriesRequest>,
    ) -> Rpc<pb::ListWebhookDeliveriesResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let limit = if r.limit == 0 { 20 } else { r.limit };
        if !(1..=PAGE_MAX).contains(&limit) {
            return Err(Error::invalid_field("limit", "validation.invalid").into());
        }
        let f = LogFilter {
            from: r.from_time.as_ref().map(timestamp_to_ms).unwrap_or(0),
            to: r.to_time.as_ref().map(timestamp_to_ms).unwrap_or(0),
            state: pb::WebhookDeliveryState::word_of(r.state).to_string(),
            event_type: r.event_type.trim().to_string(),
            page: r.page.max(1),
            limit,
        };
        let (rows, total) = self.repo.webhook_log(ctx.store_id, r.api_channel_id, &f).await?;
        Ok(Response::new(pb::ListWebhookDeliveriesResponse {
            deliveries: rows.iter().map(|m| delivery(m, None)).collect(),
            total,
        }))
    }

    pub(super) async fn get_webhook_delivery_rpc(
        &self,
        req: Request<pb::WebhookDeliveryRequest>,
    ) -> Rpc<pb::WebhookDeliveryResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let d = self.delivery_whole(ctx.store_id, r.api_channel_id, &r.message_id).await?;
        Ok(Response::new(pb::WebhookDeliveryResponse { delivery: Some(d) }))
    }

    pub(super) async fn replay_webhook_delivery_rpc(
        &self,
        req: Request<pb::WebhookDeliveryRequest>,
    ) -> Rpc<pb::WebhookDeliveryResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        self.repo.replay_webhook(ctx.store_id, r.api_channel_id, &r.message_id).await?;
        self.intake.wake_webhooks();
        tracing::info!(api_channel = r.api_channel_id, message = %r.message_id, "webhook delivery sent again");
        let d = self.delivery_whole(ctx.store_id, r.api_channel_id, &r.message_id).await?;
        Ok(Response::new(pb::WebhookDeliveryResponse { delivery: Some(d) }))
    }

    pub(super) async fn replay_webhook_deliveries_rpc(
        &self,
        req: Request<pb::ReplayWebhookDeliveriesRequest>,
    ) -> Rpc<pb::ReplayWebhookDeliveriesResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let mut errs = Vec::new();
        let from = r.from_time.as_ref().map(timestamp_to_ms);
        let to = r.to_time.as_ref().map(timestamp_to_ms);
        if from.is_none() {
            errs.push(bo_kit::FieldError::new("from", "validation.required"));
        }
        if to.is_none() {
            errs.push(bo_kit::FieldError::new("to", "validation.required"));
        }
        if let (Some(f), Some(t)) = (from, to) {
            if t < f {
                errs.push(bo_kit::FieldError::new("to", "validation.date_range"));
            }
        }
        if !errs.is_empty() {
            return Err(Error::invalid(errs).into());
        }
        let (from, to) = (from.unwrap_or(0), to.unwrap_or(0).min(now_ms()));
        let replayed = self.repo.replay_webhooks(ctx.store_id, r.api_channel_id, from, to, r.failed_only).await?;
        self.intake.wake_webhooks();
        tracing::info!(api_channel = r.api_channel_id, replayed, "webhook deliveries of a time range sent again");
        Ok(Response::new(pb::ReplayWebhookDeliveriesResponse { replayed }))
    }

    pub(super) async fn send_test_webhook_rpc(
        &self,
        req: Request<pb::GetApiChannelRequest>,
    ) -> Rpc<pb::WebhookDeliveryResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let id = req.into_inner().id;
        let message_id = self.repo.enqueue_test_webhook(ctx.store_id, id).await?;
        self.intake.wake_webhooks();
        let d = self.delivery_whole(ctx.store_id, id, &message_id).await?;
        Ok(Response::new(pb::WebhookDeliveryResponse { delivery: Some(d) }))
    }

    pub(super) async fn resume_webhook_rpc(
        &self,
        req: Request<pb::GetApiChannelRequest>,
    ) -> Rpc<pb::ApiChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let id = req.into_inner().id;
        self.repo.resume_webhook(ctx.store_id, id).await?;
        self.intake.wake_webhooks();
        tracing::info!(api_channel = id, "webhook turned back on");
        Ok(Response::new(pb::ApiChannelResponse { channel: Some(self.api_channel_whole(ctx.store_id, id).await?) }))
    }

    pub(super) async fn push_api_stock_rpc(
        &self,
        req: Request<pb::PushApiStockRequest>,
    ) -> Rpc<pb::PushApiStockResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        if r.sku_ids.len() > PUSH_MAX {
            return Err(Error::invalid_field("sku_ids", "validation.too_many").into());
        }
        let pushed = self.intake.push_api_stock(ctx.store_id, r.api_channel_id, &r.sku_ids).await? as i64;
        Ok(Response::new(pb::PushApiStockResponse { pushed }))
    }
}
