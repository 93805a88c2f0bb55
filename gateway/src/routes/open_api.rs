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
use crate::routes::orders::moment;
use crate::state::AppState;
use crate::wire::{word, Body, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(open_api_channels))
        .routes(routes!(webhook_events))
        .routes(routes!(list_api_channels, create_api_channel))
        .routes(routes!(generate_api_key))
        .routes(routes!(get_api_channel, update_api_channel))
        .routes(routes!(roll_api_key))
        .routes(routes!(revoke_api_keys))
        .routes(routes!(webhook_deliveries))
        .routes(routes!(replay_webhook_deliveries))
        .routes(routes!(webhook_delivery))
        .routes(routes!(replay_webhook_delivery))
        .routes(routes!(send_test_webhook))
        .routes(routes!(resume_webhook))
        .routes(routes!(push_api_stock))
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

impl From<pb::ApiKey> for ApiKeyBody {
    fn from(k: pb::ApiKey) -> Self {
        ApiKeyBody {
            id: k.id,
            shown: k.shown,
            created_at: timestamp_to_rfc3339(k.create_time.as_ref()),
            expires_at: k.expire_time.as_ref().map(|t| timestamp_to_rfc3339(Some(t))),
            revoked_at: k.revoke_time.as_ref().map(|t| timestamp_to_rfc3339(Some(t))),
            last_used_at: k.last_use_time.as_ref().map(|t| timestamp_to_rfc3339(Some(t))),
            working: k.working,
        }
    }
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
    /// Its webhook has been failing since (null: answering).
    pub webhook_failing_since: Option<String>,
    /// Its webhook was turned off after days of failures (null: on); turn it back on with
    /// `POST /open-api/store-channels/{id}/webhook-resume`.
    pub webhook_disabled_at: Option<String>,
    /// Its webhook's last delivery (null: none yet).
    pub webhook_delivered_at: Option<String>,
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
            keys: c.keys.into_iter().map(ApiKeyBody::from).collect(),
            created_at: timestamp_to_rfc3339(c.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(c.update_time.as_ref()),
            version: c.version,
            webhook_failing_since: c.webhook_failing_time.as_ref().map(|t| timestamp_to_rfc3339(Some(t))),
            webhook_disabled_at: c.webhook_disabled_time.as_ref().map(|t| timestamp_to_rfc3339(Some(t))),
            webhook_delivered_at: c.webhook_delivered_time.as_ref().map(|t| timestamp_to_rfc3339(Some(t))),
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
    generated_key(&state, &auth).await
}

/// A new key of the store, for a channel the owner is making (open-API or Magento).
pub async fn generated_key(state: &AppState, auth: &StoreAuth) -> ApiResult<(StatusCode, Json<GeneratedKeyBody>)> {
    let r = client(state)?.generate_api_key(auth.ctx().request(pb::GenerateApiKeyRequest {})).await?.into_inner();
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

/// One attempt at a webhook delivery: the request's headers, the answer, the time.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookAttemptBody {
    pub at: String,
    /// Where it was sent.
    pub url: String,
    /// Its `webhook-timestamp` header (unix seconds).
    pub webhook_timestamp: i64,
    /// Its `webhook-signature` header.
    pub webhook_signature: String,
    /// The answer's HTTP status (0: none came).
    pub status: i32,
    pub duration_ms: i64,
    /// What the endpoint answered (its first 2,000 characters).
    pub answer: String,
    /// Why no answer came, or why it could not be read.
    pub error: String,
}

/// A webhook message to a channel's endpoint (its delivery log).
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookDeliveryBody {
    /// Its `webhook-id` header: the same on every attempt and replay.
    pub message_id: String,
    /// order.created, …, or webhook.test.
    pub event_type: String,
    /// pending, delivered or failed (given up).
    pub state: String,
    /// Attempts since it was made or last sent again.
    pub attempts: i64,
    pub created_at: String,
    /// Its next attempt, while pending.
    pub next_attempt_at: Option<String>,
    pub delivered_at: Option<String>,
    /// Its last answer's HTTP status (0: none yet, or no answer).
    pub last_status: i32,
    pub last_error: String,
    /// The JSON body sent (one delivery's page only).
    pub payload: Option<String>,
    /// Every attempt, oldest first (one delivery's page only).
    pub attempt_log: Vec<WebhookAttemptBody>,
}

impl WebhookDeliveryBody {
    fn of(d: pb::WebhookDelivery, whole: bool) -> Self {
        WebhookDeliveryBody {
            message_id: d.message_id,
            event_type: d.event_type,
            state: word::<pb::WebhookDeliveryState>(d.state),
            attempts: d.attempts,
            created_at: timestamp_to_rfc3339(d.create_time.as_ref()),
            next_attempt_at: d.next_attempt_time.as_ref().map(|t| timestamp_to_rfc3339(Some(t))),
            delivered_at: d.deliver_time.as_ref().map(|t| timestamp_to_rfc3339(Some(t))),
            last_status: d.last_status,
            last_error: d.last_error,
            payload: whole.then_some(d.payload),
            attempt_log: d
                .attempt_log
                .into_iter()
                .map(|a| WebhookAttemptBody {
                    at: timestamp_to_rfc3339(a.time.as_ref()),
                    url: a.url,
                    webhook_timestamp: a.timestamp,
                    webhook_signature: a.signature,
                    status: a.status,
                    duration_ms: a.duration_ms,
                    answer: a.answer,
                    error: a.error,
                })
                .collect(),
        }
    }
}

/// Which deliveries of the log.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct WebhookDeliveryQuery {
    /// Made from (a day, Thailand's time, or an RFC 3339 moment).
    pub from: Option<String>,
    /// Made until (a day, to its end, or a moment).
    pub to: Option<String>,
    /// pending, delivered or failed.
    pub state: Option<String>,
    /// One event (order.created, …, webhook.test).
    pub event: Option<String>,
    pub page: Option<i64>,
    /// 1 to 100 (20 by default).
    pub limit: Option<i64>,
}

