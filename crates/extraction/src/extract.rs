//! The entry points: bytes (PDF, OFD, 数电 XML) to a checked [`InvoiceRecord`], dispatching
//! on magic bytes and file name.

use crate::crosscheck::{self, QrFields};
#[cfg(feature = "xml")]
use crate::dom;
use crate::error::ExtractError;
use crate::geometry::{Page, Sheet};
#[cfg(not(feature = "ocr"))]
use crate::junk;
use crate::layouts::{self, Attachment};
#[cfg(feature = "ocr")]
use crate::ocr::PageReader;
#[cfg(feature = "ofd")]
use crate::ofd;
#[cfg(feature = "ocr")]
use crate::page_text;
#[cfg(feature = "ocr")]
use crate::seal;
#[cfg(feature = "xml")]
use crate::xml;
use domain::InvoiceRecord;

/// Extracts an invoice from a PDF from its text layer alone: unmapped glyphs are dropped and
/// a page without text cannot be read (an [`ExtractError::NotCompiledIn`] without the `ocr`
/// feature, which would bring the means to read it).
pub fn extract_pdf(bytes: &[u8]) -> Result<InvoiceRecord, ExtractError> {
    #[cfg(feature = "ocr")]
    {
        extract_pdf_with(bytes, None)
    }
    #[cfg(not(feature = "ocr"))]
    {
        let doc = pdf_text::parse(bytes)?;
        let pages: Vec<Page> = doc
            .pages
            .iter()
            .map(|p| {
                let mut page = Page::from_text_layer(p);
                junk::strip(&mut page);
                page
            })
            .collect();
        // Without OCR a page whose text is missing (or all unmapped glyphs) cannot be read:
        // said so, rather than blaming the file.
        let unreadable = pages.iter().all(|p| p.runs.is_empty());
        extract_document(&doc, pages, qr_fields(bytes).as_ref()).map_err(|e| match e {
            ExtractError::NotAnInvoice(_) if unreadable => ExtractError::NotCompiledIn {
                what: "识别扫描件（没有文字层的 PDF）",
                feature: "ocr",
            },
            other => other,
        })
    }
}

/// Extracts an invoice from a PDF; `reader`, when given, reads again the text-layer runs
/// whose glyphs have no usable mapping, and whole pages that have no text layer.
#[cfg(feature = "ocr")]
pub fn extract_pdf_with(
    bytes: &[u8],
    reader: Option<&dyn PageReader>,
) -> Result<InvoiceRecord, ExtractError> {
    let doc = pdf_text::parse(bytes)?;
    let qr = qr_fields(bytes);
    let (pages, source) = page_text::pages(bytes, &doc, reader);
    let mut record = extract_document(&doc, pages, qr.as_ref())?;
    // A record the QR code alone made says so already.
    if record.text_source.is_empty() {
        record.text_source = source.as_str().to_owned();
    }
    if record.seller.name.is_empty()
        && let Some(name) = reader.and_then(|r| seal::name_in_seal(bytes, r))
    {
        // Read from a seal by OCR alone: kept, and flagged for the user to check.
        crosscheck::flag(&mut record, "seller_name", "", "seal", &name);
        record.seller.name = name;
    }
    crosscheck::weak_source(&mut record, qr.as_ref());
    Ok(record)
}

/// Extracts an invoice from already parsed PDF pages, with the QR code's fields if the caller
/// decoded them.
fn extract_document(
    doc: &pdf_text::Document,
    pages: Vec<Page>,
    qr: Option<&QrFields>,
) -> Result<InvoiceRecord, ExtractError> {
    let sheets: Vec<Sheet> = pages.into_iter().map(Sheet::new).collect();
    let attachments: Vec<Attachment<'_>> = doc
        .attachments
        .iter()
        .map(|a| Attachment {
            name: &a.name,
            data: &a.data,
        })
        .collect();
    let mut record = match from_sheets(&sheets, &attachments) {
        Ok(r) => r,
        // A page nothing could read, or read as no known invoice: the QR code alone, when it
        // carries number, date and amount, still makes a record (every value flagged).
        Err(e) => qr.and_then(crosscheck::from_qr).ok_or(e)?,
    };
    // An embedded 数电 XML (some producers attach one) is an independent witness.
    #[cfg(feature = "xml")]
    if let Some(x) = attachments
        .iter()
        .filter(|a| a.name.to_ascii_lowercase().ends_with(".xml"))
        .filter_map(|a| dom::parse(a.data).ok())
        .find(|root| root.name == "EInvoice")
    {
        crosscheck::against(&mut record, "xml", &xml::witness(&xml::einvoice(&x)), true);
    }
    finish(&mut record, qr);
    Ok(record)
}

