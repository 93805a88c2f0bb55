//! `backoffice`: one binary, many targets.

use std::path::PathBuf;

use bo_backoffice::app::{self, Launched};
use bo_backoffice::config::Config;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "backoffice", version, about = "Back-office for online shops: one binary, many targets")]
struct Cli {
    /// Modules to run: all (default), or a comma list of them (see --list-targets).
    #[arg(long, short, env = "BO_TARGET", default_value = "all")]
    target: String,
    /// Config file (default: ./backoffice.toml when present).
    #[arg(long, short)]
    config: Option<PathBuf>,
    /// Print the targets and exit.
    #[arg(long)]
    list_targets: bool,
    /// With --list-targets: each target as JSON (its database, files and the modules it
    /// calls), from which the deployment manifests are generated.
    #[arg(long, requires = "list_targets")]
    json: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Prints the API's OpenAPI document (the app's typed client is generated from it).
    Openapi,
    /// Administration commands.
    Admin {
        #[command(subcommand)]
        command: AdminCommand,
    },
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Checks the stock on the configured wms and orders databases: stock rows, lots, open
    /// reservations and the movements agree, reserved units belong to open orders, and an
    /// open order holds exactly its lines unless it is flagged short. Exits 1 and names what
    /// disagrees.
    CheckStock,
    /// The reports' figures: check them against the orders, or rebuild them from the orders.
    Reports {
        #[command(subcommand)]
        command: ReportsCommand,
    },
    /// Creates an owner account and their store.
    CreateOwner {
        /// The owner's email.
        #[arg(long)]
        email: String,
        /// The owner's password (at least 8 characters).
        #[arg(long, env = "BO_OWNER_PASSWORD")]
        password: String,
        /// The store's name.
        #[arg(long)]
        store_name: String,
        /// The owner's given name.
        #[arg(long, default_value = "")]
        first_name: String,
        /// The owner's family name.
        #[arg(long, default_value = "")]
        last_name: String,
    },
    /// Adds a staff member to a store (admin or cashier), optionally with a role of their own.
    AddMember {
        /// The store id.
        #[arg(long)]
        store_id: i64,
        /// The member's email.
        #[arg(long)]
        email: String,
        /// The member's password (at least 8 characters; kept if the user exists).
        #[arg(long, env = "BO_MEMBER_PASSWORD")]
        password: String,
        /// admin or cashier.
        #[arg(long, default_value = "cashier")]
        permission: String,
        /// A store role for this member, by name, with `--role-permissions`.
        #[arg(long, requires = "role_permissions")]
        role: Option<String>,
        /// The role's permission keys, comma-separated (e.g. store.customer.read).
        #[arg(long, value_delimiter = ',', requires = "role")]
        role_permissions: Vec<String>,
    },
    /// Menus hidden for a store (SPEC §2: e.g. `connect_e_parcel` hides the e-parcel setting).
    Menus {
        #[command(subcommand)]
        command: MenuCommand,
    },
    /// A store owner's identity verification: approve a submitted one after checking it.
    Identity {
        #[command(subcommand)]
        command: IdentityCommand,
    },
    /// Events a consumer gave up on: list them, or ask the running consumers to handle them
    /// again.
    DeadLetters {
        #[command(subcommand)]
        command: RowCommand,
    },
    /// Events the outbox relay set aside after repeated failures: list them, or requeue them.
    Outbox {
        #[command(subcommand)]
        command: RowCommand,
    },
}

#[derive(Subcommand)]
enum ReportsCommand {
    /// Compares the daily figures with what the orders add up to, store by store and day by
    /// day. Exits 1 and names every difference.
    Check,
    /// Empties the figures and counts every order again from the orders service, while new
    /// events go on being counted.
    Rebuild,
}

#[derive(Subcommand)]
enum MenuCommand {
    /// Hides a menu from the store's members.
    Hide {
        /// The store id.
        #[arg(long)]
        store: i64,
        /// The menu's key (see docs/operations.md).
        key: String,
    },
    /// Shows a hidden menu again.
    Show {
        /// The store id.
        #[arg(long)]
        store: i64,
        /// The menu's key.
        key: String,
    },
    /// Lists the store's hidden menus.
    List {
        /// The store id.
        #[arg(long)]
        store: i64,
    },
}

