//! The ledger's behaviour, the same tests on SQLite and on PostgreSQL (see common/mod.rs).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::TestDb;
use reimburse_ledger::{
    AuditEntry, AuditFilter, AuditRecord, Backend, ClaimDraft, ClaimFilter, ClaimId, ClaimStatus,
    Holder, InvoiceEntry, Ledger, LedgerError, LoginRecord, NewUser, invoice_key,
};
use std::sync::{Arc, Barrier};

on_both_backends!(
    lifecycle,
    release_keeps_the_claim,
    transitions_refused_from_the_wrong_state,
    already_claimed_names_every_holder,
    freed_invoices_can_be_claimed_again,
    twenty_racing_reservations_one_wins,
    holders_by_sha256,
    near_duplicates,
    claims_filters_and_order,
    claims_text_search,
    export_csv,
    export_xlsx,
    migrations_are_idempotent_on_reopen,
    callable_from_spawn_blocking,
    invalid_drafts_are_refused,
    the_database_itself_refuses_a_second_active_claim,
    users_are_added_listed_and_changed,
    a_new_password_or_disabling_signs_out,
    sign_ins_expire_by_the_ledger_clock,
    user_defaults_are_replaced,
    audit_trail_filters_and_pages,
    audit_csv_export,
    claims_filtered_by_owner,
    accept_writes_the_audit_line,
    accounts_write_nothing_to_the_audit_trail,
);

fn invoice(number: &str, amount_cents: i64, seller: &str) -> InvoiceEntry {
    InvoiceEntry {
        key: invoice_key("", number),
        number: number.into(),
        code: String::new(),
        date: "2026-10-30".into(),
        amount_cents,
        seller: seller.into(),
        sha256: format!("{:0>64}", number),
    }
}

fn draft(claimant: &str, staff_no: &str, invoices: Vec<InvoiceEntry>) -> ClaimDraft {
    ClaimDraft {
        portal: "demo-portal".into(),
        kind: "general".into(),
        staff_no: staff_no.into(),
        claimant: claimant.into(),
        session_id: format!("session-of-{staff_no}"),
        total_cents: invoices.iter().map(|i| i.amount_cents).sum(),
        invoices,
        owner: String::new(),
    }
}

fn keys(of: &[&str]) -> Vec<String> {
    of.iter().map(|n| invoice_key("", n)).collect()
}

const N1: &str = "25442000000116575693";
const N2: &str = "25442000000116575694";
const N3: &str = "25442000000116575695";
const N4: &str = "25442000000116575696";

fn lifecycle(db: &TestDb) {
    let ledger = &db.ledger;
    ledger
        .set_clock_for_tests(Some("2026-11-01T17:30:00Z"))
        .unwrap();
    let id = ledger
        .reserve(&draft(
            "张三",
            "1001",
            vec![invoice(N1, 1250, "甲公司"), invoice(N2, 800, "乙公司")],
        ))
        .unwrap();
    let pending = ledger.pending().unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].id, id);
    assert_eq!(pending[0].session_id, "session-of-1001");
    assert_eq!(pending[0].reserved_at, "2026-11-01T17:30:00Z");
    let holders = ledger.holders(&keys(&[N1, N3])).unwrap();
    assert_eq!(holders.len(), 1);
    assert_eq!(holders[0].status, ClaimStatus::Pending);
    assert_eq!(holders[0].claim_no, "");
    // 17:30 UTC is already the next day in China.
    assert_eq!(holders[0].date, "2026-11-02");

    ledger
        .set_clock_for_tests(Some("2026-11-02T08:00:00Z"))
        .unwrap();
    ledger.accept(id, "BX20261102-0003").unwrap();
    assert!(ledger.pending().unwrap().is_empty());
    let detail = ledger.claim(id).unwrap().unwrap();
    assert_eq!(detail.summary.status, ClaimStatus::Accepted);
    assert_eq!(detail.summary.claim_no, "BX20261102-0003");
    assert_eq!(
        detail.summary.accepted_at.as_deref(),
        Some("2026-11-02T08:00:00Z")
    );
    assert_eq!(detail.summary.submitted_on, "2026-11-02");
    assert_eq!(detail.summary.total_cents, 2050);
    assert_eq!(detail.summary.invoice_count, 2);
    assert_eq!(detail.invoices.len(), 2);
    assert_eq!(
        detail.invoices[0].number, N1,
        "invoices keep the order reserved"
    );
    assert_eq!(detail.invoices[1].seller, "乙公司");
    assert!(detail.voided.is_none() && detail.released.is_none());
    // Accepting again with the same number (a retried job) changes nothing.
    ledger.accept(id, "BX20261102-0003").unwrap();

    ledger
        .set_clock_for_tests(Some("2026-11-03T01:02:03Z"))
        .unwrap();
    ledger.void(id, "重复报销", "财务王五").unwrap();
    let detail = ledger.claim(id).unwrap().unwrap();
    assert_eq!(detail.summary.status, ClaimStatus::Voided);
    let voided = detail.voided.unwrap();
    assert_eq!(
        (voided.reason.as_str(), voided.by.as_str()),
        ("重复报销", "财务王五")
    );
    assert_eq!(voided.at, "2026-11-03T01:02:03Z");
    assert_eq!(detail.invoices.len(), 2, "nothing is deleted");
    assert!(ledger.holders(&keys(&[N1, N2])).unwrap().is_empty());
}

fn release_keeps_the_claim(db: &TestDb) {
    let ledger = &db.ledger;
    let first = ledger
        .reserve(&draft("张三", "1001", vec![invoice(N1, 100, "甲")]))
        .unwrap();
    let second = ledger
        .reserve(&draft("李四", "1002", vec![invoice(N3, 100, "丙")]))
        .unwrap();
    assert!(second > first);
    ledger.release(second, "门户拒绝：缺少附件").unwrap();
    assert_eq!(ledger.pending().unwrap()[0].id, first);
    let detail = ledger.claim(second).unwrap().unwrap();
    assert_eq!(detail.summary.status, ClaimStatus::Released);
    assert_eq!(detail.released.unwrap().reason, "门户拒绝：缺少附件");
    ledger.release(second, "again").unwrap();
    assert!(ledger.claim(ClaimId(9_999)).unwrap().is_none());
    assert_eq!(
        ledger.backend(),
        if db.url.starts_with("sqlite") {
            Backend::Sqlite
        } else {
            Backend::Postgres
        }
    );
}

