//! Every rule of the builtin table with a claim that breaks it and the same claim put right.
//! A rule added to rules/default.toml without a case here fails `every_rule_has_a_case`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use domain::{InvoiceKind, Password, SessionConfig, Today};
use reimburse_agent::{
    Claim, ClaimRow, LedgerFinding, LedgerNote, ReportAs, Review, RuleSet, check, judge_by_rules,
};
use std::collections::BTreeMap;

fn row(kind: InvoiceKind, pairs: &[(&str, &str)]) -> ClaimRow {
    let mut cells: BTreeMap<String, String> = [
        ("序号", "1"),
        ("发票号码", "25432000000022014229"),
        ("开票日期", "2025/03/11"),
        ("项目名称", "*纸制品*A4复印纸"),
        ("价税合计", "255.00"),
        ("销售方名称", "某某文具店"),
        ("人员姓名", "张三"),
    ]
    .iter()
    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
    .collect();
    for (k, v) in pairs {
        cells.insert((*k).to_owned(), (*v).to_owned());
    }
    ClaimRow {
        cells,
        kind,
        passenger: String::new(),
        review: BTreeMap::new(),
        ledger: Vec::new(),
    }
}

/// Extraction flagged the row's `field` as it stands.
fn flag(claim: &mut Claim, field: &str, reason: &str) {
    let value = claim.rows[0].cell(field).to_owned();
    claim.rows[0].review.insert(
        field.to_owned(),
        Review {
            value,
            reason: reason.to_owned(),
        },
    );
}

/// A complete general claim: every rule passes.
fn good() -> Claim {
    let config = SessionConfig {
        username: "100001".into(),
        password: Password::new("secret"),
        consumable_storage: "实验楼 301".into(),
        ..SessionConfig::default()
    };
    let mut claim = Claim::new(config, Today::from_date("2026/11/28").unwrap());
    claim.rows.push(row(InvoiceKind::General, &[]));
    claim
}

/// A complete travel claim.
fn good_travel() -> Claim {
    let mut claim = good();
    claim.rows = vec![row(
        InvoiceKind::Travel,
        &[("项目名称", "*运输服务*铁路旅客运输"), ("销售方名称", "")],
    )];
    claim.rows[0].passenger = "张三".into();
    for (field, value) in [
        ("出差事由", "参加学术会议"),
        ("出发地", "北京南"),
        ("目的地", "上海虹桥"),
        ("出发日期", "2025/03/10"),
        ("返回日期", "2025/03/12"),
    ] {
        claim.trip.set(field, value, "user");
    }
    claim
}

fn set(claim: &mut Claim, field: &str, value: &str) {
    claim.rows[0]
        .cells
        .insert(field.to_owned(), value.to_owned());
}

/// The ledger reported `finding` for the first row.
fn ledger(claim: &mut Claim, finding: LedgerFinding) {
    claim.rows[0].ledger.push(LedgerNote {
        finding,
        detail: "该发票已于 2026-11-02 在报销单 BX20261102-0003 中报销（张三）".into(),
    });
}

/// For each rule id: a claim that breaks it.
fn broken(id: &str) -> Claim {
    let mut c = if id.starts_with("trip-")
        || id == "passenger-is-claimant"
        || id == "hotel-folio-for-hotel-stays"
    {
        good_travel()
    } else {
        good()
    };
    match id {
        "invoice-number-required" => set(&mut c, "发票号码", ""),
        "invoice-date-required" => set(&mut c, "开票日期", ""),
        "total-required" => set(&mut c, "价税合计", ""),
        "item-required" => set(&mut c, "项目名称", ""),
        "seller-required" => set(&mut c, "销售方名称", " "),
        "person-required" => set(&mut c, "人员姓名", ""),
        "review-invoice-number" => flag(&mut c, "发票号码", "仅由 OCR 读出"),
        "review-invoice-date" => flag(&mut c, "开票日期", "仅由 OCR 读出"),
        "review-total" => flag(&mut c, "价税合计", "与大写金额不一致（大写：250.00）"),
        "review-seller" => flag(&mut c, "销售方名称", "读自印章"),
        "invoice-number-digits" => set(&mut c, "发票号码", "2543200000002201422X"),
        "invoice-date-valid" => set(&mut c, "开票日期", "2099/01/01"),
        "total-two-decimals" => set(&mut c, "价税合计", "255.5"),
        "card-amount-two-decimals" => set(&mut c, "刷卡金额", "255"),
        "card-date-valid" => set(&mut c, "刷卡日期", "2025/02/30"),
        "card-amount-matches-total" => {
            set(&mut c, "刷卡金额", "250.00");
            set(&mut c, "刷卡日期", "2025/03/11");
            set(&mut c, "公务卡号", "6217000011112222");
        }
        "card-date-near-invoice-date" => {
            set(&mut c, "刷卡日期", "2024/01/01");
            set(&mut c, "公务卡号", "6217000011112222");
        }
        "card-number-for-card-payment" => set(&mut c, "刷卡金额", "255.00"),
        "invoice-number-unique" => c.rows.push(c.rows[0].clone()),
        "sales-list-for-detailed-invoices" => set(&mut c, "规格型号", "详见销货清单"),
        "hotel-folio-for-hotel-stays" => set(&mut c, "项目名称", "*住宿服务*住宿费"),
        "passenger-is-claimant" => c.rows[0].passenger = "李四".into(),
        "trip-purpose" => c.trip.purpose.clear(),
        "trip-origin" => c.trip.origin.clear(),
        "trip-destination" => c.trip.destination.clear(),
        "trip-start" => c.trip.start_date.clear(),
        "trip-end" => c.trip.end_date.clear(),
        "trip-dates-in-order" => c.trip.end_date = "2025/03/01".into(),
        "finance-username" => {
            c.config.username.clear();
        }
        "finance-password" => {
            c.config.password = Password::default();
        }
        "storage-for-outbound-document" => {
            c.config.consumable_storage.clear();
        }
        "ledger-already-claimed" => ledger(&mut c, LedgerFinding::Claimed),
        "ledger-same-file" => ledger(&mut c, LedgerFinding::SameFile),
        "ledger-near-duplicate" => ledger(&mut c, LedgerFinding::NearDuplicate),
        other => panic!("no case for rule {other}"),
    }
    c
}

