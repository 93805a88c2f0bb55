use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{grant, TestApp, OWNER_EMAIL, OWNER_PASSWORD};
use crate::on_every_stack;

async fn signing_in_and_choosing_a_store(app: &TestApp) {
    let (s, v) = app
        .call(Method::POST, "/auth/login", None, Some(json!({"email": OWNER_EMAIL, "password": "wrong-password"})))
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    assert_eq!(v["error"]["code"], "invalid_credentials");
    let (s, v) = app
        .call(Method::POST, "/auth/login", None, Some(json!({"email": "nobody@example.com", "password": "whatever1"})))
        .await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("invalid_credentials")));

    // Email is case-insensitive.
    let (user, user_id) = app.login("Owner@Example.com", OWNER_PASSWORD).await;
    let (s, v) = app.get(&format!("/users/{user_id}/user-stores"), &user).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["total"], 1);
    assert_eq!(v["data"][0]["store"]["id"], app.demo_store);
    assert_eq!(v["data"][0]["permission"], "owner");
    assert_eq!(v["data"][0]["store"]["name"], "ร้านใจดี ออนไลน์");
    let membership = v["data"][0]["id"].as_i64().unwrap();
    let (s, v) = app.get(&format!("/users/user-stores/{membership}"), &user).await;
    assert_eq!((s, v["store"]["id"].as_i64()), (StatusCode::OK, Some(app.demo_store)));
    // Another user's stores are not listed.
    let (s, _) = app.get(&format!("/users/{}/user-stores", user_id + 1), &user).await;
    assert_eq!(s, StatusCode::FORBIDDEN);

    // A user token is not a store token.
    let (s, v) = app.get(&format!("/stores/{}/customers", app.demo_store), &user).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("store_token_required")));

    let (s, v) = app.post("/stores/auth/token", &user, json!({"id": app.demo_store})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["permission"], "owner");
    assert_eq!(v["role"]["permissions"], json!(["*"]));
    let token = v["token"].as_str().unwrap();
    let (s, v) = app.get(&format!("/stores/{}", app.demo_store), token).await;
    assert_eq!((s, v["postcode"].as_str()), (StatusCode::OK, Some("10310")));
    let (s, v) = app.get("/stores/getting-started", token).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v, json!({"payment": false, "logistic": false, "product": false, "goods_receipt": false}));
    let (s, v) = app.get(&format!("/stores/{}/settings/get-menu-hiding", app.demo_store), token).await;
    assert_eq!((s, v), (StatusCode::OK, json!({"menu_hiding_list": []})));

    // A store the user does not belong to.
    let (s, v) = app.post("/stores/auth/token", &user, json!({"id": app.demo_store + 100})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("forbidden")));
}

async fn the_owner_edits_the_store(app: &TestApp) {
    let owner = app.owner().await;
    let path = format!("/stores/{}", app.demo_store);
    let (s, v) =
        app.call(Method::PUT, &path, Some(&owner), Some(json!({"name": "ร้านใหม่", "tel": "02-999-8888"}))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["name"].as_str(), v["tel"].as_str()), (Some("ร้านใหม่"), Some("029998888")));
    assert_eq!(v["postcode"], "10310", "fields not given stay");
    let (s, v) = app.call(Method::PUT, &path, Some(&owner), Some(json!({"postcode": "123"}))).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["error"]["fields"][0], json!({"field": "postcode", "code": "validation.postcode"}));

    let staff = app.member_with(app.demo_store, "staff@example.com", &["store.customer.*"]).await;
    let (s, v) = app.call(Method::PUT, &path, Some(&staff), Some(json!({"name": "x"}))).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("forbidden")));
    assert_eq!(v["error"]["message_key"], "error.forbidden");
    assert_eq!(v["error"]["message"], "You have no right, contact the shop owner");
    let manager = app.member_with(app.demo_store, "manager@example.com", &["store.*"]).await;
    let (s, _) = app.call(Method::PUT, &path, Some(&manager), Some(json!({"name": "ร้านของผู้จัดการ"}))).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "store edit is the owner's only (decision 0013), store.* or not");
    let admin = app.member_with(app.demo_store, "admin-edit@example.com", &["*"]).await;
    let (s, _) = app.call(Method::PUT, &path, Some(&admin), Some(json!({"name": "x"}))).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "not even a role holding every key: the owner level is asked");

    // The change is in the store's audit trail, field by field.
    let (_, audit) = app.get(&format!("/stores/{}/audit", app.demo_store), &owner).await;
    let last = &audit["data"][0];
    assert_eq!(last["action"], "store.updated");
    assert_eq!(last["detail"]["postcode"], serde_json::Value::Null, "a refused change is not recorded");
    assert_eq!(last["detail"]["tel"][1], "029998888");
}

