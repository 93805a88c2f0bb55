//! The owner's dashboards through the API (SPEC §2 Dashboards, §7 `order-reports/
//! order-summaries`, `sold-item-summaries` and `customer-summaries`): a seeded store's orders
//! in several channels and states, one edited and one cancelled, and a customer's first and
//! second orders beside a guest's, summed by the reports service from orders' events and
//! checked against figures worked out by hand; periods and the period before; who may; one
//! store's figures kept from another's; bad input refused with its field.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;
use crate::orders::{create, main_warehouse, order, stock_up, two_skus};

fn today() -> String {
    let now = ::time::OffsetDateTime::now_utc().to_offset(::time::macros::offset!(+7));
    format!("{:04}-{:02}-{:02}", now.year(), u8::from(now.month()), now.day())
}

/// The summary once `done` holds of it (the figures follow the events within seconds).
async fn summary_when(app: &TestApp, t: &str, query: &str, done: impl Fn(&Value) -> bool) -> Value {
    let mut last = Value::Null;
    for _ in 0..200 {
        let (s, v) = app.get(&format!("/order-reports/order-summaries{query}"), t).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        if done(&v) {
            return v;
        }
        last = v;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the summary never came to what was expected: {last}");
}

async fn a_months_sales_add_up_to_the_orders_by_hand(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    // Red 199.00 (cost 120), blue 350.50 (cost 200).
    let (red, blue) = two_skus(app, &t, "DB1", w).await;
    stock_up(app, &t, w, red, 20).await;
    stock_up(app, &t, w, blue, 20).await;
    // Nothing sold yet: every figure is zero, and every day of the month is a point.
    let (s, empty) = app.get("/order-reports/order-summaries", &t).await;
    assert_eq!(s, StatusCode::OK, "{empty}");
    assert_eq!((empty["period"].as_str(), empty["current"]["orders"].as_i64()), (Some("monthly"), Some(0)));
    assert_eq!(empty["current"]["net"], "0.00");
    assert!(empty["series"].as_array().unwrap().len() >= 28);

    // A: facebook, 2 red + 1 blue = 748.50. B: line, 1 red, then edited to 3 red = 597.00.
    // C: facebook, 1 red, cancelled the same day.
    // A goes to Bang Rak, Bangkok; B and C to Chiang Mai.
    let mut a = order(w, json!([{"sku_id": red, "quantity": 2}, {"sku_id": blue, "quantity": 1}]));
    a["shipping_address"]["sub_district"] = json!("สีลม");
    a["shipping_address"]["district"] = json!("บางรัก");
    a["shipping_address"]["state_province"] = json!("กรุงเทพมหานคร");
    a["shipping_address"]["postcode"] = json!("10500");
    let a = create(app, &t, a).await;
    let mut b = order(w, json!([{"sku_id": red, "quantity": 1}]));
    b["channel"] = json!("line");
    let b = create(app, &t, b).await;
    let c = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let mut edit = order(w, json!([{"sku_id": red, "quantity": 3}]));
    edit["channel"] = json!("line");
    let (s, edited) = app.patch(&format!("/orders/{}", b["id"]), &t, edit).await;
    assert_eq!(s, StatusCode::OK, "{edited}");
    let (s, v) = app.post(&format!("/orders/{}/cancel", c["id"]), &t, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");

    let day = today();
    let v = summary_when(app, &t, &format!("?period=monthly&date={day}"), |v| {
        v["current"]["orders"] == 3 && v["current"]["cancelled"] == 1 && v["current"]["net"] == "1345.50"
    })
    .await;
    let cur = &v["current"];
    assert_eq!(cur["units"], 6, "{v}");
    assert_eq!(cur["cost"], "800.00", "A 440.00 and B 360.00; C's cost came back");
    assert_eq!(cur["average"], "448.50", "1,345.50 over 3 orders placed");
    let money = |x: &Value| x.as_str().unwrap().parse::<f64>().unwrap();
    assert!((money(&cur["profit"]) - (money(&cur["net_ex_vat"]) - 800.0)).abs() < 0.001, "{cur}");
    assert_eq!(v["previous"]["orders"], 0);
    assert!(v["date_from"].as_str().unwrap().ends_with("-01"));
    assert_eq!(&v["date_from"].as_str().unwrap()[..7], &day[..7]);

    let channels: Vec<(String, i64, i64, String)> = v["channels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let f = &c["totals"];
            (
                c["channel"].as_str().unwrap().to_string(),
                f["orders"].as_i64().unwrap(),
                f["cancelled"].as_i64().unwrap(),
                f["net"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        channels,
        vec![("facebook".to_string(), 2, 1, "748.50".to_string()), ("line".to_string(), 1, 0, "597.00".to_string())]
    );
    // Today's point holds it all, and the points add up to the period.
    let points = v["series"].as_array().unwrap();
    let today_point = points.iter().find(|p| p["start"] == day.as_str()).unwrap();
    assert_eq!(today_point["totals"]["net"], "1345.50");
    assert_eq!(points.iter().map(|p| p["totals"]["orders"].as_i64().unwrap()).sum::<i64>(), 3);

    let products: Vec<(i64, i64, String)> = v["products"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["sku_id"].as_i64().unwrap(),
                p["total_qty"].as_i64().unwrap(),
                p["total_net"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(products, vec![(red, 5, "995.00".to_string()), (blue, 1, "350.50".to_string())]);
    assert_eq!(v["products"][0]["product_name"], "เสื้อยืดคอกลม");
    assert_eq!(v["products"][0]["sku_code"], "DB1-R");
    let states: Vec<(String, i64)> = v["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["state"].as_str().unwrap().to_string(), s["orders"].as_i64().unwrap()))
        .collect();
    assert_eq!(states, vec![("cancelled".to_string(), 1), ("new".to_string(), 2)]);
    assert!(!v["updated_at"].as_str().unwrap().is_empty());
    let (s, u) = app.get("/order-reports/order-summaries/lastest-updated", &t).await;
    assert_eq!((s, &u["updated_at"]), (StatusCode::OK, &v["updated_at"]));

    // The sales-channel dashboard: each channel beside the period before, and over time.
    let (s, ch) = app.get(&format!("/order-reports/order-summaries/table-lists/channels?date={day}"), &t).await;
    assert_eq!(s, StatusCode::OK, "{ch}");
    let rows: Vec<(&str, i64, &str, i64)> = ch["channels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["channel"].as_str().unwrap(),
                c["current"]["orders"].as_i64().unwrap(),
                c["current"]["net"].as_str().unwrap(),
                c["previous"]["orders"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(rows, vec![("facebook", 2, "748.50", 0), ("line", 1, "597.00", 0)]);
    assert_eq!((ch["current"]["net"].as_str(), ch["period"].as_str()), (Some("1345.50"), Some("monthly")));
    let (s, by) = app.get(&format!("/order-reports/order-summaries/charts/channels?date={day}"), &t).await;
    assert_eq!(s, StatusCode::OK, "{by}");
    assert_eq!(by["channels"], json!(["facebook", "line"]));
    let point = by["points"].as_array().unwrap().iter().find(|p| p["start"] == day.as_str()).unwrap();
    assert_eq!(point["current"][0]["channel"], "facebook");
    assert_eq!(point["current"][0]["totals"]["net"], "748.50");
    assert_eq!(point["current"][1]["totals"]["net"], "597.00");
    assert_eq!(point["previous"][1]["totals"]["net"], "0.00");
    // The statistics dashboard: the total over time, the month before beside it.
    let (s, sales) = app.get(&format!("/order-reports/order-summaries/charts/sales?date={day}"), &t).await;
    assert_eq!(s, StatusCode::OK, "{sales}");
    assert_eq!(sales["channels"], json!([""]));
    assert_eq!(sales["points"].as_array().unwrap().len(), points.len());
    assert_eq!(sales["points"][0]["previous_start"], v["previous_from"]);
    let point = sales["points"].as_array().unwrap().iter().find(|p| p["start"] == day.as_str()).unwrap();
    assert_eq!(
        (point["current"][0]["totals"]["orders"].as_i64(), point["current"][0]["totals"]["net"].as_str()),
        (Some(3), Some("1345.50"))
    );

    // The sold-products dashboard: the period's SKUs in total, then a page of them.
    let (s, sold) = app.get(&format!("/order-reports/sold-item-summaries?date={day}"), &t).await;
    assert_eq!(s, StatusCode::OK, "{sold}");
    assert_eq!(sold["current"], json!({"skus": 2, "total_qty": 6, "total_net": "1345.50", "profit": cur["profit"]}));
    assert_eq!(sold["previous"]["skus"], 0);
    let (s, u) = app.get("/order-reports/sold-item-summaries/lastest-updated", &t).await;
    assert_eq!((s, &u["updated_at"]), (StatusCode::OK, &v["updated_at"]));
    let skus = |v: &Value| -> Vec<(i64, i64, String)> {
        v["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["sku_id"].as_i64().unwrap(),
                    p["total_qty"].as_i64().unwrap(),
                    p["total_net"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let tok = t.as_str();
    let table = |q: String| async move {
        let (s, v) = app
            .get(&format!("/order-reports/sold-item-summaries/table-lists/skus?date={day}{q}", day = today()), tok)
            .await;
        assert_eq!(s, StatusCode::OK, "{q}: {v}");
        v
    };
    let all = table(String::new()).await;
    assert_eq!(skus(&all), vec![(red, 5, "995.00".to_string()), (blue, 1, "350.50".to_string())]);
    assert_eq!(
        (all["total"].as_i64(), all["page"].as_i64(), all["data"][0]["cost"].as_str()),
        (Some(2), Some(1), Some("600.00"))
    );
    assert_eq!(
        (all["data"][0]["previous_qty"].as_i64(), all["data"][0]["sku_code"].as_str()),
        (Some(0), Some("DB1-R"))
    );
    let second = table("&sort=quantity&limit=1&page=2".into()).await;
    assert_eq!((skus(&second), second["pages"].as_i64()), (vec![(blue, 1, "350.50".to_string())], Some(2)));
    let found = table("&search=db1-b".into()).await;
    assert_eq!((skus(&found), found["total"].as_i64()), (vec![(blue, 1, "350.50".to_string())], Some(1)));
    let none = table("&search=100%25".into()).await;
    assert_eq!(none["total"], 0, "a % is a character, not a wildcard");
    let by_profit = table("&sort=profit".into()).await;
    assert_eq!(by_profit["data"][0]["sku_id"], red);

    // The customer-area dashboard: where the orders went, by province, district and country.
    let areas = |v: &Value| -> Vec<(String, String, i64, i64, String)> {
        v["areas"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                (
                    a["name"].as_str().unwrap().to_string(),
                    a["parent"].as_str().unwrap().to_string(),
                    a["orders"].as_i64().unwrap(),
                    a["cancelled"].as_i64().unwrap(),
                    a["net"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let top = |kind: &str| {
        let path = format!("/order-reports/customer-summaries/locations/top-sales?date={}&kind={kind}", today());
        let tok = t.clone();
        async move {
            let (s, v) = app.get(&path, &tok).await;
            assert_eq!(s, StatusCode::OK, "{path}: {v}");
            v
        }
    };
    let provinces = top("province").await;
    assert_eq!(
        areas(&provinces),
        vec![
            ("กรุงเทพมหานคร".to_string(), String::new(), 1, 0, "748.50".to_string()),
            ("เชียงใหม่".to_string(), String::new(), 2, 1, "597.00".to_string())
        ]
    );
    assert_eq!(provinces["current"], json!({"areas": 2, "orders": 3, "cancelled": 1, "net": "1345.50"}));
    assert_eq!((provinces["kind"].as_str(), provinces["previous"]["areas"].as_i64()), (Some("province"), Some(0)));
    let districts = top("district").await;
    assert_eq!(
        areas(&districts).into_iter().map(|a| (a.0, a.1)).collect::<Vec<_>>(),
        vec![("บางรัก".to_string(), "กรุงเทพมหานคร".to_string()), ("เมืองเชียงใหม่".to_string(), "เชียงใหม่".to_string())]
    );
    let countries = top("country").await;
    assert_eq!(areas(&countries), vec![("TH".to_string(), String::new(), 3, 1, "1345.50".to_string())]);
    let cities = top("city").await;
    assert_eq!((cities["current"]["areas"].as_i64(), cities["areas"].as_array().map(Vec::len)), (Some(0), Some(0)));
    let (s, u) = app.get("/order-reports/customer-summaries/lastest-updated", &t).await;
    assert_eq!((s, &u["updated_at"]), (StatusCode::OK, &v["updated_at"]));

    // Daily and yearly periods hold the same day; the year is in months.
    let d = summary_when(app, &t, &format!("?period=daily&date={day}"), |v| v["current"]["orders"] == 3).await;
    assert_eq!((d["date_from"].as_str(), d["date_to"].as_str()), (Some(day.as_str()), Some(day.as_str())));
    let y = summary_when(app, &t, &format!("?period=yearly&date={day}&top=1"), |v| v["current"]["orders"] == 3).await;
    assert_eq!((y["bucket"].as_str(), y["series"].as_array().unwrap().len()), (Some("month"), 12));
    assert_eq!(y["products"].as_array().unwrap().len(), 1, "top=1");
    // The period's totals, and the year day by day (every day, today's figures on today).
    let (s, total) = app.get(&format!("/order-reports/order-summaries/total?date={day}"), &t).await;
    assert_eq!(
        (s, total["current"]["net"].as_str(), total["current"]["orders"].as_i64()),
        (StatusCode::OK, Some("1345.50"), Some(3))
    );
    let (s, daily) = app.get(&format!("/order-reports/order-summaries/daily?period=yearly&date={day}"), &t).await;
    assert_eq!(s, StatusCode::OK, "{daily}");
    let days = daily["days"].as_array().unwrap();
    assert!(days.len() >= 365, "a year's every day: {}", days.len());
    assert_eq!(days.iter().find(|d| d["start"] == day.as_str()).unwrap()["totals"]["net"], "1345.50");
    assert_eq!(days.iter().map(|d| d["totals"]["orders"].as_i64().unwrap()).sum::<i64>(), 3);
    // The sales report: today's orders by their state now, A and B open, C cancelled.
    let (s, report) = app.get(&format!("/order-reports/order-summaries/table-lists/states?date={day}"), &t).await;
    assert_eq!(s, StatusCode::OK, "{report}");
    let states = |v: &Value| -> Vec<(String, i64, String)> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (s["state"].as_str().unwrap().into(), s["orders"].as_i64().unwrap(), s["net"].as_str().unwrap().into())
            })
            .collect()
    };
    let expected =
        vec![("new".to_string(), 2, "1345.50".to_string()), ("cancelled".to_string(), 1, "199.00".to_string())];
    assert_eq!(states(&report["current"]), expected, "{report}");
    let today_row = report["rows"].as_array().unwrap().iter().find(|r| r["date"] == day.as_str()).unwrap();
    assert_eq!(states(&today_row["states"]), expected);
    assert_eq!(report["previous"], json!([]));
    // Balances: nothing paid yet, so the open orders owe what they come to; B is paid (a
    // slip, confirmed), and the report follows: B's total paid, A's still owed.
    let by_state = |v: &Value, k: &str| -> Vec<(String, String)> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| (s["state"].as_str().unwrap().into(), s[k].as_str().unwrap().into()))
            .collect()
    };
    let (a_total, b_total) = (a["total"].as_str().unwrap().to_string(), edited["total"].as_str().unwrap().to_string());
    let cents = |x: &str| (x.parse::<f64>().unwrap() * 100.0).round() as i64;
    let both = format!("{:.2}", (cents(&a_total) + cents(&b_total)) as f64 / 100.0);
    assert_eq!(by_state(&report["current"], "balance")[0], ("new".to_string(), both.clone()), "{report}");
    assert_eq!(by_state(&report["current"], "paid")[0], ("new".to_string(), "0.00".to_string()));
    let (_, bank) = crate::order_payments::accounts(app, &t).await;
    let (s, kept) = crate::order_payments::attachment(app, &t, crate::photos::png(20, 20)).await;
    assert_eq!(s, StatusCode::CREATED, "{kept}");
    let (s, paying) = app
        .post(&format!("/orders/{}/pay", b["id"]), &t, json!({"attachment": kept["name"], "store_channel_id": bank}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{paying}");
    let p = &paying["payments"][0];
    let (s, v) = app
        .post(&format!("/orders/{}/invoices/{}/payments/{}/confirm", b["id"], p["bill_id"], p["id"]), &t, json!({}))
        .await;
    assert_eq!((s, v["payment_state"].as_str()), (StatusCode::OK, Some("paid")), "{v}");
    let mut report = report.clone();
    for _ in 0..200 {
        if by_state(&report["current"], "paid")[0].1 != "0.00" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        report = app.get(&format!("/order-reports/order-summaries/table-lists/states?date={day}"), &t).await.1;
    }
    let new = &report["current"][0];
    assert_eq!(
        (new["state"].as_str(), new["orders"].as_i64(), new["net"].as_str(), new["total"].as_str()),
        (Some("new"), Some(2), Some("1345.50"), Some(both.as_str())),
        "{report}"
    );
    assert_eq!((new["paid"].as_str(), new["balance"].as_str()), (Some(b_total.as_str()), Some(a_total.as_str())));
    let (s, sold) = app.get(&format!("/order-reports/sold-item-summaries/total?date={day}"), &t).await;
    assert_eq!((s, sold["current"]["total_qty"].as_i64()), (StatusCode::OK, Some(6)), "{sold}");
    let (s, sold_days) = app.get(&format!("/order-reports/sold-item-summaries/daily?date={day}"), &t).await;
    assert_eq!(s, StatusCode::OK, "{sold_days}");
    let today_sold = sold_days["days"].as_array().unwrap().iter().find(|d| d["date"] == day.as_str()).unwrap().clone();
    assert_eq!((today_sold["total_qty"].as_i64(), today_sold["total_net"].as_str()), (Some(6), Some("1345.50")));
    let (s, units) = app.get(&format!("/order-reports/sold-item-summaries/charts/sales?date={day}"), &t).await;
    assert_eq!(s, StatusCode::OK, "{units}");
    let point = units["points"].as_array().unwrap().iter().find(|p| p["start"] == day.as_str()).unwrap();
    assert_eq!(point["current"][0]["totals"]["units"], 6, "{units}");
    // The check: the figures equal what the orders add up to; a difference put into a read
    // model is named; a rebuild from scratch leaves what the events left.
    app.check_reports().await;
    let answers = [
        format!("/order-reports/order-summaries?date={day}"),
        format!("/order-reports/order-summaries/charts/channels?date={day}"),
        format!("/order-reports/sold-item-summaries/table-lists/skus?date={day}"),
        format!("/order-reports/customer-summaries/locations/top-sales?date={day}&kind=district"),
        format!("/order-reports/customer-summaries?date={day}"),
    ];
    let read = |path: String| {
        let tok = t.clone();
        async move {
            let (s, mut v) = app.get(&path, &tok).await;
            assert_eq!(s, StatusCode::OK, "{path}: {v}");
            v.as_object_mut().unwrap().remove("updated_at");
            v
        }
    };
    let mut live = Vec::new();
    for path in &answers {
        live.push(read(path.clone()).await);
    }
    let db = bo_kit::db::Db::connect(&app.reports_db_url).await.unwrap();
    sqlx::query("UPDATE daily_sales SET net = net + 100 WHERE store_id = $1 AND channel = 'line'")
        .bind(app.demo_store)
        .execute(db.pool())
        .await
        .unwrap();
    db.close().await;
    let found = app.reports_differences().await;
    assert!(found.len() == 1 && found[0].contains("\"line\"") && found[0].contains("100 satang net"), "{found:?}");
    assert!(app.rebuild_reports().await >= 3);
    assert_eq!(app.reports_differences().await, Vec::<String>::new());
    for (path, before) in answers.iter().zip(&live) {
        assert_eq!(&read(path.clone()).await, before, "{path} after the rebuild");
    }

    // A month with nothing in it, and the month after it compared with this one.
    let last_year = format!("{}{}", day[..4].parse::<i32>().unwrap() - 1, &day[4..]);
    let (_, old) = app.get(&format!("/order-reports/order-summaries?date={last_year}"), &t).await;
    assert_eq!(old["current"]["orders"], 0, "{old}");
}

async fn customers_are_new_returning_or_guests(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "DB3", w).await;
    stock_up(app, &t, w, red, 10).await;
    let (s, c) = app
        .post(
            &format!("/stores/{}/customers", app.demo_store),
            &t,
            crate::helpers::thai_customer("สมหญิง ซื้อซ้ำ", "0861112233"),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    // The customer's first order (1 red), their second (2 red), and a guest's (1 red);
    // red sells at 199.00.
    for (customer, quantity) in [(Some(&c["id"]), 1), (Some(&c["id"]), 2), (None, 1)] {
        let mut body = order(w, json!([{"sku_id": red, "quantity": quantity}]));
        if let Some(id) = customer {
            body["customer_id"] = id.clone();
        }
        create(app, &t, body).await;
    }
    let path = format!("/order-reports/customer-summaries?period=daily&date={}", today());
    let mut v = Value::Null;
    for _ in 0..200 {
        let (s, got) = app.get(&path, &t).await;
        assert_eq!(s, StatusCode::OK, "{got}");
        v = got;
        let orders = ["new_customer", "old_customer", "guest"].map(|k| v[k]["orders"].as_i64().unwrap_or(0));
        if orders.iter().sum::<i64>() == 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let kind = |k: &str| (v[k]["orders"].as_i64(), v[k]["net"].as_str().map(str::to_string));
    assert_eq!(kind("new_customer"), (Some(1), Some("199.00".to_string())), "{v}");
    assert_eq!(kind("old_customer"), (Some(1), Some("398.00".to_string())), "{v}");
    assert_eq!(kind("guest"), (Some(1), Some("199.00".to_string())), "{v}");
    assert_eq!((v["period"].as_str(), v["bucket"].as_str()), (Some("daily"), Some("day")));
    assert_eq!(v["new_customer"]["previous_orders"], 0);
    let points = v["series"].as_array().unwrap();
    assert_eq!(points.len(), 1, "a day is one point");
    assert_eq!(
        (points[0]["date"].as_str(), points[0]["old_customer"]["orders"].as_i64()),
        (Some(today().as_str()), Some(1))
    );
    assert!(!v["updated_at"].as_str().unwrap().is_empty());
}

async fn sales_per_employee_name_who_made_the_orders(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, blue) = two_skus(app, &t, "DB4", w).await;
    stock_up(app, &t, w, red, 10).await;
    stock_up(app, &t, w, blue, 10).await;
    // The owner sells two red (398.00); a clerk sells one blue (350.50) and one red, which is
    // cancelled (its 199.00 comes back).
    create(app, &t, order(w, json!([{"sku_id": red, "quantity": 2}]))).await;
    let clerk =
        app.member_with(app.demo_store, "clerk-staff@example.com", &["order.order.*", "product.sku.read"]).await;
    create(app, &clerk, order(w, json!([{"sku_id": blue, "quantity": 1}]))).await;
    let gone = create(app, &clerk, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let (s, v) = app.post(&format!("/orders/{}/cancel", gone["id"]), &clerk, json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let path = format!("/order-reports/admin-performance-summaries?period=daily&date={}", today());
    let mut v = Value::Null;
    for _ in 0..200 {
        let (s, got) = app.get(&path, &t).await;
        assert_eq!(s, StatusCode::OK, "{got}");
        v = got;
        let cancelled: i64 = v["staff"].as_array().unwrap().iter().map(|r| r["cancelled"].as_i64().unwrap()).sum();
        if v["staff"].as_array().unwrap().len() == 2 && cancelled == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let rows: Vec<(i64, i64, String)> = v["staff"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (r["orders"].as_i64().unwrap(), r["cancelled"].as_i64().unwrap(), r["net"].as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(rows, vec![(1, 0, "398.00".to_string()), (2, 1, "350.50".to_string())], "the owner's first: {v}");
    assert!(!v["staff"][0]["name"].as_str().unwrap().is_empty(), "the owner is named: {v}");
    assert_ne!(v["staff"][0]["user_id"], v["staff"][1]["user_id"]);
    assert_eq!(v["staff"][1]["previous_orders"], 0);
    // The clerk may make orders but not see the owner's report.
    let (s, _) = app.get(&path, &clerk).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
}

async fn only_the_owner_sees_the_dashboards_and_only_their_stores(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "DB2", w).await;
    stock_up(app, &t, w, red, 5).await;
    create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    summary_when(app, &t, "", |v| v["current"]["orders"] == 1).await;

    // A member holding every permission still may not: dashboards are the owner's.
    let member = app.member_with(app.demo_store, "clerk-db@example.com", &["*"]).await;
    let (s, v) = app.get("/order-reports/order-summaries", &member).await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("forbidden")), "{v}");
    for path in [
        "/order-reports/order-summaries/lastest-updated",
        "/order-reports/order-summaries/total",
        "/order-reports/order-summaries/table-lists/states",
        "/order-reports/admin-performance-summaries",
        "/order-reports/order-summaries/daily",
        "/order-reports/sold-item-summaries/total",
        "/order-reports/sold-item-summaries/daily",
        "/order-reports/sold-item-summaries/charts/sales",
        "/order-reports/order-summaries/table-lists/channels",
        "/order-reports/order-summaries/charts/sales",
        "/order-reports/order-summaries/charts/channels",
        "/order-reports/sold-item-summaries",
        "/order-reports/sold-item-summaries/lastest-updated",
        "/order-reports/sold-item-summaries/table-lists/skus",
        "/order-reports/customer-summaries",
        "/order-reports/customer-summaries/locations/top-sales",
        "/order-reports/customer-summaries/lastest-updated",
    ] {
        let (s, _) = app.get(path, &member).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{path}");
    }
    // Another store's owner sees nothing of this store.
    let (_, other) = app.other_owner("other-db@example.com").await;
    let (s, v) = app.get("/order-reports/order-summaries", &other).await;
    assert_eq!((s, v["current"]["orders"].as_i64()), (StatusCode::OK, Some(0)), "{v}");
    assert_eq!(v["updated_at"], "");
    let (_, v) = app.get("/order-reports/sold-item-summaries/table-lists/skus", &other).await;
    assert_eq!((v["total"].as_i64(), v["data"].as_array().map(Vec::len)), (Some(0), Some(0)), "{v}");
    let (_, v) = app.get("/order-reports/order-summaries/charts/channels", &other).await;
    assert_eq!(v["channels"], json!([]), "{v}");
    let (_, v) = app.get("/order-reports/customer-summaries/locations/top-sales?kind=country", &other).await;
    assert_eq!(v["areas"], json!([]), "{v}");
    let (_, v) = app.get("/order-reports/customer-summaries", &other).await;
    assert_eq!((v["new_customer"]["orders"].as_i64(), v["guest"]["orders"].as_i64()), (Some(0), Some(0)), "{v}");
}

async fn a_wrong_period_or_day_is_refused_with_its_field(app: &TestApp) {
    let t = app.owner().await;
    for (query, field) in [
        ("?period=weekly", "period"),
        ("?date=2026-02-30", "date"),
        ("?date=30/01/2026", "date"),
        ("?top=51", "top"),
        ("?top=-1", "top"),
    ] {
        let (s, v) = app.get(&format!("/order-reports/order-summaries{query}"), &t).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{query}: {v}");
        assert_eq!(v["error"]["fields"][0]["field"], field, "{query}: {v}");
    }
    let long = "ก".repeat(101);
    for (path, field) in [
        ("/order-reports/order-summaries/charts/sales?period=hourly".to_string(), "period"),
        ("/order-reports/order-summaries/table-lists/channels?date=2026-13-01".to_string(), "date"),
        ("/order-reports/sold-item-summaries?date=yesterday".to_string(), "date"),
        ("/order-reports/sold-item-summaries/table-lists/skus?sort=cheapest".to_string(), "sort"),
        (format!("/order-reports/sold-item-summaries/table-lists/skus?search={long}"), "search"),
        ("/order-reports/customer-summaries/locations/top-sales?kind=village".to_string(), "kind"),
        ("/order-reports/customer-summaries/locations/top-sales?top=51".to_string(), "top"),
        ("/order-reports/customer-summaries?period=weekly".to_string(), "period"),
        ("/order-reports/customer-summaries?date=2026-02-29".to_string(), "date"),
    ] {
        let (s, v) = app.get(&path, &t).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {v}");
        assert_eq!(v["error"]["fields"][0]["field"], field, "{path}: {v}");
    }
}

on_every_stack!(
    a_months_sales_add_up_to_the_orders_by_hand,
    customers_are_new_returning_or_guests,
    sales_per_employee_name_who_made_the_orders,
    only_the_owner_sees_the_dashboards_and_only_their_stores,
    a_wrong_period_or_day_is_refused_with_its_field
);
