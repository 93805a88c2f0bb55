//! Shipping marketplace orders the platform's way: how an order of ours that came from a
//! marketplace may be handed to the platform's carrier, arranging it (the platform first: our
//! order moves only to the state the platform then shows, through the same path its pushes
//! take), the carrier's tracking number once the platform gives it, and the platform's labels
//! of many orders in one PDF with the reason each other one could not be printed. An order
//! arranged twice is arranged once; an order in the platform's hold period (TikTok Shop's
//! first hour) is refused before the platform is asked. A buyer's request to cancel is
//! shown and answered here too: the platform answers first, then our order follows it.

use bo_kit::error::Kind;

use super::*;
use crate::adapters::shipping::{Handover, ShipOptions, Shipping};
use crate::store::shipments::{handover, ChannelOrderRow, ShipmentRow};

/// The most orders one label call prints.
pub const LABELS_MAX: usize = 50;

/// An order that could not be printed: our order, the code, the platform's words.
pub type LabelFailure = (i64, Code, String);

/// What a marketplace order's shipping needs: its shop, which marketplace order it is, and
/// the marketplace's shipping calls.
struct Shippable {
    ch: ChannelRow,
    order: ChannelOrderRow,
    adapter: Arc<dyn Adapter>,
}

impl Shippable {
    fn shipping(&self) -> &dyn Shipping {
        self.adapter.shipping().expect("checked when found")
    }
}

fn handover_word(h: &Handover) -> &'static str {
    match h {
        Handover::Pickup { .. } => handover::PICKUP,
        Handover::Dropoff => handover::DROPOFF,
        Handover::OwnCarrier { .. } => handover::OWN_CARRIER,
        Handover::Platform => handover::PLATFORM,
    }
}

/// What the seller sees of a marketplace order's shipping: the ways it may be handed over
/// now, its shipment once arranged, and the buyer's cancellation request (its reason) while
/// one waits.
pub type ShippingView = (Option<ShipOptions>, Option<ShipmentRow>, Option<String>);

impl Intake {
    /// Our order `order_id` of the store as a marketplace order, and its shop.
    async fn marketplace_order(&self, store_id: i64, order_id: i64) -> Result<(ChannelOrderRow, ChannelRow), Trouble> {
        let repo = &self.inner.repo;
        let order = repo
            .channel_order(store_id, order_id)
            .await?
            .ok_or_else(|| Error::new(Kind::NotFound, Code::ChannelOrderNotFound))?;
        let ch = repo
            .channel(order.store_channel_id)
            .await?
            .filter(|c| c.store_id == store_id)
            .ok_or_else(|| Error::new(Kind::NotFound, Code::MarketplaceChannelNotFound))?;
        Ok((order, ch))
    }

    /// Our order `order_id` of the store as a marketplace order its marketplace ships.
    async fn shippable(&self, store_id: i64, order_id: i64) -> Result<Shippable, Trouble> {
        let (order, ch) = self.marketplace_order(store_id, order_id).await?;
        let adapter = ch
            .marketplace()
            .and_then(|m| self.adapter(m).cloned())
            .filter(|a| a.shipping().is_some())
            .ok_or_else(|| Error::new(Kind::Conflict, Code::ChannelShippingUnavailable))?;
        Ok(Shippable { ch, order, adapter })
    }

    /// How our order may be handed over now (`None` once arranged, or while the buyer's
    /// request to cancel waits: the platform ships nothing meanwhile), its shipment, and the
    /// buyer's request.
    pub async fn channel_shipping(&self, store_id: i64, order_id: i64) -> Result<ShippingView, Trouble> {
        let s = self.shippable(store_id, order_id).await?;
        let kept = self.inner.repo.shipment(s.ch.id, &s.order.order_id).await?;
        if stage_of(&s.order) == Some(Stage::CancelAsked) {
            return Ok((None, kept, Some(s.order.cancel_reason.clone())));
        }
        if let Some(kept) = kept {
            return Ok((None, Some(self.with_tracking(&s, kept).await), None));
        }
        refuse_on_hold(&s.order)?;
        let shop = s.ch.shop();
        let options = self
            .call(s.adapter.as_ref(), &s.ch, |access| {
                let (shop, s) = (&shop, &s);
                async move { s.shipping().ship_options(Session { shop, access: &access }, &s.order.order_id).await }
            })
            .await?;
        Ok((Some(options), None, None))
    }

