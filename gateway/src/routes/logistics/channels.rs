//! The store's shipping channels, domestic and international: listed, made, changed,
//! switched on and off by provider, and deleted.

use super::*;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
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
            provider: c.carrier.as_ref().map(CarrierBody::from),
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
            status: word::<pb::ChannelStatus>(c.status),
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
pub(super) fn grams_of(weight: &Option<Decimal>) -> ApiResult<i64> {
    match weight {
        None => Ok(0),
        Some(w) => w.grams().ok_or_else(|| ApiError::invalid_field("weight", "validation.weight")),
    }
}

pub(super) fn amount(field: &str, v: &Decimal, errs: &mut Vec<FieldError>) -> i64 {
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
        let status = match self.status.as_deref() {
            Some(word) => {
                enum_field::<pb::ChannelStatus>("status", Some(word), "validation.status").unwrap_or_else(|_| {
                    errs.push(FieldError::new("status", "validation.status"));
                    0
                })
            }
            None => c.status,
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
            status,
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

pub(super) async fn list(
    state: &AppState,
    auth: &StoreAuth,
    q: LogisticChannelQuery,
) -> ApiResult<pb::ListStoreChannelsResponse> {
    Ok(state
        .logistics()
        .list_store_channels(auth.ctx().request(pb::ListStoreChannelsRequest {
            page: Some(page_request(q.page, Some(q.limit.unwrap_or(-1)))),
            warehouse_id: q.warehouse_id.unwrap_or(0),
            provider: q.provider_name.unwrap_or_default(),
            logistic_type: q.logistic_type.unwrap_or_default(),
            status: enum_field::<pb::ChannelStatus>("status", q.status.as_deref(), "validation.status")?,
        }))
        .await?
        .into_inner())
}

/// The store's shipping channels by warehouse (all unless a `limit` is given).
#[utoipa::path(get, path = "/logistics/store-channels", tag = "logistics", params(LogisticChannelQuery),
    responses((status = 200, body = List<LogisticChannelBody>), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn list_logistic_channels(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<LogisticChannelQuery>,
) -> ApiResult<Json<List<LogisticChannelBody>>> {
    auth.require(READ)?;
    let r = list(&state, &auth, q).await?;
    Ok(Json(List::new(r.store_channels.into_iter().map(LogisticChannelBody::from).collect(), r.page)))
}

pub(super) async fn create(
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
pub(super) async fn create_logistic_channel(
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
pub(super) async fn create_inter_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<LogisticChannelInput>,
) -> ApiResult<(StatusCode, Json<LogisticChannelBody>)> {
    auth.require(EDIT)?;
    let mut input = b.over(None)?;
    input.logistic_type = INTERNATIONAL.into();
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
pub(super) async fn set_status_by_provider(
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
            status: enum_field::<pb::ChannelStatus>("status", b.status.as_deref(), "validation.status")?,
        }))
        .await?
        .into_inner();
    Ok(Json(LogisticChannelsChanged { changed: r.changed }))
}

pub(super) fn by_id(id: i64) -> Option<pb::ChannelRef> {
    Some(pb::ChannelRef { id, ..Default::default() })
}

pub(super) fn by_inter(provider: String, warehouse_id: i64) -> Option<pb::ChannelRef> {
    Some(pb::ChannelRef { id: 0, provider, warehouse_id })
}

pub(super) async fn current(
    state: &AppState,
    auth: &StoreAuth,
    r: Option<pb::ChannelRef>,
) -> ApiResult<pb::StoreChannel> {
    Ok(state
        .logistics()
        .get_store_channel(auth.ctx().request(pb::GetStoreChannelRequest { r#ref: r }))
        .await?
        .into_inner()
        .store_channel
        .unwrap_or_default())
}

pub(super) async fn update(
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

pub(super) async fn delete(state: &AppState, auth: &StoreAuth, r: Option<pb::ChannelRef>) -> ApiResult<StatusCode> {
    state.logistics().delete_store_channel(auth.ctx().request(pb::DeleteStoreChannelRequest { r#ref: r })).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// One shipping channel.
#[utoipa::path(get, path = "/logistics/store-channels/{id}", tag = "logistics", params(("id" = i64, Path)),
    responses((status = 200, body = LogisticChannelBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn get_logistic_channel(
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
pub(super) async fn replace_logistic_channel(
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
pub(super) async fn update_logistic_channel(
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
pub(super) async fn delete_logistic_channel(
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
pub(super) async fn update_inter_channel(
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
pub(super) async fn delete_inter_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((provider, warehouse_id)): Path<(String, i64)>,
) -> ApiResult<StatusCode> {
    auth.require(EDIT)?;
    delete(&state, &auth, by_inter(provider, warehouse_id)).await
}
