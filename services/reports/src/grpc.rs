//! The tonic service: reads the call, checks it (`domain`), reads the storage, maps back.

use bo_kit::grpc::CallCtx;
use bo_kit::time::{ms_to_timestamp, now_ms};
use bo_kit::Error;
use bo_proto::orders::v1::OrderState;
use bo_proto::reports::v1 as pb;
use bo_proto::reports::v1::reports_service_server::ReportsService;
use bo_proto::Wire as _;
use tonic::{Request, Response, Status};

use crate::domain::{self, Bucket, Figures, Period};
use crate::store::Repo;

/// The reports service.
#[derive(Clone)]
pub struct ReportsGrpc {
    repo: Repo,
}

type Rpc<T> = Result<Response<T>, Status>;

impl ReportsGrpc {
    /// The service on `repo`.
    pub fn new(repo: Repo) -> Self {
        Self { repo }
    }
}

/// Best-selling SKUs shown unless asked otherwise, and the most asked.
pub const TOP_DEFAULT: i32 = 10;
pub const TOP_MAX: i32 = 50;

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

#[tonic::async_trait]
impl ReportsService for ReportsGrpc {
    async fn get_sales_summary(&self, req: Request<pb::GetSalesSummaryRequest>) -> Rpc<pb::GetSalesSummaryResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let period = match r.period() {
            pb::Period::Daily => Period::Daily,
            pb::Period::Monthly | pb::Period::Unspecified => Period::Monthly,
            pb::Period::Quarterly => Period::Quarterly,
            pb::Period::Yearly => Period::Yearly,
        };
        let day = if r.date.trim().is_empty() {
            domain::day_of(now_ms())
        } else {
            domain::parse_day(r.date.trim()).ok_or_else(|| invalid("date", "validation.date"))?
        };
        let top = match r.top {
            0 => TOP_DEFAULT,
            n if (1..=TOP_MAX).contains(&n) => n,
            _ => return Err(invalid("top", "validation.invalid")),
        };
        let span = domain::span(period, day).ok_or_else(|| invalid("date", "validation.date"))?;
        let s = self.repo.summary(ctx.store_id, &span, i64::from(top)).await?;
        Ok(Response::new(pb::GetSalesSummaryResponse {
            from: domain::day_text(span.from),
            to: domain::day_text(span.to),
            previous_from: domain::day_text(span.previous_from),
            previous_to: domain::day_text(span.previous_to),
            current: Some(totals(&s.current)),
            previous: Some(totals(&s.previous)),
            channels: s
                .channels
                .iter()
                .map(|(c, f)| pb::ChannelSales { channel: c.clone(), totals: Some(totals(f)) })
                .collect(),
            bucket: match span.bucket {
                Bucket::Day => pb::Bucket::Day,
                Bucket::Month => pb::Bucket::Month,
            }
            .into(),
            series: s
                .series
                .iter()
                .map(|(d, f)| pb::SalesPoint { start: domain::day_text(*d), totals: Some(totals(f)) })
                .collect(),
            top_products: s
                .top
                .iter()
                .map(|t| pb::ProductSales {
                    sku_id: t.sku_id,
                    product_id: t.product_id,
                    product_name: t.product_name.clone(),
                    sku_code: t.sku_code.clone(),
                    variant: t.variant.clone(),
                    quantity: t.units,
                    net: t.net,
                    profit: t.net_ex_vat - t.cost,
                })
                .collect(),
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
}
