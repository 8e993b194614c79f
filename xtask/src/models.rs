//! The OCR models: PaddleOCR's PP-OCRv4 mobile detection and recognition networks, the
//! Apache-2.0 ONNX files inside PyPI's `rapidocr_onnxruntime` 1.4.4 wheel. pip fetches the wheel
//! (a registry package, nothing else is downloaded), its SHA-256 is checked, and the two files
//! are unpacked into `models/pp-ocr/` at the workspace root, where the service finds them. No
//! model is committed and nothing is fetched at run time.

use anyhow::{Context, bail};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

const REQUIREMENT: &str = "rapidocr_onnxruntime==1.4.4";
const WHEEL: &str = "rapidocr_onnxruntime-1.4.4-py3-none-any.whl";
const WHEEL_SHA256: &str = "971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf";
/// (member of the wheel, file written).
const MEMBERS: [(&str, &str); 2] = [
    (
        "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx",
        "det.onnx",
    ),
    (
        "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx",
        "rec.onnx",
    ),
];

/// Where the models go: `models/pp-ocr` at the workspace root.
pub fn models_dir() -> PathBuf {
    crate::tasks::workspace_root().join("models/pp-ocr")
}

/// Makes sure both model files are in place, fetching and checking the wheel when not.
pub fn ensure_models() -> anyhow::Result<()> {
    let dir = models_dir();
    if MEMBERS.iter().all(|(_, file)| dir.join(file).is_file()) {
        return Ok(());
    }
    let cache = crate::tasks::workspace_root().join("target/models-wheel");
    let wheel = cache.join(WHEEL);
    if !wheel.is_file() {
        eprintln!("xtask: fetching {REQUIREMENT} (the PP-OCR models) with pip");
        let status = Command::new("python3")
            .args([
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--quiet",
                REQUIREMENT,
                "-d",
            ])
            .arg(&cache)
            .status()
            .context("python3 -m pip")?;
        if !status.success() {
            bail!("pip download {REQUIREMENT} failed");
        }
    }
    let bytes = std::fs::read(&wheel).with_context(|| wheel.display().to_string())?;
    let digest: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if digest != WHEEL_SHA256 {
        let _ = std::fs::remove_file(&wheel);
        bail!("{WHEEL}: SHA-256 {digest}, expected {WHEEL_SHA256}; removed, run again");
    }
    unpack(&bytes, &dir)
}

fn unpack(wheel: &[u8], dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(wheel)).context("the wheel")?;
    for (member, file) in MEMBERS {
        let mut entry = zip.by_name(member).with_context(|| member.to_owned())?;
        let mut data = Vec::new();
        entry.read_to_end(&mut data)?;
        // Written whole, then renamed: a half-written model is never found.
        let part = dir.join(format!(".{file}.part"));
        std::fs::write(&part, &data)?;
        std::fs::rename(&part, dir.join(file))?;
    }
    eprintln!("xtask: PP-OCR models in {}", dir.display());
    Ok(())
}
