//! Extraction with page OCR, on documents the project makes itself: the fixtures whose text
//! layer lies (`fixtures/invoices/ocr`, golden records), an image-only scan of a fixture
//! invoice, and a PDF of plain prose, which must be refused. pdftoppm and the PP-OCR models are part
//! of `cargo xtask install`; without them these tests fail, naming the command.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "test code"
)]

use std::io::Write;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("fixtures/invoices"))
        .find(|p| p.is_dir())
        .expect("fixtures/invoices")
}

fn ocr() -> reimburse_page_ocr::PageOcr {
    if let Err(e) = reimburse_page_ocr::PageOcr::check() {
        panic!("{e}");
    }
    reimburse_page_ocr::PageOcr::new()
}

#[test]
fn fixtures_with_lying_text_layers_extract_to_their_golden_records() {
    let reader = ocr();
    let dir = fixtures().join("ocr");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "pdf") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let want: domain::InvoiceRecord =
            serde_json::from_slice(&std::fs::read(path.with_extension("json")).unwrap()).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let started = std::time::Instant::now();
        let got = extraction::extract_with(&bytes, &name, Some(&reader)).unwrap();
        println!("{name}: {} ms", started.elapsed().as_millis());
        let (w, g) = (
            serde_json::to_value(&want).unwrap(),
            serde_json::to_value(&got).unwrap(),
        );
        for (key, wv) in w.as_object().unwrap() {
            assert_eq!(&g[key], wv, "{name}: {key}");
        }
        // Without OCR the same file is not read right: the fixture does test the repair.
        let plain = extraction::extract(&bytes, &name);
        assert!(
            plain.map_or(true, |r| r != want),
            "{name} reads without OCR"
        );
        checked += 1;
    }
    assert!(checked > 0, "no fixture in {}", dir.display());
}

