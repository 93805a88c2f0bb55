//! The tonic service: connecting shops (authorize link, the redirect's code spent for
//! tokens) and their settings, checked against wms, logistics and payments.

use std::sync::Arc;

use bo_kit::grpc::{CallCtx, GrpcChannel};
use bo_kit::time::now_ms;
use bo_kit::{Code, Error};
use bo_proto::logistics::v1::logistics_service_client::LogisticsServiceClient;
use bo_proto::marketplaces::v1 as pb;
use bo_proto::marketplaces::v1::marketplaces_service_server::MarketplacesService;
use bo_proto::payments::v1::payments_service_client::PaymentsServiceClient;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
use bo_proto::Wire as _;
use tonic::{Request, Response, Status};

use crate::adapters::{Adapter, Grant};
use crate::domain::channel::Status as ChannelStatus;
use crate::domain::Marketplace;
use crate::intake::Intake;
use crate::store::{ChannelRow, Filter, Repo, Settings as ChannelSettings, StateRow};
use crate::Settings;

mod api;
mod catalog;
mod magento;
mod own;
mod shipping;
mod webhooks;

type Rpc<T> = Result<Response<T>, Status>;

/// How long an authorize link's state lives, ms.
const STATE_MS: i64 = 30 * 60 * 1000;

/// The other services a shop's settings are checked with.
#[derive(Clone, Default)]
pub struct Peers {
    pub wms: Option<WmsServiceClient<GrpcChannel>>,
    pub logistics: Option<LogisticsServiceClient<GrpcChannel>>,
    pub payments: Option<PaymentsServiceClient<GrpcChannel>>,
}

/// The marketplaces service.
#[derive(Clone)]
pub struct MarketplacesGrpc {
    repo: Repo,
    settings: Arc<Settings>,
    adapters: Arc<Vec<Arc<dyn Adapter>>>,
    peers: Peers,
    intake: Intake,
}

fn marketplace_of(n: i32) -> Option<Marketplace> {
    Marketplace::parse(pb::Marketplace::word_of(n))
}

fn pb_marketplace(m: Marketplace) -> pb::Marketplace {
    pb::Marketplace::from_wire(m.code()).unwrap_or_default()
}

fn timestamp(ms: i64) -> Option<prost_types::Timestamp> {
    (ms > 0).then(|| bo_kit::time::ms_to_timestamp(ms))
}

/// The catalogue of sales channels as the contract shows it.
pub fn sale_channels() -> Vec<pb::SaleChannelInfo> {
    use crate::domain::catalogue::{Kind, CATALOGUE};
    CATALOGUE
        .iter()
        .map(|c| pb::SaleChannelInfo {
            channel: pb::SaleChannel::number(c.code),
            kind: match c.kind {
                Kind::Marketplace => pb::ChannelKind::Marketplace,
                Kind::SocialCommerce => pb::ChannelKind::SocialCommerce,
                Kind::Website => pb::ChannelKind::Website,
                Kind::OpenApi => pb::ChannelKind::OpenApi,
            }
            .into(),
            name_th: c.name_th.into(),
            name_en: c.name_en.into(),
        })
        .collect()
}

/// A kept shop as the contract shows it (never its tokens).
pub fn channel(r: &ChannelRow) -> pb::StoreChannel {
    pb::StoreChannel {
        id: r.id,
        marketplace: r.marketplace().map(pb_marketplace).unwrap_or_default().into(),
        shop_id: r.shop_id.clone(),
        shop_name: r.shop_name.clone(),
        region: r.region.clone(),
        warehouse_id: r.warehouse_id,
        logistic_channel_id: r.logistic_channel_id,
        payment_channel_id: r.payment_channel_id,
        status: pb::ChannelStatus::from_wire(r.status().as_str()).unwrap_or_default().into(),
        token_expired: r.token_expired != 0,
        authorization_expire_time: timestamp(r.refresh_expires_at * 1000),
        last_order_sync_time: timestamp(r.last_order_sync_at),
        last_stock_push_time: timestamp(r.last_stock_push_at),
        create_time: timestamp(r.created_at),
        update_time: timestamp(r.updated_at),
    }
}

