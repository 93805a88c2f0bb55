//! Report exports (decision 0033): every report's spreadsheet is one kind of job. Asking
//! checks the scope, counts what the file would hold (nothing is refused with
//! `no_data_for_export`) and records the export; a builder then writes it in the background
//! in constant memory ([`build`]), and it is kept a week.

pub mod build;
pub mod domain;
pub mod sheets;
pub mod store;

use std::sync::Arc;

use bo_kit::error::Kind as ErrorKind;
use bo_kit::files::Files;
use bo_kit::grpc::{CallCtx, GrpcChannel, ServiceIdentity};
use bo_kit::paging::{Page, PageRequest};
use bo_kit::time::ms_to_timestamp;
use bo_kit::{Code, Error, FieldError, Result};
use bo_proto::marketplaces::v1::marketplaces_service_client::MarketplacesServiceClient;
use bo_proto::orders::v1 as opb;
use bo_proto::orders::v1::orders_service_client::OrdersServiceClient;
use bo_proto::products::v1::products_service_client::ProductsServiceClient;
use bo_proto::reports::v1 as pb;
use bo_proto::stores::v1::stores_service_client::StoresServiceClient;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;
use bo_proto::Wire as _;
use tokio::sync::Notify;

use self::domain::{Kind, Lang};
use self::store::{ExportRow, Scope};
use crate::domain::{Day, Span};
use crate::store::Repo;

/// The services the reports read beside their own tables: orders and wms for the check and
/// the rebuild and for the exports of orders and stock movements, products and stores for
/// the names an export writes.
#[derive(Clone)]
pub struct Sources {
    pub orders: OrdersServiceClient<GrpcChannel>,
    /// The sales channels' names.
    pub marketplaces: MarketplacesServiceClient<GrpcChannel>,
    pub wms: WmsServiceClient<GrpcChannel>,
    pub products: ProductsServiceClient<GrpcChannel>,
    pub stores: StoresServiceClient<GrpcChannel>,
    pub identity: ServiceIdentity,
}

/// The exports: asked for, listed, and built.
#[derive(Clone)]
pub struct Exports {
    repo: Repo,
    sources: Option<Sources>,
    files: Option<Files>,
    /// Wakes the builder.
    waiting: Arc<Notify>,
}

/// A day, in ms (Thailand keeps no summer time).
const DAY_MS: i64 = 24 * 3600 * 1000;

/// The moment a Bangkok day starts (unix ms).
fn day_start_ms(day: Day) -> i64 {
    let date = time::Date::from_calendar_date(
        (day / 10_000) as i32,
        time::Month::try_from(((day / 100) % 100) as u8).unwrap_or(time::Month::January),
        (day % 100) as u8,
    )
    .unwrap_or(time::Date::MIN);
    (date.midnight().assume_utc().unix_timestamp() - 7 * 3600) * 1000
}

/// The span of a summary export: its period's days, nothing before.
pub fn export_span(scope: &Scope) -> Span {
    let (from, to) = (crate::domain::day_of(scope.from_ms), crate::domain::day_of(scope.to_ms - 1));
    Span { from, to, previous_from: from, previous_to: to, bucket: crate::domain::Bucket::Day }
}

impl Exports {
    /// The exports on `repo`, without sources or files until given.
    pub fn new(repo: Repo) -> Self {
        Self { repo, sources: None, files: None, waiting: Arc::new(Notify::new()) }
    }

    /// With the services they read and where their files are kept.
    pub fn with(mut self, sources: Option<Sources>, files: Option<Files>) -> Self {
        self.sources = sources;
        self.files = files;
        self
    }

    fn sources(&self) -> Result<&Sources> {
        self.sources.as_ref().ok_or_else(|| Error::internal(anyhow::anyhow!("the reports run without their sources")))
    }

    fn files(&self) -> Result<&Files> {
        self.files.as_ref().ok_or_else(|| Error::new(ErrorKind::Unavailable, Code::FilesUnavailable))
    }

