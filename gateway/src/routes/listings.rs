//! A connected shop's listings (SPEC §2 `/product-list/{channel}/{providerName}`, §7 Products):
//! the list with the queue of listings waiting for a SKU first, one listing, linking it to a
//! SKU or as a bundle, unlinking it (`POST /products/{id}/{channel-dashed}/{ref}/unlink`),
//! automatic links by seller SKU or name with the store's matching rules, products made from
//! listings, and the shops each SKU is linked to. Reading needs `product.sku.read`; linking
//! `product.sku.edit`; making products `product.sku.create`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_proto::marketplaces::v1 as pb;
use bo_proto::marketplaces::v1::marketplaces_service_client::MarketplacesServiceClient;
use bo_proto::products::v1 as ppb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::perms::{keys, Access};
use crate::state::AppState;
use crate::wire::{baht, enum_field, page_request, word, Body, List, Path, Query};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_listings))
        .routes(routes!(get_listing))
        .routes(routes!(link_listing))
        .routes(routes!(unlink_listing))
        .routes(routes!(auto_link_listings))
        .routes(routes!(create_products_from_listings))
        .routes(routes!(list_match_rules, add_match_rule))
        .routes(routes!(delete_match_rule))
        .routes(routes!(sku_links))
}

const READ: Access = Access { roles: &[], perms: &[keys::PRODUCT_SKU_READ] };
const EDIT: Access = Access { roles: &[], perms: &[keys::PRODUCT_SKU_EDIT] };
const CREATE: Access = Access { roles: &[], perms: &[keys::PRODUCT_SKU_CREATE] };

fn client(state: &AppState) -> ApiResult<MarketplacesServiceClient<bo_kit::grpc::GrpcChannel>> {
    state.client(MarketplacesServiceClient::new)
}

/// One option of a listing's variation.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListingOptionBody {
    pub name: String,
    pub value: String,
}

/// One part of a bundle.
#[derive(Debug, Serialize, ToSchema)]
pub struct BundlePartBody {
    /// Our SKU.
    pub sku_id: i64,
    /// Units of it in one set.
    pub quantity: i64,
    /// Its share of the set's price in percent with two decimals ("70.00").
    pub cost_share: Option<String>,
    /// The SKU's code, and its product's name with its options.
    pub sku_code: String,
    pub sku_name: String,
}

/// One part of a bundle being linked.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct BundlePartInput {
    /// Our SKU.
    pub sku_id: i64,
    /// Units of it in one set.
    pub quantity: i64,
    /// Its share of the set's price in percent with two decimals ("70.00"); all left out or 0
    /// spreads the price by units.
    pub cost_share: Option<String>,
}

/// A listing's variation at the marketplace and what it is linked to.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListingBody {
    pub id: i64,
    pub store_channel_id: i64,
    /// The marketplace's ids of the listing and its variation.
    pub item_id: String,
    pub model_id: String,
    pub name: String,
    pub options: Vec<ListingOptionBody>,
    pub seller_sku: String,
    /// Its price at the marketplace, baht.
    pub price: String,
    /// The stock the marketplace showed when it was last read (null: not read).
    pub platform_stock: Option<i64>,
    pub image_url: String,
    /// active, inactive or deleted (at the marketplace).
    pub state: String,
    /// The SKU it is (null: not linked, or a bundle).
    pub sku_id: Option<i64>,
    /// That SKU's code, and its product's name with its options.
    pub sku_code: String,
    pub sku_name: String,
    /// The product of that SKU (of its first part, for a bundle): the one its unlink names.
    pub product_id: Option<i64>,
    /// Its parts, when it is a bundle.
    pub parts: Vec<BundlePartBody>,
    /// order, person, auto, import, unlinked; empty while it waits for a SKU.
    pub linked_by: String,
    /// The quantity our rule last gave it (null: not worked out yet).
    pub available: Option<i64>,
    /// What the marketplace last took (null: never pushed).
    pub pushed: Option<i64>,
    pub last_push_at: String,
    /// The marketplace's words on the last push when it refused it, or why it was not sent.
    pub last_answer: String,
    pub push_due: bool,
    /// It has a stock rule of its own.
    pub own_rule: bool,
    /// When its stock was last read back from the marketplace after a push (empty: never).
    pub stock_checked_at: String,
    /// The marketplace shows another quantity (platform_stock) than the one it last took
    /// (pushed).
    pub stock_differs: bool,
}

fn share_text(bp: i64) -> String {
    format!("{}.{:02}", bp / 100, bp % 100)
}

