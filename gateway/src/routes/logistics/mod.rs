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
use bo_proto::logistics::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::state::AppState;
use crate::wire::{baht, enum_field, kilograms, page_request, word, Body, Decimal, List, Path, Query};

mod carriers;
mod channels;
mod providers;
mod rates;
mod tracking;

use channels::*;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(catalogue))
        .merge(channels::router())
        .merge(providers::router())
        .merge(tracking::router())
        .merge(rates::router())
        .merge(carriers::router())
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

impl From<&pb::Carrier> for CarrierBody {
    fn from(c: &pb::Carrier) -> Self {
        CarrierBody {
            provider_name: c.code.clone(),
            carrier: c.carrier.clone(),
            name_th: c.name_th.clone(),
            name_en: c.name_en.clone(),
            shipment_type: c.shipment_type.clone(),
            cod: c.cod,
        }
    }
}

/// Domestic carriers and COD providers.
const DOMESTIC: &str = "domestic";
/// International services.
const INTERNATIONAL: &str = "international";
/// A channel in use.
const ACTIVE: &str = "active";

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
async fn catalogue(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<CatalogueQuery>,
) -> ApiResult<Json<List<CarrierBody>>> {
    auth.require(READ)?;
    let wanted = q.shipment_type.as_deref().unwrap_or("").trim();
    if !matches!(wanted, "" | "all" | DOMESTIC | INTERNATIONAL) {
        return Err(ApiError::invalid_field("shipment_type", "validation.shipment_type"));
    }
    let rules = state.logistic_rules().await?;
    let list = rules.carriers.iter().filter(|c| matches!(wanted, "" | "all") || c.shipment_type == wanted);
    Ok(Json(List::all(list.map(CarrierBody::from).collect())))
}