    /// Asks for an export of `kind`; refused with `no_data_for_export` when it would hold
    /// nothing, and `export_queue_full` while the store has as many waiting as it may.
    pub async fn produce(&self, ctx: &CallCtx, r: pb::ProduceExportRequest) -> Result<ExportRow> {
        let kind = pb::ExportKind::try_from(r.kind)
            .ok()
            .and_then(|k| Kind::of(k.wire()))
            .ok_or_else(|| Error::invalid_field("kind", "validation.invalid"))?;
        let lang = Lang::of(&r.lang);
        let scope = self.scope(kind, r.scope.unwrap_or_default())?;
        if self.repo.exports_waiting(ctx.store_id).await? >= domain::MAX_WAITING {
            return Err(Error::new(ErrorKind::TooManyRequests, Code::ExportQueueFull));
        }
        let total = self.count(ctx, kind, &scope).await?;
        if total == 0 {
            return Err(Error::new(ErrorKind::Invalid, Code::NoDataForExport));
        }
        let name = domain::file_name(kind, &scope.table, scope.from_ms, scope.to_ms, lang);
        let code = if lang == Lang::En { "en" } else { "th" };
        let row = self.repo.insert_export(ctx.store_id, ctx.user_id, kind, &scope, &name, code, total).await?;
        self.waiting.notify_one();
        Ok(row)
    }

    /// The scope asked for, checked: every field's error at once.
    fn scope(&self, kind: Kind, s: pb::ExportScope) -> Result<Scope> {
        let mut errs = Vec::new();
        let table = kind.table(&s.table);
        if table.is_none() {
            errs.push(FieldError::new("table", "validation.invalid"));
        }
        let (from, to, period) = if kind.by_period() {
            let period = pb::Period::try_from(s.period).unwrap_or_default();
            match crate::grpc::span_of(period, &s.date) {
                Ok(span) => (day_start_ms(span.from), day_start_ms(span.to) + DAY_MS, period),
                Err(_) => {
                    errs.push(FieldError::new("date", "validation.date"));
                    (0, 0, period)
                }
            }
        } else {
            let (from, to) = (s.date_from_ms, s.date_to_ms);
            if from <= 0 {
                errs.push(FieldError::new("date_from", "validation.required"));
            }
            if to <= 0 {
                errs.push(FieldError::new("date_to", "validation.required"));
            }
            if from > 0 && to > 0 && to <= from {
                errs.push(FieldError::new("date_to", "validation.date_range"));
            }
            if from > 0 && to - from > domain::MAX_DAYS * 24 * 3600 * 1000 {
                errs.push(FieldError::new("date_to", "validation.export_range"));
            }
            (from, to, pb::Period::Unspecified)
        };
        let states: Vec<String> = s.order_states().map(|st| st.wire().to_string()).filter(|w| !w.is_empty()).collect();
        if s.order_states.len() != states.len() {
            errs.push(FieldError::new("order_states", "validation.order_state"));
        }
        let movement_kind = s.movement_kind.trim().to_string();
        if !movement_kind.is_empty() && sheets::movement_label(&movement_kind, Lang::En) == movement_kind {
            errs.push(FieldError::new("kind", "validation.invalid"));
        }
        if !errs.is_empty() {
            return Err(Error::invalid(errs));
        }
        let mut order_states = if kind == Kind::Orders { states } else { Vec::new() };
        order_states.sort();
        order_states.dedup();
        let movements = kind == Kind::StockMovements;
        Ok(Scope {
            from_ms: from,
            to_ms: to,
            order_states,
            table: table.unwrap_or_default().to_string(),
            movement_kind: if movements { movement_kind } else { String::new() },
            sku_id: if movements { s.sku_id.max(0) } else { 0 },
            warehouse_id: if movements { s.warehouse_id.max(0) } else { 0 },
            period: if kind.by_period() { period.wire().to_string() } else { String::new() },
            date: if kind.by_period() { s.date.trim().to_string() } else { String::new() },
        })
    }

