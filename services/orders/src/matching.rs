//! Automatic reconciliation (pure): the money a statement says came in, matched to the
//! store's open bills, each match with the reasons a person can check.
//!
//! A transfer matches a bill when its amount is the bill's to the satang and it came in
//! within the bill's window (from ten minutes before the bill was made, for clocks that
//! differ, to [`WINDOW_MS`] after). Among the bills that pass, what the transfer's text names
//! decides: the order's number or channel reference, then the buyer's name, then a slip the
//! buyer sent near that time. A line is
//!
//! - **confident** when one bill passes and nothing names another, or when exactly one of
//!   several is named by number or reference (or, failing that, by name or slip);
//! - **ambiguous** when several pass and nothing tells them apart, or when two lines are
//!   confident of the same bill (each is then shown its rival);
//! - **unmatched** when none passes, saying the nearest reason (a bill of that amount made
//!   after the transfer or long before it; the order it names costs something else);
//! - **used** when the same line already confirmed a payment (a statement uploaded again).
//!
//! A COD remittance line names its parcel's tracking number: it matches the COD order with
//! that number when the amount is its bill's, once the order has been shipped.

use std::collections::HashMap;

use sha2::Digest;

use crate::statement::{Kind, Line};

/// How long after a bill is made a transfer may pay it.
pub const WINDOW_MS: i64 = 14 * 86_400_000;
/// How far before a bill a transfer may come in (clocks differ).
const EARLY_MS: i64 = 10 * 60_000;
/// How near a slip's time to the transfer counts.
const SLIP_NEAR_MS: i64 = 86_400_000;

/// A bill that may be paid, with its order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OpenBill {
    pub bill_id: i64,
    pub order_id: i64,
    pub order_no: String,
    pub reference: String,
    pub name: String,
    pub amount: i64,
    pub created_ms: i64,
    pub cod: bool,
    pub shipped: bool,
    pub tracking: String,
    /// The bill's live payment's state ('' when none) and its slip's time (0 none).
    pub payment_state: String,
    pub slip_at: i64,
}

/// A reason, as a message key and its values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    pub code: &'static str,
    pub values: Vec<(&'static str, String)>,
}

fn reason(code: &'static str, values: &[(&'static str, String)]) -> Reason {
    Reason { code, values: values.to_vec() }
}

/// What a line matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Confident,
    Ambiguous,
    Unmatched,
    Used,
}

/// A bill a line may pay, with what speaks for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub bill_id: i64,
    pub order_id: i64,
    pub order_no: String,
    pub amount: i64,
    pub evidence: Vec<Reason>,
}

/// A line's match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    pub row: usize,
    pub status: Status,
    /// The bill it pays (confident), else none.
    pub bill_id: Option<i64>,
    /// Why.
    pub reasons: Vec<Reason>,
    /// The bills it may pay (confident: the one; ambiguous: the rivals).
    pub candidates: Vec<Candidate>,
}

/// Each line's fingerprint: what the money was, not how the file wrote it (decision 0022):
/// its kind, its minute (its day when only the day is known), its amount, its parcel's
/// tracking number, and how many lines before it in the file were the same money. A bank's
/// CSV and XLSX of one month carry other columns and words for one transfer, so the words
/// are left out; a statement uploaded again, in either format, is known line by line.
pub fn fingerprints(kind: Kind, lines: &[Line]) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    lines
        .iter()
        .map(|l| {
            let when = if l.day_only {
                format!("d{}", l.at_ms.div_euclid(86_400_000))
            } else {
                format!("m{}", l.at_ms.div_euclid(60_000))
            };
            let key = format!("{}|{when}|{}|{}", kind.name(), l.amount, squash(&l.tracking));
            let n = seen.entry(key.clone()).or_insert(0);
            *n += 1;
            let digest = sha2::Sha256::digest(format!("{key}|{n}").as_bytes());
            format!("stmt2:{}", hex::encode(&digest[..16]))
        })
        .collect()
}