/// The printed QR code's fields, decoded by `invoice_qr` (which reads the page images).
#[cfg(feature = "qr")]
fn qr_fields(pdf: &[u8]) -> Option<QrFields> {
    invoice_qr::find_invoice_qr(pdf).map(|q| QrFields {
        kind: q.kind,
        code: q.code.unwrap_or_default(),
        number: q.number,
        amount: q.amount,
        date: q.date,
        check_code: q.check_code.unwrap_or_default(),
    })
}

/// Without the `qr` feature no QR code is read: the text stands without that witness.
#[cfg(not(feature = "qr"))]
fn qr_fields(_pdf: &[u8]) -> Option<QrFields> {
    None
}

/// Reads a record from positioned text, or says why the document is not an invoice.
fn from_sheets(
    sheets: &[Sheet],
    attachments: &[Attachment<'_>],
) -> Result<InvoiceRecord, ExtractError> {
    if sheets.iter().all(|s| s.runs.is_empty()) {
        return Err(ExtractError::NotAnInvoice(
            "文件没有文字层（可能是扫描件或图片），请上传电子发票原件".to_owned(),
        ));
    }
    let record = layouts::read(sheets, attachments)
        .ok_or_else(|| ExtractError::NotAnInvoice("未识别到发票版式".to_owned()))?;
    if record.invoice_number.is_empty() {
        return Err(ExtractError::NotAnInvoice("未找到发票号码".to_owned()));
    }
    Ok(record)
}

/// Cross-checks every record goes through, whatever its source.
fn finish(record: &mut InvoiceRecord, qr: Option<&QrFields>) {
    crosscheck::in_words(record);
    crosscheck::arithmetic(record);
    crosscheck::qr(record, qr);
    crosscheck::order_sources(record);
}

/// Extracts an invoice from a 数电 XML (`<EInvoice>`) or a railway ticket's XBRL.
#[cfg(feature = "xml")]
pub fn extract_xml(bytes: &[u8]) -> Result<InvoiceRecord, ExtractError> {
    let root =
        dom::parse(bytes).map_err(|e| ExtractError::Malformed(format!("XML 无法解析：{e}")))?;
    let mut record = if root.name == "EInvoice" {
        xml::einvoice(&root)
    } else if let Some(x) = xml::railway(&root) {
        xml::railway_record(&x)
    } else {
        return Err(ExtractError::NotAnInvoice(format!(
            "不是电子发票 XML（根元素为 {}）",
            root.name
        )));
    };
    if record.invoice_number.is_empty() {
        return Err(ExtractError::NotAnInvoice("未找到发票号码".to_owned()));
    }
    finish(&mut record, None);
    Ok(record)
}

/// Extracts an invoice from an OFD file: its page text read like a PDF's, checked against
/// OFD.xml's metadata and any embedded 数电 XML (used alone if the text yields nothing).
#[cfg(feature = "ofd")]
pub fn extract_ofd(bytes: &[u8]) -> Result<InvoiceRecord, ExtractError> {
    let doc = ofd::read(bytes)?;
    let sheets: Vec<Sheet> = doc.pages.into_iter().map(Sheet::new).collect();
    let embedded = doc.embedded.as_ref().map(xml::einvoice);
    let mut record = match (from_sheets(&sheets, &[]), embedded.as_ref()) {
        (Ok(r), _) => r,
        (Err(_), Some(x)) if !x.invoice_number.is_empty() => x.clone(),
        (Err(e), _) => return Err(e),
    };
    crosscheck::against(&mut record, "ofd", &doc.meta, false);
    if let Some(x) = &embedded {
        crosscheck::against(&mut record, "xml", &xml::witness(x), true);
    }
    finish(&mut record, None);
    Ok(record)
}

/// What the bytes are, by magic number first and file name second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Pdf,
    Ofd,
    Xml,
}

fn sniff(bytes: &[u8], file_name: &str) -> Option<Format> {
    let head = bytes.get(..bytes.len().min(1024)).unwrap_or_default();
    if head.windows(5).any(|w| w == b"%PDF-") {
        return Some(Format::Pdf);
    }
    if head.starts_with(b"PK\x03\x04") {
        return Some(Format::Ofd);
    }
    let text_start = head
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(head)
        .iter()
        .find(|b| !b.is_ascii_whitespace());
    if text_start == Some(&b'<') || head.starts_with(b"\xFF\xFE") || head.starts_with(b"\xFE\xFF") {
        return Some(Format::Xml);
    }
    let lower = file_name.to_ascii_lowercase();
    if lower.ends_with(".pdf") {
        Some(Format::Pdf)
    } else if lower.ends_with(".ofd") {
        Some(Format::Ofd)
    } else if lower.ends_with(".xml") {
        Some(Format::Xml)
    } else {
        None
    }
}

