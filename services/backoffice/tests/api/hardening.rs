//! What a hostile client or a careless retry does: bodies are bounded and read only after
//! the session is checked; `Idempotency-Key` replays only what the same user may see again,
//! never a 401 or 403, and matches multipart retries by their parts.

use std::time::Duration;

use bytes::Bytes;
use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{grant, thai_customer, TestApp};
use crate::on_every_stack;

/// A body that sends `bytes` and then never ends.
fn endless_after(bytes: usize) -> reqwest::Body {
    let chunk = Bytes::from(vec![b' '; 64 * 1024]);
    let chunks = bytes.div_ceil(chunk.len());
    let head = futures::stream::iter((0..chunks).map(move |_| Ok::<_, std::io::Error>(chunk.clone())));
    reqwest::Body::wrap_stream(futures::StreamExt::chain(head, futures::stream::pending()))
}

async fn endless_post(app: &TestApp, token: &str, path: &str, bytes: usize) -> StatusCode {
    let req = app
        .client
        .post(format!("{}{path}", app.base))
        .bearer_auth(token)
        .header("Idempotency-Key", format!("endless-{bytes}"))
        .header("content-type", "application/json")
        .body(endless_after(bytes))
        .send();
    match tokio::time::timeout(Duration::from_secs(20), req).await {
        Ok(Ok(res)) => res.status(),
        Ok(Err(e)) => panic!("no answer, the connection failed: {e}"),
        Err(_) => panic!("no answer within 20 s: the body is still being read"),
    }
}

async fn bodies_are_bounded_and_read_after_the_session(app: &TestApp) {
    let t = app.owner().await;
    let path = format!("/stores/{}/customers", app.demo_store);
    // Past the 2 MiB limit, with a key: refused as soon as the limit passes.
    assert_eq!(endless_post(app, &t, &path, 3 * 1024 * 1024).await, StatusCode::PAYLOAD_TOO_LARGE);
    let res = app
        .client
        .post(format!("{}{path}", app.base))
        .bearer_auth(&t)
        .header("Idempotency-Key", "big-1")
        .header("content-type", "application/json")
        .body(vec![b' '; 3 * 1024 * 1024])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let v: Value = res.json().await.unwrap();
    assert_eq!(v["error"]["message_key"], "error.payload_too_large");

    // A signed-out session is refused before any body is read.
    let (user, _) = app.login(crate::helpers::OWNER_EMAIL, crate::helpers::OWNER_PASSWORD).await;
    let (s, v) = app.post("/stores/auth/token", &user, json!({"id": app.demo_store})).await;
    assert_eq!(s, StatusCode::OK);
    let ended = v["token"].as_str().unwrap().to_string();
    let (s, _) = app.post("/auth/logout", &ended, json!({})).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    assert_eq!(endless_post(app, &ended, &path, 64 * 1024).await, StatusCode::UNAUTHORIZED);
}

