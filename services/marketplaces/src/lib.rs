//! The marketplaces service: Shopee, Lazada and TikTok Shop shops connected to a store, their
//! orders taken in and our stock pushed out to them (DESIGN.md, "Sales channels").
//!
//! It holds the pure rules ([`domain`]: marketplaces, what their statuses mean, their money,
//! a shop's states), one HTTP adapter per marketplace behind one trait ([`adapters`]), the
//! sealing of their tokens at rest ([`vault`]), the storage of connected shops ([`store`])
//! and the gRPC service that connects them ([`grpc`]).

pub mod adapters;
pub mod domain;
pub mod grpc;
pub mod intake;
pub mod store;
pub mod vault;

use std::sync::Arc;

use async_trait::async_trait;
use bo_kit::config::Secret;
use bo_kit::module::{Context, Module, Started};
use bo_proto::logistics::v1::logistics_service_client::LogisticsServiceClient;
use bo_proto::marketplaces::v1::marketplaces_service_server::MarketplacesServiceServer;
use bo_proto::orders::v1::orders_service_client::OrdersServiceClient;
use bo_proto::payments::v1::payments_service_client::PaymentsServiceClient;
use bo_proto::products::v1::products_service_client::ProductsServiceClient;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
use serde::{Deserialize, Serialize};
use sqlx::migrate::Migrator;

use crate::adapters::{Adapter, AppConfig};
use crate::domain::Marketplace;
pub use crate::grpc::{MarketplacesGrpc, Peers};

/// SQLite migrations.
pub static MIGRATIONS_SQLITE: Migrator = sqlx::migrate!("./migrations/sqlite");
/// PostgreSQL migrations.
pub static MIGRATIONS_POSTGRES: Migrator = sqlx::migrate!("./migrations/postgres");

/// Which stores may connect shops of a marketplace (SPEC §3: the whitelist config, per
/// marketplace and per installation): every store unless `is_white_list`, then only those
/// of `store_ids`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Whitelist {
    /// The marketplace is open only to the stores listed.
    pub is_white_list: bool,
    /// The stores it is open to when whitelisted.
    pub store_ids: Vec<i64>,
}

impl Whitelist {
    /// Whether `store_id` may connect shops.
    pub fn allows(&self, store_id: i64) -> bool {
        !self.is_white_list || self.store_ids.contains(&store_id)
    }
}

/// The service's settings (`services.marketplaces.*`). A marketplace whose app keys are not
/// set cannot be connected; the connect screen names the settings to set.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Shopee's partner app (`api_url`; its partner id as `app_key`, its partner key as
    /// `app_secret`).
    pub shopee: AppConfig,
    /// Lazada's app (`api_url`, `auth_url`, `authorize_url`, `app_key`, `app_secret`).
    pub lazada: AppConfig,
    /// TikTok Shop's app (`api_url`, `auth_url`, `authorize_url`, `app_key`, `app_secret`,
    /// `service_id`).
    pub tiktok_shop: AppConfig,
    /// The back-office's public address, where marketplaces send sellers back
    /// (`<public_url>/sale-channel-redirect`) and push to.
    pub public_url: String,
    /// The key tokens are sealed with (64 hex digits); the embedded target makes one in its
    /// data folder when it is not set.
    pub token_key: Secret,
    /// Older keys, still opening what they sealed.
    pub previous_token_keys: Vec<Secret>,
    /// The longest a marketplace call may take, ms.
    pub timeout_ms: u64,
    /// How often each connected shop is polled for changed orders, behind its pushes, ms.
    pub poll_every_ms: u64,
    /// How far before its watermark a poll looks again (changes a marketplace dates late), s.
    pub poll_overlap_s: u64,
    /// How often due stock pushes are sent, ms.
    pub stock_push_every_ms: u64,
    /// Stock calls per second to one shop (each marketplace's limit is higher).
    pub stock_calls_per_second: u32,
    /// How often every linked listing's stock is pushed again whatever changed, ms.
    pub reassert_every_ms: u64,
    /// Per marketplace code (`shopee`, `lazada`, `tiktok_shop`), the stores it is open to.
    pub whitelist: std::collections::BTreeMap<String, Whitelist>,
    /// The waits before a failed webhook message's attempts 2, 3, …, ms (empty: about three
    /// days in eleven attempts, `domain::webhook::BACKOFF_MS`).
    pub webhook_retry_ms: Vec<u64>,
    /// An endpoint failing this long without a delivery is turned off, ms.
    pub webhook_disable_after_ms: u64,
    /// How long an endpoint has to answer, ms.
    pub webhook_timeout_ms: u64,
    /// Webhook requests in flight at once, every endpoint together.
    pub webhook_concurrency: usize,
    /// Webhook requests in flight to one endpoint (one while it is failing).
    pub webhook_per_endpoint: usize,
    /// How often the dispatcher looks for due messages when nothing woke it, ms.
    pub webhook_poll_ms: u64,
}

