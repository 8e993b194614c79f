//! 首页 inside the frame: notices, as the landing page of such systems shows.

use crate::config::Account;
use crate::html::{escape, page};

pub(crate) fn home(user: &Account) -> String {
    let body = format!(
        r#"<div class="page-title">首页</div>
<div class="panel"><p>{name}老师，您好！请通过左侧菜单选择报销业务。</p></div>
<div class="panel"><div class="panel-title">通知公告</div>
<ul class="notices">
<li>关于规范电子发票报销的通知：请上传 PDF、OFD 或 XML 格式的电子发票原件。</li>
<li>同一张发票只能报销一次，重复提交的发票系统将自动拒绝。</li>
<li>差旅报销请如实填写出差起止日期与出差地点。</li>
</ul></div>"#,
        name = escape(&user.name),
    );
    page("首页", "inner-page", &body, &[])
}
