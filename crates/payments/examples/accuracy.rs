//! Recognises every screenshot of a directory of fixtures (image + expected JSON) and prints,
//! per screen type, how many amounts, dates and card last fours came out right, and every
//! wrong value: `cargo run --release -p reimburse-payments --example accuracy -- [DIR] [-v]
//! [--lines LINES_DIR]`. With `--lines`, the rules run over lines recorded by the
//! `record_lines` example instead of the engine. `-v` lists every field not right.

#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a command-line tool"
)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use reimburse_payments::fixtures::{self, SCORED};
use reimburse_payments::{Recognizer, ScreenText, read_lines};

#[derive(Default)]
struct Tally {
    n: usize,
    right: BTreeMap<&'static str, usize>,
    empty: usize,
    wrong: usize,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let lines_dir = args
        .iter()
        .position(|a| a == "--lines")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from);
    let dir = args
        .iter()
        .enumerate()
        .find(|(i, a)| !a.starts_with('-') && (*i == 0 || args[i - 1] != "--lines"))
        .map_or_else(fixtures::default_dir, |(_, a)| PathBuf::from(a));
    let Ok(list) = fixtures::load(&dir) else {
        eprintln!("cannot read {}", dir.display());
        return ExitCode::FAILURE;
    };
    let recognizer = if lines_dir.is_none() {
        match Recognizer::find() {
            Ok(r) => Some(r),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        None
    };
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    for fx in &list {
        let file = fx.expected.file.clone();
        let got = match (&recognizer, &lines_dir) {
            (Some(r), _) => match r.recognize_file(&fx.image) {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("{file}: {e}");
                    continue;
                }
            },
            (None, Some(ld)) => {
                let stem = fx.image.file_stem().unwrap_or_default().to_string_lossy();
                let path = ld.join(format!("{stem}.lines.json"));
                let page: ScreenText = match std::fs::read_to_string(&path)
                    .map_err(|e| e.to_string())
                    .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
                {
                    Ok(p) => p,
                    Err(e) => {
                        eprintln!("{}: {e}", path.display());
                        continue;
                    }
                };
                read_lines(&file, page)
            }
            (None, None) => return ExitCode::FAILURE,
        };
        let t = tallies.entry(fx.kind.clone()).or_default();
        t.n += 1;
        if fx.expected.no_payment != got.record.no_payment {
            t.wrong += 1;
            println!(
                "{file}: no_payment {} (screen {} by {})",
                got.record.no_payment,
                got.screen.name(),
                got.screen_rule
            );
        }
        for field in SCORED {
            let want = fixtures::field(&fx.expected, field);
            let have = fixtures::field(&got.record, field);
            if want == have {
                *t.right.entry(field).or_default() += 1;
            } else if have.is_empty() {
                t.empty += 1;
                if verbose {
                    println!(
                        "{file}: {field} empty, want {want} ({})",
                        got.rule_of(field)
                    );
                }
            } else {
                t.wrong += 1;
                println!(
                    "{file}: {field} WRONG {have}, want {want} ({})",
                    got.rule_of(field)
                );
            }
        }
        if verbose {
            for field in [
                "time",
                "merchant",
                "card_bank",
                "card_number",
                "order_no",
                "status",
                "channel",
            ] {
                let want = fixtures::field(&fx.expected, field);
                let have = fixtures::field(&got.record, field);
                if want != have {
                    println!(
                        "  {file}: {field} {have:?}, want {want:?} ({})",
                        got.rule_of(field)
                    );
                }
            }
        }
    }
    let mut total = (0, 0, 0);
    println!("| screen type | n | amount | date | last4 | scored | wrong |");
    println!("|---|---|---|---|---|---|---|");
    for (kind, t) in &tallies {
        let r = |f: &str| t.right.get(f).copied().unwrap_or(0);
        let scored: usize = SCORED.iter().map(|f| r(f)).sum();
        total.0 += scored;
        total.1 += t.n * 3;
        total.2 += t.wrong;
        println!(
            "| {kind} | {} | {}/{} | {}/{} | {}/{} | {:.1}% | {} |",
            t.n,
            r("amount"),
            t.n,
            r("date"),
            t.n,
            r("card_last4"),
            t.n,
            100.0 * scored as f64 / (t.n * 3).max(1) as f64,
            t.wrong
        );
    }
    println!(
        "| all | | | | | {}/{} = {:.1}% | {} |",
        total.0,
        total.1,
        100.0 * total.0 as f64 / total.1.max(1) as f64,
        total.2
    );
    ExitCode::SUCCESS
}
