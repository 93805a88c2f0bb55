//! Buyers' returns in: with each poll of a shop, the returns it changed since its own
//! watermark (less an overlap, in the platform's longest window at a time) are read, and each
//! return of a marketplace order we took in is handed to the orders service: its lines as the
//! listings' SKUs (a bundle's as its parts), its stage in the orders service's words. A change
//! no newer than the one handed over is not handed again (and the orders service ignores it).

use bo_kit::time::now_ms;
use bo_kit::{Code, Error};
use bo_proto::orders::v1 as opb;

use super::{Intake, Trouble};
use crate::adapters::returns::MarketReturn;
use crate::adapters::{Adapter, Session};
use crate::domain::returns::ReturnStage;
use crate::store::{ChannelRow, Linked};

/// How far back a shop's first read of returns reaches, seconds.
const FIRST_READ_S: i64 = 30 * 24 * 3600;
/// How far back a read reaches after a long disconnection, seconds.
const BACKFILL_S: i64 = 60 * 24 * 3600;

/// The orders service's word for a stage.
fn stage_of(s: ReturnStage) -> opb::ReturnStage {
    match s {
        ReturnStage::Requested => opb::ReturnStage::Requested,
        ReturnStage::Accepted => opb::ReturnStage::Accepted,
        ReturnStage::ShippedBack => opb::ReturnStage::ShippedBack,
        ReturnStage::DeliveredBack => opb::ReturnStage::DeliveredBack,
        ReturnStage::Refunded => opb::ReturnStage::Refunded,
        ReturnStage::Closed => opb::ReturnStage::Closed,
    }
}

impl Intake {
    /// Reads the shop's returns changed since its watermark and hands the new changes over:
    /// how many made or moved a return of ours.
    pub(super) async fn poll_returns(&self, ch: &ChannelRow, adapter: &dyn Adapter) -> Result<usize, Trouble> {
        let Some(returns) = adapter.returns() else { return Ok(0) };
        let repo = &self.inner.repo;
        let now_s = now_ms() / 1000;
        let mark = repo.returns_watermark(ch.id).await?;
        let mut from = if mark == 0 {
            now_s - FIRST_READ_S
        } else {
            (mark - self.inner.settings.poll_overlap_s as i64).max(now_s - BACKFILL_S)
        };
        let window = returns.window_s().max(60);
        let shop = ch.shop();
        let mut taken = 0;
        while from < now_s {
            let to = (from + window).min(now_s);
            let mut cursor: Option<String> = None;
            loop {
                let at = cursor.clone();
                let page = self
                    .call(adapter, ch, |access| {
                        let (shop, at) = (&shop, at.clone());
                        async move {
                            returns.changed_returns(Session { shop, access: &access }, from, to, at.as_deref()).await
                        }
                    })
                    .await?;
                for r in &page.returns {
                    if self.take_return(ch, r).await? {
                        taken += 1;
                    }
                }
                match page.next {
                    Some(next) if !page.returns.is_empty() => cursor = Some(next),
                    _ => break,
                }
            }
            from = to;
        }
        repo.returns_polled(ch.id, now_s).await?;
        Ok(taken)
    }

    /// Hands one return to the orders service: true when it made or moved a return of ours
    /// (false for a change handed over before, a status we do not know, and a return of an
    /// order we never took in).
    async fn take_return(&self, ch: &ChannelRow, r: &MarketReturn) -> Result<bool, Trouble> {
        let repo = &self.inner.repo;
        let Some(stage) = r.stage else {
            tracing::warn!(store_channel = ch.id, r#return = %r.return_id, status = %r.status, "a return status we do not know");
            return Ok(false);
        };
        if repo.return_taken_at(ch.id, &r.return_id).await?.is_some_and(|t| r.updated_at_s > 0 && t >= r.updated_at_s) {
            return Ok(false);
        }
        let Some(our_order) = repo.our_order(ch.id, &r.order_id).await? else {
            tracing::info!(store_channel = ch.id, r#return = %r.return_id, order = %r.order_id, "a return of an order never taken in");
            return Ok(false);
        };
        let mut lines = Vec::new();
        for l in &r.lines {
            let (item, model) = repo
                .return_listing(ch.id, &l.item_id, &l.model_id, &l.seller_sku)
                .await?
                .unwrap_or_else(|| (l.item_id.clone(), l.model_id.clone()));
            let listing = if model.is_empty() { item.clone() } else { format!("{item}:{model}") };
            let linked = repo.linked(ch.id, &[(item, model)]).await?.into_iter().next().map(|(_, linked)| linked);
            let line = |sku_id: i64, quantity: i64| opb::ChannelReturnLine {
                listing: listing.clone(),
                sku_id,
                quantity,
                name: if l.name.is_empty() { l.seller_sku.clone() } else { l.name.clone() },
            };
            match linked {
                Some(Linked::Bundle(parts)) => {
                    lines.extend(parts.iter().map(|p| line(p.sku_id, l.quantity.saturating_mul(p.per_set))))
                }
                Some(Linked::Sku(sku)) => lines.push(line(sku, l.quantity)),
                None => lines.push(line(0, l.quantity)),
            }
        }
        let unavailable = || Error::new(bo_kit::error::Kind::Unavailable, Code::ServiceUnavailable);
        let mut orders = self.inner.orders.clone().ok_or_else(unavailable)?;
        let identity = self.inner.identity.as_ref().ok_or_else(unavailable)?;
        let req = opb::TakeChannelReturnRequest {
            channel: ch.marketplace.clone(),
            order_id: our_order,
            reference: r.return_id.clone(),
            // A later stage of the same second is newer.
            changed_at_ms: r.updated_at_s.max(0) * 1000 + stage as i64,
            stage: stage_of(stage) as i32,
            status_word: r.status.clone(),
            refund_only: r.refund_only,
            reason: r.reason.clone(),
            refund_amount: r.refund_satang.max(0),
            tracking_no: r.tracking_no.clone(),
            lines,
        };
        let answer = match orders.take_channel_return(identity.acting(ch.store_id, 0).request(req)).await {
            Ok(a) => a.into_inner(),
            Err(s) => {
                let e = Error::from_status(&s);
                if e.code == Code::OrderNotFound {
                    tracing::info!(store_channel = ch.id, r#return = %r.return_id, "a return of an order the orders service does not have");
                    return Ok(false);
                }
                return Err(e.into());
            }
        };
        let stage_word =
            serde_json::to_value(stage).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
        repo.record_return(ch.id, &r.return_id, &r.order_id, r.updated_at_s, &stage_word, our_order).await?;
        Ok(matches!(answer.outcome(), opb::ChannelTake::Created | opb::ChannelTake::Updated))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stage_has_the_orders_services_word() {
        use ReturnStage as R;
        let words: Vec<opb::ReturnStage> =
            [R::Requested, R::Accepted, R::ShippedBack, R::DeliveredBack, R::Refunded, R::Closed]
                .into_iter()
                .map(stage_of)
                .collect();
        assert_eq!(
            words,
            vec![
                opb::ReturnStage::Requested,
                opb::ReturnStage::Accepted,
                opb::ReturnStage::ShippedBack,
                opb::ReturnStage::DeliveredBack,
                opb::ReturnStage::Refunded,
                opb::ReturnStage::Closed
            ]
        );
    }
}
