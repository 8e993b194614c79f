//! Starting a portal per test and speaking to it as a browser would: one cookie jar of a single
//! `JSESSIONID`, redirects not followed so tests see them.

#![allow(
    dead_code,
    clippy::unwrap_used,
    reason = "test harness: each test file uses a part of it, and a failed step aborts the test"
)]

use std::net::TcpListener;
use std::time::Duration;

use reimburse_campus_portal::{CampusConfig, CampusThread};
use reqwest::header::{COOKIE, SET_COOKIE};
use reqwest::multipart::{Form, Part};

/// The test configuration with numbers fixed to 2026 and the department list answered at once.
pub fn config() -> CampusConfig {
    CampusConfig {
        claim_year: Some(2026),
        departments_delay: Duration::ZERO,
        ..CampusConfig::default()
    }
}

pub fn start(config: CampusConfig) -> CampusThread {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    reimburse_campus_portal::spawn(listener, config).unwrap()
}

/// A browser's view of the portal: its session cookie, once the server set one.
pub struct Browser {
    pub base: String,
    pub http: reqwest::Client,
    pub session: Option<String>,
}

impl Browser {
    pub fn new(portal: &CampusThread) -> Self {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Self {
            base: portal.base_url().to_owned(),
            http,
            session: None,
        }
    }

    fn keep_cookie(&mut self, response: &reqwest::Response) {
        for value in response.headers().get_all(SET_COOKIE) {
            let text = value.to_str().unwrap();
            if let Some(rest) = text.strip_prefix("JSESSIONID=") {
                self.session = Some(rest.split(';').next().unwrap().to_owned());
            }
        }
    }

    fn with_cookie(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.session {
            Some(id) => request.header(COOKIE, format!("JSESSIONID={id}")),
            None => request,
        }
    }

    pub async fn get(&mut self, path: &str) -> reqwest::Response {
        let request = self.with_cookie(self.http.get(format!("{}{path}", self.base)));
        let response = request.send().await.unwrap();
        self.keep_cookie(&response);
        response
    }

    pub async fn text(&mut self, path: &str) -> String {
        self.get(path).await.text().await.unwrap()
    }

    /// The login page and its captcha image, as a page load fetches them; returns the code the
    /// test hook says the image shows.
    pub async fn load_login(&mut self) -> String {
        assert_eq!(self.get("/").await.status(), 200);
        let image = self.get("/captcha.png?t=1").await;
        assert_eq!(image.headers()["content-type"], "image/png");
        let session = self.session.clone().unwrap();
        self.text(&format!("/test/captcha?session={session}")).await
    }

    pub async fn post_login(
        &mut self,
        user: &str,
        password: &str,
        captcha: &str,
    ) -> reqwest::Response {
        let form = [
            ("userId", user),
            ("password", password),
            ("captcha", captcha),
        ];
        let request = self.with_cookie(self.http.post(format!("{}/login", self.base)).form(&form));
        let response = request.send().await.unwrap();
        self.keep_cookie(&response);
        response
    }

    /// Logs in as the default account.
    pub async fn log_in(&mut self) {
        let code = self.load_login().await;
        let response = self.post_login("200001", "campus123", &code).await;
        assert_eq!(response.status(), 302);
        assert_eq!(response.headers()["location"], "/main");
    }

    /// Posts a claim form; returns the JSON answer.
    pub async fn submit(&mut self, path: &str, form: Form) -> serde_json::Value {
        let request = self.with_cookie(self.http.post(format!("{}{path}", self.base)));
        let response = request.multipart(form).send().await.unwrap();
        response.json().await.unwrap()
    }
}

/// A minimal file that passes the PDF check.
pub const PDF: &[u8] = b"%PDF-1.7\n%test invoice\n";

/// A daily claim form with one row per `(invoice_no, amount)`, department 0101, and `PDF`
/// attached as `发票1.pdf`.
pub fn daily_form(rows: &[(&str, &str)]) -> Form {
    let mut form = Form::new()
        .text("applicant", "李四")
        .text("staff_no", "200001")
        .text("dept", "0101")
        .text("reason", "购买实验耗材")
        .text("claim_date", "2026-03-10");
    for (number, amount) in rows {
        form = form
            .text("inv_no[]", (*number).to_owned())
            .text("inv_date[]", "2026-03-01")
            .text("item[]", "实验耗材")
            .text("amount[]", (*amount).to_owned())
            .text("seller[]", "某某科技有限公司");
    }
    form.part("files", pdf_part("发票1.pdf"))
}

pub fn pdf_part(name: &str) -> Part {
    Part::bytes(PDF.to_vec())
        .file_name(name.to_owned())
        .mime_str("application/pdf")
        .unwrap()
}
