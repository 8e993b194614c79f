//! OFD (GB/T 33190): the zip of XML parts the tax platform issues 数电 invoices in. The form's
//! labels sit in a template page (`Tpls/Tpl_0/Content.xml`), the values in the page
//! (`Pages/Page_0/Content.xml`), and `Tags/CustomTag.xml` names which text object holds which
//! field, as in real files. Units are millimetres.

use std::io::{Cursor, Write as _};

use crate::invoice::Invoice;
use crate::money;
use crate::text::chinese_date;
use crate::xml::escape;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

const NS: &str = "http://www.ofdspec.org/2016";
const SONG: u32 = 6919;
const COURIER: u32 = 6925;
const KAI: u32 = 5;
/// The page's id in Document.xml, which CustomTag.xml refers to.
const PAGE_ID: u32 = 61;

/// `DeltaX` for `text` at `size`: the advance after each character but the last, with runs of
/// equal advances written `g <count> <advance>` as real producers do.
fn delta_x(text: &str, size: f32) -> String {
    let advances: Vec<f32> = text
        .chars()
        .map(|c| if c.is_ascii() { size / 2.0 } else { size })
        .collect();
    let advances = advances
        .get(..advances.len().saturating_sub(1))
        .unwrap_or_default();
    let mut parts = Vec::new();
    let mut i = 0;
    while let Some(&advance) = advances.get(i) {
        let run = advances[i..]
            .iter()
            .take_while(|&&a| (a - advance).abs() < 1e-4)
            .count();
        let value = format!("{advance:.4}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_owned();
        if run > 1 {
            parts.push(format!("g {run} {value}"));
        } else {
            parts.push(value);
        }
        i += run;
    }
    parts.join(" ")
}

fn width(text: &str, size: f32) -> f32 {
    text.chars()
        .map(|c| if c.is_ascii() { size / 2.0 } else { size })
        .sum()
}

/// Accumulates text and path objects with consecutive ids.
#[derive(Debug)]
struct Layer {
    xml: String,
    next_id: u32,
}

impl Layer {
    fn new(first_id: u32) -> Self {
        Self {
            xml: String::new(),
            next_id: first_id,
        }
    }

    /// A text object whose box starts at (`x`, `y`) and is `w` wide; the text starts `offset`
    /// into the box. Returns the object's id.
    fn text(
        &mut self,
        font: u32,
        size: f32,
        (x, y, w): (f32, f32, f32),
        offset: f32,
        text: &str,
    ) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        let deltas = delta_x(text, size);
        let deltas = if deltas.is_empty() {
            String::new()
        } else {
            format!(" DeltaX=\"{deltas}\"")
        };
        self.xml.push_str(&format!(
            "<ofd:TextObject ID=\"{id}\" Boundary=\"{x} {y} {w} {h:.3}\" Font=\"{font}\" Size=\"{size}\"><ofd:TextCode X=\"{offset:.4}\" Y=\"{base:.4}\"{deltas}>{}</ofd:TextCode></ofd:TextObject>\n",
            escape(text),
            h = size * 1.4,
            base = size * 1.1,
        ));
        id
    }

    /// Text right-aligned in a box of width `w`.
    fn text_right(&mut self, font: u32, size: f32, (x, y, w): (f32, f32, f32), text: &str) -> u32 {
        let offset = (w - width(text, size)).max(0.0);
        self.text(font, size, (x, y, w), offset, text)
    }

    /// A horizontal or vertical rule from (`x`, `y`), `w` wide and `h` high.
    fn rule(&mut self, x: f32, y: f32, w: f32, h: f32) {
        let id = self.next_id;
        self.next_id += 1;
        let path = if h > w {
            format!("M 0.2 0 L 0.2 {h}")
        } else {
            format!("M 0 0.2 L {w} 0.2")
        };
        self.xml.push_str(&format!(
            "<ofd:PathObject ID=\"{id}\" Boundary=\"{x} {y} {} {}\"><ofd:AbbreviatedData>{path}</ofd:AbbreviatedData></ofd:PathObject>\n",
            w.max(0.4),
            h.max(0.4)
        ));
    }
}

fn page_xml(layer_id: u32, body: &str, with_template: bool) -> String {
    let template = if with_template {
        "<ofd:Template TemplateID=\"1\" ZOrder=\"Background\"/>"
    } else {
        ""
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ofd:Page xmlns:ofd=\"{NS}\"><ofd:Area><ofd:PhysicalBox>0 0 210 140</ofd:PhysicalBox></ofd:Area>{template}<ofd:Content><ofd:Layer ID=\"{layer_id}\" DrawParam=\"4\">\n{body}</ofd:Layer></ofd:Content></ofd:Page>\n"
    )
}

