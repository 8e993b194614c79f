//! Accounts: the users who sign in, their sign-ins (kept by the hash of their token) and the
//! defaults each user saved. Nothing here writes to the audit trail: what to record, and
//! never a password or its hash, is the caller's choice.

use crate::clock::{self, Clock};
use crate::conn::{Arg, Conn, Record, begin_write};
use crate::error::{LedgerError, database};
use crate::model::{LoginRecord, NewUser, UserRecord};
use crate::write::retrying;
use sqlx::{Database, Pool};

/// The user's columns, in [`user_of`]'s order.
const USER_COLUMNS: &str =
    "username, display_name, password_hash, finance, disabled, created_at, updated_at";

/// The longest sign-in: ten years, far beyond any session, well inside the four-digit years
/// whose text sorts as time does.
const MAX_TTL_SECS: i64 = 10 * 366 * 86_400;

fn user_of<R: Record>(row: &R) -> Result<UserRecord, sqlx::Error> {
    Ok(UserRecord {
        username: row.text(0)?,
        display_name: row.text(1)?,
        password_hash: row.text(2)?,
        finance: row.flag(3)?,
        disabled: row.flag(4)?,
        created_at: row.text(5)?,
        updated_at: row.text(6)?,
    })
}

/// Runs one writing statement (tried again on a busy or deadlocked database): rows changed.
async fn execute<DB>(pool: &Pool<DB>, sql: &str, args: Vec<Arg>) -> Result<u64, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    retrying(|| async {
        let mut conn = pool.acquire().await?;
        conn.execute(sql, args.clone()).await
    })
    .await
}

/// Runs one reading statement.
async fn fetch<DB>(
    pool: &Pool<DB>,
    sql: &str,
    args: Vec<Arg>,
) -> Result<Vec<<DB::Connection as Conn>::Row>, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let mut conn = pool.acquire().await.map_err(database)?;
    conn.fetch(sql, args).await.map_err(database)
}

pub(crate) async fn add_user<DB>(
    pool: &Pool<DB>,
    clock: &Clock,
    new: &NewUser,
) -> Result<(), LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let username = new.username.as_str();
    if username.trim().is_empty() {
        return Err(LedgerError::Invalid("请填写用户名".into()));
    }
    if username.trim() != username {
        return Err(LedgerError::Invalid(format!(
            "用户名“{username}”的首尾不能有空格"
        )));
    }
    if new.password_hash.is_empty() {
        return Err(LedgerError::Invalid("请设置密码".into()));
    }
    let now = clock.now().utc;
    let args = vec![
        username.into(),
        new.display_name.trim().into(),
        new.password_hash.as_str().into(),
        new.finance.into(),
        now.into(),
    ];
    // ON CONFLICT rather than catching the key's violation: the same answer on both backends.
    let sql = "INSERT INTO users (username, display_name, password_hash, finance, disabled, \
               created_at, updated_at) VALUES ($1, $2, $3, $4, FALSE, $5, $5) \
               ON CONFLICT (username) DO NOTHING";
    match execute(pool, sql, args).await? {
        0 => Err(LedgerError::UserExists(username.to_owned())),
        _ => Ok(()),
    }
}

pub(crate) async fn user<DB>(
    pool: &Pool<DB>,
    username: &str,
) -> Result<Option<UserRecord>, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE username = $1");
    let rows = fetch(pool, &sql, vec![username.into()]).await?;
    rows.first().map(user_of).transpose().map_err(database)
}

pub(crate) async fn users<DB>(pool: &Pool<DB>) -> Result<Vec<UserRecord>, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let sql = format!("SELECT {USER_COLUMNS} FROM users ORDER BY username");
    let rows = fetch(pool, &sql, Vec::new()).await?;
    rows.iter()
        .map(user_of)
        .collect::<Result<_, _>>()
        .map_err(database)
}

pub(crate) async fn set_password_hash<DB>(
    pool: &Pool<DB>,
    clock: &Clock,
    username: &str,
    hash: &str,
) -> Result<(), LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    if hash.is_empty() {
        return Err(LedgerError::Invalid("请设置密码".into()));
    }
    change_user(
        pool,
        clock,
        username,
        Setting::PasswordHash,
        hash.into(),
        true,
    )
    .await
}

/// One of a user's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Setting {
    PasswordHash,
    Disabled,
    Finance,
}

impl Setting {
    fn column(self) -> &'static str {
        match self {
            Self::PasswordHash => "password_hash",
            Self::Disabled => "disabled",
            Self::Finance => "finance",
        }
    }
}

