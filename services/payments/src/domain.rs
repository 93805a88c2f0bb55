//! Payment accounts (SPEC §3 Payment account, §5, §8, §9): where a store's buyers pay. Four
//! kinds of store channel:
//!
//! - **bank**: country, a bank from the list of Thai banks, account name, account number
//!   (digits), branch;
//! - **paypal**: the PayPal email and the fee the store passes on, in percent;
//! - **promptpay**: account name and a PromptPay id: a 10-digit mobile number or a 13-digit
//!   national or tax id with its check digit;
//! - **cod**: account name and number of the account the carriers remit cash on delivery to.
//!
//! Every field of its kind is required. Account numbers are digits and unique in the store
//! across kinds ('Account Number has already existed.'). A channel is active or inactive; one
//! that an open bill points at cannot be deleted.

use bo_kit::checks::{is_thai_tax_id, is_valid_email};
use bo_kit::{Error, FieldError};

/// Kinds of payment store channel.
pub const KINDS: [&str; 4] = [BANK, PAYPAL, PROMPTPAY, COD];
/// A bank account.
pub const BANK: &str = "bank";
/// A PayPal account.
pub const PAYPAL: &str = "paypal";
/// A PromptPay id.
pub const PROMPTPAY: &str = "promptpay";
/// The account cash on delivery is remitted to.
pub const COD: &str = "cod";

/// Statuses.
pub const ACTIVE: &str = "active";
/// Not offered to buyers.
pub const INACTIVE: &str = "inactive";

/// The most payment accounts a store may keep.
pub const MAX_CHANNELS: i64 = 200;
/// Longest name or branch, in characters.
pub const NAME_MAX: usize = 200;
/// Longest account number, in digits.
pub const ACC_NO_MAX: usize = 20;
/// Shortest bank account number (Thai banks use 10 to 15 digits; some 12).
pub const BANK_ACC_NO_MIN: usize = 10;
/// The highest PayPal fee, in basis points (100%).
pub const FEE_MAX_BPS: i64 = 10_000;

/// Message keys.
pub mod code {
    /// Required.
    pub const REQUIRED: &str = "validation.required";
    /// Too long.
    pub const TOO_LONG: &str = "validation.too_long";
    /// Not one of the kinds.
    pub const KIND: &str = "validation.payment_channel_type";
    /// Not one of the countries.
    pub const COUNTRY: &str = "validation.country_unknown";
    /// Not one of the banks.
    pub const BANK: &str = "validation.bank_unknown";
    /// An account number is digits only.
    pub const ACC_NO: &str = "validation.account_number";
    /// A PromptPay id is a mobile number or a 13-digit id with its check digit.
    pub const PROMPTPAY_ID: &str = "validation.promptpay_id";
    /// Not an email address.
    pub const EMAIL: &str = "validation.email";
    /// A fee is a percent from 0 to 100 with at most two decimals.
    pub const FEE: &str = "validation.fee_percent";
    /// Not active or inactive.
    pub const STATUS: &str = "validation.status";
    /// Refusal: the number is already one of the store's accounts.
    pub const DUPLICATE: bo_kit::Code = bo_kit::Code::AccountNumberDuplicate;
    /// Refusal: open bills point at the account.
    pub const IN_USE: bo_kit::Code = bo_kit::Code::PaymentChannelInUse;
    /// Refusal: the store keeps as many accounts as it may.
    pub const TOO_MANY: bo_kit::Code = bo_kit::Code::PaymentChannelLimitReached;
    /// Refusal: a PromptPay QR for an account that is not PromptPay.
    pub const NOT_PROMPTPAY: bo_kit::Code = bo_kit::Code::PaymentChannelNotPromptpay;
    /// Refusal: an amount below zero or above what a QR carries.
    pub const AMOUNT: &str = "validation.amount";
    /// No such account in the store.
    pub const NOT_FOUND: bo_kit::Code = bo_kit::Code::PaymentChannelNotFound;
}

/// A country whose accounts may be added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Country {
    /// ISO 3166-1 alpha-2.
    pub code: &'static str,
    /// Thai name.
    pub name_th: &'static str,
    /// English name.
    pub name_en: &'static str,
}

