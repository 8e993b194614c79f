//! 电子发票（铁路电子客票）: the railway e-ticket. No item table and no seller; the trip, the
//! fare and the buyer are printed, and the issuer's XBRL file rides along as an attachment
//! `rai_issuer_<date>_<number>.xml`. As on real tickets (converted from OFD) the page content
//! sits in a form XObject.

use super::draw;
use crate::golden;
use crate::invoice::Party;
use crate::money::{self, Cents};
use crate::pdf_writer::{Attachment, Font, Layer, Page, PdfFile, Rgb, TextStyle};
use crate::qr;
use crate::text::{chinese_date, compact_date, dash_date, nfkc, nfkc_compact, slash_date};
use domain::{DocumentType, InvoiceRecord, RailwayTrip};

const INK: Rgb = Rgb(0.1, 0.1, 0.1);
pub(crate) const TITLE: &str = "电子发票（铁路电子客票）";

/// Everything a railway e-ticket prints.
#[derive(Debug, Clone, Default)]
pub(crate) struct Ticket {
    pub number: String,
    pub date: (u16, u8, u8),
    /// Station names without the trailing 站 (printed smaller after the name).
    pub from: String,
    pub from_pinyin: String,
    pub to: String,
    pub to_pinyin: String,
    pub train_no: String,
    pub travel_date: (u16, u8, u8),
    /// HH:MM
    pub departure: String,
    /// `05车`
    pub carriage: String,
    /// `12F号`
    pub seat: String,
    pub seat_class: String,
    pub fare: Cents,
    pub passenger: String,
    pub passenger_id: String,
    pub ticket_no: String,
    pub buyer: Party,
    pub qr: bool,
    pub qr_tail: String,
}

impl Ticket {
    /// The fare without the 9% VAT, as the XML states it.
    pub(crate) fn excluding_tax(&self) -> Cents {
        (self.fare * 100 * 2 + 109) / (109 * 2)
    }

    pub(crate) fn tax(&self) -> Cents {
        self.fare - self.excluding_tax()
    }

    /// `rai_issuer_<YYYYMMDD>_<number>.xml`, the name real tickets give their attachment.
    pub(crate) fn attachment_name(&self) -> String {
        format!("rai_issuer_{}_{}.xml", compact_date(self.date), self.number)
    }

    /// The QR payload: type 51 with the fare.
    pub(crate) fn qr_payload(&self) -> String {
        qr::payload(
            "51",
            "",
            &self.number,
            &money::plain(self.fare),
            &compact_date(self.date),
            "",
            &self.qr_tail,
        )
    }
}

