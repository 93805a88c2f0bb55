//! Rows to protobuf messages.

use bo_kit::time::ms_to_timestamp;
use bo_proto::stores::v1 as pb;
use bo_proto::Wire;

use crate::domain::settings;
use crate::store::{
    AddressRow, AuditRow, BillExpiryRow, CustomerRow, InvitationRow, MembershipRow, RoleRow, SafetyStockRow, StoreRow,
    UnitRow, UserRow,
};

/// A user (never its password hash).
pub fn user(u: &UserRow) -> pb::User {
    pb::User {
        id: u.id,
        email: u.email.clone(),
        first_name: u.first_name.clone(),
        last_name: u.last_name.clone(),
        tel: u.tel.clone(),
        create_time: Some(ms_to_timestamp(u.created_at)),
    }
}

/// A store.
pub fn store(s: &StoreRow) -> pb::Store {
    pb::Store {
        id: s.id,
        name: s.name.clone(),
        address: s.address.clone(),
        sub_district: s.sub_district.clone(),
        district: s.district.clone(),
        province: s.province.clone(),
        postcode: s.postcode.clone(),
        tel: s.tel.clone(),
        vat_included: s.vat_included != 0,
        menu_hiding_list: serde_json::from_str(&s.menu_hiding_list).unwrap_or_default(),
        getting_started: Some(pb::GettingStarted {
            payment: s.gs_payment != 0,
            logistic: s.gs_logistic != 0,
            product: s.gs_product != 0,
            goods_receipt: s.gs_goods_receipt != 0,
        }),
        create_time: Some(ms_to_timestamp(s.created_at)),
        update_time: Some(ms_to_timestamp(s.updated_at)),
        logo: String::new(),
    }
}

/// A membership with its store, role and user.
pub fn membership(m: &MembershipRow) -> pb::Membership {
    pb::Membership {
        id: m.id,
        user_id: m.user_id,
        store: Some(store(&m.store())),
        permission: m.permission.clone(),
        role: Some(pb::Role {
            id: m.role_id,
            name: m.role_name.clone(),
            permissions: serde_json::from_str(&m.role_permissions).unwrap_or_default(),
            built_in: m.role_built_in != 0,
        }),
        status: pb::MemberStatus::number(&m.status),
        user: Some(pb::User {
            id: m.user_id,
            email: m.user_email.clone(),
            first_name: m.user_first_name.clone(),
            last_name: m.user_last_name.clone(),
            tel: m.user_tel.clone(),
            create_time: Some(ms_to_timestamp(m.user_created_at)),
        }),
        create_time: Some(ms_to_timestamp(m.created_at)),
        version: m.version,
    }
}

/// An address.
pub fn address(a: &AddressRow) -> pb::Address {
    pb::Address {
        id: a.id,
        customer_id: a.customer_id,
        name: a.name.clone(),
        tel: a.tel.clone(),
        address: a.address.clone(),
        sub_district: a.sub_district.clone(),
        district: a.district.clone(),
        state_province: a.state_province.clone(),
        postcode: a.postcode.clone(),
        country: a.country.clone(),
        city: a.city.clone(),
        email: a.email.clone(),
        is_default: a.is_default != 0,
        create_time: Some(ms_to_timestamp(a.created_at)),
        update_time: Some(ms_to_timestamp(a.updated_at)),
    }
}

/// A customer with its default address.
pub fn customer(c: &CustomerRow) -> pb::Customer {
    let default_address = c.a_id.map(|id| pb::Address {
        id,
        customer_id: c.id,
        name: c.a_name.clone().unwrap_or_default(),
        tel: c.a_tel.clone().unwrap_or_default(),
        address: c.a_address.clone().unwrap_or_default(),
        sub_district: c.a_sub_district.clone().unwrap_or_default(),
        district: c.a_district.clone().unwrap_or_default(),
        state_province: c.a_state_province.clone().unwrap_or_default(),
        postcode: c.a_postcode.clone().unwrap_or_default(),
        country: c.a_country.clone().unwrap_or_default(),
        city: c.a_city.clone().unwrap_or_default(),
        email: c.a_email.clone().unwrap_or_default(),
        is_default: true,
        create_time: c.a_created_at.map(ms_to_timestamp),
        update_time: c.a_updated_at.map(ms_to_timestamp),
    });
    pb::Customer {
        id: c.id,
        store_id: c.store_id,
        name: c.name.clone(),
        tel: c.tel.clone(),
        email: c.email.clone(),
        facebook: c.facebook.clone(),
        line: c.line.clone(),
        order_count: c.order_count,
        default_address,
        address_count: c.address_count,
        created_by: c.created_by,
        updated_by: c.updated_by,
        create_time: Some(ms_to_timestamp(c.created_at)),
        update_time: Some(ms_to_timestamp(c.updated_at)),
    }
}

