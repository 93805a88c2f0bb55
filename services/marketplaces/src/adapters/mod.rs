//! One adapter per marketplace behind the [`Marketplace`](Adapter) trait, over HTTP: Shopee
//! Open Platform v2 ([`shopee`]), Lazada Open Platform ([`lazada`]) and TikTok Shop's
//! Partner API 202309 ([`tiktok`]). The rest of the service sees only the types here: a
//! platform's shapes, signatures and envelopes stay in its file.
//!
//! Every failure is a [`ChannelError`], whatever the marketplace: it could not be reached,
//! it asked us to slow down, it refused the access token (refresh it), it refused the
//! authorization itself (the seller must connect again), it refused the request, or it
//! answered something we cannot read. Keys and tokens are [`Secret`]s, so no `Debug`, log
//! line or error shows them.

pub mod cancellations;
pub mod lazada;
pub mod magento;
pub mod returns;
pub mod shipping;
pub mod shopee;
pub mod tiktok;

use std::time::Duration;

use async_trait::async_trait;
pub use bo_kit::config::Secret;
use bo_kit::error::Kind;
use serde::{Deserialize, Serialize};

use crate::domain::status::Stage;
use crate::domain::Marketplace;

/// The longest marketplace message kept in an error, in characters.
const MESSAGE_MAX: usize = 200;
/// The largest JSON answer we read, bytes.
pub(crate) const ANSWER_MAX_BYTES: usize = 4 * 1024 * 1024;

/// What went wrong talking to a marketplace. The texts are for logs: they hold the
/// marketplace's words and HTTP statuses, never a key, a token or a signature.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChannelError {
    /// A network error, a timeout, or the marketplace's own failure (5xx).
    #[error("marketplace unreachable: {0}")]
    Unreachable(String),
    /// Too many calls: wait before the next (the marketplace's hint when it gives one).
    #[error("marketplace throttled us: {message}")]
    Throttled {
        /// How long to wait, when the marketplace says.
        retry_after: Option<Duration>,
        /// Its words.
        message: String,
    },
    /// The access token was refused (expired or invalid): refresh it and try again.
    #[error("marketplace refused the access token: {0}")]
    TokenRefused(String),
    /// The authorization is gone (refresh token refused, expired or spent; the seller
    /// cancelled it): the shop must be connected again.
    #[error("marketplace authorization ended: {0}")]
    AuthorizationEnded(String),
    /// The marketplace refused our app's key or signature (a configuration error).
    #[error("marketplace refused our app credentials: {0}")]
    AppRefused(String),
    /// The marketplace refused the request itself: its code and message.
    #[error("marketplace refused the request ({code}): {message}")]
    Rejected {
        /// The marketplace's code.
        code: String,
        /// Its message, kept for the logs.
        message: String,
    },
    /// An answer we cannot read.
    #[error("marketplace answer unreadable: {0}")]
    Malformed(String),
}

impl ChannelError {
    /// The stable code the app translates.
    pub fn code(&self) -> bo_kit::Code {
        use bo_kit::Code;
        match self {
            ChannelError::Unreachable(_) | ChannelError::Throttled { .. } => Code::MarketplaceUnreachable,
            ChannelError::TokenRefused(_) | ChannelError::AuthorizationEnded(_) => Code::MarketplaceTokenExpired,
            ChannelError::AppRefused(_) => Code::MarketplaceAppRefused,
            ChannelError::Rejected { .. } => Code::MarketplaceRejected,
            ChannelError::Malformed(_) => Code::MarketplaceBadAnswer,
        }
    }

    /// A refusal of the marketplace, its message cut to a loggable length.
    pub(crate) fn rejected(code: impl Into<String>, message: &str) -> Self {
        ChannelError::Rejected { code: code.into(), message: clip(message) }
    }

    /// True when trying again later may succeed.
    pub fn is_transient(&self) -> bool {
        matches!(self, ChannelError::Unreachable(_) | ChannelError::Throttled { .. } | ChannelError::Malformed(_))
    }
}

