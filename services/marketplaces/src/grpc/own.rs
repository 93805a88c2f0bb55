//! A store's own channels of the contract (social commerce and its website): listed, read,
//! made and rewritten, their warehouse, shipping channel and account checked as the store's.

use bo_kit::grpc::CallCtx;
use bo_proto::marketplaces::v1 as pb;
use bo_proto::Wire as _;
use tonic::{Request, Response};

use super::{timestamp, MarketplacesGrpc, Rpc};
use crate::domain::own_channel::{self, Form};
use crate::store::own_channels::OwnChannelRow;

/// An own channel as the contract shows it.
pub fn own_channel(r: &OwnChannelRow) -> pb::OwnChannel {
    pb::OwnChannel {
        id: r.id,
        name: r.name.clone(),
        channel: pb::SaleChannel::number(&r.channel),
        warehouse_id: r.warehouse_id,
        logistic_channel_id: r.logistic_channel_id,
        payment_channel_id: r.payment_channel_id,
        status: pb::ChannelStatus::number(&r.status),
        create_time: timestamp(r.created_at),
        update_time: timestamp(r.updated_at),
        version: r.version,
    }
}

fn form_of(f: Option<pb::OwnChannelForm>) -> Form {
    let f = f.unwrap_or_default();
    Form {
        name: f.name,
        channel: pb::SaleChannel::word_of(f.channel).to_string(),
        warehouse_id: f.warehouse_id,
        logistic_channel_id: f.logistic_channel_id,
        payment_channel_id: f.payment_channel_id,
        status: pb::ChannelStatus::word_of(f.status).to_string(),
    }
}

impl MarketplacesGrpc {
    /// A form checked, with its warehouse, shipping channel and account the store's own.
    async fn checked_own_form(
        &self,
        ctx: &CallCtx,
        f: Option<pb::OwnChannelForm>,
        was: Option<&OwnChannelRow>,
    ) -> bo_kit::Result<Form> {
        let form = own_channel::check(&form_of(f))?;
        let now = [form.warehouse_id, form.logistic_channel_id, form.payment_channel_id];
        self.check_defaults(ctx, now, was.map(|w| [w.warehouse_id, w.logistic_channel_id, w.payment_channel_id]))
            .await?;
        Ok(form)
    }

    pub(super) async fn list_own_channels_rpc(
        &self,
        req: Request<pb::ListOwnChannelsRequest>,
    ) -> Rpc<pb::ListOwnChannelsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let rows = self.repo.own_channels(ctx.store_id, req.get_ref().active_only).await?;
        Ok(Response::new(pb::ListOwnChannelsResponse { channels: rows.iter().map(own_channel).collect() }))
    }

    pub(super) async fn get_own_channel_rpc(
        &self,
        req: Request<pb::GetOwnChannelRequest>,
    ) -> Rpc<pb::OwnChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let row = self.repo.own_channel(ctx.store_id, req.get_ref().id).await?;
        Ok(Response::new(pb::OwnChannelResponse { channel: Some(own_channel(&row)) }))
    }

    pub(super) async fn create_own_channel_rpc(
        &self,
        req: Request<pb::CreateOwnChannelRequest>,
    ) -> Rpc<pb::OwnChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let form = self.checked_own_form(&ctx, req.into_inner().form, None).await?;
        let row = self.repo.create_own_channel(ctx.store_id, ctx.user_id, &form).await?;
        tracing::info!(own_channel = row.id, channel = %row.channel, "own channel made");
        Ok(Response::new(pb::OwnChannelResponse { channel: Some(own_channel(&row)) }))
    }

    pub(super) async fn update_own_channel_rpc(
        &self,
        req: Request<pb::UpdateOwnChannelRequest>,
    ) -> Rpc<pb::OwnChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let was = self.repo.own_channel(ctx.store_id, r.id).await?;
        let form = self.checked_own_form(&ctx, r.form, Some(&was)).await?;
        let row = self.repo.update_own_channel(ctx.store_id, ctx.user_id, r.id, &form, r.version).await?;
        Ok(Response::new(pb::OwnChannelResponse { channel: Some(own_channel(&row)) }))
    }
}
