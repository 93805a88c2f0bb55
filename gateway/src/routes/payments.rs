//! Payments (SPEC §3 Payment account, §5, §7 Payments): the store's payment accounts and
//! the lists their forms pick from. Any member may read them (an order needs to say where to
//! pay); adding, changing and deleting takes the owner role or `payment.storeChannel.*`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_kit::Code;
use bo_proto::payments::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::state::AppState;
use crate::wire::{baht, enum_field, page_request, word, Body, Decimal, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(channel_types))
        .routes(routes!(countries))
        .routes(routes!(banks))
        .routes(routes!(list_store_channels, create_store_channel, set_status_by_type))
        .routes(routes!(get_store_channel, update_store_channel, delete_store_channel))
        .routes(routes!(promptpay_qr))
}

/// Reading accounts: any member of the store.
const READ: Access = Access { roles: &[], perms: &[] };
/// Changing them: the owner, or payment.storeChannel.*.
const EDIT: Access = Access { roles: &["owner"], perms: &[keys::PAYMENT_STORE_CHANNEL_ALL] };

/// A kind of payment account.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelTypeBody {
    /// bank, paypal, promptpay or cod.
    pub r#type: String,
}

/// The kinds of payment account a store can add.
#[utoipa::path(get, path = "/payments/channels", tag = "payments",
    responses((status = 200, body = List<ChannelTypeBody>)), security(("bearer" = [])))]
