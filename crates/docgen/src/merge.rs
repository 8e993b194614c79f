//! Joining placeholders that Word split over several runs. Word cuts text into runs at every
//! edit, spell-check mark or bookmark, so `{{存放地点}}` typed by a clerk may be stored as
//! `{{存放` + `<w:proofErr/>` + `地点}}`. We move each split placeholder whole into the run where
//! it starts, so it keeps that run's formatting, and drop runs left empty.

use crate::placeholder;
use crate::wordml::{self, Names};
use crate::xml::{Element, Node};

/// Joins the split placeholders of one paragraph. Returns whether anything changed.
pub fn merge_paragraph(paragraph: &mut Element, names: &Names) -> bool {
    let mut texts = wordml::paragraph_texts(paragraph, names);
    if texts.len() < 2 {
        return false;
    }
    let originals: Vec<String> = texts.iter().map(|t| t.text()).collect();
    // Which text node each byte of the joined text belongs to.
    let mut owners: Vec<usize> = Vec::new();
    let mut joined = String::new();
    for (index, text) in originals.iter().enumerate() {
        joined.push_str(text);
        owners.extend(std::iter::repeat_n(index, text.len()));
    }
    let mut moved = false;
    for found in placeholder::find_all(&joined) {
        let first = owners[found.range.start];
        let last = owners[found.range.end - 1];
        if first != last {
            owners[found.range.clone()].fill(first);
            moved = true;
        }
    }
    if !moved {
        return false;
    }
    // Owners only ever move bytes backwards to an earlier node, so each node's new text is its
    // bytes in order, and the paragraph reads the same as before.
    let mut rebuilt = vec![String::new(); texts.len()];
    let mut start = 0;
    while start < joined.len() {
        let owner = owners[start];
        let mut end = start + 1;
        while end < joined.len() && owners[end] == owner {
            end += 1;
        }
        rebuilt[owner].push_str(&joined[start..end]);
        start = end;
    }
    for ((t, new), old) in texts.iter_mut().zip(&rebuilt).zip(&originals) {
        if new != old {
            t.set_text(new);
            wordml::preserve_space(t);
        }
    }
    remove_empty_runs(paragraph, names);
    true
}

/// Removes emptied `w:t` elements and then runs that hold nothing but their properties.
fn remove_empty_runs(element: &mut Element, names: &Names) {
    // Run properties alone are not content; a run with only them prints nothing.
    let is_content = |node: &Node| match node {
        Node::Element(e) => e.name != names.rpr,
        Node::Text(_) | Node::Other(_) => false,
    };
    element.children.retain_mut(|node| {
        let Node::Element(child) = node else {
            return true;
        };
        if child.name == names.p || child.name == names.txbx {
            return true;
        }
        if child.name == names.t {
            return !child.text().is_empty();
        }
        let was_run_with_content = child.name == names.r && child.children.iter().any(is_content);
        remove_empty_runs(child, names);
        !was_run_with_content || child.children.iter().any(is_content)
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xml::Document;

    const HEAD: &str =
        r#"<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">"#;

    fn merged(paragraph: &str) -> String {
        let mut doc = Document::parse(&format!("{HEAD}{paragraph}</w:document>")).unwrap();
        let root = doc.root_mut().unwrap();
        let names = Names::for_root(root);
        wordml::for_each_paragraph(root, &names, &mut |p| {
            merge_paragraph(p, &names);
        });
        let out = doc.serialize();
        out[HEAD.len()..out.len() - "</w:document>".len()].to_owned()
    }

    #[test]
    fn joins_a_placeholder_split_over_runs() {
        let input = concat!(
            r#"<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>地点：{{存</w:t></w:r>"#,
            r#"<w:proofErr w:type="spellStart"/><w:bookmarkStart w:id="0" w:name="x"/>"#,
            r#"<w:r><w:rPr><w:i/></w:rPr><w:t>放地</w:t></w:r><w:bookmarkEnd w:id="0"/>"#,
            r#"<w:r><w:t>点}}。</w:t></w:r><w:proofErr w:type="spellEnd"/></w:p>"#
        );
        let expected = concat!(
            r#"<w:p><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">地点：{{存放地点}}</w:t></w:r>"#,
            r#"<w:proofErr w:type="spellStart"/><w:bookmarkStart w:id="0" w:name="x"/>"#,
            r#"<w:bookmarkEnd w:id="0"/>"#,
            r#"<w:r><w:t xml:space="preserve">。</w:t></w:r><w:proofErr w:type="spellEnd"/></w:p>"#
        );
        assert_eq!(merged(input), expected);
    }

    #[test]
    fn joins_braces_split_one_by_one() {
        let input = concat!(
            r#"<w:p><w:r><w:t>{</w:t></w:r><w:r><w:t>{</w:t></w:r><w:r><w:t>名称</w:t></w:r>"#,
            r#"<w:r><w:t>}</w:t></w:r><w:r><w:t>}</w:t></w:r></w:p>"#
        );
        assert_eq!(
            merged(input),
            r#"<w:p><w:r><w:t xml:space="preserve">{{名称}}</w:t></w:r></w:p>"#
        );
    }

    #[test]
    fn keeps_runs_with_other_content() {
        let input = r#"<w:p><w:r><w:t>{{日</w:t></w:r><w:r><w:t>期}}</w:t><w:tab/></w:r></w:p>"#;
        assert_eq!(
            merged(input),
            r#"<w:p><w:r><w:t xml:space="preserve">{{日期}}</w:t></w:r><w:r><w:tab/></w:r></w:p>"#
        );
    }

    #[test]
    fn leaves_whole_placeholders_and_plain_text_alone() {
        let input = concat!(
            r#"<w:p><w:r><w:t>{{日期}}</w:t></w:r><w:r><w:t>{</w:t></w:r>"#,
            r#"<w:r><w:t>x</w:t></w:r></w:p>"#
        );
        assert_eq!(merged(input), input);
    }

    #[test]
    fn handles_several_placeholders_and_escapes() {
        let input = concat!(
            r#"<w:p><w:r><w:t>A&amp;{{领</w:t></w:r><w:r><w:t>用人}}{{部</w:t></w:r>"#,
            r#"<w:r><w:t>门}}&lt;</w:t></w:r></w:p>"#
        );
        assert_eq!(
            merged(input),
            concat!(
                r#"<w:p><w:r><w:t xml:space="preserve">A&amp;{{领用人}}</w:t></w:r>"#,
                r#"<w:r><w:t xml:space="preserve">{{部门}}</w:t></w:r>"#,
                r#"<w:r><w:t xml:space="preserve">&lt;</w:t></w:r></w:p>"#
            )
        );
    }

    #[test]
    fn text_box_paragraphs_are_separate() {
        let input = concat!(
            r#"<w:p><w:r><w:t>{{日</w:t></w:r><w:r><w:pict><w:txbxContent><w:p><w:r>"#,
            r#"<w:t>期}}</w:t></w:r></w:p></w:txbxContent></w:pict></w:r></w:p>"#
        );
        assert_eq!(merged(input), input);
    }
}
