//! The input: plain data the caller builds from a session's table and files.

use domain::Cents;

/// Everything one package shows.
#[derive(Debug, Clone, Default)]
pub struct ClaimInput {
    /// The 报销单's header.
    pub header: ClaimHeader,
    /// One per table row, in table order.
    pub invoices: Vec<InvoiceInput>,
    /// The payment screenshots, each saying which row it pays if matching said so.
    pub payments: Vec<PaymentInput>,
}

/// The 报销单's header.
#[derive(Debug, Clone, Default)]
pub struct ClaimHeader {
    /// The institution's name, above the title.
    pub institution: String,
    /// The form's title (`报销单`).
    pub title: String,
    /// The portal's claim number once submitted; `None` prints 待提交.
    pub claim_no: Option<String>,
    /// 报销人.
    pub claimant: String,
    /// The claimant's staff number (工号).
    pub person_id: String,
    /// 差旅 or 日常.
    pub kind: String,
    /// 出差事由 (travel only).
    pub purpose: String,
    /// The trip in one line (travel only): places and dates.
    pub trip: String,
    /// The date the package was made, `YYYY-MM-DD`.
    pub date: String,
    /// Payments by corporate card, from the table's card columns.
    pub card: Vec<CardPayment>,
}

/// One corporate-card payment of the table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CardPayment {
    /// The last four digits of the card.
    pub tail: String,
    /// The payment's date as the table shows it.
    pub date: String,
    /// The amount as the table shows it.
    pub amount: String,
    /// The 序号 of the row it paid.
    pub row: String,
}

/// How much of a sheet an invoice takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SlotSize {
    /// Half a sheet: VAT invoices, itineraries, every card.
    #[default]
    Half,
    /// A quarter: railway tickets.
    Quarter,
}

/// What is placed for an invoice.
#[derive(Debug, Clone, Default)]
pub enum Attachment {
    /// Its own PDF, whose pages are placed as they are.
    Pdf(Vec<u8>),
    /// No page to place (OFD, XML, a row typed by hand): drawn from `details`.
    #[default]
    Card,
}

/// One table row with its invoice.
#[derive(Debug, Clone, Default)]
pub struct InvoiceInput {
    /// 序号 as the table shows it.
    pub row: String,
    /// 发票号码.
    pub number: String,
    /// 开票日期 as the table shows it.
    pub date: String,
    /// The (first) item's name.
    pub item: String,
    /// 销售方名称.
    pub seller: String,
    /// `None` when the row has no readable amount (left out of the total, shown as such).
    pub amount: Option<Cents>,
    /// How much of a sheet it takes.
    pub size: SlotSize,
    /// What is placed for it.
    pub attachment: Attachment,
    /// The source file's name (for a card's "原件" line).
    pub file: String,
    /// Label and value lines of the data card (OFD, XML, or a page that could not be placed).
    pub details: Vec<(String, String)>,
}

/// One payment screenshot.
#[derive(Debug, Clone, Default)]
pub struct PaymentInput {
    /// The screenshot's file name.
    pub file: String,
    /// The image bytes (PNG or JPEG).
    pub image: Vec<u8>,
    /// The amount read from it, printed under it.
    pub amount: String,
    /// The date read from it, printed under it.
    pub date: String,
    /// The 序号 of the row it pays, when matching found one.
    pub pays_row: Option<String>,
}
