//! One error type for every service, carried over gRPC as a `tonic::Status` with a stable
//! code in the `bo-error-code` metadata and field errors as JSON in the details.

use serde::{Deserialize, Serialize};
use tonic::{Code as GrpcCode, Status};

use crate::Code;

/// The metadata key that carries the stable error code.
pub const ERROR_CODE_KEY: &str = "bo-error-code";

/// Which family an error belongs to; decides the gRPC code and the HTTP status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The record does not exist (in this store).
    NotFound,
    /// The input breaks a rule; `fields` says which.
    Invalid,
    /// The input clashes with an existing record.
    Conflict,
    /// The caller is not signed in, or the token is bad.
    Unauthenticated,
    /// The caller is signed in but lacks the right.
    PermissionDenied,
    /// The record is in a state that refuses the action.
    FailedPrecondition,
    /// Too many requests.
    TooManyRequests,
    /// A service could not be reached.
    Unavailable,
    /// Anything else; details stay in the logs.
    Internal,
}

/// A rule broken by one field: `code` is a message key the app translates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldError {
    /// The field, in snake_case as on the wire.
    pub field: String,
    /// The message key, e.g. `validation.phone_digits`.
    pub code: String,
}

impl FieldError {
    /// A field error.
    pub fn new(field: impl Into<String>, code: impl Into<String>) -> Self {
        Self { field: field.into(), code: code.into() }
    }
}

/// The error every layer returns.
#[derive(Debug, thiserror::Error)]
#[error("{kind:?}: {code}")]
pub struct Error {
    /// The family.
    pub kind: Kind,
    /// The stable code, e.g. [`Code::CustomerPhoneDuplicate`].
    pub code: Code,
    /// Field errors for `Kind::Invalid`.
    pub fields: Vec<FieldError>,
    /// The cause, logged and never sent to a client.
    #[source]
    pub source: Option<anyhow::Error>,
}

/// Result with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error of `kind` with `code`.
    pub fn new(kind: Kind, code: Code) -> Self {
        Self { kind, code, fields: Vec::new(), source: None }
    }
    /// Not found.
    pub fn not_found(code: Code) -> Self {
        Self::new(Kind::NotFound, code)
    }
    /// A clash with an existing record.
    pub fn conflict(code: Code) -> Self {
        Self::new(Kind::Conflict, code)
    }
    /// Not signed in.
    pub fn unauthenticated(code: Code) -> Self {
        Self::new(Kind::Unauthenticated, code)
    }
    /// Not allowed.
    pub fn permission_denied(code: Code) -> Self {
        Self::new(Kind::PermissionDenied, code)
    }
    /// Refused in the record's state.
    pub fn failed_precondition(code: Code) -> Self {
        Self::new(Kind::FailedPrecondition, code)
    }
    /// Broken rules, one or more fields.
    pub fn invalid(fields: Vec<FieldError>) -> Self {
        Self { kind: Kind::Invalid, code: Code::ValidationFailed, fields, source: None }
    }
    /// One broken rule.
    pub fn invalid_field(field: &str, code: &str) -> Self {
        Self::invalid(vec![FieldError::new(field, code)])
    }
    /// An internal failure with its cause.
    pub fn internal(source: impl Into<anyhow::Error>) -> Self {
        Self { kind: Kind::Internal, code: Code::Internal, fields: Vec::new(), source: Some(source.into()) }
    }

    /// The gRPC code for this error's kind.
    pub fn grpc_code(&self) -> GrpcCode {
        match self.kind {
            Kind::NotFound => GrpcCode::NotFound,
            Kind::Invalid => GrpcCode::InvalidArgument,
            Kind::Conflict => GrpcCode::AlreadyExists,
            Kind::Unauthenticated => GrpcCode::Unauthenticated,
            Kind::PermissionDenied => GrpcCode::PermissionDenied,
            Kind::FailedPrecondition => GrpcCode::FailedPrecondition,
            Kind::TooManyRequests => GrpcCode::ResourceExhausted,
            Kind::Unavailable => GrpcCode::Unavailable,
            Kind::Internal => GrpcCode::Internal,
        }
    }

    /// Reads an error back from a status received from another service.
    pub fn from_status(status: &Status) -> Self {
        // A code this build does not know (a newer service's) reads as its kind's generic one.
        let code = status.metadata().get(ERROR_CODE_KEY).and_then(|v| v.to_str().ok()).and_then(Code::parse);
        let kind = match status.code() {
            GrpcCode::NotFound => Kind::NotFound,
            GrpcCode::InvalidArgument => Kind::Invalid,
            GrpcCode::AlreadyExists => Kind::Conflict,
            GrpcCode::Unauthenticated => Kind::Unauthenticated,
            GrpcCode::PermissionDenied => Kind::PermissionDenied,
            GrpcCode::FailedPrecondition => Kind::FailedPrecondition,
            GrpcCode::ResourceExhausted => Kind::TooManyRequests,
            GrpcCode::Unavailable | GrpcCode::DeadlineExceeded | GrpcCode::Cancelled => Kind::Unavailable,
            _ => Kind::Internal,
        };
        let code = code.unwrap_or(match kind {
            Kind::Unavailable => Code::ServiceUnavailable,
            _ => Code::Internal,
        });
        let fields = serde_json::from_slice(status.details()).unwrap_or_default();
        let source = (kind == Kind::Internal || kind == Kind::Unavailable)
            .then(|| anyhow::anyhow!("{}: {}", status.code(), status.message()));
        Self { kind, code, fields, source }
    }
}

