//! The gateway (axum: auth, permissions, the wire, errors, OpenAPI) and the `backoffice`
//! binary's wiring of modules.

pub mod app;
pub mod auth;
pub mod config;
pub mod demo;
pub mod error;
pub mod idempotency;
pub mod modules;
pub mod perms;
pub mod routes;
pub mod state;
pub mod static_app;
pub mod wire;
