//! QR codes generated here with the `qrcode` crate, drawn into small PDFs
//! built with lopdf the ways invoices (and scans) carry them, and read back
//! through `find_invoice_qr`. The payloads are made up.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::io::Write;

use lopdf::{Dictionary, Document, Object, Stream, dictionary};
use qrcode::{Color, EcLevel, QrCode};

const OLD_FORMAT: &str = "01,10,012345678901,00012345,88.50,20240115,01234567890123456789,7A3C,";
const DIGITAL: &str = "01,32,,24110000000012345678,1024.00,20250302,,B1F0";

/// Module grid of a QR code for `text`, row-major, `true` = dark.
fn modules(text: &str) -> (usize, Vec<bool>) {
    let code = QrCode::with_error_correction_level(text, EcLevel::M).unwrap();
    let colors = code.to_colors();
    (
        code.width(),
        colors.iter().map(|c| *c == Color::Dark).collect(),
    )
}

/// Grey pixels of the code at `scale` pixels per module with a `quiet`
/// module white margin.
fn render(text: &str, scale: usize, quiet: usize, invert: bool) -> (usize, Vec<u8>) {
    let (n, dark) = modules(text);
    let side = (n + 2 * quiet) * scale;
    let mut pixels = vec![if invert { 0 } else { 255 }; side * side];
    for y in 0..side {
        for x in 0..side {
            let (mx, my) = (x / scale, y / scale);
            if mx >= quiet && my >= quiet && mx < n + quiet && my < n + quiet {
                let d = dark[(my - quiet) * n + (mx - quiet)];
                pixels[y * side + x] = if d != invert { 0 } else { 255 };
            }
        }
    }
    (side, pixels)
}

/// Pack grey pixels (0 or 255) one bit each, rows padded to bytes.
fn pack_1bit(side: usize, pixels: &[u8]) -> Vec<u8> {
    let stride = side.div_ceil(8);
    let mut out = vec![0u8; stride * side];
    for y in 0..side {
        for x in 0..side {
            if pixels[y * side + x] > 127 {
                out[y * stride + x / 8] |= 0x80 >> (x % 8);
            }
        }
    }
    out
}

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

/// One image to draw: its dictionary entries, data, and the `cm` placing it.
struct Draw {
    dict: Dictionary,
    data: Vec<u8>,
    cm: String,
}

/// A one-page invoice-sized PDF (600×400 pt) drawing `draws` in order.
fn pdf(draws: Vec<Draw>) -> Vec<u8> {
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let mut xobjects = Dictionary::new();
    let mut content = String::new();
    for (i, draw) in draws.into_iter().enumerate() {
        let mut dict = dictionary! { "Type" => "XObject", "Subtype" => "Image" };
        dict.extend(&draw.dict);
        let id = doc.add_object(Stream::new(dict, draw.data).with_compression(false));
        let name = format!("Im{i}");
        xobjects.set(name.as_bytes(), id);
        content.push_str(&format!("q {} cm /{name} Do Q\n", draw.cm));
    }
    let content = doc.add_object(Stream::new(dictionary! {}, content.into_bytes()));
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content,
        "Resources" => dictionary! { "XObject" => xobjects },
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1,
            "MediaBox" => vec![0.into(), 0.into(), 600.into(), 400.into()],
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).unwrap();
    bytes
}

/// A 1-bit image of the code, one pixel per module, no quiet zone: the
/// tightest way invoices embed it.
fn one_bit_draw(text: &str, cm: &str) -> Draw {
    let (side, pixels) = render(text, 1, 0, false);
    Draw {
        dict: dictionary! {
            "Width" => side as i64, "Height" => side as i64, "BitsPerComponent" => 1,
            "ColorSpace" => "DeviceGray",
        },
        data: pack_1bit(side, &pixels),
        cm: cm.to_owned(),
    }
}

