//! Our stock out: every change of a linked SKU's level in a shop's warehouse (the ledger's
//! `wms.stock.moved`) makes its listings due to show the new **absolute** available quantity
//! ([`StockLinks`]); the pusher ([`Intake::push_stock`], one replica at a time under a lease)
//! sends what is due, a shop at a time at its marketplace's pace, each listing's answer kept
//! in the push log. A burst of changes is one push of the newest level; a throttled or failed
//! push is tried again after a growing wait; a listing the marketplace refuses is not tried
//! again until its level changes. Orders from every channel hold stock in the one ledger, so
//! when it reaches 0 every linked listing is pushed 0.

use std::collections::BTreeMap;

use async_trait::async_trait;
use bo_kit::db::Tx;
use bo_kit::inbox::{Meta, On};
use bo_proto::events::v1::StockMoved;
use bo_proto::wms::v1 as wpb;

use super::*;
use crate::adapters::StockLevel;
use crate::store::LinkRow;

/// Links pushed per round.
const ROUND: i64 = 2_000;

/// Keeps what linked listings should show as the ledger moves (in the inbox's transaction).
pub struct StockLinks;

#[async_trait]
impl On<StockMoved> for StockLinks {
    async fn on(&self, tx: &mut Tx, meta: &Meta, moved: StockMoved) -> anyhow::Result<()> {
        if let (Some(level), Some(movement)) = (moved.level, moved.movement) {
            Repo::apply_level(
                tx,
                meta.store_id,
                level.warehouse_id,
                level.sku_id,
                level.on_hand - level.reserved,
                movement.id,
            )
            .await?;
        }
        Ok(())
    }
}

/// The calls of one shop's push: the links of each, at most `per_call`, one listing per call
/// where the marketplace wants it so.
fn calls(links: Vec<LinkRow>, per_call: usize, one_item: bool) -> Vec<Vec<LinkRow>> {
    let per_call = per_call.max(1);
    let mut groups: BTreeMap<String, Vec<LinkRow>> = BTreeMap::new();
    for l in links {
        let key = if one_item { l.item_id.clone() } else { String::new() };
        groups.entry(key).or_default().push(l);
    }
    groups.into_values().flat_map(|g| g.chunks(per_call).map(<[LinkRow]>::to_vec).collect::<Vec<_>>()).collect()
}

impl Intake {
    /// Pushes the stock of every listing due now, shops side by side: how many listings
    /// the marketplaces took.
    pub async fn push_stock(&self) -> bo_kit::Result<usize> {
        let due = self.inner.repo.due_links(ROUND).await?;
        let mut by_shop: BTreeMap<i64, Vec<LinkRow>> = BTreeMap::new();
        for l in due {
            by_shop.entry(l.store_channel_id).or_default().push(l);
        }
        let pushes = by_shop.into_iter().map(|(id, links)| async move {
            match self.push_shop(id, links).await {
                Ok(n) => n,
                Err(e) => {
                    tracing::info!(store_channel = id, error = %e, "a shop's stock push failed; it is tried again");
                    0
                }
            }
        });
        Ok(futures::future::join_all(pushes).await.into_iter().sum())
    }

