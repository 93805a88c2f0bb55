//! Orders taken in from marketplace shops (the marketplaces service hands them over): made
//! the first time one is seen, holding the stock of its lines that match our SKUs, then moved
//! along as the marketplace moves it. Keyed by channel and number, so a repeat finds the
//! order it made; a change no newer than the one followed changes nothing.

use super::*;
use bo_kit::Code;
use bo_proto::Wire as _;

/// The most lines of a marketplace order, and the longest texts it brings.
const NAME_MAX: usize = 300;
const SELLER_SKU_MAX: usize = 100;
const LISTING_MAX: usize = 100;
const SHOP_MAX: usize = 200;

/// What a marketplace order says, checked.
#[derive(Debug, Clone)]
struct Taken {
    store_channel_id: i64,
    shop: String,
    channel: String,
    reference: String,
    changed_at: i64,
    state: &'static str,
    payment: pb::ChannelPayment,
    status_word: String,
    cod: bool,
    warehouse_id: i64,
    address: Address,
    lines: Vec<pb::ChannelLine>,
    shipping_charge: i64,
    discount: i64,
    note: String,
    platform_ships: bool,
    logistic_store_channel_id: i64,
    strict_skus: bool,
}

fn too_long(s: &str, max: usize) -> bool {
    s.chars().count() > max
}

/// Checks what the marketplaces service sent, every broken rule at once. The address is
/// kept as the marketplace gives it (often masked): it never refuses an order.
fn check(r: pb::TakeChannelOrderRequest) -> Result<Taken> {
    let mut errs = Vec::new();
    let channel = r.channel.trim().to_string();
    let known = if r.source() == pb::ChannelSource::OpenApi {
        super::known_channel(&channel) && !marketplace_channel(&channel)
    } else {
        marketplace_channel(&channel)
    };
    if !known {
        errs.push(FieldError::new("channel", "validation.channel_unknown"));
    }
    if r.logistic_store_channel_id < 0 {
        errs.push(FieldError::new("logistic_store_channel_id", "validation.invalid"));
    }
    let reference = r.reference.trim().to_string();
    if reference.is_empty() {
        errs.push(FieldError::new("reference", "validation.required"));
    } else if too_long(&reference, draft::REFERENCE_MAX) {
        errs.push(FieldError::new("reference", "validation.too_long"));
    }
    if r.store_channel_id <= 0 {
        errs.push(FieldError::new("store_channel_id", "validation.required"));
    }
    let state = match pb::OrderState::try_from(r.state).ok().filter(|s| *s != pb::OrderState::Unspecified) {
        Some(s) => s.wire(),
        None => {
            errs.push(FieldError::new("state", "validation.invalid"));
            state::NEW
        }
    };
    let payment = pb::ChannelPayment::try_from(r.payment).unwrap_or(pb::ChannelPayment::Unspecified);
    if r.lines.is_empty() {
        errs.push(FieldError::new("lines", "validation.required"));
    } else if r.lines.len() > draft::MAX_ITEMS {
        errs.push(FieldError::new("lines", "validation.too_many"));
    }
    let mut lines = r.lines;
    for (i, l) in lines.iter_mut().enumerate() {
        let at = |f: &str| format!("lines[{i}].{f}");
        l.seller_sku = l.seller_sku.trim().to_string();
        l.name = l.name.trim().to_string();
        if l.quantity <= 0 || l.quantity > draft::MAX_QUANTITY {
            errs.push(FieldError::new(at("quantity"), "validation.quantity"));
        }
        if !(0..=draft::MAX_PRICE).contains(&l.unit_price) {
            errs.push(FieldError::new(at("unit_price"), "validation.price"));
        }
        if too_long(&l.name, NAME_MAX) || too_long(&l.seller_sku, SELLER_SKU_MAX) || too_long(&l.listing, LISTING_MAX) {
            errs.push(FieldError::new(at("name"), "validation.too_long"));
        }
    }
    for (field, v) in [("shipping_charge", r.shipping_charge), ("discount", r.discount)] {
        if !(0..=draft::MAX_CHARGE).contains(&v) {
            errs.push(FieldError::new(field, "validation.price"));
        }
    }
    if !errs.is_empty() {
        return Err(Error::invalid(errs));
    }
    // Marketplaces mask phones and write addresses their own way: what reads is normalised,
    // the rest kept as it came (the order then shows its address as incomplete).
    let mut ignored = Vec::new();
    let address = crate::convert::address_of(r.address).normalise("shipping_address.", &mut ignored);
    let clip = |s: String, max: usize| s.trim().chars().take(max).collect::<String>();
    Ok(Taken {
        store_channel_id: r.store_channel_id,
        shop: clip(r.shop_name, SHOP_MAX),
        channel,
        reference,
        changed_at: r.changed_at_ms.max(0),
        state,
        payment,
        status_word: clip(r.status_word, 100),
        cod: r.cod,
        warehouse_id: r.warehouse_id,
        address,
        lines,
        shipping_charge: r.shipping_charge,
        discount: r.discount,
        note: clip(r.note, draft::NOTE_MAX),
        platform_ships: r.platform_ships,
        logistic_store_channel_id: r.logistic_store_channel_id,
        strict_skus: r.strict_skus,
    })
}

