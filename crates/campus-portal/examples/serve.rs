//! Runs the portal by hand, to look at it in a browser:
//! `cargo run -p reimburse-campus-portal --example serve -- 127.0.0.1:8090` (default address
//! shown), until the process is stopped. Uses the test configuration (account 200001 /
//! campus123).

use std::net::TcpListener;

fn main() -> std::io::Result<()> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8090".to_owned());
    let portal = reimburse_campus_portal::spawn(
        TcpListener::bind(address)?,
        reimburse_campus_portal::CampusConfig::default(),
    )?;
    eprintln!("campus portal at {}", portal.base_url());
    loop {
        std::thread::park();
    }
}
