//! The parts both claim forms share: the applicant block with the department list the page
//! fills by XHR, the invoice table whose rows JavaScript clones from a `<template>` (so row
//! inputs have names but no ids), the attachments and the 提交 button.

use crate::config::Account;
use crate::html::escape;

/// 报销人 and 工号 (read-only, from the account) and 部门 (a select with no options until
/// `/api/departments` answers). The caller's fields follow in the same table.
pub(crate) fn applicant(user: &Account, more_rows: &str) -> String {
    format!(
        r#"<table class="form-table">
<tr><th>报销人</th><td><input type="text" name="applicant" value="{name}" readonly class="readonly"></td>
<th>工号</th><td><input type="text" name="staff_no" value="{staff_no}" readonly class="readonly"></td></tr>
<tr><th><span class="required">*</span>部门</th><td colspan="3"><select id="dept" name="dept"></select></td></tr>
{more_rows}
</table>"#,
        name = escape(&user.name),
        staff_no = escape(&user.staff_no),
    )
}

/// The invoice table: `headers` are the column titles between 序号 and 操作, `cells` the
/// template row's cells in the same order.
pub(crate) fn invoice_table(headers: &[&str], cells: &str) -> String {
    let heads: String = headers.iter().map(|h| format!("<th>{h}</th>")).collect();
    let span = headers.len() + 2;
    format!(
        r#"<div class="section-title">发票明细<button type="button" id="addRow" class="btn btn-small">添加一行</button></div>
<table class="rows" id="invoiceTable">
<thead><tr><th>序号</th>{heads}<th>操作</th></tr></thead>
<tbody></tbody>
<tfoot><tr><td colspan="{span}" class="total-line">合计金额（元）：<span id="total">0.00</span></td></tr></tfoot>
</table>
<template id="rowTemplate"><tr><td class="seq"></td>{cells}<td><button type="button" class="btn-link del-row">删除</button></td></tr></template>"#
    )
}

/// A template cell holding a read-only date input the picker fills.
pub(crate) const DATE_CELL: &str = r#"<td><input type="text" name="inv_date[]" class="date-input" readonly placeholder="请选择日期"></td>"#;

/// Attachments and the submit button, closing the form.
pub(crate) const FORM_END: &str = r#"<div class="section-title">附件</div>
<div class="attachments"><input type="file" name="files" id="files" multiple accept=".pdf,.ofd,.xml">
<p class="hint">请上传发票文件（支持 PDF、OFD、XML 格式），可多选，单个文件不超过 20MB。</p></div>
<div class="actions"><button type="button" id="submitBtn" class="btn btn-primary">提交</button></div>
</form>"#;

/// The opening of a claim form posting to `submit_url`.
pub(crate) fn form_start(title: &str, submit_url: &str) -> String {
    format!(
        "<div class=\"page-title\">{title}</div>\n<form id=\"claimForm\" class=\"claim-form\" \
         data-submit=\"{submit_url}\" enctype=\"multipart/form-data\">"
    )
}

/// The scripts of a claim form page.
pub(crate) const SCRIPTS: [&str; 2] = ["datepicker.js", "claim-form.js"];