/// Draws `ticket` with its XML attached.
pub(crate) fn render(ticket: &Ticket) -> PdfFile {
    let mut page = Page::new(595.2, 396.6);
    page.fill_rect(0.0, 0.0, 595.2, 396.6, Rgb(0.87, 0.94, 0.97));
    page.fill_rect(0.0, 297.0, 595.2, 99.6, Rgb(0.66, 0.85, 0.92));
    for (from, to) in [
        ((30.0, 333.0), (565.0, 333.0)),
        ((30.0, 379.0), (565.0, 379.0)),
    ] {
        page.dashed_line(from, to, 0.8, INK);
    }
    for x in [30.0, 565.0] {
        page.dashed_line((x, 333.0), (x, 379.0), 0.8, INK);
    }

    let song = |size: f32| TextStyle::new(Font::Song, size, INK);
    let helvetica = |size: f32| TextStyle::new(Font::Helvetica, size, INK);
    page.text(Layer::Label, song(20.0), 177.7, 34.2, TITLE);
    draw::seal(&mut page, (297.0, 38.0), "浙江省税务局");

    page.text(Layer::Label, song(12.0), 25.5, 57.3, "发票号码");
    page.text(
        Layer::Value,
        song(12.0),
        73.5,
        57.3,
        &format!(":{}", ticket.number),
    );
    page.text(Layer::Label, song(12.0), 431.8, 55.7, "开票日期");
    page.text(
        Layer::Value,
        song(12.0),
        479.8,
        55.7,
        &format!(":{}", chinese_date(ticket.date)),
    );

    for (x, name, pinyin) in [
        (96.1, &ticket.from, &ticket.from_pinyin),
        (402.2, &ticket.to, &ticket.to_pinyin),
    ] {
        page.text(Layer::Value, song(19.8), x, 98.8, name);
        page.text(
            Layer::Value,
            song(11.9),
            x + song(19.8).width(name),
            98.8,
            "站",
        );
        page.text(Layer::Value, helvetica(12.0), x + 2.7, 118.0, pinyin);
    }
    page.text_center(Layer::Value, helvetica(16.0), 285.0, 98.1, &ticket.train_no);
    page.line((250.0, 104.0), (318.0, 104.0), 0.8, INK);
    page.line((310.0, 100.5), (318.0, 104.0), 0.8, INK);

    page.text(
        Layer::Value,
        song(12.0),
        25.5,
        143.5,
        &chinese_date(ticket.travel_date),
    );
    page.text(
        Layer::Value,
        song(12.0),
        124.7,
        143.5,
        &format!("{}开", ticket.departure),
    );
    page.text(
        Layer::Value,
        song(12.0),
        212.6,
        143.5,
        &format!("{}{}", ticket.carriage, ticket.seat),
    );
    page.text(Layer::Value, song(12.0), 360.0, 143.5, &ticket.seat_class);

    page.text(Layer::Label, song(11.9), 25.5, 178.5, "票价:");
    page.text(Layer::Value, song(17.9), 55.3, 178.5, "￥");
    page.text(
        Layer::Value,
        helvetica(17.9),
        73.1,
        178.5,
        &money::plain(ticket.fare),
    );

    if ticket.qr
        && let Some(image) = qr::image(&ticket.qr_payload())
    {
        page.image(image, 470.0, 150.0, 60.0);
    }
    page.text(Layer::Value, song(12.0), 25.5, 232.5, &ticket.passenger_id);
    page.text(Layer::Value, song(12.0), 212.6, 232.5, &ticket.passenger);
    page.text(Layer::Label, song(12.0), 25.5, 289.2, "电子客票号");
    page.text(
        Layer::Value,
        song(12.0),
        85.5,
        289.2,
        &format!(":{}", ticket.ticket_no),
    );
    page.text(Layer::Label, song(12.0), 25.5, 313.6, "购买方名称:");
    page.text(Layer::Value, song(12.0), 91.8, 313.5, &ticket.buyer.name);
    page.text(Layer::Label, song(12.0), 360.0, 313.6, "统一社会信用代码");
    page.text(
        Layer::Value,
        song(12.0),
        456.0,
        313.6,
        &format!(":{}", ticket.buyer.tax_id),
    );
    page.text(
        Layer::Label,
        song(12.0),
        216.6,
        355.9,
        "买票请到12306 发货请到95306",
    );
    page.text(
        Layer::Label,
        song(12.0),
        237.6,
        371.7,
        "中国铁路祝您旅途愉快",
    );

    PdfFile {
        pages: vec![page],
        attachments: vec![Attachment {
            name: ticket.attachment_name(),
            data: xml(ticket).into_bytes(),
        }],
        form_xobjects: true,
    }
}

/// One `rai:` fact; `None` writes the nil form real files use for empty facts.
fn fact(out: &mut String, context: &str, name: &str, value: Option<&str>, money: bool) {
    let unit = if money { " unitRef=\"CNY\"" } else { "" };
    match value {
        Some(v) => {
            let decimals = if money { " decimals=\"2\"" } else { "" };
            out.push_str(&format!(
                "<rai:{name} contextRef=\"{context}\"{unit}{decimals}>{v}</rai:{name}>"
            ));
        }
        None => out.push_str(&format!(
            "<rai:{name} contextRef=\"{context}\"{unit} xsi:nil=\"true\"/>"
        )),
    }
}

