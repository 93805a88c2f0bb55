//! Magento 2 channels (SPEC §2 `/sale-channel-setting/magento/{create|edit/{id}}`, §3
//! Magento channel, §5 its form, §7 `POST /marketplaces/store-channels/generate-key`): the
//! store's Magento shop, reached with an integration's access token as a bearer token or by
//! OAuth 1.0a, its connection tried before it is saved ('Magento cannot connect' with the
//! field at fault), its orders polled and its linked SKUs' stock written to it. Its
//! credentials go in and never come out. Any member reads them; the owner makes, changes and
//! syncs them (SPEC §6).

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::marketplaces::v1 as pb;
use bo_proto::marketplaces::v1::marketplaces_service_client::MarketplacesServiceClient;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::open_api::{generated_key, ApiKeyBody, GeneratedKeyBody};
use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::perms::Access;
use crate::state::AppState;
use crate::wire::{enum_field, word, Body, List, Path};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_magento_channels, create_magento_channel))
        .routes(routes!(get_magento_channel, update_magento_channel))
        .routes(routes!(sync_magento_channel))
        .routes(routes!(generate_store_channel_key))
}

/// Reading them: any member of the store.
const READ: Access = Access { roles: &[], perms: &[] };
/// Making, changing and syncing them: the owner (SPEC §6: sale-channel management).
const OWNER: Access = Access { roles: &["owner"], perms: &[] };

fn client(state: &AppState) -> ApiResult<MarketplacesServiceClient<bo_kit::grpc::GrpcChannel>> {
    state.client(MarketplacesServiceClient::new)
}

/// A Magento shop (never its credentials).
#[derive(Debug, Serialize, ToSchema)]
pub struct MagentoChannelBody {
    pub id: i64,
    /// Its title.
    pub name: String,
    /// The shop's address (before /rest).
    pub url: String,
    /// The store view its calls name.
    pub store_code: String,
    /// bearer (the integration's access token) or oauth1.
    pub auth: String,
    /// The inventory source our stock is written to (empty: the single stock).
    pub source_code: String,
    pub warehouse_id: i64,
    pub logistic_channel_id: i64,
    pub payment_channel_id: i64,
    /// active or inactive.
    pub status: String,
    /// The generated tokens Magento calls us with, newest first.
    pub keys: Vec<ApiKeyBody>,
    /// When its orders were last polled (null: never).
    pub last_polled_at: Option<String>,
    /// What the shop answered when the last poll failed (empty: it did not).
    pub poll_error: String,
    /// Orders its polls made or moved.
    pub orders_taken: i64,
    /// When stock was last told to it (null: never).
    pub stock_pushed_at: Option<String>,
    /// What the shop refused of the last stock told (empty: nothing).
    pub stock_error: String,
    pub created_at: String,
    pub updated_at: String,
    /// Send it back with an edit so another's change is not overwritten.
    pub version: i64,
}

impl From<pb::MagentoChannel> for MagentoChannelBody {
    fn from(c: pb::MagentoChannel) -> Self {
        MagentoChannelBody {
            id: c.id,
            name: c.name,
            url: c.url,
            store_code: c.store_code,
            auth: word::<pb::MagentoAuth>(c.auth),
            source_code: c.source_code,
            warehouse_id: c.warehouse_id,
            logistic_channel_id: c.logistic_channel_id,
            payment_channel_id: c.payment_channel_id,
            status: word::<pb::ChannelStatus>(c.status),
            keys: c.keys.into_iter().map(ApiKeyBody::from).collect(),
            last_polled_at: c.last_poll_time.as_ref().map(|t| timestamp_to_rfc3339(Some(t))),
            poll_error: c.poll_error,
            orders_taken: c.orders_taken,
            stock_pushed_at: c.stock_push_time.as_ref().map(|t| timestamp_to_rfc3339(Some(t))),
            stock_error: c.stock_error,
            created_at: timestamp_to_rfc3339(c.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(c.update_time.as_ref()),
            version: c.version,
        }
    }
}

/// The store's Magento shops, oldest first.
#[utoipa::path(get, path = "/marketplaces/magento-channels", tag = "marketplaces",
    responses((status = 200, body = List<MagentoChannelBody>)), security(("bearer" = [])))]
async fn list_magento_channels(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<Json<List<MagentoChannelBody>>> {
    auth.require(READ)?;
    let r = client(&state)?
        .list_magento_channels(auth.ctx().request(pb::ListMagentoChannelsRequest {}))
        .await?
        .into_inner();
    Ok(Json(List::all(r.channels.into_iter().map(MagentoChannelBody::from).collect())))
}

/// One of the store's Magento shops.
#[utoipa::path(get, path = "/marketplaces/magento-channels/{id}", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 200, body = MagentoChannelBody), (status = 404, body = ErrorBody, description = "magento_channel_not_found")),
    security(("bearer" = [])))]
async fn get_magento_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<MagentoChannelBody>> {
    auth.require(READ)?;
    let r = client(&state)?
        .get_magento_channel(auth.ctx().request(pb::GetMagentoChannelRequest { id }))
        .await?
        .into_inner();
    Ok(Json(r.channel.unwrap_or_default().into()))
}

