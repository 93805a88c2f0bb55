//! Orders through the API (SPEC §2–§8 Orders, parcels): made from the address book with
//! snapshots and money, stock held and filled, edits by the difference, the state table,
//! bulk actions each on their own, parcels, labels and shipping, the 50-buyer race, an
//! idempotent create, permissions and isolation. `on_every_stack` checks the stock
//! invariants (the ledger's, and orders against wms) after every test.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;

pub(crate) async fn main_warehouse(app: &TestApp, t: &str) -> i64 {
    for _ in 0..100 {
        let (_, v) = app.get("/wms/warehouses", t).await;
        if let Some(id) = v["data"][0]["id"].as_i64() {
            return id;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no warehouse");
}

/// A product with two SKUs (red 199.00 cost 120, blue 350.50 cost 200, 250 g each), known to
/// the ledger; their ids.
pub(crate) async fn two_skus(app: &TestApp, t: &str, code: &str, w: i64) -> (i64, i64) {
    let (s, p) = app
        .post(
            "/products",
            t,
            json!({"name": "เสื้อยืดคอกลม", "short_description": "ผ้าฝ้าย", "code": code, "category_id": 1,
                "price": "199", "cost": "120", "tags": ["เสื้อ"], "hs_code": "610910", "weight": "0.25",
                "variant1": "1สี", "variant1_options": ["แดง", "น้ำเงิน"],
                "skus": [{"code": format!("{code}-R"), "price": "199", "cost": "120", "variant_option": {"1สี": "แดง"}},
                         {"code": format!("{code}-B"), "price": "350.50", "cost": "200", "variant_option": {"1สี": "น้ำเงิน"}}]}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{p}");
    let a = p["skus"][0]["id"].as_i64().unwrap();
    let b = p["skus"][1]["id"].as_i64().unwrap();
    crate::helpers::wait_until_stock_knows(app, t, w, a).await;
    crate::helpers::wait_until_stock_knows(app, t, w, b).await;
    (a, b)
}

/// Puts `n` more units of a SKU on hand.
pub(crate) async fn stock_up(app: &TestApp, t: &str, w: i64, sku: i64, n: i64) {
    let (s, v) = app
        .post("/wms/goods-adjust", t, json!({"warehouse_id": w, "sku_id": sku, "quantity": n, "reason": "นับสต๊อก"}))
        .await;
    assert!(s.is_success(), "{v}");
}

/// (on hand, reserved) of a SKU in a warehouse.
pub(crate) async fn level(app: &TestApp, t: &str, w: i64, sku: i64) -> (i64, i64) {
    let (_, v) = app.get(&format!("/wms/stock-lots?warehouse-id={w}&sku-ids={sku}&limit=-1"), t).await;
    let lots = v["data"].as_array().unwrap();
    (
        lots.iter().map(|l| l["on_hand"].as_i64().unwrap()).sum(),
        lots.iter().map(|l| l["reserved"].as_i64().unwrap()).sum(),
    )
}

/// Waits until a SKU's level in a warehouse is (on hand, reserved): an order's hold follows it
/// a moment after it is written.
pub(crate) async fn level_becomes(app: &TestApp, t: &str, w: i64, sku: i64, want: (i64, i64)) {
    let mut seen = (0, 0);
    let started = std::time::Instant::now();
    while crate::helpers::patient(started) {
        seen = level(app, t, w, sku).await;
        if seen == want {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the level is {seen:?}, not {want:?}");
}
pub(crate) fn address() -> Value {
    json!({"name": "สมหญิง รักดี", "tel": "0891112233", "address": "12/3 ถนนนิมมานเหมินท์",
           "sub_district": "สุเทพ", "district": "เมืองเชียงใหม่", "state_province": "เชียงใหม่", "postcode": "50200"})
}

pub(crate) fn order(w: i64, items: Value) -> Value {
    json!({"channel": "facebook", "warehouse_id": w, "shipping_address": address(), "items": items})
}

pub(crate) async fn create(app: &TestApp, t: &str, body: Value) -> Value {
    let (s, v) = app.post("/orders", t, body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    v
}

fn codes(v: &Value) -> Vec<(String, String)> {
    v["error"]["fields"]
        .as_array()
        .map(|f| {
            f.iter()
                .map(|f| (f["field"].as_str().unwrap().to_string(), f["code"].as_str().unwrap().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// A domestic shipping channel of the warehouse by weight (38 baht to 1 kg, 65.50 to 5 kg),
/// with COD when asked (the COD account is made first).
pub(crate) async fn post_channel(app: &TestApp, t: &str, w: i64, cod: bool) -> i64 {
    if cod {
        let (s, v) = app
            .post("/logistics/store-providers", t, json!({"provider_name": "thaipost", "cod_account_no": "0123456789"}))
            .await;
        assert!(s.is_success() || s == StatusCode::CONFLICT, "{v}");
    }
    let (s, v) = app
        .post(
            "/logistics/store-channels",
            t,
            json!({"warehouse_id": w, "logistic_type": "domestic", "name": "ไปรษณีย์ EMS", "provider_name": "thaipost",
                   "pricing_method": "weight", "cod": cod,
                   "brackets": [{"max_weight": "1", "price": "38"}, {"max_weight": "5", "price": "65.50"}]}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    v["id"].as_i64().unwrap()
}

async fn an_order_from_the_address_book_with_its_money(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, blue) = two_skus(app, &t, "TS1", w).await;
    stock_up(app, &t, w, red, 10).await;
    stock_up(app, &t, w, blue, 5).await;
    let customers = format!("/stores/{}/customers", app.demo_store);
    let (s, c) = app.post(&customers, &t, crate::helpers::thai_customer("สมชาย ใจดี", "0869998877")).await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let (cid, aid) = (c["id"].as_i64().unwrap(), c["default_address_id"].as_i64().unwrap());
    let channel = post_channel(app, &t, w, false).await;
    // Two of red at its price, one blue at a price agreed in the chat; 10% off; shipping
    // priced by the channel (0.75 kg: 38 baht); VAT added.
    let body = json!({"channel": "line", "reference": "LINE-001", "warehouse_id": w, "customer_id": cid,
        "customer_address_id": aid, "note": "ส่งด่วน",
        "items": [{"sku_id": red, "quantity": 2, "packing_options": ["ห่อของขวัญ"]},
                  {"sku_id": blue, "quantity": 1, "price": "350.50", "note": "ไม่เอาถุง"}],
        "discount_type": "percent", "discount_value": "10", "vat_included": false,
        "logistic_store_channel_id": channel, "additional_fee": "10"});
    let o = create(app, &t, body).await;
    let year = bo_kit::time::buddhist_year(bo_kit::time::now_ms());
    assert_eq!(o["order_no"], format!("SO{year}-000001"));
    assert_eq!(
        (o["state"].as_str(), o["payment_state"].as_str(), o["problem"].as_str()),
        (Some("new"), Some("unpaid"), Some(""))
    );
    // What may be done to it comes from the orders service's state table.
    assert_eq!(o["allowed_actions"], json!(["ready_to_fulfillment", "cancel", "edit", "change_address"]));
    assert_eq!(o["stock_state"], "held");
    assert_eq!(o["shipping_address"]["name"], "สมชาย ใจดี", "the address book's entry");
    assert_eq!(o["shipping_address"]["postcode"], "10110");
    assert_eq!((o["shipping_name"].as_str(), o["shipping_provider"].as_str()), (Some("ไปรษณีย์ EMS"), Some("thaipost")));
    // Snapshots of the SKUs.
    let i0 = &o["items"][0];
    assert_eq!(
        (i0["product_name"].as_str(), i0["sku_code"].as_str(), i0["variant"].as_str()),
        (Some("เสื้อยืดคอกลม"), Some("TS1-R"), Some("สี: แดง"))
    );
    assert_eq!(
        (i0["price"].as_str(), i0["cost"].as_str(), i0["hs_code"].as_str()),
        (Some("199.00"), Some("120.00"), Some("610910"))
    );
    assert_eq!(i0["packing_options"], json!(["ห่อของขวัญ"]));
    assert_eq!(o["items"][1]["note"], "ไม่เอาถุง");
    assert_eq!(o["estimated_weight"], "0.750");
    // 748.50 − 74.85 = 673.65; + 38 + 10 = 721.65; VAT 50.52 (50.5155); total 772.17.
    assert_eq!(o["subtotal"], "748.50");
    assert_eq!(o["discount"], json!({"type": "percent", "value": "10.00", "amount": "74.85"}));
    assert_eq!(
        (o["net"].as_str(), o["shipping_charge"].as_str(), o["additional_fee"].as_str()),
        (Some("673.65"), Some("38.00"), Some("10.00"))
    );
    assert_eq!((o["vat_amount"].as_str(), o["total"].as_str()), (Some("50.52"), Some("772.17")));
    assert_eq!(
        o["profit"],
        json!({"cost_total": "440.00", "net_ex_vat": "673.65", "profit": "233.65", "margin": "34.68"})
    );
    // A customer or an address-book entry the store does not have is named under its field.
    for (customer, entry, field, code) in [
        (cid + 999, 0, "customer_id", "order.customer_unknown"),
        (cid, aid + 999, "customer_address_id", "order.address_unknown"),
    ] {
        let body = json!({"channel": "line", "warehouse_id": w, "customer_id": customer, "customer_address_id": entry,
            "shipping_address": address(), "items": [{"sku_id": red, "quantity": 1}]});
        let (s, v) = app.post("/orders", &t, body).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert_eq!(v["error"]["fields"][0], json!({"field": field, "code": code}), "{v}");
    }
    // The stock is held; the customer has one order (from the order's event).
    assert_eq!(level(app, &t, w, red).await, (10, 2));
    let mut count = Value::Null;
    for _ in 0..100 {
        let (_, c) = app.get(&format!("{customers}/{cid}"), &t).await;
        count = c["order_count"].clone();
        if count == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(count, 1);
    assert_eq!(level(app, &t, w, blue).await, (5, 1));
    // The detail has its timeline; the list, count and sums find it.
    let id = o["id"].as_i64().unwrap();
    let (_, d) = app.get(&format!("/orders/{id}"), &t).await;
    assert_eq!(d["events"][0]["action"], "created");
    assert!(d["events"][0]["user_id"].as_i64().unwrap() > 0, "who made it");
    let (_, l) = app.get("/orders?order-state=new&search=สมชาย", &t).await;
    assert_eq!((l["total"].as_i64(), l["data"][0]["id"].as_i64()), (Some(1), Some(id)), "{l}");
    let (_, l) = app.get("/orders?search=0869998877", &t).await;
    assert_eq!(l["total"], 1);
    let (_, l) = app.get("/orders?search=LINE-001&channel=line", &t).await;
    assert_eq!(l["total"], 1);
    let (_, l) = app.get("/orders?order-state=shipped", &t).await;
    assert_eq!(l["total"], 0);
    let (_, c) = app.get("/orders/count", &t).await;
    assert_eq!((c["new"].as_i64(), c["all"].as_i64()), (Some(1), Some(1)), "{c}");
    let (_, n) = app.get("/orders/net?order-state=new", &t).await;
    assert_eq!(n, json!({"orders": 1, "net": "673.65", "total": "772.17", "shipping": "38.00", "profit": "233.65"}));
    let (_, k) = app.get("/orders/countries", &t).await;
    assert_eq!(k["data"], json!([{"code": "TH", "orders": 1}]));
    // The same reference on the same channel is refused; another channel may have it.
    let dup = json!({"channel": "line", "reference": "LINE-001", "warehouse_id": w, "shipping_address": address(),
        "items": [{"sku_id": red, "quantity": 1}]});
    let (s, v) = app.post("/orders", &t, dup.clone()).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("duplicate_order_reference")), "{v}");
    let mut other = dup;
    other["channel"] = json!("facebook");
    let o2 = create(app, &t, other).await;
    assert_eq!(o2["order_no"], format!("SO{year}-000002"), "numbers have no gaps");
}

async fn validation_and_the_bill_limit(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, blue) = two_skus(app, &t, "TS2", w).await;
    let (s, v) = app.post("/orders", &t, json!({})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        codes(&v),
        [("channel", "validation.required"), ("warehouse_id", "validation.required"), ("items", "validation.required")]
            .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    let (_, v) = app
        .post(
            "/orders",
            &t,
            json!({"channel": "facebook", "warehouse_id": w, "items": [{"sku_id": 999_999, "quantity": 1}, {"sku_id": red, "quantity": 1, "price": "1.005"}]}),
        )
        .await;
    assert_eq!(codes(&v)[0], ("items[1].price".to_string(), "validation.price".to_string()));
    let (_, v) = app
        .post(
            "/orders",
            &t,
            json!({"channel": "facebook", "warehouse_id": w, "items": [{"sku_id": 999_999, "quantity": 1}]}),
        )
        .await;
    assert_eq!(codes(&v), [("items[0].sku_id".to_string(), "order.sku_unknown".to_string())]);
    // 50,000 baht per warehouse bill: 250 × 199 = 49,750 passes; one more blue is over.
    let ok = order(w, json!([{"sku_id": red, "quantity": 250}]));
    let o = create(app, &t, ok).await;
    assert_eq!((o["subtotal"].as_str(), o["problem"].as_str()), (Some("49750.00"), Some("stock_not_enough")));
    let (s, v) = app
        .post("/orders", &t, order(w, json!([{"sku_id": red, "quantity": 250}, {"sku_id": blue, "quantity": 1}])))
        .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("order_value_exceeds_limit")),
        "{v}"
    );
    // An order without an address is saved, flagged, and cannot be prepared.
    stock_up(app, &t, w, red, 1).await;
    let o =
        create(app, &t, json!({"channel": "facebook", "warehouse_id": w, "items": [{"sku_id": red, "quantity": 1}]}))
            .await;
    assert_eq!(o["problems"], json!(["address_incomplete"]));
    let id = o["id"].as_i64().unwrap();
    let (s, v) = app.post(&format!("/orders/{id}/ready-to-fulfillment"), &t, json!({})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("address_incomplete")));
    let (s, v) = app
        .post(&format!("/orders/{id}/shipping-address/change"), &t, json!({"shipping_address": {"tel": "12"}}))
        .await;
    assert_eq!(
        (s, codes(&v)),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            vec![("shipping_address.tel".to_string(), "validation.phone_digits".to_string())]
        )
    );
    let (s, v) =
        app.post(&format!("/orders/{id}/shipping-address/change"), &t, json!({"shipping_address": address()})).await;
    assert_eq!(
        (s, v["problems"].clone(), v["shipping_address_changed"].as_bool()),
        (StatusCode::OK, json!([]), Some(true)),
        "{v}"
    );
    let (s, v) = app.post(&format!("/orders/{id}/ready-to-fulfillment"), &t, json!({})).await;
    assert_eq!((s, v["state"].as_str()), (StatusCode::OK, Some("ready_to_fulfillment")), "{v}");
    assert_eq!(v["allowed_actions"], json!(["ship", "cancel", "fail", "change_address"]));
    // A prepared order's address can still be corrected; a cleared one stops it again.
    let (s, v) = app.post(&format!("/orders/{id}/shipping-address/clear"), &t, json!({})).await;
    assert_eq!((s, v["problems"].clone()), (StatusCode::OK, json!(["address_incomplete"])));
    let actions: Vec<String> =
        v["events"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap().to_string()).collect();
    assert_eq!(actions, ["created", "address_changed", "ready_to_fulfillment", "address_cleared"]);
}

async fn short_orders_are_kept_and_filled_oldest_first(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, blue) = two_skus(app, &t, "TS3", w).await;
    stock_up(app, &t, w, blue, 1).await;
    // Three orders of 2 red with no red on hand: saved short, holding nothing at all (not
    // even the blue of the first, which is there).
    let mut ids = Vec::new();
    for i in 0..3 {
        let items = if i == 0 {
            json!([{"sku_id": red, "quantity": 2}, {"sku_id": blue, "quantity": 1}])
        } else {
            json!([{"sku_id": red, "quantity": 2}])
        };
        let o = create(app, &t, order(w, items)).await;
        assert_eq!((o["problem"].as_str(), o["stock_state"].as_str()), (Some("stock_not_enough"), Some("short")));
        ids.push(o["id"].as_i64().unwrap());
    }
    assert_eq!(level(app, &t, w, blue).await, (1, 0));
    let (s, v) = app.post(&format!("/orders/{}/ready-to-fulfillment", ids[0]), &t, json!({})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("insufficient_stock")));
    let (_, l) = app.get("/orders?problem=stock_not_enough", &t).await;
    assert_eq!(l["total"], 3);
    // Four red arrive: the two oldest take them, the third waits.
    stock_up(app, &t, w, red, 4).await;
    let mut states = Vec::new();
    for _ in 0..100 {
        states.clear();
        for id in &ids {
            let (_, o) = app.get(&format!("/orders/{id}"), &t).await;
            states.push(o["stock_state"].as_str().unwrap().to_string());
        }
        // The filler may be trying the third at that moment (pending): wait until it settles.
        if states[..2] == ["held", "held"] && states[2] != "pending" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(states, ["held", "held", "short"]);
    assert_eq!(level(app, &t, w, red).await, (4, 4));
    assert_eq!(level(app, &t, w, blue).await, (1, 1));
    let (_, o) = app.get(&format!("/orders/{}", ids[0]), &t).await;
    assert!(o["events"].as_array().unwrap().iter().any(|e| e["action"] == "stock_filled"), "{o}");
    // Cancelling the first gives its units back, and the third takes them.
    let (s, v) = app.post(&format!("/orders/{}/cancel", ids[0]), &t, json!({"reason": "ลูกค้าเปลี่ยนใจ"})).await;
    assert_eq!(
        (s, v["state"].as_str(), v["stock_state"].as_str()),
        (StatusCode::OK, Some("cancelled"), Some("released")),
        "{v}"
    );
    let mut third = String::new();
    for _ in 0..100 {
        let (_, o) = app.get(&format!("/orders/{}", ids[2]), &t).await;
        third = o["stock_state"].as_str().unwrap().to_string();
        if third == "held" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(third, "held");
    // handle-out-of-stock fills a warehouse on demand; nothing short answers empty.
    let (s, v) = app.post("/orders/handle-out-of-stock", &t, json!({"warehouse_id": w})).await;
    assert_eq!((s, v), (StatusCode::OK, json!({"filled": [], "short": []})));
    let o = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    assert_eq!(o["stock_state"], "short");
    stock_up(app, &t, w, red, 1).await;
    let (_, v) = app.post("/orders/handle-out-of-stock", &t, json!({"warehouse_id": w})).await;
    let (_, o) = app.get(&format!("/orders/{}", o["id"]), &t).await;
    assert_eq!(o["stock_state"], "held", "filled by the call or by the stock event first: {v}");
    let (s, v) = app.post("/orders/handle-out-of-stock", &t, json!({})).await;
    assert_eq!(
        (s, codes(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, vec![("warehouse_id".to_string(), "validation.required".to_string())])
    );
}

async fn edits_move_the_hold_by_the_difference(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, blue) = two_skus(app, &t, "TS4", w).await;
    stock_up(app, &t, w, red, 5).await;
    stock_up(app, &t, w, blue, 2).await;
    let o = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 2}]))).await;
    let id = o["id"].as_i64().unwrap();
    let version = o["version"].as_i64().unwrap();
    // 2 → 4 red, and a blue: only the difference is taken.
    let mut edit = order(w, json!([{"sku_id": red, "quantity": 4}, {"sku_id": blue, "quantity": 1}]));
    edit["version"] = json!(version);
    let (s, v) = app.patch(&format!("/orders/{id}"), &t, edit.clone()).await;
    assert_eq!(
        (s, v["stock_state"].as_str(), v["subtotal"].as_str()),
        (StatusCode::OK, Some("held"), Some("1146.50")),
        "{v}"
    );
    assert_eq!(level(app, &t, w, red).await, (5, 4));
    assert_eq!(level(app, &t, w, blue).await, (2, 1));
    let edited = v["events"].as_array().unwrap().iter().find(|e| e["action"] == "edited").unwrap()["detail"].clone();
    assert_eq!(edited, "+TS4-B ×1, TS4-R 2→4");
    // The old version is refused: another change came first.
    let (s, v) = app.patch(&format!("/orders/{id}"), &t, edit).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("order_changed")));
    // More red than there is: refused, the short line named, nothing changes.
    let (_, now) = app.get(&format!("/orders/{id}"), &t).await;
    let mut greedy = order(w, json!([{"sku_id": blue, "quantity": 1}, {"sku_id": red, "quantity": 6}]));
    greedy["version"] = now["version"].clone();
    let (s, v) = app.patch(&format!("/orders/{id}"), &t, greedy).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("insufficient_stock")), "{v}");
    assert_eq!(codes(&v), [("items[1].quantity".to_string(), "stock.insufficient".to_string())]);
    let (_, after) = app.get(&format!("/orders/{id}"), &t).await;
    assert_eq!((after["subtotal"].clone(), after["stock_state"].clone()), (now["subtotal"].clone(), json!("held")));
    assert_eq!(level(app, &t, w, red).await, (5, 4));
    // Dropping the blue gives it back.
    let mut fewer = order(w, json!([{"sku_id": red, "quantity": 1}]));
    fewer["version"] = after["version"].clone();
    let (s, _) = app.patch(&format!("/orders/{id}"), &t, fewer).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(level(app, &t, w, red).await, (5, 1));
    assert_eq!(level(app, &t, w, blue).await, (2, 0));
    // A prepared order is no longer edited.
    app.post(&format!("/orders/{id}/ready-to-fulfillment"), &t, json!({})).await;
    let (s, v) = app.patch(&format!("/orders/{id}"), &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("order_not_editable")));
}

