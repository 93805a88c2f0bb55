//! The calls of a shop's listings: the list and one listing, linking (to a SKU or as a
//! bundle), unlinking, automatic links and the store's matching rules, products made from
//! listings, imports, stock rules and pushes now. Every call is scoped by the store in the
//! caller's token; a shop or listing of another store is not found.

use bo_kit::grpc::CallCtx;
use bo_kit::paging::PageRequest;
use bo_kit::{Code, Error, FieldError};
use bo_proto::marketplaces::v1 as pb;
use bo_proto::Wire as _;
use tonic::{Request, Response};

use super::{timestamp, MarketplacesGrpc, Rpc};
use crate::domain::bundle::{self, Part};
use crate::domain::stock_rule::{Rounding, Rule};
use crate::store::imports::{self, ImportRow, NewImport, RowOutcome};
use crate::store::matching::MatchRuleRow;
use crate::store::{linked_by, ChannelRow, ListingFilter, ListingRow, RuleRow, SyncRow};

/// The most listings one call names.
const MAX_IDS: usize = 500;

fn link_source(by: &str) -> pb::LinkSource {
    match by {
        linked_by::ORDER => pb::LinkSource::Order,
        linked_by::PERSON => pb::LinkSource::Person,
        linked_by::AUTO => pb::LinkSource::Auto,
        linked_by::IMPORT => pb::LinkSource::Import,
        linked_by::UNLINKED => pb::LinkSource::Unlinked,
        _ => pb::LinkSource::Unspecified,
    }
}

/// A kept listing as the contract shows it.
pub fn listing(r: &ListingRow, parts: &[Part], own_rule: bool) -> pb::Listing {
    pb::Listing {
        id: r.id,
        store_channel_id: r.store_channel_id,
        item_id: r.item_id.clone(),
        model_id: r.model_id.clone(),
        name: r.name.clone(),
        options: r.options().into_iter().map(|(name, value)| pb::ListingOption { name, value }).collect(),
        seller_sku: r.seller_sku.clone(),
        price: r.price,
        platform_stock: r.platform_stock,
        image_url: r.image_url.clone(),
        state: pb::ListingState::number(&r.state),
        sku_id: r.sku_id,
        parts: parts
            .iter()
            .map(|p| pb::BundlePart { sku_id: p.sku_id, quantity: p.per_set, cost_share_bp: p.share_bp })
            .collect(),
        linked_by: link_source(&r.linked_by).into(),
        wanted: r.wanted,
        sent: r.sent,
        last_push_time: timestamp(r.sent_at),
        last_answer: r.last_answer.clone(),
        push_due: r.due_at > 0,
        own_rule,
        stock_check_time: timestamp(r.stock_checked_at),
        stock_differs: r.stock_differs(),
    }
}

fn rule(r: &RuleRow) -> pb::StockRule {
    pb::StockRule {
        percent: r.rule.percent,
        fixed: r.rule.fixed,
        rounding: pb::Rounding::number(r.rule.rounding.as_str()),
        warehouse_ids: r.warehouses.clone(),
        threshold: r.rule.threshold,
        priority: r.rule.priority,
        hold: r.rule.hold,
        increase_only: r.rule.increase_only,
        update_time: timestamp(r.updated_at),
    }
}

fn sync(s: Option<SyncRow>, store_channel_id: i64) -> pb::StockSync {
    s.map(|s| s.to_proto()).unwrap_or(pb::StockSync { store_channel_id, ..Default::default() })
}

fn import(r: &ImportRow) -> pb::ListingImport {
    pb::ListingImport {
        id: r.id,
        store_channel_id: r.store_channel_id,
        source: pb::ImportSource::number(&r.source),
        state: pb::ImportState::number(&r.state),
        create_products: r.create_products != 0,
        category_id: r.category_id,
        file_name: r.file_name.clone(),
        pages: r.pages,
        total: r.total,
        seen: r.seen,
        created: r.created,
        linked: r.linked,
        unlinked: r.unlinked,
        failed: r.failed,
        error: r.error.clone(),
        start_time: timestamp(r.started_at),
        finish_time: timestamp(r.finished_at),
    }
}

