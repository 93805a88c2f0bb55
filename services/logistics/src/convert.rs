//! Rows as the contract tells them: storage answers rows, the calls answer messages.

use bo_kit::time::ms_to_timestamp;
use bo_proto::logistics::v1 as pb;
use bo_proto::Wire as _;

use crate::domain;
use crate::store::{ChannelRow, ProviderRow, RangeRow};

impl ChannelRow {
    /// As a message.
    pub fn to_proto(&self) -> pb::StoreChannel {
        pb::StoreChannel {
            id: self.id,
            warehouse_id: self.warehouse_id,
            logistic_type: self.logistic_type.clone(),
            name: self.name.clone(),
            provider: self.provider.clone(),
            pricing_method: self.pricing_method.clone(),
            price_satang: self.price,
            brackets: self
                .brackets()
                .iter()
                .map(|b| pb::WeightBracket { max_weight_g: b.max_weight_g, price_satang: b.price })
                .collect(),
            free_over_satang: self.free_over,
            cod: self.cod != 0,
            international: self.logistic_type == domain::INTERNATIONAL,
            status: pb::ChannelStatus::number(&self.status),
            create_time: Some(ms_to_timestamp(self.created_at)),
            update_time: Some(ms_to_timestamp(self.updated_at)),
            carrier: domain::carrier(&self.provider).map(crate::grpc::carrier_message),
        }
    }
}

impl ProviderRow {
    /// As a message.
    pub fn to_proto(&self) -> pb::StoreProvider {
        pb::StoreProvider {
            id: self.id,
            provider: self.provider.clone(),
            cod_account_no: self.cod_account_no.clone(),
            create_time: Some(ms_to_timestamp(self.created_at)),
            update_time: Some(ms_to_timestamp(self.updated_at)),
            carrier: domain::carrier(&self.provider).map(crate::grpc::carrier_message),
        }
    }
}

impl RangeRow {
    /// As a message.
    pub fn to_proto(&self) -> pb::TrackingRange {
        let n = |s| domain::tracking::number(&self.provider, &self.prefix, self.width, s);
        pb::TrackingRange {
            id: self.id,
            provider: self.provider.clone(),
            prefix: self.prefix.clone(),
            first_serial: self.first_serial,
            last_serial: self.last_serial,
            next_serial: self.next_serial,
            remaining: (self.last_serial - self.next_serial + 1).max(0),
            first_number: n(self.first_serial),
            last_number: n(self.last_serial),
        }
    }
}
