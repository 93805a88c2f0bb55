//! The tonic service: reads the call, checks it (`domain`), reads the storage, maps back.

use bo_kit::grpc::CallCtx;
use bo_kit::paging::PageRequest;
use bo_kit::time::{ms_to_timestamp, now_ms};
use bo_kit::Error;
use bo_proto::orders::v1 as opb;
use bo_proto::orders::v1::OrderState;
use bo_proto::reports::v1 as pb;
use bo_proto::reports::v1::reports_service_server::ReportsService;
use bo_proto::wms::v1 as wpb;
use bo_proto::Wire as _;
use tonic::{Request, Response, Status};

use crate::domain::{self, AreaFigures, Bucket, Figures, Period, Span, StateFigures};
use crate::exports::{kinds_of, Exports, Sources};
use crate::store::{AreaTotals, Parts, Repo, SkuSales, SoldSort, SoldTotals};

fn area_figures(f: &AreaFigures) -> pb::AreaFigures {
    pb::AreaFigures { orders: f.orders, cancelled: f.cancelled, net: f.net }
}

/// The states orders are in, in the contract's order, those with none left out.
fn by_state(figures: &std::collections::BTreeMap<String, StateFigures>) -> Vec<pb::StateSales> {
    let mut out: Vec<pb::StateSales> = figures
        .iter()
        .filter(|(_, f)| **f != StateFigures::default())
        .filter_map(|(w, f)| {
            let state = OrderState::from_wire(w)?;
            Some(pb::StateSales {
                state: state.into(),
                orders: f.orders,
                net: f.net,
                total: f.total,
                paid: f.paid,
                balance: f.balance(),
            })
        })
        .collect();
    out.sort_by_key(|s| s.state);
    out
}

/// Every kind of customer's figures, in the contract's order (new, returning, guest).
fn by_kind(figures: &std::collections::BTreeMap<String, AreaFigures>) -> Vec<pb::CustomerFigures> {
    [pb::CustomerKind::New, pb::CustomerKind::Returning, pb::CustomerKind::Guest]
        .into_iter()
        .map(|k| pb::CustomerFigures {
            kind: k.into(),
            figures: Some(area_figures(&figures.get(k.wire()).copied().unwrap_or_default())),
        })
        .collect()
}

/// The reports service.
#[derive(Clone)]
pub struct ReportsGrpc {
    repo: Repo,
    /// The sources of the check and the rebuild (the orders service for sales, wms for fees),
    /// with the identity they are called with.
    source: Option<Sources>,
    /// The report exports.
    exports: Exports,
}

type Rpc<T> = Result<Response<T>, Status>;

/// Orders read from the source per call (the most it gives).
pub const SOURCE_PAGE: i32 = 1_000;

impl ReportsGrpc {
    /// The service on `repo`, its exports `exports`.
    pub fn new(repo: Repo, exports: Exports) -> Self {
        Self { repo, source: None, exports }
    }

    /// With the services to check and rebuild from.
    pub fn with_source(mut self, sources: Sources) -> Self {
        self.source = Some(sources);
        self
    }

    fn sources(&self) -> Result<&Sources, Status> {
        self.source.as_ref().ok_or_else(|| Status::failed_precondition("the reports run without their sources"))
    }

    /// Every fee charge wms keeps, a page at a time in id order.
    async fn fee_charges(&self) -> Result<Vec<crate::fees::Charge>, Status> {
        let Sources { wms, identity, .. } = self.sources()?;
        let mut wms = wms.clone();
        let (mut after_id, mut out) = (0, Vec::new());
        loop {
            let page = wms
                .list_fee_charges(
                    identity.system().request(wpb::ListFeeChargesRequest { after_id, limit: SOURCE_PAGE }),
                )
                .await?
                .into_inner()
                .charges;
            let n = page.len();
            if let Some(last) = page.last() {
                after_id = last.id;
            }
            out.extend(page.iter().filter_map(|e| crate::fees::Charge::of(e.store_id, e.charge.as_ref()?)));
            if n < SOURCE_PAGE as usize {
                return Ok(out);
            }
        }
    }

