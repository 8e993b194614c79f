//! The generated fixtures: deterministic, readable by the project's PDF reader, consistent with
//! their golden records, and identical to the files committed in `fixtures/invoices/`.

use std::collections::BTreeSet;
use std::io::Read as _;
use std::path::PathBuf;

use domain::{DocumentType, InvoiceRecord};
use reimburse_invoice_fixtures::Fixture;

fn committed_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/invoices")
}

fn pdfs(fixtures: &[Fixture]) -> impl Iterator<Item = &Fixture> {
    fixtures.iter().filter(|f| f.file_name.ends_with(".pdf"))
}

/// `1,234.50` / `-2.92` / `***` to cents (`***` is 0).
#[expect(
    clippy::unwrap_used,
    reason = "a malformed golden amount fails the calling test"
)]
fn cents(text: &str) -> i64 {
    if text == "***" || text.is_empty() {
        return 0;
    }
    let negative = text.starts_with('-');
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    let value: i64 = digits.parse().unwrap();
    assert!(text.contains('.'), "{text} has no decimals");
    if negative { -value } else { value }
}

#[test]
fn generation_is_deterministic() {
    let first = reimburse_invoice_fixtures::all();
    let second = reimburse_invoice_fixtures::all();
    assert_eq!(first.len(), second.len());
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(a.file_name, b.file_name);
        assert!(a.bytes == b.bytes, "{} differs between runs", a.file_name);
        assert_eq!(a.golden_json().unwrap(), b.golden_json().unwrap());
    }
}

#[test]
fn committed_files_are_up_to_date() {
    let dir = committed_dir();
    let fixtures = reimburse_invoice_fixtures::all();
    let mut expected_names = BTreeSet::from(["README.md".to_owned()]);
    let mut expected_ocr = BTreeSet::new();
    for fixture in &fixtures {
        let hint = "regenerate with `cargo xtask fixtures`";
        let (dir, names) = if fixture.ocr {
            (dir.join("ocr"), &mut expected_ocr)
        } else {
            (dir.clone(), &mut expected_names)
        };
        let on_disk = std::fs::read(dir.join(&fixture.file_name))
            .unwrap_or_else(|e| panic!("{}: {e}; {hint}", fixture.file_name));
        assert!(
            on_disk == fixture.bytes,
            "{} is stale; {hint}",
            fixture.file_name
        );
        let golden = std::fs::read_to_string(dir.join(fixture.golden_file_name())).unwrap();
        assert_eq!(
            golden,
            fixture.golden_json().unwrap(),
            "{} is stale; {hint}",
            fixture.golden_file_name()
        );
        let parsed: InvoiceRecord = serde_json::from_str(&golden).unwrap();
        assert_eq!(parsed, fixture.expected);
        names.insert(fixture.file_name.clone());
        names.insert(fixture.golden_file_name());
    }
    let listing = |dir: &std::path::Path| -> BTreeSet<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    expected_names.insert("ocr".to_owned());
    assert_eq!(
        listing(&dir),
        expected_names,
        "fixtures/invoices holds files the generator does not make"
    );
    assert_eq!(
        listing(&dir.join("ocr")),
        expected_ocr,
        "fixtures/invoices/ocr holds files the generator does not make"
    );
}

#[test]
fn the_set_is_small() {
    let fixtures = reimburse_invoice_fixtures::all();
    let total: usize = fixtures
        .iter()
        .map(|f| f.bytes.len() + f.golden_json().unwrap().len())
        .sum();
    assert!(total < 300_000, "{total} bytes");
    for fixture in &fixtures {
        assert!(
            fixture.bytes.len() < 16_000,
            "{} is {} bytes",
            fixture.file_name,
            fixture.bytes.len()
        );
    }
}

#[test]
fn every_layout_is_covered() {
    let fixtures = reimburse_invoice_fixtures::all();
    let types: BTreeSet<String> = fixtures
        .iter()
        .map(|f| format!("{:?}", f.expected.doc_type))
        .collect();
    for doc_type in [
        DocumentType::DigitalNormal,
        DocumentType::DigitalSpecial,
        DocumentType::Railway,
        DocumentType::AirItinerary,
        DocumentType::VatENormal,
        DocumentType::Toll,
        DocumentType::GeneralMachine,
    ] {
        assert!(
            types.contains(&format!("{doc_type:?}")),
            "no {doc_type:?} fixture"
        );
    }
    assert!(fixtures.iter().any(|f| f.file_name.ends_with(".xml")));
    assert!(fixtures.iter().any(|f| f.file_name.ends_with(".ofd")));
    assert!(fixtures.iter().any(|f| f.expected.page_count == 2));
    assert!(fixtures.iter().any(|f| !f.expected.flags.is_empty()));
}

