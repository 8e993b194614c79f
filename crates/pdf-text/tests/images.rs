//! Page images: placement, decoding paths, orientation, queries, and
//! hostile input, on small PDFs built here with lopdf.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::io::Write;

use lopdf::{Dictionary, Document, Object, Stream, StringFormat, dictionary};
use reimburse_pdf_text::{ImageQuery, PageImage};

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

/// A 4×2 pattern, as grey levels: a dark left half, a light right half,
/// with one odd pixel so orientation shows.
const PATTERN: [u8; 8] = [0, 0, 255, 255, 0, 255, 255, 255];

/// `PATTERN` packed one bit per pixel (1 = white).
fn pattern_1bit() -> Vec<u8> {
    vec![0b0011_0000, 0b0111_0000]
}

/// PNG "Up"-predicted rows of 8-bit grey samples.
fn png_up(rows: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut prev = vec![0u8; rows[0].len()];
    for row in rows {
        out.push(2);
        out.extend(row.iter().zip(&prev).map(|(a, b)| a.wrapping_sub(*b)));
        prev = row.to_vec();
    }
    out
}

fn image(dict: Dictionary, data: Vec<u8>) -> Object {
    let mut d = dictionary! { "Type" => "XObject", "Subtype" => "Image" };
    d.extend(&dict);
    Object::Stream(Stream::new(d, data).with_compression(false))
}

/// A two-page PDF (600×400 pt) drawing images in several ways.
fn images_pdf() -> Vec<u8> {
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let one_bit = doc.add_object(image(
        dictionary! { "Width" => 4, "Height" => 2, "BitsPerComponent" => 1, "ColorSpace" => "DeviceGray" },
        pattern_1bit(),
    ));
    let predicted = doc.add_object(image(
        dictionary! {
            "Width" => 4, "Height" => 2, "BitsPerComponent" => 8, "ColorSpace" => "DeviceGray",
            "Filter" => "FlateDecode",
            "DecodeParms" => dictionary! { "Predictor" => 12, "Columns" => 4 },
        },
        zlib(&png_up(&[&PATTERN[..4], &PATTERN[4..]])),
    ));
    let palette = Object::Array(vec![
        Object::Name(b"Indexed".to_vec()),
        Object::Name(b"DeviceRGB".to_vec()),
        Object::Integer(1),
        Object::String(vec![0, 0, 0, 255, 255, 255], StringFormat::Hexadecimal),
    ]);
    let indexed = doc.add_object(image(
        dictionary! { "Width" => 4, "Height" => 2, "BitsPerComponent" => 4, "ColorSpace" => palette },
        // Indices 0 0 1 1 / 0 1 1 1.
        vec![0x00, 0x11, 0x01, 0x11],
    ));
    let stencil = doc.add_object(image(
        dictionary! { "Width" => 4, "Height" => 2, "ImageMask" => true, "Decode" => vec![1.into(), 0.into()] },
        // With Decode [1 0], 1 paints: the pattern's dark pixels are 1.
        vec![0b1100_0000, 0b1000_0000],
    ));
    let smask = doc.add_object(image(
        dictionary! { "Width" => 4, "Height" => 2, "BitsPerComponent" => 8, "ColorSpace" => "DeviceGray" },
        vec![255, 255, 0, 0, 255, 0, 0, 0],
    ));
    let masked = doc.add_object(image(
        dictionary! {
            "Width" => 4, "Height" => 2, "BitsPerComponent" => 8, "ColorSpace" => "DeviceRGB",
            "SMask" => smask,
        },
        // All black: the soft mask alone makes the pattern.
        vec![0; 24],
    ));
    let form = doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), 0.into(), 100.into(), 100.into()],
            "Matrix" => vec![1.into(), 0.into(), 0.into(), 1.into(), 10.into(), 0.into()],
            "Resources" => dictionary! { "XObject" => dictionary! { "Im" => one_bit } },
        },
        b"q 40 0 0 20 0 0 cm /Im Do Q".to_vec(),
    ));
    // Page 1: each image 40×20 pt in a row along the top, one rotated 90°,
    // one inside a form, one inline.
    let content = b"q 40 0 0 20 10 370 cm /A Do Q
