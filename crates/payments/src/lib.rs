//! Payment screenshots read offline: Alipay and WeChat bills, WeChat's 支付成功 page, 云闪付,
//! bank apps and photos of POS slips become [`PaymentRecord`]s (amount, date and time, card
//! tail, bank, payee, channel, order number, status), each field with the rule that decided
//! it; and payments matched to the invoices they pay.
//!
//! Recognition: the PP-OCR engine (`reimburse-pp-ocr`, in process) gives text lines with their
//! boxes ([`ScreenText`]); the screen type is decided by marker words; small readers propose
//! candidate values, each named by its rule; one table of decisions ([`DECISIONS`]) picks each
//! field, or leaves it empty when unclear: a value is never guessed. [`Recognizer`] does it
//! all from an image file; [`read_lines`] is the rules alone, over lines already read, and
//! needs no model:
//!
//! ```
//! use reimburse_payments::{
//!     InvoiceForMatch, MatchHow, MatchPolicy, ScreenLine, ScreenText, ScreenType, match_payments,
//!     read_lines,
//! };
//!
//! // What the OCR read off an Alipay bill: each line's text and box, in pixels.
//! let line = |x0, y0, x1, y1, text: &str| {
//!     let text = text.to_owned();
//!     ScreenLine { text, x0, y0, x1, y1, angle: 0.0 }
//! };
//! let lines = vec![
//!     line(477, 171, 692, 234, "账单详情"),
//!     line(420, 476, 750, 544, "示例数码快印"),
//!     line(343, 613, 826, 705, "-177.00"),
//!     line(494, 752, 678, 814, "交易成功"),
//!     line(49, 930, 230, 987, "支付时间"),
//!     line(328, 933, 723, 986, "2024-07-05 07:52:27"),
//!     line(49, 1057, 230, 1113, "付款方式"),
//!     line(326, 1055, 832, 1115, "兴业银行信用卡(1569)"),
//!     line(48, 1433, 272, 1491, "收款方全称"),
//!     line(330, 1439, 750, 1485, "示例数码快印有限公司"),
//! ];
//! let got = read_lines("alipay.png", ScreenText { width: 1170, height: 2532, lines });
//!
//! assert_eq!(got.screen, ScreenType::AlipayBill);
//! let paid = &got.record;
//! assert_eq!((paid.amount.as_str(), paid.date.as_str()), ("177.00", "2024/07/05"));
//! assert_eq!((paid.card_last4.as_str(), paid.channel.as_str()), ("1569", "支付宝"));
//! // Each field says which rule decided it.
//! assert_eq!(got.rule_of("amount"), "headline amount");
//! assert_eq!(got.rule_of("card_last4"), "card label");
//!
//! // Matching: which payment pays which invoice (by amount, date window and payee name).
//! let invoice = InvoiceForMatch {
//!     id: "发票1.pdf".into(),
//!     date: "2024/07/04".into(),
//!     total_with_tax: "177.00".into(),
//!     seller: "示例数码快印有限公司".into(),
//!     ..InvoiceForMatch::default()
//! };
//! let matched = match_payments(&[invoice], &[got.record], &MatchPolicy::default());
//! assert_eq!(matched.pairs.len(), 1);
//! assert_eq!(matched.pairs[0].how, MatchHow::Exact);
//! ```
//!
//! Reading images needs the PP-OCR models (`det.onnx`, `rec.onnx` and `libonnxruntime.so`;
//! inside the workspace `cargo xtask install` puts them in `models/pp-ocr/`):
//!
//! ```no_run
//! use reimburse_payments::Recognizer;
//!
//! # fn main() -> Result<(), reimburse_payments::PaymentsError> {
//! let recognizer = Recognizer::find()?; // loads the models; clones share them
//! let got = recognizer.recognize_file(std::path::Path::new("支付截图.png"))?;
//! let paid = &got.record;
//! println!("{:?} {} {} {}", got.screen, paid.amount, paid.date, paid.card_last4);
//! for field in &got.record.unreadable {
//!     println!("not read: {field}"); // ask a person, never guess
//! }
//! # Ok(())
//! # }
//! ```
//!
//! The example `read_screenshots` prints what every screenshot in a folder says, with the
//! rule behind each field: `cargo run --release -p reimburse-payments --example
//! read_screenshots -- FOLDER [MODELS]`.
//!
//! Start from [`Recognizer`] (images) or [`read_lines`] (recorded lines), which give a
//! [`Recognition`]: the [`PaymentRecord`], the [`ScreenType`] and, per [`Field`], the
//! [`Decided`] value and rule. [`PaymentRecord::sanitized`] brings a record from elsewhere
//! (a vision model's JSON) to the same shapes. [`match_payments`] pairs records with
//! [`InvoiceForMatch`]es under a [`MatchPolicy`] into a [`MatchResult`]. Failures are
//! [`PaymentsError`]s, whose messages name the file and can be shown to a user. Two modules
//! are namespaces of their own: [`bounded_image`] (decoding uploads within a memory bound)
//! and [`fixtures`] (the project's synthetic screenshots, for tests and benches).

#![warn(missing_docs)]

mod amount;
mod background;
pub mod bounded_image;
mod card;
mod date;
mod decide;
mod engine;
mod error;
pub mod fixtures;
mod labels;
mod layout;
mod lines;
mod matching;
mod merchant;
mod readers;
mod recognize;
mod record;
mod screen;
mod spaced;
mod text;

pub use decide::{DECISIONS, Decided, Decision};
pub use engine::{read_image, read_page};
pub use error::PaymentsError;
pub use lines::{ScreenLine, ScreenText};
pub use matching::{
    Ambiguity, InvoiceForMatch, Match, MatchHow, MatchPolicy, MatchResult, match_payments,
};
pub use readers::Field;
pub use recognize::{Recognition, Recognizer, read_lines};
pub use record::{
    CHANNEL_ALIPAY, CHANNEL_BANK_SUFFIX, CHANNEL_POS, CHANNEL_UNIONPAY, CHANNEL_WECHAT,
    FIELD_AMOUNT, FIELD_CARD_LAST4, FIELD_DATE, FIELD_MERCHANT, FIELD_TIME, PaymentRecord,
    STATUS_CLOSED, STATUS_FAILED, STATUS_PENDING, STATUS_REFUND, STATUS_SUCCESS,
};
pub use screen::ScreenType;
