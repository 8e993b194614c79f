//! payments: payment screenshots (Alipay and WeChat bills, WeChat's 支付成功
//! page, 云闪付, bank apps, photos of POS slips) read offline with tesseract
//! into [`PaymentRecord`]s, and payments matched to invoices.
//!
//! Recognition: [`Recognizer`] prepares the image ([`preprocess`]), runs an
//! [`Ocr`] engine ([`Tesseract`]), detects the screen type and parses its
//! labelled fields ([`screens`]). Matching: [`match_payments`] pairs
//! records with invoices by amount, date window and payee name.

pub mod amount;
pub mod bands;
pub mod bounded_image;
pub mod card;
pub mod colour_contrast;
pub mod date;
pub mod desk;
pub mod dotted_zero;
pub mod error;
pub mod evening;
pub mod fixtures;
pub mod garbled_headline;
pub mod matching;
pub mod merchant;
pub mod ocr;
pub mod pen_strokes;
pub mod photo;
pub mod plus_sign;
pub mod preprocess;
pub mod recognize;
pub mod record;
pub mod screens;
pub mod shapes;
pub mod slip_tail;
pub mod split_view;
pub mod text;

pub use error::PaymentsError;
pub use matching::{InvoiceForMatch, Match, MatchHow, MatchPolicy, MatchResult, match_payments};
pub use ocr::{Line, Ocr, OcrPage, PageMode, Tesseract};
pub use preprocess::Prep;
pub use recognize::{Recognition, Recognizer};
pub use record::PaymentRecord;
pub use screens::ScreenType;
