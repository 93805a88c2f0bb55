//! Service fees: what a warehouse charges the store for its work, by the warehouse's fee
//! plan, in satang, VAT and withholding tax excluded (SPEC §2 Dashboards, service fees).
//! An order is charged once, when it ships; a goods receipt once, when it is approved; each
//! at the plan of its warehouse then. Pure.

use bo_kit::{Error, FieldError, Result};

/// What a warehouse charges. A zero charges nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct Plan {
    /// Per goods-receipt line approved.
    pub receipt_line: i64,
    /// Per unit a goods receipt puts on the shelf.
    pub shelving: i64,
    /// Per unit picked for an order.
    pub pick: i64,
    /// Per order packed.
    pub pack: i64,
    /// Per parcel in a catalogue box (0: the box's catalogue price).
    pub packaging: i64,
    /// Packaging material per parcel.
    pub material: i64,
    /// Additional service per order.
    pub additional: i64,
    /// Per parcel whose own shipping fee is not set.
    pub shipping: i64,
    /// Basis points of the cash collected, for parcels whose own COD fee is not set.
    pub cod_rate_bp: i64,
}

/// The most one price of a plan may be: 100,000 baht.
pub const MAX_PRICE: i64 = 10_000_000;
/// The most a COD rate may be: 100%.
pub const MAX_COD_BP: i64 = 10_000;

impl Plan {
    /// The plan's prices by field name, as the contract names them.
    fn prices(&self) -> [(&'static str, i64); 8] {
        [
            ("receipt_line", self.receipt_line),
            ("shelving", self.shelving),
            ("pick", self.pick),
            ("pack", self.pack),
            ("packaging", self.packaging),
            ("material", self.material),
            ("additional", self.additional),
            ("shipping", self.shipping),
        ]
    }

    /// Checks every field at once.
    pub fn check(&self) -> Result<()> {
        let mut errs: Vec<FieldError> = self
            .prices()
            .into_iter()
            .filter(|(_, v)| !(0..=MAX_PRICE).contains(v))
            .map(|(name, _)| FieldError::new(name, "validation.fee"))
            .collect();
        if !(0..=MAX_COD_BP).contains(&self.cod_rate_bp) {
            errs.push(FieldError::new("cod_percent", "validation.percent"));
        }
        if errs.is_empty() {
            Ok(())
        } else {
            Err(Error::invalid(errs))
        }
    }
}

/// Fees by kind, in satang, and the documents they were for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct Amounts {
    /// Orders shipped.
    pub orders: i64,
    /// Goods receipts approved.
    pub receipts: i64,
    pub shelving: i64,
    pub goods_receipt: i64,
    pub picking: i64,
    pub packing: i64,
    pub packaging: i64,
    pub material: i64,
    pub additional: i64,
    pub shipping: i64,
    pub cod: i64,
}

/// What a shipped parcel brings to its order's fees.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ParcelFees {
    /// Packed in a box of the catalogue.
    pub catalogue_box: bool,
    /// The box's catalogue price.
    pub box_price: i64,
    /// The parcel's own shipping fee (0: not set).
    pub shipping_fee: i64,
    /// Cash to collect on delivery (0: not COD).
    pub cod_amount: i64,
    /// The parcel's own COD fee (0: not set).
    pub cod_fee: i64,
}

/// A share in basis points of an amount, to the satang, half up.
pub fn share(amount: i64, bp: i64) -> i64 {
    (i128::from(amount) * i128::from(bp) + 5_000).div_euclid(10_000) as i64
}

/// What an order costs when it ships: `units` picked and its parcels packed and sent.
pub fn order(plan: &Plan, units: i64, parcels: &[ParcelFees]) -> Amounts {
    let mut a = Amounts {
        orders: 1,
        picking: plan.pick * units.max(0),
        packing: plan.pack,
        additional: plan.additional,
        ..Amounts::default()
    };
    for p in parcels {
        if p.catalogue_box {
            a.packaging += if plan.packaging > 0 { plan.packaging } else { p.box_price };
        }
        a.material += plan.material;
        a.shipping += if p.shipping_fee > 0 { p.shipping_fee } else { plan.shipping };
        a.cod += match (p.cod_fee, p.cod_amount) {
            (fee, _) if fee > 0 => fee,
            (_, amount) if amount > 0 => share(amount, plan.cod_rate_bp),
            _ => 0,
        };
    }
    a
}

