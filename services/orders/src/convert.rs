//! Addresses between the order's own type and the messages that carry one (orders' own,
//! and the stores service's address book), written once.

use bo_proto::orders::v1 as pb;
use bo_proto::stores::v1 as spb;

use crate::domain::draft::Address;

/// Moves every field of one address type into another with the same field names.
macro_rules! address_fields {
    ($ty:path, $a:expr) => {{
        let a = $a;
        $ty {
            name: a.name,
            tel: a.tel,
            address: a.address,
            sub_district: a.sub_district,
            district: a.district,
            state_province: a.state_province,
            postcode: a.postcode,
            email: a.email,
            country: a.country,
            city: a.city,
        }
    }};
}

/// An order's address as a message.
pub fn address_message(a: &Address) -> pb::Address {
    address_fields!(pb::Address, a.clone())
}

/// The address a message carries (none: empty).
pub fn address_of(a: Option<pb::Address>) -> Address {
    address_fields!(Address, a.unwrap_or_default())
}

/// An entry of a customer's address book as an order's address.
pub fn book_address(a: spb::Address) -> Address {
    let spb::Address {
        name, tel, address, sub_district, district, state_province, postcode, email, country, city, ..
    } = a;
    Address { name, tel, address, sub_district, district, state_province, postcode, email, country, city }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_goes_there_and_back() {
        let a = Address {
            name: "สมชาย".into(),
            tel: "0812345678".into(),
            postcode: "10110".into(),
            country: "TH".into(),
            ..Default::default()
        };
        assert_eq!(address_of(Some(address_message(&a))), a);
        let book =
            spb::Address { id: 3, name: "สมหญิง".into(), city: "Tokyo".into(), ..Default::default() };
        assert_eq!((book_address(book).name.as_str(), address_of(None)), ("สมหญิง", Address::default()));
    }
}
