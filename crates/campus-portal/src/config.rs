//! What a portal instance knows before its first request: accounts, departments, past claims and
//! the switches tests turn.

use std::time::Duration;

/// A staff member who may log in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// 工号, typed at login.
    pub staff_no: String,
    /// 密码, typed at login.
    pub password: String,
    /// 姓名, shown in the top bar and pre-filled as 报销人.
    pub name: String,
}

/// One entry of the 部门 list the forms fetch by XHR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Department {
    /// The `<option value>` posted with the form.
    pub code: String,
    /// The text a person sees in the list.
    pub name: String,
}

/// An invoice number claimed before this portal started, so the duplicate refusal can be met on
/// a first submission, as it is in a real system with years of history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriorInvoice {
    /// 发票号码.
    pub invoice_no: String,
    /// The claim it was reimbursed in, named by the refusal.
    pub claim_no: String,
}

/// Everything a portal instance is started with.
#[derive(Debug, Clone)]
pub struct CampusConfig {
    /// Who may log in.
    pub accounts: Vec<Account>,
    /// The 部门 list, in display order.
    pub departments: Vec<Department>,
    /// How long `/api/departments` waits before answering: the select is empty until then.
    pub departments_delay: Duration,
    /// Invoice numbers already reimbursed before start.
    pub prior_invoices: Vec<PriorInvoice>,
    /// The year in claim numbers; `None` takes the current year in Beijing time.
    pub claim_year: Option<u16>,
    /// The sequence number of the first claim filed (`CW2026000101` for 101).
    pub first_sequence: u32,
    /// Serves `GET /test/captcha`, which tells the expected captcha of a login session. It exists
    /// only so tests can log in without reading the image; switch it off to have a portal with
    /// no way around the captcha.
    pub test_hooks: bool,
}

impl Default for CampusConfig {
    /// The test configuration: one account (200001 / campus123, 李四), six departments, the
    /// list answered after 500 ms, claims numbered from 101, test hooks on.
    fn default() -> Self {
        Self {
            accounts: vec![Account {
                staff_no: "200001".to_owned(),
                password: "campus123".to_owned(),
                name: "李四".to_owned(),
            }],
            departments: default_departments(),
            departments_delay: Duration::from_millis(500),
            prior_invoices: Vec::new(),
            claim_year: None,
            first_sequence: 101,
            test_hooks: true,
        }
    }
}

fn default_departments() -> Vec<Department> {
    [
        ("0101", "计算机科学与技术学院"),
        ("0102", "电子信息工程学院"),
        ("0203", "数学与统计学院"),
        ("0305", "经济管理学院"),
        ("0901", "科研处"),
        ("0902", "财务处"),
    ]
    .into_iter()
    .map(|(code, name)| Department {
        code: code.to_owned(),
        name: name.to_owned(),
    })
    .collect()
}
