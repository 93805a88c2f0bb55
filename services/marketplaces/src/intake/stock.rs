//! Our stock out: every change of a SKU's level in the ledger (`wms.stock.moved`) makes the
//! listings linked to it, alone or in a bundle, due ([`StockLinks`]); the pusher
//! ([`Intake::push_stock`], one replica at a time under a lease) works out what each should
//! show by its shop's rule (or its own) from the levels of its parts in the warehouses the
//! shop pushes from (`domain::stock_rule`, the **absolute** quantity, never a difference),
//! and sends what changed, a shop at a time at its marketplace's pace, each listing's answer
//! kept in the push log. A burst of changes is one push of the newest level; a throttled or
//! failed push is tried again after a growing wait; a listing the marketplace refuses is not
//! tried again until its level changes; an unlinked listing is never pushed. Orders from
//! every channel hold stock in the one ledger, so when it reaches 0 every linked listing is
//! pushed 0.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use async_trait::async_trait;
use bo_kit::db::Tx;
use bo_kit::inbox::{Meta, OnAll};
use bo_proto::events::v1::StockMoved;
use bo_proto::wms::v1 as wpb;

use super::*;
use crate::adapters::StockLevel;
use crate::domain::bundle;
use crate::domain::stock_rule::{self, Decision, Part};
use crate::store::{Level, ListingRow, Pushed, RuleRow};

/// Listings pushed per round.
const ROUND: i64 = 2_000;
/// Items whose stock is read back from the marketplace after a shop's push: a sample, those
/// checked longest ago first, so every listing is checked in turn.
pub const READ_BACK_ITEMS: usize = 5;

/// Keeps the levels the ledger tells, making the listings of the SKUs due (in the inbox's
/// transaction): the events that arrived together in a few statements per warehouse.
pub struct StockLinks;

#[async_trait]
impl OnAll<StockMoved> for StockLinks {
    async fn on_all(&self, tx: &mut Tx, events: Vec<(Meta, StockMoved)>) -> anyhow::Result<()> {
        let mut by_warehouse: BTreeMap<(i64, i64), Vec<Level>> = BTreeMap::new();
        for (meta, moved) in events {
            if let (Some(level), Some(movement)) = (moved.level, moved.movement) {
                by_warehouse.entry((meta.store_id, level.warehouse_id)).or_default().push(Level {
                    sku_id: level.sku_id,
                    available: level.on_hand - level.reserved,
                    movement: movement.id,
                });
            }
        }
        for ((store_id, warehouse_id), levels) in by_warehouse {
            Repo::apply_levels(tx, store_id, warehouse_id, &levels).await?;
        }
        Ok(())
    }
}

/// The calls of one shop's push: the listings of each, at most `per_call`, one listing per
/// call where the marketplace wants it so.
fn calls<T: Clone>(listings: Vec<(ListingRow, T)>, per_call: usize, one_item: bool) -> Vec<Vec<(ListingRow, T)>> {
    let per_call = per_call.max(1);
    let mut groups: BTreeMap<String, Vec<(ListingRow, T)>> = BTreeMap::new();
    for l in listings {
        let key = if one_item { l.0.item_id.clone() } else { String::new() };
        groups.entry(key).or_default().push(l);
    }
    groups.into_values().flat_map(|g| g.chunks(per_call).map(<[_]>::to_vec).collect::<Vec<_>>()).collect()
}

/// A listing due, with the rule it follows, the warehouses it is pushed from and its parts.
type Planned = (ListingRow, RuleRow, Vec<i64>, Vec<(i64, i64)>);

/// The SKUs a listing is made of, and how many units of each a set takes.
fn parts_of(l: &ListingRow, bundles: &HashMap<i64, Vec<bundle::Part>>) -> Vec<(i64, i64)> {
    if l.bundle != 0 {
        bundles.get(&l.id).map(|ps| ps.iter().map(|p| (p.sku_id, p.per_set)).collect()).unwrap_or_default()
    } else {
        vec![(l.sku_id, 1)]
    }
}

