//! A shop's listings in: imported through the marketplace's API in the background (a page
//! of the oldest running import at a time, by one replica at a time under a claim, from
//! where the last page ended), each listing kept, linked to the SKU its seller SKU names,
//! or, when the import says so, made into a product and SKUs of ours; what an import did not
//! see once it read every page was deleted at the marketplace and loses its link. Listings
//! waiting for a SKU are linked automatically (by seller SKU or name) when a person asks, or
//! made into products.

use std::collections::{BTreeMap, HashMap};

use bo_kit::grpc::CallCtx;
use bo_proto::products::v1 as ppb;

use super::*;
use crate::adapters::MarketListing;
use crate::domain::matching::{self, Affixes, By, Ours, Unlinked};
use crate::domain::new_product::{self, NewProduct, Variation};
use crate::store::imports::{outcome, source, ImportRow, RowOutcome};
use crate::store::{linked_by, ListingRow};

/// How long an import's page may take before another replica may take the import, ms.
const IMPORT_HOLD_MS: i64 = 120_000;
/// How many times an import's page is tried before the import fails.
const IMPORT_ATTEMPTS: i64 = 8;
/// Codes asked of the catalog at once.
const CODES_PER_CALL: usize = 500;

/// What a person's automatic link did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AutoLinked {
    /// Linked by seller SKU.
    pub by_seller_sku: u64,
    /// Linked by name.
    pub by_name: u64,
    /// Still waiting for a SKU.
    pub waiting: u64,
}

impl Intake {
    fn products(&self) -> Result<ProductsServiceClient<GrpcChannel>, Error> {
        self.inner
            .products
            .clone()
            .ok_or_else(|| Error::new(bo_kit::error::Kind::Unavailable, Code::ServiceUnavailable))
    }

    pub(super) fn acting(&self, store_id: i64, user_id: i64) -> Result<CallCtx, Error> {
        let identity = self
            .inner
            .identity
            .as_ref()
            .ok_or_else(|| Error::new(bo_kit::error::Kind::Unavailable, Code::ServiceUnavailable))?;
        Ok(identity.acting(store_id, user_id))
    }

    /// Which of `sku_ids` are SKUs of the store.
    pub async fn known_skus(&self, store_id: i64, sku_ids: &[i64]) -> bo_kit::Result<std::collections::HashSet<i64>> {
        let mut products = self.products()?;
        let mut out = std::collections::HashSet::new();
        for chunk in sku_ids.chunks(CODES_PER_CALL) {
            let found = products
                .describe_skus(
                    self.acting(store_id, 0)?
                        .request(ppb::DescribeSkusRequest { ids: chunk.to_vec(), codes: Vec::new() }),
                )
                .await
                .map_err(|s| Error::from_status(&s))?
                .into_inner()
                .skus;
            out.extend(found.into_iter().filter_map(|d| d.sku.map(|s| s.id)));
        }
        Ok(out)
    }

    /// Runs the API imports as they come, until cancelled.
    pub async fn run_imports(self, cancel: CancellationToken) {
        loop {
            let worked = match self.import_round().await {
                Ok(w) => w,
                Err(e) => {
                    tracing::warn!(error = %e, "could not read the listing imports");
                    false
                }
            };
            if worked {
                continue;
            }
            tokio::select! {
                _ = self.inner.wake_imports.notified() => {}
                _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                _ = cancel.cancelled() => return,
            }
        }
    }

    /// Wakes the import worker (an import was asked for).
    pub fn wake_imports(&self) {
        self.inner.wake_imports.notify_one();
    }

