//! Generates the synthetic payment screenshots of fixtures/screenshots: fills
//! the HTML templates with invented, seeded data, renders them with headless
//! Chromium at phone size (device scale 3), shrinks the PNGs (pngquant when
//! installed; the POS photo becomes a JPEG) and writes the expected
//! `PaymentRecord` as JSON beside each image.
//!
//! `cargo run -p reimburse-payments --example gen_screenshots -- [--out DIR] [--only PREFIX]
//! [--seed N] [--rounds N] [--templates DIR]` (DIR defaults to fixtures/screenshots of the
//! workspace; `--rounds 4 --seed 7 --out /tmp/x` makes a larger set with other data for checking that
//! recognition generalises; `CHROMIUM` names the browser binary, default `chromium`).
//!
//! Besides each screen type's own variables, every image gets a few look variables that a
//! template may use or ignore (see [`look_vars`]): `{{variant}}` (0–3) and `{{mode}}`
//! (`light`/`dark`, with `{{dark}}` non-empty when dark) for switching a CSS class per image
//! (dark mode, elder-mode large text, tablet width…); the expected date and time in other
//! formats, `{{date_iso}}` `2025-01-10`, `{{date_dot}}` `2025.01.10`, `{{date_cn}}`
//! `2025年1月10日`, `{{date_cn0}}` `2025年01月10日`, `{{date_compact}}` `20250110` and
//! `{{time_hms}}` `11:35:02` (empty when the screen has no date); `{{amount_abs}}` `1058.00` and
//! `{{amount_grouped}}` `1,058.00` (no sign); `{{last4}}` and `{{card_bank}}` of the card the
//! screen shows (empty when it shows none). They are drawn from a stream of their own, seeded
//! from the seed and the image's index, so the data and the expected JSON are the same whether
//! or not a template uses them.

#![allow(clippy::print_stdout, reason = "a command-line tool reports on stdout")]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use reimburse_payments::PaymentRecord;
use reimburse_payments::{
    CHANNEL_ALIPAY, CHANNEL_BANK_SUFFIX, CHANNEL_POS, CHANNEL_UNIONPAY, CHANNEL_WECHAT,
    STATUS_REFUND, STATUS_SUCCESS,
};

/// SplitMix64: small, seeded, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        let i = usize::try_from(self.range(0, items.len() as u64 - 1)).unwrap_or(0);
        &items[i]
    }

    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'0' + u8::try_from(self.range(0, 9)).unwrap_or(0)))
            .collect()
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.range(1, 100) <= percent
    }
}

/// Invented payees: short name, full name, goods, bill category.
const MERCHANTS: &[(&str, &str, &str, &str)] = &[
    ("示例餐厅", "示例餐饮管理有限公司", "午餐", "餐饮美食"),
    ("样例文具", "样例文具用品有限公司", "办公用品", "文化休闲"),
    ("测试书店", "测试图书发行有限公司", "图书", "文化休闲"),
    ("演示图文", "演示图文设计有限公司", "打印装订", "商业服务"),
    ("示例酒店", "示例酒店管理有限公司", "住宿费", "酒店旅游"),
    ("样例超市", "样例商贸有限公司", "日用品", "日用百货"),
    ("测试咖啡", "测试餐饮服务有限公司", "咖啡", "餐饮美食"),
    ("示例快印", "示例数码快印有限公司", "复印", "商业服务"),
    ("演示出行", "演示网约车科技有限公司", "打车费", "交通出行"),
    ("样例耗材", "样例实验耗材有限公司", "实验耗材", "生活服务"),
];

/// Banks and their app colours.
const BANKS: &[(&str, &str)] = &[
    ("招商银行", "#c7161e"),
    ("中国工商银行", "#c4161c"),
    ("中国建设银行", "#0a4b9b"),
    ("中国银行", "#a71e32"),
    ("交通银行", "#1d3f8f"),
    ("中国农业银行", "#0a8a6c"),
    ("浦发银行", "#0d3c8c"),
    ("兴业银行", "#0b3a8f"),
];

const LOGO_COLORS: &[&str] = &[
    "#1677ff", "#ff6a00", "#13a65b", "#8a5cf6", "#e8453c", "#00a3bf",
];

/// Phone viewports in CSS px (iPhone 12-15, X/11 Pro, 11/XR, Android).
const WINDOWS: &[(u32, u32)] = &[(390, 844), (375, 812), (414, 896), (360, 780)];

struct Money(i64);

impl Money {
    fn plain(&self) -> String {
        domain::format_cents(self.0)
    }