/// Letters and digits only, lower case: how order numbers are compared with free text.
fn squash(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

const TITLES: [&str; 10] = ["นาย", "นาง", "นางสาว", "น.ส.", "น.ส", "mr", "mr.", "mrs", "ms", "miss"];

/// The buyer's first name as it would show in a transfer's text.
fn first_name(name: &str) -> Option<String> {
    name.split_whitespace().map(|w| w.to_lowercase()).find(|w| !TITLES.contains(&w.as_str()) && w.chars().count() >= 2)
}

fn baht(satang: i64) -> String {
    bo_kit::money::Satang(satang).to_string()
}

/// At most this many candidates of a line are listed (its reasons say how many there were).
pub const CANDIDATES_PER_LINE: usize = 10;
/// At most this many candidates in a whole answer (a month's statement of a shop with many
/// orders of one price would otherwise list every one of them on every line).
pub const CANDIDATES_IN_ALL: usize = 2_000;

/// An automaton of patterns, with what each pattern names.
type Automaton<T> = Option<(aho_corasick::AhoCorasick, Vec<Vec<T>>)>;

/// The open bills, indexed once for a whole statement: by amount, by tracking number, and
/// what names them (order numbers and references, buyers' first names) as one automaton
/// each, so a line costs its text's length and its amount's bills, not every bill (a name
/// many buyers share is looked up per bill, never spread over them per line).
pub struct Index<'a> {
    bills: &'a [OpenBill],
    by_amount: HashMap<i64, Vec<usize>>,
    by_tracking: HashMap<String, usize>,
    /// Squashed order numbers and references → the bills they name, in the bills' order.
    strong: Automaton<usize>,
    /// Lower-case first names → the bills they name.
    names: Automaton<usize>,
    /// Per bill: its order number's and its reference's patterns in `strong`, and its first
    /// name's in `names`.
    own: Vec<Own>,
}

#[derive(Default, Clone, Copy)]
struct Own {
    order_no: Option<usize>,
    reference: Option<usize>,
    name: Option<usize>,
}

fn automaton(patterns: Vec<(String, Vec<usize>)>) -> Automaton<usize> {
    if patterns.is_empty() {
        return None;
    }
    let (keys, values): (Vec<String>, Vec<Vec<usize>>) = patterns.into_iter().unzip();
    let ac = aho_corasick::AhoCorasick::builder().build(&keys).ok()?;
    Some((ac, values))
}

/// Patterns in the order first seen, each with the bills it names.
#[derive(Default)]
struct Patterns {
    ids: HashMap<String, usize>,
    list: Vec<(String, Vec<usize>)>,
}

impl Patterns {
    fn add(&mut self, pattern: String, bill: usize) -> usize {
        let id = *self.ids.entry(pattern.clone()).or_insert_with(|| {
            self.list.push((pattern, Vec::new()));
            self.list.len() - 1
        });
        self.list[id].1.push(bill);
        id
    }
}

impl<'a> Index<'a> {
    pub fn new(bills: &'a [OpenBill]) -> Self {
        let mut by_amount: HashMap<i64, Vec<usize>> = HashMap::new();
        let mut by_tracking = HashMap::new();
        let (mut strong, mut names) = (Patterns::default(), Patterns::default());
        let mut own = vec![Own::default(); bills.len()];
        for (i, b) in bills.iter().enumerate() {
            if b.cod {
                if !b.tracking.is_empty() {
                    by_tracking.entry(squash(&b.tracking)).or_insert(i);
                }
                continue;
            }
            by_amount.entry(b.amount).or_default().push(i);
            let no = squash(&b.order_no);
            if !no.is_empty() {
                own[i].order_no = Some(strong.add(no, i));
            }
            let reference = squash(&b.reference);
            if reference.chars().count() >= 4 {
                own[i].reference = Some(strong.add(reference, i));
            }
            if let Some(name) = first_name(&b.name) {
                own[i].name = Some(names.add(name, i));
            }
        }
        Index { bills, by_amount, by_tracking, strong: automaton(strong.list), names: automaton(names.list), own }
    }
}

/// What a line's text names (the patterns found in it), found once per line.
struct Named<'i, 'a> {
    idx: &'i Index<'a>,
    strong: std::collections::HashSet<usize>,
    names: std::collections::HashSet<usize>,
}

fn found(automaton: &Automaton<usize>, text: &str) -> std::collections::HashSet<usize> {
    match automaton {
        Some((ac, _)) => ac.find_overlapping_iter(text).map(|m| m.pattern().as_usize()).collect(),
        None => Default::default(),
    }
}

impl<'i, 'a> Named<'i, 'a> {
    fn of(line: &Line, idx: &'i Index<'a>) -> Self {
        Named {
            idx,
            strong: found(&idx.strong, &squash(&line.text)),
            names: found(&idx.names, &line.text.to_lowercase()),
        }
    }

    fn has(set: &std::collections::HashSet<usize>, pattern: Option<usize>) -> bool {
        pattern.is_some_and(|p| set.contains(&p))
    }

    /// Whether the text names bill `i` by its order number or reference.
    fn strongly(&self, i: usize) -> bool {
        let own = self.idx.own[i];
        Self::has(&self.strong, own.order_no) || Self::has(&self.strong, own.reference)
    }

