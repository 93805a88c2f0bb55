//! Open-API channels (SPEC §2 Sale channels, §3 Open API connection, §5 its form, §7 Open
//! API): the channels a connection may sell as, the store's connections with their settings,
//! webhook and keys, a key generated (shown once), given to a new channel or rolled into one
//! with a grace period for the old, and revoked. All of it is the owner's (SPEC §6); the
//! webhook's signing secret is shown to the owner on a channel's own page.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::marketplaces::v1 as pb;
use bo_proto::marketplaces::v1::marketplaces_service_client::MarketplacesServiceClient;
use bo_proto::Wire as _;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::perms::Access;
use crate::state::AppState;
use crate::wire::{word, Body, List, Path};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(open_api_channels))
        .routes(routes!(webhook_events))
        .routes(routes!(list_api_channels, create_api_channel))
        .routes(routes!(generate_api_key))
        .routes(routes!(get_api_channel, update_api_channel))
        .routes(routes!(roll_api_key))
        .routes(routes!(revoke_api_keys))
}

/// The owner (SPEC §6: sale-channel management).
const OWNER: Access = Access { roles: &["owner"], perms: &[] };

fn client(state: &AppState) -> ApiResult<MarketplacesServiceClient<bo_kit::grpc::GrpcChannel>> {
    state.client(MarketplacesServiceClient::new)
}

/// A sales channel an open-API channel may sell as.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenApiSaleChannelBody {
    /// Its code (website, line, facebook, instagram, open_api).
    pub code: String,
    /// social_commerce, website or open_api.
    pub kind: String,
    pub name_th: String,
    pub name_en: String,
}