/// A random state for a store: `<store id>.<marketplace>.<32 hex digits>`; the app's
/// redirect page reads the store and the marketplace from it.
fn new_state(store_id: i64, marketplace: Marketplace) -> String {
    use ring::rand::SecureRandom as _;
    let mut bytes = [0u8; 16];
    ring::rand::SystemRandom::new().fill(&mut bytes).expect("the system's random source");
    format!("{store_id}.{}.{}", marketplace.path(), hex::encode(bytes))
}

impl MarketplacesGrpc {
    /// The service over `repo` with the marketplaces of `settings`.
    pub fn new(
        repo: Repo,
        settings: Arc<Settings>,
        adapters: Arc<Vec<Arc<dyn Adapter>>>,
        peers: Peers,
        intake: Intake,
    ) -> Self {
        MarketplacesGrpc { repo, settings, adapters, peers, intake }
    }

    fn adapter(&self, m: Marketplace) -> bo_kit::Result<&Arc<dyn Adapter>> {
        self.adapters
            .iter()
            .find(|a| a.marketplace() == m)
            .ok_or_else(|| Error::failed_precondition(Code::MarketplaceNotConfigured))
    }

    /// The ids of the store's warehouses.
    async fn warehouse_ids(&self, ctx: &CallCtx) -> bo_kit::Result<Vec<i64>> {
        let unavailable = || Error::new(bo_kit::error::Kind::Unavailable, Code::WarehousesUnavailable);
        let mut wms = self.peers.wms.clone().ok_or_else(unavailable)?;
        let list = wms
            .list_warehouses(ctx.request(bo_proto::wms::v1::ListWarehousesRequest {}))
            .await
            .map_err(|e| Error::from_status(&e))?
            .into_inner();
        Ok(list.warehouses.iter().map(|w| w.id).collect())
    }

    async fn check_settings(&self, ctx: &CallCtx, s: &ChannelSettings, was: &ChannelRow) -> bo_kit::Result<()> {
        let unavailable = || Error::new(bo_kit::error::Kind::Unavailable, Code::WarehousesUnavailable);
        if s.warehouse_id != was.warehouse_id
            && s.warehouse_id != 0
            && !self.warehouse_ids(ctx).await?.contains(&s.warehouse_id)
        {
            return Err(Error::invalid_field("warehouse_id", "validation.warehouse_unknown"));
        }
        if s.logistic_channel_id != was.logistic_channel_id && s.logistic_channel_id != 0 {
            let mut logistics = self.peers.logistics.clone().ok_or_else(unavailable)?;
            let r = bo_proto::logistics::v1::GetStoreChannelRequest {
                r#ref: Some(bo_proto::logistics::v1::ChannelRef { id: s.logistic_channel_id, ..Default::default() }),
            };
            if logistics.get_store_channel(ctx.request(r)).await.is_err() {
                return Err(Error::invalid_field("logistic_channel_id", "validation.logistic_channel_unknown"));
            }
        }
        if s.payment_channel_id != was.payment_channel_id && s.payment_channel_id != 0 {
            let mut payments = self.peers.payments.clone().ok_or_else(unavailable)?;
            let r = bo_proto::payments::v1::GetStoreChannelRequest { id: s.payment_channel_id };
            if payments.get_store_channel(ctx.request(r)).await.is_err() {
                return Err(Error::invalid_field("payment_channel_id", "validation.payment_channel_unknown"));
            }
        }
        Ok(())
    }
}

#[tonic::async_trait]
impl MarketplacesService for MarketplacesGrpc {
    async fn list_sale_channels(
        &self,
        _req: Request<pb::ListSaleChannelsRequest>,
    ) -> Rpc<pb::ListSaleChannelsResponse> {
        Ok(Response::new(pb::ListSaleChannelsResponse { channels: sale_channels() }))
    }

