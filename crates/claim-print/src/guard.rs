//! What of an attachment may be placed: a PDF that pdf-text reads, under the size and page
//! limits, and images whose declared size is bounded. Anything else becomes its data card with
//! a note, so one hostile or huge file costs its own page, never the package.

use crate::image_size::{ImageFormat, image_size};

/// Largest invoice PDF placed as it is.
pub(crate) const MAX_PDF_BYTES: usize = 10 * 1024 * 1024;
/// Pages of one invoice placed; the rest are named in a note.
pub(crate) const MAX_PDF_PAGES: usize = 4;
/// Largest screenshot placed (bytes and declared pixels).
pub(crate) const MAX_IMAGE_BYTES: usize = 16 * 1024 * 1024;
pub(crate) const MAX_IMAGE_PIXELS: u64 = 40_000_000;
/// All placed attachments together: past it, later ones are cards (the PDF stays printable).
pub(crate) const MAX_TOTAL_BYTES: usize = 96 * 1024 * 1024;

/// How an invoice PDF is placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PdfCheck {
    /// Its first `placed` pages of `pages`.
    Pages { placed: usize, pages: usize },
    /// As a card, for the reason given.
    Card(String),
}

/// Checks an invoice PDF with pdf-text (which never panics on any input) before typst sees it.
pub(crate) fn check_pdf(bytes: &[u8]) -> PdfCheck {
    if bytes.len() > MAX_PDF_BYTES {
        return PdfCheck::Card(format!(
            "原件 {:.1} MB，超过 {} MB 的上限，以数据卡片代替",
            bytes.len() as f64 / 1_048_576.0,
            MAX_PDF_BYTES / 1_048_576
        ));
    }
    match pdf_text::parse(bytes) {
        Ok(document) if document.pages.is_empty() => PdfCheck::Card("原件没有页面".into()),
        Ok(document) => PdfCheck::Pages {
            placed: document.pages.len().min(MAX_PDF_PAGES),
            pages: document.pages.len(),
        },
        Err(error) => PdfCheck::Card(format!("原件无法解析（{error}），以数据卡片代替")),
    }
}

/// The format of a screenshot that may be placed, or why it may not.
pub(crate) fn check_image(bytes: &[u8]) -> Result<ImageFormat, String> {
    if bytes.len() > MAX_IMAGE_BYTES {
        return Err(format!(
            "截图超过 {} MB，未放入",
            MAX_IMAGE_BYTES / 1_048_576
        ));
    }
    match image_size(bytes) {
        Some((format, w, h))
            if w > 0 && h > 0 && u64::from(w) * u64::from(h) <= MAX_IMAGE_PIXELS =>
        {
            Ok(format)
        }
        Some((_, w, h)) => Err(format!("截图尺寸 {w}×{h} 超出上限，未放入")),
        None => Err("截图不是 PNG 或 JPEG，未放入".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_and_huge_files_become_cards() {
        assert!(matches!(check_pdf(b"not a pdf"), PdfCheck::Card(_)));
        let huge = vec![b' '; MAX_PDF_BYTES + 1];
        let PdfCheck::Card(note) = check_pdf(&huge) else {
            panic!("a huge file was placed");
        };
        assert!(note.contains("上限"), "{note}");
        assert!(check_image(b"GIF89a....").is_err());
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&100_000u32.to_be_bytes());
        png.extend_from_slice(&100_000u32.to_be_bytes());
        assert!(check_image(&png).unwrap_err().contains("100000×100000"));
    }
}
