//! Magento 2.4's REST API as it behaves for one integration, two store views (`default` and
//! `th`) and, when its owner turns it on, multi-source inventory (MSI).
//!
//! Every route is served as `/rest/{store}/V1/…`, `/rest/all/V1/…` and `/rest/V1/…` (the
//! `default` store); an unknown store code is refused. A route that is not there (the
//! inventory routes without MSI) answers 404 `Request does not match any route.` before any
//! credential is looked at, as Magento matches its route first (a refusal names the route's
//! ACL resource). Then the call's credentials: the integration's access token as `Bearer`
//! where `oauth/consumer/enable_integration_as_bearer` is on (off by default since 2.4.4), or
//! an OAuth 1.0a signature (RFC 5849, HMAC-SHA256 or HMAC-SHA1) recomputed here over the
//! oauth and query parameters, with single-use nonces and timestamps within 600 s. A refusal
//! is Magento's `{"message","parameters"}`, its placeholders (`%1`, `%fieldName`) left for
//! the client to fill; without credentials, 401 `The consumer isn't authorized to access
//! %resources.`.
//!
//! Orders are listed with `searchCriteria`, Magento's quirk included: a `currentPage` past
//! the last page answers the last page again. A configurable product's line is written as
//! Magento writes it, the parent item then its simple child (price 0, `parent_item_id`).
//! Stock is the legacy stock item (`/V1/stockItems`, `/V1/products/{sku}/stockItems/{id}`)
//! and, under MSI, a source item per source (`/V1/inventory/source-items`: all applied or
//! none; the `default` source and the legacy stock item are kept in step, as MSI does).

mod oauth;
mod search;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashSet};

use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{header, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::{serve_on, token, Server, Shared};
use search::{Criteria, Field};

/// The largest request body taken, bytes.
const MAX_BODY: usize = 1 << 20;
/// The store views: (id, code).
const STORES: [(i64, &str); 2] = [(1, "default"), (2, "th")];

/// An integration's credentials, as Magento's admin shows them once it is activated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Integration {
    /// The consumer key (32 characters).
    pub consumer_key: String,
    /// The consumer secret.
    pub consumer_secret: String,
    /// The access token (32 characters; a Bearer token too, where the store allows it).
    pub access_token: String,
    /// The access token's secret.
    pub access_token_secret: String,
}

/// A line of a Magento order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MagentoLine {
    /// The product's SKU (a configurable product's: the chosen simple product's).
    pub sku: String,
    /// The product's name.
    pub name: String,
    /// How many.
    pub qty: i64,
    /// The price of one, baht as text (`"199.00"`).
    pub price: String,
    /// A configurable product's option: written as a parent item and its simple child.
    pub configurable: bool,
}

/// A Magento order, in Magento's own words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MagentoOrder {
    /// The order's id.
    pub entity_id: i64,
    /// The order number the customer sees (`000000123`).
    pub increment_id: String,
    /// Its state (`new`, `pending_payment`, `processing`, `complete`, `closed`, `canceled`,
    /// `holded`, `payment_review`).
    pub state: String,
    /// Its status (a store may name its own; the state's by default).
    pub status: String,
    /// When it was placed, `YYYY-MM-DD HH:MM:SS` in UTC, as Magento writes it.
    pub created_at: String,
    /// When it changed last, the same way.
    pub updated_at: String,
    /// The customer's first name.
    pub customer_firstname: String,
    /// The customer's last name.
    pub customer_lastname: String,
    /// The customer's email.
    pub customer_email: String,
    /// The addresses' phone.
    pub telephone: String,
    /// The addresses' street lines.
    pub street: Vec<String>,
    /// The addresses' city (a Thai address: its district).
    pub city: String,
    /// The addresses' region (a Thai address: its province).
    pub region: String,
    /// The addresses' postcode.
    pub postcode: String,
    /// The payment method's code (`checkmo`, `cashondelivery`, …).
    pub payment_method: String,
    /// The shipping amount, baht as text.
    pub shipping_amount: String,
    /// The discount, baht as text, negative as Magento writes it (`"-10.00"`).
    pub discount_amount: String,
    /// The lines.
    pub lines: Vec<MagentoLine>,
}

