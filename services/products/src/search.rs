//! Product search without a scan of every row, on both databases.
//!
//! Each product keeps `search_text` (its names, codes and barcodes, and its SKUs' codes and
//! barcodes, lower-cased, one per line) and its trigrams in `product_search_grams`. A search
//! of three characters or more first finds the products holding some of the term's trigrams
//! through the index, then checks the substring with `LIKE` on those few rows only; a
//! shorter term (one or two characters, rarely typed) falls back to `LIKE` on `search_text`.
//! Thai has no letter case and no spaces between words, so substrings, not words, are what a
//! shop's staff expect to find.

use std::collections::BTreeSet;

use bo_kit::db::Tx;
use bo_kit::Result;
use bo_proto::products::v1 as pb;

/// Trigrams taken from a term: enough to narrow the candidates, few enough to keep the join short.
const MAX_QUERY_GRAMS: usize = 4;
/// Rows per INSERT when writing a product's trigrams.
const INSERT_CHUNK: usize = 200;

/// Lower-cases and collapses runs of white space to one space.
pub fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// What a product is found by: one normalized field per line.
pub fn search_text(p: &pb::Product) -> String {
    let mut fields: Vec<&str> = vec![&p.name, &p.name_en, &p.code, &p.barcode];
    for s in &p.skus {
        fields.push(&s.code);
        fields.push(&s.barcode);
    }
    fields.into_iter().map(normalize).filter(|f| !f.is_empty()).collect::<Vec<_>>().join("\n")
}

/// The distinct trigrams of each line of `text`.
pub fn grams(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let chars: Vec<char> = line.chars().collect();
        for w in chars.windows(3) {
            out.insert(w.iter().collect());
        }
    }
    out
}

/// The trigrams a query uses for `term` (normalized): spread over the term, so that its start
/// and its end both narrow the candidates. Empty for terms under three characters.
pub fn query_grams(term: &str) -> Vec<String> {
    let chars: Vec<char> = term.chars().collect();
    if chars.len() < 3 {
        return Vec::new();
    }
    let all: Vec<String> = chars.windows(3).map(|w| w.iter().collect()).collect();
    let n = all.len().min(MAX_QUERY_GRAMS);
    let mut picked: Vec<String> = Vec::with_capacity(n);
    for k in 0..n {
        // Evenly spaced indexes from the first trigram to the last.
        let i = if n == 1 { 0 } else { k * (all.len() - 1) / (n - 1) };
        if !picked.contains(&all[i]) {
            picked.push(all[i].clone());
        }
    }
    picked
}

/// `%term%` for LIKE with its wildcards escaped (`ESCAPE '\'`).
pub fn like_pattern(term: &str) -> String {
    let s = term.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    format!("%{s}%")
}

/// A search condition on products aliased `p`, and the values to bind, numbered from
/// `first_bind`. `$1` must be the store id. `verify` is the substring check, given the
/// placeholder of the LIKE pattern (for example a check on SKU columns instead of the
/// product's whole text).
pub struct Condition {
    /// SQL to AND into a WHERE clause.
    pub sql: String,
    /// Values for the placeholders from `first_bind` on, in order.
    pub binds: Vec<String>,
}

impl Condition {
    /// The condition for `term` (already normalized; empty matches everything).
    pub fn new(term: &str, first_bind: usize, verify: impl Fn(&str) -> String) -> Condition {
        if term.is_empty() {
            return Condition { sql: "1 = 1".into(), binds: Vec::new() };
        }
        let like = format!("${first_bind}");
        let mut binds = vec![like_pattern(term)];
        let grams = query_grams(term);
        if grams.is_empty() {
            return Condition { sql: verify(&like), binds };
        }
        let mut joins = String::new();
        let mut first = String::new();
        for (k, g) in grams.into_iter().enumerate() {
            let ph = format!("${}", first_bind + binds.len());
            binds.push(g);
            if k == 0 {
                first = ph;
            } else {
                joins.push_str(&format!(
                    " JOIN product_search_grams g{k} ON g{k}.store_id = g0.store_id AND g{k}.gram = {ph} \
                     AND g{k}.product_id = g0.product_id"
                ));
            }
        }
        let sql = format!(
            "p.id IN (SELECT g0.product_id FROM product_search_grams g0{joins} WHERE g0.store_id = $1 AND g0.gram = {first}) \
             AND {}",
            verify(&like)
        );
        Condition { sql, binds }
    }
}

