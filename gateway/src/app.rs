//! Wiring and lifecycle: which modules run here, how they reach each other (in-process or
//! over the network), the HTTP and gRPC listeners, and a graceful stop in reverse order.

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
use bo_kit::bus::inproc::InProcBus;
use bo_kit::bus::nats::NatsBus;
use bo_kit::bus::SharedBus;
use bo_kit::db::Db;
use bo_kit::grpc::{self, GrpcChannel};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::auth::{self, Keys, LoginLimiter, SessionCache};
use crate::config::Config;
use crate::modules;
use crate::state::{AppState, Inner};

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
    stop: CancellationToken,
    servers: Vec<JoinHandle<()>>,
    running: Vec<RunningModule>,
}

struct RunningModule {
    name: &'static str,
    cancel: CancellationToken,
    tasks: Vec<JoinHandle<()>>,
    db: Option<Db>,
}

#[derive(Clone, Default)]
struct Readiness {
    started: Arc<AtomicBool>,
    dbs: Vec<(&'static str, Db)>,
    bus: Option<SharedBus>,
}

impl Launched {
    /// Stops listening, drains requests, then stops modules in reverse start order.
    pub async fn stop(self) {
        self.stop.cancel();
        for s in self.servers {
            let _ = tokio::time::timeout(Duration::from_secs(20), s).await;
        }
        for m in self.running.into_iter().rev() {
            tracing::info!(module = m.name, "stopping");
            m.cancel.cancel();
            for t in m.tasks {
                let _ = tokio::time::timeout(Duration::from_secs(10), t).await;
            }
            if let Some(db) = m.db {
                db.close().await;
            }
        }
    }
}

/// True when `modules` is every module (the embedded `all` target).
pub fn is_all(modules: &[&str]) -> bool {
    modules::MODULES.iter().all(|m| modules.contains(&m.name))
}

/// Starts `modules` (already ordered) with `cfg`.
pub async fn launch(cfg: Config, modules: Vec<&'static str>) -> anyhow::Result<Launched> {
    let local = |name: &str| modules.contains(&name);
    let bus: SharedBus = match &cfg.bus.nats_url {
        Some(url) if !url.is_empty() => Arc::new(NatsBus::connect(url, &cfg.bus.prefix).await?),
        _ => {
            anyhow::ensure!(
                is_all(&modules),
                "bus.nats_url (BO_BUS__NATS_URL) is required unless every module runs in this process"
            );
            Arc::new(InProcBus::new(cfg.bus.prefix.clone()))
        }
    };
    let mut readiness = Readiness { bus: Some(bus.clone()), ..Default::default() };
    let mut running = Vec::new();
    let mut grpc_routes: Option<tonic::service::RoutesBuilder> = None;
    let mut stores_channel: Option<GrpcChannel> = None;
    let mut wms_channel: Option<GrpcChannel> = None;
    let mut products_channel: Option<GrpcChannel> = None;
    let mut api: Option<Router> = None;
    let mut demo = None;
    let mut demo_owner = 0;
    let mut products_grpc: Option<bo_products::ProductsGrpc> = None;
    let mut wms_grpc: Option<bo_wms::WmsGrpc> = None;

    for name in &modules {
        tracing::info!(module = name, "starting");
        match *name {
            "stores" => {
                let url = cfg.database_url("stores", &cfg.services.stores);
                let db = Db::connect(&url).await?;
                let svc =
                    bo_stores::Service::open(db.clone(), bus.clone(), cfg.auth.token_ttl_minutes * 60_000).await?;
                let cancel = CancellationToken::new();
                let relay = tokio::spawn(svc.relay.clone().run(cancel.clone()));
                if is_all(&modules) && cfg.demo.enabled {
                    let repo = bo_stores::store::Repo::new(db.clone());
                    match bo_stores::demo::seed(&svc.grpc, &repo, &cfg.demo.email, cfg.demo.password.expose()).await? {
                        Some(d) => {
                            demo = Some(DemoInfo { created: true, store_id: d.store_id });
                            demo_owner = d.user_id;
                        }
                        None => demo = Some(DemoInfo { created: false, store_id: 0 }),
                    }
                }
                if local("gateway") {
                    stores_channel = Some(grpc::in_process(svc.server()));
                }
                grpc_routes.get_or_insert_with(Default::default).add_service(svc.server());
                readiness.dbs.push(("stores", db.clone()));
                running.push(RunningModule { name, cancel, tasks: vec![relay], db: Some(db) });
            }
            "wms" => {
                let url = cfg.database_url("wms", &cfg.services.wms);
                let db = Db::connect(&url).await?;
                let svc = bo_wms::Service::open(db.clone(), bus.clone()).await?;
                wms_grpc = Some(svc.grpc.clone());
                let cancel = CancellationToken::new();
                let relay = tokio::spawn(svc.relay.clone().run(cancel.clone()));
                let consumer = tokio::spawn(svc.consumer.clone().run(cancel.clone()));
                if local("gateway") {
                    wms_channel = Some(grpc::in_process(svc.server()));
                }
                grpc_routes.get_or_insert_with(Default::default).add_service(svc.server());
                readiness.dbs.push(("wms", db.clone()));
                running.push(RunningModule { name, cancel, tasks: vec![relay, consumer], db: Some(db) });
            }
            "products" => {
                let url = cfg.database_url("products", &cfg.services.products);
                let db = Db::connect(&url).await?;
                let photos = std::sync::Arc::new(bo_products::photos::LocalPhotoStore::new(cfg.photos_dir()));
                let svc = bo_products::Service::open(db.clone(), bus.clone(), photos, cfg.photos).await?;
                products_grpc = Some(svc.grpc.clone());
                let cancel = CancellationToken::new();
                let relay = tokio::spawn(svc.relay.clone().run(cancel.clone()));
                let consumer = tokio::spawn(svc.consumer.clone().run(cancel.clone()));
                if local("gateway") {
                    products_channel = Some(grpc::in_process(svc.server()));
                }
                grpc_routes.get_or_insert_with(Default::default).add_service(svc.server());
                readiness.dbs.push(("products", db.clone()));
                running.push(RunningModule { name, cancel, tasks: vec![relay, consumer], db: Some(db) });
            }
            "gateway" => {
                let remote = |svc: &str, addr: &Option<String>| -> anyhow::Result<GrpcChannel> {
                    let addr = addr.clone().with_context(|| {
                        format!(
                            "services.{svc}.addr (BO_SERVICES__{}__ADDR) is required when {svc} runs elsewhere",
                            svc.to_uppercase()
                        )
                    })?;
                    grpc::remote(&addr)
                };
                let channel = match stores_channel.clone() {
                    Some(c) => c,
                    None => remote("stores", &cfg.services.stores.addr)?,
                };
                let wms = match wms_channel.clone() {
                    Some(c) => c,
                    None => remote("wms", &cfg.services.wms.addr)?,
                };
                let products = match products_channel.clone() {
                    Some(c) => c,
                    None => remote("products", &cfg.services.products.addr)?,
                };
                let secret = if !cfg.auth.jwt_secret.is_empty() {
                    cfg.auth.jwt_secret.expose().as_bytes().to_vec()
                } else {
                    anyhow::ensure!(
                        is_all(&modules),
                        "auth.jwt_secret (BO_AUTH__JWT_SECRET) is required for a gateway outside the embedded target"
                    );
                    auth::load_or_create_key(&cfg.data_dir)?
                };
                let state = AppState::new(Inner {
                    stores_channel: channel,
                    wms_channel: wms,
                    products_channel: products,
                    keys: Keys::new(&secret, cfg.auth.token_ttl_minutes)?,
                    sessions: SessionCache::new(Duration::from_secs(15)),
                    limiter: LoginLimiter::new(cfg.auth.login_attempts_per_minute),
                    maintenance: cfg.maintenance.enabled,
                });
                api = Some(crate::routes::api_router(state));
                running.push(RunningModule { name, cancel: CancellationToken::new(), tasks: vec![], db: None });
            }
            other => anyhow::bail!("module {other} has no wiring"),
        }
    }

    let stop = CancellationToken::new();
    let mut servers = Vec::new();

    // gRPC: service targets serve it when their callers are in other processes.
    let mut grpc_addr = None;
    let serve_grpc = cfg.grpc.serve.unwrap_or(!local("gateway"));
    if let (Some(routes), true) = (grpc_routes, serve_grpc) {
        let listener = tokio::net::TcpListener::bind(&cfg.grpc.addr)
            .await
            .with_context(|| format!("binding gRPC on {}", cfg.grpc.addr))?;
        grpc_addr = Some(listener.local_addr()?);
        let cancel = stop.clone();
        servers.push(tokio::spawn(async move {
            if let Err(e) = grpc::serve(routes.routes(), listener, cancel).await {
                tracing::error!(error = %format!("{e:#}"), "gRPC server failed");
            }
        }));
    }

    // HTTP: health probes always; the API when the gateway runs here.
    let readiness_state = readiness.clone();
    let mut app = Router::new()
        .route("/healthz", get(|| async { Json(serde_json::json!({"status": "ok"})) }))
        .route("/readyz", get(ready).with_state(readiness_state));
    let serves_api = api.is_some();
    if let Some(api) = api {
        app = app.nest("/api", api);
    }
    if serves_api {
        if let Some(static_app) = crate::static_app::router(&cfg.http.static_dir) {
            app = app.merge(static_app);
        } else {
            tracing::warn!(dir = %cfg.http.static_dir.display(), "the admin app is not built; serving the API only");
        }
    }
    let app = app.layer(DefaultBodyLimit::max(cfg.http.body_limit)).layer(
        tower_http::trace::TraceLayer::new_for_http().make_span_with(|req: &axum::http::Request<_>| {
            let span = tracing::info_span!("http", method = %req.method(), path = %req.uri().path());
            bo_kit::telemetry::set_parent_from_http(&span, req.headers());
            span
        }),
    );
    let listener = tokio::net::TcpListener::bind(&cfg.http.addr)
        .await
        .with_context(|| format!("binding HTTP on {}", cfg.http.addr))?;
    let http_addr = listener.local_addr()?;
    let cancel = stop.clone();
    servers.push(tokio::spawn(async move {
        let served = axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
            .with_graceful_shutdown(cancel.cancelled_owned())
            .await;
        if let Err(e) = served {
            tracing::error!(error = %e, "HTTP server failed");
        }
    }));

    // The demo store's catalog, once, after its warehouse exists.
    if let (Some(DemoInfo { created: true, store_id }), Some(p), Some(w), true) =
        (&demo, products_grpc, wms_grpc, cfg.demo.catalog)
    {
        tokio::spawn(crate::demo::seed(p, w, *store_id, demo_owner));
    }

    readiness.started.store(true, Ordering::SeqCst);
    Ok(Launched { http_addr, grpc_addr, modules, demo, stop, servers, running })
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
