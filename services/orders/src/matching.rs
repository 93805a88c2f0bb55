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

/// Each line's fingerprint: what it says (when, how much, what text) and how many lines
/// before it in the file said the same, so a statement uploaded again is known line by line.
pub fn fingerprints(kind: Kind, lines: &[Line]) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    lines
        .iter()
        .map(|l| {
            let key = format!("{}|{}|{}|{}|{}", kind.name(), l.at_ms, l.amount, l.text, l.tracking);
            let n = seen.entry(key.clone()).or_insert(0);
            *n += 1;
            let digest = sha2::Sha256::digest(format!("{key}|{n}").as_bytes());
            format!("stmt:{}", hex::encode(&digest[..16]))
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

/// What speaks for `b` in the line's text and time.
fn evidence(line: &Line, b: &OpenBill) -> Vec<Reason> {
    let text = squash(&line.text);
    let mut out = Vec::new();
    if !b.order_no.is_empty() && text.contains(&squash(&b.order_no)) {
        out.push(reason("order_no", &[("order_no", b.order_no.clone())]));
    }
    let reference = squash(&b.reference);
    if reference.chars().count() >= 4 && text.contains(&reference) {
        out.push(reason("reference", &[("reference", b.reference.clone())]));
    }
    if let Some(name) = first_name(&b.name) {
        if line.text.to_lowercase().contains(&name) {
            out.push(reason("name", &[("name", b.name.clone())]));
        }
    }
    if b.payment_state == crate::domain::payment::PENDING
        && b.slip_at > 0
        && (b.slip_at - line.at_ms).abs() <= SLIP_NEAR_MS
    {
        out.push(reason("slip", &[]));
    }
    out
}

fn strong(e: &[Reason]) -> bool {
    e.iter().any(|r| matches!(r.code, "order_no" | "reference"))
}

fn in_window(line: &Line, b: &OpenBill) -> bool {
    let end = if line.day_only { line.at_ms + 86_400_000 - 1 } else { line.at_ms };
    end >= b.created_ms - EARLY_MS && line.at_ms <= b.created_ms + WINDOW_MS
}

fn candidate(b: &OpenBill, evidence: Vec<Reason>) -> Candidate {
    Candidate { bill_id: b.bill_id, order_id: b.order_id, order_no: b.order_no.clone(), amount: b.amount, evidence }
}

/// Matches each line to the open bills. `used` maps fingerprints that already confirmed a
/// payment to that order's number.
pub fn match_lines(
    kind: Kind,
    lines: &[Line],
    prints: &[String],
    bills: &[OpenBill],
    used: &HashMap<String, String>,
) -> Vec<Match> {
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
                Kind::Bank => match_transfer(line, bills),
                Kind::Cod => match_remittance(line, bills),
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
    out
}

fn match_transfer(line: &Line, bills: &[OpenBill]) -> Match {
    let amount = baht(line.amount);
    let open: Vec<&OpenBill> = bills.iter().filter(|b| !b.cod).collect();
    let passing: Vec<(&OpenBill, Vec<Reason>)> = open
        .iter()
        .filter(|b| b.amount == line.amount && in_window(line, b))
        .map(|b| (*b, evidence(line, b)))
        .collect();
    let unmatched = |reasons: Vec<Reason>, candidates: Vec<Candidate>| Match {
        row: line.row,
        status: Status::Unmatched,
        bill_id: None,
        reasons,
        candidates,
    };
    if passing.is_empty() {
        // The nearest reason: an order the text names, a bill of the amount out of time.
        if let Some(b) = open.iter().find(|b| strong(&evidence(line, b))) {
            let why = if b.amount != line.amount {
                reason(
                    "named_other_amount",
                    &[("order_no", b.order_no.clone()), ("bill", baht(b.amount)), ("amount", amount)],
                )
            } else {
                reason("named_out_of_window", &[("order_no", b.order_no.clone())])
            };
            return unmatched(vec![why], vec![candidate(b, evidence(line, b))]);
        }
        if let Some(b) = open.iter().find(|b| b.amount == line.amount) {
            let code = if line.at_ms < b.created_ms { "bill_made_after" } else { "bill_too_old" };
            return unmatched(vec![reason(code, &[("order_no", b.order_no.clone()), ("amount", amount)])], Vec::new());
        }
        return unmatched(vec![reason("no_bill_of_amount", &[("amount", amount)])], Vec::new());
    }
    let confident = |b: &OpenBill, mut why: Vec<Reason>, head: Reason| {
        why.insert(0, head);
        Match {
            row: line.row,
            status: Status::Confident,
            bill_id: Some(b.bill_id),
            reasons: why.clone(),
            candidates: vec![candidate(b, why)],
        }
    };
    let amount_in_time = reason("amount_in_time", &[("amount", amount.clone())]);
    if passing.len() == 1 {
        let (b, e) = &passing[0];
        return confident(b, e.clone(), amount_in_time);
    }
    // Several: what the text names decides, strongest first.
    for decides in [strong as fn(&[Reason]) -> bool, |e: &[Reason]| !e.is_empty()] {
        let named: Vec<&(&OpenBill, Vec<Reason>)> = passing.iter().filter(|(_, e)| decides(e)).collect();
        if named.len() == 1 {
            let (b, e) = named[0];
            return confident(
                b,
                e.clone(),
                reason("one_of_many", &[("amount", amount), ("count", passing.len().to_string())]),
            );
        }
        if named.len() > 1 {
            break;
        }
    }
    Match {
        row: line.row,
        status: Status::Ambiguous,
        bill_id: None,
        reasons: vec![reason("many_bills", &[("amount", amount), ("count", passing.len().to_string())])],
        candidates: passing.iter().map(|(b, e)| candidate(b, e.clone())).collect(),
    }
}

fn match_remittance(line: &Line, bills: &[OpenBill]) -> Match {
    let tracking = squash(&line.tracking);
    let unmatched = |reasons: Vec<Reason>| Match {
        row: line.row,
        status: Status::Unmatched,
        bill_id: None,
        reasons,
        candidates: Vec::new(),
    };
    let Some(b) = bills.iter().find(|b| b.cod && !b.tracking.is_empty() && squash(&b.tracking) == tracking) else {
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
