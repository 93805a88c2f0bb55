//! Calls to services outside the house (carriers, marketplaces): one HTTP client setting,
//! bounded answers, and failures described for logs without a secret in them. Each adapter
//! maps these into its own error type; what they share is kept here once.

use std::time::Duration;

/// The HTTP client an adapter uses: `timeout` for the whole request (connecting included),
/// no redirects (an API never moves; following one would send our token elsewhere).
pub fn client(timeout: Duration) -> reqwest::Result<reqwest::Client> {
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("backoffice/", env!("CARGO_PKG_VERSION")))
        .build()
}

/// Why an answer could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unread {
    /// The transport failed while reading (the text says how).
    Transport(String),
    /// The answer is longer than the limit, bytes.
    TooBig(usize),
}

/// An answer's body, refused past `limit` bytes (checked as it arrives, not only by its
/// declared length).
pub async fn read_bounded(peer: &str, mut res: reqwest::Response, limit: usize) -> Result<bytes::Bytes, Unread> {
    if res.content_length().is_some_and(|n| n > limit as u64) {
        return Err(Unread::TooBig(limit));
    }
    let mut body = bytes::BytesMut::new();
    while let Some(chunk) = res.chunk().await.map_err(|e| Unread::Transport(describe(peer, &e)))? {
        if body.len() + chunk.len() > limit {
            return Err(Unread::TooBig(limit));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body.freeze())
}

/// What a failed request means, for logs (callers [`clip`] it to their length): a timeout, a refused connection, the chain of
/// causes. reqwest's text names the URL, which holds no secret when keys travel in headers,
/// bodies or signatures; callers that put a token in a query string strip the URL first
/// ([`reqwest::Error::without_url`]).
pub fn describe(peer: &str, e: &reqwest::Error) -> String {
    let what = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "connection failed"
    } else if e.is_builder() {
        "request could not be built"
    } else {
        "transport error"
    };
    let mut detail = format!("{peer}: {what}: {e}");
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        detail.push_str(": ");
        detail.push_str(&s.to_string());
        source = s.source();
    }
    detail
}

/// `s` trimmed and cut to `max` characters (an ellipsis marks the cut).
pub fn clip(s: &str, max: usize) -> String {
    let s = s.trim();
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// `base` joined with path segments, each escaped (a value cannot reach another path);
/// `None` when `base` is not a URL that takes a path.
pub fn join(base: &str, segments: &[&str]) -> Option<reqwest::Url> {
    let mut url = reqwest::Url::parse(base).ok()?;
    {
        let mut path = url.path_segments_mut().ok()?;
        path.pop_if_empty();
        path.extend(segments);
    }
    Some(url)
}

/// True for an answer that means the other side's own trouble: 5xx, or 429 (try later).
pub fn is_their_trouble(status: reqwest::StatusCode) -> bool {
    status.is_server_error() || status == reqwest::StatusCode::TOO_MANY_REQUESTS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_clipped_by_characters() {
        let long = "ก".repeat(500);
        assert_eq!(clip(&long, 200).chars().count(), 201);
        assert_eq!(clip("  short  ", 200), "short");
    }

    #[test]
    fn segments_are_escaped() {
        let u = join("http://h:1/api/", &["open", "v1", "orders", "TH1/../x?y", "cancel"]).unwrap();
        assert_eq!(u.as_str(), "http://h:1/api/open/v1/orders/TH1%2F..%2Fx%3Fy/cancel");
        assert!(join("not a url", &["x"]).is_none());
    }

    #[test]
    fn their_trouble_is_5xx_and_429() {
        use reqwest::StatusCode as S;
        for s in [S::INTERNAL_SERVER_ERROR, S::BAD_GATEWAY, S::SERVICE_UNAVAILABLE, S::TOO_MANY_REQUESTS] {
            assert!(is_their_trouble(s), "{s}");
        }
        for s in [S::OK, S::BAD_REQUEST, S::UNAUTHORIZED, S::FORBIDDEN, S::NOT_FOUND] {
            assert!(!is_their_trouble(s), "{s}");
        }
    }
}
