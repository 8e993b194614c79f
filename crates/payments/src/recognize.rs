//! Recognition of one screenshot: prepare the image, OCR it in block mode,
//! parse; when key fields are missing, OCR again in sparse mode and fill the
//! gaps from that pass.

use std::path::Path;

use image::{DynamicImage, GrayImage};

use crate::error::PaymentsError;
use crate::garbled_headline::GarbledHeadline;
use crate::ocr::{Ocr, OcrPage, PageMode, Tesseract};
use crate::preprocess::{self, BigLine, Prep};
use crate::record::{FIELD_AMOUNT, FIELD_CARD_LAST4, PaymentRecord};
use crate::screens::{self, ScreenType};
use crate::text::digits_of;
use crate::{amount, bands, card, date};

/// The outcome of recognising one screenshot.
#[derive(Debug, Clone, PartialEq)]
pub struct Recognition {
    pub record: PaymentRecord,
    pub screen: ScreenType,
    /// OCR text of the pass the record mostly comes from: what a caller may
    /// hand the LLM when `record.unreadable` is not empty.
    pub text: String,
    /// Page modes run, in order.
    pub passes: Vec<PageMode>,
    /// The payment method row names a wallet (零钱, 余额宝, 花呗): no card
    /// is to be expected.
    pub wallet: bool,
    /// Fields read only from doubtful words and not yet confirmed by
    /// another pass; they are emptied before the result is returned.
    tentative: Vec<&'static str>,
    /// Fields of a slip two readers read differently (a receipt printer's
    /// slashed zero read as `8` by one of them): in doubt, so only a value
    /// another pass confirmed fills them.
    contested: Vec<&'static str>,
    /// Values of a slip's fields two readers agreed on (the page and the
    /// re-read, or a vote): a field another pass contested takes the one
    /// value they agree on.
    confirmed: Vec<(&'static str, String)>,
    /// Amounts (cents) some pass saw labelled as something else than the
    /// payment: no pass may take them for the amount.
    not_paid: Vec<i64>,
}

impl Recognition {
    /// Marks `field` settled on `value` by a reading that has the last
    /// word: no longer in doubt, and `value` its one confirmed value.
    fn settle(&mut self, field: &'static str, value: &str) {
        self.contested.retain(|f| *f != field);
        self.confirmed.retain(|(f, _)| *f != field);
        self.confirmed.push((field, value.to_owned()));
    }
}

/// Reads payment screenshots with an OCR engine.
#[derive(Debug, Clone)]
pub struct Recognizer<O> {
    pub ocr: O,
    pub prep: Prep,
    /// Page modes of the passes: the first always runs, each further one
    /// only while key fields are still missing.
    pub modes: Vec<PageMode>,
}

impl Recognizer<Tesseract> {
    /// A recognizer using the tesseract program on `PATH`.
    pub fn tesseract() -> Self {
        Self::new(Tesseract::default())
    }
}

impl<O: Ocr> Recognizer<O> {
    pub fn new(ocr: O) -> Self {
        Self {
            ocr,
            prep: Prep::default(),
            modes: vec![PageMode::Block, PageMode::Sparse, PageMode::Column],
        }
    }

    /// Recognises an image file; the record's `file` is its file name.
    pub fn recognize_file(&self, path: &Path) -> Result<Recognition, PaymentsError> {
        let (image, _permit) = crate::bounded_image::load(path)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.recognize_image(&name, &image)
    }

    /// Recognises a decoded image.
    pub fn recognize_image(
        &self,
        file: &str,
        image: &DynamicImage,
    ) -> Result<Recognition, PaymentsError> {
        let prepared = preprocess::prepare_image(image, &self.prep);
        self.read_passes(file, image, &prepared)
    }

    /// Reads a prepared image in the page modes until the key fields are
    /// read. A slip prepared as a screen (scanned, or photographed straight
    /// on a plain surface) is prepared as the photo it is and read again:
    /// read as a screen, the page's model takes a receipt printer's slashed
    /// zeros for `9`, `6` or `8` (`2924/63/97`).
    fn read_passes(
        &self,
        file: &str,
        image: &DynamicImage,
        prepared: &preprocess::Prepared,
    ) -> Result<Recognition, PaymentsError> {
        let preprocess::Prepared {
            gray,
            photo,
            big_lines,
        } = prepared;
        let photo = *photo;
        let mut best: Option<Recognition> = None;
        for &mode in &self.modes {
            let page = if photo {
                self.ocr.recognize_photo(gray, mode)?
            } else {
                self.ocr.recognize(gray, mode)?
            };
            let mut pass = read_page(file, &page, mode);
            if !photo && best.is_none() && pass.screen == ScreenType::PosSlip && self.prep.deskew {
                let as_photo = preprocess::prepare_as_photo(image, &self.prep);
                return self.read_passes(file, image, &as_photo);
            }
            self.second_looks(gray, big_lines, &page, &mut pass, photo)?;
            let merged = match best.take() {
                Some(sofar) => merge(sofar, pass),
                None => pass,
            };
            if is_complete(&merged) {
                return Ok(merged);
            }
            best = Some(merged);
        }
        let mut best =
            best.ok_or_else(|| PaymentsError::Tesseract("no page mode configured".to_owned()))?;
        // Still short of a field: text whose colour, not brightness, stands
        // out from the page (a red amount on black) may be all that is left.
        if !photo && let Some(by_colour) = preprocess::prepare_by_colour(image, &self.prep) {
            let page = self.ocr.recognize(&by_colour.gray, PageMode::Block)?;
            let mut pass = read_page(file, &page, PageMode::Block);
            self.second_looks(
                &by_colour.gray,
                &by_colour.big_lines,
                &page,
                &mut pass,
                false,
            )?;
            best = merge(best, pass);
        }
        Ok(drop_tentative(best))
    }
}

impl<O: Ocr> Recognizer<O> {
    /// Every second look a pass gets: the amount and card rows re-read,
    /// then the date's and the amount's rows read alone where the pass
    /// still has none.
    fn second_looks(
        &self,
        gray: &GrayImage,
        big_lines: &[BigLine],
        page: &OcrPage,
        pass: &mut Recognition,
        photo: bool,
    ) -> Result<(), PaymentsError> {
        self.reread(gray, big_lines, page, pass, photo)?;
        self.reread_card_row(gray, page, pass, photo)?;
        self.reread_date(gray, page, pass, photo)?;
        self.reread_amount_row(gray, page, pass, photo)?;
        self.read_missed_headline(gray, page, pass, photo)
    }

    /// Reads the lines of ink the page left out, each alone as one raw
    /// line, when a bank screen's pass read no amount at all: tesseract's
    /// layout analysis drops some lines whole (see [`PageMode::Line`]),
    /// and a headline amount is the line a bank page can least spare. An
    /// amount is taken only when it is written as a headline is (alone on
    /// its line or leading it, with a sign or a currency) and no other
    /// left-out line names another; never where the page names a discount.
    fn read_missed_headline(
        &self,
        gray: &GrayImage,
        page: &OcrPage,
        pass: &mut Recognition,
        photo: bool,
    ) -> Result<(), PaymentsError> {
        if !pass.record.amount.is_empty()
            || photo
            || pass.screen != ScreenType::BankCard
            || names_discount(page)
        {
            return Ok(());
        }
        let mut named = Vec::new();
        let gray = &bands::edge_bars_cleared(gray);
        for band in missed_bands(gray, page, 6) {
            let Some(crop) = crop_band(gray, &band) else {
                continue;
            };
            let read = self.ocr.recognize(&crop, PageMode::Line)?.text();
            tracing::debug!(text = %read, "left-out line read alone");
            named.extend(
                amount::find_amounts(&read)
                    .into_iter()
                    .filter(|h| {
                        (h.alone || h.leads) && (h.sign != amount::Sign::None || h.currency)
                    })
                    .map(|h| h.cents),
            );
            // A heavy `+` read as a glyph (`二 150.63` for `+150.63`): the
            // first glyph's shape decides.
            if let Some(cents) = after_one_glyph(&read)
                && crate::plus_sign::leads_with_plus(&crop)
            {
                named.push(cents);
            }
        }
        named.sort_unstable();
        named.dedup();
        if let [cents] = named.as_slice() {
            pass.record.amount = amount::format_cents(*cents);
            pass.record.fill_unreadable();
        }
        Ok(())
    }

    /// Re-reads a bank screen's card row alone, with the page model, when
    /// no step read its last four (a slip's was not measured alone): a
    /// monospaced dotted `0` came back as `90526` after a garbled mask, and
    /// a number under a bare `卡号` as `6200 洒水炒米 沙洲沙洲 219`. The re-read's last four count only where
    /// the page's last digit run for the row ends with them, or is their
    /// last three: a second look at what the page saw, never a new card.
    fn reread_card_row(
        &self,
        gray: &GrayImage,
        page: &OcrPage,
        pass: &mut Recognition,
        photo: bool,
    ) -> Result<(), PaymentsError> {
        if !pass.record.card_last4.is_empty()
            || pass.screen != ScreenType::BankCard
            || pass.contested.contains(&FIELD_CARD_LAST4)
        {
            return Ok(());
        }
        let Some(line) = card_number_row(&page.lines) else {
            return Ok(());
        };
        // From the number on: a label far to its left, read in the same
        // raw line, turned the whole row to noise (`下`).
        let Some(first) = line
            .words
            .iter()
            .position(|(w, _, _)| w.chars().any(|c| c.is_ascii_digit()))
        else {
            return Ok(());
        };
        let number = crate::ocr::Line {
            words: line.words[first..].to_vec(),
            ..line.clone()
        };
        let Some(mut crop) = crop_line(gray, &number, photo) else {
            return Ok(());
        };
        crate::dotted_zero::paint_out_dots(&mut crop);
        for mode in [PageMode::Line, PageMode::Block] {
            let read = self.ocr.recognize(&crop, mode)?.text();
            tracing::debug!(text = %read, ?mode, "card row re-read");
            let found = card::parse_card_field(&read);
            if holds_last4(&line.text, &found.last4) {
                pass.record.card_last4 = found.last4;
                if pass.record.card_number.is_empty() {
                    pass.record.card_number = found.number;
                }
                pass.record.fill_unreadable();
                break;
            }
        }
        Ok(())
    }

    /// Re-reads the date's row alone, with the page model, when the page
    /// read none from it: on a slip's photo `2025年11月28日` came back as
    /// `202542119288` (the ideographs read as digits), alone as it is
    /// printed. The re-read's date is taken only when its digits stand in
    /// that order in the page's reading of the row: a second look at what
    /// the page saw, never a new date.
    fn reread_date(
        &self,
        gray: &GrayImage,
        page: &OcrPage,
        pass: &mut Recognition,
        photo: bool,
    ) -> Result<(), PaymentsError> {
        if !pass.record.date.is_empty() || !shows_detail_rows(pass.screen) {
            return Ok(());
        }
        let Some(line) = page.lines.iter().find(|l| is_date_row(&l.text)) else {
            return self.reread_date_under_label(gray, page, pass, photo);
        };
        let Some(crop) = crop_line(gray, line, photo) else {
            return Ok(());
        };
        for mode in ROW_MODES {
            let read = zeros_for_letters(&self.ocr.recognize(&crop, mode)?.text());
            tracing::debug!(text = %read, ?mode, "date row re-read");
            let Some(found) = date::find_date_time(&read) else {
                continue;
            };
            let printed = printed_date(&read, found.date);
            if printed.is_some_and(|printed| page_holds_date(&digits_of(&line.text), &printed)) {
                pass.record.date = found.date.to_string();
                if pass.record.time.is_empty() {
                    pass.record.time = found.time;
                }
                break;
            }
        }
        Ok(())
    }

    /// Re-reads the row under a bare date label (`DATE/TIME 日期/时间:` over
    /// `2024/08/13 20:28:49`) alone, its dotted zeros painted out, when the
    /// page read no date from it: a printer's bold monospaced `0` has a
    /// dot the page model reads as `8` or `6` (`2624/88/13`). The page's
    /// digits for the row are no check here (they are what went wrong), so
    /// both row modes must read the same date, with as many digits as the
    /// page read on the row: the same glyphs, read again.
    fn reread_date_under_label(
        &self,
        gray: &GrayImage,
        page: &OcrPage,
        pass: &mut Recognition,
        photo: bool,
    ) -> Result<(), PaymentsError> {
        let Some(line) = date_row_under_label(&page.lines) else {
            return Ok(());
        };
        let Some(mut crop) = crop_line(gray, line, photo) else {
            return Ok(());
        };
        crate::dotted_zero::paint_out_dots(&mut crop);
        let page_digits = digits_of(&line.text).len();
        let mut found = Vec::new();
        for mode in ROW_MODES {
            let read = zeros_for_letters(&self.ocr.recognize(&crop, mode)?.text());
            tracing::debug!(text = %read, ?mode, "date row under its label re-read");
            found.push(
                date::find_date_time(&read).filter(|_| digits_of(&read).len() == page_digits),
            );
        }
        if let [Some(first), Some(second)] = found.as_slice()
            && first.date == second.date
        {
            pass.record.date = first.date.to_string();
            if pass.record.time.is_empty() && first.time == second.time {
                pass.record.time.clone_from(&first.time);
            }
        }
        Ok(())
    }

    /// Re-reads the amount's labelled row alone, with the page model, when
    /// the page read no amount from it: a slip's `金额: 22.26 元` came back
    /// as `22.267`. The re-read's amount is taken only when its digits and
    /// the page's for the row are the same but for one more at the end of
    /// either; never where two readers disputed the amount or the page
    /// shows a discount (its labelled amount may be the order's total).
    fn reread_amount_row(
        &self,
        gray: &GrayImage,
        page: &OcrPage,
        pass: &mut Recognition,
        photo: bool,
    ) -> Result<(), PaymentsError> {
        if !pass.record.amount.is_empty()
            || !shows_detail_rows(pass.screen)
            || names_discount(page)
            || pass.contested.contains(&FIELD_AMOUNT)
        {
            return Ok(());
        }
        let slip = pass.screen == ScreenType::PosSlip;
        let found = page
            .lines
            .iter()
            .find(|l| is_unread_amount_row(&l.text))
            .map(|l| (l, None))
            .or_else(|| {
                // A slip whose amount label the page garbled (`#8: 382.55 7%`
                // for `金额：382.55 元`): the re-read must name the amount
                // and read the page's figure.
                page.lines
                    .iter()
                    .filter(|_| slip)
                    .find_map(|l| amount_after_garbled_label(&l.text).map(|c| (l, Some(c))))
            });
        let Some((line, garbled_cents)) = found else {
            return Ok(());
        };
        let crop = match garbled_cents {
            Some(cents) => crop_amount_words(gray, line, cents, photo),
            None => crop_line(gray, line, photo),
        };
        let Some(crop) = crop else {
            return Ok(());
        };
        let page_digits = digits_of(&line.text);
        for mode in ROW_MODES {
            let read = self.ocr.recognize(&crop, mode)?.text();
            tracing::debug!(text = %read, ?mode, "amount row re-read");
            if let Some(cents) = garbled_cents {
                if names_amount(&read)
                    && amount::find_amounts(&read).iter().any(|h| h.cents == cents)
                {
                    pass.record.amount = amount::format_cents(cents);
                    break;
                }
                continue;
            }
            let hit = amount::find_amounts(&read).into_iter().find(|h| {
                let digits = digits_of(&amount::format_cents(h.cents));
                let (short, long) = if digits.len() <= page_digits.len() {
                    (&digits, &page_digits)
                } else {
                    (&page_digits, &digits)
                };
                long.starts_with(short.as_str())
                    && long.len() - short.len() <= 1
                    && short.len() >= 3
            });
            if let Some(h) = hit {
                pass.record.amount = amount::format_cents(h.cents);
                break;
            }
        }
        Ok(())
    }

