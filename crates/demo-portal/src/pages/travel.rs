//! The 差旅报销 form (inside the iframe): traveller, purpose, itinerary, one row per ticket or
//! hotel, and the PDF attachments.

use crate::html::esc;
use crate::model::{EXPENSE_TYPES, TravelForm};
use crate::pages::layout;
use crate::pages::rows::{self, Column};

const COLUMNS: [Column; 5] = [
    Column::text("expense-type", "类型", true).options(&EXPENSE_TYPES),
    Column::text("invoice-number", "发票号码", false).placeholder("8位或20位"),
    Column::text("date", "日期", true).placeholder("YYYY-MM-DD"),
    Column::text("amount", "金额", true)
        .placeholder("0.00")
        .class("amount"),
    Column::text("note", "说明", false),
];

/// The form with `form`'s values and the `errors` above it.
pub fn render(form: &TravelForm, errors: &[String]) -> String {
    let rows: Vec<Vec<String>> = form
        .rows
        .iter()
        .map(|r| {
            vec![
                r.expense_type.clone(),
                r.invoice_number.clone(),
                r.date.clone(),
                r.amount.clone(),
                r.note.clone(),
            ]
        })
        .collect();
    let input = |id: &str, value: &str| {
        format!(
            "<input type=\"text\" id=\"{id}\" name=\"{id}\" value=\"{}\">",
            esc(value)
        )
    };
    let dated = |id: &str, value: &str| {
        format!(
            "<input type=\"text\" id=\"{id}\" name=\"{id}\" value=\"{}\" placeholder=\"YYYY-MM-DD\">",
            esc(value)
        )
    };
    // The parser drops one newline right after <textarea>, so the one written there keeps a
    // purpose that itself starts with a newline intact.
    let body = format!(
        "<div class=\"crumb\">网上报销 &gt; 差旅报销</div>
<h1 class=\"title\">差旅报销单</h1>
{errors}
<form id=\"claim-form\" method=\"post\" action=\"/portal/frame/travel\" enctype=\"multipart/form-data\">
<fieldset><legend>基本信息</legend>
<div class=\"grid\">
<label for=\"claimant\" class=\"req\">出差人</label>{claimant}
<label for=\"employee-no\" class=\"req\">工号</label>{employee_no}
<label for=\"purpose\" class=\"req\">出差事由</label><textarea id=\"purpose\" name=\"purpose\" class=\"wide\">\n{purpose}</textarea>
</div>
</fieldset>
<fieldset><legend>行程</legend>
<div class=\"grid\">
<label for=\"origin\" class=\"req\">出发地</label>{origin}
<label for=\"destination\" class=\"req\">目的地</label>{destination}
<label for=\"depart-date\" class=\"req\">出发日期</label>{depart_date}
<label for=\"return-date\" class=\"req\">返回日期</label>{return_date}
</div>
</fieldset>
<fieldset><legend>费用明细</legend>
{table}
</fieldset>
<fieldset><legend>附件</legend>
<div class=\"grid\">
<label for=\"attachment-files\">票据文件</label><div class=\"wide\"><input type=\"file\" id=\"attachment-files\" name=\"attachment-files\" multiple accept=\".pdf,.ofd,.xml\"> <span class=\"muted\">车票、机票行程单、住宿发票等，可多选</span></div>
</div>
</fieldset>
<div class=\"actions\"><button type=\"submit\" id=\"submit-claim\">提交</button></div>
</form>",
        errors = layout::error_box(errors),
        claimant = input("claimant", &form.claimant),
        employee_no = input("employee-no", &form.employee_no),
        purpose = esc(&form.purpose),
        origin = input("origin", &form.origin),
        destination = input("destination", &form.destination),
        depart_date = dated("depart-date", &form.depart_date),
        return_date = dated("return-date", &form.return_date),
        table = rows::table(&COLUMNS, &rows, "添加明细", "尚未添加费用明细，请点击「添加明细」"),
    );
    layout::frame_page("差旅报销", &body, &rows::script(&COLUMNS))
}
