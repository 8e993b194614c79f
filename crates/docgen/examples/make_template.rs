//! Generates the committed Word template `templates/易耗品出库单.docx`: a university-style
//! consumables outbound-stock form with docgen placeholders. Run with
//! `cargo run -p reimburse-docgen --example make_template [OUTPUT]`; the output is byte-for-byte
//! reproducible (fixed zip timestamps), so regenerating shows up in git only when this changes.

#![allow(
    clippy::print_stdout,
    reason = "a command-line tool reports the file it wrote"
)]

use std::error::Error;
use std::io::{Cursor, Write};
use std::path::PathBuf;

use zip::write::{SimpleFileOptions, ZipWriter};

const W_NS: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

/// Text width of A4 with 1.8 cm side margins, in twentieths of a point.
const TEXT_WIDTH: u32 = 11906 - 2 * 1021;

/// Columns of the item table: title and width. The widths add up to `TEXT_WIDTH`.
const COLUMNS: [(&str, u32); 7] = [
    ("序号", 700),
    ("名称", 2600),
    ("规格型号", 1900),
    ("单位", 800),
    ("数量", 900),
    ("单价（元）", 1400),
    ("金额（元）", 1564),
];

/// The item row: the placeholders under each column title. docgen copies this row per item.
const ITEM_ROW: [&str; 7] = [
    "{{序号}}",
    "{{名称}}",
    "{{规格型号}}",
    "{{单位}}",
    "{{数量}}",
    "{{单价}}",
    "{{金额}}",
];

fn main() -> Result<(), Box<dyn Error>> {
    let output = match std::env::args_os().nth(1) {
        Some(path) => PathBuf::from(path),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../templates/易耗品出库单.docx"),
    };
    let bytes = build()?;
    if let Some(parent) = output.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(&output, &bytes)?;
    println!("wrote {} ({} bytes)", output.display(), bytes.len());
    Ok(())
}

fn build() -> Result<Vec<u8>, Box<dyn Error>> {
    let parts = [
        ("[Content_Types].xml", content_types()),
        ("_rels/.rels", package_rels()),
        ("docProps/core.xml", core_props()),
        ("docProps/app.xml", app_props()),
        ("word/_rels/document.xml.rels", document_rels()),
        ("word/styles.xml", styles()),
        ("word/settings.xml", settings()),
        ("word/document.xml", document()),
    ];
    // The default DateTime is 1980-01-01: fixed, so the file is reproducible.
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, content) in parts {
        writer.start_file(name, options)?;
        writer.write_all(content.as_bytes())?;
    }
    Ok(writer.finish()?.into_inner())
}

const DECL: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#;

fn content_types() -> String {
    format!(
        r#"{DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/><Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/></Types>"#
    )
}

fn package_rels() -> String {
    format!(
        r#"{DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/></Relationships>"#
    )
}

fn document_rels() -> String {
    format!(
        r#"{DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings" Target="settings.xml"/></Relationships>"#
    )
}

fn core_props() -> String {
    format!(
        r#"{DECL}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>易耗品出库单</dc:title><dc:creator>reimburse</dc:creator></cp:coreProperties>"#
    )
}

fn app_props() -> String {
    format!(
        r#"{DECL}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>reimburse docgen</Application></Properties>"#
    )
}

fn settings() -> String {
    format!(
        r#"{DECL}<w:settings xmlns:w="{W_NS}"><w:defaultTabStop w:val="420"/><w:characterSpacingControl w:val="compressPunctuation"/><w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat></w:settings>"#
    )
}

