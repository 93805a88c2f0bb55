//! Magento shops: the connection tried before a shop is saved ([`Intake::check_magento`]),
//! its orders polled over their `(updated_at, entity_id)` watermark and handed to the orders
//! service ([`Intake::poll_magento`]), and our stock of the SKUs it has linked told to it
//! ([`Intake::push_magento_stock`]), through its single stock or its inventory source.
//!
//! Each round of a poll starts a little before the watermark kept (an order saved late in
//! its second) and asks for one page after the last order read until a page is short: the
//! filters move, never the page number, so no order is skipped at a page boundary. An order
//! is taken once per change: a change no newer than the one taken is passed over, and the
//! orders service ignores what is not newer than what it follows. Polls and pushes run under
//! the service's leases (one replica at a time).

use std::collections::HashMap;

use bo_kit::FieldError;
use bo_proto::wms::v1 as wpb;

use super::*;
use crate::adapters::magento::{Magento, Order, Source};
use crate::domain::magento::{self as rules, Auth, Credentials, Step, Watermark};
use crate::store::api_channels::ApiChannelRow;
use crate::store::magento::MagentoRow;

/// Pages one poll of a shop reads at most (the next poll goes on).
const POLL_PAGES: usize = 20;
/// SKUs told to a shop per round.
const STOCK_ROUND: i64 = 200;
/// SKUs per `source-items` call.
const SOURCE_ITEMS_PER_CALL: usize = 100;

/// The refusal of a connection: Magento cannot connect, because of `field` (`code` says why).
fn cannot_connect(field: &str, code: &str) -> Error {
    let mut e = Error::failed_precondition(Code::MagentoCannotConnect);
    e.fields = vec![FieldError::new(field, code)];
    e
}

/// Why a call failed, as the connection check tells the owner.
fn connect_refusal(e: &ChannelError, auth: Auth) -> Error {
    match e {
        ChannelError::Unreachable(_) | ChannelError::Throttled { .. } => cannot_connect("url", "magento.unreachable"),
        ChannelError::TokenRefused(_) | ChannelError::AuthorizationEnded(_) | ChannelError::AppRefused(_) => match auth
        {
            Auth::Bearer => cannot_connect("access_token", "magento.bearer_refused"),
            Auth::Oauth1 => cannot_connect("access_token", "magento.oauth_refused"),
        },
        ChannelError::Rejected { message, .. } if message.contains("store that was requested") => {
            cannot_connect("store_code", "magento.store_unknown")
        }
        ChannelError::Rejected { .. } | ChannelError::Malformed(_) => cannot_connect("url", "magento.not_magento"),
    }
}