/// What a listing shows under `rule` from the levels of its parts in `warehouses`.
fn decide(
    l: &ListingRow,
    rule: &RuleRow,
    warehouses: &[i64],
    parts: &[(i64, i64)],
    levels: &HashMap<(i64, i64), i64>,
) -> Decision {
    let parts: Vec<Part> = parts
        .iter()
        .map(|(sku, per_set)| Part {
            available: warehouses.iter().map(|w| levels.get(&(*w, *sku)).copied().unwrap_or(0).max(0)).sum(),
            per_set: *per_set,
        })
        .collect();
    stock_rule::quantity(&rule.rule, stock_rule::sets(&parts), (l.sent >= 0).then_some(l.sent))
}

impl Intake {
    /// Pushes the stock of every listing due now, shops side by side: how many listings
    /// the marketplaces took.
    pub async fn push_stock(&self) -> bo_kit::Result<usize> {
        let due = self.inner.repo.due_listings(ROUND).await?;
        let mut by_shop: BTreeMap<i64, Vec<ListingRow>> = BTreeMap::new();
        for l in due {
            by_shop.entry(l.store_channel_id).or_default().push(l);
        }
        let pushes = by_shop.into_iter().map(|(id, listings)| async move {
            let n = match self.push_shop(id, listings).await {
                Ok(n) => n,
                Err(e) => {
                    tracing::info!(store_channel = id, error = %e, "a shop's stock push failed; it is tried again");
                    0
                }
            };
            if let Err(e) = self.inner.repo.sync(id).await {
                tracing::warn!(store_channel = id, error = %e, "could not count a shop's push all");
            }
            n
        });
        Ok(futures::future::join_all(pushes).await.into_iter().sum())
    }

