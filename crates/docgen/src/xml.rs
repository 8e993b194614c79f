//! A small lossless XML tree for WordprocessingML parts: parsed with quick-xml, written back
//! byte for byte except where we changed it, so Word's markup we do not understand survives.

use quick_xml::Reader;
use quick_xml::events::Event;

/// A node of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    Element(Element),
    /// Character data, still escaped as in the source (`&amp;` stays `&amp;`).
    Text(String),
    /// Comment, CDATA, declaration, processing instruction or doctype, verbatim with delimiters.
    Other(String),
}

/// An element with its qualified name and its attributes kept as raw source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    /// Qualified name, e.g. `w:p`.
    pub name: String,
    /// Everything after the name inside the start tag, e.g. ` w:rsidR="00A1" xml:space="preserve"`.
    pub attrs: String,
    pub children: Vec<Node>,
    /// Written as `<name/>` when it has no children.
    pub self_closing: bool,
}

impl Element {
    /// A new element with no attributes.
    pub fn new(name: impl Into<String>) -> Self {
        Element {
            name: name.into(),
            attrs: String::new(),
            children: Vec::new(),
            self_closing: false,
        }
    }

    /// Child elements, skipping text and comments.
    pub fn child_elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|node| match node {
            Node::Element(e) => Some(e),
            _ => None,
        })
    }

    /// The unescaped text of this element's direct text children.
    pub fn text(&self) -> String {
        let mut raw = String::new();
        for node in &self.children {
            if let Node::Text(t) = node {
                raw.push_str(t);
            }
        }
        unescape(&raw)
    }

    /// Replaces all children by one text node holding `text` (escaped here).
    pub fn set_text(&mut self, text: &str) {
        self.children = vec![Node::Text(escape(text))];
        self.self_closing = false;
    }

    /// Whether the raw attributes contain `name=`; enough for the fixed attributes we test.
    pub fn has_attr(&self, name: &str) -> bool {
        self.attrs
            .split_whitespace()
            .any(|part| part.split('=').next() == Some(name))
    }

    /// Appends a raw attribute; the caller makes sure it is well formed and not present.
    pub fn push_attr(&mut self, raw: &str) {
        self.attrs.push(' ');
        self.attrs.push_str(raw);
    }
}

/// A parsed part: the top-level nodes (declaration, root element, …).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    pub nodes: Vec<Node>,
}

impl Document {
    /// Parses a part. Errors are plain text for `DocError::TemplateInvalid`.
    pub fn parse(source: &str) -> Result<Self, String> {
        let mut reader = Reader::from_str(source);
        reader.config_mut().check_end_names = true;
        // Stack of open elements; the bottom entry collects the top-level nodes.
        let mut stack: Vec<Element> = vec![Element::new("")];
        loop {
            let event = reader
                .read_event()
                .map_err(|e| format!("XML 解析错误（位置 {}）：{e}", reader.error_position()))?;
            let node = match event {
                Event::Eof => break,
                Event::Start(start) => {
                    stack.push(element_from(&start)?);
                    continue;
                }
                Event::End(_) => {
                    let done = stack.pop().ok_or("XML 结束标签多余")?;
                    if stack.is_empty() {
                        return Err("XML 结束标签多余".to_owned());
                    }
                    Node::Element(done)
                }
                Event::Empty(start) => {
                    let mut element = element_from(&start)?;
                    element.self_closing = true;
                    Node::Element(element)
                }
                Event::Text(text) => Node::Text(utf8(&text)?.to_owned()),
                Event::GeneralRef(reference) => Node::Text(format!("&{};", utf8(&reference)?)),
                Event::CData(data) => Node::Other(format!("<![CDATA[{}]]>", utf8(&data)?)),
                Event::Comment(text) => Node::Other(format!("<!--{}-->", utf8(&text)?)),
                Event::Decl(decl) => Node::Other(format!("<?{}?>", utf8(&decl)?)),
                Event::PI(pi) => Node::Other(format!("<?{}?>", utf8(&pi)?)),
                Event::DocType(text) => Node::Other(format!("<!DOCTYPE{}>", utf8(&text)?)),
            };
            let parent = stack.last_mut().ok_or("XML 结构错误")?;
            // Entity references arrive as separate events; keep one text node per run of text.
            match (parent.children.last_mut(), node) {
                (Some(Node::Text(previous)), Node::Text(more)) => previous.push_str(&more),
                (_, node) => parent.children.push(node),
            }
        }
        match (stack.pop(), stack.is_empty()) {
            (Some(root), true) => Ok(Document {
                nodes: root.children,
            }),
            _ => Err("XML 元素未闭合".to_owned()),
        }
    }

