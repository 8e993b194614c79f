//! WordprocessingML vocabulary: the element names we act on, under whatever prefix the part
//! binds to the main namespace, and walks over paragraphs, text nodes and table rows.

use crate::xml::{Element, Node};

const MAIN_NS: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const STRICT_NS: &str = "http://purl.oclc.org/ooxml/wordprocessingml/main";

/// Qualified names of the elements we touch.
#[derive(Debug, Clone)]
pub struct Names {
    pub p: String,
    pub r: String,
    pub t: String,
    pub tr: String,
    pub tbl: String,
    pub rpr: String,
    pub txbx: String,
}

impl Names {
    /// Reads the prefix bound to the WordprocessingML namespace on the root element. Word and
    /// LibreOffice both use `w`, which is also the fallback.
    pub fn for_root(root: &Element) -> Self {
        let prefix = declared_prefix(root).unwrap_or_else(|| "w".to_owned());
        let q = |local: &str| {
            if prefix.is_empty() {
                local.to_owned()
            } else {
                format!("{prefix}:{local}")
            }
        };
        Names {
            p: q("p"),
            r: q("r"),
            t: q("t"),
            tr: q("tr"),
            tbl: q("tbl"),
            rpr: q("rPr"),
            txbx: q("txbxContent"),
        }
    }
}

fn declared_prefix(root: &Element) -> Option<String> {
    let mut rest = root.attrs.as_str();
    while let Some(start) = rest.find("xmlns") {
        let tail = &rest[start + 5..];
        let eq = tail.find('=')?;
        let prefix = tail[..eq].trim().trim_start_matches(':').to_owned();
        let value = tail[eq + 1..].trim_start();
        let quote = value.chars().next()?;
        let inner = value.get(1..)?;
        let close = inner.find(quote)?;
        if matches!(&inner[..close], MAIN_NS | STRICT_NS) {
            return Some(prefix);
        }
        rest = &inner[close + 1..];
    }
    None
}

/// Calls `f` on every paragraph in the subtree, innermost ones included (paragraphs of text
/// boxes sit inside runs of outer paragraphs).
pub fn for_each_paragraph(element: &mut Element, names: &Names, f: &mut dyn FnMut(&mut Element)) {
    for child in &mut element.children {
        if let Node::Element(child) = child {
            for_each_paragraph(child, names, f);
        }
    }
    if element.name == names.p {
        f(element);
    }
}

/// The `w:t` elements of a paragraph in reading order, not descending into nested paragraphs
/// (text boxes), which are paragraphs of their own.
pub fn paragraph_texts<'a>(paragraph: &'a mut Element, names: &Names) -> Vec<&'a mut Element> {
    let mut out = Vec::new();
    for child in &mut paragraph.children {
        if let Node::Element(child) = child {
            collect_texts(child, names, &mut out);
        }
    }
    out
}

fn collect_texts<'a>(element: &'a mut Element, names: &Names, out: &mut Vec<&'a mut Element>) {
    if element.name == names.t {
        out.push(element);
        return;
    }
    if element.name == names.p || element.name == names.txbx {
        return;
    }
    for child in &mut element.children {
        if let Node::Element(child) = child {
            collect_texts(child, names, out);
        }
    }
}

/// All `w:t` texts under `element`, concatenated; used to test whether a row holds a field.
/// Nested tables are skipped when `skip_tables` is set, so a row owns only its own cells' text.
pub fn all_text(element: &Element, names: &Names, skip_tables: bool) -> String {
    let mut out = String::new();
    push_text(element, names, skip_tables, &mut out);
    out
}

fn push_text(element: &Element, names: &Names, skip_tables: bool, out: &mut String) {
    if element.name == names.t {
        out.push_str(&element.text());
        return;
    }
    for child in element.child_elements() {
        if skip_tables && child.name == names.tbl {
            continue;
        }
        push_text(child, names, skip_tables, out);
    }
}

/// Marks a `w:t` as keeping leading and trailing spaces, which Word drops otherwise.
pub fn preserve_space(t: &mut Element) {
    if !t.has_attr("xml:space") {
        t.push_attr(r#"xml:space="preserve""#);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xml::Document;

    #[test]
    fn finds_the_prefix() {
        let doc = Document::parse(&format!(
            r#"<x:document xmlns:mc="urn:mc" xmlns:x="{MAIN_NS}"/>"#
        ))
        .unwrap();
        assert_eq!(Names::for_root(doc.root().unwrap()).p, "x:p");
        let doc = Document::parse(&format!(r#"<document xmlns="{MAIN_NS}"/>"#)).unwrap();
        assert_eq!(Names::for_root(doc.root().unwrap()).t, "t");
        let doc = Document::parse("<w:document/>").unwrap();
        assert_eq!(Names::for_root(doc.root().unwrap()).tr, "w:tr");
    }
}
