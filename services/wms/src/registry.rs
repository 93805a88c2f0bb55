//! The SKU registry: which SKUs exist and in which store, kept from the products service's
//! `products.product.saved` and `products.product.deleted` events. Stock commands check
//! their SKUs here, so wms answers from its own knowledge without asking products.

use bo_kit::Code;
use std::collections::BTreeSet;

use async_trait::async_trait;
use bo_kit::db::Tx;
use bo_kit::inbox::{Meta, On};
use bo_kit::{Error, Result};
use bo_proto::events::v1::{ProductSaved, ProductsDeleted};

/// The registry's event handlers.
pub struct Registry;

#[async_trait]
impl On<ProductSaved> for Registry {
    async fn on(&self, tx: &mut Tx, meta: &Meta, e: ProductSaved) -> anyhow::Result<()> {
        let version = if e.version > 0 { e.version } else { meta.occur_ms };
        for s in &e.skus {
            sqlx::query(
                "INSERT INTO skus (sku_id, store_id, product_id, code, deleted, version, product_name, barcode, option1, \
                 option2) VALUES ($1, $2, $3, $4, 0, $5, $6, $7, $8, $9) \
                 ON CONFLICT (sku_id) DO UPDATE SET product_id = excluded.product_id, code = excluded.code, \
                 deleted = 0, version = excluded.version, product_name = excluded.product_name, \
                 barcode = excluded.barcode, option1 = excluded.option1, option2 = excluded.option2 \
                 WHERE skus.store_id = excluded.store_id AND skus.version <= excluded.version",
            )
            .bind(s.id)
            .bind(meta.store_id)
            .bind(e.product_id)
            .bind(&s.code)
            .bind(version)
            .bind(&e.name)
            .bind(&s.barcode)
            .bind(&s.option1)
            .bind(&s.option2)
            .execute(&mut **tx)
            .await?;
        }
        // SKUs the product no longer has are gone.
        let keep: Vec<String> = e.skus.iter().map(|s| s.id.to_string()).collect();
        let not_kept = if keep.is_empty() { String::new() } else { format!("AND sku_id NOT IN ({})", keep.join(", ")) };
        sqlx::query(&format!(
            "UPDATE skus SET deleted = 1, version = $1 WHERE store_id = $2 AND product_id = $3 AND version <= $1 {not_kept}"
        ))
        .bind(version)
        .bind(meta.store_id)
        .bind(e.product_id)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

#[async_trait]
impl On<ProductsDeleted> for Registry {
    async fn on(&self, tx: &mut Tx, meta: &Meta, e: ProductsDeleted) -> anyhow::Result<()> {
        for id in &e.product_ids {
            sqlx::query(
                "UPDATE skus SET deleted = 1, version = $1 WHERE store_id = $2 AND product_id = $3 AND version <= $1",
            )
            .bind(meta.occur_ms)
            .bind(meta.store_id)
            .bind(id)
            .execute(&mut **tx)
            .await?;
        }
        Ok(())
    }
}

/// Refuses unless every SKU of `sku_ids` exists in the store (`sku_not_found`).
pub async fn check(tx: &mut Tx, store_id: i64, sku_ids: &[i64]) -> Result<()> {
    let known = Known::of(sku_ids)?;
    let counted: i64 =
        sqlx::query_scalar(&format!("SELECT {}", known.count_sql())).bind(store_id).fetch_one(&mut **tx).await?;
    known.check(counted)
}

/// A count of no SKUs, where [`Known::count_sql`] stands in a statement.
pub const NONE_COUNTED: &str = "CAST(0 AS BIGINT)";

/// The question [`check`] asks, for a caller that asks it within a statement of its own: the
/// store is its statement's `$1`.
pub struct Known {
    /// The SKUs asked about, each once, inlined (ids are integers, so they can be).
    list: String,
    wanted: usize,
}

impl Known {
    /// Refused at once (`sku_not_found`) when an id cannot be a SKU's.
    pub fn of(sku_ids: &[i64]) -> Result<Known> {
        let wanted: BTreeSet<i64> = sku_ids.iter().copied().collect();
        if wanted.iter().any(|id| *id <= 0) {
            return Err(Error::not_found(Code::SkuNotFound));
        }
        Ok(Known { list: wanted.iter().map(i64::to_string).collect::<Vec<_>>().join(", "), wanted: wanted.len() })
    }

    /// A scalar subquery: how many of them the store (`$1`) has, not deleted.
    pub fn count_sql(&self) -> String {
        if self.wanted == 0 {
            return NONE_COUNTED.into();
        }
        format!("(SELECT COUNT(*) FROM skus WHERE store_id = $1 AND deleted = 0 AND sku_id IN ({}))", self.list)
    }

    /// Refuses (`sku_not_found`) unless the count is all of them.
    pub fn check(&self, counted: i64) -> Result<()> {
        if counted as usize == self.wanted {
            Ok(())
        } else {
            Err(Error::not_found(Code::SkuNotFound))
        }
    }
}

/// What receipts and pick lists show of a SKU.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct SkuInfo {
    /// SKU.
    pub sku_id: i64,
    /// Product.
    pub product_id: i64,
    /// Product name.
    pub product_name: String,
    /// SKU code.
    pub code: String,
    /// Barcode.
    pub barcode: String,
    /// Variant option 1.
    pub option1: String,
    /// Variant option 2.
    pub option2: String,
}

/// The store's SKUs among `sku_ids` (deleted ones included: history still names them).
pub async fn infos<'e, E>(exec: E, store_id: i64, sku_ids: &[i64]) -> Result<std::collections::HashMap<i64, SkuInfo>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let wanted: BTreeSet<i64> = sku_ids.iter().copied().filter(|id| *id > 0).collect();
    if wanted.is_empty() {
        return Ok(Default::default());
    }
    // Ids are integers, so they can be inlined safely.
    let list = wanted.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    let rows = sqlx::query_as::<_, SkuInfo>(&format!(
        "SELECT sku_id, product_id, product_name, code, barcode, option1, option2 FROM skus \
         WHERE store_id = $1 AND sku_id IN ({list})"
    ))
    .bind(store_id)
    .fetch_all(exec)
    .await?;
    Ok(rows.into_iter().map(|r| (r.sku_id, r)).collect())
}
