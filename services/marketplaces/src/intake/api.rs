//! The integrator's calls behind an open-API channel's key: an order made in the channel
//! (checked, its lines resolved to our SKUs by code or by the integrator's linked id, handed
//! to the orders service like a marketplace's, kept once per reference and Idempotency-Key),
//! the channel's orders read and cancelled, its SKUs with what is free in its warehouse, the
//! integrator's ids linked to our SKUs, and the linked SKUs' stock as the channel is told it.
//! An order, link or stock of another channel is not found.

use std::collections::HashMap;

use bo_kit::grpc::CallCtx;
use bo_kit::{Code, Error, FieldError, Result};
use bo_proto::marketplaces::v1 as pb;
use bo_proto::orders::v1 as opb;
use bo_proto::products::v1 as ppb;
use bo_proto::wms::v1 as wpb;

use super::Intake;
use crate::domain::api_order::{self, Input};
use crate::store::api_channels::ApiChannelRow;
use crate::store::api_orders::Kept;

/// The most orders of one page.
const ORDERS_MAX: i64 = 100;
/// The most SKUs of one page.
const SKUS_MAX: i64 = 100;
/// The most stock rows of one page.
const STOCK_MAX: i64 = 500;
/// The most links of one call.
pub const LINKS_MAX: usize = 500;

fn unavailable() -> Error {
    Error::new(bo_kit::error::Kind::Unavailable, Code::ServiceUnavailable)
}

/// An integrator's order as sent over the contract, in the rules' words.
pub fn input_of(o: pb::ApiOrderInput) -> Input {
    let a = o.address.unwrap_or_default();
    Input {
        reference: o.reference,
        note: o.note,
        address: api_order::Address {
            name: a.name,
            tel: a.tel,
            address: a.address,
            sub_district: a.sub_district,
            district: a.district,
            state_province: a.state_province,
            postcode: a.postcode,
            email: a.email,
        },
        lines: o
            .lines
            .into_iter()
            .map(|l| api_order::Line {
                sku_code: l.sku_code,
                external_id: l.external_id,
                quantity: l.quantity,
                unit_price: l.unit_price,
            })
            .collect(),
        shipping_charge: o.shipping_charge,
        discount: o.discount,
        cod: o.cod,
        paid: o.paid,
    }
}

impl Intake {
    /// Our SKUs of codes: code → (id, price).
    async fn skus_by_code(&self, ctx: &CallCtx, codes: Vec<String>) -> Result<HashMap<String, i64>> {
        if codes.is_empty() {
            return Ok(HashMap::new());
        }
        let mut products = self.inner.products.clone().ok_or_else(unavailable)?;
        let found = products
            .describe_skus(ctx.request(ppb::DescribeSkusRequest { ids: Vec::new(), codes }))
            .await
            .map_err(|s| Error::from_status(&s))?
            .into_inner()
            .skus;
        Ok(found.into_iter().filter_map(|d| d.sku.map(|s| (s.code, s.id))).collect())
    }

    async fn order_of(&self, ctx: &CallCtx, id: i64) -> Result<opb::Order> {
        let mut orders = self.inner.orders.clone().ok_or_else(unavailable)?;
        let r = orders
            .get_order(ctx.request(opb::GetOrderRequest { id, with_events: false }))
            .await
            .map_err(|s| Error::from_status(&s))?
            .into_inner();
        r.order.ok_or_else(|| Error::not_found(Code::OrderNotFound))
    }

