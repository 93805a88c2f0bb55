//! The gateway (axum: auth, permissions, the wire, errors, OpenAPI) and the `backoffice`
//! binary: the list of modules and the process that runs any set of them.

pub mod app;
pub mod auth;
pub mod bill_page;
pub mod checks;
pub mod config;
pub mod demo;
pub mod documents;
pub mod error;
pub mod idempotency;
pub mod module;
pub mod perms;
pub mod routes;
pub mod serve;
pub mod state;
pub mod static_app;
pub mod uploads;
pub mod wire;

use std::sync::Arc;

use bo_kit::module::SharedModule;

/// The allocator of every process (and of the tests and benchmarks that start one): the
/// order list and the event consumers allocate and free many short-lived buffers, where
/// mimalloc spends a fraction of what the system allocator does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Every module of the product. A new service adds one line here.
pub fn modules() -> Vec<SharedModule> {
    module::with_gateway(vec![
        Arc::new(bo_wms::WmsModule),
        Arc::new(bo_stores::StoresModule),
        Arc::new(bo_products::ProductsModule),
        Arc::new(bo_payments::PaymentsModule),
        Arc::new(bo_logistics::LogisticsModule),
        Arc::new(bo_orders::OrdersModule),
    ])
}

/// The names `--target` accepts.
pub fn target_names() -> Vec<&'static str> {
    std::iter::once("all").chain(modules().iter().map(|m| m.name())).collect()
}

/// Resolves a `--target` value (`all`, or a comma list) into modules in start order.
pub fn resolve(spec: &str) -> anyhow::Result<Vec<&'static str>> {
    bo_kit::module::resolve(&modules(), spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_start_in_dependency_order() {
        assert_eq!(
            target_names(),
            vec!["all", "wms", "stores", "products", "payments", "logistics", "orders", "gateway"]
        );
        assert_eq!(
            resolve("all").unwrap(),
            vec!["wms", "payments", "stores", "products", "logistics", "orders", "gateway"]
        );
        assert_eq!(resolve("gateway,products,wms").unwrap(), vec!["wms", "products", "gateway"]);
        assert!(resolve("orderz").is_err());
    }
}
