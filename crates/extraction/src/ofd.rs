//! OFD (a zip of XML parts): OFD.xml → DocBody/DocRoot → Document.xml → pages and their
//! templates → TextObjects, turned into positioned runs (mm → pt) the layouts read like a
//! PDF's. Also yields OFD.xml's CustomData and any embedded 数电 XML as witnesses.

use crate::crosscheck::Witness;
use crate::date;
use crate::dom::{self, Element};
use crate::error::ExtractError;
use crate::geometry::{Page, Run};
use crate::text;
use std::io::{Cursor, Read};

/// Points per millimetre.
const PT_PER_MM: f32 = 72.0 / 25.4;
/// Largest part read from the archive (an invoice's parts are a few kB).
const MAX_PART: u64 = 16 * 1024 * 1024;
/// Glyph advances kept per text code (no real text code is this long).
const MAX_DELTAS: usize = 100_000;
/// Pages read at most.
const MAX_PAGES: usize = 200;

/// What an OFD file yields.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct OfdDoc {
    pub pages: Vec<Page>,
    /// OFD.xml CustomData (发票号码, 开票日期, 合计金额, 合计税额).
    pub meta: Witness,
    /// An embedded 数电 XML, parsed.
    pub embedded: Option<Element>,
}

struct Archive {
    zip: zip::ZipArchive<Cursor<Vec<u8>>>,
    names: Vec<String>,
}

impl Archive {
    fn open(bytes: &[u8]) -> Result<Self, ExtractError> {
        let zip = zip::ZipArchive::new(Cursor::new(bytes.to_vec()))
            .map_err(|e| ExtractError::Malformed(format!("OFD 压缩包无法打开：{e}")))?;
        let names = zip.file_names().map(str::to_owned).collect();
        Ok(Self { zip, names })
    }

    /// Reads a part by path, ignoring a leading `/` and letter case.
    fn read(&mut self, path: &str) -> Option<Vec<u8>> {
        let wanted = path.trim_start_matches('/');
        let name = self
            .names
            .iter()
            .find(|n| n.as_str() == wanted)
            .or_else(|| self.names.iter().find(|n| n.eq_ignore_ascii_case(wanted)))?
            .clone();
        let file = self.zip.by_name(&name).ok()?;
        let mut out = Vec::new();
        file.take(MAX_PART).read_to_end(&mut out).ok()?;
        Some(out)
    }

    fn xml(&mut self, path: &str) -> Option<Element> {
        dom::parse(&self.read(path)?).ok()
    }
}

/// `dir/` of a part path, for resolving the relative paths inside it.
fn dir_of(path: &str) -> &str {
    path.rfind('/').and_then(|i| path.get(..=i)).unwrap_or("")
}

