//! Buyer and seller: which 名称 / 纳税人识别号 label belongs to whom, decided by the block
//! labels beside them (the vertical 购买方 / 销售方 columns, or 购买方名称-style prefixes),
//! falling back to the layout's left/right or upper/lower convention.

use crate::geometry::Sheet;
use crate::labels::{Hit, Take, Value};
use domain::Party;

/// What a vertical block label column introduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BlockKind {
    Buyer,
    Seller,
    /// 密码区 of the old formats.
    Password,
    /// 备注.
    Remark,
}

/// A block label printed vertically, one character per line (`购/买/方`, `备/注`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Block {
    pub kind: BlockKind,
    pub x: f32,
    pub top: f32,
    pub bottom: f32,
    pub size: f32,
}

/// How the layout places the parties when no block label decides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Fallback {
    /// 数电: buyer left, seller right of this x.
    LeftRight { split_x: f32 },
    /// Old formats: buyer above, seller below this y.
    UpperLower { split_y: f32 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Buyer,
    Seller,
}

const BLOCK_CHARS: &str = "购买方信息销售密码区备注";

/// Finds the vertical block label columns of a sheet.
pub(crate) fn blocks(sheet: &Sheet) -> Vec<Block> {
    let mut singles: Vec<(char, f32, f32, f32)> = sheet
        .runs
        .iter()
        .filter_map(|r| {
            let mut chars = r.text.chars();
            let c = chars.next()?;
            (chars.next().is_none() && BLOCK_CHARS.contains(c)).then_some((c, r.x, r.y, r.size))
        })
        .collect();
    // Top to bottom, so each seed is the top of its column.
    singles.sort_by(|a, b| a.2.total_cmp(&b.2).then(a.1.total_cmp(&b.1)));
    let mut out = Vec::new();
    let mut used = vec![false; singles.len()];
    for i in 0..singles.len() {
        if used.get(i).copied().unwrap_or(true) {
            continue;
        }
        let Some(&(_, x, y, size)) = singles.get(i) else {
            continue;
        };
        // Members share an x and follow each other closely downwards.
        let mut members = vec![i];
        let mut last_y = y;
        let mut candidates: Vec<usize> = (i + 1..singles.len())
            .filter(|&j| {
                singles.get(j).is_some_and(|s| {
                    (s.1 - x).abs() <= 0.6 * size && !used.get(j).copied().unwrap_or(true)
                })
            })
            .collect();
        candidates.sort_by(|&a, &b| {
            let ya = singles.get(a).map_or(0.0, |s| s.2);
            let yb = singles.get(b).map_or(0.0, |s| s.2);
            ya.total_cmp(&yb)
        });
        for j in candidates {
            let Some(&(_, _, yj, _)) = singles.get(j) else {
                continue;
            };
            if yj > last_y && yj - last_y <= 4.5 * size {
                members.push(j);
                last_y = yj;
            }
        }
        if members.len() < 2 {
            continue;
        }
        let chars: String = members
            .iter()
            .filter_map(|&m| singles.get(m).map(|s| s.0))
            .collect();
        // A real block label reads downwards in order (购→买→方, 备→注); stacked characters
        // of names or addresses that merely share an x (区 over 区) do not.
        let reads = |pairs: &[&str]| pairs.iter().any(|p| in_order(&chars, p));
        let kind = if reads(&["购买", "购方", "买方"]) {
            BlockKind::Buyer
        } else if reads(&["销售", "销方", "售方"]) {
            BlockKind::Seller
        } else if reads(&["密码", "码区", "密区"]) {
            BlockKind::Password
        } else if reads(&["备注"]) {
            BlockKind::Remark
        } else {
            continue;
        };
        for &m in &members {
            if let Some(u) = used.get_mut(m) {
                *u = true;
            }
        }
        out.push(Block {
            kind,
            x,
            top: y,
            bottom: last_y,
            size,
        });
    }
    out
}

/// Whether the two characters of `pair` occur in `s` in that order.
fn in_order(s: &str, pair: &str) -> bool {
    let mut p = pair.chars();
    let (Some(a), Some(b)) = (p.next(), p.next()) else {
        return false;
    };
    s.find(a)
        .and_then(|i| s.get(i + a.len_utf8()..))
        .is_some_and(|rest| rest.contains(b))
}

