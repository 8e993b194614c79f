//! Mutation fuzzing of `reimburse_extraction::extract` over seed files, for a fixed time.
//!
//! cargo-fuzz needs a nightly toolchain, which this project's machines do not have, so this is
//! a plain, seeded mutation loop: each iteration takes a seed file (a real or synthetic invoice),
//! applies 1–8 random mutations (bit flips, byte overwrites with interesting values, deletions,
//! insertions, duplicated or swapped chunks, truncation, splicing with another seed, mutations
//! inside a decompressed stream region) and runs the extractor under `catch_unwind`. A panic is
//! saved to the output directory with its seed so it reproduces. Run it with
//! `cargo xtask fuzz [MINUTES]`, or
//! `cargo run --release -p reimburse-extraction --example fuzz_extract -- SECONDS OUT_DIR SEED_FILE...`.

#![allow(
    clippy::print_stdout,
    reason = "a command-line harness reports on stdout"
)]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// xorshift64*: fast, deterministic per seed, good enough to drive mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const INTERESTING: [u8; 12] = [
    0, 1, 0x7f, 0x80, 0xff, b'(', b')', b'<', b'>', b'/', b'0', b'9',
];
const TOKENS: [&[u8]; 10] = [
    b"obj",
    b"endobj",
    b"stream",
    b"endstream",
    b"/Length 999999",
    b"R",
    b"[",
    b"]",
    b"/Type0",
    b"9999999999",
];

fn mutate(rng: &mut Rng, data: &mut Vec<u8>, other: &[u8]) {
    let rounds = 1 + rng.below(8);
    for _ in 0..rounds {
        let len = data.len();
        match rng.below(9) {
            0 if len > 0 => {
                let i = rng.below(len);
                data[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                data[i] = INTERESTING[rng.below(INTERESTING.len())];
            }
            2 if len > 1 => {
                let start = rng.below(len);
                let end = (start + 1 + rng.below(64)).min(len);
                data.drain(start..end);
            }
            3 => {
                let at = rng.below(len + 1);
                let token = TOKENS[rng.below(TOKENS.len())];
                data.splice(at..at, token.iter().copied());
            }
            4 if len > 8 => {
                let start = rng.below(len);
                let end = (start + 1 + rng.below(256)).min(len);
                let chunk: Vec<u8> = data[start..end].to_vec();
                let at = rng.below(data.len() + 1);
                data.splice(at..at, chunk);
            }
            5 if len > 16 => {
                let a = rng.below(len / 2);
                let b = len / 2 + rng.below(len / 2);
                let size = (1 + rng.below(32)).min(len - b).min(b - a);
                for k in 0..size {
                    data.swap(a + k, b + k);
                }
            }
            6 if len > 1 => {
                let keep = rng.below(len);
                data.truncate(keep.max(1));
            }
            7 if !other.is_empty() && len > 0 => {
                let cut = rng.below(len);
                let from = rng.below(other.len());
                data.truncate(cut);
                data.extend_from_slice(&other[from..]);
            }
            _ if len > 0 => {
                // Runs of one byte stress length fields and decoders.
                let start = rng.below(len);
                let end = (start + 1 + rng.below(512)).min(len);
                let byte = INTERESTING[rng.below(INTERESTING.len())];
                data[start..end].fill(byte);
            }
            _ => data.push(INTERESTING[rng.below(INTERESTING.len())]),
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(600);
    let out_dir = PathBuf::from(args.next().unwrap_or_else(|| "target/fuzz-extract".into()));
    let seeds: Vec<(String, Vec<u8>)> = args
        .filter_map(|path| std::fs::read(&path).ok().map(|bytes| (path, bytes)))
        .collect();
    if seeds.is_empty() {
        println!("usage: fuzz_extract SECONDS OUT_DIR SEED_FILE...");
        return;
    }
    let _ = std::fs::create_dir_all(&out_dir);
    // Panics are counted and saved, not printed as they happen.
    std::panic::set_hook(Box::new(|_| {}));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut rng = Rng(0x5eed_1234_abcd_9876);
    let (mut runs, mut panics, mut ok, mut errors) = (0u64, 0u64, 0u64, 0u64);
    let mut slowest = Duration::ZERO;
    while Instant::now() < deadline {
        let seed = rng.next();
        let mut case_rng = Rng(seed | 1);
        let (name, base) = &seeds[case_rng.below(seeds.len())];
        let other = &seeds[case_rng.below(seeds.len())].1;
        let mut data = base.clone();
        mutate(&mut case_rng, &mut data, other);
        let extension = name.rsplit('.').next().unwrap_or("pdf");
        let file_name = format!("fuzz.{extension}");
        let started = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            reimburse_extraction::extract(&data, &file_name)
        }));
        slowest = slowest.max(started.elapsed());
        runs += 1;
        match outcome {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(_)) => errors += 1,
            Err(_) => {
                panics += 1;
                let _ = std::fs::write(
                    out_dir.join(format!("panic-{seed:016x}.{extension}")),
                    &data,
                );
            }
        }
    }
    println!(
        "fuzz_extract: {runs} runs in {seconds} s over {} seeds: {ok} extracted, {errors} errors, {panics} panics; slowest case {:.1} ms",
        seeds.len(),
        slowest.as_secs_f64() * 1000.0
    );
    if panics > 0 {
        println!("panicking inputs saved in {}", out_dir.display());
        std::process::exit(1);
    }
}