async fn the_state_table_through_the_api(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "TS5", w).await;
    stock_up(app, &t, w, red, 10).await;
    let id = |o: &Value| o["id"].as_i64().unwrap();
    let a = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    // Refusals name their reason.
    for (action, reason) in [("close", "not_shipped"), ("void", "not_shipped"), ("fail", "not_ready_to_fulfillment")] {
        let (s, v) =
            app.post(&format!("/orders/{}/{action}", id(&a)), &t, json!({"cause": "fulfillment_failed"})).await;
        assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some(reason)), "{action}");
    }
    let (s, _) = app.post(&format!("/orders/{}/explode", id(&a)), &t, json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, v) = app.post(&format!("/orders/{}/ready-to-fulfillment", id(&a)), &t, json!({})).await;
    assert_eq!((s, v["state"].as_str()), (StatusCode::OK, Some("ready_to_fulfillment")));
    assert!(v["ready_to_fulfillment_at"].is_string());
    let (s, v) = app.post(&format!("/orders/{}/ready-to-fulfillment", id(&a)), &t, json!({})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("already_ready_to_fulfillment")));
    // Fail needs a cause of SPEC §4; its stock comes back.
    let (s, v) = app.post(&format!("/orders/{}/fail", id(&a)), &t, json!({"cause": "lost"})).await;
    assert_eq!(
        (s, codes(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, vec![("cause".to_string(), "validation.failure_cause".to_string())])
    );
    let (s, v) = app
        .post(&format!("/orders/{}/fail", id(&a)), &t, json!({"cause": "cancelled_by_warehouse", "reason": "ของเสีย"}))
        .await;
    assert_eq!(
        (s, v["state"].as_str(), v["failure_cause"].as_str()),
        (StatusCode::OK, Some("failed"), Some("cancelled_by_warehouse")),
        "{v}"
    );
    assert_eq!(level(app, &t, w, red).await, (10, 0));
    let (s, v) = app.post(&format!("/orders/{}/cancel", id(&a)), &t, json!({})).await;
    assert_eq!((s, v["state"].as_str()), (StatusCode::OK, Some("cancelled")));
    assert_eq!(v["allowed_actions"], json!([]));
    let (s, v) = app.post(&format!("/orders/{}/cancel", id(&a)), &t, json!({})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("already_cancelled")));
    let (s, _) = app.post("/orders/999999/cancel", &t, json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (_, c) = app.get("/orders/count", &t).await;
    assert_eq!((c["cancelled"].as_i64(), c["failed"].as_i64(), c["all"].as_i64()), (Some(1), Some(0), Some(1)), "{c}");
}

