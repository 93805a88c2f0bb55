//! Product pictures (SPEC §5 "Pictures", §9 "Product image resize helper"): how many a
//! product may have, the few sizes served, and where each picture is kept in the kit's file
//! storage. Sniffing, cleaning and resizing are the kit's ([`bo_kit::images`]), shared with
//! every picture people upload.
//!
//! No database and no gRPC here: callers check counts against their own rows and store the
//! generated names.

use bo_kit::files::Key;

// Cleaning and resizing are the kit's, shared with every picture people upload.
pub use bo_kit::images::{
    clean, resize_square_png, resize_target, sniff, Cleaned, Format, PictureError as PhotoError, DEFAULT_RESIZE,
    JPEG_QUALITY, MAX_BYTES, MAX_PIXELS, MAX_RESIZE, MAX_SIDE,
};

/// Most pictures in one upload (SPEC §5: more than 200 fails).
pub const MAX_PER_UPLOAD: usize = 200;

/// How many pictures a product must and may have. The SPEC does not give the values, so they
/// are configurable; the default (1 to 9) is what marketplace sellers expect: every
/// marketplace needs a cover picture to list a product, and Shopee allows 9.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct PhotoLimits {
    /// Fewest pictures a product keeps once it has them: deleting under it is refused (a
    /// product is created before its pictures are added, so one may start with none).
    pub min_per_product: usize,
    /// Most pictures a product may have.
    pub max_per_product: usize,
}

impl Default for PhotoLimits {
    fn default() -> Self {
        Self { min_per_product: 1, max_per_product: 9 }
    }
}

impl PhotoLimits {
    /// Refuses limits no product could meet.
    pub fn check(&self) -> Result<(), String> {
        if self.max_per_product == 0 || self.min_per_product > self.max_per_product {
            return Err(format!(
                "photo limits: the minimum ({}) must not exceed the maximum ({}), which must be at least 1",
                self.min_per_product, self.max_per_product
            ));
        }
        Ok(())
    }
}

/// Whether `adding` more pictures fit: at most [`MAX_PER_UPLOAD`] at once and at most
/// `limits.max_per_product` in all.
pub fn check_count(existing: usize, adding: usize, limits: PhotoLimits) -> Result<(), PhotoError> {
    if adding > MAX_PER_UPLOAD || existing.saturating_add(adding) > limits.max_per_product {
        return Err(PhotoError::TooMany);
    }
    Ok(())
}

/// A new picture name: `"{store_id}/{uuid v7, simple}.{jpg|png}"`. Store ids are positive.
pub fn generated_name(store_id: i64, format: Format) -> String {
    format!("{store_id}/{}.{}", uuid::Uuid::now_v7().simple(), format.extension())
}

/// Whether `name` has the shape [`generated_name`] makes: `<digits>/<hex>.<jpg|png>`.
pub fn valid_name(name: &str) -> bool {
    if name.contains(['\\', '\0']) || name.contains("..") {
        return false;
    }
    let Some((dir, file)) = name.split_once('/') else { return false };
    let Some((stem, ext)) = file.split_once('.') else { return false };
    !dir.is_empty()
        && dir.bytes().all(|b| b.is_ascii_digit())
        && !stem.is_empty()
        && stem.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        && matches!(ext, "jpg" | "png")
}

/// The sizes the resize helper serves, besides the original: every request is answered with
/// one of these, so each picture has at most this many derived files, made once and kept.
pub const SERVED_SIZES: [u32; 2] = [100, 200];

/// The served size for a requested one (SPEC §9: 100 by default, doubled under 100), rounded
/// up to the next of [`SERVED_SIZES`] and at most the largest.
pub fn served_size(requested: Option<u32>) -> u32 {
    let want = resize_target(requested);
    SERVED_SIZES.iter().copied().find(|s| *s >= want).unwrap_or(SERVED_SIZES[SERVED_SIZES.len() - 1])
}

/// Where a picture named `name` (see [`generated_name`]) is kept: `photos/<name>`.
pub fn key(name: &str) -> anyhow::Result<Key> {
    anyhow::ensure!(valid_name(name), "invalid photo name {name:?}");
    Key::new(format!("photos/{name}"))
}

/// Where the square PNG of `name` at `size` is kept: `photos/<store>/<stem>@<size>.png`.
pub fn sized_key(name: &str, size: u32) -> anyhow::Result<Key> {
    anyhow::ensure!(valid_name(name), "invalid photo name {name:?}");
    let stem = name.rsplit_once('.').map(|(stem, _)| stem).unwrap_or(name);
    Key::new(format!("photos/{stem}@{size}.png"))
}

/// Every key a picture may occupy: the original and its served sizes.
pub fn all_keys(name: &str) -> Vec<Key> {
    let mut keys: Vec<Key> = key(name).into_iter().collect();
    keys.extend(SERVED_SIZES.iter().filter_map(|s| sized_key(name, *s).ok()));
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_edges() {
        let limits = PhotoLimits::default();
        assert_eq!((limits.min_per_product, limits.max_per_product), (1, 9));
        assert!(limits.check().is_ok());
        assert!(PhotoLimits { min_per_product: 10, max_per_product: 9 }.check().is_err());
        assert!(PhotoLimits { min_per_product: 0, max_per_product: 0 }.check().is_err());
        let roomy = PhotoLimits { min_per_product: 0, max_per_product: 10_000 };
        assert_eq!(check_count(0, 201, roomy), Err(PhotoError::TooMany));
        assert_eq!(check_count(0, 200, roomy), Ok(()));
        assert_eq!(check_count(8, 2, limits), Err(PhotoError::TooMany));
        assert_eq!(check_count(8, 1, limits), Ok(()));
        assert_eq!(check_count(0, 1, limits), Ok(()));
        assert_eq!(check_count(usize::MAX, 1, limits), Err(PhotoError::TooMany));
        assert_eq!(PhotoError::TooMany.code(), "photo_too_many");
    }

    #[test]
    fn names() {
        let n = generated_name(42, Format::Jpeg);
        assert!(n.starts_with("42/") && n.ends_with(".jpg"), "{n}");
        assert!(valid_name(&n));
        assert!(valid_name(&generated_name(7, Format::Png)));
        for bad in [
            "../x.png",
            "x.png",
            "1/../x.png",
            "1/ab.gif",
            "1/AB.png",
            "1/ab/cd.png",
            "1\\ab.png",
            "1/ab.png\0",
            "/1/ab.png",
            "1/.png",
            "a/ab.png",
            "1/ab.png.tmp",
        ] {
            assert!(!valid_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn served_sizes_are_few() {
        assert_eq!(served_size(None), 100);
        assert_eq!(served_size(Some(50)), 100);
        assert_eq!(served_size(Some(64)), 200);
        assert_eq!(served_size(Some(100)), 100);
        assert_eq!(served_size(Some(101)), 200);
        assert_eq!(served_size(Some(5000)), 200);
        let mut seen: Vec<u32> = (0..3000).map(|s| served_size(Some(s))).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen, SERVED_SIZES);
    }

    #[test]
    fn keys_of_a_picture() {
        let name = generated_name(3, Format::Jpeg);
        let stem = name.trim_end_matches(".jpg");
        assert_eq!(key(&name).unwrap().as_str(), format!("photos/{name}"));
        assert_eq!(sized_key(&name, 200).unwrap().as_str(), format!("photos/{stem}@200.png"));
        assert_eq!(all_keys(&name).len(), 3);
        assert!(key("../x.png").is_err() && sized_key("1/../x.png", 100).is_err());
        assert!(all_keys("../x.png").is_empty());
    }
}
