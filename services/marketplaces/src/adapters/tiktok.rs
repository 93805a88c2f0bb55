//! TikTok Shop Partner API 202309 (`open-api.tiktokglobalshop.com`, tokens at
//! `auth.tiktok-shops.com`).
//!
//! Every call carries `app_key`, `timestamp` (seconds) and `sign` in its query, a shop's
//! call its `shop_cipher` too, and the access token in the `x-tts-access-token` header. The
//! signature is lower-case hex HMAC-SHA256 under the app secret of the secret, the path, the
//! query sorted by name (each name then value, without `sign` and `access_token`), the raw
//! body and the secret again ([`sign`]). Answers are `{code, message, request_id, data}`,
//! `code` 0 on success whatever the HTTP status; throttling is HTTP 429.
//!
//! Token expiry values are absolute unix times. Webhooks are answered 200 with an empty
//! body within 3 s; type 1 is an order's status (written `CANCEL` there), 6 a seller's
//! deauthorization, 7 an authorization about to expire.

use std::collections::BTreeMap;
use std::fmt;

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{
    answer, hmac_hex, json, send, Adapter, AppConfig, Authorized, Changed, ChangesPage, ChannelError, Grant, Limits,
    ListingState, ListingsPage, MarketLine, MarketListing, MarketOrder, Push, PushError, Secret, Session, Shop,
    StockLevel, StockOutcome, Tokens,
};
use crate::domain::money::satang_of;
use crate::domain::status;
use crate::domain::Marketplace;

mod cancel;
mod returns;
mod shipping;

const WHO: &str = "tiktok_shop";
/// TikTok's code for an access token that has expired.
pub const EXPIRED_CREDENTIALS: i64 = 105002;
/// TikTok's code for a signature it does not accept.
pub const INVALID_SIGN: i64 = 106001;
/// TikTok's code for too many requests.
pub const TOO_MANY_REQUESTS: i64 = 36009002;

/// The signature of a call: lower-case hex HMAC-SHA256 under the app secret of
/// `secret + path + sorted query (name then value, without sign and access_token) + body +
/// secret`.
pub fn sign<'a>(
    app_secret: &Secret,
    path: &str,
    query: impl IntoIterator<Item = (&'a str, &'a str)>,
    body: &[u8],
) -> String {
    let sorted: BTreeMap<&str, &str> =
        query.into_iter().filter(|(k, _)| *k != "sign" && *k != "access_token").collect();
    let secret = app_secret.expose();
    let mut base = Vec::with_capacity(secret.len() * 2 + path.len() + body.len() + 64);
    base.extend_from_slice(secret.as_bytes());
    base.extend_from_slice(path.as_bytes());
    for (k, v) in sorted {
        base.extend_from_slice(k.as_bytes());
        base.extend_from_slice(v.as_bytes());
    }
    base.extend_from_slice(body);
    base.extend_from_slice(secret.as_bytes());
    hmac_hex(secret.as_bytes(), &base)
}

/// The signature of a webhook: hex HMAC-SHA256 under the app secret of `app_key + raw body`.
pub fn push_signature(app_key: &str, app_secret: &Secret, body: &[u8]) -> String {
    let mut base = app_key.as_bytes().to_vec();
    base.extend_from_slice(body);
    hmac_hex(app_secret.expose().as_bytes(), &base)
}

/// TikTok Shop for one app. Clones share the HTTP client.
#[derive(Clone)]
pub struct TiktokShop {
    http: reqwest::Client,
    config: AppConfig,
}

