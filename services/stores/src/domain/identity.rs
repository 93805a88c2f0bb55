//! The store's pictures (logo, receipt header and footer), its receipt text, and the shop
//! owner's identity verification (SPEC §3 Receipt settings, Identity verification; §4; §5).
//!
//! Identity states: `pending` (nothing uploaded yet), `submitted` (awaiting the operator's
//! approval), `approved`. The owner submits (again, while awaiting approval, to correct it);
//! the operator approves a submitted one; an approved identity is settled and refuses a new
//! submission. A submission needs every field and both photos (a photo kept from an earlier
//! submission counts).

use super::{is_thai_postcode, is_valid_email, msg, Errors};
use bo_kit::states::Table;
use bo_kit::Code;

/// A store picture's slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The store's logo.
    Logo,
    /// The picture at the head of a receipt.
    ReceiptHeader,
    /// The picture at the foot of a receipt.
    ReceiptFooter,
}

impl Slot {
    /// Every slot.
    pub const ALL: [Slot; 3] = [Slot::Logo, Slot::ReceiptHeader, Slot::ReceiptFooter];

    /// Its name on the wire and in storage.
    pub fn as_str(self) -> &'static str {
        match self {
            Slot::Logo => "logo",
            Slot::ReceiptHeader => "receipt_header",
            Slot::ReceiptFooter => "receipt_footer",
        }
    }

    /// The slot named `s`.
    pub fn parse(s: &str) -> Option<Slot> {
        Slot::ALL.into_iter().find(|slot| slot.as_str() == s)
    }
}

/// The longest receipt footer text, in characters.
pub const FOOTER_TEXT_MAX: usize = 500;
/// The most lines a receipt footer text may have.
pub const FOOTER_LINES_MAX: usize = 10;

/// Message key: the footer has too many lines.
pub const FOOTER_LINES: &str = "validation.footer_lines";

/// Checks a receipt footer text; answers it with its lines' ends trimmed and Windows line
/// ends made plain.
pub fn validate_footer_text(s: &str) -> bo_kit::Result<String> {
    let text: String = s.replace("\r\n", "\n").lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
    let text = text.trim_matches('\n').to_string();
    let mut errs = Errors::default();
    errs.max_len("footer_text", &text, FOOTER_TEXT_MAX);
    if errs.0.is_empty() && text.lines().count() > FOOTER_LINES_MAX {
        errs.add("footer_text", FOOTER_LINES);
    }
    errs.finish()?;
    Ok(text)
}

/// Identity verification states (SPEC §4).
pub mod state {
    /// Nothing uploaded yet.
    pub const PENDING: &str = "pending";
    /// Awaiting the operator's approval.
    pub const SUBMITTED: &str = "submitted";
    /// Approved.
    pub const APPROVED: &str = "approved";
}

/// What moves an identity on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// The owner sends the details and photos.
    Submit,
    /// The operator approves them.
    Approve,
}

/// The transitions: (from, action, to). Anything else is refused.
pub const TABLE: Table<&str, Action> = Table::new(&[
    (state::PENDING, Action::Submit, state::SUBMITTED),
    (state::SUBMITTED, Action::Submit, state::SUBMITTED),
    (state::SUBMITTED, Action::Approve, state::APPROVED),
]);

/// Refusal codes.
pub mod code {
    /// An approved identity is settled.
    pub const APPROVED: bo_kit::Code = bo_kit::Code::IdentityApproved;
    /// Nothing submitted to approve.
    pub const NOT_SUBMITTED: bo_kit::Code = bo_kit::Code::IdentityNotSubmitted;
    /// A photo is required.
    pub const PHOTO_REQUIRED: &str = "validation.photo_required";
}

/// Where `action` takes an identity in `from`, or the refusal.
pub fn next(from: &str, action: Action) -> Result<&'static str, Code> {
    TABLE.next(from, action).ok_or(match action {
        Action::Submit => code::APPROVED,
        Action::Approve if from == state::APPROVED => code::APPROVED,
        Action::Approve => code::NOT_SUBMITTED,
    })
}

/// The owner's details as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdentityDraft {
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: String,
    /// Phone: digits only.
    pub tel: String,
    /// Email.
    pub email: String,
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
    /// An ID card photo is uploaded now or kept from before.
    pub has_id_card: bool,
    /// A photo holding the card is uploaded now or kept from before.
    pub has_holding: bool,
}

/// Longest name or address part.
const FIELD_MAX: usize = 200;

