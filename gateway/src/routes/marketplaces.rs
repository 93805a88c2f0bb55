//! Marketplaces (SPEC §2 Sale channels, §3 Marketplace store channel, §7 Marketplaces): the
//! marketplaces a shop can be connected from, the authorize link, spending the redirect's
//! code, and the connected shops with their settings. Connecting and changing shops is the
//! owner's; any member may read the shops (the app warns staff of a lost connection).
//! `tiktok_shop` is written `tiktok-shop` in paths.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::marketplaces::v1 as pb;
use bo_proto::marketplaces::v1::marketplaces_service_client::MarketplacesServiceClient;
use bo_proto::Wire as _;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::perms::Access;
use crate::state::AppState;
use crate::wire::{enum_field, word, Body, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(marketplaces))
        .routes(routes!(auth_url))
        .routes(routes!(connect))
        .routes(routes!(reconnect))
        .routes(routes!(list_marketplace_channels))
        .routes(routes!(get_marketplace_channel, update_marketplace_channel, unlink_marketplace_channel))
        .routes(routes!(produce_missing_orders))
        .routes(routes!(marketplace_push).layer(axum::extract::DefaultBodyLimit::max(PUSH_MAX_BYTES)))
}

/// The largest push a marketplace sends, bytes (an order-status push is well under 2 KiB).
const PUSH_MAX_BYTES: usize = 256 * 1024;

/// Reading shops: any member of the store.
const READ: Access = Access { roles: &[], perms: &[] };
/// Connecting and changing them: the owner (SPEC §6).
const OWNER: Access = Access { roles: &["owner"], perms: &[] };

/// The marketplace of a path word (`shopee`, `lazada`, `tiktok-shop`).
fn marketplace(word: &str) -> ApiResult<i32> {
    match pb::Marketplace::from_wire(&word.trim().replace('-', "_")) {
        Some(m) => Ok(m.into()),
        None => Err(ApiError::new(StatusCode::NOT_FOUND, bo_kit::Code::RouteNotFound)),
    }
}

/// A marketplace as the connect screen shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct MarketplaceBody {
    /// shopee, lazada or tiktok_shop.
    pub marketplace: String,
    /// As paths write it (tiktok-shop).
    pub path: String,
    /// Its name.
    pub name: String,
    /// True when shops of it can be connected here.
    pub configured: bool,
    /// The settings the operator must set first.
    pub missing_settings: Vec<String>,
    /// False when the marketplace is open only to whitelisted stores and this is not one.
    pub allowed: bool,
}

/// The marketplaces, each with whether its shops can be connected here.
#[utoipa::path(get, path = "/marketplaces/channels", tag = "marketplaces",
    responses((status = 200, body = List<MarketplaceBody>)), security(("bearer" = [])))]
async fn marketplaces(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<List<MarketplaceBody>>> {
    auth.require(READ)?;
    let r = state
        .client(MarketplacesServiceClient::new)?
        .list_marketplaces(auth.ctx().request(pb::ListMarketplacesRequest {}))
        .await?;
    Ok(Json(List::all(
        r.into_inner()
            .marketplaces
            .into_iter()
            .map(|m| {
                let code = word::<pb::Marketplace>(m.marketplace);
                MarketplaceBody {
                    path: code.replace('_', "-"),
                    marketplace: code,
                    name: m.name,
                    configured: m.configured,
                    missing_settings: m.missing_settings,
                    allowed: m.allowed,
                }
            })
            .collect(),
    )))
}

/// Which shop a link connects again.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct AuthUrlQuery {
    /// The shop to connect again (leave out for a new shop).
    pub store_channel_id: Option<i64>,
}

/// The authorize link.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuthUrlBody {
    /// Where to send the seller.
    pub url: String,
    /// The single-use state it carries (`<store id>.<marketplace>.<random>`).
    pub state: String,
}

/// The link a seller follows to authorize the back-office at the marketplace (owner). It is
/// good for one connect within 30 minutes.
#[utoipa::path(get, path = "/marketplaces/{mp}/auth-url", tag = "marketplaces", params(("mp" = String, Path), AuthUrlQuery),
    responses((status = 200, body = AuthUrlBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "marketplace_not_configured")),
    security(("bearer" = [])))]
