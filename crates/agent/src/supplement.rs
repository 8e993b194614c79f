//! Supplements by text without a model: lines such as `出差事由：参加学术会议`,
//! `目的地：北京`, `出发日期：2025-03-10` or `公务卡号：6217 0000 1111 2222` become field
//! updates. The keys are a table (one entry per field, with the names people use); a value is
//! normalised by the field's kind.

use domain::{format_civil_date, parse_civil_date};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where a supplied value goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// A trip field of the travel application.
    Trip(&'static str),
    /// A configuration field.
    Config(&'static str),
    /// A column of every row (and the configuration's default where there is one).
    Cell(&'static str, Option<&'static str>),
}

/// How a value is cleaned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Date,
    Digits,
}

/// The keys people write, by field.
const KEYS: &[(&[&str], Target, Kind)] = &[
    (
        &["出差事由", "事由", "出差目的", "出差原因"],
        Target::Trip("出差事由"),
        Kind::Text,
    ),
    (
        &["出发地", "出发城市", "始发地"],
        Target::Trip("出发地"),
        Kind::Text,
    ),
    (
        &["目的地", "到达地", "出差地点", "出差地"],
        Target::Trip("目的地"),
        Kind::Text,
    ),
    (
        &["出发日期", "出发时间", "开始日期"],
        Target::Trip("出发日期"),
        Kind::Date,
    ),
    (
        &["返回日期", "返回时间", "结束日期", "返程日期"],
        Target::Trip("返回日期"),
        Kind::Date,
    ),
    (&["出差人"], Target::Trip("出差人"), Kind::Text),
    (
        &["人员姓名", "报销人", "姓名"],
        Target::Cell("人员姓名", Some("default_name")),
        Kind::Text,
    ),
    (
        &["公务卡号", "公务卡", "卡号"],
        Target::Cell("公务卡号", Some("default_card_no")),
        Kind::Digits,
    ),
    (
        &["工号", "财务工号"],
        Target::Config("username"),
        Kind::Text,
    ),
    (
        &["存放地点", "存放位置"],
        Target::Config("consumable_storage"),
        Kind::Text,
    ),
];

/// The updates one text supplement gives.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextUpdates {
    /// Trip fields by Chinese name.
    pub trip: BTreeMap<String, String>,
    /// Configuration fields by name.
    pub config: BTreeMap<String, String>,
    /// Columns to set in every row.
    pub cells: BTreeMap<String, String>,
    /// Lines no key was found in, kept as the user wrote them.
    pub unrecognised: Vec<String>,
}

impl TextUpdates {
    /// Whether the text gave nothing to update (unrecognised lines aside).
    pub fn is_empty(&self) -> bool {
        self.trip.is_empty() && self.config.is_empty() && self.cells.is_empty()
    }
}

fn clean(value: &str, kind: Kind) -> Option<String> {
    let value = value
        .trim()
        .trim_matches(['。', '；', ';', '，', ','])
        .trim();
    match kind {
        Kind::Text => (!value.is_empty()).then(|| value.to_owned()),
        Kind::Date => parse_civil_date(value).map(format_civil_date),
        Kind::Digits => {
            let digits: String = value
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '-')
                .collect();
            (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())).then_some(digits)
        }
    }
}

/// Splits `key：value` (full-width or ASCII colon, or `key 是 value`).
fn split_key(line: &str) -> Option<(&str, &str)> {
    line.split_once(['：', ':'])
        .or_else(|| line.split_once('是'))
        .map(|(k, v)| (k.trim(), v.trim()))
}

