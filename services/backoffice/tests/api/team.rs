//! The team: invitations by link, custom roles, member changes under the team's rules, the
//! audit trail, who may do each, and stores kept apart.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{TestApp, OWNER_EMAIL};
use crate::on_every_stack;

/// Invites `email` as `permission` with `role_id` (0: built-in), registers them through the
/// link and enters the store; returns (store token, user id, membership id).
async fn join_by_link(app: &TestApp, owner: &str, permission: &str, role_id: i64, email: &str) -> (String, i64, i64) {
    let (s, inv) = app
        .post(
            "/stores/invitations",
            owner,
            json!({"store_id": app.demo_store, "store_name": "ร้าน", "permission": permission,
                   "role_id": (role_id > 0).then_some(role_id)}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{inv}");
    let key = inv["key"].as_str().unwrap().to_string();
    let (s, v) = app
        .call(
            Method::POST,
            "/auth/register",
            None,
            Some(json!({"invitation_key": key, "email": email, "password": "new-member-1",
                        "first_name": "สมหญิง", "last_name": "ขายดี"})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let user_id = v["user"]["id"].as_i64().unwrap();
    let user = v["token"].as_str().unwrap().to_string();
    let (s, v) = app.post("/stores/auth/token", &user, json!({"id": app.demo_store})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, list) = app.get("/user?limit=-1", owner).await;
    let membership = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["user"]["id"] == user_id)
        .map(|m| m["id"].as_i64().unwrap())
        .unwrap();
    (v["token"].as_str().unwrap().to_string(), user_id, membership)
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

async fn an_invited_cashier_with_a_custom_role_gets_only_its_rights(app: &TestApp) {
    let owner = app.owner().await;
    let store = app.demo_store;
    // A custom role from the matrix: customers read and create only.
    let (s, role) = app
        .post(
            &format!("/stores/{store}/roles"),
            &owner,
            json!({"name": "หน้าร้าน", "permissions": ["store.customer.read", "store.customer.create"]}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{role}");
    let role_id = role["id"].as_i64().unwrap();
    let (_, roles) = app.get(&format!("/stores/{store}/roles"), &owner).await;
    let names: Vec<&str> =
        roles["data"]["roles"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, vec!["owner", "admin", "cashier", "หน้าร้าน"], "built-in first, answered as data.roles");

    // The link: previewed without signing in, used once.
    let (s, inv) = app
        .post("/stores/invitations", &owner, json!({"store_id": store, "permission": "cashier", "role_id": role_id}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{inv}");
    let key = inv["key"].as_str().unwrap().to_string();
    assert_eq!(key.len(), 64);
    let (_, pending) = app.get(&format!("/stores/{store}/invitations"), &owner).await;
    assert_eq!(pending["data"][0]["key"], key.as_str());
    assert!(pending["data"][0]["expired_at"].as_str().unwrap() > pending["data"][0]["created_at"].as_str().unwrap());
    let (s, preview) = app.call(Method::GET, &format!("/invitations/{key}"), None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!((preview["state"].as_str(), preview["role_name"].as_str()), (Some("valid"), Some("หน้าร้าน")));
    let (s, v) = app
        .call(
            Method::POST,
            "/auth/register",
            None,
            Some(json!({"invitation_key": key, "email": "till@example.com", "password": "short",
                        "first_name": "", "last_name": "ขายดี"})),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let fields: Vec<&str> =
        v["error"]["fields"].as_array().unwrap().iter().map(|f| f["field"].as_str().unwrap()).collect();
    assert_eq!(fields, vec!["first_name", "password"]);
    let (s, v) = app
        .call(
            Method::POST,
            "/auth/register",
            None,
            Some(json!({"invitation_key": key, "email": "till@example.com", "password": "new-member-1",
                        "first_name": "สมหญิง", "last_name": "ขายดี"})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let user = v["token"].as_str().unwrap().to_string();
    let user_id = v["user"]["id"].as_i64().unwrap();
    // Used: the link says so, and a second person cannot use it.
    let (_, preview) = app.call(Method::GET, &format!("/invitations/{key}"), None, None).await;
    assert_eq!(preview["state"], "used");
    let (other_user, _) = app.login(OWNER_EMAIL, crate::helpers::OWNER_PASSWORD).await;
    let (s, v) = app.call(Method::POST, &format!("/invitations/{key}/accept"), Some(&other_user), None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "invitation_used"));
    assert_eq!(v["error"]["message"], "This invitation link has already been used");

    // The cashier sees only what the role allows.
    let (s, v) = app.post("/stores/auth/token", &user, json!({"id": store})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["role"]["permissions"], json!(["store.customer.read", "store.customer.create"]));
    let cashier = v["token"].as_str().unwrap().to_string();
    assert_eq!(app.get(&format!("/stores/{store}/customers"), &cashier).await.0, StatusCode::OK);
    assert_eq!(app.get("/products", &cashier).await.0, StatusCode::FORBIDDEN);
    assert_eq!(app.get("/user", &cashier).await.0, StatusCode::FORBIDDEN, "the team is the owner's or user.*");
    assert_eq!(app.get(&format!("/stores/{store}/roles"), &cashier).await.0, StatusCode::FORBIDDEN);

    // The owner takes a right out of the role: the cashier's next request is refused, and the
    // renewed token no longer carries it.
    let (s, v) = app
        .patch(&format!("/stores/{store}/roles/{role_id}"), &owner, json!({"permissions": ["store.customer.read"]}))
        .await;
    assert_eq!((s, v["member_count"].as_i64()), (StatusCode::OK, Some(1)));
    let (s, v) = app
        .post(&format!("/stores/{store}/customers"), &cashier, crate::helpers::thai_customer("ลูกค้า ใหม่", "0899999901"))
        .await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "membership_changed"));
    let (_, v) = app.post("/stores/auth/token", &user, json!({"id": store})).await;
    let cashier = v["token"].as_str().unwrap().to_string();
    let (s, _) = app
        .post(&format!("/stores/{store}/customers"), &cashier, crate::helpers::thai_customer("ลูกค้า ใหม่", "0899999901"))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    assert_eq!(app.get(&format!("/stores/{store}/customers"), &cashier).await.0, StatusCode::OK);

    // The member may read and edit their own profile, not their rights.
    let (_, list) = app.get("/user", &owner).await;
    let mid =
        list["data"].as_array().unwrap().iter().find(|m| m["user"]["id"] == user_id).unwrap()["id"].as_i64().unwrap();
    let own = format!("/users/{user_id}/user-stores/{mid}");
    assert_eq!(app.get(&own, &cashier).await.0, StatusCode::OK);
    let (s, v) = app.patch(&own, &cashier, json!({"tel": "081-234-5678"})).await;
    assert_eq!((s, v["user"]["tel"].as_str()), (StatusCode::OK, Some("0812345678")), "{v}");
    let (s, _) = app.patch(&own, &cashier, json!({"permission": "admin"})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, v) = app.patch(&own, &cashier, json!({"tel": "12"})).await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("validation.phone_digits"))
    );

    // A role in use is not deleted without moving its members; moved, the member's token renews.
    let (s, v) = app.delete(&format!("/stores/{store}/roles/{role_id}"), &owner).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "role_in_use"));
    let cashier_role = roles["data"]["roles"][2]["id"].as_i64().unwrap();
    let (s, _) = app.delete(&format!("/stores/{store}/roles/{role_id}?move-to={cashier_role}"), &owner).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, v) = app.get(&format!("/stores/{store}/customers"), &cashier).await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "membership_changed"));
    let (_, v) = app.post("/stores/auth/token", &user, json!({"id": store})).await;
    assert_eq!(v["role"]["name"], "cashier");

    // Every change is in the audit trail, newest first, and per person.
    let (s, audit) = app.get(&format!("/stores/{store}/audit?limit=-1"), &owner).await;
    assert_eq!(s, StatusCode::OK);
    let actions: Vec<&str> = audit["data"].as_array().unwrap().iter().map(|a| a["action"].as_str().unwrap()).collect();
    assert_eq!(
        actions[..6],
        ["role.deleted", "member.updated", "role.updated", "member.joined", "invitation.created", "role.created"],
        "(the demo's own store setup comes before)"
    );
    let role_change = &audit["data"][2]["detail"];
    assert_eq!(role_change["removed"], json!(["store.customer.create"]));
    let (_, mine) = app.get(&format!("/stores/{store}/audit?user-id={user_id}"), &owner).await;
    let actions: Vec<&str> = mine["data"].as_array().unwrap().iter().map(|a| a["action"].as_str().unwrap()).collect();
    assert_eq!(actions, vec!["member.updated", "member.joined"], "what the cashier did themself");
}

async fn the_team_rules_hold_through_the_api(app: &TestApp) {
    let owner = app.owner().await;
    let store = app.demo_store;
    let (admin, admin_id, admin_mid) = join_by_link(app, &owner, "admin", 0, "admin@example.com").await;
    let (_, cashier_id, cashier_mid) = join_by_link(app, &owner, "cashier", 0, "cashier@example.com").await;
    let (_, owner_id) = app.login(OWNER_EMAIL, crate::helpers::OWNER_PASSWORD).await;
    let (_, list) = app.get("/user", &owner).await;
    assert_eq!(list["total"], 3);
    assert_eq!(list["data"][0]["permission"], "owner", "owners first");
    let owner_mid = list["data"][0]["id"].as_i64().unwrap();

    // The built-in admin holds user.*: manages the team, not roles (owner or store.role.*).
    let (_, found) = app.get("/user?search=cashier%40", &admin).await;
    assert_eq!((found["total"].as_i64(), found["data"][0]["user"]["id"].as_i64()), (Some(1), Some(cashier_id)));
    let (s, _) = app
        .post(&format!("/stores/{store}/roles"), &admin, json!({"name": "x", "permissions": ["product.sku.read"]}))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    assert_eq!(app.get(&format!("/stores/{store}/roles"), &admin).await.0, StatusCode::OK, "to choose a role");
    let cashier_path = format!("/users/{cashier_id}/user-stores/{cashier_mid}");
    let (s, v) = app.patch(&cashier_path, &admin, json!({"status": "inactive"})).await;
    assert_eq!((s, v["status"].as_str()), (StatusCode::OK, Some("inactive")));
    let (_, inactive) = app.get("/user?status=inactive", &owner).await;
    assert_eq!(inactive["total"], 1);

    // Refusals, each with its reason.
    let owner_path = format!("/users/{owner_id}/user-stores/{owner_mid}");
    let (s, v) = app.patch(&owner_path, &admin, json!({"permission": "admin"})).await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "team_owner_only"));
    let (s, v) = app.delete(&owner_path, &admin).await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "team_owner_only"));
    let (s, v) = app.patch(&cashier_path, &admin, json!({"permission": "owner"})).await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "team_owner_only"));
    let admin_path = format!("/users/{admin_id}/user-stores/{admin_mid}");
    let (s, v) = app.patch(&admin_path, &admin, json!({"status": "inactive"})).await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "team_own_rights"));
    let (s, v) = app.patch(&owner_path, &owner, json!({"permission": "admin"})).await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "team_own_rights"));
    let (s, v) = app.patch(&cashier_path, &owner, json!({"status": "deleted"})).await;
    assert_eq!((s, v["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("status")));
    // Another owner may be made, and then the first owner is not the last one.
    let (s, v) = app.patch(&admin_path, &owner, json!({"permission": "owner"})).await;
    assert_eq!((s, v["role"]["name"].as_str()), (StatusCode::OK, Some("owner")), "{v}");
    let (_, v) = app
        .post("/stores/auth/token", &app.login("admin@example.com", "new-member-1").await.0, json!({"id": store}))
        .await;
    let co_owner = v["token"].as_str().unwrap().to_string();
    let (s, v) = app.patch(&owner_path, &co_owner, json!({"permission": "admin"})).await;
    assert_eq!((s, v["permission"].as_str()), (StatusCode::OK, Some("admin")));
    // Now the co-owner is the last owner; the demoted one cannot touch them.
    let (_, v) = app
        .post(
            "/stores/auth/token",
            &app.login(OWNER_EMAIL, crate::helpers::OWNER_PASSWORD).await.0,
            json!({"id": store}),
        )
        .await;
    let demoted = v["token"].as_str().unwrap().to_string();
    let (s, v) = app.delete(&admin_path, &demoted).await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "team_owner_only"));
    // Removed: gone from the list, their store token refused, history kept.
    let (s, _) = app.delete(&cashier_path, &co_owner).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (_, list) = app.get("/user", &co_owner).await;
    assert_eq!(list["total"], 2);
    let (_, removed) = app.get("/user?status=deleted", &co_owner).await;
    assert_eq!(removed["data"][0]["user"]["id"], cashier_id);
    let (s, v) = app.patch(&cashier_path, &co_owner, json!({"status": "active"})).await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "user_store_not_found"));
    let (s, _) = app
        .post("/stores/auth/token", &app.login("cashier@example.com", "new-member-1").await.0, json!({"id": store}))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    // A path naming another user than the membership's is not found.
    let (s, _) = app.get(&format!("/users/{owner_id}/user-stores/{cashier_mid}"), &co_owner).await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // Roles: names unique and not built-in ones, keys from the catalogue, built-in ones fixed.
    let (s, v) = app
        .post(&format!("/stores/{store}/roles"), &co_owner, json!({"name": "admin", "permissions": ["nope.x.y"]}))
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let codes: Vec<&str> =
        v["error"]["fields"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap()).collect();
    assert_eq!(codes, vec!["validation.role_name_reserved", "validation.permission_unknown"]);
    let (_, v) = app
        .post(&format!("/stores/{store}/roles"), &co_owner, json!({"name": "แพ็ค", "permissions": ["product.sku.read"]}))
        .await;
    let packer = v["id"].as_i64().unwrap();
    let (s, v) = app
        .post(&format!("/stores/{store}/roles"), &co_owner, json!({"name": "แพ็ค", "permissions": ["product.sku.read"]}))
        .await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("validation.role_name_duplicate"))
    );
    let (_, roles) = app.get(&format!("/stores/{store}/roles"), &co_owner).await;
    let admin_role = roles["data"]["roles"][1]["id"].as_i64().unwrap();
    let (s, v) = app.patch(&format!("/stores/{store}/roles/{admin_role}"), &co_owner, json!({"name": "boss"})).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "role_built_in"));
    // A custom role goes with admin or cashier; not with the owner level.
    let (s, v) = app.patch(&owner_path, &co_owner, json!({"role_id": packer})).await;
    assert_eq!((s, v["role"]["name"].as_str()), (StatusCode::OK, Some("แพ็ค")));
    let (s, v) = app.patch(&owner_path, &co_owner, json!({"permission": "owner", "role_id": packer})).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "team_role_level"));

    // Invitations: only admin or cashier, withdrawn ones say so.
    let (s, v) = app.post("/stores/invitations", &co_owner, json!({"store_id": store, "permission": "owner"})).await;
    assert_eq!((s, v["error"]["fields"][0]["field"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("permission")));
    let (_, inv) =
        app.post("/stores/invitations", &co_owner, json!({"store_id": store, "permission": "cashier"})).await;
    let key = inv["key"].as_str().unwrap();
    let (s, _) = app.delete(&format!("/stores/{store}/invitations/{key}"), &co_owner).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (_, preview) = app.call(Method::GET, &format!("/invitations/{key}"), None, None).await;
    assert_eq!(preview["state"], "deleted");
    let (s, v) = app
        .call(
            Method::POST,
            "/auth/register",
            None,
            Some(json!({"invitation_key": key, "email": "late@example.com", "password": "new-member-1",
                        "first_name": "ช้า", "last_name": "ไป"})),
        )
        .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "invitation_deleted"));
    let (s, _) = app.login_status("late@example.com", "new-member-1").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "no account is left behind");
    let (s, v) = app.call(Method::GET, &format!("/invitations/{}", "0".repeat(64)), None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "invitation_not_found"));
    let (s, _) = app.call(Method::GET, "/invitations/not-a-key", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

async fn another_store_never_sees_or_changes_this_team(app: &TestApp) {
    let owner = app.owner().await;
    let a = app.demo_store;
    let (_, cashier_id, cashier_mid) = join_by_link(app, &owner, "cashier", 0, "a-cashier@example.com").await;
    let (_, role) = app
        .post(&format!("/stores/{a}/roles"), &owner, json!({"name": "ของเอ", "permissions": ["product.sku.read"]}))
        .await;
    let role_id = role["id"].as_i64().unwrap();
    let (_, inv) = app.post("/stores/invitations", &owner, json!({"store_id": a, "permission": "cashier"})).await;
    let key = inv["key"].as_str().unwrap().to_string();

    let (b_store, b) = app.other_owner("team-b@example.com").await;
    // B's own lists hold only B.
    let (_, list) = app.get("/user", &b).await;
    assert_eq!(list["total"], 1);
    // Every route naming A's store, member, role or invitation is refused or not found.
    let member = format!("/users/{cashier_id}/user-stores/{cashier_mid}");
    for (method, path, body) in [
        (Method::GET, member.clone(), None),
        (Method::PATCH, member.clone(), Some(json!({"status": "inactive"}))),
        (Method::DELETE, member.clone(), None),
        (Method::GET, format!("/stores/{a}/roles"), None),
        (Method::GET, format!("/stores/{a}/roles/{role_id}"), None),
        (Method::GET, format!("/stores/{b_store}/roles/{role_id}"), None),
        (Method::PATCH, format!("/stores/{b_store}/roles/{role_id}"), Some(json!({"name": "ยึด"}))),
        (Method::DELETE, format!("/stores/{b_store}/roles/{role_id}"), None),
        (Method::GET, format!("/stores/{a}/invitations"), None),
        (Method::DELETE, format!("/stores/{a}/invitations/{key}"), None),
        (Method::DELETE, format!("/stores/{b_store}/invitations/{key}"), None),
        (Method::POST, "/stores/invitations".into(), Some(json!({"store_id": a, "permission": "admin"}))),
        (Method::GET, format!("/stores/{a}/audit"), None),
    ] {
        let (s, v) = app.call(method.clone(), &path, Some(&b), body).await;
        assert!(s == StatusCode::FORBIDDEN || s == StatusCode::NOT_FOUND, "{method} {path}: {s} {v}");
    }
    // A's records are untouched.
    let (_, v) = app.get(&member, &owner).await;
    assert_eq!(v["status"], "active");
    let (_, preview) = app.call(Method::GET, &format!("/invitations/{key}"), None, None).await;
    assert_eq!(preview["state"], "valid");
    let (s, _) = app.get(&format!("/stores/{a}/roles/{role_id}"), &owner).await;
    assert_eq!(s, StatusCode::OK);
    let (_, audit) = app.get(&format!("/stores/{b_store}/audit"), &b).await;
    assert_eq!(audit["total"], 0, "B's trail holds nothing of A");
}

on_every_stack!(
    an_invited_cashier_with_a_custom_role_gets_only_its_rights,
    the_team_rules_hold_through_the_api,
    another_store_never_sees_or_changes_this_team
);
