//! Fills a template with sample (or given) data and writes `易耗品、出库单.doc/.docx`, to try
//! a clerk's own template:
//! `cargo run -p reimburse-docgen --example docgen_generate -- TEMPLATE OUT_DIR [DOC.json]`.
//! DOC.json has the fields of `reimburse_docgen::OutboundDoc` (date, claimant, department,
//! storage, items[name, spec, unit, quantity, unit_price, amount]).

#![allow(
    clippy::print_stdout,
    reason = "a command-line tool reports what it did"
)]

use std::error::Error;
use std::path::PathBuf;

use reimburse_docgen::{Converter, OutboundDoc, OutboundItem};

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args_os().skip(1);
    let (Some(template), Some(out_dir)) = (args.next(), args.next()) else {
        return Err("用法：generate TEMPLATE.docx OUT_DIR [DOC.json]".into());
    };
    let doc: OutboundDoc = match args.next() {
        Some(json) => serde_json::from_slice(&std::fs::read(json)?)?,
        None => sample(),
    };
    let template = PathBuf::from(template);
    let report = reimburse_docgen::check_template(&std::fs::read(&template)?)?;
    println!("占位符：{}", report.placeholders.join("、"));
    if !report.unknown.is_empty() {
        println!("无法填写（将原样保留）：{}", report.unknown.join("、"));
    }
    let out_dir = PathBuf::from(out_dir);
    std::fs::create_dir_all(&out_dir)?;
    let generated = reimburse_docgen::generate(&template, &doc, &out_dir, &Converter::default())?;
    println!("{}", generated.doc_path.display());
    println!("{}", generated.docx_path.display());
    Ok(())
}

fn sample() -> OutboundDoc {
    let item = |name: &str, spec: &str, unit: &str, quantity: &str, price: &str, amount: &str| {
        OutboundItem {
            name: name.to_owned(),
            spec: spec.to_owned(),
            unit: unit.to_owned(),
            quantity: quantity.to_owned(),
            unit_price: price.to_owned(),
            amount: amount.to_owned(),
        }
    };
    OutboundDoc {
        date: "2025/03/11".to_owned(),
        claimant: "张三".to_owned(),
        department: "物理学院".to_owned(),
        storage: "理科楼203室".to_owned(),
        items: vec![
            item("A4复印纸", "70g 500张/包", "包", "10", "25.50", "255.00"),
            item("硒鼓", "HP CF388A", "个", "1", "380.00", "380.00"),
            item("中性笔", "0.5mm 黑色", "盒", "2", "10.00", "20.00"),
        ],
    }
}
