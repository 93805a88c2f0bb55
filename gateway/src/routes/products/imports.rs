//! Products imported from a spreadsheet (SPEC §2, §5).

use super::*;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(import_products).layer(axum::extract::DefaultBodyLimit::max(MAX_IMPORT_BYTES + 64 * 1024)))
}

/// The largest spreadsheet accepted (SPEC §5 allows 1 to 100 items; files stay small).
pub const MAX_IMPORT_BYTES: usize = 5 * 1024 * 1024;

/// One row read from the spreadsheet.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportedRowBody {
    /// Spreadsheet row number.
    pub row: i64,
    /// Product code (product_id).
    pub code: String,
    /// Product name (product_name).
    pub name: String,
    /// SKU code (seller_sku, else sku_id).
    pub sku_code: String,
    /// Variant (variation_value).
    pub variant: String,
    /// Price in baht.
    pub price: String,
}

/// A problem with one row.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportRowErrorBody {
    /// Spreadsheet row number.
    pub row: i64,
    /// Column or field.
    pub field: String,
    /// Message key.
    pub code: String,
}

/// What an import read and did.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportData {
    /// Rows read without problems.
    pub rows: Vec<ImportedRowBody>,
    /// Products the file holds.
    pub products: i64,
    /// Products created (0 on a dry run).
    pub created: i64,
    /// Products skipped because the store already has their code.
    pub skipped: i64,
}

/// An import's answer: `data` and per-row `errors` (SPEC §3 "Import results carry data and errors").
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportBody {
    /// What was read and done.
    pub data: ImportData,
    /// Problems per row.
    pub errors: Vec<ImportRowErrorBody>,
}

/// The multipart form of an import.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ImportForm {
    /// The .xlsx file (at most 5 MB, 1 to 100 items).
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
    /// Category for every imported product (required unless dry_run).
    pub category_id: Option<i64>,
    /// The sheet to read (default: the first).
    pub sheet: Option<String>,
    /// Only read and check.
    pub dry_run: Option<bool>,
}

/// Imports products from an .xlsx file (multipart: file, category_id, sheet, dry_run).
/// Rows of one product_id become one product with a variant per row; products whose code
/// the store already has are skipped, so the same file twice creates nothing new. A wrong
/// template answers 422 with `import_wrong_template` ('Wrong file, please upload valid file').
#[utoipa::path(post, path = "/products/excel/import", tag = "products",
    request_body(content = ImportForm, content_type = "multipart/form-data"),
    responses((status = 200, body = ImportBody), (status = 413, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn import_products(
    State(state): State<AppState>,
    auth: StoreAuth,
    key: Option<axum::Extension<Deferred>>,
    mut form: axum::extract::Multipart,
) -> ApiResult<axum::response::Response> {
    auth.require(CREATE)?;
    let f = FileForm::read(
        state.files.clone(),
        auth.store_id,
        &mut form,
        MAX_IMPORT_BYTES as u64,
        "import_too_large",
        &[],
        &["category_id", "sheet"],
    )
    .await?;
    let (category_id, sheet, dry_run) = (f.number("category_id"), f.text("sheet"), f.dry_run);
    let mut staged = f.staged;
    let form = staged.digest();
    let act = async {
        let upload = staged.hand_over().pop().unwrap_or_default();
        let r = state
            .products()
            .import_products(auth.ctx().request(pb::ImportProductsRequest {
                upload,
                sheet,
                category_id,
                dry_run,
                parse_only: false,
            }))
            .await?
            .into_inner();
        Ok(Json(import_body(r)))
    };
    Ok(idempotency::deferred(&state, &auth, key.map(|k| k.0), &form, act).await)
}

pub(super) fn import_body(r: pb::ImportProductsResponse) -> ImportBody {
    ImportBody {
        data: ImportData {
            rows: r
                .rows
                .into_iter()
                .map(|x| ImportedRowBody {
                    row: x.row,
                    code: x.code,
                    name: x.name,
                    sku_code: x.sku_code,
                    variant: x.variant,
                    price: baht(x.price),
                })
                .collect(),
            products: r.products,
            created: r.created,
            skipped: r.skipped,
        },
        errors: r.errors.into_iter().map(|e| ImportRowErrorBody { row: e.row, field: e.field, code: e.code }).collect(),
    }
}
