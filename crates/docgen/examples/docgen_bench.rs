//! Latency benchmark of the outbound-stock document: template fill, cold conversion (one
//! soffice per document), warm conversion (long-lived soffice) and a whole warm `generate`.
//! Prints medians in milliseconds. Run with
//! `cargo run --release -p reimburse-docgen --example docgen_bench [RUNS]`.

#![allow(clippy::print_stdout, reason = "a benchmark reports on stdout")]

use std::error::Error;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use reimburse_docgen::{ConvertMode, Converter, ConverterConfig, OutboundDoc, OutboundItem};

fn main() -> Result<(), Box<dyn Error>> {
    let runs: usize = match std::env::args().nth(1) {
        Some(n) => n.parse()?,
        None => 7,
    };
    let template_path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../templates/易耗品出库单.docx");
    let template = std::fs::read(&template_path)?;
    let doc = sample(12);

    let fill = median(200, || {
        reimburse_docgen::fill_docx(&template, &doc).map(drop)
    })?;
    println!("fill (12 items):             {}", ms(fill));
    let docx = reimburse_docgen::fill_docx(&template, &doc)?;

    let cold = Converter::new(ConverterConfig {
        mode: ConvertMode::Cold,
        ..ConverterConfig::default()
    });
    let first = timed(|| cold.convert_docx_to_doc(&docx).map(drop))?;
    println!("cold, first (new profile):   {}", ms(first));
    let cold_median = median(runs, || cold.convert_docx_to_doc(&docx).map(drop))?;
    println!("cold conversion:             {}", ms(cold_median));
    drop(cold);

    let warm = Converter::new(ConverterConfig {
        mode: ConvertMode::Warm,
        ..ConverterConfig::default()
    });
    let start = timed(|| warm.warm_up())?;
    println!("warm start (new profile):    {}", ms(start));
    let first = timed(|| warm.convert_docx_to_doc(&docx).map(drop))?;
    println!("warm, first conversion:      {}", ms(first));
    let warm_median = median(runs * 3, || warm.convert_docx_to_doc(&docx).map(drop))?;
    println!("warm conversion:             {}", ms(warm_median));

    let out = tempfile::tempdir()?;
    let save = median(runs * 3, || {
        reimburse_docgen::generate(&template_path, &doc, out.path(), &warm).map(drop)
    })?;
    println!("warm generate (fill+convert+write): {}", ms(save));
    Ok(())
}

fn sample(count: usize) -> OutboundDoc {
    OutboundDoc {
        date: "2025/03/11".to_owned(),
        claimant: "张三".to_owned(),
        department: "物理学院".to_owned(),
        storage: "理科楼203库房".to_owned(),
        items: (1..=count)
            .map(|i| OutboundItem {
                name: format!("办公用品{i}"),
                spec: "A4 70g".to_owned(),
                unit: "包".to_owned(),
                quantity: i.to_string(),
                unit_price: "25.50".to_owned(),
                amount: format!("{}.{:02}", 25 * i, (50 * i) % 100),
            })
            .collect(),
    }
}

fn timed<E>(mut f: impl FnMut() -> Result<(), E>) -> Result<Duration, E> {
    let start = Instant::now();
    f()?;
    Ok(start.elapsed())
}

fn median<E>(runs: usize, mut f: impl FnMut() -> Result<(), E>) -> Result<Duration, E> {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        times.push(timed(&mut f)?);
    }
    times.sort();
    Ok(times[times.len() / 2])
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}
