//! The demo store's catalog: a few Thai products with variants and stock, made once with
//! the demo store on the first start of the embedded target. It waits for the stock ledger
//! to give the new store its default warehouse (an event away).

use std::time::Duration;

use bo_kit::grpc::CallCtx;
use bo_products::ProductsGrpc;
use bo_proto::products::v1 as pb;
use bo_proto::products::v1::products_service_server::ProductsService as _;
use bo_proto::wms::v1 as wpb;
use bo_proto::wms::v1::wms_service_server::WmsService as _;
use bo_wms::WmsGrpc;

struct Item {
    name: &'static str,
    code: &'static str,
    category: i64,
    price: i64,
    cost: i64,
    tags: &'static [&'static str],
    short: &'static str,
    variant: Option<(&'static str, &'static [&'static str])>,
    stock: i64,
}

const ITEMS: &[Item] = &[
    Item {
        name: "เสื้อยืดคอกลม Cotton 100%",
        code: "TS-001",
        category: 1,
        price: 19_900,
        cost: 8_500,
        tags: &["เสื้อยืด", "cotton"],
        short: "เสื้อยืดผ้าฝ้ายแท้ ใส่สบาย ระบายอากาศดี",
        variant: Some(("สี", &["ขาว", "ดำ", "กรม"])),
        stock: 40,
    },
    Item {
        name: "กางเกงยีนส์ขากระบอก",
        code: "JN-010",
        category: 1,
        price: 59_000,
        cost: 32_000,
        tags: &["กางเกง", "ยีนส์"],
        short: "ยีนส์ผ้ายืด ทรงกระบอกเล็ก",
        variant: Some(("ไซซ์", &["28", "30", "32", "34"])),
        stock: 12,
    },
    Item {
        name: "ครีมกันแดด SPF50 PA+++",
        code: "SK-050",
        category: 3,
        price: 35_000,
        cost: 18_000,
        tags: &["กันแดด", "skincare"],
        short: "เนื้อบางเบา ไม่เหนอะหนะ ขนาด 30 มล.",
        variant: None,
        stock: 60,
    },
    Item {
        name: "กาแฟดอยช้าง คั่วกลาง 250 กรัม",
        code: "CF-250",
        category: 4,
        price: 28_000,
        cost: 15_500,
        tags: &["กาแฟ", "ดอยช้าง"],
        short: "เมล็ดกาแฟอาราบิก้าจากเชียงราย",
        variant: Some(("แบบ", &["เมล็ด", "บด"])),
        stock: 25,
    },
    Item {
        name: "แก้วเก็บความเย็น 20 ออนซ์",
        code: "TB-020",
        category: 7,
        price: 24_900,
        cost: 11_000,
        tags: &["แก้วน้ำ", "สแตนเลส"],
        short: "สแตนเลส 304 เก็บเย็นได้ 24 ชั่วโมง",
        variant: Some(("สี", &["ชมพู", "เขียวมิ้นต์"])),
        stock: 3,
    },
];

/// Creates the demo catalog for `store_id`; logs and gives up quietly if the warehouse
/// never appears (the store itself is still usable).
pub async fn seed(products: ProductsGrpc, wms: WmsGrpc, store_id: i64, user_id: i64) {
    let ctx = CallCtx::new(store_id, user_id);
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
        return;
    };
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
            short_description: item.short.into(),
            code: item.code.into(),
            category_id: item.category,
            price: item.price,
            cost: item.cost,
            vat: true,
            weight_grams: 300,
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
        let lines = created
            .skus
            .iter()
            .map(|s| wpb::StockLine { warehouse_id: warehouse, sku_id: s.id, quantity: item.stock })
            .collect();
        let receive = wpb::ReceiveRequest { reference: format!("demo-{}", item.code), lines };
        if let Err(e) = wms.receive(ctx.request(receive)).await {
            tracing::warn!(code = item.code, error = %e.message(), "demo stock not received");
        }
    }
    tracing::info!(products = ITEMS.len(), "demo catalog made");
}
