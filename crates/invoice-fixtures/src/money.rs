//! Amounts in cents and the ways invoices print them.

/// An amount of money in fen (1/100 yuan).
pub(crate) type Cents = i64;

/// `1234.50`, `-2.92`: two decimals, no grouping (the golden form of every amount).
pub(crate) fn plain(cents: Cents) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// `1,234.50`: two decimals with thousands separators, as some layouts print totals.
pub(crate) fn grouped(cents: Cents) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    let digits = (abs / 100).to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    format!("{sign}{out}.{:02}", abs % 100)
}

/// Printed either way.
pub(crate) fn printed(cents: Cents, thousands: bool) -> String {
    if thousands {
        grouped(cents)
    } else {
        plain(cents)
    }
}

/// The tax on `amount` at `percent`, rounded half away from zero as the tax system does.
pub(crate) fn tax_at(amount: Cents, percent: i64) -> Cents {
    let scaled = amount * percent;
    let rounded = (scaled.abs() + 50) / 100;
    if scaled < 0 { -rounded } else { rounded }
}

/// The unit price `amount / quantity` in yuan to 15 significant digits with trailing zeros
/// dropped, the way 数电 invoices print it (`183.168316831683`, `232.67`, `25`).
pub(crate) fn unit_price(amount: Cents, quantity: i64) -> String {
    if quantity <= 0 || amount <= 0 {
        return String::new();
    }
    let whole_digits = (amount / 100 / quantity).max(1).to_string().len() as u32;
    let decimals = 15_u32.saturating_sub(whole_digits);
    let scale = 10_i128.pow(decimals);
    // Rounded half up: amount / 100 / quantity * 10^decimals.
    let numerator = i128::from(amount) * scale;
    let denominator = i128::from(quantity) * 100;
    let value = (numerator + denominator / 2) / denominator;
    let whole = value / scale;
    let frac = format!("{:0width$}", value % scale, width = decimals as usize);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        whole.to_string()
    } else {
        format!("{whole}.{frac}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(plain(123_450), "1234.50");
        assert_eq!(plain(-292), "-2.92");
        assert_eq!(plain(5), "0.05");
        assert_eq!(grouped(123_450), "1,234.50");
        assert_eq!(grouped(123_456_789), "1,234,567.89");
        assert_eq!(grouped(99_900), "999.00");
        assert_eq!(grouped(-123_400), "-1,234.00");
    }

    #[test]
    fn taxes_and_prices() {
        assert_eq!(tax_at(14_455, 1), 145);
        assert_eq!(tax_at(-292, 13), -38);
        assert_eq!(unit_price(54_950, 3), "183.166666666667");
        assert_eq!(unit_price(9_901, 1), "99.01");
        assert_eq!(unit_price(10_000, 4), "25");
        assert_eq!(unit_price(38_053, 3), "126.843333333333");
        assert_eq!(unit_price(500, 3), "1.66666666666667");
    }
}
