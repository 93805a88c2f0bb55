//! Lazada Open Platform, Thailand (`api.lazada.co.th/rest`, tokens at `auth.lazada.com/rest`).
//!
//! Every call carries `app_key`, `timestamp` (milliseconds), `sign_method=sha256` and `sign`:
//! upper-case hex HMAC-SHA256 under the app secret of the API path followed by every other
//! parameter sorted by name, each name then its value ([`sign`]); shop calls add
//! `access_token`. Answers are JSON with `code` `"0"` on success (`data` beside it; the token
//! calls put their fields at the top level); a refusal names its `code` and `message`.
//!
//! Lazada keeps a status per item, not per order ([`status::stage_of_items`]), gives an
//! order's header and its items in two calls, and an item per unit (two of one SKU are two
//! items). Stock is set with an XML payload of at most 50 SKUs. Pushes are signed over
//! `app_key + raw body` (lower-case hex) and must be answered within 500 ms.

use std::collections::BTreeMap;
use std::fmt;

use async_trait::async_trait;
use futures::future::join_all;
use serde::Deserialize;
use serde_json::Value;

use super::{
    answer, json, send, Adapter, AppConfig, Authorized, Changed, ChangesPage, ChannelError, Grant, Limits,
    ListingState, ListingsPage, MarketLine, MarketListing, MarketOrder, Push, PushError, Secret, Session, Shop,
    StockLevel, StockOutcome, Tokens,
};
use crate::domain::money::satang_of;
use crate::domain::status;
use crate::domain::Marketplace;

mod cancel;
mod returns;
mod shipping;

const WHO: &str = "lazada";
/// The largest offset `/orders/get` takes; past it the window moves on instead.
pub const OFFSET_MAX: i64 = 5000;
/// Orders per page of `/orders/get`.
const PAGE: i64 = 100;

/// The signature of a call: upper-case hex HMAC-SHA256 under the app secret of `path`
/// followed by every parameter but `sign`, sorted by name, each name then its value.
pub fn sign<'a>(app_secret: &Secret, path: &str, params: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let sorted: BTreeMap<&str, &str> = params.into_iter().filter(|(k, _)| *k != "sign").collect();
    let mut base = String::from(path);
    for (k, v) in sorted {
        base.push_str(k);
        base.push_str(v);
    }
    super::hmac_hex(app_secret.expose().as_bytes(), base.as_bytes()).to_uppercase()
}

/// The signature of a push: lower-case hex HMAC-SHA256 under the app secret of
/// `app_key + raw body`.
pub fn push_signature(app_key: &str, app_secret: &Secret, body: &[u8]) -> String {
    let mut base = app_key.as_bytes().to_vec();
    base.extend_from_slice(body);
    super::hmac_hex(app_secret.expose().as_bytes(), &base)
}

/// Lazada for one app. Clones share the HTTP client.
#[derive(Clone)]
pub struct Lazada {
    http: reqwest::Client,
    config: AppConfig,
}

impl fmt::Debug for Lazada {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lazada").field("api_url", &self.config.api_url).field("app_key", &self.config.app_key).finish()
    }
}

/// A token call's answer.
#[derive(Deserialize, Default)]
#[serde(default)]
struct TokenAnswer {
    access_token: String,
    refresh_token: String,
    expires_in: Value,
    refresh_expires_in: Value,
    country_user_info: Option<Vec<UserInfo>>,
    country_user_info_list: Option<Vec<UserInfo>>,
}

#[derive(Deserialize, Default, Clone)]
#[serde(default)]
struct UserInfo {
    country: String,
    seller_id: Value,
    short_code: String,
}

/// A number Lazada writes as a number or as text.
fn int_of(v: &Value) -> i64 {
    match v {
        Value::Number(n) => n.as_i64().unwrap_or(0),
        Value::String(s) => s.trim().parse().unwrap_or(0),
        _ => 0,
    }
}

fn text_of(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        _ => String::new(),
    }
}

/// Lazada's times: `2018-02-09T22:44:30+08:00`, `2014-10-15 18:36:05 +0800`, or
/// milliseconds since the epoch as text (`"1413786247000"`); unix seconds.
pub fn seconds_of(v: &Value) -> Option<i64> {
    let text = text_of(v);
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        let n: i64 = text.parse().ok()?;
        return Some(if n > 100_000_000_000 { n / 1000 } else { n });
    }
    use time::format_description::well_known::Rfc3339;
    if let Ok(t) = time::OffsetDateTime::parse(text, &Rfc3339) {
        return Some(t.unix_timestamp());
    }
    let spaced = time::macros::format_description!(
        "[year]-[month]-[day] [hour]:[minute]:[second] [offset_hour sign:mandatory][offset_minute]"
    );
    time::OffsetDateTime::parse(text, &spaced).ok().map(|t| t.unix_timestamp())
}

