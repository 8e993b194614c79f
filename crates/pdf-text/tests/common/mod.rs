//! Builders for small synthetic PDFs shared by the integration tests.

#![allow(dead_code, reason = "each test binary uses a different subset")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use lopdf::{Document, Object, Stream, StringFormat, dictionary};

/// ToUnicode for the Identity-H font: CIDs 1, 2, 3 -> 发, 票, A.
const TO_UNICODE: &[u8] = b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /Test-UCS def /CMapType 2 def
1 begincodespacerange <0000> <FFFF> endcodespacerange
2 beginbfchar <0001> <53D1> <0002> <7968> endbfchar
1 beginbfrange <0003> <0003> [<0041>] endbfrange
endcmap CMapName currentdict /CMap defineresource pop end end";

fn stream(dict: lopdf::Dictionary, content: &[u8], compress: bool) -> Stream {
    let mut s = Stream::new(dict, content.to_vec());
    if compress {
        s.compress().unwrap();
    }
    s
}

fn filespec(doc: &mut Document, name: &str, data: &[u8]) -> lopdf::ObjectId {
    let ef = doc.add_object(stream(dictionary! { "Type" => "EmbeddedFile" }, data, true));
    doc.add_object(dictionary! {
        "Type" => "Filespec",
        "F" => Object::String(name.as_bytes().to_vec(), StringFormat::Literal),
        "UF" => Object::String(name.as_bytes().to_vec(), StringFormat::Literal),
        "EF" => dictionary! { "F" => ef },
    })
}

/// A one-page A4 PDF with:
/// - `Invoice No: 12345` in Helvetica/WinAnsi at (72, 720), 12 pt;
/// - `发票A` in a Type0 Identity-H font with ToUnicode at (72, 700), 10.5 pt;
/// - `发票号码:1` in STSong-Light UniGB-UCS2-H (no ToUnicode) at (72, 680), 9 pt;
/// - `In form` via a form XObject (matrix translate 300,100) under a 0.5 cm;
/// - `Loop` in a form that calls itself;
/// - an embedded `rai_issuer_1.xml` under a name tree with /Kids, and a
///   `note.txt` file attachment annotation;
/// - a stamp annotation whose appearance shows `Stamped` at (404, 405),
///   horizontally scaled 2x, and a hidden one showing `Hidden`;
/// - a page tree whose /Kids also lists the tree root (a cycle).
pub fn sample_pdf(compress: bool) -> Vec<u8> {
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();

    let f1 = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica", "Encoding" => "WinAnsiEncoding",
    });
    let to_unicode = doc.add_object(stream(dictionary! {}, TO_UNICODE, compress));
    let cid2 = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "CIDFontType2", "BaseFont" => "ABCDEF+SimSun",
        "CIDSystemInfo" => dictionary! {
            "Registry" => Object::string_literal("Adobe"),
            "Ordering" => Object::string_literal("Identity"),
            "Supplement" => 0,
        },
        "DW" => 1000,
        "W" => vec![3.into(), vec![500.into()].into()],
    });
    let f2 = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "ABCDEF+SimSun",
        "Encoding" => "Identity-H", "DescendantFonts" => vec![cid2.into()], "ToUnicode" => to_unicode,
    });
    let cid3 = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "CIDFontType0", "BaseFont" => "STSong-Light",
        "CIDSystemInfo" => dictionary! {
            "Registry" => Object::string_literal("Adobe"),
            "Ordering" => Object::string_literal("GB1"),
            "Supplement" => 4,
        },
        "W" => vec![1.into(), 95.into(), 500.into()],
    });
    let f3 = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "STSong-Light-UniGB-UCS2-H",
        "Encoding" => "UniGB-UCS2-H", "DescendantFonts" => vec![cid3.into()],
    });

    let form = doc.add_object(stream(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), 0.into(), 200.into(), 50.into()],
            "Matrix" => vec![1.into(), 0.into(), 0.into(), 1.into(), 300.into(), 100.into()],
            "Resources" => dictionary! { "Font" => dictionary! { "F1" => f1 } },
        },
        b"BT /F1 10 Tf 0 0 Td (In form) Tj ET",
        compress,
    ));
    // A form whose resources name itself: must be entered once, not forever.
    let looping = doc.new_object_id();
    let looping_stream = stream(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), 0.into(), 100.into(), 100.into()],
            "Resources" => dictionary! {
                "Font" => dictionary! { "F1" => f1 },
                "XObject" => dictionary! { "Fm2" => looping },
            },
        },
        b"BT /F1 8 Tf 72 600 Td (Loop) Tj ET /Fm2 Do",
        compress,
    );
    doc.objects.insert(looping, Object::Stream(looping_stream));

    let content = b"BT /F1 12 Tf 72 720 Td (Invoice No: 12345) Tj ET