#[test]
fn every_pdf_parses_and_prints_its_number_and_total() {
    let fixtures = reimburse_invoice_fixtures::all();
    for fixture in pdfs(&fixtures) {
        let doc = pdf_text::parse(&fixture.bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", fixture.file_name));
        let expected = &fixture.expected;
        assert_eq!(
            doc.pages.len() as u32,
            expected.page_count,
            "{}",
            fixture.file_name
        );
        let text = doc.plain_text();
        assert!(
            text.contains(&expected.invoice_number),
            "{}: no number in\n{text}",
            fixture.file_name
        );
        let ungrouped = text.replace(',', "");
        assert!(
            ungrouped.contains(&expected.total_with_tax),
            "{}: no total in\n{text}",
            fixture.file_name
        );
        for item in &expected.items {
            assert!(
                ungrouped.contains(&item.amount),
                "{}: no amount {}",
                fixture.file_name,
                item.amount
            );
        }
        if !expected.seller.tax_id.is_empty() {
            assert!(
                text.contains(&expected.seller.tax_id),
                "{}",
                fixture.file_name
            );
        }
    }
}

#[test]
fn the_railway_ticket_carries_its_xml() {
    let fixtures = reimburse_invoice_fixtures::all();
    let ticket = fixtures
        .iter()
        .find(|f| f.expected.doc_type == DocumentType::Railway)
        .unwrap();
    let doc = pdf_text::parse(&ticket.bytes).unwrap();
    let xml = doc.attachment_with_suffix(".xml").unwrap();
    assert!(
        xml.name.starts_with("rai_issuer_") && xml.name.contains(&ticket.expected.invoice_number)
    );
    let xml = String::from_utf8(xml.data.clone()).unwrap();
    let expected = &ticket.expected;
    let trip = expected.railway.as_ref().unwrap();
    for fact in [
        format!(
            ">{}</rai:ElectronicInvoiceRailwayETicketNumber>",
            expected.invoice_number
        ),
        format!(">{}</rai:Fare>", expected.total_with_tax),
        format!(">{}</rai:TotalAmountExcludingTax>", expected.total_amount),
        format!(">{}</rai:TaxAmount>", expected.total_tax),
        format!(
            ">{}</rai:DateOfIssue>",
            expected.invoice_date.replace('/', "-")
        ),
        format!(">{}</rai:TrainNumber>", trip.train_no),
        format!(">{}</rai:ETicketNumber>", trip.ticket_no),
    ] {
        assert!(xml.contains(&fact), "{fact} missing from {xml}");
    }
}

/// Every image XObject of a PDF, decompressed: (width, height, grey pixels).
#[expect(
    clippy::unwrap_used,
    reason = "a malformed fixture fails the calling test"
)]
fn images(bytes: &[u8]) -> Vec<(usize, usize, Vec<u8>)> {
    let doc = lopdf::Document::load_mem(bytes).unwrap();
    let mut out = Vec::new();
    for object in doc.objects.values() {
        let Ok(stream) = object.as_stream() else {
            continue;
        };
        if stream
            .dict
            .get(b"Subtype")
            .and_then(lopdf::Object::as_name)
            .ok()
            != Some(b"Image".as_slice())
        {
            continue;
        }
        let width = stream
            .dict
            .get(b"Width")
            .and_then(lopdf::Object::as_i64)
            .unwrap() as usize;
        let height = stream
            .dict
            .get(b"Height")
            .and_then(lopdf::Object::as_i64)
            .unwrap() as usize;
        let mut pixels = Vec::new();
        flate2::read::ZlibDecoder::new(stream.content.as_slice())
            .read_to_end(&mut pixels)
            .unwrap();
        out.push((width, height, pixels));
    }
    out
}

