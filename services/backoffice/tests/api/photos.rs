use std::io::Cursor;

use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::TestApp;
use crate::on_every_stack;

pub fn png(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbaImage::from_pixel(w, h, image::Rgba([200, 30, 30, 255]));
    let mut out = Vec::new();
    image::DynamicImage::ImageRgba8(img).write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png).unwrap();
    out
}

/// A PNG of noise, which does not compress: about `w * h * 3` bytes.
pub fn noise_png(w: u32, h: u32) -> Vec<u8> {
    let mut x: u32 = 2463534242;
    let img = image::RgbImage::from_fn(w, h, |_, _| {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        image::Rgb([x as u8, (x >> 8) as u8, (x >> 16) as u8])
    });
    let mut out = Vec::new();
    image::DynamicImage::ImageRgb8(img).write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png).unwrap();
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut c = 0xFFFF_FFFFu32;
    for b in bytes {
        c ^= u32::from(*b);
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
    }
    !c
}

/// A PNG header that declares 50000×50000 pixels and carries none.
fn huge_png_header() -> Vec<u8> {
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend(50_000u32.to_be_bytes());
    ihdr.extend(50_000u32.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]);
    let mut out = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];
    out.extend(13u32.to_be_bytes());
    out.extend(&ihdr);
    out.extend(crc32(&ihdr).to_be_bytes());
    out
}

async fn upload(
    app: &TestApp,
    token: &str,
    product: i64,
    files: Vec<(&str, Vec<u8>)>,
    kind: &str,
) -> (StatusCode, Value) {
    let mut form = Form::new().text("kind", kind.to_string());
    for (name, bytes) in files {
        form = form.part("files", Part::bytes(bytes).file_name(name.to_string()));
    }
    let res = app
        .client
        .post(format!("{}/products/{product}/photos", app.base))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .unwrap();
    let s = res.status();
    (s, res.json().await.unwrap_or(Value::Null))
}

async fn photos_are_checked_ordered_resized_and_removed(app: &TestApp) {
    let t = app.owner().await;
    let (_, p) = app
        .post(
            "/products",
            &t,
            json!({"name": "หมวกบักเก็ต", "short_description": "ผ้าคอตตอน", "code": "HAT-1",
            "category_id": 2, "price": "250", "cost": "100", "tags": ["หมวก"], "skus": [{}]}),
        )
        .await;
    let id = p["id"].as_i64().unwrap();

    let (s, v) = upload(app, &t, id, vec![("a.png", png(200, 100)), ("b.png", png(50, 80))], "photo").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let photos = v["photos"].as_array().unwrap().clone();
    assert_eq!(photos.len(), 2);
    let url = photos[0]["url"].as_str().unwrap();
    let root = app.root();
    let res = app.client.get(format!("{root}{url}")).send().await.unwrap();
    assert_eq!((res.status(), res.headers()["content-type"].to_str().unwrap()), (StatusCode::OK, "image/png"));
    // A few sizes are served: the asked size (doubled under 100) rounded up to 100 or 200.
    for (asked, served) in [("50", 100), ("64", 200), ("100", 100), ("150", 200), ("5000", 200)] {
        let res = app.client.get(format!("{root}{url}?size={asked}")).send().await.unwrap();
        assert_eq!(res.headers()["content-type"], "image/png");
        let small = image::load_from_memory(&res.bytes().await.unwrap()).unwrap();
        assert_eq!((small.width(), small.height()), (served, served), "size={asked}");
    }

    let ids: Vec<i64> = photos.iter().map(|p| p["id"].as_i64().unwrap()).collect();
    let (s, v) = app
        .call(
            reqwest::Method::PUT,
            &format!("/products/{id}/photos/order"),
            Some(&t),
            Some(json!({"ids": [ids[1], ids[0]]})),
        )
        .await;
    assert_eq!((s, v["photos"][0]["id"].as_i64()), (StatusCode::OK, Some(ids[1])));
    let (_, product) = app.get(&format!("/products/{id}"), &t).await;
    assert_eq!(product["cover_url"], v["photos"][0]["url"]);

    let (s, v) = upload(app, &t, id, vec![("page.jpg", b"<html><body>hello</body></html>".to_vec())], "photo").await;
    assert_eq!((s, v["error"]["fields"][0]["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("photo_type")));
    let (s, v) = upload(app, &t, id, vec![("huge.png", huge_png_header())], "photo").await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("photo_dimensions"))
    );
    let (s, v) = upload(app, &t, id, vec![("big.png", vec![0u8; 5 * 1024 * 1024 + 1])], "photo").await;
    assert_eq!(
        (s, v["error"]["fields"][0]["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("photo_too_large"))
    );
    let many: Vec<(&str, Vec<u8>)> = (0..8).map(|_| ("p.png", png(10, 10))).collect();
    let (s, v) = upload(app, &t, id, many, "photo").await;
    assert_eq!((s, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("photo_too_many")), "9 photos at most");

    // Nothing staged for an upload stays behind, taken or refused.
    assert_eq!(app.staged_uploads().await, 0);

    let (s, v) = upload(app, &t, id, vec![("chart.png", png(300, 400))], "size_chart").await;
    assert_eq!((s, v["size_chart"]["width"].as_i64()), (StatusCode::OK, Some(300)));

    let (_, b) = app.other_owner("photos-b@example.com").await;
    let (s, _) = upload(app, &b, id, vec![("x.png", png(10, 10))], "photo").await;
    assert_eq!(s, StatusCode::NOT_FOUND, "another store cannot touch the product");

    let (s, v) = app.get("/products/photo-rules", &t).await;
    assert_eq!((s, v["min_per_product"].as_i64(), v["max_per_product"].as_i64()), (StatusCode::OK, Some(1), Some(9)));
    let cashier = app.member_with(app.demo_store, "photos-cashier@example.com", &["store.customer.read"]).await;
    assert_eq!(app.get("/products/photo-rules", &cashier).await.0, StatusCode::FORBIDDEN);
    assert_eq!(app.delete(&format!("/products/{id}/photos/{}", ids[0]), &cashier).await.0, StatusCode::FORBIDDEN);
    let (s, _) = app.delete(&format!("/products/{id}/photos/{}", ids[0]), &t).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, v) = app.delete(&format!("/products/{id}/photos/{}", ids[1]), &t).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("photo_too_few")),
        "a product keeps its last photo"
    );
    let (_, product) = app.get(&format!("/products/{id}"), &t).await;
    assert_eq!(product["photos"].as_array().unwrap().len(), 1);
    let chart = product["size_chart"]["id"].as_i64().unwrap();
    let (s, _) = app.delete(&format!("/products/{id}/photos/{chart}"), &t).await;
    assert_eq!(s, StatusCode::NO_CONTENT, "the size chart has no minimum");
    let (s, _) = app.delete(&format!("/products/{id}"), &t).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let gone = app.client.get(format!("{root}{url}")).send().await.unwrap();
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
}

