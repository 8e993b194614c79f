//! The package of a mixed session, read back with poppler (`pdfinfo`, `pdftotext`) the way a
//! reviewer or a finance office would: page 1's content, the page count the layout rules give,
//! invoice pages still vector (their text extractable), a custom template, hostile files.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

use domain::Cents;
use reimburse_claim_print::{
    Attachment, CardPayment, ClaimHeader, ClaimInput, InvoiceInput, PaymentInput, SlotSize,
    Template, render,
};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(fixtures().join(path)).unwrap()
}

fn invoice(row: usize, file: &str, size: SlotSize) -> InvoiceInput {
    let record: serde_json::Value = serde_json::from_slice(&read(
        &file.replace(".pdf", ".json").replace(".ofd", ".json"),
    ))
    .unwrap();
    let text = |k: &str| record[k].as_str().unwrap_or_default().to_owned();
    let pdf = file.ends_with(".pdf");
    InvoiceInput {
        row: row.to_string(),
        number: text("invoice_number"),
        date: text("invoice_date"),
        item: record["items"][0]["name"]
            .as_str()
            .unwrap_or("铁路客票")
            .to_owned(),
        seller: record["seller"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        amount: Cents::parse(&text("total_with_tax")).ok(),
        size,
        attachment: if pdf {
            Attachment::Pdf(read(file))
        } else {
            Attachment::Card
        },
        file: file.rsplit('/').next().unwrap_or_default().to_owned(),
        details: vec![
            ("发票号码".into(), text("invoice_number")),
            ("开票日期".into(), text("invoice_date")),
            (
                "销售方".into(),
                record["seller"]["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
            ),
            ("价税合计".into(), text("total_with_tax")),
        ],
    }
}

fn payment(file: &str, pays: &str) -> PaymentInput {
    PaymentInput {
        file: file.to_owned(),
        image: read(&format!("screenshots/{file}")),
        amount: "1.00".into(),
        date: "2024/07/05".into(),
        pays_row: Some(pays.to_owned()),
    }
}

/// 2 VAT invoices, 5 railway tickets, 1 OFD and 3 screenshots (paying VAT 1, VAT 2, ticket 3).
pub fn mixed() -> ClaimInput {
    let mut invoices = vec![
        invoice(1, "invoices/vat_e_normal.pdf", SlotSize::Half),
        invoice(2, "invoices/digital_normal_single.pdf", SlotSize::Half),
    ];
    for row in 3..=7 {
        let mut ticket = invoice(row, "invoices/railway_ticket.pdf", SlotSize::Quarter);
        ticket.number = format!("{}{row}", &ticket.number[..19]);
        invoices.push(ticket);
    }
    invoices.push(invoice(
        8,
        "invoices/digital_special_ofd.ofd",
        SlotSize::Half,
    ));
    ClaimInput {
        header: ClaimHeader {
            institution: "示例大学".into(),
            title: "差旅费报销单".into(),
            claim_no: None,
            claimant: "赵晓岚".into(),
            person_id: "T2024001".into(),
            kind: "差旅".into(),
            purpose: "参加学术会议".into(),
            trip: "宁波 → 杭州，2025/03/28–2025/03/30".into(),
            date: "2025-04-03".into(),
            card: vec![CardPayment {
                tail: "1569".into(),
                date: "2024/07/05".into(),
                amount: "155.00".into(),
                row: "1".into(),
            }],
        },
        invoices,
        payments: vec![
            payment("alipay_bill_01.png", "1"),
            payment("alipay_bill_02.png", "2"),
            payment("alipay_bill_03.png", "3"),
        ],
    }
}

fn write_temp(pdf: &[u8]) -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), pdf).unwrap();
    file
}

fn pages(pdf: &Path) -> usize {
    let info = Command::new("pdfinfo").arg(pdf).output().unwrap();
    assert!(info.status.success(), "pdfinfo refused the package");
    let text = String::from_utf8_lossy(&info.stdout).into_owned();
    text.lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap()
}