fn transitions_refused_from_the_wrong_state(db: &TestDb) {
    let ledger = &db.ledger;
    let id = ledger
        .reserve(&draft("张三", "1001", vec![invoice(N1, 100, "甲")]))
        .unwrap();
    assert_eq!(
        ledger.void(id, "原因", "财务"),
        Err(LedgerError::NotAccepted)
    );
    assert_eq!(ledger.accept(id, "  "), Err(LedgerError::EmptyClaimNo));
    ledger.accept(id, "BX1").unwrap();
    assert_eq!(
        ledger.accept(id, "BX2"),
        Err(LedgerError::NotPending(ClaimStatus::Accepted))
    );
    assert_eq!(
        ledger.release(id, "x"),
        Err(LedgerError::NotPending(ClaimStatus::Accepted))
    );
    assert_eq!(ledger.void(id, " ", "财务"), Err(LedgerError::EmptyReason));
    assert_eq!(
        ledger.void(ClaimId(424_242), "原因", "财务"),
        Err(LedgerError::NotFound)
    );
    assert_eq!(
        ledger.accept(ClaimId(424_242), "BX9"),
        Err(LedgerError::NotFound)
    );
    assert_eq!(
        ledger.release(ClaimId(424_242), "x"),
        Err(LedgerError::NotFound)
    );
    ledger.void(id, "原因", "财务").unwrap();
    assert_eq!(
        ledger.void(id, "原因", "财务"),
        Err(LedgerError::NotAccepted)
    );
    assert_eq!(
        ledger.accept(id, "BX1"),
        Err(LedgerError::NotPending(ClaimStatus::Voided))
    );
    assert_eq!(
        ledger.void(id, "原因", "财务").unwrap_err().to_string(),
        "只有已报销的报销单可以作废"
    );
}

fn already_claimed_names_every_holder(db: &TestDb) {
    let ledger = &db.ledger;
    ledger
        .set_clock_for_tests(Some("2026-11-02T02:00:00Z"))
        .unwrap();
    let first = ledger
        .reserve(&draft(
            "张三",
            "1001",
            vec![invoice(N1, 100, "甲"), invoice(N2, 200, "乙")],
        ))
        .unwrap();
    ledger.accept(first, "BX20261102-0003").unwrap();
    let second = ledger
        .reserve(&draft("李四", "1002", vec![invoice(N3, 300, "丙")]))
        .unwrap();

    let refused = ledger.reserve(&draft(
        "王五",
        "1003",
        vec![
            invoice(N4, 1, "丁"),
            invoice(N3, 300, "丙"),
            invoice(N1, 100, "甲"),
        ],
    ));
    let Err(LedgerError::AlreadyClaimed(holders)) = &refused else {
        panic!("{refused:?}");
    };
    let expected = vec![
        Holder {
            invoice_key: N3.into(),
            claim_id: second,
            claim_no: String::new(),
            status: ClaimStatus::Pending,
            date: "2026-11-02".into(),
            claimant: "李四".into(),
            staff_no: "1002".into(),
            session_id: "session-of-1002".into(),
            sha256: format!("{N3:0>64}"),
        },
        Holder {
            invoice_key: N1.into(),
            claim_id: first,
            claim_no: "BX20261102-0003".into(),
            status: ClaimStatus::Accepted,
            date: "2026-11-02".into(),
            claimant: "张三".into(),
            staff_no: "1001".into(),
            session_id: "session-of-1001".into(),
            sha256: format!("{N1:0>64}"),
        },
    ];
    assert_eq!(holders, &expected, "in the draft's order");
    assert_eq!(
        refused.unwrap_err().to_string(),
        format!(
            "发票 {N3} 正在报销单提交中（李四）；\
             发票 {N1} 已于 2026-11-02 在报销单 BX20261102-0003 中报销（张三）"
        )
    );
    // Nothing of the refused draft was written.
    assert!(ledger.holders(&keys(&[N4])).unwrap().is_empty());
    assert_eq!(ledger.claims(&ClaimFilter::default()).unwrap().len(), 2);
}

fn freed_invoices_can_be_claimed_again(db: &TestDb) {
    let ledger = &db.ledger;
    let one = ledger
        .reserve(&draft("张三", "1001", vec![invoice(N1, 100, "甲")]))
        .unwrap();
    assert!(matches!(
        ledger.reserve(&draft("李四", "1002", vec![invoice(N1, 100, "甲")])),
        Err(LedgerError::AlreadyClaimed(_))
    ));
    ledger.release(one, "提交失败").unwrap();
    let two = ledger
        .reserve(&draft("李四", "1002", vec![invoice(N1, 100, "甲")]))
        .unwrap();
    ledger.accept(two, "BX2").unwrap();
    ledger.void(two, "开错了", "财务").unwrap();
    let three = ledger
        .reserve(&draft("王五", "1003", vec![invoice(N1, 100, "甲")]))
        .unwrap();
    let holders = ledger.holders(&keys(&[N1])).unwrap();
    assert_eq!(holders.len(), 1);
    assert_eq!(holders[0].claim_id, three);
    assert_eq!(holders[0].claimant, "王五");
    // The history stays.
    let all = ledger.claims(&ClaimFilter::default()).unwrap();
    let statuses: Vec<ClaimStatus> = all.iter().map(|c| c.status).collect();
    assert_eq!(
        statuses,
        [
            ClaimStatus::Pending,
            ClaimStatus::Voided,
            ClaimStatus::Released
        ]
    );
}