async fn auth_url(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(mp): Path<String>,
    Query(q): Query<AuthUrlQuery>,
) -> ApiResult<Json<AuthUrlBody>> {
    auth.require(OWNER)?;
    let r = state
        .client(MarketplacesServiceClient::new)?
        .get_auth_url(auth.ctx().request(pb::GetAuthUrlRequest {
            marketplace: marketplace(&mp)?,
            store_channel_id: q.store_channel_id.unwrap_or(0),
        }))
        .await?
        .into_inner();
    Ok(Json(AuthUrlBody { url: r.url, state: r.link_token }))
}

/// What the marketplace's redirect brought back.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct MarketplaceConnectInput {
    /// The state of the authorize link.
    pub state: String,
    /// The one-time code.
    pub code: String,
    /// The shop the redirect names (Shopee).
    pub shop_id: String,
}

/// A connected marketplace shop.
#[derive(Debug, Serialize, ToSchema)]
pub struct MarketplaceChannelBody {
    /// Id.
    pub id: i64,
    /// shopee, lazada or tiktok_shop.
    pub marketplace: String,
    /// The marketplace's id of the shop.
    pub shop_id: String,
    /// The shop's name.
    pub shop_name: String,
    /// Its region (TH).
    pub region: String,
    /// The warehouse its orders take stock from (0: not chosen).
    pub warehouse_id: i64,
    /// The shipping channel of its orders (0: not chosen).
    pub logistic_channel_id: i64,
    /// The payment account of its orders (0: not chosen).
    pub payment_channel_id: i64,
    /// active or inactive.
    pub status: String,
    /// True when the connection is lost: connect the shop again.
    pub is_token_expire: bool,
    /// When the authorization ends.
    pub token_expire_at: String,
    /// The last time its orders were fetched.
    pub last_order_sync_at: String,
    /// The last time its stock was pushed.
    pub last_stock_push_at: String,
    /// Connected.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
}

impl From<pb::StoreChannel> for MarketplaceChannelBody {
    fn from(c: pb::StoreChannel) -> Self {
        MarketplaceChannelBody {
            id: c.id,
            marketplace: word::<pb::Marketplace>(c.marketplace),
            shop_id: c.shop_id,
            shop_name: c.shop_name,
            region: c.region,
            warehouse_id: c.warehouse_id,
            logistic_channel_id: c.logistic_channel_id,
            payment_channel_id: c.payment_channel_id,
            status: word::<pb::ChannelStatus>(c.status),
            is_token_expire: c.token_expired,
            token_expire_at: timestamp_to_rfc3339(c.authorization_expire_time.as_ref()),
            last_order_sync_at: timestamp_to_rfc3339(c.last_order_sync_time.as_ref()),
            last_stock_push_at: timestamp_to_rfc3339(c.last_stock_push_time.as_ref()),
            created_at: timestamp_to_rfc3339(c.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(c.update_time.as_ref()),
        }
    }
}

/// Spends a redirect (its handler has checked the owner's right first).
async fn spend(
    state: &AppState,
    auth: &StoreAuth,
    mp: &str,
    b: MarketplaceConnectInput,
) -> ApiResult<List<MarketplaceChannelBody>> {
    let r = state
        .client(MarketplacesServiceClient::new)?
        .connect_shops(auth.ctx().request(pb::ConnectShopsRequest {
            marketplace: marketplace(mp)?,
            link_token: b.state,
            code: b.code,
            shop_id: b.shop_id,
        }))
        .await?
        .into_inner();
    Ok(List::all(r.channels.into_iter().map(MarketplaceChannelBody::from).collect()))
}

/// Connects the shops a seller authorized (owner): the redirect's state and code.
#[utoipa::path(post, path = "/marketplaces/{mp}/connect", tag = "marketplaces", params(("mp" = String, Path)), request_body = MarketplaceConnectInput,
    responses((status = 201, body = List<MarketplaceChannelBody>), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody,
            description = "marketplace_shop_taken, marketplace_state_invalid, marketplace_token_expired, marketplace_not_configured"),
        (status = 503, body = ErrorBody, description = "marketplace_unreachable")),
    security(("bearer" = [])))]
async fn connect(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(mp): Path<String>,
    Body(b): Body<MarketplaceConnectInput>,
) -> ApiResult<(StatusCode, Json<List<MarketplaceChannelBody>>)> {
    auth.require(OWNER)?;
    Ok((StatusCode::CREATED, Json(spend(&state, &auth, &mp, b).await?)))
}

