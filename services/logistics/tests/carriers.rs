//! The carrier adapters over real HTTP against sandboxes that check keys, tokens and
//! signatures as Thailand Post and Flash Express do and answer in their shapes.

mod sandbox;

use bo_kit::Code;
use std::time::{Duration, Instant};

use bo_logistics::carriers::{
    flash, thaipost, Address, CarrierError, Flash, NewShipment, Progress, Secret, ThaiPost, Tracker,
};
use sandbox::flash::FlashSandbox;
use sandbox::thaipost::{item, ThaiPostSandbox};
use serde_json::json;

const TP_KEY: &str = "Q5E&KJ#KWUL?A-E*TC%J!JCW|ZS=HY7N";
const MCH_ID: &str = "AA0051";
const FLASH_KEY: &str = "dd807a8e18b40153888e5a9864e70080";

/// 2023-07-19 18:12:26 in Bangkok (11:12:26 UTC).
const JULY_19_2023: i64 = 1_689_765_146_000;
/// When the pushes of the tests arrive: 20/07/2566 13:00 in Bangkok.
const NOW: i64 = 1_689_832_800_000;

fn http() -> reqwest::Client {
    sandbox::client(Duration::from_secs(5))
}

fn thaipost(sb: &ThaiPostSandbox, key: &str) -> ThaiPost {
    ThaiPost::new(http(), &sb.base_url, Secret::new(key))
}

fn flash(sb: &FlashSandbox, mch_id: &str, key: &str) -> Flash {
    Flash::new(http(), &sb.base_url, mch_id, Secret::new(key))
}

