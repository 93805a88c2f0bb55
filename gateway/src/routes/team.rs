//! The store's team (SPEC §2 Settings, §3 User, Invitation, Role, §6, §7 Users and Stores):
//! members, custom roles, invitations by link, joining, and the audit trail. Managing the
//! team takes the owner role or `user.*`; roles take the owner role or `store.role.*`. The
//! stores service checks the team's rules (decision 0013) inside each change.

use bo_kit::Code;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::stores::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::{StoreAuth, UserAuth};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::routes::auth::{LoginOutput, RoleBody};
use crate::routes::users::{UserBody, UserStoreBody};
use crate::state::AppState;
use crate::wire::{enum_field, word, Body, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_members))
        .routes(routes!(get_member, update_member, remove_member))
        .routes(routes!(list_roles, create_role))
        .routes(routes!(get_role, update_role, delete_role))
        .routes(routes!(list_invitations))
        .routes(routes!(create_invitation))
        .routes(routes!(delete_invitation))
        .routes(routes!(preview_invitation))
        .routes(routes!(accept_invitation))
        .routes(routes!(register))
        .routes(routes!(list_audit))
}

/// Managing the team: owner role, or user.*.
pub const TEAM: Access = Access { roles: &["owner"], perms: &[keys::USER_ALL] };
/// Managing roles: owner role, or store.role.*.
pub const ROLES: Access = Access { roles: &["owner"], perms: &[keys::STORE_ROLE_ALL] };
/// Reading the roles (to choose one for a member or an invitation): either of the above.
const ROLES_READ: Access = Access { roles: &["owner"], perms: &[keys::STORE_ROLE_ALL, keys::USER_ALL] };
/// Any member of the store (the member's own profile).
const MEMBER: Access = Access { roles: &[], perms: &[] };

/// Team list filters.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct MemberQuery {
    /// active, inactive or deleted; empty for active and inactive.
    pub status: Option<String>,
    /// Part of a name, email or phone.
    pub search: Option<String>,
    /// Page number.
    pub page: Option<i64>,
    /// Page size; -1 for all.
    pub limit: Option<i64>,
}