/// A one-page PDF drawing `content` with `resources` and, optionally, one grey image `Im1`.
fn pdf(
    width: f32,
    height: f32,
    content: &str,
    resources: &str,
    image: Option<(u32, u32, Vec<u8>)>,
) -> Vec<u8> {
    let mut objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width} {height}] /Resources {resources} /Contents 4 0 R >>"
        )
        .into_bytes(),
    ];
    let mut stream = format!("<< /Length {} >>\nstream\n", content.len()).into_bytes();
    stream.extend(content.as_bytes());
    stream.extend(b"\nendstream");
    objects.push(stream);
    if let Some((w, h, pixels)) = image {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(&pixels).unwrap();
        let data = z.finish().unwrap();
        let mut obj = format!(
            "<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length {} >>\nstream\n",
            data.len()
        )
        .into_bytes();
        obj.extend(data);
        obj.extend(b"\nendstream");
        objects.push(obj);
    }
    let mut out = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend(body);
        out.extend(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for o in offsets {
        out.extend(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

#[test]
fn an_image_only_scan_of_an_invoice_is_read() {
    let reader = ocr();
    // The old-format toll invoice: small labels, a QR code, an item table with toll columns.
    let source = fixtures().join("toll.pdf");
    let want: domain::InvoiceRecord =
        serde_json::from_slice(&std::fs::read(source.with_extension("json")).unwrap()).unwrap();
    let doc = pdf_text::parse(&std::fs::read(&source).unwrap()).unwrap();
    let page = &doc.pages[0];
    // A 300-dpi grey scan of the page, placed as the page's only content.
    let long = (page.width.max(page.height) / 72.0 * 300.0).round() as u32;
    let scan = reimburse_page_ocr::render_page(&std::fs::read(&source).unwrap(), 0, long).unwrap();
    let content = format!("q {} 0 0 {} 0 0 cm /Im1 Do Q", page.width, page.height);
    let bytes = pdf(
        page.width,
        page.height,
        &content,
        "<< /XObject << /Im1 5 0 R >> >>",
        Some((scan.width, scan.height, scan.pixels)),
    );
    assert!(
        pdf_text::parse(&bytes).unwrap().pages[0].runs.is_empty(),
        "no text layer"
    );
    // Without OCR only the QR code speaks: its record says so and every value is flagged.
    let qr_only = extraction::extract(&bytes, "scan.pdf").unwrap();
    assert_eq!(qr_only.text_source, "qr");
    assert_eq!(qr_only.invoice_number, want.invoice_number);
    assert!(
        qr_only
            .flags
            .iter()
            .any(|f| f.field == "invoice_number" && f.source == "qr")
    );
    let started = std::time::Instant::now();
    let got = extraction::extract_with(&bytes, "scan.pdf", Some(&reader)).unwrap();
    println!(
        "scan: {} ms, flags {:?}",
        started.elapsed().as_millis(),
        got.flags
    );
    assert_eq!(got.text_source, "ocr");
    assert_eq!(got.invoice_number, want.invoice_number);
    assert_eq!(got.invoice_date, want.invoice_date);
    assert_eq!(got.total_with_tax, want.total_with_tax);
    // Number and date agree with the QR code read off the scan; what only OCR read (the
    // seller here) is flagged for review, never silently trusted.
    for confirmed in ["invoice_number", "invoice_date"] {
        assert!(
            !got.flags.iter().any(|f| f.field == confirmed),
            "{confirmed}"
        );
    }
    assert!(
        got.flags
            .iter()
            .any(|f| f.field == "seller_name" && f.source == "ocr")
    );
}

#[test]
fn a_pdf_of_plain_prose_is_refused() {
    let reader = ocr();
    let content = "BT /F1 12 Tf 72 720 Td (Dear colleagues, the meeting moves to Thursday at ten.) Tj \
                   0 -16 Td (Please bring the printed agenda and your notes from last week.) Tj ET";
    let bytes = pdf(
        595.0,
        842.0,
        content,
        "<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>",
        None,
    );
    let error = extraction::extract_with(&bytes, "letter.pdf", Some(&reader)).unwrap_err();
    assert_eq!(error.to_string(), "无法识别为发票：未识别到发票版式");
}

/// STSong-Light over UCS-2, as the project's fixtures draw Chinese.
const SONG: &str = "<< /Font << /F1 << /Type /Font /Subtype /Type0 /BaseFont /STSong-Light \
    /Encoding /UniGB-UCS2-H /DescendantFonts [<< /Type /Font /Subtype /CIDFontType0 \
    /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> \
    /FontDescriptor << /Type /FontDescriptor /FontName /STSong-Light /Flags 6 \
    /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 \
    /StemV 93 >> /DW 1000 >>] >> >> >>";

/// `text` as a UCS-2 hex string operand.
fn ucs2(text: &str) -> String {
    let hex: String = text.encode_utf16().map(|u| format!("{u:04X}")).collect();
    format!("<{hex}>")
}

/// A round seal drawn as vectors: a ring, `name` set along its upper arc (each character
/// turned to face the centre), and `财务专用章` across the middle; 100 pt square.
fn seal_pdf(name: &str) -> Vec<u8> {
    let (c, ring, radius, size) = (50.0_f32, 46.0_f32, 35.0_f32, 10.0_f32);
    // The ring: four Bézier quarter circles.
    let k = 0.5523 * ring;
    let mut content = format!(
        "q 2 w {x0} {c} m {x0} {a} {b} {y1} {c} {y1} c {d} {y1} {x1} {a} {x1} {c} c \
         {x1} {e} {d} {y0} {c} {y0} c {b} {y0} {x0} {e} {x0} {c} c S Q\n",
        x0 = c - ring,
        x1 = c + ring,
        y0 = c - ring,
        y1 = c + ring,
        a = c + k,
        b = c - k,
        d = c + k,
        e = c - k,
    );
    let chars: Vec<char> = name.chars().collect();
    let span = 240.0_f32.to_radians();
    for (i, ch) in chars.iter().enumerate() {
        // Clockwise from lower left over the top to lower right.
        let phi = -span / 2.0 + span * (i as f32 + 0.5) / chars.len() as f32;
        let (s, co) = phi.sin_cos();
        // The glyph's baseline centre on the circle, its up pointing outward.
        let (x, y) = (c + radius * s, c + radius * co);
        let (ox, oy) = (x - (size / 2.0) * co, y + (size / 2.0) * s);
        content.push_str(&format!(
            "BT /F1 {size} Tf {co} {ns} {s} {co} {ox} {oy} Tm {} Tj ET\n",
            ucs2(&ch.to_string()),
            ns = -s,
        ));
    }
    content.push_str(&format!(
        "BT /F1 9 Tf 27.5 30 Td {} Tj ET\n",
        ucs2("财务专用章")
    ));
    pdf(100.0, 100.0, &content, SONG, None)
}

#[test]
fn a_payee_named_only_in_its_seal_is_read_from_the_seal_and_flagged() {
    let reader = ocr();
    let name = "示例省高速公路经营管理中心";
    let seal = reimburse_page_ocr::render_page(&seal_pdf(name), 0, 400).unwrap();
    let (w, h) = (538.5_f32, 360.0_f32);
    let lines: [(f32, f32, f32, &str); 8] = [
        (164.0, 39.0, 15.0, "江苏省车辆通行费票据（电子）"),
        (34.5, 76.2, 7.5, "票据代码：32020124"),
        (150.0, 76.2, 7.5, "票据号码：0001234567"),
        (34.5, 95.1, 7.5, "交款人：示例人才咨询有限公司"),
        (250.0, 95.1, 7.5, "开票日期：2024-05-14"),
        (35.2, 238.2, 7.5, "金额合计（大写）壹拾元整"),
        (300.0, 238.2, 7.5, "（小写）10.00"),
        (34.5, 341.1, 7.5, "收款单位（章）："),
    ];
    let mut content = String::new();
    for (x, top, size, text) in lines {
        content.push_str(&format!(
            "BT /F1 {size} Tf {x} {} Td {} Tj ET\n",
            h - top,
            ucs2(text)
        ));
    }
    // The seal over the payee line, 70 pt across.
    content.push_str(&format!("q 70 0 0 70 60 {} cm /Im1 Do Q\n", h - 350.0));
    let resources = format!(
        "<< {} /XObject << /Im1 5 0 R >> >>",
        &SONG[3..SONG.len() - 3]
    );
    let bytes = pdf(
        w,
        h,
        &content,
        &resources,
        Some((seal.width, seal.height, seal.pixels)),
    );
    let record = extraction::extract_with(&bytes, "receipt.pdf", Some(&reader)).unwrap();
    assert_eq!(record.invoice_number, "0001234567");
    assert_eq!(record.seller.name, name);
    assert!(
        record
            .flags
            .iter()
            .any(|f| f.field == "seller_name" && f.source == "seal" && f.other == name),
        "{:?}",
        record.flags
    );
    // Without OCR the seal is not read: the seller stays empty rather than guessed.
    let plain = extraction::extract(&bytes, "receipt.pdf").unwrap();
    assert_eq!(plain.seller.name, "");
}
