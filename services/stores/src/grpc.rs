//! The tonic service: reads the call, applies the domain rules, calls storage, maps back.

use bo_kit::cpu::{Pool, Priority, Running};
use bo_kit::error::Kind;
use bo_kit::grpc::CallCtx;
use bo_kit::outbox::Relay;
use bo_kit::Code;
use bo_kit::Error;
use bo_proto::stores::v1 as pb;
use bo_proto::stores::v1::stores_service_server::StoresService;
use tonic::{Request, Response, Status};

use crate::convert;
use crate::domain::customer::{self, AddressDraft, AddressPatch, CustomerDraft};
use crate::domain::roles::status;
use crate::domain::settings::{self, UnitDraft, UnitPatch};
use crate::domain::store::StorePatch;
use crate::domain::user;
use crate::store::{Idempotency, Repo};

/// Password hashing and checking (argon2, about 19 MiB and tens of milliseconds each): half the
/// machine's cores at a time (one on two cores, so a flood of guesses leaves a core to the
/// known devices' lane, the database and the other services), at the lower priority, and
/// sixteen in line; a sign-in or registration beyond those is answered `sign_in_busy` at once
/// rather than queued behind a flood.
pub(crate) static PASSWORDS: Pool = Pool::new(Running::HalfTheCores, 16, Priority::Lower);
/// The lane of sign-ins from a device the account signed in on before (the gateway checked
/// its device token): one at a time and four in line, never behind strangers' guesses, and at
/// the priority of the threads that answer requests, so a flood's answers do not starve it.
pub(crate) static KNOWN_DEVICES: Pool = Pool::new(Running::Exactly(1), 4, Priority::Normal);

mod pictures;
mod pos;
mod team;

/// The stock ledger's client, to check the warehouses a branch or POS unit names.
pub type WmsClient = bo_proto::wms::v1::wms_service_client::WmsServiceClient<bo_kit::grpc::GrpcChannel>;

/// The stores service.
#[derive(Clone)]
pub struct StoresGrpc {
    repo: Repo,
    relay: Relay,
    session_ttl_ms: i64,
    /// None for the operator's commands, which never save a warehouse.
    wms: Option<WmsClient>,
    /// Where pictures are kept; None for the operator's commands, which never upload.
    files: Option<bo_kit::files::Files>,
}

impl StoresGrpc {
    /// The service on `repo`, waking `relay` after writes with events.
    pub fn new(repo: Repo, relay: Relay, session_ttl_ms: i64) -> Self {
        Self { repo, relay, session_ttl_ms, wms: None, files: None }
    }

    /// The service keeping pictures in `files`.
    pub fn with_files(mut self, files: bo_kit::files::Files) -> Self {
        self.files = Some(files);
        self
    }

    /// The service checking warehouses with `wms`.
    pub fn with_wms(mut self, wms: WmsClient) -> Self {
        self.wms = Some(wms);
        self
    }

    /// Creates an owner and their store (used by the admin command and the demo).
    pub async fn create_owner(&self, r: pb::CreateOwnerRequest) -> bo_kit::Result<pb::CreateOwnerResponse> {
        user::validate_new_account(&r.email, &r.password)?;
        if r.store_name.trim().is_empty() {
            return Err(Error::invalid_field("store_name", crate::domain::msg::REQUIRED));
        }
        if r.only_if_first && self.repo.has_users().await? {
            return Ok(pb::CreateOwnerResponse::default());
        }
        let hash = user::hash_password(&r.password)?;
        let (u, s) = self
            .repo
            .create_owner(
                &user::normalise_email(&r.email),
                &hash,
                r.first_name.trim(),
                r.last_name.trim(),
                r.store_name.trim(),
            )
            .await?;
        self.relay.wake();
        Ok(pb::CreateOwnerResponse { user: Some(convert::user(&u)), store: Some(convert::store(&s)) })
    }
}

