//! Paging: `page` from 1, `limit` 10 by default, `limit = -1` for all; the page is clamped
//! to 1..last once the total is known. Lists page in the database with LIMIT/OFFSET.
//! "All" is all of a list up to [`MAX_ALL`] rows (the channels, warehouses and members a
//! picker shows); a longer list is answered in pages of that size, as its page info says,
//! so no call loads a whole store's orders or customers into memory at once.

/// The default page size.
pub const DEFAULT_LIMIT: i64 = 10;
/// The largest page size other than "all".
pub const MAX_LIMIT: i64 = 1000;
/// The most rows "all" answers at once; beyond it, "all" is pages of this size.
pub const MAX_ALL: i64 = 1000;

/// A page as asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PageRequest {
    /// Page number; anything below 1 means 1.
    pub page: i64,
    /// Page size; 0 means the default, -1 (or any negative) means all.
    pub limit: i64,
}

/// A page as answered, with what SQL needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// Matching rows.
    pub total: i64,
    /// Page size (-1 for all).
    pub limit: i64,
    /// The page given.
    pub page: i64,
    /// Number of pages, at least 1.
    pub pages: i64,
    /// Rows to skip.
    pub offset: i64,
    /// Rows to fetch (LIMIT).
    pub fetch: i64,
}

impl PageRequest {
    /// A request for `page` of `limit`.
    pub fn new(page: i64, limit: i64) -> Self {
        Self { page, limit }
    }

    /// The page to answer once `total` rows are known to match.
    pub fn resolve(self, total: i64) -> Page {
        let total = total.max(0);
        if self.limit < 0 && total <= MAX_ALL {
            return Page { total, limit: -1, page: 1, pages: 1, offset: 0, fetch: MAX_ALL };
        }
        let limit = match self.limit {
            0 => DEFAULT_LIMIT,
            l if l < 0 => MAX_ALL,
            l => l.min(MAX_LIMIT),
        };
        let pages = ((total + limit - 1) / limit).max(1);
        let page = self.page.clamp(1, pages);
        Page { total, limit, page, pages, offset: (page - 1) * limit, fetch: limit }
    }
}

use bo_proto::common::v1 as proto;

impl From<Option<proto::PageRequest>> for PageRequest {
    /// A request off the wire; none means the first page of the default size.
    fn from(p: Option<proto::PageRequest>) -> Self {
        p.map(|p| PageRequest::new(p.page, p.limit)).unwrap_or_default()
    }
}

impl From<Page> for proto::PageInfo {
    fn from(p: Page) -> Self {
        proto::PageInfo { total: p.total, limit: p.limit, page: p.page, pages: p.pages }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_to_and_from_the_wire() {
        assert_eq!(PageRequest::from(None), PageRequest::default());
        let asked = PageRequest::from(Some(proto::PageRequest { page: 3, limit: 20 }));
        assert_eq!(asked, PageRequest::new(3, 20));
        let info: proto::PageInfo = asked.resolve(45).into();
        assert_eq!(info, proto::PageInfo { total: 45, limit: 20, page: 3, pages: 3 });
    }

    #[test]
    fn defaults_and_clamps() {
        let p = PageRequest::new(0, 0).resolve(25);
        assert_eq!((p.limit, p.page, p.pages, p.offset, p.fetch), (10, 1, 3, 0, 10));
        let p = PageRequest::new(99, 10).resolve(25);
        assert_eq!((p.page, p.offset), (3, 20));
        let p = PageRequest::new(-4, 10).resolve(25);
        assert_eq!(p.page, 1);
    }

    #[test]
    fn minus_one_means_all_up_to_a_bound() {
        let p = PageRequest::new(3, -1).resolve(MAX_ALL);
        assert_eq!((p.limit, p.page, p.pages, p.offset, p.fetch), (-1, 1, 1, 0, MAX_ALL));
        // A longer list is not loaded whole: pages of the bound, and the answer says so.
        let p = PageRequest::new(1, -1).resolve(100_000);
        assert_eq!((p.limit, p.page, p.pages, p.offset, p.fetch), (MAX_ALL, 1, 100, 0, MAX_ALL));
        let p = PageRequest::new(3, -1).resolve(2500);
        assert_eq!((p.limit, p.page, p.pages, p.offset, p.fetch), (MAX_ALL, 3, 3, 2000, MAX_ALL));
    }

    #[test]
    fn empty_lists_have_one_page() {
        let p = PageRequest::new(5, 10).resolve(0);
        assert_eq!((p.page, p.pages, p.total), (1, 1, 0));
    }

    #[test]
    fn caps_huge_pages() {
        assert_eq!(PageRequest::new(1, 1_000_000).resolve(5).limit, MAX_LIMIT);
    }
}
