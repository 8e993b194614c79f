//! What a page inside the frame shows when its session is gone: a way back to the login page,
//! opened in the whole window rather than inside the frame.

use crate::html::page;

pub(crate) fn expired() -> String {
    let body = r#"<div class="panel expired"><p>登录已超时，请重新登录。</p>
<p><a href="/" target="_top">重新登录</a></p></div>"#;
    page("登录超时", "inner-page", body, &[])
}