/// Sets one of `username`'s settings to `value`; with `sign_out`, ends all their sign-ins in
/// the same transaction, so that no sign-in outlives a new password or a disabling.
pub(crate) async fn change_user<DB>(
    pool: &Pool<DB>,
    clock: &Clock,
    username: &str,
    setting: Setting,
    value: Arg,
    sign_out: bool,
) -> Result<(), LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let sql = format!(
        "UPDATE users SET {} = $1, updated_at = $2 WHERE username = $3",
        setting.column()
    );
    let changed = retrying(|| async {
        let args = vec![value.clone(), clock.now().utc.into(), username.into()];
        let mut tx = begin_write(pool).await?;
        let changed = tx.execute(&sql, args).await?;
        if changed == 1 && sign_out {
            tx.execute(
                "DELETE FROM logins WHERE username = $1",
                vec![username.into()],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(changed)
    })
    .await?;
    match changed {
        0 => Err(LedgerError::NoSuchUser(username.to_owned())),
        _ => Ok(()),
    }
}

pub(crate) async fn create_login<DB>(
    pool: &Pool<DB>,
    clock: &Clock,
    token_hash: &str,
    username: &str,
    address: &str,
    ttl_secs: i64,
) -> Result<LoginRecord, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    if token_hash.is_empty() {
        return Err(LedgerError::Invalid("登录凭据为空".into()));
    }
    if !(1..=MAX_TTL_SECS).contains(&ttl_secs) {
        return Err(LedgerError::Invalid(format!(
            "登录有效期应在 1 到 {MAX_TTL_SECS} 秒之间，而不是 {ttl_secs} 秒"
        )));
    }
    retrying(|| async {
        let now = clock.unix_secs();
        let login = |display_name, finance| LoginRecord {
            username: username.to_owned(),
            display_name,
            finance,
            address: address.to_owned(),
            created_at: clock::utc(now),
            expires_at: clock::utc(now + ttl_secs),
        };
        let mut tx = begin_write(pool).await?;
        let rows = tx
            .fetch(
                "SELECT display_name, finance, disabled FROM users WHERE username = $1",
                vec![username.into()],
            )
            .await?;
        let found = match rows.first() {
            None => Err(LedgerError::NoSuchUser(username.to_owned())),
            Some(row) if row.flag(2)? => Err(LedgerError::UserDisabled(username.to_owned())),
            Some(row) => Ok(login(row.text(0)?, row.flag(1)?)),
        };
        let record = match found {
            Ok(record) => record,
            Err(refused) => {
                tx.rollback().await?;
                return Ok(Err(refused));
            }
        };
        let args = vec![
            token_hash.into(),
            username.into(),
            address.into(),
            record.created_at.as_str().into(),
            record.expires_at.as_str().into(),
        ];
        tx.execute(
            "INSERT INTO logins (token_hash, username, address, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5)",
            args,
        )
        .await?;
        tx.commit().await?;
        Ok(Ok(record))
    })
    .await?
}

pub(crate) async fn login<DB>(
    pool: &Pool<DB>,
    clock: &Clock,
    token_hash: &str,
) -> Result<Option<LoginRecord>, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let sql = "SELECT u.username, u.display_name, u.finance, l.address, l.created_at, \
               l.expires_at FROM logins l JOIN users u ON u.username = l.username \
               WHERE l.token_hash = $1 AND l.expires_at > $2 AND NOT u.disabled";
    let args = vec![token_hash.into(), clock.now().utc.into()];
    let rows = fetch(pool, sql, args).await?;
    rows.first()
        .map(|row| {
            Ok(LoginRecord {
                username: row.text(0)?,
                display_name: row.text(1)?,
                finance: row.flag(2)?,
                address: row.text(3)?,
                created_at: row.text(4)?,
                expires_at: row.text(5)?,
            })
        })
        .transpose()
        .map_err(database)
}

pub(crate) async fn delete_login<DB>(pool: &Pool<DB>, token_hash: &str) -> Result<(), LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let sql = "DELETE FROM logins WHERE token_hash = $1";
    execute(pool, sql, vec![token_hash.into()]).await.map(drop)
}

pub(crate) async fn purge_expired_logins<DB>(
    pool: &Pool<DB>,
    clock: &Clock,
) -> Result<u64, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let sql = "DELETE FROM logins WHERE expires_at <= $1";
    execute(pool, sql, vec![clock.now().utc.into()]).await
}

pub(crate) async fn user_defaults<DB>(
    pool: &Pool<DB>,
    username: &str,
) -> Result<Option<String>, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let sql = "SELECT config FROM user_defaults WHERE username = $1";
    let rows = fetch(pool, sql, vec![username.into()]).await?;
    rows.first()
        .map(|row| row.text(0))
        .transpose()
        .map_err(database)
}

pub(crate) async fn set_user_defaults<DB>(
    pool: &Pool<DB>,
    clock: &Clock,
    username: &str,
    config_json: &str,
) -> Result<(), LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let sql = "INSERT INTO user_defaults (username, config, updated_at) VALUES ($1, $2, $3) \
               ON CONFLICT (username) DO UPDATE SET config = excluded.config, \
               updated_at = excluded.updated_at";
    let args = vec![username.into(), config_json.into(), clock.now().utc.into()];
    execute(pool, sql, args).await.map(drop)
}