/// Buyer and seller of a sheet.
pub(crate) fn parties(sheet: &Sheet, fallback: Fallback) -> (Party, Party) {
    let blocks = blocks(sheet);
    let mut buyer = Party::default();
    let mut seller = Party::default();
    for hit in sheet.find("名称") {
        if !is_party_label(sheet, &hit) {
            continue;
        }
        let right = right_bound(&blocks, &hit);
        let Some(v) = sheet.take_after(&hit, &Take::text(right)) else {
            continue;
        };
        let slot = match role(sheet, &blocks, &hit, fallback) {
            Role::Buyer => &mut buyer.name,
            Role::Seller => &mut seller.name,
        };
        if slot.is_empty() {
            *slot = v.text.clone();
            slot.push_str(&wrapped_rest(sheet, &hit, &v, right));
        }
    }
    for label in ["纳税人识别号", "统一社会信用代码", "税号"] {
        for hit in sheet.find(label) {
            let right = right_bound(&blocks, &hit);
            let Some(v) = sheet.take_after(&hit, &Take::tax_id(right)) else {
                continue;
            };
            if v.text.len() < 15 {
                continue;
            }
            let slot = match role(sheet, &blocks, &hit, fallback) {
                Role::Buyer => &mut buyer.tax_id,
                Role::Seller => &mut seller.tax_id,
            };
            if slot.is_empty() {
                *slot = v.text;
            }
        }
    }
    (buyer, seller)
}

/// The rest of a name that filled its line and wrapped: text on the next line starting
/// where the value started, inside the same block, and not a label.
fn wrapped_rest(sheet: &Sheet, hit: &Hit, v: &Value, right: f32) -> String {
    let edge = right.min(sheet.width);
    if v.x1 < edge - 3.0 * hit.size {
        return String::new();
    }
    let (lo, hi) = (hit.y + 0.5 * hit.size, hit.y + 1.8 * hit.size);
    let mut glyphs: Vec<_> = sheet
        .lines
        .iter()
        .filter(|l| l.y > hit.y)
        .flat_map(|l| l.glyphs.iter())
        .filter(|g| g.y > lo && g.y < hi && g.x0 >= v.x0 - 0.5 * hit.size && g.x0 < right)
        .copied()
        .collect();
    glyphs.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    let starts_under = glyphs
        .first()
        .is_some_and(|g| (g.x0 - v.x0).abs() <= hit.size);
    let text: String = glyphs.iter().map(|g| g.ch).collect();
    if !starts_under || text.contains(':') {
        return String::new();
    }
    text
}

/// `名称` on its own or after a party word, not the tail of `项目名称` and kin (which may be
/// spaced out, so the item table's header line is excluded as a whole).
fn is_party_label(sheet: &Sheet, hit: &Hit) -> bool {
    let header = sheet.lines.get(hit.line).is_some_and(|l| {
        let t = l.text();
        t.contains("规格") || t.contains("单价") || t.contains("税率")
    });
    if header {
        return false;
    }
    match sheet.glyph_before(hit, 0.3) {
        None => true,
        Some(g) => "购买方销售信息:".contains(g.ch),
    }
}

/// The party a label names in so many words (`购买方名称`, `销方名称`), if it does.
fn explicit_role(sheet: &Sheet, hit: &Hit) -> Option<Role> {
    let line = sheet.lines.get(hit.line)?;
    let before: String = line
        .glyphs
        .get(hit.start.saturating_sub(3)..hit.start)?
        .iter()
        .map(|g| g.ch)
        .collect();
    if before.ends_with("购买方") || before.ends_with("购方") {
        Some(Role::Buyer)
    } else if before.ends_with("销售方") || before.ends_with("销方") {
        Some(Role::Seller)
    } else {
        None
    }
}

