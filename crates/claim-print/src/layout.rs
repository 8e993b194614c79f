//! Which item goes on which 粘贴单 sheet, decided before the template sees anything: half
//! sheets hold two invoices (VAT invoices, itineraries, cards) with the screenshots that pay
//! them beside them, quarter sheets four railway tickets with their screenshots after them,
//! then the screenshots no invoice took, four to a sheet. Page counts follow from these rules
//! alone, whatever template draws them.

use crate::guard::{MAX_TOTAL_BYTES, PdfCheck, check_image, check_pdf};
use crate::model::{Attachment, ClaimInput, InvoiceInput, PaymentInput, SlotSize};
use domain::Cents;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};

/// Screenshots placed beside one half-sheet invoice; more follow at the end.
const BESIDE: usize = 2;

/// The template's data and the virtual files it reads.
#[derive(Debug, Clone)]
pub struct Plan {
    /// `claim.json`.
    pub data: Value,
    /// Virtual files by path (`files/…`), `claim.json` among them.
    pub files: Vec<(String, Vec<u8>)>,
    /// The number of 粘贴单 sheets.
    pub sheets: usize,
    /// Invoice PDFs placed, by virtual path and invoice index (to find a culprit).
    pub(crate) placed_pdfs: Vec<(String, usize)>,
}

/// Lays out a claim; `as_card` names invoices (by index) to draw as cards whatever they are,
/// with the note saying why (a page typst could not place).
pub fn plan(input: &ClaimInput, as_card: &HashMap<usize, String>) -> Plan {
    let mut budget = MAX_TOTAL_BYTES;
    let mut files = Vec::new();
    let mut placed_pdfs = Vec::new();
    let mut paid_by: BTreeMap<usize, Vec<Value>> = BTreeMap::new();
    let mut leftovers = Vec::new();
    let index_of: HashMap<&str, usize> = input
        .invoices
        .iter()
        .enumerate()
        .map(|(i, inv)| (inv.row.as_str(), i))
        .rev()
        .collect();
    for (j, payment) in input.payments.iter().enumerate() {
        let slot = payment_slot(j, payment, &mut files, &mut budget);
        match payment.pays_row.as_deref().and_then(|r| index_of.get(r)) {
            Some(&i) => paid_by.entry(i).or_default().push(slot),
            None => leftovers.push(slot),
        }
    }

    let (mut halves, mut quarters) = (Vec::new(), Vec::new());
    for (i, invoice) in input.invoices.iter().enumerate() {
        let mut slots = invoice_slots(i, invoice, as_card.get(&i), &mut files, &mut budget);
        for slot in &slots {
            if let (Some(file), Some("page")) = (slot["file"].as_str(), slot["type"].as_str())
                && slot["page"] == 1
            {
                placed_pdfs.push((file.to_owned(), i));
            }
        }
        let payments = paid_by.remove(&i).unwrap_or_default();
        match invoice.size {
            SlotSize::Half => {
                let mut payments = payments.into_iter();
                if let Some(first) = slots.first_mut() {
                    first["beside"] = Value::Array(payments.by_ref().take(BESIDE).collect());
                }
                leftovers.extend(payments);
                halves.extend(slots);
            }
            SlotSize::Quarter => {
                quarters.append(&mut slots);
                quarters.extend(payments);
            }
        }
    }

    let mut sheets = Vec::new();
    for (size, items, per_sheet) in [
        ("half", halves, 2),
        ("quarter", quarters, 4),
        ("quarter", leftovers, 4),
    ] {
        for chunk in items.chunks(per_sheet) {
            sheets.push(sheet(size, chunk));
        }
    }
    let count = sheets.len();
    for (k, sheet) in sheets.iter_mut().enumerate() {
        sheet["number"] = json!(k + 1);
        sheet["count"] = json!(count);
    }
    let data = claim_data(input, sheets);
    if let Ok(bytes) = serde_json::to_vec(&data) {
        files.push(("claim.json".to_owned(), bytes));
    }
    Plan {
        data,
        files,
        sheets: count,
        placed_pdfs,
    }
}

/// The template's whole data: header, rows, totals, card payments and sheets.
fn claim_data(input: &ClaimInput, sheets: Vec<Value>) -> Value {
    let h = &input.header;
    let total = input
        .invoices
        .iter()
        .filter_map(|i| i.amount)
        .fold(Cents(0), |sum, a| sum.checked_add(a).unwrap_or(sum));
    let rows: Vec<Value> = input
        .invoices
        .iter()
        .map(|i| {
            json!({"row": i.row, "number": i.number, "date": i.date, "item": i.item,
                   "seller": i.seller, "amount": amount_text(i.amount)})
        })
        .collect();
    let card: Vec<Value> = h
        .card
        .iter()
        .map(|c| json!({"tail": c.tail, "date": c.date, "amount": c.amount, "row": c.row}))
        .collect();
    json!({
        "header": {
            "institution": h.institution,
            "title": h.title,
            "claim_no": h.claim_no.clone().unwrap_or_else(|| "待提交".to_owned()),
            "submitted": h.claim_no.is_some(),
            "claimant": h.claimant,
            "person_id": h.person_id,
            "kind": h.kind,
            "purpose": h.purpose,
            "trip": h.trip,
            "date": h.date,
        },
        "rows": rows,
        "total": {"figures": total.to_string(), "capitals": total.to_capital()},
        "missing_amounts": input.invoices.iter().filter(|i| i.amount.is_none()).map(|i| i.row.clone()).collect::<Vec<_>>(),
        "attachments": input.invoices.len() + input.payments.len(),
        "card": card,
        "sheets": sheets,
    })
}

fn amount_text(amount: Option<Cents>) -> String {
    amount.map_or_else(|| "—".to_owned(), |a| a.to_string())
}

