//! The `result` objects carried by the SSE `done` event and written to result.json.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// What happened to the outbound-stock document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocOutcome {
    /// Generated; `doc_url` is its download path. `left_out` names the rows the document
    /// could not take (no readable amount), sent as `doc_error` beside `doc_ok: true`.
    Generated {
        /// The document's download path.
        doc_url: String,
        /// The rows left out, in the user's words; None when every row is in.
        left_out: Option<String>,
    },
    /// Skipped because every invoice is a travel invoice.
    Skipped {
        /// Why, in the user's words.
        message: String,
    },
    /// Generation failed; the CSV may still have been produced.
    Failed {
        /// Why, in the user's words.
        error: String,
    },
}

impl DocOutcome {
    /// The interface's fields for this outcome: doc_ok, and doc_url / doc_skipped +
    /// doc_message / doc_error.
    pub fn fields(&self) -> Map<String, Value> {
        let value = match self {
            Self::Generated {
                doc_url,
                left_out: None,
            } => json!({"doc_ok": true, "doc_url": doc_url}),
            Self::Generated {
                doc_url,
                left_out: Some(message),
            } => json!({"doc_ok": true, "doc_url": doc_url, "doc_error": message}),
            Self::Skipped { message } => {
                json!({"doc_ok": null, "doc_skipped": true, "doc_message": message})
            }
            Self::Failed { error } => json!({"doc_ok": false, "doc_error": error}),
        };
        match value {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }
}

/// What became of the printed claim (`报销材料.pdf`) after a table change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum PackageOutcome {
    /// Generated; `preview_url` is the PNG of its first page when one could be drawn.
    Generated {
        /// The PDF's download path.
        package_url: String,
        /// The PNG of the first page; None when it could not be drawn.
        preview_url: Option<String>,
        /// Attachments placed as cards or left out, one sentence each.
        notes: Vec<String>,
    },
    /// No package: the table has no rows.
    Skipped {
        /// Why, in the user's words.
        message: String,
    },
    /// Generation failed; everything else of the run stands.
    Failed {
        /// Why, in the user's words.
        error: String,
    },
}

impl PackageOutcome {
    /// The result fields: package_ok (true, null when skipped, false), package_url and
    /// package_preview_url, or package_error; package_notes when something was not placed.
    pub fn fields(&self) -> Map<String, Value> {
        let value = match self {
            Self::Generated {
                package_url,
                preview_url,
                notes,
            } => {
                let mut value = json!({"package_ok": true, "package_url": package_url,
                    "package_preview_url": preview_url});
                if !notes.is_empty() {
                    value["package_notes"] = json!(notes);
                }
                value
            }
            Self::Skipped { message } => json!({"package_ok": null, "package_message": message}),
            Self::Failed { error } => json!({"package_ok": false, "package_error": error}),
        };
        match value {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }
}

/// Result of POST /api/process.
#[derive(Debug, Clone, PartialEq)]
pub struct ProcessResult {
    /// How long the run took, written as `elapsed` (`3.27s`).
    pub elapsed_secs: f64,
    /// Invoices kept (duplicates excluded).
    pub invoice_count: usize,
    /// The download path of invoice_summary.csv.
    pub csv_url: String,
    /// Invoices classed as travel.
    pub travel_count: usize,
    /// Invoices classed as general.
    pub general_count: usize,
    /// What happened to the outbound-stock document.
    pub doc: DocOutcome,
    /// Further fields an issue adds (unmatched payments, duplicates, …).
    pub extra: Map<String, Value>,
}

impl ProcessResult {
    /// The result object of the interface: `ok: true`, the counts, the document's fields and
    /// the extra fields (which never replace the others).
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        map.insert("ok".into(), Value::Bool(true));
        map.insert(
            "elapsed".into(),
            Value::String(format_elapsed(self.elapsed_secs)),
        );
        map.insert("invoice_count".into(), json!(self.invoice_count));
        map.insert("csv_url".into(), json!(self.csv_url));
        map.insert("travel_count".into(), json!(self.travel_count));
        map.insert("general_count".into(), json!(self.general_count));
        map.extend(self.doc.fields());
        for (key, value) in &self.extra {
            map.entry(key.clone()).or_insert_with(|| value.clone());
        }
        Value::Object(map)
    }
}

