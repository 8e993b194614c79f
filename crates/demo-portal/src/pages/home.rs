//! The home page after login: header, the left menu, and the iframe `main-frame` the forms open in;
//! plus the welcome page the iframe shows first.

use crate::auth::User;
use crate::pages::layout;

/// Highlights the clicked menu entry; the links themselves open in the iframe by `target`.
const MENU_SCRIPT: &str =
    "document.querySelectorAll('.sidebar a[target=main-frame]').forEach(function (a) {
  a.addEventListener('click', function () {
    document.querySelectorAll('.sidebar a').forEach(function (b) { b.classList.remove('active'); });
    a.classList.add('active');
  });
});";

/// The home page of `user`.
pub fn render(user: &User) -> String {
    let body = format!(
        "{topbar}
<div class=\"shell\">
<nav class=\"sidebar\" id=\"menu\">
<div class=\"group\">网上报销</div>
<a id=\"menu-general\" href=\"/portal/frame/general\" target=\"main-frame\">日常报销</a>
<a id=\"menu-travel\" href=\"/portal/frame/travel\" target=\"main-frame\">差旅报销</a>
<div class=\"group\">查询</div>
<a id=\"menu-claims\" href=\"/portal/frame/claims\" target=\"main-frame\">我的报销单</a>
<div class=\"group\">系统</div>
<a id=\"menu-logout\" href=\"/logout\" target=\"_top\">退出</a>
</nav>
<div class=\"content\">
<iframe id=\"main-frame\" name=\"main-frame\" src=\"/portal/frame/welcome\" title=\"业务办理\"></iframe>
</div>
</div>",
        topbar = layout::topbar(Some((&user.display_name, &user.employee_no))),
    );
    layout::top_page("首页", &body, MENU_SCRIPT)
}

/// The first page in the iframe: a greeting and the claim rules in brief.
pub fn welcome(user: &User) -> String {
    let body = format!(
        "<div class=\"crumb\">首页</div>
<h1 class=\"title\">欢迎使用网上报销系统</h1>
<p id=\"welcome\">{name}老师，您好！请从左侧菜单选择业务。</p>
<fieldset><legend>报销须知</legend>
<ul class=\"notice\">
<li>日常报销须逐张录入发票，并上传全部发票的 PDF 文件；耗材类报销请同时上传出库单（.doc）。</li>
<li>发票号码为 8 位或 20 位数字，同一张发票不得重复报销。</li>
<li>使用公务卡支付的，请填写刷卡日期、公务卡号与刷卡金额，刷卡金额须与发票金额一致。</li>
<li>差旅报销请填写行程，并逐项录入车船票、机票、住宿等票据。</li>
<li>本系统为演示环境，提交的报销单不会产生真实支付。</li>
</ul></fieldset>",
        name = crate::html::esc(&user.display_name),
    );
    layout::frame_page("首页", &body, "")
}