async fn tokens_are_checked(app: &TestApp) {
    let path = format!("/stores/{}/customers", app.demo_store);
    let (s, v) = app.call(Method::GET, &path, None, None).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("unauthenticated")));
    assert_eq!(v["error"]["message"], "Your session expired, please log in again");
    let (s, _) = app.get(&path, "not-a-token").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    // A token signed with another key.
    let forged = bo_kit::auth::Keys::new(&[1u8; 32], 60)
        .unwrap()
        .store_token(1, "x", app.demo_store, grant("owner", 1, &["*"], 1))
        .unwrap()
        .0;
    let (s, _) = app.get(&path, &forged).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

async fn signing_out_ends_the_session(app: &TestApp) {
    let (user, _) = app.login(OWNER_EMAIL, OWNER_PASSWORD).await;
    let (_, v) = app.post("/stores/auth/token", &user, json!({"id": app.demo_store})).await;
    let store = v["token"].as_str().unwrap().to_string();
    let path = format!("/stores/{}/customers", app.demo_store);
    assert_eq!(app.get(&path, &store).await.0, StatusCode::OK);
    let (s, _) = app.call(Method::POST, "/auth/logout", Some(&user), None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, v) = app.get(&path, &store).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("session_ended")));
    // Another session of the same user is unaffected.
    let other = app.owner().await;
    assert_eq!(app.get(&path, &other).await.0, StatusCode::OK);
}

