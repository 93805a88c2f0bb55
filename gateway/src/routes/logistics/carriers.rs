//! Carrier accounts (Thailand Post e-parcel, Flash Express), tracking pushes, and
//! shipments booked with a carrier.

use super::*;
use bo_kit::Code;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_carrier_account, connect_carrier_account))
        .routes(routes!(thaipost_webhook))
        .routes(routes!(register_shipment))
        .routes(routes!(get_shipment))
        .routes(routes!(book_flash_shipment))
        .routes(routes!(cancel_shipment))
        .routes(routes!(shipment_label))
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
            status: word::<pb::CarrierKeyStatus>(r.status),
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
pub(super) async fn get_carrier_account(
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
pub(super) async fn connect_carrier_account(
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
pub(super) async fn thaipost_webhook(
    State(state): State<AppState>,
    Path(token): Path<String>,
    body: bytes::Bytes,
) -> ApiResult<Json<WebhookBody>> {
    if body.len() as i64 > state.logistic_rules().await?.webhook_max_bytes {
        return Err(ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, Code::PayloadTooLarge));
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
            state: word::<pb::ShipmentState>(s.state),
            progress: s.progress,
            events: s
                .events
                .into_iter()
                .map(|e| ShipmentEventBody {
                    status: e.carrier_code,
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
pub(super) async fn register_shipment(
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
pub(super) async fn get_shipment(
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
pub(super) async fn book_flash_shipment(
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
pub(super) async fn cancel_shipment(
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
pub(super) async fn shipment_label(
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
    crate::uploads::serve(&state.files, r.file_key, "application/pdf", "private, no-store", Code::ShipmentNotFound)
        .await
}
