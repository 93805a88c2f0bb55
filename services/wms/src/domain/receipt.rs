//! Goods receipts, pure: the state table (SPEC §4), the board's groups, line status after
//! QC, and the checks of a draft (SPEC §5).

use bo_kit::states::Table;
use bo_kit::Code;
use std::collections::BTreeSet;

use bo_kit::{Error, FieldError, Result};

use super::MAX_QUANTITY;

/// A receipt's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum State {
    /// Being written; may be edited and deleted.
    Draft,
    /// Sent to the warehouse, waiting for the goods.
    Pending,
    /// Counted at QC.
    Received,
    /// Passed QC: the good units are on hand.
    Approved,
    /// Refused at QC with a reason: nothing went on hand.
    Rejected,
    /// Being put away.
    Shelving,
    /// Put away.
    Shelved,
}

/// Every state, in board order.
pub const STATES: [State; 7] =
    [State::Draft, State::Pending, State::Received, State::Approved, State::Rejected, State::Shelving, State::Shelved];

impl State {
    /// The stored and wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Draft => "draft",
            State::Pending => "pending",
            State::Received => "received",
            State::Approved => "approved",
            State::Rejected => "rejected",
            State::Shelving => "shelving",
            State::Shelved => "shelved",
        }
    }

    /// Reads a stored name.
    pub fn parse(s: &str) -> Option<State> {
        STATES.into_iter().find(|st| st.as_str() == s)
    }

    /// The board group it shows in (SPEC §4).
    pub fn group(self) -> &'static str {
        match self {
            State::Draft => "draft",
            State::Pending | State::Received => "pending",
            State::Approved | State::Shelving | State::Shelved => "approved",
            State::Rejected => "rejected",
        }
    }
}

/// The board's groups, in order.
pub const GROUPS: [&str; 4] = ["draft", "pending", "approved", "rejected"];

/// The states of a board group (None for an unknown group).
pub fn states_of_group(group: &str) -> Option<Vec<State>> {
    if !GROUPS.contains(&group) {
        return None;
    }
    Some(STATES.into_iter().filter(|s| s.group() == group).collect())
}

/// What may be done to a receipt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Rewrite the draft.
    Edit,
    /// Remove the draft.
    Delete,
    /// Send to the warehouse (`ready-to-warehouse`).
    Send,
    /// Record QC counts.
    Check,
    /// QC approve: the good units go on hand.
    Approve,
    /// QC reject with a reason.
    Reject,
    /// Start putting away.
    StartShelving,
    /// Finish putting away.
    FinishShelving,
}

/// Every action.
pub const ACTIONS: [Action; 8] = [
    Action::Edit,
    Action::Delete,
    Action::Send,
    Action::Check,
    Action::Approve,
    Action::Reject,
    Action::StartShelving,
    Action::FinishShelving,
];

/// Where an allowed action leads: a state, or gone (a deleted draft).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// The receipt's next state.
    To(State),
    /// The receipt no longer exists.
    Gone,
}

/// The state table: every allowed (state, action) and where it leads. Anything else is
/// refused.
pub const TABLE: Table<State, Action, Next> = Table::new(&[
    (State::Draft, Action::Edit, Next::To(State::Draft)),
    (State::Draft, Action::Delete, Next::Gone),
    (State::Draft, Action::Send, Next::To(State::Pending)),
    (State::Pending, Action::Check, Next::To(State::Received)),
    (State::Received, Action::Check, Next::To(State::Received)),
    (State::Pending, Action::Approve, Next::To(State::Approved)),
    (State::Received, Action::Approve, Next::To(State::Approved)),
    (State::Pending, Action::Reject, Next::To(State::Rejected)),
    (State::Received, Action::Reject, Next::To(State::Rejected)),
    (State::Approved, Action::StartShelving, Next::To(State::Shelving)),
    (State::Shelving, Action::FinishShelving, Next::To(State::Shelved)),
]);

/// Where `action` takes a receipt in `state`, or `goods_receipt_state` (409).
pub fn next(state: State, action: Action) -> Result<Next> {
    TABLE.next(state, action).ok_or_else(|| Error::failed_precondition(Code::GoodsReceiptState))
}

