//! Point of sale (SPEC §2 Point of sale, §3 Branch, POS unit, Cashier, Seller, §5): the
//! store's branches, the POS units at each branch, the members who work a till (cashiers)
//! and the sales staff credited with a sale (sellers).
//!
//! A branch number is exactly five digits; the main branch (head office, สำนักงานใหญ่) is
//! `00000`, so a store has at most one. A tax id is 13 digits whose last is the Thai check
//! digit. A branch deducts stock from one of the store's warehouses (wms checks the id). A
//! POS unit has a number, unique in the store, and a branch; it deducts from its branch's
//! warehouse unless it names its own. A cashier is an active member of the store, at most
//! once; a seller is anyone the store names, with a valid email unique in the store, created
//! active with an empty tel and code. A branch with POS units, cashiers or sellers cannot be
//! deleted.

use super::{is_thai_postcode, is_valid_email, msg, Errors, Phone};
pub use bo_kit::checks::{clean_tax_id, is_thai_tax_id};

/// The main branch's number.
pub const MAIN_BRANCH: &str = "00000";
/// The most branches a store may have.
pub const MAX_BRANCHES: i64 = 500;
/// The most POS units a store may have.
pub const MAX_POS_UNITS: i64 = 1_000;
/// The most cashiers a store may have.
pub const MAX_CASHIERS: i64 = 1_000;
/// The most sellers a store may have.
pub const MAX_SELLERS: i64 = 5_000;
/// Longest name, address line, POS number and seller code, in characters.
pub const NAME_MAX: usize = 200;
/// Longest address line.
pub const ADDRESS_MAX: usize = 500;
/// Longest POS number.
pub const POS_NO_MAX: usize = 20;
/// Longest seller code.
pub const CODE_MAX: usize = 20;

/// Seller status: active.
pub const ACTIVE: &str = "active";
/// Seller status: inactive.
pub const INACTIVE: &str = "inactive";

/// Message keys for point-of-sale rules.
pub mod code {
    /// A branch number is exactly five digits.
    pub const BRANCH_NUMBER: &str = "validation.branch_number";
    /// The main branch's number is 00000.
    pub const BRANCH_MAIN: &str = "validation.branch_main";
    /// A tax id is 13 digits with the Thai check digit.
    pub const TAX_ID: &str = "validation.tax_id";
    /// Not one of the store's warehouses.
    pub const WAREHOUSE: &str = "validation.warehouse_unknown";
    /// Not one of the store's branches.
    pub const BRANCH: &str = "validation.branch_unknown";
    /// Not an active member of the store.
    pub const MEMBER: &str = "validation.member_unknown";
    /// A POS number: letters, digits and dashes.
    pub const POS_NO: &str = "validation.pos_number";
    /// A seller status is active or inactive.
    pub const STATUS: &str = "validation.status";
    /// Refusal: the store already has a branch with this number.
    pub const BRANCH_DUPLICATE: bo_kit::Code = bo_kit::Code::BranchNumberDuplicate;
    /// Refusal: the store already has a POS unit with this number.
    pub const POS_DUPLICATE: bo_kit::Code = bo_kit::Code::PosNumberDuplicate;
    /// Refusal: the member is already a cashier.
    pub const CASHIER_DUPLICATE: bo_kit::Code = bo_kit::Code::CashierDuplicate;
    /// Refusal: a seller of the store already has this email.
    pub const SELLER_DUPLICATE: bo_kit::Code = bo_kit::Code::SellerEmailDuplicate;
    /// Refusal: the branch still has POS units, cashiers or sellers.
    pub const BRANCH_IN_USE: bo_kit::Code = bo_kit::Code::BranchInUse;
    /// Refusal: the store has as many of these as it may.
    pub const TOO_MANY: bo_kit::Code = bo_kit::Code::PosLimitReached;
}

/// A branch as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BranchDraft {
    /// Five digits; 00000 is the main branch.
    pub branch_no: String,
    /// The form's "main branch" switch, when it has one: then the number must be 00000.
    pub is_main: Option<bool>,
    /// Name.
    pub name: String,
    /// Tax id, 13 digits.
    pub tax_id: String,
    /// The warehouse it deducts stock from.
    pub warehouse_id: i64,
    /// Address line.
    pub address: String,
    /// Sub-district.
    pub sub_district: String,
    /// District.
    pub district: String,
    /// Province.
    pub state_province: String,
    /// Postcode.
    pub postcode: String,
}

