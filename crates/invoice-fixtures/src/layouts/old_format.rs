//! The pre-数电 layout family: 增值税电子普通发票 (goods and services), its 通行费 variant
//! with the toll columns, and the regional 通用机打发票（电子）.
//!
//! Header codes on the right (发票代码, 发票号码, 开票日期, 校验码), 机器编号 and the QR code
//! on the left, the buyer block beside the 密码区, a ruled item table, 合计, 价税合计, the
//! seller block beside 备注, and 收款人 / 复核 / 开票人 / 销售方 under the frame.

use super::draw::{self, label, value, value_right, wrap};
use crate::invoice::{Invoice, Item};
use crate::money;
use crate::pdf_writer::{Font, Layer, Page, PdfFile, Rgb, TextStyle};
use crate::qr;
use crate::text::{chinese_date, compact_date};
use domain::DocumentType;

/// The brown of old-format forms.
const BROWN: Rgb = Rgb(0.6, 0.35, 0.15);

const LEFT: f32 = 22.7;
const RIGHT: f32 = 589.6;
const FRAME_TOP: f32 = 82.5;
const BUYER_BOTTOM: f32 = 146.0;
const HEADER_BOTTOM: f32 = 160.5;
const ITEMS_BOTTOM: f32 = 257.0;
const TOTALS_BOTTOM: f32 = 271.5;
const WORDS_BOTTOM: f32 = 291.0;
const FRAME_BOTTOM: f32 = 352.0;
const ITEMS_TOP: f32 = 168.7;
const ROW: f32 = 12.0;
const NAME_WIDTH: f32 = 140.0;

/// Draws `invoice` (one page).
pub(crate) fn render(invoice: &Invoice) -> PdfFile {
    let general = invoice.doc_type == DocumentType::GeneralMachine;
    let (width, height) = if general {
        (623.0, 396.0)
    } else {
        (610.0, 394.0)
    };
    let mut page = Page::new(width, height);
    page.labels_first = invoice.style.labels_first;
    frame(&mut page, invoice.doc_type == DocumentType::Toll);
    header(&mut page, invoice, general);
    buyer(&mut page, invoice);
    if invoice.doc_type == DocumentType::Toll {
        toll_table(&mut page, invoice);
    } else {
        goods_table(&mut page, invoice);
    }
    totals(&mut page, invoice);
    seller(&mut page, invoice);
    PdfFile {
        pages: vec![page],
        ..PdfFile::default()
    }
}

/// The QR payload: type 10 (增值税电子普通发票, tolls included) or 20 (通用机打), with the
/// pre-tax 金额合计 and the check code.
pub(crate) fn qr_payload(invoice: &Invoice) -> String {
    if invoice.style.blockchain_qr {
        // The Shenzhen blockchain invoice's code: its address, the number and the total
        // with tax in fen; no date.
        return format!(
            "https://bcfp.shenzhen.chinatax.gov.cn/verify/scan?hash={}&bill_num={}&total_amount={}",
            invoice.qr_tail,
            invoice.number,
            invoice.total_amount() + invoice.total_tax()
        );
    }
    let type_code = if invoice.doc_type == DocumentType::GeneralMachine {
        "20"
    } else {
        "10"
    };
    qr::payload(
        type_code,
        &invoice.code,
        &invoice.number,
        &money::plain(invoice.total_amount()),
        &compact_date(invoice.date),
        &invoice.check_code,
        &invoice.qr_tail,
    )
}