    /// Hands every order the source keeps now to `each`, a page at a time in id order, the
    /// next page read while `each` works on this one; answers how many there were.
    async fn each_page<F, Fut>(&self, mut each: F) -> Result<i64, Status>
    where
        F: FnMut(Vec<opb::OrderFiguresEntry>) -> Fut,
        Fut: std::future::Future<Output = Result<(), Status>>,
    {
        let Sources { orders, identity, .. } = self.sources()?;
        let fetch = |after_id: i64| {
            let (mut client, request) = (
                orders.clone(),
                identity.system().request(opb::ListOrderFiguresRequest { after_id, limit: SOURCE_PAGE }),
            );
            tokio::spawn(async move { client.list_order_figures(request).await.map(|r| r.into_inner().orders) })
        };
        let (mut pending, mut count) = (Some(fetch(0)), 0);
        while let Some(reading) = pending.take() {
            let page = reading.await.map_err(|e| Status::internal(format!("reading the orders stopped: {e}")))??;
            count += page.len() as i64;
            if let (true, Some(last)) = (page.len() == SOURCE_PAGE as usize, page.last()) {
                pending = Some(fetch(last.order_id));
            }
            each(page).await?;
        }
        Ok(count)
    }
}

/// Best-selling SKUs shown unless asked otherwise, and the most asked.
pub const TOP_DEFAULT: i32 = 10;
pub const TOP_MAX: i32 = 50;
/// The longest search of sold SKUs, in characters.
pub const SEARCH_MAX: usize = 100;

fn totals(f: &Figures) -> pb::SalesTotals {
    pb::SalesTotals {
        orders: f.orders,
        cancelled: f.cancelled,
        units: f.units,
        net: f.net,
        total: f.total,
        net_ex_vat: f.net_ex_vat,
        cost: f.cost,
        profit: f.profit(),
        average: f.average(),
        shipping: f.shipping,
    }
}

fn invalid(field: &str, code: &str) -> Status {
    Error::invalid_field(field, code).into()
}

/// The period asked for (monthly when unsaid) holding `date` (today when empty).
pub(crate) fn span_of(period: pb::Period, date: &str) -> Result<Span, Status> {
    let period = match period {
        pb::Period::Daily => Period::Daily,
        pb::Period::Monthly | pb::Period::Unspecified => Period::Monthly,
        pb::Period::Quarterly => Period::Quarterly,
        pb::Period::Yearly => Period::Yearly,
    };
    let day = if date.trim().is_empty() {
        domain::day_of(now_ms())
    } else {
        domain::parse_day(date.trim()).ok_or_else(|| invalid("date", "validation.date"))?
    };
    domain::span(period, day).ok_or_else(|| invalid("date", "validation.date"))
}

fn bucket(b: Bucket) -> i32 {
    match b {
        Bucket::Day => pb::Bucket::Day,
        Bucket::Month => pb::Bucket::Month,
    }
    .into()
}

fn channel_sales(channels: &[(String, Figures)]) -> Vec<pb::ChannelSales> {
    channels.iter().map(|(c, f)| pb::ChannelSales { channel: c.clone(), totals: Some(totals(f)) }).collect()
}

fn product_sales(t: &SkuSales) -> pb::ProductSales {
    pb::ProductSales {
        sku_id: t.sku_id,
        product_id: t.product_id,
        product_name: t.product_name.clone(),
        sku_code: t.sku_code.clone(),
        variant: t.variant.clone(),
        quantity: t.units,
        net: t.net,
        profit: t.net_ex_vat - t.cost,
    }
}

fn sold_totals(t: &SoldTotals) -> pb::SoldTotals {
    pb::SoldTotals { skus: t.skus, quantity: t.units, net: t.net, profit: t.net_ex_vat - t.cost }
}