#[test]
fn qr_codes_decode_to_the_golden_values() {
    let fixtures = reimburse_invoice_fixtures::all();
    let mut decoded = 0;
    for fixture in pdfs(&fixtures) {
        let expected = &fixture.expected;
        let with_qr = expected.confirmed_by.iter().any(|s| s == "qr");
        let found = images(&fixture.bytes);
        assert_eq!(
            found.len() as u32,
            if with_qr { expected.page_count } else { 0 },
            "{}",
            fixture.file_name
        );
        for (width, height, pixels) in found {
            let mut image = rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| {
                pixels[y * width + x]
            });
            let grids = image.detect_grids();
            assert_eq!(grids.len(), 1, "{}", fixture.file_name);
            let (_, text) = grids[0].decode().unwrap();
            if let Some(query) =
                text.strip_prefix("https://bcfp.shenzhen.chinatax.gov.cn/verify/scan?")
            {
                // The Shenzhen blockchain address: number and total with tax in fen.
                let field = |k: &str| {
                    query
                        .split('&')
                        .find_map(|p| p.strip_prefix(k)?.strip_prefix('='))
                        .unwrap_or_default()
                        .to_owned()
                };
                assert_eq!(field("bill_num"), expected.invoice_number);
                let fen: i64 = field("total_amount").parse().unwrap();
                assert_eq!(
                    format!("{}.{:02}", fen / 100, fen % 100),
                    expected.total_with_tax
                );
                decoded += 1;
                continue;
            }
            if let Some(path) = text.strip_prefix("http://einvoice.jsczt.cn/page/") {
                // A finance bureau's receipt address: code, number, check code.
                let parts: Vec<&str> = path.split('/').collect();
                assert_eq!(parts[0], expected.invoice_code);
                assert_eq!(parts[1], expected.invoice_number);
                decoded += 1;
                continue;
            }
            let fields: Vec<&str> = text.split(',').collect();
            assert_eq!(fields[0], "01");
            assert_eq!(fields[2], expected.invoice_code, "{}", fixture.file_name);
            assert_eq!(fields[3], expected.invoice_number, "{}", fixture.file_name);
            // 数电 and railway codes carry the 价税合计, old formats the pre-tax 金额合计.
            let amount = match expected.doc_type {
                DocumentType::DigitalNormal
                | DocumentType::DigitalSpecial
                | DocumentType::Railway => &expected.total_with_tax,
                _ => &expected.total_amount,
            };
            assert_eq!(fields[4], amount, "{}", fixture.file_name);
            assert_eq!(
                fields[5],
                expected.invoice_date.replace('/', ""),
                "{}",
                fixture.file_name
            );
            assert_eq!(fields[6], expected.check_code, "{}", fixture.file_name);
            decoded += 1;
        }
    }
    assert!(decoded >= 8, "only {decoded} QR codes");
}