BT /F2 10.5 Tf 1 0 0 1 72 700 Tm <000100020003> Tj ET
BT /F3 9 Tf 1 0 0 1 72 680 Tm <53D1796853F77801003A0031> Tj ET
q 0.5 0 0 0.5 0 0 cm /Fm1 Do Q
/Fm2 Do";
    let content_id = doc.add_object(stream(dictionary! {}, content, compress));

    let note = filespec(&mut doc, "note.txt", b"hello attachment");
    let annot = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "FileAttachment",
        "Rect" => vec![0.into(), 0.into(), 10.into(), 10.into()],
        "FS" => note,
    });

    // Annotation appearances: a visible stamp scaled 2x horizontally onto
    // its rectangle, and a hidden one.
    let mut appearance = |text: &str| {
        doc.add_object(stream(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Form",
                "BBox" => vec![0.into(), 0.into(), 50.into(), 20.into()],
                "Resources" => dictionary! { "Font" => dictionary! { "F1" => f1 } },
            },
            format!("BT /F1 10 Tf 2 5 Td ({text}) Tj ET").as_bytes(),
            compress,
        ))
    };
    let stamped = appearance("Stamped");
    let hidden = appearance("Hidden");
    let stamp = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Stamp",
        "Rect" => vec![400.into(), 400.into(), 500.into(), 420.into()],
        "AP" => dictionary! { "N" => stamped },
    });
    let hidden_stamp = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Stamp", "F" => 2,
        "Rect" => vec![400.into(), 300.into(), 500.into(), 320.into()],
        "AP" => dictionary! { "N" => hidden },
    });

    let page = doc.add_object(dictionary! {
        "Type" => "Page",
        "Parent" => pages_id,
        "Contents" => content_id,
        "Resources" => dictionary! {
            "Font" => dictionary! { "F1" => f1, "F2" => f2, "F3" => f3 },
            "XObject" => dictionary! { "Fm1" => form, "Fm2" => looping },
        },
        "Annots" => vec![annot.into(), stamp.into(), hidden_stamp.into()],
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => vec![page.into(), pages_id.into()],
            "Count" => 1,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );

    let xml = filespec(
        &mut doc,
        "rai_issuer_1.xml",
        b"<?xml version=\"1.0\"?><Ticket/>",
    );
    let leaf = doc.add_object(dictionary! {
        "Limits" => vec![Object::string_literal("rai_issuer_1.xml"), Object::string_literal("rai_issuer_1.xml")],
        "Names" => vec![Object::string_literal("rai_issuer_1.xml"), xml.into()],
    });
    let catalog = doc.add_object(dictionary! {
        "Type" => "Catalog",
        "Pages" => pages_id,
        "Names" => dictionary! { "EmbeddedFiles" => dictionary! { "Kids" => vec![leaf.into()] } },
    });
    doc.trailer.set("Root", catalog);

    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// A minimal valid PDF whose page shows `text` in Helvetica.
pub fn simple_pdf(text: &str) -> Document {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(
        dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica" },
    );
    let content = format!("BT /F1 12 Tf 100 700 Td ({text}) Tj ET");
    let content_id = doc.add_object(Stream::new(dictionary! {}, content.into_bytes()));
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
        "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(
            dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 },
        ),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    doc
}