    /// Reads the next page of the oldest running API import nobody holds: true when there
    /// was one.
    pub async fn import_round(&self) -> bo_kit::Result<bool> {
        let Some(imp) = self.inner.repo.claim_import(source::API, IMPORT_HOLD_MS).await? else { return Ok(false) };
        match self.import_page(&imp).await {
            Ok(()) => {}
            Err(Trouble::Channel(e)) if e.is_transient() && imp.attempts < IMPORT_ATTEMPTS => {
                let wait = match &e {
                    ChannelError::Throttled { retry_after: Some(d), .. } => d.as_millis() as i64,
                    _ => backoff_ms(imp.attempts),
                };
                self.inner.repo.retry_import(imp.id, wait, &super::clip_why(&e.to_string())).await?;
            }
            Err(Trouble::Ours(e)) if imp.attempts < IMPORT_ATTEMPTS => {
                tracing::warn!(import = imp.id, error = %e, "a listing import's page failed; it is tried again");
                self.inner.repo.retry_import(imp.id, backoff_ms(imp.attempts), e.code.as_str()).await?;
            }
            Err(e) => {
                tracing::info!(import = imp.id, error = %e, "a listing import stopped");
                self.inner.repo.fail_import(imp.id, &super::clip_why(&e.to_string())).await?;
            }
        }
        Ok(true)
    }

    async fn import_page(&self, imp: &ImportRow) -> Result<(), Trouble> {
        let repo = &self.inner.repo;
        let Some(ch) = repo.channel(imp.store_channel_id).await? else {
            repo.fail_import(imp.id, "the shop is unlinked").await?;
            return Ok(());
        };
        if ch.token_expired != 0 {
            repo.fail_import(imp.id, "the shop's connection is lost").await?;
            return Ok(());
        }
        let m = ch.marketplace().ok_or_else(|| Error::internal(anyhow::anyhow!("no marketplace")))?;
        let adapter =
            self.adapter(m).cloned().ok_or_else(|| Error::failed_precondition(Code::MarketplaceNotConfigured))?;
        let shop = ch.shop();
        let cursor = (!imp.cursor.is_empty()).then_some(imp.cursor.as_str());
        let page = self
            .call(adapter.as_ref(), &ch, |access| {
                let (adapter, shop) = (&adapter, &shop);
                async move { adapter.listings(Session { shop, access: &access }, cursor).await }
            })
            .await?;
        // Seen as of the import's start: what a whole import did not see is gone.
        let rows = repo.save_listings(ch.store_id, ch.id, &page.listings, imp.started_at).await?;
        let outcomes = self.settle(&ch, &rows, imp.create_products != 0, imp.category_id, imp.created_by).await?;
        repo.import_page(imp.id, page.next.as_deref(), page.total, &outcomes).await?;
        if page.next.is_none() {
            let gone = repo.expire_unseen(ch.id, imp.started_at).await?;
            tracing::info!(import = imp.id, store_channel = ch.id, deleted = gone, "a listing import read every page");
        }
        Ok(())
    }

    /// What becomes of listings just kept: kept as linked, linked by their seller SKU, made
    /// into products (when asked), or left waiting for a person.
    async fn settle(
        &self,
        ch: &ChannelRow,
        rows: &[ListingRow],
        create: bool,
        category_id: i64,
        user_id: i64,
    ) -> Result<Vec<RowOutcome>, Trouble> {
        let repo = &self.inner.repo;
        let mut out: Vec<RowOutcome> = rows
            .iter()
            .map(|r| RowOutcome {
                n: 0,
                item_id: r.item_id.clone(),
                model_id: r.model_id.clone(),
                seller_sku: r.seller_sku.clone(),
                name: r.name.clone(),
                outcome: if r.state == "deleted" {
                    outcome::DELETED
                } else if r.is_linked() {
                    outcome::KEPT
                } else {
                    outcome::UNLINKED
                }
                .to_string(),
                detail: String::new(),
                sku_id: r.sku_id,
            })
            .collect();
        let waiting: Vec<usize> =
            (0..rows.len()).filter(|i| out[*i].outcome == outcome::UNLINKED && rows[*i].linked_by.is_empty()).collect();
        if waiting.is_empty() {
            return Ok(out);
        }
        // By seller SKU.
        let affixes = repo.affixes(ch.store_id).await?;
        let candidates: Vec<Vec<String>> = waiting.iter().map(|i| affixes.candidates(&rows[*i].seller_sku)).collect();
        let codes = self.sku_codes(ch.store_id, candidates.iter().flatten().cloned().collect()).await?;
        let mut links = Vec::new();
        let mut left = Vec::new();
        for (i, cands) in waiting.iter().zip(&candidates) {
            match cands.iter().find_map(|c| codes.get(&matching::key(c))) {
                Some(sku) => {
                    links.push((rows[*i].id, *sku));
                    out[*i].outcome = outcome::LINKED.into();
                    out[*i].sku_id = *sku;
                }
                None => left.push(*i),
            }
        }
        repo.link_many(ch.store_id, &links, linked_by::IMPORT).await?;
        if create && !left.is_empty() {
            let chosen: Vec<&ListingRow> = left.iter().map(|i| &rows[*i]).collect();
            let made = self.make_products(ch, &chosen, category_id, user_id).await?;
            for i in left {
                match made.get(&rows[i].id) {
                    Some(Ok(sku)) => {
                        out[i].outcome = outcome::CREATED.into();
                        out[i].sku_id = *sku;
                    }
                    Some(Err(why)) => {
                        out[i].outcome = outcome::FAILED.into();
                        out[i].detail = why.clone();
                    }
                    None => {}
                }
            }
        }
        Ok(out)
    }