/// Countries: the banks listed are Thai, so Thailand is the one country (SPEC §3 names the
/// field; a store paid abroad uses PayPal).
pub const COUNTRIES: [Country; 1] = [Country { code: "TH", name_th: "ไทย", name_en: "Thailand" }];

/// A bank: its Bank of Thailand code, names, and the colours of its badge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bank {
    /// Three-digit Bank of Thailand institution code.
    pub code: &'static str,
    /// Short name as printed on slips (KBANK).
    pub short: &'static str,
    /// Thai name.
    pub name_th: &'static str,
    /// English name.
    pub name_en: &'static str,
    /// The brand colour of its badge (#rrggbb).
    pub color: &'static str,
}

/// The banks of Thailand that take transfers to shops, by institution code.
pub const BANKS: [Bank; 18] = [
    Bank {
        code: "002", short: "BBL", name_th: "ธนาคารกรุงเทพ", name_en: "Bangkok Bank", color: "#1e4598"
    },
    Bank {
        code: "004", short: "KBANK", name_th: "ธนาคารกสิกรไทย", name_en: "Kasikornbank", color: "#138f2d"
    },
    Bank {
        code: "006", short: "KTB", name_th: "ธนาคารกรุงไทย", name_en: "Krungthai Bank", color: "#1ba5e1"
    },
    Bank {
        code: "011", short: "TTB", name_th: "ธนาคารทหารไทยธนชาต", name_en: "TMBThanachart Bank", color: "#0a2d7a"
    },
    Bank {
        code: "014", short: "SCB", name_th: "ธนาคารไทยพาณิชย์", name_en: "Siam Commercial Bank", color: "#4e2e7f"
    },
    Bank {
        code: "025",
        short: "BAY",
        name_th: "ธนาคารกรุงศรีอยุธยา",
        name_en: "Bank of Ayudhya (Krungsri)",
        color: "#6f5f5e",
    },
    Bank {
        code: "069",
        short: "KKP",
        name_th: "ธนาคารเกียรตินาคินภัทร",
        name_en: "Kiatnakin Phatra Bank",
        color: "#199cc5",
    },
    Bank {
        code: "022", short: "CIMBT", name_th: "ธนาคารซีไอเอ็มบี ไทย", name_en: "CIMB Thai Bank", color: "#7e2f36"
    },
    Bank {
        code: "067", short: "TISCO", name_th: "ธนาคารทิสโก้", name_en: "TISCO Bank", color: "#12549f"
    },
    Bank {
        code: "024",
        short: "UOBT",
        name_th: "ธนาคารยูโอบี",
        name_en: "United Overseas Bank (Thai)",
        color: "#0b3979",
    },
    Bank {
        code: "071", short: "TCRB", name_th: "ธนาคารไทยเครดิต", name_en: "Thai Credit Bank", color: "#0a4ab3"
    },
    Bank {
        code: "073",
        short: "LHFG",
        name_th: "ธนาคารแลนด์ แอนด์ เฮ้าส์",
        name_en: "Land and Houses Bank",
        color: "#6d6e71",
    },
    Bank {
        code: "070", short: "ICBCT", name_th: "ธนาคารไอซีบีซี (ไทย)", name_en: "ICBC (Thai)", color: "#c50f1c"
    },
    Bank {
        code: "098",
        short: "SME",
        name_th: "ธนาคารพัฒนาวิสาหกิจขนาดกลางและขนาดย่อมแห่งประเทศไทย",
        name_en: "SME Development Bank",
        color: "#0b5aa7",
    },
    Bank {
        code: "034",
        short: "BAAC",
        name_th: "ธนาคารเพื่อการเกษตรและสหกรณ์การเกษตร",
        name_en: "Bank for Agriculture and Agricultural Cooperatives",
        color: "#4b9b1d",
    },
    Bank {
        code: "030", short: "GSB", name_th: "ธนาคารออมสิน", name_en: "Government Savings Bank", color: "#eb198d"
    },
    Bank {
        code: "033",
        short: "GHB",
        name_th: "ธนาคารอาคารสงเคราะห์",
        name_en: "Government Housing Bank",
        color: "#f57d23",
    },
    Bank {
        code: "066",
        short: "IBANK",
        name_th: "ธนาคารอิสลามแห่งประเทศไทย",
        name_en: "Islamic Bank of Thailand",
        color: "#184615",
    },
];