/// Connects a shop again after its connection was lost (owner): the redirect's state (from
/// an auth link with `store-channel-id`) and code.
#[utoipa::path(post, path = "/marketplaces/{mp}/reconnect", tag = "marketplaces", params(("mp" = String, Path)), request_body = MarketplaceConnectInput,
    responses((status = 200, body = List<MarketplaceChannelBody>), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "marketplace_state_invalid"), (status = 503, body = ErrorBody)),
    security(("bearer" = [])))]
async fn reconnect(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(mp): Path<String>,
    Body(b): Body<MarketplaceConnectInput>,
) -> ApiResult<Json<List<MarketplaceChannelBody>>> {
    auth.require(OWNER)?;
    Ok(Json(spend(&state, &auth, &mp, b).await?))
}

/// Filters of the shop list.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct MarketplaceChannelQuery {
    /// One marketplace: shopee, lazada, tiktok_shop.
    pub marketplace: Option<String>,
    /// true: only shops whose connection is lost; false: only connected ones.
    pub is_token_expire: Option<bool>,
    /// active or inactive.
    pub status: Option<String>,
}

/// The store's connected marketplace shops, oldest first.
#[utoipa::path(get, path = "/marketplaces/store-channels", tag = "marketplaces", params(MarketplaceChannelQuery),
    responses((status = 200, body = List<MarketplaceChannelBody>), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn list_marketplace_channels(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<MarketplaceChannelQuery>,
) -> ApiResult<Json<List<MarketplaceChannelBody>>> {
    auth.require(READ)?;
    let r = state
        .client(MarketplacesServiceClient::new)?
        .list_store_channels(auth.ctx().request(pb::ListStoreChannelsRequest {
            marketplace: enum_field::<pb::Marketplace>("marketplace", q.marketplace.as_deref(), "validation.invalid")?,
            token_expired: q.is_token_expire,
            status: enum_field::<pb::ChannelStatus>("status", q.status.as_deref(), "validation.status")?,
        }))
        .await?
        .into_inner();
    Ok(Json(List::all(r.channels.into_iter().map(MarketplaceChannelBody::from).collect())))
}

async fn current(state: &AppState, auth: &StoreAuth, id: i64) -> ApiResult<pb::StoreChannel> {
    Ok(state
        .client(MarketplacesServiceClient::new)?
        .get_store_channel(auth.ctx().request(pb::GetStoreChannelRequest { id }))
        .await?
        .into_inner()
        .channel
        .unwrap_or_default())
}

/// One connected shop.
#[utoipa::path(get, path = "/marketplaces/store-channels/{id}", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 200, body = MarketplaceChannelBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn get_marketplace_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<MarketplaceChannelBody>> {
    auth.require(READ)?;
    Ok(Json(current(&state, &auth, id).await?.into()))
}

/// A shop's settings: only the fields given change.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct MarketplaceChannelInput {
    /// The warehouse its orders take stock from.
    pub warehouse_id: Option<i64>,
    /// The shipping channel of its orders.
    pub logistic_channel_id: Option<i64>,
    /// The payment account of its orders.
    pub payment_channel_id: Option<i64>,
    /// active or inactive.
    pub status: Option<String>,
}

