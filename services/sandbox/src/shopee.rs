//! Shopee Open Platform v2 as it behaves, for one partner app.
//!
//! Every call's query carries `partner_id`, `timestamp` (seconds; refused more than five
//! minutes away) and `sign`, recomputed here as lower-case hex HMAC-SHA256 under the partner
//! key of `partner_id + path + timestamp`, plus `access_token + shop_id` for a shop's call.
//! A refusal is `{"request_id","error","message"}` (`error_param`, `error_sign`,
//! `error_auth`), HTTP 400 or 403. Codes are single use for ten minutes; a refresh token is
//! spent by its use (the next call with it is refused) and lasts 30 days; an access token
//! lasts four hours. Pushes are signed over `callback URL + "|" + raw body`; a push the
//! owner drops is kept for `get_lost_push_message` until confirmed.

mod cancel;
mod returns;
mod ship;

use std::collections::{BTreeMap, HashMap};

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::{hmac_hex, now_s, serve_on, token, Listing, Order, Server, Shared, Throttle};

/// Access token life, seconds.
const ACCESS_S: i64 = 4 * 3600;
/// Refresh token life, seconds.
const REFRESH_S: i64 = 30 * 24 * 3600;

/// A shop of the sandbox.
#[derive(Debug, Clone, Default)]
pub struct ShopData {
    name: String,
    /// (item, model) → seller stock.
    stock: BTreeMap<(i64, i64), i64>,
    /// (item, model) → how the listing reads, where it was put whole.
    listings: BTreeMap<(i64, i64), Listing>,
    /// (item, model) → units a promotion holds: a lower seller stock is taken as this many.
    reserved: BTreeMap<(i64, i64), i64>,
    orders: BTreeMap<String, Order>,
    /// order_sn → its shipment, once arranged.
    shipments: BTreeMap<String, ship::Shipment>,
    /// order_sn → the buyer's cancellation request.
    cancels: BTreeMap<String, cancel::Request>,
    /// return_sn → a buyer's return.
    returns: BTreeMap<String, crate::Return>,
}

impl ShopData {
    /// The listing of (item, model), as put or as known by its stock only.
    fn listing(&self, item: i64, model: i64) -> Listing {
        self.listings.get(&(item, model)).cloned().unwrap_or_else(|| {
            Listing::plain(&item.to_string(), &if model == 0 { String::new() } else { model.to_string() })
        })
    }

    /// An item's status word (its first model's).
    fn item_status(&self, item: i64) -> String {
        let status = self.stock.keys().find(|(i, _)| *i == item).map(|(i, m)| self.listing(*i, *m).status);
        status.filter(|s| !s.is_empty()).unwrap_or_else(|| "NORMAL".into())
    }

    /// The models of an item, in id order (`[0]` for one without models).
    fn models(&self, item: i64) -> Vec<i64> {
        self.stock.keys().filter(|(i, _)| *i == item).map(|(_, m)| *m).collect()
    }
}

#[derive(Default)]
struct Inner {
    partner_id: i64,
    partner_key: String,
    shops: BTreeMap<i64, ShopData>,
    codes: HashMap<String, (i64, i64)>,
    access: HashMap<String, (i64, i64)>,
    refresh: HashMap<String, (i64, i64)>,
    lost: Vec<(i64, i64, String)>,
    next_lost_id: i64,
    throttle: Throttle,
    stock_calls: u64,
    product_calls: u64,
    refreshes: u64,
    /// The carriers' tracking numbers given so far.
    next_tracking: i64,
    /// Answers to buyers' cancellation requests taken (refused ones too).
    cancel_calls: u64,
    /// Return lists and details taken.
    return_calls: u64,
    /// The push callback URL the partner registered (pushes are signed over it).
    callback_url: Option<String>,
}

/// A running Shopee sandbox.
pub struct ShopeeSandbox {
    /// Its base URL (the API host).
    pub base_url: String,
    state: Shared<Inner>,
    _server: Server,
}

type Answer = Response;

fn refuse(status: StatusCode, error: &str, message: &str) -> Answer {
    (status, Json(json!({ "request_id": token("", 8), "error": error, "message": message }))).into_response()
}

fn ok(mut fields: Value) -> Answer {
    let obj = fields.as_object_mut().expect("an object");
    obj.insert("request_id".into(), json!(token("", 8)));
    obj.entry("error").or_insert(json!(""));
    obj.entry("message").or_insert(json!(""));
    Json(fields).into_response()
}

impl ShopeeSandbox {
    /// A sandbox for the partner `partner_id` with its key, on a port of its own.
    pub async fn start(partner_id: i64, partner_key: &str) -> anyhow::Result<ShopeeSandbox> {
        ShopeeSandbox::start_on("127.0.0.1:0", partner_id, partner_key).await
    }