#[test]
fn the_good_claims_pass_every_rule() {
    for claim in [good(), good_travel()] {
        assert_eq!(RuleSet::builtin().validate(&claim), Vec::new());
    }
}

#[test]
fn every_rule_has_a_case_that_only_it_reports() {
    let rules = RuleSet::builtin();
    assert!(rules.rules().len() >= 25, "the builtin table loaded");
    for rule in rules.rules() {
        let claim = broken(&rule.id);
        let found = check(rule, &claim);
        assert!(!found.is_empty(), "{} did not fire", rule.id);
        for issue in &found {
            assert_eq!(issue.rule, rule.id);
            assert!(
                !issue.message.contains('{'),
                "{}: {}",
                rule.id,
                issue.message
            );
        }
        // Each finding says which rule decided it; the case breaks only what it means to.
        let all = rules.validate(&claim);
        let others: Vec<&str> = all
            .iter()
            .map(|i| i.rule.as_str())
            .filter(|r| *r != rule.id && !related(&rule.id, r))
            .collect();
        assert!(others.is_empty(), "{}: also {others:?}", rule.id);
    }
}

/// Rules a case may also break: a card payment cell set alone also lacks the card number.
fn related(id: &str, other: &str) -> bool {
    id.starts_with("card-") && other.starts_with("card-")
}

#[test]
fn an_edited_flagged_cell_counts_as_checked() {
    let mut claim = good();
    flag(&mut claim, "销售方名称", "读自印章");
    assert_eq!(RuleSet::builtin().validate(&claim).len(), 1);
    set(&mut claim, "销售方名称", "某某文具店（已核对）");
    assert_eq!(RuleSet::builtin().validate(&claim), Vec::new());
}

#[test]
fn a_split_payment_matches_the_sum_of_its_invoices() {
    let mut claim = good();
    let paid = [
        ("刷卡日期", "2025/03/11"),
        ("公务卡号", "6217000011112222"),
        ("刷卡金额", "355.00"),
    ];
    claim.rows = vec![
        row(InvoiceKind::General, &paid),
        row(
            InvoiceKind::General,
            &[
                &paid[..],
                &[("发票号码", "25432000000022014230"), ("价税合计", "100.00")],
            ]
            .concat(),
        ),
    ];
    assert_eq!(RuleSet::builtin().validate(&claim), Vec::new());
}

#[test]
fn a_supplied_material_satisfies_its_rule() {
    let mut claim = broken("hotel-folio-for-hotel-stays");
    claim.materials.push("住宿水单".into());
    assert!(RuleSet::builtin().validate(&claim).is_empty());
}

#[test]
fn a_broken_table_is_refused_with_a_reason() {
    assert!(RuleSet::parse("[[rule]]\nid = \"x\"\ncheck = \"nonsense\"").is_err());
    let twice = "[[rule]]\nid = \"x\"\ncheck = \"required\"\nfield = \"a\"\napplies_to = \"all\"\nreport_as = \"missing_field\"\nmessage = \"m\"\n";
    assert!(matches!(
        RuleSet::parse(&format!("{twice}{twice}")),
        Err(reimburse_agent::RulesError::DuplicateId(_))
    ));
}

#[test]
fn a_claimed_invoice_blocks_and_a_near_duplicate_only_notes() {
    let claimed = broken("ledger-already-claimed");
    let judgement = judge_by_rules(&RuleSet::builtin().validate(&claimed));
    assert!(!judgement.can_submit);
    assert_eq!(
        judgement.semantic_issues,
        ["第 1 行：该发票已于 2026-11-02 在报销单 BX20261102-0003 中报销（张三），不能重复报销"]
    );
    let near = broken("ledger-near-duplicate");
    let issues = RuleSet::builtin().validate(&near);
    assert_eq!(issues[0].report_as, ReportAs::Notice);
    let judgement = judge_by_rules(&issues);
    assert!(judgement.can_submit, "{judgement:?}");
    assert_eq!(judgement.notices.len(), 1);
}
