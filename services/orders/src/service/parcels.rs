//! Parcels of orders: made, priced and numbered, printed, shipped and followed.

use super::*;
use bo_kit::Code;

impl Orders {
    /// Ships prepared orders with their parcels, each on its own.
    pub async fn ship(&self, ctx: &CallCtx, ids: &[i64]) -> Result<Vec<Moved>> {
        if ids.is_empty() {
            return Err(Error::invalid_field("order_ids", "validation.required"));
        }
        if ids.len() > self.settings.max_selection {
            return Err(Error::invalid_field("order_ids", "order.too_many_selected"));
        }
        let mut out = Vec::with_capacity(ids.len());
        let mut seen = HashSet::new();
        for id in ids {
            if !seen.insert(*id) {
                continue;
            }
            let refused = |row: Option<&OrderRow>, why: Code| Moved {
                id: *id,
                order_no: row.map(|r| r.order_no.clone()).unwrap_or_default(),
                refused: Some(why),
                state: row.map(|r| r.state.clone()).unwrap_or_default(),
                release: false,
            };
            let Some(row) = self.repo.get(ctx.store_id, *id).await? else {
                out.push(refused(None, Code::OrderNotFound));
                continue;
            };
            if let Err(why) = state::by_hand(Action::Ship, row.platform_ships != 0)
                .and_then(|_| state::next(&row.state, Action::Ship))
            {
                out.push(refused(Some(&row), why));
                continue;
            }
            if !self.repo.begin_ship(ctx.store_id, *id).await? {
                let why = if row.stock_state == stock::SHORT { Code::InsufficientStock } else { Code::OrderBusy };
                out.push(refused(Some(&row), why));
                continue;
            }
            match self.ship_one(ctx, Self::actor(ctx), &row).await {
                Ok(None) => out.push(Moved {
                    id: *id,
                    order_no: row.order_no.clone(),
                    refused: None,
                    state: state::SHIPPED.into(),
                    release: false,
                }),
                Ok(Some(why)) => out.push(refused(Some(&row), why)),
                Err(e) => out.push(refused(Some(&row), e.code)),
            }
        }
        self.relay.wake();
        Ok(out)
    }

    /// Ships one order that is `committing`: None when shipped, Some(reason) when wms refused.
    pub(super) async fn ship_one(&self, ctx: &CallCtx, who: Actor, row: &OrderRow) -> Result<Option<Code>> {
        let shipped = self
            .clients()?
            .wms
            .clone()
            .ship_order(ctx.request(wpb::ShipOrderRequest {
                order_id: row.id,
                reference: domain::reference(row.id),
                by_channel: false,
            }))
            .await
            .map_err(Error::from);
        match shipped {
            Ok(r) => {
                let r = r.into_inner();
                let tracking: Vec<String> =
                    r.parcels.iter().map(|p| p.tracking_no.clone()).filter(|t| !t.is_empty()).collect();
                let at = r.parcels.iter().map(|p| p.shipped_at_ms).max().filter(|t| *t > 0).unwrap_or_else(now_ms);
                self.repo.finish_ship(who, row.id, &tracking.join(","), at).await?;
                self.follow(ctx, row, &r.parcels).await;
                Ok(None)
            }
            Err(e) if is_definite(&e) => {
                self.repo.abandon_ship(row.store_id, row.id).await?;
                Ok(Some(e.code))
            }
            Err(e) => Err(e),
        }
    }

    /// Starts following shipped postal parcels (their tracking pushes then reach the order);
    /// Flash bookings are followed from the moment they are made.
    pub(super) async fn follow(&self, ctx: &CallCtx, row: &OrderRow, parcels: &[wpb::Parcel]) {
        let Ok(c) = self.clients() else { return };
        for p in parcels.iter().filter(|p| p.shipment_id == 0 && p.provider == "thaipost" && !p.tracking_no.is_empty())
        {
            let followed = c
                .logistics
                .clone()
                .register_shipment(ctx.request(lpb::RegisterShipmentRequest {
                    carrier: "thaipost".into(),
                    tracking_no: p.tracking_no.clone(),
                    reference: row.order_no.clone(),
                }))
                .await;
            if let Err(e) = followed {
                tracing::info!(order = row.id, error = %e.message(), "a parcel's tracking is not followed");
            }
        }
    }

    /// Adds a parcel to a prepared order, priced by its channel, with a tracking number.
    pub async fn add_parcel(&self, ctx: &CallCtx, order_id: i64, d: pb::ParcelDraft) -> Result<View> {
        let row = self.repo.order(ctx.store_id, order_id).await?;
        self.save_parcel(ctx, &row, None, d).await?;
        self.load(ctx, order_id).await
    }

    /// Changes a pending parcel.
    pub async fn update_parcel(&self, ctx: &CallCtx, parcel_id: i64, d: pb::ParcelDraft) -> Result<View> {
        let p = self.parcel(ctx, parcel_id).await?;
        let row = self.repo.order(ctx.store_id, p.order_id).await?;
        self.save_parcel(ctx, &row, Some(p), d).await?;
        self.load(ctx, row.id).await
    }

