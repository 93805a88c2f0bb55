//! Orders moving between states with their stock: prepare, close, cancel, void and fail,
//! releases, the filler of short orders and the reconciler of what was in flight.

use super::*;
use bo_kit::Code;

impl Orders {
    /// Moves orders by an action, each on its own.
    pub async fn change_state(
        &self,
        ctx: &CallCtx,
        ids: &[i64],
        action: Action,
        cause: &str,
        reason: &str,
    ) -> Result<Vec<Moved>> {
        if ids.is_empty() {
            return Err(Error::invalid_field("ids", "validation.required"));
        }
        if ids.len() > self.settings.max_selection {
            return Err(Error::invalid_field("ids", "order.too_many_selected"));
        }
        if action == Action::Ship {
            return Err(Error::invalid_field("action", "validation.order_action"));
        }
        if action == Action::Fail && !state::CAUSES.contains(&cause) {
            return Err(Error::invalid_field("cause", "validation.failure_cause"));
        }
        if reason.chars().count() > 500 {
            return Err(Error::invalid_field("reason", "validation.too_long"));
        }
        let cod_ok = if action == Action::Prepare { self.cod_channels(ctx).await? } else { HashSet::new() };
        let check = move |row: &OrderRow| -> Option<Code> {
            if let Err(code) = state::by_hand(action, row.platform_ships != 0) {
                return Some(code);
            }
            if action != Action::Prepare {
                return None;
            }
            let problems = row.problems();
            if row.stock_state == stock::SHORT || problems.iter().any(|p| p == problem::STOCK) {
                return Some(Code::InsufficientStock);
            }
            if problems.iter().any(|p| p == problem::ADDRESS) {
                return Some(Code::AddressIncomplete);
            }
            if row.cod != 0 && !cod_ok.contains(&row.logistic_store_channel_id) {
                return Some(Code::IncorrectCodAccount);
            }
            None
        };
        let moved = self.repo.change_state(Self::actor(ctx), ids, action, cause, reason, &check).await?;
        self.relay.wake();
        let release: Vec<i64> = moved.iter().filter(|m| m.release).map(|m| m.id).collect();
        if !release.is_empty() {
            if let Err(e) = self.release(ctx, &release).await {
                tracing::warn!(error = %e, "could not release cancelled orders' stock yet");
            }
        }
        Ok(moved)
    }

