//! Logistics through the API: the carrier catalogue, shipping channels domestic and
//! international with their rules, COD accounts, channels per warehouse, parcel prices,
//! who may change them, and one store's channels kept from another.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;

fn field_codes(v: &Value) -> Vec<(String, String)> {
    v["error"]["fields"]
        .as_array()
        .unwrap_or(&vec![])
        .iter()
        .map(|f| (f["field"].as_str().unwrap().to_string(), f["code"].as_str().unwrap().to_string()))
        .collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

/// The store's default warehouse, once wms has made it.
async fn warehouse(app: &TestApp, token: &str) -> i64 {
    for _ in 0..200 {
        let (_, w) = app.get("/wms/warehouses", token).await;
        if let Some(id) = w["data"][0]["id"].as_i64() {
            return id;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no warehouse");
}

fn thaipost_by_weight(wh: i64, cod: bool) -> Value {
    json!({"warehouse_id": wh, "logistic_type": "domestic", "name": "ไปรษณีย์ EMS", "provider_name": "thaipost",
        "pricing_method": "weight", "cod": cod,
        "brackets": [{"max_weight": "1", "price": "38"}, {"max_weight": "5", "price": "65.50"}]})
}

fn ems_world(wh: i64) -> Value {
    json!({"warehouse_id": wh, "name": "EMS World", "provider_name": "ems_world_package", "pricing_method": "flat",
        "price": "850"})
}

async fn shipping_channels_end_to_end(app: &TestApp) {
    let t = app.owner().await;
    let wh = warehouse(app, &t).await;

    // The catalogue.
    let (_, all) = app.get("/logistics/channels", &t).await;
    let (_, inter) = app.get("/logistics/channels?shipment-type=international", &t).await;
    assert_eq!((all["total"].as_i64(), inter["total"].as_i64()), (Some(15), Some(8)));
    let cod: Vec<&str> = all["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["cod"] == true)
        .map(|c| c["provider_name"].as_str().unwrap())
        .collect();
    assert_eq!(cod, ["thaipost", "flash"]);
    let (s, _) = app.get("/logistics/channels?shipment-type=moon", &t).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);

    // Required fields, under their names; nothing saved.
    let (s, v) = app.post("/logistics/store-channels", &t, json!({})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        field_codes(&v),
        pairs(&[
            ("warehouse_id", "validation.required"),
            ("logistic_type", "validation.required"),
            ("name", "validation.required"),
            ("provider", "validation.required"),
            ("method", "validation.required"),
            ("price", "validation.required"),
        ])
    );
    let mut stranger = thaipost_by_weight(wh + 1000, false);
    stranger["name"] = json!("x");
    let (_, v) = app.post("/logistics/store-channels", &t, stranger).await;
    assert_eq!(field_codes(&v), pairs(&[("warehouse_id", "validation.warehouse_unknown")]));
    let mut bad = thaipost_by_weight(wh, false);
    bad["brackets"] = json!([{"max_weight": "5", "price": "10"}, {"max_weight": "1", "price": "5"}]);
    let (_, v) = app.post("/logistics/store-channels", &t, bad).await;
    assert_eq!(field_codes(&v), pairs(&[("brackets", "validation.weight_brackets")]));

    // COD needs the store's COD account with the provider ('missing COD number').
    let (s, v) = app.post("/logistics/store-channels", &t, thaipost_by_weight(wh, true)).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("cod_account_missing")), "{v}");
    let (s, v) = app.post("/logistics/store-providers", &t, json!({})).await;
    assert_eq!(
        (s, field_codes(&v)),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            pairs(&[("provider", "validation.required"), ("cod_account_no", "validation.required")])
        )
    );
    let (_, v) = app
        .post("/logistics/store-providers", &t, json!({"provider_name": "kerry", "cod_account_no": "1234567890"}))
        .await;
    assert_eq!(field_codes(&v), pairs(&[("provider", "validation.logistic_provider")]));
    let (s, cod_acc) = app
        .post("/logistics/store-providers", &t, json!({"provider_name": "thaipost", "cod_account_no": "0123456789"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{cod_acc}");
    let (s, v) = app
        .post("/logistics/store-providers", &t, json!({"provider_name": "thaipost", "cod_account_no": "0123456780"}))
        .await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("cod_provider_duplicate")));
    let (s, v) = app
        .patch(&format!("/logistics/store-providers/{}", cod_acc["id"]), &t, json!({"cod_account_no": "0123-456-780"}))
        .await;
    assert_eq!(
        (s, v["cod_account_no"].as_str(), v["provider_name"].as_str()),
        (StatusCode::OK, Some("0123456780"), Some("thaipost"))
    );
    let (s, _) = app.patch("/logistics/store-providers/999999", &t, json!({"cod_account_no": "0123456780"})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, v) = app
        .patch("/logistics/store-providers", &t, json!({"provider_name": "flash", "cod_account_no": "9999999999"}))
        .await;
    assert_eq!((s, v["provider_name"].as_str()), (StatusCode::OK, Some("flash")), "PATCH adds when missing");
    let (_, v) = app.get("/logistics/store-providers", &t).await;
    assert_eq!(v["total"], 2);

    // A domestic channel by weight brackets with COD.
    let (s, post) = app.post("/logistics/store-channels", &t, thaipost_by_weight(wh, true)).await;
    assert_eq!(s, StatusCode::CREATED, "{post}");
    assert_eq!((post["cod"].as_bool(), post["international"].as_bool()), (Some(true), Some(false)));
    assert_eq!(post["brackets"][1], json!({"max_weight": "5.000", "max_weight_g": 5000, "price": "65.50"}));
    let post_id = post["id"].as_i64().unwrap();
    // Kerry, flat, free from 1,000 baht; a provider without COD cannot offer it.
    let kerry = json!({"warehouse_id": wh, "logistic_type": "domestic", "name": "Kerry", "provider_name": "kerry",
        "pricing_method": "free_over", "price": "45", "free_over": "1000", "cod": true});
    let (_, v) = app.post("/logistics/store-channels", &t, kerry.clone()).await;
    assert_eq!(field_codes(&v), pairs(&[("cod", "validation.cod_unsupported")]));
    let mut kerry = kerry;
    kerry["cod"] = json!(false);
    let (s, k) = app.post("/logistics/store-channels", &t, kerry).await;
    assert_eq!((s, k["free_over"].as_str()), (StatusCode::CREATED, Some("1000.00")), "{k}");
    let kerry_id = k["id"].as_i64().unwrap();

    // International: one per warehouse per provider.
    let (s, ems) = app.post("/logistics/store-channels/inter", &t, ems_world(wh)).await;
    assert_eq!((s, ems["international"].as_bool()), (StatusCode::CREATED, Some(true)), "{ems}");
    let (s, v) = app.post("/logistics/store-channels/inter", &t, ems_world(wh)).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("logistic_inter_duplicate")));
    assert_eq!(v["error"]["message"], "Only one international shipping per warehouse per provider");
    let (s, v) = app
        .patch(&format!("/logistics/store-channels/inter/ems_world_package/{wh}"), &t, json!({"price": "900"}))
        .await;
    assert_eq!((s, v["price"].as_str()), (StatusCode::OK, Some("900.00")), "{v}");
    let (s, _) = app.patch(&format!("/logistics/store-channels/inter/epacket/{wh}"), &t, json!({"price": "1"})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // PATCH keeps what it does not name; PUT replaces everything.
    let (s, v) = app.patch(&format!("/logistics/store-channels/{kerry_id}"), &t, json!({"name": "Kerry ส่งด่วน"})).await;
    assert_eq!((s, v["name"].as_str(), v["price"].as_str()), (StatusCode::OK, Some("Kerry ส่งด่วน"), Some("45.00")));
    let (s, v) = app
        .call(Method::PUT, &format!("/logistics/store-channels/{kerry_id}"), Some(&t), Some(json!({"name": "x"})))
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");

    // Prices for a 1.2 kg parcel from the warehouse: cheapest first, COD narrows.
    let (s, q) = app
        .post(
            "/logistics/shipping-price/quotes",
            &t,
            json!({"warehouse_id": wh, "weight": "1.2", "order_total": "500"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{q}");
    let priced: Vec<(String, bool, String)> = q["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["store_channel"]["name"].as_str().unwrap().to_string(),
                x["available"] == true,
                x["price"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        priced,
        [
            ("Kerry ส่งด่วน".to_string(), true, "45.00".to_string()),
            ("ไปรษณีย์ EMS".to_string(), true, "65.50".to_string()),
            ("EMS World".to_string(), false, "0.00".to_string()),
        ]
    );
    let (_, q) = app
        .post(
            "/logistics/shipping-price/quotes",
            &t,
            json!({"warehouse_id": wh, "weight": "1.2", "order_total": "1000", "cod": true}),
        )
        .await;
    let avail: Vec<(&str, &str)> = q["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["available"] == true)
        .map(|x| (x["store_channel"]["name"].as_str().unwrap(), x["price"].as_str().unwrap()))
        .collect();
    assert_eq!(avail, [("ไปรษณีย์ EMS", "65.50")]);
    let (_, q) = app
        .post("/logistics/shipping-price/quotes", &t, json!({"warehouse_id": wh, "weight": "1.2", "country": "JP"}))
        .await;
    let abroad = q["data"].as_array().unwrap().iter().find(|x| x["available"] == true).unwrap();
    assert_eq!(
        (abroad["store_channel"]["name"].as_str(), abroad["price"].as_str()),
        (Some("EMS World"), Some("900.00"))
    );
    let (s, v) = app.post("/logistics/shipping-price/quotes", &t, json!({"warehouse_id": wh, "weight": "0"})).await;
    assert_eq!((s, field_codes(&v)), (StatusCode::UNPROCESSABLE_ENTITY, pairs(&[("weight", "validation.weight")])));

    // Status by provider; the warehouse list shows active channels only.
    let (s, v) = app.patch("/logistics/store-channels/?provider_name=kerry", &t, json!({"status": "inactive"})).await;
    assert_eq!((s, v["changed"].as_i64()), (StatusCode::OK, Some(1)), "{v}");
    let (_, v) = app.get("/wms/warehouse-stores/logistic-channels", &t).await;
    let names: Vec<&str> =
        v["data"][0]["logistic_channels"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!((v["data"][0]["id"].as_i64(), names), (Some(wh), vec!["ไปรษณีย์ EMS", "EMS World"]));
    let (_, v) = app.get("/logistics/store-channels?logistic-type=international", &t).await;
    assert_eq!(v["total"], 1);
    let (_, v) = app.get("/logistics/store-channels?provider-name=thaipost", &t).await;
    assert_eq!(v["data"][0]["id"].as_i64(), Some(post_id));

    // Deleting, by id and by provider and warehouse.
    let (s, _) = app.delete(&format!("/logistics/store-channels/inter/ems_world_package/{wh}"), &t).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, _) = app.delete(&format!("/logistics/store-channels/{kerry_id}"), &t).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (_, v) = app.get("/logistics/store-channels", &t).await;
    assert_eq!(v["total"], 1);

    let mut started = Value::Null;
    for _ in 0..100 {
        started = app.get("/stores/getting-started", &t).await.1;
        if started["logistic"] == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(started["logistic"], true, "{started}");
}

async fn shipping_channels_need_the_owner_or_the_permission(app: &TestApp) {
    let store = app.demo_store;
    let owner = app.owner().await;
    let wh = warehouse(app, &owner).await;
    let (_, ems) = app.post("/logistics/store-channels/inter", &owner, ems_world(wh)).await;
    let id = ems["id"].as_i64().unwrap();
    let clerk = app.member_with(store, "clerk-ship@example.com", &["order.order.read"]).await;
    let (s, v) = app.get("/logistics/store-channels", &clerk).await;
    assert_eq!((s, v["total"].as_i64()), (StatusCode::OK, Some(1)), "any member reads");
    let writes: Vec<(Method, String, Option<Value>)> = vec![
        (Method::POST, "/logistics/store-channels".into(), Some(thaipost_by_weight(wh, false))),
        (Method::POST, "/logistics/store-channels/inter".into(), Some(ems_world(wh))),
        (Method::PUT, format!("/logistics/store-channels/{id}"), Some(ems_world(wh))),
        (Method::PATCH, format!("/logistics/store-channels/{id}"), Some(json!({"name": "x"}))),
        (Method::DELETE, format!("/logistics/store-channels/{id}"), None),
        (Method::PATCH, format!("/logistics/store-channels/inter/ems_world_package/{wh}"), Some(json!({"name": "x"}))),
        (Method::DELETE, format!("/logistics/store-channels/inter/ems_world_package/{wh}"), None),
        (
            Method::PATCH,
            "/logistics/store-channels/?provider_name=thaipost".into(),
            Some(json!({"status": "inactive"})),
        ),
        (
            Method::POST,
            "/logistics/store-providers".into(),
            Some(json!({"provider_name": "flash", "cod_account_no": "1234567890"})),
        ),
        (
            Method::PATCH,
            "/logistics/store-providers".into(),
            Some(json!({"provider_name": "flash", "cod_account_no": "1234567890"})),
        ),
        (
            Method::PATCH,
            "/logistics/store-providers/1".into(),
            Some(json!({"provider_name": "flash", "cod_account_no": "1234567890"})),
        ),
    ];
    for (m, path, body) in &writes {
        let (s, _) = app.call(m.clone(), path, Some(&clerk), body.clone()).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{m} {path}");
    }
    let keeper = app.member_with(store, "keeper-ship@example.com", &["logistic.storeChannel.*"]).await;
    let (s, v) = app.patch(&format!("/logistics/store-channels/{id}"), &keeper, json!({"name": "EMS ด่วน"})).await;
    assert_eq!((s, v["name"].as_str()), (StatusCode::OK, Some("EMS ด่วน")));
}

async fn shipping_channels_stay_in_their_store(app: &TestApp) {
    let a = app.owner().await;
    let a_wh = warehouse(app, &a).await;
    let (_, b) = app.other_owner("ship-b@example.com").await;
    let b_wh = warehouse(app, &b).await;
    let (s, ems) = app.post("/logistics/store-channels/inter", &b, ems_world(b_wh)).await;
    assert_eq!(s, StatusCode::CREATED, "{ems}");
    let id = ems["id"].as_i64().unwrap();
    for (m, path, body) in [
        (Method::GET, format!("/logistics/store-channels/{id}"), None),
        (Method::PATCH, format!("/logistics/store-channels/{id}"), Some(json!({"name": "A"}))),
        (Method::DELETE, format!("/logistics/store-channels/{id}"), None),
        (
            Method::PATCH,
            format!("/logistics/store-channels/inter/ems_world_package/{b_wh}"),
            Some(json!({"name": "A"})),
        ),
        (Method::DELETE, format!("/logistics/store-channels/inter/ems_world_package/{b_wh}"), None),
    ] {
        let (s, v) = app.call(m.clone(), &path, Some(&a), body).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{m} {path}: {v}");
    }
    // A cannot ship from B's warehouse, nor price parcels there.
    let (_, v) = app.post("/logistics/store-channels/inter", &a, ems_world(b_wh)).await;
    assert_eq!(field_codes(&v), pairs(&[("warehouse_id", "validation.warehouse_unknown")]));
    let (_, v) = app
        .post("/logistics/shipping-price/quotes", &a, json!({"warehouse_id": b_wh, "weight": "1", "country": "JP"}))
        .await;
    assert_eq!(v["total"], 0, "{v}");
    let (_, v) = app.get("/logistics/store-channels", &a).await;
    assert_eq!(v["total"], 0);
    let (s, _) = app.post("/logistics/store-channels/inter", &a, ems_world(a_wh)).await;
    assert_eq!(s, StatusCode::CREATED, "the same provider is free in A's own warehouse");
}

async fn tracking_numbers_from_registered_ranges(app: &TestApp) {
    let store = app.demo_store;
    let t = app.owner().await;
    let (s, v) = app.post("/logistics/tracking-numbers/reserve", &t, json!({"provider_name": "thaipost"})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("tracking_numbers_exhausted")));
    let (s, v) =
        app.post("/logistics/tracking-numbers/ranges", &t, json!({"provider_name": "thaipost", "prefix": "E1"})).await;
    assert_eq!(
        (s, field_codes(&v)),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            pairs(&[("prefix", "validation.tracking_prefix"), ("first", "validation.tracking_range")])
        )
    );
    let (s, r) = app
        .post(
            "/logistics/tracking-numbers/ranges",
            &t,
            json!({"provider_name": "thaipost", "prefix": "ey", "first": "12345678", "last": "12345687"}),
        )
        .await;
    assert_eq!(
        (s, r["first_number"].as_str(), r["remaining"].as_i64()),
        (StatusCode::CREATED, Some("EY123456785TH"), Some(10)),
        "{r}"
    );
    let (s, v) = app
        .post(
            "/logistics/tracking-numbers/ranges",
            &t,
            json!({"provider_name": "thaipost", "prefix": "EY", "first": "12345680", "last": "12345699"}),
        )
        .await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("tracking_range_overlap")));
    let (s, v) = app
        .post(
            "/logistics/tracking-numbers/reserve",
            &t,
            json!({"provider_name": "thaipost", "count": 3, "reference": "order-1"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["data"], json!(["EY123456785TH", "EY123456799TH", "EY123456808TH"]));
    let (_, again) = app
        .post(
            "/logistics/tracking-numbers/reserve",
            &t,
            json!({"provider_name": "thaipost", "count": 3, "reference": "order-1"}),
        )
        .await;
    assert_eq!((&again["data"], again["replayed"].as_bool()), (&v["data"], Some(true)));
    let (_, v) = app.get("/logistics/tracking-numbers/ranges?provider-name=thaipost", &t).await;
    assert_eq!(v["data"][0]["remaining"], 7);
    let (s, v) =
        app.post("/logistics/tracking-numbers/reserve", &t, json!({"provider_name": "thaipost", "count": 101})).await;
    assert_eq!((s, field_codes(&v)), (StatusCode::UNPROCESSABLE_ENTITY, pairs(&[("count", "validation.quantity")])));

    // Who ships orders may take numbers; only logistics managers register ranges.
    let packer = app.member_with(store, "packer@example.com", &["order.order.edit"]).await;
    let (s, v) = app.post("/logistics/tracking-numbers/reserve", &packer, json!({"provider_name": "thaipost"})).await;
    assert_eq!((s, v["data"].as_array().map(Vec::len)), (StatusCode::OK, Some(1)));
    let (s, _) = app
        .post(
            "/logistics/tracking-numbers/ranges",
            &packer,
            json!({"provider_name": "kerry", "prefix": "K", "first": "1", "last": "9"}),
        )
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let reader = app.member_with(store, "reader-ship@example.com", &["order.order.read"]).await;
    let (s, _) = app.post("/logistics/tracking-numbers/reserve", &reader, json!({"provider_name": "thaipost"})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);

    // Another store's ranges are its own.
    let (_, b) = app.other_owner("track-b@example.com").await;
    let (s, _) = app.post("/logistics/tracking-numbers/reserve", &b, json!({"provider_name": "thaipost"})).await;
    assert_eq!(s, StatusCode::CONFLICT);
    let (_, v) = app.get("/logistics/tracking-numbers/ranges", &b).await;
    assert_eq!(v["total"], 0);
}

async fn upload(app: &TestApp, token: &str, bytes: Vec<u8>) -> (StatusCode, Value) {
    let form =
        reqwest::multipart::Form::new().part("file", reqwest::multipart::Part::bytes(bytes).file_name("rates.xlsx"));
    let res = app
        .client
        .post(format!("{}/logistics/shipping-rate/tables", app.base))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

async fn the_international_calculator_and_rate_tables(app: &TestApp) {
    let t = app.owner().await;
    // The demo store starts with the sample table, labelled as one.
    let (_, table) = app.get("/logistics/shipping-rate/tables", &t).await;
    assert_eq!((table["loaded"].as_bool(), table["is_sample"].as_bool()), (Some(true), Some(true)), "{table}");
    assert!(table["label"].as_str().unwrap().contains("Sample"));
    // 1.2 kg to Japan with the eight services.
    let (s, r) = app.post("/logistics/shipping-rate/rates", &t, json!({"country": "JP", "weight": "1.2"})).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!((r["data"].as_array().unwrap().len(), r["is_sample"].as_bool()), (8, Some(true)));
    let ems = r["data"].as_array().unwrap().iter().find(|x| x["service"] == "ems_world_package").unwrap().clone();
    assert_eq!(
        (ems["available"].as_bool(), ems["zone"].as_str(), ems["price"].as_str()),
        (Some(true), Some("2"), Some("1350.00"))
    );
    let small =
        r["data"].as_array().unwrap().iter().find(|x| x["service"] == "surface_registered_mail").unwrap().clone();
    assert_eq!((small["available"].as_bool(), small["reason"].as_str()), (Some(true), Some("")));
    let (_, r) = app.post("/logistics/shipping-rate/rates", &t, json!({"country": "JP", "weight": "2.5"})).await;
    let small =
        r["data"].as_array().unwrap().iter().find(|x| x["service"] == "surface_registered_mail").unwrap().clone();
    assert_eq!(small["reason"], "shipping.over_weight");
    let (_, r) = app.post("/logistics/shipping-rate/rates", &t, json!({"country": "FR", "weight": "1"})).await;
    assert!(r["data"].as_array().unwrap().iter().all(|x| x["reason"] == "shipping.country_not_served"));
    let (s, v) = app.post("/logistics/shipping-rate/rates", &t, json!({"weight": "1"})).await;
    assert_eq!((s, field_codes(&v)), (StatusCode::UNPROCESSABLE_ENTITY, pairs(&[("country", "validation.required")])));

    // The template downloads, and a store's own table replaces the sample.
    let res =
        app.client.get(format!("{}/logistics/shipping-rate/template", app.base)).bearer_auth(&t).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers()["content-disposition"].to_str().unwrap().contains(".xlsx"));
    let template = res.bytes().await.unwrap().to_vec();
    let mut own = bo_logistics::rates::read(&template).unwrap();
    own.countries.truncate(1);
    own.zones.retain(|(_, c), _| c == "JP");
    for steps in own.prices.values_mut() {
        for (_, p) in steps.iter_mut() {
            *p += 10_000;
        }
    }
    let (s, table) = upload(app, &t, bo_logistics::rates::write(&own, None).unwrap()).await;
    assert_eq!(s, StatusCode::OK, "{table}");
    assert_eq!((table["is_sample"].as_bool(), table["countries"].as_array().map(Vec::len)), (Some(false), Some(1)));
    let (_, r) = app.post("/logistics/shipping-rate/rates", &t, json!({"country": "JP", "weight": "1.2"})).await;
    let ems = r["data"].as_array().unwrap().iter().find(|x| x["service"] == "ems_world_package").unwrap().clone();
    assert_eq!((ems["price"].as_str(), r["is_sample"].as_bool()), (Some("1450.00"), Some(false)));
    // A wrong file changes nothing.
    let (s, v) = upload(app, &t, b"name,price\nx,1".to_vec()).await;
    assert_eq!((s, field_codes(&v)), (StatusCode::UNPROCESSABLE_ENTITY, pairs(&[("file", "import_not_xlsx")])));
    let (_, table) = app.get("/logistics/shipping-rate/tables", &t).await;
    assert_eq!(table["is_sample"], false);

    // An international channel priced by the table, with a handling fee.
    let wh = warehouse(app, &t).await;
    let (s, ch) = app
        .post(
            "/logistics/store-channels/inter",
            &t,
            json!({"warehouse_id": wh, "name": "EMS World", "provider_name": "ems_world_package",
                "pricing_method": "rate_table", "price": "20"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{ch}");
    let (_, q) = app
        .post("/logistics/shipping-price/quotes", &t, json!({"warehouse_id": wh, "weight": "1.2", "country": "JP"}))
        .await;
    assert_eq!(
        (q["data"][0]["available"].as_bool(), q["data"][0]["price"].as_str()),
        (Some(true), Some("1470.00")),
        "{q}"
    );

    // Only the owner or logistic.storeChannel.* replaces the table; anyone may price.
    let clerk = app.member_with(app.demo_store, "clerk-rates@example.com", &["order.order.read"]).await;
    let (s, _) = upload(app, &clerk, template.clone()).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app.post("/logistics/shipping-rate/tables/sample", &clerk, json!({})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app.post("/logistics/shipping-rate/rates", &clerk, json!({"country": "JP", "weight": "1"})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, table) = app.post("/logistics/shipping-rate/tables/sample", &t, json!({})).await;
    assert_eq!((s, table["is_sample"].as_bool()), (StatusCode::OK, Some(true)));
    // Another store has no table until it loads one.
    let (_, b) = app.other_owner("rates-b@example.com").await;
    let (_, table) = app.get("/logistics/shipping-rate/tables", &b).await;
    assert_eq!(table["loaded"], false);
}

on_every_stack!(
    the_international_calculator_and_rate_tables,
    tracking_numbers_from_registered_ranges,
    shipping_channels_end_to_end,
    shipping_channels_need_the_owner_or_the_permission,
    shipping_channels_stay_in_their_store
);