/// A SKU's snapshot as a marketplace line keeps it (its price is the marketplace's).
fn snapshot(d: &ppb::SkuDescription, warehouse_id: i64) -> Item {
    let sku = d.sku.clone().unwrap_or_default();
    Item {
        sku_id: sku.id,
        product_id: d.product_id,
        product_name: d.product_name.clone(),
        product_code: d.product_code.clone(),
        sku_code: sku.code.clone(),
        variant: [&sku.option1, &sku.option2]
            .iter()
            .filter(|o| !o.is_empty())
            .map(|o| o.as_str())
            .collect::<Vec<_>>()
            .join(" / "),
        cost: sku.cost,
        hs_code: d.hs_code.clone(),
        warehouse_id,
        weight_g: d.weight_grams,
        ..Default::default()
    }
}

impl Orders {
    /// Gives a new marketplace order's unlinked line one of our SKUs: the line becomes that
    /// SKU's and the order holds every linked line at once (or is saved short).
    pub async fn link_channel_line(&self, ctx: &CallCtx, order_id: i64, item_id: i64, sku_id: i64) -> Result<View> {
        let row = self.repo.order(ctx.store_id, order_id).await?;
        if row.store_channel_id == 0 || row.state != state::NEW {
            return Err(Error::failed_precondition(Code::OrderNotEditable));
        }
        let items = self.repo.items(&[order_id]).await?.remove(&order_id).unwrap_or_default();
        let Some(line) = items.iter().find(|i| i.id == item_id && i.sku_id == 0) else {
            return Err(Error::invalid_field("item_id", "validation.invalid"));
        };
        let described = self
            .clients()?
            .products
            .clone()
            .describe_skus(ctx.request(ppb::DescribeSkusRequest { ids: vec![sku_id], codes: Vec::new() }))
            .await
            .map_err(Error::from)?
            .into_inner()
            .skus;
        let Some(d) = described.iter().find(|d| d.sku.as_ref().is_some_and(|s| s.id == sku_id)) else {
            return Err(Error::invalid_field("sku_id", "order.sku_unknown"));
        };
        let linked = Item {
            price: line.price,
            quantity: line.quantity,
            listing: line.listing.clone(),
            ..snapshot(d, line.warehouse_id)
        };
        let Some(rev) = self.repo.next_revision(ctx.store_id, order_id, &[stock::HELD, stock::SHORT], 0, None).await?
        else {
            return Err(Error::conflict(Code::OrderBusy));
        };
        let lines: Vec<Item> = items.iter().map(|i| if i.id == item_id { linked.clone() } else { i.item() }).collect();
        let held = match self.hold(ctx, order_id, rev, lines_of(&lines)).await {
            Ok(_) => true,
            Err(e) if e.code == Code::InsufficientStock => false,
            Err(e) if is_definite(&e) => {
                self.repo.abandon_revision(ctx.store_id, order_id, rev, &row.stock_state).await?;
                return Err(e);
            }
            // Unknown: the reconciler makes wms hold what the order says once it is written.
            Err(e) => return Err(e),
        };
        // The money in its one place: the prices stay, the cost is the SKU's.
        let discount = if row.discount_type == draft::FIXED {
            money::Discount::Fixed(row.discount_value)
        } else {
            money::Discount::None
        };
        let charges = Charges {
            discount,
            vat_included: row.vat_included != 0,
            shipping_charge: row.shipping_charge,
            shipping_charge_inter: row.shipping_charge_inter,
            additional_fee: row.additional_fee,
        };
        let money_lines: Vec<money::Line> = lines
            .iter()
            .map(|i| money::Line { price: i.price, cost: i.cost, quantity: i.quantity, warehouse_id: i.warehouse_id })
            .collect();
        let totals =
            money::totals(&money_lines, &charges).map_err(|_| Error::invalid_field("sku_id", "validation.price"))?;
        self.repo.link_line(Self::actor(ctx), order_id, item_id, &linked, &totals).await?;
        self.repo.settle_hold(Self::actor(ctx), order_id, rev, held, false).await?;
        self.relay.wake();
        self.load(ctx, order_id).await
    }

