//! Dates and times as printed (`2025年03月11日`, `2024年 03月7日`, `2025-03-11`, `20250311`)
//! to `YYYY/MM/DD` and `HH:MM`.

/// Parses the first date in `s`, ignoring whitespace. Returns `YYYY/MM/DD`.
pub(crate) fn parse_date(s: &str) -> Option<String> {
    let chars: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    let mut i = 0;
    while i < chars.len() {
        if chars.get(i).is_some_and(char::is_ascii_digit)
            && (i == 0 || !chars.get(i - 1).is_some_and(char::is_ascii_digit))
            && let Some(date) = date_at(&chars, i)
        {
            return Some(date);
        }
        i += 1;
    }
    None
}

/// A date starting exactly at `start`: `Y年M月D日`, `Y-M-D`, `Y/M/D`, `Y.M.D` or `YYYYMMDD`.
fn date_at(chars: &[char], start: usize) -> Option<String> {
    let (year, mut i) = digits(chars, start, 4)?;
    if i - start == 8 && year.len() == 8 {
        let (y, rest) = year.split_at(4);
        let (m, d) = rest.split_at(2);
        return assemble(y, m, d);
    }
    if year.len() != 4 {
        return None;
    }
    let sep = *chars.get(i)?;
    let second_sep = match sep {
        '年' => '月',
        '-' | '/' | '.' => sep,
        _ => return None,
    };
    i += 1;
    let (month, next) = digits(chars, i, 2)?;
    i = next;
    if chars.get(i) != Some(&second_sep) {
        return None;
    }
    i += 1;
    // The day may run into a time when whitespace was dropped (`2025-08-0812:06`).
    let day: String = chars
        .get(i..)?
        .iter()
        .take(2)
        .take_while(|c| c.is_ascii_digit())
        .collect();
    if day.is_empty() {
        return None;
    }
    assemble(&year, &month, &day)
}

/// Up to `max` digits from `start` (8 allowed when `max` is 4, for `YYYYMMDD`).
fn digits(chars: &[char], start: usize, max: usize) -> Option<(String, usize)> {
    let mut out = String::new();
    let mut i = start;
    while let Some(c) = chars.get(i).filter(|c| c.is_ascii_digit()) {
        out.push(*c);
        i += 1;
    }
    let ok = !out.is_empty() && (out.len() <= max || (max == 4 && out.len() == 8));
    ok.then_some((out, i))
}

fn assemble(y: &str, m: &str, d: &str) -> Option<String> {
    let year: u32 = y.parse().ok()?;
    let month: u32 = m.parse().ok()?;
    let day: u32 = d.parse().ok()?;
    let valid =
        (1990..=2200).contains(&year) && (1..=12).contains(&month) && (1..=31).contains(&day);
    valid.then(|| format!("{year:04}/{month:02}/{day:02}"))
}

/// `YYYY/MM/DD` as `YYYYMMDD`, the QR code's form.
pub(crate) fn to_compact(date: &str) -> String {
    date.chars().filter(char::is_ascii_digit).collect()
}

/// The first `H:MM` / `HH:MM` time in `s`, as `HH:MM`.
pub(crate) fn parse_time(s: &str) -> Option<String> {
    let chars: Vec<char> = s.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if *c != ':' {
            continue;
        }
        let (Some(before), Some(after)) =
            (chars.get(i.saturating_sub(2)..i), chars.get(i + 1..i + 3))
        else {
            continue;
        };
        let h: String = before.iter().filter(|c| c.is_ascii_digit()).collect();
        let m: String = after.iter().collect();
        if h.is_empty() || m.len() != 2 || !m.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let (hour, minute): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
        if hour < 24 && minute < 60 {
            return Some(format!("{hour:02}:{minute:02}"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_dates() {
        assert_eq!(parse_date("2025年03月11日").as_deref(), Some("2025/03/11"));
        assert_eq!(parse_date("2024年 03月07日").as_deref(), Some("2024/03/07"));
        assert_eq!(parse_date("2019 年07月20日").as_deref(), Some("2019/07/20"));
        assert_eq!(parse_date("2022年12月8日").as_deref(), Some("2022/12/08"));
        assert_eq!(
            parse_date(":2025年02月20日16:32开").as_deref(),
            Some("2025/02/20")
        );
    }

    #[test]
    fn numeric_dates() {
        assert_eq!(parse_date("2025-03-03").as_deref(), Some("2025/03/03"));
        assert_eq!(parse_date("2025/3/3").as_deref(), Some("2025/03/03"));
        assert_eq!(parse_date("20250311").as_deref(), Some("2025/03/11"));
        assert_eq!(
            parse_date("2025-08-08 12:06:33").as_deref(),
            Some("2025/08/08")
        );
    }

    #[test]
    fn rejects_non_dates() {
        assert_eq!(parse_date("2025年13月01日"), None);
        assert_eq!(parse_date("12345678901"), None);
        assert_eq!(parse_date("价税合计"), None);
        assert_eq!(parse_date(""), None);
    }

    #[test]
    fn times_and_compact_form() {
        assert_eq!(parse_time("16:32开").as_deref(), Some("16:32"));
        assert_eq!(parse_time("8:05").as_deref(), Some("08:05"));
        assert_eq!(parse_time("25:00"), None);
        assert_eq!(to_compact("2025/03/11"), "20250311");
    }
}
