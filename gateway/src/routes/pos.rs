//! Point of sale (SPEC §2 Point of sale, §3, §5, §7): the store's branches, POS units,
//! cashiers and sellers. Any member of the store may read them (a till needs its branch);
//! changing them takes the owner role or the `store.*` permission. Lists answer everything
//! unless a `limit` is given.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::stores::v1 as pb;
use bo_proto::stores::v1::PosPersonKind;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::state::AppState;
use crate::wire::{enum_field, page_request, word, Body, List, PageQuery, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_branches, create_branch))
        .routes(routes!(get_branch, update_branch, delete_branch))
        .routes(routes!(list_pos_units, create_pos_unit))
        .routes(routes!(get_pos_unit, update_pos_unit, delete_pos_unit))
        .routes(routes!(list_cashiers, create_cashier))
        .routes(routes!(cashier_members))
        .routes(routes!(get_cashier, update_cashier, delete_cashier))
        .routes(routes!(list_sellers, create_seller))
        .routes(routes!(get_seller, update_seller, delete_seller))
}

/// Reading the point-of-sale setup: any member of the store.
const POS_READ: Access = Access { roles: &[], perms: &[] };
/// Changing it: the owner role, or store.*.
const POS_EDIT: Access = Access { roles: &["owner"], perms: &[keys::STORE_ALL] };

/// Lists of the point-of-sale setup answer all rows unless a limit is asked for (SPEC §7).
fn all_by_default(q: PageQuery) -> bo_proto::common::v1::PageRequest {
    page_request(q.page, Some(q.limit.unwrap_or(-1)))
}

/// A branch, as printed on its receipts.
#[derive(Debug, Serialize, ToSchema)]
pub struct BranchBody {
    /// Id.
    pub id: i64,
    /// Five digits; the main branch is 00000.
    pub branch_no: String,
    /// The main branch (head office).
    pub is_main: bool,
    /// Name.
    pub name: String,
    /// Tax id, 13 digits.
    pub tax_id: String,
    /// The warehouse it deducts stock from.
    pub warehouse_id: i64,
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
    /// Created.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
}

impl From<pb::Branch> for BranchBody {
    fn from(b: pb::Branch) -> Self {
        BranchBody {
            id: b.id,
            branch_no: b.branch_no,
            is_main: b.is_main,
            name: b.name,
            tax_id: b.tax_id,
            warehouse_id: b.warehouse_id,
            address: b.address,
            sub_district: b.sub_district,
            district: b.district,
            state_province: b.state_province,
            postcode: b.postcode,
            created_at: timestamp_to_rfc3339(b.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(b.update_time.as_ref()),
        }
    }
}

/// A branch's fields. On create all are required; on change only those given change.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct BranchInput {
    /// Exactly five digits; 00000 for the main branch.
    pub branch_no: Option<String>,
    /// The main branch: then the number must be 00000.
    pub is_main: Option<bool>,
    /// Name.
    pub name: Option<String>,
    /// Tax id: 13 digits with the Thai check digit.
    pub tax_id: Option<String>,
    /// One of the store's warehouses.
    pub warehouse_id: Option<i64>,
    /// Address line.
    pub address: Option<String>,
    /// Sub-district.
    pub sub_district: Option<String>,
    /// District.
    pub district: Option<String>,
    /// Province.
    pub state_province: Option<String>,
    /// Postcode, five digits.
    pub postcode: Option<String>,
}

impl BranchInput {
    /// The branch as it should be: these fields over `current`'s.
    fn over(self, current: pb::Branch) -> pb::BranchInput {
        pb::BranchInput {
            branch_no: self.branch_no.unwrap_or(current.branch_no),
            is_main: self.is_main,
            name: self.name.unwrap_or(current.name),
            tax_id: self.tax_id.unwrap_or(current.tax_id),
            warehouse_id: self.warehouse_id.unwrap_or(current.warehouse_id),
            address: self.address.unwrap_or(current.address),
            sub_district: self.sub_district.unwrap_or(current.sub_district),
            district: self.district.unwrap_or(current.district),
            state_province: self.state_province.unwrap_or(current.state_province),
            postcode: self.postcode.unwrap_or(current.postcode),
        }
    }
}

