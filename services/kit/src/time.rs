//! Time: UTC unix milliseconds in storage, RFC 3339 on the wire.

use prost_types::Timestamp;

/// The Buddhist-era year (Gregorian + 543) of a moment, in Thailand's time (UTC+7).
pub fn buddhist_year(ms: i64) -> i64 {
    let bangkok = ::time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000) + 7 * 3600)
        .unwrap_or(::time::OffsetDateTime::UNIX_EPOCH);
    i64::from(bangkok.year()) + 543
}

/// Now, in UTC unix milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// Milliseconds to a protobuf timestamp.
pub fn ms_to_timestamp(ms: i64) -> Timestamp {
    Timestamp { seconds: ms.div_euclid(1000), nanos: (ms.rem_euclid(1000) * 1_000_000) as i32 }
}

/// A protobuf timestamp to milliseconds.
pub fn timestamp_to_ms(ts: &Timestamp) -> i64 {
    ts.seconds * 1000 + i64::from(ts.nanos) / 1_000_000
}

/// Milliseconds to RFC 3339 (UTC, millisecond precision).
pub fn ms_to_rfc3339(ms: i64) -> String {
    const FORMAT: &[::time::format_description::BorrowedFormatItem<'static>] =
        ::time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    ::time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .unwrap_or(::time::OffsetDateTime::UNIX_EPOCH)
        .format(FORMAT)
        .unwrap_or_default()
}

/// An optional protobuf timestamp to RFC 3339 ("" when absent).
pub fn timestamp_to_rfc3339(ts: Option<&Timestamp>) -> String {
    ts.map(|t| ms_to_rfc3339(timestamp_to_ms(t))).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_rfc3339_in_utc() {
        assert_eq!(ms_to_rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(ms_to_rfc3339(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
    }

    #[test]
    fn timestamps_round_trip() {
        for ms in [0, 1, 999, 1_700_000_000_123, -1500] {
            assert_eq!(timestamp_to_ms(&ms_to_timestamp(ms)), ms);
        }
    }
}