    /// Our SKUs whose codes (by [`matching::key`]) are among `codes`: key → SKU.
    async fn sku_codes(&self, store_id: i64, mut codes: Vec<String>) -> Result<HashMap<String, i64>, Trouble> {
        codes.sort();
        codes.dedup();
        let mut out = HashMap::new();
        if codes.is_empty() {
            return Ok(out);
        }
        let mut products = self.products()?;
        for chunk in codes.chunks(CODES_PER_CALL) {
            let found = products
                .describe_skus(
                    self.acting(store_id, 0)?
                        .request(ppb::DescribeSkusRequest { ids: Vec::new(), codes: chunk.to_vec() }),
                )
                .await
                .map_err(|s| Error::from_status(&s))?
                .into_inner()
                .skus;
            for d in found {
                if let Some(sku) = d.sku {
                    out.insert(matching::key(&sku.code), sku.id);
                }
            }
        }
        Ok(out)
    }

    /// Makes a product of ours for each listing (item) of `rows` with a SKU per variation,
    /// filed under `category_id`, and links each variation to its SKU: by listing, its SKU
    /// or why it could not be made.
    pub async fn make_products(
        &self,
        ch: &ChannelRow,
        rows: &[&ListingRow],
        category_id: i64,
        user_id: i64,
    ) -> Result<HashMap<i64, std::result::Result<i64, String>>, Trouble> {
        let m = ch.marketplace().ok_or_else(|| Error::internal(anyhow::anyhow!("no marketplace")))?;
        let mut by_item: BTreeMap<&str, Vec<&ListingRow>> = BTreeMap::new();
        for r in rows {
            by_item.entry(r.item_id.as_str()).or_default().push(r);
        }
        let mut products = self.products()?;
        let mut out = HashMap::new();
        for (item, variations) in by_item {
            let draft = new_product::from_listing(
                m,
                item,
                &variations[0].name,
                &variations
                    .iter()
                    .map(|r| Variation {
                        listing_id: r.id,
                        model_id: r.model_id.clone(),
                        seller_sku: r.seller_sku.clone(),
                        options: r.options(),
                        price: r.price,
                    })
                    .collect::<Vec<_>>(),
            );
            let req = ppb::CreateProductRequest { product: Some(product_of(&draft, category_id)) };
            match products.create_product(self.acting(ch.store_id, user_id)?.request(req)).await {
                Ok(made) => {
                    let made = made.into_inner().product.unwrap_or_default();
                    let mut links = Vec::new();
                    for s in &draft.skus {
                        match made.skus.iter().find(|k| k.code.eq_ignore_ascii_case(&s.code)) {
                            Some(k) => {
                                links.push((s.listing_id, k.id));
                                out.insert(s.listing_id, Ok(k.id));
                            }
                            None => {
                                out.insert(s.listing_id, Err("sku_not_made".to_string()));
                            }
                        }
                    }
                    self.inner.repo.link_many(ch.store_id, &links, linked_by::IMPORT).await?;
                }
                Err(status) => {
                    let e = Error::from_status(&status);
                    if e.kind == bo_kit::error::Kind::Unavailable {
                        return Err(e.into());
                    }
                    // Why, as the catalog said it: its code, or its first broken field's.
                    let why = e
                        .fields
                        .first()
                        .map(|f| format!("{}: {}", f.field, f.code))
                        .unwrap_or_else(|| e.code.as_str().into());
                    for s in &draft.skus {
                        out.insert(s.listing_id, Err(why.clone()));
                    }
                }
            }
        }
        Ok(out)
    }

