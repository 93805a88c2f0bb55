//! Bills and payments: renewal, the buyer's page and its slips, staff payments and their
//! confirmation, bill expiry, and reconciliation from a statement.

use super::*;
use bo_kit::Code;

impl Orders {
    /// Gives a new order's bills (or one warehouse's) `days` more from now.
    pub async fn renew_bill(&self, ctx: &CallCtx, id: i64, warehouse_id: i64, days: i64) -> Result<View> {
        let until = bill::renewed_until(now_ms(), days).map_err(|code| Error::invalid_field("days", code))?;
        self.repo.renew_bills(Self::actor(ctx), id, warehouse_id, days, until).await?;
        self.load(ctx, id).await
    }

    /// Gives a bill of an order a new public link.
    pub async fn rotate_bill_link(&self, ctx: &CallCtx, id: i64, bill_id: i64) -> Result<View> {
        self.repo.rotate_bill_token(Self::actor(ctx), id, bill_id).await?;
        self.load(ctx, id).await
    }

    /// A bill by its public token, its order (its lines, money and address) and the bill's
    /// newest payment. An unknown or malformed token is `bill_not_found`.
    pub async fn bill_page(&self, token: &str) -> Result<(BillRow, pb::Order, Option<PaymentRow>)> {
        if token.len() != 32 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(Error::not_found(Code::BillNotFound));
        }
        let bill = self.repo.bill_by_token(token).await?.ok_or_else(|| Error::not_found(Code::BillNotFound))?;
        let row = self.repo.order(bill.store_id, bill.order_id).await?;
        let items = self.repo.items(&[row.id]).await?.remove(&row.id).unwrap_or_default();
        let mut order = row.to_proto(&items);
        order.bills = vec![bill.to_proto()];
        let payment =
            self.repo.payments(bill.store_id, bill.order_id).await?.into_iter().rev().find(|p| p.bill_id == bill.id);
        Ok((bill, order, payment))
    }

    /// The buyer's slip for the bill of `token`: kept, and the bill's payment waits for
    /// the store's confirmation.
    pub async fn submit_slip(
        &self,
        token: &str,
        upload: &str,
        store_channel_id: i64,
        channel_type: &str,
    ) -> Result<()> {
        let (bill, _, _) = self.bill_page(token).await?;
        // Refused before the picture is read when the bill has all the slips it takes (and
        // again, surely, when the slip is written).
        if self.repo.buyer_slips(bill.id).await? >= crate::store::SLIPS_PER_BILL {
            if let Ok(staged) = Key::uploads_of(bill.store_id, &[upload.to_string()], "file") {
                self.files()?.forget(&staged[0]).await;
            }
            return Err(Error::new(bo_kit::error::Kind::TooManyRequests, Code::BillSlipLimit));
        }
        let name = self.keep_slip(bill.store_id, upload).await?;
        let input = PaymentInput {
            store_channel_id,
            channel_type: channel_type.to_string(),
            attachment: name.clone(),
            note: String::new(),
        };
        let who = Actor::system(bill.store_id);
        let changed = self.repo.attach_slip(who, bill.id, source::BUYER, &input).await;
        self.settle_slip(bill.store_id, &name, changed).await.map(|_| ())
    }

    /// Removes a new slip when the change that was to keep it was refused (a slip kept is
    /// never removed: it is evidence).
    pub(super) async fn settle_slip(
        &self,
        store_id: i64,
        new: &str,
        changed: Result<PaymentRow>,
    ) -> Result<PaymentRow> {
        if changed.is_err() {
            if let Ok(k) = slip_key(store_id, new) {
                self.files()?.forget(&k).await;
            }
        }
        changed
    }

    /// The bytes of a staged upload of the store, at most `max` (else `too_large` on
    /// `file`); the staged file is removed whatever happens.
    pub(super) async fn staged_bytes(
        &self,
        store_id: i64,
        upload: &str,
        max: usize,
        too_large: &str,
    ) -> Result<bytes::Bytes> {
        let files = self.files()?;
        let staged = Key::uploads_of(store_id, &[upload.to_string()], "file")?.remove(0);
        let read = files.read_upload(&staged, max as u64, "file", too_large).await;
        files.forget(&staged).await;
        read
    }

    /// Reads a staged upload of the store as a slip: a JPEG or PNG of at most 5 MB,
    /// re-encoded without its metadata and kept; answers its name.
    pub(super) async fn keep_slip(&self, store_id: i64, upload: &str) -> Result<String> {
        let files = self.files()?;
        let bytes = self.staged_bytes(store_id, upload, images::MAX_BYTES, "slip_too_large").await?;
        let cleaned = bo_kit::cpu::run(move || images::clean(&bytes))
            .await
            .map_err(Error::internal)?
            .map_err(|e| Error::invalid_field("file", &format!("validation.{}", e.code())))?;
        let name = format!("{}.{}", uuid::Uuid::new_v4().simple(), cleaned.format.extension());
        files.put(&slip_key(store_id, &name)?, cleaned.bytes).await.map_err(Error::internal)?;
        Ok(name)
    }

    /// Keeps an uploaded attachment of the caller's store; answers its name.
    pub async fn keep_attachment(&self, ctx: &CallCtx, upload: &str) -> Result<String> {
        self.keep_slip(ctx.store_id, upload).await
    }

    /// Reads a bank statement or COD remittance report, matches its lines to the store's open
    /// bills ([`crate::matching`]) and, unless `dry_run`, confirms the chosen matches (none
    /// chosen: every confident one), each with its line as the payment's proof.
    pub async fn reconcile_statement(
        &self,
        ctx: &CallCtx,
        upload: &str,
        dry_run: bool,
        choices: &[(i64, i64)],
    ) -> Result<pb::ReconcileResponse> {
        use crate::matching::{self, Status};
        use crate::statement;
        let bytes = self.staged_bytes(ctx.store_id, upload, statement::MAX_FILE_BYTES, "import_too_large").await?;
        let parsed = bo_kit::cpu::run(move || statement::parse(&bytes))
            .await
            .map_err(Error::internal)?
            .map_err(|e| Error::invalid_field("file", e.code()))?;
        let earliest = parsed.lines.iter().map(|l| l.at_ms).min().unwrap_or_else(now_ms);
        let bills = self.repo.open_bills(ctx.store_id, earliest - matching::WINDOW_MS - 86_400_000).await?;
        let prints = matching::fingerprints(parsed.kind, &parsed.lines);
        let used = self.repo.used_proofs(ctx.store_id, &prints).await?;
        // Matching a month against tens of thousands of open bills is CPU work: off the
        // async workers, which keep answering everyone else.
        let (parsed, prints, bills, matches) = bo_kit::cpu::run(move || {
            let matches = matching::match_lines(parsed.kind, &parsed.lines, &prints, &bills, &used);
            (parsed, prints, bills, matches)
        })
        .await
        .map_err(Error::internal)?;
        let reason = |r: &matching::Reason| pb::MatchReason {
            code: r.code.to_string(),
            values: r.values.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
        };
        let mut out = pb::ReconcileResponse {
            kind: parsed.kind.name().to_string(),
            lines: parsed
                .lines
                .iter()
                .zip(&matches)
                .map(|(l, m)| pb::StatementLine {
                    row: l.row as i64,
                    at_ms: l.at_ms,
                    day_only: l.day_only,
                    amount: l.amount,
                    text: l.text.clone(),
                    tracking: l.tracking.clone(),
                    status: match_status(m.status).into(),
                    bill_id: m.bill_id.unwrap_or(0),
                    reasons: m.reasons.iter().map(reason).collect(),
                    candidates: m
                        .candidates
                        .iter()
                        .map(|c| pb::MatchCandidate {
                            bill_id: c.bill_id,
                            order_id: c.order_id,
                            order_no: c.order_no.clone(),
                            amount: c.amount,
                            evidence: c.evidence.iter().map(reason).collect(),
                        })
                        .collect(),
                    confirmed: false,
                    refused: String::new(),
                })
                .collect(),
            errors: parsed
                .errors
                .iter()
                .map(|(row, field, code)| pb::ImportOrderError {
                    row: *row as i64,
                    field: field.to_string(),
                    code: code.to_string(),
                })
                .collect(),
            confirmed: 0,
        };
        if dry_run {
            return Ok(out);
        }
        let targets: Vec<(usize, i64)> = if choices.is_empty() {
            matches
                .iter()
                .enumerate()
                .filter_map(|(i, m)| (m.status == Status::Confident).then_some((i, m.bill_id.unwrap_or(0))))
                .collect()
        } else {
            let mut t = Vec::new();
            for (row, bill) in choices {
                let Some(i) = parsed.lines.iter().position(|l| l.row as i64 == *row) else {
                    return Err(Error::invalid_field("choices", "validation.reconcile_row"));
                };
                let m = &matches[i];
                // One of its candidates, listed or not (a line lists only a few of many).
                let candidate = m.candidates.iter().any(|c| c.bill_id == *bill)
                    || (m.status == Status::Ambiguous
                        && bills
                            .iter()
                            .any(|b| b.bill_id == *bill && matching::may_pay(parsed.kind, &parsed.lines[i], b)));
                if m.status == Status::Used || m.status == Status::Unmatched || !candidate {
                    out.lines[i].refused = Code::ReconcileNotACandidate.to_string();
                    continue;
                }
                t.push((i, *bill));
            }
            t
        };
        let who = Self::actor(ctx);
        for (i, bill) in targets {
            let l = &parsed.lines[i];
            let when = bo_kit::time::ms_to_rfc3339(l.at_ms + 7 * 3_600_000);
            let what = if l.tracking.is_empty() { l.text.clone() } else { l.tracking.clone() };
            let note: String = format!(
                "{} {} {} {}",
                if parsed.kind == statement::Kind::Cod { "COD" } else { "Statement" },
                when.get(..16).unwrap_or(&when).replace('T', " "),
                bo_kit::money::Satang(l.amount),
                what
            )
            .chars()
            .take(200)
            .collect();
            let proof = crate::store::Proof {
                fingerprint: prints[i].clone(),
                note: note.trim().to_string(),
                channel_type: if parsed.kind == statement::Kind::Cod { "cod".into() } else { "bank".into() },
            };
            match self.repo.settle_by_proof(who, bill, &proof).await {
                Ok(_) => {
                    out.lines[i].confirmed = true;
                    out.lines[i].bill_id = bill;
                    out.confirmed += 1;
                }
                Err(e) => out.lines[i].refused = e.code.to_string(),
            }
        }
        Ok(out)
    }

    /// Checks that `name` is a kept slip of the store.
    pub(super) async fn kept(&self, store_id: i64, name: &str) -> Result<()> {
        if name.is_empty() {
            return Ok(());
        }
        let key = slip_key(store_id, name)?;
        if self.files()?.exists(&key).await.map_err(Error::internal)? {
            Ok(())
        } else {
            Err(Error::invalid_field("attachment", "validation.attachment_unknown"))
        }
    }

    /// Makes a payment for a bill of an order.
    pub async fn create_payment(
        &self,
        ctx: &CallCtx,
        order_id: i64,
        warehouse_id: i64,
        input: PaymentInput,
    ) -> Result<View> {
        self.kept(ctx.store_id, &input.attachment).await?;
        self.repo.create_payment(Self::actor(ctx), order_id, warehouse_id, &input).await?;
        self.load(ctx, order_id).await
    }

    /// Changes a payment's account, note or slip.
    pub async fn edit_payment(
        &self,
        ctx: &CallCtx,
        order_id: i64,
        bill_id: i64,
        id: i64,
        input: PaymentInput,
    ) -> Result<View> {
        self.kept(ctx.store_id, &input.attachment).await?;
        self.repo.edit_payment(Self::actor(ctx), order_id, bill_id, id, &input).await?;
        self.load(ctx, order_id).await
    }

    /// Confirms, cancels or voids a payment.
    pub async fn act_on_payment(
        &self,
        ctx: &CallCtx,
        order_id: i64,
        bill_id: i64,
        id: i64,
        action: &str,
        may_approve: bool,
    ) -> Result<View> {
        let action = match PayAction::parse(action) {
            Some(a) if a != PayAction::Attach => a,
            _ => return Err(Error::invalid_field("action", "validation.payment_action")),
        };
        self.repo.act_on_payment(Self::actor(ctx), order_id, bill_id, id, action, may_approve).await?;
        self.load(ctx, order_id).await
    }

    /// Confirms the payments of orders, each on its own, or says what would happen.
    pub async fn confirm_payments(&self, ctx: &CallCtx, order_ids: &[i64], dry_run: bool) -> Result<Vec<Confirmation>> {
        if order_ids.is_empty() {
            return Err(Error::invalid_field("ids", "validation.required"));
        }
        if order_ids.len() > self.settings.max_selection {
            return Err(Error::invalid_field("ids", "order.too_many_selected"));
        }
        self.repo.confirm_many(Self::actor(ctx), order_ids, dry_run).await
    }

    /// Where a payment's slip is kept, and its type.
    /// Where a payment's slip is kept (`slip_id` one of its slips, 0 its newest), and its type.
    pub async fn payment_attachment(
        &self,
        ctx: &CallCtx,
        order_id: i64,
        id: i64,
        slip_id: i64,
    ) -> Result<(String, &'static str)> {
        let p = self.repo.payment(ctx.store_id, order_id, id).await?;
        let name = match slip_id {
            0 => p.attachment,
            s => self
                .repo
                .slips(ctx.store_id, order_id)
                .await?
                .into_iter()
                .find(|x| x.id == s && x.payment_id == p.id)
                .map(|x| x.name)
                .unwrap_or_default(),
        };
        if name.is_empty() {
            return Err(Error::not_found(Code::AttachmentNotFound));
        }
        let mime = if name.ends_with(".png") { "image/png" } else { "image/jpeg" };
        Ok((slip_key(ctx.store_id, &name)?.as_str().to_string(), mime))
    }

    /// Expires the bills whose time has passed, each once, and releases the stock of the
    /// orders their setting cancels. Answers how many bills expired.
    pub async fn expire_bills(&self) -> Result<usize> {
        let mut expired = 0;
        loop {
            let now = now_ms();
            let due = self.repo.due_bills(now, 200).await?;
            let mut released: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
            let mut moved_any = false;
            for b in &due {
                match self.repo.expire_bill(*b, now).await {
                    Ok(Some(m)) => {
                        expired += 1;
                        moved_any = true;
                        if m.release {
                            released.entry(b.store_id).or_default().push(m.id);
                        }
                    }
                    Ok(None) => {}
                    Err(e) => tracing::warn!(bill = b.id, order = b.order_id, error = %e, "could not expire a bill"),
                }
            }
            self.relay.wake();
            for (store_id, ids) in released {
                // Left releasing on failure: the reconciler finishes it.
                if let Err(e) = self.release(&self.system(store_id), &ids).await {
                    tracing::warn!(store = store_id, error = %e, "could not release expired orders' stock yet");
                }
            }
            if due.len() < 200 || !moved_any {
                return Ok(expired);
            }
        }
    }
}

/// A line's match as the contract tells it.
fn match_status(s: crate::matching::Status) -> pb::StatementMatch {
    use crate::matching::Status;
    match s {
        Status::Confident => pb::StatementMatch::Confident,
        Status::Ambiguous => pb::StatementMatch::Ambiguous,
        Status::Unmatched => pb::StatementMatch::Unmatched,
        Status::Used => pb::StatementMatch::Used,
    }
}