impl MagentoOrder {
    /// An order of `lines` in `state` (its status too), placed and last changed at
    /// `updated_at`, to a Bangkok address, paid by check / money order, shipped free.
    pub fn new(entity_id: i64, state: &str, updated_at: &str, lines: Vec<MagentoLine>) -> MagentoOrder {
        MagentoOrder {
            entity_id,
            increment_id: format!("{entity_id:09}"),
            state: state.into(),
            status: state.into(),
            created_at: updated_at.into(),
            updated_at: updated_at.into(),
            customer_firstname: "สมชาย".into(),
            customer_lastname: "ใจดี".into(),
            customer_email: "somchai@example.co.th".into(),
            telephone: "0812345678".into(),
            street: vec!["99 ถนนราชดำเนินกลาง".into(), "แขวงบวรนิเวศ".into()],
            city: "เขตพระนคร".into(),
            region: "กรุงเทพมหานคร".into(),
            postcode: "10200".into(),
            payment_method: "checkmo".into(),
            shipping_amount: "0.00".into(),
            discount_amount: "0.00".into(),
            lines,
        }
    }
}

/// A line of `qty` of a simple product at `price` baht.
pub fn magento_line(sku: &str, name: &str, qty: i64, price: &str) -> MagentoLine {
    MagentoLine { sku: sku.into(), name: name.into(), qty, price: price.into(), configurable: false }
}

/// A simple product's stock: its legacy stock item and, under MSI, its source items.
#[derive(Debug, Clone)]
struct Product {
    product_id: i64,
    item_id: i64,
    qty: f64,
    in_stock: bool,
    /// source code → (quantity, status).
    sources: BTreeMap<String, (f64, i32)>,
}

struct Inner {
    integration: Integration,
    /// Whether an integration's token is taken as a Bearer token.
    bearer: bool,
    /// The nonces the consumer used.
    nonces: HashSet<String>,
    /// MSI's source codes, when MSI is on.
    msi: Option<Vec<String>>,
    orders: BTreeMap<i64, MagentoOrder>,
    products: BTreeMap<String, Product>,
    /// `METHOD /path?query` of every call.
    calls: Vec<String>,
    /// Changes made while a client reads: after the n-th order search is answered, the
    /// order's (state, updated_at), as a shop busy while it is polled.
    changes: Vec<(usize, i64, String, String)>,
    /// Order searches answered.
    searches: usize,
}

/// A Magento 2.4 store's REST API: its state shared by every clone, served by [`Magento::serve`]
/// (or mounted with [`Magento::router`]).
#[derive(Clone)]
pub struct Magento {
    state: Shared<Inner>,
}

impl Default for Magento {
    fn default() -> Self {
        Magento::new()
    }
}

/// A refusal: Magento's `{"message"}`, with its `parameters` unless they are null.
fn refuse(status: StatusCode, message: &str, parameters: Value) -> Response {
    let mut body = json!({ "message": message });
    if !parameters.is_null() {
        body["parameters"] = parameters;
    }
    (status, Json(body)).into_response()
}

/// 401 for a call without (valid) credentials, naming the route's ACL resource.
fn not_authorized(resource: &str) -> Response {
    refuse(
        StatusCode::UNAUTHORIZED,
        "The consumer isn't authorized to access %resources.",
        json!({ "resources": resource }),
    )
}

/// 400 for a required parameter that is missing.
fn required(field: &str) -> Response {
    refuse(StatusCode::BAD_REQUEST, "\"%fieldName\" is required. Enter and try again.", json!({ "fieldName": field }))
}

fn no_route() -> Response {
    refuse(StatusCode::NOT_FOUND, "Request does not match any route.", Value::Null)
}

fn no_product(sku: &str) -> Response {
    refuse(StatusCode::NOT_FOUND, "The Product with the \"%1\" SKU doesn't exist.", json!([sku]))
}

/// Baht text in satang, its sign kept (`"-10.00"` → -1000).
fn satang(text: &str) -> i64 {
    match text.trim().strip_prefix('-') {
        Some(rest) => -crate::satang(rest),
        None => crate::satang(text.trim()),
    }
}

/// Satang as Magento's JSON writes an amount: a number.
fn money(satang: i64) -> Value {
    json!(satang as f64 / 100.0)
}

