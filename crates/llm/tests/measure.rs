//! Measures the runtime choice documented in docs/llm.md (run with `-- --ignored`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] functions"
)]

use reimburse_llm::testing::{ScriptedReply, ScriptedServer};
use reimburse_llm::{ChatRequest, Client, NullSink};
use std::time::{Duration, Instant};

const CALLS: u32 = 50;

fn average(total: Duration) -> f64 {
    total.as_secs_f64() * 1000.0 / f64::from(CALLS)
}

#[test]
#[ignore = "measurement, not a check"]
fn shared_runtime_versus_runtime_per_call() {
    let server =
        ScriptedServer::start((0..3 * CALLS).map(|_| ScriptedReply::text("ok")).collect()).unwrap();

    // What a runtime-per-call design pays before its first byte: a runtime and an HTTP
    // client (TLS roots included) per call.
    let started = Instant::now();
    for _ in 0..CALLS {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let http = reqwest::Client::builder().build().unwrap();
        drop((runtime, http));
    }
    let setup = average(started.elapsed());

    // The whole client built per call (runtime thread, HTTP client) plus one call.
    let started = Instant::now();
    for _ in 0..CALLS {
        let client = Client::new(server.config()).unwrap();
        client.chat(ChatRequest::text("x"), &mut NullSink).unwrap();
    }
    let fresh = average(started.elapsed());

    // One shared client.
    let client = Client::new(server.config()).unwrap();
    let started = Instant::now();
    for _ in 0..CALLS {
        client.chat(ChatRequest::text("x"), &mut NullSink).unwrap();
    }
    let shared = average(started.elapsed());
    println!(
        "runtime+http client setup: {setup:.3} ms; fresh client + call: {fresh:.3} ms; shared client call: {shared:.3} ms"
    );
}
