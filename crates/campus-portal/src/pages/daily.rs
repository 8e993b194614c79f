//! 日常报销: the daily expense form.

use crate::config::Account;
use crate::html::page;
use crate::pages::claim_form::{
    DATE_CELL, FORM_END, SCRIPTS, applicant, form_start, invoice_table,
};

pub(crate) fn daily(user: &Account) -> String {
    let own = r#"<tr><th><span class="required">*</span>报销事由</th><td><input type="text" id="reason" name="reason" maxlength="200" placeholder="请输入报销事由"></td>
<th><span class="required">*</span>报销日期</th><td><input type="text" id="claimDate" name="claim_date" class="date-input" readonly placeholder="请选择日期"></td></tr>"#;
    let cells = format!(
        r#"<td><input type="text" name="inv_no[]" maxlength="20"></td>{DATE_CELL}<td><input type="text" name="item[]"></td><td><input type="text" name="amount[]" class="amount"></td><td><input type="text" name="seller[]"></td>"#
    );
    let body = [
        form_start("日常报销", "/claim/daily/submit"),
        applicant(user, own),
        invoice_table(
            &["发票号码", "开票日期", "费用项目", "金额(元)", "销售方名称"],
            &cells,
        ),
        FORM_END.to_owned(),
    ]
    .join("\n");
    page("日常报销", "inner-page", &body, &SCRIPTS)
}
