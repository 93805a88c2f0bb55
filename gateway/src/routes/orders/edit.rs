//! Making and changing an order: its lines, address and what to do when stock is short.

use super::*;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_order, update_order))
        .routes(routes!(change_shipping_address))
        .routes(routes!(clear_shipping_address))
        .routes(routes!(handle_out_of_stock))
        .routes(routes!(link_line_sku))
}

/// A line as sent.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct OrderItemInput {
    pub sku_id: i64,
    pub quantity: i64,
    /// Baht; absent takes the SKU's price.
    pub price: Option<Decimal>,
    /// Absent or 0: the order's warehouse.
    pub warehouse_id: Option<i64>,
    pub packing_options: Vec<String>,
    pub note: String,
}

/// An order as sent (create, or a whole rewrite with `version`).
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct OrderInput {
    /// Channel code (GET /orders/channels).
    pub channel: String,
    /// The channel's reference (unique per channel).
    pub reference: String,
    pub note: String,
    pub warehouse_id: i64,
    pub customer_id: i64,
    /// Ship to this address of the customer's book (instead of the typed one).
    pub customer_address_id: i64,
    pub shipping_address: OrderAddressBody,
    pub items: Vec<OrderItemInput>,
    /// fixed or percent ("" for none).
    pub discount_type: String,
    /// Baht (fixed) or percent (percent), at most two decimals.
    pub discount_value: Option<Decimal>,
    /// Prices include VAT (default true).
    pub vat_included: Option<bool>,
    /// Shipping channel (GET /logistics/store-channels).
    pub logistic_store_channel_id: i64,
    /// Baht; absent prices it with the channel.
    pub shipping_charge: Option<Decimal>,
    /// Baht.
    pub additional_fee: Option<Decimal>,
    /// Cash on delivery.
    pub cod: bool,
    /// The version read (edits only; 0 does not check).
    pub version: i64,
}

impl OrderInput {
    fn into_proto(self) -> ApiResult<pb::OrderDraft> {
        let mut errs = Vec::new();
        fn money(errs: &mut Vec<bo_kit::FieldError>, field: String, v: &Option<Decimal>) -> Option<i64> {
            let v = v.as_ref()?;
            let s = v.satang();
            if s.is_none() {
                errs.push(bo_kit::FieldError::new(field, "validation.price"));
            }
            s
        }
        let items: Vec<pb::ItemDraft> = self
            .items
            .iter()
            .enumerate()
            .map(|(i, it)| pb::ItemDraft {
                sku_id: it.sku_id,
                quantity: it.quantity,
                price: money(&mut errs, format!("items[{i}].price"), &it.price),
                warehouse_id: it.warehouse_id.unwrap_or(0),
                packing_options: it.packing_options.clone(),
                note: it.note.clone(),
            })
            .collect();
        let discount_value = if self.discount_type == PERCENT {
            match &self.discount_value {
                None => 0,
                Some(v) => match v.satang() {
                    Some(bp) => bp,
                    None => {
                        errs.push(bo_kit::FieldError::new("discount_value", "validation.percent"));
                        0
                    }
                },
            }
        } else {
            money(&mut errs, "discount_value".into(), &self.discount_value).unwrap_or(0)
        };
        let shipping_charge = money(&mut errs, "shipping_charge".into(), &self.shipping_charge);
        let additional_fee = money(&mut errs, "additional_fee".into(), &self.additional_fee).unwrap_or(0);
        if !errs.is_empty() {
            return Err(bo_kit::Error::invalid(errs).into());
        }
        Ok(pb::OrderDraft {
            channel: self.channel,
            reference: self.reference,
            note: self.note,
            warehouse_id: self.warehouse_id,
            customer_id: self.customer_id,
            customer_address_id: self.customer_address_id,
            shipping_address: Some(self.shipping_address.into_proto()),
            items,
            discount_type: self.discount_type,
            discount_value,
            vat_included: self.vat_included.unwrap_or(true),
            logistic_store_channel_id: self.logistic_store_channel_id,
            shipping_charge,
            additional_fee,
            cod: self.cod,
            imported: false,
        })
    }
}

/// Makes an order. It holds its stock in its warehouse; when stock is short it is still
/// saved, as new with the problem stock_not_enough, and cannot be prepared until filled.
#[utoipa::path(post, path = "/orders", tag = "orders", request_body = OrderInput,
    responses((status = 201, body = OrderBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "duplicate_order_reference"),
        (status = 422, body = ErrorBody, description = "validation_failed, order_value_exceeds_limit")),
    security(("bearer" = [])))]
pub(super) async fn create_order(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OrderInput>,
) -> ApiResult<(StatusCode, Json<OrderBody>)> {
    auth.require(CREATE)?;
    let draft = b.into_proto()?;
    let r = state
        .orders()
        .create_order(auth.ctx().request(pb::CreateOrderRequest { draft: Some(draft) }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(one_order(&state, &auth, r).await?)))
}

