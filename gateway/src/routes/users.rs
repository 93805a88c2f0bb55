//! The signed-in user's stores.

use axum::extract::State;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::stores::v1 as pb;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::UserAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::routes::auth::RoleBody;
use crate::routes::stores::StoreBody;
use crate::state::AppState;
use crate::wire::{List, PageQuery, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_user_stores)).routes(routes!(get_user_store))
}

/// A user.
#[derive(Debug, Serialize, ToSchema, Default)]
pub struct UserBody {
    /// Id.
    pub id: i64,
    /// Email.
    pub email: String,
    /// Given name.
    pub first_name: String,
    /// Family name.
    pub last_name: String,
    /// Both names.
    pub name: String,
    /// Phone.
    pub tel: String,
}

impl From<pb::User> for UserBody {
    fn from(u: pb::User) -> Self {
        let name = format!("{} {}", u.first_name, u.last_name).trim().to_string();
        UserBody { id: u.id, email: u.email, first_name: u.first_name, last_name: u.last_name, name, tel: u.tel }
    }
}

/// A membership of a store.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserStoreBody {
    /// Membership id.
    pub id: i64,
    /// The store.
    pub store: StoreBody,
    /// owner, admin or cashier.
    pub permission: String,
    /// The role.
    pub role: RoleBody,
    /// active, inactive or deleted.
    pub status: String,
    /// The user.
    pub user: UserBody,
    /// When it began.
    pub created_at: String,
}

impl From<pb::Membership> for UserStoreBody {
    fn from(m: pb::Membership) -> Self {
        let role = m.role.unwrap_or_default();
        UserStoreBody {
            id: m.id,
            store: StoreBody::from(m.store.unwrap_or_default()),
            permission: m.permission,
            role: RoleBody { id: role.id, name: role.name, permissions: role.permissions },
            status: crate::wire::word::<pb::MemberStatus>(m.status),
            user: UserBody::from(m.user.unwrap_or_default()),
            created_at: timestamp_to_rfc3339(m.create_time.as_ref()),
        }
    }
}

/// The stores a user belongs to (only the user themself may ask).
#[utoipa::path(get, path = "/users/{user_id}/user-stores", tag = "users", params(("user_id" = i64, Path), PageQuery),
    responses((status = 200, body = List<UserStoreBody>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list_user_stores(
    State(state): State<AppState>,
    auth: UserAuth,
    Path(user_id): Path<i64>,
    Query(page): Query<PageQuery>,
) -> ApiResult<Json<List<UserStoreBody>>> {
    if user_id != auth.user_id {
        return Err(ApiError::forbidden());
    }
    let r = state
        .stores()
        .list_user_stores(auth.ctx().request(pb::ListUserStoresRequest { user_id, page: Some(page.to_proto()) }))
        .await?
        .into_inner();
    Ok(Json(List::new(r.memberships.into_iter().map(UserStoreBody::from).collect(), r.page)))
}

/// One of the signed-in user's memberships.
#[utoipa::path(get, path = "/users/user-stores/{id}", tag = "users", params(("id" = i64, Path)),
    responses((status = 200, body = UserStoreBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn get_user_store(
    State(state): State<AppState>,
    auth: UserAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<UserStoreBody>> {
    let r = state
        .stores()
        .get_user_store(auth.ctx().request(pb::GetUserStoreRequest { user_id: auth.user_id, id }))
        .await?
        .into_inner();
    Ok(Json(UserStoreBody::from(r.membership.unwrap_or_default())))
}