impl Magento {
    /// A store with one active integration (random keys and tokens), the store views
    /// `default` and `th`, bearer tokens allowed and MSI off.
    pub fn new() -> Magento {
        Magento::with_integration(Integration {
            consumer_key: token("", 16),
            consumer_secret: token("", 16),
            access_token: token("", 16),
            access_token_secret: token("", 16),
        })
    }

    /// The same store as [`Magento::new`], its integration's credentials these (the consumer
    /// key and the access token 32 characters, as Magento makes them and its OAuth check asks).
    pub fn with_integration(integration: Integration) -> Magento {
        let inner = Inner {
            integration,
            bearer: true,
            nonces: HashSet::new(),
            msi: None,
            orders: BTreeMap::new(),
            products: BTreeMap::new(),
            calls: Vec::new(),
            changes: Vec::new(),
            searches: 0,
        };
        Magento { state: Shared::new(inner) }
    }

    /// The integration's credentials.
    pub fn integration(&self) -> Integration {
        self.state.lock().integration.clone()
    }

    /// Whether the integration's access token is taken as a Bearer token (true by default;
    /// false is Magento 2.4.4's default, `oauth/consumer/enable_integration_as_bearer` off).
    pub fn allow_bearer(&self, allowed: bool) {
        self.state.lock().bearer = allowed;
    }

    /// Turns multi-source inventory on with these (enabled) sources; every product gets a
    /// source item in each, holding its legacy quantity.
    pub fn use_msi(&self, sources: &[&str]) {
        let mut s = self.state.lock();
        let codes: Vec<String> = sources.iter().map(|c| c.to_string()).collect();
        for p in s.products.values_mut() {
            for c in &codes {
                p.sources.entry(c.clone()).or_insert((p.qty, i32::from(p.in_stock)));
            }
        }
        s.msi = Some(codes);
    }

    /// Places an order, or replaces the one with its `entity_id`.
    pub fn put_order(&self, o: MagentoOrder) {
        self.state.lock().orders.insert(o.entity_id, o);
    }

    /// Moves an order to `state` (its status too) at `updated_at`.
    pub fn set_state(&self, entity_id: i64, state: &str, updated_at: &str) {
        if let Some(o) = self.state.lock().orders.get_mut(&entity_id) {
            o.state = state.into();
            o.status = state.into();
            o.updated_at = updated_at.into();
        }
    }

    /// Moves an order to `state` at `updated_at` right after the `after`-th order search from
    /// now is answered (a shop where the order changes while a client pages through).
    pub fn change_while_polled(&self, after: usize, entity_id: i64, state: &str, updated_at: &str) {
        let mut s = self.state.lock();
        let at = s.searches + after;
        s.changes.push((at, entity_id, state.into(), updated_at.into()));
    }

    /// Adds a simple product with `qty` in its legacy stock item (in stock when above 0) and,
    /// under MSI, in a source item of each source.
    pub fn add_product(&self, sku: &str, qty: i64) {
        let mut s = self.state.lock();
        let id = s.products.len() as i64 + 1;
        let (qty, in_stock) = (qty as f64, qty > 0);
        let sources = s.msi.iter().flatten().map(|c| (c.clone(), (qty, i32::from(in_stock)))).collect();
        s.products.insert(sku.into(), Product { product_id: id, item_id: id, qty, in_stock, sources });
    }

    /// A product's legacy stock item: its quantity and whether it is in stock.
    pub fn stock(&self, sku: &str) -> Option<(f64, bool)> {
        self.state.lock().products.get(sku).map(|p| (p.qty, p.in_stock))
    }

    /// A product's source item in `source`: its quantity and status (1 in stock, 0 out).
    pub fn source_item(&self, sku: &str, source: &str) -> Option<(f64, i32)> {
        self.state.lock().products.get(sku)?.sources.get(source).copied()
    }

    /// Every call received, in order, as `METHOD /path?query` (never its credentials).
    pub fn calls(&self) -> Vec<String> {
        self.state.lock().calls.clone()
    }

    /// The REST API as a router, to serve or mount.
    pub fn router(&self) -> Router {
        Router::new().fallback(api).with_state(self.state.clone())
    }

    /// Serves it on 127.0.0.1, on a port of its own.
    pub async fn serve(&self) -> anyhow::Result<Server> {
        serve_on("127.0.0.1:0", self.router()).await
    }
}

