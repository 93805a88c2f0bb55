//! SKUs' SQL: their descriptions for order lines, the inventory view and its list, kept
//! from wms's stock movements.

use super::*;

impl Repo {
    /// SKUs of this store among `ids`.
    pub async fn skus(&self, store_id: i64, ids: &[i64]) -> Result<Vec<SkuRow>> {
        let mut out = Vec::new();
        for id in ids {
            let row =
                sqlx::query_as::<_, SkuRow>(&format!("SELECT {SKU_COLUMNS} FROM skus WHERE store_id = $1 AND id = $2"))
                    .bind(store_id)
                    .bind(id)
                    .fetch_optional(self.db.pool())
                    .await?;
            if let Some(r) = row {
                out.push(r);
            }
        }
        Ok(out)
    }

    /// SKUs by id with what an order line keeps of them, in the order asked (those of
    /// other stores, or gone, are left out).
    pub async fn describe_skus(&self, store_id: i64, ids: &[i64]) -> Result<Vec<SkuDescribed>> {
        let found = self.describe(store_id, SkuKeys::Ids(ids)).await?;
        let by_id: std::collections::HashMap<i64, &SkuDescribed> = found.iter().map(|d| (d.sku.id, d)).collect();
        Ok(ids.iter().filter_map(|id| by_id.get(id).map(|d| (*d).clone())).collect())
    }

    /// SKUs by code (as [`Repo::describe_skus`]), in the order asked; codes the store does
    /// not have are left out.
    pub async fn describe_skus_by_code(&self, store_id: i64, codes: &[String]) -> Result<Vec<SkuDescribed>> {
        let found = self.describe(store_id, SkuKeys::Codes(codes)).await?;
        let by_code: std::collections::HashMap<&str, &SkuDescribed> =
            found.iter().map(|d| (d.sku.code.as_str(), d)).collect();
        Ok(codes.iter().filter_map(|c| by_code.get(c.as_str()).map(|d| (*d).clone())).collect())
    }

    pub(super) async fn describe(&self, store_id: i64, keys: SkuKeys<'_>) -> Result<Vec<SkuDescribed>> {
        let mut found = Vec::new();
        let count = match keys {
            SkuKeys::Ids(ids) => ids.len(),
            SkuKeys::Codes(codes) => codes.len(),
        };
        for start in (0..count).step_by(200) {
            let end = (start + 200).min(count);
            let placeholders: Vec<String> = (0..end - start).map(|i| format!("${}", i + 2)).collect();
            let column = if matches!(keys, SkuKeys::Ids(_)) { "id" } else { "code" };
            let sql = format!(
                "SELECT s.id, s.product_id, s.code, s.cost, s.price, s.safety_stock, s.barcode, s.status, s.option1, \
                 s.option2, p.name AS product_name, p.code AS product_code, p.hs_code, p.weight_grams, p.variants, \
                 p.status AS product_status, p.vat FROM skus s JOIN products p ON p.id = s.product_id \
                 WHERE s.store_id = $1 AND s.{column} IN ({})",
                placeholders.join(", ")
            );
            let mut q = sqlx::query_as::<_, SkuDescribed>(&sql).bind(store_id);
            match keys {
                SkuKeys::Ids(ids) => {
                    for id in &ids[start..end] {
                        q = q.bind(*id);
                    }
                }
                SkuKeys::Codes(codes) => {
                    for code in &codes[start..end] {
                        q = q.bind(code.as_str());
                    }
                }
            }
            found.extend(q.fetch_all(self.db.pool()).await?);
        }
        Ok(found)
    }