/// An open-API channel's webhook deliveries, newest first (kept 30 days).
#[utoipa::path(get, path = "/open-api/store-channels/{id}/webhook-deliveries", tag = "marketplaces",
    params(("id" = i64, Path), WebhookDeliveryQuery),
    responses((status = 200, body = List<WebhookDeliveryBody>), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "api_channel_not_found"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn webhook_deliveries(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Query(q): Query<WebhookDeliveryQuery>,
) -> ApiResult<Json<List<WebhookDeliveryBody>>> {
    auth.require(OWNER)?;
    let from = q.from.as_deref().filter(|t| !t.trim().is_empty()).map(|t| moment("from", t, false)).transpose()?;
    let to = q.to.as_deref().filter(|t| !t.trim().is_empty()).map(|t| moment("to", t, true)).transpose()?;
    let st = q.state.as_deref().map(str::trim).unwrap_or_default();
    let state_n = if st.is_empty() {
        0
    } else {
        pb::WebhookDeliveryState::from_wire(st)
            .map(i32::from)
            .ok_or_else(|| ApiError::invalid_field("state", "validation.choice"))?
    };
    let event = q.event.unwrap_or_default().trim().to_string();
    let page = q.page.unwrap_or(1).max(1);
    let limit = q.limit.unwrap_or(20);
    let r = client(&state)?
        .list_webhook_deliveries(auth.ctx().request(pb::ListWebhookDeliveriesRequest {
            api_channel_id: id,
            from_time: from.map(bo_kit::time::ms_to_timestamp),
            to_time: to.map(bo_kit::time::ms_to_timestamp),
            state: state_n,
            event_type: event,
            page,
            limit,
        }))
        .await?
        .into_inner();
    let pages = ((r.total + limit - 1) / limit.max(1)).max(1);
    Ok(Json(List {
        data: r.deliveries.into_iter().map(|d| WebhookDeliveryBody::of(d, false)).collect(),
        total: r.total,
        limit,
        page,
        pages,
    }))
}

/// One webhook delivery with its body and every attempt (headers, answer, time).
#[utoipa::path(get, path = "/open-api/store-channels/{id}/webhook-deliveries/{message_id}", tag = "marketplaces",
    params(("id" = i64, Path), ("message_id" = String, Path)),
    responses((status = 200, body = WebhookDeliveryBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "webhook_message_not_found")),
    security(("bearer" = [])))]
async fn webhook_delivery(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, message_id)): Path<(i64, String)>,
) -> ApiResult<Json<WebhookDeliveryBody>> {
    auth.require(OWNER)?;
    let r = client(&state)?
        .get_webhook_delivery(auth.ctx().request(pb::WebhookDeliveryRequest { api_channel_id: id, message_id }))
        .await?
        .into_inner();
    Ok(Json(WebhookDeliveryBody::of(r.delivery.unwrap_or_default(), true)))
}

/// Sends a delivered or given-up webhook delivery again, with the same `webhook-id`.
#[utoipa::path(post, path = "/open-api/store-channels/{id}/webhook-deliveries/{message_id}/replay", tag = "marketplaces",
    params(("id" = i64, Path), ("message_id" = String, Path)),
    responses((status = 200, body = WebhookDeliveryBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "webhook_message_not_found"),
        (status = 409, body = ErrorBody, description = "webhook_message_pending")),
    security(("bearer" = [])))]
