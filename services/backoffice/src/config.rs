//! Configuration: defaults, then an optional `backoffice.toml` (or `--config FILE`), then
//! the environment with the `BO_` prefix and `__` between levels
//! (`BO_SERVICES__STORES__DATABASE_URL`, `BO_DEMO__PASSWORD`). Secrets never print.

use std::path::{Path, PathBuf};

use std::collections::BTreeMap;

pub use bo_gateway::config::{AuthConfig, MaintenanceConfig};
use bo_kit::config::Secret;
use bo_kit::files::FilesConfig;
use bo_kit::module::ServiceSection;
use figment::providers::{Env, Format, Serialized, Toml};
use figment::Figment;
use serde::{Deserialize, Serialize};

/// Everything a `backoffice` process reads.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// Where the embedded target keeps its SQLite files and generated signing key.
    pub data_dir: PathBuf,
    /// The HTTP listener (API, app, health probes).
    pub http: HttpConfig,
    /// The gRPC listener of service targets.
    pub grpc: GrpcConfig,
    /// The event bus.
    pub bus: BusConfig,
    /// Tokens and sign-in.
    pub auth: AuthConfig,
    /// Per-module settings: `services.<name>.{database_url, addr, …}`.
    pub services: BTreeMap<String, ServiceSection>,
    /// Where files are kept (photos, slips, exports): `<data_dir>/files` or a bucket.
    pub files: FilesConfig,
    /// The demo store of the embedded target.
    pub demo: DemoConfig,
    /// Logging.
    pub log: LogConfig,
    /// Maintenance notice.
    pub maintenance: MaintenanceConfig,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            data_dir: PathBuf::from("./data"),
            http: HttpConfig::default(),
            grpc: GrpcConfig::default(),
            bus: BusConfig::default(),
            auth: AuthConfig::default(),
            services: BTreeMap::new(),
            files: FilesConfig::default(),
            demo: DemoConfig::default(),
            log: LogConfig::default(),
            maintenance: MaintenanceConfig::default(),
        }
    }
}

/// HTTP listener.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct HttpConfig {
    /// Address to listen on.
    pub addr: String,
    /// The address people use, printed at start (defaults to http://localhost:<port>).
    pub public_url: Option<String>,
    /// Largest request body in bytes.
    pub body_limit: usize,
    /// The built admin app (`frontend/dist`), served at `/` with client routes falling back
    /// to its index.html. Nothing is served there when the folder is missing.
    pub static_dir: PathBuf,
    /// Proxies in front (addresses or networks, `["10.0.0.0/8"]`) whose `X-Forwarded-For`
    /// names the client; from anyone else the header is ignored.
    pub trusted_proxies: Vec<String>,
    /// How long clients may take (`http.timeouts.header_secs`, `…request_secs`).
    pub timeouts: crate::serve::Timeouts,
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            addr: "0.0.0.0:8080".into(),
            public_url: None,
            body_limit: 2 * 1024 * 1024,
            static_dir: PathBuf::from("frontend/dist"),
            trusted_proxies: Vec::new(),
            timeouts: Default::default(),
        }
    }
}

/// gRPC listener.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct GrpcConfig {
    /// Address service targets listen on.
    pub addr: String,
    /// Serve gRPC even when the gateway runs in the same process (default: only when it
    /// does not).
    pub serve: Option<bool>,
}

impl Default for GrpcConfig {
    fn default() -> Self {
        Self { addr: "0.0.0.0:9090".into(), serve: None }
    }
}

/// Event bus.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct BusConfig {
    /// NATS URL; without it the bus is in-process (embedded target only).
    pub nats_url: Option<String>,
    /// Subject prefix and stream name.
    pub prefix: String,
}

impl Default for BusConfig {
    fn default() -> Self {
        Self { nats_url: None, prefix: "backoffice".into() }
    }
}

/// The demo store.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct DemoConfig {
    /// Create it on the first start of the embedded target. Off unless asked for (`make run`
    /// asks): a started binary never has a login anyone could guess.
    pub enabled: bool,
    /// The demo owner's email.
    pub email: String,
    /// The demo owner's password.
    pub password: Secret,
    /// Also fill the demo store with a catalog and stock.
    pub catalog: bool,
    /// Print the demo password at start (`make run` asks for it; logs never show it).
    pub print_password: bool,
}

impl Default for DemoConfig {
    fn default() -> Self {
        Self {
            enabled: false,
            email: "owner@example.com".into(),
            password: Secret::new("demo1234"),
            catalog: true,
            print_password: false,
        }
    }
}

/// Logging.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct LogConfig {
    /// JSON lines (default: on for distributed targets, off for `all`).
    pub json: Option<bool>,
}

impl Config {
    /// Loads the configuration: defaults, then `file` (or `./backoffice.toml` if present),
    /// then `BO_*` variables.
    pub fn load(file: Option<&Path>) -> anyhow::Result<Config> {
        let mut fig = Figment::from(Serialized::defaults(Config::default()));
        match file {
            Some(f) => {
                anyhow::ensure!(f.exists(), "config file {} not found", f.display());
                fig = fig.merge(Toml::file(f));
            }
            None => fig = fig.merge(Toml::file("backoffice.toml")),
        }
        fig = fig.merge(Env::prefixed("BO_").split("__"));
        let cfg: Config = fig.extract()?;
        cfg.check()?;
        Ok(cfg)
    }

    /// Refuses settings that would break a promise: a request allowed to run longer than an
    /// idempotency key's lease would let its retry run beside it.
    pub fn check(&self) -> anyhow::Result<()> {
        let lease_secs = bo_stores::store::IDEMPOTENCY_LEASE_MS / 1000;
        anyhow::ensure!(
            (self.http.timeouts.request_secs as i64) < lease_secs - 30,
            "http.timeouts.request_secs must be under {} (an idempotency key's lease, less half a minute)",
            lease_secs - 30
        );
        Ok(())
    }

