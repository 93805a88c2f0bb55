//! Between storage's rows and the contract's messages: orders, their lines, bills,
//! payments and timelines as the calls answer them, and addresses between the
//! order's own type and the messages that carry one (orders' own, and the stores service's
//! address book), each written once.

use std::collections::HashMap;

use bo_kit::time::ms_to_timestamp;
use bo_proto::orders::v1 as pb;
use bo_proto::stores::v1 as spb;
use bo_proto::Wire;

use crate::domain;
use crate::domain::draft::Address;
use crate::store::{BillRow, EventRow, ItemRow, OrderRow, PaymentRow};

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

impl OrderRow {
    /// As a message, with its lines (parcels are wms's, added by the caller).
    pub fn to_proto(&self, items: &[ItemRow]) -> pb::Order {
        let problems = self.problems();
        let a = self.address();
        let mut per_warehouse = HashMap::new();
        for i in items {
            *per_warehouse.entry(i.warehouse_id).or_insert(0) += i.line_total;
        }
        pb::Order {
            id: self.id,
            store_id: self.store_id,
            order_no: self.order_no.clone(),
            channel: self.channel.clone(),
            reference: self.reference.clone(),
            note: self.note.clone(),
            state: pb::OrderState::number(&self.state),
            payment_state: pb::PaymentState::number(&self.payment_state),
            problem: problems.first().cloned().unwrap_or_default(),
            problems,
            failure_cause: self.failure_cause.clone(),
            failure_reason: self.failure_reason.clone(),
            warehouse_id: self.warehouse_id,
            customer_id: self.customer_id,
            customer_address_id: self.customer_address_id,
            stock_reference: domain::reference(self.id),
            allowed_actions: domain::state::allowed_actions_of(&self.state, self.platform_ships != 0)
                .into_iter()
                .map(String::from)
                .collect(),
            bills: Vec::new(),
            payments: Vec::new(),
            shipping_address: Some(crate::convert::address_message(&a)),
            shipping_address_changed: self.shipping_address_changed != 0,
            items: items.iter().map(ItemRow::to_proto).collect(),
            discount_type: self.discount_type.clone(),
            discount_value: self.discount_value,
            vat_included: self.vat_included != 0,
            totals: Some(pb::Totals {
                subtotal: self.subtotal,
                discount_amount: self.discount_amount,
                net: self.net,
                shipping_charge: self.shipping_charge,
                shipping_charge_inter: self.shipping_charge_inter,
                shipping_total: self.shipping_charge + self.shipping_charge_inter,
                additional_fee: self.additional_fee,
                vat_amount: self.vat_amount,
                total: self.total,
                cost_total: self.cost_total,
                net_ex_vat: self.net_ex_vat,
                profit: self.profit,
                per_warehouse,
            }),
            logistic_store_channel_id: self.logistic_store_channel_id,
            shipping_name: self.shipping_name.clone(),
            shipping_provider: self.shipping_provider.clone(),
            cod: self.cod != 0,
            tracking_no: self.tracking_no.clone(),
            estimated_weight_g: self.estimated_weight_g,
            imported: self.imported != 0,
            bill_expire_at_ms: self.bill_expire_at,
            stock_state: pb::StockState::number(&self.stock_state),
            parcels: Vec::new(),
            created_by: self.created_by,
            version: self.version,
            create_time: Some(ms_to_timestamp(self.created_at)),
            update_time: Some(ms_to_timestamp(self.updated_at)),
            ready_to_fulfillment_at_ms: self.ready_at,
            shipped_at_ms: self.shipped_at,
            cancelled_at_ms: self.cancelled_at,
            closed_at_ms: self.closed_at,
            failed_at_ms: self.failed_at,
            voided_at_ms: self.voided_at,
            store_channel_id: self.store_channel_id,
            channel_shop: self.channel_shop.clone(),
            platform_ships: self.platform_ships != 0,
            return_mark: return_mark(&self.return_mark) as i32,
            returns: Vec::new(),
        }
    }
}

/// The contract's word for a stored return mark.
pub fn return_mark(word: &str) -> pb::ReturnMark {
    use crate::domain::returns::Mark;
    match Mark::parse(word) {
        Some(Mark::Open) => pb::ReturnMark::Open,
        Some(Mark::Received) => pb::ReturnMark::Received,
        Some(Mark::Refunded) => pb::ReturnMark::Refunded,
        Some(Mark::Closed) => pb::ReturnMark::Closed,
        Some(Mark::None) | None => pb::ReturnMark::Unspecified,
    }
}

/// The contract's word for a return stage.
pub fn return_stage(stage: crate::domain::returns::Stage) -> pb::ReturnStage {
    use crate::domain::returns::Stage;
    match stage {
        Stage::Requested => pb::ReturnStage::Requested,
        Stage::Accepted => pb::ReturnStage::Accepted,
        Stage::ShippedBack => pb::ReturnStage::ShippedBack,
        Stage::DeliveredBack => pb::ReturnStage::DeliveredBack,
        Stage::Refunded => pb::ReturnStage::Refunded,
        Stage::Closed => pb::ReturnStage::Closed,
    }
}