    /// An integrator's order made in `ch` (once per reference and Idempotency-Key): the
    /// order, and whether it was made before (a repeat).
    pub async fn api_create_order(
        &self,
        ch: &ApiChannelRow,
        idempotency_key: &str,
        input: pb::ApiOrderInput,
    ) -> Result<(opb::Order, bool)> {
        api_order::check_key(idempotency_key)?;
        let o = api_order::check(&input_of(input))?;
        let digest = api_order::digest(&o);
        let ctx = self.acting(ch.store_id, 0)?;
        let repo = &self.inner.repo;
        if let Some(before) = repo.api_order_of(ch.id, idempotency_key, &o.reference).await? {
            return self.repeat(&ctx, &before, idempotency_key, &digest).await;
        }
        // Lines as our SKUs: by the integrator's linked id here, by code in the orders
        // service, which refuses a line that names none of ours (`strict_skus`).
        let external: Vec<String> = o.lines.iter().map(|l| l.external_id.clone()).filter(|e| !e.is_empty()).collect();
        let linked: HashMap<String, i64> = repo.api_links_of(ch.id, &external).await?.into_iter().collect();
        let mut errs = Vec::new();
        let mut lines = Vec::with_capacity(o.lines.len());
        for (i, l) in o.lines.iter().enumerate() {
            let sku_id = if l.external_id.is_empty() {
                0
            } else if let Some(sku) = linked.get(&l.external_id) {
                *sku
            } else {
                errs.push(FieldError::new(format!("lines[{i}].external_id"), "validation.external_id_unlinked"));
                continue;
            };
            lines.push(opb::ChannelLine {
                seller_sku: l.sku_code.clone(),
                name: String::new(),
                listing: l.external_id.clone(),
                quantity: l.quantity,
                unit_price: l.unit_price,
                sku_id,
            });
        }
        if !errs.is_empty() {
            return Err(Error::invalid(errs));
        }
        let a = &o.address;
        let req = opb::TakeChannelOrderRequest {
            store_channel_id: ch.id,
            shop_name: ch.name.clone(),
            channel: ch.channel.clone(),
            reference: o.reference.clone(),
            // Made once: a repeat is no newer, so it changes nothing.
            changed_at_ms: 1,
            state: opb::OrderState::New as i32,
            payment: if o.paid { opb::ChannelPayment::Paid } else { opb::ChannelPayment::Unpaid } as i32,
            status_word: String::new(),
            cod: o.cod,
            platform_ships: false,
            warehouse_id: ch.warehouse_id,
            address: Some(opb::Address {
                name: a.name.clone(),
                tel: a.tel.clone(),
                address: a.address.clone(),
                sub_district: a.sub_district.clone(),
                district: a.district.clone(),
                state_province: a.state_province.clone(),
                postcode: a.postcode.clone(),
                email: a.email.clone(),
                country: "TH".into(),
                city: String::new(),
            }),
            lines,
            shipping_charge: o.shipping_charge,
            discount: o.discount,
            note: o.note.clone(),
            source: opb::ChannelSource::OpenApi as i32,
            logistic_store_channel_id: ch.logistic_channel_id,
            strict_skus: true,
            with_order: true,
        };
        let mut orders = self.inner.orders.clone().ok_or_else(unavailable)?;
        let taken = orders.take_channel_order(ctx.request(req)).await.map_err(|s| Error::from_status(&s))?.into_inner();
        match repo.keep_api_order(ch.store_id, ch.id, &o.reference, idempotency_key, &digest, taken.order_id).await? {
            Kept::New => match taken.order {
                Some(order) => Ok((order, false)),
                None => Ok((self.order_of(&ctx, taken.order_id).await?, false)),
            },
            // The same order sent twice at once: the other call kept it first.
            Kept::Before(before) => self.repeat(&ctx, &before, idempotency_key, &digest).await,
        }
    }

    /// A repeat of an order kept before: answered as it is now when it is the same request,
    /// refused otherwise.
    async fn repeat(
        &self,
        ctx: &CallCtx,
        before: &crate::store::api_orders::ApiOrderRow,
        idempotency_key: &str,
        digest: &str,
    ) -> Result<(opb::Order, bool)> {
        if before.request_hash != digest {
            return Err(if !idempotency_key.is_empty() && before.idempotency_key == idempotency_key {
                Error::conflict(Code::IdempotencyKeyReused)
            } else {
                Error::conflict(Code::DuplicateOrderReference)
            });
        }
        Ok((self.order_of(ctx, before.our_order_id).await?, true))
    }

    /// One of the channel's orders.
    pub async fn api_order(&self, ch: &ApiChannelRow, order_id: i64) -> Result<opb::Order> {
        if !self.inner.repo.is_api_order(ch.id, order_id).await? {
            return Err(Error::not_found(Code::OrderNotFound));
        }
        self.order_of(&self.acting(ch.store_id, 0)?, order_id).await
    }

