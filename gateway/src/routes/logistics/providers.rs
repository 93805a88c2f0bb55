//! The store's COD accounts with each provider, and the channels of each warehouse.

use super::*;
use bo_kit::Code;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_store_providers, create_store_provider, save_store_provider))
        .routes(routes!(update_store_provider))
        .routes(routes!(warehouse_channels))
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
            provider: p.carrier.as_ref().map(CarrierBody::from),
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

pub(super) async fn save_provider(
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
pub(super) async fn list_store_providers(
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
pub(super) async fn create_store_provider(
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
pub(super) async fn save_store_provider(
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
pub(super) async fn update_store_provider(
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
            .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, Code::CodProviderNotFound))?;
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
pub(super) async fn warehouse_channels(
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
    let q = LogisticChannelQuery { status: Some(ACTIVE.into()), ..Default::default() };
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
