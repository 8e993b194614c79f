//! 数电 电子发票（普通发票）and 电子发票（增值税专用发票）: the fully-digital layout of
//! 2023 onwards, on one or two pages (totals on the last).
//!
//! Positions follow real files: title centred near the top, number and date on the right,
//! buyer and seller side by side with vertical 购买方信息 / 销售方信息 labels, an item table
//! without column rules, 合计, 价税合计, 备注 and 开票人 below.

use super::draw::{self, label, value, value_right, wrap};
use crate::invoice::{Invoice, Item};
use crate::money;
use crate::pdf_writer::{Font, Layer, Page, PdfFile, Rgb, TextStyle};
use crate::qr;
use crate::text::{chinese_date, compact_date};
use domain::DocumentType;

/// The dark red of 数电 labels and rules.
const RED: Rgb = Rgb(0.5, 0.0, 0.0);
const GREY: Rgb = Rgb(0.5, 0.5, 0.5);

const LEFT: f32 = 12.76;
const RIGHT: f32 = 582.52;
const FRAME_TOP: f32 = 85.04;
const PARTIES_BOTTOM: f32 = 147.4;
const ITEMS_TOP: f32 = 169.6;
/// The last item row's baseline must stay clear of the 合计 row.
#[cfg(test)]
const ITEMS_LIMIT: f32 = 250.0;
const TOTALS_RULE: f32 = 275.0;
const WORDS_RULE: f32 = 292.0;
const FRAME_BOTTOM: f32 = 348.0;
/// Row pitch of the item table, and of a wrapped name's continuation lines.
const ROW: f32 = 12.7;
const WRAPPED_ROW: f32 = 10.0;
const NAME_WIDTH: f32 = 97.0;

/// Draws `invoice` and returns the file and its page count.
pub(crate) fn render(invoice: &Invoice) -> PdfFile {
    let (width, height) = if invoice.doc_type == DocumentType::DigitalSpecial {
        (600.0, 400.0)
    } else {
        (595.28, 396.85)
    };
    let chunks = invoice.page_items();
    let count = chunks.len();
    let mut pages = Vec::new();
    for (index, items) in chunks.into_iter().enumerate() {
        let mut page = Page::new(width, height);
        page.labels_first = invoice.style.labels_first;
        frame(&mut page);
        header(&mut page, invoice, index, count);
        parties(&mut page, invoice);
        table(&mut page, invoice, items);
        totals(&mut page, invoice, index + 1 == count);
        footer(&mut page, invoice);
        pages.push(page);
    }
    PdfFile {
        pages,
        ..PdfFile::default()
    }
}

/// The QR payload: type 32 (普通) or 31 (专用), with the 价税合计.
pub(crate) fn qr_payload(invoice: &Invoice) -> String {
    let type_code = if invoice.doc_type == DocumentType::DigitalSpecial {
        "31"
    } else {
        "32"
    };
    qr::payload(
        type_code,
        "",
        &invoice.number,
        &money::plain(invoice.total()),
        &compact_date(invoice.date),
        "",
        &invoice.qr_tail,
    )
}

fn frame(page: &mut Page) {
    let w = 0.71;
    page.rect(
        LEFT,
        FRAME_TOP,
        RIGHT - LEFT,
        FRAME_BOTTOM - FRAME_TOP,
        w,
        RED,
    );
    for y in [PARTIES_BOTTOM, TOTALS_RULE, WORDS_RULE] {
        page.line((LEFT, y), (RIGHT, y), w, RED);
    }
    for x in [29.76, 297.64, 314.65] {
        page.line((x, FRAME_TOP), (x, PARTIES_BOTTOM), w, RED);
    }
    page.line((29.76, WORDS_RULE), (29.76, FRAME_BOTTOM), w, RED);
    page.line((155.9, TOTALS_RULE), (155.9, WORDS_RULE), w, RED);
    // The printer-alignment marks in the right margin.
    page.line(
        (583.6, FRAME_TOP),
        (583.6, 218.0),
        1.5,
        Rgb(0.96, 0.93, 0.88),
    );
    page.line(
        (583.6, 218.0),
        (583.6, FRAME_BOTTOM),
        1.5,
        Rgb(0.46, 0.35, 0.33),
    );
}

