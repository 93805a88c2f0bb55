//! Magento's `searchCriteria` as a REST query writes it, read, echoed and applied.
//!
//! `searchCriteria[filter_groups][G][filters][F][field|value|condition_type]` (filters of a
//! group OR'ed, groups AND'ed; `eq` unless said; `neq`, `gt`, `gteq`, `lt`, `lteq`, `in` and
//! `nin` with a comma list, `like` with `%` and `_`), `searchCriteria[sortOrders][N][field]`
//! and `[direction]` (ASC unless DESC), `searchCriteria[pageSize]` and `[currentPage]`
//! (snake or camel case, as Magento reads both). Paging is Magento's collection's: a page
//! before the first is the first, a page past the last is the last again.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde_json::{json, Value};

/// One filter: a field, a value and how they compare.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// The field's name.
    pub field: String,
    /// The value, as written.
    pub value: String,
    /// The condition type (empty: `eq`).
    pub condition: String,
}

impl Filter {
    fn condition(&self) -> &str {
        if self.condition.is_empty() {
            "eq"
        } else {
            &self.condition
        }
    }
}

/// A field's value as the database compares it.
#[derive(Debug, Clone)]
pub enum Field {
    /// An id or an amount.
    Number(f64),
    /// Text, dates included (`YYYY-MM-DD HH:MM:SS` compares as text).
    Text(String),
}

impl Field {
    /// How it compares with a filter's value (a number with a value that reads as one, text
    /// otherwise).
    fn cmp_value(&self, value: &str) -> Ordering {
        match (self, value.trim().parse::<f64>()) {
            (Field::Number(n), Ok(v)) => n.partial_cmp(&v).unwrap_or(Ordering::Equal),
            (Field::Number(n), Err(_)) => n.to_string().as_str().cmp(value),
            (Field::Text(t), _) => t.as_str().cmp(value),
        }
    }

    fn cmp(&self, other: &Field) -> Ordering {
        match (self, other) {
            (Field::Number(a), Field::Number(b)) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
            (Field::Text(a), Field::Text(b)) => a.cmp(b),
            (Field::Number(_), Field::Text(_)) => Ordering::Less,
            (Field::Text(_), Field::Number(_)) => Ordering::Greater,
        }
    }

    fn text(&self) -> String {
        match self {
            Field::Number(n) => n.to_string(),
            Field::Text(t) => t.clone(),
        }
    }
}

/// A `searchCriteria` as asked.
#[derive(Debug, Default)]
pub struct Criteria {
    /// Whether the query named `searchCriteria` at all.
    pub present: bool,
    /// Groups (AND'ed) of filters (OR'ed), in their indices' order.
    pub groups: Vec<Vec<Filter>>,
    /// (field, `ASC` or `DESC`), in their indices' order.
    pub sorts: Vec<(String, String)>,
    /// Items a page.
    pub page_size: Option<i64>,
    /// The page asked for, from 1.
    pub current_page: Option<i64>,
}

/// A bracketed key split: `a[b][c]` → (`a`, [`b`, `c`]).
fn split_key(key: &str) -> (&str, Vec<&str>) {
    let Some((name, rest)) = key.split_once('[') else { return (key, Vec::new()) };
    let parts = rest.trim_end_matches(']').split("][").collect();
    (name, parts)
}

impl Criteria {
    /// The criteria a query's (decoded) pairs carry.
    pub fn read(pairs: &[(String, String)]) -> Criteria {
        let mut c = Criteria::default();
        let mut groups: BTreeMap<u64, BTreeMap<u64, Filter>> = BTreeMap::new();
        let mut sorts: BTreeMap<u64, (String, String)> = BTreeMap::new();
        for (key, value) in pairs {
            let (name, parts) = split_key(key);
            if name != "searchCriteria" {
                continue;
            }
            c.present = true;
            let index = |i: &str| i.parse::<u64>().ok();
            match parts.as_slice() {
                ["filter_groups" | "filterGroups", g, "filters", f, what] => {
                    let (Some(g), Some(f)) = (index(g), index(f)) else { continue };
                    let filter = groups.entry(g).or_default().entry(f).or_default();
                    match *what {
                        "field" => filter.field = value.clone(),
                        "value" => filter.value = value.clone(),
                        "condition_type" | "conditionType" => filter.condition = value.to_ascii_lowercase(),
                        _ => {}
                    }
                }
                ["sort_orders" | "sortOrders", n, what] => {
                    let Some(n) = index(n) else { continue };
                    let sort = sorts.entry(n).or_insert_with(|| (String::new(), "ASC".into()));
                    match *what {
                        "field" => sort.0 = value.clone(),
                        "direction" => sort.1 = value.to_ascii_uppercase(),
                        _ => {}
                    }
                }
                ["page_size" | "pageSize"] => c.page_size = value.trim().parse().ok(),
                ["current_page" | "currentPage"] => c.current_page = value.trim().parse().ok(),
                _ => {}
            }
        }
        c.groups = groups
            .into_values()
            .map(|g| g.into_values().filter(|f| !f.field.is_empty()).collect::<Vec<_>>())
            .filter(|g| !g.is_empty())
            .collect();
        c.sorts = sorts.into_values().filter(|(f, _)| !f.is_empty()).collect();
        c
    }

