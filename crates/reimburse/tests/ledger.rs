//! The claims ledger through the real service and the demo portal: a claim submitted; the same
//! invoice under another name in a new session is told it is claimed (on the stream, in the
//! agent state and on the table), cannot auto-submit, force submit refuses; voided, it submits.
//! Twenty sessions submitting one invoice at once give one claim and nineteen refusals. A
//! `kill -9` during a submission leaves the ledger and the portal in agreement after restart.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Server, configured_data_dir, fixture, json_of, start, start_with};
use serde_json::{Value, json};
use std::time::Duration;

const INVOICE: &str = "digital_normal_single.pdf";

fn config() -> Value {
    json!({"username": "100001", "password": "demo123", "default_name": "张三",
           "consumable_storage": "实验楼 301"})
}

/// A job's `done` result.
async fn job(server: &Server, client: &reqwest::Client, path: &str, body: Value) -> Value {
    let response = client
        .post(server.url(path))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    assert_eq!(status, 200, "{path}: {}", response.text().await.unwrap());
    let id = path.rsplit('/').next().unwrap();
    let events = server.events_until_done(id).await;
    events.last().unwrap()["result"].clone()
}

/// `POST /api/submit-financial` (no body, as the interface says) and its `done` result.
async fn submit(server: &Server, client: &reqwest::Client, id: &str) -> Value {
    let response = client
        .post(server.url(&format!("/api/submit-financial/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
    let events = server.events_until_done(id).await;
    events.last().unwrap()["result"].clone()
}

/// A session holding the invoice fixture under `name`, processed (table and records written).
async fn processed(server: &Server, client: &reqwest::Client, name: &str) -> String {
    let id = server.create_session(client).await;
    server.upload(client, &id, name, fixture(INVOICE)).await;
    let done = job(server, client, &format!("/api/process/{id}"), config()).await;
    assert_eq!(done["ok"], true, "{done}");
    id
}

async fn portal_claims(server: &Server) -> Vec<Value> {
    let body = json_of(reqwest::Client::new().get(format!("{}/api/claims", server.portal))).await;
    body["claims"].as_array().unwrap().clone()
}

async fn ledger_claims(server: &Server, query: &str) -> Vec<Value> {
    let body =
        json_of(reqwest::Client::new().get(server.url(&format!("/api/claims{query}")))).await;
    body["claims"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_claimed_invoice_is_refused_in_a_new_session_until_its_claim_is_voided() {
    let root = tempfile::tempdir().unwrap();
    let data = configured_data_dir(root.path(), "");
    let server = start(&data);
    let client = reqwest::Client::new();

    // The first claim, through the agent: complete, submitted by itself.
    let first = server.create_session(&client).await;
    server
        .upload(&client, &first, INVOICE, fixture(INVOICE))
        .await;
    let done = job(
        &server,
        &client,
        &format!("/api/agent/process/{first}"),
        config(),
    )
    .await;
    assert_eq!(done["submit_ok"], true, "{done}");
    let claim_no = done["claim_no"].as_str().unwrap().to_owned();
    let claims = ledger_claims(&server, "").await;
    assert_eq!(claims.len(), 1, "{claims:?}");
    assert_eq!(claims[0]["claim_no"], claim_no.as_str());
    assert_eq!(claims[0]["status"], "accepted");
    assert_eq!(claims[0]["session_id"], first.as_str());

    // The same invoice, re-downloaded under another name, in a new session.
    let second = server.create_session(&client).await;
    server
        .upload(&client, &second, "重新下载的发票.pdf", fixture(INVOICE))
        .await;
    let response = client
        .post(server.url(&format!("/api/agent/process/{second}")))
        .json(&config())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let events = server.events_until_done(&second).await;
    let done = &events.last().unwrap()["result"];
    assert_ne!(done["submit_ok"], true, "no automatic submission: {done}");
    let said = format!("在报销单 {claim_no} 中报销（张三），不能重复报销");
    let request = events
        .iter()
        .find(|e| e["type"] == "agent_request_supplement")
        .unwrap_or_else(|| panic!("{events:?}"));
    assert!(
        request["semantic_issues"].to_string().contains(&said),
        "{request}"
    );
    let state = json_of(client.get(server.url(&format!("/api/agent/state/{second}")))).await;
    assert!(state.to_string().contains(&said), "{state}");
    assert!(
        state.to_string().contains("ledger-already-claimed"),
        "{state}"
    );
    let data = json_of(client.get(server.url(&format!("/api/data/{second}")))).await;
    assert_eq!(data["ledger"][0]["row"], 1, "{data}");
    assert_eq!(data["ledger"][0]["finding"], "claimed", "{data}");

    // Forced, it is refused before the portal sees it.
    let done = job(
        &server,
        &client,
        &format!("/api/agent/force-submit/{second}"),
        json!({}),
    )
    .await;
    assert_eq!(done["submit_ok"], false, "{done}");
    let error = done["submit_error"].as_str().unwrap();
    assert!(
        error.contains(&claim_no) && error.contains("不能重复报销"),
        "{error}"
    );
    assert_eq!(portal_claims(&server).await.len(), 1);

    // The finance office sends the first claim back: voided, the invoice is free again.
    let id = claims[0]["id"].as_i64().unwrap();
    let refused = client
        .post(server.url(&format!("/api/claims/{id}/void")))
        .json(&json!({"reason": " "}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    let voided = client
        .post(server.url(&format!("/api/claims/{id}/void")))
        .json(&json!({"reason": "财务处退回：附件不全", "by": "张三"}))
        .send()
        .await
        .unwrap();
    assert_eq!(voided.status(), 200, "{}", voided.text().await.unwrap());
    let detail = json_of(client.get(server.url(&format!("/api/claims/{id}")))).await;
    assert_eq!(detail["summary"]["status"], "voided", "{detail}");
    assert_eq!(detail["voided"]["reason"], "财务处退回：附件不全");
    // The portal's own duplicate check forgets a claim its office sent back: the demo
    // portal's test hook forgets them all.
    let forgotten = client
        .delete(format!("{}/api/claims", server.portal))
        .send()
        .await
        .unwrap();
    assert_eq!(forgotten.status(), 200);
    let done = submit(&server, &client, &second).await;
    assert_eq!(done["submit_ok"], true, "{done}");
    assert_eq!(portal_claims(&server).await.len(), 1);
    let claims = ledger_claims(&server, "?status=accepted").await;
    assert_eq!(claims.len(), 1);
    assert_eq!(claims[0]["session_id"], second.as_str());
    let csv = client
        .get(server.url("/api/claims/export.csv"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        csv.contains(&claim_no) && csv.contains("财务处退回"),
        "{csv}"
    );
}

#[tokio::test]
async fn twenty_sessions_submitting_one_invoice_at_once_file_one_claim() {
    let root = tempfile::tempdir().unwrap();
    let data = configured_data_dir(root.path(), "");
    let server = start(&data);
    let client = reqwest::Client::new();
    let mut sessions = Vec::new();
    for n in 0..20 {
        sessions.push(processed(&server, &client, &format!("发票-{n}.pdf")).await);
    }
    let runs = sessions.iter().map(|id| {
        let client = client.clone();
        let server = &server;
        async move { submit(server, &client, id).await }
    });
    let results = futures_util::future::join_all(runs).await;
    let accepted: Vec<&Value> = results.iter().filter(|r| r["submit_ok"] == true).collect();
    assert_eq!(accepted.len(), 1, "{results:?}");
    for refused in results.iter().filter(|r| r["submit_ok"] != true) {
        let error = refused["submit_error"].as_str().unwrap();
        assert!(error.contains("不能重复报销，未提交"), "{error}");
    }
    assert_eq!(portal_claims(&server).await.len(), 1);
    let claims = ledger_claims(&server, "?status=accepted").await;
    assert_eq!(claims.len(), 1);
    assert_eq!(claims[0]["claim_no"], accepted[0]["claim_no"]);
}

#[tokio::test]
async fn a_kill_during_submission_leaves_ledger_and_portal_agreeing_after_restart() {
    let portal = demo_portal::spawn(
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
        demo_portal::PortalConfig::default(),
    )
    .unwrap();
    let root = tempfile::tempdir().unwrap();
    let data = configured_data_dir(root.path(), &format!("base_url = {:?}", portal.base_url()));
    let client = reqwest::Client::new();
    for delay_ms in [300, 4000] {
        let mut server = start_with(&data, &data, &["--no-portal"]);
        let id = processed(&server, &client, &format!("发票-{delay_ms}.pdf")).await;
        let started = client
            .post(server.url(&format!("/api/submit-financial/{id}")))
            .send()
            .await
            .unwrap();
        assert_eq!(started.status(), 200);
        tokio::time::sleep(Duration::from_millis(delay_ms)).await;
        server.child.kill().unwrap();
        server.child.wait().unwrap();
        drop(server);

        let server = start_with(&data, &data, &["--no-portal"]);
        let in_portal: Vec<String> =
            json_of(client.get(format!("{}/api/claims", portal.base_url()))).await["claims"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["claim_no"].as_str().unwrap().to_owned())
                .collect();
        let in_ledger: Vec<String> = ledger_claims(&server, "?status=accepted")
            .await
            .iter()
            .map(|c| c["claim_no"].as_str().unwrap().to_owned())
            .collect();
        let pending = ledger_claims(&server, "?status=pending").await;
        // Nothing in the ledger that the portal did not accept.
        assert!(
            in_ledger.iter().all(|n| in_portal.contains(n)),
            "killed after {delay_ms} ms: {in_ledger:?} / {in_portal:?}"
        );
        // Every claim the portal accepted is in the ledger: with its number, or, when the
        // process died between the portal's answer and reading it, held as 提交中 for a
        // person to check (its invoice stays claimed).
        let held = in_ledger.len() + pending.len();
        assert!(
            held >= in_portal.len(),
            "killed after {delay_ms} ms: portal {in_portal:?}, ledger {in_ledger:?}, pending {pending:?}"
        );
        if delay_ms < 1000 {
            // Cut off long before the final submit: released, nothing held.
            assert!(pending.is_empty(), "{pending:?}");
        }
        for claim in &pending {
            // A person checks the portal and settles it.
            let id = claim["id"].as_i64().unwrap();
            let settled = client
                .post(server.url(&format!("/api/claims/{id}/void")))
                .json(&json!({"reason": "已核对财务系统"}))
                .send()
                .await
                .unwrap();
            assert_eq!(settled.status(), 200);
        }
        drop(server);
    }
}
