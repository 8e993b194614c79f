//! A minimal XML tree (local names, attributes, text) over quick-xml, with the encoding
//! sniffing Chinese producers need (UTF-8/16 BOMs, GBK declarations) and size limits.

use quick_xml::events::Event;
use quick_xml::reader::Reader;

/// Deeper nesting than this is refused (invoices nest a handful of levels).
const MAX_DEPTH: usize = 64;
/// More elements than this is refused (an invoice has a few hundred).
const MAX_ELEMENTS: usize = 200_000;

/// An element with its local name (namespace prefix dropped).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    /// Concatenated text directly inside this element.
    pub text: String,
    pub children: Vec<Element>,
}

impl Element {
    /// The first descendant (depth first, self included) named `name`.
    pub(crate) fn find(&self, name: &str) -> Option<&Element> {
        if self.name == name {
            return Some(self);
        }
        self.children.iter().find_map(|c| c.find(name))
    }

    /// Every descendant named `name`, in document order (not below a match).
    pub(crate) fn find_all<'a>(&'a self, name: &str, out: &mut Vec<&'a Element>) {
        if self.name == name {
            out.push(self);
            return;
        }
        for c in &self.children {
            c.find_all(name, out);
        }
    }

    /// Trimmed text of the first descendant named `name`, if non-empty.
    pub(crate) fn text_of(&self, name: &str) -> Option<&str> {
        let t = self.find(name)?.text.trim();
        (!t.is_empty()).then_some(t)
    }

    /// An attribute by local name.
    #[cfg(any(feature = "ofd", test))]
    pub(crate) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Decodes bytes to text: BOMs first, then an `encoding="…"` declaration (GBK family),
/// else UTF-8 with replacement characters.
pub(crate) fn decode(bytes: &[u8]) -> String {
    if let Some((enc, bom_len)) = encoding_rs::Encoding::for_bom(bytes) {
        let rest = bytes.get(bom_len..).unwrap_or_default();
        return enc.decode_without_bom_handling(rest).0.into_owned();
    }
    let head = bytes.get(..bytes.len().min(200)).unwrap_or_default();
    let head = String::from_utf8_lossy(head).to_ascii_lowercase();
    let declared = head
        .split("encoding=")
        .nth(1)
        .and_then(|rest| rest.get(1..))
        .and_then(|rest| rest.split(['"', '\'']).next())
        .map(str::to_owned);
    if let Some(label) = declared
        && let Some(enc) = encoding_rs::Encoding::for_label(label.as_bytes())
        && enc != encoding_rs::UTF_8
    {
        return enc.decode_without_bom_handling(bytes).0.into_owned();
    }
    String::from_utf8_lossy(bytes).into_owned()
}

/// Parses a document into its root element.
pub(crate) fn parse(bytes: &[u8]) -> Result<Element, String> {
    let text = decode(bytes);
    let mut reader = Reader::from_str(&text);
    let config = reader.config_mut();
    config.check_end_names = false;
    config.allow_unmatched_ends = true;
    config.expand_empty_elements = false;
    let mut stack: Vec<Element> = vec![Element::default()];
    let mut count = 0usize;
    loop {
        let event = reader.read_event().map_err(|e| e.to_string())?;
        match event {
            Event::Start(_) | Event::Empty(_) if stack.len() > MAX_DEPTH => {
                return Err("XML 嵌套过深".to_owned());
            }
            Event::Start(e) => {
                count += 1;
                stack.push(element(&e));
            }
            Event::Empty(e) => {
                count += 1;
                let el = element(&e);
                if let Some(parent) = stack.last_mut() {
                    parent.children.push(el);
                }
            }
            Event::End(_) => {
                if stack.len() > 1
                    && let Some(done) = stack.pop()
                    && let Some(parent) = stack.last_mut()
                {
                    parent.children.push(done);
                }
            }
            Event::Text(t) => {
                if let (Ok(s), Some(top)) = (t.decode(), stack.last_mut()) {
                    top.text.push_str(&s);
                }
            }
            Event::CData(t) => {
                if let (Ok(s), Some(top)) = (t.decode(), stack.last_mut()) {
                    top.text.push_str(&s);
                }
            }
            Event::GeneralRef(r) => {
                if let Some(top) = stack.last_mut() {
                    push_reference(&mut top.text, &r);
                }
            }
            Event::Eof => break,
            _ => {}
        }
        if count > MAX_ELEMENTS {
            return Err("XML 元素过多".to_owned());
        }
    }
    // Close anything left open by a truncated file.
    while stack.len() > 1 {
        if let Some(done) = stack.pop()
            && let Some(parent) = stack.last_mut()
        {
            parent.children.push(done);
        }
    }
    let doc = stack.pop().unwrap_or_default();
    doc.children
        .into_iter()
        .next()
        .ok_or_else(|| "XML 没有根元素".to_owned())
}

fn element(e: &quick_xml::events::BytesStart<'_>) -> Element {
    let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
    let attrs = e
        .attributes()
        .filter_map(Result::ok)
        .map(|a| {
            let key = String::from_utf8_lossy(a.key.local_name().as_ref()).into_owned();
            let value = a
                .unescape_value()
                .map(|v| v.into_owned())
                .unwrap_or_else(|_| String::from_utf8_lossy(&a.value).into_owned());
            (key, value)
        })
        .collect();
    Element {
        name,
        attrs,
        ..Element::default()
    }
}

/// Resolves `&amp;`-style and numeric character references into `out`.
fn push_reference(out: &mut String, r: &quick_xml::events::BytesRef<'_>) {
    if let Ok(Some(c)) = r.resolve_char_ref() {
        out.push(c);
        return;
    }
    let name = r.decode().unwrap_or_default();
    match name.as_ref() {
        "amp" => out.push('&'),
        "lt" => out.push('<'),
        "gt" => out.push('>'),
        "quot" => out.push('"'),
        "apos" => out.push('\''),
        other => {
            out.push('&');
            out.push_str(other);
            out.push(';');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_local_names_text_entities_and_attributes() {
        let xml = r#"<?xml version="1.0"?><a:Root xmlns:a="x"><a:Item ID="7">甲 &amp; 乙</a:Item><Empty k="v"/></a:Root>"#;
        let root = parse(xml.as_bytes()).unwrap();
        assert_eq!(root.name, "Root");
        assert_eq!(root.text_of("Item"), Some("甲 & 乙"));
        assert_eq!(root.find("Item").unwrap().attr("ID"), Some("7"));
        assert_eq!(root.find("Empty").unwrap().attr("k"), Some("v"));
    }

    #[test]
    fn decodes_gbk_declared_files() {
        let (bytes, _, _) =
            encoding_rs::GBK.encode("<?xml version=\"1.0\" encoding=\"GBK\"?><R>发票</R>");
        let root = parse(&bytes).unwrap();
        assert_eq!(root.text, "发票");
    }

    #[test]
    fn refuses_garbage_without_panicking() {
        assert!(parse(b"").is_err());
        assert!(parse(b"not xml at all").is_err());
        let deep = "<a>".repeat(100);
        assert!(parse(deep.as_bytes()).is_err());
        let truncated = parse(b"<R><S>x</S><T>").unwrap();
        assert_eq!(truncated.text_of("S"), Some("x"));
    }
}
