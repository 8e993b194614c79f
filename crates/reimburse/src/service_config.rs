//! The service configuration file (TOML): project-wide session defaults and limits.

use anyhow::Context;
use domain::{Password, SessionConfig};
use http_api::BodyLimits;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Environment variable holding the project-wide finance password: it is kept out of the
/// configuration file so that no file of the service holds it in clear.
pub const DEFAULT_PASSWORD_ENV: &str = "REIMBURSE_DEFAULT_PASSWORD";

/// `reimburse.toml`. Every section and field is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServiceConfig {
    /// Fallback of GET /api/config and of processing when a session has no config.json yet.
    pub defaults: Defaults,
    pub upload: Upload,
    pub document: Document,
    pub finance: Finance,
    pub llm: Llm,
    pub server: Server,
    pub database: Database,
    pub auth: Auth,
}

/// Who may use the service (docs/auth.md).
#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Auth {
    /// `none` (one person on their own machine), `proxy` (the institution's single sign-on in
    /// the reverse proxy names the user in a header) or `local` (accounts kept by the service).
    pub mode: String,
    /// `proxy`: the proxy's addresses or networks; the identity headers from anyone else are
    /// refused.
    pub proxy_addresses: Vec<String>,
    pub user_header: String,
    /// Empty: no display name header.
    pub name_header: String,
    /// Empty: no groups header.
    pub groups_header: String,
    /// The group (proxy) that gives the `finance` role.
    pub finance_group: String,
    /// `local`: how long a sign-in lasts.
    pub login_hours: u64,
    /// How long the phone's upload link (the QR code) works.
    pub upload_link_secs: u64,
    /// Mark the sign-in cookie `Secure`; default: when `[server] public_url` is https.
    pub secure_cookie: Option<bool>,
}

impl Default for Auth {
    fn default() -> Self {
        let headers = http_api::ProxyHeaders::default();
        Auth {
            mode: "none".into(),
            proxy_addresses: Vec::new(),
            user_header: headers.user,
            name_header: headers.name.unwrap_or_default(),
            groups_header: headers.groups.unwrap_or_default(),
            finance_group: headers.finance_group,
            login_hours: 12,
            upload_link_secs: 1800,
            secure_cookie: None,
        }
    }
}

impl Auth {
    /// The HTTP shell's settings; a proxy mode without proxy addresses is refused.
    pub fn settings(&self, public_url: &str) -> anyhow::Result<http_api::AuthSettings> {
        let mode: auth::AuthMode = self.mode.parse()?;
        let trusted = auth::TrustedProxies::parse(&self.proxy_addresses)?;
        if mode == auth::AuthMode::Proxy && trusted.is_empty() {
            anyhow::bail!(
                "[auth] mode = \"proxy\" needs proxy_addresses: the reverse proxy's address"
            );
        }
        let given = |text: &str| Some(text.trim().to_owned()).filter(|t| !t.is_empty());
        let proxy = http_api::ProxyHeaders {
            trusted,
            user: given(&self.user_header).unwrap_or_else(|| "X-Remote-User".into()),
            name: given(&self.name_header),
            groups: given(&self.groups_header),
            finance_group: self.finance_group.trim().to_owned(),
        };
        // The throttle and the upload-token key are the service's own, not configured.
        let mut settings = http_api::AuthSettings::default();
        settings.mode = mode;
        settings.proxy = proxy;
        settings.login_ttl = Duration::from_secs(self.login_hours.max(1) * 3600);
        settings.upload_ttl = Duration::from_secs(self.upload_link_secs.max(1));
        settings.secure_cookie = self
            .secure_cookie
            .unwrap_or_else(|| public_url.trim().starts_with("https://"));
        Ok(settings)
    }
}

/// Where the claims ledger lives.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Database {
    /// `postgres://user:pass@host/db` for several instances sharing one ledger, or
    /// `sqlite:///path/ledger.sqlite3`; empty: `ledger.sqlite3` in the data dir.
    /// `REIMBURSE_DATABASE_URL` overrides it (a password stays out of the file).
    pub url: String,
}

/// How the service is reached.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Server {
    /// Host names (DNS names the office uses for this machine) accepted in the Host header
    /// besides IP addresses and localhost; anything else is refused (DNS rebinding).
    pub allowed_hosts: Vec<String>,
    /// The address phones open (e.g. `https://bx.example.edu.cn` behind a proxy); empty: this
    /// machine's LAN address when the service listens beyond loopback.
    pub public_url: String,
}

