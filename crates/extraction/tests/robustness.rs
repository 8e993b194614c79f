//! Extraction never panics: truncated, bit-flipped and garbage inputs of every format give
//! an error or a record. Mutates the repository's synthetic fixtures (and the real corpus
//! when present); nothing is written anywhere.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "test code"
)]

use std::path::{Path, PathBuf};

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn samples() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("fixtures/invoices"))
        .filter(|p| p.is_dir())
        .take(1)
        .collect();
    dirs.extend(corpus_dirs());
    let mut files: Vec<PathBuf> = dirs
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("pdf" | "ofd" | "xml")
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn mutated_inputs_never_panic() {
    let files = samples();
    if files.is_empty() {
        println!("note: no fixtures or corpus files to mutate");
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut runs = 0;
    // Every third file keeps the test quick in debug builds while covering each format.
    for (i, path) in files.iter().enumerate() {
        let is_structured = path.extension().is_none_or(|e| e != "pdf");
        if i % 3 != 0 && !is_structured {
            continue;
        }
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for k in 0..6 {
            let cut = rng.below(bytes.len());
            let _ = reimburse_extraction::extract(bytes.get(..cut).unwrap_or_default(), &name);
            let mut flipped = bytes.clone();
            for _ in 0..=k * 4 {
                let at = rng.below(flipped.len());
                if let Some(b) = flipped.get_mut(at) {
                    *b ^= 1 << rng.below(8);
                }
            }
            let _ = reimburse_extraction::extract(&flipped, &name);
            runs += 2;
        }
    }
    println!("{runs} mutated inputs extracted without panicking");
}

#[test]
fn garbage_of_every_kind_is_an_error() {
    let mut rng = Rng(42);
    for len in [0usize, 1, 4, 16, 512, 4096] {
        let noise: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        for prefix in [
            &b""[..],
            b"%PDF-1.7\n",
            b"PK\x03\x04",
            b"<?xml version=\"1.0\"?>",
        ] {
            let mut bytes = prefix.to_vec();
            bytes.extend_from_slice(&noise);
            for name in ["x.pdf", "x.ofd", "x.xml", "x"] {
                assert!(
                    reimburse_extraction::extract(&bytes, name).is_err(),
                    "{len} {prefix:?} {name}"
                );
            }
        }
    }
}

/// The real invoice corpora beside the project (`shared/corpus/invoices*` in an ancestor).
fn corpus_dirs() -> Vec<std::path::PathBuf> {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("shared/corpus"))
        .find(|p| p.is_dir())
        .map(|root| {
            ["invoices", "invoices-2"]
                .iter()
                .map(|d| root.join(d))
                .filter(|d| d.is_dir())
                .collect()
        })
        .unwrap_or_default()
}
