//! TikTok Shop's Partner API 202309 as it behaves, for one app: the API host and the auth
//! host on one port.
//!
//! Every API call carries `app_key`, `timestamp` (seconds; refused more than five minutes
//! old or 30 s ahead) and `sign` in its query, a shop's call its `shop_cipher`, and the
//! access token in `x-tts-access-token`. The signature is recomputed here: lower-case hex
//! HMAC-SHA256 under the app secret of `secret + path + query sorted by name (without sign
//! and access_token) + raw body + secret`. Answers are `{code, message, request_id, data}`,
//! `code` 0 on success: 106001 a wrong signature, 105002 an expired access token, 36009004
//! a bad timestamp, token or cipher, 36009002 (HTTP 429) throttling. Token expiry times are
//! absolute. Webhooks are signed over `app_key + raw body`.

use std::collections::{BTreeMap, HashMap};

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{any, get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::shopee::{html_escape, url_form};
use crate::{hmac_hex, now_s, serve_on, token, Listing, Order, Server, Shared, Throttle};

mod cancel;
mod fulfil;
mod returns;

/// Access token life, seconds (seven days).
const ACCESS_S: i64 = 7 * 24 * 3600;
/// Refresh token life, seconds (the authorization's year).
const REFRESH_S: i64 = 365 * 24 * 3600;

#[derive(Debug, Clone, Default)]
struct ShopData {
    name: String,
    cipher: String,
    /// (product, sku) → quantity.
    stock: BTreeMap<(String, String), i64>,
    /// (product, sku) → how the SKU reads, where it was put whole.
    listings: BTreeMap<(String, String), Listing>,
    orders: BTreeMap<String, Order>,
    /// package → the carrier's tracking number, once shipped.
    tracking: BTreeMap<String, String>,
    /// order → the buyer's request to cancel it.
    cancellations: BTreeMap<String, cancel::Cancel>,
    /// The idempotency keys of the answers taken.
    answered: std::collections::BTreeSet<String>,
    /// return id → a buyer's return.
    returns: BTreeMap<String, crate::Return>,
}

impl ShopData {
    fn listing(&self, product: &str, sku: &str) -> Listing {
        self.listings
            .get(&(product.to_string(), sku.to_string()))
            .cloned()
            .unwrap_or_else(|| Listing::plain(product, sku))
    }

    /// A product's status word (its first SKU's; `ACTIVATE` when none is set).
    fn product_status(&self, product: &str) -> String {
        let first = self.stock.keys().find(|(p, _)| p == product).map(|(p, k)| self.listing(p, k).status);
        first.filter(|s| !s.is_empty()).unwrap_or_else(|| "ACTIVATE".into())
    }

    /// A product as the 202309 product calls write it; `detail` adds each SKU's sales
    /// attributes (Get Product; Search Products leaves them out).
    fn product_json(&self, product: &str, detail: bool) -> Value {
        let keys: Vec<&(String, String)> = self.stock.keys().filter(|(p, _)| p == product).collect();
        let first = self.listing(product, &keys[0].1);
        let updated = keys.iter().map(|(p, k)| self.listing(p, k).updated_at).max().unwrap_or(0);
        let skus: Vec<Value> = keys
            .iter()
            .map(|(p, k)| {
                let l = self.listing(p, k);
                let mut sku = json!({ "id": k, "seller_sku": l.seller_sku,
                    "price": { "currency": "THB", "sale_price": l.price, "tax_exclusive_price": l.price },
                    "inventory": [{ "warehouse_id": "7068517275539719942", "quantity": self.stock[&(p.clone(), k.clone())] }] });
                if detail {
                    sku["sales_attributes"] = l
                        .options
                        .iter()
                        .enumerate()
                        .map(|(n, (name, value))| json!({ "id": format!("10000{n}"), "name": name, "value_id": format!("{k}{n}"), "value_name": value }))
                        .collect();
                }
                sku
            })
            .collect();
        json!({ "id": product, "title": first.name, "status": self.product_status(product), "skus": skus,
            "sales_regions": ["TH"], "create_time": first.updated_at, "update_time": updated,
            "main_images": [{ "height": 600, "width": 600, "uri": format!("tos-th/{product}"), "urls": [format!("https://p16-oec-sg.ibyteimg.com/{product}.jpeg")] }] })
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
    /// The redirect registered with the app (TikTok sends the seller back there).
    redirect: String,
    /// The sandbox's own base URL (label links point at it).
    base: String,
}

/// A running TikTok Shop sandbox.
pub struct TiktokSandbox {
    /// Its base URL (API and auth hosts alike).
    pub base_url: String,
    state: Shared<Inner>,
    _server: Server,
}

type Answer = Response;

fn refuse(status: StatusCode, code: i64, message: &str) -> Answer {
    (status, Json(json!({ "code": code, "message": message, "request_id": token("", 8), "data": null })))
        .into_response()
}

fn ok(data: Value) -> Answer {
    Json(json!({ "code": 0, "message": "Success", "request_id": token("", 8), "data": data })).into_response()
}

impl TiktokSandbox {
    /// A sandbox for the app `app_key` with its secret, on a port of its own.
    pub async fn start(app_key: &str, app_secret: &str) -> anyhow::Result<TiktokSandbox> {
        TiktokSandbox::start_on("127.0.0.1:0", app_key, app_secret).await
    }

    /// A sandbox listening on `addr`.
    pub async fn start_on(addr: &str, app_key: &str, app_secret: &str) -> anyhow::Result<TiktokSandbox> {
        let state = Shared::new(Inner { app_key: app_key.into(), app_secret: app_secret.into(), ..Default::default() });
        let app = Router::new()
            .route("/open/authorize", get(auth_page))
            .route("/sandbox/tiktok/authorize", post(authorize_form))
            .route("/api/v2/token/get", get(token_get))
            .route("/api/v2/token/refresh", get(token_refresh))
            .route("/sandbox/tiktok/doc/{file}", get(fulfil::document))
            .route("/{*path}", any(api))
            .with_state(state.clone());
        let server = serve_on(addr, app).await?;
        state.lock().base = server.base_url.clone();
        Ok(TiktokSandbox { base_url: server.base_url.clone(), state, _server: server })
    }

    /// Registers the app's redirect URL, where the authorize page sends the seller back.
    pub fn register_redirect(&self, url: &str) {
        self.state.lock().redirect = url.into();
    }

    /// Adds a shop (its cipher is made here).
    pub fn add_shop(&self, shop_id: &str, name: &str) {
        let mut s = self.state.lock();
        let shop = s.shops.entry(shop_id.into()).or_default();
        shop.name = name.into();
        shop.cipher = format!("ROW_{}", token("", 8));
    }

    /// Puts a SKU of a product with its quantity.
    pub fn add_listing(&self, shop_id: &str, product_id: &str, sku_id: &str, quantity: i64) {
        self.state
            .lock()
            .shops
            .entry(shop_id.into())
            .or_default()
            .stock
            .insert((product_id.into(), sku_id.into()), quantity);
    }

    /// Puts a SKU of a product as the shop lists it (its status the product's, e.g.
    /// `SELLER_DEACTIVATED`, or empty for `ACTIVATE`), with its quantity.
    pub fn put_listing(&self, shop_id: &str, listing: Listing, quantity: i64) {
        let key = (listing.item_id.clone(), listing.model_id.clone());
        let mut s = self.state.lock();
        let shop = s.shops.entry(shop_id.into()).or_default();
        shop.stock.insert(key.clone(), quantity);
        shop.listings.insert(key, listing);
    }

    /// The seller deletes a product: it reads `DELETED`.
    pub fn delete_item(&self, shop_id: &str, product_id: &str) {
        let mut s = self.state.lock();
        let Some(shop) = s.shops.get_mut(shop_id) else { return };
        let keys: Vec<(String, String)> = shop.stock.keys().filter(|(p, _)| p == product_id).cloned().collect();
        for (product, sku) in keys {
            let mut l = shop.listing(&product, &sku);
            l.status = "DELETED".into();
            l.updated_at = now_s();
            shop.listings.insert((product, sku), l);
        }
    }

    /// How many product calls were taken.
    pub fn product_calls(&self) -> u64 {
        self.state.lock().product_calls
    }

    /// A SKU's quantity as we last set it.
    pub fn stock(&self, shop_id: &str, product_id: &str, sku_id: &str) -> Option<i64> {
        self.state
            .lock()
            .shops
            .get(shop_id)
            .and_then(|s| s.stock.get(&(product_id.to_string(), sku_id.to_string())).copied())
    }

    /// How many inventory updates were taken.
    pub fn stock_calls(&self) -> u64 {
        self.state.lock().stock_calls
    }

    /// Places or replaces an order.
    pub fn put_order(&self, shop_id: &str, order: Order) {
        self.state.lock().shops.entry(shop_id.into()).or_default().orders.insert(order.id.clone(), order);
    }

    /// The carrier's tracking number of an order's package, once shipped.
    pub fn tracking(&self, shop_id: &str, order_id: &str) -> Option<String> {
        self.state.lock().shops.get(shop_id)?.tracking.get(&fulfil::package_id(order_id)).cloned()
    }

    /// The buyer asks to cancel an order; the seller must answer. The request's id.
    pub fn ask_cancel(&self, shop_id: &str, order_id: &str, reason: &str) -> Option<String> {
        let mut s = self.state.lock();
        let shop = s.shops.get_mut(shop_id)?;
        let o = shop.orders.get_mut(order_id)?;
        o.updated_at = now_s().max(o.updated_at + 1);
        let id = format!("40{}", o.id);
        let c = cancel::Cancel {
            id: id.clone(),
            status: cancel::PENDING.into(),
            reason_text: reason.into(),
            create_time: now_s(),
        };
        shop.cancellations.insert(order_id.into(), c);
        Some(id)
    }

    /// An order's status now.
    pub fn status(&self, shop_id: &str, order_id: &str) -> Option<String> {
        self.state.lock().shops.get(shop_id)?.orders.get(order_id).map(|o| o.status.clone())
    }

    /// Moves an order to `status` now.
    pub fn set_status(&self, shop_id: &str, order_id: &str, status: &str) -> Option<Order> {
        let mut s = self.state.lock();
        let o = s.shops.get_mut(shop_id)?.orders.get_mut(order_id)?;
        o.status = status.into();
        o.updated_at = now_s().max(o.updated_at + 1);
        Some(o.clone())
    }

    /// A seller authorizes the app (for every shop of the sandbox): the code the redirect
    /// would carry.
    pub fn authorize(&self, seller: &str) -> String {
        let code = token("TTP_", 12);
        self.state.lock().codes.insert(code.clone(), (seller.into(), now_s() + 1800));
        code
    }

    /// Every access token ends now.
    pub fn expire_access(&self) {
        for (_, (_, exp)) in self.state.lock().access.iter_mut() {
            *exp = now_s() - 1;
        }
    }

    /// The authorization ends: every token is refused.
    pub fn end_authorization(&self) {
        let mut s = self.state.lock();
        s.access.clear();
        s.refresh.clear();
    }

    /// Refuses calls past `per_second` a second (0: no limit); calls refused so far.
    pub fn throttle(&self, per_second: u32) -> u64 {
        let mut s = self.state.lock();
        s.throttle.per_second = per_second;
        s.throttle.refused
    }

    /// An order-status webhook (type 1) for the order as it stands, and its signature. The
    /// webhook writes a cancellation `CANCEL`.
    pub fn order_push(&self, shop_id: &str, order_id: &str) -> Option<(String, String)> {
        let s = self.state.lock();
        let o = s.shops.get(shop_id)?.orders.get(order_id)?;
        let status = if o.status == "CANCELLED" { "CANCEL" } else { o.status.as_str() };
        let body = json!({ "type": 1, "tts_notification_id": token("", 8), "shop_id": shop_id, "timestamp": now_s(),
            "data": { "order_id": o.id, "order_status": status, "is_on_hold_order": status == "ON_HOLD", "update_time": o.updated_at } })
        .to_string();
        let signature = hmac_hex(s.app_secret.as_bytes(), format!("{}{body}", s.app_key).as_bytes());
        Some((body, signature))
    }

    /// Sends an order's webhook to `url`: the HTTP status it was answered with.
    pub async fn push_order(&self, shop_id: &str, order_id: &str, url: &str) -> u16 {
        let Some((body, signature)) = self.order_push(shop_id, order_id) else { return 0 };
        crate::deliver(url, &[("authorization", signature)], body).await.0
    }
}

fn token_answer(s: &mut Inner, seller: &str, keep_refresh: Option<String>) -> Answer {
    let access = token("TTP_", 20);
    let refresh = keep_refresh.unwrap_or_else(|| token("TTP_", 24));
    let access_exp = now_s() + ACCESS_S;
    let refresh_exp = s.refresh.get(&refresh).map(|(_, e)| *e).unwrap_or(now_s() + REFRESH_S);
    s.access.insert(access.clone(), (seller.into(), access_exp));
    s.refresh.insert(refresh.clone(), (seller.into(), refresh_exp));
    ok(json!({ "access_token": access, "access_token_expire_in": access_exp, "refresh_token": refresh,
        "refresh_token_expire_in": refresh_exp, "open_id": seller, "seller_name": seller, "seller_base_region": "TH", "user_type": 0 }))
}

fn check_app(s: &Inner, q: &HashMap<String, String>) -> Result<(), Answer> {
    if q.get("app_key") != Some(&s.app_key) || q.get("app_secret") != Some(&s.app_secret) {
        return Err(refuse(StatusCode::OK, 36004004, "invalid app_key or app_secret"));
    }
    Ok(())
}

async fn token_get(State(state): State<Shared<Inner>>, Query(q): Query<HashMap<String, String>>) -> Answer {
    let mut s = state.lock();
    if let Err(refused) = check_app(&s, &q) {
        return refused;
    }
    if q.get("grant_type").map(String::as_str) != Some("authorized_code") {
        return refuse(StatusCode::OK, 36004004, "invalid grant_type");
    }
    match s.codes.remove(q.get("auth_code").map(String::as_str).unwrap_or_default()) {
        Some((seller, exp)) if exp > now_s() => token_answer(&mut s, &seller, None),
        _ => refuse(StatusCode::OK, 36004004, "invalid auth_code"),
    }
}

async fn token_refresh(State(state): State<Shared<Inner>>, Query(q): Query<HashMap<String, String>>) -> Answer {
    let mut s = state.lock();
    if let Err(refused) = check_app(&s, &q) {
        return refused;
    }
    let given = q.get("refresh_token").cloned().unwrap_or_default();
    match s.refresh.get(&given).cloned() {
        Some((seller, exp)) if exp > now_s() && q.get("grant_type").map(String::as_str) == Some("refresh_token") => {
            token_answer(&mut s, &seller, Some(given))
        }
        _ => refuse(StatusCode::OK, 36004004, "invalid refresh_token"),
    }
}

async fn auth_page(State(state): State<Shared<Inner>>, Query(q): Query<HashMap<String, String>>) -> Answer {
    let s = state.lock();
    let shops: Vec<String> = s.shops.values().map(|x| html_escape(&x.name)).collect();
    Html(format!(
        r#"<!doctype html><meta charset="utf-8"><title>TikTok Shop (sandbox)</title><h1>TikTok Shop Seller Center (sandbox)</h1>
<p>Service {} asks to reach your shops: {}</p><form method="post" action="/sandbox/tiktok/authorize">
<input type="hidden" name="state" value="{}"><input type="hidden" name="redirect" value="{}"><button type="submit" id="authorize">Authorize</button></form>"#,
        html_escape(q.get("service_id").map(String::as_str).unwrap_or_default()),
        shops.join(", "),
        html_escape(q.get("state").map(String::as_str).unwrap_or_default()),
        html_escape(&s.redirect),
    ))
    .into_response()
}

async fn authorize_form(State(state): State<Shared<Inner>>, body: Bytes) -> Answer {
    let form = url_form(&body);
    let code = token("TTP_", 12);
    state.lock().codes.insert(code.clone(), ("seller".into(), now_s() + 1800));
    let mut back =
        reqwest::Url::parse(form.get("redirect").map(String::as_str).unwrap_or("http://invalid/")).expect("a URL");
    back.query_pairs_mut()
        .append_pair("code", &code)
        .append_pair("state", form.get("state").map(String::as_str).unwrap_or_default());
    Redirect::to(back.as_str()).into_response()
}

/// Every signed API call, by path.
async fn api(State(state): State<Shared<Inner>>, method: Method, uri: Uri, headers: HeaderMap, body: Bytes) -> Answer {
    let path = uri.path().to_string();
    let q: BTreeMap<String, String> =
        uri.query().map(|q| url_form(q.as_bytes()).into_iter().collect()).unwrap_or_default();
    let mut s = state.lock();
    if !s.throttle.take() {
        return refuse(StatusCode::TOO_MANY_REQUESTS, 36009002, "Too many requests");
    }
    if q.get("app_key") != Some(&s.app_key) {
        return refuse(StatusCode::OK, 36009004, "invalid app_key");
    }
    let ts: i64 = q.get("timestamp").and_then(|t| t.parse().ok()).unwrap_or(0);
    let now = now_s();
    if ts < now - 300 || ts > now + 30 {
        return refuse(StatusCode::OK, 36009004, "invalid timestamp");
    }
    let Some(sign) = q.get("sign") else {
        return refuse(StatusCode::OK, 36009004, "missing signature");
    };
    let mut base = path.clone();
    for (k, v) in q.iter().filter(|(k, _)| *k != "sign" && *k != "access_token") {
        base.push_str(k);
        base.push_str(v);
    }
    let wrapped = [s.app_secret.as_bytes(), base.as_bytes(), &body, s.app_secret.as_bytes()].concat();
    if hmac_hex(s.app_secret.as_bytes(), &wrapped) != *sign {
        return refuse(StatusCode::OK, 106001, "Invalid credentials: the sign is invalid");
    }
    let given = headers.get("x-tts-access-token").and_then(|v| v.to_str().ok()).unwrap_or_default();
    match s.access.get(given) {
        None => return refuse(StatusCode::OK, 36009004, "invalid x-tts-access-token"),
        Some((_, exp)) if *exp <= now => return refuse(StatusCode::OK, 105002, "Expired credentials"),
        Some(_) => {}
    }
    if path == "/authorization/202309/shops" {
        let shops: Vec<Value> = s
            .shops
            .iter()
            .map(|(id, x)| json!({ "id": id, "name": x.name, "region": "TH", "seller_type": "LOCAL", "cipher": x.cipher, "code": format!("TH{id}") }))
            .collect();
        return ok(json!({ "shops": shops }));
    }
    let cipher = q.get("shop_cipher").cloned().unwrap_or_default();
    let Some(shop_id) =
        s.shops.iter().find(|(_, x)| x.cipher == cipher && !cipher.is_empty()).map(|(id, _)| id.clone())
    else {
        return refuse(StatusCode::OK, 36009004, "unexpected shop_cipher");
    };
    let body_json: Value =
        if body.is_empty() { Value::Null } else { serde_json::from_slice(&body).unwrap_or(Value::Null) };
    match (method, path.as_str()) {
        (Method::POST, "/order/202309/orders/search") => {
            let size: usize = q.get("page_size").and_then(|p| p.parse().ok()).unwrap_or(0);
            if !(1..=100).contains(&size) {
                return refuse(StatusCode::OK, 36009022, "page_size must be 1-100");
            }
            let ge = body_json["update_time_ge"].as_i64().unwrap_or(0);
            let lt = body_json["update_time_lt"].as_i64().unwrap_or(i64::MAX);
            let mut orders: Vec<&Order> =
                s.shops[&shop_id].orders.values().filter(|o| o.updated_at >= ge && o.updated_at < lt).collect();
            orders.sort_by(|a, b| (a.updated_at, &a.id).cmp(&(b.updated_at, &b.id)));
            let start: usize =
                q.get("page_token").and_then(|t| t.strip_prefix("pt_")).and_then(|t| t.parse().ok()).unwrap_or(0);
            let page: Vec<Value> =
                orders.iter().skip(start).take(size).map(|o| order_json(o, &s.shops[&shop_id])).collect();
            let next =
                if start + page.len() < orders.len() { format!("pt_{}", start + page.len()) } else { String::new() };
            ok(json!({ "next_page_token": next, "total_count": orders.len(), "orders": page }))
        }
        (Method::GET, "/order/202309/orders") => {
            let ids: Vec<String> = q
                .get("ids")
                .map(|i| i.split(',').map(str::to_string).filter(|x| !x.is_empty()).collect())
                .unwrap_or_default();
            if ids.is_empty() || ids.len() > 50 {
                return refuse(StatusCode::OK, 36009022, "ids must hold 1-50 order ids");
            }
            let shop = &s.shops[&shop_id];
            if ids.iter().any(|id| !shop.orders.contains_key(id)) {
                return refuse(StatusCode::OK, 21008111, "The order does not belong to the seller");
            }
            ok(json!({ "orders": ids.iter().map(|id| order_json(&shop.orders[id], shop)).collect::<Vec<_>>() }))
        }
        (Method::POST, "/product/202309/products/search") => {
            s.product_calls += 1;
            let size: usize = q.get("page_size").and_then(|p| p.parse().ok()).unwrap_or(0);
            if !(1..=100).contains(&size) {
                return refuse(StatusCode::OK, 12019109, "page size is invalid");
            }
            let status = body_json["status"].as_str().unwrap_or("ALL").to_string();
            let shop = &s.shops[&shop_id];
            let mut products: Vec<String> = shop.stock.keys().map(|(p, _)| p.clone()).collect();
            products.dedup();
            // Deleted products are found only by asking for them.
            products.retain(|p| {
                let st = shop.product_status(p);
                if status == "ALL" {
                    st != "DELETED"
                } else {
                    st == status
                }
            });
            let start: usize =
                q.get("page_token").and_then(|t| t.strip_prefix("pp_")).and_then(|t| t.parse().ok()).unwrap_or(0);
            let page: Vec<Value> =
                products.iter().skip(start).take(size).map(|p| shop.product_json(p, false)).collect();
            let next =
                if start + page.len() < products.len() { format!("pp_{}", start + page.len()) } else { String::new() };
            ok(json!({ "next_page_token": next, "total_count": products.len(), "products": page }))
        }
        (Method::GET, p) if p.starts_with("/product/202309/products/") => {
            s.product_calls += 1;
            let product = p.trim_start_matches("/product/202309/products/");
            let shop = &s.shops[&shop_id];
            if !shop.stock.keys().any(|(x, _)| x == product) || shop.product_status(product) == "DELETED" {
                return refuse(StatusCode::OK, 12052032, "The product does not exist");
            }
            ok(shop.product_json(product, true))
        }
        (Method::POST, p) if p.starts_with("/product/202309/products/") && p.ends_with("/inventory/update") => {
            s.stock_calls += 1;
            let product =
                p.trim_start_matches("/product/202309/products/").trim_end_matches("/inventory/update").to_string();
            let skus = body_json["skus"].as_array().cloned().unwrap_or_default();
            if skus.len() > 100 {
                return refuse(StatusCode::OK, 12052050, "more than 100 SKUs");
            }
            let shop = s.shops.get_mut(&shop_id).expect("found above");
            if !shop.stock.keys().any(|(prod, _)| *prod == product) {
                return refuse(StatusCode::OK, 12052556, "The product does not exist");
            }
            let mut errors = Vec::new();
            for sku in skus {
                let id = sku["id"].as_str().unwrap_or_default().to_string();
                let qty = sku["inventory"][0]["quantity"].as_i64().unwrap_or(-1);
                match shop.stock.get_mut(&(product.clone(), id.clone())) {
                    Some(level) if (0..=99_999).contains(&qty) => *level = qty,
                    Some(_) => errors.push(json!({ "code": 12052055, "message": "The quantity is outside the limits", "detail": { "sku_id": id } })),
                    None => errors.push(json!({ "code": 12052556, "message": "The SKU id does not exist", "detail": { "sku_id": id } })),
                }
            }
            ok(json!({ "errors": errors }))
        }
        (Method::POST, "/return_refund/202309/returns/search") => returns::search(&s.shops[&shop_id], &q, &body_json),
        (method, p) if p.starts_with("/return_refund/202309/") => {
            let shop = s.shops.get_mut(&shop_id).expect("found above");
            cancel::calls(shop, method == Method::POST, p.trim_start_matches("/return_refund/202309/"), &q, &body_json)
        }
        (method, p) if p.starts_with("/fulfillment/202309/packages/") => {
            let base = s.base.clone();
            let shop = s.shops.get_mut(&shop_id).expect("found above");
            fulfil::packages(
                &base,
                shop,
                method == Method::POST,
                p.trim_start_matches("/fulfillment/202309/packages/"),
                &q,
            )
        }
        _ => refuse(StatusCode::NOT_FOUND, 36009009, "Invalid path"),
    }
}

/// An order of the shop as the 202309 order calls write it (money as text, a line item per
/// unit), marked while the buyer's request to cancel it waits.
fn order_json(o: &Order, shop: &ShopData) -> Value {
    let mut lines = Vec::new();
    for l in &o.lines {
        for n in 0..l.quantity {
            lines.push(json!({ "id": format!("{}{}{n}", o.id, l.model_id), "sku_id": l.model_id, "product_id": l.item_id,
                "product_name": l.name, "sku_name": "", "seller_sku": l.seller_sku, "original_price": l.price, "sale_price": l.paid_price,
                "seller_discount": "0", "platform_discount": "0", "currency": "THB", "display_status": o.status,
                "package_id": if o.status == "UNPAID" { String::new() } else { fulfil::package_id(&o.id) } }));
        }
    }
    let items = o.items_satang();
    let ship = crate::satang(&o.shipping_fee);
    let address = if o.status == "UNPAID" || o.status == "ON_HOLD" {
        json!({})
    } else {
        json!({ "name": o.buyer, "phone_number": o.phone, "full_address": o.address, "postal_code": o.postcode, "region_code": "TH",
            "district_info": [{ "address_level_name": "Province", "address_name": o.province, "address_level": "L1" },
                              { "address_level_name": "District", "address_name": o.district, "address_level": "L2" }] })
    };
    json!({ "id": o.id, "status": o.status, "create_time": o.created_at, "update_time": o.updated_at, "is_cod": o.cod,
        "payment_method_name": if o.cod { "Cash on delivery" } else { "TrueMoney" }, "buyer_message": "",
        "payment": { "currency": "THB", "sub_total": crate::baht(items), "shipping_fee": o.shipping_fee, "seller_discount": "0",
            "platform_discount": "0", "total_amount": crate::baht(items + ship), "original_shipping_fee": o.shipping_fee,
            "shipping_fee_seller_discount": "0", "shipping_fee_platform_discount": "0" },
        "recipient_address": address, "line_items": lines, "packages": fulfil::packages_json(o),
        "is_buyer_request_cancel": cancel::waiting(shop, &o.id) })
}
