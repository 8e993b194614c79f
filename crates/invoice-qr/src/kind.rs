//! The invoice type codes in the QR payload's second field: what they name
//! and whether their amount includes tax.

/// A human-readable name for a type code, for the codes we have seen on
/// real invoices; `None` for others (the raw code is always kept).
pub fn describe_kind(code: &str) -> Option<&'static str> {
    Some(match code {
        "01" => "增值税专用发票 (VAT special invoice, paper)",
        "04" => "增值税普通发票 (VAT ordinary invoice, paper)",
        "08" => "增值税电子专用发票 (VAT special e-invoice)",
        "10" => "增值税电子普通发票 (VAT ordinary e-invoice, tolls included)",
        "11" => "增值税普通发票（卷式） (VAT ordinary invoice, roll)",
        "14" => "增值税电子普通发票（通行费） (toll e-invoice)",
        "20" => "通用机打发票 (general machine-printed invoice)",
        "31" => "电子发票（增值税专用发票） (fully digital e-invoice, special)",
        "32" => "电子发票（普通发票） (fully digital e-invoice, ordinary)",
        "51" => "电子发票（铁路电子客票） (fully digital railway e-ticket)",
        "61" => "电子发票（航空运输电子客票行程单） (fully digital air itinerary)",
        _ => return None,
    })
}

/// Whether the payload's amount for this type code is the total before
/// tax (金额合计) rather than the total with tax (价税合计).
///
/// The older VAT formats (01, 04, 08, 10, 11, 14) and machine-printed
/// invoices (20) encode the pre-tax amount; the fully digital (数电) formats
/// (31, 32, 51, 61) encode the total with tax. Unknown codes follow the
/// numbering: below 30 is the older family.
pub fn amount_is_pre_tax(code: &str) -> bool {
    match code.trim().parse::<u32>() {
        Ok(n) => n < 30,
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_codes_are_described() {
        for code in ["01", "04", "08", "10", "20", "31", "32", "51", "61"] {
            assert!(describe_kind(code).is_some(), "{code}");
        }
        assert!(describe_kind("99").is_none());
    }

    #[test]
    fn pre_tax_follows_the_family() {
        for code in ["01", "04", "08", "10", "11", "14", "20"] {
            assert!(amount_is_pre_tax(code), "{code}");
        }
        for code in ["31", "32", "51", "61", "x"] {
            assert!(!amount_is_pre_tax(code), "{code}");
        }
    }
}
