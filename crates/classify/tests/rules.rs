//! Every rule of the built-in table decides at least one case of its own, and a rule without a
//! case fails the test: the table can only grow with its examples.

#![allow(clippy::unwrap_used, clippy::panic, reason = "test code")]

use domain::{DocumentType, InvoiceKind, InvoiceRecord, LineItem, Party};

/// (rule that must decide, layout, item names, seller).
const CASES: &[(&str, DocumentType, &[&str], &str)] = &[
    (
        "railway, flight and toll documents",
        DocumentType::Railway,
        &[],
        "",
    ),
    (
        "railway, flight and toll documents",
        DocumentType::AirItinerary,
        &[],
        "",
    ),
    (
        "railway, flight and toll documents",
        DocumentType::Toll,
        &["*经营租赁*通行费"],
        "",
    ),
    (
        "hotel stay",
        DocumentType::DigitalSpecial,
        &["*住宿服务*住宿费"],
        "某酒店管理有限公司",
    ),
    (
        "hotel stay",
        DocumentType::DigitalNormal,
        &["*住 宿 服 务*住宿"],
        "",
    ),
    (
        "passenger transport: taxi, ride-hailing, coach, rail, air",
        DocumentType::VatENormal,
        &["*运输服务*客运服务费"],
        "某出行科技有限公司",
    ),
    (
        "passenger transport by item name",
        DocumentType::VatENormal,
        &["客运服务费"],
        "某网络科技有限公司",
    ),
    (
        "passenger transport by item name",
        DocumentType::DigitalNormal,
        &["*现代服务*网约车服务"],
        "",
    ),
    (
        "agency and platform bookings of tickets and lodging",
        DocumentType::VatENormal,
        &["*经纪代理服务*代订机票费"],
        "某航空服务有限公司",
    ),
    (
        "agency and platform bookings of tickets and lodging",
        DocumentType::DigitalNormal,
        &["*经纪代理服务*代垫机票款"],
        "某商务有限公司",
    ),
    (
        "agency and platform bookings of tickets and lodging",
        DocumentType::VatENormal,
        &["*旅游服务*机票款"],
        "某国际旅行社有限公司",
    ),
    (
        "agency and platform bookings of tickets and lodging",
        DocumentType::DigitalNormal,
        &["*旅游服务*住宿费"],
        "某国际旅行社有限公司",
    ),
    (
        "agency and platform bookings of tickets and lodging",
        DocumentType::DigitalNormal,
        &["*生活服务*转售住宿服务"],
        "某差旅数字信息有限公司",
    ),
    (
        "road tolls",
        DocumentType::Unknown,
        &["车辆通行费（限于政府还贷）"],
        "",
    ),
    (
        "road tolls",
        DocumentType::VatENormal,
        &["*预付卡销售*通行费"],
        "",
    ),
    (
        "meals are general even at a hotel",
        DocumentType::DigitalNormal,
        &["*餐饮服务*餐饮费"],
        "某某大酒店",
    ),
    (
        "transport and lodging sellers when the item says nothing more",
        DocumentType::GeneralMachine,
        &["*现代服务*服务费"],
        "某某宾馆",
    ),
];

/// Items that no rule takes: general by default.
const GENERAL: &[&[&str]] = &[
    &["*文具*印章"],
    &["*运输服务*快递费"],
    &["*经纪代理服务*会务费"],
    &["*旅游服务*旅游服务费"],
    &["*汽油*车用汽油"],
    &[],
];

fn record(doc_type: DocumentType, items: &[&str], seller: &str) -> InvoiceRecord {
    InvoiceRecord {
        doc_type,
        items: items
            .iter()
            .map(|name| LineItem {
                name: (*name).into(),
                ..LineItem::default()
            })
            .collect(),
        seller: Party {
            name: seller.into(),
            tax_id: String::new(),
        },
        ..InvoiceRecord::default()
    }
}

#[test]
fn each_case_is_decided_by_its_rule() {
    let set = reimburse_classify::ClassifyRules::builtin();
    for (rule, doc_type, items, seller) in CASES {
        let c = set.classify(&record(*doc_type, items, seller));
        assert_eq!(c.rule.as_deref(), Some(*rule), "{items:?} / {seller}");
        let want = set.rules().iter().find(|r| r.name == *rule).unwrap().kind;
        assert_eq!(c.kind, want, "{items:?}");
    }
}

#[test]
fn every_rule_has_a_case() {
    for rule in reimburse_classify::ClassifyRules::builtin().rules() {
        assert!(
            CASES.iter().any(|(name, ..)| *name == rule.name),
            "rule {:?} has no case in tests/rules.rs",
            rule.name
        );
    }
}

#[test]
fn what_no_rule_takes_is_general() {
    let set = reimburse_classify::ClassifyRules::builtin();
    for items in GENERAL {
        let c = set.classify(&record(DocumentType::DigitalNormal, items, "某有限公司"));
        assert_eq!((c.kind, c.rule), (InvoiceKind::General, None), "{items:?}");
    }
}
