//! Building order exports in the background: a builder claims the oldest waiting export,
//! reads its orders a page at a time, and writes them to a spreadsheet in constant memory
//! (rows go to a temporary file as they are written, never all held at once), then streams
//! the file into file storage. Its claim is renewed with every page; a builder that dies
//! leaves a claim that goes stale, and another takes the export over. Files past their time
//! are removed and their exports marked expired.

use std::collections::HashMap;
use std::time::Duration;

use bo_kit::files::Key;
use bo_kit::time::now_ms;
use bo_kit::{Error, Result};
use bytes::Bytes;
use rust_xlsxwriter::{Format, Workbook};
use tokio_util::sync::CancellationToken;

use crate::domain::export::{self, ExportEvent, Lang};
use crate::service::Orders;
use crate::store::{ExportRow, ItemRow, OrderRow};

/// Orders read per page.
pub const PAGE: i64 = 1000;
/// A claim not renewed for this long is taken over.
pub const STALE_MS: i64 = 60_000;
/// The largest file an export may write.
const MAX_FILE_BYTES: u64 = 512 * 1024 * 1024;

/// A cell of a row.
enum Cell {
    Text(String),
    Money(i64),
    Count(i64),
}

/// One order as its row.
fn row(o: &OrderRow, items: &[ItemRow], channel: &str, lang: Lang) -> Vec<Cell> {
    let units: i64 = items.iter().map(|i| i.quantity).sum();
    let lines: Vec<String> = items.iter().map(|i| format!("{} × {}", i.sku_code, i.quantity)).collect();
    let place = [&o.ship_address, &o.ship_sub_district, &o.ship_district, &o.ship_city]
        .iter()
        .filter(|s| !s.is_empty())
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    vec![
        Cell::Text(o.order_no.clone()),
        Cell::Text(export::moment(o.created_at, lang)),
        Cell::Text(channel.to_string()),
        Cell::Text(o.reference.clone()),
        Cell::Text(export::state_label(&o.state, lang).to_string()),
        Cell::Text(export::payment_label(&o.payment_state, lang).to_string()),
        Cell::Text(o.ship_name.clone()),
        Cell::Text(o.ship_tel.clone()),
        Cell::Text(place),
        Cell::Text(o.ship_state_province.clone()),
        Cell::Text(o.ship_postcode.clone()),
        Cell::Text(lines.join(", ")),
        Cell::Count(units),
        Cell::Money(o.subtotal),
        Cell::Money(o.discount_amount),
        Cell::Money(o.shipping_charge + o.shipping_charge_inter),
        Cell::Money(o.additional_fee),
        Cell::Money(o.vat_amount),
        Cell::Money(o.total),
        Cell::Text(o.tracking_no.clone()),
        Cell::Text(o.note.clone()),
    ]
}

/// Writes the rows it is sent to `path` as one sheet; answers the rows written.
fn write_book(
    path: std::path::PathBuf,
    lang: Lang,
    rows: std::sync::mpsc::Receiver<Vec<Vec<Cell>>>,
) -> anyhow::Result<u32> {
    let mut book = Workbook::new();
    let bold = Format::new().set_bold();
    let quoted = Format::new().set_quote_prefix();
    let money = Format::new().set_num_format("#,##0.00");
    let sheet = book.add_worksheet_with_constant_memory()?;
    sheet.set_name(if lang == Lang::Th { "คำสั่งซื้อ" } else { "Orders" })?;
    // Widths come before the rows in a sheet written as it goes.
    for (c, w) in [16, 17, 12, 14, 16, 16, 20, 13, 36, 16, 10, 36, 8, 12, 11, 11, 11, 11, 12, 18, 24].iter().enumerate()
    {
        sheet.set_column_width(c as u16, *w as f64)?;
    }
    for (c, h) in export::headers(lang).iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, *h, &bold)?;
    }
    let mut r: u32 = 1;
    while let Ok(batch) = rows.recv() {
        for cells in batch {
            for (c, cell) in cells.iter().enumerate() {
                let c = c as u16;
                match cell {
                    Cell::Text(s) if s.is_empty() => {}
                    // Text a spreadsheet would run stays text (SPEC: exports never run a formula).
                    Cell::Text(s) if export::looks_like_formula(s) => {
                        sheet.write_string_with_format(r, c, s, &quoted)?;
                    }
                    Cell::Text(s) => {
                        sheet.write_string(r, c, s)?;
                    }
                    Cell::Money(satang) => {
                        sheet.write_number_with_format(r, c, *satang as f64 / 100.0, &money)?;
                    }
                    Cell::Count(n) => {
                        sheet.write_number(r, c, *n as f64)?;
                    }
                }
            }
            r += 1;
        }
    }
    book.save(&path)?;
    Ok(r - 1)
}

