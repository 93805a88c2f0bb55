//! Modules: each service crate exports one, and the binary only lists them. A module has a
//! name, the modules it calls, and a start function that receives a [`Context`]: its
//! database, the bus, its section of the `services.<name>` map, the whole configuration for
//! shared sections, and a typed gRPC client for every module it calls (in-process when that
//! module runs in this process, over the network otherwise). A module owns its background
//! tasks: if one stops, readiness fails and names it.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use anyhow::Context as _;
use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::bus::SharedBus;
use crate::config::Secret;
use crate::db::Db;
use crate::grpc::{self, GrpcChannel};

/// A module of the product.
#[async_trait]
pub trait Module: Send + Sync + 'static {
    /// Its target name (`stores`, `gateway`).
    fn name(&self) -> &'static str;
    /// The modules it calls. They start first when they run in the same process, and only
    /// these can be reached through [`Context::client`].
    fn needs(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// Whether it keeps a database (`services.<name>.database_url`): it does when it has
    /// migrations.
    fn has_database(&self) -> bool {
        self.migrations().is_some()
    }
    /// Its migrations, one folder per dialect, kept in step (a test over every module
    /// checks both yield the same tables and columns).
    fn migrations(&self) -> Option<Migrations> {
        None
    }
    /// The event types it publishes (`<svc>.<aggregate>.<event>`): an event has one
    /// producer, and a test over every module checks each subscribed type has it.
    fn publishes(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// The event types its consumers handle.
    fn subscribes(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// Its own settings that hold a secret and must be given outside the embedded target
    /// (`token_key` for `services.<name>.token_key`): the deployment manifests take them from
    /// the secret store.
    fn secrets(&self) -> Vec<&'static str> {
        Vec::new()
    }

    /// Whether it keeps files in the process's file storage (`files.url`), so a process
    /// running it apart needs the shared bucket.
    fn uses_files(&self) -> bool {
        false
    }
    /// Starts the module: migrations, background tasks, and what it serves.
    async fn start(&self, ctx: &Context) -> anyhow::Result<Started>;
}

/// A shared module.
pub type SharedModule = Arc<dyn Module>;

/// A module's migrations for both dialects.
#[derive(Clone, Copy)]
pub struct Migrations {
    /// SQLite's.
    pub sqlite: &'static sqlx::migrate::Migrator,
    /// PostgreSQL's.
    pub postgres: &'static sqlx::migrate::Migrator,
}

/// What a started module serves over HTTP (its gRPC services are given to
/// [`Context::serve`]).
#[derive(Default)]
pub struct Started {
    /// HTTP routes merged into the process's listener (the gateway's API and app).
    pub http: Option<axum::Router>,
}

/// One entry of the `services` map: `services.<name>.database_url`, `.addr`, and the
/// module's own settings beside them.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct ServiceSection {
    /// Its database (`postgres://…` or `sqlite://…`); default `sqlite://<data_dir>/<name>.db`.
    pub database_url: Option<Secret>,
    /// The most connections its PostgreSQL pool opens (default 16): a server's
    /// `max_connections` is shared by every service, replica and tool that reaches it.
    pub database_pool: Option<u32>,
    /// Its gRPC address, for callers in other processes (`http://stores:9090`).
    pub addr: Option<String>,
    /// The module's own settings (`services.products.photos.max_per_product`).
    #[serde(flatten)]
    pub settings: BTreeMap<String, figment::value::Value>,
}

impl ServiceSection {
    /// The database URL, or the embedded default under `data_dir`.
    pub fn database_url(&self, name: &str, data_dir: &std::path::Path) -> String {
        match &self.database_url {
            Some(u) if !u.is_empty() => u.expose().to_string(),
            _ => format!("sqlite://{}", data_dir.join(format!("{name}.db")).display()),
        }
    }
}

/// The gRPC channels of this process, by module name: in-process for modules started here,
/// remote (lazily connecting) for the others.
#[derive(Clone, Default)]
pub struct Clients {
    local: Arc<RwLock<HashMap<&'static str, GrpcChannel>>>,
    remote: Arc<RwLock<HashMap<String, GrpcChannel>>>,
    addrs: Arc<HashMap<String, String>>,
}

impl Clients {
    /// Channels reaching other processes at `addrs` (module name → `http://host:port`).
    pub fn new(addrs: HashMap<String, String>) -> Self {
        Self { addrs: Arc::new(addrs), ..Default::default() }
    }

    /// Registers a module started in this process.
    pub fn register_local(&self, name: &'static str, channel: GrpcChannel) {
        self.local.write().unwrap_or_else(|p| p.into_inner()).insert(name, channel);
    }