/// Parses a text supplement. A text in which no key is found at all is taken whole as the
/// 出差事由 when `purpose_wanted` (the judgement asked for it), else left unrecognised.
pub fn parse_text(text: &str, purpose_wanted: bool) -> TextUpdates {
    let mut updates = TextUpdates::default();
    for line in text
        .split(['\n', '；', ';'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
    {
        let found = split_key(line).and_then(|(key, value)| {
            KEYS.iter()
                .find(|(names, _, _)| names.contains(&key))
                .and_then(|(_, target, kind)| clean(value, *kind).map(|v| (*target, v)))
        });
        match found {
            Some((Target::Trip(name), value)) => {
                updates.trip.insert(name.to_owned(), value);
            }
            Some((Target::Config(name), value)) => {
                updates.config.insert(name.to_owned(), value);
            }
            Some((Target::Cell(column, config), value)) => {
                if let Some(config) = config {
                    updates.config.insert(config.to_owned(), value.clone());
                }
                updates.cells.insert(column.to_owned(), value);
            }
            None => updates.unrecognised.push(line.to_owned()),
        }
    }
    if updates.is_empty() && purpose_wanted && !text.trim().is_empty() {
        updates
            .trip
            .insert("出差事由".to_owned(), text.trim().to_owned());
        updates.unrecognised.clear();
    }
    updates
}

/// What the model is asked when a model reads a text supplement; the text follows.
pub const SUPPLEMENT_PROMPT: &str = "报销人补充了一段文字。请从中提取要更新的字段，没有提到的字段填空字符串，不要猜测：\
出差事由、出发地、目的地、出发日期（YYYY/MM/DD）、返回日期（YYYY/MM/DD）、出差人、人员姓名、公务卡号（只含数字）、工号、存放地点。只输出 JSON。";

/// The keys of the model's answer: the first name of each entry of the key table.
pub fn supplement_schema() -> serde_json::Value {
    let properties: serde_json::Map<String, serde_json::Value> = KEYS
        .iter()
        .filter_map(|(names, _, _)| names.first())
        .map(|name| ((*name).to_owned(), serde_json::json!({"type": "string"})))
        .collect();
    let required: Vec<&str> = KEYS
        .iter()
        .filter_map(|(names, _, _)| names.first().copied())
        .collect();
    serde_json::json!({"type": "object", "required": required, "properties": properties})
}

/// The updates a model's answer gives: each key through the same table and cleaning as a
/// typed line, so a model cannot set what the user could not.
pub fn updates_from_answer(answer: &serde_json::Value) -> TextUpdates {
    let lines: Vec<String> = answer
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(key, value)| {
            value
                .as_str()
                .filter(|v| !v.trim().is_empty())
                .map(|v| format!("{key}：{v}"))
        })
        .collect();
    let mut updates = parse_text(&lines.join("\n"), false);
    updates.unrecognised.clear();
    updates
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyed_lines_become_updates_with_clean_values() {
        let updates = parse_text(
            "出差事由：参加学术会议\n目的地: 北京；出发日期：2025-3-10\n返回日期 是 2025年3月12日\n公务卡号：6217 0000 1111 2222\n存放地点：实验楼 301",
            false,
        );
        assert_eq!(updates.trip["出差事由"], "参加学术会议");
        assert_eq!(updates.trip["目的地"], "北京");
        assert_eq!(updates.trip["出发日期"], "2025/03/10");
        assert_eq!(updates.trip["返回日期"], "2025/03/12");
        assert_eq!(updates.cells["公务卡号"], "6217000011112222");
        assert_eq!(updates.config["default_card_no"], "6217000011112222");
        assert_eq!(updates.config["consumable_storage"], "实验楼 301");
        assert!(updates.unrecognised.is_empty());
    }

    #[test]
    fn every_key_of_the_table_is_understood() {
        for (names, target, kind) in KEYS {
            let value = match kind {
                Kind::Date => "2025/03/10",
                Kind::Digits => "6217000011112222",
                Kind::Text => "某值",
            };
            for name in *names {
                let updates = parse_text(&format!("{name}：{value}"), false);
                let got = match target {
                    Target::Trip(field) => updates.trip.get(*field),
                    Target::Config(field) => updates.config.get(*field),
                    Target::Cell(column, _) => updates.cells.get(*column),
                };
                assert_eq!(got.map(String::as_str), Some(value), "{name}");
            }
        }
    }

    #[test]
    fn a_models_answer_goes_through_the_same_table() {
        let answer = serde_json::json!({"出差事由": "参加学术会议", "返回日期": "2025-3-12", "公务卡号": "不是数字", "密码": "x"});
        let updates = updates_from_answer(&answer);
        assert_eq!(updates.trip["出差事由"], "参加学术会议");
        assert_eq!(updates.trip["返回日期"], "2025/03/12");
        assert!(updates.cells.is_empty() && updates.config.is_empty());
        assert_eq!(
            supplement_schema()["required"].as_array().unwrap().len(),
            KEYS.len()
        );
    }

    #[test]
    fn a_bad_value_is_not_taken_and_free_text_answers_the_purpose() {
        let updates = parse_text("出发日期：下周一", false);
        assert!(updates.trip.is_empty());
        assert_eq!(updates.unrecognised, ["出发日期：下周一"]);
        let updates = parse_text("参加 2025 年计算机学会年会", true);
        assert_eq!(updates.trip["出差事由"], "参加 2025 年计算机学会年会");
        assert!(parse_text("随便说点什么", false).is_empty());
    }
}