/// The store's team (owner, or user.*).
#[utoipa::path(get, path = "/user", tag = "team", params(MemberQuery),
    responses((status = 200, body = List<UserStoreBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_members(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<MemberQuery>,
) -> ApiResult<Json<List<UserStoreBody>>> {
    auth.require(TEAM)?;
    let r = state
        .stores()
        .list_members(auth.ctx().request(pb::ListMembersRequest {
            page: Some(crate::wire::page_request(q.page, q.limit)),
            status: enum_field::<pb::MemberStatus>("status", q.status.as_deref(), "validation.status")?,
            search: q.search.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    Ok(Json(List::new(r.memberships.into_iter().map(UserStoreBody::from).collect(), r.page)))
}

async fn member_of(state: &AppState, auth: &StoreAuth, user_id: i64, id: i64) -> ApiResult<pb::Membership> {
    let m = state
        .stores()
        .get_member(auth.ctx().request(pb::GetMemberRequest { id }))
        .await?
        .into_inner()
        .membership
        .unwrap_or_default();
    if m.user_id != user_id {
        return Err(ApiError::new(StatusCode::NOT_FOUND, Code::UserStoreNotFound));
    }
    Ok(m)
}

/// A member of the store (owner or user.*; anyone may read their own).
#[utoipa::path(get, path = "/users/{user_id}/user-stores/{id}", tag = "team",
    params(("user_id" = i64, Path), ("id" = i64, Path, description = "Membership id")),
    responses((status = 200, body = UserStoreBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get_member(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((user_id, id)): Path<(i64, i64)>,
) -> ApiResult<Json<UserStoreBody>> {
    if user_id != auth.user_id {
        auth.require(TEAM)?;
    }
    Ok(Json(member_of(&state, &auth, user_id, id).await?.into()))
}

/// Member changes: only the fields given change.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct MemberInput {
    /// owner, admin or cashier (only an owner makes or changes an owner).
    pub permission: Option<String>,
    /// A role of the store (custom roles go with admin or cashier).
    pub role_id: Option<i64>,
    /// active or inactive.
    pub status: Option<String>,
    /// Given name (only the member themself).
    pub first_name: Option<String>,
    /// Family name (only the member themself).
    pub last_name: Option<String>,
    /// Phone, 9 or 10 digits (only the member themself).
    pub tel: Option<String>,
}

/// Changes a member's level, role or status (owner, or user.*), or one's own name and phone.
/// Their store token stops working at once; their app renews it with the new rights.
#[utoipa::path(patch, path = "/users/{user_id}/user-stores/{id}", tag = "team",
    params(("user_id" = i64, Path), ("id" = i64, Path, description = "Membership id")), request_body = MemberInput,
    responses((status = 200, body = UserStoreBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "team_last_owner, team_role_level"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_member(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((user_id, id)): Path<(i64, i64)>,
    Body(input): Body<MemberInput>,
) -> ApiResult<Json<UserStoreBody>> {
    auth.require(MEMBER)?;
    let rights = input.permission.is_some() || input.role_id.is_some() || input.status.is_some();
    if rights || user_id != auth.user_id {
        auth.require(TEAM)?;
    }
    let status = match input.status.as_deref() {
        Some(w) => Some(enum_field::<pb::MemberStatus>("status", Some(w), "validation.status")?),
        None => None,
    };
    let r = state
        .stores()
        .update_member(auth.ctx().request(pb::UpdateMemberRequest {
            id,
            user_id,
            permission: input.permission,
            role_id: input.role_id,
            status,
            first_name: input.first_name,
            last_name: input.last_name,
            tel: input.tel,
        }))
        .await?
        .into_inner();
    state.memberships.forget_store(auth.store_id);
    Ok(Json(r.membership.unwrap_or_default().into()))
}

/// Removes a member from the store (owner, or user.*); the store's last owner stays.
#[utoipa::path(delete, path = "/users/{user_id}/user-stores/{id}", tag = "team",
    params(("user_id" = i64, Path), ("id" = i64, Path, description = "Membership id")),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "team_last_owner")),
    security(("bearer" = [])))]
async fn remove_member(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((user_id, id)): Path<(i64, i64)>,
) -> ApiResult<StatusCode> {
    auth.require(TEAM)?;
    state.stores().remove_member(auth.ctx().request(pb::RemoveMemberRequest { id, user_id })).await?;
    state.memberships.forget_store(auth.store_id);
    Ok(StatusCode::NO_CONTENT)
}

/// A role with how many members hold it.
#[derive(Debug, Serialize, ToSchema)]
pub struct StoreRoleBody {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Permission keys.
    pub permissions: Vec<String>,
    /// owner, admin and cashier are built in and cannot be changed.
    pub built_in: bool,
    /// Members holding it (not removed ones).
    pub member_count: i64,
}

fn role_body(r: pb::Role, member_count: i64) -> StoreRoleBody {
    StoreRoleBody { id: r.id, name: r.name, permissions: r.permissions, built_in: r.built_in, member_count }
}

/// The roles, as the app reads them (`data.roles`).
#[derive(Debug, Serialize, ToSchema)]
pub struct RolesBody {
    /// The roles.
    pub data: RolesData,
}

/// The roles.
#[derive(Debug, Serialize, ToSchema)]
pub struct RolesData {
    /// Built-in roles first, then custom ones.
    pub roles: Vec<StoreRoleBody>,
}

/// The store's roles (owner, store.role.* or user.*).
#[utoipa::path(get, path = "/stores/{id}/roles", tag = "team", params(("id" = i64, Path)),
    responses((status = 200, body = RolesBody), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_roles(State(state): State<AppState>, auth: StoreAuth, Path(id): Path<i64>) -> ApiResult<Json<RolesBody>> {
    auth.require_in(id, ROLES_READ)?;
    let r = state.stores().list_roles(auth.ctx().request(pb::ListRolesRequest {})).await?.into_inner();
    let counts = r.member_counts;
    let roles = r
        .roles
        .into_iter()
        .map(|role| {
            let n = counts.get(&role.id).copied().unwrap_or(0);
            role_body(role, n)
        })
        .collect();
    Ok(Json(RolesBody { data: RolesData { roles } }))
}

/// One role (owner, store.role.* or user.*).
#[utoipa::path(get, path = "/stores/{id}/roles/{role_id}", tag = "team", params(("id" = i64, Path), ("role_id" = i64, Path)),
    responses((status = 200, body = StoreRoleBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get_role(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, role_id)): Path<(i64, i64)>,
) -> ApiResult<Json<StoreRoleBody>> {
    auth.require_in(id, ROLES_READ)?;
    let r = state.stores().get_role(auth.ctx().request(pb::GetRoleRequest { id: role_id })).await?.into_inner();
    Ok(Json(role_body(r.role.unwrap_or_default(), r.member_count)))
}

/// A custom role.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct RoleInput {
    /// Name, unique in the store, at most 50 characters.
    pub name: String,
    /// Permission keys from the catalogue (`PermissionKey`).
    pub permissions: Vec<String>,
}

/// Creates a custom role (owner, or store.role.*; a member grants only what they hold).
#[utoipa::path(post, path = "/stores/{id}/roles", tag = "team", params(("id" = i64, Path)), request_body = RoleInput,
    responses((status = 201, body = StoreRoleBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_role(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(input): Body<RoleInput>,
) -> ApiResult<(StatusCode, Json<StoreRoleBody>)> {
    auth.require_in(id, ROLES)?;
    let r = state
        .stores()
        .create_role(auth.ctx().request(pb::CreateRoleRequest { name: input.name, permissions: input.permissions }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(role_body(r.role.unwrap_or_default(), 0))))
}

/// Role changes: only the fields given change.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct RolePatchInput {
    /// Name.
    pub name: Option<String>,
    /// Permission keys; the role's members get the new rights on their next request.
    pub permissions: Option<Vec<String>>,
}

/// Changes a custom role (owner, or store.role.*).
#[utoipa::path(patch, path = "/stores/{id}/roles/{role_id}", tag = "team", params(("id" = i64, Path), ("role_id" = i64, Path)),
    request_body = RolePatchInput,
    responses((status = 200, body = StoreRoleBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "role_built_in"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_role(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, role_id)): Path<(i64, i64)>,
    Body(input): Body<RolePatchInput>,
) -> ApiResult<Json<StoreRoleBody>> {
    auth.require_in(id, ROLES)?;
    let set_permissions = input.permissions.is_some();
    let r = state
        .stores()
        .update_role(auth.ctx().request(pb::UpdateRoleRequest {
            id: role_id,
            name: input.name,
            set_permissions,
            permissions: input.permissions.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    state.memberships.forget_store(auth.store_id);
    Ok(Json(role_body(r.role.unwrap_or_default(), r.member_count)))
}

/// Where a deleted role's members go.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct DeleteRoleQuery {
    /// The role its members and pending invitations move to (required while it has any).
    pub move_to: Option<i64>,
}

/// Deletes a custom role (owner, or store.role.*), moving its members.
#[utoipa::path(delete, path = "/stores/{id}/roles/{role_id}", tag = "team",
    params(("id" = i64, Path), ("role_id" = i64, Path), DeleteRoleQuery),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "role_in_use, role_built_in")),
    security(("bearer" = [])))]
async fn delete_role(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, role_id)): Path<(i64, i64)>,
    Query(q): Query<DeleteRoleQuery>,
) -> ApiResult<StatusCode> {
    auth.require_in(id, ROLES)?;
    state
        .stores()
        .delete_role(auth.ctx().request(pb::DeleteRoleRequest { id: role_id, move_to_role_id: q.move_to.unwrap_or(0) }))
        .await?;
    state.memberships.forget_store(auth.store_id);
    Ok(StatusCode::NO_CONTENT)
}

/// A pending invitation.
#[derive(Debug, Serialize, ToSchema)]
pub struct InvitationBody {
    /// Id.
    pub id: i64,
    /// The link's key.
    pub key: String,
    /// admin or cashier.
    pub permission: String,
    /// The role the new member gets.
    pub role: RoleBody,
    /// Who made it.
    pub created_by: i64,
    /// Made.
    pub created_at: String,
    /// Stops working.
    pub expired_at: String,
}

impl From<pb::Invitation> for InvitationBody {
    fn from(i: pb::Invitation) -> Self {
        let role = i.role.unwrap_or_default();
        InvitationBody {
            id: i.id,
            key: i.key,
            permission: i.permission,
            role: RoleBody { id: role.id, name: role.name, permissions: role.permissions },
            created_by: i.created_by,
            created_at: timestamp_to_rfc3339(i.create_time.as_ref()),
            expired_at: timestamp_to_rfc3339(i.expire_time.as_ref()),
        }
    }
}

/// The store's pending invitations, newest first (owner, or user.*).
#[utoipa::path(get, path = "/stores/{id}/invitations", tag = "team", params(("id" = i64, Path)),
    responses((status = 200, body = List<InvitationBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_invitations(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<List<InvitationBody>>> {
    auth.require_in(id, TEAM)?;
    let r = state.stores().list_invitations(auth.ctx().request(pb::ListInvitationsRequest {})).await?.into_inner();
    Ok(Json(List::all(r.invitations.into_iter().map(InvitationBody::from).collect())))
}

/// A new invitation.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct InvitationInput {
    /// The store (the token's).
    pub store_id: i64,
    /// The store's name, as the app shows it (the link shows the stored one).
    pub store_name: Option<String>,
    /// admin or cashier.
    pub permission: String,
    /// A custom role (absent: the built-in role of `permission`).
    pub role_id: Option<i64>,
}

/// Invites by link (owner, or user.*). The link works once, for 7 days.
#[utoipa::path(post, path = "/stores/invitations", tag = "team", request_body = InvitationInput,
    responses((status = 201, body = InvitationBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_invitation(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(input): Body<InvitationInput>,
) -> ApiResult<(StatusCode, Json<InvitationBody>)> {
    auth.require_in(input.store_id, TEAM)?;
    let r =
        state
            .stores()
            .create_invitation(auth.ctx().request(pb::CreateInvitationRequest {
                permission: input.permission,
                role_id: input.role_id.unwrap_or(0),
            }))
            .await?
            .into_inner();
    Ok((StatusCode::CREATED, Json(r.invitation.unwrap_or_default().into())))
}

/// Withdraws an invitation (owner, or user.*): its link stops working.
#[utoipa::path(delete, path = "/stores/{id}/invitations/{key}", tag = "team", params(("id" = i64, Path), ("key" = String, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn delete_invitation(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, key)): Path<(i64, String)>,
) -> ApiResult<StatusCode> {
    auth.require_in(id, TEAM)?;
    state.stores().delete_invitation(auth.ctx().request(pb::DeleteInvitationRequest { key })).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// What an invitation's link offers.
#[derive(Debug, Serialize, ToSchema)]
pub struct InvitationPreviewBody {
    /// valid, expired, used or deleted.
    pub state: String,
    /// The store.
    pub store_id: i64,
    /// The store's name.
    pub store_name: String,
    /// admin or cashier.
    pub permission: String,
    /// The role's name.
    pub role_name: String,
    /// Who invited.
    pub inviter_name: String,
    /// Stops working.
    pub expired_at: String,
}

/// What an invitation's link offers; no sign-in needed.
#[utoipa::path(get, path = "/invitations/{key}", tag = "team", params(("key" = String, Path)),
    responses((status = 200, body = InvitationPreviewBody), (status = 404, body = ErrorBody)))]
async fn preview_invitation(
    State(state): State<AppState>,
    Path(key): Path<String>,
) -> ApiResult<Json<InvitationPreviewBody>> {
    let p = state
        .stores()
        .preview_invitation(state.system().request(pb::PreviewInvitationRequest { key }))
        .await?
        .into_inner()
        .preview
        .unwrap_or_default();
    Ok(Json(InvitationPreviewBody {
        state: word::<pb::InvitationState>(p.state),
        store_id: p.store_id,
        store_name: p.store_name,
        permission: p.permission,
        role_name: p.role_name,
        inviter_name: p.inviter_name,
        expired_at: timestamp_to_rfc3339(p.expire_time.as_ref()),
    }))
}

/// Joins the invitation's store as the signed-in user.
#[utoipa::path(post, path = "/invitations/{key}/accept", tag = "team", params(("key" = String, Path)),
    responses((status = 200, body = UserStoreBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "invitation_expired, invitation_used, invitation_deleted, already_member")),
    security(("bearer" = [])))]
async fn accept_invitation(
    State(state): State<AppState>,
    auth: UserAuth,
    Path(key): Path<String>,
) -> ApiResult<Json<UserStoreBody>> {
    let r = state
        .stores()
        .accept_invitation(auth.ctx().request(pb::AcceptInvitationRequest { key, user_id: auth.user_id }))
        .await?
        .into_inner();
    let m = r.membership.unwrap_or_default();
    // A member who comes back gets a new version; whatever was known of the old one goes.
    state.memberships.forget_store(m.store.as_ref().map_or(0, |s| s.id));
    Ok(Json(m.into()))
}

/// A new person's account, from an invitation.
#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct RegisterInput {
    /// The invitation's key.
    pub invitation_key: String,
    /// Email.
    pub email: String,
    /// Password, at least 8 characters.
    pub password: String,
    /// Given name.
    pub first_name: String,
    /// Family name.
    pub last_name: String,
}

