//! 电子发票（航空运输电子客票行程单）: the air e-itinerary. A plausible rendering of the public
//! format: passenger and ID, a route table whose rows read 自 A / 至 B / 至 C with each
//! flight's carrier, number, class, date and time on its departure row, then 票价, 燃油附加费,
//! 民航发展基金, 其他税费 and 合计, the e-ticket number and the buyer.

use crate::golden;
use crate::invoice::Party;
use crate::money::{self, Cents};
use crate::pdf_writer::{Font, Layer, Page, PdfFile, Rgb, TextStyle};
use crate::text::{chinese_date, dash_date, nfkc, nfkc_compact, slash_date};
use domain::{AirTrip, DocumentType, FlightSegment, InvoiceRecord};

const BLUE: Rgb = Rgb(0.12, 0.25, 0.55);
const INK: Rgb = Rgb(0.0, 0.0, 0.0);
pub(crate) const TITLE: &str = "电子发票（航空运输电子客票行程单）";

/// One flight.
#[derive(Debug, Clone, Default)]
pub(crate) struct Flight {
    pub from: String,
    pub to: String,
    pub carrier: String,
    pub flight_no: String,
    pub seat_class: String,
    pub date: (u16, u8, u8),
    pub time: String,
    pub fare_basis: String,
    pub baggage: String,
}

/// Everything the itinerary prints.
#[derive(Debug, Clone, Default)]
pub(crate) struct Itinerary {
    pub number: String,
    pub date: (u16, u8, u8),
    pub passenger: String,
    pub passenger_id: String,
    pub endorsement: String,
    /// Consecutive flights: each departs where the previous one arrived.
    pub flights: Vec<Flight>,
    pub fare: Cents,
    pub fuel_surcharge: Cents,
    pub caac_fund: Cents,
    pub other_taxes: Cents,
    pub ticket_no: String,
    pub verification: String,
    pub buyer: Party,
}

impl Itinerary {
    pub(crate) fn total(&self) -> Cents {
        self.fare + self.fuel_surcharge + self.caac_fund + self.other_taxes
    }
}