    pub(super) async fn release(&self, ctx: &CallCtx, ids: &[i64]) -> Result<()> {
        let references = ids.iter().map(|id| domain::reference(*id)).collect();
        self.clients()?
            .wms
            .clone()
            .release_many(ctx.request(wpb::ReleaseManyRequest { references, r#final: true }))
            .await
            .map_err(Error::from)?;
        self.repo.mark_released(ctx.store_id, ids).await
    }

    /// Shipping channels that collect cash on delivery with the store's COD account.
    pub(super) async fn cod_channels(&self, ctx: &CallCtx) -> Result<HashSet<i64>> {
        let c = self.clients()?;
        let channels = c
            .logistics
            .clone()
            .list_store_channels(ctx.request(lpb::ListStoreChannelsRequest {
                page: Some(bo_proto::common::v1::PageRequest { page: 1, limit: -1 }),
                ..Default::default()
            }))
            .await
            .map_err(Error::from)?
            .into_inner()
            .store_channels;
        let providers: HashSet<String> = c
            .logistics
            .clone()
            .list_store_providers(ctx.request(lpb::ListStoreProvidersRequest {}))
            .await
            .map_err(Error::from)?
            .into_inner()
            .store_providers
            .into_iter()
            .filter(|p| !p.cod_account_no.is_empty())
            .map(|p| p.provider)
            .collect();
        Ok(channels
            .into_iter()
            .filter(|ch| ch.cod && ch.status() == lpb::ChannelStatus::Active && providers.contains(&ch.provider))
            .map(|ch| ch.id)
            .collect())
    }

    /// Fills short orders of a warehouse (holding `sku_id`, or any when 0), oldest first:
    /// each takes all its lines or stays short. Answers (filled, still short).
    pub async fn fill(&self, ctx: &CallCtx, warehouse_id: i64, sku_id: i64) -> Result<(Vec<i64>, Vec<i64>)> {
        let ids = self.repo.short_orders(ctx.store_id, warehouse_id, sku_id).await?;
        let (mut filled, mut short) = (Vec::new(), Vec::new());
        for id in ids {
            let Some(rev) = self.repo.next_revision(ctx.store_id, id, &[stock::SHORT], 0, None).await? else {
                continue;
            };
            let items: Vec<Item> =
                self.repo.items(&[id]).await?.remove(&id).unwrap_or_default().iter().map(ItemRow::item).collect();
            match self.hold(ctx, id, rev, lines_of(&items)).await {
                Ok(_) => {
                    self.repo.settle_hold(Self::actor(ctx), id, rev, true, false).await?;
                    filled.push(id);
                }
                Err(e) if e.code == Code::InsufficientStock => {
                    self.repo.settle_hold(Self::actor(ctx), id, rev, false, false).await?;
                    short.push(id);
                }
                Err(e) => {
                    tracing::warn!(order = id, error = %e, "could not fill a short order yet");
                    short.push(id);
                    break;
                }
            }
        }
        if !filled.is_empty() {
            self.relay.wake();
        }
        Ok((filled, short))
    }

    /// Fills from the queue the stock events left (the filler task).
    pub async fn fill_queued(&self) -> Result<usize> {
        let queued = self.repo.queued_fills(50).await?;
        let n = queued.len();
        for (store_id, warehouse_id, sku_id, queued_at) in queued {
            let ctx = self.system(store_id);
            self.fill(&ctx, warehouse_id, sku_id).await?;
            self.repo.unqueue_fill(store_id, warehouse_id, sku_id, queued_at).await?;
        }
        Ok(n)
    }

    /// Asks wms again for orders a request left in flight, until wms and the order agree.
    pub async fn reconcile(&self) -> Result<usize> {
        let rows = self.repo.in_flight(now_ms() - self.settings.reconcile_after_ms, 200).await?;
        let n = rows.len();
        for row in rows {
            let ctx = self.system(row.store_id);
            let who = Actor::system(row.store_id);
            let outcome = match row.stock_state.as_str() {
                stock::PENDING => self.reconcile_hold(&ctx, &row).await,
                stock::RELEASING => self.release(&ctx, &[row.id]).await,
                stock::COMMITTING => self.ship_one(&ctx, who, &row).await.map(|_| ()),
                _ => Ok(()),
            };
            if let Err(e) = outcome {
                tracing::warn!(order = row.id, stock = %row.stock_state, error = %e, "could not settle an order with wms yet");
            }
        }
        Ok(n)
    }

    pub(super) async fn reconcile_hold(&self, ctx: &CallCtx, row: &OrderRow) -> Result<()> {
        let items: Vec<Item> =
            self.repo.items(&[row.id]).await?.remove(&row.id).unwrap_or_default().iter().map(ItemRow::item).collect();
        let lines = lines_of(&items);
        let who = Self::actor(ctx);
        let mut rev = row.hold_revision;
        for _ in 0..3 {
            match self.hold(ctx, row.id, rev, lines.clone()).await {
                Ok(r) if !r.replayed || merged(&r.held) == merged(&lines) => {
                    self.repo.settle_hold(who, row.id, rev, true, false).await?;
                    return Ok(());
                }
                Ok(_) => {
                    // A newer revision holds other lines: set them to the order's again.
                    let Some(next) =
                        self.repo.next_revision(row.store_id, row.id, &[stock::PENDING], 0, Some(rev)).await?
                    else {
                        return Ok(());
                    };
                    rev = next;
                }
                Err(e) if e.code == Code::InsufficientStock => {
                    let Some(next) =
                        self.repo.next_revision(row.store_id, row.id, &[stock::PENDING], 0, Some(rev)).await?
                    else {
                        return Ok(());
                    };
                    self.hold(ctx, row.id, next, Vec::new()).await?;
                    self.repo.settle_hold(who, row.id, next, false, false).await?;
                    return Ok(());
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The store's default filler context, for the consumer.
    pub fn wake_filler(&self) {
        self.fills.notify_one();
    }
}