impl From<pb::Listing> for ListingBody {
    fn from(l: pb::Listing) -> Self {
        let known = |n: i64| (n >= 0).then_some(n);
        ListingBody {
            id: l.id,
            store_channel_id: l.store_channel_id,
            item_id: l.item_id,
            model_id: l.model_id,
            name: l.name,
            options: l.options.into_iter().map(|o| ListingOptionBody { name: o.name, value: o.value }).collect(),
            seller_sku: l.seller_sku,
            price: baht(l.price),
            platform_stock: known(l.platform_stock),
            image_url: l.image_url,
            state: word::<pb::ListingState>(l.state),
            sku_id: (l.sku_id > 0).then_some(l.sku_id),
            sku_code: String::new(),
            sku_name: String::new(),
            product_id: None,
            parts: l
                .parts
                .into_iter()
                .map(|p| BundlePartBody {
                    sku_id: p.sku_id,
                    quantity: p.quantity,
                    cost_share: Some(share_text(p.cost_share_bp)),
                    sku_code: String::new(),
                    sku_name: String::new(),
                })
                .collect(),
            linked_by: word::<pb::LinkSource>(l.linked_by),
            available: known(l.wanted),
            pushed: known(l.sent),
            last_push_at: timestamp_to_rfc3339(l.last_push_time.as_ref()),
            last_answer: l.last_answer,
            push_due: l.push_due,
            own_rule: l.own_rule,
            stock_checked_at: timestamp_to_rfc3339(l.stock_check_time.as_ref()),
            stock_differs: l.stock_differs,
        }
    }
}

/// The listings with their SKUs named (codes and products' names with options), as the
/// catalog has them.
async fn named(state: &AppState, auth: &StoreAuth, listings: Vec<pb::Listing>) -> ApiResult<Vec<ListingBody>> {
    let mut ids: Vec<i64> = listings
        .iter()
        .flat_map(|l| std::iter::once(l.sku_id).chain(l.parts.iter().map(|p| p.sku_id)))
        .filter(|id| *id > 0)
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let mut names = std::collections::HashMap::new();
    for chunk in ids.chunks(500) {
        let found = state
            .products()
            .describe_skus(auth.ctx().request(ppb::DescribeSkusRequest { ids: chunk.to_vec(), codes: Vec::new() }))
            .await?
            .into_inner()
            .skus;
        for d in found {
            let Some(sku) = d.sku else { continue };
            let name = [d.product_name.as_str(), sku.option1.as_str(), sku.option2.as_str()]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" · ");
            names.insert(sku.id, (sku.code, name, d.product_id));
        }
    }
    Ok(listings
        .into_iter()
        .map(|l| {
            let mut b = ListingBody::from(l);
            if let Some((code, name, product)) = b.sku_id.and_then(|id| names.get(&id)) {
                (b.sku_code, b.sku_name, b.product_id) = (code.clone(), name.clone(), Some(*product));
            }
            for p in &mut b.parts {
                if let Some((code, name, product)) = names.get(&p.sku_id) {
                    (p.sku_code, p.sku_name) = (code.clone(), name.clone());
                    b.product_id.get_or_insert(*product);
                }
            }
            b
        })
        .collect())
}

/// One listing, its SKUs named.
async fn one(state: &AppState, auth: &StoreAuth, l: Option<pb::Listing>) -> ApiResult<Json<ListingBody>> {
    let mut named = named(state, auth, vec![l.unwrap_or_default()]).await?;
    Ok(Json(named.remove(0)))
}

/// Filters of a shop's listings.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct ListingQuery {
    pub page: Option<i64>,
    /// 10 by default.
    pub limit: Option<i64>,
    /// true: only linked; false: only those waiting for a SKU.
    pub linked: Option<bool>,
    /// active, inactive or deleted.
    pub state: Option<String>,
    /// Words of the name, seller SKU or ids.
    pub search: Option<String>,
    /// Only those linked to this SKU.
    pub sku_id: Option<i64>,
    /// true: only those whose marketplace stock differs from what it last took.
    pub stock_differs: Option<bool>,
}

/// A page of a shop's listings, with its counts.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListingListBody {
    pub data: Vec<ListingBody>,
    pub total: i64,
    pub limit: i64,
    pub page: i64,
    pub pages: i64,
    /// The shop's listings waiting for a SKU, and linked ones (deleted ones apart).
    pub waiting: i64,
    pub linked: i64,
    /// The shop's listings whose marketplace stock differs from what it last took.
    pub stock_differs: i64,
}