/// A route of the API, with what its path carries.
enum Route {
    StoreConfigs,
    Orders,
    Order(String),
    StockItem(String),
    SetStockItem(String),
    Sources,
    Source(String),
    SourceItems,
}

impl Route {
    /// The ACL resource the route asks for (from the modules' `webapi.xml`).
    fn resource(&self) -> &'static str {
        match self {
            Route::StoreConfigs => "Magento_Backend::store",
            Route::Orders | Route::Order(_) => "Magento_Sales::actions_view",
            Route::StockItem(_) | Route::SetStockItem(_) => "Magento_CatalogInventory::cataloginventory",
            Route::Sources | Route::Source(_) => "Magento_InventoryApi::source",
            Route::SourceItems => "Magento_InventoryApi::stock_source_item_assign",
        }
    }
}

/// The route a call asks for: a refusal for an unknown store code or an unknown route.
fn route(s: &Inner, method: &Method, path: &str) -> Result<Route, Response> {
    let Some(rest) = path.strip_prefix("/rest/") else { return Err(no_route()) };
    let segments: Vec<String> = rest.split('/').map(|p| oauth::decode(p, false)).collect();
    let after = match segments.iter().position(|p| p == "V1") {
        Some(0) => &segments[1..],
        Some(1) => {
            let code = segments[0].as_str();
            // Magento 2.4 leaves an unknown store code in the path, which then matches no route.
            if code != "all" && !STORES.iter().any(|(_, c)| *c == code) {
                return Err(no_route());
            }
            &segments[2..]
        }
        _ => return Err(no_route()),
    };
    let p: Vec<&str> = after.iter().map(String::as_str).collect();
    let msi = s.msi.is_some();
    let r = match (method.clone(), p.as_slice()) {
        (Method::GET, ["store", "storeConfigs"]) => Route::StoreConfigs,
        (Method::GET, ["orders"]) => Route::Orders,
        (Method::GET, ["orders", id]) => Route::Order(id.to_string()),
        (Method::GET, ["stockItems", sku]) => Route::StockItem(sku.to_string()),
        (Method::PUT, ["products", sku, "stockItems", _]) => Route::SetStockItem(sku.to_string()),
        (Method::GET, ["inventory", "sources"]) if msi => Route::Sources,
        (Method::GET, ["inventory", "sources", code]) if msi => Route::Source(code.to_string()),
        (Method::POST, ["inventory", "source-items"]) if msi => Route::SourceItems,
        _ => return Err(no_route()),
    };
    Ok(r)
}