/// Writes `p`'s search text and trigrams (replacing any earlier ones).
pub async fn index(tx: &mut Tx, store_id: i64, p: &pb::Product) -> Result<()> {
    let text = search_text(p);
    sqlx::query("UPDATE products SET search_text = $1 WHERE store_id = $2 AND id = $3")
        .bind(&text)
        .bind(store_id)
        .bind(p.id)
        .execute(&mut **tx)
        .await?;
    forget(tx, p.id).await?;
    let grams: Vec<String> = grams(&text).into_iter().collect();
    for chunk in grams.chunks(INSERT_CHUNK) {
        let values: Vec<String> = (0..chunk.len()).map(|i| format!("($1, $2, ${})", i + 3)).collect();
        let sql = format!("INSERT INTO product_search_grams (store_id, product_id, gram) VALUES {}", values.join(", "));
        let mut q = sqlx::query(&sql).bind(store_id).bind(p.id);
        for g in chunk {
            q = q.bind(g);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

/// Removes a product's trigrams.
pub async fn forget(tx: &mut Tx, product_id: i64) -> Result<()> {
    sqlx::query("DELETE FROM product_search_grams WHERE product_id = $1").bind(product_id).execute(&mut **tx).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_holds_every_field_once_per_line_lower_cased() {
        let p = pb::Product {
            name: "เสื้อยืด  Cotton".into(),
            name_en: "T-Shirt".into(),
            code: "TS-001".into(),
            skus: vec![pb::Sku { code: "TS-001-1".into(), barcode: "885000".into(), ..Default::default() }],
            ..Default::default()
        };
        assert_eq!(search_text(&p), "เสื้อยืด cotton\nt-shirt\nts-001\nts-001-1\n885000");
    }

    #[test]
    fn grams_stay_inside_a_line() {
        let g = grams("abcd\nxy\nefg");
        assert_eq!(g.into_iter().collect::<Vec<_>>(), vec!["abc", "bcd", "efg"]);
        // Thai: combining marks count as characters, as they do in the term.
        assert_eq!(grams("เสื้อ").len(), 3);
    }

    #[test]
    fn query_grams_span_the_term() {
        assert!(query_grams("ab").is_empty());
        assert_eq!(query_grams("abc"), vec!["abc"]);
        assert_eq!(query_grams("b-01234"), vec!["b-0", "-01", "012", "234"]);
        assert_eq!(query_grams("aaaa"), vec!["aaa"]);
    }

    #[test]
    fn like_escapes_wildcards() {
        assert_eq!(like_pattern("50%_off\\"), "%50\\%\\_off\\\\%");
    }

    #[test]
    fn condition_binds_pattern_then_grams() {
        let c = Condition::new("", 2, |l| format!("x LIKE {l}"));
        assert_eq!((c.sql.as_str(), c.binds.len()), ("1 = 1", 0));
        let c = Condition::new("ab", 2, |l| format!("x LIKE {l}"));
        assert_eq!(c.sql, "x LIKE $2");
        let c = Condition::new("abcd", 4, |l| format!("x LIKE {l}"));
        assert_eq!(c.binds, vec!["%abcd%", "abc", "bcd"]);
        assert!(c.sql.contains("g0.gram = $5") && c.sql.contains("g1.gram = $6") && c.sql.ends_with("x LIKE $4"));
    }
}
