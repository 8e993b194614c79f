//! Filling a template: join split placeholders, clone the item row once per item, put the
//! values in, and write the package back. Pure: bytes in, bytes out.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::DocError;
use crate::merge;
use crate::model::{OutboundDoc, OutboundItem, Totals};
use crate::placeholder::{self, Field, ItemField, ScalarField};
use crate::template::{DOCUMENT_PART, Package};
use crate::wordml::{self, Names};
use crate::xml::{Document, Element, Node};

/// A filled document and what was left unfilled.
#[derive(Debug, Clone)]
pub struct Filled {
    /// The .docx bytes.
    pub docx: Vec<u8>,
    /// Placeholder names left visible in the document because they mean nothing here: typos,
    /// or item fields outside the item row. Sorted, without duplicates.
    pub unknown_placeholders: Vec<String>,
}

/// What a template contains, for checking a clerk's template before use.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TemplateReport {
    /// Every placeholder name found, in document order, without duplicates.
    pub placeholders: Vec<String>,
    /// Names that would stay visible (unknown, or item fields outside the item row).
    pub unknown: Vec<String>,
    /// Number of table rows holding item fields; a usable template has exactly one.
    pub item_rows: usize,
}

/// Fills `template` (a .docx) with `doc`. Placeholders Word split over several runs are found;
/// unknown placeholders stay visible in the output (see [`fill`] to learn which).
pub fn fill_docx(template: &[u8], doc: &OutboundDoc) -> Result<Vec<u8>, DocError> {
    fill(template, doc).map(|filled| filled.docx)
}

/// Like [`fill_docx`], also returning the placeholders left unfilled.
pub fn fill(template: &[u8], doc: &OutboundDoc) -> Result<Filled, DocError> {
    let totals = doc.totals()?;
    let mut package = Package::open(template)?;
    let mut replaced = BTreeMap::new();
    let mut unknown = BTreeSet::new();
    for part in package.text_parts() {
        let source = package.read_text(&part)?;
        let mut document = parse(&part, &source)?;
        let Some(root) = document.root_mut() else {
            continue;
        };
        fill_part(root, part == DOCUMENT_PART, doc, &totals, &mut unknown)?;
        replaced.insert(part, document.serialize());
    }
    Ok(Filled {
        docx: package.write(&replaced)?,
        unknown_placeholders: unknown.into_iter().collect(),
    })
}

/// Fills one XML part; `with_items` for the main document, which holds the item row.
fn fill_part(
    root: &mut Element,
    with_items: bool,
    doc: &OutboundDoc,
    totals: &Totals,
    unknown: &mut BTreeSet<String>,
) -> Result<(), DocError> {
    let names = Names::for_root(root);
    merge_all(root, &names);
    // Every `w:t` is scanned once, before any value is in it: the item row is taken out
    // for the scalar pass and its copies are filled with items and scalars together, so
    // a value that looks like a placeholder (`X{{合计大写}}Y` typed as an item name) stays
    // text.
    let item_row = if with_items {
        Some(take_item_row(root, &names)?)
    } else {
        None
    };
    let scalars = |name: &str| match placeholder::field(name) {
        Some(Field::Scalar(field)) => Resolution::Value(scalar_value(field, doc, totals)),
        Some(Field::Item(_)) | None => Resolution::Unknown,
    };
    substitute(root, &names, &scalars, unknown);
    if let Some(taken) = item_row {
        put_item_rows(
            root,
            taken,
            &names,
            &doc.items,
            unknown,
            |name, position, item| match placeholder::field(name) {
                Some(Field::Item(field)) => Resolution::Value(item_value(field, position, item)),
                Some(Field::Scalar(field)) => Resolution::Value(scalar_value(field, doc, totals)),
                None => Resolution::Unknown,
            },
        )?;
    }
    Ok(())
}

/// Lists the placeholders of a template and whether it has exactly one item row, without
/// filling anything.
pub fn check_template(template: &[u8]) -> Result<TemplateReport, DocError> {
    let mut package = Package::open(template)?;
    let mut report = TemplateReport::default();
    let mut unknown = BTreeSet::new();
    for part in package.text_parts() {
        let source = package.read_text(&part)?;
        let mut document = parse(&part, &source)?;
        let Some(root) = document.root_mut() else {
            continue;
        };
        let names = Names::for_root(root);
        merge_all(root, &names);
        let mut rows = Vec::new();
        find_item_rows(root, &names, &mut Vec::new(), &mut rows);
        report.item_rows += rows.len();
        let in_rows: BTreeSet<String> = rows
            .iter()
            .filter_map(|path| element_at(root, path))
            .flat_map(|row| placeholder::find_all(&wordml::all_text(row, &names, true)))
            .map(|found| found.name)
            .collect();
        for found in placeholder::find_all(&wordml::all_text(root, &names, false)) {
            let usable = match placeholder::field(&found.name) {
                Some(Field::Scalar(_)) => true,
                Some(Field::Item(_)) => in_rows.contains(&found.name),
                None => false,
            };
            if !usable {
                unknown.insert(found.name.clone());
            }
            if !report.placeholders.contains(&found.name) {
                report.placeholders.push(found.name);
            }
        }
    }
    report.unknown = unknown.into_iter().collect();
    Ok(report)
}