/// Every call: recorded, its body read (at most 1 MiB), its route found, its credentials
/// checked, then answered.
async fn api(State(state): State<Shared<Inner>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let target = parts.uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
    state.lock().calls.push(format!("{} {target}", parts.method));
    let Ok(body) = axum::body::to_bytes(body, MAX_BODY).await else {
        return refuse(StatusCode::PAYLOAD_TOO_LARGE, "Request Entity Too Large", Value::Null);
    };
    let mut s = state.lock();
    let r = match route(&s, &parts.method, parts.uri.path()) {
        Ok(r) => r,
        Err(refused) => return refused,
    };
    if let Err(refused) = oauth::check(&mut s, &parts, r.resource()) {
        return refused;
    }
    // An empty body is no parameters; one that is not JSON, Magento's decoding error.
    let body: Value = if body.iter().all(u8::is_ascii_whitespace) {
        json!({})
    } else {
        match serde_json::from_slice(&body) {
            Ok(v) => v,
            Err(_) => return refuse(StatusCode::BAD_REQUEST, "Decoding error.", Value::Null),
        }
    };
    let query = oauth::form_pairs(parts.uri.query().unwrap_or(""));
    match r {
        Route::StoreConfigs => store_configs(&parts),
        Route::Orders => {
            let criteria = Criteria::read(&query);
            if !criteria.present {
                return required("searchCriteria");
            }
            let orders: Vec<&MagentoOrder> = s.orders.values().collect();
            let (page, total) = criteria.apply(orders, |o, f| order_field(o, f));
            let items: Vec<Value> = page.into_iter().map(order_json).collect();
            s.searches += 1;
            let now = s.searches;
            let due: Vec<(usize, i64, String, String)> = s.changes.iter().filter(|c| c.0 == now).cloned().collect();
            s.changes.retain(|c| c.0 != now);
            for (_, id, state, at) in due {
                if let Some(o) = s.orders.get_mut(&id) {
                    o.state.clone_from(&state);
                    o.status = state;
                    o.updated_at = at;
                }
            }
            Json(json!({ "items": items, "search_criteria": criteria.echo(), "total_count": total })).into_response()
        }
        Route::Order(id) => match id.parse::<i64>().ok().and_then(|id| s.orders.get(&id)) {
            Some(o) => Json(order_json(o)).into_response(),
            None => refuse(
                StatusCode::NOT_FOUND,
                "The entity that was requested doesn't exist. Verify the entity and try again.",
                Value::Null,
            ),
        },
        Route::StockItem(sku) => match s.products.get(&sku) {
            Some(p) => Json(stock_item_json(p)).into_response(),
            None => no_product(&sku),
        },
        Route::SetStockItem(sku) => set_stock_item(&mut s, &sku, &body),
        Route::Sources => {
            let sources: Vec<Value> = s.msi.iter().flatten().map(|c| source_json(c)).collect();
            let criteria = Criteria::read(&query);
            Json(json!({ "items": sources, "search_criteria": criteria.echo(), "total_count": sources.len() }))
                .into_response()
        }
        Route::Source(code) => match s.msi.iter().flatten().find(|c| **c == code) {
            Some(c) => Json(source_json(c)).into_response(),
            None => {
                refuse(StatusCode::NOT_FOUND, "Source with code \"%value\" does not exist.", json!({ "value": code }))
            }
        },
        Route::SourceItems => save_source_items(&mut s, &body),
    }
}

/// The store views' configurations, their URLs on the host the client called.
fn store_configs(parts: &Parts) -> Response {
    let host = parts.headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("localhost");
    let base = format!("http://{host}/");
    let stores: Vec<Value> = STORES
        .iter()
        .map(|(id, code)| {
            json!({ "id": id, "code": code, "website_id": 1, "locale": "th_TH", "base_currency_code": "THB",
                "default_display_currency_code": "THB", "timezone": "Asia/Bangkok", "weight_unit": "kgs",
                "base_url": base, "base_link_url": base, "base_static_url": format!("{base}static/"),
                "base_media_url": format!("{base}media/"), "secure_base_url": base, "secure_base_link_url": base,
                "secure_base_static_url": format!("{base}static/"), "secure_base_media_url": format!("{base}media/") })
        })
        .collect();
    Json(stores).into_response()
}

/// An order's field as `searchCriteria` reads it.
fn order_field(o: &MagentoOrder, field: &str) -> Option<Field> {
    let text = |t: &str| Some(Field::Text(t.to_string()));
    match field {
        "entity_id" => Some(Field::Number(o.entity_id as f64)),
        "increment_id" => text(&o.increment_id),
        "state" => text(&o.state),
        "status" => text(&o.status),
        "created_at" => text(&o.created_at),
        "updated_at" => text(&o.updated_at),
        "customer_email" => text(&o.customer_email),
        _ => None,
    }
}

