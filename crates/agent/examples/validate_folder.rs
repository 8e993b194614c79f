//! Extracts every invoice in a folder, classifies each, validates them as one claim judged
//! today and prints the findings and the judgement as JSON: the whole library in one screen.
//!
//! `cargo run -p reimburse-agent --example validate_folder -- FOLDER`. The same file is the
//! program `tests/library-user` builds outside the workspace, whose output the service's own
//! judgement of the same files must equal (crates/reimburse/tests/library_user.rs).

#![allow(clippy::print_stdout, reason = "the program's output")]

use reimburse_agent::{ClaimBuilder, RuleSet, SessionConfig, Today};
use std::time::SystemTime;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let folder = std::env::args()
        .nth(1)
        .ok_or("usage: library-user FOLDER")?;
    let mut files: Vec<_> = std::fs::read_dir(folder)?
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    let ocr = reimburse_page_ocr::PageOcr::new(); // for scans and text layers that lie
    let mut claim = ClaimBuilder::new(SessionConfig::default(), Today::from(SystemTime::now()));
    for path in files {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        match reimburse_extraction::extract_with(&std::fs::read(&path)?, &name, Some(&ocr)) {
            Ok(record) => {
                let class = reimburse_classify::classify(&record);
                claim.invoice(&record, class.kind);
            }
            Err(error) => eprintln!("{name}: {error}"),
        }
    }
    let validation = claim.build().validate(RuleSet::builtin());
    let report =
        serde_json::json!({"issues": validation.issues, "judgement": validation.judgement});
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}
