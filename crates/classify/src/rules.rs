//! The rules table: parsing, and applying it to an invoice record.

use crate::ClassifyRulesError;
use crate::text::{category, normalise};
use domain::{DocumentType, InvoiceKind, InvoiceRecord};
use serde::Deserialize;
use std::sync::LazyLock;

const BUILTIN: &str = include_str!("../rules/default.toml");

/// One row of the table. Every condition given must hold; each lists alternatives.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassifyRule {
    pub name: String,
    pub kind: InvoiceKind,
    #[serde(default)]
    pub doc_types: Vec<DocumentType>,
    #[serde(default)]
    pub item_category: Vec<String>,
    #[serde(default)]
    pub item_name_contains: Vec<String>,
    #[serde(default)]
    pub seller_contains: Vec<String>,
}

/// An ordered rules table; the first matching rule decides.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassifyRules {
    #[serde(rename = "rule")]
    rules: Vec<ClassifyRule>,
}

/// The class of an invoice and the rule that decided it (`None`: no rule matched, general).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    pub kind: InvoiceKind,
    pub rule: Option<String>,
}

static BUILTIN_RULES: LazyLock<ClassifyRules> = LazyLock::new(|| {
    // The built-in table is checked by a unit test, so this fallback never happens in a
    // released build; it keeps start-up panic-free all the same.
    ClassifyRules::parse(BUILTIN).unwrap_or(ClassifyRules { rules: Vec::new() })
});

impl ClassifyRules {
    /// The table shipped with the project.
    pub fn builtin() -> &'static ClassifyRules {
        &BUILTIN_RULES
    }

    /// Parses a table in the format of `rules/default.toml`.
    pub fn parse(text: &str) -> Result<Self, ClassifyRulesError> {
        let mut set: ClassifyRules =
            toml::from_str(text).map_err(|e| ClassifyRulesError::Invalid(e.to_string()))?;
        for rule in &mut set.rules {
            let has_condition = !(rule.doc_types.is_empty()
                && rule.item_category.is_empty()
                && rule.item_name_contains.is_empty()
                && rule.seller_contains.is_empty());
            if !has_condition {
                return Err(ClassifyRulesError::Invalid(format!(
                    "rule `{}` has no condition",
                    rule.name
                )));
            }
            for list in [
                &mut rule.item_category,
                &mut rule.item_name_contains,
                &mut rule.seller_contains,
            ] {
                for entry in list.iter_mut() {
                    *entry = normalise(entry);
                }
            }
        }
        Ok(set)
    }

    pub fn rules(&self) -> &[ClassifyRule] {
        &self.rules
    }

    pub fn classify(&self, record: &InvoiceRecord) -> Classification {
        let items: Vec<String> = record.items.iter().map(|i| normalise(&i.name)).collect();
        let seller = normalise(&record.seller.name);
        for rule in &self.rules {
            if rule.matches(record.doc_type, &items, &seller) {
                return Classification {
                    kind: rule.kind,
                    rule: Some(rule.name.clone()),
                };
            }
        }
        Classification {
            kind: InvoiceKind::General,
            rule: None,
        }
    }
}

impl ClassifyRule {
    fn matches(&self, doc_type: DocumentType, items: &[String], seller: &str) -> bool {
        let doc_ok = self.doc_types.is_empty() || self.doc_types.contains(&doc_type);
        let has_item_condition =
            !(self.item_category.is_empty() && self.item_name_contains.is_empty());
        let items_ok = !has_item_condition || items.iter().any(|item| self.item_matches(item));
        let seller_ok = self.seller_contains.is_empty()
            || self
                .seller_contains
                .iter()
                .any(|part| seller.contains(part.as_str()));
        doc_ok && items_ok && seller_ok
    }

    fn item_matches(&self, item: &str) -> bool {
        let category_ok = self.item_category.is_empty()
            || category(item).is_some_and(|c| self.item_category.iter().any(|want| want == c));
        let name_ok = self.item_name_contains.is_empty()
            || self
                .item_name_contains
                .iter()
                .any(|part| item.contains(part.as_str()));
        category_ok && name_ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // What each rule decides is tested case by case in tests/rules.rs.

    #[test]
    fn the_builtin_table_parses() {
        let set = ClassifyRules::parse(BUILTIN).unwrap();
        assert!(set.rules().len() >= 6);
        assert_eq!(ClassifyRules::builtin().rules().len(), set.rules().len());
    }

    #[test]
    fn invalid_tables_are_refused() {
        assert!(ClassifyRules::parse("[[rule]]\nname = \"x\"\nkind = \"travel\"\n").is_err());
        assert!(
            ClassifyRules::parse(
                "[[rule]]\nname = \"x\"\nkind = \"bogus\"\ndoc_types=[\"railway\"]"
            )
            .is_err()
        );
        assert!(
            ClassifyRules::parse("[[rule]]\nname = \"x\"\nkind = \"travel\"\nunknown = 1").is_err()
        );
    }
}
