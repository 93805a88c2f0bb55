//! The store: details, getting-started flags, hidden menus.

use axum::extract::State;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::stores::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::perms::Access;
use crate::state::AppState;
use crate::wire::{Body, Path};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_store, update_store))
        .routes(routes!(getting_started))
        .routes(routes!(menu_hiding))
}

/// Editing the store: the owner only (SPEC §6; decision 0013).
const STORE_EDIT: Access = Access { roles: &["owner"], perms: &[] };

/// Getting-started progress.
#[derive(Debug, Serialize, ToSchema, Default)]
pub struct GettingStartedBody {
    /// A payment account exists.
    pub payment: bool,
    /// A logistic channel exists.
    pub logistic: bool,
    /// A product exists.
    pub product: bool,
    /// A goods receipt exists.
    pub goods_receipt: bool,
}

impl From<pb::GettingStarted> for GettingStartedBody {
    fn from(g: pb::GettingStarted) -> Self {
        Self { payment: g.payment, logistic: g.logistic, product: g.product, goods_receipt: g.goods_receipt }
    }
}

/// A store.
#[derive(Debug, Serialize, ToSchema)]
pub struct StoreBody {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Address line.
    pub address: String,
    /// Sub-district.
    pub sub_district: String,
    /// District.
    pub district: String,
    /// Province.
    pub province: String,
    /// Postcode.
    pub postcode: String,
    /// Phone.
    pub tel: String,
    /// Prices include VAT.
    pub vat_included: bool,
    /// Menu keys hidden for this store.
    pub menu_hiding_list: Vec<String>,
    /// Where the logo is served ('' for none).
    pub logo_url: String,
    /// Getting-started progress.
    pub getting_started: GettingStartedBody,
    /// Created.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
}

impl From<pb::Store> for StoreBody {
    fn from(s: pb::Store) -> Self {
        StoreBody {
            id: s.id,
            name: s.name,
            address: s.address,
            sub_district: s.sub_district,
            district: s.district,
            province: s.province,
            postcode: s.postcode,
            tel: s.tel,
            vat_included: s.vat_included,
            menu_hiding_list: s.menu_hiding_list,
            logo_url: super::pictures::picture_url(&s.logo),
            getting_started: s.getting_started.map(GettingStartedBody::from).unwrap_or_default(),
            created_at: timestamp_to_rfc3339(s.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(s.update_time.as_ref()),
        }
    }
}

/// Store changes: only the fields given change.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct StoreInput {
    /// Name.
    pub name: Option<String>,
    /// Address line.
    pub address: Option<String>,
    /// Sub-district.
    pub sub_district: Option<String>,
    /// District.
    pub district: Option<String>,
    /// Province.
    pub province: Option<String>,
    /// Postcode (5 digits).
    pub postcode: Option<String>,
    /// Phone (9 or 10 digits).
    pub tel: Option<String>,
    /// Prices include VAT.
    pub vat_included: Option<bool>,
}

async fn fetch(state: &AppState, auth: &StoreAuth) -> ApiResult<pb::Store> {
    Ok(state
        .stores()
        .get_store(auth.ctx().request(pb::GetStoreRequest {}))
        .await?
        .into_inner()
        .store
        .unwrap_or_default())
}

/// The store of the token.
#[utoipa::path(get, path = "/stores/{id}", tag = "stores", params(("id" = i64, Path)),
    responses((status = 200, body = StoreBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn get_store(State(state): State<AppState>, auth: StoreAuth, Path(id): Path<i64>) -> ApiResult<Json<StoreBody>> {
    auth.same_store(id)?;
    Ok(Json(fetch(&state, &auth).await?.into()))
}

/// Changes the store (the owner only).
#[utoipa::path(put, path = "/stores/{id}", tag = "stores", params(("id" = i64, Path)), request_body = StoreInput,
    responses((status = 200, body = StoreBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_store(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(input): Body<StoreInput>,
) -> ApiResult<Json<StoreBody>> {
    auth.require_in(id, STORE_EDIT)?;
    let r = state
        .stores()
        .update_store(auth.ctx().request(pb::UpdateStoreRequest {
            name: input.name,
            address: input.address,
            sub_district: input.sub_district,
            district: input.district,
            province: input.province,
            postcode: input.postcode,
            tel: input.tel,
            vat_included: input.vat_included,
        }))
        .await?
        .into_inner();
    Ok(Json(r.store.unwrap_or_default().into()))
}

/// The store's getting-started flags.
#[utoipa::path(get, path = "/stores/getting-started", tag = "stores",
    responses((status = 200, body = GettingStartedBody)), security(("bearer" = [])))]
async fn getting_started(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<GettingStartedBody>> {
    Ok(Json(fetch(&state, &auth).await?.getting_started.map(GettingStartedBody::from).unwrap_or_default()))
}

/// Hidden menus.
#[derive(Debug, Serialize, ToSchema)]
pub struct MenuHidingBody {
    /// Menu keys hidden for this store (e.g. `connect_e_parcel`).
    pub menu_hiding_list: Vec<String>,
}

/// The menus hidden for the store.
#[utoipa::path(get, path = "/stores/{id}/settings/get-menu-hiding", tag = "stores", params(("id" = i64, Path)),
    responses((status = 200, body = MenuHidingBody)), security(("bearer" = [])))]
async fn menu_hiding(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<MenuHidingBody>> {
    auth.same_store(id)?;
    Ok(Json(MenuHidingBody { menu_hiding_list: fetch(&state, &auth).await?.menu_hiding_list }))
}