/// Unix seconds as Lazada's filters take them (`2017-02-10T09:00:00+07:00`, Bangkok time).
pub fn iso_of(seconds: i64) -> String {
    let t = time::OffsetDateTime::from_unix_timestamp(seconds)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
        .to_offset(time::macros::offset!(+7));
    let f = time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]+07:00");
    t.format(&f).unwrap_or_default()
}

/// An order's header (`/order/get`, `/orders/get`).
#[derive(Deserialize, Default)]
#[serde(default)]
struct Header {
    order_id: Value,
    order_number: Value,
    statuses: Vec<String>,
    created_at: Value,
    updated_at: Value,
    price: Value,
    shipping_fee: Value,
    voucher_platform: Value,
    voucher_seller: Value,
    payment_method: String,
    buyer_note: String,
    customer_first_name: String,
    customer_last_name: String,
    address_shipping: ShippingAddress,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ShippingAddress {
    first_name: String,
    last_name: String,
    phone: String,
    address1: String,
    address2: String,
    address3: String,
    address4: String,
    address5: String,
    city: String,
    post_code: String,
}

/// An item of `/orders/items/get` (one per unit).
#[derive(Deserialize, Default, Clone)]
#[serde(default)]
struct Item {
    order_item_id: Value,
    /// The package it is packed in (empty until packed), its tracking number and carrier.
    package_id: String,
    tracking_code: String,
    sku: String,
    sku_id: Value,
    product_id: Value,
    item_id: Value,
    name: String,
    variation: String,
    item_price: Value,
    paid_price: Value,
    status: String,
    /// The buyer asked to cancel and the seller must answer (by `reverse_order_id`), with
    /// the buyer's reason.
    need_cancel_confirm: Value,
    reverse_order_id: Value,
    reason: String,
}

impl Item {
    /// A buyer's request to cancel this unit waits for the seller.
    fn cancel_asked(&self) -> bool {
        let asked = match &self.need_cancel_confirm {
            Value::Bool(b) => *b,
            Value::String(s) => s.eq_ignore_ascii_case("true"),
            _ => false,
        };
        asked && !self.status.eq_ignore_ascii_case("canceled")
    }
}

/// Products per page of `/products/get` (its most).
const PRODUCTS_PAGE: i64 = 50;
/// The largest offset `/products/get` takes.
const PRODUCTS_OFFSET_MAX: i64 = 10_000;

/// A product of `/products/get`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Product {
    item_id: Value,
    status: String,
    updated_time: Value,
    images: Vec<String>,
    attributes: ProductAttributes,
    skus: Vec<ProductSku>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ProductAttributes {
    name: String,
}

/// A SKU of a product, its keys cased as Lazada writes them.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ProductSku {
    #[serde(rename = "SkuId")]
    sku_id: Value,
    #[serde(rename = "SellerSku")]
    seller_sku: String,
    #[serde(rename = "Status")]
    status: String,
    quantity: Value,
    #[serde(rename = "Available")]
    available: Value,
    price: Value,
    special_price: Value,
    #[serde(rename = "Images")]
    images: Vec<String>,
    #[serde(rename = "saleProp")]
    sale_prop: serde_json::Map<String, Value>,
}

/// A SKU's sale from its status and its product's.
fn sku_state(product: &str, sku: &str) -> ListingState {
    if product.eq_ignore_ascii_case("deleted") || sku.eq_ignore_ascii_case("deleted") {
        ListingState::Deleted
    } else if sku.eq_ignore_ascii_case("active") && product.eq_ignore_ascii_case("active") {
        ListingState::Active
    } else {
        ListingState::Inactive
    }
}

impl Lazada {
    /// A product's SKUs as listings.
    fn listings_of(p: &Product) -> Result<Vec<MarketListing>, ChannelError> {
        let item_id = text_of(&p.item_id);
        let mut out = Vec::with_capacity(p.skus.len());
        for k in &p.skus {
            let money = |v: &Value| {
                satang_of(v).map_err(|e| ChannelError::Malformed(format!("lazada: product {item_id}: price: {e}")))
            };
            let price = match money(&k.special_price)? {
                0 => money(&k.price)?,
                special => special,
            };
            let stock = if k.available.is_null() { int_of(&k.quantity) } else { int_of(&k.available) };
            out.push(MarketListing {
                item_id: item_id.clone(),
                model_id: text_of(&k.sku_id),
                name: p.attributes.name.clone(),
                options: k.sale_prop.iter().map(|(name, v)| (name.clone(), text_of(v))).collect(),
                seller_sku: k.seller_sku.trim().to_string(),
                price_satang: price,
                stock,
                image_url: k
                    .images
                    .iter()
                    .chain(p.images.iter())
                    .find(|u| !u.trim().is_empty())
                    .cloned()
                    .unwrap_or_default(),
                state: sku_state(&p.status, &k.status),
                updated_at_s: seconds_of(&p.updated_time).unwrap_or(0),
            });
        }
        Ok(out)
    }

    /// Lazada for the app of `config`.
    pub fn new(http: reqwest::Client, config: AppConfig) -> Self {
        Lazada { http, config }
    }