    async fn push_shop(&self, id: i64, mut links: Vec<LinkRow>) -> Result<usize, Trouble> {
        let repo = &self.inner.repo;
        let Some(ch) = repo.channel(id).await? else { return Ok(0) };
        let m = ch.marketplace().ok_or_else(|| Error::internal(anyhow::anyhow!("no marketplace")))?;
        let Some(adapter) = self.adapter(m).cloned() else { return Ok(0) };
        if ch.warehouse_id == 0 {
            let ids: Vec<i64> = links.iter().map(|l| l.id).collect();
            repo.push_none(&ids, "no_warehouse").await?;
            return Ok(0);
        }
        self.read_levels(&ch, &mut links).await?;
        let limits = adapter.limits();
        let pace = Duration::from_millis(1000 / u64::from(self.inner.settings.stock_calls_per_second.max(1)));
        let shop = ch.shop();
        let batches = calls(links, limits.stock_per_call, limits.stock_one_item);
        let mut taken = 0;
        for (n, batch) in batches.iter().enumerate() {
            if n > 0 {
                tokio::time::sleep(pace).await;
            }
            let levels: Vec<StockLevel> = batch
                .iter()
                .map(|l| StockLevel {
                    item_id: l.item_id.clone(),
                    model_id: l.model_id.clone(),
                    quantity: l.wanted.max(0),
                })
                .collect();
            let answered = self
                .call(adapter.as_ref(), &ch, |access| {
                    let (adapter, shop, levels) = (&adapter, &shop, &levels);
                    async move { adapter.set_stock(Session { shop, access: &access }, levels).await }
                })
                .await;
            match answered {
                Ok(outcomes) => {
                    for l in batch {
                        let said = outcomes.iter().find(|o| o.item_id == l.item_id && o.model_id == l.model_id);
                        let refused = said.and_then(|o| o.refused.as_deref());
                        repo.pushed(l, l.wanted.max(0), refused).await?;
                        if refused.is_none() {
                            taken += 1;
                        }
                    }
                }
                Err(Trouble::Channel(ChannelError::Rejected { code, message })) => {
                    let why = format!("{code}: {message}");
                    for l in batch {
                        repo.pushed(l, l.wanted.max(0), Some(&why)).await?;
                    }
                }
                Err(e) => {
                    // Throttled, unreachable, or the authorization is gone: the rest waits.
                    let wait = match &e {
                        Trouble::Channel(ChannelError::Throttled { retry_after: Some(d), .. }) => d.as_millis() as i64,
                        _ => backoff_ms(batch.iter().map(|l| l.attempts).max().unwrap_or(0)),
                    };
                    let rest: Vec<i64> = batches[n..].iter().flatten().map(|l| l.id).collect();
                    let why: String = e.to_string().chars().take(200).collect();
                    repo.push_later(&rest, wait, &why).await?;
                    return Err(e);
                }
            }
        }
        Ok(taken)
    }

    /// Reads from the ledger the level of links that were never told one.
    async fn read_levels(&self, ch: &ChannelRow, links: &mut [LinkRow]) -> Result<(), Trouble> {
        let mut unknown: Vec<i64> = links.iter().filter(|l| l.wanted < 0).map(|l| l.sku_id).collect();
        if unknown.is_empty() {
            return Ok(());
        }
        unknown.sort_unstable();
        unknown.dedup();
        let unavailable = || Error::new(bo_kit::error::Kind::Unavailable, Code::WarehousesUnavailable);
        let mut wms = self.inner.wms.clone().ok_or_else(unavailable)?;
        let identity = self.inner.identity.as_ref().ok_or_else(unavailable)?;
        let levels = wms
            .get_stock(
                identity
                    .acting(ch.store_id, 0)
                    .request(wpb::GetStockRequest { sku_ids: unknown, warehouse_id: ch.warehouse_id }),
            )
            .await
            .map_err(|s| Error::from_status(&s))?
            .into_inner()
            .levels;
        for l in links.iter_mut().filter(|l| l.wanted < 0) {
            let available = levels
                .iter()
                .find(|v| v.sku_id == l.sku_id && v.warehouse_id == ch.warehouse_id)
                .map_or(0, |v| v.available.max(0));
            self.inner.repo.read_level(l.id, available).await?;
            l.wanted = available;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(id: i64, item: &str, model: &str) -> LinkRow {
        LinkRow {
            id,
            store_id: 1,
            store_channel_id: 1,
            item_id: item.into(),
            model_id: model.into(),
            seller_sku: String::new(),
            sku_id: id,
            linked_by: "order".into(),
            wanted: 3,
            wanted_movement: 1,
            sent: -1,
            sent_at: 0,
            due_at: 1,
            attempts: 0,
            last_answer: String::new(),
        }
    }

    #[test]
    fn calls_take_one_listing_where_the_marketplace_wants_it() {
        let links = vec![link(1, "A", "1"), link(2, "B", "1"), link(3, "A", "2"), link(4, "A", "3")];
        let ids = |calls: Vec<Vec<LinkRow>>| {
            calls.iter().map(|c| c.iter().map(|l| l.id).collect::<Vec<_>>()).collect::<Vec<_>>()
        };
        assert_eq!(ids(calls(links.clone(), 50, true)), vec![vec![1, 3, 4], vec![2]]);
        assert_eq!(ids(calls(links.clone(), 2, true)), vec![vec![1, 3], vec![4], vec![2]]);
        assert_eq!(ids(calls(links.clone(), 3, false)), vec![vec![1, 2, 3], vec![4]]);
        assert!(calls(Vec::new(), 50, true).is_empty());
    }
}
