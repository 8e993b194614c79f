//! HTML text: escaping every value that comes from a user or the configuration, and the frame of
//! every page (same stylesheet, scripts at the end of the body as older systems load them).

/// The system's title, shown on the login page and the top bar.
pub(crate) const SYSTEM_NAME: &str = "某某大学财务网上报销系统（测试）";

/// Text made safe for element content and quoted attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A whole page: `body` is already HTML; `scripts` are paths under `/static/`.
pub(crate) fn page(title: &str, body_class: &str, body: &str, scripts: &[&str]) -> String {
    let scripts: String = scripts
        .iter()
        .map(|s| format!("<script src=\"/static/{s}\"></script>\n"))
        .collect();
    format!(
        "<!DOCTYPE html>\n<html lang=\"zh-CN\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<link rel=\"stylesheet\" href=\"/static/portal.css\">\n\
         </head>\n<body class=\"{body_class}\">\n{body}\n{scripts}</body>\n</html>\n",
        title = escape(title),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }
}
