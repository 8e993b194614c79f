//! tesseract-lib: tesseract's C API (`libtesseract.so.5`), loaded at run time, behind a safe
//! interface.
//!
//! The tesseract program reloads its model on every run (~0.1 s of CPU for `chi_sim`, about a
//! fifth of reading a screenshot). An [`Engine`] keeps one model loaded and recognises many
//! images. The library is opened with `dlopen`, so building needs nothing beyond Rust and a
//! machine without the library still builds and runs: [`Engine::new`] then says the library
//! is missing and callers use the program instead.
//!
//! This is the workspace's only crate with `unsafe` code; every block says why it is sound.

#![allow(
    unsafe_code,
    reason = "FFI to libtesseract; the only crate allowed unsafe code"
)]

mod engine;
mod error;
mod library;

pub use engine::Engine;
pub use error::TesseractError;
pub use library::{available, version};
