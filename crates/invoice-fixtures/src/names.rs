//! Invented parties, people and identifiers. Nothing here comes from a real invoice: companies
//! carry made-up brand words (示例, 样例, 演示 …), tax ids and numbers are seeded random digits
//! with the right shape.

use crate::invoice::Party;
use crate::rng::Rng;

/// The characters of a 统一社会信用代码 (GB 32100: digits and capitals without I O S V Z).
const USCC_ALPHABET: &str = "0123456789ABCDEFGHJKLMNPQRTUWXY";
const USCC_WEIGHTS: [u32; 17] = [
    1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28,
];

const STREETS: [&str; 8] = [
    "星河路",
    "云栖大道",
    "梧桐街",
    "青禾路",
    "望江东路",
    "银杏大道",
    "丹桂巷",
    "滨湖路",
];
const SURNAMES: [&str; 12] = [
    "王", "李", "张", "刘", "陈", "杨", "赵", "黄", "周", "吴", "徐", "孙",
];
const GIVEN: [&str; 12] = [
    "思远", "雨桐", "立新", "嘉怡", "子涵", "浩然", "静雯", "明轩", "若溪", "伟东", "晓岚", "一鸣",
];

/// Where a party is registered: the tax id's six-digit area code, the city of its address and
/// the phone area code.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Place {
    pub region: &'static str,
    pub city: &'static str,
    pub area: &'static str,
}

pub(crate) const HANGZHOU: Place = Place {
    region: "330106",
    city: "杭州",
    area: "0571",
};
pub(crate) const HANGZHOU_SHANGCHENG: Place = Place {
    region: "330102",
    city: "杭州",
    area: "0571",
};
pub(crate) const NINGBO: Place = Place {
    region: "330203",
    city: "宁波",
    area: "0574",
};
pub(crate) const CHANGSHA: Place = Place {
    region: "430104",
    city: "长沙",
    area: "0731",
};
pub(crate) const SHENZHEN: Place = Place {
    region: "440305",
    city: "深圳",
    area: "0755",
};
pub(crate) const GUANGZHOU: Place = Place {
    region: "440106",
    city: "广州",
    area: "020",
};
pub(crate) const SHANGHAI_PUDONG: Place = Place {
    region: "310115",
    city: "上海",
    area: "021",
};
pub(crate) const SHANGHAI_XUHUI: Place = Place {
    region: "310104",
    city: "上海",
    area: "021",
};
pub(crate) const SHANGHAI_JINGAN: Place = Place {
    region: "310106",
    city: "上海",
    area: "021",
};
pub(crate) const CHENGDU: Place = Place {
    region: "510104",
    city: "成都",
    area: "028",
};
pub(crate) const SUZHOU: Place = Place {
    region: "320508",
    city: "苏州",
    area: "0512",
};
pub(crate) const WUXI: Place = Place {
    region: "320211",
    city: "无锡",
    area: "0510",
};

/// A party with an invented tax id, address, phone and bank account. `kind` is the tax id's
/// first two characters: `91` company, `92` 个体工商户, `52` private non-enterprise unit. The
/// details are seeded by the name, so a company has the same tax id on every fixture.
pub(crate) fn party(name: &str, kind: &str, place: Place) -> Party {
    let rng = &mut Rng::new(&format!("party:{name}"));
    let Place { region, city, area } = place;
    let street = STREETS[rng.index(STREETS.len())];
    let number = 1 + rng.below(298);
    Party {
        name: name.to_owned(),
        tax_id: tax_id(rng, kind, region),
        address_phone: format!("{city}市{street}{number}号 {area}-8{}", rng.digits(7)),
        bank_account: format!("示例银行股份有限公司{city}{street}支行 6{}", rng.digits(16)),
    }
}

/// An 18-character 统一社会信用代码 with a valid check character.
pub(crate) fn tax_id(rng: &mut Rng, kind: &str, region: &str) -> String {
    let body_alphabet = "0123456789ABCDEFGHJKLMNPQRTUWXY";
    let mut id = format!("{kind}{region}");
    while id.len() < 17 {
        // The organisation code is mostly digits, as real ones are.
        let c = if rng.below(4) == 0 {
            rng.char_of(body_alphabet)
        } else {
            rng.char_of("0123456789")
        };
        id.push(c);
    }
    id.push(uscc_check(&id));
    id
}

/// The GB 32100 check character of the first 17 characters.
fn uscc_check(first17: &str) -> char {
    let sum: u32 = first17
        .chars()
        .zip(USCC_WEIGHTS)
        .map(|(c, w)| USCC_ALPHABET.find(c).map_or(0, |v| v as u32) * w)
        .sum();
    let check = (31 - sum % 31) % 31;
    USCC_ALPHABET.chars().nth(check as usize).unwrap_or('0')
}

/// A two- or three-character personal name.
pub(crate) fn person(rng: &mut Rng) -> String {
    format!(
        "{}{}",
        SURNAMES[rng.index(SURNAMES.len())],
        GIVEN[rng.index(GIVEN.len())]
    )
}

/// An ID number masked the way tickets print it: `3301061990****1234`.
pub(crate) fn masked_id(rng: &mut Rng, region: &str) -> String {
    let year = 1970 + rng.below(35);
    let last = format!("{}{}", rng.digits(3), rng.char_of("0123456789X"));
    format!("{region}{year}****{last}")
}

/// A 20-digit 数电 invoice number: two-digit year, two-digit province, then digits.
pub(crate) fn digital_number(rng: &mut Rng, year: u16, province: &str) -> String {
    format!("{:02}{province}{}", year % 100, rng.digits(16))
}

/// The four lines of an old-format 密码区.
pub(crate) fn cipher_lines(rng: &mut Rng) -> Vec<String> {
    (0..4)
        .map(|_| (0..28).map(|_| rng.char_of("0123456789+-*/<>")).collect())
        .collect()
}

/// The four lines of a general machine-printed invoice's 密码区 (hexadecimal).
pub(crate) fn hex_cipher_lines(rng: &mut Rng) -> Vec<String> {
    (0..4).map(|_| rng.hex(16).to_ascii_lowercase()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tax_ids_have_the_shape_and_check_character() {
        let mut rng = Rng::new("t");
        for _ in 0..50 {
            let id = tax_id(&mut rng, "91", "330106");
            assert_eq!(id.len(), 18);
            assert!(id.starts_with("91330106"));
            assert!(id.chars().all(|c| USCC_ALPHABET.contains(c)));
            assert_eq!(id.chars().last(), Some(uscc_check(&id[..17])));
        }
        // The published example of GB 32100.
        assert_eq!(uscc_check("91350100M000100Y4"), '3');
    }

    #[test]
    fn numbers_have_their_lengths() {
        let mut rng = Rng::new("n");
        assert_eq!(digital_number(&mut rng, 2025, "33").len(), 20);
        assert_eq!(masked_id(&mut rng, "330106").chars().count(), 18);
        assert!(cipher_lines(&mut rng).iter().all(|l| l.len() == 28));
    }
}