    /// A sandbox listening on `addr`.
    pub async fn start_on(addr: &str, partner_id: i64, partner_key: &str) -> anyhow::Result<ShopeeSandbox> {
        let state = Shared::new(Inner {
            partner_id,
            partner_key: partner_key.into(),
            next_lost_id: 1000,
            ..Default::default()
        });
        let app = Router::new()
            .route("/api/v2/shop/auth_partner", get(auth_page))
            .route("/sandbox/shopee/authorize", post(authorize_form))
            .route("/api/v2/auth/token/get", post(token_get))
            .route("/api/v2/auth/access_token/get", post(token_refresh))
            .route("/api/v2/shop/get_shop_info", get(shop_info))
            .route("/api/v2/order/get_order_list", get(order_list))
            .route("/api/v2/order/get_order_detail", get(order_detail))
            .route("/api/v2/product/update_stock", post(update_stock))
            .route("/api/v2/product/get_item_list", get(item_list))
            .route("/api/v2/product/get_item_base_info", get(item_base_info))
            .route("/api/v2/product/get_model_list", get(model_list))
            .route("/api/v2/logistics/get_shipping_parameter", get(ship::shipping_parameter))
            .route("/api/v2/logistics/ship_order", post(ship::ship_order))
            .route("/api/v2/logistics/get_tracking_number", get(ship::tracking_number))
            .route("/api/v2/logistics/create_shipping_document", post(ship::create_document))
            .route("/api/v2/logistics/get_shipping_document_result", post(ship::document_result))
            .route("/api/v2/logistics/download_shipping_document", post(ship::download_document))
            .route("/api/v2/order/handle_buyer_cancellation", post(cancel::handle_buyer_cancellation))
            .route("/api/v2/returns/get_return_list", get(returns::return_list))
            .route("/api/v2/returns/get_return_detail", get(returns::return_detail))
            .route("/api/v2/push/get_lost_push_message", get(lost))
            .route("/api/v2/push/confirm_consumed_lost_push_message", post(confirm_lost))
            .route("/sandbox/shopee/orders", post(control_order))
            .route("/sandbox/shopee/returns", post(returns::control_return))
            .route("/sandbox/shopee/stock", get(control_stock))
            .route("/sandbox/shopee/end-authorization", post(control_end))
            .with_state(state.clone());
        let server = serve_on(addr, app).await?;
        Ok(ShopeeSandbox { base_url: server.base_url.clone(), state, _server: server })
    }

    /// Adds a shop.
    pub fn add_shop(&self, shop_id: i64, name: &str) {
        self.state.lock().shops.entry(shop_id).or_default().name = name.into();
    }

    /// Puts a listing's model with its stock (`model_id` 0 for an item without models).
    pub fn add_listing(&self, shop_id: i64, item_id: i64, model_id: i64, stock: i64) {
        self.state.lock().shops.entry(shop_id).or_default().stock.insert((item_id, model_id), stock);
    }

    /// Puts a listing's variation as the shop lists it, with its stock (`model_id` empty for
    /// an item without models).
    pub fn put_listing(&self, shop_id: i64, listing: Listing, stock: i64) {
        let item: i64 = listing.item_id.parse().expect("a numeric item id");
        let model: i64 =
            if listing.model_id.is_empty() { 0 } else { listing.model_id.parse().expect("a numeric model id") };
        let mut s = self.state.lock();
        let shop = s.shops.entry(shop_id).or_default();
        shop.stock.insert((item, model), stock);
        shop.listings.insert((item, model), listing);
    }

    /// The seller deletes an item: each of its models reads `SELLER_DELETE`.
    pub fn delete_item(&self, shop_id: i64, item_id: i64) {
        let mut s = self.state.lock();
        let Some(shop) = s.shops.get_mut(&shop_id) else { return };
        for model in shop.models(item_id) {
            let mut l = shop.listing(item_id, model);
            l.status = "SELLER_DELETE".into();
            l.updated_at = now_s();
            shop.listings.insert((item_id, model), l);
        }
    }

    /// How an order's shipment was arranged (pickup, dropoff or non_integrated) and its
    /// tracking number, once it was.
    pub fn shipment(&self, shop_id: i64, order_sn: &str) -> Option<(String, String)> {
        let s = self.state.lock();
        s.shops.get(&shop_id)?.shipments.get(order_sn).map(|sh| (sh.how.clone(), sh.tracking_no.clone()))
    }

    /// A promotion holds `units` of a model: an update below them is answered a success and
    /// leaves them.
    pub fn reserve_for_promotion(&self, shop_id: i64, item_id: i64, model_id: i64, units: i64) {
        self.state.lock().shops.entry(shop_id).or_default().reserved.insert((item_id, model_id), units);
    }

    /// How many product (listing) calls were taken.
    pub fn product_calls(&self) -> u64 {
        self.state.lock().product_calls
    }

    /// A listing's stock as we last set it.
    pub fn stock(&self, shop_id: i64, item_id: i64, model_id: i64) -> Option<i64> {
        self.state.lock().shops.get(&shop_id).and_then(|s| s.stock.get(&(item_id, model_id)).copied())
    }

    /// How many `update_stock` calls were taken.
    pub fn stock_calls(&self) -> u64 {
        self.state.lock().stock_calls
    }

    /// How many refreshes were taken.
    pub fn refreshes(&self) -> u64 {
        self.state.lock().refreshes
    }

