//! Products and SKUs (SPEC §2 Products, §3 Product, §7 "Products").
//!
//! Money travels as baht text with two decimals ("199.50"; numbers are accepted on input),
//! weights as kilogram text. Variant names carry a one-character ordering prefix on the
//! wire: `variant1` is `"1สี"` for the variant named สี, `variant2` starts with `2`, and the
//! keys of each SKU's `variant_option` map carry the same prefix
//! (`{"1สี": "ขาว", "2ไซซ์": "M"}`). The app strips the prefix on load and adds it on save.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use bo_kit::time::timestamp_to_rfc3339;
use bo_kit::FieldError;
use bo_proto::products::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::idempotency::{self, Deferred};
use crate::perms::{keys, Access};
use crate::state::AppState;
use crate::uploads::{FileForm, Staged};
use crate::wire::{baht, enum_field, kilograms, word, Body, Decimal, List, Path, Query};

mod catalog;
mod imports;
mod lookups;
mod photos;

use catalog::*;

pub(crate) use imports::ImportRowErrorBody;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(catalog::router())
        .merge(imports::router())
        .merge(lookups::router())
        .merge(photos::router())
}

const READ: Access = Access { roles: &[], perms: &[keys::PRODUCT_SKU_READ] };
const CREATE: Access = Access { roles: &[], perms: &[keys::PRODUCT_SKU_CREATE] };
const EDIT: Access = Access { roles: &[], perms: &[keys::PRODUCT_SKU_EDIT] };

/// Stock of a SKU in one warehouse.
#[derive(Debug, Serialize, ToSchema)]
pub struct InventoryBody {
    /// Warehouse id.
    pub warehouse_id: i64,
    /// Units available (on hand minus reserved).
    pub available: i64,
    /// Units on pre-order.
    pub preorder: i64,
    /// Units on hand.
    pub quantity: i64,
    /// Units reserved for orders.
    pub reserve: i64,
}

impl From<pb::Inventory> for InventoryBody {
    fn from(i: pb::Inventory) -> Self {
        InventoryBody {
            warehouse_id: i.warehouse_id,
            available: i.available,
            preorder: i.preorder,
            quantity: i.on_hand,
            reserve: i.reserved,
        }
    }
}

/// A SKU.
#[derive(Debug, Serialize, ToSchema)]
pub struct SkuBody {
    /// Id.
    pub id: i64,
    /// Code, unique in the store.
    pub code: String,
    /// Cost in baht.
    pub cost: String,
    /// Price in baht.
    pub price: String,
    /// Safety stock in units.
    pub safety_stock: i64,
    /// Barcode.
    pub barcode: String,
    /// active or inactive.
    pub status: String,
    /// Option per variant, keys prefixed ("1สี").
    pub variant_option: BTreeMap<String, String>,
    /// Stock per warehouse.
    pub inventories: Vec<InventoryBody>,
}

/// An image of a product.
#[derive(Debug, Serialize, ToSchema)]
pub struct PhotoBody {
    /// Photo id.
    pub id: i64,
    /// Where to load it; add `?size=N` for a square PNG of N pixels (N under 100 doubles).
    pub url: String,
    /// Width in pixels.
    pub width: i64,
    /// Height in pixels.
    pub height: i64,
}

impl From<pb::Photo> for PhotoBody {
    fn from(p: pb::Photo) -> Self {
        PhotoBody { id: p.id, url: format!("/api/products/photos/{}", p.name), width: p.width, height: p.height }
    }
}

/// A product.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProductBody {
    /// Id.
    pub id: i64,
    /// Thai name.
    pub name: String,
    /// English name.
    pub name_en: String,
    /// Short description.
    pub short_description: String,
    /// Description.
    pub description: String,
    /// Code.
    pub code: String,
    /// HS code.
    pub hs_code: String,
    /// Brand.
    pub brand: String,
    /// Tags.
    pub tags: Vec<String>,
    /// Category id.
    pub category_id: i64,
    /// Price in baht.
    pub price: String,
    /// Cost in baht.
    pub cost: String,
    /// The price includes 7% VAT.
    pub vat: bool,
    /// The price without VAT, in baht.
    pub price_ex_vat: String,
    /// Weight per piece in kilograms.
    pub weight: String,
    /// Barcode.
    pub barcode: String,
    /// Unit of measurement id (0 for none).
    pub unit_id: i64,
    /// First variant's name, prefixed with "1" (null without variants).
    pub variant1: Option<String>,
    /// First variant's options.
    pub variant1_options: Vec<String>,
    /// Second variant's name, prefixed with "2".
    pub variant2: Option<String>,
    /// Second variant's options.
    pub variant2_options: Vec<String>,
    /// SKUs.
    pub skus: Vec<SkuBody>,
    /// Photos in display order.
    pub photos: Vec<PhotoBody>,
    /// The cover (the first photo), if any.
    pub cover_url: Option<String>,
    /// The size-chart image, if any.
    pub size_chart: Option<PhotoBody>,
    /// active or inactive.
    pub status: String,
    /// Created.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
}

