//! Customers and their address books (SPEC §2 Customers, §3, §5, §7).

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::stores::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::state::AppState;
use crate::wire::{Body, List, PageQuery, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_customers, create_customer))
        .routes(routes!(get_customer, update_customer, delete_customer))
        .routes(routes!(list_addresses, create_address))
        .routes(routes!(get_address, update_address, delete_address))
        .routes(routes!(set_default_address))
}

const READ: Access = Access { roles: &[], perms: &[keys::STORE_CUSTOMER_READ] };
const CREATE: Access = Access { roles: &[], perms: &[keys::STORE_CUSTOMER_CREATE] };
const EDIT: Access = Access { roles: &[], perms: &[keys::STORE_CUSTOMER_EDIT] };

/// An address in a customer's book.
#[derive(Debug, Serialize, ToSchema)]
pub struct AddressBody {
    /// Id.
    pub id: i64,
    /// The customer.
    pub customer_id: i64,
    /// Recipient name.
    pub name: String,
    /// Recipient phone.
    pub tel: String,
    /// Recipient email.
    pub email: String,
    /// Address line.
    pub address: String,
    /// Sub-district (Thai addresses).
    pub sub_district: String,
    /// District (Thai addresses).
    pub district: String,
    /// Province, or state abroad.
    pub state_province: String,
    /// Postcode.
    pub postcode: String,
    /// ISO country code (TH for Thai addresses).
    pub country: String,
    /// City (abroad).
    pub city: String,
    /// The default address.
    pub is_default: bool,
    /// Created.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
}

impl From<pb::Address> for AddressBody {
    fn from(a: pb::Address) -> Self {
        AddressBody {
            id: a.id,
            customer_id: a.customer_id,
            name: a.name,
            tel: a.tel,
            email: a.email,
            address: a.address,
            sub_district: a.sub_district,
            district: a.district,
            state_province: a.state_province,
            postcode: a.postcode,
            country: a.country,
            city: a.city,
            is_default: a.is_default,
            created_at: timestamp_to_rfc3339(a.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(a.update_time.as_ref()),
        }
    }
}

/// A customer; the address fields are its default address's.
#[derive(Debug, Serialize, ToSchema)]
pub struct CustomerBody {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Phone (digits).
    pub tel: String,
    /// Email.
    pub email: String,
    /// Facebook contact.
    pub facebook: String,
    /// LINE contact.
    pub line: String,
    /// Address line of the default address.
    pub address: String,
    /// Sub-district.
    pub sub_district: String,
    /// District.
    pub district: String,
    /// Province or state.
    pub state_province: String,
    /// Postcode.
    pub postcode: String,
    /// Country code.
    pub country: String,
    /// City.
    pub city: String,
    /// The default address's id.
    pub default_address_id: i64,
    /// Addresses in the book.
    pub address_count: i64,
    /// Orders placed.
    pub order_count: i64,
    /// Who created it.
    pub created_by: i64,
    /// Who last changed it.
    pub updated_by: i64,
    /// Created.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
}

impl From<pb::Customer> for CustomerBody {
    fn from(c: pb::Customer) -> Self {
        let a = c.default_address.unwrap_or_default();
        CustomerBody {
            id: c.id,
            name: c.name,
            tel: c.tel,
            email: c.email,
            facebook: c.facebook,
            line: c.line,
            address: a.address,
            sub_district: a.sub_district,
            district: a.district,
            state_province: a.state_province,
            postcode: a.postcode,
            country: a.country,
            city: a.city,
            default_address_id: a.id,
            address_count: c.address_count,
            order_count: c.order_count,
            created_by: c.created_by,
            updated_by: c.updated_by,
            created_at: timestamp_to_rfc3339(c.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(c.update_time.as_ref()),
        }
    }
}

/// A new customer with its first address.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct CustomerInput {
    /// Name (required).
    pub name: String,
    /// Phone, 9 or 10 digits (required, unique in the store).
    pub tel: String,
    /// Email.
    pub email: String,
    /// Facebook contact.
    pub facebook: String,
    /// LINE contact.
    pub line: String,
    /// Address line (required).
    pub address: String,
    /// Sub-district (required for Thai addresses).
    pub sub_district: String,
    /// District (required for Thai addresses).
    pub district: String,
    /// Province, or state abroad.
    pub state_province: String,
    /// Postcode (5 digits in Thailand).
    pub postcode: String,
    /// ISO country code; empty means TH.
    pub country: String,
    /// City (required abroad).
    pub city: String,
    /// Marked as an address abroad: a country other than TH is then required.
    pub international: bool,
}

/// Customer changes: only the fields given change; address fields change the default
/// address.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct CustomerPatch {
    /// Name.
    pub name: Option<String>,
    /// Phone.
    pub tel: Option<String>,
    /// Email.
    pub email: Option<String>,
    /// Facebook contact.
    pub facebook: Option<String>,
    /// LINE contact.
    pub line: Option<String>,
    /// Address line.
    pub address: Option<String>,
    /// Sub-district.
    pub sub_district: Option<String>,
    /// District.
    pub district: Option<String>,
    /// Province or state.
    pub state_province: Option<String>,
    /// Postcode.
    pub postcode: Option<String>,
    /// Country code.
    pub country: Option<String>,
    /// City.
    pub city: Option<String>,
    /// Marked as an address abroad: a country other than TH is then required.
    pub international: Option<bool>,
}

