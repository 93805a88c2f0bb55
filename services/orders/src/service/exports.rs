//! Order report exports: asked for, then built in the background and downloaded.

use super::*;
use bo_kit::Code;

impl Orders {
    /// Asks for an export of the store's orders made in [from, to) in `states` (every state
    /// when empty); refused with `no_data_for_export` when none match.
    pub async fn produce_report(
        &self,
        ctx: &CallCtx,
        from: i64,
        to: i64,
        states: &[String],
        lang: &str,
    ) -> Result<ExportRow> {
        let mut errs = Vec::new();
        if from <= 0 {
            errs.push(FieldError::new("date_from", "validation.required"));
        }
        if to <= 0 {
            errs.push(FieldError::new("date_to", "validation.required"));
        }
        if from > 0 && to > 0 && to <= from {
            errs.push(FieldError::new("date_to", "validation.date_range"));
        }
        if from > 0 && to - from > domain::export::MAX_DAYS * 24 * 3600 * 1000 {
            errs.push(FieldError::new("date_to", "validation.export_range"));
        }
        if let Some(i) = states.iter().position(|s| !state::STATES.contains(&s.as_str())) {
            errs.push(FieldError::new(format!("order_states[{i}]"), "validation.order_state"));
        }
        if !errs.is_empty() {
            return Err(Error::invalid(errs));
        }
        let mut states: Vec<String> = states.to_vec();
        states.sort();
        states.dedup();
        if self.repo.exports_waiting(ctx.store_id).await? >= domain::export::MAX_WAITING {
            return Err(Error::new(bo_kit::error::Kind::TooManyRequests, Code::ExportQueueFull));
        }
        let total = self.repo.count_for_export(ctx.store_id, from, to, &states).await?;
        if total == 0 {
            return Err(Error::new(bo_kit::error::Kind::Invalid, Code::NoDataForExport));
        }
        let lang = domain::export::Lang::of(lang);
        let name = domain::export::file_name(from, to, lang);
        let code = if lang == domain::export::Lang::En { "en" } else { "th" };
        let row = self.repo.insert_export(ctx.store_id, ctx.user_id, &name, code, from, to, &states, total).await?;
        self.exports_waiting.notify_one();
        Ok(row)
    }

    /// Where an exported file is kept, and its name.
    pub async fn report_file(&self, ctx: &CallCtx, id: i64) -> Result<(String, String)> {
        let e = self.repo.export(ctx.store_id, id).await?;
        match e.state.as_str() {
            domain::export::EXPORTED => Ok((e.file_key, e.file_name)),
            domain::export::EXPIRED => Err(Error::not_found(Code::ExportExpired)),
            _ => Err(Error::failed_precondition(Code::ExportNotReady)),
        }
    }
}
