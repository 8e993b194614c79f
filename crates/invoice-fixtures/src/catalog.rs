//! The fixture set: one function per fixture, each inventing its invoice from a generator
//! seeded with the fixture's name, drawing it and stating the golden record.

use crate::fixture::Fixture;
use crate::golden;
use crate::invoice::{Invoice, Item, Party, Style, TollColumns, Yen};
use crate::layouts::air::{self, Flight, Itinerary};
use crate::layouts::railway::{self, Ticket};
use crate::layouts::{digital, old_format, receipt};
use crate::names;
use crate::rng::Rng;
use crate::{ofd, xml};
use domain::DocumentType;

const NORMAL_TITLE: &str = "电子发票（普通发票）";
const SPECIAL_TITLE: &str = "电子发票（增值税专用发票）";

/// Every fixture, in a fixed order.
pub fn all() -> Vec<Fixture> {
    vec![
        digital_normal_single(),
        digital_normal_multi(),
        digital_normal_wrapped(),
        digital_normal_discount(),
        digital_normal_two_pages(),
        digital_normal_words_mismatch(),
        digital_normal_spaced(),
        digital_special_kangxi(),
        railway_ticket(),
        air_itinerary(),
        vat_e_normal(),
        toll(),
        toll_2018_unmapped_labels(),
        shenzhen_blockchain(),
        toll_receipt(),
        general_machine(),
        digital_normal_xml(),
        digital_special_ofd(),
    ]
}

fn hangzhou_buyer() -> Party {
    names::party("杭州示例网络科技有限公司", "91", names::HANGZHOU)
}

/// A 数电 invoice with its number, parties and people invented from `rng`.
fn digital(
    rng: &mut Rng,
    doc_type: DocumentType,
    title: &str,
    date: (u16, u8, u8),
    seller: Party,
    items: Vec<Item>,
) -> Invoice {
    Invoice {
        doc_type,
        title: title.to_owned(),
        number: names::digital_number(rng, date.0, "33"),
        date,
        buyer: hangzhou_buyer(),
        seller,
        items,
        issuer: names::person(rng),
        qr_tail: rng.hex(4),
        ..Invoice::default()
    }
}

/// Draws a 数电 invoice and states its golden record.
fn digital_fixture(name: &str, invoice: &Invoice) -> Fixture {
    let file = digital::render(invoice);
    let pages = u32::try_from(file.pages.len()).unwrap_or(1);
    Fixture::new(name, "pdf", file.to_bytes(), golden::record(invoice, pages))
}

/// An old-format invoice with code, number, check code, machine number and 密码区 invented.
fn old_format_invoice(
    rng: &mut Rng,
    doc_type: DocumentType,
    title: &str,
    code: &str,
    date: (u16, u8, u8),
) -> Invoice {
    Invoice {
        doc_type,
        title: title.to_owned(),
        code: code.to_owned(),
        number: rng.digits(8),
        date,
        check_code: rng.digits(20),
        machine_no: rng.digits(12),
        cipher: names::cipher_lines(rng),
        issuer: names::person(rng),
        payee: names::person(rng),
        reviewer: names::person(rng),
        qr_tail: rng.hex(4),
        style: Style {
            colon: ':',
            yen: Yen::Full,
            ..Style::default()
        },
        ..Invoice::default()
    }
}

fn old_format_fixture(name: &str, invoice: &Invoice) -> Fixture {
    let file = old_format::render(invoice);
    Fixture::new(name, "pdf", file.to_bytes(), golden::record(invoice, 1))
}

/// A meal: one item with no quantity or price, 1% rate, the rotated 下载次数 stamp.
fn digital_normal_single() -> Fixture {
    let name = "digital_normal_single";
    let mut rng = Rng::new(name);
    let seller = names::party("长沙市岳麓区示例湘菜馆", "92", names::CHANGSHA);
    let items = vec![Item::bare("*餐饮服务*餐饮费", 28_713, 1)];
    let mut invoice = digital(
        &mut rng,
        DocumentType::DigitalNormal,
        NORMAL_TITLE,
        (2025, 3, 14),
        seller,
        items,
    );
    invoice.style.download_stamp = true;
    digital_fixture(name, &invoice)
}