    /// Re-reads the rows of the amount and of the card number, cropped and
    /// stacked into one small image, with a digits-only model (a photo's
    /// with the photo reader, at their size): a second opinion on the two
    /// fields that matter most. Agreeing confirms a value; disagreeing
    /// empties it (a later pass may read it again, except on a slip); a
    /// card row the page read no last four from takes the re-read's.
    fn reread(
        &self,
        gray: &GrayImage,
        big_lines: &[BigLine],
        page: &OcrPage,
        pass: &mut Recognition,
        photo: bool,
    ) -> Result<(), PaymentsError> {
        // A 支付成功 page shows a card only when paid by one: where its
        // payment method names a bank (`中国工商银行信用卡 (667])`).
        let card_on_success =
            pass.screen == ScreenType::WechatSuccess && !pass.record.card_bank.is_empty();
        let expects_card = (!matches!(
            pass.screen,
            ScreenType::NoPayment | ScreenType::WechatSuccess | ScreenType::Other
        ) || card_on_success)
            && !pass.wallet;
        let slip = pass.screen == ScreenType::PosSlip;
        let last4 = pass.record.card_last4.as_str();
        let card_row = page
            .lines
            .iter()
            .position(|l| {
                is_card_row(&l.text) && (!slip || crate::screens::pos::has_number(&l.text))
            })
            .map(|i| number_under_label(&page.lines, i))
            // A bare label whose number is not the whole line under it
            // (`6200 玉玉水炒 "水玉玉炒 1209`, its stars read as ideographs)
            // is no row to re-read: the line the number was read from is.
            .filter(|l| {
                l.words
                    .iter()
                    .any(|(w, _, _)| crate::ocr::is_number_word(w))
            })
            .or_else(|| {
                // A slip prints the number under its label; a bank app
                // often shows it unlabelled (or the label was misread,
                // `和 6269 +rry xx 3935`): the line it was read from.
                page.lines.iter().find(|l| {
                    let read_from = if slip {
                        crate::screens::pos::card_in_line(&l.text)
                    } else {
                        crate::card::number_line(&l.text).map(|c| c.last4)
                    };
                    !last4.is_empty() && read_from.as_deref() == Some(last4)
                })
            })
            .or_else(|| {
                // A slip's card whose last four the page misread as no
                // digits (`621700******g049`).
                page.lines.iter().find(|l| {
                    slip && last4.is_empty() && crate::screens::pos::masked_card_row(&l.text)
                })
            })
            .filter(|_| expects_card || !pass.record.card_last4.is_empty());
        let cents = pass.record.amount_cents();
        // The page's amount, for the slip amount's reading alone below
        // after the re-read may have contested it.
        let page_amount = pass.record.amount.clone();
        let (amount_row, signs) = cents
            .and_then(|c| amount_row_of(&page.lines, c, slip))
            .unzip();
        let (amount_has_currency, amount_has_plus) = signs.unwrap_or_default();
        let mut crops = Vec::new();
        // Other renderings of a crop, for a second re-read of a disputed
        // value: a big line's shrunk copy beside its original pixels.
        let mut alternates = Vec::new();
        if let Some(line) = amount_row {
            match big_line_of(big_lines, line) {
                Some(big) => {
                    crops.push((FIELD_AMOUNT, big));
                    alternates.extend(crop_numbers(gray, line, photo).map(|c| (FIELD_AMOUNT, c)));
                }
                None => crops.extend(crop_numbers(gray, line, photo).map(|c| (FIELD_AMOUNT, c))),
            }
        }
        if let Some(mut row) = card_row.and_then(|l| crop_numbers(gray, l, photo)) {
            // A monospaced card number's dotted zero reads as `9` (`0394`
            // as `9394`, a slip's `3708` as `3798`); without its dot, as `0`.
            crate::dotted_zero::paint_out_dots(&mut row);
            crops.push((FIELD_CARD_LAST4, row));
        }
        // No card row read on a bank screen (a bare label is none, see
        // above): its card may be a line the page's OCR left out
        // altogether (grey, monospaced, unlabelled, or a bold `6200 ****
        // **** 1342` under a `卡号` the page did read), or one it read as
        // digit groups no card has (see `card::misread_number_line`).
        if card_row.is_none()
            && pass.screen == ScreenType::BankCard
            && pass.record.card_last4.is_empty()
        {
            let missed = card_lines_to_read(gray, page);
            if let Some(found) = self.read_missed_lines(gray, &missed)? {
                pass.record.card_last4 = found.last4;
                pass.record.card_number = found.number;
            }
        }
        // No amount read at all, but a headline the page mangled
        // (`f22.006` for a heavy `¥22.66`, `-034.20` for `-634.20`): a
        // crop read alone often reads.
        let mut headline = None;
        if cents.is_none() && !photo && pass.screen != ScreenType::NoPayment {
            let garbled = page
                .lines
                .iter()
                .find_map(|l| GarbledHeadline::of(&l.text).map(|garbled| (l, garbled)));
            if let Some((line, garbled)) = garbled
                && let Some(crop) =
                    big_line_of(big_lines, line).or_else(|| crop_numbers(gray, line, false))
            {
                crops.push((GARBLED_HEADLINE, crop));
                headline = Some(garbled);
            }
        }
        if crops.is_empty() {
            return Ok(());
        }
        // A screen's card row is read alone: stacked under a much bigger
        // amount, a short row is sometimes dropped, and read in the same
        // block as it, `(8619)` came back as `(3619)` (alone, `(8619)`).
        let alone = |field: &str| field == FIELD_CARD_LAST4 && !photo;
        let together = crops.iter().filter(|(field, _)| !alone(field));
        let mut readings = Vec::new();
        if together.clone().next().is_some() {
            let (stacked, bands) = stack(together);
            // A photo's rows are read again by the photo reader: the Latin
            // digits model alone reads a receipt printer's slashed zero as
            // `8` more often than the page does.
            let reread = if photo {
                self.ocr.recognize_photo(&stacked, PageMode::Block)?
            } else {
                self.ocr.recognize(&stacked, PageMode::Digits)?
            };
            tracing::debug!(text = %reread.text(), "digits re-read");
            readings.extend(
                bands
                    .into_iter()
                    .map(|(f, span)| (f, text_within(&reread, span))),
            );
        }
        for (field, crop) in crops.iter().filter(|(field, _)| alone(field)) {
            let mut text = self.ocr.recognize(crop, PageMode::Digits)?.text();
            // Tesseract reads some rows of big monospaced digits as
            // nothing at all (`6200 **** **** 5008` 40 px high, with or
            // without a label's last glyph before it); at half the size
            // it reads them.
            if text.trim().is_empty() {
                let half = preprocess::downscale(crop, 0.5);
                text = self.ocr.recognize(&half, PageMode::Digits)?.text();
            }
            tracing::debug!(field, %text, "re-read alone");
            readings.push((*field, text));
        }
        // A slip's card row read by the voting readers (see
        // `vote_readings`), once.
        let mut card_readings: Option<[String; 3]> = None;
        // A slip's amount row read by the voting readers, once.
        let mut amount_readings: Option<[String; 3]> = None;
        for (field, text) in readings {
            let r = &mut pass.record;
            if field == GARBLED_HEADLINE {
                // Taken only as a reading of the mangled headline (see
                // `GarbledHeadline::read_as`).
                let hit = amount::find_amounts(&text)
                    .into_iter()
                    .find(|h| h.alone && headline.as_ref().is_some_and(|g| g.read_as(h.cents)));
                if let Some(h) = hit
                    && r.amount.is_empty()
                {
                    r.amount = amount::format_cents(h.cents);
                }
                continue;
            }
            if field == FIELD_AMOUNT {
                // The crop starts at the amount's first digit: on a slip,
                // anything the re-read puts before it is the crop's edge (a
                // stroke of `RMB` read as `|`, which the amount scanner
                // would take for a leading `1`).
                let text = if slip {
                    from_first_digit(&text).to_owned()
                } else {
                    text
                };
                let hits = amount::find_amounts(&text);
                let page_digits = digits_of(&r.amount);
                if hits.is_empty() {
                    // No amount in the re-read (a stray mark after it,
                    // `-161.085`): it has no say unless its digits are
                    // other than the page's (`161085` against `10108`).
                    // Nothing read at all is no confirmation: the second
                    // re-read may name another amount (`-155.00` that the
                    // page read as `-15595.00`).
                    let read = digits_of(&text);
                    // A slip's monospaced point has a glyph's cell, and
                    // the photo reader may read it as one (`13299` for a
                    // bold `13.99`): that says nothing either.
                    let point_as_glyph = slip && point_read_as_digit(&read, &r.amount);
                    let other_digits =
                        !read.is_empty() && !read.contains(&page_digits) && !point_as_glyph;
                    let nothing = read.is_empty()
                        && self.second_read_disputes(&crops, &alternates, photo, cents)?;
                    // On a slip the stacked re-read may be a smudge
                    // (`o2 at` for `92.11`): two of the other readings
                    // (see `settle`) reading the page's amount vouch for it.
                    let vouched = match crop_of(&crops, FIELD_AMOUNT) {
                        Some(crop) if slip && photo && other_digits && !r.amount.is_empty() => {
                            let readings = self.vote_readings(crop)?;
                            let settled = settle(&readings, [&r.amount, ""], amounts_on_slip);
                            amount_readings = Some(readings);
                            settled.is_some()
                        }
                        _ => false,
                    };
                    if (other_digits || nothing) && !vouched {
                        r.amount.clear();
                        pass.tentative.retain(|f| *f != field);
                    }
                    continue;
                }
                // A currency sign outside the whitelist comes back as a
                // digit in front (`¥811.86` as `4811.86`): the page's digits
                // ending the re-read still agree. Only where the page saw a
                // currency sign: after a bare minus, an extra digit in front
                // is one the page dropped (`-630.59` read as `-30.59`).
                // Likewise a heavy `+` the page read as a sign (`+2,352.51`
                // re-read `42,352.51`), when its shape is a plus.
                let mut agrees = hits.iter().any(|h| Some(h.cents) == cents)
                    || (amount_has_currency
                        && !page_digits.is_empty()
                        && digits_of(&text).ends_with(&page_digits))
                    || (amount_has_plus
                        && !page_digits.is_empty()
                        && digits_of(&text) == format!("4{page_digits}")
                        && crop_of(&crops, FIELD_AMOUNT)
                            .is_some_and(crate::plus_sign::leads_with_plus));
                // The one other amount the re-read names, and whether the
                // second re-read names it too.
                let challenger = match hits.as_slice() {
                    [h] if Some(h.cents) != cents => Some(h.cents),
                    _ => None,
                };
                let mut challenger_seconded = false;
                // Before the page's amount is dropped, a second re-read
                // (see `second_read_agrees`).
                if !agrees {
                    agrees =
                        self.second_read_agrees(&crops, &alternates, FIELD_AMOUNT, photo, |t| {
                            let hits = amount::find_amounts(t);
                            challenger_seconded |=
                                challenger.is_some_and(|c| hits.iter().any(|h| h.cents == c));
                            hits.iter().any(|h| Some(h.cents) == cents)
                        })?;
                }
                let restored = match (amount_row, cents) {
                    (Some(row), Some(c)) if !agrees => restored_first_digit(&row.text, c, &hits),
                    _ => None,
                };
                // A slip's glyph read two ways (`477.72` against `471.72`):
                // the same number of digits, one of them read otherwise.
                let rival = hits
                    .iter()
                    .map(|h| amount::format_cents(h.cents))
                    .find(|v| digits_of(v).len() == page_digits.len());
                let voted = match (rival, crop_of(&crops, FIELD_AMOUNT)) {
                    (Some(rival), Some(crop)) if slip && photo && !agrees && restored.is_none() => {
                        let readings = self.vote_readings(crop)?;
                        let settled = settle(&readings, [&r.amount, &rival], amounts_on_slip);
                        amount_readings = Some(readings);
                        settled
                    }
                    _ => None,
                };
                if slip && photo && restored.is_none() && (agrees || voted.is_some()) {
                    let value = voted.clone().unwrap_or_else(|| r.amount.clone());
                    pass.confirmed.push((FIELD_AMOUNT, value));
                }
                if let Some(whole) = restored {
                    r.amount = amount::format_cents(whole);
                } else if let Some(value) = voted {
                    r.amount = value;
                } else if let Some(c) = challenger.filter(|c| {
                    !agrees
                        && challenger_seconded
                        && !pass.not_paid.contains(&c.abs())
                        && (!amount_has_currency || !starts_with_digit(&text))
                }) {
                    // A screen's amount the page misread (`6089.94` for
                    // `¥689.94`, `32.01` for `-32.61`) that both re-reads
                    // read alike is taken from them. Where the page saw a
                    // currency sign, only when the re-read shows something
                    // before the digits: else the sign may be its first
                    // digit (`95.10` for `¥55.10`). Both re-reads share the
                    // digits model, which read a light `7` as `1` (`-705.00`
                    // as `-105.00`, and so did the photo reader): against a
                    // rival as long as the page's amount, the page model
                    // reading the crop alone as one line as the page did
                    // upholds the page. Not against a longer one: the page
                    // model drops a first digit alike (`57.59` for `157.59`).
                    let rival = amount::format_cents(c);
                    let same_length = digits_of(&rival).len() == page_digits.len();
                    if !(same_length && self.page_model_line_reads(&crops, cents)?) {
                        r.amount = rival;
                    }
                } else if !agrees {
                    r.amount.clear();
                    if slip {
                        pass.contested.push(FIELD_AMOUNT);
                    }
                }
            } else {
                let t = text.trim();
                let seen = card_last4_of(t);
                // A slip's entry mode after the number comes back as a
                // digit (`621700******12341` for `…1234 (I)`): the four
                // digits after the mask.
                let seen = if seen.is_empty() && slip {
                    crate::screens::pos::digits_after_mask(t).unwrap_or_default()
                } else {
                    seen
                };
                // Six digits or more after a slip's mask (`****443352` for
                // `******3352`): stars read as digits, so which four are
                // the card's is unknown. Such a reading has no say.
                let seen = if slip && overlong_tail(t) {
                    String::new()
                } else {
                    seen
                };
                // No last four in the re-read, but four digits that are not
                // the page's (`-6633` against the page's `5633`: the bracket
                // read as a dash) dispute it all the same. Only four: a
                // bank's long card number re-read with a digit lost does
                // not.
                // Nor does a mask then three digits, the page's last three
                // (`********225` against the page's `9225`): the re-read
                // lost the first of the four, which the page may have
                // misread (a dotted `0` as `9`); it is asked once more.
                let digits = digits_of(t);
                let lost_first =
                    three_after_mask(t).is_some_and(|three| r.card_last4.ends_with(three));
                // A screen's masked number re-read with its stars dropped
                // (`62002462` for `6200 **** **** 2462`): the four after
                // the group the page read first are a last four; so are
                // the last four of five digits where the page shows four
                // in brackets (`56246` for `(6246)`).
                let seen = match card_row {
                    Some(row) if seen.is_empty() && !photo => mask_dropped(&row.text, t)
                        .or_else(|| bracket_read_as_digit(&row.text, t))
                        .unwrap_or_default(),
                    _ => seen,
                };
                let disputes = !photo
                    && !r.card_last4.is_empty()
                    && ((digits.len() == 4 && digits != r.card_last4)
                        || lost_first
                        || (seen.len() == 4 && seen != r.card_last4));
                // No card read by the page, whose row ends in four glyphs,
                // all but one of them digits (`(667])`), and a re-read of
                // four digits that agree with them (`-6671`, the bracket
                // read as a dash): the re-read fills in the glyph the page
                // misread.
                let seen = match card_row {
                    Some(row)
                        if seen.is_empty()
                            && !photo
                            && r.card_last4.is_empty()
                            && fills_misread_glyph(&row.text, &digits) =>
                    {
                        digits.clone()
                    }
                    _ => seen,
                };
                if seen.is_empty() && !disputes {
                    continue;
                }
                if slip && photo && r.card_last4 == seen {
                    pass.confirmed.push((FIELD_CARD_LAST4, seen.clone()));
                }
                // The page read four digits ending the row, but no card
                // (its mask garbled, `620g ##k 光 水水 k 半 4228`): a
                // re-read naming four others (`4728`) is asked once more,
                // and the value it names is taken, else none.
                let page_tail = card_row
                    .and_then(|l| l.text.split_whitespace().last())
                    .filter(|t| t.len() == 4 && t.chars().all(|c| c.is_ascii_digit()))
                    .filter(|t| !photo && r.card_last4.is_empty() && *t != seen);
                if let Some(tail) = page_tail {
                    let mut named = String::new();
                    self.second_read_agrees(&crops, &alternates, FIELD_CARD_LAST4, photo, |t| {
                        named = card_last4_of(t.trim());
                        named == seen || named == tail
                    })?;
                    if named == seen || named == tail {
                        r.card_last4 = named;
                    }
                } else if r.card_last4.is_empty() {
                    r.card_last4 = seen;
                } else if r.card_last4 != seen
                    && !self.second_read_agrees(
                        &crops,
                        &alternates,
                        FIELD_CARD_LAST4,
                        photo,
                        |t| card_last4_of(t.trim()) == r.card_last4,
                    )?
                {
                    let voted = match crop_of(&crops, FIELD_CARD_LAST4) {
                        Some(crop) if slip && photo && seen.len() == 4 => {
                            let readings = self.vote_readings(crop)?;
                            let settled = settle(&readings, [&r.card_last4, &seen], last4_on_slip);
                            card_readings = Some(readings);
                            settled
                        }
                        _ => None,
                    };
                    if let Some(value) = voted {
                        if !r.card_number.ends_with(&value) {
                            r.card_number.clear();
                        }
                        pass.confirmed.push((FIELD_CARD_LAST4, value.clone()));
                        r.card_last4 = value;
                    } else {
                        r.card_last4.clear();
                        r.card_number.clear();
                        if slip {
                            pass.contested.push(FIELD_CARD_LAST4);
                        }
                    }
                }
            }
            pass.tentative.retain(|f| *f != field);
        }
        // A slip's last four that the page and the stacked re-read agree
        // on may still be a misreading both made alike (`9809` for
        // `0809`: the stacked crop is read by the page's model): the
        // voting readers and the digits model reading it alone, two reading
        // another same value, and fewer this one, leave it empty; three
        // reading another and none this one replace it (see
        // `recount_last4`).
        let mut card_row_fours: Vec<String> = Vec::new();
        if slip
            && photo
            && !pass.record.card_last4.is_empty()
            && let Some(crop) = crop_of(&crops, FIELD_CARD_LAST4)
        {
            let readings = self.recount_readings(crop, card_readings)?;
            card_row_fours = readings.iter().flat_map(|t| last4_on_slip(t)).collect();
            match recount_last4(
                &readings.each_ref().map(String::as_str),
                &pass.record.card_last4,
            ) {
                Recount::Stands => {}
                Recount::Doubtful => {
                    pass.record.card_last4.clear();
                    pass.record.card_number.clear();
                    pass.contested.push(FIELD_CARD_LAST4);
                    pass.confirmed
                        .retain(|(field, _)| *field != FIELD_CARD_LAST4);
                }
                Recount::Replaced(value) => {
                    pass.record.card_number.clear();
                    pass.confirmed
                        .retain(|(field, _)| *field != FIELD_CARD_LAST4);
                    pass.confirmed.push((FIELD_CARD_LAST4, value.clone()));
                    pass.record.card_last4 = value;
                }
            }
        }
        // The last glyphs of a slip's card number read alone (see
        // `slip_tail`) have the last word on its last four.
        if slip
            && photo
            && let Some(crop) = card_row.and_then(|l| crate::slip_tail::last_four_crop(gray, l))
            && let Some(value) = self.read_slip_tail(&crop, &card_row_fours, &pass.record.file)?
            && value != pass.record.card_last4
        {
            if !pass.record.card_number.ends_with(&value) {
                pass.record.card_number.clear();
            }
            pass.settle(FIELD_CARD_LAST4, &value);
            pass.record.card_last4 = value;
        }
        // A slip amount's word read alone by all four readers as one other
        // amount replaces the page's (see `read_slip_amount`); read as the
        // page's by the raw line and two more, and as no other, it confirms
        // the page's, and restores it where the re-read contested it (a
        // stroke before the crop read as a `1`, `1157.95`; a tilted
        // photo's crop that caught the date row above).
        let contested_amount =
            pass.record.amount.is_empty() && pass.contested.contains(&FIELD_AMOUNT);
        let alone_amount = if contested_amount {
            page_amount
        } else {
            pass.record.amount.clone()
        };
        if slip
            && photo
            && !alone_amount.is_empty()
            && let Some(line) = amount_row
            && let Some(crop) = crate::slip_tail::amount_crop(gray, line, &digits_of(&alone_amount))
        {
            let (raw_line, others) = self.read_slip_amount(&crop, &pass.record.file)?;
            if let Some(value) = unanimous_amount(raw_line.as_deref(), &others)
                && value != alone_amount
                && !contested_amount
            {
                pass.settle(FIELD_AMOUNT, &value);
                pass.record.amount = value;
            } else if confirms_amount(raw_line.as_deref(), &others, &alone_amount) {
                pass.confirmed.push((FIELD_AMOUNT, alone_amount.clone()));
                pass.record.amount = alone_amount;
            }
        }
        // Likewise a slip's amount: the page and the stacked re-read
        // (read by the photo reader) may misread a glyph alike, a `¥` as a
        // leading `4` (see `recount_amount`).
        if slip
            && photo
            && !pass.record.amount.is_empty()
            && let Some(crop) = crop_of(&crops, FIELD_AMOUNT)
        {
            let readings = self.recount_readings(crop, amount_readings)?;
            match recount_amount(
                &readings.each_ref().map(String::as_str),
                &pass.record.amount,
            ) {
                Recount::Stands => {}
                Recount::Doubtful => {
                    pass.record.amount.clear();
                    pass.contested.push(FIELD_AMOUNT);
                    pass.confirmed.retain(|(field, _)| *field != FIELD_AMOUNT);
                }
                Recount::Replaced(value) => {
                    pass.confirmed.retain(|(field, _)| *field != FIELD_AMOUNT);
                    pass.confirmed.push((FIELD_AMOUNT, value.clone()));
                    pass.record.amount = value;
                }
            }
        }
        // A heavy `+` in front of a refund's amount reads as `4` to the
        // page and the re-read alike (`42,352.51` for `+2,352.51`): where
        // no sign was read, the first glyph's shape decides.
        let unsigned_four = pass.record.amount.starts_with('4')
            && amount_row.is_none_or(|row| {
                amount::find_amounts(&row.text)
                    .iter()
                    .all(|h| h.sign == amount::Sign::None && !h.currency)
            });
        let amount_crop =
            crop_of(&crops, FIELD_AMOUNT).or_else(|| crop_of(&crops, GARBLED_HEADLINE));
        if !photo
            && unsigned_four
            && let Some(crop) = amount_crop
            && let Some(rest) = pass.record.amount.get(1..)
            && let Some(cents) = amount::parse_plain(rest)
            && crate::plus_sign::leads_with_plus(crop)
        {
            pass.record.amount = amount::format_cents(cents);
        }
        pass.record.fill_unreadable();
        Ok(())
    }
}

impl<O: Ocr> Recognizer<O> {
    /// The card number among lines the page's OCR left out, read word by
    /// word: each line cut at its blank gaps, every word on a row of its
    /// own, all in one image read with the page's model. Tesseract drops a
    /// whole line of `6200 **** **** 5207` in a monospaced font, but reads
    /// its words one by one.
    fn read_missed_lines(
        &self,
        gray: &GrayImage,
        missed: &[bands::Band],
    ) -> Result<Option<card::CardInfo>, PaymentsError> {
        let mut words = Vec::new();
        let mut owners = Vec::new();
        for (i, band) in missed.iter().enumerate() {
            let gap = (band.height() / 2).max(4);
            for (left, right) in bands::column_segments(gray, band, gap) {
                let word = bands::Band {
                    left,
                    right,
                    ..*band
                };
                if let Some(crop) = crop_band(gray, &word) {
                    words.push((MISSED_LINE, crop));
                    owners.push(i);
                }
            }
        }
        if words.is_empty() {
            return Ok(None);
        }
        let (stacked, placements) = stack(words.iter());
        let lines_as = |read: &OcrPage| {
            let mut texts = vec![Vec::new(); missed.len()];
            for (owner, (_, span)) in owners.iter().zip(&placements) {
                texts[*owner].push(text_within(read, *span));
            }
            texts
                .into_iter()
                .map(|words| words.join(" "))
                .collect::<Vec<_>>()
        };
        let page_model = lines_as(&self.ocr.recognize(&stacked, PageMode::Block)?);
        tracing::debug!(?page_model, "left-out lines read word by word");
        let Some((line, found)) = page_model.iter().enumerate().find_map(|(i, line)| {
            // A labelled line (`卡号 6200 kt 0295`) is read as a card
            // field; an unlabelled one must look like a card number.
            let found = if is_card_row(line) {
                Some(card::parse_card_field(line)).filter(|c| !c.last4.is_empty())
            } else {
                card::number_line(line)
            };
            found.map(|f| (i, f))
        }) else {
            return Ok(None);
        };
        // Nothing else vouches for this line: the digits model must end
        // it with the same four digits (at 720 px the page's model reads
        // `1540` as `1549`; the digits model reads the stars as `2`, so
        // only its last group is compared), or read the same full number
        // (whose last group may be shorter, `6200 0000 0000 0009 480`).
        let digits_model = lines_as(&self.ocr.recognize(&stacked, PageMode::Digits)?);
        let confirmed = digits_model.get(line).is_some_and(|t| {
            t.split_whitespace().last() == Some(found.last4.as_str())
                || (!found.number.is_empty() && digits_of(t) == found.number)
        });
        Ok(confirmed.then_some(found))
    }

