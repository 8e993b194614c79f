//! Runs the demo portal alone: `demo-portal [ADDR] [CLAIMS_DIR]`, by default on 127.0.0.1:8090
//! with claims in memory only.

use reimburse_demo_portal::{DEMO_EMPLOYEE_NO, DEMO_PASSWORD, PortalConfig};
use std::net::TcpListener;
use std::path::PathBuf;

const DEFAULT_ADDR: &str = "127.0.0.1:8090";

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| DEFAULT_ADDR.to_owned());
    let config = PortalConfig {
        claims_dir: args.next().map(PathBuf::from),
        ..PortalConfig::default()
    };
    let listener = TcpListener::bind(&addr)?;
    eprintln!(
        "demo portal on http://{} (工号 {DEMO_EMPLOYEE_NO}, 密码 {DEMO_PASSWORD})",
        listener.local_addr()?
    );
    reimburse_demo_portal::serve(listener, config)?.await
}
