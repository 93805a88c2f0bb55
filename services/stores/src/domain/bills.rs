//! Bill expiry (SPEC §3 Bill settings, §4 Bill, §9): how long a bill stays payable and what
//! happens to its order when it expires. A setting applies to bills made from its start on;
//! earlier bills keep the setting that held when they were made.

use super::{msg, Errors};

/// The expiry methods, in the order the settings screen lists them.
pub const TYPES: [&str; 4] = [NO_EXPIRY, BY_DAY, BY_TIME, NEXT_DAY];
/// A bill never expires.
pub const NO_EXPIRY: &str = "no_expiry";
/// A bill expires after a number of days.
pub const BY_DAY: &str = "by_day";
/// A bill expires after hours and minutes.
pub const BY_TIME: &str = "by_time";
/// A bill expires 24 hours after it was made.
pub const NEXT_DAY: &str = "next_day";

/// What happens to an order when its bill expires.
pub const ACTIONS: [&str; 2] = [CANCEL_ORDER, KEEP_NEW];
/// The order is cancelled (its stock released).
pub const CANCEL_ORDER: &str = "cancel_order";
/// The order stays new.
pub const KEEP_NEW: &str = "keep_new";

/// Most days a bill may stay open by day.
pub const MAX_DAYS: i64 = 30;
/// Most hours a bill may stay open by time.
pub const MAX_HOURS: i64 = 72;

const MINUTE_MS: i64 = 60_000;
const HOUR_MS: i64 = 60 * MINUTE_MS;
const DAY_MS: i64 = 24 * HOUR_MS;

/// A bill expiry setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillExpiry {
    /// One of [`TYPES`].
    pub expiry_type: String,
    /// Days, for by_day (1 to 30; else 0).
    pub days: i64,
    /// Hours, for by_time (0 to 72; else 0).
    pub hours: i64,
    /// Minutes, for by_time (0 to 59; else 0).
    pub minutes: i64,
    /// One of [`ACTIONS`].
    pub on_expiry: String,
}

impl BillExpiry {
    /// The setting a store has before it chose one: bills never expire.
    pub fn default_setting() -> Self {
        Self { expiry_type: NO_EXPIRY.into(), days: 0, hours: 0, minutes: 0, on_expiry: KEEP_NEW.into() }
    }

    /// Checks the setting; the numbers a method does not use are set to 0.
    pub fn validate(mut self) -> bo_kit::Result<Self> {
        let mut errs = Errors::default();
        if !TYPES.contains(&self.expiry_type.as_str()) {
            errs.add("expiry_type", "validation.bill_expiry_type");
        }
        if !ACTIONS.contains(&self.on_expiry.as_str()) {
            errs.add("on_expiry", "validation.bill_expiry_action");
        }
        match self.expiry_type.as_str() {
            BY_DAY => {
                if !(1..=MAX_DAYS).contains(&self.days) {
                    errs.add("days", "validation.bill_expiry_days");
                }
                (self.hours, self.minutes) = (0, 0);
            }
            BY_TIME => {
                if !(0..=MAX_HOURS).contains(&self.hours) {
                    errs.add("hours", "validation.bill_expiry_hours");
                }
                if !(0..=59).contains(&self.minutes) {
                    errs.add("minutes", "validation.bill_expiry_minutes");
                } else if self.hours == 0 && self.minutes == 0 {
                    errs.add("minutes", msg::REQUIRED);
                } else if self.hours == MAX_HOURS && self.minutes > 0 {
                    errs.add("hours", "validation.bill_expiry_hours");
                }
                self.days = 0;
            }
            _ => (self.days, self.hours, self.minutes) = (0, 0, 0),
        }
        errs.finish()?;
        Ok(self)
    }

    /// When a bill made at `made_at` (milliseconds) expires under this setting; `None` when it
    /// never does.
    pub fn expires_at(&self, made_at: i64) -> Option<i64> {
        match self.expiry_type.as_str() {
            BY_DAY => Some(made_at + self.days * DAY_MS),
            BY_TIME => Some(made_at + self.hours * HOUR_MS + self.minutes * MINUTE_MS),
            NEXT_DAY => Some(made_at + DAY_MS),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting(t: &str, days: i64, hours: i64, minutes: i64) -> BillExpiry {
        BillExpiry { expiry_type: t.into(), days, hours, minutes, on_expiry: CANCEL_ORDER.into() }
    }

    fn codes(r: bo_kit::Result<BillExpiry>) -> Vec<(String, String)> {
        r.unwrap_err().fields.into_iter().map(|f| (f.field, f.code)).collect()
    }

    #[test]
    fn each_method_expires_a_bill_as_the_spec_says() {
        let made = 1_000_000;
        assert_eq!(setting(NO_EXPIRY, 0, 0, 0).expires_at(made), None);
        assert_eq!(setting(BY_DAY, 3, 0, 0).expires_at(made), Some(made + 3 * DAY_MS));
        assert_eq!(
            setting(BY_TIME, 2, 5, 30).validate().unwrap().expires_at(made),
            Some(made + 5 * HOUR_MS + 30 * MINUTE_MS)
        );
        assert_eq!(setting(NEXT_DAY, 0, 0, 0).expires_at(made), Some(made + DAY_MS), "24 hours after it was made");
    }

    #[test]
    fn settings_are_checked_and_tidied() {
        assert_eq!(
            setting(BY_DAY, 7, 3, 4).validate().unwrap(),
            setting(BY_DAY, 7, 0, 0),
            "numbers the method does not use are 0"
        );
        assert_eq!(setting(NO_EXPIRY, 7, 3, 4).validate().unwrap(), setting(NO_EXPIRY, 0, 0, 0));
        assert_eq!(
            codes(setting(BY_DAY, 0, 0, 0).validate()),
            vec![("days".into(), "validation.bill_expiry_days".into())]
        );
        assert_eq!(codes(setting(BY_DAY, 31, 0, 0).validate())[0].1, "validation.bill_expiry_days");
        assert_eq!(codes(setting(BY_TIME, 0, 0, 0).validate()), vec![("minutes".into(), msg::REQUIRED.into())]);
        assert_eq!(codes(setting(BY_TIME, 0, 73, 0).validate())[0].1, "validation.bill_expiry_hours");
        assert_eq!(codes(setting(BY_TIME, 0, 72, 1).validate())[0].1, "validation.bill_expiry_hours");
        assert_eq!(codes(setting(BY_TIME, 0, 1, 60).validate())[0].1, "validation.bill_expiry_minutes");
        assert_eq!(codes(setting(BY_TIME, 0, -1, 10).validate())[0].1, "validation.bill_expiry_hours");
        let bad =
            BillExpiry { expiry_type: "weekly".into(), on_expiry: "delete".into(), ..setting(NO_EXPIRY, 0, 0, 0) };
        assert_eq!(codes(bad.validate()).len(), 2);
        assert!(setting(BY_TIME, 0, 72, 0).validate().is_ok());
    }
}