/// The template: rules and labels of the 数电 form.
fn template(invoice: &Invoice) -> String {
    let mut layer = Layer::new(10);
    for (x, y, w, h) in [
        (65.5, 17.8, 73.0, 0.4),
        (65.5, 18.8, 73.0, 0.4),
        (4.5, 29.8, 201.0, 0.4),
        (4.5, 51.8, 201.0, 0.4),
        (4.5, 95.8, 201.0, 0.4),
        (4.5, 103.8, 201.0, 0.4),
        (4.5, 123.8, 201.0, 0.4),
        (4.3, 30.0, 0.4, 94.0),
        (205.3, 30.0, 0.4, 94.0),
        (10.5, 30.0, 0.4, 22.0),
        (105.0, 30.0, 0.4, 22.0),
        (111.0, 30.0, 0.4, 22.0),
        (10.5, 104.0, 0.4, 20.0),
        (56.3, 96.0, 0.4, 8.0),
    ] {
        layer.rule(x, y, w, h);
    }
    let title_size = 7.0732;
    layer.text(
        KAI,
        title_size,
        (105.0 - width(&invoice.title, title_size) / 2.0, 8.0, 95.0),
        0.0,
        &invoice.title,
    );
    layer.text(KAI, 3.175, (154.0, 11.0, 17.0), 0.0, "发票号码：");
    layer.text(KAI, 3.175, (154.0, 17.0, 17.0), 0.0, "开票日期：");
    for (x, side) in [(5.5, "购买方信息"), (106.0, "销售方信息")] {
        for (i, ch) in side.chars().enumerate() {
            layer.text(
                KAI,
                3.175,
                (x, 32.5 + 3.5 * i as f32, 4.0),
                0.0,
                &ch.to_string(),
            );
        }
    }
    for x in [11.0, 111.5] {
        layer.text(KAI, 3.175, (x, 33.5, 16.0), 0.0, "名称：");
        layer.text(
            KAI,
            3.175,
            (x, 44.0, 50.0),
            0.0,
            "统一社会信用代码/纳税人识别号：",
        );
    }
    for (text, x) in [
        ("项目名称", 15.5),
        ("规格型号", 41.6),
        ("单 位", 66.5),
        ("数 量", 92.5),
        ("单 价", 117.5),
        ("金 额", 143.0),
        ("税率/征收率", 157.0),
        ("税 额", 194.0),
    ] {
        layer.text(KAI, 3.175, (x, 53.0, 20.0), 0.0, text);
    }
    layer.text(KAI, 3.175, (20.0, 92.0, 5.0), 0.0, "合");
    layer.text(KAI, 3.175, (36.0, 92.0, 5.0), 0.0, "计");
    layer.text(KAI, 3.175, (16.4, 98.5, 28.0), 0.0, "价税合计（大写）");
    layer.text(KAI, 3.175, (143.0, 98.5, 19.0), 0.0, "（小写）");
    layer.text(KAI, 3.175, (5.5, 109.0, 5.0), 0.0, "备");
    layer.text(KAI, 3.175, (5.5, 115.0, 5.0), 0.0, "注");
    layer.text(KAI, 3.175, (19.0, 129.5, 19.0), 0.0, "开票人：");
    page_xml(7, &layer.xml, false)
}

/// Ids of the page's text objects for `Tags/CustomTag.xml`.
#[derive(Debug, Default)]
struct Tags {
    number: u32,
    date: u32,
    buyer_name: u32,
    buyer_id: u32,
    seller_name: u32,
    seller_id: u32,
    amount: Vec<u32>,
    tax: Vec<u32>,
    total: Vec<u32>,
    clerk: u32,
    items: Vec<u32>,
    note: u32,
}

