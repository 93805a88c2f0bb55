//! The catalog through its gRPC interface, on SQLite and (when TEST_DATABASE_URL is set)
//! PostgreSQL, and its inventory view following the stock ledger's events.

use bo_kit::Code;
use std::time::Duration;

use bo_kit::db::Db;
use bo_kit::grpc::CallCtx;
use bo_products::Service;
use bo_proto::products::v1 as pb;
use bo_proto::products::v1::products_service_server::ProductsService;
use bo_proto::wms::v1 as wpb;
use bo_proto::wms::v1::wms_service_server::WmsService;
use tokio_util::sync::CancellationToken;

/// The catalog, and a stock ledger beside it on its own database and the same bus.
async fn catalog(db: &Db, bus: &bo_kit::bus::SharedBus) -> (Service, bo_wms::Service, bo_kit::testing::TestDb) {
    let wms_db = bo_kit::testing::sqlite().await;
    let wms = bo_wms::Service::open(wms_db.db.clone(), bus.clone()).await.unwrap();
    let client = bo_proto::wms::v1::wms_service_client::WmsServiceClient::new(bo_kit::grpc::in_process(
        wms.server(),
        bo_kit::testing::keys(),
    ));
    let s = Service::open(db.clone(), bus.clone(), bo_kit::files::Files::memory(), Default::default(), client)
        .await
        .unwrap();
    (s, wms, wms_db)
}

fn ctx() -> CallCtx {
    // A token, as the gateway forwards one: the catalog forwards it to the stock ledger.
    bo_kit::testing::identity().acting(1, 5)
}

fn shirt(code: &str) -> pb::Product {
    pb::Product {
        name: "เสื้อยืดคอกลม".into(),
        short_description: "ผ้าฝ้าย 100%".into(),
        code: code.into(),
        category_id: 1,
        price: 19_900,
        cost: 9_000,
        vat: true,
        tags: vec!["เสื้อ".into()],
        variants: vec![pb::Variant { name: "สี".into(), options: vec!["ขาว".into(), "ดำ".into()] }],
        skus: vec![
            pb::Sku {
                code: format!("{code}-W"),
                price: 19_900,
                cost: 9_000,
                option1: "ขาว".into(),
                ..Default::default()
            },
            pb::Sku {
                code: format!("{code}-B"),
                price: 21_900,
                cost: 9_000,
                option1: "ดำ".into(),
                ..Default::default()
            },
        ],
        ..Default::default()
    }
}

async fn create(s: &Service, p: pb::Product) -> pb::Product {
    s.grpc
        .create_product(ctx().request(pb::CreateProductRequest { product: Some(p) }))
        .await
        .unwrap()
        .into_inner()
        .product
        .unwrap()
}

async fn list(s: &Service, search: &str, status: &str) -> pb::ListProductsResponse {
    s.grpc
        .list_products(ctx().request(pb::ListProductsRequest {
            search: search.into(),
            category_id: 0,
            status: <pb::ProductStatus as bo_proto::Wire>::number(status),
            page: Some(pb::PageRequest { page: 1, limit: 10 }),
        }))
        .await
        .unwrap()
        .into_inner()
}

async fn products_with_variants_search_and_edit(db: Db) {
    let bus = bo_kit::testing::bus().await;
    let (s, _wms, _wms_db) = catalog(&db, &bus).await;
    let p = create(&s, shirt("TS-01")).await;
    assert_eq!((p.skus.len(), p.price_ex_vat), (2, 18_598));
    create(&s, shirt("TS-02")).await;

    let dup = s
        .grpc
        .create_product(ctx().request(pb::CreateProductRequest { product: Some(shirt("TS-01")) }))
        .await
        .unwrap_err();
    assert_eq!(bo_kit::Error::from(dup).code, Code::CodeTaken);

    assert_eq!(list(&s, "", "").await.page.unwrap().total, 2);
    assert_eq!(list(&s, "ts-02-b", "").await.products[0].code, "TS-02", "search by SKU code");
    assert_eq!(list(&s, "คอกลม", "").await.page.unwrap().total, 2);

    // Replace: change a price, drop a SKU, add one.
    let mut edit = p.clone();
    edit.variants[0].options.push("แดง".into());
    edit.skus[0].price = 25_000;
    edit.skus.remove(1);
    edit.skus.push(pb::Sku {
        code: "TS-01-R".into(),
        price: 19_900,
        cost: 9_000,
        option1: "แดง".into(),
        ..Default::default()
    });
    let saved = s
        .grpc
        .update_product(ctx().request(pb::UpdateProductRequest { product: Some(edit) }))
        .await
        .unwrap()
        .into_inner()
        .product
        .unwrap();
    let codes: Vec<&str> = saved.skus.iter().map(|s| s.code.as_str()).collect();
    assert_eq!(codes, ["TS-01-W", "TS-01-R"]);
    assert_eq!(saved.skus[0].price, 25_000);

    let changed = s
        .grpc
        .set_product_status(
            ctx().request(pb::SetProductStatusRequest { ids: vec![p.id], status: pb::ProductStatus::Inactive.into() }),
        )
        .await
        .unwrap();
    assert_eq!(changed.into_inner().changed, 1);
    assert_eq!(list(&s, "", "inactive").await.page.unwrap().total, 1);
    let count = s
        .grpc
        .count_products(ctx().request(pb::CountProductsRequest { status: pb::ProductStatus::Active.into() }))
        .await
        .unwrap();
    assert_eq!(count.into_inner().count, 1);

    // Another store sees none of it.
    let other = CallCtx::new(2, 5);
    let none = s.grpc.get_product(other.request(pb::GetProductRequest { id: p.id })).await.unwrap_err();
    assert_eq!(bo_kit::Error::from(none).code, Code::ProductNotFound);

    // Deleting keeps the counts right too.
    let second = list(&s, "TS-02", "").await.products[0].id;
    s.grpc.delete_products(ctx().request(pb::DeleteProductsRequest { ids: vec![second] })).await.unwrap();
    assert_eq!(list(&s, "", "").await.page.unwrap().total, 1);
    counts_hold(&s).await;
}

