//! The open-API channels of the contract: the owner's channels and their keys, the webhook
//! events, and the gateway's question of which channel a key opens.

use bo_kit::grpc::CallCtx;
use bo_kit::time::now_ms;
use bo_kit::{Code, Error};
use bo_proto::marketplaces::v1 as pb;
use bo_proto::Wire as _;
use tonic::{Request, Response};

use super::{timestamp, MarketplacesGrpc, Rpc};
use crate::domain::api_channel::{self, Form};
use crate::store::api_channels::{ApiChannelRow, KeyRow};
use crate::store::{ChannelRow, Settings as ChannelSettings};

pub(super) fn key(k: &KeyRow, now: i64) -> pb::ApiKey {
    pb::ApiKey {
        id: k.id,
        shown: api_channel::shown(&k.prefix),
        create_time: timestamp(k.created_at),
        expire_time: timestamp(k.expires_at),
        revoke_time: timestamp(k.revoked_at),
        last_use_time: timestamp(k.last_used_at),
        working: k.works(now),
    }
}

/// A channel as the contract shows it; its secret and keys only where asked.
pub fn api_channel(r: &ApiChannelRow, secret: Option<String>, keys: &[KeyRow]) -> pb::ApiChannel {
    let now = now_ms();
    pb::ApiChannel {
        id: r.id,
        name: r.name.clone(),
        channel: pb::SaleChannel::number(&r.channel),
        warehouse_id: r.warehouse_id,
        logistic_channel_id: r.logistic_channel_id,
        payment_channel_id: r.payment_channel_id,
        status: pb::ChannelStatus::number(&r.status),
        webhook_url: r.webhook_url.clone(),
        events: r.events(),
        webhook_secret: secret.unwrap_or_default(),
        keys: keys.iter().map(|k| key(k, now)).collect(),
        create_time: timestamp(r.created_at),
        update_time: timestamp(r.updated_at),
        version: r.version,
        webhook_failing_time: timestamp(r.webhook_failing_since),
        webhook_disabled_time: timestamp(r.webhook_disabled_at),
        webhook_delivered_time: timestamp(r.webhook_delivered_at),
    }
}

fn form_of(f: Option<pb::ApiChannelForm>) -> Form {
    let f = f.unwrap_or_default();
    Form {
        name: f.name,
        channel: pb::SaleChannel::word_of(f.channel).to_string(),
        warehouse_id: f.warehouse_id,
        logistic_channel_id: f.logistic_channel_id,
        payment_channel_id: f.payment_channel_id,
        webhook_url: f.webhook_url,
        events: f.events,
        status: pb::ChannelStatus::word_of(f.status).to_string(),
    }
}

/// A shop that had none of the form's settings, so every one is checked.
fn nothing_set() -> ChannelRow {
    ChannelRow {
        id: 0,
        store_id: 0,
        marketplace: String::new(),
        shop_id: String::new(),
        shop_name: String::new(),
        region: String::new(),
        cipher: String::new(),
        warehouse_id: 0,
        logistic_channel_id: 0,
        payment_channel_id: 0,
        status: String::new(),
        token_expired: 0,
        access_expires_at: 0,
        refresh_expires_at: 0,
        orders_watermark: 0,
        last_order_sync_at: 0,
        last_stock_push_at: 0,
        created_at: 0,
        updated_at: 0,
        version: 0,
    }
}

impl MarketplacesGrpc {
    /// A channel of the store with its secret and keys.
    pub(super) async fn api_channel_whole(&self, store_id: i64, id: i64) -> bo_kit::Result<pb::ApiChannel> {
        let row = self.repo.api_channel(store_id, id).await?;
        let secret = self.repo.webhook_secret(store_id, id).await?;
        let keys = self.repo.api_keys(store_id, id).await?;
        Ok(api_channel(&row, Some(secret.expose().to_string()), &keys))
    }

    /// A channel's warehouse, shipping channel and payment account, `[warehouse, shipping,
    /// account]`, checked as the store's own; those it had already (`was`) are not asked again.
    pub(super) async fn check_defaults(
        &self,
        ctx: &CallCtx,
        now: [i64; 3],
        was: Option<[i64; 3]>,
    ) -> bo_kit::Result<()> {
        let mut before = nothing_set();
        if let Some([w, l, p]) = was {
            (before.warehouse_id, before.logistic_channel_id, before.payment_channel_id) = (w, l, p);
        }
        let settings = ChannelSettings {
            warehouse_id: now[0],
            logistic_channel_id: now[1],
            payment_channel_id: now[2],
            status: crate::domain::channel::Status::Active,
        };
        self.check_settings(ctx, &settings, &before).await
    }