/// The page: the invoice's values.
fn page(invoice: &Invoice) -> (String, Tags) {
    let mut layer = Layer::new(100);
    let mut tags = Tags {
        number: layer.text(SONG, 3.175, (170.0, 10.3, 38.0), 0.0, &invoice.number),
        date: layer.text(
            SONG,
            3.175,
            (170.0, 16.4, 38.0),
            0.0,
            &chinese_date(invoice.date),
        ),
        buyer_name: layer.text(SONG, 3.175, (20.0, 33.8, 84.0), 0.0, &invoice.buyer.name),
        buyer_id: layer.text(
            COURIER,
            4.2333,
            (54.0, 43.3, 58.0),
            0.0,
            &invoice.buyer.tax_id,
        ),
        seller_name: layer.text(SONG, 3.175, (120.0, 33.8, 84.0), 0.0, &invoice.seller.name),
        seller_id: layer.text(
            COURIER,
            4.2333,
            (154.5, 43.3, 58.0),
            0.0,
            &invoice.seller.tax_id,
        ),
        ..Tags::default()
    };
    for (i, item) in invoice.items.iter().enumerate() {
        let y = 56.1 + 4.5 * i as f32;
        tags.items
            .push(layer.text(SONG, 3.175, (4.5, y, 36.5), 0.0, &item.name));
        layer.text(SONG, 3.175, (41.5, y, 24.0), 0.0, &item.spec);
        layer.text(SONG, 3.175, (65.5, y, 12.0), 4.4, &item.unit);
        layer.text_right(SONG, 3.175, (77.5, y, 25.0), &item.quantity);
        layer.text_right(SONG, 2.8222, (102.5, y, 25.0), &item.unit_price);
        layer.text_right(SONG, 3.175, (127.5, y, 25.5), &money::plain(item.amount));
        layer.text(SONG, 3.175, (154.0, y, 25.0), 10.1, &item.tax_rate);
        layer.text_right(SONG, 3.175, (179.5, y, 26.0), &item.tax_text(false));
    }
    for (x, cents, ids) in [
        (127.5, invoice.total_amount(), &mut tags.amount),
        (179.5, invoice.total_tax(), &mut tags.tax),
    ] {
        let digits = money::plain(cents);
        let offset = 25.0 - width(&digits, 3.175);
        ids.push(layer.text(COURIER, 3.8806, (x, 90.5, 26.0), offset - 2.33, "¥"));
        ids.push(layer.text(SONG, 3.175, (x, 90.5, 26.0), offset, &digits));
    }
    layer.text(SONG, 3.175, (62.9, 96.0, 82.5), 0.0, &invoice.words());
    tags.total
        .push(layer.text(COURIER, 3.8806, (155.5, 96.0, 48.7), 0.0, "¥"));
    tags.total.push(layer.text(
        SONG,
        3.8806,
        (155.5, 96.0, 48.7),
        2.33,
        &money::plain(invoice.total()),
    ));
    tags.clerk = layer.text(SONG, 3.175, (32.0, 129.1, 150.0), 0.0, &invoice.issuer);
    tags.note = layer.text(SONG, 3.175, (11.1, 104.5, 193.0), 0.0, &invoice.remark);
    (page_xml(99, &layer.xml, true), tags)
}

fn refs(ids: &[u32]) -> String {
    ids.iter()
        .map(|id| format!("<ofd:ObjectRef PageRef=\"{PAGE_ID}\">{id}</ofd:ObjectRef>"))
        .collect()
}

fn custom_tag(tags: &Tags) -> String {
    let one = |tag: &str, id: u32| format!("<ofd:{tag}>{}</ofd:{tag}>", refs(&[id]));
    let many = |tag: &str, ids: &[u32]| format!("<ofd:{tag}>{}</ofd:{tag}>", refs(ids));
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ofd:root xmlns:ofd=\"{NS}\" version=\"1.0\">"
    );
    out.push_str(&one("InvoiceNo", tags.number));
    out.push_str(&one("IssueDate", tags.date));
    out.push_str(&format!(
        "<ofd:Buyer>{}{}</ofd:Buyer>",
        one("BuyerName", tags.buyer_name),
        one("BuyerTaxID", tags.buyer_id)
    ));
    out.push_str(&format!(
        "<ofd:Seller>{}{}</ofd:Seller>",
        one("SellerName", tags.seller_name),
        one("SellerTaxID", tags.seller_id)
    ));
    out.push_str(&many("TaxExclusiveTotalAmount", &tags.amount));
    out.push_str(&many("TaxTotalAmount", &tags.tax));
    out.push_str(&many("TaxInclusiveTotalAmount", &tags.total));
    out.push_str(&one("InvoiceClerk", tags.clerk));
    out.push_str(&many("Item", &tags.items));
    out.push_str(&one("Note", tags.note));
    out.push_str("</ofd:root>\n");
    out
}