/// Unavailable for an unreachable marketplace; a failed precondition for refusals (the
/// shop's authorization or the request need attention).
impl From<ChannelError> for bo_kit::Error {
    fn from(e: ChannelError) -> Self {
        let kind = match e {
            ChannelError::Unreachable(_) | ChannelError::Throttled { .. } | ChannelError::Malformed(_) => {
                Kind::Unavailable
            }
            ChannelError::TokenRefused(_)
            | ChannelError::AuthorizationEnded(_)
            | ChannelError::AppRefused(_)
            | ChannelError::Rejected { .. } => Kind::FailedPrecondition,
        };
        let mut err = bo_kit::Error::new(kind, e.code());
        err.source = Some(anyhow::Error::new(e));
        err
    }
}

/// Cuts a marketplace's text to [`MESSAGE_MAX`] characters.
pub(crate) fn clip(s: &str) -> String {
    bo_kit::outbound::clip(s, MESSAGE_MAX)
}

/// The app's keys at one marketplace and where its hosts are (`services.marketplaces.*`).
/// Empty keys mean the operator has not registered the app: connecting explains what to set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AppConfig {
    /// The API host (`https://partner.shopeemobile.com`, `https://api.lazada.co.th/rest`,
    /// `https://open-api.tiktokglobalshop.com`).
    pub api_url: String,
    /// The token host where it differs from the API host (Lazada's and TikTok's).
    pub auth_url: String,
    /// The page a seller is sent to authorize us, where it is not on the API host.
    pub authorize_url: String,
    /// Shopee's partner id, Lazada's and TikTok's app key (text, even when it is digits).
    #[serde(deserialize_with = "bo_kit::config::text")]
    pub app_key: String,
    /// Shopee's partner key, Lazada's and TikTok's app secret.
    pub app_secret: Secret,
    /// TikTok Shop's service id (its authorize link names the app by it).
    #[serde(deserialize_with = "bo_kit::config::text")]
    pub service_id: String,
}

impl AppConfig {
    /// True when the operator has set the app's keys.
    pub fn is_set(&self) -> bool {
        !self.app_key.trim().is_empty() && !self.app_secret.is_empty()
    }

    /// The settings the operator must set for `marketplace`, for the connect screen.
    pub fn missing(&self, marketplace: Marketplace) -> Vec<String> {
        let section = format!("services.marketplaces.{}", marketplace.code());
        let mut missing = Vec::new();
        if self.app_key.trim().is_empty() {
            missing.push(format!("{section}.app_key"));
        }
        if self.app_secret.is_empty() {
            missing.push(format!("{section}.app_secret"));
        }
        if marketplace == Marketplace::TiktokShop && self.service_id.trim().is_empty() {
            missing.push(format!("{section}.service_id"));
        }
        missing
    }
}

/// What the marketplace's redirect brings back after a seller authorized us.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grant {
    /// The one-time code.
    pub code: String,
    /// The shop that was authorized, where the redirect names it (Shopee's `shop_id`).
    pub shop_id: String,
}

/// An access token and its refresh token, with when each ends (unix seconds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tokens {
    /// Signs shop calls.
    pub access: Secret,
    /// Buys the next pair; single use at Shopee.
    pub refresh: Secret,
    /// When the access token ends.
    pub access_expires_at_s: i64,
    /// When the refresh token ends (the authorization with it).
    pub refresh_expires_at_s: i64,
}

/// A shop an authorization gives us.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shop {
    /// The marketplace's id of the shop (Shopee's `shop_id`, Lazada's `seller_id`, TikTok's
    /// shop `id`).
    pub shop_id: String,
    /// Its name.
    pub name: String,
    /// Its region (`TH`).
    pub region: String,
    /// TikTok's `cipher`, which every shop call carries; empty elsewhere.
    pub cipher: String,
}

/// A seller's authorization: the tokens and the shops they reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authorized {
    /// The tokens.
    pub tokens: Tokens,
    /// The shops (one at Shopee and Lazada; one or more at TikTok Shop).
    pub shops: Vec<Shop>,
}

/// What a shop call needs: the shop and a live access token.
#[derive(Debug, Clone, Copy)]
pub struct Session<'a> {
    /// The shop.
    pub shop: &'a Shop,
    /// Its access token.
    pub access: &'a Secret,
}

/// An order the marketplace says changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changed {
    /// The marketplace's order id (Shopee's `order_sn`).
    pub order_id: String,
    /// When it changed last, unix seconds, where the list says (0 when it does not).
    pub updated_at_s: i64,
}

