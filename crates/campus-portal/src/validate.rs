//! The server's checks of a posted claim, in the order a clerk's system reports them: header
//! fields first, then the rows one by one, then the attachments. The first failure is the
//! answer, worded as the page will `alert` it.

mod attachments;
mod rows;

use crate::claims::{Claim, ClaimKind};
use crate::clock::Date;
use crate::config::Account;
use crate::form::PostedForm;
use crate::money;
use crate::state::AppState;

pub(crate) use rows::TRAVEL_CATEGORIES;

/// The longest 事由 accepted.
const MAX_REASON_CHARS: usize = 200;

/// A daily claim (日常报销) from its post, or the refusal.
pub(crate) fn daily(form: &PostedForm, user: &Account, state: &AppState) -> Result<Claim, String> {
    let mut claim = header(form, user, state, ClaimKind::Daily)?;
    claim.reason = reason(form, "报销事由")?;
    let date = date(form.value("claim_date"), "报销日期")?;
    claim.claim_date = Some(date.to_string());
    finish(claim, form, Some(date))
}

/// A travel claim (差旅报销) from its post, or the refusal.
pub(crate) fn travel(form: &PostedForm, user: &Account, state: &AppState) -> Result<Claim, String> {
    let mut claim = header(form, user, state, ClaimKind::Travel)?;
    claim.reason = reason(form, "出差事由")?;
    let destination = form.value("destination");
    if destination.is_empty() {
        return Err("出差地点不能为空".to_owned());
    }
    claim.destination = Some(destination.to_owned());
    let start = date(form.value("start_date"), "出差开始日期")?;
    let end = date(form.value("end_date"), "出差结束日期")?;
    if start > end {
        return Err("出差开始日期不能晚于结束日期".to_owned());
    }
    claim.start_date = Some(start.to_string());
    claim.end_date = Some(end.to_string());
    finish(claim, form, None)
}

/// The department and the fields both forms share; the rest starts empty.
fn header(
    form: &PostedForm,
    user: &Account,
    state: &AppState,
    kind: ClaimKind,
) -> Result<Claim, String> {
    let code = form.value("dept");
    if code.is_empty() {
        return Err("部门不能为空".to_owned());
    }
    let department = state
        .department(code)
        .ok_or_else(|| "所选部门不存在，请重新选择".to_owned())?;
    Ok(Claim {
        claim_no: String::new(),
        kind,
        staff_no: user.staff_no.clone(),
        applicant: user.name.clone(),
        department_code: department.code.clone(),
        department: department.name.clone(),
        reason: String::new(),
        claim_date: None,
        destination: None,
        start_date: None,
        end_date: None,
        rows: Vec::new(),
        total: String::new(),
        attachments: Vec::new(),
        submitted_at: String::new(),
    })
}

fn reason(form: &PostedForm, label: &str) -> Result<String, String> {
    let text = form.value("reason");
    if text.is_empty() {
        return Err(format!("{label}不能为空"));
    }
    if text.chars().count() > MAX_REASON_CHARS {
        return Err(format!("{label}不能超过{MAX_REASON_CHARS}个字"));
    }
    Ok(text.to_owned())
}

fn date(text: &str, label: &str) -> Result<Date, String> {
    if text.is_empty() {
        return Err(format!("{label}不能为空"));
    }
    Date::parse(text).ok_or_else(|| format!("{label}格式不正确"))
}

/// Rows, total and attachments, common to both forms.
fn finish(mut claim: Claim, form: &PostedForm, latest: Option<Date>) -> Result<Claim, String> {
    let (rows, total) = rows::read(form, claim.kind, latest)?;
    claim.rows = rows;
    claim.total = money::format_fen(total);
    claim.attachments = attachments::check(&form.files)?;
    Ok(claim)
}

#[cfg(test)]
mod tests;
