//! Old 增值税电子普通发票 / 专用发票 (发票代码, 校验码, 机器编号): buyer block above the item
//! table, seller block below it, 密码区 and 备注 to their right.

use super::{table_split, tabular, toll};
use crate::geometry::Sheet;
use domain::{DocumentType, InvoiceRecord};

pub(super) fn read(sheets: &[Sheet], special: bool) -> InvoiceRecord {
    let mut record = tabular(sheets, table_split);
    record.doc_type = if toll::is_toll(sheets) {
        DocumentType::Toll
    } else if special {
        DocumentType::VatESpecial
    } else {
        DocumentType::VatENormal
    };
    record
}