    async fn push_shop(&self, id: i64, listings: Vec<ListingRow>) -> Result<usize, Trouble> {
        let repo = &self.inner.repo;
        let Some(ch) = repo.channel(id).await? else { return Ok(0) };
        let m = ch.marketplace().ok_or_else(|| Error::internal(anyhow::anyhow!("no marketplace")))?;
        let Some(adapter) = self.adapter(m).cloned() else { return Ok(0) };
        if ch.warehouse_id == 0 {
            let ids: Vec<i64> = listings.iter().map(|l| l.id).collect();
            repo.push_none(&ids, "no_warehouse").await?;
            return Ok(0);
        }
        // Each listing's rule, its warehouses and its parts, then the levels they need.
        let rules = repo.rules(ch.id).await?;
        let shop_rule = rules.get(&0).cloned().unwrap_or_default();
        let bundle_ids: Vec<i64> = listings.iter().filter(|l| l.bundle != 0).map(|l| l.id).collect();
        let bundles = repo.parts(&bundle_ids).await?;
        let plan: Vec<Planned> = listings
            .into_iter()
            .map(|l| {
                let rule = rules.get(&l.id).cloned().unwrap_or_else(|| shop_rule.clone());
                let warehouses =
                    if rule.warehouses.is_empty() { vec![ch.warehouse_id] } else { rule.warehouses.clone() };
                let parts = parts_of(&l, &bundles);
                (l, rule, warehouses, parts)
            })
            .collect();
        let mut wanted: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
        for (_, _, warehouses, parts) in &plan {
            for w in warehouses {
                wanted.entry(*w).or_default().extend(parts.iter().map(|(sku, _)| *sku));
            }
        }
        let levels = self.levels(&ch, &wanted).await?;
        let mut to_send = Vec::new();
        for (l, rule, warehouses, parts) in plan {
            match decide(&l, &rule, &warehouses, &parts, &levels) {
                // The marketplace shows it already (nothing forces a push).
                Decision::Push(q) if q == l.sent && l.wanted >= 0 => {
                    repo.pushed(&l, Pushed::Left(q, ""), l.changes).await?
                }
                Decision::Push(q) => to_send.push((l, q)),
                Decision::IncreaseOnly { wanted } => {
                    repo.pushed(&l, Pushed::Left(wanted, "increase_only"), l.changes).await?
                }
            }
        }
        let limits = adapter.limits();
        let pace = Duration::from_millis(1000 / u64::from(self.inner.settings.stock_calls_per_second.max(1)));
        let shop = ch.shop();
        let batches = calls(to_send, limits.stock_per_call, limits.stock_one_item);
        let mut taken = 0;
        let mut set = Vec::new();
        for (n, batch) in batches.iter().enumerate() {
            if n > 0 {
                tokio::time::sleep(pace).await;
            }
            let levels: Vec<StockLevel> = batch
                .iter()
                .map(|(l, q)| StockLevel { item_id: l.item_id.clone(), model_id: l.model_id.clone(), quantity: *q })
                .collect();
            let answered = self
                .call(adapter.as_ref(), &ch, |access| {
                    let (adapter, shop, levels) = (&adapter, &shop, &levels);
                    async move { adapter.set_stock(Session { shop, access: &access }, levels).await }
                })
                .await;
            match answered {
                Ok(outcomes) => {
                    for (l, q) in batch {
                        let said = outcomes.iter().find(|o| o.item_id == l.item_id && o.model_id == l.model_id);
                        match said.and_then(|o| o.refused.as_deref()) {
                            Some(why) => repo.pushed(l, Pushed::Refused(*q, why), l.changes).await?,
                            None => {
                                repo.pushed(l, Pushed::Set(*q), l.changes).await?;
                                set.push((l, *q));
                                taken += 1;
                            }
                        }
                    }
                }
                Err(Trouble::Channel(ChannelError::Rejected { code, message })) => {
                    let why = format!("{code}: {message}");
                    for (l, q) in batch {
                        repo.pushed(l, Pushed::Refused(*q, &why), l.changes).await?;
                    }
                }
                Err(e) => {
                    // Throttled, unreachable, or the authorization is gone: the rest waits.
                    let wait = match &e {
                        Trouble::Channel(ChannelError::Throttled { retry_after: Some(d), .. }) => d.as_millis() as i64,
                        _ => backoff_ms(batch.iter().map(|(l, _)| l.attempts).max().unwrap_or(0)),
                    };
                    let rest: Vec<i64> = batches[n..].iter().flatten().map(|(l, _)| l.id).collect();
                    let why: String = e.to_string().chars().take(200).collect();
                    repo.push_later(&rest, wait, &why).await?;
                    return Err(e);
                }
            }
        }
        if let Err(e) = self.read_back(adapter.as_ref(), &ch, &set).await {
            tracing::info!(store_channel = ch.id, error = %e, "could not read a push's stock back; the next push reads it");
        }
        Ok(taken)
    }

    /// Reads the stock of a sample of the listings a push set back from the marketplace
    /// ([`READ_BACK_ITEMS`] items, those checked longest ago first), keeping what it shows:
    /// a listing showing another quantity than it took is flagged (`stock_differs`) until a
    /// push or a read shows them equal again.
    async fn read_back(
        &self,
        adapter: &dyn Adapter,
        ch: &ChannelRow,
        set: &[(&ListingRow, i64)],
    ) -> Result<(), Trouble> {
        let items = sample_items(set);
        if items.is_empty() {
            return Ok(());
        }
        let shop = ch.shop();
        let shown = self
            .call(adapter, ch, |access| {
                let (shop, items) = (&shop, &items);
                async move { adapter.items(Session { shop, access: &access }, items).await }
            })
            .await?;
        let now = bo_kit::time::now_ms();
        for (l, q) in set.iter().filter(|(l, _)| items.contains(&l.item_id)) {
            let Some(m) = shown.iter().find(|m| m.item_id == l.item_id && m.model_id == l.model_id) else { continue };
            if m.stock < 0 {
                continue;
            }
            if m.stock != *q {
                tracing::info!(
                    store_channel = ch.id,
                    listing = l.id,
                    pushed = q,
                    shown = m.stock,
                    "the marketplace shows another stock than it took"
                );
            }
            self.inner.repo.read_back(l.id, *q, m.stock, now).await?;
        }
        Ok(())
    }

