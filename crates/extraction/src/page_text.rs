//! The positioned text of each PDF page: the text layer, with runs whose glyphs have no usable
//! mapping read again from the page image by the caller's OCR engine (or dropped when there is
//! none), and pages without any text read whole by OCR.

use crate::geometry::{Page, Run};
use crate::junk;
use crate::ocr::{OcrLine, PageReader, PageRef, Region};
use crate::text;
use crate::vocabulary;

/// Glyph box above and below the baseline, as fractions of the font size (as in geometry).
const ASCENT: f32 = 0.8;
const DESCENT: f32 = 0.2;

/// Pages of a document OCR may read (an invoice has one or two; a long sales list after them
/// needs no repair to give the record): a PDF of hundreds of junk pages costs seconds, not
/// minutes.
const MAX_OCR_PAGES: usize = 4;
/// Groups of junk runs a page may have read again; more is not a form's labels.
const MAX_GROUPS: usize = 150;

/// Where a document's text came from, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum TextSource {
    Layer,
    /// The text layer, its unmapped runs read again by OCR.
    Repaired,
    /// OCR of a page without a text layer.
    Ocr,
}

impl TextSource {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            TextSource::Layer => "",
            TextSource::Repaired => "ocr-repaired",
            TextSource::Ocr => "ocr",
        }
    }
}

/// Every page's runs, and the weakest source any page needed.
pub(crate) fn pages(
    pdf: &[u8],
    doc: &pdf_text::Document,
    reader: Option<&dyn PageReader>,
) -> (Vec<Page>, TextSource) {
    let mut source = TextSource::Layer;
    let pages = doc
        .pages
        .iter()
        .enumerate()
        .map(|(index, p)| {
            let (page, how) = page(pdf, index, p, reader);
            source = source.max(how);
            page
        })
        .collect();
    (pages, source)
}

fn page(
    pdf: &[u8],
    index: usize,
    p: &pdf_text::Page,
    reader: Option<&dyn PageReader>,
) -> (Page, TextSource) {
    let mut page = Page::from_text_layer(p);
    let at = PageRef {
        index,
        width: p.width,
        height: p.height,
    };
    let mut how = TextSource::Layer;
    let groups = groups(&page, &junk::junk_runs(&page));
    let reader = reader.filter(|_| index < MAX_OCR_PAGES && groups.len() <= MAX_GROUPS);
    if let (false, Some(reader)) = (groups.is_empty(), reader) {
        let regions: Vec<Region> = groups.iter().map(|g| region_of_group(&page, g)).collect();
        if let Ok(texts) = reader.read_regions(pdf, at, &regions, &vocabulary::label_alphabet()) {
            for (group, readings) in groups.iter().zip(texts) {
                let read = choose(&page, group, &readings);
                spread(&mut page, group, &read);
            }
            how = TextSource::Repaired;
        }
    }
    junk::strip(&mut page);
    if page.runs.is_empty()
        && let Some(reader) = reader
        && let Ok(lines) = reader.read_page(pdf, at)
    {
        page.runs = lines.iter().filter_map(run_of).collect();
        if !page.runs.is_empty() {
            how = TextSource::Ocr;
        }
    }
    (page, how)
}

