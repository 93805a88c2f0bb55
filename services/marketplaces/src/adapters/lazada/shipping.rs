//! Lazada's fulfilment calls (the fulfilment API that replaced `/order/pack` and `/order/rts`
//! in 2023). An order's items are packed into a package with `/order/fulfill/pack`: Lazada
//! allocates its carrier and gives the tracking number. `/order/package/rts` then sets the
//! package ready to ship, and the carrier picks it up or the seller drops it off as the shop
//! is set up in Seller Center: Lazada offers no choice per order. The air waybill of a
//! package comes from `/order/package/document/get` as a link to a PDF, valid ten minutes.
//! The fulfilment answers wrap their data in `result` (`success`, `error_code`, `error_msg`)
//! and say per item or package whether it went through (`item_err_code` `"0"`).

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{answer, send, text_of, ChannelError, Item, Lazada, Session, WHO};
use crate::adapters::shipping::{is_pdf, may_fetch, Handover, ShipOptions, Shipping};

/// Item statuses Lazada packs.
const PACKABLE: [&str; 2] = ["pending", "repacked"];

/// What Lazada says when an item cannot be packed in its status.
fn not_packable(status: &str) -> ChannelError {
    ChannelError::rejected("700026", &format!("item current status not allow to pack ({status})"))
}

/// The fulfilment API's `result`: its `data`, or its refusal.
fn result_data(v: &Value) -> Result<Value, ChannelError> {
    let r = v.get("result").cloned().unwrap_or_default();
    let success = match r.get("success") {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s == "true",
        _ => false,
    };
    if success {
        return Ok(r.get("data").cloned().unwrap_or_default());
    }
    let code = r.get("error_code").map(text_of).unwrap_or_default();
    let message = r.get("error_msg").map(text_of).unwrap_or_default();
    Err(ChannelError::rejected(if code.is_empty() { "result" } else { &code }, &message))
}

