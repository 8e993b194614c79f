//! The page shells: the top-level pages with the university header, the pages shown inside the
//! iframe, the shared stylesheet, and turning a page into an HTTP response.

use crate::html::esc;
use actix_web::HttpResponse;
use actix_web::http::{StatusCode, header};

/// Name in the header bar of every top-level page.
pub const SITE_NAME: &str = "示例大学 财务综合服务平台 (演示)";

/// One stylesheet for all pages, inline because the machine running the portal may have no
/// network and the pages must not depend on anything but this server.
const STYLE: &str = r#"
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.6 "Microsoft YaHei", "PingFang SC", "Noto Sans CJK SC", "WenQuanYi Micro Hei", sans-serif; color: #1f2d3d; background: #eef2f7; }
a { color: #1d5fa8; }
.topbar { height: 56px; display: flex; align-items: center; justify-content: space-between; padding: 0 24px; background: linear-gradient(#1f5c9e, #17497f); color: #fff; }
.topbar .brand { font-size: 20px; font-weight: bold; letter-spacing: 1px; }
.topbar .brand .seal { display: inline-block; width: 32px; height: 32px; margin-right: 10px; vertical-align: middle; border: 2px solid #fff; border-radius: 50%; text-align: center; line-height: 28px; font-size: 15px; }
.topbar .user { font-size: 13px; }
.topbar .user a { color: #fff; margin-left: 12px; }
.login-wrap { display: flex; justify-content: center; padding-top: 80px; }
.login-box { width: 380px; background: #fff; border: 1px solid #d3dce6; border-radius: 4px; box-shadow: 0 2px 10px rgba(0,0,0,.08); padding: 28px 32px; }
.login-box h2 { margin: 0 0 18px; font-size: 18px; color: #17497f; text-align: center; }
.login-box label { display: block; margin: 12px 0 4px; color: #475669; }
.login-box input { width: 100%; height: 36px; padding: 0 10px; border: 1px solid #c0ccda; border-radius: 3px; font-size: 14px; }
.login-box button { width: 100%; margin-top: 22px; }
.login-box .hint { margin-top: 16px; color: #8492a6; font-size: 12px; }
.shell { display: flex; height: calc(100vh - 56px); }
.sidebar { width: 200px; flex: none; background: #263445; padding-top: 10px; }
.sidebar .group { color: #8492a6; font-size: 12px; padding: 12px 20px 4px; }
.sidebar a { display: block; padding: 10px 20px 10px 28px; color: #d3dce6; text-decoration: none; }
.sidebar a:hover, .sidebar a.active { background: #1f5c9e; color: #fff; }
.content { flex: 1; padding: 12px; }
#main-frame { width: 100%; height: 100%; border: 1px solid #d3dce6; background: #fff; }
body.frame { background: #fff; }
.frame-body { padding: 16px 20px; }
.crumb { color: #8492a6; font-size: 12px; margin-bottom: 8px; }
h1.title { font-size: 18px; margin: 0 0 14px; padding-bottom: 8px; border-bottom: 2px solid #1f5c9e; color: #17497f; }
fieldset { border: 1px solid #d3dce6; border-radius: 3px; margin: 0 0 16px; padding: 10px 14px 14px; }
legend { color: #17497f; font-weight: bold; padding: 0 6px; }
.grid { display: grid; grid-template-columns: 110px 1fr 110px 1fr; gap: 10px 12px; align-items: center; }
.grid label { text-align: right; color: #475669; }
.grid .wide { grid-column: 2 / 5; }
.req::before { content: "*"; color: #e0393e; margin-right: 2px; }
input[type=text], input[type=password], select, textarea { height: 30px; padding: 0 8px; border: 1px solid #c0ccda; border-radius: 3px; font: inherit; width: 100%; }
textarea { height: 64px; padding: 6px 8px; resize: vertical; }
table.rows { width: 100%; border-collapse: collapse; margin-top: 8px; }
table.rows th, table.rows td { border: 1px solid #d3dce6; padding: 4px; text-align: center; }
table.rows th { background: #f0f4f9; font-weight: normal; color: #475669; white-space: nowrap; }
table.rows td input, table.rows td select { height: 28px; min-width: 80px; }
.toolbar { display: flex; justify-content: space-between; align-items: center; }
.total { font-size: 15px; }
.total strong { color: #e0393e; font-size: 18px; }
button, .button { display: inline-block; height: 32px; padding: 0 18px; border: 1px solid #1f5c9e; border-radius: 3px; background: #1f5c9e; color: #fff; font: inherit; cursor: pointer; text-decoration: none; line-height: 30px; white-space: nowrap; }
button.plain { background: #fff; color: #1f5c9e; }
button.danger { background: #fff; border-color: #e0393e; color: #e0393e; height: 26px; padding: 0 10px; line-height: 24px; }
button:disabled { opacity: .6; cursor: default; }
.actions { text-align: center; margin-top: 18px; }
.error { background: #fef0f0; border: 1px solid #fbc4c4; color: #e0393e; border-radius: 3px; padding: 8px 14px; margin-bottom: 14px; }
.error ul { margin: 4px 0 0; padding-left: 20px; }
.success { background: #f0f9eb; border: 1px solid #c2e7b0; color: #529b2e; border-radius: 3px; padding: 10px 14px; margin-bottom: 14px; font-size: 15px; }
.muted { color: #8492a6; font-size: 12px; }
.empty-hint { color: #8492a6; text-align: center; padding: 12px; }
table.info { border-collapse: collapse; width: 100%; margin-bottom: 14px; }
table.info th, table.info td { border: 1px solid #d3dce6; padding: 6px 10px; text-align: left; }
table.info th { width: 120px; background: #f0f4f9; font-weight: normal; color: #475669; }
ul.notice li { margin: 4px 0; }
"#;

/// A complete HTML document.
fn document(title: &str, body_class: &str, body: &str, script: &str) -> String {
    let script = if script.is_empty() {
        String::new()
    } else {
        format!("<script>{script}</script>")
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"zh-CN\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n\
         <body class=\"{body_class}\">\n{body}\n{script}\n</body>\n</html>\n",
        title = esc(title),
    )
}

/// The header bar; `user` adds the name and the 退出 link on the right.
pub fn topbar(user: Option<(&str, &str)>) -> String {
    let right = match user {
        Some((name, employee_no)) => format!(
            "<div class=\"user\">当前用户：<span id=\"current-user\">{}</span>（{}）\
             <a id=\"topbar-logout\" href=\"/logout\">退出</a></div>",
            esc(name),
            esc(employee_no)
        ),
        None => String::new(),
    };
    format!(
        "<div class=\"topbar\"><div class=\"brand\"><span class=\"seal\">财</span>{}</div>{right}</div>",
        esc(SITE_NAME)
    )
}

/// A top-level page (login, home).
pub fn top_page(title: &str, body: &str, script: &str) -> String {
    document(&format!("{title} - {SITE_NAME}"), "top", body, script)
}

/// A page shown inside the home page's iframe.
pub fn frame_page(title: &str, body: &str, script: &str) -> String {
    let body = format!("<div class=\"frame-body\">{body}</div>");
    document(title, "frame", &body, script)
}

/// A list of messages in the red box with id `form-error`; empty when there are none.
pub fn error_box(messages: &[String]) -> String {
    if messages.is_empty() {
        return String::new();
    }
    let items: String = messages
        .iter()
        .map(|m| format!("<li>{}</li>", esc(m)))
        .collect();
    format!(
        "<div class=\"error\" id=\"form-error\"><strong>提交失败，请修改以下问题：</strong><ul>{items}</ul></div>"
    )
}

/// A page with only an error message, for errors outside a form.
pub fn error_page(message: &str) -> String {
    frame_page(
        "出错了",
        &format!(
            "<h1 class=\"title\">出错了</h1><div class=\"error\" id=\"page-error\">{}</div>\
             <p><a href=\"/portal/home\" target=\"_top\">返回首页</a></p>",
            esc(message)
        ),
        "",
    )
}

/// An HTML response with the right content type and no caching (every page shows live data).
pub fn html_response(status: StatusCode, html: String) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(html)
}
