//! POST /api/process: configuration, extraction of the generated fixtures, events, the table.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{spawn_app, tiny_pdf};
use domain::{InvoiceKind, InvoiceRecord};
use serde_json::{Value, json};
use std::path::PathBuf;

/// The project's own synthetic invoices with their golden records (`cargo xtask fixtures`).
fn fixtures() -> Vec<(String, Vec<u8>, InvoiceRecord)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/invoices");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let is_pdf = path.extension().is_some_and(|e| e == "pdf");
        let golden = path.with_extension("json");
        if is_pdf && golden.is_file() {
            let record: InvoiceRecord =
                serde_json::from_slice(&std::fs::read(&golden).unwrap()).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            out.push((name, std::fs::read(&path).unwrap(), record));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(
        out.len() >= 5,
        "expected the generated fixtures in {}",
        dir.display()
    );
    out
}

async fn post_process(app: &common::TestApp, id: &str, body: Value) -> reqwest::Response {
    app.client
        .post(app.url(&format!("/api/process/{id}")))
        .json(&body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn process_extracts_every_invoice_and_streams_progress() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let fixtures = fixtures();
    for (name, bytes, _) in &fixtures {
        assert_eq!(
            app.upload(id.as_str(), name, bytes.clone()).await.status(),
            200
        );
    }
    // A broken file and the same invoice again under another name.
    let mut broken = tiny_pdf();
    broken.extend_from_slice(b"garbage");
    app.upload(&id, "坏文件.pdf", broken).await;
    app.upload(&id, "重复.pdf", fixtures[0].1.clone()).await;

    let response = post_process(
        &app,
        &id,
        json!({"username": "100001", "password": "demo123", "default_name": "张三", "consumable_storage": "实验楼 301"}),
    )
    .await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"status": "started"})
    );

    let events = app
        .open_stream(&id, None)
        .await
        .collect_until_closed()
        .await;
    let done = &events.last().unwrap().data;
    assert_eq!(done["type"], "done");
    let result = &done["result"];
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["invoice_count"], fixtures.len());
    let travel = fixtures
        .iter()
        .filter(|f| classify::classify(&f.2).kind == InvoiceKind::Travel)
        .count();
    assert_eq!(result["travel_count"], travel);
    assert_eq!(result["general_count"], fixtures.len() - travel);
    assert_eq!(
        result["csv_url"],
        format!("/api/download/{id}/invoice_summary.csv")
    );
    assert!(result["elapsed"].as_str().unwrap().ends_with('s'));
    assert_eq!(result["doc_ok"], true, "{result}");
    assert_eq!(result["errors"][0]["file"], "坏文件.pdf");
    assert_eq!(result["duplicates"][0]["file"], "重复.pdf");

    let progress: Vec<&Value> = events
        .iter()
        .map(|e| &e.data)
        .filter(|d| d["type"] == "file_progress")
        .collect();
    for (name, _, record) in &fixtures {
        let statuses: Vec<&str> = progress
            .iter()
            .filter(|p| p["file"] == name.as_str())
            .map(|p| p["status"].as_str().unwrap())
            .collect();
        assert_eq!(statuses, ["processing", "done"], "{name}");
        let summary = progress
            .iter()
            .find(|p| p["file"] == name.as_str() && p["status"] == "done")
            .unwrap()["summary"]
            .as_str()
            .unwrap();
        assert!(summary.contains(&record.invoice_number), "{summary}");
    }
    let broken_error = progress
        .iter()
        .find(|p| p["file"] == "坏文件.pdf" && p["status"] == "error")
        .unwrap();
    assert!(
        broken_error["error"]
            .as_str()
            .is_some_and(|e| !e.is_empty())
    );
    assert!(
        events
            .iter()
            .any(|e| e.data["type"] == "log" && e.data["module"] == "pipeline")
    );

    // The table: one row per invoice, in upload order, with the session's person columns.
    let data: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(data["csv_filename"], "invoice_summary.csv");
    let rows = data["data"].as_array().unwrap();
    assert_eq!(rows.len(), fixtures.len());
    for (row, (_, _, record)) in rows.iter().zip(&fixtures) {
        assert_eq!(row["发票号码"], record.invoice_number.as_str());
        assert_eq!(row["开票日期"], record.invoice_date.as_str());
        assert_eq!(row["价税合计"], record.total_with_tax.as_str());
        assert_eq!(row["销售方名称"], record.seller.name.as_str());
        assert_eq!(row["人员姓名"], "张三");
        assert_eq!(row["工号"], "100001");
    }

    // The configuration was written, the password encrypted.
    let config: Value = app
        .get(&format!("/api/config/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(config["consumable_storage"], "实验楼 301");
    assert_eq!(config["password"], "");
    let on_disk = std::fs::read_to_string(app.session_dir(&id).join("config.json")).unwrap();
    assert!(!on_disk.contains("demo123"));

    // A second run reuses the extraction of unchanged bytes, and keeps omitted fields.
    assert_eq!(post_process(&app, &id, json!({})).await.status(), 200);
    let events = app
        .open_stream(&id, None)
        .await
        .collect_until_closed()
        .await;
    let cached = events
        .iter()
        .filter(|e| e.data["type"] == "file_progress" && e.data["status"] == "cached")
        .count();
    assert_eq!(
        cached,
        fixtures.len() + 1,
        "every invoice and the duplicate come from the cache"
    );
    assert_eq!(
        events.last().unwrap().data["result"]["invoice_count"],
        fixtures.len()
    );
    let config: Value = app
        .get(&format!("/api/config/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(config["consumable_storage"], "实验楼 301");
}

#[tokio::test]
async fn a_session_without_invoices_ends_with_a_clear_failure() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    assert_eq!(
        app.client
            .post(app.url(&format!("/api/process/{id}")))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    let events = app
        .open_stream(&id, None)
        .await
        .collect_until_closed()
        .await;
    let result = &events.last().unwrap().data["result"];
    assert_eq!(result["ok"], false);
    assert!(result["error"].as_str().unwrap().contains("请先上传"));
}

#[tokio::test]
async fn process_refuses_bad_bodies_unknown_sessions_and_a_second_run() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let bad = app
        .client
        .post(app.url(&format!("/api/process/{id}")))
        .header("content-type", "application/json")
        .body("{\"username\": 5}")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    let unknown = post_process(&app, "00000000-0000-4000-8000-000000000000", json!({})).await;
    assert_eq!(unknown.status(), 404);

    let (release, wait) = std::sync::mpsc::channel::<()>();
    app.state
        .jobs
        .start(app.session(&id), "test", move |_| {
            let _ = wait.recv();
            json!({"ok": true})
        })
        .unwrap();
    let busy = post_process(&app, &id, json!({})).await;
    assert_eq!(busy.status(), 409);
    assert!(busy.json::<Value>().await.unwrap()["error"].is_string());
    release.send(()).unwrap();
}