/// A new address.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct AddressInput {
    /// Recipient name (defaults to the customer's).
    pub name: String,
    /// Recipient phone (defaults to the customer's).
    pub tel: String,
    /// Recipient email.
    pub email: String,
    /// Address line (required).
    pub address: String,
    /// Sub-district (required for Thai addresses).
    pub sub_district: String,
    /// District (required for Thai addresses).
    pub district: String,
    /// Province, or state abroad.
    pub state_province: String,
    /// Postcode.
    pub postcode: String,
    /// ISO country code; empty means TH.
    pub country: String,
    /// City (required abroad).
    pub city: String,
    /// Make it the default address.
    pub is_default: bool,
    /// Marked as an address abroad: a country other than TH is then required.
    pub international: bool,
}

/// Address changes: only the fields given change.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct AddressPatchInput {
    /// Recipient name.
    pub name: Option<String>,
    /// Recipient phone.
    pub tel: Option<String>,
    /// Recipient email.
    pub email: Option<String>,
    /// Address line.
    pub address: Option<String>,
    /// Sub-district.
    pub sub_district: Option<String>,
    /// District.
    pub district: Option<String>,
    /// Province or state.
    pub state_province: Option<String>,
    /// Postcode.
    pub postcode: Option<String>,
    /// Country code.
    pub country: Option<String>,
    /// City.
    pub city: Option<String>,
    /// Marked as an address abroad: a country other than TH is then required.
    pub international: Option<bool>,
}

/// SPEC §5: an address marked international needs its country; without one it would be
/// taken for a Thai address.
fn abroad_needs_a_country(international: bool, country: Option<&str>) -> Result<(), crate::error::ApiError> {
    let country = country.map(str::trim).unwrap_or("");
    if international && (country.is_empty() || country.eq_ignore_ascii_case("TH")) {
        return Err(crate::error::ApiError::invalid_field("country", "validation.country"));
    }
    Ok(())
}

/// Customer search.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct CustomerQuery {
    /// Part of a name or a phone number.
    pub search: Option<String>,
    /// Page number.
    pub page: Option<i64>,
    /// Page size; -1 for all.
    pub limit: Option<i64>,
}

/// A store's customers, searched by name or phone and paged.
#[utoipa::path(get, path = "/stores/{id}/customers", tag = "customers", params(("id" = i64, Path), CustomerQuery),
    responses((status = 200, body = List<CustomerBody>), (status = 403, body = ErrorBody)), security(("bearer" = [])))]
async fn list_customers(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Query(q): Query<CustomerQuery>,
) -> ApiResult<Json<List<CustomerBody>>> {
    auth.require_in(id, READ)?;
    let page = PageQuery { page: q.page, limit: q.limit };
    let r =
        state
            .stores()
            .list_customers(auth.ctx().request(pb::ListCustomersRequest {
                search: q.search.unwrap_or_default(),
                page: Some(page.to_proto()),
            }))
            .await?
            .into_inner();
    Ok(Json(List::new(r.customers.into_iter().map(CustomerBody::from).collect(), r.page)))
}