    /// A shop's listings from the platform's spreadsheet (the catalog reads the template):
    /// on a dry run the rows and their problems only; else kept and settled like a page of an
    /// API import, once per file's content (the same rows again are the import they were).
    pub async fn import_file(
        &self,
        ch: &ChannelRow,
        file: FileImport<'_>,
    ) -> Result<(Option<ImportRow>, ppb::ImportProductsResponse), Trouble> {
        let mut products = self.products()?;
        let read = products
            .import_products(self.acting(ch.store_id, file.user_id)?.request(ppb::ImportProductsRequest {
                upload: file.upload.to_string(),
                sheet: String::new(),
                category_id: 0,
                dry_run: true,
                parse_only: true,
            }))
            .await
            .map_err(|s| Error::from_status(&s))?
            .into_inner();
        if file.dry_run || read.rows.is_empty() {
            return Ok((None, read));
        }
        let listings: Vec<MarketListing> = read.rows.iter().map(listing_of_row).collect();
        let mut digest = ring::digest::Context::new(&ring::digest::SHA256);
        for l in &listings {
            for part in [&l.item_id, &l.model_id, &l.seller_sku, &l.name, &l.price_satang.to_string()] {
                digest.update(part.as_bytes());
                digest.update(&[0]);
            }
            for (_, v) in &l.options {
                digest.update(v.as_bytes());
            }
            digest.update(&[1]);
        }
        let digest = hex::encode(digest.finish().as_ref());
        let repo = &self.inner.repo;
        let (imp, new) = repo
            .start_import(&crate::store::imports::NewImport {
                store_id: ch.store_id,
                store_channel_id: ch.id,
                source: source::FILE,
                create_products: file.create_products,
                category_id: file.category_id.max(0),
                digest: &digest,
                file_name: file.file_name,
                user_id: file.user_id,
            })
            .await?;
        if !new {
            return Ok((Some(imp), read));
        }
        let rows = repo.save_listings(ch.store_id, ch.id, &listings, now_ms()).await?;
        let outcomes = self.settle(ch, &rows, file.create_products, file.category_id, file.user_id).await?;
        repo.import_page(imp.id, None, listings.len() as i64, &outcomes).await?;
        Ok((repo.import(ch.store_id, imp.id).await?, read))
    }

    /// Links a store's listings waiting for a SKU (of one shop, or of every shop with 0) by
    /// seller SKU (without the store's ignored prefixes and suffixes) and, when `by_name`, by
    /// name; never a listing a person linked or unlinked.
    pub async fn auto_link(&self, store_id: i64, store_channel_id: i64, by_name: bool) -> bo_kit::Result<AutoLinked> {
        let repo = &self.inner.repo;
        let waiting = repo.waiting(store_id, store_channel_id).await?;
        if waiting.is_empty() {
            return Ok(AutoLinked::default());
        }
        let ours = self.our_skus(store_id).await.map_err(|e| match e {
            Trouble::Ours(e) => e,
            Trouble::Channel(c) => c.into(),
        })?;
        let listings: Vec<Unlinked> = waiting
            .iter()
            .map(|r| Unlinked {
                id: r.id,
                seller_sku: r.seller_sku.clone(),
                name_key: matching::name_key(&r.name, r.options().iter().map(|(_, v)| v.as_str())),
            })
            .collect();
        let affixes: Affixes = repo.affixes(store_id).await?;
        let found = matching::auto_link(&listings, &ours, &affixes, by_name);
        let links: Vec<(i64, i64)> = found.iter().map(|(l, s, _)| (*l, *s)).collect();
        repo.link_many(store_id, &links, linked_by::AUTO).await?;
        let by_seller_sku = found.iter().filter(|(_, _, b)| *b == By::SellerSku).count() as u64;
        let by_name = found.len() as u64 - by_seller_sku;
        Ok(AutoLinked { by_seller_sku, by_name, waiting: (waiting.len() - found.len()) as u64 })
    }