    /// Places or replaces an order (its `updated_at` as given).
    pub fn put_order(&self, shop_id: i64, order: Order) {
        self.state.lock().shops.entry(shop_id).or_default().orders.insert(order.id.clone(), order);
    }

    /// Moves an order to `status` now.
    pub fn set_status(&self, shop_id: i64, order_sn: &str, status: &str) -> Option<Order> {
        let mut s = self.state.lock();
        let o = s.shops.get_mut(&shop_id)?.orders.get_mut(order_sn)?;
        o.status = status.into();
        o.updated_at = now_s().max(o.updated_at + 1);
        Some(o.clone())
    }

    /// A seller of `shop_id` authorizes the app: the code the redirect would carry.
    pub fn authorize(&self, shop_id: i64) -> String {
        let code = token("", 16);
        self.state.lock().codes.insert(code.clone(), (shop_id, now_s() + 600));
        code
    }

    /// Every access token of the shop ends now (the next shop call is refused).
    pub fn expire_access(&self, shop_id: i64) {
        for (_, (shop, exp)) in self.state.lock().access.iter_mut() {
            if *shop == shop_id {
                *exp = 0;
            }
        }
    }

    /// The seller's authorization ends: every token of the shop is refused.
    pub fn end_authorization(&self, shop_id: i64) {
        end_authorization(&self.state, shop_id);
    }

    /// Refuses calls past `per_second` a second (0: no limit); returns calls refused so far.
    pub fn throttle(&self, per_second: u32) -> u64 {
        let mut s = self.state.lock();
        s.throttle.per_second = per_second;
        s.throttle.refused
    }

    /// The body of an order-status push (code 3) for the order as it stands.
    pub fn order_push_body(&self, shop_id: i64, order_sn: &str) -> Option<String> {
        push_body(&self.state, shop_id, order_sn)
    }

    /// Registers the partner's push callback URL, as the partner gives it to Shopee (behind a
    /// proxy it differs from where a push is delivered): pushes are signed over it.
    pub fn register_callback(&self, url: &str) {
        self.state.lock().callback_url = Some(url.into());
    }

    /// The `Authorization` header of a push of `body` to `url` (or to the registered
    /// callback URL, when there is one).
    pub fn push_signature(&self, url: &str, body: &str) -> String {
        signature(&self.state, url, body)
    }

    /// Pushes an order's status to `url`, signed: the HTTP status it was answered with.
    pub async fn push_order(&self, shop_id: i64, order_sn: &str, url: &str) -> u16 {
        push(&self.state, shop_id, order_sn, url).await
    }

    /// A push that was not delivered: kept for `get_lost_push_message`.
    pub fn drop_order_push(&self, shop_id: i64, order_sn: &str) {
        if let Some(body) = self.order_push_body(shop_id, order_sn) {
            drop_push(&self.state, shop_id, body);
        }
    }

    /// Lost pushes not yet confirmed.
    pub fn lost_pending(&self) -> usize {
        self.state.lock().lost.len()
    }
}

fn push_body(state: &Shared<Inner>, shop_id: i64, order_sn: &str) -> Option<String> {
    let s = state.lock();
    let o = s.shops.get(&shop_id)?.orders.get(order_sn)?;
    Some(
        json!({"data": {"items": [], "ordersn": o.id, "status": o.status, "completed_scenario": "", "update_time": o.updated_at},
               "shop_id": shop_id, "code": 3, "timestamp": now_s()})
        .to_string(),
    )
}

fn signature(state: &Shared<Inner>, url: &str, body: &str) -> String {
    let (key, callback) = {
        let s = state.lock();
        (s.partner_key.clone(), s.callback_url.clone())
    };
    let url = callback.as_deref().unwrap_or(url);
    hmac_hex(key.as_bytes(), format!("{url}|{body}").as_bytes())
}

async fn push(state: &Shared<Inner>, shop_id: i64, order_sn: &str, url: &str) -> u16 {
    let Some(body) = push_body(state, shop_id, order_sn) else { return 0 };
    let signed = signature(state, url, &body);
    let (status, _) = crate::deliver(url, &[("authorization", signed)], body.clone()).await;
    if !(200..300).contains(&status) {
        drop_push(state, shop_id, body);
    }
    status
}

fn drop_push(state: &Shared<Inner>, shop_id: i64, body: String) {
    let mut s = state.lock();
    s.next_lost_id += 1;
    let id = s.next_lost_id;
    s.lost.push((id, shop_id, body));
}

/// What a person (or an end-to-end test) asks of the sandbox: an order placed or moved and
/// pushed to the registered callback URL, a listing's stock read, an authorization ended.
#[derive(Debug, serde::Deserialize)]
struct ControlOrder {
    shop_id: i64,
    order_sn: String,
    #[serde(default)]
    status: String,
    #[serde(default)]
    item_id: String,
    #[serde(default)]
    model_id: String,
    #[serde(default)]
    seller_sku: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    quantity: i64,
    #[serde(default)]
    price: String,
    /// The buyer asks to cancel the order, for this reason (the order moves to IN_CANCEL).
    #[serde(default)]
    cancel_reason: Option<String>,
}

