//! 我的单据: the user's claims, newest first.

use crate::claims::Claim;
use crate::html::{escape, page};

pub(crate) fn mine(claims: &[Claim]) -> String {
    let rows: String = claims
        .iter()
        .map(|c| {
            format!(
                "<tr><td class=\"claim-no\">{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td>\
                 <td>{}</td><td>待审核</td></tr>\n",
                escape(&c.claim_no),
                c.kind.label(),
                escape(&c.reason),
                escape(&c.total),
                escape(&c.submitted_at),
            )
        })
        .collect();
    let table = if claims.is_empty() {
        "<p class=\"empty\">暂无单据</p>".to_owned()
    } else {
        format!(
            "<table class=\"list\" id=\"claimList\"><thead><tr><th>单据号</th><th>单据类型</th>\
             <th>报销事由</th><th>金额(元)</th><th>提交时间</th><th>状态</th></tr></thead>\
             <tbody>\n{rows}</tbody></table>"
        )
    };
    let body =
        format!("<div class=\"page-title\">我的单据</div>\n<div class=\"panel\">{table}</div>");
    page("我的单据", "inner-page", &body, &[])
}