/// A shop's listings, those waiting for a SKU first (any member who may read products).
#[utoipa::path(get, path = "/marketplaces/store-channels/{id}/listings", tag = "marketplaces",
    params(("id" = i64, Path), ListingQuery),
    responses((status = 200, body = ListingListBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list_listings(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Query(q): Query<ListingQuery>,
) -> ApiResult<Json<ListingListBody>> {
    auth.require(READ)?;
    let r = client(&state)?
        .list_listings(auth.ctx().request(pb::ListListingsRequest {
            store_channel_id: id,
            linked: q.linked,
            state: enum_field::<pb::ListingState>("state", q.state.as_deref(), "validation.invalid")?,
            search: q.search.unwrap_or_default(),
            sku_id: q.sku_id.unwrap_or(0),
            page: Some(page_request(q.page, q.limit)),
            stock_differs: q.stock_differs.unwrap_or(false),
        }))
        .await?
        .into_inner();
    let page = r.page.unwrap_or_default();
    Ok(Json(ListingListBody {
        data: named(&state, &auth, r.listings).await?,
        total: page.total,
        limit: page.limit,
        page: page.page,
        pages: page.pages,
        waiting: r.waiting,
        linked: r.linked,
        stock_differs: r.stock_differs,
    }))
}

/// One listing.
#[utoipa::path(get, path = "/marketplaces/listings/{id}", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 200, body = ListingBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn get_listing(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<Json<ListingBody>> {
    auth.require(READ)?;
    let r = client(&state)?.get_listing(auth.ctx().request(pb::GetListingRequest { id })).await?.into_inner();
    one(&state, &auth, r.listing).await
}

/// What a listing is linked to: one SKU, or a bundle's parts.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct ListingLinkInput {
    /// The SKU it is.
    pub sku_id: Option<i64>,
    /// Or its parts, when it is a set of our SKUs.
    pub parts: Vec<BundlePartInput>,
}

/// A cost share in percent with up to two decimals, in basis points.
fn share_bp(field: &str, text: Option<&str>) -> ApiResult<i64> {
    let Some(t) = text.map(str::trim).filter(|t| !t.is_empty()) else { return Ok(0) };
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    let ok = !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && frac.len() <= 2
        && frac.bytes().all(|b| b.is_ascii_digit());
    if !ok {
        return Err(ApiError::invalid_field(field, "validation.percent"));
    }
    let whole: i64 = whole.parse().map_err(|_| ApiError::invalid_field(field, "validation.percent"))?;
    let frac: i64 = format!("{frac:0<2}").parse().unwrap_or(0);
    Ok(whole * 100 + frac)
}

/// Links a listing to one of our SKUs, or makes it a bundle of several, as a person chose:
/// nothing automatic replaces it; its stock is pushed from now on.
#[utoipa::path(post, path = "/marketplaces/listings/{id}/link", tag = "marketplaces", params(("id" = i64, Path)),
    request_body = ListingLinkInput,
    responses((status = 200, body = ListingBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "validation.sku_unknown, validation.shares_sum")),
    security(("bearer" = [])))]
async fn link_listing(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<ListingLinkInput>,
) -> ApiResult<Json<ListingBody>> {
    auth.require(EDIT)?;
    let mut parts = Vec::with_capacity(b.parts.len());
    for (i, p) in b.parts.iter().enumerate() {
        parts.push(pb::BundlePart {
            sku_id: p.sku_id,
            quantity: p.quantity,
            cost_share_bp: share_bp(&format!("parts[{i}].cost_share"), p.cost_share.as_deref())?,
        });
    }
    let r = client(&state)?
        .set_listing_link(auth.ctx().request(pb::SetListingLinkRequest { id, sku_id: b.sku_id.unwrap_or(0), parts }))
        .await?
        .into_inner();
    one(&state, &auth, r.listing).await
}