/// The wait before the next try of stock a shop could not be told: 5 s doubling, at most 30
/// minutes.
fn stock_backoff_ms(attempts: i64) -> i64 {
    (5_000i64 << attempts.clamp(0, 9)).min(30 * 60 * 1000)
}

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// What the orders service is handed for a Magento order changed at `at` (unix seconds):
/// its lines at their prices (a configurable's child line left out), the linked SKU of each
/// where there is one (else its SKU code, which the orders service matches), shipping as the
/// buyer pays it, the order's discounts.
pub fn take_request(
    ch: &ApiChannelRow,
    o: &Order,
    at: i64,
    linked: &HashMap<String, i64>,
) -> Result<opb::TakeChannelOrderRequest, String> {
    let m = rules::state_meaning(&o.state).ok_or_else(|| format!("a state we do not know: {}", o.state))?;
    let amount = |v: &serde_json::Value, what: &str| rules::satang(v).ok_or_else(|| format!("an unreadable {what}"));
    let mut lines = Vec::new();
    for l in o.lines() {
        let qty = amount(&l.qty_ordered, "quantity")?;
        if qty <= 0 || qty % 100 != 0 {
            return Err(format!("a quantity that is not a whole number: {}", l.qty_ordered));
        }
        lines.push(opb::ChannelLine {
            seller_sku: l.sku.clone(),
            name: l.name.clone(),
            listing: l.sku.clone(),
            quantity: qty / 100,
            unit_price: amount(&l.price, "price")?.max(0),
            sku_id: linked.get(&l.sku).copied().unwrap_or(0),
        });
    }
    let a = o.address().cloned().unwrap_or_default();
    let name = format!("{} {}", a.firstname.trim(), a.lastname.trim()).trim().to_string();
    // Thai checkouts write the sub-district (ตำบล/แขวง) as the street's last line.
    let mut street: Vec<String> = a.street.iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    let sub_district = if street.len() > 1 { street.pop().unwrap_or_default() } else { String::new() };
    let cod = o.payment.as_ref().is_some_and(|p| p.method == "cashondelivery");
    // Cash on delivery is paid when the parcel is, whatever the shop's invoice says.
    let paid = if cod && o.state != "complete" { m.paid.map(|_| false) } else { m.paid };
    Ok(opb::TakeChannelOrderRequest {
        store_channel_id: ch.id,
        shop_name: ch.name.clone(),
        channel: ch.channel.clone(),
        reference: o.increment_id.clone(),
        changed_at_ms: rules::changed_at_ms(at, m),
        state: order_state(m.state) as i32,
        payment: match paid {
            Some(true) => opb::ChannelPayment::Paid,
            Some(false) => opb::ChannelPayment::Unpaid,
            None => opb::ChannelPayment::Unspecified,
        } as i32,
        status_word: o.state.clone(),
        cod,
        platform_ships: false,
        warehouse_id: ch.warehouse_id,
        address: Some(opb::Address {
            name,
            tel: digits(a.telephone.as_deref().unwrap_or_default()),
            address: street.join(" "),
            sub_district,
            district: a.city.trim().to_string(),
            state_province: a.region.unwrap_or_default().trim().to_string(),
            postcode: a.postcode.unwrap_or_default().trim().to_string(),
            email: a.email.or_else(|| o.customer_email.clone()).unwrap_or_default(),
            country: "TH".into(),
            city: String::new(),
        }),
        lines,
        shipping_charge: amount(&o.shipping_amount, "shipping amount")?.max(0),
        discount: amount(&o.discount_amount, "discount")?.abs(),
        note: String::new(),
        source: opb::ChannelSource::OpenApi as i32,
        logistic_store_channel_id: ch.logistic_channel_id,
        ..Default::default()
    })
}

impl Intake {
    /// The API of a kept shop.
    fn magento(&self, m: &MagentoRow) -> bo_kit::Result<Magento> {
        let credentials = self.inner.repo.magento_credentials(m)?;
        Ok(Magento::new(self.inner.magento_http.clone(), &m.url, &m.store_code, m.auth(), credentials))
    }

    /// Tries a shop's connection as a form gives it (checked, its credentials merged): its
    /// store views are read, and its inventory source where one is named. Magento cannot
    /// connect otherwise, the field at fault named with why.
    pub async fn check_magento(&self, form: &rules::Form, credentials: &Credentials) -> bo_kit::Result<()> {
        let auth = Auth::parse(&form.auth).unwrap_or(Auth::Bearer);
        // Read through the default store view: an unknown store code matches no route.
        let http = self.inner.magento_http.clone();
        let stores = Magento::new(http.clone(), &form.url, "", auth, credentials.clone())
            .store_configs()
            .await
            .map_err(|e| connect_refusal(&e, auth))?;
        if stores.is_empty() {
            return Err(cannot_connect("url", "magento.not_magento"));
        }
        if form.store_code != "all" && !stores.iter().any(|s| s.code == form.store_code) {
            return Err(cannot_connect("store_code", "magento.store_unknown"));
        }
        if !form.source_code.is_empty() {
            let shop = Magento::new(http, &form.url, &form.store_code, auth, credentials.clone());
            match shop.source(&form.source_code).await {
                Ok(Source::Found) => {}
                Ok(Source::Unknown) => return Err(cannot_connect("source_code", "magento.source_unknown")),
                Ok(Source::NoInventoryApi) => return Err(cannot_connect("source_code", "magento.no_msi")),
                Err(e) => return Err(connect_refusal(&e, auth)),
            }
        }
        Ok(())
    }

    /// Polls the active shops whose turn it is (each at most once per `poll_every_ms`): how
    /// many orders made or moved one of ours.
    pub async fn poll_magento_due(&self) -> bo_kit::Result<usize> {
        let every = self.inner.settings.poll_every_ms as i64;
        let mut taken = 0;
        for (ch, m) in self.inner.repo.magento_due_for_poll(now_ms() - every, 20).await? {
            match self.poll_magento(&ch, &m).await {
                Ok((n, _)) => taken += n,
                Err(e) => tracing::warn!(api_channel = ch.id, error = %e, "a Magento shop could not be polled"),
            }
        }
        Ok(taken)
    }