/// The issuer's XBRL instance, with the facts and in the order of real tickets.
pub(crate) fn xml(ticket: &Ticket) -> String {
    let (y, m, d) = ticket.date;
    let context = format!("As_Of_{y:04}_{m:02}_{d:02}");
    let mut out = String::from(concat!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
        r#"<xbrl xmlns="http://www.xbrl.org/2003/instance" xmlns:link="http://www.xbrl.org/2003/linkbase" "#,
        r#"xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:xbrli="http://www.xbrl.org/2003/instance" "#,
        r#"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:rai="http://xbrl.mof.gov.cn/taxonomy/2021-11-30/rai" "#,
        r#"xmlns:xlink="http://www.w3.org/1999/xlink">"#,
        r#"<link:schemaRef xlink:type="simple" xlink:href="rai_issuer_entry_point_2021-11-30.xsd"/>"#,
    ));
    out.push_str(&format!(
        "<context id=\"{context}\"><entity><identifier scheme=\"http://xbrl.mof.gov.cn\">{}</identifier></entity><period><instant>{}</instant></period></context>",
        ticket.number,
        dash_date(ticket.date)
    ));
    out.push_str("<unit id=\"CNY\"><measure>iso4217:CNY</measure></unit>");
    let fare = money::plain(ticket.fare);
    let excluding = money::plain(ticket.excluding_tax());
    let tax = money::plain(ticket.tax());
    let issued = dash_date(ticket.date);
    let travel = dash_date(ticket.travel_date);
    let facts: [(&str, Option<&str>, bool); 36] = [
        ("TypeOfVoucher", Some(TITLE), false),
        (
            "ElectronicInvoiceRailwayETicketNumber",
            Some(&ticket.number),
            false,
        ),
        ("DateOfIssue", Some(&issued), false),
        ("IssueParty", None, false),
        ("IssuePartyCode", None, false),
        ("TypeOfBusiness", Some("售"), false),
        ("DepartureStation", Some(&ticket.from), false),
        (
            "PhonicsOfDepartureStation",
            Some(&ticket.from_pinyin),
            false,
        ),
        ("DestinationStation", Some(&ticket.to), false),
        (
            "PhonicsOfDestinationStation",
            Some(&ticket.to_pinyin),
            false,
        ),
        ("TrainNumber", Some(&ticket.train_no), false),
        ("TravelDate", Some(&travel), false),
        ("DepartureTime", Some(&ticket.departure), false),
        ("TypeOfRailwayTicket", None, false),
        ("AirConditioningCharacteristics", None, false),
        ("SeatLevel", Some(&ticket.seat_class), false),
        ("Carriage", Some(&ticket.carriage), false),
        ("Seat", Some(&ticket.seat), false),
        ("DiscountMark", None, false),
        ("Fare", Some(&fare), true),
        ("AmountRefunded", None, true),
        ("FareOfOriginalRailwayTicket", None, true),
        ("DepartureStationOfOriginalRailwayTicket", None, false),
        ("DestinationStationOfOriginalRailwayTicket", None, false),
        ("ETicketNumber", Some(&ticket.ticket_no), false),
        ("IdNumber", Some(&ticket.passenger_id), false),
        ("Name", Some(&ticket.passenger), false),
        ("TotalAmountExcludingTax", Some(&excluding), true),
        ("TaxRate", Some("0.09"), true),
        ("TaxAmount", Some(&tax), true),
        ("NameOfPurchaser", Some(&ticket.buyer.name), false),
        (
            "UnifiedSocialCreditCodeOfPurchaser",
            Some(&ticket.buyer.tax_id),
            false,
        ),
        ("AddressPhoneNumberOfPurchaser", None, false),
        ("DepositBankAndAccountNumberOfPurchaser", None, false),
        ("NumberOfOriginalInvoice", None, false),
        ("Remarks", None, false),
    ];
    for (name, value, is_money) in facts {
        fact(&mut out, &context, name, value, is_money);
    }
    out.push_str("</xbrl>");
    out
}

/// What a correct extractor reports. 金额合计 / 税额合计 are not printed: they come from the
/// XML's TotalAmountExcludingTax and TaxAmount.
pub(crate) fn record(ticket: &Ticket) -> InvoiceRecord {
    InvoiceRecord {
        doc_type: DocumentType::Railway,
        title: nfkc(TITLE),
        invoice_number: ticket.number.clone(),
        invoice_date: slash_date(ticket.date),
        buyer: domain::Party {
            name: nfkc_compact(&ticket.buyer.name),
            tax_id: ticket.buyer.tax_id.clone(),
        },
        total_amount: money::plain(ticket.excluding_tax()),
        total_tax: money::plain(ticket.tax()),
        total_with_tax: money::plain(ticket.fare),
        railway: Some(RailwayTrip {
            passenger: nfkc(&ticket.passenger),
            passenger_id: ticket.passenger_id.clone(),
            train_no: ticket.train_no.clone(),
            from_station: nfkc(&ticket.from),
            to_station: nfkc(&ticket.to),
            travel_date: slash_date(ticket.travel_date),
            departure_time: ticket.departure.clone(),
            seat_class: nfkc(&ticket.seat_class),
            seat: nfkc(&format!("{}{}", ticket.carriage, ticket.seat)),
            ticket_no: ticket.ticket_no.clone(),
        }),
        page_count: 1,
        confirmed_by: golden::sources(ticket.qr, true, false, false),
        ..InvoiceRecord::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fare_splits_at_nine_percent() {
        let ticket = Ticket {
            fare: 37_700,
            ..Ticket::default()
        };
        assert_eq!(ticket.excluding_tax(), 34_587);
        assert_eq!(ticket.tax(), 3_113);
    }

    #[test]
    fn xml_states_number_fare_and_nil_facts() {
        let ticket = Ticket {
            number: "25339000000000000001".into(),
            fare: 12_300,
            date: (2025, 4, 2),
            ..Ticket::default()
        };
        let xml = xml(&ticket);
        assert!(xml.contains("<rai:Fare contextRef=\"As_Of_2025_04_02\" unitRef=\"CNY\" decimals=\"2\">123.00</rai:Fare>"));
        assert!(xml.contains("<rai:IssueParty contextRef=\"As_Of_2025_04_02\" xsi:nil=\"true\"/>"));
        assert!(xml.contains(">25339000000000000001</rai:ElectronicInvoiceRailwayETicketNumber>"));
        assert_eq!(
            ticket.attachment_name(),
            "rai_issuer_20250402_25339000000000000001.xml"
        );
    }
}
