//! Logistics (SPEC §3 COD provider, Logistic store channel, §5, §7 Logistics, §8, §9): the
//! carrier catalogue, the store's shipping channels (domestic and international), its COD
//! accounts, the channels per warehouse, and parcel prices. Any member may read them (an
//! order needs a carrier and a price); changing them takes the owner role or
//! `logistic.storeChannel.*`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_kit::FieldError;
use bo_logistics::domain as d;
use bo_proto::logistics::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::state::AppState;
use crate::wire::{baht, kilograms, page_request, Body, Decimal, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(catalogue))
        .routes(routes!(list_logistic_channels, create_logistic_channel))
        .routes(routes!(set_status_by_provider))
        .routes(routes!(create_inter_channel))
        .routes(routes!(
            get_logistic_channel,
            replace_logistic_channel,
            update_logistic_channel,
            delete_logistic_channel
        ))
        .routes(routes!(update_inter_channel, delete_inter_channel))
        .routes(routes!(list_store_providers, create_store_provider, save_store_provider))
        .routes(routes!(update_store_provider))
        .routes(routes!(warehouse_channels))
        .routes(routes!(quote_shipping))
        .routes(routes!(list_tracking_ranges, add_tracking_range))
        .routes(routes!(reserve_tracking_numbers))
        .routes(routes!(get_rate_table, upload_rate_table))
        .routes(routes!(load_sample_rate_table))
        .routes(routes!(rate_table_template))
        .routes(routes!(shipping_rates))
        .routes(routes!(get_carrier_account, connect_carrier_account))
        .routes(routes!(thaipost_webhook))
        .routes(routes!(register_shipment))
        .routes(routes!(get_shipment))
        .routes(routes!(book_flash_shipment))
        .routes(routes!(cancel_shipment))
        .routes(routes!(shipment_label))
}

/// Reading: any member of the store.
const READ: Access = Access { roles: &[], perms: &[] };
/// Changing: the owner, or logistic.storeChannel.*.
const EDIT: Access = Access { roles: &["owner"], perms: &[keys::LOGISTIC_STORE_CHANNEL_ALL] };
/// Taking tracking numbers: whoever ships orders, or manages logistics.
const RESERVE: Access = Access {
    roles: &["owner"],
    perms: &[keys::LOGISTIC_STORE_CHANNEL_ALL, keys::ORDER_ORDER_EDIT, keys::ORDER_ORDER_CREATE],
};

/// A carrier service of the catalogue.
#[derive(Debug, Serialize, ToSchema)]
pub struct CarrierBody {
    /// Provider name, as channels name it.
    pub provider_name: String,
    /// Who carries it.
    pub carrier: String,
    /// Thai name.
    pub name_th: String,
    /// English name.
    pub name_en: String,
    /// domestic or international.
    pub shipment_type: String,
    /// Collects cash on delivery (a COD provider).
    pub cod: bool,
}

impl From<&d::Carrier> for CarrierBody {
    fn from(c: &d::Carrier) -> Self {
        CarrierBody {
            provider_name: c.code.into(),
            carrier: c.carrier.into(),
            name_th: c.name_th.into(),
            name_en: c.name_en.into(),
            shipment_type: c.shipment_type.into(),
            cod: c.cod,
        }
    }
}

/// The shipment type of the catalogue.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct CatalogueQuery {
    /// all (default), domestic or international.
    pub shipment_type: Option<String>,
}

