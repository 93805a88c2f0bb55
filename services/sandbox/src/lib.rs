//! Stand-ins for the marketplaces' open platforms, each on 127.0.0.1 with a port of its own:
//! Shopee ([`shopee`]), Lazada ([`lazada`]) and TikTok Shop ([`tiktok`]), and for a seller's
//! own Magento 2 store's REST API ([`magento`]: integration tokens, OAuth 1.0a). They check
//! signatures, timestamps, tokens and shop binding the way the platforms document, keep
//! single-use codes and refresh tokens single use, answer in the platforms' shapes and
//! refusals (throttling included), and send signed pushes the way the platforms do. The
//! adapters are tested against them over real HTTP, never against a mock of our own code;
//! the signatures here are computed by this crate's own code, from the platforms' rules.
//!
//! Each sandbox is driven by its owner (a test, or `make channels-sandbox`): shops, listings
//! and orders are put in, a seller's authorization is granted, tokens are expired, pushes
//! are sent or dropped, and what the platform was told (stock levels) is read back.

// A refusal is the platform's answer itself (a response), returned as a check's error.
#![allow(clippy::result_large_err)]

pub mod lazada;
pub mod magento;
pub mod shopee;
pub mod tiktok;

use std::sync::{Arc, Mutex, MutexGuard};

use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// A server running until dropped.
pub struct Server {
    /// `http://127.0.0.1:<port>`.
    pub base_url: String,
    task: JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Serves `app` on `addr` (`127.0.0.1:0` for a port of its own).
pub async fn serve_on(addr: &str, app: axum::Router) -> anyhow::Result<Server> {
    let listener = TcpListener::bind(addr).await?;
    let base_url = format!("http://{}", listener.local_addr()?);
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok(Server { base_url, task })
}

/// Now, in unix seconds.
pub fn now_s() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

/// Now, in unix milliseconds.
pub fn now_ms() -> i64 {
    (time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

/// Lower-case hex HMAC-SHA256.
pub fn hmac_hex(key: &[u8], message: &[u8]) -> String {
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, key);
    hex::encode(ring::hmac::sign(&key, message).as_ref())
}

/// A random token of `n` bytes in hex, prefixed.
pub fn token(prefix: &str, n: usize) -> String {
    use ring::rand::SecureRandom;
    let mut bytes = vec![0u8; n];
    ring::rand::SystemRandom::new().fill(&mut bytes).expect("random");
    format!("{prefix}{}", hex::encode(bytes))
}

/// A line of a sandbox order: one listing's variation, how many and at what price.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The listing's id.
    pub item_id: String,
    /// The variation's id (empty for a listing without variations, at Shopee).
    pub model_id: String,
    /// The seller SKU written on the listing.
    pub seller_sku: String,
    /// The listing's name.
    pub name: String,
    /// How many.
    pub quantity: i64,
    /// The price of one before discounts, baht as text (`"199.00"`).
    pub price: String,
    /// The price of one the buyer pays, baht as text.
    pub paid_price: String,
}

/// A listing's variation in a sandbox shop, as the platform lists it (its stock is kept
/// apart, where stock calls set it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// The listing's id.
    pub item_id: String,
    /// The variation's id (empty for a listing without variations).
    pub model_id: String,
    /// The listing's title.
    pub name: String,
    /// Its variation's options: (variation name, value), at most two.
    pub options: Vec<(String, String)>,
    /// The seller SKU written on it.
    pub seller_sku: String,
    /// Its price, baht as text.
    pub price: String,
    /// Its status in the platform's own word (empty: on sale).
    pub status: String,
    /// When it changed last, unix seconds.
    pub updated_at: i64,
}

impl Listing {
    /// A listing on sale now.
    pub fn new(item_id: &str, model_id: &str, name: &str, seller_sku: &str, price: &str) -> Listing {
        Listing {
            item_id: item_id.into(),
            model_id: model_id.into(),
            name: name.into(),
            options: Vec::new(),
            seller_sku: seller_sku.into(),
            price: price.into(),
            status: String::new(),
            updated_at: now_s(),
        }
    }

    /// The same, with an option of its variation.
    pub fn option(mut self, name: &str, value: &str) -> Listing {
        self.options.push((name.into(), value.into()));
        self
    }

