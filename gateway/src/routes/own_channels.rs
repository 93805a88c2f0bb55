//! A store's own channels (SPEC §1 social commerce and website; §2 `/sale-channel-setting/
//! {saleChannel}` to make one, `/{storeChannelId}` to edit it): its Facebook page, LINE
//! account, Instagram or website, each with the warehouse, shipping channel and payment
//! account an order typed for it takes. Any member reads them (the order's form offers
//! them); the owner makes and changes them (SPEC §6).

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::marketplaces::v1 as pb;
use bo_proto::marketplaces::v1::marketplaces_service_client::MarketplacesServiceClient;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::perms::Access;
use crate::state::AppState;
use crate::wire::{enum_field, word, Body, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_own_channels, create_own_channel))
        .routes(routes!(get_own_channel, update_own_channel))
}

/// Reading them: any member of the store (an order's form offers them).
const READ: Access = Access { roles: &[], perms: &[] };
/// Making and changing them: the owner (SPEC §6: sale-channel management).
const OWNER: Access = Access { roles: &["owner"], perms: &[] };

fn client(state: &AppState) -> ApiResult<MarketplacesServiceClient<bo_kit::grpc::GrpcChannel>> {
    state.client(MarketplacesServiceClient::new)
}

/// A store's own channel.
#[derive(Debug, Serialize, ToSchema)]
pub struct OwnChannelBody {
    pub id: i64,
    /// Its name ("LINE shop").
    pub name: String,
    /// The sales channel its orders are: facebook, line, instagram or website.
    pub channel: String,
    /// The warehouse its orders take stock from.
    pub warehouse_id: i64,
    /// The shipping channel its orders ship by.
    pub logistic_channel_id: i64,
    /// The payment account its orders are paid to.
    pub payment_channel_id: i64,
    /// active (offered on an order's form) or inactive.
    pub status: String,
    pub created_at: String,
    pub updated_at: String,
    /// Send it back with an edit so another's change is not overwritten.
    pub version: i64,
}

impl From<pb::OwnChannel> for OwnChannelBody {
    fn from(c: pb::OwnChannel) -> Self {
        OwnChannelBody {
            id: c.id,
            name: c.name,
            channel: word::<pb::SaleChannel>(c.channel),
            warehouse_id: c.warehouse_id,
            logistic_channel_id: c.logistic_channel_id,
            payment_channel_id: c.payment_channel_id,
            status: word::<pb::ChannelStatus>(c.status),
            created_at: timestamp_to_rfc3339(c.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(c.update_time.as_ref()),
            version: c.version,
        }
    }
}

/// Filters of the list.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct OwnChannelQuery {
    /// active: only those an order's form offers.
    pub status: Option<String>,
}

/// The store's own channels, oldest first.
#[utoipa::path(get, path = "/marketplaces/own-channels", tag = "marketplaces", params(OwnChannelQuery),
    responses((status = 200, body = List<OwnChannelBody>), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn list_own_channels(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<OwnChannelQuery>,
) -> ApiResult<Json<List<OwnChannelBody>>> {
    auth.require(READ)?;
    let status = enum_field::<pb::ChannelStatus>("status", q.status.as_deref(), "validation.status")?;
    let active_only = status == i32::from(pb::ChannelStatus::Active);
    let mut r = client(&state)?
        .list_own_channels(auth.ctx().request(pb::ListOwnChannelsRequest { active_only }))
        .await?
        .into_inner();
    if status == i32::from(pb::ChannelStatus::Inactive) {
        r.channels.retain(|c| c.status == status);
    }
    Ok(Json(List::all(r.channels.into_iter().map(OwnChannelBody::from).collect())))
}

/// One of the store's own channels.
#[utoipa::path(get, path = "/marketplaces/own-channels/{id}", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 200, body = OwnChannelBody), (status = 404, body = ErrorBody, description = "own_channel_not_found")),
    security(("bearer" = [])))]
async fn get_own_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<OwnChannelBody>> {
    auth.require(READ)?;
    let r = client(&state)?.get_own_channel(auth.ctx().request(pb::GetOwnChannelRequest { id })).await?.into_inner();
    Ok(Json(r.channel.unwrap_or_default().into()))
}

/// An own channel's form (SPEC §5: every field required).
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct OwnChannelInput {
    pub name: String,
    /// facebook, line, instagram or website.
    pub channel: String,
    pub warehouse_id: i64,
    pub logistic_channel_id: i64,
    pub payment_channel_id: i64,
    /// active (default) or inactive.
    pub status: String,
    /// The version read (an edit; 0: as it is now).
    pub version: i64,
}

impl OwnChannelInput {
    fn form(&self) -> ApiResult<pb::OwnChannelForm> {
        Ok(pb::OwnChannelForm {
            name: self.name.clone(),
            channel: enum_field::<pb::SaleChannel>("channel", Some(&self.channel), "validation.channel_unknown")?,
            warehouse_id: self.warehouse_id,
            logistic_channel_id: self.logistic_channel_id,
            payment_channel_id: self.payment_channel_id,
            status: enum_field::<pb::ChannelStatus>("status", Some(&self.status), "validation.status")?,
        })
    }
}

/// Makes an own channel.
#[utoipa::path(post, path = "/marketplaces/own-channels", tag = "marketplaces", request_body = OwnChannelInput,
    responses((status = 201, body = OwnChannelBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_own_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OwnChannelInput>,
) -> ApiResult<(StatusCode, Json<OwnChannelBody>)> {
    auth.require(OWNER)?;
    let form = b.form()?;
    let r = client(&state)?
        .create_own_channel(auth.ctx().request(pb::CreateOwnChannelRequest { form: Some(form) }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.channel.unwrap_or_default().into())))
}

/// Rewrites an own channel's form.
#[utoipa::path(patch, path = "/marketplaces/own-channels/{id}", tag = "marketplaces", params(("id" = i64, Path)), request_body = OwnChannelInput,
    responses((status = 200, body = OwnChannelBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "api_channel_changed"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_own_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<OwnChannelInput>,
) -> ApiResult<Json<OwnChannelBody>> {
    auth.require(OWNER)?;
    let form = b.form()?;
    let r = client(&state)?
        .update_own_channel(auth.ctx().request(pb::UpdateOwnChannelRequest {
            id,
            form: Some(form),
            version: b.version,
        }))
        .await?
        .into_inner();
    Ok(Json(r.channel.unwrap_or_default().into()))
}