/// A checked branch, ready to store (the warehouse still to be confirmed by wms).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// Five digits.
    pub branch_no: String,
    /// Name, trimmed.
    pub name: String,
    /// Tax id, 13 digits.
    pub tax_id: String,
    /// Warehouse id.
    pub warehouse_id: i64,
    /// Address line, trimmed.
    pub address: String,
    /// Sub-district.
    pub sub_district: String,
    /// District.
    pub district: String,
    /// Province.
    pub state_province: String,
    /// Postcode.
    pub postcode: String,
}

impl Branch {
    /// The head office.
    pub fn is_main(&self) -> bool {
        self.branch_no == MAIN_BRANCH
    }
}

/// Checks a branch, every field at once.
pub fn validate_branch(d: BranchDraft) -> bo_kit::Result<Branch> {
    let mut errs = Errors::default();
    let no = d.branch_no.trim().to_string();
    if no.is_empty() {
        errs.add("branch_no", msg::REQUIRED);
    } else if no.len() != 5 || !no.bytes().all(|b| b.is_ascii_digit()) {
        errs.add("branch_no", code::BRANCH_NUMBER);
    } else if d.is_main == Some(true) && no != MAIN_BRANCH {
        errs.add("branch_no", code::BRANCH_MAIN);
    } else if d.is_main == Some(false) && no == MAIN_BRANCH {
        // 00000 is the main branch's number and no other's.
        errs.add("branch_no", code::BRANCH_MAIN);
    }
    errs.required("name", &d.name, NAME_MAX);
    let tax_id = clean_tax_id(d.tax_id.trim());
    if tax_id.is_empty() {
        errs.add("tax_id", msg::REQUIRED);
    } else if !is_thai_tax_id(&tax_id) {
        errs.add("tax_id", code::TAX_ID);
    }
    if d.warehouse_id <= 0 {
        errs.add("warehouse_id", msg::REQUIRED);
    }
    errs.required("address", &d.address, ADDRESS_MAX);
    for (field, v) in
        [("sub_district", &d.sub_district), ("district", &d.district), ("state_province", &d.state_province)]
    {
        errs.required(field, v, NAME_MAX);
    }
    let postcode = d.postcode.trim().to_string();
    if postcode.is_empty() {
        errs.add("postcode", msg::REQUIRED);
    } else if !is_thai_postcode(&postcode) {
        errs.add("postcode", msg::POSTCODE);
    }
    errs.finish()?;
    Ok(Branch {
        branch_no: no,
        name: d.name.trim().to_string(),
        tax_id,
        warehouse_id: d.warehouse_id,
        address: d.address.trim().to_string(),
        sub_district: d.sub_district.trim().to_string(),
        district: d.district.trim().to_string(),
        state_province: d.state_province.trim().to_string(),
        postcode,
    })
}

/// A POS unit as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PosUnitDraft {
    /// POS number.
    pub pos_no: String,
    /// Branch id.
    pub branch_id: i64,
    /// Its own warehouse; 0 deducts from the branch's.
    pub warehouse_id: i64,
}

/// Checks a POS unit; the number is trimmed and kept as written.
pub fn validate_pos_unit(d: PosUnitDraft) -> bo_kit::Result<PosUnitDraft> {
    let mut errs = Errors::default();
    let no = d.pos_no.trim().to_string();
    if no.is_empty() {
        errs.add("pos_no", msg::REQUIRED);
    } else if no.chars().count() > POS_NO_MAX {
        errs.add("pos_no", msg::TOO_LONG);
    } else if !no.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        errs.add("pos_no", code::POS_NO);
    }
    if d.branch_id <= 0 {
        errs.add("branch_id", msg::REQUIRED);
    }
    if d.warehouse_id < 0 {
        errs.add("warehouse_id", code::WAREHOUSE);
    }
    errs.finish()?;
    Ok(PosUnitDraft { pos_no: no, ..d })
}