impl StoresGrpc {
    /// Adds a staff member to a store (admin command, until invitations arrive): a new user
    /// with `password`, or an existing one, with the built-in role of `permission` or a store
    /// role holding `role_permissions`.
    pub async fn add_member(
        &self,
        store_id: i64,
        email: &str,
        password: &str,
        permission: &str,
        role_permissions: Option<(&str, Vec<String>)>,
    ) -> bo_kit::Result<pb::Membership> {
        user::validate_new_account(email, password)?;
        let permission = crate::domain::roles::Permission::parse(permission)
            .filter(|p| *p != crate::domain::roles::Permission::Owner)
            .ok_or_else(|| Error::invalid_field("permission", "validation.permission"))?;
        let hash = user::hash_password(password)?;
        let role = role_permissions.as_ref().map(|(name, perms)| (*name, perms.as_slice()));
        let m = self.repo.add_member(store_id, &user::normalise_email(email), &hash, "", "", permission, role).await?;
        Ok(convert::membership(&m))
    }

    /// The bill-expiry setting that held at `at` and when a bill made then expires (0 never).
    async fn bill_terms(&self, store_id: i64, at: i64) -> bo_kit::Result<(pb::BillExpirySetting, i64)> {
        let row = self.repo.bill_expiry_at(store_id, at).await?;
        let expires_at_ms = row
            .as_ref()
            .and_then(|s| {
                crate::domain::bills::BillExpiry {
                    expiry_type: s.expiry_type.clone(),
                    days: s.days,
                    hours: s.hours,
                    minutes: s.minutes,
                    on_expiry: s.on_expiry.clone(),
                }
                .expires_at(at)
            })
            .unwrap_or(0);
        Ok((convert::bill_expiry(row.as_ref()), expires_at_ms))
    }
}

impl StoresGrpc {
    /// Hides or shows a menu for a store (the operator's `admin menus` command); answers the
    /// store's hiding list.
    pub async fn set_menu_hidden(&self, store_id: i64, key: &str, hidden: bool) -> bo_kit::Result<Vec<String>> {
        if !crate::domain::store::is_menu_key(key) {
            return Err(Error::invalid_field("menu", "validation.menu_key"));
        }
        self.repo.set_menu_hidden(store_id, key, hidden).await
    }

    /// A store's hiding list.
    pub async fn menu_hiding(&self, store_id: i64) -> bo_kit::Result<Vec<String>> {
        let s = self.repo.store(store_id).await?;
        Ok(serde_json::from_str(&s.menu_hiding_list).unwrap_or_default())
    }
}

type Rpc<T> = Result<Response<T>, Status>;

fn ok<T>(v: T) -> Rpc<T> {
    Ok(Response::new(v))
}

fn address_draft(a: Option<pb::AddressInput>) -> AddressDraft {
    let a = a.unwrap_or_default();
    AddressDraft {
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
    }
}

fn address_patch(p: Option<pb::AddressPatch>) -> AddressPatch {
    let p = p.unwrap_or_default();
    AddressPatch {
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
    }
}

#[tonic::async_trait]
impl StoresService for StoresGrpc {
    async fn get_rules(&self, _req: Request<pb::GetRulesRequest>) -> Rpc<pb::GetRulesResponse> {
        use crate::domain::bills;
        Ok(Response::new(pb::GetRulesResponse {
            bill_expiry_types: bills::TYPES.iter().map(|t| t.to_string()).collect(),
            bill_expiry_actions: bills::ACTIONS.iter().map(|t| t.to_string()).collect(),
            bill_expiry_max_days: bills::MAX_DAYS,
            bill_expiry_max_hours: bills::MAX_HOURS,
        }))
    }

    async fn authenticate(&self, req: Request<pb::AuthenticateRequest>) -> Rpc<pb::AuthenticateResponse> {
        // Only a gateway (a service) vouches for a device.
        let known_device = req.get_ref().known_device && bo_kit::grpc::service_only(&req).is_ok();
        let r = req.into_inner();
        let found = self.repo.user_by_email(&user::normalise_email(&r.email)).await?;
        let password = r.password;
        let hash = found.as_ref().map(|u| u.password_hash.clone());
        // argon2 is deliberately slow and memory-hungry: off the async workers, in a pool of
        // its own that turns a flood away instead of queueing it.
        let lane = if known_device { &KNOWN_DEVICES } else { &PASSWORDS };
        let valid = lane
            .try_run(move || user::verify_password(&password, hash.as_deref()))
            .await
            .map_err(Error::internal)?
            .ok_or_else(|| Error::new(Kind::Unavailable, Code::SignInBusy))?;
        let Some(u) = found.filter(|_| valid) else {
            return Err(Error::unauthenticated(Code::InvalidCredentials).into());
        };
        let session_id = self.repo.create_session(u.id, self.session_ttl_ms).await?;
        ok(pb::AuthenticateResponse { user: Some(convert::user(&u)), session_id })
    }