fn frame(page: &mut Page, toll: bool) {
    let w = 0.75;
    page.rect(
        LEFT,
        FRAME_TOP,
        RIGHT - LEFT,
        FRAME_BOTTOM - FRAME_TOP,
        w,
        BROWN,
    );
    // The rule under the column headers is thinner than the section rules.
    let rules = [
        (BUYER_BOTTOM, w),
        (HEADER_BOTTOM, 0.4),
        (ITEMS_BOTTOM, w),
        (TOTALS_BOTTOM, w),
        (WORDS_BOTTOM, w),
    ];
    for (y, width) in rules {
        page.line((LEFT, y), (RIGHT, y), width, BROWN);
    }
    for x in [42.5, 345.0, 363.0] {
        page.line((x, FRAME_TOP), (x, BUYER_BOTTOM), w, BROWN);
        page.line((x, WORDS_BOTTOM), (x, FRAME_BOTTOM), w, BROWN);
    }
    let columns: &[f32] = if toll {
        &[140.0, 200.0, 276.0, 332.0, 392.0, 474.0, 508.0]
    } else {
        &[170.0, 241.0, 283.0, 335.0, 400.0, 474.0, 508.0]
    };
    for &x in columns {
        page.line((x, BUYER_BOTTOM), (x, TOTALS_BOTTOM), 0.4, BROWN);
    }
    page.line((146.0, TOTALS_BOTTOM), (146.0, WORDS_BOTTOM), w, BROWN);
}

fn header(page: &mut Page, invoice: &Invoice, general: bool) {
    if invoice.style.qr
        && let Some(image) = qr::image(&qr_payload(invoice))
    {
        page.image(image, 26.0, 6.0, 58.0);
    }
    let title_style = TextStyle::new(Font::Song, 20.0, BROWN);
    let title_width = title_style.width(&invoice.title);
    let title_x = 305.0 - title_width / 2.0;
    page.text(Layer::Label, title_style, title_x, 39.0, &invoice.title);
    for y in [46.5, 49.0] {
        page.line((title_x, y), (title_x + title_width, y), 0.6, BROWN);
    }

    let (x, rows) = if general {
        (446.4, [36.0, 52.0, 66.0, 80.0])
    } else {
        (432.3, [30.3, 44.8, 58.8, 73.2])
    };
    let value_x = x + 42.4;
    let colon = invoice.style.colon;
    label(
        page,
        invoice,
        BROWN,
        x,
        rows[0],
        9.0,
        &format!("发票代码{colon}"),
    );
    value(page, value_x, rows[0], 9.0, &invoice.code);
    label(
        page,
        invoice,
        BROWN,
        x,
        rows[1],
        9.0,
        &format!("发票号码{colon}"),
    );
    value(page, value_x, rows[1], 9.0, &invoice.number);
    label(
        page,
        invoice,
        BROWN,
        x,
        rows[2],
        9.0,
        &format!("开票日期{colon}"),
    );
    value(page, value_x, rows[2], 9.0, &chinese_date(invoice.date));
    // "校 验 码:" is spread over the width of a four-character label.
    label(page, invoice, BROWN, x, rows[3], 9.0, "校");
    label(page, invoice, BROWN, x + 13.5, rows[3], 9.0, "验");
    label(
        page,
        invoice,
        BROWN,
        x + 26.2,
        rows[3],
        9.0,
        &format!("码{colon}"),
    );
    for (i, group) in invoice.check_code_groups().iter().enumerate() {
        value(page, value_x + i as f32 * 27.5, rows[3], 9.0, group);
    }
    if !invoice.machine_no.is_empty() {
        label(
            page,
            invoice,
            BROWN,
            24.4,
            77.0,
            9.0,
            &format!("机器编号{colon}"),
        );
        value(page, 69.3, 77.0, 9.0, &invoice.machine_no);
    }
}