impl fmt::Debug for TiktokShop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TiktokShop")
            .field("api_url", &self.config.api_url)
            .field("app_key", &self.config.app_key)
            .finish()
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Envelope {
    code: i64,
    message: String,
    data: Value,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct TokenData {
    access_token: String,
    access_token_expire_in: i64,
    refresh_token: String,
    refresh_token_expire_in: i64,
}

/// An order of the 202309 order calls.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Order {
    id: String,
    status: String,
    create_time: i64,
    update_time: i64,
    is_cod: bool,
    buyer_message: String,
    payment_method_name: String,
    payment: Payment,
    recipient_address: Recipient,
    line_items: Vec<LineItem>,
    /// Its packages (once paid).
    packages: Vec<PackageRef>,
    /// The buyer asked to cancel and the seller must answer.
    is_buyer_request_cancel: bool,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct PackageRef {
    id: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Payment {
    total_amount: Value,
    shipping_fee: Value,
    seller_discount: Value,
    platform_discount: Value,
    shipping_fee_seller_discount: Value,
    shipping_fee_platform_discount: Value,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Recipient {
    name: String,
    phone_number: String,
    full_address: String,
    postal_code: String,
    district_info: Vec<District>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct District {
    address_level: String,
    address_name: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct LineItem {
    product_id: String,
    sku_id: String,
    seller_sku: String,
    product_name: String,
    sku_name: String,
    original_price: Value,
    sale_price: Value,
    display_status: String,
}

/// Products per page of a product search.
const PRODUCTS_PAGE: usize = 50;
/// The code of a product the shop does not have (any more).
const PRODUCT_NOT_FOUND: &str = "12052032";

/// A product of the 202309 product calls.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Product {
    id: String,
    title: String,
    status: String,
    update_time: i64,
    skus: Vec<ProductSku>,
    main_images: Vec<MainImage>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct MainImage {
    urls: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ProductSku {
    id: String,
    seller_sku: String,
    price: SkuPrice,
    inventory: Vec<Inventory>,
    sales_attributes: Vec<SalesAttribute>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct SkuPrice {
    sale_price: Value,
    tax_exclusive_price: Value,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Inventory {
    quantity: i64,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct SalesAttribute {
    name: String,
    value_name: String,
}

/// What a product's status says of its sale.
fn product_state(status: &str) -> ListingState {
    match status {
        "ACTIVATE" => ListingState::Active,
        "DELETED" => ListingState::Deleted,
        _ => ListingState::Inactive,
    }
}

impl TiktokShop {
    /// A product's SKUs as listings.
    fn listings_of(p: &Product) -> Result<Vec<MarketListing>, ChannelError> {
        let mut out = Vec::with_capacity(p.skus.len());
        for k in &p.skus {
            let money = |v: &Value| {
                satang_of(v).map_err(|e| ChannelError::Malformed(format!("tiktok_shop: product {}: price: {e}", p.id)))
            };
            let price = match money(&k.price.sale_price)? {
                0 => money(&k.price.tax_exclusive_price)?,
                n => n,
            };
            out.push(MarketListing {
                item_id: p.id.clone(),
                model_id: k.id.clone(),
                name: p.title.clone(),
                options: k.sales_attributes.iter().map(|a| (a.name.clone(), a.value_name.clone())).collect(),
                seller_sku: k.seller_sku.trim().to_string(),
                price_satang: price,
                stock: if k.inventory.is_empty() { -1 } else { k.inventory.iter().map(|i| i.quantity).sum() },
                image_url: p.main_images.iter().flat_map(|i| i.urls.iter()).next().cloned().unwrap_or_default(),
                state: product_state(&p.status),
                updated_at_s: p.update_time,
            });
        }
        Ok(out)
    }

    /// TikTok Shop for the app of `config`.
    pub fn new(http: reqwest::Client, config: AppConfig) -> Self {
        TiktokShop { http, config }
    }

    fn now_s() -> i64 {
        time::OffsetDateTime::now_utc().unix_timestamp()
    }

    /// A signed call of `path` with `query` and a JSON `body` (a GET without one).
    async fn call(
        &self,
        session: Option<Session<'_>>,
        path: &str,
        query: &[(&str, String)],
        body: Option<&Value>,
    ) -> Result<Value, ChannelError> {
        let ts = Self::now_s().to_string();
        let mut all: Vec<(&str, &str)> = vec![("app_key", self.config.app_key.trim()), ("timestamp", &ts)];
        if let Some(s) = session.filter(|s| !s.shop.cipher.is_empty()) {
            all.push(("shop_cipher", &s.shop.cipher));
        }
        all.extend(query.iter().map(|(k, v)| (*k, v.as_str())));
        let raw = body.map(|b| b.to_string()).unwrap_or_default();
        let signature = sign(&self.config.app_secret, path, all.iter().copied(), raw.as_bytes());
        all.push(("sign", &signature));
        let url = format!("{}{path}", self.config.api_url.trim_end_matches('/'));
        let mut req = if body.is_some() {
            self.http.post(url).header(reqwest::header::CONTENT_TYPE, "application/json").body(raw)
        } else {
            self.http.get(url)
        };
        req = req.query(&all);
        if let Some(s) = session {
            req = req.header("x-tts-access-token", s.access.expose());
        }
        let env = self.read(req).await?;
        match env.code {
            0 => Ok(env.data),
            code => Err(classify(code, &env.message, session.is_some())),
        }
    }

    async fn read(&self, req: reqwest::RequestBuilder) -> Result<Envelope, ChannelError> {
        let res = send(WHO, req).await?;
        let (status, body) = answer(WHO, res).await?;
        json(WHO, &body).map_err(|e| {
            if status.is_success() {
                e
            } else {
                ChannelError::rejected(status.as_str(), &String::from_utf8_lossy(&body))
            }
        })
    }

    /// The auth host's token calls (`token/get`, `token/refresh`): the app secret travels
    /// in the query, so the URL never reaches a log (see [`send`]).
    async fn token(&self, path: &str, params: &[(&str, &str)]) -> Result<Tokens, ChannelError> {
        let url = format!("{}{path}", self.config.auth_url.trim_end_matches('/'));
        let mut query = vec![("app_key", self.config.app_key.trim()), ("app_secret", self.config.app_secret.expose())];
        query.extend_from_slice(params);
        let env = self.read(self.http.get(url).query(&query)).await?;
        if env.code != 0 {
            return Err(match classify(env.code, &env.message, false) {
                e @ (ChannelError::Throttled { .. } | ChannelError::Unreachable(_) | ChannelError::AppRefused(_)) => e,
                _ => ChannelError::AuthorizationEnded(format!(
                    "tiktok_shop: {}: {}",
                    env.code,
                    super::clip(&env.message)
                )),
            });
        }
        let t: TokenData = serde_json::from_value(env.data)
            .map_err(|e| ChannelError::Malformed(format!("tiktok_shop: token: {}", super::clip(&e.to_string()))))?;
        if t.access_token.is_empty() || t.refresh_token.is_empty() {
            return Err(ChannelError::Malformed("tiktok_shop: token answer without tokens".into()));
        }
        Ok(Tokens {
            access: Secret::new(t.access_token),
            refresh: Secret::new(t.refresh_token),
            access_expires_at_s: t.access_token_expire_in,
            refresh_expires_at_s: t.refresh_token_expire_in,
        })
    }

    fn order(o: Order) -> Result<MarketOrder, ChannelError> {
        let id = o.id.clone();
        let money = |v: &Value, what: &str| {
            satang_of(v).map_err(|e| ChannelError::Malformed(format!("tiktok_shop: order {id}: {what}: {e}")))
        };
        // Line items are one per unit: the same SKU at the same prices is one line. A
        // cancelled unit is left out, unless every unit is (a cancelled order keeps what it was).
        let cancelled = |i: &LineItem| i.display_status.eq_ignore_ascii_case("CANCELLED");
        let every_unit_cancelled = o.line_items.iter().all(cancelled);
        let mut lines: Vec<MarketLine> = Vec::new();
        for i in o.line_items.iter().filter(|i| every_unit_cancelled || !cancelled(i)) {
            let unit = money(&i.original_price, "original_price")?;
            let paid = money(&i.sale_price, "sale_price")?;
            match lines
                .iter_mut()
                .find(|l| l.model_id == i.sku_id && l.unit_price_satang == unit && l.paid_unit_price_satang == paid)
            {
                Some(l) => l.quantity += 1,
                None => lines.push(MarketLine {
                    item_id: i.product_id.clone(),
                    model_id: i.sku_id.clone(),
                    seller_sku: i.seller_sku.trim().to_string(),
                    name: if i.sku_name.trim().is_empty() {
                        i.product_name.clone()
                    } else {
                        format!("{} ({})", i.product_name, i.sku_name)
                    },
                    quantity: 1,
                    unit_price_satang: unit,
                    paid_unit_price_satang: paid,
                }),
            }
        }
        let p = &o.payment;
        let a = &o.recipient_address;
        let level = |l: &str| {
            a.district_info.iter().find(|d| d.address_level == l).map(|d| d.address_name.clone()).unwrap_or_default()
        };
        Ok(MarketOrder {
            order_id: o.id.clone(),
            order_number: o.id.clone(),
            stage: status::with_cancel_request(
                status::stage(Marketplace::TiktokShop, &o.status),
                o.is_buyer_request_cancel,
            ),
            status: o.status.clone(),
            created_at_s: o.create_time,
            updated_at_s: o.update_time,
            cod: o.is_cod,
            buyer_name: a.name.clone(),
            address: super::Address {
                name: a.name.clone(),
                phone: a.phone_number.clone(),
                full: a.full_address.clone(),
                province: level("L1"),
                district: level("L2"),
                sub_district: level("L3"),
                postcode: a.postal_code.clone(),
            },
            total_satang: money(&p.total_amount, "total_amount")?,
            shipping_fee_satang: money(&p.shipping_fee, "shipping_fee")?,
            seller_discount_satang: money(&p.seller_discount, "seller_discount")?
                + money(&p.shipping_fee_seller_discount, "shipping_fee_seller_discount")?,
            platform_discount_satang: money(&p.platform_discount, "platform_discount")?
                + money(&p.shipping_fee_platform_discount, "shipping_fee_platform_discount")?,
            payment_method: o.payment_method_name.clone(),
            note: o.buyer_message.clone(),
            cancel_reason: String::new(),
            lines,
        })
    }
}

/// What TikTok's `code` means.
fn classify(code: i64, message: &str, shop_call: bool) -> ChannelError {
    let text = format!("tiktok_shop: {code}: {}", super::clip(message));
    let about_token = message.to_ascii_lowercase().contains("token");
    match code {
        EXPIRED_CREDENTIALS => ChannelError::TokenRefused(text),
        36009004 | 101000 if shop_call && about_token => ChannelError::TokenRefused(text),
        INVALID_SIGN | 36009004 | 36009033 => ChannelError::AppRefused(text),
        TOO_MANY_REQUESTS => ChannelError::Throttled { retry_after: None, message: text },
        36009003 | 36009007 => ChannelError::Unreachable(text),
        _ => ChannelError::rejected(code.to_string(), message),
    }
}

fn parse_push(body: &[u8]) -> Result<Vec<Push>, PushError> {
    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Body {
        #[serde(rename = "type")]
        kind: i64,
        shop_id: String,
        timestamp: i64,
        data: Value,
    }
    let b: Body = serde_json::from_slice(body).map_err(|e| PushError::Malformed(super::clip(&e.to_string())))?;
    let text = |k: &str| match b.data.get(k) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    };
    Ok(match b.kind {
        1 => {
            let order_id = text("order_id");
            if order_id.is_empty() || b.shop_id.is_empty() {
                return Err(PushError::Malformed("tiktok_shop: order webhook without order_id or shop_id".into()));
            }
            let updated = text("update_time").parse().unwrap_or(b.timestamp);
            vec![Push::OrderChanged {
                shop_id: b.shop_id,
                order_id,
                status: text("order_status"),
                updated_at_s: updated,
            }]
        }
        6 => vec![Push::Deauthorized { shop_id: b.shop_id }],
        12 if !b.shop_id.is_empty() => vec![Push::ReturnChanged { shop_id: b.shop_id }],
        7 => vec![Push::AuthorizationExpiring {
            shop_id: b.shop_id,
            expires_at_s: text("expiration_time").parse().unwrap_or(0),
        }],
        t => vec![Push::Other { kind: format!("tiktok_shop:{t}") }],
    })
}

#[async_trait]
impl Adapter for TiktokShop {
    fn marketplace(&self) -> Marketplace {
        Marketplace::TiktokShop
    }

    fn limits(&self) -> Limits {
        Limits { window_s: 30 * 24 * 3600, details_per_call: 50, stock_per_call: 100, stock_one_item: true }
    }

    fn authorize_url(&self, _redirect: &str, state: &str, _now_s: i64) -> Result<String, ChannelError> {
        // The redirect is the one registered with the app in TikTok's partner center.
        let mut url = reqwest::Url::parse(&self.config.authorize_url).map_err(|_| {
            ChannelError::AppRefused(format!("tiktok_shop: authorize URL {:?} is not a URL", self.config.authorize_url))
        })?;
        url.query_pairs_mut().append_pair("service_id", self.config.service_id.trim()).append_pair("state", state);
        Ok(url.into())
    }

    async fn connect(&self, grant: &Grant) -> Result<Authorized, ChannelError> {
        let tokens = self
            .token("/api/v2/token/get", &[("auth_code", grant.code.as_str()), ("grant_type", "authorized_code")])
            .await?;
        let nobody = Shop::default();
        let data = self
            .call(Some(Session { shop: &nobody, access: &tokens.access }), "/authorization/202309/shops", &[], None)
            .await?;
        let shops: Vec<Shop> = data
            .get("shops")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|s| {
                        let t = |k: &str| s.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
                        Shop { shop_id: t("id"), name: t("name"), region: t("region"), cipher: t("cipher") }
                    })
                    .filter(|s| !s.shop_id.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        if shops.is_empty() {
            return Err(ChannelError::Malformed("tiktok_shop: the authorization reaches no shop".into()));
        }
        Ok(Authorized { tokens, shops })
    }

    async fn refresh(&self, _shop: &Shop, refresh: &Secret) -> Result<Tokens, ChannelError> {
        self.token("/api/v2/token/refresh", &[("refresh_token", refresh.expose()), ("grant_type", "refresh_token")])
            .await
    }

    async fn changed_orders(
        &self,
        session: Session<'_>,
        from_s: i64,
        to_s: i64,
        cursor: Option<&str>,
    ) -> Result<ChangesPage, ChannelError> {
        let mut query = vec![
            ("page_size", "100".to_string()),
            ("sort_field", "update_time".to_string()),
            ("sort_order", "ASC".to_string()),
        ];
        if let Some(c) = cursor.filter(|c| !c.is_empty()) {
            query.push(("page_token", c.to_string()));
        }
        let body = json!({ "update_time_ge": from_s, "update_time_lt": to_s });
        let data = self.call(Some(session), "/order/202309/orders/search", &query, Some(&body)).await?;
        let orders = data.get("orders").and_then(Value::as_array).cloned().unwrap_or_default();
        let next = data.get("next_page_token").and_then(Value::as_str).unwrap_or_default().to_string();
        Ok(ChangesPage {
            orders: orders
                .iter()
                .map(|o| Changed {
                    order_id: o.get("id").and_then(Value::as_str).unwrap_or_default().to_string(),
                    updated_at_s: o.get("update_time").and_then(Value::as_i64).unwrap_or(0),
                })
                .filter(|c| !c.order_id.is_empty())
                .collect(),
            next: (!next.is_empty() && !orders.is_empty()).then_some(next),
        })
    }

    async fn orders(&self, session: Session<'_>, ids: &[String]) -> Result<Vec<MarketOrder>, ChannelError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let data = self.call(Some(session), "/order/202309/orders", &[("ids", ids.join(","))], None).await?;
        let orders: Vec<Order> = data
            .get("orders")
            .cloned()
            .map(serde_json::from_value)
            .transpose()
            .map_err(|e| ChannelError::Malformed(format!("tiktok_shop: orders: {}", super::clip(&e.to_string()))))?
            .unwrap_or_default();
        orders.into_iter().map(TiktokShop::order).collect()
    }

    async fn set_stock(&self, session: Session<'_>, levels: &[StockLevel]) -> Result<Vec<StockOutcome>, ChannelError> {
        let Some(first) = levels.first() else {
            return Ok(Vec::new());
        };
        if levels.iter().any(|l| l.item_id != first.item_id) {
            return Err(ChannelError::rejected("12052050", "one product per call"));
        }
        let skus: Vec<Value> = levels
            .iter()
            .map(|l| json!({ "id": l.model_id, "inventory": [{ "quantity": l.quantity.max(0) }] }))
            .collect();
        let path = format!("/product/202309/products/{}/inventory/update", first.item_id);
        if !first.item_id.bytes().all(|b| b.is_ascii_digit()) || first.item_id.is_empty() {
            return Err(ChannelError::rejected("12052556", "product ids are numbers"));
        }
        let data = self.call(Some(session), &path, &[], Some(&json!({ "skus": skus }))).await?;
        let refused: Vec<(String, String)> = data
            .get("errors")
            .and_then(Value::as_array)
            .map(|errors| {
                errors
                    .iter()
                    .map(|e| {
                        let sku = e.pointer("/detail/sku_id").and_then(Value::as_str).unwrap_or_default().to_string();
                        let why = e.get("message").and_then(Value::as_str).unwrap_or("refused");
                        (sku, super::clip(why))
                    })
                    .collect()
            })
            .unwrap_or_default();
        // An error that names no SKU is the whole call's.
        Ok(super::outcomes(levels, |sku| {
            refused.iter().find(|(s, _)| s == sku || s.is_empty()).map(|(_, r)| r.clone())
        }))
    }

    async fn listings(&self, session: Session<'_>, cursor: Option<&str>) -> Result<ListingsPage, ChannelError> {
        // Every product but the deleted first, then the deleted ones: `<status>|<page token>`.
        let (status, token) = match cursor.and_then(|c| c.split_once('|')) {
            Some((s, t)) if s == "ALL" || s == "DELETED" => (s.to_string(), t.to_string()),
            _ => ("ALL".to_string(), String::new()),
        };
        let mut query = vec![("page_size", PRODUCTS_PAGE.to_string())];
        if !token.is_empty() {
            query.push(("page_token", token));
        }
        let data = self
            .call(Some(session), "/product/202309/products/search", &query, Some(&json!({ "status": status })))
            .await?;
        let products: Vec<Product> = data
            .get("products")
            .cloned()
            .map(serde_json::from_value)
            .transpose()
            .map_err(|e| ChannelError::Malformed(format!("tiktok_shop: products: {}", super::clip(&e.to_string()))))?
            .unwrap_or_default();
        let found = products.len();
        let mut listings = Vec::new();
        for p in products {
            // The search leaves out the SKUs' variations: a product with several asks its own
            // detail for them (a deleted or frozen one has none to give).
            let p = if p.skus.len() > 1 && !matches!(p.status.as_str(), "DELETED" | "FREEZE") {
                let detail = self.call(Some(session), &format!("/product/202309/products/{}", p.id), &[], None).await?;
                serde_json::from_value(detail).map_err(|e| {
                    ChannelError::Malformed(format!("tiktok_shop: product: {}", super::clip(&e.to_string())))
                })?
            } else {
                p
            };
            listings.extend(TiktokShop::listings_of(&p)?);
        }
        let next_token = data.get("next_page_token").and_then(Value::as_str).unwrap_or_default();
        let total = data.get("total_count").and_then(Value::as_i64).unwrap_or(0);
        let next = if !next_token.is_empty() && found > 0 {
            Some(format!("{status}|{next_token}"))
        } else if status == "ALL" {
            Some("DELETED|".to_string())
        } else {
            None
        };
        Ok(ListingsPage { listings, next, total: if status == "ALL" { total } else { 0 } })
    }

    async fn items(&self, session: Session<'_>, item_ids: &[String]) -> Result<Vec<MarketListing>, ChannelError> {
        let mut listings = Vec::new();
        for id in item_ids {
            let detail = match self.call(Some(session), &format!("/product/202309/products/{id}"), &[], None).await {
                Ok(d) => d,
                // A product the shop no longer has.
                Err(ChannelError::Rejected { code, .. }) if code == PRODUCT_NOT_FOUND => continue,
                Err(e) => return Err(e),
            };
            let p: Product = serde_json::from_value(detail).map_err(|e| {
                ChannelError::Malformed(format!("tiktok_shop: product: {}", super::clip(&e.to_string())))
            })?;
            listings.extend(TiktokShop::listings_of(&p)?);
        }
        Ok(listings)
    }

    fn returns(&self) -> Option<&dyn super::returns::Returns> {
        Some(self)
    }

    fn shipping(&self) -> Option<&dyn super::shipping::Shipping> {
        Some(self)
    }

    fn cancellations(&self) -> Option<&dyn super::cancellations::Cancellations> {
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

    #[test]
    fn the_documented_signature_vector() {
        // TikTok Shop's "Sign your API request" page: GET /authorization/202309/shops.
        assert_eq!(
            sign(
                &Secret::new("e59af819cc"),
                "/authorization/202309/shops",
                [("app_key", "29a39d"), ("timestamp", "1623812664")],
                b""
            ),
            "b596b73e0cc6de07ac26f036364178ab16b0a907af13d43f0a0cd2345f582dc8"
        );
    }

    #[test]
    fn the_access_token_and_sign_are_not_signed_and_the_body_is() {
        let secret = Secret::new("e59af819cc");
        let q = [("app_key", "29a39d"), ("timestamp", "1623812664")];
        let with_extra = [("app_key", "29a39d"), ("timestamp", "1623812664"), ("access_token", "x"), ("sign", "y")];
        assert_eq!(sign(&secret, "/p", q, b"{}"), sign(&secret, "/p", with_extra, b"{}"));
        assert_ne!(sign(&secret, "/p", q, b"{}"), sign(&secret, "/p", q, b"{ }"));
    }

    #[test]
    fn webhooks_are_read_once_their_signature_holds() {
        let tt = TiktokShop::new(
            reqwest::Client::new(),
            AppConfig { app_key: "29a39d".into(), app_secret: Secret::new("e59af819cc"), ..Default::default() },
        );
        let body = br#"{"type":1,"tts_notification_id":"7327112393057371910","shop_id":"7494049642642441621","timestamp":1644412885,"data":{"order_id":"576486316948490001","order_status":"CANCEL","is_on_hold_order":false,"update_time":1644412885}}"#;
        let mut headers = http::HeaderMap::new();
        headers.insert(
            http::header::AUTHORIZATION,
            push_signature("29a39d", &Secret::new("e59af819cc"), body).parse().unwrap(),
        );
        let p = tt.read_push("", &headers, body).unwrap();
        assert_eq!(
            p,
            vec![Push::OrderChanged {
                shop_id: "7494049642642441621".into(),
                order_id: "576486316948490001".into(),
                status: "CANCEL".into(),
                updated_at_s: 1644412885
            }]
        );
        assert_eq!(
            crate::domain::status::stage(Marketplace::TiktokShop, "CANCEL"),
            Some(crate::domain::status::Stage::Cancelled)
        );
        assert_eq!(tt.read_push("", &http::HeaderMap::new(), body), Err(PushError::BadSignature));
        let expiring =
            br#"{"type":7,"shop_id":"1","timestamp":1,"data":{"message":"x","expiration_time":"1627587506"}}"#;
        assert_eq!(
            parse_push(expiring).unwrap(),
            vec![Push::AuthorizationExpiring { shop_id: "1".into(), expires_at_s: 1627587506 }]
        );
        assert_eq!(
            parse_push(br#"{"type":6,"shop_id":"1","data":{}}"#).unwrap(),
            vec![Push::Deauthorized { shop_id: "1".into() }]
        );
        // A return's status change (type 12; its published sample lacks a comma, fixed here).
        let returned = br#"{"type":12,"tts_notification_id":"7327112393057371910","shop_id":"7494049642642441621","timestamp":1644412885,"data":{"order_id":"576486316948490001","return_role":"BUYER","return_type":"REFUND","return_status":"RETURN_OR_REFUND_REQUEST_PENDING","return_id":"576486316948490001","create_time":1627587600,"update_time":1644412885}}"#;
        assert_eq!(parse_push(returned).unwrap(), vec![Push::ReturnChanged { shop_id: "7494049642642441621".into() }]);
    }

    #[test]
    fn refusals_are_classified() {
        assert!(matches!(classify(105002, "Expired credentials", true), ChannelError::TokenRefused(_)));
        assert!(matches!(classify(36009004, "invalid x-tts-access-token", true), ChannelError::TokenRefused(_)));
        assert!(matches!(classify(36009004, "invalid timestamp", true), ChannelError::AppRefused(_)));
        assert!(matches!(classify(106001, "Invalid credentials", true), ChannelError::AppRefused(_)));
        assert!(matches!(classify(36009002, "Too many requests", true), ChannelError::Throttled { .. }));
        assert!(matches!(classify(21008111, "not yours", true), ChannelError::Rejected { .. }));
    }

    #[test]
    fn an_order_reads_into_our_words() {
        let mut base = json!({
            "id": "576461413038785752", "status": "AWAITING_SHIPMENT", "create_time": 1619611561, "update_time": 1619621355,
            "is_cod": false, "payment": {"currency": "THB", "sub_total": "358", "shipping_fee": "30", "seller_discount": "20",
                "platform_discount": "10", "total_amount": "388", "shipping_fee_seller_discount": "5",
                "shipping_fee_platform_discount": "0"},
            "recipient_address": {"name": "สมหญิง", "phone_number": "(+66)81*****78", "full_address": "1 ถนนสีลม",
                "postal_code": "10500", "district_info": [
                    {"address_level_name": "Province", "address_name": "กรุงเทพมหานคร", "address_level": "L1"},
                    {"address_level_name": "District", "address_name": "บางรัก", "address_level": "L2"}]},
            "line_items": [
                {"id": "1", "sku_id": "2729382476852921560", "product_id": "1729582718312380123", "seller_sku": "MUG-01",
                 "product_name": "แก้ว", "sku_name": "ขาว", "original_price": "199", "sale_price": "179", "display_status": "AWAITING_SHIPMENT"},
                {"id": "2", "sku_id": "2729382476852921560", "product_id": "1729582718312380123", "seller_sku": "MUG-01",
                 "product_name": "แก้ว", "sku_name": "ขาว", "original_price": "199", "sale_price": "179", "display_status": "AWAITING_SHIPMENT"}
            ]
        });
        let o: Order = serde_json::from_value(base.clone()).unwrap();
        let m = TiktokShop::order(o).unwrap();
        assert_eq!(m.lines.len(), 1);
        assert_eq!((m.lines[0].quantity, m.lines[0].paid_unit_price_satang), (2, 17_900));
        assert_eq!(
            (m.total_satang, m.shipping_fee_satang, m.seller_discount_satang, m.platform_discount_satang),
            (38_800, 3_000, 2_500, 1_000)
        );
        assert_eq!((m.address.province.as_str(), m.address.district.as_str()), ("กรุงเทพมหานคร", "บางรัก"));
        assert_eq!(m.stage, Some(crate::domain::status::Stage::Paid));

        // The buyer asked to cancel: it waits for the seller. Cancelled: it keeps its lines.
        base["is_buyer_request_cancel"] = json!(true);
        let m = TiktokShop::order(serde_json::from_value(base.clone()).unwrap()).unwrap();
        assert_eq!(m.stage, Some(crate::domain::status::Stage::CancelAsked));
        base["status"] = json!("CANCELLED");
        for item in base["line_items"].as_array_mut().unwrap() {
            item["display_status"] = json!("CANCELLED");
        }
        let m = TiktokShop::order(serde_json::from_value(base).unwrap()).unwrap();
        assert_eq!((m.stage, m.lines.len()), (Some(crate::domain::status::Stage::Cancelled), 1));
    }
}