fn twenty_racing_reservations_one_wins(db: &TestDb) {
    // Four handles on the database, as four service instances; five threads on each.
    let ledgers: Vec<Ledger> = (0..4).map(|_| db.open_again()).collect();
    let barrier = Arc::new(Barrier::new(20));
    let threads: Vec<_> = (0..20)
        .map(|n| {
            let ledger = ledgers[n % 4].clone();
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                let own = format!("{:020}", 90_000 + n);
                let d = draft(
                    &format!("用户{n}"),
                    &format!("{n}"),
                    vec![invoice(&own, 100, "甲"), invoice(N1, 500, "乙")],
                );
                barrier.wait();
                ledger.reserve(&d)
            })
        })
        .collect();
    let results: Vec<Result<ClaimId, LedgerError>> =
        threads.into_iter().map(|t| t.join().unwrap()).collect();
    let winners: Vec<ClaimId> = results.iter().filter_map(|r| r.clone().ok()).collect();
    assert_eq!(winners.len(), 1, "{results:?}");
    for result in &results {
        match result {
            Ok(_) => {}
            Err(LedgerError::AlreadyClaimed(holders)) => {
                assert_eq!(holders.len(), 1, "{holders:?}");
                assert_eq!(holders[0].claim_id, winners[0]);
                assert_eq!(holders[0].invoice_key, N1);
            }
            Err(other) => panic!("unexpected: {other:?} ({other})"),
        }
    }
    let claims = db.ledger.claims(&ClaimFilter::default()).unwrap();
    assert_eq!(claims.len(), 1, "refused reservations leave nothing behind");
}

fn holders_by_sha256(db: &TestDb) {
    let ledger = &db.ledger;
    let mut a = invoice(N1, 100, "甲");
    a.sha256 = "ABCDEF".repeat(10) + "ABCD";
    let id = ledger
        .reserve(&draft(
            "张三",
            "1001",
            vec![a.clone(), invoice(N2, 5, "乙")],
        ))
        .unwrap();
    let found = ledger
        .holders_by_sha256(&[a.sha256.to_ascii_lowercase(), "f".repeat(64), String::new()])
        .unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].claim_id, found[0].invoice_key.as_str()), (id, N1));
    ledger.release(id, "x").unwrap();
    assert!(ledger.holders_by_sha256(&[a.sha256]).unwrap().is_empty());
    assert!(ledger.holders_by_sha256(&[]).unwrap().is_empty());
}

fn near_duplicates(db: &TestDb) {
    let ledger = &db.ledger;
    let held = invoice(N1, 12_345, "广州某某科技有限公司");
    let id = ledger
        .reserve(&draft("张三", "1001", vec![held.clone()]))
        .unwrap();
    let same_purchase = InvoiceEntry {
        key: N2.into(),
        number: N2.into(),
        ..held.clone()
    };
    let other_amount = InvoiceEntry {
        key: N3.into(),
        amount_cents: 12_346,
        ..held.clone()
    };
    let other_date = InvoiceEntry {
        key: N3.into(),
        date: "2026-10-31".into(),
        ..held.clone()
    };
    let no_seller = InvoiceEntry {
        key: N4.into(),
        seller: String::new(),
        ..held.clone()
    };
    let probes = [
        held.clone(),
        same_purchase,
        other_amount,
        other_date,
        no_seller,
    ];
    let found = ledger.near_duplicates(&probes).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, 1);
    assert_eq!(
        (found[0].1.claim_id, found[0].1.invoice_key.as_str()),
        (id, N1)
    );
    ledger.release(id, "x").unwrap();
    assert!(ledger.near_duplicates(&probes).unwrap().is_empty());
}

/// Four claims on three dates: [d (released), c (pending), b (travel), a], newest first.
fn four_claims(ledger: &Ledger) -> [ClaimId; 4] {
    let at = |utc: &str| ledger.set_clock_for_tests(Some(utc)).unwrap();
    at("2026-10-01T02:00:00Z");
    let a = ledger
        .reserve(&draft("张三", "1001", vec![invoice(N1, 100, "甲文具店")]))
        .unwrap();
    ledger.accept(a, "BX20261001-0001").unwrap();
    at("2026-10-15T02:00:00Z");
    let mut travel = draft("李四", "1002", vec![invoice(N2, 200, "某航空公司")]);
    travel.kind = "travel".into();
    let b = ledger.reserve(&travel).unwrap();
    ledger.accept(b, "BX20261015-0002").unwrap();
    at("2026-11-01T02:00:00Z");
    let c = ledger
        .reserve(&draft("张三", "1001", vec![invoice(N3, 300, "乙_超市")]))
        .unwrap();
    at("2026-11-01T03:00:00Z");
    let d = ledger
        .reserve(&draft("王五", "1003", vec![invoice(N4, 400, "丙")]))
        .unwrap();
    ledger.release(d, "x").unwrap();
    [d, c, b, a]
}

/// The ids `claims` lists for the filter `set` makes.
fn listed(ledger: &Ledger, set: impl FnOnce(&mut ClaimFilter)) -> Vec<ClaimId> {
    let mut filter = ClaimFilter::default();
    set(&mut filter);
    ledger
        .claims(&filter)
        .unwrap()
        .iter()
        .map(|c| c.id)
        .collect()
}

fn text(t: &str) -> impl FnOnce(&mut ClaimFilter) {
    let t = t.to_owned();
    move |f: &mut ClaimFilter| f.text = Some(t)
}