/// Office supplies: three priced items with spec, unit, quantity and unit price, a remark;
/// every label drawn before any value.
fn digital_normal_multi() -> Fixture {
    let name = "digital_normal_multi";
    let mut rng = Rng::new(name);
    let seller = names::party("宁波样例文具商贸有限公司", "91", names::NINGBO);
    let items = vec![
        Item::priced("*文具*中性笔", "0.5mm黑色", "盒", 10, 31_858, 13),
        Item::priced("*纸制品*复印纸", "A4/70g", "箱", 3, 38_053, 13),
        Item::priced("*文具*文件夹", "A4蓝色", "个", 20, 14_159, 13),
    ];
    let mut invoice = digital(
        &mut rng,
        DocumentType::DigitalNormal,
        NORMAL_TITLE,
        (2025, 3, 18),
        seller,
        items,
    );
    invoice.remark = "订单编号：DD2025031800172".to_owned();
    invoice.style.labels_first = true;
    digital_fixture(name, &invoice)
}

/// A long item name wrapped over two lines (with a space inside it, as shops print).
fn digital_normal_wrapped() -> Fixture {
    let name = "digital_normal_wrapped";
    let mut rng = Rng::new(name);
    let seller = names::party("深圳示例电子商务有限公司", "91", names::SHENZHEN);
    let items = vec![
        Item::priced(
            "*日用杂品*示例牌 加厚带盖收纳箱大号",
            "60L",
            "个",
            2,
            15_841,
            13,
        ),
        Item::priced("*日用杂品*衣架", "", "个", 30, 5_310, 13),
    ];
    let invoice = digital(
        &mut rng,
        DocumentType::DigitalNormal,
        NORMAL_TITLE,
        (2025, 4, 2),
        seller,
        items,
    );
    digital_fixture(name, &invoice)
}

/// An item and its discount line (negative amount and tax); `￥` and half-width colons.
fn digital_normal_discount() -> Fixture {
    let name = "digital_normal_discount";
    let mut rng = Rng::new(name);
    let seller = names::party("上海演示电脑配件有限公司", "91", names::SHANGHAI_PUDONG);
    let product = "*计算机配套产品*无线鼠标";
    // Discount lines repeat the name and print only amount, rate and tax, all negative.
    let items = vec![
        Item::priced(product, "M310", "个", 1, 8_761, 13),
        Item::bare(product, -885, 13),
    ];
    let mut invoice = digital(
        &mut rng,
        DocumentType::DigitalNormal,
        NORMAL_TITLE,
        (2025, 2, 27),
        seller,
        items,
    );
    invoice.style.colon = ':';
    invoice.style.yen = Yen::Full;
    digital_fixture(name, &invoice)
}

/// Thirteen items over two pages: the table continues on page 2, which alone carries the
/// totals; both pages print 共2页 第N页.
fn digital_normal_two_pages() -> Fixture {
    let name = "digital_normal_two_pages";
    let mut rng = Rng::new(name);
    let seller = names::party("宁波样例文具商贸有限公司", "91", names::NINGBO);
    let goods: [(&str, &str, &str, i64, i64); 13] = [
        ("*文具*中性笔", "0.5mm黑色", "盒", 5, 15_929),
        ("*文具*中性笔", "0.5mm红色", "盒", 2, 6_372),
        ("*文具*笔芯", "0.5mm", "盒", 10, 17_699),
        ("*纸制品*复印纸", "A4/70g", "箱", 4, 50_619),
        ("*纸制品*便利贴", "76x76mm", "本", 20, 7_080),
        ("*文具*订书机", "12号", "个", 3, 7_434),
        ("*文具*订书钉", "24/6", "盒", 10, 2_655),
        ("*文具*长尾夹", "32mm", "盒", 6, 4_248),
        ("*文具*文件袋", "A4透明", "个", 50, 8_850),
        ("*文具*白板笔", "黑色", "支", 12, 4_248),
        ("*文具*计算器", "12位", "个", 2, 10_442),
        ("*纸制品*笔记本", "B5", "本", 24, 10_195),
        ("*文具*剪刀", "17cm", "把", 4, 3_186),
    ];
    let items = goods
        .iter()
        .map(|&(n, spec, unit, quantity, amount)| Item::priced(n, spec, unit, quantity, amount, 13))
        .collect();
    let mut invoice = digital(
        &mut rng,
        DocumentType::DigitalNormal,
        NORMAL_TITLE,
        (2025, 3, 31),
        seller,
        items,
    );
    invoice.first_page_items = 7;
    digital_fixture(name, &invoice)
}