fn grey_draw(side: usize, pixels: &[u8], cm: &str) -> Draw {
    Draw {
        dict: dictionary! {
            "Width" => side as i64, "Height" => side as i64, "BitsPerComponent" => 8,
            "ColorSpace" => "DeviceGray", "Filter" => "FlateDecode",
        },
        data: zlib(pixels),
        cm: cm.to_owned(),
    }
}

#[test]
fn one_pixel_per_module_top_left() {
    let bytes = pdf(vec![one_bit_draw(OLD_FORMAT, "56 0 0 56 20 320")]);
    let qr = reimburse_invoice_qr::find_invoice_qr(&bytes).unwrap();
    assert_eq!(qr.raw, OLD_FORMAT);
    assert_eq!(qr.kind, "10");
    assert_eq!(qr.amount_cents(), Some(8850));
    assert!(qr.amount_is_pre_tax());
}

#[test]
fn scaled_grey_with_quiet_zone_elsewhere_on_the_page() {
    let (side, pixels) = render(DIGITAL, 6, 4, false);
    let bytes = pdf(vec![grey_draw(side, &pixels, "56 0 0 56 480 200")]);
    let qr = reimburse_invoice_qr::find_invoice_qr(&bytes).unwrap();
    assert_eq!(qr.raw, DIGITAL);
    assert!(!qr.amount_is_pre_tax());
}

#[test]
fn rotated_placement_is_read() {
    // A quarter turn: the image's columns run down the page.
    let bytes = pdf(vec![one_bit_draw(DIGITAL, "0 -56 56 0 20 380")]);
    assert_eq!(
        reimburse_invoice_qr::find_invoice_qr(&bytes).unwrap().raw,
        DIGITAL
    );
}

#[test]
fn inverted_code_is_read() {
    let (side, pixels) = render(OLD_FORMAT, 4, 4, true);
    let bytes = pdf(vec![grey_draw(side, &pixels, "56 0 0 56 20 320")]);
    assert_eq!(
        reimburse_invoice_qr::find_invoice_qr(&bytes).unwrap().raw,
        OLD_FORMAT
    );
}

#[test]
fn other_qr_codes_are_passed_over() {
    let bytes = pdf(vec![
        one_bit_draw("https://example.com/not-an-invoice", "56 0 0 56 20 320"),
        one_bit_draw(DIGITAL, "56 0 0 56 100 320"),
    ]);
    assert_eq!(
        reimburse_invoice_qr::find_invoice_qr(&bytes).unwrap().raw,
        DIGITAL
    );
    let only_other = pdf(vec![one_bit_draw("hello", "56 0 0 56 20 320")]);
    assert!(reimburse_invoice_qr::find_invoice_qr(&only_other).is_none());
}

#[test]
fn code_inside_a_scanned_page_is_found() {
    // A 640×400 "scan" with the code (4 px per module) near its top left,
    // plus some grey noise text-like bars elsewhere.
    let (qr_side, qr) = render(OLD_FORMAT, 4, 0, false);
    let (w, h) = (640, 400);
    let mut page = vec![250u8; w * h];
    for y in 0..qr_side {
        for x in 0..qr_side {
            page[(y + 30) * w + x + 40] = qr[y * qr_side + x];
        }
    }
    for y in (200..380).step_by(12) {
        for x in 300..600 {
            page[y * w + x] = 40;
        }
    }
    let draw = Draw {
        dict: dictionary! {
            "Width" => w as i64, "Height" => h as i64, "BitsPerComponent" => 8,
            "ColorSpace" => "DeviceGray", "Filter" => "FlateDecode",
        },
        data: zlib(&page),
        cm: "600 0 0 375 0 0".to_owned(),
    };
    assert_eq!(
        reimburse_invoice_qr::find_invoice_qr(&pdf(vec![draw]))
            .unwrap()
            .raw,
        OLD_FORMAT
    );
}