impl Default for Settings {
    fn default() -> Self {
        let app = |api: &str, auth: &str, authorize: &str| AppConfig {
            api_url: api.into(),
            auth_url: auth.into(),
            authorize_url: authorize.into(),
            ..Default::default()
        };
        Settings {
            shopee: app("https://partner.shopeemobile.com", "", ""),
            lazada: app(
                "https://api.lazada.co.th/rest",
                "https://auth.lazada.com/rest",
                "https://auth.lazada.com/oauth/authorize",
            ),
            tiktok_shop: app(
                "https://open-api.tiktokglobalshop.com",
                "https://auth.tiktok-shops.com",
                "https://services.tiktokshop.com/open/authorize",
            ),
            public_url: "http://localhost:8080".into(),
            token_key: Secret::default(),
            previous_token_keys: Vec::new(),
            timeout_ms: 15_000,
            poll_every_ms: 180_000,
            poll_overlap_s: 120,
            stock_push_every_ms: 1_000,
            stock_calls_per_second: 5,
            reassert_every_ms: 6 * 3600 * 1000,
            whitelist: Default::default(),
            webhook_retry_ms: Vec::new(),
            webhook_disable_after_ms: domain::webhook::DISABLE_AFTER_MS,
            webhook_timeout_ms: domain::webhook::TIMEOUT_MS,
            webhook_concurrency: 256,
            webhook_per_endpoint: 4,
            webhook_poll_ms: 250,
        }
    }
}

impl Settings {
    /// The app of `m`.
    pub fn app(&self, m: Marketplace) -> &AppConfig {
        match m {
            Marketplace::Shopee => &self.shopee,
            Marketplace::Lazada => &self.lazada,
            Marketplace::TiktokShop => &self.tiktok_shop,
        }
    }

    /// Whether `store_id` may connect shops of `m`.
    pub fn allows(&self, m: Marketplace, store_id: i64) -> bool {
        self.whitelist.get(m.code()).is_none_or(|w| w.allows(store_id))
    }

    /// Where marketplaces send a seller back after authorizing.
    pub fn redirect_url(&self) -> String {
        format!("{}/sale-channel-redirect", self.public_url.trim_end_matches('/'))
    }

    /// An adapter for every marketplace whose app keys are set.
    pub fn adapters(&self, http: &reqwest::Client) -> Vec<Arc<dyn Adapter>> {
        let mut out: Vec<Arc<dyn Adapter>> = Vec::new();
        for m in Marketplace::ALL {
            let app = self.app(m).clone();
            if !app.is_set() {
                continue;
            }
            out.push(match m {
                Marketplace::Shopee => Arc::new(adapters::shopee::Shopee::new(http.clone(), app)),
                Marketplace::Lazada => Arc::new(adapters::lazada::Lazada::new(http.clone(), app)),
                Marketplace::TiktokShop => Arc::new(adapters::tiktok::TiktokShop::new(http.clone(), app)),
            });
        }
        out
    }
}

/// The marketplaces module.
pub struct MarketplacesModule;