#[derive(Subcommand)]
enum IdentityCommand {
    /// Approves the store's submitted identity (it then shows as verified).
    Approve {
        /// The store id.
        #[arg(long)]
        store: i64,
    },
}

#[derive(Subcommand)]
enum RowCommand {
    /// Lists them.
    List {
        /// Only this module's database (default: every module's).
        #[arg(long)]
        service: Option<String>,
    },
    /// Replays (dead letters) or requeues (outbox) one by id, or every one with --all.
    #[command(alias = "replay")]
    Retry {
        /// The module whose database holds them.
        #[arg(long)]
        service: String,
        /// The row's id, as `list` shows it.
        #[arg(long, required_unless_present = "all", conflicts_with = "all")]
        id: Option<i64>,
        /// Every row not yet replayed.
        #[arg(long)]
        all: bool,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    if cli.list_targets {
        if cli.json {
            println!("{}", bo_backoffice::targets_json());
        } else {
            for t in bo_backoffice::target_names() {
                println!("{t}");
            }
        }
        return Ok(());
    }
    if matches!(cli.command, Some(Command::Openapi)) {
        println!("{}", bo_gateway::routes::openapi_json());
        return Ok(());
    }
    let cfg = Config::load(cli.config.as_deref())?;
    match cli.command {
        Some(Command::Admin {
            command: AdminCommand::CreateOwner { email, password, store_name, first_name, last_name },
        }) => {
            let _telemetry = bo_kit::telemetry::init("backoffice-admin", false)?;
            create_owner(&cfg, email, password, store_name, first_name, last_name).await
        }
        Some(Command::Admin {
            command: AdminCommand::AddMember { store_id, email, password, permission, role, role_permissions },
        }) => {
            let _telemetry = bo_kit::telemetry::init("backoffice-admin", false)?;
            let svc = open_stores(&cfg).await?;
            let added = svc
                .grpc
                .add_member(store_id, &email, &password, &permission, role.as_deref().map(|r| (r, role_permissions)))
                .await;
            svc.db.close().await;
            let m = added.map_err(admin_error)?;
            println!("Added {} to store {} as {} (membership id {}).", email, store_id, m.permission, m.id);
            Ok(())
        }
        Some(Command::Admin { command: AdminCommand::Menus { command } }) => {
            let _telemetry = bo_kit::telemetry::init("backoffice-admin", false)?;
            menus(&cfg, command).await
        }
        Some(Command::Admin { command: AdminCommand::Identity { command: IdentityCommand::Approve { store } } }) => {
            let _telemetry = bo_kit::telemetry::init("backoffice-admin", false)?;
            let svc = open_stores(&cfg).await?;
            let done = svc.grpc.approve_identity(store).await;
            svc.db.close().await;
            let identity = done.map_err(admin_error)?;
            println!("Store {store}: identity of {} {} approved.", identity.first_name, identity.last_name);
            Ok(())
        }
        Some(Command::Admin { command: AdminCommand::CheckStock }) => {
            let _telemetry = bo_kit::telemetry::init("backoffice-admin", false)?;
            // The checked services and those they call, in this process, on the configured
            // databases, answering only this command.
            let names = bo_backoffice::with_needs(&bo_backoffice::checks::CHECKED)?;
            let admin = bo_backoffice::app::Admin::start(&cfg, &names).await?;
            let checked = bo_backoffice::checks::invariants(
                &admin.clients,
                &admin.identity,
                bo_backoffice::checks::SETTLING_GRACE_MS,
            )
            .await;
            admin.stop().await;
            let broken = checked?;
            if broken.is_empty() {
                println!(
                    "Stock is consistent: stock rows, lots, reservations and movements agree, and every open order \
                     holds its lines or is flagged short."
                );
                Ok(())
            } else {
                for b in &broken {
                    println!("{b}");
                }
                anyhow::bail!("{} stock inconsistencies", broken.len())
            }
        }
        Some(Command::Admin { command: AdminCommand::Reports { command } }) => {
            let _telemetry = bo_kit::telemetry::init("backoffice-admin", false)?;
            let names = bo_backoffice::with_needs(&bo_backoffice::checks::REPORTS)?;
            let admin = bo_backoffice::app::Admin::start(&cfg, &names).await?;
            let started = std::time::Instant::now();
            let done = match command {
                ReportsCommand::Check => bo_backoffice::checks::reports(&admin.clients, &admin.identity)
                    .await
                    .map(|r| (r.orders, r.fee_charges, r.problems)),
                ReportsCommand::Rebuild => bo_backoffice::checks::rebuild_reports(&admin.clients, &admin.identity)
                    .await
                    .map(|r| (r.orders, r.fee_charges, Vec::new())),
            };
            admin.stop().await;
            let (orders, fee_charges, problems) = done?;
            for p in &problems {
                println!("{p}");
            }
            if !problems.is_empty() {
                anyhow::bail!("{} differences between the reports and their sources", problems.len());
            }
            println!(
                "{orders} orders and {fee_charges} fee charges: the reports' figures agree with them ({} ms).",
                started.elapsed().as_millis()
            );
            Ok(())
        }
        Some(Command::Admin { command: AdminCommand::DeadLetters { command } }) => rows(&cfg, command, true).await,
        Some(Command::Admin { command: AdminCommand::Outbox { command } }) => rows(&cfg, command, false).await,
        Some(Command::Openapi) => Ok(()),
        None => run(cfg, &cli.target).await,
    }
}

async fn run(cfg: Config, target: &str) -> anyhow::Result<()> {
    let modules = bo_backoffice::resolve(target)?;
    let json = cfg.log.json.unwrap_or(!app::is_all(&modules));
    let _telemetry = bo_kit::telemetry::init(&format!("backoffice-{}", target.replace(',', "-")), json)?;
    let launched = app::launch(cfg.clone(), modules).await?;
    banner(&cfg, &launched);
    shutdown_signal().await;
    tracing::info!("stopping");
    launched.stop().await;
    Ok(())
}

fn banner(cfg: &Config, l: &Launched) {
    let url = app::public_url(cfg, l.http_addr);
    tracing::info!(modules = ?l.modules, http = %l.http_addr, grpc = ?l.grpc_addr, "started");
    if !l.modules.contains(&"gateway") {
        println!("backoffice {} is running: gRPC on {:?}, health on {url}/healthz", l.modules.join(","), l.grpc_addr);
        return;
    }
    println!();
    println!("  Back-office is running at {url}");
    println!("  API:      {url}/api   (OpenAPI: {url}/api/openapi.json)");
    match &l.demo {
        // The password is shown only where a person asked for it (`make run`).
        Some(d) if d.created && cfg.demo.print_password => println!(
            "  Sign in:  {} / {}   (demo store id {}, created now)",
            cfg.demo.email,
            cfg.demo.password.expose(),
            d.store_id
        ),
        Some(d) if d.created => println!(
            "  Sign in:  {} (demo owner, the password of BO_DEMO__PASSWORD; demo store id {})",
            cfg.demo.email, d.store_id
        ),
        Some(_) => println!("  Sign in:  {} (demo owner; password as set on first start)", cfg.demo.email),
        None => println!(
            "  Sign in:  as an owner made with `backoffice admin create-owner` (BO_DEMO__ENABLED=true makes a demo store)"
        ),
    }
    println!();
}

async fn create_owner(
    cfg: &Config,
    email: String,
    password: String,
    store_name: String,
    first_name: String,
    last_name: String,
) -> anyhow::Result<()> {
    let svc = open_stores(cfg).await?;
    let created = svc
        .grpc
        .create_owner(bo_proto::stores::v1::CreateOwnerRequest {
            email,
            password,
            first_name,
            last_name,
            store_name,
            only_if_first: false,
        })
        .await;
    svc.db.close().await;
    let r = created.map_err(admin_error)?;
    let (u, s) = (r.user.unwrap_or_default(), r.store.unwrap_or_default());
    println!("Created owner {} (user id {}) and store \"{}\" (store id {}).", u.email, u.id, s.name, s.id);
    Ok(())
}

/// `admin menus`: hides, shows or lists a store's hidden menus. Members see the change when
/// the app next loads the store.
async fn menus(cfg: &Config, command: MenuCommand) -> anyhow::Result<()> {
    let svc = open_stores(cfg).await?;
    let (store, done) = match command {
        MenuCommand::Hide { store, key } => (store, svc.grpc.set_menu_hidden(store, &key, true).await),
        MenuCommand::Show { store, key } => (store, svc.grpc.set_menu_hidden(store, &key, false).await),
        MenuCommand::List { store } => (store, svc.grpc.menu_hiding(store).await),
    };
    svc.db.close().await;
    let list = done.map_err(admin_error)?;
    if list.is_empty() {
        println!("Store {store} hides no menu.");
    } else {
        println!("Store {store} hides: {}", list.join(", "));
    }
    Ok(())
}

/// The stores service on its configured database, for admin commands. Events land in the
/// outbox; the running stores service relays them.
async fn open_stores(cfg: &Config) -> anyhow::Result<bo_stores::Service> {
    let db = bo_kit::db::Db::connect(&cfg.database_url("stores")).await?;
    // No relay runs here: events wait in the outbox for the running stores module.
    let bus = std::sync::Arc::new(bo_kit::bus::log::LogBus::temporary(cfg.bus.prefix.clone()).await?);
    bo_stores::Service::open(db, bus, cfg.auth.token_ttl_minutes * 60_000).await
}

/// The admin commands on dead letters (`dead`) and set-aside outbox rows.
async fn rows(cfg: &Config, command: RowCommand, dead: bool) -> anyhow::Result<()> {
    let with_db: Vec<&'static str> =
        bo_backoffice::modules().iter().filter(|m| m.has_database()).map(|m| m.name()).collect();
    let known = with_db.clone();
    let open = move |name: String| {
        let known = known.clone();
        async move {
            anyhow::ensure!(known.contains(&name.as_str()), "no module {name} with a database ({})", known.join(", "));
            let db = bo_kit::db::Db::connect(&cfg.database_url(&name)).await?;
            db.create_kit_tables().await?;
            anyhow::Ok(db)
        }
    };
    match command {
        RowCommand::List { service } => {
            let names: Vec<String> = match service {
                Some(s) => vec![s],
                None => with_db.iter().map(|s| s.to_string()).collect(),
            };
            let mut count = 0;
            for name in names {
                let db = open(name.clone()).await?;
                if dead {
                    for d in bo_kit::inbox::dead_letters(&db).await? {
                        let state = match (d.replayed_at, d.replay_requested) {
                            (Some(_), _) => "replayed",
                            (None, true) => "replay asked",
                            _ => "dead",
                        };
                        println!(
                            "{name}\t{}\t{}\t{}\t{}\t{} deliveries\t{}\t{state}\t{}",
                            d.id,
                            d.consumer,
                            d.subject,
                            d.event_id,
                            d.deliveries,
                            bo_kit::time::ms_to_rfc3339(d.created_at),
                            d.error
                        );
                        count += 1;
                    }
                } else {
                    for r in bo_kit::outbox::Relay::set_aside(&db).await? {
                        println!(
                            "{name}\t{}\t{}\t{}\t{} attempts\t{}\t{}",
                            r.id,
                            r.event_type,
                            r.event_id,
                            r.attempts,
                            bo_kit::time::ms_to_rfc3339(r.created_at),
                            r.last_error
                        );
                        count += 1;
                    }
                }
                db.close().await;
            }
            eprintln!("{count} {}", if dead { "dead letters" } else { "set-aside outbox rows" });
        }
        RowCommand::Retry { service, id, all } => {
            let db = open(service.clone()).await?;
            let id = if all { None } else { id };
            let n = if dead {
                bo_kit::inbox::request_replay(&db, id).await?
            } else {
                bo_kit::outbox::Relay::retry_set_aside(&db, id).await?
            };
            db.close().await;
            if dead {
                println!("Asked the running {service} module to handle {n} dead letters again.");
            } else {
                println!("Requeued {n} outbox rows of {service}; its relay publishes them shortly.");
            }
        }
    }
    Ok(())
}

fn admin_error(e: bo_kit::Error) -> anyhow::Error {
    let fields: Vec<String> = e.fields.iter().map(|f| format!("{}: {}", f.field, f.code)).collect();
    anyhow::anyhow!("refused: {} {}", e.code, fields.join(", "))
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