async fn replay_webhook_delivery(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, message_id)): Path<(i64, String)>,
) -> ApiResult<Json<WebhookDeliveryBody>> {
    auth.require(OWNER)?;
    let r = client(&state)?
        .replay_webhook_delivery(auth.ctx().request(pb::WebhookDeliveryRequest { api_channel_id: id, message_id }))
        .await?
        .into_inner();
    Ok(Json(WebhookDeliveryBody::of(r.delivery.unwrap_or_default(), true)))
}

/// A time range of deliveries to send again.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
pub struct ReplayRangeInput {
    /// From (a day, Thailand's time, or an RFC 3339 moment).
    #[serde(default)]
    pub from: String,
    /// Until (a day, to its end, or a moment).
    #[serde(default)]
    pub to: String,
    /// Only those given up (otherwise the delivered ones too).
    #[serde(default)]
    pub failed_only: bool,
}

/// How many deliveries were sent again.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReplayedBody {
    pub replayed: i64,
}

/// Sends again an open-API channel's deliveries made in a time range (at most 10,000).
#[utoipa::path(post, path = "/open-api/store-channels/{id}/webhook-deliveries/replay", tag = "marketplaces",
    params(("id" = i64, Path)), request_body = ReplayRangeInput,
    responses((status = 200, body = ReplayedBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn replay_webhook_deliveries(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<ReplayRangeInput>,
) -> ApiResult<Json<ReplayedBody>> {
    auth.require(OWNER)?;
    let from = (!b.from.trim().is_empty()).then(|| moment("from", &b.from, false)).transpose()?;
    let to = (!b.to.trim().is_empty()).then(|| moment("to", &b.to, true)).transpose()?;
    let r = client(&state)?
        .replay_webhook_deliveries(auth.ctx().request(pb::ReplayWebhookDeliveriesRequest {
            api_channel_id: id,
            from_time: from.map(bo_kit::time::ms_to_timestamp),
            to_time: to.map(bo_kit::time::ms_to_timestamp),
            failed_only: b.failed_only,
        }))
        .await?
        .into_inner();
    Ok(Json(ReplayedBody { replayed: r.replayed }))
}

/// Sends a `webhook.test` message to the channel's endpoint now; it shows in the log.
#[utoipa::path(post, path = "/open-api/store-channels/{id}/webhook-test", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 201, body = WebhookDeliveryBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "the channel has no webhook URL")),
    security(("bearer" = [])))]
async fn send_test_webhook(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<(StatusCode, Json<WebhookDeliveryBody>)> {
    auth.require(OWNER)?;
    let r = client(&state)?.send_test_webhook(auth.ctx().request(pb::GetApiChannelRequest { id })).await?.into_inner();
    Ok((StatusCode::CREATED, Json(WebhookDeliveryBody::of(r.delivery.unwrap_or_default(), true))))
}

/// Turns a channel's webhook back on after it was turned off; what waited goes now.
#[utoipa::path(post, path = "/open-api/store-channels/{id}/webhook-resume", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 200, body = ApiChannelBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn resume_webhook(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<ApiChannelBody>> {
    auth.require(OWNER)?;
    let r = client(&state)?.resume_webhook(auth.ctx().request(pb::GetApiChannelRequest { id })).await?.into_inner();
    Ok(Json(r.channel.unwrap_or_default().into()))
}

/// Which linked SKUs' stock to send now.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
pub struct PushApiStockInput {
    /// Our SKUs (at most 500); none sends every SKU linked in the channel.
    #[serde(default)]
    pub sku_ids: Vec<i64>,
}

/// How many SKUs' stock is on its way.
#[derive(Debug, Serialize, ToSchema)]
pub struct PushedBody {
    pub pushed: i64,
}

/// Sends an open-API channel its linked SKUs' stock now as `stock.changed`, whatever changed
/// (the channel must have chosen the event).
#[utoipa::path(post, path = "/products/open-api/{id}/update-stock", tag = "marketplaces", params(("id" = i64, Path)),
    request_body = PushApiStockInput,
    responses((status = 202, body = PushedBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn push_api_stock(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<PushApiStockInput>,
) -> ApiResult<(StatusCode, Json<PushedBody>)> {
    auth.require(OWNER)?;
    let r = client(&state)?
        .push_api_stock(auth.ctx().request(pb::PushApiStockRequest { api_channel_id: id, sku_ids: b.sku_ids }))
        .await?
        .into_inner();
    Ok((StatusCode::ACCEPTED, Json(PushedBody { pushed: r.pushed })))
}
