//! 差旅报销: the travel form, with the trip's dates set by the picker and a 费用类型 select
//! on each row.

use crate::config::Account;
use crate::html::page;
use crate::pages::claim_form::{
    DATE_CELL, FORM_END, SCRIPTS, applicant, form_start, invoice_table,
};
use crate::validate::TRAVEL_CATEGORIES;

pub(crate) fn travel(user: &Account) -> String {
    let own = r#"<tr><th><span class="required">*</span>出差事由</th><td colspan="3"><input type="text" id="reason" name="reason" maxlength="200" placeholder="请输入出差事由"></td></tr>
<tr><th><span class="required">*</span>出差地点</th><td colspan="3"><input type="text" id="destination" name="destination" placeholder="如：北京市"></td></tr>
<tr><th><span class="required">*</span>出差日期</th><td colspan="3"><input type="text" id="startDate" name="start_date" class="date-input" readonly placeholder="开始日期"> 至 <input type="text" id="endDate" name="end_date" class="date-input" readonly placeholder="结束日期"></td></tr>"#;
    let options: String = TRAVEL_CATEGORIES
        .iter()
        .map(|c| format!("<option value=\"{c}\">{c}</option>"))
        .collect();
    let cells = format!(
        r#"<td><input type="text" name="inv_no[]" maxlength="20"></td>{DATE_CELL}<td><select name="category[]"><option value="">--请选择--</option>{options}</select></td><td><input type="text" name="amount[]" class="amount"></td><td><input type="text" name="seller[]"></td>"#
    );
    let body = [
        form_start("差旅报销", "/claim/travel/submit"),
        applicant(user, own),
        invoice_table(
            &["发票号码", "开票日期", "费用类型", "金额(元)", "销售方名称"],
            &cells,
        ),
        FORM_END.to_owned(),
    ]
    .join("\n");
    page("差旅报销", "inner-page", &body, &SCRIPTS)
}
