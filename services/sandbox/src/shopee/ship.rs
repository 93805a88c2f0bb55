//! Shopee's logistics calls in the sandbox: the shop's one pick-up address with two time
//! slots (tomorrow and the day after) and drop-off at a branch; `ship_order` takes exactly one
//! way and moves the order to PROCESSED; the carrier's tracking number is there from the
//! second `get_tracking_number` on (a real carrier takes a moment); a label is made by
//! `create_shipping_document`, PROCESSING on the first `get_shipping_document_result` and
//! READY after, and `download_shipping_document` answers it as an A6 PDF (one page per
//! order), or Shopee's JSON error.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use serde_json::{json, Value};

use super::{check, ok, refuse, Answer, Inner, ShopData};
use crate::{now_s, Order, Shared};

/// The shop's pick-up address.
pub const PICKUP_ADDRESS_ID: i64 = 2826;

/// An order's shipment as arranged.
#[derive(Debug, Clone, Default)]
pub struct Shipment {
    /// pickup, dropoff or non_integrated.
    pub how: String,
    pub tracking_no: String,
    /// How many times the tracking number was asked for.
    asked: u32,
    /// "" (no label asked for), PROCESSING or READY.
    document: String,
}

/// The pick-up times offered now: tomorrow and the day after, at 09:00 Bangkok time.
fn slots() -> Vec<i64> {
    let day = 24 * 3600;
    let today = (now_s() + 7 * 3600) / day * day - 7 * 3600;
    vec![today + day + 9 * 3600, today + 2 * day + 9 * 3600]
}

fn params(q: &HashMap<String, String>) -> String {
    q.get("order_sn").cloned().unwrap_or_default()
}

fn order<'a>(shop: &'a mut ShopData, sn: &str) -> Result<&'a mut Order, Answer> {
    shop.orders.get_mut(sn).ok_or_else(|| {
        refuse(StatusCode::BAD_REQUEST, "error_not_found", "Wrong parameters, detail: the order is not found.")
    })
}

pub(super) async fn shipping_parameter(
    State(state): State<Shared<Inner>>,
    Query(q): Query<HashMap<String, String>>,
) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/logistics/get_shipping_parameter", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    let shop = s.shops.entry(shop_id).or_default();
    let o = match order(shop, &params(&q)) {
        Ok(o) => o,
        Err(refused) => return refused,
    };
    if matches!(o.status.as_str(), "CANCELLED" | "IN_CANCEL") {
        return refuse(StatusCode::BAD_REQUEST, "error_status", "The order has been cancelled.");
    }
    // Times are offered only while the order waits to be shipped.
    let times: Vec<Value> = if o.status == "READY_TO_SHIP" {
        slots().into_iter().map(|t| json!({ "date": t, "time_text": "", "pickup_time_id": t.to_string() })).collect()
    } else {
        Vec::new()
    };
    ok(json!({ "response": {
        "info_needed": { "dropoff": [], "pickup": ["address_id", "pickup_time_id"] },
        "dropoff": { "branch_list": null },
        "pickup": { "address_list": [{
            "address_id": PICKUP_ADDRESS_ID, "region": "TH", "state": "กรุงเทพมหานคร", "city": "เขตวัฒนา", "district": "", "town": "",
            "address": "99/1 ถนนสุขุมวิท", "zipcode": "10110",
            "address_flag": ["default_address", "pickup_address", "return_address"], "time_slot_list": times }] }
    } }))
}