    /// The first bill the text names by order number or reference.
    fn first_strong(&self) -> Option<usize> {
        let (_, bills) = self.idx.strong.as_ref()?;
        self.strong.iter().filter_map(|p| bills[*p].first().copied()).min()
    }

    /// What speaks for bill `i` in the line's text and time.
    fn evidence(&self, line: &Line, i: usize, b: &OpenBill) -> Vec<Reason> {
        let own = self.idx.own[i];
        let mut out = Vec::new();
        if Self::has(&self.strong, own.order_no) {
            out.push(reason("order_no", &[("order_no", b.order_no.clone())]));
        }
        if Self::has(&self.strong, own.reference) {
            out.push(reason("reference", &[("reference", b.reference.clone())]));
        }
        if Self::has(&self.names, own.name) {
            out.push(reason("name", &[("name", b.name.clone())]));
        }
        if slipped_near(line, b) {
            out.push(reason("slip", &[]));
        }
        out
    }

    /// Whether anything speaks for bill `i`.
    fn named(&self, line: &Line, i: usize) -> bool {
        self.strongly(i) || Self::has(&self.names, self.idx.own[i].name) || slipped_near(line, &self.idx.bills[i])
    }
}

fn slipped_near(line: &Line, b: &OpenBill) -> bool {
    b.payment_state == crate::domain::payment::PENDING
        && b.slip_at > 0
        && (b.slip_at - line.at_ms).abs() <= SLIP_NEAR_MS
}

fn in_window(line: &Line, b: &OpenBill) -> bool {
    let end = if line.day_only { line.at_ms + 86_400_000 - 1 } else { line.at_ms };
    end >= b.created_ms - EARLY_MS && line.at_ms <= b.created_ms + WINDOW_MS
}

/// Whether a line may pay a bill at all (its amount, in its window; for a COD line, its
/// parcel): what a person's choice among a line's candidates is checked against, listed or
/// not.
pub fn may_pay(kind: Kind, line: &Line, b: &OpenBill) -> bool {
    b.amount == line.amount
        && match kind {
            Kind::Bank => !b.cod && in_window(line, b),
            Kind::Cod => b.cod && b.shipped && !b.tracking.is_empty() && squash(&b.tracking) == squash(&line.tracking),
        }
}

fn candidate(b: &OpenBill, evidence: Vec<Reason>) -> Candidate {
    Candidate { bill_id: b.bill_id, order_id: b.order_id, order_no: b.order_no.clone(), amount: b.amount, evidence }
}

/// Matches each line to the open bills. `used` maps fingerprints that already confirmed a
/// payment to that order's number. Each line lists at most [`CANDIDATES_PER_LINE`]
/// candidates, and the answer at most [`CANDIDATES_IN_ALL`].
pub fn match_lines(
    kind: Kind,
    lines: &[Line],
    prints: &[String],
    bills: &[OpenBill],
    used: &HashMap<String, String>,
) -> Vec<Match> {
    let idx = Index::new(bills);
    let mut out: Vec<Match> = lines
        .iter()
        .zip(prints)
        .map(|(line, print)| match used.get(print) {
            Some(order_no) => Match {
                row: line.row,
                status: Status::Used,
                bill_id: None,
                reasons: vec![reason("used", &[("order_no", order_no.clone())])],
                candidates: Vec::new(),
            },
            None => match kind {
                Kind::Bank => match_transfer(line, &idx),
                Kind::Cod => match_remittance(line, &idx),
            },
        })
        .collect();
    // Two lines sure of one bill: neither is.
    let mut by_bill: HashMap<i64, Vec<usize>> = HashMap::new();
    for (i, m) in out.iter().enumerate() {
        if let (Status::Confident, Some(b)) = (m.status, m.bill_id) {
            by_bill.entry(b).or_default().push(i);
        }
    }
    for (_, idx) in by_bill.into_iter().filter(|(_, v)| v.len() > 1) {
        let rows: Vec<String> = idx.iter().map(|i| out[*i].row.to_string()).collect();
        for i in idx {
            let m = &mut out[i];
            let order_no = m.candidates.first().map(|c| c.order_no.clone()).unwrap_or_default();
            m.status = Status::Ambiguous;
            m.bill_id = None;
            m.reasons = vec![reason("same_bill", &[("order_no", order_no), ("rows", rows.join(", "))])];
        }
    }
    let mut left = CANDIDATES_IN_ALL;
    for m in &mut out {
        m.candidates.truncate(left);
        left -= m.candidates.len();
    }
    out
}