    fn now_ms() -> i64 {
        (time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
    }

    /// A signed request of `path` on `host` with `params`, as a GET query or a POST form.
    fn request(
        &self,
        host: &str,
        path: &str,
        access: Option<&Secret>,
        params: &[(&str, String)],
        post: bool,
    ) -> reqwest::RequestBuilder {
        let ts = Self::now_ms().to_string();
        let mut all: Vec<(&str, &str)> =
            vec![("app_key", self.config.app_key.trim()), ("timestamp", &ts), ("sign_method", "sha256")];
        if let Some(a) = access {
            all.push(("access_token", a.expose()));
        }
        all.extend(params.iter().map(|(k, v)| (*k, v.as_str())));
        let signature = sign(&self.config.app_secret, path, all.iter().copied());
        all.push(("sign", &signature));
        let url = format!("{}{path}", host.trim_end_matches('/'));
        if post {
            self.http.post(url).form(&all)
        } else {
            self.http.get(url).query(&all)
        }
    }

    /// Sends and reads an answer, with its `code` (`"0"` on success).
    async fn call_raw(&self, req: reqwest::RequestBuilder) -> Result<(String, Value), ChannelError> {
        let res = send(WHO, req).await?;
        let (status, body) = answer(WHO, res).await?;
        let v: Value = json(WHO, &body).map_err(|e| {
            if status.is_success() {
                e
            } else {
                ChannelError::rejected(status.as_str(), &String::from_utf8_lossy(&body))
            }
        })?;
        Ok((text_of(v.get("code").unwrap_or(&Value::Null)), v))
    }

    /// Sends and reads an answer, turning Lazada's refusal into a [`ChannelError`].
    async fn call(&self, req: reqwest::RequestBuilder) -> Result<Value, ChannelError> {
        let (code, v) = self.call_raw(req).await?;
        if code == "0" {
            return Ok(v);
        }
        let message = v.get("message").map(text_of).unwrap_or_default();
        Err(classify(&code, &message, v.get("detail")))
    }

    fn tokens(a: &TokenAnswer, now_s: i64) -> Result<Tokens, ChannelError> {
        if a.access_token.is_empty() || a.refresh_token.is_empty() {
            return Err(ChannelError::Malformed("lazada: token answer without tokens".into()));
        }
        Ok(Tokens {
            access: Secret::new(a.access_token.clone()),
            refresh: Secret::new(a.refresh_token.clone()),
            access_expires_at_s: now_s + int_of(&a.expires_in).max(0),
            refresh_expires_at_s: now_s + int_of(&a.refresh_expires_in).max(0),
        })
    }

    fn order(h: Header, items: &[Item]) -> Result<MarketOrder, ChannelError> {
        let id = text_of(&h.order_id);
        let money = |v: &Value, what: &str| {
            satang_of(v).map_err(|e| ChannelError::Malformed(format!("lazada: order {id}: {what}: {e}")))
        };
        // Items are one per unit: the same SKU at the same prices is one line. A cancelled
        // unit is left out, unless every unit is (a cancelled order keeps what it was).
        let every_unit_cancelled = items.iter().all(|i| i.status.eq_ignore_ascii_case("canceled"));
        let mut lines: Vec<MarketLine> = Vec::new();
        for i in items.iter().filter(|i| every_unit_cancelled || !i.status.eq_ignore_ascii_case("canceled")) {
            let unit = money(&i.item_price, "item_price")?;
            let paid = money(&i.paid_price, "paid_price")?;
            let item_id = if i.product_id.is_null() { text_of(&i.item_id) } else { text_of(&i.product_id) };
            let model_id = text_of(&i.sku_id);
            match lines.iter_mut().find(|l| {
                l.model_id == model_id
                    && l.item_id == item_id
                    && l.unit_price_satang == unit
                    && l.paid_unit_price_satang == paid
            }) {
                Some(l) => l.quantity += 1,
                None => lines.push(MarketLine {
                    item_id,
                    model_id,
                    seller_sku: i.sku.trim().to_string(),
                    name: if i.variation.trim().is_empty() {
                        i.name.clone()
                    } else {
                        format!("{} ({})", i.name, i.variation)
                    },
                    quantity: 1,
                    unit_price_satang: unit,
                    paid_unit_price_satang: paid,
                }),
            }
        }
        let price = money(&h.price, "price")?;
        let shipping = money(&h.shipping_fee, "shipping_fee")?;
        let voucher_seller = money(&h.voucher_seller, "voucher_seller")?;
        let voucher_platform = money(&h.voucher_platform, "voucher_platform")?;
        let statuses: Vec<&str> = if h.statuses.is_empty() {
            items.iter().map(|i| i.status.as_str()).collect()
        } else {
            h.statuses.iter().map(String::as_str).collect()
        };
        let asked = items.iter().find(|i| i.cancel_asked());
        let stage = status::with_cancel_request(
            status::stage_of_items(Marketplace::Lazada, statuses.iter().copied()),
            asked.is_some(),
        );
        let a = &h.address_shipping;
        let full = [&a.address1, &a.address2, &a.address3, &a.address4, &a.address5]
            .iter()
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(", ");
        Ok(MarketOrder {
            order_number: {
                let n = text_of(&h.order_number);
                if n.is_empty() {
                    id.clone()
                } else {
                    n
                }
            },
            order_id: id,
            status: statuses.join(","),
            stage,
            created_at_s: seconds_of(&h.created_at).unwrap_or(0),
            updated_at_s: seconds_of(&h.updated_at).unwrap_or(0),
            cod: h.payment_method.eq_ignore_ascii_case("COD"),
            buyer_name: format!("{} {}", h.customer_first_name, h.customer_last_name).trim().to_string(),
            address: super::Address {
                name: format!("{} {}", a.first_name, a.last_name).trim().to_string(),
                phone: a.phone.clone(),
                full,
                province: a.address3.clone(),
                district: a.city.clone(),
                sub_district: a.address4.clone(),
                postcode: a.post_code.clone(),
            },
            // What the buyer pays: the items' price, less every voucher, plus shipping.
            total_satang: price - voucher_seller - voucher_platform + shipping,
            shipping_fee_satang: shipping,
            seller_discount_satang: voucher_seller,
            platform_discount_satang: voucher_platform,
            payment_method: h.payment_method.clone(),
            note: h.buyer_note.clone(),
            cancel_reason: asked.map(|i| i.reason.trim().to_string()).unwrap_or_default(),
            lines,
        })
    }
}

/// What Lazada's refusal `code` means.
fn classify(code: &str, message: &str, detail: Option<&Value>) -> ChannelError {
    let text = format!("lazada: {code}: {}", super::clip(message));
    match code {
        "IllegalAccessToken" | "InvalidAccessToken" | "AccessTokenExpired" => ChannelError::TokenRefused(text),
        "IllegalRefreshToken" | "InvalidCode" | "AUTH_TYPE_UNSUPPORTED" => ChannelError::AuthorizationEnded(text),
        "IncompleteSignature" | "InvalidSignature" | "InvalidAppKey" | "AppWhiteListIpLimit" => {
            ChannelError::AppRefused(text)
        }
        "ApiCallLimit" | "901" | "E901" => {
            ChannelError::Throttled { retry_after: Some(std::time::Duration::from_secs(1)), message: text }
        }
        "6" | "1000" | "513" | "ServiceTimeout" | "InternalError" => ChannelError::Unreachable(text),
        _ => {
            let detail = detail.map(|d| super::clip(&d.to_string())).unwrap_or_default();
            ChannelError::rejected(code, &format!("{message} {detail}"))
        }
    }
}

/// The XML payload of a stock update (`<Request><Product><Skus><Sku>…`), ids as digits only.
fn stock_payload(levels: &[StockLevel]) -> Result<String, ChannelError> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut xml = String::from("<Request><Product><Skus>");
    for l in levels {
        if !digits(&l.item_id) || !digits(&l.model_id) {
            return Err(ChannelError::rejected("E005", "item and SKU ids are numbers"));
        }
        xml.push_str(&format!(
            "<Sku><ItemId>{}</ItemId><SkuId>{}</SkuId><Quantity>{}</Quantity></Sku>",
            l.item_id,
            l.model_id,
            l.quantity.max(0)
        ));
    }
    xml.push_str("</Skus></Product></Request>");
    Ok(xml)
}

