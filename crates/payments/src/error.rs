//! Errors of recognition: reading the image and running the OCR engine.

/// Why a screenshot could not be recognised at all (a screenshot that was
/// read but lacks fields is not an error: see `PaymentRecord::unreadable`).
/// Messages reach the user: they name the file, never its directory.
#[derive(Debug, thiserror::Error)]
pub enum PaymentsError {
    #[error("{file}：无法读取文件（{source}）")]
    Io {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}：无法解码图片（{message}）")]
    Image { file: String, message: String },
    #[error(
        "{file}：图片尺寸 {width}×{height} 超出上限（{max_mp} 百万像素），请上传原始截图或普通照片",
        max_mp = crate::bounded_image::MAX_PIXELS / 1_000_000
    )]
    TooLarge {
        file: String,
        width: u32,
        height: u32,
    },
    #[error("离线 OCR 失败：{0}")]
    Ocr(String),
}