    /// Polls one shop: (orders that made or moved one of ours, what went wrong, empty when
    /// nothing). The watermark kept moves to the last order handed over.
    pub async fn poll_magento(&self, ch: &ApiChannelRow, m: &MagentoRow) -> bo_kit::Result<(usize, String)> {
        let shop = self.magento(m)?;
        let mut w = Watermark::start(m.watermark_at, now_ms() / 1000);
        let (mut taken, mut trouble) = (0usize, String::new());
        let mut step = Some(Step::SameSecond);
        let mut pages = 0;
        'round: while let Some(s) = step {
            if pages == POLL_PAGES {
                break;
            }
            pages += 1;
            let orders = match shop.orders(&rules::criteria(s, w)).await {
                Ok(o) => o,
                Err(e) => {
                    trouble = e.to_string();
                    break;
                }
            };
            let ids: Vec<i64> = orders.iter().map(|o| o.entity_id).collect();
            let known = self.inner.repo.magento_taken(ch.id, &ids).await?;
            for o in &orders {
                let Some(at) = rules::parse_date(&o.updated_at) else {
                    trouble = format!("order {}: an unreadable updated_at", o.increment_id);
                    break 'round;
                };
                if known.get(&o.entity_id).is_none_or(|k| *k < at) {
                    match self.take_magento(ch, o, at).await {
                        Ok(moved) => taken += usize::from(moved),
                        Err(Trouble::Ours(e)) => {
                            // Ours to fix (the orders service is away): the next poll starts here.
                            self.inner.repo.magento_polled(ch.id, w, taken as i64, "").await?;
                            return Err(e);
                        }
                        Err(Trouble::Channel(e)) => {
                            trouble = format!("order {}: {e}", o.increment_id);
                            tracing::warn!(api_channel = ch.id, order = %o.increment_id, error = %e, "a Magento order could not be read; passed over");
                        }
                    }
                }
                w = w.after(at, o.entity_id);
            }
            step = rules::next_step(s, orders.len());
        }
        self.inner.repo.magento_polled(ch.id, w, taken as i64, &trouble).await?;
        Ok((taken, trouble))
    }

    /// Hands one Magento order to the orders service: true when it made or moved an order.
    async fn take_magento(&self, ch: &ApiChannelRow, o: &Order, at: i64) -> Result<bool, Trouble> {
        let skus: Vec<String> = o.lines().map(|l| l.sku.clone()).collect();
        let linked: HashMap<String, i64> = self.inner.repo.api_links_of(ch.id, &skus).await?.into_iter().collect();
        let req = take_request(ch, o, at, &linked).map_err(|why| Trouble::Channel(ChannelError::Malformed(why)))?;
        let line_skus: Vec<String> = req.lines.iter().map(|l| l.seller_sku.clone()).collect();
        let ctx = self.acting(ch.store_id, 0)?;
        let unavailable = || Error::new(bo_kit::error::Kind::Unavailable, Code::ServiceUnavailable);
        let mut orders = self.inner.orders.clone().ok_or_else(unavailable)?;
        let r = orders.take_channel_order(ctx.request(req)).await.map_err(|s| Error::from_status(&s))?.into_inner();
        // The shop's SKUs sold as ours are linked: their stock is told to it from now on.
        for (sku_code, sku_id) in line_skus.iter().zip(&r.line_sku_ids) {
            if *sku_id > 0 && !linked.contains_key(sku_code) {
                self.inner.repo.set_api_link(ch.store_id, ch.id, sku_code, *sku_id).await?;
                self.inner.repo.push_magento_skus(ch.store_id, ch.id, &[*sku_id]).await?;
            }
        }
        self.inner.repo.keep_api_order(ch.store_id, ch.id, &o.increment_id, "", "magento", r.order_id).await?;
        self.inner.repo.record_magento_order(ch.id, o.entity_id, &o.increment_id, at, &o.state, r.order_id).await?;
        Ok(matches!(r.outcome(), opb::ChannelTake::Created | opb::ChannelTake::Updated))
    }

    /// Tells the shops with stock due what is free of each SKU in their warehouse: how many
    /// SKUs were told.
    pub async fn push_magento_stock(&self) -> bo_kit::Result<usize> {
        let repo = &self.inner.repo;
        let mut told = 0;
        for (store_id, id, due) in repo.magento_stock_due(now_ms(), STOCK_ROUND).await? {
            let (ch, m) = match (repo.api_channel(store_id, id).await, repo.magento_channel(store_id, id).await) {
                (Ok(ch), Ok(m)) => (ch, m),
                _ => continue,
            };
            let sent: Vec<(i64, i64)> = due.iter().map(|(sku, changes, _)| (*sku, *changes)).collect();
            if !ch.active() {
                // Turned off: nothing is told; turning it on and "push stock now" tells all.
                repo.magento_stock_sent(id, &sent, "").await?;
                continue;
            }
            let attempts = due.iter().map(|(_, _, a)| *a).max().unwrap_or(0);
            match self.tell_magento(&ch, &m, &due.iter().map(|(s, _, _)| *s).collect::<Vec<_>>()).await {
                Ok(refused) => {
                    told += sent.len();
                    repo.magento_stock_sent(id, &sent, &refused).await?;
                }
                Err(e) => {
                    let skus: Vec<i64> = sent.iter().map(|(s, _)| *s).collect();
                    tracing::info!(api_channel = id, error = %e, "a Magento shop could not be told its stock now");
                    repo.magento_stock_retry(id, &skus, now_ms() + stock_backoff_ms(attempts), &e.to_string()).await?;
                }
            }
        }
        Ok(told)
    }

    /// Tells one shop the stock of `sku_ids`: what it refused (empty: nothing), or why none
    /// could be told.
    async fn tell_magento(&self, ch: &ApiChannelRow, m: &MagentoRow, sku_ids: &[i64]) -> Result<String, Trouble> {
        let links = self.inner.repo.api_links_to(ch.id, sku_ids).await?;
        if links.is_empty() {
            return Ok(String::new());
        }
        let ctx = self.acting(ch.store_id, 0)?;
        let unavailable = || Error::new(bo_kit::error::Kind::Unavailable, Code::ServiceUnavailable);
        let mut wms = self.inner.wms.clone().ok_or_else(unavailable)?;
        let stock = wms
            .get_stock(ctx.request(wpb::GetStockRequest { warehouse_id: ch.warehouse_id, sku_ids: sku_ids.to_vec() }))
            .await
            .map_err(|s| Error::from_status(&s))?
            .into_inner();
        let free: HashMap<i64, i64> = stock.levels.into_iter().map(|l| (l.sku_id, l.available.max(0))).collect();
        let levels: Vec<(String, i64)> =
            links.into_iter().map(|(sku, external)| (external, free.get(&sku).copied().unwrap_or(0))).collect();
        let shop = self.magento(m)?;
        let mut refused = Vec::new();
        if m.source_code.is_empty() {
            for (sku, qty) in &levels {
                if !shop.set_stock_item(sku, *qty).await? {
                    refused.push(sku.clone());
                }
            }
        } else {
            for chunk in levels.chunks(SOURCE_ITEMS_PER_CALL) {
                shop.set_source_items(&m.source_code, chunk).await?;
            }
        }
        Ok(if refused.is_empty() { String::new() } else { rules::clip_list("no product of SKU", &refused) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel() -> ApiChannelRow {
        ApiChannelRow {
            id: 7,
            store_id: 1,
            name: "เว็บไซต์ Magento".into(),
            channel: "website".into(),
            warehouse_id: 3,
            logistic_channel_id: 4,
            payment_channel_id: 5,
            status: "active".into(),
            webhook_url: String::new(),
            events: "[]".into(),
            created_by: 1,
            created_at: 0,
            updated_at: 0,
            version: 1,
            webhook_failing_since: 0,
            webhook_disabled_at: 0,
            webhook_delivered_at: 0,
        }
    }

    fn order(state: &str) -> Order {
        serde_json::from_value(serde_json::json!({
            "entity_id": 12, "increment_id": "000000012", "state": state, "updated_at": "2026-12-06 10:05:00",
            "shipping_amount": 50, "discount_amount": -20.5, "customer_email": "a@example.com",
            "items": [
                {"item_id": 1, "sku": "TEE-M", "name": "Tee", "qty_ordered": 2.0, "price": 199.99, "product_type": "configurable"},
                {"item_id": 2, "sku": "TEE-M", "name": "Tee M", "qty_ordered": 2.0, "price": 0, "parent_item_id": 1},
                {"item_id": 3, "sku": "MUG", "name": "Mug", "qty_ordered": 1, "price": "99.0000"}
            ],
            "billing_address": {"firstname": "สุดา", "lastname": "ใจดี", "street": ["8 ถนนราชดำเนิน", "บวรนิเวศ"], "city": "พระนคร",
                "region": "กรุงเทพมหานคร", "postcode": "10200", "telephone": "081-234-5678"},
            "payment": {"method": "cashondelivery"}
        }))
        .unwrap()
    }

    #[test]
    fn a_magento_order_is_handed_over_at_what_the_buyer_pays() {
        let linked = HashMap::from([("MUG".to_string(), 44)]);
        let r = take_request(&channel(), &order("processing"), 1_796_551_500, &linked).unwrap();
        assert_eq!(r.reference, "000000012");
        assert_eq!(r.lines.len(), 2, "the configurable's child line is left out");
        assert_eq!((r.lines[0].quantity, r.lines[0].unit_price, r.lines[0].sku_id), (2, 19_999, 0));
        assert_eq!((r.lines[1].quantity, r.lines[1].unit_price, r.lines[1].sku_id), (1, 9_900, 44));
        assert_eq!((r.shipping_charge, r.discount), (5_000, 2_050));
        assert_eq!(r.payment, opb::ChannelPayment::Unpaid as i32, "cash on delivery is paid with the parcel");
        assert_eq!(r.state, opb::OrderState::New as i32);
        assert!(r.cod);
        assert_eq!((r.warehouse_id, r.logistic_store_channel_id, r.store_channel_id), (3, 4, 7));
        let a = r.address.unwrap();
        assert_eq!((a.name.as_str(), a.tel.as_str(), a.postcode.as_str()), ("สุดา ใจดี", "0812345678", "10200"));
        assert_eq!((a.address.as_str(), a.sub_district.as_str()), ("8 ถนนราชดำเนิน", "บวรนิเวศ"));
        // Paid by another way, processing is paid.
        let mut card = order("processing");
        card.payment = None;
        let by_card = take_request(&channel(), &card, 1, &linked).unwrap();
        assert_eq!(by_card.payment, opb::ChannelPayment::Paid as i32);
        assert_eq!(a.email, "a@example.com");
        assert_eq!(r.changed_at_ms, 1_796_551_500_000 + rules::state_meaning("processing").unwrap().rank);
    }

    #[test]
    fn a_cancelled_order_says_nothing_of_its_payment_and_unknown_states_are_refused() {
        let r = take_request(&channel(), &order("canceled"), 1, &HashMap::new()).unwrap();
        assert_eq!(r.state, opb::OrderState::Cancelled as i32);
        assert_eq!(r.payment, opb::ChannelPayment::Unspecified as i32);
        assert!(take_request(&channel(), &order("lost"), 1, &HashMap::new()).is_err());
    }

    #[test]
    fn a_part_of_a_unit_is_refused() {
        let mut o = order("new");
        o.items[2].qty_ordered = serde_json::json!(1.5);
        assert!(take_request(&channel(), &o, 1, &HashMap::new()).unwrap_err().contains("whole"));
    }

    #[test]
    fn stock_waits_longer_each_time_up_to_half_an_hour() {
        assert_eq!(stock_backoff_ms(0), 5_000);
        assert_eq!(stock_backoff_ms(1), 10_000);
        assert_eq!(stock_backoff_ms(20), 30 * 60 * 1000);
    }

    #[test]
    fn refusals_name_the_field_at_fault() {
        let field = |e: Error| (e.code, e.fields[0].field.clone(), e.fields[0].code.clone());
        assert_eq!(
            field(connect_refusal(&ChannelError::TokenRefused("x".into()), Auth::Bearer)),
            (Code::MagentoCannotConnect, "access_token".into(), "magento.bearer_refused".into())
        );
        assert_eq!(field(connect_refusal(&ChannelError::Unreachable("x".into()), Auth::Oauth1)).1, "url".to_string());
        assert_eq!(
            field(connect_refusal(
                &ChannelError::rejected("400", "The store that was requested wasn't found."),
                Auth::Bearer
            ))
            .2,
            "magento.store_unknown".to_string()
        );
    }
}