/// The bank with `code`.
pub fn bank(code: &str) -> Option<&'static Bank> {
    BANKS.iter().find(|b| b.code == code)
}

/// A payment account as typed (every field as text; only those of its kind are read).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Draft {
    /// bank, paypal, promptpay or cod.
    pub channel_type: String,
    /// Country (bank).
    pub country: String,
    /// Bank code (bank).
    pub bank_code: String,
    /// Account name (bank, promptpay, cod).
    pub acc_name: String,
    /// Account number (bank, cod) or PromptPay id (promptpay).
    pub acc_no: String,
    /// Branch (bank).
    pub branch: String,
    /// Email (paypal).
    pub email: String,
    /// Fee in percent as typed, "4.4" (paypal).
    pub fee: String,
    /// active or inactive; empty means active.
    pub status: String,
}

/// A checked payment account: the fields its kind does not use are empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Account {
    /// The kind.
    pub channel_type: String,
    /// Country code (bank).
    pub country: String,
    /// Bank code (bank).
    pub bank_code: String,
    /// Account name.
    pub acc_name: String,
    /// Digits only; PromptPay ids as 10 or 13 digits.
    pub acc_no: String,
    /// Branch.
    pub branch: String,
    /// PayPal email, lower case.
    pub email: String,
    /// PayPal fee, basis points (1% = 100).
    pub fee_bps: i64,
    /// active or inactive.
    pub status: String,
}

impl Account {
    /// The number that must be unique in the store, if the kind has one.
    pub fn number_key(&self) -> Option<&str> {
        (!self.acc_no.is_empty()).then_some(self.acc_no.as_str())
    }
}

/// A PromptPay id: a mobile number or a national/tax id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptPayId {
    /// Ten digits starting with 0.
    Mobile(String),
    /// Thirteen digits with the Thai check digit.
    NationalId(String),
}

impl PromptPayId {
    /// Reads an id as typed (spaces and dashes dropped).
    pub fn parse(s: &str) -> Option<PromptPayId> {
        let d: String = s.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
        if !d.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        match d.len() {
            10 if d.starts_with('0') => Some(PromptPayId::Mobile(d)),
            13 if is_thai_tax_id(&d) => Some(PromptPayId::NationalId(d)),
            _ => None,
        }
    }

    /// The digits.
    pub fn digits(&self) -> &str {
        match self {
            PromptPayId::Mobile(d) | PromptPayId::NationalId(d) => d,
        }
    }
}

/// A fee in percent with at most two decimals, as basis points; None if malformed or out of
/// range.
pub fn parse_fee(s: &str) -> Option<i64> {
    let s = s.trim().trim_end_matches('%').trim();
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty()
        || whole.len() > 3
        || frac.len() > 2
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let bps = whole.parse::<i64>().ok()? * 100 + format!("{frac:0<2}").parse::<i64>().ok()?;
    (bps <= FEE_MAX_BPS).then_some(bps)
}

/// Basis points as a percent with two decimals ("4.40").
pub fn fee_text(bps: i64) -> String {
    format!("{}.{:02}", bps / 100, bps % 100)
}

fn digits_only(s: &str) -> String {
    s.chars().filter(|c| !matches!(c, ' ' | '-')).collect()
}

