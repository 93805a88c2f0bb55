//! The API's errors: a stable code, a message key the app translates, an English message
//! for API users, and field errors. 401 and 403 have distinct codes; a 500 shows nothing of
//! its cause.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use bo_kit::error::{FieldError, Kind};
use bo_kit::Code;
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
    /// Stable code, e.g. `customer_phone_duplicate`: one of the `ErrorCode` schema's (kept a
    /// plain string here, so the generated clients hold the list once).
    #[schema(value_type = String)]
    pub code: Code,
    /// Message key the app translates, e.g. `error.customer_phone_duplicate`.
    pub message_key: String,
    /// The message in English.
    pub message: String,
    /// Broken rules per field (`code` is a message key such as `validation.phone_digits`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldErrorBody>,
}

/// The `ErrorCode` schema: every code's wire name (see [`Code`]), from which the app's
/// union of codes is generated.
pub fn error_code_schema() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some("A stable error code; `message` carries its English text, the app its Thai and English."))
        .enum_values(Some(Code::ALL.iter().map(|c| c.as_str())))
        .build()
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
    pub code: Code,
    /// Field errors.
    pub fields: Vec<FieldError>,
    /// A saved answer to replay instead (an `Idempotency-Key` repeat whose permission check
    /// passed): see [`crate::idempotency`].
    pub replay: Option<crate::idempotency::Replay>,
}

impl ApiError {
    /// An error with a status and code.
    pub fn new(status: StatusCode, code: Code) -> Self {
        Self { status, code, fields: Vec::new(), replay: None }
    }
    /// The saved answer of a repeated `Idempotency-Key`, answered instead of acting again.
    pub fn replay(replay: crate::idempotency::Replay) -> Self {
        Self { status: StatusCode::OK, code: Code::Internal, fields: Vec::new(), replay: Some(replay) }
    }
    /// A refusal of one item of a bulk answer (its `reason`): 404 for `not_found`, else 409.
    pub fn refused(reason: &str, not_found: Code) -> Self {
        match Code::parse(reason) {
            Some(code) if code == not_found => Self::new(StatusCode::NOT_FOUND, code),
            Some(code) => Self::new(StatusCode::CONFLICT, code),
            None => bo_kit::Error::internal(anyhow::anyhow!("a service answered an unknown reason {reason:?}")).into(),
        }
    }
    /// 401.
    pub fn unauthenticated(code: Code) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, code)
    }
    /// 403.
    pub fn forbidden() -> Self {
        Self::new(StatusCode::FORBIDDEN, Code::Forbidden)
    }
    /// 400.
    pub fn bad_request(code: Code) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code)
    }
    /// 422 with one field error.
    pub fn invalid_field(field: &str, code: &str) -> Self {
        Self {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            code: Code::ValidationFailed,
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
            Kind::Internal => Code::Internal,
            _ => e.code,
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
            return ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, Code::PayloadTooLarge);
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
                message: self.code.english().to_string(),
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
        assert_eq!(e.code, Code::Internal);
        assert_eq!(e.code.english(), "Something went wrong, please try later");
    }

    #[test]
    fn a_message_too_large_between_services_is_413() {
        let e: ApiError = tonic::Status::out_of_range("Error, decoded message length too large").into();
        assert_eq!((e.status, e.code.as_str()), (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large"));
    }

    #[test]
    fn statuses_follow_kinds() {
        let e: ApiError = bo_kit::Error::conflict(Code::CustomerPhoneDuplicate).into();
        assert_eq!(e.status, StatusCode::CONFLICT);
        assert_eq!(e.code.english(), "This phone number already exists, please edit");
        let e: ApiError = bo_kit::Error::invalid_field("tel", "validation.phone_digits").into();
        assert_eq!(e.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
}
