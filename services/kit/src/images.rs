//! Pictures people upload (product photos, a store's logo and receipt pictures, identity
//! photos): content sniffing, cleaning (a bounded decode and re-encode that drops EXIF and
//! every other metadata, with the EXIF orientation applied first) and the square PNG resize
//! helper. Pure and CPU-bound: callers run it through [`crate::cpu::run`].

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::imageops::FilterType;
use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader, Limits, RgbaImage};

/// Largest accepted upload, per picture (SPEC §5: 5 MB each).
pub const MAX_BYTES: usize = 5 * 1024 * 1024;
/// Most pixels a picture may declare (width × height): 24 megapixels, more than a phone's
/// camera saves by default, and at most about 100 MB while decoded.
pub const MAX_PIXELS: u64 = 24_000_000;
/// Longest side a picture may declare, in pixels.
pub const MAX_SIDE: u32 = 8000;
/// Largest canvas the resize helper makes, in pixels per side.
pub const MAX_RESIZE: u32 = 2000;
/// The resize helper's size when none is asked (SPEC §9).
pub const DEFAULT_RESIZE: u32 = 100;
/// JPEG quality of re-encoded pictures.
pub const JPEG_QUALITY: u8 = 90;

/// Most bytes a decode may allocate: every allowed pixel at four bytes (8-bit RGBA). A
/// 16-bit picture near the pixel limit is refused as too many pixels.
const MAX_ALLOC: u64 = MAX_PIXELS * 4;

/// Why a picture is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    /// More than [`MAX_BYTES`].
    #[error("the picture is larger than 5 MB")]
    TooLarge,
    /// Not a JPEG or PNG by its content.
    #[error("the picture must be a JPEG or PNG image")]
    NotAnImage,
    /// Declares more than [`MAX_SIDE`] per side or [`MAX_PIXELS`] in all.
    #[error("the picture's dimensions are too large")]
    TooManyPixels,
    /// More pictures than an upload or a record may have.
    #[error("too many pictures")]
    TooMany,
    /// Looks like a JPEG or PNG but cannot be read.
    #[error("the picture cannot be read")]
    Decode,
}

impl PictureError {
    /// The stable error code.
    pub fn code(&self) -> &'static str {
        match self {
            PictureError::TooLarge => "photo_too_large",
            PictureError::NotAnImage => "photo_type",
            PictureError::TooManyPixels => "photo_dimensions",
            PictureError::TooMany => "photo_too_many",
            PictureError::Decode => "photo_unreadable",
        }
    }
}

/// An accepted picture format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// JPEG (`.jpg`, `.jpeg`).
    Jpeg,
    /// PNG.
    Png,
}

impl Format {
    /// The file extension we store it under.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Jpeg => "jpg",
            Format::Png => "png",
        }
    }

    /// The MIME type.
    pub fn mime(self) -> &'static str {
        match self {
            Format::Jpeg => "image/jpeg",
            Format::Png => "image/png",
        }
    }

    fn image_format(self) -> ImageFormat {
        match self {
            Format::Jpeg => ImageFormat::Jpeg,
            Format::Png => ImageFormat::Png,
        }
    }
}

const JPEG_MAGIC: &[u8] = &[0xFF, 0xD8, 0xFF];
const PNG_MAGIC: &[u8] = &[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];

/// The format by content (magic bytes), never by file name.
pub fn sniff(bytes: &[u8]) -> Result<Format, PictureError> {
    if bytes.starts_with(JPEG_MAGIC) {
        Ok(Format::Jpeg)
    } else if bytes.starts_with(PNG_MAGIC) {
        Ok(Format::Png)
    } else {
        Err(PictureError::NotAnImage)
    }
}

