//! The demo store's catalog: a dozen Thai products with variants, pictures and stock, made once with
//! the demo store on the first start of the embedded target. It waits for the stock ledger
//! to give the new store its default warehouse (an event away). Then a shipping channel and
//! a few orders of the demo customers, so the order board has something to show: new ones,
//! one short of stock, one prepared.

use bo_kit::Code;
use std::time::Duration;

use bo_kit::files::{Files, Key};
use bo_kit::grpc::{CallCtx, GrpcChannel, ServiceIdentity};
use bo_kit::module::Clients;
use bo_products::store::{PHOTO, SIZE_CHART};
use bo_proto::products::v1 as pb;
use bo_proto::products::v1::products_service_client::ProductsServiceClient;
use bo_proto::stores::v1::stores_service_client::StoresServiceClient;
use bo_proto::wms::v1 as wpb;
use bo_proto::wms::v1::wms_service_client::WmsServiceClient;

use crate::app::DemoInfo;
use crate::config::DemoConfig;

struct Item {
    name: &'static str,
    name_en: &'static str,
    code: &'static str,
    category: i64,
    price: i64,
    cost: i64,
    weight_grams: i64,
    tags: &'static [&'static str],
    short: &'static str,
    variant: Option<(&'static str, &'static [&'static str])>,
    stock: i64,
    /// Pictures, the cover first (drawn for the demo; sources in `demo/photos/src`).
    photos: &'static [&'static [u8]],
    size_chart: Option<&'static [u8]>,
}

macro_rules! photo {
    ($name:literal) => {
        include_bytes!(concat!("../demo/photos/", $name, ".jpg")).as_slice()
    };
}

