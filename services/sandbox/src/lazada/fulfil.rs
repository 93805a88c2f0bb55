//! Lazada's fulfilment calls in the sandbox (the API of 2023): `/order/items/get` gives an
//! order's items with their package; `/order/shipment/providers/get` says Lazada allocates
//! the carrier (a local shop, `TFS`); `/order/fulfill/pack` packs pending items into a
//! package with a tracking number (`delivery_type` must be `dropship`); `/order/package/rts`
//! sets a packed package ready to ship; `/order/package/document/get` answers a link to the
//! package's A6 air waybill as a PDF, valid ten minutes. Each object parameter is one JSON
//! text; answers wrap their data in `result` and say per item or package what went through.

use std::collections::BTreeMap;

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use serde_json::{json, Value};

use super::{items, ok, Answer, Inner, ShopData};
use crate::{now_ms, now_s, token, Order, Shared};

/// How long a label link lasts, milliseconds.
const LINK_MS: i64 = 10 * 60 * 1000;

/// A package of an order's items.
#[derive(Debug, Clone, Default)]
pub struct Package {
    pub id: String,
    pub tracking_no: String,
}

/// A fulfilment answer: `data` under a successful `result`.
fn done(data: Value) -> Answer {
    ok(json!({ "result": { "data": data, "success": true } }))
}

/// A fulfilment refusal, in `result`.
fn failed(code: &str, message: &str) -> Answer {
    ok(json!({ "result": { "success": false, "error_code": code, "error_msg": message } }))
}

/// The one JSON parameter `name` of a call.
fn param(p: &BTreeMap<String, String>, name: &str) -> Option<Value> {
    p.get(name).and_then(|v| serde_json::from_str(v).ok())
}

/// An id Lazada takes as a number (or its text).
fn id_text(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.trim().to_string(),
        _ => String::new(),
    }
}

/// The ids of an order's units as `items` writes them.
fn unit_ids(o: &Order) -> Vec<String> {
    items(o, &ShopData::default()).iter().map(|i| i["order_item_id"].as_str().unwrap_or_default().to_string()).collect()
}

/// `/order/items/get?order_id=`.
pub(super) fn order_items(shop: &ShopData, p: &BTreeMap<String, String>) -> Answer {
    let id = p.get("order_id").cloned().unwrap_or_default();
    match shop.orders.get(&id) {
        Some(o) => ok(json!({ "data": items(o, shop) })),
        None => super::refuse("16", "E016: Invalid Order ID"),
    }
}

pub(super) fn providers(shop: &ShopData, p: &BTreeMap<String, String>) -> Answer {
    let Some(orders) = param(p, "getShipmentProvidersReq").and_then(|r| r["orders"].as_array().cloned()) else {
        return failed("PARAM_IS_NULL", "getShipmentProvidersReq is required");
    };
    if orders.len() > 20 {
        return failed("BATCH_SIZE_OUT_OF_LIMIT", "at most 20 orders");
    }
    if orders.iter().any(|o| !shop.orders.contains_key(&id_text(&o["order_id"]))) {
        return failed("ORDER_NOT_FOUND", "order not found");
    }
    done(json!({ "platform_default": 1, "shipment_providers": [{ "name": "LEX TH", "provider_code": "LEX" }],
        "shipping_allocate_type": "TFS" }))
}