/// The kept counts equal a recount of the rows.
async fn counts_hold(s: &Service) {
    let (kept, actual) = bo_products::store::Repo::new(s.db.clone()).counts_and_recount(1).await.unwrap();
    assert_eq!(kept, actual, "kept counts (products, skus, stocked skus, stock rows) against a recount");
}

async fn the_inventory_view_follows_the_ledger(db: Db) {
    let bus = bo_kit::testing::bus().await;
    let (s, wms, wms_db) = catalog(&db, &bus).await;
    let mut tx = wms_db.db.begin().await.unwrap();
    bo_wms::store::Repo::ensure_default_warehouse(&mut tx, 1, "คลังหลัก").await.unwrap();
    tx.commit().await.unwrap();
    let w =
        wms.grpc.list_warehouses(ctx().request(wpb::ListWarehousesRequest {})).await.unwrap().into_inner().warehouses
            [0]
        .id;
    let stop = CancellationToken::new();
    tokio::spawn(s.consumer.clone().run(stop.clone()));
    tokio::spawn(s.relay.clone().run(stop.clone()));
    tokio::spawn(wms.relay.clone().run(stop.clone()));
    tokio::spawn(wms.consumer.clone().run(stop.clone()));

    let p = create(&s, shirt("TS-09")).await;
    let sku = p.skus[0].id;
    // The ledger learns of the SKU from the catalog's event.
    let receive = wpb::ReceiveRequest {
        reference: "gr-1".into(),
        lines: vec![wpb::StockLine { warehouse_id: w, sku_id: sku, quantity: 12, ..Default::default() }],
    };
    let mut received = false;
    for _ in 0..100 {
        if wms.grpc.receive(ctx().request(receive.clone())).await.is_ok() {
            received = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(received, "the ledger learnt of the SKU");
    wms.grpc
        .reserve(ctx().request(wpb::ReserveRequest {
            reference: "o-1".into(),
            lines: vec![wpb::StockLine { warehouse_id: w, sku_id: sku, quantity: 5, ..Default::default() }],
        }))
        .await
        .unwrap();
    let mut inv = pb::Inventory::default();
    for _ in 0..100 {
        let got = s.grpc.get_product(ctx().request(pb::GetProductRequest { id: p.id })).await.unwrap().into_inner();
        if let Some(i) = got.product.unwrap().skus[0].inventories.first() {
            inv = *i;
            if inv.reserved == 5 {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!((inv.warehouse_id, inv.on_hand, inv.reserved, inv.available), (w, 12, 5, 7));

    let overview = s
        .grpc
        .list_sku_inventories(
            ctx().request(pb::ListSkuInventoriesRequest { search: "TS-09".into(), ..Default::default() }),
        )
        .await
        .unwrap()
        .into_inner();
    assert_eq!(overview.page.unwrap().total, 2, "both SKUs, the unstocked one at zero");
    assert_eq!(overview.rows.iter().map(|r| r.inventory.unwrap().available).sum::<i64>(), 7);

    // A product holding stock stays, with its reason; each product is answered on its own.
    let kept = s
        .grpc
        .delete_products(ctx().request(pb::DeleteProductsRequest { ids: vec![p.id, 987_654] }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(kept.deleted, 0);
    let reasons: Vec<(i64, bool, &str)> = kept.results.iter().map(|r| (r.id, r.ok, r.reason.as_str())).collect();
    assert_eq!(reasons, vec![(p.id, false, "product_has_stock"), (987_654, false, "product_not_found")]);
    let all = s
        .grpc
        .list_sku_inventories(ctx().request(pb::ListSkuInventoriesRequest::default()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(all.page.unwrap().total, 2, "the total from the kept counts");
    counts_hold(&s).await;
    stop.cancel();
}

async fn grams_of(db: &Db, product_id: i64) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM product_search_grams WHERE product_id = $1")
        .bind(product_id)
        .fetch_one(db.pool())
        .await
        .unwrap()
}

async fn sku_rows(s: &Service, search: &str) -> Vec<String> {
    let r = s
        .grpc
        .list_sku_inventories(ctx().request(pb::ListSkuInventoriesRequest {
            search: search.into(),
            page: Some(pb::PageRequest { page: 1, limit: 50 }),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    r.rows.into_iter().map(|r| r.sku.unwrap().code).collect()
}

async fn search_finds_any_part_of_names_codes_and_barcodes(db: Db) {
    let bus = bo_kit::testing::bus().await;
    let (s, _wms, _wms_db) = catalog(&db, &bus).await;
    let shirt = create(&s, shirt("TS-01")).await;
    let mut cream = pb::Product {
        name: "ครีมกันแดด SPF50".into(),
        name_en: "Sunscreen Lotion".into(),
        code: "SK-050".into(),
        barcode: "8850001112223".into(),
        ..shirt_like()
    };
    cream.skus[0].code = "SK-050-1".into();
    let cream = create(&s, cream).await;
    let sale = create(
        &s,
        pb::Product {
            name: "ส่วนลด 50% ทุกชิ้น".into(), code: "DC_1".into(), ..shirt_like()
        },
    )
    .await;
    let other = CallCtx::new(2, 5);
    s.grpc
        .create_product(other.request(pb::CreateProductRequest {
            product: Some(pb::Product {
                name: "ส่วนลด 50% ทุกชิ้น".into(), code: "DC_1".into(), ..shirt_like()
            }),
        }))
        .await
        .unwrap();

    let codes = |r: pb::ListProductsResponse| r.products.into_iter().map(|p| p.code).collect::<Vec<_>>();
    assert_eq!(codes(list(&s, "กันแดด", "").await), ["SK-050"], "a Thai word inside a name");
    assert_eq!(codes(list(&s, "  sunSCREEN ", "").await), ["SK-050"], "the English name, any case");
    assert_eq!(codes(list(&s, "0001112", "").await), ["SK-050"], "part of a barcode");
    assert_eq!(codes(list(&s, "ts-01-b", "").await), ["TS-01"], "a SKU code");
    assert_eq!(codes(list(&s, "50%", "").await), ["DC_1"], "% is a character, not a wildcard");
    assert_eq!(codes(list(&s, "c_1", "").await), ["DC_1"], "_ is a character, not a wildcard");
    assert!(codes(list(&s, "c-1", "").await).is_empty());
    assert_eq!(codes(list(&s, "ยื", "").await), ["TS-01"], "two characters");
    assert!(codes(list(&s, "คอกลมts", "").await).is_empty(), "no match across fields");
    assert!(codes(list(&s, "ไม่มีสินค้านี้", "").await).is_empty());
    assert_eq!(list(&s, "ทุกชิ้น", "").await.page.unwrap().total, 1, "another store's product stays out");

    // SKU rows match on the SKU's own code, or on their product's names.
    assert_eq!(sku_rows(&s, "ts-01-b").await, ["TS-01-B"]);
    assert_eq!(sku_rows(&s, "คอกลม").await, ["TS-01-B", "TS-01-W"]);
    assert_eq!(sku_rows(&s, "lotion").await, ["SK-050-1"]);

    // A rename re-indexes; a delete forgets.
    let mut renamed = cream.clone();
    renamed.name = "โลชั่นกันยุง".into();
    s.grpc.update_product(ctx().request(pb::UpdateProductRequest { product: Some(renamed) })).await.unwrap();
    assert!(codes(list(&s, "กันแดด", "").await).is_empty());
    assert_eq!(codes(list(&s, "กันยุง", "").await), ["SK-050"]);
    assert!(grams_of(&db, sale.id).await > 0);
    s.grpc.delete_products(ctx().request(pb::DeleteProductsRequest { ids: vec![sale.id] })).await.unwrap();
    assert_eq!(grams_of(&db, sale.id).await, 0);

    // Products saved before search was indexed are indexed when the service starts.
    sqlx::query("DELETE FROM product_search_grams").execute(db.pool()).await.unwrap();
    sqlx::query("UPDATE products SET search_text = ''").execute(db.pool()).await.unwrap();
    assert!(codes(list(&s, "คอกลม", "").await).is_empty());
    let (s, _wms2, _wms_db2) = catalog(&db, &bus).await;
    assert_eq!(codes(list(&s, "คอกลม", "").await), ["TS-01"]);
    assert!(grams_of(&db, shirt.id).await > 0);
}

/// A one-SKU product without variants.
fn shirt_like() -> pb::Product {
    pb::Product {
        name: "สินค้า".into(),
        short_description: "สั้น".into(),
        code: "X-1".into(),
        category_id: 1,
        price: 10_000,
        cost: 5_000,
        tags: vec!["ทดสอบ".into()],
        skus: vec![pb::Sku { price: 10_000, cost: 5_000, ..Default::default() }],
        ..Default::default()
    }
}

bo_kit::on_both_databases!(
    products_with_variants_search_and_edit,
    the_inventory_view_follows_the_ledger,
    search_finds_any_part_of_names_codes_and_barcodes
);