impl std::fmt::Debug for RegisterInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegisterInput")
            .field("email", &self.email)
            .field("password", &"<redacted>")
            .field("invitation_key", &"<redacted>")
            .finish()
    }
}

/// Creates an account from an invitation, joins its store and signs in. There is no sign-up
/// without an invitation.
#[utoipa::path(post, path = "/auth/register", tag = "team", request_body = RegisterInput,
    responses((status = 200, body = LoginOutput), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "user_email_taken, invitation_expired, invitation_used, invitation_deleted"),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn register(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
    Body(input): Body<RegisterInput>,
) -> ApiResult<Json<LoginOutput>> {
    let ip = crate::auth::client_ip(peer.ip(), &headers, &state.trusted_proxies);
    let account = input.email.trim().to_lowercase();
    let Some(attempt) = state.limiter.begin(ip, &account) else {
        return Err(ApiError::new(StatusCode::TOO_MANY_REQUESTS, Code::TooManyAttempts));
    };
    let r = match state
        .stores()
        .register(state.system().request(pb::RegisterRequest {
            invitation_key: input.invitation_key,
            email: input.email,
            password: input.password,
            first_name: input.first_name,
            last_name: input.last_name,
        }))
        .await
    {
        Ok(r) => r.into_inner(),
        Err(e) => {
            let e = ApiError::from(e);
            if matches!(e.status, StatusCode::NOT_FOUND | StatusCode::CONFLICT) {
                // Guessing keys, or e-mails with a key, counts like guessing passwords.
                attempt.failed();
            }
            return Err(e);
        }
    };
    let user = r.user.unwrap_or_default();
    let (token, exp) = state.keys.user_token(user.id, &r.session_id)?;
    let device = state.keys.device_token(user.id, &user.email)?;
    Ok(Json(LoginOutput {
        token,
        expires_at: bo_kit::time::ms_to_rfc3339(exp * 1000),
        user: UserBody::from(user),
        device,
    }))
}