    /// Takes in a marketplace order: makes it, or moves the one made before.
    pub async fn take_channel_order(
        &self,
        ctx: &CallCtx,
        r: pb::TakeChannelOrderRequest,
    ) -> Result<pb::TakeChannelOrderResponse> {
        let with_order = r.with_order;
        let t = check(r)?;
        let (row, outcome, written) = match self.repo.by_reference(ctx.store_id, &t.channel, &t.reference).await? {
            Some(row) => self.follow_channel(ctx, row, &t, false).await?.taken(),
            None => match self.make_channel_order(ctx, &t).await {
                Ok(written) => {
                    let followed = self.follow_channel(ctx, written.row.clone(), &t, true).await?;
                    // Nothing written since it was made: the answer is what was written.
                    let as_written = followed.as_given.then_some(written);
                    (followed.row, followed.outcome, as_written)
                }
                // Made meanwhile by the same change arriving twice at once.
                Err(e) if e.code == Code::DuplicateOrderReference => {
                    let row = self
                        .repo
                        .by_reference(ctx.store_id, &t.channel, &t.reference)
                        .await?
                        .ok_or_else(|| Error::conflict(Code::OrderBusy))?;
                    self.follow_channel(ctx, row, &t, false).await?.taken()
                }
                Err(e) => return Err(e),
            },
        };
        // The order's lines are the request's, in its order.
        let (line_sku_ids, order) = if let (true, Some(w)) = (with_order, &written) {
            // A new order has no parcels, payments or returns yet.
            let mut order = w.row.to_proto(&w.items);
            order.bills = w.bills.iter().map(|b| b.to_proto()).collect();
            (order.items.iter().map(|i| i.sku_id).collect(), Some(order))
        } else if with_order {
            let order = self.get(ctx, row.id, false).await?.order;
            (order.items.iter().map(|i| i.sku_id).collect(), Some(order))
        } else if let Some(w) = &written {
            (w.items.iter().map(|i| i.sku_id).collect(), None)
        } else {
            let items = self.repo.items(&[row.id]).await?.remove(&row.id).unwrap_or_default();
            (items.iter().map(|i| i.sku_id).collect(), None)
        };
        Ok(pb::TakeChannelOrderResponse {
            order_id: row.id,
            order_no: row.order_no.clone(),
            outcome: outcome as i32,
            state: pb::OrderState::number(&row.state),
            line_sku_ids,
            order,
        })
    }

