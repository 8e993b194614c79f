//! Reading payment screenshots: the vision model when one is configured, else offline OCR
//! (PP-OCR in process, `payments::Recognizer`).

use domain::{Event, FileStatus, LlmPhase};
use llm::{ChatRequest, Client, ImageInput};
use payments::{PaymentRecord, Recognizer};
use serde_json::{Value, json};
use session_store::Session;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::cache;

/// How screenshots are read; one per service.
#[derive(Debug, Clone, Default)]
pub struct ScreenshotSettings {
    /// The configured language model; `None` reads with OCR only.
    pub llm: Option<Arc<Client>>,
}

const PROMPT: &str = "这是一张手机支付截图（支付宝/微信账单详情、支付成功页、云闪付、银行卡交易明细或 POS 签购单照片）。\
请只读出图中实际显示的内容，看不清或没有显示的字段一律填空字符串，绝不猜测：\
amount 为支付金额（两位小数，不带符号和货币符号），date 为支付日期（YYYY/MM/DD），time 为支付时间（HH:MM 或 HH:MM:SS），\
card_last4 为银行卡后四位，card_number 为图中完整显示的卡号（被遮挡则为空），card_bank 为发卡银行，merchant 为收款方/商户名称，\
channel 为支付渠道（支付宝、微信支付、云闪付、某某银行手机银行、POS），order_no 为订单号或交易单号，status 为交易状态（成功、退款、失败等）。\
如果图片不是支付记录，no_payment 为 true。只输出 JSON。";

fn schema() -> Value {
    let text = json!({"type": "string"});
    json!({
        "type": "object",
        "required": ["amount", "date", "time", "card_last4", "card_number", "card_bank", "merchant", "channel", "order_no", "status", "no_payment"],
        "properties": {
            "amount": text, "date": text, "time": text, "card_last4": text, "card_number": text,
            "card_bank": text, "merchant": text, "channel": text, "order_no": text, "status": text,
            "no_payment": {"type": "boolean"}
        }
    })
}

fn mime_for(name: &str) -> &'static str {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".png") {
        "image/png"
    } else if lower.ends_with(".webp") {
        "image/webp"
    } else if lower.ends_with(".bmp") {
        "image/bmp"
    } else {
        "image/jpeg"
    }
}

/// The OCR models, loaded once per process on first use (or why they could not be).
fn recognizer() -> Result<&'static Recognizer, String> {
    static MODELS: OnceLock<Result<Recognizer, String>> = OnceLock::new();
    MODELS
        .get_or_init(|| Recognizer::find().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(Clone::clone)
}

/// Whether offline OCR can run: its models load (for the service's start-up check).
pub fn offline_ocr_ready() -> Result<(), String> {
    recognizer().map(|_| ())
}

/// Reads screenshots one after another; the OCR models are shared by every thread.
#[derive(Debug)]
pub struct ScreenshotReader<'a> {
    settings: &'a ScreenshotSettings,
}

impl<'a> ScreenshotReader<'a> {
    /// A reader with the service's settings.
    pub fn new(settings: &'a ScreenshotSettings) -> Self {
        Self { settings }
    }

    /// Another reader with the same settings, for another thread.
    fn fork(&self) -> Self {
        Self {
            settings: self.settings,
        }
    }

    /// Cache namespace of this reader's results: the model (by endpoint and name) or OCR.
    fn cache_reader(&self) -> String {
        match &self.settings.llm {
            Some(client) => {
                let config = client.config();
                let id = cache::digest(
                    format!("{}\n{}", config.base_url, config.vision_model).as_bytes(),
                );
                format!("payment-llm-{}", id.get(..16).unwrap_or(&id))
            }
            None => OCR_READER.to_owned(),
        }
    }

    /// Reads one screenshot. With a model, its `llm_stream` events go to `on_event`; a model
    /// that fails falls back to OCR, and the fallback is said in the returned note.
    pub fn read(
        &self,
        path: &Path,
        on_event: &mut dyn FnMut(&Event),
    ) -> Result<(PaymentRecord, Option<String>), String> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(client) = &self.settings.llm {
            // The same bounds as OCR's, before the file goes anywhere.
            payments::bounded_image::check(path).map_err(|e| e.to_string())?;
            let bytes = std::fs::read(path).map_err(|e| format!("无法读取图片：{e}"))?;
            let request = ChatRequest::vision(PROMPT)
                .with_image(ImageInput::new(mime_for(&name), bytes))
                .with_json_schema(schema())
                .with_temperature(0.0);
            let mut sink = |event: &Event| on_event(event);
            match client.chat(request, &mut sink) {
                Ok(response) => {
                    let mut record: PaymentRecord = response
                        .json
                        .and_then(|value| serde_json::from_value(value).ok())
                        .unwrap_or_default();
                    record.file = name;
                    let mut record = record.sanitized();
                    record.drop_future_date(today());
                    return Ok((record, None));
                }
                Err(error) => {
                    let note = format!("语言模型识别失败（{error}），改用离线 OCR");
                    return self.ocr(path).map(|record| (record, Some(note)));
                }
            }
        }
        self.ocr(path).map(|record| (record, None))
    }

    fn ocr(&self, path: &Path) -> Result<PaymentRecord, String> {
        let mut record = recognizer()?
            .recognize_file(path)
            .map(|recognition| recognition.record)
            .map_err(|e| e.to_string())?;
        record.drop_future_date(today());
        Ok(record)
    }
}

/// Today as days since 1970-01-01 (UTC; records allow a day's grace).
fn today() -> i64 {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    i64::try_from(secs / 86_400).unwrap_or(i64::MAX)
}