/// The states `action` may start from.
pub fn sources(action: Action) -> Vec<State> {
    TABLE.sources(action)
}

/// Receipt types.
pub const TYPES: [&str; 3] = ["product", "parcel", "material"];

/// Options a receipt may ask of the warehouse.
pub const OPTIONS: [&str; 3] = ["label_sku", "repack", "inspect_every_unit"];

/// The longest note.
pub const NOTE_MAX: usize = 500;
/// The most lines on one receipt.
pub const MAX_LINES: usize = 1000;
/// The most packagings on one receipt.
pub const MAX_PACKAGINGS: usize = 50;
/// The most base units in one store unit.
pub const MAX_UNIT_QUANTITY: i64 = 100_000;
/// The highest cost of one unit, satang (10 million baht).
pub const MAX_COST: i64 = 1_000_000_000;
/// The largest dimension, cm, and weight, g.
pub const MAX_CM: i64 = 10_000;
/// The largest weight, g (10 t).
pub const MAX_G: i64 = 10_000_000;
/// The most SKU labels one print makes.
pub const MAX_LABELS: i64 = 2_000;

/// A line's status after QC (SPEC §4): counted against the base units asked for.
pub fn line_status(request_base: i64, received: i64) -> &'static str {
    if received <= 0 {
        "no_product"
    } else if received < request_base {
        "incomplete"
    } else if received == request_base {
        "complete"
    } else {
        "excess_product"
    }
}

/// A draft line to check.
#[derive(Debug, Clone, Default)]
pub struct LineDraft {
    /// SKU (product receipts).
    pub sku_id: i64,
    /// Name (parcel and material receipts).
    pub name: String,
    /// cm, cm, cm, g.
    pub dimension: [i64; 4],
    /// Satang per unit.
    pub cost: i64,
    /// Units asked for.
    pub request_qty: i64,
    /// Expiry, ms (0 none).
    pub expires_at_ms: i64,
    /// The store's unit (0 for the base unit).
    pub unit_id: i64,
    /// The unit's name (empty for the base unit).
    pub unit_name: String,
    /// Base units per unit.
    pub unit_quantity: i64,
    /// Print SKU labels for it.
    pub print_label: bool,
}

/// A packaging to check.
#[derive(Debug, Clone, Default)]
pub struct PackagingDraft {
    /// What.
    pub name: String,
    /// How many.
    pub quantity: i64,
    /// cm, cm, cm, g.
    pub dimension: [i64; 4],
}

/// A draft to check.
#[derive(Debug, Clone, Default)]
pub struct Draft {
    /// Type.
    pub kind: String,
    /// Warehouse.
    pub warehouse_id: i64,
    /// Expected received time, ms.
    pub expected_received_at_ms: i64,
    /// Note.
    pub note: String,
    /// Picked up by the warehouse.
    pub is_pick_up: bool,
    /// Pick-up address.
    pub pick_up_address: String,
    /// Pick-up telephone.
    pub pick_up_tel: String,
    /// Expected pick-up time, ms.
    pub pick_up_at_ms: i64,
    /// Lines.
    pub lines: Vec<LineDraft>,
    /// Packagings.
    pub packagings: Vec<PackagingDraft>,
    /// Options.
    pub options: Vec<String>,
}

fn check_dimension(errs: &mut Vec<FieldError>, at: &str, d: &[i64; 4]) {
    for (i, name) in ["width", "length", "height"].iter().enumerate() {
        if !(0..=MAX_CM).contains(&d[i]) {
            errs.push(FieldError::new(format!("{at}.dimension.{name}"), "validation.range"));
        }
    }
    if !(0..=MAX_G).contains(&d[3]) {
        errs.push(FieldError::new(format!("{at}.dimension.weight"), "validation.range"));
    }
}

