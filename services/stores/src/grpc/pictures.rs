//! The store's pictures, the receipt settings and the owner's identity verification. Uploads
//! arrive as staging keys of the caller's store; each picture is checked and cleaned (no
//! metadata) before it is kept. Public pictures live under `store-pictures/`, identity photos
//! under `identity/`, so no public route can reach an identity photo.

use bo_kit::files::{Files, Key};
use bo_kit::grpc::CallCtx;
use bo_kit::images::{self, Format, PictureError};
use bo_kit::time::ms_to_timestamp;
use bo_kit::Code;
use bo_kit::Error;
use bo_proto::stores::v1 as pb;
use bo_proto::Wire;

use super::StoresGrpc;
use crate::domain::identity::{self, state, IdentityDraft, Slot};
use crate::store::{IdentityRow, ReceiptRow};

/// Where public store pictures are kept.
const PUBLIC: &str = "store-pictures";
/// Where identity photos are kept.
const PRIVATE: &str = "identity";

/// Whether `name` has the shape [`new_name`] makes: `<store>/<hex>.<jpg|png>`.
fn valid_name(name: &str) -> bool {
    let Some((dir, file)) = name.split_once('/') else { return false };
    let Some((stem, ext)) = file.split_once('.') else { return false };
    !dir.is_empty()
        && dir.bytes().all(|b| b.is_ascii_digit())
        && !stem.is_empty()
        && stem.bytes().all(|b| b.is_ascii_hexdigit())
        && matches!(ext, "jpg" | "png")
}

fn new_name(store_id: i64, format: Format) -> String {
    format!("{store_id}/{}.{}", uuid::Uuid::now_v7().simple(), format.extension())
}

fn key(prefix: &str, name: &str) -> bo_kit::Result<Key> {
    if !valid_name(name) {
        return Err(Error::not_found(Code::PictureNotFound));
    }
    Key::new(format!("{prefix}/{name}")).map_err(Error::internal)
}

fn content_type(name: &str) -> &'static str {
    if name.ends_with(".png") {
        Format::Png.mime()
    } else {
        Format::Jpeg.mime()
    }
}

fn picture_error(field: &str, e: PictureError) -> Error {
    Error::invalid_field(field, e.code())
}

fn receipt(pictures: &[(String, String)], text: Option<ReceiptRow>) -> pb::ReceiptSettings {
    let of = |slot: Slot| pictures.iter().find(|(s, _)| s == slot.as_str()).map(|(_, n)| n.clone()).unwrap_or_default();
    let text = text.unwrap_or(ReceiptRow { footer_text: String::new(), updated_by: 0, updated_at: 0 });
    pb::ReceiptSettings {
        header_photo: of(Slot::ReceiptHeader),
        footer_photo: of(Slot::ReceiptFooter),
        footer_text: text.footer_text,
        updated_by: text.updated_by,
        update_time: (text.updated_at > 0).then(|| ms_to_timestamp(text.updated_at)),
    }
}

fn identity_message(r: Option<IdentityRow>) -> pb::Identity {
    let r = r.unwrap_or_else(|| IdentityRow { status: state::PENDING.into(), ..Default::default() });
    pb::Identity {
        status: pb::IdentityStatus::number(&r.status),
        first_name: r.first_name,
        last_name: r.last_name,
        tel: r.tel,
        email: r.email,
        address: r.address,
        sub_district: r.sub_district,
        district: r.district,
        state_province: r.state_province,
        postcode: r.postcode,
        has_id_card_photo: !r.id_card_photo.is_empty(),
        has_holding_photo: !r.holding_photo.is_empty(),
        submitted_by: r.submitted_by,
        submit_time: (r.submitted_at > 0).then(|| ms_to_timestamp(r.submitted_at)),
        approve_time: (r.approved_at > 0).then(|| ms_to_timestamp(r.approved_at)),
    }
}

impl StoresGrpc {
    fn files(&self) -> bo_kit::Result<&Files> {
        self.files.as_ref().ok_or_else(|| Error::new(bo_kit::error::Kind::Unavailable, Code::FilesUnavailable))
    }

