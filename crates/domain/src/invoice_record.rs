//! The full invoice record extracted from one document, and its projection to the 13-column row.

use crate::InvoiceRow;
use serde::{Deserialize, Serialize};

/// The layouts we read. Wire names match `../shared/corpus/invoices/labels.json` where it has
/// them (`other` there is our `general_machine`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DocumentType {
    /// 数电 电子发票（普通发票）
    DigitalNormal,
    /// 数电 电子发票（增值税专用发票）
    DigitalSpecial,
    /// 电子发票（铁路电子客票）
    Railway,
    /// 电子发票（航空运输电子客票行程单）
    AirItinerary,
    /// Old 增值税电子普通发票
    VatENormal,
    /// Old 增值税电子专用发票
    VatESpecial,
    /// Old 增值税电子普通发票 for road tolls (通行费)
    Toll,
    /// 通用机打发票（电子）and other regional machine-printed e-invoices
    GeneralMachine,
    /// A document we could read but not recognise as an invoice layout
    #[default]
    Unknown,
}

/// One line of the item table. Text as printed (whitespace inside names removed, NFKC
/// applied); amounts as printed with their sign.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LineItem {
    /// 项目名称 / 货物或应税劳务、服务名称, including the `*category*` prefix; wrapped lines joined.
    pub name: String,
    /// The specification or model (规格型号).
    pub spec: String,
    /// The unit (单位).
    pub unit: String,
    /// The quantity (数量), as printed.
    pub quantity: String,
    /// The unit price (单价), as printed.
    pub unit_price: String,
    /// 金额 (pre-tax), two decimals; negative for discount lines.
    pub amount: String,
    /// e.g. `13%`, `1%`, `免税`, `不征税`.
    pub tax_rate: String,
    /// 税额, two decimals (or `***` as printed for tax-free lines, kept as printed).
    pub tax: String,
    /// Toll invoices only: the plate number (车牌号).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub plate: String,
    /// Toll invoices only: the vehicle's type (类型).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub vehicle_type: String,
    /// Toll invoices only: the first day of passage (通行日期起).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub date_from: String,
    /// Toll invoices only: the last day of passage (通行日期止).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub date_to: String,
}

/// Buyer or seller.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Party {
    /// The name (名称).
    pub name: String,
    /// 统一社会信用代码/纳税人识别号
    pub tax_id: String,
}

/// A railway e-ticket's travel details.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RailwayTrip {
    /// The passenger's name.
    pub passenger: String,
    /// The passenger's ID number as printed (masked), e.g. `3207051981****2012`.
    pub passenger_id: String,
    /// The train (车次), e.g. `G883`.
    pub train_no: String,
    /// The departure station (出发站).
    pub from_station: String,
    /// The arrival station (到达站).
    pub to_station: String,
    /// YYYY/MM/DD
    pub travel_date: String,
    /// HH:MM
    pub departure_time: String,
    /// The seat class (席别), e.g. `二等座`.
    pub seat_class: String,
    /// e.g. `04车02A号`
    pub seat: String,
    /// 电子客票号
    pub ticket_no: String,
}

/// A flight segment of an air itinerary.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct FlightSegment {
    /// Departure city or airport, as printed.
    pub from: String,
    /// Arrival city or airport, as printed.
    pub to: String,
    /// The airline (承运人).
    pub carrier: String,
    /// The flight number (航班号).
    pub flight_no: String,
    /// The fare class (座位等级).
    pub seat_class: String,
    /// YYYY/MM/DD
    pub date: String,
    /// Departure time, HH:MM.
    pub time: String,
}

/// An air itinerary's travel details.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AirTrip {
    /// The passenger's name.
    pub passenger: String,
    /// The passenger's ID number as printed.
    pub passenger_id: String,
    /// The e-ticket number (电子客票号码).
    pub ticket_no: String,
    /// The flights, in order.
    pub segments: Vec<FlightSegment>,
    /// The fare (票价), as printed.
    pub fare: String,
    /// The fuel surcharge (燃油附加费), as printed.
    pub fuel_surcharge: String,
    /// The civil aviation development fund (民航发展基金), as printed.
    pub caac_fund: String,
    /// Other taxes (其他税费), as printed.
    pub other_taxes: String,
}