    /// The stock overview: one row per SKU per warehouse holding it (SKUs never stocked
    /// show once, at zero), paged in the database.
    pub async fn sku_inventories(
        &self,
        store_id: i64,
        search: &str,
        warehouse_id: i64,
        below_safety_stock: bool,
        page: PageRequest,
    ) -> Result<(Vec<SkuStockRow>, Page)> {
        let term = search::normalize(search);
        let Some(grams) = search::rarest_first(&self.db, store_id, &term).await? else {
            return Ok((Vec::new(), page.resolve(0)));
        };
        // A SKU is found by its product's names or its own code or barcode.
        let found = search::Condition::new(&term, &grams, 4, |like| {
            format!(
                "(LOWER(p.name) LIKE {like} ESCAPE '\\' OR LOWER(p.name_en) LIKE {like} ESCAPE '\\' \
                 OR LOWER(s.code) LIKE {like} ESCAPE '\\' OR LOWER(s.barcode) LIKE {like} ESCAPE '\\')"
            )
        });
        // Every SKU has its product, so products are joined only to search their names.
        let products = if term.is_empty() { "" } else { "JOIN products p ON p.id = s.product_id" };
        let from = format!(
            "FROM skus s {products} LEFT JOIN inventory i ON i.sku_id = s.id AND ($2 = 0 OR i.warehouse_id = $2) \
             WHERE s.store_id = $1 AND ($3 = 0 OR COALESCE(i.on_hand - i.reserved, 0) <= s.safety_stock) AND {}",
            found.sql
        );
        let below = i64::from(below_safety_stock);
        let total: i64 = if term.is_empty() && !below_safety_stock {
            // Every SKU once per warehouse holding it and once at zero when none does; in one
            // warehouse, every SKU once. The kept counts answer without a join.
            let counts: Option<(i64, i64, i64)> =
                sqlx::query_as("SELECT skus, stocked, held FROM sku_counts WHERE store_id = $1")
                    .bind(store_id)
                    .fetch_optional(self.db.pool())
                    .await?;
            let (skus, stocked, held) = counts.unwrap_or_default();
            if warehouse_id > 0 {
                skus
            } else {
                skus - stocked + held
            }
        } else {
            let count_sql = format!("SELECT COUNT(*) {from}");
            let mut count = sqlx::query_scalar(&count_sql).bind(store_id).bind(warehouse_id).bind(below);
            for b in &found.binds {
                count = count.bind(b);
            }
            count.fetch_one(self.db.pool()).await?
        };
        let page = page.resolve(total);
        // The page's keys first (a deep page walks only ids), then its rows by key.
        let at = 4 + found.binds.len();
        let keys_sql = format!(
            "SELECT s.id, i.warehouse_id {from} ORDER BY s.id DESC, i.warehouse_id LIMIT ${at} OFFSET ${}",
            at + 1
        );
        let mut keys = sqlx::query_as::<_, (i64, Option<i64>)>(&keys_sql).bind(store_id).bind(warehouse_id).bind(below);
        for b in &found.binds {
            keys = keys.bind(b);
        }
        let keys = keys.bind(page.fetch).bind(page.offset).fetch_all(self.db.pool()).await?;
        if keys.is_empty() {
            return Ok((Vec::new(), page));
        }
        let mut ids: Vec<i64> = keys.iter().map(|k| k.0).collect();
        ids.dedup();
        // Ids are integers from the database, so they can be inlined safely.
        let id_list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        #[derive(FromRow)]
        struct Row {
            #[sqlx(flatten)]
            sku: SkuRow,
            product_name: String,
        }
        let skus: HashMap<i64, Row> = sqlx::query_as::<_, Row>(&format!(
            "SELECT s.id, s.product_id, s.code, s.cost, s.price, s.safety_stock, s.barcode, s.status, s.option1, \
             s.option2, p.name AS product_name FROM skus s JOIN products p ON p.id = s.product_id \
             WHERE s.store_id = $1 AND s.id IN ({id_list})"
        ))
        .bind(store_id)
        .fetch_all(self.db.pool())
        .await?
        .into_iter()
        .map(|r| (r.sku.id, r))
        .collect();
        let stock: HashMap<(i64, i64), InventoryRow> = sqlx::query_as::<_, InventoryRow>(&format!(
            "SELECT sku_id, warehouse_id, on_hand, reserved, preorder FROM inventory \
             WHERE store_id = $1 AND sku_id IN ({id_list})"
        ))
        .bind(store_id)
        .fetch_all(self.db.pool())
        .await?
        .into_iter()
        .map(|i| ((i.sku_id, i.warehouse_id), i))
        .collect();
        let out = keys
            .into_iter()
            .filter_map(|(sku_id, warehouse_id)| {
                let r = skus.get(&sku_id)?;
                let inv = warehouse_id.and_then(|w| stock.get(&(sku_id, w)).cloned()).unwrap_or(InventoryRow {
                    sku_id,
                    warehouse_id: warehouse_id.unwrap_or(0),
                    on_hand: 0,
                    reserved: 0,
                    preorder: 0,
                });
                Some(SkuStockRow { sku: r.sku.clone(), product_name: r.product_name.clone(), inventory: inv })
            })
            .collect();
        Ok((out, page))
    }

    /// Applies a stock movement to the inventory view; older movements never overwrite newer.
    pub async fn apply_stock(tx: &mut Tx, store_id: i64, level: &ev::StockLevel, movement_id: i64) -> Result<()> {
        let (known, rows, here): (i64, i64, i64) = sqlx::query_as(
            "SELECT (SELECT COUNT(*) FROM skus WHERE store_id = $1 AND id = $2), \
             (SELECT COUNT(*) FROM inventory WHERE sku_id = $2), \
             (SELECT COUNT(*) FROM inventory WHERE sku_id = $2 AND warehouse_id = $3)",
        )
        .bind(store_id)
        .bind(level.sku_id)
        .bind(level.warehouse_id)
        .fetch_one(&mut **tx)
        .await?;
        if known == 0 {
            // The SKU is gone (or never was): the view keeps no row for it.
            return Ok(());
        }
        if here == 0 {
            count_skus(tx, store_id, 0, i64::from(rows == 0), 1).await?;
        }
        sqlx::query(
            "INSERT INTO inventory (store_id, sku_id, warehouse_id, on_hand, reserved, preorder, movement_id, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (sku_id, warehouse_id) DO UPDATE SET on_hand = excluded.on_hand, reserved = excluded.reserved, \
             preorder = excluded.preorder, movement_id = excluded.movement_id, updated_at = excluded.updated_at \
             WHERE inventory.movement_id < excluded.movement_id",
        )
        .bind(store_id)
        .bind(level.sku_id)
        .bind(level.warehouse_id)
        .bind(level.on_hand)
        .bind(level.reserved)
        .bind(level.preorder)
        .bind(movement_id)
        .bind(now_ms())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}