q 40 0 0 20 60 370 cm /B Do Q
q 40 0 0 20 110 370 cm /C Do Q
q 40 0 0 20 160 370 cm /D Do Q
q 40 0 0 20 210 370 cm /E Do Q
q 1 0 0 1 250 370 cm /F Do Q
q 0 -40 20 0 310 390 cm /A Do Q
q 40 0 0 20 360 370 cm BI /W 4 /H 2 /BPC 1 /CS /G ID \x30\x70 EI Q
q 40 0 0 20 700 370 cm /A Do Q
q 300 0 0 300 0 0 cm /B Do Q";
    let mut content = content.to_vec();
    // The inline image data above is 0x30 0x70, the 1-bit pattern.
    assert!(content.windows(2).any(|w| w == [0x30, 0x70]));
    content.push(b'\n');
    let resources = dictionary! {
        "XObject" => dictionary! {
            "A" => one_bit, "B" => predicted, "C" => indexed, "D" => stencil, "E" => masked, "F" => form,
        },
    };
    let page1_content = doc.add_object(Stream::new(dictionary! {}, content));
    let page1 = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => page1_content,
        "Resources" => resources.clone(),
    });
    let page2_content = doc.add_object(Stream::new(
        dictionary! {},
        b"q 80 0 0 80 20 300 cm /A Do Q".to_vec(),
    ));
    let page2 = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => page2_content, "Resources" => resources,
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page1.into(), page2.into()], "Count" => 2,
            "MediaBox" => vec![0.into(), 0.into(), 600.into(), 400.into()],
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).unwrap();
    bytes
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-3
}

fn at(images: &[PageImage], page: usize, x: f32) -> &PageImage {
    images
        .iter()
        .find(|i| i.page == page && close(i.x, x))
        .unwrap_or_else(|| panic!("no image at page {page} x {x}"))
}

#[test]
fn every_decoding_path_yields_the_pattern() {
    let images = reimburse_pdf_text::page_images(&images_pdf()).unwrap();
    // Ten draws on page 1 minus the one off the page, one on page 2.
    assert_eq!(images.len(), 10, "{images:#?}");
    for x in [10.0, 60.0, 110.0, 160.0, 210.0, 260.0, 360.0] {
        let img = at(&images, 0, x);
        assert_eq!((img.pixel_width, img.pixel_height), (4, 2), "x {x}");
        assert_eq!(img.luma, PATTERN, "x {x}");
        // Placement: top-left origin, y down (the page is 400 pt tall).
        assert!(close(img.y, 10.0) && close(img.width_pt, 40.0) && close(img.height_pt, 20.0));
    }
    let page2 = at(&images, 1, 20.0);
    assert!(close(page2.y, 20.0) && close(page2.width_pt, 80.0));
}

#[test]
fn rotated_draws_come_out_upright() {
    let images = reimburse_pdf_text::page_images(&images_pdf()).unwrap();
    // `0 -40 20 0` turns the image a quarter turn clockwise: 2 wide, 4 tall.
    let img = at(&images, 0, 310.0);
    assert_eq!((img.pixel_width, img.pixel_height), (2, 4));
    assert!(close(img.width_pt, 20.0) && close(img.height_pt, 40.0));
    // The image's first column (dark, dark) is now the top row, read
    // right to left since the bottom row went to the left.
    #[rustfmt::skip]
    let expected = [
        0, 0,
        255, 0,
        255, 255,
        255, 255,
    ];
    assert_eq!(img.luma, expected);
}

