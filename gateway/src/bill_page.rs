//! The buyer's bill page (`/bill/{token}`): what an order's bill asks and how to pay it,
//! without signing in, in Thai or English. Served as one small HTML document with its
//! styles inline, no script and no font to fetch, so it opens fast on a phone on a slow
//! connection; its form (a slip, .jpg, .jpeg or .png up to 5 MB) posts back to the page.
//! The token is the only key: an unknown one answers the same 'not found' whatever it is.
//! The page shows the shop, the lines and money (never costs), the shipping address while
//! the bill may be paid (never after: PDPA), the store's active accounts (a PromptPay
//! account with a QR for the exact amount), and the bill's state: payable until when,
//! waiting for the shop's confirmation, paid, expired, cancelled, complete. Slips are
//! limited per address and per bill a minute, and a bill takes a bounded number in all;
//! every slip is kept. The shop can give a bill a new link, which ends the old one.

use bo_kit::Code;
use std::fmt::Write as _;

use axum::extract::{ConnectInfo, Multipart, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use bo_proto::orders::v1 as pb;
use bo_proto::orders::v1::{BillState, OrderState, PaymentState};
use bo_proto::payments::v1 as paypb;
use bo_proto::stores::v1 as spb;
use serde::Deserialize;

use crate::error::ApiError;
use crate::state::AppState;
use crate::uploads::Staged;

/// The page's own policy: nothing but itself, its inline styles, its pictures and its form.
const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; \
     base-uri 'none'; frame-ancestors 'none'";

/// `/bill/{token}` and its slip form.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/bill/{token}", get(page))
        .route(
            "/bill/{token}/slip",
            post(slip).layer(axum::extract::DefaultBodyLimit::max(crate::uploads::SLIP_FORM_LIMIT)),
        )
        .with_state(state)
}

/// The page's language and what it was just told.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PageQuery {
    /// th or en (else the browser's language, Thai first).
    pub lang: Option<String>,
    /// A slip was just received.
    pub sent: Option<String>,
}

/// Thai or English.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Th,
    En,
}

impl Lang {
    fn of(asked: Option<&str>, headers: &HeaderMap) -> Lang {
        match asked {
            Some("en") => Lang::En,
            Some("th") => Lang::Th,
            _ => {
                let accept = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or("");
                if accept.trim_start().to_ascii_lowercase().starts_with("en") {
                    Lang::En
                } else {
                    Lang::Th
                }
            }
        }
    }

