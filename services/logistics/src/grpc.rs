//! The tonic service: reads the call, checks the rules (`domain`), confirms warehouses with
//! wms, calls the repository, maps back.

use bo_kit::grpc::{CallCtx, GrpcChannel};
use bo_kit::outbox::Relay;
use bo_kit::paging::PageRequest;
use bo_kit::Code;
use bo_kit::Error;
use bo_proto::logistics::v1 as pb;
use bo_proto::logistics::v1::logistics_service_server::LogisticsService;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
use bo_proto::Wire as _;
use tonic::{Request, Response, Status};

use crate::domain::{self, code, Bracket, Draft, Parcel, ProviderDraft};
use crate::store::{Filter, Ref, Repo};

/// The wms client channels are checked with.
pub type WmsClient = WmsServiceClient<GrpcChannel>;

/// The logistics service.
#[derive(Clone)]
pub struct LogisticsGrpc {
    repo: Repo,
    relay: Relay,
    wms: Option<WmsClient>,
    files: Option<bo_kit::files::Files>,
    carriers: crate::carriers::CarrierConfig,
    http: reqwest::Client,
}

type Rpc<T> = Result<Response<T>, Status>;

fn draft(i: Option<pb::StoreChannelInput>) -> Draft {
    let i = i.unwrap_or_default();
    Draft {
        warehouse_id: i.warehouse_id,
        logistic_type: i.logistic_type,
        name: i.name,
        provider: i.provider,
        price: i.price_satang,
        method: i.pricing_method,
        brackets: i.brackets.iter().map(|b| Bracket { max_weight_g: b.max_weight_g, price: b.price_satang }).collect(),
        free_over: i.free_over_satang,
        cod: i.cod,
        status: pb::ChannelStatus::word_of(i.status).to_string(),
    }
}

/// A parcel as sent, trimmed (the international calculator sends only weight, size and
/// country; the rest stays empty).
fn parcel_of(p: pb::Parcel) -> Parcel {
    Parcel {
        weight_g: p.weight_g,
        dims_cm: [p.length_cm, p.width_cm, p.height_cm],
        postcode: p.postcode.trim().to_string(),
        country: p.country.trim().to_uppercase(),
        order_total: p.order_total_satang,
        cod: p.cod,
        cod_amount: p.cod_amount_satang,
    }
}

fn reference(r: Option<pb::ChannelRef>) -> bo_kit::Result<Ref> {
    let r = r.unwrap_or_default();
    if r.id > 0 {
        return Ok(Ref::Id(r.id));
    }
    match domain::carrier(r.provider.trim()) {
        Some(c) if c.shipment_type == domain::INTERNATIONAL && r.warehouse_id > 0 => {
            Ok(Ref::Inter { provider: c.code.to_string(), warehouse_id: r.warehouse_id })
        }
        _ => Err(Error::not_found(code::NOT_FOUND)),
    }
}

/// A key with all but its last four characters hidden.
fn mask(key: &str) -> String {
    let n = key.chars().count();
    key.chars().enumerate().map(|(i, c)| if i + 4 < n { '•' } else { c }).collect()
}

/// The carriers whose APIs a store connects: the postal provider's tracking (the e-parcel
/// account, SPEC §2 e-parcel-connecting) and Flash Express's shipments.
fn account_carrier(carrier: &str) -> bo_kit::Result<&'static str> {
    match carrier.trim() {
        crate::carriers::THAIPOST => Ok(crate::carriers::THAIPOST),
        crate::carriers::FLASH => Ok(crate::carriers::FLASH),
        _ => Err(Error::invalid_field("carrier", code::PROVIDER)),
    }
}

fn address(a: Option<pb::CarrierAddress>, field: &str, errs: &mut Vec<bo_kit::FieldError>) -> crate::carriers::Address {
    let a = a.unwrap_or_default();
    for (name, v) in [
        ("name", &a.name),
        ("phone", &a.phone),
        ("province", &a.province),
        ("district", &a.district),
        ("postcode", &a.postcode),
        ("detail", &a.detail),
    ] {
        if v.trim().is_empty() {
            errs.push(bo_kit::FieldError::new(format!("{field}.{name}"), code::REQUIRED));
        }
    }
    crate::carriers::Address {
        name: a.name.trim().into(),
        phone: a.phone.trim().into(),
        province: a.province.trim().into(),
        district: a.district.trim().into(),
        sub_district: a.sub_district.trim().into(),
        postcode: a.postcode.trim().into(),
        detail: a.detail.trim().into(),
    }
}