/// Places an order (or, without lines, moves one to `status`, or with `cancel_reason` has its
/// buyer ask to cancel it) and pushes it to the registered callback URL: the back-office's
/// answer.
async fn control_order(State(state): State<Shared<Inner>>, Json(c): Json<ControlOrder>) -> Answer {
    let Some(url) = state.lock().callback_url.clone() else {
        return (StatusCode::CONFLICT, Json(json!({"error": "no callback URL registered"}))).into_response();
    };
    {
        let mut s = state.lock();
        let shop = s.shops.entry(c.shop_id).or_default();
        let no_such = || (StatusCode::NOT_FOUND, Json(json!({"error": "no such order"}))).into_response();
        if let Some(reason) = &c.cancel_reason {
            if !cancel::ask(shop, &c.order_sn, reason) {
                return no_such();
            }
        } else if c.item_id.is_empty() {
            let Some(o) = shop.orders.get_mut(&c.order_sn) else {
                return no_such();
            };
            o.status = c.status.clone();
            o.updated_at = now_s().max(o.updated_at + 1);
        } else {
            let status = if c.status.is_empty() { "READY_TO_SHIP" } else { c.status.as_str() };
            let lines = vec![crate::line(&c.item_id, &c.model_id, &c.seller_sku, &c.name, c.quantity.max(1), &c.price)];
            shop.orders.insert(c.order_sn.clone(), Order::new(&c.order_sn, status, lines));
        }
    }
    let answered = push(&state, c.shop_id, &c.order_sn, &url).await;
    Json(json!({"pushed_to": url, "answered": answered})).into_response()
}

async fn control_stock(State(state): State<Shared<Inner>>, Query(q): Query<HashMap<String, String>>) -> Answer {
    let n = |k: &str| q.get(k).and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
    let stock =
        state.lock().shops.get(&n("shop_id")).and_then(|s| s.stock.get(&(n("item_id"), n("model_id"))).copied());
    Json(json!({"stock": stock})).into_response()
}

fn end_authorization(state: &Shared<Inner>, shop_id: i64) {
    let mut s = state.lock();
    s.access.retain(|_, (shop, _)| *shop != shop_id);
    s.refresh.retain(|_, (shop, _)| *shop != shop_id);
}

async fn control_end(State(state): State<Shared<Inner>>, Query(q): Query<HashMap<String, String>>) -> Answer {
    let shop_id: i64 = q.get("shop_id").and_then(|v| v.parse().ok()).unwrap_or(0);
    end_authorization(&state, shop_id);
    Json(json!({"ended": shop_id})).into_response()
}

/// The query of a call, checked: partner, timestamp and signature, and for a shop's call its
/// access token. The shop id on success.
fn check(s: &mut Inner, path: &str, q: &HashMap<String, String>, shop_call: bool) -> Result<Option<i64>, Answer> {
    if !s.throttle.take() {
        return Err(refuse(
            StatusCode::TOO_MANY_REQUESTS,
            "error_too_many_request",
            "Too many requests, please try later.",
        ));
    }
    let partner_id = q
        .get("partner_id")
        .ok_or_else(|| refuse(StatusCode::BAD_REQUEST, "error_param", "There is no partner_id in query."))?;
    if partner_id.parse::<i64>().ok() != Some(s.partner_id) {
        return Err(refuse(StatusCode::FORBIDDEN, "error_param", "Invalid partner_id."));
    }
    let ts: i64 = q
        .get("timestamp")
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| refuse(StatusCode::BAD_REQUEST, "error_param", "no timestamp"))?;
    if (now_s() - ts).abs() > 300 {
        return Err(refuse(StatusCode::FORBIDDEN, "error_param", "Invalid timestamp"));
    }
    let sign =
        q.get("sign").ok_or_else(|| refuse(StatusCode::BAD_REQUEST, "error_param", "There is no sign in query."))?;
    let mut base = format!("{partner_id}{path}{ts}");
    let mut shop = None;
    if shop_call {
        let token = q
            .get("access_token")
            .ok_or_else(|| refuse(StatusCode::BAD_REQUEST, "error_param", "There is no access_token in query."))?;
        let shop_id = q.get("shop_id").cloned().unwrap_or_default();
        base.push_str(token);
        base.push_str(&shop_id);
        if hmac_hex(s.partner_key.as_bytes(), base.as_bytes()) != *sign {
            return Err(refuse(StatusCode::FORBIDDEN, "error_sign", "Wrong sign."));
        }
        match (s.access.get(token), shop_id.parse::<i64>()) {
            (Some((owner, exp)), Ok(id)) if *owner == id && *exp > now_s() => shop = Some(id),
            _ => return Err(refuse(StatusCode::FORBIDDEN, "error_auth", "Invalid access_token.")),
        }
    } else if hmac_hex(s.partner_key.as_bytes(), base.as_bytes()) != *sign {
        return Err(refuse(StatusCode::FORBIDDEN, "error_sign", "Wrong sign."));
    }
    Ok(shop)
}

fn new_tokens(s: &mut Inner, shop_id: i64) -> (String, String) {
    let access = token("", 16);
    let refresh = token("", 16);
    s.access.insert(access.clone(), (shop_id, now_s() + ACCESS_S));
    s.refresh.insert(refresh.clone(), (shop_id, now_s() + REFRESH_S));
    (access, refresh)
}