    fn code(self) -> &'static str {
        match self {
            Lang::Th => "th",
            Lang::En => "en",
        }
    }

    fn t(self, key: &str) -> &'static str {
        let (th, en) = match key {
            "title" => ("บิลคำสั่งซื้อ", "Bill for order"),
            "from" => ("จากร้าน", "from"),
            "not_found" => ("ไม่พบบิลนี้", "This bill was not found"),
            "not_found_hint" => {
                ("ลิงก์อาจไม่ถูกต้อง กรุณาขอลิงก์ใหม่จากร้านค้า", "The link may be wrong. Please ask the shop for a new one.")
            }
            "items" => ("รายการสินค้า", "Items"),
            "subtotal" => ("รวมค่าสินค้า", "Goods"),
            "discount" => ("ส่วนลด", "Discount"),
            "shipping" => ("ค่าจัดส่ง", "Shipping"),
            "fee" => ("ค่าธรรมเนียมเพิ่มเติม", "Additional fee"),
            "vat_included" => ("ภาษีมูลค่าเพิ่ม 7% (รวมในราคา)", "VAT 7% (included)"),
            "vat_added" => ("ภาษีมูลค่าเพิ่ม 7%", "VAT 7%"),
            "total" => ("ยอดรวมคำสั่งซื้อ", "Order total"),
            "to_pay" => ("ยอดที่ต้องชำระ", "Amount to pay"),
            "this_bill" => (
                "บิลนี้เป็นส่วนหนึ่งของคำสั่งซื้อที่จัดส่งจากหลายคลัง",
                "This bill is one part of an order shipped from several warehouses",
            ),
            "ship_to" => ("ที่อยู่จัดส่ง", "Shipping address"),
            "pay_to" => ("ชำระเงินเข้าบัญชี", "Pay to"),
            "no_accounts" => (
                "ร้านยังไม่ได้เพิ่มบัญชีรับเงิน กรุณาติดต่อร้านค้า",
                "The shop has not added an account yet. Please contact the shop.",
            ),
            "promptpay" => ("พร้อมเพย์", "PromptPay"),
            "scan" => ("สแกนด้วยแอปธนาคารเพื่อชำระตามยอด", "Scan with your banking app to pay the exact amount"),
            "account_no" => ("เลขที่บัญชี", "Account number"),
            "account_name" => ("ชื่อบัญชี", "Account name"),
            "branch" => ("สาขา", "Branch"),
            "paypal" => ("PayPal", "PayPal"),
            "send_slip" => ("แนบสลิปการโอนเงิน", "Send your transfer slip"),
            "slip_hint" => ("ไฟล์ .jpg, .jpeg หรือ .png ขนาดไม่เกิน 5 MB", "A .jpg, .jpeg or .png file of at most 5 MB"),
            "paid_to" => ("โอนเข้าบัญชี", "Paid to"),
            "any_account" => ("ไม่ระบุ", "Not sure"),
            "send" => ("ส่งสลิป", "Send slip"),
            "sent" => (
                "ได้รับสลิปแล้ว ร้านค้าจะตรวจสอบและยืนยันการชำระเงิน",
                "Your slip was received. The shop will check it and confirm your payment.",
            ),
            "pending" => (
                "รอร้านค้ายืนยันการชำระเงิน หากส่งสลิปผิด สามารถส่งใหม่ได้",
                "Waiting for the shop to confirm your payment. If you sent the wrong slip, you may send another.",
            ),
            "paid" => ("ชำระเงินแล้ว ขอบคุณค่ะ", "Paid. Thank you!"),
            "expired" => ("บิลนี้หมดอายุแล้ว กรุณาติดต่อร้านค้า", "This bill has expired. Please contact the shop."),
            "closed" => ("คำสั่งซื้อนี้ถูกยกเลิกแล้ว", "This order was cancelled."),
            "finished" => ("คำสั่งซื้อนี้เสร็จสิ้นแล้ว ขอบคุณค่ะ", "This order is complete. Thank you!"),
            "slip_limit" => (
                "บิลนี้รับสลิปครบจำนวนแล้ว กรุณาติดต่อร้านค้า",
                "This bill has taken as many slips as it can. Please contact the shop.",
            ),
            "slow_down" => (
                "มีการส่งสลิปจากที่นี่บ่อยเกินไป กรุณารอสักครู่แล้วลองใหม่",
                "Too many slips were sent from here. Please wait a minute and try again.",
            ),
            "cod" => (
                "เก็บเงินปลายทาง กรุณาชำระเงินกับพนักงานขนส่งเมื่อได้รับสินค้า",
                "Cash on delivery: please pay the carrier when your parcel arrives.",
            ),
            "pay_by" => ("กรุณาชำระภายใน", "Please pay by"),
            "slip_required" => ("กรุณาเลือกไฟล์สลิป", "Please choose your slip's file"),
            "slip_type" => ("สลิปต้องเป็นไฟล์ .jpg, .jpeg หรือ .png", "The slip must be a .jpg, .jpeg or .png file"),
            "slip_too_large" => ("ไฟล์สลิปต้องไม่เกิน 5 MB", "The slip's file must be at most 5 MB"),
            "slip_unreadable" => {
                ("อ่านไฟล์สลิปไม่ได้ กรุณาเลือกไฟล์อื่น", "The slip's file cannot be read. Please choose another.")
            }
            "account_unknown" => ("กรุณาเลือกบัญชีจากรายการ", "Please choose an account from the list"),
            "already_paid" => ("บิลนี้ชำระเงินแล้ว", "This bill is already paid"),
            "try_again" => ("ส่งสลิปไม่สำเร็จ กรุณาลองใหม่อีกครั้ง", "The slip could not be sent. Please try again."),
            "other_lang" => ("English", "ภาษาไทย"),
            "qty" => ("จำนวน", "Qty"),
            _ => ("", ""),
        };
        match self {
            Lang::Th => th,
            Lang::En => en,
        }
    }
}