    /// Makes a marketplace order as new, its lines matched to our SKUs by seller SKU, and
    /// holds the stock of the matched ones (or saves it short).
    async fn make_channel_order(&self, ctx: &CallCtx, t: &Taken) -> Result<crate::store::Written> {
        let warehouses = self.warehouses(ctx, false).await?;
        let warehouse_id = if warehouses.iter().any(|(id, _)| *id == t.warehouse_id) {
            t.warehouse_id
        } else {
            // A shop whose warehouse is not set (or gone) takes from the store's first one.
            warehouses
                .iter()
                .find(|(_, active)| *active)
                .or(warehouses.first())
                .map(|(id, _)| *id)
                .ok_or_else(|| Error::invalid_field("warehouse_id", "validation.warehouse_unknown"))?
        };
        // Lines of a listing someone linked come as its SKU; the others are matched by code.
        let mut ids: Vec<i64> = t.lines.iter().map(|l| l.sku_id).filter(|id| *id > 0).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut codes: Vec<String> =
            t.lines.iter().filter(|l| l.sku_id <= 0).map(|l| l.seller_sku.clone()).filter(|c| !c.is_empty()).collect();
        codes.sort();
        codes.dedup();
        let described = if codes.is_empty() && ids.is_empty() {
            Vec::new()
        } else {
            self.clients()?
                .products
                .clone()
                .describe_skus(ctx.request(ppb::DescribeSkusRequest { ids, codes }))
                .await
                .map_err(Error::from)?
                .into_inner()
                .skus
        };
        let sku_of = |d: &ppb::SkuDescription| d.sku.clone().unwrap_or_default();
        let matches = |l: &pb::ChannelLine, d: &ppb::SkuDescription| {
            let sku = sku_of(d);
            if l.sku_id > 0 {
                sku.id == l.sku_id
            } else {
                !l.seller_sku.is_empty() && sku.code == l.seller_sku
            }
        };
        if t.strict_skus {
            // An integrator's lines name our SKUs: one that names none refuses the order.
            let errs: Vec<FieldError> = t
                .lines
                .iter()
                .enumerate()
                .filter(|(_, l)| !described.iter().any(|d| matches(l, d)))
                .map(|(i, l)| {
                    if l.listing.is_empty() {
                        FieldError::new(format!("lines[{i}].sku_code"), "validation.sku_unknown")
                    } else {
                        FieldError::new(format!("lines[{i}].external_id"), "validation.external_id_unlinked")
                    }
                })
                .collect();
            if !errs.is_empty() {
                return Err(Error::invalid(errs));
            }
        }
        let items: Vec<Item> = t
            .lines
            .iter()
            .map(|l| {
                let found = described.iter().find(|d| matches(l, d));
                match found {
                    Some(d) => Item {
                        price: l.unit_price,
                        quantity: l.quantity,
                        listing: l.listing.clone(),
                        ..snapshot(d, warehouse_id)
                    },
                    // Sold as a listing none of our SKUs matches: kept as sold, holding nothing.
                    None => Item {
                        sku_id: 0,
                        product_name: if l.name.is_empty() { l.seller_sku.clone() } else { l.name.clone() },
                        sku_code: l.seller_sku.clone(),
                        price: l.unit_price,
                        warehouse_id,
                        quantity: l.quantity,
                        listing: l.listing.clone(),
                        ..Default::default()
                    },
                }
            })
            .collect();
        let money_lines: Vec<money::Line> = items
            .iter()
            .map(|i| money::Line { price: i.price, cost: i.cost, quantity: i.quantity, warehouse_id: i.warehouse_id })
            .collect();
        let discount = if t.discount > 0 { money::Discount::Fixed(t.discount) } else { money::Discount::None };
        let charges = Charges {
            discount,
            // Marketplace prices are what the buyer pays, VAT included.
            vat_included: true,
            shipping_charge: t.shipping_charge,
            shipping_charge_inter: 0,
            additional_fee: 0,
        };
        let totals =
            money::totals(&money_lines, &charges).map_err(|_| Error::invalid_field("lines", "validation.price"))?;
        // An open-API channel's orders ship by its shipping channel: named as it is now.
        let (shipping_name, shipping_provider) = self.shipping_channel(ctx, t.logistic_store_channel_id).await?;
        let data = OrderData {
            channel: t.channel.clone(),
            reference: t.reference.clone(),
            note: t.note.clone(),
            warehouse_id,
            logistic_store_channel_id: t.logistic_store_channel_id,
            shipping_name,
            shipping_provider,
            address: t.address.clone(),
            discount_type: if t.discount > 0 { draft::FIXED.into() } else { String::new() },
            discount_value: t.discount,
            vat_included: true,
            totals,
            cod: t.cod,
            estimated_weight_g: items.iter().map(|i| i.weight_g.saturating_mul(i.quantity)).sum(),
            items,
            // The change is recorded once the order has reached where it says (below); a new
            // one with no word of the channel's to note is there once written.
            origin: Some(crate::store::ChannelOrigin {
                store_channel_id: t.store_channel_id,
                shop: t.shop.clone(),
                changed_at: if recorded_at_insert(t) { t.changed_at } else { 0 },
                paid: t.payment == pb::ChannelPayment::Paid,
                platform_ships: t.platform_ships,
            }),
            ..Default::default()
        };
        let mut written = self.repo.insert(Self::actor(ctx), &data).await?;
        self.relay.wake();
        let id = written.row.id;
        let held = match self.hold(ctx, id, 1, lines_of(&data.items)).await {
            Ok(_) => Some(true),
            Err(e) if e.code == Code::InsufficientStock => Some(false),
            Err(e) => {
                tracing::warn!(order = id, error = %e, "could not hold a marketplace order's stock yet");
                None
            }
        };
        if let Some(held) = held {
            let incomplete = !data.address.is_complete();
            if self.repo.settle_new(Self::actor(ctx), id, held, incomplete).await? {
                // As written, with the hold's outcome as settled.
                written.row.stock_state = if held { stock::HELD } else { stock::SHORT }.to_string();
                written.row.problems = crate::store::problems_text(!held, incomplete);
            } else {
                written.row = self.repo.order(ctx.store_id, id).await?;
            }
        }
        Ok(written)
    }

