//! Road-toll invoices (通行费): told apart by their item columns (车牌号, 类型, 通行日期起/止),
//! since the printed "通行费" mark is often not in the text layer.

use crate::geometry::Sheet;
use crate::items;

/// Whether any sheet's item table has the toll columns, or the title says 通行费.
pub(super) fn is_toll(sheets: &[Sheet]) -> bool {
    sheets.iter().any(|s| {
        items::find_table(s).is_some_and(|t| t.is_toll())
            || crate::fields::title(s).contains("通行费")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tests::{run, sheet};

    #[test]
    fn toll_columns_make_a_toll_invoice() {
        let toll = sheet(vec![
            run("项目名称", 68.0, 156.0),
            run("车牌号", 181.0, 156.0),
            run("通行日期起", 282.0, 156.0),
            run("金额", 417.0, 156.0),
        ]);
        assert!(is_toll(&[toll]));
        let plain = sheet(vec![
            run("项目名称", 68.0, 156.0),
            run("规格型号", 181.0, 156.0),
            run("金额", 417.0, 156.0),
        ]);
        assert!(!is_toll(&[plain]));
    }
}
