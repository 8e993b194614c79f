//! The travel application (`travel_applications.json`): the trip a travel claim is for,
//! gathered from the railway and air tickets and hotel invoices, then completed by what the
//! user supplies. The travel flow submits from it. Shape: docs/agent.md.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A ticket of the trip.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ticket {
    /// The number of the invoice the ticket is.
    pub invoice_number: String,
    /// `train` or `flight`.
    pub kind: String,
    /// The passenger's name.
    pub passenger: String,
    /// Where the journey starts (station or city, as printed).
    pub from: String,
    /// Where it ends.
    pub to: String,
    /// `YYYY/MM/DD`.
    pub date: String,
    /// Departure time `HH:MM`, when printed.
    #[serde(default)]
    pub time: String,
}

/// A hotel stay of the trip.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HotelStay {
    /// The number of the hotel's invoice.
    pub invoice_number: String,
    /// The hotel (the invoice's seller).
    pub seller: String,
    /// The invoice's total with tax.
    pub amount: String,
    /// The invoice's date, `YYYY/MM/DD`.
    pub date: String,
}

/// The trip.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TravelApplication {
    /// 出差人: who travelled (the first ticket's passenger, unless the user says otherwise).
    pub traveller: String,
    /// 出差事由.
    pub purpose: String,
    /// 出发地.
    pub origin: String,
    /// 目的地.
    pub destination: String,
    /// 出发日期, `YYYY/MM/DD`.
    pub start_date: String,
    /// 返回日期, `YYYY/MM/DD`.
    pub end_date: String,
    /// The trip's tickets, as the claim holds them.
    pub tickets: Vec<Ticket>,
    /// The trip's hotel stays.
    pub hotels: Vec<HotelStay>,
    /// Where each trip field came from: `tickets` or `user`.
    pub sources: BTreeMap<String, String>,
}

/// The trip fields by their Chinese names, as rules and supplements name them.
pub const TRIP_FIELDS: [&str; 5] = ["出差事由", "出发地", "目的地", "出发日期", "返回日期"];

impl TravelApplication {
    /// A trip field by its Chinese name ("" for an unknown name).
    pub fn field(&self, name: &str) -> &str {
        match name {
            "出差事由" => &self.purpose,
            "出发地" => &self.origin,
            "目的地" => &self.destination,
            "出发日期" => &self.start_date,
            "返回日期" => &self.end_date,
            "出差人" => &self.traveller,
            _ => "",
        }
    }

    fn slot(&mut self, name: &str) -> Option<&mut String> {
        Some(match name {
            "出差事由" => &mut self.purpose,
            "出发地" => &mut self.origin,
            "目的地" => &mut self.destination,
            "出发日期" => &mut self.start_date,
            "返回日期" => &mut self.end_date,
            "出差人" => &mut self.traveller,
            _ => return None,
        })
    }

    /// Sets a trip field, remembering where the value came from. False for an unknown name.
    pub fn set(&mut self, name: &str, value: &str, source: &str) -> bool {
        let Some(slot) = self.slot(name) else {
            return false;
        };
        value.trim().clone_into(slot);
        self.sources.insert(name.to_owned(), source.to_owned());
        true
    }

