//! The variables a flow sees for one submission (and, inside a row loop, one row).

use crate::submission::Submission;
use crate::template::{Lookup, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// Keys of `row.*` that name the same thing: the caller may give either.
const ROW_ALIASES: [(&str, &str); 2] = [("kind", "expense_type"), ("expense_type", "kind")];

/// Variables of one submission; [`Scope::with_row`] adds a row's.
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    submission: &'a Submission,
    portal_name: &'a str,
    base_url: &'a str,
    row: Option<(usize, &'a BTreeMap<String, String>)>,
    /// The person's answer inside `ask_person`, as `person.answer`.
    answer: Option<&'a str>,
}

impl<'a> Scope<'a> {
    pub fn new(submission: &'a Submission, portal_name: &'a str, base_url: &'a str) -> Self {
        Self {
            submission,
            portal_name,
            base_url,
            row: None,
            answer: None,
        }
    }

    /// The same variables plus the person's answer as `person.answer`.
    pub fn with_answer(self, answer: &'a str) -> Self {
        Self {
            answer: Some(answer),
            ..self
        }
    }

    /// The same variables plus row `index` (0-based) as `row.*`.
    pub fn with_row(self, index: usize, row: &'a BTreeMap<String, String>) -> Self {
        Self {
            row: Some((index, row)),
            ..self
        }
    }

    /// Whether `person.answer` is defined here (inside `ask_person`).
    pub fn has_answer(&self) -> bool {
        self.answer.is_some()
    }

    /// The submission's invoice rows, for `repeat_for_each_row`.
    pub fn rows(&self) -> &'a [BTreeMap<String, String>] {
        &self.submission.rows
    }

    /// Every non-empty secret value, to scrub from messages that did not come from a template.
    pub fn secrets(&self) -> Vec<String> {
        let password = self.submission.config.password.expose();
        if password.is_empty() {
            Vec::new()
        } else {
            vec![password.to_owned()]
        }
    }

    fn config(&self, key: &str) -> Option<Value> {
        let c = &self.submission.config;
        Some(match key {
            "username" => Value::plain(&c.username),
            "password" => Value::secret(c.password.expose()),
            "default_name" => Value::plain(&c.default_name),
            "default_card_no" => Value::plain(&c.default_card_no),
            "default_person_id" => Value::plain(&c.default_person_id),
            "consumable_storage" => Value::plain(&c.consumable_storage),
            _ => return None,
        })
    }

    fn files(&self, key: &str) -> Option<Value> {
        let files = &self.submission.files;
        let show = |p: &Path| p.display().to_string();
        Some(Value::plain(match key {
            "invoices" => files
                .invoices
                .iter()
                .map(|p| show(p))
                .collect::<Vec<_>>()
                .join("\n"),
            "outbound_doc" => files.outbound_doc.as_deref().map(show).unwrap_or_default(),
            "invoice_count" => files.invoices.len().to_string(),
            _ => return None,
        }))
    }

    fn row(&self, key: &str) -> Option<Value> {
        let (index, row) = self.row?;
        match key {
            "index" => return Some(Value::plain(index.to_string())),
            "number" => return Some(Value::plain((index + 1).to_string())),
            _ => {}
        }
        row.get(key)
            .or_else(|| {
                ROW_ALIASES
                    .iter()
                    .find(|(k, _)| *k == key)
                    .and_then(|(_, alias)| row.get(*alias))
            })
            .map(Value::plain)
    }
}

/// Today in China (UTC+8), `YYYY/MM/DD` as the table writes dates.
fn china_today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    domain::format_civil_date(domain::china_day(secs))
}

impl Lookup for Scope<'_> {
    fn lookup(&self, path: &str) -> Option<Value> {
        let (namespace, key) = path.split_once('.')?;
        match namespace {
            "config" => self.config(key),
            "files" => self.files(key),
            "row" => self.row(key),
            "claim" => match key {
                "kind" => Some(Value::plain(self.submission.kind.key())),
                "row_count" => Some(Value::plain(self.submission.rows.len().to_string())),
                // A flow's 报销日期 and the like: `{{claim.today | date_dash}}`.
                "today" => Some(Value::plain(china_today())),
                _ => self.submission.extra.get(key).map(Value::plain),
            },
            "person" => match key {
                "answer" => self.answer.map(Value::plain),
                _ => None,
            },
            "portal" => match key {
                "name" => Some(Value::plain(self.portal_name)),
                "base_url" => Some(Value::plain(self.base_url)),
                _ => None,
            },
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::submission::ClaimKind;
    use domain::{Password, SessionConfig};
    use std::path::PathBuf;

    #[test]
    fn looks_up_every_namespace() {
        let mut submission = Submission::new(
            ClaimKind::Travel,
            SessionConfig {
                username: "100001".into(),
                password: Password::new("pw"),
                ..SessionConfig::default()
            },
        );
        submission.files.invoices = vec![PathBuf::from("/a.pdf"), PathBuf::from("/b.pdf")];
        submission.extra.insert("purpose".into(), "开会".into());
        let row = BTreeMap::from([("kind".to_owned(), "train".to_owned())]);
        let scope = Scope::new(&submission, "演示", "http://x");
        assert_eq!(scope.lookup("config.username").unwrap().text, "100001");
        assert!(scope.lookup("config.password").unwrap().secret);
        assert_eq!(
            scope.lookup("files.invoices").unwrap().text,
            "/a.pdf\n/b.pdf"
        );
        assert_eq!(scope.lookup("files.outbound_doc").unwrap().text, "");
        assert_eq!(scope.lookup("claim.purpose").unwrap().text, "开会");
        assert_eq!(scope.lookup("claim.kind").unwrap().text, "travel");
        let today = scope.lookup("claim.today").unwrap().text;
        assert!(
            today.len() == 10 && today.starts_with("20") && today.matches('/').count() == 2,
            "{today}"
        );
        assert_eq!(scope.lookup("portal.base_url").unwrap().text, "http://x");
        assert_eq!(scope.lookup("row.index"), None);
        assert_eq!(scope.lookup("config.nope"), None);
        let scope = scope.with_row(2, &row);
        assert_eq!(scope.lookup("row.index").unwrap().text, "2");
        assert_eq!(scope.lookup("row.number").unwrap().text, "3");
        assert_eq!(scope.lookup("row.expense_type").unwrap().text, "train");
        assert_eq!(scope.lookup("row.发票号码"), None);
        assert_eq!(scope.secrets(), ["pw"]);
    }
}
