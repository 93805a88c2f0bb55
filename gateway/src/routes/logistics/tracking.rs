//! Parcel prices of the store's channels, and the ranges of tracking numbers it keeps.

use super::*;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(quote_shipping))
        .routes(routes!(list_tracking_ranges, add_tracking_range))
        .routes(routes!(reserve_tracking_numbers))
}

/// A parcel to price.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct QuoteInput {
    /// The warehouse it ships from.
    pub warehouse_id: Option<i64>,
    /// Weight in kilograms, up to three decimals.
    pub weight: Option<Decimal>,
    /// Length in centimetres.
    pub length: Option<i64>,
    /// Width in centimetres.
    pub width: Option<i64>,
    /// Height in centimetres.
    pub height: Option<i64>,
    /// Destination postcode (domestic).
    pub postcode: Option<String>,
    /// Destination country, ISO alpha-2 (empty or TH: domestic).
    pub country: Option<String>,
    /// The order's total in baht (for free shipping over a total).
    pub order_total: Option<Decimal>,
    /// Cash on delivery wanted.
    pub cod: Option<bool>,
}

/// One channel's price for the parcel.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuoteBody {
    /// The channel.
    pub store_channel: LogisticChannelBody,
    /// It can take the parcel.
    pub available: bool,
    /// Price in baht.
    pub price: String,
    /// Why not, as a message key (shipping.over_weight, shipping.cod_not_offered, ...).
    pub reason: String,
    /// The weight charged (actual or volumetric), kilograms.
    pub chargeable_weight: String,
}

/// Prices a parcel with every active channel of a warehouse: available ones cheapest first.
#[utoipa::path(post, path = "/logistics/shipping-price/quotes", tag = "logistics", request_body = QuoteInput,
    responses((status = 200, body = List<QuoteBody>), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn quote_shipping(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<QuoteInput>,
) -> ApiResult<Json<List<QuoteBody>>> {
    auth.require(READ)?;
    let weight_g = grams_of(&b.weight)?;
    let order_total = match &b.order_total {
        None => 0,
        Some(t) => t.satang().ok_or_else(|| ApiError::invalid_field("order_total", "validation.price"))?,
    };
    let r = state
        .logistics()
        .quote_shipping(auth.ctx().request(pb::QuoteShippingRequest {
            warehouse_id: b.warehouse_id.unwrap_or(0),
            parcel: Some(pb::Parcel {
                weight_g,
                length_cm: b.length.unwrap_or(0),
                width_cm: b.width.unwrap_or(0),
                height_cm: b.height.unwrap_or(0),
                postcode: b.postcode.unwrap_or_default(),
                country: b.country.unwrap_or_default(),
                order_total_satang: order_total,
                cod: b.cod.unwrap_or(false),
                cod_amount_satang: 0,
            }),
        }))
        .await?
        .into_inner();
    Ok(Json(List::all(
        r.quotes
            .into_iter()
            .map(|q| QuoteBody {
                store_channel: q.store_channel.unwrap_or_default().into(),
                available: q.available,
                price: baht(q.price_satang),
                reason: q.reason,
                chargeable_weight: kilograms(q.chargeable_weight_g),
            })
            .collect(),
    )))
}

/// A range of tracking numbers from a carrier.
#[derive(Debug, Serialize, ToSchema)]
pub struct TrackingRangeBody {
    /// Id.
    pub id: i64,
    /// Provider name.
    pub provider_name: String,
    /// Letters before the serial.
    pub prefix: String,
    /// First serial.
    pub first_serial: i64,
    /// Last serial (inclusive).
    pub last_serial: i64,
    /// The next serial handed out.
    pub next_serial: i64,
    /// Numbers left.
    pub remaining: i64,
    /// The first number as printed (S10 for the postal provider: EY000000014TH).
    pub first_number: String,
    /// The last number as printed.
    pub last_number: String,
}

impl From<pb::TrackingRange> for TrackingRangeBody {
    fn from(r: pb::TrackingRange) -> Self {
        TrackingRangeBody {
            id: r.id,
            provider_name: r.provider,
            prefix: r.prefix,
            first_serial: r.first_serial,
            last_serial: r.last_serial,
            next_serial: r.next_serial,
            remaining: r.remaining,
            first_number: r.first_number,
            last_number: r.last_number,
        }
    }
}

/// Which provider's ranges.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct RangeQuery {
    /// Only this provider's.
    pub provider_name: Option<String>,
}