fn claims_filters_and_order(db: &TestDb) {
    let ledger = &db.ledger;
    let [d, c, b, a] = four_claims(ledger);
    assert_eq!(listed(ledger, |_| ()), [d, c, b, a], "newest first");
    assert_eq!(listed(ledger, |f| f.staff_no = Some("1001".into())), [c, a]);
    assert_eq!(listed(ledger, |f| f.kind = Some("travel".into())), [b]);
    let october_second_half = |f: &mut ClaimFilter| {
        f.from = Some("2026-10-15".into());
        f.to = Some("2026-10-31".into());
    };
    assert_eq!(listed(ledger, october_second_half), [b]);
    assert_eq!(
        listed(ledger, |f| f.from = Some("2026-11-01".into())),
        [d, c]
    );
    let accepted = |f: &mut ClaimFilter| f.status = Some(ClaimStatus::Accepted);
    assert_eq!(listed(ledger, accepted), [b, a]);
    let released = |f: &mut ClaimFilter| f.status = Some(ClaimStatus::Released);
    assert_eq!(listed(ledger, released), [d]);
    assert_eq!(listed(ledger, |f| f.offset = 3), [a]);
    let page = |f: &mut ClaimFilter| {
        f.limit = Some(2);
        f.offset = 1;
    };
    assert_eq!(listed(ledger, page), [c, b]);
    let first = ledger
        .claims(&ClaimFilter {
            limit: Some(1),
            ..ClaimFilter::default()
        })
        .unwrap();
    assert_eq!(first[0].claimant, "王五");
    assert_eq!(first[0].submitted_on, "2026-11-01");
    assert_eq!(first[0].invoice_count, 1);
    let bad = ClaimFilter {
        from: Some("2026/11/01".into()),
        ..ClaimFilter::default()
    };
    assert!(matches!(
        ledger.claims(&bad),
        Err(LedgerError::InvalidFilter(_))
    ));
}

fn claims_text_search(db: &TestDb) {
    let ledger = &db.ledger;
    let [d, c, b, a] = four_claims(ledger);
    // In the claim number (any case), the claimant, a seller, an invoice number.
    assert_eq!(listed(ledger, text("bx20261015")), [b]);
    assert_eq!(listed(ledger, text("张三")), [c, a]);
    assert_eq!(listed(ledger, text("航空")), [b]);
    assert_eq!(listed(ledger, text(&N4[12..])), [d]);
    assert_eq!(listed(ledger, text("乙_")), [c]);
    assert_eq!(listed(ledger, text("_")), [c], "wildcards are literal");
    assert!(listed(ledger, text("%")).is_empty());
    let both = |f: &mut ClaimFilter| {
        f.staff_no = Some("1001".into());
        f.text = Some("文具".into());
    };
    assert_eq!(listed(ledger, both), [a]);
}

/// Two claims, one voided, for the exports; the seller of one looks like a formula.
fn exported(ledger: &Ledger) {
    ledger
        .set_clock_for_tests(Some("2026-11-02T02:00:00Z"))
        .unwrap();
    let a = ledger
        .reserve(&draft(
            "张三",
            "1001",
            vec![
                invoice(N1, 1250, "甲公司"),
                invoice(N2, 99_900, "=HYPERLINK(1)"),
            ],
        ))
        .unwrap();
    ledger.accept(a, "BX20261102-0003").unwrap();
    ledger
        .set_clock_for_tests(Some("2026-11-03T02:00:00Z"))
        .unwrap();
    let b = ledger
        .reserve(&draft("李四", "1002", vec![invoice(N3, 5, "乙公司")]))
        .unwrap();
    ledger.accept(b, "BX20261103-0001").unwrap();
    ledger.void(b, "重复", "财务王五").unwrap();
}

fn export_csv(db: &TestDb) {
    exported(&db.ledger);
    let bytes = db.ledger.export_csv(&ClaimFilter::default()).unwrap();
    let text = std::str::from_utf8(bytes.strip_prefix(b"\xEF\xBB\xBF").expect("a BOM")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines[0].starts_with("报销单号,状态,报销类型,工号,报销人"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1]
            .starts_with("BX20261103-0001,已作废,日常报销,1002,李四,demo-portal,2026-11-03,0.05,"),
        "{}",
        lines[1]
    );
    assert!(
        lines[1].contains(",重复,财务王五,2026-11-03 10:00:00,"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].contains(&format!(",{N1},2026-10-30,12.50,甲公司,")),
        "{}",
        lines[2]
    );
    assert!(
        lines[2].contains(",1011.50,"),
        "the claim's total: {}",
        lines[2]
    );
    assert!(lines[3].contains(",999.00,'=HYPERLINK(1),"), "{}", lines[3]);
    let filtered = db
        .ledger
        .export_csv(&ClaimFilter {
            status: Some(ClaimStatus::Voided),
            ..ClaimFilter::default()
        })
        .unwrap();
    assert_eq!(String::from_utf8(filtered).unwrap().lines().count(), 2);
}

fn export_xlsx(db: &TestDb) {
    use std::io::Read as _;
    exported(&db.ledger);
    let bytes = db.ledger.export_xlsx(&ClaimFilter::default()).unwrap();
    assert!(bytes.starts_with(b"PK\x03\x04"), "a zip");
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut read = |name: &str| {
        let mut text = String::new();
        zip.by_name(name)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        text
    };
    let sheet = read("xl/worksheets/sheet1.xml");
    let strings = read("xl/sharedStrings.xml");
    for number in ["<v>12.5</v>", "<v>999</v>", "<v>0.05</v>", "<v>1011.5</v>"] {
        assert!(sheet.contains(number), "{number} in {sheet}");
    }
    assert!(sheet.contains("<cols>"), "columns are sized");
    for text in [
        "报销单号",
        "BX20261102-0003",
        "甲公司",
        "=HYPERLINK(1)",
        N1,
        "2026-10-30",
        "已作废",
    ] {
        assert!(strings.contains(text), "{text} in {strings}");
    }
    let styles = read("xl/styles.xml");
    assert!(
        styles.contains("<b/>") && styles.contains("0.00"),
        "{styles}"
    );
}

fn migrations_are_idempotent_on_reopen(db: &TestDb) {
    let id = db
        .ledger
        .reserve(&draft("张三", "1001", vec![invoice(N1, 100, "甲")]))
        .unwrap();
    for _ in 0..2 {
        let again = db.open_again();
        assert_eq!(again.claim(id).unwrap().unwrap().summary.claimant, "张三");
        assert!(matches!(
            again.reserve(&draft("李四", "1002", vec![invoice(N1, 100, "甲")])),
            Err(LedgerError::AlreadyClaimed(_))
        ));
    }
}

