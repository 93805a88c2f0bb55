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

use bo_kit::db::{Db, Tx};
use bo_kit::Result;

/// Trigrams taken from a term: enough to narrow the candidates, few enough to keep the join short.
const MAX_QUERY_GRAMS: usize = 4;
/// Trigrams per statement when writing or removing a product's.
const CHUNK: usize = 200;

/// Lower-cases and collapses runs of white space to one space.
pub fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// What a product is found by (its names, code and barcode, then each SKU's code and
/// barcode): one normalized field per line.
pub fn search_text<'a>(fields: impl IntoIterator<Item = &'a str>) -> String {
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
/// parameter (`$n`) that holds the LIKE pattern (for example a check on SKU columns
/// instead of the product's whole text).
pub struct Condition {
    /// SQL to AND into a WHERE clause.
    pub sql: String,
    /// Values for the parameters from `first_bind` on, in order.
    pub binds: Vec<String>,
}

impl Condition {
    /// The condition for `term` (already normalized; empty matches everything), joining
    /// `grams` in the order given (the rarest first: see [`rarest_first`]).
    pub fn new(term: &str, grams: &[String], first_bind: usize, verify: impl Fn(&str) -> String) -> Condition {
        if term.is_empty() {
            return Condition { sql: "1 = 1".into(), binds: Vec::new() };
        }
        let like = format!("${first_bind}");
        let mut binds = vec![like_pattern(term)];
        if grams.is_empty() {
            return Condition { sql: verify(&like), binds };
        }
        // CROSS JOIN keeps SQLite's join order (rarest trigram outermost); PostgreSQL plans
        // it as an inner join with its own statistics.
        let mut from = String::from("product_search_grams g0");
        let mut wheres = Vec::new();
        for (k, g) in grams.iter().enumerate() {
            let ph = format!("${}", first_bind + binds.len());
            binds.push(g.clone());
            if k == 0 {
                wheres.push(format!("g0.store_id = $1 AND g0.gram = {ph}"));
            } else {
                from.push_str(&format!(" CROSS JOIN product_search_grams g{k}"));
                wheres.push(format!("g{k}.store_id = $1 AND g{k}.gram = {ph} AND g{k}.product_id = g0.product_id"));
            }
        }
        let sql =
            format!("p.id IN (SELECT g0.product_id FROM {from} WHERE {}) AND {}", wheres.join(" AND "), verify(&like));
        Condition { sql, binds }
    }
}

/// How many products of the store hold a trigram, counted up to this: enough to order them.
const RARITY_CAP: usize = 1_000;

/// The query trigrams of `term`, the rarest in the store first, so the search walks the
/// fewest index entries; `None` when one of them is in no product (nothing can match).
pub async fn rarest_first(db: &Db, store_id: i64, term: &str) -> Result<Option<Vec<String>>> {
    let grams = query_grams(term);
    if grams.is_empty() {
        return Ok(Some(grams));
    }
    let parts: Vec<String> = (0..grams.len())
        .map(|k| {
            format!(
                "SELECT {k} AS k, COUNT(*) AS n FROM (SELECT 1 AS x FROM product_search_grams \
                 WHERE store_id = $1 AND gram = ${} LIMIT {RARITY_CAP}) t{k}",
                k + 2
            )
        })
        .collect();
    let sql = parts.join(" UNION ALL ");
    let mut q = sqlx::query_as::<_, (i64, i64)>(&sql).bind(store_id);
    for g in &grams {
        q = q.bind(g);
    }
    let mut counts = q.fetch_all(db.pool()).await?;
    if counts.iter().any(|(_, n)| *n == 0) {
        return Ok(None);
    }
    counts.sort_by_key(|(k, n)| (*n, *k));
    Ok(Some(counts.into_iter().map(|(k, _)| grams[k as usize].clone()).collect()))
}

/// The search text a product has now ('' for one never indexed or not there).
pub async fn stored_text(tx: &mut Tx, store_id: i64, product_id: i64) -> Result<String> {
    let text: Option<String> = sqlx::query_scalar("SELECT search_text FROM products WHERE store_id = $1 AND id = $2")
        .bind(store_id)
        .bind(product_id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(text.unwrap_or_default())
}

/// Writes product `id`'s search `text` ([`search_text`]) and trigrams over `previous` (its
/// [`stored_text`]; '' for a new product), changing only the trigrams that differ (nothing
/// when the searchable fields did not change).
pub async fn index(tx: &mut Tx, store_id: i64, id: i64, text: &str, previous: &str) -> Result<()> {
    if previous == text {
        return Ok(());
    }
    sqlx::query("UPDATE products SET search_text = $1 WHERE store_id = $2 AND id = $3")
        .bind(text)
        .bind(store_id)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    let (before, after) = (grams(previous), grams(text));
    let gone: Vec<&String> = before.difference(&after).collect();
    let added: Vec<&String> = after.difference(&before).collect();
    remove_grams(tx, store_id, id, &gone).await?;
    for chunk in added.chunks(CHUNK) {
        let values: Vec<String> = (0..chunk.len()).map(|i| format!("($1, $2, ${})", i + 3)).collect();
        let sql = format!("INSERT INTO product_search_grams (store_id, product_id, gram) VALUES {}", values.join(", "));
        let mut q = sqlx::query(&sql).bind(store_id).bind(id);
        for g in chunk {
            q = q.bind(*g);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

/// Removes a product's trigrams (before the product row goes: they are found from its text).
pub async fn forget(tx: &mut Tx, store_id: i64, product_id: i64) -> Result<()> {
    let grams = grams(&stored_text(tx, store_id, product_id).await?);
    remove_grams(tx, store_id, product_id, &grams.iter().collect::<Vec<_>>()).await
}

async fn remove_grams(tx: &mut Tx, store_id: i64, product_id: i64, grams: &[&String]) -> Result<()> {
    for chunk in grams.chunks(CHUNK) {
        let list: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 3)).collect();
        let sql = format!(
            "DELETE FROM product_search_grams WHERE store_id = $1 AND product_id = $2 AND gram IN ({})",
            list.join(", ")
        );
        let mut q = sqlx::query(&sql).bind(store_id).bind(product_id);
        for g in chunk {
            q = q.bind(*g);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_holds_every_field_once_per_line_lower_cased() {
        let fields = ["เสื้อยืด  Cotton", "T-Shirt", "TS-001", "", "TS-001-1", "885000"];
        assert_eq!(search_text(fields), "เสื้อยืด cotton\nt-shirt\nts-001\nts-001-1\n885000");
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
    fn condition_binds_pattern_then_grams_in_the_order_given() {
        let c = Condition::new("", &[], 2, |l| format!("x LIKE {l}"));
        assert_eq!((c.sql.as_str(), c.binds.len()), ("1 = 1", 0));
        let c = Condition::new("ab", &[], 2, |l| format!("x LIKE {l}"));
        assert_eq!(c.sql, "x LIKE $2");
        let c = Condition::new("abcd", &["bcd".into(), "abc".into()], 4, |l| format!("x LIKE {l}"));
        assert_eq!(c.binds, vec!["%abcd%", "bcd", "abc"]);
        assert!(c.sql.contains("g0.gram = $5") && c.sql.contains("g1.gram = $6") && c.sql.ends_with("x LIKE $4"));
    }
}
