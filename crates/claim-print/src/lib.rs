//! claim-print: the printed claim, `报销材料.pdf`. Page 1 is the 报销单 (header, one line per
//! invoice, the total in figures and in capitals, the card payment, signature boxes); then the
//! 粘贴单 sheets: each invoice's own PDF page placed as a vector page, tickets four to a sheet,
//! payment screenshots beside or after the invoice they pay, OFD and XML invoices as data cards.
//!
//! The layout is a Typst template ([`DEFAULT_TEMPLATE_SOURCE`], replaceable by the institution, see
//! `docs/print-template.md`) rendered in process by the `typst` crate; the data reaches it as
//! the virtual file `claim.json`. Which item goes on which sheet is decided here ([`plan`]), so
//! a template only draws. Input is plain data ([`ClaimInput`]); no file is written here.

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