#[async_trait]
impl Module for MarketplacesModule {
    fn name(&self) -> &'static str {
        "marketplaces"
    }

    fn migrations(&self) -> Option<bo_kit::module::Migrations> {
        Some(bo_kit::module::Migrations { sqlite: &MIGRATIONS_SQLITE, postgres: &MIGRATIONS_POSTGRES })
    }

    fn needs(&self) -> Vec<&'static str> {
        vec!["wms", "logistics", "payments", "orders", "products"]
    }

    fn publishes(&self) -> Vec<&'static str> {
        use bo_proto::Event as _;
        vec![bo_proto::events::v1::StockSyncChanged::TYPE]
    }

    fn subscribes(&self) -> Vec<&'static str> {
        use bo_proto::events::v1 as ev;
        use bo_proto::Event as _;
        vec![
            ev::StockMoved::TYPE,
            ev::OrderPlaced::TYPE,
            ev::OrderStateChanged::TYPE,
            ev::OrderPaid::TYPE,
            ev::ProductSaved::TYPE,
        ]
    }

    fn secrets(&self) -> Vec<&'static str> {
        vec!["token_key"]
    }

    async fn start(&self, ctx: &Context) -> anyhow::Result<Started> {
        let db = ctx.db()?;
        db.migrate(&MIGRATIONS_SQLITE, &MIGRATIONS_POSTGRES).await?;
        let settings: Settings = ctx.settings()?;
        let key = if !settings.token_key.is_empty() {
            settings.token_key.clone()
        } else {
            anyhow::ensure!(
                ctx.embedded,
                "services.marketplaces.token_key (BO_SERVICES__MARKETPLACES__TOKEN_KEY) is required outside the embedded \
                 target: it seals the marketplaces' tokens (head -c 32 /dev/urandom | xxd -p -c 64)"
            );
            Secret::new(hex::encode(bo_kit::auth::load_or_create_named_key(&ctx.data_dir, "marketplaces-token.key")?))
        };
        let vault = vault::Vault::new(&key, &settings.previous_token_keys)?;
        let http = adapters::http_client(std::time::Duration::from_millis(settings.timeout_ms.max(1)))?;
        let peers = Peers {
            wms: Some(ctx.client(WmsServiceClient::new)?),
            logistics: Some(ctx.client(LogisticsServiceClient::new)?),
            payments: Some(ctx.client(PaymentsServiceClient::new)?),
        };
        let adapters = Arc::new(settings.adapters(&http));
        let settings = Arc::new(settings);
        let repo = store::Repo::new(db.clone(), vault);
        let intake = intake::Intake::new(
            repo.clone(),
            settings.clone(),
            adapters.clone(),
            intake::Services {
                orders: Some(ctx.client(OrdersServiceClient::new)?),
                wms: peers.wms.clone(),
                products: Some(ctx.client(ProductsServiceClient::new)?),
                identity: Some(ctx.identity()),
                webhooks_http: bo_kit::outbound::client(std::time::Duration::from_millis(
                    settings.webhook_timeout_ms.max(1),
                ))?,
                magento_http: http.clone(),
            },
        );
        // The ledger's movements tell which listings' and open-API channels' stock is due;
        // orders of open-API channels and products with linked SKUs make webhook messages.
        let relay = bo_kit::outbox::Relay::new(db.clone(), ctx.bus.clone());
        let hooks = Arc::new(intake::WebhookEvents { intake: intake.clone() });
        let consumer = bo_kit::inbox::Consumer::new(db.clone(), ctx.bus.clone(), "marketplaces")
            .on_all::<bo_proto::events::v1::StockMoved, _>(intake::StockLinks)
            .on::<bo_proto::events::v1::OrderPlaced, _>(hooks.clone())
            .on::<bo_proto::events::v1::OrderStateChanged, _>(hooks.clone())
            .on::<bo_proto::events::v1::OrderPaid, _>(hooks.clone())
            .on::<bo_proto::events::v1::ProductSaved, _>(hooks);
        ctx.spawn_event_tasks(&relay, Some(&consumer))?;
        let pushing = intake.clone();
        let every = std::time::Duration::from_millis(settings.stock_push_every_ms.max(50));
        ctx.spawn(
            "stock",
            bo_kit::schedule::every(db.clone(), "marketplaces.stock", every, ctx.cancel.clone(), move || {
                let intake = pushing.clone();
                async move {
                    intake.push_stock().await?;
                    intake.push_magento_stock().await?;
                    Ok(())
                }
            }),
        );
        let reasserting = repo.clone();
        let every = std::time::Duration::from_millis(settings.reassert_every_ms.max(1000));
        ctx.spawn(
            "reassert",
            bo_kit::schedule::every(db.clone(), "marketplaces.reassert", every, ctx.cancel.clone(), move || {
                let repo = reasserting.clone();
                async move {
                    let n = repo.reassert(0).await?;
                    tracing::info!(listings = n, "re-asserting the stock of every linked listing");
                    Ok(())
                }
            }),
        );
        ctx.spawn("pushes", intake.clone().run_pushes(ctx.cancel.clone()));
        ctx.spawn("webhooks", intake.clone().run_webhooks(ctx.cancel.clone()));
        ctx.spawn("imports", intake.clone().run_imports(ctx.cancel.clone()));
        let polling = intake.clone();
        let every = std::time::Duration::from_millis((settings.poll_every_ms / 6).clamp(100, 30_000));
        ctx.spawn(
            "poll",
            bo_kit::schedule::every(db.clone(), "marketplaces.poll", every, ctx.cancel.clone(), move || {
                let intake = polling.clone();
                async move {
                    let lost = intake.recover_lost().await;
                    if lost > 0 {
                        tracing::info!(pushes = lost, "took in pushes a marketplace could not deliver");
                    }
                    intake.refresh_due().await?;
                    let n = intake.poll_due().await?;
                    if n > 0 {
                        tracing::info!(orders = n, "took in marketplace orders by polling");
                    }
                    let n = intake.poll_magento_due().await?;
                    if n > 0 {
                        tracing::info!(orders = n, "took in Magento orders by polling");
                    }
                    Ok(())
                }
            }),
        );
        let purging = repo.clone();
        ctx.spawn(
            "purge",
            bo_kit::schedule::every(
                db,
                "marketplaces.purge",
                std::time::Duration::from_secs(3600),
                ctx.cancel.clone(),
                move || {
                    let repo = purging.clone();
                    async move {
                        let n = repo.purge_pushes(store::PUSHES_KEPT_MS).await?;
                        if n > 0 {
                            tracing::info!(pushes = n, "purged handled marketplace pushes");
                        }
                        let n = repo.purge_webhooks(domain::webhook::LOG_KEPT_MS).await?;
                        if n > 0 {
                            tracing::info!(messages = n, "purged webhook messages older than 30 days");
                        }
                        Ok(())
                    }
                },
            ),
        );
        let grpc = MarketplacesGrpc::new(repo, settings, adapters, peers, intake);
        ctx.serve(MarketplacesServiceServer::new(grpc));
        Ok(Started::default())
    }
}
