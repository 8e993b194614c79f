//! Text normalisation for rule matching: NFKC, whitespace removed.

use unicode_normalization::UnicodeNormalization;

pub(crate) fn normalise(text: &str) -> String {
    text.nfkc().filter(|c| !c.is_whitespace()).collect()
}

/// The `*category*` prefix of an item name, if it has one.
pub(crate) fn category(item_name: &str) -> Option<&str> {
    let rest = item_name.strip_prefix('*')?;
    let end = rest.find('*')?;
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_kangxi_and_spaces() {
        assert_eq!(normalise("住 宿\u{2F45}"), "住宿方");
    }

    #[test]
    fn finds_the_category() {
        assert_eq!(category("*住宿服务*住宿费"), Some("住宿服务"));
        assert_eq!(category("住宿费"), None);
        assert_eq!(category("*unterminated"), None);
    }
}
