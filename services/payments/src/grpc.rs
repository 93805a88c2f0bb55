//! The tonic service: reads the call, checks the rules (`domain`), calls the repository,
//! maps back.

use bo_kit::grpc::CallCtx;
use bo_kit::outbox::Relay;
use bo_kit::paging::PageRequest;
use bo_kit::time::ms_to_timestamp;
use bo_kit::Error;
use bo_proto::payments::v1 as pb;
use bo_proto::payments::v1::payments_service_server::PaymentsService;
use bo_proto::Wire as _;
use tonic::{Request, Response, Status};

use crate::domain::{self, code, promptpay, Draft, PromptPayId};
use crate::store::{ChannelRow, Filter, Repo};

/// The payments service.
#[derive(Clone)]
pub struct PaymentsGrpc {
    repo: Repo,
    relay: Relay,
}

type Rpc<T> = Result<Response<T>, Status>;

fn draft(i: Option<pb::StoreChannelInput>) -> Draft {
    let i = i.unwrap_or_default();
    Draft {
        channel_type: i.channel_type,
        country: i.country,
        bank_code: i.bank_code,
        acc_name: i.acc_name,
        acc_no: i.acc_no,
        branch: i.branch,
        email: i.email,
        fee: i.fee,
        status: pb::ChannelStatus::word_of(i.status).to_string(),
    }
}

fn one(row: crate::store::ChannelRow) -> Response<pb::StoreChannelResponse> {
    Response::new(pb::StoreChannelResponse { store_channel: Some(channel_message(&row)) })
}

/// A PromptPay id shown with all but its last four digits hidden.
fn masked(id: &str) -> String {
    let n = id.chars().count();
    id.chars().enumerate().map(|(i, c)| if i + 4 < n { 'x' } else { c }).collect()
}

impl PaymentsGrpc {
    /// The service on `repo`, waking `relay` after writes.
    pub fn new(repo: Repo, relay: Relay) -> Self {
        Self { repo, relay }
    }
}