    /// A slip's crop read by three more readers, which vote on a disputed
    /// field (see `settle`): the photo reader on the crop made larger and
    /// smaller, and the page's model. The stacked re-read shares the photo
    /// reader's model and often its misreadings; these read otherwise.
    fn vote_readings(&self, crop: &GrayImage) -> Result<[String; 3], PaymentsError> {
        let larger = image::imageops::resize(
            crop,
            crop.width() * 3 / 2,
            crop.height() * 3 / 2,
            image::imageops::FilterType::Triangle,
        );
        let smaller = preprocess::downscale(crop, SLIP_SMALLER_SCALE);
        let readings = [
            self.ocr.recognize_photo(&larger, PageMode::Block)?.text(),
            self.ocr.recognize_photo(&smaller, PageMode::Block)?.text(),
            self.ocr.recognize(crop, PageMode::Block)?.text(),
        ];
        tracing::debug!(?readings, "slip crop read by the voting readers");
        Ok(readings)
    }

    /// The last four that the last glyphs of a slip's card number, cut out
    /// alone (see [`crate::slip_tail`]), read as: the photo reader reading
    /// them as one raw line, and one more reader of them or of the whole
    /// card row (`card_row_fours`, the recount's last fours), must agree; or, where the
    /// raw line reads nothing, the photo reader's block, the page model and
    /// the digits model all three. On 208 tuning-set slips (410 readings,
    /// as rendered and at 720 px) the raw line read no wrong last four (and
    /// 21 times none); the others did, two of them alike (`5992` for
    /// `3992`).
    fn read_slip_tail(
        &self,
        crop: &GrayImage,
        card_row_fours: &[String],
        file: &str,
    ) -> Result<Option<String>, PaymentsError> {
        let (raw_line, others) = self.read_alone(crop)?;
        let (raw_line, others) = (tail_digits(&raw_line), others.map(|t| tail_digits(&t)));
        tracing::debug!(
            file,
            ?raw_line,
            ?others,
            ?card_row_fours,
            "slip card number's last glyphs read alone"
        );
        Ok(agreed_tail(raw_line, others, card_row_fours))
    }

    /// The amount that a slip amount's word, cut out alone (see
    /// [`crate::slip_tail::amount_crop`]), reads as to all four readers
    /// alike: the photo reader as one raw line and as a block, the page
    /// model and the digits model. The stacked re-read and the voting
    /// readers may misread a small glyph alike (a 720 px `¥8.00` as
    /// `3.00` twice in three); alone and enlarged it reads right. On 208
    /// tuning-set slips (462 readings, as rendered and at 720 px) no
    /// amount right before was outvoted by all four (see
    /// [`unanimous_amount`]).
    fn read_slip_amount(
        &self,
        crop: &GrayImage,
        file: &str,
    ) -> Result<(Option<String>, [Option<String>; 3]), PaymentsError> {
        let read = |text: &str| {
            amount::find_amounts(from_first_digit(text))
                .first()
                .map(|h| amount::format_cents(h.cents))
        };
        let (raw_line, others) = self.read_alone(crop)?;
        let (raw_line, others) = (read(&raw_line), others.map(|t| read(&t)));
        tracing::debug!(file, ?raw_line, ?others, "slip amount read alone");
        Ok((raw_line, others))
    }

    /// A slip's glyphs cut out alone (see [`crate::slip_tail`]) read by
    /// four readers: the photo reader as one raw line, then the photo
    /// reader's block, the page model and the digits model.
    fn read_alone(&self, crop: &GrayImage) -> Result<(String, [String; 3]), PaymentsError> {
        let raw_line = self.ocr.recognize_photo(crop, PageMode::Line)?.text();
        let others = [
            self.ocr.recognize_photo(crop, PageMode::Block)?.text(),
            self.ocr.recognize(crop, PageMode::Block)?.text(),
            self.ocr.recognize(crop, PageMode::Digits)?.text(),
        ];
        Ok((raw_line, others))
    }

    /// A slip crop's four other readings, for a recount: the voting
    /// readers' (`votes` when a dispute already asked them) and the digits
    /// model's.
    fn recount_readings(
        &self,
        crop: &GrayImage,
        votes: Option<[String; 3]>,
    ) -> Result<[String; 4], PaymentsError> {
        let [larger, smaller, page_model] = match votes {
            Some(readings) => readings,
            None => self.vote_readings(crop)?,
        };
        let digits = self.ocr.recognize(crop, PageMode::Digits)?.text();
        Ok([larger, smaller, page_model, digits])
    }

