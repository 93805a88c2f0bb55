//! Shopee's logistics calls: `get_shipping_parameter` says how an order may be handed over
//! (`info_needed` names the pick-up, drop-off or own-carrier fields the order's channel
//! needs), `ship_order` arranges it with exactly one of them, `get_tracking_number` gives the
//! carrier's number once it has one, and the air waybill is made by
//! `create_shipping_document`, waited for with `get_shipping_document_result` and fetched by
//! `download_shipping_document`, which answers the file itself (a PDF) or a JSON error.

use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{answer, send, ChannelError, Session, Shopee, WHO};
use crate::adapters::shipping::{is_pdf, Handover, PickupAddress, PickupSlot, ShipOptions, Shipping};

/// The label Shopee prints on a thermal printer (A6, 100 × 150 mm).
const THERMAL: &str = "THERMAL_AIR_WAYBILL";
/// How many times a label being made is asked for, and how long between.
const LABEL_TRIES: usize = 10;
const LABEL_WAIT: Duration = Duration::from_millis(300);

#[derive(Deserialize, Default)]
#[serde(default)]
struct Parameter {
    info_needed: InfoNeeded,
    pickup: Option<Pickup>,
}

/// The fields each way of handing over needs: a way is offered when its key is there.
#[derive(Deserialize, Default)]
#[serde(default)]
struct InfoNeeded {
    pickup: Option<Vec<String>>,
    dropoff: Option<Vec<String>>,
    non_integrated: Option<Vec<String>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Pickup {
    address_list: Vec<Address>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Address {
    address_id: Value,
    address: String,
    district: String,
    city: String,
    state: String,
    zipcode: String,
    address_flag: Vec<String>,
    time_slot_list: Option<Vec<Slot>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Slot {
    date: i64,
    time_text: String,
    pickup_time_id: Value,
}

/// An id Shopee writes as a number or as text.
fn id_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    }
}

impl ShipOptions {
    fn from_parameter(p: Parameter) -> ShipOptions {
        let pickup = match (&p.info_needed.pickup, p.pickup) {
            (Some(_), Some(pickup)) => pickup
                .address_list
                .into_iter()
                .filter(|a| a.address_flag.is_empty() || a.address_flag.iter().any(|f| f == "pickup_address"))
                .map(|a| PickupAddress {
                    id: id_of(&a.address_id),
                    address: [
                        a.address.as_str(),
                        a.district.as_str(),
                        a.city.as_str(),
                        a.state.as_str(),
                        a.zipcode.as_str(),
                    ]
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join(" "),
                    default: a.address_flag.iter().any(|f| f == "default_address"),
                    slots: a
                        .time_slot_list
                        .unwrap_or_default()
                        .into_iter()
                        .map(|s| PickupSlot { id: id_of(&s.pickup_time_id), date_s: s.date, text: s.time_text })
                        .filter(|s| !s.id.is_empty())
                        .collect(),
                })
                .collect(),
            _ => Vec::new(),
        };
        ShipOptions {
            pickup,
            dropoff: p.info_needed.dropoff.is_some(),
            own_carrier: p.info_needed.non_integrated.is_some(),
            platform: false,
        }
    }
}

/// The body of `ship_order`: exactly one way of handing over, sent even when empty.
fn ship_body(order_sn: &str, how: &Handover) -> Result<Value, ChannelError> {
    let number = |s: &str, what: &str| {
        s.trim().parse::<i64>().map_err(|_| ChannelError::rejected("error_param", &format!("{what} is a number")))
    };
    Ok(match how {
        Handover::Pickup { address_id, slot_id } => json!({
            "order_sn": order_sn,
            "pickup": { "address_id": number(address_id, "address_id")?, "pickup_time_id": slot_id },
        }),
        Handover::Dropoff => json!({ "order_sn": order_sn, "dropoff": {} }),
        Handover::OwnCarrier { tracking_no } => {
            json!({ "order_sn": order_sn, "non_integrated": { "tracking_number": tracking_no } })
        }
        // Shopee asks for one of the three per order.
        Handover::Platform => {
            return Err(ChannelError::rejected(
                "handover",
                "Shopee hands a parcel over by pick-up, drop-off or the seller's own carrier",
            ))
        }
    })
}

/// The first failure of a batch call's `result_list`, as Shopee words it.
fn failure_of(response: &Value) -> Option<ChannelError> {
    let list = response.get("result_list")?.as_array()?;
    list.iter().find_map(|r| {
        let code = r.get("fail_error").and_then(Value::as_str).filter(|c| !c.is_empty())?;
        Some(ChannelError::rejected(code, r.get("fail_message").and_then(Value::as_str).unwrap_or_default()))
    })
}

impl Shopee {
    /// A batch call of a shop whose every order failed answers its `result_list` too: read
    /// it rather than the bare `common.batch_api_all_failed`.
    async fn shop_batch(&self, session: Session<'_>, path: &str, body: &Value) -> Result<Value, ChannelError> {
        let url = self.url(path, Some((session.access.expose(), &session.shop.shop_id)), &[])?;
        let (_, bytes) = answer(WHO, send(WHO, self.http.post(url).json(body)).await?).await?;
        let env: super::Envelope = crate::adapters::json(WHO, &bytes)?;
        if env.error.ends_with("batch_api_all_failed") {
            if let Some(e) = failure_of(&env.response) {
                return Err(e);
            }
        }
        match super::classify(&env.error, &env.message, true) {
            Some(e) => Err(e),
            None => Ok(env.response),
        }
    }
}

#[async_trait]
impl Shipping for Shopee {
    async fn ship_options(&self, session: Session<'_>, order_id: &str) -> Result<ShipOptions, ChannelError> {
        let env = self
            .shop_get(session, "/api/v2/logistics/get_shipping_parameter", &[("order_sn", order_id.to_string())])
            .await?;
        let p: Parameter = serde_json::from_value(env.response).map_err(|e| {
            ChannelError::Malformed(format!("shopee: shipping parameter: {}", crate::adapters::clip(&e.to_string())))
        })?;
        Ok(ShipOptions::from_parameter(p))
    }

