//! Server-side validation of a claim: every rule and its message, as shown on the form.
//!
//! Values are checked after trimming spaces but stored as received. All messages of a
//! submission are collected, so the form shows every problem at once.

use crate::form_fields::MAX_ROWS;
use crate::model::{EXPENSE_TYPES, GeneralForm, TravelForm};
use crate::upload::ReceivedFile;
use std::collections::HashMap;

/// Why an amount was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AmountError {
    Empty,
    /// Not a decimal with at most two places.
    Format,
    /// Zero or negative.
    NotPositive,
}

/// Parses a positive amount of yuan with at most two decimals into cents.
pub fn parse_cents(text: &str) -> Result<u64, AmountError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(AmountError::Empty);
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let well_formed = !whole.is_empty()
        && whole.len() <= 12
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.len() <= 2
        && fraction.bytes().all(|b| b.is_ascii_digit())
        && !(digits.ends_with('.'));
    if !well_formed {
        return Err(AmountError::Format);
    }
    let whole: u64 = whole.parse().map_err(|_| AmountError::Format)?;
    let fraction: u64 = format!("{fraction:0<2}")
        .parse()
        .map_err(|_| AmountError::Format)?;
    let cents = whole * 100 + fraction;
    if negative || cents == 0 {
        return Err(AmountError::NotPositive);
    }
    Ok(cents)
}

/// Cents as yuan with two decimals.
pub fn format_cents(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// A calendar date written `YYYY-MM-DD` or `YYYY/MM/DD`, as (year, month, day).
pub fn parse_date(text: &str) -> Option<(u32, u32, u32)> {
    let text = text.trim();
    let separator = if text.contains('/') { '/' } else { '-' };
    let mut parts = text.split(separator);
    let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some()
        || year.len() != 4
        || month.len() != 2
        || day.len() != 2
        || ![year, month, day]
            .iter()
            .all(|p| p.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let (year, month, day): (u32, u32, u32) =
        (year.parse().ok()?, month.parse().ok()?, day.parse().ok()?);
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    ((1900..=2099).contains(&year) && (1..=days_in_month).contains(&day))
        .then_some((year, month, day))
}

/// An invoice number is 8 digits (older VAT invoices) or 20 digits (全电发票).
pub fn invoice_number_ok(text: &str) -> bool {
    let text = text.trim();
    (text.len() == 8 || text.len() == 20) && text.bytes().all(|b| b.is_ascii_digit())
}

/// A corporate card number is the last 4 digits or the whole 16 to 19 digits.
pub fn card_number_ok(text: &str) -> bool {
    let text = text.trim();
    (text.len() == 4 || (16..=19).contains(&text.len())) && text.bytes().all(|b| b.is_ascii_digit())
}

/// Collects messages; `row` prefixes 第N行.
#[derive(Debug, Default)]
struct Messages(Vec<String>);

impl Messages {
    fn require(&mut self, value: &str, message: &str) -> bool {
        let present = !value.trim().is_empty();
        if !present {
            self.0.push(message.to_owned());
        }
        present
    }

    fn row(&mut self, row: usize, message: impl std::fmt::Display) {
        self.0.push(format!("第{row}行：{message}"));
    }

    fn amount(&mut self, row: usize, label: &str, value: &str) -> Option<u64> {
        match parse_cents(value) {
            Ok(cents) => Some(cents),
            Err(AmountError::Empty) => {
                self.row(row, format!("{label}不能为空"));
                None
            }
            Err(AmountError::Format) => {
                self.row(row, format!("{label}格式不正确"));
                None
            }
            Err(AmountError::NotPositive) => {
                self.row(row, format!("{label}必须大于0"));
                None
            }
        }
    }

    fn date(&mut self, row: Option<usize>, label: &str, value: &str, required: bool) {
        let message = if value.trim().is_empty() {
            if !required {
                return;
            }
            format!("{label}不能为空")
        } else if parse_date(value).is_none() {
            format!("{label}格式不正确（应为 YYYY-MM-DD）")
        } else {
            return;
        };
        match row {
            Some(row) => self.row(row, message),
            None => self.0.push(message),
        }
    }

    fn invoice_number(&mut self, row: usize, value: &str, required: bool) {
        if value.trim().is_empty() {
            if required {
                self.row(row, "发票号码不能为空");
            }
        } else if !invoice_number_ok(value) {
            self.row(row, "发票号码格式不正确（应为8位或20位数字）");
        }
    }

    /// The same invoice number twice in one claim.
    fn repeated_numbers<'a>(&mut self, numbers: impl Iterator<Item = &'a str>) {
        let mut first_row: HashMap<&str, usize> = HashMap::new();
        for (i, number) in numbers.enumerate() {
            let number = number.trim();
            if number.is_empty() {
                continue;
            }
            match first_row.get(number) {
                Some(first) => self.row(i + 1, format!("发票号码重复（与第{first}行相同）")),
                None => {
                    first_row.insert(number, i + 1);
                }
            }
        }
    }

    fn rows(&mut self, sent: usize, count: usize, none: &str) {
        if count == 0 {
            self.0.push(none.to_owned());
        }
        if sent > MAX_ROWS {
            self.0.push(format!("明细行过多（最多{MAX_ROWS}行）"));
        }
    }

    /// Invoice attachments: PDF, or the OFD and XML files 数电 invoices are issued as.
    fn invoice_files<'a>(&mut self, files: impl Iterator<Item = &'a ReceivedFile>) {
        for file in files {
            if file.bytes.is_empty() {
                self.0.push(format!("附件为空：{}", file.name));
            } else if !is_invoice_file(&file.name, &file.bytes) {
                self.0
                    .push(format!("附件不是PDF、OFD或XML电子发票文件：{}", file.name));
            }
        }
    }
}

