//! `reimburse flow try` against crates/campus-portal: the captcha is asked on the terminal
//! (answered on stdin by the test, reading the code as a person reads the picture), the run
//! stops before the final submit, leaves one screenshot per step (and the captcha's picture),
//! and files nothing.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use campus_portal::CampusConfig;
use finance_bot::{Action, ClaimKind, FlowFile, final_submit_index};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::process::{Command, Stdio};

/// How many steps the flow runs before its final submit, for a one-row claim whose
/// questions are each answered once.
fn steps_before_submit(flow: &FlowFile) -> usize {
    let steps = flow.steps(ClaimKind::General).unwrap();
    let stop = final_submit_index(steps).unwrap();
    steps[..stop]
        .iter()
        .map(|step| match &step.action {
            Action::RepeatForEachRow { steps } | Action::AskPerson { steps, .. } => steps.len(),
            _ => 1,
        })
        .sum()
}

/// The body of a GET, from a runtime of its own (the test itself is synchronous).
fn get(url: &str) -> String {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async { reqwest::get(url).await.unwrap().text().await.unwrap() })
}

#[test]
fn try_stops_before_the_submit_with_a_screenshot_per_step() {
    let portal = campus_portal::spawn(
        TcpListener::bind("127.0.0.1:0").unwrap(),
        CampusConfig::default(),
    )
    .unwrap();
    let flow_file = common::workspace().join("flows/campus-portal.toml");
    let out = tempfile::tempdir().unwrap();
    let shots = out.path().join("shots");
    let mut child = Command::new(env!("CARGO_BIN_EXE_reimburse"))
        .args(["flow", "try"])
        .arg(&flow_file)
        .args([
            "--base-url",
            portal.base_url(),
            "--username",
            "200001",
            "--out",
        ])
        .arg(&shots)
        .env("REIMBURSE_FINANCE_PASSWORD", "campus123")
        .env("RUST_BACKTRACE", "0")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let mut asked = 0;
    let mut log = String::new();
    for line in stderr.lines().map_while(Result::ok) {
        log.push_str(&line);
        log.push('\n');
        if line.contains("验证码") && line.contains("秒内输入") {
            asked += 1;
            let code = get(&format!("{}/test/captcha", portal.base_url()));
            writeln!(stdin, "{code}").unwrap();
        }
    }
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{log}");
    assert_eq!(asked, 1, "{log}");
    assert!(
        stdout.contains("已停在第") && stdout.contains("「提交」之前，未提交"),
        "{stdout}"
    );

    let mut pictures: Vec<String> = std::fs::read_dir(&shots)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".png"))
        .collect();
    pictures.sort();
    let captcha: Vec<&String> = pictures
        .iter()
        .filter(|n| n.contains("验证码") && !n.contains("步"))
        .collect();
    assert_eq!(captcha.len(), 1, "{pictures:?}");
    let flow = FlowFile::load(&flow_file).unwrap();
    let steps: Vec<&String> = pictures.iter().filter(|n| n.contains("步")).collect();
    assert_eq!(steps.len(), steps_before_submit(&flow), "{pictures:?}");
    assert!(steps[0].starts_with("001-第1步-打开登录页"), "{pictures:?}");
    for picture in &pictures {
        let bytes = std::fs::read(shots.join(picture)).unwrap();
        assert!(bytes.starts_with(b"\x89PNG"), "{picture}");
    }
    let claims = get(&format!("{}/api/claims", portal.base_url()));
    assert_eq!(claims.trim(), "[]", "nothing was filed");
}