/// A unit of measurement, with its quantity converted to the smallest base unit.
pub fn unit(u: &UnitRow) -> pb::UnitOfMeasurement {
    let (converted_quantity, converted_unit) = settings::converted(u.quantity, &u.base_unit);
    pb::UnitOfMeasurement {
        id: u.id,
        store_id: u.store_id,
        name: u.name.clone(),
        quantity: u.quantity,
        base_unit: u.base_unit.clone(),
        converted_quantity,
        converted_unit: converted_unit.to_string(),
        created_by: u.created_by,
        updated_by: u.updated_by,
        create_time: Some(ms_to_timestamp(u.created_at)),
        update_time: Some(ms_to_timestamp(u.updated_at)),
    }
}

/// A safety-stock setting.
pub fn safety_stock(h: &SafetyStockRow) -> pb::SafetyStockHistory {
    pb::SafetyStockHistory {
        id: h.id,
        store_id: h.store_id,
        amount: h.amount,
        created_by: h.created_by,
        create_time: Some(ms_to_timestamp(h.created_at)),
    }
}

/// Paging info.
pub fn page(p: &bo_kit::paging::Page) -> pb::PageInfo {
    (*p).into()
}

/// Paging request.
pub fn page_request(p: Option<&pb::PageRequest>) -> bo_kit::paging::PageRequest {
    p.copied().into()
}

/// A role.
pub fn role(r: &RoleRow) -> pb::Role {
    pb::Role { id: r.id, name: r.name.clone(), permissions: r.keys(), built_in: r.built_in != 0 }
}

/// An invitation.
pub fn invitation(i: &InvitationRow) -> pb::Invitation {
    pb::Invitation {
        id: i.id,
        key: i.invite_key.clone(),
        permission: i.permission.clone(),
        role: Some(pb::Role {
            id: i.role_id,
            name: i.role_name.clone(),
            permissions: serde_json::from_str(&i.role_permissions).unwrap_or_default(),
            built_in: i.role_built_in != 0,
        }),
        created_by: i.created_by,
        create_time: Some(ms_to_timestamp(i.created_at)),
        expire_time: Some(ms_to_timestamp(i.expires_at)),
    }
}

/// What an invitation's link offers, in `state`.
pub fn invitation_preview(i: &InvitationRow, state: &str) -> pb::InvitationPreview {
    pb::InvitationPreview {
        state: pb::InvitationState::number(state),
        store_name: i.store_name.clone(),
        store_id: i.store_id,
        permission: i.permission.clone(),
        role_name: i.role_name.clone(),
        inviter_name: display_name(&i.inviter_first_name, &i.inviter_last_name, &i.inviter_email),
        expire_time: Some(ms_to_timestamp(i.expires_at)),
    }
}

/// An audit entry.
pub fn audit(a: &AuditRow) -> pb::AuditEntry {
    pb::AuditEntry {
        id: a.id,
        actor_user_id: a.actor_user_id,
        actor_name: display_name(&a.actor_first_name, &a.actor_last_name, &a.actor_email),
        action: a.action.clone(),
        subject_type: a.subject_type.clone(),
        subject_id: a.subject_id,
        subject_user_id: a.subject_user_id,
        detail: a.detail.clone(),
        create_time: Some(ms_to_timestamp(a.created_at)),
    }
}

/// A person's name, or their email when they gave none.
fn display_name(first: &str, last: &str, email: &str) -> String {
    let name = format!("{first} {last}").trim().to_string();
    if name.is_empty() {
        email.to_string()
    } else {
        name
    }
}

