//! The identity of an invoice across claims.

/// The key that guards an invoice against a second claim: for a 数电 invoice (a 20-digit
/// number, or no code at all) the number; else `code-number`. Only the digits of each part
/// count (full-width digits read as ASCII), so spaces and stray marks do not make a new key.
pub fn invoice_key(code: &str, number: &str) -> String {
    let code = digits(code);
    let number = digits(number);
    if number.len() == 20 || code.is_empty() {
        number
    } else {
        format!("{code}-{number}")
    }
}

fn digits(text: &str) -> String {
    text.trim()
        .chars()
        .filter_map(|c| match c {
            '0'..='9' => Some(c),
            '０'..='９' => char::from_u32(u32::from(c) - u32::from('０') + u32::from('0')),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::invoice_key;

    #[test]
    fn keys_of_each_kind_of_invoice() {
        assert_eq!(
            invoice_key("", "25442000000116575693"),
            "25442000000116575693"
        );
        // A 数电 number keeps no code even when a reader filled one in.
        assert_eq!(
            invoice_key("044001900111", " 25442000000116575693 "),
            "25442000000116575693"
        );
        assert_eq!(
            invoice_key("044001900111", "12345678"),
            "044001900111-12345678"
        );
        assert_eq!(
            invoice_key(" 0440 0190 0111", "No.12345678"),
            "044001900111-12345678"
        );
        assert_eq!(invoice_key("０４４", "１２３"), "044-123");
        assert_eq!(invoice_key("", ""), "");
    }
}