/// Checks a submission: every field, a phone of 9 or 10 digits and nothing else, a valid
/// email, a Thai postcode, both photos. Answers the draft trimmed.
pub fn validate(d: IdentityDraft) -> bo_kit::Result<IdentityDraft> {
    let mut errs = Errors::default();
    errs.required("first_name", &d.first_name, FIELD_MAX);
    errs.required("last_name", &d.last_name, FIELD_MAX);
    let tel = d.tel.trim();
    if tel.is_empty() {
        errs.add("tel", msg::REQUIRED);
    } else if !tel.bytes().all(|b| b.is_ascii_digit()) || !(9..=10).contains(&tel.len()) {
        errs.add("tel", msg::PHONE_DIGITS);
    }
    let email = d.email.trim().to_lowercase();
    if email.is_empty() {
        errs.add("email", msg::REQUIRED);
    } else if !is_valid_email(&email) {
        errs.add("email", msg::EMAIL);
    }
    errs.required("address", &d.address, 500);
    for (field, v) in
        [("sub_district", &d.sub_district), ("district", &d.district), ("state_province", &d.state_province)]
    {
        errs.required(field, v, FIELD_MAX);
    }
    let postcode = d.postcode.trim();
    if postcode.is_empty() {
        errs.add("postcode", msg::REQUIRED);
    } else if !is_thai_postcode(postcode) {
        errs.add("postcode", msg::POSTCODE);
    }
    if !d.has_id_card {
        errs.add("id_card_photo", code::PHOTO_REQUIRED);
    }
    if !d.has_holding {
        errs.add("holding_photo", code::PHOTO_REQUIRED);
    }
    errs.finish()?;
    Ok(IdentityDraft {
        first_name: d.first_name.trim().into(),
        last_name: d.last_name.trim().into(),
        tel: tel.into(),
        email,
        address: d.address.trim().into(),
        sub_district: d.sub_district.trim().into(),
        district: d.district.trim().into(),
        state_province: d.state_province.trim().into(),
        postcode: postcode.into(),
        ..d
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bo_kit::states::check_every_pair;

    #[test]
    fn every_allowed_and_refused_transition() {
        use state::*;
        let expected: &[(&str, Action, Result<&str, Code>)] = &[
            (PENDING, Action::Submit, Ok(SUBMITTED)),
            (PENDING, Action::Approve, Err(code::NOT_SUBMITTED)),
            (SUBMITTED, Action::Submit, Ok(SUBMITTED)),
            (SUBMITTED, Action::Approve, Ok(APPROVED)),
            (APPROVED, Action::Submit, Err(code::APPROVED)),
            (APPROVED, Action::Approve, Err(code::APPROVED)),
        ];
        check_every_pair(&TABLE, &[PENDING, SUBMITTED, APPROVED], &[Action::Submit, Action::Approve], expected, next);
        assert_eq!(next("nonsense", Action::Submit), Err(code::APPROVED));
    }

    #[test]
    fn slots_round_trip() {
        for s in Slot::ALL {
            assert_eq!(Slot::parse(s.as_str()), Some(s));
        }
        assert_eq!(Slot::parse("identity"), None);
    }

    #[test]
    fn footer_text_is_bounded() {
        assert_eq!(validate_footer_text("ขอบคุณที่อุดหนุน  \r\nแล้วพบกันใหม่\n\n").unwrap(), "ขอบคุณที่อุดหนุน\nแล้วพบกันใหม่");
        assert_eq!(validate_footer_text("").unwrap(), "");
        let e = validate_footer_text(&"ก".repeat(501)).unwrap_err();
        assert_eq!(e.fields[0].code, msg::TOO_LONG);
        let e = validate_footer_text(&"a\n".repeat(11)).unwrap_err();
        assert_eq!(e.fields[0].code, FOOTER_LINES);
    }

    fn good() -> IdentityDraft {
        IdentityDraft {
            first_name: " สมชาย ".into(),
            last_name: "ใจดี".into(),
            tel: "0812345678".into(),
            email: "Somchai@Example.com".into(),
            address: "1 ถนนสีลม".into(),
            sub_district: "สีลม".into(),
            district: "บางรัก".into(),
            state_province: "กรุงเทพมหานคร".into(),
            postcode: "10500".into(),
            has_id_card: true,
            has_holding: true,
        }
    }

    #[test]
    fn a_good_submission_is_trimmed() {
        let d = validate(good()).unwrap();
        assert_eq!((d.first_name.as_str(), d.email.as_str()), ("สมชาย", "somchai@example.com"));
    }

    #[test]
    fn every_field_and_both_photos_are_required() {
        let e = validate(IdentityDraft::default()).unwrap_err();
        let fields: Vec<String> = e.fields.iter().map(|f| format!("{}:{}", f.field, f.code)).collect();
        assert_eq!(
            fields,
            [
                "first_name:validation.required",
                "last_name:validation.required",
                "tel:validation.required",
                "email:validation.required",
                "address:validation.required",
                "sub_district:validation.required",
                "district:validation.required",
                "state_province:validation.required",
                "postcode:validation.required",
                "id_card_photo:validation.photo_required",
                "holding_photo:validation.photo_required",
            ]
        );
    }

    #[test]
    fn tel_is_digits_only() {
        for bad in ["081-234-5678", "08123456", "+66812345678", "๐๘๑๒๓๔๕๖๗๘"] {
            let e = validate(IdentityDraft { tel: bad.into(), ..good() }).unwrap_err();
            assert_eq!(e.fields[0].field, "tel", "{bad}");
            assert_eq!(e.fields[0].code, msg::PHONE_DIGITS, "{bad}");
        }
        let e = validate(IdentityDraft { email: "x@".into(), postcode: "1050".into(), ..good() }).unwrap_err();
        assert_eq!(e.fields.iter().map(|f| f.field.as_str()).collect::<Vec<_>>(), vec!["email", "postcode"]);
    }
}
