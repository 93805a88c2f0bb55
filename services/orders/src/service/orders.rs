//! Making and changing orders: the draft built into lines, totals and bills with what
//! products, stores, logistics and wms answer; the hold of its stock; its address.

use super::*;
use bo_kit::Code;

impl Orders {
    /// Makes an order: it holds its stock, or is saved short (`stock_not_enough`).
    pub async fn create(&self, ctx: &CallCtx, d: OrderDraft) -> Result<View> {
        let d = draft::validate(d, known_channel)?;
        let data = self.build(ctx, &d, None).await?;
        let written = self.repo.insert(Self::actor(ctx), &data).await?;
        self.relay.wake();
        let id = written.row.id;
        let incomplete = !data.address.is_complete();
        let mut row = written.row;
        let settled = match self.hold(ctx, id, 1, lines_of(&data.items)).await {
            Ok(_) => Some(true),
            Err(e) if e.code == Code::InsufficientStock => Some(false),
            // The order is kept: the reconciler asks wms again.
            Err(e) => {
                tracing::warn!(order = id, error = %e, "could not hold a new order's stock yet");
                None
            }
        };
        if let Some(held) = settled {
            if self.repo.settle_new(Self::actor(ctx), id, held, incomplete).await? {
                // The answer is what was written, with the hold's outcome as settled.
                row.stock_state = if held { stock::HELD } else { stock::SHORT }.to_string();
                row.problems = crate::store::problems_text(!held, incomplete);
            } else {
                row = self.repo.order(ctx.store_id, id).await?;
            }
        }
        // A new order has no parcels yet, and its timeline is its creation.
        let mut order = row.to_proto(&written.items);
        order.bills = written.bills.iter().map(|b| b.to_proto()).collect();
        Ok(View { order, events: Vec::new(), events_total: 0 })
    }

    /// Rewrites a new order; its hold follows by the difference. When a held order's new
    /// lines cannot be held, nothing changes and the short lines are named.
    pub async fn update(&self, ctx: &CallCtx, id: i64, d: OrderDraft, version: i64) -> Result<View> {
        let row = self.repo.order(ctx.store_id, id).await?;
        if row.state != state::NEW {
            return Err(Error::failed_precondition(Code::OrderNotEditable));
        }
        if version > 0 && row.version != version {
            return Err(Error::conflict(Code::OrderChanged));
        }
        if stock::IN_FLIGHT.contains(&row.stock_state.as_str()) {
            return Err(Error::conflict(Code::OrderBusy));
        }
        let d = draft::validate(d, known_channel)?;
        let old_items = self.repo.items(&[id]).await?.remove(&id).unwrap_or_default();
        let data = self.build(ctx, &d, Some(&old_items)).await?;
        // Asked again under the order's lock when the edit is written (a slip may come between).
        let now: Vec<(i64, i64)> =
            self.repo.bills(ctx.store_id, id).await?.iter().map(|b| (b.warehouse_id, b.amount)).collect();
        if let Some(why) =
            crate::domain::payment::edit_refusal(&row.payment_state, &now, &money::bill_amounts(&data.totals))
        {
            return Err(Error::failed_precondition(why));
        }
        let was = row.stock_state.clone();
        let rev = self
            .repo
            .next_revision(ctx.store_id, id, &[stock::HELD, stock::SHORT], row.version, None)
            .await?
            .ok_or_else(|| Error::conflict(Code::OrderChanged))?;
        let detail = edit_detail(&old_items, &data.items);
        match self.hold(ctx, id, rev, lines_of(&data.items)).await {
            Ok(_) => {
                if let Err(e) = self.repo.write_edit(Self::actor(ctx), id, rev, &data, true, &detail).await {
                    if e.code == Code::OrderPaymentMade {
                        // wms holds the refused lines: it holds the order's own again.
                        let row = self.repo.order(ctx.store_id, id).await?;
                        self.reconcile_hold(ctx, &row).await?;
                    }
                    return Err(e);
                }
            }
            Err(e) if e.code == Code::InsufficientStock && was == stock::HELD => {
                self.repo.abandon_revision(ctx.store_id, id, rev, &was).await?;
                return Err(short_items(e));
            }
            Err(e) if e.code == Code::InsufficientStock => {
                if let Err(e) = self.repo.write_edit(Self::actor(ctx), id, rev, &data, false, &detail).await {
                    if e.code == Code::OrderPaymentMade {
                        self.repo.abandon_revision(ctx.store_id, id, rev, &was).await?;
                    }
                    return Err(e);
                }
            }
            Err(e) if is_definite(&e) => {
                self.repo.abandon_revision(ctx.store_id, id, rev, &was).await?;
                return Err(e);
            }
            // Unknown: the reconciler makes wms hold what the order says.
            Err(e) => return Err(e),
        }
        self.relay.wake();
        self.load(ctx, id).await
    }