fn prefixed(i: usize, name: &str) -> String {
    format!("{}{name}", i + 1)
}

impl From<pb::Product> for ProductBody {
    fn from(p: pb::Product) -> Self {
        let v = |i: usize| p.variants.get(i).map(|v| prefixed(i, &v.name));
        let opts = |i: usize| p.variants.get(i).map(|v| v.options.clone()).unwrap_or_default();
        let skus = p
            .skus
            .iter()
            .map(|s| {
                let mut variant_option = BTreeMap::new();
                for (i, value) in [&s.option1, &s.option2].into_iter().enumerate() {
                    if let Some(var) = p.variants.get(i) {
                        variant_option.insert(prefixed(i, &var.name), value.clone());
                    }
                }
                SkuBody {
                    id: s.id,
                    code: s.code.clone(),
                    cost: baht(s.cost),
                    price: baht(s.price),
                    safety_stock: s.safety_stock,
                    barcode: s.barcode.clone(),
                    status: word::<pb::ProductStatus>(s.status),
                    variant_option,
                    inventories: s.inventories.iter().copied().map(InventoryBody::from).collect(),
                }
            })
            .collect();
        let photos: Vec<PhotoBody> = p.photos.iter().cloned().map(PhotoBody::from).collect();
        ProductBody {
            id: p.id,
            cover_url: photos.first().map(|ph| ph.url.clone()),
            photos,
            size_chart: p.size_chart.map(PhotoBody::from),
            variant1: v(0),
            variant1_options: opts(0),
            variant2: v(1),
            variant2_options: opts(1),
            name: p.name,
            name_en: p.name_en,
            short_description: p.short_description,
            description: p.description,
            code: p.code,
            hs_code: p.hs_code,
            brand: p.brand,
            tags: p.tags,
            category_id: p.category_id,
            price: baht(p.price),
            cost: baht(p.cost),
            vat: p.vat,
            price_ex_vat: baht(p.price_ex_vat),
            weight: kilograms(p.weight_grams),
            barcode: p.barcode,
            unit_id: p.unit_id,
            skus,
            status: word::<pb::ProductStatus>(p.status),
            created_at: timestamp_to_rfc3339(p.create_time.as_ref()),
            updated_at: timestamp_to_rfc3339(p.update_time.as_ref()),
        }
    }
}

/// A SKU as written.
#[derive(Debug, Deserialize, Serialize, ToSchema, Default)]
#[serde(default)]
pub struct SkuInput {
    /// Id of an existing SKU (absent for a new one).
    pub id: Option<i64>,
    /// Code (defaults to the product's code for a product without variants).
    pub code: String,
    /// Cost in baht.
    pub cost: Option<Decimal>,
    /// Price in baht.
    pub price: Option<Decimal>,
    /// Safety stock in units.
    pub safety_stock: i64,
    /// Barcode.
    pub barcode: String,
    /// active (default) or inactive.
    pub status: String,
    /// Option per variant, keys prefixed ("1สี": "ขาว").
    pub variant_option: BTreeMap<String, String>,
}

/// A product as written (create and full replace).
#[derive(Debug, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ProductInput {
    /// Thai name (required).
    pub name: String,
    /// English name.
    pub name_en: String,
    /// Short description (required).
    pub short_description: String,
    /// Description.
    pub description: String,
    /// Code (required, unique in the store).
    pub code: String,
    /// HS code: 6, 8 or 10 digits.
    pub hs_code: String,
    /// Brand.
    pub brand: String,
    /// Tags: at least one, none repeated.
    pub tags: Vec<String>,
    /// Category id (required).
    pub category_id: i64,
    /// Price in baht (required).
    pub price: Option<Decimal>,
    /// Cost in baht (required).
    pub cost: Option<Decimal>,
    /// The price includes 7% VAT (default true).
    pub vat: Option<bool>,
    /// Weight per piece in kilograms.
    pub weight: Option<Decimal>,
    /// Barcode.
    pub barcode: String,
    /// Unit of measurement id.
    pub unit_id: i64,
    /// First variant's name, prefixed with "1".
    pub variant1: Option<String>,
    /// First variant's options.
    pub variant1_options: Vec<String>,
    /// Second variant's name, prefixed with "2".
    pub variant2: Option<String>,
    /// Second variant's options.
    pub variant2_options: Vec<String>,
    /// SKUs: one without variants, one per option combination with them.
    pub skus: Vec<SkuInput>,
    /// active (default) or inactive.
    pub status: String,
}

