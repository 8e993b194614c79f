//! Matching payments to invoices, pure: amount (exact, then a small
//! tolerance), a date window, payee-name similarity; one-to-one by optimal
//! assignment, groups (one payment for several invoices, several payments
//! for one invoice) only when amounts add up exactly and names agree.
//! Ties are never broken by chance: they are reported, unmatched.

use serde::{Deserialize, Serialize};

use crate::amount;
use crate::date::Date;
use crate::merchant;
use crate::record::PaymentRecord;

/// What matching needs of an invoice.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct InvoiceForMatch {
    /// Caller's identifier (file name, row id); matching reports indices.
    pub id: String,
    /// Invoice number (发票号码), for reports.
    pub number: String,
    /// `YYYY/MM/DD`.
    pub date: String,
    /// Total including tax, `1234.50`.
    pub total_with_tax: String,
    /// Seller's name, compared with the payee's.
    pub seller: String,
}

/// The knobs of matching. The defaults: a difference of 1% of the invoice total but at most
/// ¥1.00 is tolerated; a payment up to 30 days before the invoice date or 7 days after it;
/// groups of up to 4 whose names are at least 0.5 similar.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MatchPolicy {
    /// Tolerated difference in basis points of the invoice total (100 = 1%).
    pub tolerance_bp: i64,
    /// Tolerated difference at most, in cents; both limits apply.
    pub tolerance_max_cents: i64,
    /// A payment may precede the invoice date by this many days (invoices
    /// are often issued after paying).
    pub days_before: i64,
    /// A payment may follow the invoice date by this many days.
    pub days_after: i64,
    /// Names agree for a group match at this similarity (0..=1).
    pub group_name_similarity: f64,
    /// Largest number of invoices (or payments) in one group.
    pub max_group: usize,
}

impl Default for MatchPolicy {
    fn default() -> Self {
        Self {
            tolerance_bp: 100,
            tolerance_max_cents: 100,
            days_before: 30,
            days_after: 7,
            group_name_similarity: 0.5,
            max_group: 4,
        }
    }
}

/// How a match was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchHow {
    /// One invoice, one payment, same amount to the cent.
    Exact,
    /// One invoice, one payment, amounts within the tolerance.
    Tolerance,
    /// One payment for several invoices (amounts add up exactly).
    OneToMany,
    /// Several payments for one invoice (amounts add up exactly).
    Split,
}

/// One match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Match {
    /// The invoices paid, as indices into the invoices given.
    pub invoice_indices: Vec<usize>,
    /// The payments, as indices into the payments given.
    pub payment_indices: Vec<usize>,
    /// How the match was made.
    pub how: MatchHow,
    /// 0..=1: amount agreement, date closeness and name similarity.
    pub score: f64,
}

/// Invoices and payments left unmatched because more than one pairing was
/// equally good.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ambiguity {
    /// The invoices concerned, as indices into the invoices given.
    pub invoice_indices: Vec<usize>,
    /// The payments concerned, as indices into the payments given.
    pub payment_indices: Vec<usize>,
    /// Why no pairing was chosen, for a person to decide.
    pub reason: String,
}

/// The outcome of matching.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    /// The matches made.
    pub pairs: Vec<Match>,
    /// Invoices without a payment (including those in `ambiguous`).
    pub unmatched_invoices: Vec<usize>,
    /// Usable payments without an invoice (including those in `ambiguous`).
    pub unmatched_payments: Vec<usize>,
    /// Pairings left undecided because several were equally good.
    pub ambiguous: Vec<Ambiguity>,
    /// Records never matched: refunds, failed or closed payments, screens
    /// without a payment, records without an amount.
    pub ignored_payments: Vec<usize>,
}

/// An invoice or payment reduced to numbers.
#[derive(Debug, Clone)]
struct Item {
    cents: i64,
    day: Option<i64>,
    name: String,
}

/// A one-to-one candidate pair.
#[derive(Debug, Clone, Copy)]
struct Edge {
    invoice: usize,
    payment: usize,
    /// Lexicographic preference packed into one integer: exact amount, then
    /// smaller difference, then closer date, then name similarity.
    weight: i64,
    exact: bool,
    score: f64,
}

/// Weight of being matched at all: above any preference difference, so the
/// assignment matches as many pairs as it can first.
const MATCHED: i64 = 1_000_000_000_000;
const EXACT: i64 = 1_000_000_000;
const PER_CENT: i64 = 1_000_000;
const PER_DAY: i64 = 1_000;