    /// Arranges our order's shipment with its platform as `how` says (once: an arranged
    /// order answers its shipment), then takes the order as the platform now shows it.
    pub async fn arrange(
        &self,
        store_id: i64,
        user_id: i64,
        order_id: i64,
        how: &Handover,
    ) -> Result<ShipmentRow, Trouble> {
        let s = self.shippable(store_id, order_id).await?;
        if let Some(kept) = self.inner.repo.shipment(s.ch.id, &s.order.order_id).await? {
            return Ok(self.with_tracking(&s, kept).await);
        }
        refuse_on_hold(&s.order)?;
        let shop = s.ch.shop();
        self.call(s.adapter.as_ref(), &s.ch, |access| {
            let (shop, s) = (&shop, &s);
            async move { s.shipping().arrange(Session { shop, access: &access }, &s.order.order_id, how).await }
        })
        .await?;
        let own = match how {
            Handover::OwnCarrier { tracking_no } => tracking_no.as_str(),
            _ => "",
        };
        let kept = self.inner.repo.save_shipment(store_id, &s.order, handover_word(how), own, user_id).await?;
        self.follow(&s.ch, s.adapter.as_ref(), &s.order.order_id).await?;
        Ok(self.with_tracking(&s, kept).await)
    }

    /// Our order follows its platform: read back as the platform shows it now and taken in
    /// like a push (a change we have changes nothing). The platform's stage after, when it
    /// answered.
    async fn follow(&self, ch: &ChannelRow, adapter: &dyn Adapter, order_id: &str) -> Result<Option<Stage>, Trouble> {
        let shop = ch.shop();
        let ids = vec![order_id.to_string()];
        match self
            .call(adapter, ch, |access| {
                let (shop, ids) = (&shop, &ids);
                async move { adapter.orders(Session { shop, access: &access }, ids).await }
            })
            .await
        {
            Ok(found) => {
                let mut stage = None;
                for o in &found {
                    self.take(ch, o).await?;
                    stage = o.stage;
                }
                Ok(stage)
            }
            // The platform's push or the next poll brings the change.
            Err(e) => {
                tracing::info!(store_channel = ch.id, error = %e, "could not read a marketplace order back");
                Ok(None)
            }
        }
    }

    /// Accepts (`accept`) or rejects the buyer's request to cancel our order, on the
    /// platform first; our order then follows the platform (an accepted request cancels it
    /// and releases its stock, once: a request answered is no longer waiting). True when the
    /// platform cancelled it.
    pub async fn answer_cancellation(&self, store_id: i64, order_id: i64, accept: bool) -> Result<bool, Trouble> {
        let (order, ch) = self.marketplace_order(store_id, order_id).await?;
        if stage_of(&order) != Some(Stage::CancelAsked) {
            return Err(Error::new(Kind::Conflict, Code::ChannelCancelNotAsked).into());
        }
        let adapter = ch
            .marketplace()
            .and_then(|m| self.adapter(m).cloned())
            .filter(|a| a.cancellations().is_some())
            .ok_or_else(|| Error::new(Kind::Conflict, Code::ChannelCancelUnavailable))?;
        let shop = ch.shop();
        let answered = self
            .call(adapter.as_ref(), &ch, |access| {
                let (shop, adapter, id) = (&shop, &adapter, &order.order_id);
                async move {
                    let answer = adapter.cancellations().expect("checked above");
                    answer.answer(Session { shop, access: &access }, id, accept).await
                }
            })
            .await;
        // Refused or not, the order is read back: a request the buyer withdrew, or one the
        // platform decided, no longer shows as waiting.
        let stage = self.follow(&ch, adapter.as_ref(), &order.order_id).await?;
        answered?;
        Ok(stage == Some(Stage::Cancelled))
    }

    /// Arranges each of our orders `order_ids` the same way, each on its own: a pick-up at
    /// the order's default pick-up address (or its first) in the first time the platform
    /// offers, or a drop-off; an order whose platform hands parcels over only as the shop is
    /// set up there (Lazada) goes that way either way. The orders arranged (before too), and
    /// why each other was not.
    pub async fn arrange_many(
        &self,
        store_id: i64,
        user_id: i64,
        order_ids: &[i64],
        pickup: bool,
    ) -> (Vec<i64>, Vec<LabelFailure>) {
        let mut arranged = Vec::new();
        let mut failed = Vec::new();
        for &id in order_ids {
            match self.arrange_one_way(store_id, user_id, id, pickup).await {
                Ok(()) => arranged.push(id),
                Err(t) => failed.push(failure(id, t)),
            }
        }
        (arranged, failed)
    }

    async fn arrange_one_way(&self, store_id: i64, user_id: i64, order_id: i64, pickup: bool) -> Result<(), Trouble> {
        let (options, kept, _) = self.channel_shipping(store_id, order_id).await?;
        if kept.is_some() {
            return Ok(());
        }
        let unavailable = || Trouble::from(Error::new(Kind::Conflict, Code::ChannelHandoverUnavailable));
        let options = options.ok_or_else(unavailable)?;
        let how = if options.platform {
            Handover::Platform
        } else if pickup {
            let address =
                options.pickup.iter().find(|a| a.default).or(options.pickup.first()).ok_or_else(unavailable)?;
            let slot = address.slots.first().ok_or_else(unavailable)?;
            Handover::Pickup { address_id: address.id.clone(), slot_id: slot.id.clone() }
        } else if options.dropoff {
            Handover::Dropoff
        } else {
            return Err(unavailable());
        };
        self.arrange(store_id, user_id, order_id, &how).await.map(|_| ())
    }