/// The page a seller sees: it names the app and authorizes with one button.
async fn auth_page(State(state): State<Shared<Inner>>, Query(q): Query<HashMap<String, String>>) -> Answer {
    let mut s = state.lock();
    if let Err(refused) = check(&mut s, "/api/v2/shop/auth_partner", &q, false) {
        return refused;
    }
    let redirect = q.get("redirect").cloned().unwrap_or_default();
    let shops: String = s
        .shops
        .iter()
        .map(|(id, shop)| format!(r#"<option value="{id}">{} ({id})</option>"#, html_escape(&shop.name)))
        .collect();
    Html(format!(
        r#"<!doctype html><meta charset="utf-8"><title>Shopee Open Platform (sandbox)</title>
<h1>Shopee Open Platform (sandbox)</h1><p>Authorize partner app {} to reach your shop.</p>
<form method="post" action="/sandbox/shopee/authorize"><input type="hidden" name="redirect" value="{}">
<select name="shop_id">{shops}</select> <button type="submit" id="authorize">Confirm authorization</button></form>"#,
        s.partner_id,
        html_escape(&redirect)
    ))
    .into_response()
}

async fn authorize_form(State(state): State<Shared<Inner>>, body: Bytes) -> Answer {
    let form: HashMap<String, String> = url_form(&body);
    let shop_id: i64 = form.get("shop_id").and_then(|s| s.parse().ok()).unwrap_or(0);
    let code = token("", 16);
    state.lock().codes.insert(code.clone(), (shop_id, now_s() + 600));
    let redirect = form.get("redirect").cloned().unwrap_or_default();
    let sep = if redirect.contains('?') { '&' } else { '?' };
    Redirect::to(&format!("{redirect}{sep}code={code}&shop_id={shop_id}")).into_response()
}

async fn token_get(
    State(state): State<Shared<Inner>>,
    Query(q): Query<HashMap<String, String>>,
    body: Bytes,
) -> Answer {
    let mut s = state.lock();
    if let Err(refused) = check(&mut s, "/api/v2/auth/token/get", &q, false) {
        return refused;
    }
    let Ok(b) = serde_json::from_slice::<Value>(&body) else {
        return refuse(StatusCode::BAD_REQUEST, "error_param", "parse data failed");
    };
    let code = b["code"].as_str().unwrap_or_default();
    let shop_id = b["shop_id"].as_i64().unwrap_or(0);
    if b["partner_id"].as_i64() != Some(s.partner_id) {
        return refuse(StatusCode::FORBIDDEN, "error_param", "Invalid partner_id.");
    }
    match s.codes.remove(code) {
        Some((owner, exp)) if owner == shop_id && exp > now_s() => {
            let (access, refresh) = new_tokens(&mut s, shop_id);
            ok(json!({ "access_token": access, "refresh_token": refresh, "expire_in": ACCESS_S - 88 }))
        }
        _ => refuse(StatusCode::FORBIDDEN, "error_auth", "Invalid code"),
    }
}

async fn token_refresh(
    State(state): State<Shared<Inner>>,
    Query(q): Query<HashMap<String, String>>,
    body: Bytes,
) -> Answer {
    let mut s = state.lock();
    if let Err(refused) = check(&mut s, "/api/v2/auth/access_token/get", &q, false) {
        return refused;
    }
    let Ok(b) = serde_json::from_slice::<Value>(&body) else {
        return refuse(StatusCode::BAD_REQUEST, "error_param", "parse data failed");
    };
    let shop_id = b["shop_id"].as_i64().unwrap_or(0);
    let given = b["refresh_token"].as_str().unwrap_or_default();
    // Spent by its use: the token is gone whatever happens next.
    match s.refresh.remove(given) {
        Some((owner, exp)) if owner == shop_id && exp > now_s() => {
            s.refreshes += 1;
            let (access, refresh) = new_tokens(&mut s, shop_id);
            ok(
                json!({ "partner_id": s.partner_id, "shop_id": shop_id, "access_token": access, "refresh_token": refresh, "expire_in": ACCESS_S }),
            )
        }
        Some(_) => refuse(StatusCode::FORBIDDEN, "error_auth", "Invalid refresh_token."),
        None => refuse(StatusCode::FORBIDDEN, "error_auth", "Invalid refresh_token."),
    }
}

async fn shop_info(State(state): State<Shared<Inner>>, Query(q): Query<HashMap<String, String>>) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/shop/get_shop_info", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    let name = s.shops.get(&shop_id).map(|x| x.name.clone()).unwrap_or_default();
    ok(
        json!({ "shop_name": name, "region": "TH", "status": "NORMAL", "is_cb": false, "auth_time": now_s(), "expire_time": now_s() + 365 * 24 * 3600 }),
    )
}

async fn order_list(State(state): State<Shared<Inner>>, Query(q): Query<HashMap<String, String>>) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/order/get_order_list", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    let num = |k: &str| q.get(k).and_then(|v| v.parse::<i64>().ok());
    let (Some(from), Some(to), Some(size)) = (num("time_from"), num("time_to"), num("page_size")) else {
        return refuse(
            StatusCode::BAD_REQUEST,
            "error_param",
            "Wrong parameters, detail: time_from, time_to and page_size are required.",
        );
    };
    if q.get("time_range_field").map(String::as_str) != Some("update_time")
        && q.get("time_range_field").map(String::as_str) != Some("create_time")
    {
        return refuse(StatusCode::BAD_REQUEST, "error_param", "Wrong parameters, detail: time_range_field.");
    }
    if to <= from || to - from > 15 * 24 * 3600 {
        return refuse(
            StatusCode::BAD_REQUEST,
            "order.order_list_invalid_time",
            "Start time must be earlier than end time and diff in 15days.",
        );
    }
    if !(1..=100).contains(&size) {
        return refuse(StatusCode::BAD_REQUEST, "error_param", "Wrong parameters, detail: page_size.");
    }
    let by_create = q.get("time_range_field").map(String::as_str) == Some("create_time");
    let mut orders: Vec<&Order> = s
        .shops
        .get(&shop_id)
        .map(|x| {
            x.orders
                .values()
                .filter(|o| (from..=to).contains(&if by_create { o.created_at } else { o.updated_at }))
                .collect()
        })
        .unwrap_or_default();
    orders.sort_by(|a, b| (a.updated_at, &a.id).cmp(&(b.updated_at, &b.id)));
    let start: usize = q.get("cursor").and_then(|c| c.parse().ok()).unwrap_or(0);
    let page: Vec<Value> = orders
        .iter()
        .skip(start)
        .take(size as usize)
        .map(|o| json!({ "order_sn": o.id, "order_status": o.status, "booking_sn": "" }))
        .collect();
    let more = start + page.len() < orders.len();
    ok(
        json!({ "response": { "more": more, "next_cursor": if more { (start + page.len()).to_string() } else { String::new() }, "order_list": page } }),
    )
}

