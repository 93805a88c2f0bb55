//! Rows to protobuf messages.

use bo_kit::time::ms_to_timestamp;
use bo_proto::stores::v1 as pb;

use crate::domain::settings;
use crate::store::{AddressRow, CustomerRow, MembershipRow, SafetyStockRow, StoreRow, UnitRow, UserRow};

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
        status: m.status.clone(),
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