/// The sales channels an open-API channel may sell as (every one but the marketplaces, whose
/// shops are connected instead).
#[utoipa::path(get, path = "/open-api/channels", tag = "marketplaces",
    responses((status = 200, body = List<OpenApiSaleChannelBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn open_api_channels(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<Json<List<OpenApiSaleChannelBody>>> {
    auth.require(OWNER)?;
    let r = client(&state)?.list_sale_channels(auth.ctx().request(pb::ListSaleChannelsRequest {})).await?.into_inner();
    Ok(Json(List::all(
        r.channels
            .into_iter()
            .filter(|c| c.kind() != pb::ChannelKind::Marketplace)
            .map(|c| OpenApiSaleChannelBody {
                code: word::<pb::SaleChannel>(c.channel),
                kind: word::<pb::ChannelKind>(c.kind),
                name_th: c.name_th,
                name_en: c.name_en,
            })
            .collect(),
    )))
}

/// An event a channel's webhook may be sent.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookEventBody {
    /// order.created, order.state_changed, order.paid, order.shipped, order.cancelled,
    /// stock.changed, product.changed or channel.key_expiring.
    pub code: String,
}

/// The events an open-API channel's webhook may be sent.
#[utoipa::path(get, path = "/open-api/webhook-events", tag = "marketplaces",
    responses((status = 200, body = List<WebhookEventBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn webhook_events(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<List<WebhookEventBody>>> {
    auth.require(OWNER)?;
    let r =
        client(&state)?.list_webhook_events(auth.ctx().request(pb::ListWebhookEventsRequest {})).await?.into_inner();
    Ok(Json(List::all(r.events.into_iter().map(|code| WebhookEventBody { code }).collect())))
}

/// A key of a channel (never its secret).
#[derive(Debug, Serialize, ToSchema)]
pub struct ApiKeyBody {
    pub id: i64,
    /// Its first characters: `bok_<prefix>_…`.
    pub shown: String,
    pub created_at: String,
    /// When it stops working (null: no end).
    pub expires_at: Option<String>,
    /// When it was revoked (null: never).
    pub revoked_at: Option<String>,
    /// When it was last used (null: never).
    pub last_used_at: Option<String>,
    /// It works now.
    pub working: bool,
}

/// An open-API channel (SPEC §3 Open API connection).
#[derive(Debug, Serialize, ToSchema)]
pub struct ApiChannelBody {
    pub id: i64,
    pub name: String,
    /// The sales channel its orders are (website, line, facebook, instagram, open_api).
    pub channel: String,
    pub warehouse_id: i64,
    pub logistic_channel_id: i64,
    pub payment_channel_id: i64,
    /// active or inactive.
    pub status: String,
    /// Where its webhook is sent ("": none).
    pub webhook_url: String,
    /// The events its webhook is sent.
    pub events: Vec<String>,
    /// The secret its webhook is signed with (`whsec_…`; a channel's own page only).
    pub webhook_secret: String,
    /// Its keys, newest first.
    pub keys: Vec<ApiKeyBody>,
    pub created_at: String,
    pub updated_at: String,
    /// Send it back with an edit so another's change is not overwritten.
    pub version: i64,
}

impl From<pb::ApiChannel> for ApiChannelBody {
    fn from(c: pb::ApiChannel) -> Self {
        ApiChannelBody {
            id: c.id,
            name: c.name,
            channel: word::<pb::SaleChannel>(c.channel),
            warehouse_id: c.warehouse_id,
            logistic_channel_id: c.logistic_channel_id,
            payment_channel_id: c.payment_channel_id,
            status: word::<pb::ChannelStatus>(c.status),
            webhook_url: c.webhook_url,
            events: c.events,
            webhook_secret: c.webhook_secret,
            keys: c
                .keys
                .into_iter()
                .map(|k| ApiKeyBody {
                    id: k.id,
                    shown: k.shown,
                    created_at: timestamp_to_rfc3339(k.create_time.as_ref()),
                    expires_at: k.expire_time.as_ref().map(|t| timestamp_to_rfc3339(Some(t))),
                    revoked_at: k.revoke_time.as_ref().map(|t| timestamp_to_rfc3339(Some(t))),
                    last_used_at: k.last_use_time.as_ref().map(|t| timestamp_to_rfc3339(Some(t))),
                    working: k.working,
                })
                .collect(),
            created_at: timestamp_to_rfc3339(c.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(c.update_time.as_ref()),
            version: c.version,
        }
    }
}

/// The store's open-API channels, oldest first (without their webhook secrets).
#[utoipa::path(get, path = "/open-api/store-channels", tag = "marketplaces",
    responses((status = 200, body = List<ApiChannelBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_api_channels(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<List<ApiChannelBody>>> {
    auth.require(OWNER)?;
    let r = client(&state)?.list_api_channels(auth.ctx().request(pb::ListApiChannelsRequest {})).await?.into_inner();
    Ok(Json(List::all(r.channels.into_iter().map(ApiChannelBody::from).collect())))
}

/// One open-API channel with its keys and its webhook's signing secret.
#[utoipa::path(get, path = "/open-api/store-channels/{id}", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 200, body = ApiChannelBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "api_channel_not_found")),
    security(("bearer" = [])))]
async fn get_api_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<ApiChannelBody>> {
    auth.require(OWNER)?;
    let r = client(&state)?.get_api_channel(auth.ctx().request(pb::GetApiChannelRequest { id })).await?.into_inner();
    Ok(Json(r.channel.unwrap_or_default().into()))
}

/// A key generated for a channel: shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct GeneratedKeyBody {
    /// The key (`bok_…`): copy it now, it is never shown again.
    pub key: String,
    /// What a channel is given it by (`key_id` of a create or a roll).
    pub key_id: i64,
    /// Until when it waits for its channel.
    pub expires_at: String,
}

/// A new key, waiting an hour to be given to a channel (SPEC §5: a channel's key is only
/// ever generated); the only time it is shown.
#[utoipa::path(post, path = "/open-api/store-channels/generate-key", tag = "marketplaces",
    responses((status = 201, body = GeneratedKeyBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn generate_api_key(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<(StatusCode, Json<GeneratedKeyBody>)> {
    auth.require(OWNER)?;
    let r = client(&state)?.generate_api_key(auth.ctx().request(pb::GenerateApiKeyRequest {})).await?.into_inner();
    Ok((
        StatusCode::CREATED,
        Json(GeneratedKeyBody {
            key: r.key,
            key_id: r.key_id,
            expires_at: timestamp_to_rfc3339(r.expire_time.as_ref()),
        }),
    ))
}

/// An open-API channel's form (SPEC §5: every field but the webhook required).
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct ApiChannelInput {
    pub name: String,
    /// website, line, facebook, instagram or open_api.
    pub channel: String,
    pub warehouse_id: i64,
    pub logistic_channel_id: i64,
    pub payment_channel_id: i64,
    /// active (default) or inactive.
    pub status: String,
    /// Where its webhook is sent: https (or http to this machine); required with events.
    pub webhook_url: String,
    /// The events its webhook is sent.
    pub events: Vec<String>,
    /// The generated key it takes (a new channel).
    pub key_id: i64,
    /// The version read (an edit; 0: as it is now).
    pub version: i64,
}

impl ApiChannelInput {
    fn form(&self) -> ApiResult<pb::ApiChannelForm> {
        let channel = self.channel.trim();
        let channel_n = if channel.is_empty() {
            0
        } else {
            pb::SaleChannel::from_wire(channel)
                .map(i32::from)
                .ok_or_else(|| ApiError::invalid_field("channel", "validation.channel_unknown"))?
        };
        let status = self.status.trim();
        let status_n = if status.is_empty() {
            pb::ChannelStatus::Active.into()
        } else {
            pb::ChannelStatus::from_wire(status)
                .map(i32::from)
                .ok_or_else(|| ApiError::invalid_field("status", "validation.status"))?
        };
        Ok(pb::ApiChannelForm {
            name: self.name.clone(),
            channel: channel_n,
            warehouse_id: self.warehouse_id,
            logistic_channel_id: self.logistic_channel_id,
            payment_channel_id: self.payment_channel_id,
            status: status_n,
            webhook_url: self.webhook_url.clone(),
            events: self.events.clone(),
        })
    }
}

/// Makes an open-API channel with a key generated for it.
#[utoipa::path(post, path = "/open-api/store-channels", tag = "marketplaces", request_body = ApiChannelInput,
    responses((status = 201, body = ApiChannelBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "api_key_not_generated"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_api_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<ApiChannelInput>,
) -> ApiResult<(StatusCode, Json<ApiChannelBody>)> {
    auth.require(OWNER)?;
    let form = b.form()?;
    let r = client(&state)?
        .create_api_channel(auth.ctx().request(pb::CreateApiChannelRequest { form: Some(form), key_id: b.key_id }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.channel.unwrap_or_default().into())))
}

/// Rewrites an open-API channel's form (its keys are rolled apart).
#[utoipa::path(patch, path = "/open-api/store-channels/{id}", tag = "marketplaces", params(("id" = i64, Path)), request_body = ApiChannelInput,
    responses((status = 200, body = ApiChannelBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "api_channel_changed"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_api_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<ApiChannelInput>,
) -> ApiResult<Json<ApiChannelBody>> {
    auth.require(OWNER)?;
    let form = b.form()?;
    let r = client(&state)?
        .update_api_channel(auth.ctx().request(pb::UpdateApiChannelRequest {
            id,
            form: Some(form),
            version: b.version,
        }))
        .await?
        .into_inner();
    Ok(Json(r.channel.unwrap_or_default().into()))
}

/// A new key for a channel, and how long its old ones keep working.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct RollKeyInput {
    /// The generated key it takes.
    pub key_id: i64,
    /// How long the old keys keep working, hours: 0, 1, 24, 72 or 168.
    pub grace_hours: i64,
}

/// Gives a channel a newly generated key; its old keys keep working for the grace period.
#[utoipa::path(post, path = "/open-api/store-channels/{id}/roll-key", tag = "marketplaces", params(("id" = i64, Path)), request_body = RollKeyInput,
    responses((status = 200, body = ApiChannelBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "api_key_not_generated"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn roll_api_key(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<RollKeyInput>,
) -> ApiResult<Json<ApiChannelBody>> {
    auth.require(OWNER)?;
    let r = client(&state)?
        .roll_api_key(auth.ctx().request(pb::RollApiKeyRequest { id, key_id: b.key_id, grace_hours: b.grace_hours }))
        .await?
        .into_inner();
    Ok(Json(r.channel.unwrap_or_default().into()))
}

/// Revokes every key of a channel at once: none works until a new one is rolled in.
#[utoipa::path(post, path = "/open-api/store-channels/{id}/revoke-keys", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 200, body = ApiChannelBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn revoke_api_keys(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<ApiChannelBody>> {
    auth.require(OWNER)?;
    let r = client(&state)?.revoke_api_keys(auth.ctx().request(pb::GetApiChannelRequest { id })).await?.into_inner();
    Ok(Json(r.channel.unwrap_or_default().into()))
}
