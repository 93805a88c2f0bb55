//! The team's calls: members, roles, invitations, joining, the audit trail. Store-scoped
//! calls act as the token's user; the rules are in `domain::team` and `domain::roles`, and
//! storage checks them inside each change's transaction.

use bo_kit::grpc::CallCtx;
use bo_kit::Code;
use bo_kit::Error;
use bo_proto::stores::v1 as pb;
use bo_proto::Wire;

use super::{StoresGrpc, PASSWORDS};
use crate::convert;
use crate::domain::roles::{self, Permission};
use crate::domain::{team, user, Errors, Phone};
use crate::store::MemberUpdate;

/// Longest given or family name.
const MAX_NAME: usize = 100;

fn member_update(r: &pb::UpdateMemberRequest) -> bo_kit::Result<MemberUpdate> {
    let mut errs = Errors::default();
    let level = match r.permission.as_deref() {
        None => None,
        Some(p) => {
            let level = Permission::parse(p);
            if level.is_none() {
                errs.add("permission", "validation.permission");
            }
            level
        }
    };
    // A member is made active or inactive here; deleting is its own call.
    let new_status = match r.status.map(pb::MemberStatus::try_from) {
        None => None,
        Some(Ok(s @ (pb::MemberStatus::Active | pb::MemberStatus::Inactive))) => Some(s.wire().to_string()),
        Some(_) => {
            errs.add("status", "validation.status");
            None
        }
    };
    for (field, value) in [("first_name", &r.first_name), ("last_name", &r.last_name)] {
        if let Some(v) = value {
            errs.required(field, v, MAX_NAME);
        }
    }
    let tel = match r.tel.as_deref().map(str::trim) {
        None => None,
        Some("") => Some(String::new()),
        Some(t) => match Phone::parse(t) {
            Ok(p) => Some(p.into_string()),
            Err(code) => {
                errs.add("tel", code);
                None
            }
        },
    };
    errs.finish()?;
    Ok(MemberUpdate {
        user_id: r.user_id,
        level,
        role_id: r.role_id,
        status: new_status,
        first_name: r.first_name.as_deref().map(|s| s.trim().to_string()),
        last_name: r.last_name.as_deref().map(|s| s.trim().to_string()),
        tel,
    })
}

impl StoresGrpc {
    pub(super) async fn list_members_in(
        &self,
        ctx: CallCtx,
        r: pb::ListMembersRequest,
    ) -> bo_kit::Result<pb::ListMembersResponse> {
        let Ok(status) = pb::MemberStatus::try_from(r.status) else {
            return Err(Error::invalid_field("status", "validation.status"));
        };
        let (rows, page) =
            self.repo.members(ctx.store_id, status.wire(), &r.search, convert::page_request(r.page.as_ref())).await?;
        Ok(pb::ListMembersResponse {
            memberships: rows.iter().map(convert::membership).collect(),
            page: Some(convert::page(&page)),
        })
    }

    pub(super) async fn get_member_in(
        &self,
        ctx: CallCtx,
        r: pb::GetMemberRequest,
    ) -> bo_kit::Result<pb::GetMemberResponse> {
        let m = self.repo.member(ctx.store_id, r.id).await?;
        Ok(pb::GetMemberResponse { membership: Some(convert::membership(&m)) })
    }

    pub(super) async fn update_member_in(
        &self,
        ctx: CallCtx,
        r: pb::UpdateMemberRequest,
    ) -> bo_kit::Result<pb::UpdateMemberResponse> {
        let update = member_update(&r)?;
        let m = self.repo.update_member(ctx.store_id, ctx.user_id, r.id, update).await?;
        Ok(pb::UpdateMemberResponse { membership: Some(convert::membership(&m)) })
    }

    pub(super) async fn remove_member_in(
        &self,
        ctx: CallCtx,
        r: pb::RemoveMemberRequest,
    ) -> bo_kit::Result<pb::RemoveMemberResponse> {
        self.repo.remove_member(ctx.store_id, ctx.user_id, r.id, r.user_id).await?;
        Ok(pb::RemoveMemberResponse {})
    }

