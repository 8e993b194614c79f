//! HTML rendering: small hand-written templates, every outside value escaped with `html::esc`.

pub mod claims;
pub mod general;
pub mod home;
pub mod layout;
pub mod login;
pub mod rows;
pub mod travel;