fn resolve(base_dir: &str, loc: &str) -> String {
    let loc = loc.trim();
    if let Some(abs) = loc.strip_prefix('/') {
        return abs.to_owned();
    }
    let mut parts: Vec<&str> = base_dir.split('/').filter(|p| !p.is_empty()).collect();
    for seg in loc.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

fn numbers(s: &str) -> Vec<f32> {
    s.split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect()
}

/// Parses an OFD file.
pub(crate) fn read(bytes: &[u8]) -> Result<OfdDoc, ExtractError> {
    let mut ar = Archive::open(bytes)?;
    let root = ar
        .xml("OFD.xml")
        .ok_or_else(|| ExtractError::Malformed("OFD 缺少 OFD.xml".to_owned()))?;
    let doc_path = root
        .text_of("DocRoot")
        .map(|p| resolve("", p))
        .ok_or_else(|| ExtractError::Malformed("OFD.xml 缺少 DocRoot".to_owned()))?;
    let meta = custom_data(&root);
    let document = ar
        .xml(&doc_path)
        .ok_or_else(|| ExtractError::Malformed(format!("OFD 缺少 {doc_path}")))?;
    let doc_dir = dir_of(&doc_path).to_owned();
    let default_box = document
        .find("CommonData")
        .and_then(|c| c.text_of("PhysicalBox"))
        .map(numbers)
        .unwrap_or_default();
    let templates: Vec<(String, String)> = {
        let mut t = Vec::new();
        document.find_all("TemplatePage", &mut t);
        t.iter()
            .filter_map(|e| Some((e.attr("ID")?.to_owned(), e.attr("BaseLoc")?.to_owned())))
            .collect()
    };
    let mut page_refs = Vec::new();
    if let Some(pages) = document.find("Pages") {
        pages.find_all("Page", &mut page_refs);
    }
    let mut pages = Vec::new();
    for page_ref in page_refs.iter().take(MAX_PAGES) {
        let Some(loc) = page_ref.attr("BaseLoc") else {
            continue;
        };
        let path = resolve(&doc_dir, loc);
        let Some(content) = ar.xml(&path) else {
            continue;
        };
        let physical = content
            .text_of("PhysicalBox")
            .map(numbers)
            .unwrap_or_else(|| default_box.clone());
        let mut runs = Vec::new();
        let mut tpl_refs = Vec::new();
        content.find_all("Template", &mut tpl_refs);
        for tpl in tpl_refs {
            let Some(id) = tpl.attr("TemplateID") else {
                continue;
            };
            let Some((_, tpl_loc)) = templates.iter().find(|(tid, _)| tid == id) else {
                continue;
            };
            if let Some(tpl_content) = ar.xml(&resolve(&doc_dir, tpl_loc)) {
                text_runs(&tpl_content, &mut runs);
            }
        }
        text_runs(&content, &mut runs);
        pages.push(Page {
            width: physical.get(2).copied().unwrap_or(210.0) * PT_PER_MM,
            height: physical.get(3).copied().unwrap_or(140.0) * PT_PER_MM,
            runs,
        });
    }
    let embedded = embedded_invoice(&mut ar);
    Ok(OfdDoc {
        pages,
        meta,
        embedded,
    })
}

/// OFD.xml's CustomData entries that state invoice fields.
fn custom_data(root: &Element) -> Witness {
    let mut entries = Vec::new();
    root.find_all("CustomData", &mut entries);
    let get = |name: &str| {
        entries
            .iter()
            .find(|e| e.attr("Name") == Some(name))
            .map(|e| text::normalize(e.text.trim()))
            .filter(|v| !v.is_empty())
    };
    Witness {
        number: get("发票号码"),
        date: get("开票日期").and_then(|d| date::parse_date(&d)),
        total_amount: get("合计金额").and_then(|a| crate::amount::normalize(&a)),
        total_tax: get("合计税额").and_then(|a| crate::amount::normalize(&a)),
        total_with_tax: get("价税合计").and_then(|a| crate::amount::normalize(&a)),
    }
}

/// An embedded 数电 XML (`Attachs/…xml`, `original_invoice.xml`), if any.
fn embedded_invoice(ar: &mut Archive) -> Option<Element> {
    let candidates: Vec<String> = ar
        .names
        .iter()
        .filter(|n| {
            let l = n.to_ascii_lowercase();
            l.ends_with(".xml") && (l.contains("attach") || l.contains("invoice"))
        })
        .cloned()
        .collect();
    candidates
        .iter()
        .filter_map(|n| ar.xml(n))
        .find(|e| e.name == "EInvoice")
}

/// Appends the runs of every TextObject under `content`.
fn text_runs(content: &Element, out: &mut Vec<Run>) {
    let mut objects = Vec::new();
    content.find_all("TextObject", &mut objects);
    for obj in objects {
        let boundary = obj.attr("Boundary").map(numbers).unwrap_or_default();
        let (bx, by) = (
            boundary.first().copied().unwrap_or(0.0),
            boundary.get(1).copied().unwrap_or(0.0),
        );
        let size = obj
            .attr("Size")
            .and_then(|s| s.trim().parse::<f32>().ok())
            .filter(|s| s.is_finite() && *s > 0.0)
            .unwrap_or(3.175);
        let ctm = obj
            .attr("CTM")
            .map(numbers)
            .filter(|m| m.len() == 6)
            .unwrap_or_else(|| vec![1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
        let m = |i: usize| ctm.get(i).copied().unwrap_or(0.0);
        let scale = (m(0) * m(3) - m(1) * m(2)).abs().sqrt().max(0.01);
        let place = |x: f32, y: f32| {
            (
                (m(0) * x + m(2) * y + m(4) + bx) * PT_PER_MM,
                (m(1) * x + m(3) * y + m(5) + by) * PT_PER_MM,
            )
        };
        let mut cursor = (0.0f32, 0.0f32);
        for code in obj.children.iter().filter(|c| c.name == "TextCode") {
            let x = code
                .attr("X")
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(cursor.0);
            let y = code
                .attr("Y")
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(cursor.1);
            let dx = code.attr("DeltaX").map(deltas).unwrap_or_default();
            let dy = code.attr("DeltaY").map(deltas).unwrap_or_default();
            let chars: Vec<char> = code.text.chars().collect();
            let vertical = dx.is_empty() && !dy.is_empty();
            let mut positions = Vec::with_capacity(chars.len());
            let (mut px, mut py) = (x, y);
            for i in 0..chars.len() {
                positions.push((px, py));
                if vertical {
                    py += dy.get(i).or(dy.last()).copied().unwrap_or(size);
                } else {
                    let adv = dx.get(i).copied().unwrap_or_else(|| {
                        chars
                            .get(i)
                            .map_or(size, |&c| size * text::width_weight(c) / 2.0)
                    });
                    px += adv;
                    if let Some(d) = dy.get(i) {
                        py += d;
                    }
                }
            }
            cursor = (px, py);
            // Whitespace (and, in vertical text, every character) ends a run.
            let mut start: Option<usize> = None;
            for i in 0..=chars.len() {
                let ends = chars.get(i).is_none_or(|c| c.is_whitespace());
                let split_here = vertical && start.is_some();
                if (ends || split_here)
                    && let Some(s) = start.take()
                {
                    push_run(out, &chars, s, i, &positions, size, scale, &place);
                }
                if !ends && start.is_none() {
                    start = Some(i);
                }
            }
        }
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "a private helper of text_runs' loop"
)]
fn push_run(
    out: &mut Vec<Run>,
    chars: &[char],
    start: usize,
    end: usize,
    positions: &[(f32, f32)],
    size: f32,
    scale: f32,
    place: &impl Fn(f32, f32) -> (f32, f32),
) {
    let (Some(&(x0, y0)), Some(&(xl, yl)), Some(last)) = (
        positions.get(start),
        positions.get(end.saturating_sub(1)),
        chars.get(end.saturating_sub(1)),
    ) else {
        return;
    };
    let text: String = chars.get(start..end).unwrap_or_default().iter().collect();
    let last_w = size * text::width_weight(*last) / 2.0;
    let (sx, sy) = place(x0, y0);
    let (ex, _) = place(xl + last_w, yl);
    let size_pt = size * scale * PT_PER_MM;
    out.push(Run::new(&text, sx.min(ex), sy, sx.max(ex), size_pt));
}

/// Parses DeltaX/DeltaY: numbers, with `g N v` meaning `v` repeated N times.
fn deltas(s: &str) -> Vec<f32> {
    let mut out = Vec::new();
    let mut toks = s.split_whitespace();
    while let Some(t) = toks.next() {
        if t == "g" {
            let n: usize = toks.next().and_then(|n| n.parse().ok()).unwrap_or(0);
            let v: f32 = toks.next().and_then(|v| v.parse().ok()).unwrap_or(0.0);
            // A corrupt count must not allocate without bound.
            out.extend(std::iter::repeat_n(
                v,
                n.min(MAX_DELTAS.saturating_sub(out.len())),
            ));
        } else if let Ok(v) = t.parse() {
            out.push(v);
        }
        if out.len() >= MAX_DELTAS {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delta_lists_expand_repeats() {
        assert_eq!(deltas("3.175 g 2 1.5 4"), vec![3.175, 1.5, 1.5, 4.0]);
        assert_eq!(deltas(""), Vec::<f32>::new());
        assert_eq!(deltas("g x"), Vec::<f32>::new());
    }

    #[test]
    fn paths_resolve_relative_to_their_part() {
        assert_eq!(
            resolve("Doc_0/", "Pages/Page_0/Content.xml"),
            "Doc_0/Pages/Page_0/Content.xml"
        );
        assert_eq!(resolve("Doc_0/", "/Doc_0/Res/a.png"), "Doc_0/Res/a.png");
        assert_eq!(resolve("Doc_0/Pages/", "../Tpls/T.xml"), "Doc_0/Tpls/T.xml");
        assert_eq!(dir_of("Doc_0/Document.xml"), "Doc_0/");
    }

    #[test]
    fn spaced_text_codes_become_runs_in_points() {
        let xml = r#"<Page><Content><Layer>
            <TextObject Boundary="10 20 50 5" Size="3.175">
              <TextCode X="0" Y="3" DeltaX="3.175 3.175 3.175 3.175">销 售 方</TextCode>
            </TextObject>
            <TextObject Boundary="100 20 50 5" Size="3.175">
              <TextCode X="1" Y="3" DeltaX="g 2 1.5875">123</TextCode>
            </TextObject></Layer></Content></Page>"#;
        let root = dom::parse(xml.as_bytes()).unwrap();
        let mut runs = Vec::new();
        text_runs(&root, &mut runs);
        let texts: Vec<&str> = runs.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(texts, ["销", "售", "方", "123"]);
        let r = &runs[3];
        assert!((r.x - 101.0 * PT_PER_MM).abs() < 0.01);
        assert!((r.y - 23.0 * PT_PER_MM).abs() < 0.01);
        assert!((r.end_x - (101.0 + 2.0 * 1.5875 + 1.5875) * PT_PER_MM).abs() < 0.01);
        assert!((r.size - 3.175 * PT_PER_MM).abs() < 0.01);
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(read(b"PK\x03\x04garbage").is_err());
        assert!(read(b"").is_err());
    }
}