/// 大写 spells 壹仟零陆拾陆圆整 while 小写 prints ¥1166.00: the record keeps 小写 and flags
/// the disagreement.
fn digital_normal_words_mismatch() -> Fixture {
    let name = "digital_normal_words_mismatch";
    let mut rng = Rng::new(name);
    let seller = names::party("成都演示酒店管理有限公司", "91", names::CHENGDU);
    let items = vec![Item::priced("*住宿服务*住宿费", "", "天", 2, 110_000, 6)];
    let mut invoice = digital(
        &mut rng,
        DocumentType::DigitalNormal,
        NORMAL_TITLE,
        (2025, 5, 9),
        seller,
        items,
    );
    invoice.words_amount = Some(106_600);
    digital_fixture(name, &invoice)
}

/// Labels and the seller name drawn one character at a time with gaps (OFD-converter style),
/// half-width colons.
fn digital_normal_spaced() -> Fixture {
    let name = "digital_normal_spaced";
    let mut rng = Rng::new(name);
    let seller = names::party("苏州样例餐饮管理有限公司", "91", names::SUZHOU);
    let items = vec![Item::bare("*餐饮服务*餐费", 46_604, 6)];
    let mut invoice = digital(
        &mut rng,
        DocumentType::DigitalNormal,
        NORMAL_TITLE,
        (2025, 1, 16),
        seller,
        items,
    );
    invoice.style.spaced = true;
    invoice.style.colon = ':';
    digital_fixture(name, &invoice)
}

/// 增值税专用发票 with Kangxi radicals in the title, the labels and the seller's name, the
/// tax office seal over the title, and amounts with thousands separators.
fn digital_special_kangxi() -> Fixture {
    let name = "digital_special_kangxi";
    let mut rng = Rng::new(name);
    let seller = names::party(
        "杭州⾦桥示例酒店管理有限公司",
        "91",
        names::HANGZHOU_SHANGCHENG,
    );
    let items = vec![Item::priced("*住宿服务*住宿费", "", "间", 3, 235_849, 6)];
    let title = crate::text::kangxi("电子发票");
    let title = format!("{title}（增值税专用发票）");
    let mut invoice = digital(
        &mut rng,
        DocumentType::DigitalSpecial,
        &title,
        (2025, 2, 11),
        seller,
        items,
    );
    invoice.style.kangxi = true;
    invoice.style.thousands = true;
    digital_fixture(name, &invoice)
}

/// A railway e-ticket with its XBRL attachment, QR code and `￥` fare.
fn railway_ticket() -> Fixture {
    let name = "railway_ticket";
    let mut rng = Rng::new(name);
    let ticket = Ticket {
        number: format!("2533{}", rng.digits(16)),
        date: (2025, 4, 2),
        from: "宁波".to_owned(),
        from_pinyin: "Ningbo".to_owned(),
        to: "杭州东".to_owned(),
        to_pinyin: "Hangzhoudong".to_owned(),
        train_no: "G7356".to_owned(),
        travel_date: (2025, 3, 28),
        departure: "07:45".to_owned(),
        carriage: "05车".to_owned(),
        seat: "12F号".to_owned(),
        seat_class: "二等座".to_owned(),
        fare: 7_350,
        passenger: names::person(&mut rng),
        passenger_id: names::masked_id(&mut rng, "330203"),
        ticket_no: rng.digits(25),
        buyer: hangzhou_buyer(),
        qr: true,
        qr_tail: rng.hex(4).to_ascii_lowercase(),
    };
    Fixture::new(
        name,
        "pdf",
        railway::render(&ticket).to_bytes(),
        railway::record(&ticket),
    )
}

