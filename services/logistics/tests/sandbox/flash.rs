//! Flash Express's open API as it behaves, for one merchant.
//!
//! Every call is a form POST with `mchId`, `nonceStr` (at most 32 characters) and `sign`;
//! the sandbox recomputes the signature with the merchant's key, by its own code (every
//! field but `sign` with a value, sorted by name, `k=v` joined with `&`, `&key=<key>`,
//! SHA-256, upper-case hex), and answers `{"code":1002,"message":"sign error"}` when it
//! differs or the merchant is not the one it knows (it has no key to check with). A
//! missing field is `{"code":1001,"message":"<field> is required"}`. Orders are kept by
//! `outTradeNo`: asking again answers the order already made. A parcel can be cancelled
//! until it is picked up; its routes come newest first; its label is a small PDF. Codes
//! other than 1, 1001 and 1002 (1000 here for a refused action) are the sandbox's own.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use axum::extract::rejection::FormRejection;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Form, Json, Router};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::{now_s, serve, Server};

/// Fields an order must have, in the order they are checked.
const REQUIRED: [&str; 18] = [
    "outTradeNo",
    "expressCategory",
    "srcName",
    "srcPhone",
    "srcProvinceName",
    "srcCityName",
    "srcPostalCode",
    "srcDetailAddress",
    "dstName",
    "dstPhone",
    "dstProvinceName",
    "dstCityName",
    "dstPostalCode",
    "dstDetailAddress",
    "articleCategory",
    "weight",
    "insured",
    "codEnabled",
];

/// A running sandbox.
pub struct FlashSandbox {
    /// Its base URL.
    pub base_url: String,
    state: Arc<Mutex<Inner>>,
    _server: Server,
}

struct Order {
    pno: String,
    fields: HashMap<String, String>,
    state: i64,
    routes: Vec<Value>,
}

struct Inner {
    mch_id: String,
    key: String,
    orders: Vec<Order>,
    calls: usize,
    huge_labels: bool,
    down: bool,
}

type Shared = Arc<Mutex<Inner>>;

impl FlashSandbox {
    /// A sandbox knowing the merchant `mch_id` with `key`.
    pub async fn start(mch_id: &str, key: &str) -> Self {
        let state = Arc::new(Mutex::new(Inner {
            mch_id: mch_id.to_string(),
            key: key.to_string(),
            orders: Vec::new(),
            calls: 0,
            huge_labels: false,
            down: false,
        }));
        let app = Router::new()
            .route("/open/v3/orders", post(create))
            .route("/open/v1/orders/{pno}/cancel", post(cancel))
            .route("/open/v1/orders/{pno}/routes", post(routes))
            .route("/open/v1/orders/{pno}/small/pre_print", post(label))
            .with_state(state.clone());
        let server = serve(app).await;
        FlashSandbox { base_url: server.base_url.clone(), state, _server: server }
    }

    fn with<T>(&self, f: impl FnOnce(&mut Inner) -> T) -> T {
        f(&mut self.state.lock().unwrap())
    }

    /// How many orders it keeps.
    pub fn orders(&self) -> usize {
        self.with(|s| s.orders.len())
    }

    /// How many calls passed the signature check.
    pub fn calls(&self) -> usize {
        self.with(|s| s.calls)
    }

    /// A field of the order `pno` as it was sent.
    pub fn field(&self, pno: &str, name: &str) -> Option<String> {
        self.with(|s| s.orders.iter().find(|o| o.pno == pno).and_then(|o| o.fields.get(name).cloned()))
    }

    /// The courier moves the parcel: a route at `at_s` (unix seconds) into `state`.
    pub fn route(&self, pno: &str, state: i64, action: &str, message: &str, at_s: i64) {
        self.with(|s| {
            let order = s.orders.iter_mut().find(|o| o.pno == pno).expect("a parcel of the sandbox");
            order.state = state;
            order.routes.push(json!({ "routedAt": at_s, "routeAction": action, "message": message, "state": state }));
        });
    }