/// Junk runs that sit side by side on one baseline with no readable run between them: read
/// as one crop, so that a label's glyphs are recognised in context (a lone `:` or `额` is
/// easily taken for something else).
fn groups(page: &Page, junk: &[usize]) -> Vec<Vec<usize>> {
    let same_line = |a: &Run, b: &Run| {
        (a.y - b.y).abs() < 0.3 * a.size.min(b.size) && (a.size - b.size).abs() < 0.2 * a.size
    };
    let mut order: Vec<usize> = junk.to_vec();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (&page.runs[a], &page.runs[b]);
        ra.y.total_cmp(&rb.y).then(ra.x.total_cmp(&rb.x))
    });
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in order {
        let run = &page.runs[i];
        let joins = groups.iter_mut().find(|g| {
            g.last().is_some_and(|&last| {
                let prev = &page.runs[last];
                same_line(prev, run)
                    && run.x >= prev.x
                    && run.x - prev.end_x < 2.0 * run.size
                    && !page.runs.iter().enumerate().any(|(k, r)| {
                        !junk.contains(&k)
                            && same_line(r, run)
                            && r.x >= prev.end_x - 0.1
                            && r.end_x <= run.x + 0.1
                    })
            })
        });
        match joins {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups
}

/// The box around a group's runs.
fn region_of_group(page: &Page, group: &[usize]) -> Region {
    group
        .iter()
        .map(|&i| region_of(&page.runs[i]))
        .reduce(|a, b| Region {
            x0: a.x0.min(b.x0),
            top: a.top.min(b.top),
            x1: a.x1.max(b.x1),
            bottom: a.bottom.max(b.bottom),
        })
        .unwrap_or(Region {
            x0: 0.0,
            top: 0.0,
            x1: 0.0,
            bottom: 0.0,
        })
}

/// How many glyphs the layer drew for a run.
fn glyph_count(run: &Run) -> usize {
    run.text.chars().filter(|c| !c.is_whitespace()).count()
}

/// A reading as the layer's text is compared: normalised, without whitespace, and without the
/// bars that table rules beside a label come out as (no label has one).
fn cleaned(read: &str) -> String {
    text::normalize(&text::compact(read))
        .chars()
        .filter(|c| !matches!(c, '|' | '丨' | '｜'))
        .collect()
}

/// The reading of a group to keep: among the best kind present (of the group's glyph count and
/// part of a known label; else part of a label; else of the right length; else any), the one
/// most readings agree on, the most trusted first among equals.
fn choose(page: &Page, group: &[usize], readings: &[String]) -> String {
    let glyphs: usize = group.iter().map(|&i| glyph_count(&page.runs[i])).sum();
    let clean = |r: &String| cleaned(r);
    let fits = |r: &String| clean(r).chars().count() == glyphs;
    let label = |r: &String| !r.is_empty() && vocabulary::is_label_part(&clean(r));
    // Layers count spaces drawn as glyphs too: a label of another length still beats a
    // misreading or nothing.
    let tier = |r: &String| match (fits(r), label(r), r.is_empty()) {
        (true, true, _) => 0,
        (false, true, _) => 1,
        (true, false, _) => 2,
        (false, false, false) => 3,
        (false, false, true) => 4,
    };
    let best = readings.iter().map(tier).min().unwrap_or(4);
    let candidates: Vec<&String> = readings.iter().filter(|r| tier(r) == best).collect();
    // The reading most of the engine's passes agree on; the most trusted among equals.
    candidates
        .iter()
        .max_by_key(|r| {
            let votes = candidates.iter().filter(|o| clean(o) == clean(r)).count();
            let first = candidates
                .iter()
                .position(|o| o == *r)
                .unwrap_or(usize::MAX);
            (votes, usize::MAX - first)
        })
        .map(|r| (*r).clone())
        .unwrap_or_default()
}

/// Puts what OCR read for a group back into its runs, glyph for glyph: the layer knows how
/// many glyphs each run drew. A reading of another length cannot be split truthfully; it goes
/// to the first run, cut to the group's glyph count (a longer one took in a neighbour's edge,
/// often the value's first digit).
fn spread(page: &mut Page, group: &[usize], read: &str) {
    let counts: Vec<usize> = group.iter().map(|&i| glyph_count(&page.runs[i])).collect();
    let total: usize = counts.iter().sum();
    let read: Vec<char> = cleaned(read).chars().collect();
    let mut at = 0usize;
    for (k, (&i, &count)) in group.iter().zip(&counts).enumerate() {
        let take = if read.len() == total {
            count
        } else if k == 0 {
            total
        } else {
            0
        };
        let end = (at + take).min(read.len());
        let piece: String = read.get(at..end).unwrap_or_default().iter().collect();
        at = end;
        if let Some(run) = page.runs.get_mut(i) {
            run.text = separator_or(piece);
        }
    }
}

/// A repaired run is label text (the values of such layers are mapped): one read without any
/// letter or ideograph is the label's separator, whatever marks OCR made of it (`):`, `2`).
fn separator_or(piece: String) -> String {
    if piece.is_empty() || piece.chars().any(text::is_cjk) {
        piece
    } else {
        ":".to_owned()
    }
}

/// The box a run's glyphs occupy.
fn region_of(run: &Run) -> Region {
    Region {
        x0: run.x,
        top: run.y - ASCENT * run.size,
        x1: run.end_x,
        bottom: run.y + DESCENT * run.size,
    }
}

/// A run from a line an OCR engine read: its box's height is the font size.
fn run_of(line: &OcrLine) -> Option<Run> {
    let text = text::compact(&line.text);
    let r = line.region;
    let size = r.bottom - r.top;
    (!text.is_empty() && size > 0.0)
        .then(|| Run::new(&text, r.x0, r.bottom - DESCENT * size, r.x1, size))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn junk(n: usize, x: f32, y: f32) -> Run {
        Run::new(&"\u{FFFD}".repeat(n), x, y, x + 9.0 * n as f32, 9.0)
    }

    #[test]
    fn neighbouring_junk_runs_are_read_together_and_split_by_glyphs() {
        let mut page = Page {
            width: 600.0,
            height: 400.0,
            runs: vec![
                junk(4, 400.0, 40.0),
                junk(1, 437.0, 40.0),
                Run::new("87724080", 448.0, 40.0, 490.0, 9.0),
                junk(1, 500.0, 40.0),
                junk(1, 20.0, 80.0),
            ],
        };
        let groups = groups(&page, &[0, 1, 3, 4]);
        assert_eq!(groups, [vec![0, 1], vec![3], vec![4]]);
        spread(&mut page, &groups[0], "发票号码：");
        assert_eq!(
            (page.runs[0].text.as_str(), page.runs[1].text.as_str()),
            ("发票号码", ":")
        );
        spread(&mut page, &groups[1], "发票(8");
        assert_eq!(page.runs[3].text, "发");
        spread(&mut page, &[0, 1], "发票号码");
        assert_eq!(
            (page.runs[0].text.as_str(), page.runs[1].text.as_str()),
            ("发票号码", "")
        );
    }

    /// Counts what it is asked to read.
    #[derive(Default)]
    struct Counting(std::cell::Cell<usize>);

    impl PageReader for Counting {
        fn read_regions(
            &self,
            _: &[u8],
            _: PageRef,
            regions: &[Region],
            _: &str,
        ) -> Result<Vec<Vec<String>>, String> {
            self.0.set(self.0.get() + regions.len());
            Ok(vec![vec!["名称".to_owned()]; regions.len()])
        }
        fn read_page(&self, _: &[u8], _: PageRef) -> Result<Vec<OcrLine>, String> {
            self.0.set(self.0.get() + 1);
            Ok(Vec::new())
        }
        fn read_line(&self, _: &crate::ocr::LineImage) -> Result<String, String> {
            Ok(String::new())
        }
    }

    fn pdf_page(runs: usize) -> pdf_text::Page {
        pdf_text::Page {
            width: 600.0,
            height: 400.0,
            runs: (0..runs)
                .map(|i| pdf_text::TextRun {
                    text: "\u{FFFD}\u{FFFD}".into(),
                    // Far enough apart to be read one by one.
                    x: (i % 10) as f32 * 60.0,
                    y: 10.0 + (i / 10) as f32 * 12.0,
                    end_x: (i % 10) as f32 * 60.0 + 18.0,
                    font_size: 9.0,
                })
                .collect(),
        }
    }

    #[test]
    fn ocr_is_bounded_by_pages_and_groups() {
        let reader = Counting::default();
        let (page, how) = page(b"", 0, &pdf_page(40), Some(&reader));
        assert_eq!((reader.0.get(), how), (40, TextSource::Repaired));
        assert_eq!(page.runs.len(), 40);
        let reader = Counting::default();
        let (page_after, _) = super::page(b"", MAX_OCR_PAGES, &pdf_page(40), Some(&reader));
        assert_eq!(reader.0.get(), 0, "pages past the first few are not read");
        assert!(page_after.runs.is_empty(), "their junk is dropped");
        let reader = Counting::default();
        let _ = super::page(b"", 0, &pdf_page(MAX_GROUPS + 1), Some(&reader));
        assert_eq!(
            reader.0.get(),
            0,
            "a page of junk beyond a form's labels is not read"
        );
    }

    #[test]
    fn the_reading_that_fits_is_kept() {
        // (glyphs in the layer, readings most trusted first, kept, why)
        let cases: &[(usize, &[&str], &str, &str)] = &[
            (2, &["金”", "金额"], "金额", "a label beats a misreading"),
            (2, &["", "税率"], "税率", "something beats nothing"),
            (2, &["税额", "税率"], "税额", "the first of two labels"),
            (2, &["金”", "全计"], "金”", "the right length"),
            (2, &["", "金"], "金", "a label of another length"),
            (1, &["广", "方", "方"], "方", "the majority"),
            (1, &["合", "", "人"], "合", "the most trusted"),
        ];
        for (glyphs, readings, want, why) in cases {
            let page = Page {
                width: 600.0,
                height: 400.0,
                runs: vec![junk(*glyphs, 400.0, 40.0)],
            };
            let readings: Vec<String> = readings.iter().map(|s| (*s).to_owned()).collect();
            assert_eq!(choose(&page, &[0], &readings), *want, "{why}");
        }
    }

    #[test]
    fn runs_and_regions_round_trip() {
        let run = Run::new("发票号码:", 100.0, 50.0, 140.0, 10.0);
        let region = region_of(&run);
        assert_eq!((region.top, region.bottom), (42.0, 52.0));
        let back = run_of(&OcrLine {
            text: "发票 号码:".into(),
            region,
        })
        .unwrap();
        assert_eq!(back.text, "发票号码:");
        assert!((back.y - 50.0).abs() < 1e-3 && (back.size - 10.0).abs() < 1e-3);
    }
}
