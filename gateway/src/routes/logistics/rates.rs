//! International rate tables: the store's own or the sample, uploaded as a spreadsheet,
//! and the prices of a parcel abroad.

use super::*;
use bo_kit::Code;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_rate_table, upload_rate_table))
        .routes(routes!(load_sample_rate_table))
        .routes(routes!(rate_table_template))
        .routes(routes!(shipping_rates))
}

/// A country of the rate table.
#[derive(Debug, Serialize, ToSchema)]
pub struct RateCountryBody {
    /// ISO alpha-2.
    pub code: String,
    /// Its name as the table gives it.
    pub name: String,
}

/// The store's international rate table.
#[derive(Debug, Serialize, ToSchema)]
pub struct RateTableBody {
    /// False when the store has loaded none.
    pub loaded: bool,
    /// Its label (the sample says it is one).
    pub label: String,
    /// The built-in sample, not real prices.
    pub is_sample: bool,
    /// When it was loaded ("" when none).
    pub uploaded_at: String,
    /// The countries it serves.
    pub countries: Vec<RateCountryBody>,
    /// Price rows.
    pub rate_count: i64,
}

impl From<pb::RateTableResponse> for RateTableBody {
    fn from(r: pb::RateTableResponse) -> Self {
        RateTableBody {
            loaded: r.loaded,
            label: r.label,
            is_sample: r.is_sample,
            uploaded_at: if r.loaded {
                timestamp_to_rfc3339(Some(&bo_kit::time::ms_to_timestamp(r.uploaded_at_ms)))
            } else {
                String::new()
            },
            countries: r.countries.into_iter().map(|c| RateCountryBody { code: c.code, name: c.name }).collect(),
            rate_count: r.rate_count,
        }
    }
}

/// The store's international rate table: its label and the countries it serves.
#[utoipa::path(get, path = "/logistics/shipping-rate/tables", tag = "logistics",
    responses((status = 200, body = RateTableBody)), security(("bearer" = [])))]
pub(super) async fn get_rate_table(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<RateTableBody>> {
    auth.require(READ)?;
    let r = state.logistics().get_rate_table(auth.ctx().request(pb::GetRateTableRequest {})).await?.into_inner();
    Ok(Json(r.into()))
}

/// The rate-table upload.
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct RateTableForm {
    /// The .xlsx file (sheets `zones` and `rates`, as the template).
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
}

/// Replaces the store's international rate table from an .xlsx file laid out as the
/// template; any row with an error refuses the whole file, each error named by sheet, row
/// and column (owner, or logistic.storeChannel.*).
#[utoipa::path(post, path = "/logistics/shipping-rate/tables", tag = "logistics",
    request_body(content = RateTableForm, content_type = "multipart/form-data"),
    responses((status = 200, body = RateTableBody), (status = 403, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "import_wrong_template, import_not_xlsx, or row errors")),
    security(("bearer" = [])))]
pub(super) async fn upload_rate_table(
    State(state): State<AppState>,
    auth: StoreAuth,
    key: Option<axum::Extension<crate::idempotency::Deferred>>,
    mut form: axum::extract::Multipart,
) -> ApiResult<axum::response::Response> {
    auth.require(EDIT)?;
    let mut staged = crate::uploads::Staged::new(state.files.clone());
    let bad = || ApiError::bad_request(Code::InvalidBody);
    while let Some(field) = form.next_field().await.map_err(|_| bad())? {
        if field.name() == Some("file") && staged.is_empty() {
            staged
                .stage(
                    auth.store_id,
                    field,
                    state.logistic_rules().await?.rate_file_bytes as u64,
                    "file",
                    "import_too_large",
                )
                .await?;
        }
    }
    if staged.is_empty() {
        return Err(ApiError::invalid_field("file", "validation.required"));
    }
    let form = staged.digest();
    let act = async {
        let upload = staged.hand_over().pop().unwrap_or_default();
        let r = state
            .logistics()
            .import_rate_table(auth.ctx().request(pb::ImportRateTableRequest { upload, sample: false }))
            .await?
            .into_inner();
        Ok(Json(RateTableBody::from(r)))
    };
    Ok(crate::idempotency::deferred(&state, &auth, key.map(|k| k.0), &form, act).await)
}

