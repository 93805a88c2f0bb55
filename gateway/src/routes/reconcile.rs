//! Automatic reconciliation (decision 0022): a bank statement or a carrier's COD remittance
//! report matched to the store's open bills, every line with its reasons, and the chosen
//! matches (by default the confident ones) confirmed, each line once. Confirming payments is
//! `payment.payment.approve`'s.

use axum::extract::State;
use bo_kit::time::ms_to_rfc3339;
use bo_proto::orders::v1 as pb;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::auth::StoreAuth;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::idempotency::{self, Deferred};
use crate::perms::{keys, Access};
use crate::routes::products::ImportRowErrorBody;
use crate::state::AppState;
use crate::uploads::FileForm;
use crate::wire::{baht, big_json, word};

const APPROVE: Access = Access { roles: &[], perms: &[keys::PAYMENT_PAYMENT_APPROVE] };

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(reconcile).layer(axum::extract::DefaultBodyLimit::max(crate::uploads::FILE_FORM_LIMIT)))
}

/// Why a line matched, or did not: a message key and its values.
#[derive(Debug, Serialize, ToSchema)]
pub struct MatchReasonBody {
    /// amount_in_time, one_of_many, order_no, reference, name, slip, many_bills, same_bill,
    /// no_bill_of_amount, bill_made_after, bill_too_old, named_other_amount,
    /// named_out_of_window, used, tracking, no_parcel or cod_not_shipped.
    pub code: String,
    /// Its values (amount, order_no, name, reference, tracking, count, rows, bill).
    pub values: BTreeMap<String, String>,
}

/// A bill a line may pay.
#[derive(Debug, Serialize, ToSchema)]
pub struct MatchCandidateBody {
    pub bill_id: i64,
    pub order_id: i64,
    pub order_no: String,
    /// The bill's amount, baht.
    pub amount: String,
    /// What speaks for it.
    pub evidence: Vec<MatchReasonBody>,
}

/// A line of money in and what it matched.
#[derive(Debug, Serialize, ToSchema)]
pub struct StatementLineBody {
    /// Its row in the file.
    pub row: i64,
    /// When (the day's start in Thailand when only the day is known).
    pub at: String,
    pub day_only: bool,
    /// Baht in.
    pub amount: String,
    pub text: String,
    pub tracking: String,
    /// confident, ambiguous, unmatched or used.
    pub status: String,
    /// The bill it pays (confident, or confirmed).
    pub bill_id: Option<i64>,
    pub reasons: Vec<MatchReasonBody>,
    pub candidates: Vec<MatchCandidateBody>,
    /// Its payment was confirmed by this call.
    pub confirmed: bool,
    /// Why it was not (a message key).
    pub refused: Option<String>,
}

/// What was matched and confirmed.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReconcileData {
    /// bank or cod.
    pub kind: String,
    pub lines: Vec<StatementLineBody>,
    /// Payments confirmed by this call.
    pub confirmed: i64,
}

/// The answer: `data` and the rows that could not be read.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReconcileBody {
    pub data: ReconcileData,
    pub errors: Vec<ImportRowErrorBody>,
}

/// A line to confirm and the bill it pays.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ReconcileChoiceInput {
    pub row: i64,
    pub bill_id: i64,
}

/// The multipart form of a reconciliation.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ReconcileForm {
    /// The bank statement or COD report (.csv or .xlsx, at most 5 MB and 5,000 lines).
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
    /// Only match.
    pub dry_run: Option<bool>,
    /// JSON: the lines to confirm, `[{"row": 3, "bill_id": 12}]` (none: every confident line).
    pub choices: Option<String>,
}

fn reason(r: pb::MatchReason) -> MatchReasonBody {
    MatchReasonBody { code: r.code, values: r.values.into_iter().collect() }
}

/// Reads a bank statement (the main Thai banks' .csv or .xlsx) or a COD remittance report and
/// matches each line of money in to the store's open bills by exact amount, time and what it
/// names; every line says why it matched, is ambiguous or unmatched. Without dry_run the
/// chosen lines (none chosen: every confident one) confirm their bills' payments, each line
/// once (a statement uploaded again shows its lines as used).
#[utoipa::path(post, path = "/orders/payments/reconcile", tag = "orders",
    request_body(content = ReconcileForm, content_type = "multipart/form-data"),
    responses((status = 200, body = ReconcileBody), (status = 403, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "statement_columns_not_found, import_wrong_file_type, import_empty, import_too_many_rows")),
    security(("bearer" = [])))]
async fn reconcile(
    State(state): State<AppState>,
    auth: StoreAuth,
    key: Option<axum::Extension<Deferred>>,
    mut form: axum::extract::Multipart,
) -> ApiResult<axum::response::Response> {
    auth.require(APPROVE)?;
    let rules = state.order_rules().await?;
    let f = FileForm::read(
        state.files.clone(),
        auth.store_id,
        &mut form,
        rules.statement_file_bytes as u64,
        "import_too_large",
        &[".csv", ".xlsx"],
        &["choices"],
    )
    .await?;
    let choices: Vec<ReconcileChoiceInput> = match f.text("choices").as_str() {
        "" => Vec::new(),
        text => serde_json::from_str(text).map_err(|_| ApiError::invalid_field("choices", "validation.invalid"))?,
    };
    let dry_run = f.dry_run;
    let mut staged = f.staged;
    // The most lines one confirmation chooses: every line of the longest statement.
    if choices.len() as i64 > rules.statement_max_rows {
        return Err(ApiError::invalid_field("choices", "validation.too_many"));
    }
    let form = staged.digest();
    let act = async {
        let upload = staged.hand_over().pop().unwrap_or_default();
        let r = state
            .orders()
            .reconcile(auth.ctx().request(pb::ReconcileRequest {
                upload,
                dry_run,
                choices: choices.iter().map(|c| pb::ReconcileChoice { row: c.row, bill_id: c.bill_id }).collect(),
            }))
            .await?
            .into_inner();
        big_json(move || ReconcileBody {
            data: ReconcileData {
                kind: r.kind,
                confirmed: r.confirmed,
                lines: r
                    .lines
                    .into_iter()
                    .map(|l| StatementLineBody {
                        row: l.row,
                        at: ms_to_rfc3339(l.at_ms),
                        day_only: l.day_only,
                        amount: baht(l.amount),
                        text: l.text,
                        tracking: l.tracking,
                        status: word::<pb::StatementMatch>(l.status),
                        bill_id: (l.bill_id > 0).then_some(l.bill_id),
                        reasons: l.reasons.into_iter().map(reason).collect(),
                        candidates: l
                            .candidates
                            .into_iter()
                            .map(|c| MatchCandidateBody {
                                bill_id: c.bill_id,
                                order_id: c.order_id,
                                order_no: c.order_no,
                                amount: baht(c.amount),
                                evidence: c.evidence.into_iter().map(reason).collect(),
                            })
                            .collect(),
                        confirmed: l.confirmed,
                        refused: (!l.refused.is_empty()).then_some(l.refused),
                    })
                    .collect(),
            },
            errors: r
                .errors
                .into_iter()
                .map(|e| ImportRowErrorBody { row: e.row, field: e.field, code: e.code })
                .collect(),
        })
        .await
    };
    Ok(idempotency::deferred(&state, &auth, key.map(|k| k.0), &form, act).await)
}
