//! The page after login: a top bar with the user's name, the menu on the left, and every
//! function opened inside `<iframe name="main">`, as in the frameset layouts of such systems.

use crate::config::Account;
use crate::html::{SYSTEM_NAME, escape, page};

/// The menu entries: text and the page each opens in the frame.
const MENU: [(&str, &str); 4] = [
    ("首页", "/home"),
    ("日常报销", "/claim/daily"),
    ("差旅报销", "/claim/travel"),
    ("我的单据", "/claims/mine"),
];

pub(crate) fn frame(user: &Account) -> String {
    let menu: String = MENU
        .iter()
        .map(|(text, href)| format!("<li><a href=\"{href}\" target=\"main\">{text}</a></li>\n"))
        .collect();
    let body = format!(
        r#"<div class="topbar"><span class="topbar-title">{SYSTEM_NAME}</span><span class="topbar-user">欢迎您，<span class="user-name">{name}</span>（{staff_no}）</span><a class="topbar-logout" href="/logout">退出</a></div>
<div class="layout">
<div class="menu"><div class="menu-title">功能菜单</div><ul>
{menu}</ul></div>
<div class="content"><iframe name="main" id="mainFrame" src="/home" title="内容"></iframe></div>
</div>"#,
        name = escape(&user.name),
        staff_no = escape(&user.staff_no),
    );
    page(SYSTEM_NAME, "frame-page", &body, &[])
}