    /// Labels from now on are 6 MB.
    pub fn huge_labels(&self) {
        self.with(|s| s.huge_labels = true);
    }

    /// While down, every call answers 503.
    pub fn down(&self, down: bool) {
        self.with(|s| s.down = down);
    }
}

fn answer(code: i64, message: &str, data: Value) -> Response {
    Json(json!({ "code": code, "message": message, "data": data })).into_response()
}

/// The sandbox's own signature, to compare with the one sent.
fn expected_sign(fields: &HashMap<String, String>, key: &str) -> String {
    let mut pairs: Vec<(&String, &String)> = fields.iter().filter(|(k, v)| *k != "sign" && !v.is_empty()).collect();
    pairs.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut text = String::new();
    for (k, v) in pairs {
        text.push_str(k);
        text.push('=');
        text.push_str(v);
        text.push('&');
    }
    text.push_str("key=");
    text.push_str(key);
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02X}")).collect()
}

/// The checks every call passes first: the form, the merchant and the signature.
fn admit(
    s: &mut Inner,
    form: Result<Form<HashMap<String, String>>, FormRejection>,
) -> Result<HashMap<String, String>, Box<Response>> {
    if s.down {
        return Err(Box::new(super::outage()));
    }
    let Ok(Form(fields)) = form else {
        let refused = Json(json!({"code": 1000, "message": "form expected", "data": null}));
        return Err(Box::new((StatusCode::UNSUPPORTED_MEDIA_TYPE, refused).into_response()));
    };
    for name in ["mchId", "nonceStr", "sign"] {
        if fields.get(name).is_none_or(|v| v.is_empty()) {
            return Err(Box::new(answer(1001, &format!("{name} is required"), Value::Null)));
        }
    }
    if fields["nonceStr"].len() > 32 {
        return Err(Box::new(answer(1001, "nonceStr must be at most 32 characters", Value::Null)));
    }
    if fields["mchId"] != s.mch_id || fields["sign"] != expected_sign(&fields, &s.key) {
        return Err(Box::new(answer(1002, "sign error", Value::Null)));
    }
    s.calls += 1;
    Ok(fields)
}

fn order_data(mch_id: &str, o: &Order) -> Value {
    json!({
        "pno": o.pno,
        "mchId": mch_id,
        "outTradeNo": o.fields["outTradeNo"],
        "sortCode": "2B1-09",
        "dstStoreName": "BKK_SP-สามเสน",
        "sortingLineCode": "A01",
        "earlyFlightEnabled": false,
        "packEnabled": false,
        "upcountryCharge": false,
    })
}

fn positive_integer(v: &str) -> bool {
    !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) && v.parse::<i64>().is_ok_and(|n| n > 0)
}

async fn create(State(state): State<Shared>, form: Result<Form<HashMap<String, String>>, FormRejection>) -> Response {
    let mut s = state.lock().unwrap();
    let fields = match admit(&mut s, form) {
        Ok(f) => f,
        Err(r) => return *r,
    };
    if let Some(missing) = REQUIRED.iter().find(|name| fields.get(**name).is_none_or(|v| v.trim().is_empty())) {
        return answer(1001, &format!("{missing} is required"), Value::Null);
    }
    if !positive_integer(&fields["weight"]) {
        return answer(1001, "weight must be a whole number of grams above zero", Value::Null);
    }
    for name in ["srcPostalCode", "dstPostalCode"] {
        if fields[name].len() != 5 || !fields[name].bytes().all(|b| b.is_ascii_digit()) {
            return answer(1001, &format!("{name} is invalid"), Value::Null);
        }
    }
    match fields["codEnabled"].as_str() {
        "0" => {}
        "1" if fields.get("codAmount").is_some_and(|a| positive_integer(a)) => {}
        "1" => return answer(1001, "codAmount is required", Value::Null),
        _ => return answer(1001, "codEnabled is invalid", Value::Null),
    }
    let mch_id = s.mch_id.clone();
    if let Some(existing) = s.orders.iter().find(|o| o.fields["outTradeNo"] == fields["outTradeNo"]) {
        return answer(1, "success", order_data(&mch_id, existing));
    }
    let pno = format!("TH0104{:07}A", s.orders.len() + 1);
    let order = Order { pno, fields, state: 0, routes: Vec::new() };
    let data = order_data(&mch_id, &order);
    s.orders.push(order);
    answer(1, "success", data)
}