/// One order with its lines, money, parcels, tracking and timeline.
#[utoipa::path(get, path = "/orders/{id}", tag = "orders", params(("id" = i64, Path)),
    responses((status = 200, body = OrderBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn get_order(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(READ)?;
    let r =
        state.orders().get_order(auth.ctx().request(pb::GetOrderRequest { id, with_events: true })).await?.into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// Rewrites a new order (its lines, address, discount, shipping). Its stock hold follows by
/// the difference; if a held order's new lines cannot be held, nothing changes and the
/// short lines are named (409 insufficient_stock).
#[utoipa::path(patch, path = "/orders/{id}", tag = "orders", params(("id" = i64, Path)), request_body = OrderInput,
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "order_not_editable, order_changed, insufficient_stock, duplicate_order_reference"),
        (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn update_order(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<OrderInput>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(EDIT)?;
    let version = b.version;
    let draft = b.into_proto()?;
    let r = state
        .orders()
        .update_order(auth.ctx().request(pb::UpdateOrderRequest { id, draft: Some(draft), version }))
        .await?
        .into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// A new shipping address: typed, or an entry of the customer's book.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ShippingAddressInput {
    /// The typed address.
    pub shipping_address: OrderAddressBody,
    /// Or this entry of the customer's book.
    pub customer_address_id: i64,
    /// The customer whose book it is (0: the order's).
    pub customer_id: i64,
}

/// Changes an open order's shipping address; the order is flagged as changed.
#[utoipa::path(post, path = "/orders/{id}/shipping-address/change", tag = "orders", params(("id" = i64, Path)),
    request_body = ShippingAddressInput,
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "order_not_editable"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn change_shipping_address(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<ShippingAddressInput>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(EDIT)?;
    let r = state
        .orders()
        .change_shipping_address(auth.ctx().request(pb::ChangeShippingAddressRequest {
            id,
            address: Some(b.shipping_address.into_proto()),
            customer_address_id: b.customer_address_id,
            customer_id: b.customer_id,
        }))
        .await?
        .into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// Empties an open order's shipping address (it then cannot be prepared until one is set).
#[utoipa::path(post, path = "/orders/{id}/shipping-address/clear", tag = "orders", params(("id" = i64, Path)),
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "order_not_editable")),
    security(("bearer" = [])))]
pub(super) async fn clear_shipping_address(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(EDIT)?;
    let r = state
        .orders()
        .clear_shipping_address(auth.ctx().request(pb::GetOrderRequest { id, with_events: true }))
        .await?
        .into_inner();
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// The SKU a marketplace line is.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct LineSkuInput {
    pub sku_id: i64,
}

/// Gives a new marketplace order's line that matched none of our SKUs one of them: the line
/// holds its stock at once, and the shop's listing is linked to the SKU for its next orders
/// (and its stock pushed from now on).
#[utoipa::path(post, path = "/orders/{id}/items/{item_id}/sku", tag = "orders",
    params(("id" = i64, Path), ("item_id" = i64, Path)), request_body = LineSkuInput,
    responses((status = 200, body = OrderBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "order_not_editable, order_busy"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn link_line_sku(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, item_id)): Path<(i64, i64)>,
    Body(b): Body<LineSkuInput>,
) -> ApiResult<Json<OrderBody>> {
    auth.require(EDIT)?;
    let r = state
        .orders()
        .link_channel_line(auth.ctx().request(pb::LinkChannelLineRequest { order_id: id, item_id, sku_id: b.sku_id }))
        .await?
        .into_inner();
    if let Some(o) = r.order.as_ref().filter(|o| o.store_channel_id > 0) {
        if let Some(line) = o.items.iter().find(|i| i.id == item_id && !i.listing.is_empty()) {
            let link = bo_proto::marketplaces::v1::LinkListingRequest {
                store_channel_id: o.store_channel_id,
                listing: line.listing.clone(),
                seller_sku: String::new(),
                sku_id: b.sku_id,
            };
            // The order is linked whatever becomes of the listing's link (a shop removed since).
            if let Err(e) = state
                .client(bo_proto::marketplaces::v1::marketplaces_service_client::MarketplacesServiceClient::new)?
                .link_listing(auth.ctx().request(link))
                .await
            {
                tracing::info!(order = id, error = %e.message(), "a marketplace listing was not linked");
            }
        }
    }
    Ok(Json(one_order(&state, &auth, r).await?))
}

/// Which warehouse's short orders to fill.
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct OutOfStockInput {
    /// One warehouse at a time (SPEC §5).
    pub warehouse_id: i64,
}

/// What filling short orders did.
#[derive(Debug, Serialize, ToSchema)]
pub struct OutOfStockBody {
    /// Orders that now hold their stock.
    pub filled: Vec<i64>,
    /// Orders still short.
    pub short: Vec<i64>,
}

/// Fills the short orders of one warehouse, oldest first, from what is available now: each
/// takes all its lines or stays short.
#[utoipa::path(post, path = "/orders/handle-out-of-stock", tag = "orders", request_body = OutOfStockInput,
    responses((status = 200, body = OutOfStockBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn handle_out_of_stock(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<OutOfStockInput>,
) -> ApiResult<Json<OutOfStockBody>> {
    auth.require(EDIT)?;
    let r = state
        .orders()
        .handle_out_of_stock(auth.ctx().request(pb::HandleOutOfStockRequest { warehouse_id: b.warehouse_id }))
        .await?
        .into_inner();
    Ok(Json(OutOfStockBody { filled: r.filled, short: r.short }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_are_percent_with_two_decimals() {
        assert_eq!(margin(2_500, 10_000), "25.00");
        assert_eq!(margin(1, 3), "33.33");
        assert_eq!(margin(2, 3), "66.67");
        assert_eq!(margin(-2, 3), "-66.67");
        assert_eq!(margin(5, 0), "");
    }

    #[test]
    fn days_are_read_in_thailand() {
        // 2026-11-25 00:00 in Bangkok is 2026-11-24 17:00 UTC.
        assert_eq!(moment("d", "2026-11-25", false).unwrap(), 1_795_539_600_000);
        assert_eq!(moment("d", "2026-11-25", true).unwrap(), 1_795_539_600_000 + 86_400_000);
        assert!(moment("d", "25/11/2026", false).is_err());
        assert_eq!(moment("d", "2026-11-25T00:00:00Z", false).unwrap(), 1_795_564_800_000);
    }
}