/// A field on which two independent sources disagree. The record keeps the value read from
/// the printed text; the flag says which other source said what. Nothing is guessed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct FieldFlag {
    /// Field name as in the record, e.g. `total_with_tax`, `invoice_number`.
    pub field: String,
    /// The value the record carries (from the text layer).
    pub value: String,
    /// The other source, e.g. `qr`, `xml`, `大写`, `arith`.
    pub source: String,
    /// What that source said.
    pub other: String,
}

/// Everything extracted from one invoice document.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct InvoiceRecord {
    /// The layout the document was read as.
    pub doc_type: DocumentType,
    /// The printed title, e.g. `电子发票（普通发票）`.
    pub title: String,
    /// The invoice number (发票号码).
    pub invoice_number: String,
    /// 发票代码 (old formats only).
    pub invoice_code: String,
    /// YYYY/MM/DD
    pub invoice_date: String,
    /// 校验码, digits only.
    pub check_code: String,
    /// The buyer (购买方).
    pub buyer: Party,
    /// The seller (销售方).
    pub seller: Party,
    /// The item table, in printed order.
    pub items: Vec<LineItem>,
    /// 合计 金额 (pre-tax), two decimals.
    pub total_amount: String,
    /// 合计 税额, two decimals.
    pub total_tax: String,
    /// 价税合计（小写）, two decimals; railway: 票价; air: 合计.
    pub total_with_tax: String,
    /// 价税合计（大写） as printed.
    pub total_in_words: String,
    /// The remark (备注), as printed.
    pub remark: String,
    /// 开票人
    pub issuer: String,
    /// The trip of a railway e-ticket.
    pub railway: Option<RailwayTrip>,
    /// The trip of an air itinerary.
    pub air: Option<AirTrip>,
    /// Pages of the document.
    pub page_count: u32,
    /// Where the page text came from: `""` the text layer alone; `ocr-repaired` the text layer
    /// with its unmapped glyphs read again by OCR; `ocr` OCR of the page image (no text layer).
    pub text_source: String,
    /// Sources that confirmed the record's key fields, e.g. `qr`, `xml`, `大写`, `arith`.
    pub confirmed_by: Vec<String>,
    /// Disagreements between sources.
    pub flags: Vec<FieldFlag>,
}

impl InvoiceRecord {
    /// What makes two records the same invoice: its code (empty for 数电 invoices) and
    /// number; None when no number was read (such records are never taken as duplicates).
    pub fn identity(&self) -> Option<(&str, &str)> {
        let number = self.invoice_number.trim();
        (!number.is_empty()).then_some((self.invoice_code.trim(), number))
    }

    /// Projects the record onto the 13-column row (see docs/extraction.md for the mapping).
    /// Payment, person and employee columns stay empty: they come from screenshots and the
    /// session configuration.
    pub fn to_row(&self, seq: usize) -> InvoiceRow {
        let first = self.items.first();
        let (item_name, spec) = match (&self.railway, &self.air, first) {
            (_, _, Some(item)) => (item.name.clone(), item.spec.clone()),
            (Some(trip), _, None) => (railway_item_name(trip), trip.seat_class.clone()),
            (None, Some(trip), None) => (air_item_name(trip), String::new()),
            (None, None, None) => (String::new(), String::new()),
        };
        InvoiceRow {
            seq: seq.to_string(),
            invoice_number: self.invoice_number.clone(),
            invoice_date: self.invoice_date.clone(),
            item_name,
            spec,
            total_with_tax: self.total_with_tax.clone(),
            seller_name: self.seller.name.clone(),
            remark: self.row_remark(),
            ..InvoiceRow::default()
        }
    }

    /// 备注 of the row: the further items of a multi-item invoice, the passenger and trip of a
    /// ticket, and any disagreement that needs a human look.
    fn row_remark(&self) -> String {
        let mut parts = Vec::new();
        if self.items.len() > 1 {
            let rest: Vec<&str> = self.items[1..].iter().map(|i| i.name.as_str()).collect();
            parts.push(format!(
                "共{}项，另含：{}",
                self.items.len(),
                rest.join("、")
            ));
        }
        if let Some(trip) = &self.railway {
            parts.push(
                format!("乘车人 {} {}", trip.passenger, trip.travel_date)
                    .trim()
                    .to_owned(),
            );
        }
        if let Some(trip) = &self.air {
            parts.push(format!("乘机人 {}", trip.passenger).trim().to_owned());
        }
        if !self.flags.is_empty() {
            let mut fields: Vec<&str> = Vec::new();
            for label in self.flags.iter().map(|f| field_label(&f.field)) {
                if !fields.contains(&label) {
                    fields.push(label);
                }
            }
            parts.push(format!("请核对：{}", fields.join("、")));
        }
        parts.join("；")
    }
}