    /// With thousands separators (`1,058.00`).
    fn grouped(&self) -> String {
        let plain = self.plain();
        let (int, frac) = plain.split_once('.').unwrap_or((&plain, "00"));
        let mut out = String::new();
        for (i, c) in int.chars().enumerate() {
            if i > 0 && (int.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        format!("{out}.{frac}")
    }
}

struct When {
    y: u64,
    m: u64,
    d: u64,
    hh: u64,
    mm: u64,
    ss: u64,
}

impl When {
    fn random(rng: &mut Rng) -> Self {
        Self {
            y: rng.range(2024, 2025),
            m: rng.range(1, 12),
            d: rng.range(1, 28),
            hh: rng.range(7, 22),
            mm: rng.range(0, 59),
            ss: rng.range(0, 59),
        }
    }
    fn date(&self) -> String {
        format!("{}/{:02}/{:02}", self.y, self.m, self.d)
    }
    fn time(&self) -> String {
        format!("{:02}:{:02}:{:02}", self.hh, self.mm, self.ss)
    }
    fn dashed(&self) -> String {
        format!("{}-{:02}-{:02} {}", self.y, self.m, self.d, self.time())
    }
    fn slashed(&self) -> String {
        format!("{} {}", self.date(), self.time())
    }
    fn chinese(&self) -> String {
        format!("{}年{}月{}日 {}", self.y, self.m, self.d, self.time())
    }
    fn order_prefix(&self) -> String {
        format!("{}{:02}{:02}", self.y, self.m, self.d)
    }
}

fn amount(rng: &mut Rng) -> Money {
    let yuan = match rng.range(0, 9) {
        0..=4 => rng.range(6, 199),
        5..=7 => rng.range(200, 999),
        _ => rng.range(1000, 4999),
    };
    let cents = if rng.chance(40) { 0 } else { rng.range(1, 99) };
    Money(i64::try_from(yuan * 100 + cents).unwrap_or(0))
}

/// One screenshot to render.
struct Variant {
    name: String,
    template: &'static str,
    vars: BTreeMap<String, String>,
    expected: PaymentRecord,
    window: (u32, u32),
    /// Device scale: 3 for phone screenshots; the photo is smaller.
    scale: u32,
    jpeg: bool,
}

fn vars(pairs: &[(&str, String)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

fn common(rng: &mut Rng) -> Vec<(&'static str, String)> {
    vec![
        (
            "clock",
            format!("{}:{:02}", rng.range(8, 23), rng.range(0, 59)),
        ),
        ("battery", rng.range(12, 99).to_string()),
        ("logo_color", (*rng.pick(LOGO_COLORS)).to_owned()),
    ]
}

fn record(name: &str, ext: &str) -> PaymentRecord {
    PaymentRecord {
        file: format!("{name}.{ext}"),
        ..PaymentRecord::default()
    }
}

fn alipay(rng: &mut Rng, n: usize) -> Variant {
    let name = format!("alipay_bill_{n:02}");
    let (short, full, goods, category) = *rng.pick(MERCHANTS);
    let (bank, _) = *rng.pick(BANKS);
    let money = amount(rng);
    let when = When::random(rng);
    let last4 = rng.digits(4);
    let refund = n == 5;
    // Variant 4 pays from the wallet: no card on the screen.
    let wallet = n == 4;
    let kind = if rng.chance(70) {
        "信用卡"
    } else {
        "储蓄卡"
    };
    let method = if wallet {
        "余额宝".to_owned()
    } else if refund {
        format!("退回{bank}{kind}({last4})")
    } else {
        format!("{bank}{kind}({last4})")
    };
    let order_no = format!("{}2200{}", when.order_prefix(), rng.digits(16));
    let shown = if money.0 >= 100_000 && rng.chance(50) {
        money.grouped()
    } else {
        money.plain()
    };
    let mut v = common(rng);
    v.extend([
        (
            "logo_char",
            short.chars().next().unwrap_or('示').to_string(),
        ),
        ("short_name", short.to_owned()),
        ("full_name", full.to_owned()),
        ("goods", goods.to_owned()),
        ("category", category.to_owned()),
        (
            "amount_display",
            format!("{}{shown}", if refund { "+" } else { "-" }),
        ),
        (
            "status_text",
            if refund {
                "退款成功"
            } else {
                "交易成功"
            }
            .to_owned(),
        ),
        ("datetime_display", when.dashed()),
        ("method", method),
        ("order_no", order_no.clone()),
        (
            "merchant_order",
            format!("T{}{}", when.order_prefix(), rng.digits(10)),
        ),
        ("refund", if refund { "1" } else { "" }.to_owned()),
        // Older app versions show only 创建时间.
        ("pay_time", if n == 3 { "" } else { "1" }.to_owned()),
        (
            "value_align",
            if n.is_multiple_of(2) { "right" } else { "left" }.to_owned(),
        ),
    ]);
    let mut r = record(&name, "png");
    r.amount = money.plain();
    r.date = when.date();
    r.time = when.time();
    if !wallet {
        r.card_last4 = last4;
        r.card_bank = bank.to_owned();
    }
    r.merchant = full.to_owned();
    r.channel = CHANNEL_ALIPAY.to_owned();
    r.order_no = order_no;
    r.status = if refund {
        STATUS_REFUND
    } else {
        STATUS_SUCCESS
    }
    .to_owned();
    Variant {
        name,
        template: "alipay_bill",
        vars: vars(&v),
        expected: r,
        window: *rng.pick(WINDOWS),
        scale: 3,
        jpeg: false,
    }
}

fn wechat_bill(rng: &mut Rng, n: usize) -> Variant {
    let name = format!("wechat_bill_{n:02}");
    let (short, full, goods, _) = *rng.pick(MERCHANTS);
    let (bank, _) = *rng.pick(BANKS);
    let money = amount(rng);
    let when = When::random(rng);
    let last4 = rng.digits(4);
    let refund = n == 5;
    let wallet = n == 4;
    let kind = if rng.chance(70) {
        "信用卡"
    } else {
        "储蓄卡"
    };
    let method = if wallet {
        "零钱".to_owned()
    } else {
        format!("{bank}{kind}({last4})")
    };
    let order_no = format!(
        "42000{}{}{}",
        rng.digits(5),
        when.order_prefix(),
        rng.digits(10)
    );
    let shown = if money.0 >= 100_000 {
        money.grouped()
    } else {
        money.plain()
    };
    let refund_when = When {
        d: (when.d + 2).min(28),
        ..When::random(rng)
    };
    let mut v = common(rng);
    v.extend([
        (
            "logo_char",
            short.chars().next().unwrap_or('示').to_string(),
        ),
        ("short_name", short.to_owned()),
        ("full_name", full.to_owned()),
        ("goods", goods.to_owned()),
        ("amount_display", format!("-{shown}")),
        (
            "status_text",
            if refund {
                "已全额退款"
            } else {
                "支付成功"
            }
            .to_owned(),
        ),
        ("datetime_display", when.chinese()),
        (
            "refund_datetime",
            format!(
                "{}年{}月{}日 {}",
                when.y,
                when.m,
                refund_when.d,
                refund_when.time()
            ),
        ),
        ("method", method),
        ("order_no", order_no.clone()),
        ("refund", if refund { "1" } else { "" }.to_owned()),
    ]);
    let mut r = record(&name, "png");
    r.amount = money.plain();
    r.date = when.date();
    r.time = when.time();
    if !wallet {
        r.card_last4 = last4;
        r.card_bank = bank.to_owned();
    }
    r.merchant = full.to_owned();
    r.channel = CHANNEL_WECHAT.to_owned();
    r.order_no = order_no;
    r.status = if refund {
        STATUS_REFUND
    } else {
        STATUS_SUCCESS
    }
    .to_owned();
    Variant {
        name,
        template: "wechat_bill",
        vars: vars(&v),
        expected: r,
        window: *rng.pick(WINDOWS),
        scale: 3,
        jpeg: false,
    }
}

fn wechat_success(rng: &mut Rng, n: usize) -> Variant {
    let name = format!("wechat_success_{n:02}");
    let (short, full, _, _) = *rng.pick(MERCHANTS);
    let (bank, _) = *rng.pick(BANKS);
    let money = amount(rng);
    let last4 = rng.digits(4);
    // 1: bare page; 2: with method; 3: method and payee; 4: wallet and promo.
    let method = match n {
        2 | 3 => format!("{bank}信用卡({last4})"),
        4 => "零钱".to_owned(),
        _ => String::new(),
    };
    let payee_row = n == 3;
    let mut v = common(rng);
    v.extend([
        ("short_name", short.to_owned()),
        (
            "full_name",
            if payee_row {
                full.to_owned()
            } else {
                String::new()
            },
        ),
        ("amount_plain", money.plain()),
        ("method", method),
        ("show_rows", if n >= 2 { "1" } else { "" }.to_owned()),
        ("promo", if n == 4 { "1" } else { "" }.to_owned()),
    ]);
    let mut r = record(&name, "png");
    r.amount = money.plain();
    if n == 2 || n == 3 {
        r.card_last4 = last4;
        r.card_bank = bank.to_owned();
    }
    r.merchant = if payee_row { full } else { short }.to_owned();
    r.channel = CHANNEL_WECHAT.to_owned();
    r.status = STATUS_SUCCESS.to_owned();
    Variant {
        name,
        template: "wechat_success",
        vars: vars(&v),
        expected: r,
        window: *rng.pick(WINDOWS),
        scale: 3,
        jpeg: false,
    }
}

fn unionpay(rng: &mut Rng, n: usize) -> Variant {
    let name = format!("unionpay_{n:02}");
    let (short, full, _, _) = *rng.pick(MERCHANTS);
    let (bank, _) = *rng.pick(BANKS);
    let money = amount(rng);
    let when = When::random(rng);
    let last4 = rng.digits(4);
    let method = if n.is_multiple_of(2) {
        format!("{bank} 借记卡 尾号{last4}")
    } else {
        format!("{bank}信用卡({last4})")
    };
    // Variant 3 paid less than the order after a discount.
    let discount = if n == 3 {
        Money(i64::try_from(rng.range(100, 500)).unwrap_or(100))
    } else {
        Money(0)
    };
    let order_no = format!("{}{}", when.order_prefix(), rng.digits(12));
    let mut v = common(rng);
    v.extend([
        (
            "logo_char",
            short.chars().next().unwrap_or('示').to_string(),
        ),
        ("short_name", short.to_owned()),
        ("full_name", full.to_owned()),
        ("amount_display", format!("-{}", money.plain())),
        ("status_text", "交易成功".to_owned()),
        ("datetime_display", when.dashed()),
        ("method", method),
        ("trans_type", "消费".to_owned()),
        ("order_no", order_no.clone()),
        (
            "discount",
            if discount.0 > 0 {
                discount.plain()
            } else {
                String::new()
            },
        ),
        ("order_amount", Money(money.0 + discount.0).plain()),
    ]);
    let mut r = record(&name, "png");
    r.amount = money.plain();
    r.date = when.date();
    r.time = when.time();
    r.card_last4 = last4;
    r.card_bank = bank.to_owned();
    r.merchant = full.to_owned();
    r.channel = CHANNEL_UNIONPAY.to_owned();
    r.order_no = order_no;
    r.status = STATUS_SUCCESS.to_owned();
    Variant {
        name,
        template: "unionpay",
        vars: vars(&v),
        expected: r,
        window: *rng.pick(WINDOWS),
        scale: 3,
        jpeg: false,
    }
}

/// An obviously fake card number: a UnionPay prefix, zeros, three random
/// digits and the Luhn check digit (real card numbers pass the check, and
/// recognition only reports full numbers that do).
fn fake_card(rng: &mut Rng) -> String {
    let len = if rng.chance(50) { 16 } else { 19 };
    let body = format!("6200{}{}", "0".repeat(len - 8), rng.digits(3));
    let sum: u32 = body
        .chars()
        .rev()
        .filter_map(|c| c.to_digit(10))
        .enumerate()
        .map(|(i, d)| {
            if i % 2 == 0 {
                if d * 2 > 9 { d * 2 - 9 } else { d * 2 }
            } else {
                d
            }
        })
        .sum();
    format!("{body}{}", (10 - sum % 10) % 10)
}

fn group4(s: &str) -> String {
    s.chars()
        .collect::<Vec<_>>()
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

fn bank_card(rng: &mut Rng, n: usize) -> Variant {
    let name = format!("bank_card_{n:02}");
    let (_, full, _, _) = *rng.pick(MERCHANTS);
    let (bank, theme) = BANKS[(n * 3) % BANKS.len()];
    let money = amount(rng);
    let when = When::random(rng);
    let full_number = n == 2 || n == 4;
    let number = fake_card(rng);
    let last4 = if full_number {
        number[number.len() - 4..].to_owned()
    } else {
        rng.digits(4)
    };
    let card_display = if full_number {
        group4(&number)
    } else {
        format!("{} **** **** {last4}", &number[..4])
    };
    let refund = n == 5;
    let headline = n % 2 == 1;
    let mut v = common(rng);
    v.extend([
        ("theme", theme.to_owned()),
        ("bank", bank.to_owned()),
        (
            "title",
            if n == 3 {
                "收支明细"
            } else {
                "交易详情"
            }
            .to_owned(),
        ),
        ("headline", if headline { "1" } else { "" }.to_owned()),
        (
            "headline_label",
            if refund {
                "收入金额(元)"
            } else {
                "支出金额(元)"
            }
            .to_owned(),
        ),
        (
            "amount_display",
            format!("{}{}", if refund { "+" } else { "-" }, money.grouped()),
        ),
        (
            "split_time",
            if n == 2 || n == 5 { "1" } else { "" }.to_owned(),
        ),
        (
            "date_display",
            format!("{}-{:02}-{:02}", when.y, when.m, when.d),
        ),
        ("time_display", when.time()),
        ("datetime_display", when.dashed()),
        (
            "card_label",
            if n.is_multiple_of(2) {
                "交易卡号"
            } else {
                "卡号"
            }
            .to_owned(),
        ),
        ("card_display", card_display),
        (
            "trans_type",
            if refund { "退货" } else { "消费" }.to_owned(),
        ),
        (
            "merchant_label",
            ["商户名称", "交易对手", "对方户名"][n % 3].to_owned(),
        ),
        ("full_name", full.to_owned()),
        (
            "trans_channel",
            (*rng.pick(&["快捷支付", "银联在线", "POS消费"])).to_owned(),
        ),
        (
            "balance",
            Money(i64::try_from(rng.range(100_000, 9_999_999)).unwrap_or(0)).grouped(),
        ),
    ]);
    let mut r = record(&name, "png");
    r.amount = money.plain();
    r.date = when.date();
    r.time = when.time();
    r.card_last4 = last4;
    if full_number {
        r.card_number = number;
    }
    r.card_bank = bank.to_owned();
    r.merchant = full.to_owned();
    r.channel = format!("{bank}{CHANNEL_BANK_SUFFIX}");
    r.status = if refund {
        STATUS_REFUND
    } else {
        STATUS_SUCCESS
    }
    .to_owned();
    Variant {
        name,
        template: "bank_card",
        vars: vars(&v),
        expected: r,
        window: *rng.pick(WINDOWS),
        scale: 3,
        jpeg: false,
    }
}

fn pos_slip(rng: &mut Rng, n: usize) -> Variant {
    let name = format!("pos_slip_{n:02}");
    let (_, full, _, _) = *rng.pick(MERCHANTS);
    let (bank, _) = *rng.pick(BANKS);
    let money = amount(rng);
    let when = When::random(rng);
    let last4 = rng.digits(4);
    let refund = n == 4;
    let angle = (rng.range(8, 25) as f64 / 10.0) * if n.is_multiple_of(2) { -1.0 } else { 1.0 };
    let order_no = rng.digits(12);
    let mut v = common(rng);
    v.extend([
        ("angle", format!("{angle:.1}")),
        ("seed", rng.range(1, 999).to_string()),
        (
            "slip_title",
            if n.is_multiple_of(2) {
                "银联POS签购单"
            } else {
                "POS签购单"
            }
            .to_owned(),
        ),
        (
            "copy_line",
            if n.is_multiple_of(2) {
                "持卡人存根 CARDHOLDER COPY"
            } else {
                "商户存根 MERCHANT COPY"
            }
            .to_owned(),
        ),
        ("full_name", full.to_owned()),
        ("merchant_no", format!("8981{}", rng.digits(11))),
        ("terminal_no", rng.digits(8)),
        ("bank", bank.to_owned()),
        ("card_display", format!("621700******{last4}")),
        (
            "expiry",
            format!("20{}/{:02}", rng.range(27, 31), rng.range(1, 12)),
        ),
        (
            "trans_type",
            if refund {
                "退货/REFUND"
            } else {
                "消费/SALE"
            }
            .to_owned(),
        ),
        ("batch_no", rng.digits(6)),
        ("voucher_no", rng.digits(6)),
        ("auth_no", rng.digits(6)),
        ("order_no", order_no.clone()),
        ("datetime_display", when.slashed()),
        ("amount_display", format!("RMB {}", money.plain())),
    ]);
    let mut r = record(&name, "jpg");
    r.amount = money.plain();
    r.date = when.date();
    r.time = when.time();
    r.card_last4 = last4;
    r.card_bank = bank.to_owned();
    r.merchant = full.to_owned();
    r.channel = CHANNEL_POS.to_owned();
    r.order_no = order_no;
    r.status = if refund {
        STATUS_REFUND
    } else {
        STATUS_SUCCESS
    }
    .to_owned();
    Variant {
        name,
        template: "pos_slip",
        vars: vars(&v),
        expected: r,
        window: (420, 860),
        scale: 2,
        jpeg: true,
    }
}

fn chat(rng: &mut Rng, n: usize) -> Variant {
    let name = format!("no_payment_{n:02}");
    let lines: [&[&str]; 2] = [
        &[
            "发票收到了吗？",
            "收到了，一共58元，我明天提交报销",
            "好的，记得附上支付截图",
            "嗯嗯，晚上发你",
        ],
        &[
            "下周三开会，地点在三楼会议室",
            "好的，需要准备材料吗",
            "把上个月的报销单带上",
            "收到",
        ],
    ];
    let l = lines[(n - 1) % 2];
    let mut v = common(rng);
    v.extend([
        (
            "peer",
            if n == 1 {
                "示例同事"
            } else {
                "样例课题组"
            }
            .to_owned(),
        ),
        (
            "chat_time",
            format!("昨天 {}:{:02}", rng.range(9, 20), rng.range(0, 59)),
        ),
        ("line1", l[0].to_owned()),
        ("line2", l[1].to_owned()),
        ("line3", l[2].to_owned()),
        ("line4", l[3].to_owned()),
    ]);
    Variant {
        name: name.clone(),
        template: "chat",
        vars: vars(&v),
        expected: PaymentRecord::no_payment(&format!("{name}.png")),
        window: *rng.pick(WINDOWS),
        scale: 3,
        jpeg: false,
    }
}

/// The WeChat Pay notification card of the service chat (微信支付 › 付款凭证): a payment.
/// 1: paid from change, no time row; 2: a bank card and the payment time; 3: the payee's full
/// name and the time.
fn wechat_notice(rng: &mut Rng, n: usize) -> Variant {
    let name = format!("wechat_notice_{n:02}");
    let (short, full, _, _) = *rng.pick(MERCHANTS);
    let (bank, _) = *rng.pick(BANKS);
    let money = amount(rng);
    let when = When::random(rng);
    let last4 = rng.digits(4);
    let method = if n == 2 {
        format!("{bank}储蓄卡({last4})")
    } else {
        "零钱".to_owned()
    };
    let payee = if n == 3 { full } else { short };
    let mut v = common(rng);
    v.extend([
        ("payee", payee.to_owned()),
        ("amount_plain", money.plain()),
        ("method", method),
        (
            "card_time",
            format!("{}月{}日 {}:{:02}", when.m, when.d, when.hh, when.mm),
        ),
        (
            "paid_at",
            if n >= 2 { when.dashed() } else { String::new() },
        ),
    ]);
    let mut r = record(&name, "png");
    r.amount = money.plain();
    r.merchant = payee.to_owned();
    r.channel = CHANNEL_WECHAT.to_owned();
    r.status = STATUS_SUCCESS.to_owned();
    if n >= 2 {
        r.date = when.date();
        r.time = when.time();
    }
    if n == 2 {
        r.card_last4 = last4;
        r.card_bank = bank.to_owned();
    }
    Variant {
        name,
        template: "wechat_notice",
        vars: vars(&v),
        expected: r,
        window: *rng.pick(WINDOWS),
        scale: 3,
        jpeg: false,
    }
}

/// A collection code (收款码, 向我付款): nothing was paid. 1: a fixed amount set; 2: none.
fn collect_code(rng: &mut Rng, n: usize) -> Variant {
    let name = format!("collect_code_{n:02}");
    let (short, _, _, _) = *rng.pick(MERCHANTS);
    let money = amount(rng);
    let mut v = common(rng);
    v.extend([
        ("owner", short.to_owned()),
        (
            "set_amount",
            if n == 1 { money.plain() } else { String::new() },
        ),
        ("today_total", amount(rng).plain()),
    ]);
    Variant {
        name: name.clone(),
        template: "collect_code",
        vars: vars(&v),
        expected: PaymentRecord::no_payment(&format!("{name}.png")),
        window: *rng.pick(WINDOWS),
        scale: 3,
        jpeg: false,
    }
}

/// A shop's order list (我的订单): three orders with their amounts and states, none of them
/// one payment's proof.
fn order_list(rng: &mut Rng, n: usize) -> Variant {
    let name = format!("order_list_{n:02}");
    let goods = [
        "中性笔 0.5mm 黑色 12支",
        "A4 复印纸 70g 5包",
        "USB-C 数据线 1m",
        "订书机 标准型",
        "文件夹 蓝色 10个",
        "墨盒 黑色",
    ];
    let states = ["交易成功", "已签收", "待收货", "已发货"];
    let mut v = common(rng);
    for (i, key) in ["1", "2", "3"].iter().enumerate() {
        let (short, _, _, _) = *rng.pick(MERCHANTS);
        v.push((["shop1", "shop2", "shop3"][i], short.to_owned()));
        v.push((
            ["goods1", "goods2", "goods3"][i],
            (*rng.pick(&goods)).to_owned(),
        ));
        v.push((
            ["state1", "state2", "state3"][i],
            (*rng.pick(&states)).to_owned(),
        ));
        v.push((["paid1", "paid2", "paid3"][i], amount(rng).plain()));
        let _ = key;
    }
    v.push(("tab", if n == 1 { "全部" } else { "待收货" }.to_owned()));
    Variant {
        name: name.clone(),
        template: "order_list",
        vars: vars(&v),
        expected: PaymentRecord::no_payment(&format!("{name}.png")),
        window: *rng.pick(WINDOWS),
        scale: 3,
        jpeg: false,
    }
}

/// Screen types added after the first template sets: a set without their templates renders
/// the rest.
const LATER_TYPES: [&str; 3] = ["wechat_notice", "collect_code", "order_list"];

/// Look variables every image gets besides its screen type's own (see the top of the file).
/// `index` counts the images of the run from 0. The draws come from their own stream, never
/// from the data stream, so adding or using these leaves every image's data unchanged.
fn look_vars(seed: u64, index: usize, expected: &PaymentRecord) -> Vec<(&'static str, String)> {
    let index = u64::try_from(index).unwrap_or(0);
    let mut rng = Rng(seed ^ 0x6C6F_6F6B_5F76_6172 ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let variant = rng.range(0, 3);
    let dark = rng.chance(50);
    let mut out = vec![
        ("variant", variant.to_string()),
        ("mode", if dark { "dark" } else { "light" }.to_owned()),
        ("dark", if dark { "1" } else { "" }.to_owned()),
    ];
    let parts: Vec<&str> = expected.date.split('/').collect();
    let dates = if let [y, m, d] = parts.as_slice() {
        let unpadded = |s: &str| s.trim_start_matches('0').to_owned();
        [
            format!("{y}-{m}-{d}"),
            format!("{y}.{m}.{d}"),
            format!("{y}年{}月{}日", unpadded(m), unpadded(d)),
            format!("{y}年{m}月{d}日"),
            format!("{y}{m}{d}"),
            expected.time.clone(),
        ]
    } else {
        Default::default()
    };
    let [iso, dot, cn, cn0, compact, hms] = dates;
    out.extend([
        ("date_iso", iso),
        ("date_dot", dot),
        ("date_cn", cn),
        ("date_cn0", cn0),
        ("date_compact", compact),
        ("time_hms", hms),
    ]);
    out.extend([
        ("amount_abs", expected.amount.clone()),
        (
            "amount_grouped",
            expected
                .amount_cents()
                .map(|c| Money(c).grouped())
                .unwrap_or_default(),
        ),
        ("last4", expected.card_last4.clone()),
        (
            "card_bank",
            if expected.card_last4.is_empty() {
                String::new()
            } else {
                expected.card_bank.clone()
            },
        ),
    ]);
    out
}

/// The committed set is round 0; more rounds (`--rounds`) make a larger set
/// with other data for checking that recognition generalises, numbered
/// `_11`, `_12`… for round 1 and so on.
fn all_variants(seed: u64, rounds: usize) -> Vec<Variant> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for round in 0..rounds {
        let mut batch = Vec::new();
        batch.extend((1..=5).map(|n| alipay(&mut rng, n)));
        batch.extend((1..=5).map(|n| wechat_bill(&mut rng, n)));
        batch.extend((1..=4).map(|n| wechat_success(&mut rng, n)));
        batch.extend((1..=4).map(|n| unionpay(&mut rng, n)));
        batch.extend((1..=5).map(|n| bank_card(&mut rng, n)));
        batch.extend((1..=4).map(|n| pos_slip(&mut rng, n)));
        batch.extend((1..=2).map(|n| chat(&mut rng, n)));
        // Later screen types draw from a stream of their own, so the images above keep
        // their data whatever is added here.
        let mut later = Rng(seed ^ 0x5eed_0042 ^ (round as u64) << 32);
        batch.extend((1..=3).map(|n| wechat_notice(&mut later, n)));
        batch.extend((1..=2).map(|n| collect_code(&mut later, n)));
        batch.extend((1..=2).map(|n| order_list(&mut later, n)));
        for v in &mut batch {
            if round > 0 {
                let (kind, n) = v.name.rsplit_once('_').unwrap_or((&v.name, "0"));
                let n: usize = n.parse().unwrap_or(0);
                let ext = if v.jpeg { "jpg" } else { "png" };
                v.name = format!("{kind}_{:02}", round * 10 + n);
                v.expected.file = format!("{}.{ext}", v.name);
            }
            v.expected.fill_unreadable();
        }
        for (i, v) in batch.iter_mut().enumerate() {
            for (k, value) in look_vars(seed, out.len() + i, &v.expected) {
                v.vars.entry(k.to_owned()).or_insert(value);
            }
        }
        out.extend(batch);
    }
    out
}

/// `{{key}}` (HTML-escaped), `{{#key}}…{{/key}}` when non-empty,
/// `{{^key}}…{{/key}}` when empty. Sections do not nest the same key.
fn fill(template: &str, vars: &BTreeMap<String, String>) -> String {
    let mut s = template.to_owned();
    while let Some(open) = s.find("{{#").or_else(|| s.find("{{^")) {
        let inverted = s[open..].starts_with("{{^");
        let Some(close_tag) = s[open..].find("}}") else {
            break;
        };
        let key = s[open + 3..open + close_tag].to_owned();
        let end_tag = format!("{{{{/{key}}}}}");
        let body_start = open + close_tag + 2;
        let Some(end) = s[body_start..].find(&end_tag) else {
            break;
        };
        let body = s[body_start..body_start + end].to_owned();
        let shown = !vars.get(&key).is_none_or(|v| v.is_empty());
        let keep = if inverted { !shown } else { shown };
        s.replace_range(
            open..body_start + end + end_tag.len(),
            if keep { &body } else { "" },
        );
    }
    for (k, v) in vars {
        let escaped = v
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        s = s.replace(&format!("{{{{{k}}}}}"), &escaped);
    }
    s
}

fn render(
    chromium: &str,
    html: &Path,
    png: &Path,
    window: (u32, u32),
    scale: u32,
) -> Result<(), String> {
    let status = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--force-device-scale-factor={scale}"))
        .arg(format!("--window-size={},{}", window.0, window.1))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", html.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {chromium}: {e} (install the chromium package)"))?;
    if status.success() && png.exists() {
        Ok(())
    } else {
        Err(format!("{chromium} failed on {}: {status}", html.display()))
    }
}

/// Shrinks a screenshot PNG in place with pngquant when installed.
fn shrink_png(png: &Path) {
    let tmp = png.with_extension("q.png");
    let ok = Command::new("pngquant")
        .args([
            "--force",
            "--quality=55-85",
            "--speed",
            "1",
            "--strip",
            "--output",
        ])
        .arg(&tmp)
        .arg(png)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        let _ = std::fs::rename(&tmp, png);
    } else {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// The photo is stored as a JPEG, as a phone camera would.
fn to_jpeg(png: &Path, jpg: &Path) -> Result<(), String> {
    let img = image::open(png).map_err(|e| e.to_string())?.to_rgb8();
    let file = std::fs::File::create(jpg).map_err(|e| e.to_string())?;
    let mut enc =
        image::codecs::jpeg::JpegEncoder::new_with_quality(std::io::BufWriter::new(file), 72);
    enc.encode_image(&img).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let mut out = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/screenshots"
    ));
    let mut only = String::new();
    let mut seed = 20_250_311u64;
    let mut rounds = 1usize;
    let mut templates = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/screenshots/templates"
    ));
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => out = args.next().map(PathBuf::from).unwrap_or(out),
            "--only" => only = args.next().unwrap_or_default(),
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(seed),
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(rounds)
                    .max(1)
            }
            "--templates" => templates = args.next().map(PathBuf::from).unwrap_or(templates),
            other => {
                eprintln!("unknown argument {other}");
                return ExitCode::FAILURE;
            }
        }
    }
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".to_owned());
    let work = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("temp dir: {e}");
            return ExitCode::FAILURE;
        }
    };
    for v in all_variants(seed, rounds)
        .into_iter()
        .filter(|v| v.name.starts_with(&only))
    {
        let template = match std::fs::read_to_string(templates.join(format!("{}.html", v.template)))
        {
            Ok(t) => t,
            // Template sets written before these screen types have none of them.
            Err(_) if LATER_TYPES.contains(&v.template) => continue,
            Err(e) => {
                eprintln!("template {}: {e}", v.template);
                return ExitCode::FAILURE;
            }
        };
        let html = work.path().join(format!("{}.html", v.name));
        let png = work.path().join(format!("{}.png", v.name));
        let result = std::fs::write(&html, fill(&template, &v.vars))
            .map_err(|e| e.to_string())
            .and_then(|()| render(&chromium, &html, &png, v.window, v.scale))
            .and_then(|()| {
                let target = out.join(&v.expected.file);
                if v.jpeg {
                    to_jpeg(&png, &target)
                } else {
                    shrink_png(&png);
                    std::fs::copy(&png, &target)
                        .map(|_| ())
                        .map_err(|e| e.to_string())
                }
            })
            .and_then(|()| {
                let json = serde_json::to_string_pretty(&v.expected).map_err(|e| e.to_string())?;
                std::fs::write(out.join(format!("{}.json", v.name)), json + "\n")
                    .map_err(|e| e.to_string())
            });
        match result {
            Ok(()) => println!("{}", v.expected.file),
            Err(e) => {
                eprintln!("{}: {e}", v.name);
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