fn header(page: &mut Page, invoice: &Invoice, index: usize, count: usize) {
    if invoice.style.qr
        && let Some(image) = qr::image(&qr_payload(invoice))
    {
        page.image(image, 18.4, 17.0, 56.7);
    }
    let title_style = TextStyle::new(Font::Song, 20.0, RED);
    let title_width = title_style.width(&invoice.title);
    let title_x = 293.4 - title_width / 2.0;
    page.text(Layer::Label, title_style, title_x, 39.9, &invoice.title);
    for y in [51.0, 53.9] {
        page.line((title_x - 7.5, y), (title_x + title_width, y), 0.71, RED);
    }
    if invoice.doc_type == DocumentType::DigitalSpecial {
        draw::seal(page, (297.0, 42.0), "浙江省税务局");
    }

    let end = label(
        page,
        invoice,
        RED,
        438.0,
        39.8,
        9.0,
        &invoice.label_colon("发票号码"),
    );
    value(page, end.max(481.6), 39.8, 9.0, &invoice.number);
    let end = label(
        page,
        invoice,
        RED,
        438.0,
        56.8,
        9.0,
        &invoice.label_colon("开票日期"),
    );
    value(page, end.max(481.6), 56.8, 9.0, &chinese_date(invoice.date));
    if count > 1 {
        let style = TextStyle::new(Font::Song, 9.0, crate::pdf_writer::BLACK);
        page.text(
            Layer::Value,
            style,
            520.0,
            79.5,
            &format!("共{count}页 第{}页", index + 1),
        );
    }
    if invoice.style.download_stamp {
        let style = TextStyle::new(Font::Song, 9.0, GREY).rotated();
        page.text(Layer::Graphics, style, 586.5, 83.7, "下载次数：1");
    }
}

fn parties(page: &mut Page, invoice: &Invoice) {
    for (x, side) in [(16.2, "购买方信息"), (301.1, "销售方信息")] {
        let side = invoice.label(side);
        for (ch, y) in side.chars().zip([100.8, 111.5, 121.2, 131.1, 140.8]) {
            label(page, invoice, RED, x, y, 9.0, &ch.to_string());
        }
    }
    let tax_label = invoice.label_colon("统一社会信用代码/纳税人识别号");
    for (x, name_x, id_x, party, spaced_name) in [
        (32.0, 56.7, 151.6, &invoice.buyer, false),
        (316.9, 340.2, 436.5, &invoice.seller, invoice.style.spaced),
    ] {
        let end = label(
            page,
            invoice,
            RED,
            x,
            103.5,
            9.0,
            &invoice.label_colon("名称"),
        );
        let name_x = end.max(name_x);
        if spaced_name {
            let style = TextStyle::new(Font::Song, 9.0, crate::pdf_writer::BLACK);
            page.text_spaced(Layer::Value, style, name_x, 103.6, 2.4, &party.name);
        } else {
            value(page, name_x, 103.6, 9.0, &party.name);
        }
        let style = TextStyle::new(Font::Song, 9.0, RED).scaled(89.0);
        let end = if invoice.style.spaced {
            // Converters squeeze this long label into its box with smaller glyphs; the value
            // is printed smaller too so both still fit.
            let small = TextStyle::new(Font::Song, 7.4, RED);
            page.text_spaced(
                Layer::Label,
                small,
                x,
                133.6,
                draw::SPACED_GAP - 0.6,
                &tax_label,
            )
        } else {
            page.text(Layer::Label, style, x, 133.6, &tax_label);
            x + style.width(&tax_label)
        };
        let id_size = if invoice.style.spaced { 10.0 } else { 12.0 };
        let id_style = TextStyle::new(Font::Courier, id_size, crate::pdf_writer::BLACK);
        page.text(Layer::Value, id_style, end.max(id_x), 134.1, &party.tax_id);
    }
}

