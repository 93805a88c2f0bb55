//! Building exports in the background: a builder claims the oldest waiting export (the
//! stores in turn), reads its rows a page at a time from their source, and writes them to a
//! spreadsheet in constant memory (rows go to a temporary file as they are written, never all
//! held at once), then streams the file into file storage. Its claim is renewed with every
//! page; a builder that dies leaves a claim that goes stale, and another takes the export
//! over. Files past their time are removed and their exports marked expired.

use std::collections::HashMap;
use std::time::Duration;

use bo_kit::files::Key;
use bo_kit::grpc::CallCtx;
use bo_kit::paging::PageRequest;
use bo_kit::time::{ms_to_timestamp, now_ms};
use bo_kit::{Error, Result};
use bo_proto::orders::v1 as opb;
use bo_proto::products::v1 as ppb;
use bo_proto::stores::v1 as spb;
use bo_proto::wms::v1 as wpb;
use bo_proto::Wire as _;
use bytes::Bytes;
use rust_xlsxwriter::{Format, Workbook};
use tokio_util::sync::CancellationToken;

use super::domain::{self as export, ExportEvent, Kind, Lang};
use super::sheets::{self, Cell, MovementNames, Sheet};
use super::store::{ExportRow, Scope};
use super::{export_span, Exports};
use crate::domain::Counted as _;
use crate::fees::FeeFigures;
use crate::store::{Repo, SoldSort};

/// Rows read per page.
pub const PAGE: i32 = 500;

/// How often a builder says how far it got (and renews its claim).
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// A claim not renewed for this long is taken over.
pub const STALE_MS: i64 = 60_000;
/// The largest file an export may write.
const MAX_FILE_BYTES: u64 = 512 * 1024 * 1024;
/// Files under this prefix older than this are removed whatever recorded them (an export
/// whose record is gone, or one a builder that lost its claim left).
const FILES_PREFIX: &str = "exports/";
const ORPHAN_AGE: Duration = Duration::from_secs(8 * 24 * 3600);

/// The names an export writes beside ids: channels, warehouses and members.
#[derive(Debug, Default)]
pub struct Names {
    pub channels: HashMap<String, String>,
    pub warehouses: HashMap<i64, String>,
    pub members: HashMap<i64, String>,
}

/// The movements request of `scope`: `limit` of them before id `before` (0: the newest).
pub fn movements_request(scope: &Scope, before: i64, limit: i64) -> wpb::ListMovementsRequest {
    wpb::ListMovementsRequest {
        kind: scope.movement_kind.clone(),
        sku_id: scope.sku_id,
        page: Some(bo_proto::common::v1::PageRequest { page: 1, limit }),
        warehouse_id: scope.warehouse_id,
        from_time: Some(ms_to_timestamp(scope.from_ms)),
        to_time: Some(ms_to_timestamp(scope.to_ms)),
        before_id: before,
        no_total: before > 0,
    }
}

/// The orders request of `scope`: `limit` of them after id `after` (0 with `with_total`
/// counts them alone).
pub fn orders_request(scope: &Scope, after: i64, limit: i32, with_total: bool) -> opb::ListOrdersForExportRequest {
    opb::ListOrdersForExportRequest {
        date_from_ms: scope.from_ms,
        date_to_ms: scope.to_ms,
        states: scope.order_states.iter().map(|w| opb::OrderState::from_wire(w).map_or(0, i32::from)).collect(),
        after_id: after,
        limit,
        with_total,
    }
}