    /// A form checked, with its warehouse, shipping channel and account the store's own.
    async fn checked_form(
        &self,
        ctx: &CallCtx,
        f: Option<pb::ApiChannelForm>,
        was: Option<&ApiChannelRow>,
    ) -> bo_kit::Result<Form> {
        let form = api_channel::check(&form_of(f))?;
        let now = [form.warehouse_id, form.logistic_channel_id, form.payment_channel_id];
        self.check_defaults(ctx, now, was.map(|w| [w.warehouse_id, w.logistic_channel_id, w.payment_channel_id]))
            .await?;
        Ok(form)
    }

    pub(super) async fn list_api_channels_rpc(
        &self,
        req: Request<pb::ListApiChannelsRequest>,
    ) -> Rpc<pb::ListApiChannelsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let mut channels = Vec::new();
        for r in self.repo.api_channels(ctx.store_id).await? {
            let keys = self.repo.api_keys(ctx.store_id, r.id).await?;
            channels.push(api_channel(&r, None, &keys));
        }
        Ok(Response::new(pb::ListApiChannelsResponse { channels }))
    }

    pub(super) async fn get_api_channel_rpc(
        &self,
        req: Request<pb::GetApiChannelRequest>,
    ) -> Rpc<pb::ApiChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let id = req.into_inner().id;
        Ok(Response::new(pb::ApiChannelResponse { channel: Some(self.api_channel_whole(ctx.store_id, id).await?) }))
    }

    pub(super) async fn generate_api_key_rpc(
        &self,
        req: Request<pb::GenerateApiKeyRequest>,
    ) -> Rpc<pb::GenerateApiKeyResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let (key, key_id) = self.repo.generate_api_key(ctx.store_id, ctx.user_id).await?;
        Ok(Response::new(pb::GenerateApiKeyResponse {
            key,
            key_id,
            expire_time: timestamp(now_ms() + api_channel::UNBOUND_MS),
        }))
    }

    pub(super) async fn create_api_channel_rpc(
        &self,
        req: Request<pb::CreateApiChannelRequest>,
    ) -> Rpc<pb::ApiChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let form = self.checked_form(&ctx, r.form, None).await?;
        if r.key_id <= 0 {
            return Err(Error::invalid_field("key_id", "validation.api_key").into());
        }
        let row = self.repo.create_api_channel(ctx.store_id, ctx.user_id, &form, r.key_id).await?;
        tracing::info!(api_channel = row.id, "open-API channel made");
        Ok(Response::new(pb::ApiChannelResponse { channel: Some(self.api_channel_whole(ctx.store_id, row.id).await?) }))
    }

    pub(super) async fn update_api_channel_rpc(
        &self,
        req: Request<pb::UpdateApiChannelRequest>,
    ) -> Rpc<pb::ApiChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let was = self.repo.api_channel(ctx.store_id, r.id).await?;
        let form = self.checked_form(&ctx, r.form, Some(&was)).await?;
        self.repo.update_api_channel(ctx.store_id, r.id, &form, r.version).await?;
        Ok(Response::new(pb::ApiChannelResponse { channel: Some(self.api_channel_whole(ctx.store_id, r.id).await?) }))
    }

    pub(super) async fn roll_api_key_rpc(&self, req: Request<pb::RollApiKeyRequest>) -> Rpc<pb::ApiChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        if !api_channel::GRACE_HOURS.contains(&r.grace_hours) {
            return Err(Error::invalid_field("grace_hours", "validation.choice").into());
        }
        if r.key_id <= 0 {
            return Err(Error::invalid_field("key_id", "validation.api_key").into());
        }
        self.repo.roll_api_key(ctx.store_id, r.id, r.key_id, r.grace_hours).await?;
        tracing::info!(api_channel = r.id, grace_hours = r.grace_hours, "open-API channel's key rolled");
        // An old key ending within a day is told to the channel's webhook now, not in a minute.
        if let Err(e) = self.intake.tell_keys_expiring().await {
            tracing::warn!(api_channel = r.id, error = %e, "could not tell a rolled key's end yet");
        }
        Ok(Response::new(pb::ApiChannelResponse { channel: Some(self.api_channel_whole(ctx.store_id, r.id).await?) }))
    }

    pub(super) async fn revoke_api_keys_rpc(
        &self,
        req: Request<pb::GetApiChannelRequest>,
    ) -> Rpc<pb::ApiChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let id = req.into_inner().id;
        let n = self.repo.revoke_api_keys(ctx.store_id, id).await?;
        tracing::info!(api_channel = id, keys = n, "open-API channel's keys revoked");
        Ok(Response::new(pb::ApiChannelResponse { channel: Some(self.api_channel_whole(ctx.store_id, id).await?) }))
    }

    pub(super) async fn list_webhook_events_rpc(
        &self,
        _req: Request<pb::ListWebhookEventsRequest>,
    ) -> Rpc<pb::ListWebhookEventsResponse> {
        Ok(Response::new(pb::ListWebhookEventsResponse {
            events: api_channel::EVENTS.iter().map(|e| e.to_string()).collect(),
        }))
    }

    pub(super) async fn authenticate_api_key_rpc(
        &self,
        req: Request<pb::AuthenticateApiKeyRequest>,
    ) -> Rpc<pb::AuthenticateApiKeyResponse> {
        bo_kit::grpc::service_only(&req)?;
        let key = req.into_inner().key;
        let found = self.repo.authenticate_api_key(&key).await?;
        let Some(row) = found else {
            return Err(Error::new(bo_kit::error::Kind::Unauthenticated, Code::ApiKeyRefused).into());
        };
        Ok(Response::new(pb::AuthenticateApiKeyResponse {
            store_id: row.store_id,
            channel: Some(api_channel(&row, None, &[])),
        }))
    }

    /// The active channel of the caller's store an integrator's call names (the gateway
    /// calls for the store its key opens).
    async fn key_channel<T>(&self, req: &Request<T>, id: i64) -> bo_kit::Result<ApiChannelRow> {
        bo_kit::grpc::service_only(req).map_err(|s| Error::from_status(&s))?;
        let ctx = CallCtx::store_scoped(req).map_err(|s| Error::from_status(&s))?;
        let row = self.repo.api_channel(ctx.store_id, id).await?;
        if !row.active() {
            return Err(Error::new(bo_kit::error::Kind::Unauthenticated, Code::ApiKeyRefused));
        }
        Ok(row)
    }

    pub(super) async fn api_create_order_rpc(
        &self,
        req: Request<pb::ApiCreateOrderRequest>,
    ) -> Rpc<pb::ApiOrderResponse> {
        let ch = self.key_channel(&req, req.get_ref().api_channel_id).await?;
        let r = req.into_inner();
        let (order, replayed) =
            self.intake.api_create_order(&ch, r.idempotency_key.trim(), r.order.unwrap_or_default()).await?;
        Ok(Response::new(pb::ApiOrderResponse { order: Some(order), replayed }))
    }

    pub(super) async fn api_get_order_rpc(&self, req: Request<pb::ApiOrderRequest>) -> Rpc<pb::ApiOrderResponse> {
        let ch = self.key_channel(&req, req.get_ref().api_channel_id).await?;
        let order = self.intake.api_order(&ch, req.get_ref().order_id).await?;
        Ok(Response::new(pb::ApiOrderResponse { order: Some(order), replayed: false }))
    }

    pub(super) async fn api_list_orders_rpc(
        &self,
        req: Request<pb::ApiListOrdersRequest>,
    ) -> Rpc<pb::ApiListOrdersResponse> {
        let ch = self.key_channel(&req, req.get_ref().api_channel_id).await?;
        let r = req.into_inner();
        let (orders, next) = self.intake.api_orders(&ch, r.after, r.limit).await?;
        Ok(Response::new(pb::ApiListOrdersResponse { orders, next }))
    }

    pub(super) async fn api_cancel_order_rpc(
        &self,
        req: Request<pb::ApiCancelOrderRequest>,
    ) -> Rpc<pb::ApiOrderResponse> {
        let ch = self.key_channel(&req, req.get_ref().api_channel_id).await?;
        let r = req.into_inner();
        let order = self.intake.api_cancel(&ch, r.order_id, &r.reason).await?;
        Ok(Response::new(pb::ApiOrderResponse { order: Some(order), replayed: false }))
    }

    pub(super) async fn api_list_skus_rpc(&self, req: Request<pb::ApiListSkusRequest>) -> Rpc<pb::ApiListSkusResponse> {
        let ch = self.key_channel(&req, req.get_ref().api_channel_id).await?;
        let r = req.into_inner();
        let (skus, next_page) = self.intake.api_skus(&ch, r.page, r.limit, &r.search).await?;
        Ok(Response::new(pb::ApiListSkusResponse { skus, next_page }))
    }

    pub(super) async fn api_link_skus_rpc(&self, req: Request<pb::ApiLinkSkusRequest>) -> Rpc<pb::ApiLinkSkusResponse> {
        let ch = self.key_channel(&req, req.get_ref().api_channel_id).await?;
        let results = self.intake.api_link(&ch, req.into_inner().links).await?;
        Ok(Response::new(pb::ApiLinkSkusResponse { results }))
    }

    pub(super) async fn api_list_stock_rpc(
        &self,
        req: Request<pb::ApiListStockRequest>,
    ) -> Rpc<pb::ApiListStockResponse> {
        let ch = self.key_channel(&req, req.get_ref().api_channel_id).await?;
        let r = req.into_inner();
        let (stock, next) = self.intake.api_stock(&ch, &r.after, r.limit).await?;
        Ok(Response::new(pb::ApiListStockResponse { stock, next }))
    }
}
