//! `gateway` and `stores` as two `backoffice` processes: gRPC over loopback, events over
//! NATS, data in PostgreSQL.

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use bo_kit::bus::nats::NatsBus;
use bo_kit::bus::{Bus, ConsumerConfig};
use bo_kit::testing::{self, Backend};
use prost::Message as _;
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::process::{Child, Command};

use crate::helpers::{free_port, thai_customer, wait_ready};

async fn terminate(mut child: Child) {
    let pid = child.id().expect("running").to_string();
    let _ = Command::new("kill").args(["-TERM", &pid]).status().await;
    let status = tokio::time::timeout(Duration::from_secs(30), child.wait()).await.expect("stops in time").unwrap();
    assert!(status.success(), "stopped cleanly on SIGTERM: {status}");
}

#[tokio::test]
async fn gateway_and_stores_run_as_two_processes() {
    let Some((db_url, _pg)) = testing::postgres_url().await else { return };
    let Some((wms_url, _wms_pg)) = testing::postgres_url().await else { return };
    let Some((products_url, _products_pg)) = testing::postgres_url().await else { return };
    let Some((payments_url, _payments_pg)) = testing::postgres_url().await else { return };
    let Some((logistics_url, _logistics_pg)) = testing::postgres_url().await else { return };
    let Some((reports_url, _reports_pg)) = testing::postgres_url().await else { return };
    let Some((marketplaces_url, _marketplaces_pg)) = testing::postgres_url().await else { return };
    let Some((orders_url, _orders_pg)) = testing::postgres_url().await else { return };
    let Some(nats_url) = testing::backend_url(Backend::Nats) else { return };
    let prefix = testing::unique_prefix();
    let dir = tempfile::tempdir().unwrap();
    // Both processes keep files in one bucket (or, without an S3 server, one shared folder).
    let files = match testing::s3_bucket().await {
        Some((files, _)) => files,
        None => bo_kit::files::FilesConfig {
            url: Some(format!("file://{}", dir.path().join("files").display())),
            ..Default::default()
        },
    };
    let bin = env!("CARGO_BIN_EXE_backoffice");
    let (grpc_port, stores_http, gateway_http) = (free_port(), free_port(), free_port());
    let (money_grpc, money_http) = (free_port(), free_port());
    let common = |cmd: &mut Command| {
        cmd.current_dir(dir.path())
            .env("BO_DATA_DIR", dir.path())
            .env("BO_BUS__NATS_URL", &nats_url)
            .env("BO_BUS__PREFIX", &prefix)
            .env("BO_AUTH__JWT_SECRET", "a-shared-secret-of-at-least-32-bytes!")
            .env("RUST_LOG", "warn")
            .env("BO_FILES__URL", files.url.clone().unwrap_or_default())
            .env("BO_FILES__ENDPOINT", files.endpoint.clone().unwrap_or_default())
            .env("BO_FILES__ACCESS_KEY_ID", files.access_key_id.as_ref().map(|k| k.expose()).unwrap_or_default())
            .env(
                "BO_FILES__SECRET_ACCESS_KEY",
                files.secret_access_key.as_ref().map(|k| k.expose()).unwrap_or_default(),
            )
            .stdout(Stdio::null())
            .kill_on_drop(true);
    };
    let client = reqwest::Client::new();

    let mut stores = Command::new(bin);
    common(&mut stores);
    let mut stores = stores
        .args(["--target", "stores,wms,products"])
        .env("BO_SERVICES__STORES__DATABASE_URL", &db_url)
        .env("BO_SERVICES__WMS__DATABASE_URL", &wms_url)
        .env("BO_SERVICES__PRODUCTS__DATABASE_URL", &products_url)
        .env("BO_GRPC__ADDR", format!("127.0.0.1:{grpc_port}"))
        .env("BO_HTTP__ADDR", format!("127.0.0.1:{stores_http}"))
        .spawn()
        .unwrap();
    wait_ready(&client, &format!("http://127.0.0.1:{stores_http}/readyz"), &mut stores).await;

    // Payments, logistics and orders in a third process: logistics confirms warehouses with
    // wms, and orders holds stock in wms, over gRPC across processes.
    let mut money = Command::new(bin);
    common(&mut money);
    let mut money = money
        .args(["--target", "payments,logistics,orders,reports,marketplaces"])
        .env("BO_SERVICES__PAYMENTS__DATABASE_URL", &payments_url)
        .env("BO_SERVICES__REPORTS__DATABASE_URL", &reports_url)
        .env("BO_SERVICES__MARKETPLACES__DATABASE_URL", &marketplaces_url)
        .env("BO_SERVICES__MARKETPLACES__TOKEN_KEY", "cd".repeat(32))
        .env("BO_SERVICES__LOGISTICS__DATABASE_URL", &logistics_url)
        .env("BO_SERVICES__ORDERS__DATABASE_URL", &orders_url)
        .env("BO_SERVICES__WMS__ADDR", format!("http://127.0.0.1:{grpc_port}"))
        .env("BO_SERVICES__STORES__ADDR", format!("http://127.0.0.1:{grpc_port}"))
        .env("BO_SERVICES__PRODUCTS__ADDR", format!("http://127.0.0.1:{grpc_port}"))
        .env("BO_GRPC__ADDR", format!("127.0.0.1:{money_grpc}"))
        .env("BO_HTTP__ADDR", format!("127.0.0.1:{money_http}"))
        .spawn()
        .unwrap();
    wait_ready(&client, &format!("http://127.0.0.1:{money_http}/readyz"), &mut money).await;

    let created = Command::new(bin)
        .args(["admin", "create-owner", "--email", "dist@example.com", "--store-name", "ร้านสองโปรเซส"])
        .env("BO_OWNER_PASSWORD", "dist-password")
        .env("BO_SERVICES__STORES__DATABASE_URL", &db_url)
        .env("BO_DATA_DIR", dir.path())
        .output()
        .await
        .unwrap();
    assert!(created.status.success(), "{}", String::from_utf8_lossy(&created.stderr));
    let out = String::from_utf8_lossy(&created.stdout).to_string();
    let store_id: i64 =
        out.split("store id ").nth(1).unwrap().trim_end_matches(|c: char| !c.is_ascii_digit()).parse().unwrap();

    let mut gateway = Command::new(bin);
    common(&mut gateway);
    let mut gateway = gateway
        .args(["--target", "gateway"])
        .env("BO_SERVICES__STORES__ADDR", format!("http://127.0.0.1:{grpc_port}"))
        .env("BO_SERVICES__WMS__ADDR", format!("http://127.0.0.1:{grpc_port}"))
        .env("BO_SERVICES__PRODUCTS__ADDR", format!("http://127.0.0.1:{grpc_port}"))
        .env("BO_SERVICES__PAYMENTS__ADDR", format!("http://127.0.0.1:{money_grpc}"))
        .env("BO_SERVICES__LOGISTICS__ADDR", format!("http://127.0.0.1:{money_grpc}"))
        .env("BO_SERVICES__ORDERS__ADDR", format!("http://127.0.0.1:{money_grpc}"))
        .env("BO_SERVICES__REPORTS__ADDR", format!("http://127.0.0.1:{money_grpc}"))
        .env("BO_SERVICES__MARKETPLACES__ADDR", format!("http://127.0.0.1:{money_grpc}"))
        .env("BO_HTTP__ADDR", format!("127.0.0.1:{gateway_http}"))
        .spawn()
        .unwrap();
    wait_ready(&client, &format!("http://127.0.0.1:{gateway_http}/readyz"), &mut gateway).await;

    // Watch the stream for the stores service's events.
    let bus = Arc::new(NatsBus::connect(&nats_url, &prefix).await.unwrap());
    let mut events = bus
        .subscribe(ConsumerConfig {
            durable: "watcher".into(),
            filter: format!("{prefix}.stores.>"),
            ack_wait: Duration::from_secs(5),
        })
        .await
        .unwrap();

    let api = format!("http://127.0.0.1:{gateway_http}/api");
    let login: Value = client
        .post(format!("{api}/auth/login"))
        .json(&json!({"email": "dist@example.com", "password": "dist-password"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let user = login["token"].as_str().expect("signed in").to_string();
    let tok: Value = client
        .post(format!("{api}/stores/auth/token"))
        .bearer_auth(&user)
        .json(&json!({"id": store_id}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let t = tok["token"].as_str().unwrap().to_string();
    let base = format!("{api}/stores/{store_id}/customers");

    let res =
        client.post(&base).bearer_auth(&t).json(&thai_customer("ลูกค้า กระจาย", "0812340000")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let c: Value = res.json().await.unwrap();
    let id = c["id"].as_i64().unwrap();
    let res = client.post(&base).bearer_auth(&t).json(&thai_customer("ซ้ำ", "0812340000")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::CONFLICT, "errors cross gRPC with their codes");
    let found: Value =
        client.get(format!("{base}?search=กระจาย")).bearer_auth(&t).send().await.unwrap().json().await.unwrap();
    assert_eq!(found["total"], 1);
    let res =
        client.patch(format!("{base}/{id}")).bearer_auth(&t).json(&json!({"line": "@dist"})).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let res = client.delete(format!("{base}/{id}")).bearer_auth(&t).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);

    // The new store's default warehouse was made by wms from the stores event over NATS.
    let mut warehouses = Value::Null;
    for _ in 0..100 {
        warehouses =
            client.get(format!("{api}/wms/warehouses")).bearer_auth(&t).send().await.unwrap().json().await.unwrap();
        if warehouses["total"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(warehouses["data"][0]["is_default"], true, "{warehouses}");

    let mut seen = Vec::new();
    while seen.len() < 4 {
        let d = tokio::time::timeout(Duration::from_secs(15), events.next())
            .await
            .expect("event arrives")
            .unwrap()
            .unwrap();
        let env = bo_proto::events::v1::Envelope::decode(d.payload.as_ref()).unwrap();
        assert_eq!(env.store_id, store_id);
        seen.push(env.r#type.clone());
        d.ack().await.unwrap();
    }
    assert_eq!(
        seen,
        ["stores.store.created", "stores.customer.created", "stores.customer.updated", "stores.customer.deleted"]
    );

    // A 4.5 MB photo: staged by the gateway, taken by products in the other process, served
    // back by the gateway, all through the shared storage and never inside a gRPC message.
    let res = client
        .post(format!("{api}/products"))
        .bearer_auth(&t)
        .json(&json!({"name": "รูปใหญ่", "short_description": "รูปความละเอียดสูง", "code": "DIST-PHOTO",
            "category_id": 2, "price": "10", "cost": "5", "tags": ["รูป"], "skus": [{}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let product: Value = res.json().await.unwrap();
    let big = crate::photos::noise_png(1250, 1250);
    let form = reqwest::multipart::Form::new().part("files", reqwest::multipart::Part::bytes(big).file_name("big.png"));
    let res = client
        .post(format!("{api}/products/{}/photos", product["id"]))
        .bearer_auth(&t)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let photos: Value = res.json().await.unwrap();
    let url = photos["photos"][0]["url"].as_str().unwrap();
    let body = client.get(format!("http://127.0.0.1:{gateway_http}{url}")).send().await.unwrap().bytes().await.unwrap();
    assert!(body.len() > 4 * 1024 * 1024, "{}", body.len());
    assert_eq!(image::load_from_memory(&body).unwrap().width(), 1250);

    // A payment account and a shipping channel from the third process; their events reach
    // stores over NATS and tick getting started.
    let res = client
        .post(format!("{api}/payments/store-channels"))
        .bearer_auth(&t)
        .json(&json!({"channel_type": "promptpay", "acc_name": "ร้านสองโปรเซส", "acc_no": "0801234567"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let account: Value = res.json().await.unwrap();
    let qr: Value = client
        .get(format!("{api}/payments/store-channels/{}/promptpay-qr", account["id"]))
        .bearer_auth(&t)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(qr["payload"], "00020101021129370016A000000677010111011300668012345675802TH530376463046197");
    let warehouse = warehouses["data"][0]["id"].as_i64().unwrap();
    let res = client
        .post(format!("{api}/logistics/store-channels"))
        .bearer_auth(&t)
        .json(
            &json!({"warehouse_id": warehouse, "logistic_type": "domestic", "name": "Kerry", "provider_name": "kerry",
            "pricing_method": "flat", "price": "45"}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED, "{}", res.text().await.unwrap());
    let res = client
        .post(format!("{api}/logistics/store-channels"))
        .bearer_auth(&t)
        .json(&json!({"warehouse_id": warehouse + 1000, "logistic_type": "domestic", "name": "Kerry",
            "provider_name": "kerry", "pricing_method": "flat", "price": "45"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "wms across processes refuses a stranger's warehouse");
    let mut started = Value::Null;
    for _ in 0..150 {
        started = client
            .get(format!("{api}/stores/getting-started"))
            .bearer_auth(&t)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if started["payment"] == true && started["logistic"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!((&started["payment"], &started["logistic"]), (&json!(true), &json!(true)), "{started}");

    terminate(gateway).await;
    terminate(money).await;
    terminate(stores).await;
    bus.delete_stream().await.unwrap();
}