/// One page of changed orders.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangesPage {
    /// The orders.
    pub orders: Vec<Changed>,
    /// The cursor of the next page, if there is one.
    pub next: Option<String>,
}

/// A marketplace order as the rest of the service sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarketOrder {
    /// The marketplace's id (Shopee's `order_sn`, Lazada's `order_id`, TikTok's `id`).
    pub order_id: String,
    /// The number the seller sees, where it differs from the id (Lazada's `order_number`).
    pub order_number: String,
    /// The marketplace's status word.
    pub status: String,
    /// What it means, when we know the word.
    pub stage: Option<Stage>,
    /// When it was placed and last changed, unix seconds.
    pub created_at_s: i64,
    /// When it last changed, unix seconds: a change older than what we hold is ignored.
    pub updated_at_s: i64,
    /// Cash on delivery.
    pub cod: bool,
    /// The buyer's name (as the marketplace shows it; often masked).
    pub buyer_name: String,
    /// Where it goes.
    pub address: Address,
    /// Its lines.
    pub lines: Vec<MarketLine>,
    /// What the buyer pays in all, satang.
    pub total_satang: i64,
    /// The shipping fee the buyer pays, satang.
    pub shipping_fee_satang: i64,
    /// The seller's own discounts and vouchers, satang (lower the seller's income).
    pub seller_discount_satang: i64,
    /// The marketplace's discounts and vouchers, satang (paid by the marketplace).
    pub platform_discount_satang: i64,
    /// The marketplace's words for the payment method.
    pub payment_method: String,
    /// The buyer's note.
    pub note: String,
    /// The buyer's reason, where the buyer asked to cancel (empty otherwise).
    pub cancel_reason: String,
}

/// A shipping address.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Address {
    /// Receiver's name.
    pub name: String,
    /// Phone (often masked by the marketplace).
    pub phone: String,
    /// The whole address as one text.
    pub full: String,
    /// Province.
    pub province: String,
    /// District.
    pub district: String,
    /// Sub-district.
    pub sub_district: String,
    /// Postcode.
    pub postcode: String,
}

/// One line of a marketplace order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarketLine {
    /// The listing (Shopee's `item_id`, Lazada's `item_id`, TikTok's `product_id`).
    pub item_id: String,
    /// The variation (Shopee's `model_id`, Lazada's `sku_id`, TikTok's `sku_id`); empty
    /// for a listing without variations.
    pub model_id: String,
    /// The seller's SKU code on the listing (matched to our SKU codes).
    pub seller_sku: String,
    /// What the buyer sees.
    pub name: String,
    /// How many.
    pub quantity: i64,
    /// The price of one before discounts, satang.
    pub unit_price_satang: i64,
    /// The price of one the buyer pays, satang.
    pub paid_unit_price_satang: i64,
}

/// A listing's stock to set: the absolute quantity, never a difference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StockLevel {
    /// The listing.
    pub item_id: String,
    /// Its variation (empty for a listing without variations).
    pub model_id: String,
    /// The quantity the marketplace should show.
    pub quantity: i64,
}

/// What the marketplace said of one stock level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StockOutcome {
    /// The listing.
    pub item_id: String,
    /// Its variation.
    pub model_id: String,
    /// `None` when it was set; the marketplace's reason when it was refused.
    pub refused: Option<String>,
}

/// Whether a listing is on sale at the marketplace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListingState {
    /// On sale.
    Active,
    /// Kept by the seller or the marketplace but not on sale (unlisted, banned, in review).
    Inactive,
    /// Deleted by the seller or the marketplace.
    Deleted,
}

impl ListingState {
    /// Its word in storage and on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ListingState::Active => "active",
            ListingState::Inactive => "inactive",
            ListingState::Deleted => "deleted",
        }
    }

    /// The state of a stored word.
    pub fn parse(s: &str) -> Option<ListingState> {
        [ListingState::Active, ListingState::Inactive, ListingState::Deleted].into_iter().find(|x| x.as_str() == s)
    }
}