    /// Reads the upload `upload` of the caller's store, cleans it and keeps it under `prefix`;
    /// answers the new file name.
    async fn keep_picture(&self, store_id: i64, upload: &str, prefix: &str, field: &str) -> bo_kit::Result<String> {
        let files = self.files()?;
        let staged = Key::uploads_of(store_id, &[upload.to_string()], field)?.remove(0);
        let bytes = files.read_upload(&staged, images::MAX_BYTES as u64, field, PictureError::TooLarge.code()).await?;
        files.forget(&staged).await;
        let cleaned = bo_kit::cpu::run(move || images::clean(&bytes))
            .await
            .map_err(Error::internal)?
            .map_err(|e| picture_error(field, e))?;
        let name = new_name(store_id, cleaned.format);
        files.put(&key(prefix, &name)?, cleaned.bytes).await.map_err(Error::internal)?;
        Ok(name)
    }

    /// Removes the uploads a call was handed, whatever it answers.
    async fn drop_uploads(&self, store_id: i64, uploads: &[&str]) {
        let Ok(files) = self.files() else { return };
        let named: Vec<String> = uploads.iter().filter(|u| !u.is_empty()).map(|u| u.to_string()).collect();
        // Only the caller's store's uploads; a key of another shape names nothing to remove.
        for u in &named {
            for k in Key::uploads_of(store_id, std::slice::from_ref(u), "").unwrap_or_default() {
                files.forget(&k).await;
            }
        }
    }

    async fn forget(&self, prefix: &str, names: &[String]) {
        let Ok(files) = self.files() else { return };
        for n in names {
            if let Ok(k) = key(prefix, n) {
                files.forget(&k).await;
            }
        }
    }

    pub(super) async fn receipt_in(&self, ctx: &CallCtx) -> bo_kit::Result<pb::ReceiptSettingsResponse> {
        let pictures = self.repo.pictures(ctx.store_id).await?;
        let text = self.repo.receipt(ctx.store_id).await?;
        Ok(pb::ReceiptSettingsResponse { settings: Some(receipt(&pictures, text)) })
    }

    pub(super) async fn set_receipt_text_in(
        &self,
        ctx: CallCtx,
        text: &str,
    ) -> bo_kit::Result<pb::ReceiptSettingsResponse> {
        let text = identity::validate_footer_text(text)?;
        self.repo.set_receipt_text(ctx.store_id, ctx.user_id, &text).await?;
        self.receipt_in(&ctx).await
    }

    pub(super) async fn set_picture_in(
        &self,
        ctx: CallCtx,
        r: pb::SetStorePictureRequest,
    ) -> bo_kit::Result<pb::SetStorePictureResponse> {
        let upload = r.upload.clone();
        let answer = self.set_picture(&ctx, r).await;
        self.drop_uploads(ctx.store_id, &[&upload]).await;
        answer
    }

    async fn set_picture(
        &self,
        ctx: &CallCtx,
        r: pb::SetStorePictureRequest,
    ) -> bo_kit::Result<pb::SetStorePictureResponse> {
        let slot = Slot::parse(&r.slot).ok_or_else(|| Error::invalid_field("slot", "validation.picture_slot"))?;
        let name = if r.upload.is_empty() {
            None
        } else {
            Some(self.keep_picture(ctx.store_id, &r.upload, PUBLIC, "file").await?)
        };
        match self.repo.set_picture(ctx.store_id, ctx.user_id, slot, name.as_deref()).await {
            Ok(old) => {
                self.forget(PUBLIC, &old.into_iter().collect::<Vec<_>>()).await;
                Ok(pb::SetStorePictureResponse { name: name.unwrap_or_default() })
            }
            Err(e) => {
                self.forget(PUBLIC, &name.into_iter().collect::<Vec<_>>()).await;
                Err(e)
            }
        }
    }

    pub(super) fn picture_file_in(&self, name: &str) -> bo_kit::Result<pb::GetPictureFileResponse> {
        let k = key(PUBLIC, name)?;
        Ok(pb::GetPictureFileResponse { key: k.as_str().to_string(), content_type: content_type(name).into() })
    }