pub(super) async fn ship_order(
    State(state): State<Shared<Inner>>,
    Query(q): Query<HashMap<String, String>>,
    body: Bytes,
) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/logistics/ship_order", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    let Ok(b) = serde_json::from_slice::<Value>(&body) else {
        return refuse(StatusCode::BAD_REQUEST, "error_param", "Wrong parameters, detail: parse data failed.");
    };
    let ways: Vec<&str> = ["pickup", "dropoff", "non_integrated"].into_iter().filter(|k| b.get(*k).is_some()).collect();
    if ways.len() != 1 {
        return refuse(
            StatusCode::BAD_REQUEST,
            "logistics.ship_order_only_support_one_type",
            "Please select just one way to ship order: pickup or dropoff or non_integrated.",
        );
    }
    let sn = b["order_sn"].as_str().unwrap_or_default().to_string();
    s.next_tracking += 1;
    let carrier_no = format!("TH{:013}", 4_100_000_000_000 + s.next_tracking);
    let shop = s.shops.entry(shop_id).or_default();
    let o = match order(shop, &sn) {
        Ok(o) => o,
        Err(refused) => return refused,
    };
    match o.status.as_str() {
        "READY_TO_SHIP" | "RETRY_SHIP" => {}
        "PROCESSED" | "SHIPPED" | "TO_CONFIRM_RECEIVE" | "COMPLETED" => {
            return refuse(
                StatusCode::BAD_REQUEST,
                "logistics.package_already_shipped",
                "This package has already been arranged shipment and you can't call this API again.",
            )
        }
        _ => {
            return refuse(
                StatusCode::BAD_REQUEST,
                "logistics.ship_order_not_ready_to_ship",
                "The order is not ready to ship.",
            )
        }
    }
    let how = ways[0];
    let tracking_no = match how {
        "pickup" => {
            let p = &b["pickup"];
            let slot = p["pickup_time_id"].as_str().unwrap_or_default();
            if p["address_id"].as_i64().is_none() || slot.is_empty() {
                return refuse(
                    StatusCode::BAD_REQUEST,
                    "logistics.ship_order_need_address_pickup_time",
                    "Parameter address_id and pickup_time_id are required.",
                );
            }
            if p["address_id"].as_i64() != Some(PICKUP_ADDRESS_ID) || !slots().iter().any(|t| t.to_string() == slot) {
                return refuse(
                    StatusCode::BAD_REQUEST,
                    "logistics.ship_order_pickup_time_invalid",
                    "Invalid pickup time id. Please check the pick up time id.",
                );
            }
            carrier_no
        }
        "dropoff" => carrier_no,
        _ => {
            let given = b["non_integrated"]["tracking_number"].as_str().unwrap_or_default().trim().to_string();
            if given.is_empty() {
                return refuse(
                    StatusCode::BAD_REQUEST,
                    "logistics.ship_order_need_tracking_number",
                    "Parameter tracking_number can not be null.",
                );
            }
            given
        }
    };
    o.status = "PROCESSED".into();
    o.updated_at = now_s().max(o.updated_at + 1);
    shop.shipments.insert(sn, Shipment { how: how.into(), tracking_no, ..Default::default() });
    ok(json!({}))
}

pub(super) async fn tracking_number(
    State(state): State<Shared<Inner>>,
    Query(q): Query<HashMap<String, String>>,
) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/logistics/get_tracking_number", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    let shop = s.shops.entry(shop_id).or_default();
    let sn = params(&q);
    if !shop.orders.contains_key(&sn) {
        return refuse(StatusCode::BAD_REQUEST, "logistics.invalid_error", "The order is not exist.");
    }
    let number = match shop.shipments.get_mut(&sn) {
        Some(sh) => {
            sh.asked += 1;
            // A platform carrier's number comes a moment after the arrangement.
            if sh.asked > 1 || sh.how == "non_integrated" {
                sh.tracking_no.clone()
            } else {
                String::new()
            }
        }
        None => String::new(),
    };
    ok(json!({ "response": { "tracking_number": number, "plp_number": "", "first_mile_tracking_number": "",
        "last_mile_tracking_number": "", "hint": "", "pickup_code": "" } }))
}

/// The orders of a document call's `order_list` (1 to 50), or Shopee's refusal.
fn order_list(b: &Value) -> Result<Vec<Value>, Answer> {
    let list = b["order_list"].as_array().cloned().unwrap_or_default();
    if list.is_empty() || list.len() > 50 {
        return Err(refuse(
            StatusCode::BAD_REQUEST,
            "error_param",
            "Wrong parameters, detail: order_list should be 1-50.",
        ));
    }
    Ok(list)
}

/// A batch answer: every order failed makes the whole call fail, with the list.
fn batch(results: Vec<Value>) -> Answer {
    if results.iter().all(|r| r.get("fail_error").is_some()) {
        let body = json!({ "request_id": crate::token("", 8), "error": "common.batch_api_all_failed",
            "message": "Failed, please check result_list for more details.", "response": { "result_list": results } });
        return (StatusCode::OK, axum::Json(body)).into_response();
    }
    ok(json!({ "response": { "result_list": results }, "warning": [] }))
}