/// An optional OpenAI-compatible language model (see docs/llm.md). Without `base_url` the
/// service reads screenshots with offline OCR.
#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Llm {
    pub base_url: String,
    /// Name of the environment variable holding the API key (the key is never in a file).
    pub api_key_env: String,
    pub text_model: String,
    pub vision_model: String,
    pub timeout_secs: u64,
}

impl Default for Llm {
    fn default() -> Self {
        Self {
            base_url: String::new(),
            api_key_env: "REIMBURSE_LLM_API_KEY".to_owned(),
            text_model: String::new(),
            vision_model: String::new(),
            timeout_secs: 120,
        }
    }
}

impl Llm {
    /// The client, or `None` when no model is configured.
    pub fn client(&self) -> anyhow::Result<Option<llm::Client>> {
        if self.base_url.trim().is_empty() {
            return Ok(None);
        }
        let key = llm::Secret::from_env(&self.api_key_env);
        let vision = Some(self.vision_model.as_str()).filter(|m| !m.trim().is_empty());
        let config = llm::LlmConfig::from_parts(
            &self.base_url,
            key,
            &self.text_model,
            vision,
            self.timeout_secs,
        )
        .map_err(|e| anyhow::anyhow!("[llm] {e}"))?;
        Ok(Some(
            llm::Client::new(config).map_err(|e| anyhow::anyhow!("[llm] {e}"))?,
        ))
    }
}

/// The finance system and how to reach it with a browser.
#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Finance {
    /// The portal's flow file (TOML, see docs/flows.md).
    pub flow: PathBuf,
    /// The portal's address; empty: the built-in demo portal when it runs, else the flow's own.
    pub base_url: String,
    /// A remote WebDriver (e.g. a Selenium Grid); empty: start the local chromedriver.
    pub webdriver_url: String,
    pub chromedriver: PathBuf,
    pub chromium: PathBuf,
    /// Longest a single step may wait for the portal.
    pub step_timeout_secs: u64,
    /// Browsers running at once; further submissions wait their turn. 0: fitted to the
    /// machine (one per core, half a GiB of available memory each, at most 4).
    pub max_browsers: usize,
}

impl Default for Finance {
    fn default() -> Self {
        Self {
            flow: PathBuf::from("flows/demo-portal.toml"),
            base_url: String::new(),
            webdriver_url: String::new(),
            chromedriver: PathBuf::from("/usr/bin/chromedriver"),
            chromium: PathBuf::from("/usr/bin/chromium"),
            step_timeout_secs: 20,
            max_browsers: 0,
        }
    }
}

/// The outbound-stock document and the printed claim.
#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Document {
    /// The Word template (.docx); relative paths are taken from the working directory.
    pub template: PathBuf,
    /// `auto` (a warm LibreOffice when python3-uno is installed), `warm` or `cold`.
    pub convert_mode: String,
    /// The printed claim's Typst template (docs/print-template.md); unset for the shipped one.
    pub package_template: Option<PathBuf>,
    /// The institution's name printed above the claim's title.
    pub institution: String,
}

impl Default for Document {
    fn default() -> Self {
        Self {
            template: PathBuf::from(docgen::DEFAULT_TEMPLATE),
            convert_mode: "auto".to_owned(),
            package_template: None,
            institution: String::new(),
        }
    }
}