/// What a goods receipt costs when it is approved: `lines` received putting `units` on the
/// shelf.
pub fn receipt(plan: &Plan, lines: i64, units: i64) -> Amounts {
    Amounts {
        receipts: 1,
        goods_receipt: plan.receipt_line * lines.max(0),
        shelving: plan.shelving * units.max(0),
        ..Amounts::default()
    }
}

/// The documents a charge is for.
pub mod document {
    pub const ORDER: &str = "order";
    pub const GOODS_RECEIPT: &str = "goods_receipt";
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAN: Plan = Plan {
        receipt_line: 500,
        shelving: 25,
        pick: 300,
        pack: 1_000,
        packaging: 0,
        material: 200,
        additional: 150,
        shipping: 4_500,
        cod_rate_bp: 250,
    };

    #[test]
    fn an_order_pays_per_unit_per_order_and_per_parcel() {
        let parcels = [
            // A catalogue box at its own price, the plan's shipping, COD at the plan's rate.
            ParcelFees { catalogue_box: true, box_price: 1_200, shipping_fee: 0, cod_amount: 100_050, cod_fee: 0 },
            // The seller's own box, its own shipping and COD fees.
            ParcelFees { catalogue_box: false, box_price: 0, shipping_fee: 6_000, cod_amount: 5_000, cod_fee: 1_000 },
        ];
        let a = order(&PLAN, 3, &parcels);
        assert_eq!(
            a,
            Amounts {
                orders: 1,
                picking: 900,
                packing: 1_000,
                packaging: 1_200,
                material: 400,
                additional: 150,
                shipping: 10_500,
                // 2.5% of 1,000.50 baht is 25.0125 baht: 2,501 satang; and the parcel's own 10 baht.
                cod: 2_501 + 1_000,
                ..Amounts::default()
            }
        );
    }

    #[test]
    fn a_plan_packaging_price_replaces_the_catalogue_price() {
        let plan = Plan { packaging: 900, ..PLAN };
        let box_ = ParcelFees { catalogue_box: true, box_price: 1_200, ..ParcelFees::default() };
        assert_eq!(order(&plan, 1, &[box_]).packaging, 900);
        assert_eq!(order(&plan, 1, &[ParcelFees::default()]).packaging, 0);
    }

    #[test]
    fn a_zero_plan_charges_only_what_parcels_say() {
        let p = ParcelFees { shipping_fee: 3_000, cod_amount: 10_000, ..ParcelFees::default() };
        let a = order(&Plan::default(), 5, &[p]);
        assert_eq!(a, Amounts { orders: 1, shipping: 3_000, ..Amounts::default() });
    }

    #[test]
    fn a_receipt_pays_per_line_and_per_unit() {
        assert_eq!(
            receipt(&PLAN, 2, 40),
            Amounts { receipts: 1, goods_receipt: 1_000, shelving: 1_000, ..Amounts::default() }
        );
    }

    #[test]
    fn shares_round_half_up_to_the_satang() {
        assert_eq!(share(100, 250), 3); // 2.5 satang
        assert_eq!(share(99, 250), 2); // 2.475
        assert_eq!(share(0, 10_000), 0);
        assert_eq!(share(i64::MAX / 2, 10_000), i64::MAX / 2);
    }

    #[test]
    fn a_plan_refuses_negative_or_huge_prices_and_rates_over_a_hundred_percent() {
        assert!(PLAN.check().is_ok());
        assert!(Plan { pick: MAX_PRICE, cod_rate_bp: MAX_COD_BP, ..PLAN }.check().is_ok());
        let e = Plan { pick: -1, shipping: MAX_PRICE + 1, cod_rate_bp: 10_001, ..PLAN }.check().unwrap_err();
        let fields: Vec<_> = e.fields.iter().map(|f| (f.field.as_str(), f.code.as_str())).collect();
        assert_eq!(
            fields,
            [("pick", "validation.fee"), ("shipping", "validation.fee"), ("cod_percent", "validation.percent")]
        );
    }
}