fn barcodes(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// What an error shows anywhere it may be printed.
fn shown(e: &CarrierError) -> String {
    format!("{e:?} {e} {:?}", bo_kit::Error::from(e.clone()))
}

// Thailand Post

#[tokio::test]
async fn thaipost_tracks_in_bangkok_time_with_one_token() {
    let sb = ThaiPostSandbox::start(TP_KEY).await;
    // Registered out of order: the adapter answers each parcel's history oldest first.
    sb.scan("EY145587896TH", "201", "อยู่ระหว่างการขนส่ง", "20/07/2566 09:00:00+07:00", "ศป.บางกอกใหญ่", "10600");
    sb.scan("EY145587896TH", "103", "รับฝาก", "19/07/2566 18:12:26+07:00", "ปณ.บางรัก", "10110");
    sb.scan("EF582568151TH", "501", "นำจ่ายสำเร็จ", "26/10/2562 10:00:44+07:00", "รองกวาง", "54140");
    let tp = thaipost(&sb, TP_KEY);

    let events = tp.track(&barcodes(&["EY145587896TH", "ED000000000TH", "EF582568151TH"])).await.unwrap();
    assert_eq!(events.len(), 3, "a parcel the post does not know has no events");
    let first = &events[0];
    assert_eq!((first.carrier.as_str(), first.barcode.as_str()), ("thaipost", "EY145587896TH"));
    assert_eq!((first.status.as_str(), first.description.as_str()), ("103", "รับฝาก"));
    assert_eq!((first.location.as_str(), first.postcode.as_str()), ("ปณ.บางรัก", "10110"));
    assert_eq!(first.at_ms, JULY_19_2023, "2566 BE at +07:00 is 2023 in UTC");
    assert_eq!(first.progress, Progress::Accepted);
    assert_eq!(events[1].status, "201");
    assert_eq!(events[1].at_ms, JULY_19_2023 + 14 * 3_600_000 + 47 * 60_000 + 34_000);
    let delivered = &events[2];
    assert_eq!((delivered.barcode.as_str(), delivered.progress), ("EF582568151TH", Progress::Delivered));
    assert_eq!(delivered.shipment_state(), Some("shipped"));
    assert_eq!(delivered.at_ms, 1_572_058_844_000, "26/10/2562 10:00:44 is 2019-10-26 03:00:44 UTC");

    tp.track(&barcodes(&["EY145587896TH"])).await.unwrap();
    assert_eq!(sb.token_calls(), 1, "the token is kept between tracks");
    assert_eq!(sb.track_calls(), vec![3, 1]);

    // Clones share the token; neither shows it.
    let clone = tp.clone();
    clone.track(&barcodes(&["EY145587896TH"])).await.unwrap();
    assert_eq!(sb.token_calls(), 1);
    let debug = format!("{tp:?}");
    for token in sb.issued_tokens() {
        assert!(!debug.contains(&token), "{debug}");
    }
    assert!(!debug.contains(TP_KEY), "{debug}");
}

#[tokio::test]
async fn thaipost_renews_tokens_near_their_expiry_and_when_refused() {
    let sb = ThaiPostSandbox::start(TP_KEY).await;
    sb.token_lifetime(60); // inside the five minutes before expiry a token is renewed
    let tp = thaipost(&sb, TP_KEY);
    tp.track(&barcodes(&["EY145587896TH"])).await.unwrap();
    tp.track(&barcodes(&["EY145587896TH"])).await.unwrap();
    assert_eq!(sb.token_calls(), 2);

    sb.token_lifetime(3_600);
    let tp = thaipost(&sb, TP_KEY);
    tp.track(&barcodes(&["EY145587896TH"])).await.unwrap();
    sb.revoke_tokens(); // the post stops taking the token before its expiry
    tp.track(&barcodes(&["EY145587896TH"])).await.unwrap();
    assert_eq!(sb.token_calls(), 4, "a refused token is renewed once and the call retried");
    assert_eq!(sb.track_calls().len(), 4, "the refused call was not counted, its retry was");
}

#[tokio::test]
async fn thaipost_wrong_key_is_an_auth_failure_that_never_shows_the_key() {
    let sb = ThaiPostSandbox::start(TP_KEY).await;
    let wrong = "WRONG&KEY|of-a-store#1234567890";
    let tp = thaipost(&sb, wrong);
    let e = tp.validate_key().await.unwrap_err();
    assert!(matches!(e, CarrierError::Auth(_)), "{e:?}");
    assert_eq!(e.code(), Code::CarrierAuthFailed);
    assert!(!shown(&e).contains(wrong) && !shown(&e).contains(TP_KEY), "{}", shown(&e));
    assert!(shown(&e).contains("Invalid token."), "the post's own words stay for the logs");
    let e = tp.track(&barcodes(&["EY145587896TH"])).await.unwrap_err();
    assert!(matches!(e, CarrierError::Auth(_)), "{e:?}");
    assert!(sb.track_calls().is_empty());
    assert!(!format!("{tp:?}").contains(wrong));
    let k = bo_kit::Error::from(e);
    assert_eq!((k.kind, k.code), (bo_kit::error::Kind::FailedPrecondition, Code::CarrierAuthFailed));

    assert!(thaipost(&sb, "").validate_key().await.is_err());
    thaipost(&sb, TP_KEY).validate_key().await.unwrap();
    assert_eq!(sb.token_calls(), 1);
}

#[tokio::test]
async fn thaipost_asks_100_barcodes_at_a_time() {
    let sb = ThaiPostSandbox::start(TP_KEY).await;
    let mut many: Vec<String> = (0..250).map(|i| format!("EY{i:09}TH")).collect();
    sb.scan("EY000000000TH", "103", "รับฝาก", "01/01/2567 09:00:00+07:00", "ปณ.บางรัก", "10110");
    sb.scan("EY000000249TH", "501", "นำจ่ายสำเร็จ", "02/01/2567 09:00:00+07:00", "ปณ.บางรัก", "10110");
    many.push("EY000000000TH".into()); // a repeat is asked once
    let events = thaipost(&sb, TP_KEY).track(&many).await.unwrap();
    assert_eq!(sb.track_calls(), vec![100, 100, 50]);
    assert_eq!(sb.token_calls(), 1);
    let seen: Vec<_> = events.iter().map(|e| (e.barcode.as_str(), e.progress)).collect();
    assert_eq!(seen, vec![("EY000000000TH", Progress::Accepted), ("EY000000249TH", Progress::Delivered)]);

    // The sandbox refuses more, as the post does.
    let token = thaipost(&sb, TP_KEY).token().await.unwrap();
    let res = reqwest::Client::new()
        .post(format!("{}/post/api/v1/track", sb.base_url))
        .header("Authorization", format!("Token {}", token.expose()))
        .json(&json!({"status": "all", "language": "TH", "barcode": &many[..101]}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    assert_eq!(res.json::<serde_json::Value>().await.unwrap()["status"], false);
}

#[tokio::test]
async fn thaipost_refusals_and_outages() {
    let sb = ThaiPostSandbox::start(TP_KEY).await;
    let tp = thaipost(&sb, TP_KEY);
    sb.daily_limit(2);
    let e = tp.track(&barcodes(&["EY1TH", "EY2TH", "EY3TH"])).await.unwrap_err();
    assert_eq!(e, CarrierError::Rejected { code: "200".into(), message: "Track count limit exceeded".into() });
    assert_eq!(e.code(), Code::CarrierRejected);

    sb.down(true);
    let e = tp.track(&barcodes(&["EY1TH"])).await.unwrap_err();
    assert!(matches!(e, CarrierError::Unreachable(_)), "{e:?}");
    assert_eq!(bo_kit::Error::from(e).kind, bo_kit::error::Kind::Unavailable);
    assert!(tp.track(&[]).await.unwrap().is_empty(), "nothing asked, nothing sent");
}

#[test]
fn thaipost_webhook_pushes() {
    let push = |items: Vec<serde_json::Value>| {
        serde_json::to_vec(&json!({
            "status": true,
            "message": "successful",
            "items": items,
            "track_datetime": "19/07/2566 18:12:26+07:00",
        }))
        .unwrap()
    };
    let body = push(vec![
        item("EY145587896TH", "501", "นำจ่ายสำเร็จ", "20/07/2566 12:55:35+07:00", "ปณ.บางรัก", "10110"),
        item("EY145587896TH", "103", "รับฝาก", "19/07/2566 18:12:26+07:00", "ปณ.บางรัก", "10110"),
    ]);
    let events = thaipost::parse_webhook(&body, NOW).unwrap();
    assert_eq!(events.len(), 2);
    assert_eq!((events[0].status.as_str(), events[0].at_ms), ("103", JULY_19_2023));
    assert_eq!(events[1].progress, Progress::Delivered);

    // Bounds: 1,000 items, 1 MB.
    let one = item("EY145587896TH", "201", "อยู่ระหว่างการขนส่ง", "20/07/2566 09:00:00+07:00", "", "");
    assert_eq!(thaipost::parse_webhook(&push(vec![one.clone(); 1_000]), NOW).unwrap().len(), 1_000);
    let e = thaipost::parse_webhook(&push(vec![one; 1_001]), NOW).unwrap_err();
    assert!(matches!(e, CarrierError::Malformed(_)), "{e:?}");
    let mut big = push(Vec::new());
    big.resize(1024 * 1024 + 1, b' ');
    assert!(matches!(thaipost::parse_webhook(&big, NOW), Err(CarrierError::Malformed(_))));

    // Unreadable pushes.
    let bad_date = push(vec![item("EY145587896TH", "201", "x", "2566-07-20", "", "")]);
    assert!(matches!(thaipost::parse_webhook(&bad_date, NOW), Err(CarrierError::Malformed(_))));
    assert!(matches!(thaipost::parse_webhook(b"{\"items\": 5", NOW), Err(CarrierError::Malformed(_))));
    let no_barcode = push(vec![item("", "201", "x", "20/07/2566 09:00:00+07:00", "", "")]);
    assert!(matches!(thaipost::parse_webhook(&no_barcode, NOW), Err(CarrierError::Malformed(_))));
    // A status dated more than a day ahead would stand as the parcel's latest until then.
    let tomorrow_and_more = push(vec![item("EY145587896TH", "501", "x", "22/07/2566 12:55:35+07:00", "", "")]);
    assert!(matches!(thaipost::parse_webhook(&tomorrow_and_more, NOW), Err(CarrierError::Malformed(_))));
    let within_a_day = push(vec![item("EY145587896TH", "501", "x", "21/07/2566 09:00:00+07:00", "", "")]);
    assert_eq!(thaipost::parse_webhook(&within_a_day, NOW).unwrap().len(), 1, "clocks differ by hours");
    let refused = br#"{"status": false, "message": "no items", "items": []}"#;
    assert!(matches!(thaipost::parse_webhook(refused, NOW), Err(CarrierError::Rejected { .. })));
}

// Flash Express

fn shipment(reference: &str) -> NewShipment {
    NewShipment {
        reference: reference.into(),
        sender: Address {
            name: "ร้านดีดี".into(),
            phone: "0812345678".into(),
            province: "กรุงเทพมหานคร".into(),
            district: "บางรัก".into(),
            sub_district: "สีลม".into(),
            postcode: "10500".into(),
            detail: "99/1 ถนนสีลม".into(),
        },
        receiver: Address {
            name: "สมชาย ใจดี".into(),
            phone: "0898765432".into(),
            province: "อุบลราชธานี".into(),
            district: "เมืองอุบลราชธานี".into(),
            sub_district: "ในเมือง".into(),
            postcode: "34000".into(),
            detail: "12 หมู่ 3 & ซอย 5 = บ้านเลขที่ + 1".into(),
        },
        weight_g: 1_250,
        cod_satang: None,
    }
}

#[test]
fn flash_documented_signature() {
    let params = [("body", "test"), ("mch_id", "5a7bdfd22593414adb72df5f"), ("nonce_str", "yyv6YJP436wCkdpNdghC")];
    assert_eq!(
        flash::sign(params, &Secret::new("dd807a8e18b40153888e5a9864e70080")),
        "BF46380E893F6B8F5486D2EDFE265BB8942C6A9BD5C897E34373734CE08B4B67"
    );
}

#[tokio::test]
async fn flash_creates_one_order_per_reference() {
    let sb = FlashSandbox::start(MCH_ID, FLASH_KEY).await;
    let fl = flash(&sb, MCH_ID, FLASH_KEY);
    let created = fl.create_order(&shipment("SO-1001")).await.unwrap();
    assert!(created.tracking_no.starts_with("TH"), "{created:?}");
    assert_eq!(created.sort_code, "2B1-09");
    assert_eq!(created.destination_store, "BKK_SP-สามเสน");
    let pno = created.tracking_no.clone();
    assert_eq!(sb.field(&pno, "weight").as_deref(), Some("1250"));
    assert_eq!(sb.field(&pno, "codEnabled").as_deref(), Some("0"));
    assert_eq!(sb.field(&pno, "codAmount"), None);
    assert_eq!(sb.field(&pno, "dstCityName").as_deref(), Some("เมืองอุบลราชธานี"), "district is Flash's city");
    assert_eq!(sb.field(&pno, "dstDistrictName").as_deref(), Some("ในเมือง"), "sub-district is Flash's district");
    assert_eq!(sb.field(&pno, "dstDetailAddress").as_deref(), Some("12 หมู่ 3 & ซอย 5 = บ้านเลขที่ + 1"));

    let again = fl.create_order(&shipment("SO-1001")).await.unwrap();
    assert_eq!(again, created, "a retry answers the parcel already made");
    assert_eq!(sb.orders(), 1);

    let cod = NewShipment { cod_satang: Some(159_050), ..shipment("SO-1002") };
    let second = fl.create_order(&cod).await.unwrap();
    assert_ne!(second.tracking_no, pno);
    assert_eq!(sb.field(&second.tracking_no, "codEnabled").as_deref(), Some("1"));
    assert_eq!(sb.field(&second.tracking_no, "codAmount").as_deref(), Some("159050"), "satang, whole");
    assert_eq!(sb.orders(), 2);
}

#[tokio::test]
async fn flash_wrong_key_or_merchant_is_an_auth_failure() {
    let sb = FlashSandbox::start(MCH_ID, FLASH_KEY).await;
    let wrong = "0000000000aaaaaaaaaabbbbbbbbbbcc";
    for fl in [flash(&sb, MCH_ID, wrong), flash(&sb, "AA9999", FLASH_KEY), flash(&sb, MCH_ID, "")] {
        let e = fl.create_order(&shipment("SO-1")).await.unwrap_err();
        assert!(matches!(e, CarrierError::Auth(_)), "{e:?}");
        assert_eq!(e.code(), Code::CarrierAuthFailed);
        assert!(!shown(&e).contains(wrong) && !shown(&e).contains(FLASH_KEY), "{}", shown(&e));
        assert!(!format!("{fl:?}").contains(wrong) && !format!("{fl:?}").contains(FLASH_KEY));
    }
    assert_eq!(sb.orders(), 0);
}

#[tokio::test]
async fn flash_refuses_a_missing_field() {
    let sb = FlashSandbox::start(MCH_ID, FLASH_KEY).await;
    let fl = flash(&sb, MCH_ID, FLASH_KEY);
    let mut s = shipment("SO-2");
    s.receiver.phone = "  ".into();
    let e = fl.create_order(&s).await.unwrap_err();
    assert_eq!(e, CarrierError::Rejected { code: "1001".into(), message: "dstPhone is required".into() });
    let k = bo_kit::Error::from(e);
    assert_eq!((k.kind, k.code), (bo_kit::error::Kind::FailedPrecondition, Code::CarrierRejected));
    let e = fl.create_order(&NewShipment { weight_g: 0, ..shipment("SO-3") }).await.unwrap_err();
    assert!(matches!(&e, CarrierError::Rejected { code, .. } if code == "1001"), "{e:?}");
    assert_eq!(sb.orders(), 0);
}

#[tokio::test]
async fn flash_cancel_then_routes() {
    let sb = FlashSandbox::start(MCH_ID, FLASH_KEY).await;
    let fl = flash(&sb, MCH_ID, FLASH_KEY);
    let pno = fl.create_order(&shipment("SO-10")).await.unwrap().tracking_no;
    assert!(fl.routes(&pno).await.unwrap().is_empty(), "not picked up yet");
    fl.cancel(&pno).await.unwrap();
    let events = fl.routes(&pno).await.unwrap();
    let last = events.last().expect("the cancellation");
    assert_eq!((last.carrier.as_str(), last.barcode.as_str(), last.status.as_str()), ("flash", pno.as_str(), "9"));
    assert_eq!(last.progress, Progress::Cancelled);
    assert_eq!(last.shipment_state(), Some("cancelled"));
    let e = fl.cancel(&pno).await.unwrap_err();
    assert!(matches!(e, CarrierError::Rejected { .. }), "{e:?}");
    let e = fl.routes("TH9999999999A").await.unwrap_err();
    assert!(matches!(e, CarrierError::Rejected { .. }), "{e:?}");
}

#[tokio::test]
async fn flash_tracks_routes_oldest_first() {
    let sb = FlashSandbox::start(MCH_ID, FLASH_KEY).await;
    let fl = flash(&sb, MCH_ID, FLASH_KEY);
    let a = fl.create_order(&shipment("SO-20")).await.unwrap().tracking_no;
    let b = fl.create_order(&shipment("SO-21")).await.unwrap().tracking_no;
    let t0 = 1_700_000_000;
    sb.route(&a, 1, "RECEIVED", "พนักงานรับพัสดุแล้ว", t0);
    sb.route(&a, 2, "ARRIVAL_WAREHOUSE_SCAN", "พัสดุถึงสาขา", t0 + 3_600);
    sb.route(&a, 5, "DELIVERY_CONFIRM", "เซ็นรับแล้ว", t0 + 86_400);
    sb.route(&b, 1, "RECEIVED", "พนักงานรับพัสดุแล้ว", t0 + 60);
    let events = fl.track(&barcodes(&[&b, "TH0000000000X", &a])).await.unwrap();
    let seen: Vec<_> = events.iter().map(|e| (e.barcode.as_str(), e.at_ms, e.progress)).collect();
    assert_eq!(
        seen,
        vec![
            (b.as_str(), (t0 + 60) * 1000, Progress::Accepted),
            (a.as_str(), t0 * 1000, Progress::Accepted),
            (a.as_str(), (t0 + 3_600) * 1000, Progress::InTransit),
            (a.as_str(), (t0 + 86_400) * 1000, Progress::Delivered),
        ],
        "a parcel Flash does not know has no events"
    );
    assert_eq!(events[3].description, "เซ็นรับแล้ว");
    // Picked up: no longer cancellable.
    let e = fl.cancel(&a).await.unwrap_err();
    assert!(matches!(e, CarrierError::Rejected { .. }), "{e:?}");

    let wrong = flash(&sb, MCH_ID, "not-the-key");
    assert!(matches!(wrong.track(&barcodes(&[&a])).await, Err(CarrierError::Auth(_))));
}

#[tokio::test]
async fn flash_labels_are_bounded_pdfs() {
    let sb = FlashSandbox::start(MCH_ID, FLASH_KEY).await;
    let fl = flash(&sb, MCH_ID, FLASH_KEY);
    let pno = fl.create_order(&shipment("SO-30")).await.unwrap().tracking_no;
    let pdf = fl.label(&pno).await.unwrap();
    assert!(pdf.starts_with(b"%PDF-1.4"));
    assert!(pdf.trim_ascii_end().ends_with(b"%%EOF"));
    assert!(pdf.windows(pno.len()).any(|w| w == pno.as_bytes()), "the label shows the tracking number");

    let e = fl.label("TH9999999999A").await.unwrap_err();
    assert!(matches!(e, CarrierError::Rejected { .. }), "a JSON answer is a refusal: {e:?}");
    sb.huge_labels();
    let e = fl.label(&pno).await.unwrap_err();
    assert!(matches!(e, CarrierError::Malformed(_)), "over 5 MB: {e:?}");
    fl.cancel(&pno).await.unwrap();
    assert!(matches!(fl.label(&pno).await, Err(CarrierError::Rejected { .. })));

    sb.down(true);
    assert!(matches!(fl.label(&pno).await, Err(CarrierError::Unreachable(_))));
    assert!(matches!(fl.create_order(&shipment("SO-31")).await, Err(CarrierError::Unreachable(_))));
}

// Both

#[tokio::test]
async fn a_closed_port_is_unreachable_at_once() {
    let base = sandbox::closed_port();
    let started = Instant::now();
    let e = ThaiPost::new(http(), &base, Secret::new(TP_KEY)).track(&barcodes(&["EY1TH"])).await.unwrap_err();
    assert!(matches!(e, CarrierError::Unreachable(_)), "{e:?}");
    assert!(!shown(&e).contains(TP_KEY));
    let e =
        Flash::new(http(), &base, MCH_ID, Secret::new(FLASH_KEY)).create_order(&shipment("SO-40")).await.unwrap_err();
    assert!(matches!(e, CarrierError::Unreachable(_)), "{e:?}");
    assert!(!shown(&e).contains(FLASH_KEY));
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
}

#[tokio::test]
async fn a_carrier_that_hangs_is_unreachable_within_the_timeout() {
    let hung = sandbox::silent().await;
    let timeout = Duration::from_millis(300);
    let client = sandbox::client(timeout);
    let started = Instant::now();
    let e = ThaiPost::new(client.clone(), &hung.base_url, Secret::new(TP_KEY)).validate_key().await.unwrap_err();
    assert!(matches!(&e, CarrierError::Unreachable(m) if m.contains("timed out")), "{e:?}");
    let e = Flash::new(client, &hung.base_url, MCH_ID, Secret::new(FLASH_KEY)).label("TH1").await.unwrap_err();
    assert!(matches!(e, CarrierError::Unreachable(_)), "{e:?}");
    let took = started.elapsed();
    assert!(took >= timeout && took < timeout * 2 + Duration::from_secs(1), "{took:?}");
}
