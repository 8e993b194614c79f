//! HTML escaping: every value that did not come from this crate's own source goes through `esc`.

use std::fmt;

/// Escapes `text` for HTML element content and for double- or single-quoted attribute values.
pub fn escape(text: &str) -> String {
    esc(text).to_string()
}

/// A value that escapes itself as it is formatted, so templates can write
/// `format!("<td>{}</td>", esc(value))` without an intermediate string.
pub fn esc(text: &str) -> Escaped<'_> {
    Escaped(text)
}

/// See [`esc`].
#[derive(Debug, Clone, Copy)]
pub struct Escaped<'a>(&'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(pos) = rest.find(['&', '<', '>', '"', '\'']) {
            f.write_str(&rest[..pos])?;
            let entity = match rest.as_bytes().get(pos) {
                Some(b'&') => "&amp;",
                Some(b'<') => "&lt;",
                Some(b'>') => "&gt;",
                Some(b'"') => "&quot;",
                _ => "&#39;",
            };
            f.write_str(entity)?;
            // The matched characters are all one byte long.
            rest = &rest[pos + 1..];
        }
        f.write_str(rest)
    }
}

/// Serialises `value` as JSON that is safe inside an inline `<script>` element: `<`, `>` and `&`
/// become unicode escapes, so no string in it can close the script or open a comment.
pub fn script_json<T: serde::Serialize>(value: &T) -> String {
    let json = serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned());
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_the_five_special_characters() {
        assert_eq!(
            escape(r#"<a href="x">Tom & Jerry's</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;"
        );
    }

    #[test]
    fn leaves_other_text_alone() {
        assert_eq!(escape("张三 差旅 ¥12.30"), "张三 差旅 ¥12.30");
        assert_eq!(escape(""), "");
    }

    #[test]
    fn handles_specials_next_to_multibyte_characters() {
        assert_eq!(escape("发票<号码>&"), "发票&lt;号码&gt;&amp;");
        assert_eq!(escape("&&"), "&amp;&amp;");
    }

    #[test]
    fn escaping_is_not_idempotent_so_never_escape_twice() {
        assert_eq!(escape(&escape("&")), "&amp;amp;");
    }

    #[test]
    fn script_json_cannot_close_the_script() {
        let json = script_json(&["</script><!--", "a&b"]);
        assert!(!json.contains('<'));
        assert!(!json.contains('&'));
        let back: Vec<String> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ["</script><!--", "a&b"]);
    }
}