/// One variation of a marketplace listing (or the listing itself when it has none), as the
/// marketplace holds it now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarketListing {
    /// The listing (Shopee's `item_id`, Lazada's `item_id`, TikTok's product `id`).
    pub item_id: String,
    /// The variation (Shopee's `model_id`, Lazada's `SkuId`, TikTok's SKU `id`); empty for
    /// a Shopee item without models.
    pub model_id: String,
    /// The listing's title.
    pub name: String,
    /// The variation's options, (name, value), in the marketplace's order.
    pub options: Vec<(String, String)>,
    /// The seller's SKU code on it.
    pub seller_sku: String,
    /// Its price, satang.
    pub price_satang: i64,
    /// The stock the marketplace shows (-1 when it does not say).
    pub stock: i64,
    /// A picture of it.
    pub image_url: String,
    /// Whether it is on sale.
    pub state: ListingState,
    /// When it changed last, unix seconds (0 when the marketplace does not say).
    pub updated_at_s: i64,
}

/// One page of a shop's listings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListingsPage {
    /// The listings' variations.
    pub listings: Vec<MarketListing>,
    /// The cursor of the next page, if there is one.
    pub next: Option<String>,
    /// How many listings (items) the shop has in all, where the marketplace says.
    pub total: i64,
}

/// A push the marketplace sent us, checked and read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "push", rename_all = "snake_case")]
pub enum Push {
    /// An order changed: fetch it.
    OrderChanged {
        /// The shop.
        shop_id: String,
        /// The order.
        order_id: String,
        /// The status the push names.
        status: String,
        /// When it changed, unix seconds (0 when the push does not say).
        updated_at_s: i64,
    },
    /// The authorization ends soon (or has ended).
    AuthorizationExpiring {
        /// The shop.
        shop_id: String,
        /// When it ends, unix seconds (0 when the push does not say).
        expires_at_s: i64,
    },
    /// A buyer's return of the shop changed: read the shop's returns.
    ReturnChanged {
        /// The shop.
        shop_id: String,
    },
    /// The seller cancelled our authorization.
    Deauthorized {
        /// The shop.
        shop_id: String,
    },
    /// A push we take but do not act on (its kind, for the logs).
    Other {
        /// The marketplace's code or type.
        kind: String,
    },
}

/// Why a push was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PushError {
    /// Its signature is missing or wrong: it is not from the marketplace.
    #[error("push signature missing or wrong")]
    BadSignature,
    /// Signed, but not a push we can read.
    #[error("push unreadable: {0}")]
    Malformed(String),
}

/// How much a marketplace takes per call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The longest window of an order-change query, seconds (Shopee: 15 days).
    pub window_s: i64,
    /// Order ids per detail call.
    pub details_per_call: usize,
    /// Stock levels per call (Shopee: the models of one item, up to 50).
    pub stock_per_call: usize,
    /// A stock call sets the variations of one listing only (Shopee, TikTok Shop).
    pub stock_one_item: bool,
}

/// A marketplace, for the shops of one app.
#[async_trait]
pub trait Adapter: Send + Sync {
    /// Which marketplace.
    fn marketplace(&self) -> Marketplace;

    /// Its per-call limits.
    fn limits(&self) -> Limits;

    /// The page a seller follows to authorize us; the marketplace sends them back to
    /// `redirect` (with `state` where the marketplace carries one; Shopee's does not, so
    /// `state` is put in the redirect's own query).
    fn authorize_url(&self, redirect: &str, state: &str, now_s: i64) -> Result<String, ChannelError>;

    /// Spends the redirect's one-time code for tokens and the shops they reach.
    async fn connect(&self, grant: &Grant) -> Result<Authorized, ChannelError>;

    /// Spends `refresh` for new tokens (single use at Shopee: keep what comes back).
    async fn refresh(&self, shop: &Shop, refresh: &Secret) -> Result<Tokens, ChannelError>;

    /// Orders changed in `[from_s, to_s)` (at most [`Limits::window_s`] long), a page at a
    /// time from `cursor`.
    async fn changed_orders(
        &self,
        session: Session<'_>,
        from_s: i64,
        to_s: i64,
        cursor: Option<&str>,
    ) -> Result<ChangesPage, ChannelError>;