/// An air itinerary over two connecting flights.
fn air_itinerary() -> Fixture {
    let name = "air_itinerary";
    let mut rng = Rng::new(name);
    let flight = |from: &str, to: &str, carrier: &str, flight_no: &str, time: &str| Flight {
        from: from.to_owned(),
        to: to.to_owned(),
        carrier: carrier.to_owned(),
        flight_no: flight_no.to_owned(),
        seat_class: "经济舱".to_owned(),
        date: (2025, 3, 14),
        time: time.to_owned(),
        fare_basis: "Y".to_owned(),
        baggage: "20K".to_owned(),
    };
    let itinerary = Itinerary {
        number: names::digital_number(&mut rng, 2025, "31"),
        date: (2025, 3, 15),
        passenger: names::person(&mut rng),
        passenger_id: names::masked_id(&mut rng, "310104"),
        endorsement: "不得签转".to_owned(),
        flights: vec![
            flight("上海虹桥", "成都天府", "东航", "MU5401", "08:35"),
            flight("成都天府", "拉萨贡嘎", "国航", "CA4401", "13:20"),
        ],
        fare: 112_000,
        fuel_surcharge: 8_000,
        caac_fund: 10_000,
        other_taxes: 0,
        ticket_no: format!("781{}", rng.digits(10)),
        verification: rng.digits(4),
        buyer: hangzhou_buyer(),
    };
    Fixture::new(
        name,
        "pdf",
        air::render(&itinerary).to_bytes(),
        air::record(&itinerary),
    )
}

/// Old-format 增值税电子普通发票: a tax-free line printing `***`, full-width parentheses in a
/// name, labels and values in separate layers (labels first).
fn vat_e_normal() -> Fixture {
    let name = "vat_e_normal";
    let mut rng = Rng::new(name);
    let mut invoice = old_format_invoice(
        &mut rng,
        DocumentType::VatENormal,
        "上海增值税电子普通发票",
        "031002400111",
        (2024, 3, 8),
    );
    invoice.buyer = names::party("上海演示数据服务有限公司", "91", names::SHANGHAI_XUHUI);
    invoice.seller = names::party("上海样例文化传播有限公司", "91", names::SHANGHAI_JINGAN);
    invoice.items = vec![
        Item {
            name: "*图书*示例绘本（精装）".to_owned(),
            spec: "202403".to_owned(),
            quantity: "1".to_owned(),
            unit_price: "58".to_owned(),
            amount: 5_800,
            tax_rate: "免税".to_owned(),
            tax: None,
            ..Item::default()
        },
        Item::priced("*玩具*积木套装", "", "", 1, 8_584, 13),
    ];
    invoice.style.yen = Yen::Half;
    invoice.style.labels_first = true;
    old_format_fixture(name, &invoice)
}

/// A 2018 toll top-up invoice of the old format (通行费, 不征税) whose labels are in a font
/// mapped into the private-use area: the text layer lies about every label, the values are
/// true. Read with page OCR only.
fn toll_2018_unmapped_labels() -> Fixture {
    let name = "toll_2018_unmapped_labels";
    let mut rng = Rng::new(name);
    let mut invoice = old_format_invoice(
        &mut rng,
        DocumentType::VatENormal,
        "广东增值税电子普通发票",
        "044001800111",
        (2018, 1, 16),
    );
    invoice.buyer = names::party("深圳示例信息技术股份有限公司", "91", names::SHENZHEN);
    invoice.seller = names::party("广东示例电子服务股份有限公司", "91", names::GUANGZHOU);
    invoice.items = vec![Item {
        name: "*预付卡销售*通行费".to_owned(),
        quantity: "1".to_owned(),
        unit_price: "95.06".to_owned(),
        amount: 9_506,
        tax_rate: "不征税".to_owned(),
        tax: None,
        ..Item::default()
    }];
    invoice.style.unmapped_labels = true;
    let file = old_format::render(&invoice);
    let mut expected = golden::record(&invoice, 1);
    expected.text_source = "ocr-repaired".to_owned();
    Fixture::new(name, "pdf", file.to_bytes(), expected).needing_ocr()
}

/// A Shenzhen blockchain invoice (深圳电子普通发票): its QR code is the verification address
/// (number and total in fen, no date), read as a witness like the national payload.
fn shenzhen_blockchain() -> Fixture {
    let name = "shenzhen_blockchain";
    let mut rng = Rng::new(name);
    let mut invoice = old_format_invoice(
        &mut rng,
        DocumentType::VatENormal,
        "深圳电子普通发票",
        "144031909110",
        (2019, 5, 16),
    );
    invoice.qr_tail = rng.hex(32);
    invoice.buyer = hangzhou_buyer();
    invoice.seller = names::party("深圳市示例餐饮管理有限公司", "91", names::SHENZHEN);
    invoice.items = vec![Item::priced("*餐饮服务*餐费", "", "", 1, 26_800, 6)];
    invoice.style.blockchain_qr = true;
    old_format_fixture(name, &invoice)
}

