//! The sales channels an order can come from (SPEC §9: the three marketplaces, social
//! commerce, a website, the open API), as the order screens and filters name them. The codes
//! are the words of the contract's `SaleChannel`, which orders check an order's channel
//! against; the kinds and names are this service's.

/// What kind of channel a sales channel is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A marketplace whose shops are connected ([`Marketplace`]).
    Marketplace,
    /// A chat or social network the seller sells through by hand.
    SocialCommerce,
    /// The seller's own website.
    Website,
    /// An integrator's app, through the open API.
    OpenApi,
}

impl Kind {
    /// Its word on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Marketplace => "marketplace",
            Kind::SocialCommerce => "social_commerce",
            Kind::Website => "website",
            Kind::OpenApi => "open_api",
        }
    }
}

/// A sales channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaleChannel {
    /// The code orders keep.
    pub code: &'static str,
    /// Its kind.
    pub kind: Kind,
    /// Its Thai name.
    pub name_th: &'static str,
    /// Its English name.
    pub name_en: &'static str,
}

const fn channel(code: &'static str, kind: Kind, name_th: &'static str, name_en: &'static str) -> SaleChannel {
    SaleChannel { code, kind, name_th, name_en }
}

/// Every sales channel, marketplaces first, in the order the app lists them.
pub const CATALOGUE: [SaleChannel; 8] = [
    channel("shopee", Kind::Marketplace, "Shopee", "Shopee"),
    channel("lazada", Kind::Marketplace, "Lazada", "Lazada"),
    channel("tiktok_shop", Kind::Marketplace, "TikTok Shop", "TikTok Shop"),
    channel("facebook", Kind::SocialCommerce, "เฟซบุ๊ก", "Facebook"),
    channel("line", Kind::SocialCommerce, "ไลน์", "LINE"),
    channel("instagram", Kind::SocialCommerce, "อินสตาแกรม", "Instagram"),
    channel("website", Kind::Website, "เว็บไซต์", "Website"),
    channel("open_api", Kind::OpenApi, "Open API", "Open API"),
];

/// The channel of `code`.
pub fn of(code: &str) -> Option<&'static SaleChannel> {
    CATALOGUE.iter().find(|c| c.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Marketplace;

    #[test]
    fn the_marketplaces_are_the_channels_of_their_kind_and_codes_are_unique() {
        let marketplaces: Vec<&str> =
            CATALOGUE.iter().filter(|c| c.kind == Kind::Marketplace).map(|c| c.code).collect();
        assert_eq!(marketplaces, Marketplace::ALL.map(Marketplace::code).to_vec());
        for (i, c) in CATALOGUE.iter().enumerate() {
            assert!(CATALOGUE[i + 1..].iter().all(|d| d.code != c.code), "{} twice", c.code);
            assert!(!c.name_th.is_empty() && !c.name_en.is_empty());
        }
        assert_eq!(of("tiktok_shop").map(|c| c.kind), Some(Kind::Marketplace));
        assert_eq!(of("line").map(|c| c.kind.as_str()), Some("social_commerce"));
        assert!(of("myspace").is_none());
    }
}