    pub(super) async fn parcel(&self, ctx: &CallCtx, id: i64) -> Result<wpb::Parcel> {
        self.clients()?
            .wms
            .clone()
            .list_parcels(ctx.request(wpb::ListParcelsRequest { order_ids: vec![], ids: vec![id] }))
            .await
            .map_err(Error::from)?
            .into_inner()
            .parcels
            .pop()
            .ok_or_else(|| Error::not_found(Code::ParcelNotFound))
    }

    pub(super) async fn save_parcel(
        &self,
        ctx: &CallCtx,
        row: &OrderRow,
        current: Option<wpb::Parcel>,
        d: pb::ParcelDraft,
    ) -> Result<()> {
        if row.state != state::READY {
            return Err(Error::failed_precondition(Code::OrderNotReady));
        }
        if row.logistic_store_channel_id == 0 {
            return Err(Error::failed_precondition(Code::OrderWithoutLogisticChannel));
        }
        let c = self.clients()?;
        let others = self.parcels(ctx, &[row.id]).await?.remove(&row.id).unwrap_or_default();
        // The cash on delivery rides on the order's first parcel.
        let carries_cod = match &current {
            Some(p) => p.cod_amount > 0,
            None => others.iter().all(|p| p.cod_amount == 0),
        };
        let cod_amount = if row.cod != 0 && carries_cod { row.total } else { 0 };
        let a = row.address();
        let quotes = c
            .logistics
            .clone()
            .quote_shipping(ctx.request(lpb::QuoteShippingRequest {
                warehouse_id: row.warehouse_id,
                parcel: Some(lpb::Parcel {
                    weight_g: d.weight_g,
                    length_cm: d.length_cm,
                    width_cm: d.width_cm,
                    height_cm: d.height_cm,
                    postcode: if a.is_international() { String::new() } else { a.postcode.clone() },
                    country: a.country.clone(),
                    order_total_satang: row.net,
                    cod: cod_amount > 0,
                    cod_amount_satang: cod_amount,
                }),
            }))
            .await
            .map_err(Error::from)?
            .into_inner()
            .quotes;
        let q = quotes
            .into_iter()
            .find(|q| q.store_channel.as_ref().is_some_and(|s| s.id == row.logistic_store_channel_id))
            .ok_or_else(|| Error::failed_precondition(Code::OrderWithoutLogisticChannel))?;
        if !q.available {
            return Err(Error::invalid_field("weight", &q.reason));
        }
        let keep = current.clone().unwrap_or_default();
        let typed = d.tracking_no.trim().to_uppercase();
        let mut parcel = wpb::Parcel {
            id: keep.id,
            order_id: row.id,
            warehouse_id: row.warehouse_id,
            logistic_store_channel_id: row.logistic_store_channel_id,
            provider: row.shipping_provider.clone(),
            weight_g: d.weight_g,
            width_cm: d.width_cm,
            length_cm: d.length_cm,
            height_cm: d.height_cm,
            packaging_code: d.packaging_code.trim().to_string(),
            shipping_fee: q.price_satang,
            cod_amount,
            cod_fee: q.cod_fee_satang,
            tracking_no: if typed.is_empty() { keep.tracking_no.clone() } else { typed },
            shipment_id: keep.shipment_id,
            ..Default::default()
        };
        let saved = c
            .wms
            .clone()
            .save_parcel(ctx.request(wpb::SaveParcelRequest { parcel: Some(parcel.clone()) }))
            .await
            .map_err(Error::from)?
            .into_inner()
            .parcel
            .unwrap_or_default();
        let mut detail = format!("{} g", saved.weight_g);
        if saved.tracking_no.is_empty() {
            match self.tracking_for(ctx, row, &saved).await {
                Ok(Some((no, shipment))) => {
                    parcel.id = saved.id;
                    parcel.tracking_no = no;
                    parcel.shipment_id = shipment;
                    let again = c
                        .wms
                        .clone()
                        .save_parcel(ctx.request(wpb::SaveParcelRequest { parcel: Some(parcel.clone()) }))
                        .await
                        .map_err(Error::from)?
                        .into_inner()
                        .parcel
                        .unwrap_or_default();
                    detail = format!("{} · {}", again.tracking_no, detail);
                }
                Ok(None) => {}
                Err(e) => {
                    if current.is_none() {
                        let _ =
                            c.wms.clone().delete_parcel(ctx.request(wpb::DeleteParcelRequest { id: saved.id })).await;
                    }
                    return Err(e);
                }
            }
        } else {
            detail = format!("{} · {}", saved.tracking_no, detail);
        }
        let action = if current.is_some() { "parcel_changed" } else { "parcel_added" };
        self.repo.note_event(Self::actor(ctx), row.id, action, &detail).await
    }