fn table(page: &mut Page, invoice: &Invoice, items: &[Item]) {
    let headers: [(&str, f32); 13] = [
        ("项目名称", 44.4),
        ("规格型号", 118.5),
        ("单", 189.2),
        ("位", 207.2),
        ("数", 262.9),
        ("量", 280.9),
        ("单", 332.4),
        ("价", 350.3),
        ("金", 406.0),
        ("额", 424.0),
        ("税率/征收率", 445.8),
        ("税", 549.9),
        ("额", 567.9),
    ];
    for (text, x) in headers {
        label(page, invoice, RED, x, 158.9, 9.0, &invoice.label(text));
    }
    let name_style = TextStyle::new(Font::Song, 9.0, crate::pdf_writer::BLACK);
    let mut y = ITEMS_TOP;
    for item in items {
        let lines = wrap(&item.name, name_style, NAME_WIDTH);
        for (i, line) in lines.iter().enumerate() {
            let line_y = y + i as f32 * WRAPPED_ROW;
            if invoice.style.spaced {
                page.text_spaced(Layer::Value, name_style, 12.8, line_y, 0.0, line);
            } else {
                page.text(Layer::Value, name_style, 12.8, line_y, line);
            }
        }
        value(page, 120.5, y, 9.0, &item.spec);
        page.text_center(Layer::Value, name_style, 202.7, y, &item.unit);
        value_right(page, Font::Song, 290.5, y, 9.0, &item.quantity);
        // Long unit prices are printed smaller so they fit their column.
        let price_size = if item.unit_price.len() > 12 { 8.0 } else { 9.0 };
        value_right(page, Font::Song, 361.4, y, price_size, &item.unit_price);
        value_right(
            page,
            Font::Song,
            433.7,
            y,
            9.0,
            &invoice.amount_text(item.amount),
        );
        page.text_center(Layer::Value, name_style, 472.0, y, &item.tax_rate);
        value_right(
            page,
            Font::Song,
            582.5,
            y,
            9.0,
            &item.tax_text(invoice.style.thousands),
        );
        y += (lines.len().max(1) - 1) as f32 * WRAPPED_ROW + ROW;
    }
}

/// Whether `items` fit one page's table (the catalog's fixtures are checked against this).
#[cfg(test)]
pub(crate) fn items_fit(items: &[Item]) -> bool {
    let style = TextStyle::new(Font::Song, 9.0, crate::pdf_writer::BLACK);
    let rows: f32 = items
        .iter()
        .map(|item| {
            (wrap(&item.name, style, NAME_WIDTH).len().max(1) - 1) as f32 * WRAPPED_ROW + ROW
        })
        .sum();
    ITEMS_TOP + rows - ROW <= ITEMS_LIMIT
}

fn totals(page: &mut Page, invoice: &Invoice, last: bool) {
    label(page, invoice, RED, 58.1, 269.0, 9.0, "合");
    label(page, invoice, RED, 103.0, 269.0, 9.0, "计");
    label(
        page,
        invoice,
        RED,
        47.2,
        286.7,
        9.0,
        &invoice.label("价税合计（大写）"),
    );
    label(
        page,
        invoice,
        RED,
        406.8,
        286.7,
        9.0,
        &invoice.label("（小写）"),
    );
    page.circled_cross((166.0, 283.6), 4.5, crate::pdf_writer::BLACK);
    if !last {
        return;
    }
    draw::yen_amount(
        page,
        invoice,
        433.7,
        269.0,
        9.0,
        11.0,
        invoice.total_amount(),
    );
    draw::yen_amount(page, invoice, 582.5, 269.0, 9.0, 11.0, invoice.total_tax());
    value(page, 178.6, 286.7, 9.0, &invoice.words());
    let total = format!(
        "{}{}",
        invoice.style.yen.sign(),
        invoice.amount_text(invoice.total())
    );
    let font = match invoice.style.yen {
        crate::invoice::Yen::Half => Font::Helvetica,
        crate::invoice::Yen::Full => Font::Song,
    };
    page.text(
        Layer::Value,
        TextStyle::new(font, 11.0, crate::pdf_writer::BLACK),
        441.0,
        286.9,
        &total,
    );
}

fn footer(page: &mut Page, invoice: &Invoice) {
    label(page, invoice, RED, 16.2, 317.0, 9.0, "备");
    label(page, invoice, RED, 16.2, 334.3, 9.0, "注");
    value(page, 31.5, 304.1, 9.0, &invoice.remark);
    let end = label(
        page,
        invoice,
        RED,
        55.3,
        374.8,
        9.0,
        &invoice.label_colon("开票人"),
    );
    value(page, end.max(90.7), 374.8, 9.0, &invoice.issuer);
}
