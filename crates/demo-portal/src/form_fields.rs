//! From submitted field names (`claimant`, `invoice-number-3`, …) to the typed forms.
//!
//! Rows are numbered by the browser (`-0`, `-1`, …, with gaps where a row was deleted); a row
//! exists when any of its fields was sent, and rows keep the order of their numbers.

use crate::model::{GeneralForm, GeneralRow, TravelForm, TravelRow};
use crate::upload::Received;
use std::collections::BTreeSet;

/// Highest row number accepted in a field name; larger ones are ignored.
const MAX_ROW_INDEX: u32 = 9_999;
/// Most rows one claim may have.
pub(crate) const MAX_ROWS: usize = 200;

/// Field bases of a general invoice row, in column order.
pub(crate) const GENERAL_ROW_FIELDS: [&str; 8] = [
    "invoice-number",
    "invoice-date",
    "item-name",
    "amount",
    "seller-name",
    "card-date",
    "card-number",
    "card-amount",
];

/// Field bases of a travel row, in column order.
pub(crate) const TRAVEL_ROW_FIELDS: [&str; 5] =
    ["expense-type", "invoice-number", "date", "amount", "note"];

/// The row numbers present among the submitted fields, ascending.
fn row_indices(received: &Received, bases: &[&str]) -> Vec<u32> {
    let indices: BTreeSet<u32> = received
        .fields
        .iter()
        .filter_map(|(name, _)| name.rsplit_once('-'))
        .filter(|(base, _)| bases.contains(base))
        .filter_map(|(_, index)| {
            // Only plain decimal numbers: "+1" or "01" would alias another row's number.
            let canonical = !index.is_empty()
                && index.bytes().all(|b| b.is_ascii_digit())
                && (index == "0" || !index.starts_with('0'));
            canonical.then(|| index.parse::<u32>().ok()).flatten()
        })
        .filter(|index| *index <= MAX_ROW_INDEX)
        .collect();
    indices.into_iter().collect()
}

/// Reads the general form. Rows beyond [`MAX_ROWS`] are dropped (validation reports it).
pub(crate) fn general(received: &Received) -> (GeneralForm, usize) {
    let indices = row_indices(received, &GENERAL_ROW_FIELDS);
    let sent = indices.len();
    let rows = indices
        .into_iter()
        .take(MAX_ROWS)
        .map(|i| {
            let cell = |base: &str| received.value(&format!("{base}-{i}"));
            GeneralRow {
                invoice_number: cell("invoice-number"),
                invoice_date: cell("invoice-date"),
                item_name: cell("item-name"),
                amount: cell("amount"),
                seller_name: cell("seller-name"),
                card_date: cell("card-date"),
                card_number: cell("card-number"),
                card_amount: cell("card-amount"),
            }
        })
        .collect();
    let form = GeneralForm {
        claimant: received.value("claimant"),
        employee_no: received.value("employee-no"),
        department: received.value("department"),
        purpose: received.value("purpose"),
        rows,
    };
    (form, sent)
}

/// Reads the travel form. Rows beyond [`MAX_ROWS`] are dropped (validation reports it).
pub(crate) fn travel(received: &Received) -> (TravelForm, usize) {
    let indices = row_indices(received, &TRAVEL_ROW_FIELDS);
    let sent = indices.len();
    let rows = indices
        .into_iter()
        .take(MAX_ROWS)
        .map(|i| {
            let cell = |base: &str| received.value(&format!("{base}-{i}"));
            TravelRow {
                expense_type: cell("expense-type"),
                invoice_number: cell("invoice-number"),
                date: cell("date"),
                amount: cell("amount"),
                note: cell("note"),
            }
        })
        .collect();
    let form = TravelForm {
        claimant: received.value("claimant"),
        employee_no: received.value("employee-no"),
        purpose: received.value("purpose"),
        origin: received.value("origin"),
        destination: received.value("destination"),
        depart_date: received.value("depart-date"),
        return_date: received.value("return-date"),
        rows,
    };
    (form, sent)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn received(fields: &[(&str, &str)]) -> Received {
        Received {
            fields: fields
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
            ..Received::default()
        }
    }

    #[test]
    fn rows_follow_their_numbers_with_gaps() {
        let (form, sent) = general(&received(&[
            ("claimant", "张三"),
            ("invoice-number-2", "22222222"),
            ("invoice-number-0", "00000000"),
            ("amount-2", "2.00"),
            ("amount-10", "10.00"),
        ]));
        assert_eq!(sent, 3);
        assert_eq!(form.claimant, "张三");
        let numbers: Vec<_> = form
            .rows
            .iter()
            .map(|r| r.invoice_number.as_str())
            .collect();
        assert_eq!(numbers, ["00000000", "22222222", ""]);
        assert_eq!(form.rows[2].amount, "10.00");
    }

    #[test]
    fn odd_numbers_and_unknown_fields_make_no_rows() {
        let (form, _) = travel(&received(&[
            ("amount-01", "1"),
            ("amount-+1", "1"),
            ("amount-", "1"),
            ("card-amount-0", "1"),
            ("date-99999", "2026-01-01"),
        ]));
        assert!(form.rows.is_empty());
    }
}
