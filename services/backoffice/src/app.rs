//! The process: starts the chosen modules in dependency order with their contexts, serves
//! their gRPC services and HTTP routes with the health probes, and stops them in reverse
//! order. Nothing here knows any module by name: modules are listed in [`crate::modules`].

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use bo_kit::bus::log::LogBus;
use bo_kit::bus::nats::NatsBus;
use bo_kit::bus::SharedBus;
use bo_kit::db::Db;
use bo_kit::grpc;
use bo_kit::module::{Clients, Context, TaskHealth, Tasks};
use figment::providers::Serialized;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::config::Config;

/// What the demo seeding made, for the start-up banner.
#[derive(Debug, Clone)]
pub struct DemoInfo {
    /// Created on this start (else it existed).
    pub created: bool,
    /// Store id.
    pub store_id: i64,
}

/// A started process.
pub struct Launched {
    /// The HTTP address bound.
    pub http_addr: SocketAddr,
    /// The gRPC address bound, when service targets serve gRPC.
    pub grpc_addr: Option<SocketAddr>,
    /// The modules, in start order.
    pub modules: Vec<&'static str>,
    /// The demo, when seeded or present.
    pub demo: Option<DemoInfo>,
    /// The process's channels to every module.
    pub clients: Clients,
    keys: Arc<bo_kit::auth::Keys>,
    stop: CancellationToken,
    servers: Vec<JoinHandle<()>>,
    running: Vec<RunningModule>,
    log_bus: Option<LogBus>,
}

struct RunningModule {
    name: &'static str,
    cancel: CancellationToken,
    tasks: Tasks,
    db: Option<Db>,
}

#[derive(Clone, Default)]
struct Readiness {
    started: Arc<AtomicBool>,
    dbs: Vec<(&'static str, Db)>,
    tasks: Vec<TaskHealth>,
    bus: Option<SharedBus>,
}

impl Launched {
    /// The process acting on its own behalf (checks, tools).
    pub fn identity(&self) -> grpc::ServiceIdentity {
        grpc::ServiceIdentity::new(self.keys.clone(), "admin")
    }