/// The carrier catalogue: domestic carriers, the eight international services and the COD
/// providers.
#[utoipa::path(get, path = "/logistics/channels", tag = "logistics", params(CatalogueQuery),
    responses((status = 200, body = List<CarrierBody>), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn catalogue(auth: StoreAuth, Query(q): Query<CatalogueQuery>) -> ApiResult<Json<List<CarrierBody>>> {
    auth.require(READ)?;
    let list = d::catalogue(q.shipment_type.as_deref().unwrap_or(""))
        .ok_or_else(|| ApiError::invalid_field("shipment_type", "validation.shipment_type"))?;
    Ok(Json(List::all(list.into_iter().map(CarrierBody::from).collect())))
}

/// A weight bracket.
#[derive(Debug, Serialize, ToSchema)]
pub struct BracketBody {
    /// Upper weight in kilograms, three decimals (inclusive).
    pub max_weight: String,
    /// Upper weight in grams.
    pub max_weight_g: i64,
    /// Price, baht.
    pub price: String,
}

/// A shipping channel of the store.
#[derive(Debug, Serialize, ToSchema)]
pub struct LogisticChannelBody {
    /// Id.
    pub id: i64,
    /// The warehouse it ships from.
    pub warehouse_id: i64,
    /// domestic or international.
    pub logistic_type: String,
    /// Name.
    pub name: String,
    /// Provider name of the catalogue.
    pub provider_name: String,
    /// The provider as the catalogue describes it.
    pub provider: Option<CarrierBody>,
    /// flat, weight or free_over.
    pub pricing_method: String,
    /// The flat price (below the threshold for free_over), baht.
    pub price: String,
    /// Weight brackets (weight).
    pub brackets: Vec<BracketBody>,
    /// Free from this order total up, baht (free_over).
    pub free_over: String,
    /// Offers cash on delivery.
    pub cod: bool,
    /// Ships abroad.
    pub international: bool,
    /// active or inactive.
    pub status: String,
    /// Created.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
}

impl From<pb::StoreChannel> for LogisticChannelBody {
    fn from(c: pb::StoreChannel) -> Self {
        LogisticChannelBody {
            id: c.id,
            warehouse_id: c.warehouse_id,
            logistic_type: c.logistic_type,
            name: c.name,
            provider: d::carrier(&c.provider).map(CarrierBody::from),
            provider_name: c.provider,
            pricing_method: c.pricing_method,
            price: baht(c.price_satang),
            brackets: c
                .brackets
                .iter()
                .map(|b| BracketBody {
                    max_weight: kilograms(b.max_weight_g),
                    max_weight_g: b.max_weight_g,
                    price: baht(b.price_satang),
                })
                .collect(),
            free_over: baht(c.free_over_satang),
            cod: c.cod,
            international: c.international,
            status: c.status,
            created_at: timestamp_to_rfc3339(c.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(c.update_time.as_ref()),
        }
    }
}

/// A weight bracket as sent.
#[derive(Debug, Deserialize, Serialize, ToSchema, Clone)]
pub struct BracketInput {
    /// Upper weight in kilograms, up to three decimals.
    pub max_weight: Decimal,
    /// Price in baht.
    pub price: Decimal,
}

/// A shipping channel's fields. On create (and PUT) the method's fields are required; on
/// PATCH only the fields given change.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct LogisticChannelInput {
    /// One of the store's warehouses.
    pub warehouse_id: Option<i64>,
    /// domestic or international.
    pub logistic_type: Option<String>,
    /// Name shown to staff and on bills.
    pub name: Option<String>,
    /// Provider name from `GET /logistics/channels`.
    #[serde(alias = "provider")]
    pub provider_name: Option<String>,
    /// flat, weight or free_over.
    pub pricing_method: Option<String>,
    /// The flat price in baht (below the threshold for free_over).
    pub price: Option<Decimal>,
    /// Rising weight brackets (weight).
    pub brackets: Option<Vec<BracketInput>>,
    /// The order total from which shipping is free, baht (free_over).
    pub free_over: Option<Decimal>,
    /// Offers cash on delivery (needs the store's COD account with the provider).
    pub cod: Option<bool>,
    /// active or inactive (default active).
    pub status: Option<String>,
}

/// A weight in kilograms as grams; 0 when not given (the service then says it is required).
fn grams_of(weight: &Option<Decimal>) -> ApiResult<i64> {
    match weight {
        None => Ok(0),
        Some(w) => w.grams().ok_or_else(|| ApiError::invalid_field("weight", "validation.weight")),
    }
}

fn amount(field: &str, v: &Decimal, errs: &mut Vec<FieldError>) -> i64 {
    v.satang().filter(|s| *s >= 0).unwrap_or_else(|| {
        errs.push(FieldError::new(field, "validation.price"));
        -2
    })
}

impl LogisticChannelInput {
    /// The channel as it should be: these fields over `current`'s (a default channel on
    /// create, where a missing amount stays missing).
    fn over(self, current: Option<pb::StoreChannel>) -> ApiResult<pb::StoreChannelInput> {
        let fresh = current.is_none();
        let c = current.unwrap_or_default();
        let mut errs = Vec::new();
        let price = match &self.price {
            Some(p) => amount("price", p, &mut errs),
            None if fresh => -1,
            None => c.price_satang,
        };
        let free_over = match &self.free_over {
            Some(p) => amount("free_over", p, &mut errs),
            None if fresh => -1,
            None => c.free_over_satang,
        };
        let brackets = match &self.brackets {
            Some(list) => list
                .iter()
                .enumerate()
                .map(|(i, b)| pb::WeightBracket {
                    max_weight_g: b.max_weight.grams().unwrap_or_else(|| {
                        errs.push(FieldError::new(format!("brackets[{i}].max_weight"), "validation.weight"));
                        0
                    }),
                    price_satang: amount(&format!("brackets[{i}].price"), &b.price, &mut errs),
                })
                .collect(),
            None => c.brackets,
        };
        if !errs.is_empty() {
            return Err(bo_kit::Error::invalid(errs).into());
        }
        Ok(pb::StoreChannelInput {
            warehouse_id: self.warehouse_id.unwrap_or(c.warehouse_id),
            logistic_type: self.logistic_type.unwrap_or(c.logistic_type),
            name: self.name.unwrap_or(c.name),
            provider: self.provider_name.unwrap_or(c.provider),
            pricing_method: self.pricing_method.unwrap_or(c.pricing_method),
            price_satang: price,
            brackets,
            free_over_satang: free_over,
            cod: self.cod.unwrap_or(c.cod),
            status: self.status.unwrap_or(c.status),
        })
    }
}

/// Filters of the channel list.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct LogisticChannelQuery {
    /// Page number.
    pub page: Option<i64>,
    /// Page size; -1 for all (the default).
    pub limit: Option<i64>,
    /// Only this warehouse's channels.
    pub warehouse_id: Option<i64>,
    /// Only this provider's.
    #[serde(alias = "provider_name")]
    pub provider_name: Option<String>,
    /// domestic or international.
    pub logistic_type: Option<String>,
    /// active or inactive.
    pub status: Option<String>,
}

async fn list(state: &AppState, auth: &StoreAuth, q: LogisticChannelQuery) -> ApiResult<pb::ListStoreChannelsResponse> {
    Ok(state
        .logistics()
        .list_store_channels(auth.ctx().request(pb::ListStoreChannelsRequest {
            page: Some(page_request(q.page, Some(q.limit.unwrap_or(-1)))),
            warehouse_id: q.warehouse_id.unwrap_or(0),
            provider: q.provider_name.unwrap_or_default(),
            logistic_type: q.logistic_type.unwrap_or_default(),
            status: q.status.unwrap_or_default(),
        }))
        .await?
        .into_inner())
}

/// The store's shipping channels by warehouse (all unless a `limit` is given).
#[utoipa::path(get, path = "/logistics/store-channels", tag = "logistics", params(LogisticChannelQuery),
    responses((status = 200, body = List<LogisticChannelBody>), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn list_logistic_channels(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<LogisticChannelQuery>,
) -> ApiResult<Json<List<LogisticChannelBody>>> {
    auth.require(READ)?;
    let r = list(&state, &auth, q).await?;
    Ok(Json(List::new(r.store_channels.into_iter().map(LogisticChannelBody::from).collect(), r.page)))
}

async fn create(
    state: &AppState,
    auth: &StoreAuth,
    input: pb::StoreChannelInput,
) -> ApiResult<(StatusCode, Json<LogisticChannelBody>)> {
    let r = state
        .logistics()
        .create_store_channel(auth.ctx().request(pb::CreateStoreChannelRequest { store_channel: Some(input) }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.store_channel.unwrap_or_default().into())))
}

/// Adds a shipping channel, domestic or international (owner, or logistic.storeChannel.*).
#[utoipa::path(post, path = "/logistics/store-channels", tag = "logistics", request_body = LogisticChannelInput,
    responses((status = 201, body = LogisticChannelBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "logistic_limit_reached, logistic_inter_duplicate, cod_account_missing"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_logistic_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<LogisticChannelInput>,
) -> ApiResult<(StatusCode, Json<LogisticChannelBody>)> {
    auth.require(EDIT)?;
    create(&state, &auth, b.over(None)?).await
}

/// Adds an international shipping channel: one per warehouse per provider (owner, or
/// logistic.storeChannel.*).
#[utoipa::path(post, path = "/logistics/store-channels/inter", tag = "logistics", request_body = LogisticChannelInput,
    responses((status = 201, body = LogisticChannelBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "logistic_inter_duplicate, logistic_limit_reached"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_inter_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<LogisticChannelInput>,
) -> ApiResult<(StatusCode, Json<LogisticChannelBody>)> {
    auth.require(EDIT)?;
    let mut input = b.over(None)?;
    input.logistic_type = d::INTERNATIONAL.into();
    create(&state, &auth, input).await
}

/// The new status of a provider's channels.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct LogisticStatusInput {
    /// active or inactive.
    pub status: Option<String>,
}

/// Which provider `PATCH /logistics/store-channels/` changes.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct ProviderQuery {
    /// Provider name of the catalogue.
    #[serde(alias = "provider-name")]
    pub provider_name: Option<String>,
}