fn text(pdf: &Path, first: usize, last: usize) -> String {
    let out = Command::new("pdftotext")
        .args(["-f", &first.to_string(), "-l", &last.to_string(), "-layout"])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_mixed_session_gives_the_claim_and_its_sheets() {
    let input = mixed();
    let rendered = render(&input, &Template::Default).unwrap();
    let file = write_temp(&rendered.pdf);
    // 报销单 + one half sheet (VAT 1, VAT 2) + one (OFD) + quarter sheets of 5 tickets and the
    // screenshot paying ticket 3: 6 cells, two sheets.
    assert_eq!(rendered.sheets, 4);
    assert_eq!(pages(file.path()), 5);
    assert_eq!(rendered.pages, 5);

    let first = text(file.path(), 1, 1);
    for invoice in &input.invoices {
        assert!(
            first.contains(&invoice.number),
            "{} missing:\n{first}",
            invoice.number
        );
    }
    let total = input
        .invoices
        .iter()
        .filter_map(|i| i.amount)
        .fold(Cents(0), |s, a| s.checked_add(a).unwrap());
    assert!(
        first.contains(&total.to_string()),
        "total {total} missing:\n{first}"
    );
    assert!(
        first.contains(&total.to_capital()),
        "capitals missing:\n{first}"
    );
    for expected in [
        "赵晓岚",
        "T2024001",
        "待提交",
        "参加学术会议",
        "1569",
        "部门负责人",
        "财务审核",
        "审批",
    ] {
        assert!(first.contains(expected), "{expected} missing:\n{first}");
    }
    assert!(first.contains("11"), "the attachment count:\n{first}");
}

#[test]
fn invoice_pages_stay_vector_with_their_text() {
    let rendered = render(&mixed(), &Template::Default).unwrap();
    let file = write_temp(&rendered.pdf);
    let sheets = text(file.path(), 2, 5);
    // Text that only the invoices' own pages carry (the card and page 1 do not print it).
    for expected in ["上海样例文化传播有限公司", "积木套装", "G7356", "宁波"] {
        assert!(
            sheets.contains(expected),
            "{expected} not extractable:\n{sheets}"
        );
    }
    assert!(sheets.contains("粘贴单"));
    assert!(sheets.contains("本页小计"));
    // The OFD invoice as its card.
    assert!(sheets.contains("OFD 电子发票"), "{sheets}");
}

#[test]
fn a_hostile_invoice_becomes_its_card_with_a_note() {
    let mut input = mixed();
    input.invoices[0].attachment =
        Attachment::Pdf(b"%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage".to_vec());
    input.invoices[1].attachment = Attachment::Pdf(vec![b'%'; 11 * 1024 * 1024]);
    input.payments[0].image = b"not an image".to_vec();
    let rendered = render(&input, &Template::Default).unwrap();
    assert_eq!(rendered.pages, 5);
    assert_eq!(rendered.notes.len(), 3, "{:?}", rendered.notes);
    let file = write_temp(&rendered.pdf);
    let sheets = text(file.path(), 2, 2);
    assert!(sheets.contains("数据卡片"), "{sheets}");
    assert!(rendered.pdf.len() < 2 * 1024 * 1024);
}

#[test]
fn a_custom_template_is_used_with_files_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("motto.txt"), "求是创新").unwrap();
    let template = dir.path().join("本校报销单.typ");
    std::fs::write(
        &template,
        "#let data = json(\"claim.json\")\n#set text(font: \"Noto Sans CJK SC\")\n= 本校专用报销单\n#read(\"motto.txt\")\n\n合计 #data.total.capitals\n",
    )
    .unwrap();
    let rendered = render(&mixed(), &Template::File(template)).unwrap();
    let file = write_temp(&rendered.pdf);
    let first = text(file.path(), 1, 1);
    assert!(first.contains("本校专用报销单"), "{first}");
    assert!(first.contains("求是创新"), "{first}");
    assert!(
        first.contains("整") || first.contains("分") || first.contains("角"),
        "{first}"
    );
}

#[test]
fn a_broken_template_is_an_error_that_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("坏模板.typ");
    std::fs::write(&template, "#let x = (\n").unwrap();
    let error = render(&mixed(), &Template::File(template)).unwrap_err();
    assert!(error.to_string().contains("模板"), "{error}");
    let missing = render(&mixed(), &Template::File(dir.path().join("无.typ"))).unwrap_err();
    assert!(missing.to_string().contains("无.typ"), "{missing}");
    // No package from the network: an import of a package fails instead of downloading.
    let import = dir.path().join("import.typ");
    std::fs::write(&import, "#import \"@preview/tablex:0.0.8\": tablex\n").unwrap();
    assert!(render(&mixed(), &Template::File(import)).is_err());
}

/// Every page of the fixture package as a PNG in target/screenshots, for a reviewer to look at.
#[test]
fn pictures_of_every_page() {
    let rendered = render(&mixed(), &Template::Default).unwrap();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    let dir = target.join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let pdf = dir.join("报销材料.pdf");
    std::fs::write(&pdf, &rendered.pdf).unwrap();
    let status = Command::new("pdftoppm")
        .args(["-png", "-r", "60"])
        .arg(&pdf)
        .arg(dir.join("报销材料"))
        .status()
        .unwrap();
    assert!(status.success());
    let pngs = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("报销材料-") && name.ends_with(".png")
        })
        .count();
    assert!(pngs >= rendered.pages);
    let preview = reimburse_claim_print::preview_png(&rendered.pdf).unwrap();
    assert!(preview.starts_with(b"\x89PNG"));
}