/// A provincial fiscal toll receipt, read by the generic layout: 票据代码/票据号码, 交款人, a
/// 项目编码 column, no tax, the payee only in a seal (not drawn).
fn toll_receipt() -> Fixture {
    let name = "toll_receipt";
    let mut rng = Rng::new(name);
    let receipt = receipt::Receipt {
        title: "江苏省车辆通行费票据（电子）".to_owned(),
        code: "32020124".to_owned(),
        number: rng.digits(10),
        check: "Ab3Xk9".to_owned(),
        date: (2024, 5, 14),
        payer: "无锡示例人才咨询有限公司".to_owned(),
        payer_tax_id: format!("91320200{}", rng.digits(9)) + "X",
        item_code: "1030159".to_owned(),
        item: "车辆通行费（限于政府还贷）".to_owned(),
        unit: "次".to_owned(),
        amount: 1_500,
        reviewer: names::person(&mut rng),
        payee_clerk: names::person(&mut rng),
    };
    let file = receipt::render(&receipt);
    Fixture::new(name, "pdf", file.to_bytes(), receipt::record(&receipt))
}

/// Old-format 通行费 invoice: the toll columns, `￥`, 汇总开具.
fn toll() -> Fixture {
    let name = "toll";
    let mut rng = Rng::new(name);
    let mut invoice = old_format_invoice(
        &mut rng,
        DocumentType::Toll,
        "浙江增值税电子普通发票",
        "033002300112",
        (2024, 3, 20),
    );
    invoice.buyer = hangzhou_buyer();
    invoice.seller = names::party(
        "浙江示例高速公路运营有限公司",
        "91",
        names::HANGZHOU_SHANGCHENG,
    );
    let toll_item = |amount: i64, from: &str, to: &str| Item {
        name: "*经营租赁*通行费".to_owned(),
        amount,
        tax_rate: "3%".to_owned(),
        tax: Some(crate::money::tax_at(amount, 3)),
        toll: Some(TollColumns {
            plate: "浙A7K2Q9".to_owned(),
            vehicle_type: "客车".to_owned(),
            date_from: from.to_owned(),
            date_to: to.to_owned(),
        }),
        ..Item::default()
    };
    invoice.items = vec![
        toll_item(18_447, "20240305", "20240305"),
        toll_item(9_612, "20240307", "20240309"),
    ];
    invoice.remark = "汇总开具".to_owned();
    old_format_fixture(name, &invoice)
}

/// 广东通用机打发票（电子）: code, number, spaced 校验码 groups, hexadecimal 密码区, a meal.
fn general_machine() -> Fixture {
    let name = "general_machine";
    let mut rng = Rng::new(name);
    let mut invoice = old_format_invoice(
        &mut rng,
        DocumentType::GeneralMachine,
        "广东通用机打发票（电子）",
        "144002400010",
        (2024, 5, 21),
    );
    invoice.check_code = format!("0000000000{}", rng.digits(10));
    invoice.machine_no = String::new();
    invoice.cipher = names::hex_cipher_lines(&mut rng);
    invoice.buyer = hangzhou_buyer();
    invoice.seller = names::party("广州市天河区样例餐厅", "92", names::GUANGZHOU);
    invoice.items = vec![Item::bare("*餐饮服务*餐费", 64_356, 1)];
    invoice.style = Style {
        colon: '：',
        yen: Yen::Half,
        ..Style::default()
    };
    old_format_fixture(name, &invoice)
}

/// The 数电 structured XML `<EInvoice>` of a training invoice: no printed title, no pages.
fn digital_normal_xml() -> Fixture {
    let name = "digital_normal_xml";
    let mut rng = Rng::new(name);
    let seller = names::party("无锡样例职业技能培训中心", "52", names::WUXI);
    let items = vec![
        Item::priced("*非学历教育服务*培训费", "", "人", 2, 47_170, 6),
        Item::priced("*印刷品*培训教材", "", "套", 2, 8_850, 13),
    ];
    let mut invoice = digital(
        &mut rng,
        DocumentType::DigitalNormal,
        "",
        (2025, 6, 18),
        seller,
        items,
    );
    invoice.style.qr = false;
    let signature = format!("3045022100{}", rng.hex(64).to_ascii_lowercase());
    let bytes = xml::document(&invoice, &signature).into_bytes();
    Fixture::new(name, "xml", bytes, golden::record(&invoice, 0))
}