async fn cancel(
    State(state): State<Shared>,
    Path(pno): Path<String>,
    form: Result<Form<HashMap<String, String>>, FormRejection>,
) -> Response {
    let mut s = state.lock().unwrap();
    if let Err(r) = admit(&mut s, form) {
        return *r;
    }
    let Some(order) = s.orders.iter_mut().find(|o| o.pno == pno) else {
        return answer(1000, "parcel not found", Value::Null);
    };
    match order.state {
        0 => {
            order.state = 9;
            order.routes.push(json!({
                "routedAt": now_s(),
                "routeAction": "CANCEL_PARCEL",
                "message": "ผู้ส่งยกเลิกพัสดุ",
                "state": 9,
            }));
            answer(1, "success", Value::Null)
        }
        9 => answer(1000, "parcel already cancelled", Value::Null),
        _ => answer(1000, "parcel picked up, it can no longer be cancelled", Value::Null),
    }
}

const STATE_TEXT: [&str; 10] = [
    "waiting for pickup",
    "picked up",
    "in transit",
    "delivering",
    "detained",
    "signed",
    "problem",
    "returned",
    "closed",
    "cancelled",
];

async fn routes(
    State(state): State<Shared>,
    Path(pno): Path<String>,
    form: Result<Form<HashMap<String, String>>, FormRejection>,
) -> Response {
    let mut s = state.lock().unwrap();
    if let Err(r) = admit(&mut s, form) {
        return *r;
    }
    let Some(order) = s.orders.iter().find(|o| o.pno == pno) else {
        return answer(1000, "parcel not found", Value::Null);
    };
    let newest_first: Vec<Value> = order.routes.iter().rev().cloned().collect();
    answer(
        1,
        "success",
        json!({
            "pno": order.pno,
            "state": order.state,
            "stateText": STATE_TEXT.get(order.state as usize).copied().unwrap_or(""),
            "routes": newest_first,
        }),
    )
}

async fn label(
    State(state): State<Shared>,
    Path(pno): Path<String>,
    form: Result<Form<HashMap<String, String>>, FormRejection>,
) -> Response {
    let mut s = state.lock().unwrap();
    if let Err(r) = admit(&mut s, form) {
        return *r;
    }
    let Some(order) = s.orders.iter().find(|o| o.pno == pno) else {
        return answer(1000, "parcel not found", Value::Null);
    };
    if order.state == 9 {
        return answer(1000, "parcel cancelled", Value::Null);
    }
    let mut body = pdf(&order.pno);
    if s.huge_labels {
        let tail = body.split_off(body.len() - "%%EOF\n".len());
        body.extend(std::iter::repeat_n(b' ', 6 * 1024 * 1024));
        body.extend(tail);
    }
    ([(header::CONTENT_TYPE, "application/pdf")], body).into_response()
}

/// A one-page PDF showing `text`, its cross-reference table pointing at each object.
pub fn pdf(text: &str) -> Vec<u8> {
    let content = format!("BT /F1 18 Tf 20 380 Td ({text}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 283 425] /Contents 4 0 R \
         /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_string(),
        format!("<< /Length {} >>\nstream\n{content}\nendstream", content.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = BTreeMap::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.insert(i + 1, out.len());
        out.extend(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for offset in offsets.values() {
        out.extend(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend(
        format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes(),
    );
    out
}
