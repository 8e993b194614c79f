//! How a portal is set up when it is built: accounts, departments, limits, storage and test hooks.

use crate::hooks::Hooks;
use std::path::PathBuf;

/// Employee number of the documented demo account.
pub const DEMO_EMPLOYEE_NO: &str = "100001";
/// Password of the documented demo account.
pub const DEMO_PASSWORD: &str = "demo123";
/// Display name of the documented demo account.
pub const DEMO_DISPLAY_NAME: &str = "张三";

/// One login of the portal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// 工号, typed into the login form.
    pub employee_no: String,
    /// 密码.
    pub password: String,
    /// Name shown in the header and prefilled as 报销人 / 出差人.
    pub display_name: String,
}

impl Account {
    /// An account with this 工号, password and display name.
    pub fn new(
        employee_no: impl Into<String>,
        password: impl Into<String>,
        display_name: impl Into<String>,
    ) -> Self {
        Self {
            employee_no: employee_no.into(),
            password: password.into(),
            display_name: display_name.into(),
        }
    }
}

/// Everything a portal is built with. `Default` is the demo setup: one account
/// (`100001` / `demo123`, 张三), a handful of departments, claims in memory only, no hooks.
#[derive(Debug, Clone)]
pub struct PortalConfig {
    /// The logins the portal accepts.
    pub accounts: Vec<Account>,
    /// Options of the 部门 select on the general form, in order.
    pub departments: Vec<String>,
    /// When set, accepted claims are also kept in `claims.json` in this directory, which is read
    /// back at start so duplicate invoice numbers are still caught after a restart.
    pub claims_dir: Option<PathBuf>,
    /// Largest single uploaded file, in bytes.
    pub max_file_bytes: usize,
    /// Largest whole submission (all fields and files), in bytes.
    pub max_request_bytes: usize,
    /// Test hooks in force at start; `PUT /api/hooks` replaces them while running.
    pub hooks: Hooks,
    /// HTTP worker threads; one is plenty for a demo.
    pub workers: usize,
}

impl Default for PortalConfig {
    fn default() -> Self {
        Self {
            accounts: vec![Account::new(
                DEMO_EMPLOYEE_NO,
                DEMO_PASSWORD,
                DEMO_DISPLAY_NAME,
            )],
            departments: [
                "计算机科学与技术学院",
                "电子信息工程学院",
                "物理学院",
                "化学与化工学院",
                "生命科学学院",
                "材料科学与工程学院",
                "图书馆",
                "财务处",
            ]
            .into_iter()
            .map(str::to_owned)
            .collect(),
            claims_dir: None,
            max_file_bytes: 20 * 1024 * 1024,
            max_request_bytes: 100 * 1024 * 1024,
            hooks: Hooks::default(),
            workers: 1,
        }
    }
}

impl PortalConfig {
    /// The account with this employee number and password, if any.
    pub fn authenticate(&self, employee_no: &str, password: &str) -> Option<&Account> {
        self.accounts
            .iter()
            .find(|a| a.employee_no == employee_no && a.password == password)
    }
}