fn callable_from_spawn_blocking(db: &TestDb) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let ledger = db.open_again();
    runtime.block_on(async move {
        let id = tokio::task::spawn_blocking({
            let ledger = ledger.clone();
            move || ledger.reserve(&draft("张三", "1001", vec![invoice(N1, 100, "甲")]))
        })
        .await
        .unwrap()
        .unwrap();
        let held = tokio::task::spawn_blocking({
            let ledger = ledger.clone();
            move || ledger.holders(&keys(&[N1]))
        })
        .await
        .unwrap()
        .unwrap();
        assert_eq!(held[0].claim_id, id);
        // The last handle dropped by an async task: no panic, no hang.
        tokio::spawn(async move { drop(ledger) }).await.unwrap();
    });
    assert_eq!(db.ledger.holders(&keys(&[N1])).unwrap().len(), 1);
}

/// The guard is the partial unique index, not the ledger's code: a writer going around the API
/// cannot make an invoice active twice either, while inactive copies are free to repeat.
fn the_database_itself_refuses_a_second_active_claim(db: &TestDb) {
    let id = db
        .ledger
        .reserve(&draft("张三", "1001", vec![invoice(N1, 100, "甲")]))
        .unwrap();
    let insert = |claim: i64, seq: i64, active: &str| {
        db.raw(&format!(
            "INSERT INTO claim_invoices (claim_id, seq, invoice_key, invoice_number, \
             invoice_code, invoice_date, amount_cents, seller, sha256, active) \
             VALUES ({claim}, {seq}, '{N1}', '{N1}', '', '2026-10-30', 100, '甲', '', {active})"
        ))
    };
    let refused = insert(id.0, 7, "TRUE").unwrap_err();
    assert!(
        refused.contains("claim_invoices_active_key") || refused.contains("UNIQUE"),
        "{refused}"
    );
    insert(id.0, 8, "FALSE").unwrap();
    insert(id.0, 9, "FALSE").unwrap();
    // The foreign key holds too.
    assert!(insert(987_654, 1, "FALSE").is_err());
}

fn invalid_drafts_are_refused(db: &TestDb) {
    let ledger = &db.ledger;
    let invalid = |d: ClaimDraft| match ledger.reserve(&d) {
        Err(LedgerError::InvalidDraft(message)) => message,
        other => panic!("{other:?}"),
    };
    assert!(invalid(draft("张三", "1", vec![])).contains("没有发票"));
    let twice = invalid(draft(
        "张三",
        "1",
        vec![invoice(N1, 1, "甲"), invoice(N1, 1, "甲")],
    ));
    assert!(twice.contains("两次"), "{twice}");
    let mut other_kind = draft("张三", "1", vec![invoice(N1, 1, "甲")]);
    other_kind.kind = "meals".into();
    assert!(invalid(other_kind).contains("general"));
    let mut bad_date = invoice(N1, 1, "甲");
    bad_date.date = "2026/10/30".into();
    assert!(invalid(draft("张三", "1", vec![bad_date])).contains("YYYY-MM-DD"));
    let mut no_key = invoice(N1, 1, "甲");
    no_key.key = String::new();
    assert!(invalid(draft("张三", "1", vec![no_key])).contains("第 1 张"));
    assert!(ledger.claims(&ClaimFilter::default()).unwrap().is_empty());
}

#[test]
fn open_explains_a_bad_address() {
    let err = Ledger::open("mysql://root:hunter2@localhost/ledger").unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LedgerError::BadUrl(_)));
    assert!(
        text.contains("只支持") && text.contains("postgres://"),
        "{text}"
    );
    assert!(!text.contains("hunter2"), "{text}");

    let err = Ledger::open("postgres://app:hunter2@127.0.0.1:1/ledger").unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, LedgerError::Connect { .. }), "{err:?}");
    assert!(
        text.starts_with("无法打开报销台账数据库 postgres://app:***@127.0.0.1:1/ledger："),
        "{text}"
    );
    assert!(!text.contains("hunter2"), "{text}");

    let err = Ledger::open("postgres://app@host:notaport/ledger").unwrap_err();
    assert!(matches!(err, LedgerError::BadUrl(_)), "{err:?}");

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, [0x5a_u8; 4096]).unwrap();
    let err = Ledger::open(&format!("sqlite://{}/ledger.db", file.display())).unwrap_err();
    assert!(matches!(err, LedgerError::Connect { .. }), "{err:?}");
    let err = Ledger::open_sqlite(&file.join("ledger.db")).unwrap_err();
    assert!(
        err.to_string().starts_with("无法打开报销台账数据库"),
        "{err}"
    );
    // Not a database at all.
    let err = Ledger::open_sqlite(&file).unwrap_err();
    assert!(err.to_string().contains("报销台账"), "{err}");
}

#[test]
fn open_sqlite_creates_the_file_and_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data/ledger.db");
    let ledger = Ledger::open_sqlite(&path).unwrap();
    assert_eq!(ledger.backend(), Backend::Sqlite);
    assert!(path.is_file());
    assert!(format!("{ledger:?}").contains("ledger.db"));
    let relative = format!("sqlite://{}", path.display()).replace("sqlite:///", "sqlite:///");
    drop(ledger);
    assert!(Ledger::open(&relative).is_ok());
}

#[test]
fn debug_hides_the_password() {
    let Ok(url) = std::env::var(common::POSTGRES_URL) else {
        return;
    };
    let ledger = Ledger::open(&url).unwrap();
    let shown = format!("{ledger:?}");
    assert!(shown.contains("Postgres"), "{shown}");
    let password = url
        .split_once("://")
        .and_then(|(_, rest)| rest.split_once('@'))
        .and_then(|(user, _)| user.split_once(':'))
        .map(|(_, password)| password);
    if let Some(password) = password {
        assert!(!shown.contains(&format!(":{password}@")), "{shown}");
        assert!(shown.contains(":***@"), "{shown}");
    }
}

fn new_user(username: &str, finance: bool) -> NewUser {
    NewUser {
        username: username.into(),
        display_name: format!("{username} 的名字"),
        password_hash: format!("$argon2id$v=19$hash-of-{username}"),
        finance,
    }
}