fn failed(sn: &str, error: &str, message: &str) -> Value {
    json!({ "order_sn": sn, "fail_error": error, "fail_message": message })
}

pub(super) async fn create_document(
    State(state): State<Shared<Inner>>,
    Query(q): Query<HashMap<String, String>>,
    body: Bytes,
) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/logistics/create_shipping_document", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    let b: Value = serde_json::from_slice(&body).unwrap_or_default();
    let list = match order_list(&b) {
        Ok(l) => l,
        Err(refused) => return refused,
    };
    let shop = s.shops.entry(shop_id).or_default();
    let results = list
        .iter()
        .map(|x| {
            let sn = x["order_sn"].as_str().unwrap_or_default();
            let Some(o) = shop.orders.get(sn) else {
                return failed(
                    sn,
                    "logistics.order_not_exist",
                    &format!("The order_sn {sn} you provided is not exist. Please check"),
                );
            };
            if o.status != "PROCESSED" {
                return failed(sn, "logistics.order_status_error", "Order status does not support awb printing.");
            }
            let sh = shop.shipments.get_mut(sn).expect("a processed order was shipped");
            if x["tracking_number"].as_str().unwrap_or_default() != sh.tracking_no {
                return failed(sn, "logistics.tracking_number_invalid", "The tracking number is invalid.");
            }
            sh.document = "PROCESSING".into();
            json!({ "order_sn": sn, "package_number": "" })
        })
        .collect();
    batch(results)
}

pub(super) async fn document_result(
    State(state): State<Shared<Inner>>,
    Query(q): Query<HashMap<String, String>>,
    body: Bytes,
) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/logistics/get_shipping_document_result", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    let b: Value = serde_json::from_slice(&body).unwrap_or_default();
    let list = match order_list(&b) {
        Ok(l) => l,
        Err(refused) => return refused,
    };
    let shop = s.shops.entry(shop_id).or_default();
    let results = list
        .iter()
        .map(|x| {
            let sn = x["order_sn"].as_str().unwrap_or_default();
            match shop.shipments.get_mut(sn) {
                Some(sh) if sh.document == "PROCESSING" => {
                    sh.document = "READY".into();
                    json!({ "order_sn": sn, "package_number": "", "status": "PROCESSING" })
                }
                Some(sh) if sh.document == "READY" => {
                    json!({ "order_sn": sn, "package_number": "", "status": "READY" })
                }
                _ if !shop.orders.contains_key(sn) => {
                    failed(sn, "logistics.order_not_exist", &format!("The order_sn {sn} is not exist."))
                }
                _ => failed(
                    sn,
                    "logistics.shipping_document_should_print_first",
                    "The package can not print now, please create shipping document first.",
                ),
            }
        })
        .collect();
    batch(results)
}

pub(super) async fn download_document(
    State(state): State<Shared<Inner>>,
    Query(q): Query<HashMap<String, String>>,
    body: Bytes,
) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/logistics/download_shipping_document", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    let b: Value = serde_json::from_slice(&body).unwrap_or_default();
    let list = match order_list(&b) {
        Ok(l) => l,
        Err(refused) => return refused,
    };
    let shop = s.shops.entry(shop_id).or_default();
    let mut doc = bo_pdf::Doc::new("Shopee air waybill");
    for x in &list {
        let sn = x["order_sn"].as_str().unwrap_or_default();
        let (Some(o), Some(sh)) = (shop.orders.get(sn), shop.shipments.get(sn).filter(|sh| sh.document == "READY"))
        else {
            return refuse(
                StatusCode::BAD_REQUEST,
                "logistics.shipping_document_should_print_first",
                &format!("The package can not print now, please create shipping document first.Detail: these orders: {sn} should print"),
            );
        };
        crate::waybill_page(&mut doc, "Shopee Xpress", &sh.how.to_uppercase(), &sh.tracking_no, o);
    }
    ([(header::CONTENT_TYPE, "application/pdf")], doc.finish()).into_response()
}
