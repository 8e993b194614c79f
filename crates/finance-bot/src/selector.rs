//! Element selectors as flow files write them: CSS by default, or `css:`, `xpath:`, `id:` prefixed.

use std::fmt;
use thirtyfour::By;

/// A rendered selector, ready to hand to WebDriver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    Css(String),
    XPath(String),
    Id(String),
}

impl Selector {
    /// Parses a rendered selector; `None` for an empty one.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        let (make, body): (fn(String) -> Self, &str) =
            if let Some(rest) = text.strip_prefix("xpath:") {
                (Self::XPath, rest)
            } else if let Some(rest) = text.strip_prefix("css:") {
                (Self::Css, rest)
            } else if let Some(rest) = text.strip_prefix("id:") {
                (Self::Id, rest)
            } else {
                (Self::Css, text)
            };
        let body = body.trim();
        (!body.is_empty()).then(|| make(body.to_owned()))
    }

    pub fn by(&self) -> By {
        match self {
            Self::Css(s) => By::Css(s.clone()),
            Self::XPath(s) => By::XPath(s.clone()),
            Self::Id(s) => By::Id(s.clone()),
        }
    }
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Css(s) => f.write_str(s),
            Self::XPath(s) => write!(f, "xpath:{s}"),
            Self::Id(s) => write!(f, "id:{s}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes() {
        assert_eq!(
            Selector::parse("#a .b"),
            Some(Selector::Css("#a .b".into()))
        );
        assert_eq!(Selector::parse("css: #a"), Some(Selector::Css("#a".into())));
        assert_eq!(
            Selector::parse("xpath://a[@id='x']"),
            Some(Selector::XPath("//a[@id='x']".into()))
        );
        assert_eq!(
            Selector::parse("id:main"),
            Some(Selector::Id("main".into()))
        );
        assert_eq!(Selector::parse("  "), None);
        assert_eq!(Selector::parse("xpath:"), None);
        assert_eq!(Selector::parse("id:main").unwrap().to_string(), "id:main");
    }
}