impl From<Error> for Status {
    fn from(e: Error) -> Status {
        if e.kind == Kind::Internal {
            // The cause stays here; the caller sees only the code.
            tracing::error!(error = ?e.source, "internal error");
        }
        let details = if e.fields.is_empty() {
            bytes::Bytes::new()
        } else {
            serde_json::to_vec(&e.fields).unwrap_or_default().into()
        };
        let mut status = Status::with_details(e.grpc_code(), e.code.as_str(), details);
        status.metadata_mut().insert(ERROR_CODE_KEY, tonic::metadata::MetadataValue::from_static(e.code.as_str()));
        status
    }
}

impl From<Status> for Error {
    fn from(s: Status) -> Self {
        Error::from_status(&s)
    }
}

impl From<sqlx::Error> for Error {
    fn from(e: sqlx::Error) -> Self {
        Error::internal(anyhow::anyhow!(describe_db_error(&e)))
    }
}

/// A database error as it may be logged: a database's own message and details quote the
/// row (a unique violation names the phone number it clashed on), so only the error code,
/// the constraint and the table are kept.
pub fn describe_db_error(e: &sqlx::Error) -> String {
    match e {
        sqlx::Error::Database(db) => format!(
            "database error {} ({:?}) on constraint {} of table {}",
            db.code().as_deref().unwrap_or("?"),
            db.kind(),
            db.constraint().unwrap_or("-"),
            db.table().unwrap_or("-"),
        ),
        other => other.to_string(),
    }
}

impl From<anyhow::Error> for Error {
    fn from(e: anyhow::Error) -> Self {
        Error::internal(e)
    }
}

/// True when a database error is a unique-constraint violation (both dialects).
pub fn is_unique_violation(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(db) => {
            db.kind() == sqlx::error::ErrorKind::UniqueViolation
                || db.code().is_some_and(|c| c == "23505" || c == "2067" || c == "1555")
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_status() {
        let e = Error::invalid(vec![FieldError::new("tel", "validation.phone_digits")]);
        let back = Error::from_status(&Status::from(e));
        assert_eq!(back.kind, Kind::Invalid);
        assert_eq!(back.code, Code::ValidationFailed);
        assert_eq!(back.fields, vec![FieldError::new("tel", "validation.phone_digits")]);

        let back = Error::from_status(&Status::from(Error::conflict(Code::CustomerPhoneDuplicate)));
        assert_eq!(back.kind, Kind::Conflict);
        assert_eq!(back.code, Code::CustomerPhoneDuplicate);
    }

    #[test]
    fn internal_errors_hide_their_cause() {
        let status = Status::from(Error::internal(anyhow::anyhow!("password=hunter2 at db")));
        assert_eq!(status.code(), GrpcCode::Internal);
        assert!(!status.message().contains("hunter2"));
    }

    #[tokio::test]
    async fn database_errors_are_logged_without_the_row() {
        // PostgreSQL's detail says "Key (tel)=(0812345678) already exists".
        let mut dbs = vec![crate::testing::sqlite().await];
        dbs.extend(crate::testing::postgres().await);
        for t in dbs {
            sqlx::query("CREATE TABLE c (tel TEXT UNIQUE)").execute(t.db.pool()).await.unwrap();
            sqlx::query("INSERT INTO c VALUES ('0812345678')").execute(t.db.pool()).await.unwrap();
            let e = sqlx::query("INSERT INTO c VALUES ('0812345678')").execute(t.db.pool()).await.unwrap_err();
            assert!(is_unique_violation(&e));
            let described = format!("{:?}", Error::from(e).source);
            assert!(described.contains("UniqueViolation"), "{described}");
            assert!(!described.contains("0812345678"), "{described}");
        }
    }

    #[test]
    fn transport_failures_become_unavailable() {
        let back = Error::from_status(&Status::unavailable("connection refused"));
        assert_eq!(back.kind, Kind::Unavailable);
        assert_eq!(back.code, Code::ServiceUnavailable);
    }
}
