//! The API's errors: a stable code, a message key the app translates, an English message
//! for API users, and field errors. 401 and 403 have distinct codes; a 500 shows nothing of
//! its cause.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use bo_kit::error::{FieldError, Kind};
use serde::Serialize;
use utoipa::ToSchema;

/// The error body: `{"error": {...}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// One error.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable code, e.g. `customer_phone_duplicate`.
    pub code: String,
    /// Message key the app translates, e.g. `error.customer_phone_duplicate`.
    pub message_key: String,
    /// The message in English.
    pub message: String,
    /// Broken rules per field (`code` is a message key such as `validation.phone_digits`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldErrorBody>,
}

/// A broken rule.
#[derive(Debug, Serialize, ToSchema)]
pub struct FieldErrorBody {
    /// The field, snake_case.
    pub field: String,
    /// Message key.
    pub code: String,
}

/// An error answered by the API.
#[derive(Debug)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// Stable code.
    pub code: String,
    /// Field errors.
    pub fields: Vec<FieldError>,
    /// A saved answer to replay instead (an `Idempotency-Key` repeat whose permission check
    /// passed): see [`crate::idempotency`].
    pub replay: Option<crate::idempotency::Replay>,
}

/// The English text of each code (SPEC §8); the app has its own Thai and English.
pub fn message_for(code: &str) -> &'static str {
    match code {
        "unauthenticated" | "token_expired" | "session_ended" => "Your session expired, please log in again",
        "membership_changed" => "Your rights in this store have changed; the page will load them again",
        "invalid_credentials" => "The email or password is incorrect",
        "forbidden" | "not_a_member" | "membership_inactive" => "You have no right, contact the shop owner",
        "store_mismatch" => "You have no right, contact the shop owner",
        "too_many_attempts" => "Too many sign-in attempts, please wait a minute",
        "route_not_found" => "There is no such API route",
        "method_not_allowed" => "This API route does not accept this method",
        "validation_failed" => "Some fields are not valid",
        "invalid_body" => "The request body could not be read",
        "invalid_query" => "The query parameters could not be read",
        "invalid_path" => "The address contains an invalid id",
        "unsupported_media_type" => "Send JSON or form-encoded data",
        "payload_too_large" => "The request is too large",
        "event_too_large" => "This record is too large to save; make it smaller",
        "customer_not_found" => "The customer was not found",
        "customer_phone_duplicate" => "This phone number already exists, please edit",
        "address_not_found" => "The address was not found",
        "address_last_cannot_delete" => "A customer must keep at least one address",
        "store_not_found" => "The store was not found",
        "unit_not_found" => "The unit of measurement was not found",
        "unit_name_duplicate" => "This unit name already exists in the store",
        "safety_stock_not_set" => "No safety stock has been set for the store yet",
        "user_store_not_found" => "The store membership was not found",
        "user_email_taken" => "This email already has an account",
        "team_own_rights" => "You cannot change your own rights; ask the shop owner",
        "team_owner_only" => "Only an owner can change an owner or make one",
        "team_last_owner" => "The store must keep at least one active owner",
        "team_role_level" => "This role does not go with this permission; a custom role is for admins and cashiers",
        "team_profile_own_only" => "Only the person themself can change their name and phone",
        "role_not_found" => "The role was not found",
        "role_in_use" => "Members or invitations hold this role; choose a role to move them to",
        "role_built_in" => "The owner, admin and cashier roles cannot be changed",
        "role_limit_reached" => "The store has as many roles as it may keep (50)",
        "role_beyond_own_rights" => "You can only give rights you hold yourself",
        "invitation_not_found" => "This invitation link is not valid",
        "invitation_expired" => "This invitation link has expired; ask the shop for a new one",
        "invitation_used" => "This invitation link has already been used",
        "invitation_deleted" => "This invitation was withdrawn by the shop",
        "invitation_limit_reached" => "The store has too many pending invitations (100); delete some first",
        "already_member" => "You already belong to this store",
        "idempotency_key_reused" => "This Idempotency-Key was used with a different request",
        "idempotency_in_progress" => "A request with this Idempotency-Key is still running",
        "idempotency_key_invalid" => "The Idempotency-Key must be 1 to 255 visible characters",
        "service_unavailable" => "Cannot fetch data, please try later",
        "product_not_found" => "The product was not found",
        "sku_not_found" => "The SKU was not found",
        "code_taken" => "This code is already used in the store",
        "product_has_stock" => "A product with stock cannot be deleted",
        "sku_has_stock" => "A SKU with stock cannot be removed",
        "insufficient_stock" => "Stock is not enough",
        "reservation_mismatch" => "The stock does not match what the order holds; nothing was changed",
        "stock_below_reserved" => "Stock cannot go below what is reserved for orders",
        "warehouse_not_found" => "The warehouse was not found",
        "import_wrong_template" => "Wrong file, please upload valid file",
        "inadequate_goods_not_found" => "Inadequate goods aren't found",
        "photo_not_found" => "The photo was not found",
        "photo_too_many" => "Too many photos for this product",
        "photo_too_few" => {
            "A product keeps at least the minimum number of photos; add another before removing this one"
        }
        "account_number_duplicate" => "Account Number has already existed.",
        "payment_channel_in_use" => {
            "Open bills still point at this account; it cannot be deleted until they are paid or closed"
        }
        "payment_channel_limit_reached" => "The store has as many payment accounts as it may",
        "payment_channel_not_found" => "The payment account was not found",
        "payment_channel_not_promptpay" => "Only a PromptPay account has a PromptPay QR",
        "logistic_inter_duplicate" => "Only one international shipping per warehouse per provider",
        "logistic_limit_reached" => "Cannot create: exceeded the set number of shipping channels",
        "cod_account_missing" => "Missing COD number: add the COD account for this provider first",
        "cod_provider_duplicate" => "The store already has a COD account with this provider",
        "logistic_channel_not_found" => "The shipping channel was not found",
        "cod_provider_not_found" => "The COD account was not found",
        "tracking_range_overlap" => "This range overlaps a range the store already has",
        "tracking_range_limit_reached" => "The store has as many tracking-number ranges as it may",
        "carrier_unreachable" => "Cannot reach the carrier, please try again",
        "carrier_auth_failed" => "The carrier did not accept the key",
        "carrier_rejected" => "The carrier refused the request",
        "carrier_bad_answer" => "The carrier answered something we cannot read, please try again",
        "webhook_unknown" => "Unknown webhook",
        "carrier_account_missing" => "Connect the carrier account first",
        "shipment_not_found" => "The shipment was not found",
        "tracking_numbers_exhausted" => "No tracking numbers left for this carrier; register a new range",
        _ => "Something went wrong, please try later",
    }
}

