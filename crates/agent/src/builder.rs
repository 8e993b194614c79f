//! A [`Claim`] from extracted invoices: the rows with their review flags and passengers, the
//! trip the tickets and hotel invoices give, and the second readings for corrections. The
//! service builds its claims here too (from its edited table), so a program that links the
//! crate validates exactly what the service validates.

use crate::application::{HotelStay, Ticket, TravelApplication};
use crate::claim::{Claim, ClaimRow, Review};
use crate::correct::SecondSources;
use crate::validate::Extraction;
use domain::{InvoiceKind, InvoiceRecord, SessionConfig, Today};
use std::collections::{BTreeMap, HashSet};

/// Collects invoices into a claim judged on a given day.
///
/// ```
/// use reimburse_agent::{ClaimBuilder, InvoiceKind, InvoiceRecord, RuleSet, SessionConfig, Today};
///
/// let record = InvoiceRecord {
///     invoice_number: "25432000000022014229".into(),
///     invoice_date: "2025/02/19".into(),
///     total_with_tax: "146.00".into(),
///     ..InvoiceRecord::default()
/// };
/// let mut builder = ClaimBuilder::new(SessionConfig::default(), Today::from_date("2026/11/29").unwrap());
/// assert!(builder.invoice(&record, InvoiceKind::General));
/// assert!(!builder.invoice(&record, InvoiceKind::General), "the same invoice twice is dropped");
/// let validation = builder.build().validate(RuleSet::builtin());
/// assert!(!validation.judgement.can_submit); // no seller, no claimant, no finance account…
/// ```
#[derive(Debug)]
pub struct ClaimBuilder {
    claim: Claim,
    second: SecondSources,
    tickets: Vec<Ticket>,
    hotels: Vec<HotelStay>,
    seen: HashSet<(String, String)>,
}

impl ClaimBuilder {
    /// An empty claim with the session's configuration, judged on `today`.
    pub fn new(config: SessionConfig, today: Today) -> Self {
        Self {
            claim: Claim::new(config, today),
            second: Vec::new(),
            tickets: Vec::new(),
            hotels: Vec::new(),
            seen: HashSet::new(),
        }
    }

    /// Adds an extracted invoice as the service's table would show it (its 13 columns, the
    /// person columns from the configuration). Returns false, adding nothing, for an invoice
    /// already in the claim (the same code and number), as the service drops duplicates.
    pub fn invoice(&mut self, record: &InvoiceRecord, kind: InvoiceKind) -> bool {
        if let Some((code, number)) = record.identity()
            && !self.seen.insert((code.to_owned(), number.to_owned()))
        {
            return false;
        }
        let seq = self.claim.rows.len() + 1;
        let row = record.to_row(seq).with_claimant(&self.claim.config);
        self.row(row.keyed(), kind, Some(record));
        true
    }

    /// Adds a row of an invoice table as it stands (a user may have edited its cells), with
    /// the record extraction gave for it, if any: the record brings the review flags, the
    /// passenger, the trip's tickets and hotel stays, and the second readings.
    pub fn row(
        &mut self,
        cells: BTreeMap<String, String>,
        kind: InvoiceKind,
        record: Option<&InvoiceRecord>,
    ) -> &mut ClaimRow {
        let mut row = ClaimRow {
            cells,
            kind,
            ..ClaimRow::default()
        };
        let mut sources = Vec::new();
        if let Some(record) = record {
            row.review = Review::of_record(record);
            row.passenger = self.tickets_of(record);
            sources = second_readings(record);
            if kind == InvoiceKind::Travel && record.items.iter().any(|i| i.name.contains("住宿"))
            {
                self.hotels.push(HotelStay {
                    invoice_number: record.invoice_number.clone(),
                    seller: record.seller.name.clone(),
                    amount: record.total_with_tax.clone(),
                    date: record.invoice_date.clone(),
                });
            }
        }
        self.second.push(sources);
        self.claim.rows.push(row);
        let last = self.claim.rows.len() - 1;
        &mut self.claim.rows[last]
    }

    /// The rows so far (to attach ledger notes, say, before building).
    pub fn rows_mut(&mut self) -> &mut [ClaimRow] {
        &mut self.claim.rows
    }

    /// The claim, its trip from the tickets and hotel stays (the traveller defaulting to the
    /// configuration's `default_name`), with the second readings for corrections.
    pub fn build(self) -> Extraction {
        let mut claim = self.claim;
        claim.trip = TravelApplication::from_documents(self.tickets, self.hotels);
        if claim.trip.traveller.is_empty() {
            let name = claim.config.default_name.clone();
            claim.trip.set("出差人", &name, "config");
        }
        Extraction {
            claim,
            second: self.second,
        }
    }

    /// A railway or air ticket's trip into the trip's tickets; returns its passenger ("" for
    /// other invoices).
    fn tickets_of(&mut self, record: &InvoiceRecord) -> String {
        let ticket =
            |kind: &str, passenger: &str, from: &str, to: &str, date: &str, time: &str| Ticket {
                invoice_number: record.invoice_number.clone(),
                kind: kind.to_owned(),
                passenger: passenger.to_owned(),
                from: from.to_owned(),
                to: to.to_owned(),
                date: date.to_owned(),
                time: time.to_owned(),
            };
        if let Some(trip) = &record.railway {
            self.tickets.push(ticket(
                "train",
                &trip.passenger,
                &trip.from_station,
                &trip.to_station,
                &trip.travel_date,
                &trip.departure_time,
            ));
            return trip.passenger.clone();
        }
        if let Some(trip) = &record.air {
            for s in &trip.segments {
                let t = ticket("flight", &trip.passenger, &s.from, &s.to, &s.date, &s.time);
                self.tickets.push(t);
            }
            return trip.passenger.clone();
        }
        String::new()
    }
}

