//! The `backoffice` binary's library: the list of modules, the process that runs any set of
//! them (`--target`), the admin commands' helpers and the demo store. The gateway is one
//! module among the others; nothing here is reached by a service or by the gateway.

pub mod app;
pub mod checks;
pub mod config;
pub mod demo;
pub mod serve;

use std::sync::Arc;

use bo_kit::module::SharedModule;

/// The allocator of every process (and of the tests and benchmarks that start one): the
/// order list and the event consumers allocate and free many short-lived buffers, where
/// mimalloc spends a fraction of what the system allocator does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Every module of the product. A new service adds one line here.
pub fn modules() -> Vec<SharedModule> {
    bo_gateway::module::with_gateway(vec![
        Arc::new(bo_wms::WmsModule),
        Arc::new(bo_stores::StoresModule),
        Arc::new(bo_products::ProductsModule),
        Arc::new(bo_payments::PaymentsModule),
        Arc::new(bo_logistics::LogisticsModule),
        Arc::new(bo_orders::OrdersModule),
        Arc::new(bo_reports::ReportsModule),
        Arc::new(bo_marketplaces::MarketplacesModule),
    ])
}

/// The names `--target` accepts.
pub fn target_names() -> Vec<&'static str> {
    std::iter::once("all").chain(modules().iter().map(|m| m.name())).collect()
}

/// Every module as the deployment manifests need it (`--list-targets --json`): its name,
/// whether it keeps a database and files, the modules it calls and its own secret settings.
pub fn targets_json() -> String {
    let targets: Vec<serde_json::Value> = modules()
        .iter()
        .map(|m| {
            serde_json::json!({
                "name": m.name(),
                "database": m.has_database(),
                "files": m.uses_files(),
                "needs": m.needs(),
                "secrets": m.secrets(),
            })
        })
        .collect();
    serde_json::to_string_pretty(&serde_json::json!({ "targets": targets })).expect("plain JSON")
}

/// Resolves a `--target` value (`all`, or a comma list) into modules in start order.
pub fn resolve(spec: &str) -> anyhow::Result<Vec<&'static str>> {
    bo_kit::module::resolve(&modules(), spec)
}

/// `names` and every module they call, directly or not, in start order.
pub fn with_needs(names: &[&str]) -> anyhow::Result<Vec<&'static str>> {
    let all = modules();
    let mut chosen: Vec<&'static str> = Vec::new();
    let mut pending: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    while let Some(name) = pending.pop() {
        let m = all.iter().find(|m| m.name() == name).ok_or_else(|| anyhow::anyhow!("no module {name}"))?;
        if !chosen.contains(&m.name()) {
            chosen.push(m.name());
            pending.extend(m.needs().iter().map(|n| n.to_string()));
        }
    }
    bo_kit::module::order(&all, &chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_start_in_dependency_order() {
        let names = target_names();
        assert_eq!((names.first(), names.last()), (Some(&"all"), Some(&"gateway")), "{names:?}");
        let order = resolve("all").unwrap();
        assert_eq!(order.len(), modules().len());
        for m in modules() {
            let at = order.iter().position(|n| *n == m.name()).unwrap();
            for need in m.needs() {
                let before = order.iter().position(|n| *n == need).unwrap();
                assert!(before < at, "{} starts before {need}, which it needs: {order:?}", m.name());
            }
        }
        assert_eq!(resolve("gateway,products,wms").unwrap(), vec!["wms", "products", "gateway"]);
        assert!(resolve("orderz").is_err());
        let needed = with_needs(&["wms", "orders"]).unwrap();
        assert_eq!((needed.first(), needed.last()), (Some(&"wms"), Some(&"orders")), "{needed:?}");
        let mut names = needed.clone();
        names.sort();
        assert_eq!(names, vec!["logistics", "orders", "products", "stores", "wms"]);
    }
}