#[test]
fn read_qr_text_reads_any_code() {
    let (side, pixels) = render("plain text", 3, 2, false);
    assert_eq!(
        reimburse_invoice_qr::read_qr_text(side, side, &pixels).as_deref(),
        Some("plain text")
    );
    assert!(reimburse_invoice_qr::read_qr_text(4, 4, &[255; 16]).is_none());
    assert!(reimburse_invoice_qr::read_qr_text(4, 4, &[0; 3]).is_none());
}

#[test]
fn not_pdfs_and_pdfs_without_codes() {
    assert!(reimburse_invoice_qr::find_invoice_qr(b"").is_none());
    assert!(reimburse_invoice_qr::find_invoice_qr(b"%PDF-1.7 garbage").is_none());
    assert!(reimburse_invoice_qr::find_invoice_qr(&pdf(Vec::new())).is_none());
    // A blank square image.
    let blank = grey_draw(40, &[255; 1600], "56 0 0 56 20 320");
    assert!(reimburse_invoice_qr::find_invoice_qr(&pdf(vec![blank])).is_none());
}

#[test]
fn hostile_inputs_do_not_panic_or_hang() {
    let bytes = pdf(vec![one_bit_draw(OLD_FORMAT, "56 0 0 56 20 320")]);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for end in (0..bytes.len()).step_by(29) {
        let _ = reimburse_invoice_qr::find_invoice_qr(&bytes[..end]);
    }
    for _ in 0..200 {
        let mut mutated = bytes.clone();
        for _ in 0..6 {
            let i = (next() % mutated.len() as u64) as usize;
            mutated[i] = next() as u8;
        }
        let _ = reimburse_invoice_qr::find_invoice_qr(&mutated);
    }
    // Random grey images of assorted shapes.
    for _ in 0..200 {
        let w = (next() % 90 + 1) as usize;
        let h = (next() % 90 + 1) as usize;
        let pixels: Vec<u8> = (0..w * h)
            .map(|_| if next() % 2 == 0 { 0 } else { 255 })
            .collect();
        let _ = reimburse_invoice_qr::read_qr_text(w, h, &pixels);
    }
}

#[test]
fn smoothed_codes_at_fractional_scales_are_read() {
    // Area-averaged rendering at 1.7 and 3.4 pixels per module: grey edges
    // and uneven module widths, as resampling producers leave them.
    let (n, dark) = modules(DIGITAL);
    for scale in [1.7f32, 3.4] {
        let side = (n as f32 * scale).ceil() as usize;
        let mut pixels = vec![255u8; side * side];
        for y in 0..side {
            for x in 0..side {
                let mut ink = 0.0;
                for sy in 0..4 {
                    for sx in 0..4 {
                        let mx = ((x as f32 + (sx as f32 + 0.5) / 4.0) / scale) as usize;
                        let my = ((y as f32 + (sy as f32 + 0.5) / 4.0) / scale) as usize;
                        if mx < n && my < n && dark[my * n + mx] {
                            ink += 1.0 / 16.0;
                        }
                    }
                }
                pixels[y * side + x] = (255.0 * (1.0 - ink)) as u8;
            }
        }
        let bytes = pdf(vec![grey_draw(side, &pixels, "56 0 0 56 20 320")]);
        let qr = reimburse_invoice_qr::find_invoice_qr(&bytes);
        assert_eq!(qr.map(|q| q.raw).as_deref(), Some(DIGITAL), "scale {scale}");
    }
}

#[test]
fn framed_code_is_found_by_the_detector() {
    // A thin frame two modules out defeats the direct reader's cropping.
    let (side, mut pixels) = render(OLD_FORMAT, 3, 4, false);
    for i in 0..side {
        for (x, y) in [(i, 6), (i, side - 7), (6, i), (side - 7, i)] {
            pixels[y * side + x] = 0;
        }
    }
    assert_eq!(
        reimburse_invoice_qr::read_qr_text(side, side, &pixels).as_deref(),
        Some(OLD_FORMAT)
    );
}