async fn order_detail(State(state): State<Shared<Inner>>, Query(q): Query<HashMap<String, String>>) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/order/get_order_detail", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    let list: Vec<&str> =
        q.get("order_sn_list").map(|l| l.split(',').filter(|x| !x.is_empty()).collect()).unwrap_or_default();
    if list.is_empty() || list.len() > 50 {
        return refuse(
            StatusCode::BAD_REQUEST,
            "error_param",
            "Wrong parameters, detail: order_sn_list should be 1-50.",
        );
    }
    let shop = s.shops.get(&shop_id).cloned().unwrap_or_default();
    // Optional fields come only when asked for.
    let asked: Vec<&str> = q.get("response_optional_fields").map(|f| f.split(',').collect()).unwrap_or_default();
    let orders: Vec<Value> = list
        .iter()
        .filter_map(|sn| shop.orders.get(*sn))
        .map(|o| {
            let items: Vec<Value> = o
                .lines
                .iter()
                .map(|l| {
                    json!({ "item_id": l.item_id.parse::<i64>().unwrap_or(0), "item_name": l.name, "item_sku": "",
                        "model_id": l.model_id.parse::<i64>().unwrap_or(0), "model_name": "", "model_sku": l.seller_sku,
                        "model_quantity_purchased": l.quantity,
                        "model_original_price": crate::satang(&l.price) as f64 / 100.0,
                        "model_discounted_price": crate::satang(&l.paid_price) as f64 / 100.0 })
                })
                .collect();
            let total = o.items_satang() + crate::satang(&o.shipping_fee);
            let cancel = shop.cancels.get(&o.id).filter(|_| asked.contains(&"buyer_cancel_reason"));
            let cancel_by = match cancel.map(|c| c.answer.as_str()) {
                Some("ACCEPT") => "buyer",
                _ => "",
            };
            json!({ "order_sn": o.id, "buyer_cancel_reason": cancel.map(|c| c.reason.as_str()).unwrap_or_default(),
                "cancel_by": cancel_by, "region": "TH", "currency": "THB", "cod": o.cod, "order_status": o.status,
                "create_time": o.created_at, "update_time": o.updated_at, "message_to_seller": "", "buyer_username": o.buyer,
                "total_amount": total as f64 / 100.0, "estimated_shipping_fee": crate::satang(&o.shipping_fee) as f64 / 100.0,
                "actual_shipping_fee": 0, "payment_method": if o.cod { "Cash on Delivery" } else { "Online Payment" },
                "recipient_address": { "name": o.buyer, "phone": o.phone, "town": "", "district": o.district, "city": o.district,
                    "state": o.province, "region": "TH", "zipcode": o.postcode, "full_address": o.address },
                "item_list": items })
        })
        .collect();
    ok(json!({ "response": { "order_list": orders }, "warning": [] }))
}

