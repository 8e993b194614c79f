//! Errors of recognition: reading the image and running the OCR engine.

/// Why a screenshot could not be recognised at all (a screenshot that was
/// read but lacks fields is not an error: see `PaymentRecord::unreadable`).
/// Messages reach the user: they name the file, never its directory.
#[derive(Debug, thiserror::Error)]
pub enum PaymentsError {
    /// The file could not be read.
    #[error("{file}：无法读取文件（{source}）")]
    Io {
        /// The file's name, without its directory.
        file: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not an image of a known format, or it is damaged.
    #[error("{file}：无法解码图片（{message}）")]
    Image {
        /// The file's name, without its directory.
        file: String,
        /// The decoder's message.
        message: String,
    },
    /// The image declares more pixels than the bounds of [`bounded_image`](crate::bounded_image)
    /// allow; refused before decoding.
    #[error(
        "{file}：图片尺寸 {width}×{height} 超出上限（{max_mp} 百万像素），请上传原始截图或普通照片",
        max_mp = crate::bounded_image::MAX_PIXELS / 1_000_000
    )]
    TooLarge {
        /// The file's name, without its directory.
        file: String,
        /// Declared width in pixels.
        width: u32,
        /// Declared height in pixels.
        height: u32,
    },
    /// The OCR models are missing or failed to run.
    #[error("离线 OCR 失败：{0}")]
    Ocr(String),
}
