//! Paging: `page` from 1, `limit` 10 by default, `limit = -1` for all; the page is clamped
//! to 1..last once the total is known. Lists page in the database with LIMIT/OFFSET.

/// The default page size.
pub const DEFAULT_LIMIT: i64 = 10;
/// The largest page size other than "all".
pub const MAX_LIMIT: i64 = 1000;

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
        if self.limit < 0 {
            return Page { total, limit: -1, page: 1, pages: 1, offset: 0, fetch: i64::MAX };
        }
        let limit = if self.limit == 0 { DEFAULT_LIMIT } else { self.limit.min(MAX_LIMIT) };
        let pages = ((total + limit - 1) / limit).max(1);
        let page = self.page.clamp(1, pages);
        Page { total, limit, page, pages, offset: (page - 1) * limit, fetch: limit }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn minus_one_means_all() {
        let p = PageRequest::new(3, -1).resolve(2500);
        assert_eq!((p.limit, p.page, p.pages, p.offset), (-1, 1, 1, 0));
        assert_eq!(p.fetch, i64::MAX);
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