/// A membership changed (the stores service moves its version on every change) refuses the
/// store tokens issued before; a new token carries the new rights. Here the change is made
/// behind the gateway's back (another replica, an operator), so this gateway notices within
/// `auth.membership_check_ms` (1 s by default); changes made through it take effect on the
/// very next request (`team::an_invited_cashier_with_a_custom_role_gets_only_its_rights`).
async fn a_changed_membership_refuses_old_store_tokens(app: &TestApp) {
    let store = app.demo_store;
    let email = "till@example.com";
    let old = app.member_with(store, email, &["store.customer.read"]).await;
    let (user, _) = app.login(email, "member-password").await;
    let path = format!("/stores/{store}/customers");
    assert_eq!(app.get(&path, &old).await.0, StatusCode::OK);

    let db = bo_kit::db::Db::connect(&app.db_url).await.unwrap();
    let change = |sql: &'static str| {
        let db = db.clone();
        async move {
            sqlx::query(sql).bind(email).execute(db.pool()).await.unwrap();
        }
    };
    // Another role: the old token, and a cached session, count for nothing now.
    let elsewhere = std::time::Duration::from_millis(1100);
    change(
        "UPDATE memberships SET version = version + 1, \
         role_id = (SELECT id FROM roles WHERE store_id = memberships.store_id AND name = 'admin') \
         WHERE user_id = (SELECT id FROM users WHERE email = $1)",
    )
    .await;
    tokio::time::sleep(elsewhere).await;
    let (s, v) = app.get(&path, &old).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("membership_changed")));
    assert_eq!(v["error"]["message"], "Your rights in this store have changed; the page will load them again");
    let (s, v) = app.post("/stores/auth/token", &user, json!({"id": store})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["role"]["name"], "admin");
    let renewed = v["token"].as_str().unwrap().to_string();
    assert_eq!(app.get(&path, &renewed).await.0, StatusCode::OK);

    // Deactivated: the token stops working and no new one is given.
    change(
        "UPDATE memberships SET version = version + 1, status = 'inactive' \
         WHERE user_id = (SELECT id FROM users WHERE email = $1)",
    )
    .await;
    tokio::time::sleep(elsewhere).await;
    let (s, v) = app.get(&path, &renewed).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("membership_changed")));
    let (s, _) = app.post("/stores/auth/token", &user, json!({"id": store})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    // Writes with an Idempotency-Key are refused the same way, before the body is read.
    let r = app
        .client
        .post(format!("{}/stores/{store}/customers", app.base))
        .bearer_auth(&renewed)
        .header("idempotency-key", "after-removal")
        .json(&crate::helpers::thai_customer("ไม่ ควร", "0811111199"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    db.close().await;
}

on_every_stack!(
    a_changed_membership_refuses_old_store_tokens,
    signing_in_and_choosing_a_store,
    the_owner_edits_the_store,
    tokens_are_checked,
    signing_out_ends_the_session
);

/// The embedded back-office with the demo owner (password `demo1234`), allowing
/// `per_minute` failed sign-ins, behind a proxy on this machine when `behind_proxy`.
async fn limited(per_minute: u32, behind_proxy: bool) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = crate::helpers::config_in(&dir);
    cfg.auth.login_attempts_per_minute = per_minute;
    if behind_proxy {
        cfg.http.trusted_proxies = vec!["127.0.0.1".into()];
    }
    let db_url = cfg.database_url("stores");
    TestApp::launch(cfg, dir, Vec::new(), db_url, None).await
}

#[tokio::test]
async fn sign_in_is_rate_limited_per_address() {
    let app = limited(3, false).await;
    // Successful sign-ins count for nothing.
    let good = json!({"email": "owner@example.com", "password": "demo1234"});
    for _ in 0..5 {
        assert_eq!(app.call(Method::POST, "/auth/login", None, Some(good.clone())).await.0, StatusCode::OK);
    }
    let body = json!({"email": "owner@example.com", "password": "wrong-password"});
    for _ in 0..3 {
        let (s, _) = app.call(Method::POST, "/auth/login", None, Some(body.clone())).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED);
    }
    let (s, v) = app.call(Method::POST, "/auth/login", None, Some(body)).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::TOO_MANY_REQUESTS, Some("too_many_attempts")));
    app.stop().await;
}

/// Guesses sent at once get no further than guesses sent one after another: each is
/// counted before its password is checked, so of 40 concurrent wrong passwords for one
/// account with a limit of 10, at most 10 reach the check.
#[tokio::test]
async fn concurrent_guesses_are_counted_before_they_are_checked() {
    let app = limited(10, false).await;
    let body = json!({"email": OWNER_EMAIL, "password": "wrong-password"});
    let guesses = (0..40).map(|_| {
        let (client, url, body) = (app.client.clone(), format!("{}/auth/login", app.base), body.clone());
        async move { client.post(url).json(&body).send().await.unwrap().status() }
    });
    let answers = futures::future::join_all(guesses).await;
    let checked = answers.iter().filter(|s| **s == StatusCode::UNAUTHORIZED).count();
    let refused = answers.iter().filter(|s| **s == StatusCode::TOO_MANY_REQUESTS).count();
    assert_eq!(checked + refused, 40, "{answers:?}");
    assert_eq!(checked, 10, "as many guesses reach the password check as the limit, no more");
    // The right password is refused too for the rest of the minute: the account is spent.
    let good = json!({"email": OWNER_EMAIL, "password": "demo1234"});
    assert_eq!(app.call(Method::POST, "/auth/login", None, Some(good)).await.0, StatusCode::TOO_MANY_REQUESTS);
    app.stop().await;
}

