//! A product of ours made from a marketplace listing whose variations match none of our
//! SKUs: its name and price, its variations as our variants (at most two dimensions), a SKU
//! per variation coded by the seller SKU (or by the listing's ids where it has none).

use std::collections::HashSet;

use super::Marketplace;

/// The longest product name, code and option, in characters.
const NAME_MAX: usize = 255;
const CODE_MAX: usize = 100;
const LABEL_MAX: usize = 50;

/// One variation of the listing, as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variation {
    /// Our id of it.
    pub listing_id: i64,
    /// The marketplace's id of it (empty for a listing without variations).
    pub model_id: String,
    pub seller_sku: String,
    /// Its options, (name, value).
    pub options: Vec<(String, String)>,
    /// Its price, satang.
    pub price: i64,
}

/// A SKU of the new product.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSku {
    /// The variation it is made for.
    pub listing_id: i64,
    pub code: String,
    pub price: i64,
    pub option1: String,
    pub option2: String,
}

/// A variant dimension: its name and options.
pub type Dimension = (String, Vec<String>);

/// The product to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewProduct {
    pub name: String,
    pub code: String,
    /// The lowest of its SKUs' prices.
    pub price: i64,
    /// Its tag: the marketplace's name.
    pub tag: String,
    /// Up to two dimensions.
    pub variants: Vec<Dimension>,
    pub skus: Vec<NewSku>,
}

fn clip(s: &str, max: usize) -> String {
    s.trim().chars().take(max).collect()
}

