//! Corrections between validation attempts: what can be put right without asking the user.
//! Dates and amounts written in another form are normalised (`2025-3-11` → `2025/03/11`,
//! `¥1,234.5` → `1234.50`), card numbers lose their spaces, and an empty cell is filled from a
//! second source the extraction read (the invoice's QR code, its embedded XML) when the caller
//! supplies one. Every correction says what it changed and why.

use crate::claim::ClaimRow;
use domain::{format_cents, format_civil_date, parse_cents, parse_civil_date};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One change to a cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Correction {
    /// 1-based row.
    pub row: usize,
    /// The column changed.
    pub field: String,
    /// The value before.
    pub from: String,
    /// The value after.
    pub to: String,
    /// What decided it: `normalise-date`, `normalise-amount`, `normalise-card`, or the second
    /// source's name (`qr`, `xml`, …).
    pub source: String,
}

const DATE_FIELDS: [&str; 2] = ["开票日期", "刷卡日期"];
const AMOUNT_FIELDS: [&str; 2] = ["价税合计", "刷卡金额"];
const CARD_FIELDS: [&str; 1] = ["公务卡号"];

/// Second readings of cells, per row: `(field, value, source)`.
pub type SecondSources = Vec<Vec<(String, String, String)>>;

/// Applies every correction it can find to `rows` and returns them (empty: nothing to do).
pub fn correct(rows: &mut [ClaimRow], second: &SecondSources) -> Vec<Correction> {
    let mut done = Vec::new();
    for (index, row) in rows.iter_mut().enumerate() {
        let mut change =
            |field: &str, to: String, source: &str, cells: &mut BTreeMap<String, String>| {
                let from = cells.get(field).cloned().unwrap_or_default();
                if from != to {
                    cells.insert(field.to_owned(), to.clone());
                    done.push(Correction {
                        row: index + 1,
                        field: field.to_owned(),
                        from,
                        to,
                        source: source.to_owned(),
                    });
                }
            };
        for field in DATE_FIELDS {
            let value = row.cell(field).trim().to_owned();
            if let Some(days) = parse_civil_date(&value).filter(|_| !value.is_empty()) {
                change(
                    field,
                    format_civil_date(days),
                    "normalise-date",
                    &mut row.cells,
                );
            }
        }
        for field in AMOUNT_FIELDS {
            let value = row.cell(field).trim().to_owned();
            if let Some(cents) = parse_cents(&value).filter(|_| !value.is_empty()) {
                change(
                    field,
                    format_cents(cents),
                    "normalise-amount",
                    &mut row.cells,
                );
            }
        }
        for field in CARD_FIELDS {
            let value = row.cell(field).to_owned();
            let compact: String = value
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '-')
                .collect();
            if compact.chars().all(|c| c.is_ascii_digit() || c == '*') {
                change(field, compact, "normalise-card", &mut row.cells);
            }
        }
        for (field, value, source) in second.get(index).into_iter().flatten() {
            if row.cell(field).trim().is_empty() && !value.trim().is_empty() {
                change(field, value.trim().to_owned(), source, &mut row.cells);
            }
        }
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(pairs: &[(&str, &str)]) -> ClaimRow {
        ClaimRow {
            cells: pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            ..ClaimRow::default()
        }
    }

    #[test]
    fn forms_are_normalised_and_each_change_says_why() {
        let mut rows = vec![row(&[
            ("开票日期", "2025-3-11"),
            ("价税合计", "¥1,234.5"),
            ("公务卡号", "6217 0000 1111 2222"),
            ("刷卡日期", "2025/03/12"),
        ])];
        let done = correct(&mut rows, &Vec::new());
        assert_eq!(rows[0].cell("开票日期"), "2025/03/11");
        assert_eq!(rows[0].cell("价税合计"), "1234.50");
        assert_eq!(rows[0].cell("公务卡号"), "6217000011112222");
        let sources: Vec<&str> = done.iter().map(|c| c.source.as_str()).collect();
        assert_eq!(
            sources,
            ["normalise-date", "normalise-amount", "normalise-card"]
        );
        assert!(
            correct(&mut rows, &Vec::new()).is_empty(),
            "a second pass changes nothing"
        );
    }

    #[test]
    fn an_empty_cell_is_filled_from_a_second_source_and_a_filled_one_is_not() {
        let mut rows = vec![row(&[("发票号码", ""), ("价税合计", "10.00")])];
        let second = vec![vec![
            (
                "发票号码".to_owned(),
                "25432000000022014229".to_owned(),
                "qr".to_owned(),
            ),
            ("价税合计".to_owned(), "99.00".to_owned(), "qr".to_owned()),
        ]];
        let done = correct(&mut rows, &second);
        assert_eq!(rows[0].cell("发票号码"), "25432000000022014229");
        assert_eq!(rows[0].cell("价税合计"), "10.00");
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].source, "qr");
    }

    #[test]
    fn what_cannot_be_read_is_left_for_the_rules() {
        let mut rows = vec![row(&[("开票日期", "明天"), ("价税合计", "一百元")])];
        assert!(correct(&mut rows, &Vec::new()).is_empty());
    }
}
