//! Sessions and uploads: POST /api/session, /api/upload, /api/mobile-upload, GET /api/files.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "test and bench code: a failed step should abort loudly"
)]

mod common;

use common::{Options, noise, spawn_app, spawn_app_with, tiny_pdf, tiny_png};
use serde_json::Value;

#[tokio::test]
async fn a_session_is_a_random_v4_id_with_its_own_directory() {
    let app = spawn_app().await;
    let first = app.create_session().await;
    let second = app.create_session().await;
    assert_ne!(first, second);
    assert_eq!(first.len(), 36);
    assert_eq!(&first[14..15], "4", "{first}");
    assert!(app.session_dir(&first).is_dir());
}

#[tokio::test]
async fn uploads_keep_chinese_names_and_never_overwrite() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    for expected in ["发票 一.pdf", "发票 一 (2).pdf"] {
        let response = app.upload(&id, "发票 一.pdf", tiny_pdf()).await;
        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body, serde_json::json!({"ok": true, "filename": expected}));
    }
    let response = app
        .upload_to("mobile-upload", &id, "支付截图.PNG", tiny_png())
        .await;
    assert_eq!(response.status(), 200);

    let listing: Value = app
        .get(&format!("/api/files/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        listing["pdfs"],
        serde_json::json!(["发票 一.pdf", "发票 一 (2).pdf"])
    );
    assert_eq!(listing["images"], serde_json::json!(["支付截图.PNG"]));
    let files = listing["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    assert_eq!(files[0]["type"], "pdf");
    assert_eq!(files[0]["size"], tiny_pdf().len());
    assert_eq!(files[2]["type"], "image");
}

#[tokio::test]
async fn generated_and_hidden_files_are_not_listed() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let dir = app.session_dir(&id);
    std::fs::write(dir.join("invoice_summary.csv"), "序号\n").unwrap();
    std::fs::write(dir.join(".hidden.pdf"), tiny_pdf()).unwrap();
    let listing: Value = app
        .get(&format!("/api/files/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(listing["files"], serde_json::json!([]));
}

async fn assert_error(response: reqwest::Response, status: u16, message_part: &str) {
    assert_eq!(response.status(), status);
    let body: Value = response.json().await.unwrap();
    let message = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error field: {body}"));
    assert!(
        message.contains(message_part),
        "{message:?} should contain {message_part:?}"
    );
    assert_eq!(body.as_object().unwrap().len(), 1, "{body}");
}

#[tokio::test]
async fn no_file_chosen_is_the_interface_message() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    // A browser form with nothing chosen sends the part with an empty file name.
    let response = app.upload(&id, "", Vec::new()).await;
    assert_error(response, 400, "未选择文件").await;
    // A form with no `file` part at all.
    let form = reqwest::multipart::Form::new().text("other", "x");
    let response = app
        .client
        .post(app.url(&format!("/api/upload/{id}")))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_error(response, 400, "未选择文件").await;
    // Not multipart at all.
    let response = app
        .client
        .post(app.url(&format!("/api/upload/{id}")))
        .body("x")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
}

#[tokio::test]
async fn random_bytes_named_pdf_are_refused_with_a_clear_message() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let response = app
        .upload(&id, "invoice.pdf", noise(10 * 1024 * 1024, 7))
        .await;
    assert_error(response, 400, "invoice.pdf 不是有效的 PDF 文件").await;
    let response = app.upload(&id, "shot.png", tiny_pdf()).await;
    assert_error(response, 400, "不是有效的图片文件").await;
    let response = app.upload(&id, "empty.pdf", Vec::new()).await;
    assert_error(response, 400, "文件为空").await;
    let response = app.upload(&id, "tool.exe", b"MZ".to_vec()).await;
    assert_error(response, 400, "不支持的文件类型").await;
    let listing: Value = app
        .get(&format!("/api/files/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(listing["files"], serde_json::json!([]));
    let leftovers = std::fs::read_dir(app.session_dir(&id)).unwrap().count();
    assert_eq!(leftovers, 0, "refused uploads leave no temp files");
}

#[tokio::test]
async fn an_upload_over_the_limit_gets_413_and_the_server_keeps_serving() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let mut big = tiny_pdf();
    big.resize(60 * 1024 * 1024, b' ');
    let response = app.upload(&id, "big.pdf", big).await;
    assert_error(response, 413, "50 MiB").await;
    assert_eq!(std::fs::read_dir(app.session_dir(&id)).unwrap().count(), 0);
    let response = app.upload(&id, "small.pdf", tiny_pdf()).await;
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn the_upload_limit_is_configurable() {
    let app = spawn_app_with(Options {
        max_upload_bytes: 1024,
        ..Options::default()
    })
    .await;
    let id = app.create_session().await;
    let mut pdf = tiny_pdf();
    pdf.resize(2048, b' ');
    assert_error(app.upload(&id, "a.pdf", pdf).await, 413, "1 MiB").await;
}

#[tokio::test]
async fn hostile_names_are_made_safe() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let cases = [
        ("../../etc/passwd.pdf", "passwd.pdf"),
        ("..\\..\\win.pdf", "win.pdf"),
        (".bashrc.pdf", "bashrc.pdf"),
        ("%2e%2e%2fx.pdf", "%2e%2e%2fx.pdf"),
    ];
    for (raw, safe) in cases {
        let response = app.upload(&id, raw, tiny_pdf()).await;
        assert_eq!(response.status(), 200, "{raw:?}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["filename"], safe, "{raw:?}");
        assert!(app.session_dir(&id).join(safe).is_file());
    }
    // A NUL cannot travel in a multipart header; the header is refused (the sanitiser's own
    // NUL handling is unit-tested in domain).
    for raw in ["../../etc/passwd", "%2e%2e%2f", "..", "a\u{0}b.pdf"] {
        let response = app.upload(&id, raw, tiny_pdf()).await;
        assert_eq!(response.status(), 400, "{raw:?}");
        let body: Value = response.json().await.unwrap();
        assert!(body["error"].is_string(), "{raw:?}");
    }
    assert!(!app.data_dir.path().join("etc").exists());
}

#[tokio::test]
async fn unknown_or_invalid_sessions_are_404_everywhere() {
    let app = spawn_app().await;
    let unknown = "00000000-0000-4000-8000-000000000000";
    for id in [unknown, "not-a-session", "..", "%2e%2e"] {
        let upload = app.upload(id, "a.pdf", tiny_pdf()).await;
        let mobile = app
            .upload_to("mobile-upload", id, "a.png", tiny_png())
            .await;
        let gets = [
            format!("/api/files/{id}"),
            format!("/api/download/{id}/result.json"),
            format!("/api/config/{id}"),
            format!("/api/data/{id}"),
            format!("/api/logs/{id}"),
        ];
        let mut responses = vec![upload, mobile];
        for path in gets {
            responses.push(app.get(&path).await);
        }
        responses.push(
            app.client
                .post(app.url(&format!("/api/save/{id}")))
                .json(&serde_json::json!({"csv_filename": "a.csv", "data": []}))
                .send()
                .await
                .unwrap(),
        );
        for response in responses {
            let url = response.url().to_string();
            assert_eq!(response.status(), 404, "{url}");
            let body: Value = response.json().await.unwrap();
            // A client resolves `..` and `%2e%2e` before sending, so those reach no session
            // route at all; they still get a JSON 404.
            if id == unknown || id == "not-a-session" {
                assert_eq!(body["error"], "会话不存在", "{url}");
            } else {
                assert!(body["error"].is_string(), "{url}");
            }
        }
    }
}

#[tokio::test]
async fn unknown_endpoints_answer_json_404() {
    let app = spawn_app().await;
    let response = app.get("/api/nothing-here").await;
    assert_eq!(response.status(), 404);
    let body: Value = response.json().await.unwrap();
    assert!(body["error"].is_string());
}