/// The product a listing's variations make.
pub fn from_listing(marketplace: Marketplace, item_id: &str, name: &str, variations: &[Variation]) -> NewProduct {
    let prefix = marketplace.code().to_uppercase();
    let fallback = |v: &Variation| {
        if v.model_id.is_empty() {
            format!("{prefix}-{item_id}")
        } else {
            format!("{prefix}-{item_id}-{}", v.model_id)
        }
    };
    // Codes: the seller SKU, unique within the product.
    let mut seen = HashSet::new();
    let mut codes = Vec::with_capacity(variations.len());
    for v in variations {
        let base = if v.seller_sku.trim().is_empty() { fallback(v) } else { clip(&v.seller_sku, CODE_MAX) };
        let mut code = base.clone();
        let mut n = 2;
        while !seen.insert(code.to_lowercase()) {
            code = format!("{}-{n}", clip(&base, CODE_MAX - 4));
            n += 1;
        }
        codes.push(code);
    }
    // Variants: the options' names of the first variation (two at most, the rest joined into
    // the second), unless the variations do not tell one from another by them.
    let values = |v: &Variation| -> (String, String) {
        let mut it = v.options.iter().map(|(_, value)| clip(value, LABEL_MAX)).filter(|o| !o.is_empty());
        let first = it.next().unwrap_or_default();
        let rest: Vec<String> = it.collect();
        (first, clip(&rest.join(" / "), LABEL_MAX))
    };
    let pairs: Vec<(String, String)> = variations.iter().map(values).collect();
    let distinct = pairs.iter().collect::<HashSet<_>>().len() == pairs.len();
    let names: Vec<String> =
        variations.first().map(|v| v.options.iter().map(|(n, _)| clip(n, LABEL_MAX)).collect()).unwrap_or_default();
    let by_options = variations.len() > 1 && distinct && pairs.iter().all(|(a, _)| !a.is_empty()) && !names.is_empty();
    let (variants, options): (Vec<Dimension>, Vec<(String, String)>) = if by_options {
        let two = pairs.iter().all(|(_, b)| !b.is_empty());
        let mut dims: Vec<Dimension> = vec![(names[0].clone(), Vec::new())];
        if two {
            let second =
                if names.len() > 2 { names[1..].join(" / ") } else { names.get(1).cloned().unwrap_or_default() };
            dims.push((clip(&second, LABEL_MAX), Vec::new()));
        }
        for (a, b) in &pairs {
            if !dims[0].1.contains(a) {
                dims[0].1.push(a.clone());
            }
            if two && !dims[1].1.contains(b) {
                dims[1].1.push(b.clone());
            }
        }
        let options = pairs.iter().map(|(a, b)| (a.clone(), if two { b.clone() } else { String::new() })).collect();
        if !two && pairs.iter().any(|(_, b)| !b.is_empty()) {
            // Some variations have a second option and some not: one dimension of both.
            let joined: Vec<(String, String)> = pairs
                .iter()
                .map(|(a, b)| {
                    (if b.is_empty() { a.clone() } else { clip(&format!("{a} / {b}"), LABEL_MAX) }, String::new())
                })
                .collect();
            let dim = joined.iter().map(|(a, _)| a.clone()).collect::<Vec<_>>();
            (vec![(names[0].clone(), dim)], joined)
        } else {
            (dims, options)
        }
    } else if variations.len() > 1 {
        // Nothing tells them apart but their codes.
        let dim: Vec<String> = codes.iter().map(|c| clip(c, LABEL_MAX)).collect();
        (vec![("ตัวเลือก".to_string(), dim.clone())], dim.into_iter().map(|c| (c, String::new())).collect())
    } else {
        (Vec::new(), vec![(String::new(), String::new())])
    };
    let skus: Vec<NewSku> = variations
        .iter()
        .zip(codes.iter())
        .zip(options)
        .map(|((v, code), (option1, option2))| NewSku {
            listing_id: v.listing_id,
            code: code.clone(),
            price: v.price.max(0),
            option1,
            option2,
        })
        .collect();
    let code = if variations.len() == 1 { codes[0].clone() } else { format!("{prefix}-{item_id}") };
    NewProduct {
        name: clip(name, NAME_MAX),
        code: clip(&code, CODE_MAX),
        price: skus.iter().map(|s| s.price).min().unwrap_or(0),
        tag: marketplace.name().to_string(),
        variants,
        skus,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(id: i64, model: &str, sku: &str, options: &[(&str, &str)], price: i64) -> Variation {
        Variation {
            listing_id: id,
            model_id: model.into(),
            seller_sku: sku.into(),
            options: options.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect(),
            price,
        }
    }

    #[test]
    fn a_listing_without_variations_is_one_sku_coded_by_its_seller_sku() {
        let p = from_listing(Marketplace::Shopee, "1002", " ถุงผ้า ", &[v(1, "", "BAG", &[], 5_900)]);
        assert_eq!((p.name.as_str(), p.code.as_str(), p.price, p.tag.as_str()), ("ถุงผ้า", "BAG", 5_900, "Shopee"));
        assert!(p.variants.is_empty());
        assert_eq!(
            p.skus,
            vec![NewSku { listing_id: 1, code: "BAG".into(), price: 5_900, option1: "".into(), option2: "".into() }]
        );
        let p = from_listing(Marketplace::TiktokShop, "17", "หมวก", &[v(1, "21", "", &[], 9_900)]);
        assert_eq!(p.skus[0].code, "TIKTOK_SHOP-17-21");
    }

    #[test]
    fn options_become_our_variants() {
        let p = from_listing(
            Marketplace::Lazada,
            "3001",
            "เสื้อยืด",
            &[
                v(1, "1", "TEE-R-M", &[("สี", "แดง"), ("ไซซ์", "M")], 19_900),
                v(2, "2", "TEE-R-L", &[("สี", "แดง"), ("ไซซ์", "L")], 21_900),
                v(3, "3", "TEE-B-M", &[("สี", "น้ำเงิน"), ("ไซซ์", "M")], 19_900),
            ],
        );
        assert_eq!(p.code, "LAZADA-3001");
        assert_eq!(p.price, 19_900);
        assert_eq!(
            p.variants,
            vec![("สี".into(), vec!["แดง".into(), "น้ำเงิน".into()]), ("ไซซ์".into(), vec!["M".into(), "L".into()])]
        );
        assert_eq!(
            (p.skus[1].option1.as_str(), p.skus[1].option2.as_str(), p.skus[1].code.as_str()),
            ("แดง", "L", "TEE-R-L")
        );
    }

    #[test]
    fn variations_told_apart_by_nothing_but_codes_are_one_dimension_of_codes() {
        let p =
            from_listing(Marketplace::Shopee, "9", "แก้ว", &[v(1, "1", "MUG", &[], 100), v(2, "2", "MUG", &[], 100)]);
        assert_eq!(p.skus.iter().map(|s| s.code.as_str()).collect::<Vec<_>>(), vec!["MUG", "MUG-2"]);
        assert_eq!(p.variants, vec![("ตัวเลือก".into(), vec!["MUG".into(), "MUG-2".into()])]);
        let same = from_listing(
            Marketplace::Shopee,
            "9",
            "แก้ว",
            &[v(1, "1", "A", &[("สี", "ขาว")], 1), v(2, "2", "B", &[("สี", "ขาว")], 1)],
        );
        assert_eq!(same.variants[0].1, vec!["A".to_string(), "B".to_string()], "the same option twice tells nothing");
    }
}
