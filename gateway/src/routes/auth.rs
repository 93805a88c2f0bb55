//! Signing in and out, and choosing a store.

use bo_kit::Code;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::Json;
use bo_proto::stores::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::{StoreGrant, UserAuth};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::routes::users::UserBody;
use crate::state::AppState;
use crate::wire::Body;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(login)).routes(routes!(logout)).routes(routes!(store_token))
}

/// Sign-in input.
#[derive(Deserialize, ToSchema)]
pub struct LoginInput {
    /// Email.
    #[serde(default)]
    pub email: String,
    /// Password.
    #[serde(default)]
    pub password: String,
    /// The device token this account was given at its last sign-in on this device, if any:
    /// its sign-in then skips the line strangers' guesses wait in.
    #[serde(default)]
    pub device: Option<String>,
}

impl std::fmt::Debug for LoginInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoginInput")
            .field("email", &self.email)
            .field("password", &"<redacted>")
            .field("device", &self.device.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

/// A user token.
#[derive(Debug, Serialize, ToSchema)]
pub struct LoginOutput {
    /// Bearer token for user routes and `POST /stores/auth/token`.
    pub token: String,
    /// When it expires (RFC 3339).
    pub expires_at: String,
    /// The user.
    pub user: UserBody,
    /// A device token for this account on this device (90 days), to give with its next
    /// sign-in.
    pub device: String,
}

/// Signs in with email and password.
#[utoipa::path(post, path = "/auth/login", tag = "auth", request_body = LoginInput,
    responses((status = 200, body = LoginOutput), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn login(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
    Body(input): Body<LoginInput>,
) -> ApiResult<Json<LoginOutput>> {
    let ip = crate::auth::client_ip(peer.ip(), &headers, &state.trusted_proxies);
    let account = input.email.trim().to_lowercase();
    let Some(attempt) = state.limiter.begin(ip, &account) else {
        return Err(ApiError::new(StatusCode::TOO_MANY_REQUESTS, Code::TooManyAttempts));
    };
    if input.email.trim().is_empty() {
        return Err(ApiError::invalid_field("email", "validation.required"));
    }
    if input.password.is_empty() {
        return Err(ApiError::invalid_field("password", "validation.required"));
    }
    let known_device = input.device.as_deref().is_some_and(|d| state.keys.is_device_of(d, &account));
    let r = match state
        .stores()
        .authenticate(state.system().request(pb::AuthenticateRequest {
            email: input.email,
            password: input.password,
            known_device,
        }))
        .await
    {
        Ok(r) => r.into_inner(),
        Err(e) => {
            let e = ApiError::from(e);
            if e.status == StatusCode::UNAUTHORIZED {
                attempt.failed();
            }
            return Err(e);
        }
    };
    let user = r.user.unwrap_or_default();
    let (token, exp) = state.keys.user_token(user.id, &r.session_id)?;
    let device = state.keys.device_token(user.id, &account)?;
    Ok(Json(LoginOutput {
        token,
        expires_at: bo_kit::time::ms_to_rfc3339(exp * 1000),
        user: UserBody::from(user),
        device,
    }))
}

/// Signs out: the session's tokens stop working.
#[utoipa::path(post, path = "/auth/logout", tag = "auth",
    responses((status = 204), (status = 401, body = ErrorBody)), security(("bearer" = [])))]
async fn logout(State(state): State<AppState>, auth: UserAuth) -> ApiResult<StatusCode> {
    state
        .stores()
        .end_session(auth.ctx().request(pb::EndSessionRequest { session_id: auth.session_id.clone() }))
        .await?;
    state.sessions.forget(&auth.session_id);
    state.memberships.forget_session(&auth.session_id);
    Ok(StatusCode::NO_CONTENT)
}

/// Choosing a store.
#[derive(Debug, Deserialize, ToSchema)]
pub struct StoreTokenInput {
    /// The store id.
    pub id: i64,
}

/// A store token.
#[derive(Debug, Serialize, ToSchema)]
pub struct StoreTokenOutput {
    /// Bearer token for the store's routes.
    pub token: String,
    /// When it expires (RFC 3339).
    pub expires_at: String,
    /// The store.
    pub store_id: i64,
    /// owner, admin or cashier.
    pub permission: String,
    /// The role.
    pub role: RoleBody,
}

/// A role.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoleBody {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Permission keys.
    pub permissions: Vec<String>,
}

/// Exchanges a user token for a token scoped to one of the user's stores.
#[utoipa::path(post, path = "/stores/auth/token", tag = "auth", request_body = StoreTokenInput,
    responses((status = 200, body = StoreTokenOutput), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
async fn store_token(
    State(state): State<AppState>,
    auth: UserAuth,
    Body(input): Body<StoreTokenInput>,
) -> ApiResult<Json<StoreTokenOutput>> {
    let m = state
        .stores()
        .authorize(auth.ctx().request(pb::AuthorizeRequest { user_id: auth.user_id, store_id: input.id }))
        .await
        .map_err(|s| {
            let e = ApiError::from(s);
            if e.status == StatusCode::FORBIDDEN {
                ApiError::forbidden()
            } else {
                e
            }
        })?
        .into_inner()
        .membership
        .unwrap_or_default();
    let role = m.role.unwrap_or_default();
    let grant = StoreGrant {
        permission: m.permission.clone(),
        role: role.id,
        perms: role.permissions.clone(),
        version: m.version,
    };
    let (token, exp) = state.keys.store_token(auth.user_id, &auth.session_id, input.id, grant)?;
    Ok(Json(StoreTokenOutput {
        token,
        expires_at: bo_kit::time::ms_to_rfc3339(exp * 1000),
        store_id: input.id,
        permission: m.permission,
        role: RoleBody { id: role.id, name: role.name, permissions: role.permissions },
    }))
}
