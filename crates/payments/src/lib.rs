//! payments: payment screenshots (Alipay and WeChat bills, WeChat's 支付成功 page, 云闪付,
//! bank apps, photos of POS slips) read offline into [`PaymentRecord`]s, and payments
//! matched to invoices.
//!
//! Recognition: the PP-OCR engine ([`pp_ocr`], in process) gives text lines with boxes
//! ([`ScreenText`]); the screen type is decided by marker words; small readers propose candidate
//! values, each named by its rule; one table of decisions picks each field, or leaves it
//! empty when unclear ([`read_lines`] is this part alone, over recorded lines). Matching:
//! [`match_payments`] pairs records with invoices by amount, date window and payee name.

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
