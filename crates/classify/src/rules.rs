//! The rules table: parsing, and applying it to an invoice record.

use crate::ClassifyRulesError;
use crate::text::{category, normalise};
use domain::{DocumentType, InvoiceKind, InvoiceRecord};
use serde::Deserialize;
use std::sync::LazyLock;

const BUILTIN: &str = include_str!("../rules/default.toml");

/// One row of a [`ClassifyRules`] table (a `[[rule]]`). Every condition given must hold; each
/// lists alternatives, of which one must hold. Text in conditions is kept NFKC-normalised with
/// whitespace removed, as the invoice's text is compared.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassifyRule {
    /// The rule's name, reported in [`Classification::rule`] when it decides.
    pub name: String,
    /// The class the rule gives.
    pub kind: InvoiceKind,
    /// The invoice's layout is one of these (empty: any layout).
    #[serde(default)]
    pub doc_types: Vec<DocumentType>,
    /// An item's `*category*` prefix, without the asterisks, is one of these
    /// (`*住宿服务*住宿费` has `住宿服务`).
    #[serde(default)]
    pub item_category: Vec<String>,
    /// An item's full name (category included) contains one of these.
    #[serde(default)]
    pub item_name_contains: Vec<String>,
    /// The seller's name contains one of these.
    #[serde(default)]
    pub seller_contains: Vec<String>,
}

/// An ordered rules table; the first matching rule decides, and an invoice no rule matches is
/// [`InvoiceKind::General`].
///
/// The table is TOML, one `[[rule]]` per [`ClassifyRule`]:
///
/// ```toml
/// [[rule]]
/// name = "hotel stay"
/// kind = "travel"                     # or "general"
/// item_category = ["住宿服务", "住宿"]
///
/// [[rule]]
/// name = "transport and lodging sellers"
/// kind = "travel"
/// seller_contains = ["铁路", "航空", "酒店"]
/// ```
///
/// Conditions are `doc_types` (`railway`, `air_itinerary`, `toll`, `digital_normal`,
/// `digital_special`, `vat_e_normal`, `vat_e_special`, `general_machine`), `item_category`,
/// `item_name_contains` and `seller_contains`; a rule needs at least one. Item conditions hold
/// when a single line item satisfies all of the rule's item conditions. Text is compared after
/// NFKC normalisation with whitespace removed, so spaced-out or Kangxi-radical text matches.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassifyRules {
    #[serde(rename = "rule")]
    rules: Vec<ClassifyRule>,
}

/// The class of an invoice and the rule that decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    /// Travel or general.
    pub kind: InvoiceKind,
    /// The [`ClassifyRule::name`] of the deciding rule; `None` when no rule matched (then the
    /// kind is general).
    pub rule: Option<String>,
}

static BUILTIN_RULES: LazyLock<ClassifyRules> = LazyLock::new(|| {
    // The built-in table is checked by a unit test, so this fallback never happens in a
    // released build; it keeps start-up panic-free all the same.
    ClassifyRules::parse(BUILTIN).unwrap_or(ClassifyRules { rules: Vec::new() })
});

impl ClassifyRules {
    /// The table shipped with the crate (its `rules/default.toml`): rail, flight and toll
    /// documents, hotel stays, passenger transport, ticket and lodging bookings and tolls are
    /// travel; meals are general even at a hotel.
    pub fn builtin() -> &'static ClassifyRules {
        &BUILTIN_RULES
    }

    /// Parses a table in the format described on [`ClassifyRules`].
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

    /// The rules, in the order they are tried.
    pub fn rules(&self) -> &[ClassifyRule] {
        &self.rules
    }

    /// The class of `record` by the first rule that matches it.
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
