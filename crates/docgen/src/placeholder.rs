//! Placeholder syntax: `{{名称}}` typed into the Word template, with ASCII or full-width
//! braces, and the names the document knows.

use std::ops::Range;

/// A placeholder found in a piece of text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Byte range of the whole placeholder, braces included.
    pub range: Range<usize>,
    /// The name between the braces, trimmed.
    pub name: String,
}

/// What a placeholder name stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// Filled once per document.
    Scalar(ScalarField),
    /// Filled once per item, in the item row.
    Item(ItemField),
}

/// Header and totals fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarField {
    Date,
    Claimant,
    Department,
    Storage,
    TotalAmount,
    TotalCapital,
}

/// Fields of one item row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemField {
    Index,
    Name,
    Spec,
    Unit,
    Quantity,
    UnitPrice,
    Amount,
}

/// Longest name accepted between the braces; longer brace pairs are ordinary text.
const MAX_NAME_CHARS: usize = 30;

/// Looks a name up. Aliases exist where clerks are likely to type the shorter or the longer
/// form of the column title.
pub fn field(name: &str) -> Option<Field> {
    use ItemField as I;
    use ScalarField as S;
    Some(match name {
        "日期" => Field::Scalar(S::Date),
        "领用人" => Field::Scalar(S::Claimant),
        "部门" => Field::Scalar(S::Department),
        "存放地点" => Field::Scalar(S::Storage),
        "合计金额" | "合计" => Field::Scalar(S::TotalAmount),
        "合计大写" | "大写金额" => Field::Scalar(S::TotalCapital),
        "序号" => Field::Item(I::Index),
        "名称" => Field::Item(I::Name),
        "规格型号" | "规格" => Field::Item(I::Spec),
        "单位" => Field::Item(I::Unit),
        "数量" => Field::Item(I::Quantity),
        "单价" => Field::Item(I::UnitPrice),
        "金额" => Field::Item(I::Amount),
        _ => return None,
    })
}

fn is_open(c: char) -> bool {
    c == '{' || c == '｛'
}

fn is_close(c: char) -> bool {
    c == '}' || c == '｝'
}

/// Finds every placeholder in `text`, left to right, without overlaps. A brace pair whose
/// content is empty, too long, or contains a brace is not a placeholder and stays text.
pub fn find_all(text: &str) -> Vec<Found> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i + 1 < chars.len() {
        if !(is_open(chars[i].1) && is_open(chars[i + 1].1)) {
            i += 1;
            continue;
        }
        // `{{{名称}}}`: the innermost pair counts, as a clerk would expect.
        let mut start = i;
        while start + 2 < chars.len() && is_open(chars[start + 2].1) {
            start += 1;
        }
        let name_start = start + 2;
        let mut end = name_start;
        while end < chars.len() && !is_open(chars[end].1) && !is_close(chars[end].1) {
            end += 1;
        }
        let closed = end + 1 < chars.len() && is_close(chars[end].1) && is_close(chars[end + 1].1);
        if closed {
            let byte_start = chars[name_start].0;
            let byte_end = chars[end].0;
            let name = text[byte_start..byte_end].trim();
            if !name.is_empty() && name.chars().count() <= MAX_NAME_CHARS {
                let close_end = chars.get(end + 2).map_or(text.len(), |(b, _)| *b);
                found.push(Found {
                    range: chars[start].0..close_end,
                    name: name.to_owned(),
                });
                i = end + 2;
                continue;
            }
        }
        i = start + 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<String> {
        find_all(text).into_iter().map(|f| f.name).collect()
    }

    #[test]
    fn finds_ascii_and_full_width_braces() {
        assert_eq!(names("日期：{{日期}} 部门：｛｛部门｝｝"), ["日期", "部门"]);
        assert_eq!(names("{｛领用人}｝"), ["领用人"]);
        assert_eq!(names("{{ 存放地点 }}"), ["存放地点"]);
    }

    #[test]
    fn ranges_cover_the_braces() {
        let text = "a{{名称}}b";
        let found = find_all(text);
        assert_eq!(&text[found[0].range.clone()], "{{名称}}");
        let text = "{{{金额}}}";
        let found = find_all(text);
        assert_eq!(&text[found[0].range.clone()], "{{金额}}");
    }

    #[test]
    fn ignores_what_is_not_a_placeholder() {
        assert!(names("{{}} {{ }} {名称} {{名称} 名称}}").is_empty());
        assert!(names(&format!("{{{{{}}}}}", "长".repeat(31))).is_empty());
        assert_eq!(names("{{a{{名称}}"), ["名称"]);
    }

    #[test]
    fn knows_the_field_names() {
        assert_eq!(field("规格"), field("规格型号"));
        assert_eq!(field("存放地点"), Some(Field::Scalar(ScalarField::Storage)));
        assert_eq!(field("金额"), Some(Field::Item(ItemField::Amount)));
        assert_eq!(field("物品"), None);
    }
}
