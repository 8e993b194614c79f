//! Test harness: the real portal on 127.0.0.1:0, a cookie-keeping HTTP client, and valid
//! submissions to start each case from.

#![allow(
    dead_code,
    reason = "each test binary uses a different part of the harness"
)]

use reimburse_demo_portal::{PortalConfig, serve};
use reqwest::multipart::{Form, Part};
use reqwest::redirect::Policy;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::net::TcpListener;
use std::time::Duration;

pub struct Portal {
    pub base: String,
    /// Keeps cookies and follows redirects, like a browser.
    pub client: reqwest::Client,
}

pub async fn spawn() -> Portal {
    spawn_with(PortalConfig::default()).await
}

pub async fn spawn_with(config: PortalConfig) -> Portal {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = serve(listener, config).unwrap();
    tokio::spawn(server);
    Portal {
        base,
        client: browser(),
    }
}

pub fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

/// A client that shows redirects instead of following them.
pub fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(Policy::none())
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

/// A page as the browser ends up on it.
pub struct Page {
    pub status: u16,
    pub path: String,
    pub body: String,
}

impl Page {
    async fn from(response: reqwest::Response) -> Self {
        let status = response.status().as_u16();
        let url = response.url().clone();
        let path = match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_owned(),
        };
        Page {
            status,
            path,
            body: response.text().await.unwrap(),
        }
    }

    /// The text of the element with this id, up to the next tag.
    pub fn text_of(&self, id: &str) -> Option<String> {
        let start = self.body.find(&format!("id=\"{id}\""))?;
        let open_end = start + self.body[start..].find('>')? + 1;
        let close = open_end + self.body[open_end..].find('<')?;
        Some(self.body[open_end..close].to_owned())
    }
}

impl Portal {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn get(&self, path: &str) -> Page {
        Page::from(self.client.get(self.url(path)).send().await.unwrap()).await
    }

    pub async fn login_as(&self, username: &str, password: &str) -> Page {
        let response = self
            .client
            .post(self.url("/login"))
            .form(&[("username", username), ("password", password)])
            .send()
            .await
            .unwrap();
        Page::from(response).await
    }

    pub async fn login(&self) -> Page {
        let page = self.login_as("100001", "demo123").await;
        assert_eq!(page.path, "/portal/home", "{}", page.body);
        page
    }

    pub async fn submit(&self, form_path: &str, input: &Input) -> Page {
        let response = self
            .client
            .post(self.url(form_path))
            .multipart(input.form())
            .send()
            .await
            .unwrap();
        Page::from(response).await
    }