fn imported(r: &RowOutcome) -> pb::ImportedListing {
    pb::ImportedListing {
        n: r.n,
        item_id: r.item_id.clone(),
        model_id: r.model_id.clone(),
        seller_sku: r.seller_sku.clone(),
        name: r.name.clone(),
        outcome: pb::ImportOutcome::number(&r.outcome),
        detail: r.detail.clone(),
        sku_id: r.sku_id,
    }
}

fn match_rule(r: &MatchRuleRow) -> pb::MatchRule {
    pb::MatchRule { id: r.id, kind: pb::MatchRuleKind::number(&r.kind), text: r.text.clone() }
}

impl MarketplacesGrpc {
    /// A shop of the caller's store.
    async fn shop(&self, ctx: &CallCtx, id: i64) -> bo_kit::Result<ChannelRow> {
        self.repo.get(ctx.store_id, id).await?.ok_or_else(|| Error::not_found(Code::MarketplaceChannelNotFound))
    }

    /// A listing of the caller's store as the contract shows it.
    async fn listing_view(&self, r: &ListingRow) -> bo_kit::Result<pb::Listing> {
        let parts = self.repo.parts(&[r.id]).await?.remove(&r.id).unwrap_or_default();
        let own = self.repo.rule(r.store_channel_id, r.id).await?.is_some();
        Ok(listing(r, &parts, own))
    }

    async fn listing_of(&self, ctx: &CallCtx, id: i64) -> bo_kit::Result<ListingRow> {
        self.repo.listing(ctx.store_id, id).await?.ok_or_else(|| Error::not_found(Code::ListingNotFound))
    }

