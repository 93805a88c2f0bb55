//! The services' rules and catalogues as the edge uses them (bounds it checks before it
//! calls, lists the app shows), asked of each service through its contract (`GetRules`)
//! and kept for a minute: they change only when a service restarts with other settings.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bo_proto::logistics::v1 as lpb;
use bo_proto::marketplaces::v1 as mpb;
use bo_proto::marketplaces::v1::marketplaces_service_client::MarketplacesServiceClient;
use bo_proto::orders::v1 as opb;
use bo_proto::payments::v1 as paypb;
use bo_proto::products::v1 as ppb;
use bo_proto::stores::v1 as spb;
use bo_proto::wms::v1 as wpb;

use crate::error::ApiResult;
use crate::state::Inner;

/// How long an answer is kept.
const KEPT: Duration = Duration::from_secs(60);

/// One service's answer, kept for [`KEPT`].
pub struct Cached<T> {
    slot: Mutex<Option<(Instant, Arc<T>)>>,
}

impl<T> Default for Cached<T> {
    fn default() -> Self {
        Self { slot: Mutex::new(None) }
    }
}

impl<T> Cached<T> {
    /// The kept answer, or a fresh one from `fetch` once it is older than a minute.
    pub async fn get<F>(&self, fetch: F) -> ApiResult<Arc<T>>
    where
        F: std::future::Future<Output = ApiResult<T>>,
    {
        if let Some((at, kept)) = self.slot.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            if at.elapsed() < KEPT {
                return Ok(kept.clone());
            }
        }
        let fresh = Arc::new(fetch.await?);
        *self.slot.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), fresh.clone()));
        Ok(fresh)
    }
}

/// Every service's kept rules.
#[derive(Default)]
pub struct Rules {
    orders: Cached<opb::GetRulesResponse>,
    wms: Cached<wpb::GetRulesResponse>,
    payments: Cached<paypb::GetRulesResponse>,
    logistics: Cached<lpb::GetRulesResponse>,
    products: Cached<ppb::GetRulesResponse>,
    stores: Cached<spb::GetRulesResponse>,
    sale_channels: Cached<mpb::ListSaleChannelsResponse>,
}

impl Inner {
    /// The orders service's rules: selection and file bounds, channels, states.
    pub async fn order_rules(&self) -> ApiResult<Arc<opb::GetRulesResponse>> {
        let ask =
            async { Ok(self.orders().get_rules(self.system().request(opb::GetRulesRequest {})).await?.into_inner()) };
        self.rules.orders.get(ask).await
    }

    /// The warehouse service's rules: packagings and the label bound.
    pub async fn wms_rules(&self) -> ApiResult<Arc<wpb::GetRulesResponse>> {
        let ask =
            async { Ok(self.wms().get_rules(self.system().request(wpb::GetRulesRequest {})).await?.into_inner()) };
        self.rules.wms.get(ask).await
    }

    /// The payments service's catalogues: kinds, countries, banks.
    pub async fn payment_rules(&self) -> ApiResult<Arc<paypb::GetRulesResponse>> {
        let ask = async {
            Ok(self.payments().get_rules(self.system().request(paypb::GetRulesRequest {})).await?.into_inner())
        };
        self.rules.payments.get(ask).await
    }

    /// The logistics service's carrier catalogue and file bounds.
    pub async fn logistic_rules(&self) -> ApiResult<Arc<lpb::GetRulesResponse>> {
        let ask = async {
            Ok(self.logistics().get_rules(self.system().request(lpb::GetRulesRequest {})).await?.into_inner())
        };
        self.rules.logistics.get(ask).await
    }

    /// The products service's photo bounds.
    pub async fn product_rules(&self) -> ApiResult<Arc<ppb::GetRulesResponse>> {
        let ask =
            async { Ok(self.products().get_rules(self.system().request(ppb::GetRulesRequest {})).await?.into_inner()) };
        self.rules.products.get(ask).await
    }

    /// The marketplaces service's catalogue of the sales channels an order can come from.
    pub async fn sale_channels(&self) -> ApiResult<Arc<mpb::ListSaleChannelsResponse>> {
        let ask = async {
            let mut client = self.client(MarketplacesServiceClient::new)?;
            Ok(client.list_sale_channels(self.system().request(mpb::ListSaleChannelsRequest {})).await?.into_inner())
        };
        self.rules.sale_channels.get(ask).await
    }

    /// The stores service's bill-expiry methods and bounds.
    pub async fn store_rules(&self) -> ApiResult<Arc<spb::GetRulesResponse>> {
        let ask =
            async { Ok(self.stores().get_rules(self.system().request(spb::GetRulesRequest {})).await?.into_inner()) };
        self.rules.stores.get(ask).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bo_kit::Code;

    #[tokio::test]
    async fn an_answer_is_kept_and_a_failure_is_not() {
        let c: Cached<i64> = Cached::default();
        let e = c.get(async { Err(crate::error::ApiError::forbidden()) }).await.err().unwrap();
        assert_eq!(e.code, Code::Forbidden);
        assert_eq!(*c.get(async { Ok(1) }).await.unwrap(), 1);
        assert_eq!(*c.get(async { Ok(2) }).await.unwrap(), 1, "kept for a minute");
    }
}