/// Escapes text for HTML.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Satang as "฿1,234.50".
pub fn money(satang: i64) -> String {
    let sign = if satang < 0 { "-" } else { "" };
    let s = satang.unsigned_abs();
    let whole = (s / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{sign}฿{grouped}.{:02}", s % 100)
}

/// A moment in Thailand's time: "28 พ.ย. 2569 19:00" or "28 Nov 2026, 19:00".
pub fn moment(ms: i64, lang: Lang) -> String {
    const TH: [&str; 12] =
        ["ม.ค.", "ก.พ.", "มี.ค.", "เม.ย.", "พ.ค.", "มิ.ย.", "ก.ค.", "ส.ค.", "ก.ย.", "ต.ค.", "พ.ย.", "ธ.ค."];
    const EN: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let Ok(at) = ::time::OffsetDateTime::from_unix_timestamp(ms / 1000) else { return String::new() };
    let at = at.to_offset(::time::macros::offset!(+7));
    let m = usize::from(u8::from(at.month())) - 1;
    match lang {
        Lang::Th => format!("{} {} {} {:02}:{:02}", at.day(), TH[m], at.year() + 543, at.hour(), at.minute()),
        Lang::En => format!("{} {} {}, {:02}:{:02}", at.day(), EN[m], at.year(), at.hour(), at.minute()),
    }
}

/// An account the buyer may pay to.
struct Account {
    channel: paypb::StoreChannel,
    qr_svg: Option<String>,
    masked_id: String,
}

/// Everything the page shows.
struct Bill {
    token: String,
    store: spb::Store,
    bill: pb::Bill,
    order: pb::Order,
    payment: Option<pb::Payment>,
    accounts: Vec<Account>,
}

fn html_response(status: StatusCode, body: String) -> Response {
    let mut res = (status, body).into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(POLICY));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert("x-robots-tag", HeaderValue::from_static("noindex"));
    res
}

const STYLE: &str = "*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Tahoma,sans-serif;\
background:#f4f5f7;color:#1f2329;font-size:16px;line-height:1.5}main{max-width:560px;margin:0 auto;padding:12px}\
section{background:#fff;border-radius:12px;padding:16px;margin:0 0 12px;box-shadow:0 1px 2px rgba(0,0,0,.06)}\
h1{font-size:20px;margin:0}h2{font-size:16px;margin:0 0 8px}.muted{color:#646a73;font-size:14px}\
.shop{display:flex;gap:12px;align-items:center}.shop img{width:48px;height:48px;border-radius:8px;object-fit:cover}\
.lang{display:block;text-align:right;font-size:14px;margin:0 0 8px}table{width:100%;border-collapse:collapse}td{padding:6px 0;vertical-align:top}\
td.n{text-align:right;white-space:nowrap;padding-left:8px}tr.sum td{border-top:1px solid #e5e6eb;font-weight:600}\
.pay{font-size:28px;font-weight:700;color:#0b6e4f}.note{padding:12px;border-radius:8px;margin:0 0 12px}\
.ok{background:#e8f7ef;color:#0b6e4f}.wait{background:#fff7e6;color:#8a5a00}.bad{background:#fdecec;color:#b42318}\
.acct{border:1px solid #e5e6eb;border-radius:8px;padding:12px;margin:8px 0}.qr{text-align:center}\
.qr svg{width:220px;height:220px}label{display:block;margin:8px 0}input[type=file]{width:100%;padding:8px 0}\
button{width:100%;padding:12px;border:0;border-radius:8px;background:#1554ad;color:#fff;font-size:16px;font-weight:600}";