/// Creates a customer with its first (default) address.
#[utoipa::path(post, path = "/stores/{id}/customers", tag = "customers", params(("id" = i64, Path)), request_body = CustomerInput,
    responses((status = 201, body = CustomerBody), (status = 409, body = ErrorBody, description = "customer_phone_duplicate"),
        (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn create_customer(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(c): Body<CustomerInput>,
) -> ApiResult<(StatusCode, Json<CustomerBody>)> {
    auth.require_in(id, CREATE)?;
    abroad_needs_a_country(c.international, Some(&c.country))?;
    let r = state
        .stores()
        .create_customer(auth.ctx().request(pb::CreateCustomerRequest {
            name: c.name,
            tel: c.tel,
            email: c.email,
            facebook: c.facebook,
            line: c.line,
            address: Some(pb::AddressInput {
                name: String::new(),
                tel: String::new(),
                address: c.address,
                sub_district: c.sub_district,
                district: c.district,
                state_province: c.state_province,
                postcode: c.postcode,
                country: c.country,
                city: c.city,
                email: String::new(),
            }),
        }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.customer.unwrap_or_default().into())))
}

/// One customer.
#[utoipa::path(get, path = "/stores/{id}/customers/{customer_id}", tag = "customers",
    params(("id" = i64, Path), ("customer_id" = i64, Path)),
    responses((status = 200, body = CustomerBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn get_customer(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, customer_id)): Path<(i64, i64)>,
) -> ApiResult<Json<CustomerBody>> {
    auth.require_in(id, READ)?;
    let r =
        state.stores().get_customer(auth.ctx().request(pb::GetCustomerRequest { id: customer_id })).await?.into_inner();
    Ok(Json(r.customer.unwrap_or_default().into()))
}

/// Changes a customer.
#[utoipa::path(patch, path = "/stores/{id}/customers/{customer_id}", tag = "customers",
    params(("id" = i64, Path), ("customer_id" = i64, Path)), request_body = CustomerPatch,
    responses((status = 200, body = CustomerBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn update_customer(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, customer_id)): Path<(i64, i64)>,
    Body(p): Body<CustomerPatch>,
) -> ApiResult<Json<CustomerBody>> {
    auth.require_in(id, EDIT)?;
    abroad_needs_a_country(p.international.unwrap_or(false), p.country.as_deref())?;
    let r = state
        .stores()
        .update_customer(auth.ctx().request(pb::UpdateCustomerRequest {
            id: customer_id,
            name: p.name,
            tel: p.tel,
            email: p.email,
            facebook: p.facebook,
            line: p.line,
            address: Some(pb::AddressPatch {
                address: p.address,
                sub_district: p.sub_district,
                district: p.district,
                state_province: p.state_province,
                postcode: p.postcode,
                country: p.country,
                city: p.city,
                ..Default::default()
            }),
        }))
        .await?
        .into_inner();
    Ok(Json(r.customer.unwrap_or_default().into()))
}

/// Deletes a customer and its address book.
#[utoipa::path(delete, path = "/stores/{id}/customers/{customer_id}", tag = "customers",
    params(("id" = i64, Path), ("customer_id" = i64, Path)),
    responses((status = 204), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn delete_customer(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, customer_id)): Path<(i64, i64)>,
) -> ApiResult<StatusCode> {
    auth.require_in(id, EDIT)?;
    state.stores().delete_customer(auth.ctx().request(pb::DeleteCustomerRequest { id: customer_id })).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A customer's address book, default first.
#[utoipa::path(get, path = "/stores/{id}/customers/{customer_id}/addresses", tag = "customers",
    params(("id" = i64, Path), ("customer_id" = i64, Path), PageQuery),
    responses((status = 200, body = List<AddressBody>), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn list_addresses(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, customer_id)): Path<(i64, i64)>,
    Query(page): Query<PageQuery>,
) -> ApiResult<Json<List<AddressBody>>> {
    auth.require_in(id, READ)?;
    let r = state
        .stores()
        .list_addresses(auth.ctx().request(pb::ListAddressesRequest { customer_id, page: Some(page.to_proto()) }))
        .await?
        .into_inner();
    Ok(Json(List::new(r.addresses.into_iter().map(AddressBody::from).collect(), r.page)))
}

