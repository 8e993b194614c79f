//! From an image (or recorded lines) to a [`PaymentRecord`]: OCR lines, the screen type,
//! the readers' candidates, one decision per field.

use std::path::Path;
use std::sync::Arc;

use crate::decide::{DECISIONS, Decided, decide};
use crate::engine;
use crate::error::PaymentsError;
use crate::layout::Layout;
use crate::lines::ScreenText;
use crate::readers::{Field, READERS};
use crate::record::{
    CHANNEL_ALIPAY, CHANNEL_BANK_SUFFIX, CHANNEL_POS, CHANNEL_UNIONPAY, CHANNEL_WECHAT,
    PaymentRecord,
};
use crate::screen::{self, ScreenType};

/// What one screenshot gave, and why.
#[derive(Debug, Clone)]
pub struct Recognition {
    /// The payment as read (or a record with `no_payment` set).
    pub record: PaymentRecord,
    /// Which kind of screen it is.
    pub screen: ScreenType,
    /// The rule that decided the screen type.
    pub screen_rule: String,
    /// Per field: the value and the rule that decided it (or why it stayed empty).
    pub decided: Vec<Decided>,
    /// The OCR lines it was read from.
    pub page: ScreenText,
}

impl Recognition {
    /// The rule that decided `field` (its record name), empty when none did.
    pub fn rule_of(&self, field: &str) -> &str {
        self.decided
            .iter()
            .find(|d| d.field.name() == field)
            .map_or("", |d| d.rule.as_str())
    }
}

/// Reads screenshots with the PP-OCR engine; clones share the loaded models.
#[derive(Debug, Clone)]
pub struct Recognizer {
    engine: Arc<pp_ocr::Engine>,
}

impl Recognizer {
    /// Loads the models from where [`pp_ocr::models_dir`] finds them: the folder in
    /// `REIMBURSE_MODELS`, else `models/pp-ocr` in the working directory or an ancestor
    /// (where `cargo xtask install` puts them in the workspace).
    pub fn find() -> Result<Self, PaymentsError> {
        let engine = pp_ocr::Engine::find().map_err(|e| PaymentsError::Ocr(e.to_string()))?;
        Ok(Self {
            engine: Arc::new(engine),
        })
    }

    /// Loads the models from `dir` (holding `det.onnx`, `rec.onnx` and `libonnxruntime.so`,
    /// see [`pp_ocr::Engine::load`]).
    pub fn load(dir: &Path) -> Result<Self, PaymentsError> {
        let engine = pp_ocr::Engine::load(dir).map_err(|e| PaymentsError::Ocr(e.to_string()))?;
        Ok(Self {
            engine: Arc::new(engine),
        })
    }

    /// Reads the image at `path` (PNG, JPEG or WebP, decoded within the bounds of
    /// [`bounded_image`](crate::bounded_image)); the record's `file` is the file's name.
    pub fn recognize_file(&self, path: &Path) -> Result<Recognition, PaymentsError> {
        let page = engine::read_page(&self.engine, path)?;
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(read_lines(&file, page))
    }
}

/// The screen rule of a page no marker names that shows an amount, a time and a card.
pub const UNKNOWN_PAYMENT_RULE: &str =
    "no screen markers, but an amount, a transaction time and a card: read as a bank page";

/// Every field's decision over the readers' candidates for `screen`.
fn decide_fields(layout: &Layout, screen: ScreenType) -> Vec<Decided> {
    let cands: Vec<_> = READERS
        .iter()
        .flat_map(|r| r.read(layout, screen))
        .collect();
    DECISIONS.iter().map(|d| decide(d, &cands)).collect()
}

/// The rules alone, over lines already read: the record of `file`.
pub fn read_lines(file: &str, page: ScreenText) -> Recognition {
    let layout = Layout::new(&page);
    let (mut screen, mut screen_rule) = screen::detect(&layout);
    let layout = if screen == ScreenType::PosSlip {
        Layout::new(&crate::background::without_surface(&page))
    } else {
        layout
    };
    let mut decided: Vec<Decided> = if screen == ScreenType::NoPayment {
        Vec::new()
    } else {
        decide_fields(&layout, screen)
    };
    // A page of a bank or app the markers do not know is read as a bank page; what shows an
    // amount with a transaction time and a card is a payment, kept with what could be read
    // for the person to review, never dropped as "no payment".
    if screen == ScreenType::NoPayment && screen_rule == screen::NO_MARKERS_RULE {
        let as_bank = decide_fields(&layout, ScreenType::BankCard);
        let has = |fields: &[Field]| {
            as_bank
                .iter()
                .any(|d| fields.contains(&d.field) && !d.value.is_empty())
        };
        if has(&[Field::Amount])
            && has(&[Field::Date, Field::Time])
            && has(&[Field::CardLast4, Field::CardNumber])
        {
            screen = ScreenType::BankCard;
            screen_rule = UNKNOWN_PAYMENT_RULE.to_owned();
            decided = as_bank;
        }
    }
    let record = assemble(file, screen, &decided);
    Recognition {
        record,
        screen,
        screen_rule,
        decided,
        page,
    }
}

fn assemble(file: &str, screen: ScreenType, decided: &[Decided]) -> PaymentRecord {
    if screen == ScreenType::NoPayment {
        return PaymentRecord::no_payment(file);
    }
    let get = |field: Field| {
        decided
            .iter()
            .find(|d| d.field == field)
            .map(|d| d.value.clone())
            .unwrap_or_default()
    };
    let card_bank = get(Field::CardBank);
    let channel = match screen {
        ScreenType::AlipayBill => CHANNEL_ALIPAY.to_owned(),
        ScreenType::WechatBill | ScreenType::WechatSuccess => CHANNEL_WECHAT.to_owned(),
        ScreenType::Unionpay => CHANNEL_UNIONPAY.to_owned(),
        ScreenType::PosSlip => CHANNEL_POS.to_owned(),
        ScreenType::BankCard if !card_bank.is_empty() => {
            format!("{card_bank}{CHANNEL_BANK_SUFFIX}")
        }
        ScreenType::BankCard | ScreenType::NoPayment => String::new(),
    };
    let mut record = PaymentRecord {
        file: file.to_owned(),
        amount: get(Field::Amount),
        date: get(Field::Date),
        time: get(Field::Time),
        card_last4: get(Field::CardLast4),
        card_number: get(Field::CardNumber),
        card_bank,
        merchant: get(Field::Merchant),
        channel,
        order_no: get(Field::OrderNo),
        status: get(Field::Status),
        no_payment: false,
        unreadable: Vec::new(),
    };
    record.fill_unreadable();
    record
}