    /// A shipping channel's name and provider as logistics has them (lately: a channel's
    /// orders come in bursts), nothing for none.
    async fn shipping_channel(&self, ctx: &CallCtx, id: i64) -> Result<(String, String)> {
        if id <= 0 {
            return Ok(Default::default());
        }
        if let Some(named) = self.shipping.get(&(ctx.store_id, id)) {
            return Ok(named);
        }
        let found = self
            .clients()?
            .logistics
            .clone()
            .get_store_channel(
                ctx.request(lpb::GetStoreChannelRequest { r#ref: Some(lpb::ChannelRef { id, ..Default::default() }) }),
            )
            .await
            .map_err(Error::from)?
            .into_inner()
            .store_channel
            .unwrap_or_default();
        let named = (found.name, found.provider);
        self.shipping.put((ctx.store_id, id), named.clone());
        Ok(named)
    }

    /// Moves a marketplace order to where the marketplace has it and records the change
    /// followed. A change no newer than the one followed changes nothing; a move the order
    /// cannot make now (its stock is short or still settling) is left for the next change or
    /// poll, which finds the change not yet followed.
    async fn follow_channel(&self, ctx: &CallCtx, row: OrderRow, t: &Taken, created: bool) -> Result<Followed> {
        if !created && row.channel_changed_at >= t.changed_at {
            let outcome = if row.channel_changed_at == t.changed_at {
                pb::ChannelTake::Unchanged
            } else {
                pb::ChannelTake::Stale
            };
            return Ok(Followed { row, outcome, as_given: true });
        }
        let who = Self::actor(ctx);
        if (row.platform_ships != 0) != t.platform_ships {
            self.repo.set_platform_ships(ctx.store_id, row.id, t.platform_ships).await?;
        }
        let paid_now = t.payment == pb::ChannelPayment::Paid && row.payment_state == crate::domain::payment::UNPAID;
        if paid_now {
            self.repo.mark_paid_at_channel(who, row.id, &t.status_word).await?;
        }
        let mut reached = true;
        let steps = state::channel_steps(&row.state, t.state);
        for action in steps.iter().copied() {
            if !self.channel_step(ctx, row.id, action, &t.status_word).await? {
                reached = false;
                break;
            }
        }
        let at_insert = created && recorded_at_insert(t) && row.channel_changed_at >= t.changed_at;
        if reached && !at_insert {
            // A move made tells the marketplace's word in its own event: one line each.
            self.repo.follow_channel(who, row.id, t.changed_at, &t.status_word, steps.is_empty()).await?;
        }
        self.relay.wake();
        if at_insert && steps.is_empty() && (row.platform_ships != 0) == t.platform_ships && !paid_now {
            // Nothing changed since it was written.
            return Ok(Followed { row, outcome: pb::ChannelTake::Created, as_given: true });
        }
        let row = self.repo.order(ctx.store_id, row.id).await?;
        let outcome = if created { pb::ChannelTake::Created } else { pb::ChannelTake::Updated };
        Ok(Followed { row, outcome, as_given: false })
    }

    /// One move of a marketplace order; false when the order could not make it now.
    async fn channel_step(&self, ctx: &CallCtx, id: i64, action: Action, status_word: &str) -> Result<bool> {
        if action == Action::Ship {
            return self.ship_by_channel(ctx, id).await;
        }
        let cause = if action == Action::Fail { state::CAUSES[0] } else { "" };
        let moved = self.repo.change_state(Self::actor(ctx), &[id], action, cause, status_word, &|_| None).await?;
        let Some(m) = moved.first() else { return Ok(false) };
        if let Some(why) = m.refused {
            tracing::info!(order = id, ?action, ?why, "a marketplace order could not follow its marketplace yet");
            return Ok(false);
        }
        if m.release {
            if let Err(e) = self.release(ctx, &[id]).await {
                // The reconciler releases it.
                tracing::warn!(order = id, error = %e, "could not release a cancelled marketplace order's stock yet");
            }
        }
        Ok(true)
    }

    /// Ships a prepared marketplace order the marketplace says has left: its held stock
    /// leaves without parcels of ours. An order whose lines match none of our SKUs holds
    /// nothing and simply ships.
    async fn ship_by_channel(&self, ctx: &CallCtx, id: i64) -> Result<bool> {
        if !self.repo.begin_ship(ctx.store_id, id).await? {
            return Ok(false);
        }
        let shipped = self
            .clients()?
            .wms
            .clone()
            .ship_order(ctx.request(wpb::ShipOrderRequest {
                order_id: id,
                reference: domain::reference(id),
                by_channel: true,
            }))
            .await
            .map_err(Error::from);
        let tracking = match shipped {
            Ok(r) => r.into_inner().parcels.iter().map(|p| p.tracking_no.clone()).filter(|t| !t.is_empty()).collect(),
            Err(e) if e.code == Code::NothingReserved => Vec::new(),
            Err(e) if is_definite(&e) => {
                self.repo.abandon_ship(ctx.store_id, id).await?;
                tracing::info!(order = id, error = %e, "wms would not ship a marketplace order");
                return Ok(false);
            }
            Err(e) => return Err(e),
        };
        Ok(self.repo.finish_ship(Self::actor(ctx), id, &tracking.join(","), now_ms()).await?.is_some())
    }
}

/// A marketplace order after its change was followed.
struct Followed {
    row: OrderRow,
    outcome: pb::ChannelTake,
    /// Nothing was written: `row` is the row as it was given.
    as_given: bool,
}

impl Followed {
    fn taken(self) -> (OrderRow, pb::ChannelTake, Option<crate::store::Written>) {
        (self.row, self.outcome, None)
    }
}

/// True when a channel's new order is where the channel says once written: it is new there,
/// with no word of the channel's for its history (an open-API channel's), so its change is
/// recorded with it rather than by a write of its own.
fn recorded_at_insert(t: &Taken) -> bool {
    t.state == state::NEW && t.status_word.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> pb::TakeChannelOrderRequest {
        pb::TakeChannelOrderRequest {
            store_channel_id: 3,
            shop_name: "ร้านทดสอบ".into(),
            channel: "shopee".into(),
            reference: "2611280ABC".into(),
            changed_at_ms: 1_000,
            state: pb::OrderState::New as i32,
            payment: pb::ChannelPayment::Paid as i32,
            lines: vec![pb::ChannelLine {
                seller_sku: " TS-001 ".into(),
                name: "เสื้อยืด".into(),
                listing: "100:200".into(),
                quantity: 2,
                unit_price: 19_900,
                sku_id: 0,
            }],
            address: Some(pb::Address { name: "ส****".into(), tel: "******78".into(), ..Default::default() }),
            ..Default::default()
        }
    }

    #[test]
    fn an_open_api_channel_sells_as_any_channel_but_a_marketplace() {
        let open_api = |channel: &str| pb::TakeChannelOrderRequest {
            channel: channel.into(),
            source: pb::ChannelSource::OpenApi as i32,
            logistic_store_channel_id: 4,
            ..request()
        };
        let t = check(open_api("website")).unwrap();
        assert_eq!((t.channel.as_str(), t.logistic_store_channel_id), ("website", 4));
        assert_eq!(check(open_api("shopee")).unwrap_err().fields[0].field, "channel");
        assert_eq!(check(open_api("myspace")).unwrap_err().fields[0].field, "channel");
        let marketplace = pb::TakeChannelOrderRequest { channel: "website".into(), ..request() };
        assert_eq!(
            check(marketplace).unwrap_err().fields[0].field,
            "channel",
            "a marketplace shop sells as its marketplace"
        );
    }

    #[test]
    fn a_marketplace_order_is_read_and_its_masked_address_kept() {
        let t = check(request()).unwrap();
        assert_eq!((t.channel.as_str(), t.state, t.lines[0].seller_sku.as_str()), ("shopee", state::NEW, "TS-001"));
        assert_eq!(t.address.tel, "******78", "a masked phone is kept as given");
        assert!(!t.address.is_complete());
    }

    #[test]
    fn every_broken_rule_is_named() {
        let e = check(pb::TakeChannelOrderRequest {
            store_channel_id: 0,
            channel: "facebook".into(),
            reference: String::new(),
            state: 0,
            lines: vec![pb::ChannelLine { quantity: 0, unit_price: -1, ..Default::default() }],
            discount: -5,
            ..request()
        })
        .unwrap_err();
        let fields: Vec<(&str, &str)> = e.fields.iter().map(|f| (f.field.as_str(), f.code.as_str())).collect();
        assert_eq!(
            fields,
            [
                ("channel", "validation.channel_unknown"),
                ("reference", "validation.required"),
                ("store_channel_id", "validation.required"),
                ("state", "validation.invalid"),
                ("lines[0].quantity", "validation.quantity"),
                ("lines[0].unit_price", "validation.price"),
                ("discount", "validation.price"),
            ]
        );
        let none = check(pb::TakeChannelOrderRequest { lines: Vec::new(), ..request() }).unwrap_err();
        assert_eq!(none.fields[0].field, "lines");
    }
}