fn parse(part: &str, source: &str) -> Result<Document, DocError> {
    Document::parse(source).map_err(|e| DocError::TemplateInvalid(format!("{part}：{e}")))
}

fn merge_all(root: &mut Element, names: &Names) {
    wordml::for_each_paragraph(root, names, &mut |paragraph| {
        merge::merge_paragraph(paragraph, names);
    });
}

/// What to do with one placeholder during a substitution pass.
enum Resolution {
    /// Replace it with this text.
    Value(String),
    /// Leave it visible and report it.
    Unknown,
}

/// Replaces placeholders in every `w:t` under `element`.
fn substitute(
    element: &mut Element,
    names: &Names,
    resolve: &dyn Fn(&str) -> Resolution,
    unknown: &mut BTreeSet<String>,
) {
    for child in &mut element.children {
        let Node::Element(child) = child else {
            continue;
        };
        if child.name != names.t {
            substitute(child, names, resolve, unknown);
            continue;
        }
        let text = child.text();
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        let mut changed = false;
        for found in placeholder::find_all(&text) {
            out.push_str(&text[last..found.range.start]);
            match resolve(&found.name) {
                Resolution::Value(value) => {
                    out.push_str(&one_line(&value));
                    changed = true;
                }
                Resolution::Unknown => {
                    unknown.insert(found.name);
                    out.push_str(&text[found.range.clone()]);
                }
            }
            last = found.range.end;
        }
        if changed {
            out.push_str(&text[last..]);
            child.set_text(&out);
            wordml::preserve_space(child);
        }
    }
}

/// Line breaks inside a `w:t` are not line breaks in Word; make them spaces explicitly.
fn one_line(value: &str) -> String {
    value
        .trim()
        .split(['\r', '\n'])
        .filter(|line| !line.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn scalar_value(field: ScalarField, doc: &OutboundDoc, totals: &Totals) -> String {
    match field {
        ScalarField::Date => doc.date_text(),
        ScalarField::Claimant => doc.claimant.clone(),
        ScalarField::Department => doc.department.clone(),
        ScalarField::Storage => doc.storage.clone(),
        ScalarField::TotalAmount => totals.amount.clone(),
        ScalarField::TotalCapital => totals.capital.clone(),
    }
}

fn item_value(field: ItemField, position: usize, item: &OutboundItem) -> String {
    match field {
        ItemField::Index => (position + 1).to_string(),
        ItemField::Name => item.name.clone(),
        ItemField::Spec => item.spec.clone(),
        ItemField::Unit => item.unit.clone(),
        ItemField::Quantity => item.quantity.clone(),
        ItemField::UnitPrice => item.unit_price.clone(),
        ItemField::Amount => item.amount.clone(),
    }
}

/// The template's one item row, taken out of its table until its copies are put back.
struct TakenRow {
    table_path: Vec<usize>,
    index: usize,
    row: Element,
}

/// Takes the one item row out of the document (an error unless there is exactly one).
fn take_item_row(root: &mut Element, names: &Names) -> Result<TakenRow, DocError> {
    let mut rows = Vec::new();
    find_item_rows(root, names, &mut Vec::new(), &mut rows);
    let path = match rows.as_slice() {
        [] => return Err(DocError::NoItemRow),
        [path] => path.clone(),
        several => return Err(DocError::SeveralItemRows(several.len())),
    };
    let Some((&index, table_path)) = path.split_last() else {
        return Err(DocError::NoItemRow);
    };
    let Some(table) = element_at_mut(root, table_path) else {
        return Err(DocError::NoItemRow);
    };
    let Node::Element(row) = table.children.remove(index) else {
        return Err(DocError::NoItemRow);
    };
    Ok(TakenRow {
        table_path: table_path.to_vec(),
        index,
        row,
    })
}

/// Puts a filled copy of the taken row per item where it stood (none for no items).
fn put_item_rows<'i>(
    root: &mut Element,
    taken: TakenRow,
    names: &Names,
    items: &'i [OutboundItem],
    unknown: &mut BTreeSet<String>,
    resolve: impl Fn(&str, usize, &'i OutboundItem) -> Resolution,
) -> Result<(), DocError> {
    let copies: Vec<Node> = items
        .iter()
        .enumerate()
        .map(|(position, item)| {
            let mut copy = taken.row.clone();
            substitute(
                &mut copy,
                names,
                &|name| resolve(name, position, item),
                unknown,
            );
            Node::Element(copy)
        })
        .collect();
    let Some(table) = element_at_mut(root, &taken.table_path) else {
        return Err(DocError::NoItemRow);
    };
    let index = taken.index.min(table.children.len());
    table.children.splice(index..index, copies);
    Ok(())
}

/// Paths (child indices from `element`) of the table rows whose own cells hold an item field.
fn find_item_rows(
    element: &Element,
    names: &Names,
    path: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    for (index, child) in element.children.iter().enumerate() {
        let Node::Element(child) = child else {
            continue;
        };
        path.push(index);
        if child.name == names.tr && has_item_field(child, names) {
            out.push(path.clone());
        }
        find_item_rows(child, names, path, out);
        path.pop();
    }
}

fn has_item_field(row: &Element, names: &Names) -> bool {
    placeholder::find_all(&wordml::all_text(row, names, true))
        .iter()
        .any(|found| matches!(placeholder::field(&found.name), Some(Field::Item(_))))
}

fn element_at<'a>(root: &'a Element, path: &[usize]) -> Option<&'a Element> {
    let mut current = root;
    for &index in path {
        current = match current.children.get(index)? {
            Node::Element(e) => e,
            _ => return None,
        };
    }
    Some(current)
}

