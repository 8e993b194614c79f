//! Structured e-invoices: the 数电 `<EInvoice>` XML and the railway ticket's XBRL
//! (`rai:*` elements), read into a record or into a witness for cross-checks.

use crate::amount;
use crate::crosscheck::Witness;
use crate::date;
use crate::dom::Element;
use crate::text;
use domain::{DocumentType, InvoiceRecord, LineItem, Party, RailwayTrip};

/// Money with two decimals, or the trimmed text when it is not an amount.
fn money(s: Option<&str>) -> String {
    s.map(|v| amount::normalize(v).unwrap_or_else(|| v.trim().to_owned()))
        .unwrap_or_default()
}

fn cleaned(s: Option<&str>) -> String {
    s.map(text::clean).unwrap_or_default()
}

fn owned(s: Option<&str>) -> String {
    s.map(|v| text::normalize(v.trim())).unwrap_or_default()
}

/// Reads a 数电 `<EInvoice>` document.
pub(crate) fn einvoice(root: &Element) -> InvoiceRecord {
    let label = root
        .find("GeneralOrSpecialVAT")
        .and_then(|e| e.text_of("LabelName"))
        .unwrap_or("普通发票");
    let special = label.contains("专用");
    let mut items_el = Vec::new();
    root.find_all("IssuItemInformation", &mut items_el);
    let items = items_el
        .iter()
        .map(|it| LineItem {
            name: text::compact(&cleaned(it.text_of("ItemName"))),
            spec: cleaned(it.text_of("SpecMod")),
            unit: cleaned(it.text_of("MeaUnits")),
            quantity: owned(it.text_of("Quantity")),
            unit_price: owned(it.text_of("UnPrice")),
            amount: money(it.text_of("Amount")),
            tax_rate: it
                .text_of("TaxRate")
                .map(amount::rate_from_decimal)
                .unwrap_or_default(),
            tax: money(it.text_of("ComTaxAm")),
            ..LineItem::default()
        })
        .collect();
    let number = root
        .find("TaxSupervisionInfo")
        .and_then(|e| e.text_of("InvoiceNumber"))
        .or_else(|| root.text_of("EIid"))
        .unwrap_or_default();
    let issued = root
        .find("TaxSupervisionInfo")
        .and_then(|e| e.text_of("IssueTime"))
        .or_else(|| root.text_of("RequestTime"))
        .and_then(date::parse_date)
        .unwrap_or_default();
    let mut remarks = Vec::new();
    root.find_all("Remark", &mut remarks);
    InvoiceRecord {
        doc_type: if special {
            DocumentType::DigitalSpecial
        } else {
            DocumentType::DigitalNormal
        },
        // Nothing is printed, so there is no title (the kind is in `doc_type`).
        title: String::new(),
        invoice_number: number.chars().filter(char::is_ascii_digit).collect(),
        invoice_date: issued,
        buyer: Party {
            name: text::compact(&cleaned(root.text_of("BuyerName"))),
            tax_id: owned(root.text_of("BuyerIdNum")),
        },
        seller: Party {
            name: text::compact(&cleaned(root.text_of("SellerName"))),
            tax_id: owned(root.text_of("SellerIdNum")),
        },
        items,
        total_amount: money(root.text_of("TotalAmWithoutTax")),
        total_tax: money(root.text_of("TotalTaxAm")),
        total_with_tax: money(root.text_of("TotalTax-includedAmount")),
        total_in_words: owned(root.text_of("TotalTax-includedAmountInChinese")),
        remark: remarks
            .iter()
            .map(|e| text::clean(&e.text))
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join("; "),
        issuer: cleaned(root.text_of("Drawer")),
        page_count: 0,
        ..InvoiceRecord::default()
    }
}

/// What a railway ticket's XBRL states.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RailwayXml {
    pub witness: Witness,
    pub total_amount: String,
    pub total_tax: String,
    pub trip: RailwayTrip,
    pub buyer: Party,
    pub title: String,
}

/// Reads a railway XBRL document; `None` if it is not one.
pub(crate) fn railway(root: &Element) -> Option<RailwayXml> {
    let number = root.text_of("ElectronicInvoiceRailwayETicketNumber")?;
    let travel_date = root.text_of("TravelDate").and_then(date::parse_date);
    let seat = format!(
        "{}{}",
        root.text_of("Carriage").unwrap_or_default(),
        root.text_of("Seat").unwrap_or_default()
    );
    Some(RailwayXml {
        witness: Witness {
            number: Some(number.to_owned()),
            date: root.text_of("DateOfIssue").and_then(date::parse_date),
            total_with_tax: root.text_of("Fare").and_then(amount::normalize),
            ..Witness::default()
        },
        total_amount: money(root.text_of("TotalAmountExcludingTax")),
        total_tax: money(root.text_of("TaxAmount")),
        trip: RailwayTrip {
            passenger: owned(root.text_of("Name")),
            passenger_id: owned(root.text_of("IdNumber")),
            train_no: owned(root.text_of("TrainNumber")),
            from_station: owned(root.text_of("DepartureStation")),
            to_station: owned(root.text_of("DestinationStation")),
            travel_date: travel_date.unwrap_or_default(),
            departure_time: root
                .text_of("DepartureTime")
                .and_then(date::parse_time)
                .unwrap_or_default(),
            seat_class: owned(root.text_of("SeatLevel")),
            seat: text::normalize(&seat),
            ticket_no: owned(root.text_of("ETicketNumber")),
        },
        buyer: Party {
            name: text::compact(&cleaned(root.text_of("NameOfPurchaser"))),
            tax_id: owned(root.text_of("UnifiedSocialCreditCodeOfPurchaser")),
        },
        title: owned(root.text_of("TypeOfVoucher")),
    })
}