/// Registration tells nothing to someone without a usable invitation: an unknown key answers
/// the same whether the e-mail has an account or not, and every refusal counts like a wrong
/// password, so e-mails cannot be tried one after another.
#[tokio::test]
async fn registration_is_no_oracle_of_e_mails() {
    let app = limited(3, true).await;
    let register = |from: &'static str, key: String, email: &'static str| {
        app.client
            .post(format!("{}/auth/register", app.base))
            .header("x-forwarded-for", from)
            .json(&json!({"invitation_key": key, "email": email, "password": "new-member-1",
                          "first_name": "สมหญิง", "last_name": "ขายดี"}))
            .send()
    };
    let unknown = "c".repeat(64);
    let code = |v: serde_json::Value| v["error"]["code"].as_str().unwrap_or("").to_string();
    for email in [OWNER_EMAIL, "nobody@example.com"] {
        let r = register("203.0.113.7", unknown.clone(), email).await.unwrap();
        assert_eq!(r.status(), StatusCode::NOT_FOUND, "{email}");
        assert_eq!(code(r.json().await.unwrap()), "invitation_not_found", "{email}: the same answer");
    }
    // A real key and an e-mail with an account: the key's holder is told, and it counts.
    let owner = app.store_token(OWNER_EMAIL, "demo1234", app.demo_store).await;
    let (s, inv) =
        app.post("/stores/invitations", &owner, json!({"store_id": app.demo_store, "permission": "cashier"})).await;
    assert_eq!(s, StatusCode::CREATED, "{inv}");
    let key = inv["key"].as_str().unwrap().to_string();
    let r = register("203.0.113.7", key.clone(), OWNER_EMAIL).await.unwrap();
    assert_eq!(r.status(), StatusCode::CONFLICT);
    assert_eq!(code(r.json().await.unwrap()), "user_email_taken");
    // Three refusals from the address: the fourth try is held back, even with a good e-mail.
    let r = register("203.0.113.7", key.clone(), "fresh@example.com").await.unwrap();
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    // From elsewhere the key still works.
    let r = register("198.51.100.20", key, "fresh@example.com").await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    app.stop().await;
}

/// Behind a trusted proxy every client has its own address, and an account has its own
/// count whatever the address: many addresses cannot guess one account's password, and
/// one attacker does not lock out everyone behind the proxy.
#[tokio::test]
async fn sign_in_is_limited_per_account_and_per_forwarded_address() {
    let app = limited(3, true).await;
    let login = |from: String, email: &'static str, password: &'static str| {
        app.client
            .post(format!("{}/auth/login", app.base))
            .header("x-forwarded-for", from)
            .json(&json!({"email": email, "password": password}))
            .send()
    };
    for i in 0..3 {
        let r = login(format!("203.0.113.{i}"), "owner@example.com", "wrong-password").await.unwrap();
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    }
    let r = login("203.0.113.50".into(), "owner@example.com", "wrong-password").await.unwrap();
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS, "the account is spent from any address");
    let r = login("203.0.113.51".into(), "nobody@example.com", "wrong-password").await.unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED, "another account from another client is not held back");
    // One address failing on many accounts is stopped too.
    for email in ["a@example.com", "b@example.com", "c@example.com"] {
        assert_eq!(login("198.51.100.9".into(), email, "x-password").await.unwrap().status(), StatusCode::UNAUTHORIZED);
    }
    let r = login("198.51.100.9".into(), "d@example.com", "x-password").await.unwrap();
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    app.stop().await;
}

#[tokio::test]
async fn the_embedded_signing_key_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = crate::helpers::config_in(&dir);
    let modules = bo_backoffice::resolve("all").unwrap();
    let first = bo_backoffice::app::launch(cfg.clone(), modules.clone()).await.unwrap();
    let base = format!("http://{}/api", first.http_addr);
    let client = reqwest::Client::new();
    let v: serde_json::Value = client
        .post(format!("{base}/auth/login"))
        .json(&json!({"email": "owner@example.com", "password": "demo1234"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = v["token"].as_str().unwrap().to_string();
    first.stop().await;
    let second = bo_backoffice::app::launch(cfg, modules).await.unwrap();
    assert!(!second.demo.as_ref().unwrap().created, "the demo is made once");
    let res = client
        .get(format!("http://{}/api/users/{}/user-stores", second.http_addr, v["user"]["id"]))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    second.stop().await;
}