    /// The store's warehouses (id, takes new stock), as wms listed them at most
    /// [`WAREHOUSES_FOR`] ago: a chat sale is written every few seconds, a warehouse opens
    /// or closes a few times a year.
    pub(super) async fn warehouses(&self, ctx: &CallCtx, fresh: bool) -> Result<Vec<(i64, bool)>> {
        if !fresh {
            if let Some(list) = self.warehouses.get(&ctx.store_id) {
                return Ok(list);
            }
        }
        let list: Vec<(i64, bool)> = self
            .clients()?
            .wms
            .clone()
            .list_warehouses(ctx.request(wpb::ListWarehousesRequest {}))
            .await
            .map_err(Error::from)?
            .into_inner()
            .warehouses
            .into_iter()
            .map(|w| (w.id, w.active))
            .collect();
        self.warehouses.put(ctx.store_id, list.clone());
        Ok(list)
    }

    pub(super) async fn hold(
        &self,
        ctx: &CallCtx,
        id: i64,
        revision: i64,
        lines: Vec<wpb::StockLine>,
    ) -> Result<wpb::HoldResponse> {
        Ok(self
            .clients()?
            .wms
            .clone()
            .hold(ctx.request(wpb::HoldRequest { reference: domain::reference(id), revision, lines }))
            .await
            .map_err(Error::from)?
            .into_inner())
    }