/// How many channels changed.
#[derive(Debug, Serialize, ToSchema)]
pub struct LogisticChannelsChanged {
    /// Channels whose status changed.
    pub changed: i64,
}

/// Sets the status of every channel of a provider (`?provider_name=flash`).
#[utoipa::path(patch, path = "/logistics/store-channels/", tag = "logistics", params(ProviderQuery), request_body = LogisticStatusInput,
    responses((status = 200, body = LogisticChannelsChanged), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn set_status_by_provider(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<ProviderQuery>,
    Body(b): Body<LogisticStatusInput>,
) -> ApiResult<Json<LogisticChannelsChanged>> {
    auth.require(EDIT)?;
    let Some(provider) = q.provider_name.filter(|p| !p.trim().is_empty()) else {
        return Err(ApiError::invalid_field("provider_name", "validation.required"));
    };
    let r = state
        .logistics()
        .set_store_channel_status(auth.ctx().request(pb::SetStoreChannelStatusRequest {
            id: 0,
            provider,
            status: b.status.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    Ok(Json(LogisticChannelsChanged { changed: r.changed }))
}

fn by_id(id: i64) -> Option<pb::ChannelRef> {
    Some(pb::ChannelRef { id, ..Default::default() })
}

fn by_inter(provider: String, warehouse_id: i64) -> Option<pb::ChannelRef> {
    Some(pb::ChannelRef { id: 0, provider, warehouse_id })
}

async fn current(state: &AppState, auth: &StoreAuth, r: Option<pb::ChannelRef>) -> ApiResult<pb::StoreChannel> {
    Ok(state
        .logistics()
        .get_store_channel(auth.ctx().request(pb::GetStoreChannelRequest { r#ref: r }))
        .await?
        .into_inner()
        .store_channel
        .unwrap_or_default())
}

async fn update(
    state: &AppState,
    auth: &StoreAuth,
    r: Option<pb::ChannelRef>,
    input: pb::StoreChannelInput,
) -> ApiResult<Json<LogisticChannelBody>> {
    let out = state
        .logistics()
        .update_store_channel(
            auth.ctx().request(pb::UpdateStoreChannelRequest { r#ref: r, store_channel: Some(input) }),
        )
        .await?
        .into_inner();
    Ok(Json(out.store_channel.unwrap_or_default().into()))
}

async fn delete(state: &AppState, auth: &StoreAuth, r: Option<pb::ChannelRef>) -> ApiResult<StatusCode> {
    state.logistics().delete_store_channel(auth.ctx().request(pb::DeleteStoreChannelRequest { r#ref: r })).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// One shipping channel.
#[utoipa::path(get, path = "/logistics/store-channels/{id}", tag = "logistics", params(("id" = i64, Path)),
    responses((status = 200, body = LogisticChannelBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn get_logistic_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<LogisticChannelBody>> {
    auth.require(READ)?;
    Ok(Json(current(&state, &auth, by_id(id)).await?.into()))
}

/// Replaces a shipping channel: every field as on create (owner, or logistic.storeChannel.*).
#[utoipa::path(put, path = "/logistics/store-channels/{id}", tag = "logistics", params(("id" = i64, Path)),
    request_body = LogisticChannelInput,
    responses((status = 200, body = LogisticChannelBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn replace_logistic_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<LogisticChannelInput>,
) -> ApiResult<Json<LogisticChannelBody>> {
    auth.require(EDIT)?;
    update(&state, &auth, by_id(id), b.over(None)?).await
}

/// Changes a shipping channel: only the fields given change (owner, or
/// logistic.storeChannel.*).
#[utoipa::path(patch, path = "/logistics/store-channels/{id}", tag = "logistics", params(("id" = i64, Path)),
    request_body = LogisticChannelInput,
    responses((status = 200, body = LogisticChannelBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_logistic_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<LogisticChannelInput>,
) -> ApiResult<Json<LogisticChannelBody>> {
    auth.require(EDIT)?;
    let input = b.over(Some(current(&state, &auth, by_id(id)).await?))?;
    update(&state, &auth, by_id(id), input).await
}

/// Deletes a shipping channel (owner, or logistic.storeChannel.*).
#[utoipa::path(delete, path = "/logistics/store-channels/{id}", tag = "logistics", params(("id" = i64, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn delete_logistic_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    auth.require(EDIT)?;
    delete(&state, &auth, by_id(id)).await
}

/// Changes the international channel of a provider at a warehouse: only the fields given
/// change (owner, or logistic.storeChannel.*).
#[utoipa::path(patch, path = "/logistics/store-channels/inter/{provider_name}/{warehouse_id}", tag = "logistics",
    params(("provider_name" = String, Path), ("warehouse_id" = i64, Path)), request_body = LogisticChannelInput,
    responses((status = 200, body = LogisticChannelBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_inter_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((provider, warehouse_id)): Path<(String, i64)>,
    Body(b): Body<LogisticChannelInput>,
) -> ApiResult<Json<LogisticChannelBody>> {
    auth.require(EDIT)?;
    let at = by_inter(provider, warehouse_id);
    let input = b.over(Some(current(&state, &auth, at.clone()).await?))?;
    update(&state, &auth, at, input).await
}

/// Deletes the international channel of a provider at a warehouse (owner, or
/// logistic.storeChannel.*).
#[utoipa::path(delete, path = "/logistics/store-channels/inter/{provider_name}/{warehouse_id}", tag = "logistics",
    params(("provider_name" = String, Path), ("warehouse_id" = i64, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn delete_inter_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((provider, warehouse_id)): Path<(String, i64)>,
) -> ApiResult<StatusCode> {
    auth.require(EDIT)?;
    delete(&state, &auth, by_inter(provider, warehouse_id)).await
}

/// The store's COD account with a COD provider.
#[derive(Debug, Serialize, ToSchema)]
pub struct StoreProviderBody {
    /// Id.
    pub id: i64,
    /// Provider name (a COD provider of the catalogue).
    pub provider_name: String,
    /// The provider as the catalogue describes it.
    pub provider: Option<CarrierBody>,
    /// The account the provider remits cash on delivery to.
    pub cod_account_no: String,
    /// Created.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
}

impl From<pb::StoreProvider> for StoreProviderBody {
    fn from(p: pb::StoreProvider) -> Self {
        StoreProviderBody {
            id: p.id,
            provider: d::carrier(&p.provider).map(CarrierBody::from),
            provider_name: p.provider,
            cod_account_no: p.cod_account_no,
            created_at: timestamp_to_rfc3339(p.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(p.update_time.as_ref()),
        }
    }
}

/// A COD account: both fields required.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct StoreProviderInput {
    /// A COD provider: thaipost or flash.
    #[serde(alias = "provider")]
    pub provider_name: Option<String>,
    /// The COD account number, digits.
    pub cod_account_no: Option<String>,
}

async fn save_provider(
    state: &AppState,
    auth: &StoreAuth,
    id: i64,
    b: StoreProviderInput,
    create_only: bool,
) -> ApiResult<StoreProviderBody> {
    let r = state
        .logistics()
        .save_store_provider(auth.ctx().request(pb::SaveStoreProviderRequest {
            id,
            provider: b.provider_name.unwrap_or_default(),
            cod_account_no: b.cod_account_no.unwrap_or_default(),
            create_only,
        }))
        .await?
        .into_inner();
    Ok(r.store_provider.unwrap_or_default().into())
}

/// The store's COD accounts.
#[utoipa::path(get, path = "/logistics/store-providers", tag = "logistics",
    responses((status = 200, body = List<StoreProviderBody>)), security(("bearer" = [])))]
async fn list_store_providers(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<Json<List<StoreProviderBody>>> {
    auth.require(READ)?;
    let r = state
        .logistics()
        .list_store_providers(auth.ctx().request(pb::ListStoreProvidersRequest {}))
        .await?
        .into_inner();
    Ok(Json(List::all(r.store_providers.into_iter().map(StoreProviderBody::from).collect())))
}

/// Adds the COD account of a provider (owner, or logistic.storeChannel.*).
#[utoipa::path(post, path = "/logistics/store-providers", tag = "logistics", request_body = StoreProviderInput,
    responses((status = 201, body = StoreProviderBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "cod_provider_duplicate"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_store_provider(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<StoreProviderInput>,
) -> ApiResult<(StatusCode, Json<StoreProviderBody>)> {
    auth.require(EDIT)?;
    Ok((StatusCode::CREATED, Json(save_provider(&state, &auth, 0, b, true).await?)))
}

/// Sets the COD account of a provider, adding it when the store has none (owner, or
/// logistic.storeChannel.*).
#[utoipa::path(patch, path = "/logistics/store-providers", tag = "logistics", request_body = StoreProviderInput,
    responses((status = 200, body = StoreProviderBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn save_store_provider(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<StoreProviderInput>,
) -> ApiResult<Json<StoreProviderBody>> {
    auth.require(EDIT)?;
    Ok(Json(save_provider(&state, &auth, 0, b, false).await?))
}

/// Changes a COD account: only the fields given change (owner, or logistic.storeChannel.*).
#[utoipa::path(patch, path = "/logistics/store-providers/{id}", tag = "logistics", params(("id" = i64, Path)),
    request_body = StoreProviderInput,
    responses((status = 200, body = StoreProviderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "cod_provider_duplicate"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_store_provider(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<StoreProviderInput>,
) -> ApiResult<Json<StoreProviderBody>> {
    auth.require(EDIT)?;
    let mut b = b;
    if b.provider_name.is_none() || b.cod_account_no.is_none() {
        // Only the fields given change.
        let r = state.logistics().list_store_providers(auth.ctx().request(pb::ListStoreProvidersRequest {})).await?;
        let current = r
            .into_inner()
            .store_providers
            .into_iter()
            .find(|p| p.id == id)
            .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "cod_provider_not_found"))?;
        b.provider_name.get_or_insert(current.provider);
        b.cod_account_no.get_or_insert(current.cod_account_no);
    }
    Ok(Json(save_provider(&state, &auth, id, b, false).await?))
}

/// A warehouse with its active shipping channels.
#[derive(Debug, Serialize, ToSchema)]
pub struct WarehouseChannelsBody {
    /// Warehouse id.
    pub id: i64,
    /// Warehouse name.
    pub name: String,
    /// The store's default warehouse.
    pub is_default: bool,
    /// Its active channels.
    pub logistic_channels: Vec<LogisticChannelBody>,
}

/// Every warehouse of the store with its active shipping channels.
#[utoipa::path(get, path = "/wms/warehouse-stores/logistic-channels", tag = "logistics",
    responses((status = 200, body = List<WarehouseChannelsBody>)), security(("bearer" = [])))]
async fn warehouse_channels(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<Json<List<WarehouseChannelsBody>>> {
    auth.require(READ)?;
    let warehouses = state
        .wms()
        .list_warehouses(auth.ctx().request(bo_proto::wms::v1::ListWarehousesRequest {}))
        .await?
        .into_inner()
        .warehouses;
    let q = LogisticChannelQuery { status: Some(d::ACTIVE.into()), ..Default::default() };
    let mut channels: Vec<pb::StoreChannel> = list(&state, &auth, q).await?.store_channels;
    let data = warehouses
        .into_iter()
        .map(|w| {
            let (mine, rest): (Vec<_>, Vec<_>) = channels.drain(..).partition(|c| c.warehouse_id == w.id);
            channels = rest;
            WarehouseChannelsBody {
                id: w.id,
                name: w.name,
                is_default: w.is_default,
                logistic_channels: mine.into_iter().map(LogisticChannelBody::from).collect(),
            }
        })
        .collect();
    Ok(Json(List::all(data)))
}

/// A parcel to price.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct QuoteInput {
    /// The warehouse it ships from.
    pub warehouse_id: Option<i64>,
    /// Weight in kilograms, up to three decimals.
    pub weight: Option<Decimal>,
    /// Length in centimetres.
    pub length: Option<i64>,
    /// Width in centimetres.
    pub width: Option<i64>,
    /// Height in centimetres.
    pub height: Option<i64>,
    /// Destination postcode (domestic).
    pub postcode: Option<String>,
    /// Destination country, ISO alpha-2 (empty or TH: domestic).
    pub country: Option<String>,
    /// The order's total in baht (for free shipping over a total).
    pub order_total: Option<Decimal>,
    /// Cash on delivery wanted.
    pub cod: Option<bool>,
}

/// One channel's price for the parcel.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuoteBody {
    /// The channel.
    pub store_channel: LogisticChannelBody,
    /// It can take the parcel.
    pub available: bool,
    /// Price in baht.
    pub price: String,
    /// Why not, as a message key (shipping.over_weight, shipping.cod_not_offered, ...).
    pub reason: String,
    /// The weight charged (actual or volumetric), kilograms.
    pub chargeable_weight: String,
}

/// Prices a parcel with every active channel of a warehouse: available ones cheapest first.
#[utoipa::path(post, path = "/logistics/shipping-price/quotes", tag = "logistics", request_body = QuoteInput,
    responses((status = 200, body = List<QuoteBody>), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn quote_shipping(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<QuoteInput>,
) -> ApiResult<Json<List<QuoteBody>>> {
    auth.require(READ)?;
    let weight_g = grams_of(&b.weight)?;
    let order_total = match &b.order_total {
        None => 0,
        Some(t) => t.satang().ok_or_else(|| ApiError::invalid_field("order_total", "validation.price"))?,
    };
    let r = state
        .logistics()
        .quote_shipping(auth.ctx().request(pb::QuoteShippingRequest {
            warehouse_id: b.warehouse_id.unwrap_or(0),
            parcel: Some(pb::Parcel {
                weight_g,
                length_cm: b.length.unwrap_or(0),
                width_cm: b.width.unwrap_or(0),
                height_cm: b.height.unwrap_or(0),
                postcode: b.postcode.unwrap_or_default(),
                country: b.country.unwrap_or_default(),
                order_total_satang: order_total,
                cod: b.cod.unwrap_or(false),
                cod_amount_satang: 0,
            }),
        }))
        .await?
        .into_inner();
    Ok(Json(List::all(
        r.quotes
            .into_iter()
            .map(|q| QuoteBody {
                store_channel: q.store_channel.unwrap_or_default().into(),
                available: q.available,
                price: baht(q.price_satang),
                reason: q.reason,
                chargeable_weight: kilograms(q.chargeable_weight_g),
            })
            .collect(),
    )))
}

/// A range of tracking numbers from a carrier.
#[derive(Debug, Serialize, ToSchema)]
pub struct TrackingRangeBody {
    /// Id.
    pub id: i64,
    /// Provider name.
    pub provider_name: String,
    /// Letters before the serial.
    pub prefix: String,
    /// First serial.
    pub first_serial: i64,
    /// Last serial (inclusive).
    pub last_serial: i64,
    /// The next serial handed out.
    pub next_serial: i64,
    /// Numbers left.
    pub remaining: i64,
    /// The first number as printed (S10 for the postal provider: EY000000014TH).
    pub first_number: String,
    /// The last number as printed.
    pub last_number: String,
}

impl From<pb::TrackingRange> for TrackingRangeBody {
    fn from(r: pb::TrackingRange) -> Self {
        TrackingRangeBody {
            id: r.id,
            provider_name: r.provider,
            prefix: r.prefix,
            first_serial: r.first_serial,
            last_serial: r.last_serial,
            next_serial: r.next_serial,
            remaining: r.remaining,
            first_number: r.first_number,
            last_number: r.last_number,
        }
    }
}

/// Which provider's ranges.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct RangeQuery {
    /// Only this provider's.
    pub provider_name: Option<String>,
}

/// The store's tracking-number ranges, oldest first.
#[utoipa::path(get, path = "/logistics/tracking-numbers/ranges", tag = "logistics", params(RangeQuery),
    responses((status = 200, body = List<TrackingRangeBody>)), security(("bearer" = [])))]
async fn list_tracking_ranges(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<RangeQuery>,
) -> ApiResult<Json<List<TrackingRangeBody>>> {
    auth.require(READ)?;
    let r = state
        .logistics()
        .list_tracking_ranges(
            auth.ctx().request(pb::ListTrackingRangesRequest { provider: q.provider_name.unwrap_or_default() }),
        )
        .await?
        .into_inner();
    Ok(Json(List::all(r.ranges.into_iter().map(TrackingRangeBody::from).collect())))
}

/// A range as registered.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct TrackingRangeInput {
    /// Provider name (a domestic carrier, or the postal provider's services).
    pub provider_name: Option<String>,
    /// Two letters for postal (S10) numbers; 1 to 6 letters or digits for others.
    pub prefix: Option<String>,
    /// First serial, digits (8 for postal numbers).
    pub first: Option<String>,
    /// Last serial, digits (inclusive).
    pub last: Option<String>,
}

/// Registers a range of tracking numbers the carrier gave the store (owner, or
/// logistic.storeChannel.*).
#[utoipa::path(post, path = "/logistics/tracking-numbers/ranges", tag = "logistics", request_body = TrackingRangeInput,
    responses((status = 201, body = TrackingRangeBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "tracking_range_overlap, tracking_range_limit_reached"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn add_tracking_range(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<TrackingRangeInput>,
) -> ApiResult<(StatusCode, Json<TrackingRangeBody>)> {
    auth.require(EDIT)?;
    let r = state
        .logistics()
        .add_tracking_range(auth.ctx().request(pb::AddTrackingRangeRequest {
            provider: b.provider_name.unwrap_or_default(),
            prefix: b.prefix.unwrap_or_default(),
            first: b.first.unwrap_or_default(),
            last: b.last.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.range.unwrap_or_default().into())))
}

/// What to reserve.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ReserveInput {
    /// Provider name.
    pub provider_name: Option<String>,
    /// How many, 1 to 100 (default 1).
    pub count: Option<i64>,
    /// What they are for (an order or parcel reference): a repeat answers the same numbers.
    pub reference: Option<String>,
}

/// Numbers handed out.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReservedBody {
    /// The numbers, in order.
    pub data: Vec<String>,
    /// The reference had them already.
    pub replayed: bool,
}

/// Hands out tracking numbers from the store's ranges, never the same number twice.
#[utoipa::path(post, path = "/logistics/tracking-numbers/reserve", tag = "logistics", request_body = ReserveInput,
    responses((status = 200, body = ReservedBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "tracking_numbers_exhausted"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn reserve_tracking_numbers(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<ReserveInput>,
) -> ApiResult<Json<ReservedBody>> {
    auth.require(RESERVE)?;
    let r = state
        .logistics()
        .reserve_tracking_numbers(auth.ctx().request(pb::ReserveTrackingNumbersRequest {
            provider: b.provider_name.unwrap_or_default(),
            count: b.count.unwrap_or(1),
            reference: b.reference.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    Ok(Json(ReservedBody { data: r.numbers, replayed: r.replayed }))
}

/// A country of the rate table.
#[derive(Debug, Serialize, ToSchema)]
pub struct RateCountryBody {
    /// ISO alpha-2.
    pub code: String,
    /// Its name as the table gives it.
    pub name: String,
}

/// The store's international rate table.
#[derive(Debug, Serialize, ToSchema)]
pub struct RateTableBody {
    /// False when the store has loaded none.
    pub loaded: bool,
    /// Its label (the sample says it is one).
    pub label: String,
    /// The built-in sample, not real prices.
    pub is_sample: bool,
    /// When it was loaded ("" when none).
    pub uploaded_at: String,
    /// The countries it serves.
    pub countries: Vec<RateCountryBody>,
    /// Price rows.
    pub rate_count: i64,
}

impl From<pb::RateTableResponse> for RateTableBody {
    fn from(r: pb::RateTableResponse) -> Self {
        RateTableBody {
            loaded: r.loaded,
            label: r.label,
            is_sample: r.is_sample,
            uploaded_at: if r.loaded {
                timestamp_to_rfc3339(Some(&bo_kit::time::ms_to_timestamp(r.uploaded_at_ms)))
            } else {
                String::new()
            },
            countries: r.countries.into_iter().map(|c| RateCountryBody { code: c.code, name: c.name }).collect(),
            rate_count: r.rate_count,
        }
    }
}

/// The store's international rate table: its label and the countries it serves.
#[utoipa::path(get, path = "/logistics/shipping-rate/tables", tag = "logistics",
    responses((status = 200, body = RateTableBody)), security(("bearer" = [])))]
async fn get_rate_table(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<RateTableBody>> {
    auth.require(READ)?;
    let r = state.logistics().get_rate_table(auth.ctx().request(pb::GetRateTableRequest {})).await?.into_inner();
    Ok(Json(r.into()))
}

/// The rate-table upload.
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct RateTableForm {
    /// The .xlsx file (sheets `zones` and `rates`, as the template).
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
}

/// Replaces the store's international rate table from an .xlsx file laid out as the
/// template; any row with an error refuses the whole file, each error named by sheet, row
/// and column (owner, or logistic.storeChannel.*).
#[utoipa::path(post, path = "/logistics/shipping-rate/tables", tag = "logistics",
    request_body(content = RateTableForm, content_type = "multipart/form-data"),
    responses((status = 200, body = RateTableBody), (status = 403, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "import_wrong_template, import_not_xlsx, or row errors")),
    security(("bearer" = [])))]
async fn upload_rate_table(
    State(state): State<AppState>,
    auth: StoreAuth,
    key: Option<axum::Extension<crate::idempotency::Deferred>>,
    mut form: axum::extract::Multipart,
) -> ApiResult<axum::response::Response> {
    auth.require(EDIT)?;
    let mut staged = crate::uploads::Staged::new(state.files.clone());
    let bad = || ApiError::bad_request("invalid_body");
    while let Some(field) = form.next_field().await.map_err(|_| bad())? {
        if field.name() == Some("file") && staged.is_empty() {
            staged
                .stage(auth.store_id, field, bo_logistics::rates::MAX_FILE_BYTES as u64, "file", "import_too_large")
                .await?;
        }
    }
    if staged.is_empty() {
        return Err(ApiError::invalid_field("file", "validation.required"));
    }
    let form = staged.digest();
    let act = async {
        let upload = staged.hand_over().pop().unwrap_or_default();
        let r = state
            .logistics()
            .import_rate_table(auth.ctx().request(pb::ImportRateTableRequest { upload, sample: false }))
            .await?
            .into_inner();
        Ok(Json(RateTableBody::from(r)))
    };
    Ok(crate::idempotency::deferred(&state, &auth, key.map(|k| k.0), &form, act).await)
}

/// Loads the built-in sample table, labelled as a sample (owner, or
/// logistic.storeChannel.*).
#[utoipa::path(post, path = "/logistics/shipping-rate/tables/sample", tag = "logistics",
    responses((status = 200, body = RateTableBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn load_sample_rate_table(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<RateTableBody>> {
    auth.require(EDIT)?;
    let r = state
        .logistics()
        .import_rate_table(auth.ctx().request(pb::ImportRateTableRequest { upload: String::new(), sample: true }))
        .await?
        .into_inner();
    Ok(Json(r.into()))
}

/// The rate-table template: the two sheets with Thai and English headers, filled with the
/// sample's rows as an example.
#[utoipa::path(get, path = "/logistics/shipping-rate/template", tag = "logistics",
    responses((status = 200, content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")),
    security(("bearer" = [])))]
async fn rate_table_template(auth: StoreAuth) -> ApiResult<axum::response::Response> {
    use axum::response::IntoResponse;
    auth.require(READ)?;
    let bytes = bo_logistics::rates::write(&bo_logistics::rates::sample(), Some(bo_logistics::rates::SAMPLE_LABEL))
        .map_err(|e| {
            tracing::error!(error = %e, "could not write the rate-table template");
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal")
        })?;
    Ok((
        [
            (axum::http::header::CONTENT_TYPE, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            (axum::http::header::CONTENT_DISPOSITION, "attachment; filename=\"shipping-rates-template.xlsx\""),
        ],
        bytes,
    )
        .into_response())
}

/// A parcel to price abroad.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct RatesInput {
    /// Destination country, ISO alpha-2.
    pub country: Option<String>,
    /// Weight in kilograms, up to three decimals.
    pub weight: Option<Decimal>,
    /// Length in centimetres.
    pub length: Option<i64>,
    /// Width in centimetres.
    pub width: Option<i64>,
    /// Height in centimetres.
    pub height: Option<i64>,
}

/// One international service's price.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServiceRateBody {
    /// Provider name of the service.
    pub service: String,
    /// The service as the catalogue describes it.
    pub provider: Option<CarrierBody>,
    /// It can take the parcel.
    pub available: bool,
    /// The destination's zone for the service.
    pub zone: String,
    /// Price in baht.
    pub price: String,
    /// Why not, as a message key (shipping.country_not_served, shipping.over_weight).
    pub reason: String,
}

/// The eight services' prices for a parcel.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatesBody {
    /// One per international service, in the catalogue's order.
    pub data: Vec<ServiceRateBody>,
    /// The weight charged (actual or volumetric), kilograms.
    pub chargeable_weight: String,
    /// The table's label.
    pub label: String,
    /// Priced from the sample table, not real prices.
    pub is_sample: bool,
}

/// The international calculator: a parcel's price to a country with each of the eight
/// international services, from the store's rate table.
#[utoipa::path(post, path = "/logistics/shipping-rate/rates", tag = "logistics", request_body = RatesInput,
    responses((status = 200, body = RatesBody), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn shipping_rates(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<RatesInput>,
) -> ApiResult<Json<RatesBody>> {
    auth.require(READ)?;
    let weight_g = grams_of(&b.weight)?;
    let r = state
        .logistics()
        .quote_international(auth.ctx().request(pb::QuoteInternationalRequest {
            parcel: Some(pb::Parcel {
                weight_g,
                length_cm: b.length.unwrap_or(0),
                width_cm: b.width.unwrap_or(0),
                height_cm: b.height.unwrap_or(0),
                country: b.country.unwrap_or_default(),
                ..Default::default()
            }),
        }))
        .await?
        .into_inner();
    Ok(Json(RatesBody {
        data: r
            .rates
            .into_iter()
            .map(|x| ServiceRateBody {
                provider: d::carrier(&x.service).map(CarrierBody::from),
                service: x.service,
                available: x.available,
                zone: x.zone,
                price: baht(x.price_satang),
                reason: x.reason,
            })
            .collect(),
        chargeable_weight: kilograms(r.chargeable_weight_g),
        label: r.label,
        is_sample: r.is_sample,
    }))
}

/// The store's account with a carrier's API: the e-parcel account with the postal
/// provider, or a Flash Express merchant account.
#[derive(Debug, Serialize, ToSchema)]
pub struct CarrierAccountBody {
    /// An API key is kept.
    pub connected: bool,
    /// The merchant id (Flash Express), "" otherwise.
    pub account_id: String,
    /// The key with all but its last four characters hidden.
    pub masked_key: String,
    /// working, rejected or unreachable: what the carrier said when last asked ("" when not
    /// connected).
    pub status: String,
    /// When the carrier was last asked.
    pub checked_at: String,
    /// The path (under /api) to give the postal provider for its tracking pushes.
    pub webhook_path: String,
}

impl From<pb::CarrierAccountResponse> for CarrierAccountBody {
    fn from(r: pb::CarrierAccountResponse) -> Self {
        CarrierAccountBody {
            connected: r.connected,
            account_id: r.account_id,
            masked_key: r.masked_key,
            status: r.status,
            checked_at: if r.connected {
                timestamp_to_rfc3339(Some(&bo_kit::time::ms_to_timestamp(r.checked_at_ms)))
            } else {
                String::new()
            },
            webhook_path: if r.webhook_token.is_empty() {
                String::new()
            } else {
                format!("/logistics/webhooks/thaipost/{}", r.webhook_token)
            },
        }
    }
}

/// Whether to ask the carrier now.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct CheckQuery {
    /// Ask the postal provider whether the key still works.
    pub check: Option<bool>,
}

/// The store's account with a carrier (`thaipost`: the e-parcel account; `flash`), and
/// whether its key works (owner, or logistic.storeChannel.*).
#[utoipa::path(get, path = "/logistics/account-management-channels/{carrier}", tag = "logistics",
    params(("carrier" = String, Path, description = "thaipost or flash"), CheckQuery),
    responses((status = 200, body = CarrierAccountBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get_carrier_account(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(carrier): Path<String>,
    Query(q): Query<CheckQuery>,
) -> ApiResult<Json<CarrierAccountBody>> {
    auth.require(EDIT)?;
    let r = state
        .logistics()
        .get_carrier_account(
            auth.ctx().request(pb::GetCarrierAccountRequest { carrier, check: q.check.unwrap_or(false) }),
        )
        .await?
        .into_inner();
    Ok(Json(r.into()))
}

/// A carrier account's credentials.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ConnectInput {
    /// The API key (the postal provider's tracking API key; Flash Express's secret key).
    pub api_key: Option<String>,
    /// Flash Express's merchant id (mchId).
    pub account_id: Option<String>,
}

/// Connects a carrier account: the key is kept only when the carrier takes it (owner, or
/// logistic.storeChannel.*).
#[utoipa::path(post, path = "/logistics/account-management-channels/{carrier}", tag = "logistics",
    params(("carrier" = String, Path, description = "thaipost or flash")), request_body = ConnectInput,
    responses((status = 200, body = CarrierAccountBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "api_key: carrier_auth_failed"),
        (status = 503, body = ErrorBody, description = "carrier_unreachable")),
    security(("bearer" = [])))]
async fn connect_carrier_account(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(carrier): Path<String>,
    Body(b): Body<ConnectInput>,
) -> ApiResult<Json<CarrierAccountBody>> {
    auth.require(EDIT)?;
    let r = state
        .logistics()
        .connect_carrier_account(auth.ctx().request(pb::ConnectCarrierAccountRequest {
            carrier,
            api_key: b.api_key.unwrap_or_default(),
            account_id: b.account_id.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    Ok(Json(r.into()))
}

/// What a tracking push did.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookBody {
    /// Events recorded.
    pub applied: i64,
    /// Items about parcels the store does not follow.
    pub unknown: i64,
}

/// The postal provider's tracking push, to the URL the e-parcel screen shows (no sign-in:
/// the URL's unguessable token names the store).
#[utoipa::path(post, path = "/logistics/webhooks/thaipost/{token}", tag = "logistics", params(("token" = String, Path)),
    request_body(content = String, content_type = "application/json"),
    responses((status = 200, body = WebhookBody), (status = 404, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn thaipost_webhook(
    State(state): State<AppState>,
    Path(token): Path<String>,
    body: bytes::Bytes,
) -> ApiResult<Json<WebhookBody>> {
    if body.len() > bo_logistics::carriers::thaipost::WEBHOOK_MAX_BYTES {
        return Err(ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large"));
    }
    let r = state
        .logistics()
        .apply_tracking_webhook(state.system().request(pb::ApplyTrackingWebhookRequest {
            carrier: "thaipost".into(),
            token,
            body: body.to_vec(),
        }))
        .await?
        .into_inner();
    Ok(Json(WebhookBody { applied: r.applied, unknown: r.unknown }))
}

/// A parcel a carrier carries, with what the carrier said of it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShipmentBody {
    /// Id.
    pub id: i64,
    /// thaipost or flash.
    pub carrier: String,
    /// The tracking number.
    pub tracking_no: String,
    /// What it is for (an order or parcel reference).
    pub reference: String,
    /// pending, shipped or cancelled.
    pub state: String,
    /// The carrier's latest word (accepted, in_transit, out_for_delivery, delivered, ...).
    pub progress: String,
    /// What the carrier said, oldest first.
    pub events: Vec<ShipmentEventBody>,
}

/// One thing the carrier said.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShipmentEventBody {
    /// The carrier's status code.
    pub status: String,
    /// In the carrier's words.
    pub description: String,
    /// Where.
    pub location: String,
    /// In our words.
    pub progress: String,
    /// When.
    pub at: String,
}

impl From<pb::Shipment> for ShipmentBody {
    fn from(s: pb::Shipment) -> Self {
        ShipmentBody {
            id: s.id,
            carrier: s.carrier,
            tracking_no: s.tracking_no,
            reference: s.reference,
            state: s.state,
            progress: s.progress,
            events: s
                .events
                .into_iter()
                .map(|e| ShipmentEventBody {
                    status: e.status,
                    description: e.description,
                    location: e.location,
                    progress: e.progress,
                    at: timestamp_to_rfc3339(Some(&bo_kit::time::ms_to_timestamp(e.at_ms))),
                })
                .collect(),
        }
    }
}

/// A parcel to follow.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ShipmentInput {
    /// thaipost or flash.
    pub carrier: Option<String>,
    /// The tracking number (an S10 number for the postal provider).
    pub tracking_no: Option<String>,
    /// What it is for.
    pub reference: Option<String>,
}

/// Starts following a parcel: the carrier's tracking pushes then move its state.
#[utoipa::path(post, path = "/logistics/shipments", tag = "logistics", request_body = ShipmentInput,
    responses((status = 200, body = ShipmentBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn register_shipment(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<ShipmentInput>,
) -> ApiResult<Json<ShipmentBody>> {
    auth.require(RESERVE)?;
    let r = state
        .logistics()
        .register_shipment(auth.ctx().request(pb::RegisterShipmentRequest {
            carrier: b.carrier.unwrap_or_default(),
            tracking_no: b.tracking_no.unwrap_or_default(),
            reference: b.reference.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    Ok(Json(r.shipment.unwrap_or_default().into()))
}

/// A followed parcel and its tracking.
#[utoipa::path(get, path = "/logistics/shipments/{carrier}/{tracking_no}", tag = "logistics",
    params(("carrier" = String, Path), ("tracking_no" = String, Path)),
    responses((status = 200, body = ShipmentBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn get_shipment(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((carrier, tracking_no)): Path<(String, String)>,
) -> ApiResult<Json<ShipmentBody>> {
    auth.require(READ)?;
    let r = state
        .logistics()
        .get_shipment(auth.ctx().request(pb::GetShipmentRequest { carrier, tracking_no }))
        .await?
        .into_inner();
    Ok(Json(r.shipment.unwrap_or_default().into()))
}

/// An address as a carrier takes it.
#[derive(Debug, Deserialize, Serialize, ToSchema, Default, Clone)]
#[serde(default)]
pub struct CarrierAddressInput {
    /// Name.
    pub name: String,
    /// Phone.
    pub phone: String,
    /// Province.
    pub province: String,
    /// District.
    pub district: String,
    /// Sub-district.
    pub sub_district: String,
    /// Postcode.
    pub postcode: String,
    /// House number, street, building.
    pub detail: String,
}

impl From<CarrierAddressInput> for pb::CarrierAddress {
    fn from(a: CarrierAddressInput) -> Self {
        pb::CarrierAddress {
            name: a.name,
            phone: a.phone,
            province: a.province,
            district: a.district,
            sub_district: a.sub_district,
            postcode: a.postcode,
            detail: a.detail,
        }
    }
}

/// A parcel to book with Flash Express.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct BookingInput {
    /// Our reference (an order or parcel): a repeat books nothing twice.
    pub reference: Option<String>,
    /// Who sends it.
    pub sender: CarrierAddressInput,
    /// Who receives it.
    pub receiver: CarrierAddressInput,
    /// Weight in kilograms, up to three decimals.
    pub weight: Option<Decimal>,
    /// Cash on delivery to collect, baht.
    pub cod: Option<Decimal>,
}

/// Books a parcel with Flash Express through the store's merchant account and follows it;
/// if it cannot be kept, the booking is cancelled.
#[utoipa::path(post, path = "/logistics/shipments/flash", tag = "logistics", request_body = BookingInput,
    responses((status = 200, body = ShipmentBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "carrier_account_missing, carrier_rejected, carrier_auth_failed"),
        (status = 422, body = ErrorBody), (status = 503, body = ErrorBody, description = "carrier_unreachable")),
    security(("bearer" = [])))]
async fn book_flash_shipment(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<BookingInput>,
) -> ApiResult<Json<ShipmentBody>> {
    auth.require(RESERVE)?;
    let weight_g = grams_of(&b.weight)?;
    let cod_satang = match &b.cod {
        None => 0,
        Some(c) => c.satang().filter(|c| *c >= 0).ok_or_else(|| ApiError::invalid_field("cod", "validation.price"))?,
    };
    let r = state
        .logistics()
        .create_shipment(auth.ctx().request(pb::CreateShipmentRequest {
            carrier: "flash".into(),
            reference: b.reference.unwrap_or_default(),
            sender: Some(b.sender.into()),
            receiver: Some(b.receiver.into()),
            weight_g,
            cod_satang,
        }))
        .await?
        .into_inner();
    Ok(Json(r.shipment.unwrap_or_default().into()))
}

/// Cancels a booked parcel with its carrier.
#[utoipa::path(post, path = "/logistics/shipments/{carrier}/{tracking_no}/cancel", tag = "logistics",
    params(("carrier" = String, Path), ("tracking_no" = String, Path)),
    responses((status = 200, body = ShipmentBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "carrier_rejected (e.g. already picked up)")),
    security(("bearer" = [])))]
async fn cancel_shipment(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((carrier, tracking_no)): Path<(String, String)>,
) -> ApiResult<Json<ShipmentBody>> {
    auth.require(RESERVE)?;
    let r = state
        .logistics()
        .cancel_shipment(auth.ctx().request(pb::GetShipmentRequest { carrier, tracking_no }))
        .await?
        .into_inner();
    Ok(Json(r.shipment.unwrap_or_default().into()))
}

/// A booked parcel's label from its carrier, as a PDF.
#[utoipa::path(get, path = "/logistics/shipments/{carrier}/{tracking_no}/label", tag = "logistics",
    params(("carrier" = String, Path), ("tracking_no" = String, Path)),
    responses((status = 200, content_type = "application/pdf"), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 503, body = ErrorBody)),
    security(("bearer" = [])))]
async fn shipment_label(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((carrier, tracking_no)): Path<(String, String)>,
) -> ApiResult<axum::response::Response> {
    auth.require(RESERVE)?;
    let r = state
        .logistics()
        .shipment_label(auth.ctx().request(pb::GetShipmentRequest { carrier, tracking_no }))
        .await?
        .into_inner();
    crate::uploads::serve(&state.files, r.file_key, "application/pdf", "private, no-store", "shipment_not_found").await
}