/// The rows of a summary export (every kind but orders and stock movements), from the
/// reports' own tables: at most a year's days, a store's channels, warehouses or members,
/// except the SKUs, which `sold_page` reads a page at a time.
pub async fn summary_rows(
    repo: &Repo,
    store_id: i64,
    kind: Kind,
    scope: &Scope,
    lang: Lang,
    names: &Names,
) -> Result<Vec<Vec<Cell>>> {
    let span = export_span(scope);
    let named = |m: &HashMap<i64, String>, id: i64| {
        m.get(&id).cloned().filter(|n| !n.is_empty()).unwrap_or_else(|| {
            if id == 0 {
                "-".into()
            } else {
                format!("#{id}")
            }
        })
    };
    Ok(match (kind, scope.table.as_str()) {
        (Kind::OrderSummary, "channels") => {
            let s = repo.summary(store_id, &span, 0, crate::store::Parts::Channels).await?;
            s.channels
                .iter()
                .map(|(code, f)| {
                    sheets::figures_row(names.channels.get(code).cloned().unwrap_or_else(|| code.clone()), f)
                })
                .collect()
        }
        (Kind::OrderSummary, "states") => {
            let s = repo.state_sales(store_id, &span).await?;
            opb::OrderState::words()
                .filter_map(|w| Some(sheets::state_row(w, s.current.get(w).filter(|f| !f.is_zero())?, lang)))
                .collect()
        }
        (Kind::OrderSummary, _) => repo
            .daily(store_id, span.from, span.to, crate::domain::Bucket::Day, false)
            .await?
            .iter()
            .filter(|(_, _, f)| !f.is_zero())
            .map(|(day, _, f)| sheets::figures_row(sheets::day_label(*day, lang), f))
            .collect(),
        (Kind::SoldItems, _) => {
            let mut out = Vec::new();
            for page in 1.. {
                let rows = sold_page(repo, store_id, scope, page).await?;
                let n = rows.len();
                out.extend(rows);
                if n < PAGE as usize {
                    break;
                }
            }
            out
        }
        (Kind::ServiceFees, "warehouses") => {
            let s = repo.fee_summary(store_id, &span).await?;
            s.warehouses
                .iter()
                .filter(|(_, f, _)| *f != FeeFigures::default())
                .map(|(id, f, _)| sheets::fee_row(named(&names.warehouses, *id), f))
                .collect()
        }
        (Kind::ServiceFees, _) => {
            let s = repo.fee_summary(store_id, &span).await?;
            s.points
                .iter()
                .filter(|(_, f)| *f != FeeFigures::default())
                .map(|(day, f)| sheets::fee_row(sheets::day_label(*day, lang), f))
                .collect()
        }
        (Kind::AdminPerformance, _) => {
            let s = repo.staff(store_id, &span).await?;
            let mut rows: Vec<(i64, crate::domain::AreaFigures)> = s
                .current
                .iter()
                .filter(|(_, f)| f.orders != 0 || f.net != 0)
                .map(|(id, f)| (id.parse().unwrap_or(0), *f))
                .collect();
            rows.sort_by_key(|(id, f)| (-f.net, *id));
            rows.iter().map(|(id, f)| sheets::staff_row(named(&names.members, *id), f)).collect()
        }
        (Kind::Orders | Kind::StockMovements, _) => Vec::new(),
    })
}

/// A page of the SKUs a period sold, the largest net first.
async fn sold_page(repo: &Repo, store_id: i64, scope: &Scope, page: i64) -> Result<Vec<Vec<Cell>>> {
    let span = export_span(scope);
    let s = repo.sold_items(store_id, &span, "", SoldSort::Net, PageRequest::new(page, i64::from(PAGE))).await?;
    // Past the last page the paging answers the last page again.
    if s.page.is_some_and(|p| p.page < page) {
        return Ok(Vec::new());
    }
    Ok(s.items.iter().map(|(now, _)| sheets::sku_row(now)).collect())
}

/// Rows a sheet holds under its header: a spreadsheet's 1,048,576, less the header.
const ROWS_PER_SHEET: u32 = 1_048_575;

/// Writes the rows it is sent to `path`; answers the rows written.
fn write_book(
    path: std::path::PathBuf,
    sheet: Sheet,
    rows: std::sync::mpsc::Receiver<Vec<Vec<Cell>>>,
) -> anyhow::Result<u32> {
    write_book_with(path, sheet, rows, ROWS_PER_SHEET)
}

