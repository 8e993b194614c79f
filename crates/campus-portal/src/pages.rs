//! The server-rendered pages, one module each; every value from a user or the configuration
//! passes `html::escape`.

mod claim_form;
mod daily;
mod expired;
mod frame;
mod home;
mod login;
mod mine;
mod travel;

pub(crate) use daily::daily;
pub(crate) use expired::expired;
pub(crate) use frame::frame;
pub(crate) use home::home;
pub(crate) use login::login;
pub(crate) use mine::mine;
pub(crate) use travel::travel;