impl Document {
    pub fn convert_mode(&self) -> anyhow::Result<docgen::ConvertMode> {
        match self.convert_mode.as_str() {
            "auto" => Ok(docgen::ConvertMode::Auto),
            "warm" => Ok(docgen::ConvertMode::Warm),
            "cold" => Ok(docgen::ConvertMode::Cold),
            other => {
                anyhow::bail!("[document] convert_mode must be auto, warm or cold, not `{other}`")
            }
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Defaults {
    pub username: String,
    pub default_name: String,
    pub default_card_no: String,
    pub default_person_id: String,
    pub consumable_storage: String,
}

/// Uploads and, for the time limits and the count per address, every request body.
#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Upload {
    pub max_file_mib: u64,
    /// Most bodies one client address may be sending at once; past it 429.
    pub max_concurrent_per_address: usize,
    /// Every request body may take this many seconds, plus its declared length at
    /// `min_rate_kib_per_sec`; past that it is cut off with 408.
    pub deadline_base_secs: u64,
    pub min_rate_kib_per_sec: u64,
}

impl Default for Upload {
    fn default() -> Self {
        let bodies = BodyLimits::default();
        Self {
            max_file_mib: 50,
            max_concurrent_per_address: bodies.per_address,
            deadline_base_secs: bodies.deadline_base.as_secs(),
            min_rate_kib_per_sec: bodies.min_rate_kib,
        }
    }
}

impl Upload {
    /// The time limits of request bodies.
    pub fn body_limits(&self) -> BodyLimits {
        BodyLimits {
            deadline_base: Duration::from_secs(self.deadline_base_secs),
            min_rate_kib: self.min_rate_kib_per_sec,
            per_address: self.max_concurrent_per_address,
        }
    }
}

impl ServiceConfig {
    /// Loads the file named by `--config`, else `<data-dir>/reimburse.toml` when present,
    /// else the built-in defaults.
    pub fn load(
        explicit: Option<&Path>,
        data_dir: &Path,
    ) -> anyhow::Result<(Self, Option<PathBuf>)> {
        let path = match explicit {
            Some(path) => Some(path.to_path_buf()),
            None => Some(data_dir.join("reimburse.toml")).filter(|p| p.is_file()),
        };
        let Some(path) = path else {
            return Ok((Self::default(), None));
        };
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read configuration file {}", path.display()))?;
        let config = toml::from_str(&text)
            .with_context(|| format!("invalid configuration file {}", path.display()))?;
        Ok((config, Some(path)))
    }

    /// The project-wide session configuration.
    pub fn session_defaults(&self, password: Option<String>) -> SessionConfig {
        SessionConfig {
            username: self.defaults.username.clone(),
            password: Password::new(password.unwrap_or_default()),
            default_name: self.defaults.default_name.clone(),
            default_card_no: self.defaults.default_card_no.clone(),
            default_person_id: self.defaults.default_person_id.clone(),
            consumable_storage: self.defaults.consumable_storage.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_example() {
        let config: ServiceConfig = toml::from_str(
            r#"
            [defaults]
            username = "100234"
            default_name = "张三"
            consumable_storage = "实验楼 301"
            [upload]
            max_file_mib = 20
            max_concurrent_per_address = 4
            deadline_base_secs = 30
            min_rate_kib_per_sec = 8
            [document]
            template = "/srv/forms/出库单.docx"
            convert_mode = "cold"
            package_template = "/srv/forms/报销材料.typ"
            institution = "示例大学"
            [finance]
            flow = "flows/my-university.toml"
            base_url = "https://cw.example.edu.cn"
            webdriver_url = "http://grid:4444"
            "#,
        )
        .unwrap();
        assert_eq!(config.upload.max_file_mib, 20);
        assert_eq!(
            config.upload.body_limits(),
            BodyLimits {
                deadline_base: Duration::from_secs(30),
                min_rate_kib: 8,
                per_address: 4,
            }
        );
        assert_eq!(
            config.document.template,
            PathBuf::from("/srv/forms/出库单.docx")
        );
        assert_eq!(
            config.document.convert_mode().unwrap(),
            docgen::ConvertMode::Cold
        );
        assert_eq!(
            config.document.package_template,
            Some(PathBuf::from("/srv/forms/报销材料.typ"))
        );
        assert_eq!(config.document.institution, "示例大学");
        let defaults = config.session_defaults(Some("pw".into()));
        assert_eq!(defaults.default_name, "张三");
        assert_eq!(defaults.password.expose(), "pw");
    }

    #[test]
    fn unknown_keys_are_refused() {
        assert!(toml::from_str::<ServiceConfig>("[defaults]\npassword = \"x\"").is_err());
    }

    #[test]
    fn missing_file_gives_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let (config, path) = ServiceConfig::load(None, dir.path()).unwrap();
        assert!(path.is_none());
        assert_eq!(config.upload.max_file_mib, 50);
        assert_eq!(config.upload.body_limits(), BodyLimits::default());
        assert!(ServiceConfig::load(Some(&dir.path().join("absent.toml")), dir.path()).is_err());
    }
}