async fn idempotency_keys_belong_to_a_user_and_never_replay_refusals(app: &TestApp) {
    let store = app.demo_store;
    let path = format!("{}/stores/{store}/customers", app.base);
    let post = |token: String, key: &'static str, body: Value| {
        app.client
            .post(&path)
            .header("authorization", format!("bearer {token}"))
            .header("Idempotency-Key", key)
            .json(&body)
            .send()
    };
    // Two members of one store with the same key and different bodies: both act.
    let a = app.member_with(store, "idem-a@example.com", &["store.customer.all"]).await;
    let b = app.member_with(store, "idem-b@example.com", &["store.customer.all"]).await;
    let r = post(a.clone(), "same-key", thai_customer("ลูกค้า เอ", "0811111101")).await.unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let r = post(b.clone(), "same-key", thai_customer("ลูกค้า บี", "0811111102")).await.unwrap();
    assert_eq!(r.status(), StatusCode::CREATED, "another member's key is another key");
    assert!(r.headers().get("idempotent-replayed").is_none());

    // A refusal for want of rights is not kept: asked again, it is refused again, not replayed.
    let reader = app.member_with(store, "idem-reader@example.com", &["store.customer.read"]).await;
    for _ in 0..2 {
        let r = post(reader.clone(), "reader-key", thai_customer("ห้าม สร้าง", "0811111103")).await.unwrap();
        assert_eq!(r.status(), StatusCode::FORBIDDEN);
        assert!(r.headers().get("idempotent-replayed").is_none(), "a 403 is never replayed");
    }

    // A repeat is answered only once the permission check passes: the same user and session
    // with a token that no longer grants the right gets 403, not the saved answer.
    let r = post(a.clone(), "kept-key", thai_customer("ลูกค้า ซี", "0811111104")).await.unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    let keys = app.keys();
    let claims = keys.verify(&a, &[bo_kit::auth::AUD_STORE]).unwrap();
    let (stripped, _) = keys
        .store_token(
            claims.sub.parse().unwrap(),
            &claims.sid,
            store,
            grant("cashier", 0, &["store.customer.read"], claims.mv.unwrap()),
        )
        .unwrap();
    let r = post(stripped, "kept-key", thai_customer("ลูกค้า ซี", "0811111104")).await.unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let r = post(a.clone(), "kept-key", thai_customer("ลูกค้า ซี", "0811111104")).await.unwrap();
    assert_eq!(r.status(), StatusCode::CREATED);
    assert_eq!(r.headers().get("idempotent-replayed").unwrap(), "true");
}

