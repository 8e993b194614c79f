//! Reading payment screenshots: the vision model when one is configured, else tesseract OCR.

use domain::{Event, FileStatus, LlmPhase};
use llm::{ChatRequest, Client, ImageInput};
use payments::{PaymentRecord, Recognizer, Tesseract};
use serde_json::{Value, json};
use session_store::Session;
use std::path::Path;
use std::sync::Arc;

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

/// Reads one screenshot. With a model, its `llm_stream` events go to `on_event`; a model that
/// fails falls back to OCR, and the fallback is said in the returned note.
pub fn recognise_file(
    path: &Path,
    settings: &ScreenshotSettings,
    on_event: &mut dyn FnMut(&Event),
) -> Result<(PaymentRecord, Option<String>), String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(client) = &settings.llm {
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
                return Ok((record.sanitized(), None));
            }
            Err(error) => {
                let note = format!("语言模型识别失败（{error}），改用离线 OCR");
                return ocr(path).map(|record| (record, Some(note)));
            }
        }
    }
    ocr(path).map(|record| (record, None))
}

fn ocr(path: &Path) -> Result<PaymentRecord, String> {
    Recognizer::<Tesseract>::tesseract()
        .recognize_file(path)
        .map(|recognition| recognition.record)
        .map_err(|e| e.to_string())
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

/// Reads every uploaded image of the session, in upload order, with `file_progress` events;
/// the model's stream events go to llm_stream.log. One unreadable image never stops the rest.
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
    let mut records = Vec::new();
    for name in images {
        let progress =
            |status, summary: Option<String>, error: Option<String>| Event::FileProgress {
                file: name.clone(),
                status,
                summary,
                error,
            };
        let _ = session.emit(&progress(FileStatus::Processing, None, None));
        let Ok(path) = session.existing_file(&name) else {
            continue;
        };
        let mut forward = |event: &Event| {
            if let Event::LlmStream { .. } = event {
                let _ = session.emit(event);
            }
        };
        match recognise_file(&path, settings, &mut forward) {
            Ok((record, note)) => {
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
                records.push(record);
            }
            Err(error) => {
                let _ = session.log("WARN", "llm_extractor", &format!("{name}：{error}"));
                let _ = session.emit(&progress(FileStatus::Error, None, Some(error)));
            }
        }
    }
    records
}