/// An order as Magento's `SalesOrderRepository` writes it.
fn order_json(o: &MagentoOrder) -> Value {
    let (shipping, discount) = (satang(&o.shipping_amount), satang(&o.discount_amount));
    let mut items = Vec::new();
    let (mut subtotal, mut qty) = (0, 0);
    for (n, l) in o.lines.iter().enumerate() {
        let price = satang(&l.price);
        subtotal += price * l.qty;
        qty += l.qty;
        // The whole discount sits on the first line, positive as items write it.
        let item_discount = if n == 0 { -discount } else { 0 };
        let id = o.entity_id * 100 + items.len() as i64 + 1;
        let kind = if l.configurable { "configurable" } else { "simple" };
        let parent = item_json(o, id, l, kind, price, item_discount);
        items.push(parent.clone());
        if l.configurable {
            let mut child = item_json(o, id + 1, l, "simple", 0, 0);
            child["parent_item_id"] = json!(id);
            child["parent_item"] = parent;
            items.push(child);
        }
    }
    let grand = subtotal + shipping + discount;
    let address = |kind: &str, id: i64| {
        json!({ "address_type": kind, "entity_id": id, "parent_id": o.entity_id, "firstname": o.customer_firstname,
            "lastname": o.customer_lastname, "street": o.street, "city": o.city, "region": o.region,
            "postcode": o.postcode, "country_id": "TH", "telephone": o.telephone, "email": o.customer_email })
    };
    let mut out = json!({ "entity_id": o.entity_id, "increment_id": o.increment_id, "state": o.state, "status": o.status,
        "created_at": o.created_at, "updated_at": o.updated_at, "store_id": 1,
        "order_currency_code": "THB", "base_currency_code": "THB", "global_currency_code": "THB", "store_currency_code": "THB",
        "grand_total": money(grand), "base_grand_total": money(grand), "subtotal": money(subtotal), "base_subtotal": money(subtotal),
        "shipping_amount": money(shipping), "base_shipping_amount": money(shipping), "shipping_description": "Flat Rate - Fixed",
        "discount_amount": money(discount), "base_discount_amount": money(discount), "tax_amount": 0.0, "base_tax_amount": 0.0,
        "total_qty_ordered": qty as f64, "total_item_count": o.lines.len(),
        "customer_email": o.customer_email, "customer_firstname": o.customer_firstname, "customer_lastname": o.customer_lastname,
        "customer_is_guest": 1, "customer_group_id": 0, "status_histories": [] });
    out["items"] = json!(items);
    out["billing_address"] = address("billing", o.entity_id * 2);
    out["payment"] = json!({ "entity_id": o.entity_id, "parent_id": o.entity_id, "method": o.payment_method,
        "amount_ordered": money(grand), "base_amount_ordered": money(grand), "shipping_amount": money(shipping),
        "additional_information": [] });
    let total = json!({ "shipping_amount": money(shipping), "base_shipping_amount": money(shipping),
        "shipping_incl_tax": money(shipping), "shipping_tax_amount": 0.0 });
    let shipping =
        json!({ "address": address("shipping", o.entity_id * 2 + 1), "method": "flatrate_flatrate", "total": total });
    out["extension_attributes"] = json!({ "shipping_assignments": [{ "shipping": shipping, "items": items }] });
    out
}

/// An order item.
fn item_json(o: &MagentoOrder, id: i64, l: &MagentoLine, kind: &str, price: i64, discount: i64) -> Value {
    json!({ "item_id": id, "order_id": o.entity_id, "quote_item_id": id, "store_id": 1, "sku": l.sku, "name": l.name,
        "product_type": kind, "qty_ordered": l.qty as f64, "qty_invoiced": 0.0, "qty_shipped": 0.0, "qty_canceled": 0.0,
        "qty_refunded": 0.0, "price": money(price), "base_price": money(price), "original_price": money(price),
        "base_original_price": money(price), "price_incl_tax": money(price), "row_total": money(price * l.qty),
        "base_row_total": money(price * l.qty), "row_total_incl_tax": money(price * l.qty),
        "discount_amount": money(discount), "base_discount_amount": money(discount), "discount_percent": 0.0,
        "tax_amount": 0.0, "tax_percent": 0.0, "is_virtual": 0, "weight": 1.0,
        "created_at": o.created_at, "updated_at": o.updated_at })
}

/// A legacy stock item as `/V1/stockItems/{sku}` writes it.
fn stock_item_json(p: &Product) -> Value {
    json!({ "item_id": p.item_id, "product_id": p.product_id, "stock_id": 1, "qty": p.qty, "is_in_stock": p.in_stock,
        "is_qty_decimal": false, "show_default_notification_message": false, "use_config_min_qty": true, "min_qty": 0.0,
        "use_config_min_sale_qty": 1, "min_sale_qty": 1.0, "use_config_max_sale_qty": true, "max_sale_qty": 10000.0,
        "use_config_backorders": true, "backorders": 0, "use_config_notify_stock_qty": true, "notify_stock_qty": 1.0,
        "use_config_qty_increments": true, "qty_increments": 0.0, "use_config_enable_qty_inc": true,
        "enable_qty_increments": false, "use_config_manage_stock": true, "manage_stock": true, "low_stock_date": null,
        "is_decimal_divided": false, "stock_status_changed_auto": 0 })
}