impl Orders {
    /// Claims and builds one waiting export; false when none waits.
    pub async fn build_next_export(&self, holder: &str) -> Result<bool> {
        let Some(e) = self.repo.claim_export(holder, now_ms() - STALE_MS).await? else { return Ok(false) };
        match self.build_export(&e, holder).await {
            Ok(Some((key, size))) => {
                if !self.repo.finish_export(e.id, Some(holder), ExportEvent::Built, &key, size, "").await? {
                    // Another took it over meanwhile: this file is not the one it keeps.
                    if let Ok(k) = Key::new(key) {
                        self.files()?.forget(&k).await;
                    }
                }
            }
            Ok(None) => {}
            Err(err) => {
                tracing::warn!(export = e.id, error = %err, "could not build an order export");
                self.repo.finish_export(e.id, Some(holder), ExportEvent::Fail, "", 0, err.code.as_str()).await?;
            }
        }
        Ok(true)
    }

    /// Writes an export's file and keeps it; its key and size, or None when the claim was
    /// lost on the way.
    async fn build_export(&self, e: &ExportRow, holder: &str) -> Result<Option<(String, i64)>> {
        let lang = Lang::of(&e.lang);
        let dir = tempfile::tempdir().map_err(Error::internal)?;
        let path = dir.path().join("export.xlsx");
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Vec<Cell>>>(2);
        let writing = tokio::task::spawn_blocking({
            let path = path.clone();
            move || write_book(path, lang, rx)
        });
        let channels: HashMap<&str, &str> = crate::domain::CHANNELS
            .iter()
            .map(|c| (c.code, if lang == Lang::Th { c.name_th } else { c.name_en }))
            .collect();
        let mut after = 0;
        let mut done = 0;
        let mut kept = true;
        loop {
            let page = self.repo.export_page(e, after, PAGE).await?;
            if page.is_empty() {
                break;
            }
            let ids: Vec<i64> = page.iter().map(|o| o.id).collect();
            let mut items = self.repo.items(&ids).await?;
            let batch: Vec<Vec<Cell>> = page
                .iter()
                .map(|o| {
                    let lines = items.remove(&o.id).unwrap_or_default();
                    row(o, &lines, channels.get(o.channel.as_str()).copied().unwrap_or(&o.channel), lang)
                })
                .collect();
            after = *ids.last().unwrap_or(&after);
            done += batch.len() as i64;
            if tx.send(batch).is_err() {
                break;
            }
            if !self.repo.export_progress(e.id, holder, done).await? {
                kept = false;
                break;
            }
        }
        drop(tx);
        let written = writing.await.map_err(Error::internal)?.map_err(Error::internal)?;
        if !kept {
            return Ok(None);
        }
        tracing::debug!(export = e.id, rows = written, "wrote an order export");
        // A key of this builder's own: a builder that lost its claim removes its own file,
        // never the one the winner keeps.
        let key =
            Key::new(format!("exports/{}/{}/{}/{}", e.store_id, e.id, uuid::Uuid::new_v4().simple(), e.file_name))
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
        Ok(Some((key.as_str().to_string(), size as i64)))
    }

    /// Removes the files of exports past their time; answers how many.
    pub async fn expire_exports(&self) -> Result<usize> {
        let due = self.repo.expired_exports(now_ms(), 100).await?;
        for e in &due {
            if self.repo.finish_export(e.id, None, ExportEvent::Expire, "", 0, "").await? {
                if let Ok(k) = Key::new(e.file_key.clone()) {
                    self.files()?.forget(&k).await;
                }
            }
        }
        Ok(due.len())
    }
}

/// Builds waiting exports whenever woken, and every few seconds; removes expired files.
pub async fn run(orders: Orders, cancel: CancellationToken) {
    let holder = format!("{}-exports", bo_kit::schedule::holder_id());
    let mut last_expiry = 0;
    loop {
        tokio::select! {
            _ = orders.exports_waiting.notified() => {}
            _ = tokio::time::sleep(Duration::from_secs(3)) => {}
            _ = cancel.cancelled() => return,
        }
        loop {
            match orders.build_next_export(&holder).await {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    tracing::warn!(error = %e, "could not build order exports");
                    break;
                }
            }
        }
        if now_ms() - last_expiry > 60_000 {
            last_expiry = now_ms();
            if let Err(e) = orders.expire_exports().await {
                tracing::warn!(error = %e, "could not expire order exports");
            }
        }
    }
}