/// Checks a payment account: every field of its kind, in the form's order.
pub fn validate(d: Draft) -> bo_kit::Result<Account> {
    let mut errs: Vec<FieldError> = Vec::new();
    let need = |errs: &mut Vec<FieldError>, field: &str, v: &str, max: usize| -> String {
        let v = v.trim();
        if v.is_empty() {
            errs.push(FieldError::new(field, code::REQUIRED));
        } else if v.chars().count() > max {
            errs.push(FieldError::new(field, code::TOO_LONG));
        }
        v.to_string()
    };
    let kind = d.channel_type.trim().to_lowercase();
    let mut a = Account { channel_type: kind.clone(), ..Default::default() };
    match kind.as_str() {
        BANK => {
            a.country = need(&mut errs, "country", &d.country, 2).to_uppercase();
            if !a.country.is_empty() && !COUNTRIES.iter().any(|c| c.code == a.country) {
                errs.push(FieldError::new("country", code::COUNTRY));
            }
            a.bank_code = need(&mut errs, "bank_code", &d.bank_code, 3);
            if !a.bank_code.is_empty() && bank(&a.bank_code).is_none() {
                errs.push(FieldError::new("bank_code", code::BANK));
            }
            a.acc_name = need(&mut errs, "acc_name", &d.acc_name, NAME_MAX);
            a.acc_no = account_number(&mut errs, &d.acc_no, BANK_ACC_NO_MIN);
            a.branch = need(&mut errs, "branch", &d.branch, NAME_MAX);
        }
        COD => {
            a.acc_name = need(&mut errs, "acc_name", &d.acc_name, NAME_MAX);
            a.acc_no = account_number(&mut errs, &d.acc_no, BANK_ACC_NO_MIN);
        }
        PROMPTPAY => {
            a.acc_name = need(&mut errs, "acc_name", &d.acc_name, NAME_MAX);
            if d.acc_no.trim().is_empty() {
                errs.push(FieldError::new("acc_no", code::REQUIRED));
            } else {
                match PromptPayId::parse(&d.acc_no) {
                    Some(id) => a.acc_no = id.digits().to_string(),
                    None => errs.push(FieldError::new("acc_no", code::PROMPTPAY_ID)),
                }
            }
        }
        PAYPAL => {
            a.email = need(&mut errs, "email", &d.email, 254).to_lowercase();
            if !a.email.is_empty() && !is_valid_email(&a.email) {
                errs.push(FieldError::new("email", code::EMAIL));
            }
            if d.fee.trim().is_empty() {
                errs.push(FieldError::new("fee", code::REQUIRED));
            } else {
                match parse_fee(&d.fee) {
                    Some(bps) => a.fee_bps = bps,
                    None => errs.push(FieldError::new("fee", code::FEE)),
                }
            }
        }
        "" => errs.push(FieldError::new("channel_type", code::REQUIRED)),
        _ => errs.push(FieldError::new("channel_type", code::KIND)),
    }
    a.status = match d.status.trim() {
        "" | ACTIVE => ACTIVE.into(),
        INACTIVE => INACTIVE.into(),
        _ => {
            errs.push(FieldError::new("status", code::STATUS));
            String::new()
        }
    };
    if errs.is_empty() {
        Ok(a)
    } else {
        Err(Error::invalid(errs))
    }
}

fn account_number(errs: &mut Vec<FieldError>, raw: &str, min: usize) -> String {
    let d = digits_only(raw.trim());
    if d.is_empty() {
        errs.push(FieldError::new("acc_no", code::REQUIRED));
    } else if !d.bytes().all(|b| b.is_ascii_digit()) || d.len() < min || d.len() > ACC_NO_MAX {
        errs.push(FieldError::new("acc_no", code::ACC_NO));
    }
    d
}

/// A status as sent, checked.
pub fn status(s: &str) -> bo_kit::Result<&'static str> {
    match s.trim() {
        ACTIVE => Ok(ACTIVE),
        INACTIVE => Ok(INACTIVE),
        "" => Err(Error::invalid_field("status", code::REQUIRED)),
        _ => Err(Error::invalid_field("status", code::STATUS)),
    }
}

/// A kind as sent, checked.
pub fn kind(s: &str) -> bo_kit::Result<&'static str> {
    let s = s.trim().to_lowercase();
    KINDS
        .iter()
        .find(|k| **k == s)
        .copied()
        .ok_or_else(|| Error::invalid_field("channel_type", if s.is_empty() { code::REQUIRED } else { code::KIND }))
}

pub mod promptpay {
    //! The PromptPay QR (Thai QR Payment, EMVCo merchant-presented mode): a list of tag,
    //! two-digit length, value; tag 63 closes it with the CRC-16/CCITT-FALSE of everything
    //! before it, `6304` included.