#[tonic::async_trait]
impl ReportsService for ReportsGrpc {
    async fn get_sales_summary(&self, req: Request<pb::GetSalesSummaryRequest>) -> Rpc<pb::GetSalesSummaryResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let top = match r.top {
            0 => TOP_DEFAULT,
            n if (1..=TOP_MAX).contains(&n) => n,
            _ => return Err(invalid("top", "validation.invalid")),
        };
        let span = span_of(r.period(), &r.date)?;
        let parts = match r.parts() {
            pb::SummaryParts::Unspecified => Parts::All,
            pb::SummaryParts::Channels => Parts::Channels,
            pb::SummaryParts::Totals => Parts::Totals,
        };
        let s = self.repo.summary(ctx.store_id, &span, i64::from(top), parts).await?;
        Ok(Response::new(pb::GetSalesSummaryResponse {
            from: domain::day_text(span.from),
            to: domain::day_text(span.to),
            previous_from: domain::day_text(span.previous_from),
            previous_to: domain::day_text(span.previous_to),
            current: Some(totals(&s.current)),
            previous: Some(totals(&s.previous)),
            channels: channel_sales(&s.channels),
            previous_channels: channel_sales(&s.previous_channels),
            bucket: bucket(span.bucket),
            series: s
                .series
                .iter()
                .map(|(d, f)| pb::SalesPoint { start: domain::day_text(*d), totals: Some(totals(f)) })
                .collect(),
            top_products: s.top.iter().map(product_sales).collect(),
            states: s
                .states
                .iter()
                .filter_map(|(w, n)| {
                    let state = OrderState::from_wire(w)?;
                    Some(pb::StateCount { state: state.into(), orders: *n })
                })
                .collect(),
            update_time: s.updated_at.map(ms_to_timestamp),
        }))
    }

    async fn get_sales_series(&self, req: Request<pb::GetSalesSeriesRequest>) -> Rpc<pb::GetSalesSeriesResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let mut span = span_of(r.period(), &r.date)?;
        if r.daily {
            span.bucket = Bucket::Day;
        }
        let current = self.repo.daily(ctx.store_id, span.from, span.to, span.bucket, r.by_channel).await?;
        let previous = if r.current_only {
            Vec::new()
        } else {
            self.repo.daily(ctx.store_id, span.previous_from, span.previous_to, span.bucket, r.by_channel).await?
        };
        let s = domain::series(&span, &current, &previous, r.by_channel);
        let entries = |figures: &[Figures]| -> Vec<pb::ChannelSales> {
            s.channels
                .iter()
                .zip(figures)
                .map(|(c, f)| pb::ChannelSales { channel: c.clone(), totals: Some(totals(f)) })
                .collect()
        };
        let points = s
            .points
            .iter()
            .map(|p| pb::SeriesPoint {
                start: domain::day_text(p.start),
                previous_start: if p.previous_start == 0 { String::new() } else { domain::day_text(p.previous_start) },
                current: entries(&p.current),
                previous: if r.current_only { Vec::new() } else { entries(&p.previous) },
            })
            .collect();
        Ok(Response::new(pb::GetSalesSeriesResponse {
            from: domain::day_text(span.from),
            to: domain::day_text(span.to),
            previous_from: domain::day_text(span.previous_from),
            previous_to: domain::day_text(span.previous_to),
            bucket: bucket(span.bucket),
            channels: s.channels.clone(),
            points,
            update_time: self.repo.updated_at(ctx.store_id).await?.map(ms_to_timestamp),
        }))
    }

    async fn list_sold_items(&self, req: Request<pb::ListSoldItemsRequest>) -> Rpc<pb::ListSoldItemsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let span = span_of(r.period(), &r.date)?;
        if r.search.chars().count() > SEARCH_MAX {
            return Err(invalid("search", "validation.too_long"));
        }
        let sort = match r.sort() {
            pb::SoldItemSort::Unspecified | pb::SoldItemSort::Net => SoldSort::Net,
            pb::SoldItemSort::Quantity => SoldSort::Units,
            pb::SoldItemSort::Profit => SoldSort::Profit,
        };
        let s = if r.totals_only {
            self.repo.sold_totals(ctx.store_id, &span).await?
        } else {
            self.repo.sold_items(ctx.store_id, &span, &r.search, sort, PageRequest::from(r.page)).await?
        };
        Ok(Response::new(pb::ListSoldItemsResponse {
            from: domain::day_text(span.from),
            to: domain::day_text(span.to),
            previous_from: domain::day_text(span.previous_from),
            previous_to: domain::day_text(span.previous_to),
            current: Some(sold_totals(&s.current)),
            previous: Some(sold_totals(&s.previous)),
            items: s
                .items
                .iter()
                .map(|(now, before)| pb::SoldItem {
                    current: Some(product_sales(now)),
                    previous: Some(product_sales(before)),
                    cost: now.cost,
                    net_ex_vat: now.net_ex_vat,
                })
                .collect(),
            page: s.page.map(Into::into),
            update_time: s.updated_at.map(ms_to_timestamp),
        }))
    }

    async fn get_update_time(&self, req: Request<pb::GetUpdateTimeRequest>) -> Rpc<pb::GetUpdateTimeResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        Ok(Response::new(pb::GetUpdateTimeResponse {
            update_time: self.repo.updated_at(ctx.store_id).await?.map(ms_to_timestamp),
        }))
    }

    async fn get_top_areas(&self, req: Request<pb::GetTopAreasRequest>) -> Rpc<pb::GetTopAreasResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let span = span_of(r.period(), &r.date)?;
        let top = match r.top {
            0 => TOP_DEFAULT,
            n if (1..=TOP_MAX).contains(&n) => n,
            _ => return Err(invalid("top", "validation.invalid")),
        };
        let kind = match r.kind() {
            pb::AreaKind::Unspecified => pb::AreaKind::Province,
            k => k,
        };
        let s = self.repo.top_areas(ctx.store_id, &span, kind.wire(), i64::from(top)).await?;
        let totals = |t: &AreaTotals| pb::AreaTotals { areas: t.areas, figures: Some(area_figures(&t.figures)) };
        Ok(Response::new(pb::GetTopAreasResponse {
            from: domain::day_text(span.from),
            to: domain::day_text(span.to),
            previous_from: domain::day_text(span.previous_from),
            previous_to: domain::day_text(span.previous_to),
            kind: kind.into(),
            current: Some(totals(&s.current)),
            previous: Some(totals(&s.previous)),
            areas: s
                .areas
                .iter()
                .map(|a| pb::AreaSales {
                    name: a.name.clone(),
                    parent: a.parent.clone(),
                    current: Some(area_figures(&a.current)),
                    previous: Some(area_figures(&a.previous)),
                })
                .collect(),
            update_time: s.updated_at.map(ms_to_timestamp),
        }))
    }

    async fn get_state_sales(&self, req: Request<pb::GetStateSalesRequest>) -> Rpc<pb::GetStateSalesResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let span = span_of(r.period(), &r.date)?;
        let s = self.repo.state_sales(ctx.store_id, &span).await?;
        Ok(Response::new(pb::GetStateSalesResponse {
            from: domain::day_text(span.from),
            to: domain::day_text(span.to),
            previous_from: domain::day_text(span.previous_from),
            previous_to: domain::day_text(span.previous_to),
            bucket: bucket(span.bucket),
            current: by_state(&s.current),
            previous: by_state(&s.previous),
            points: s
                .series
                .iter()
                .map(|(d, f)| pb::StateSalesPoint { start: domain::day_text(*d), states: by_state(f) })
                .collect(),
            update_time: s.updated_at.map(ms_to_timestamp),
        }))
    }

    async fn get_staff_sales(&self, req: Request<pb::GetStaffSalesRequest>) -> Rpc<pb::GetStaffSalesResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let span = span_of(r.period(), &r.date)?;
        let s = self.repo.staff(ctx.store_id, &span).await?;
        let mut who: Vec<(i64, AreaFigures, AreaFigures)> = s
            .current
            .keys()
            .chain(s.previous.keys())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .filter_map(|k| {
                let id = k.parse::<i64>().ok()?;
                let now = s.current.get(k).copied().unwrap_or_default();
                let before = s.previous.get(k).copied().unwrap_or_default();
                (now != AreaFigures::default() || before != AreaFigures::default()).then_some((id, now, before))
            })
            .collect();
        who.sort_by(|a, b| b.1.net.cmp(&a.1.net).then(b.1.orders.cmp(&a.1.orders)).then(a.0.cmp(&b.0)));
        Ok(Response::new(pb::GetStaffSalesResponse {
            from: domain::day_text(span.from),
            to: domain::day_text(span.to),
            previous_from: domain::day_text(span.previous_from),
            previous_to: domain::day_text(span.previous_to),
            staff: who
                .iter()
                .map(|(id, now, before)| pb::StaffSales {
                    user_id: *id,
                    current: Some(area_figures(now)),
                    previous: Some(area_figures(before)),
                })
                .collect(),
            update_time: s.updated_at.map(ms_to_timestamp),
        }))
    }

    async fn check_figures(&self, req: Request<pb::CheckFiguresRequest>) -> Rpc<pb::CheckFiguresResponse> {
        bo_kit::grpc::service_only(&req)?;
        let expected = std::sync::Arc::new(std::sync::Mutex::new(domain::Expected::default()));
        let orders = self
            .each_page(|page| {
                let expected = expected.clone();
                async move {
                    let mut e = expected.lock().map_err(|_| Status::internal("the check's tally broke"))?;
                    for told in page.into_iter().map(crate::told_now).filter(|t| !t.is_empty()) {
                        let (store_id, order_id) = (told[0].store_id, told[0].order_id);
                        e.add(store_id, order_id, told.into_iter().map(|t| t.change).collect());
                    }
                    Ok(())
                }
            })
            .await?;
        let expected = std::mem::take(&mut *expected.lock().map_err(|_| Status::internal("the check's tally broke"))?);
        let mut problems = domain::differences(&expected.finish(), &self.repo.tables().await?);
        problems.extend(self.repo.rollup_problems().await?);
        let charges = self.fee_charges().await?;
        problems.extend(crate::fees::differences(&crate::fees::sums(&charges), &self.repo.fee_tables().await?));
        Ok(Response::new(pb::CheckFiguresResponse { problems, orders, fee_charges: charges.len() as i64 }))
    }

    async fn rebuild_figures(&self, req: Request<pb::RebuildFiguresRequest>) -> Rpc<pb::RebuildFiguresResponse> {
        bo_kit::grpc::service_only(&req)?;
        self.repo.clear().await?;
        let repo = self.repo.clone();
        let orders = self
            .each_page(|page| {
                let repo = repo.clone();
                async move {
                    let told: Vec<_> = page.into_iter().flat_map(crate::told_now).collect();
                    let mut tx = repo.db().begin().await.map_err(bo_kit::Error::from)?;
                    Repo::apply_all(&mut tx, told).await?;
                    tx.commit().await.map_err(bo_kit::Error::from)?;
                    Ok(())
                }
            })
            .await?;
        let charges: Vec<_> = self.fee_charges().await?.into_iter().map(|c| (c, crate::REBUILD.to_string())).collect();
        for chunk in charges.chunks(SOURCE_PAGE as usize) {
            let mut tx = self.repo.db().begin().await.map_err(bo_kit::Error::from)?;
            Repo::apply_fees(&mut tx, chunk).await?;
            tx.commit().await.map_err(bo_kit::Error::from)?;
        }
        let fee_charges = charges.len() as i64;
        tracing::info!(orders, fee_charges, "rebuilt the reports' figures from the orders and the fee charges");
        Ok(Response::new(pb::RebuildFiguresResponse { orders, fee_charges }))
    }

    async fn get_fee_summary(&self, req: Request<pb::GetFeeSummaryRequest>) -> Rpc<pb::GetFeeSummaryResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let mut span = span_of(r.period(), &r.date)?;
        if r.daily {
            span.bucket = Bucket::Day;
        }
        let s = self.repo.fee_summary(ctx.store_id, &span).await?;
        let figures = |f: &crate::fees::FeeFigures| pb::FeeFigures { amounts: Some(f.amounts()), total: f.total() };
        Ok(Response::new(pb::GetFeeSummaryResponse {
            from: domain::day_text(span.from),
            to: domain::day_text(span.to),
            previous_from: domain::day_text(span.previous_from),
            previous_to: domain::day_text(span.previous_to),
            current: Some(figures(&s.current)),
            previous: Some(figures(&s.previous)),
            warehouses: s
                .warehouses
                .iter()
                .map(|(w, now, before)| pb::WarehouseFees {
                    warehouse_id: *w,
                    current: Some(figures(now)),
                    previous: Some(figures(before)),
                })
                .collect(),
            bucket: bucket(span.bucket),
            points: s
                .points
                .iter()
                .map(|(d, f)| pb::FeePoint { start: domain::day_text(*d), figures: Some(figures(f)) })
                .collect(),
            update_time: s.updated_at.map(ms_to_timestamp),
        }))
    }

    async fn produce_export(&self, req: Request<pb::ProduceExportRequest>) -> Rpc<pb::ExportResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let e = self.exports.produce(&ctx, req.into_inner()).await?;
        Ok(Response::new(pb::ExportResponse { export: Some(e.to_proto()) }))
    }

    async fn list_exports(&self, req: Request<pb::ListExportsRequest>) -> Rpc<pb::ListExportsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let (rows, page) = self.exports.list(&ctx, &kinds_of(&r.kinds), PageRequest::from(r.page)).await?;
        Ok(Response::new(pb::ListExportsResponse {
            exports: rows.iter().map(|e| e.to_proto()).collect(),
            page: Some(page.into()),
        }))
    }

    async fn get_export_file(&self, req: Request<pb::GetExportFileRequest>) -> Rpc<pb::GetExportFileResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let (key, file_name, kind) = self.exports.file(&ctx, r.id, &kinds_of(&r.kinds)).await?;
        Ok(Response::new(pb::GetExportFileResponse { key, file_name, kind: pb::ExportKind::number(kind.word()) }))
    }

    async fn get_customer_summary(
        &self,
        req: Request<pb::GetCustomerSummaryRequest>,
    ) -> Rpc<pb::GetCustomerSummaryResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let span = span_of(r.period(), &r.date)?;
        let s = self.repo.customers(ctx.store_id, &span).await?;
        Ok(Response::new(pb::GetCustomerSummaryResponse {
            from: domain::day_text(span.from),
            to: domain::day_text(span.to),
            previous_from: domain::day_text(span.previous_from),
            previous_to: domain::day_text(span.previous_to),
            current: by_kind(&s.current),
            previous: by_kind(&s.previous),
            bucket: bucket(span.bucket),
            series: s
                .series
                .iter()
                .map(|(d, f)| pb::CustomerPoint { start: domain::day_text(*d), kinds: by_kind(f) })
                .collect(),
            update_time: s.updated_at.map(ms_to_timestamp),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kinds of place the figures are kept by are the ones the contract names.
    #[test]
    fn every_kind_of_place_counted_is_an_area_kind_of_the_contract() {
        let everywhere =
            domain::Place {
                province: "ตาก".into(), district: "แม่สอด".into(), country: "TH".into(), city: "x".into()
            };
        let kinds: Vec<String> = everywhere.areas().into_iter().map(|(kind, _, _)| kind).collect();
        assert_eq!(kinds.len(), 4);
        for k in kinds {
            assert!(pb::AreaKind::from_wire(&k).is_some(), "{k}");
        }
    }

    /// The kinds of customer the figures are kept by are the ones the contract names.
    #[test]
    fn every_kind_of_customer_counted_is_a_customer_kind_of_the_contract() {
        for k in [domain::NEW, domain::RETURNING, domain::GUEST] {
            assert!(pb::CustomerKind::from_wire(k).is_some(), "{k}");
        }
    }
}
