//! The engine on the committed screenshot fixtures, with the models `cargo xtask install` puts
//! in `models/pp-ocr`: without them this test fails, naming the command.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "test code"
)]

use std::path::{Path, PathBuf};

fn screenshots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("fixtures/screenshots"))
        .find(|p| p.is_dir())
        .expect("fixtures/screenshots")
}

fn engine() -> reimburse_pp_ocr::Engine {
    reimburse_pp_ocr::Engine::find().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn an_alipay_bill_reads_line_for_line() {
    let engine = engine();
    let image = image::open(screenshots().join("alipay_bill_01.png"))
        .unwrap()
        .to_rgb8();
    let lines = engine.read(&image).unwrap();
    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    println!("{texts:?}");
    for want in [
        "-177.00",
        "2024-07-05 07:52:27",
        "兴业银行信用卡(1569)",
        "示例数码快印有限公司",
        "付款方式",
    ] {
        assert!(texts.contains(&want), "{want} not in {texts:?}");
    }
    // Boxes are on the image and in reading order.
    let (w, h) = image.dimensions();
    assert!(
        lines
            .iter()
            .all(|l| l.x0 < l.x1 && l.x1 <= w && l.y0 < l.y1 && l.y1 <= h)
    );
    let amount = lines.iter().position(|l| l.text == "-177.00").unwrap();
    let card = lines.iter().position(|l| l.text.contains("1569")).unwrap();
    assert!(amount < card);
}

#[test]
fn every_fixture_gives_its_labelled_amount() {
    let engine = engine();
    let mut checked = 0;
    for entry in std::fs::read_dir(screenshots()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "png") {
            continue;
        }
        let Ok(expected) = std::fs::read(path.with_extension("json")) else {
            continue;
        };
        let expected: serde_json::Value = serde_json::from_slice(&expected).unwrap();
        let Some(amount) = expected["amount"].as_str().filter(|a| !a.is_empty()) else {
            continue;
        };
        let image = image::open(&path).unwrap().to_rgb8();
        let text_of = |lines: Vec<reimburse_pp_ocr::TextLine>| -> String {
            lines.iter().map(|l| l.text.clone()).collect()
        };
        let digits = |s: &str| s.replace(',', "");
        let mut text = text_of(engine.read(&image).unwrap());
        // A page detected reduced may lose a glyph of a big amount (alipay_bill_06's
        // `-4,843.00`); the screenshot reader then re-reads that row at full size.
        if !digits(&text).contains(&digits(amount))
            && reimburse_pp_ocr::detection_scale(image.width(), image.height()) < 1.0
        {
            let long = image.width().max(image.height());
            text = text_of(engine.read_document(&image, long).unwrap());
        }
        assert!(
            digits(&text).contains(&digits(amount)),
            "{}: {amount} not in {text}",
            path.display()
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} fixtures with an amount");
}