fn users_are_added_listed_and_changed(db: &TestDb) {
    let ledger = &db.ledger;
    ledger
        .set_clock_for_tests(Some("2026-11-02T08:00:00Z"))
        .unwrap();
    ledger.add_user(&new_user("bob", true)).unwrap();
    ledger.add_user(&new_user("alice", false)).unwrap();
    assert_eq!(
        ledger.add_user(&new_user("alice", true)),
        Err(LedgerError::UserExists("alice".into()))
    );
    for (username, hash) in [("", "h"), ("  ", "h"), (" carol", "h"), ("carol", "")] {
        let user = NewUser {
            password_hash: hash.into(),
            ..new_user(username, false)
        };
        assert!(
            matches!(ledger.add_user(&user), Err(LedgerError::Invalid(_))),
            "{user:?}"
        );
    }
    let alice = ledger.user("alice").unwrap().unwrap();
    assert_eq!(alice.display_name, "alice 的名字");
    assert_eq!(alice.password_hash, "$argon2id$v=19$hash-of-alice");
    assert!(!alice.finance && !alice.disabled);
    assert_eq!(alice.created_at, "2026-11-02T08:00:00Z");
    assert_eq!(alice.updated_at, alice.created_at);
    assert!(ledger.user("Alice").unwrap().is_none(), "exact names");
    assert!(ledger.user("nobody").unwrap().is_none());
    let names: Vec<String> = ledger
        .users()
        .unwrap()
        .into_iter()
        .map(|u| u.username)
        .collect();
    assert_eq!(names, ["alice", "bob"]);

    ledger
        .set_clock_for_tests(Some("2026-11-03T09:00:00Z"))
        .unwrap();
    ledger.set_user_finance("alice", true).unwrap();
    ledger.set_user_finance("bob", false).unwrap();
    let alice = ledger.user("alice").unwrap().unwrap();
    assert!(alice.finance);
    assert_eq!(alice.updated_at, "2026-11-03T09:00:00Z");
    assert_eq!(alice.created_at, "2026-11-02T08:00:00Z");
    assert!(!ledger.user("bob").unwrap().unwrap().finance);
    let nobody = || LedgerError::NoSuchUser("nobody".into());
    assert_eq!(ledger.set_user_finance("nobody", true), Err(nobody()));
    assert_eq!(ledger.set_user_disabled("nobody", true), Err(nobody()));
    assert_eq!(ledger.set_password_hash("nobody", "h"), Err(nobody()));
    assert!(matches!(
        ledger.set_password_hash("alice", ""),
        Err(LedgerError::Invalid(_))
    ));
    assert_eq!(nobody().to_string(), "没有用户 nobody");
}

fn a_new_password_or_disabling_signs_out(db: &TestDb) {
    let ledger = &db.ledger;
    ledger.add_user(&new_user("alice", false)).unwrap();
    ledger.add_user(&new_user("bob", false)).unwrap();
    for token in ["a1", "a2"] {
        ledger
            .create_login(token, "alice", "10.0.0.1", 3600)
            .unwrap();
    }
    ledger.create_login("b1", "bob", "10.0.0.2", 3600).unwrap();

    ledger.set_password_hash("alice", "new-hash").unwrap();
    assert_eq!(
        ledger.user("alice").unwrap().unwrap().password_hash,
        "new-hash"
    );
    assert!(ledger.login("a1").unwrap().is_none());
    assert!(ledger.login("a2").unwrap().is_none());
    assert!(ledger.login("b1").unwrap().is_some(), "other users stay");

    ledger
        .create_login("a3", "alice", "10.0.0.1", 3600)
        .unwrap();
    ledger.set_user_disabled("alice", true).unwrap();
    assert!(ledger.user("alice").unwrap().unwrap().disabled);
    assert!(ledger.login("a3").unwrap().is_none());
    assert_eq!(
        ledger.create_login("a4", "alice", "10.0.0.1", 3600),
        Err(LedgerError::UserDisabled("alice".into()))
    );
    // Enabling again does not bring the old sign-ins back.
    ledger.set_user_disabled("alice", false).unwrap();
    assert!(ledger.login("a3").unwrap().is_none());
    ledger
        .create_login("a4", "alice", "10.0.0.1", 3600)
        .unwrap();
    assert!(ledger.login("a4").unwrap().is_some());

    // A sign-in whose user was disabled behind the API's back is refused all the same.
    db.raw("UPDATE users SET disabled = TRUE WHERE username = 'bob'")
        .unwrap();
    assert!(ledger.login("b1").unwrap().is_none());
}

fn sign_ins_expire_by_the_ledger_clock(db: &TestDb) {
    let ledger = &db.ledger;
    ledger.add_user(&new_user("alice", true)).unwrap();
    ledger
        .set_clock_for_tests(Some("2026-11-02T08:00:00Z"))
        .unwrap();
    let created = ledger
        .create_login("token-hash-1", "alice", "192.0.2.7", 3600)
        .unwrap();
    let expected = LoginRecord {
        username: "alice".into(),
        display_name: "alice 的名字".into(),
        finance: true,
        address: "192.0.2.7".into(),
        created_at: "2026-11-02T08:00:00Z".into(),
        expires_at: "2026-11-02T09:00:00Z".into(),
    };
    assert_eq!(created, expected);
    assert_eq!(ledger.login("token-hash-1").unwrap(), Some(expected));
    ledger
        .create_login("token-hash-2", "alice", "192.0.2.7", 7200)
        .unwrap();
    assert!(ledger.login("unknown").unwrap().is_none());
    // The role is read at each lookup.
    ledger.set_user_finance("alice", false).unwrap();
    assert!(!ledger.login("token-hash-1").unwrap().unwrap().finance);

    ledger
        .set_clock_for_tests(Some("2026-11-02T08:59:59Z"))
        .unwrap();
    assert!(ledger.login("token-hash-1").unwrap().is_some());
    ledger
        .set_clock_for_tests(Some("2026-11-02T09:00:00Z"))
        .unwrap();
    assert!(ledger.login("token-hash-1").unwrap().is_none(), "expired");
    assert!(ledger.login("token-hash-2").unwrap().is_some());
    assert_eq!(ledger.purge_expired_logins().unwrap(), 1);
    assert_eq!(ledger.purge_expired_logins().unwrap(), 0);
    ledger.delete_login("token-hash-2").unwrap();
    assert!(ledger.login("token-hash-2").unwrap().is_none());
    ledger.delete_login("token-hash-2").unwrap();

    assert_eq!(
        ledger.create_login("t", "nobody", "", 60),
        Err(LedgerError::NoSuchUser("nobody".into()))
    );
    for (token, ttl) in [("", 60), ("t", 0), ("t", -5), ("t", i64::MAX)] {
        assert!(
            matches!(
                ledger.create_login(token, "alice", "", ttl),
                Err(LedgerError::Invalid(_))
            ),
            "{token:?} {ttl}"
        );
    }
}