/// Whether the name's extension and the content agree on a PDF, an OFD (a zip archive) or
/// an XML invoice.
fn is_invoice_file(name: &str, bytes: &[u8]) -> bool {
    let name = name.to_lowercase();
    if name.ends_with(".pdf") {
        bytes.starts_with(b"%PDF-")
    } else if name.ends_with(".ofd") {
        bytes.starts_with(b"PK\x03\x04")
    } else if name.ends_with(".xml") {
        let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        text.trim_ascii_start().starts_with(b"<")
    } else {
        false
    }
}

/// Field names of the uploads, as the forms name them.
pub(crate) const INVOICE_FILES: &str = "invoice-files";
pub(crate) const OUTBOUND_FILE: &str = "outbound-file";
pub(crate) const ATTACHMENT_FILES: &str = "attachment-files";

/// Checks the general form. `sent` is how many rows the browser sent; `departments` the options.
pub(crate) fn general(
    form: &GeneralForm,
    sent: usize,
    files: &[ReceivedFile],
    departments: &[String],
) -> Vec<String> {
    let mut m = Messages::default();
    m.require(&form.claimant, "报销人不能为空");
    m.require(&form.employee_no, "工号不能为空");
    if m.require(&form.department, "请选择部门")
        && !departments.iter().any(|d| d == form.department.trim())
    {
        m.0.push("部门不存在".to_owned());
    }
    m.require(&form.purpose, "报销事由不能为空");
    m.rows(sent, form.rows.len(), "至少需要添加一行发票");
    for (i, row) in form.rows.iter().enumerate() {
        let n = i + 1;
        m.invoice_number(n, &row.invoice_number, true);
        m.date(Some(n), "开票日期", &row.invoice_date, true);
        if row.item_name.trim().is_empty() {
            m.row(n, "项目名称不能为空");
        }
        let amount = m.amount(n, "金额", &row.amount);
        if row.seller_name.trim().is_empty() {
            m.row(n, "销售方名称不能为空");
        }
        m.date(Some(n), "刷卡日期", &row.card_date, false);
        if !row.card_number.trim().is_empty() && !card_number_ok(&row.card_number) {
            m.row(n, "公务卡号格式不正确（应为4位尾号或16至19位卡号）");
        }
        if !row.card_amount.trim().is_empty() {
            let card = m.amount(n, "刷卡金额", &row.card_amount);
            if let (Some(card), Some(amount)) = (card, amount)
                && card != amount
            {
                m.row(n, "刷卡金额与发票金额不符");
            }
        }
    }
    m.repeated_numbers(form.rows.iter().map(|r| r.invoice_number.as_str()));
    let pdfs: Vec<&ReceivedFile> = files.iter().filter(|f| f.field == INVOICE_FILES).collect();
    if pdfs.is_empty() {
        m.0.push("请上传发票附件（至少一个）".to_owned());
    }
    m.invoice_files(pdfs.into_iter());
    for file in files.iter().filter(|f| f.field == OUTBOUND_FILE) {
        let name = file.name.to_lowercase();
        if !(name.ends_with(".doc") || name.ends_with(".docx")) {
            m.0.push(format!(
                "出库单必须是Word文件（.doc或.docx）：{}",
                file.name
            ));
        } else if file.bytes.is_empty() {
            m.0.push(format!("附件为空：{}", file.name));
        }
    }
    m.0
}

