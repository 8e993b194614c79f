//! Prints an image's lines as the engine reads them, detected at the engine's own size or at
//! a long side given:
//! `cargo run --release -p reimburse-pp-ocr --example read_at -- IMAGE [LONG_SIDE]`.
//! For looking at what detection finds in one image.

#![allow(
    clippy::print_stdout,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a debugging tool"
)]

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let image = image::open(&args[0]).unwrap().to_rgb8();
    let engine = reimburse_pp_ocr::Engine::find().unwrap_or_else(|e| panic!("{e}"));
    let t = std::time::Instant::now();
    let lines = match args.get(1).and_then(|s| s.parse().ok()) {
        Some(side) => engine.read_document(&image, side).unwrap(),
        None => engine.read(&image).unwrap(),
    };
    for l in &lines {
        println!(
            "{} {} {} {} {:.2} {}",
            l.x0, l.y0, l.x1, l.y1, l.score, l.text
        );
    }
    println!("{} lines in {} ms", lines.len(), t.elapsed().as_millis());
}