/// The store's branches, the main branch first (all of them unless `limit` is given).
#[utoipa::path(get, path = "/stores/{id}/branches", tag = "pos", params(("id" = i64, Path), PageQuery),
    responses((status = 200, body = List<BranchBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_branches(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Query(page): Query<PageQuery>,
) -> ApiResult<Json<List<BranchBody>>> {
    auth.require_in(id, POS_READ)?;
    let r = state
        .stores()
        .list_branches(auth.ctx().request(pb::ListBranchesRequest { page: Some(all_by_default(page)) }))
        .await?
        .into_inner();
    Ok(Json(List::new(r.branches.into_iter().map(BranchBody::from).collect(), r.page)))
}

/// Adds a branch (owner, or store.*).
#[utoipa::path(post, path = "/stores/{id}/branches", tag = "pos", params(("id" = i64, Path)), request_body = BranchInput,
    responses((status = 201, body = BranchBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "branch_number_duplicate, pos_limit_reached"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_branch(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<BranchInput>,
) -> ApiResult<(StatusCode, Json<BranchBody>)> {
    auth.require_in(id, POS_EDIT)?;
    let input = b.over(pb::Branch::default());
    let r = state
        .stores()
        .create_branch(auth.ctx().request(pb::CreateBranchRequest { branch: Some(input) }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.branch.unwrap_or_default().into())))
}

/// One branch.
#[utoipa::path(get, path = "/stores/{id}/branches/{branch_id}", tag = "pos",
    params(("id" = i64, Path), ("branch_id" = i64, Path)),
    responses((status = 200, body = BranchBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get_branch(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, branch_id)): Path<(i64, i64)>,
) -> ApiResult<Json<BranchBody>> {
    auth.require_in(id, POS_READ)?;
    let r = state.stores().get_branch(auth.ctx().request(pb::GetBranchRequest { id: branch_id })).await?.into_inner();
    Ok(Json(r.branch.unwrap_or_default().into()))
}

/// Changes a branch (owner, or store.*); only the fields given change.
#[utoipa::path(patch, path = "/stores/{id}/branches/{branch_id}", tag = "pos",
    params(("id" = i64, Path), ("branch_id" = i64, Path)), request_body = BranchInput,
    responses((status = 200, body = BranchBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "branch_number_duplicate"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_branch(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, branch_id)): Path<(i64, i64)>,
    Body(b): Body<BranchInput>,
) -> ApiResult<Json<BranchBody>> {
    auth.require_in(id, POS_EDIT)?;
    let mut stores = state.stores();
    let current =
        stores.get_branch(auth.ctx().request(pb::GetBranchRequest { id: branch_id })).await?.into_inner().branch;
    let input = b.over(current.unwrap_or_default());
    let r = stores
        .update_branch(auth.ctx().request(pb::UpdateBranchRequest { id: branch_id, branch: Some(input) }))
        .await?
        .into_inner();
    Ok(Json(r.branch.unwrap_or_default().into()))
}

/// Deletes a branch with no POS units, cashiers or sellers (owner, or store.*).
#[utoipa::path(delete, path = "/stores/{id}/branches/{branch_id}", tag = "pos",
    params(("id" = i64, Path), ("branch_id" = i64, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "branch_in_use")),
    security(("bearer" = [])))]
async fn delete_branch(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, branch_id)): Path<(i64, i64)>,
) -> ApiResult<StatusCode> {
    auth.require_in(id, POS_EDIT)?;
    state.stores().delete_branch(auth.ctx().request(pb::DeleteBranchRequest { id: branch_id })).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A POS unit (till) at a branch.
#[derive(Debug, Serialize, ToSchema)]
pub struct PosUnitBody {
    /// Id.
    pub id: i64,
    /// POS number, unique in the store.
    pub pos_no: String,
    /// Its branch.
    pub branch_id: i64,
    /// The branch's number.
    pub branch_no: String,
    /// The branch's name.
    pub branch_name: String,
    /// Its own warehouse (0: the branch's).
    pub warehouse_id: i64,
    /// The warehouse it deducts stock from.
    pub effective_warehouse_id: i64,
    /// Created.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
}

impl From<pb::PosUnit> for PosUnitBody {
    fn from(p: pb::PosUnit) -> Self {
        PosUnitBody {
            id: p.id,
            pos_no: p.pos_no,
            branch_id: p.branch_id,
            branch_no: p.branch_no,
            branch_name: p.branch_name,
            warehouse_id: p.warehouse_id,
            effective_warehouse_id: p.effective_warehouse_id,
            created_at: timestamp_to_rfc3339(p.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(p.update_time.as_ref()),
        }
    }
}

/// A POS unit's fields. On create the number and branch are required; on change only
/// those given change.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PosUnitInput {
    /// POS number: letters, digits and dashes, unique in the store.
    pub pos_no: Option<String>,
    /// One of the store's branches.
    pub branch_id: Option<i64>,
    /// Its own warehouse; 0 or absent deducts from the branch's.
    pub warehouse_id: Option<i64>,
}

/// The store's POS units by branch (all of them unless `limit` is given).
#[utoipa::path(get, path = "/stores/{id}/pos-units", tag = "pos", params(("id" = i64, Path), PageQuery),
    responses((status = 200, body = List<PosUnitBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_pos_units(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Query(page): Query<PageQuery>,
) -> ApiResult<Json<List<PosUnitBody>>> {
    auth.require_in(id, POS_READ)?;
    let r = state
        .stores()
        .list_pos_units(auth.ctx().request(pb::ListPosUnitsRequest { page: Some(all_by_default(page)) }))
        .await?
        .into_inner();
    Ok(Json(List::new(r.pos_units.into_iter().map(PosUnitBody::from).collect(), r.page)))
}

/// Adds a POS unit (owner, or store.*).
#[utoipa::path(post, path = "/stores/{id}/pos-units", tag = "pos", params(("id" = i64, Path)), request_body = PosUnitInput,
    responses((status = 201, body = PosUnitBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "pos_number_duplicate"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_pos_unit(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(p): Body<PosUnitInput>,
) -> ApiResult<(StatusCode, Json<PosUnitBody>)> {
    auth.require_in(id, POS_EDIT)?;
    let r = state
        .stores()
        .create_pos_unit(auth.ctx().request(pb::CreatePosUnitRequest {
            pos_no: p.pos_no.unwrap_or_default(),
            branch_id: p.branch_id.unwrap_or_default(),
            warehouse_id: p.warehouse_id.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.pos_unit.unwrap_or_default().into())))
}

/// One POS unit.
#[utoipa::path(get, path = "/stores/{id}/pos-units/{pos_unit_id}", tag = "pos",
    params(("id" = i64, Path), ("pos_unit_id" = i64, Path)),
    responses((status = 200, body = PosUnitBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get_pos_unit(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, pos_unit_id)): Path<(i64, i64)>,
) -> ApiResult<Json<PosUnitBody>> {
    auth.require_in(id, POS_READ)?;
    let r =
        state.stores().get_pos_unit(auth.ctx().request(pb::GetPosUnitRequest { id: pos_unit_id })).await?.into_inner();
    Ok(Json(r.pos_unit.unwrap_or_default().into()))
}

/// Changes a POS unit (owner, or store.*); only the fields given change.
#[utoipa::path(patch, path = "/stores/{id}/pos-units/{pos_unit_id}", tag = "pos",
    params(("id" = i64, Path), ("pos_unit_id" = i64, Path)), request_body = PosUnitInput,
    responses((status = 200, body = PosUnitBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "pos_number_duplicate"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_pos_unit(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, pos_unit_id)): Path<(i64, i64)>,
    Body(p): Body<PosUnitInput>,
) -> ApiResult<Json<PosUnitBody>> {
    auth.require_in(id, POS_EDIT)?;
    let mut stores = state.stores();
    let current = stores
        .get_pos_unit(auth.ctx().request(pb::GetPosUnitRequest { id: pos_unit_id }))
        .await?
        .into_inner()
        .pos_unit
        .unwrap_or_default();
    let r = stores
        .update_pos_unit(auth.ctx().request(pb::UpdatePosUnitRequest {
            id: pos_unit_id,
            pos_no: p.pos_no.unwrap_or(current.pos_no),
            branch_id: p.branch_id.unwrap_or(current.branch_id),
            warehouse_id: p.warehouse_id.unwrap_or(current.warehouse_id),
        }))
        .await?
        .into_inner();
    Ok(Json(r.pos_unit.unwrap_or_default().into()))
}

/// Deletes a POS unit (owner, or store.*).
#[utoipa::path(delete, path = "/stores/{id}/pos-units/{pos_unit_id}", tag = "pos",
    params(("id" = i64, Path), ("pos_unit_id" = i64, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn delete_pos_unit(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, pos_unit_id)): Path<(i64, i64)>,
) -> ApiResult<StatusCode> {
    auth.require_in(id, POS_EDIT)?;
    state.stores().delete_pos_unit(auth.ctx().request(pb::DeletePosUnitRequest { id: pos_unit_id })).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A cashier (a store member at a till) or a seller.
#[derive(Debug, Serialize, ToSchema)]
pub struct PosPersonBody {
    /// Id.
    pub id: i64,
    /// The store member (cashiers; 0 for sellers).
    pub user_id: i64,
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: String,
    /// Both names.
    pub name: String,
    /// Email.
    pub email: String,
    /// Branch.
    pub branch_id: i64,
    /// The branch's number.
    pub branch_no: String,
    /// The branch's name.
    pub branch_name: String,
    /// Phone (sellers).
    pub tel: String,
    /// Code (sellers).
    pub code: String,
    /// active or inactive (a cashier follows their membership).
    pub status: String,
    /// Created.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
}

impl From<pb::PosPerson> for PosPersonBody {
    fn from(p: pb::PosPerson) -> Self {
        PosPersonBody {
            id: p.id,
            user_id: p.user_id,
            name: format!("{} {}", p.first_name, p.last_name).trim().to_string(),
            first_name: p.first_name,
            last_name: p.last_name,
            email: p.email,
            branch_id: p.branch_id,
            branch_no: p.branch_no,
            branch_name: p.branch_name,
            tel: p.tel,
            code: p.code,
            status: word::<pb::PosPersonStatus>(p.status),
            created_at: timestamp_to_rfc3339(p.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(p.update_time.as_ref()),
        }
    }
}

/// A cashier's or seller's fields. On create the names, email and branch are required (and
/// a cashier's member); on change only those given change.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PosPersonInput {
    /// Cashiers: the store member (an active member, at most once; fixed after create).
    pub user_id: Option<i64>,
    /// First name.
    pub first_name: Option<String>,
    /// Last name.
    pub last_name: Option<String>,
    /// Email.
    pub email: Option<String>,
    /// One of the store's branches.
    pub branch_id: Option<i64>,
    /// Sellers, on change: phone, 9 or 10 digits, or empty.
    pub tel: Option<String>,
    /// Sellers, on change: code.
    pub code: Option<String>,
    /// Sellers, on change: active or inactive.
    pub status: Option<String>,
}

impl PosPersonInput {
    fn over(self, current: pb::PosPerson) -> ApiResult<pb::PosPersonInput> {
        let status = match self.status.as_deref() {
            Some(w) => enum_field::<pb::PosPersonStatus>("status", Some(w), "validation.status")?,
            None => current.status,
        };
        Ok(pb::PosPersonInput {
            user_id: self.user_id.unwrap_or(current.user_id),
            first_name: self.first_name.unwrap_or(current.first_name),
            last_name: self.last_name.unwrap_or(current.last_name),
            email: self.email.unwrap_or(current.email),
            branch_id: self.branch_id.unwrap_or(current.branch_id),
            tel: self.tel.unwrap_or(current.tel),
            code: self.code.unwrap_or(current.code),
            status,
        })
    }
}

async fn list_people(
    state: &AppState,
    auth: &StoreAuth,
    id: i64,
    kind: PosPersonKind,
    page: PageQuery,
) -> ApiResult<Json<List<PosPersonBody>>> {
    auth.require_in(id, POS_READ)?;
    let r = state
        .stores()
        .list_pos_people(
            auth.ctx().request(pb::ListPosPeopleRequest { kind: kind as i32, page: Some(all_by_default(page)) }),
        )
        .await?
        .into_inner();
    Ok(Json(List::new(r.people.into_iter().map(PosPersonBody::from).collect(), r.page)))
}

/// Creates a cashier or seller; the caller has checked the right.
async fn create_person(
    state: &AppState,
    auth: &StoreAuth,
    kind: PosPersonKind,
    p: PosPersonInput,
) -> ApiResult<(StatusCode, Json<PosPersonBody>)> {
    let person = p.over(pb::PosPerson::default())?;
    let r = state
        .stores()
        .create_pos_person(auth.ctx().request(pb::CreatePosPersonRequest { kind: kind as i32, person: Some(person) }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.person.unwrap_or_default().into())))
}

async fn get_person(
    state: &AppState,
    auth: &StoreAuth,
    id: i64,
    kind: PosPersonKind,
    pid: i64,
) -> ApiResult<Json<PosPersonBody>> {
    auth.require_in(id, POS_READ)?;
    let r = state
        .stores()
        .get_pos_person(auth.ctx().request(pb::GetPosPersonRequest { kind: kind as i32, id: pid }))
        .await?
        .into_inner();
    Ok(Json(r.person.unwrap_or_default().into()))
}

/// Changes a cashier or seller; the caller has checked the right.
async fn update_person(
    state: &AppState,
    auth: &StoreAuth,
    kind: PosPersonKind,
    pid: i64,
    p: PosPersonInput,
) -> ApiResult<Json<PosPersonBody>> {
    let mut stores = state.stores();
    let current = stores
        .get_pos_person(auth.ctx().request(pb::GetPosPersonRequest { kind: kind as i32, id: pid }))
        .await?
        .into_inner()
        .person
        .unwrap_or_default();
    let person = p.over(current)?;
    let r = stores
        .update_pos_person(auth.ctx().request(pb::UpdatePosPersonRequest {
            kind: kind as i32,
            id: pid,
            person: Some(person),
        }))
        .await?
        .into_inner();
    Ok(Json(r.person.unwrap_or_default().into()))
}

/// Deletes a cashier or seller; the caller has checked the right.
async fn delete_person(state: &AppState, auth: &StoreAuth, kind: PosPersonKind, pid: i64) -> ApiResult<StatusCode> {
    state
        .stores()
        .delete_pos_person(auth.ctx().request(pb::DeletePosPersonRequest { kind: kind as i32, id: pid }))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// An active member of the store who may be made a cashier.
#[derive(Debug, Serialize, ToSchema)]
pub struct CashierMemberBody {
    /// The member's user id (what a new cashier names).
    pub user_id: i64,
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: String,
    /// Both names.
    pub name: String,
    /// Email.
    pub email: String,
    /// owner, admin or cashier.
    pub permission: String,
    /// Already a cashier of the store.
    pub is_cashier: bool,
}

/// The store's active members, for choosing a new cashier (owner, or store.*: the same right as
/// making one, so the cashier form never needs the team list's user.*).
#[utoipa::path(get, path = "/stores/{id}/cashier-members", tag = "pos", params(("id" = i64, Path)),
    responses((status = 200, body = List<CashierMemberBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn cashier_members(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<List<CashierMemberBody>>> {
    auth.require_in(id, POS_EDIT)?;
    let mut stores = state.stores();
    let all = Some(bo_proto::common::v1::PageRequest { page: 1, limit: -1 });
    let members = stores
        .list_members(auth.ctx().request(pb::ListMembersRequest {
            page: all,
            status: pb::MemberStatus::Active.into(),
            search: String::new(),
        }))
        .await?
        .into_inner()
        .memberships;
    let cashiers = stores
        .list_pos_people(auth.ctx().request(pb::ListPosPeopleRequest {
            kind: PosPersonKind::Cashier as i32,
            page: Some(page_request(None, Some(-1))),
        }))
        .await?
        .into_inner()
        .people;
    let rows: Vec<CashierMemberBody> = members
        .into_iter()
        .map(|m| {
            let u = m.user.unwrap_or_default();
            CashierMemberBody {
                user_id: m.user_id,
                name: format!("{} {}", u.first_name, u.last_name).trim().to_string(),
                first_name: u.first_name,
                last_name: u.last_name,
                email: u.email,
                permission: m.permission,
                is_cashier: cashiers.iter().any(|c| c.user_id == m.user_id),
            }
        })
        .collect();
    Ok(Json(List::all(rows)))
}

/// The store's cashiers by name (all of them unless `limit` is given).
#[utoipa::path(get, path = "/stores/{id}/cashiers", tag = "pos", params(("id" = i64, Path), PageQuery),
    responses((status = 200, body = List<PosPersonBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_cashiers(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Query(page): Query<PageQuery>,
) -> ApiResult<Json<List<PosPersonBody>>> {
    list_people(&state, &auth, id, PosPersonKind::Cashier, page).await
}

/// Makes an active member of the store a cashier at a branch (owner, or store.*).
#[utoipa::path(post, path = "/stores/{id}/cashiers", tag = "pos", params(("id" = i64, Path)), request_body = PosPersonInput,
    responses((status = 201, body = PosPersonBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "cashier_duplicate"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_cashier(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(p): Body<PosPersonInput>,
) -> ApiResult<(StatusCode, Json<PosPersonBody>)> {
    auth.require_in(id, POS_EDIT)?;
    create_person(&state, &auth, PosPersonKind::Cashier, p).await
}

/// One cashier.
#[utoipa::path(get, path = "/stores/{id}/cashiers/{cashier_id}", tag = "pos",
    params(("id" = i64, Path), ("cashier_id" = i64, Path)),
    responses((status = 200, body = PosPersonBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get_cashier(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, cashier_id)): Path<(i64, i64)>,
) -> ApiResult<Json<PosPersonBody>> {
    get_person(&state, &auth, id, PosPersonKind::Cashier, cashier_id).await
}

/// Changes a cashier's names, email or branch (owner, or store.*).
#[utoipa::path(patch, path = "/stores/{id}/cashiers/{cashier_id}", tag = "pos",
    params(("id" = i64, Path), ("cashier_id" = i64, Path)), request_body = PosPersonInput,
    responses((status = 200, body = PosPersonBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_cashier(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, cashier_id)): Path<(i64, i64)>,
    Body(p): Body<PosPersonInput>,
) -> ApiResult<Json<PosPersonBody>> {
    auth.require_in(id, POS_EDIT)?;
    update_person(&state, &auth, PosPersonKind::Cashier, cashier_id, p).await
}

/// Takes a member off the tills (owner, or store.*); their membership stays.
#[utoipa::path(delete, path = "/stores/{id}/cashiers/{cashier_id}", tag = "pos",
    params(("id" = i64, Path), ("cashier_id" = i64, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn delete_cashier(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, cashier_id)): Path<(i64, i64)>,
) -> ApiResult<StatusCode> {
    auth.require_in(id, POS_EDIT)?;
    delete_person(&state, &auth, PosPersonKind::Cashier, cashier_id).await
}

/// The store's sellers by name (all of them unless `limit` is given).
#[utoipa::path(get, path = "/stores/{id}/sellers", tag = "pos", params(("id" = i64, Path), PageQuery),
    responses((status = 200, body = List<PosPersonBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_sellers(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Query(page): Query<PageQuery>,
) -> ApiResult<Json<List<PosPersonBody>>> {
    list_people(&state, &auth, id, PosPersonKind::Seller, page).await
}

/// Adds a seller (owner, or store.*): active, with no phone or code yet.
#[utoipa::path(post, path = "/stores/{id}/sellers", tag = "pos", params(("id" = i64, Path)), request_body = PosPersonInput,
    responses((status = 201, body = PosPersonBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "seller_email_duplicate"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_seller(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(p): Body<PosPersonInput>,
) -> ApiResult<(StatusCode, Json<PosPersonBody>)> {
    auth.require_in(id, POS_EDIT)?;
    create_person(&state, &auth, PosPersonKind::Seller, p).await
}

/// One seller.
#[utoipa::path(get, path = "/stores/{id}/sellers/{seller_id}", tag = "pos",
    params(("id" = i64, Path), ("seller_id" = i64, Path)),
    responses((status = 200, body = PosPersonBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get_seller(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, seller_id)): Path<(i64, i64)>,
) -> ApiResult<Json<PosPersonBody>> {
    get_person(&state, &auth, id, PosPersonKind::Seller, seller_id).await
}

/// Changes a seller (owner, or store.*); only the fields given change.
#[utoipa::path(patch, path = "/stores/{id}/sellers/{seller_id}", tag = "pos",
    params(("id" = i64, Path), ("seller_id" = i64, Path)), request_body = PosPersonInput,
    responses((status = 200, body = PosPersonBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "seller_email_duplicate"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_seller(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, seller_id)): Path<(i64, i64)>,
    Body(p): Body<PosPersonInput>,
) -> ApiResult<Json<PosPersonBody>> {
    auth.require_in(id, POS_EDIT)?;
    update_person(&state, &auth, PosPersonKind::Seller, seller_id, p).await
}

/// Deletes a seller (owner, or store.*).
#[utoipa::path(delete, path = "/stores/{id}/sellers/{seller_id}", tag = "pos",
    params(("id" = i64, Path), ("seller_id" = i64, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn delete_seller(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, seller_id)): Path<(i64, i64)>,
) -> ApiResult<StatusCode> {
    auth.require_in(id, POS_EDIT)?;
    delete_person(&state, &auth, PosPersonKind::Seller, seller_id).await
}