/// A 数电 增值税专用发票 as OFD: labels in the template page, values in the page, semantic
/// tags in CustomTag.xml.
fn digital_special_ofd() -> Fixture {
    let name = "digital_special_ofd";
    let mut rng = Rng::new(name);
    let seller = names::party("无锡示例燃气设备有限公司", "91", names::WUXI);
    let items = vec![Item::priced("*劳务*设备维护保养", "", "台", 2, 176_991, 13)];
    let mut invoice = digital(
        &mut rng,
        DocumentType::DigitalSpecial,
        SPECIAL_TITLE,
        (2024, 12, 5),
        seller,
        items,
    );
    invoice.remark = "合同编号：WX-2024-1187".to_owned();
    invoice.style.qr = false;
    let doc_id = rng.hex(32).to_ascii_lowercase();
    Fixture::new(
        name,
        "ofd",
        ofd::document(&invoice, &doc_id),
        golden::record(&invoice, 1),
    )
}

/// `count` distinct 数电 office-supply invoices invented from `seed`, for benchmarks that need
/// a month's worth of different invoices (the fixed set has one of each layout, some of them
/// travel).
pub fn office_supply_batch(seed: &str, count: usize) -> Vec<Fixture> {
    const SELLERS: &[&str] = &[
        "宁波样例文具商贸有限公司",
        "杭州示例办公用品有限公司",
        "上海演示耗材经营部",
        "苏州测试电子科技有限公司",
    ];
    const GOODS: &[(&str, &str, &str)] = &[
        ("*文具*中性笔", "0.5mm黑色", "盒"),
        ("*纸制品*复印纸", "A4/70g", "箱"),
        ("*文具*文件夹", "A4蓝色", "个"),
        ("*计算机配套产品*鼠标", "USB有线", "个"),
        ("*墨粉*硒鼓", "CF230A", "支"),
    ];
    let places = [
        names::NINGBO,
        names::HANGZHOU,
        names::SHANGHAI_JINGAN,
        names::SUZHOU,
    ];
    (0..count)
        .map(|i| {
            let name = format!("batch_{seed}_{i:02}");
            let mut rng = Rng::new(&name);
            let pick = rng.index(SELLERS.len());
            let seller = names::party(SELLERS[pick], "91", places[pick % places.len()]);
            let lines = 1 + rng.index(3);
            let items = (0..lines)
                .map(|_| {
                    let (goods, spec, unit) = GOODS[rng.index(GOODS.len())];
                    let quantity = 1 + i64::try_from(rng.below(20)).unwrap_or(0);
                    let cents = 1_000 + i64::try_from(rng.below(50_000)).unwrap_or(0);
                    Item::priced(goods, spec, unit, quantity, cents, 13)
                })
                .collect();
            let day = 1 + u8::try_from(rng.below(28)).unwrap_or(0);
            let invoice = digital(
                &mut rng,
                DocumentType::DigitalNormal,
                NORMAL_TITLE,
                (2025, 4, day),
                seller,
                items,
            );
            digital_fixture(&name, &invoice)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_items_fit_their_pages() {
        let fixtures = all();
        let mut names: Vec<&str> = fixtures.iter().map(|f| f.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), fixtures.len());
    }

    #[test]
    fn two_page_split_fits() {
        let mut rng = Rng::new("fit");
        let items = vec![Item::bare("*a*b", 100, 1); 7];
        let invoice = digital(
            &mut rng,
            DocumentType::DigitalNormal,
            NORMAL_TITLE,
            (2025, 1, 1),
            Party::default(),
            items,
        );
        assert!(
            invoice
                .page_items()
                .iter()
                .all(|chunk| digital::items_fit(chunk))
        );
        let too_many = vec![Item::bare("*a*b", 100, 1); 8];
        assert!(!digital::items_fit(&too_many));
    }
}
