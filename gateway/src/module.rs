//! The gateway as a module: it reaches every service through the process's clients and
//! serves `/api` and the admin app.

use std::path::PathBuf;
use std::time::Duration;

use async_trait::async_trait;
use bo_kit::module::{Context, Module, SharedModule, Started};
use serde::{Deserialize, Serialize};

use crate::auth::{LoginLimiter, MembershipCache, SessionCache};
use crate::config::{AuthConfig, MaintenanceConfig};
use crate::state::{AppState, Inner};

/// The gateway module, calling every service module it is given.
pub struct GatewayModule {
    services: Vec<&'static str>,
}

impl GatewayModule {
    /// A gateway in front of `services`.
    pub fn new(services: Vec<&'static str>) -> Self {
        Self { services }
    }
}

/// The shared `http` section, as the gateway reads it.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(default)]
struct Http {
    static_dir: Option<PathBuf>,
    body_limit: Option<usize>,
    trusted_proxies: Vec<String>,
}

/// Every module of the product: the services, then the gateway in front of them.
pub fn with_gateway(services: Vec<SharedModule>) -> Vec<SharedModule> {
    let names: Vec<&'static str> = services.iter().map(|m| m.name()).collect();
    let mut all = services;
    all.push(std::sync::Arc::new(GatewayModule::new(names)));
    all
}

#[async_trait]
impl Module for GatewayModule {
    fn name(&self) -> &'static str {
        "gateway"
    }

    fn needs(&self) -> Vec<&'static str> {
        self.services.clone()
    }

    fn uses_files(&self) -> bool {
        true
    }

    async fn start(&self, ctx: &Context) -> anyhow::Result<Started> {
        // Every service must be reachable: in this process, or at a configured address.
        let clients = ctx.clients();
        for s in &self.services {
            clients.channel(s)?;
        }
        let auth_cfg: AuthConfig = ctx.shared("auth")?;
        let maintenance: MaintenanceConfig = ctx.shared("maintenance")?;
        let http: Http = ctx.shared("http")?;
        let files = ctx.files()?;
        ctx.spawn("uploads", files.clone().purge_uploads_hourly(ctx.cancel.clone()));
        let realtime = std::sync::Arc::new(crate::realtime::Hub::new(ctx.cancel.clone()));
        let state = AppState::new(Inner {
            clients,
            keys: ctx.keys.clone(),
            identity: ctx.identity(),
            sessions: SessionCache::new(Duration::from_secs(15)),
            memberships: MembershipCache::new(Duration::from_millis(auth_cfg.membership_check_ms)),
            limiter: LoginLimiter::new(auth_cfg.login_attempts_per_minute),
            slip_limiter: LoginLimiter::new(auth_cfg.slips_per_minute),
            push_limiter: LoginLimiter::new(auth_cfg.unsigned_pushes_per_minute),
            maintenance: maintenance.enabled,
            files,
            body_limit: http.body_limit.unwrap_or(2 * 1024 * 1024),
            trusted_proxies: http
                .trusted_proxies
                .iter()
                .map(|p| p.parse().map_err(|e: String| anyhow::anyhow!("http.trusted_proxies: {e}")))
                .collect::<anyhow::Result<_>>()?,
            rules: Default::default(),
            realtime: realtime.clone(),
            api_keys: crate::integrator::KeyGate::new(auth_cfg.api_requests_per_minute),
        });
        ctx.spawn("realtime", crate::realtime::follow(ctx.bus.clone(), realtime, ctx.cancel.clone()));
        let mut router = axum::Router::new()
            .nest("/api", crate::routes::api_router(state.clone()))
            .merge(crate::bill_page::router(state));
        let dir = http.static_dir.unwrap_or_else(|| PathBuf::from("frontend/dist"));
        match crate::static_app::router(&dir) {
            Some(app) => router = router.merge(app),
            None => tracing::warn!(dir = %dir.display(), "the admin app is not built; serving the API only"),
        }
        Ok(Started { http: Some(router) })
    }
}