/// A cleaned picture: re-encoded, without metadata.
#[derive(Debug, Clone)]
pub struct Cleaned {
    /// The re-encoded bytes.
    pub bytes: Vec<u8>,
    /// Its format (the same as the upload's).
    pub format: Format,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// Checks an upload and re-encodes it in its own format (JPEG at quality 90, PNG), which drops
/// EXIF and every other metadata. The EXIF orientation is applied to the pixels first, so a
/// phone picture stays upright.
///
/// In order: the size, the content type, the dimensions the header declares (read without
/// decoding pixels, so a PNG declaring 50000×50000 is refused before any allocation), then a
/// decode bounded by [`image::Limits`].
pub fn clean(bytes: &[u8]) -> Result<Cleaned, PictureError> {
    if bytes.len() > MAX_BYTES {
        return Err(PictureError::TooLarge);
    }
    let format = sniff(bytes)?;
    let img = decode_bounded(bytes, format)?;
    let (width, height) = (img.width(), img.height());
    let bytes = encode(&img, format)?;
    Ok(Cleaned { bytes, format, width, height })
}

/// SPEC §9: fits the picture inside a `size`×`size` square keeping its aspect ratio (scaled
/// up or down), centres it on a transparent canvas, and encodes a PNG. `size` is 100 when not
/// given (or 0), doubled when under 100 (64 → 128, 100 → 100), and at most [`MAX_RESIZE`].
pub fn resize_square_png(bytes: &[u8], size: Option<u32>) -> Result<Vec<u8>, PictureError> {
    let size = resize_target(size);
    let format = sniff(bytes)?;
    let img = decode_bounded(bytes, format)?;
    let (w, h) = (img.width(), img.height());
    if w == 0 || h == 0 {
        return Err(PictureError::Decode);
    }
    let (fw, fh) = fit(w, h, size);
    let fitted = img.resize_exact(fw, fh, FilterType::CatmullRom).to_rgba8();
    let mut canvas = RgbaImage::new(size, size);
    let x = i64::from((size - fw) / 2);
    let y = i64::from((size - fh) / 2);
    image::imageops::replace(&mut canvas, &fitted, x, y);
    encode(&DynamicImage::ImageRgba8(canvas), Format::Png)
}

/// The side of the square the resize helper makes for a requested size.
pub fn resize_target(size: Option<u32>) -> u32 {
    let size = match size {
        None | Some(0) => DEFAULT_RESIZE,
        Some(s) if s < 100 => s * 2,
        Some(s) => s,
    };
    size.min(MAX_RESIZE)
}

/// The dimensions of `w`×`h` scaled to fit inside `size`×`size`, each at least 1.
fn fit(w: u32, h: u32, size: u32) -> (u32, u32) {
    let (w64, h64, s64) = (u64::from(w), u64::from(h), u64::from(size));
    if w >= h {
        let fh = ((h64 * s64 + w64 / 2) / w64).clamp(1, s64);
        (size, fh as u32)
    } else {
        let fw = ((w64 * s64 + h64 / 2) / h64).clamp(1, s64);
        (fw as u32, size)
    }
}

fn check_dimensions(width: u32, height: u32) -> Result<(), PictureError> {
    if width > MAX_SIDE || height > MAX_SIDE || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(PictureError::TooManyPixels);
    }
    Ok(())
}

/// A PNG's dimensions from its IHDR chunk, which must come first.
fn png_header_dimensions(bytes: &[u8]) -> Result<(u32, u32), PictureError> {
    if bytes.len() < 24 || &bytes[12..16] != b"IHDR" {
        return Err(PictureError::Decode);
    }
    let width = u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
    let height = u32::from_be_bytes([bytes[20], bytes[21], bytes[22], bytes[23]]);
    Ok((width, height))
}

fn limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    limits
}

fn map_err(e: ImageError) -> PictureError {
    match e {
        ImageError::Limits(_) => PictureError::TooManyPixels,
        _ => PictureError::Decode,
    }
}

/// Checks the declared dimensions, then decodes within [`limits`] and applies the EXIF
/// orientation.
fn decode_bounded(bytes: &[u8], format: Format) -> Result<DynamicImage, PictureError> {
    if format == Format::Png {
        let (w, h) = png_header_dimensions(bytes)?;
        check_dimensions(w, h)?;
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format.image_format());
    reader.limits(limits());
    // Reads the header only; the decoder checks the side limits here.
    let mut decoder = reader.into_decoder().map_err(map_err)?;
    let (w, h) = decoder.dimensions();
    check_dimensions(w, h)?;
    limits().reserve(decoder.total_bytes()).map_err(map_err)?;
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut img = DynamicImage::from_decoder(decoder).map_err(map_err)?;
    img.apply_orientation(orientation);
    Ok(img)
}