    pub(super) async fn list_listings_rpc(
        &self,
        req: Request<pb::ListListingsRequest>,
    ) -> Rpc<pb::ListListingsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let ch = self.shop(&ctx, r.store_channel_id).await?;
        let f = ListingFilter {
            linked: r.linked,
            state: Some(pb::ListingState::word_of(r.state).to_string()).filter(|s| !s.is_empty()),
            search: r.search.chars().take(100).collect(),
            sku_id: r.sku_id.max(0),
            stock_differs: r.stock_differs,
        };
        let (rows, page) = self.repo.listings(ctx.store_id, ch.id, &f, PageRequest::from(r.page)).await?;
        let ids: Vec<i64> = rows.iter().filter(|l| l.bundle != 0).map(|l| l.id).collect();
        let parts = self.repo.parts(&ids).await?;
        let rules = self.repo.rules(ch.id).await?;
        let (waiting, linked, stock_differs) = self.repo.listing_counts(ch.id).await?;
        Ok(Response::new(pb::ListListingsResponse {
            listings: rows
                .iter()
                .map(|l| listing(l, parts.get(&l.id).map(Vec::as_slice).unwrap_or(&[]), rules.contains_key(&l.id)))
                .collect(),
            page: Some(page.into()),
            waiting,
            linked,
            stock_differs,
        }))
    }

    pub(super) async fn get_listing_rpc(&self, req: Request<pb::GetListingRequest>) -> Rpc<pb::ListingResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let row = self.listing_of(&ctx, req.into_inner().id).await?;
        Ok(Response::new(pb::ListingResponse { listing: Some(self.listing_view(&row).await?) }))
    }

    pub(super) async fn set_listing_link_rpc(
        &self,
        req: Request<pb::SetListingLinkRequest>,
    ) -> Rpc<pb::ListingResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let row = self.listing_of(&ctx, r.id).await?;
        if row.state == "deleted" {
            return Err(Error::failed_precondition(Code::ListingNotFound).into());
        }
        if r.parts.is_empty() {
            if r.sku_id <= 0 {
                return Err(Error::invalid_field("sku_id", "validation.required").into());
            }
            if !self.intake.known_skus(ctx.store_id, &[r.sku_id]).await?.contains(&r.sku_id) {
                return Err(Error::invalid_field("sku_id", "validation.sku_unknown").into());
            }
            self.repo.link(ctx.store_id, row.id, r.sku_id, linked_by::PERSON).await?;
        } else {
            let parts = bundle::check(
                r.parts
                    .iter()
                    .map(|p| Part { sku_id: p.sku_id, per_set: p.quantity, share_bp: p.cost_share_bp })
                    .collect(),
            )?;
            let ids: Vec<i64> = parts.iter().map(|p| p.sku_id).collect();
            let known = self.intake.known_skus(ctx.store_id, &ids).await?;
            let unknown: Vec<FieldError> = parts
                .iter()
                .enumerate()
                .filter(|(_, p)| !known.contains(&p.sku_id))
                .map(|(i, _)| FieldError::new(format!("parts[{i}].sku_id"), "validation.sku_unknown"))
                .collect();
            if !unknown.is_empty() {
                return Err(Error::invalid(unknown).into());
            }
            self.repo.link_bundle(ctx.store_id, row.id, &parts).await?;
        }
        let row = self.listing_of(&ctx, row.id).await?;
        Ok(Response::new(pb::ListingResponse { listing: Some(self.listing_view(&row).await?) }))
    }

    pub(super) async fn unlink_listing_rpc(&self, req: Request<pb::GetListingRequest>) -> Rpc<pb::ListingResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let id = req.into_inner().id;
        if !self.repo.unlink_listing(ctx.store_id, id).await? {
            return Err(Error::not_found(Code::ListingNotFound).into());
        }
        let row = self.listing_of(&ctx, id).await?;
        Ok(Response::new(pb::ListingResponse { listing: Some(self.listing_view(&row).await?) }))
    }

    pub(super) async fn auto_link_rpc(
        &self,
        req: Request<pb::AutoLinkListingsRequest>,
    ) -> Rpc<pb::AutoLinkListingsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let ch = self.shop(&ctx, r.store_channel_id).await?;
        let done = self.intake.auto_link(ctx.store_id, ch.id, r.by_name).await?;
        Ok(Response::new(pb::AutoLinkListingsResponse {
            by_seller_sku: done.by_seller_sku as i64,
            by_name: done.by_name as i64,
            waiting: done.waiting as i64,
        }))
    }

    pub(super) async fn create_products_rpc(
        &self,
        req: Request<pb::CreateProductsFromListingsRequest>,
    ) -> Rpc<pb::CreateProductsFromListingsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let ch = self.shop(&ctx, r.store_channel_id).await?;
        let mut errs = Vec::new();
        if r.listing_ids.is_empty() || r.listing_ids.len() > MAX_IDS {
            errs.push(FieldError::new(
                "listing_ids",
                if r.listing_ids.is_empty() { "validation.required" } else { "validation.too_many" },
            ));
        }
        if r.category_id <= 0 {
            errs.push(FieldError::new("category_id", "validation.required"));
        }
        if !errs.is_empty() {
            return Err(Error::invalid(errs).into());
        }
        let mut rows = Vec::new();
        let mut results = Vec::new();
        for id in &r.listing_ids {
            match self.repo.listing(ctx.store_id, *id).await? {
                Some(l) if l.store_channel_id == ch.id && !l.is_linked() && l.state != "deleted" => rows.push(l),
                Some(_) => {
                    results.push(pb::CreatedFromListing { listing_id: *id, sku_id: 0, error: "listing_linked".into() })
                }
                None => results.push(pb::CreatedFromListing {
                    listing_id: *id,
                    sku_id: 0,
                    error: Code::ListingNotFound.as_str().into(),
                }),
            }
        }
        let chosen: Vec<&ListingRow> = rows.iter().collect();
        let made = self.intake.make_products(&ch, &chosen, r.category_id, ctx.user_id).await.map_err(Error::from)?;
        for l in &rows {
            results.push(match made.get(&l.id) {
                Some(Ok(sku)) => pb::CreatedFromListing { listing_id: l.id, sku_id: *sku, error: String::new() },
                Some(Err(why)) => pb::CreatedFromListing { listing_id: l.id, sku_id: 0, error: why.clone() },
                None => pb::CreatedFromListing { listing_id: l.id, sku_id: 0, error: "sku_not_made".into() },
            });
        }
        results.sort_by_key(|c| r.listing_ids.iter().position(|id| *id == c.listing_id));
        Ok(Response::new(pb::CreateProductsFromListingsResponse { results }))
    }

    pub(super) async fn list_match_rules_rpc(
        &self,
        req: Request<pb::ListMatchRulesRequest>,
    ) -> Rpc<pb::ListMatchRulesResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let rules = self.repo.match_rules(ctx.store_id).await?;
        Ok(Response::new(pb::ListMatchRulesResponse { rules: rules.iter().map(match_rule).collect() }))
    }

    pub(super) async fn add_match_rule_rpc(&self, req: Request<pb::AddMatchRuleRequest>) -> Rpc<pb::MatchRuleResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let kind = pb::MatchRuleKind::word_of(r.kind);
        let text = r.text.trim();
        let mut errs = Vec::new();
        if kind.is_empty() {
            errs.push(FieldError::new("kind", "validation.invalid"));
        }
        if text.is_empty() {
            errs.push(FieldError::new("text", "validation.required"));
        } else if text.chars().count() > 30 {
            errs.push(FieldError::new("text", "validation.too_long"));
        }
        if !errs.is_empty() {
            return Err(Error::invalid(errs).into());
        }
        let rule = self
            .repo
            .add_match_rule(ctx.store_id, kind, text, ctx.user_id)
            .await?
            .ok_or_else(|| Error::conflict(Code::MatchRulesFull))?;
        Ok(Response::new(pb::MatchRuleResponse { rule: Some(match_rule(&rule)) }))
    }

    pub(super) async fn delete_match_rule_rpc(
        &self,
        req: Request<pb::DeleteMatchRuleRequest>,
    ) -> Rpc<pb::DeleteMatchRuleResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        if !self.repo.drop_match_rule(ctx.store_id, req.into_inner().id).await? {
            return Err(Error::not_found(Code::RouteNotFound).into());
        }
        Ok(Response::new(pb::DeleteMatchRuleResponse {}))
    }

    pub(super) async fn import_listings_rpc(
        &self,
        req: Request<pb::ImportListingsRequest>,
    ) -> Rpc<pb::ListingImportResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let ch = self.shop(&ctx, r.store_channel_id).await?;
        if r.create_products && r.category_id <= 0 {
            return Err(Error::invalid_field("category_id", "validation.required").into());
        }
        if ch.token_expired != 0 {
            return Err(Error::failed_precondition(Code::MarketplaceTokenExpired).into());
        }
        if let Some(m) = ch.marketplace() {
            self.adapter(m)?;
        }
        let (row, _) = self
            .repo
            .start_import(&NewImport {
                store_id: ctx.store_id,
                store_channel_id: ch.id,
                source: imports::source::API,
                create_products: r.create_products,
                category_id: r.category_id.max(0),
                digest: "",
                file_name: "",
                user_id: ctx.user_id,
            })
            .await?;
        self.intake.wake_imports();
        Ok(Response::new(pb::ListingImportResponse { import: Some(import(&row)) }))
    }

    pub(super) async fn import_listing_file_rpc(
        &self,
        req: Request<pb::ImportListingFileRequest>,
    ) -> Rpc<pb::ImportListingFileResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let ch = self.shop(&ctx, r.store_channel_id).await?;
        if r.create_products && !r.dry_run && r.category_id <= 0 {
            return Err(Error::invalid_field("category_id", "validation.required").into());
        }
        let file = crate::intake::FileImport {
            upload: &r.upload,
            file_name: r.file_name.trim(),
            create_products: r.create_products,
            category_id: r.category_id,
            dry_run: r.dry_run,
            user_id: ctx.user_id,
        };
        let (done, read) = self.intake.import_file(&ch, file).await.map_err(Error::from)?;
        Ok(Response::new(pb::ImportListingFileResponse {
            import: done.as_ref().map(import),
            rows: read
                .rows
                .iter()
                .map(|x| pb::FileListingRow {
                    row: x.row,
                    item_id: x.code.clone(),
                    model_id: x.sku_id.clone(),
                    name: x.name.clone(),
                    variation: x.variant.clone(),
                    seller_sku: x.seller_sku.clone(),
                    price: x.price,
                })
                .collect(),
            errors: read
                .errors
                .iter()
                .map(|e| pb::FileRowError { row: e.row, field: e.field.clone(), code: e.code.clone() })
                .collect(),
        }))
    }

    pub(super) async fn get_listing_import_rpc(
        &self,
        req: Request<pb::GetListingImportRequest>,
    ) -> Rpc<pb::ListingImportResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let row = self
            .repo
            .import(ctx.store_id, req.into_inner().id)
            .await?
            .ok_or_else(|| Error::not_found(Code::ListingImportNotFound))?;
        Ok(Response::new(pb::ListingImportResponse { import: Some(import(&row)) }))
    }

    pub(super) async fn list_listing_imports_rpc(
        &self,
        req: Request<pb::ListListingImportsRequest>,
    ) -> Rpc<pb::ListListingImportsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let ch = self.shop(&ctx, req.into_inner().store_channel_id).await?;
        let rows = self.repo.imports(ctx.store_id, ch.id, 20).await?;
        Ok(Response::new(pb::ListListingImportsResponse { imports: rows.iter().map(import).collect() }))
    }

    pub(super) async fn list_imported_rpc(
        &self,
        req: Request<pb::ListImportedListingsRequest>,
    ) -> Rpc<pb::ListImportedListingsResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let imp = self
            .repo
            .import(ctx.store_id, r.import_id)
            .await?
            .ok_or_else(|| Error::not_found(Code::ListingImportNotFound))?;
        let outcome = pb::ImportOutcome::word_of(r.outcome);
        let (rows, page) = self.repo.import_rows(imp.id, outcome, PageRequest::from(r.page)).await?;
        Ok(Response::new(pb::ListImportedListingsResponse {
            listings: rows.iter().map(imported).collect(),
            page: Some(page.into()),
        }))
    }

    /// The rule that applies to a listing (0: the shop's), and whether it is its own.
    async fn applying_rule(&self, ch: &ChannelRow, listing_id: i64) -> bo_kit::Result<(RuleRow, bool)> {
        if listing_id > 0 {
            if let Some(own) = self.repo.rule(ch.id, listing_id).await? {
                return Ok((own, true));
            }
        }
        Ok((self.repo.rule(ch.id, 0).await?.unwrap_or_default(), listing_id == 0))
    }

    async fn rule_target(&self, ctx: &CallCtx, store_channel_id: i64, listing_id: i64) -> bo_kit::Result<ChannelRow> {
        let ch = self.shop(ctx, store_channel_id).await?;
        if listing_id != 0
            && self.repo.listing(ctx.store_id, listing_id).await?.is_none_or(|l| l.store_channel_id != ch.id)
        {
            return Err(Error::not_found(Code::ListingNotFound));
        }
        Ok(ch)
    }

    pub(super) async fn get_stock_rule_rpc(&self, req: Request<pb::GetStockRuleRequest>) -> Rpc<pb::StockRuleResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let ch = self.rule_target(&ctx, r.store_channel_id, r.listing_id).await?;
        let (found, own) = self.applying_rule(&ch, r.listing_id).await?;
        Ok(Response::new(pb::StockRuleResponse { rule: Some(rule(&found)), own }))
    }

    pub(super) async fn set_stock_rule_rpc(&self, req: Request<pb::SetStockRuleRequest>) -> Rpc<pb::StockRuleResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let ch = self.rule_target(&ctx, r.store_channel_id, r.listing_id).await?;
        let given = r.rule.unwrap_or_default();
        let rounding = Rounding::parse(pb::Rounding::word_of(given.rounding));
        let asked = Rule {
            percent: given.percent,
            fixed: given.fixed,
            rounding: rounding.unwrap_or_default(),
            threshold: given.threshold,
            priority: given.priority && r.listing_id == 0,
            hold: given.hold,
            increase_only: given.increase_only,
        };
        let mut errs: Vec<FieldError> = asked.broken().into_iter().map(|(f, c)| FieldError::new(f, c)).collect();
        if rounding.is_none() {
            errs.push(FieldError::new("rounding", "validation.invalid"));
        }
        let mut warehouses = given.warehouse_ids.clone();
        warehouses.sort_unstable();
        warehouses.dedup();
        if warehouses.len() > 20 || warehouses.iter().any(|w| *w <= 0) {
            errs.push(FieldError::new("warehouse_ids", "validation.invalid"));
        } else if !warehouses.is_empty() {
            let known = self.warehouse_ids(&ctx).await?;
            if warehouses.iter().any(|w| !known.contains(w)) {
                errs.push(FieldError::new("warehouse_ids", "validation.warehouse_unknown"));
            }
        }
        if !errs.is_empty() {
            return Err(Error::invalid(errs).into());
        }
        let row = RuleRow { rule: asked, warehouses, ..Default::default() };
        self.repo.save_rule(ctx.store_id, ch.id, r.listing_id, &row, ctx.user_id).await?;
        let (found, own) = self.applying_rule(&ch, r.listing_id).await?;
        Ok(Response::new(pb::StockRuleResponse { rule: Some(rule(&found)), own }))
    }

    pub(super) async fn delete_stock_rule_rpc(
        &self,
        req: Request<pb::GetStockRuleRequest>,
    ) -> Rpc<pb::StockRuleResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let ch = self.rule_target(&ctx, r.store_channel_id, r.listing_id).await?;
        if r.listing_id <= 0 {
            return Err(Error::invalid_field("listing_id", "validation.required").into());
        }
        self.repo.drop_rule(ch.id, r.listing_id).await?;
        let (found, own) = self.applying_rule(&ch, r.listing_id).await?;
        Ok(Response::new(pb::StockRuleResponse { rule: Some(rule(&found)), own }))
    }

    pub(super) async fn push_stock_rpc(&self, req: Request<pb::PushStockRequest>) -> Rpc<pb::StockSyncResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        let ch = self.shop(&ctx, r.store_channel_id).await?;
        if ch.token_expired != 0 {
            return Err(Error::failed_precondition(Code::MarketplaceTokenExpired).into());
        }
        if r.listing_ids.len() > MAX_IDS {
            return Err(Error::invalid_field("listing_ids", "validation.too_many").into());
        }
        let s = if r.listing_ids.is_empty() {
            Some(self.repo.start_sync(ctx.store_id, ch.id, ctx.user_id).await?)
        } else {
            self.repo.push_now(ch.id, &r.listing_ids).await?;
            self.repo.sync(ch.id).await?
        };
        Ok(Response::new(pb::StockSyncResponse { sync: Some(sync(s, ch.id)) }))
    }

    pub(super) async fn get_stock_sync_rpc(&self, req: Request<pb::GetStockSyncRequest>) -> Rpc<pb::StockSyncResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let ch = self.shop(&ctx, req.into_inner().store_channel_id).await?;
        let s = self.repo.sync(ch.id).await?;
        Ok(Response::new(pb::StockSyncResponse { sync: Some(sync(s, ch.id)) }))
    }

    pub(super) async fn list_sku_links_rpc(
        &self,
        req: Request<pb::ListSkuLinksRequest>,
    ) -> Rpc<pb::ListSkuLinksResponse> {
        let ctx = CallCtx::store_scoped(&req)?;
        let r = req.into_inner();
        if r.sku_ids.len() > MAX_IDS {
            return Err(Error::invalid_field("sku_ids", "validation.too_many").into());
        }
        let found = self.repo.links_of_skus(ctx.store_id, &r.sku_ids).await?;
        let shops = self.repo.list(ctx.store_id, &Default::default()).await?;
        let links = found
            .into_iter()
            .filter_map(|(sku_id, shop, listing_id)| {
                let ch = shops.iter().find(|c| c.id == shop)?;
                Some(pb::SkuLink {
                    sku_id,
                    store_channel_id: shop,
                    marketplace: ch.marketplace().map(super::pb_marketplace).unwrap_or_default().into(),
                    shop_name: ch.shop_name.clone(),
                    listing_id,
                })
            })
            .collect();
        Ok(Response::new(pb::ListSkuLinksResponse { links }))
    }
}
