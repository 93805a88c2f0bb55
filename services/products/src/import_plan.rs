//! Turns spreadsheet rows into products (SPEC §3 "TikTok import column mapping": code ←
//! product_id, name ← product_name, SKU code ← sku_id, variant ← variation_value,
//! explanation ← product_description, price ← price, seller SKU ← seller_sku).

use crate::domain::{Product, Sku, Variant};

use crate::import::ImportRow;

/// The tag every imported product carries (tags are required).
pub const IMPORT_TAG: &str = "import";
/// The variant dimension of rows that name a variation.
pub const VARIANT_NAME: &str = "ตัวเลือก";

/// The SKU code of a row: the seller's SKU when given, else the marketplace SKU id.
pub fn sku_code(row: &ImportRow) -> String {
    if row.seller_sku.trim().is_empty() {
        row.sku_id.trim().to_string()
    } else {
        row.seller_sku.trim().to_string()
    }
}

/// Products in the file.
pub fn product_count(rows: &[ImportRow]) -> i64 {
    let mut codes: Vec<&str> = rows.iter().map(|r| r.product_id.trim()).collect();
    codes.sort_unstable();
    codes.dedup();
    codes.len() as i64
}

/// One product per product code, in file order, with the spreadsheet rows it came from.
pub fn plan(rows: &[ImportRow], category_id: i64) -> Vec<(Product, Vec<usize>)> {
    let mut order: Vec<String> = Vec::new();
    for r in rows {
        let code = r.product_id.trim().to_string();
        if !order.contains(&code) {
            order.push(code);
        }
    }
    order
        .into_iter()
        .map(|code| {
            let group: Vec<&ImportRow> = rows.iter().filter(|r| r.product_id.trim() == code).collect();
            let first = group[0];
            let with_variants = group.len() > 1 || group.iter().any(|r| !r.variation_value.trim().is_empty());
            let variants = if with_variants {
                vec![Variant {
                    name: VARIANT_NAME.into(),
                    options: group
                        .iter()
                        .enumerate()
                        .map(|(i, r)| {
                            let v = r.variation_value.trim();
                            if v.is_empty() {
                                format!("{}", i + 1)
                            } else {
                                v.to_string()
                            }
                        })
                        .collect(),
                }]
            } else {
                Vec::new()
            };
            let skus = group
                .iter()
                .enumerate()
                .map(|(i, r)| Sku {
                    code: sku_code(r),
                    price: r.price_satang,
                    cost: 0,
                    option1: variants.first().map(|v| v.options[i].clone()).unwrap_or_default(),
                    ..Default::default()
                })
                .collect();
            let description = first.product_description.trim().to_string();
            let short: String = if description.is_empty() {
                first.product_name.clone()
            } else {
                description.chars().take(500).collect()
            };
            let product = Product {
                name: first.product_name.trim().to_string(),
                short_description: short,
                description,
                code,
                category_id,
                price: group.iter().map(|r| r.price_satang).min().unwrap_or(0),
                cost: 0,
                vat: true,
                tags: vec![IMPORT_TAG.into()],
                variants,
                skus,
                ..Default::default()
            };
            (product, group.iter().map(|r| r.row).collect())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(n: usize, code: &str, variant: &str, sku: &str, seller: &str, price: i64) -> ImportRow {
        ImportRow {
            row: n,
            product_id: code.into(),
            product_name: "เสื้อยืด".into(),
            sku_id: sku.into(),
            variation_value: variant.into(),
            product_description: "ผ้าฝ้าย".into(),
            price_satang: price,
            seller_sku: seller.into(),
        }
    }

    #[test]
    fn rows_of_one_product_become_its_variants() {
        let rows = vec![
            row(2, "P1", "ขาว", "111", "TS-W", 19_900),
            row(3, "P1", "ดำ", "112", "", 21_900),
            row(4, "P2", "", "200", "MUG", 9_900),
        ];
        let plan = plan(&rows, 1);
        assert_eq!(plan.len(), 2);
        let (shirt, from) = &plan[0];
        assert_eq!(from, &vec![2, 3]);
        assert_eq!(shirt.variants[0].options, vec!["ขาว", "ดำ"]);
        let codes: Vec<&str> = shirt.skus.iter().map(|s| s.code.as_str()).collect();
        assert_eq!(codes, ["TS-W", "112"]);
        assert_eq!(shirt.price, 19_900);
        assert!(crate::domain::validate(shirt.clone()).is_ok());
        let (mug, _) = &plan[1];
        assert!(mug.variants.is_empty());
        assert!(crate::domain::validate(mug.clone()).is_ok());
        assert_eq!(product_count(&rows), 2);
    }
}