fn element_at_mut<'a>(root: &'a mut Element, path: &[usize]) -> Option<&'a mut Element> {
    let mut current = root;
    for &index in path {
        current = match current.children.get_mut(index)? {
            Node::Element(e) => e,
            _ => return None,
        };
    }
    Some(current)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str =
        r#"<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">"#;

    fn p(text: &str) -> String {
        format!("<w:p><w:r><w:t>{text}</w:t></w:r></w:p>")
    }

    /// A paragraph whose text was filled (filled text is marked to keep its spaces).
    fn pf(text: &str) -> String {
        format!(r#"<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>"#)
    }

    fn tr(paragraphs: &[String]) -> String {
        let cells: String = paragraphs
            .iter()
            .map(|c| format!("<w:tc>{c}</w:tc>"))
            .collect();
        format!("<w:tr>{cells}</w:tr>")
    }

    fn row(cells: &[&str]) -> String {
        tr(&cells.iter().map(|c| p(c)).collect::<Vec<_>>())
    }

    /// Runs the document-part passes of `fill` on an XML string.
    fn fill_xml(body: &str, doc: &OutboundDoc) -> Result<(String, BTreeSet<String>), DocError> {
        let mut document =
            Document::parse(&format!("{HEAD}<w:body>{body}</w:body></w:document>")).unwrap();
        let totals = doc.totals()?;
        let root = document.root_mut().unwrap();
        let mut unknown = BTreeSet::new();
        fill_part(root, true, doc, &totals, &mut unknown)?;
        let out = document.serialize();
        let body = out[HEAD.len() + "<w:body>".len()..out.len() - "</w:body></w:document>".len()]
            .to_owned();
        Ok((body, unknown))
    }

    fn sample() -> OutboundDoc {
        OutboundDoc {
            date: "2025/03/11".to_owned(),
            claimant: "张三".to_owned(),
            department: "物理学院".to_owned(),
            storage: "理科楼 <203> & 库房".to_owned(),
            items: vec![
                OutboundItem {
                    name: "A4复印纸".to_owned(),
                    spec: "70g 500张/包".to_owned(),
                    unit: "包".to_owned(),
                    quantity: "10".to_owned(),
                    unit_price: "25.50".to_owned(),
                    amount: "255.00".to_owned(),
                },
                OutboundItem {
                    name: "硒鼓".to_owned(),
                    spec: "HP 88A".to_owned(),
                    unit: "个".to_owned(),
                    quantity: "1".to_owned(),
                    unit_price: "400.00".to_owned(),
                    amount: "400.00".to_owned(),
                },
            ],
        }
    }

    #[test]
    fn clones_the_item_row_per_item() {
        let body = format!(
            "<w:tbl>{}{}{}</w:tbl>",
            row(&["名称", "金额"]),
            row(&["{{序号}}. {{名称}}", "{{金额}}"]),
            row(&["合计", "{{合计金额}}"])
        );
        let (out, unknown) = fill_xml(&body, &sample()).unwrap();
        let expected = format!(
            "<w:tbl>{}{}{}{}</w:tbl>",
            row(&["名称", "金额"]),
            tr(&[pf("1. A4复印纸"), pf("255.00")]),
            tr(&[pf("2. 硒鼓"), pf("400.00")]),
            tr(&[p("合计"), pf("655.00")])
        );
        assert_eq!(out, expected);
        assert!(unknown.is_empty());
    }

    #[test]
    fn placeholders_inside_values_stay_text() {
        let body = format!(
            "{}<w:tbl>{}{}</w:tbl>",
            p("{{存放地点}}"),
            row(&["{{名称}}", "{{存放地点}}"]),
            row(&["{{合计大写}}"])
        );
        let mut doc = sample();
        doc.items[0].name = "X{{合计大写}}Y".to_owned();
        doc.storage = "库房{{名称}}".to_owned();
        let (out, unknown) = fill_xml(&body, &doc).unwrap();
        assert!(out.contains("X{{合计大写}}Y"), "{out}");
        assert!(out.contains("库房{{名称}}"), "{out}");
        assert!(out.contains("陆佰伍拾伍元整"), "{out}");
        assert!(unknown.is_empty(), "{unknown:?}");
    }

    #[test]
    fn escapes_values() {
        let body = format!("{}<w:tbl>{}</w:tbl>", p("{{存放地点}}"), row(&["{{名称}}"]));
        let mut doc = sample();
        doc.items[0].name = "纸<b>&\"x\"".to_owned();
        let (out, _) = fill_xml(&body, &doc).unwrap();
        assert!(out.contains("理科楼 &lt;203&gt; &amp; 库房"), "{out}");
        assert!(out.contains("纸&lt;b&gt;&amp;&quot;x&quot;"), "{out}");
        assert!(Document::parse(&format!("<r>{out}</r>")).is_ok());
    }

    #[test]
    fn fills_split_placeholders_keeping_the_first_run_format() {
        let body = concat!(
            r#"<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>{{存放</w:t></w:r><w:proofErr w:type="spellStart"/>"#,
            r#"<w:r><w:t>地点}}</w:t></w:r></w:p>"#,
            r#"<w:tbl><w:tr><w:tc><w:p><w:r><w:t>{{</w:t></w:r><w:bookmarkStart w:id="1" w:name="b"/>"#,
            r#"<w:r><w:t>名称}}</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"#
        );
        let (out, _) = fill_xml(body, &sample()).unwrap();
        assert!(out.starts_with(r#"<w:p><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">理科楼 &lt;203&gt; &amp; 库房</w:t></w:r><w:proofErr w:type="spellStart"/></w:p>"#), "{out}");
        assert!(
            out.contains(">A4复印纸<") && out.contains(">硒鼓<"),
            "{out}"
        );
    }

    #[test]
    fn unknown_and_misplaced_placeholders_stay_visible() {
        let body = format!(
            "{}{}<w:tbl>{}</w:tbl>",
            p("{{日 期}} {{名称}}"),
            p("{{部门}}"),
            row(&["{{数量}}"])
        );
        let (out, unknown) = fill_xml(&body, &sample()).unwrap();
        assert!(out.contains("{{日 期}} {{名称}}"), "{out}");
        assert!(out.contains("物理学院"));
        assert_eq!(unknown.into_iter().collect::<Vec<_>>(), ["名称", "日 期"]);
    }

    #[test]
    fn a_template_without_item_row_is_an_error() {
        let body = format!("{}<w:tbl>{}</w:tbl>", p("{{名称}}"), row(&["{{合计金额}}"]));
        assert!(matches!(
            fill_xml(&body, &sample()),
            Err(DocError::NoItemRow)
        ));
        let body = format!(
            "<w:tbl>{}{}</w:tbl>",
            row(&["{{名称}}"]),
            row(&["{{金额}}"])
        );
        assert!(matches!(
            fill_xml(&body, &sample()),
            Err(DocError::SeveralItemRows(2))
        ));
    }

    #[test]
    fn no_items_removes_the_row() {
        let body = format!(
            "<w:tbl>{}{}</w:tbl>",
            row(&["{{名称}}"]),
            row(&["{{合计大写}}"])
        );
        let doc = OutboundDoc {
            items: Vec::new(),
            ..sample()
        };
        let (out, _) = fill_xml(&body, &doc).unwrap();
        assert_eq!(out, format!("<w:tbl>{}</w:tbl>", tr(&[pf("零元整")])));
    }

    #[test]
    fn nested_table_rows_are_found() {
        let inner = format!("<w:tbl>{}</w:tbl>", row(&["{{名称}}"]));
        let body = format!("<w:tbl><w:tr><w:tc>{inner}<w:p/></w:tc></w:tr></w:tbl>");
        let (out, _) = fill_xml(&body, &sample()).unwrap();
        assert!(out.contains("A4复印纸") && out.contains("硒鼓"), "{out}");
    }

    #[test]
    fn values_become_one_line() {
        assert_eq!(one_line(" a\r\nb\n\nc "), "a b c");
    }
}