/// Checks the travel form. `sent` is how many rows the browser sent.
pub(crate) fn travel(form: &TravelForm, sent: usize, files: &[ReceivedFile]) -> Vec<String> {
    let mut m = Messages::default();
    m.require(&form.claimant, "出差人不能为空");
    m.require(&form.employee_no, "工号不能为空");
    m.require(&form.purpose, "出差事由不能为空");
    m.require(&form.origin, "出发地不能为空");
    m.require(&form.destination, "目的地不能为空");
    m.date(None, "出发日期", &form.depart_date, true);
    m.date(None, "返回日期", &form.return_date, true);
    if let (Some(depart), Some(back)) =
        (parse_date(&form.depart_date), parse_date(&form.return_date))
        && back < depart
    {
        m.0.push("返回日期不能早于出发日期".to_owned());
    }
    m.rows(sent, form.rows.len(), "至少需要添加一行费用明细");
    for (i, row) in form.rows.iter().enumerate() {
        let n = i + 1;
        let kind = row.expense_type.trim();
        if kind.is_empty() {
            m.row(n, "请选择费用类型");
        } else if !EXPENSE_TYPES.iter().any(|(value, _)| *value == kind) {
            m.row(n, "费用类型不正确");
        }
        m.invoice_number(n, &row.invoice_number, false);
        m.date(Some(n), "日期", &row.date, true);
        m.amount(n, "金额", &row.amount);
    }
    m.repeated_numbers(form.rows.iter().map(|r| r.invoice_number.as_str()));
    m.invoice_files(files.iter().filter(|f| f.field == ATTACHMENT_FILES));
    m.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{GeneralRow, TravelRow};

    #[test]
    fn amounts() {
        assert_eq!(parse_cents("12.3"), Ok(1230));
        assert_eq!(parse_cents(" 0.01 "), Ok(1));
        assert_eq!(parse_cents("100"), Ok(10_000));
        assert_eq!(parse_cents(""), Err(AmountError::Empty));
        assert_eq!(parse_cents("0"), Err(AmountError::NotPositive));
        assert_eq!(parse_cents("-5.00"), Err(AmountError::NotPositive));
        for bad in ["1.234", "abc", "1,000", ".5", "5.", "¥5", "1e3", "--1"] {
            assert_eq!(parse_cents(bad), Err(AmountError::Format), "{bad}");
        }
        assert_eq!(format_cents(123_405), "1234.05");
    }

    #[test]
    fn dates() {
        assert_eq!(parse_date("2026-11-21"), Some((2026, 11, 21)));
        assert_eq!(parse_date("2024/02/29"), Some((2024, 2, 29)));
        for bad in [
            "2025-02-29",
            "2026-13-01",
            "2026-1-5",
            "2026-11-21x",
            "2026/11-21",
            "",
        ] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn invoice_and_card_numbers() {
        assert!(invoice_number_ok("12345678"));
        assert!(invoice_number_ok("25442000000123456789"));
        assert!(!invoice_number_ok("1234567"));
        assert!(!invoice_number_ok("1234567890"));
        assert!(!invoice_number_ok("1234567a"));
        assert!(card_number_ok("2222"));
        assert!(card_number_ok("6217000011112222"));
        assert!(!card_number_ok("62170000"));
    }

    fn good_general() -> GeneralForm {
        GeneralForm {
            claimant: "张三".into(),
            employee_no: "100001".into(),
            department: "物理学院".into(),
            purpose: "购买实验耗材".into(),
            rows: vec![GeneralRow {
                invoice_number: "12345678".into(),
                invoice_date: "2026-11-01".into(),
                item_name: "*实验耗材*移液枪头".into(),
                amount: "128.50".into(),
                seller_name: "某某科技有限公司".into(),
                card_date: "2026/11/01".into(),
                card_number: "6217000011112222".into(),
                card_amount: "128.5".into(),
            }],
        }
    }

    fn pdf() -> ReceivedFile {
        ReceivedFile {
            field: INVOICE_FILES.into(),
            name: "发票.pdf".into(),
            bytes: b"%PDF-1.4\n".to_vec(),
        }
    }

    #[test]
    fn a_good_general_form_passes() {
        let departments = vec!["物理学院".to_owned()];
        assert_eq!(
            general(&good_general(), 1, &[pdf()], &departments),
            Vec::<String>::new()
        );
    }

    #[test]
    fn general_form_problems_are_all_reported() {
        let departments = vec!["物理学院".to_owned()];
        let mut form = good_general();
        form.purpose = "  ".into();
        form.rows[0].card_amount = "128.00".into();
        let mut second = form.rows[0].clone();
        second.amount = "0".into();
        second.card_amount = String::new();
        form.rows.push(second);
        let word = ReceivedFile {
            field: OUTBOUND_FILE.into(),
            name: "出库单.pdf".into(),
            bytes: b"x".to_vec(),
        };
        let messages = general(&form, 2, &[word], &departments);
        assert_eq!(
            messages,
            [
                "报销事由不能为空",
                "第1行：刷卡金额与发票金额不符",
                "第2行：金额必须大于0",
                "第2行：发票号码重复（与第1行相同）",
                "请上传发票附件（至少一个）",
                "出库单必须是Word文件（.doc或.docx）：出库单.pdf",
            ]
        );
    }

    #[test]
    fn travel_rules() {
        let form = TravelForm {
            claimant: "张三".into(),
            employee_no: "100001".into(),
            purpose: "学术会议".into(),
            origin: "北京".into(),
            destination: "上海".into(),
            depart_date: "2026-11-10".into(),
            return_date: "2026-11-09".into(),
            rows: vec![TravelRow {
                expense_type: "bus".into(),
                invoice_number: String::new(),
                date: "2026-11-10".into(),
                amount: "553.00".into(),
                note: String::new(),
            }],
        };
        assert_eq!(
            travel(&form, 1, &[]),
            ["返回日期不能早于出发日期", "第1行：费用类型不正确"]
        );
        let empty = TravelForm::default();
        assert!(travel(&empty, 0, &[]).contains(&"至少需要添加一行费用明细".to_owned()));
    }
}
