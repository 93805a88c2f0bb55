//! API tests: the app on port 0 with a fresh database per test, on SQLite with the
//! in-process bus always, and on PostgreSQL with NATS when TEST_DATABASE_URL and
//! TEST_NATS_URL are set.

mod helpers;

mod auth;
mod bills;
mod carriers;
mod channel_shipping;
mod contracts;
mod crash;
mod customers;
mod dashboards;
mod distributed;
mod hardening;
mod import;
mod integrator;
mod isolation;
mod listings;
mod logistics;
mod magento;
mod marketplace_orders;
mod marketplaces;
mod order_import;
mod order_payments;
mod order_reports;
mod orders;
mod own_channels;
mod payments;
mod photos;
mod pictures;
mod pos;
mod products;
mod races;
mod realtime;
mod receipts;
mod reconcile;
mod returns;
mod service_fees;
mod settings;
mod statements;
mod team;
mod trust;
mod webhooks;
mod wire;
mod wms;