    /// Every SKU of the store with its code and its product's name and options.
    async fn our_skus(&self, store_id: i64) -> Result<Vec<Ours>, Trouble> {
        let mut products = self.products()?;
        let mut out: Vec<Ours> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut page = 1;
        loop {
            let r = products
                .list_sku_inventories(self.acting(store_id, 0)?.request(ppb::ListSkuInventoriesRequest {
                    search: String::new(),
                    warehouse_id: 0,
                    below_safety_stock: false,
                    page: Some(bo_proto::common::v1::PageRequest { page, limit: 1000 }),
                }))
                .await
                .map_err(|s| Error::from_status(&s))?
                .into_inner();
            for row in r.rows {
                let Some(sku) = row.sku else { continue };
                if seen.insert(sku.id) {
                    out.push(Ours {
                        sku_id: sku.id,
                        name_key: matching::name_key(&row.product_name, [sku.option1.as_str(), sku.option2.as_str()]),
                        code: sku.code,
                    });
                }
            }
            let pages = r.page.map_or(1, |p| p.pages);
            if page >= pages {
                return Ok(out);
            }
            page += 1;
        }
    }
}

/// What a spreadsheet import asks for.
#[derive(Debug, Clone, Copy)]
pub struct FileImport<'a> {
    /// The staged upload handed to the catalog's reader.
    pub upload: &'a str,
    pub file_name: &'a str,
    pub create_products: bool,
    pub category_id: i64,
    pub dry_run: bool,
    pub user_id: i64,
}

/// A row of the template as a listing: product_id is the listing, sku_id its variation.
fn listing_of_row(r: &ppb::ImportedRow) -> MarketListing {
    let model = if r.sku_id.trim() == r.code.trim() { String::new() } else { r.sku_id.trim().to_string() };
    MarketListing {
        item_id: r.code.trim().to_string(),
        model_id: model,
        name: r.name.trim().to_string(),
        options: if r.variant.trim().is_empty() {
            Vec::new()
        } else {
            vec![(String::new(), r.variant.trim().to_string())]
        },
        seller_sku: r.seller_sku.trim().to_string(),
        price_satang: r.price,
        stock: -1,
        image_url: String::new(),
        state: crate::adapters::ListingState::Active,
        updated_at_s: 0,
    }
}

/// The catalog's product for a draft made from a listing.
fn product_of(d: &NewProduct, category_id: i64) -> ppb::Product {
    ppb::Product {
        name: d.name.clone(),
        short_description: d.name.clone(),
        code: d.code.clone(),
        tags: vec![d.tag.clone()],
        category_id,
        price: d.price,
        vat: true,
        variants: d
            .variants
            .iter()
            .map(|(name, options)| ppb::Variant { name: name.clone(), options: options.clone() })
            .collect(),
        skus: d
            .skus
            .iter()
            .map(|s| ppb::Sku {
                code: s.code.clone(),
                price: s.price,
                status: ppb::ProductStatus::Active.into(),
                option1: s.option1.clone(),
                option2: s.option2.clone(),
                ..Default::default()
            })
            .collect(),
        status: ppb::ProductStatus::Active.into(),
        ..Default::default()
    }
}