/// A sheet of the book under `sheet`'s headers and widths: the first named as `sheet` is,
/// the `n`th after it with its number (a name is at most 31 characters).
fn add_sheet<'a>(
    book: &'a mut Workbook,
    sheet: &Sheet,
    n: u32,
    bold: &Format,
) -> anyhow::Result<&'a mut rust_xlsxwriter::Worksheet> {
    let ws = book.add_worksheet_with_constant_memory()?;
    if n == 1 {
        ws.set_name(sheet.name)?;
    } else {
        let suffix = format!(" ({n})");
        let name: String = sheet.name.chars().take(31 - suffix.chars().count()).collect();
        ws.set_name(format!("{name}{suffix}"))?;
    }
    // Widths come before the rows in a sheet written as it goes.
    for (c, w) in sheet.widths.iter().enumerate() {
        ws.set_column_width(c as u16, f64::from(*w))?;
    }
    for (c, h) in sheet.headers.iter().enumerate() {
        ws.write_string_with_format(0, c as u16, *h, bold)?;
    }
    Ok(ws)
}

/// Writes the rows it is sent to `path`, `per_sheet` to a sheet: the rows past a full sheet
/// go on to the next, under the same headers (a spreadsheet refuses a sheet of more than
/// 1,048,576 rows, so a year of a large shop's orders takes two). Answers the rows written.
fn write_book_with(
    path: std::path::PathBuf,
    sheet: Sheet,
    rows: std::sync::mpsc::Receiver<Vec<Vec<Cell>>>,
    per_sheet: u32,
) -> anyhow::Result<u32> {
    let mut book = Workbook::new();
    let bold = Format::new().set_bold();
    let quoted = Format::new().set_quote_prefix();
    let money = Format::new().set_num_format("#,##0.00");
    let mut sheets = 1;
    let mut ws = add_sheet(&mut book, &sheet, sheets, &bold)?;
    let (mut r, mut written): (u32, u32) = (1, 0);
    while let Ok(batch) = rows.recv() {
        for cells in batch {
            if r > per_sheet {
                sheets += 1;
                ws = add_sheet(&mut book, &sheet, sheets, &bold)?;
                r = 1;
            }
            for (c, cell) in cells.iter().enumerate() {
                let c = c as u16;
                match cell {
                    Cell::Text(s) if s.is_empty() => {}
                    // Text a spreadsheet would run stays text (SPEC: exports never run a formula).
                    Cell::Text(s) if export::looks_like_formula(s) => {
                        ws.write_string_with_format(r, c, s, &quoted)?;
                    }
                    Cell::Text(s) => {
                        ws.write_string(r, c, s)?;
                    }
                    Cell::Money(satang) => {
                        ws.write_number_with_format(r, c, *satang as f64 / 100.0, &money)?;
                    }
                    Cell::Count(n) => {
                        ws.write_number(r, c, *n as f64)?;
                    }
                }
            }
            r += 1;
            written += 1;
        }
    }
    book.save(&path)?;
    Ok(written)
}

/// Where the next page starts: an order or movement id, or a page number.
type Cursor = i64;

