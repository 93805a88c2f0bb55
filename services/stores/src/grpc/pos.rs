//! Point of sale calls: branches, POS units, cashiers and sellers. The rules are in
//! `domain::pos`; a warehouse is the store's when wms lists it for the caller's store.

use bo_kit::grpc::CallCtx;
use bo_kit::Code;
use bo_kit::Error;
use bo_proto::stores::v1 as pb;
use bo_proto::stores::v1::PosPersonKind;
use bo_proto::Wire;

use super::StoresGrpc;
use crate::convert;
use crate::domain::pos::{self, code, BranchDraft, PersonDraft, PosUnitDraft};

fn branch_draft(b: Option<pb::BranchInput>) -> BranchDraft {
    let b = b.unwrap_or_default();
    BranchDraft {
        branch_no: b.branch_no,
        is_main: b.is_main,
        name: b.name,
        tax_id: b.tax_id,
        warehouse_id: b.warehouse_id,
        address: b.address,
        sub_district: b.sub_district,
        district: b.district,
        state_province: b.state_province,
        postcode: b.postcode,
    }
}

fn person_draft(p: Option<pb::PosPersonInput>) -> PersonDraft {
    let p = p.unwrap_or_default();
    PersonDraft {
        user_id: p.user_id,
        first_name: p.first_name,
        last_name: p.last_name,
        email: p.email,
        branch_id: p.branch_id,
        tel: p.tel,
        code: p.code,
        // A number this build does not know stays as it is, for the rules to refuse.
        status: pb::PosPersonStatus::try_from(p.status).map_or_else(|_| p.status.to_string(), |s| s.wire().to_string()),
    }
}

fn kind(k: i32) -> bo_kit::Result<PosPersonKind> {
    match PosPersonKind::try_from(k) {
        Ok(k @ (PosPersonKind::Cashier | PosPersonKind::Seller)) => Ok(k),
        _ => Err(Error::invalid_field("kind", "validation.required")),
    }
}

impl StoresGrpc {
    /// Refuses a warehouse wms does not list for the caller's store.
    async fn check_warehouse(&self, ctx: &CallCtx, warehouse_id: i64) -> bo_kit::Result<()> {
        let Some(wms) = self.wms.clone() else {
            return Err(Error::new(bo_kit::error::Kind::Unavailable, Code::WarehousesUnavailable));
        };
        let mut wms = wms;
        let list = wms
            .list_warehouses(ctx.request(bo_proto::wms::v1::ListWarehousesRequest {}))
            .await
            .map_err(|s| Error::from_status(&s))?
            .into_inner();
        if list.warehouses.iter().any(|w| w.id == warehouse_id) {
            Ok(())
        } else {
            Err(Error::invalid_field("warehouse_id", code::WAREHOUSE))
        }
    }

    pub(super) async fn list_branches_in(
        &self,
        ctx: CallCtx,
        r: pb::ListBranchesRequest,
    ) -> bo_kit::Result<pb::ListBranchesResponse> {
        let (rows, page) = self.repo.branches(ctx.store_id, convert::page_request(r.page.as_ref())).await?;
        Ok(pb::ListBranchesResponse {
            branches: rows.iter().map(convert::branch).collect(),
            page: Some(convert::page(&page)),
        })
    }

    pub(super) async fn get_branch_in(&self, ctx: CallCtx, id: i64) -> bo_kit::Result<pb::BranchResponse> {
        Ok(pb::BranchResponse { branch: Some(convert::branch(&self.repo.branch(ctx.store_id, id).await?)) })
    }

    pub(super) async fn save_branch_in(
        &self,
        ctx: CallCtx,
        id: Option<i64>,
        input: Option<pb::BranchInput>,
    ) -> bo_kit::Result<pb::BranchResponse> {
        let b = pos::validate_branch(branch_draft(input))?;
        if let Some(id) = id {
            let current = self.repo.branch(ctx.store_id, id).await?;
            if current.warehouse_id != b.warehouse_id {
                self.check_warehouse(&ctx, b.warehouse_id).await?;
            }
        } else {
            self.check_warehouse(&ctx, b.warehouse_id).await?;
        }
        let row = match id {
            Some(id) => self.repo.update_branch(ctx.store_id, ctx.user_id, id, &b).await?,
            None => self.repo.create_branch(ctx.store_id, ctx.user_id, &b).await?,
        };
        Ok(pb::BranchResponse { branch: Some(convert::branch(&row)) })
    }

    pub(super) async fn delete_branch_in(&self, ctx: CallCtx, id: i64) -> bo_kit::Result<pb::DeleteBranchResponse> {
        self.repo.delete_branch(ctx.store_id, ctx.user_id, id).await?;
        Ok(pb::DeleteBranchResponse {})
    }