#[tonic::async_trait]
impl PaymentsService for PaymentsGrpc {
    async fn list_store_channels(
        &self,
        req: Request<pb::ListStoreChannelsRequest>,
    ) -> Rpc<pb::ListStoreChannelsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let mut f = Filter { acc_name: r.acc_name.trim().to_string(), ..Default::default() };
        if !r.channel_type.trim().is_empty() {
            f.channel_type = domain::kind(&r.channel_type)?.to_string();
        }
        if r.status != 0 {
            f.status = domain::status(r.status().wire())?.to_string();
        }
        f.acc_no = r.acc_no.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
        let page = r.page.map(|p| PageRequest::new(p.page, p.limit)).unwrap_or_default();
        let (rows, page) = self.repo.list(ctx.store_id, &f, page).await?;
        Ok(Response::new(pb::ListStoreChannelsResponse {
            store_channels: rows.iter().map(channel_message).collect(),
            page: Some(page.into()),
        }))
    }

    async fn get_store_channel(&self, req: Request<pb::GetStoreChannelRequest>) -> Rpc<pb::StoreChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        Ok(one(self.repo.get(ctx.store_id, req.into_inner().id).await?))
    }

    async fn create_store_channel(&self, req: Request<pb::CreateStoreChannelRequest>) -> Rpc<pb::StoreChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let a = domain::validate(draft(req.into_inner().store_channel))?;
        let row = self.repo.create(ctx.store_id, ctx.user_id, &a).await?;
        self.relay.wake();
        Ok(one(row))
    }

    async fn update_store_channel(&self, req: Request<pb::UpdateStoreChannelRequest>) -> Rpc<pb::StoreChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let a = domain::validate(draft(r.store_channel))?;
        let row = self.repo.update(ctx.store_id, ctx.user_id, r.id, &a).await?;
        self.relay.wake();
        Ok(one(row))
    }

    async fn set_store_channel_status(
        &self,
        req: Request<pb::SetStoreChannelStatusRequest>,
    ) -> Rpc<pb::SetStoreChannelStatusResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let status = domain::status(r.status().wire())?;
        let kind = if r.id > 0 { None } else { Some(domain::kind(&r.channel_type)?) };
        let changed = self.repo.set_status(ctx.store_id, ctx.user_id, (r.id > 0).then_some(r.id), kind, status).await?;
        self.relay.wake();
        Ok(Response::new(pb::SetStoreChannelStatusResponse { changed }))
    }

    async fn delete_store_channel(
        &self,
        req: Request<pb::DeleteStoreChannelRequest>,
    ) -> Rpc<pb::DeleteStoreChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        self.repo.delete(ctx.store_id, req.into_inner().id).await?;
        Ok(Response::new(pb::DeleteStoreChannelResponse {}))
    }

    async fn get_rules(&self, _req: Request<pb::GetRulesRequest>) -> Rpc<pb::GetRulesResponse> {
        Ok(Response::new(pb::GetRulesResponse {
            kinds: crate::domain::KINDS.iter().map(|k| k.to_string()).collect(),
            countries: crate::domain::COUNTRIES
                .iter()
                .map(|c| pb::Country { code: c.code.into(), name_th: c.name_th.into(), name_en: c.name_en.into() })
                .collect(),
            banks: crate::domain::BANKS.iter().map(bank_message).collect(),
        }))
    }

    async fn prompt_pay_qr(&self, req: Request<pb::PromptPayQrRequest>) -> Rpc<pb::PromptPayQrResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let row = self.repo.get(ctx.store_id, r.store_channel_id).await?;
        let id = match (row.channel_type.as_str(), PromptPayId::parse(&row.acc_no)) {
            (domain::PROMPTPAY, Some(id)) => id,
            _ => return Err(Error::failed_precondition(code::NOT_PROMPTPAY).into()),
        };
        let amount = if r.with_amount {
            if !(0..=promptpay::MAX_AMOUNT).contains(&r.amount_satang) {
                return Err(Error::invalid_field("amount", code::AMOUNT).into());
            }
            Some(r.amount_satang)
        } else {
            None
        };
        Ok(Response::new(pb::PromptPayQrResponse {
            payload: promptpay::payload(&id, amount),
            acc_name: row.acc_name,
            masked_id: masked(id.digits()),
        }))
    }
}

/// A bank of the list as the wire carries it.
fn bank_message(b: &crate::domain::Bank) -> pb::Bank {
    pb::Bank {
        code: b.code.into(),
        short: b.short.into(),
        name_th: b.name_th.into(),
        name_en: b.name_en.into(),
        color: b.color.into(),
    }
}

/// A payment account as the contract tells it.
fn channel_message(r: &ChannelRow) -> pb::StoreChannel {
    pb::StoreChannel {
        id: r.id,
        channel_type: r.channel_type.clone(),
        country: r.country.clone(),
        bank_code: r.bank_code.clone(),
        acc_name: r.acc_name.clone(),
        acc_no: r.acc_no.clone(),
        branch: r.branch.clone(),
        email: r.email.clone(),
        fee_bps: r.fee_bps,
        status: pb::ChannelStatus::number(&r.status),
        open_bills: r.open_bills,
        create_time: Some(ms_to_timestamp(r.created_at)),
        update_time: Some(ms_to_timestamp(r.updated_at)),
        bank: crate::domain::bank(&r.bank_code).map(bank_message),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_masked_but_for_the_last_four() {
        assert_eq!(super::masked("0812345678"), "xxxxxx5678");
        assert_eq!(super::masked("1234567890121"), "xxxxxxxxx0121");
    }

    /// The statuses kept in storage are the proto enum's words.
    #[test]
    fn the_statuses_are_the_proto_enum() {
        use bo_proto::Wire;
        let words: Vec<&str> = super::pb::ChannelStatus::words().collect();
        assert_eq!(words, [crate::domain::ACTIVE, crate::domain::INACTIVE]);
    }
}
