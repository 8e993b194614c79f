//! The OCR models and their runtime: PaddleOCR's PP-OCRv4 mobile detection and recognition
//! networks, the Apache-2.0 ONNX files inside PyPI's `rapidocr_onnxruntime` 1.4.4 wheel, and
//! onnxruntime's shared library from PyPI's `onnxruntime` 1.32.0 wheel. pip fetches each wheel
//! (registry packages, nothing else is downloaded), its SHA-256 is checked, and the files are
//! unpacked into `models/pp-ocr/` at the workspace root, where the service finds them. No model
//! is committed and nothing is fetched at run time.

use anyhow::{Context, bail};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A registry package to take files from.
struct Wheel {
    requirement: &'static str,
    file: &'static str,
    sha256: &'static str,
    /// pip's options naming the wheel's platform (none: pure Python).
    platform: &'static [&'static str],
    /// (member of the wheel, file written).
    members: &'static [(&'static str, &'static str)],
}

const WHEELS: [Wheel; 2] = [
    // The PP-OCRv4 mobile networks (Apache-2.0).
    Wheel {
        requirement: "rapidocr_onnxruntime==1.4.4",
        file: "rapidocr_onnxruntime-1.4.4-py3-none-any.whl",
        sha256: "971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf",
        platform: &[],
        members: &[
            (
                "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx",
                "det.onnx",
            ),
            (
                "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx",
                "rec.onnx",
            ),
        ],
    },
    // onnxruntime's shared library (MIT), which runs them; the wheel's Python parts are not
    // used, so one fixed wheel serves whatever Python the machine has.
    Wheel {
        requirement: "onnxruntime==1.32.0",
        file: "onnxruntime-1.32.0-cp311-cp311-manylinux_2_28_x86_64.whl",
        sha256: "5a34fc4dfeb5a7b4a74c95dcba1e773d722abda720b474edf1b0c419dc6d163d",
        platform: &[
            "--only-binary=:all:",
            "--python-version",
            "3.11",
            "--platform",
            "manylinux_2_28_x86_64",
        ],
        members: &[(
            "onnxruntime/capi/libonnxruntime.so.1.32.0",
            "libonnxruntime.so",
        )],
    },
];

/// Where the models go: `models/pp-ocr` at the workspace root.
pub fn models_dir() -> PathBuf {
    crate::tasks::workspace_root().join("models/pp-ocr")
}

/// Makes sure the model files and the library are in place, fetching and checking the wheels
/// that are not.
pub fn ensure_models() -> anyhow::Result<()> {
    if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        bail!("the OCR's onnxruntime library is fetched for x86-64 Linux only");
    }
    let dir = models_dir();
    for wheel in &WHEELS {
        if wheel
            .members
            .iter()
            .all(|(_, file)| dir.join(file).is_file())
        {
            continue;
        }
        unpack(wheel, &fetch(wheel)?, &dir)?;
    }
    Ok(())
}

/// The wheel's bytes, from target/models-wheel or fetched there by pip, its SHA-256 checked.
fn fetch(wheel: &Wheel) -> anyhow::Result<Vec<u8>> {
    let cache = crate::tasks::workspace_root().join("target/models-wheel");
    let path = cache.join(wheel.file);
    if !path.is_file() {
        eprintln!("xtask: fetching {} with pip", wheel.requirement);
        let status = Command::new("python3")
            .args(["-m", "pip", "download", "--no-deps", "--quiet"])
            .args(wheel.platform)
            .arg(wheel.requirement)
            .arg("-d")
            .arg(&cache)
            .status()
            .context("python3 -m pip")?;
        if !status.success() {
            bail!("pip download {} failed", wheel.requirement);
        }
    }
    let bytes = std::fs::read(&path).with_context(|| path.display().to_string())?;
    let digest: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if digest != wheel.sha256 {
        let _ = std::fs::remove_file(&path);
        bail!(
            "{}: SHA-256 {digest}, expected {}; removed, run again",
            wheel.file,
            wheel.sha256
        );
    }
    Ok(bytes)
}

fn unpack(wheel: &Wheel, bytes: &[u8], dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut zip =
        zip::ZipArchive::new(std::io::Cursor::new(bytes)).with_context(|| wheel.file.to_owned())?;
    for (member, file) in wheel.members {
        let mut entry = zip.by_name(member).with_context(|| (*member).to_owned())?;
        let mut data = Vec::new();
        entry.read_to_end(&mut data)?;
        // Written whole, then renamed: a half-written file is never found.
        let part = dir.join(format!(".{file}.part"));
        std::fs::write(&part, &data)?;
        std::fs::rename(&part, dir.join(file))?;
    }
    eprintln!(
        "xtask: {} unpacked into {}",
        wheel.requirement,
        dir.display()
    );
    Ok(())
}
