//! The gateway (axum: auth, permissions, the wire, errors, OpenAPI): a module that reaches
//! every service through its contract (the generated gRPC clients of `bo-proto`) and the
//! kit, never through a service's crate. The binary that runs it beside the services is
//! `bo-backoffice`.

pub mod auth;
pub mod bill_page;
pub mod config;
pub mod documents;
pub mod error;
pub mod idempotency;
pub mod integrator;
pub mod module;
pub mod perms;
pub mod realtime;
pub mod routes;
pub mod rules;
pub mod state;
pub mod static_app;
pub mod uploads;
pub mod wire;