pub(super) fn pack(shop: &mut ShopData, p: &BTreeMap<String, String>) -> Answer {
    let Some(req) = param(p, "packReq") else {
        return failed("PARAM_IS_NULL", "packReq is required");
    };
    if req["delivery_type"] != "dropship" {
        return failed("PARAM_ILLEGAL", "delivery_type must be dropship");
    }
    if !matches!(req["shipping_allocate_type"].as_str(), Some("TFS" | "NTFS")) {
        return failed("PARAM_ILLEGAL", "shipping_allocate_type must be TFS or NTFS");
    }
    if req["shipping_allocate_type"] == "TFS" && req.get("shipment_provider_code").is_some() {
        return failed("DBS_SHIPMENT_PROVIDER_CODE_NOT_EXITS", "do not send a provider for a local shop");
    }
    let list = req["pack_order_list"].as_array().cloned().unwrap_or_default();
    if list.is_empty() {
        return failed("PARAM_IS_NULL", "pack_order_list is required");
    }
    if list.len() > 20 {
        return failed("BATCH_SIZE_OUT_OF_LIMIT", "at most 20 orders");
    }
    let mut answered = Vec::new();
    for entry in list {
        let id = id_text(&entry["order_id"]);
        let Some(o) = shop.orders.get_mut(&id) else {
            return failed("ORDER_NOT_FOUND", "order not found");
        };
        let units = unit_ids(o);
        let asked: Vec<String> = entry["order_item_list"].as_array().into_iter().flatten().map(id_text).collect();
        if asked.is_empty() || asked.iter().any(|a| !units.contains(a)) {
            return failed("ORDER_ITEM_NOT_FOUND", "order item not found");
        }
        let packable = o.status == "pending" || o.status == "repacked";
        let package = shop.packages.entry(id.clone()).or_insert_with(|| Package {
            id: format!("FP{}", token("", 12)),
            tracking_no: format!("LEXDO{}", token("", 10)),
        });
        let lines: Vec<Value> = asked
            .iter()
            .map(|unit| {
                let unit: i64 = unit.parse().unwrap_or_default();
                if packable {
                    json!({ "order_item_id": unit, "msg": "success", "item_err_code": "0", "tracking_number": package.tracking_no,
                        "shipment_provider": "LEX TH", "package_id": package.id, "retry": false })
                } else {
                    json!({ "order_item_id": unit, "msg": "item current status not allow to pack", "item_err_code": "700026",
                        "retry": false })
                }
            })
            .collect();
        if packable {
            o.status = "packed".into();
            o.updated_at = now_s();
        } else if o.status != "packed" && o.status != "ready_to_ship" {
            shop.packages.remove(&id);
        }
        answered.push(json!({ "order_id": entry["order_id"], "order_item_list": lines }));
    }
    done(json!({ "pack_order_list": answered }))
}

/// The order a package is of.
fn order_of<'a>(shop: &'a ShopData, package: &str) -> Option<&'a str> {
    shop.packages.iter().find(|(_, p)| p.id == package).map(|(order, _)| order.as_str())
}