/// A four-row party block: 名称, 纳税人识别号, 地址、电话, 开户行及账号.
fn party_rows(
    page: &mut Page,
    invoice: &Invoice,
    rows: [f32; 4],
    value_x: f32,
    party: &crate::invoice::Party,
) {
    let colon = invoice.style.colon;
    label(page, invoice, BROWN, 48.2, rows[0], 9.0, "名");
    label(
        page,
        invoice,
        BROWN,
        93.2,
        rows[0],
        9.0,
        &format!("称{colon}"),
    );
    label(
        page,
        invoice,
        BROWN,
        48.2,
        rows[1],
        9.0,
        &format!("纳税人识别号{colon}"),
    );
    label(page, invoice, BROWN, 48.2, rows[2], 9.0, "地");
    label(page, invoice, BROWN, 61.7, rows[2], 9.0, "址、");
    label(page, invoice, BROWN, 78.2, rows[2], 9.0, "电");
    label(
        page,
        invoice,
        BROWN,
        91.7,
        rows[2],
        9.0,
        &format!("话{colon}"),
    );
    label(
        page,
        invoice,
        BROWN,
        48.2,
        rows[3],
        9.0,
        &format!("开户行及账号{colon}"),
    );
    value(page, value_x, rows[0] + 0.5, 9.0, &party.name);
    page.text(
        Layer::Value,
        TextStyle::new(Font::Courier, 9.0, crate::pdf_writer::BLACK),
        value_x,
        rows[1] + 1.0,
        &party.tax_id,
    );
    value(page, value_x, rows[2] + 1.0, 9.0, &party.address_phone);
    value(page, value_x, rows[3] + 0.2, 8.0, &party.bank_account);
}

fn buyer(page: &mut Page, invoice: &Invoice) {
    for (ch, y) in ["购", "买", "方"].iter().zip([99.5, 115.0, 131.4]) {
        label(page, invoice, BROWN, 28.7, y, 9.0, ch);
    }
    party_rows(
        page,
        invoice,
        [93.6, 107.6, 122.6, 138.2],
        110.2,
        &invoice.buyer,
    );
    for (ch, y) in ["密", "码", "区"].iter().zip([100.9, 116.4, 132.9]) {
        label(page, invoice, BROWN, 349.8, y, 9.0, ch);
    }
    let cipher = TextStyle::new(Font::Courier, 10.5, crate::pdf_writer::BLACK);
    for (line, y) in invoice.cipher.iter().zip([96.3, 110.3, 124.3, 138.4]) {
        page.text(Layer::Value, cipher, 368.8, y, line);
    }
}

fn goods_table(page: &mut Page, invoice: &Invoice) {
    let headers: [(&str, f32); 12] = [
        ("货物或应税劳务、服务名称", 41.4),
        ("规格型号", 189.4),
        ("单位", 251.4),
        ("数", 292.4),
        ("量", 310.4),
        ("单", 350.4),
        ("价", 368.4),
        ("金", 415.4),
        ("额", 433.4),
        ("税率", 482.4),
        ("税", 531.4),
        ("额", 549.4),
    ];
    for (text, x) in headers {
        label(page, invoice, BROWN, x, 156.1, 9.0, text);
    }
    let style = TextStyle::new(Font::Song, 9.0, crate::pdf_writer::BLACK);
    let mut y = ITEMS_TOP;
    for item in &invoice.items {
        let lines = wrap(&item.name, style, NAME_WIDTH);
        for (i, line) in lines.iter().enumerate() {
            value(page, 24.8, y + i as f32 * ROW, 9.0, line);
        }
        value(page, 175.0, y, 9.0, &item.spec);
        page.text_center(Layer::Value, style, 262.0, y, &item.unit);
        value_right(page, Font::Song, 330.8, y, 9.0, &item.quantity);
        value_right(page, Font::Song, 396.0, y, 9.0, &item.unit_price);
        amount_columns(page, invoice, item, y, 494.2);
        y += lines.len().max(1) as f32 * ROW;
    }
}

fn toll_table(page: &mut Page, invoice: &Invoice) {
    let headers: [(&str, f32); 10] = [
        ("项目名称", 67.8),
        ("车牌号", 180.8),
        ("类型", 249.8),
        ("通行日期起", 281.8),
        ("通行日期止", 337.8),
        ("金", 416.8),
        ("额", 434.8),
        ("税率", 479.8),
        ("税", 530.8),
        ("额", 548.8),
    ];
    for (text, x) in headers {
        label(page, invoice, BROWN, x, 156.1, 9.0, text);
    }
    let style = TextStyle::new(Font::Song, 9.0, crate::pdf_writer::BLACK);
    let mut y = ITEMS_TOP;
    for item in &invoice.items {
        value(page, 24.8, y, 9.0, &item.name);
        if let Some(toll) = &item.toll {
            value(page, 149.8, y, 9.0, &toll.plate);
            page.text_center(Layer::Value, style, 258.3, y, &toll.vehicle_type);
            page.text_center(Layer::Value, style, 304.3, y, &toll.date_from);
            page.text_center(Layer::Value, style, 361.3, y, &toll.date_to);
        }
        amount_columns(page, invoice, item, y, 491.0);
        y += ROW;
    }
}

