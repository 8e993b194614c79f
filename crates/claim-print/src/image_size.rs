//! An image's declared size and format from its header alone, so no image is handed to the
//! decoder before its size is known (a small file can declare billions of pixels).

/// The image formats placed in a package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ImageFormat {
    Png,
    Jpeg,
}

impl ImageFormat {
    pub(crate) fn extension(self) -> &'static str {
        match self {
            Self::Png => "png",
            Self::Jpeg => "jpg",
        }
    }
}

/// Format, width and height; `None` for anything else or a header that does not parse.
pub(crate) fn image_size(bytes: &[u8]) -> Option<(ImageFormat, u32, u32)> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        let width = be_u32(bytes.get(16..20)?)?;
        let height = be_u32(bytes.get(20..24)?)?;
        return Some((ImageFormat::Png, width, height));
    }
    if bytes.starts_with(&[0xFF, 0xD8]) {
        return jpeg_size(bytes).map(|(w, h)| (ImageFormat::Jpeg, w, h));
    }
    None
}

fn be_u32(b: &[u8]) -> Option<u32> {
    Some(u32::from_be_bytes(b.try_into().ok()?))
}

/// Walks the JPEG markers to the first start-of-frame.
fn jpeg_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let mut at = 2;
    while at + 4 <= bytes.len() {
        if *bytes.get(at)? != 0xFF {
            return None;
        }
        let marker = *bytes.get(at + 1)?;
        if marker == 0xFF {
            at += 1;
            continue;
        }
        let length = usize::from(u16::from_be_bytes([
            *bytes.get(at + 2)?,
            *bytes.get(at + 3)?,
        ]));
        let is_frame = matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
        if is_frame {
            let h = u16::from_be_bytes([*bytes.get(at + 5)?, *bytes.get(at + 6)?]);
            let w = u16::from_be_bytes([*bytes.get(at + 7)?, *bytes.get(at + 8)?]);
            return Some((u32::from(w), u32::from(h)));
        }
        at += 2 + length;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_png_and_jpeg_headers() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&1170u32.to_be_bytes());
        png.extend_from_slice(&2532u32.to_be_bytes());
        assert_eq!(image_size(&png), Some((ImageFormat::Png, 1170, 2532)));
        let jpeg = [
            0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 11, 8, 0, 20, 0, 30, 3,
        ];
        assert_eq!(image_size(&jpeg), Some((ImageFormat::Jpeg, 30, 20)));
        assert_eq!(image_size(b"GIF89a"), None);
        assert_eq!(image_size(&[0xFF, 0xD8, 0xFF]), None);
    }
}