fn package_ids(req: &Value) -> Vec<String> {
    req["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| p["package_id"].as_str().unwrap_or_default().to_string())
        .collect()
}

pub(super) fn ready_to_ship(shop: &mut ShopData, p: &BTreeMap<String, String>) -> Answer {
    let Some(req) = param(p, "readyToShipReq") else {
        return failed("PARAM_IS_NULL", "readyToShipReq is required");
    };
    let ids = package_ids(&req);
    if ids.is_empty() || ids.len() > 20 {
        return failed("PARAM_ILLEGAL", "1 to 20 packages");
    }
    let mut answered = Vec::new();
    for id in ids {
        let order = order_of(shop, &id).map(str::to_string);
        let line = match order.and_then(|o| shop.orders.get_mut(&o)) {
            None => json!({ "msg": "package not found", "item_err_code": "600001", "package_id": id, "retry": false }),
            Some(o) if o.status == "canceled" => {
                json!({ "msg": "package already cancelled", "item_err_code": "600002", "package_id": id, "retry": false })
            }
            Some(o) if o.status == "packed" || o.status == "ready_to_ship" => {
                if o.status == "packed" {
                    o.status = "ready_to_ship".into();
                    o.updated_at = now_s();
                }
                json!({ "msg": "success", "item_err_code": "0", "package_id": id, "retry": false })
            }
            Some(_) => {
                json!({ "msg": "PACKAGE_STATUS_NOT_ALLOW_TO_OP", "item_err_code": "700000", "package_id": id, "retry": false })
            }
        };
        answered.push(line);
    }
    done(json!({ "packages": answered }))
}

pub(super) fn document(base: &str, shop: &ShopData, p: &BTreeMap<String, String>) -> Answer {
    let Some(req) = param(p, "getDocumentReq") else {
        return failed("PARAM_IS_NULL", "getDocumentReq is required");
    };
    if req["doc_type"] != "PDF" && req["doc_type"] != "HTML" {
        return failed("PARAM_ILLEGAL", "doc_type is PDF or HTML");
    }
    let ids = package_ids(&req);
    if ids.is_empty() || ids.len() > 20 {
        return failed("PARAM_ILLEGAL", "1 to 20 packages");
    }
    let printable = |id: &String| {
        order_of(shop, id)
            .and_then(|o| shop.orders.get(o))
            .is_some_and(|o| o.status == "packed" || o.status == "ready_to_ship")
    };
    if !ids.iter().all(printable) {
        return failed("700040", "There are no packages that support printing!");
    }
    let link = format!("{base}/sandbox/lazada/awb/{}.pdf?Expires={}", ids.join(","), now_ms() + LINK_MS);
    let file = base64_of(&format!("<iframe src=\"{link}\"></iframe>"));
    done(json!({ "file": file, "doc_type": "PDF", "pdf_url": link }))
}

fn base64_of(s: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(s)
}

/// The air waybill of packages, one A6 page each, while its link lasts.
pub(super) async fn awb(
    State(state): State<Shared<Inner>>,
    Path(file): Path<String>,
    Query(q): Query<BTreeMap<String, String>>,
) -> Answer {
    let expires: i64 = q.get("Expires").and_then(|e| e.parse().ok()).unwrap_or(0);
    if expires < now_ms() {
        return (
            StatusCode::FORBIDDEN,
            "<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>",
        )
            .into_response();
    }
    let s = state.lock();
    let mut doc = bo_pdf::Doc::new("Lazada air waybill");
    for id in file.trim_end_matches(".pdf").split(',') {
        let found = s.shops.values().find_map(|shop| {
            let order = order_of(shop, id)?;
            Some((shop.orders.get(order)?, shop.packages.get(order)?))
        });
        let Some((o, package)) = found else {
            return (StatusCode::NOT_FOUND, "<Error><Code>NoSuchKey</Code></Error>").into_response();
        };
        crate::waybill_page(&mut doc, "LEX TH", &package.id, &package.tracking_no, o);
    }
    ([(header::CONTENT_TYPE, "application/pdf")], doc.finish()).into_response()
}

/// `/order/reverse/cancel/seller/decide`: the seller's answer to a buyer's request to cancel.
/// Agreed, every unit is cancelled; refused, the order goes on.
pub(super) fn decide(shop: &mut ShopData, p: &BTreeMap<String, String>) -> Answer {
    let reverse = p.get("reverse_order_id").map(|r| r.trim().to_string()).unwrap_or_default();
    if reverse.is_empty() || !reverse.chars().all(|c| c.is_ascii_digit()) {
        return super::refuse("105", "E0105: reverse order id is empty or invalid");
    }
    let agree = match p.get("agree_cancel").map(String::as_str) {
        Some("true") => true,
        Some("false") => false,
        _ => return super::refuse("105", "E0105: agree_cancel is required"),
    };
    let Some(order) = shop.cancel_requests.iter().find(|(_, (id, _))| *id == reverse).map(|(o, _)| o.clone()) else {
        return super::refuse("131", "E0131: no decision for this reverse order");
    };
    shop.cancel_requests.remove(&order);
    if let Some(o) = shop.orders.get_mut(&order) {
        if agree {
            o.status = "canceled".into();
        }
        o.updated_at = now_s().max(o.updated_at + 1);
    }
    ok(json!({}))
}
