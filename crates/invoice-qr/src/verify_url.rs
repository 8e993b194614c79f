//! QR codes that are verification addresses instead of the national `01,…` payload: each
//! reader knows one issuer's address and which invoice fields its path or query carries. A
//! field the address does not carry stays empty (the amount's kind says it includes tax).

use crate::payload::{InvoiceQr, is_digits, parse_cents};

/// The kind given to a payload read from an address: not a national type code, and its
/// amount (where carried) is the total with tax.
pub const URL_KIND: &str = "url";

/// The address's path and its query's `key=value` pairs.
type ReadAddress = fn(path: &str, query: &[(&str, &str)]) -> Option<Fields>;

/// One issuer's address: the host it is served from and how to read it.
struct Reader {
    host: &'static str,
    read: ReadAddress,
}

/// What an address states.
#[derive(Debug, Default)]
struct Fields {
    code: Option<String>,
    number: String,
    /// Fen.
    amount_fen: Option<i64>,
    check_code: Option<String>,
}

const READERS: &[Reader] = &[
    // 深圳电子普通发票 (blockchain): `…/verify/scan?hash=…&bill_num=<8 digits>&total_amount=<fen>`.
    Reader {
        host: "bcfp.shenzhen.chinatax.gov.cn",
        read: |_, query| {
            let number = value(query, "bill_num").filter(|n| is_digits(n, 6, 20))?;
            let amount_fen = value(query, "total_amount").and_then(|a| a.parse::<i64>().ok());
            Some(Fields {
                number: number.to_owned(),
                amount_fen,
                ..Fields::default()
            })
        },
    },
    // 江苏 财政电子票据: `…/page/<票据代码>/<票据号码>/<校验码>`.
    Reader {
        host: "einvoice.jsczt.cn",
        read: |path, _| {
            let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
            let [.., code, number, check] = parts.as_slice() else {
                return None;
            };
            (is_digits(code, 6, 20) && is_digits(number, 6, 20)).then(|| Fields {
                code: Some((*code).to_owned()),
                number: (*number).to_owned(),
                check_code: Some((*check).to_owned()).filter(|c| {
                    !c.is_empty() && c.len() <= 32 && c.chars().all(|ch| ch.is_ascii_alphanumeric())
                }),
                ..Fields::default()
            })
        },
    },
];

fn value<'a>(query: &[(&str, &'a str)], key: &str) -> Option<&'a str> {
    query.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

/// Reads a verification address one of [`READERS`] knows.
pub(crate) fn parse(text: &str) -> Option<InvoiceQr> {
    let text = text.trim();
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))?;
    let (host, path_query) = rest.split_once('/').unwrap_or((rest, ""));
    let (path, query) = path_query.split_once('?').unwrap_or((path_query, ""));
    let pairs: Vec<(&str, &str)> = query.split('&').filter_map(|p| p.split_once('=')).collect();
    let host = host.to_ascii_lowercase();
    let reader = READERS.iter().find(|r| host == r.host)?;
    let fields = (reader.read)(path, &pairs)?;
    let amount = match fields.amount_fen {
        Some(fen) if fen >= 0 => format!("{}.{:02}", fen / 100, fen % 100),
        _ => String::new(),
    };
    // What the amount says is checked like the payload's.
    if !amount.is_empty() && parse_cents(&amount).is_none() {
        return None;
    }
    Some(InvoiceQr {
        raw: text.to_owned(),
        kind: URL_KIND.to_owned(),
        code: fields.code,
        number: fields.number,
        amount,
        date: String::new(),
        check_code: fields.check_code,
        crc: String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shenzhen_blockchain_address() {
        let qr = parse(
            "https://bcfp.shenzhen.chinatax.gov.cn/verify/scan?hash=00a1b2c3&bill_num=01234567&total_amount=12850",
        )
        .unwrap();
        assert_eq!(
            (qr.number.as_str(), qr.amount.as_str()),
            ("01234567", "128.50")
        );
        assert_eq!((qr.kind.as_str(), qr.date.as_str()), (URL_KIND, ""));
        assert!(!qr.amount_is_pre_tax());
    }

    #[test]
    fn jiangsu_receipt_address() {
        let qr = parse("http://einvoice.jsczt.cn/page/32020124/0007445174/RolVjv").unwrap();
        assert_eq!(qr.code.as_deref(), Some("32020124"));
        assert_eq!(qr.number, "0007445174");
        assert_eq!(qr.check_code.as_deref(), Some("RolVjv"));
        assert_eq!(qr.amount, "");
    }

    #[test]
    fn other_addresses_are_not_invoices() {
        assert!(parse("https://example.com/verify/scan?bill_num=01234567").is_none());
        assert!(parse("https://bcfp.shenzhen.chinatax.gov.cn/verify/scan?hash=1").is_none());
        assert!(parse("01,10,,1,2,20240101,,").is_none());
    }
}