const ITEMS: &[Item] = &[
    Item {
        name: "เสื้อยืดคอกลม Cotton 100%",
        name_en: "Crew-neck T-shirt, 100% cotton",
        code: "TS-001",
        category: 1,
        price: 19_900,
        cost: 8_500,
        weight_grams: 180,
        tags: &["เสื้อยืด", "cotton"],
        short: "เสื้อยืดผ้าฝ้ายแท้ ใส่สบาย ระบายอากาศดี",
        variant: Some(("สี", &["ขาว", "ดำ", "กรม"])),
        stock: 40,
        photos: &[photo!("tshirt-white"), photo!("tshirt-black"), photo!("tshirt-navy")],
        size_chart: Some(photo!("tshirt-size-chart")),
    },
    Item {
        name: "กางเกงยีนส์ขากระบอก",
        name_en: "Straight-leg jeans",
        code: "JN-010",
        category: 1,
        price: 59_000,
        cost: 32_000,
        weight_grams: 650,
        tags: &["กางเกง", "ยีนส์"],
        short: "ยีนส์ผ้ายืด ทรงกระบอกเล็ก",
        variant: Some(("ไซซ์", &["28", "30", "32", "34"])),
        stock: 12,
        photos: &[photo!("jeans")],
        size_chart: Some(photo!("jeans-size-chart")),
    },
    Item {
        name: "ครีมกันแดด SPF50 PA+++",
        name_en: "Sunscreen SPF50 PA+++",
        code: "SK-050",
        category: 3,
        price: 35_000,
        cost: 18_000,
        weight_grams: 45,
        tags: &["กันแดด", "skincare"],
        short: "เนื้อบางเบา ไม่เหนอะหนะ ขนาด 30 มล.",
        variant: None,
        stock: 60,
        photos: &[photo!("sunscreen")],
        size_chart: None,
    },
    Item {
        name: "กาแฟดอยช้าง คั่วกลาง 250 กรัม",
        name_en: "Doi Chang coffee, medium roast, 250 g",
        code: "CF-250",
        category: 4,
        price: 28_000,
        cost: 15_500,
        weight_grams: 270,
        tags: &["กาแฟ", "ดอยช้าง"],
        short: "เมล็ดกาแฟอาราบิก้าจากเชียงราย",
        variant: Some(("แบบ", &["เมล็ด", "บด"])),
        stock: 25,
        photos: &[photo!("coffee-beans"), photo!("coffee-ground")],
        size_chart: None,
    },
    Item {
        name: "แก้วเก็บความเย็น 20 ออนซ์",
        name_en: "Insulated tumbler, 20 oz",
        code: "TB-020",
        category: 7,
        price: 24_900,
        cost: 11_000,
        weight_grams: 350,
        tags: &["แก้วน้ำ", "สแตนเลส"],
        short: "สแตนเลส 304 เก็บเย็นได้ 24 ชั่วโมง",
        variant: Some(("สี", &["ชมพู", "เขียวมิ้นต์"])),
        stock: 3,
        photos: &[photo!("tumbler-pink"), photo!("tumbler-mint")],
        size_chart: None,
    },
    Item {
        name: "กระเป๋าผ้าแคนวาส ใบใหญ่",
        name_en: "Large canvas tote bag",
        code: "BG-030",
        category: 2,
        price: 15_900,
        cost: 6_000,
        weight_grams: 220,
        tags: &["กระเป๋าผ้า", "canvas"],
        short: "ผ้าแคนวาสหนา ใส่ของได้เยอะ มีช่องซิปด้านใน",
        variant: Some(("สี", &["ครีม", "ดำ"])),
        stock: 30,
        photos: &[photo!("tote-cream"), photo!("tote-black")],
        size_chart: None,
    },
    Item {
        name: "รองเท้าผ้าใบสีขาว",
        name_en: "White canvas sneakers",
        code: "SH-042",
        category: 2,
        price: 49_000,
        cost: 24_000,
        weight_grams: 800,
        tags: &["รองเท้า", "ผ้าใบ"],
        short: "พื้นยางกันลื่น ใส่ได้ทุกวัน",
        variant: Some(("ไซซ์", &["38", "39", "40", "41", "42"])),
        stock: 8,
        photos: &[photo!("sneakers")],
        size_chart: None,
    },
    Item {
        name: "น้ำพริกเผา สูตรโบราณ 200 กรัม",
        name_en: "Thai chili paste, 200 g",
        code: "FD-011",
        category: 4,
        price: 8_900,
        cost: 4_200,
        weight_grams: 320,
        tags: &["น้ำพริก", "ของฝาก"],
        short: "หอมกุ้งแห้ง เผ็ดกลมกล่อม ไม่ใส่วัตถุกันเสีย",
        variant: None,
        stock: 48,
        photos: &[photo!("chili-paste")],
        size_chart: None,
    },
    Item {
        name: "สายชาร์จ USB-C ชาร์จเร็ว",
        name_en: "USB-C fast charging cable",
        code: "PH-015",
        category: 8,
        price: 12_900,
        cost: 4_500,
        weight_grams: 60,
        tags: &["สายชาร์จ", "usb-c"],
        short: "รองรับชาร์จเร็ว 60W สายถักแข็งแรง",
        variant: Some(("ความยาว", &["1 เมตร", "2 เมตร"])),
        stock: 100,
        photos: &[photo!("usb-c-cable")],
        size_chart: None,
    },
    Item {
        name: "อาหารแมวเม็ด รสปลาทู 1.2 กก.",
        name_en: "Dry cat food, mackerel, 1.2 kg",
        code: "PT-007",
        category: 11,
        price: 18_500,
        cost: 12_000,
        weight_grams: 1_250,
        tags: &["อาหารแมว", "สัตว์เลี้ยง"],
        short: "โปรตีนสูง บำรุงขนและผิวหนัง",
        variant: None,
        stock: 4,
        photos: &[photo!("cat-food")],
        size_chart: None,
    },
    Item {
        name: "สมุดโน้ตปกคราฟท์ A5",
        name_en: "A5 kraft-cover notebook",
        code: "BK-001",
        category: 12,
        price: 6_500,
        cost: 2_500,
        weight_grams: 250,
        tags: &["สมุด", "เครื่องเขียน"],
        short: "กระดาษถนอมสายตา 80 แกรม 100 แผ่น",
        variant: Some(("แบบ", &["มีเส้น", "จุด", "เปล่า"])),
        stock: 50,
        photos: &[photo!("notebook")],
        size_chart: None,
    },
    Item {
        name: "หมอนอิงลายช้าง",
        name_en: "Elephant-pattern cushion",
        code: "HM-021",
        category: 7,
        price: 29_000,
        cost: 13_000,
        weight_grams: 500,
        tags: &["หมอนอิง", "ของแต่งบ้าน"],
        short: "ผ้าฝ้ายทอมือ ถอดซักได้ ขนาด 45 x 45 ซม.",
        variant: None,
        stock: 0,
        photos: &[photo!("cushion")],
        size_chart: None,
    },
];