fn shell(lang: Lang, title: &str, other: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"{}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width,initial-scale=1\"><title>{}</title><style>{STYLE}</style></head><body><main>\
         <a class=\"lang\" href=\"{}\" data-testid=\"bill-lang\">{}</a>{body}</main></body></html>",
        lang.code(),
        esc(title),
        esc(other),
        lang.t("other_lang"),
    )
}

fn not_found(lang: Lang, token: &str) -> Response {
    let other = format!("/bill/{}?lang={}", esc(token), if lang == Lang::Th { "en" } else { "th" });
    let body = format!(
        "<section><h1 data-testid=\"bill-missing\">{}</h1><p class=\"muted\">{}</p></section>",
        lang.t("not_found"),
        lang.t("not_found_hint")
    );
    html_response(StatusCode::NOT_FOUND, shell(lang, lang.t("not_found"), &other, &body))
}

/// The bill of `token` with its shop and accounts; None when no bill has it.
async fn load(state: &AppState, token: &str) -> Result<Option<Bill>, ApiError> {
    let found =
        state.orders().get_bill_page(state.system().request(pb::GetBillPageRequest { token: token.into() })).await;
    let r = match found {
        Ok(r) => r.into_inner(),
        Err(s) if s.code() == tonic::Code::NotFound => return Ok(None),
        Err(s) => return Err(s.into()),
    };
    let ctx = state.identity.acting(r.store_id, 0);
    let store =
        state.stores().get_store(ctx.request(spb::GetStoreRequest {})).await?.into_inner().store.unwrap_or_default();
    let bill = r.bill.unwrap_or_default();
    let channels = state
        .payments()
        .list_store_channels(ctx.request(paypb::ListStoreChannelsRequest {
            page: Some(bo_proto::common::v1::PageRequest { page: 1, limit: -1 }),
            status: paypb::ChannelStatus::Active.into(),
            ..Default::default()
        }))
        .await?
        .into_inner()
        .store_channels;
    let mut accounts = Vec::new();
    for c in channels.into_iter().filter(|c| c.channel_type != "cod") {
        let (mut qr_svg, mut masked_id) = (None, String::new());
        if c.channel_type == "promptpay" {
            let qr = state
                .payments()
                .prompt_pay_qr(ctx.request(paypb::PromptPayQrRequest {
                    store_channel_id: c.id,
                    amount_satang: bill.amount,
                    with_amount: bill.amount > 0,
                }))
                .await?
                .into_inner();
            qr_svg = Some(crate::routes::payments::qr_svg(&qr.payload)?);
            masked_id = qr.masked_id;
        }
        accounts.push(Account { channel: c, qr_svg, masked_id });
    }
    Ok(Some(Bill {
        token: token.into(),
        store,
        bill,
        order: r.order.unwrap_or_default(),
        payment: r.payment,
        accounts,
    }))
}

/// Where the bill stands for the buyer: (class, message), or None while payable.
fn standing(b: &Bill, lang: Lang) -> Option<(&'static str, String)> {
    if matches!(b.order.state(), OrderState::Cancelled | OrderState::Failed) {
        return Some(("bad", lang.t("closed").into()));
    }
    match b.payment.as_ref().map(|p| p.state()) {
        Some(PaymentState::Paid) => return Some(("ok", lang.t("paid").into())),
        Some(PaymentState::Pending) => return Some(("wait", lang.t("pending").into())),
        _ => {}
    }
    if b.order.state() == OrderState::Closed {
        return Some(("ok", lang.t("finished").into()));
    }
    if b.order.cod {
        return Some(("wait", lang.t("cod").into()));
    }
    if b.bill.state() == BillState::Expired {
        return Some(("bad", lang.t("expired").into()));
    }
    None
}