fn parse_push(body: &[u8]) -> Result<Vec<Push>, PushError> {
    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Body {
        seller_id: Value,
        message_type: i64,
        data: Value,
    }
    let b: Body = serde_json::from_slice(body).map_err(|e| PushError::Malformed(super::clip(&e.to_string())))?;
    let field = |k: &str| b.data.get(k).map(text_of).unwrap_or_default();
    Ok(match b.message_type {
        0 => {
            let (shop_id, order_id) = (text_of(&b.seller_id), field("trade_order_id"));
            if shop_id.is_empty() || order_id.is_empty() {
                return Err(PushError::Malformed("lazada: order push without seller_id or trade_order_id".into()));
            }
            vec![Push::OrderChanged {
                shop_id,
                order_id,
                status: field("order_status"),
                updated_at_s: b.data.get("status_update_time").and_then(seconds_of).unwrap_or(0),
            }]
        }
        // A reverse order changed: a return is read with the shop's returns, a buyer's request
        // to cancel with its order.
        10 => {
            let shop_id = text_of(&b.seller_id);
            if shop_id.is_empty() {
                return Err(PushError::Malformed("lazada: reverse push without seller_id".into()));
            }
            let mut out = vec![Push::ReturnChanged { shop_id: shop_id.clone() }];
            let order_id = field("trade_order_id");
            if !order_id.is_empty() {
                out.push(Push::OrderChanged {
                    shop_id,
                    order_id,
                    status: field("reverse_status"),
                    updated_at_s: b.data.get("status_update_time").and_then(seconds_of).unwrap_or(0),
                });
            }
            out
        }
        8 => vec![Push::AuthorizationExpiring {
            shop_id: field("seller_id"),
            expires_at_s: b.data.get("auth_expiry_time").and_then(seconds_of).unwrap_or(0),
        }],
        t => vec![Push::Other { kind: format!("lazada:{t}") }],
    })
}