/// Checks a draft (SPEC §5): every field error at once, named by its path.
pub fn check_draft(d: &Draft) -> Result<()> {
    let mut errs = Vec::new();
    if !TYPES.contains(&d.kind.as_str()) {
        errs.push(FieldError::new("type", "validation.choice"));
    }
    if d.warehouse_id <= 0 {
        errs.push(FieldError::new("warehouse_id", "validation.required"));
    }
    if d.expected_received_at_ms <= 0 {
        errs.push(FieldError::new("expected_received_date", "validation.required"));
    }
    if d.note.chars().count() > NOTE_MAX {
        errs.push(FieldError::new("note", "validation.too_long"));
    }
    if d.is_pick_up {
        if d.pick_up_address.trim().is_empty() {
            errs.push(FieldError::new("pick_up.address", "validation.required"));
        } else if d.pick_up_address.chars().count() > 500 {
            errs.push(FieldError::new("pick_up.address", "validation.too_long"));
        }
        let tel = d.pick_up_tel.trim();
        if tel.is_empty() {
            errs.push(FieldError::new("pick_up.tel", "validation.required"));
        } else if !(9..=10).contains(&tel.len()) || !tel.bytes().all(|b| b.is_ascii_digit()) {
            errs.push(FieldError::new("pick_up.tel", "validation.phone"));
        }
        if d.pick_up_at_ms <= 0 {
            errs.push(FieldError::new("pick_up.expected_picked_up_at", "validation.required"));
        }
    }
    if d.lines.is_empty() {
        errs.push(FieldError::new("lines", "validation.required"));
    } else if d.lines.len() > MAX_LINES {
        errs.push(FieldError::new("lines", "validation.too_many"));
    }
    let product = d.kind == "product";
    let mut seen = BTreeSet::new();
    for (i, l) in d.lines.iter().enumerate() {
        let at = format!("lines[{i}]");
        if product {
            if l.sku_id <= 0 {
                errs.push(FieldError::new(format!("{at}.sku_id"), "validation.required"));
            } else if !seen.insert((l.sku_id, l.unit_quantity, l.expires_at_ms)) {
                errs.push(FieldError::new(format!("{at}.sku_id"), "validation.duplicate"));
            }
        } else if l.name.trim().is_empty() {
            errs.push(FieldError::new(format!("{at}.name"), "validation.required"));
        } else if l.name.chars().count() > 200 {
            errs.push(FieldError::new(format!("{at}.name"), "validation.too_long"));
        }
        if !(0..=MAX_COST).contains(&l.cost) {
            errs.push(FieldError::new(format!("{at}.cost"), "validation.range"));
        }
        if !(1..=MAX_UNIT_QUANTITY).contains(&l.unit_quantity) {
            errs.push(FieldError::new(format!("{at}.unit_id"), "validation.choice"));
        }
        if l.request_qty <= 0 || l.request_qty.saturating_mul(l.unit_quantity.max(1)) > MAX_QUANTITY {
            errs.push(FieldError::new(format!("{at}.request_qty"), "validation.quantity"));
        }
        if l.expires_at_ms < 0 {
            errs.push(FieldError::new(format!("{at}.expired_at"), "validation.date"));
        }
        check_dimension(&mut errs, &at, &l.dimension);
    }
    if d.packagings.len() > MAX_PACKAGINGS {
        errs.push(FieldError::new("packagings", "validation.too_many"));
    }
    for (i, p) in d.packagings.iter().enumerate() {
        let at = format!("packagings[{i}]");
        if p.name.trim().is_empty() {
            errs.push(FieldError::new(format!("{at}.name"), "validation.required"));
        } else if p.name.chars().count() > 100 {
            errs.push(FieldError::new(format!("{at}.name"), "validation.too_long"));
        }
        if !(1..=MAX_QUANTITY).contains(&p.quantity) {
            errs.push(FieldError::new(format!("{at}.quantity"), "validation.quantity"));
        }
        check_dimension(&mut errs, &at, &p.dimension);
    }
    let mut opts = BTreeSet::new();
    for (i, o) in d.options.iter().enumerate() {
        if !OPTIONS.contains(&o.as_str()) || !opts.insert(o.as_str()) {
            errs.push(FieldError::new(format!("options[{i}]"), "validation.choice"));
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(Error::invalid(errs))
    }
}

/// Checks QC counts of a line: base units received and of them defective.
pub fn check_counts(at: &str, receive: i64, defect: i64) -> Result<()> {
    if !(0..=MAX_QUANTITY).contains(&receive) {
        return Err(Error::invalid_field(&format!("{at}.receive_qty"), "validation.quantity"));
    }
    if !(0..=receive).contains(&defect) {
        return Err(Error::invalid_field(&format!("{at}.defect_qty"), "validation.defect_over_received"));
    }
    Ok(())
}

/// QC counts of a line: base units received and of them defective.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LineCount {
    /// The receipt's line.
    pub line_id: i64,
    /// Base units received.
    pub receive_qty: i64,
    /// Of them defective.
    pub defect_qty: i64,
}