/// The store's tracking-number ranges, oldest first.
#[utoipa::path(get, path = "/logistics/tracking-numbers/ranges", tag = "logistics", params(RangeQuery),
    responses((status = 200, body = List<TrackingRangeBody>)), security(("bearer" = [])))]
pub(super) async fn list_tracking_ranges(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<RangeQuery>,
) -> ApiResult<Json<List<TrackingRangeBody>>> {
    auth.require(READ)?;
    let r = state
        .logistics()
        .list_tracking_ranges(
            auth.ctx().request(pb::ListTrackingRangesRequest { provider: q.provider_name.unwrap_or_default() }),
        )
        .await?
        .into_inner();
    Ok(Json(List::all(r.ranges.into_iter().map(TrackingRangeBody::from).collect())))
}

/// A range as registered.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct TrackingRangeInput {
    /// Provider name (a domestic carrier, or the postal provider's services).
    pub provider_name: Option<String>,
    /// Two letters for postal (S10) numbers; 1 to 6 letters or digits for others.
    pub prefix: Option<String>,
    /// First serial, digits (8 for postal numbers).
    pub first: Option<String>,
    /// Last serial, digits (inclusive).
    pub last: Option<String>,
}

/// Registers a range of tracking numbers the carrier gave the store (owner, or
/// logistic.storeChannel.*).
#[utoipa::path(post, path = "/logistics/tracking-numbers/ranges", tag = "logistics", request_body = TrackingRangeInput,
    responses((status = 201, body = TrackingRangeBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "tracking_range_overlap, tracking_range_limit_reached"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn add_tracking_range(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<TrackingRangeInput>,
) -> ApiResult<(StatusCode, Json<TrackingRangeBody>)> {
    auth.require(EDIT)?;
    let r = state
        .logistics()
        .add_tracking_range(auth.ctx().request(pb::AddTrackingRangeRequest {
            provider: b.provider_name.unwrap_or_default(),
            prefix: b.prefix.unwrap_or_default(),
            first: b.first.unwrap_or_default(),
            last: b.last.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.range.unwrap_or_default().into())))
}

/// What to reserve.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ReserveInput {
    /// Provider name.
    pub provider_name: Option<String>,
    /// How many, 1 to 100 (default 1).
    pub count: Option<i64>,
    /// What they are for (an order or parcel reference): a repeat answers the same numbers.
    pub reference: Option<String>,
}

/// Numbers handed out.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReservedBody {
    /// The numbers, in order.
    pub data: Vec<String>,
    /// The reference had them already.
    pub replayed: bool,
}

/// Hands out tracking numbers from the store's ranges, never the same number twice.
#[utoipa::path(post, path = "/logistics/tracking-numbers/reserve", tag = "logistics", request_body = ReserveInput,
    responses((status = 200, body = ReservedBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "tracking_numbers_exhausted"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn reserve_tracking_numbers(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<ReserveInput>,
) -> ApiResult<Json<ReservedBody>> {
    auth.require(RESERVE)?;
    let r = state
        .logistics()
        .reserve_tracking_numbers(auth.ctx().request(pb::ReserveTrackingNumbersRequest {
            provider: b.provider_name.unwrap_or_default(),
            count: b.count.unwrap_or(1),
            reference: b.reference.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    Ok(Json(ReservedBody { data: r.numbers, replayed: r.replayed }))
}