/// A person at the till or on the floor, as written: a cashier (with `user_id`) or a seller.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PersonDraft {
    /// The store member (cashiers only).
    pub user_id: i64,
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: String,
    /// Email.
    pub email: String,
    /// Branch id.
    pub branch_id: i64,
    /// Phone (sellers; may be empty).
    pub tel: String,
    /// Code (sellers; may be empty).
    pub code: String,
    /// active or inactive (sellers).
    pub status: String,
}

/// Checks a cashier: a member, names, a valid email, a branch.
pub fn validate_cashier(d: PersonDraft) -> bo_kit::Result<PersonDraft> {
    let mut errs = Errors::default();
    if d.user_id <= 0 {
        errs.add("user_id", msg::REQUIRED);
    }
    let d = names_email_branch(d, &mut errs);
    errs.finish()?;
    Ok(d)
}

/// Checks a seller: names, a valid email, a branch; tel (Thai digits) and code optional;
/// status active or inactive (a new seller is active).
pub fn validate_seller(d: PersonDraft) -> bo_kit::Result<PersonDraft> {
    let mut errs = Errors::default();
    let mut d = names_email_branch(d, &mut errs);
    d.tel = match d.tel.trim() {
        "" => String::new(),
        t => match Phone::parse(t) {
            Ok(p) => p.into_string(),
            Err(c) => {
                errs.add("tel", c);
                String::new()
            }
        },
    };
    d.code = d.code.trim().to_string();
    errs.max_len("code", &d.code, CODE_MAX);
    if d.status.is_empty() {
        d.status = ACTIVE.to_string();
    } else if d.status != ACTIVE && d.status != INACTIVE {
        errs.add("status", code::STATUS);
    }
    errs.finish()?;
    Ok(d)
}

