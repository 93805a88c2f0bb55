//! A product's photos: uploaded, ordered, deleted, their rules and their files.

use super::*;
use bo_kit::Code;

pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(add_photos).layer(axum::extract::DefaultBodyLimit::max(MAX_PHOTO_UPLOAD_BYTES)))
        .routes(routes!(reorder_photos))
        .routes(routes!(delete_photo))
        .routes(routes!(photo_rules))
        .routes(routes!(photo_file))
}

/// The most one photo upload request may carry (the photo rules: 5 MB each, 200 at most).
pub const MAX_PHOTO_UPLOAD_BYTES: usize = 60 * 1024 * 1024;

/// The photos of a product after a change.
#[derive(Debug, Serialize, ToSchema)]
pub struct PhotosBody {
    /// Photos in display order.
    pub photos: Vec<PhotoBody>,
    /// The size-chart image, if any.
    pub size_chart: Option<PhotoBody>,
}

/// The multipart form of a photo upload.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct PhotoForm {
    /// One or more `files` (.jpg, .jpeg or .png by content, 5 MB each).
    #[schema(value_type = Vec<String>, format = Binary)]
    pub files: Vec<Vec<u8>>,
    /// photo (default) or size_chart (one file, replacing the current one).
    pub kind: Option<String>,
}

/// Adds photos to a product, or sets its size chart. Files are checked by content (JPEG or
/// PNG), at most 5 MB each, dimensions bounded, metadata stripped; a product holds at most 9
/// photos.
#[utoipa::path(post, path = "/products/{id}/photos", tag = "products", params(("id" = i64, Path)),
    request_body(content = PhotoForm, content_type = "multipart/form-data"),
    responses((status = 200, body = PhotosBody), (status = 409, body = ErrorBody, description = "photo_too_many"),
        (status = 413, body = ErrorBody), (status = 422, body = ErrorBody)), security(("bearer" = [])))]
pub(super) async fn add_photos(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    key: Option<axum::Extension<Deferred>>,
    mut form: axum::extract::Multipart,
) -> ApiResult<axum::response::Response> {
    auth.require(EDIT)?;
    let too_large = || ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, Code::PayloadTooLarge);
    let mut staged = Staged::new(state.files.clone());
    let mut kind = String::new();
    let rules = state.product_rules().await?;
    while let Some(field) = form.next_field().await.map_err(|_| too_large())? {
        match field.name().unwrap_or("") {
            "files" | "file" => {
                if staged.len() as i64 >= rules.photos_per_upload {
                    return Err(ApiError::invalid_field("files", "photo_too_many"));
                }
                let max = rules.photo_max_bytes as u64;
                staged.stage(auth.store_id, field, max, "files", "photo_too_large").await?;
            }
            "kind" => {
                kind = field.text().await.map_err(|_| ApiError::bad_request(Code::InvalidBody))?;
                staged.text("kind", &kind);
            }
            _ => {}
        }
    }
    let form = staged.digest();
    let act = async {
        let uploads = staged.hand_over();
        let r = state
            .products()
            .add_photos(auth.ctx().request(pb::AddPhotosRequest { product_id: id, kind, uploads }))
            .await?
            .into_inner();
        Ok(Json(PhotosBody {
            photos: r.photos.into_iter().map(PhotoBody::from).collect(),
            size_chart: r.size_chart.map(PhotoBody::from),
        }))
    };
    Ok(idempotency::deferred(&state, &auth, key.map(|k| k.0), &form, act).await)
}

/// A new photo order.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PhotoOrderInput {
    /// Every photo id of the product, in the new order (the first is the cover).
    pub ids: Vec<i64>,
}

/// Puts a product's photos in a new order.
#[utoipa::path(put, path = "/products/{id}/photos/order", tag = "products", params(("id" = i64, Path)),
    request_body = PhotoOrderInput, responses((status = 200, body = PhotosBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn reorder_photos(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path(id): Path<i64>,
    Body(input): Body<PhotoOrderInput>,
) -> ApiResult<Json<PhotosBody>> {
    auth.require(EDIT)?;
    let r = state
        .products()
        .reorder_photos(auth.ctx().request(pb::ReorderPhotosRequest { product_id: id, ids: input.ids }))
        .await?
        .into_inner();
    Ok(Json(PhotosBody { photos: r.photos.into_iter().map(PhotoBody::from).collect(), size_chart: None }))
}

/// Removes a photo (or the size chart) of a product.
#[utoipa::path(delete, path = "/products/{id}/photos/{photo_id}", tag = "products",
    params(("id" = i64, Path), ("photo_id" = i64, Path)),
    responses((status = 204), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "photo_too_few: the product would keep fewer than the minimum")),
    security(("bearer" = [])))]
pub(super) async fn delete_photo(
    State(state): State<AppState>,
    auth: StoreAuth,
    Path((id, photo_id)): Path<(i64, i64)>,
) -> ApiResult<StatusCode> {
    auth.require(EDIT)?;
    state.products().delete_photo(auth.ctx().request(pb::DeletePhotoRequest { product_id: id, id: photo_id })).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The photo rules the products service applies.
#[derive(Debug, Serialize, ToSchema)]
pub struct PhotoRulesBody {
    /// Photos a product keeps at least once it has them (deleting under it is refused).
    pub min_per_product: i64,
    /// Photos a product may hold.
    pub max_per_product: i64,
    /// Largest file in bytes.
    pub max_bytes: i64,
    /// Most files in one upload.
    pub max_per_upload: i64,
}

/// The photo rules: counts per product and file sizes, for the app to check before upload.
#[utoipa::path(get, path = "/products/photo-rules", tag = "products",
    responses((status = 200, body = PhotoRulesBody)), security(("bearer" = [])))]
pub(super) async fn photo_rules(State(state): State<AppState>, auth: StoreAuth) -> ApiResult<Json<PhotoRulesBody>> {
    auth.require(READ)?;
    let r = state.products().get_photo_rules(auth.ctx().request(pb::GetPhotoRulesRequest {})).await?.into_inner();
    Ok(Json(PhotoRulesBody {
        min_per_product: r.min_per_product,
        max_per_product: r.max_per_product,
        max_bytes: r.max_bytes,
        max_per_upload: r.max_per_upload,
    }))
}

/// Resize input.
#[derive(Debug, Deserialize, IntoParams, Default)]
#[serde(rename_all = "kebab-case", default)]
#[into_params(parameter_in = Query)]
pub struct PhotoQuery {
    /// Square size in pixels (SPEC §9: fit-in PNG, 100 by default when resizing, doubled
    /// under 100); absent for the stored image.
    pub size: Option<u32>,
}

/// A product image. Names are unguessable and images are public, as on a shop's pages, so
/// `<img>` tags load them without a token.
#[utoipa::path(get, path = "/products/photos/{store}/{file}", tag = "products",
    params(("store" = i64, Path), ("file" = String, Path), PhotoQuery),
    responses((status = 200, description = "the image", content_type = "image/png"), (status = 404, body = ErrorBody)))]
pub(super) async fn photo_file(
    State(state): State<AppState>,
    Path((store, file)): Path<(i64, String)>,
    Query(q): Query<PhotoQuery>,
) -> ApiResult<axum::response::Response> {
    let r = state
        .products()
        .get_photo_file(
            state
                .system()
                .request(pb::GetPhotoFileRequest { name: format!("{store}/{file}"), size: q.size.unwrap_or(0) }),
        )
        .await?
        .into_inner();
    crate::uploads::serve(
        &state.files,
        r.key,
        &r.content_type,
        "public, max-age=31536000, immutable",
        Code::PhotoNotFound,
    )
    .await
}
