//! A namespace for the workspace's tests and benches: the synthetic screenshot fixtures
//! (`fixtures/screenshots` of the source tree), listed with their expected records, and
//! helpers for scoring recognised records against them (shared by the accuracy example, the
//! bench and the tests). Not needed to read screenshots.

use std::path::{Path, PathBuf};

use crate::record::PaymentRecord;

/// One fixture: the image and the record it should give.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// The image file.
    pub image: PathBuf,
    /// The record it should give (the JSON beside the image).
    pub expected: PaymentRecord,
    /// Screen type from the file name (`alipay_bill_03` → `alipay_bill`).
    pub kind: String,
}

/// The fixtures directory of the source tree this crate was built from.
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/screenshots")
}

/// Every `*.json` with its image in `dir`, sorted by name.
pub fn load(dir: &Path) -> std::io::Result<Vec<Fixture>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path)?;
        let expected: PaymentRecord = serde_json::from_str(&text).map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{}: {e}", path.display()),
            )
        })?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let kind = stem
            .rsplit_once('_')
            .filter(|(_, n)| n.chars().all(|c| c.is_ascii_digit()))
            .map_or(stem.clone(), |(k, _)| k.to_owned());
        out.push(Fixture {
            image: dir.join(&expected.file),
            expected,
            kind,
        });
    }
    out.sort_by(|a, b| a.image.cmp(&b.image));
    Ok(out)
}

/// The fields the accuracy target is about.
pub const SCORED: [&str; 3] = ["amount", "date", "card_last4"];
/// Fields reported beside the scored ones.
pub const REPORTED: [&str; 5] = ["time", "merchant", "status", "card_number", "no_payment"];

/// A field's value by its record name (`card_last4`), as text; empty for an unknown name.
pub fn field(r: &PaymentRecord, name: &str) -> String {
    match name {
        "amount" => r.amount.clone(),
        "date" => r.date.clone(),
        "time" => r.time.clone(),
        "card_last4" => r.card_last4.clone(),
        "card_number" => r.card_number.clone(),
        "card_bank" => r.card_bank.clone(),
        "merchant" => r.merchant.clone(),
        "channel" => r.channel.clone(),
        "order_no" => r.order_no.clone(),
        "status" => r.status.clone(),
        "no_payment" => r.no_payment.to_string(),
        _ => String::new(),
    }
}

/// The image as a chat app forwards a screenshot: shrunk to `width`, JPEG
/// quality 75 (the accuracy example's and dump's `--simulate WIDTH`).
pub fn chat_forwarded(
    img: &image::DynamicImage,
    width: u32,
) -> Result<image::DynamicImage, image::ImageError> {
    let height = img.height() * width / img.width().max(1);
    let small = img
        .resize_exact(width, height, image::imageops::FilterType::Triangle)
        .to_rgb8();
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 75).encode_image(&small)?;
    image::load_from_memory(&jpeg)
}
