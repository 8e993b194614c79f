//! A claim through the real service into crates/campus-portal, a portal with a login captcha:
//! the submission stops at the captcha, the stream shows it (`submit_challenge`, with the
//! picture), the test plays the person through `POST /api/submit-challenge` (a wrong answer
//! first, asked again with the portal's words), and the claim lands with its number alone.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use campus_portal::{CampusConfig, CampusThread};
use common::{Server, fixture, start_with, workspace};
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::net::TcpListener;
use std::path::Path;
use std::time::Duration;

/// A data dir whose service submits to `portal` through the campus flow.
fn campus_data_dir(root: &Path, portal: &CampusThread) -> std::path::PathBuf {
    let data = root.join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(
        data.join("reimburse.toml"),
        format!(
            "[document]\ntemplate = {:?}\n[finance]\nflow = {:?}\nbase_url = {:?}\n",
            workspace().join("templates/易耗品出库单.docx"),
            workspace().join("flows/campus-portal.toml"),
            portal.base_url(),
        ),
    )
    .unwrap();
    data
}

/// A processed session of one general invoice, for the campus account.
async fn processed_session(server: &Server, client: &reqwest::Client) -> String {
    let id = server.create_session(client).await;
    server
        .upload(
            client,
            &id,
            "invoice.pdf",
            fixture("digital_normal_single.pdf"),
        )
        .await;
    let body = json!({"username": "200001", "password": "campus123", "default_name": "李四",
                      "consumable_storage": "实验楼 301"});
    let started = client
        .post(server.url(&format!("/api/process/{id}")))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(started.status(), 200);
    let events = server.events_until_done(&id).await;
    let done = &events.last().unwrap()["result"];
    assert_eq!(done["ok"], true, "{done}");
    id
}

async fn captcha(portal: &CampusThread) -> String {
    reqwest::get(format!("{}/test/captcha", portal.base_url()))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

async fn answer(server: &Server, id: &str, body: Value) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(server.url(&format!("/api/submit-challenge/{id}")))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

#[tokio::test]
async fn the_person_answers_the_portals_captcha_through_the_endpoint() {
    let portal = campus_portal::spawn(
        TcpListener::bind("127.0.0.1:0").unwrap(),
        CampusConfig::default(),
    )
    .unwrap();
    let root = tempfile::tempdir().unwrap();
    let data = campus_data_dir(root.path(), &portal);
    let server = start_with(&data, &data, &["--no-portal"]);
    let client = reqwest::Client::new();
    let id = processed_session(&server, &client).await;

    let (status, body) = answer(&server, &id, json!({"answer": "1234"})).await;
    assert_eq!(
        (status, body),
        (409, json!({"error": "当前没有等待输入的验证码"}))
    );

    let started = client
        .post(server.url(&format!("/api/submit-financial/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(started.status(), 200);

    // Read the stream as the page does, answering each challenge as it comes.
    let response = reqwest::get(server.url(&format!("/api/logs/{id}")))
        .await
        .unwrap();
    let mut stream = response.bytes_stream();
    let mut pending = String::new();
    let mut challenges = Vec::new();
    let mut closed = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(180);
    let done = 'read: loop {
        let chunk = tokio::time::timeout_at(deadline, stream.next())
            .await
            .expect("done within 180 s")
            .expect("the stream ends with done")
            .unwrap();
        pending.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = pending.find("\n\n") {
            let frame: String = pending.drain(..end + 2).collect();
            let Some(data) = frame.lines().find_map(|l| l.strip_prefix("data:")) else {
                continue;
            };
            let Ok(event) = serde_json::from_str::<Value>(data.trim()) else {
                continue;
            };
            match event["type"].as_str() {
                Some("done") => break 'read event["result"].clone(),
                Some("submit_challenge_closed") => closed.push(event),
                Some("submit_challenge") => {
                    let challenge_id = event["id"].as_str().unwrap().to_owned();
                    // What waits is also there for a client that comes late.
                    let waiting: Value =
                        reqwest::get(server.url(&format!("/api/submit-challenge/{id}")))
                            .await
                            .unwrap()
                            .json()
                            .await
                            .unwrap();
                    assert_eq!(waiting["challenge"]["id"], challenge_id.as_str());
                    let code = captcha(&portal).await;
                    let typed = if challenges.is_empty() {
                        // A person misreads the first picture.
                        code.chars().rev().collect::<String>() + "9"
                    } else {
                        let (status, body) =
                            answer(&server, &id, json!({"id": "c0", "answer": code})).await;
                        assert_eq!(status, 409, "{body}");
                        assert_eq!(body["error"], "该验证码已失效，请按最新的提示输入");
                        code
                    };
                    let (status, body) =
                        answer(&server, &id, json!({"id": challenge_id, "answer": typed})).await;
                    assert_eq!((status, body), (200, json!({"ok": true})));
                    challenges.push(event);
                }
                _ => {}
            }
        }
    };

    assert_eq!(done["submit_ok"], true, "{done}");
    let claim_no = done["claim_no"].as_str().unwrap();
    assert!(claim_no.starts_with("CW") && claim_no.len() == 12, "{done}");
    assert_eq!(challenges.len(), 2, "{challenges:?}");
    let first = &challenges[0];
    assert!(
        first["image"]
            .as_str()
            .unwrap()
            .starts_with("data:image/png;base64,"),
        "{first}"
    );
    assert_eq!(first["attempt"], 1);
    assert!(first["prompt"].as_str().unwrap().contains("验证码"));
    assert!(first["expires_in"].as_u64().unwrap() > 0);
    assert_eq!(first.get("message"), None);
    assert_eq!(challenges[1]["attempt"], 2);
    assert_eq!(challenges[1]["message"], "验证码错误");
    assert_eq!(closed.len(), 2);
    assert!(
        closed.iter().all(|c| c["outcome"] == "answered"),
        "{closed:?}"
    );

    let claims: Value = reqwest::get(format!("{}/api/claims", portal.base_url()))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(claims[0]["claim_no"], claim_no);
}