    pub(super) async fn list_pos_units_in(
        &self,
        ctx: CallCtx,
        r: pb::ListPosUnitsRequest,
    ) -> bo_kit::Result<pb::ListPosUnitsResponse> {
        let (rows, page) = self.repo.pos_units(ctx.store_id, convert::page_request(r.page.as_ref())).await?;
        Ok(pb::ListPosUnitsResponse {
            pos_units: rows.iter().map(convert::pos_unit).collect(),
            page: Some(convert::page(&page)),
        })
    }

    pub(super) async fn get_pos_unit_in(&self, ctx: CallCtx, id: i64) -> bo_kit::Result<pb::PosUnitResponse> {
        Ok(pb::PosUnitResponse { pos_unit: Some(convert::pos_unit(&self.repo.pos_unit(ctx.store_id, id).await?)) })
    }

    pub(super) async fn save_pos_unit_in(
        &self,
        ctx: CallCtx,
        id: Option<i64>,
        draft: PosUnitDraft,
    ) -> bo_kit::Result<pb::PosUnitResponse> {
        let p = pos::validate_pos_unit(draft)?;
        if p.warehouse_id > 0 {
            self.check_warehouse(&ctx, p.warehouse_id).await?;
        }
        let row = match id {
            Some(id) => self.repo.update_pos_unit(ctx.store_id, ctx.user_id, id, &p).await?,
            None => self.repo.create_pos_unit(ctx.store_id, ctx.user_id, &p).await?,
        };
        Ok(pb::PosUnitResponse { pos_unit: Some(convert::pos_unit(&row)) })
    }

    pub(super) async fn delete_pos_unit_in(&self, ctx: CallCtx, id: i64) -> bo_kit::Result<pb::DeletePosUnitResponse> {
        self.repo.delete_pos_unit(ctx.store_id, ctx.user_id, id).await?;
        Ok(pb::DeletePosUnitResponse {})
    }

    pub(super) async fn list_pos_people_in(
        &self,
        ctx: CallCtx,
        r: pb::ListPosPeopleRequest,
    ) -> bo_kit::Result<pb::ListPosPeopleResponse> {
        let page = convert::page_request(r.page.as_ref());
        let (rows, page) = match kind(r.kind)? {
            PosPersonKind::Cashier => self.repo.cashiers(ctx.store_id, page).await?,
            _ => self.repo.sellers(ctx.store_id, page).await?,
        };
        Ok(pb::ListPosPeopleResponse {
            people: rows.iter().map(convert::pos_person).collect(),
            page: Some(convert::page(&page)),
        })
    }

    pub(super) async fn get_pos_person_in(
        &self,
        ctx: CallCtx,
        k: i32,
        id: i64,
    ) -> bo_kit::Result<pb::PosPersonResponse> {
        let row = match kind(k)? {
            PosPersonKind::Cashier => self.repo.cashier(ctx.store_id, id).await?,
            _ => self.repo.seller(ctx.store_id, id).await?,
        };
        Ok(pb::PosPersonResponse { person: Some(convert::pos_person(&row)) })
    }

    pub(super) async fn save_pos_person_in(
        &self,
        ctx: CallCtx,
        k: i32,
        id: Option<i64>,
        input: Option<pb::PosPersonInput>,
    ) -> bo_kit::Result<pb::PosPersonResponse> {
        let (s, a) = (ctx.store_id, ctx.user_id);
        let row = match kind(k)? {
            PosPersonKind::Cashier => {
                let mut d = person_draft(input);
                if let Some(id) = id {
                    // The member stays the cashier they were made for.
                    d.user_id = self.repo.cashier(s, id).await?.user_id;
                }
                let c = pos::validate_cashier(d)?;
                match id {
                    Some(id) => self.repo.update_cashier(s, a, id, &c).await?,
                    None => self.repo.create_cashier(s, a, &c).await?,
                }
            }
            _ => {
                let mut d = person_draft(input);
                if id.is_none() {
                    // A new seller starts active, with no phone or code yet.
                    (d.tel, d.code, d.status) = (String::new(), String::new(), pos::ACTIVE.to_string());
                }
                let d = pos::validate_seller(d)?;
                match id {
                    Some(id) => self.repo.update_seller(s, a, id, &d).await?,
                    None => self.repo.create_seller(s, a, &d).await?,
                }
            }
        };
        Ok(pb::PosPersonResponse { person: Some(convert::pos_person(&row)) })
    }

    pub(super) async fn delete_pos_person_in(
        &self,
        ctx: CallCtx,
        k: i32,
        id: i64,
    ) -> bo_kit::Result<pb::DeletePosPersonResponse> {
        match kind(k)? {
            PosPersonKind::Cashier => self.repo.delete_cashier(ctx.store_id, ctx.user_id, id).await?,
            _ => self.repo.delete_seller(ctx.store_id, ctx.user_id, id).await?,
        }
        Ok(pb::DeletePosPersonResponse {})
    }
}
