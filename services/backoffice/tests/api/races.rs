//! Money under concurrency (two orders replicas on PostgreSQL read committed rows only): a
//! bill keeps one live payment whatever races for it; bill expiry never cancels an order
//! whose payment came in meanwhile; an edit never re-amounts bills under money sent; and the
//! money check sees what would be wrong if any of it happened.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;
use crate::order_payments::{accounts, attachment, send_slip};
use crate::orders::{create, main_warehouse, order, stock_up, two_skus};
use crate::photos::png;
use crate::statements::{reconcile, statement};

fn live(o: &Value) -> Vec<&Value> {
    o["payments"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| matches!(p["state"].as_str(), Some("unpaid" | "pending" | "paid")))
        .collect()
}

async fn twenty_slips_and_two_statement_lines_leave_one_live_payment(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "RACE", w).await;
    stock_up(app, &t, w, red, 50).await;
    let (pp, _) = accounts(app, &t).await;
    for round in 0..3 {
        let o = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
        let (id, token) = (o["id"].as_i64().unwrap(), o["bills"][0]["token"].as_str().unwrap().to_string());
        let (no, total) = (o["order_no"].as_str().unwrap(), o["total"].as_str().unwrap());
        let mut kept = Vec::new();
        for _ in 0..10 {
            let (s, v) = attachment(app, &t, png(12, 12)).await;
            assert_eq!(s, StatusCode::CREATED, "{v}");
            kept.push(v["name"].as_str().unwrap().to_string());
        }
        let buyers = (0..10).map(|_| {
            let token = token.clone();
            async move {
                let (s, _, body) = send_slip(app, &token, png(10, 10), "slip.png", pp).await;
                assert!(matches!(s, StatusCode::SEE_OTHER | StatusCode::CONFLICT), "{s}: {body}");
            }
        });
        let staff = kept.iter().map(|name| {
            let t = t.clone();
            async move {
                let (s, v) = app
                    .post(&format!("/orders/{id}/pay"), &t, json!({"attachment": name, "store_channel_id": pp}))
                    .await;
                assert!(matches!(s, StatusCode::CREATED | StatusCode::CONFLICT), "{s}: {v}");
            }
        });
        let lines = [format!("โอนค่าสินค้า {no}"), format!("{no} รอบ {round}")].map(|text| {
            let file = statement(&[(total, &text)]);
            let t = t.clone();
            async move {
                let (s, v) = reconcile(app, &t, &file, false, json!([])).await;
                assert_eq!(s, StatusCode::OK, "{v}");
                v["data"]["confirmed"].as_i64().unwrap()
            }
        });
        let (_, _, confirmed) = tokio::join!(
            futures::future::join_all(buyers),
            futures::future::join_all(staff),
            futures::future::join_all(lines)
        );
        let (_, o) = app.get(&format!("/orders/{id}"), &t).await;
        let live = live(&o);
        assert_eq!(live.len(), 1, "round {round}: one live payment: {:#}", o["payments"]);
        // At most one line confirms it; when one did, the order is paid for its total.
        assert!(confirmed.iter().sum::<i64>() <= 1, "round {round}: {confirmed:?}");
        if confirmed.iter().sum::<i64>() == 1 {
            assert_eq!((o["payment_state"].as_str(), live[0]["amount"].as_str()), (Some("paid"), Some(total)));
        }
        let broken = app.invariants().await;
        assert!(broken.is_empty(), "round {round}: {broken:#?}");
    }
}

async fn an_edit_racing_a_slip_never_re_amounts_money_sent(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "EDRACE", w).await;
    stock_up(app, &t, w, red, 100).await;
    let (pp, _) = accounts(app, &t).await;
    for round in 0..6 {
        let o = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
        let (id, token) = (o["id"].as_i64().unwrap(), o["bills"][0]["token"].as_str().unwrap().to_string());
        let edit =
            async { app.patch(&format!("/orders/{id}"), &t, order(w, json!([{"sku_id": red, "quantity": 5}]))).await };
        let slip = async { send_slip(app, &token, png(10, 10), "slip.png", pp).await };
        let ((es, ev), (ss, _, body)) = tokio::join!(edit, slip);
        assert_eq!(ss, StatusCode::SEE_OTHER, "round {round}: {body}");
        assert!(
            es == StatusCode::OK
                || (es == StatusCode::CONFLICT
                    && matches!(ev["error"]["code"].as_str(), Some("order_payment_made" | "order_changed"))),
            "round {round}: {es} {ev}"
        );
        let (_, o) = app.get(&format!("/orders/{id}"), &t).await;
        let live = live(&o);
        assert_eq!(live.len(), 1);
        assert_eq!(live[0]["amount"], o["bills"][0]["amount"], "round {round}: the slip is for the bill as it is");
        assert_eq!(o["stock_state"], "held", "round {round}: {o}");
        let want = if es == StatusCode::OK { 5 } else { 1 };
        assert_eq!(o["items"][0]["quantity"].as_i64(), Some(want), "round {round}");
        app.check_stock().await;
    }
}

/// The check sees two live payments on one bill and a payment for another amount than its
/// bill's (the index and the rules keep both from happening, so they are made by hand).
async fn the_money_check_sees_two_live_payments_and_a_wrong_amount(app: &TestApp) {
    let t = app.owner().await;
    let w = main_warehouse(app, &t).await;
    let (red, _) = two_skus(app, &t, "MCHK", w).await;
    stock_up(app, &t, w, red, 5).await;
    let (pp, _) = accounts(app, &t).await;
    let o = create(app, &t, order(w, json!([{"sku_id": red, "quantity": 1}]))).await;
    let token = o["bills"][0]["token"].as_str().unwrap().to_string();
    let (s, _, _) = send_slip(app, &token, png(10, 10), "slip.png", pp).await;
    assert_eq!(s, StatusCode::SEE_OTHER);
    assert!(app.invariants().await.is_empty());

    let db = bo_kit::db::Db::connect(&app.orders_db_url).await.unwrap();
    let run = |sql: &'static str| {
        let db = db.clone();
        async move { sqlx::query(sql).execute(db.pool()).await.unwrap() }
    };
    // A second live payment: the index refuses it.
    let copy = "INSERT INTO order_payments (store_id, order_id, bill_id, warehouse_id, amount, state, source, \
                created_at, updated_at) SELECT store_id, order_id, bill_id, warehouse_id, amount, 'unpaid', source, \
                created_at, updated_at FROM order_payments";
    let refused = sqlx::query(copy).execute(db.pool()).await.unwrap_err();
    assert!(bo_kit::error::is_unique_violation(&refused), "{refused}");
    run("DROP INDEX order_payments_live").await;
    run(copy).await;
    let broken = app.invariants().await;
    assert!(broken.iter().any(|b| b.ends_with(": 2 live payments")), "{broken:#?}");
    run("DELETE FROM order_payments WHERE state = 'unpaid'").await;
    // A pending payment for less than its bill.
    run("UPDATE order_payments SET amount = amount - 1").await;
    let broken = app.invariants().await;
    assert!(broken.iter().any(|b| b.starts_with("payment ") && b.contains(" for bill ")), "{broken:#?}");
    run("UPDATE order_payments SET amount = amount + 1").await;
    assert!(app.invariants().await.is_empty());
    db.close().await;
}

on_every_stack!(
    twenty_slips_and_two_statement_lines_leave_one_live_payment,
    an_edit_racing_a_slip_never_re_amounts_money_sent,
    the_money_check_sees_two_live_payments_and_a_wrong_amount,
);
