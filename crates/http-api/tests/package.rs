//! The printed claim (报销材料.pdf) through the service: made by /api/process, listed and
//! downloadable with its preview, made again by /api/save with the edited values, laid out by
//! the institution's own template when the config names one. Read back with poppler.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Options, TestApp, fixture, spawn_app, spawn_app_with};
use pipeline::DocumentSettings;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

async fn process(app: &TestApp, id: &str, files: &[&str]) -> Value {
    for name in files {
        assert_eq!(app.upload(id, name, fixture(name)).await.status(), 200);
    }
    let response = app
        .client
        .post(app.url(&format!("/api/process/{id}")))
        .json(&json!({"default_name": "李四", "default_person_id": "T9001", "consumable_storage": "实验楼 301"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let events = app.open_stream(id, None).await.collect_until_closed().await;
    events.last().unwrap().data["result"].clone()
}

fn page_text(pdf: &Path, page: usize) -> String {
    let out = Command::new("pdftotext")
        .args(["-f", &page.to_string(), "-l", &page.to_string(), "-layout"])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(out.status.success(), "pdftotext refused {}", pdf.display());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn page_count(pdf: &Path) -> usize {
    let out = Command::new("pdfinfo").arg(pdf).output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap()
}

const FILES: [&str; 3] = [
    "digital_normal_multi.pdf",
    "railway_ticket.pdf",
    "digital_special_ofd.ofd",
];

#[tokio::test]
async fn process_makes_the_package_and_save_makes_it_again() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let result = process(&app, &id, &FILES).await;
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["package_ok"], true, "{result}");
    let url = result["package_url"].as_str().unwrap();
    let response = app.get(url).await;
    assert_eq!(response.status(), 200);
    // The contract fixes octet-stream for everything but .csv and .doc.
    assert_eq!(
        response.headers()["content-type"],
        "application/octet-stream"
    );
    assert!(response.bytes().await.unwrap().starts_with(b"%PDF"));
    let preview = app
        .get(result["package_preview_url"].as_str().unwrap())
        .await;
    assert_eq!(preview.status(), 200);
    assert!(preview.bytes().await.unwrap().starts_with(b"\x89PNG"));

    // Downloadable, but not an upload: processing again does not read it as an invoice.
    let listed: Value = app
        .get(&format!("/api/files/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert!(!listed.to_string().contains("报销材料"), "{listed}");

    let pdf = app.session_dir(&id).join("报销材料.pdf");
    // 报销单; the multi-item invoice and the OFD card on one half sheet; the ticket's sheet.
    assert_eq!(page_count(&pdf), 3);
    let first = page_text(&pdf, 1);
    let data: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    for row in data["data"].as_array().unwrap() {
        let number = row["发票号码"].as_str().unwrap();
        assert!(first.contains(number), "{number} missing:\n{first}");
    }
    for expected in ["李四", "T9001", "待提交", "日常"] {
        assert!(first.contains(expected), "{expected} missing:\n{first}");
    }

    // An edited amount is on the package the save makes.
    let mut rows = data["data"].as_array().unwrap().clone();
    rows[0]["价税合计"] = json!("4321.09");
    let saved: Value = app
        .client
        .post(app.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": data["csv_filename"], "data": rows}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(saved["package_ok"], true, "{saved}");
    let first = page_text(&pdf, 1);
    assert!(
        first.contains("4321.09"),
        "the edit is not on page 1:\n{first}"
    );
    assert!(page_text(&pdf, 2).contains("4321.09"), "nor on its sheet");
}

#[tokio::test]
async fn the_institutions_template_from_the_config_is_used() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("本校.typ");
    std::fs::write(
        &template,
        "#let data = json(\"claim.json\")\n#set text(font: \"Noto Sans CJK SC\")\n= 示例大学财务处报销单\n#data.header.claimant 共 #data.rows.len() 张\n",
    )
    .unwrap();
    let app = spawn_app_with(Options {
        documents: DocumentSettings {
            package_template: Some(template),
            ..common::documents()
        },
        ..Options::default()
    })
    .await;
    let id = app.create_session().await;
    let result = process(&app, &id, &FILES).await;
    assert_eq!(result["package_ok"], true, "{result}");
    let pdf = app.session_dir(&id).join("报销材料.pdf");
    assert_eq!(page_count(&pdf), 1);
    let text = page_text(&pdf, 1);
    assert!(text.contains("示例大学财务处报销单"), "{text}");
    assert!(text.contains("李四 共 3 张"), "{text}");
}

#[tokio::test]
async fn a_broken_template_is_reported_and_the_rest_of_the_run_stands() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("坏.typ");
    std::fs::write(&template, "#let x = (\n").unwrap();
    let app = spawn_app_with(Options {
        documents: DocumentSettings {
            package_template: Some(template),
            ..common::documents()
        },
        ..Options::default()
    })
    .await;
    let id = app.create_session().await;
    let result = process(&app, &id, &FILES[..1]).await;
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["doc_ok"], true, "{result}");
    assert_eq!(result["package_ok"], false, "{result}");
    assert!(
        result["package_error"].as_str().unwrap().contains("模板"),
        "{result}"
    );
}