/// What a carrier's answer about a key means for the account's status.
fn key_status(r: &Result<(), crate::carriers::CarrierError>) -> pb::CarrierKeyStatus {
    match r {
        Ok(()) => pb::CarrierKeyStatus::Working,
        Err(crate::carriers::CarrierError::Auth(_)) | Err(crate::carriers::CarrierError::Rejected { .. }) => {
            pb::CarrierKeyStatus::Rejected
        }
        Err(_) => pb::CarrierKeyStatus::Unreachable,
    }
}

fn one(row: crate::store::ChannelRow) -> Response<pb::StoreChannelResponse> {
    Response::new(pb::StoreChannelResponse { store_channel: Some(row.to_proto()) })
}

impl LogisticsGrpc {
    /// The service on `repo`, waking `relay` after writes.
    pub fn new(repo: Repo, relay: Relay) -> Self {
        Self {
            repo,
            relay,
            wms: None,
            files: None,
            carriers: crate::carriers::CarrierConfig::default(),
            http: reqwest::Client::new(),
        }
    }

    /// The service talking to the carriers at `config`'s addresses.
    pub fn with_carriers(mut self, config: crate::carriers::CarrierConfig) -> anyhow::Result<Self> {
        self.http = crate::carriers::http_client(&config)?;
        self.carriers = config;
        Ok(self)
    }

    fn thaipost(&self, key: &str) -> crate::carriers::ThaiPost {
        crate::carriers::ThaiPost::new(
            self.http.clone(),
            self.carriers.thaipost_base_url.clone(),
            crate::carriers::Secret::new(key),
        )
    }

    fn flash(&self, mch_id: &str, key: &str) -> crate::carriers::Flash {
        crate::carriers::Flash::new(
            self.http.clone(),
            self.carriers.flash_base_url.clone(),
            mch_id,
            crate::carriers::Secret::new(key),
        )
    }

    /// Asks the carrier whether the key works. Flash Express has no call for it: a signed
    /// question about a parcel that does not exist is refused for the parcel when the key is
    /// right and for the signature when it is not.
    async fn check_key(&self, carrier: &str, account_id: &str, key: &str) -> Result<(), crate::carriers::CarrierError> {
        if carrier == crate::carriers::FLASH {
            match self.flash(account_id, key).routes("TH00000000000").await {
                Ok(_) | Err(crate::carriers::CarrierError::Rejected { .. }) => Ok(()),
                Err(e) => Err(e),
            }
        } else {
            self.thaipost(key).validate_key().await
        }
    }

    /// The Flash Express client of the store's account.
    /// Asks Flash Express where the parcels it carries for stores are (those not yet
    /// delivered, returned or cancelled, up to `limit`, least recently asked first) and keeps
    /// what it says, so their orders show it. Answers how many parcels were asked about.
    pub async fn follow_flash(&self, limit: i64) -> bo_kit::Result<usize> {
        use crate::carriers::Tracker;
        let open = self.repo.open_shipments(crate::carriers::FLASH, limit).await?;
        let mut by_store: std::collections::BTreeMap<i64, Vec<String>> = std::collections::BTreeMap::new();
        for (store, no) in open {
            by_store.entry(store).or_default().push(no);
        }
        let mut asked = 0;
        for (store, numbers) in by_store {
            let flash = match self.flash_of(store).await {
                Ok(f) => f,
                // The account was removed: nothing to ask with.
                Err(_) => continue,
            };
            match flash.track(&numbers).await {
                Ok(events) => {
                    self.repo.apply_events(store, &events).await?;
                }
                Err(e) => tracing::info!(store, error = %e, "Flash Express did not say where its parcels are"),
            }
            self.repo.touch_shipments(store, crate::carriers::FLASH, &numbers).await?;
            asked += numbers.len();
        }
        Ok(asked)
    }