    /// The orders of `ids` (at most [`Limits::details_per_call`]), as the marketplace holds
    /// them now. An id it does not know is left out.
    async fn orders(&self, session: Session<'_>, ids: &[String]) -> Result<Vec<MarketOrder>, ChannelError>;

    /// Sets the stock of listings (at most [`Limits::stock_per_call`], one item at Shopee),
    /// each level answered.
    async fn set_stock(&self, session: Session<'_>, levels: &[StockLevel]) -> Result<Vec<StockOutcome>, ChannelError>;

    /// A shop's listings, a page at a time from `cursor` (the first page with `None`), every
    /// variation with its seller SKU, price, the marketplace's stock and whether it is on
    /// sale; deleted listings where the marketplace still lists them.
    async fn listings(&self, session: Session<'_>, cursor: Option<&str>) -> Result<ListingsPage, ChannelError>;

    /// The listings of the items `item_ids` (a few: a push's sample read back) as the
    /// marketplace shows them now, every variation with its stock. An item it does not
    /// know is left out.
    async fn items(&self, session: Session<'_>, item_ids: &[String]) -> Result<Vec<MarketListing>, ChannelError>;

    /// Its shipping calls, where we ship its orders the platform's way.
    fn shipping(&self) -> Option<&dyn shipping::Shipping> {
        None
    }

    /// Its answer to a buyer's cancellation request, where the seller answers it here.
    fn cancellations(&self) -> Option<&dyn cancellations::Cancellations> {
        None
    }

    /// Its buyers' returns, where we read them.
    fn returns(&self) -> Option<&dyn returns::Returns> {
        None
    }

    /// Checks a push's signature over its raw body (before anything else reads it) and
    /// reads it. `url` is the address it was sent to, as the marketplace was given it.
    fn read_push(&self, url: &str, headers: &http::HeaderMap, body: &[u8]) -> Result<Vec<Push>, PushError>;

    /// What the marketplace expects as the answer to an accepted push: status and body.
    fn push_answer(&self) -> (u16, &'static str) {
        (200, "")
    }

    /// Pushes the marketplace could not deliver and keeps for us (Shopee's lost-push list):
    /// the earliest of them, the mark to confirm them with, and whether more wait; `None`
    /// when none wait (or the marketplace keeps none).
    async fn lost_pushes(&self) -> Result<Option<(Vec<Push>, i64, bool)>, ChannelError> {
        Ok(None)
    }

    /// Tells the marketplace the lost pushes up to `mark` are taken.
    async fn confirm_lost_pushes(&self, _mark: i64) -> Result<(), ChannelError> {
        Ok(())
    }
}

/// The HTTP client every adapter shares, with `timeout`.
pub fn http_client(timeout: Duration) -> anyhow::Result<reqwest::Client> {
    Ok(bo_kit::outbound::client(timeout)?)
}

/// Sends a request, mapping transport failures (the URL is left out of the text: Lazada and
/// TikTok carry tokens in query strings).
pub(crate) async fn send(who: &str, req: reqwest::RequestBuilder) -> Result<reqwest::Response, ChannelError> {
    req.send().await.map_err(|e| {
        let err = ChannelError::Unreachable(clip(&bo_kit::outbound::describe(who, &e.without_url())));
        tracing::warn!(marketplace = who, error = %err, "marketplace request failed");
        err
    })
}

/// A whole answer: its status and body (bounded), the marketplace's own trouble (5xx) and
/// throttling (429) turned into errors.
pub(crate) async fn answer(
    who: &str,
    res: reqwest::Response,
) -> Result<(reqwest::StatusCode, bytes::Bytes), ChannelError> {
    let status = res.status();
    let retry_after = res
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_secs);
    let body = bo_kit::outbound::read_bounded(who, res, ANSWER_MAX_BYTES).await.map_err(|e| match e {
        bo_kit::outbound::Unread::Transport(why) => ChannelError::Unreachable(clip(&why)),
        bo_kit::outbound::Unread::TooBig(limit) => ChannelError::Malformed(format!("{who}: answer over {limit} bytes")),
    })?;
    if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
        return Err(ChannelError::Throttled { retry_after, message: format!("{who}: answered {status}") });
    }
    if status.is_server_error() {
        tracing::warn!(marketplace = who, %status, "marketplace answered with a failure");
        return Err(ChannelError::Unreachable(format!("{who}: answered {status}")));
    }
    Ok((status, body))
}

/// Lowercase hex HMAC-SHA256 of `message` under `key`.
pub(crate) fn hmac_hex(key: &[u8], message: &[u8]) -> String {
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, key);
    hex::encode(ring::hmac::sign(&key, message).as_ref())
}

/// True when `given` (hex, any case) is the HMAC-SHA256 of `message` under `key`, compared
/// in constant time.
pub(crate) fn hmac_matches(key: &[u8], message: &[u8], given: &str) -> bool {
    let Ok(tag) = hex::decode(given.trim()) else {
        return false;
    };
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, key);
    ring::hmac::verify(&key, message, &tag).is_ok()
}