impl Exports {
    /// The names an export of `kind` writes, read once.
    async fn names(&self, ctx: &CallCtx, kind: Kind, lang: Lang) -> Result<Names> {
        let s = self.sources()?;
        let mut names = Names::default();
        if matches!(kind, Kind::Orders | Kind::OrderSummary) {
            use bo_proto::marketplaces::v1 as mpb;
            let r = s
                .marketplaces
                .clone()
                .list_sale_channels(ctx.request(mpb::ListSaleChannelsRequest {}))
                .await
                .map_err(Error::from)?;
            names.channels = r
                .into_inner()
                .channels
                .into_iter()
                .map(|c| {
                    let code = mpb::SaleChannel::word_of(c.channel).to_string();
                    (code, if lang == Lang::Th { c.name_th } else { c.name_en })
                })
                .collect();
        }
        if matches!(kind, Kind::ServiceFees | Kind::StockMovements) {
            let r =
                s.wms.clone().list_warehouses(ctx.request(wpb::ListWarehousesRequest {})).await.map_err(Error::from)?;
            names.warehouses = r.into_inner().warehouses.into_iter().map(|w| (w.id, w.name)).collect();
        }
        if matches!(kind, Kind::AdminPerformance | Kind::StockMovements) {
            let r = s
                .stores
                .clone()
                .list_members(ctx.request(spb::ListMembersRequest {
                    page: Some(bo_proto::common::v1::PageRequest { page: 1, limit: -1 }),
                    status: spb::MemberStatus::Unspecified.into(),
                    search: String::new(),
                }))
                .await
                .map_err(Error::from)?;
            names.members = r
                .into_inner()
                .memberships
                .into_iter()
                .map(|m| {
                    let u = m.user.unwrap_or_default();
                    (m.user_id, format!("{} {}", u.first_name, u.last_name).trim().to_string())
                })
                .collect();
        }
        Ok(names)
    }

    /// A page of an export's rows from `cursor`, and where the next starts (None: the last).
    async fn page(
        &self,
        ctx: &CallCtx,
        e: &ExportRow,
        scope: &Scope,
        names: &Names,
        lang: Lang,
        cursor: Cursor,
    ) -> Result<(Vec<Vec<Cell>>, Option<Cursor>)> {
        let kind = Kind::of(&e.kind).ok_or_else(|| Error::internal(anyhow::anyhow!("an export of no known kind")))?;
        match kind {
            Kind::Orders => {
                let s = self.sources()?;
                let r = s
                    .orders
                    .clone()
                    .list_orders_for_export(ctx.request(orders_request(scope, cursor, PAGE, false)))
                    .await
                    .map_err(Error::from)?
                    .into_inner();
                let next = (r.orders.len() == PAGE as usize).then(|| r.orders.last().map_or(cursor, |o| o.id));
                let rows = r
                    .orders
                    .iter()
                    .map(|o| {
                        let channel = names.channels.get(&o.channel).map_or(o.channel.as_str(), String::as_str);
                        sheets::order_row(o, channel, lang)
                    })
                    .collect();
                Ok((rows, next))
            }
            Kind::StockMovements => {
                let s = self.sources()?;
                let r = s
                    .wms
                    .clone()
                    .list_movements(ctx.request(movements_request(scope, cursor, i64::from(PAGE))))
                    .await
                    .map_err(Error::from)?
                    .into_inner();
                let mut ids: Vec<i64> = r.movements.iter().map(|m| m.sku_id).collect();
                ids.sort_unstable();
                ids.dedup();
                let skus: HashMap<i64, ppb::SkuDescription> = if ids.is_empty() {
                    HashMap::new()
                } else {
                    s.products
                        .clone()
                        .describe_skus(ctx.request(ppb::DescribeSkusRequest { ids, codes: vec![] }))
                        .await
                        .map_err(Error::from)?
                        .into_inner()
                        .skus
                        .into_iter()
                        .filter_map(|d| Some((d.sku.as_ref()?.id, d)))
                        .collect()
                };
                let next = (r.movements.len() == PAGE as usize).then(|| r.movements.last().map_or(cursor, |m| m.id));
                let rows = r
                    .movements
                    .iter()
                    .map(|m| {
                        let d = skus.get(&m.sku_id);
                        let names = MovementNames {
                            warehouse: names.warehouses.get(&m.warehouse_id).map_or("", String::as_str),
                            sku_code: d.and_then(|d| d.sku.as_ref()).map_or("", |s| s.code.as_str()),
                            product: d.map_or("", |d| d.product_name.as_str()),
                            by: names.members.get(&m.actor_user_id).map_or("", String::as_str),
                        };
                        sheets::movement_row(m, names, lang)
                    })
                    .collect();
                Ok((rows, next))
            }
            Kind::SoldItems => {
                let page = cursor.max(1);
                let rows = sold_page(&self.repo, e.store_id, scope, page).await?;
                let next = (rows.len() == PAGE as usize).then_some(page + 1);
                Ok((rows, next))
            }
            _ => Ok((summary_rows(&self.repo, e.store_id, kind, scope, lang, names).await?, None)),
        }
    }