/// Elapsed seconds as the interface writes them: a number with two decimals and `s`.
pub fn format_elapsed(secs: f64) -> String {
    format!("{secs:.2}s")
}

/// Result of a finance submission (submit-financial and force-submit).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SubmitResult {
    /// Whether the submission ran (one the portal refused included); false when it was not
    /// allowed to start.
    pub ok: bool,
    /// Whether the finance system accepted the claim.
    pub submit_ok: bool,
    /// Why the submission failed, in the user's words.
    pub submit_error: Option<String>,
}

/// Result of any background job that failed: `ok=false` with `error`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailureResult {
    /// Always false.
    pub ok: bool,
    /// Why the job failed, in the user's words.
    pub error: String,
}

impl FailureResult {
    /// A failure with its reason.
    pub fn new(error: impl Into<String>) -> Self {
        Self {
            ok: false,
            error: error.into(),
        }
    }

    /// The result object: `{"ok": false, "error": …}`.
    pub fn to_json(&self) -> Value {
        json!({"ok": false, "error": self.error})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn process(doc: DocOutcome) -> Value {
        ProcessResult {
            elapsed_secs: 1.234,
            invoice_count: 3,
            csv_url: "/api/download/s/invoice_summary.csv".into(),
            travel_count: 1,
            general_count: 2,
            doc,
            extra: Map::new(),
        }
        .to_json()
    }

    #[test]
    fn process_result_has_interface_fields() {
        let json = process(DocOutcome::Generated {
            doc_url: "/x.doc".into(),
            left_out: None,
        });
        assert_eq!(json["ok"], true);
        assert_eq!(json["elapsed"], "1.23s");
        assert_eq!(json["invoice_count"], 3);
        assert_eq!(json["doc_ok"], true);
        assert_eq!(json["doc_url"], "/x.doc");
    }

    #[test]
    fn skipped_doc_is_null_with_flag() {
        let json = process(DocOutcome::Skipped {
            message: "全部为差旅发票".into(),
        });
        assert!(json["doc_ok"].is_null());
        assert!(json.as_object().unwrap().contains_key("doc_ok"));
        assert_eq!(json["doc_skipped"], true);
        assert_eq!(json["doc_message"], "全部为差旅发票");
    }

    #[test]
    fn package_outcomes_have_their_fields() {
        let generated = PackageOutcome::Generated {
            package_url: "/p.pdf".into(),
            preview_url: Some("/p.png".into()),
            notes: vec![],
        }
        .fields();
        assert_eq!(generated["package_ok"], true);
        assert_eq!(generated["package_preview_url"], "/p.png");
        assert!(!generated.contains_key("package_notes"));
        let failed = PackageOutcome::Failed {
            error: "模板有误".into(),
        }
        .fields();
        assert_eq!(failed["package_ok"], false);
        assert_eq!(failed["package_error"], "模板有误");
        let skipped = PackageOutcome::Skipped {
            message: "空".into(),
        }
        .fields();
        assert!(skipped["package_ok"].is_null());
    }

    #[test]
    fn failed_doc_carries_error() {
        let json = process(DocOutcome::Failed {
            error: "模板不存在".into(),
        });
        assert_eq!(json["doc_ok"], false);
        assert_eq!(json["doc_error"], "模板不存在");
    }

    #[test]
    fn submit_result_keeps_null_error() {
        let json = serde_json::to_value(SubmitResult {
            ok: true,
            submit_ok: true,
            submit_error: None,
        })
        .unwrap();
        assert!(json["submit_error"].is_null());
        assert_eq!(FailureResult::new("x").to_json()["ok"], false);
    }
}
