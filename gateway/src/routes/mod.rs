//! The API under `/api`, grouped by area as SPEC §7 lists them.

pub mod auth;
pub mod channel_shipping;
pub mod customers;
pub mod dashboards;
pub mod exports;
pub mod fee_plans;
pub mod listing_sync;
pub mod listings;
pub mod logistics;
mod magento;
pub mod marketplaces;
pub mod open_api;
pub mod order_import;
pub mod order_payments;
pub mod order_returns;
pub mod orders;
mod own_channels;
pub mod parcels;
pub mod payments;
pub mod pictures;
pub mod pos;
pub mod products;
pub mod receipts;
pub mod reconcile;
pub mod service_fees;
pub mod settings;
pub mod status;
pub mod stock_reports;
pub mod stores;
pub mod team;
pub mod transfers;
pub mod users;
pub mod wms;

use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use bo_kit::Code;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;

use crate::error::ApiError;
use crate::state::AppState;

#[derive(OpenApi)]
#[openapi(
    info(title = "Back-office API", description = "Orders, products, stock, channels and customers for online shops. \
Bodies are snake_case JSON or form-encoded (nested keys in bracket form); query keys are kebab-case; \
lists answer {data, total, limit, page, pages} and limit=-1 means all, up to 1,000 rows (a longer list comes in pages of 1,000, as pages says). \
Writes accept an Idempotency-Key header."),
    modifiers(&BearerAuth, &PermissionKeys, &ErrorCodes),
    tags((name = "auth"), (name = "users"), (name = "stores"), (name = "team"), (name = "customers"), (name = "products"), (name = "wms"), (name = "settings"), (name = "pos"), (name = "payments"), (name = "logistics"), (name = "marketplaces"), (name = "orders"), (name = "reports"), (name = "status"))
)]
struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        openapi.components.get_or_insert_with(Default::default).add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
    }
}

/// The permission keys as the `PermissionKey` schema, from which the app's list is generated.
struct PermissionKeys;

impl Modify for PermissionKeys {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        let schema = ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some("A permission key `area.resource.action` (SPEC §6); `*` and `all` widen it."))
            .enum_values(Some(crate::perms::KEYS.iter().copied()))
            .build();
        openapi.components.get_or_insert_with(Default::default).schemas.insert("PermissionKey".into(), schema.into());
    }
}

/// The error codes as the `ErrorCode` schema, from which the app's union is generated.
struct ErrorCodes;

impl Modify for ErrorCodes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let schema = crate::error::error_code_schema();
        openapi.components.get_or_insert_with(Default::default).schemas.insert("ErrorCode".into(), schema.into());
    }
}

/// The API router and its OpenAPI document.
pub fn api() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(auth::router())
        .merge(users::router())
        .merge(team::router())
        .merge(stores::router())
        .merge(customers::router())
        .merge(settings::router())
        .merge(pos::router())
        .merge(pictures::router())
        .merge(products::router())
        .merge(status::router())
        .merge(wms::router())
        .merge(receipts::router())
        .merge(transfers::router())
        .merge(payments::router())
        .merge(logistics::router())
        .merge(orders::router())
        .merge(order_payments::router())
        .merge(exports::router())
        .merge(order_import::router())
        .merge(reconcile::router())
        .merge(parcels::router())
        .merge(dashboards::router())
        .merge(stock_reports::router())
        .merge(service_fees::router())
        .merge(fee_plans::router())
        .merge(marketplaces::router())
        .merge(listings::router())
        .merge(listing_sync::router())
        .merge(channel_shipping::router())
        .merge(order_returns::router())
        .merge(open_api::router())
        .merge(own_channels::router())
        .merge(magento::router())
        .split_for_parts()
}

/// The OpenAPI document as served at `/api/openapi.json`.
pub fn document() -> utoipa::openapi::OpenApi {
    let (_, mut doc) = api();
    doc.servers = Some(vec![utoipa::openapi::Server::new("/api")]);
    doc
}