    /// A listing only known by its stock: titled after its id.
    fn plain(item_id: &str, model_id: &str) -> Listing {
        Listing::new(item_id, model_id, &format!("Listing {item_id}"), "", "100.00")
    }
}

/// A sandbox order, in the marketplace's own status words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    /// The marketplace's order id.
    pub id: String,
    /// Its status, as the marketplace writes it.
    pub status: String,
    /// When it was placed, unix seconds.
    pub created_at: i64,
    /// When it changed last, unix seconds.
    pub updated_at: i64,
    /// The buyer's (receiver's) name.
    pub buyer: String,
    /// The receiver's phone.
    pub phone: String,
    /// The street address.
    pub address: String,
    /// Province.
    pub province: String,
    /// District.
    pub district: String,
    /// Postcode.
    pub postcode: String,
    /// Cash on delivery.
    pub cod: bool,
    /// Shipping fee the buyer pays, baht as text.
    pub shipping_fee: String,
    /// The lines.
    pub lines: Vec<Line>,
}

impl Order {
    /// An order of `lines` placed now, to a Bangkok address, with a 40-baht shipping fee.
    pub fn new(id: &str, status: &str, lines: Vec<Line>) -> Order {
        let now = now_s();
        Order {
            id: id.into(),
            status: status.into(),
            created_at: now,
            updated_at: now,
            buyer: "สมชาย ใจดี".into(),
            phone: "0812345678".into(),
            address: "99 ถนนพหลโยธิน".into(),
            province: "กรุงเทพมหานคร".into(),
            district: "พญาไท".into(),
            postcode: "10400".into(),
            cod: false,
            shipping_fee: "40.00".into(),
            lines,
        }
    }

    /// What the lines cost the buyer, satang (prices are sandbox-written, two decimals).
    pub fn items_satang(&self) -> i64 {
        self.lines.iter().map(|l| satang(&l.paid_price) * l.quantity).sum()
    }
}

/// A buyer's return of a sandbox order, in the marketplace's own words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Return {
    /// The marketplace's return id.
    pub id: String,
    /// The order it returns.
    pub order_id: String,
    /// Its status, as the marketplace writes it (Lazada: every line's).
    pub status: String,
    /// Where its parcel is, where the marketplace says it apart (Shopee's reverse logistics
    /// status; empty: not shipped).
    pub logistics: String,
    /// A refund without goods coming back.
    pub refund_only: bool,
    /// The buyer's reason.
    pub reason: String,
    /// What the buyer is refunded, baht as text.
    pub refund: String,
    /// The return parcel's tracking number.
    pub tracking: String,
    /// When it was asked for and last changed, unix seconds.
    pub created_at: i64,
    pub updated_at: i64,
    /// What comes back (the order's lines, with the quantities returned).
    pub lines: Vec<Line>,
}

impl Return {
    /// A return of `lines` asked for now, for the reason "damaged", refunding their price.
    pub fn new(id: &str, order_id: &str, status: &str, lines: Vec<Line>) -> Return {
        let now = now_s();
        let refund: i64 = lines.iter().map(|l| satang(&l.paid_price) * l.quantity).sum();
        Return {
            id: id.into(),
            order_id: order_id.into(),
            status: status.into(),
            logistics: String::new(),
            refund_only: false,
            reason: "ITEM_DAMAGED".into(),
            refund: baht(refund),
            tracking: String::new(),
            created_at: now,
            updated_at: now,
            lines,
        }
    }

    /// Moves it to `status` (and, at Shopee, its parcel to `logistics`) now.
    pub fn moved(&mut self, status: &str, logistics: &str) {
        self.status = status.into();
        self.logistics = logistics.into();
        if !logistics.is_empty() && self.tracking.is_empty() {
            self.tracking = format!("RT{}", self.id);
        }
        self.updated_at = now_s().max(self.updated_at + 1);
    }
}