/// The cells a record's other sources confirmed, for corrections: `(field, value, source)`.
fn second_readings(record: &InvoiceRecord) -> Vec<(String, String, String)> {
    let source = record
        .confirmed_by
        .first()
        .cloned()
        .unwrap_or_else(|| "extraction".to_owned());
    [
        ("发票号码", &record.invoice_number),
        ("开票日期", &record.invoice_date),
        ("价税合计", &record.total_with_tax),
        ("销售方名称", &record.seller.name),
    ]
    .into_iter()
    .map(|(field, value)| (field.to_owned(), value.clone(), source.clone()))
    .collect()
}

impl Review {
    /// The table cells extraction flagged, with the value it read and why, for the review
    /// rules: a source that disagreed, or a value only OCR, a seal or the QR code gave.
    pub fn of_record(record: &InvoiceRecord) -> BTreeMap<String, Review> {
        let mut out: BTreeMap<String, Review> = BTreeMap::new();
        for flag in &record.flags {
            let (column, value) = match flag.field.as_str() {
                "invoice_number" => ("发票号码", &record.invoice_number),
                "invoice_date" => ("开票日期", &record.invoice_date),
                "total_with_tax" => ("价税合计", &record.total_with_tax),
                "seller_name" => ("销售方名称", &record.seller.name),
                _ => continue,
            };
            let reason = review_reason(&flag.source, &flag.value, &flag.other);
            let entry = out.entry(column.to_owned()).or_insert_with(|| Review {
                value: value.clone(),
                reason: String::new(),
            });
            if !entry.reason.is_empty() {
                entry.reason.push('；');
            }
            entry.reason.push_str(&reason);
        }
        out
    }
}

/// Why a flagged value needs a look, in the clerk's words.
fn review_reason(source: &str, value: &str, other: &str) -> String {
    match (source, value.is_empty()) {
        ("ocr", _) => "仅由 OCR 读出，未经其他来源核对".to_owned(),
        ("seal", _) => "读自印章（OCR），请核对".to_owned(),
        ("qr", true) => "文字层未读出，取自二维码".to_owned(),
        ("qr", false) => format!("与二维码不一致（二维码：{other}）"),
        ("大写", _) => format!("与大写金额不一致（大写：{other}）"),
        ("arith", _) => format!("与明细合计不一致（合计：{other}）"),
        ("xml", _) => format!("与内嵌 XML 不一致（XML：{other}）"),
        (other_source, _) => format!("与{other_source}不一致（{other}）"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flagged_fields_become_cells_to_review_with_their_reasons() {
        let flag = |field: &str, value: &str, source: &str, other: &str| domain::FieldFlag {
            field: field.into(),
            value: value.into(),
            source: source.into(),
            other: other.into(),
        };
        let mut record = InvoiceRecord {
            invoice_number: "87724080".into(),
            total_with_tax: "290.00".into(),
            ..InvoiceRecord::default()
        };
        record.seller.name = "某某管理中心".into();
        record.flags = vec![
            flag("total_with_tax", "290.00", "大写", "300.00"),
            flag("total_with_tax", "290.00", "arith", "300.00"),
            flag("seller_name", "", "seal", "某某管理中心"),
            flag("total_amount", "280.00", "qr", "280.59"),
        ];
        let review = Review::of_record(&record);
        assert_eq!(review.len(), 2, "{review:?}");
        assert_eq!(review["价税合计"].value, "290.00");
        assert_eq!(
            review["价税合计"].reason,
            "与大写金额不一致（大写：300.00）；与明细合计不一致（合计：300.00）"
        );
        assert_eq!(review["销售方名称"].value, "某某管理中心");
        assert_eq!(review["销售方名称"].reason, "读自印章（OCR），请核对");
    }

    #[test]
    fn invoices_become_the_services_rows_with_their_trip() {
        let config = SessionConfig {
            default_name: "张三".into(),
            username: "100001".into(),
            ..SessionConfig::default()
        };
        let mut builder = ClaimBuilder::new(config, Today::from_date("2026/11/29").unwrap());
        let mut ticket = InvoiceRecord {
            invoice_number: "25329166401000012345".into(),
            ..InvoiceRecord::default()
        };
        ticket.railway = Some(domain::RailwayTrip {
            passenger: "李四".into(),
            from_station: "北京南".into(),
            to_station: "上海虹桥".into(),
            travel_date: "2025/03/01".into(),
            ..domain::RailwayTrip::default()
        });
        assert!(builder.invoice(&ticket, InvoiceKind::Travel));
        let mut copy = ticket.clone();
        copy.invoice_number = " 25329166401000012345 ".into();
        assert!(
            !builder.invoice(&copy, InvoiceKind::Travel),
            "same identity"
        );
        let extraction = builder.build();
        let row = &extraction.claim.rows[0];
        assert_eq!(row.passenger, "李四");
        let typed = row.row();
        assert_eq!(
            (typed.seq.as_str(), typed.person_name.as_str()),
            ("1", "张三")
        );
        assert_eq!(typed.employee_id, "100001");
        assert_eq!(ClaimRow::from_row(&typed, InvoiceKind::Travel).row(), typed);
        assert_eq!(
            extraction.claim.trip.traveller, "李四",
            "the ticket's passenger first"
        );
        assert_eq!(extraction.claim.trip.origin, "北京南");
        assert_eq!(extraction.claim.trip.tickets.len(), 1);
        assert_eq!(extraction.second[0].len(), 4);
    }
}