async fn update_stock(
    State(state): State<Shared<Inner>>,
    Query(q): Query<HashMap<String, String>>,
    body: Bytes,
) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/product/update_stock", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    let Ok(b) = serde_json::from_slice::<Value>(&body) else {
        return refuse(StatusCode::BAD_REQUEST, "product.error_param", "parse data failed");
    };
    let item_id = b["item_id"].as_i64().unwrap_or(0);
    let list = b["stock_list"].as_array().cloned().unwrap_or_default();
    if list.is_empty() || list.len() > 50 {
        return refuse(StatusCode::BAD_REQUEST, "product.error_param", "invalid field StockList: length must be 1-50");
    }
    s.stock_calls += 1;
    let shop = s.shops.entry(shop_id).or_default();
    if !shop.stock.keys().any(|(i, _)| *i == item_id) {
        return refuse(StatusCode::BAD_REQUEST, "product.error_item_not_found", "Item not found.");
    }
    let (mut success, mut failure) = (Vec::new(), Vec::new());
    for m in list {
        let model_id = m["model_id"].as_i64().unwrap_or(0);
        let stock = m["seller_stock"][0]["stock"].as_i64();
        let reserved = shop.reserved.get(&(item_id, model_id)).copied().unwrap_or(0);
        match (shop.stock.get_mut(&(item_id, model_id)), stock) {
            (Some(level), Some(n)) if n >= 0 => {
                // A promotion's units stay on sale whatever the seller sets.
                *level = n.max(reserved);
                success.push(json!({ "model_id": model_id, "location_id": "-", "stock": n }));
            }
            (None, _) => failure.push(json!({ "model_id": model_id, "failed_reason": "Wrong model_id." })),
            _ => failure.push(json!({ "model_id": model_id, "failed_reason": "Invalid stock." })),
        }
    }
    ok(json!({ "response": { "success_list": success, "failure_list": failure }, "warning": "" }))
}

/// The statuses `get_item_list` takes.
const ITEM_STATUSES: [&str; 6] = ["NORMAL", "BANNED", "UNLIST", "REVIEWING", "SELLER_DELETE", "SHOPEE_DELETE"];

/// A price in baht text as Shopee writes it (a JSON number).
fn price_info(price: &str) -> Value {
    let p = crate::satang(price) as f64 / 100.0;
    json!([{ "currency": "THB", "original_price": p, "current_price": p, "inflated_price_of_original_price": p,
        "inflated_price_of_current_price": p }])
}

fn stock_info(stock: i64) -> Value {
    json!({ "summary_info": { "total_reserved_stock": 0, "total_available_stock": stock },
        "seller_stock": [{ "location_id": "-", "stock": stock, "if_saleable": true }], "shopee_stock": [] })
}

async fn item_list(State(state): State<Shared<Inner>>, Query(pairs): Query<Vec<(String, String)>>) -> Answer {
    let q: HashMap<String, String> = pairs.iter().cloned().collect();
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/product/get_item_list", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    s.product_calls += 1;
    let num = |k: &str| q.get(k).and_then(|v| v.parse::<i64>().ok());
    let (Some(offset), Some(size)) = (num("offset"), num("page_size")) else {
        return refuse(
            StatusCode::BAD_REQUEST,
            "error_param",
            "Wrong parameters, detail: offset and page_size are required.",
        );
    };
    if !(1..=100).contains(&size) || offset < 0 {
        return refuse(StatusCode::BAD_REQUEST, "error_param", "Wrong parameters, detail: page_size should be 1-100.");
    }
    let statuses: Vec<&str> = pairs.iter().filter(|(k, _)| k == "item_status").map(|(_, v)| v.as_str()).collect();
    if statuses.is_empty() || statuses.iter().any(|st| !ITEM_STATUSES.contains(st)) {
        return refuse(StatusCode::BAD_REQUEST, "error_param_item_status", "Item status error.");
    }
    let shop = s.shops.get(&shop_id).cloned().unwrap_or_default();
    let mut items: Vec<i64> = shop.stock.keys().map(|(i, _)| *i).collect();
    items.dedup();
    items.retain(|i| statuses.contains(&shop.item_status(*i).as_str()));
    let total = items.len() as i64;
    let page: Vec<Value> = items
        .iter()
        .skip(offset as usize)
        .take(size as usize)
        .map(|i| {
            let updated = shop.models(*i).iter().map(|m| shop.listing(*i, *m).updated_at).max().unwrap_or(0);
            json!({ "item_id": i, "item_status": shop.item_status(*i), "update_time": updated, "tag": { "kit": false } })
        })
        .collect();
    let next = offset + page.len() as i64;
    ok(
        json!({ "response": { "item": page, "total_count": total, "has_next_page": next < total, "next_offset": next }, "warning": "" }),
    )
}