/// The name a person knows a flagged field by: the table's column where there is one.
pub fn field_label(field: &str) -> &'static str {
    match field {
        "invoice_number" => "发票号码",
        "invoice_date" => "开票日期",
        "invoice_code" => "发票代码",
        "check_code" => "校验码",
        "total_amount" => "金额合计",
        "total_tax" => "税额合计",
        "total_with_tax" => "价税合计",
        "seller_name" | "seller.name" => "销售方名称",
        "seller_tax_id" | "seller.tax_id" => "销售方税号",
        "buyer_name" | "buyer.name" => "购买方名称",
        "buyer_tax_id" | "buyer.tax_id" => "购买方税号",
        "items" | "item_name" => "项目名称",
        "railway.passenger" => "乘车人",
        "railway.passenger_id" => "乘车人证件号",
        "railway.train_no" => "车次",
        "railway.from_station" => "出发站",
        "railway.to_station" => "到达站",
        "railway.travel_date" => "乘车日期",
        "railway.departure_time" => "开车时间",
        "railway.seat_class" => "席别",
        "railway.seat" => "座位号",
        "railway.ticket_no" => "票号",
        _ => "其他字段",
    }
}

fn railway_item_name(trip: &RailwayTrip) -> String {
    let route = match (trip.from_station.is_empty(), trip.to_station.is_empty()) {
        (false, false) => format!(" {}-{}", trip.from_station, trip.to_station),
        _ => String::new(),
    };
    format!("铁路客票 {}{route}", trip.train_no)
        .trim()
        .to_owned()
}

fn air_item_name(trip: &AirTrip) -> String {
    let flights: Vec<String> = trip
        .segments
        .iter()
        .map(|s| format!("{} {}-{}", s.flight_no, s.from, s.to))
        .collect();
    format!("机票 {}", flights.join(" ")).trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(name: &str) -> LineItem {
        LineItem {
            name: name.into(),
            spec: "规格".into(),
            ..LineItem::default()
        }
    }

    #[test]
    fn row_takes_the_first_item_and_lists_the_rest_in_the_remark() {
        let record = InvoiceRecord {
            invoice_number: "25432000000031411143".into(),
            invoice_date: "2025/03/11".into(),
            total_with_tax: "655.00".into(),
            seller: Party {
                name: "印章公司".into(),
                tax_id: String::new(),
            },
            items: vec![item("*文具*印章"), item("*文具*印台")],
            ..InvoiceRecord::default()
        };
        let row = record.to_row(3);
        assert_eq!(row.seq, "3");
        assert_eq!(row.item_name, "*文具*印章");
        assert_eq!(row.spec, "规格");
        assert_eq!(row.total_with_tax, "655.00");
        assert_eq!(row.remark, "共2项，另含：*文具*印台");
        assert_eq!(row.card_number, "");
    }

    #[test]
    fn a_railway_row_names_the_trip() {
        let record = InvoiceRecord {
            doc_type: DocumentType::Railway,
            railway: Some(RailwayTrip {
                passenger: "张三".into(),
                train_no: "G883".into(),
                from_station: "长沙南".into(),
                to_station: "广州南".into(),
                travel_date: "2025/02/20".into(),
                seat_class: "二等座".into(),
                ..RailwayTrip::default()
            }),
            ..InvoiceRecord::default()
        };
        let row = record.to_row(1);
        assert_eq!(row.item_name, "铁路客票 G883 长沙南-广州南");
        assert_eq!(row.spec, "二等座");
        assert_eq!(row.remark, "乘车人 张三 2025/02/20");
    }

    #[test]
    fn flags_ask_for_a_check_and_serialise() {
        let record = InvoiceRecord {
            flags: vec![FieldFlag {
                field: "total_with_tax".into(),
                value: "100.00".into(),
                source: "qr".into(),
                other: "101.00".into(),
            }],
            ..InvoiceRecord::default()
        };
        assert_eq!(record.to_row(1).remark, "请核对：价税合计");
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(json["doc_type"], "unknown");
        assert_eq!(json["flags"][0]["source"], "qr");
        let back: InvoiceRecord = serde_json::from_value(json).unwrap();
        assert_eq!(back, record);
    }
}
