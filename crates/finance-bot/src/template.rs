//! Templates in flow files: plain text with `{{namespace.key | filter | filter(arg)}}` holes,
//! parsed when the flow is loaded and rendered against one submission (and one row).

use std::fmt;

/// Variable namespaces a template may refer to.
pub const NAMESPACES: [&str; 6] = ["config", "row", "files", "claim", "portal", "person"];

/// Filters a template may apply, for error messages and the docs.
pub const FILTERS: [&str; 11] = [
    "date_dash",
    "date_slash",
    "trim",
    "upper",
    "lower",
    "digits",
    "amount",
    "last",
    "default",
    "join",
    "map",
];

/// A parsed template. Keeps its source text, which never holds a secret (secrets only come in
/// through variables), so it is what a step's description shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowTemplate {
    source: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Expr(Expr),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Expr {
    var: String,
    filters: Vec<Filter>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Filter {
    DateDash,
    DateSlash,
    Trim,
    Upper,
    Lower,
    Digits,
    Amount,
    Last(usize),
    Default(Arg),
    /// Joins the lines of a multi-line value (e.g. several paths) with a separator.
    Join(String),
    /// Translates a value to the portal's word: `map('train=城市间交通费, *=其他')`; `*` is
    /// for any other value (without it, another value is an error).
    Map(Vec<(String, String)>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Arg {
    Literal(String),
    Var(String),
}

/// One variable's value as a [`Lookup`] hands it out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Value {
    pub text: String,
    /// Set for the password: rendered text containing it is shown as `***`.
    pub secret: bool,
}

impl Value {
    pub fn plain(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            secret: false,
        }
    }

    pub fn secret(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            secret: true,
        }
    }
}

/// Where templates find their variables (`config.username`, `row.发票号码`, …).
pub trait Lookup {
    /// The value of a dotted variable path, or `None` when it is not defined.
    fn lookup(&self, path: &str) -> Option<Value>;
}

/// A rendered template: the text to type and the text to show (secrets masked).
#[derive(Clone, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    pub shown: String,
}

impl fmt::Debug for Rendered {
    // Debug output must not carry the secret either.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rendered({:?})", self.shown)
    }
}

/// A template that could not be parsed (reported when the flow file is loaded).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("模板「{source_text}」有误：{reason}")]
pub struct ParseError {
    pub source_text: String,
    pub reason: String,
}

/// A template that could not be rendered with the data at hand.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    #[error("未知变量 {0}")]
    UnknownVariable(String),
    #[error("变量 {var} 的值「{value}」无法用过滤器 {filter} 转换：{reason}")]
    Filter {
        var: String,
        filter: &'static str,
        value: String,
        reason: &'static str,
    },
}

impl FlowTemplate {
    /// Parses `source`; a string without `{{` is a literal.
    pub fn parse(source: &str) -> Result<Self, ParseError> {
        let fail = |reason: String| ParseError {
            source_text: source.to_owned(),
            reason,
        };
        let mut parts = Vec::new();
        let mut rest = source;
        while let Some(open) = rest.find("{{") {
            if open > 0 {
                parts.push(Part::Text(rest[..open].to_owned()));
            }
            let after = &rest[open + 2..];
            let close = after
                .find("}}")
                .ok_or_else(|| fail("缺少与 {{ 配对的 }}".to_owned()))?;
            parts.push(Part::Expr(parse_expr(&after[..close]).map_err(fail)?));
            rest = &after[close + 2..];
        }
        if rest.contains("}}") {
            return Err(fail("多余的 }}".to_owned()));
        }
        if !rest.is_empty() {
            parts.push(Part::Text(rest.to_owned()));
        }
        Ok(Self {
            source: source.to_owned(),
            parts,
        })
    }