    /// The channel to `name`.
    pub fn channel(&self, name: &str) -> anyhow::Result<GrpcChannel> {
        if let Some(c) = self.local.read().unwrap_or_else(|p| p.into_inner()).get(name) {
            return Ok(c.clone());
        }
        if let Some(c) = self.remote.read().unwrap_or_else(|p| p.into_inner()).get(name) {
            return Ok(c.clone());
        }
        let addr = self.addrs.get(name).filter(|a| !a.is_empty()).with_context(|| {
            format!(
                "services.{name}.addr (BO_SERVICES__{}__ADDR) is required when {name} runs in another process",
                name.to_uppercase()
            )
        })?;
        let channel = grpc::remote(addr)?;
        self.remote.write().unwrap_or_else(|p| p.into_inner()).insert(name.to_string(), channel.clone());
        Ok(channel)
    }

    /// A typed client: `clients.client(WmsServiceClient::new)`.
    pub fn client<C: bo_proto::ServiceName>(&self, make: fn(GrpcChannel) -> C) -> anyhow::Result<C> {
        Ok(make(self.channel(C::MODULE)?))
    }
}

/// A background task's health, for readiness.
#[derive(Clone)]
pub struct TaskHealth {
    /// `<module>.<task>`.
    pub name: String,
    alive: Arc<AtomicBool>,
}

impl TaskHealth {
    /// True while the task runs.
    pub fn alive(&self) -> bool {
        self.alive.load(Ordering::SeqCst)
    }
}

/// A running task and its health.
type Running = (TaskHealth, JoinHandle<()>);

/// The background tasks of one module.
#[derive(Clone, Default)]
pub struct Tasks {
    inner: Arc<Mutex<Vec<Running>>>,
}