async fn a_retried_upload_replays_and_an_adjustment_is_never_swallowed(app: &TestApp) {
    let t = app.owner().await;
    let (s, p) = app
        .post(
            "/products",
            &t,
            json!({"name": "ถุงผ้า", "short_description": "ผ้าแคนวาส", "code": "BAG-1", "category_id": 2,
                "price": "120", "cost": "40", "tags": ["ถุง"], "skus": [{}]}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{p}");
    let id = p["id"].as_i64().unwrap();
    let photo = crate::photos::noise_png(40, 30);
    // reqwest picks a new random boundary for every form: only the parts can match.
    let send = |bytes: Vec<u8>| {
        let form = Form::new().text("kind", "photo").part("files", Part::bytes(bytes).file_name("bag.png"));
        app.client
            .post(format!("{}/products/{id}/photos", app.base))
            .bearer_auth(&t)
            .header("Idempotency-Key", "upload-1")
            .multipart(form)
            .send()
    };
    let first = send(photo.clone()).await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    let first: Value = first.json().await.unwrap();
    let again = send(photo.clone()).await.unwrap();
    assert_eq!(again.status(), StatusCode::OK);
    assert_eq!(again.headers().get("idempotent-replayed").unwrap(), "true");
    assert_eq!(again.json::<Value>().await.unwrap(), first);
    let other = send(crate::photos::noise_png(41, 30)).await.unwrap();
    assert_eq!(other.status(), StatusCode::UNPROCESSABLE_ENTITY, "other files under the same key");
    let (_, product) = app.get(&format!("/products/{id}"), &t).await;
    assert_eq!(product["photos"].as_array().unwrap().len(), 1, "uploaded once");
    assert_eq!(app.staged_uploads().await, 0);

    // Goods adjust: the same key with another quantity is refused and moves nothing.
    let sku = p["skus"][0]["id"].as_i64().unwrap();
    let (_, w) = app.get("/wms/warehouses", &t).await;
    let w = w["data"][0]["id"].as_i64().unwrap();
    crate::helpers::wait_until_stock_knows(app, &t, w, sku).await;
    let adjust = |qty: i64| {
        app.client
            .post(format!("{}/wms/goods-adjust", app.base))
            .header("authorization", format!("bearer {t}"))
            .header("Idempotency-Key", "adjust-1")
            .json(&json!({"warehouse_id": w, "sku_id": sku, "quantity": qty, "reason": "รับของ"}))
            .send()
    };
    assert_eq!(adjust(10).await.unwrap().status(), StatusCode::CREATED);
    assert_eq!(adjust(5).await.unwrap().status(), StatusCode::UNPROCESSABLE_ENTITY);
    let r = adjust(10).await.unwrap();
    assert_eq!((r.status(), r.headers().contains_key("idempotent-replayed")), (StatusCode::CREATED, true));
    // The catalog's view follows the ledger: it settles at 10, never 15.
    let mut stock = Value::Null;
    for _ in 0..100 {
        stock = app.get("/products/sku-inventories?search=BAG-1", &t).await.1;
        if stock["data"][0]["inventory"]["quantity"] == 10 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(stock["data"][0]["inventory"]["quantity"], 10, "{stock}");
}

async fn inputs_out_of_bounds_answer_not_crash(app: &TestApp) {
    let t = app.owner().await;
    // A 50 KB search term: refused on its field, not a 500.
    let (s, v) = app.get(&format!("/products?search={}", "ก".repeat(2_000)), &t).await;
    assert_eq!((s, v["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("search")));
    assert_eq!(v["error"]["fields"][0]["code"], "validation.too_long");
    let (s, _) = app.get(&format!("/stores/{}/customers?search={}", app.demo_store, "x".repeat(50_000)), &t).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    // A text field of a body past 20,000 characters.
    let mut c = thai_customer("ยาว มาก", "0811111199");
    c["address"] = json!("ก".repeat(20_001));
    let (s, v) = app.post(&format!("/stores/{}/customers", app.demo_store), &t, c).await;
    assert_eq!((s, v["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("address")));
    // The most negative quantity there is: refused, not a panic.
    let (_, w) = app.get("/wms/warehouses", &t).await;
    let w = w["data"][0]["id"].as_i64().unwrap_or(1);
    for qty in [i64::MIN, i64::MAX] {
        let (s, v) = app
            .post("/wms/goods-adjust", &t, json!({"warehouse_id": w, "sku_id": 1, "quantity": qty, "reason": "x"}))
            .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{qty}: {v}");
    }
}

async fn answers_carry_security_headers(app: &TestApp) {
    for url in [format!("{}/openapi.json", app.base), format!("{}/healthz", app.root())] {
        let res = app.client.get(&url).send().await.unwrap();
        let h = res.headers();
        assert_eq!(h["x-content-type-options"], "nosniff", "{url}");
        assert_eq!(h["x-frame-options"], "DENY");
        assert_eq!(h["referrer-policy"], "strict-origin-when-cross-origin");
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), "{csp}");
        assert!(!h.contains_key("strict-transport-security"), "no HSTS over plain HTTP");
    }
}

on_every_stack!(
    inputs_out_of_bounds_answer_not_crash,
    answers_carry_security_headers,
    bodies_are_bounded_and_read_after_the_session,
    idempotency_keys_belong_to_a_user_and_never_replay_refusals,
    a_retried_upload_replays_and_an_adjustment_is_never_swallowed,
);

/// A client that sends half its headers and waits is cut off: it cannot hold a connection.
#[tokio::test]
async fn slow_clients_are_cut_off() {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = crate::helpers::config_in(&dir);
    cfg.http.timeouts.header_secs = 1;
    let db_url = cfg.database_url("stores");
    let app = TestApp::launch(cfg, dir, Vec::new(), db_url, None).await;
    let addr = app.root().trim_start_matches("http://").to_string();
    let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: shop\r\n").await.unwrap();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the half-sent request still holds its connection after 10 s");
    // An idle keep-alive connection is closed too, after a complete request.
    let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: shop\r\n\r\n").await.unwrap();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "an idle connection stays open");
    assert!(String::from_utf8_lossy(&buf).starts_with("HTTP/1.1 200"));
    app.stop().await;
}
