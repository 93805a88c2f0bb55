//! The tonic service: reads the call, hands it to [`Orders`], maps back.

use bo_kit::grpc::CallCtx;
use bo_kit::paging::PageRequest;
use bo_kit::Error;
use bo_proto::orders::v1 as pb;
use bo_proto::orders::v1::orders_service_server::OrdersService;
use bo_proto::Wire as _;
use tonic::{Request, Response, Status};

use crate::convert::address_of;
use crate::domain::draft::{ItemDraft, OrderDraft};
use crate::domain::state::Action;
use crate::service::{Orders, View};
use crate::store::{Filter, Moved};

/// The orders service over gRPC.
#[derive(Clone)]
pub struct OrdersGrpc {
    orders: Orders,
}

impl OrdersGrpc {
    /// The service doing `orders`' work.
    pub fn new(orders: Orders) -> Self {
        Self { orders }
    }

    /// The work behind it (tests and tasks call it directly).
    pub fn orders(&self) -> &Orders {
        &self.orders
    }
}

type Rpc<T> = Result<Response<T>, Status>;

fn payment_input(i: Option<pb::PaymentInput>) -> crate::store::PaymentInput {
    let i = i.unwrap_or_default();
    crate::store::PaymentInput {
        store_channel_id: i.store_channel_id,
        channel_type: i.channel_type,
        attachment: i.attachment,
        note: i.note,
    }
}

impl OrdersGrpc {
    async fn bill_page(&self, token: &str) -> Result<pb::BillPageResponse, Status> {
        let (bill, order, payment) = self.orders.bill_page(token).await?;
        Ok(pb::BillPageResponse {
            store_id: bill.store_id,
            bill: Some(bill.to_proto()),
            order: Some(order),
            payment: payment.map(|p| p.to_proto()),
        })
    }
}

fn draft(d: Option<pb::OrderDraft>) -> OrderDraft {
    let d = d.unwrap_or_default();
    OrderDraft {
        channel: d.channel,
        reference: d.reference,
        note: d.note,
        warehouse_id: d.warehouse_id,
        customer_id: d.customer_id,
        customer_address_id: d.customer_address_id,
        address: address_of(d.shipping_address),
        items: d
            .items
            .into_iter()
            .map(|i| ItemDraft {
                sku_id: i.sku_id,
                quantity: i.quantity,
                price: i.price,
                warehouse_id: i.warehouse_id,
                packing_options: i.packing_options,
                note: i.note,
            })
            .collect(),
        discount_type: d.discount_type,
        discount_value: d.discount_value,
        vat_included: d.vat_included,
        logistic_store_channel_id: d.logistic_store_channel_id,
        shipping_charge: d.shipping_charge,
        additional_fee: d.additional_fee,
        cod: d.cod,
        imported: d.imported,
    }
}

fn filter(f: Option<pb::OrderFilter>) -> Filter {
    let f = f.unwrap_or_default();
    Filter {
        states: f.states().map(|s| s.wire().to_string()).filter(|s| !s.is_empty()).collect(),
        channel: f.channel.trim().to_string(),
        from_ms: f.from_ms,
        to_ms: f.to_ms,
        payment_state: f.payment_state().wire().to_string(),
        warehouse_id: f.warehouse_id,
        problem: f.problem.trim().to_string(),
        search: f.search.trim().to_string(),
        customer_id: f.customer_id,
        country: f.country.trim().to_string(),
        returns: f.returns.trim().to_string(),
    }
}

fn one(v: View) -> Response<pb::OrderResponse> {
    Response::new(pb::OrderResponse { order: Some(v.order), events: v.events, events_total: v.events_total })
}

fn results(moved: Vec<Moved>) -> Response<pb::ChangeStateResponse> {
    Response::new(pb::ChangeStateResponse {
        results: moved
            .into_iter()
            .map(|m| pb::StateResult {
                id: m.id,
                order_no: m.order_no,
                ok: m.refused.is_none(),
                reason: m.refused.map(|c| c.to_string()).unwrap_or_default(),
                state: pb::OrderState::number(&m.state),
            })
            .collect(),
    })
}

#[tonic::async_trait]
impl OrdersService for OrdersGrpc {
    async fn create_order(&self, req: Request<pb::CreateOrderRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        Ok(one(self.orders.create(&ctx, draft(req.into_inner().draft)).await?))
    }

    async fn update_order(&self, req: Request<pb::UpdateOrderRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        Ok(one(self.orders.update(&ctx, r.id, draft(r.draft), r.version).await?))
    }

    async fn get_order(&self, req: Request<pb::GetOrderRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        Ok(one(self.orders.get(&ctx, r.id, r.with_events).await?))
    }

