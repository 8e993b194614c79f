//! `cargo xtask bench package`: the printed claim of a session of 50 invoices and 50 payment
//! screenshots (the fixtures, cycled), rendered in this process with the default template:
//! wall time per package (after one warm-up that loads the fonts) and the PDF's size.

#![allow(clippy::print_stdout, reason = "a bench reports on stdout")]

#[path = "sample.rs"]
mod sample;

use reimburse_claim_print::{Template, render};
use std::time::Instant;

fn main() {
    let input = sample::claim(50, 50);
    let started = Instant::now();
    let warm = match render(&input, &Template::Default) {
        Ok(rendered) => rendered,
        Err(error) => {
            println!("package failed: {error}");
            std::process::exit(1);
        }
    };
    let first = started.elapsed();
    let mut times = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        if render(&input, &Template::Default).is_err() {
            std::process::exit(1);
        }
        times.push(started.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    println!(
        "package 50 invoices + 50 screenshots: {} pages ({} 粘贴单 sheets), {:.2} MB",
        warm.pages,
        warm.sheets,
        warm.pdf.len() as f64 / 1_048_576.0
    );
    println!(
        "first (fonts loaded): {:.2} s; warm median of 3: {median:.2} s (budget 3 s, 20 MB)",
        first.as_secs_f64()
    );
    if median > 3.0 || warm.pdf.len() > 20 * 1024 * 1024 {
        println!("OVER BUDGET");
        std::process::exit(1);
    }
}