/// A return stage of the contract's word (None for unspecified).
pub fn stage_of(stage: pb::ReturnStage) -> Option<crate::domain::returns::Stage> {
    use crate::domain::returns::Stage;
    Some(match stage {
        pb::ReturnStage::Unspecified => return None,
        pb::ReturnStage::Requested => Stage::Requested,
        pb::ReturnStage::Accepted => Stage::Accepted,
        pb::ReturnStage::ShippedBack => Stage::ShippedBack,
        pb::ReturnStage::DeliveredBack => Stage::DeliveredBack,
        pb::ReturnStage::Refunded => Stage::Refunded,
        pb::ReturnStage::Closed => Stage::Closed,
    })
}

impl ItemRow {
    pub fn to_proto(&self) -> pb::OrderItem {
        pb::OrderItem {
            id: self.id,
            sku_id: self.sku_id,
            product_id: self.product_id,
            product_name: self.product_name.clone(),
            product_code: self.product_code.clone(),
            sku_code: self.sku_code.clone(),
            variant: self.variant.clone(),
            price: self.price,
            cost: self.cost,
            hs_code: self.hs_code.clone(),
            packing_options: serde_json::from_str(&self.packing_options).unwrap_or_default(),
            note: self.note.clone(),
            warehouse_id: self.warehouse_id,
            quantity: self.quantity,
            weight_g: self.weight_g,
            line_total: self.line_total,
            listing: self.listing.clone(),
        }
    }
}

impl BillRow {
    /// The bill as the API sees it.
    pub fn to_proto(&self) -> pb::Bill {
        pb::Bill {
            id: self.id,
            warehouse_id: self.warehouse_id,
            amount: self.amount,
            state: pb::BillState::number(&self.state),
            expiry_type: self.expiry_type.clone(),
            on_expiry: self.on_expiry.clone(),
            expires_at_ms: self.expires_at,
            expired_at_ms: self.expired_at,
            renewed_at_ms: self.renewed_at,
            token: self.token.clone(),
            create_time: Some(ms_to_timestamp(self.created_at)),
        }
    }
}

impl OrderRow {
    /// The order as an export writes it.
    pub fn to_export(&self, items: &[ItemRow]) -> pb::ExportOrder {
        let place = [&self.ship_address, &self.ship_sub_district, &self.ship_district, &self.ship_city]
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        pb::ExportOrder {
            id: self.id,
            order_no: self.order_no.clone(),
            created_at_ms: self.created_at,
            channel: self.channel.clone(),
            reference: self.reference.clone(),
            state: pb::OrderState::number(&self.state),
            payment_state: pb::PaymentState::number(&self.payment_state),
            ship_name: self.ship_name.clone(),
            ship_tel: self.ship_tel.clone(),
            ship_place: place,
            ship_province: self.ship_state_province.clone(),
            ship_postcode: self.ship_postcode.clone(),
            lines: items
                .iter()
                .map(|i| pb::ExportLine { sku_code: i.sku_code.clone(), quantity: i.quantity })
                .collect(),
            subtotal: self.subtotal,
            discount: self.discount_amount,
            shipping: self.shipping_charge + self.shipping_charge_inter,
            additional_fee: self.additional_fee,
            vat: self.vat_amount,
            total: self.total,
            tracking_no: self.tracking_no.clone(),
            note: self.note.clone(),
        }
    }
}

impl PaymentRow {
    /// The payment as the API sees it.
    pub fn to_proto(&self) -> pb::Payment {
        pb::Payment {
            id: self.id,
            bill_id: self.bill_id,
            warehouse_id: self.warehouse_id,
            amount: self.amount,
            state: pb::PaymentState::number(&self.state),
            store_channel_id: self.store_channel_id,
            channel_type: self.channel_type.clone(),
            has_attachment: !self.attachment.is_empty(),
            source: self.source.clone(),
            note: self.note.clone(),
            created_by: self.created_by,
            confirmed_by: self.confirmed_by,
            confirmed_at_ms: self.confirmed_at,
            slip_at_ms: self.slip_at,
            create_time: Some(ms_to_timestamp(self.created_at)),
            update_time: Some(ms_to_timestamp(self.updated_at)),
            slips: Vec::new(),
        }
    }
}

/// A slip a payment was sent.
pub fn slip_message(s: &crate::store::SlipRow) -> pb::PaymentSlip {
    pb::PaymentSlip { id: s.id, source: s.source.clone(), created_by: s.created_by, created_at_ms: s.created_at }
}

/// A line of an order's timeline.
pub fn event_message(e: EventRow) -> pb::OrderEvent {
    pb::OrderEvent {
        id: e.id,
        from_state: pb::OrderState::number(&e.from_state),
        to_state: pb::OrderState::number(&e.to_state),
        action: e.action,
        user_id: e.user_id,
        detail: e.detail,
        create_time: Some(ms_to_timestamp(e.created_at)),
    }
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
