//! The refusals of the validation, one per check, and a claim that passes.

use super::*;
use crate::config::CampusConfig;
use crate::form::PostedFile;

fn state() -> AppState {
    AppState::new(CampusConfig::default())
}

fn pdf() -> Vec<PostedFile> {
    vec![PostedFile {
        name: "发票.pdf".to_owned(),
        bytes: b"%PDF-1.7\n".to_vec(),
    }]
}

const GOOD: [(&str, &str); 8] = [
    ("dept", "0101"),
    ("reason", "购买实验耗材"),
    ("claim_date", "2026-03-10"),
    ("inv_no[]", "12345678"),
    ("inv_date[]", "2026-03-01"),
    ("item[]", "实验耗材"),
    ("amount[]", "120.5"),
    ("seller[]", "某某科技有限公司"),
];

fn daily_with(changes: &[(&str, &str)], files: Vec<PostedFile>) -> Result<Claim, String> {
    let state = state();
    let user = state.config.accounts[0].clone();
    let fields: Vec<(&str, &str)> = GOOD
        .iter()
        .map(|(name, value)| {
            let changed = changes.iter().find(|(n, _)| n == name);
            (*name, changed.map_or(*value, |(_, v)| *v))
        })
        .collect();
    daily(&PostedForm::from_fields(&fields, files), &user, &state)
}

#[test]
fn a_complete_daily_claim_passes() {
    let claim = daily_with(&[], pdf()).unwrap();
    assert_eq!(claim.department, "计算机科学与技术学院");
    assert_eq!(claim.total, "120.50");
    assert_eq!(claim.rows[0].amount, "120.50");
    assert_eq!(claim.attachments[0].size, 9);
    assert_eq!(claim.attachments[0].sha256.len(), 64);
}

#[test]
fn each_field_has_its_refusal() {
    let cases: [(&str, &str, &str); 9] = [
        ("dept", "", "部门不能为空"),
        ("dept", "9999", "所选部门不存在，请重新选择"),
        ("reason", "", "报销事由不能为空"),
        ("claim_date", "", "报销日期不能为空"),
        ("inv_date[]", "", "第1行：开票日期不能为空"),
        (
            "inv_date[]",
            "2026-03-11",
            "第1行：开票日期不能晚于报销日期",
        ),
        ("amount[]", "12,0", "第1行：金额格式不正确"),
        ("inv_no[]", "1234", "第1行：发票号码应为8位或20位数字"),
        ("seller[]", "", "第1行：销售方名称不能为空"),
    ];
    for (field, value, message) in cases {
        assert_eq!(
            daily_with(&[(field, value)], pdf()).unwrap_err(),
            message,
            "{field}"
        );
    }
}

#[test]
fn rows_are_numbered_and_duplicates_within_a_claim_refused() {
    let state = state();
    let user = state.config.accounts[0].clone();
    let mut fields = GOOD.to_vec();
    fields.extend([
        ("inv_no[]", "12345678"),
        ("inv_date[]", "2026-03-02"),
        ("item[]", "办公用品"),
        ("amount[]", "10"),
        ("seller[]", "文具店"),
    ]);
    let form = PostedForm::from_fields(&fields, pdf());
    assert_eq!(
        daily(&form, &user, &state).unwrap_err(),
        "第2行：发票号码 12345678 与第1行重复"
    );
    fields[8] = ("inv_no[]", "87654321");
    fields[9] = ("inv_date[]", "");
    let form = PostedForm::from_fields(&fields, pdf());
    assert_eq!(
        daily(&form, &user, &state).unwrap_err(),
        "第2行：开票日期不能为空"
    );
}

#[test]
fn attachments_are_required_and_checked() {
    assert_eq!(daily_with(&[], Vec::new()).unwrap_err(), "请上传发票附件");
    let photo = vec![PostedFile {
        name: "发票.jpg".to_owned(),
        bytes: vec![0xFF, 0xD8],
    }];
    assert!(daily_with(&[], photo).unwrap_err().contains("格式不支持"));
    let renamed = vec![PostedFile {
        name: "发票.pdf".to_owned(),
        bytes: vec![0xFF, 0xD8],
    }];
    assert_eq!(
        daily_with(&[], renamed).unwrap_err(),
        "附件 发票.pdf 不是有效的 PDF 文件"
    );
}

#[test]
fn travel_claims_check_the_trip() {
    let state = state();
    let user = state.config.accounts[0].clone();
    let mut fields = vec![
        ("dept", "0305"),
        ("reason", "参加学术会议"),
        ("destination", "北京市"),
        ("start_date", "2026-03-05"),
        ("end_date", "2026-03-03"),
        ("inv_no[]", "12345678901234567890"),
        ("inv_date[]", "2026-03-05"),
        ("category[]", "住宿费"),
        ("amount[]", "880.00"),
        ("seller[]", "某某酒店"),
    ];
    let form = PostedForm::from_fields(&fields, pdf());
    assert_eq!(
        travel(&form, &user, &state).unwrap_err(),
        "出差开始日期不能晚于结束日期"
    );
    fields[4] = ("end_date", "2026-03-07");
    let claim = travel(&PostedForm::from_fields(&fields, pdf()), &user, &state).unwrap();
    assert_eq!(claim.kind, ClaimKind::Travel);
    assert_eq!(claim.rows[0].item, "住宿费");
    fields[7] = ("category[]", "餐费");
    let form = PostedForm::from_fields(&fields, pdf());
    assert_eq!(
        travel(&form, &user, &state).unwrap_err(),
        "第1行：费用类型不正确"
    );
}