/// Song (宋体) for body text and Hei (黑体) for the title, the fonts of Chinese official forms;
/// 五号 (10.5 pt) body size.
fn styles() -> String {
    format!(
        r#"{DECL}<w:styles xmlns:w="{W_NS}"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Times New Roman" w:eastAsia="宋体" w:hAnsi="Times New Roman" w:cs="Times New Roman"/><w:kern w:val="2"/><w:sz w:val="21"/><w:szCs w:val="21"/><w:lang w:val="en-US" w:eastAsia="zh-CN" w:bidi="ar-SA"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:widowControl w:val="0"/><w:jc w:val="both"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style><w:style w:type="paragraph" w:customStyle="1" w:styleId="FormTitle"><w:name w:val="表单标题"/><w:basedOn w:val="Normal"/><w:qFormat/><w:pPr><w:spacing w:before="120" w:after="240"/><w:jc w:val="center"/></w:pPr><w:rPr><w:rFonts w:ascii="黑体" w:eastAsia="黑体" w:hAnsi="黑体"/><w:b/><w:spacing w:val="40"/><w:sz w:val="36"/><w:szCs w:val="36"/></w:rPr></w:style><w:style w:type="paragraph" w:customStyle="1" w:styleId="FormField"><w:name w:val="表单栏目"/><w:basedOn w:val="Normal"/><w:qFormat/><w:pPr><w:spacing w:before="60" w:after="60"/></w:pPr><w:rPr><w:sz w:val="24"/><w:szCs w:val="24"/></w:rPr></w:style><w:style w:type="paragraph" w:customStyle="1" w:styleId="CellText"><w:name w:val="表格文字"/><w:basedOn w:val="Normal"/><w:qFormat/><w:pPr><w:jc w:val="center"/></w:pPr></w:style><w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style><w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="8" w:space="0" w:color="000000"/><w:left w:val="single" w:sz="8" w:space="0" w:color="000000"/><w:bottom w:val="single" w:sz="8" w:space="0" w:color="000000"/><w:right w:val="single" w:sz="8" w:space="0" w:color="000000"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="000000"/></w:tblBorders></w:tblPr></w:style></w:styles>"#
    )
}

/// One table cell.
struct Cell<'a> {
    text: &'a str,
    width: u32,
    span: u32,
    align: &'a str,
    bold: bool,
    shade: bool,
    /// Underline only, for the fill-in fields of the header block.
    underline_cell: bool,
}

impl<'a> Cell<'a> {
    fn new(text: &'a str, width: u32) -> Self {
        Cell {
            text,
            width,
            span: 1,
            align: "center",
            bold: false,
            shade: false,
            underline_cell: false,
        }
    }
}