/// One sheet: its slots and the subtotal of the invoices on it.
fn sheet(size: &str, slots: &[Value]) -> Value {
    let subtotal = slots
        .iter()
        .filter(|s| s["type"] != "payment" && s["continued"] != true)
        .filter_map(|s| s["amount"].as_str().and_then(|a| Cents::parse(a).ok()))
        .fold(Cents(0), |sum, a| sum.checked_add(a).unwrap_or(sum));
    json!({"size": size, "slots": slots, "subtotal": subtotal.to_string(),
           "subtotal_capitals": subtotal.to_capital()})
}

/// A screenshot's slot; its image becomes a virtual file when it may be placed.
fn payment_slot(
    j: usize,
    payment: &PaymentInput,
    files: &mut Vec<(String, Vec<u8>)>,
    budget: &mut usize,
) -> Value {
    let mut slot = json!({"type": "payment", "name": payment.file, "row": payment.pays_row,
        "amount": payment.amount, "date": payment.date, "file": null, "note": ""});
    match check_image(&payment.image) {
        Ok(_) if payment.image.len() > *budget => {
            slot["note"] = json!("材料总量已达上限，截图未放入");
        }
        Ok(format) => {
            let path = format!("files/pay-{}.{}", j + 1, format.extension());
            *budget -= payment.image.len();
            files.push((path.clone(), payment.image.clone()));
            slot["file"] = json!(path);
        }
        Err(note) => slot["note"] = json!(note),
    }
    slot
}

/// The slots of one invoice: one per placed page, or its card.
fn invoice_slots(
    i: usize,
    invoice: &InvoiceInput,
    forced: Option<&String>,
    files: &mut Vec<(String, Vec<u8>)>,
    budget: &mut usize,
) -> Vec<Value> {
    let base = json!({"row": invoice.row, "number": invoice.number,
        "amount": amount_text(invoice.amount), "note": "", "beside": [], "continued": false});
    let check = match (&invoice.attachment, forced) {
        (_, Some(note)) => PdfCheck::Card(note.clone()),
        (Attachment::Card, None) => return vec![card_slot(base, invoice, "")],
        (Attachment::Pdf(bytes), None) if bytes.len() > *budget => {
            PdfCheck::Card("材料总量已达上限，以数据卡片代替".into())
        }
        (Attachment::Pdf(bytes), None) => check_pdf(bytes),
    };
    let (placed, pages) = match check {
        PdfCheck::Pages { placed, pages } => (placed, pages),
        PdfCheck::Card(note) => return vec![card_slot(base, invoice, &note)],
    };
    let Attachment::Pdf(bytes) = &invoice.attachment else {
        return vec![card_slot(base, invoice, "")];
    };
    let path = format!("files/invoice-{}.pdf", i + 1);
    *budget -= bytes.len();
    files.push((path.clone(), bytes.clone()));
    (1..=placed)
        .map(|page| {
            let mut slot = base.clone();
            slot["type"] = json!("page");
            slot["file"] = json!(path);
            slot["page"] = json!(page);
            slot["continued"] = json!(page > 1);
            if page == placed && pages > placed {
                slot["note"] = json!(format!("原件共 {pages} 页，仅附前 {placed} 页"));
            }
            slot
        })
        .collect()
}

fn card_slot(mut slot: Value, invoice: &InvoiceInput, note: &str) -> Value {
    let lower = invoice.file.to_ascii_lowercase();
    let title = if lower.ends_with(".ofd") {
        "OFD 电子发票"
    } else if lower.ends_with(".xml") {
        "数电发票（XML）"
    } else {
        "发票数据"
    };
    let lines: Vec<Value> = invoice
        .details
        .iter()
        .map(|(label, value)| json!([label, value]))
        .collect();
    slot["type"] = json!("card");
    slot["title"] = json!(title);
    slot["lines"] = Value::Array(lines);
    slot["file_name"] = json!(invoice.file);
    slot["note"] = json!(note);
    slot
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invoice(row: &str, size: SlotSize, amount: i64) -> InvoiceInput {
        InvoiceInput {
            row: row.into(),
            amount: Some(Cents(amount)),
            size,
            ..InvoiceInput::default()
        }
    }

    #[test]
    fn halves_two_a_sheet_quarters_four_and_leftover_screenshots_last() {
        let mut input = ClaimInput::default();
        for (row, size) in [
            ("1", SlotSize::Half),
            ("2", SlotSize::Quarter),
            ("3", SlotSize::Half),
            ("4", SlotSize::Half),
            ("5", SlotSize::Quarter),
        ] {
            input.invoices.push(invoice(row, size, 10_000));
        }
        for pays in [Some("1"), Some("2"), None, Some("9")] {
            input.payments.push(PaymentInput {
                pays_row: pays.map(str::to_owned),
                ..PaymentInput::default()
            });
        }
        let plan = plan(&input, &HashMap::new());
        let sheets = plan.data["sheets"].as_array().unwrap();
        // halves 1, 3 | 4; quarters 2, its screenshot, 5; leftovers: two screenshots.
        assert_eq!(plan.sheets, 4);
        assert_eq!(sheets[0]["slots"][0]["beside"].as_array().unwrap().len(), 1);
        assert_eq!(sheets[0]["subtotal"], "200.00");
        assert_eq!(sheets[2]["slots"].as_array().unwrap().len(), 3);
        assert_eq!(sheets[2]["subtotal"], "200.00");
        assert_eq!(sheets[3]["slots"].as_array().unwrap().len(), 2);
        assert_eq!(plan.data["total"]["capitals"], "伍佰元整");
        assert_eq!(plan.data["header"]["claim_no"], "待提交");
        assert_eq!(plan.data["attachments"], 9);
    }
}