/// Whether the page shows who the buyer is and where the order goes: only while the bill
/// may still be paid (PDPA). A paid, expired or cancelled bill's link, forwarded or found
/// later, shows the order's lines and where it stands, and no one's name, phone or address.
fn shows_buyer(b: &Bill) -> bool {
    !matches!(b.order.state(), OrderState::Cancelled | OrderState::Failed | OrderState::Closed)
        && b.bill.state() == BillState::Active
        && !matches!(b.payment.as_ref().map(|p| p.state()), Some(PaymentState::Paid))
}

fn can_send_slip(b: &Bill) -> bool {
    !b.order.cod
        && !matches!(b.order.state(), OrderState::Cancelled | OrderState::Failed)
        && b.bill.state() == BillState::Active
        && !matches!(b.payment.as_ref().map(|p| p.state()), Some(PaymentState::Paid))
}

fn render(b: &Bill, lang: Lang, sent: bool, problem: Option<&str>) -> String {
    let o = &b.order;
    let t = o.totals.clone().unwrap_or_default();
    let mut body = String::new();
    let logo = if b.store.logo.is_empty() {
        String::new()
    } else {
        format!("<img src=\"{}\" alt=\"\">", esc(&crate::routes::pictures::picture_url(&b.store.logo)))
    };
    let _ = write!(
        body,
        "<section><div class=\"shop\">{logo}<div><div class=\"muted\">{}</div><h1 data-testid=\"bill-shop\">{}</h1></div></div>\
         <p style=\"margin:12px 0 0\">{} <strong data-testid=\"bill-order-no\">{}</strong></p>\
         <div class=\"muted\">{}</div><div class=\"pay\" data-testid=\"bill-amount\">{}</div>",
        lang.t("from"),
        esc(&b.store.name),
        lang.t("title"),
        esc(&o.order_no),
        lang.t("to_pay"),
        money(b.bill.amount),
    );
    if b.bill.amount != t.total {
        let _ = write!(body, "<p class=\"muted\">{}</p>", lang.t("this_bill"));
    }
    if b.bill.expires_at_ms > 0 && b.bill.state() == BillState::Active && standing(b, lang).is_none() {
        let _ = write!(
            body,
            "<p class=\"muted\" data-testid=\"bill-due\">{} {}</p>",
            lang.t("pay_by"),
            moment(b.bill.expires_at_ms, lang)
        );
    }
    body.push_str("</section>");
    if sent {
        let _ = write!(body, "<div class=\"note ok\" data-testid=\"bill-sent\">{}</div>", lang.t("sent"));
    } else if let Some((class, text)) = standing(b, lang) {
        let _ = write!(body, "<div class=\"note {class}\" data-testid=\"bill-standing\">{}</div>", esc(&text));
    }
    if let Some(p) = problem {
        let _ = write!(body, "<div class=\"note bad\" role=\"alert\" data-testid=\"bill-problem\">{}</div>", esc(p));
    }

    // The lines and money.
    let _ = write!(body, "<section><h2>{}</h2><table data-testid=\"bill-items\">", lang.t("items"));
    for i in &o.items {
        let variant = if i.variant.is_empty() {
            String::new()
        } else {
            format!("<div class=\"muted\">{}</div>", esc(&i.variant))
        };
        let _ = write!(
            body,
            "<tr><td>{}{variant}<div class=\"muted\">{} × {}</div></td><td class=\"n\">{}</td></tr>",
            esc(&i.product_name),
            i.quantity,
            money(i.price),
            money(i.price.saturating_mul(i.quantity)),
        );
    }
    let row = |body: &mut String, label: &str, v: String| {
        let _ = write!(body, "<tr><td class=\"muted\">{}</td><td class=\"n\">{v}</td></tr>", esc(label));
    };
    row(&mut body, lang.t("subtotal"), money(t.subtotal));
    if t.discount_amount > 0 {
        row(&mut body, lang.t("discount"), money(-t.discount_amount));
    }
    if t.shipping_total > 0 {
        row(&mut body, lang.t("shipping"), money(t.shipping_total));
    }
    if t.additional_fee > 0 {
        row(&mut body, lang.t("fee"), money(t.additional_fee));
    }
    row(&mut body, lang.t(if o.vat_included { "vat_included" } else { "vat_added" }), money(t.vat_amount));
    let _ = write!(
        body,
        "<tr class=\"sum\"><td>{}</td><td class=\"n\" data-testid=\"bill-total\">{}</td></tr></table></section>",
        lang.t("total"),
        money(t.total)
    );

    // Where it goes.
    if let Some(a) = o.shipping_address.as_ref().filter(|_| shows_buyer(b)) {
        if !a.name.is_empty() || !a.address.is_empty() {
            let place = [&a.address, &a.sub_district, &a.district, &a.state_province, &a.city, &a.postcode]
                .iter()
                .filter(|s| !s.is_empty())
                .map(|s| esc(s))
                .collect::<Vec<_>>()
                .join(" ");
            let _ = write!(
                body,
                "<section><h2>{}</h2><div data-testid=\"bill-address\"><strong>{}</strong> {}<div>{place}</div></div></section>",
                lang.t("ship_to"),
                esc(&a.name),
                esc(&a.tel),
            );
        }
    }

    // How to pay, and the slip.
    if can_send_slip(b) {
        let _ = write!(body, "<section><h2>{}</h2>", lang.t("pay_to"));
        if b.accounts.is_empty() {
            let _ = write!(body, "<p class=\"muted\">{}</p>", lang.t("no_accounts"));
        }
        for a in &b.accounts {
            let c = &a.channel;
            let _ = write!(body, "<div class=\"acct\" data-testid=\"bill-account-{}\">", c.id);
            match c.channel_type.as_str() {
                "promptpay" => {
                    let _ = write!(
                        body,
                        "<strong>{}</strong><div>{}: {}</div><div class=\"muted\">{}</div>",
                        lang.t("promptpay"),
                        lang.t("account_name"),
                        esc(&c.acc_name),
                        esc(&a.masked_id)
                    );
                    if let Some(svg) = &a.qr_svg {
                        let _ = write!(
                            body,
                            "<div class=\"qr\" data-testid=\"bill-qr\">{svg}<div class=\"muted\">{}</div></div>",
                            lang.t("scan")
                        );
                    }
                }
                "paypal" => {
                    let _ = write!(body, "<strong>{}</strong><div>{}</div>", lang.t("paypal"), esc(&c.email));
                }
                _ => {
                    let name = c.bank.as_ref().map(|b| if lang == Lang::Th { &b.name_th } else { &b.name_en });
                    let name = name.map_or("", |n| n.as_str());
                    let _ = write!(
                        body,
                        "<strong>{}</strong><div>{}: <span data-testid=\"bill-acc-no\">{}</span></div><div>{}: {}</div>",
                        esc(name),
                        lang.t("account_no"),
                        esc(&c.acc_no),
                        lang.t("account_name"),
                        esc(&c.acc_name)
                    );
                    if !c.branch.is_empty() {
                        let _ = write!(body, "<div class=\"muted\">{}: {}</div>", lang.t("branch"), esc(&c.branch));
                    }
                }
            }
            body.push_str("</div>");
        }
        body.push_str("</section>");
        let _ = write!(
            body,
            "<section><h2>{}</h2><form method=\"post\" action=\"/bill/{}/slip?lang={}\" enctype=\"multipart/form-data\" \
             data-testid=\"bill-slip-form\"><input type=\"hidden\" name=\"lang\" value=\"{}\">",
            lang.t("send_slip"),
            esc(&b.token),
            lang.code(),
            lang.code()
        );
        if b.accounts.len() > 1 {
            let _ = write!(body, "<div class=\"muted\">{}</div>", lang.t("paid_to"));
            for a in &b.accounts {
                let c = &a.channel;
                let label = match c.channel_type.as_str() {
                    "promptpay" => format!("{} {}", lang.t("promptpay"), a.masked_id),
                    "paypal" => format!("PayPal {}", c.email),
                    _ => format!("{} {}", c.bank.as_ref().map_or("", |b| b.short.as_str()), c.acc_no),
                };
                let _ = write!(
                    body,
                    "<label><input type=\"radio\" name=\"store_channel_id\" value=\"{}\"> {}</label>",
                    c.id,
                    esc(&label)
                );
            }
            let _ = write!(
                body,
                "<label><input type=\"radio\" name=\"store_channel_id\" value=\"0\" checked> {}</label>",
                lang.t("any_account")
            );
        } else if let Some(a) = b.accounts.first() {
            let _ = write!(body, "<input type=\"hidden\" name=\"store_channel_id\" value=\"{}\">", a.channel.id);
        }
        let _ = write!(
            body,
            "<label><input type=\"file\" name=\"file\" accept=\".jpg,.jpeg,.png,image/jpeg,image/png\" required \
             data-testid=\"bill-slip-file\"></label><div class=\"muted\">{}</div><p><button type=\"submit\" \
             data-testid=\"bill-slip-send\">{}</button></p></form></section>",
            lang.t("slip_hint"),
            lang.t("send")
        );
    }
    let other = format!("/bill/{}?lang={}", b.token, if lang == Lang::Th { "en" } else { "th" });
    let title = format!("{} {} · {}", lang.t("title"), o.order_no, b.store.name);
    shell(lang, &title, &other, &body)
}

