//! The payments service on both databases: accounts, their uniqueness, and open bills that
//! keep an account from being deleted, learnt from the orders service's bill events.

use std::time::Duration;

use bo_kit::db::Db;
use bo_kit::grpc::CallCtx;
use bo_payments::Service;
use bo_proto::payments::v1 as pb;
use bo_proto::payments::v1::payments_service_server::PaymentsService;
use tokio_util::sync::CancellationToken;

fn bank(acc_no: &str) -> pb::StoreChannelInput {
    pb::StoreChannelInput {
        channel_type: "bank".into(),
        country: "TH".into(),
        bank_code: "014".into(),
        acc_name: "ร้านทดสอบ".into(),
        acc_no: acc_no.into(),
        branch: "สยาม".into(),
        ..Default::default()
    }
}

async fn create(s: &Service, store: i64, input: pb::StoreChannelInput) -> Result<pb::StoreChannel, tonic::Status> {
    s.grpc
        .create_store_channel(
            CallCtx::new(store, 1).request(pb::CreateStoreChannelRequest { store_channel: Some(input) }),
        )
        .await
        .map(|r| r.into_inner().store_channel.unwrap())
}

async fn numbers_are_unique_in_a_store_across_kinds(db: Db) {
    let s = Service::open(db.clone(), bo_kit::testing::bus().await).await.unwrap();
    create(&s, 1, bank("1234567890")).await.unwrap();
    let cod = pb::StoreChannelInput {
        channel_type: "cod".into(),
        acc_name: "COD".into(),
        acc_no: "123-456-7890".into(),
        ..Default::default()
    };
    let e = create(&s, 1, cod).await.unwrap_err();
    assert_eq!((e.code(), e.message()), (tonic::Code::AlreadyExists, "account_number_duplicate"));
    // Another store may hold the same number; PayPal accounts have none and never collide.
    create(&s, 2, bank("1234567890")).await.unwrap();
    for email in ["a@shop.th", "b@shop.th"] {
        let paypal = pb::StoreChannelInput {
            channel_type: "paypal".into(),
            email: email.into(),
            fee: "4.4".into(),
            ..Default::default()
        };
        assert_eq!(create(&s, 1, paypal).await.unwrap().fee_bps, 440);
    }
    // Eight concurrent adds of one number: exactly one lands.
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move { create(&s, 3, bank("5555555555")).await.is_ok() }));
    }
    let mut won = 0;
    for t in tasks {
        won += t.await.unwrap() as i64;
    }
    assert_eq!(won, 1);
    let events: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE event_type = 'payments.store_channel.saved'")
            .fetch_one(db.pool())
            .await
            .unwrap();
    assert_eq!(events, 5, "one event per account saved");
}

/// How many open bills point at an account.
async fn open_bills(s: &Service, ctx: &CallCtx, id: i64) -> i64 {
    let req = ctx.request(pb::GetStoreChannelRequest { id });
    s.grpc.get_store_channel(req).await.unwrap().into_inner().store_channel.unwrap().open_bills
}

async fn open_bills_keep_an_account(db: Db) {
    let bus = bo_kit::testing::bus().await;
    let s = Service::open(db.clone(), bus.clone()).await.unwrap();
    let stop = CancellationToken::new();
    tokio::spawn(s.consumer.clone().run(stop.clone()));
    let account = create(&s, 7, bank("9876543210")).await.unwrap();
    // An inactive account and a COD account are not shown on a bill's page: they stay free.
    let mut idle = bank("1111111111");
    idle.status = pb::ChannelStatus::Inactive.into();
    let idle = create(&s, 7, idle).await.unwrap();
    // The consumer on its own (the API test `a_payment_account_of_an_open_bill_is_kept` runs
    // it with the orders service): a bill opens, and later closes.
    let mut tx = db.begin().await.unwrap();
    bo_kit::outbox::enqueue(
        &mut tx,
        7,
        0,
        &bo_proto::events::v1::BillOpened { bill_id: 501, order_id: 90, revision: 1 },
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    s.relay.relay_once().await.unwrap();
    let ctx = CallCtx::new(7, 1);
    let mut held = 0;
    for _ in 0..200 {
        held = s
            .grpc
            .get_store_channel(ctx.request(pb::GetStoreChannelRequest { id: account.id }))
            .await
            .unwrap()
            .into_inner()
            .store_channel
            .unwrap()
            .open_bills;
        if held == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(held, 1);
    let e =
        s.grpc.delete_store_channel(ctx.request(pb::DeleteStoreChannelRequest { id: account.id })).await.unwrap_err();
    assert_eq!((e.code(), e.message()), (tonic::Code::FailedPrecondition, "payment_channel_in_use"));
    s.grpc.delete_store_channel(ctx.request(pb::DeleteStoreChannelRequest { id: idle.id })).await.unwrap();

    // The closing, then a late copy of the opening (the two types travel apart): the older
    // revision changes nothing.
    let mut tx = db.begin().await.unwrap();
    bo_kit::outbox::enqueue(&mut tx, 7, 0, &bo_proto::events::v1::BillClosed { bill_id: 501, revision: 2 })
        .await
        .unwrap();
    tx.commit().await.unwrap();
    s.relay.relay_once().await.unwrap();
    for _ in 0..200 {
        if open_bills(&s, &ctx, account.id).await == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(open_bills(&s, &ctx, account.id).await, 0, "a closed bill points at nothing");
    let mut tx = db.begin().await.unwrap();
    bo_payments::store::Repo::bill_opened(&mut tx, 7, 501, 1).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(open_bills(&s, &ctx, account.id).await, 0, "a late opening of an older revision changes nothing");
    let deleted =
        s.grpc.delete_store_channel(ctx.request(pb::DeleteStoreChannelRequest { id: account.id })).await.is_ok();
    stop.cancel();
    assert!(deleted, "a closed bill lets the account go");
}

bo_kit::on_both_databases!(numbers_are_unique_in_a_store_across_kinds, open_bills_keep_an_account);
