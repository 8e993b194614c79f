//! The login page: 工号, 密码 and the image captcha, with the last refusal shown above the
//! button.

use crate::html::{SYSTEM_NAME, escape, page};

/// The login page. `message` is the refusal of the previous attempt; `staff_no` is kept in its
/// field after a refusal, the password and captcha are not. `nonce` makes the captcha URL new on
/// every load so no cache serves an old image.
pub(crate) fn login(message: Option<&str>, staff_no: &str, nonce: u128) -> String {
    let error = message.map_or_else(String::new, |m| {
        format!(
            "<div class=\"login-error\" id=\"loginError\">{}</div>",
            escape(m)
        )
    });
    let body = format!(
        r#"<div class="login-box">
<h1 class="login-title">{SYSTEM_NAME}</h1>
<form id="loginForm" method="post" action="/login" autocomplete="off">
<div class="login-row"><label for="userId">工号</label><input type="text" id="userId" name="userId" value="{staff_no}" placeholder="请输入工号"></div>
<div class="login-row"><label for="password">密码</label><input type="password" id="password" name="password" placeholder="请输入密码"></div>
<div class="login-row"><label for="captcha">验证码</label><input type="text" id="captcha" name="captcha" maxlength="4" placeholder="请输入验证码" class="captcha-input"><img id="captchaImg" class="captcha-img" src="/captcha.png?t={nonce}" alt="验证码" title="看不清？点击换一张"></div>
{error}
<div class="login-row"><button type="submit" class="btn-login">登 录</button></div>
</form>
<p class="login-hint">初始密码请咨询财务处。建议使用 Chrome 浏览器访问本系统。</p>
</div>"#,
        staff_no = escape(staff_no),
    );
    page(SYSTEM_NAME, "login-page", &body, &["login.js"])
}