/// A number as Magento's input takes it: a JSON number or text that reads as one.
fn number(v: &Value) -> Option<f64> {
    v.as_f64().or_else(|| v.as_str().and_then(|t| t.trim().parse().ok()))
}

/// A boolean as Magento's input takes it: `true`/`false`, 1/0 or their text.
fn flag(v: &Value) -> Option<bool> {
    v.as_bool().or_else(|| number(v).map(|n| n != 0.0)).or_else(|| v.as_str().map(|t| t == "true"))
}

/// `PUT /V1/products/{sku}/stockItems/{itemId}`: the given fields over the stock item (out of
/// stock at 0 or less, as Magento's stock check sets it); the item id.
fn set_stock_item(s: &mut Inner, sku: &str, body: &Value) -> Response {
    let Some(item) = body.get("stockItem").filter(|v| v.is_object()) else { return required("stockItem") };
    let msi_default = s.msi.iter().flatten().any(|c| c == "default");
    let Some(p) = s.products.get_mut(sku) else { return no_product(sku) };
    if let Some(q) = item.get("qty").and_then(number) {
        p.qty = q;
    }
    if let Some(b) = item.get("is_in_stock").and_then(flag) {
        p.in_stock = b;
    }
    if p.qty <= 0.0 {
        p.in_stock = false;
    }
    if msi_default {
        p.sources.insert("default".into(), (p.qty, i32::from(p.in_stock)));
    }
    Json(json!(p.item_id)).into_response()
}

/// A source as MSI writes it.
fn source_json(code: &str) -> Value {
    json!({ "source_code": code, "name": code, "enabled": true, "description": "", "country_id": "TH",
        "postcode": "10200", "region": "กรุงเทพมหานคร", "city": "เขตพระนคร", "use_default_carrier_config": true,
        "extension_attributes": {} })
}

/// `POST /V1/inventory/source-items`: every item checked, then all applied (`[]`), or none
/// and Magento's `Validation Failed` with each error.
fn save_source_items(s: &mut Inner, body: &Value) -> Response {
    let Some(list) = body.get("sourceItems") else { return required("sourceItems") };
    let list = list.as_array().cloned().unwrap_or_default();
    if list.is_empty() {
        return refuse(StatusCode::BAD_REQUEST, "Input data is empty", Value::Null);
    }
    let sources = s.msi.clone().unwrap_or_default();
    let mut errors = Vec::new();
    let mut updates = Vec::new();
    for item in &list {
        let text = |k: &str| item.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let (sku, code) = (text("sku"), text("source_code"));
        let mut error =
            |message: &str, parameters: Value| errors.push(json!({ "message": message, "parameters": parameters }));
        if sku.trim().is_empty() {
            error("\"%field\" can not be empty.", json!({ "field": "sku" }));
        } else if !s.products.contains_key(&sku) {
            error(
                "Product with requested \"%field\": \"%value\" was not found.",
                json!({ "field": "sku", "value": sku }),
            );
        }
        if code.trim().is_empty() {
            error("\"%field\" can not be empty.", json!({ "field": "source_code" }));
        } else if !sources.contains(&code) {
            error("Source with code \"%value\" does not exist.", json!({ "value": code }));
        }
        let quantity = item.get("quantity").and_then(number);
        if quantity.is_none() {
            error("\"%field\" should be numeric.", json!({ "field": "quantity" }));
        }
        let status = item.get("status").and_then(number).filter(|n| *n == 0.0 || *n == 1.0);
        if status.is_none() {
            error("\"%field\" should a known status.", json!({ "field": "status" }));
        }
        if let (Some(q), Some(st)) = (quantity, status) {
            updates.push((sku, code, q, st as i32));
        }
    }
    if !errors.is_empty() {
        return (StatusCode::BAD_REQUEST, Json(json!({ "message": "Validation Failed", "errors": errors })))
            .into_response();
    }
    for (sku, code, q, st) in updates {
        let Some(p) = s.products.get_mut(&sku) else { continue };
        // The default source and the legacy stock item are one (MSI's legacy synchronization).
        if code == "default" {
            p.qty = q;
            p.in_stock = st == 1;
        }
        p.sources.insert(code, (q, st));
    }
    Json(json!([])).into_response()
}