fn run(text: &str, bold: bool) -> String {
    let props = if bold { "<w:rPr><w:b/></w:rPr>" } else { "" };
    format!(r#"<w:r>{props}<w:t xml:space="preserve">{text}</w:t></w:r>"#)
}

fn cell(c: &Cell<'_>) -> String {
    let span = if c.span > 1 {
        format!(r#"<w:gridSpan w:val="{}"/>"#, c.span)
    } else {
        String::new()
    };
    let shade = if c.shade {
        r#"<w:shd w:val="clear" w:color="auto" w:fill="E7E6E6"/>"#
    } else {
        ""
    };
    let borders = if c.underline_cell {
        r#"<w:tcBorders><w:bottom w:val="single" w:sz="4" w:space="0" w:color="000000"/></w:tcBorders>"#
    } else {
        ""
    };
    format!(
        r#"<w:tc><w:tcPr><w:tcW w:w="{}" w:type="dxa"/>{span}{borders}{shade}<w:vAlign w:val="center"/></w:tcPr><w:p><w:pPr><w:pStyle w:val="CellText"/><w:jc w:val="{}"/></w:pPr>{}</w:p></w:tc>"#,
        c.width,
        c.align,
        run(c.text, c.bold)
    )
}

fn row(cells: &[Cell<'_>], height: u32) -> String {
    let cells: String = cells.iter().map(cell).collect();
    format!(
        r#"<w:tr><w:trPr><w:cantSplit/><w:trHeight w:val="{height}" w:hRule="atLeast"/></w:trPr>{cells}</w:tr>"#
    )
}

fn table(grid: &[u32], rows: &str, bordered: bool) -> String {
    let cols: String = grid
        .iter()
        .map(|w| format!(r#"<w:gridCol w:w="{w}"/>"#))
        .collect();
    let style = if bordered {
        r#"<w:tblStyle w:val="TableGrid"/>"#
    } else {
        ""
    };
    format!(
        r#"<w:tbl><w:tblPr>{style}<w:tblW w:w="{TEXT_WIDTH}" w:type="dxa"/><w:jc w:val="center"/><w:tblLayout w:type="fixed"/></w:tblPr><w:tblGrid>{cols}</w:tblGrid>{rows}</w:tbl>"#
    )
}

fn paragraph(style: &str, text: &str) -> String {
    format!(
        r#"<w:p><w:pPr><w:pStyle w:val="{style}"/></w:pPr>{}</w:p>"#,
        run(text, false)
    )
}

fn document() -> String {
    // Header block: label, fill-in field, label, fill-in field.
    let header_grid = [1300, 3632, 1300, 3632];
    let field_row = |l1: &'static str, v1: &'static str, l2: &'static str, v2: &'static str| {
        let label = |text| Cell {
            align: "right",
            ..Cell::new(text, 1300)
        };
        let value = |text| Cell {
            align: "left",
            underline_cell: true,
            ..Cell::new(text, 3632)
        };
        row(&[label(l1), value(v1), label(l2), value(v2)], 440)
    };
    let header = table(
        &header_grid,
        &format!(
            "{}{}",
            field_row("日期：", "{{日期}}", "领用人：", "{{领用人}}"),
            field_row("部门：", "{{部门}}", "存放地点：", "{{存放地点}}")
        ),
        false,
    );

    let grid: Vec<u32> = COLUMNS.iter().map(|(_, w)| *w).collect();
    let titles: Vec<Cell<'_>> = COLUMNS
        .iter()
        .map(|(title, w)| Cell {
            bold: true,
            shade: true,
            ..Cell::new(title, *w)
        })
        .collect();
    let items: Vec<Cell<'_>> = COLUMNS
        .iter()
        .zip(ITEM_ROW)
        .map(|((title, w), text)| Cell {
            align: if matches!(*title, "名称" | "规格型号") {
                "left"
            } else {
                "center"
            },
            ..Cell::new(text, *w)
        })
        .collect();
    let first_six: u32 = grid[..6].iter().sum();
    let first_two: u32 = grid[..2].iter().sum();
    let totals = [
        Cell {
            span: 6,
            bold: true,
            ..Cell::new("合    计", first_six)
        },
        Cell {
            bold: true,
            ..Cell::new("{{合计金额}}", grid[6])
        },
    ];
    let capital = [
        Cell {
            span: 2,
            bold: true,
            ..Cell::new("合计金额（大写）", first_two)
        },
        Cell {
            span: 5,
            align: "left",
            ..Cell::new("人民币 {{合计大写}}", TEXT_WIDTH - first_two)
        },
    ];
    let items_table = table(
        &grid,
        &format!(
            "{}{}{}{}",
            row(&titles, 480),
            row(&items, 480),
            row(&totals, 480),
            row(&capital, 480)
        ),
        true,
    );

    let sign_grid = [1500, 1788, 1200, 1788, 1600, 1988];
    let sign = |label, width| Cell {
        align: "right",
        ..Cell::new(label, width)
    };
    let blank = |width| Cell {
        underline_cell: true,
        ..Cell::new("", width)
    };
    let signatures = table(
        &sign_grid,
        &row(
            &[
                sign("领用人签字：", 1500),
                blank(1788),
                sign("经办人：", 1200),
                blank(1788),
                sign("仓库管理员：", 1600),
                blank(1988),
            ],
            600,
        ),
        false,
    );

    let body = [
        paragraph("FormTitle", "易耗品出库单"),
        header,
        paragraph("Normal", ""),
        items_table,
        paragraph("Normal", ""),
        signatures,
        paragraph("Normal", ""),
        paragraph(
            "Normal",
            "注：本单一式两联，一联随报销单据交财务处，一联由仓库留存。",
        ),
    ]
    .concat();
    format!(
        r#"{DECL}<w:document xmlns:w="{W_NS}"><w:body>{body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1021" w:bottom="1440" w:left="1021" w:header="851" w:footer="992" w:gutter="0"/></w:sectPr></w:body></w:document>"#
    )
}