    /// The levels of the SKUs wanted in each warehouse: as the ledger's movements told them,
    /// and read from the ledger where none has yet (kept, so they are read once).
    async fn levels(
        &self,
        ch: &ChannelRow,
        wanted: &BTreeMap<i64, BTreeSet<i64>>,
    ) -> Result<HashMap<(i64, i64), i64>, Trouble> {
        let repo = &self.inner.repo;
        let warehouses: Vec<i64> = wanted.keys().copied().collect();
        let skus: BTreeSet<i64> = wanted.values().flatten().copied().collect();
        let skus: Vec<i64> = skus.into_iter().collect();
        let mut levels = repo.levels(ch.store_id, &warehouses, &skus).await?;
        for (warehouse, skus) in wanted {
            let unknown: Vec<i64> = skus.iter().copied().filter(|s| !levels.contains_key(&(*warehouse, *s))).collect();
            if unknown.is_empty() {
                continue;
            }
            let unavailable = || Error::new(bo_kit::error::Kind::Unavailable, Code::WarehousesUnavailable);
            let mut wms = self.inner.wms.clone().ok_or_else(unavailable)?;
            let identity = self.inner.identity.as_ref().ok_or_else(unavailable)?;
            let read = wms
                .get_stock(
                    identity
                        .acting(ch.store_id, 0)
                        .request(wpb::GetStockRequest { sku_ids: unknown.clone(), warehouse_id: *warehouse }),
                )
                .await
                .map_err(|s| Error::from_status(&s))?
                .into_inner()
                .levels;
            let mut found = Vec::with_capacity(unknown.len());
            for sku in unknown {
                let available = read
                    .iter()
                    .find(|v| v.sku_id == sku && v.warehouse_id == *warehouse)
                    .map_or(0, |v| v.available.max(0));
                found.push((*warehouse, sku, available));
                levels.insert((*warehouse, sku), available);
            }
            repo.save_read_levels(ch.store_id, &found).await?;
        }
        Ok(levels)
    }
}