    pub(super) async fn list_roles_in(&self, ctx: CallCtx) -> bo_kit::Result<pb::ListRolesResponse> {
        let rows = self.repo.roles(ctx.store_id).await?;
        Ok(pb::ListRolesResponse {
            member_counts: rows.iter().map(|(r, n)| (r.id, *n)).collect(),
            roles: rows.iter().map(|(r, _)| convert::role(r)).collect(),
        })
    }

    pub(super) async fn get_role_in(&self, ctx: CallCtx, r: pb::GetRoleRequest) -> bo_kit::Result<pb::GetRoleResponse> {
        let (role, n) = self.repo.role(ctx.store_id, r.id).await?;
        Ok(pb::GetRoleResponse { role: Some(convert::role(&role)), member_count: n })
    }

    pub(super) async fn create_role_in(
        &self,
        ctx: CallCtx,
        r: pb::CreateRoleRequest,
    ) -> bo_kit::Result<pb::CreateRoleResponse> {
        let keys = roles::validate_role(Some(&r.name), Some(&r.permissions))?;
        let role = self.repo.create_role(ctx.store_id, ctx.user_id, &r.name, &keys).await?;
        Ok(pb::CreateRoleResponse { role: Some(convert::role(&role)) })
    }

    pub(super) async fn update_role_in(
        &self,
        ctx: CallCtx,
        r: pb::UpdateRoleRequest,
    ) -> bo_kit::Result<pb::UpdateRoleResponse> {
        let perms = r.set_permissions.then_some(r.permissions.as_slice());
        let keys = roles::validate_role(r.name.as_deref(), perms)?;
        let role = self
            .repo
            .update_role(ctx.store_id, ctx.user_id, r.id, r.name.as_deref(), perms.map(|_| keys.as_slice()))
            .await?;
        let (_, member_count) = self.repo.role(ctx.store_id, role.id).await?;
        Ok(pb::UpdateRoleResponse { role: Some(convert::role(&role)), member_count })
    }

    pub(super) async fn delete_role_in(
        &self,
        ctx: CallCtx,
        r: pb::DeleteRoleRequest,
    ) -> bo_kit::Result<pb::DeleteRoleResponse> {
        let moved = self.repo.delete_role(ctx.store_id, ctx.user_id, r.id, r.move_to_role_id).await?;
        Ok(pb::DeleteRoleResponse { moved })
    }

    pub(super) async fn list_invitations_in(&self, ctx: CallCtx) -> bo_kit::Result<pb::ListInvitationsResponse> {
        let rows = self.repo.invitations(ctx.store_id).await?;
        Ok(pb::ListInvitationsResponse { invitations: rows.iter().map(convert::invitation).collect() })
    }

    pub(super) async fn create_invitation_in(
        &self,
        ctx: CallCtx,
        r: pb::CreateInvitationRequest,
    ) -> bo_kit::Result<pb::CreateInvitationResponse> {
        let level = team::invitation_level(&r.permission)
            .ok_or_else(|| Error::invalid_field("permission", "validation.invitation_permission"))?;
        let inv = self.repo.create_invitation(ctx.store_id, ctx.user_id, level, r.role_id).await?;
        Ok(pb::CreateInvitationResponse { invitation: Some(convert::invitation(&inv)) })
    }

    pub(super) async fn delete_invitation_in(
        &self,
        ctx: CallCtx,
        r: pb::DeleteInvitationRequest,
    ) -> bo_kit::Result<pb::DeleteInvitationResponse> {
        if !team::is_invitation_key(&r.key) {
            return Err(Error::not_found(Code::InvitationNotFound));
        }
        self.repo.delete_invitation(ctx.store_id, ctx.user_id, &r.key).await?;
        Ok(pb::DeleteInvitationResponse {})
    }

    pub(super) async fn preview_invitation_in(
        &self,
        r: pb::PreviewInvitationRequest,
    ) -> bo_kit::Result<pb::PreviewInvitationResponse> {
        let found = if team::is_invitation_key(&r.key) { self.repo.invitation(&r.key).await? } else { None };
        let inv = found.ok_or_else(|| Error::not_found(Code::InvitationNotFound))?;
        let state = team::invitation_state(inv.used_at, inv.deleted_at, inv.expires_at, bo_kit::time::now_ms());
        Ok(pb::PreviewInvitationResponse { preview: Some(convert::invitation_preview(&inv, state)) })
    }

