//! The entry points: bytes (PDF, OFD, 数电 XML) to a checked [`InvoiceRecord`], dispatching
//! on magic bytes and file name.

use crate::crosscheck::{self, QrFields};
use crate::dom;
use crate::error::ExtractError;
use crate::geometry::{Page, Sheet};
use crate::layouts::{self, Attachment};
use crate::ocr::PageReader;
use crate::ofd;
use crate::page_text;
use crate::seal;
use crate::xml;
use domain::InvoiceRecord;

/// Extracts an invoice from a PDF from its text layer alone: unmapped glyphs are dropped and
/// a page without text cannot be read.
pub fn extract_pdf(bytes: &[u8]) -> Result<InvoiceRecord, ExtractError> {
    extract_pdf_with(bytes, None)
}

/// Extracts an invoice from a PDF; `reader`, when given, reads again the text-layer runs
/// whose glyphs have no usable mapping, and whole pages that have no text layer.
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
/// bytes) and, failing that, by the file name's extension.
pub fn extract(bytes: &[u8], file_name: &str) -> Result<InvoiceRecord, ExtractError> {
    extract_with(bytes, file_name, None)
}

/// [`extract`], with an OCR engine for PDF pages whose text layer is missing or lies.
pub fn extract_with(
    bytes: &[u8],
    file_name: &str,
    reader: Option<&dyn PageReader>,
) -> Result<InvoiceRecord, ExtractError> {
    match sniff(bytes, file_name) {
        Some(Format::Pdf) => extract_pdf_with(bytes, reader),
        Some(Format::Ofd) => extract_ofd(bytes),
        Some(Format::Xml) => extract_xml(bytes),
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
    fn xml_errors_are_user_messages() {
        let e = extract_xml(b"<Other><X>1</X></Other>").unwrap_err();
        assert!(e.to_string().starts_with("无法识别为发票"));
        assert_eq!(
            extract(b"hello", "a.doc").unwrap_err().to_string(),
            "不支持的文件格式：请上传 PDF、OFD 或 XML 格式的电子发票"
        );
    }
}
