//! A provincial fiscal receipt for road tolls (车辆通行费票据（电子）, 财政部监制): no tax
//! columns, 票据代码/票据号码 instead of 发票代码/发票号码, the payer as 交款人, a 项目编码
//! column left of the names, and the payee left to the seal (收款单位 printed blank). Its QR
//! code is the finance bureau's verification address.

use crate::money::{self, Cents};
use crate::pdf_writer::{BLACK, Font, Layer, Page, PdfFile, TextStyle};
use crate::qr;
use crate::words;
use domain::{DocumentType, InvoiceRecord, LineItem, Party};

/// What a receipt prints.
#[derive(Debug, Clone)]
pub(crate) struct Receipt {
    pub title: String,
    pub code: String,
    pub number: String,
    /// Letters and digits.
    pub check: String,
    pub date: (u16, u8, u8),
    pub payer: String,
    pub payer_tax_id: String,
    pub item_code: String,
    pub item: String,
    pub unit: String,
    pub amount: Cents,
    pub reviewer: String,
    pub payee_clerk: String,
}

const SIZE: f32 = 7.5;

fn text(page: &mut Page, x: f32, y: f32, s: &str) {
    page.text(
        Layer::Label,
        TextStyle::new(Font::Song, SIZE, BLACK),
        x,
        y,
        s,
    );
}

fn right(page: &mut Page, x_end: f32, y: f32, s: &str) {
    let style = TextStyle::new(Font::Song, SIZE, BLACK);
    page.text(Layer::Value, style, x_end - style.width(s), y, s);
}

fn address(r: &Receipt) -> String {
    format!(
        "http://einvoice.jsczt.cn/page/{}/{}/{}",
        r.code, r.number, r.check
    )
}

/// Draws the receipt (one page).
pub(crate) fn render(r: &Receipt) -> PdfFile {
    let mut page = Page::new(538.5, 360.0);
    let (y, m, d) = r.date;
    page.text(
        Layer::Label,
        TextStyle::new(Font::Song, 15.0, BLACK),
        164.0,
        39.0,
        &r.title,
    );
    if let Some(image) = qr::image(&address(r)) {
        page.image(image, 450.0, 30.0, 54.0);
    }
    text(&mut page, 34.5, 76.2, &format!("票据代码：{}", r.code));
    text(&mut page, 150.0, 76.2, &format!("票据号码：{}", r.number));
    text(
        &mut page,
        34.5,
        85.7,
        &format!("交款人统一社会信用代码：{}", r.payer_tax_id),
    );
    text(&mut page, 250.0, 85.7, &format!("校验码：{}", r.check));
    text(&mut page, 34.5, 95.1, &format!("交款人：{}", r.payer));
    text(
        &mut page,
        250.0,
        95.1,
        &format!("开票日期：{y:04}-{m:02}-{d:02}"),
    );
    let header = [
        (41.4, "项目编码"),
        (131.7, "项目名称"),
        (229.5, "单位"),
        (272.2, "数量"),
        (315.0, "标准"),
        (365.0, "金额（元）"),
        (456.0, "备注"),
    ];
    for (x, label) in header {
        text(&mut page, x, 110.4, label);
    }
    let row = 122.4;
    text(&mut page, 35.2, row, &r.item_code);
    text(&mut page, 77.9, row, &r.item);
    text(&mut page, 215.9, row, &r.unit);
    right(&mut page, 300.9, row, "1");
    right(&mut page, 343.6, row, &money::plain(r.amount));
    right(&mut page, 423.4, row, &money::plain(r.amount));
    page.line((30.0, 104.0), (508.0, 104.0), 0.5, BLACK);
    page.line((30.0, 230.0), (508.0, 230.0), 0.5, BLACK);
    text(
        &mut page,
        35.2,
        238.2,
        &format!("金额合计（大写）{}", words::in_words(r.amount)),
    );
    text(
        &mut page,
        300.0,
        238.2,
        &format!("（小写）{}", money::plain(r.amount)),
    );
    text(&mut page, 34.5, 341.1, "收款单位（章）：");
    text(&mut page, 200.0, 341.1, &format!("复核人：{}", r.reviewer));
    text(
        &mut page,
        300.0,
        341.1,
        &format!("收款人：{}", r.payee_clerk),
    );
    PdfFile {
        pages: vec![page],
        ..PdfFile::default()
    }
}

/// What a correct extractor reads: the payee is only in the seal (not drawn here), so the
/// seller stays empty; the check code has letters, so the digits-only field stays empty.
pub(crate) fn record(r: &Receipt) -> InvoiceRecord {
    let (y, m, d) = r.date;
    let amount = money::plain(r.amount);
    InvoiceRecord {
        doc_type: DocumentType::GeneralMachine,
        title: crate::text::nfkc(&r.title),
        invoice_number: r.number.clone(),
        invoice_code: r.code.clone(),
        invoice_date: format!("{y:04}/{m:02}/{d:02}"),
        buyer: Party {
            name: r.payer.clone(),
            tax_id: r.payer_tax_id.clone(),
        },
        items: vec![LineItem {
            name: crate::text::nfkc(&r.item),
            unit: r.unit.clone(),
            quantity: "1".to_owned(),
            amount: amount.clone(),
            ..LineItem::default()
        }],
        total_amount: amount.clone(),
        total_tax: "0.00".to_owned(),
        total_with_tax: amount,
        total_in_words: words::in_words(r.amount),
        page_count: 1,
        confirmed_by: vec!["qr".to_owned(), "大写".to_owned(), "arith".to_owned()],
        ..InvoiceRecord::default()
    }
}
