//! The 数电 structured invoice `<EInvoice>` (the XML the tax platform hands out beside the PDF
//! and OFD), with the element names and nesting of real files.

use crate::invoice::{Invoice, Party};
use crate::money;
use crate::text::dash_date;

/// XML text escaping.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `13%` → `0.13`, `免税` → `免税`: the XML states rates as fractions.
fn rate_fraction(rate: &str) -> String {
    match rate.strip_suffix('%').and_then(|p| p.parse::<u32>().ok()) {
        Some(percent) => format!("{}.{:02}", percent / 100, percent % 100),
        None => rate.to_owned(),
    }
}

/// Splits `地址 电话` / `银行 账号` at the last space.
fn split_last(text: &str) -> (&str, &str) {
    text.rsplit_once(' ').unwrap_or((text, ""))
}

fn element(out: &mut String, indent: usize, name: &str, value: &str) {
    out.push_str(&format!(
        "{:indent$}<{name}>{}</{name}>\n",
        "",
        escape(value)
    ));
}

fn seller(out: &mut String, party: &Party) {
    let (address, phone) = split_last(&party.address_phone);
    let (bank, account) = split_last(&party.bank_account);
    out.push_str("        <SellerInformation>\n");
    element(out, 12, "SellerIdNum", &party.tax_id);
    element(out, 12, "SellerName", &party.name);
    element(out, 12, "SellerAddr", address);
    element(out, 12, "SellerTelNum", phone);
    element(out, 12, "SellerBankName", bank);
    element(out, 12, "SellerBankAccNum", account);
    out.push_str("        </SellerInformation>\n");
}

/// The document for a 数电 普通发票 `invoice`; `signature` stands in for the tax bureau's
/// SM2 signature value.
pub(crate) fn document(invoice: &Invoice, signature: &str) -> String {
    let date = dash_date(invoice.date);
    let mut out =
        String::from("<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<EInvoice>\n");
    out.push_str("    <Header>\n");
    element(&mut out, 8, "EIid", &invoice.number);
    element(&mut out, 8, "EInvoiceTag", "SWEI3300");
    element(&mut out, 8, "Version", "0.36");
    out.push_str(concat!(
        "        <InherentLabel>\n",
        "            <InIssuType>\n                <LabelCode>Y</LabelCode>\n                <LabelName>是否蓝字发票标志</LabelName>\n            </InIssuType>\n",
        "            <EInvoiceType>\n                <LabelCode>01</LabelCode>\n                <LabelName>电子发票</LabelName>\n            </EInvoiceType>\n",
        "            <GeneralOrSpecialVAT>\n                <LabelCode>02</LabelCode>\n                <LabelName>普通发票</LabelName>\n            </GeneralOrSpecialVAT>\n",
        "            <TaxpayerType>\n                <LabelCode>1</LabelCode>\n                <LabelName>一般纳税人</LabelName>\n            </TaxpayerType>\n",
        "        </InherentLabel>\n",
        "        <UndefinedLabel>\n            <Label>\n                <LabelType>发票开具方式标签</LabelType>\n",
        "                <LabelCode>1</LabelCode>\n                <LabelName>网页开票</LabelName>\n            </Label>\n        </UndefinedLabel>\n",
        "    </Header>\n",
        "    <EInvoiceData>\n",
    ));
    seller(&mut out, &invoice.seller);
    out.push_str("        <BuyerInformation>\n");
    element(&mut out, 12, "BuyerIdNum", &invoice.buyer.tax_id);
    element(&mut out, 12, "BuyerName", &invoice.buyer.name);
    out.push_str("        </BuyerInformation>\n        <BasicInformation>\n");
    element(
        &mut out,
        12,
        "TotalAmWithoutTax",
        &money::plain(invoice.total_amount()),
    );
    element(
        &mut out,
        12,
        "TotalTaxAm",
        &money::plain(invoice.total_tax()),
    );
    element(
        &mut out,
        12,
        "TotalTax-includedAmount",
        &money::plain(invoice.total()),
    );
    element(
        &mut out,
        12,
        "TotalTax-includedAmountInChinese",
        &invoice.words(),
    );
    element(&mut out, 12, "Drawer", &invoice.issuer);
    element(&mut out, 12, "RequestTime", &format!("{date} 10:21:07"));
    out.push_str("        </BasicInformation>\n");
    for item in &invoice.items {
        out.push_str("        <IssuItemInformation>\n");
        element(&mut out, 12, "ItemName", &item.name);
        if !item.unit.is_empty() {
            element(&mut out, 12, "MeaUnits", &item.unit);
        }
        if !item.quantity.is_empty() {
            element(&mut out, 12, "Quantity", &item.quantity);
            element(&mut out, 12, "UnPrice", &item.unit_price);
        }
        element(&mut out, 12, "Amount", &money::plain(item.amount));
        element(&mut out, 12, "TaxRate", &rate_fraction(&item.tax_rate));
        element(
            &mut out,
            12,
            "ComTaxAm",
            &item.tax.map_or_else(|| "0.00".to_owned(), money::plain),
        );
        element(
            &mut out,
            12,
            "TotaltaxIncludedAmount",
            &money::plain(item.amount + item.tax.unwrap_or(0)),
        );
        element(&mut out, 12, "TaxClassificationCode", "3070201020000000000");
        out.push_str("        </IssuItemInformation>\n");
    }
    out.push_str(
        "        <SpecificInformation/>\n        <AdditionalInformation/>\n    </EInvoiceData>\n",
    );
    out.push_str("    <SellerAuthentication>\n        <AuthenticationMethods>01</AuthenticationMethods>\n    </SellerAuthentication>\n");
    out.push_str("    <TaxSupervisionInfo>\n");
    element(&mut out, 8, "InvoiceNumber", &invoice.number);
    element(&mut out, 8, "IssueTime", &date);
    element(&mut out, 8, "TaxBureauCode", "13300000000");
    element(&mut out, 8, "TaxBureauName", "国家税务总局浙江省税务局");
    out.push_str("    </TaxSupervisionInfo>\n    <TaxBureauSignature>\n");
    out.push_str("        <Reference URI=\"/Einvoice/Header|/Einvoice/EinvoiceData|/Einvoice/SellerAuthentication|/Einvoice/TaxSupervisionInfo|/Einvoice/TaxBureauSignature/SignatureTime\"/>\n");
    element(&mut out, 8, "SignatureAlgorithm", "1.2.156.10197.1.501");
    element(&mut out, 8, "SignatureFormat", "DETACH");
    element(&mut out, 8, "SignatureTime", &format!("{date} 10:35:12"));
    element(&mut out, 8, "SignatureValue", signature);
    out.push_str("        <KeyInfo/>\n    </TaxBureauSignature>\n</EInvoice>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(rate_fraction("13%"), "0.13");
        assert_eq!(rate_fraction("1%"), "0.01");
        assert_eq!(rate_fraction("免税"), "免税");
        assert_eq!(escape("a&b<c>"), "a&amp;b&lt;c&gt;");
        assert_eq!(
            split_last("杭州市星河路1号 0571-81234567"),
            ("杭州市星河路1号", "0571-81234567")
        );
    }
}