/// The OpenAPI document, pretty-printed JSON.
pub fn openapi_json() -> String {
    document().to_pretty_json().unwrap_or_default()
}

/// `/api` with the OpenAPI document, a JSON 404 for unknown routes and a JSON 405.
pub fn api_router(state: AppState) -> Router {
    let (router, _) = api();
    let doc = std::sync::Arc::new(document());
    router
        .route("/openapi.json", get(move || async move { Json(doc.as_ref().clone()) }))
        .merge(crate::realtime::router())
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, Code::RouteNotFound) })
        .method_not_allowed_fallback(|| async { ApiError::new(StatusCode::METHOD_NOT_ALLOWED, Code::MethodNotAllowed) })
        .layer(axum::middleware::from_fn_with_state(state.clone(), crate::idempotency::layer))
        // The integrator's API: its keys are not store tokens, and it keeps its own
        // idempotency (by key and by the integrator's reference, in the service).
        .merge(crate::integrator::router(state.clone()))
        .with_state(state)
}

#[cfg(test)]
mod tests {
    /// Every source file of the routes, in its folders too, with its text.
    fn route_sources() -> Vec<(String, String)> {
        fn walk(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<(String, String)>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(root, &path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let name = path.strip_prefix(root).unwrap().display().to_string();
                    out.push((name, std::fs::read_to_string(&path).unwrap()));
                }
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/routes");
        let mut out = Vec::new();
        walk(&root, &root, &mut out);
        out
    }
    /// The document merges routers silently: two handlers of one name, or two schemas of one
    /// name, would leave one of them out of the app's generated client.
    #[test]
    fn operation_ids_and_schema_names_are_unique() {
        let doc = super::document();
        let mut ids = Vec::new();
        for item in doc.paths.paths.values() {
            for op in [&item.get, &item.post, &item.put, &item.patch, &item.delete].into_iter().flatten() {
                ids.push(op.operation_id.clone().unwrap_or_default());
            }
        }
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "operation ids used twice");

        let mut names = std::collections::BTreeMap::new();
        for (file, src) in route_sources() {
            for line in src.lines().filter(|l| l.starts_with("pub struct ")) {
                let name =
                    line["pub struct ".len()..].split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap();
                if let Some(other) = names.insert(name.to_string(), file.clone()) {
                    panic!("{name} is declared in {other} and {file}");
                }
            }
        }
    }

    /// Every handler of a store write checks the caller's rights before anything else: a
    /// repeated `Idempotency-Key` is answered by that check (decision 0011), so a handler
    /// that acted first would act twice.
    #[test]
    fn store_writes_check_rights_first() {
        let mut checked = 0;
        let mut wrong = Vec::new();
        for (file, src) in route_sources() {
            for (i, _) in src.match_indices("#[utoipa::path(") {
                let rest = &src[i + "#[utoipa::path(".len()..];
                let method = rest.split(',').next().unwrap_or("").trim();
                if !matches!(method, "post" | "put" | "patch" | "delete") {
                    continue;
                }
                let Some(f) = rest.find("async fn ") else { continue };
                let rest = &rest[f..];
                let Some(open) = rest.find(") ->").and_then(|sig_end| rest[sig_end..].find('{').map(|b| sig_end + b))
                else {
                    continue;
                };
                let signature = &rest[..open];
                if !signature.contains("auth: StoreAuth") {
                    continue;
                }
                let first = rest[open + 1..].lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("//"));
                let name = signature.trim_start_matches("async fn ").split('(').next().unwrap_or("?");
                checked += 1;
                if !first.is_some_and(|l| l.starts_with("auth.require")) {
                    wrong.push(format!("{file}: {name}"));
                }
            }
        }
        assert!(checked > 15, "found only {checked} store writes");
        assert!(wrong.is_empty(), "store writes that do not start with auth.require: {wrong:#?}");
    }
}