    /// The criteria as Magento echoes them in `search_criteria`.
    pub fn echo(&self) -> Value {
        let groups: Vec<Value> = self
            .groups
            .iter()
            .map(|g| {
                let filters: Vec<Value> = g
                    .iter()
                    .map(|f| json!({ "field": f.field, "value": f.value, "condition_type": f.condition() }))
                    .collect();
                json!({ "filters": filters })
            })
            .collect();
        let mut out = json!({ "filter_groups": groups });
        if !self.sorts.is_empty() {
            out["sort_orders"] =
                self.sorts.iter().map(|(field, direction)| json!({ "field": field, "direction": direction })).collect();
        }
        if let Some(n) = self.page_size {
            out["page_size"] = json!(n);
        }
        if let Some(n) = self.current_page {
            out["current_page"] = json!(n);
        }
        out
    }

    /// The items the filters let through, sorted, and one page of them (the last again past
    /// it, as Magento's collection clamps its page), with how many matched.
    pub fn apply<T>(&self, items: Vec<T>, field: impl Fn(&T, &str) -> Option<Field>) -> (Vec<T>, usize) {
        let mut kept: Vec<T> = items
            .into_iter()
            .filter(|item| self.groups.iter().all(|g| g.iter().any(|f| matches(field(item, &f.field), f))))
            .collect();
        kept.sort_by(|a, b| {
            for (name, direction) in &self.sorts {
                let empty = || Field::Text(String::new());
                let o = field(a, name).unwrap_or_else(empty).cmp(&field(b, name).unwrap_or_else(empty));
                let o = if direction == "DESC" { o.reverse() } else { o };
                if o != Ordering::Equal {
                    return o;
                }
            }
            Ordering::Equal
        });
        let total = kept.len();
        let Some(size) = self.page_size.filter(|n| *n > 0) else { return (kept, total) };
        let last = (total as i64 + size - 1).div_euclid(size).max(1);
        let page = self.current_page.unwrap_or(1).clamp(1, last);
        let page = kept.into_iter().skip(((page - 1) * size) as usize).take(size as usize).collect();
        (page, total)
    }
}

/// Whether a field's value passes a filter (a field the entity does not have never does).
fn matches(value: Option<Field>, f: &Filter) -> bool {
    let Some(v) = value else { return false };
    let o = v.cmp_value(&f.value);
    let listed = || f.value.split(',').any(|x| v.cmp_value(x.trim()) == Ordering::Equal);
    match f.condition() {
        "eq" => o == Ordering::Equal,
        "neq" => o != Ordering::Equal,
        "gt" => o == Ordering::Greater,
        "gteq" => o != Ordering::Less,
        "lt" => o == Ordering::Less,
        "lteq" => o != Ordering::Greater,
        "in" => listed(),
        "nin" => !listed(),
        "like" => like(&v.text().to_lowercase(), &f.value.to_lowercase()),
        "nlike" => !like(&v.text().to_lowercase(), &f.value.to_lowercase()),
        _ => false,
    }
}

/// SQL's LIKE: `%` any run, `_` any one character.
fn like(text: &str, pattern: &str) -> bool {
    let (t, p): (Vec<char>, Vec<char>) = (text.chars().collect(), pattern.chars().collect());
    // matched[j]: the text read so far matches the pattern's first j characters.
    let mut matched = vec![false; p.len() + 1];
    matched[0] = true;
    for j in 1..=p.len() {
        matched[j] = matched[j - 1] && p[j - 1] == '%';
    }
    for c in t {
        let mut next = vec![false; p.len() + 1];
        for j in 1..=p.len() {
            next[j] = match p[j - 1] {
                '%' => next[j - 1] || matched[j],
                '_' => matched[j - 1],
                x => matched[j - 1] && x == c,
            };
        }
        matched = next;
    }
    matched[p.len()]
}