impl Tasks {
    /// Every task's health.
    pub fn health(&self) -> Vec<TaskHealth> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).iter().map(|(h, _)| h.clone()).collect()
    }

    /// The join handles, emptied (for stopping).
    pub fn take(&self) -> Vec<Running> {
        std::mem::take(&mut *self.inner.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

/// What a module gets to start with.
pub struct Context {
    /// Its name.
    pub name: &'static str,
    /// Its database, when it keeps one.
    pub db: Option<Db>,
    /// The event bus.
    pub bus: SharedBus,
    /// Its section of `services`.
    pub section: ServiceSection,
    /// The whole configuration, for shared sections (`auth`, `demo`).
    pub config: figment::Figment,
    /// Where the embedded target keeps its files.
    pub data_dir: PathBuf,
    /// True when every module runs in this process (the embedded `all` target).
    pub embedded: bool,
    /// Cancelled when the module stops.
    pub cancel: CancellationToken,
    /// The shared token key: services check callers' tokens and sign their own with it.
    pub keys: Arc<crate::auth::Keys>,
    files: Option<crate::files::Files>,
    clients: Clients,
    needs: Vec<&'static str>,
    tasks: Tasks,
    grpc: Mutex<Option<tonic::service::RoutesBuilder>>,
    process_grpc: Arc<Mutex<tonic::service::RoutesBuilder>>,
    background: bool,
}

impl Context {
    /// A context (the process's launcher makes these).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: &'static str,
        db: Option<Db>,
        bus: SharedBus,
        section: ServiceSection,
        config: figment::Figment,
        data_dir: PathBuf,
        embedded: bool,
        keys: Arc<crate::auth::Keys>,
        files: Option<crate::files::Files>,
        clients: Clients,
        needs: Vec<&'static str>,
        process_grpc: Arc<Mutex<tonic::service::RoutesBuilder>>,
    ) -> Self {
        Self {
            keys,
            files,
            grpc: Mutex::new(None),
            process_grpc,
            name,
            db,
            bus,
            section,
            config,
            data_dir,
            embedded,
            cancel: CancellationToken::new(),
            clients,
            needs,
            tasks: Tasks::default(),
            background: true,
        }
    }

    /// The same context for a module started only to answer calls (an admin command): its
    /// background tasks (relays, consumers, schedulers) are not run, so it acts on nothing
    /// by itself beside the process that serves it.
    pub fn without_background(mut self) -> Self {
        self.background = false;
        self
    }

    /// Serves a gRPC service of this module: to callers in this process directly, and on
    /// the process's gRPC listener to the others.
    pub fn serve<S>(&self, svc: S)
    where
        S: tower::Service<http::Request<tonic::body::Body>, Error = std::convert::Infallible>
            + tonic::server::NamedService
            + Clone
            + Send
            + Sync
            + 'static,
        S::Response: axum::response::IntoResponse,
        S::Future: Send + 'static,
    {
        self.grpc
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert_with(Default::default)
            .add_service(svc.clone());
        self.process_grpc.lock().unwrap_or_else(|p| p.into_inner()).add_service(svc);
    }

    /// The module's gRPC services, when it serves any (for the launcher).
    pub fn grpc_routes(&self) -> Option<tonic::service::Routes> {
        self.grpc.lock().unwrap_or_else(|p| p.into_inner()).take().map(|b| b.routes())
    }

    /// The module acting on its own behalf (consumers, schedulers, start-up).
    pub fn identity(&self) -> crate::grpc::ServiceIdentity {
        crate::grpc::ServiceIdentity::new(self.keys.clone(), self.name)
    }

    /// The module's database.
    pub fn db(&self) -> anyhow::Result<Db> {
        self.db.clone().with_context(|| format!("module {} has no database", self.name))
    }

    /// The process's file storage. Processes that run apart must share one, so outside the
    /// embedded target it must be configured (`files.url`).
    pub fn files(&self) -> anyhow::Result<crate::files::Files> {
        self.files.clone().with_context(|| {
            format!(
                "module {} keeps files: files.url (BO_FILES__URL) is required when modules run in separate processes \
                 (s3://bucket, or file:///folder on a volume every process shares)",
                self.name
            )
        })
    }

    /// Its own settings (`services.<name>.*` beside `database_url` and `addr`).
    pub fn settings<T: serde::de::DeserializeOwned + Serialize + Default>(&self) -> anyhow::Result<T> {
        let fig = figment::Figment::from(figment::providers::Serialized::defaults(T::default()))
            .merge(figment::providers::Serialized::defaults(&self.section.settings));
        fig.extract().with_context(|| format!("reading the settings of services.{}", self.name))
    }

    /// A shared section of the configuration (`auth`, `demo`), or its default.
    pub fn shared<T: serde::de::DeserializeOwned + Default>(&self, key: &str) -> anyhow::Result<T> {
        match self.config.find_value(key) {
            Ok(_) => self.config.extract_inner(key).with_context(|| format!("reading {key}")),
            Err(_) => Ok(T::default()),
        }
    }

    /// A typed client of a module it needs: `ctx.client(WmsServiceClient::new)`.
    pub fn client<C: bo_proto::ServiceName>(&self, make: fn(GrpcChannel) -> C) -> anyhow::Result<C> {
        anyhow::ensure!(
            self.needs.contains(&C::MODULE),
            "module {} calls {} without naming it in needs()",
            self.name,
            C::MODULE
        );
        self.clients.client(make)
    }

    /// Every channel of the process (the gateway reaches every module).
    pub fn clients(&self) -> Clients {
        self.clients.clone()
    }

    /// The background every module with a database and events runs: its outbox relay, its
    /// consumer when it subscribes to events, and the housekeeping of the kit's tables
    /// (sent outbox rows, processed-event marks). A module's own schedules come beside it.
    pub fn spawn_event_tasks(
        &self,
        relay: &crate::outbox::Relay,
        consumer: Option<&crate::inbox::Consumer>,
    ) -> anyhow::Result<()> {
        let db = self.db()?;
        self.spawn("relay", relay.clone().run(self.cancel.clone()));
        if let Some(consumer) = consumer {
            self.spawn("consumer", consumer.clone().run(self.cancel.clone()));
        }
        self.spawn("housekeeping", crate::schedule::housekeeping(db, self.name, self.cancel.clone()));
        Ok(())
    }

    /// Runs a background task of this module. It should return only once `self.cancel` is
    /// cancelled; if it returns earlier or panics, readiness fails and names it.
    pub fn spawn<F>(&self, task: &'static str, fut: F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        if !self.background {
            tracing::debug!(module = self.name, task, "not run: started without background tasks");
            return;
        }
        let health = TaskHealth { name: format!("{}.{task}", self.name), alive: Arc::new(AtomicBool::new(true)) };
        let flag = health.alive.clone();
        let name = health.name.clone();
        let cancel = self.cancel.clone();
        let inner = tokio::spawn(fut);
        let handle = tokio::spawn(async move {
            let outcome = inner.await;
            flag.store(false, Ordering::SeqCst);
            if cancel.is_cancelled() {
                return;
            }
            match outcome {
                Ok(()) => tracing::error!(task = %name, "background task stopped"),
                Err(e) => tracing::error!(task = %name, error = %e, "background task failed"),
            }
        });
        self.tasks.inner.lock().unwrap_or_else(|p| p.into_inner()).push((health, handle));
    }

    /// The module's tasks.
    pub fn tasks(&self) -> Tasks {
        self.tasks.clone()
    }
}