    /// A page of the channel's orders after the cursor `after`, oldest first, and the next
    /// page's cursor (0: none).
    pub async fn api_orders(&self, ch: &ApiChannelRow, after: i64, limit: i64) -> Result<(Vec<opb::Order>, i64)> {
        let limit = if limit == 0 { 50 } else { limit };
        if !(1..=ORDERS_MAX).contains(&limit) {
            return Err(Error::invalid_field("limit", "validation.invalid"));
        }
        let page = self.inner.repo.api_orders_page(ch.id, after.max(0), limit + 1).await?;
        let more = page.len() as i64 > limit;
        let page: Vec<(i64, i64)> = page.into_iter().take(limit as usize).collect();
        let ids: Vec<i64> = page.iter().map(|(_, o)| *o).collect();
        let orders = if ids.is_empty() {
            Vec::new()
        } else {
            let ctx = self.acting(ch.store_id, 0)?;
            let mut client = self.inner.orders.clone().ok_or_else(unavailable)?;
            client
                .get_orders(ctx.request(opb::GetOrdersRequest { ids }))
                .await
                .map_err(|s| Error::from_status(&s))?
                .into_inner()
                .orders
        };
        let next = if more { page.last().map(|(id, _)| *id).unwrap_or(0) } else { 0 };
        Ok((orders, next))
    }