    async fn end_session(&self, req: Request<pb::EndSessionRequest>) -> Rpc<pb::EndSessionResponse> {
        self.repo.end_session(&req.into_inner().session_id).await?;
        ok(pb::EndSessionResponse {})
    }

    async fn check_session(&self, req: Request<pb::CheckSessionRequest>) -> Rpc<pb::CheckSessionResponse> {
        let r = req.into_inner();
        if r.store_id == 0 {
            let user = self.repo.session_user(&r.session_id).await?;
            return ok(pb::CheckSessionResponse {
                active: user.is_some(),
                user_id: user.unwrap_or(0),
                membership_current: false,
            });
        }
        let access = self.repo.session_access(&r.session_id, r.store_id).await?;
        ok(pb::CheckSessionResponse {
            active: access.is_some(),
            user_id: access.as_ref().map_or(0, |a| a.user_id),
            membership_current: access.is_some_and(|a| a.store_token_holds(r.membership_version)),
        })
    }

    async fn list_members(&self, req: Request<pb::ListMembersRequest>) -> Rpc<pb::ListMembersResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.list_members_in(ctx, req.into_inner()).await?)
    }

    async fn get_member(&self, req: Request<pb::GetMemberRequest>) -> Rpc<pb::GetMemberResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.get_member_in(ctx, req.into_inner()).await?)
    }

    async fn update_member(&self, req: Request<pb::UpdateMemberRequest>) -> Rpc<pb::UpdateMemberResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.update_member_in(ctx, req.into_inner()).await?)
    }

    async fn remove_member(&self, req: Request<pb::RemoveMemberRequest>) -> Rpc<pb::RemoveMemberResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.remove_member_in(ctx, req.into_inner()).await?)
    }

    async fn list_roles(&self, req: Request<pb::ListRolesRequest>) -> Rpc<pb::ListRolesResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.list_roles_in(ctx).await?)
    }

    async fn get_role(&self, req: Request<pb::GetRoleRequest>) -> Rpc<pb::GetRoleResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.get_role_in(ctx, req.into_inner()).await?)
    }

    async fn create_role(&self, req: Request<pb::CreateRoleRequest>) -> Rpc<pb::CreateRoleResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.create_role_in(ctx, req.into_inner()).await?)
    }

    async fn update_role(&self, req: Request<pb::UpdateRoleRequest>) -> Rpc<pb::UpdateRoleResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.update_role_in(ctx, req.into_inner()).await?)
    }

    async fn delete_role(&self, req: Request<pb::DeleteRoleRequest>) -> Rpc<pb::DeleteRoleResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.delete_role_in(ctx, req.into_inner()).await?)
    }

    async fn list_invitations(&self, req: Request<pb::ListInvitationsRequest>) -> Rpc<pb::ListInvitationsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.list_invitations_in(ctx).await?)
    }

    async fn create_invitation(&self, req: Request<pb::CreateInvitationRequest>) -> Rpc<pb::CreateInvitationResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.create_invitation_in(ctx, req.into_inner()).await?)
    }

    async fn delete_invitation(&self, req: Request<pb::DeleteInvitationRequest>) -> Rpc<pb::DeleteInvitationResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.delete_invitation_in(ctx, req.into_inner()).await?)
    }

    async fn preview_invitation(
        &self,
        req: Request<pb::PreviewInvitationRequest>,
    ) -> Rpc<pb::PreviewInvitationResponse> {
        ok(self.preview_invitation_in(req.into_inner()).await?)
    }

    async fn accept_invitation(&self, req: Request<pb::AcceptInvitationRequest>) -> Rpc<pb::AcceptInvitationResponse> {
        bo_kit::grpc::user_for(&req, req.get_ref().user_id)?;
        ok(self.accept_invitation_in(req.into_inner()).await?)
    }

    async fn register(&self, req: Request<pb::RegisterRequest>) -> Rpc<pb::RegisterResponse> {
        ok(self.register_in(req.into_inner()).await?)
    }

    async fn list_audit(&self, req: Request<pb::ListAuditRequest>) -> Rpc<pb::ListAuditResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.list_audit_in(ctx, req.into_inner()).await?)
    }

    async fn create_owner(&self, req: Request<pb::CreateOwnerRequest>) -> Rpc<pb::CreateOwnerResponse> {
        ok(StoresGrpc::create_owner(self, req.into_inner()).await?)
    }

    async fn list_user_stores(&self, req: Request<pb::ListUserStoresRequest>) -> Rpc<pb::ListUserStoresResponse> {
        bo_kit::grpc::user_for(&req, req.get_ref().user_id)?;
        let r = req.into_inner();
        let (rows, page) = self.repo.memberships(r.user_id, convert::page_request(r.page.as_ref())).await?;
        ok(pb::ListUserStoresResponse {
            memberships: rows.iter().map(convert::membership).collect(),
            page: Some(convert::page(&page)),
        })
    }

    async fn get_user_store(&self, req: Request<pb::GetUserStoreRequest>) -> Rpc<pb::GetUserStoreResponse> {
        bo_kit::grpc::user_for(&req, req.get_ref().user_id)?;
        let r = req.into_inner();
        let m = self.repo.membership(r.user_id, r.id).await?;
        ok(pb::GetUserStoreResponse { membership: Some(convert::membership(&m)) })
    }

    async fn authorize(&self, req: Request<pb::AuthorizeRequest>) -> Rpc<pb::AuthorizeResponse> {
        bo_kit::grpc::user_for(&req, req.get_ref().user_id)?;
        let r = req.into_inner();
        match self.repo.membership_in(r.user_id, r.store_id).await? {
            Some(m) if m.status == status::ACTIVE => {
                ok(pb::AuthorizeResponse { membership: Some(convert::membership(&m)) })
            }
            Some(_) => Err(Error::permission_denied(Code::MembershipInactive).into()),
            None => Err(Error::permission_denied(Code::NotAMember).into()),
        }
    }

    async fn get_store(&self, req: Request<pb::GetStoreRequest>) -> Rpc<pb::GetStoreResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let s = self.repo.store(ctx.store_id).await?;
        let logo = self.repo.picture(ctx.store_id, crate::domain::identity::Slot::Logo).await?;
        ok(pb::GetStoreResponse { store: Some(pb::Store { logo: logo.unwrap_or_default(), ..convert::store(&s) }) })
    }

    async fn update_store(&self, req: Request<pb::UpdateStoreRequest>) -> Rpc<pb::UpdateStoreResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let patch = StorePatch {
            name: r.name,
            address: r.address,
            sub_district: r.sub_district,
            district: r.district,
            province: r.province,
            postcode: r.postcode,
            tel: r.tel,
            vat_included: r.vat_included,
        }
        .validate()?;
        let s = self.repo.update_store(ctx.store_id, ctx.user_id, patch).await?;
        ok(pb::UpdateStoreResponse { store: Some(convert::store(&s)) })
    }

    async fn list_customers(&self, req: Request<pb::ListCustomersRequest>) -> Rpc<pb::ListCustomersResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let (rows, page) = self.repo.customers(ctx.store_id, &r.search, convert::page_request(r.page.as_ref())).await?;
        ok(pb::ListCustomersResponse {
            customers: rows.iter().map(convert::customer).collect(),
            page: Some(convert::page(&page)),
        })
    }

    async fn get_customer(&self, req: Request<pb::GetCustomerRequest>) -> Rpc<pb::GetCustomerResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let c = self.repo.customer(ctx.store_id, req.into_inner().id).await?;
        ok(pb::GetCustomerResponse { customer: Some(convert::customer(&c)) })
    }

    async fn create_customer(&self, req: Request<pb::CreateCustomerRequest>) -> Rpc<pb::CreateCustomerResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let draft = CustomerDraft { name: r.name, tel: r.tel, email: r.email, facebook: r.facebook, line: r.line };
        let (c, a) = customer::validate_new(draft, address_draft(r.address))?;
        let row = self.repo.create_customer(ctx.store_id, ctx.user_id, c, a).await?;
        self.relay.wake();
        ok(pb::CreateCustomerResponse { customer: Some(convert::customer(&row)) })
    }

    async fn update_customer(&self, req: Request<pb::UpdateCustomerRequest>) -> Rpc<pb::UpdateCustomerResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let cur = self.repo.customer(ctx.store_id, r.id).await?;
        let draft = CustomerDraft {
            name: r.name.unwrap_or(cur.name.clone()),
            tel: r.tel.unwrap_or(cur.tel.clone()),
            email: r.email.unwrap_or(cur.email.clone()),
            facebook: r.facebook.unwrap_or(cur.facebook.clone()),
            line: r.line.unwrap_or(cur.line.clone()),
        };
        let patch = address_patch(r.address);
        let mut errs = crate::domain::Errors::default();
        let draft = draft.validate(&mut errs);
        let address = if patch.is_empty() {
            None
        } else {
            let current = self.repo.default_address(ctx.store_id, r.id).await?;
            Some(current.draft().patched(&patch).validate(&mut errs, ""))
        };
        errs.finish()?;
        let row = self.repo.update_customer(ctx.store_id, ctx.user_id, r.id, draft, address).await?;
        self.relay.wake();
        ok(pb::UpdateCustomerResponse { customer: Some(convert::customer(&row)) })
    }

    async fn delete_customer(&self, req: Request<pb::DeleteCustomerRequest>) -> Rpc<pb::DeleteCustomerResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        self.repo.delete_customer(ctx.store_id, ctx.user_id, req.into_inner().id).await?;
        self.relay.wake();
        ok(pb::DeleteCustomerResponse {})
    }

    async fn list_addresses(&self, req: Request<pb::ListAddressesRequest>) -> Rpc<pb::ListAddressesResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let (rows, page) =
            self.repo.addresses(ctx.store_id, r.customer_id, convert::page_request(r.page.as_ref())).await?;
        ok(pb::ListAddressesResponse {
            addresses: rows.iter().map(convert::address).collect(),
            page: Some(convert::page(&page)),
        })
    }

    async fn get_address(&self, req: Request<pb::GetAddressRequest>) -> Rpc<pb::GetAddressResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let a = self.repo.address(ctx.store_id, r.customer_id, r.id).await?;
        ok(pb::GetAddressResponse { address: Some(convert::address(&a)) })
    }

    async fn create_address(&self, req: Request<pb::CreateAddressRequest>) -> Rpc<pb::CreateAddressResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let owner = self.repo.customer(ctx.store_id, r.customer_id).await?;
        let mut draft = address_draft(r.address);
        // A new address is for the customer unless it names someone else.
        if draft.name.trim().is_empty() {
            draft.name = owner.name;
        }
        if draft.tel.trim().is_empty() {
            draft.tel = owner.tel;
        }
        let a = customer::validate_address(draft)?;
        let row = self.repo.create_address(ctx.store_id, ctx.user_id, r.customer_id, a, r.make_default).await?;
        self.relay.wake();
        ok(pb::CreateAddressResponse { address: Some(convert::address(&row)) })
    }

    async fn update_address(&self, req: Request<pb::UpdateAddressRequest>) -> Rpc<pb::UpdateAddressResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let cur = self.repo.address(ctx.store_id, r.customer_id, r.id).await?;
        let a = customer::validate_address(cur.draft().patched(&address_patch(r.address)))?;
        let row = self.repo.update_address(ctx.store_id, ctx.user_id, r.customer_id, r.id, a).await?;
        self.relay.wake();
        ok(pb::UpdateAddressResponse { address: Some(convert::address(&row)) })
    }

    async fn delete_address(&self, req: Request<pb::DeleteAddressRequest>) -> Rpc<pb::DeleteAddressResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        self.repo.delete_address(ctx.store_id, ctx.user_id, r.customer_id, r.id).await?;
        self.relay.wake();
        ok(pb::DeleteAddressResponse {})
    }

    async fn set_default_address(
        &self,
        req: Request<pb::SetDefaultAddressRequest>,
    ) -> Rpc<pb::SetDefaultAddressResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let row = self.repo.set_default_address(ctx.store_id, ctx.user_id, r.customer_id, r.id).await?;
        self.relay.wake();
        ok(pb::SetDefaultAddressResponse { address: Some(convert::address(&row)) })
    }

    async fn list_units_of_measurement(
        &self,
        req: Request<pb::ListUnitsOfMeasurementRequest>,
    ) -> Rpc<pb::ListUnitsOfMeasurementResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let (rows, page) = self.repo.units(ctx.store_id, convert::page_request(r.page.as_ref())).await?;
        ok(pb::ListUnitsOfMeasurementResponse {
            units: rows.iter().map(convert::unit).collect(),
            page: Some(convert::page(&page)),
        })
    }

    async fn create_unit_of_measurement(
        &self,
        req: Request<pb::CreateUnitOfMeasurementRequest>,
    ) -> Rpc<pb::CreateUnitOfMeasurementResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let u = settings::validate_unit(UnitDraft { name: r.name, quantity: r.quantity, base_unit: r.base_unit })?;
        let row = self.repo.create_unit(ctx.store_id, ctx.user_id, &u).await?;
        ok(pb::CreateUnitOfMeasurementResponse { unit: Some(convert::unit(&row)) })
    }

    async fn update_unit_of_measurement(
        &self,
        req: Request<pb::UpdateUnitOfMeasurementRequest>,
    ) -> Rpc<pb::UpdateUnitOfMeasurementResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let cur = self.repo.unit(ctx.store_id, r.id).await?;
        let current = UnitDraft { name: cur.name, quantity: cur.quantity.to_string(), base_unit: cur.base_unit };
        let patch = UnitPatch { name: r.name, quantity: r.quantity, base_unit: r.base_unit };
        let u = settings::validate_unit(patch.over(current))?;
        let row = self.repo.update_unit(ctx.store_id, ctx.user_id, r.id, &u).await?;
        ok(pb::UpdateUnitOfMeasurementResponse { unit: Some(convert::unit(&row)) })
    }

    async fn delete_unit_of_measurement(
        &self,
        req: Request<pb::DeleteUnitOfMeasurementRequest>,
    ) -> Rpc<pb::DeleteUnitOfMeasurementResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        self.repo.delete_unit(ctx.store_id, req.into_inner().id).await?;
        ok(pb::DeleteUnitOfMeasurementResponse {})
    }

    async fn create_safety_stock_history(
        &self,
        req: Request<pb::CreateSafetyStockHistoryRequest>,
    ) -> Rpc<pb::CreateSafetyStockHistoryResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let amount = settings::validate_amount(&req.into_inner().amount)?;
        let row = self.repo.record_safety_stock(ctx.store_id, ctx.user_id, amount).await?;
        self.relay.wake();
        ok(pb::CreateSafetyStockHistoryResponse { history: Some(convert::safety_stock(&row)) })
    }

    async fn get_latest_safety_stock(
        &self,
        req: Request<pb::GetLatestSafetyStockRequest>,
    ) -> Rpc<pb::GetLatestSafetyStockResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let row = self.repo.latest_safety_stock(ctx.store_id).await?;
        ok(pb::GetLatestSafetyStockResponse { history: Some(convert::safety_stock(&row)) })
    }

    async fn list_branches(&self, req: Request<pb::ListBranchesRequest>) -> Rpc<pb::ListBranchesResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.list_branches_in(ctx, req.into_inner()).await?)
    }

    async fn get_branch(&self, req: Request<pb::GetBranchRequest>) -> Rpc<pb::BranchResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.get_branch_in(ctx, req.into_inner().id).await?)
    }

    async fn create_branch(&self, req: Request<pb::CreateBranchRequest>) -> Rpc<pb::BranchResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.save_branch_in(ctx, None, req.into_inner().branch).await?)
    }

    async fn update_branch(&self, req: Request<pb::UpdateBranchRequest>) -> Rpc<pb::BranchResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        ok(self.save_branch_in(ctx, Some(r.id), r.branch).await?)
    }

    async fn delete_branch(&self, req: Request<pb::DeleteBranchRequest>) -> Rpc<pb::DeleteBranchResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.delete_branch_in(ctx, req.into_inner().id).await?)
    }

    async fn list_pos_units(&self, req: Request<pb::ListPosUnitsRequest>) -> Rpc<pb::ListPosUnitsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.list_pos_units_in(ctx, req.into_inner()).await?)
    }

    async fn get_pos_unit(&self, req: Request<pb::GetPosUnitRequest>) -> Rpc<pb::PosUnitResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.get_pos_unit_in(ctx, req.into_inner().id).await?)
    }

    async fn create_pos_unit(&self, req: Request<pb::CreatePosUnitRequest>) -> Rpc<pb::PosUnitResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let draft =
            crate::domain::pos::PosUnitDraft { pos_no: r.pos_no, branch_id: r.branch_id, warehouse_id: r.warehouse_id };
        ok(self.save_pos_unit_in(ctx, None, draft).await?)
    }

    async fn update_pos_unit(&self, req: Request<pb::UpdatePosUnitRequest>) -> Rpc<pb::PosUnitResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let draft =
            crate::domain::pos::PosUnitDraft { pos_no: r.pos_no, branch_id: r.branch_id, warehouse_id: r.warehouse_id };
        ok(self.save_pos_unit_in(ctx, Some(r.id), draft).await?)
    }

    async fn delete_pos_unit(&self, req: Request<pb::DeletePosUnitRequest>) -> Rpc<pb::DeletePosUnitResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.delete_pos_unit_in(ctx, req.into_inner().id).await?)
    }

    async fn list_pos_people(&self, req: Request<pb::ListPosPeopleRequest>) -> Rpc<pb::ListPosPeopleResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.list_pos_people_in(ctx, req.into_inner()).await?)
    }

    async fn get_pos_person(&self, req: Request<pb::GetPosPersonRequest>) -> Rpc<pb::PosPersonResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        ok(self.get_pos_person_in(ctx, r.kind, r.id).await?)
    }

    async fn create_pos_person(&self, req: Request<pb::CreatePosPersonRequest>) -> Rpc<pb::PosPersonResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        ok(self.save_pos_person_in(ctx, r.kind, None, r.person).await?)
    }

    async fn update_pos_person(&self, req: Request<pb::UpdatePosPersonRequest>) -> Rpc<pb::PosPersonResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        ok(self.save_pos_person_in(ctx, r.kind, Some(r.id), r.person).await?)
    }

    async fn delete_pos_person(&self, req: Request<pb::DeletePosPersonRequest>) -> Rpc<pb::DeletePosPersonResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        ok(self.delete_pos_person_in(ctx, r.kind, r.id).await?)
    }

    async fn get_receipt_settings(
        &self,
        req: Request<pb::GetReceiptSettingsRequest>,
    ) -> Rpc<pb::ReceiptSettingsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.receipt_in(&ctx).await?)
    }

    async fn set_receipt_text(&self, req: Request<pb::SetReceiptTextRequest>) -> Rpc<pb::ReceiptSettingsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.set_receipt_text_in(ctx, &req.into_inner().footer_text).await?)
    }

    async fn set_store_picture(&self, req: Request<pb::SetStorePictureRequest>) -> Rpc<pb::SetStorePictureResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.set_picture_in(ctx, req.into_inner()).await?)
    }

    async fn get_picture_file(&self, req: Request<pb::GetPictureFileRequest>) -> Rpc<pb::GetPictureFileResponse> {
        ok(self.picture_file_in(&req.into_inner().name)?)
    }

    async fn get_identity(&self, req: Request<pb::GetIdentityRequest>) -> Rpc<pb::IdentityResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.identity_in(&ctx).await?)
    }

    async fn submit_identity(&self, req: Request<pb::SubmitIdentityRequest>) -> Rpc<pb::IdentityResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.submit_identity_in(ctx, req.into_inner()).await?)
    }

    async fn get_identity_photo(&self, req: Request<pb::GetIdentityPhotoRequest>) -> Rpc<pb::GetPictureFileResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        ok(self.identity_photo_in(&ctx, &req.into_inner().kind).await?)
    }

    async fn set_bill_expiry(&self, req: Request<pb::SetBillExpiryRequest>) -> Rpc<pb::SetBillExpiryResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let setting = crate::domain::bills::BillExpiry {
            expiry_type: r.expiry_type,
            days: r.days,
            hours: r.hours,
            minutes: r.minutes,
            on_expiry: r.on_expiry,
        }
        .validate()?;
        let row = self.repo.set_bill_expiry(ctx.store_id, ctx.user_id, &setting).await?;
        ok(pb::SetBillExpiryResponse { setting: Some(convert::bill_expiry(Some(&row))) })
    }

    async fn get_bill_expiry(&self, req: Request<pb::GetBillExpiryRequest>) -> Rpc<pb::GetBillExpiryResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let at = if r.at_ms > 0 { r.at_ms } else { bo_kit::time::now_ms() };
        let (setting, expires_at_ms) = self.bill_terms(ctx.store_id, at).await?;
        let history = if r.with_history { self.repo.bill_expiry_history(ctx.store_id, 20).await? } else { Vec::new() };
        ok(pb::GetBillExpiryResponse {
            setting: Some(setting),
            history: history.iter().map(|h| convert::bill_expiry(Some(h))).collect(),
            expires_at_ms,
        })
    }

    async fn get_order_terms(&self, req: Request<pb::GetOrderTermsRequest>) -> Rpc<pb::GetOrderTermsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let (bill_expiry, expires_at_ms) = self.bill_terms(ctx.store_id, bo_kit::time::now_ms()).await?;
        let (customer_found, address) = if r.customer_address_id > 0 {
            let a = self
                .repo
                .address(ctx.store_id, r.customer_id, r.customer_address_id)
                .await
                .map(Some)
                .or_else(absent)?;
            (a.is_some(), a.map(|a| convert::address(&a)))
        } else if r.customer_id > 0 {
            (self.repo.customer(ctx.store_id, r.customer_id).await.map(Some).or_else(absent)?.is_some(), None)
        } else {
            (false, None)
        };
        ok(pb::GetOrderTermsResponse { customer_found, address, bill_expiry: Some(bill_expiry), expires_at_ms })
    }

    async fn begin_idempotent_request(
        &self,
        req: Request<pb::BeginIdempotentRequestRequest>,
    ) -> Rpc<pb::BeginIdempotentRequestResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let (outcome, status, body) = match self.repo.begin_idempotent(ctx.store_id, &r.key, &r.fingerprint).await? {
            Idempotency::Proceed => (pb::IdempotencyOutcome::Proceed, 0, Vec::new()),
            Idempotency::Replay { status, body } => (pb::IdempotencyOutcome::Replay, status, body),
            Idempotency::Mismatch => (pb::IdempotencyOutcome::Mismatch, 0, Vec::new()),
            Idempotency::InProgress => (pb::IdempotencyOutcome::InProgress, 0, Vec::new()),
        };
        ok(pb::BeginIdempotentRequestResponse { outcome: outcome as i32, status, body })
    }

    async fn complete_idempotent_request(
        &self,
        req: Request<pb::CompleteIdempotentRequestRequest>,
    ) -> Rpc<pb::CompleteIdempotentRequestResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        self.repo.complete_idempotent(ctx.store_id, &r.key, r.status, &r.body).await?;
        ok(pb::CompleteIdempotentRequestResponse {})
    }

    async fn abandon_idempotent_request(
        &self,
        req: Request<pb::AbandonIdempotentRequestRequest>,
    ) -> Rpc<pb::AbandonIdempotentRequestResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        self.repo.abandon_idempotent(ctx.store_id, &req.into_inner().key).await?;
        ok(pb::AbandonIdempotentRequestResponse {})
    }
}

/// A record that is not found, as none.
fn absent<T>(e: Error) -> bo_kit::Result<Option<T>> {
    if e.kind == Kind::NotFound {
        Ok(None)
    } else {
        Err(e)
    }
}
