//! What every back-office service shares: configuration pieces, the database, the event
//! bus with its outbox and inbox, files, gRPC wiring, errors, money, paging, ids, time and
//! telemetry.

pub mod auth;
pub mod bus;
pub mod checks;
pub mod codes;
pub mod config;
pub mod cpu;
pub mod csv;
pub mod db;
pub mod error;
pub mod files;
pub mod grpc;
pub mod images;
pub mod inbox;
pub mod module;
pub mod money;
pub mod outbound;
pub mod outbox;
pub mod pace;
pub mod paging;
pub mod perms;
pub mod schedule;
pub mod sheet;
pub mod states;
pub mod telemetry;
pub mod testing;
pub mod time;

pub use codes::Code;
pub use error::{Error, FieldError, Result};

/// A new event id: a UUIDv7, ordered by time.
pub fn new_event_id() -> String {
    uuid::Uuid::now_v7().to_string()
}