    /// Writes the tree back to text.
    pub fn serialize(&self) -> String {
        let mut out = String::new();
        for node in &self.nodes {
            write_node(node, &mut out);
        }
        out
    }

    /// The root element, if any.
    pub fn root_mut(&mut self) -> Option<&mut Element> {
        self.nodes.iter_mut().find_map(|node| match node {
            Node::Element(e) => Some(e),
            _ => None,
        })
    }

    /// The root element, if any.
    #[cfg(test)]
    pub fn root(&self) -> Option<&Element> {
        self.nodes.iter().find_map(|node| match node {
            Node::Element(e) => Some(e),
            _ => None,
        })
    }
}

fn utf8(bytes: &[u8]) -> Result<&str, String> {
    std::str::from_utf8(bytes).map_err(|e| format!("XML 不是 UTF-8 编码：{e}"))
}

fn element_from(start: &quick_xml::events::BytesStart<'_>) -> Result<Element, String> {
    let raw = utf8(start)?;
    let name_len = start.name().as_ref().len();
    let (name, attrs) = raw.split_at(name_len.min(raw.len()));
    Ok(Element {
        name: name.to_owned(),
        attrs: attrs.to_owned(),
        children: Vec::new(),
        self_closing: false,
    })
}

fn write_node(node: &Node, out: &mut String) {
    match node {
        Node::Text(text) | Node::Other(text) => out.push_str(text),
        Node::Element(element) => {
            out.push('<');
            out.push_str(&element.name);
            out.push_str(&element.attrs);
            if element.self_closing && element.children.is_empty() {
                out.push_str("/>");
                return;
            }
            out.push('>');
            for child in &element.children {
                write_node(child, out);
            }
            out.push_str("</");
            out.push_str(&element.name);
            out.push('>');
        }
    }
}

/// Escapes text for element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            // Control characters other than tab/newline are not allowed in XML 1.0 at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// Resolves the predefined entities and character references; unknown entities stay as written.
pub fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp..];
        let Some(semi) = after.find(';') else {
            out.push_str(after);
            return out;
        };
        let entity = &after[1..semi];
        let resolved = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => entity
                .strip_prefix("#x")
                .or_else(|| entity.strip_prefix("#X"))
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .or_else(|| entity.strip_prefix('#').and_then(|dec| dec.parse().ok()))
                .and_then(char::from_u32),
        };
        match resolved {
            Some(c) => out.push(c),
            None => out.push_str(&after[..=semi]),
        }
        rest = &after[semi + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_verbatim() {
        let source = concat!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
            "\r\n",
            r#"<w:document xmlns:w="urn:w"><!-- c --><w:body><w:p w:rsidR="1"><w:r>"#,
            r#"<w:t xml:space="preserve"> a &amp; b &#x4E2D; </w:t></w:r><w:r><w:br/></w:r>"#,
            r#"</w:p><w:sectPr/></w:body></w:document>"#
        );
        let document = Document::parse(source).unwrap();
        assert_eq!(document.serialize(), source);
    }

    #[test]
    fn text_is_unescaped_and_escaped() {
        let document =
            Document::parse(r#"<w:t a="x &amp; y">1 &lt; 2 &amp;&amp; &#20013;&#x6587;</w:t>"#)
                .unwrap();
        let root = document.root().unwrap();
        assert_eq!(root.text(), "1 < 2 && 中文");
        assert!(root.has_attr("a"));
        let mut root = root.clone();
        root.set_text("<b> & \"q\"\u{1}");
        assert_eq!(
            Document {
                nodes: vec![Node::Element(root)]
            }
            .serialize(),
            r#"<w:t a="x &amp; y">&lt;b&gt; &amp; &quot;q&quot;</w:t>"#
        );
    }

    #[test]
    fn rejects_broken_xml() {
        assert!(Document::parse("<a><b></a>").is_err());
        assert!(Document::parse("<a>").is_err());
        assert!(Document::parse("<a></a></b>").is_err());
    }

    #[test]
    fn unknown_entities_stay() {
        assert_eq!(unescape("a &nbsp; b & c"), "a &nbsp; b & c");
    }
}