    /// The trip as the tickets and hotel stays show it. In time order, the outbound journey is
    /// the first ticket and those that connect on from it (the same day, from where the last
    /// arrived, to a place not yet visited): the trip leaves from its start, goes to its end, on its first date. A ticket
    /// after the outbound journey is the way back, and the last one's date the return date;
    /// with none, the return date is left to the user.
    pub fn from_documents(tickets: Vec<Ticket>, hotels: Vec<HotelStay>) -> Self {
        let mut trip = Self::default();
        let mut ordered: Vec<&Ticket> = tickets.iter().collect();
        ordered.sort_by(|a, b| (&a.date, &a.time).cmp(&(&b.date, &b.time)));
        if let Some(first) = ordered.first() {
            let mut visited = vec![first.from.as_str(), first.to.as_str()];
            let outbound = ordered
                .windows(2)
                .take_while(|pair| {
                    // A connection leaves the same day from where the last ticket arrived and
                    // goes somewhere new; going back is the return journey.
                    let connects = pair[0].to == pair[1].from
                        && pair[0].date == pair[1].date
                        && !visited.contains(&pair[1].to.as_str());
                    visited.push(pair[1].to.as_str());
                    connects
                })
                .count()
                + 1;
            let arrival = ordered.get(outbound - 1).map_or("", |t| t.to.as_str());
            trip.set("出发地", &first.from, "tickets");
            trip.set("目的地", arrival, "tickets");
            trip.set("出发日期", &first.date, "tickets");
            trip.set("出差人", &first.passenger, "tickets");
            if let Some(last) = ordered.last().filter(|_| ordered.len() > outbound) {
                trip.set("返回日期", &last.date, "tickets");
            }
        }
        trip.tickets = tickets;
        trip.hotels = hotels;
        trip
    }

    /// This trip completed by `user`'s fields: what the user supplied wins.
    pub fn merged_with(mut self, user: &BTreeMap<String, String>) -> Self {
        for (name, value) in user {
            if !value.trim().is_empty() {
                self.set(name, value, "user");
            }
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ticket(from: &str, to: &str, date: &str) -> Ticket {
        Ticket {
            kind: "train".into(),
            passenger: "张三".into(),
            from: from.into(),
            to: to.into(),
            date: date.into(),
            ..Ticket::default()
        }
    }

    #[test]
    fn the_trip_follows_the_tickets_and_the_user_completes_it() {
        let trip = TravelApplication::from_documents(
            vec![
                ticket("北京南", "上海虹桥", "2025/03/12"),
                ticket("上海虹桥", "北京南", "2025/03/10"),
            ],
            Vec::new(),
        );
        assert_eq!(
            (trip.origin.as_str(), trip.destination.as_str()),
            ("上海虹桥", "北京南")
        );
        assert_eq!(
            (trip.start_date.as_str(), trip.end_date.as_str()),
            ("2025/03/10", "2025/03/12")
        );
        assert_eq!(trip.purpose, "");
        let user = BTreeMap::from([("出差事由".to_owned(), "参加学术会议".to_owned())]);
        let trip = trip.merged_with(&user);
        assert_eq!(trip.purpose, "参加学术会议");
        assert_eq!(trip.sources["出差事由"], "user");
        assert_eq!(trip.sources["出发地"], "tickets");
    }

    #[test]
    fn a_connection_is_one_outbound_journey() {
        let mut second = ticket("长沙南", "广州南", "2025/02/20");
        second.time = "10:05".into();
        let mut first = ticket("湘潭北", "长沙南", "2025/02/20");
        first.time = "08:40".into();
        let trip = TravelApplication::from_documents(vec![second, first], Vec::new());
        assert_eq!(
            (trip.origin.as_str(), trip.destination.as_str()),
            ("湘潭北", "广州南")
        );
        assert_eq!(trip.end_date, "", "no way back among the tickets");
        let back = ticket("广州南", "湘潭北", "2025/02/23");
        let trip = TravelApplication::from_documents(
            vec![trip.tickets[0].clone(), trip.tickets[1].clone(), back],
            Vec::new(),
        );
        assert_eq!(
            (trip.origin.as_str(), trip.destination.as_str()),
            ("湘潭北", "广州南")
        );
        assert_eq!(
            (trip.start_date.as_str(), trip.end_date.as_str()),
            ("2025/02/20", "2025/02/23")
        );
    }

    #[test]
    fn a_single_ticket_leaves_the_return_date_open() {
        let trip = TravelApplication::from_documents(
            vec![ticket("北京南", "上海虹桥", "2025/03/10")],
            Vec::new(),
        );
        assert_eq!(trip.end_date, "");
    }
}