async fn item_base_info(State(state): State<Shared<Inner>>, Query(q): Query<HashMap<String, String>>) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/product/get_item_base_info", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    s.product_calls += 1;
    let list = q.get("item_id_list").cloned().unwrap_or_default();
    let ids: Vec<i64> =
        list.trim_matches(|c| c == '[' || c == ']').split(',').filter_map(|x| x.trim().parse().ok()).collect();
    if ids.is_empty() || ids.len() > 50 {
        return refuse(
            StatusCode::BAD_REQUEST,
            "error_param",
            "Wrong parameters, detail: item_id_list should be 1-50.",
        );
    }
    let shop = s.shops.get(&shop_id).cloned().unwrap_or_default();
    let items: Vec<Value> = ids
        .iter()
        .filter(|i| shop.stock.keys().any(|(x, _)| x == *i))
        .map(|i| {
            let models = shop.models(*i);
            let has_model = models.iter().any(|m| *m != 0);
            let first = shop.listing(*i, models[0]);
            let stock: i64 = models.iter().map(|m| shop.stock[&(*i, *m)]).sum();
            let mut item = json!({ "item_id": i, "category_id": 100017, "item_name": first.name,
                "item_sku": if has_model { String::new() } else { first.seller_sku.clone() },
                "create_time": first.updated_at, "update_time": first.updated_at, "item_status": shop.item_status(*i),
                "has_model": has_model, "image": { "image_url_list": [format!("https://cf.shopee.co.th/file/{i}")], "image_id_list": [i.to_string()] },
                "weight": "0.30", "stock_info_v2": stock_info(stock) });
            if !has_model {
                item["price_info"] = price_info(&first.price);
            }
            item
        })
        .collect();
    ok(json!({ "response": { "item_list": items }, "warning": "" }))
}

async fn model_list(State(state): State<Shared<Inner>>, Query(q): Query<HashMap<String, String>>) -> Answer {
    let mut s = state.lock();
    let shop_id = match check(&mut s, "/api/v2/product/get_model_list", &q, true) {
        Ok(id) => id.unwrap_or(0),
        Err(refused) => return refused,
    };
    s.product_calls += 1;
    let item: i64 = q.get("item_id").and_then(|v| v.parse().ok()).unwrap_or(0);
    let shop = s.shops.get(&shop_id).cloned().unwrap_or_default();
    let models: Vec<i64> = shop.models(item).into_iter().filter(|m| *m != 0).collect();
    if shop.models(item).is_empty() {
        return refuse(StatusCode::BAD_REQUEST, "error_item_not_found", "Item_id is not found.");
    }
    // The variations' names and options, in the order the models first name them.
    let mut tiers: Vec<(String, Vec<String>)> = Vec::new();
    for m in &models {
        for (n, (name, value)) in shop.listing(item, *m).options.iter().enumerate() {
            if tiers.len() <= n {
                tiers.push((name.clone(), Vec::new()));
            }
            if !tiers[n].1.contains(value) {
                tiers[n].1.push(value.clone());
            }
        }
    }
    let model_list: Vec<Value> = models
        .iter()
        .map(|m| {
            let l = shop.listing(item, *m);
            let index: Vec<usize> =
                l.options.iter().enumerate().map(|(n, (_, v))| tiers[n].1.iter().position(|o| o == v).unwrap_or(0)).collect();
            json!({ "model_id": m, "tier_index": index, "model_sku": l.seller_sku,
                "model_status": if l.status.is_empty() || l.status == "NORMAL" { "MODEL_NORMAL" } else { "MODEL_UNAVAILABLE" },
                "price_info": price_info(&l.price), "stock_info_v2": stock_info(shop.stock[&(item, *m)]) })
        })
        .collect();
    let tier_variation: Vec<Value> = tiers
        .iter()
        .map(|(name, options)| json!({ "name": name, "option_list": options.iter().map(|o| json!({ "option": o })).collect::<Vec<_>>() }))
        .collect();
    ok(json!({ "response": { "tier_variation": tier_variation, "model": model_list }, "warning": "" }))
}

async fn lost(State(state): State<Shared<Inner>>, Query(q): Query<HashMap<String, String>>) -> Answer {
    let mut s = state.lock();
    if let Err(refused) = check(&mut s, "/api/v2/push/get_lost_push_message", &q, false) {
        return refused;
    }
    let page: Vec<Value> = s
        .lost
        .iter()
        .take(100)
        .map(|(_, shop, body)| json!({ "shop_id": shop, "code": 3, "timestamp": now_s(), "data": body }))
        .collect();
    let last = s.lost[..s.lost.len().min(100)].last().map(|(id, _, _)| *id).unwrap_or(0);
    ok(
        json!({ "response": { "push_message_list": page, "has_next_page": s.lost.len() > 100, "last_message_id": last } }),
    )
}

async fn confirm_lost(
    State(state): State<Shared<Inner>>,
    Query(q): Query<HashMap<String, String>>,
    body: Bytes,
) -> Answer {
    let mut s = state.lock();
    if let Err(refused) = check(&mut s, "/api/v2/push/confirm_consumed_lost_push_message", &q, false) {
        return refused;
    }
    let last = serde_json::from_slice::<Value>(&body).ok().and_then(|b| b["last_message_id"].as_i64());
    let Some(last) = last else {
        return refuse(StatusCode::BAD_REQUEST, "error_param", "Wrong parameters, detail: last_message_id.");
    };
    s.lost.retain(|(id, _, _)| *id > last);
    ok(json!({}))
}

/// `a=1&b=2` read into a map.
pub(crate) fn url_form(body: &[u8]) -> HashMap<String, String> {
    reqwest::Url::parse(&format!("http://x/?{}", String::from_utf8_lossy(body)))
        .map(|u| u.query_pairs().into_owned().collect())
        .unwrap_or_default()
}

pub(crate) fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
