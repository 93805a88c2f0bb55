//! Lazada Open Platform (Thailand) as it behaves, for one app: the API host and the auth
//! host on one port (their paths do not overlap).
//!
//! Every call carries `app_key`, `timestamp` (milliseconds; refused more than 7,200 s away),
//! `sign_method=sha256` and `sign`, in the query (GET) or the form (POST); the signature is
//! recomputed here as upper-case hex HMAC-SHA256 under the app secret of the path followed by
//! every other parameter sorted by name, each name then value. A refusal is
//! `{"type","code","message","request_id"}` (`IncompleteSignature`, `IllegalAccessToken`,
//! `InvalidCode`, `IllegalRefreshToken`, `ApiCallLimit`); business refusals use Lazada's
//! numeric codes (`16` an order that is not the shop's, `4171` too many SKUs, `501` SKUs
//! refused, each named in `detail`). Pushes are signed over `app_key + raw body`.

use std::collections::{BTreeMap, HashMap};

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{Method, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{any, get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::shopee::{html_escape, url_form};
use crate::{hmac_hex, now_ms, now_s, serve_on, token, Listing, Order, Server, Shared, Throttle};

mod fulfil;
mod returns;

/// Access token life, seconds (an online app's 30 days).
const ACCESS_S: i64 = 30 * 24 * 3600;
/// Refresh token life, seconds (180 days).
const REFRESH_S: i64 = 180 * 24 * 3600;

#[derive(Debug, Clone, Default)]
struct ShopData {
    name: String,
    /// (item, sku) → quantity.
    stock: BTreeMap<(String, String), i64>,
    /// (item, sku) → how the SKU reads, where it was put whole.
    listings: BTreeMap<(String, String), Listing>,
    orders: BTreeMap<String, Order>,
    /// order → its package, once packed.
    packages: BTreeMap<String, fulfil::Package>,
    /// order → the buyer's request to cancel waiting for the seller: its reverse order id
    /// and the buyer's reason.
    cancel_requests: BTreeMap<String, (String, String)>,
    /// reverse order id → a buyer's return.
    returns: BTreeMap<String, crate::Return>,
}

impl ShopData {
    fn listing(&self, item: &str, sku: &str) -> Listing {
        self.listings.get(&(item.to_string(), sku.to_string())).cloned().unwrap_or_else(|| Listing::plain(item, sku))
    }
}

#[derive(Default)]
struct Inner {
    app_key: String,
    app_secret: String,
    shops: BTreeMap<String, ShopData>,
    codes: HashMap<String, (String, i64)>,
    access: HashMap<String, (String, i64)>,
    refresh: HashMap<String, (String, i64)>,
    throttle: Throttle,
    stock_calls: u64,
    product_calls: u64,
    /// The sandbox's own base URL (label links point at it).
    base: String,
}

/// A running Lazada sandbox.
pub struct LazadaSandbox {
    /// Its base URL (API and auth hosts alike).
    pub base_url: String,
    state: Shared<Inner>,
    _server: Server,
}

type Answer = Response;

fn refuse(code: &str, message: &str) -> Answer {
    let kind = if code.chars().all(|c| c.is_ascii_digit()) { "ISP" } else { "ISV" };
    Json(json!({ "type": kind, "code": code, "message": message, "request_id": token("", 8) })).into_response()
}

fn ok(mut fields: Value) -> Answer {
    let obj = fields.as_object_mut().expect("an object");
    obj.insert("code".into(), json!("0"));
    obj.insert("request_id".into(), json!(token("", 8)));
    Json(fields).into_response()
}

/// Unix seconds as Lazada writes them (`2018-02-09T22:44:30+07:00`).
fn iso(seconds: i64) -> String {
    let t = time::OffsetDateTime::from_unix_timestamp(seconds).expect("a time").to_offset(time::macros::offset!(+7));
    t.format(&time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]+07:00"))
        .expect("formats")
}

fn parse_iso(text: &str) -> Option<i64> {
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok().map(|t| t.unix_timestamp())
}

impl LazadaSandbox {
    /// A sandbox for the app `app_key` with its secret, on a port of its own.
    pub async fn start(app_key: &str, app_secret: &str) -> anyhow::Result<LazadaSandbox> {
        LazadaSandbox::start_on("127.0.0.1:0", app_key, app_secret).await
    }

    /// A sandbox listening on `addr`.
    pub async fn start_on(addr: &str, app_key: &str, app_secret: &str) -> anyhow::Result<LazadaSandbox> {
        let state = Shared::new(Inner { app_key: app_key.into(), app_secret: app_secret.into(), ..Default::default() });
        let app = Router::new()
            .route("/oauth/authorize", get(auth_page))
            .route("/sandbox/lazada/authorize", post(authorize_form))
            .route("/sandbox/lazada/awb/{file}", get(fulfil::awb))
            .route("/{*path}", any(api))
            .with_state(state.clone());
        let server = serve_on(addr, app).await?;
        state.lock().base = server.base_url.clone();
        Ok(LazadaSandbox { base_url: server.base_url.clone(), state, _server: server })
    }

    /// Adds a seller (shop).
    pub fn add_shop(&self, seller_id: &str, name: &str) {
        self.state.lock().shops.entry(seller_id.into()).or_default().name = name.into();
    }

    /// An order's package once packed: its id and tracking number.
    pub fn package(&self, seller_id: &str, order_id: &str) -> Option<(String, String)> {
        let s = self.state.lock();
        s.shops.get(seller_id)?.packages.get(order_id).map(|p| (p.id.clone(), p.tracking_no.clone()))
    }

    /// The buyer asks to cancel an order, with a reason; the seller must answer. The reverse
    /// order's id.
    pub fn ask_cancel(&self, seller_id: &str, order_id: &str, reason: &str) -> Option<String> {
        let mut s = self.state.lock();
        let shop = s.shops.get_mut(seller_id)?;
        let o = shop.orders.get_mut(order_id)?;
        o.updated_at = now_s().max(o.updated_at + 1);
        let reverse = format!("5100{}", o.id);
        shop.cancel_requests.insert(order_id.into(), (reverse.clone(), reason.into()));
        Some(reverse)
    }

    /// An order's status now.
    pub fn status(&self, seller_id: &str, order_id: &str) -> Option<String> {
        self.state.lock().shops.get(seller_id)?.orders.get(order_id).map(|o| o.status.clone())
    }

    /// Puts a SKU of a listing with its quantity.
    pub fn add_listing(&self, seller_id: &str, item_id: &str, sku_id: &str, quantity: i64) {
        self.state
            .lock()
            .shops
            .entry(seller_id.into())
            .or_default()
            .stock
            .insert((item_id.into(), sku_id.into()), quantity);
    }

    /// Puts a SKU of a listing as the shop lists it (its status `inactive` or `deleted`, or
    /// empty for active), with its quantity.
    pub fn put_listing(&self, seller_id: &str, listing: Listing, quantity: i64) {
        let key = (listing.item_id.clone(), listing.model_id.clone());
        let mut s = self.state.lock();
        let shop = s.shops.entry(seller_id.into()).or_default();
        shop.stock.insert(key.clone(), quantity);
        shop.listings.insert(key, listing);
    }

    /// The seller deletes a product: each of its SKUs reads `deleted`.
    pub fn delete_item(&self, seller_id: &str, item_id: &str) {
        let mut s = self.state.lock();
        let Some(shop) = s.shops.get_mut(seller_id) else { return };
        let keys: Vec<(String, String)> = shop.stock.keys().filter(|(i, _)| i == item_id).cloned().collect();
        for (item, sku) in keys {
            let mut l = shop.listing(&item, &sku);
            l.status = "deleted".into();
            l.updated_at = now_s();
            shop.listings.insert((item, sku), l);
        }
    }

    /// How many product calls were taken.
    pub fn product_calls(&self) -> u64 {
        self.state.lock().product_calls
    }

    /// A SKU's quantity as we last set it.
    pub fn stock(&self, seller_id: &str, item_id: &str, sku_id: &str) -> Option<i64> {
        self.state
            .lock()
            .shops
            .get(seller_id)
            .and_then(|s| s.stock.get(&(item_id.to_string(), sku_id.to_string())).copied())
    }

    /// How many stock updates were taken.
    pub fn stock_calls(&self) -> u64 {
        self.state.lock().stock_calls
    }

    /// Places or replaces an order.
    pub fn put_order(&self, seller_id: &str, order: Order) {
        self.state.lock().shops.entry(seller_id.into()).or_default().orders.insert(order.id.clone(), order);
    }

    /// Moves every item of an order to `status` now.
    pub fn set_status(&self, seller_id: &str, order_id: &str, status: &str) -> Option<Order> {
        let mut s = self.state.lock();
        let o = s.shops.get_mut(seller_id)?.orders.get_mut(order_id)?;
        o.status = status.into();
        o.updated_at = now_s().max(o.updated_at + 1);
        Some(o.clone())
    }

    /// A seller authorizes the app: the code the redirect would carry.
    pub fn authorize(&self, seller_id: &str) -> String {
        let code = token("0_", 16);
        self.state.lock().codes.insert(code.clone(), (seller_id.into(), now_s() + 1800));
        code
    }

    /// Every access token of the seller ends now.
    pub fn expire_access(&self, seller_id: &str) {
        for (_, (shop, exp)) in self.state.lock().access.iter_mut() {
            if shop == seller_id {
                *exp = 0;
            }
        }
    }

    /// The seller's authorization ends: every token is refused.
    pub fn end_authorization(&self, seller_id: &str) {
        let mut s = self.state.lock();
        s.access.retain(|_, (shop, _)| shop != seller_id);
        s.refresh.retain(|_, (shop, _)| shop != seller_id);
    }

    /// Refuses calls past `per_second` a second (0: no limit); calls refused so far.
    pub fn throttle(&self, per_second: u32) -> u64 {
        let mut s = self.state.lock();
        s.throttle.per_second = per_second;
        s.throttle.refused
    }

    /// A trade-order push (message type 0) for the order as it stands, and its signature.
    pub fn order_push(&self, seller_id: &str, order_id: &str) -> Option<(String, String)> {
        let s = self.state.lock();
        let o = s.shops.get(seller_id)?.orders.get(order_id)?;
        let body = json!({ "seller_id": seller_id, "message_type": 0,
            "data": { "order_status": o.status, "trade_order_id": o.id, "trade_order_line_id": format!("{}01", o.id), "status_update_time": o.updated_at },
            "timestamp": now_ms(), "site": "lazada_th" })
        .to_string();
        let signature = hmac_hex(s.app_secret.as_bytes(), format!("{}{body}", s.app_key).as_bytes());
        Some((body, signature))
    }

    /// Pushes an order's status to `url`, signed: the HTTP status it was answered with.
    pub async fn push_order(&self, seller_id: &str, order_id: &str, url: &str) -> u16 {
        let Some((body, signature)) = self.order_push(seller_id, order_id) else { return 0 };
        crate::deliver(url, &[("authorization", signature)], body).await.0
    }
}

/// Every parameter of a call: query and form.
fn params(uri: &Uri, body: &[u8]) -> BTreeMap<String, String> {
    let mut all: BTreeMap<String, String> =
        uri.query().map(|q| url_form(q.as_bytes()).into_iter().collect()).unwrap_or_default();
    all.extend(url_form(body));
    all
}

/// The call's parameters checked: app, timestamp and signature, and with `shop` its access
/// token. The seller on success.
fn check(s: &mut Inner, path: &str, p: &BTreeMap<String, String>, shop_call: bool) -> Result<Option<String>, Answer> {
    if !s.throttle.take() {
        return Err(refuse("ApiCallLimit", "Api access frequency exceeds the limit. this ban will last 1 seconds"));
    }
    for k in ["app_key", "timestamp", "sign_method", "sign"] {
        if !p.contains_key(k) {
            return Err(refuse(
                "MissingParameter",
                &format!("The input parameter \"{k}\" that is mandatory for processing this request is not supplied"),
            ));
        }
    }
    if p["app_key"] != s.app_key {
        return Err(refuse("InvalidAppKey", "Specified app key is invalid"));
    }
    let ts: i64 = p["timestamp"].parse().unwrap_or(0);
    if (now_ms() - ts).abs() > 7_200_000 || p["sign_method"] != "sha256" {
        return Err(refuse("InvalidTimestamp", "Invalid timestamp or sign method"));
    }
    let mut base = path.to_string();
    for (k, v) in p.iter().filter(|(k, _)| *k != "sign") {
        base.push_str(k);
        base.push_str(v);
    }
    if hmac_hex(s.app_secret.as_bytes(), base.as_bytes()).to_uppercase() != p["sign"] {
        return Err(refuse("IncompleteSignature", "The request signature does not conform to lazop standards"));
    }
    if !shop_call {
        return Ok(None);
    }
    match p.get("access_token").and_then(|t| s.access.get(t)) {
        Some((seller, exp)) if *exp > now_s() => Ok(Some(seller.clone())),
        _ => Err(refuse("IllegalAccessToken", "The specified access token is invalid or expired")),
    }
}

fn tokens(s: &mut Inner, seller: &str, refresh: Option<String>) -> Value {
    let access = token("50000", 20);
    let refresh = refresh.unwrap_or_else(|| {
        let r = token("50001", 20);
        s.refresh.insert(r.clone(), (seller.into(), now_s() + REFRESH_S));
        r
    });
    s.access.insert(access.clone(), (seller.into(), now_s() + ACCESS_S));
    let left = s.refresh.get(&refresh).map(|(_, e)| e - now_s()).unwrap_or(0);
    json!({ "access_token": access, "refresh_token": refresh, "expires_in": ACCESS_S, "refresh_expires_in": left,
        "country": "th", "account_platform": "seller_center", "account": format!("{seller}@sandbox"),
        "country_user_info": [{ "country": "TH", "seller_id": seller, "user_id": seller, "short_code": format!("TH{seller}") }] })
}

async fn auth_page(State(state): State<Shared<Inner>>, Query(q): Query<HashMap<String, String>>) -> Answer {
    let s = state.lock();
    if q.get("client_id") != Some(&s.app_key) || q.get("response_type").map(String::as_str) != Some("code") {
        return (StatusCode::BAD_REQUEST, Html("<h1>Invalid client_id or response_type</h1>".to_string()))
            .into_response();
    }
    let back = q.get("redirect_uri").cloned().unwrap_or_default();
    let state_param = q.get("state").cloned().unwrap_or_default();
    let shops: String = s
        .shops
        .iter()
        .map(|(id, x)| format!(r#"<option value="{id}">{} ({id})</option>"#, html_escape(&x.name)))
        .collect();
    Html(format!(
        r#"<!doctype html><meta charset="utf-8"><title>Lazada Open Platform (sandbox)</title><h1>Lazada Seller Center (sandbox)</h1>
<form method="post" action="/sandbox/lazada/authorize"><input type="hidden" name="redirect_uri" value="{}"><input type="hidden" name="state" value="{}">
<select name="seller_id">{shops}</select> <button type="submit" id="authorize">Submit</button></form>"#,
        html_escape(&back),
        html_escape(&state_param)
    ))
    .into_response()
}

async fn authorize_form(State(state): State<Shared<Inner>>, body: Bytes) -> Answer {
    let form = url_form(&body);
    let seller = form.get("seller_id").cloned().unwrap_or_default();
    let code = token("0_", 16);
    state.lock().codes.insert(code.clone(), (seller, now_s() + 1800));
    let mut back =
        reqwest::Url::parse(form.get("redirect_uri").map(String::as_str).unwrap_or("http://invalid/")).expect("a URL");
    back.query_pairs_mut()
        .append_pair("code", &code)
        .append_pair("state", form.get("state").map(String::as_str).unwrap_or_default());
    Redirect::to(back.as_str()).into_response()
}

/// Every API call, by path.
async fn api(State(state): State<Shared<Inner>>, method: Method, uri: Uri, body: Bytes) -> Answer {
    let path = uri.path().trim_start_matches("/rest").to_string();
    let p = params(&uri, &body);
    let mut s = state.lock();
    let shop_call = !path.starts_with("/auth/");
    let seller = match check(&mut s, &path, &p, shop_call) {
        Ok(seller) => seller.unwrap_or_default(),
        Err(refused) => return refused,
    };
    match (method, path.as_str()) {
        (_, "/auth/token/create") => {
            let code = p.get("code").cloned().unwrap_or_default();
            match s.codes.remove(&code) {
                Some((seller, exp)) if exp > now_s() => ok(tokens(&mut s, &seller, None)),
                _ => refuse("InvalidCode", "Invalid authorization code"),
            }
        }
        (_, "/auth/token/refresh") => {
            let given = p.get("refresh_token").cloned().unwrap_or_default();
            match s.refresh.get(&given).cloned() {
                Some((seller, exp)) if exp > now_s() => {
                    // The refresh token stays (its life is not reset); the access token is new.
                    let mut v = tokens(&mut s, &seller, Some(given));
                    let info = v.as_object_mut().and_then(|o| o.remove("country_user_info")).unwrap_or_default();
                    v["country_user_info_list"] = info;
                    ok(v)
                }
                _ => refuse("IllegalRefreshToken", "The specified refresh token is invalid or expired"),
            }
        }
        (Method::GET, "/seller/get") => {
            let name = s.shops.get(&seller).map(|x| x.name.clone()).unwrap_or_default();
            ok(
                json!({ "data": { "name": name, "name_company": name, "seller_id": seller, "short_code": format!("TH{seller}"),
                "cb": "false", "status": "ACTIVE", "verified": "true", "location": "Bangkok" } }),
            )
        }
        (Method::GET, "/orders/get") => orders_get(&s, &seller, &p),
        (_, "/reverse/getreverseordersforseller") => {
            returns::reverse_orders(s.shops.get(&seller).unwrap_or(&ShopData::default()), &p)
        }
        (Method::GET, "/products/get") => {
            s.product_calls += 1;
            products_get(&s, &seller, &p)
        }
        (Method::GET, "/product/item/get") => {
            s.product_calls += 1;
            let shop = s.shops.get(&seller).cloned().unwrap_or_default();
            let item = p.get("item_id").cloned().unwrap_or_default();
            match product_json(&shop, &item, |status| status != "deleted") {
                Some(product) => ok(json!({ "data": product })),
                None => refuse("208", "E208: Product not found"),
            }
        }
        (Method::GET, "/order/get") => {
            let id = p.get("order_id").cloned().unwrap_or_default();
            match s.shops.get(&seller).and_then(|x| x.orders.get(&id)) {
                Some(o) => ok(json!({ "data": header(o) })),
                None => refuse("16", "E016: Invalid Order ID"),
            }
        }
        (Method::GET, "/orders/items/get") => {
            let list = p.get("order_ids").cloned().unwrap_or_default();
            let Some(inner) = list.strip_prefix('[').and_then(|l| l.strip_suffix(']')) else {
                return refuse("56", "E056: Invalid OrdersIdList format. Must use array format [1,2]");
            };
            let ids: Vec<&str> = inner.split(',').map(str::trim).filter(|x| !x.is_empty()).collect();
            if ids.len() > 50 {
                return refuse("38", "E038: Too many orders were requested");
            }
            let shop = s.shops.get(&seller).cloned().unwrap_or_default();
            if ids.iter().any(|id| !shop.orders.contains_key(*id)) {
                return refuse("37", "E037: One or more order id in the list are incorrect");
            }
            let data: Vec<Value> = ids
                .iter()
                .map(|id| {
                    let o = &shop.orders[*id];
                    json!({ "order_id": o.id, "order_number": format!("3{}", o.id), "order_items": items(o, &shop) })
                })
                .collect();
            ok(json!({ "data": data }))
        }
        (_, "/order/items/get") => fulfil::order_items(s.shops.get(&seller).unwrap_or(&ShopData::default()), &p),
        (_, "/order/shipment/providers/get") => {
            fulfil::providers(s.shops.get(&seller).unwrap_or(&ShopData::default()), &p)
        }
        (Method::POST, "/order/fulfill/pack") => fulfil::pack(s.shops.entry(seller).or_default(), &p),
        (_, "/order/reverse/cancel/seller/decide") => fulfil::decide(s.shops.entry(seller).or_default(), &p),
        (Method::POST, "/order/package/rts") => fulfil::ready_to_ship(s.shops.entry(seller).or_default(), &p),
        (_, "/order/package/document/get") => {
            let base = s.base.clone();
            fulfil::document(&base, s.shops.get(&seller).unwrap_or(&ShopData::default()), &p)
        }
        (Method::POST, "/product/price_quantity/update") => {
            s.stock_calls += 1;
            let payload = p.get("payload").cloned().unwrap_or_default();
            let skus = read_skus(&payload);
            match skus {
                None => refuse("5", "E005: Invalid Request Format"),
                Some(skus) if skus.is_empty() => refuse("30", "E030: Empty Request"),
                Some(skus) if skus.len() > 50 => refuse("4171", "The number of SKUs in one request cannot exceed 50"),
                Some(skus) => {
                    let shop = s.shops.entry(seller).or_default();
                    let mut detail = Vec::new();
                    for (item, sku, qty) in skus {
                        match shop.stock.get_mut(&(item.clone(), sku.clone())) {
                            Some(level) if qty >= 0 => *level = qty,
                            Some(_) => detail.push(json!({ "item_id": item, "sku_id": sku, "code": "4105", "message": "Quantity cannot be negative" })),
                            None => detail.push(json!({ "item_id": item, "sku_id": sku, "code": "4104", "message": "SKU not found" })),
                        }
                    }
                    if detail.is_empty() {
                        ok(json!({ "data": {} }))
                    } else {
                        Json(json!({ "type": "ISP", "code": "501", "message": "E501: Update product failed", "detail": detail, "request_id": token("", 8) })).into_response()
                    }
                }
            }
        }
        _ => (
            StatusCode::NOT_FOUND,
            Json(json!({ "type": "ISV", "code": "InvalidApiPath", "message": "The specified API path is invalid" })),
        )
            .into_response(),
    }
}

fn orders_get(s: &Inner, seller: &str, p: &BTreeMap<String, String>) -> Answer {
    let Some(after) = p.get("update_after").or(p.get("created_after")).and_then(|t| parse_iso(t)) else {
        return refuse("17", "E017: Invalid Date Format");
    };
    let before = match p.get("update_before").or(p.get("created_before")) {
        Some(t) => match parse_iso(t) {
            Some(b) => b,
            None => return refuse("17", "E017: Invalid Date Format"),
        },
        None => i64::MAX,
    };
    let offset: i64 = p.get("offset").and_then(|o| o.parse().ok()).unwrap_or(0);
    let limit: i64 = p.get("limit").and_then(|o| o.parse().ok()).unwrap_or(100);
    if !(0..=5000).contains(&offset) {
        return refuse("14", "E014: Invalid Offset");
    }
    if !(1..=100).contains(&limit) {
        return refuse("19", "E019: Invalid Limit");
    }
    let mut orders: Vec<&Order> = s
        .shops
        .get(seller)
        .map(|x| x.orders.values().filter(|o| o.updated_at >= after && o.updated_at < before).collect())
        .unwrap_or_default();
    orders.sort_by(|a, b| (a.updated_at, &a.id).cmp(&(b.updated_at, &b.id)));
    let count = orders.len();
    let page: Vec<Value> = orders.iter().skip(offset as usize).take(limit as usize).map(|o| header(o)).collect();
    ok(json!({ "data": { "count": page.len().to_string(), "countTotal": count, "orders": page } }))
}

/// A seller's products, a page at a time (`filter` all, live, inactive or deleted; at most
/// 50 a page; `offset` up to 10,000), each with its SKUs as Lazada writes them.
fn products_get(s: &Inner, seller: &str, p: &BTreeMap<String, String>) -> Answer {
    let offset: i64 = p.get("offset").and_then(|o| o.parse().ok()).unwrap_or(0);
    let limit: i64 = p.get("limit").and_then(|o| o.parse().ok()).unwrap_or(20);
    if !(0..=10_000).contains(&offset) {
        return refuse("14", "E014: Invalid Offset");
    }
    if !(1..=50).contains(&limit) {
        return refuse("19", "E019: Invalid Limit, Limit should not exceed a maximum of 50");
    }
    let filter = p.get("filter").map(String::as_str).unwrap_or("all");
    let wanted = |status: &str| match filter {
        "all" => status != "deleted",
        "live" => status.is_empty() || status == "active",
        "inactive" => status == "inactive",
        "deleted" => status == "deleted",
        _ => false,
    };
    if !["all", "live", "inactive", "deleted"].contains(&filter) {
        return refuse("36", "E036: Invalid status filter");
    }
    let shop = s.shops.get(seller).cloned().unwrap_or_default();
    let mut items: Vec<String> = shop.stock.keys().map(|(i, _)| i.clone()).collect();
    items.dedup();
    let products: Vec<Value> = items.iter().filter_map(|item| product_json(&shop, item, wanted)).collect();
    let total = products.len();
    let page: Vec<Value> = products.into_iter().skip(offset as usize).take(limit as usize).collect();
    ok(json!({ "data": { "total_products": total, "products": page } }))
}

/// A product as GetProducts and GetProductItem write it, with its SKUs `wanted` lets through
/// (`None` when it lets none).
fn product_json(shop: &ShopData, item: &str, wanted: impl Fn(&str) -> bool) -> Option<Value> {
    let item = &item.to_string();
    let skus: Vec<(String, Listing)> = shop
        .stock
        .keys()
        .filter(|(i, _)| i == item)
        .map(|(i, k)| (k.clone(), shop.listing(i, k)))
        .filter(|(_, l)| wanted(&l.status))
        .collect();
    let first = skus.first()?.1.clone();
    let updated = skus.iter().map(|(_, l)| l.updated_at).max().unwrap_or(0) * 1000;
    let status = if skus.iter().all(|(_, l)| l.status == "deleted") {
        "Deleted"
    } else if skus.iter().all(|(_, l)| l.status == "inactive") {
        "InActive"
    } else {
        "Active"
    };
    let skus: Vec<Value> = skus
        .iter()
        .map(|(sku, l)| {
            let qty = shop.stock[&(item.clone(), sku.clone())];
            let props: serde_json::Map<String, Value> =
                l.options.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
            json!({ "SkuId": sku.parse::<i64>().unwrap_or(0), "SellerSku": l.seller_sku,
                "ShopSku": format!("{item}_TH-{sku}"), "Status": if l.status.is_empty() { "active" } else { l.status.as_str() },
                "quantity": qty, "Available": qty, "price": crate::satang(&l.price) as f64 / 100.0, "special_price": 0.0,
                "Images": [format!("https://th-live.slatic.net/p/{item}-{sku}.jpg")],
                "Url": format!("https://www.lazada.co.th/-i{item}-s{sku}.html"), "package_weight": "0.3", "saleProp": props })
        })
        .collect();
    Some(json!({ "item_id": item.parse::<i64>().unwrap_or(0), "primary_category": 10000345,
        "created_time": updated.to_string(), "updated_time": updated.to_string(), "status": status,
        "images": [format!("https://th-live.slatic.net/p/{item}.jpg")],
        "attributes": { "name": first.name, "description": "", "brand": "No Brand" }, "skus": skus }))
}

/// An order's header as Lazada writes it: every value text.
fn header(o: &Order) -> Value {
    let price: i64 = o.lines.iter().map(|l| crate::satang(&l.paid_price) * l.quantity).sum();
    json!({ "order_id": o.id, "order_number": format!("3{}", o.id), "statuses": [o.status],
        "created_at": iso(o.created_at), "updated_at": iso(o.updated_at),
        "price": crate::baht(price), "shipping_fee": o.shipping_fee, "voucher": "0.00", "voucher_platform": "0.00", "voucher_seller": "0.00",
        "payment_method": if o.cod { "COD" } else { "MIXEDCARD" }, "items_count": o.lines.iter().map(|l| l.quantity).sum::<i64>().to_string(),
        "customer_first_name": o.buyer, "customer_last_name": "", "buyer_note": "",
        "address_shipping": { "first_name": o.buyer, "last_name": "", "phone": o.phone, "address1": o.address, "address2": "",
            "address3": o.province, "address4": "", "address5": o.postcode, "city": o.district, "post_code": o.postcode, "country": "Thailand" } })
}

/// An order of the shop's items: one per unit, as Lazada writes them, with their package
/// once packed and the buyer's request to cancel while it waits.
fn items(o: &Order, shop: &ShopData) -> Vec<Value> {
    let (package_id, tracking, provider) = match shop.packages.get(&o.id) {
        Some(p) => (p.id.as_str(), p.tracking_no.as_str(), "LEX TH"),
        None => ("", "", ""),
    };
    let (reverse, reason) = match shop.cancel_requests.get(&o.id) {
        Some((id, reason)) => (id.as_str(), reason.as_str()),
        None => ("", ""),
    };
    let mut out = Vec::new();
    let mut n = 0;
    for l in &o.lines {
        for _ in 0..l.quantity {
            n += 1;
            out.push(json!({ "order_item_id": format!("{}{:02}", o.id, n), "order_id": o.id, "sku": l.seller_sku,
                "shop_sku": format!("{}_TH-{}", l.item_id, l.model_id), "sku_id": l.model_id, "product_id": l.item_id, "name": l.name,
                "variation": "", "item_price": l.price, "paid_price": l.paid_price, "voucher_amount": "0.00", "voucher_seller": "0.00",
                "voucher_platform": "0.00", "shipping_amount": "0.00", "currency": "THB", "status": o.status,
                "package_id": package_id, "tracking_code": tracking, "shipment_provider": provider, "shipping_type": "Dropshipping",
                "need_cancel_confirm": !reverse.is_empty(), "is_cancel_pending": !reverse.is_empty(), "reverse_order_id": reverse, "reason": reason,
                "created_at": (o.created_at * 1000).to_string(), "updated_at": (o.updated_at * 1000).to_string() }));
        }
    }
    out
}

/// The SKUs of a stock payload: (item, sku, quantity); `None` for a payload that is not the
/// documented XML.
fn read_skus(payload: &str) -> Option<Vec<(String, String, i64)>> {
    let inner = payload.trim().strip_prefix("<Request><Product><Skus>")?.strip_suffix("</Skus></Product></Request>")?;
    let tag = |s: &str, t: &str| -> Option<String> {
        let open = format!("<{t}>");
        let close = format!("</{t}>");
        let start = s.find(&open)? + open.len();
        let end = s[start..].find(&close)? + start;
        Some(s[start..end].to_string())
    };
    let mut out = Vec::new();
    for chunk in inner.split("</Sku>").filter(|c| !c.trim().is_empty()) {
        let chunk = chunk.trim().strip_prefix("<Sku>")?;
        let qty: i64 = tag(chunk, "Quantity")?.trim().parse().ok()?;
        out.push((tag(chunk, "ItemId")?, tag(chunk, "SkuId")?, qty));
    }
    Some(out)
}