fn ofd_root(invoice: &Invoice, doc_id: &str) -> String {
    let date = chinese_date(invoice.date);
    let data = [
        ("template-version", "1.0.20.0422".to_owned()),
        ("发票号码", invoice.number.clone()),
        ("销售方纳税人识别号", invoice.seller.tax_id.clone()),
        ("合计金额", money::plain(invoice.total_amount())),
        ("购买方纳税人识别号", invoice.buyer.tax_id.clone()),
        ("合计税额", money::plain(invoice.total_tax())),
        ("开票日期", date),
    ];
    let custom: String = data
        .iter()
        .map(|(name, value)| {
            format!(
                "<ofd:CustomData Name=\"{name}\">{}</ofd:CustomData>",
                escape(value)
            )
        })
        .collect();
    let (y, m, d) = invoice.date;
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ofd:OFD xmlns:ofd=\"{NS}\" DocType=\"OFD\" Version=\"1.0\"><ofd:DocBody><ofd:DocInfo><ofd:DocID>{doc_id}</ofd:DocID><ofd:Author>China Tax</ofd:Author><ofd:CreationDate>{y:04}-{m:02}-{d:02}</ofd:CreationDate><ofd:CustomDatas>{custom}</ofd:CustomDatas></ofd:DocInfo><ofd:DocRoot>Doc_0/Document.xml</ofd:DocRoot></ofd:DocBody></ofd:OFD>\n"
    )
}

/// The OFD file of a 数电 `invoice`; `doc_id` is its 32-hex-digit document id.
pub(crate) fn document(invoice: &Invoice, doc_id: &str) -> Vec<u8> {
    let (page_xml, tags) = page(invoice);
    let parts: [(&str, String); 8] = [
        ("OFD.xml", ofd_root(invoice, doc_id)),
        (
            "Doc_0/Document.xml",
            format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ofd:Document xmlns:ofd=\"{NS}\"><ofd:CommonData><ofd:MaxUnitID>200</ofd:MaxUnitID><ofd:PublicRes>PublicRes.xml</ofd:PublicRes><ofd:TemplatePage ID=\"1\" BaseLoc=\"Tpls/Tpl_0/Content.xml\"/></ofd:CommonData><ofd:Pages><ofd:Page ID=\"{PAGE_ID}\" BaseLoc=\"Pages/Page_0/Content.xml\"/></ofd:Pages><ofd:CustomTags>Tags/CustomTags.xml</ofd:CustomTags></ofd:Document>\n"
            ),
        ),
        (
            "Doc_0/PublicRes.xml",
            format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ofd:Res xmlns:ofd=\"{NS}\"><ofd:ColorSpaces><ofd:ColorSpace ID=\"2\" Type=\"RGB\"/></ofd:ColorSpaces><ofd:DrawParams><ofd:DrawParam ID=\"3\" LineWidth=\"0.25\"><ofd:StrokeColor Value=\"128 0 0\" ColorSpace=\"2\"/></ofd:DrawParam><ofd:DrawParam ID=\"4\" Relative=\"3\"><ofd:FillColor Value=\"128 0 0\" ColorSpace=\"2\"/></ofd:DrawParam></ofd:DrawParams><ofd:Fonts><ofd:Font ID=\"{KAI}\" FontName=\"楷体\" FamilyName=\"楷体\"/><ofd:Font ID=\"{SONG}\" FontName=\"宋体\" FamilyName=\"SimSun\"/><ofd:Font ID=\"{COURIER}\" FontName=\"Courier New\"/></ofd:Fonts></ofd:Res>\n"
            ),
        ),
        ("Doc_0/Pages/Page_0/Content.xml", page_xml),
        ("Doc_0/Tpls/Tpl_0/Content.xml", template(invoice)),
        (
            "Doc_0/Tags/CustomTags.xml",
            format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ofd:CustomTags xmlns:ofd=\"{NS}\"><ofd:CustomTag TypeID=\"root\"><ofd:FileLoc>CustomTag.xml</ofd:FileLoc></ofd:CustomTag></ofd:CustomTags>\n"
            ),
        ),
        ("Doc_0/Tags/CustomTag.xml", custom_tag(&tags)),
        (
            "Doc_0/DocumentRes.xml",
            format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ofd:Res xmlns:ofd=\"{NS}\" BaseLoc=\"/Doc_0/Res\"/>\n"
            ),
        ),
    ];
    // A fixed timestamp keeps the archive byte-identical across runs.
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .compression_level(Some(6))
        .last_modified_time(DateTime::default());
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, content) in parts {
        // Writing into memory with valid names cannot fail; an error would leave a short
        // archive that the fixture tests reject.
        if zip.start_file(name, options).is_err() || zip.write_all(content.as_bytes()).is_err() {
            break;
        }
    }
    zip.finish().map(Cursor::into_inner).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delta_x_compresses_runs() {
        assert_eq!(delta_x("24322000", 3.175), "g 7 1.5875");
        assert_eq!(delta_x("2024年12月", 3.175), "g 4 1.5875 3.175 g 2 1.5875");
        assert_eq!(delta_x("查", 3.175), "");
    }
}