impl ApiError {
    /// An error with a status and code.
    pub fn new(status: StatusCode, code: &str) -> Self {
        Self { status, code: code.to_string(), fields: Vec::new(), replay: None }
    }
    /// 401.
    pub fn unauthenticated(code: &str) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, code)
    }
    /// 403.
    pub fn forbidden() -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden")
    }
    /// 400.
    pub fn bad_request(code: &str) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code)
    }
    /// 422 with one field error.
    pub fn invalid_field(field: &str, code: &str) -> Self {
        Self {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            code: "validation_failed".into(),
            fields: vec![FieldError::new(field, code)],
            replay: None,
        }
    }
}

impl From<bo_kit::Error> for ApiError {
    fn from(e: bo_kit::Error) -> Self {
        let status = match e.kind {
            Kind::NotFound => StatusCode::NOT_FOUND,
            Kind::Invalid => StatusCode::UNPROCESSABLE_ENTITY,
            Kind::Conflict | Kind::FailedPrecondition => StatusCode::CONFLICT,
            Kind::Unauthenticated => StatusCode::UNAUTHORIZED,
            Kind::PermissionDenied => StatusCode::FORBIDDEN,
            Kind::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
            Kind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            Kind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        };
        if matches!(e.kind, Kind::Internal | Kind::Unavailable) {
            tracing::error!(code = %e.code, error = ?e.source, "request failed");
        }
        let code = match e.kind {
            Kind::Internal => "internal".to_string(),
            _ => e.code.to_string(),
        };
        Self { status, code, fields: e.fields, replay: None }
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> Self {
        bo_kit::Error::internal(e).into()
    }
}

impl From<tonic::Status> for ApiError {
    fn from(s: tonic::Status) -> Self {
        // tonic's own refusal of a message over its size limit.
        if s.code() == tonic::Code::OutOfRange && s.metadata().get("bo-error-code").is_none() {
            tracing::warn!(message = %s.message(), "a message between services was too large");
            return ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large");
        }
        bo_kit::Error::from_status(&s).into()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let Some(replay) = self.replay {
            return replay.into_response();
        }
        let body = ErrorBody {
            error: ErrorDetail {
                message_key: format!("error.{}", self.code),
                message: message_for(&self.code).to_string(),
                code: self.code,
                fields: self.fields.into_iter().map(|f| FieldErrorBody { field: f.field, code: f.code }).collect(),
            },
        };
        let mut res = (self.status, Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            res.headers_mut().insert("www-authenticate", "Bearer".parse().expect("static header"));
        }
        res
    }
}

/// Result for handlers.
pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_errors_say_nothing_of_their_cause() {
        let e: ApiError = bo_kit::Error::internal(anyhow::anyhow!("db password is hunter2")).into();
        assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(e.code, "internal");
        assert_eq!(message_for(&e.code), "Something went wrong, please try later");
    }

    #[test]
    fn a_message_too_large_between_services_is_413() {
        let e: ApiError = tonic::Status::out_of_range("Error, decoded message length too large").into();
        assert_eq!((e.status, e.code.as_str()), (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large"));
    }

    #[test]
    fn statuses_follow_kinds() {
        let e: ApiError = bo_kit::Error::conflict("customer_phone_duplicate").into();
        assert_eq!(e.status, StatusCode::CONFLICT);
        assert_eq!(message_for("customer_phone_duplicate"), "This phone number already exists, please edit");
        let e: ApiError = bo_kit::Error::invalid_field("tel", "validation.phone_digits").into();
        assert_eq!(e.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
}
