//! Magento shops of the contract: listed, read, made and rewritten after their connection is
//! tried (their warehouse, shipping channel and account checked as the store's), and polled
//! now. Their credentials go in and never come out.

use bo_kit::grpc::CallCtx;
use bo_kit::time::now_ms;
use bo_kit::Error;
use bo_proto::marketplaces::v1 as pb;
use bo_proto::Wire as _;
use tonic::{Request, Response};

use super::api::key;
use super::{timestamp, MarketplacesGrpc, Rpc};
use crate::domain::magento::{self, Auth, Credentials, Form};
use crate::store::api_channels::{ApiChannelRow, KeyRow};
use crate::store::magento::MagentoRow;

/// A shop as the contract shows it.
pub fn magento_channel(ch: &ApiChannelRow, m: &MagentoRow, keys: &[KeyRow]) -> pb::MagentoChannel {
    let now = now_ms();
    pb::MagentoChannel {
        id: ch.id,
        name: ch.name.clone(),
        url: m.url.clone(),
        store_code: m.store_code.clone(),
        auth: pb::MagentoAuth::number(&m.auth),
        source_code: m.source_code.clone(),
        warehouse_id: ch.warehouse_id,
        logistic_channel_id: ch.logistic_channel_id,
        payment_channel_id: ch.payment_channel_id,
        status: pb::ChannelStatus::number(&ch.status),
        keys: keys.iter().map(|k| key(k, now)).collect(),
        last_poll_time: timestamp(m.polled_at),
        poll_error: m.poll_error.clone(),
        orders_taken: m.orders_taken,
        stock_push_time: timestamp(m.stock_pushed_at),
        stock_error: m.stock_error.clone(),
        create_time: timestamp(ch.created_at),
        update_time: timestamp(ch.updated_at),
        version: ch.version,
    }
}

fn form_of(f: Option<pb::MagentoChannelForm>) -> Form {
    let f = f.unwrap_or_default();
    Form {
        name: f.name,
        url: f.url,
        store_code: f.store_code,
        auth: pb::MagentoAuth::word_of(f.auth).to_string(),
        credentials: Credentials {
            access_token: f.access_token,
            access_token_secret: f.access_token_secret,
            consumer_key: f.consumer_key,
            consumer_secret: f.consumer_secret,
        },
        source_code: f.source_code,
        warehouse_id: f.warehouse_id,
        logistic_channel_id: f.logistic_channel_id,
        payment_channel_id: f.payment_channel_id,
        status: pb::ChannelStatus::word_of(f.status).to_string(),
    }
}

impl MarketplacesGrpc {
    async fn magento_whole(&self, store_id: i64, id: i64) -> bo_kit::Result<pb::MagentoChannel> {
        let m = self.repo.magento_channel(store_id, id).await?;
        let ch = self.repo.api_channel(store_id, id).await?;
        let keys = self.repo.api_keys(store_id, id).await?;
        Ok(magento_channel(&ch, &m, &keys))
    }

    /// A form checked (its credentials merged with those kept, on an edit), its defaults the
    /// store's own and its connection tried.
    async fn checked_magento_form(
        &self,
        ctx: &CallCtx,
        f: Option<pb::MagentoChannelForm>,
        was: Option<(&ApiChannelRow, &MagentoRow)>,
    ) -> bo_kit::Result<(Form, Credentials)> {
        let form = magento::check(&form_of(f), was.is_none())?;
        let credentials = match was {
            Some((_, m)) => magento::merge(&self.repo.magento_credentials(m)?, &form.credentials),
            None => form.credentials.clone(),
        };
        let auth = Auth::parse(&form.auth).unwrap_or(Auth::Bearer);
        let missing = magento::missing(auth, &credentials);
        if !missing.is_empty() {
            return Err(Error::invalid(
                missing.into_iter().map(|f| bo_kit::FieldError::new(f, "validation.required")).collect(),
            ));
        }
        let now = [form.warehouse_id, form.logistic_channel_id, form.payment_channel_id];
        self.check_defaults(ctx, now, was.map(|(c, _)| [c.warehouse_id, c.logistic_channel_id, c.payment_channel_id]))
            .await?;
        self.intake.check_magento(&form, &credentials).await?;
        Ok((form, credentials))
    }