fn role(sheet: &Sheet, blocks: &[Block], hit: &Hit, fallback: Fallback) -> Role {
    if let Some(r) = explicit_role(sheet, hit) {
        return r;
    }
    // The nearest buyer/seller column to the label's left, vertical distance weighing most.
    let nearest = blocks
        .iter()
        .filter(|b| matches!(b.kind, BlockKind::Buyer | BlockKind::Seller))
        .filter(|b| b.x <= hit.x0 + 0.5 * hit.size)
        .filter_map(|b| {
            let dy = vertical_distance(b, hit.y);
            (dy <= 6.0 * b.size).then_some((b, (hit.x0 - b.x) + 3.0 * dy))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((b, _)) = nearest {
        return if b.kind == BlockKind::Buyer {
            Role::Buyer
        } else {
            Role::Seller
        };
    }
    match fallback {
        Fallback::LeftRight { split_x } if hit.x0 < split_x => Role::Buyer,
        Fallback::UpperLower { split_y } if hit.y < split_y => Role::Buyer,
        _ => Role::Seller,
    }
}

/// How far `y` lies outside a column's extent (one em of slack each way).
fn vertical_distance(b: &Block, y: f32) -> f32 {
    let top = b.top - 1.5 * b.size;
    let bottom = b.bottom + 0.5 * b.size;
    if y < top {
        top - y
    } else if y > bottom {
        y - bottom
    } else {
        0.0
    }
}

/// A value right of `hit` ends at the next block label column beside it.
pub(crate) fn right_bound(blocks: &[Block], hit: &Hit) -> f32 {
    blocks
        .iter()
        .filter(|b| b.x > hit.x1 && vertical_distance(b, hit.y) <= 2.0 * b.size)
        .map(|b| b.x)
        .fold(f32::INFINITY, f32::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tests::{run, sheet};

    fn column(chars: &str, x: f32, y: f32, step: f32) -> Vec<crate::geometry::Run> {
        chars
            .chars()
            .enumerate()
            .map(|(i, c)| run(&c.to_string(), x, y + step * i as f32))
            .collect()
    }

    #[test]
    fn left_right_blocks_decide_buyer_and_seller() {
        let mut runs = column("购买方信息", 16.0, 100.0, 10.0);
        runs.extend(column("销售方信息", 300.0, 100.0, 10.0));
        runs.push(run("名称:买家公司", 30.0, 100.0));
        runs.push(run("名称:卖家公司", 315.0, 100.0));
        runs.push(run(
            "统一社会信用代码/纳税人识别号:91330108MA27Y5XH5G",
            30.0,
            131.0,
        ));
        runs.push(run(
            "统一社会信用代码/纳税人识别号:92431302MABTLNCM74",
            315.0,
            131.0,
        ));
        // Fallback deliberately wrong: blocks must win.
        let (buyer, seller) = parties(&sheet(runs), Fallback::LeftRight { split_x: 0.0 });
        assert_eq!(buyer.name, "买家公司");
        assert_eq!(seller.name, "卖家公司");
        assert_eq!(buyer.tax_id, "91330108MA27Y5XH5G");
        assert_eq!(seller.tax_id, "92431302MABTLNCM74");
    }

    #[test]
    fn upper_lower_blocks_and_password_area_bound_values() {
        let mut runs = column("购买方", 28.0, 99.0, 16.0);
        runs.extend(column("密码区", 330.0, 99.0, 16.0));
        runs.extend(column("销售方", 28.0, 309.0, 14.0));
        runs.extend(column("备注", 351.0, 309.0, 29.0));
        runs.push(run("名", 48.0, 93.6));
        runs.push(run("称:", 92.0, 93.6));
        runs.push(run("个人", 108.0, 93.6));
        runs.push(run("0696/79+6663/1*8*0462405794", 345.0, 93.6));
        runs.push(run("名称:某某贸易有限公司", 48.0, 303.0));
        runs.push(run("订单号:100068586537", 370.0, 303.0));
        runs.push(run("纳税人识别号:", 48.0, 317.0));
        runs.push(run("91120110MA06J3WLX8", 108.0, 318.0));
        let (buyer, seller) = parties(&sheet(runs), Fallback::UpperLower { split_y: 0.0 });
        assert_eq!(buyer.name, "个人");
        assert_eq!(seller.name, "某某贸易有限公司");
        assert_eq!(buyer.tax_id, "");
        assert_eq!(seller.tax_id, "91120110MA06J3WLX8");
    }

    #[test]
    fn a_long_name_wrapped_onto_the_next_line_is_joined() {
        let mut runs = column("购买方信息", 16.0, 100.0, 10.0);
        runs.extend(column("销售方信息", 300.0, 100.0, 10.0));
        runs.push(run("名称:", 315.0, 100.0));
        // 26 characters reach the page edge (595 - 3 em), the rest wraps under the value.
        runs.push(run(
            "某某某某某某某某某某某某某某某某某某某某某某某某某某",
            338.0,
            100.0,
        ));
        runs.push(run("有限公司", 338.0, 110.0));
        runs.push(run("统一社会信用代码/纳税人识别号:", 315.0, 131.0));
        let (_, seller) = parties(&sheet(runs), Fallback::LeftRight { split_x: 300.0 });
        assert_eq!(seller.name, format!("{}有限公司", "某".repeat(26)));
    }

    #[test]
    fn stacked_name_characters_are_not_block_labels() {
        // 区 of a spaced-out name above 区 of the address at the same x.
        let runs = vec![
            run("区", 78.0, 303.0),
            run("区", 78.0, 331.0),
            run("码", 78.0, 345.0),
        ];
        assert!(blocks(&sheet(runs)).is_empty());
        let runs = vec![run("备", 351.0, 309.0), run("注", 351.0, 338.0)];
        assert_eq!(blocks(&sheet(runs))[0].kind, BlockKind::Remark);
    }

    #[test]
    fn explicit_labels_and_fallback() {
        let runs = vec![
            run("购买方名称:甲公司", 25.0, 313.0),
            run("名称:乙公司", 25.0, 100.0),
        ];
        let (buyer, seller) = parties(&sheet(runs), Fallback::UpperLower { split_y: 50.0 });
        assert_eq!(buyer.name, "甲公司");
        assert_eq!(seller.name, "乙公司");
    }

    #[test]
    fn item_name_header_is_not_a_party_label() {
        let runs = vec![run("项目名称", 45.0, 158.0), run("规格型号", 119.0, 158.0)];
        let (buyer, seller) = parties(&sheet(runs), Fallback::LeftRight { split_x: 300.0 });
        assert_eq!(buyer, Party::default());
        assert_eq!(seller, Party::default());
    }
}