/// Matches `payments` to `invoices` under `policy`: exact amounts first, then within the
/// tolerance, one to one by optimal assignment; then groups whose amounts add up exactly and
/// whose names agree. Refunds, failed payments and records without an amount are ignored.
pub fn match_payments(
    invoices: &[InvoiceForMatch],
    payments: &[PaymentRecord],
    policy: &MatchPolicy,
) -> MatchResult {
    let inv: Vec<Option<Item>> = invoices.iter().map(invoice_item).collect();
    let mut result = MatchResult::default();
    let pay: Vec<Option<Item>> = payments
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let item = payment_item(p);
            if item.is_none() {
                result.ignored_payments.push(i);
            }
            item
        })
        .collect();

    let edges = candidate_edges(&inv, &pay, policy);
    let mut invoice_used = vec![false; invoices.len()];
    let mut payment_used = vec![false; payments.len()];
    let mut blocked_invoice = vec![false; invoices.len()];
    let mut blocked_payment = vec![false; payments.len()];

    for component in components(&edges, invoices.len()) {
        let (chosen, ambiguous) = assign_component(&component);
        for e in chosen {
            invoice_used[e.invoice] = true;
            payment_used[e.payment] = true;
            result.pairs.push(Match {
                invoice_indices: vec![e.invoice],
                payment_indices: vec![e.payment],
                how: if e.exact {
                    MatchHow::Exact
                } else {
                    MatchHow::Tolerance
                },
                score: e.score,
            });
        }
        if let Some(a) = ambiguous {
            a.invoice_indices
                .iter()
                .for_each(|&i| blocked_invoice[i] = true);
            a.payment_indices
                .iter()
                .for_each(|&p| blocked_payment[p] = true);
            result.ambiguous.push(a);
        }
    }

    // Groups among what is left, never touching ambiguous items.
    let free_inv: Vec<usize> = (0..invoices.len())
        .filter(|&i| inv[i].is_some() && !invoice_used[i] && !blocked_invoice[i])
        .collect();
    let free_pay: Vec<usize> = (0..payments.len())
        .filter(|&p| pay[p].is_some() && !payment_used[p] && !blocked_payment[p])
        .collect();
    let groups = candidate_groups(&inv, &pay, &free_inv, &free_pay, policy);
    for (k, g) in groups.iter().enumerate() {
        let overlaps = groups.iter().enumerate().any(|(l, other)| {
            l != k
                && (g
                    .invoice_indices
                    .iter()
                    .any(|i| other.invoice_indices.contains(i))
                    || g.payment_indices
                        .iter()
                        .any(|p| other.payment_indices.contains(p)))
        });
        if overlaps {
            let known = result.ambiguous.iter().any(|a| {
                a.invoice_indices == g.invoice_indices && a.payment_indices == g.payment_indices
            });
            if !known {
                result.ambiguous.push(Ambiguity {
                    invoice_indices: g.invoice_indices.clone(),
                    payment_indices: g.payment_indices.clone(),
                    reason: "several combinations add up to the same amount".to_owned(),
                });
            }
            continue;
        }
        g.invoice_indices
            .iter()
            .for_each(|&i| invoice_used[i] = true);
        g.payment_indices
            .iter()
            .for_each(|&p| payment_used[p] = true);
        result.pairs.push(g.clone());
    }

    result.unmatched_invoices = (0..invoices.len()).filter(|&i| !invoice_used[i]).collect();
    result.unmatched_payments = (0..payments.len())
        .filter(|&p| pay[p].is_some() && !payment_used[p])
        .collect();
    result
        .pairs
        .sort_by_key(|m| m.invoice_indices.first().copied());
    result
}

fn day_of(s: &str) -> Option<i64> {
    Date::parse(s).map(Date::day_number)
}

fn invoice_item(i: &InvoiceForMatch) -> Option<Item> {
    let cents = amount::parse_plain(&i.total_with_tax)?;
    (cents > 0).then(|| Item {
        cents,
        day: day_of(&i.date),
        name: i.seller.clone(),
    })
}

/// A payment that may be matched, reduced to numbers; `None` for refunds,
/// failed payments and screens without a payment.
fn payment_item(p: &PaymentRecord) -> Option<Item> {
    if !p.is_payment() {
        return None;
    }
    let cents = p.amount_cents()?.abs();
    (cents > 0).then(|| Item {
        cents,
        day: day_of(&p.date),
        name: p.merchant.clone(),
    })
}

/// Days from the invoice date to the payment date if the payment lies in
/// the window; `Some(None)` when a date is unknown.
fn date_fit(invoice: &Item, payment: &Item, policy: &MatchPolicy) -> Option<Option<i64>> {
    match (invoice.day, payment.day) {
        (Some(i), Some(p)) => {
            let diff = p - i;
            (-policy.days_before..=policy.days_after)
                .contains(&diff)
                .then_some(Some(diff))
        }
        _ => Some(None),
    }
}