/// The first entry of a per-item or per-package list that did not go through.
fn first_failure<'a>(entries: impl IntoIterator<Item = &'a Value>) -> Option<ChannelError> {
    entries.into_iter().find_map(|e| {
        let code = e.get("item_err_code").map(text_of).unwrap_or_default();
        (code != "0").then(|| ChannelError::rejected(&code, &e.get("msg").map(text_of).unwrap_or_default()))
    })
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Providers {
    platform_default: Value,
    shipment_providers: Vec<Provider>,
    shipping_allocate_type: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Provider {
    provider_code: String,
}

/// The items still in the order (a cancelled unit is no longer shipped).
fn live(items: &[Item]) -> impl Iterator<Item = &Item> {
    items.iter().filter(|i| !i.status.eq_ignore_ascii_case("canceled"))
}

/// The status of an item that is neither packable nor packed and waiting to be set ready to
/// ship, if any.
fn unshippable(items: &[Item]) -> Option<String> {
    let status = live(items).find(|i| !PACKABLE.contains(&i.status.as_str()) && i.status != "packed")?.status.clone();
    Some(status)
}

/// The packages of an order's items, each once, in the order of its items.
fn packages(items: &[Item]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for i in live(items) {
        let p = i.package_id.trim();
        if !p.is_empty() && !out.iter().any(|x| x == p) {
            out.push(p.to_string());
        }
    }
    out
}

/// The `packReq` of an order's items to pack: a local shop's carrier is Lazada's (`TFS`,
/// no provider sent); a cross-border one names the first provider it may use.
fn pack_request(order_id: &str, item_ids: &[i64], p: &Providers) -> Result<String, ChannelError> {
    let order: i64 =
        order_id.trim().parse().map_err(|_| ChannelError::rejected("700004", "PARAM_ILLEGAL: order_id is a number"))?;
    let allocate = if p.shipping_allocate_type.is_empty() { "TFS" } else { p.shipping_allocate_type.as_str() };
    let mut req = json!({
        "pack_order_list": [{ "order_id": order, "order_item_list": item_ids }],
        "delivery_type": "dropship",
        "shipping_allocate_type": allocate,
    });
    let chooses = text_of(&p.platform_default) != "1";
    if allocate == "NTFS" || chooses {
        if let Some(first) = p.shipment_providers.iter().find(|x| !x.provider_code.is_empty()) {
            req["shipment_provider_code"] = json!(first.provider_code);
        }
    }
    Ok(req.to_string())
}

impl Lazada {
    /// An order's items (`/order/items/get`, one per unit).
    pub(super) async fn order_items(&self, session: Session<'_>, order_id: &str) -> Result<Vec<Item>, ChannelError> {
        let v = self
            .call(self.request(
                &self.config.api_url,
                "/order/items/get",
                Some(session.access),
                &[("order_id", order_id.to_string())],
                false,
            ))
            .await?;
        serde_json::from_value(v.get("data").cloned().unwrap_or_default()).map_err(|e| {
            ChannelError::Malformed(format!("lazada: order items: {}", crate::adapters::clip(&e.to_string())))
        })
    }

    /// A fulfilment call of the shop: `param` is the one JSON parameter it takes.
    async fn fulfil(&self, session: Session<'_>, path: &str, name: &str, param: String) -> Result<Value, ChannelError> {
        let v =
            self.call(self.request(&self.config.api_url, path, Some(session.access), &[(name, param)], true)).await?;
        result_data(&v)
    }
}

#[async_trait]
impl Shipping for Lazada {
    async fn ship_options(&self, session: Session<'_>, order_id: &str) -> Result<ShipOptions, ChannelError> {
        let items = self.order_items(session, order_id).await?;
        if let Some(status) = unshippable(&items) {
            return Err(not_packable(&status));
        }
        if live(&items).next().is_none() {
            return Err(not_packable("canceled"));
        }
        Ok(ShipOptions { platform: true, ..ShipOptions::default() })
    }

    async fn arrange(&self, session: Session<'_>, order_id: &str, how: &Handover) -> Result<(), ChannelError> {
        if *how != Handover::Platform {
            return Err(ChannelError::rejected(
                "handover",
                "Lazada's carrier picks up or is handed the parcel as the shop is set up in Seller Center",
            ));
        }
        let items = self.order_items(session, order_id).await?;
        if let Some(status) = unshippable(&items) {
            return Err(not_packable(&status));
        }
        let to_pack: Vec<i64> = live(&items)
            .filter(|i| PACKABLE.contains(&i.status.as_str()))
            .map(|i| text_of(&i.order_item_id).parse::<i64>())
            .collect::<Result<_, _>>()
            .map_err(|_| ChannelError::Malformed("lazada: an order item id is not a number".into()))?;
        let mut packed = packages(&items);
        if !to_pack.is_empty() {
            let order = order_id.trim().parse::<i64>().unwrap_or_default();
            let asked = json!({ "orders": [{ "order_id": order, "order_item_ids": to_pack }] }).to_string();
            let providers: Providers = serde_json::from_value(
                self.fulfil(session, "/order/shipment/providers/get", "getShipmentProvidersReq", asked).await?,
            )
            .map_err(|e| {
                ChannelError::Malformed(format!("lazada: providers: {}", crate::adapters::clip(&e.to_string())))
            })?;
            let data = self
                .fulfil(session, "/order/fulfill/pack", "packReq", pack_request(order_id, &to_pack, &providers)?)
                .await?;
            let lines: Vec<&Value> = data
                .get("pack_order_list")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .flat_map(|o| o.get("order_item_list").and_then(Value::as_array).into_iter().flatten())
                .collect();
            if let Some(e) = first_failure(lines.iter().copied()) {
                return Err(e);
            }
            for l in lines {
                let p = l.get("package_id").map(text_of).unwrap_or_default();
                if !p.is_empty() && !packed.contains(&p) {
                    packed.push(p);
                }
            }
        }
        if packed.is_empty() {
            return Err(ChannelError::Malformed("lazada: packed without a package".into()));
        }
        let req = json!({ "packages": packed.iter().map(|p| json!({ "package_id": p })).collect::<Vec<_>>() });
        let data = self.fulfil(session, "/order/package/rts", "readyToShipReq", req.to_string()).await?;
        match first_failure(data.get("packages").and_then(Value::as_array).into_iter().flatten()) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    async fn tracking_no(&self, session: Session<'_>, order_id: &str) -> Result<Option<String>, ChannelError> {
        let items = self.order_items(session, order_id).await?;
        let number = live(&items).map(|i| i.tracking_code.trim()).find(|t| !t.is_empty()).map(str::to_string);
        Ok(number)
    }

    async fn label(&self, session: Session<'_>, order_id: &str, _tracking_no: &str) -> Result<Vec<u8>, ChannelError> {
        let items = self.order_items(session, order_id).await?;
        let packed = packages(&items);
        if packed.is_empty() {
            return Err(ChannelError::rejected("700040", "There are no packages that support printing!"));
        }
        let req = json!({
            "doc_type": "PDF",
            "packages": packed.iter().map(|p| json!({ "package_id": p })).collect::<Vec<_>>(),
        });
        let data = self.fulfil(session, "/order/package/document/get", "getDocumentReq", req.to_string()).await?;
        let link = data.get("pdf_url").map(text_of).unwrap_or_default();
        if !may_fetch(&link, &self.config.api_url) {
            return Err(ChannelError::Malformed("lazada: the label's link is not one to follow".into()));
        }
        let (_, bytes) = answer(WHO, send(WHO, self.http.get(link)).await?).await?;
        if !is_pdf(&bytes) {
            return Err(ChannelError::Malformed("lazada: the label is not a PDF".into()));
        }
        Ok(bytes.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: i64, status: &str, package: &str) -> Item {
        Item { order_item_id: json!(id), status: status.into(), package_id: package.into(), ..Item::default() }
    }

    #[test]
    fn a_local_shop_packs_with_lazadas_carrier_and_a_cross_border_one_names_it() {
        let local: Providers = serde_json::from_value(json!({
            "platform_default": 1, "shipment_providers": [{ "name": "Cainiao", "provider_code": "asc_xxx_xxx" }],
            "shipping_allocate_type": "TFS" }))
        .unwrap();
        let req: Value =
            serde_json::from_str(&pack_request("560694402192001", &[560694402292001], &local).unwrap()).unwrap();
        assert_eq!(
            req,
            json!({ "pack_order_list": [{ "order_item_list": [560694402292001i64], "order_id": 560694402192001i64 }],
                    "delivery_type": "dropship", "shipping_allocate_type": "TFS" }),
            "the guide's request"
        );
        let cross: Providers = serde_json::from_value(json!({
            "platform_default": "0", "shipment_providers": [{ "name": "X", "provider_code": "FM49" }],
            "shipping_allocate_type": "NTFS" }))
        .unwrap();
        let req: Value = serde_json::from_str(&pack_request("1", &[2], &cross).unwrap()).unwrap();
        assert_eq!(req["shipment_provider_code"], "FM49");
        assert!(matches!(pack_request("A1", &[2], &local), Err(ChannelError::Rejected { .. })));
    }

    #[test]
    fn results_and_their_items_say_what_went_through() {
        let ok = json!({ "result": { "data": { "packages": [{ "msg": "success", "item_err_code": "0", "package_id": "FP1", "retry": false }] },
                         "success": true }, "code": "0" });
        let data = result_data(&ok).unwrap();
        assert!(first_failure(data["packages"].as_array().unwrap()).is_none());
        let one_failed = json!([{ "item_err_code": "0" }, { "msg": "package already cancelled", "item_err_code": "600002", "retry": "false" }]);
        let e = first_failure(one_failed.as_array().unwrap()).unwrap();
        assert!(matches!(e, ChannelError::Rejected { ref code, .. } if code == "600002"), "{e:?}");
        let refused = json!({ "result": { "success": false, "error_code": "PACKAGE_STATUS_NOT_ALLOW_TO_OP", "error_msg": "no" }, "code": "0" });
        assert!(
            matches!(result_data(&refused), Err(ChannelError::Rejected { ref code, .. }) if code == "PACKAGE_STATUS_NOT_ALLOW_TO_OP")
        );
    }

    #[test]
    fn packages_are_each_once_and_cancelled_units_are_left_out() {
        let items =
            [item(1, "packed", "FP1"), item(2, "packed", "FP1"), item(3, "canceled", "FP9"), item(4, "pending", "")];
        assert_eq!(packages(&items), ["FP1"]);
        assert_eq!(live(&items).count(), 3);
    }
}
