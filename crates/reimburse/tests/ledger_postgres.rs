//! Two service instances on one PostgreSQL ledger, as an office runs several behind a proxy:
//! an invoice submitted through one is refused by the other, which also lists the claim. Runs
//! against the server `cargo xtask test` starts (`REIMBURSE_TEST_POSTGRES_URL`); with
//! `REIMBURSE_REQUIRE_POSTGRES=1` (as the xtask sets) a missing server fails the test.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Server, configured_data_dir, fixture, json_of, start_with};
use serde_json::{Value, json};
use sqlx::Connection as _;

const INVOICE: &str = "digital_normal_single.pdf";

/// The test server's URL, else `None` (a failure when the server is required).
fn server_url() -> Option<String> {
    let url = std::env::var("REIMBURSE_TEST_POSTGRES_URL")
        .ok()
        .filter(|u| !u.is_empty());
    if url.is_none() {
        assert!(
            std::env::var("REIMBURSE_REQUIRE_POSTGRES").as_deref() != Ok("1"),
            "REIMBURSE_REQUIRE_POSTGRES=1 but REIMBURSE_TEST_POSTGRES_URL is not set"
        );
        eprintln!("PostgreSQL test not run: REIMBURSE_TEST_POSTGRES_URL is not set");
    }
    url
}

/// A fresh schema on the server and the URL that uses it.
async fn fresh_schema(server: &str) -> String {
    let schema = format!("two_instances_{}", std::process::id());
    let mut conn = sqlx::PgConnection::connect(server).await.unwrap();
    sqlx::raw_sql(&format!(
        "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
    ))
    .execute(&mut conn)
    .await
    .unwrap();
    let sep = if server.contains('?') { '&' } else { '?' };
    format!("{server}{sep}options[search_path]={schema}")
}

async fn submitted(server: &Server, client: &reqwest::Client) -> Value {
    let id = server.create_session(client).await;
    server
        .upload(client, &id, "发票.pdf", fixture(INVOICE))
        .await;
    let config = json!({"username": "100001", "password": "demo123", "default_name": "张三",
                        "consumable_storage": "实验楼 301"});
    let started = client
        .post(server.url(&format!("/api/process/{id}")))
        .json(&config)
        .send()
        .await
        .unwrap();
    assert_eq!(started.status(), 200);
    let done = server.events_until_done(&id).await;
    assert_eq!(done.last().unwrap()["result"]["ok"], true);
    let started = client
        .post(server.url(&format!("/api/submit-financial/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(started.status(), 200);
    let events = server.events_until_done(&id).await;
    events.last().unwrap()["result"].clone()
}

#[tokio::test]
async fn an_invoice_submitted_through_one_instance_is_refused_by_the_other() {
    let Some(url) = server_url() else { return };
    let ledger_url = fresh_schema(&url).await;
    let portal = demo_portal::spawn(
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
        demo_portal::PortalConfig::default(),
    )
    .unwrap();
    let lines = format!(
        "base_url = {:?}\n[database]\nurl = {ledger_url:?}",
        portal.base_url()
    );
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let data_one = configured_data_dir(one.path(), &lines);
    let data_two = configured_data_dir(two.path(), &lines);
    let first = start_with(&data_one, &data_one, &["--no-portal"]);
    let second = start_with(&data_two, &data_two, &["--no-portal"]);
    let client = reqwest::Client::new();

    let done = submitted(&first, &client).await;
    assert_eq!(done["submit_ok"], true, "{done}");
    let claim_no = done["claim_no"].as_str().unwrap();

    let done = submitted(&second, &client).await;
    assert_eq!(done["submit_ok"], false, "{done}");
    let error = done["submit_error"].as_str().unwrap();
    assert!(
        error.contains(claim_no) && error.contains("不能重复报销"),
        "{error}"
    );
    let listed = json_of(client.get(second.url("/api/claims"))).await;
    assert_eq!(listed["claims"][0]["claim_no"], claim_no, "{listed}");
    assert!(!first.log.lock().unwrap().contains("Sqlite"));
}