    pub(super) async fn identity_in(&self, ctx: &CallCtx) -> bo_kit::Result<pb::IdentityResponse> {
        Ok(pb::IdentityResponse { identity: Some(identity_message(self.repo.identity(ctx.store_id).await?)) })
    }

    pub(super) async fn submit_identity_in(
        &self,
        ctx: CallCtx,
        r: pb::SubmitIdentityRequest,
    ) -> bo_kit::Result<pb::IdentityResponse> {
        let uploads = [r.id_card_upload.clone(), r.holding_upload.clone()];
        let answer = self.submit_identity(&ctx, r).await;
        self.drop_uploads(ctx.store_id, &[&uploads[0], &uploads[1]]).await;
        answer
    }

    async fn submit_identity(
        &self,
        ctx: &CallCtx,
        r: pb::SubmitIdentityRequest,
    ) -> bo_kit::Result<pb::IdentityResponse> {
        let current = self.repo.identity(ctx.store_id).await?;
        if current.as_ref().is_some_and(|c| c.status == state::APPROVED) {
            return Err(Error::conflict(identity::code::APPROVED));
        }
        let kept = |f: fn(&IdentityRow) -> &String| current.as_ref().is_some_and(|c| !f(c).is_empty());
        let draft = identity::validate(IdentityDraft {
            first_name: r.first_name,
            last_name: r.last_name,
            tel: r.tel,
            email: r.email,
            address: r.address,
            sub_district: r.sub_district,
            district: r.district,
            state_province: r.state_province,
            postcode: r.postcode,
            has_id_card: !r.id_card_upload.is_empty() || kept(|c| &c.id_card_photo),
            has_holding: !r.holding_upload.is_empty() || kept(|c| &c.holding_photo),
        })?;
        let mut made = Vec::new();
        let stored: bo_kit::Result<(Option<String>, Option<String>)> = async {
            let card = if r.id_card_upload.is_empty() {
                None
            } else {
                let n = self.keep_picture(ctx.store_id, &r.id_card_upload, PRIVATE, "id_card_photo").await?;
                made.push(n.clone());
                Some(n)
            };
            let hold = if r.holding_upload.is_empty() {
                None
            } else {
                let n = self.keep_picture(ctx.store_id, &r.holding_upload, PRIVATE, "holding_photo").await?;
                made.push(n.clone());
                Some(n)
            };
            Ok((card, hold))
        }
        .await;
        let saved = match stored {
            Ok((card, hold)) => {
                self.repo.submit_identity(ctx.store_id, ctx.user_id, &draft, card.as_deref(), hold.as_deref()).await
            }
            Err(e) => Err(e),
        };
        match saved {
            Ok((row, replaced)) => {
                self.forget(PRIVATE, &replaced).await;
                Ok(pb::IdentityResponse { identity: Some(identity_message(Some(row))) })
            }
            Err(e) => {
                // Nothing of a refused submission is kept.
                self.forget(PRIVATE, &made).await;
                Err(e)
            }
        }
    }

    pub(super) async fn identity_photo_in(
        &self,
        ctx: &CallCtx,
        kind: &str,
    ) -> bo_kit::Result<pb::GetPictureFileResponse> {
        let row = self.repo.identity(ctx.store_id).await?.ok_or_else(|| Error::not_found(Code::PictureNotFound))?;
        let name = match kind {
            "id_card" => row.id_card_photo,
            "holding" => row.holding_photo,
            _ => return Err(Error::invalid_field("kind", "validation.picture_slot")),
        };
        let k = key(PRIVATE, &name)?;
        Ok(pb::GetPictureFileResponse { key: k.as_str().to_string(), content_type: content_type(&name).into() })
    }

    /// The operator's approval of a store's submitted identity (`admin identity approve`).
    pub async fn approve_identity(&self, store_id: i64) -> bo_kit::Result<pb::Identity> {
        Ok(identity_message(Some(self.repo.approve_identity(store_id).await?)))
    }
}