async fn parcels_labels_and_shipping(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, blue) = two_skus(app, &t, "TS6", w).await;
    stock_up(app, &t, w, red, 10).await;
    stock_up(app, &t, w, blue, 10).await;
    let channel = post_channel(app, &t, w, true).await;
    // The store's postal range gives tracking numbers.
    let (s, v) = app
        .post(
            "/logistics/tracking-numbers/ranges",
            &t,
            json!({"provider_name": "thaipost", "prefix": "EY", "first": "12345678", "last": "12345687"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let mut body = order(w, json!([{"sku_id": red, "quantity": 2}, {"sku_id": blue, "quantity": 1}]));
    body["logistic_store_channel_id"] = json!(channel);
    body["cod"] = json!(true);
    let o = create(app, &t, body).await;
    let id = o["id"].as_i64().unwrap();
    assert_eq!((o["cod"].as_bool(), o["shipping_charge"].as_str()), (Some(true), Some("38.00")));
    // A parcel needs a prepared order.
    let parcel =
        json!({"order_id": id, "weight": "0.8", "width": 20, "length": 30, "height": 11, "packaging_code": "box_c"});
    let (s, v) = app.post("/wms/parcels/in-store", &t, parcel.clone()).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("order_not_ready")));
    let (s, _) = app.post(&format!("/orders/{id}/ready-to-fulfillment"), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = app.post("/wms/parcels/in-store", &t, parcel.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let p = &v["parcels"][0];
    // 0.8 kg but 20×30×11 cm is 1.32 kg chargeable: 65.50; COD 3% of the total; box C 13.00.
    assert_eq!(p["shipping_fee"], "65.50");
    assert_eq!(p["packing_fee"], "13.00");
    assert_eq!(p["cod_amount"], o["total"]);
    let total = bo_kit::money::Satang::parse_baht(o["total"].as_str().unwrap()).unwrap();
    assert_eq!(p["cod_fee"], bo_kit::money::Satang(total.share_bp(300).0).to_string());
    assert_eq!(p["tracking_no"], "EY123456785TH", "from the store's range");
    assert_eq!(p["state"], "pending");
    // A second parcel carries no cash; an invalid one is refused.
    let (s, v) =
        app.post("/wms/parcels/in-store", &t, json!({"order_id": id, "weight": "0", "packaging_code": "crate"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let (s, v) = app
        .post("/wms/parcels/in-store", &t, json!({"order_id": id, "weight": "0.3", "tracking_no": "EY123456799TH"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let second = v["parcels"][1].clone();
    assert_eq!((second["cod_amount"].as_str(), second["tracking_no"].as_str()), (Some("0.00"), Some("EY123456799TH")));
    // Change, then remove the second.
    let pid = second["id"].as_i64().unwrap();
    let (s, v) =
        app.call(Method::PUT, &format!("/wms/parcels/{pid}/in-store"), Some(&t), Some(json!({"weight": "1.5"}))).await;
    assert_eq!(
        (s, v["parcels"][1]["weight"].as_str(), v["parcels"][1]["shipping_fee"].as_str()),
        (StatusCode::OK, Some("1.500"), Some("65.50")),
        "{v}"
    );
    let (s, v) = app.delete(&format!("/wms/parcels/{pid}"), &t).await;
    assert_eq!((s, v["parcels"].as_array().map(|p| p.len())), (StatusCode::OK, Some(1)));
    // The label: a PDF in Thai with the tracking number and the cash to collect.
    let first = v["parcels"][0]["id"].as_i64().unwrap();
    for size in ["a6", "100x150"] {
        let res = app
            .client
            .post(format!("{}/wms/parcels/{first}/print-label?size={size}", app.base))
            .bearer_auth(&t)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["content-type"], "application/pdf");
        let bytes = res.bytes().await.unwrap();
        if let Some(text) = bo_pdf::testing::pdftotext(&bytes) {
            for want in ["EY123456785TH", "สมหญิง รักดี", "50200", "เก็บเงินปลายทาง", o["order_no"].as_str().unwrap()]
            {
                assert!(text.contains(want), "{want} missing:\n{text}");
            }
        }
    }
    let res = app
        .client
        .post(format!("{}/wms/parcels/{first}/print-label?size=a4", app.base))
        .bearer_auth(&t)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // Many orders' labels at once, and their pick list.
    let res = app
        .client
        .post(format!("{}/wms/parcels/print-labels", app.base))
        .bearer_auth(&t)
        .header("idempotency-key", "labels-once")
        .json(&json!({"order_ids": [id]}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/pdf");
    assert!(res.bytes().await.unwrap().starts_with(b"%PDF"), "the file itself, streamed");
    // A file is not kept to replay: the repeat is refused, and nothing is done again.
    let again = app
        .client
        .post(format!("{}/wms/parcels/print-labels", app.base))
        .bearer_auth(&t)
        .header("idempotency-key", "labels-once")
        .json(&json!({"order_ids": [id]}))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::CONFLICT);
    let v: Value = again.json().await.unwrap();
    assert_eq!(v["error"]["code"], "idempotency_file_answer");
    let res = app
        .client
        .post(format!("{}/orders/pick-list", app.base))
        .bearer_auth(&t)
        .json(&json!({"order_ids": [id]}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    if let Some(text) = bo_pdf::testing::pdftotext(&res.bytes().await.unwrap()) {
        assert!(text.contains("ใบหยิบสินค้า") && text.contains("TS6-R") && text.contains("TS6-B"), "{text}");
    }
    // Ship: the stock leaves the shelf and the order is shipped with its tracking number.
    let (s, v) = app.post("/wms/parcels/ship/in-store", &t, json!({"order_ids": [id]})).await;
    assert_eq!((s, v["succeeded"].as_i64()), (StatusCode::OK, Some(1)), "{v}");
    let (_, d) = app.get(&format!("/orders/{id}"), &t).await;
    assert_eq!(
        (d["state"].as_str(), d["tracking_no"].as_str(), d["stock_state"].as_str()),
        (Some("shipped"), Some("EY123456785TH"), Some("committed"))
    );
    assert!(d["shipped_at"].is_string());
    assert_eq!(d["parcels"][0]["state"], "shipped");
    assert!(d["parcels"][0]["printed_at"].is_string());
    assert_eq!(level(app, &t, w, red).await, (8, 0));
    assert_eq!(level(app, &t, w, blue).await, (9, 0));
    let actions: Vec<&str> = d["events"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    for a in ["parcel_added", "parcel_changed", "parcel_removed", "labels_printed", "shipped"] {
        assert!(actions.contains(&a), "{a} in {actions:?}");
    }
    // Shipping again changes nothing; a shipped parcel stays; close, then void.
    let (_, v) = app.post("/wms/parcels/ship/in-store", &t, json!({"order_ids": [id]})).await;
    assert_eq!(v["data"][0]["reason"], "already_shipped");
    let (s, v) = app.delete(&format!("/wms/parcels/{first}"), &t).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("parcel_shipped")));
    let (s, v) = app.post(&format!("/orders/{id}/close"), &t, json!({})).await;
    assert_eq!((s, v["state"].as_str()), (StatusCode::OK, Some("closed")));
    assert_eq!(v["allowed_actions"], json!(["void"]));
    let (s, v) = app.post(&format!("/orders/{id}/void"), &t, json!({"reason": "ตีกลับ"})).await;
    assert_eq!(
        (s, v["state"].as_str(), v["stock_state"].as_str()),
        (StatusCode::OK, Some("cancelled"), Some("committed")),
        "{v}"
    );
    assert!(v["voided_at"].is_string());
    assert_eq!(level(app, &t, w, red).await, (8, 0), "a void leaves the shipped goods shipped");
    // An order without a parcel or without a tracking number does not ship.
    let b = create(app, &t, {
        let mut b = order(w, json!([{"sku_id": red, "quantity": 1}]));
        b["logistic_store_channel_id"] = json!(channel);
        b
    })
    .await;
    let bid = b["id"].as_i64().unwrap();
    app.post(&format!("/orders/{bid}/ready-to-fulfillment"), &t, json!({})).await;
    let (_, v) = app.post("/wms/parcels/ship/in-store", &t, json!({"order_ids": [bid]})).await;
    assert_eq!((v["failed"].as_i64(), v["data"][0]["reason"].as_str()), (Some(1), Some("parcel_required")), "{v}");
    let (_, d) = app.get(&format!("/orders/{bid}"), &t).await;
    assert_eq!((d["state"].as_str(), d["stock_state"].as_str()), (Some("ready_to_fulfillment"), Some("held")));
    // Packagings are listed for the parcel form.
    let (_, p) = app.get("/wms/packagings", &t).await;
    assert_eq!(p["data"].as_array().unwrap().len(), 10);
}

async fn bulk_actions_each_on_its_own(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "TS7", w).await;
    stock_up(app, &t, w, red, 2).await;
    let a = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let b = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let c = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    assert_eq!(c["problem"], "stock_not_enough");
    let ids: Vec<i64> = [&a, &b, &c].iter().map(|o| o["id"].as_i64().unwrap()).collect();
    let (s, v) = app.post("/orders/ready-to-fulfillment", &t, json!({"ids": ids})).await;
    assert_eq!((s, v["succeeded"].as_i64(), v["failed"].as_i64()), (StatusCode::OK, Some(2), Some(1)), "{v}");
    assert_eq!(
        v["data"][2],
        json!({"id": ids[2], "order_no": c["order_no"], "ok": false, "reason": "insufficient_stock", "state": "new"})
    );
    let (_, v) = app.post("/orders/ready-to-fulfillment", &t, json!({"ids": [ids[0]]})).await;
    assert_eq!(v["data"][0]["reason"], "already_ready_to_fulfillment");
    let (_, v) = app.post("/orders/cancel", &t, json!({"ids": [ids[0], ids[2], 999_999]})).await;
    assert_eq!(v["succeeded"], 2, "{v}");
    assert_eq!(v["data"][2]["reason"], "order_not_found");
    let (_, v) = app.post("/orders/cancel", &t, json!({"ids": [ids[0]]})).await;
    assert_eq!(v["data"][0]["reason"], "already_cancelled");
    let (_, v) = app.post("/orders/close", &t, json!({"ids": [ids[1]]})).await;
    assert_eq!(v["data"][0]["reason"], "not_shipped");
    let (_, v) = app.post("/orders/void", &t, json!({"ids": [ids[1]]})).await;
    assert_eq!(v["data"][0]["reason"], "not_shipped");
    // Over the selection limit.
    let many: Vec<i64> = (1..=501).collect();
    let (s, v) = app.post("/orders/cancel", &t, json!({"ids": many})).await;
    assert_eq!(
        (s, codes(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, vec![("ids".to_string(), "order.too_many_selected".to_string())])
    );
    let (_, l) = app.get("/orders/limits", &t).await;
    assert_eq!((l["max_selection"].as_i64(), l["bill_limit"].as_str()), (Some(500), Some("50000.00")));
    // A COD order whose channel no longer collects cash cannot be prepared.
    let channel = post_channel(app, &t, w, true).await;
    stock_up(app, &t, w, red, 1).await;
    let mut body = order(w, json!([{"sku_id": red, "quantity": 1}]));
    body["logistic_store_channel_id"] = json!(channel);
    body["cod"] = json!(true);
    let d = create(app, &t, body).await;
    let (s, _) = app.patch(&format!("/logistics/store-channels/{channel}"), &t, json!({"status": "inactive"})).await;
    assert_eq!(s, StatusCode::OK);
    let (_, v) = app.post("/orders/ready-to-fulfillment", &t, json!({"ids": [d["id"]]})).await;
    assert_eq!(v["data"][0]["reason"], "incorrect_cod_account", "{v}");
}

async fn fifty_buyers_for_ten_units(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "TS8", w).await;
    stock_up(app, &t, w, red, 10).await;
    let mut tasks = Vec::new();
    for i in 0..50 {
        let client = app.client.clone();
        let url = format!("{}/orders", app.base);
        let t = t.clone();
        let mut body = order(w, json!([{"sku_id": red, "quantity": 1}]));
        body["reference"] = json!(format!("FB-{i}"));
        tasks.push(tokio::spawn(async move {
            let r = client.post(url).bearer_auth(t).json(&body).send().await.unwrap();
            assert_eq!(r.status(), StatusCode::CREATED);
            r.json::<Value>().await.unwrap()
        }));
    }
    let mut held = 0;
    let mut short = 0;
    let mut numbers = Vec::new();
    for task in tasks {
        let o = task.await.unwrap();
        match o["stock_state"].as_str() {
            Some("held") => held += 1,
            Some("short") => short += 1,
            other => panic!("{other:?}"),
        }
        numbers.push(o["order_no"].as_str().unwrap().to_string());
    }
    assert_eq!((held, short), (10, 40));
    assert_eq!(level(app, &t, w, red).await, (10, 10));
    numbers.sort();
    numbers.dedup();
    assert_eq!(numbers.len(), 50, "every order has its own number");
    let (_, l) = app.get("/orders?problem=stock_not_enough&limit=-1", &t).await;
    assert_eq!(l["total"], 40);
}

async fn an_idempotent_create_makes_one_order(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "TS9", w).await;
    stock_up(app, &t, w, red, 3).await;
    let body = order(w, json!([{"sku_id": red, "quantity": 1}]));
    let send = || {
        app.client
            .post(format!("{}/orders", app.base))
            .bearer_auth(&t)
            .header("Idempotency-Key", "order-7f3a")
            .json(&body)
            .send()
    };
    let first: Value = send().await.unwrap().json().await.unwrap();
    let again = send().await.unwrap();
    assert_eq!(again.status(), StatusCode::CREATED);
    let again: Value = again.json().await.unwrap();
    assert_eq!(first["id"], again["id"]);
    let (_, l) = app.get("/orders", &t).await;
    assert_eq!(l["total"], 1);
    assert_eq!(level(app, &t, w, red).await, (3, 1));
}

async fn permissions_and_isolation(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "TS10", w).await;
    stock_up(app, &t, w, red, 5).await;
    let o = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let id = o["id"].as_i64().unwrap();
    let reader = app.member_with(app.demo_store, "reader@example.com", &["order.order.read"]).await;
    let maker = app.member_with(app.demo_store, "maker@example.com", &["order.order.create"]).await;
    let canceller =
        app.member_with(app.demo_store, "canceller@example.com", &["order.order.cancel", "order.order.read"]).await;
    let all = app.member_with(app.demo_store, "all@example.com", &["order.order.all"]).await;
    // A reader reads, without costs; every write is refused.
    let (s, v) = app.get(&format!("/orders/{id}"), &reader).await;
    assert_eq!((s, v["profit"].clone(), v["items"][0]["cost"].clone()), (StatusCode::OK, Value::Null, Value::Null));
    let (_, v) = app.get("/orders/net", &reader).await;
    assert_eq!(v["profit"], Value::Null);
    let writes: Vec<(Method, String, Value)> = vec![
        (Method::POST, "/orders".into(), order(w, json!([{"sku_id": red, "quantity": 1}]))),
        (Method::PATCH, format!("/orders/{id}"), order(w, json!([{"sku_id": red, "quantity": 1}]))),
        (Method::POST, format!("/orders/{id}/ready-to-fulfillment"), json!({})),
        (Method::POST, format!("/orders/{id}/cancel"), json!({})),
        (Method::POST, format!("/orders/{id}/shipping-address/clear"), json!({})),
        (Method::POST, format!("/orders/{id}/shipping-address/change"), json!({"shipping_address": address()})),
        (Method::POST, "/orders/ready-to-fulfillment".into(), json!({"ids": [id]})),
        (Method::POST, "/orders/cancel".into(), json!({"ids": [id]})),
        (Method::POST, "/orders/handle-out-of-stock".into(), json!({"warehouse_id": w})),
        (Method::POST, "/wms/parcels/in-store".into(), json!({"order_id": id, "weight": "1"})),
        (Method::POST, "/wms/parcels/ship/in-store".into(), json!({"order_ids": [id]})),
    ];
    for (m, path, body) in &writes {
        let (s, _) = app.call(m.clone(), path, Some(&reader), Some(body.clone())).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{m} {path}");
    }
    // A maker makes but does not edit or cancel; a canceller cancels but does not prepare.
    let (s, _) = app.post("/orders", &maker, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    assert_eq!(s, StatusCode::CREATED);
    let (s, _) = app.get("/orders", &maker).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app.post(&format!("/orders/{id}/ready-to-fulfillment"), &canceller, json!({})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app.post(&format!("/orders/{id}/cancel"), &canceller, json!({})).await;
    assert_eq!(s, StatusCode::OK);
    // order.order.all does everything.
    let (s, _) = app.post("/orders", &all, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    assert_eq!(s, StatusCode::CREATED);
    // Another store sees none of it and cannot use this store's warehouse or SKUs.
    let (_, other) = app.other_owner("other@example.com").await;
    let (s, _) = app.get(&format!("/orders/{id}"), &other).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (_, l) = app.get("/orders", &other).await;
    assert_eq!(l["total"], 0);
    let (s, _) = app.post(&format!("/orders/{id}/cancel"), &other, json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (_, v) = app.post("/orders/cancel", &other, json!({"ids": [id]})).await;
    assert_eq!(v["data"][0]["reason"], "order_not_found");
    let (s, v) = app.post("/orders", &other, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let c = codes(&v);
    assert!(c.contains(&("warehouse_id".to_string(), "validation.warehouse_unknown".to_string())), "{v}");
    assert!(c.contains(&("items[0].sku_id".to_string(), "order.sku_unknown".to_string())), "{v}");
}

on_every_stack!(
    an_order_from_the_address_book_with_its_money,
    validation_and_the_bill_limit,
    short_orders_are_kept_and_filled_oldest_first,
    edits_move_the_hold_by_the_difference,
    the_state_table_through_the_api,
    parcels_labels_and_shipping,
    bulk_actions_each_on_its_own,
    fifty_buyers_for_ten_units,
    an_idempotent_create_makes_one_order,
    permissions_and_isolation,
);