fn tolerance(invoice_cents: i64, policy: &MatchPolicy) -> i64 {
    (invoice_cents * policy.tolerance_bp / 10_000).min(policy.tolerance_max_cents)
}

fn candidate_edges(inv: &[Option<Item>], pay: &[Option<Item>], policy: &MatchPolicy) -> Vec<Edge> {
    let window = policy.days_before.max(policy.days_after).max(1);
    let mut edges = Vec::new();
    for (i, invoice) in inv.iter().enumerate() {
        let Some(invoice) = invoice else { continue };
        for (p, payment) in pay.iter().enumerate() {
            let Some(payment) = payment else { continue };
            let diff = (invoice.cents - payment.cents).abs();
            let exact = diff == 0;
            if !exact && diff > tolerance(invoice.cents, policy) {
                continue;
            }
            let Some(days) = date_fit(invoice, payment, policy) else {
                continue;
            };
            // Without a date only the exact amount is evidence enough.
            if days.is_none() && !exact {
                continue;
            }
            let name = merchant::similarity(&invoice.name, &payment.name);
            #[expect(
                clippy::cast_possible_truncation,
                reason = "similarity is within 0..=1"
            )]
            let name_points = (name * 100.0).round() as i64;
            let closeness = days.map_or(0, |d| window - d.abs().min(window));
            let weight = MATCHED
                + if exact { EXACT } else { 0 }
                + (policy.tolerance_max_cents - diff).max(0) * PER_CENT
                + closeness * PER_DAY
                + name_points;
            #[expect(clippy::cast_precision_loss, reason = "small integers")]
            let score = 0.5 * if exact { 1.0 } else { 0.5 }
                + 0.3 * (closeness as f64 / window as f64)
                + 0.2 * name;
            edges.push(Edge {
                invoice: i,
                payment: p,
                weight,
                exact,
                score,
            });
        }
    }
    edges
}

/// Splits edges into connected components (invoices and payments linked by
/// candidate pairs), each assigned on its own.
fn components(edges: &[Edge], invoice_count: usize) -> Vec<Vec<Edge>> {
    let payment_count = edges.iter().map(|e| e.payment + 1).max().unwrap_or(0);
    let mut parent: Vec<usize> = (0..invoice_count + payment_count).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for e in edges {
        let a = find(&mut parent, e.invoice);
        let b = find(&mut parent, invoice_count + e.payment);
        parent[a] = b;
    }
    let mut groups: Vec<(usize, Vec<Edge>)> = Vec::new();
    for e in edges {
        let root = find(&mut parent, e.invoice);
        match groups.iter_mut().find(|(r, _)| *r == root) {
            Some((_, list)) => list.push(*e),
            None => groups.push((root, vec![*e])),
        }
    }
    groups.into_iter().map(|(_, list)| list).collect()
}

/// Optimal one-to-one assignment of a component. Pairs that every optimal
/// assignment contains are kept; if some optimal pair could be swapped for
/// another of equal value, the rest of the component is ambiguous.
fn assign_component(edges: &[Edge]) -> (Vec<Edge>, Option<Ambiguity>) {
    let mut invoices: Vec<usize> = edges.iter().map(|e| e.invoice).collect();
    invoices.sort_unstable();
    invoices.dedup();
    let mut payments: Vec<usize> = edges.iter().map(|e| e.payment).collect();
    payments.sort_unstable();
    payments.dedup();
    let n = invoices.len().max(payments.len());
    let mut weight = vec![vec![0i64; n]; n];
    for e in edges {
        let (Some(r), Some(c)) = (
            invoices.iter().position(|&i| i == e.invoice),
            payments.iter().position(|&p| p == e.payment),
        ) else {
            continue;
        };
        weight[r][c] = e.weight;
    }
    let (best, assignment) = max_assignment(&weight);
    let mut forced = Vec::new();
    let mut loose = false;
    for (r, &c) in assignment.iter().enumerate() {
        if weight[r][c] == 0 {
            continue;
        }
        let mut without = weight.clone();
        without[r][c] = 0;
        let (alt, _) = max_assignment(&without);
        if alt == best {
            loose = true;
        } else if let Some(e) = edges.iter().find(|e| {
            Some(e.invoice) == invoices.get(r).copied()
                && Some(e.payment) == payments.get(c).copied()
        }) {
            forced.push(*e);
        }
    }
    if !loose {
        return (forced, None);
    }
    let taken_inv: Vec<usize> = forced.iter().map(|e| e.invoice).collect();
    let taken_pay: Vec<usize> = forced.iter().map(|e| e.payment).collect();
    let ambiguity = Ambiguity {
        invoice_indices: invoices
            .into_iter()
            .filter(|i| !taken_inv.contains(i))
            .collect(),
        payment_indices: payments
            .into_iter()
            .filter(|p| !taken_pay.contains(p))
            .collect(),
        reason: "equally good candidates (same amount, date and name evidence)".to_owned(),
    };
    (forced, Some(ambiguity))
}