/// Unlinks listing `ref` of a shop on `channel-dashed` (shopee, lazada, tiktok-shop) from
/// product `id` (SPEC §7): its stock is never pushed again until a person links it, and no
/// automatic link takes it.
#[utoipa::path(post, path = "/products/{id}/{channel}/{ref}/unlink", tag = "marketplaces",
    params(("id" = i64, Path), ("channel" = String, Path), ("ref" = i64, Path)),
    responses((status = 200, body = ListingBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn unlink_listing(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((product_id, channel, listing_id)): Path<(i64, String, i64)>,
) -> ApiResult<Json<ListingBody>> {
    auth.require(EDIT)?;
    let not_found = || ApiError::new(StatusCode::NOT_FOUND, bo_kit::Code::ListingNotFound);
    let mut mp = client(&state)?;
    let listing = mp.get_listing(auth.ctx().request(pb::GetListingRequest { id: listing_id })).await?.into_inner();
    let listing = listing.listing.unwrap_or_default();
    // The listing must be the product's, on a shop of the marketplace the path names.
    let shop = mp
        .get_store_channel(auth.ctx().request(pb::GetStoreChannelRequest { id: listing.store_channel_id }))
        .await?
        .into_inner()
        .channel
        .unwrap_or_default();
    if word::<pb::Marketplace>(shop.marketplace).replace('_', "-") != channel.trim() {
        return Err(not_found());
    }
    let skus: Vec<i64> =
        if listing.sku_id > 0 { vec![listing.sku_id] } else { listing.parts.iter().map(|p| p.sku_id).collect() };
    let found =
        state.products().get_skus(auth.ctx().request(ppb::GetSkusRequest { ids: skus })).await?.into_inner().skus;
    if !found.iter().any(|s| s.product_id == product_id) {
        return Err(not_found());
    }
    let r = mp.unlink_listing(auth.ctx().request(pb::GetListingRequest { id: listing_id })).await?.into_inner();
    one(&state, &auth, r.listing).await
}

/// How to link automatically.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct AutoLinkInput {
    /// Also by identical names (case and spacing ignored).
    pub by_name: bool,
}

/// What an automatic link did.
#[derive(Debug, Serialize, ToSchema)]
pub struct AutoLinkBody {
    pub by_seller_sku: i64,
    pub by_name: i64,
    /// Still waiting for a SKU.
    pub waiting: i64,
}

/// Links a shop's listings waiting for a SKU by identical seller SKU (the store's ignored
/// prefixes and suffixes taken off) and, when asked, by identical name; a listing a person
/// linked or unlinked is never relinked, and one that matches two SKUs waits for a person.
#[utoipa::path(post, path = "/marketplaces/store-channels/{id}/listings/auto-link", tag = "marketplaces",
    params(("id" = i64, Path)), request_body = AutoLinkInput,
    responses((status = 200, body = AutoLinkBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn auto_link_listings(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<AutoLinkInput>,
) -> ApiResult<Json<AutoLinkBody>> {
    auth.require(EDIT)?;
    let r = client(&state)?
        .auto_link_listings(
            auth.ctx().request(pb::AutoLinkListingsRequest { store_channel_id: id, by_name: b.by_name }),
        )
        .await?
        .into_inner();
    Ok(Json(AutoLinkBody { by_seller_sku: r.by_seller_sku, by_name: r.by_name, waiting: r.waiting }))
}

/// Listings to make products of.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct CreateFromListingsInput {
    /// The listings (each listing's variations become one product, a SKU each); at most 500.
    pub listing_ids: Vec<i64>,
    /// The category the products are filed under.
    pub category_id: Option<i64>,
}

/// What became of one listing.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedFromListingBody {
    pub listing_id: i64,
    /// Its new SKU (null when it could not be made).
    pub sku_id: Option<i64>,
    /// Why not: the catalog's code or its first broken field.
    pub error: String,
}

/// Makes products and SKUs of ours from listings waiting for a SKU (named by their seller
/// SKUs, priced as listed) and links each listing to its new SKU; each listing is answered.
#[utoipa::path(post, path = "/marketplaces/store-channels/{id}/listings/create-products", tag = "marketplaces",
    params(("id" = i64, Path)), request_body = CreateFromListingsInput,
    responses((status = 200, body = List<CreatedFromListingBody>), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn create_products_from_listings(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(b): Body<CreateFromListingsInput>,
) -> ApiResult<Json<List<CreatedFromListingBody>>> {
    auth.require(CREATE)?;
    let r = client(&state)?
        .create_products_from_listings(auth.ctx().request(pb::CreateProductsFromListingsRequest {
            store_channel_id: id,
            listing_ids: b.listing_ids,
            category_id: b.category_id.unwrap_or(0),
        }))
        .await?
        .into_inner();
    Ok(Json(List::all(
        r.results
            .into_iter()
            .map(|c| CreatedFromListingBody {
                listing_id: c.listing_id,
                sku_id: (c.sku_id > 0).then_some(c.sku_id),
                error: c.error,
            })
            .collect(),
    )))
}

/// A prefix or suffix the store's seller SKUs put around our codes.
#[derive(Debug, Serialize, ToSchema)]
pub struct MatchRuleBody {
    pub id: i64,
    /// prefix or suffix.
    pub kind: String,
    pub text: String,
}

impl From<pb::MatchRule> for MatchRuleBody {
    fn from(r: pb::MatchRule) -> Self {
        MatchRuleBody { id: r.id, kind: word::<pb::MatchRuleKind>(r.kind), text: r.text }
    }
}

/// A new matching rule.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct MatchRuleInput {
    /// prefix or suffix.
    pub kind: String,
    /// What to ignore (at most 30 characters).
    pub text: String,
}

/// The store's matching rules: what automatic links ignore around our codes.
#[utoipa::path(get, path = "/marketplaces/match-rules", tag = "marketplaces",
    responses((status = 200, body = List<MatchRuleBody>)), security(("bearer" = [])))]
