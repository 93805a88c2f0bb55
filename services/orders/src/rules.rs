//! What the orders service tells the edge and the operators: its rules and catalogues (the
//! gateway checks bounds with them before it calls, the app shows them), the import
//! template, and its invariants, compared with what wms holds.

use bo_kit::time::now_ms;
use bo_kit::Result;
use bo_proto::orders::v1 as pb;
use bo_proto::wms::v1 as wpb;
use bo_proto::Wire as _;

use crate::domain::{self, check, draft, money, problem};
use crate::service::Orders;

impl Orders {
    /// The rules the edge checks before it calls, and the catalogues the app shows.
    pub fn rules(&self) -> pb::GetRulesResponse {
        pb::GetRulesResponse {
            max_selection: self.settings.max_selection as i64,
            bill_limit: money::BILL_LIMIT,
            max_items: draft::MAX_ITEMS as i64,
            vat_bp: money::VAT_BP,
            import_file_bytes: crate::import::MAX_FILE_BYTES as i64,
            arrivals_file_bytes: crate::arrivals::MAX_FILE_BYTES as i64,
            statement_file_bytes: crate::statement::MAX_FILE_BYTES as i64,
            statement_max_rows: crate::statement::MAX_ROWS as i64,
            problems: problem::ALL.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// What breaks the invariants (empty when they hold): reserved units belong to open
    /// orders, an open order holds exactly its lines unless it is flagged short (allowing
    /// `grace_ms` for an order still settling with wms), and the orders' money (bills add up
    /// to their order's total, one live payment per bill, payment states follow payments).
    pub async fn check_invariants(&self, grace_ms: i64) -> Result<Vec<String>> {
        let orders = self.repo.stock_view().await?;
        let mut broken = self.repo.money_check().await?;
        let mut wms = self.clients()?.wms.clone();
        let request = wpb::ListHoldingsByPrefixRequest { reference_prefix: domain::REFERENCE_PREFIX.into() };
        let mut pages = wms.list_holdings_by_prefix(self.system(0).request(request)).await?.into_inner();
        let mut held = Vec::new();
        while let Some(page) = pages.message().await? {
            held.extend(page.holdings.into_iter().map(|h| check::Holding {
                store_id: h.store_id,
                reference: h.reference,
                warehouse_id: h.warehouse_id,
                sku_id: h.sku_id,
                quantity: h.quantity,
                state: wpb::HoldingState::word_of(h.state).to_string(),
            }));
        }
        broken.extend(check::compare(&orders, &held, now_ms(), grace_ms));
        Ok(broken)
    }
}

#[cfg(test)]
mod tests {
    use bo_proto::Wire;

    use super::*;
    use crate::domain::{bill, payment, state};

    /// The states the domain keeps in storage are the proto enums' words, one for one, so
    /// every state a row holds has its value on the wire and back.
    #[test]
    fn the_domain_states_are_the_proto_enums() {
        fn words<E: Wire>() -> Vec<&'static str> {
            E::words().collect()
        }
        assert_eq!(words::<pb::OrderState>(), state::STATES);
        assert_eq!(words::<pb::PaymentState>(), payment::STATES);
        assert_eq!(words::<pb::BillState>(), bill::STATES);
        let stock = domain::stock::ALL;
        assert_eq!(words::<pb::StockState>(), stock);
        for s in state::STATES {
            assert_eq!(pb::OrderState::from_wire(s).map(|e| e.wire()), Some(s));
        }
        assert_eq!(pb::OrderState::number("lost"), 0);
    }
}
