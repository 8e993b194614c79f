//! Decoding an uploaded image within a memory bound. The declared size is read from the header
//! and checked before a single pixel is decoded (a 216 KB JPEG can declare 65000×65000 pixels,
//! 12 GB once decoded); a large JPEG photo is decoded scaled down in the DCT (OCR never reads
//! more than a few megapixels); and every decode in the process draws its pixels from one
//! shared budget, so concurrent jobs together stay bounded too.
//!
//! A namespace of its own, for whoever handles uploaded images: [`load`] and [`decode`] give
//! the image and its [`PixelPermit`]; [`check`] reads only the header, for readers that hand
//! the file on whole (a vision model).

use std::io::Cursor;
use std::path::Path;
use std::sync::{Condvar, Mutex, PoisonError};

use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};

use crate::error::PaymentsError;

/// Most pixels decoded at full size, any format: 64 MP covers every phone screenshot (a long
/// scrolling one of 1440×40000 included) and the 48/50 MP photo modes.
pub const MAX_PIXELS: u64 = 64_000_000;

/// Most pixels a JPEG may declare. Above [`MAX_PIXELS`] it is decoded at 1/2, 1/4 or 1/8 of
/// its size (the 108 and 200 MP photo modes), so this is [`MAX_PIXELS`] at 1/8.
pub const MAX_JPEG_PIXELS: u64 = MAX_PIXELS * 64;

/// Largest image file read (uploads are smaller; this guards the command line).
const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Most bytes one decoder may allocate (decoded pixels plus a progressive JPEG's coefficients).
const MAX_DECODER_ALLOC: u64 = 512 * 1024 * 1024;

/// Pixels decoded images may hold at once in the whole process: two of the largest.
const PROCESS_PIXEL_BUDGET: u64 = 2 * MAX_PIXELS;

/// A decoded image's share of the process-wide pixel budget; returned when dropped.
#[derive(Debug)]
pub struct PixelPermit {
    pixels: u64,
}

impl Drop for PixelPermit {
    fn drop(&mut self) {
        let mut used = BUDGET.used.lock().unwrap_or_else(PoisonError::into_inner);
        *used = used.saturating_sub(self.pixels);
        BUDGET.freed.notify_all();
    }
}

struct Budget {
    used: Mutex<u64>,
    freed: Condvar,
}

static BUDGET: Budget = Budget {
    used: Mutex::new(0),
    freed: Condvar::new(),
};

/// Waits until `pixels` fit in the process budget and takes them.
fn reserve(pixels: u64) -> PixelPermit {
    let pixels = pixels.min(PROCESS_PIXEL_BUDGET);
    let mut used = BUDGET.used.lock().unwrap_or_else(PoisonError::into_inner);
    while *used + pixels > PROCESS_PIXEL_BUDGET {
        used = BUDGET
            .freed
            .wait(used)
            .unwrap_or_else(PoisonError::into_inner);
    }
    *used += pixels;
    PixelPermit { pixels }
}

/// Reads and decodes an image file, honouring its EXIF orientation, within the bounds above.
/// Keep the permit as long as the image (or anything its size) is alive.
pub fn load(path: &Path) -> Result<(DynamicImage, PixelPermit), PaymentsError> {
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let io_err = |source| PaymentsError::Io {
        file: file.clone(),
        source,
    };
    let size = std::fs::metadata(path).map_err(io_err)?.len();
    if size > MAX_FILE_BYTES {
        return Err(PaymentsError::Image {
            file,
            message: format!("文件超过 {} MiB", MAX_FILE_BYTES / (1024 * 1024)),
        });
    }
    let bytes = std::fs::read(path).map_err(io_err)?;
    decode(&file, &bytes)
}

/// Checks an image file's declared size against the bounds without decoding it: for readers
/// that hand the file on whole (a vision model), so a bomb gets the same answer there.
pub fn check(path: &Path) -> Result<(), PaymentsError> {
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let image_err = |message: String| PaymentsError::Image {
        file: file.clone(),
        message,
    };
    let reader = ImageReader::open(path)
        .map_err(|source| PaymentsError::Io {
            file: file.clone(),
            source,
        })?
        .with_guessed_format()
        .map_err(|e| image_err(e.to_string()))?;
    let format = reader.format();
    let (width, height) = reader
        .into_dimensions()
        .map_err(|e| image_err(e.to_string()))?;
    let pixels = u64::from(width) * u64::from(height);
    let limit = if format == Some(ImageFormat::Jpeg) {
        MAX_JPEG_PIXELS
    } else {
        MAX_PIXELS
    };
    if pixels > limit {
        return Err(PaymentsError::TooLarge {
            file,
            width,
            height,
        });
    }
    Ok(())
}

/// As [`load`], from bytes; `file` names the image in errors.
pub fn decode(file: &str, bytes: &[u8]) -> Result<(DynamicImage, PixelPermit), PaymentsError> {
    let image_err = |message: String| PaymentsError::Image {
        file: file.to_owned(),
        message,
    };
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| image_err(e.to_string()))?;
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_DECODER_ALLOC);
    reader.limits(limits);
    let format = reader.format();
    let mut decoder = reader
        .into_decoder()
        .map_err(|e| image_err(e.to_string()))?;
    let (width, height) = decoder.dimensions();
    let pixels = u64::from(width) * u64::from(height);
    let too_large = || PaymentsError::TooLarge {
        file: file.to_owned(),
        width,
        height,
    };
    let orientation = decoder
        .orientation()
        .map_err(|e| image_err(e.to_string()))?;
    let (mut image, permit) = if pixels <= MAX_PIXELS {
        let permit = reserve(pixels);
        let image = DynamicImage::from_decoder(decoder).map_err(|e| image_err(e.to_string()))?;
        (image, permit)
    } else if format == Some(ImageFormat::Jpeg) && pixels <= MAX_JPEG_PIXELS {
        drop(decoder);
        let permit = reserve(MAX_PIXELS);
        let image = jpeg_scaled(bytes, width, height).map_err(image_err)?;
        (image, permit)
    } else {
        return Err(too_large());
    };
    image.apply_orientation(orientation);
    Ok((image, permit))
}

