//! The sandbox driven over real HTTP, its OAuth calls signed by a signer of the tests' own.

use base64::Engine;
use serde_json::{json, Value};

use super::{magento_line, oauth, Integration, Magento, MagentoOrder};
use crate::{now_s, Server};

/// RFC 5849 §3.6 written again, apart from the sandbox's: each character's UTF-8 bytes, the
/// character kept when it is unreserved.
fn pct(text: &str) -> String {
    const KEEP: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
    let mut out = String::new();
    for c in text.chars() {
        if KEEP.contains(c) {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out += &format!("%{b:02X}");
            }
        }
    }
    out
}

/// How a test signs a call.
struct Signing<'a> {
    creds: &'a Integration,
    method: &'a str,
    nonce: &'a str,
    timestamp: i64,
}

impl<'a> Signing<'a> {
    fn now(creds: &'a Integration, method: &'a str, nonce: &'a str) -> Signing<'a> {
        Signing { creds, method, nonce, timestamp: now_s() }
    }

    /// The Authorization header of `verb base_uri?query`, as an integration's client writes it.
    fn header(&self, verb: &str, base_uri: &str, query: &[(&str, &str)]) -> String {
        let ts = self.timestamp.to_string();
        let oauth = [
            ("oauth_consumer_key", self.creds.consumer_key.as_str()),
            ("oauth_nonce", self.nonce),
            ("oauth_signature_method", self.method),
            ("oauth_timestamp", ts.as_str()),
            ("oauth_token", self.creds.access_token.as_str()),
            ("oauth_version", "1.0"),
        ];
        let mut pairs: Vec<(String, String)> = oauth.iter().chain(query).map(|(k, v)| (pct(k), pct(v))).collect();
        pairs.sort();
        let joined: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let base = format!("{verb}&{}&{}", pct(base_uri), pct(&joined.join("&")));
        let key = format!("{}&{}", pct(&self.creds.consumer_secret), pct(&self.creds.access_token_secret));
        let algorithm = match self.method {
            "HMAC-SHA1" => ring::hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY,
            _ => ring::hmac::HMAC_SHA256,
        };
        let tag = ring::hmac::sign(&ring::hmac::Key::new(algorithm, key.as_bytes()), base.as_bytes());
        let signature = base64::engine::general_purpose::STANDARD.encode(tag.as_ref());
        let fields: Vec<String> = oauth.iter().map(|(k, v)| format!("{k}=\"{}\"", pct(v))).collect();
        format!("OAuth {}, oauth_signature=\"{}\"", fields.join(", "), pct(&signature))
    }
}

/// A query string, each name and value encoded.
fn query_string(query: &[(&str, &str)]) -> String {
    query.iter().map(|(k, v)| format!("{}={}", pct(k), pct(v))).collect::<Vec<_>>().join("&")
}

/// Sends a call: its status and JSON body.
async fn send(req: reqwest::RequestBuilder) -> (u16, Value) {
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// `verb path?query` signed with HMAC-SHA256 and a fresh nonce.
async fn signed(
    m: &Magento,
    server: &Server,
    verb: &str,
    path: &str,
    query: &[(&str, &str)],
    body: Option<Value>,
) -> (u16, Value) {
    let creds = m.integration();
    let nonce = crate::token("", 8);
    let base_uri = format!("{}{path}", server.base_url);
    let auth = Signing::now(&creds, "HMAC-SHA256", &nonce).header(verb, &base_uri, query);
    let url = if query.is_empty() { base_uri } else { format!("{base_uri}?{}", query_string(query)) };
    let method = reqwest::Method::from_bytes(verb.as_bytes()).unwrap();
    let mut req = reqwest::Client::new().request(method, url).header("authorization", auth);
    if let Some(b) = body {
        req = req.json(&b);
    }
    send(req).await
}

/// `GET path_and_query` with the access token as a Bearer token.
async fn bearer(m: &Magento, server: &Server, path_and_query: &str) -> (u16, Value) {
    let token = m.integration().access_token;
    send(reqwest::Client::new().get(format!("{}{path_and_query}", server.base_url)).bearer_auth(token)).await
}

fn order(id: i64, state: &str, day: u32) -> MagentoOrder {
    MagentoOrder::new(
        id,
        state,
        &format!("2025-01-{day:02} 10:00:00"),
        vec![magento_line("TS-001", "เสื้อยืด", 1, "199.00")],
    )
}

fn ids(body: &Value) -> Vec<i64> {
    body["items"].as_array().unwrap().iter().map(|o| o["entity_id"].as_i64().unwrap()).collect()
}

#[tokio::test]
async fn a_bearer_token_is_taken_only_where_the_store_allows_it() {
    let m = Magento::new();
    let server = m.serve().await.unwrap();
    let (status, stores) = bearer(&m, &server, "/rest/V1/store/storeConfigs").await;
    assert_eq!(status, 200, "{stores}");
    assert_eq!(stores[1]["code"], "th");
    assert_eq!(stores[0]["locale"], "th_TH");
    assert_eq!(stores[0]["base_currency_code"], "THB");
    assert_eq!(stores[0]["timezone"], "Asia/Bangkok");
    assert_eq!(stores[0]["base_url"], format!("{}/", server.base_url));

    let refused = json!({ "message": "The consumer isn't authorized to access %resources.",
        "parameters": { "resources": "Magento_Backend::store" } });
    let url = format!("{}/rest/V1/store/storeConfigs", server.base_url);
    let wrong = reqwest::Client::new().get(&url).bearer_auth(crate::token("", 16));
    assert_eq!(send(wrong).await, (401, refused.clone()));
    assert_eq!(send(reqwest::Client::new().get(&url)).await, (401, refused.clone()));

    m.allow_bearer(false);
    assert_eq!(bearer(&m, &server, "/rest/V1/store/storeConfigs").await, (401, refused));
    let (status, body) = bearer(&m, &server, "/rest/th/V1/orders/1").await;
    assert_eq!(status, 401);
    assert_eq!(body["parameters"]["resources"], "Magento_Sales::actions_view");

    let calls = m.calls();
    assert_eq!(calls[0], "GET /rest/V1/store/storeConfigs");
    assert_eq!(calls.last().unwrap(), "GET /rest/th/V1/orders/1");
    assert!(calls.iter().all(|c| !c.contains(&m.integration().access_token)));
}

#[tokio::test]
async fn oauth_signatures_are_recomputed_and_nonces_and_timestamps_checked() {
    let m = Magento::new();
    m.allow_bearer(false);
    m.put_order(order(1, "processing", 1));
    m.put_order(order(2, "complete", 2));
    let server = m.serve().await.unwrap();
    let creds = m.integration();
    let base_uri = format!("{}/rest/th/V1/orders", server.base_url);
    let query = [
        ("searchCriteria[filter_groups][0][filters][0][field]", "state"),
        ("searchCriteria[filter_groups][0][filters][0][value]", "processing"),
    ];
    let url = format!("{base_uri}?{}", query_string(&query));
    let call = |auth: String| reqwest::Client::new().get(&url).header("authorization", auth);

    let good = Signing::now(&creds, "HMAC-SHA256", "nonce-1").header("GET", &base_uri, &query);
    let (status, body) = send(call(good.clone())).await;
    assert_eq!((status, ids(&body)), (200, vec![1]), "{body}");
    // The same call again: its nonce is spent.
    assert_eq!(
        send(call(good)).await,
        (401, json!({ "message": "The nonce is already being used by the consumer with ID %1", "parameters": ["1"] }))
    );
    // HMAC-SHA1 is not (Magento 2.4 signs with SHA-256 only).
    let sha1 = Signing::now(&creds, "HMAC-SHA1", "nonce-2").header("GET", &base_uri, &query);
    assert_eq!(
        send(call(sha1)).await,
        (400, json!({ "message": "Signature method %1 is not supported", "parameters": ["HMAC-SHA1"] }))
    );
    // Signed for another query than the one sent.
    let other = [query[0], ("searchCriteria[filter_groups][0][filters][0][value]", "complete")];
    let tampered = Signing::now(&creds, "HMAC-SHA256", "nonce-3").header("GET", &base_uri, &other);
    let invalid = json!({ "message": "The signature is invalid. Verify and try again." });
    assert_eq!(send(call(tampered)).await, (401, invalid.clone()));
    // Signed with another token secret.
    let stranger = Integration { access_token_secret: crate::token("", 16), ..creds.clone() };
    let forged = Signing::now(&stranger, "HMAC-SHA256", "nonce-4").header("GET", &base_uri, &query);
    assert_eq!(send(call(forged)).await, (401, invalid));
    // Timestamps more than 600 s away, either way.
    let stale = json!({ "message": "An error occurred validating the nonce" });
    for (n, ts) in [("nonce-5", now_s() - 601), ("nonce-6", now_s() + 601)] {
        let old = Signing { creds: &creds, method: "HMAC-SHA256", nonce: n, timestamp: ts };
        assert_eq!(send(call(old.header("GET", &base_uri, &query))).await, (401, stale.clone()));
    }
    // A consumer the store does not know, and a method Magento does not sign with.
    let unknown = Integration { consumer_key: crate::token("", 16), ..creds.clone() };
    let (status, body) =
        send(call(Signing::now(&unknown, "HMAC-SHA256", "nonce-7").header("GET", &base_uri, &query))).await;
    assert_eq!((status, body["message"].as_str()), (401, Some("A consumer having the specified key does not exist")));
    let plain = Signing::now(&creds, "PLAINTEXT", "nonce-8").header("GET", &base_uri, &query);
    assert_eq!(
        send(call(plain)).await,
        (400, json!({ "message": "Signature method %1 is not supported", "parameters": ["PLAINTEXT"] }))
    );

    // Behind a proxy: signed for the URL the client called (its host in lower case), the
    // Host header passed on.
    let public = "https://shop.example.co.th/rest/th/V1/orders";
    let proxied = Signing::now(&creds, "HMAC-SHA256", "nonce-9").header("GET", public, &query);
    let req = call(proxied).header("host", "Shop.Example.co.th:443").header("x-forwarded-proto", "https");
    let (status, body) = send(req).await;
    assert_eq!(status, 200, "{body}");
}

#[test]
fn percent_encoding_is_rfc_5849s() {
    assert_eq!(oauth::encode("a b"), "a%20b");
    assert_eq!(oauth::encode("*"), "%2A");
    assert_eq!(oauth::encode("~-._"), "~-._");
    assert_eq!(oauth::encode("a+b=c&d/e"), "a%2Bb%3Dc%26d%2Fe");
    assert_eq!(oauth::encode("ไทย"), "%E0%B9%84%E0%B8%97%E0%B8%A2");
    assert_eq!(oauth::encode("ไทย"), pct("ไทย"));
    assert_eq!(oauth::decode("%E0%B9%84+%2A%zz", true), "ไ *%zz");
    // RFC 5849 §3.4.1.3.2's example: its parameters, decoded, and their normalized form.
    let query = oauth::form_pairs("b5=%3D%253D&a3=a&c%40=&a2=r%20b");
    let rest = [
        ("oauth_consumer_key", "9djdj82h48djs9d2"),
        ("oauth_token", "kkk9d7dh3k39sjv7"),
        ("oauth_signature_method", "HMAC-SHA1"),
        ("oauth_timestamp", "137131201"),
        ("oauth_nonce", "7d8f3e4a"),
        ("c2", ""),
        ("a3", "2 q"),
    ];
    let mut params = query.clone();
    params.extend(rest.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    assert_eq!(query[0], ("b5".to_string(), "=%3D".to_string()));
    assert_eq!(
        oauth::normalized(&params),
        "a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=&oauth_consumer_key=9djdj82h48djs9d2&oauth_nonce=7d8f3e4a\
         &oauth_signature_method=HMAC-SHA1&oauth_timestamp=137131201&oauth_token=kkk9d7dh3k39sjv7"
    );
}

#[tokio::test]
async fn a_signed_query_with_tricky_characters_is_taken() {
    let m = Magento::new();
    m.put_order(MagentoOrder { customer_email: "a b*~ไทย@example.co.th".into(), ..order(7, "new", 7) });
    m.put_order(order(8, "new", 8));
    let server = m.serve().await.unwrap();
    let query = [
        ("searchCriteria[filter_groups][0][filters][0][field]", "customer_email"),
        ("searchCriteria[filter_groups][0][filters][0][value]", "%b*~ไทย%"),
        ("searchCriteria[filter_groups][0][filters][0][condition_type]", "like"),
    ];
    let (status, body) = signed(&m, &server, "GET", "/rest/V1/orders", &query, None).await;
    assert_eq!((status, ids(&body)), (200, vec![7]), "{body}");
    assert_eq!(body["search_criteria"]["filter_groups"][0]["filters"][0]["value"], "%b*~ไทย%");
    assert!(m.calls()[0].starts_with("GET /rest/V1/orders?searchCriteria%5Bfilter_groups%5D"), "{:?}", m.calls());
}

#[tokio::test]
async fn search_criteria_filter_sort_and_page_as_magento_does() {
    let m = Magento::new();
    for (id, state) in [(1, "processing"), (2, "complete"), (3, "canceled"), (4, "processing"), (5, "new")] {
        m.put_order(order(id, state, id as u32));
    }
    let server = m.serve().await.unwrap();
    let (status, body) = bearer(&m, &server, "/rest/V1/orders").await;
    assert_eq!(
        (status, body),
        (
            400,
            json!({ "message": "\"%fieldName\" is required. Enter and try again.", "parameters": { "fieldName": "searchCriteria" } })
        )
    );

    // Groups AND'ed, a group's filters OR'ed, sorted newest first.
    let q = "searchCriteria[filter_groups][0][filters][0][field]=updated_at\
        &searchCriteria[filter_groups][0][filters][0][value]=2025-01-02%2000:00:00\
        &searchCriteria[filter_groups][0][filters][0][condition_type]=gteq\
        &searchCriteria[filter_groups][1][filters][0][field]=state&searchCriteria[filter_groups][1][filters][0][value]=processing\
        &searchCriteria[filter_groups][1][filters][1][field]=state&searchCriteria[filter_groups][1][filters][1][value]=complete\
        &searchCriteria[sortOrders][0][field]=updated_at&searchCriteria[sortOrders][0][direction]=DESC";
    let (status, body) = bearer(&m, &server, &format!("/rest/default/V1/orders?{q}")).await;
    assert_eq!((status, ids(&body)), (200, vec![4, 2]), "{body}");
    assert_eq!(body["total_count"], 2);
    assert_eq!(
        body["search_criteria"],
        json!({ "filter_groups": [
            { "filters": [{ "field": "updated_at", "value": "2025-01-02 00:00:00", "condition_type": "gteq" }] },
            { "filters": [{ "field": "state", "value": "processing", "condition_type": "eq" },
                          { "field": "state", "value": "complete", "condition_type": "eq" }] }],
            "sort_orders": [{ "field": "updated_at", "direction": "DESC" }] })
    );

    let f = "searchCriteria[filter_groups][0][filters][0]";
    let (_, body) = bearer(
        &m,
        &server,
        &format!("/rest/all/V1/orders?{f}[field]=state&{f}[value]=processing,new&{f}[condition_type]=in"),
    )
    .await;
    assert_eq!(ids(&body), vec![1, 4, 5]);
    let (_, body) = bearer(
        &m,
        &server,
        &format!("/rest/V1/orders?{f}[field]=increment_id&{f}[value]=%250003&{f}[condition_type]=like"),
    )
    .await;
    assert_eq!(ids(&body), vec![3]);
    let (_, body) =
        bearer(&m, &server, &format!("/rest/V1/orders?{f}[field]=entity_id&{f}[value]=3&{f}[condition_type]=gt")).await;
    assert_eq!(ids(&body), vec![4, 5]);

    // Pages of two: a page past the last answers the last again, and the count is every match.
    let page = |n: i64| format!("/rest/V1/orders?searchCriteria[pageSize]=2&searchCriteria[currentPage]={n}");
    let mut seen = Vec::new();
    for n in 1..=4 {
        let (_, body) = bearer(&m, &server, &page(n)).await;
        assert_eq!(body["total_count"], 5);
        assert_eq!(body["search_criteria"], json!({ "filter_groups": [], "page_size": 2, "current_page": n }));
        seen.push(ids(&body));
    }
    assert_eq!(seen, vec![vec![1, 2], vec![3, 4], vec![5], vec![5]]);
    let (_, body) = bearer(&m, &server, "/rest/V1/orders?searchCriteria[pageSize]=10").await;
    assert_eq!(ids(&body), vec![1, 2, 3, 4, 5]);

    let (status, body) = bearer(&m, &server, "/rest/V1/orders/3").await;
    assert_eq!(
        (status, body["increment_id"].as_str(), body["status"].as_str()),
        (200, Some("000000003"), Some("canceled"))
    );
    m.set_state(3, "closed", "2025-02-01 00:00:00");
    assert_eq!(bearer(&m, &server, "/rest/V1/orders/3").await.1["status"], "closed");
    assert_eq!(
        bearer(&m, &server, "/rest/V1/orders/99").await,
        (404, json!({ "message": "The entity that was requested doesn't exist. Verify the entity and try again." }))
    );
    assert_eq!(
        bearer(&m, &server, "/rest/en/V1/orders/3").await,
        (404, json!({ "message": "Request does not match any route." }))
    );
    assert_eq!(
        bearer(&m, &server, "/rest/V1/carts/mine").await,
        (404, json!({ "message": "Request does not match any route." }))
    );
}

#[tokio::test]
async fn a_configurable_line_is_written_as_parent_and_child() {
    let m = Magento::new();
    let mut shirt = magento_line("TS-001-M", "เสื้อยืด ไซซ์ M", 2, "199.00");
    shirt.configurable = true;
    let o = MagentoOrder {
        shipping_amount: "50.00".into(),
        discount_amount: "-10.00".into(),
        payment_method: "cashondelivery".into(),
        ..MagentoOrder::new(
            42,
            "processing",
            "2025-01-05 08:30:00",
            vec![shirt, magento_line("CF-250", "กาแฟ", 1, "289.00")],
        )
    };
    m.put_order(o);
    let server = m.serve().await.unwrap();
    let (status, o) = bearer(&m, &server, "/rest/V1/orders/42").await;
    assert_eq!(status, 200, "{o}");
    let items = o["items"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!((items[0]["product_type"].as_str(), items[0]["sku"].as_str()), (Some("configurable"), Some("TS-001-M")));
    assert_eq!(items[0]["price"], 199.0);
    assert!(items[0].get("parent_item_id").is_none());
    assert_eq!((items[1]["product_type"].as_str(), items[1]["sku"].as_str()), (Some("simple"), Some("TS-001-M")));
    assert_eq!(items[1]["price"], 0.0);
    assert_eq!(items[1]["parent_item_id"], items[0]["item_id"]);
    assert!(items[2].get("parent_item_id").is_none());
    // A client that skips the children counts each line once.
    let qty: f64 =
        items.iter().filter(|i| i.get("parent_item_id").is_none()).map(|i| i["qty_ordered"].as_f64().unwrap()).sum();
    assert_eq!(qty, 3.0);
    assert_eq!((o["subtotal"].as_f64(), o["grand_total"].as_f64()), (Some(687.0), Some(727.0)));
    assert_eq!((o["shipping_amount"].as_f64(), o["discount_amount"].as_f64()), (Some(50.0), Some(-10.0)));
    assert_eq!((o["increment_id"].as_str(), o["order_currency_code"].as_str()), (Some("000000042"), Some("THB")));
    assert_eq!(o["billing_address"]["postcode"], "10200");
    assert_eq!(o["billing_address"]["telephone"], "0812345678");
    assert_eq!(o["payment"]["method"], "cashondelivery");
    let shipping = &o["extension_attributes"]["shipping_assignments"][0]["shipping"];
    assert_eq!(
        (shipping["address"]["address_type"].as_str(), shipping["method"].as_str()),
        (Some("shipping"), Some("flatrate_flatrate"))
    );
    assert_eq!(shipping["address"]["country_id"], "TH");
}

#[tokio::test]
async fn a_legacy_stock_item_is_read_and_set() {
    let m = Magento::new();
    m.add_product("TS-001", 10);
    m.add_product("TS 002", 1);
    let server = m.serve().await.unwrap();
    let (status, item) = bearer(&m, &server, "/rest/V1/stockItems/TS-001").await;
    assert_eq!(status, 200, "{item}");
    assert_eq!(
        (item["item_id"].as_i64(), item["stock_id"].as_i64(), item["qty"].as_f64()),
        (Some(1), Some(1), Some(10.0))
    );
    assert_eq!((item["is_in_stock"].as_bool(), item["manage_stock"].as_bool()), (Some(true), Some(true)));
    assert_eq!(bearer(&m, &server, "/rest/V1/stockItems/TS%20002").await.1["item_id"], 2);

    // A JSON body is not signed: the OAuth signature covers the query only.
    let path = "/rest/default/V1/products/TS-001/stockItems/1";
    let set = |qty: i64, in_stock: bool| Some(json!({ "stockItem": { "qty": qty, "is_in_stock": in_stock } }));
    assert_eq!(signed(&m, &server, "PUT", path, &[], set(3, true)).await, (200, json!(1)));
    assert_eq!(m.stock("TS-001"), Some((3.0, true)));
    assert_eq!(signed(&m, &server, "PUT", path, &[], set(0, true)).await, (200, json!(1)));
    assert_eq!(m.stock("TS-001"), Some((0.0, false)));
    assert_eq!(
        signed(&m, &server, "PUT", path, &[], Some(json!({ "qty": 5 }))).await,
        (
            400,
            json!({ "message": "\"%fieldName\" is required. Enter and try again.", "parameters": { "fieldName": "stockItem" } })
        )
    );
    let missing = json!({ "message": "The Product with the \"%1\" SKU doesn't exist.", "parameters": ["NOPE"] });
    assert_eq!(
        signed(&m, &server, "PUT", "/rest/V1/products/NOPE/stockItems/1", &[], set(1, true)).await,
        (404, missing.clone())
    );
    assert_eq!(bearer(&m, &server, "/rest/V1/stockItems/NOPE").await, (404, missing));
    assert_eq!(m.stock("TS-001"), Some((0.0, false)));
}

#[tokio::test]
async fn msi_source_items_are_applied_or_refused_as_a_whole() {
    let m = Magento::new();
    m.add_product("TS-001", 10);
    let server = m.serve().await.unwrap();
    // Without MSI the routes are not there (and a route is matched before credentials).
    let no_route = (404, json!({ "message": "Request does not match any route." }));
    assert_eq!(bearer(&m, &server, "/rest/V1/inventory/sources").await, no_route);
    let anonymous = reqwest::Client::new().get(format!("{}/rest/V1/inventory/sources", server.base_url));
    assert_eq!(send(anonymous).await, no_route);

    m.use_msi(&["default", "bkk"]);
    assert_eq!(m.source_item("TS-001", "bkk"), Some((10.0, 1)));
    let (status, sources) = bearer(&m, &server, "/rest/V1/inventory/sources").await;
    assert_eq!((status, sources["total_count"].as_i64()), (200, Some(2)), "{sources}");
    assert_eq!(
        (sources["items"][1]["source_code"].as_str(), sources["items"][1]["enabled"].as_bool()),
        (Some("bkk"), Some(true))
    );
    assert_eq!(bearer(&m, &server, "/rest/th/V1/inventory/sources/bkk").await.1["country_id"], "TH");
    assert_eq!(
        bearer(&m, &server, "/rest/V1/inventory/sources/cnx").await,
        (404, json!({ "message": "Source with code \"%value\" does not exist.", "parameters": { "value": "cnx" } }))
    );

    let path = "/rest/V1/inventory/source-items";
    let item = |sku: &str, source: &str, qty: i64, status: i64| json!({ "sku": sku, "source_code": source, "quantity": qty, "status": status });
    let both = json!({ "sourceItems": [item("TS-001", "bkk", 4, 1), item("TS-001", "default", 0, 0)] });
    assert_eq!(signed(&m, &server, "POST", path, &[], Some(both)).await, (200, json!([])));
    assert_eq!((m.source_item("TS-001", "bkk"), m.source_item("TS-001", "default")), (Some((4.0, 1)), Some((0.0, 0))));
    assert_eq!(m.stock("TS-001"), Some((0.0, false)));

    // One bad item and nothing is applied.
    let bad =
        json!({ "sourceItems": [item("TS-001", "bkk", 9, 1), item("NOPE", "bkk", 1, 1), item("TS-001", "cnx", 1, 1)] });
    let (status, body) = signed(&m, &server, "POST", path, &[], Some(bad)).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("Validation Failed")), "{body}");
    assert_eq!(body["errors"].as_array().unwrap().len(), 2);
    assert_eq!(body["errors"][0]["parameters"], json!({ "field": "sku", "value": "NOPE" }));
    assert_eq!(m.source_item("TS-001", "bkk"), Some((4.0, 1)));
    assert_eq!(
        signed(&m, &server, "POST", path, &[], Some(json!({ "sourceItems": [] }))).await,
        (400, json!({ "message": "Input data is empty" }))
    );

    // A body above 1 MiB is refused; every call was recorded.
    let big = "x".repeat((1 << 20) + 1);
    let req = reqwest::Client::new().post(format!("{}{path}", server.base_url)).body(big);
    assert_eq!(send(req).await.0, 413);
    assert_eq!(m.calls().iter().filter(|c| *c == "POST /rest/V1/inventory/source-items").count(), 4);
}