#[async_trait]
impl Adapter for Lazada {
    fn marketplace(&self) -> Marketplace {
        Marketplace::Lazada
    }

    fn limits(&self) -> Limits {
        Limits { window_s: 30 * 24 * 3600, details_per_call: 50, stock_per_call: 50, stock_one_item: false }
    }

    fn authorize_url(&self, redirect: &str, state: &str, _now_s: i64) -> Result<String, ChannelError> {
        let mut url = reqwest::Url::parse(&self.config.authorize_url).map_err(|_| {
            ChannelError::AppRefused(format!("lazada: authorize URL {:?} is not a URL", self.config.authorize_url))
        })?;
        url.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("force_auth", "true")
            .append_pair("redirect_uri", redirect)
            .append_pair("client_id", self.config.app_key.trim())
            .append_pair("state", state);
        Ok(url.into())
    }

    async fn connect(&self, grant: &Grant) -> Result<Authorized, ChannelError> {
        let now = Self::now_ms() / 1000;
        let req =
            self.request(&self.config.auth_url, "/auth/token/create", None, &[("code", grant.code.clone())], true);
        let answer: TokenAnswer = serde_json::from_value(self.call(req).await?)
            .map_err(|e| ChannelError::Malformed(format!("lazada: token: {}", super::clip(&e.to_string()))))?;
        let tokens = Self::tokens(&answer, now)?;
        // The create call names the list `country_user_info`, the refresh call `_list`.
        let users =
            answer.country_user_info.as_ref().or(answer.country_user_info_list.as_ref()).cloned().unwrap_or_default();
        let user = users
            .iter()
            .find(|u| u.country.eq_ignore_ascii_case("th"))
            .or(users.first())
            .cloned()
            .ok_or_else(|| ChannelError::Malformed("lazada: token answer names no seller".into()))?;
        let seller =
            self.call(self.request(&self.config.api_url, "/seller/get", Some(&tokens.access), &[], false)).await?;
        let data = seller.get("data").cloned().unwrap_or_default();
        let shop_id = {
            let s = text_of(&user.seller_id);
            if s.is_empty() {
                data.get("seller_id").map(text_of).unwrap_or_default()
            } else {
                s
            }
        };
        let name = data.get("name").map(text_of).filter(|n| !n.is_empty()).unwrap_or_else(|| user.short_code.clone());
        Ok(Authorized {
            tokens,
            shops: vec![Shop { shop_id, name, region: user.country.to_uppercase(), cipher: String::new() }],
        })
    }

    async fn refresh(&self, _shop: &Shop, refresh: &Secret) -> Result<Tokens, ChannelError> {
        let now = Self::now_ms() / 1000;
        let params = [("refresh_token", refresh.expose().to_string())];
        let req = self.request(&self.config.auth_url, "/auth/token/refresh", None, &params, true);
        let answer: TokenAnswer = serde_json::from_value(self.call(req).await?)
            .map_err(|e| ChannelError::Malformed(format!("lazada: refresh: {}", super::clip(&e.to_string()))))?;
        Self::tokens(&answer, now)
    }

    async fn changed_orders(
        &self,
        session: Session<'_>,
        from_s: i64,
        to_s: i64,
        cursor: Option<&str>,
    ) -> Result<ChangesPage, ChannelError> {
        let offset: i64 = cursor.and_then(|c| c.parse().ok()).unwrap_or(0);
        let params = [
            ("update_after", iso_of(from_s)),
            ("update_before", iso_of(to_s)),
            ("sort_by", "updated_at".to_string()),
            ("sort_direction", "ASC".to_string()),
            ("status", "all".to_string()),
            ("offset", offset.to_string()),
            ("limit", PAGE.to_string()),
        ];
        let v =
            self.call(self.request(&self.config.api_url, "/orders/get", Some(session.access), &params, false)).await?;
        let orders: Vec<Header> = v
            .pointer("/data/orders")
            .cloned()
            .map(serde_json::from_value)
            .transpose()
            .map_err(|e| ChannelError::Malformed(format!("lazada: orders: {}", super::clip(&e.to_string()))))?
            .unwrap_or_default();
        let full = orders.len() as i64 == PAGE;
        let next = offset + PAGE;
        Ok(ChangesPage {
            orders: orders
                .iter()
                .map(|o| Changed {
                    order_id: text_of(&o.order_id),
                    updated_at_s: seconds_of(&o.updated_at).unwrap_or(0),
                })
                .collect(),
            // Past Lazada's offset cap the caller moves its window to the last change seen.
            next: (full && next < OFFSET_MAX).then(|| next.to_string()),
        })
    }

