//! Rendering: the template compiled by typst over the plan's data and files, exported with
//! typst-pdf. An invoice PDF typst cannot place (pdf-text read it, typst's reader did not) is
//! found by placing each one alone and redrawn as its card; a panic anywhere inside typst ends
//! as an error here, never in the caller.

use crate::PrintError;
use crate::fonts::{Fonts, font_files, system_fonts};
use crate::layout::{Plan, plan};
use crate::model::ClaimInput;
use crate::world::ClaimWorld;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use typst::diag::SourceDiagnostic;
use typst_layout::PagedDocument;
use typst_pdf::PdfOptions;

/// The Typst source of the template shipped with the service (`templates/报销材料.typ`).
pub const DEFAULT_TEMPLATE_SOURCE: &str = include_str!("../../../templates/报销材料.typ");
/// Its file name, as typst names it in messages.
pub const DEFAULT_TEMPLATE_NAME: &str = "报销材料.typ";
/// Largest template source read.
const MAX_TEMPLATE_BYTES: u64 = 1024 * 1024;

/// Which template lays the package out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Template {
    /// The template shipped with the crate ([`DEFAULT_TEMPLATE_SOURCE`]).
    #[default]
    Default,
    /// An institution's own file; files it reads (a logo) are looked up beside it, fonts in a
    /// `fonts/` folder beside it.
    File(PathBuf),
}

/// A rendered package.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The PDF's bytes.
    pub pdf: Vec<u8>,
    /// Its pages.
    pub pages: usize,
    /// 粘贴单 sheets among the pages.
    pub sheets: usize,
    /// What could not be placed as it is, one sentence each (for the session log).
    pub notes: Vec<String>,
}

struct Source {
    name: String,
    text: String,
    root: Option<PathBuf>,
    fonts: Arc<Fonts>,
}

fn load(template: &Template) -> Result<Source, PrintError> {
    let system = system_fonts();
    let Template::File(path) = template else {
        return Ok(Source {
            name: DEFAULT_TEMPLATE_NAME.to_owned(),
            text: DEFAULT_TEMPLATE_SOURCE.to_owned(),
            root: None,
            fonts: system,
        });
    };
    let error = |message: String| PrintError::Template {
        path: path.display().to_string(),
        message,
    };
    let size = std::fs::metadata(path)
        .map_err(|e| error(e.to_string()))?
        .len();
    if size > MAX_TEMPLATE_BYTES {
        return Err(error("文件超过 1 MB".into()));
    }
    let text = std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?;
    let root = path.parent().map(Path::to_path_buf);
    let extra = root
        .as_ref()
        .map(|r| font_files(&r.join("fonts"), false))
        .unwrap_or_default();
    let fonts = if extra.is_empty() {
        system
    } else {
        Arc::new(system.with(&extra))
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| DEFAULT_TEMPLATE_NAME.to_owned());
    Ok(Source {
        name,
        text,
        root,
        fonts,
    })
}

/// Renders the package of `input` with `template`. An invoice PDF that cannot be placed (or
/// an image that cannot be read) is drawn as its data card and said in
/// [`Rendered::notes`]; only a failure of the whole package is an error.
pub fn render(input: &ClaimInput, template: &Template) -> Result<Rendered, PrintError> {
    let source = load(template)?;
    if source.fonts.fonts.is_empty() {
        return Err(PrintError::NoFonts);
    }
    let mut laid = plan(input, &HashMap::new());
    let first = guarded(|| compile(&source, &laid, &input.header.date));
    let (pdf, pages) = match first {
        Ok(done) => done,
        Err(error) => {
            let culprits = unplaceable(&source, &laid, &input.header.date);
            if culprits.is_empty() {
                return Err(error);
            }
            laid = plan(input, &culprits);
            guarded(|| compile(&source, &laid, &input.header.date))?
        }
    };
    Ok(Rendered {
        pdf,
        pages,
        sheets: laid.sheets,
        notes: notes(&laid),
    })
}

/// Runs `f`, a panic inside typst turned into an error.
fn guarded<T>(f: impl FnOnce() -> Result<T, PrintError>) -> Result<T, PrintError> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(PrintError::Panicked(message))
    })
}

/// Compiles and exports; the PDF and its page count.
fn compile(source: &Source, laid: &Plan, date: &str) -> Result<(Vec<u8>, usize), PrintError> {
    let world = ClaimWorld::new(
        &source.name,
        source.text.clone(),
        laid.files.clone(),
        source.root.clone(),
        source.fonts.clone(),
        date,
    )
    .ok_or_else(|| PrintError::Compile("模板文件名无效".into()))?;
    let document: PagedDocument = typst::compile(&world)
        .output
        .map_err(|errors| PrintError::Compile(messages(&errors)))?;
    let options = PdfOptions {
        // Printed, not read aloud: untagged output is smaller and faster.
        tagged: false,
        ..PdfOptions::default()
    };
    let pdf =
        typst_pdf::pdf(&document, &options).map_err(|errors| PrintError::Export(messages(&errors)));
    // typst memoises across compilations in process-wide caches; a service renders packages
    // for days, so nothing is kept from one package to the next (the fonts are kept apart).
    typst::comemo::evict(0);
    Ok((pdf?, document.pages().len()))
}

fn messages(errors: &[SourceDiagnostic]) -> String {
    errors
        .iter()
        .take(3)
        .map(|e| e.message.to_string())
        .collect::<Vec<_>>()
        .join("；")
}

/// The invoices whose PDF typst cannot place, each tried alone, with the note their card
/// carries.
fn unplaceable(source: &Source, laid: &Plan, date: &str) -> HashMap<usize, String> {
    let mut out = HashMap::new();
    for (path, index) in &laid.placed_pdfs {
        let Some(bytes) = laid.files.iter().find(|(p, _)| p == path).map(|(_, b)| b) else {
            continue;
        };
        let probe = Source {
            name: "probe.typ".to_owned(),
            text: format!(
                "#set page(width: 100pt, height: 100pt)\n#image(\"{path}\", page: 1, width: 100%)\n"
            ),
            root: None,
            fonts: source.fonts.clone(),
        };
        let alone = Plan {
            data: serde_json::Value::Null,
            files: vec![(path.clone(), bytes.clone())],
            sheets: 0,
            placed_pdfs: Vec::new(),
        };
        if let Err(error) = guarded(|| compile(&probe, &alone, date)) {
            out.insert(*index, format!("原件无法排版（{error}），以数据卡片代替"));
        }
    }
    out
}

/// What the plan could not place as it is.
fn notes(laid: &Plan) -> Vec<String> {
    let mut out = Vec::new();
    let sheets = laid.data["sheets"].as_array().cloned().unwrap_or_default();
    for sheet in sheets {
        for slot in sheet["slots"].as_array().into_iter().flatten() {
            let slots =
                std::iter::once(slot).chain(slot["beside"].as_array().into_iter().flatten());
            for slot in slots {
                let note = slot["note"].as_str().unwrap_or_default();
                if note.is_empty() {
                    continue;
                }
                let who = match slot["type"].as_str() {
                    Some("payment") => {
                        format!("截图 {}", slot["name"].as_str().unwrap_or_default())
                    }
                    _ => format!("第 {} 行", slot["row"].as_str().unwrap_or_default()),
                };
                out.push(format!("{who}：{note}"));
            }
        }
    }
    out
}