    /// The database URL of a module.
    pub fn database_url(&self, name: &str) -> String {
        self.services.get(name).cloned().unwrap_or_default().database_url(name, &self.data_dir)
    }

    /// A module's section of `services`, created empty when missing (tests set it).
    pub fn service(&mut self, name: &str) -> &mut ServiceSection {
        self.services.entry(name.to_string()).or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_never_outlives_its_idempotency_lease() {
        let mut cfg = Config::default();
        cfg.check().unwrap();
        assert!(cfg.http.timeouts.request_secs as i64 * 1000 < bo_stores::store::IDEMPOTENCY_LEASE_MS);
        cfg.http.timeouts.request_secs = 3_600;
        assert!(cfg.check().unwrap_err().to_string().contains("request_secs"));
    }

    #[test]
    #[allow(clippy::result_large_err)] // figment's Jail fixes the closure's error type
    fn environment_overrides_defaults_and_secrets_stay_hidden() {
        figment::Jail::expect_with(|jail| {
            jail.create_file(
                "backoffice.toml",
                "[http]\naddr = \"127.0.0.1:9999\"\n[demo]\nemail = \"file@example.com\"\n",
            )?;
            jail.set_env("BO_DEMO__EMAIL", "env@example.com");
            jail.set_env("BO_AUTH__JWT_SECRET", "s3cret-s3cret-s3cret-s3cret-s3cret");
            jail.set_env("BO_SERVICES__STORES__DATABASE_URL", "postgres://u:pw@db/x");
            jail.set_env("BO_SERVICES__PRODUCTS__PHOTOS__MIN_PER_PRODUCT", "3");
            jail.set_env("BO_SERVICES__WMS__ADDR", "http://wms:9090");
            jail.set_env("BO_FILES__URL", "s3://shop-files");
            jail.set_env("BO_FILES__ENDPOINT", "http://minio:9000");
            jail.set_env("BO_FILES__SECRET_ACCESS_KEY", "b1g-s3cret-key");
            let c = Config::load(None).expect("loads");
            assert_eq!(c.files.url.as_deref(), Some("s3://shop-files"));
            assert_eq!(c.files.endpoint.as_deref(), Some("http://minio:9000"));
            assert_eq!(c.files.secret_access_key.as_ref().map(|s| s.expose()), Some("b1g-s3cret-key"));
            let products = &c.services["products"];
            let photos = figment::Figment::from(figment::providers::Serialized::defaults(&products.settings))
                .extract_inner::<bo_products::photos::PhotoLimits>("photos")
                .unwrap();
            assert_eq!((photos.min_per_product, photos.max_per_product), (3, 9));
            assert_eq!(c.services["wms"].addr.as_deref(), Some("http://wms:9090"));
            assert_eq!(c.http.addr, "127.0.0.1:9999");
            assert_eq!(c.demo.email, "env@example.com");
            assert_eq!(c.auth.jwt_secret.expose(), "s3cret-s3cret-s3cret-s3cret-s3cret");
            assert_eq!(c.database_url("stores"), "postgres://u:pw@db/x");
            let printed = format!("{c:?}");
            assert!(!printed.contains("s3cret") && !printed.contains("pw@"), "{printed}");
            assert!(!printed.contains("b1g-s3cret-key"), "{printed}");
            Ok(())
        });
    }

    /// The proxy setting k8s and compose ship is read as the list of networks it names.
    #[test]
    #[allow(clippy::result_large_err)] // figment's Jail fixes the closure's error type
    fn the_shipped_proxy_settings_are_read_as_networks() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let shipped = |file: &str, default_of: fn(&str) -> &str| -> String {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            let line = text.lines().find(|l| l.trim_start().starts_with("BO_HTTP__TRUSTED_PROXIES:")).unwrap();
            let value = line.split_once(':').unwrap().1.trim().trim_matches('\'');
            default_of(value).to_string()
        };
        let k8s = shipped("k8s/base/config.yaml", |v| v);
        // Compose's `${BO_HTTP__TRUSTED_PROXIES:-…}`: its default.
        let compose = shipped("deploy/docker-compose.yml", |v| {
            v.split_once(":-").map(|(_, d)| d.trim_end_matches('}')).unwrap_or(v)
        });
        for (value, first, count) in [(k8s, "10.0.0.0/8", 4), (compose, "172.16.0.0/12", 1)] {
            figment::Jail::expect_with(|jail| {
                jail.set_env("BO_HTTP__TRUSTED_PROXIES", &value);
                let c = Config::load(None).unwrap();
                assert_eq!(
                    (c.http.trusted_proxies.len(), c.http.trusted_proxies[0].as_str()),
                    (count, first),
                    "{value}"
                );
                for net in &c.http.trusted_proxies {
                    assert!(net.parse::<bo_gateway::auth::IpNet>().is_ok(), "{net}");
                }
                Ok(())
            });
        }
    }

    #[test]
    #[allow(clippy::result_large_err)] // figment's Jail fixes the closure's error type
    fn the_demo_store_is_opt_in() {
        figment::Jail::expect_with(|_| {
            assert!(!Config::load(None).unwrap().demo.enabled, "no demo owner unless asked for");
            Ok(())
        });
        figment::Jail::expect_with(|jail| {
            jail.set_env("BO_DEMO__ENABLED", "true");
            assert!(Config::load(None).unwrap().demo.enabled);
            Ok(())
        });
    }

    #[test]
    fn embedded_databases_live_under_the_data_dir() {
        let c = Config::default();
        assert_eq!(c.database_url("stores"), "sqlite://./data/stores.db");
    }
}
