//! Tests of the committed template and of filling it, without LibreOffice: placeholders, the
//! item row, split runs made the way Word makes them, and template errors.

mod common;

use common::{part, sample, split_template, template, template_path, with_extra_part, with_part};
use reimburse_docgen::{Converter, DocError};

#[test]
fn the_committed_template_has_every_field_and_one_item_row() {
    let report = reimburse_docgen::check_template(&template()).unwrap();
    assert_eq!(
        report.placeholders,
        [
            "日期",
            "领用人",
            "部门",
            "存放地点",
            "序号",
            "名称",
            "规格型号",
            "单位",
            "数量",
            "单价",
            "金额",
            "合计金额",
            "合计大写"
        ]
    );
    assert!(report.unknown.is_empty(), "{:?}", report.unknown);
    assert_eq!(report.item_rows, 1);
}

#[test]
fn filling_the_template_fills_every_field() {
    let filled = reimburse_docgen::fill(&template(), &sample()).unwrap();
    assert!(filled.unknown_placeholders.is_empty());
    let xml = part(&filled.docx, "word/document.xml");
    for expected in [
        "2025年03月11日",
        "张三",
        "物理学院",
        "理科楼203室 &lt;B区&gt; &amp; 柜",
        "A4复印纸",
        "70g 500张/包",
        "HP CF388A",
        "255.00",
        "400.00",
        "655.00",
        "人民币 陆佰伍拾伍元整",
    ] {
        assert!(xml.contains(expected), "missing {expected}");
    }
    assert!(!xml.contains("{{"), "placeholder left");
    // Header row, two item rows, two total rows; and the 4 + 1 rows of the other tables.
    assert_eq!(xml.matches("<w:tr>").count(), 2 + 1 + 2 + 2 + 1);
    // Untouched parts are copied byte for byte.
    assert_eq!(
        part(&filled.docx, "word/styles.xml"),
        part(&template(), "word/styles.xml")
    );
}

#[test]
fn placeholders_split_over_runs_are_filled() {
    let template = split_template();
    let report = reimburse_docgen::check_template(&template).unwrap();
    assert!(report.unknown.is_empty(), "{:?}", report.unknown);
    let xml = part(
        &reimburse_docgen::fill_docx(&template, &sample()).unwrap(),
        "word/document.xml",
    );
    assert!(
        !xml.contains("{{") && !xml.contains('}'),
        "placeholder left"
    );
    // The value takes the formatting of the run where the placeholder started.
    assert!(
        xml.contains(r#"<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">理科楼203室 &lt;B区&gt; &amp; 柜</w:t></w:r>"#),
        "{xml}"
    );
    assert!(xml.contains(">A4复印纸<") && xml.contains(">硒鼓<"));
}

#[test]
fn a_template_without_item_row_is_refused() {
    let template = template();
    let xml = part(&template, "word/document.xml");
    let xml = xml
        .replace("{{名称}}", "名称")
        .replace("{{序号}}", "")
        .replace("{{规格型号}}", "");
    let xml = ["{{单位}}", "{{数量}}", "{{单价}}", "{{金额}}"]
        .iter()
        .fold(xml, |xml, p| xml.replace(p, ""));
    let error =
        reimburse_docgen::fill_docx(&with_part(&template, "word/document.xml", &xml), &sample())
            .unwrap_err();
    assert!(matches!(error, DocError::NoItemRow));
    assert!(error.to_string().starts_with("模板中没有物品行"), "{error}");
}

#[test]
fn unknown_placeholders_are_reported_and_kept() {
    let template = template();
    let xml = part(&template, "word/document.xml").replace("易耗品出库单", "易耗品出库单{{编号}}");
    let filled =
        reimburse_docgen::fill(&with_part(&template, "word/document.xml", &xml), &sample())
            .unwrap();
    assert_eq!(filled.unknown_placeholders, ["编号"]);
    assert!(part(&filled.docx, "word/document.xml").contains("易耗品出库单{{编号}}"));
}

#[test]
fn broken_templates_are_refused() {
    let error = reimburse_docgen::fill_docx(b"not a zip", &sample()).unwrap_err();
    assert!(matches!(error, DocError::TemplateInvalid(_)), "{error}");
    assert!(
        error.to_string().starts_with("模板不是有效的 Word 文档"),
        "{error}"
    );
    let broken = with_part(&template(), "word/document.xml", "<w:document><w:body>");
    assert!(matches!(
        reimburse_docgen::fill_docx(&broken, &sample()),
        Err(DocError::TemplateInvalid(_))
    ));
}

#[test]
fn a_bad_amount_is_refused_before_anything_is_written() {
    let mut doc = sample();
    doc.items[1].amount = "四百".to_owned();
    let out = tempfile::tempdir().unwrap();
    let error =
        reimburse_docgen::generate(&template_path(), &doc, out.path(), &Converter::default())
            .unwrap_err();
    assert_eq!(
        error.to_string(),
        "第 2 项物品（硒鼓）的金额无法识别：“四百”"
    );
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0);
}

#[test]
fn a_missing_template_is_reported_with_its_path() {
    let out = tempfile::tempdir().unwrap();
    let missing = out.path().join("templates/易耗品出库单.docx");
    let error = reimburse_docgen::generate(&missing, &sample(), out.path(), &Converter::default())
        .unwrap_err();
    assert!(matches!(error, DocError::TemplateMissing { .. }));
    assert_eq!(
        error.to_string(),
        format!("模板文件不存在：{}", missing.display())
    );
}

#[test]
fn headers_and_footers_are_filled() {
    let header = concat!(
        r#"<w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">"#,
        r#"<w:p><w:r><w:t>部门：{{部</w:t></w:r><w:r><w:t>门}} 合计：{{合计金额}}</w:t></w:r></w:p></w:hdr>"#
    );
    let template = with_extra_part(&template(), "word/header1.xml", header);
    let docx = reimburse_docgen::fill_docx(&template, &sample()).unwrap();
    let xml = part(&docx, "word/header1.xml");
    assert!(
        xml.contains(">部门：物理学院<") && xml.contains("> 合计：655.00<"),
        "{xml}"
    );
}