/// The demo owner, store and customers (stores service), on a first start with no users;
/// the sample international rate table (labelled as a sample); then, in the background, the
/// catalog and its stock.
pub async fn seed(
    clients: &Clients,
    identity: &ServiceIdentity,
    files: Option<&Files>,
    cfg: &DemoConfig,
) -> anyhow::Result<Option<DemoInfo>> {
    let mut stores = clients.client(StoresServiceClient::new)?;
    let created = bo_stores::demo::seed(&mut stores, identity, &cfg.email, cfg.password.expose()).await?;
    let Some(d) = created else {
        return Ok(Some(DemoInfo { created: false, store_id: 0 }));
    };
    let ctx = identity.acting(d.store_id, d.user_id);
    match clients.client(bo_proto::logistics::v1::logistics_service_client::LogisticsServiceClient::new) {
        Ok(mut logistics) => {
            let sample = bo_proto::logistics::v1::ImportRateTableRequest { upload: String::new(), sample: true };
            if let Err(e) = logistics.import_rate_table(ctx.request(sample)).await {
                tracing::warn!(error = %e.message(), "the demo store's sample rate table was not loaded");
            }
        }
        Err(e) => tracing::warn!(error = %e, "no logistics service for the demo store's sample rate table"),
    }
    if let (true, Some(files)) = (cfg.catalog, files) {
        let products = clients.client(ProductsServiceClient::new)?;
        let wms = clients.client(WmsServiceClient::new)?;
        let ctx = identity.acting(d.store_id, d.user_id);
        let (clients, files) = (clients.clone(), files.clone());
        tokio::spawn(async move {
            let made = catalog(products, wms, files, ctx.clone()).await;
            if let Some((warehouse, skus)) = made {
                if let Err(e) = orders(&clients, &ctx, warehouse, &skus).await {
                    tracing::warn!(error = %e, "the demo orders were not made");
                }
            }
        });
    }
    Ok(Some(DemoInfo { created: true, store_id: d.store_id }))
}