/// The items a push's read-back reads: [`READ_BACK_ITEMS`] of those it set, the listings
/// checked longest ago first.
fn sample_items(set: &[(&ListingRow, i64)]) -> Vec<String> {
    let mut by_age: Vec<&ListingRow> = set.iter().map(|(l, _)| *l).collect();
    by_age.sort_by_key(|l| (l.stock_checked_at, l.id));
    let mut items: Vec<String> = Vec::new();
    for l in by_age {
        if items.len() == READ_BACK_ITEMS {
            break;
        }
        if !items.contains(&l.item_id) {
            items.push(l.item_id.clone());
        }
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn listing(id: i64, item: &str, model: &str) -> ListingRow {
        ListingRow {
            id,
            store_id: 1,
            store_channel_id: 1,
            item_id: item.into(),
            model_id: model.into(),
            seller_sku: String::new(),
            sku_id: id,
            linked_by: "order".into(),
            name: String::new(),
            options: "[]".into(),
            price: 0,
            platform_stock: -1,
            image_url: String::new(),
            state: "active".into(),
            listed_at: 0,
            seen_at: 0,
            bundle: 0,
            wanted: 3,
            sent: -1,
            sent_at: 0,
            due_at: 1,
            attempts: 0,
            last_answer: String::new(),
            changes: 1,
            updated_at: 0,
            stock_checked_at: 0,
        }
    }

    #[test]
    fn the_read_back_samples_items_checked_longest_ago_first() {
        let mut rows: Vec<ListingRow> =
            (1..=8).map(|i| listing(i, &format!("I{}", (i + 1) / 2), &format!("M{i}"))).collect();
        // I1 (listings 1, 2) and I2 (3, 4) were checked lately; I3 only in part.
        for (i, at) in [(0, 50), (1, 60), (2, 70), (3, 70), (4, 10)] {
            rows[i].stock_checked_at = at;
        }
        let set: Vec<(&ListingRow, i64)> = rows.iter().map(|l| (l, 1)).collect();
        assert_eq!(sample_items(&set), ["I3", "I4", "I1", "I2"]);
        let many: Vec<ListingRow> = (1..=20).map(|i| listing(i, &format!("I{i}"), "")).collect();
        let set: Vec<(&ListingRow, i64)> = many.iter().map(|l| (l, 1)).collect();
        assert_eq!(sample_items(&set), ["I1", "I2", "I3", "I4", "I5"]);
        assert!(sample_items(&[]).is_empty());
    }

    #[test]
    fn calls_take_one_listing_where_the_marketplace_wants_it() {
        let links: Vec<(ListingRow, i64)> =
            [(1, "A", "1"), (2, "B", "1"), (3, "A", "2"), (4, "A", "3")].map(|(i, a, m)| (listing(i, a, m), 0)).into();
        let ids = |calls: Vec<Vec<(ListingRow, i64)>>| {
            calls.iter().map(|c| c.iter().map(|(l, _)| l.id).collect::<Vec<_>>()).collect::<Vec<_>>()
        };
        assert_eq!(ids(calls(links.clone(), 50, true)), vec![vec![1, 3, 4], vec![2]]);
        assert_eq!(ids(calls(links.clone(), 2, true)), vec![vec![1, 3], vec![4], vec![2]]);
        assert_eq!(ids(calls(links.clone(), 3, false)), vec![vec![1, 2, 3], vec![4]]);
        assert!(calls(Vec::<(ListingRow, i64)>::new(), 50, true).is_empty());
    }

    #[test]
    fn a_listing_shows_its_rule_over_its_parts_in_its_warehouses() {
        let levels: HashMap<(i64, i64), i64> = [((1, 10), 7), ((2, 10), 5), ((1, 11), 3), ((2, 11), -2)].into();
        let mut l = listing(10, "A", "1");
        let all = RuleRow::default();
        assert_eq!(decide(&l, &all, &[1], &[(10, 1)], &levels), Decision::Push(7));
        assert_eq!(decide(&l, &all, &[1, 2], &[(10, 1)], &levels), Decision::Push(12), "both warehouses");
        // A set of 2 × SKU 10 and 1 × SKU 11: 12 / 2 = 6, 3 (the deficit counts as none).
        assert_eq!(decide(&l, &all, &[1, 2], &[(10, 2), (11, 1)], &levels), Decision::Push(3));
        assert_eq!(decide(&l, &all, &[1], &[(99, 1)], &levels), Decision::Push(0), "a SKU never told is none");
        let half = RuleRow { rule: stock_rule::Rule { percent: 50, increase_only: true, ..Default::default() }, ..all };
        l.sent = 5;
        assert_eq!(decide(&l, &half, &[1, 2], &[(10, 1)], &levels), Decision::Push(6));
        assert_eq!(decide(&l, &half, &[1], &[(10, 1)], &levels), Decision::IncreaseOnly { wanted: 3 });
        let bundles: HashMap<i64, Vec<bundle::Part>> =
            [(10, vec![bundle::Part { sku_id: 11, per_set: 2, share_bp: 10_000 }])].into();
        assert_eq!(parts_of(&l, &bundles), vec![(10, 1)]);
        l.bundle = 1;
        assert_eq!(parts_of(&l, &bundles), vec![(11, 2)]);
    }
}