    /// The text as written in the flow file.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Every variable path the template mentions, including `default(...)` fallbacks.
    pub fn variables(&self) -> Vec<&str> {
        let mut out = Vec::new();
        for part in &self.parts {
            if let Part::Expr(expr) = part {
                out.push(expr.var.as_str());
                for filter in &expr.filters {
                    if let Filter::Default(Arg::Var(var)) = filter {
                        out.push(var.as_str());
                    }
                }
            }
        }
        out
    }

    /// True when any variable of the template lives in `namespace` (e.g. `row`).
    pub fn uses_namespace(&self, namespace: &str) -> bool {
        self.variables()
            .iter()
            .any(|v| v.split('.').next() == Some(namespace))
    }

    /// Fills the holes from `vars`.
    pub(crate) fn render(&self, vars: &dyn Lookup) -> Result<Rendered, RenderError> {
        let mut text = String::new();
        let mut shown = String::new();
        for part in &self.parts {
            match part {
                Part::Text(t) => {
                    text.push_str(t);
                    shown.push_str(t);
                }
                Part::Expr(expr) => {
                    let value = expr.eval(vars)?;
                    text.push_str(&value.text);
                    shown.push_str(if value.secret { "***" } else { &value.text });
                }
            }
        }
        Ok(Rendered { text, shown })
    }
}

impl TryFrom<String> for FlowTemplate {
    type Error = ParseError;

    fn try_from(source: String) -> Result<Self, Self::Error> {
        Self::parse(&source)
    }
}

impl<'de> serde::Deserialize<'de> for FlowTemplate {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let source = String::deserialize(deserializer)?;
        Self::parse(&source).map_err(serde::de::Error::custom)
    }
}

impl Expr {
    fn eval(&self, vars: &dyn Lookup) -> Result<Value, RenderError> {
        let mut value = vars.lookup(&self.var);
        for filter in &self.filters {
            value = match (filter, value) {
                (Filter::Default(arg), current) => match current {
                    Some(v) if !v.text.is_empty() => Some(v),
                    _ => Some(match arg {
                        Arg::Literal(text) => Value::plain(text.clone()),
                        Arg::Var(var) => vars
                            .lookup(var)
                            .ok_or_else(|| RenderError::UnknownVariable(var.clone()))?,
                    }),
                },
                (_, None) => return Err(RenderError::UnknownVariable(self.var.clone())),
                (filter, Some(v)) => {
                    let text = filter.apply(&self.var, &v.text).map_err(|e| match e {
                        // The message quotes the value: never a secret one.
                        RenderError::Filter {
                            var,
                            filter,
                            reason,
                            ..
                        } if v.secret => RenderError::Filter {
                            var,
                            filter,
                            value: "***".to_owned(),
                            reason,
                        },
                        other => other,
                    })?;
                    Some(Value {
                        text,
                        secret: v.secret,
                    })
                }
            };
        }
        value.ok_or_else(|| RenderError::UnknownVariable(self.var.clone()))
    }
}

impl Filter {
    fn name(&self) -> &'static str {
        match self {
            Self::DateDash => "date_dash",
            Self::DateSlash => "date_slash",
            Self::Trim => "trim",
            Self::Upper => "upper",
            Self::Lower => "lower",
            Self::Digits => "digits",
            Self::Amount => "amount",
            Self::Last(_) => "last",
            Self::Default(_) => "default",
            Self::Join(_) => "join",
            Self::Map(_) => "map",
        }
    }

    fn apply(&self, var: &str, value: &str) -> Result<String, RenderError> {
        let fail = |reason: &'static str| RenderError::Filter {
            var: var.to_owned(),
            filter: self.name(),
            value: value.to_owned(),
            reason,
        };
        Ok(match self {
            Self::DateDash | Self::DateSlash if value.trim().is_empty() => String::new(),
            Self::DateDash => {
                let (y, m, d) = parse_date(value).ok_or_else(|| fail("不是日期"))?;
                format!("{y:04}-{m:02}-{d:02}")
            }
            Self::DateSlash => {
                let (y, m, d) = parse_date(value).ok_or_else(|| fail("不是日期"))?;
                format!("{y:04}/{m:02}/{d:02}")
            }
            Self::Trim => value.trim().to_owned(),
            Self::Upper => value.to_uppercase(),
            Self::Lower => value.to_lowercase(),
            Self::Digits => value.chars().filter(char::is_ascii_digit).collect(),
            Self::Amount if value.trim().is_empty() => String::new(),
            Self::Amount => normalise_amount(value).ok_or_else(|| fail("不是金额"))?,
            Self::Last(n) => {
                let count = value.chars().count();
                value.chars().skip(count.saturating_sub(*n)).collect()
            }
            Self::Join(separator) => value
                .lines()
                .filter(|l| !l.trim().is_empty())
                .collect::<Vec<_>>()
                .join(separator),
            Self::Map(pairs) => {
                let find = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v);
                find(value.trim())
                    .or_else(|| find("*"))
                    .cloned()
                    .ok_or_else(|| fail("没有对应的值"))?
            }
            // Handled in Expr::eval, which may have to look up another variable.
            Self::Default(_) => value.to_owned(),
        })
    }
}