fn user_defaults_are_replaced(db: &TestDb) {
    let ledger = &db.ledger;
    assert_eq!(ledger.user_defaults("alice").unwrap(), None);
    // No account needed: users signed in by a proxy have none.
    ledger
        .set_user_defaults("alice", r#"{"portal":"demo"}"#)
        .unwrap();
    ledger.set_user_defaults("bob", "{}").unwrap();
    ledger
        .set_user_defaults("alice", r#"{"portal":"other","名字":"张三"}"#)
        .unwrap();
    assert_eq!(
        ledger.user_defaults("alice").unwrap().as_deref(),
        Some(r#"{"portal":"other","名字":"张三"}"#)
    );
    assert_eq!(ledger.user_defaults("bob").unwrap().as_deref(), Some("{}"));
}

fn entry(username: &str, action: &str, session_id: &str, detail: &str) -> AuditEntry {
    AuditEntry {
        username: username.into(),
        address: "10.0.0.9".into(),
        action: action.into(),
        session_id: session_id.into(),
        detail: detail.into(),
    }
}

/// Five audit lines, the first two at the same instant; the China day changes between the
/// third and the fourth (16:00 UTC is midnight in China).
fn five_audit_lines(ledger: &Ledger) {
    let at = |utc: &str| ledger.set_clock_for_tests(Some(utc)).unwrap();
    at("2026-10-31T16:00:00Z");
    ledger.record(&entry("alice", "login", "", "")).unwrap();
    ledger
        .record(&entry("alice", "upload", "s1", "3 个文件"))
        .unwrap();
    at("2026-11-01T15:59:59Z");
    ledger.record(&entry("bob", "login", "", "")).unwrap();
    at("2026-11-01T16:00:00Z");
    ledger.record(&entry("alice", "submit", "s1", "")).unwrap();
    at("2026-11-03T01:00:00Z");
    ledger.record(&entry("bob", "logout", "", "")).unwrap();
}

/// The (username, action) of the audit lines `set` selects.
fn audited(ledger: &Ledger, set: impl FnOnce(&mut AuditFilter)) -> Vec<(String, String)> {
    let mut filter = AuditFilter::default();
    set(&mut filter);
    ledger
        .audit_log(&filter)
        .unwrap()
        .into_iter()
        .map(|r| (r.username, r.action))
        .collect()
}

fn pairs(of: &[(&str, &str)]) -> Vec<(String, String)> {
    of.iter()
        .map(|(u, a)| ((*u).to_owned(), (*a).to_owned()))
        .collect()
}

fn audit_trail_filters_and_pages(db: &TestDb) {
    let ledger = &db.ledger;
    five_audit_lines(ledger);
    let all = ledger.audit_log(&AuditFilter::default()).unwrap();
    assert_eq!(all.len(), 5);
    assert_eq!(
        all[0],
        AuditRecord {
            id: all[0].id,
            at: "2026-11-03T01:00:00Z".into(),
            username: "bob".into(),
            address: "10.0.0.9".into(),
            action: "logout".into(),
            session_id: String::new(),
            detail: String::new(),
        }
    );
    let newest_first = pairs(&[
        ("bob", "logout"),
        ("alice", "submit"),
        ("bob", "login"),
        ("alice", "upload"),
        ("alice", "login"),
    ]);
    assert_eq!(audited(ledger, |_| ()), newest_first, "same instant: by id");
    assert_eq!(
        audited(ledger, |f| f.username = Some("bob".into())),
        pairs(&[("bob", "logout"), ("bob", "login")])
    );
    assert_eq!(
        audited(ledger, |f| f.action = Some("login".into())),
        pairs(&[("bob", "login"), ("alice", "login")])
    );
    assert_eq!(
        audited(ledger, |f| f.session_id = Some("s1".into())),
        pairs(&[("alice", "submit"), ("alice", "upload")])
    );
    // Days in China: 2026-11-01 runs from 10-31T16:00Z to 11-01T16:00Z.
    let november_first = |f: &mut AuditFilter| {
        f.from = Some("2026-11-01".into());
        f.to = Some("2026-11-01".into());
    };
    assert_eq!(
        audited(ledger, november_first),
        pairs(&[("bob", "login"), ("alice", "upload"), ("alice", "login")])
    );
    assert_eq!(
        audited(ledger, |f| f.from = Some("2026-11-02".into())),
        pairs(&[("bob", "logout"), ("alice", "submit")])
    );
    assert_eq!(
        audited(ledger, |f| f.to = Some("2026-10-31".into())),
        pairs(&[])
    );
    let page = |f: &mut AuditFilter| {
        f.limit = Some(2);
        f.offset = 1;
    };
    assert_eq!(
        audited(ledger, page),
        pairs(&[("alice", "submit"), ("bob", "login")])
    );
    let alice_last = |f: &mut AuditFilter| {
        f.username = Some("alice".into());
        f.offset = 2;
    };
    assert_eq!(audited(ledger, alice_last), pairs(&[("alice", "login")]));
    let bad = AuditFilter {
        to: Some("2026-11-31".into()),
        ..AuditFilter::default()
    };
    assert!(matches!(
        ledger.audit_log(&bad),
        Err(LedgerError::InvalidFilter(_))
    ));
    assert!(matches!(
        ledger.record(&entry("alice", " ", "", "")),
        Err(LedgerError::Invalid(_))
    ));
    assert_eq!(ledger.audit_log(&AuditFilter::default()).unwrap().len(), 5);
}

fn audit_csv_export(db: &TestDb) {
    let ledger = &db.ledger;
    five_audit_lines(ledger);
    ledger
        .record(&entry("carol", "rename", "s9", "=HYPERLINK(\"x\")"))
        .unwrap();
    let bytes = ledger.export_audit_csv(&AuditFilter::default()).unwrap();
    let text = std::str::from_utf8(bytes.strip_prefix(b"\xEF\xBB\xBF").expect("a BOM")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7, "{text}");
    assert_eq!(lines[0], "时间,用户,地址,操作,会话,详情");
    // The clock stayed at 2026-11-03T01:00:00Z: 09:00 in China.
    assert_eq!(
        lines[1],
        "2026-11-03 09:00:00,carol,10.0.0.9,rename,s9,\"'=HYPERLINK(\"\"x\"\")\""
    );
    assert_eq!(
        lines[6], "2026-11-01 00:00:00,alice,10.0.0.9,login,,",
        "{text}"
    );
    let bobs = ledger
        .export_audit_csv(&AuditFilter {
            username: Some("bob".into()),
            limit: Some(1),
            ..AuditFilter::default()
        })
        .unwrap();
    let bobs = String::from_utf8(bobs).unwrap();
    assert_eq!(bobs.lines().count(), 2, "{bobs}");
    assert!(bobs.contains(",bob,10.0.0.9,logout,"), "{bobs}");
}

fn claims_filtered_by_owner(db: &TestDb) {
    let ledger = &db.ledger;
    let owned = |owner: &str, number: &str| {
        let mut d = draft("张三", "1001", vec![invoice(number, 100, "甲")]);
        d.owner = owner.into();
        ledger.reserve(&d).unwrap()
    };
    let a = owned("alice", N1);
    let b = owned("bob", N2);
    let legacy = owned("", N3);
    let c = owned("alice", N4);
    assert_eq!(listed(ledger, |_| ()), [c, legacy, b, a]);
    assert_eq!(listed(ledger, |f| f.owner = Some("alice".into())), [c, a]);
    assert_eq!(listed(ledger, |f| f.owner = Some("bob".into())), [b]);
    // Exact: an empty owner lists the claims without one, never everyone's.
    assert_eq!(listed(ledger, |f| f.owner = Some(String::new())), [legacy]);
    assert!(listed(ledger, |f| f.owner = Some(" alice".into())).is_empty());
    assert!(listed(ledger, |f| f.owner = Some("Alice".into())).is_empty());
    let mine = |f: &mut ClaimFilter| {
        f.owner = Some("alice".into());
        f.limit = Some(1);
    };
    assert_eq!(listed(ledger, mine), [c]);
    assert_eq!(ledger.claim(b).unwrap().unwrap().summary.owner, "bob");
    assert_eq!(ledger.claim(legacy).unwrap().unwrap().summary.owner, "");
    let bobs = ledger
        .export_csv(&ClaimFilter {
            owner: Some("bob".into()),
            ..ClaimFilter::default()
        })
        .unwrap();
    let bobs = String::from_utf8(bobs).unwrap();
    assert_eq!(bobs.lines().count(), 2, "{bobs}");
    assert!(bobs.contains(N2), "{bobs}");
}

fn accept_writes_the_audit_line(db: &TestDb) {
    let ledger = &db.ledger;
    ledger
        .set_clock_for_tests(Some("2026-11-02T08:00:00Z"))
        .unwrap();
    let mut d = draft("张三", "1001", vec![invoice(N1, 100, "甲")]);
    d.owner = "alice".into();
    let id = ledger.reserve(&d).unwrap();
    let other = ledger
        .reserve(&draft("李四", "1002", vec![invoice(N2, 100, "乙")]))
        .unwrap();
    assert!(
        ledger
            .audit_log(&AuditFilter::default())
            .unwrap()
            .is_empty(),
        "a reservation is not audited"
    );
    ledger
        .set_clock_for_tests(Some("2026-11-02T08:05:00Z"))
        .unwrap();
    ledger.accept(id, "BX20261102-0003").unwrap();
    // Accepting again (a retried job) and a refused acceptance add nothing.
    ledger.accept(id, "BX20261102-0003").unwrap();
    assert!(ledger.accept(id, "BX9").is_err());
    ledger.release(other, "门户拒绝").unwrap();
    let log = ledger.audit_log(&AuditFilter::default()).unwrap();
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(
        log[0],
        AuditRecord {
            id: log[0].id,
            at: "2026-11-02T08:05:00Z".into(),
            username: "alice".into(),
            address: String::new(),
            action: "claim_accepted".into(),
            session_id: "session-of-1001".into(),
            detail: "BX20261102-0003".into(),
        }
    );
    let summary = ledger.claim(id).unwrap().unwrap().summary;
    assert_eq!(summary.accepted_at.as_deref(), Some(log[0].at.as_str()));
}

/// Auditing is the caller's: the ledger never records an account change itself, so a password
/// hash cannot reach the audit trail through it.
fn accounts_write_nothing_to_the_audit_trail(db: &TestDb) {
    let ledger = &db.ledger;
    let user = new_user("alice", false);
    ledger.add_user(&user).unwrap();
    ledger.set_password_hash("alice", "second-hash").unwrap();
    ledger.set_user_finance("alice", true).unwrap();
    ledger.set_user_disabled("alice", true).unwrap();
    ledger.set_user_disabled("alice", false).unwrap();
    ledger.create_login("t", "alice", "10.0.0.1", 60).unwrap();
    ledger.login("t").unwrap();
    ledger.delete_login("t").unwrap();
    ledger.set_user_defaults("alice", "{}").unwrap();
    assert!(
        ledger
            .audit_log(&AuditFilter::default())
            .unwrap()
            .is_empty()
    );
    // And what a caller records is stored as given, nothing added.
    ledger.record(&entry("alice", "passwd", "", "")).unwrap();
    let csv = String::from_utf8(ledger.export_audit_csv(&AuditFilter::default()).unwrap()).unwrap();
    for hash in [user.password_hash.as_str(), "second-hash"] {
        assert!(!csv.contains(hash), "{csv}");
    }
}