/// Draws the itinerary (one page, no QR code).
pub(crate) fn render(itinerary: &Itinerary) -> PdfFile {
    let mut page = Page::new(595.28, 396.85);
    let label = |size: f32| TextStyle::new(Font::Song, size, BLUE);
    let song = |size: f32| TextStyle::new(Font::Song, size, INK);
    let helvetica = |size: f32| TextStyle::new(Font::Helvetica, size, INK);

    page.text_center(Layer::Label, label(17.0), 297.6, 38.0, TITLE);
    page.line((150.0, 46.0), (445.0, 46.0), 0.8, BLUE);
    page.text(Layer::Label, label(9.0), 20.0, 70.0, "国内国际标识：");
    page.text(Layer::Value, song(9.0), 83.0, 70.0, "国内");
    page.text(Layer::Label, label(9.0), 420.0, 62.0, "发票号码：");
    page.text(Layer::Value, song(9.0), 465.0, 62.0, &itinerary.number);
    page.text(Layer::Label, label(9.0), 420.0, 78.0, "开票日期：");
    page.text(
        Layer::Value,
        song(9.0),
        465.0,
        78.0,
        &chinese_date(itinerary.date),
    );

    page.rect(15.0, 88.0, 565.0, 242.0, 0.8, BLUE);
    for y in [112.0, 184.0, 226.0, 252.0, 280.0] {
        page.line((15.0, y), (580.0, y), 0.5, BLUE);
    }

    page.text(Layer::Label, label(9.0), 20.0, 104.0, "旅客姓名：");
    page.text(Layer::Value, song(9.0), 66.0, 104.0, &itinerary.passenger);
    page.text(Layer::Label, label(9.0), 170.0, 104.0, "有效身份证件号码：");
    page.text(
        Layer::Value,
        song(9.0),
        251.0,
        104.0,
        &itinerary.passenger_id,
    );
    page.text(Layer::Label, label(9.0), 420.0, 104.0, "签注：");
    page.text(
        Layer::Value,
        song(9.0),
        448.0,
        104.0,
        &itinerary.endorsement,
    );

    let headers: [(&str, f32); 9] = [
        ("承运人", 122.0),
        ("航班号", 162.0),
        ("座位等级", 216.0),
        ("日期", 262.0),
        ("时间", 313.0),
        ("客票级别/客票类别", 378.0),
        ("客票生效日期", 446.0),
        ("有效截止日期", 500.0),
        ("免费行李", 548.0),
    ];
    for (text, center) in headers {
        page.text_center(Layer::Label, label(8.0), center, 126.0, text);
    }
    let mut y = 142.0;
    for (index, flight) in itinerary.flights.iter().enumerate() {
        let (mark, airport) = if index == 0 {
            ("自", &flight.from)
        } else {
            ("至", &flight.from)
        };
        page.text(Layer::Label, label(9.0), 20.0, y, mark);
        page.text(Layer::Value, song(9.0), 36.0, y, airport);
        page.text_center(Layer::Value, song(9.0), 122.0, y, &flight.carrier);
        page.text_center(Layer::Value, helvetica(9.0), 162.0, y, &flight.flight_no);
        page.text_center(Layer::Value, song(9.0), 216.0, y, &flight.seat_class);
        page.text_center(
            Layer::Value,
            helvetica(8.5),
            262.0,
            y,
            &dash_date(flight.date),
        );
        page.text_center(Layer::Value, helvetica(9.0), 313.0, y, &flight.time);
        page.text_center(Layer::Value, helvetica(9.0), 378.0, y, &flight.fare_basis);
        page.text_center(Layer::Value, helvetica(9.0), 548.0, y, &flight.baggage);
        y += 16.0;
    }
    if let Some(last) = itinerary.flights.last() {
        page.text(Layer::Label, label(9.0), 20.0, y, "至");
        page.text(Layer::Value, song(9.0), 36.0, y, &last.to);
    }

    let amounts: [(&str, f32, String); 5] = [
        ("票价", 20.0, money::plain(itinerary.fare)),
        ("燃油附加费", 110.0, money::plain(itinerary.fuel_surcharge)),
        ("民航发展基金", 210.0, money::plain(itinerary.caac_fund)),
        ("其他税费", 320.0, money::plain(itinerary.other_taxes)),
        (
            "合计",
            430.0,
            format!("¥{}", money::plain(itinerary.total())),
        ),
    ];
    for (text, x, amount) in amounts {
        page.text(Layer::Label, label(9.0), x, 200.0, text);
        page.text(Layer::Value, helvetica(10.0), x, 216.0, &amount);
    }

    page.text(Layer::Label, label(9.0), 20.0, 242.0, "电子客票号码：");
    page.text(
        Layer::Value,
        helvetica(10.0),
        83.0,
        242.0,
        &itinerary.ticket_no,
    );
    page.text(Layer::Label, label(9.0), 230.0, 242.0, "验证码：");
    page.text(
        Layer::Value,
        helvetica(10.0),
        266.0,
        242.0,
        &itinerary.verification,
    );
    page.text(Layer::Label, label(9.0), 380.0, 242.0, "保险费：");
    page.text(Layer::Value, helvetica(10.0), 416.0, 242.0, "XXX");

    page.text(Layer::Label, label(9.0), 20.0, 268.0, "购买方名称：");
    page.text(Layer::Value, song(9.0), 74.0, 268.0, &itinerary.buyer.name);
    page.text(Layer::Label, label(9.0), 300.0, 268.0, "统一社会信用代码：");
    page.text(
        Layer::Value,
        TextStyle::new(Font::Courier, 10.0, INK),
        381.0,
        268.0,
        &itinerary.buyer.tax_id,
    );

    page.text(Layer::Label, label(9.0), 20.0, 300.0, "提示信息：");
    page.text(
        Layer::Value,
        song(9.0),
        66.0,
        300.0,
        "请于航班起飞前45分钟到达登机口，逾时将无法登机。",
    );

    PdfFile {
        pages: vec![page],
        ..PdfFile::default()
    }
}

/// What a correct extractor reports: the trip in `air`, 合计 as the total, the buyer; no
/// items, no seller, no 金额/税额 totals (none are printed).
pub(crate) fn record(itinerary: &Itinerary) -> InvoiceRecord {
    let segments = itinerary
        .flights
        .iter()
        .map(|f| FlightSegment {
            from: nfkc(&f.from),
            to: nfkc(&f.to),
            carrier: nfkc(&f.carrier),
            flight_no: f.flight_no.clone(),
            seat_class: nfkc(&f.seat_class),
            date: slash_date(f.date),
            time: f.time.clone(),
        })
        .collect();
    InvoiceRecord {
        doc_type: DocumentType::AirItinerary,
        title: nfkc(TITLE),
        invoice_number: itinerary.number.clone(),
        invoice_date: slash_date(itinerary.date),
        buyer: domain::Party {
            name: nfkc_compact(&itinerary.buyer.name),
            tax_id: itinerary.buyer.tax_id.clone(),
        },
        total_with_tax: money::plain(itinerary.total()),
        air: Some(AirTrip {
            passenger: nfkc(&itinerary.passenger),
            passenger_id: itinerary.passenger_id.clone(),
            ticket_no: itinerary.ticket_no.clone(),
            segments,
            fare: money::plain(itinerary.fare),
            fuel_surcharge: money::plain(itinerary.fuel_surcharge),
            caac_fund: money::plain(itinerary.caac_fund),
            other_taxes: money::plain(itinerary.other_taxes),
        }),
        page_count: 1,
        // The fare components add up to 合计 by construction.
        confirmed_by: golden::sources(false, false, false, true),
        ..InvoiceRecord::default()
    }
}
