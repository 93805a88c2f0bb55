//! The stores service through its gRPC interface, in-process, on SQLite and (when
//! TEST_DATABASE_URL is set) PostgreSQL.

use bo_kit::db::Db;
use bo_kit::grpc::CallCtx;
use bo_kit::testing;
use bo_kit::Code;
use bo_proto::stores::v1 as pb;
use bo_proto::stores::v1::stores_service_server::StoresService;
use bo_stores::Service;
use sqlx::Row;

async fn service(db: &Db) -> Service {
    Service::open(db.clone(), bo_kit::testing::bus().await, 3_600_000).await.unwrap()
}

async fn owner(s: &Service, email: &str) -> CallCtx {
    let r = s
        .grpc
        .create_owner(pb::CreateOwnerRequest {
            email: email.into(),
            password: "password123".into(),
            first_name: "A".into(),
            last_name: "B".into(),
            store_name: "ร้าน".into(),
            only_if_first: false,
        })
        .await
        .unwrap();
    CallCtx::new(r.store.unwrap().id, r.user.unwrap().id)
}

fn new_customer(tel: &str) -> pb::CreateCustomerRequest {
    pb::CreateCustomerRequest {
        name: "สมชาย ใจดี".into(),
        tel: tel.into(),
        address: Some(pb::AddressInput {
            address: "1 ถนนสีลม".into(),
            sub_district: "สีลม".into(),
            district: "บางรัก".into(),
            state_province: "กรุงเทพมหานคร".into(),
            postcode: "10500".into(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

async fn customers_keep_one_default_address_and_unique_phones(db: Db) {
    let s = service(&db).await;
    let ctx = owner(&s, "a@example.com").await;
    let c =
        s.grpc.create_customer(ctx.request(new_customer("0812345678"))).await.unwrap().into_inner().customer.unwrap();
    assert_eq!(c.address_count, 1);
    let first = c.default_address.unwrap();

    let dup = s.grpc.create_customer(ctx.request(new_customer("081-234-5678"))).await.unwrap_err();
    assert_eq!(bo_kit::Error::from(dup).code, Code::CustomerPhoneDuplicate);

    // Another store may have the same phone.
    let other = owner(&s, "b@example.com").await;
    s.grpc.create_customer(other.request(new_customer("0812345678"))).await.unwrap();

    let second = s
        .grpc
        .create_address(ctx.request(pb::CreateAddressRequest {
            customer_id: c.id,
            address: new_customer("").address,
            make_default: true,
        }))
        .await
        .unwrap()
        .into_inner()
        .address
        .unwrap();
    assert!(second.is_default);
    let list = s
        .grpc
        .list_addresses(ctx.request(pb::ListAddressesRequest { customer_id: c.id, page: None }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(list.addresses.iter().filter(|a| a.is_default).count(), 1);
    assert_eq!(list.addresses[0].id, second.id, "default first");

    // Deleting the default moves it to the oldest remaining address.
    s.grpc.delete_address(ctx.request(pb::DeleteAddressRequest { customer_id: c.id, id: second.id })).await.unwrap();
    let got = s.grpc.get_customer(ctx.request(pb::GetCustomerRequest { id: c.id })).await.unwrap().into_inner();
    assert_eq!(got.customer.unwrap().default_address.unwrap().id, first.id);
    // The last address cannot go.
    let last = s
        .grpc
        .delete_address(ctx.request(pb::DeleteAddressRequest { customer_id: c.id, id: first.id }))
        .await
        .unwrap_err();
    assert_eq!(bo_kit::Error::from(last).code, Code::AddressLastCannotDelete);

    // Every write left its event in the outbox and its row in the history.
    let events: i64 = sqlx::query("SELECT COUNT(*) FROM outbox").fetch_one(db.pool()).await.unwrap().get(0);
    assert_eq!(events, 6, "two stores created, four customer events");
    let history: i64 = sqlx::query("SELECT COUNT(*) FROM customer_history WHERE actor_user_id = $1")
        .bind(ctx.user_id)
        .fetch_one(db.pool())
        .await
        .unwrap()
        .get(0);
    assert_eq!(history, 3);
}

async fn search_matches_name_or_phone_and_pages_in_the_database(db: Db) {
    let s = service(&db).await;
    let ctx = owner(&s, "a@example.com").await;
    for i in 0..25 {
        let mut c = new_customer(&format!("08100000{i:02}"));
        c.name = if i % 5 == 0 { format!("วิไล {i}") } else { format!("Somchai_{i}") };
        s.grpc.create_customer(ctx.request(c)).await.unwrap();
    }
    let list = |search: &str, page: i64, limit: i64| {
        let req = ctx
            .request(pb::ListCustomersRequest { search: search.into(), page: Some(pb::PageRequest { page, limit }) });
        let grpc = s.grpc.clone();
        async move { grpc.list_customers(req).await.unwrap().into_inner() }
    };
    let all = list("", 1, 10).await;
    assert_eq!((all.customers.len(), all.page.unwrap().pages), (10, 3));
    assert_eq!(list("", 99, 10).await.page.unwrap().page, 3, "page clamped");
    assert_eq!(list("", 1, -1).await.customers.len(), 25);
    assert_eq!(list("วิไล", 1, 10).await.page.unwrap().total, 5);
    assert_eq!(list("SOMCHAI", 1, 10).await.page.unwrap().total, 20, "case-insensitive");
    assert_eq!(list("081-000-0012", 1, 10).await.page.unwrap().total, 1);
    assert_eq!(list("_", 1, 10).await.page.unwrap().total, 20, "LIKE wildcards are literal");
    assert_eq!(list("%", 1, 10).await.page.unwrap().total, 0);
}

fn unit(name: &str, quantity: &str, base_unit: &str) -> pb::CreateUnitOfMeasurementRequest {
    pb::CreateUnitOfMeasurementRequest { name: name.into(), quantity: quantity.into(), base_unit: base_unit.into() }
}

fn code(s: tonic::Status) -> Code {
    bo_kit::Error::from(s).code
}

async fn units_have_unique_names_per_store_and_page_in_the_database(db: Db) {
    let s = service(&db).await;
    let ctx = owner(&s, "a@example.com").await;
    let u = s
        .grpc
        .create_unit_of_measurement(ctx.request(unit(" แพ็ค  6 ", "6", "piece")))
        .await
        .unwrap()
        .into_inner()
        .unit
        .unwrap();
    assert_eq!((u.name.as_str(), u.quantity, u.base_unit.as_str()), ("แพ็ค 6", 6, "piece"));
    assert_eq!((u.created_by, u.store_id), (ctx.user_id, ctx.store_id));

    // The same name, whatever its case and spacing, is refused in the store.
    let dup = s.grpc.create_unit_of_measurement(ctx.request(unit("แพ็ค 6", "12", "piece"))).await.unwrap_err();
    assert_eq!(code(dup), Code::UnitNameDuplicate);
    s.grpc.create_unit_of_measurement(ctx.request(unit("Box", "1", "box"))).await.unwrap();
    let dup = s.grpc.create_unit_of_measurement(ctx.request(unit(" BOX ", "2", "box"))).await.unwrap_err();
    assert_eq!(code(dup), Code::UnitNameDuplicate);
    // Another store may use it.
    let other = owner(&s, "b@example.com").await;
    s.grpc.create_unit_of_measurement(other.request(unit("แพ็ค 6", "6", "piece"))).await.unwrap();

    // Rules: the service reads numbers as entered.
    let bad = s.grpc.create_unit_of_measurement(ctx.request(unit("", "หก", "litre"))).await.unwrap_err();
    let e = bo_kit::Error::from(bad);
    let fields: Vec<(&str, &str)> = e.fields.iter().map(|f| (f.field.as_str(), f.code.as_str())).collect();
    assert_eq!(
        fields,
        vec![
            ("name", "validation.required"),
            ("quantity", "validation.quantity"),
            ("base_unit", "validation.unit_type")
        ]
    );

    // A patch changes what it names; renaming onto another unit's name is refused.
    let dozen = s
        .grpc
        .update_unit_of_measurement(ctx.request(pb::UpdateUnitOfMeasurementRequest {
            id: u.id,
            quantity: Some("2".into()),
            base_unit: Some("dozen".into()),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner()
        .unit
        .unwrap();
    assert_eq!((dozen.name.as_str(), dozen.converted_quantity, dozen.converted_unit.as_str()), ("แพ็ค 6", 24, "piece"));
    let clash = s
        .grpc
        .update_unit_of_measurement(ctx.request(pb::UpdateUnitOfMeasurementRequest {
            id: u.id,
            name: Some("box".into()),
            ..Default::default()
        }))
        .await
        .unwrap_err();
    assert_eq!(code(clash), Code::UnitNameDuplicate);
    // Another store's unit is not found from this one.
    let theirs = s.grpc.list_units_of_measurement(other.request(Default::default())).await.unwrap().into_inner();
    let theirs = theirs.units[0].id;
    let nf = s
        .grpc
        .update_unit_of_measurement(
            ctx.request(pb::UpdateUnitOfMeasurementRequest { id: theirs, ..Default::default() }),
        )
        .await
        .unwrap_err();
    assert_eq!(code(nf), Code::UnitNotFound);
    let nf = s.grpc.delete_unit_of_measurement(ctx.request(pb::DeleteUnitOfMeasurementRequest { id: theirs })).await;
    assert_eq!(code(nf.unwrap_err()), Code::UnitNotFound);

    // Paging: newest first, clamped, -1 for all.
    for i in 0..21 {
        s.grpc.create_unit_of_measurement(ctx.request(unit(&format!("ลัง {i}"), "24", "carton"))).await.unwrap();
    }
    let list = |page: i64, limit: i64| {
        let req = ctx.request(pb::ListUnitsOfMeasurementRequest { page: Some(pb::PageRequest { page, limit }) });
        let grpc = s.grpc.clone();
        async move { grpc.list_units_of_measurement(req).await.unwrap().into_inner() }
    };
    let first = list(1, 10).await;
    let p = first.page.unwrap();
    assert_eq!((first.units.len(), p.total, p.pages), (10, 23, 3));
    assert_eq!(first.units[0].name, "ลัง 20", "newest first");
    assert_eq!(list(99, 10).await.page.unwrap().page, 3, "page clamped");
    assert_eq!(list(3, 10).await.units.len(), 3);
    assert_eq!(list(1, -1).await.units.len(), 23);

    // Delete.
    s.grpc.delete_unit_of_measurement(ctx.request(pb::DeleteUnitOfMeasurementRequest { id: u.id })).await.unwrap();
    assert_eq!(list(1, -1).await.units.len(), 22);
    // The name is free again.
    s.grpc.create_unit_of_measurement(ctx.request(unit("แพ็ค 6", "6", "piece"))).await.unwrap();
}

async fn the_latest_safety_stock_is_the_newest_setting(db: Db) {
    let s = service(&db).await;
    let ctx = owner(&s, "a@example.com").await;
    let other = owner(&s, "b@example.com").await;
    let latest = |c: &CallCtx| {
        let grpc = s.grpc.clone();
        let req = c.request(pb::GetLatestSafetyStockRequest {});
        async move { grpc.get_latest_safety_stock(req).await }
    };
    assert_eq!(code(latest(&ctx).await.unwrap_err()), Code::SafetyStockNotSet);

    let set = |c: &CallCtx, amount: &str| {
        let grpc = s.grpc.clone();
        let req = c.request(pb::CreateSafetyStockHistoryRequest { amount: amount.into() });
        async move { grpc.create_safety_stock_history(req).await }
    };
    let first = set(&ctx, "10").await.unwrap().into_inner().history.unwrap();
    assert_eq!((first.amount, first.created_by), (10, ctx.user_id));
    set(&ctx, "0").await.unwrap();
    set(&other, "99").await.unwrap();
    let e = bo_kit::Error::from(set(&ctx, "-3").await.unwrap_err());
    assert_eq!((e.fields[0].field.as_str(), e.fields[0].code.as_str()), ("amount", "validation.quantity"));
    let e = bo_kit::Error::from(set(&ctx, " ").await.unwrap_err());
    assert_eq!(e.fields[0].code, "validation.required");

    let got = latest(&ctx).await.unwrap().into_inner().history.unwrap();
    assert_eq!((got.amount, got.store_id), (0, ctx.store_id), "the newest of this store");
    assert_eq!(latest(&other).await.unwrap().into_inner().history.unwrap().amount, 99);
    let kept: i64 = sqlx::query("SELECT COUNT(*) FROM store_safety_stock_histories WHERE store_id = $1")
        .bind(ctx.store_id)
        .fetch_one(db.pool())
        .await
        .unwrap()
        .get(0);
    assert_eq!(kept, 2, "every setting is kept");
}

async fn a_store_token_holds_while_its_membership_is_unchanged(db: Db) {
    let s = service(&db).await;
    let ctx = owner(&s, "a@example.com").await;
    let perms = |p: &[&str]| p.iter().map(|p| p.to_string()).collect::<Vec<_>>();
    let member = s
        .grpc
        .add_member(ctx.store_id, "cashier@example.com", "password123", "cashier", Some(("till", perms(&["a.b.read"]))))
        .await
        .unwrap();
    let session = s
        .grpc
        .authenticate(tonic::Request::new(pb::AuthenticateRequest {
            email: "cashier@example.com".into(),
            password: "password123".into(),
            known_device: false,
        }))
        .await
        .unwrap()
        .into_inner()
        .session_id;
    let check = |store_id: i64, version: i64| {
        let grpc = s.grpc.clone();
        let req = tonic::Request::new(pb::CheckSessionRequest {
            session_id: session.clone(),
            store_id,
            membership_version: version,
        });
        async move { grpc.check_session(req).await.unwrap().into_inner() }
    };
    let v = member.version;
    let r = check(ctx.store_id, v).await;
    assert!(r.active && r.membership_current && r.user_id == member.user_id);
    assert!(!check(ctx.store_id, v - 1).await.membership_current, "a token of an older version");
    let elsewhere = owner(&s, "b@example.com").await;
    let r = check(elsewhere.store_id, v).await;
    assert!(r.active && !r.membership_current, "not a member there");

    // The role's permissions change (a second member brings new ones): its members move on.
    let other = s
        .grpc
        .add_member(ctx.store_id, "second@example.com", "password123", "cashier", Some(("till", perms(&["a.c.read"]))))
        .await
        .unwrap();
    assert!(!check(ctx.store_id, v).await.membership_current, "the old rights are gone");
    let now: i64 = sqlx::query("SELECT version FROM memberships WHERE id = $1")
        .bind(member.id)
        .fetch_one(db.pool())
        .await
        .unwrap()
        .get(0);
    assert!(now > v && check(ctx.store_id, now).await.membership_current);
    assert_eq!(other.role.unwrap().permissions, perms(&["a.c.read"]));

    // A deactivated membership holds at no version.
    sqlx::query("UPDATE memberships SET status = 'inactive' WHERE id = $1")
        .bind(member.id)
        .execute(db.pool())
        .await
        .unwrap();
    assert!(!check(ctx.store_id, now).await.membership_current);

    // A signed-out session holds nothing.
    s.grpc
        .end_session(CallCtx::new(0, member.user_id).request(pb::EndSessionRequest { session_id: session.clone() }))
        .await
        .unwrap();
    let r = check(ctx.store_id, now).await;
    assert!(!r.active && !r.membership_current);
}

/// Team changes of one store run one at a time: two owners demoting each other at once
/// leave one owner, and of many people racing for one link, one joins.
async fn team_changes_never_race_past_the_rules(db: Db) {
    let s = service(&db).await;
    let ctx = owner(&s, "a@example.com").await;
    let second = s.grpc.add_member(ctx.store_id, "b@example.com", "password123", "admin", None).await.unwrap();
    let owner_m: i64 = sqlx::query("SELECT id FROM memberships WHERE user_id = $1 AND store_id = $2")
        .bind(ctx.user_id)
        .bind(ctx.store_id)
        .fetch_one(db.pool())
        .await
        .unwrap()
        .get(0);
    s.grpc
        .update_member(ctx.request(pb::UpdateMemberRequest {
            id: second.id,
            permission: Some("owner".into()),
            ..Default::default()
        }))
        .await
        .unwrap();
    let b = CallCtx::new(ctx.store_id, second.user_id);
    for _ in 0..5 {
        let demote = |by: &CallCtx, id: i64| {
            let grpc = s.grpc.clone();
            let req =
                by.request(pb::UpdateMemberRequest { id, permission: Some("admin".into()), ..Default::default() });
            async move { grpc.update_member(req).await }
        };
        let (x, y) = tokio::join!(demote(&ctx, second.id), demote(&b, owner_m));
        assert!(x.is_err() || y.is_err(), "one of them is refused");
        let owners: i64 = sqlx::query(
            "SELECT COUNT(*) FROM memberships WHERE store_id = $1 AND permission = 'owner' AND status = 'active'",
        )
        .bind(ctx.store_id)
        .fetch_one(db.pool())
        .await
        .unwrap()
        .get(0);
        assert_eq!(owners, 1, "the store keeps exactly one owner");
        // Make both owners again for the next round (whoever is still owner promotes).
        let (who, other) = if x.is_ok() { (&ctx, second.id) } else { (&b, owner_m) };
        s.grpc
            .update_member(who.request(pb::UpdateMemberRequest {
                id: other,
                permission: Some("owner".into()),
                ..Default::default()
            }))
            .await
            .unwrap();
    }

    let inv = s
        .grpc
        .create_invitation(ctx.request(pb::CreateInvitationRequest { permission: "cashier".into(), role_id: 0 }))
        .await
        .unwrap()
        .into_inner()
        .invitation
        .unwrap();
    let mut racers = Vec::new();
    for i in 0..10 {
        let grpc = s.grpc.clone();
        let key = inv.key.clone();
        racers.push(tokio::spawn(async move {
            grpc.register(tonic::Request::new(pb::RegisterRequest {
                invitation_key: key,
                email: format!("racer{i}@example.com"),
                password: "password123".into(),
                first_name: "แข่ง".into(),
                last_name: format!("{i}"),
            }))
            .await
        }));
    }
    let mut joined = 0;
    for r in racers {
        match r.await.unwrap() {
            Ok(_) => joined += 1,
            Err(e) => assert_eq!(code(e), Code::InvitationUsed),
        }
    }
    assert_eq!(joined, 1, "one link, one member");
    let users: i64 =
        sqlx::query("SELECT COUNT(*) FROM users WHERE email LIKE 'racer%'").fetch_one(db.pool()).await.unwrap().get(0);
    assert_eq!(users, 1, "no account is left behind by the ones refused");
}

/// The operator's `admin menus` command: one store's list, each key once, recorded.
async fn menus_are_hidden_for_one_store(db: Db) {
    let s = service(&db).await;
    let a = owner(&s, "a@example.com").await;
    let b = owner(&s, "b@example.com").await;
    assert_eq!(s.grpc.set_menu_hidden(a.store_id, "connect_e_parcel", true).await.unwrap(), vec!["connect_e_parcel"]);
    assert_eq!(
        s.grpc.set_menu_hidden(a.store_id, "user_list", true).await.unwrap(),
        vec!["connect_e_parcel", "user_list"]
    );
    assert_eq!(s.grpc.set_menu_hidden(a.store_id, "user_list", true).await.unwrap().len(), 2, "once");
    let e = s.grpc.set_menu_hidden(a.store_id, "Bad-Key", true).await.unwrap_err();
    assert_eq!(e.fields[0].code, "validation.menu_key");
    assert_eq!(s.grpc.set_menu_hidden(999_999, "user_list", true).await.unwrap_err().code, Code::StoreNotFound);
    let store = s.grpc.get_store(a.request(pb::GetStoreRequest {})).await.unwrap().into_inner().store.unwrap();
    assert_eq!(store.menu_hiding_list, vec!["connect_e_parcel", "user_list"]);
    assert!(s.grpc.menu_hiding(b.store_id).await.unwrap().is_empty(), "another store hides nothing");
    assert_eq!(s.grpc.set_menu_hidden(a.store_id, "connect_e_parcel", false).await.unwrap(), vec!["user_list"]);
    let audit = s
        .grpc
        .list_audit(a.request(pb::ListAuditRequest { page: None, actor_user_id: 0 }))
        .await
        .unwrap()
        .into_inner()
        .entries;
    let actions: Vec<&str> = audit.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(actions, vec!["store.menu_shown", "store.menu_hidden", "store.menu_hidden"]);
    assert_eq!(audit[0].actor_user_id, 0, "done by the system, not a member");
}

/// Which setting held when a bill was made: the newest begun by then, the default before any.
async fn the_bill_expiry_that_held_at_a_time(db: Db) {
    let s = service(&db).await;
    let ctx = owner(&s, "a@example.com").await;
    let at = |ms: i64| {
        let grpc = s.grpc.clone();
        let req = ctx.request(pb::GetBillExpiryRequest { at_ms: ms, with_history: false });
        async move { grpc.get_bill_expiry(req).await.unwrap().into_inner().setting.unwrap() }
    };
    let before = bo_kit::time::now_ms();
    assert_eq!((at(0).await.id, at(0).await.expiry_type), (0, "no_expiry".to_string()));
    let set = |t: &str, days: i64| {
        let grpc = s.grpc.clone();
        let req = ctx.request(pb::SetBillExpiryRequest {
            expiry_type: t.into(),
            days,
            on_expiry: "cancel_order".into(),
            ..Default::default()
        });
        async move { grpc.set_bill_expiry(req).await.unwrap().into_inner().setting.unwrap() }
    };
    let first = set("by_day", 2).await;
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let second = set("next_day", 0).await;
    assert_eq!(at(0).await.id, second.id);
    let first_start = first.start_time.as_ref().unwrap();
    let first_ms = first_start.seconds * 1000 + i64::from(first_start.nanos) / 1_000_000;
    assert_eq!(at(first_ms).await.id, first.id, "a bill made under the first keeps it");
    assert_eq!(at(before - 1).await.id, 0, "before any setting: never expires");
}

/// What an order being made asks of the store in one call: its customer or address-book
/// entry (another store's, or one of another customer, is not found) and the bill terms.
async fn an_order_asks_for_its_terms_in_one_call(db: Db) {
    let s = service(&db).await;
    let ctx = owner(&s, "a@example.com").await;
    let c =
        s.grpc.create_customer(ctx.request(new_customer("0812345678"))).await.unwrap().into_inner().customer.unwrap();
    let entry = c.default_address.unwrap();
    let terms = |customer_id: i64, customer_address_id: i64, ctx: CallCtx| {
        let grpc = s.grpc.clone();
        let req = ctx.request(pb::GetOrderTermsRequest { customer_id, customer_address_id });
        async move { grpc.get_order_terms(req).await.unwrap().into_inner() }
    };
    let none = terms(0, 0, ctx.clone()).await;
    assert_eq!((none.customer_found, none.address.is_some(), none.expires_at_ms), (false, false, 0));
    assert_eq!(none.bill_expiry.unwrap().expiry_type, "no_expiry");
    let customer = terms(c.id, 0, ctx.clone()).await;
    assert!(customer.customer_found && customer.address.is_none());
    let book = terms(c.id, entry.id, ctx.clone()).await;
    assert!(book.customer_found);
    assert_eq!(book.address.unwrap().postcode, "10500");
    assert!(!terms(c.id + 1000, 0, ctx.clone()).await.customer_found);
    assert!(terms(c.id + 1000, entry.id, ctx.clone()).await.address.is_none(), "not that customer's entry");
    let other = owner(&s, "b@example.com").await;
    let elsewhere = terms(c.id, entry.id, other).await;
    assert!(!elsewhere.customer_found && elsewhere.address.is_none(), "another store's customer");

    s.grpc
        .set_bill_expiry(ctx.request(pb::SetBillExpiryRequest {
            expiry_type: "by_day".into(),
            days: 2,
            on_expiry: "cancel_order".into(),
            ..Default::default()
        }))
        .await
        .unwrap();
    let now = bo_kit::time::now_ms();
    let by_day = terms(0, 0, ctx.clone()).await;
    assert_eq!(by_day.bill_expiry.unwrap().expiry_type, "by_day");
    assert!(by_day.expires_at_ms > now + 86_400_000, "two days on");
}

/// A stores service checking warehouses with a stock ledger beside it; `store` gets a
/// default warehouse there, whose id is returned.
async fn with_ledger(db: &Db, store: i64) -> (Service, bo_wms::Service, testing::TestDb, i64) {
    let wms_db = testing::sqlite().await;
    let wms = bo_wms::Service::open(wms_db.db.clone(), testing::bus().await).await.unwrap();
    let mut tx = wms_db.db.begin().await.unwrap();
    bo_wms::store::Repo::ensure_default_warehouse(&mut tx, store, "คลังหลัก").await.unwrap();
    tx.commit().await.unwrap();
    let client = bo_proto::wms::v1::wms_service_client::WmsServiceClient::new(bo_kit::grpc::in_process(
        wms.server(),
        testing::keys(),
    ));
    let warehouse: i64 = sqlx::query("SELECT id FROM warehouses WHERE store_id = $1")
        .bind(store)
        .fetch_one(wms_db.db.pool())
        .await
        .unwrap()
        .get(0);
    (service(db).await.with_wms(client), wms, wms_db, warehouse)
}

fn branch_input(no: &str, warehouse_id: i64) -> pb::BranchInput {
    pb::BranchInput {
        branch_no: no.into(),
        is_main: None,
        name: format!("สาขา {no}"),
        tax_id: "1234567890121".into(),
        warehouse_id,
        address: "1 ถนนสีลม".into(),
        sub_district: "สีลม".into(),
        district: "บางรัก".into(),
        state_province: "กรุงเทพมหานคร".into(),
        postcode: "10500".into(),
    }
}

fn field_codes(e: tonic::Status) -> Vec<(String, String)> {
    bo_kit::Error::from(e).fields.into_iter().map(|f| (f.field, f.code)).collect()
}

/// Branches, POS units, cashiers and sellers: numbers unique in the store, warehouses the
/// store's (asked of wms), people on the store's branches, branches in use kept.
async fn point_of_sale_setup_keeps_its_rules(db: Db) {
    let first = service(&db).await;
    let owner_ctx = owner(&first, "a@example.com").await;
    let (store, user) = (owner_ctx.store_id, owner_ctx.user_id);
    let (s, _wms, _wms_db, warehouse) = with_ledger(&db, store).await;
    // The token a gateway forwards, which the stores service passes on to wms.
    let ctx = testing::identity().acting(store, user);
    let g = &s.grpc;

    let main = g
        .create_branch(ctx.request(pb::CreateBranchRequest { branch: Some(branch_input("00000", warehouse)) }))
        .await
        .unwrap()
        .into_inner()
        .branch
        .unwrap();
    assert!(main.is_main);
    let e = g
        .create_branch(ctx.request(pb::CreateBranchRequest { branch: Some(branch_input("00000", warehouse)) }))
        .await
        .unwrap_err();
    assert_eq!(bo_kit::Error::from(e).code, Code::BranchNumberDuplicate);
    let e = g
        .create_branch(ctx.request(pb::CreateBranchRequest { branch: Some(branch_input("00001", warehouse + 100)) }))
        .await
        .unwrap_err();
    assert_eq!(field_codes(e), vec![("warehouse_id".into(), "validation.warehouse_unknown".into())]);
    let e = g
        .create_branch(ctx.request(pb::CreateBranchRequest {
            branch: Some(pb::BranchInput {
                branch_no: "1".into(),
                tax_id: "1234567890122".into(),
                ..branch_input("", warehouse)
            }),
        }))
        .await
        .unwrap_err();
    assert_eq!(
        field_codes(e),
        vec![("branch_no".into(), "validation.branch_number".into()), ("tax_id".into(), "validation.tax_id".into())]
    );
    let second = g
        .create_branch(ctx.request(pb::CreateBranchRequest { branch: Some(branch_input("00001", warehouse)) }))
        .await
        .unwrap()
        .into_inner()
        .branch
        .unwrap();
    let list =
        g.list_branches(ctx.request(pb::ListBranchesRequest { page: Some(pb_page(-1)) })).await.unwrap().into_inner();
    assert_eq!(list.branches.iter().map(|b| b.branch_no.as_str()).collect::<Vec<_>>(), vec!["00000", "00001"]);
    assert_eq!(list.page.unwrap().limit, -1);

    // Another store's branch is not this store's to use or see.
    let other = owner(&first, "b@example.com").await;
    let other_ctx = testing::identity().acting(other.store_id, other.user_id);
    let e = g.get_branch(other_ctx.request(pb::GetBranchRequest { id: main.id })).await.unwrap_err();
    assert_eq!(bo_kit::Error::from(e).code, Code::BranchNotFound);
    let e = g
        .create_pos_unit(other_ctx.request(pb::CreatePosUnitRequest {
            pos_no: "P1".into(),
            branch_id: main.id,
            warehouse_id: 0,
        }))
        .await
        .unwrap_err();
    assert_eq!(field_codes(e), vec![("branch_id".into(), "validation.branch_unknown".into())]);

    // POS units: unique numbers (whatever their case), the branch's warehouse unless their own.
    let till = g
        .create_pos_unit(ctx.request(pb::CreatePosUnitRequest {
            pos_no: "POS-01".into(),
            branch_id: second.id,
            warehouse_id: 0,
        }))
        .await
        .unwrap()
        .into_inner()
        .pos_unit
        .unwrap();
    assert_eq!((till.branch_no.as_str(), till.effective_warehouse_id), ("00001", warehouse));
    let e = g
        .create_pos_unit(ctx.request(pb::CreatePosUnitRequest {
            pos_no: "pos-01".into(),
            branch_id: main.id,
            warehouse_id: 0,
        }))
        .await
        .unwrap_err();
    assert_eq!(bo_kit::Error::from(e).code, Code::PosNumberDuplicate);

    // Cashiers are active members, once each; sellers start active with no phone or code.
    let e = g
        .create_pos_person(ctx.request(pb::CreatePosPersonRequest {
            kind: pb::PosPersonKind::Cashier as i32,
            person: Some(pb::PosPersonInput {
                user_id: other.user_id,
                first_name: "ก".into(),
                last_name: "ข".into(),
                email: "b@example.com".into(),
                branch_id: main.id,
                ..Default::default()
            }),
        }))
        .await
        .unwrap_err();
    assert_eq!(field_codes(e), vec![("user_id".into(), "validation.member_unknown".into())]);
    let cashier_input = pb::PosPersonInput {
        user_id: user,
        first_name: "สมหญิง".into(),
        last_name: "ใจดี".into(),
        email: "a@example.com".into(),
        branch_id: main.id,
        ..Default::default()
    };
    let cashier = |input: pb::PosPersonInput| {
        g.create_pos_person(
            ctx.request(pb::CreatePosPersonRequest { kind: pb::PosPersonKind::Cashier as i32, person: Some(input) }),
        )
    };
    let c = cashier(cashier_input.clone()).await.unwrap().into_inner().person.unwrap();
    assert_eq!((c.status(), c.branch_no.as_str()), (pb::PosPersonStatus::Active, "00000"));
    assert_eq!(bo_kit::Error::from(cashier(cashier_input).await.unwrap_err()).code, Code::CashierDuplicate);
    let seller = g
        .create_pos_person(ctx.request(pb::CreatePosPersonRequest {
            kind: pb::PosPersonKind::Seller as i32,
            person: Some(pb::PosPersonInput {
                first_name: "สมชาย".into(),
                last_name: "ขายเก่ง".into(),
                email: "Seller@Example.com".into(),
                branch_id: second.id,
                tel: "0812345678".into(),
                code: "S1".into(),
                status: pb::PosPersonStatus::Inactive.into(),
                ..Default::default()
            }),
        }))
        .await
        .unwrap()
        .into_inner()
        .person
        .unwrap();
    assert_eq!(
        (seller.status(), seller.tel.as_str(), seller.code.as_str(), seller.email.as_str()),
        (pb::PosPersonStatus::Active, "", "", "seller@example.com")
    );

    // A branch with a till or people stays; once empty it goes.
    for id in [main.id, second.id] {
        let e = g.delete_branch(ctx.request(pb::DeleteBranchRequest { id })).await.unwrap_err();
        assert_eq!(bo_kit::Error::from(e).code, Code::BranchInUse);
    }
    g.delete_pos_unit(ctx.request(pb::DeletePosUnitRequest { id: till.id })).await.unwrap();
    g.delete_pos_person(
        ctx.request(pb::DeletePosPersonRequest { kind: pb::PosPersonKind::Seller as i32, id: seller.id }),
    )
    .await
    .unwrap();
    g.delete_branch(ctx.request(pb::DeleteBranchRequest { id: second.id })).await.unwrap();
    let left = g.list_branches(ctx.request(pb::ListBranchesRequest { page: None })).await.unwrap().into_inner();
    assert_eq!(left.branches.len(), 1);

    // Every change is in the audit trail.
    let audit = g
        .list_audit(ctx.request(pb::ListAuditRequest { page: None, actor_user_id: user }))
        .await
        .unwrap()
        .into_inner()
        .entries;
    let actions: Vec<&str> = audit.iter().map(|e| e.action.as_str()).filter(|a| a.starts_with("pos.")).collect();
    assert_eq!(
        actions,
        vec![
            "pos.branch.delete",
            "pos.seller.delete",
            "pos.unit.delete",
            "pos.seller.create",
            "pos.cashier.create",
            "pos.unit.create",
            "pos.branch.create",
            "pos.branch.create"
        ]
    );
}

fn pb_page(limit: i64) -> bo_proto::common::v1::PageRequest {
    bo_proto::common::v1::PageRequest { page: 1, limit }
}

bo_kit::on_both_databases!(
    customers_keep_one_default_address_and_unique_phones,
    search_matches_name_or_phone_and_pages_in_the_database,
    units_have_unique_names_per_store_and_page_in_the_database,
    the_latest_safety_stock_is_the_newest_setting,
    a_store_token_holds_while_its_membership_is_unchanged,
    team_changes_never_race_past_the_rules,
    menus_are_hidden_for_one_store,
    the_bill_expiry_that_held_at_a_time,
    an_order_asks_for_its_terms_in_one_call,
    point_of_sale_setup_keeps_its_rules
);