#[test]
fn golden_records_follow_the_conventions() {
    let order = ["qr", "xml", "大写", "arith"];
    for fixture in reimburse_invoice_fixtures::all() {
        let r = &fixture.expected;
        let name = &fixture.file_name;
        let positions: Vec<usize> = r
            .confirmed_by
            .iter()
            .map(|s| {
                order
                    .iter()
                    .position(|o| o == s)
                    .unwrap_or_else(|| panic!("{name}: unknown source {s}"))
            })
            .collect();
        assert!(
            positions.windows(2).all(|w| w[0] < w[1]),
            "{name}: {:?}",
            r.confirmed_by
        );
        assert_eq!(r.invoice_date.len(), 10, "{name}");
        assert_eq!(&r.invoice_date[4..5], "/", "{name}");
        assert!(
            r.total_with_tax.contains('.') && !r.total_with_tax.contains(','),
            "{name}"
        );

        if r.confirmed_by.iter().any(|s| s == "arith") {
            match &r.air {
                Some(air) => {
                    let parts = [
                        &air.fare,
                        &air.fuel_surcharge,
                        &air.caac_fund,
                        &air.other_taxes,
                    ];
                    assert_eq!(
                        parts.iter().map(|p| cents(p)).sum::<i64>(),
                        cents(&r.total_with_tax),
                        "{name}"
                    );
                }
                None => {
                    assert_eq!(
                        r.items.iter().map(|i| cents(&i.amount)).sum::<i64>(),
                        cents(&r.total_amount),
                        "{name}"
                    );
                    assert_eq!(
                        r.items.iter().map(|i| cents(&i.tax)).sum::<i64>(),
                        cents(&r.total_tax),
                        "{name}"
                    );
                    assert_eq!(
                        cents(&r.total_amount) + cents(&r.total_tax),
                        cents(&r.total_with_tax),
                        "{name}"
                    );
                }
            }
        }
        let has_words = r.confirmed_by.iter().any(|s| s == "大写");
        let words_flag = r.flags.iter().any(|f| f.source == "大写");
        assert_eq!(
            !r.total_in_words.is_empty(),
            has_words || words_flag,
            "{name}"
        );
        for flag in &r.flags {
            assert_eq!(flag.field, "total_with_tax", "{name}");
            assert_eq!(flag.value, r.total_with_tax, "{name}");
            assert_ne!(flag.other, flag.value, "{name}");
        }

        // The golden form is NFKC: no Kangxi radicals, no full-width forms.
        let json = fixture.golden_json().unwrap();
        let odd: Vec<char> = json
            .chars()
            .filter(|&c| {
                ('\u{2F00}'..='\u{2FDF}').contains(&c)
                    || ('\u{FF01}'..='\u{FF5E}').contains(&c)
                    || c == '\u{FFE5}'
            })
            .collect();
        assert!(odd.is_empty(), "{name}: {odd:?}");
        for item in &r.items {
            assert!(
                !item.name.chars().any(char::is_whitespace),
                "{name}: {}",
                item.name
            );
            // Fiscal receipts (票据) print no tax category.
            assert!(
                item.name.starts_with('*') || r.title.contains("票据"),
                "{name}: {}",
                item.name
            );
        }
    }
}

#[test]
fn the_ofd_is_a_zip_of_xml_with_tagged_values() {
    let fixtures = reimburse_invoice_fixtures::all();
    let ofd = fixtures
        .iter()
        .find(|f| f.file_name.ends_with(".ofd"))
        .unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(ofd.bytes.clone())).unwrap();
    let mut read = |name: &str| {
        let mut text = String::new();
        archive
            .by_name(name)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        text
    };
    assert!(read("OFD.xml").contains("Doc_0/Document.xml"));
    let page = read("Doc_0/Pages/Page_0/Content.xml");
    let r = &ofd.expected;
    for value in [
        &r.invoice_number,
        &r.seller.name,
        &r.buyer.tax_id,
        &r.total_with_tax,
        &r.total_in_words,
        &r.issuer,
    ] {
        assert!(page.contains(value.as_str()), "{value} not on the page");
    }
    let template = read("Doc_0/Tpls/Tpl_0/Content.xml");
    assert!(template.contains("电子发票（增值税专用发票）") && template.contains("开票人："));
    let tags = read("Doc_0/Tags/CustomTag.xml");
    assert!(tags.contains("<ofd:InvoiceNo>") && tags.contains("<ofd:TaxInclusiveTotalAmount>"));
}

#[test]
fn the_xml_states_the_golden_values() {
    let fixtures = reimburse_invoice_fixtures::all();
    let xml = fixtures
        .iter()
        .find(|f| f.file_name.ends_with(".xml"))
        .unwrap();
    let text = String::from_utf8(xml.bytes.clone()).unwrap();
    let r = &xml.expected;
    assert!(text.starts_with("<?xml") && text.contains("<EInvoice>"));
    for element in [
        format!("<EIid>{}</EIid>", r.invoice_number),
        format!(
            "<TotalTax-includedAmount>{}</TotalTax-includedAmount>",
            r.total_with_tax
        ),
        format!(
            "<TotalTax-includedAmountInChinese>{}</TotalTax-includedAmountInChinese>",
            r.total_in_words
        ),
        format!("<SellerName>{}</SellerName>", r.seller.name),
        format!("<BuyerIdNum>{}</BuyerIdNum>", r.buyer.tax_id),
        format!("<Drawer>{}</Drawer>", r.issuer),
        format!(
            "<IssueTime>{}</IssueTime>",
            r.invoice_date.replace('/', "-")
        ),
    ] {
        assert!(text.contains(&element), "{element} missing");
    }
    assert_eq!(text.matches("<IssuItemInformation>").count(), r.items.len());
}