async fn channel_types(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<List<ChannelTypeBody>>> {
    auth.require(READ)?;
    let rules = state.payment_rules().await?;
    Ok(Json(List::all(rules.kinds.iter().map(|k| ChannelTypeBody { r#type: k.clone() }).collect())))
}

/// A country whose bank accounts may be added.
#[derive(Debug, Serialize, ToSchema)]
pub struct CountryBody {
    /// ISO 3166-1 alpha-2.
    pub code: String,
    /// Thai name.
    pub name_th: String,
    /// English name.
    pub name_en: String,
}

/// Countries of bank accounts.
#[utoipa::path(get, path = "/payments/countries", tag = "payments",
    responses((status = 200, body = List<CountryBody>)), security(("bearer" = [])))]
async fn countries(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<List<CountryBody>>> {
    auth.require(READ)?;
    let rules = state.payment_rules().await?;
    Ok(Json(List::all(
        rules
            .countries
            .iter()
            .map(|c| CountryBody { code: c.code.clone(), name_th: c.name_th.clone(), name_en: c.name_en.clone() })
            .collect(),
    )))
}

/// A bank of the list, with the colour of its badge.
#[derive(Debug, Serialize, ToSchema)]
pub struct BankBody {
    /// Bank of Thailand institution code ("004").
    pub code: String,
    /// Short name (KBANK).
    pub short: String,
    /// Thai name.
    pub name_th: String,
    /// English name.
    pub name_en: String,
    /// Brand colour, #rrggbb.
    pub color: String,
}

impl From<&pb::Bank> for BankBody {
    fn from(b: &pb::Bank) -> Self {
        BankBody {
            code: b.code.clone(),
            short: b.short.clone(),
            name_th: b.name_th.clone(),
            name_en: b.name_en.clone(),
            color: b.color.clone(),
        }
    }
}

/// The banks of Thailand a bank account can be with.
#[utoipa::path(get, path = "/payments/", tag = "payments",
    responses((status = 200, body = List<BankBody>)), security(("bearer" = [])))]
async fn banks(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<List<BankBody>>> {
    auth.require(READ)?;
    Ok(Json(List::all(state.payment_rules().await?.banks.iter().map(BankBody::from).collect())))
}

/// `channel.type` of a store channel.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelOfAccount {
    /// bank, paypal, promptpay or cod.
    pub r#type: String,
}

/// What identifies the account to a payer.
#[derive(Debug, Serialize, ToSchema)]
pub struct CredentialBody {
    /// Country (bank).
    pub country: String,
    /// Bank code (bank).
    pub bank_code: String,
    /// Account name (bank, promptpay, cod).
    pub acc_name: String,
    /// Account number (bank, cod) or PromptPay id (promptpay).
    pub acc_no: String,
    /// Branch (bank).
    pub branch: String,
    /// PayPal email.
    pub email: String,
    /// PayPal fee in percent, two decimals ("4.40").
    pub fee: String,
}

/// A payment account (store channel).
#[derive(Debug, Serialize, ToSchema)]
pub struct StoreChannelBody {
    /// Id.
    pub id: i64,
    /// Its kind.
    pub channel: ChannelOfAccount,
    /// Its details.
    pub credential: CredentialBody,
    /// The bank, for bank accounts.
    pub bank: Option<BankBody>,
    /// active or inactive.
    pub status: String,
    /// Open bills that point at it (it cannot be deleted while any do).
    pub open_bills: i64,
    /// Created.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
}

impl From<pb::StoreChannel> for StoreChannelBody {
    fn from(c: pb::StoreChannel) -> Self {
        StoreChannelBody {
            id: c.id,
            bank: c.bank.as_ref().map(BankBody::from),
            channel: ChannelOfAccount { r#type: c.channel_type },
            credential: CredentialBody {
                country: c.country,
                bank_code: c.bank_code,
                acc_name: c.acc_name,
                acc_no: c.acc_no,
                branch: c.branch,
                email: c.email,
                fee: baht(c.fee_bps),
            },
            status: word::<pb::ChannelStatus>(c.status),
            open_bills: c.open_bills,
            created_at: timestamp_to_rfc3339(c.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(c.update_time.as_ref()),
        }
    }
}

/// A payment account's fields: those of its kind are required on create; on change only
/// the fields given change (its kind stays).
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct StoreChannelInput {
    /// bank, paypal, promptpay or cod.
    pub channel_type: Option<String>,
    /// Country code (bank): TH.
    pub country: Option<String>,
    /// Bank code from `GET /payments/` (bank).
    pub bank_code: Option<String>,
    /// Account name (bank, promptpay, cod).
    pub acc_name: Option<String>,
    /// Account number, digits (bank, cod); PromptPay id: a mobile number or a 13-digit id.
    pub acc_no: Option<String>,
    /// Branch (bank).
    pub branch: Option<String>,
    /// PayPal email.
    pub email: Option<String>,
    /// PayPal fee in percent, at most two decimals.
    pub fee: Option<Decimal>,
    /// active or inactive (default active).
    pub status: Option<String>,
}

fn fee_input(f: &Option<Decimal>) -> Option<String> {
    f.as_ref().map(|f| match f {
        Decimal::Text(s) => s.clone(),
        Decimal::Number(n) => n.to_string(),
    })
}

/// A PayPal account, whose fee is kept when an edit leaves it out.
const PAYPAL: &str = "paypal";

impl StoreChannelInput {
    /// The account as it should be: these fields over `current`'s.
    fn over(self, current: pb::StoreChannel) -> ApiResult<pb::StoreChannelInput> {
        let status = match self.status.as_deref() {
            Some(word) => enum_field::<pb::ChannelStatus>("status", Some(word), "validation.status")?,
            None => current.status,
        };
        let fee = fee_input(&self.fee).unwrap_or_else(|| {
            if current.channel_type == PAYPAL {
                baht(current.fee_bps)
            } else {
                String::new()
            }
        });
        Ok(pb::StoreChannelInput {
            channel_type: self.channel_type.unwrap_or(current.channel_type),
            country: self.country.unwrap_or(current.country),
            bank_code: self.bank_code.unwrap_or(current.bank_code),
            acc_name: self.acc_name.unwrap_or(current.acc_name),
            acc_no: self.acc_no.unwrap_or(current.acc_no),
            branch: self.branch.unwrap_or(current.branch),
            email: self.email.unwrap_or(current.email),
            fee,
            status,
        })
    }
}

/// Filters of the account list.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct PaymentChannelQuery {
    /// Page number.
    pub page: Option<i64>,
    /// Page size; -1 for all (the default).
    pub limit: Option<i64>,
    /// Only this kind: bank, paypal, promptpay or cod.
    pub channel_type: Option<String>,
    /// Only accounts whose name contains this (with `channel-type=cod`, the COD account).
    pub acc_name: Option<String>,
    /// Only the account with this number (lookup by account number).
    pub acc_no: Option<String>,
    /// Only active or inactive accounts.
    pub status: Option<String>,
}

/// The store's payment accounts, newest first (all unless a `limit` is given).
#[utoipa::path(get, path = "/payments/store-channels", tag = "payments", params(PaymentChannelQuery),
    responses((status = 200, body = List<StoreChannelBody>), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn list_store_channels(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<PaymentChannelQuery>,
) -> ApiResult<Json<List<StoreChannelBody>>> {
    auth.require(READ)?;
    let r = state
        .payments()
        .list_store_channels(auth.ctx().request(pb::ListStoreChannelsRequest {
            page: Some(page_request(q.page, Some(q.limit.unwrap_or(-1)))),
            channel_type: q.channel_type.unwrap_or_default(),
            acc_name: q.acc_name.unwrap_or_default(),
            acc_no: q.acc_no.unwrap_or_default(),
            status: enum_field::<pb::ChannelStatus>("status", q.status.as_deref(), "validation.status")?,
        }))
        .await?
        .into_inner();
    Ok(Json(List::new(r.store_channels.into_iter().map(StoreChannelBody::from).collect(), r.page)))
}

/// Adds a payment account (owner, or payment.storeChannel.*).
#[utoipa::path(post, path = "/payments/store-channels", tag = "payments", request_body = StoreChannelInput,
    responses((status = 201, body = StoreChannelBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "account_number_duplicate, payment_channel_limit_reached"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_store_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<StoreChannelInput>,
) -> ApiResult<(StatusCode, Json<StoreChannelBody>)> {
    auth.require(EDIT)?;
    let input = b.over(pb::StoreChannel::default())?;
    let r = state
        .payments()
        .create_store_channel(auth.ctx().request(pb::CreateStoreChannelRequest { store_channel: Some(input) }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.store_channel.unwrap_or_default().into())))
}

/// The new status of the accounts of one kind.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PaymentStatusInput {
    /// active or inactive.
    pub status: Option<String>,
}

/// Which kind `PATCH /payments/store-channels` changes.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct TypeQuery {
    /// bank, paypal, promptpay or cod.
    #[serde(rename = "channel.type")]
    #[param(rename = "channel.type")]
    pub channel_type: Option<String>,
}

/// How many accounts changed.
#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentChannelsChanged {
    /// Accounts whose status changed.
    pub changed: i64,
}

/// Sets the status of every account of a kind (`?channel.type=cod`).
#[utoipa::path(patch, path = "/payments/store-channels", tag = "payments", params(TypeQuery), request_body = PaymentStatusInput,
    responses((status = 200, body = PaymentChannelsChanged), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn set_status_by_type(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<TypeQuery>,
    Body(b): Body<PaymentStatusInput>,
) -> ApiResult<Json<PaymentChannelsChanged>> {
    auth.require(EDIT)?;
    let Some(kind) = q.channel_type.filter(|k| !k.trim().is_empty()) else {
        return Err(ApiError::invalid_field("channel.type", "validation.required"));
    };
    let r = state
        .payments()
        .set_store_channel_status(auth.ctx().request(pb::SetStoreChannelStatusRequest {
            id: 0,
            channel_type: kind,
            status: enum_field::<pb::ChannelStatus>("status", b.status.as_deref(), "validation.status")?,
        }))
        .await?
        .into_inner();
    Ok(Json(PaymentChannelsChanged { changed: r.changed }))
}

async fn current(state: &AppState, auth: &StoreAuth, id: i64) -> ApiResult<pb::StoreChannel> {
    Ok(state
        .payments()
        .get_store_channel(auth.ctx().request(pb::GetStoreChannelRequest { id }))
        .await?
        .into_inner()
        .store_channel
        .unwrap_or_default())
}

/// One payment account.
#[utoipa::path(get, path = "/payments/store-channels/{id}", tag = "payments", params(("id" = i64, Path)),
    responses((status = 200, body = StoreChannelBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn get_store_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<StoreChannelBody>> {
    auth.require(READ)?;
    Ok(Json(current(&state, &auth, id).await?.into()))
}

/// Changes a payment account (owner, or payment.storeChannel.*): only the fields given
/// change; `{"status": "inactive"}` sets its status.
#[utoipa::path(patch, path = "/payments/store-channels/{id}", tag = "payments", params(("id" = i64, Path)),
    request_body = StoreChannelInput,
    responses((status = 200, body = StoreChannelBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "account_number_duplicate"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_store_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<StoreChannelInput>,
) -> ApiResult<Json<StoreChannelBody>> {
    auth.require(EDIT)?;
    let input = b.over(current(&state, &auth, id).await?)?;
    let r = state
        .payments()
        .update_store_channel(auth.ctx().request(pb::UpdateStoreChannelRequest { id, store_channel: Some(input) }))
        .await?
        .into_inner();
    Ok(Json(r.store_channel.unwrap_or_default().into()))
}

/// Deletes a payment account no open bill points at (owner, or payment.storeChannel.*).
#[utoipa::path(delete, path = "/payments/store-channels/{id}", tag = "payments", params(("id" = i64, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "payment_channel_in_use: open bills point at it")),
    security(("bearer" = [])))]
async fn delete_store_channel(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    auth.require(EDIT)?;
    state.payments().delete_store_channel(auth.ctx().request(pb::DeleteStoreChannelRequest { id })).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The amount a QR asks for.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct QrQuery {
    /// Baht with at most two decimals; without it the QR lets the payer type the amount.
    #[param(value_type = Option<String>)]
    pub amount: Option<Decimal>,
}

/// A PromptPay QR.
#[derive(Debug, Serialize, ToSchema)]
pub struct QrBody {
    /// The EMVCo payload.
    pub payload: String,
    /// The QR as an SVG image.
    pub svg: String,
    /// The account's name.
    pub acc_name: String,
    /// The PromptPay id with all but its last four digits hidden.
    pub masked_id: String,
    /// The amount asked, baht ("" for a QR without one).
    pub amount: String,
}

/// The PromptPay QR of a PromptPay account, for an amount or none.
#[utoipa::path(get, path = "/payments/store-channels/{id}/promptpay-qr", tag = "payments",
    params(("id" = i64, Path), QrQuery),
    responses((status = 200, body = QrBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "payment_channel_not_promptpay"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn promptpay_qr(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Query(q): Query<QrQuery>,
) -> ApiResult<Json<QrBody>> {
    auth.require(READ)?;
    let amount = match &q.amount {
        None => None,
        Some(a) => Some(a.satang().ok_or_else(|| ApiError::invalid_field("amount", "validation.amount"))?),
    };
    let r = state
        .payments()
        .prompt_pay_qr(auth.ctx().request(pb::PromptPayQrRequest {
            store_channel_id: id,
            amount_satang: amount.unwrap_or(0),
            with_amount: amount.is_some(),
        }))
        .await?
        .into_inner();
    Ok(Json(QrBody {
        svg: qr_svg(&r.payload)?,
        payload: r.payload,
        acc_name: r.acc_name,
        masked_id: r.masked_id,
        amount: amount.map(crate::wire::baht).unwrap_or_default(),
    }))
}

/// A payload drawn as an SVG QR code (error correction M, as banking apps read it).
pub fn qr_svg(payload: &str) -> ApiResult<String> {
    let code = qrcode::QrCode::with_error_correction_level(payload.as_bytes(), qrcode::EcLevel::M).map_err(|e| {
        tracing::error!(error = %e, "could not draw a QR code");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, Code::Internal)
    })?;
    Ok(code
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(240, 240)
        .quiet_zone(true)
        .dark_color(qrcode::render::svg::Color("#000000"))
        .light_color(qrcode::render::svg::Color("#ffffff"))
        .build())
}