/// 金额, 税率 and 税额 of one line.
fn amount_columns(page: &mut Page, invoice: &Invoice, item: &Item, y: f32, rate_center: f32) {
    let style = TextStyle::new(Font::Song, 9.0, crate::pdf_writer::BLACK);
    value_right(
        page,
        Font::Song,
        470.8,
        y,
        9.0,
        &invoice.amount_text(item.amount),
    );
    page.text_center(Layer::Value, style, rate_center, y, &item.tax_rate);
    value_right(
        page,
        Font::Song,
        588.9,
        y,
        9.0,
        &item.tax_text(invoice.style.thousands),
    );
}

fn totals(page: &mut Page, invoice: &Invoice) {
    label(page, invoice, BROWN, 65.8, 266.0, 9.0, "合");
    label(page, invoice, BROWN, 99.5, 266.0, 9.0, "计");
    draw::yen_amount(
        page,
        invoice,
        470.7,
        266.0,
        9.0,
        10.0,
        invoice.total_amount(),
    );
    draw::yen_amount(page, invoice, 589.0, 266.0, 9.0, 10.0, invoice.total_tax());
    label(page, invoice, BROWN, 54.2, 283.9, 9.0, "价税合计（大写）");
    page.circled_cross((153.0, 280.8), 4.5, crate::pdf_writer::BLACK);
    value(page, 160.2, 283.9, 9.0, &invoice.words());
    label(page, invoice, BROWN, 458.2, 283.9, 9.0, "（小写）");
    let sign = invoice.style.yen.sign();
    let digits = invoice.amount_text(invoice.total());
    let sign_style = match invoice.style.yen {
        crate::invoice::Yen::Half => TextStyle::new(Font::Helvetica, 9.0, crate::pdf_writer::BLACK),
        crate::invoice::Yen::Full => TextStyle::new(Font::Song, 9.0, crate::pdf_writer::BLACK),
    };
    page.text(Layer::Value, sign_style, 500.5, 284.0, sign);
    value(page, 500.5 + sign_style.width(sign), 284.0, 9.0, &digits);
}

fn seller(page: &mut Page, invoice: &Invoice) {
    for (ch, y) in ["销", "售", "方"].iter().zip([309.5, 325.0, 340.1]) {
        label(page, invoice, BROWN, 28.1, y, 9.0, ch);
    }
    party_rows(
        page,
        invoice,
        [303.5, 316.5, 330.5, 344.1],
        107.9,
        &invoice.seller,
    );
    label(page, invoice, BROWN, 350.1, 312.0, 9.0, "备");
    label(page, invoice, BROWN, 350.1, 338.3, 9.0, "注");
    value(page, 366.4, 303.8, 9.0, &invoice.remark);

    let colon = invoice.style.colon;
    let footer: [(&str, f32, f32, &str); 3] = [
        ("收 款 人", 30.9, 79.9, &invoice.payee),
        ("复 核", 196.9, 231.9, &invoice.reviewer),
        ("开 票 人", 317.9, 366.9, &invoice.issuer),
    ];
    for (text, x, value_x, name) in footer {
        // Each character is its own run, as on real forms.
        let mut cursor = x;
        let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        for (i, ch) in chars.iter().enumerate() {
            let glyph = if i + 1 == chars.len() {
                format!("{ch}{colon}")
            } else {
                ch.to_string()
            };
            label(page, invoice, BROWN, cursor, 361.1, 9.0, &glyph);
            cursor += 13.5;
        }
        value(page, value_x, 361.1, 9.0, name);
    }
    label(
        page,
        invoice,
        BROWN,
        441.9,
        361.1,
        9.0,
        &format!("销售方{colon}（章）"),
    );
}