    pub(super) async fn list_magento_channels_rpc(
        &self,
        req: Request<pb::ListMagentoChannelsRequest>,
    ) -> Rpc<pb::ListMagentoChannelsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let mut channels = Vec::new();
        for m in self.repo.magento_channels(ctx.store_id).await? {
            let ch = self.repo.api_channel(ctx.store_id, m.api_channel_id).await?;
            let keys = self.repo.api_keys(ctx.store_id, m.api_channel_id).await?;
            channels.push(magento_channel(&ch, &m, &keys));
        }
        Ok(Response::new(pb::ListMagentoChannelsResponse { channels }))
    }

    pub(super) async fn get_magento_channel_rpc(
        &self,
        req: Request<pb::GetMagentoChannelRequest>,
    ) -> Rpc<pb::MagentoChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let channel = self.magento_whole(ctx.store_id, req.get_ref().id).await?;
        Ok(Response::new(pb::MagentoChannelResponse { channel: Some(channel) }))
    }

    pub(super) async fn create_magento_channel_rpc(
        &self,
        req: Request<pb::CreateMagentoChannelRequest>,
    ) -> Rpc<pb::MagentoChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        // Every broken rule at once, the key's with the form's.
        let key_missing = (r.key_id <= 0).then(|| bo_kit::FieldError::new("key_id", "validation.api_key"));
        match magento::check(&form_of(r.form.clone()), true) {
            Err(mut e) => {
                e.fields.extend(key_missing);
                return Err(e.into());
            }
            Ok(_) if key_missing.is_some() => return Err(Error::invalid(key_missing.into_iter().collect()).into()),
            Ok(_) => {}
        }
        let (form, _) = self.checked_magento_form(&ctx, r.form, None).await?;
        let id = self.repo.create_magento_channel(ctx.store_id, ctx.user_id, &form, r.key_id).await?;
        tracing::info!(api_channel = id, "Magento shop connected");
        let channel = self.magento_whole(ctx.store_id, id).await?;
        Ok(Response::new(pb::MagentoChannelResponse { channel: Some(channel) }))
    }

    pub(super) async fn update_magento_channel_rpc(
        &self,
        req: Request<pb::UpdateMagentoChannelRequest>,
    ) -> Rpc<pb::MagentoChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let m = self.repo.magento_channel(ctx.store_id, r.id).await?;
        let ch = self.repo.api_channel(ctx.store_id, r.id).await?;
        let (form, credentials) = self.checked_magento_form(&ctx, r.form, Some((&ch, &m))).await?;
        self.repo.update_magento_channel(ctx.store_id, r.id, &form, &credentials, r.version).await?;
        if form.status == "active" && ch.status != "active" {
            // Turned back on: it is told every linked SKU's stock.
            self.repo.push_magento_skus(ctx.store_id, r.id, &[]).await?;
        }
        let channel = self.magento_whole(ctx.store_id, r.id).await?;
        Ok(Response::new(pb::MagentoChannelResponse { channel: Some(channel) }))
    }

    pub(super) async fn sync_magento_channel_rpc(
        &self,
        req: Request<pb::GetMagentoChannelRequest>,
    ) -> Rpc<pb::SyncMagentoChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let id = req.get_ref().id;
        let m = self.repo.magento_channel(ctx.store_id, id).await?;
        let ch = self.repo.api_channel(ctx.store_id, id).await?;
        if !ch.active() {
            return Err(Error::failed_precondition(bo_kit::Code::MagentoChannelInactive).into());
        }
        let (taken, poll_error) = self.intake.poll_magento(&ch, &m).await?;
        let due = self.repo.push_magento_skus(ctx.store_id, id, &[]).await?;
        let channel = self.magento_whole(ctx.store_id, id).await?;
        Ok(Response::new(pb::SyncMagentoChannelResponse {
            channel: Some(channel),
            orders_taken: taken as i64,
            poll_error,
            skus_due: due as i64,
        }))
    }
}
