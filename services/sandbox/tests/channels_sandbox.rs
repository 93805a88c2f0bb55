//! `channels-sandbox` as a person (or the end-to-end suite) starts it: the three marketplace
//! sandboxes and a Magento shop on the ports given, the settings that point a back-office at
//! them printed, each answering.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[tokio::test]
async fn it_starts_the_sandboxes_and_prints_their_settings() {
    let ports = [free_port(), free_port(), free_port(), free_port()];
    let mut child = Command::new(env!("CARGO_BIN_EXE_channels-sandbox"))
        .env("SHOPEE_PORT", ports[0].to_string())
        .env("LAZADA_PORT", ports[1].to_string())
        .env("TIKTOK_PORT", ports[2].to_string())
        .env("MAGENTO_PORT", ports[3].to_string())
        .env("BO_SERVICES__MARKETPLACES__PUBLIC_URL", "http://localhost:9999")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut printed = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let done = line.contains("PUBLIC_URL");
        printed.push(line);
        if done {
            break;
        }
    }
    let text = printed.join("\n");
    assert!(text.contains(&format!("SHOPEE__API_URL=http://127.0.0.1:{}", ports[0])), "{text}");
    assert!(text.contains(&format!("LAZADA__AUTHORIZE_URL=http://127.0.0.1:{}/oauth/authorize", ports[1])), "{text}");
    assert!(text.contains("PUBLIC_URL=http://localhost:9999"), "{text}");
    assert!(text.contains(&format!("MAGENTO_URL=http://127.0.0.1:{}", ports[3])), "{text}");
    // Lazada's authorize page answers for its app, and names the sandbox's shop.
    let url =
        format!("http://127.0.0.1:{}/oauth/authorize?client_id=100001&response_type=code&redirect_uri=x", ports[1]);
    let body = reqwest::get(&url).await.unwrap().text().await.unwrap();
    assert!(body.contains("ร้านเสื้อผ้าใจดี (Lazada)"), "{body}");
    // The Magento shop answers only a signed call: an unsigned one is refused as Magento does.
    let url = format!("http://127.0.0.1:{}/rest/V1/store/storeConfigs", ports[3]);
    assert_eq!(reqwest::get(&url).await.unwrap().status(), reqwest::StatusCode::UNAUTHORIZED);
    child.kill().unwrap();
    child.wait().unwrap();
}
