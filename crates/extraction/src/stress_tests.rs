//! Generalisation tests on the real corpus (skipped when it is absent): each page is
//! re-drawn the way other producers draw it (CJK spaced out glyph by glyph, runs split at
//! label/value boundaries, colons dropped, values a little off their labels' baselines,
//! baselines jittered, page scaled and shifted, drawing order reversed) and the graded
//! fields must not change.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use crate::geometry::{Page, Run, Sheet};
use crate::layouts;
use crate::text;
use std::path::{Path, PathBuf};

fn corpus() -> Option<PathBuf> {
    if let Some(dirs) = std::env::var_os("REIMBURSE_CORPUS") {
        return std::env::split_paths(&dirs).find(|d| d.join("labels.json").is_file());
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("shared/corpus/invoices"))
        .find(|p| p.join("labels.json").is_file())
}

fn pages(bytes: &[u8]) -> Vec<Page> {
    let doc = pdf_text::parse(bytes).unwrap();
    doc.pages.iter().map(Page::from_text_layer).collect()
}

/// Splits every run into single CJK glyphs (Latin stays whole) within the run's own box,
/// each glyph narrowed so that `gap` em of white space separates them, as OFD converters
/// draw text.
fn space_out(page: &Page, gap: f32) -> Page {
    let mut runs = Vec::new();
    for r in &page.runs {
        let chars: Vec<char> = r.text.chars().collect();
        let total: f32 = chars.iter().map(|&c| text::width_weight(c)).sum();
        let unit = (r.end_x - r.x) / total.max(1.0);
        let mut x = r.x;
        let mut latin = String::new();
        let mut latin_x = x;
        for &c in &chars {
            let w = unit * text::width_weight(c);
            if text::is_cjk(c) {
                if !latin.is_empty() {
                    runs.push(Run::new(&latin, latin_x, r.y, x, r.size));
                    latin.clear();
                }
                let ink = (w - gap * r.size).max(0.2 * w);
                runs.push(Run::new(&c.to_string(), x, r.y, x + ink, r.size));
            } else {
                if latin.is_empty() {
                    latin_x = x;
                }
                latin.push(c);
            }
            x += w;
        }
        if !latin.is_empty() {
            runs.push(Run::new(&latin, latin_x, r.y, x, r.size));
        }
    }
    Page {
        runs,
        ..page.clone()
    }
}

/// Splits runs after a colon (label and value drawn separately) and reverses the order.
fn split_at_colons(page: &Page) -> Page {
    let mut runs = Vec::new();
    for r in &page.runs {
        let chars: Vec<char> = r.text.chars().collect();
        let total: f32 = chars.iter().map(|&c| text::width_weight(c)).sum();
        let unit = (r.end_x - r.x) / total.max(1.0);
        match r.text.find(':') {
            Some(i) if i + 1 < r.text.len() => {
                let (a, b) = r.text.split_at(i + 1);
                let wa: f32 = a.chars().map(text::width_weight).sum::<f32>() * unit;
                runs.push(Run::new(a, r.x, r.y, r.x + wa, r.size));
                runs.push(Run::new(b, r.x + wa, r.y + 0.1 * r.size, r.end_x, r.size));
            }
            _ => runs.push(r.clone()),
        }
    }
    runs.reverse();
    Page {
        runs,
        ..page.clone()
    }
}

/// Removes every colon (producers that print labels without one).
fn drop_colons(page: &Page) -> Page {
    let runs = page
        .runs
        .iter()
        .filter(|r| r.text != ":")
        .map(|r| Run {
            text: r.text.replace(':', ""),
            ..r.clone()
        })
        .collect();
    Page {
        runs,
        ..page.clone()
    }
}

/// Draws everything but labels (runs with a colon) 0.3 em lower, as when labels and values
/// come from two layers that do not quite line up.
fn lower_values(page: &Page) -> Page {
    let runs = page
        .runs
        .iter()
        .map(|r| {
            let dy = if r.text.contains(':') {
                0.0
            } else {
                0.3 * r.size
            };
            Run {
                y: r.y + dy,
                ..r.clone()
            }
        })
        .collect();
    Page {
        runs,
        ..page.clone()
    }
}

/// Jitters baselines by up to ±`amp` em, deterministically.
fn jitter(page: &Page, amp: f32) -> Page {
    let runs = page
        .runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let k = ((i * 7919) % 13) as f32 / 6.0 - 1.0;
            Run {
                y: r.y + k * amp * r.size,
                ..r.clone()
            }
        })
        .collect();
    Page {
        runs,
        ..page.clone()
    }
}

/// Scales positions (not font sizes) and shifts the page.
fn scale(page: &Page, s: f32, dx: f32, dy: f32) -> Page {
    let runs = page
        .runs
        .iter()
        .map(|r| Run {
            x: r.x * s + dx,
            end_x: r.x * s + dx + (r.end_x - r.x),
            y: r.y * s + dy,
            ..r.clone()
        })
        .collect();
    Page {
        width: page.width * s + dx,
        height: page.height * s + dy,
        runs,
    }
}

/// A way of re-drawing a page.
type Redraw = fn(&Page) -> Page;

fn norm(s: &str) -> String {
    text::compact(&text::normalize(s))
}

#[test]
fn graded_fields_survive_other_producers_drawing() {
    let Some(dir) = corpus() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "the real-invoice corpus (../shared/corpus or REIMBURSE_CORPUS) is required under CI"
        );
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            b"note: real-invoice corpus not found: the redrawn-corpus stress test not run\n",
        );
        return;
    };
    let labels: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("labels.json")).unwrap()).unwrap();
    let variants: [(&str, Redraw); 10] = [
        ("spaced", |p| space_out(p, 0.35)),
        ("spaced-wide", |p| space_out(p, 0.9)),
        ("colons", split_at_colons),
        ("no-colons", drop_colons),
        ("jitter", |p| jitter(p, 0.12)),
        ("jitter-hard", |p| jitter(p, 0.35)),
        ("layers", lower_values),
        ("scaled", |p| scale(p, 1.08, 12.0, -6.0)),
        ("shrunk", |p| scale(p, 0.9, -5.0, 20.0)),
        ("all", |p| jitter(&split_at_colons(&space_out(p, 0.3)), 0.1)),
    ];
    let mut failures = Vec::new();
    for entry in labels.as_array().unwrap() {
        let file = entry["file"].as_str().unwrap();
        let want = |k: &str| norm(entry[k].as_str().unwrap_or_default());
        let railway = entry["doc_type"] == "railway";
        let original = pages(&std::fs::read(dir.join(file)).unwrap());
        for (name, f) in &variants {
            let sheets: Vec<Sheet> = original.iter().map(|p| Sheet::new(f(p))).collect();
            let r = layouts::read(&sheets, &[]).unwrap_or_default();
            let first = r.items.first().map(|i| i.name.clone()).unwrap_or_default();
            let mut check = |field: &str, got: &str| {
                if want(field) != norm(got) {
                    failures.push(format!(
                        "{name} {file}: {field} want {:?} got {got:?}",
                        want(field)
                    ));
                }
            };
            check("发票号码", &r.invoice_number);
            check("开票日期", &r.invoice_date);
            check("价税合计", &r.total_with_tax);
            if !railway {
                check("销售方名称", &r.seller.name);
                check("项目名称", &first);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