/// A photo over gRPC's 4 MiB message limit goes up and comes back whole: files travel
/// through the file storage (a folder embedded, an S3 bucket on the distributed stack),
/// never inside a gRPC message.
async fn a_photo_over_four_mebibytes_goes_up_and_comes_back(app: &TestApp) {
    let t = app.owner().await;
    let (_, p) = app
        .post(
            "/products",
            &t,
            json!({"name": "ภาพใหญ่", "short_description": "รูปความละเอียดสูง", "code": "BIG-PHOTO",
                "category_id": 2, "price": "10", "cost": "5", "tags": ["รูป"], "skus": [{}]}),
        )
        .await;
    let id = p["id"].as_i64().unwrap();
    let big = noise_png(1250, 1250);
    assert!(big.len() > 4_500_000 && big.len() <= 5 * 1024 * 1024, "{}", big.len());
    let (s, v) = upload(app, &t, id, vec![("big.png", big)], "photo").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["photos"][0]["width"].as_i64(), v["photos"][0]["height"].as_i64()), (Some(1250), Some(1250)));
    let url = v["photos"][0]["url"].as_str().unwrap();
    let res = app.client.get(format!("{}{url}", app.root())).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let length: usize = res.headers()["content-length"].to_str().unwrap().parse().unwrap();
    let body = res.bytes().await.unwrap();
    assert_eq!(body.len(), length);
    assert!(body.len() > 4 * 1024 * 1024, "the stored picture is over 4 MiB: {}", body.len());
    let img = image::load_from_memory(&body).unwrap();
    assert_eq!((img.width(), img.height()), (1250, 1250));
    let res = app.client.get(format!("{}{url}?size=200", app.root())).send().await.unwrap();
    assert_eq!(image::load_from_memory(&res.bytes().await.unwrap()).unwrap().width(), 200);
    assert_eq!(app.staged_uploads().await, 0);
}

on_every_stack!(photos_are_checked_ordered_resized_and_removed, a_photo_over_four_mebibytes_goes_up_and_comes_back);
