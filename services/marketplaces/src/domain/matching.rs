//! Linking listings to our SKUs automatically: by an identical seller SKU (our SKU's code)
//! or an identical name, case and spacing ignored ([`key`]). Shops often list one SKU several
//! times under codes with a prefix or a suffix of their own (`PROMO-TEE-RED`, `TEE-RED-2`):
//! the store's rules name what to ignore ([`Affixes`]). A listing a person linked is never
//! relinked, and a listing that matches more than one SKU is left for a person.

use std::collections::HashMap;

/// What a text is compared by: lower case, without any spacing.
pub fn key(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect()
}

/// A name and its variation's values as one comparable key (`เสื้อยืด` `แดง` `L`).
pub fn name_key<'a>(name: &str, options: impl IntoIterator<Item = &'a str>) -> String {
    let mut k = key(name);
    for o in options {
        k.push_str(&key(o));
    }
    k
}

/// The prefixes and suffixes a store's listings put around our codes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Affixes {
    /// Ignored at the start of a seller SKU.
    pub prefixes: Vec<String>,
    /// Ignored at the end.
    pub suffixes: Vec<String>,
}

impl Affixes {
    /// The codes a seller SKU may stand for: itself, then without each prefix or suffix that
    /// it carries (and without both), longest affixes first, affixes found whatever their
    /// case; each as written, to be compared by [`key`].
    pub fn candidates(&self, seller_sku: &str) -> Vec<String> {
        let code = seller_sku.trim();
        if code.is_empty() {
            return Vec::new();
        }
        let by_length = |v: &[String]| {
            let mut v: Vec<String> = v.iter().map(|a| a.trim().to_string()).filter(|a| !a.is_empty()).collect();
            v.sort_by_key(|a| std::cmp::Reverse(a.chars().count()));
            v
        };
        let (prefixes, suffixes) = (by_length(&self.prefixes), by_length(&self.suffixes));
        let mut out = vec![code.to_string()];
        let mut push = |c: &str| {
            let c = c.trim();
            if !c.is_empty() && !out.iter().any(|o| key(o) == key(c)) {
                out.push(c.to_string());
            }
        };
        let unprefixed: Vec<&str> = prefixes.iter().filter_map(|p| strip_prefix_nocase(code, p)).collect();
        for u in &unprefixed {
            push(u);
        }
        for s in &suffixes {
            if let Some(u) = strip_suffix_nocase(code, s) {
                push(u);
            }
            for p in &unprefixed {
                if let Some(u) = strip_suffix_nocase(p, s) {
                    push(u);
                }
            }
        }
        out
    }
}

/// `s` without `prefix` at its start, whatever its case.
fn strip_prefix_nocase<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let n = prefix.len();
    (s.len() > n && s.is_char_boundary(n) && s[..n].to_lowercase() == prefix.to_lowercase()).then(|| &s[n..])
}

/// `s` without `suffix` at its end, whatever its case.
fn strip_suffix_nocase<'a>(s: &'a str, suffix: &str) -> Option<&'a str> {
    let cut = s.len().checked_sub(suffix.len())?;
    (cut > 0 && s.is_char_boundary(cut) && s[cut..].to_lowercase() == suffix.to_lowercase()).then(|| &s[..cut])
}

/// A listing waiting for a SKU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unlinked {
    /// Our id of the listing.
    pub id: i64,
    /// Its seller SKU.
    pub seller_sku: String,
    /// Its name with its variation's values, as [`name_key`] keys it.
    pub name_key: String,
}

/// One of our SKUs, as the matcher sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ours {
    /// The SKU.
    pub sku_id: i64,
    /// Its code.
    pub code: String,
    /// Its product's name with its options, as [`name_key`] keys it.
    pub name_key: String,
}

/// What an automatic link went by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    /// The seller SKU is our SKU's code (or is, without an ignored prefix or suffix).
    SellerSku,
    /// The names are the same.
    Name,
}