async fn list_match_rules(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<List<MatchRuleBody>>> {
    auth.require(READ)?;
    let r = client(&state)?.list_match_rules(auth.ctx().request(pb::ListMatchRulesRequest {})).await?.into_inner();
    Ok(Json(List::all(r.rules.into_iter().map(MatchRuleBody::from).collect())))
}

/// Adds a matching rule (the same rule twice is one; at most 50).
#[utoipa::path(post, path = "/marketplaces/match-rules", tag = "marketplaces", request_body = MatchRuleInput,
    responses((status = 201, body = MatchRuleBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "match_rules_full"), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn add_match_rule(
    State(state): State<AppState>,
    auth: StoreAuth,
    Body(b): Body<MatchRuleInput>,
) -> ApiResult<(StatusCode, Json<MatchRuleBody>)> {
    auth.require(EDIT)?;
    let kind = enum_field::<pb::MatchRuleKind>("kind", Some(b.kind.trim()), "validation.invalid")?;
    let r = client(&state)?
        .add_match_rule(auth.ctx().request(pb::AddMatchRuleRequest { kind, text: b.text }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(r.rule.unwrap_or_default().into())))
}

/// Deletes a matching rule.
#[utoipa::path(delete, path = "/marketplaces/match-rules/{id}", tag = "marketplaces", params(("id" = i64, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)), security(("bearer" = [])))]
async fn delete_match_rule(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
) -> ApiResult<StatusCode> {
    auth.require(EDIT)?;
    client(&state)?.delete_match_rule(auth.ctx().request(pb::DeleteMatchRuleRequest { id })).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Which SKUs' links to read.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct SkuLinksQuery {
    /// SKU ids, comma separated (at most 500).
    pub sku_ids: String,
}

/// A shop one of our SKUs is linked to.
#[derive(Debug, Serialize, ToSchema)]
pub struct SkuLinkBody {
    pub sku_id: i64,
    pub store_channel_id: i64,
    /// shopee, lazada or tiktok_shop.
    pub marketplace: String,
    pub shop_name: String,
    pub listing_id: i64,
}

/// The shops each of the SKUs named is linked to, alone or in a bundle (the catalog shows
/// them beside each product).
#[utoipa::path(get, path = "/marketplaces/sku-links", tag = "marketplaces", params(SkuLinksQuery),
    responses((status = 200, body = List<SkuLinkBody>), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
async fn sku_links(
    State(state): State<AppState>,
    auth: StoreAuth,
    Query(q): Query<SkuLinksQuery>,
) -> ApiResult<Json<List<SkuLinkBody>>> {
    auth.require(READ)?;
    let mut ids = Vec::new();
    for part in q.sku_ids.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        ids.push(part.parse::<i64>().map_err(|_| ApiError::invalid_field("sku-ids", "validation.invalid"))?);
    }
    let r = client(&state)?
        .list_sku_links(auth.ctx().request(pb::ListSkuLinksRequest { sku_ids: ids }))
        .await?
        .into_inner();
    Ok(Json(List::all(
        r.links
            .into_iter()
            .map(|l| SkuLinkBody {
                sku_id: l.sku_id,
                store_channel_id: l.store_channel_id,
                marketplace: word::<pb::Marketplace>(l.marketplace),
                shop_name: l.shop_name,
                listing_id: l.listing_id,
            })
            .collect(),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_shares_are_percent_with_two_decimals() {
        assert_eq!(share_bp("f", Some("70")).unwrap(), 7000);
        assert_eq!(share_bp("f", Some("33.33")).unwrap(), 3333);
        assert_eq!(share_bp("f", Some("0.5")).unwrap(), 50);
        assert_eq!(share_bp("f", None).unwrap(), 0);
        for bad in ["-1", "1.234", "abc", "1,5"] {
            assert!(share_bp("f", Some(bad)).is_err(), "{bad}");
        }
        assert_eq!(share_text(3333), "33.33");
    }
}