/// Changes a shop's warehouse, shipping channel, payment account or status (owner).
#[utoipa::path(patch, path = "/marketplaces/store-channels/{id}", tag = "marketplaces", params(("id" = i64, Path)),
    request_body = MarketplaceChannelInput,
    responses((status = 200, body = MarketplaceChannelBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_marketplace_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<MarketplaceChannelInput>,
) -> ApiResult<Json<MarketplaceChannelBody>> {
    auth.require(OWNER)?;
    let was = current(&state, &auth, id).await?;
    let status = match b.status.as_deref() {
        Some(w) => enum_field::<pb::ChannelStatus>("status", Some(w), "validation.status")?,
        None => was.status,
    };
    let r = state
        .client(MarketplacesServiceClient::new)?
        .update_store_channel(auth.ctx().request(pb::UpdateStoreChannelRequest {
            id,
            warehouse_id: b.warehouse_id.unwrap_or(was.warehouse_id),
            logistic_channel_id: b.logistic_channel_id.unwrap_or(was.logistic_channel_id),
            payment_channel_id: b.payment_channel_id.unwrap_or(was.payment_channel_id),
            status,
        }))
        .await?
        .into_inner();
    Ok(Json(r.channel.unwrap_or_default().into()))
}

/// A marketplace's push (Shopee, Lazada, TikTok Shop), outside the signed-in API: the
/// address to give the marketplace is `<public url>/api/marketplaces/{mp}/push`. Its signature
/// is checked over the raw body before anything reads it; it is kept and answered at once
/// (Shopee: 204 with an empty body; Lazada and TikTok Shop: 200), and handled after.
/// Addresses sending unsigned pushes are slowed down; signed ones never are.
#[utoipa::path(post, path = "/marketplaces/{mp}/push", tag = "marketplaces", params(("mp" = String, Path)),
    request_body(content = String, content_type = "application/json"),
    responses((status = 200, description = "kept"), (status = 204, description = "kept (Shopee)"),
        (status = 401, body = ErrorBody, description = "marketplace_push_unsigned"),
        (status = 404, body = ErrorBody, description = "marketplace_not_configured"), (status = 413, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn marketplace_push(
    State(state): State<AppState>,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<std::net::SocketAddr>,
    Path(mp): Path<String>,
    headers: axum::http::HeaderMap,
    body: bytes::Bytes,
) -> ApiResult<axum::response::Response> {
    use axum::response::IntoResponse as _;
    let ip = crate::auth::client_ip(peer.ip(), &headers, &state.trusted_proxies);
    let limit_key = format!("push:{ip}");
    // Only refusals count: the check itself is let go at once.
    match state.push_limiter.begin(ip, &limit_key) {
        Some(check) => drop(check),
        None => return Err(ApiError::new(StatusCode::TOO_MANY_REQUESTS, bo_kit::Code::TooManyAttempts)),
    }
    let marketplace = marketplace(&mp)?;
    let kept = headers
        .iter()
        .filter_map(|(n, v)| v.to_str().ok().map(|v| (n.as_str().to_ascii_lowercase(), v.to_string())))
        .collect();
    let answer = state
        .client(MarketplacesServiceClient::new)?
        .receive_push(state.system().request(pb::ReceivePushRequest {
            marketplace,
            headers: kept,
            body: body.to_vec(),
        }))
        .await;
    let r = match answer {
        Ok(r) => r.into_inner(),
        Err(e) => {
            let e = ApiError::from(e);
            if e.status == StatusCode::UNAUTHORIZED {
                if let Some(refused) = state.push_limiter.begin(ip, &limit_key) {
                    refused.failed();
                }
            }
            return Err(e);
        }
    };
    let status = StatusCode::from_u16(u16::try_from(r.http_status).unwrap_or(200)).unwrap_or(StatusCode::OK);
    Ok((status, r.body).into_response())
}

/// Unlinks a shop from the store (owner): its tokens and listing links are forgotten, its
/// orders stay. Connecting it again makes it a new shop.
#[utoipa::path(delete, path = "/marketplaces/store-channels/{id}", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn unlink_marketplace_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    auth.require(OWNER)?;
    state
        .client(MarketplacesServiceClient::new)?
        .unlink_store_channel(auth.ctx().request(pb::GetStoreChannelRequest { id }))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Which shops to take missed orders in from.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct MissingOrdersInput {
    /// One shop (leave out for every connected shop of the store).
    pub store_channel_id: Option<i64>,
}

/// What taking missed orders in did.
#[derive(Debug, Serialize, ToSchema)]
pub struct MissingOrdersBody {
    /// Shops polled.
    pub shops: i32,
    /// Marketplace orders taken in (made or moved).
    pub orders: i32,
    /// Shops that could not be polled now (unreachable, or their connection is still lost).
    pub failed_store_channel_ids: Vec<i64>,
}

/// Takes in now the orders the store's marketplace shops changed since they were last
/// polled (owner): after a reconnect, those made while the connection was lost.
#[utoipa::path(post, path = "/orders/produce-missing-mkp-order-after-token-expire", tag = "marketplaces",
    request_body = MissingOrdersInput,
    responses((status = 200, body = MissingOrdersBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn produce_missing_orders(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<MissingOrdersInput>,
) -> ApiResult<Json<MissingOrdersBody>> {
    auth.require(OWNER)?;
    let r = state
        .client(MarketplacesServiceClient::new)?
        .sync_orders(auth.ctx().request(pb::SyncOrdersRequest { store_channel_id: b.store_channel_id.unwrap_or(0) }))
        .await?
        .into_inner();
    Ok(Json(MissingOrdersBody {
        shops: r.shops,
        orders: r.orders,
        failed_store_channel_ids: r.failed_store_channel_ids,
    }))
}