    /// Cancels one of the channel's orders while its state allows (refused with the orders
    /// service's reason otherwise).
    pub async fn api_cancel(&self, ch: &ApiChannelRow, order_id: i64, reason: &str) -> Result<opb::Order> {
        if !self.inner.repo.is_api_order(ch.id, order_id).await? {
            return Err(Error::not_found(Code::OrderNotFound));
        }
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(Error::invalid_field("reason", "validation.required"));
        }
        if reason.chars().count() > 500 {
            return Err(Error::invalid_field("reason", "validation.too_long"));
        }
        let ctx = self.acting(ch.store_id, 0)?;
        let mut orders = self.inner.orders.clone().ok_or_else(unavailable)?;
        let r = orders
            .change_state(ctx.request(opb::ChangeStateRequest {
                ids: vec![order_id],
                action: "cancel".into(),
                cause: String::new(),
                reason: reason.to_string(),
            }))
            .await
            .map_err(|s| Error::from_status(&s))?
            .into_inner();
        if let Some(refused) = r.results.iter().find(|x| !x.ok) {
            let code = Code::parse(&refused.reason).unwrap_or(Code::OrderNotEditable);
            return Err(Error::failed_precondition(code));
        }
        self.order_of(&ctx, order_id).await
    }

    /// A page of our SKUs with what is free of each in the channel's warehouse and the
    /// integrator's ids linked to it, and the next page (0: none).
    pub async fn api_skus(
        &self,
        ch: &ApiChannelRow,
        page: i64,
        limit: i64,
        search: &str,
    ) -> Result<(Vec<pb::ApiSku>, i64)> {
        let limit = if limit == 0 { 50 } else { limit };
        if !(1..=SKUS_MAX).contains(&limit) {
            return Err(Error::invalid_field("limit", "validation.invalid"));
        }
        let ctx = self.acting(ch.store_id, 0)?;
        let mut products = self.inner.products.clone().ok_or_else(unavailable)?;
        let r = products
            .list_sku_inventories(ctx.request(ppb::ListSkuInventoriesRequest {
                search: search.trim().to_string(),
                warehouse_id: ch.warehouse_id,
                below_safety_stock: false,
                page: Some(bo_proto::common::v1::PageRequest { page: page.max(1), limit }),
            }))
            .await
            .map_err(|s| Error::from_status(&s))?
            .into_inner();
        let ids: Vec<i64> = r.rows.iter().filter_map(|row| row.sku.as_ref().map(|s| s.id)).collect();
        let mut links: HashMap<i64, Vec<String>> = HashMap::new();
        for (sku, external) in self.inner.repo.api_links_to(ch.id, &ids).await? {
            links.entry(sku).or_default().push(external);
        }
        let info = r.page.unwrap_or_default();
        let skus = r
            .rows
            .into_iter()
            .map(|row| {
                let sku = row.sku.unwrap_or_default();
                pb::ApiSku {
                    external_ids: links.remove(&sku.id).unwrap_or_default(),
                    sku_id: sku.id,
                    sku_code: sku.code,
                    product_id: row.product_id,
                    product_name: row.product_name,
                    option1: sku.option1,
                    option2: sku.option2,
                    price: sku.price,
                    barcode: sku.barcode,
                    available: row.inventory.map(|i| i.available).unwrap_or(0),
                }
            })
            .collect();
        let next = if info.page < info.pages { info.page + 1 } else { 0 };
        Ok((skus, next))
    }

    /// Links the integrator's ids to our SKUs (by code or id; none unlinks), each answered on
    /// its own.
    pub async fn api_link(&self, ch: &ApiChannelRow, links: Vec<pb::ApiLink>) -> Result<Vec<pb::ApiLinkResult>> {
        if links.is_empty() {
            return Err(Error::invalid_field("links", "validation.required"));
        }
        if links.len() > LINKS_MAX {
            return Err(Error::invalid_field("links", "validation.too_many"));
        }
        let ctx = self.acting(ch.store_id, 0)?;
        let mut codes: Vec<String> =
            links.iter().map(|l| l.sku_code.trim().to_string()).filter(|c| !c.is_empty()).collect();
        codes.sort();
        codes.dedup();
        let by_code = self.skus_by_code(&ctx, codes).await?;
        let mut ids: Vec<i64> = links.iter().map(|l| l.sku_id).filter(|id| *id > 0).collect();
        ids.sort_unstable();
        ids.dedup();
        let known_ids: std::collections::HashSet<i64> = if ids.is_empty() {
            Default::default()
        } else {
            let mut products = self.inner.products.clone().ok_or_else(unavailable)?;
            products
                .describe_skus(ctx.request(ppb::DescribeSkusRequest { ids, codes: Vec::new() }))
                .await
                .map_err(|s| Error::from_status(&s))?
                .into_inner()
                .skus
                .into_iter()
                .filter_map(|d| d.sku.map(|s| s.id))
                .collect()
        };
        let mut out = Vec::with_capacity(links.len());
        for l in links {
            let external_id = l.external_id.trim().to_string();
            let code = l.sku_code.trim();
            let refused =
                |why: &str| pb::ApiLinkResult { external_id: external_id.clone(), sku_id: 0, error: why.into() };
            if external_id.is_empty() || external_id.chars().count() > 100 {
                out.push(refused("validation.external_id"));
                continue;
            }
            let sku = if !code.is_empty() {
                match by_code.get(code) {
                    Some(id) => *id,
                    None => {
                        out.push(refused("validation.sku_unknown"));
                        continue;
                    }
                }
            } else if l.sku_id > 0 {
                if !known_ids.contains(&l.sku_id) {
                    out.push(refused("validation.sku_unknown"));
                    continue;
                }
                l.sku_id
            } else {
                0
            };
            self.inner.repo.set_api_link(ch.store_id, ch.id, &external_id, sku).await?;
            out.push(pb::ApiLinkResult { external_id, sku_id: sku, error: String::new() });
        }
        Ok(out)
    }

    /// A page of the linked SKUs' stock in the channel's warehouse after the external id
    /// `after`, and the next page's cursor ("": none).
    pub async fn api_stock(&self, ch: &ApiChannelRow, after: &str, limit: i64) -> Result<(Vec<pb::ApiStock>, String)> {
        let limit = if limit == 0 { 100 } else { limit };
        if !(1..=STOCK_MAX).contains(&limit) {
            return Err(Error::invalid_field("limit", "validation.invalid"));
        }
        let page = self.inner.repo.api_links_page(ch.id, after, limit + 1).await?;
        let more = page.len() as i64 > limit;
        let page: Vec<(String, i64)> = page.into_iter().take(limit as usize).collect();
        let mut skus: Vec<i64> = page.iter().map(|(_, s)| *s).collect();
        skus.sort_unstable();
        skus.dedup();
        let ctx = self.acting(ch.store_id, 0)?;
        let (mut levels, mut codes) = (HashMap::new(), HashMap::new());
        if !skus.is_empty() {
            let mut wms = self.inner.wms.clone().ok_or_else(unavailable)?;
            let stock = wms
                .get_stock(ctx.request(wpb::GetStockRequest { warehouse_id: ch.warehouse_id, sku_ids: skus.clone() }))
                .await
                .map_err(|s| Error::from_status(&s))?
                .into_inner();
            for l in stock.levels {
                levels.insert(l.sku_id, l.available);
            }
            let mut products = self.inner.products.clone().ok_or_else(unavailable)?;
            let described = products
                .describe_skus(ctx.request(ppb::DescribeSkusRequest { ids: skus, codes: Vec::new() }))
                .await
                .map_err(|s| Error::from_status(&s))?
                .into_inner()
                .skus;
            for d in described {
                if let Some(s) = d.sku {
                    codes.insert(s.id, s.code);
                }
            }
        }
        let next = if more { page.last().map(|(e, _)| e.clone()).unwrap_or_default() } else { String::new() };
        let stock = page
            .into_iter()
            .map(|(external_id, sku_id)| pb::ApiStock {
                available: levels.get(&sku_id).copied().unwrap_or(0).max(0),
                sku_code: codes.get(&sku_id).cloned().unwrap_or_default(),
                external_id,
                sku_id,
            })
            .collect();
        Ok((stock, next))
    }
}
