//! GET /api/config, GET /api/data and POST /api/save.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "test and bench code: a failed step should abort loudly"
)]

mod common;

use common::{Options, spawn_app, spawn_app_with};
use domain::{COLUMNS, Password, SessionConfig};
use serde_json::{Value, json};

#[tokio::test]
async fn config_falls_back_to_the_project_defaults_without_the_password() {
    let defaults = SessionConfig {
        username: "100234".into(),
        password: Password::new("project-secret"),
        default_name: "张三".into(),
        consumable_storage: "实验楼 301".into(),
        ..SessionConfig::default()
    };
    let app = spawn_app_with(Options {
        defaults,
        ..Options::default()
    })
    .await;
    let id = app.create_session().await;
    let body: Value = app
        .get(&format!("/api/config/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        body,
        json!({"username": "100234", "password": "", "default_name": "张三", "default_card_no": "",
               "default_person_id": "", "consumable_storage": "实验楼 301"})
    );
}

#[tokio::test]
async fn session_config_wins_and_its_password_is_never_returned_or_stored_in_clear() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let config = SessionConfig {
        username: "200001".into(),
        password: Password::new("hunter2-密码"),
        default_card_no: "6217000011112222".into(),
        ..SessionConfig::default()
    };
    app.session(&id).write_config(&config).unwrap();
    let body: Value = app
        .get(&format!("/api/config/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["username"], "200001");
    assert_eq!(body["default_card_no"], "6217000011112222");
    assert_eq!(body["password"], "");
    let on_disk = std::fs::read_to_string(app.session_dir(&id).join("config.json")).unwrap();
    assert!(!on_disk.contains("hunter2"), "{on_disk}");
    let downloaded = app
        .get(&format!("/api/download/{id}/config.json"))
        .await
        .text()
        .await
        .unwrap();
    assert!(!downloaded.contains("hunter2"));
    assert_eq!(
        app.session(&id)
            .read_config()
            .unwrap()
            .unwrap()
            .password
            .expose(),
        "hunter2-密码"
    );
    let key_mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(app.data_dir.path().join("secret.key"))
            .unwrap()
            .permissions(),
    );
    assert_eq!(key_mode & 0o777, 0o600);
}

fn csv(rows: &[&[&str]]) -> String {
    let mut text = format!("\u{feff}{}\n", COLUMNS.join(","));
    for row in rows {
        text.push_str(&row.join(","));
        text.push('\n');
    }
    text
}

#[tokio::test]
async fn data_reads_by_the_interface_priority_with_row_indexes() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let dir = app.session_dir(&id);
    let response = app.get(&format!("/api/data/{id}")).await;
    assert_eq!(response.status(), 404);
    assert!(response.json::<Value>().await.unwrap()["error"].is_string());

    std::fs::write(dir.join("other.csv"), csv(&[&["9"]])).unwrap();
    let body: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["csv_filename"], "other.csv");

    std::fs::write(
        dir.join("invoice_summary.csv"),
        csv(&[&["1", "25432000000022014229"], &["2", "x"]]),
    )
    .unwrap();
    let body: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["csv_filename"], "invoice_summary.csv");
    assert_eq!(body["fields"], json!(COLUMNS));
    assert_eq!(body["data"][0]["发票号码"], "25432000000022014229");
    assert_eq!(body["data"][0]["__row"], 0);
    assert_eq!(body["data"][1]["__row"], 1);
    assert_eq!(body["data"][1]["工号"], "");

    std::fs::write(dir.join("payment_records.csv"), csv(&[&["1", "P"]])).unwrap();
    let body: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["csv_filename"], "payment_records.csv");
    assert_eq!(body["data"][0]["发票号码"], "P");
}

#[tokio::test]
async fn an_unreadable_csv_is_500_with_an_error() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    std::fs::write(
        app.session_dir(&id).join("invoice_summary.csv"),
        b"\xff\xfe\xfd\n",
    )
    .unwrap();
    let response = app.get(&format!("/api/data/{id}")).await;
    assert_eq!(response.status(), 500);
    let body: Value = response.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("读取表格失败"));
}

#[tokio::test]
async fn save_writes_rows_in_array_order_and_reports_the_document_honestly() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    std::fs::write(
        app.session_dir(&id).join("invoice_summary.csv"),
        csv(&[&["1", "A"], &["2", "B"]]),
    )
    .unwrap();
    let mut data: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    let rows = data["data"].as_array_mut().unwrap();
    rows.reverse();
    rows[0]["备注"] = json!("改过, 含逗号 \"引号\"");
    rows[1].as_object_mut().unwrap().remove("__row");
    rows[1]["序号"] = json!(7);
    let response = app
        .client
        .post(app.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": "invoice_summary.csv", "data": rows}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["ok"], true);
    // Rows typed without extracted records: both are general by their (empty) names, so a
    // document is attempted; whether LibreOffice is here or not, the answer says which.
    assert!(
        body["doc_ok"] == true || body["doc_error"].is_string(),
        "{body}"
    );
    assert_eq!(body["general_count"], 2);

    let back: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(back["data"][0]["发票号码"], "B");
    assert_eq!(back["data"][0]["备注"], "改过, 含逗号 \"引号\"");
    assert_eq!(back["data"][1]["发票号码"], "A");
    assert_eq!(back["data"][1]["序号"], "7");
    let raw = std::fs::read(app.session_dir(&id).join("invoice_summary.csv")).unwrap();
    assert!(raw.starts_with("\u{feff}".as_bytes()), "CSV keeps its BOM");
}

#[tokio::test]
async fn bad_save_requests_get_400_and_change_nothing() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let path = app.session_dir(&id).join("invoice_summary.csv");
    std::fs::write(&path, csv(&[&["1", "A"]])).unwrap();
    let before = std::fs::read(&path).unwrap();
    let save = |body: reqwest::Body, content_type: &'static str| {
        app.client
            .post(app.url(&format!("/api/save/{id}")))
            .header("content-type", content_type)
            .body(body)
    };
    let bad = [
        save("{not json".into(), "application/json"),
        save("[]".into(), "application/json"),
        save(r#"{"csv_filename":"x.csv"}"#.into(), "application/json"),
        save(
            r#"{"csv_filename":"x.csv","data":"rows"}"#.into(),
            "application/json",
        ),
        save(
            r#"{"csv_filename":"../../x.csv","data":[]}"#.into(),
            "application/json",
        ),
        save(
            r#"{"csv_filename":"config.json","data":[]}"#.into(),
            "application/json",
        ),
        save(
            r#"{"csv_filename":"a.csv","data":[{"备注":{"x":1}}]}"#.into(),
            "application/json",
        ),
        save(r#"{"csv_filename":"a.csv","data":[]}"#.into(), "text/plain"),
    ];
    for request in bad {
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 400);
        let body: Value = response.json().await.unwrap();
        assert!(body["error"].is_string(), "{body}");
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert!(!app.data_dir.path().join("x.csv").exists());
    assert!(!app.session_dir(&id).join("a.csv").exists());
}

#[tokio::test]
async fn save_is_refused_while_a_job_runs() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let (release, wait) = std::sync::mpsc::channel::<()>();
    app.state
        .jobs
        .start(app.session(&id), "test", move |_| {
            let _ = wait.recv();
            json!({"ok": true})
        })
        .unwrap();
    let response = app
        .client
        .post(app.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": "invoice_summary.csv", "data": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 409);
    release.send(()).unwrap();
}