fn parse_expr(inner: &str) -> Result<Expr, String> {
    let mut segments = split_pipes(inner)?.into_iter();
    let var = segments.next().unwrap_or_default();
    let var = parse_path(&var).ok_or_else(|| format!("「{}」不是变量名", var.trim()))?;
    let filters = segments
        .map(|s| parse_filter(&s))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Expr { var, filters })
}

/// Splits on `|` outside quotes.
fn split_pipes(inner: &str) -> Result<Vec<String>, String> {
    let mut out = vec![String::new()];
    let mut quote: Option<char> = None;
    for c in inner.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            (None, '|') => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    if quote.is_some() {
        return Err("引号未闭合".to_owned());
    }
    Ok(out)
}

fn parse_path(text: &str) -> Option<String> {
    let text = text.trim();
    let (namespace, key) = text.split_once('.')?;
    let valid_key = !key.is_empty()
        && !key.starts_with('.')
        && !key.ends_with('.')
        && !key.contains("..")
        && !key.chars().any(|c| {
            c.is_whitespace() || matches!(c, '(' | ')' | '\'' | '"' | '{' | '}' | '|' | ',')
        });
    (NAMESPACES.contains(&namespace) && valid_key).then(|| text.to_owned())
}

/// `k=v, k=v, *=v` as pairs.
fn parse_map(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|pair| {
            pair.split_once('=')
                .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
                .filter(|(k, _)| !k.is_empty())
                .ok_or_else(|| format!("过滤器 map 的「{}」应写成 值=门户用语", pair.trim()))
        })
        .collect()
}

fn parse_filter(text: &str) -> Result<Filter, String> {
    let text = text.trim();
    let (name, arg) = match text.split_once('(') {
        Some((name, rest)) => {
            let arg = rest
                .trim_end()
                .strip_suffix(')')
                .ok_or_else(|| format!("过滤器「{text}」缺少右括号"))?;
            (name.trim(), Some(arg.trim()))
        }
        None => (text, None),
    };
    let literal = |arg: Option<&str>| -> Result<String, String> {
        let arg = arg.ok_or_else(|| format!("过滤器 {name} 需要一个参数"))?;
        unquote(arg).ok_or_else(|| format!("过滤器 {name} 的参数须用引号括起：{arg}"))
    };
    let no_arg = |filter: Filter| match arg {
        None => Ok(filter),
        Some(_) => Err(format!("过滤器 {name} 不带参数")),
    };
    match name {
        "date_dash" => no_arg(Filter::DateDash),
        "date_slash" => no_arg(Filter::DateSlash),
        "trim" => no_arg(Filter::Trim),
        "upper" => no_arg(Filter::Upper),
        "lower" => no_arg(Filter::Lower),
        "digits" => no_arg(Filter::Digits),
        "amount" => no_arg(Filter::Amount),
        "join" => literal(arg).map(Filter::Join),
        "map" => parse_map(&literal(arg)?).map(Filter::Map),
        "last" => arg
            .and_then(|a| a.parse::<usize>().ok())
            .map(Filter::Last)
            .ok_or_else(|| "过滤器 last 需要一个数字参数，如 last(4)".to_owned()),
        "default" => {
            let arg = arg.ok_or("过滤器 default 需要一个参数，如 default('无')")?;
            match unquote(arg) {
                Some(text) => Ok(Filter::Default(Arg::Literal(text))),
                None => parse_path(arg)
                    .map(|p| Filter::Default(Arg::Var(p)))
                    .ok_or_else(|| format!("default 的参数须是带引号的文字或变量名：{arg}")),
            }
        }
        _ => Err(format!(
            "未知过滤器「{name}」（可用：{}）",
            FILTERS.join("、")
        )),
    }
}