/// Maximum-weight assignment of a square matrix (Hungarian algorithm on
/// negated weights); returns the total and the column of each row.
fn max_assignment(weight: &[Vec<i64>]) -> (i64, Vec<usize>) {
    let n = weight.len();
    if n == 0 {
        return (0, Vec::new());
    }
    let cost = |r: usize, c: usize| -weight[r][c];
    // 1-based potentials and matching, as in the classic O(n³) formulation.
    let inf = i64::MAX / 4;
    let mut u = vec![0i64; n + 1];
    let mut v = vec![0i64; n + 1];
    let mut p = vec![0usize; n + 1];
    let mut way = vec![0usize; n + 1];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0;
        let mut minv = vec![inf; n + 1];
        let mut used = vec![false; n + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = inf;
            let mut j1 = 0;
            for j in 1..=n {
                if !used[j] {
                    let cur = cost(i0 - 1, j - 1) - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=n {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let mut assignment = vec![0usize; n];
    for j in 1..=n {
        if p[j] > 0 {
            assignment[p[j] - 1] = j - 1;
        }
    }
    let total = assignment
        .iter()
        .enumerate()
        .map(|(r, &c)| weight[r][c])
        .sum();
    (total, assignment)
}

/// Every group whose amounts add up exactly, within the date window, with
/// agreeing names: one payment for 2+ invoices, or 2+ payments for one
/// invoice.
fn candidate_groups(
    inv: &[Option<Item>],
    pay: &[Option<Item>],
    free_inv: &[usize],
    free_pay: &[usize],
    policy: &MatchPolicy,
) -> Vec<Match> {
    let mut groups = Vec::new();
    let names_agree =
        |a: &Item, b: &Item| merchant::similarity(&a.name, &b.name) >= policy.group_name_similarity;
    // One payment, several invoices of the same seller.
    for &p in free_pay {
        let Some(payment) = &pay[p] else { continue };
        let cands: Vec<usize> = free_inv
            .iter()
            .copied()
            .filter(|&i| {
                inv[i].as_ref().is_some_and(|invoice| {
                    invoice.cents < payment.cents
                        && matches!(date_fit(invoice, payment, policy), Some(Some(_)))
                        && names_agree(invoice, payment)
                })
            })
            .take(16)
            .collect();
        for subset in subsets_summing(&cands, policy.max_group, payment.cents, |i| {
            inv[i].as_ref().map_or(0, |x| x.cents)
        }) {
            groups.push(Match {
                invoice_indices: subset,
                payment_indices: vec![p],
                how: MatchHow::OneToMany,
                score: 1.0,
            });
        }
    }
    // One invoice, several payments to its seller.
    for &i in free_inv {
        let Some(invoice) = &inv[i] else { continue };
        let cands: Vec<usize> = free_pay
            .iter()
            .copied()
            .filter(|&p| {
                pay[p].as_ref().is_some_and(|payment| {
                    payment.cents < invoice.cents
                        && matches!(date_fit(invoice, payment, policy), Some(Some(_)))
                        && names_agree(invoice, payment)
                })
            })
            .take(16)
            .collect();
        for subset in subsets_summing(&cands, policy.max_group, invoice.cents, |p| {
            pay[p].as_ref().map_or(0, |x| x.cents)
        }) {
            groups.push(Match {
                invoice_indices: vec![i],
                payment_indices: subset,
                how: MatchHow::Split,
                score: 1.0,
            });
        }
    }
    groups
}

/// Subsets of 2..=max items of `cands` whose values add up to `target`.
fn subsets_summing(
    cands: &[usize],
    max: usize,
    target: i64,
    value: impl Fn(usize) -> i64,
) -> Vec<Vec<usize>> {
    fn walk(
        cands: &[usize],
        start: usize,
        max: usize,
        left: i64,
        chosen: &mut Vec<usize>,
        value: &dyn Fn(usize) -> i64,
        out: &mut Vec<Vec<usize>>,
    ) {
        if left == 0 && chosen.len() >= 2 {
            out.push(chosen.clone());
            return;
        }
        if chosen.len() == max || left <= 0 {
            return;
        }
        for k in start..cands.len() {
            chosen.push(cands[k]);
            walk(
                cands,
                k + 1,
                max,
                left - value(cands[k]),
                chosen,
                value,
                out,
            );
            chosen.pop();
        }
    }
    let mut out = Vec::new();
    walk(cands, 0, max, target, &mut Vec::new(), &value, &mut out);
    out
}
