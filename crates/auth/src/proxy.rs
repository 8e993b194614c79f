//! Which peers may name the user in a header: the reverse proxy's addresses or networks.

use crate::AuthError;
use std::net::IpAddr;

/// A list of addresses and networks (`10.0.0.5`, `10.0.0.0/8`, `::1`, `fd00::/8`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies {
    nets: Vec<(IpAddr, u8)>,
}

impl TrustedProxies {
    /// Parses each entry; a bad one is an error naming it.
    pub fn parse<S: AsRef<str>>(entries: &[S]) -> Result<TrustedProxies, AuthError> {
        let nets = entries
            .iter()
            .map(|entry| parse_net(entry.as_ref()))
            .collect::<Result<_, _>>()?;
        Ok(TrustedProxies { nets })
    }

    /// True when `peer` is one of the entries or inside one of the networks. An IPv4 peer
    /// seen as an IPv4-mapped IPv6 address counts as its IPv4 address.
    pub fn contains(&self, peer: IpAddr) -> bool {
        let peer = peer.to_canonical();
        self.nets
            .iter()
            .any(|&(net, bits)| in_network(peer, net, bits))
    }

    /// True when no peer is trusted.
    pub fn is_empty(&self) -> bool {
        self.nets.is_empty()
    }
}

fn parse_net(entry: &str) -> Result<(IpAddr, u8), AuthError> {
    let bad = || AuthError::BadProxy(entry.to_owned());
    let (addr, bits) = match entry.trim().split_once('/') {
        Some((addr, bits)) => (addr, Some(bits.parse::<u8>().map_err(|_| bad())?)),
        None => (entry.trim(), None),
    };
    let addr: IpAddr = addr.parse().map_err(|_| bad())?;
    let max = if addr.is_ipv4() { 32 } else { 128 };
    let bits = bits.unwrap_or(max);
    if bits > max {
        return Err(bad());
    }
    Ok((addr.to_canonical(), bits))
}

fn in_network(peer: IpAddr, net: IpAddr, bits: u8) -> bool {
    match (peer, net) {
        (IpAddr::V4(p), IpAddr::V4(n)) => prefix_eq(&p.octets(), &n.octets(), bits),
        (IpAddr::V6(p), IpAddr::V6(n)) => prefix_eq(&p.octets(), &n.octets(), bits),
        _ => false,
    }
}

fn prefix_eq(a: &[u8], b: &[u8], bits: u8) -> bool {
    let full = usize::from(bits / 8);
    let rest = bits % 8;
    if a.get(..full) != b.get(..full) {
        return false;
    }
    if rest == 0 {
        return true;
    }
    let mask = 0xffu8 << (8 - rest);
    match (a.get(full), b.get(full)) {
        (Some(x), Some(y)) => x & mask == y & mask,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))
    }

    #[test]
    fn addresses_and_networks_are_matched_by_prefix() -> Result<(), AuthError> {
        let trusted =
            TrustedProxies::parse(&["127.0.0.2", "10.1.0.0/16", "172.16.0.0/12", "fd00::/8"])?;
        assert!(trusted.contains(ip("127.0.0.2")));
        assert!(!trusted.contains(ip("127.0.0.1")));
        assert!(trusted.contains(ip("10.1.200.3")));
        assert!(!trusted.contains(ip("10.2.0.1")));
        assert!(trusted.contains(ip("172.31.255.255")));
        assert!(!trusted.contains(ip("172.32.0.0")));
        assert!(trusted.contains(ip("fd12::1")));
        assert!(
            trusted.contains(ip("::ffff:127.0.0.2")),
            "an IPv4-mapped peer"
        );
        assert!(!trusted.contains(ip("::1")));
        Ok(())
    }

    #[test]
    fn bad_entries_are_named() {
        for bad in ["localhost", "10.0.0.0/33", "::/129", "1.2.3.4/x", ""] {
            let error = TrustedProxies::parse(&[bad]).err().map(|e| e.to_string());
            assert_eq!(error, Some(format!("代理地址无效：{bad}")), "{bad}");
        }
        assert!(TrustedProxies::default().is_empty());
    }
}