    /// Snapshots, address, shipping and money of a draft: what the order will keep.
    pub(super) async fn build(&self, ctx: &CallCtx, d: &OrderDraft, existing: Option<&[ItemRow]>) -> Result<OrderData> {
        let c = self.clients()?;
        // Every warehouse named is one of the store's, taking new orders (a warehouse the
        // list does not know yet is asked of wms again).
        let named: Vec<i64> = std::iter::once(d.warehouse_id).chain(d.items.iter().map(|i| i.warehouse_id)).collect();
        let mut warehouses = self.warehouses(ctx, false).await?;
        if named.iter().any(|w| !warehouses.iter().any(|(id, _)| id == w)) {
            warehouses = self.warehouses(ctx, true).await?;
        }
        let usable = |w: i64| warehouses.iter().any(|(id, active)| *id == w && *active);
        let mut errs = Vec::new();
        if !usable(d.warehouse_id) {
            errs.push(FieldError::new("warehouse_id", "validation.warehouse_unknown"));
        }
        for (i, it) in d.items.iter().enumerate() {
            if it.warehouse_id != d.warehouse_id && !usable(it.warehouse_id) {
                errs.push(FieldError::new(format!("items[{i}].warehouse_id"), "validation.warehouse_unknown"));
            }
        }
        let kept: HashMap<i64, &ItemRow> = existing.unwrap_or_default().iter().map(|i| (i.sku_id, i)).collect();
        let mut wanted: Vec<i64> = d.items.iter().map(|i| i.sku_id).filter(|s| !kept.contains_key(s)).collect();
        wanted.sort_unstable();
        wanted.dedup();
        // The SKUs (products) and the address, customer and bill terms (stores): one question
        // to each, asked at once.
        let describe = async {
            if wanted.is_empty() {
                return Ok(Vec::new());
            }
            Ok::<_, Error>(
                c.products
                    .clone()
                    .describe_skus(ctx.request(ppb::DescribeSkusRequest { ids: wanted, codes: Vec::new() }))
                    .await
                    .map_err(Error::from)?
                    .into_inner()
                    .skus,
            )
        };
        let ask_terms = async {
            Ok::<_, Error>(
                c.stores
                    .clone()
                    .get_order_terms(ctx.request(spb::GetOrderTermsRequest {
                        customer_id: d.customer_id,
                        customer_address_id: d.customer_address_id,
                    }))
                    .await
                    .map_err(Error::from)?
                    .into_inner(),
            )
        };
        let (skus, terms) = tokio::try_join!(describe, ask_terms)?;
        let described: HashMap<i64, ppb::SkuDescription> =
            skus.into_iter().map(|s| (s.sku.as_ref().map(|k| k.id).unwrap_or(0), s)).collect();
        let mut items = Vec::with_capacity(d.items.len());
        for (i, it) in d.items.iter().enumerate() {
            let base = if let Some(k) = kept.get(&it.sku_id) {
                Item { price: k.price, ..k.item() }
            } else if let Some(s) = described.get(&it.sku_id) {
                let sku = s.sku.clone().unwrap_or_default();
                if sku.status() != ppb::ProductStatus::Active || s.product_status() != ppb::ProductStatus::Active {
                    errs.push(FieldError::new(format!("items[{i}].sku_id"), "order.sku_inactive"));
                }
                let variant = [(&s.variant1, &sku.option1), (&s.variant2, &sku.option2)]
                    .iter()
                    .filter(|(n, o)| !n.is_empty() && !o.is_empty())
                    .map(|(n, o)| format!("{n}: {o}"))
                    .collect::<Vec<_>>()
                    .join(" / ");
                Item {
                    sku_id: sku.id,
                    product_id: s.product_id,
                    product_name: s.product_name.clone(),
                    product_code: s.product_code.clone(),
                    sku_code: sku.code.clone(),
                    variant,
                    price: sku.price,
                    cost: sku.cost,
                    hs_code: s.hs_code.clone(),
                    weight_g: s.weight_grams,
                    ..Default::default()
                }
            } else {
                errs.push(FieldError::new(format!("items[{i}].sku_id"), "order.sku_unknown"));
                continue;
            };
            items.push(Item {
                price: it.price.unwrap_or(base.price),
                packing_options: it.packing_options.clone(),
                note: it.note.clone(),
                warehouse_id: it.warehouse_id,
                quantity: it.quantity,
                ..base
            });
        }
        // The address (an entry of the customer's book, or as typed) and the customer.
        let mut address = d.address.clone();
        if d.customer_address_id > 0 {
            match terms.address {
                Some(a) => address = book_address(a),
                None => errs.push(FieldError::new("customer_address_id", "order.address_unknown")),
            }
        } else if d.customer_id > 0 && !terms.customer_found {
            errs.push(FieldError::new("customer_id", "order.customer_unknown"));
        }
        let setting = terms.bill_expiry.unwrap_or_default();
        let bill_terms = BillTerms {
            expiry_type: setting.expiry_type,
            on_expiry: setting.on_expiry,
            expires_at: terms.expires_at_ms,
        };
        if !errs.is_empty() {
            return Err(Error::invalid(errs));
        }
        let estimated_weight_g: i64 = items.iter().map(|i| i.weight_g.saturating_mul(i.quantity)).sum();
        let money_lines: Vec<money::Line> = items
            .iter()
            .map(|i| money::Line { price: i.price, cost: i.cost, quantity: i.quantity, warehouse_id: i.warehouse_id })
            .collect();
        let mut charges = Charges {
            discount: draft::discount(&d.discount_type, d.discount_value),
            vat_included: d.vat_included,
            shipping_charge: d.shipping_charge.unwrap_or(0),
            shipping_charge_inter: 0,
            additional_fee: d.additional_fee,
        };
        let total_of = |charges: &Charges| {
            money::totals(&money_lines, charges).map_err(|_| Error::invalid_field("items", "validation.price"))
        };
        let mut totals = total_of(&charges)?;
        let (mut shipping_name, mut shipping_provider) = (String::new(), String::new());
        if d.logistic_store_channel_id > 0 {
            let quotes = c
                .logistics
                .clone()
                .quote_shipping(ctx.request(lpb::QuoteShippingRequest {
                    warehouse_id: d.warehouse_id,
                    parcel: Some(lpb::Parcel {
                        weight_g: estimated_weight_g.max(1),
                        postcode: if address.is_international() { String::new() } else { address.postcode.clone() },
                        country: address.country.clone(),
                        order_total_satang: totals.net,
                        cod: d.cod,
                        ..Default::default()
                    }),
                }))
                .await
                .map_err(Error::from)?
                .into_inner()
                .quotes;
            let Some(q) = quotes
                .into_iter()
                .find(|q| q.store_channel.as_ref().is_some_and(|s| s.id == d.logistic_store_channel_id))
            else {
                return Err(Error::invalid_field("logistic_store_channel_id", "order.logistic_channel_unknown"));
            };
            let channel = q.store_channel.clone().unwrap_or_default();
            if d.cod && !channel.cod {
                return Err(Error::invalid_field("cod", "shipping.cod_not_offered"));
            }
            let price = match d.shipping_charge {
                Some(p) => p,
                None if q.available => q.price_satang,
                None => return Err(Error::invalid_field("logistic_store_channel_id", &q.reason)),
            };
            if channel.international {
                charges.shipping_charge = 0;
                charges.shipping_charge_inter = price;
            } else {
                charges.shipping_charge = price;
            }
            shipping_name = channel.name;
            shipping_provider = channel.provider;
            // The goods' total priced the shipping; the shipping charge joins the total.
            totals = total_of(&charges)?;
        }
        if let Some((w, _)) = money::over_limit(&totals).first() {
            let mut e = Error::new(bo_kit::error::Kind::Invalid, Code::OrderValueExceedsLimit);
            e.fields = vec![FieldError::new("items", "order.value_exceeds_limit")];
            tracing::debug!(warehouse = w, "an order over the bill limit");
            return Err(e);
        }
        Ok(OrderData {
            channel: d.channel.clone(),
            reference: d.reference.clone(),
            note: d.note.clone(),
            warehouse_id: d.warehouse_id,
            customer_id: d.customer_id,
            customer_address_id: d.customer_address_id,
            address,
            items,
            discount_type: d.discount_type.clone(),
            discount_value: d.discount_value,
            vat_included: d.vat_included,
            totals,
            logistic_store_channel_id: d.logistic_store_channel_id,
            shipping_name,
            shipping_provider,
            cod: d.cod,
            estimated_weight_g,
            imported: d.imported,
            bill_terms,
            origin: None,
        })
    }