    /// Stops listening, drains requests, then stops modules in reverse start order.
    pub async fn stop(self) {
        self.stop.cancel();
        for s in self.servers {
            let _ = tokio::time::timeout(Duration::from_secs(20), s).await;
        }
        stop_modules(self.running).await;
        if let Some(bus) = self.log_bus {
            bus.close().await;
        }
    }
}

/// True when `names` is every module (the embedded `all` target).
pub fn is_all(names: &[&str]) -> bool {
    crate::modules().iter().all(|m| names.contains(&m.name()))
}

/// The chosen modules, started, before any listener.
struct Modules {
    embedded: bool,
    keys: Arc<bo_kit::auth::Keys>,
    files: Option<bo_kit::files::Files>,
    clients: Clients,
    readiness: Readiness,
    running: Vec<RunningModule>,
    grpc_routes: Arc<std::sync::Mutex<tonic::service::RoutesBuilder>>,
    serves_grpc: bool,
    http_routers: Vec<Router>,
    log_bus: Option<LogBus>,
}

/// Starts `names` in order with their contexts. With `background` false (admin commands) no
/// module runs its background tasks and the bus is a private one, so the modules only
/// answer this process's calls beside a back-office that may be running on the same data.
async fn start_modules(cfg: &Config, names: &[&'static str], background: bool) -> anyhow::Result<Modules> {
    let registry = crate::modules();
    // An admin command works on the installation's data whatever its shape: the embedded
    // defaults (a key and files under the data folder) stand in for what is not configured.
    let embedded = is_all(names) || !background;
    let figment = figment::Figment::from(Serialized::defaults(cfg));
    let mut log_bus = None;
    let bus: SharedBus = match &cfg.bus.nats_url {
        _ if !background => Arc::new(LogBus::temporary(cfg.bus.prefix.clone()).await?),
        Some(url) if !url.is_empty() => Arc::new(NatsBus::connect(url, &cfg.bus.prefix).await?),
        _ => {
            anyhow::ensure!(
                embedded,
                "bus.nats_url (BO_BUS__NATS_URL) is required unless every module runs in this process"
            );
            let bus = LogBus::open(&cfg.data_dir.join("bus.db"), cfg.bus.prefix.clone()).await?;
            log_bus = Some(bus.clone());
            Arc::new(bus)
        }
    };
    let addrs: HashMap<String, String> =
        cfg.services.iter().filter_map(|(k, s)| s.addr.clone().map(|a| (k.clone(), a))).collect();
    let clients = Clients::new(addrs);
    // One key signs and checks every token: users', stores' and the services' own.
    let secret = if !cfg.auth.jwt_secret.is_empty() {
        bo_kit::auth::check_secret(cfg.auth.jwt_secret.expose().as_bytes())?;
        cfg.auth.jwt_secret.expose().as_bytes().to_vec()
    } else {
        anyhow::ensure!(
            embedded,
            "auth.jwt_secret (BO_AUTH__JWT_SECRET) is required outside the embedded target: every process checks \
             tokens with it"
        );
        bo_kit::auth::load_or_create_key(&cfg.data_dir)?
    };
    let keys = Arc::new(bo_kit::auth::Keys::new(&secret, cfg.auth.token_ttl_minutes)?);
    // Processes that run apart must share one storage: the embedded default folder is only
    // for the embedded target, and a module that keeps files says so when it is missing.
    let files_set = cfg.files.url.as_deref().is_some_and(|u| !u.trim().is_empty());
    let files = if embedded || files_set {
        let files = bo_kit::files::Files::open(&cfg.files, &cfg.data_dir)?;
        tracing::info!(at = files.describe(), "files");
        Some(files)
    } else {
        None
    };
    let mut readiness = Readiness { bus: Some(bus.clone()), ..Default::default() };
    let mut running = Vec::new();
    let grpc_routes: Arc<std::sync::Mutex<tonic::service::RoutesBuilder>> = Default::default();
    let mut serves_grpc = false;
    let mut http_routers = Vec::new();

    for &name in names {
        let module = registry.iter().find(|m| m.name() == name).with_context(|| format!("no module {name}"))?;
        tracing::info!(module = name, "starting");
        let section = cfg.services.get(name).cloned().unwrap_or_default();
        let db = if module.has_database() {
            let db = Db::connect_pooled(&section.database_url(name, &cfg.data_dir), section.database_pool)
                .await
                .with_context(|| format!("opening the {name} database"))?;
            readiness.dbs.push((name, db.clone()));
            Some(db)
        } else {
            None
        };
        let mut ctx = Context::new(
            name,
            db.clone(),
            bus.clone(),
            section,
            figment.clone(),
            cfg.data_dir.clone(),
            embedded,
            keys.clone(),
            files.clone(),
            clients.clone(),
            module.needs(),
            grpc_routes.clone(),
        );
        if !background {
            ctx = ctx.without_background();
        }
        let started = module.start(&ctx).await.with_context(|| format!("starting {name}"))?;
        if let Some(routes) = ctx.grpc_routes() {
            clients.register_local(name, grpc::in_process(routes, keys.clone()));
            serves_grpc = true;
        }
        if let Some(router) = started.http {
            http_routers.push(router);
        }
        readiness.tasks.extend(ctx.tasks().health());
        running.push(RunningModule { name, cancel: ctx.cancel.clone(), tasks: ctx.tasks(), db });
    }

    Ok(Modules { embedded, keys, files, clients, readiness, running, grpc_routes, serves_grpc, http_routers, log_bus })
}

/// Modules started for an admin command: their RPCs answer through [`Admin::clients`], and
/// nothing runs in the background.
pub struct Admin {
    /// Channels to the started modules.
    pub clients: Clients,
    /// The command acting on its own behalf.
    pub identity: grpc::ServiceIdentity,
    running: Vec<RunningModule>,
}

impl Admin {
    /// Starts `names` (already ordered) on the configured databases without listeners or
    /// background tasks.
    pub async fn start(cfg: &Config, names: &[&'static str]) -> anyhow::Result<Admin> {
        let m = start_modules(cfg, names, false).await?;
        Ok(Admin { clients: m.clients, identity: grpc::ServiceIdentity::new(m.keys, "admin"), running: m.running })
    }

    /// Stops the modules and closes their databases.
    pub async fn stop(self) {
        stop_modules(self.running).await;
    }
}

/// Stops modules in reverse start order: cancels and awaits their tasks, closes their pools.
async fn stop_modules(running: Vec<RunningModule>) {
    for m in running.into_iter().rev() {
        tracing::info!(module = m.name, "stopping");
        m.cancel.cancel();
        for (_, t) in m.tasks.take() {
            let _ = tokio::time::timeout(Duration::from_secs(10), t).await;
        }
        if let Some(db) = m.db {
            db.close().await;
        }
    }
}

/// Starts `names` (already ordered, see [`crate::resolve`]) with `cfg`.
pub async fn launch(cfg: Config, names: Vec<&'static str>) -> anyhow::Result<Launched> {
    let Modules { embedded, keys, files, clients, readiness, running, grpc_routes, serves_grpc, http_routers, log_bus } =
        start_modules(&cfg, &names, true).await?;
    let stop = CancellationToken::new();
    let mut servers = Vec::new();

    // gRPC: served when some module's callers may be in other processes.
    let mut grpc_addr = None;
    let serve_grpc = cfg.grpc.serve.unwrap_or(!embedded);
    if serves_grpc && serve_grpc {
        let listener = tokio::net::TcpListener::bind(&cfg.grpc.addr)
            .await
            .with_context(|| format!("binding gRPC on {}", cfg.grpc.addr))?;
        grpc_addr = Some(listener.local_addr()?);
        let cancel = stop.clone();
        let routes = std::mem::take(&mut *grpc_routes.lock().unwrap_or_else(|p| p.into_inner())).routes();
        let keys = keys.clone();
        servers.push(tokio::spawn(async move {
            if let Err(e) = grpc::serve(routes, listener, cancel, keys).await {
                tracing::error!(error = %format!("{e:#}"), "gRPC server failed");
            }
        }));
    }

    // HTTP: health probes always, and what the modules serve (the gateway's API and app).
    let readiness_state = readiness.clone();
    let mut app = Router::new()
        .route("/healthz", get(|| async { Json(serde_json::json!({"status": "ok"})) }))
        .route("/readyz", get(ready).with_state(readiness_state));
    for r in http_routers {
        app = app.merge(r);
    }
    let hsts = cfg.http.public_url.as_deref().is_some_and(|u| u.starts_with("https://"));
    let app = app
        .layer(axum::middleware::from_fn_with_state(hsts, security_headers))
        .layer(DefaultBodyLimit::max(cfg.http.body_limit))
        .layer(tower_http::trace::TraceLayer::new_for_http().make_span_with(|req: &axum::http::Request<_>| {
            let span = tracing::info_span!("http", method = %req.method(), path = %loggable_path(req.uri().path()));
            bo_kit::telemetry::set_parent_from_http(&span, req.headers());
            span
        }));
    let listener = tokio::net::TcpListener::bind(&cfg.http.addr)
        .await
        .with_context(|| format!("binding HTTP on {}", cfg.http.addr))?;
    let http_addr = listener.local_addr()?;
    servers.push(tokio::spawn(crate::serve::serve(listener, app, cfg.http.timeouts, stop.clone())));

    // The demo store, on the embedded target only.
    let demo = if embedded && cfg.demo.enabled {
        let identity = grpc::ServiceIdentity::new(keys.clone(), "demo");
        crate::demo::seed(&clients, &identity, files.as_ref(), &cfg.demo).await?
    } else {
        None
    };

    readiness.started.store(true, Ordering::SeqCst);
    Ok(Launched { http_addr, grpc_addr, modules: names, demo, clients, keys, stop, servers, running, log_bus })
}

/// What the admin app needs and nothing more: its own scripts, styles (antd writes inline
/// ones), images (photos, data and blob previews), the API; never framed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; \
     object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// A request path as logs may show it: an invitation's key, a bill's token and a carrier's
/// webhook token are bearer secrets (whoever holds the link may join the store, see the
/// bill, or push tracking for the store's parcels), so they are replaced.
pub fn loggable_path(path: &str) -> std::borrow::Cow<'_, str> {
    if !path.contains("/invitations/") && !path.starts_with("/bill/") && !path.contains("/webhooks/") {
        return path.into();
    }
    let segs: Vec<&str> = path.split('/').collect();
    let secret = |i: usize| {
        let before = |n: usize| i.checked_sub(n).map(|j| segs[j]);
        before(1) == Some("invitations")
            || (i == 2 && before(1) == Some("bill"))
            // `/logistics/webhooks/<carrier>/<token>`
            || before(2) == Some("webhooks")
    };
    let out: Vec<&str> = segs
        .iter()
        .enumerate()
        .map(|(i, seg)| if secret(i) && !seg.is_empty() && *seg != "accept" { "<key>" } else { seg })
        .collect();
    out.join("/").into()
}

/// Security headers on every answer; HSTS when people reach it over TLS (`http.public_url`
/// starts with `https://`, the TLS ending at a proxy in front).
async fn security_headers(
    State(hsts): State<bool>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::{header, HeaderValue};
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.entry(header::CONTENT_SECURITY_POLICY).or_insert(HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    h.entry(header::X_CONTENT_TYPE_OPTIONS).or_insert(HeaderValue::from_static("nosniff"));
    h.entry(header::X_FRAME_OPTIONS).or_insert(HeaderValue::from_static("DENY"));
    h.entry(header::REFERRER_POLICY).or_insert(HeaderValue::from_static("strict-origin-when-cross-origin"));
    if hsts {
        h.entry(header::STRICT_TRANSPORT_SECURITY)
            .or_insert(HeaderValue::from_static("max-age=31536000; includeSubDomains"));
    }
    res
}

async fn ready(State(r): State<Readiness>) -> impl IntoResponse {
    let mut failing = Vec::new();
    if !r.started.load(Ordering::SeqCst) {
        failing.push("starting".to_string());
    }
    for (name, db) in &r.dbs {
        if !db.ping().await {
            failing.push(format!("{name}.database"));
        }
    }
    if let Some(bus) = &r.bus {
        if !bus.healthy().await {
            failing.push("bus".to_string());
        }
    }
    for t in &r.tasks {
        if !t.alive() {
            failing.push(t.name.clone());
        }
    }
    if failing.is_empty() {
        (StatusCode::OK, Json(serde_json::json!({"status": "ready"})))
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, Json(serde_json::json!({"status": "not_ready", "failing": failing})))
    }
}

/// The address people use to reach the HTTP listener.
pub fn public_url(cfg: &Config, bound: SocketAddr) -> String {
    if let Some(u) = cfg.http.public_url.as_ref().filter(|u| !u.is_empty()) {
        return u.trim_end_matches('/').to_string();
    }
    if bound.ip().is_unspecified() || bound.ip().is_loopback() {
        format!("http://localhost:{}", bound.port())
    } else {
        format!("http://{bound}")
    }
}

#[cfg(test)]
mod tests {
    use super::loggable_path;

    #[test]
    fn secrets_in_paths_never_reach_logs() {
        let key = "a".repeat(64);
        assert_eq!(loggable_path(&format!("/api/invitations/{key}")), "/api/invitations/<key>");
        assert_eq!(loggable_path(&format!("/api/invitations/{key}/accept")), "/api/invitations/<key>/accept");
        assert_eq!(loggable_path(&format!("/api/stores/3/invitations/{key}")), "/api/stores/3/invitations/<key>");
        assert_eq!(loggable_path("/api/stores/3/invitations"), "/api/stores/3/invitations");
        assert_eq!(loggable_path("/api/products/7"), "/api/products/7");
        assert_eq!(loggable_path(&format!("/bill/{key}")), "/bill/<key>");
        assert_eq!(loggable_path(&format!("/bill/{key}/slip")), "/bill/<key>/slip");
        assert_eq!(
            loggable_path(&format!("/api/logistics/webhooks/thaipost/{key}")),
            "/api/logistics/webhooks/thaipost/<key>"
        );
        assert_eq!(loggable_path("/api/logistics/webhooks"), "/api/logistics/webhooks");
    }
}