/// Adds an address to a customer's book.
#[utoipa::path(post, path = "/stores/{id}/customers/{customer_id}/addresses", tag = "customers",
    params(("id" = i64, Path), ("customer_id" = i64, Path)), request_body = AddressInput,
    responses((status = 201, body = AddressBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_address(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, customer_id)): Path<(i64, i64)>,
    Body(a): Body<AddressInput>,
) -> ApiResult<(StatusCode, Json<AddressBody>)> {
    auth.require_in(id, EDIT)?;
    abroad_needs_a_country(a.international, Some(&a.country))?;
    let r = state
        .stores()
        .create_address(auth.ctx().request(pb::CreateAddressRequest {
            customer_id,
            make_default: a.is_default,
            address: Some(pb::AddressInput {
                name: a.name,
                tel: a.tel,
                address: a.address,
                sub_district: a.sub_district,
                district: a.district,
                state_province: a.state_province,
                postcode: a.postcode,
                country: a.country,
                city: a.city,
                email: a.email,
            }),
        }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.address.unwrap_or_default().into())))
}

/// One address.
#[utoipa::path(get, path = "/stores/{id}/customers/{customer_id}/addresses/{address_id}", tag = "customers",
    params(("id" = i64, Path), ("customer_id" = i64, Path), ("address_id" = i64, Path)),
    responses((status = 200, body = AddressBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn get_address(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, customer_id, address_id)): Path<(i64, i64, i64)>,
) -> ApiResult<Json<AddressBody>> {
    auth.require_in(id, READ)?;
    let r = state
        .stores()
        .get_address(auth.ctx().request(pb::GetAddressRequest { customer_id, id: address_id }))
        .await?
        .into_inner();
    Ok(Json(r.address.unwrap_or_default().into()))
}

/// Changes an address.
#[utoipa::path(patch, path = "/stores/{id}/customers/{customer_id}/addresses/{address_id}", tag = "customers",
    params(("id" = i64, Path), ("customer_id" = i64, Path), ("address_id" = i64, Path)), request_body = AddressPatchInput,
    responses((status = 200, body = AddressBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn update_address(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, customer_id, address_id)): Path<(i64, i64, i64)>,
    Body(p): Body<AddressPatchInput>,
) -> ApiResult<Json<AddressBody>> {
    auth.require_in(id, EDIT)?;
    abroad_needs_a_country(p.international.unwrap_or(false), p.country.as_deref())?;
    let r = state
        .stores()
        .update_address(auth.ctx().request(pb::UpdateAddressRequest {
            customer_id,
            id: address_id,
            address: Some(pb::AddressPatch {
                name: p.name,
                tel: p.tel,
                address: p.address,
                sub_district: p.sub_district,
                district: p.district,
                state_province: p.state_province,
                postcode: p.postcode,
                country: p.country,
                city: p.city,
                email: p.email,
            }),
        }))
        .await?
        .into_inner();
    Ok(Json(r.address.unwrap_or_default().into()))
}

/// Deletes an address; the last one cannot go, and the default moves to the oldest
/// remaining one.
#[utoipa::path(delete, path = "/stores/{id}/customers/{customer_id}/addresses/{address_id}", tag = "customers",
    params(("id" = i64, Path), ("customer_id" = i64, Path), ("address_id" = i64, Path)),
    responses((status = 204), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)), security(("bearer" = [])))]
async fn delete_address(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, customer_id, address_id)): Path<(i64, i64, i64)>,
) -> ApiResult<StatusCode> {
    auth.require_in(id, EDIT)?;
    state.stores().delete_address(auth.ctx().request(pb::DeleteAddressRequest { customer_id, id: address_id })).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Makes an address the customer's default.
#[utoipa::path(post, path = "/stores/{id}/customers/{customer_id}/addresses/{address_id}/set-default-address",
    tag = "customers", params(("id" = i64, Path), ("customer_id" = i64, Path), ("address_id" = i64, Path)),
    responses((status = 200, body = AddressBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn set_default_address(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, customer_id, address_id)): Path<(i64, i64, i64)>,
) -> ApiResult<Json<AddressBody>> {
    auth.require_in(id, EDIT)?;
    let r = state
        .stores()
        .set_default_address(auth.ctx().request(pb::SetDefaultAddressRequest { customer_id, id: address_id }))
        .await?
        .into_inner();
    Ok(Json(r.address.unwrap_or_default().into()))
}
