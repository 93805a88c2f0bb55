//! The marketplaces service's pure rules: which marketplaces there are, the sales channels an
//! order can come from ([`catalogue`]), what their order statuses mean for our orders
//! ([`status`]), their money in satang ([`money`]), how listings link to our SKUs
//! ([`matching`]), bundles ([`bundle`]), how much stock a listing shows ([`stock_rule`]),
//! what their buyers' returns' statuses mean ([`returns`]), open-API channels ([`api_channel`],
//! [`api_order`]), the webhooks they are sent ([`webhook`]), the store's own channels
//! ([`own_channel`]) and Magento 2 shops ([`magento`]).

pub mod api_channel;
pub mod api_order;
pub mod bundle;
pub mod catalogue;
pub mod channel;
pub mod magento;
pub mod matching;
pub mod money;
pub mod new_product;
pub mod own_channel;
pub mod returns;
pub mod status;
pub mod stock_rule;
pub mod webhook;

use serde::{Deserialize, Serialize};

/// A marketplace we connect shops of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Marketplace {
    /// Shopee Open Platform v2.
    Shopee,
    /// Lazada Open Platform (Thailand).
    Lazada,
    /// TikTok Shop Partner API (202309).
    TiktokShop,
}

impl Marketplace {
    /// Every marketplace, in the order the app lists them.
    pub const ALL: [Marketplace; 3] = [Marketplace::Shopee, Marketplace::Lazada, Marketplace::TiktokShop];

    /// Its code, as orders keep it (`tiktok_shop`).
    pub fn code(self) -> &'static str {
        match self {
            Marketplace::Shopee => "shopee",
            Marketplace::Lazada => "lazada",
            Marketplace::TiktokShop => "tiktok_shop",
        }
    }

    /// How it is written in API paths (`tiktok-shop`, SPEC §7).
    pub fn path(self) -> &'static str {
        match self {
            Marketplace::Shopee => "shopee",
            Marketplace::Lazada => "lazada",
            Marketplace::TiktokShop => "tiktok-shop",
        }
    }

    /// The marketplace of a code or a path word.
    pub fn parse(s: &str) -> Option<Marketplace> {
        Marketplace::ALL.into_iter().find(|m| m.code() == s || m.path() == s)
    }

    /// Its name as sellers know it.
    pub fn name(self) -> &'static str {
        match self {
            Marketplace::Shopee => "Shopee",
            Marketplace::Lazada => "Lazada",
            Marketplace::TiktokShop => "TikTok Shop",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_paths_read_back() {
        for m in Marketplace::ALL {
            assert_eq!(Marketplace::parse(m.code()), Some(m));
            assert_eq!(Marketplace::parse(m.path()), Some(m));
        }
        assert_eq!(Marketplace::TiktokShop.path(), "tiktok-shop");
        assert_eq!(Marketplace::TiktokShop.code(), "tiktok_shop");
        assert_eq!(Marketplace::parse("tiktok"), None);
        assert_eq!(Marketplace::parse(""), None);
    }
}