    async fn flash_of(&self, store_id: i64) -> bo_kit::Result<crate::carriers::Flash> {
        let a = self
            .repo
            .account(store_id, crate::carriers::FLASH)
            .await?
            .ok_or_else(|| Error::failed_precondition(Code::CarrierAccountMissing))?;
        Ok(self.flash(&a.account_id, &a.secret))
    }

    fn account_response(row: Option<crate::store::AccountRow>) -> pb::CarrierAccountResponse {
        match row {
            None => pb::CarrierAccountResponse::default(),
            Some(a) => pb::CarrierAccountResponse {
                connected: true,
                account_id: a.account_id,
                masked_key: mask(&a.secret),
                status: pb::CarrierKeyStatus::number(&a.status),
                checked_at_ms: a.checked_at,
                webhook_token: a.webhook_token,
            },
        }
    }

    /// The service reading uploaded rate tables from `files`.
    pub fn with_files(mut self, files: bo_kit::files::Files) -> Self {
        self.files = Some(files);
        self
    }

    fn table_response(
        &self,
        found: Option<(crate::store::RateTableRow, crate::rates::RateTable)>,
    ) -> pb::RateTableResponse {
        match found {
            None => pb::RateTableResponse::default(),
            Some((head, t)) => pb::RateTableResponse {
                loaded: true,
                label: head.label,
                is_sample: head.is_sample != 0,
                uploaded_at_ms: head.uploaded_at,
                countries: t
                    .countries
                    .iter()
                    .map(|c| pb::RateCountry { code: c.code.clone(), name: c.name.clone() })
                    .collect(),
                rate_count: t.rate_count() as i64,
            },
        }
    }

    /// The service confirming warehouses with `wms`.
    pub fn with_wms(mut self, wms: WmsClient) -> Self {
        self.wms = Some(wms);
        self
    }

    /// Refuses a warehouse wms does not list for the caller's store.
    async fn check_warehouse(&self, ctx: &CallCtx, warehouse_id: i64) -> bo_kit::Result<()> {
        let Some(mut wms) = self.wms.clone() else {
            return Err(Error::new(bo_kit::error::Kind::Unavailable, Code::WarehousesUnavailable));
        };
        let list = wms
            .list_warehouses(ctx.request(bo_proto::wms::v1::ListWarehousesRequest {}))
            .await
            .map_err(|s| Error::from_status(&s))?
            .into_inner();
        if list.warehouses.iter().any(|w| w.id == warehouse_id) {
            Ok(())
        } else {
            Err(Error::invalid_field("warehouse_id", code::WAREHOUSE))
        }
    }
}