/// Extracts an invoice from any supported file, choosing the reader by content (magic
/// bytes) and, failing that, by the file name's extension. An OFD or XML file is an
/// [`ExtractError::NotCompiledIn`] when the `ofd` or `xml` feature is off.
pub fn extract(bytes: &[u8], file_name: &str) -> Result<InvoiceRecord, ExtractError> {
    read_as(sniff(bytes, file_name), bytes, extract_pdf)
}

/// [`extract`], with an OCR engine for PDF pages whose text layer is missing or lies.
#[cfg(feature = "ocr")]
pub fn extract_with(
    bytes: &[u8],
    file_name: &str,
    reader: Option<&dyn PageReader>,
) -> Result<InvoiceRecord, ExtractError> {
    read_as(sniff(bytes, file_name), bytes, |pdf| {
        extract_pdf_with(pdf, reader)
    })
}

/// Reads `bytes` as `format`, a PDF by `pdf`; a format whose feature is off is an error that
/// says so.
fn read_as(
    format: Option<Format>,
    bytes: &[u8],
    pdf: impl FnOnce(&[u8]) -> Result<InvoiceRecord, ExtractError>,
) -> Result<InvoiceRecord, ExtractError> {
    match format {
        Some(Format::Pdf) => pdf(bytes),
        #[cfg(feature = "ofd")]
        Some(Format::Ofd) => extract_ofd(bytes),
        #[cfg(not(feature = "ofd"))]
        Some(Format::Ofd) => Err(ExtractError::NotCompiledIn {
            what: "读取 OFD 发票",
            feature: "ofd",
        }),
        #[cfg(feature = "xml")]
        Some(Format::Xml) => extract_xml(bytes),
        #[cfg(not(feature = "xml"))]
        Some(Format::Xml) => Err(ExtractError::NotCompiledIn {
            what: "读取 XML 发票",
            feature: "xml",
        }),
        None => Err(ExtractError::Unsupported(
            "请上传 PDF、OFD 或 XML 格式的电子发票".to_owned(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_by_content_then_name() {
        assert_eq!(sniff(b"%PDF-1.7\n", "a.bin"), Some(Format::Pdf));
        assert_eq!(sniff(b"PK\x03\x04....", "a.pdf"), Some(Format::Ofd));
        assert_eq!(sniff(b"\xEF\xBB\xBF <?xml", "a"), Some(Format::Xml));
        assert_eq!(sniff(b"????", "A.OFD"), Some(Format::Ofd));
        assert_eq!(sniff(b"????", "a.txt"), None);
    }

    #[test]
    fn never_panics_on_garbage() {
        for bytes in [
            &b""[..],
            b"%PDF-",
            b"PK\x03\x04",
            b"<",
            b"<EInvoice/>",
            b"\xFF\xFE<\x00",
        ] {
            for name in ["a.pdf", "a.ofd", "a.xml", "a"] {
                assert!(extract(bytes, name).is_err());
            }
        }
    }

    #[test]
    #[cfg(feature = "xml")]
    fn xml_errors_are_user_messages() {
        let e = extract_xml(b"<Other><X>1</X></Other>").unwrap_err();
        assert!(e.to_string().starts_with("无法识别为发票"));
        assert_eq!(
            extract(b"hello", "a.doc").unwrap_err().to_string(),
            "不支持的文件格式：请上传 PDF、OFD 或 XML 格式的电子发票"
        );
    }

    /// Whether `result` is the error of a feature that is off.
    #[cfg(not(all(feature = "ocr", feature = "ofd", feature = "xml")))]
    fn not_compiled_in(result: Result<InvoiceRecord, ExtractError>, wanted: &str) -> bool {
        matches!(result, Err(ExtractError::NotCompiledIn { feature, .. }) if feature == wanted)
    }

    #[test]
    #[cfg(not(feature = "ofd"))]
    fn an_ofd_without_its_feature_says_so() {
        assert!(not_compiled_in(extract(b"PK\x03\x04....", "a.ofd"), "ofd"));
    }

    #[test]
    #[cfg(not(feature = "xml"))]
    fn an_xml_without_its_feature_says_so() {
        let xml = b"<?xml version=\"1.0\"?><EInvoice/>";
        assert!(not_compiled_in(extract(xml, "a.xml"), "xml"));
    }

    #[test]
    #[cfg(not(feature = "ocr"))]
    fn a_pdf_without_text_without_ocr_says_so() {
        let blank = b"%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj
trailer << /Root 1 0 R >>
%%EOF";
        assert!(not_compiled_in(extract(blank, "scan.pdf"), "ocr"));
        // A PDF with text that is no invoice is still said to be no invoice.
        let prose = b"%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100]
  /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >> endobj
4 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj
5 0 obj << /Length 35 >> stream
BT /F1 12 Tf 20 60 Td (Hello) Tj ET
endstream endobj
trailer << /Root 1 0 R >>
%%EOF";
        assert!(matches!(
            extract(prose, "a.pdf"),
            Err(ExtractError::NotAnInvoice(_))
        ));
    }
}
