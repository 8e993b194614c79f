//! Test hooks (delays, hangs, reject-all) and the JSON API (claims, clearing, reset, storage).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{general, spawn, spawn_with, travel};
use reimburse_demo_portal::{CLAIMS_FILE, Hooks, Page, PortalConfig};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

#[tokio::test]
async fn a_delay_on_a_page_really_delays_it() {
    let portal = spawn().await;
    portal.login().await;
    portal
        .put_hooks(json!({"delays": [{"page": "general_form", "ms": 1500}]}))
        .await;
    let started = Instant::now();
    let page = portal.get("/portal/frame/general").await;
    let took = started.elapsed();
    assert_eq!(page.status, 200);
    assert!(took >= Duration::from_millis(1500), "{took:?}");
    // Other pages are not delayed.
    let started = Instant::now();
    portal.get("/portal/frame/travel").await;
    assert!(started.elapsed() < Duration::from_millis(1500));
}

#[tokio::test]
async fn a_hang_on_submit_times_the_client_out_and_stores_nothing() {
    let portal = spawn_with(PortalConfig {
        hooks: Hooks::hang_on(Page::Submit),
        ..PortalConfig::default()
    })
    .await;
    portal.login().await;
    let started = Instant::now();
    let outcome = portal
        .client
        .post(portal.url("/portal/frame/general"))
        .multipart(general().form())
        .timeout(Duration::from_millis(800))
        .send()
        .await;
    let error = outcome.expect_err("a hung submit must not answer");
    assert!(error.is_timeout(), "{error}");
    assert!(started.elapsed() >= Duration::from_millis(800));
    // The portal still answers everything else while that request hangs.
    let health: Value = portal
        .client
        .get(portal.url("/api/health"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(health, json!({"ok": true}));
    assert!(portal.claims().await.is_empty());
    // Lifting the hook lets the same submission through.
    portal.put_hooks(json!({})).await;
    let page = portal.submit("/portal/frame/general", &general()).await;
    assert_eq!(page.status, 200, "{}", page.body);
}

#[tokio::test]
async fn a_slow_confirmation_comes_after_the_claim_is_stored() {
    let portal = spawn().await;
    portal.login().await;
    portal
        .put_hooks(json!({"delays": [{"page": "confirmation", "ms": 60000}]}))
        .await;
    let outcome = portal
        .client
        .post(portal.url("/portal/frame/travel"))
        .multipart(travel().form())
        .timeout(Duration::from_millis(800))
        .send()
        .await;
    assert!(outcome.unwrap_err().is_timeout());
    // The bot timed out, yet the claim exists: it must look before submitting again.
    assert_eq!(portal.claims().await.len(), 1);
}

#[tokio::test]
async fn reject_all_refuses_valid_claims_with_its_message() {
    let portal = spawn_with(PortalConfig {
        hooks: Hooks {
            reject_all_with: Some("系统维护中，暂停报销".into()),
            ..Hooks::default()
        },
        ..PortalConfig::default()
    })
    .await;
    portal.login().await;
    for (path, input) in [
        ("/portal/frame/general", general()),
        ("/portal/frame/travel", travel()),
    ] {
        let page = portal.submit(path, &input).await;
        assert_eq!(page.status, 422);
        assert!(page.body.contains("系统维护中，暂停报销"));
    }
    assert!(portal.claims().await.is_empty());
    let hooks: Value = portal
        .client
        .get(portal.url("/api/hooks"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(hooks["reject_all_with"], "系统维护中，暂停报销");
    // Reset restores the configured hooks, so the rejection stays.
    portal
        .client
        .post(portal.url("/api/reset"))
        .send()
        .await
        .unwrap();
    portal.put_hooks(json!({"reject_all_with": null})).await;
    portal.login().await;
    let page = portal.submit("/portal/frame/general", &general()).await;
    assert_eq!(page.status, 200);
}

#[tokio::test]
async fn bad_hooks_json_is_a_json_error() {
    let portal = spawn().await;
    let response = portal
        .client
        .put(portal.url("/api/hooks"))
        .header("content-type", "application/json")
        .body(r#"{"delays": [{"page": "nowhere", "ms": 1}]}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("JSON"));
}

#[tokio::test]
async fn claims_can_be_cleared_and_the_portal_reset() {
    let portal = spawn().await;
    portal.login().await;
    portal.submit("/portal/frame/general", &general()).await;
    let response: Value = portal
        .client
        .delete(portal.url("/api/claims"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(response, json!({"ok": true, "removed": 1}));
    assert!(portal.claims().await.is_empty());
    // The same invoices may be claimed again after clearing, numbered from 0001 again.
    let page = portal.submit("/portal/frame/general", &general()).await;
    assert!(page.text_of("claim-no").unwrap().ends_with("-0001"));

    let response: Value = portal
        .client
        .post(portal.url("/api/reset"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(response, json!({"ok": true, "removed": 1}));
    // Reset also logged everyone out.
    assert_eq!(portal.get("/portal/home").await.path, "/login");
}

#[tokio::test]
async fn claims_in_a_claims_dir_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let config = PortalConfig {
        claims_dir: Some(dir.path().to_owned()),
        ..PortalConfig::default()
    };
    let first = spawn_with(config.clone()).await;
    first.login().await;
    let page = first.submit("/portal/frame/general", &general()).await;
    let claim_no = page.text_of("claim-no").unwrap();
    let on_disk: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join(CLAIMS_FILE)).unwrap()).unwrap();
    assert_eq!(on_disk, Value::Array(first.claims().await));

    let second = spawn_with(config).await;
    assert_eq!(second.claims().await.len(), 1);
    second.login().await;
    let page = second.submit("/portal/frame/general", &general()).await;
    assert_eq!(page.status, 422);
    assert!(page.body.contains(&format!("报销单号 {claim_no}")));
}
