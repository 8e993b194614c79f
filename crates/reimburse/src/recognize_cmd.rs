//! `reimburse recognize FILE...`: one JSON line per payment screenshot, for scripts.

use crate::cli::RecognizeArgs;
use crate::service_config::ServiceConfig;
use pipeline::{ScreenshotReader, ScreenshotSettings};
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// Prints `{file, amount, date, time, card_last4, card_bank, merchant, channel, order_no, …}`
/// ("" for what could not be read), `{file, no_payment: true}`, or `{file, error}`.
pub fn run(args: &RecognizeArgs) -> anyhow::Result<()> {
    let (config, _) = ServiceConfig::load(args.config.as_deref(), Path::new("."))?;
    let settings = ScreenshotSettings {
        llm: config.llm.client()?.map(Arc::new),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failures = 0usize;
    // One reader for all files: the OCR models load once.
    let reader = ScreenshotReader::new(&settings);
    for path in &args.files {
        let shown = path.display().to_string();
        let line = match reader.read(path, &mut |_| {}) {
            Ok((record, _)) if record.no_payment => json!({"file": shown, "no_payment": true}),
            Ok((record, note)) => json!({
                "file": shown,
                "amount": record.amount,
                "date": record.date,
                "time": record.time,
                "card_last4": record.card_last4,
                "card_number": record.card_number,
                "card_bank": record.card_bank,
                "merchant": record.merchant,
                "channel": record.channel,
                "order_no": record.order_no,
                "status": record.status,
                "unreadable": record.unreadable,
                "note": note,
            }),
            Err(error) => {
                failures += 1;
                json!({"file": shown, "error": error})
            }
        };
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    if failures > 0 {
        anyhow::bail!("{failures} of {} files failed", args.files.len());
    }
    Ok(())
}