    pub async fn claims(&self) -> Vec<Value> {
        let json: Value = self
            .client
            .get(self.url("/api/claims"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        json["claims"].as_array().unwrap().clone()
    }

    pub async fn put_hooks(&self, hooks: Value) {
        let response = self
            .client
            .put(self.url("/api/hooks"))
            .json(&hooks)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
    }
}

/// A small but real-looking PDF whose bytes differ by `tag`.
pub fn pdf(tag: &str) -> Vec<u8> {
    format!(
        "%PDF-1.4\n% {tag}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
    )
    .into_bytes()
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A form submission: text fields and files, each editable before sending.
#[derive(Clone, Debug)]
pub struct Input {
    pub fields: Vec<(String, String)>,
    pub files: Vec<(String, String, Vec<u8>)>,
}

impl Input {
    pub fn set(mut self, name: &str, value: &str) -> Self {
        self.fields.retain(|(n, _)| n != name);
        self.fields.push((name.to_owned(), value.to_owned()));
        self
    }

    pub fn without_field(mut self, name: &str) -> Self {
        self.fields.retain(|(n, _)| n != name);
        self
    }

    /// Removes every field of row `index` (as if its 删除 button was clicked).
    pub fn without_row(mut self, index: u32) -> Self {
        let suffix = format!("-{index}");
        self.fields.retain(|(n, _)| !is_row_field(n, &suffix));
        self
    }

    pub fn without_files(mut self, field: &str) -> Self {
        self.files.retain(|(f, _, _)| f != field);
        self
    }

    pub fn with_file(mut self, field: &str, name: &str, bytes: Vec<u8>) -> Self {
        self.files.push((field.to_owned(), name.to_owned(), bytes));
        self
    }

    pub fn value(&self, name: &str) -> &str {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .unwrap()
    }

    pub fn form(&self) -> Form {
        let mut form = Form::new();
        for (name, value) in &self.fields {
            form = form.text(name.clone(), value.clone());
        }
        for (field, name, bytes) in &self.files {
            form = form.part(
                field.clone(),
                Part::bytes(bytes.clone()).file_name(name.clone()),
            );
        }
        form
    }
}

fn is_row_field(name: &str, suffix: &str) -> bool {
    name.strip_suffix(suffix).is_some_and(|base| {
        [
            "invoice-number",
            "invoice-date",
            "item-name",
            "amount",
            "seller-name",
            "card-date",
            "card-number",
            "card-amount",
            "expense-type",
            "date",
            "note",
        ]
        .contains(&base)
    })
}

fn fields(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .collect()
}

/// A valid 日常报销: rows numbered 0 and 2 (row 1 was deleted in the browser), two invoice PDFs
/// and an outbound-stock document.
pub fn general() -> Input {
    Input {
        fields: fields(&[
            ("claimant", "张三"),
            ("employee-no", "100001"),
            ("department", "物理学院"),
            ("purpose", "购买实验耗材 <试剂> & 枪头"),
            ("invoice-number-0", "25442000000123456789"),
            ("invoice-date-0", "2026-11-03"),
            ("item-name-0", "*实验耗材*移液枪头"),
            ("amount-0", "128.50"),
            ("seller-name-0", "广州某某生物科技有限公司"),
            ("card-date-0", "2026/11/03"),
            ("card-number-0", "6217000011112222"),
            ("card-amount-0", "128.50"),
            ("invoice-number-2", "04412345"),
            ("invoice-date-2", "2026-11-05"),
            ("item-name-2", "*纸制品*打印纸"),
            ("amount-2", "35"),
            ("seller-name-2", "某某文具店"),
            ("card-date-2", ""),
            ("card-number-2", ""),
            ("card-amount-2", ""),
        ]),
        files: vec![
            ("invoice-files".into(), "发票1.pdf".into(), pdf("one")),
            ("invoice-files".into(), "invoice-2.PDF".into(), pdf("two")),
            (
                "outbound-file".into(),
                "出库单.doc".into(),
                b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1 outbound".to_vec(),
            ),
        ],
    }
}

/// A valid 差旅报销: a train ticket, a hotel and a taxi ride without invoice number.
pub fn travel() -> Input {
    Input {
        fields: fields(&[
            ("claimant", "张三"),
            ("employee-no", "100001"),
            ("purpose", "参加学术会议"),
            ("origin", "北京"),
            ("destination", "上海"),
            ("depart-date", "2026-11-10"),
            ("return-date", "2026-11-12"),
            ("expense-type-0", "train"),
            ("invoice-number-0", "26119000000012345678"),
            ("date-0", "2026-11-10"),
            ("amount-0", "553.00"),
            ("note-0", "G1 北京南-上海虹桥 二等座"),
            ("expense-type-1", "hotel"),
            ("invoice-number-1", "31000123"),
            ("date-1", "2026-11-12"),
            ("amount-1", "900"),
            ("note-1", "2晚"),
            ("expense-type-2", "taxi"),
            ("invoice-number-2", ""),
            ("date-2", "2026-11-10"),
            ("amount-2", "46.5"),
            ("note-2", ""),
        ]),
        files: vec![
            ("attachment-files".into(), "火车票.pdf".into(), pdf("train")),
            ("attachment-files".into(), "住宿.pdf".into(), pdf("hotel")),
        ],
    }
}
