//! The store's pictures and the owner's identity (SPEC §2 Settings, §3 Receipt settings,
//! Identity verification, §5, §7): the logo (owner, as store edit), the receipt's header and
//! footer pictures and footer text (read by any member, changed by the owner or `store.*`),
//! and the identity verification with its two photos, which only the owner submits and sees.
//!
//! Logo and receipt pictures have unguessable names and are served without a token, as a
//! shop's receipts show them; identity photos are served only to the owner's token.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_kit::Code;
use bo_proto::stores::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::idempotency::{self, Deferred};
use crate::perms::{keys, Access};
use crate::state::AppState;
use crate::uploads::Staged;
use crate::wire::{Body, Path};

/// One picture's upload: 5 MB and the form around it.
const MAX_PICTURE_UPLOAD: usize = bo_kit::images::MAX_BYTES + 64 * 1024;
/// The identity form: two pictures and its fields.
const MAX_IDENTITY_UPLOAD: usize = 2 * bo_kit::images::MAX_BYTES + 64 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(set_logo).layer(axum::extract::DefaultBodyLimit::max(MAX_PICTURE_UPLOAD)))
        .routes(routes!(remove_logo))
        .routes(routes!(picture_file))
        .routes(routes!(get_receipt, set_receipt_text))
        .routes(routes!(set_receipt_picture).layer(axum::extract::DefaultBodyLimit::max(MAX_PICTURE_UPLOAD)))
        .routes(routes!(remove_receipt_picture))
        .routes(routes!(get_identity))
        .routes(routes!(submit_identity).layer(axum::extract::DefaultBodyLimit::max(MAX_IDENTITY_UPLOAD)))
        .routes(routes!(identity_photo))
}

/// The logo and the identity: the owner role only (SPEC §6 store edit; decision 0013).
const OWNER: Access = Access { roles: &["owner"], perms: &[] };
/// Reading the receipt settings: any member of the store.
const RECEIPT_READ: Access = Access { roles: &[], perms: &[] };
/// Changing them: the owner role, or store.*.
const RECEIPT_EDIT: Access = Access { roles: &["owner"], perms: &[keys::STORE_ALL] };

/// Where a store picture is served ('' for none).
pub fn picture_url(name: &str) -> String {
    if name.is_empty() {
        String::new()
    } else {
        format!("/api/stores/pictures/{name}")
    }
}

/// The multipart form of one picture.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct PictureForm {
    /// The picture (.jpg, .jpeg or .png by content, 5 MB at most).
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
}

/// Reads the single `file` of a picture form into staging.
async fn stage_one(state: &AppState, auth: &StoreAuth, mut form: axum::extract::Multipart) -> ApiResult<Staged> {
    let too_large = || ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, Code::PayloadTooLarge);
    let mut staged = Staged::new(state.files.clone());
    while let Some(field) = form.next_field().await.map_err(|_| too_large())? {
        if matches!(field.name(), Some("file" | "files")) && staged.is_empty() {
            staged.stage(auth.store_id, field, bo_kit::images::MAX_BYTES as u64, "file", "photo_too_large").await?;
        }
    }
    if staged.is_empty() {
        return Err(ApiError::invalid_field("file", "validation.photo_required"));
    }
    Ok(staged)
}

async fn set_picture(state: &AppState, auth: &StoreAuth, slot: &str, upload: String) -> ApiResult<String> {
    let r = state
        .stores()
        .set_store_picture(auth.ctx().request(pb::SetStorePictureRequest { slot: slot.into(), upload }))
        .await?
        .into_inner();
    Ok(r.name)
}

/// The store's logo.
#[derive(Debug, Serialize, ToSchema)]
pub struct LogoBody {
    /// Where the logo is served ('' for none).
    pub logo_url: String,
}

