//! 通用机打发票（电子）and other regional machine-printed e-invoices: laid out like the old
//! VAT invoices (发票代码, 校验码, buyer above and seller below the items), with a few label
//! variants for the total.

use super::{table_split, tabular};
use crate::amount;
use crate::geometry::Sheet;
use crate::labels::Take;
use domain::{DocumentType, InvoiceRecord};

pub(super) fn read(sheets: &[Sheet]) -> InvoiceRecord {
    let mut record = tabular(sheets, table_split);
    record.doc_type = DocumentType::GeneralMachine;
    if record.total_with_tax.is_empty() {
        // Some regions print 合计金额(小写) / 金额合计 instead of 价税合计.
        record.total_with_tax = sheets
            .iter()
            .rev()
            .find_map(|s| s.value_of(&["合计金额", "金额合计", "合计(小写)"], &Take::money()))
            .and_then(|v| amount::normalize(&v.text))
            .unwrap_or_default();
    }
    record
}