/// One line for progress events: `¥58.00 · 2025/03/11 · 招商银行(1234) · 支付宝 · 某某餐厅`.
fn one_line(record: &PaymentRecord) -> String {
    if record.no_payment {
        return "不是支付记录".to_owned();
    }
    let mut parts = Vec::new();
    if !record.amount.is_empty() {
        parts.push(format!("¥{}", record.amount));
    }
    if !record.date.is_empty() {
        parts.push(record.date.clone());
    }
    if !record.card_last4.is_empty() {
        parts.push(format!("{}({})", record.card_bank, record.card_last4));
    }
    for text in [&record.channel, &record.merchant] {
        if !text.is_empty() {
            parts.push(text.clone());
        }
    }
    if !record.unreadable.is_empty() {
        parts.push(format!("未能识别：{}", record.unreadable.join("、")));
    }
    parts.join(" · ")
}

/// Cache namespace of OCR results.
const OCR_READER: &str = "payment-ocr";

/// Most OCR threads a run uses: one per core, up to this many (they share one set of models).
const MAX_OCR_THREADS: usize = 4;

/// Reads every uploaded image of the session with `file_progress` events and returns the
/// records in upload order; the model's stream events go to llm_stream.log. OCR runs on one
/// thread per core; a model is asked one image at a time, so that its stream events, which
/// carry no image name, stay in one piece. A screenshot read before (same bytes, same reader)
/// is taken from the session's cache. One unreadable image never stops the rest.
pub fn recognise_screenshots(
    session: &Session,
    settings: &ScreenshotSettings,
) -> Vec<PaymentRecord> {
    let images: Vec<String> = session
        .list_files()
        .unwrap_or_default()
        .into_iter()
        .filter(|f| !f.kind.is_invoice_document())
        .map(|f| f.name)
        .collect();
    if images.is_empty() {
        return Vec::new();
    }
    let how = if settings.llm.is_some() {
        "语言模型"
    } else {
        "离线 OCR"
    };
    let _ = session.log(
        "INFO",
        "llm_extractor",
        &format!("识别 {} 张支付截图（{how}）", images.len()),
    );
    let reader = ScreenshotReader::new(settings);
    let threads = if settings.llm.is_some() {
        1
    } else {
        std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(MAX_OCR_THREADS)
            .min(images.len())
    };
    let results: Mutex<Vec<Option<PaymentRecord>>> = Mutex::new(vec![None; images.len()]);
    let next = AtomicUsize::new(0);
    let work = |reader: &ScreenshotReader<'_>| {
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(name) = images.get(index) else {
                break;
            };
            let record = read_one(session, reader, name);
            let mut results = results.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(slot) = results.get_mut(index) {
                *slot = record;
            }
        }
    };
    if threads <= 1 {
        work(&reader);
    } else {
        std::thread::scope(|scope| {
            for _ in 1..threads {
                let forked = reader.fork();
                let work = &work;
                scope.spawn(move || work(&forked));
            }
            work(&reader);
        });
    }
    results
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .into_iter()
        .flatten()
        .collect()
}

/// Reads one image (or takes it from the cache), with its events and log lines.
fn read_one(session: &Session, reader: &ScreenshotReader<'_>, name: &str) -> Option<PaymentRecord> {
    let progress = |status, summary: Option<String>, error: Option<String>| Event::FileProgress {
        file: name.to_owned(),
        status,
        summary,
        error,
    };
    let _ = session.emit(&progress(FileStatus::Processing, None, None));
    let path = session.existing_file(name).ok()?;
    let digest = std::fs::read(&path).ok().map(|bytes| cache::digest(&bytes));
    let cache_reader = reader.cache_reader();
    if let Some(mut record) = digest
        .as_deref()
        .and_then(|d| cache::load::<PaymentRecord>(session, &cache_reader, d))
    {
        // The same bytes may have been uploaded under another name.
        record.file = name.to_owned();
        let summary = one_line(&record);
        let _ = session.log(
            "INFO",
            "llm_extractor",
            &format!("{name}：使用缓存结果：{summary}"),
        );
        let _ = session.emit(&progress(FileStatus::Cached, Some(summary), None));
        return Some(record);
    }
    let mut forward = |event: &Event| {
        if let Event::LlmStream { .. } = event {
            let _ = session.emit(event);
        }
    };
    // The parsers are written not to panic; this is the last line of defence, so that one
    // hostile image cannot take the run (or the other OCR threads) down with it.
    let outcome = catch_unwind(AssertUnwindSafe(|| reader.read(&path, &mut forward)))
        .unwrap_or_else(|_| Err("识别时发生内部错误".to_owned()));
    match outcome {
        Ok((record, note)) => {
            // A result the model did not give is OCR's: cached as such, so that the next run
            // asks the model again.
            let stored_as = if note.is_some() {
                OCR_READER.to_owned()
            } else {
                cache_reader
            };
            if let Some(digest) = &digest {
                cache::store(session, &stored_as, digest, &record);
            }
            if let Some(note) = note {
                let _ = session.log("WARN", "llm_extractor", &format!("{name}：{note}"));
                let _ = session.emit(&Event::LlmStream {
                    phase: LlmPhase::Error,
                    text: Some(note),
                });
            }
            let summary = one_line(&record);
            let _ = session.log("INFO", "llm_extractor", &format!("{name}：{summary}"));
            let _ = session.emit(&progress(FileStatus::Done, Some(summary), None));
            Some(record)
        }
        Err(error) => {
            let _ = session.log("WARN", "llm_extractor", &format!("{name}：{error}"));
            let _ = session.emit(&progress(FileStatus::Error, None, Some(error)));
            None
        }
    }
}