#[tonic::async_trait]
impl LogisticsService for LogisticsGrpc {
    async fn list_store_channels(
        &self,
        req: Request<pb::ListStoreChannelsRequest>,
    ) -> Rpc<pb::ListStoreChannelsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let mut f =
            Filter { warehouse_id: r.warehouse_id, provider: r.provider.trim().to_string(), ..Default::default() };
        if !r.logistic_type.trim().is_empty() {
            f.logistic_type = match r.logistic_type.trim() {
                t @ (domain::DOMESTIC | domain::INTERNATIONAL) => t.to_string(),
                _ => return Err(Error::invalid_field("logistic_type", code::LOGISTIC_TYPE).into()),
            };
        }
        if r.status != 0 {
            f.status = domain::status(r.status().wire())?.to_string();
        }
        let page = r.page.map(|p| PageRequest::new(p.page, p.limit)).unwrap_or_default();
        let (rows, page) = self.repo.list(ctx.store_id, &f, page).await?;
        Ok(Response::new(pb::ListStoreChannelsResponse {
            store_channels: rows.iter().map(|r| r.to_proto()).collect(),
            page: Some(page.into()),
        }))
    }

    async fn get_store_channel(&self, req: Request<pb::GetStoreChannelRequest>) -> Rpc<pb::StoreChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        Ok(one(self.repo.get(ctx.store_id, &reference(req.into_inner().r#ref)?).await?))
    }

    async fn create_store_channel(&self, req: Request<pb::CreateStoreChannelRequest>) -> Rpc<pb::StoreChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let c = domain::validate(draft(req.into_inner().store_channel))?;
        self.check_warehouse(&ctx, c.warehouse_id).await?;
        let row = self.repo.create(ctx.store_id, ctx.user_id, &c).await?;
        self.relay.wake();
        Ok(one(row))
    }

    async fn update_store_channel(&self, req: Request<pb::UpdateStoreChannelRequest>) -> Rpc<pb::StoreChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let at = reference(r.r#ref)?;
        let c = domain::validate(draft(r.store_channel))?;
        let current = self.repo.get(ctx.store_id, &at).await?;
        if current.warehouse_id != c.warehouse_id {
            self.check_warehouse(&ctx, c.warehouse_id).await?;
        }
        let row = self.repo.update(ctx.store_id, ctx.user_id, &at, &c).await?;
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
        let id = (r.id > 0).then_some(r.id);
        if id.is_none() && domain::carrier(r.provider.trim()).is_none() {
            return Err(Error::invalid_field("provider_name", code::PROVIDER).into());
        }
        let changed = self.repo.set_status(ctx.store_id, ctx.user_id, id, r.provider.trim(), status).await?;
        self.relay.wake();
        Ok(Response::new(pb::SetStoreChannelStatusResponse { changed }))
    }

    async fn delete_store_channel(
        &self,
        req: Request<pb::DeleteStoreChannelRequest>,
    ) -> Rpc<pb::DeleteStoreChannelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        self.repo.delete(ctx.store_id, &reference(req.into_inner().r#ref)?).await?;
        Ok(Response::new(pb::DeleteStoreChannelResponse {}))
    }

    async fn list_store_providers(
        &self,
        req: Request<pb::ListStoreProvidersRequest>,
    ) -> Rpc<pb::ListStoreProvidersResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let rows = self.repo.providers(ctx.store_id).await?;
        Ok(Response::new(pb::ListStoreProvidersResponse {
            store_providers: rows.iter().map(|r| r.to_proto()).collect(),
        }))
    }

    async fn save_store_provider(&self, req: Request<pb::SaveStoreProviderRequest>) -> Rpc<pb::StoreProviderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let (provider, account) =
            domain::validate_provider(ProviderDraft { provider: r.provider, cod_account_no: r.cod_account_no })?;
        let row = self
            .repo
            .save_provider(ctx.store_id, ctx.user_id, (r.id > 0).then_some(r.id), provider, &account, r.create_only)
            .await?;
        Ok(Response::new(pb::StoreProviderResponse { store_provider: Some(row.to_proto()) }))
    }

    async fn get_rules(&self, _req: Request<pb::GetRulesRequest>) -> Rpc<pb::GetRulesResponse> {
        Ok(Response::new(pb::GetRulesResponse {
            carriers: domain::CATALOGUE.iter().map(carrier_message).collect(),
            rate_file_bytes: crate::rates::MAX_FILE_BYTES as i64,
            webhook_max_bytes: crate::carriers::thaipost::WEBHOOK_MAX_BYTES as i64,
        }))
    }

    async fn get_rate_template(&self, _req: Request<pb::GetRateTemplateRequest>) -> Rpc<pb::GetRateTemplateResponse> {
        let content = crate::rates::write(&crate::rates::sample(), Some(crate::rates::SAMPLE_LABEL))
            .map_err(|e| Error::internal(anyhow::anyhow!(e)))?;
        Ok(Response::new(pb::GetRateTemplateResponse { content }))
    }

    async fn quote_shipping(&self, req: Request<pb::QuoteShippingRequest>) -> Rpc<pb::QuoteShippingResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let p = r.parcel.unwrap_or_default();
        let parcel = parcel_of(p);
        parcel.check()?;
        if r.warehouse_id <= 0 {
            return Err(Error::invalid_field("warehouse_id", code::REQUIRED).into());
        }
        let chargeable = parcel.chargeable_g();
        let rows = self.repo.active_in(ctx.store_id, r.warehouse_id).await?;
        let table = if rows.iter().any(|r| r.pricing_method == domain::RATE_TABLE) {
            self.repo.rate_table(ctx.store_id).await?.map(|(_, t)| t)
        } else {
            None
        };
        let mut quotes: Vec<pb::Quote> = rows
            .iter()
            .map(|row| {
                let priced = domain::price_with(&row.channel(), &parcel, table.as_ref());
                pb::Quote {
                    store_channel: Some(row.to_proto()),
                    available: priced.is_ok(),
                    price_satang: priced.unwrap_or(0),
                    reason: priced.err().map(|u| u.code().to_string()).unwrap_or_default(),
                    chargeable_weight_g: chargeable,
                    cod_fee_satang: if parcel.cod { domain::cod_fee(parcel.cod_amount) } else { 0 },
                }
            })
            .collect();
        quotes.sort_by_key(|q| (!q.available, q.price_satang));
        Ok(Response::new(pb::QuoteShippingResponse { quotes }))
    }

    async fn list_tracking_ranges(
        &self,
        req: Request<pb::ListTrackingRangesRequest>,
    ) -> Rpc<pb::ListTrackingRangesResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let rows = self.repo.ranges(ctx.store_id, req.into_inner().provider.trim()).await?;
        Ok(Response::new(pb::ListTrackingRangesResponse { ranges: rows.iter().map(|r| r.to_proto()).collect() }))
    }

    async fn add_tracking_range(&self, req: Request<pb::AddTrackingRangeRequest>) -> Rpc<pb::TrackingRangeResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let range = domain::tracking::validate_range(&r.provider, &r.prefix, &r.first, &r.last)?;
        let row = self.repo.add_range(ctx.store_id, ctx.user_id, &range).await?;
        Ok(Response::new(pb::TrackingRangeResponse { range: Some(row.to_proto()) }))
    }

    async fn reserve_tracking_numbers(
        &self,
        req: Request<pb::ReserveTrackingNumbersRequest>,
    ) -> Rpc<pb::ReserveTrackingNumbersResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let Some(provider) = domain::carrier(r.provider.trim()) else {
            return Err(Error::invalid_field("provider_name", code::PROVIDER).into());
        };
        let count = if r.count == 0 { 1 } else { r.count };
        if !(1..=domain::tracking::MAX_RESERVE).contains(&count) {
            return Err(Error::invalid_field("count", domain::tracking::code::COUNT).into());
        }
        let reference = r.reference.trim();
        if reference.chars().count() > 100 {
            return Err(Error::invalid_field("reference", code::TOO_LONG).into());
        }
        let (numbers, replayed) =
            self.repo.reserve_numbers(ctx.store_id, ctx.user_id, provider.code, count, reference).await?;
        Ok(Response::new(pb::ReserveTrackingNumbersResponse { numbers, replayed }))
    }

    async fn get_rate_table(&self, req: Request<pb::GetRateTableRequest>) -> Rpc<pb::RateTableResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        Ok(Response::new(self.table_response(self.repo.rate_table(ctx.store_id).await?)))
    }

    async fn import_rate_table(&self, req: Request<pb::ImportRateTableRequest>) -> Rpc<pb::RateTableResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let (label, sample, table) = if r.sample {
            (crate::rates::SAMPLE_LABEL.to_string(), true, crate::rates::sample())
        } else {
            let Some(files) = self.files.clone() else {
                return Err(Error::new(bo_kit::error::Kind::Unavailable, Code::FilesUnavailable).into());
            };
            let key = bo_kit::files::Key::uploads_of(ctx.store_id, std::slice::from_ref(&r.upload), "file")?.remove(0);
            let bytes = files.read_upload(&key, crate::rates::MAX_FILE_BYTES as u64, "file", "import_too_large").await;
            files.forget(&key).await;
            let bytes = bytes?;
            let table = bo_kit::cpu::run(move || crate::rates::read(&bytes)).await.map_err(Error::internal)?;
            let table = match table {
                Ok(t) => t,
                Err(crate::rates::ReadError::Rows(fields)) => return Err(Error::invalid(fields).into()),
                Err(e) => return Err(Error::invalid_field("file", e.code()).into()),
            };
            (String::new(), false, table)
        };
        self.repo.save_rate_table(ctx.store_id, ctx.user_id, &label, sample, &table).await?;
        Ok(Response::new(self.table_response(self.repo.rate_table(ctx.store_id).await?)))
    }

    async fn quote_international(
        &self,
        req: Request<pb::QuoteInternationalRequest>,
    ) -> Rpc<pb::QuoteInternationalResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let p = req.into_inner().parcel.unwrap_or_default();
        let parcel = parcel_of(p);
        parcel.check()?;
        if !parcel.international() {
            return Err(Error::invalid_field(
                "country",
                if parcel.country.is_empty() { code::REQUIRED } else { code::COUNTRY },
            )
            .into());
        }
        let found = self.repo.rate_table(ctx.store_id).await?;
        let chargeable = parcel.chargeable_g();
        let rates = crate::rates::services()
            .into_iter()
            .map(|service| {
                let priced = match &found {
                    Some((_, t)) => t.price(service, &parcel.country, chargeable),
                    None => Err(crate::rates::NoRate::NotServed),
                };
                let carrier = domain::carrier(service).map(carrier_message);
                match priced {
                    Ok((zone, price)) => pb::ServiceRate {
                        service: service.into(),
                        available: true,
                        zone,
                        price_satang: price,
                        reason: String::new(),
                        carrier,
                    },
                    Err(e) => pb::ServiceRate {
                        service: service.into(),
                        reason: e.code().to_string(),
                        carrier,
                        ..Default::default()
                    },
                }
            })
            .collect();
        let (label, is_sample) = found.map(|(h, _)| (h.label, h.is_sample != 0)).unwrap_or_default();
        Ok(Response::new(pb::QuoteInternationalResponse { rates, chargeable_weight_g: chargeable, label, is_sample }))
    }

    async fn get_carrier_account(&self, req: Request<pb::GetCarrierAccountRequest>) -> Rpc<pb::CarrierAccountResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let carrier = account_carrier(&r.carrier)?;
        let mut row = self.repo.account(ctx.store_id, carrier).await?;
        if let (true, Some(a)) = (r.check, row.as_ref()) {
            let checked = self.check_key(carrier, &a.account_id, &a.secret).await;
            if let Err(e) = &checked {
                tracing::info!(carrier, error = %e, "a carrier account's key was checked");
            }
            self.repo.account_checked(ctx.store_id, carrier, key_status(&checked).wire()).await?;
            row = self.repo.account(ctx.store_id, carrier).await?;
        }
        Ok(Response::new(Self::account_response(row)))
    }

    async fn connect_carrier_account(
        &self,
        req: Request<pb::ConnectCarrierAccountRequest>,
    ) -> Rpc<pb::CarrierAccountResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let carrier = account_carrier(&r.carrier)?;
        let key = r.api_key.trim();
        if key.is_empty() {
            return Err(Error::invalid_field("api_key", code::REQUIRED).into());
        }
        if key.chars().count() > 500 || key.chars().any(char::is_control) {
            return Err(Error::invalid_field("api_key", code::TOO_LONG).into());
        }
        let account_id = r.account_id.trim();
        if carrier == crate::carriers::FLASH
            && (account_id.is_empty()
                || account_id.len() > 64
                || !account_id.bytes().all(|b| b.is_ascii_alphanumeric()))
        {
            let c = if account_id.is_empty() { code::REQUIRED } else { code::TOO_LONG };
            return Err(Error::invalid_field("account_id", c).into());
        }
        // Kept only when the carrier takes it: nothing half-connected is left behind.
        match self.check_key(carrier, account_id, key).await {
            Ok(()) => {}
            Err(e @ (crate::carriers::CarrierError::Auth(_) | crate::carriers::CarrierError::Rejected { .. })) => {
                tracing::info!(carrier, error = %e, "a carrier refused a key");
                return Err(Error::invalid_field("api_key", e.code().as_str()).into());
            }
            Err(e) => return Err(bo_kit::Error::from(e).into()),
        }
        let token = format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
        let row = self.repo.save_account(ctx.store_id, ctx.user_id, carrier, account_id, key, &token).await?;
        Ok(Response::new(Self::account_response(Some(row))))
    }

    async fn register_shipment(&self, req: Request<pb::RegisterShipmentRequest>) -> Rpc<pb::ShipmentResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let carrier = match r.carrier.trim() {
            c @ (crate::carriers::THAIPOST | crate::carriers::FLASH) => c,
            _ => return Err(Error::invalid_field("carrier", code::PROVIDER).into()),
        };
        let no = r.tracking_no.trim().to_uppercase();
        let ok = if carrier == crate::carriers::THAIPOST {
            domain::tracking::is_valid_s10(&no)
        } else {
            (6..=30).contains(&no.len()) && no.bytes().all(|b| b.is_ascii_alphanumeric())
        };
        if !ok {
            return Err(Error::invalid_field("tracking_no", "validation.tracking_number").into());
        }
        let reference = r.reference.trim();
        if reference.chars().count() > 100 {
            return Err(Error::invalid_field("reference", code::TOO_LONG).into());
        }
        let row = self.repo.register_shipment(ctx.store_id, ctx.user_id, carrier, &no, reference).await?;
        Ok(Response::new(pb::ShipmentResponse { shipment: Some(self.shipment_proto(row).await?) }))
    }

    async fn get_shipment(&self, req: Request<pb::GetShipmentRequest>) -> Rpc<pb::ShipmentResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let row = self
            .repo
            .shipment(ctx.store_id, r.carrier.trim(), &r.tracking_no.trim().to_uppercase())
            .await?
            .ok_or_else(|| Error::not_found(Code::ShipmentNotFound))?;
        Ok(Response::new(pb::ShipmentResponse { shipment: Some(self.shipment_proto(row).await?) }))
    }

    async fn apply_tracking_webhook(
        &self,
        req: Request<pb::ApplyTrackingWebhookRequest>,
    ) -> Rpc<pb::ApplyTrackingWebhookResponse> {
        let r = req.into_inner();
        if r.carrier.trim() != crate::carriers::THAIPOST {
            return Err(Error::not_found(Code::WebhookUnknown).into());
        }
        let carrier = crate::carriers::THAIPOST;
        let token = r.token.trim();
        if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(Error::not_found(Code::WebhookUnknown).into());
        }
        let account =
            self.repo.account_by_token(carrier, token).await?.ok_or_else(|| Error::not_found(Code::WebhookUnknown))?;
        let events = crate::carriers::thaipost::parse_webhook(&r.body, bo_kit::time::now_ms())
            .map_err(|e| Error::invalid_field("body", e.code().as_str()))?;
        let (applied, unknown) = self.repo.apply_events(account.store_id, &events).await?;
        Ok(Response::new(pb::ApplyTrackingWebhookResponse { applied, unknown }))
    }

    async fn create_shipment(&self, req: Request<pb::CreateShipmentRequest>) -> Rpc<pb::ShipmentResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        if r.carrier.trim() != crate::carriers::FLASH {
            return Err(Error::invalid_field("carrier", code::PROVIDER).into());
        }
        let mut errs = Vec::new();
        let reference = r.reference.trim().to_string();
        if reference.is_empty() || reference.len() > 64 {
            errs.push(bo_kit::FieldError::new(
                "reference",
                if reference.is_empty() { code::REQUIRED } else { code::TOO_LONG },
            ));
        }
        let sender = address(r.sender, "sender", &mut errs);
        let receiver = address(r.receiver, "receiver", &mut errs);
        if r.weight_g <= 0 || r.weight_g > domain::MAX_WEIGHT_G {
            errs.push(bo_kit::FieldError::new("weight", code::WEIGHT));
        }
        if r.cod_satang < 0 {
            errs.push(bo_kit::FieldError::new("cod", code::PRICE));
        }
        if !errs.is_empty() {
            return Err(Error::invalid(errs).into());
        }
        let flash = self.flash_of(ctx.store_id).await?;
        let booked = flash
            .create_order(&crate::carriers::NewShipment {
                reference: reference.clone(),
                sender,
                receiver,
                weight_g: r.weight_g,
                cod_satang: (r.cod_satang > 0).then_some(r.cod_satang),
            })
            .await
            .map_err(bo_kit::Error::from)?;
        let kept = self
            .repo
            .register_shipment(ctx.store_id, ctx.user_id, crate::carriers::FLASH, &booked.tracking_no, &reference)
            .await;
        let row = match kept {
            Ok(row) => row,
            Err(e) => {
                // Not kept here: cancel the booking so no parcel waits at the carrier unknown to us.
                if let Err(c) = flash.cancel(&booked.tracking_no).await {
                    tracing::error!(error = %c, "a booking that could not be kept could not be cancelled either");
                }
                return Err(e.into());
            }
        };
        Ok(Response::new(pb::ShipmentResponse { shipment: Some(self.shipment_proto(row).await?) }))
    }

    async fn cancel_shipment(&self, req: Request<pb::GetShipmentRequest>) -> Rpc<pb::ShipmentResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let row = self
            .repo
            .shipment(ctx.store_id, r.carrier.trim(), &r.tracking_no.trim().to_uppercase())
            .await?
            .ok_or_else(|| Error::not_found(Code::ShipmentNotFound))?;
        if row.carrier != crate::carriers::FLASH {
            return Err(Error::failed_precondition(Code::CarrierRejected).into());
        }
        if row.state != "cancelled" {
            self.flash_of(ctx.store_id).await?.cancel(&row.tracking_no).await.map_err(bo_kit::Error::from)?;
            self.repo.cancel_shipment(ctx.store_id, row.id).await?;
        }
        let row = self.repo.shipment(ctx.store_id, &row.carrier, &row.tracking_no).await?.unwrap_or(row);
        Ok(Response::new(pb::ShipmentResponse { shipment: Some(self.shipment_proto(row).await?) }))
    }

    async fn shipment_label(&self, req: Request<pb::GetShipmentRequest>) -> Rpc<pb::ShipmentLabelResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let row = self
            .repo
            .shipment(ctx.store_id, r.carrier.trim(), &r.tracking_no.trim().to_uppercase())
            .await?
            .ok_or_else(|| Error::not_found(Code::ShipmentNotFound))?;
        if row.carrier != crate::carriers::FLASH {
            return Err(Error::failed_precondition(Code::CarrierRejected).into());
        }
        let Some(files) = self.files.clone() else {
            return Err(Error::new(bo_kit::error::Kind::Unavailable, Code::FilesUnavailable).into());
        };
        let pdf = self.flash_of(ctx.store_id).await?.label(&row.tracking_no).await.map_err(bo_kit::Error::from)?;
        let key = bo_kit::files::Key::new(format!("labels/{}/{}-{}.pdf", ctx.store_id, row.carrier, row.tracking_no))
            .map_err(Error::internal)?;
        files.put(&key, pdf).await.map_err(Error::internal)?;
        Ok(Response::new(pb::ShipmentLabelResponse { file_key: key.as_str().to_string() }))
    }
}

