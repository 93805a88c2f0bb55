//! Between the contract and the service: a call's product becomes the rules' draft, and
//! storage's rows become the messages the calls answer.

use bo_kit::time::ms_to_timestamp;
use bo_proto::products::v1 as pb;
use bo_proto::Wire;

use crate::domain::{self, Status};
use crate::store::{
    CategoryRow, InventoryRow, PhotoRow, ProductRecord, SkuDescribed, SkuRow, SkuStockRow, Summaries, SIZE_CHART,
};

/// A status as asked for: unspecified is active (a new product is for sale); a number this
/// build does not know stays unknown, for the rules to refuse.
pub fn status(number: i32) -> Status {
    match pb::ProductStatus::try_from(number) {
        Ok(pb::ProductStatus::Unspecified | pb::ProductStatus::Active) => Status::Active,
        Ok(pb::ProductStatus::Inactive) => Status::Inactive,
        Err(_) => Status::Unknown,
    }
}

/// The product a call writes, for the rules to check.
pub fn draft(p: pb::Product) -> domain::Product {
    domain::Product {
        id: p.id,
        name: p.name,
        name_en: p.name_en,
        short_description: p.short_description,
        description: p.description,
        code: p.code,
        hs_code: p.hs_code,
        brand: p.brand,
        tags: p.tags,
        category_id: p.category_id,
        price: p.price,
        cost: p.cost,
        vat: p.vat,
        weight_grams: p.weight_grams,
        barcode: p.barcode,
        unit_id: p.unit_id,
        variants: p.variants.into_iter().map(|v| domain::Variant { name: v.name, options: v.options }).collect(),
        skus: p
            .skus
            .into_iter()
            .map(|s| domain::Sku {
                id: s.id,
                code: s.code,
                cost: s.cost,
                price: s.price,
                safety_stock: s.safety_stock,
                barcode: s.barcode,
                status: status(s.status),
                option1: s.option1,
                option2: s.option2,
            })
            .collect(),
        status: status(p.status),
    }
}

/// A product with its SKUs, their stock and its photos.
pub fn product(r: ProductRecord) -> pb::Product {
    let p = r.row;
    let (charts, photos): (Vec<PhotoRow>, Vec<PhotoRow>) = r.photos.into_iter().partition(|ph| ph.kind == SIZE_CHART);
    pb::Product {
        id: p.id,
        store_id: p.store_id,
        tags: p.tags(),
        variants: p.variants().into_iter().map(|v| pb::Variant { name: v.name, options: v.options }).collect(),
        name: p.name,
        name_en: p.name_en,
        short_description: p.short_description,
        description: p.description,
        code: p.code,
        hs_code: p.hs_code,
        brand: p.brand,
        category_id: p.category_id,
        price: p.price,
        cost: p.cost,
        vat: p.vat != 0,
        price_ex_vat: domain::price_ex_vat(p.price, p.vat != 0),
        weight_grams: p.weight_grams,
        barcode: p.barcode,
        unit_id: p.unit_id,
        skus: r.skus.into_iter().map(|s| sku(s.row, s.inventories.iter().map(inventory).collect())).collect(),
        status: pb::ProductStatus::number(&p.status),
        create_time: Some(ms_to_timestamp(p.created_at)),
        update_time: Some(ms_to_timestamp(p.updated_at)),
        photos: photos.iter().map(photo).collect(),
        size_chart: charts.first().map(photo),
    }
}

/// A SKU with its stock per warehouse.
pub fn sku(s: SkuRow, inventories: Vec<pb::Inventory>) -> pb::Sku {
    pb::Sku {
        id: s.id,
        product_id: s.product_id,
        status: pb::ProductStatus::number(&s.status),
        code: s.code,
        cost: s.cost,
        price: s.price,
        safety_stock: s.safety_stock,
        barcode: s.barcode,
        option1: s.option1,
        option2: s.option2,
        inventories,
    }
}

/// A SKU's stock in one warehouse (available is what is not reserved).
pub fn inventory(i: &InventoryRow) -> pb::Inventory {
    pb::Inventory {
        warehouse_id: i.warehouse_id,
        available: i.on_hand - i.reserved,
        preorder: i.preorder,
        on_hand: i.on_hand,
        reserved: i.reserved,
    }
}

/// A photo (or the size chart).
pub fn photo(p: &PhotoRow) -> pb::Photo {
    pb::Photo {
        id: p.id,
        name: p.name.clone(),
        kind: p.kind.clone(),
        position: p.position,
        width: p.width,
        height: p.height,
    }
}

/// A category.
pub fn category(c: CategoryRow) -> pb::Category {
    pb::Category { id: c.id, name: c.name, name_en: c.name_en }
}

/// A SKU with what an order line keeps of its product.
pub fn described(d: SkuDescribed) -> pb::SkuDescription {
    let names = d.variant_names();
    let name = |i: usize| names.get(i).cloned().unwrap_or_default();
    pb::SkuDescription {
        product_id: d.sku.product_id,
        variant1: name(0),
        variant2: name(1),
        product_status: pb::ProductStatus::number(&d.product_status),
        product_name: d.product_name,
        product_code: d.product_code,
        hs_code: d.hs_code,
        weight_grams: d.weight_grams,
        vat: d.vat != 0,
        sku: Some(sku(d.sku, Vec::new())),
    }
}

/// A line of the stock overview.
pub fn sku_stock(r: SkuStockRow) -> pb::SkuInventory {
    pb::SkuInventory {
        product_id: r.sku.product_id,
        inventory: Some(inventory(&r.inventory)),
        sku: Some(sku(r.sku, Vec::new())),
        product_name: r.product_name,
    }
}

/// The catalog's counts.
pub fn summaries(s: Summaries) -> pb::GetSummariesResponse {
    pb::GetSummariesResponse {
        products: s.products,
        active: s.active,
        inactive: s.products - s.active,
        skus: s.skus,
        out_of_stock: s.out_of_stock,
        below_safety_stock: s.below_safety_stock,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rules' statuses keep the contract's words, so a stored word reads back as the
    /// status it was.
    #[test]
    fn statuses_are_the_contract_words() {
        let words: Vec<&str> = pb::ProductStatus::words().collect();
        assert_eq!(words, [Status::Active.word(), Status::Inactive.word()]);
        for s in [Status::Active, Status::Inactive] {
            assert_eq!(Status::of_word(s.word()), s);
        }
        assert_eq!(status(0), Status::Active, "unspecified is a new product's status");
        assert_eq!(status(pb::ProductStatus::Inactive.into()), Status::Inactive);
        assert_eq!(status(9), Status::Unknown);
    }
}