    async fn arrange(&self, session: Session<'_>, order_id: &str, how: &Handover) -> Result<(), ChannelError> {
        self.shop_post(session, "/api/v2/logistics/ship_order", &ship_body(order_id, how)?).await?;
        Ok(())
    }

    async fn tracking_no(&self, session: Session<'_>, order_id: &str) -> Result<Option<String>, ChannelError> {
        let env = self
            .shop_get(session, "/api/v2/logistics/get_tracking_number", &[("order_sn", order_id.to_string())])
            .await?;
        let number = env.response.get("tracking_number").and_then(Value::as_str).unwrap_or_default().trim();
        Ok((!number.is_empty()).then(|| number.to_string()))
    }

    async fn label(&self, session: Session<'_>, order_id: &str, tracking_no: &str) -> Result<Vec<u8>, ChannelError> {
        let order =
            json!([{ "order_sn": order_id, "tracking_number": tracking_no, "shipping_document_type": THERMAL }]);
        let made = self
            .shop_batch(session, "/api/v2/logistics/create_shipping_document", &json!({ "order_list": order }))
            .await?;
        if let Some(e) = failure_of(&made) {
            return Err(e);
        }
        let asked = json!({ "order_list": [{ "order_sn": order_id, "shipping_document_type": THERMAL }] });
        let mut ready = false;
        for n in 0..LABEL_TRIES {
            if n > 0 {
                tokio::time::sleep(LABEL_WAIT).await;
            }
            let result = self.shop_batch(session, "/api/v2/logistics/get_shipping_document_result", &asked).await?;
            if let Some(e) = failure_of(&result) {
                return Err(e);
            }
            let status = result.pointer("/result_list/0/status").and_then(Value::as_str).unwrap_or_default();
            match status {
                "READY" => {
                    ready = true;
                    break;
                }
                "FAILED" => return Err(ChannelError::rejected("logistics.package_print_failed", "the label failed")),
                _ => {}
            }
        }
        if !ready {
            return Err(ChannelError::Unreachable("shopee: the label is still being made".into()));
        }
        let url = self.url(
            "/api/v2/logistics/download_shipping_document",
            Some((session.access.expose(), &session.shop.shop_id)),
            &[],
        )?;
        let body = json!({ "shipping_document_type": THERMAL, "order_list": [{ "order_sn": order_id }] });
        let (_, bytes) = answer(WHO, send(WHO, self.http.post(url).json(&body)).await?).await?;
        if is_pdf(&bytes) {
            return Ok(bytes.to_vec());
        }
        // Not a file: Shopee's JSON error (or something we cannot read).
        let env: super::Envelope = crate::adapters::json(WHO, &bytes)?;
        Err(super::classify(&env.error, &env.message, true)
            .unwrap_or_else(|| ChannelError::Malformed("shopee: the label is not a PDF".into())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ways_of_handing_over_come_from_info_needed() {
        // Shopee's Thai example: pick-up at the default address in two slots; drop-off too.
        let p: Parameter = serde_json::from_value(json!({
            "info_needed": { "dropoff": [], "pickup": ["address_id", "pickup_time_id"] },
            "dropoff": { "branch_list": null },
            "pickup": { "address_list": [
                { "address_id": 2826, "region": "TH", "state": "จังหวัดบึงกาฬ", "city": "อำเภอเมืองบึงกาฬ", "address": "222/58",
                  "zipcode": "38000", "address_flag": ["default_address", "pickup_address", "return_address"],
                  "time_slot_list": [{ "date": 1639472400, "pickup_time_id": "1639472400" }, { "date": 1639558800, "pickup_time_id": "1639558800" }] },
                { "address_id": 9, "address": "คลัง", "address_flag": ["return_address"], "time_slot_list": null }
            ] }
        }))
        .unwrap();
        let o = ShipOptions::from_parameter(p);
        assert!(o.dropoff && !o.own_carrier);
        assert_eq!(o.pickup.len(), 1, "a return-only address is not a pick-up one");
        let a = &o.pickup[0];
        assert_eq!(
            (a.id.as_str(), a.default, a.address.as_str()),
            ("2826", true, "222/58 อำเภอเมืองบึงกาฬ จังหวัดบึงกาฬ 38000")
        );
        assert_eq!(a.slots.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(), ["1639472400", "1639558800"]);
        let none: Parameter = serde_json::from_value(json!({ "info_needed": { "non_integrated": [] } })).unwrap();
        let o = ShipOptions::from_parameter(none);
        assert!(o.pickup.is_empty() && !o.dropoff && o.own_carrier);
    }

    #[test]
    fn ship_order_sends_one_way_even_empty() {
        let pickup = Handover::Pickup { address_id: "2826".into(), slot_id: "1639472400".into() };
        assert_eq!(
            ship_body("2112132KQ1MK9N", &pickup).unwrap(),
            json!({ "order_sn": "2112132KQ1MK9N", "pickup": { "address_id": 2826, "pickup_time_id": "1639472400" } })
        );
        assert_eq!(ship_body("A", &Handover::Dropoff).unwrap(), json!({ "order_sn": "A", "dropoff": {} }));
        assert_eq!(
            ship_body("A", &Handover::OwnCarrier { tracking_no: "AK224200239740W".into() }).unwrap(),
            json!({ "order_sn": "A", "non_integrated": { "tracking_number": "AK224200239740W" } })
        );
        let bad = Handover::Pickup { address_id: "home".into(), slot_id: "1".into() };
        assert!(matches!(ship_body("A", &bad), Err(ChannelError::Rejected { .. })));
    }

    #[test]
    fn a_batch_failure_is_read_from_its_result_list() {
        let failed = json!({ "result_list": [{ "order_sn": "2211289U7C0PUK", "fail_error": "logistics.package_can_not_print",
            "fail_message": "The package can not print now." }] });
        assert!(
            matches!(failure_of(&failed), Some(ChannelError::Rejected { code, .. }) if code == "logistics.package_can_not_print")
        );
        assert!(failure_of(&json!({ "result_list": [{ "order_sn": "22112899JG5XGU" }] })).is_none());
    }
}