    /// Claims and builds one waiting export; false when none waits.
    pub async fn build_next(&self, holder: &str) -> Result<bool> {
        let Some(e) = self.repo.claim_export(holder, now_ms() - STALE_MS).await? else { return Ok(false) };
        match self.build(&e, holder).await {
            Ok(Some((key, size, rows))) => {
                if !self.repo.finish_export(e.id, Some(holder), ExportEvent::Built, &key, size, rows, "").await? {
                    // Another took it over meanwhile: this file is not the one it keeps.
                    if let Ok(k) = Key::new(key) {
                        self.files()?.forget(&k).await;
                    }
                }
            }
            Ok(None) => {}
            Err(err) => {
                tracing::warn!(export = e.id, kind = %e.kind, error = %err, "could not build an export");
                self.repo.finish_export(e.id, Some(holder), ExportEvent::Fail, "", 0, 0, err.code.as_str()).await?;
            }
        }
        Ok(true)
    }

    /// Writes an export's file and keeps it; its key, size and rows, or None when the claim
    /// was lost on the way.
    async fn build(&self, e: &ExportRow, holder: &str) -> Result<Option<(String, i64, i64)>> {
        let kind = Kind::of(&e.kind).ok_or_else(|| Error::internal(anyhow::anyhow!("an export of no known kind")))?;
        let lang = Lang::of(&e.lang);
        let scope = e.scope();
        // The builder reads as the one who asked, in their store.
        let ctx = self.sources()?.identity.acting(e.store_id, e.created_by);
        let names = self.names(&ctx, kind, lang).await?;
        let dir = tempfile::tempdir().map_err(Error::internal)?;
        let path = dir.path().join("export.xlsx");
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Vec<Cell>>>(2);
        let writing = tokio::task::spawn_blocking({
            let (path, sheet) = (path.clone(), sheets::sheet(kind, &scope.table, lang));
            move || write_book(path, sheet, rx)
        });
        let (mut cursor, mut done, mut kept) = (0, 0, true);
        let mut told = std::time::Instant::now();
        let read = async {
            loop {
                let (rows, next) = self.page(&ctx, e, &scope, &names, lang, cursor).await?;
                done += rows.len() as i64;
                if tx.send(rows).is_err() {
                    break;
                }
                // The progress, and the claim renewed with it, at most once a second (the
                // claim goes stale after a minute), not a write per page.
                if told.elapsed() >= PROGRESS_EVERY {
                    if !self.repo.export_progress(e.id, holder, done).await? {
                        kept = false;
                        break;
                    }
                    told = std::time::Instant::now();
                }
                match next {
                    Some(n) => cursor = n,
                    None => break,
                }
            }
            Ok::<_, Error>(())
        };
        let read = read.await;
        drop(tx);
        let written = writing.await.map_err(Error::internal)?.map_err(Error::internal)?;
        read?;
        if !kept {
            return Ok(None);
        }
        tracing::debug!(export = e.id, kind = %e.kind, rows = written, "wrote an export");
        // A key of this builder's own: a builder that lost its claim removes its own file,
        // never the one the winner keeps.
        let key = Key::new(format!(
            "{FILES_PREFIX}{}/{}/{}/{}",
            e.store_id,
            e.id,
            uuid::Uuid::new_v4().simple(),
            e.file_name
        ))
        .map_err(Error::internal)?;
        let file = tokio::fs::File::open(&path).await.map_err(Error::internal)?;
        let body = futures::stream::unfold(file, |mut f| async move {
            use tokio::io::AsyncReadExt as _;
            let mut buf = vec![0u8; 256 * 1024];
            match f.read(&mut buf).await {
                Ok(0) => None,
                Ok(n) => {
                    buf.truncate(n);
                    Some((Ok::<Bytes, std::io::Error>(Bytes::from(buf)), f))
                }
                Err(err) => Some((Err(err), f)),
            }
        });
        let size = self
            .files()?
            .upload(&key, body, MAX_FILE_BYTES)
            .await
            .map_err(|err| Error::internal(anyhow::anyhow!("{err}")))?;
        Ok(Some((key.as_str().to_string(), size as i64, i64::from(written))))
    }