/// The JPEG decoded at the largest of 1/2, 1/4, 1/8 of its size that fits [`MAX_PIXELS`].
fn jpeg_scaled(bytes: &[u8], width: u32, height: u32) -> Result<DynamicImage, String> {
    let pixels = u64::from(width) * u64::from(height);
    let factor = [2u32, 4, 8]
        .into_iter()
        .find(|f| pixels / u64::from(f * f) <= MAX_PIXELS)
        .unwrap_or(8);
    let mut decoder = jpeg_decoder::Decoder::new(Cursor::new(bytes));
    decoder.set_max_decoding_buffer_size(usize::try_from(MAX_DECODER_ALLOC).unwrap_or(usize::MAX));
    decoder.read_info().map_err(|e| e.to_string())?;
    let wanted = |side: u32| u16::try_from(side.div_ceil(factor).max(1)).unwrap_or(u16::MAX);
    let (w, h) = decoder
        .scale(wanted(width), wanted(height))
        .map_err(|e| e.to_string())?;
    let pixels = decoder.decode().map_err(|e| e.to_string())?;
    let info = decoder.info().ok_or("JPEG 头信息缺失")?;
    let (w, h) = (u32::from(w), u32::from(h));
    let image = match info.pixel_format {
        jpeg_decoder::PixelFormat::L8 => {
            image::GrayImage::from_raw(w, h, pixels).map(DynamicImage::from)
        }
        jpeg_decoder::PixelFormat::L16 => {
            let grey = pixels.iter().step_by(2).copied().collect();
            image::GrayImage::from_raw(w, h, grey).map(DynamicImage::from)
        }
        jpeg_decoder::PixelFormat::RGB24 => {
            image::RgbImage::from_raw(w, h, pixels).map(DynamicImage::from)
        }
        jpeg_decoder::PixelFormat::CMYK32 => {
            let rgb = pixels
                .chunks_exact(4)
                .flat_map(|p| {
                    let k = 255 - u32::from(p[3]);
                    [0, 1, 2].map(|i| u8::try_from((255 - u32::from(p[i])) * k / 255).unwrap_or(0))
                })
                .collect();
            image::RgbImage::from_raw(w, h, rgb).map(DynamicImage::from)
        }
    };
    image.ok_or_else(|| "JPEG 数据不完整".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut out = Vec::new();
        image::GrayImage::new(width, height)
            .write_to(&mut Cursor::new(&mut out), ImageFormat::Png)
            .unwrap();
        out
    }

    /// A PNG whose header declares `width`×`height` over a 1×1 image's data.
    fn lying_png(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = png(1, 1);
        bytes[16..20].copy_from_slice(&width.to_be_bytes());
        bytes[20..24].copy_from_slice(&height.to_be_bytes());
        let crc = crc32(&bytes[12..29]);
        bytes[29..33].copy_from_slice(&crc.to_be_bytes());
        bytes
    }

    /// The CRC-32 a PNG chunk carries (zlib's, which flate2 computes).
    fn crc32(data: &[u8]) -> u32 {
        let mut crc = flate2::Crc::new();
        crc.update(data);
        crc.sum()
    }

    fn jpeg(width: u32, height: u32) -> Vec<u8> {
        let mut out = Vec::new();
        image::RgbImage::from_pixel(width, height, image::Rgb([200, 100, 50]))
            .write_to(&mut Cursor::new(&mut out), ImageFormat::Jpeg)
            .unwrap();
        out
    }

    /// The JPEG with its frame header's size patched, as in the report that killed the service.
    fn patched_jpeg(width: u16, height: u16) -> Vec<u8> {
        let mut bytes = jpeg(64, 64);
        let sof = bytes.windows(2).position(|w| w == [0xff, 0xc0]).unwrap();
        bytes[sof + 5..sof + 7].copy_from_slice(&height.to_be_bytes());
        bytes[sof + 7..sof + 9].copy_from_slice(&width.to_be_bytes());
        bytes
    }

    #[test]
    fn ordinary_images_decode_at_full_size() {
        let (image, _permit) = decode("a.png", &png(390, 844)).unwrap();
        assert_eq!((image.width(), image.height()), (390, 844));
        let (image, _permit) = decode("a.jpg", &jpeg(100, 60)).unwrap();
        assert_eq!((image.width(), image.height()), (100, 60));
    }

    #[test]
    fn declared_giants_are_refused_before_decoding() {
        for (name, bytes) in [
            ("bomb.png", lying_png(30_000, 30_000)),
            ("bomb.jpg", patched_jpeg(65_000, 65_000)),
        ] {
            match decode(name, &bytes) {
                Err(PaymentsError::TooLarge { file, .. }) => assert_eq!(file, name),
                other => panic!("{name}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_large_jpeg_is_decoded_scaled_down() {
        // 12000×6000 = 72 MP declared over 64×64 of data: decoded at 1/2, within the bound.
        match decode("big.jpg", &patched_jpeg(12_000, 6_000)) {
            Ok((image, _permit)) => {
                assert_eq!((image.width(), image.height()), (6_000, 3_000));
            }
            // The data ends long before 72 MP: a clear error is as good as a scaled image.
            Err(PaymentsError::Image { file, .. }) => assert_eq!(file, "big.jpg"),
            Err(other) => panic!("{other:?}"),
        }
    }

    #[test]
    fn check_reads_the_header_only() {
        let dir = tempfile::tempdir().unwrap();
        let bomb = dir.path().join("bomb.png");
        std::fs::write(&bomb, lying_png(30_000, 30_000)).unwrap();
        assert!(matches!(check(&bomb), Err(PaymentsError::TooLarge { .. })));
        let fine = dir.path().join("fine.png");
        std::fs::write(&fine, png(390, 844)).unwrap();
        check(&fine).unwrap();
    }

    #[test]
    fn the_error_names_the_file_only() {
        let error = decode("截图.png", &lying_png(30_000, 30_000)).unwrap_err();
        let text = error.to_string();
        assert!(text.starts_with("截图.png"), "{text}");
        assert!(text.contains("30000×30000"), "{text}");
    }
}
