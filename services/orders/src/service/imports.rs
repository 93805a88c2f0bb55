//! Orders imported from a spreadsheet, and inadequate goods received for short orders.

use super::*;
use bo_kit::Code;

impl Orders {
    /// Reads an order spreadsheet and, unless `dry_run`, makes its good orders (several at
    /// a time, each as if typed: it holds its stock or is saved short). An order that could
    /// not be made after the check (its reference taken meanwhile, a SKU taken off sale)
    /// joins the failed rows with its reason. Made orders are never made twice: a reference
    /// the store has is a duplicate, so an import cut short can simply be sent again.
    pub async fn import_orders(
        &self,
        ctx: &CallCtx,
        upload: &str,
        channel: &str,
        warehouse_id: i64,
        dry_run: bool,
    ) -> Result<pb::ImportOrdersResponse> {
        use crate::import::{self as imp, FileError};
        let bytes = self.staged_bytes(ctx.store_id, upload, imp::MAX_FILE_BYTES, "import_too_large").await?;
        if !known_channel(channel) {
            return Err(Error::invalid_field("channel", "validation.channel_unknown"));
        }
        let warehouses = self.warehouses(ctx, true).await?;
        if !warehouses.iter().any(|(id, active)| *id == warehouse_id && *active) {
            return Err(Error::invalid_field("warehouse_id", "validation.warehouse_unknown"));
        }
        let parsed = bo_kit::cpu::run(move || imp::parse(&bytes))
            .await
            .map_err(Error::internal)?
            .map_err(|e: FileError| Error::invalid_field("file", e.code()))?;
        // The store's SKUs the file names, and the references it already has.
        let mut skus = HashMap::new();
        for chunk in imp::sku_codes(&parsed.rows).chunks(500) {
            let found = self
                .clients()?
                .products
                .clone()
                .describe_skus(ctx.request(ppb::DescribeSkusRequest { ids: Vec::new(), codes: chunk.to_vec() }))
                .await
                .map_err(Error::from)?
                .into_inner()
                .skus;
            for d in found {
                let product_active = d.product_status() == ppb::ProductStatus::Active;
                let sku = d.sku.unwrap_or_default();
                let active = sku.status() == ppb::ProductStatus::Active && product_active;
                skus.insert(sku.code.clone(), imp::SkuInfo { id: sku.id, price: sku.price, active });
            }
        }
        let taken = self.repo.taken_references(ctx.store_id, channel, &imp::references(&parsed.rows)).await?;
        let channel_code = channel.to_string();
        let (parsed, mut plan) = bo_kit::cpu::run(move || {
            let plan = imp::plan(&parsed.rows, &channel_code, warehouse_id, &skus, &taken);
            (parsed, plan)
        })
        .await
        .map_err(Error::internal)?;
        let mut made: HashMap<usize, (i64, String)> = HashMap::new();
        if !dry_run {
            let mut results: Vec<(usize, Result<View>)> = Vec::with_capacity(plan.orders.len());
            for (n, batch) in plan.orders.chunks(IMPORT_AT_ONCE).enumerate() {
                let mut pending = Vec::with_capacity(batch.len());
                for p in batch {
                    pending.push(self.create(ctx, p.draft.clone()));
                }
                let done = futures::future::join_all(pending).await;
                results.extend(done.into_iter().enumerate().map(|(j, r)| (n * IMPORT_AT_ONCE + j, r)));
            }
            let mut failed = Vec::new();
            for (i, r) in results {
                match r {
                    Ok(v) => {
                        made.insert(i, (v.order.id, v.order.order_no.clone()));
                    }
                    Err(e) if is_definite(&e) => failed.push((i, e)),
                    Err(e) => return Err(e),
                }
            }
            for (i, e) in failed.into_iter().rev() {
                let p = plan.orders.remove(i);
                let code = if e.code == Code::DuplicateOrderReference {
                    "order.duplicate_reference".to_string()
                } else {
                    e.fields.first().map(|f| f.code.to_string()).unwrap_or_else(|| e.code.to_string())
                };
                for row in &p.rows {
                    plan.errors.push(imp::RowError { row: *row, field: "reference".into(), code: code.clone() });
                    plan.failed_rows.push(*row);
                }
                // Later indices shift down by one.
                made = made.into_iter().map(|(j, m)| (if j > i { j - 1 } else { j }, m)).collect();
            }
            plan.errors.sort_by_key(|e| e.row);
            plan.failed_rows.sort_unstable();
            self.relay.wake();
        }
        let by_row: HashMap<usize, &imp::Row> = parsed.rows.iter().map(|r| (r.row, r)).collect();
        Ok(pb::ImportOrdersResponse {
            created: made.len() as i64,
            rows: parsed.rows.len() as i64,
            orders: plan
                .orders
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let (order_id, order_no) = made.get(&i).cloned().unwrap_or_default();
                    pb::ImportedOrder {
                        reference: p.draft.reference.clone(),
                        rows: p.rows.iter().map(|r| *r as i64).collect(),
                        name: p.draft.address.name.clone(),
                        tel: p.draft.address.tel.clone(),
                        province: p.draft.address.state_province.clone(),
                        lines: p.draft.items.len() as i64,
                        quantity: p.quantity,
                        total: p.total,
                        order_id,
                        order_no,
                        address_complete: p.draft.address.is_complete(),
                    }
                })
                .collect(),
            errors: plan
                .errors
                .iter()
                .map(|e| pb::ImportOrderError { row: e.row as i64, field: e.field.clone(), code: e.code.clone() })
                .collect(),
            failed_rows: plan
                .failed_rows
                .iter()
                .filter_map(|r| by_row.get(r))
                .map(|r| pb::ImportFailedRow { row: r.row as i64, cells: r.cells.clone() })
                .collect(),
            header: parsed.header,
        })
    }

    /// What short orders of a warehouse of the store wait for, with what is available there.
    pub async fn shortages(&self, ctx: &CallCtx, warehouse_id: i64) -> Result<Vec<crate::arrivals::Shortage>> {
        if !self.warehouses(ctx, true).await?.iter().any(|(id, _)| *id == warehouse_id) {
            return Err(Error::invalid_field("warehouse_id", "validation.warehouse_unknown"));
        }
        let lines = self.repo.short_lines(ctx.store_id, warehouse_id).await?;
        let mut skus: Vec<i64> = lines.iter().map(|l| l.0).collect();
        skus.sort_unstable();
        skus.dedup();
        let mut available = HashMap::new();
        for chunk in skus.chunks(500) {
            let levels = self
                .clients()?
                .wms
                .clone()
                .get_stock(ctx.request(wpb::GetStockRequest { sku_ids: chunk.to_vec(), warehouse_id }))
                .await
                .map_err(Error::from)?
                .into_inner()
                .levels;
            available.extend(levels.into_iter().map(|l| (l.sku_id, l.available.max(0))));
        }
        Ok(crate::arrivals::shortages(&lines, &available))
    }

    /// Reads a file of goods arriving for the short orders of a warehouse and, unless
    /// `dry_run`, receives them into its stock and fills the short orders, oldest first. The
    /// same file twice is received once (its digest is the receipt's reference).
    pub async fn receive_arrivals(
        &self,
        ctx: &CallCtx,
        upload: &str,
        warehouse_id: i64,
        dry_run: bool,
    ) -> Result<pb::ReceiveArrivalsResponse> {
        use crate::arrivals;
        use sha2::Digest;
        let bytes = self.staged_bytes(ctx.store_id, upload, arrivals::MAX_FILE_BYTES, "import_too_large").await?;
        let shortages = self.shortages(ctx, warehouse_id).await?;
        if shortages.is_empty() {
            return Err(Error::failed_precondition(Code::InadequateGoodsNotFound));
        }
        let digest = hex::encode(sha2::Sha256::digest(&bytes));
        let (arrived, mut errors) = bo_kit::cpu::run(move || arrivals::parse(&bytes))
            .await
            .map_err(Error::internal)?
            .map_err(|e| Error::invalid_field("file", e.code()))?;
        let (accepted, refused) = arrivals::check(&arrived, &shortages);
        errors.extend(refused);
        errors.sort();
        let mut out = pb::ReceiveArrivalsResponse {
            lines: accepted
                .iter()
                .map(|(s, q, rows)| pb::ArrivalLine {
                    shortage: Some(shortage_pb(s)),
                    quantity: *q,
                    rows: rows.iter().map(|r| *r as i64).collect(),
                })
                .collect(),
            errors: errors
                .iter()
                .map(|(row, field, code)| pb::ImportOrderError {
                    row: *row as i64,
                    field: field.to_string(),
                    code: code.to_string(),
                })
                .collect(),
            ..Default::default()
        };
        if dry_run || accepted.is_empty() {
            return Ok(out);
        }
        let lines = accepted
            .iter()
            .map(|(s, q, _)| wpb::StockLine { warehouse_id, sku_id: s.sku_id, quantity: *q, ..Default::default() })
            .collect();
        let reference = format!("arrivals-{warehouse_id}-{}", &digest[..32]);
        // The filler may take some of them first (the stock's event wakes it): what was
        // short before and is not after was filled, by either.
        let mut before: Vec<i64> =
            self.repo.short_lines(ctx.store_id, warehouse_id).await?.iter().map(|l| l.5).collect();
        before.dedup();
        let received = self
            .clients()?
            .wms
            .clone()
            .receive(ctx.request(wpb::ReceiveRequest { reference, lines }))
            .await
            .map_err(Error::from)?
            .into_inner();
        out.replayed = received.replayed;
        self.fill(ctx, warehouse_id, 0).await?;
        // Filled: holding their stock now. The filler (woken by the stock's event) may be
        // holding some meanwhile: their answer is waited for a little, else they count as
        // short until settled.
        let mut rows = self.repo.orders(ctx.store_id, &before).await?;
        for _ in 0..20 {
            if !rows.iter().any(|o| stock::IN_FLIGHT.contains(&o.stock_state.as_str())) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            rows = self.repo.orders(ctx.store_id, &before).await?;
        }
        let held: std::collections::HashSet<i64> =
            rows.into_iter().filter(|o| o.stock_state == stock::HELD).map(|o| o.id).collect();
        let (filled, short): (Vec<i64>, Vec<i64>) = before.into_iter().partition(|id| held.contains(id));
        out.filled = filled;
        out.short = short;
        Ok(out)
    }
}
