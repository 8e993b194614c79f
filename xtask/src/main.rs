//! `cargo xtask`: the project's two set-up commands (`run`, `test`), its benchmarks and the
//! generators of committed files (fixtures, pictures, public-API snapshots).

#[cfg(test)]
mod architecture;
mod fixtures;
mod install;
mod models;
mod postgres;
mod public_api;
mod tasks;

use anyhow::bail;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  run [ARGS...]     build and start the service (extra ARGS go to `reimburse serve`)
  test              install test dependencies, then fmt --check, clippy -D warnings, the
                    public-API snapshots, all tests (with a throwaway PostgreSQL cluster for
                    the ledger's tests)
  bench sse         SSE latency with 100 streams and idle RSS of `reimburse serve`
  bench extract     extraction ms per invoice over ../shared/corpus, against pdfplumber
  bench process     POST /api/process with 20 invoices + 20 screenshots, no LLM
  bench agent       the agent flow with 20 invoices + 20 screenshots to the claim number, by phase
  bench package     the printed claim (报销材料.pdf) of 50 invoices + 50 screenshots: seconds and MB
  bench ocr         OCR wall and CPU ms per screenshot fixture
  bench ledger      double-claim checks of 50 invoices against a ledger of 1,000,000, SQLite and PostgreSQL
  fuzz [MINUTES]    mutation-fuzz the extractor over the corpus and fixtures (default 10)
  fuzz-http [CASES] fuzz the HTTP layer on loopback with malformed requests, sign-in off, signed out
                    and signed in (default 20000 each)
  screenshots       PNGs of each page state (headless Chromium) into target/screenshots
  print-images      docs/images/print-claim-*.png: page 1 and a 粘贴单 of the fixture package
  install           install the system packages and the OCR models the service and its tests use
  fixtures          regenerate the synthetic invoices and golden JSON in fixtures/invoices
  public-api [DIR...]
                    rewrite crates/<DIR>/public-api.txt, the library crates' public APIs (all
                    without DIR), after a meant API change; review the diff. `--check` only
                    compares, as `test` does";

fn main() -> anyhow::Result<()> {
    // Cargo runs this program as rustdoc while it writes the public-API snapshots' JSON.
    if let Some(real) = std::env::var_os(public_api::WRAPPER_ENV) {
        return public_api::rustdoc_wrapper(real);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return Ok(());
    };
    match command.as_str() {
        "run" => tasks::run(rest),
        "test" => tasks::test(),
        "bench" => tasks::bench(rest),
        "install" => {
            install::ensure_system_packages()?;
            models::ensure_models()
        }
        "fuzz" => tasks::fuzz(rest),
        "fuzz-http" => tasks::fuzz_http(rest),
        "screenshots" => tasks::screenshots(),
        "print-images" => tasks::print_images(),
        "fixtures" => fixtures::fixtures(),
        "public-api" => public_api::regenerate(rest),
        "help" | "--help" | "-h" => {
            eprintln!("{USAGE}");
            Ok(())
        }
        other => bail!("unknown command `{other}`\n\n{USAGE}"),
    }
}
