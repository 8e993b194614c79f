//! Command-line interface: flags, environment variables and help text.

use clap::{Args, Parser, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;

/// Files expense reimbursements: extracts invoices, reads payment screenshots, fills the
/// outbound-stock document and submits claims to the finance system.
#[derive(Debug, Parser)]
#[command(name = "reimburse", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP service.
    Serve(ServeArgs),
    /// Extract invoices from files (PDF, OFD, XML) and print one JSON line per file.
    Extract(ExtractArgs),
    /// Read payment screenshots and print one JSON line per image (the configured language
    /// model when there is one, else offline OCR).
    Recognize(RecognizeArgs),
    /// Work with finance-system flow files (docs/flows.md).
    #[command(subcommand)]
    Flow(FlowCommand),
    /// Manage the service's own accounts (`[auth] mode = "local"`). A password is read from
    /// REIMBURSE_USER_PASSWORD, else asked on the terminal.
    User(UserArgs),
}

#[derive(Debug, Args)]
pub struct UserArgs {
    /// Directory holding the service's data (the ledger database with the accounts).
    #[arg(
        long,
        env = "REIMBURSE_DATA_DIR",
        default_value = "data",
        global = true
    )]
    pub data_dir: PathBuf,

    /// Service configuration file (TOML), for `[database] url`.
    #[arg(long, env = "REIMBURSE_CONFIG", global = true)]
    pub config: Option<PathBuf>,

    #[command(subcommand)]
    pub command: UserCommand,
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create an account.
    Add {
        username: String,
        /// The name shown on the page (default: the username).
        #[arg(long)]
        name: Option<String>,
        /// Give the `finance` role: the whole ledger, its export, voiding and the audit trail.
        #[arg(long)]
        finance: bool,
    },
    /// Set a new password (signs the user out everywhere).
    Passwd { username: String },
    /// Disable an account (signs the user out everywhere).
    Disable { username: String },
    /// Enable a disabled account.
    Enable { username: String },
    /// Give or take the `finance` role.
    Role {
        username: String,
        /// `staff` or `finance`.
        role: String,
    },
    /// List the accounts (never a password or its hash).
    List,
}

#[derive(Debug, Subcommand)]
pub enum FlowCommand {
    /// Check a flow file without submitting anything: misspelt keys, unknown actions,
    /// variables and filters, empty selectors and missing flows, each with its line.
    Check {
        /// The flow file (TOML).
        file: PathBuf,
    },
    /// Run a flow against the portal with a sample claim up to, not including, its final
    /// submit (the step marked `final_submit`, else the last click), saving a screenshot of
    /// every step. A captcha is shown as a picture in the folder and asked on the terminal.
    Try(TryArgs),
}

#[derive(Debug, Args)]
pub struct TryArgs {
    /// The flow file (TOML).
    pub file: PathBuf,

    /// The portal's address, overriding the flow's `[portal] base_url`.
    #[arg(long)]
    pub base_url: Option<String>,

    /// Which of the flow's claims to try.
    #[arg(long, value_parser = ["general", "travel"], default_value = "general")]
    pub kind: String,

    /// The finance system's 工号 (a test account).
    #[arg(long)]
    pub username: String,

    /// Its password; from the environment so it stays out of the shell's history.
    #[arg(long, env = "REIMBURSE_FINANCE_PASSWORD", hide_env_values = true)]
    pub password: String,

    /// Folder for the screenshots (created); default `flow-try-<time>` here.
    #[arg(long)]
    pub out: Option<PathBuf>,

    /// Show the browser window (needs a display) instead of running headless.
    #[arg(long)]
    pub headed: bool,

    /// Seconds each step may take.
    #[arg(long, default_value_t = 15)]
    pub step_timeout: u64,

    /// Chromium and chromedriver to use.
    #[arg(long, default_value = "/usr/bin/chromium")]
    pub chromium: PathBuf,
    #[arg(long, default_value = "/usr/bin/chromedriver")]
    pub chromedriver: PathBuf,
}

#[derive(Debug, Args)]
pub struct RecognizeArgs {
    /// Screenshot images (PNG, JPEG, BMP, WebP).
    #[arg(required = true)]
    pub files: Vec<std::path::PathBuf>,

    /// Service configuration file whose `[llm]` section names the model.
    #[arg(long, env = "REIMBURSE_CONFIG")]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// Invoice files.
    #[arg(required = true)]
    pub files: Vec<std::path::PathBuf>,

    /// Write the 13-column CSV (UTF-8 with BOM, as invoice_summary.csv) instead of JSON lines.
    #[arg(long)]
    pub csv: bool,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "REIMBURSE_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,

    /// Directory holding the sessions and the secret key (created when absent).
    #[arg(long, env = "REIMBURSE_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,

    /// Service configuration file (TOML). Default: <data-dir>/reimburse.toml when it exists.
    #[arg(long, env = "REIMBURSE_CONFIG")]
    pub config: Option<PathBuf>,

    /// Largest accepted upload in MiB (overrides the configuration file; default 50).
    #[arg(long, env = "REIMBURSE_MAX_UPLOAD_MIB")]
    pub max_upload_mib: Option<u64>,

    /// Seconds after which an SSE stream is closed.
    #[arg(long, env = "REIMBURSE_SSE_TIMEOUT_SECS", default_value_t = 900)]
    pub sse_timeout_secs: u64,

    /// HTTP worker threads (default: one per CPU core).
    #[arg(long, env = "REIMBURSE_WORKERS")]
    pub workers: Option<usize>,

    /// Address of the built-in demo finance portal (the embedded default finance system).
    #[arg(long, env = "REIMBURSE_PORTAL_ADDR", default_value = "127.0.0.1:8090")]
    pub portal_addr: SocketAddr,

    /// Do not start the demo finance portal (when a real finance system is configured).
    #[arg(long, env = "REIMBURSE_NO_PORTAL")]
    pub no_portal: bool,
}