/// Sets the store's logo (owner only). The picture is checked by content (JPEG or PNG, 5 MB,
/// dimensions bounded) and kept without its metadata.
#[utoipa::path(post, path = "/stores/{id}/logo", tag = "stores", params(("id" = i64, Path)),
    request_body(content = PictureForm, content_type = "multipart/form-data"),
    responses((status = 200, body = LogoBody), (status = 403, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn set_logo(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    key: Option<axum::Extension<Deferred>>,
    form: axum::extract::Multipart,
) -> ApiResult<axum::response::Response> {
    auth.require_in(id, OWNER)?;
    let mut staged = stage_one(&state, &auth, form).await?;
    let digest = staged.digest();
    let act = async {
        let upload = staged.hand_over().pop().unwrap_or_default();
        let name = set_picture(&state, &auth, "logo", upload).await?;
        Ok(Json(LogoBody { logo_url: picture_url(&name) }))
    };
    Ok(idempotency::deferred(&state, &auth, key.map(|k| k.0), &digest, act).await)
}

/// Takes the store's logo out (owner only).
#[utoipa::path(delete, path = "/stores/{id}/logo", tag = "stores", params(("id" = i64, Path)),
    responses((status = 204), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn remove_logo(State(state): State<AppState>, auth: StoreAuth, Path(id): Path<i64>) -> ApiResult<StatusCode> {
    auth.require_in(id, OWNER)?;
    set_picture(&state, &auth, "logo", String::new()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A store's logo or receipt picture. Names are unguessable and the pictures public, as on
/// a shop's receipts, so `<img>` tags load them without a token.
#[utoipa::path(get, path = "/stores/pictures/{store}/{file}", tag = "stores",
    params(("store" = i64, Path), ("file" = String, Path)),
    responses((status = 200, description = "the picture", content_type = "image/png"), (status = 404, body = ErrorBody)))]
async fn picture_file(
    State(state): State<AppState>,
    Path((store, file)): Path<(i64, String)>,
) -> ApiResult<axum::response::Response> {
    let r = state
        .stores()
        .get_picture_file(state.system().request(pb::GetPictureFileRequest { name: format!("{store}/{file}") }))
        .await?
        .into_inner();
    serve(&state, r, "public, max-age=31536000, immutable").await
}

/// Streams a stored picture.
async fn serve(
    state: &AppState,
    r: pb::GetPictureFileResponse,
    cache: &'static str,
) -> ApiResult<axum::response::Response> {
    crate::uploads::serve(&state.files, r.key, &r.content_type, cache, Code::PictureNotFound).await
}

/// What a receipt carries besides the sale.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReceiptBody {
    /// The header picture ('' for none).
    pub header_photo_url: String,
    /// The footer picture ('' for none).
    pub footer_photo_url: String,
    /// Footer text (up to 500 characters, 10 lines).
    pub footer_text: String,
    /// Who last changed the text (0: never written).
    pub updated_by: i64,
    /// When the text was last changed ('' for never).
    pub updated_at: String,
}

impl From<pb::ReceiptSettings> for ReceiptBody {
    fn from(r: pb::ReceiptSettings) -> Self {
        ReceiptBody {
            header_photo_url: picture_url(&r.header_photo),
            footer_photo_url: picture_url(&r.footer_photo),
            footer_text: r.footer_text,
            updated_by: r.updated_by,
            updated_at: timestamp_to_rfc3339(r.update_time.as_ref()),
        }
    }
}

async fn receipt(state: &AppState, auth: &StoreAuth) -> ApiResult<Json<ReceiptBody>> {
    let r =
        state.stores().get_receipt_settings(auth.ctx().request(pb::GetReceiptSettingsRequest {})).await?.into_inner();
    Ok(Json(r.settings.unwrap_or_default().into()))
}

/// The receipt settings: header and footer pictures and the footer text.
#[utoipa::path(get, path = "/stores/{id}/settings/receipt", tag = "settings", params(("id" = i64, Path)),
    responses((status = 200, body = ReceiptBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn get_receipt(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<ReceiptBody>> {
    auth.require_in(id, RECEIPT_READ)?;
    receipt(&state, &auth).await
}

/// A receipt's footer text.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ReceiptTextInput {
    /// Up to 500 characters and 10 lines; empty for none.
    pub footer_text: String,
}

/// Writes the receipt's footer text (owner, or store.*).
#[utoipa::path(put, path = "/stores/{id}/settings/receipt", tag = "settings", params(("id" = i64, Path)),
    request_body = ReceiptTextInput,
    responses((status = 200, body = ReceiptBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn set_receipt_text(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(input): Body<ReceiptTextInput>,
) -> ApiResult<Json<ReceiptBody>> {
    auth.require_in(id, RECEIPT_EDIT)?;
    let r = state
        .stores()
        .set_receipt_text(auth.ctx().request(pb::SetReceiptTextRequest { footer_text: input.footer_text }))
        .await?
        .into_inner();
    Ok(Json(r.settings.unwrap_or_default().into()))
}

fn receipt_slot(slot: &str) -> ApiResult<&'static str> {
    match slot {
        "header" => Ok("receipt_header"),
        "footer" => Ok("receipt_footer"),
        _ => Err(ApiError::new(StatusCode::NOT_FOUND, Code::NotFound)),
    }
}

/// Sets the receipt's header or footer picture (owner, or store.*).
#[utoipa::path(post, path = "/stores/{id}/settings/receipt/{slot}", tag = "settings",
    params(("id" = i64, Path), ("slot" = String, Path, description = "header or footer")),
    request_body(content = PictureForm, content_type = "multipart/form-data"),
    responses((status = 200, body = ReceiptBody), (status = 403, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn set_receipt_picture(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, slot)): Path<(i64, String)>,
    key: Option<axum::Extension<Deferred>>,
    form: axum::extract::Multipart,
) -> ApiResult<axum::response::Response> {
    auth.require_in(id, RECEIPT_EDIT)?;
    let slot = receipt_slot(&slot)?;
    let mut staged = stage_one(&state, &auth, form).await?;
    let digest = staged.digest();
    let act = async {
        let upload = staged.hand_over().pop().unwrap_or_default();
        set_picture(&state, &auth, slot, upload).await?;
        receipt(&state, &auth).await
    };
    Ok(idempotency::deferred(&state, &auth, key.map(|k| k.0), &digest, act).await)
}

/// Takes the receipt's header or footer picture out (owner, or store.*).
#[utoipa::path(delete, path = "/stores/{id}/settings/receipt/{slot}", tag = "settings",
    params(("id" = i64, Path), ("slot" = String, Path, description = "header or footer")),
    responses((status = 200, body = ReceiptBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn remove_receipt_picture(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, slot)): Path<(i64, String)>,
) -> ApiResult<Json<ReceiptBody>> {
    auth.require_in(id, RECEIPT_EDIT)?;
    let slot = receipt_slot(&slot)?;
    set_picture(&state, &auth, slot, String::new()).await?;
    receipt(&state, &auth).await
}

/// The shop owner's identity verification.
#[derive(Debug, Serialize, ToSchema)]
pub struct IdentityBody {
    /// pending (nothing uploaded), submitted (awaiting approval) or approved.
    pub status: String,
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: String,
    /// Phone, digits only.
    pub tel: String,
    /// Email.
    pub email: String,
    /// Address line.
    pub address: String,
    /// Sub-district.
    pub sub_district: String,
    /// District.
    pub district: String,
    /// Province.
    pub state_province: String,
    /// Postcode.
    pub postcode: String,
    /// An ID card photo is kept (read it with the owner's token at `/stores/{id}/identify/photos/id_card`).
    pub has_id_card_photo: bool,
    /// A photo holding the card is kept (`/stores/{id}/identify/photos/holding`).
    pub has_holding_photo: bool,
    /// When it was submitted ('' for never).
    pub submitted_at: String,
    /// When it was approved ('' for not yet).
    pub approved_at: String,
}

impl From<pb::Identity> for IdentityBody {
    fn from(i: pb::Identity) -> Self {
        IdentityBody {
            status: crate::wire::word::<pb::IdentityStatus>(i.status),
            first_name: i.first_name,
            last_name: i.last_name,
            tel: i.tel,
            email: i.email,
            address: i.address,
            sub_district: i.sub_district,
            district: i.district,
            state_province: i.state_province,
            postcode: i.postcode,
            has_id_card_photo: i.has_id_card_photo,
            has_holding_photo: i.has_holding_photo,
            submitted_at: timestamp_to_rfc3339(i.submit_time.as_ref()),
            approved_at: timestamp_to_rfc3339(i.approve_time.as_ref()),
        }
    }
}

/// Where the store stands with identity verification, and what was submitted (owner only).
#[utoipa::path(get, path = "/stores/{id}/identify", tag = "settings", params(("id" = i64, Path)),
    responses((status = 200, body = IdentityBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn get_identity(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<IdentityBody>> {
    auth.require_in(id, OWNER)?;
    let r = state.stores().get_identity(auth.ctx().request(pb::GetIdentityRequest {})).await?.into_inner();
    Ok(Json(r.identity.unwrap_or_default().into()))
}

/// The multipart form of an identity submission.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct IdentityForm {
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: String,
    /// Phone, 9 or 10 digits and nothing else.
    pub tel: String,
    /// Email.
    pub email: String,
    /// Address line.
    pub address: String,
    /// Sub-district.
    pub sub_district: String,
    /// District.
    pub district: String,
    /// Province.
    pub state_province: String,
    /// Postcode.
    pub postcode: String,
    /// The ID card photo (.jpg, .jpeg or .png, 5 MB); may be left out to keep an earlier one.
    #[schema(value_type = String, format = Binary)]
    pub id_card_photo: Vec<u8>,
    /// A photo of the owner holding the card; may be left out to keep an earlier one.
    #[schema(value_type = String, format = Binary)]
    pub holding_photo: Vec<u8>,
}

/// Submits the owner's details and the two photos for approval (owner only). Every field and
/// both photos are required (a photo kept from an earlier submission counts); once approved,
/// the identity is settled.
#[utoipa::path(post, path = "/stores/{id}/identify/submit", tag = "settings", params(("id" = i64, Path)),
    request_body(content = IdentityForm, content_type = "multipart/form-data"),
    responses((status = 200, body = IdentityBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "identity_approved"), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn submit_identity(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    key: Option<axum::Extension<Deferred>>,
    mut form: axum::extract::Multipart,
) -> ApiResult<axum::response::Response> {
    auth.require_in(id, OWNER)?;
    let too_large = || ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, Code::PayloadTooLarge);
    let mut card = Staged::new(state.files.clone());
    let mut holding = Staged::new(state.files.clone());
    let mut req = pb::SubmitIdentityRequest::default();
    let mut texts = Staged::new(state.files.clone());
    let max = bo_kit::images::MAX_BYTES as u64;
    while let Some(field) = form.next_field().await.map_err(|_| too_large())? {
        let name = field.name().unwrap_or("").to_string();
        match name.as_str() {
            "id_card_photo" if card.is_empty() => {
                card.stage(auth.store_id, field, max, &name, "photo_too_large").await?
            }
            "holding_photo" if holding.is_empty() => {
                holding.stage(auth.store_id, field, max, &name, "photo_too_large").await?
            }
            "first_name" | "last_name" | "tel" | "email" | "address" | "sub_district" | "district"
            | "state_province" | "postcode" => {
                let text = field.text().await.map_err(|_| ApiError::bad_request(Code::InvalidBody))?;
                if text.chars().count() > 500 {
                    return Err(ApiError::invalid_field(&name, "validation.too_long"));
                }
                texts.text(&name, &text);
                let slot = match name.as_str() {
                    "first_name" => &mut req.first_name,
                    "last_name" => &mut req.last_name,
                    "tel" => &mut req.tel,
                    "email" => &mut req.email,
                    "address" => &mut req.address,
                    "sub_district" => &mut req.sub_district,
                    "district" => &mut req.district,
                    "state_province" => &mut req.state_province,
                    _ => &mut req.postcode,
                };
                *slot = text;
            }
            _ => {}
        }
    }
    let digest = [texts.digest(), card.digest(), holding.digest()].concat();
    let act = async {
        req.id_card_upload = card.hand_over().pop().unwrap_or_default();
        req.holding_upload = holding.hand_over().pop().unwrap_or_default();
        let r = state.stores().submit_identity(auth.ctx().request(req)).await?.into_inner();
        Ok(Json(IdentityBody::from(r.identity.unwrap_or_default())))
    };
    Ok(idempotency::deferred(&state, &auth, key.map(|k| k.0), &digest, act).await)
}

/// An identity photo, to its owner only (`kind`: id_card or holding). Never cached.
#[utoipa::path(get, path = "/stores/{id}/identify/photos/{kind}", tag = "settings",
    params(("id" = i64, Path), ("kind" = String, Path, description = "id_card or holding")),
    responses((status = 200, description = "the photo", content_type = "image/jpeg"), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn identity_photo(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, kind)): Path<(i64, String)>,
) -> ApiResult<axum::response::Response> {
    auth.require_in(id, OWNER)?;
    let r =
        state.stores().get_identity_photo(auth.ctx().request(pb::GetIdentityPhotoRequest { kind })).await?.into_inner();
    serve(&state, r, "private, no-store").await
}
