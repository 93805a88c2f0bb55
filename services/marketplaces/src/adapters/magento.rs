//! Magento 2's REST API for one shop (its own URL and integration, unlike the marketplaces'
//! one app for every shop): the store views (the connection check), the inventory sources,
//! orders by `searchCriteria`, and stock, through the single stock's `stockItems` or the
//! multi-source inventory's `source-items`.
//!
//! Every call is let in one of the two ways Magento takes an integration: its access token as
//! a bearer token, or an OAuth 1.0a signature (RFC 5849, HMAC-SHA256) over the method, the
//! address and every query and `oauth_*` parameter, under the consumer secret and the token
//! secret. A refusal is Magento's `{"message", "parameters"}`, its `%1` and `%name` filled in.

use base64::Engine as _;
use reqwest::Method;
use serde::Deserialize;
use serde_json::Value;

use super::{answer, clip, send, ChannelError};
use crate::domain::magento::{Auth, Credentials};

const WHO: &str = "magento";

/// What a 404 of Magento's says was missing.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Missing {
    /// No route: the API itself is not there (a module's, not installed).
    route: bool,
    /// Magento's words.
    message: String,
}

/// An inventory source as the shop has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The shop has it.
    Found,
    /// The shop has no source of that code.
    Unknown,
    /// The shop has no multi-source inventory (its API is not there).
    NoInventoryApi,
}

/// One shop's API.
#[derive(Clone)]
pub struct Magento {
    http: reqwest::Client,
    /// `<url>/rest/<store code>`.
    base: String,
    auth: Auth,
    credentials: Credentials,
}

/// A store view, as the connection check reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct StoreConfig {
    /// Its code.
    #[serde(default)]
    pub code: String,
    /// Its currency.
    #[serde(default)]
    pub base_currency_code: String,
}

/// An order line as Magento writes it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Item {
    /// The line's id.
    #[serde(default)]
    pub item_id: i64,
    /// The product's SKU (a configurable's parent carries its chosen child's).
    #[serde(default)]
    pub sku: String,
    /// What the buyer sees.
    #[serde(default)]
    pub name: String,
    /// How many (a decimal number).
    #[serde(default)]
    pub qty_ordered: Value,
    /// The price of one.
    #[serde(default)]
    pub price: Value,
    /// Set on a configurable's child line, which repeats its parent at price 0.
    #[serde(default)]
    pub parent_item_id: Option<i64>,
}

/// An address as Magento writes it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct Address {
    #[serde(default)]
    pub firstname: String,
    #[serde(default)]
    pub lastname: String,
    #[serde(default)]
    pub street: Vec<String>,
    #[serde(default)]
    pub city: String,
    #[serde(default)]
    pub region: Option<String>,
    #[serde(default)]
    pub postcode: Option<String>,
    #[serde(default)]
    pub telephone: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
}

/// How an order was paid.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct Payment {
    /// The method's code (`checkmo`, `cashondelivery`, …).
    #[serde(default)]
    pub method: String,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
struct Shipping {
    #[serde(default)]
    address: Option<Address>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
struct Assignment {
    #[serde(default)]
    shipping: Option<Shipping>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
struct Extension {
    #[serde(default)]
    shipping_assignments: Vec<Assignment>,
}

/// An order as Magento writes it (the fields we read).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Order {
    /// Its id.
    pub entity_id: i64,
    /// The number the shop and the buyer see.
    pub increment_id: String,
    /// Its state (`new`, `processing`, …).
    pub state: String,
    /// Its status (the shop's own word for the state).
    #[serde(default)]
    pub status: String,
    /// When it changed last (`2026-12-06 10:05:00`, UTC).
    pub updated_at: String,
    /// Shipping the buyer pays.
    #[serde(default)]
    pub shipping_amount: Value,
    /// Discounts, negative.
    #[serde(default)]
    pub discount_amount: Value,
    #[serde(default)]
    pub customer_email: Option<String>,
    #[serde(default)]
    pub customer_firstname: Option<String>,
    #[serde(default)]
    pub customer_lastname: Option<String>,
    /// Its lines.
    #[serde(default)]
    pub items: Vec<Item>,
    #[serde(default)]
    pub billing_address: Option<Address>,
    #[serde(default)]
    pub payment: Option<Payment>,
    #[serde(default)]
    extension_attributes: Option<Extension>,
}

impl Order {
    /// Where it goes: the shipping address, else the billing address.
    pub fn address(&self) -> Option<&Address> {
        self.extension_attributes
            .as_ref()
            .and_then(|e| e.shipping_assignments.iter().find_map(|a| a.shipping.as_ref()?.address.as_ref()))
            .or(self.billing_address.as_ref())
    }

