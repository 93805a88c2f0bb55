//! Rules of the stock ledger, pure.

use std::collections::BTreeMap;

use bo_kit::{Error, FieldError, Result};

pub mod fees;
pub mod lots;
pub mod parcels;
pub mod receipt;

/// Movement kinds.
pub mod kind {
    /// Units received.
    pub const RECEIVE: &str = "receive";
    /// Units counted up or down.
    pub const ADJUST: &str = "adjust";
    /// Units promised to an order.
    pub const RESERVE: &str = "reserve";
    /// A promise withdrawn.
    pub const RELEASE: &str = "release";
    /// Units shipped.
    pub const COMMIT: &str = "commit";
    /// Units leaving for another warehouse.
    pub const TRANSFER_OUT: &str = "transfer_out";
    /// Units arriving from another warehouse.
    pub const TRANSFER_IN: &str = "transfer_in";
    /// Every kind, as the ledger lists them.
    pub const ALL: &[&str] = &[RECEIVE, ADJUST, RESERVE, RELEASE, COMMIT, TRANSFER_OUT, TRANSFER_IN];
}

/// Reservation line states.
pub mod state {
    /// Holding stock.
    pub const RESERVED: &str = "reserved";
    /// Given back.
    pub const RELEASED: &str = "released";
    /// Shipped.
    pub const COMMITTED: &str = "committed";
}

/// The most units one line may move.
pub const MAX_QUANTITY: i64 = 1_000_000_000;

/// A line as asked: warehouse, SKU, units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    /// Warehouse.
    pub warehouse_id: i64,
    /// SKU.
    pub sku_id: i64,
    /// Units.
    pub quantity: i64,
}

/// Checks a command's reference: 1 to 200 visible characters.
pub fn check_reference(reference: &str) -> Result<()> {
    let r = reference.trim();
    if r.is_empty() || r.len() > 200 {
        return Err(Error::invalid_field("reference", "validation.required"));
    }
    Ok(())
}

/// Checks lines and merges those of the same warehouse and SKU, so an order with two
/// lines of one SKU is judged on their sum. Sorted, so locks are always taken in one order.
pub fn merge_lines(lines: &[Line]) -> Result<Vec<Line>> {
    if lines.is_empty() {
        return Err(Error::invalid_field("lines", "validation.required"));
    }
    let mut errs = Vec::new();
    let mut merged: BTreeMap<(i64, i64), i64> = BTreeMap::new();
    for (i, l) in lines.iter().enumerate() {
        if l.warehouse_id <= 0 {
            errs.push(FieldError::new(format!("lines[{i}].warehouse_id"), "validation.required"));
        }
        if l.sku_id <= 0 {
            errs.push(FieldError::new(format!("lines[{i}].sku_id"), "validation.required"));
        }
        if l.quantity <= 0 || l.quantity > MAX_QUANTITY {
            errs.push(FieldError::new(format!("lines[{i}].quantity"), "validation.quantity"));
        }
        let sum = merged.entry((l.warehouse_id, l.sku_id)).or_insert(0);
        *sum = sum.saturating_add(l.quantity);
    }
    if !errs.is_empty() {
        return Err(Error::invalid(errs));
    }
    if merged.values().any(|q| *q > MAX_QUANTITY) {
        return Err(Error::invalid_field("lines", "validation.quantity"));
    }
    Ok(merged.into_iter().map(|((warehouse_id, sku_id), quantity)| Line { warehouse_id, sku_id, quantity }).collect())
}

/// Checks an adjustment: a non-zero change within bounds and a reason.
pub fn check_adjustment(delta: i64, reason: &str) -> Result<()> {
    let mut errs = Vec::new();
    // unsigned_abs: i64::MIN has no positive twin, and abs() would overflow on it.
    if delta == 0 || delta.unsigned_abs() > MAX_QUANTITY as u64 {
        errs.push(FieldError::new("delta", "validation.quantity"));
    }
    if reason.trim().is_empty() {
        errs.push(FieldError::new("reason", "validation.required"));
    } else if reason.chars().count() > 500 {
        errs.push(FieldError::new("reason", "validation.too_long"));
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(Error::invalid(errs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_one_sku_are_judged_on_their_sum() {
        let merged = merge_lines(&[
            Line { warehouse_id: 1, sku_id: 7, quantity: 2 },
            Line { warehouse_id: 1, sku_id: 3, quantity: 1 },
            Line { warehouse_id: 1, sku_id: 7, quantity: 3 },
        ])
        .unwrap();
        assert_eq!(
            merged,
            vec![Line { warehouse_id: 1, sku_id: 3, quantity: 1 }, Line { warehouse_id: 1, sku_id: 7, quantity: 5 }]
        );
    }

    #[test]
    fn bad_lines_are_refused() {
        assert!(merge_lines(&[]).is_err());
        let e = merge_lines(&[Line { warehouse_id: 1, sku_id: 7, quantity: 0 }]).unwrap_err();
        assert_eq!(e.fields[0].field, "lines[0].quantity");
        assert!(merge_lines(&[Line { warehouse_id: 0, sku_id: 7, quantity: 1 }]).is_err());
        assert!(merge_lines(&[
            Line { warehouse_id: 1, sku_id: 7, quantity: MAX_QUANTITY },
            Line { warehouse_id: 1, sku_id: 7, quantity: 1 },
        ])
        .is_err());
    }

    #[test]
    fn adjustments_need_a_change_and_a_reason() {
        assert!(check_adjustment(-3, "นับสต็อกไม่ตรง").is_ok());
        assert_eq!(check_adjustment(0, " ").unwrap_err().fields.len(), 2);
        assert!(check_reference("").is_err());
        assert!(check_reference("order-1").is_ok());
    }

    #[test]
    fn extreme_adjustments_are_refused_not_panics() {
        for delta in [i64::MIN, i64::MAX, MAX_QUANTITY + 1, -(MAX_QUANTITY + 1), 0] {
            assert!(check_adjustment(delta, "x").is_err(), "{delta}");
        }
        assert!(check_adjustment(-MAX_QUANTITY, "x").is_ok());
    }
}