/// One A6 page (100 × 150 mm) as a carrier's thermal waybill reads: the carrier, a note in
/// the corner, the tracking number and its barcode, the receiver, the order number and the
/// cash to collect.
pub fn waybill_page(doc: &mut bo_pdf::Doc, carrier: &str, corner: &str, tracking_no: &str, o: &Order) {
    use bo_pdf::{Align, Weight};
    let page = doc.page(100.0, 150.0);
    page.text(5.0, 10.0, 14.0, Weight::Bold, Align::Left, carrier);
    page.text(95.0, 10.0, 9.0, Weight::Regular, Align::Right, corner);
    let _ = page.code128(8.0, 16.0, 84.0, 18.0, tracking_no);
    page.text(50.0, 40.0, 12.0, Weight::Bold, Align::Center, tracking_no);
    page.text(5.0, 52.0, 9.0, Weight::Bold, Align::Left, "ผู้รับ");
    page.text(5.0, 58.0, 11.0, Weight::Regular, Align::Left, &format!("{} {}", o.buyer, o.phone));
    page.wrap(
        5.0,
        64.0,
        90.0,
        10.0,
        Weight::Regular,
        &format!("{} {} {} {}", o.address, o.district, o.province, o.postcode),
    );
    page.text(5.0, 90.0, 9.0, Weight::Regular, Align::Left, &format!("Order {}", o.id));
    if o.cod {
        let due = o.items_satang() + satang(&o.shipping_fee);
        page.text(5.0, 100.0, 12.0, Weight::Bold, Align::Left, &format!("COD ฿{}", baht(due)));
    }
}

/// Baht text with two decimals in satang (the sandbox's own prices only).
pub fn satang(baht: &str) -> i64 {
    let (w, f) = baht.split_once('.').unwrap_or((baht, "0"));
    let f = format!("{f:0<2}");
    w.parse::<i64>().unwrap_or(0) * 100 + f[..2].parse::<i64>().unwrap_or(0)
}

/// Satang as baht text with two decimals.
pub fn baht(satang: i64) -> String {
    format!("{}.{:02}", satang / 100, satang % 100)
}

/// A line of `quantity` of a listing at `price` baht.
pub fn line(item_id: &str, model_id: &str, seller_sku: &str, name: &str, quantity: i64, price: &str) -> Line {
    Line {
        item_id: item_id.into(),
        model_id: model_id.into(),
        seller_sku: seller_sku.into(),
        name: name.into(),
        quantity,
        price: price.into(),
        paid_price: price.into(),
    }
}

/// A sliding count of calls per second, for throttling.
#[derive(Debug, Default)]
pub struct Throttle {
    /// Calls allowed per second; 0 for no limit.
    pub per_second: u32,
    second: i64,
    used: u32,
    /// Calls refused.
    pub refused: u64,
    /// Calls taken.
    pub taken: u64,
}

impl Throttle {
    /// Counts a call: false when it is one too many this second.
    pub fn take(&mut self) -> bool {
        let now = now_ms() / 1000;
        if now != self.second {
            self.second = now;
            self.used = 0;
        }
        if self.per_second > 0 && self.used >= self.per_second {
            self.refused += 1;
            return false;
        }
        self.used += 1;
        self.taken += 1;
        true
    }
}

/// Sends a signed push to `url` with `headers`; the HTTP status it was answered with (0
/// when it could not be delivered) and how long the answer took.
pub async fn deliver(url: &str, headers: &[(&str, String)], body: String) -> (u16, std::time::Duration) {
    let started = std::time::Instant::now();
    let client = reqwest::Client::builder().timeout(std::time::Duration::from_secs(10)).build().expect("client");
    let mut req = client.post(url).header("content-type", "application/json").body(body);
    for (k, v) in headers {
        req = req.header(*k, v);
    }
    let status = match req.send().await {
        Ok(res) => res.status().as_u16(),
        Err(_) => 0,
    };
    (status, started.elapsed())
}

/// A shared state and its lock.
#[derive(Debug, Default)]
pub struct Shared<T>(Arc<Mutex<T>>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> Shared<T> {
    /// Wraps `t`.
    pub fn new(t: T) -> Self {
        Shared(Arc::new(Mutex::new(t)))
    }

    /// The state, locked.
    pub fn lock(&self) -> MutexGuard<'_, T> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_texts() {
        assert_eq!(satang("199.00"), 19_900);
        assert_eq!(satang("199.5"), 19_950);
        assert_eq!(satang("7"), 700);
        assert_eq!(baht(19_950), "199.50");
    }

    #[test]
    fn hmac_is_rfc_4231() {
        assert_eq!(
            hmac_hex(b"Jefe", b"what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