fn unquote(arg: &str) -> Option<String> {
    let arg = arg.trim();
    ['\'', '"'].into_iter().find_map(|q| {
        arg.strip_prefix(q)
            .and_then(|a| a.strip_suffix(q))
            .map(str::to_owned)
    })
}

/// Year, month and day of `2026/11/03`, `2026-11-3`, `2026.11.03`, `20261103` or `2026年11月3日`.
fn parse_date(value: &str) -> Option<(u32, u32, u32)> {
    let value = value.trim();
    let numbers: Vec<&str> = value
        .split(['/', '-', '.', '年', '月', '日'])
        .filter(|s| !s.is_empty())
        .collect();
    let (y, m, d) = match numbers.as_slice() {
        [y, m, d] => (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?),
        [compact] if compact.len() == 8 && compact.chars().all(|c| c.is_ascii_digit()) => (
            compact.get(..4)?.parse().ok()?,
            compact.get(4..6)?.parse().ok()?,
            compact.get(6..)?.parse().ok()?,
        ),
        _ => return None,
    };
    ((1000..=9999).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d))
        .then_some((y, m, d))
}

/// `¥1,234.5` → `1234.50`; `None` unless it is a plain decimal with at most two places.
fn normalise_amount(value: &str) -> Option<String> {
    let cleaned: String = value
        .trim()
        .trim_start_matches(['¥', '￥'])
        .chars()
        .filter(|c| *c != ',')
        .collect();
    let (negative, digits) = match cleaned.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, cleaned.as_str()),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) || fraction.len() > 2 {
        return None;
    }
    let whole = whole.trim_start_matches('0');
    let whole = if whole.is_empty() { "0" } else { whole };
    let sign = if negative { "-" } else { "" };
    Some(format!("{sign}{whole}.{fraction:0<2}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    struct Map(BTreeMap<&'static str, Value>);

    impl Lookup for Map {
        fn lookup(&self, path: &str) -> Option<Value> {
            self.0.get(path).cloned()
        }
    }

    fn vars() -> Map {
        Map(BTreeMap::from([
            ("config.username", Value::plain("100001")),
            ("config.password", Value::secret("demo123")),
            ("config.default_person_id", Value::plain("200002")),
            ("row.开票日期", Value::plain("2026/11/3")),
            ("row.价税合计", Value::plain("¥1,234.5")),
            ("row.公务卡号", Value::plain("6217000011112222")),
            ("claim.empty", Value::plain("")),
            ("files.invoices", Value::plain("/a.pdf\n/b.pdf")),
        ]))
    }

    fn render(source: &str) -> Result<Rendered, RenderError> {
        FlowTemplate::parse(source).unwrap().render(&vars())
    }

    #[test]
    fn renders_text_and_variables() {
        let r = render("#amount-{{row.价税合计 | amount}}x").unwrap();
        assert_eq!(r.text, "#amount-1234.50x");
        assert_eq!(
            render("{{row.开票日期|date_dash}}").unwrap().text,
            "2026-11-03"
        );
        assert_eq!(
            render("{{ row.开票日期 | date_dash | date_slash }}")
                .unwrap()
                .text,
            "2026/11/03"
        );
        assert_eq!(render("{{row.公务卡号 | last(4)}}").unwrap().text, "2222");
        assert_eq!(render("plain").unwrap().text, "plain");
        assert_eq!(
            render("{{files.invoices | join(', ')}}").unwrap().text,
            "/a.pdf, /b.pdf"
        );
    }

    #[test]
    fn map_translates_to_the_portals_words() {
        let map = "{{config.username | map('100001=甲, *=其他')}}";
        assert_eq!(render(map).unwrap().text, "甲");
        let other = "{{config.default_person_id | map('100001=甲, *=其他')}}";
        assert_eq!(render(other).unwrap().text, "其他");
        let strict = "{{config.default_person_id | map('100001=甲')}}";
        assert!(render(strict).is_err());
        assert!(FlowTemplate::parse("{{config.username | map('甲')}}").is_err());
    }

    #[test]
    fn secrets_are_masked_in_the_shown_text() {
        let r = render("pw={{config.password}}!").unwrap();
        assert_eq!(r.text, "pw=demo123!");
        assert_eq!(r.shown, "pw=***!");
        assert!(!format!("{r:?}").contains("demo123"));
        let err = render("{{config.password | amount}}").unwrap_err();
        assert!(!err.to_string().contains("demo123"), "{err}");
    }

    #[test]
    fn defaults_cover_empty_and_missing_values() {
        assert_eq!(
            render("{{claim.empty | default('物理学院')}}")
                .unwrap()
                .text,
            "物理学院"
        );
        assert_eq!(
            render("{{claim.missing | default(\"x|y\")}}").unwrap().text,
            "x|y"
        );
        assert_eq!(
            render("{{claim.empty | default(config.default_person_id)}}")
                .unwrap()
                .text,
            "200002"
        );
        assert_eq!(
            render("{{config.username | default(config.default_person_id)}}")
                .unwrap()
                .text,
            "100001"
        );
        assert_eq!(
            render("{{claim.empty | default(claim.nope)}}"),
            Err(RenderError::UnknownVariable("claim.nope".to_owned()))
        );
    }

    #[test]
    fn unknown_variables_and_bad_values_are_errors() {
        assert_eq!(
            render("{{claim.purpose}}"),
            Err(RenderError::UnknownVariable("claim.purpose".to_owned()))
        );
        assert!(matches!(
            render("{{config.username | date_dash}}"),
            Err(RenderError::Filter { .. })
        ));
    }

    #[test]
    fn parse_errors_name_the_problem() {
        for bad in [
            "{{row.x",
            "{{nope.x}}",
            "{{row.x | shout}}",
            "{{row.x | default(bare words)}}",
            "{{row.x | last}}",
            "x}}",
            "{{row.x | default('open)}}",
        ] {
            assert!(FlowTemplate::parse(bad).is_err(), "{bad}");
        }
        let err = FlowTemplate::parse("{{row.x | shout}}").unwrap_err();
        assert!(err.to_string().contains("未知过滤器「shout」"), "{err}");
    }

    #[test]
    fn lists_variables() {
        let t = FlowTemplate::parse("{{row.a}}-{{claim.b | default(config.c)}}").unwrap();
        assert_eq!(t.variables(), ["row.a", "claim.b", "config.c"]);
        assert!(t.uses_namespace("row"));
        assert!(!t.uses_namespace("files"));
    }

    #[test]
    fn amounts_and_dates() {
        assert_eq!(normalise_amount("35").as_deref(), Some("35.00"));
        assert_eq!(normalise_amount("0.5").as_deref(), Some("0.50"));
        assert_eq!(normalise_amount("1.234"), None);
        assert_eq!(normalise_amount("abc"), None);
        assert_eq!(parse_date("2026年1月2日"), Some((2026, 1, 2)));
        assert_eq!(parse_date("20261103"), Some((2026, 11, 3)));
        assert_eq!(parse_date("2026-13-01"), None);
    }
}
