//! The 日常报销 form (inside the iframe): claimant, department, purpose, invoice rows and the
//! invoice PDFs and outbound-stock document.

use crate::html::esc;
use crate::model::GeneralForm;
use crate::pages::layout;
use crate::pages::rows::{self, Column};

const COLUMNS: [Column; 8] = [
    Column::text("invoice-number", "发票号码", true).placeholder("8位或20位"),
    Column::text("invoice-date", "开票日期", true).placeholder("YYYY-MM-DD"),
    Column::text("item-name", "项目名称", true),
    Column::text("amount", "金额(价税合计)", true)
        .placeholder("0.00")
        .class("amount"),
    Column::text("seller-name", "销售方名称", true),
    Column::text("card-date", "刷卡日期", false).placeholder("YYYY-MM-DD"),
    Column::text("card-number", "公务卡号", false),
    Column::text("card-amount", "刷卡金额", false).placeholder("0.00"),
];

/// The form with `form`'s values and the `errors` above it.
pub fn render(form: &GeneralForm, errors: &[String], departments: &[String]) -> String {
    let mut department_options = String::from("<option value=\"\">请选择</option>");
    for department in departments {
        let selected = if department == form.department.trim() {
            " selected"
        } else {
            ""
        };
        department_options.push_str(&format!(
            "<option value=\"{d}\"{selected}>{d}</option>",
            d = esc(department)
        ));
    }
    let rows: Vec<Vec<String>> = form
        .rows
        .iter()
        .map(|r| {
            vec![
                r.invoice_number.clone(),
                r.invoice_date.clone(),
                r.item_name.clone(),
                r.amount.clone(),
                r.seller_name.clone(),
                r.card_date.clone(),
                r.card_number.clone(),
                r.card_amount.clone(),
            ]
        })
        .collect();
    // The parser drops one newline right after <textarea>, so the one written there keeps a
    // purpose that itself starts with a newline intact.
    let body = format!(
        "<div class=\"crumb\">网上报销 &gt; 日常报销</div>
<h1 class=\"title\">日常报销单</h1>
{errors}
<form id=\"claim-form\" method=\"post\" action=\"/portal/frame/general\" enctype=\"multipart/form-data\">
<fieldset><legend>基本信息</legend>
<div class=\"grid\">
<label for=\"claimant\" class=\"req\">报销人</label><input type=\"text\" id=\"claimant\" name=\"claimant\" value=\"{claimant}\">
<label for=\"employee-no\" class=\"req\">工号</label><input type=\"text\" id=\"employee-no\" name=\"employee-no\" value=\"{employee_no}\">
<label for=\"department\" class=\"req\">部门</label><select id=\"department\" name=\"department\">{department_options}</select>
<span></span><span></span>
<label for=\"purpose\" class=\"req\">报销事由</label><textarea id=\"purpose\" name=\"purpose\" class=\"wide\">\n{purpose}</textarea>
</div>
</fieldset>
<fieldset><legend>发票明细</legend>
{table}
</fieldset>
<fieldset><legend>附件</legend>
<div class=\"grid\">
<label for=\"invoice-files\" class=\"req\">发票文件</label><div class=\"wide\"><input type=\"file\" id=\"invoice-files\" name=\"invoice-files\" multiple accept=\".pdf,.ofd,.xml\"> <span class=\"muted\">PDF、OFD或XML，可多选，每个文件不超过20MB</span></div>
<label for=\"outbound-file\">出库单</label><div class=\"wide\"><input type=\"file\" id=\"outbound-file\" name=\"outbound-file\" accept=\".doc,.docx\"> <span class=\"muted\">耗材类报销请上传出库单（.doc）</span></div>
</div>
</fieldset>
<div class=\"actions\"><button type=\"submit\" id=\"submit-claim\">提交</button></div>
</form>",
        errors = layout::error_box(errors),
        claimant = esc(&form.claimant),
        employee_no = esc(&form.employee_no),
        purpose = esc(&form.purpose),
        table = rows::table(&COLUMNS, &rows, "添加发票", "尚未添加发票，请点击「添加发票」"),
    );
    layout::frame_page("日常报销", &body, &rows::script(&COLUMNS))
}