    async fn list_marketplaces(&self, req: Request<pb::ListMarketplacesRequest>) -> Rpc<pb::ListMarketplacesResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let marketplaces = Marketplace::ALL
            .into_iter()
            .map(|m| {
                let missing = self.settings.app(m).missing(m);
                pb::MarketplaceInfo {
                    marketplace: pb_marketplace(m).into(),
                    name: m.name().to_string(),
                    configured: missing.is_empty(),
                    missing_settings: missing,
                    allowed: self.settings.allows(m, ctx.store_id),
                }
            })
            .collect();
        Ok(Response::new(pb::ListMarketplacesResponse { marketplaces }))
    }

    async fn get_auth_url(&self, req: Request<pb::GetAuthUrlRequest>) -> Rpc<pb::GetAuthUrlResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let m =
            marketplace_of(r.marketplace).ok_or_else(|| Error::invalid_field("marketplace", "validation.invalid"))?;
        let adapter = self.adapter(m)?;
        if !self.settings.allows(m, ctx.store_id) {
            return Err(Error::permission_denied(Code::MarketplaceNotAllowed).into());
        }
        if r.store_channel_id != 0 && self.repo.get(ctx.store_id, r.store_channel_id).await?.is_none() {
            return Err(Error::not_found(Code::MarketplaceChannelNotFound).into());
        }
        let state = new_state(ctx.store_id, m);
        let at = StateRow {
            store_id: ctx.store_id,
            user_id: ctx.user_id,
            marketplace: m.code().to_string(),
            store_channel_id: r.store_channel_id,
        };
        self.repo.save_state(&state, &at, now_ms() + STATE_MS).await?;
        let url = adapter.authorize_url(&self.settings.redirect_url(), &state, now_ms() / 1000).map_err(Error::from)?;
        Ok(Response::new(pb::GetAuthUrlResponse { url, link_token: state }))
    }

    async fn connect_shops(&self, req: Request<pb::ConnectShopsRequest>) -> Rpc<pb::ConnectShopsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let m =
            marketplace_of(r.marketplace).ok_or_else(|| Error::invalid_field("marketplace", "validation.invalid"))?;
        let adapter = self.adapter(m)?.clone();
        if !self.settings.allows(m, ctx.store_id) {
            return Err(Error::permission_denied(Code::MarketplaceNotAllowed).into());
        }
        if r.code.trim().is_empty() {
            return Err(Error::invalid_field("code", "validation.required").into());
        }
        // The state is spent whatever follows: a link is good for one try.
        let kept = self.repo.take_state(r.link_token.trim()).await?;
        match kept {
            Some(k) if k.store_id == ctx.store_id && k.user_id == ctx.user_id && k.marketplace == m.code() => {}
            _ => return Err(Error::failed_precondition(Code::MarketplaceStateInvalid).into()),
        }
        let grant = Grant { code: r.code.trim().to_string(), shop_id: r.shop_id.trim().to_string() };
        let authorized = adapter.connect(&grant).await.map_err(|e| {
            tracing::warn!(marketplace = m.code(), error = %e, "connecting a shop failed");
            Error::from(e)
        })?;
        let mut channels = Vec::with_capacity(authorized.shops.len());
        for shop in &authorized.shops {
            let row = self.repo.connect(ctx.store_id, ctx.user_id, m, shop, &authorized.tokens).await?;
            // Connected again: every linked listing's stock is pushed again.
            self.repo.reassert(row.id).await?;
            tracing::info!(marketplace = m.code(), store_channel = row.id, "shop connected");
            channels.push(channel(&row));
        }
        Ok(Response::new(pb::ConnectShopsResponse { channels }))
    }

    async fn list_store_channels(
        &self,
        req: Request<pb::ListStoreChannelsRequest>,
    ) -> Rpc<pb::ListStoreChannelsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let f = Filter {
            marketplace: marketplace_of(r.marketplace),
            token_expired: r.token_expired,
            status: ChannelStatus::parse(pb::ChannelStatus::word_of(r.status)),
        };
        let rows = self.repo.list(ctx.store_id, &f).await?;
        Ok(Response::new(pb::ListStoreChannelsResponse { channels: rows.iter().map(channel).collect() }))
    }

    async fn get_store_channel(&self, req: Request<pb::GetStoreChannelRequest>) -> Rpc<pb::StoreChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let row = self.repo.get(ctx.store_id, req.into_inner().id).await?;
        let row = row.ok_or_else(|| Error::not_found(Code::MarketplaceChannelNotFound))?;
        Ok(Response::new(pb::StoreChannelResponse { channel: Some(channel(&row)) }))
    }

    async fn update_store_channel(&self, req: Request<pb::UpdateStoreChannelRequest>) -> Rpc<pb::StoreChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let was = self
            .repo
            .get(ctx.store_id, r.id)
            .await?
            .ok_or_else(|| Error::not_found(Code::MarketplaceChannelNotFound))?;
        let status = ChannelStatus::parse(pb::ChannelStatus::word_of(r.status))
            .ok_or_else(|| Error::invalid_field("status", "validation.status"))?;
        let mut bad = Vec::new();
        for (field, v) in [
            ("warehouse_id", r.warehouse_id),
            ("logistic_channel_id", r.logistic_channel_id),
            ("payment_channel_id", r.payment_channel_id),
        ] {
            if v < 0 {
                bad.push(bo_kit::error::FieldError::new(field, "validation.invalid"));
            }
        }
        if !bad.is_empty() {
            return Err(Error::invalid(bad).into());
        }
        let s = ChannelSettings {
            warehouse_id: r.warehouse_id,
            logistic_channel_id: r.logistic_channel_id,
            payment_channel_id: r.payment_channel_id,
            status,
        };
        self.check_settings(&ctx, &s, &was).await?;
        let row = self
            .repo
            .update_settings(ctx.store_id, r.id, ctx.user_id, &s)
            .await?
            .ok_or_else(|| Error::not_found(Code::MarketplaceChannelNotFound))?;
        Ok(Response::new(pb::StoreChannelResponse { channel: Some(channel(&row)) }))
    }

    async fn unlink_store_channel(
        &self,
        req: Request<pb::GetStoreChannelRequest>,
    ) -> Rpc<pb::UnlinkStoreChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let id = req.into_inner().id;
        if !self.repo.unlink(ctx.store_id, id).await? {
            return Err(Error::not_found(Code::MarketplaceChannelNotFound).into());
        }
        tracing::info!(store_channel = id, "shop unlinked");
        Ok(Response::new(pb::UnlinkStoreChannelResponse {}))
    }

    async fn receive_push(&self, req: Request<pb::ReceivePushRequest>) -> Rpc<pb::ReceivePushResponse> {
        bo_kit::grpc::service_only(&req)?;
        let r = req.into_inner();
        let m = marketplace_of(r.marketplace).ok_or_else(|| Error::not_found(Code::MarketplaceNotConfigured))?;
        let mut headers = http::HeaderMap::new();
        for (name, value) in &r.headers {
            if let (Ok(n), Ok(v)) =
                (http::HeaderName::try_from(name.as_str()), http::HeaderValue::try_from(value.as_str()))
            {
                headers.insert(n, v);
            }
        }
        let (status, body, kept) = self.intake.receive(m, &headers, &r.body).await?;
        Ok(Response::new(pb::ReceivePushResponse {
            http_status: i32::from(status),
            body: body.into(),
            kept: kept as i32,
        }))
    }

    async fn link_listing(&self, req: Request<pb::LinkListingRequest>) -> Rpc<pb::LinkListingResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let ch = self
            .repo
            .get(ctx.store_id, r.store_channel_id)
            .await?
            .ok_or_else(|| Error::not_found(Code::MarketplaceChannelNotFound))?;
        let (item, model) = r.listing.trim().split_once(':').unwrap_or((r.listing.trim(), ""));
        if item.is_empty() || r.sku_id <= 0 {
            return Err(Error::invalid_field("listing", "validation.required").into());
        }
        let link = crate::store::Learnt {
            item_id: item.to_string(),
            model_id: model.to_string(),
            seller_sku: r.seller_sku.trim().to_string(),
            sku_id: r.sku_id,
        };
        self.repo.link_by_person(ctx.store_id, ch.id, &link).await?;
        Ok(Response::new(pb::LinkListingResponse {}))
    }

    async fn list_listings(&self, req: Request<pb::ListListingsRequest>) -> Rpc<pb::ListListingsResponse> {
        self.list_listings_rpc(req).await
    }

    async fn get_listing(&self, req: Request<pb::GetListingRequest>) -> Rpc<pb::ListingResponse> {
        self.get_listing_rpc(req).await
    }

    async fn set_listing_link(&self, req: Request<pb::SetListingLinkRequest>) -> Rpc<pb::ListingResponse> {
        self.set_listing_link_rpc(req).await
    }

    async fn unlink_listing(&self, req: Request<pb::GetListingRequest>) -> Rpc<pb::ListingResponse> {
        self.unlink_listing_rpc(req).await
    }

    async fn auto_link_listings(&self, req: Request<pb::AutoLinkListingsRequest>) -> Rpc<pb::AutoLinkListingsResponse> {
        self.auto_link_rpc(req).await
    }

    async fn create_products_from_listings(
        &self,
        req: Request<pb::CreateProductsFromListingsRequest>,
    ) -> Rpc<pb::CreateProductsFromListingsResponse> {
        self.create_products_rpc(req).await
    }

    async fn list_match_rules(&self, req: Request<pb::ListMatchRulesRequest>) -> Rpc<pb::ListMatchRulesResponse> {
        self.list_match_rules_rpc(req).await
    }

    async fn add_match_rule(&self, req: Request<pb::AddMatchRuleRequest>) -> Rpc<pb::MatchRuleResponse> {
        self.add_match_rule_rpc(req).await
    }

    async fn delete_match_rule(&self, req: Request<pb::DeleteMatchRuleRequest>) -> Rpc<pb::DeleteMatchRuleResponse> {
        self.delete_match_rule_rpc(req).await
    }

    async fn import_listings(&self, req: Request<pb::ImportListingsRequest>) -> Rpc<pb::ListingImportResponse> {
        self.import_listings_rpc(req).await
    }

    async fn import_listing_file(
        &self,
        req: Request<pb::ImportListingFileRequest>,
    ) -> Rpc<pb::ImportListingFileResponse> {
        self.import_listing_file_rpc(req).await
    }

    async fn get_listing_import(&self, req: Request<pb::GetListingImportRequest>) -> Rpc<pb::ListingImportResponse> {
        self.get_listing_import_rpc(req).await
    }

    async fn list_listing_imports(
        &self,
        req: Request<pb::ListListingImportsRequest>,
    ) -> Rpc<pb::ListListingImportsResponse> {
        self.list_listing_imports_rpc(req).await
    }

    async fn list_imported_listings(
        &self,
        req: Request<pb::ListImportedListingsRequest>,
    ) -> Rpc<pb::ListImportedListingsResponse> {
        self.list_imported_rpc(req).await
    }

    async fn get_stock_rule(&self, req: Request<pb::GetStockRuleRequest>) -> Rpc<pb::StockRuleResponse> {
        self.get_stock_rule_rpc(req).await
    }

    async fn set_stock_rule(&self, req: Request<pb::SetStockRuleRequest>) -> Rpc<pb::StockRuleResponse> {
        self.set_stock_rule_rpc(req).await
    }

    async fn delete_stock_rule(&self, req: Request<pb::GetStockRuleRequest>) -> Rpc<pb::StockRuleResponse> {
        self.delete_stock_rule_rpc(req).await
    }

    async fn push_stock(&self, req: Request<pb::PushStockRequest>) -> Rpc<pb::StockSyncResponse> {
        self.push_stock_rpc(req).await
    }

    async fn get_stock_sync(&self, req: Request<pb::GetStockSyncRequest>) -> Rpc<pb::StockSyncResponse> {
        self.get_stock_sync_rpc(req).await
    }

    async fn list_stock_syncs(&self, req: Request<pb::ListStockSyncsRequest>) -> Rpc<pb::ListStockSyncsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let syncs = self.repo.syncs(ctx.store_id).await?;
        Ok(Response::new(pb::ListStockSyncsResponse { syncs: syncs.iter().map(|s| s.to_proto()).collect() }))
    }

    async fn list_sku_links(&self, req: Request<pb::ListSkuLinksRequest>) -> Rpc<pb::ListSkuLinksResponse> {
        self.list_sku_links_rpc(req).await
    }

    async fn get_channel_shipping(
        &self,
        req: Request<pb::GetChannelShippingRequest>,
    ) -> Rpc<pb::ChannelShippingResponse> {
        self.get_channel_shipping_rpc(req).await
    }

    async fn arrange_channel_shipment(
        &self,
        req: Request<pb::ArrangeChannelShipmentRequest>,
    ) -> Rpc<pb::ChannelShippingResponse> {
        self.arrange_channel_shipment_rpc(req).await
    }

    async fn print_channel_labels(
        &self,
        req: Request<pb::PrintChannelLabelsRequest>,
    ) -> Rpc<pb::PrintChannelLabelsResponse> {
        self.print_channel_labels_rpc(req).await
    }

    async fn arrange_channel_shipments(
        &self,
        req: Request<pb::ArrangeChannelShipmentsRequest>,
    ) -> Rpc<pb::ArrangeChannelShipmentsResponse> {
        self.arrange_channel_shipments_rpc(req).await
    }

    async fn list_api_channels(&self, req: Request<pb::ListApiChannelsRequest>) -> Rpc<pb::ListApiChannelsResponse> {
        self.list_api_channels_rpc(req).await
    }

    async fn get_api_channel(&self, req: Request<pb::GetApiChannelRequest>) -> Rpc<pb::ApiChannelResponse> {
        self.get_api_channel_rpc(req).await
    }

    async fn generate_api_key(&self, req: Request<pb::GenerateApiKeyRequest>) -> Rpc<pb::GenerateApiKeyResponse> {
        self.generate_api_key_rpc(req).await
    }

    async fn create_api_channel(&self, req: Request<pb::CreateApiChannelRequest>) -> Rpc<pb::ApiChannelResponse> {
        self.create_api_channel_rpc(req).await
    }

    async fn update_api_channel(&self, req: Request<pb::UpdateApiChannelRequest>) -> Rpc<pb::ApiChannelResponse> {
        self.update_api_channel_rpc(req).await
    }

    async fn roll_api_key(&self, req: Request<pb::RollApiKeyRequest>) -> Rpc<pb::ApiChannelResponse> {
        self.roll_api_key_rpc(req).await
    }

    async fn revoke_api_keys(&self, req: Request<pb::GetApiChannelRequest>) -> Rpc<pb::ApiChannelResponse> {
        self.revoke_api_keys_rpc(req).await
    }

    async fn list_webhook_events(
        &self,
        req: Request<pb::ListWebhookEventsRequest>,
    ) -> Rpc<pb::ListWebhookEventsResponse> {
        self.list_webhook_events_rpc(req).await
    }

    async fn authenticate_api_key(
        &self,
        req: Request<pb::AuthenticateApiKeyRequest>,
    ) -> Rpc<pb::AuthenticateApiKeyResponse> {
        self.authenticate_api_key_rpc(req).await
    }

    async fn list_webhook_deliveries(
        &self,
        req: Request<pb::ListWebhookDeliveriesRequest>,
    ) -> Rpc<pb::ListWebhookDeliveriesResponse> {
        self.list_webhook_deliveries_rpc(req).await
    }

    async fn get_webhook_delivery(&self, req: Request<pb::WebhookDeliveryRequest>) -> Rpc<pb::WebhookDeliveryResponse> {
        self.get_webhook_delivery_rpc(req).await
    }

    async fn replay_webhook_delivery(
        &self,
        req: Request<pb::WebhookDeliveryRequest>,
    ) -> Rpc<pb::WebhookDeliveryResponse> {
        self.replay_webhook_delivery_rpc(req).await
    }

    async fn replay_webhook_deliveries(
        &self,
        req: Request<pb::ReplayWebhookDeliveriesRequest>,
    ) -> Rpc<pb::ReplayWebhookDeliveriesResponse> {
        self.replay_webhook_deliveries_rpc(req).await
    }

    async fn send_test_webhook(&self, req: Request<pb::GetApiChannelRequest>) -> Rpc<pb::WebhookDeliveryResponse> {
        self.send_test_webhook_rpc(req).await
    }

    async fn resume_webhook(&self, req: Request<pb::GetApiChannelRequest>) -> Rpc<pb::ApiChannelResponse> {
        self.resume_webhook_rpc(req).await
    }

    async fn push_api_stock(&self, req: Request<pb::PushApiStockRequest>) -> Rpc<pb::PushApiStockResponse> {
        self.push_api_stock_rpc(req).await
    }

    async fn list_own_channels(&self, req: Request<pb::ListOwnChannelsRequest>) -> Rpc<pb::ListOwnChannelsResponse> {
        self.list_own_channels_rpc(req).await
    }

    async fn get_own_channel(&self, req: Request<pb::GetOwnChannelRequest>) -> Rpc<pb::OwnChannelResponse> {
        self.get_own_channel_rpc(req).await
    }

    async fn create_own_channel(&self, req: Request<pb::CreateOwnChannelRequest>) -> Rpc<pb::OwnChannelResponse> {
        self.create_own_channel_rpc(req).await
    }

    async fn update_own_channel(&self, req: Request<pb::UpdateOwnChannelRequest>) -> Rpc<pb::OwnChannelResponse> {
        self.update_own_channel_rpc(req).await
    }

    async fn list_magento_channels(
        &self,
        req: Request<pb::ListMagentoChannelsRequest>,
    ) -> Rpc<pb::ListMagentoChannelsResponse> {
        self.list_magento_channels_rpc(req).await
    }

    async fn get_magento_channel(&self, req: Request<pb::GetMagentoChannelRequest>) -> Rpc<pb::MagentoChannelResponse> {
        self.get_magento_channel_rpc(req).await
    }

    async fn create_magento_channel(
        &self,
        req: Request<pb::CreateMagentoChannelRequest>,
    ) -> Rpc<pb::MagentoChannelResponse> {
        self.create_magento_channel_rpc(req).await
    }

    async fn update_magento_channel(
        &self,
        req: Request<pb::UpdateMagentoChannelRequest>,
    ) -> Rpc<pb::MagentoChannelResponse> {
        self.update_magento_channel_rpc(req).await
    }

    async fn sync_magento_channel(
        &self,
        req: Request<pb::GetMagentoChannelRequest>,
    ) -> Rpc<pb::SyncMagentoChannelResponse> {
        self.sync_magento_channel_rpc(req).await
    }

    async fn api_create_order(&self, req: Request<pb::ApiCreateOrderRequest>) -> Rpc<pb::ApiOrderResponse> {
        self.api_create_order_rpc(req).await
    }

    async fn api_get_order(&self, req: Request<pb::ApiOrderRequest>) -> Rpc<pb::ApiOrderResponse> {
        self.api_get_order_rpc(req).await
    }

    async fn api_list_orders(&self, req: Request<pb::ApiListOrdersRequest>) -> Rpc<pb::ApiListOrdersResponse> {
        self.api_list_orders_rpc(req).await
    }

    async fn api_cancel_order(&self, req: Request<pb::ApiCancelOrderRequest>) -> Rpc<pb::ApiOrderResponse> {
        self.api_cancel_order_rpc(req).await
    }

    async fn api_list_skus(&self, req: Request<pb::ApiListSkusRequest>) -> Rpc<pb::ApiListSkusResponse> {
        self.api_list_skus_rpc(req).await
    }

    async fn api_link_skus(&self, req: Request<pb::ApiLinkSkusRequest>) -> Rpc<pb::ApiLinkSkusResponse> {
        self.api_link_skus_rpc(req).await
    }

    async fn api_list_stock(&self, req: Request<pb::ApiListStockRequest>) -> Rpc<pb::ApiListStockResponse> {
        self.api_list_stock_rpc(req).await
    }

    async fn answer_channel_cancellation(
        &self,
        req: Request<pb::AnswerChannelCancellationRequest>,
    ) -> Rpc<pb::AnswerChannelCancellationResponse> {
        self.answer_channel_cancellation_rpc(req).await
    }

    async fn sync_orders(&self, req: Request<pb::SyncOrdersRequest>) -> Rpc<pb::SyncOrdersResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let (shops, orders, failed) = self.intake.sync_store(ctx.store_id, r.store_channel_id).await?;
        Ok(Response::new(pb::SyncOrdersResponse {
            shops: shops as i32,
            orders: orders as i32,
            failed_store_channel_ids: failed,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every channel of the contract is in the catalogue once, in its order, each kind the
    /// contract's; the marketplaces are the contract's marketplaces.
    #[test]
    fn the_catalogue_is_the_contracts_sale_channels() {
        let listed = sale_channels();
        let words: Vec<&str> = listed.iter().map(|c| pb::SaleChannel::word_of(c.channel)).collect();
        assert_eq!(words, pb::SaleChannel::words().collect::<Vec<_>>());
        for c in &listed {
            let word = pb::SaleChannel::word_of(c.channel);
            let kind = pb::ChannelKind::word_of(c.kind);
            assert_eq!(kind, crate::domain::catalogue::of(word).unwrap().kind.as_str());
            assert_eq!(kind == "marketplace", pb::Marketplace::from_wire(word).is_some(), "{word}");
        }
    }
}