    /// Removes the files of exports past their time; answers how many.
    pub async fn expire(&self) -> Result<usize> {
        let due = self.repo.expired_exports(now_ms(), 100).await?;
        for e in &due {
            if self.repo.finish_export(e.id, None, ExportEvent::Expire, "", 0, e.total, "").await? {
                if let Ok(k) = Key::new(e.file_key.clone()) {
                    self.files()?.forget(&k).await;
                }
            }
        }
        if let Err(err) = self.files()?.purge(FILES_PREFIX, ORPHAN_AGE).await {
            tracing::warn!(error = %err, "could not remove old export files");
        }
        Ok(due.len())
    }
}

/// Builds waiting exports whenever woken, and every few seconds; removes expired files.
pub async fn run(exports: Exports, cancel: CancellationToken) {
    let holder = format!("{}-exports", bo_kit::schedule::holder_id());
    let mut last_expiry = 0;
    loop {
        tokio::select! {
            _ = exports.waiting.notified() => {}
            _ = tokio::time::sleep(Duration::from_secs(3)) => {}
            _ = cancel.cancelled() => return,
        }
        loop {
            match exports.build_next(&holder).await {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    tracing::warn!(error = %e, "could not build exports");
                    break;
                }
            }
        }
        if now_ms() - last_expiry > 60_000 {
            last_expiry = now_ms();
            if let Err(e) = exports.expire().await {
                tracing::warn!(error = %e, "could not expire exports");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use calamine::{open_workbook, Data, Reader, Xlsx};

    /// Rows past a full sheet go on to the next one, under the same headers, each row once
    /// and in order.
    #[test]
    fn rows_past_a_full_sheet_go_on_to_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("export.xlsx");
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Vec<Cell>>>(8);
        let name = "คำสั่งซื้อประจำปีสำหรับร้านค้า";
        let sheet = Sheet { name, headers: vec!["เลขที่", "ยอด"], widths: vec![12, 10] };
        let writer = std::thread::spawn({
            let path = path.clone();
            move || write_book_with(path, sheet, rx, 3)
        });
        for batch in [0..2, 2..7] {
            let rows = batch.map(|i| vec![Cell::Text(format!("SO-{i}")), Cell::Money(i * 100)]).collect();
            tx.send(rows).unwrap();
        }
        drop(tx);
        assert_eq!(writer.join().unwrap().unwrap(), 7);
        let mut book: Xlsx<_> = open_workbook(&path).unwrap();
        let names = book.sheet_names();
        assert_eq!(names.len(), 3);
        assert_eq!(names[0], name);
        assert!(names[1].ends_with(" (2)") && names[2].ends_with(" (3)"), "{names:?}");
        assert!(names.iter().all(|n| n.chars().count() <= 31), "{names:?}");
        let mut seen = Vec::new();
        for n in &names {
            let range = book.worksheet_range(n).unwrap();
            let mut rows = range.rows();
            assert_eq!(rows.next().unwrap()[0], Data::String("เลขที่".into()), "each sheet under the headers");
            for row in rows {
                seen.push((row[0].to_string(), row[1].clone()));
            }
        }
        let want: Vec<(String, Data)> = (0..7).map(|i| (format!("SO-{i}"), Data::Float(i as f64))).collect();
        assert_eq!(seen, want);
    }
}
