//! The stock invariants on live databases (`backoffice admin check-stock`, and every API
//! test after it acts): the ledger's own (stock rows, lots, reservations and movements
//! agree), across orders and wms (reserved units belong to open orders, and an open order
//! holds exactly its lines unless it is flagged short), and the orders' money (bills add up
//! to their order's total; one live payment per bill; payment states follow the payments).

use bo_kit::db::Db;

/// How long an order may be settling with wms before the check names it, ms.
pub const SETTLING_GRACE_MS: i64 = 60_000;

/// Sentences naming what breaks the invariants (empty when they hold). `orders_url` is None
/// where no orders database exists yet.
pub async fn stock(wms_url: &str, orders_url: Option<&str>, grace_ms: i64) -> anyhow::Result<Vec<String>> {
    let wms = Db::connect(wms_url).await?;
    let ledger = bo_wms::store::Repo::new(wms.clone());
    let mut broken = ledger.check_invariants().await.map_err(|e| anyhow::anyhow!("{e}"))?;
    let held = ledger.holdings_with_prefix("order:").await.map_err(|e| anyhow::anyhow!("{e}"));
    wms.close().await;
    let held = held?;
    if let Some(url) = orders_url {
        let db = Db::connect(url).await?;
        // A fresh database has no tables until the orders module first starts.
        let repo = bo_orders::store::Repo::new(db.clone());
        let orders = repo.stock_view().await;
        let money = repo.money_check().await;
        db.close().await;
        match (&orders, money) {
            (_, Ok(m)) => broken.extend(m),
            // No tables yet: nothing to check.
            (Err(_), Err(_)) => {}
            (Ok(_), Err(e)) => anyhow::bail!("reading bills and payments: {e}"),
        }
        let orders = match orders {
            Ok(o) => o,
            Err(_) if held.is_empty() => Vec::new(),
            Err(e) => anyhow::bail!("reading orders: {e}"),
        };
        let held: Vec<bo_orders::domain::check::Holding> = held
            .into_iter()
            .map(|(store_id, reference, warehouse_id, sku_id, quantity, state)| bo_orders::domain::check::Holding {
                store_id,
                reference,
                warehouse_id,
                sku_id,
                quantity,
                state,
            })
            .collect();
        broken.extend(bo_orders::domain::check::compare(&orders, &held, bo_kit::time::now_ms(), grace_ms));
    }
    Ok(broken)
}