    /// A tracking number for a parcel: a booking with Flash Express when the store has its
    /// account, else the next number of the store's range for the provider; None when the
    /// provider has neither (the number is typed in).
    pub(super) async fn tracking_for(
        &self,
        ctx: &CallCtx,
        row: &OrderRow,
        p: &wpb::Parcel,
    ) -> Result<Option<(String, i64)>> {
        let c = self.clients()?;
        let reference = format!("parcel:{}", p.id);
        if row.shipping_provider == "flash" {
            let account = c
                .logistics
                .clone()
                .get_carrier_account(
                    ctx.request(lpb::GetCarrierAccountRequest { carrier: "flash".into(), check: false }),
                )
                .await
                .map_err(Error::from)?
                .into_inner();
            if !account.connected {
                return Ok(None);
            }
            let store = c
                .stores
                .clone()
                .get_store(ctx.request(spb::GetStoreRequest {}))
                .await
                .map_err(Error::from)?
                .into_inner()
                .store
                .unwrap_or_default();
            let a = row.address();
            let booked = c
                .logistics
                .clone()
                .create_shipment(ctx.request(lpb::CreateShipmentRequest {
                    carrier: "flash".into(),
                    reference,
                    sender: Some(lpb::CarrierAddress {
                        name: store.name,
                        phone: store.tel,
                        province: store.province,
                        district: store.district,
                        sub_district: store.sub_district,
                        postcode: store.postcode,
                        detail: store.address,
                    }),
                    receiver: Some(lpb::CarrierAddress {
                        name: a.name,
                        phone: a.tel,
                        province: a.state_province,
                        district: a.district,
                        sub_district: a.sub_district,
                        postcode: a.postcode,
                        detail: a.address,
                    }),
                    weight_g: p.weight_g,
                    cod_satang: p.cod_amount,
                }))
                .await
                .map_err(Error::from)?
                .into_inner()
                .shipment
                .unwrap_or_default();
            return Ok(Some((booked.tracking_no, booked.id)));
        }
        match c
            .logistics
            .clone()
            .reserve_tracking_numbers(ctx.request(lpb::ReserveTrackingNumbersRequest {
                provider: row.shipping_provider.clone(),
                count: 1,
                reference,
            }))
            .await
        {
            Ok(r) => Ok(r.into_inner().numbers.into_iter().next().map(|n| (n, 0))),
            Err(s) if matches!(s.code(), tonic::Code::NotFound | tonic::Code::FailedPrecondition) => Ok(None),
            Err(s) => Err(s.into()),
        }
    }

    /// Removes a pending parcel (cancelling its carrier booking first).
    pub async fn delete_parcel(&self, ctx: &CallCtx, parcel_id: i64) -> Result<View> {
        let p = self.parcel(ctx, parcel_id).await?;
        let row = self.repo.order(ctx.store_id, p.order_id).await?;
        if p.state() != bo_proto::wms::v1::ParcelState::Pending {
            return Err(Error::failed_precondition(Code::ParcelShipped));
        }
        let c = self.clients()?;
        if p.shipment_id > 0 && p.provider == "flash" {
            c.logistics
                .clone()
                .cancel_shipment(
                    ctx.request(lpb::GetShipmentRequest {
                        carrier: "flash".into(),
                        tracking_no: p.tracking_no.clone(),
                    }),
                )
                .await
                .map_err(Error::from)?;
        }
        c.wms
            .clone()
            .delete_parcel(ctx.request(wpb::DeleteParcelRequest { id: parcel_id }))
            .await
            .map_err(Error::from)?;
        let detail = if p.tracking_no.is_empty() { format!("{} g", p.weight_g) } else { p.tracking_no.clone() };
        self.repo.note_event(Self::actor(ctx), row.id, "parcel_removed", &detail).await?;
        self.load(ctx, row.id).await
    }

    /// Records that parcels' labels were printed, on each order's timeline.
    pub async fn labels_printed(&self, ctx: &CallCtx, parcel_ids: &[i64]) -> Result<()> {
        if parcel_ids.is_empty() || parcel_ids.len() > 1000 {
            return Err(Error::invalid_field("parcel_ids", "validation.too_many"));
        }
        let c = self.clients()?;
        let parcels = c
            .wms
            .clone()
            .list_parcels(ctx.request(wpb::ListParcelsRequest { order_ids: vec![], ids: parcel_ids.to_vec() }))
            .await
            .map_err(Error::from)?
            .into_inner()
            .parcels;
        c.wms
            .clone()
            .mark_parcels_printed(
                ctx.request(wpb::MarkParcelsPrintedRequest { ids: parcels.iter().map(|p| p.id).collect() }),
            )
            .await
            .map_err(Error::from)?;
        let mut per_order: BTreeMap<i64, Vec<String>> = BTreeMap::new();
        for p in &parcels {
            per_order.entry(p.order_id).or_default().push(if p.tracking_no.is_empty() {
                format!("#{}", p.id)
            } else {
                p.tracking_no.clone()
            });
        }
        for (order, labels) in per_order {
            self.repo.note_event(Self::actor(ctx), order, "labels_printed", &labels.join(", ")).await?;
        }
        Ok(())
    }
}
