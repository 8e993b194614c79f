//! Benchmark: one 20-invoice general claim filed through the shipped flow into the demo portal
//! in headless Chromium; prints the wall time (target: at most 15 s). `RUST_LOG=finance_bot=info`
//! shows each step with a timestamp.
//!
//! `CARGO_TARGET_DIR=/work/target-bot cargo run -p reimburse-finance-bot --example bench [-- ROWS]`

#![allow(clippy::print_stdout, reason = "an example reports on stdout")]

use demo_portal::{PortalConfig, serve};
use domain::{COLUMNS, Password, SessionConfig};
use reimburse_finance_bot::{Bot, BotOptions, ClaimKind, FlowFile, Submission};
use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::Path;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .init();
    let rows: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(20);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let base = format!("http://{}", listener.local_addr()?);
    let server = {
        let _guard = runtime.enter();
        serve(listener, PortalConfig::default())?
    };
    runtime.spawn(server);

    let dir = tempfile::tempdir()?;
    let mut invoices = Vec::new();
    for i in 0..rows {
        let path = dir.path().join(format!("发票{:02}.pdf", i + 1));
        std::fs::write(
            &path,
            format!("%PDF-1.4\n% invoice {i}\ntrailer << >>\n%%EOF\n"),
        )?;
        invoices.push(path);
    }
    let mut submission = Submission::new(
        ClaimKind::General,
        SessionConfig {
            username: "100001".into(),
            password: Password::new("demo123"),
            default_name: "张三".into(),
            ..SessionConfig::default()
        },
    );
    submission.rows = (0..rows)
        .map(|i| {
            let mut row: BTreeMap<String, String> = COLUMNS
                .iter()
                .map(|c| ((*c).to_owned(), String::new()))
                .collect();
            for (k, v) in [
                ("发票号码", format!("2544200000012{:07}", i)),
                ("开票日期", "2026/11/03".to_owned()),
                ("项目名称", format!("*实验耗材*移液枪头 {i}")),
                ("价税合计", format!("{}.50", 10 + i)),
                ("销售方名称", "广州某某生物科技有限公司".to_owned()),
                ("刷卡日期", "2026/11/03".to_owned()),
                ("公务卡号", "6217000011112222".to_owned()),
                ("刷卡金额", format!("{}.50", 10 + i)),
            ] {
                row.insert(k.to_owned(), v);
            }
            row
        })
        .collect();
    submission.files.invoices = invoices;
    submission
        .extra
        .insert("purpose".into(), "购买实验耗材（基准测试）".into());

    let flow = FlowFile::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../flows/demo-portal.toml"),
    )?;
    let options = BotOptions {
        base_url: Some(base),
        screenshot_dir: dir.path().join("screenshots"),
        work_dir: Some(dir.path().join("work")),
        ..BotOptions::default()
    };
    let started = Instant::now();
    let result = Bot::submit(&flow, &submission, &options);
    let elapsed = started.elapsed();
    match result {
        Ok(outcome) => println!(
            "{rows} invoices filed as {} in {:.2} s (target ≤ 15 s)",
            outcome.claim_no.as_deref().unwrap_or("?"),
            elapsed.as_secs_f64()
        ),
        Err(e) => {
            println!("failed after {:.2} s: {e}", elapsed.as_secs_f64());
            std::process::exit(1);
        }
    }
    Ok(())
}