async fn page(
    State(state): State<AppState>,
    Path(token): Path<String>,
    Query(q): Query<PageQuery>,
    headers: HeaderMap,
) -> Response {
    let lang = Lang::of(q.lang.as_deref(), &headers);
    match load(&state, &token).await {
        Ok(Some(b)) => html_response(StatusCode::OK, render(&b, lang, q.sent.is_some(), None)),
        Ok(None) => not_found(lang, &token),
        Err(e) => e.into_response(),
    }
}

/// The message of a refused slip.
fn problem_of(e: &ApiError, lang: Lang) -> &'static str {
    let field = e.fields.first().map(|f| f.code.as_str()).unwrap_or("");
    match (e.code, field) {
        (Code::PayloadTooLarge, _) => lang.t("slip_too_large"),
        (_, "photo_too_large" | "slip_too_large") => lang.t("slip_too_large"),
        (_, "validation.photo_type") => lang.t("slip_type"),
        (_, "validation.photo_unreadable" | "validation.photo_dimensions") => lang.t("slip_unreadable"),
        (_, "validation.photo_required") => lang.t("slip_required"),
        (_, "validation.payment_channel_unknown") => lang.t("account_unknown"),
        (Code::BillExpired, _) => lang.t("expired"),
        (Code::BillOrderClosed, _) => lang.t("closed"),
        (Code::PaymentAlreadyProcessed | Code::PaymentAlreadyConfirmed, _) => lang.t("already_paid"),
        (Code::BillSlipLimit, _) => lang.t("slip_limit"),
        (Code::TooManyAttempts, _) => lang.t("slow_down"),
        _ => lang.t("try_again"),
    }
}