/// Audit trail filters.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    /// Only what this user did.
    pub user_id: Option<i64>,
    /// Page number.
    pub page: Option<i64>,
    /// Page size; -1 for all.
    pub limit: Option<i64>,
}

/// One change to the store's team, roles or settings.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditBody {
    /// Id.
    pub id: i64,
    /// Who acted.
    pub actor_user_id: i64,
    /// Their name.
    pub actor_name: String,
    /// What was done: member.updated, member.joined, role.created, role.updated, role.deleted,
    /// invitation.created, invitation.deleted, store.updated, …
    pub action: String,
    /// member, role, invitation or store.
    pub subject_type: String,
    /// Its id.
    pub subject_id: i64,
    /// For a member: their user id.
    pub subject_user_id: i64,
    /// What changed: field → [before, after], or the values given.
    #[schema(value_type = Object)]
    pub detail: serde_json::Value,
    /// When.
    pub created_at: String,
}

/// The store's audit trail, newest first (owner, or user.*).
#[utoipa::path(get, path = "/stores/{id}/audit", tag = "team", params(("id" = i64, Path), AuditQuery),
    responses((status = 200, body = List<AuditBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_audit(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Query(q): Query<AuditQuery>,
) -> ApiResult<Json<List<AuditBody>>> {
    auth.require_in(id, TEAM)?;
    let r = state
        .stores()
        .list_audit(auth.ctx().request(pb::ListAuditRequest {
            page: Some(crate::wire::page_request(q.page, q.limit)),
            actor_user_id: q.user_id.unwrap_or(0),
        }))
        .await?
        .into_inner();
    let rows = r
        .entries
        .into_iter()
        .map(|a| AuditBody {
            id: a.id,
            actor_user_id: a.actor_user_id,
            actor_name: a.actor_name,
            action: a.action,
            subject_type: a.subject_type,
            subject_id: a.subject_id,
            subject_user_id: a.subject_user_id,
            detail: serde_json::from_str(&a.detail).unwrap_or_default(),
            created_at: timestamp_to_rfc3339(a.create_time.as_ref()),
        })
        .collect();
    Ok(Json(List::new(rows, r.page)))
}
