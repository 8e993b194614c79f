//! One module per printed layout; each draws an invoice model into a [`crate::pdf_writer::PdfFile`].

pub(crate) mod air;
pub(crate) mod digital;
pub(crate) mod draw;
pub(crate) mod old_format;
pub(crate) mod railway;
pub(crate) mod receipt;