/// Loads the built-in sample table, labelled as a sample (owner, or
/// logistic.storeChannel.*).
#[utoipa::path(post, path = "/logistics/shipping-rate/tables/sample", tag = "logistics",
    responses((status = 200, body = RateTableBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn load_sample_rate_table(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<Json<RateTableBody>> {
    auth.require(EDIT)?;
    let r = state
        .logistics()
        .import_rate_table(auth.ctx().request(pb::ImportRateTableRequest { upload: String::new(), sample: true }))
        .await?
        .into_inner();
    Ok(Json(r.into()))
}

/// The rate-table template: the two sheets with Thai and English headers, filled with the
/// sample's rows as an example.
#[utoipa::path(get, path = "/logistics/shipping-rate/template", tag = "logistics",
    responses((status = 200, content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")),
    security(("bearer" = [])))]
pub(super) async fn rate_table_template(
    State(state): State<AppState>,
    auth: StoreAuth,
) -> ApiResult<axum::response::Response> {
    use axum::response::IntoResponse;
    auth.require(READ)?;
    let bytes = state
        .logistics()
        .get_rate_template(auth.ctx().request(pb::GetRateTemplateRequest {}))
        .await?
        .into_inner()
        .content;
    Ok((
        [
            (axum::http::header::CONTENT_TYPE, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            (axum::http::header::CONTENT_DISPOSITION, "attachment; filename=\"shipping-rates-template.xlsx\""),
        ],
        bytes,
    )
        .into_response())
}

/// A parcel to price abroad.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct RatesInput {
    /// Destination country, ISO alpha-2.
    pub country: Option<String>,
    /// Weight in kilograms, up to three decimals.
    pub weight: Option<Decimal>,
    /// Length in centimetres.
    pub length: Option<i64>,
    /// Width in centimetres.
    pub width: Option<i64>,
    /// Height in centimetres.
    pub height: Option<i64>,
}

/// One international service's price.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServiceRateBody {
    /// Provider name of the service.
    pub service: String,
    /// The service as the catalogue describes it.
    pub provider: Option<CarrierBody>,
    /// It can take the parcel.
    pub available: bool,
    /// The destination's zone for the service.
    pub zone: String,
    /// Price in baht.
    pub price: String,
    /// Why not, as a message key (shipping.country_not_served, shipping.over_weight).
    pub reason: String,
}

/// The eight services' prices for a parcel.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatesBody {
    /// One per international service, in the catalogue's order.
    pub data: Vec<ServiceRateBody>,
    /// The weight charged (actual or volumetric), kilograms.
    pub chargeable_weight: String,
    /// The table's label.
    pub label: String,
    /// Priced from the sample table, not real prices.
    pub is_sample: bool,
}

/// The international calculator: a parcel's price to a country with each of the eight
/// international services, from the store's rate table.
#[utoipa::path(post, path = "/logistics/shipping-rate/rates", tag = "logistics", request_body = RatesInput,
    responses((status = 200, body = RatesBody), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn shipping_rates(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<RatesInput>,
) -> ApiResult<Json<RatesBody>> {
    auth.require(READ)?;
    let weight_g = grams_of(&b.weight)?;
    let r = state
        .logistics()
        .quote_international(auth.ctx().request(pb::QuoteInternationalRequest {
            parcel: Some(pb::Parcel {
                weight_g,
                length_cm: b.length.unwrap_or(0),
                width_cm: b.width.unwrap_or(0),
                height_cm: b.height.unwrap_or(0),
                country: b.country.unwrap_or_default(),
                ..Default::default()
            }),
        }))
        .await?
        .into_inner();
    Ok(Json(RatesBody {
        data: r
            .rates
            .into_iter()
            .map(|x| ServiceRateBody {
                provider: x.carrier.as_ref().map(CarrierBody::from),
                service: x.service,
                available: x.available,
                zone: x.zone,
                price: baht(x.price_satang),
                reason: x.reason,
            })
            .collect(),
        chargeable_weight: kilograms(r.chargeable_weight_g),
        label: r.label,
        is_sample: r.is_sample,
    }))
}
