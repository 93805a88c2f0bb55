//! The demo store: on the first start of the embedded target with an empty database, an
//! owner and a store with a few customers, so a newcomer has something to look at.

use bo_kit::grpc::{GrpcChannel, ServiceIdentity};
use bo_proto::stores::v1 as pb;
use bo_proto::stores::v1::stores_service_client::StoresServiceClient;

/// What the demo created.
#[derive(Debug, Clone)]
pub struct Demo {
    /// The owner's id.
    pub user_id: i64,
    /// The store's id.
    pub store_id: i64,
}

fn addr(address: &str, sub_district: &str, district: &str, province: &str, postcode: &str) -> pb::AddressInput {
    pb::AddressInput {
        address: address.into(),
        sub_district: sub_district.into(),
        district: district.into(),
        state_province: province.into(),
        postcode: postcode.into(),
        ..Default::default()
    }
}

/// Creates the demo owner and store through the stores service unless it already has users.
pub async fn seed(
    stores: &mut StoresServiceClient<GrpcChannel>,
    identity: &ServiceIdentity,
    email: &str,
    password: &str,
) -> anyhow::Result<Option<Demo>> {
    let created = stores
        .create_owner(identity.system().request(pb::CreateOwnerRequest {
            email: email.into(),
            password: password.into(),
            first_name: "สมศรี".into(),
            last_name: "ใจดี".into(),
            store_name: "ร้านใจดี ออนไลน์".into(),
            only_if_first: true,
        }))
        .await?
        .into_inner();
    let (Some(user), Some(store)) = (created.user, created.store) else {
        return Ok(None);
    };
    let (user_id, store_id) = (user.id, store.id);
    let ctx = identity.acting(store_id, user_id);
    stores
        .update_store(ctx.request(pb::UpdateStoreRequest {
            address: Some("88/8 ถนนพระราม 9".into()),
            sub_district: Some("ห้วยขวาง".into()),
            district: Some("ห้วยขวาง".into()),
            province: Some("กรุงเทพมหานคร".into()),
            postcode: Some("10310".into()),
            tel: Some("021234567".into()),
            vat_included: Some(true),
            ..Default::default()
        }))
        .await?;
    let customers = [
        (
            "สมชาย ใจดี",
            "0812345678",
            "somchai@example.com",
            addr("99/1 ถนนสุขุมวิท", "คลองเตยเหนือ", "วัฒนา", "กรุงเทพมหานคร", "10110"),
        ),
        ("วิภาวดี ศรีสุข", "0898765432", "", addr("12 หมู่ 3", "สุเทพ", "เมืองเชียงใหม่", "เชียงใหม่", "50200")),
        (
            "ประเสริฐ มั่นคง",
            "0861112222",
            "prasert@example.co.th",
            addr("45/7 ถนนมิตรภาพ", "ในเมือง", "เมืองขอนแก่น", "ขอนแก่น", "40000"),
        ),
        ("กาญจนา วงศ์ทอง", "0923334444", "", addr("7 ซอยนิมมานเหมินท์ 9", "สุเทพ", "เมืองเชียงใหม่", "เชียงใหม่", "50200")),
        ("ธนพล แสงอรุณ", "0955556666", "", addr("301 ถนนราษฎร์อุทิศ", "ป่าตอง", "กะทู้", "ภูเก็ต", "83150")),
        (
            "อรุณี พรหมมา",
            "0647778888",
            "arunee@example.com",
            addr("18/2 ถนนกาญจนวนิช", "หาดใหญ่", "หาดใหญ่", "สงขลา", "90110"),
        ),
    ];
    for (name, tel, email, address) in customers {
        stores
            .create_customer(ctx.request(pb::CreateCustomerRequest {
                name: name.into(),
                tel: tel.into(),
                email: email.into(),
                line: String::new(),
                facebook: String::new(),
                address: Some(address),
            }))
            .await?;
    }
    Ok(Some(Demo { user_id, store_id }))
}