fn names_email_branch(mut d: PersonDraft, errs: &mut Errors) -> PersonDraft {
    errs.required("first_name", &d.first_name, NAME_MAX);
    errs.required("last_name", &d.last_name, NAME_MAX);
    d.first_name = d.first_name.trim().to_string();
    d.last_name = d.last_name.trim().to_string();
    d.email = d.email.trim().to_lowercase();
    if d.email.is_empty() {
        errs.add("email", msg::REQUIRED);
    } else if !is_valid_email(&d.email) {
        errs.add("email", msg::EMAIL);
    }
    if d.branch_id <= 0 {
        errs.add("branch_id", msg::REQUIRED);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(e: bo_kit::Error) -> Vec<(String, String)> {
        e.fields.into_iter().map(|f| (f.field, f.code)).collect()
    }

    fn branch() -> BranchDraft {
        BranchDraft {
            branch_no: "00000".into(),
            is_main: Some(true),
            name: "สำนักงานใหญ่".into(),
            tax_id: "1234567890121".into(),
            warehouse_id: 1,
            address: "1 ถนนสีลม".into(),
            sub_district: "สีลม".into(),
            district: "บางรัก".into(),
            state_province: "กรุงเทพมหานคร".into(),
            postcode: "10500".into(),
        }
    }

    #[test]
    fn a_good_branch_is_normalised() {
        let b = validate_branch(BranchDraft {
            tax_id: "1-2345-67890-12-1".into(), name: "  หลัก ".into(), ..branch()
        })
        .unwrap();
        assert!(b.is_main());
        assert_eq!((b.tax_id.as_str(), b.name.as_str()), ("1234567890121", "หลัก"));
        let other = validate_branch(BranchDraft { branch_no: "00001".into(), is_main: None, ..branch() }).unwrap();
        assert!(!other.is_main());
    }

    #[test]
    fn branch_numbers_are_five_digits_and_the_main_one_is_00000() {
        for (no, main, code) in [
            ("", None, msg::REQUIRED),
            ("1", None, code::BRANCH_NUMBER),
            ("000001", None, code::BRANCH_NUMBER),
            ("0000a", None, code::BRANCH_NUMBER),
            ("๐๐๐๐๑", None, code::BRANCH_NUMBER),
            ("00001", Some(true), code::BRANCH_MAIN),
            ("00000", Some(false), code::BRANCH_MAIN),
        ] {
            let e = validate_branch(BranchDraft { branch_no: no.into(), is_main: main, ..branch() }).unwrap_err();
            assert_eq!(fields(e), vec![("branch_no".to_string(), code.to_string())], "{no}");
        }
    }

    #[test]
    fn a_branch_reports_every_broken_field_at_once() {
        let e = validate_branch(BranchDraft {
            branch_no: "12".into(),
            is_main: None,
            name: " ".into(),
            tax_id: "1234567890122".into(),
            warehouse_id: 0,
            address: "".into(),
            sub_district: "".into(),
            district: "".into(),
            state_province: "".into(),
            postcode: "105".into(),
        })
        .unwrap_err();
        let got: Vec<String> = fields(e).into_iter().map(|(f, c)| format!("{f}:{c}")).collect();
        assert_eq!(
            got,
            [
                "branch_no:validation.branch_number",
                "name:validation.required",
                "tax_id:validation.tax_id",
                "warehouse_id:validation.required",
                "address:validation.required",
                "sub_district:validation.required",
                "district:validation.required",
                "state_province:validation.required",
                "postcode:validation.postcode",
            ]
        );
    }

    #[test]
    fn pos_units_need_a_number_and_a_branch() {
        let ok = validate_pos_unit(PosUnitDraft { pos_no: " POS-01 ".into(), branch_id: 3, warehouse_id: 0 }).unwrap();
        assert_eq!(ok.pos_no, "POS-01");
        let e = validate_pos_unit(PosUnitDraft { pos_no: "".into(), branch_id: 0, warehouse_id: -1 }).unwrap_err();
        assert_eq!(
            fields(e),
            vec![
                ("pos_no".into(), msg::REQUIRED.into()),
                ("branch_id".into(), msg::REQUIRED.into()),
                ("warehouse_id".into(), code::WAREHOUSE.into())
            ]
        );
        let e = validate_pos_unit(PosUnitDraft { pos_no: "POS 1".into(), branch_id: 1, warehouse_id: 0 }).unwrap_err();
        assert_eq!(fields(e), vec![("pos_no".into(), code::POS_NO.into())]);
        let e = validate_pos_unit(PosUnitDraft { pos_no: "1".repeat(21), branch_id: 1, warehouse_id: 0 }).unwrap_err();
        assert_eq!(fields(e), vec![("pos_no".into(), msg::TOO_LONG.into())]);
    }

    fn person() -> PersonDraft {
        PersonDraft {
            user_id: 7,
            first_name: " สมหญิง ".into(),
            last_name: "ขายดี".into(),
            email: " Somying@Example.COM ".into(),
            branch_id: 1,
            ..Default::default()
        }
    }

    #[test]
    fn cashiers_are_members_with_names_email_and_branch() {
        let c = validate_cashier(person()).unwrap();
        assert_eq!((c.first_name.as_str(), c.email.as_str()), ("สมหญิง", "somying@example.com"));
        let e = validate_cashier(PersonDraft { user_id: 0, email: "not-an-email".into(), branch_id: 0, ..person() })
            .unwrap_err();
        assert_eq!(
            fields(e),
            vec![
                ("user_id".into(), msg::REQUIRED.into()),
                ("email".into(), msg::EMAIL.into()),
                ("branch_id".into(), msg::REQUIRED.into())
            ]
        );
    }

    #[test]
    fn sellers_start_active_with_optional_tel_and_code() {
        let s = validate_seller(PersonDraft { user_id: 0, ..person() }).unwrap();
        assert_eq!((s.status.as_str(), s.tel.as_str(), s.code.as_str()), (ACTIVE, "", ""));
        let s = validate_seller(PersonDraft { tel: "081-234-5678".into(), code: " S01 ".into(), ..person() }).unwrap();
        assert_eq!((s.tel.as_str(), s.code.as_str()), ("0812345678", "S01"));
        let e = validate_seller(PersonDraft {
            first_name: "".into(),
            email: "".into(),
            tel: "12".into(),
            code: "x".repeat(21),
            status: "gone".into(),
            ..person()
        })
        .unwrap_err();
        assert_eq!(
            fields(e),
            vec![
                ("first_name".into(), msg::REQUIRED.into()),
                ("email".into(), msg::REQUIRED.into()),
                ("tel".into(), msg::PHONE_DIGITS.into()),
                ("code".into(), msg::TOO_LONG.into()),
                ("status".into(), code::STATUS.into())
            ]
        );
    }
}