/// Each level with what the marketplace said of it: refused with the reason `refusal` gives
/// for its variation, set otherwise.
pub(crate) fn outcomes(levels: &[StockLevel], refusal: impl Fn(&str) -> Option<String>) -> Vec<StockOutcome> {
    levels
        .iter()
        .map(|l| StockOutcome {
            item_id: l.item_id.clone(),
            model_id: l.model_id.clone(),
            refused: refusal(&l.model_id),
        })
        .collect()
}

/// True when a push carries in `Authorization` the hex HMAC-SHA256 under the app secret of
/// `app_key + raw body` (Lazada's and TikTok Shop's pushes).
pub(crate) fn signed_with_app_key(app: &AppConfig, headers: &http::HeaderMap, body: &[u8]) -> bool {
    let given = headers.get(http::header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let mut base = app.app_key.trim().as_bytes().to_vec();
    base.extend_from_slice(body);
    hmac_matches(app.app_secret.expose().as_bytes(), &base, given)
}

/// A JSON answer read into `T`.
pub(crate) fn json<T: serde::de::DeserializeOwned>(who: &str, body: &[u8]) -> Result<T, ChannelError> {
    serde_json::from_slice(body).map_err(|e| ChannelError::Malformed(format!("{who}: {}", clip(&e.to_string()))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_have_stable_codes_and_kinds() {
        use bo_kit::Code;
        let cases = [
            (ChannelError::Unreachable("x".into()), Code::MarketplaceUnreachable, Kind::Unavailable),
            (
                ChannelError::Throttled { retry_after: None, message: "x".into() },
                Code::MarketplaceUnreachable,
                Kind::Unavailable,
            ),
            (ChannelError::TokenRefused("x".into()), Code::MarketplaceTokenExpired, Kind::FailedPrecondition),
            (ChannelError::AuthorizationEnded("x".into()), Code::MarketplaceTokenExpired, Kind::FailedPrecondition),
            (ChannelError::AppRefused("x".into()), Code::MarketplaceAppRefused, Kind::FailedPrecondition),
            (ChannelError::rejected("e", "m"), Code::MarketplaceRejected, Kind::FailedPrecondition),
            (ChannelError::Malformed("x".into()), Code::MarketplaceBadAnswer, Kind::Unavailable),
        ];
        for (e, code, kind) in cases {
            assert_eq!(e.code(), code);
            let k = bo_kit::Error::from(e);
            assert_eq!((k.kind, k.code), (kind, code));
        }
    }

    #[test]
    fn hmac_matches_in_any_case_and_refuses_the_rest() {
        let tag = hmac_hex(b"key", b"message");
        assert!(hmac_matches(b"key", b"message", &tag));
        assert!(hmac_matches(b"key", b"message", &tag.to_uppercase()));
        assert!(!hmac_matches(b"key", b"message2", &tag));
        assert!(!hmac_matches(b"key2", b"message", &tag));
        assert!(!hmac_matches(b"key", b"message", "not hex"));
        assert!(!hmac_matches(b"key", b"message", ""));
        // RFC 4231 test case 2.
        assert_eq!(
            hmac_hex(b"Jefe", b"what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn digits_from_the_environment_are_text() {
        let c: AppConfig =
            serde_json::from_value(serde_json::json!({"app_key": 100001, "app_secret": 42, "service_id": 7100}))
                .unwrap();
        assert_eq!((c.app_key.as_str(), c.app_secret.expose(), c.service_id.as_str()), ("100001", "42", "7100"));
    }

    #[test]
    fn missing_settings_are_named() {
        let empty = AppConfig::default();
        assert_eq!(
            empty.missing(Marketplace::Shopee),
            vec!["services.marketplaces.shopee.app_key", "services.marketplaces.shopee.app_secret"]
        );
        assert_eq!(empty.missing(Marketplace::TiktokShop).len(), 3);
        let set = AppConfig { app_key: "1".into(), app_secret: Secret::new("s"), ..Default::default() };
        assert!(set.is_set() && set.missing(Marketplace::Lazada).is_empty());
    }
}
