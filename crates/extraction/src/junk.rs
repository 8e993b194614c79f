//! Text layers that lie: glyphs a producer left without a usable Unicode mapping come out as
//! U+FFFD, private-use code points, control characters or `(cid:N)`. Such runs are found here
//! so that they can be read again from the page's image (or dropped), while the runs around
//! them, often the values themselves, are kept. Look-alikes (Kangxi radicals, full-width
//! forms) are not junk: [`crate::text::normalize`] folds them.

use crate::geometry::Page;

/// Whether a character carries no meaning of its own in a text layer.
pub(crate) fn is_junk_char(c: char) -> bool {
    matches!(c,
        '\u{FFFD}'
        | '\u{E000}'..='\u{F8FF}'
        | '\u{F0000}'..='\u{FFFFD}'
        | '\u{100000}'..='\u{10FFFD}'
    ) || (c.is_control() && !c.is_whitespace())
}

/// Whether a run is mostly junk (it must be read again): more junk characters than others, or
/// a `(cid:N)` placeholder.
#[cfg(feature = "ocr")]
pub(crate) fn is_junk_run(text: &str) -> bool {
    if text.contains("(cid:") {
        return true;
    }
    let (junk, all) = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .fold((0usize, 0usize), |(j, a), c| {
            (j + usize::from(is_junk_char(c)), a + 1)
        });
    all > 0 && 2 * junk > all
}

/// The indices of a page's junk runs.
#[cfg(feature = "ocr")]
pub(crate) fn junk_runs(page: &Page) -> Vec<usize> {
    page.runs
        .iter()
        .enumerate()
        .filter(|(_, r)| is_junk_run(&r.text))
        .map(|(i, _)| i)
        .collect()
}

/// Drops junk characters from every run (and runs left empty): what remains is what the
/// layer says truthfully. Used when nothing can read the page's image.
pub(crate) fn strip(page: &mut Page) {
    for run in &mut page.runs {
        if run.text.chars().any(is_junk_char) || run.text.contains("(cid:") {
            let without_cid = strip_cid(&run.text);
            run.text = without_cid.chars().filter(|c| !is_junk_char(*c)).collect();
        }
    }
    page.runs.retain(|r| !r.text.trim().is_empty());
}

/// Removes `(cid:N)` placeholders.
fn strip_cid(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(start) = rest.find("(cid:") {
        out.push_str(rest.get(..start).unwrap_or_default());
        let after = rest.get(start..).unwrap_or_default();
        match after.find(')') {
            Some(end) => rest = after.get(end + 1..).unwrap_or_default(),
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Run;

    #[test]
    fn junk_characters() {
        for c in ['\u{FFFD}', '\u{E123}', '\u{F0001}', '\u{1}'] {
            assert!(is_junk_char(c), "{c:?}");
        }
        for c in ['发', 'A', '1', '¥', ' ', '\u{2F26}'] {
            assert!(!is_junk_char(c), "{c:?}");
        }
    }

    #[test]
    #[cfg(feature = "ocr")]
    fn runs_that_are_mostly_junk() {
        assert!(is_junk_run("\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"));
        assert!(is_junk_run("(cid:12)(cid:40)"));
        assert!(is_junk_run("\u{E000}\u{E001}:"));
        assert!(!is_junk_run("\u{FFFD}中铁文化旅游投资集团有限公司"));
        assert!(!is_junk_run("04868861"));
        assert!(!is_junk_run(""));
    }

    #[test]
    fn strip_keeps_the_values() {
        let mut page = Page {
            width: 600.0,
            height: 400.0,
            runs: vec![
                Run::new("\u{FFFD}\u{FFFD}\u{FFFD}", 10.0, 10.0, 40.0, 9.0),
                Run::new("\u{FFFD}04868861", 50.0, 10.0, 90.0, 9.0),
                Run::new("(cid:3)名称(cid:4)", 10.0, 30.0, 40.0, 9.0),
            ],
        };
        strip(&mut page);
        let texts: Vec<&str> = page.runs.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(texts, ["04868861", "名称"]);
    }
}
