//! 数电 电子发票（普通发票）and（增值税专用发票）: buyer block left, seller block right, one
//! item table, totals on the last page.

use super::{tabular, toll};
use crate::geometry::Sheet;
use crate::parties::Fallback;
use domain::{DocumentType, InvoiceRecord};

pub(super) fn read(sheets: &[Sheet], special: bool) -> InvoiceRecord {
    // Without block labels, the seller block starts right of the page's middle.
    let mut record = tabular(sheets, |s| Fallback::LeftRight {
        split_x: s.width * 0.45,
    });
    record.doc_type = if toll::is_toll(sheets) {
        DocumentType::Toll
    } else if special {
        DocumentType::DigitalSpecial
    } else {
        DocumentType::DigitalNormal
    };
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tests::{run, sheet};
    use crate::geometry::{Run, Sheet};

    fn big(text: &str, x: f32, y: f32) -> Run {
        Run::new(text, x, y, x + 20.0 * text.chars().count() as f32, 20.0)
    }

    /// A 数电 page whose labels are all drawn before any value, values in reverse order.
    fn labels_first() -> Sheet {
        let mut runs = vec![
            big("电子发票(普通发票)", 193.0, 40.0),
            run("发票号码:", 438.0, 40.0),
            run("开票日期:", 438.0, 57.0),
        ];
        for (i, c) in "购买方信息".chars().enumerate() {
            runs.push(run(&c.to_string(), 16.0, 100.0 + 10.0 * i as f32));
        }
        for (i, c) in "销售方信息".chars().enumerate() {
            runs.push(run(&c.to_string(), 300.0, 100.0 + 10.0 * i as f32));
        }
        runs.extend([
            run("名称:", 30.0, 100.0),
            run("名称:", 315.0, 100.0),
            run("统一社会信用代码/纳税人识别号:", 30.0, 131.0),
            run("统一社会信用代码/纳税人识别号:", 315.0, 131.0),
            run("项目名称", 45.0, 159.0),
            run("规格型号", 119.0, 159.0),
            run("单位", 190.0, 159.0),
            run("数量", 264.0, 159.0),
            run("单价", 335.0, 159.0),
            run("金额", 407.0, 159.0),
            run("税率/征收率", 446.0, 159.0),
            run("税额", 551.0, 159.0),
            run("合计", 58.0, 268.0),
            run("价税合计(大写)", 47.0, 287.0),
            run("(小写)", 405.0, 287.0),
            run("开票人:", 55.0, 375.0),
        ]);
        let mut values = vec![
            run("25000000000000000001", 483.0, 40.0),
            run("2025年03月11日", 483.0, 57.0),
            run("某某科技有限公司", 57.0, 100.0),
            run("某某餐饮店", 342.0, 100.0),
            run("91330108MA27Y5XH5G", 171.0, 131.0),
            run("92431302MABTLNCM74", 456.0, 131.0),
            run("*餐饮服务*餐饮费", 12.8, 169.0),
            Run::new("144.55", 406.7, 169.0, 433.7, 9.0),
            Run::new("1%", 467.5, 169.0, 476.5, 9.0),
            Run::new("1.45", 564.5, 169.0, 582.5, 9.0),
            Run::new("¥144.55", 396.0, 268.0, 433.7, 9.0),
            Run::new("¥1.45", 555.6, 268.0, 582.5, 9.0),
            run("壹佰肆拾陆圆整", 178.0, 287.0),
            run("¥146.00", 441.0, 287.0),
            run("某人", 90.0, 375.0),
        ];
        values.reverse();
        runs.extend(values);
        sheet(runs)
    }

    #[test]
    fn label_first_drawing_order_reads_every_field() {
        let r = read(&[labels_first()], false);
        assert_eq!(r.doc_type, DocumentType::DigitalNormal);
        assert_eq!(r.title, "电子发票(普通发票)");
        assert_eq!(r.invoice_number, "25000000000000000001");
        assert_eq!(r.invoice_date, "2025/03/11");
        assert_eq!(r.buyer.name, "某某科技有限公司");
        assert_eq!(r.buyer.tax_id, "91330108MA27Y5XH5G");
        assert_eq!(r.seller.name, "某某餐饮店");
        assert_eq!(r.seller.tax_id, "92431302MABTLNCM74");
        assert_eq!(r.items.len(), 1);
        assert_eq!(r.items[0].name, "*餐饮服务*餐饮费");
        assert_eq!(r.items[0].amount, "144.55");
        assert_eq!(r.total_amount, "144.55");
        assert_eq!(r.total_tax, "1.45");
        assert_eq!(r.total_with_tax, "146.00");
        assert_eq!(r.total_in_words, "壹佰肆拾陆圆整");
        assert_eq!(r.issuer, "某人");
    }
}