    async fn orders(&self, session: Session<'_>, ids: &[String]) -> Result<Vec<MarketOrder>, ChannelError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let headers = join_all(ids.iter().map(|id| {
            let req = self.request(
                &self.config.api_url,
                "/order/get",
                Some(session.access),
                &[("order_id", id.clone())],
                false,
            );
            self.call(req)
        }))
        .await;
        let list = format!("[{}]", ids.join(","));
        let items = self
            .call(self.request(
                &self.config.api_url,
                "/orders/items/get",
                Some(session.access),
                &[("order_ids", list)],
                false,
            ))
            .await?;
        #[derive(Deserialize, Default)]
        #[serde(default)]
        struct OrderItems {
            order_id: Value,
            order_items: Vec<Item>,
        }
        let items: Vec<OrderItems> = items
            .get("data")
            .cloned()
            .map(serde_json::from_value)
            .transpose()
            .map_err(|e| ChannelError::Malformed(format!("lazada: items: {}", super::clip(&e.to_string()))))?
            .unwrap_or_default();
        let mut out = Vec::with_capacity(ids.len());
        for h in headers {
            let h = match h {
                Ok(v) => v,
                // An order the shop does not have (`16`) is left out.
                Err(ChannelError::Rejected { code, .. }) if code == "16" => continue,
                Err(e) => return Err(e),
            };
            let header: Header = serde_json::from_value(h.get("data").cloned().unwrap_or_default())
                .map_err(|e| ChannelError::Malformed(format!("lazada: order: {}", super::clip(&e.to_string()))))?;
            let id = text_of(&header.order_id);
            let its =
                items.iter().find(|i| text_of(&i.order_id) == id).map(|i| i.order_items.as_slice()).unwrap_or(&[]);
            out.push(Lazada::order(header, its)?);
        }
        Ok(out)
    }

    async fn set_stock(&self, session: Session<'_>, levels: &[StockLevel]) -> Result<Vec<StockOutcome>, ChannelError> {
        if levels.is_empty() {
            return Ok(Vec::new());
        }
        if levels.len() > 50 {
            return Err(ChannelError::rejected("4171", "at most 50 SKUs per call"));
        }
        let payload = stock_payload(levels)?;
        let req = self.request(
            &self.config.api_url,
            "/product/price_quantity/update",
            Some(session.access),
            &[("payload", payload)],
            true,
        );
        let (code, v) = self.call_raw(req).await?;
        let refused: Vec<(String, String)> = match code.as_str() {
            "0" => Vec::new(),
            // Some SKUs were refused: `detail` names each with its reason.
            "501" => v
                .get("detail")
                .and_then(Value::as_array)
                .map(|d| {
                    d.iter()
                        .map(|e| {
                            let sku = e.get("sku_id").or_else(|| e.get("SkuId")).map(text_of).unwrap_or_default();
                            let why = e.get("message").map(text_of).unwrap_or_else(|| "refused".into());
                            (sku, super::clip(&why))
                        })
                        .collect()
                })
                .unwrap_or_default(),
            _ => return Err(classify(&code, &v.get("message").map(text_of).unwrap_or_default(), v.get("detail"))),
        };
        Ok(super::outcomes(levels, |model| refused.iter().find(|(m, _)| m == model).map(|(_, r)| r.clone())))
    }

    async fn listings(&self, session: Session<'_>, cursor: Option<&str>) -> Result<ListingsPage, ChannelError> {
        // The live and inactive products first (`all`), then the deleted ones, which only
        // their own filter lists: `<filter>:<offset>`.
        let (filter, offset) = match cursor.and_then(|c| c.split_once(':')) {
            Some((f, o)) if f == "deleted" || f == "all" => (f.to_string(), o.parse::<i64>().unwrap_or(0)),
            _ => ("all".to_string(), 0),
        };
        let params = [("filter", filter.clone()), ("offset", offset.to_string()), ("limit", PRODUCTS_PAGE.to_string())];
        let v = self
            .call(self.request(&self.config.api_url, "/products/get", Some(session.access), &params, false))
            .await?;
        let products: Vec<Product> = v
            .pointer("/data/products")
            .cloned()
            .map(serde_json::from_value)
            .transpose()
            .map_err(|e| ChannelError::Malformed(format!("lazada: products: {}", super::clip(&e.to_string()))))?
            .unwrap_or_default();
        let total = v.pointer("/data/total_products").map(int_of).unwrap_or(0);
        let mut listings = Vec::new();
        for p in &products {
            listings.extend(Lazada::listings_of(p)?);
        }
        let after = offset + products.len() as i64;
        let next = if !products.is_empty() && after < total && after < PRODUCTS_OFFSET_MAX {
            Some(format!("{filter}:{after}"))
        } else if filter == "all" {
            Some("deleted:0".to_string())
        } else {
            None
        };
        Ok(ListingsPage { listings, next, total: if filter == "all" { total } else { 0 } })
    }

    async fn items(&self, session: Session<'_>, item_ids: &[String]) -> Result<Vec<MarketListing>, ChannelError> {
        // GetProductItem: every SKU of one product by its item id.
        let mut listings = Vec::new();
        for id in item_ids {
            let params = [("item_id", id.clone())];
            let v = self
                .call(self.request(&self.config.api_url, "/product/item/get", Some(session.access), &params, false))
                .await?;
            let Some(data) = v.get("data").filter(|d| d.is_object()) else { continue };
            let p: Product = serde_json::from_value(data.clone()).map_err(|e| {
                ChannelError::Malformed(format!("lazada: product item: {}", super::clip(&e.to_string())))
            })?;
            listings.extend(Lazada::listings_of(&p)?);
        }
        Ok(listings)
    }

    fn shipping(&self) -> Option<&dyn super::shipping::Shipping> {
        Some(self)
    }

    fn cancellations(&self) -> Option<&dyn super::cancellations::Cancellations> {
        Some(self)
    }

    fn returns(&self) -> Option<&dyn super::returns::Returns> {
        Some(self)
    }

    fn read_push(&self, _url: &str, headers: &http::HeaderMap, body: &[u8]) -> Result<Vec<Push>, PushError> {
        if !super::signed_with_app_key(&self.config, headers, body) {
            return Err(PushError::BadSignature);
        }
        parse_push(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_published_signature_vector() {
        let params = [
            ("app_key", "123456"),
            ("access_token", "test"),
            ("timestamp", "1517820392000"),
            ("sign_method", "sha256"),
            ("order_id", "1234"),
        ];
        assert_eq!(
            sign(&Secret::new("helloworld"), "/order/get", params),
            "4190D32361CFB9581350222F345CB77F3B19F0E31D162316848A2C1FFD5FAB4A"
        );
    }

    #[test]
    fn the_published_push_vector() {
        let body = br#"{"seller_id":"1234567", "message_type":0, "data":{...}..}"#;
        assert_eq!(
            push_signature("123456", &Secret::new("3412gyo124goi3124"), body),
            "f3d2ca947f16a50b577c036adecd18bec126ea19cadedd59816e255d3b6104ab"
        );
    }

    #[test]
    fn a_reverse_order_push_reads_the_shops_returns_and_its_order() {
        // The reverse push's published sample.
        let body = br#"{"seller_id":"12345","message_type":10,"data":{"reverse_order_id":658960600102006,"reverse_status":"RTM_INIT","trade_order_id":416557324702006,"extraParams":{},"trade_order_line_id":416557324802006,"buyer_id":100112802006,"seller_id":1000143772,"reverse_order_line_id":663790000102006,"status_update_time":1626767698},"timestamp":1627889609,"site":"lazada_sg"}"#;
        assert_eq!(
            parse_push(body).unwrap(),
            vec![
                Push::ReturnChanged { shop_id: "12345".into() },
                Push::OrderChanged {
                    shop_id: "12345".into(),
                    order_id: "416557324702006".into(),
                    status: "RTM_INIT".into(),
                    updated_at_s: 1626767698
                }
            ]
        );
    }

    #[test]
    fn pushes_are_read_once_their_signature_holds() {
        let lazada = Lazada::new(
            reqwest::Client::new(),
            AppConfig { app_key: "123456".into(), app_secret: Secret::new("s3cret"), ..Default::default() },
        );
        let body = br#"{"seller_id":"1234567","message_type":0,"data":{"order_status":"unpaid","trade_order_id":"260422900198363","trade_order_line_id":"260422900298363","status_update_time":1603698638},"timestamp":1603766859530,"site":"lazada_th"}"#;
        let mut headers = http::HeaderMap::new();
        headers.insert(
            http::header::AUTHORIZATION,
            push_signature("123456", &Secret::new("s3cret"), body).parse().unwrap(),
        );
        assert_eq!(
            lazada.read_push("", &headers, body).unwrap(),
            vec![Push::OrderChanged {
                shop_id: "1234567".into(),
                order_id: "260422900198363".into(),
                status: "unpaid".into(),
                updated_at_s: 1603698638
            }]
        );
        headers.insert(
            http::header::AUTHORIZATION,
            push_signature("123456", &Secret::new("other"), body).parse().unwrap(),
        );
        assert_eq!(lazada.read_push("", &headers, body), Err(PushError::BadSignature));
        let expiry = br#"{"seller_id":"null","message_type":8,"data":{"app_key":"115527","auth_expiry_time":1627542238,"seller_id":"1000165972"},"timestamp":1627416758,"site":"lazada_th"}"#;
        assert_eq!(
            parse_push(expiry).unwrap(),
            vec![Push::AuthorizationExpiring { shop_id: "1000165972".into(), expires_at_s: 1627542238 }]
        );
    }

    #[test]
    fn times_in_every_format_lazada_writes() {
        assert_eq!(seconds_of(&json!("2018-02-09T22:44:30+08:00")), Some(1518187470));
        assert_eq!(seconds_of(&json!("2014-10-15 18:36:05 +0800")), Some(1413369365));
        assert_eq!(seconds_of(&json!("1413786247000")), Some(1413786247));
        assert_eq!(seconds_of(&json!(1603698638)), Some(1603698638));
        assert_eq!(seconds_of(&json!("")), None);
        assert_eq!(iso_of(1518187470), "2018-02-09T21:44:30+07:00");
    }

    #[test]
    fn an_order_and_its_units_read_into_lines() {
        let h: Header = serde_json::from_value(json!({
            "order_id": 32793, "order_number": "300012345", "statuses": ["pending"],
            "created_at": "2026-11-20T10:00:00+07:00", "updated_at": "2026-11-20T10:05:00+07:00",
            "price": "398.00", "shipping_fee": "40.00", "voucher_platform": "20.00", "voucher_seller": "10.00",
            "payment_method": "COD", "customer_first_name": "สมชาย", "customer_last_name": "ใจดี",
            "address_shipping": {"first_name": "สมชาย", "last_name": "ใจดี", "phone": "66812345678",
                "address1": "99 ถนนพหลโยธิน", "address3": "กรุงเทพมหานคร", "address4": "สามเสนใน",
                "city": "พญาไท", "post_code": "10400"}
        }))
        .unwrap();
        let unit = |paid: &str| {
            serde_json::from_value::<Item>(json!({"sku": "TEE-RED-L", "sku_id": "666", "product_id": "1001",
                "name": "เสื้อยืด", "variation": "แดง L", "item_price": "199.00", "paid_price": paid, "status": "pending"}))
            .unwrap()
        };
        let cancelled: Item = serde_json::from_value(json!({"sku": "BAG", "sku_id": "7", "product_id": "9",
            "name": "ถุง", "item_price": "20.00", "paid_price": "20.00", "status": "canceled"}))
        .unwrap();
        let o = Lazada::order(h, &[unit("199.00"), unit("199.00"), cancelled.clone()]).unwrap();
        assert_eq!(o.lines.len(), 1, "two units of one SKU are one line; a cancelled item is no line");
        assert_eq!(
            (o.lines[0].quantity, o.lines[0].seller_sku.as_str(), o.lines[0].model_id.as_str()),
            (2, "TEE-RED-L", "666")
        );
        assert_eq!(o.total_satang, 39_800 - 1_000 - 2_000 + 4_000);
        assert_eq!((o.seller_discount_satang, o.platform_discount_satang), (1_000, 2_000));
        assert_eq!(o.stage, Some(crate::domain::status::Stage::Paid));
        assert_eq!(o.order_number, "300012345");
        assert!(o.cod);
        assert_eq!(o.updated_at_s, 1795143900);

        // A cancelled order keeps its lines; a buyer's request waits with its reason.
        let gone = |status: &str| -> Header {
            serde_json::from_value(json!({"statuses": [status], "price": "199.00", "shipping_fee": "0.00",
                "voucher_platform": "0.00", "voucher_seller": "0.00"}))
            .unwrap()
        };
        let every = Lazada::order(gone("canceled"), std::slice::from_ref(&cancelled)).unwrap();
        assert_eq!((every.lines.len(), every.stage), (1, Some(crate::domain::status::Stage::Cancelled)));
        let mut asked = unit("199.00");
        asked.need_cancel_confirm = json!(true);
        asked.reverse_order_id = json!("510018817003");
        asked.reason = "เปลี่ยนใจ ".into();
        let o = Lazada::order(gone("pending"), &[asked]).unwrap();
        assert_eq!((o.stage, o.cancel_reason.as_str()), (Some(crate::domain::status::Stage::CancelAsked), "เปลี่ยนใจ"));
    }

    #[test]
    fn stock_goes_as_xml_of_numbers_only() {
        let l = |item: &str, sku: &str, q| StockLevel { item_id: item.into(), model_id: sku.into(), quantity: q };
        assert_eq!(
            stock_payload(&[l("6718170187", "12761620980", 200), l("1", "2", -3)]).unwrap(),
            "<Request><Product><Skus><Sku><ItemId>6718170187</ItemId><SkuId>12761620980</SkuId><Quantity>200</Quantity></Sku>\
             <Sku><ItemId>1</ItemId><SkuId>2</SkuId><Quantity>0</Quantity></Sku></Skus></Product></Request>"
        );
        assert!(stock_payload(&[l("1", "<x/>", 1)]).is_err());
    }

    #[test]
    fn refusals_are_classified() {
        assert!(matches!(classify("IllegalAccessToken", "", None), ChannelError::TokenRefused(_)));
        assert!(matches!(classify("IllegalRefreshToken", "", None), ChannelError::AuthorizationEnded(_)));
        assert!(matches!(classify("IncompleteSignature", "", None), ChannelError::AppRefused(_)));
        assert!(matches!(classify("ApiCallLimit", "", None), ChannelError::Throttled { .. }));
        assert!(matches!(classify("E901", "", None), ChannelError::Throttled { .. }));
        assert!(matches!(classify("17", "E017 Invalid Date Format", None), ChannelError::Rejected { .. }));
    }
}