    /// Sets an open order's shipping address (typed or from the customer's book).
    pub async fn change_address(
        &self,
        ctx: &CallCtx,
        id: i64,
        a: Address,
        book_id: i64,
        customer_id: i64,
    ) -> Result<View> {
        let row = self.repo.order(ctx.store_id, id).await?;
        let (address, customer) = if book_id > 0 {
            let customer = if customer_id > 0 { customer_id } else { row.customer_id };
            if customer == 0 {
                return Err(Error::invalid_field("customer_id", "validation.required"));
            }
            let a = self
                .clients()?
                .stores
                .clone()
                .get_address(ctx.request(spb::GetAddressRequest { customer_id: customer, id: book_id }))
                .await
                .map_err(|s| {
                    if s.code() == tonic::Code::NotFound {
                        Error::invalid_field("customer_address_id", "order.address_unknown")
                    } else {
                        s.into()
                    }
                })?
                .into_inner()
                .address
                .unwrap_or_default();
            (book_address(a), Some(customer))
        } else {
            (draft::validate_address(a)?, None)
        };
        self.repo.set_address(Self::actor(ctx), id, &address, book_id, customer, "address_changed").await?;
        self.load(ctx, id).await
    }

    /// Empties an open order's shipping address.
    pub async fn clear_address(&self, ctx: &CallCtx, id: i64) -> Result<View> {
        let blank = Address { country: "TH".into(), ..Default::default() };
        self.repo.set_address(Self::actor(ctx), id, &blank, 0, None, "address_cleared").await?;
        self.load(ctx, id).await
    }
}

/// What an edit changed in the lines, for the timeline: `A-1 2→3, +B-2 ×1, −C-3`.
fn edit_detail(before: &[ItemRow], after: &[Item]) -> String {
    let mut was: BTreeMap<&str, i64> = BTreeMap::new();
    for i in before {
        *was.entry(i.sku_code.as_str()).or_insert(0) += i.quantity;
    }
    let mut now: BTreeMap<&str, i64> = BTreeMap::new();
    for i in after {
        *now.entry(i.sku_code.as_str()).or_insert(0) += i.quantity;
    }
    let mut parts = Vec::new();
    for (code, q) in &now {
        match was.get(code) {
            None => parts.push(format!("+{code} ×{q}")),
            Some(p) if p != q => parts.push(format!("{code} {p}→{q}")),
            _ => {}
        }
    }
    for code in was.keys().filter(|c| !now.contains_key(*c)) {
        parts.push(format!("−{code}"));
    }
    parts.join(", ")
}