    /// The shipment with the platform's tracking number asked for while it has none.
    async fn with_tracking(&self, s: &Shippable, mut kept: ShipmentRow) -> ShipmentRow {
        if !kept.tracking_no.is_empty() {
            return kept;
        }
        let shop = s.ch.shop();
        let asked = self
            .call(s.adapter.as_ref(), &s.ch, |access| {
                let (shop, s) = (&shop, &s);
                async move { s.shipping().tracking_no(Session { shop, access: &access }, &s.order.order_id).await }
            })
            .await;
        match asked {
            Ok(Some(number)) => {
                if let Err(e) = self.inner.repo.set_tracking(s.ch.id, &s.order.order_id, &number).await {
                    tracing::warn!(error = %e, "could not keep a tracking number");
                }
                kept.tracking_no = number;
            }
            Ok(None) => {}
            Err(e) => tracing::info!(store_channel = s.ch.id, error = %e, "could not read a tracking number"),
        }
        kept
    }

    /// The platform's labels of our orders `order_ids` (each arranged, with its tracking
    /// number) in one PDF, in the order asked, and why each other one was not printed.
    pub async fn labels(
        &self,
        store_id: i64,
        order_ids: &[i64],
    ) -> Result<(Vec<u8>, Vec<i64>, Vec<LabelFailure>), Trouble> {
        let mut files = Vec::new();
        let mut printed = Vec::new();
        let mut failed = Vec::new();
        for &id in order_ids {
            match self.label(store_id, id).await {
                Ok(pdf) => {
                    files.push(pdf);
                    printed.push(id);
                }
                Err(t) => failed.push(failure(id, t)),
            }
        }
        if files.is_empty() {
            return Ok((Vec::new(), printed, failed));
        }
        let merged = tokio::task::spawn_blocking(move || bo_pdf::merge::merge(&files))
            .await
            .map_err(|e| Error::internal(anyhow::anyhow!(e)))?
            .map_err(|e| {
                Trouble::Channel(ChannelError::Malformed(format!(
                    "a label could not be read: {}",
                    crate::adapters::clip(&e)
                )))
            })?;
        Ok((merged, printed, failed))
    }

    async fn label(&self, store_id: i64, order_id: i64) -> Result<Vec<u8>, Trouble> {
        let s = self.shippable(store_id, order_id).await?;
        let kept = self
            .inner
            .repo
            .shipment(s.ch.id, &s.order.order_id)
            .await?
            .ok_or_else(|| Error::new(Kind::Conflict, Code::ChannelShipmentNotArranged))?;
        let kept = self.with_tracking(&s, kept).await;
        if kept.tracking_no.is_empty() {
            return Err(Error::new(Kind::Conflict, Code::ChannelTrackingPending).into());
        }
        let shop = s.ch.shop();
        let pdf = self
            .call(s.adapter.as_ref(), &s.ch, |access| {
                let (shop, s, tracking) = (&shop, &s, &kept.tracking_no);
                async move { s.shipping().label(Session { shop, access: &access }, &s.order.order_id, tracking).await }
            })
            .await?;
        self.inner.repo.label_printed(s.ch.id, &s.order.order_id).await?;
        Ok(pdf)
    }
}

/// Why order `id` was not done: the platform's words where it refused, our code otherwise.
fn failure(id: i64, t: Trouble) -> LabelFailure {
    match t {
        Trouble::Channel(ChannelError::Rejected { code, message }) => {
            (id, Code::MarketplaceRejected, format!("{code}: {message}"))
        }
        t => (id, Error::from(t).code, String::new()),
    }
}

/// The stage the order's last change gave, as kept (`None`: a word we do not know).
fn stage_of(o: &ChannelOrderRow) -> Option<Stage> {
    serde_json::from_value(serde_json::Value::String(o.stage.clone())).ok()
}

/// An order in the platform's hold period is not prepared yet.
fn refuse_on_hold(o: &ChannelOrderRow) -> Result<(), Trouble> {
    if stage_of(o) == Some(Stage::OnHold) {
        return Err(Error::new(Kind::Conflict, Code::ChannelOrderOnHold).into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(stage: &str) -> ChannelOrderRow {
        ChannelOrderRow {
            store_channel_id: 1,
            order_id: "1".into(),
            stage: stage.into(),
            cancel_reason: String::new(),
            our_order_id: 7,
        }
    }

    #[test]
    fn an_order_on_hold_is_refused_and_the_others_are_the_platforms_to_judge() {
        assert!(
            matches!(refuse_on_hold(&order("on_hold")), Err(Trouble::Ours(e)) if e.code == Code::ChannelOrderOnHold)
        );
        for stage in ["paid", "packed", "cancel_asked", "unpaid", ""] {
            assert!(refuse_on_hold(&order(stage)).is_ok(), "{stage}");
        }
        assert_eq!(handover_word(&Handover::Dropoff), "dropoff");
    }
}