/// A bill expiry setting; `None` is the default a store has before choosing (no expiry).
pub fn bill_expiry(r: Option<&BillExpiryRow>) -> pb::BillExpirySetting {
    match r {
        Some(r) => pb::BillExpirySetting {
            id: r.id,
            expiry_type: r.expiry_type.clone(),
            days: r.days,
            hours: r.hours,
            minutes: r.minutes,
            on_expiry: r.on_expiry.clone(),
            created_by: r.created_by,
            start_time: Some(ms_to_timestamp(r.created_at)),
        },
        None => {
            let d = crate::domain::bills::BillExpiry::default_setting();
            pb::BillExpirySetting { expiry_type: d.expiry_type, on_expiry: d.on_expiry, ..Default::default() }
        }
    }
}

/// A branch.
pub fn branch(b: &crate::store::BranchRow) -> pb::Branch {
    pb::Branch {
        id: b.id,
        branch_no: b.branch_no.clone(),
        is_main: b.branch_no == crate::domain::pos::MAIN_BRANCH,
        name: b.name.clone(),
        tax_id: b.tax_id.clone(),
        warehouse_id: b.warehouse_id,
        address: b.address.clone(),
        sub_district: b.sub_district.clone(),
        district: b.district.clone(),
        state_province: b.state_province.clone(),
        postcode: b.postcode.clone(),
        create_time: Some(ms_to_timestamp(b.created_at)),
        update_time: Some(ms_to_timestamp(b.updated_at)),
    }
}

/// A POS unit, with the warehouse it deducts from.
pub fn pos_unit(p: &crate::store::PosUnitRow) -> pb::PosUnit {
    pb::PosUnit {
        id: p.id,
        pos_no: p.pos_no.clone(),
        branch_id: p.branch_id,
        branch_no: p.branch_no.clone(),
        branch_name: p.branch_name.clone(),
        warehouse_id: p.warehouse_id,
        effective_warehouse_id: if p.warehouse_id > 0 { p.warehouse_id } else { p.branch_warehouse_id },
        create_time: Some(ms_to_timestamp(p.created_at)),
        update_time: Some(ms_to_timestamp(p.updated_at)),
    }
}

/// A cashier or seller.
pub fn pos_person(p: &crate::store::PersonRow) -> pb::PosPerson {
    pb::PosPerson {
        id: p.id,
        user_id: p.user_id,
        first_name: p.first_name.clone(),
        last_name: p.last_name.clone(),
        email: p.email.clone(),
        branch_id: p.branch_id,
        branch_no: p.branch_no.clone(),
        branch_name: p.branch_name.clone(),
        tel: p.tel.clone(),
        code: p.code.clone(),
        status: pb::PosPersonStatus::number(&p.status),
        create_time: Some(ms_to_timestamp(p.created_at)),
        update_time: Some(ms_to_timestamp(p.updated_at)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{identity, pos, roles, team};

    /// The words the rules keep in storage are the proto enums' words, so `number` never
    /// answers unspecified for a kept state.
    #[test]
    fn the_kept_words_are_the_proto_enums() {
        let members: Vec<&str> = pb::MemberStatus::words().collect();
        assert_eq!(members, [roles::status::ACTIVE, roles::status::INACTIVE, roles::status::DELETED]);
        let people: Vec<&str> = pb::PosPersonStatus::words().collect();
        assert_eq!(people, [pos::ACTIVE, pos::INACTIVE]);
        let identities: Vec<&str> = pb::IdentityStatus::words().collect();
        assert_eq!(identities, [identity::state::PENDING, identity::state::SUBMITTED, identity::state::APPROVED]);
        let (day, now) = (86_400_000, 1_700_000_000_000);
        let invitations: Vec<&str> = pb::InvitationState::words().collect();
        assert_eq!(
            invitations,
            [
                team::invitation_state(None, None, now + day, now),
                team::invitation_state(None, None, now - day, now),
                team::invitation_state(Some(now), None, now + day, now),
                team::invitation_state(None, Some(now), now + day, now),
            ]
        );
    }
}
