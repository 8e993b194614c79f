//! End-to-end tests on hand-built PDFs: decoding, positions, forms and
//! attachments.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;

use reimburse_pdf_text::{Document, TextRun};

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 0.01
}

fn run<'a>(doc: &'a Document, text: &str) -> &'a TextRun {
    doc.pages[0]
        .runs
        .iter()
        .find(|r| r.text == text)
        .unwrap_or_else(|| panic!("no run {text:?} in {:#?}", doc.pages[0].runs))
}

fn check_sample(doc: &Document) {
    assert_eq!(
        doc.pages.len(),
        1,
        "the cyclic page tree yields the page once"
    );
    let page = &doc.pages[0];
    assert!(close(page.width, 595.0) && close(page.height, 842.0));

    // WinAnsi Helvetica: split at spaces; widths from the built-in metrics.
    let invoice = run(doc, "Invoice");
    assert!(close(invoice.x, 72.0) && close(invoice.y, 842.0 - 720.0));
    assert!(close(invoice.font_size, 12.0));
    // I n v o i c e = 278+556+500+556+222+500+556 = 3168 units.
    assert!(close(invoice.end_x, 72.0 + 3.168 * 12.0));
    let number = run(doc, "12345");
    assert!(number.x > run(doc, "No:").end_x);
    // Digits are 556 units wide in Helvetica.
    assert!(close(number.end_x - number.x, 5.0 * 0.556 * 12.0));

    // Identity-H + ToUnicode, with DW 1000 and W 500 for CID 3.
    let cjk = run(doc, "发票A");
    assert!(close(cjk.x, 72.0) && close(cjk.y, 842.0 - 700.0));
    assert!(close(cjk.end_x, 72.0 + 10.5 * 2.5));

    // UniGB-UCS2-H without ToUnicode: codes are Unicode.
    let ucs2 = run(doc, "发票号码:1");
    assert!(close(ucs2.y, 842.0 - 680.0));
    // Four ideographs at 1 em, ':' and '1' at 0.5 em (CIDs 27 and 18).
    assert!(close(ucs2.end_x, 72.0 + 9.0 * 5.0));

    // Form XObject: (0,0) in the form -> (300,100) by /Matrix -> (150,50) by cm.
    let form = run(doc, "In");
    assert!(close(form.x, 150.0) && close(form.y, 842.0 - 50.0));
    assert!(close(form.font_size, 5.0));
    run(doc, "form");

    // The self-calling form is entered once and then refused.
    assert_eq!(page.runs.iter().filter(|r| r.text == "Loop").count(), 1);

    // Annotation appearance: BBox 50x20 onto Rect 100x20, so x scales by 2.
    let stamped = run(doc, "Stamped");
    assert!(
        close(stamped.x, 404.0) && close(stamped.y, 842.0 - 405.0),
        "{stamped:?}"
    );
    assert!(close(stamped.font_size, 10.0));
    assert!(!doc.plain_text().contains("Hidden"));

    let lines: Vec<String> = page.lines().iter().map(|l| l.text()).collect();
    assert_eq!(lines[0], "Invoice No: 12345");
    assert_eq!(lines[1], "发票A");
    assert_eq!(lines[2], "发票号码:1");
    assert!(doc.plain_text().contains("In form"));

    let names: Vec<&str> = doc.attachments.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["rai_issuer_1.xml", "note.txt"]);
    let xml = doc.attachment_with_suffix(".XML").unwrap();
    assert_eq!(xml.data, b"<?xml version=\"1.0\"?><Ticket/>");
    assert_eq!(doc.attachments[1].data, b"hello attachment");
}

#[test]
fn sample_uncompressed() {
    let bytes = common::sample_pdf(false);
    check_sample(&reimburse_pdf_text::parse(&bytes).unwrap());
}

#[test]
fn sample_compressed() {
    let bytes = common::sample_pdf(true);
    check_sample(&reimburse_pdf_text::parse(&bytes).unwrap());
}

#[test]
fn junk_before_header_is_tolerated() {
    let mut bytes = b"garbage\r\n".to_vec();
    bytes.extend(common::sample_pdf(true));
    let doc = reimburse_pdf_text::parse(&bytes).unwrap();
    assert!(doc.plain_text().contains("12345"));
}

#[test]
fn rotated_page() {
    let mut doc = common::simple_pdf("Hi");
    let page_id = doc.page_iter().next().unwrap();
    doc.get_dictionary_mut(page_id).unwrap().set("Rotate", 90);
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).unwrap();
    let parsed = reimburse_pdf_text::parse(&bytes).unwrap();
    let page = &parsed.pages[0];
    assert!(close(page.width, 792.0) && close(page.height, 612.0));
    // (100, 700) in user space -> x = 700, y = 100 when turned clockwise.
    let r = &page.runs[0];
    assert!(close(r.x, 700.0) && close(r.y, 100.0), "{r:?}");
}