/// The demo catalog with pictures and stock; its warehouse and SKUs (id, units received).
pub async fn catalog(
    mut products: ProductsServiceClient<GrpcChannel>,
    mut wms: WmsServiceClient<GrpcChannel>,
    files: Files,
    ctx: CallCtx,
) -> Option<(i64, Vec<(i64, i64)>)> {
    let mut warehouse = None;
    for _ in 0..100 {
        if let Ok(r) = wms.list_warehouses(ctx.request(wpb::ListWarehousesRequest {})).await {
            if let Some(w) = r.into_inner().warehouses.first() {
                warehouse = Some(w.id);
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let Some(warehouse) = warehouse else {
        tracing::warn!("the demo store has no warehouse yet; its catalog was not made");
        return None;
    };
    let mut made = Vec::new();
    for item in ITEMS {
        let (variants, skus) = match item.variant {
            Some((name, options)) => (
                vec![pb::Variant { name: name.into(), options: options.iter().map(|o| o.to_string()).collect() }],
                options
                    .iter()
                    .enumerate()
                    .map(|(i, o)| pb::Sku {
                        code: format!("{}-{}", item.code, i + 1),
                        price: item.price,
                        cost: item.cost,
                        safety_stock: 5,
                        option1: o.to_string(),
                        ..Default::default()
                    })
                    .collect(),
            ),
            None => (
                Vec::new(),
                vec![pb::Sku { price: item.price, cost: item.cost, safety_stock: 10, ..Default::default() }],
            ),
        };
        let product = pb::Product {
            name: item.name.into(),
            name_en: item.name_en.into(),
            short_description: item.short.into(),
            code: item.code.into(),
            category_id: item.category,
            price: item.price,
            cost: item.cost,
            vat: true,
            weight_grams: item.weight_grams,
            tags: item.tags.iter().map(|t| t.to_string()).collect(),
            variants,
            skus,
            ..Default::default()
        };
        let created =
            match products.create_product(ctx.request(pb::CreateProductRequest { product: Some(product) })).await {
                Ok(r) => r.into_inner().product.unwrap_or_default(),
                Err(e) => {
                    tracing::warn!(code = item.code, error = %e.message(), "demo product not made");
                    continue;
                }
            };
        made.extend(created.skus.iter().map(|s| (s.id, item.stock)));
        let pictures = [(PHOTO, item.photos.to_vec()), (SIZE_CHART, item.size_chart.into_iter().collect())];
        for (kind, pictures) in pictures.into_iter().filter(|(_, f)| !f.is_empty()) {
            // Staged like an upload through the API; the service consumes the keys.
            let mut uploads = Vec::new();
            for p in pictures {
                let key = Key::upload(ctx.store_id);
                match files.put(&key, bytes::Bytes::from_static(p)).await {
                    Ok(()) => uploads.push(key.to_string()),
                    Err(e) => tracing::warn!(code = item.code, error = %format!("{e:#}"), "demo picture not staged"),
                }
            }
            let add = pb::AddPhotosRequest { product_id: created.id, kind: kind.into(), uploads };
            if let Err(e) = products.add_photos(ctx.request(add)).await {
                tracing::warn!(code = item.code, error = %e.message(), "demo pictures not added");
            }
        }
        if item.stock > 0 {
            let lines = created
                .skus
                .iter()
                .map(|s| wpb::StockLine {
                    warehouse_id: warehouse,
                    sku_id: s.id,
                    quantity: item.stock,
                    unit_cost: s.cost,
                    expires_at_ms: 0,
                })
                .collect();
            let receive = wpb::ReceiveRequest { reference: format!("demo-{}", item.code), lines };
            // The stock ledger learns of new SKUs from the products service's event.
            for attempt in 0..100 {
                match wms.receive(ctx.request(receive.clone())).await {
                    Ok(_) => break,
                    Err(e) if attempt < 99 && bo_kit::Error::from_status(&e).code == Code::SkuNotFound => {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    Err(e) => {
                        tracing::warn!(code = item.code, error = %e.message(), "demo stock not received");
                        break;
                    }
                }
            }
        }
    }
    tracing::info!(products = ITEMS.len(), "demo catalog made");
    Some((warehouse, made))
}

/// A flat-priced shipping channel and a few orders of the demo customers: three new (one of
/// them short of stock), one prepared.
async fn orders(clients: &Clients, ctx: &CallCtx, warehouse: i64, skus: &[(i64, i64)]) -> anyhow::Result<()> {
    use bo_proto::logistics::v1 as lpb;
    use bo_proto::orders::v1 as opb;
    use bo_proto::stores::v1 as spb;
    let mut logistics =
        clients.client(bo_proto::logistics::v1::logistics_service_client::LogisticsServiceClient::new)?;
    let mut orders = clients.client(bo_proto::orders::v1::orders_service_client::OrdersServiceClient::new)?;
    let mut stores = clients.client(StoresServiceClient::new)?;
    let channel = logistics
        .create_store_channel(ctx.request(lpb::CreateStoreChannelRequest {
            store_channel: Some(lpb::StoreChannelInput {
                warehouse_id: warehouse,
                logistic_type: "domestic".into(),
                name: "เคอรี่ ส่งด่วน".into(),
                provider: "kerry".into(),
                pricing_method: "flat".into(),
                price_satang: 4_000,
                free_over_satang: -1,
                status: lpb::ChannelStatus::Active.into(),
                ..Default::default()
            }),
        }))
        .await?
        .into_inner()
        .store_channel
        .map(|c| c.id)
        .unwrap_or(0);
    let customers = stores
        .list_customers(ctx.request(spb::ListCustomersRequest {
            search: String::new(),
            page: Some(bo_proto::common::v1::PageRequest { page: 1, limit: 3 }),
        }))
        .await?
        .into_inner()
        .customers;
    let stocked: Vec<i64> = skus.iter().filter(|(_, n)| *n > 0).map(|(id, _)| *id).collect();
    let empty: Option<i64> = skus.iter().find(|(_, n)| *n == 0).map(|(id, _)| *id);
    // (customer, lines of (SKU, units), channel)
    type Plan<'a> = (usize, Vec<(i64, i64)>, &'a str);
    let plans: Vec<Plan> = vec![
        (0, vec![(stocked.first().copied().unwrap_or(0), 2), (stocked.get(3).copied().unwrap_or(0), 1)], "facebook"),
        (1, vec![(stocked.get(5).copied().unwrap_or(0), 1)], "line"),
        (2, vec![(empty.unwrap_or(0), 1)], "instagram"),
        (0, vec![(stocked.get(7).copied().unwrap_or(0), 3)], "line"),
    ];
    for (i, (who, lines, channel_code)) in plans.into_iter().enumerate() {
        let Some(c) = customers.get(who) else { continue };
        if lines.iter().any(|(sku, _)| *sku == 0) {
            continue;
        }
        let draft = opb::OrderDraft {
            channel: channel_code.into(),
            warehouse_id: warehouse,
            customer_id: c.id,
            customer_address_id: c.default_address.as_ref().map(|a| a.id).unwrap_or(0),
            items: lines
                .iter()
                .map(|(sku, q)| opb::ItemDraft { sku_id: *sku, quantity: *q, ..Default::default() })
                .collect(),
            vat_included: true,
            logistic_store_channel_id: channel,
            ..Default::default()
        };
        let order =
            orders.create_order(ctx.request(opb::CreateOrderRequest { draft: Some(draft) })).await?.into_inner();
        if i == 3 {
            let id = order.order.map(|o| o.id).unwrap_or(0);
            orders
                .change_state(ctx.request(opb::ChangeStateRequest {
                    ids: vec![id],
                    action: "ready_to_fulfillment".into(),
                    ..Default::default()
                }))
                .await?;
        }
    }
    tracing::info!("demo orders made");
    Ok(())
}