    async fn get_orders(&self, req: Request<pb::GetOrdersRequest>) -> Rpc<pb::GetOrdersResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let ids = req.into_inner().ids;
        if ids.len() > 1000 {
            return Err(Error::invalid_field("ids", "validation.too_many").into());
        }
        Ok(Response::new(pb::GetOrdersResponse { orders: self.orders.get_many(&ctx, &ids).await? }))
    }

    async fn list_orders(&self, req: Request<pb::ListOrdersRequest>) -> Rpc<pb::ListOrdersResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let (orders, page) = self.orders.list(&ctx, &filter(r.filter), PageRequest::from(r.page)).await?;
        Ok(Response::new(pb::ListOrdersResponse { orders, page: Some(page.into()) }))
    }

    async fn count_orders(&self, req: Request<pb::CountOrdersRequest>) -> Rpc<pb::CountOrdersResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let f = filter(req.into_inner().filter);
        let counts = self.orders.repo.counts(ctx.store_id, &f).await?;
        let total = counts.values().sum();
        Ok(Response::new(pb::CountOrdersResponse { counts: counts.into_iter().collect(), total }))
    }

    async fn sum_orders(&self, req: Request<pb::CountOrdersRequest>) -> Rpc<pb::SumOrdersResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let f = filter(req.into_inner().filter);
        let (count, net, total, profit, shipping) = self.orders.repo.sums(ctx.store_id, &f).await?;
        Ok(Response::new(pb::SumOrdersResponse { count, net, total, profit, shipping }))
    }

    async fn count_countries(&self, req: Request<pb::CountOrdersRequest>) -> Rpc<pb::CountCountriesResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let f = filter(req.into_inner().filter);
        let countries = self.orders.repo.countries(ctx.store_id, &f).await?;
        Ok(Response::new(pb::CountCountriesResponse {
            countries: countries.into_iter().map(|(country, orders)| pb::CountryCount { country, orders }).collect(),
        }))
    }

    async fn change_state(&self, req: Request<pb::ChangeStateRequest>) -> Rpc<pb::ChangeStateResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let action =
            Action::parse(&r.action).ok_or_else(|| Error::invalid_field("action", "validation.order_action"))?;
        Ok(results(self.orders.change_state(&ctx, &r.ids, action, r.cause.trim(), r.reason.trim()).await?))
    }

    async fn change_shipping_address(&self, req: Request<pb::ChangeShippingAddressRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        Ok(one(self
            .orders
            .change_address(&ctx, r.id, address_of(r.address), r.customer_address_id, r.customer_id)
            .await?))
    }

    async fn clear_shipping_address(&self, req: Request<pb::GetOrderRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        Ok(one(self.orders.clear_address(&ctx, req.into_inner().id).await?))
    }

    async fn get_bill_page(&self, req: Request<pb::GetBillPageRequest>) -> Rpc<pb::BillPageResponse> {
        let token = req.into_inner().token;
        Ok(Response::new(self.bill_page(&token).await?))
    }

    async fn submit_slip(&self, req: Request<pb::SubmitSlipRequest>) -> Rpc<pb::BillPageResponse> {
        let r = req.into_inner();
        self.orders.submit_slip(&r.token, &r.upload, r.store_channel_id, &r.channel_type).await?;
        Ok(Response::new(self.bill_page(&r.token).await?))
    }

    async fn keep_attachment(&self, req: Request<pb::KeepAttachmentRequest>) -> Rpc<pb::KeepAttachmentResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        if r.r#type != "slip" {
            return Err(Error::invalid_field("type", "validation.attachment_type").into());
        }
        Ok(Response::new(pb::KeepAttachmentResponse { name: self.orders.keep_attachment(&ctx, &r.upload).await? }))
    }

    async fn import_orders(&self, req: Request<pb::ImportOrdersRequest>) -> Rpc<pb::ImportOrdersResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        Ok(Response::new(self.orders.import_orders(&ctx, &r.upload, &r.channel, r.warehouse_id, r.dry_run).await?))
    }

    async fn list_shortages(&self, req: Request<pb::ListShortagesRequest>) -> Rpc<pb::ListShortagesResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let list = self.orders.shortages(&ctx, req.into_inner().warehouse_id).await?;
        Ok(Response::new(pb::ListShortagesResponse {
            shortages: list.iter().map(crate::service::shortage_pb).collect(),
        }))
    }

    async fn receive_arrivals(&self, req: Request<pb::ReceiveArrivalsRequest>) -> Rpc<pb::ReceiveArrivalsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        Ok(Response::new(self.orders.receive_arrivals(&ctx, &r.upload, r.warehouse_id, r.dry_run).await?))
    }

    async fn get_rules(&self, _req: Request<pb::GetRulesRequest>) -> Rpc<pb::GetRulesResponse> {
        Ok(Response::new(self.orders.rules()))
    }

    async fn get_import_template(
        &self,
        req: Request<pb::GetImportTemplateRequest>,
    ) -> Rpc<pb::GetImportTemplateResponse> {
        let content =
            crate::import::template(&req.into_inner().lang).map_err(|e| Error::internal(anyhow::anyhow!(e)))?;
        Ok(Response::new(pb::GetImportTemplateResponse { content }))
    }

    async fn check_invariants(&self, req: Request<pb::CheckInvariantsRequest>) -> Rpc<pb::CheckInvariantsResponse> {
        bo_kit::grpc::service_only(&req)?;
        let problems = self.orders.check_invariants(req.into_inner().grace_ms).await?;
        Ok(Response::new(pb::CheckInvariantsResponse { problems }))
    }

    async fn take_channel_order(&self, req: Request<pb::TakeChannelOrderRequest>) -> Rpc<pb::TakeChannelOrderResponse> {
        bo_kit::grpc::service_only(&req)?;
        let ctx = CallCtx::store_scoped(&req)?;
        Ok(Response::new(self.orders.take_channel_order(&ctx, req.into_inner()).await?))
    }

    async fn link_channel_line(&self, req: Request<pb::LinkChannelLineRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        Ok(one(self.orders.link_channel_line(&ctx, r.order_id, r.item_id, r.sku_id).await?))
    }

    async fn take_channel_return(
        &self,
        req: Request<pb::TakeChannelReturnRequest>,
    ) -> Rpc<pb::TakeChannelReturnResponse> {
        bo_kit::grpc::service_only(&req)?;
        let ctx = CallCtx::store_scoped(&req)?;
        Ok(Response::new(self.orders.take_channel_return(&ctx, req.into_inner()).await?))
    }

    async fn receive_return(&self, req: Request<pb::ReceiveReturnRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        Ok(one(self.orders.receive_return(&ctx, req.into_inner()).await?))
    }

    async fn list_order_figures(&self, req: Request<pb::ListOrderFiguresRequest>) -> Rpc<pb::ListOrderFiguresResponse> {
        bo_kit::grpc::service_only(&req)?;
        let r = req.into_inner();
        let limit = match r.limit {
            0 => 500,
            n if (1..=1000).contains(&n) => i64::from(n),
            _ => return Err(bo_kit::Error::invalid_field("limit", "validation.invalid").into()),
        };
        let page = self.orders.repo.figures_page(r.after_id, limit).await?;
        let orders = page
            .into_iter()
            .map(|(row, figures)| pb::OrderFiguresEntry {
                store_id: row.store_id,
                order_id: row.id,
                state: pb::OrderState::number(&row.state),
                figures: Some(figures),
                cancel_time: (row.cancelled_at > 0).then(|| bo_kit::time::ms_to_timestamp(row.cancelled_at)),
            })
            .collect();
        Ok(Response::new(pb::ListOrderFiguresResponse { orders }))
    }

    async fn reconcile(&self, req: Request<pb::ReconcileRequest>) -> Rpc<pb::ReconcileResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let choices: Vec<(i64, i64)> = r.choices.iter().map(|c| (c.row, c.bill_id)).collect();
        Ok(Response::new(self.orders.reconcile_statement(&ctx, &r.upload, r.dry_run, &choices).await?))
    }

    async fn create_payment(&self, req: Request<pb::CreatePaymentRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        Ok(one(self.orders.create_payment(&ctx, r.order_id, r.warehouse_id, payment_input(r.input)).await?))
    }

    async fn edit_payment(&self, req: Request<pb::EditPaymentRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        Ok(one(self.orders.edit_payment(&ctx, r.order_id, r.bill_id, r.payment_id, payment_input(r.input)).await?))
    }

    async fn act_on_payment(&self, req: Request<pb::ActOnPaymentRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        // Voiding a pending payment makes it paid (SPEC §4): that takes the right to approve.
        let may_approve = bo_kit::grpc::caller_holds(&req, bo_kit::perms::keys::PAYMENT_PAYMENT_APPROVE);
        let r = req.into_inner();
        Ok(one(self.orders.act_on_payment(&ctx, r.order_id, r.bill_id, r.payment_id, &r.action, may_approve).await?))
    }

    async fn confirm_payments(&self, req: Request<pb::ConfirmPaymentsRequest>) -> Rpc<pb::ConfirmPaymentsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let results = self.orders.confirm_payments(&ctx, &r.order_ids, r.dry_run).await?;
        Ok(Response::new(pb::ConfirmPaymentsResponse {
            results: results
                .into_iter()
                .map(|c| pb::PaymentConfirmResult {
                    order_id: c.order_id,
                    order_no: c.order_no,
                    payment_id: c.payment_id,
                    bill_id: c.bill_id,
                    amount: c.amount,
                    ok: c.refused.is_none(),
                    reason: c.refused.map(|c| c.to_string()).unwrap_or_default(),
                })
                .collect(),
        }))
    }

    async fn list_payments(&self, req: Request<pb::ListPaymentsRequest>) -> Rpc<pb::ListPaymentsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let state = r.state().wire();
        let (rows, page) = self.orders.repo.list_payments(ctx.store_id, state, PageRequest::from(r.page)).await?;
        Ok(Response::new(pb::ListPaymentsResponse {
            payments: rows
                .into_iter()
                .map(|l| pb::ListedPayment {
                    order_id: l.payment.order_id,
                    payment: Some(l.payment.to_proto()),
                    order_no: l.order_no,
                    order_state: pb::OrderState::number(&l.order_state),
                    cod: l.cod != 0,
                })
                .collect(),
            page: Some(page.into()),
        }))
    }

    async fn list_orders_for_export(
        &self,
        req: Request<pb::ListOrdersForExportRequest>,
    ) -> Rpc<pb::ListOrdersForExportResponse> {
        // The reports' export builder, acting in the store of the one who asked.
        bo_kit::grpc::service_only(&req)?;
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        if !(0..=1000).contains(&r.limit) {
            return Err(bo_kit::Error::invalid_field("limit", "validation.invalid").into());
        }
        let mut states: Vec<String> = r.states().map(|s| s.wire().to_string()).filter(|s| !s.is_empty()).collect();
        states.sort();
        states.dedup();
        let (from, to) = (r.date_from_ms, r.date_to_ms);
        let total =
            if r.with_total { self.orders.repo.count_for_export(ctx.store_id, from, to, &states).await? } else { 0 };
        if r.limit == 0 {
            return Ok(Response::new(pb::ListOrdersForExportResponse { orders: Vec::new(), total }));
        }
        let page =
            self.orders.repo.export_page(ctx.store_id, from, to, &states, r.after_id, i64::from(r.limit)).await?;
        let ids: Vec<i64> = page.iter().map(|o| o.id).collect();
        let mut items = self.orders.repo.items(&ids).await?;
        let orders = page.iter().map(|o| o.to_export(&items.remove(&o.id).unwrap_or_default())).collect();
        Ok(Response::new(pb::ListOrdersForExportResponse { orders, total }))
    }

    async fn get_payment_attachment(
        &self,
        req: Request<pb::GetPaymentAttachmentRequest>,
    ) -> Rpc<pb::GetPaymentAttachmentResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let (key, content_type) = self.orders.payment_attachment(&ctx, r.order_id, r.payment_id, r.slip_id).await?;
        Ok(Response::new(pb::GetPaymentAttachmentResponse { key, content_type: content_type.into() }))
    }

    async fn renew_bill(&self, req: Request<pb::RenewBillRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        Ok(one(self.orders.renew_bill(&ctx, r.id, r.warehouse_id, r.days).await?))
    }

    async fn rotate_bill_link(&self, req: Request<pb::RotateBillLinkRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        Ok(one(self.orders.rotate_bill_link(&ctx, r.id, r.bill_id).await?))
    }

    async fn handle_out_of_stock(
        &self,
        req: Request<pb::HandleOutOfStockRequest>,
    ) -> Rpc<pb::HandleOutOfStockResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let warehouse = req.into_inner().warehouse_id;
        if warehouse <= 0 {
            return Err(Error::invalid_field("warehouse_id", "validation.required").into());
        }
        let (filled, short) = self.orders.fill(&ctx, warehouse, 0).await?;
        Ok(Response::new(pb::HandleOutOfStockResponse { filled, short }))
    }

    async fn add_parcel(&self, req: Request<pb::AddParcelRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        Ok(one(self.orders.add_parcel(&ctx, r.order_id, r.parcel.unwrap_or_default()).await?))
    }

    async fn update_parcel(&self, req: Request<pb::UpdateParcelRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        Ok(one(self.orders.update_parcel(&ctx, r.id, r.parcel.unwrap_or_default()).await?))
    }

    async fn delete_parcel(&self, req: Request<pb::DeleteParcelRequest>) -> Rpc<pb::OrderResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        Ok(one(self.orders.delete_parcel(&ctx, req.into_inner().id).await?))
    }

    async fn ship_orders(&self, req: Request<pb::ShipOrdersRequest>) -> Rpc<pb::ChangeStateResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        Ok(results(self.orders.ship(&ctx, &req.into_inner().order_ids).await?))
    }

    async fn mark_labels_printed(
        &self,
        req: Request<pb::MarkLabelsPrintedRequest>,
    ) -> Rpc<pb::MarkLabelsPrintedResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        self.orders.labels_printed(&ctx, &req.into_inner().parcel_ids).await?;
        Ok(Response::new(pb::MarkLabelsPrintedResponse {}))
    }
}