    /// How many rows an export of `scope` would hold (0: nothing to export).
    async fn count(&self, ctx: &CallCtx, kind: Kind, scope: &Scope) -> Result<i64> {
        match kind {
            Kind::Orders => {
                let s = self.sources()?;
                let r = s
                    .orders
                    .clone()
                    .list_orders_for_export(
                        s.identity.acting(ctx.store_id, ctx.user_id).request(build::orders_request(scope, 0, 0, true)),
                    )
                    .await
                    .map_err(Error::from)?;
                Ok(r.into_inner().total)
            }
            Kind::StockMovements => {
                let s = self.sources()?;
                let r = s
                    .wms
                    .clone()
                    .list_movements(
                        s.identity.acting(ctx.store_id, ctx.user_id).request(build::movements_request(scope, 0, 1)),
                    )
                    .await
                    .map_err(Error::from)?;
                Ok(r.into_inner().page.map_or(0, |p| p.total))
            }
            Kind::SoldItems => Ok(self.repo.sold_totals(ctx.store_id, &export_span(scope)).await?.current.skus),
            // The other summaries' tables are small: counted by reading them.
            _ => Ok(build::summary_rows(&self.repo, ctx.store_id, kind, scope, Lang::En, &build::Names::default())
                .await?
                .len() as i64),
        }
    }

    /// The store's exports of `kinds`, newest first.
    pub async fn list(&self, ctx: &CallCtx, kinds: &[Kind], page: PageRequest) -> Result<(Vec<ExportRow>, Page)> {
        let words: Vec<&str> = kinds.iter().map(|k| k.word()).collect();
        self.repo.exports(ctx.store_id, &words, page).await
    }

    /// Where an exported file is kept, its name and kind.
    pub async fn file(&self, ctx: &CallCtx, id: i64, kinds: &[Kind]) -> Result<(String, String, Kind)> {
        let words: Vec<&str> = kinds.iter().map(|k| k.word()).collect();
        let e = self.repo.export(ctx.store_id, id, &words).await?;
        let kind = Kind::of(&e.kind).ok_or_else(|| Error::not_found(Code::ExportNotFound))?;
        match e.state.as_str() {
            domain::EXPORTED => Ok((e.file_key, e.file_name, kind)),
            domain::EXPIRED => Err(Error::not_found(Code::ExportExpired)),
            _ => Err(Error::failed_precondition(Code::ExportNotReady)),
        }
    }
}

/// The kinds of a call's list ([] every kind), those the contract does not know left out.
pub fn kinds_of(numbers: &[i32]) -> Vec<Kind> {
    numbers.iter().filter_map(|n| pb::ExportKind::try_from(*n).ok()).filter_map(|k| Kind::of(k.wire())).collect()
}

impl ExportRow {
    /// The record as the API sees it.
    pub fn to_proto(&self) -> pb::Export {
        let s = self.scope();
        pb::Export {
            id: self.id,
            kind: pb::ExportKind::number(&self.kind),
            file_name: self.file_name.clone(),
            state: pb::ExportState::number(&self.state),
            scope: Some(pb::ExportScope {
                date_from_ms: s.from_ms,
                date_to_ms: s.to_ms,
                order_states: s.order_states.iter().map(|w| opb::OrderState::number(w)).collect(),
                table: s.table,
                movement_kind: s.movement_kind,
                sku_id: s.sku_id,
                warehouse_id: s.warehouse_id,
                period: pb::Period::number(&s.period),
                date: s.date,
            }),
            total: self.total,
            done: self.done,
            file_size: self.file_size,
            created_by: self.created_by,
            create_time: Some(ms_to_timestamp(self.created_at)),
            finished_at_ms: self.finished_at,
            expires_at_ms: self.expires_at,
            failure: self.error.clone(),
        }
    }
}
