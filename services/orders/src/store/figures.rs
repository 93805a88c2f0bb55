//! What an order sells, for the read models that count sales (reports): its lines with
//! their shares of the net and its money, as written or as its row keeps it.

use super::*;

/// What an order sells at `version`, for the read models that count sales: its lines with
/// their shares of the net ([`money::line_figures`]) and its money.
pub(super) fn figures(version: i64, placed_at: i64, created_by: i64, d: &OrderData, paid: i64) -> pb::OrderFigures {
    let who = Who { placed_at, created_by, channel: &d.channel, customer_id: d.customer_id };
    sold(version, &who, &d.items, &d.totals, &d.address, paid)
}

/// When an order was placed, by whom, on which channel and for which customer.
struct Who<'a> {
    placed_at: i64,
    created_by: i64,
    channel: &'a str,
    customer_id: i64,
}

/// The figures of an order as its row and lines keep it, `paid` of it ([`figures`]).
pub(crate) fn row_figures(r: &OrderRow, items: &[Item], paid: i64) -> pb::OrderFigures {
    let totals = money::Totals {
        subtotal: r.subtotal,
        discount_amount: r.discount_amount,
        net: r.net,
        shipping_charge: r.shipping_charge,
        shipping_charge_inter: r.shipping_charge_inter,
        shipping_total: r.shipping_charge.saturating_add(r.shipping_charge_inter),
        additional_fee: r.additional_fee,
        vat_amount: r.vat_amount,
        total: r.total,
        cost_total: r.cost_total,
        net_ex_vat: r.net_ex_vat,
        profit: r.profit,
        per_warehouse: Default::default(),
    };
    let who =
        Who { placed_at: r.created_at, created_by: r.created_by, channel: &r.channel, customer_id: r.customer_id };
    sold(r.version, &who, items, &totals, &r.address(), paid)
}

fn sold(version: i64, who: &Who, items: &[Item], t: &money::Totals, address: &Address, paid: i64) -> pb::OrderFigures {
    let lines: Vec<money::Line> = items
        .iter()
        .map(|i| money::Line { price: i.price, cost: i.cost, quantity: i.quantity, warehouse_id: i.warehouse_id })
        .collect();
    pb::OrderFigures {
        version,
        place_time: Some(bo_kit::time::ms_to_timestamp(who.placed_at)),
        channel: who.channel.to_string(),
        customer_id: who.customer_id,
        created_by: who.created_by,
        lines: items
            .iter()
            .zip(money::line_figures(&lines, t))
            .map(|(i, f)| pb::SoldLine {
                sku_id: i.sku_id,
                product_id: i.product_id,
                product_name: i.product_name.clone(),
                sku_code: i.sku_code.clone(),
                variant: i.variant.clone(),
                quantity: i.quantity,
                net: f.net,
                net_ex_vat: f.net_ex_vat,
                cost: f.cost,
            })
            .collect(),
        subtotal: t.subtotal,
        discount: t.discount_amount,
        net: t.net,
        shipping: t.shipping_total,
        additional_fee: t.additional_fee,
        vat: t.vat_amount,
        total: t.total,
        net_ex_vat: t.net_ex_vat,
        cost: t.cost_total,
        province: address.state_province.clone(),
        district: address.district.clone(),
        country: if address.country.is_empty() { "TH".to_string() } else { address.country.clone() },
        city: address.city.clone(),
        paid,
    }
}
