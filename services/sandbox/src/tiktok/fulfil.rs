//! TikTok Shop's fulfilment calls in the sandbox (202309): a paid order has one package;
//! `handover_time_slots` answers for a package that may ship now (21011044 while the order
//! is on hold, 21011041 once cancelled, 21011040 once shipped); `ship` ships it (the order
//! AWAITING_COLLECTION, the carrier's tracking number given); Get Package Detail reads it
//! back; `shipping_documents` answers a link to its A6 label as a PDF, valid a day, once
//! shipped and until the carrier has it (21023035 before, 21042102 after).

use std::collections::BTreeMap;

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use serde_json::{json, Value};

use super::{ok, refuse, Answer, Inner, ShopData};
use crate::{now_s, token, Order, Shared};

/// How long a label link lasts, seconds.
const LINK_S: i64 = 24 * 3600;

/// The id of an order's package (one per order here).
pub fn package_id(order_id: &str) -> String {
    format!("11{order_id}")
}

/// The order a package of the shop is of.
fn order_of<'a>(shop: &'a mut ShopData, package: &str) -> Option<&'a mut Order> {
    let order = package.strip_prefix("11")?;
    shop.orders.get_mut(order).filter(|o| o.status != "UNPAID")
}

/// Refuses a package that may not ship now.
fn shippable(o: &Order) -> Result<(), Answer> {
    match o.status.as_str() {
        "AWAITING_SHIPMENT" => Ok(()),
        "ON_HOLD" => Err(refuse(
            StatusCode::OK,
            21011044,
            "Order status is on hold. Please process when order status update to awaiting shipment",
        )),
        "CANCELLED" => Err(refuse(StatusCode::OK, 21011041, "Cannot complete the operation when order is cancelled.")),
        _ => Err(refuse(StatusCode::OK, 21011040, "Package has already been shipped.")),
    }
}

/// A call under `/fulfillment/202309/packages/`: `rest` is what follows.
pub(super) fn packages(
    base: &str,
    shop: &mut ShopData,
    post: bool,
    rest: &str,
    q: &BTreeMap<String, String>,
) -> Answer {
    let (package, action) = rest.split_once('/').unwrap_or((rest, ""));
    let not_ours = || refuse(StatusCode::OK, 21011028, "The package does not belong to the current shop.");
    let tracking = shop.tracking.get(package).cloned().unwrap_or_default();
    let Some(o) = order_of(shop, package) else { return not_ours() };
    match (post, action) {
        (false, "handover_time_slots") => {
            if let Err(refused) = shippable(o) {
                return refused;
            }
            let day = 24 * 3600;
            let start = (now_s() / day + 1) * day + 2 * 3600;
            ok(json!({ "can_pickup": true, "can_drop_off": true, "can_van_collection": false, "drop_off_point_url": "",
                "pickup_slots": [{ "start_time": start, "end_time": start + 8 * 3600, "avaliable": true }] }))
        }
        (true, "ship") => {
            if let Err(refused) = shippable(o) {
                return refused;
            }
            o.status = "AWAITING_COLLECTION".into();
            o.updated_at = now_s().max(o.updated_at + 1);
            shop.tracking.insert(package.to_string(), format!("TH{}", token("", 12).to_uppercase()));
            ok(json!({}))
        }
        (false, "") => {
            let status = match o.status.as_str() {
                "AWAITING_SHIPMENT" | "ON_HOLD" => "PROCESSING",
                "AWAITING_COLLECTION" | "IN_TRANSIT" => "FULFILLING",
                "CANCELLED" => "CANCELLED",
                _ => "COMPLETED",
            };
            ok(
                json!({ "package_id": package, "orders": [{ "id": o.id }], "package_status": status, "shipping_type": "TIKTOK",
                "shipping_provider_name": "Flash Express", "tracking_number": tracking, "update_time": o.updated_at }),
            )
        }
        (false, "shipping_documents") => {
            if q.get("document_type").map(String::as_str) != Some("SHIPPING_LABEL") {
                return refuse(StatusCode::OK, 21001001, "Invalid parameters. document_type");
            }
            match o.status.as_str() {
                "CANCELLED" => refuse(StatusCode::OK, 21023059, "Package has already been cancelled."),
                "AWAITING_COLLECTION" => {
                    let link = format!("{base}/sandbox/tiktok/doc/{package}.pdf?expires={}", now_s() + LINK_S);
                    ok(json!({ "doc_url": link, "tracking_number": tracking }))
                }
                "AWAITING_SHIPMENT" | "ON_HOLD" => {
                    refuse(StatusCode::OK, 21023035, "Please arrange shipment before retrieving the shipping document.")
                }
                _ => {
                    refuse(StatusCode::OK, 21042102, "Documents couldn't be printed after the package has been pickup.")
                }
            }
        }
        _ => refuse(StatusCode::NOT_FOUND, 36009009, "Invalid path"),
    }
}

/// The package's label, one A6 page, while its link lasts.
pub(super) async fn document(
    State(state): State<Shared<Inner>>,
    Path(file): Path<String>,
    Query(q): Query<BTreeMap<String, String>>,
) -> Answer {
    let expires: i64 = q.get("expires").and_then(|e| e.parse().ok()).unwrap_or(0);
    if expires < now_s() {
        return (StatusCode::FORBIDDEN, "link expired").into_response();
    }
    let package = file.trim_end_matches(".pdf");
    let mut s = state.lock();
    let found = s.shops.values_mut().find_map(|shop| {
        let tracking = shop.tracking.get(package).cloned()?;
        Some((order_of(shop, package)?.clone(), tracking))
    });
    let Some((o, tracking)) = found else {
        return (StatusCode::NOT_FOUND, "no such document").into_response();
    };
    let mut doc = bo_pdf::Doc::new("TikTok Shop shipping label");
    crate::waybill_page(&mut doc, "Flash Express", "TikTok Shop", &tracking, &o);
    ([(header::CONTENT_TYPE, "application/pdf")], doc.finish()).into_response()
}

/// An order's packages as Get Order Detail writes them (none while unpaid).
pub(super) fn packages_json(o: &Order) -> Value {
    if o.status == "UNPAID" {
        json!([])
    } else {
        json!([{ "id": package_id(&o.id) }])
    }
}
