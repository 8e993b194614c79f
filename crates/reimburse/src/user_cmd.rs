//! `reimburse user …`: the service's own accounts (`[auth] mode = "local"`), kept in the
//! ledger's database with argon2id hashes. A password comes from `REIMBURSE_USER_PASSWORD` (for
//! scripts) or is asked twice on the terminal without echo; it is never an argument, which
//! would leave it in the shell's history and the process list.

use crate::cli::{UserArgs, UserCommand};
use crate::serve::open_ledger;
use crate::service_config::ServiceConfig;
use anyhow::{Context, bail};
use ledger::{Ledger, NewUser};
use std::io::Write as _;

/// Environment variable a script sets the new password in.
pub const USER_PASSWORD_ENV: &str = "REIMBURSE_USER_PASSWORD";

/// Shortest password accepted.
const MIN_PASSWORD_CHARS: usize = 8;

pub fn run(args: &UserArgs) -> anyhow::Result<()> {
    let data_dir = std::path::absolute(&args.data_dir)
        .with_context(|| format!("cannot resolve data dir {}", args.data_dir.display()))?;
    let (config, _) = ServiceConfig::load(args.config.as_deref(), &data_dir)?;
    let ledger = open_ledger(&config.database, &data_dir)?;
    let out = &mut std::io::stdout().lock();
    match &args.command {
        UserCommand::Add {
            username,
            name,
            finance,
        } => {
            let username = checked_username(username)?;
            let password = new_password()?;
            let user = NewUser {
                username: username.clone(),
                display_name: name.clone().unwrap_or_else(|| username.clone()),
                password_hash: auth::hash_password(&password)?,
                finance: *finance,
            };
            ledger.add_user(&user)?;
            writeln!(out, "已创建账号 {username}（{}）", role_word(*finance))?;
        }
        UserCommand::Passwd { username } => {
            known(&ledger, username)?;
            let hash = auth::hash_password(&new_password()?)?;
            ledger.set_password_hash(username, &hash)?;
            writeln!(out, "已更新 {username} 的密码，其已有的登录全部失效")?;
        }
        UserCommand::Disable { username } => {
            ledger.set_user_disabled(username, true)?;
            writeln!(out, "已停用账号 {username}")?;
        }
        UserCommand::Enable { username } => {
            ledger.set_user_disabled(username, false)?;
            writeln!(out, "已启用账号 {username}")?;
        }
        UserCommand::Role { username, role } => {
            let finance = match role.as_str() {
                "finance" => true,
                "staff" => false,
                other => bail!("未知的角色「{other}」（staff 或 finance）"),
            };
            ledger.set_user_finance(username, finance)?;
            writeln!(out, "{username} 现在是{}", role_word(finance))?;
        }
        UserCommand::List => {
            for user in ledger.users()? {
                let state = if user.disabled { "已停用" } else { "可用" };
                let role = role_word(user.finance);
                writeln!(
                    out,
                    "{}\t{}\t{role}\t{state}",
                    user.username, user.display_name
                )?;
            }
        }
    }
    Ok(())
}

fn role_word(finance: bool) -> &'static str {
    if finance {
        "财务人员"
    } else {
        "普通用户"
    }
}

fn known(ledger: &Ledger, username: &str) -> anyhow::Result<()> {
    match ledger.user(username)? {
        Some(_) => Ok(()),
        None => bail!("没有账号 {username}"),
    }
}

/// Account names are what people type and what the audit trail shows: printable, no spaces.
fn checked_username(username: &str) -> anyhow::Result<String> {
    let username = username.trim();
    let fine = !username.is_empty()
        && username.chars().count() <= 64
        && username
            .chars()
            .all(|c| !c.is_whitespace() && !c.is_control());
    if !fine {
        bail!("用户名须为 1–64 个字符，不含空格");
    }
    Ok(username.to_owned())
}

fn new_password() -> anyhow::Result<String> {
    let password = match std::env::var(USER_PASSWORD_ENV) {
        Ok(password) => password,
        Err(_) => {
            let first = rpassword::prompt_password("新密码：")?;
            let again = rpassword::prompt_password("再输入一次：")?;
            if first != again {
                bail!("两次输入的密码不一致");
            }
            first
        }
    };
    if password.chars().count() < MIN_PASSWORD_CHARS {
        bail!("密码至少 {MIN_PASSWORD_CHARS} 个字符");
    }
    Ok(password)
}