fn encode(img: &DynamicImage, format: Format) -> Result<Vec<u8>, PictureError> {
    let mut out = Vec::new();
    let written = match format {
        Format::Jpeg => {
            // JPEG has no alpha and no 16-bit samples.
            let img = match img {
                DynamicImage::ImageLuma8(_) | DynamicImage::ImageRgb8(_) => img.clone(),
                DynamicImage::ImageLuma16(_) | DynamicImage::ImageLumaA8(_) | DynamicImage::ImageLumaA16(_) => {
                    DynamicImage::ImageLuma8(img.to_luma8())
                }
                _ => DynamicImage::ImageRgb8(img.to_rgb8()),
            };
            img.write_with_encoder(JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY))
        }
        Format::Png => match img {
            DynamicImage::ImageRgb32F(_) | DynamicImage::ImageRgba32F(_) => {
                DynamicImage::ImageRgba8(img.to_rgba8()).write_with_encoder(PngEncoder::new(&mut out))
            }
            _ => img.write_with_encoder(PngEncoder::new(&mut out)),
        },
    };
    written.map_err(|_| PictureError::Decode)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{GenericImageView, Rgb, RgbImage, Rgba};

    fn jpeg(w: u32, h: u32) -> Vec<u8> {
        let img = RgbImage::from_fn(w, h, |x, y| Rgb([(x * 7) as u8, (y * 5) as u8, 128]));
        let mut out = Vec::new();
        DynamicImage::ImageRgb8(img).write_with_encoder(JpegEncoder::new_with_quality(&mut out, 80)).unwrap();
        out
    }

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = RgbaImage::from_fn(w, h, |x, y| Rgba([(x * 3) as u8, (y * 3) as u8, 200, 255]));
        let mut out = Vec::new();
        DynamicImage::ImageRgba8(img).write_with_encoder(PngEncoder::new(&mut out)).unwrap();
        out
    }

    /// CRC-32 (ISO-HDLC, as PNG uses), bit by bit.
    fn crc32(data: &[u8]) -> u32 {
        let mut crc = 0xFFFF_FFFFu32;
        for &b in data {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }

    fn png_header_only(w: u32, h: u32) -> Vec<u8> {
        let mut chunk = b"IHDR".to_vec();
        chunk.extend_from_slice(&w.to_be_bytes());
        chunk.extend_from_slice(&h.to_be_bytes());
        chunk.extend_from_slice(&[8, 6, 0, 0, 0]); // 8-bit RGBA, deflate, no filter, no interlace
        let mut out = PNG_MAGIC.to_vec();
        out.extend_from_slice(&13u32.to_be_bytes());
        out.extend_from_slice(&chunk);
        out.extend_from_slice(&crc32(&chunk).to_be_bytes());
        out
    }

    #[test]
    fn crc_matches_the_known_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn jpeg_and_png_are_cleaned_and_re_encoded() {
        let j = jpeg(40, 30);
        let c = clean(&j).unwrap();
        assert_eq!((c.format, c.width, c.height), (Format::Jpeg, 40, 30));
        assert_eq!(sniff(&c.bytes), Ok(Format::Jpeg));

        let p = png(20, 10);
        let c = clean(&p).unwrap();
        assert_eq!((c.format, c.width, c.height), (Format::Png, 20, 10));
        assert_eq!(sniff(&c.bytes), Ok(Format::Png));
        let back = image::load_from_memory(&c.bytes).unwrap();
        assert_eq!(back.get_pixel(5, 5), Rgba([15, 15, 200, 255]));
    }

    #[test]
    fn exif_is_dropped() {
        let j = jpeg(16, 16);
        // APP1 "Exif\0\0" with a big-endian TIFF header and an empty IFD.
        let mut payload = b"Exif\0\0MM\0\x2a\0\0\0\x08\0\0\0\0\0\0".to_vec();
        payload.extend_from_slice(b"camera serial 1234");
        let len = (payload.len() + 2) as u16;
        let mut with_exif = j[..2].to_vec();
        with_exif.extend_from_slice(&[0xFF, 0xE1]);
        with_exif.extend_from_slice(&len.to_be_bytes());
        with_exif.extend_from_slice(&payload);
        with_exif.extend_from_slice(&j[2..]);
        assert!(with_exif.windows(4).any(|w| w == b"Exif"));

        let c = clean(&with_exif).unwrap();
        assert_eq!((c.width, c.height), (16, 16));
        assert!(!c.bytes.windows(4).any(|w| w == b"Exif"));
        assert!(!c.bytes.windows(6).any(|w| w == b"serial"));
    }

    #[test]
    fn too_large_is_refused_first() {
        let mut big = jpeg(8, 8);
        big.resize(MAX_BYTES + 1, 0);
        assert_eq!(clean(&big).unwrap_err(), PictureError::TooLarge);
        assert_eq!(PictureError::TooLarge.code(), "photo_too_large");
    }

    #[test]
    fn html_named_like_a_jpg_is_not_an_image() {
        let html = b"<html><body>not a picture</body></html>";
        assert_eq!(sniff(html), Err(PictureError::NotAnImage));
        assert_eq!(clean(html).unwrap_err(), PictureError::NotAnImage);
        assert_eq!(PictureError::NotAnImage.code(), "photo_type");
        assert_eq!(clean(&[]).unwrap_err(), PictureError::NotAnImage);
    }

    #[test]
    fn a_huge_declared_png_is_refused_before_decoding() {
        let bomb = png_header_only(50_000, 50_000);
        assert_eq!(clean(&bomb).unwrap_err(), PictureError::TooManyPixels);
        assert_eq!(resize_square_png(&bomb, None).unwrap_err(), PictureError::TooManyPixels);
        // Within each side but over the pixel count.
        assert_eq!(clean(&png_header_only(8000, 8000)).unwrap_err(), PictureError::TooManyPixels);
        assert_eq!(clean(&png_header_only(8001, 10)).unwrap_err(), PictureError::TooManyPixels);
        assert_eq!(PictureError::TooManyPixels.code(), "photo_dimensions");
    }

    #[test]
    fn a_broken_image_is_unreadable() {
        let mut j = jpeg(16, 16);
        j.truncate(20);
        assert_eq!(clean(&j).unwrap_err(), PictureError::Decode);
        assert_eq!(clean(PNG_MAGIC).unwrap_err(), PictureError::Decode);
        // A valid header with no image data.
        assert_eq!(clean(&png_header_only(10, 10)).unwrap_err(), PictureError::Decode);
        assert_eq!(PictureError::Decode.code(), "photo_unreadable");
    }

    #[test]
    fn resize_sizes() {
        assert_eq!(resize_target(None), 100);
        assert_eq!(resize_target(Some(0)), 100);
        assert_eq!(resize_target(Some(64)), 128);
        assert_eq!(resize_target(Some(99)), 198);
        assert_eq!(resize_target(Some(100)), 100);
        assert_eq!(resize_target(Some(300)), 300);
        assert_eq!(resize_target(Some(5000)), 2000);
    }

    fn check_square(png_bytes: &[u8], side: u32) {
        assert_eq!(sniff(png_bytes), Ok(Format::Png));
        let img = image::load_from_memory(png_bytes).unwrap();
        assert_eq!(img.dimensions(), (side, side));
        let m = side - 1;
        for (x, y) in [(0, 0), (m, 0), (0, m), (m, m)] {
            assert_eq!(img.get_pixel(x, y)[3], 0, "corner {x},{y} should be transparent");
        }
        assert_eq!(img.get_pixel(side / 2, side / 2)[3], 255);
        // A 2:1 picture fills the middle band across the whole width.
        assert_eq!(img.get_pixel(0, side / 2)[3], 255);
        assert_eq!(img.get_pixel(side / 2, side / 4 - 2)[3], 0);
    }

    #[test]
    fn resize_fits_in_a_transparent_square() {
        let p = png(200, 100);
        check_square(&resize_square_png(&p, Some(64)).unwrap(), 128);
        check_square(&resize_square_png(&p, None).unwrap(), 100);
        check_square(&resize_square_png(&p, Some(300)).unwrap(), 300);
        check_square(&resize_square_png(&jpeg(200, 100), Some(100)).unwrap(), 100);
        // Tall pictures are centred across.
        let tall = resize_square_png(&png(10, 40), None).unwrap();
        let img = image::load_from_memory(&tall).unwrap();
        assert_eq!(img.get_pixel(50, 0)[3], 255);
        assert_eq!(img.get_pixel(10, 50)[3], 0);
        assert_eq!(resize_square_png(b"<html>", None).unwrap_err(), PictureError::NotAnImage);
    }
}
