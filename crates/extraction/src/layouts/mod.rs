//! Which layout a document uses, decided from its title and labels, and the dispatch to the
//! layout's reader. Every reader works on sheets, so PDF and OFD share them.

mod air;
mod digital;
mod generic;
mod machine;
mod railway;
mod toll;
mod vat;

use crate::fields;
use crate::geometry::Sheet;
use crate::items;
use crate::parties::{self, Fallback};
use crate::totals;
use domain::InvoiceRecord;

/// A file embedded in the document (railway tickets carry their XBRL this way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Attachment<'a> {
    pub name: &'a str,
    pub data: &'a [u8],
}

/// The layouts we read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// 数电 电子发票（普通发票 / 增值税专用发票）.
    Digital {
        special: bool,
    },
    /// Old 增值税电子普通发票 / 专用发票 (toll invoices are told apart by their table).
    Vat {
        special: bool,
    },
    /// 通用机打发票（电子）.
    Machine,
    Railway,
    Air,
    /// No known layout: fields by their labels anywhere (fiscal receipts, regional forms).
    Generic,
}

/// Decides the layout from the title (and, failing that, from the labels present).
pub(crate) fn detect(sheets: &[Sheet]) -> Option<Layout> {
    let first = sheets.first()?;
    let title = fields::title(first);
    let has = |label: &str| sheets.iter().any(|s| !s.find(label).is_empty());
    if title.contains("铁路电子客票") {
        return Some(Layout::Railway);
    }
    if title.contains("行程单") || title.contains("航空运输") {
        return Some(Layout::Air);
    }
    if title.contains("机打") {
        return Some(Layout::Machine);
    }
    let special = title.contains("专用发票");
    if title.contains("增值税电子") || (title.contains("增值税") && !title.contains("电子发票("))
    {
        return Some(Layout::Vat { special });
    }
    if title.contains("电子发票") {
        return Some(Layout::Digital { special });
    }
    // No recognisable title: old formats print 发票代码, 数电 only 发票号码.
    if has("票价") && has("电子客票号") {
        Some(Layout::Railway)
    } else if has("发票代码") && has("发票号码") {
        Some(Layout::Vat { special: false })
    } else if has("发票号码") && has("价税合计") {
        Some(Layout::Digital { special: false })
    } else if generic::fits(sheets) {
        Some(Layout::Generic)
    } else {
        None
    }
}

/// Reads a record from sheets with the detected layout; `None` if no layout fits.
pub(crate) fn read(sheets: &[Sheet], attachments: &[Attachment<'_>]) -> Option<InvoiceRecord> {
    let layout = detect(sheets)?;
    let mut record = match layout {
        Layout::Digital { special } => digital::read(sheets, special),
        Layout::Vat { special } => vat::read(sheets, special),
        Layout::Machine => machine::read(sheets),
        Layout::Railway => railway::read(sheets, attachments),
        Layout::Air => air::read(sheets),
        Layout::Generic => generic::read(sheets),
    };
    record.page_count = u32::try_from(sheets.len()).unwrap_or(u32::MAX);
    Some(record)
}

/// The fields shared by every layout with an item table: header, parties, items, totals,
/// remark and issuer. `fallback` places the parties when no block label does.
pub(crate) fn tabular(sheets: &[Sheet], fallback: impl Fn(&Sheet) -> Fallback) -> InvoiceRecord {
    let mut record = InvoiceRecord {
        title: sheets.first().map(fields::title).unwrap_or_default(),
        invoice_number: fields::number(sheets),
        invoice_code: fields::code(sheets),
        invoice_date: fields::date(sheets),
        check_code: fields::check_code(sheets),
        issuer: fields::issuer(sheets),
        items: items::items(sheets),
        ..InvoiceRecord::default()
    };
    // Parties from the first sheet that names them (later pages repeat or omit them).
    for sheet in sheets {
        let (buyer, seller) = parties::parties(sheet, fallback(sheet));
        if record.buyer.name.is_empty() {
            record.buyer = buyer;
        }
        if record.seller.name.is_empty() {
            record.seller = seller;
        }
        if !record.buyer.name.is_empty() && !record.seller.name.is_empty() {
            break;
        }
    }
    let t = totals::totals(sheets);
    record.total_amount = t.amount;
    record.total_tax = t.tax;
    record.total_with_tax = t.with_tax;
    record.total_in_words = t.words;
    record.remark = sheets
        .iter()
        .rev()
        .map(fields::remark)
        .find(|r| !r.is_empty())
        .unwrap_or_default();
    record
}

/// The y separating the upper (buyer) and lower (seller) blocks of the old formats: the
/// item table's header, else mid-page.
pub(crate) fn table_split(sheet: &Sheet) -> Fallback {
    let split_y = items::find_table(sheet)
        .and_then(|t| sheet.lines.get(t.header_line).map(|l| l.y))
        .unwrap_or(sheet.height / 2.0);
    Fallback::UpperLower { split_y }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Run;
    use crate::geometry::tests::{run, sheet};

    fn title(text: &str) -> Run {
        Run::new(
            text,
            190.0,
            40.0,
            190.0 + 20.0 * text.chars().count() as f32,
            20.0,
        )
    }

    #[test]
    fn detects_layouts_from_titles() {
        let d = |t: &str| detect(&[sheet(vec![title(t), run("发票号码:1", 450.0, 40.0)])]);
        assert_eq!(
            d("电子发票（普通发票）"),
            Some(Layout::Digital { special: false })
        );
        assert_eq!(
            d("电子发票（增值税专用发票）"),
            Some(Layout::Digital { special: true })
        );
        assert_eq!(d("电子发票（铁路电子客票）"), Some(Layout::Railway));
        assert_eq!(d("电子发票（航空运输电子客票行程单）"), Some(Layout::Air));
        assert_eq!(
            d("湖北增值税电子普通发票"),
            Some(Layout::Vat { special: false })
        );
        assert_eq!(
            d("上海增值税电子专用发票"),
            Some(Layout::Vat { special: true })
        );
        assert_eq!(d("广东通用机打发票（电子）"), Some(Layout::Machine));
        assert_eq!(detect(&[sheet(vec![run("hello", 10.0, 10.0)])]), None);
    }
}