    /// Whether the page model reads the amount's crop alone, as one raw
    /// line, as the amount `cents` (see the challenger in `reread`).
    fn page_model_line_reads(
        &self,
        crops: &[(&'static str, GrayImage)],
        cents: Option<i64>,
    ) -> Result<bool, PaymentsError> {
        let (Some(crop), Some(cents)) = (crop_of(crops, FIELD_AMOUNT), cents) else {
            return Ok(false);
        };
        let text = self.ocr.recognize(crop, PageMode::Line)?.text();
        tracing::debug!(%text, "amount crop read alone as one line by the page model");
        Ok(amount::find_amounts(&text).iter().any(|h| h.cents == cents))
    }

    /// Whether the second re-read of an amount (see
    /// [`Self::second_read_agrees`]) reads other digits than the page's
    /// and never the page's amount.
    fn second_read_disputes(
        &self,
        crops: &[(&'static str, GrayImage)],
        alternates: &[(&'static str, GrayImage)],
        photo: bool,
        page: Option<i64>,
    ) -> Result<bool, PaymentsError> {
        let page_digits = page.map(|c| c.abs().to_string()).unwrap_or_default();
        let mut other = false;
        let agrees = self.second_read_agrees(crops, alternates, FIELD_AMOUNT, photo, |t| {
            let hits = amount::find_amounts(t);
            let digits = digits_of(t);
            other |= hits.iter().any(|h| Some(h.cents) != page)
                || (!digits.is_empty() && !digits.contains(&page_digits));
            hits.iter().any(|h| Some(h.cents) == page)
        })?;
        Ok(other && !agrees)
    }

    /// Whether a screen's crop of `field`, read once more, says what the
    /// page said: heavy digits read differently at slightly different
    /// sizes and resamplings (`¥730.97` as `130.97` in one, right in the
    /// next), so a disputed value gets a second re-read, of the other
    /// renderings of its crop and of the crop made smaller, before it is
    /// dropped. Only agreement counts. A slip's disputes stand (a slashed
    /// zero reads as `8` at any size).
    fn second_read_agrees(
        &self,
        crops: &[(&'static str, GrayImage)],
        alternates: &[(&'static str, GrayImage)],
        field: &str,
        photo: bool,
        mut agrees: impl FnMut(&str) -> bool,
    ) -> Result<bool, PaymentsError> {
        if photo {
            return Ok(false);
        }
        let smaller = crops
            .iter()
            .filter(|(f, _)| *f == field)
            .map(|(_, crop)| preprocess::downscale(crop, SECOND_READ_SCALE));
        let others = alternates
            .iter()
            .filter(|(f, _)| *f == field)
            .map(|(_, crop)| crop.clone());
        for image in others.chain(smaller) {
            if agrees(&self.ocr.recognize(&image, PageMode::Digits)?.text()) {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// Settles a slip's field the page and the photo re-read read two ways
/// (`0335` against `9335`) by [`Recognizer::vote_readings`]:
/// a value at least two of them read, and more than read the other, is
/// taken; else neither. Only the two values in dispute can win, and a split
/// vote settles nothing (on a night photo the page's wrong `3932` and the
/// re-read's `8032` had one reading each).
fn settle(
    readings: &[String; 3],
    [page, reread]: [&str; 2],
    values_in: fn(&str) -> Vec<String>,
) -> Option<String> {
    let votes = |value: &str| {
        readings
            .iter()
            .filter(|t| values_in(t).iter().any(|v| v == value))
            .count()
    };
    let (for_page, for_reread) = (votes(page), votes(reread));
    if for_page >= 2 && for_page > for_reread {
        Some(page.to_owned())
    } else if for_reread >= 2 && for_reread > for_page {
        Some(reread.to_owned())
    } else {
        None
    }
}

/// How a slip crop's other readings count for `value`: how many read it,
/// and the other value most of them read, with its count.
struct Tally {
    for_value: usize,
    leader: Option<(String, usize)>,
}

impl Tally {
    fn of(readings: &[&str], value: &str, values_in: fn(&str) -> Vec<String>) -> Self {
        let mut others: Vec<(String, usize)> = Vec::new();
        let mut for_value = 0;
        for v in readings
            .iter()
            .filter_map(|t| values_in(t).into_iter().next())
        {
            if v == value {
                for_value += 1;
            } else if let Some(seen) = others.iter_mut().find(|(o, _)| *o == v) {
                seen.1 += 1;
            } else {
                others.push((v, 1));
            }
        }
        // The first of equals: a tie between two other values leads nowhere
        // the rules below go (each needs two or three alike).
        let leader = others
            .into_iter()
            .fold(None, |best: Option<(String, usize)>, (v, n)| match best {
                Some((_, m)) if m >= n => best,
                _ => Some((v, n)),
            });
        Self { for_value, leader }
    }
}

/// Whether at least two of a slip crop's other readings agree on one value
/// other than `value`, and fewer read `value`.
fn outvoted(readings: &[&str], value: &str, values_in: fn(&str) -> Vec<String>) -> bool {
    let tally = Tally::of(readings, value, values_in);
    tally
        .leader
        .is_some_and(|(_, n)| n >= 2 && n > tally.for_value)
}

/// What a slip's amount comes to when none of its crop's other readings
/// (the voting readers and the digits model) reads it: three of them
/// reading one other amount replace it (`¥3,381.23` read `43381.23` by
/// the page and the stacked re-read alike, `3,381.23` by all four), two
/// leave it in doubt. One reading of it keeps it: the photo reader's two
/// readings share a model and its misreadings (`5291.49` twice, against
/// the digits model's right `3291.49`).
fn recount_amount(readings: &[&str], value: &str) -> Recount {
    match Tally::of(readings, value, amounts_on_slip) {
        Tally {
            for_value: 0,
            leader: Some((other, n)),
        } if n >= 3 => Recount::Replaced(other),
        Tally {
            for_value: 0,
            leader: Some((_, 2)),
        } => Recount::Doubtful,
        _ => Recount::Stands,
    }
}

/// What a slip's last four come to under its crop's other readings: three
/// reading one other value and none this one replace it (ao's `9812`, the
/// page's misreading of a dot-matrix `0012` that every voting reader read
/// `0012`), as with [`recount_amount`]; outvoted (see [`outvoted`]), it is
/// in doubt.
fn recount_last4(readings: &[&str], value: &str) -> Recount {
    match Tally::of(readings, value, last4_on_slip) {
        Tally {
            for_value: 0,
            leader: Some((other, n)),
        } if n >= 3 => Recount::Replaced(other),
        _ if outvoted(readings, value, last4_on_slip) => Recount::Doubtful,
        _ => Recount::Stands,
    }
}

/// The outcome of [`recount_amount`] and [`recount_last4`].
#[derive(Debug, PartialEq, Eq)]
enum Recount {
    Stands,
    Doubtful,
    Replaced(String),
}

/// The first of a field's crops.
fn crop_of<'a>(crops: &'a [(&'static str, GrayImage)], field: &str) -> Option<&'a GrayImage> {
    crops
        .iter()
        .find(|(f, _)| *f == field)
        .map(|(_, crop)| crop)
}

/// `text` from its first digit on (all of it without one).
fn from_first_digit(text: &str) -> &str {
    text.find(|c: char| c.is_ascii_digit())
        .map_or(text, |start| &text[start..])
}

/// Whether `read` (a re-read's digits) is `amount` (`13.99`) with its
/// point read as one digit: `13299`.
fn point_read_as_digit(read: &str, amount: &str) -> bool {
    let Some((whole, cents)) = amount.trim_start_matches('-').split_once('.') else {
        return false;
    };
    read.len() == whole.len() + 1 + cents.len() && read.starts_with(whole) && read.ends_with(cents)
}

/// The amounts a slip's re-read amount row shows, from its first digit on
/// (see the amount re-read in `reread`).
fn amounts_on_slip(text: &str) -> Vec<String> {
    amount::find_amounts(from_first_digit(text))
        .iter()
        .map(|h| amount::format_cents(h.cents))
        .collect()
}

/// The last four a slip's re-read card row shows: four digits in brackets,
/// else the four right after the last mask character. The readers turn
/// stars into letters or quotes (`621700****wx0809`, `621700" 6146`,
/// dot-matrix stars `621700er0012`), zeros
/// into `O` or `@`, and the entry mode `(I)` into a `1` after the number
/// (`621700******08091`).
fn last4_on_slip(text: &str) -> Vec<String> {
    if let Some(four) = bracketed_four(text) {
        return vec![four];
    }
    // Line by line: a crop may catch the next line too, whose `TXN TYPE`
    // holds mask-like letters.
    text.lines()
        .find_map(|line| {
            let compact = crate::text::compact(line);
            let tail = after_last_mask(&compact, is_slip_mask)?;
            // The last star read as a digit before the entry mode's bracket
            // (`621700******71902(IC)`): the four before the bracket.
            let run = tail.chars().take_while(char::is_ascii_digit).count();
            let tail = if run == 5 && tail[run..].starts_with(['(', '（']) {
                &tail[1..]
            } else {
                tail
            };
            // A zero read as a letter right after the mask (`#O411`, `@732`).
            let four: String = tail
                .chars()
                .take(4)
                .map(|c| if matches!(c, 'O' | 'o' | '@') { '0' } else { c })
                .collect();
            (four.len() == 4 && four.chars().all(|c| c.is_ascii_digit())).then_some(four)
        })
        .into_iter()
        .collect()
}

/// The amount four readings of a slip amount read alone name alike, if
/// they do. Fewer are not enough: on the tuning slips three of the four
/// outvoted a right amount once (`3291.49` read `5291.49`), two once
/// more (`140.00` read `148.00`).
fn unanimous_amount(raw_line: Option<&str>, others: &[Option<String>; 3]) -> Option<String> {
    raw_line
        .filter(|value| others.iter().all(|o| o.as_deref() == Some(*value)))
        .map(str::to_owned)
}

/// Whether four readings of a slip amount read alone confirm `page`, the
/// page's amount: the raw line and at least two others read it, and none
/// reads another.
fn confirms_amount(raw_line: Option<&str>, others: &[Option<String>; 3], page: &str) -> bool {
    let alike = others.iter().filter(|o| o.as_deref() == Some(page)).count();
    raw_line == Some(page)
        && alike >= 2
        && others
            .iter()
            .all(|o| o.as_deref().is_none_or(|v| v == page))
}

/// What the readings of a slip card number's last glyphs agree on (see
/// [`Recognizer::read_slip_tail`]): the raw line's four digits and one
/// other reading ending with them (after four digits, or five: the star
/// read as a digit, `45751`) or one reading of the whole card row naming
/// them (at's 720 px `5751`, read `5757` by the page, whose tail the
/// others read as `751` or nothing), or, where the raw line read no four,
/// all three others four digits alike.
fn agreed_tail(raw_line: String, others: [String; 3], card_row_fours: &[String]) -> Option<String> {
    if raw_line.len() == 4 {
        let seconded = others
            .iter()
            .any(|o| (o.len() == 4 || o.len() == 5) && o.ends_with(&raw_line))
            || card_row_fours.contains(&raw_line);
        return seconded.then_some(raw_line);
    }
    match others {
        [a, b, c] if a.len() == 4 && a == b && b == c => Some(a),
        _ => None,
    }
}

/// The digits ending a reading of a card number's last glyphs (`9462` of
/// `*9462`, `(5751` or `院 5751`), past closing brackets and blanks.
fn tail_digits(text: &str) -> String {
    card::trailing_digits(text.trim().trim_end_matches([')', '）', ' '])).to_owned()
}

/// The last four a re-read card row shows: the crop may hold just the four
/// digits (`(1234)` without its brackets, which the whitelist drops), else
/// a card field.
fn card_last4_of(text: &str) -> String {
    bracketed_four(text).unwrap_or_else(|| card::parse_card_field(text.trim()).last4)
}

/// A mask character as the slip readers render it: a star, or a letter
/// or quote they make of one.
fn is_slip_mask(c: char) -> bool {
    card::is_mask(c) || matches!(c, 'w' | 'W' | 'k' | 'K' | 'y' | 'e' | 'r' | '%' | '°' | '"')
}

/// What follows the last mask character of a reading (`is_mask`: a
/// screen's stars, or a slip's as its readers render them).
fn after_last_mask(text: &str, is_mask: fn(char) -> bool) -> Option<&str> {
    let (at, mask) = text.char_indices().rfind(|(_, c)| is_mask(*c))?;
    Some(&text[at + mask.len_utf8()..])
}

/// Whether a page's card row ends in four glyphs (in brackets or not),
/// three of them the digits of `four` in place and the other no digit
/// (`(667])` for `6671`).
fn fills_misread_glyph(page_line: &str, four: &str) -> bool {
    let Some(last) = page_line.split_whitespace().last() else {
        return false;
    };
    let glyphs: Vec<char> = last
        .trim_start_matches(['(', '（'])
        .trim_end_matches([')', '）'])
        .chars()
        .collect();
    let mut misread = 0;
    four.len() == 4
        && four.chars().all(|c| c.is_ascii_digit())
        && glyphs.len() == 4
        && glyphs.iter().zip(four.chars()).all(|(&page, digit)| {
            if page == digit {
                true
            } else {
                misread += 1;
                !page.is_ascii_digit()
            }
        })
        && misread == 1
}

/// The last four of a masked card number that a re-read gave with its
/// mask dropped (`62002462` for the page's `6200 站六炒米沙沙阔米 2402`):
/// the re-read's digits are the page row's first group (of four or six)
/// and four more, where the page shows something other than digits after
/// that group.
fn mask_dropped(page_line: &str, read: &str) -> Option<String> {
    let start = page_line.find(|c: char| c.is_ascii_digit())?;
    let group: String = page_line[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let masked = page_line[start + group.len()..]
        .chars()
        .any(|c| !c.is_ascii_digit() && !c.is_whitespace());
    let digits = digits_of(read);
    (matches!(group.len(), 4 | 6)
        && masked
        && digits.len() == group.len() + 4
        && digits.starts_with(&group))
    .then(|| digits[group.len()..].to_owned())
}

/// The last four of a re-read that read a card's opening bracket as a
/// digit (`56246` for `(6246)`): five digits and nothing else, where the
/// page's row shows four glyphs in brackets.
fn bracket_read_as_digit(page_line: &str, read: &str) -> Option<String> {
    let t = read.trim();
    let bracketed = page_line.split(['(', '（']).skip(1).any(|after| {
        after
            .split([')', '）'])
            .next()
            .is_some_and(|inside| inside.chars().count() == 4 && after.contains([')', '）']))
    });
    (bracketed && t.len() == 5 && t.chars().all(|c| c.is_ascii_digit())).then(|| t[1..].to_owned())
}

/// The three digits ending a reading right after its mask (`6200********225`).
fn three_after_mask(text: &str) -> Option<&str> {
    // A dash read between them (`********-225`).
    let tail = after_last_mask(text.trim_end(), card::is_mask)?.trim_start_matches(['-', '_', ' ']);
    (tail.len() == 3 && tail.chars().all(|c| c.is_ascii_digit())).then_some(tail)
}

/// Whether six digits or more follow a slip reading's last mask character:
/// more than the last four and an entry mode read as a digit.
fn overlong_tail(text: &str) -> bool {
    text.lines().any(|line| {
        after_last_mask(&crate::text::compact(line), is_slip_mask)
            .is_some_and(|tail| tail.chars().take_while(char::is_ascii_digit).count() >= 6)
    })
}

/// Whether a reading's first character, past blanks, is a digit.
fn starts_with_digit(text: &str) -> bool {
    text.trim_start().starts_with(|c: char| c.is_ascii_digit())
}

/// A crop that holds just the four digits: `1234`, or `(1234)` with its
/// brackets dropped or read as `+`/`|` by the digits-only model.
fn bracketed_four(text: &str) -> Option<String> {
    let t = text.trim();
    let digits = digits_of(t);
    let rest_is_brackets = t
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '(' | ')' | '+' | '|' | '[' | ']' | ' '));
    (digits.len() == 4 && rest_is_brackets).then_some(digits)
}

/// The amount whose first digit the page read as a look-alike letter glued
/// to the rest (a thin `5` as `D` in `-D43.06`): the re-read's amount when
/// it is that digit followed by the page's digits.
fn restored_first_digit(
    page_line: &str,
    page_cents: i64,
    reread: &[amount::AmountHit],
) -> Option<i64> {
    const LOOK_ALIKES: &[char] = &[
        'D', 'O', 'Q', 'S', 's', 'B', 'b', 'Z', 'z', 'G', 'I', 'l', 'A',
    ];
    let compact: Vec<char> = page_line
        .chars()
        .filter(|c| !matches!(c, ' ' | ','))
        .collect();
    let written: Vec<char> = amount::format_cents(page_cents.abs()).chars().collect();
    let at = compact
        .windows(written.len())
        .position(|w| w == written.as_slice())?;
    let letter = *compact.get(at.checked_sub(1)?)?;
    // A lone glued letter: after it a word would go on (`RMB43.06`).
    let lone = at < 2 || !compact[at - 2].is_alphanumeric();
    if !LOOK_ALIKES.contains(&letter) || !lone {
        return None;
    }
    let page_digits: String = written.iter().filter(|c| c.is_ascii_digit()).collect();
    reread.iter().find_map(|h| {
        let digits = digits_of(&amount::format_cents(h.cents));
        (digits.len() == page_digits.len() + 1 && digits.ends_with(&page_digits)).then_some(h.cents)
    })
}

/// Grey level below which a crop's column counts as inked (see
/// `crop_numbers`).
const INK_LEVEL: u8 = 128;

/// Scale of the second re-read of an amount the first re-read disputed.
const SECOND_READ_SCALE: f64 = 0.83;

/// Scale of the smaller copy of a slip's crop (see
/// [`Recognizer::vote_readings`]).
const SLIP_SMALLER_SCALE: f64 = 0.75;

/// Label of a crop holding a headline the page read as no amount.
const GARBLED_HEADLINE: &str = "garbled_headline";

/// Label of a crop holding a band the page's OCR left out.
const MISSED_LINE: &str = "missed_line";

/// The text of a read's lines whose middle lies in `(top, bottom)`: what
/// was read of one crop of a stacked image.
fn text_within(read: &OcrPage, (top, bottom): (i32, i32)) -> String {
    read.lines
        .iter()
        .filter(|l| (top..bottom).contains(&((l.top + l.bottom) / 2)))
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where each crop landed in the stacked image: its label and vertical span.
type Placements = Vec<(&'static str, (i32, i32))>;

/// Stacks crops under each other with white gaps; returns the image and
/// each crop's vertical band in it.
fn stack<'a>(
    crops: impl Iterator<Item = &'a (&'static str, GrayImage)> + Clone,
) -> (GrayImage, Placements) {
    let width = crops.clone().map(|(_, c)| c.width()).max().unwrap_or(1);
    let height: u32 = crops.clone().map(|(_, c)| c.height()).sum();
    let mut out = GrayImage::from_pixel(width, height.max(1), image::Luma([255]));
    let mut bands = Vec::new();
    let mut y = 0u32;
    for (field, crop) in crops {
        image::imageops::replace(&mut out, crop, 0, i64::from(y));
        let top = i32::try_from(y).unwrap_or(i32::MAX);
        y += crop.height();
        bands.push((*field, (top, i32::try_from(y).unwrap_or(i32::MAX))));
    }
    (out, bands)
}

/// The line at `i`, or the line under it when the number is there: a card
/// label without a four-digit group (`交通银行 · 交易卡号`, an icon read as
/// `6` before it) over a line of nothing but `6200 0000 0000 9295`.
/// Re-read, the label line's crop gives digits from the icon.
fn number_under_label(lines: &[crate::ocr::Line], i: usize) -> &crate::ocr::Line {
    let has_group = |l: &crate::ocr::Line| {
        l.text
            .split(|c: char| !c.is_ascii_digit())
            .any(|run| run.len() >= 4)
    };
    // Nothing but the number: no other row's label.
    let bare_number = |l: &crate::ocr::Line| l.text.is_ascii() && has_group(l);
    match lines.get(i + 1) {
        Some(next) if !has_group(&lines[i]) && bare_number(next) => next,
        _ => &lines[i],
    }
}

/// Whether any line of a page names a discount (see
/// [`screens::fields::mentions_discount`]): its labelled amount may be the
/// order's total, not what was paid.
fn names_discount(page: &OcrPage) -> bool {
    page.lines
        .iter()
        .any(|l| screens::fields::mentions_discount(&l.text))
}

/// How a row read alone is read: as a block first, then as one raw line,
/// which tesseract's layout analysis cannot drop (see [`PageMode::Line`]).
const ROW_MODES: [PageMode; 2] = [PageMode::Block, PageMode::Line];

/// The row a card label's number stands on: the label's own line when it
/// holds three digits or more, else the line under it when that starts
/// with a four-digit group (a bare `卡号` over its number).
fn card_number_row(lines: &[crate::ocr::Line]) -> Option<&crate::ocr::Line> {
    let i = lines.iter().position(|l| is_card_row(&l.text))?;
    let label = &lines[i];
    if digits_of(&label.text).len() >= 3 {
        return Some(label);
    }
    lines.get(i + 1).filter(|next| {
        let first = next.text.split_whitespace().next().unwrap_or_default();
        first.len() == 4 && first.chars().all(|c| c.is_ascii_digit())
    })
}

/// Whether a page's reading of a card row agrees with a re-read's last
/// four: its last digit run ends with them (`90526` for `0526`, the dotted
/// zero read twice), is their last three (`219` for `6219`), or is them
/// with their first `0` read as `9`.
fn holds_last4(page_line: &str, last4: &str) -> bool {
    let Some(tail) = page_line
        .split(|c: char| !c.is_ascii_digit())
        .rfind(|run| !run.is_empty())
    else {
        return false;
    };
    // Or a dotted `0` the page read as `9` (`9225` for `0225`), its dot
    // painted out for the re-read.
    let dotted_zero = tail.len() == 4
        && last4.starts_with('0')
        && tail.starts_with('9')
        && tail[1..] == last4[1..];
    last4.len() == 4
        && (tail.ends_with(last4) || (tail.len() == 3 && last4.ends_with(tail)) || dotted_zero)
}

/// A labelled row of the payment's date (not a card's expiry or a
/// refund's time) with digits in it.
fn is_date_row(line: &str) -> bool {
    let c = crate::text::compact(line).to_uppercase();
    names_date(&c) && digits_of(&c).len() >= 6
}

/// The line under a bare date label (`DATE/TIME 日期/时间:`, no digits of
/// its own) when it holds six digits or more and no ideograph (no label,
/// no `年`): where a slip's printer puts its date.
fn date_row_under_label(lines: &[crate::ocr::Line]) -> Option<&crate::ocr::Line> {
    let label = lines.iter().position(|l| {
        let c = crate::text::compact(&l.text).to_uppercase();
        names_date(&c) && digits_of(&c).is_empty()
    })?;
    lines.get(label + 1).filter(|l| {
        let c = crate::text::compact(&l.text);
        digits_of(&c).len() >= 6 && !c.chars().any(crate::text::is_cjk)
    })
}

/// Whether a compact, upper-cased line names a date or time (not a
/// refund's nor a card's expiry).
fn names_date(compact: &str) -> bool {
    let labelled = ["时间", "日期", "DATE", "TIME"]
        .iter()
        .any(|l| compact.contains(l));
    let other = ["退款", "有效期", "EXP"]
        .iter()
        .any(|w| compact.contains(w));
    labelled && !other
}

/// Whether a screen type labels its date and amount rows: not a page
/// without a payment, WeChat's 支付成功 page (a headline, no date) or a
/// page of no known layout.
fn shows_detail_rows(screen: ScreenType) -> bool {
    !matches!(
        screen,
        ScreenType::NoPayment | ScreenType::WechatSuccess | ScreenType::Other
    )
}

/// An amount's labelled row (not a balance's or an order's total) with
/// digits in it but no amount the page could read.
fn is_unread_amount_row(line: &str) -> bool {
    let c = crate::text::compact(line).to_uppercase();
    let labelled = c.contains("金额") || c.contains("AMOUNT");
    let other = ["余额", "订单", "原价"].iter().any(|w| c.contains(w));
    labelled && !other && digits_of(&c).len() >= 3 && amount::find_amounts(line).is_empty()
}

/// The amount of a slip line whose label OCR garbled past reading (`#8:
/// 382.55 7%`, `| All : 10.42 元 iN`): a head of at most three letters,
/// digits or marks and no ideograph before a colon, then one amount
/// printed with two decimals.
fn amount_after_garbled_label(line: &str) -> Option<i64> {
    let (head, tail) = line.split_once([':', '：'])?;
    let head: Vec<char> = head.chars().filter(|c| !c.is_whitespace()).collect();
    let marks = |c: &char| c.is_ascii_punctuation() || c.is_ascii_alphanumeric();
    if head.is_empty() || !head.iter().all(marks) {
        return None;
    }
    let letters = head.iter().filter(|c| c.is_ascii_alphanumeric()).count();
    if !(1..=3).contains(&letters) {
        return None;
    }
    let [hit] = amount::find_amounts(tail)[..] else {
        return None;
    };
    let figure = amount::format_cents(hit.cents);
    crate::text::compact(tail)
        .contains(figure.as_str())
        .then_some(hit.cents)
}

/// A re-read that names its figure an amount: an amount label, or a
/// currency; not a balance, an order's total or an original price.
fn names_amount(read: &str) -> bool {
    let c = crate::text::compact(read).to_uppercase();
    let named = ["金额", "AMOUNT", "元", "RMB", "CNY", "¥", "￥"]
        .iter()
        .any(|w| c.contains(w));
    let other = ["余额", "订单", "原价", "优惠"]
        .iter()
        .any(|w| c.contains(w));
    named && !other
}

/// A date's year, month and day as a reading printed them (`2025年1月5日`:
/// `1`, `5`; `2025-01-05`: `01`, `05`); a compact `20250105`'s padded.
/// `None` when a letter follows the day: a digit the reading did not
/// finish (`1o` read as the day `1`).
fn printed_date(read: &str, date: date::Date) -> Option<[String; 3]> {
    let year = date.year.to_string();
    // Each run of digits with the byte where it ends.
    let mut runs: Vec<(&str, usize)> = Vec::new();
    let mut start = None;
    for (at, c) in read.char_indices().chain([(read.len(), ' ')]) {
        match (c.is_ascii_digit(), start) {
            (true, None) => start = Some(at),
            (false, Some(from)) => {
                runs.push((&read[from..at], at));
                start = None;
            }
            _ => {}
        }
    }
    let after_year = runs
        .iter()
        .position(|(run, _)| *run == year)
        .and_then(|i| runs.get(i + 1).zip(runs.get(i + 2)));
    let Some(((month, _), (day, day_end))) = after_year else {
        return Some([
            year,
            format!("{:02}", date.month),
            format!("{:02}", date.day),
        ]);
    };
    let unfinished = read[*day_end..]
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic());
    (!unfinished).then(|| [year, (*month).to_owned(), (*day).to_owned()])
}

/// A reading with `o` and `O` next to a digit taken for `0` (`1o` for the
/// day `10`).
fn zeros_for_letters(read: &str) -> String {
    let chars: Vec<char> = read.chars().collect();
    let digit_at = |i: Option<usize>| {
        i.and_then(|i| chars.get(i))
            .is_some_and(char::is_ascii_digit)
    };
    chars
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let beside_digit = digit_at(i.checked_sub(1)) || digit_at(Some(i + 1));
            if matches!(c, 'o' | 'O') && beside_digit {
                '0'
            } else {
                c
            }
        })
        .collect()
}

/// Whether a row's digits as the page read them hold a date as printed
/// (see [`printed_date`]): its year, then its month and its day each whole,
/// in order, within the eight digits after the year (`年` and `月` may
/// each come back as up to two digits: `202542119288` for `2025年11月28日`).
fn page_holds_date(digits: &str, [year, month, day]: &[String; 3]) -> bool {
    let Some(at) = digits.find(year.as_str()) else {
        return false;
    };
    let after: String = digits[at + year.len()..].chars().take(8).collect();
    after
        .find(month.as_str())
        .is_some_and(|m| after[m + month.len()..].contains(day.as_str()))
}

/// A line's crop from its first word to its last, scaled like
/// [`crop_numbers`]' crops (a photo's as it is). Words of nothing but
/// marks are left out: a slip's edges read as `|` at both ends made the
/// page model read `金额：22.26元` as `| 2 |`. A photo's margin is an
/// eighth of the line, to keep a slip's dashed rules out.
fn crop_line(gray: &GrayImage, line: &crate::ocr::Line, photo: bool) -> Option<GrayImage> {
    let height = line.bottom - line.top;
    let pad = height / if photo { 8 } else { 4 };
    let words: Vec<_> = line
        .words
        .iter()
        .filter(|(w, _, _)| w.chars().any(char::is_alphanumeric))
        .collect();
    let first_left = words.first().map(|(_, left, _)| *left)?;
    let last_right = words.last().map(|(_, _, right)| *right)?;
    let top = u32::try_from((line.top - pad).max(0)).ok()?;
    let bottom = u32::try_from(line.bottom + pad).ok()?.min(gray.height());
    let left = u32::try_from((first_left - pad).max(0)).ok()?;
    let right = u32::try_from(last_right + pad).ok()?.min(gray.width());
    if right <= left + 4 || bottom <= top + 4 {
        return None;
    }
    let crop = image::imageops::crop_imm(gray, left, top, right - left, bottom - top).to_image();
    Some(fit_row(crop, if photo { 48 } else { height }))
}

/// The row an amount was read from, and whether it was written there
/// with a currency glyph (a currency word apart from the digits is outside
/// the crop) and with a plus.
fn amount_row_of(
    lines: &[crate::ocr::Line],
    cents: i64,
    slip: bool,
) -> Option<(&crate::ocr::Line, (bool, bool))> {
    lines.iter().find_map(|l| {
        let mut hits = amount::find_amounts(&l.text);
        // A slip's edge read as a bar before the number (`| 832.19 |`)
        // reads as a leading `1`: the slip's parser trims it, and so must
        // the search for its row.
        if slip && !hits.iter().any(|h| h.cents == cents) {
            hits = amount::find_amounts(crate::text::trim_value(&l.text));
        }
        let same: Vec<_> = hits.iter().filter(|h| h.cents == cents).collect();
        let currency = same.iter().any(|h| h.currency_glyph);
        let plus = same.iter().any(|h| h.sign == amount::Sign::Plus);
        (!same.is_empty()).then_some((l, (currency, plus)))
    })
}

/// The amount of a line read as one glyph that is no digit, then the
/// amount alone, unsigned (`二 150.63`).
fn after_one_glyph(read: &str) -> Option<i64> {
    let (first, rest) = read.trim().split_once(char::is_whitespace)?;
    let mut chars = first.chars();
    let glyph = chars.next()?;
    if chars.next().is_some() || glyph.is_ascii_digit() {
        return None;
    }
    let rest = rest.trim_end().trim_end_matches('元');
    match amount::find_amounts(rest)[..] {
        [hit] if hit.alone && hit.sign == amount::Sign::None => Some(hit.cents),
        _ => None,
    }
}

/// The crop of a slip's amount line from its (garbled) label to the word
/// after the figure (its unit), cut to the line's own rows: the desk
/// beside the slip and the dashed rules above and below the line (which
/// tesseract's box took in) make a crop of the whole line read as noise.
fn crop_amount_words(
    gray: &GrayImage,
    line: &crate::ocr::Line,
    cents: i64,
    photo: bool,
) -> Option<GrayImage> {
    let figure = amount::format_cents(cents);
    let at = line
        .words
        .iter()
        .position(|(w, _, _)| w.contains(figure.as_str()))?;
    let words = line.words[..(at + 2).min(line.words.len())].to_vec();
    let crop = crop_line(
        gray,
        &crate::ocr::Line {
            words,
            ..line.clone()
        },
        photo,
    )?;
    let band = bands::text_bands(&crop)
        .into_iter()
        .max_by_key(bands::Band::height)?;
    let pad = band.height() / 4;
    let top = band.top.saturating_sub(pad);
    let bottom = (band.bottom + pad).min(crop.height());
    Some(image::imageops::crop_imm(&crop, 0, top, crop.width(), bottom - top).to_image())
}

/// A row that holds the card: a card label, or a payment method naming a
/// bank card.
fn is_card_row(line: &str) -> bool {
    let c = crate::text::compact(line);
    let label = ["卡号", "交易卡号", "付款卡", "支付卡", "CARDNO", "CARD"]
        .iter()
        .any(|l| c.starts_with(l));
    let method = crate::screens::fields::PAYMENT_METHOD_LABELS
        .iter()
        .any(|l| c.starts_with(l))
        && c.contains('卡');
    label || method || crate::screens::bank::is_own_card_tail(line)
}

/// A line's crop for a re-read when it is a big line: its pixels from
/// before it was shrunk, scaled like [`crop_numbers`]' crops.
fn big_line_of(big_lines: &[BigLine], line: &crate::ocr::Line) -> Option<GrayImage> {
    let mid = u32::try_from((line.top + line.bottom) / 2).ok()?;
    let (left, right) = (
        u32::try_from(line.left).ok()?,
        u32::try_from(line.right).ok()?,
    );
    big_lines
        .iter()
        .find(|b| {
            (b.rect.top..b.rect.bottom).contains(&mid) && left < b.rect.right && right > b.rect.left
        })
        .map(|b| {
            fit_row(
                b.pixels.clone(),
                i32::try_from(b.rect.height()).unwrap_or(48),
            )
        })
}

/// The numbers of a line (on a screen from the end of the label before
/// them, on a photo from the first word with a digit or star), scaled to
/// ~48 px high (a photo's as it is) on a white margin of 20 px.
fn crop_numbers(gray: &GrayImage, line: &crate::ocr::Line, photo: bool) -> Option<GrayImage> {
    let first_number = line
        .words
        .iter()
        .position(|(w, _, _)| crate::ocr::is_number_word(w))?;
    // A big first digit OCR read as an ideograph (`信 3 10.28` for a bold
    // `4310.28` beside a small label) starts the number, not the label.
    let first_number = match first_number.checked_sub(1) {
        Some(before) if !photo && digit_read_as_glyph(gray, line, before, first_number) => before,
        _ => first_number,
    };
    // On a screen, from the end of the label before the number (a bold
    // `1` OCR left out after the sign must be in the crop, or the re-read
    // confirms `15.79` for `-115.79`); a photo's from the number itself.
    let label_end = line.words[..first_number]
        .iter()
        .rev()
        .find(|(w, _, _)| w.chars().any(|c| c.is_alphabetic()))
        .map(|(_, _, right)| *right);
    // Without a label, glyphs OCR left out may lie left of the line's box
    // (`-1` of `-116.63` read as `16.63`): two line heights more.
    // Never right of the number's own box: a label's box reaching into the
    // number's first glyph cut a 720 px `尾号 0858` to `)858` (read `3858`).
    let number_left = line.words[first_number].1;
    let first = match label_end {
        _ if photo => number_left,
        Some(right) => right.min(number_left),
        None => (line.left - 2 * (line.bottom - line.top)).max(0),
    };
    // A photo's line may stretch over noise read beside the number (the
    // slip's edge, the keys under it: `=| RMB 914.99 a`, 156 px high for
    // 30 px of text, re-read as a smudge): then the crop spans its number
    // words' rows and right edge. Only where the line is more than three
    // times as tall as its numbers: cropped to its 27 px numbers, a 65 px
    // line's `159.93` was re-read `15995` (read whole, right).
    let stretched = line
        .number_rows
        .filter(|(top, bottom)| photo && line.bottom - line.top > 3 * (bottom - top));
    let (line_top, line_bottom) = stretched.unwrap_or((line.top, line.bottom));
    let line_right = if stretched.is_some() {
        line.words
            .iter()
            .filter(|(w, _, _)| crate::ocr::is_number_word(w))
            .map(|(_, _, right)| *right)
            .max()
            .unwrap_or(line.right)
    } else {
        line.right
    };
    // A slip prints dashed rules close under its lines: with a quarter
    // line's margin, the rule under `11.00` made the photo reader see
    // `11.60`. An eighth keeps it out. A tightened crop keeps half its
    // numbers' height.
    let pad = (line_bottom - line_top)
        / match (photo, stretched) {
            (true, None) => 8,
            (true, Some(_)) => 2,
            (false, _) => 4,
        };
    let top = u32::try_from((line_top - pad).max(0)).ok()?;
    let bottom = u32::try_from(line_bottom + pad).ok()?.min(gray.height());
    let left = u32::try_from((first - pad).max(0)).ok()?;
    // Nor through a glyph: where the label's box reaches into the number's,
    // tesseract's boxes at 720 px may start inside the number's first digit
    // (`尾号 6355` cut to `355` with a stroke, read `5355`), so the crop
    // starts at the first blank column left of it. Elsewhere a label's
    // last glyph would be pulled in (`号 6200 …`, which the digits model
    // reads as nothing).
    let overlapping = label_end.is_some_and(|right| right > number_left);
    let left = if photo || !overlapping {
        left
    } else {
        let reach = u32::try_from(line.bottom - line.top).unwrap_or(0);
        let inked = |x: u32| (top..bottom).any(|y| gray.get_pixel(x, y).0[0] < INK_LEVEL);
        (left.saturating_sub(reach)..=left)
            .rev()
            .find(|&x| !inked(x))
            .unwrap_or(left)
    };
    let right = u32::try_from(line_right + pad).ok()?.min(gray.width());
    if right <= left + 4 || bottom <= top + 4 {
        return None;
    }
    let crop = image::imageops::crop_imm(gray, left, top, right - left, bottom - top).to_image();
    // A photo's rows as they are (prepared to a size that reads well, and a
    // receipt printer's slashed zero enlarged reads as `8`).
    let text_height = if photo { 48 } else { line.bottom - line.top };
    Some(fit_row(crop, text_height))
}

/// Whether word `word` of a line, just before its number word `number`,
/// is one letter or ideograph inked on the same rows as the number's
/// digits, after a label in smaller type: a big digit OCR read as
/// something else. Beside a label of the number's size, an ideograph on
/// the digits' rows is the label's last (`信用 卡 (3777)`).
fn digit_read_as_glyph(
    gray: &GrayImage,
    line: &crate::ocr::Line,
    word: usize,
    number: usize,
) -> bool {
    let (text, left, right) = &line.words[word];
    // A letter or an ideograph: a bracket before the number (`( 8777)`)
    // is inked on the digits' rows too.
    let mut glyphs = text.chars();
    if !(glyphs.next().is_some_and(char::is_alphabetic) && glyphs.next().is_none()) {
        return false;
    }
    let rows =
        |(_, from, to): &(String, i32, i32)| inked_rows(gray, *from, *to, line.top, line.bottom);
    let Some((digit_top, digit_bottom)) = rows(&line.words[number]) else {
        return false;
    };
    let digit_height = digit_bottom - digit_top;
    let tolerance = digit_height / 10 + 1;
    let on_digit_rows =
        inked_rows(gray, *left, *right, line.top, line.bottom).is_some_and(|(top, bottom)| {
            (top - digit_top).abs() <= tolerance && (bottom - digit_bottom).abs() <= tolerance
        });
    let smaller_label = line.words[..word]
        .iter()
        .filter_map(rows)
        .any(|(top, bottom)| 4 * (bottom - top) < 3 * digit_height);
    on_digit_rows && smaller_label
}

/// First and last rows between `top` and `bottom` with ink in columns
/// `left..right`.
fn inked_rows(
    gray: &GrayImage,
    left: i32,
    right: i32,
    top: i32,
    bottom: i32,
) -> Option<(i32, i32)> {
    let clamp = |v: i32, max: u32| u32::try_from(v.max(0)).unwrap_or(0).min(max);
    let (left, right) = (clamp(left, gray.width()), clamp(right, gray.width()));
    let (top, bottom) = (clamp(top, gray.height()), clamp(bottom, gray.height()));
    let inked = |y: u32| (left..right).any(|x| gray.get_pixel(x, y).0[0] < INK_LEVEL);
    let first = (top..bottom).find(|&y| inked(y))?;
    let last = (top..bottom).rev().find(|&y| inked(y))?;
    Some((i32::try_from(first).ok()?, i32::try_from(last).ok()?))
}

/// A band of text the page's OCR left out (no line of the page overlaps
/// it), cropped like [`crop_numbers`]: a bank app's grey card number under
/// its name is such a band more often than not.
fn crop_band(gray: &GrayImage, band: &bands::Band) -> Option<GrayImage> {
    let height = i32::try_from(band.height()).ok()?;
    let pad = u32::try_from(height / 4).ok()?;
    let left = band.left.saturating_sub(pad);
    let top = band.top.saturating_sub(pad);
    let right = (band.right + pad).min(gray.width());
    let bottom = (band.bottom + pad).min(gray.height());
    let crop = image::imageops::crop_imm(gray, left, top, right - left, bottom - top).to_image();
    Some(fit_row(crop, height))
}

/// Lines of text on the page between 12 and 120 px high and at least
/// three times as wide, that no OCR line covers, top to bottom, at most
/// `limit`.
fn missed_bands(gray: &GrayImage, page: &OcrPage, limit: usize) -> Vec<bands::Band> {
    left_out(page, line_pieces(gray), limit)
}

/// Where a bank screen's card number may be when the page read none: up
/// to six lines the page left out (like [`missed_bands`], with the words
/// of a line that wide gaps parted joined again, see
/// [`bands::join_parted_words`]: alone, a card number's `6200` and `1906`
/// are too short to pass for lines, and the number is read as its stars),
/// then the lines it read as a card number misread.
fn card_lines_to_read(gray: &GrayImage, page: &OcrPage) -> Vec<bands::Band> {
    let mut lines = left_out(page, bands::join_parted_words(line_pieces(gray)), 6);
    lines.extend(
        page.lines
            .iter()
            .filter(|l| card::misread_number_line(&l.text))
            .filter_map(|l| {
                let coord = |v: i32| u32::try_from(v).ok();
                bands::Band::around(
                    gray,
                    coord(l.top)?,
                    coord(l.bottom)?,
                    coord(l.left)?,
                    coord(l.right)?,
                )
            }),
    );
    lines
}

/// The page's lines of text cut at gaps of 40 px, and apart beside an
/// icon (see [`bands::text_pieces`], [`bands::lines_beside_icon`]).
fn line_pieces(gray: &GrayImage) -> Vec<bands::Band> {
    bands::text_pieces(gray, 40)
        .iter()
        .flat_map(|piece| bands::lines_beside_icon(gray, piece))
        .collect()
}

/// The pieces between 12 and 120 px high and at least three times as
/// wide that no line of the page covers, at most `limit`.
fn left_out(page: &OcrPage, pieces: Vec<bands::Band>, limit: usize) -> Vec<bands::Band> {
    pieces
        .into_iter()
        .filter(|b| (12..=120).contains(&b.height()) && b.right - b.left >= 3 * b.height())
        .filter(|b| {
            let (top, bottom) = (i64::from(b.top), i64::from(b.bottom));
            let (left, right) = (i64::from(b.left), i64::from(b.right));
            // Covered when a line's middle lies on the piece's rows: a line
            // box stretched by an icon beside two lines (a bank's badge
            // beside its name over the card number) covers only one; and a
            // line tesseract all but rejected (`由 4 二` for the badge, the
            // name and the number) covers none.
            !page.lines.iter().any(|l| {
                let mid = (i64::from(l.top) + i64::from(l.bottom)) / 2;
                l.conf >= 60.0
                    && mid >= top
                    && mid < bottom
                    && i64::from(l.left) < right
                    && i64::from(l.right) > left
            })
        })
        .take(limit)
        .collect()
}

/// A cropped row scaled so its text is ~48 px high, whatever its size on
/// the page, on a white margin of 20 px.
fn fit_row(crop: GrayImage, text_height: i32) -> GrayImage {
    let factor = 48.0 / f64::from(text_height.max(1));
    let crop = if factor < 0.9 {
        preprocess::downscale(&crop, factor)
    } else if factor > 1.1 {
        let w = preprocess::scaled(crop.width(), factor);
        let h = preprocess::scaled(crop.height(), factor);
        image::imageops::resize(&crop, w, h, image::imageops::FilterType::Triangle)
    } else {
        crop
    };
    preprocess::on_white_margin(&crop)
}

fn read_page(file: &str, page: &OcrPage, mode: PageMode) -> Recognition {
    let screens::Parsed {
        screen,
        record,
        tentative,
        not_paid,
    } = screens::parse(file, page);
    let wallet = page.lines.iter().any(|l| {
        let method = ["付款方式", "支付方式"].iter().any(|m| l.text.contains(m));
        method && ["零钱", "余额", "花呗"].iter().any(|w| l.text.contains(w))
    });
    Recognition {
        record,
        screen,
        text: page.text(),
        passes: vec![mode],
        wallet,
        tentative,
        contested: Vec::new(),
        confirmed: Vec::new(),
        not_paid,
    }
}

/// Whether what was read so far covers what the screen type shows: amount,
/// status (a refund must not pass for a payment), date (the 支付成功 page
/// has none) and a card (unless the two apps name a wallet as the method;
/// a bank screen's 可用余额 is no payment method).
fn is_complete(r: &Recognition) -> bool {
    let rec = &r.record;
    if !r.tentative.is_empty() {
        return false;
    }
    match r.screen {
        // Several lines read, none about a payment (no amount standing
        // alone, no payment's detail row): a chat, a photo. Otherwise other
        // modes may find more (a 支付成功 page whose title and amount
        // this pass misread).
        ScreenType::NoPayment => {
            r.text.lines().count() >= 3
                && !r.text.lines().any(|l| {
                    amount::find_amounts(l).iter().any(|h| h.alone)
                        || crate::screens::detect::row_label_of(l).is_some()
                        || crate::screens::detect::is_success_title(l)
                })
        }
        ScreenType::WechatSuccess => !rec.amount.is_empty(),
        _ => {
            let wallet =
                r.wallet && matches!(r.screen, ScreenType::AlipayBill | ScreenType::WechatBill);
            // A field two readers disagreed on stays empty: no pass to
            // wait for.
            let settled = |field, value: &str| !value.is_empty() || r.contested.contains(&field);
            settled(FIELD_AMOUNT, &rec.amount)
                && !rec.date.is_empty()
                && !rec.status.is_empty()
                && (settled(FIELD_CARD_LAST4, &rec.card_last4) || wallet)
        }
    }
}

/// Settles a field the base read tentatively: the other pass agreeing
/// confirms it; the other reading it confidently otherwise replaces it; two
/// doubtful different readings leave it empty. A confident base value
/// stays, and one the other pass doubts, confirmed by the base, loses its
/// doubt.
fn confirm(base: &mut Recognition, other: &Recognition, field: &'static str) {
    let mine = field_value(&base.record, field);
    let theirs = field_value(&other.record, field);
    let mine_doubtful = base.tentative.contains(&field);
    let theirs_doubtful = other.tentative.contains(&field);
    if !mine_doubtful || theirs.is_empty() {
        return;
    }
    if mine == theirs || !theirs_doubtful {
        set_field(&mut base.record, field, theirs);
        base.tentative.retain(|f| *f != field);
    } else {
        set_field(&mut base.record, field, String::new());
        base.tentative.retain(|f| *f != field);
    }
}

fn field_value(r: &PaymentRecord, field: &str) -> String {
    match field {
        FIELD_AMOUNT => r.amount.clone(),
        FIELD_CARD_LAST4 => r.card_last4.clone(),
        _ => String::new(),
    }
}

fn set_field(r: &mut PaymentRecord, field: &str, value: String) {
    match field {
        FIELD_AMOUNT => r.amount = value,
        FIELD_CARD_LAST4 => r.card_last4 = value,
        _ => {}
    }
}

/// Empties fields still doubtful after the last pass: never a guess.
fn drop_tentative(mut r: Recognition) -> Recognition {
    for field in std::mem::take(&mut r.tentative) {
        set_field(&mut r.record, field, String::new());
        if field == FIELD_CARD_LAST4 {
            r.record.card_number.clear();
        }
    }
    r.record.fill_unreadable();
    r
}

/// Number of key fields a pass read.
fn key_fields(r: &PaymentRecord) -> usize {
    [&r.amount, &r.date, &r.card_last4, &r.merchant]
        .iter()
        .filter(|v| !v.is_empty())
        .count()
}

/// The one value passes confirmed for `field` (see `Recognition::confirmed`),
/// if they confirmed exactly one.
fn confirmed_value(confirmed: &[(&'static str, String)], field: &str) -> Option<String> {
    let mut values = confirmed
        .iter()
        .filter(|(f, _)| *f == field)
        .map(|(_, v)| v);
    let first = values.next()?;
    values.all(|v| v == first).then(|| first.clone())
}

/// Keeps the pass that read more key fields and fills its empty fields from
/// the other when both saw the same screen type.
fn merge(first: Recognition, second: Recognition) -> Recognition {
    let passes = [first.passes.clone(), second.passes.clone()].concat();
    let first_better = key_fields(&first.record) >= key_fields(&second.record)
        && !(first.screen == ScreenType::NoPayment && second.screen != ScreenType::NoPayment);
    let (mut base, other) = if first_better {
        (first, second)
    } else {
        (second, first)
    };
    let other_wallet = other.wallet && other.screen == base.screen;
    if base.screen == other.screen && base.screen != ScreenType::NoPayment {
        confirm(&mut base, &other, FIELD_AMOUNT);
        confirm(&mut base, &other, FIELD_CARD_LAST4);
        // Values filled in from the other pass keep its doubt.
        for field in &other.tentative {
            if field_value(&base.record, field).is_empty() && !base.tentative.contains(field) {
                base.tentative.push(field);
            }
        }
        let r = &mut base.record;
        let o = other.record;
        for (mine, theirs) in [
            (&mut r.amount, o.amount),
            (&mut r.date, o.date),
            (&mut r.time, o.time),
            (&mut r.card_last4, o.card_last4),
            (&mut r.card_number, o.card_number),
            (&mut r.card_bank, o.card_bank),
            (&mut r.merchant, o.merchant),
            (&mut r.order_no, o.order_no),
            (&mut r.status, o.status),
        ] {
            if mine.is_empty() {
                *mine = theirs;
            }
        }
        // A number that is not the card the last four belong to is dropped.
        if !r.card_number.is_empty() && !r.card_number.ends_with(&r.card_last4) {
            r.card_number.clear();
        }
        for field in other.contested {
            if !base.contested.contains(&field) {
                base.contested.push(field);
            }
        }
        base.confirmed.extend(other.confirmed);
        base.not_paid.extend(other.not_paid);
        if r.amount_cents()
            .is_some_and(|c| base.not_paid.contains(&c.abs()))
        {
            r.amount.clear();
        }
        // A contested field takes the one value passes confirmed, if they
        // confirmed exactly one; else it stays empty.
        for field in &base.contested {
            let value = confirmed_value(&base.confirmed, field).unwrap_or_default();
            if *field == FIELD_CARD_LAST4 && (value.is_empty() || !r.card_number.ends_with(&value))
            {
                r.card_number.clear();
            }
            set_field(r, field, value);
        }
        r.fill_unreadable();
    } else if other.screen == ScreenType::Other
        && base.screen != ScreenType::NoPayment
        && base.record.amount.is_empty()
        && !base.contested.contains(&FIELD_AMOUNT)
        && !other.tentative.contains(&FIELD_AMOUNT)
        && other
            .record
            .amount_cents()
            .is_some_and(|c| !base.not_paid.contains(&c.abs()))
    {
        // A pass that lost the labels that name the screen (`付主几` for
        // 付款卡) still read its headline, and its re-read kept it.
        base.record.amount = other.record.amount;
        base.record.fill_unreadable();
    }
    base.passes = passes;
    base.wallet |= other_wallet;
    base
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OCR that answers each page mode with fixed text.
    struct FakeOcr {
        block: &'static str,
        sparse: &'static str,
    }

    impl Ocr for FakeOcr {
        fn recognize(&self, _: &GrayImage, mode: PageMode) -> Result<OcrPage, PaymentsError> {
            Ok(OcrPage::from_text(match mode {
                PageMode::Sparse => self.sparse,
                PageMode::Digits => "",
                _ => self.block,
            }))
        }
    }

    fn blank() -> DynamicImage {
        DynamicImage::ImageLuma8(GrayImage::from_pixel(390, 844, image::Luma([255])))
    }

    #[test]
    fn one_pass_when_complete() {
        let ocr = FakeOcr {
            block: "账单详情\n示例店\n-58.00\n交易成功\n支付时间 2025-03-11 12:03:45\n付款方式 招商银行信用卡(1234)\n商品说明 x",
            sparse: "",
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.passes, vec![PageMode::Block]);
        assert_eq!(r.record.file, "a.png");
        assert_eq!(r.record.card_last4, "1234");
        assert_eq!(r.screen, ScreenType::AlipayBill);
    }

    #[test]
    fn second_pass_fills_gaps() {
        let ocr = FakeOcr {
            block: "账单详情\n示例店\n-58.00\n交易成功\n支付时间 2025-03-11 12:03:45\nWRAL 招商银行\n商品说明 x",
            sparse: "账单详情\n示例店\n-58.00\n交易成功\n支付时间\n2025-03-11 12:03:45\n付款方式\n招商银行信用卡(1234)\n商品说明 x",
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.passes, vec![PageMode::Block, PageMode::Sparse]);
        assert_eq!(r.record.card_last4, "1234");
        assert_eq!(r.record.amount, "58.00");
    }

    #[test]
    fn a_pass_that_lost_the_screen_s_labels_still_gives_its_amount() {
        // Sparse mode garbled 付款卡 and the other labels (a screen of no
        // known layout) but read the headline; block mode read the
        // labels and not the headline.
        let ocr = FakeOcr {
            block: "订单详情 客服\n样例文具\n至 1 5 3 四 7 8\n交易成功\n交易类型 消费\n交易时间 2025-11-19 08:22:04\n付款卡 招商银行信用卡 (8013)\n订单编号 20251119078514320749",
            sparse: "-153.78\n易时间 2025-11-19 08:22:04\n付主几 招商银行信用卡 (8013)\n订单编 20251119078514320749",
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.screen, ScreenType::Unionpay);
        assert_eq!(r.record.amount, "153.78");
        assert_eq!(r.record.card_last4, "8013");
    }

    #[test]
    fn a_payment_row_keeps_a_misread_page_from_passing_for_no_payment() {
        // Block mode garbled the title and the amount; the method row says
        // it is a payment, so the sparse pass runs.
        let ocr = FakeOcr {
            block: "完成\n四支付成荔\n样例耗材\nYx2384.872\n付款方式 招商银行信用卡 (7272)\n广告",
            sparse: "完成\n支付成功\n样例耗材\n¥2384.82\n付款方式 招商银行信用卡 (7272)\n广告",
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.screen, ScreenType::WechatSuccess);
        assert_eq!(r.record.amount, "2384.82");
    }

    #[test]
    fn a_status_title_keeps_a_misread_page_from_passing_for_no_payment() {
        let ocr = FakeOcr {
            block: "X\n支付成功\n样例耗材\n+ 人 4108.61\n关注商家",
            sparse: "X\n支付成功\n样例耗材\n¥4108.61\n关注商家\n完成",
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.passes, vec![PageMode::Block, PageMode::Sparse]);
        assert_eq!(r.record.amount, "4108.61");
    }

    /// OCR whose photo reader reads a slip's slashed zeros right and whose
    /// page model reads them as `9`, `6` and `8`.
    struct SlashedZeroOcr;

    const SLASHED_SLIP: &str = "POS签购单\n商户名称(MERCHANT NAME):\n示例店\n卡号(CARD NO):\n621700******1510\n日期时间 2924/63/97 17:29:89\n金额(AMOUNT): RMB 83.00";

    impl Ocr for SlashedZeroOcr {
        fn recognize(&self, _: &GrayImage, _: PageMode) -> Result<OcrPage, PaymentsError> {
            Ok(OcrPage::from_text(SLASHED_SLIP))
        }

        fn recognize_photo(&self, _: &GrayImage, _: PageMode) -> Result<OcrPage, PaymentsError> {
            Ok(OcrPage::from_text(
                &SLASHED_SLIP.replace("2924/63/97 17:29:89", "2024/03/07 17:29:09"),
            ))
        }
    }

    #[test]
    fn a_slip_prepared_as_a_screen_is_read_again_as_a_photo() {
        // A white page, flat and straight: prepared as a screenshot first.
        let r = Recognizer::new(SlashedZeroOcr)
            .recognize_image("scan.jpg", &blank())
            .unwrap();
        assert_eq!(r.screen, ScreenType::PosSlip);
        assert_eq!(r.record.date, "2024/03/07");
        assert_eq!(r.record.amount, "83.00");
    }

    #[test]
    fn a_slip_field_read_two_ways_stays_empty() {
        // The page read `1510`, the re-read of the row `1518` (a slashed
        // zero): a later pass reading `1518` again does not settle it.
        let slip = "POS签购单\n商户名称(MERCHANT NAME):\n示例店\n卡号(CARD NO):\n621700******1510 (I)\n交易类型(TRANS TYPE): 消费/SALE\n日期/时间(DATE/TIME): 2025/03/11 12:03:45\n金额(AMOUNT): RMB 83.00";
        let mut first = read_page("a.jpg", &OcrPage::from_text(slip), PageMode::Block);
        assert_eq!(first.screen, ScreenType::PosSlip);
        first.record.card_last4.clear();
        first.contested.push(FIELD_CARD_LAST4);
        let again = slip.replace("1510", "1518");
        let second = read_page("a.jpg", &OcrPage::from_text(&again), PageMode::Sparse);
        assert_eq!(second.record.card_last4, "1518");
        let merged = merge(first, second);
        assert_eq!(merged.record.card_last4, "");
        assert_eq!(merged.record.amount, "83.00");
        assert!(
            merged
                .record
                .unreadable
                .iter()
                .any(|f| f == FIELD_CARD_LAST4)
        );
    }

    #[test]
    fn a_contested_slip_field_takes_the_one_value_other_passes_confirmed() {
        let slip = "POS签购单\n卡号(CARD NO):\n621700******1510 (I)\n日期/时间(DATE/TIME): 2025/03/11 12:03:45\n金额(AMOUNT): RMB 83.00";
        let contested = || {
            let mut first = read_page("a.jpg", &OcrPage::from_text(slip), PageMode::Block);
            first.record.card_last4.clear();
            first.contested.push(FIELD_CARD_LAST4);
            first
        };
        let confirmed = |last4: &str| {
            let mut pass = read_page("a.jpg", &OcrPage::from_text(slip), PageMode::Sparse);
            pass.confirmed.push((FIELD_CARD_LAST4, last4.to_owned()));
            pass
        };
        let merged = merge(contested(), confirmed("1510"));
        assert_eq!(merged.record.card_last4, "1510");
        // Two passes confirming different values settle nothing.
        let merged = merge(merge(contested(), confirmed("1510")), confirmed("1518"));
        assert_eq!(merged.record.card_last4, "");
        assert_eq!(merged.record.card_number, "");
    }

    #[test]
    fn a_re_read_crop_does_not_cut_the_first_digit() {
        // A digit's ink from x 90 to 110; the label's box reaches into the
        // number's, whose box starts at 103 (inside the digit).
        let mut gray = GrayImage::from_pixel(300, 60, image::Luma([255]));
        for x in (90..110).chain(130..150) {
            for y in 15..45 {
                gray.put_pixel(x, y, image::Luma([0]));
            }
        }
        let line = |label_right: i32| crate::ocr::Line {
            text: "尾号 6355".to_owned(),
            top: 15,
            bottom: 45,
            left: 40,
            right: 150,
            conf: 90.0,
            words: vec![
                ("尾号".to_owned(), 40, label_right),
                ("6355".to_owned(), 103, 150),
            ],
            digit_conf: 90.0,
            number_rows: None,
        };
        // Text 30 px high is scaled to 48 px on a 20 px margin: the
        // crop's first column sits at x 20 of the result.
        let first_column_inked =
            |crop: &GrayImage| (0..crop.height()).any(|y| crop.get_pixel(20, y).0[0] < 128);
        let overlapping = crop_numbers(&gray, &line(106), false).unwrap();
        assert!(!first_column_inked(&overlapping));
        // Boxes apart: the crop starts where the label ends (less a margin).
        let apart = crop_numbers(&gray, &line(80), false).unwrap();
        assert!(!first_column_inked(&apart));
    }

    #[test]
    fn a_big_first_digit_read_as_an_ideograph_starts_the_crop() {
        // A small label (rows 30..45), then a bold `4` OCR read as `信` and
        // the rest of the number, all on rows 10..45.
        let mut gray = GrayImage::from_pixel(400, 60, image::Luma([255]));
        let mut ink = |xs: std::ops::Range<u32>, ys: std::ops::Range<u32>| {
            for x in xs {
                for y in ys.clone() {
                    gray.put_pixel(x, y, image::Luma([0]));
                }
            }
        };
        ink(10..60, 30..45);
        ink(100..125, 10..45);
        ink(135..250, 10..45);
        let line = |glyph: &str, (glyph_left, glyph_right): (i32, i32)| crate::ocr::Line {
            text: format!("收入金额 {glyph} 310.28"),
            top: 10,
            bottom: 45,
            left: 10,
            right: 250,
            conf: 90.0,
            words: vec![
                ("收入金额".to_owned(), 10, 60),
                (glyph.to_owned(), glyph_left, glyph_right),
                ("310.28".to_owned(), 135, 250),
            ],
            digit_conf: 90.0,
            number_rows: None,
        };
        assert!(digit_read_as_glyph(&gray, &line("信", (100, 125)), 1, 2));
        // Beside a label of the number's size, the glyph is the label's.
        let mut same_size = gray.clone();
        for x in 10..60 {
            for y in 10..30 {
                same_size.put_pixel(x, y, image::Luma([0]));
            }
        }
        assert!(!digit_read_as_glyph(
            &same_size,
            &line("信", (100, 125)),
            1,
            2
        ));
        // Two glyphs are a word, not a digit; a bracket is no digit.
        assert!(!digit_read_as_glyph(&gray, &line("信用", (100, 125)), 1, 2));
        assert!(!digit_read_as_glyph(&gray, &line("(", (100, 125)), 1, 2));
        // The label's small glyph beside the number is no digit.
        assert!(!digit_read_as_glyph(&gray, &line("额", (45, 60)), 1, 2));
        // The crop holds the whole `4`: 35 px of text scaled to 48 px on a
        // 20 px margin, so its ink starts near x 20 of the result.
        let crop = crop_numbers(&gray, &line("信", (100, 125)), false).unwrap();
        let first_inked = (0..crop.width())
            .find(|&x| (0..crop.height()).any(|y| crop.get_pixel(x, y).0[0] < 128))
            .unwrap();
        assert!(first_inked < 40, "{first_inked}");
        let ink_columns = (0..crop.width())
            .filter(|&x| (0..crop.height()).any(|y| crop.get_pixel(x, y).0[0] < 128))
            .count();
        // 25 + 115 columns of ink, scaled by 48/35.
        assert!(ink_columns > 180, "{ink_columns}");
    }

    #[test]
    fn a_re_read_digit_before_a_currency_word_is_no_currency_sign() {
        // The page read `人民币 57.59` for `人民币 157.59`; both re-reads of
        // the number's crop read `157.59`. A word apart from the digits is
        // outside the crop, so the extra digit is the number's, not the
        // currency's.
        let ocr = BoxedOcr {
            lines: alipay_rows(vec![("人民币", 20, 60), ("57.59", 100, 100)]),
            wide: "(5633)",
            narrow: "157.59",
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.screen, ScreenType::AlipayBill);
        assert_eq!(r.record.amount, "157.59");
    }

    #[test]
    fn a_first_digit_read_as_a_letter_is_restored_from_the_re_read() {
        let reread = amount::find_amounts("-543.06");
        assert_eq!(restored_first_digit("-D43.06", 4306, &reread), Some(54306));
        // A word before the amount is no misread digit.
        let reread = amount::find_amounts("843.06");
        assert_eq!(restored_first_digit("RMB43.06", 4306, &reread), None);
        // The re-read must end with the page's digits.
        let reread = amount::find_amounts("-643.10");
        assert_eq!(restored_first_digit("-D43.06", 4306, &reread), None);
        // Not a look-alike of a digit.
        let reread = amount::find_amounts("-543.06");
        assert_eq!(restored_first_digit("-K43.06", 4306, &reread), None);
    }

    fn texts(readings: [&str; 3]) -> [String; 3] {
        readings.map(str::to_owned)
    }

    #[test]
    fn a_slip_dispute_is_settled_only_by_a_clear_vote() {
        // Larger, smaller and page-model readings.
        let two_for_page = texts(["621700******0335 S", "621700******0335", "621700****"]);
        assert_eq!(
            settle(&two_for_page, ["0335", "9335"], last4_on_slip).as_deref(),
            Some("0335")
        );
        let two_for_reread = texts(["442.00", "RMB 442.00", ""]);
        assert_eq!(
            settle(&two_for_reread, ["442.09", "442.00"], amounts_on_slip).as_deref(),
            Some("442.00")
        );
        // Two against one still settles; one reading each does not.
        let two_to_one = texts(["477.72", "471.72", "477.72"]);
        assert_eq!(
            settle(&two_to_one, ["477.72", "471.72"], amounts_on_slip).as_deref(),
            Some("477.72")
        );
        let split = texts(["621700******8932", "621700******3932", "621700******8032"]);
        assert_eq!(settle(&split, ["3932", "8032"], last4_on_slip), None);
        // A reading that shows both values counts for both.
        let both = texts(["477.72 471.72", "471.72", "477.72"]);
        assert_eq!(settle(&both, ["477.72", "471.72"], amounts_on_slip), None);
        // The page's amount alone, vouched for by two readings.
        let vouched = texts(["RMB 92.11", "92.11", "o2 at"]);
        assert_eq!(
            settle(&vouched, ["92.11", ""], amounts_on_slip).as_deref(),
            Some("92.11")
        );
        // A third value wins nothing.
        let other = texts(["1111", "621700******1111", ""]);
        assert_eq!(settle(&other, ["0335", "9335"], last4_on_slip), None);
    }

    #[test]
    fn a_last_four_other_readers_agree_against_is_outvoted() {
        let readings = [
            "621700*****x*0809 (I)",
            "621700******9809 (I)",
            "621700****wx0809 (I)",
            "621700******08091",
        ];
        assert!(outvoted(&readings, "9809", last4_on_slip));
        assert!(!outvoted(&readings, "0809", last4_on_slip));
        // Two for another value, two for this one: it stands.
        let even = [
            "621700******2372",
            "621700******2379",
            "621700******2379",
            "2372",
        ];
        assert!(!outvoted(&even, "2379", last4_on_slip));
        // Two readings of two different other values: it stands.
        let scattered = ["621700******1234", "621700******4321", "", ""];
        assert!(!outvoted(&scattered, "5678", last4_on_slip));
    }

    #[test]
    fn a_last_four_three_other_readers_agree_against_is_replaced() {
        // ao's dot-matrix `0012`, read `9812` by the page; the digits
        // model lost the mask and names no last four.
        let readings = [
            "\"5 LARLY NU.\n621700******0012 /C |\n",
            "滞 LAR WU.\n621700******0012 /C |\n",
            ": 瑟 LAKD mu ,\n621700er0012 /CC |\n",
            "6217000012 /C |",
        ];
        assert_eq!(
            recount_last4(&readings, "9812"),
            Recount::Replaced("0012".to_owned())
        );
        assert_eq!(recount_last4(&readings, "0012"), Recount::Stands);
        // One reading of the page's value: three against it leave it in
        // doubt, not replaced.
        let one_for = [
            "621700*****x*0809 (I)",
            "621700******9809 (I)",
            "621700****wx0809 (I)",
            "621700******08091",
        ];
        assert_eq!(recount_last4(&one_for, "9809"), Recount::Doubtful);
        // Two against, none for: in doubt.
        let two = ["621700******0012", "621700******0012", "", ""];
        assert_eq!(recount_last4(&two, "9812"), Recount::Doubtful);
    }

    #[test]
    fn a_slip_amount_no_other_reader_reads_is_recounted() {
        // `¥3,381.23` read `43381.23` by the page: every other reader reads
        // the sign as a sign.
        let sign_read = [
            "¥3,381.23 a 灾 、",
            "¥3,381.23 a ,",
            "半 3,381.23 记 灵",
            "3,381.23 .-2",
        ];
        assert_eq!(
            recount_amount(&sign_read, "43381.23"),
            Recount::Replaced("3381.23".to_owned())
        );
        assert_eq!(recount_amount(&sign_read, "3381.23"), Recount::Stands);
        // Two for another amount and none for this one: in doubt.
        let two = ["5291.49", "5291.49", "", "RMB"];
        assert_eq!(recount_amount(&two, "3291.49"), Recount::Doubtful);
        // One reading of it keeps it, though two read another.
        let one = ["5291.49", "5291.49", "", "3291.49"];
        assert_eq!(recount_amount(&one, "3291.49"), Recount::Stands);
        // Nothing read, or scattered readings: it stands.
        assert_eq!(recount_amount(&["", "", "", ""], "12.30"), Recount::Stands);
        let scattered = ["12.80", "17.30", "12.38", ""];
        assert_eq!(recount_amount(&scattered, "12.30"), Recount::Stands);
    }

    #[test]
    fn a_slip_point_read_as_a_digit_is_no_other_amount() {
        assert!(point_read_as_digit("13299", "13.99"));
        assert!(point_read_as_digit("13399", "13.99"));
        assert!(point_read_as_digit("1582700", "1582.00"));
        // Other digits, or as many as the amount's own: another amount.
        assert!(!point_read_as_digit("14299", "13.99"));
        assert!(!point_read_as_digit("1399", "13.99"));
        assert!(!point_read_as_digit("132999", "13.99"));
        assert!(!point_read_as_digit("13299", ""));
    }

    #[test]
    fn last_four_after_a_misread_mask() {
        assert_eq!(last4_on_slip("621700****wx0809 (I)"), ["0809"]);
        assert_eq!(last4_on_slip("621700******08091\n"), ["0809"]);
        // The last star read as a digit before the entry mode's bracket.
        assert_eq!(last4_on_slip("621700******71902(IC) aa"), ["1902"]);
        assert_eq!(last4_on_slip("621700###4#2539"), ["2539"]);
        assert_eq!(last4_on_slip("621700## 关半 #O411"), ["0411"]);
        assert_eq!(last4_on_slip("621700******@732 (C)"), ["0732"]);
        assert_eq!(last4_on_slip("621700\" 6146\n"), ["6146"]);
        assert_eq!(last4_on_slip("(1234)"), ["1234"]);
        // The crop caught the next line, whose `TXN TYPE` has an `X`.
        assert_eq!(
            last4_on_slip("621700******3708 /C |\n交易类型 TXN TYPE: 退货 /REFUND\n"),
            ["3708"]
        );
        assert_eq!(
            last4_on_slip(": 瑟 LAKD mu ,\n621700er0012 /CC |\n"),
            ["0012"]
        );
        assert!(last4_on_slip("621700****+*94g8 插卡").is_empty());
        assert!(last4_on_slip("2025/09/24").is_empty());
    }

    #[test]
    fn six_digits_after_a_slip_s_mask_are_an_overlong_tail() {
        assert!(overlong_tail("GZE7TEO****443352"));
        assert!(overlong_tail("621700\"**443352 |"));
        // The last four and an entry mode read as a digit.
        assert!(!overlong_tail("621700******33521"));
        assert!(!overlong_tail("621700******3352 (I)"));
        assert!(!overlong_tail("2024/07/09 22:37:24"));
    }

    #[test]
    fn four_digits_in_brackets() {
        assert_eq!(bracketed_four("+6633").as_deref(), Some("6633"));
        assert_eq!(bracketed_four("(1234)").as_deref(), Some("1234"));
        assert_eq!(bracketed_four("1234"), Some("1234".into()));
        assert_eq!(bracketed_four("6217 1234"), None);
        assert_eq!(bracketed_four("-58.00"), None);
    }

    #[test]
    fn chat_is_no_payment() {
        let ocr = FakeOcr {
            block: "示例同事\n发票收到了吗\n12:30",
            sparse: "示例同事\n发票收到了吗",
        };
        let r = Recognizer::new(ocr)
            .recognize_image("chat.png", &blank())
            .unwrap();
        assert_eq!(r.passes, vec![PageMode::Block]);
        assert!(r.record.no_payment);
        assert_eq!(r.screen, ScreenType::NoPayment);
        assert!(r.record.unreadable.is_empty());
    }

    /// OCR with word boxes: pages from `lines` (each a list of words and
    /// their left edge and width, 40 px apart), and digit re-reads answered
    /// by the crop's width (`wide` for the card row, `narrow` for the
    /// amount).
    #[derive(Clone)]
    struct BoxedOcr {
        lines: Vec<Vec<(&'static str, i32, i32)>>,
        wide: &'static str,
        narrow: &'static str,
    }

    impl Ocr for BoxedOcr {
        fn recognize(&self, image: &GrayImage, mode: PageMode) -> Result<OcrPage, PaymentsError> {
            // A crop read as one raw line reads as the digits model reads it.
            if mode == PageMode::Digits || mode == PageMode::Line {
                let text = if image.width() > 300 {
                    self.wide
                } else {
                    self.narrow
                };
                return Ok(OcrPage::from_text(text));
            }
            let mut tsv = String::from("header\n");
            for (i, words) in self.lines.iter().enumerate() {
                for (j, (text, left, width)) in words.iter().enumerate() {
                    let top = 40 + 60 * i;
                    tsv.push_str(&format!(
                        "5\t1\t1\t1\t{}\t{}\t{left}\t{top}\t{width}\t30\t95\t{text}\n",
                        i + 1,
                        j + 1
                    ));
                }
            }
            Ok(OcrPage::from_tsv(&tsv))
        }
    }

    /// [`BoxedOcr`]'s pages, with digit re-reads answered by the crop's
    /// width: the first of `reads` whose minimum width the crop reaches.
    struct SizedOcr {
        page: BoxedOcr,
        reads: Vec<(u32, &'static str)>,
    }

    impl Ocr for SizedOcr {
        fn recognize(&self, image: &GrayImage, mode: PageMode) -> Result<OcrPage, PaymentsError> {
            if mode != PageMode::Digits {
                return self.page.recognize(image, mode);
            }
            let text = self
                .reads
                .iter()
                .find(|(min, _)| image.width() >= *min)
                .map_or("", |(_, text)| text);
            Ok(OcrPage::from_text(text))
        }
    }

    /// A bank screen whose card row's mask the page garbled (no card read)
    /// but whose last four it read, `4228`.
    fn garbled_mask_page() -> BoxedOcr {
        BoxedOcr {
            lines: vec![
                vec![("交易详情", 20, 160)],
                vec![("支出金额", 20, 160)],
                vec![("-762.65", 20, 140)],
                vec![
                    ("交易时间", 20, 160),
                    ("2024-01-24", 200, 200),
                    ("13:54:57", 420, 160),
                ],
                vec![
                    ("卡号", 20, 80),
                    ("620g", 200, 80),
                    ("##k", 290, 60),
                    ("光水水k半", 360, 120),
                    ("4228", 490, 80),
                ],
                vec![("交易类型", 20, 160), ("消费", 200, 80)],
                vec![("交易渠道", 20, 160), ("快捷支付", 200, 160)],
            ],
            wide: "",
            narrow: "-762.65",
        }
    }

    #[test]
    fn a_card_re_read_against_the_page_s_last_four_is_asked_once_more() {
        // The digits model read `4728` (a `2` as `7`) where the page read
        // `4228`; the second re-read (the crop made smaller) reads `4228`.
        let ocr = SizedOcr {
            page: garbled_mask_page(),
            reads: vec![
                (700, "6200***4728"),
                (500, "6200 **** **** 4228"),
                (0, "-762.65"),
            ],
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.screen, ScreenType::BankCard);
        assert_eq!(r.record.card_last4, "4228");
        // Naming a third value, it leaves the field empty.
        let ocr = SizedOcr {
            page: garbled_mask_page(),
            reads: vec![(700, "6200***4728"), (500, "6200***4738"), (0, "-762.65")],
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.record.card_last4, "");
    }

    #[test]
    fn a_re_read_that_read_the_bracket_as_a_digit_names_the_last_four() {
        let page = "付款方式 交通银行信用卡 (5246)";
        assert_eq!(
            bracket_read_as_digit(page, "56246").as_deref(),
            Some("6246")
        );
        assert_eq!(
            bracket_read_as_digit(page, "5246"),
            None,
            "four are a reading"
        );
        assert_eq!(bracket_read_as_digit(page, "5-6246"), None);
        assert_eq!(
            bracket_read_as_digit("尾号 5246", "56246"),
            None,
            "no brackets"
        );
    }

    #[test]
    fn a_re_read_that_dropped_the_mask_names_the_last_four() {
        assert_eq!(
            mask_dropped("卡号 6200 站六炒米沙沙阔米 2402", "62002462").as_deref(),
            Some("2462")
        );
        assert_eq!(
            mask_dropped("621700 ****** 2402", "6217002462").as_deref(),
            Some("2462")
        );
        // Not the page's first group, a number shown whole, or too long.
        assert_eq!(mask_dropped("卡号 6200 **** 2402", "62102462"), None);
        assert_eq!(mask_dropped("6200 0000 0000 2402", "62002462"), None);
        assert_eq!(mask_dropped("6200 **** 2402", "620024620"), None);
    }

    #[test]
    fn a_slip_amount_read_alone_confirms_the_page_s_by_three_readings_and_none_against() {
        let some = |v: &str| Some(v.to_owned());
        let page = "157.95";
        assert!(confirms_amount(
            Some(page),
            &[some(page), None, some(page)],
            page
        ));
        assert!(!confirms_amount(
            Some(page),
            &[some(page), None, None],
            page
        ));
        assert!(!confirms_amount(
            Some(page),
            &[some(page), some(page), some("1157.95")],
            page
        ));
        assert!(!confirms_amount(
            None,
            &[some(page), some(page), some(page)],
            page
        ));
    }

    #[test]
    fn a_slip_amount_read_alone_replaces_the_page_s_only_when_unanimous() {
        let some = |v: &str| Some(v.to_owned());
        assert_eq!(
            unanimous_amount(Some("8.00"), &[some("8.00"), some("8.00"), some("8.00")]),
            some("8.00")
        );
        assert_eq!(
            unanimous_amount(
                Some("5291.49"),
                &[some("5291.49"), some("3291.49"), some("5291.49")]
            ),
            None
        );
        assert_eq!(
            unanimous_amount(None, &[some("8.00"), some("8.00"), some("8.00")]),
            None
        );
    }

    #[test]
    fn a_slip_card_number_s_last_glyphs_read_alone_decide_on_agreement() {
        let agreed = |raw: &str, others: [&str; 3]| {
            agreed_tail(raw.to_owned(), others.map(str::to_owned), &[])
        };
        assert_eq!(agreed("9462", ["9462", "", ""]).as_deref(), Some("9462"));
        // The star read as a digit by another reader still seconds it.
        assert_eq!(agreed("5751", ["45751", "", ""]).as_deref(), Some("5751"));
        assert_eq!(agreed("9462", ["", "", ""]), None);
        assert_eq!(agreed("9462", ["9467", "9467", "9467"]), None);
        assert_eq!(agreed("9462", ["119462", "", ""]), None);
        assert_eq!(
            agreed("", ["8678", "8678", "8678"]).as_deref(),
            Some("8678")
        );
        // Two readers alike are not enough: they share a misreading.
        assert_eq!(agreed("", ["5992", "3992", "5992"]), None);
        assert_eq!(agreed("", ["45751", "45751", "45751"]), None);
        // One reading of the whole card row seconds the raw line.
        let row = ["5757".to_owned(), "5751".to_owned()];
        assert_eq!(
            agreed_tail(
                "5751".to_owned(),
                ["".into(), "".into(), "751".into()],
                &row
            )
            .as_deref(),
            Some("5751")
        );
        assert_eq!(agreed("5751", ["", "", "751"]), None);
        assert_eq!(
            agreed_tail(
                "5751".to_owned(),
                ["".into(), "".into(), "".into()],
                &row[..1]
            ),
            None
        );
        assert_eq!(tail_digits("*9462\n"), "9462");
        assert_eq!(tail_digits("(5751 "), "5751");
        assert_eq!(tail_digits("院 5751"), "5751");
        assert_eq!(tail_digits("25751"), "25751");
        assert_eq!(tail_digits("S"), "");
    }

    #[test]
    fn a_card_row_the_digits_model_reads_as_nothing_is_read_at_half_size() {
        // The page read a dotted `0` as `9`; the digits model reads the
        // card row's crop as nothing, and half of it as the number.
        let mut page = garbled_mask_page();
        page.lines[4][4].0 = "9547";
        let ocr = SizedOcr {
            page,
            reads: vec![(700, ""), (350, "6200 **** **** 0547"), (0, "-762.65")],
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.screen, ScreenType::BankCard);
        assert_eq!(r.record.card_last4, "0547");
    }

    /// An Alipay bill's rows as the page read them, with the headline
    /// amount's row as `amount` and the card `(5633)`.
    fn alipay_rows(amount: Vec<(&'static str, i32, i32)>) -> Vec<Vec<(&'static str, i32, i32)>> {
        vec![
            vec![("账单详情", 20, 160)],
            vec![("示例店", 20, 120)],
            amount,
            vec![("交易成功", 20, 160)],
            vec![
                ("支付时间", 20, 160),
                ("2025-03-11", 200, 200),
                ("12:03:45", 420, 160),
            ],
            vec![("付款方式", 20, 160), ("招商银行信用卡(5633)", 200, 360)],
            vec![("商品说明", 20, 160), ("x", 200, 20)],
        ]
    }

    #[test]
    fn a_card_re_read_with_other_digits_and_no_last_four_empties_the_page_s() {
        // The page read `(5633)` for `(6633)`; the re-read of the card row
        // alone reads the bracket as a dash, `-6633`: no last four of its
        // own, but not the page's either.
        let ocr = BoxedOcr {
            lines: alipay_rows(vec![("-58.00", 20, 120)]),
            wide: "-6633",
            narrow: "-58.00",
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.screen, ScreenType::AlipayBill);
        assert_eq!(r.record.amount, "58.00");
        assert_eq!(r.record.card_last4, "");
        assert!(r.record.unreadable.contains(&"card_last4".to_owned()));
    }

    #[test]
    fn a_screen_amount_both_re_reads_read_alike_replaces_the_page_s() {
        // (page's amount row, both re-reads of its crop, amount taken)
        let cases = [
            // The page misread a digit; the re-reads agree on another.
            ("-32.01", "-32.61", "32.61"),
            // The page made `¥6` of `¥`; the re-reads show the sign apart.
            ("¥6089.94", "*689.94", "689.94"),
            // After a currency sign a re-read showing nothing before its
            // digits may have read the sign as one (`95.10` for `¥55.10`).
            ("¥55.10", "95.10", ""),
        ];
        for (page, reread, want) in cases {
            let ocr = BoxedOcr {
                lines: alipay_rows(vec![(page, 20, 100)]),
                wide: "(5633)",
                narrow: reread,
            };
            let r = Recognizer::new(ocr)
                .recognize_image("a.png", &blank())
                .unwrap();
            assert_eq!(r.screen, ScreenType::AlipayBill, "{page}");
            assert_eq!(r.record.amount, want, "{page} re-read as {reread}");
        }
    }

    #[test]
    fn a_page_amount_the_page_model_reads_alone_stands_against_both_re_reads() {
        // Both digits-model re-reads read a light `7` as `1`; the page
        // model reading the crop alone as one line reads `-705.00`.
        let ocr = RawLineOcr {
            page: BoxedOcr {
                lines: alipay_rows(vec![("-705.00", 20, 100)]),
                wide: "(5633)",
                narrow: "-105.00",
            },
            row: "-705.00",
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.screen, ScreenType::AlipayBill);
        assert_eq!(r.record.amount, "705.00");
    }

    /// [`BoxedOcr`]'s page for a page-sized image, `row` for a row's crop
    /// read with the page model (a date row's re-read).
    struct DateRowOcr {
        page: BoxedOcr,
        row: &'static str,
    }

    impl Ocr for DateRowOcr {
        fn recognize(&self, image: &GrayImage, mode: PageMode) -> Result<OcrPage, PaymentsError> {
            if mode != PageMode::Digits && image.height() < 200 {
                return Ok(OcrPage::from_text(self.row));
            }
            self.page.recognize(image, mode)
        }
    }

    /// [`BoxedOcr`]'s pages, with a raw line read (a row read alone)
    /// answered by `row`: a block read of the row reads the page.
    struct RawLineOcr {
        page: BoxedOcr,
        row: &'static str,
    }

    impl Ocr for RawLineOcr {
        fn recognize(&self, image: &GrayImage, mode: PageMode) -> Result<OcrPage, PaymentsError> {
            if mode == PageMode::Line {
                return Ok(OcrPage::from_text(self.row));
            }
            self.page.recognize(image, mode)
        }
    }

    /// A bank screen whose card row the page read as `card`, a row of
    /// words (or a bare label and the number's line under it).
    fn garbled_card_page(card: Vec<Vec<(&'static str, i32, i32)>>) -> BoxedOcr {
        let mut lines = bank_rows("-762.65", "2025-11-28", "22:49:24");
        // [`bank_rows`]' fourth row is its card's.
        lines.splice(3..4, card);
        // The digits model reads the card row as no card at all.
        BoxedOcr {
            lines,
            wide: "-762.65",
            narrow: "-762.65",
        }
    }

    #[test]
    fn a_card_row_the_page_garbled_is_read_alone_as_one_line() {
        let dotted_zero = || {
            garbled_card_page(vec![vec![
                ("卡号", 20, 80),
                ("6200", 200, 80),
                ("冰沙沙沙沙六", 300, 160),
                ("90526", 480, 100),
            ]])
        };
        let read = |page, row| {
            Recognizer::new(RawLineOcr { page, row })
                .recognize_image("a.png", &blank())
                .unwrap()
        };
        let r = read(dotted_zero(), "6200 **** **** 0526");
        assert_eq!(r.screen, ScreenType::BankCard);
        assert_eq!(r.record.card_last4, "0526");
        assert!(!r.record.unreadable.contains(&"card_last4".to_owned()));
        // The number under a bare label, its last four read as three.
        let under_label = garbled_card_page(vec![
            vec![("卡号", 20, 80)],
            vec![
                ("6200", 200, 80),
                ("洒水炒米", 300, 120),
                ("沙洲沙洲", 440, 120),
                ("219", 580, 60),
            ],
        ]);
        assert_eq!(
            read(under_label, "6200 ee www 6219").record.card_last4,
            "6219"
        );
        // Four digits the page's reading does not end with: a new card,
        // not a second look. The last four stays empty.
        let r = read(dotted_zero(), "6200 **** **** 7788");
        assert_eq!(r.record.card_last4, "");
        assert!(r.record.unreadable.contains(&"card_last4".to_owned()));
    }

    #[test]
    fn a_card_number_read_under_a_bare_label_is_re_read_from_its_own_line() {
        // Its stars read as ideographs, the line is no bare number; the
        // crop of it, re-read, names other four.
        let mut page = garbled_card_page(vec![
            vec![("卡号", 20, 80)],
            vec![
                ("6200", 200, 80),
                ("玉玉水炒", 300, 120),
                ("水玉玉炒", 440, 120),
                ("1209", 580, 60),
            ],
        ]);
        page.wide = "6200******1269";
        let r = Recognizer::new(page)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.screen, ScreenType::BankCard);
        assert_ne!(r.record.card_last4, "1209");
    }

    /// A blank screen with one row of glyph-like blocks low on it, where
    /// no line of [`garbled_card_page`] lies: a line the page left out.
    fn page_with_a_left_out_line() -> DynamicImage {
        let mut gray = GrayImage::from_pixel(390, 844, image::Luma([255]));
        for glyph in 0..12 {
            for y in 700..716 {
                for x in 0..8 {
                    gray.put_pixel(60 + glyph * 12 + x, y, image::Luma([0]));
                }
            }
        }
        DynamicImage::ImageLuma8(gray)
    }

    #[test]
    fn a_headline_the_page_left_out_is_read_as_one_line() {
        let page = || {
            let mut page =
                garbled_card_page(vec![vec![("卡号", 20, 80), ("6200****4228", 200, 240)]]);
            page.lines.remove(1);
            page
        };
        let read = |row| {
            Recognizer::new(RawLineOcr { page: page(), row })
                .recognize_image("a.png", &page_with_a_left_out_line())
                .unwrap()
        };
        let r = read("-185.00 元");
        assert_eq!(r.screen, ScreenType::BankCard);
        assert_eq!(r.record.amount, "185.00");
        assert!(!r.record.unreadable.contains(&"amount".to_owned()));
        // A figure written without a sign or currency may be a balance.
        assert_eq!(read("185.00").record.amount, "");
    }

    /// [`BoxedOcr`]'s pages, with the lines the page left out (a small
    /// image read by the page's model) read as `words`, and the digits
    /// model's read right after it as `digits`.
    struct MissedWordsOcr {
        page: BoxedOcr,
        words: &'static str,
        digits: &'static str,
        words_read: std::cell::Cell<bool>,
    }

    impl Ocr for MissedWordsOcr {
        fn recognize(&self, image: &GrayImage, mode: PageMode) -> Result<OcrPage, PaymentsError> {
            let text = match mode {
                PageMode::Block if image.height() < 400 => {
                    self.words_read.set(true);
                    self.words
                }
                PageMode::Digits if self.words_read.replace(false) => self.digits,
                _ => return self.page.recognize(image, mode),
            };
            // One line across the middle of the stacked words.
            let top = image.height() / 2 - 10;
            let mut tsv = String::from("header\n");
            for (j, word) in text.split_whitespace().enumerate() {
                let left = 20 + 120 * j;
                tsv.push_str(&format!(
                    "5\t1\t1\t1\t1\t{}\t{left}\t{top}\t100\t20\t95\t{word}\n",
                    j + 1
                ));
            }
            Ok(OcrPage::from_tsv(&tsv))
        }
    }

    #[test]
    fn a_card_number_left_out_under_its_read_label_is_read_word_by_word() {
        let read = |digits| {
            // The page read `卡号` alone and left the number's line out.
            let page = garbled_card_page(vec![vec![("卡号", 20, 80)]]);
            let ocr = MissedWordsOcr {
                page,
                words: "6200 **** **** 1342",
                digits,
                words_read: std::cell::Cell::new(false),
            };
            Recognizer::new(ocr)
                .recognize_image("a.png", &page_with_a_left_out_line())
                .unwrap()
        };
        let r = read("6200 2222 2222 1342");
        assert_eq!(r.screen, ScreenType::BankCard);
        assert_eq!(r.record.card_last4, "1342");
        // The digits model must end the line with the same four.
        assert_eq!(read("6200 2222 2222 1348").record.card_last4, "");
    }

    #[test]
    fn a_card_number_the_page_misread_as_other_digit_groups_is_read_word_by_word() {
        // The page read a bold monospaced `6200 0000 0000 0009 480` (its
        // dotted zeros as `60`) as digit groups no card has, on the fourth
        // row (y 220..250), where the screen shows five words of ink (10
        // px apart: one piece to the word-by-word reader).
        // A screen 1000 px wide is read at its size.
        let mut gray = GrayImage::from_pixel(1000, 2000, image::Luma([255]));
        for word in 0..5 {
            for x in 0..50 {
                for y in 225..245 {
                    gray.put_pixel(20 + word * 60 + x, y, image::Luma([0]));
                }
            }
        }
        let read = |digits| {
            let page = garbled_card_page(vec![vec![
                ("62600", 20, 50),
                ("60000", 80, 50),
                ("9000", 140, 50),
                ("0009", 200, 50),
                ("489", 260, 50),
            ]]);
            let ocr = MissedWordsOcr {
                page,
                words: "6200 0000 0000 0009 480",
                digits,
                words_read: std::cell::Cell::new(false),
            };
            Recognizer::new(ocr)
                .recognize_image("a.png", &DynamicImage::ImageLuma8(gray.clone()))
                .unwrap()
        };
        let r = read("6200 0000 0000 0009 480");
        assert_eq!(r.screen, ScreenType::BankCard);
        assert_eq!(r.record.card_last4, "9480");
        assert_eq!(r.record.card_number, "6200000000000009480");
        // The digits model must read the same number.
        assert_eq!(read("6200 0000 0000 0009 486").record.card_last4, "");
    }

    #[test]
    fn a_success_page_paid_by_card_has_its_card_row_re_read() {
        let ocr = BoxedOcr {
            lines: vec![
                vec![("支付成功", 400, 160)],
                vec![("测试咖啡", 400, 160)],
                vec![("¥4214.00", 380, 200)],
                vec![
                    ("支付方式", 20, 160),
                    ("中国工商银行信用卡", 420, 340),
                    ("(667])", 780, 120),
                ],
                vec![("收款方", 20, 120), ("测试餐饮服务有限公司", 420, 400)],
            ],
            wide: "-6671",
            narrow: "-6671",
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.screen, ScreenType::WechatSuccess);
        assert_eq!(r.record.card_bank, "中国工商银行");
        assert_eq!(r.record.card_last4, "6671");
    }

    #[test]
    fn a_re_read_fills_in_a_glyph_the_page_misread() {
        assert!(fills_misread_glyph(
            "支付方式 中国工商银行信用卡 (667])",
            "6671"
        ));
        assert!(fills_misread_glyph(
            "支付方式 招商银行储蓄卡 (0g35)",
            "0835"
        ));
        // Two glyphs misread, a digit read otherwise, or no four: no.
        assert!(!fills_misread_glyph(
            "支付方式 招商银行储蓄卡 (0g3])",
            "0835"
        ));
        assert!(!fills_misread_glyph(
            "支付方式 招商银行储蓄卡 (6672)",
            "6671"
        ));
        assert!(!fills_misread_glyph(
            "支付方式 招商银行储蓄卡 (667)",
            "6671"
        ));
        assert!(!fills_misread_glyph(
            "支付方式 招商银行储蓄卡 (667])",
            "667"
        ));
    }

    #[test]
    fn three_digits_after_a_mask() {
        assert_eq!(three_after_mask("5 6200********225"), Some("225"));
        assert_eq!(three_after_mask("2 6200********-225"), Some("225"));
        assert_eq!(three_after_mask("6200********0225"), None);
        assert_eq!(three_after_mask("6200 **** 225 1"), None);
        assert_eq!(three_after_mask("225"), None);
    }

    #[test]
    fn a_page_s_card_row_holds_a_re_read_s_last_four() {
        assert!(holds_last4("卡号 6200 冰沙沙沙沙六 90526", "0526"));
        assert!(holds_last4("6200 洒水炒米 沙洲沙洲 219", "6219"));
        assert!(!holds_last4("6200 洒水炒米 沙洲沙洲 219", "6218"));
        assert!(!holds_last4("6200 洒水炒米 沙洲沙洲 19", "6219"));
        assert!(!holds_last4("卡号 沙洲", "6219"));
        assert!(!holds_last4("卡号 6200 0526", "526"));
        assert!(holds_last4("卡号 6200 冰冰冰 9225", "0225"));
        assert!(!holds_last4("卡号 6200 冰冰冰 9225", "8225"));
        assert!(!holds_last4("卡号 6200 冰冰冰 0225", "9225"));
        // A bare label takes the number's line under it, never another row.
        let page = OcrPage::from_text("卡号\n6200 洒水炒米 沙洲沙洲 219\n交易类型 消费");
        let row = card_number_row(&page.lines).map(|l| l.text.clone());
        assert_eq!(row.as_deref(), Some("6200 洒水炒米 沙洲沙洲 219"));
        let page = OcrPage::from_text("卡号\n交易类型 消费");
        assert!(card_number_row(&page.lines).is_none());
    }

    /// A bank screen's rows with the amount, date and time as the page
    /// read them.
    fn bank_rows(
        amount: &'static str,
        date: &'static str,
        time: &'static str,
    ) -> Vec<Vec<(&'static str, i32, i32)>> {
        vec![
            vec![("交易详情", 20, 160)],
            vec![("交易金额", 20, 160), (amount, 200, 160)],
            vec![("交易时间", 20, 160), (date, 200, 240), (time, 460, 160)],
            vec![("卡号", 20, 80), ("6200****4228", 200, 240)],
            vec![("交易类型", 20, 160), ("消费", 200, 80)],
            vec![("交易渠道", 20, 160), ("快捷支付", 200, 160)],
        ]
    }

    /// A bank screen whose date row the page read with its ideographs as
    /// digits (`2025年11月28日` as `202542119288`).
    fn garbled_date_page() -> BoxedOcr {
        BoxedOcr {
            lines: bank_rows("-762.65", "202542119288", "22:49:24"),
            wide: "6200****4228",
            narrow: "-762.65",
        }
    }

    #[test]
    fn a_date_row_the_page_garbled_is_re_read_alone() {
        let ocr = DateRowOcr {
            page: garbled_date_page(),
            row: "交易时间: 2025年11月28日 22:49:24",
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.screen, ScreenType::BankCard);
        assert_eq!(r.record.date, "2025/11/28");
        assert_eq!(r.record.time, "22:49:24");
        // A re-read naming a date the page's digits do not hold in order
        // (`2024/01/08`) is no second look: the date stays empty.
        let ocr = DateRowOcr {
            page: garbled_date_page(),
            row: "交易时间: 2024年1月8日 22:49:24",
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.record.date, "");
        assert!(r.record.unreadable.contains(&"date".to_owned()));
        // A row only a raw line read reads.
        let ocr = RawLineOcr {
            page: garbled_date_page(),
            row: "交易时间: 2025年11月28日 22:49:24",
        };
        let r = Recognizer::new(ocr)
            .recognize_image("a.png", &blank())
            .unwrap();
        assert_eq!(r.record.date, "2025/11/28");
    }

    /// A bank screen with a bare date label over its date, which the page
    /// read with its dotted zeros as `8`s.
    fn date_under_label_page() -> BoxedOcr {
        let mut lines = bank_rows("-762.65", "", "");
        lines.splice(
            2..3,
            [
                vec![("交易时间", 20, 160)],
                vec![("2624/88/13", 20, 240), ("20:28:49", 280, 160)],
            ],
        );
        BoxedOcr {
            lines,
            wide: "6200****4228",
            narrow: "-762.65",
        }
    }

    #[test]
    fn a_date_under_a_bare_label_is_re_read_with_its_dots_out() {
        let read = |row| {
            Recognizer::new(DateRowOcr {
                page: date_under_label_page(),
                row,
            })
            .recognize_image("a.png", &blank())
            .unwrap()
            .record
        };
        let r = read("2024/08/13 20:28:49");
        assert_eq!(r.date, "2024/08/13");
        assert_eq!(r.time, "20:28:49");
        // A re-read with a digit more or less than the page read on the
        // row reads other glyphs: no date.
        assert_eq!(read("2024/08/13 20:28:491").date, "");
        assert_eq!(read("2024/8/13 20:28:49").date, "");
    }

    #[test]
    fn date_rows_and_digit_order() {
        assert!(is_date_row("交易时间 : 202542119288 22:49:24"));
        assert!(is_date_row("DATE/TIME 2025/11/28"));
        assert!(!is_date_row("有效期 EXP DATE 2028/11"));
        assert!(!is_date_row("退款时间 2025-09-22 08:20:15"));
        assert!(!is_date_row("交易时间 昨天"));
        let printed = |read, y, m, d| printed_date(read, date::Date::new(y, m, d).unwrap());
        let holds = |page, read, (y, m, d)| page_holds_date(page, &printed(read, y, m, d).unwrap());
        assert_eq!(
            printed("2025年1月5日", 2025, 1, 5),
            Some(["2025", "1", "5"].map(String::from))
        );
        assert_eq!(
            printed("20250105", 2025, 1, 5),
            Some(["2025", "01", "05"].map(String::from))
        );
        // A day the reading did not finish.
        assert_eq!(printed("2024 年 09 月 1o 日", 2024, 9, 1), None);
        assert_eq!(
            zeros_for_letters("2024 年 09 月 1o 日"),
            "2024 年 09 月 10 日"
        );
        assert_eq!(zeros_for_letters("Oct o 12"), "Oct o 12");
        assert!(holds("2025421192882249", "2025年11月28日", (2025, 11, 28)));
        assert!(holds("20250110", "2025-01-10", (2025, 1, 10)));
        assert!(holds("20254195", "2025年1月5日", (2025, 1, 5)));
        assert!(!holds("2025421192882249", "2024年1月8日", (2024, 1, 8)));
        // `2024年09月10日` read `2024409108` by the page and `2024年09月01日`
        // alone: `01` is not in the page's digits after `09`.
        assert!(!holds("2024409108", "2024年09月01日", (2024, 9, 1)));
        assert!(holds("2024409108", "2024年09月10日", (2024, 9, 10)));
    }

    #[test]
    fn a_card_label_over_its_number_is_read_from_the_number_s_line() {
        let page = BoxedOcr {
            lines: vec![
                vec![("6", 20, 30), ("交通银行", 60, 160), ("交易卡号", 230, 160)],
                vec![
                    ("6206", 60, 80),
                    ("6006", 150, 80),
                    ("60000", 240, 100),
                    ("9295", 350, 80),
                ],
                vec![("交易卡号", 20, 160), ("98", 200, 40)],
                vec![("交易时间", 20, 160), ("2024-04-06", 200, 200)],
            ],
            wide: "",
            narrow: "",
        };
        let read = page
            .recognize(&GrayImage::new(1, 1), PageMode::Block)
            .unwrap();
        assert_eq!(number_under_label(&read.lines, 0).text, read.lines[1].text);
        // A value beside its label stays; a labelled row under it is no
        // card's number.
        assert_eq!(number_under_label(&read.lines, 2).text, read.lines[2].text);
    }

    /// A bank screen whose amount row the page read with its unit as a
    /// digit (`-762.65 元` as `-762.657`).
    fn garbled_amount_page(discount: bool) -> BoxedOcr {
        let mut lines = bank_rows("-762.657", "2024-01-24", "13:54:57");
        if discount {
            lines.push(vec![("优惠", 20, 80), ("立减", 120, 80)]);
        }
        BoxedOcr {
            lines,
            wide: "6200****4228",
            narrow: "",
        }
    }

    #[test]
    fn an_amount_row_the_page_garbled_is_re_read_alone() {
        let read = |page, row| {
            Recognizer::new(DateRowOcr { page, row })
                .recognize_image("a.png", &blank())
                .unwrap()
                .record
        };
        let r = read(garbled_amount_page(false), "交易金额 -762.65 元");
        assert_eq!(r.amount, "762.65");
        // Digits that differ inside the number, not by one at its end: no
        // second look at the page's.
        let r = read(garbled_amount_page(false), "交易金额 -792.65 元");
        assert_eq!(r.amount, "");
        // A page with a discount: its labelled amount may be the order's.
        let r = read(garbled_amount_page(true), "交易金额 -762.65 元");
        assert_eq!(r.amount, "");
        assert!(!is_unread_amount_row("可用余额 1,762.657"));
        assert!(!is_unread_amount_row("交易金额 -762.65"));
    }

    #[test]
    fn one_glyph_before_an_unsigned_amount() {
        assert_eq!(after_one_glyph("二 150.63"), Some(15063));
        assert_eq!(after_one_glyph(" 十 150.63 元"), Some(15063));
        // Digits, a word, or a signed amount: no glyph standing for a plus.
        assert_eq!(after_one_glyph("2 150.63"), None);
        assert_eq!(after_one_glyph("收入 150.63"), None);
        assert_eq!(after_one_glyph("二 -150.63"), None);
        assert_eq!(after_one_glyph("二 150.63 2024"), None);
    }

    #[test]
    fn a_slip_amount_s_row_is_found_past_the_slip_s_edge_read_as_a_bar() {
        let page = OcrPage::from_text("AMOUNT 金额 RMB |\n| 832.19 |\n持卡人签名");
        let (row, _) = amount_row_of(&page.lines, 83219, true).unwrap();
        assert_eq!(row.text, "| 832.19 |");
        // On a screen a bar before digits may be a `1` OCR misread.
        assert!(amount_row_of(&page.lines, 83219, false).is_none());
        let page = OcrPage::from_text("¥83.00\n支付方式 零钱");
        let (row, (currency, plus)) = amount_row_of(&page.lines, 8300, false).unwrap();
        assert_eq!(row.text, "¥83.00");
        assert!(currency && !plus);
    }

    #[test]
    fn a_slip_amount_whose_label_the_page_garbled_is_taken_when_its_row_names_it() {
        // A slip whose `金额：382.55 元` the page read as `#8: 382.55 7%`,
        // with the desk beside it read as `上` and dashed rules close above
        // and below the line, inside its box (rows 220 to 250).
        let page = BoxedOcr {
            lines: vec![
                vec![("POS签购单", 20, 200)],
                vec![("卡号", 20, 80), ("621700******9841", 120, 320)],
                vec![("交易时间", 20, 160), ("2025/07/19", 200, 200)],
                vec![
                    ("\\", 8, 25),
                    ("#8:", 118, 98),
                    ("382.55", 240, 128),
                    ("7%", 388, 35),
                    ("上", 741, 56),
                ],
            ],
            wide: "",
            narrow: "",
        };
        let mut gray = GrayImage::from_pixel(900, 400, image::Luma([255]));
        for x in 100..860 {
            for y in [221, 249] {
                if x % 12 < 7 {
                    gray.put_pixel(x, y, image::Luma([0]));
                }
            }
        }
        for x in 120..420 {
            for y in 228..244 {
                gray.put_pixel(x, y, image::Luma([0]));
            }
        }
        let read_page_of = |ocr: &BoxedOcr| {
            let text = ocr.recognize(&gray, PageMode::Block).unwrap();
            let pass = read_page("a.jpg", &text, PageMode::Block);
            (text, pass)
        };
        let reread = |row: &'static str| {
            let recognizer = Recognizer::new(DateRowOcr {
                page: page.clone(),
                row,
            });
            let (text, mut pass) = read_page_of(&page);
            assert_eq!(pass.screen, ScreenType::PosSlip);
            assert_eq!(pass.record.amount, "");
            recognizer
                .reread_amount_row(&gray, &text, &mut pass, false)
                .unwrap();
            pass.record.amount
        };
        assert_eq!(reread("金额 : 382.55 元"), "382.55");
        // The row read alone must name its figure an amount, and read the
        // page's figure.
        assert_eq!(reread("#8: 382.55 7%"), "");
        assert_eq!(reread("金额 : 382.56 元"), "");
        assert_eq!(reread("余额 : 382.55 元"), "");
        // The crop holds the label to the unit, on the line's own rows:
        // no rule, no desk.
        let line = &read_page_of(&page).0.lines[3];
        let crop = crop_amount_words(&gray, line, 38255, false).unwrap();
        assert!(crop.width() < 600, "{}", crop.width());
        // Every row with ink is the text block's (the rules are dashed).
        for row in crop.rows() {
            let ink = row.filter(|p| p.0[0] < 128).count();
            assert!(ink == 0 || ink * 10 >= crop.width() as usize * 8, "{ink}");
        }
        assert_eq!(
            amount_after_garbled_label("| All : 10.42 元 iN"),
            Some(1042)
        );
        // A label read as ideographs, or a number with no cents: no
        // amount's row.
        assert_eq!(amount_after_garbled_label("参考号 : 455459747688"), None);
        assert_eq!(amount_after_garbled_label("2 : 455459747688"), None);
        assert_eq!(amount_after_garbled_label("批次号 : 869.109"), None);
    }
}
