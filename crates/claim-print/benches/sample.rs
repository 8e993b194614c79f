//! Claims built from the project's own fixtures (fixtures/invoices, fixtures/screenshots), for
//! the bench and the docs' pictures.

use domain::Cents;
use reimburse_claim_print::{
    Attachment, CardPayment, ClaimHeader, ClaimInput, InvoiceInput, PaymentInput, SlotSize,
};
use std::path::{Path, PathBuf};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(fixtures().join(path)).unwrap_or_default()
}

/// The invoice PDFs the fixtures hold, with their golden records.
const INVOICES: [&str; 8] = [
    "vat_e_normal.pdf",
    "digital_normal_single.pdf",
    "railway_ticket.pdf",
    "digital_normal_multi.pdf",
    "air_itinerary.pdf",
    "railway_ticket.pdf",
    "toll.pdf",
    "digital_special_ofd.ofd",
];

fn invoice(row: usize, file: &str) -> InvoiceInput {
    let golden = read(&format!(
        "invoices/{}",
        file.replace(".pdf", ".json").replace(".ofd", ".json")
    ));
    let record: serde_json::Value = serde_json::from_slice(&golden).unwrap_or_default();
    let text = |k: &str| record[k].as_str().unwrap_or_default().to_owned();
    let seller = record["seller"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    InvoiceInput {
        row: row.to_string(),
        number: text("invoice_number"),
        date: text("invoice_date"),
        item: record["items"][0]["name"]
            .as_str()
            .unwrap_or("铁路客票")
            .to_owned(),
        seller: seller.clone(),
        amount: Cents::parse(&text("total_with_tax")).ok(),
        size: if file.starts_with("railway") {
            SlotSize::Quarter
        } else {
            SlotSize::Half
        },
        attachment: if file.ends_with(".pdf") {
            Attachment::Pdf(read(&format!("invoices/{file}")))
        } else {
            Attachment::Card
        },
        file: file.to_owned(),
        details: vec![
            ("发票号码".into(), text("invoice_number")),
            ("开票日期".into(), text("invoice_date")),
            ("销售方".into(), seller),
            ("价税合计".into(), text("total_with_tax")),
        ],
    }
}

/// `invoices` invoices cycling through the fixtures, `screenshots` screenshots each paying the
/// invoice of its own row (those beyond the invoices pay none).
pub fn claim(invoices: usize, screenshots: usize) -> ClaimInput {
    let shots: Vec<String> = std::fs::read_dir(fixtures().join("screenshots"))
        .map(|d| {
            let mut names: Vec<String> = d
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".png"))
                .collect();
            names.sort();
            names
        })
        .unwrap_or_default();
    let invoices: Vec<InvoiceInput> = (0..invoices)
        .map(|i| invoice(i + 1, INVOICES[i % INVOICES.len()]))
        .collect();
    let payments = (0..screenshots)
        .map(|j| {
            let name = shots
                .get(j % shots.len().max(1))
                .cloned()
                .unwrap_or_default();
            PaymentInput {
                image: read(&format!("screenshots/{name}")),
                file: name,
                amount: invoices
                    .get(j)
                    .and_then(|i| i.amount)
                    .unwrap_or_default()
                    .to_string(),
                date: "2025/03/28".into(),
                pays_row: (j < invoices.len()).then(|| (j + 1).to_string()),
            }
        })
        .collect();
    ClaimInput {
        header: ClaimHeader {
            institution: "示例大学".into(),
            title: "差旅费报销单".into(),
            claim_no: Some("BX20250403001".into()),
            claimant: "赵晓岚".into(),
            person_id: "T2024001".into(),
            kind: "差旅".into(),
            purpose: "参加学术会议".into(),
            trip: "宁波 → 杭州，2025/03/28–2025/03/30".into(),
            date: "2025-04-03".into(),
            card: vec![CardPayment {
                tail: "1569".into(),
                date: "2025/03/28".into(),
                amount: "155.00".into(),
                row: "1".into(),
            }],
        },
        invoices,
        payments,
    }
}