/// The number of a status word (empty for the service's default), a field error when the
/// word is none of them.
fn status_number(field: &str, word: &str, errs: &mut Vec<FieldError>) -> i32 {
    enum_field::<pb::ProductStatus>(field, Some(word), "validation.status").unwrap_or_else(|_| {
        errs.push(FieldError::new(field, "validation.status"));
        0
    })
}

fn money(field: &str, v: &Option<Decimal>, errs: &mut Vec<FieldError>) -> i64 {
    match v {
        None => {
            errs.push(FieldError::new(field, "validation.required"));
            0
        }
        Some(d) => d.satang().unwrap_or_else(|| {
            errs.push(FieldError::new(field, "validation.money"));
            0
        }),
    }
}

fn unprefix(i: usize, name: &str, errs: &mut Vec<FieldError>) -> String {
    let want = char::from(b'1' + i as u8);
    match name.strip_prefix(want) {
        Some(rest) => rest.to_string(),
        None => {
            errs.push(FieldError::new(format!("variant{}", i + 1), "validation.variant_prefix"));
            name.to_string()
        }
    }
}

impl ProductInput {
    /// The service's message, with wire-level errors (money, prefixes) gathered first.
    fn into_proto(self, id: i64) -> Result<pb::Product, ApiError> {
        let mut errs = Vec::new();
        let mut variants = Vec::new();
        for (i, (name, options)) in
            [(self.variant1, self.variant1_options), (self.variant2, self.variant2_options)].into_iter().enumerate()
        {
            if let Some(name) = name.filter(|n| !n.trim().is_empty()) {
                variants.push(pb::Variant { name: unprefix(i, name.trim(), &mut errs), options });
            }
        }
        let price = money("price", &self.price, &mut errs);
        let cost = money("cost", &self.cost, &mut errs);
        let weight_grams = match &self.weight {
            None => 0,
            Some(w) => w.grams().unwrap_or_else(|| {
                errs.push(FieldError::new("weight", "validation.weight"));
                0
            }),
        };
        let mut skus = Vec::new();
        for (i, s) in self.skus.into_iter().enumerate() {
            let mut options = [String::new(), String::new()];
            for (key, value) in &s.variant_option {
                let slot = variants.iter().enumerate().find(|(n, v)| *key == prefixed(*n, &v.name)).map(|(n, _)| n);
                match slot {
                    Some(n) => options[n] = value.clone(),
                    None => {
                        errs.push(FieldError::new(format!("skus[{i}].variant_option"), "validation.variant_option"))
                    }
                }
            }
            let [option1, option2] = options;
            skus.push(pb::Sku {
                id: s.id.unwrap_or(0),
                product_id: id,
                code: s.code,
                cost: s.cost.as_ref().map(|_| money(&format!("skus[{i}].cost"), &s.cost, &mut errs)).unwrap_or(cost),
                price: s
                    .price
                    .as_ref()
                    .map(|_| money(&format!("skus[{i}].price"), &s.price, &mut errs))
                    .unwrap_or(price),
                safety_stock: s.safety_stock,
                barcode: s.barcode,
                status: status_number(&format!("skus[{i}].status"), &s.status, &mut errs),
                option1,
                option2,
                inventories: Vec::new(),
            });
        }
        if !errs.is_empty() {
            return Err(bo_kit::Error::invalid(errs).into());
        }
        Ok(pb::Product {
            id,
            name: self.name,
            name_en: self.name_en,
            short_description: self.short_description,
            description: self.description,
            code: self.code,
            hs_code: self.hs_code,
            brand: self.brand,
            tags: self.tags,
            category_id: self.category_id,
            price,
            cost,
            vat: self.vat.unwrap_or(true),
            weight_grams,
            barcode: self.barcode,
            unit_id: self.unit_id,
            variants,
            skus,
            status: status_number("status", &self.status, &mut errs),
            ..Default::default()
        })
    }
}