fn match_transfer(line: &Line, idx: &Index) -> Match {
    let bills = idx.bills;
    let amount = baht(line.amount);
    let named = Named::of(line, idx);
    let of_amount: &[usize] = idx.by_amount.get(&line.amount).map_or(&[], Vec::as_slice);
    let passing: Vec<usize> = of_amount.iter().copied().filter(|i| in_window(line, &bills[*i])).collect();
    let unmatched = |reasons: Vec<Reason>, candidates: Vec<Candidate>| Match {
        row: line.row,
        status: Status::Unmatched,
        bill_id: None,
        reasons,
        candidates,
    };
    if passing.is_empty() {
        // The nearest reason: an order the text names, a bill of the amount out of time.
        if let Some(i) = named.first_strong() {
            let b = &bills[i];
            let why = if b.amount != line.amount {
                reason(
                    "named_other_amount",
                    &[("order_no", b.order_no.clone()), ("bill", baht(b.amount)), ("amount", amount)],
                )
            } else {
                reason("named_out_of_window", &[("order_no", b.order_no.clone())])
            };
            return unmatched(vec![why], vec![candidate(b, named.evidence(line, i, b))]);
        }
        if let Some(b) = of_amount.first().map(|i| &bills[*i]) {
            let code = if line.at_ms < b.created_ms { "bill_made_after" } else { "bill_too_old" };
            return unmatched(vec![reason(code, &[("order_no", b.order_no.clone()), ("amount", amount)])], Vec::new());
        }
        return unmatched(vec![reason("no_bill_of_amount", &[("amount", amount)])], Vec::new());
    }
    let confident = |i: usize, mut why: Vec<Reason>, head: Reason| {
        why.insert(0, head);
        Match {
            row: line.row,
            status: Status::Confident,
            bill_id: Some(bills[i].bill_id),
            reasons: why.clone(),
            candidates: vec![candidate(&bills[i], why)],
        }
    };
    let amount_in_time = reason("amount_in_time", &[("amount", amount.clone())]);
    if passing.len() == 1 {
        let i = passing[0];
        return confident(i, named.evidence(line, i, &bills[i]), amount_in_time);
    }
    // Several: what the text names decides, strongest first.
    let is_strong = |i: &usize| named.strongly(*i);
    let is_named = |i: &usize| named.named(line, *i);
    for decides in [&is_strong as &dyn Fn(&usize) -> bool, &is_named] {
        let mut named_ones = passing.iter().filter(|i| decides(i));
        match (named_ones.next(), named_ones.next()) {
            (Some(i), None) => {
                return confident(
                    *i,
                    named.evidence(line, *i, &bills[*i]),
                    reason("one_of_many", &[("amount", amount), ("count", passing.len().to_string())]),
                );
            }
            (Some(_), Some(_)) => break,
            _ => {}
        }
    }
    // The ones something speaks for first, then the newest; listed in the bills' order.
    let mut listed: Vec<usize> = passing.iter().copied().filter(|i| is_named(i)).take(CANDIDATES_PER_LINE).collect();
    for i in passing.iter().rev() {
        if listed.len() >= CANDIDATES_PER_LINE {
            break;
        }
        if !listed.contains(i) {
            listed.push(*i);
        }
    }
    listed.sort_unstable();
    Match {
        row: line.row,
        status: Status::Ambiguous,
        bill_id: None,
        reasons: vec![reason("many_bills", &[("amount", amount), ("count", passing.len().to_string())])],
        candidates: listed.into_iter().map(|i| candidate(&bills[i], named.evidence(line, i, &bills[i]))).collect(),
    }
}

fn match_remittance(line: &Line, idx: &Index) -> Match {
    let unmatched = |reasons: Vec<Reason>| Match {
        row: line.row,
        status: Status::Unmatched,
        bill_id: None,
        reasons,
        candidates: Vec::new(),
    };
    let Some(b) = idx.by_tracking.get(&squash(&line.tracking)).map(|i| &idx.bills[*i]) else {
        return unmatched(vec![reason("no_parcel", &[("tracking", line.tracking.clone())])]);
    };
    if b.amount != line.amount {
        return unmatched(vec![reason(
            "named_other_amount",
            &[("order_no", b.order_no.clone()), ("bill", baht(b.amount)), ("amount", baht(line.amount))],
        )]);
    }
    if !b.shipped {
        return unmatched(vec![reason("cod_not_shipped", &[("order_no", b.order_no.clone())])]);
    }
    let why = vec![reason("tracking", &[("tracking", b.tracking.clone()), ("amount", baht(line.amount))])];
    Match {
        row: line.row,
        status: Status::Confident,
        bill_id: Some(b.bill_id),
        reasons: why.clone(),
        candidates: vec![candidate(b, why)],
    }
}

#[cfg(test)]
mod tests;
