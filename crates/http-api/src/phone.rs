//! The address a phone opens to upload into a session. The desktop page is often opened on the
//! machine itself (`127.0.0.1`), an address no phone can reach; so the phone gets, in order: the
//! configured public address (`[server] public_url`, for a service behind a proxy or a DNS
//! name), else, when the service listens beyond loopback, this machine's LAN address, else the
//! address the desktop used. Forwarded host headers never count (anyone can send them).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// Where a phone is sent, and a sentence for the person about it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub(crate) struct PhoneAddress {
    /// The phone page's address, `…/mobile/<id>`.
    pub url: String,
    /// Whether a phone on the network can open it (false: the service listens on loopback).
    pub reachable: bool,
    /// What the page tells the person.
    pub note: String,
    /// Seconds the link works (sign-in on: it carries an upload token), else absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_in: Option<u64>,
}

/// How the service is reached, as `phone_address` needs it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Reach {
    /// The address the server listens on.
    pub listen: Option<SocketAddr>,
    /// `[server] public_url`, without a trailing slash.
    pub public_url: Option<String>,
}

/// The phone page's address for session `id`, the desktop having used `checked_host` (the Host
/// the origin check accepted). `lan` finds this machine's LAN address.
pub(crate) fn phone_address(
    reach: &Reach,
    checked_host: &str,
    id: &str,
    lan: impl FnOnce() -> Option<Ipv4Addr>,
) -> PhoneAddress {
    if let Some(base) = &reach.public_url {
        return PhoneAddress {
            url: format!("{base}/mobile/{id}"),
            reachable: true,
            note: "手机扫码即可打开（配置的外部地址 [server] public_url）".to_owned(),
            expires_in: None,
        };
    }
    let local_page = format!("http://{checked_host}/mobile/{id}");
    if !is_loopback_host(checked_host) {
        return PhoneAddress {
            url: local_page,
            reachable: true,
            note: "手机连接与本机相同的网络后扫码上传".to_owned(),
            expires_in: None,
        };
    }
    let listen = reach.listen;
    let beyond_loopback = listen.is_some_and(|a| !a.ip().is_loopback());
    let machine = match listen.map(|a| a.ip()) {
        Some(IpAddr::V4(ip)) if !ip.is_unspecified() && !ip.is_loopback() => Some(ip),
        Some(ip) if ip.is_unspecified() => lan(),
        _ => None,
    };
    match (beyond_loopback, machine, listen) {
        (true, Some(ip), Some(listen)) => PhoneAddress {
            url: format!("http://{ip}:{}/mobile/{id}", listen.port()),
            reachable: true,
            note: format!("手机连接与本机相同的网络后扫码上传（本机局域网地址 {ip}）"),
            expires_in: None,
        },
        _ => PhoneAddress {
            url: local_page,
            reachable: false,
            note: "服务只在本机监听，手机无法打开此地址：请用 --addr 0.0.0.0:8080 启动服务，\
                   或在配置 [server] public_url 中填写手机能访问的地址"
                .to_owned(),
            expires_in: None,
        },
    }
}

/// `127.0.0.1:8080`, `localhost`, `[::1]:8080` and the like.
fn is_loopback_host(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or_default()
    } else {
        host.rsplit_once(':').map_or(host, |(name, _)| name)
    };
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// This machine's LAN address: the first local IPv4 address that is not loopback, preferring
/// the private ranges a phone on the office network shares, read from the kernel's routing
/// table (`/proc/net/fib_trie`), without sending anything anywhere.
pub(crate) fn lan_address() -> Option<Ipv4Addr> {
    let table = std::fs::read_to_string("/proc/net/fib_trie").ok()?;
    let mut found: Vec<Ipv4Addr> = Vec::new();
    let mut last: Option<Ipv4Addr> = None;
    for line in table.lines() {
        let line = line.trim();
        if let Some(address) = line.strip_prefix("|-- ") {
            last = address.trim().parse().ok();
        } else if line.ends_with("host LOCAL")
            && let Some(ip) = last
            && !ip.is_loopback()
            && !found.contains(&ip)
        {
            found.push(ip);
        }
    }
    found
        .iter()
        .find(|ip| ip.is_private())
        .or_else(|| found.first())
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reach(listen: &str) -> Reach {
        Reach {
            listen: Some(listen.parse().unwrap()),
            public_url: None,
        }
    }

    const LAN: Ipv4Addr = Ipv4Addr::new(192, 168, 1, 5);

    #[test]
    fn a_service_on_all_interfaces_opened_on_loopback_sends_the_phone_to_the_lan_address() {
        let address = phone_address(&reach("0.0.0.0:8080"), "127.0.0.1:8080", "s", || Some(LAN));
        assert_eq!(address.url, "http://192.168.1.5:8080/mobile/s");
        assert!(address.reachable && address.note.contains("192.168.1.5"));
        let address = phone_address(&reach("0.0.0.0:8080"), "localhost:8080", "s", || Some(LAN));
        assert_eq!(address.url, "http://192.168.1.5:8080/mobile/s");
    }

    #[test]
    fn the_configured_public_url_comes_first() {
        let reach = Reach {
            public_url: Some("https://bx.example.edu.cn".into()),
            ..reach("127.0.0.1:8080")
        };
        let address = phone_address(&reach, "127.0.0.1:8080", "s", || Some(LAN));
        assert_eq!(address.url, "https://bx.example.edu.cn/mobile/s");
    }

    #[test]
    fn a_lan_host_is_kept_and_loopback_only_is_said() {
        let address = phone_address(&reach("0.0.0.0:8080"), "192.168.1.9:8080", "s", || None);
        assert_eq!(address.url, "http://192.168.1.9:8080/mobile/s");
        let address = phone_address(&reach("127.0.0.1:8080"), "127.0.0.1:8080", "s", || {
            Some(LAN)
        });
        assert!(!address.reachable);
        assert_eq!(address.url, "http://127.0.0.1:8080/mobile/s");
        assert!(address.note.contains("0.0.0.0"));
    }

    #[test]
    fn loopback_hosts_are_recognised() {
        for host in [
            "127.0.0.1:8080",
            "localhost",
            "LOCALHOST:1",
            "[::1]:8080",
            "127.3.4.5",
        ] {
            assert!(is_loopback_host(host), "{host}");
        }
        for host in ["192.168.1.5:8080", "bx.example.edu.cn", "[fe80::1]:8080"] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }
}