/// Which of `listings` link to which of `ours`, by seller SKU first then (when `by_name`) by
/// name; a key two SKUs share links nothing.
pub fn auto_link(listings: &[Unlinked], ours: &[Ours], affixes: &Affixes, by_name: bool) -> Vec<(i64, i64, By)> {
    fn index(keys: impl Iterator<Item = (String, i64)>) -> HashMap<String, Option<i64>> {
        let mut m: HashMap<String, Option<i64>> = HashMap::new();
        for (k, id) in keys.filter(|(k, _)| !k.is_empty()) {
            m.entry(k).and_modify(|v| *v = None).or_insert(Some(id));
        }
        m
    }
    let codes = index(ours.iter().map(|o| (key(&o.code), o.sku_id)));
    let names = if by_name { index(ours.iter().map(|o| (o.name_key.clone(), o.sku_id))) } else { HashMap::new() };
    let mut out = Vec::new();
    for l in listings {
        let by_code = affixes.candidates(&l.seller_sku).iter().find_map(|c| codes.get(&key(c)).copied()).flatten();
        if let Some(sku) = by_code {
            out.push((l.id, sku, By::SellerSku));
        } else if let Some(Some(sku)) = names.get(&l.name_key) {
            out.push((l.id, *sku, By::Name));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(id: i64, sku: &str, name: &str) -> Unlinked {
        Unlinked { id, seller_sku: sku.into(), name_key: key(name) }
    }

    fn ours(sku_id: i64, code: &str, name: &str) -> Ours {
        Ours { sku_id, code: code.into(), name_key: key(name) }
    }

    #[test]
    fn keys_ignore_case_and_spacing() {
        assert_eq!(key(" Tee-Red  M "), "tee-redm");
        assert_eq!(key("เสื้อยืด สีแดง"), "เสื้อยืดสีแดง");
        assert_eq!(name_key("เสื้อยืด", ["แดง", " L"]), "เสื้อยืดแดงl");
    }

    #[test]
    fn prefixes_and_suffixes_are_ignored_longest_first() {
        let a = Affixes { prefixes: vec!["P-".into(), "promo-".into()], suffixes: vec!["-2".into(), " ".into()] };
        assert_eq!(a.candidates("PROMO-TEE-2"), vec!["PROMO-TEE-2", "TEE-2", "PROMO-TEE", "TEE"]);
        assert_eq!(a.candidates("P-MUG"), vec!["P-MUG", "MUG"]);
        assert_eq!(a.candidates(" MUG "), vec!["MUG"]);
        assert_eq!(a.candidates("P-"), vec!["P-"], "nothing left is no code");
        assert_eq!(a.candidates("  "), Vec::<String>::new());
        assert_eq!(Affixes::default().candidates("Tee Red"), vec!["Tee Red"]);
        assert_eq!(a.candidates("เสื้อ-2"), vec!["เสื้อ-2", "เสื้อ"]);
    }

    #[test]
    fn seller_skus_link_first_names_after_and_ambiguity_links_nothing() {
        let skus = [
            ours(1, "TEE-RED-M", "เสื้อยืด แดง M"),
            ours(2, "TEE-RED-L", "เสื้อยืด แดง L"),
            ours(3, "MUG", "แก้วมัค"),
            ours(4, "MUG-2", "แก้วมัค"),
        ];
        let affixes = Affixes { prefixes: vec!["PROMO-".into()], suffixes: vec![] };
        let listings = [
            listing(10, "tee-red-m", "whatever"),
            listing(11, "PROMO-TEE-RED-L", "x"),
            listing(12, "", "เสื้อยืดแดงM"),
            listing(13, "", "แก้วมัค"),
            listing(14, "NOPE", "nothing"),
            listing(15, "MUG-2", "แก้วมัค"),
        ];
        let links = auto_link(&listings, &skus, &affixes, true);
        assert_eq!(
            links,
            vec![(10, 1, By::SellerSku), (11, 2, By::SellerSku), (12, 1, By::Name), (15, 4, By::SellerSku)],
            "13's name is two SKUs'"
        );
        assert_eq!(auto_link(&listings, &skus, &affixes, false).len(), 3, "names only when asked");
        let twice = [ours(1, "A", "a"), ours(2, "a", "b")];
        assert!(auto_link(&[listing(1, "A", "")], &twice, &Affixes::default(), false).is_empty());
    }
}