    use super::PromptPayId;

    /// PromptPay's application id (tag 29, sub-tag 00).
    pub const AID: &str = "A000000677010111";
    /// The largest amount a QR carries, in satang (tag 54 holds at most 13 characters).
    pub const MAX_AMOUNT: i64 = 9_999_999_999;

    fn tag(id: &str, value: &str) -> String {
        format!("{id}{:02}{value}", value.len())
    }

    /// CRC-16/CCITT-FALSE: polynomial 0x1021, initial 0xFFFF, no reflection, no final xor.
    pub fn crc16(data: &[u8]) -> u16 {
        let mut crc: u16 = 0xFFFF;
        for &b in data {
            crc ^= (b as u16) << 8;
            for _ in 0..8 {
                crc = if crc & 0x8000 != 0 { (crc << 1) ^ 0x1021 } else { crc << 1 };
            }
        }
        crc
    }

    /// The payload for `id` and, when given, an amount in satang (static QR without one,
    /// dynamic with one).
    pub fn payload(id: &PromptPayId, amount_satang: Option<i64>) -> String {
        let proxy = match id {
            PromptPayId::Mobile(d) => tag("01", &format!("0066{}", &d[1..])),
            PromptPayId::NationalId(d) => tag("02", d),
        };
        let mut p = String::new();
        p.push_str(&tag("00", "01"));
        p.push_str(&tag("01", if amount_satang.is_some() { "12" } else { "11" }));
        p.push_str(&tag("29", &format!("{}{proxy}", tag("00", AID))));
        p.push_str(&tag("58", "TH"));
        p.push_str(&tag("53", "764"));
        if let Some(a) = amount_satang {
            p.push_str(&tag("54", &format!("{}.{:02}", a / 100, a % 100)));
        }
        p.push_str("6304");
        let crc = crc16(p.as_bytes());
        p.push_str(&format!("{crc:04X}"));
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(e: Error) -> Vec<(String, String)> {
        e.fields.into_iter().map(|f| (f.field, f.code)).collect()
    }

    fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn promptpay_payloads_match_the_published_vectors() {
        let phone = PromptPayId::parse("0801234567").unwrap();
        assert_eq!(
            promptpay::payload(&phone, None),
            "00020101021129370016A000000677010111011300668012345675802TH530376463046197"
        );
        let zero = PromptPayId::parse("0000000000").unwrap();
        assert_eq!(
            promptpay::payload(&zero, Some(422)),
            "00020101021229370016A000000677010111011300660000000005802TH530376454044.226304E469"
        );
    }

    #[test]
    fn promptpay_national_ids_use_sub_tag_02() {
        let id = PromptPayId::parse("1-2345-67890-12-1").unwrap();
        assert_eq!(id, PromptPayId::NationalId("1234567890121".into()));
        let p = promptpay::payload(&id, Some(10_050));
        assert!(p.contains("29370016A000000677010111"), "{p}");
        assert!(p.contains("02131234567890121"), "{p}");
        assert!(p.contains("5406100.50"), "{p}");
        // The CRC covers everything before it, 6304 included.
        let (body, crc) = p.split_at(p.len() - 4);
        assert_eq!(crc, format!("{:04X}", promptpay::crc16(body.as_bytes())));
    }

    #[test]
    fn crc16_ccitt_false_check_value() {
        assert_eq!(promptpay::crc16(b"123456789"), 0x29B1);
    }

    #[test]
    fn promptpay_ids_are_mobiles_or_checked_national_ids() {
        assert!(PromptPayId::parse("081-234-5678").is_some());
        for bad in ["1234567890122", "81234567", "1812345678", "08123456789", "08a2345678", ""] {
            assert!(PromptPayId::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn every_field_of_a_bank_account_is_required() {
        let e = validate(Draft { channel_type: "bank".into(), ..Default::default() }).unwrap_err();
        assert_eq!(
            fields(e),
            pairs(&[
                ("country", code::REQUIRED),
                ("bank_code", code::REQUIRED),
                ("acc_name", code::REQUIRED),
                ("acc_no", code::REQUIRED),
                ("branch", code::REQUIRED)
            ])
        );
        let ok = validate(Draft {
            channel_type: "BANK".into(),
            country: "th".into(),
            bank_code: "004".into(),
            acc_name: " ร้านดีดี ".into(),
            acc_no: "123-4-56789-0".into(),
            branch: "สีลม".into(),
            ..Default::default()
        })
        .unwrap();
        assert_eq!((ok.channel_type.as_str(), ok.country.as_str()), ("bank", "TH"));
        assert_eq!((ok.acc_name.as_str(), ok.acc_no.as_str(), ok.status.as_str()), ("ร้านดีดี", "1234567890", ACTIVE));
    }

    #[test]
    fn account_numbers_are_digits_and_banks_come_from_the_list() {
        let e = validate(Draft {
            channel_type: "bank".into(),
            country: "JP".into(),
            bank_code: "999".into(),
            acc_name: "A".into(),
            acc_no: "12345abcde".into(),
            branch: "B".into(),
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(
            fields(e),
            pairs(&[("country", code::COUNTRY), ("bank_code", code::BANK), ("acc_no", code::ACC_NO)])
        );
        let short = validate(Draft {
            channel_type: "cod".into(),
            acc_name: "A".into(),
            acc_no: "12345".into(),
            ..Default::default()
        });
        assert_eq!(fields(short.unwrap_err()), pairs(&[("acc_no", code::ACC_NO)]));
    }

    #[test]
    fn paypal_needs_an_email_and_a_fee() {
        let e = validate(Draft {
            channel_type: "paypal".into(),
            email: "not-mail".into(),
            fee: "101".into(),
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(fields(e), pairs(&[("email", code::EMAIL), ("fee", code::FEE)]));
        let ok = validate(Draft {
            channel_type: "paypal".into(),
            email: "Shop@Example.com".into(),
            fee: "4.4".into(),
            ..Default::default()
        })
        .unwrap();
        assert_eq!((ok.email.as_str(), ok.fee_bps, ok.acc_no.as_str()), ("shop@example.com", 440, ""));
        assert_eq!(ok.number_key(), None);
        assert_eq!(fee_text(440), "4.40");
    }

    #[test]
    fn fees_are_read_exactly() {
        assert_eq!(parse_fee("0"), Some(0));
        assert_eq!(parse_fee("3.9%"), Some(390));
        assert_eq!(parse_fee("100"), Some(10_000));
        for bad in ["100.01", "-1", "1.234", "", ".5", "abc"] {
            assert_eq!(parse_fee(bad), None, "{bad}");
        }
    }

    #[test]
    fn promptpay_accounts_keep_the_digits() {
        let e = validate(Draft {
            channel_type: "promptpay".into(),
            acc_name: "A".into(),
            acc_no: "1234567890122".into(),
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(fields(e), pairs(&[("acc_no", code::PROMPTPAY_ID)]));
        let ok = validate(Draft {
            channel_type: "promptpay".into(),
            acc_name: "A".into(),
            acc_no: "081 234 5678".into(),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(ok.number_key(), Some("0812345678"));
    }

    #[test]
    fn kinds_and_statuses_are_checked() {
        assert_eq!(fields(validate(Draft::default()).unwrap_err()), pairs(&[("channel_type", code::REQUIRED)]));
        let e =
            validate(Draft { channel_type: "cash".into(), status: "gone".into(), ..Default::default() }).unwrap_err();
        assert_eq!(fields(e), pairs(&[("channel_type", code::KIND), ("status", code::STATUS)]));
        assert_eq!(kind("COD").unwrap(), COD);
        assert!(kind("cheque").is_err());
        assert_eq!(status("inactive").unwrap(), INACTIVE);
        assert!(status("off").is_err());
    }

    #[test]
    fn bank_codes_are_unique_three_digits() {
        let mut codes: Vec<&str> = BANKS.iter().map(|b| b.code).collect();
        assert!(codes.iter().all(|c| c.len() == 3 && c.bytes().all(|b| b.is_ascii_digit())));
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), BANKS.len());
        assert!(BANKS.iter().all(|b| b.color.len() == 7 && b.color.starts_with('#')));
    }
}