#[test]
fn queries_filter_before_decoding() {
    let bytes = images_pdf();
    let first_page = ImageQuery {
        max_pages: 1,
        ..ImageQuery::default()
    };
    let images = reimburse_pdf_text::page_images_with(&bytes, &first_page).unwrap();
    assert!(images.iter().all(|i| i.page == 0));
    // Every image on these pages is 2:1; the full-page one is 300 pt.
    let square = ImageQuery {
        max_aspect: 1.3,
        ..ImageQuery::default()
    };
    assert!(
        reimburse_pdf_text::page_images_with(&bytes, &square)
            .unwrap()
            .is_empty()
    );
    let sized = ImageQuery {
        min_side_pt: 30.0,
        max_side_pt: 100.0,
        ..ImageQuery::default()
    };
    let images = reimburse_pdf_text::page_images_with(&bytes, &sized).unwrap();
    assert_eq!(images.len(), 1);
    assert_eq!(images[0].page, 1);
    let tiny = ImageQuery {
        max_pixels: 7,
        ..ImageQuery::default()
    };
    assert!(
        reimburse_pdf_text::page_images_with(&bytes, &tiny)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_filter_sees_placements_before_decoding() {
    let bytes = images_pdf();
    let mut seen = Vec::new();
    let images = reimburse_pdf_text::page_images_where(&bytes, &ImageQuery::default(), |p| {
        seen.push(*p);
        p.page == 0 && p.x > 300.0
    })
    .unwrap();
    // Everything on the page was offered (not the off-page draw), with the
    // dictionary's pixel size; only the two right of x = 300 were kept.
    assert_eq!(seen.len(), 10);
    assert!(
        seen.iter()
            .all(|p| (p.pixel_width, p.pixel_height) == (4, 2))
    );
    let xs: Vec<f32> = images.iter().map(|i| i.x).collect();
    assert_eq!(xs, [310.0, 360.0]);
    // The query's own test agrees with what it returns.
    let query = ImageQuery {
        min_side_pt: 30.0,
        ..ImageQuery::default()
    };
    assert_eq!(seen.iter().filter(|p| query.accepts(p)).count(), 2);
}

/// `doc` saved with one 100×100 pt page (the object `pages_id`) drawing `content` with
/// `xobjects`.
fn one_page(
    mut doc: Document,
    pages_id: lopdf::ObjectId,
    content: Vec<u8>,
    xobjects: Dictionary,
) -> Vec<u8> {
    let content = doc.add_object(Stream::new(dictionary! {}, content));
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content,
        "Resources" => dictionary! { "XObject" => xobjects },
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1,
            "MediaBox" => vec![0.into(), 0.into(), 100.into(), 100.into()],
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).unwrap();
    bytes
}

#[test]
fn large_images_are_reduced_on_request() {
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    // 100×100 grey, each 10×10 block one level: block (bx, by) = 10 * (bx + by).
    let pixels: Vec<u8> = (0..100 * 100)
        .map(|i| (10 * ((i % 100) / 10 + (i / 100) / 10)) as u8)
        .collect();
    let img = doc.add_object(image(
        dictionary! {
            "Width" => 100, "Height" => 100, "BitsPerComponent" => 8, "ColorSpace" => "DeviceGray",
            "Filter" => "FlateDecode",
        },
        zlib(&pixels),
    ));
    let bytes = one_page(
        doc,
        pages_id,
        b"q 50 0 0 50 0 0 cm /I Do Q".to_vec(),
        dictionary! { "I" => img },
    );

    let full = reimburse_pdf_text::page_images(&bytes).unwrap();
    assert_eq!(full[0].luma, pixels);
    let query = ImageQuery {
        max_side: 10,
        ..ImageQuery::default()
    };
    let reduced = reimburse_pdf_text::page_images_with(&bytes, &query).unwrap();
    let img = &reduced[0];
    assert_eq!((img.pixel_width, img.pixel_height), (10, 10));
    // One sample from the middle of every block.
    for by in 0..10 {
        for bx in 0..10 {
            assert_eq!(img.luma[by * 10 + bx], (10 * (bx + by)) as u8);
        }
    }
}

#[test]
fn hostile_inputs_do_not_panic() {
    assert_eq!(
        reimburse_pdf_text::page_images(b"nope"),
        Err(reimburse_pdf_text::Error::NotPdf)
    );
    let bytes = images_pdf();
    for end in (0..bytes.len()).step_by(13) {
        let _ = reimburse_pdf_text::page_images(&bytes[..end]);
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..300 {
        let mut mutated = bytes.clone();
        for _ in 0..8 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let i = (state % mutated.len() as u64) as usize;
            mutated[i] = (state >> 32) as u8;
        }
        let _ = reimburse_pdf_text::page_images(&mutated);
    }
}

#[test]
fn text_parse_is_unaffected_by_images() {
    let doc = reimburse_pdf_text::parse(&images_pdf()).unwrap();
    assert_eq!(doc.pages.len(), 2);
    assert!(doc.plain_text().trim().is_empty());
}

#[test]
fn many_large_blank_images_stay_within_the_document_budget() {
    // 100 distinct 2000×2000 white images: 400 KB of PDF, 400 MB if all were decoded.
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let blank = zlib(&vec![255u8; 2000 * 2000]);
    let mut xobjects = Dictionary::new();
    let mut content = Vec::new();
    for i in 0..100 {
        let id = doc.add_object(image(
            dictionary! {
                "Width" => 2000, "Height" => 2000, "BitsPerComponent" => 8,
                "ColorSpace" => "DeviceGray", "Filter" => "FlateDecode",
            },
            blank.clone(),
        ));
        xobjects.set(format!("I{i}"), id);
        content.extend(format!("q 100 0 0 100 0 0 cm /I{i} Do Q\n").into_bytes());
    }
    let bytes = one_page(doc, pages_id, content, xobjects);

    let images = reimburse_pdf_text::page_images(&bytes).unwrap();
    let total: usize = images.iter().map(|i| i.luma.len()).sum();
    assert!(!images.is_empty());
    assert!(total <= 128 << 20, "{total} bytes of pixels returned");
    assert!(images.len() < 100, "{} images", images.len());
}
