//! The printed claim of a reimbursement, `报销材料.pdf`, made in process. Page 1 is the 报销单
//! (header, one line per invoice, the total in figures and in capitals, the card payments,
//! signature boxes); then the 粘贴单 sheets: each invoice's own PDF page placed as a vector
//! page, tickets four to a sheet, payment screenshots beside or after the invoice they pay,
//! OFD and XML invoices as data cards.
//!
//! ```
//! use reimburse_claim_print::{
//!     Attachment, ClaimHeader, ClaimInput, InvoiceInput, PaymentInput, Template, render,
//! };
//! # use domain as reimburse_domain; // the workspace's short name for the same crate
//! use reimburse_domain::Cents;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let input = ClaimInput {
//!     header: ClaimHeader {
//!         institution: "示例大学".into(),
//!         title: "报销单".into(),
//!         claimant: "张三".into(),
//!         kind: "日常".into(),
//!         date: "2025-03-11".into(),
//!         ..ClaimHeader::default()
//!     },
//!     invoices: vec![InvoiceInput {
//!         row: "1".into(),
//!         number: "25112000000000012345".into(),
//!         date: "2025/03/10".into(),
//!         item: "*纸制品*A4复印纸".into(),
//!         seller: "示例文具有限公司".into(),
//!         amount: Some(Cents(25_500)), // ¥255.00
//!         // An invoice PDF goes in as `Attachment::Pdf(bytes)`; a card is drawn from `details`.
//!         attachment: Attachment::Card,
//!         file: "发票.ofd".into(),
//!         details: vec![("发票号码".into(), "25112000000000012345".into())],
//!         ..InvoiceInput::default()
//!     }],
//!     payments: Vec::<PaymentInput>::new(), // screenshots, each naming the row it pays
//! };
//! let rendered = render(&input, &Template::Default)?; // needs CJK fonts (fonts-noto-cjk)
//! assert!(rendered.pdf.starts_with(b"%PDF"));
//! assert_eq!((rendered.pages, rendered.sheets), (2, 1)); // the 报销单 and one 粘贴单
//! // std::fs::write("报销材料.pdf", &rendered.pdf)?;
//! # Ok(())
//! # }
//! ```
//!
//! The layout is a Typst template ([`Template::Default`], whose source is
//! [`DEFAULT_TEMPLATE_SOURCE`], or an institution's own file, see `docs/print-template.md` in
//! the source tree) rendered in process by the `typst` crate; the data reaches it as the
//! virtual file `claim.json`. Which item goes on which sheet is decided here ([`plan`],
//! pure), so a template only draws. Input is plain data ([`ClaimInput`]); no file is written
//! here.
//!
//! Start from [`ClaimInput`] and [`render`], which gives a [`Rendered`] PDF or a
//! [`PrintError`] whose message can be shown to the user; [`preview_png`] draws page 1 (with
//! poppler's `pdftoppm`); [`font_count`] tells whether the machine has the fonts.

#![warn(missing_docs)]

mod error;
mod fonts;
mod guard;
mod image_size;
mod layout;
mod model;
mod preview;
mod render;
mod world;

pub use error::PrintError;
pub use fonts::{FONT_DIRS, font_count};
pub use layout::{Plan, plan};
pub use model::{
    Attachment, CardPayment, ClaimHeader, ClaimInput, InvoiceInput, PaymentInput, SlotSize,
};
pub use preview::preview_png;
pub use render::{DEFAULT_TEMPLATE_NAME, DEFAULT_TEMPLATE_SOURCE, Rendered, Template, render};