impl LogisticsGrpc {
    async fn shipment_proto(&self, row: crate::store::ShipmentRow) -> bo_kit::Result<pb::Shipment> {
        let events = self.repo.shipment_events(row.id).await?;
        Ok(pb::Shipment {
            id: row.id,
            carrier: row.carrier,
            tracking_no: row.tracking_no,
            reference: row.reference,
            state: pb::ShipmentState::number(&row.state),
            progress: row.progress,
            events: events
                .into_iter()
                .map(|(carrier_code, description, location, progress, at_ms)| pb::ShipmentEvent {
                    carrier_code,
                    description,
                    location,
                    progress,
                    at_ms,
                })
                .collect(),
        })
    }
}

/// A carrier service of the catalogue as the wire carries it.
pub(crate) fn carrier_message(c: &domain::Carrier) -> pb::Carrier {
    pb::Carrier {
        code: c.code.into(),
        carrier: c.carrier.into(),
        name_th: c.name_th.into(),
        name_en: c.name_en.into(),
        shipment_type: c.shipment_type.into(),
        cod: c.cod,
    }
}

#[cfg(test)]
mod status_tests {
    /// The statuses kept in storage are the proto enum's words.
    #[test]
    fn the_statuses_are_the_proto_enum() {
        use bo_proto::Wire;
        let words: Vec<&str> = super::pb::ChannelStatus::words().collect();
        assert_eq!(words, [crate::domain::ACTIVE, crate::domain::INACTIVE]);
    }

    /// The shipment states the carriers' events lead to are the proto enum's words, and a
    /// new shipment starts pending (the store's insert writes the word).
    #[test]
    fn the_shipment_states_are_the_proto_enum() {
        use super::pb::ShipmentState;
        use bo_proto::Wire;
        assert_eq!(ShipmentState::Shipped.wire(), crate::carriers::SHIPMENT_SHIPPED);
        assert_eq!(ShipmentState::Cancelled.wire(), crate::carriers::SHIPMENT_CANCELLED);
        assert_eq!(ShipmentState::Pending.wire(), "pending");
    }
}
