//! 我的报销单 (the list of one's claims) and one claim's page, which is also the confirmation
//! shown right after a successful submission.

use crate::html::esc;
use crate::model::{Claim, ClaimDetails, expense_label};
use crate::pages::layout;

/// `2026-11-21T14:03:05+08:00` as `2026-11-21 14:03:05`: every time here is Beijing time.
fn display_time(rfc3339: &str) -> String {
    rfc3339.replacen('T', " ", 1).replace("+08:00", "")
}

/// The claims of the logged-in user, newest first.
pub fn list(claims: &[Claim]) -> String {
    let rows: String = claims
        .iter()
        .map(|c| {
            format!(
                "<tr data-claim-no=\"{no}\"><td><a href=\"/portal/frame/claims/{no}\">{no}</a></td><td>{kind}</td>\
                 <td>{claimant}</td><td>{purpose}</td><td>¥{total}</td><td>{time}</td><td>待审核</td></tr>",
                no = esc(&c.claim_no),
                kind = c.details.kind_label(),
                claimant = esc(c.details.claimant()),
                purpose = esc(c.details.purpose()),
                total = esc(&c.total),
                time = esc(&display_time(&c.created_at)),
            )
        })
        .collect();
    let table = if claims.is_empty() {
        "<div class=\"empty-hint\" id=\"no-claims\">暂无报销单</div>".to_owned()
    } else {
        format!(
            "<table class=\"rows\" id=\"claims-table\"><thead><tr><th>报销单号</th><th>类型</th>\
             <th>报销人</th><th>事由</th><th>金额</th><th>提交时间</th><th>状态</th></tr></thead>\
             <tbody>{rows}</tbody></table>"
        )
    };
    let body = format!(
        "<div class=\"crumb\">查询 &gt; 我的报销单</div><h1 class=\"title\">我的报销单</h1>{table}"
    );
    layout::frame_page("我的报销单", &body, "")
}

/// One claim; `just_submitted` adds the success banner of the confirmation page.
pub fn detail(claim: &Claim, just_submitted: bool) -> String {
    let banner = if just_submitted {
        "<div class=\"success\" id=\"submit-success\">提交成功！请打印报销单并将纸质票据送交财务处。</div>"
    } else {
        ""
    };
    let mut info = vec![
        (
            "报销单号",
            format!("<span id=\"claim-no\">{}</span>", esc(&claim.claim_no)),
        ),
        (
            "类型",
            format!(
                "<span id=\"claim-type\">{}</span>",
                claim.details.kind_label()
            ),
        ),
    ];
    let rows_table = match &claim.details {
        ClaimDetails::General(form) => {
            info.push(("报销人", esc(&form.claimant).to_string()));
            info.push(("工号", esc(&form.employee_no).to_string()));
            info.push(("部门", esc(&form.department).to_string()));
            info.push(("报销事由", esc(&form.purpose).to_string()));
            let rows: String = form
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    format!(
                        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
                         <td>{}</td><td>{}</td><td>{}</td></tr>",
                        i + 1,
                        esc(&r.invoice_number),
                        esc(&r.invoice_date),
                        esc(&r.item_name),
                        esc(&r.amount),
                        esc(&r.seller_name),
                        esc(&r.card_date),
                        esc(&r.card_number),
                        esc(&r.card_amount),
                    )
                })
                .collect();
            format!(
                "<table class=\"rows\" id=\"claim-rows\"><thead><tr><th>序号</th><th>发票号码</th>\
                 <th>开票日期</th><th>项目名称</th><th>金额</th><th>销售方名称</th><th>刷卡日期</th>\
                 <th>公务卡号</th><th>刷卡金额</th></tr></thead><tbody>{rows}</tbody></table>"
            )
        }
        ClaimDetails::Travel(form) => {
            info.push(("出差人", esc(&form.claimant).to_string()));
            info.push(("工号", esc(&form.employee_no).to_string()));
            info.push(("出差事由", esc(&form.purpose).to_string()));
            info.push((
                "行程",
                format!(
                    "{} → {}（{} 至 {}）",
                    esc(&form.origin),
                    esc(&form.destination),
                    esc(&form.depart_date),
                    esc(&form.return_date)
                ),
            ));
            let rows: String = form
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    format!(
                        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                        i + 1,
                        esc(expense_label(&r.expense_type)),
                        esc(&r.invoice_number),
                        esc(&r.date),
                        esc(&r.amount),
                        esc(&r.note),
                    )
                })
                .collect();
            format!(
                "<table class=\"rows\" id=\"claim-rows\"><thead><tr><th>序号</th><th>类型</th>\
                 <th>发票号码</th><th>日期</th><th>金额</th><th>说明</th></tr></thead>\
                 <tbody>{rows}</tbody></table>"
            )
        }
    };
    info.push((
        "金额合计",
        format!("¥<span id=\"claim-total\">{}</span>", esc(&claim.total)),
    ));
    info.push((
        "提交时间",
        esc(&display_time(&claim.created_at)).to_string(),
    ));
    info.push(("状态", "待审核".to_owned()));
    let info: String = info
        .into_iter()
        .map(|(label, value)| format!("<tr><th>{label}</th><td>{value}</td></tr>"))
        .collect();
    let attachments: String = claim
        .attachments
        .iter()
        .map(|a| format!("<li>{}（{} 字节）</li>", esc(&a.name), a.size))
        .collect();
    let attachments = if attachments.is_empty() {
        "<p class=\"muted\">无附件</p>".to_owned()
    } else {
        format!("<ul id=\"claim-attachments\">{attachments}</ul>")
    };
    let body = format!(
        "<div class=\"crumb\">查询 &gt; 报销单</div>
<h1 class=\"title\">报销单 {no}</h1>
{banner}
<table class=\"info\" id=\"claim-summary\">{info}</table>
<fieldset><legend>明细</legend>{rows_table}</fieldset>
<fieldset><legend>附件</legend>{attachments}</fieldset>
<p><a href=\"/portal/frame/claims\" id=\"back-to-claims\">返回我的报销单</a></p>",
        no = esc(&claim.claim_no),
    );
    layout::frame_page("报销单", &body, "")
}