async fn slip(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    Path(token): Path<String>,
    Query(q): Query<PageQuery>,
    headers: HeaderMap,
    form: Multipart,
) -> Response {
    let lang = Lang::of(q.lang.as_deref(), &headers);
    let b = match load(&state, &token).await {
        Ok(Some(b)) => b,
        Ok(None) => return not_found(lang, &token),
        Err(e) => return e.into_response(),
    };
    // Every slip counts, per address and per bill, before its picture is read: a flood of
    // slips costs the shop neither its timeline nor everyone's CPU.
    let ip = crate::auth::client_ip(peer.ip(), &headers, &state.trusted_proxies);
    let Some(attempt) = state.slip_limiter.begin(ip, &format!("bill:{token}")) else {
        let e = ApiError::new(StatusCode::TOO_MANY_REQUESTS, Code::TooManyAttempts);
        return html_response(e.status, render(&b, lang, false, Some(problem_of(&e, lang))));
    };
    let answer = take_slip(&state, b, token, lang, headers, form).await;
    attempt.failed();
    answer
}

async fn take_slip(
    state: &AppState,
    b: Bill,
    token: String,
    mut lang: Lang,
    headers: HeaderMap,
    mut form: Multipart,
) -> Response {
    let store_id = b.order.store_id;
    let mut staged = Staged::new(state.files.clone());
    let mut channel: i64 = 0;
    let mut refused: Option<ApiError> = None;
    loop {
        let field = match form.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(_) => {
                refused = Some(ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, Code::PayloadTooLarge));
                break;
            }
        };
        match field.name() {
            Some("file") if staged.is_empty() => {
                if let Err(e) =
                    staged.stage(store_id, field, bo_kit::images::MAX_BYTES as u64, "file", "photo_too_large").await
                {
                    refused = Some(e);
                    break;
                }
            }
            Some("store_channel_id") => {
                channel = field.text().await.ok().and_then(|t| t.trim().parse().ok()).unwrap_or(-1)
            }
            Some("lang") => {
                if let Ok(t) = field.text().await {
                    lang = Lang::of(Some(t.trim()), &headers);
                }
            }
            _ => {}
        }
    }
    let outcome: Result<(), ApiError> = async {
        if let Some(e) = refused {
            return Err(e);
        }
        if staged.is_empty() {
            return Err(ApiError::invalid_field("file", "validation.photo_required"));
        }
        let channel_type = match channel {
            0 => String::new(),
            id => b
                .accounts
                .iter()
                .find(|a| a.channel.id == id)
                .map(|a| a.channel.channel_type.clone())
                .ok_or_else(|| ApiError::invalid_field("store_channel_id", "validation.payment_channel_unknown"))?,
        };
        let upload = staged.hand_over().pop().unwrap_or_default();
        state
            .orders()
            .submit_slip(state.system().request(pb::SubmitSlipRequest {
                token: token.clone(),
                upload,
                store_channel_id: channel.max(0),
                channel_type,
            }))
            .await?;
        Ok(())
    }
    .await;
    match outcome {
        Ok(()) => Redirect::to(&format!("/bill/{}?lang={}&sent=1", token, lang.code())).into_response(),
        Err(e) => {
            let status = if e.status.is_client_error() { e.status } else { StatusCode::SERVICE_UNAVAILABLE };
            let problem = problem_of(&e, lang);
            // The page as it now is (another slip may have come meanwhile).
            let b = match load(state, &token).await {
                Ok(Some(b)) => b,
                _ => b,
            };
            html_response(status, render(&b, lang, false, Some(problem)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::inconsistent_digit_grouping)]
    fn money_reads_as_baht_with_thousands() {
        assert_eq!(money(0), "฿0.00");
        assert_eq!(money(5), "฿0.05");
        assert_eq!(money(123_456_78), "฿123,456.78");
        assert_eq!(money(100_000_00), "฿100,000.00");
        assert_eq!(money(-1_50), "-฿1.50");
    }

    #[test]
    fn moments_are_thailand_s_time_in_the_reader_s_calendar() {
        // 2026-11-28 12:00 UTC is 19:00 in Bangkok.
        let ms = 1_795_867_200_000;
        assert_eq!(moment(ms, Lang::Th), "28 พ.ย. 2569 19:00");
        assert_eq!(moment(ms, Lang::En), "28 Nov 2026, 19:00");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(esc("<b a=\"x\">&'"), "&lt;b a=&quot;x&quot;&gt;&amp;&#39;");
    }

    #[test]
    fn every_key_has_both_languages() {
        for key in [
            "title",
            "not_found",
            "items",
            "total",
            "to_pay",
            "pay_to",
            "promptpay",
            "send_slip",
            "sent",
            "pending",
            "paid",
            "expired",
            "closed",
            "slip_type",
            "slip_too_large",
            "try_again",
            "account_unknown",
        ] {
            assert!(!Lang::Th.t(key).is_empty() && !Lang::En.t(key).is_empty(), "{key}");
        }
    }
}