/// A railway record from the XBRL alone (when the XML itself is uploaded).
pub(crate) fn railway_record(x: &RailwayXml) -> InvoiceRecord {
    InvoiceRecord {
        doc_type: DocumentType::Railway,
        title: if x.title.is_empty() {
            "电子发票(铁路电子客票)".to_owned()
        } else {
            x.title.clone()
        },
        invoice_number: x.witness.number.clone().unwrap_or_default(),
        invoice_date: x.witness.date.clone().unwrap_or_default(),
        buyer: x.buyer.clone(),
        total_amount: x.total_amount.clone(),
        total_tax: x.total_tax.clone(),
        total_with_tax: x.witness.total_with_tax.clone().unwrap_or_default(),
        railway: Some(x.trip.clone()),
        page_count: 0,
        ..InvoiceRecord::default()
    }
}

/// The 数电 XML's key fields as a witness (for OFD or PDF files that embed it).
pub(crate) fn witness(record: &InvoiceRecord) -> Witness {
    let some = |s: &str| (!s.is_empty()).then(|| s.to_owned());
    Witness {
        number: some(&record.invoice_number),
        date: some(&record.invoice_date),
        total_amount: some(&record.total_amount),
        total_tax: some(&record.total_tax),
        total_with_tax: some(&record.total_with_tax),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom;

    const EINVOICE: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<EInvoice><Header><EIid>12345678901234567890</EIid><InherentLabel>
<EInvoiceType><LabelCode>01</LabelCode><LabelName>电子发票</LabelName></EInvoiceType>
<GeneralOrSpecialVAT><LabelCode>02</LabelCode><LabelName>普通发票</LabelName></GeneralOrSpecialVAT>
</InherentLabel></Header><EInvoiceData>
<SellerInformation><SellerIdNum>91000000000000000X</SellerIdNum><SellerName>某某 培训 中心</SellerName></SellerInformation>
<BuyerInformation><BuyerIdNum>91000000000000001Y</BuyerIdNum><BuyerName>某某集团有限公司</BuyerName></BuyerInformation>
<BasicInformation><TotalAmWithoutTax>235.85</TotalAmWithoutTax><TotalTaxAm>14.15</TotalTaxAm>
<TotalTax-includedAmount>250</TotalTax-includedAmount>
<TotalTax-includedAmountInChinese>贰佰伍拾圆整</TotalTax-includedAmountInChinese><Drawer>某人</Drawer>
<RequestTime>2025-08-08 12:06:33</RequestTime></BasicInformation>
<IssuItemInformation><ItemName>*非学历教育服务*培训费</ItemName><MeaUnits>人</MeaUnits><Quantity>1</Quantity>
<UnPrice>235.8490566037736</UnPrice><Amount>235.85</Amount><TaxRate>0.06</TaxRate><ComTaxAm>14.15</ComTaxAm></IssuItemInformation>
</EInvoiceData><TaxSupervisionInfo><InvoiceNumber>12345678901234567890</InvoiceNumber><IssueTime>2025-08-08</IssueTime></TaxSupervisionInfo></EInvoice>"#;

    #[test]
    fn einvoice_fields() {
        let r = einvoice(&dom::parse(EINVOICE.as_bytes()).unwrap());
        assert_eq!(r.doc_type, DocumentType::DigitalNormal);
        assert_eq!(r.title, "");
        assert_eq!(r.invoice_number, "12345678901234567890");
        assert_eq!(r.invoice_date, "2025/08/08");
        assert_eq!(r.seller.name, "某某培训中心");
        assert_eq!(r.buyer.tax_id, "91000000000000001Y");
        assert_eq!(r.total_with_tax, "250.00");
        assert_eq!(r.items.len(), 1);
        assert_eq!(r.items[0].tax_rate, "6%");
        assert_eq!(r.items[0].unit, "人");
        assert_eq!(r.items[0].unit_price, "235.8490566037736");
        assert_eq!(r.issuer, "某人");
    }

    #[test]
    fn railway_xbrl_fields() {
        let xml = r#"<xbrl xmlns:rai="r"><rai:TypeOfVoucher>电子发票（铁路电子客票）</rai:TypeOfVoucher>
<rai:ElectronicInvoiceRailwayETicketNumber>11111111111111111111</rai:ElectronicInvoiceRailwayETicketNumber>
<rai:DateOfIssue>2025-03-03</rai:DateOfIssue><rai:DepartureStation>甲</rai:DepartureStation>
<rai:DestinationStation>乙</rai:DestinationStation><rai:TrainNumber>G1</rai:TrainNumber>
<rai:TravelDate>2025-02-20</rai:TravelDate><rai:DepartureTime>16:32</rai:DepartureTime>
<rai:SeatLevel>二等座</rai:SeatLevel><rai:Carriage>04车</rai:Carriage><rai:Seat>02A号</rai:Seat>
<rai:Fare>377.00</rai:Fare><rai:TotalAmountExcludingTax>345.87</rai:TotalAmountExcludingTax>
<rai:TaxAmount>31.13</rai:TaxAmount><rai:Name>张三</rai:Name></xbrl>"#;
        let x = railway(&dom::parse(xml.as_bytes()).unwrap()).unwrap();
        assert_eq!(x.witness.number.as_deref(), Some("11111111111111111111"));
        assert_eq!(x.witness.date.as_deref(), Some("2025/03/03"));
        assert_eq!(x.witness.total_with_tax.as_deref(), Some("377.00"));
        assert_eq!(x.trip.seat, "04车02A号");
        assert_eq!(x.trip.travel_date, "2025/02/20");
        let r = railway_record(&x);
        assert_eq!(r.title, "电子发票(铁路电子客票)");
        assert_eq!(r.total_amount, "345.87");
    }
}