/// Orders `selected` so every module comes after the selected modules it needs; refuses
/// cycles.
pub fn order(modules: &[SharedModule], selected: &[&'static str]) -> anyhow::Result<Vec<&'static str>> {
    let deps_of = |name: &str| -> Vec<&'static str> {
        modules
            .iter()
            .find(|m| m.name() == name)
            .map(|m| m.needs().into_iter().filter(|d| selected.contains(d)).collect())
            .unwrap_or_default()
    };
    let mut out: Vec<&'static str> = Vec::new();
    let mut remaining: Vec<&'static str> = selected.to_vec();
    while !remaining.is_empty() {
        let ready: Vec<&'static str> =
            remaining.iter().copied().filter(|m| deps_of(m).iter().all(|d| out.contains(d))).collect();
        anyhow::ensure!(!ready.is_empty(), "module dependency cycle among {}", remaining.join(", "));
        out.extend(ready.iter().copied());
        remaining.retain(|m| !ready.contains(m));
    }
    Ok(out)
}

/// Resolves a `--target` value (`all`, or a comma list) into module names in start order.
pub fn resolve(modules: &[SharedModule], spec: &str) -> anyhow::Result<Vec<&'static str>> {
    let names: Vec<&'static str> = modules.iter().map(|m| m.name()).collect();
    let mut selected: Vec<&'static str> = Vec::new();
    for raw in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if raw == "all" {
            for n in &names {
                if !selected.contains(n) {
                    selected.push(n);
                }
            }
            continue;
        }
        let n = names
            .iter()
            .find(|n| **n == raw)
            .ok_or_else(|| anyhow::anyhow!("unknown target {raw:?}; known targets: all, {}", names.join(", ")))?;
        if !selected.contains(n) {
            selected.push(n);
        }
    }
    anyhow::ensure!(!selected.is_empty(), "no target given");
    order(modules, &selected)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct M(&'static str, &'static [&'static str]);

    #[async_trait]
    impl Module for M {
        fn name(&self) -> &'static str {
            self.0
        }
        fn needs(&self) -> Vec<&'static str> {
            self.1.to_vec()
        }
        async fn start(&self, _ctx: &Context) -> anyhow::Result<Started> {
            Ok(Started::default())
        }
    }

    fn modules() -> Vec<SharedModule> {
        vec![
            Arc::new(M("stores", &[])),
            Arc::new(M("wms", &[])),
            Arc::new(M("products", &["wms"])),
            Arc::new(M("gateway", &["stores", "wms", "products"])),
        ]
    }

    #[test]
    fn dependencies_start_first() {
        let m = modules();
        assert_eq!(resolve(&m, "all").unwrap(), vec!["stores", "wms", "products", "gateway"]);
        assert_eq!(resolve(&m, "gateway,stores").unwrap(), vec!["stores", "gateway"]);
        assert_eq!(resolve(&m, "products,wms").unwrap(), vec!["wms", "products"]);
        assert_eq!(resolve(&m, "gateway").unwrap(), vec!["gateway"]);
        assert_eq!(resolve(&m, " stores , stores ").unwrap(), vec!["stores"]);
    }

    #[test]
    fn unknown_targets_and_cycles_are_refused() {
        let m = modules();
        let e = resolve(&m, "gateway,orderz").unwrap_err().to_string();
        assert!(e.contains("orderz") && e.contains("gateway"), "{e}");
        assert!(resolve(&m, "").is_err());
        let cyclic: Vec<SharedModule> = vec![Arc::new(M("a", &["b"])), Arc::new(M("b", &["a"]))];
        assert!(order(&cyclic, &["a", "b"]).unwrap_err().to_string().contains("cycle"));
        assert_eq!(order(&cyclic, &["a"]).unwrap(), vec!["a"]);
    }

    #[tokio::test]
    async fn remote_clients_need_an_address() {
        let c = Clients::new(HashMap::from([("wms".to_string(), "http://127.0.0.1:1".to_string())]));
        assert!(c.channel("wms").is_ok());
        let e = c.channel("stores").err().unwrap().to_string();
        assert!(e.contains("BO_SERVICES__STORES__ADDR"), "{e}");
    }

    #[tokio::test]
    async fn a_stopped_task_fails_readiness() {
        let bus: SharedBus = Arc::new(crate::bus::log::LogBus::temporary("t").await.unwrap());
        let ctx = Context::new(
            "wms",
            None,
            bus,
            ServiceSection::default(),
            figment::Figment::new(),
            PathBuf::from("."),
            true,
            Arc::new(crate::auth::Keys::new(&[1u8; 32], 60).unwrap()),
            None,
            Clients::default(),
            vec![],
            Default::default(),
        );
        let cancel = ctx.cancel.clone();
        ctx.spawn("relay", async move { cancel.cancelled().await });
        ctx.spawn("consumer", async {});
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        let health = ctx.tasks().health();
        assert_eq!(health.len(), 2);
        assert!(health[0].alive() && !health[1].alive());
        assert_eq!(health[1].name, "wms.consumer");
        ctx.cancel.cancel();
        for (_, h) in ctx.tasks().take() {
            h.await.unwrap();
        }
        assert!(!health[0].alive());
    }
}