    pub(super) async fn accept_invitation_in(
        &self,
        r: pb::AcceptInvitationRequest,
    ) -> bo_kit::Result<pb::AcceptInvitationResponse> {
        if !team::is_invitation_key(&r.key) {
            return Err(Error::not_found(Code::InvitationNotFound));
        }
        let m = self.repo.accept_invitation(&r.key, r.user_id).await?;
        Ok(pb::AcceptInvitationResponse { membership: Some(convert::membership(&m)) })
    }

    pub(super) async fn register_in(&self, r: pb::RegisterRequest) -> bo_kit::Result<pb::RegisterResponse> {
        let mut errs = Errors::default();
        errs.required("first_name", &r.first_name, MAX_NAME);
        errs.required("last_name", &r.last_name, MAX_NAME);
        if let Err(e) = user::validate_new_account(&r.email, &r.password) {
            errs.0.extend(e.fields);
        }
        errs.finish()?;
        // The invitation first: without a usable key nothing else is looked at (an e-mail
        // with an account is not told apart from one without) and no password is hashed.
        if !team::is_invitation_key(&r.invitation_key) {
            return Err(Error::not_found(Code::InvitationNotFound));
        }
        let inv =
            self.repo.invitation(&r.invitation_key).await?.ok_or_else(|| Error::not_found(Code::InvitationNotFound))?;
        if let Some(code) = team::invitation_refusal(team::invitation_state(
            inv.used_at,
            inv.deleted_at,
            inv.expires_at,
            bo_kit::time::now_ms(),
        )) {
            return Err(Error::conflict(code));
        }
        let email = user::normalise_email(&r.email);
        if self.repo.user_by_email(&email).await?.is_some() {
            return Err(Error::conflict(Code::UserEmailTaken));
        }
        let password = r.password;
        let hash = PASSWORDS
            .try_run(move || user::hash_password(&password))
            .await
            .map_err(Error::internal)?
            .ok_or_else(|| Error::new(bo_kit::error::Kind::Unavailable, Code::SignInBusy))?
            .map_err(Error::internal)?;
        let (u, m) = self
            .repo
            .register_with_invitation(&r.invitation_key, &email, &hash, r.first_name.trim(), r.last_name.trim())
            .await?;
        let session_id = self.repo.create_session(u.id, self.session_ttl_ms).await?;
        Ok(pb::RegisterResponse {
            user: Some(convert::user(&u)),
            session_id,
            membership: Some(convert::membership(&m)),
        })
    }

    pub(super) async fn list_audit_in(
        &self,
        ctx: CallCtx,
        r: pb::ListAuditRequest,
    ) -> bo_kit::Result<pb::ListAuditResponse> {
        let (rows, page) =
            self.repo.audit(ctx.store_id, r.actor_user_id, convert::page_request(r.page.as_ref())).await?;
        Ok(pb::ListAuditResponse {
            entries: rows.iter().map(convert::audit).collect(),
            page: Some(convert::page(&page)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::msg;

    #[test]
    fn member_changes_are_read_strictly() {
        let r = pb::UpdateMemberRequest {
            id: 1,
            permission: Some("root".into()),
            status: Some(pb::MemberStatus::Deleted.into()),
            ..Default::default()
        };
        let e = member_update(&r).unwrap_err();
        let fields: Vec<_> = e.fields.iter().map(|f| (f.field.as_str(), f.code.as_str())).collect();
        assert_eq!(fields, vec![("permission", "validation.permission"), ("status", "validation.status")]);
        let r = pb::UpdateMemberRequest {
            id: 1,
            tel: Some("08-1234-5678".into()),
            first_name: Some(" สมหญิง ".into()),
            ..Default::default()
        };
        let u = member_update(&r).unwrap();
        assert_eq!((u.tel.as_deref(), u.first_name.as_deref()), (Some("0812345678"), Some("สมหญิง")));
        let r = pb::UpdateMemberRequest {
            id: 1,
            tel: Some("12".into()),
            last_name: Some(" ".into()),
            ..Default::default()
        };
        let codes: Vec<_> = member_update(&r).unwrap_err().fields.into_iter().map(|f| f.code).collect();
        assert_eq!(codes, vec![msg::REQUIRED.to_string(), msg::PHONE_DIGITS.to_string()]);
    }
}