    /// Its lines the buyer bought: a configurable's child line (its parent again) left out.
    pub fn lines(&self) -> impl Iterator<Item = &Item> {
        self.items.iter().filter(|i| i.parent_item_id.is_none_or(|p| p == 0))
    }
}

#[derive(Deserialize)]
struct Page {
    #[serde(default)]
    items: Vec<Value>,
}

/// RFC 5849 §3.6: every byte but the unreserved characters as `%XX`, upper-case.
pub fn pct(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// RFC 5849 §3.4.1: the signature base string of a request to `url` (no query) with
/// `params` (the query's and the `oauth_*` ones but the signature, decoded).
pub fn base_string(method: &str, url: &str, params: &[(String, String)]) -> String {
    let mut encoded: Vec<(String, String)> = params.iter().map(|(k, v)| (pct(k), pct(v))).collect();
    encoded.sort();
    let joined = encoded.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&");
    format!("{}&{}&{}", method.to_ascii_uppercase(), pct(url), pct(&joined))
}

/// The base URL of RFC 5849 §3.4.1.2: scheme and host lower-case, the default port left out,
/// no query.
fn base_url(u: &reqwest::Url) -> String {
    let host = u.host_str().unwrap_or_default().to_ascii_lowercase();
    let port = match (u.scheme(), u.port()) {
        (_, None) | ("http", Some(80)) | ("https", Some(443)) => String::new(),
        (_, Some(p)) => format!(":{p}"),
    };
    format!("{}://{host}{port}{}", u.scheme(), u.path())
}

/// Magento's message with its parameters put in (`%1`, `%fieldName`).
fn message_of(body: &[u8]) -> String {
    let Ok(v) = serde_json::from_slice::<Value>(body) else {
        return clip(&String::from_utf8_lossy(body));
    };
    let mut m = v.get("message").and_then(Value::as_str).unwrap_or_default().to_string();
    match v.get("parameters") {
        Some(Value::Array(ps)) => {
            for (i, p) in ps.iter().enumerate().rev() {
                m = m.replace(&format!("%{}", i + 1), p.as_str().unwrap_or(&p.to_string()));
            }
        }
        Some(Value::Object(ps)) => {
            for (k, p) in ps {
                m = m.replace(&format!("%{k}"), p.as_str().unwrap_or(&p.to_string()));
            }
        }
        _ => {}
    }
    clip(&m)
}

impl Magento {
    /// The API of the shop at `url` (its address before `/rest`), store view `store_code`
    /// (empty: the shop's default store view, with no code in the path).
    pub fn new(http: reqwest::Client, url: &str, store_code: &str, auth: Auth, credentials: Credentials) -> Magento {
        let url = url.trim_end_matches('/');
        let base = if store_code.is_empty() { format!("{url}/rest") } else { format!("{url}/rest/{store_code}") };
        Magento { http, base, auth, credentials }
    }

    /// The `Authorization` header of a call.
    fn authorization(&self, method: &Method, url: &reqwest::Url, query: &[(String, String)]) -> String {
        let c = &self.credentials;
        match self.auth {
            Auth::Bearer => format!("Bearer {}", c.access_token),
            Auth::Oauth1 => {
                use ring::rand::SecureRandom as _;
                let mut nonce = [0u8; 16];
                ring::rand::SystemRandom::new().fill(&mut nonce).expect("the system's random source");
                let timestamp = (bo_kit::time::now_ms() / 1000).to_string();
                oauth_header(method.as_str(), &base_url(url), query, c, &hex::encode(nonce), &timestamp)
            }
        }
    }

    /// One call: its JSON answer, or Magento's refusal (a 404 among them).
    async fn call(
        &self,
        method: Method,
        path: &str,
        query: &[(String, String)],
        body: Option<&Value>,
    ) -> Result<Value, ChannelError> {
        match self.find(method, path, query, body).await? {
            Ok(v) => Ok(v),
            Err(Missing { message, .. }) => Err(ChannelError::rejected("404", &message)),
        }
    }

    /// One call, its 404 told apart: the JSON answer, what was missing, or Magento's refusal.
    async fn find(
        &self,
        method: Method,
        path: &str,
        query: &[(String, String)],
        body: Option<&Value>,
    ) -> Result<Result<Value, Missing>, ChannelError> {
        let mut text = format!("{}{path}", self.base);
        if !query.is_empty() {
            text.push('?');
            text.push_str(&query.iter().map(|(k, v)| format!("{}={}", pct(k), pct(v))).collect::<Vec<_>>().join("&"));
        }
        let url = reqwest::Url::parse(&text).map_err(|e| ChannelError::Unreachable(format!("{WHO}: {e}")))?;
        let auth = self.authorization(&method, &url, query);
        let mut req = self
            .http
            .request(method, url)
            .header(reqwest::header::AUTHORIZATION, auth)
            .header(reqwest::header::ACCEPT, "application/json");
        if let Some(b) = body {
            req = req.json(b);
        }
        let (status, bytes) = answer(WHO, send(WHO, req).await?).await?;
        if status == reqwest::StatusCode::UNAUTHORIZED || status == reqwest::StatusCode::FORBIDDEN {
            return Err(ChannelError::TokenRefused(message_of(&bytes)));
        }
        if status == reqwest::StatusCode::NOT_FOUND {
            let message = clip(&message_of(&bytes));
            // Magento's words for a path it has no route for (an API a module adds, not there).
            let route = message.contains("does not match any route");
            return Ok(Err(Missing { route, message }));
        }
        if !status.is_success() {
            return Err(ChannelError::rejected(status.as_u16().to_string(), &message_of(&bytes)));
        }
        serde_json::from_slice(&bytes)
            .map(Ok)
            .map_err(|e| ChannelError::Malformed(format!("{WHO}: {}", clip(&e.to_string()))))
    }

    /// The shop's store views (a call any working integration may make: the connection
    /// check).
    pub async fn store_configs(&self) -> Result<Vec<StoreConfig>, ChannelError> {
        let v = self.call(Method::GET, "/V1/store/storeConfigs", &[], None).await?;
        super::json(WHO, v.to_string().as_bytes())
    }

    /// Whether the inventory source `code` exists, or the shop has no multi-source inventory.
    pub async fn source(&self, code: &str) -> Result<Source, ChannelError> {
        Ok(match self.find(Method::GET, &format!("/V1/inventory/sources/{}", pct(code)), &[], None).await? {
            Ok(_) => Source::Found,
            Err(Missing { route: true, .. }) => Source::NoInventoryApi,
            Err(Missing { route: false, .. }) => Source::Unknown,
        })
    }

    /// The orders `criteria` (a `searchCriteria` query) finds, in its order: each order
    /// read, or why it could not be.
    pub async fn orders(&self, criteria: &[(String, String)]) -> Result<Vec<Order>, ChannelError> {
        let v = self.call(Method::GET, "/V1/orders", criteria, None).await?;
        let page: Page = serde_json::from_value(v).map_err(|e| ChannelError::Malformed(format!("{WHO}: {e}")))?;
        page.items
            .into_iter()
            .map(|o| serde_json::from_value(o).map_err(|e| ChannelError::Malformed(format!("{WHO}: an order: {e}"))))
            .collect()
    }

    /// Sets the single stock of `sku` to `qty` (in stock while above 0): its stock item is
    /// read for its id, then written. `Ok(false)`: the shop has no product of that SKU.
    pub async fn set_stock_item(&self, sku: &str, qty: i64) -> Result<bool, ChannelError> {
        let path = format!("/V1/stockItems/{}", pct(sku));
        let Ok(item) = self.find(Method::GET, &path, &[], None).await? else { return Ok(false) };
        let id = item
            .get("item_id")
            .and_then(Value::as_i64)
            .ok_or_else(|| ChannelError::Malformed(format!("{WHO}: a stock item without item_id")))?;
        let body = serde_json::json!({ "stockItem": { "qty": qty.max(0), "is_in_stock": qty > 0 } });
        self.call(Method::PUT, &format!("/V1/products/{}/stockItems/{id}", pct(sku)), &[], Some(&body)).await?;
        Ok(true)
    }

    /// Sets the quantities of SKUs at the inventory source `source` in one call (all or none).
    pub async fn set_source_items(&self, source: &str, levels: &[(String, i64)]) -> Result<(), ChannelError> {
        let items: Vec<Value> = levels
            .iter()
            .map(|(sku, qty)| {
                serde_json::json!({
                    "sku": sku,
                    "source_code": source,
                    "quantity": (*qty).max(0),
                    "status": i32::from(*qty > 0),
                })
            })
            .collect();
        self.call(Method::POST, "/V1/inventory/source-items", &[], Some(&serde_json::json!({ "sourceItems": items })))
            .await?;
        Ok(())
    }
}

/// An OAuth 1.0a `Authorization` header (HMAC-SHA256) of a request to `url` (RFC 5849's base
/// URL) with `query`.
pub fn oauth_header(
    method: &str,
    url: &str,
    query: &[(String, String)],
    c: &Credentials,
    nonce: &str,
    timestamp: &str,
) -> String {
    let mut oauth: Vec<(String, String)> = vec![
        ("oauth_consumer_key".into(), c.consumer_key.clone()),
        ("oauth_nonce".into(), nonce.into()),
        ("oauth_signature_method".into(), "HMAC-SHA256".into()),
        ("oauth_timestamp".into(), timestamp.into()),
        ("oauth_token".into(), c.access_token.clone()),
        ("oauth_version".into(), "1.0".into()),
    ];
    let mut params = oauth.clone();
    params.extend(query.iter().cloned());
    let base = base_string(method, url, &params);
    let key = format!("{}&{}", pct(&c.consumer_secret), pct(&c.access_token_secret));
    let tag = ring::hmac::sign(&ring::hmac::Key::new(ring::hmac::HMAC_SHA256, key.as_bytes()), base.as_bytes());
    oauth.push(("oauth_signature".into(), base64::engine::general_purpose::STANDARD.encode(tag.as_ref())));
    let fields: Vec<String> = oauth.iter().map(|(k, v)| format!("{k}=\"{}\"", pct(v))).collect();
    format!("OAuth {}", fields.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_string_is_rfc_5849s() {
        // RFC 5849 §3.4.1.1's example, its parameters decoded.
        let params: Vec<(String, String)> = [
            ("b5", "=%3D"),
            ("a3", "a"),
            ("c@", ""),
            ("a2", "r b"),
            ("oauth_consumer_key", "9djdj82h48djs9d2"),
            ("oauth_token", "kkk9d7dh3k39sjv7"),
            ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_timestamp", "137131201"),
            ("oauth_nonce", "7d8f3e4a"),
            ("c2", ""),
            ("a3", "2 q"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(
            base_string("post", "http://example.com/request", &params),
            "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D\
             %26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1\
             %26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7"
        );
    }

    #[test]
    fn percent_encoding_keeps_only_the_unreserved() {
        assert_eq!(pct("a-b.c_d~e"), "a-b.c_d~e");
        assert_eq!(pct("a b*+/[]"), "a%20b%2A%2B%2F%5B%5D");
        assert_eq!(pct("ก"), "%E0%B8%81");
    }

    #[test]
    fn the_base_url_drops_default_ports_and_the_query() {
        let u = reqwest::Url::parse("HTTPS://Shop.Example.com:443/rest/default/V1/orders?x=1").unwrap();
        assert_eq!(base_url(&u), "https://shop.example.com/rest/default/V1/orders");
        let u = reqwest::Url::parse("http://127.0.0.1:8081/rest/V1/orders").unwrap();
        assert_eq!(base_url(&u), "http://127.0.0.1:8081/rest/V1/orders");
    }

    #[test]
    fn an_oauth_header_carries_a_signature_over_its_parameters() {
        let c = Credentials {
            access_token: "tok".into(),
            access_token_secret: "ts".into(),
            consumer_key: "ck".into(),
            consumer_secret: "cs".into(),
        };
        let q = vec![("searchCriteria[pageSize]".to_string(), "50".to_string())];
        let h = oauth_header("GET", "http://127.0.0.1/rest/V1/orders", &q, &c, "n1", "100");
        assert!(h.starts_with("OAuth oauth_consumer_key=\"ck\", oauth_nonce=\"n1\""), "{h}");
        // The signature is HMAC-SHA256 of the base string under "cs&ts".
        let mut params = vec![
            ("oauth_consumer_key".to_string(), "ck".to_string()),
            ("oauth_nonce".into(), "n1".into()),
            ("oauth_signature_method".into(), "HMAC-SHA256".into()),
            ("oauth_timestamp".into(), "100".into()),
            ("oauth_token".into(), "tok".into()),
            ("oauth_version".into(), "1.0".into()),
        ];
        params.extend(q.clone());
        let base = base_string("GET", "http://127.0.0.1/rest/V1/orders", &params);
        let tag = ring::hmac::sign(&ring::hmac::Key::new(ring::hmac::HMAC_SHA256, b"cs&ts"), base.as_bytes());
        let sig = pct(&base64::engine::general_purpose::STANDARD.encode(tag.as_ref()));
        assert!(h.ends_with(&format!("oauth_signature=\"{sig}\"")), "{h}");
        // Another query signs otherwise.
        let other = oauth_header("GET", "http://127.0.0.1/rest/V1/orders", &[], &c, "n1", "100");
        assert_ne!(h, other);
    }

    #[test]
    fn magentos_messages_get_their_parameters() {
        assert_eq!(
            message_of(br#"{"message":"The Product with the \"%1\" SKU doesn't exist.","parameters":["A1"]}"#),
            "The Product with the \"A1\" SKU doesn't exist."
        );
        assert_eq!(
            message_of(br#"{"message":"\"%fieldName\" is required.","parameters":{"fieldName":"searchCriteria"}}"#),
            "\"searchCriteria\" is required."
        );
        assert_eq!(message_of(b"<html>"), "<html>");
    }

    #[test]
    fn a_configurables_child_line_is_left_out_and_the_shipping_address_wins() {
        let o: Order = serde_json::from_value(serde_json::json!({
            "entity_id": 5, "increment_id": "000000005", "state": "new", "updated_at": "2026-12-06 10:00:00",
            "items": [
                {"item_id": 1, "sku": "TEE-M", "name": "Tee", "qty_ordered": 2, "price": 199, "product_type": "configurable"},
                {"item_id": 2, "sku": "TEE-M", "name": "Tee M", "qty_ordered": 2, "price": 0, "parent_item_id": 1},
                {"item_id": 3, "sku": "MUG", "name": "Mug", "qty_ordered": 1, "price": 99}
            ],
            "billing_address": {"firstname": "B", "lastname": "Bill", "city": "x"},
            "extension_attributes": {"shipping_assignments": [{"shipping": {"address": {"firstname": "S", "lastname": "Ship", "city": "y"}}}]}
        }))
        .unwrap();
        let skus: Vec<&str> = o.lines().map(|l| l.sku.as_str()).collect();
        assert_eq!(skus, ["TEE-M", "MUG"]);
        assert_eq!(o.address().map(|a| a.firstname.as_str()), Some("S"));
    }
}