/// The longest origin of returned goods.
pub const ORIGIN_MAX: usize = 100;

/// A SKU that came back from a buyer, counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReturnedLine {
    /// SKU.
    pub sku_id: i64,
    /// Satang per unit (the order line's cost).
    pub cost: i64,
    /// Units fit to sell again.
    pub good: i64,
    /// Units found defective.
    pub defective: i64,
}

/// Goods a buyer sent back, received against an order's return.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Returned {
    /// What they came back for, unique in the store.
    pub origin: String,
    /// The order they were sold on.
    pub order_id: i64,
    /// Receiving warehouse.
    pub warehouse_id: i64,
    /// Note.
    pub note: String,
    /// One line per SKU.
    pub lines: Vec<ReturnedLine>,
}

/// The product receipt returned goods are written as, checked: one line per SKU of the units
/// that came back (good and defective, in base units), expected `now`; every broken rule at
/// once, named as the request names it.
pub fn returned_draft(r: &Returned, now: i64) -> Result<Draft> {
    let mut errs = Vec::new();
    let origin = r.origin.trim();
    if origin.is_empty() {
        errs.push(FieldError::new("origin", "validation.required"));
    } else if origin.chars().count() > ORIGIN_MAX {
        errs.push(FieldError::new("origin", "validation.too_long"));
    }
    if r.order_id <= 0 {
        errs.push(FieldError::new("order_id", "validation.required"));
    }
    for (i, l) in r.lines.iter().enumerate() {
        if l.good < 0 || l.defective < 0 || l.good.saturating_add(l.defective) <= 0 {
            errs.push(FieldError::new(format!("lines[{i}].good"), "validation.quantity"));
        }
    }
    if !errs.is_empty() {
        return Err(Error::invalid(errs));
    }
    let draft = Draft {
        kind: "product".into(),
        warehouse_id: r.warehouse_id,
        expected_received_at_ms: now,
        note: r.note.trim().to_string(),
        lines: r
            .lines
            .iter()
            .map(|l| LineDraft {
                sku_id: l.sku_id,
                cost: l.cost,
                request_qty: l.good + l.defective,
                unit_quantity: 1,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    check_draft(&draft)?;
    Ok(draft)
}

/// Checks a rejection's reason: 1 to 500 characters.
pub fn check_reason(reason: &str) -> Result<()> {
    let r = reason.trim();
    if r.is_empty() {
        Err(Error::invalid_field("reason", "validation.required"))
    } else if r.chars().count() > 500 {
        Err(Error::invalid_field("reason", "validation.too_long"))
    } else {
        Ok(())
    }
}

/// Σ cost × units asked, satang (saturating: a draft's limits keep it far from the edge).
pub fn total_cost(lines: &[(i64, i64)]) -> i64 {
    lines.iter().fold(0i64, |acc, (cost, qty)| acc.saturating_add(cost.saturating_mul(*qty)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bo_kit::states::check_every_pair;

    use State::{Approved, Pending, Received, Rejected, Shelved, Shelving};
    const DRAFT: State = State::Draft;

    /// The table in words: every allowed transition, and every pair not listed is refused
    /// with `goods_receipt_state`.
    #[test]
    fn every_allowed_and_refused_transition() {
        let allowed = [
            (DRAFT, Action::Edit, Next::To(DRAFT)),
            (DRAFT, Action::Delete, Next::Gone),
            (DRAFT, Action::Send, Next::To(Pending)),
            (Pending, Action::Check, Next::To(Received)),
            (Received, Action::Check, Next::To(Received)),
            (Pending, Action::Approve, Next::To(Approved)),
            (Received, Action::Approve, Next::To(Approved)),
            (Pending, Action::Reject, Next::To(Rejected)),
            (Received, Action::Reject, Next::To(Rejected)),
            (Approved, Action::StartShelving, Next::To(Shelving)),
            (Shelving, Action::FinishShelving, Next::To(Shelved)),
        ];
        let mut expected = Vec::new();
        for s in STATES {
            for a in ACTIONS {
                let to = allowed.iter().find(|(ts, ta, _)| *ts == s && *ta == a).map(|(_, _, n)| *n);
                expected.push((s, a, to.ok_or(Code::GoodsReceiptState)));
            }
        }
        check_every_pair(&TABLE, &STATES, &ACTIONS, &expected, |s, a| next(s, a).map_err(|e| e.code));
        assert_eq!(TABLE.moves.len(), allowed.len());
        // The ones a shop would try by mistake, named.
        for (s, a) in [
            (Pending, Action::Edit),
            (Approved, Action::Delete),
            (Approved, Action::Approve),
            (Rejected, Action::Approve),
            (Approved, Action::Reject),
            (DRAFT, Action::Approve),
            (DRAFT, Action::Check),
            (Shelved, Action::Edit),
            (Rejected, Action::Send),
        ] {
            assert!(next(s, a).is_err(), "{s:?} {a:?}");
        }
    }

    #[test]
    fn returned_goods_are_a_product_receipt_of_what_came_back() {
        let r = Returned {
            origin: "return:7:2".into(),
            order_id: 41,
            warehouse_id: 2,
            note: " คืนสินค้า ".into(),
            lines: vec![
                ReturnedLine { sku_id: 5, cost: 12_000, good: 2, defective: 1 },
                ReturnedLine { sku_id: 6, cost: 0, good: 0, defective: 1 },
            ],
        };
        let d = returned_draft(&r, 1_000).unwrap();
        assert_eq!((d.kind.as_str(), d.warehouse_id, d.expected_received_at_ms), ("product", 2, 1_000));
        assert_eq!(d.note, "คืนสินค้า");
        let got: Vec<(i64, i64, i64, i64)> =
            d.lines.iter().map(|l| (l.sku_id, l.cost, l.request_qty, l.unit_quantity)).collect();
        assert_eq!(got, vec![(5, 12_000, 3, 1), (6, 0, 1, 1)]);
    }

    #[test]
    fn returned_goods_name_every_broken_rule() {
        let fields = |r: &Returned| -> Vec<String> {
            returned_draft(r, 1).unwrap_err().fields.into_iter().map(|f| f.field).collect()
        };
        let bad = Returned {
            origin: " ".into(),
            lines: vec![ReturnedLine { sku_id: 5, good: 0, defective: 0, cost: 1 }],
            ..Default::default()
        };
        assert_eq!(fields(&bad), vec!["origin", "order_id", "lines[0].good"]);
        let long = Returned {
            origin: "x".repeat(ORIGIN_MAX + 1),
            order_id: 1,
            warehouse_id: 1,
            lines: vec![ReturnedLine { sku_id: 5, good: -1, defective: 2, cost: 1 }],
            ..Default::default()
        };
        assert_eq!(fields(&long), vec!["origin", "lines[0].good"]);
        // The draft's own rules follow: a SKU twice, no lines, no warehouse.
        let twice = Returned {
            origin: "return:1:1".into(),
            order_id: 1,
            warehouse_id: 0,
            lines: vec![ReturnedLine { sku_id: 5, good: 1, ..Default::default() }; 2],
            ..Default::default()
        };
        assert_eq!(fields(&twice), vec!["warehouse_id", "lines[1].sku_id"]);
        let none = Returned { origin: "return:1:1".into(), order_id: 1, warehouse_id: 1, ..Default::default() };
        assert_eq!(fields(&none), vec!["lines"]);
    }

    #[test]
    fn groups_and_names() {
        assert_eq!(states_of_group("pending").unwrap(), vec![Pending, Received]);
        assert_eq!(states_of_group("approved").unwrap(), vec![Approved, Shelving, Shelved]);
        assert_eq!(states_of_group("draft").unwrap(), vec![DRAFT]);
        assert_eq!(states_of_group("rejected").unwrap(), vec![Rejected]);
        assert!(states_of_group("other").is_none());
        for s in STATES {
            assert_eq!(State::parse(s.as_str()), Some(s));
        }
        assert_eq!(sources(Action::Approve), vec![Pending, Received]);
    }

    #[test]
    fn line_status_after_qc() {
        assert_eq!(line_status(24, 24), "complete");
        assert_eq!(line_status(24, 23), "incomplete");
        assert_eq!(line_status(24, 0), "no_product");
        assert_eq!(line_status(24, 25), "excess_product");
    }

    fn good() -> Draft {
        Draft {
            kind: "product".into(),
            warehouse_id: 1,
            expected_received_at_ms: 1_764_000_000_000,
            lines: vec![LineDraft { sku_id: 7, request_qty: 2, unit_quantity: 12, cost: 1200, ..Default::default() }],
            ..Default::default()
        }
    }

    #[test]
    fn a_good_draft_passes() {
        check_draft(&good()).unwrap();
        let mut parcel = good();
        parcel.kind = "parcel".into();
        parcel.lines =
            vec![LineDraft {
                name: "กล่องพัสดุ".into(), request_qty: 3, unit_quantity: 1, ..Default::default()
            }];
        check_draft(&parcel).unwrap();
    }

    #[test]
    fn a_bad_draft_names_every_field() {
        let mut d = good();
        d.kind = "food".into();
        d.warehouse_id = 0;
        d.expected_received_at_ms = 0;
        d.note = "ก".repeat(501);
        d.is_pick_up = true;
        d.pick_up_tel = "08x".into();
        d.options = vec!["repack".into(), "repack".into()];
        d.lines.push(LineDraft { sku_id: 7, request_qty: 0, unit_quantity: 12, cost: -1, ..Default::default() });
        d.packagings = vec![PackagingDraft { name: " ".into(), quantity: 0, dimension: [1, -1, 0, 0] }];
        let e = check_draft(&d).unwrap_err();
        let fields: Vec<&str> = e.fields.iter().map(|f| f.field.as_str()).collect();
        for f in [
            "type",
            "warehouse_id",
            "expected_received_date",
            "note",
            "pick_up.address",
            "pick_up.tel",
            "pick_up.expected_picked_up_at",
            "lines[1].request_qty",
            "lines[1].cost",
            "packagings[0].name",
            "packagings[0].quantity",
            "packagings[0].dimension.length",
            "options[1]",
        ] {
            assert!(fields.contains(&f), "{f} missing from {fields:?}");
        }
        // The same SKU in the same unit and expiry twice is a duplicate.
        let mut dup = good();
        dup.lines.push(dup.lines[0].clone());
        assert_eq!(check_draft(&dup).unwrap_err().fields[0].field, "lines[1].sku_id");
        // Too many base units.
        let mut big = good();
        big.lines[0].request_qty = MAX_QUANTITY;
        assert_eq!(check_draft(&big).unwrap_err().fields[0].field, "lines[0].request_qty");
        let mut none = good();
        none.lines.clear();
        assert_eq!(check_draft(&none).unwrap_err().fields[0].field, "lines");
    }

    #[test]
    fn counts_and_reasons() {
        check_counts("lines[0]", 5, 1).unwrap();
        check_counts("lines[0]", 0, 0).unwrap();
        assert_eq!(check_counts("lines[0]", 5, 6).unwrap_err().fields[0].field, "lines[0].defect_qty");
        assert_eq!(check_counts("lines[0]", -1, 0).unwrap_err().fields[0].field, "lines[0].receive_qty");
        assert!(check_reason("  ").is_err());
        assert!(check_reason(&"x".repeat(501)).is_err());
        check_reason("สินค้าเสียหาย").unwrap();
        assert_eq!(total_cost(&[(1200, 2), (50, 3)]), 2550);
    }
}