/// A Magento shop's form (SPEC §5: every field required; OAuth 1.0a's three other
/// credentials with it). On an edit, credentials left empty are kept.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct MagentoChannelInput {
    pub name: String,
    /// The shop's address (https; before /rest).
    pub url: String,
    /// The store view (default: `default`).
    pub store_code: String,
    /// bearer or oauth1.
    pub auth: String,
    /// The integration's access token.
    pub access_token: String,
    /// OAuth 1.0a: the access token secret.
    pub access_token_secret: String,
    /// OAuth 1.0a: the consumer key.
    pub consumer_key: String,
    /// OAuth 1.0a: the consumer secret.
    pub consumer_secret: String,
    /// The inventory source to write stock to (empty: the single stock).
    pub source_code: String,
    pub warehouse_id: i64,
    pub logistic_channel_id: i64,
    pub payment_channel_id: i64,
    /// active (default) or inactive.
    pub status: String,
    /// The generated key it takes (`key_id` of generate-key; a create only).
    pub key_id: i64,
    /// The version read (an edit; 0: as it is now).
    pub version: i64,
}

impl MagentoChannelInput {
    fn form(&self) -> ApiResult<pb::MagentoChannelForm> {
        Ok(pb::MagentoChannelForm {
            name: self.name.clone(),
            url: self.url.clone(),
            store_code: self.store_code.clone(),
            auth: enum_field::<pb::MagentoAuth>("auth", Some(&self.auth), "validation.required")?,
            access_token: self.access_token.clone(),
            access_token_secret: self.access_token_secret.clone(),
            consumer_key: self.consumer_key.clone(),
            consumer_secret: self.consumer_secret.clone(),
            source_code: self.source_code.clone(),
            warehouse_id: self.warehouse_id,
            logistic_channel_id: self.logistic_channel_id,
            payment_channel_id: self.payment_channel_id,
            status: enum_field::<pb::ChannelStatus>("status", Some(&self.status), "validation.status")?,
        })
    }
}

/// Connects a Magento shop, after trying its connection.
#[utoipa::path(post, path = "/marketplaces/magento-channels", tag = "marketplaces", request_body = MagentoChannelInput,
    responses((status = 201, body = MagentoChannelBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "magento_cannot_connect: fields name the one at fault"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_magento_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<MagentoChannelInput>,
) -> ApiResult<(StatusCode, Json<MagentoChannelBody>)> {
    auth.require(OWNER)?;
    let form = b.form()?;
    let r = client(&state)?
        .create_magento_channel(
            auth.ctx().request(pb::CreateMagentoChannelRequest { form: Some(form), key_id: b.key_id }),
        )
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.channel.unwrap_or_default().into())))
}

/// Rewrites a Magento shop's form, its connection tried again.
#[utoipa::path(patch, path = "/marketplaces/magento-channels/{id}", tag = "marketplaces", params(("id" = i64, Path)),
    request_body = MagentoChannelInput,
    responses((status = 200, body = MagentoChannelBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "api_channel_changed or magento_cannot_connect"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_magento_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<MagentoChannelInput>,
) -> ApiResult<Json<MagentoChannelBody>> {
    auth.require(OWNER)?;
    let form = b.form()?;
    let r = client(&state)?
        .update_magento_channel(auth.ctx().request(pb::UpdateMagentoChannelRequest {
            id,
            form: Some(form),
            version: b.version,
        }))
        .await?
        .into_inner();
    Ok(Json(r.channel.unwrap_or_default().into()))
}

/// What a sync did.
#[derive(Debug, Serialize, ToSchema)]
pub struct MagentoSyncBody {
    pub channel: MagentoChannelBody,
    /// Orders that made or moved one of ours.
    pub orders_taken: i64,
    /// What the shop answered when the poll failed (empty: it did not).
    pub poll_error: String,
    /// Linked SKUs whose stock is now due to be told.
    pub skus_due: i64,
}

/// Polls a Magento shop's orders now and tells it every linked SKU's stock.
#[utoipa::path(post, path = "/marketplaces/magento-channels/{id}/sync", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 200, body = MagentoSyncBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "magento_channel_inactive")),
    security(("bearer" = [])))]
async fn sync_magento_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<MagentoSyncBody>> {
    auth.require(OWNER)?;
    let r = client(&state)?
        .sync_magento_channel(auth.ctx().request(pb::GetMagentoChannelRequest { id }))
        .await?
        .into_inner();
    Ok(Json(MagentoSyncBody {
        channel: r.channel.unwrap_or_default().into(),
        orders_taken: r.orders_taken,
        poll_error: r.poll_error,
        skus_due: r.skus_due,
    }))
}

/// A new token for a store channel the owner is making (a Magento shop calls us with it):
/// shown this once, waiting an hour for its channel.
#[utoipa::path(post, path = "/marketplaces/store-channels/generate-key", tag = "marketplaces",
    responses((status = 201, body = GeneratedKeyBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn generate_store_channel_key(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<(StatusCode, Json<GeneratedKeyBody>)> {
    auth.require(OWNER)?;
    generated_key(&state, &auth).await
}
