//! The login page: 工号, 密码, 登录, and the error message after a failed attempt.

use crate::config::{DEMO_EMPLOYEE_NO, DEMO_PASSWORD};
use crate::html::esc;
use crate::pages::layout;

/// A login page shown inside the iframe (after a session ended) replaces the whole window, as
/// real portals do, so the user never logs in inside the frame.
const BREAK_OUT_OF_FRAME: &str =
    "if (window.top !== window.self) { window.top.location.href = '/login'; }";

/// The login page with `username` prefilled and an optional error; `demo_hint` shows the
/// demo account's credentials under the form.
pub fn render(username: &str, error: Option<&str>, demo_hint: bool) -> String {
    let hint = if demo_hint {
        format!("<div class=\"hint\">演示账号：工号 {DEMO_EMPLOYEE_NO}，密码 {DEMO_PASSWORD}</div>")
    } else {
        String::new()
    };
    let error = error
        .map(|e| format!("<div class=\"error\" id=\"login-error\">{}</div>", esc(e)))
        .unwrap_or_default();
    let body = format!(
        "{topbar}
<div class=\"login-wrap\"><div class=\"login-box\">
<h2>统一身份认证登录</h2>
{error}
<form id=\"login-form\" method=\"post\" action=\"/login\" autocomplete=\"off\">
<label for=\"username\">工号</label>
<input type=\"text\" id=\"username\" name=\"username\" value=\"{username}\" placeholder=\"请输入工号\">
<label for=\"password\">密码</label>
<input type=\"password\" id=\"password\" name=\"password\" placeholder=\"请输入密码\">
<button type=\"submit\" id=\"login-button\">登录</button>
</form>
{hint}
</div></div>",
        topbar = layout::topbar(None),
        username = esc(username),
    );
    layout::top_page("登录", &body, BREAK_OUT_OF_FRAME)
}
