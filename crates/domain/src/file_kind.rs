//! Kinds of uploaded files, decided by extension and confirmed by magic bytes.

use serde::Serialize;

/// The kind of an uploaded file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A PDF invoice.
    Pdf,
    /// A payment screenshot (PNG, JPEG, BMP or WebP).
    Image,
    /// A structured 数电 e-invoice (`<EInvoice>` XML).
    Xml,
    /// An OFD e-invoice (a zip of XML).
    Ofd,
}

impl Serialize for FileKind {
    /// The listing knows two types; structured e-invoices are invoice documents, so they are
    /// listed as `pdf` (see docs/interface-choices.md).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.listing_type())
    }
}

const IMAGE_EXTENSIONS: [&str; 5] = ["png", "jpg", "jpeg", "bmp", "webp"];

impl FileKind {
    /// The kind a file name's extension announces, if it is one we accept.
    pub fn from_name(name: &str) -> Option<Self> {
        let (_, extension) = name.rsplit_once('.')?;
        let extension = extension.to_ascii_lowercase();
        match extension.as_str() {
            "pdf" => Some(Self::Pdf),
            "xml" => Some(Self::Xml),
            "ofd" => Some(Self::Ofd),
            other if IMAGE_EXTENSIONS.contains(&other) => Some(Self::Image),
            _ => None,
        }
    }

    /// The `type` of GET /api/files: `pdf` for every invoice document, `image` for screenshots.
    pub fn listing_type(self) -> &'static str {
        match self {
            Self::Pdf | Self::Xml | Self::Ofd => "pdf",
            Self::Image => "image",
        }
    }

    /// Whether the file is an invoice document (as opposed to a payment screenshot).
    pub fn is_invoice_document(self) -> bool {
        !matches!(self, Self::Image)
    }
}

/// How many leading bytes `sniff_matches` wants to see.
pub const SNIFF_LEN: usize = 1024;

/// Whether the first bytes of a file fit its announced kind. A PDF must carry `%PDF-` within
/// its first 1024 bytes (readers tolerate leading junk there); an image must be a PNG, JPEG,
/// BMP or WebP, whichever of those its extension says, because phones often save one as the
/// other; an XML file must start with `<` (after an optional BOM and whitespace); an OFD is a
/// zip archive.
pub fn sniff_matches(kind: FileKind, head: &[u8]) -> bool {
    match kind {
        FileKind::Pdf => {
            let window = &head[..head.len().min(SNIFF_LEN)];
            window.windows(5).any(|w| w == b"%PDF-")
        }
        FileKind::Image => {
            head.starts_with(b"\x89PNG\r\n\x1a\n")
                || head.starts_with(&[0xff, 0xd8, 0xff])
                || (head.starts_with(b"BM") && head.len() >= 26)
                || (head.len() >= 12 && head.starts_with(b"RIFF") && &head[8..12] == b"WEBP")
        }
        FileKind::Xml => {
            let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
            text.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'<')
        }
        FileKind::Ofd => head.starts_with(b"PK\x03\x04"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_from_extension_is_case_insensitive() {
        assert_eq!(FileKind::from_name("发票.PDF"), Some(FileKind::Pdf));
        assert_eq!(FileKind::from_name("a.JpEg"), Some(FileKind::Image));
        assert_eq!(FileKind::from_name("a.webp"), Some(FileKind::Image));
        assert_eq!(FileKind::from_name("a.exe"), None);
        assert_eq!(FileKind::from_name("发票.xml"), Some(FileKind::Xml));
        assert_eq!(FileKind::from_name("发票.OFD"), Some(FileKind::Ofd));
        assert_eq!(FileKind::Ofd.listing_type(), "pdf");
        assert_eq!(serde_json::to_value(FileKind::Xml).unwrap(), "pdf");
        assert_eq!(FileKind::from_name("pdf"), None);
    }

    #[test]
    fn magic_bytes_decide() {
        assert!(sniff_matches(FileKind::Pdf, b"%PDF-1.7\n"));
        assert!(sniff_matches(FileKind::Pdf, b"\xef\xbb\xbf junk %PDF-1.4"));
        assert!(!sniff_matches(FileKind::Pdf, b"PK\x03\x04"));
        assert!(!sniff_matches(FileKind::Pdf, b""));
        assert!(sniff_matches(FileKind::Image, b"\x89PNG\r\n\x1a\n...."));
        assert!(sniff_matches(FileKind::Image, &[0xff, 0xd8, 0xff, 0xe0]));
        assert!(sniff_matches(FileKind::Image, b"RIFF\0\0\0\0WEBPVP8 "));
        assert!(!sniff_matches(FileKind::Image, b"%PDF-1.7"));
        assert!(!sniff_matches(FileKind::Image, b"BM"));
        assert!(sniff_matches(
            FileKind::Xml,
            b"\xef\xbb\xbf\n <?xml version"
        ));
        assert!(!sniff_matches(FileKind::Xml, b"%PDF-"));
        assert!(sniff_matches(FileKind::Ofd, b"PK\x03\x04rest"));
        assert!(!sniff_matches(FileKind::Ofd, b"<xml"));
    }
}
