//! Content-stream interpretation: runs the text and graphics-state operators
//! and emits positioned text runs.

use std::borrow::Cow;
use std::collections::HashMap;
use std::rc::Rc;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::annotations::Appearance;
use crate::font::{CMapCache, Font};
use crate::lexer::{Lexer, Token};
use crate::matrix::Matrix;
use crate::model::TextRun;
use crate::objects::{self, get_dict, get_name, ref_id, resolve};

/// Form XObjects nested deeper than this are not entered.
const MAX_FORM_DEPTH: usize = 12;
/// Form XObject invocations per page (guards exponential fan-out).
const MAX_FORM_CALLS: usize = 10_000;
/// Operators per page, across all forms.
const MAX_OPERATORS: usize = 5_000_000;
/// Runs per page.
const MAX_RUNS: usize = 1_000_000;
/// Saved graphics states (`q`) kept; deeper pushes are counted, not stored.
const MAX_STATE_STACK: usize = 1024;
/// Operands kept before an operator; more means garbage, which is dropped.
const MAX_OPERANDS: usize = 64;
/// Nesting of arrays inside operands.
const MAX_ARRAY_DEPTH: usize = 8;
/// Largest content stream (decompressed) we interpret.
pub(crate) const CONTENT_LIMIT: usize = 64 << 20;
/// A TJ adjustment moving the pen right by more than this (in em) starts a
/// new run, because it leaves a visible gap.
const SPLIT_GAP_EM: f32 = 0.2;
/// A TJ adjustment moving the pen left by more than this starts a new run.
const SPLIT_BACK_EM: f32 = 0.5;

/// An operand of a content-stream operator.
#[derive(Debug, Clone)]
enum Operand<'a> {
    Number(f32),
    Name(Cow<'a, [u8]>),
    String(Vec<u8>),
    Array(Vec<Operand<'a>>),
    Other,
}

/// Graphics state, reduced to what positions text.
#[derive(Clone)]
struct GState {
    ctm: Matrix,
    font: Option<Rc<Font>>,
    font_size: f32,
    char_spacing: f32,
    word_spacing: f32,
    /// `Tz` / 100.
    h_scale: f32,
    leading: f32,
    rise: f32,
}

impl GState {
    fn new(ctm: Matrix) -> Self {
        Self {
            ctm,
            font: None,
            font_size: 0.0,
            char_spacing: 0.0,
            word_spacing: 0.0,
            h_scale: 1.0,
            leading: 0.0,
            rise: 0.0,
        }
    }
}

/// Text object state (`BT` … `ET`).
#[derive(Clone, Copy, Default)]
struct TextState {
    tm: Matrix,
    tlm: Matrix,
}

/// Identifies a font resource for caching: its object id, or the address of
/// a direct dictionary (stable while the document lives).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum FontKey {
    Id(ObjectId),
    Direct(usize),
}

/// Caches that live for one document.
pub(crate) struct Context<'a> {
    doc: &'a Document,
    fonts: HashMap<FontKey, Rc<Font>>,
    cmaps: CMapCache,
}

impl<'a> Context<'a> {
    pub fn new(doc: &'a Document) -> Self {
        Self {
            doc,
            fonts: HashMap::new(),
            cmaps: CMapCache::default(),
        }
    }

    fn font(&mut self, resources: Option<&'a Dictionary>, name: &[u8]) -> Option<Rc<Font>> {
        let fonts = get_dict(self.doc, resources?, b"Font")?;
        let obj = fonts.get(name).ok()?;
        let dict = objects::as_dict(self.doc, obj)?;
        let key = match ref_id(obj) {
            Some(id) => FontKey::Id(id),
            None => FontKey::Direct(std::ptr::from_ref(dict) as usize),
        };
        if let Some(font) = self.fonts.get(&key) {
            return Some(Rc::clone(font));
        }
        let font = Rc::new(Font::load(self.doc, dict, &mut self.cmaps));
        self.fonts.insert(key, Rc::clone(&font));
        Some(font)
    }

    /// Interpret one page's content, then its annotation appearances, and
    /// return the runs in drawing order.
    pub fn run_page(
        &mut self,
        content: &[u8],
        resources: Option<&'a Dictionary>,
        page_matrix: Matrix,
        appearances: &[Appearance<'a>],
    ) -> Vec<TextRun> {
        let mut page = PageInterpreter {
            ctx: self,
            runs: Vec::new(),
            operators: 0,
            form_calls: 0,
            form_stack: Vec::new(),
        };
        page.interpret(content, resources, GState::new(page_matrix), 0);
        for appearance in appearances {
            let gs = GState::new(appearance.placement.then(&page_matrix));
            page.run_form(appearance.form, resources, &gs, 0);
        }
        page.runs
    }
}

/// A run being accumulated glyph by glyph.
struct PendingRun {
    text: String,
    x: f32,
    y: f32,
    end_x: f32,
    font_size: f32,
    active: bool,
}

impl PendingRun {
    fn new() -> Self {
        Self {
            text: String::new(),
            x: 0.0,
            y: 0.0,
            end_x: 0.0,
            font_size: 0.0,
            active: false,
        }
    }
}

struct PageInterpreter<'c, 'a> {
    ctx: &'c mut Context<'a>,
    runs: Vec<TextRun>,
    operators: usize,
    form_calls: usize,
    form_stack: Vec<ObjectId>,
}

fn number(op: Option<&Operand<'_>>) -> Option<f32> {
    match op {
        Some(Operand::Number(n)) if n.is_finite() => Some(*n),
        _ => None,
    }
}

/// The last `N` operands as numbers, if they all are.
fn numbers<const N: usize>(ops: &[Operand<'_>]) -> Option<[f32; N]> {
    let tail = ops.get(ops.len().checked_sub(N)?..)?;
    let mut out = [0.0; N];
    for (slot, op) in out.iter_mut().zip(tail) {
        *slot = number(Some(op))?;
    }
    Some(out)
}

impl<'a> PageInterpreter<'_, 'a> {
    fn interpret(
        &mut self,
        content: &[u8],
        resources: Option<&'a Dictionary>,
        mut gs: GState,
        depth: usize,
    ) {
        let mut stack: Vec<GState> = Vec::new();
        let mut overflow_pushes = 0usize;
        let mut ts = TextState::default();
        let mut operands: Vec<Operand<'_>> = Vec::new();
        let mut arrays: Vec<Vec<Operand<'_>>> = Vec::new();
        let mut lexer = Lexer::new(content);

        while let Some(token) = lexer.next_token() {
            let operand = match token {
                Token::Number(n) => Operand::Number(n),
                Token::Name(n) => Operand::Name(n),
                Token::String(s) => Operand::String(s),
                Token::ArrayStart => {
                    if arrays.len() >= MAX_ARRAY_DEPTH {
                        // Flatten absurd nesting into the current array.
                        continue;
                    }
                    arrays.push(Vec::new());
                    continue;
                }
                Token::ArrayEnd => match arrays.pop() {
                    Some(a) => Operand::Array(a),
                    None => continue,
                },
                Token::DictStart => {
                    skip_dict(&mut lexer);
                    Operand::Other
                }
                Token::DictEnd | Token::Brace => continue,
                Token::Keyword(op) => {
                    if !arrays.is_empty() {
                        // `true`/`null` inside an array, or an unterminated array
                        // swallowing an operator: treat the operator as real.
                        if matches!(op, b"true" | b"false" | b"null") {
                            if let Some(a) = arrays.last_mut() {
                                a.push(Operand::Other);
                            }
                            continue;
                        }
                        arrays.clear();
                    }
                    if matches!(op, b"true" | b"false" | b"null") {
                        operands.push(Operand::Other);
                        continue;
                    }
                    self.operators += 1;
                    if self.operators > MAX_OPERATORS || self.runs.len() >= MAX_RUNS {
                        return;
                    }
                    match op {
                        b"q" => {
                            if stack.len() < MAX_STATE_STACK {
                                stack.push(gs.clone());
                            } else {
                                overflow_pushes += 1;
                            }
                        }
                        b"Q" => {
                            if overflow_pushes > 0 {
                                overflow_pushes -= 1;
                            } else if let Some(saved) = stack.pop() {
                                gs = saved;
                            }
                        }
                        b"cm" => {
                            if let Some(m) =
                                numbers::<6>(&operands).and_then(|v| Matrix::from_slice(&v))
                            {
                                gs.ctm = m.then(&gs.ctm);
                            }
                        }
                        b"BT" => ts = TextState::default(),
                        b"ET" => {}
                        b"Tm" => {
                            if let Some(m) =
                                numbers::<6>(&operands).and_then(|v| Matrix::from_slice(&v))
                            {
                                ts.tm = m;
                                ts.tlm = m;
                            }
                        }
                        b"Td" => {
                            if let Some([tx, ty]) = numbers::<2>(&operands) {
                                next_line(&mut ts, tx, ty);
                            }
                        }
                        b"TD" => {
                            if let Some([tx, ty]) = numbers::<2>(&operands) {
                                gs.leading = -ty;
                                next_line(&mut ts, tx, ty);
                            }
                        }
                        b"T*" => next_line(&mut ts, 0.0, -gs.leading),
                        b"TL" => {
                            if let Some([v]) = numbers::<1>(&operands) {
                                gs.leading = v;
                            }
                        }
                        b"Tc" => {
                            if let Some([v]) = numbers::<1>(&operands) {
                                gs.char_spacing = v;
                            }
                        }
                        b"Tw" => {
                            if let Some([v]) = numbers::<1>(&operands) {
                                gs.word_spacing = v;
                            }
                        }
                        b"Tz" => {
                            if let Some([v]) = numbers::<1>(&operands) {
                                gs.h_scale = v / 100.0;
                            }
                        }
                        b"Ts" => {
                            if let Some([v]) = numbers::<1>(&operands) {
                                gs.rise = v;
                            }
                        }
                        b"Tf" => {
                            let len = operands.len();
                            if let (Some(Operand::Name(name)), Some(size)) = (
                                len.checked_sub(2).and_then(|i| operands.get(i)),
                                number(operands.last()),
                            ) {
                                gs.font = self.ctx.font(resources, name);
                                gs.font_size = size;
                            }
                        }
                        b"Tj" => {
                            if let Some(last @ Operand::String(_)) = operands.last() {
                                self.show(&gs, &mut ts, std::slice::from_ref(last));
                            }
                        }
                        b"TJ" => {
                            if let Some(Operand::Array(items)) = operands.last() {
                                self.show(&gs, &mut ts, items);
                            }
                        }
                        b"'" => {
                            next_line(&mut ts, 0.0, -gs.leading);
                            if let Some(last @ Operand::String(_)) = operands.last() {
                                self.show(&gs, &mut ts, std::slice::from_ref(last));
                            }
                        }
                        b"\"" => {
                            let len = operands.len();
                            if let (Some(aw), Some(ac), Some(last @ Operand::String(_))) = (
                                len.checked_sub(3).and_then(|i| number(operands.get(i))),
                                len.checked_sub(2).and_then(|i| number(operands.get(i))),
                                operands.last(),
                            ) {
                                gs.word_spacing = aw;
                                gs.char_spacing = ac;
                                next_line(&mut ts, 0.0, -gs.leading);
                                self.show(&gs, &mut ts, std::slice::from_ref(last));
                            }
                        }
                        b"Do" => {
                            if let Some(Operand::Name(name)) = operands.last() {
                                self.invoke_form(resources, name, &gs, depth);
                            }
                        }
                        b"BI" => lexer.skip_inline_image(),
                        _ => {}
                    }
                    operands.clear();
                    continue;
                }
            };
            match arrays.last_mut() {
                Some(a) => {
                    if a.len() < 1 << 16 {
                        a.push(operand);
                    }
                }
                None => {
                    if operands.len() >= MAX_OPERANDS {
                        operands.clear();
                    }
                    operands.push(operand);
                }
            }
        }
    }

    /// Show strings and TJ adjustments, emitting runs.
    fn show(&mut self, gs: &GState, ts: &mut TextState, items: &[Operand<'_>]) {
        let Some(font) = gs.font.clone() else { return };
        let fs = gs.font_size;
        let th = gs.h_scale;
        let mut run = PendingRun::new();
        let mut glyph_text = String::new();
        for item in items {
            match item {
                Operand::String(bytes) => {
                    let mut rest: &[u8] = bytes;
                    while !rest.is_empty() {
                        // The text-space to device transform at the current pen.
                        let base = ts.tm.then(&gs.ctm);
                        glyph_text.clear();
                        let glyph = font.next_glyph(rest, &mut glyph_text);
                        rest = rest.get(glyph.len..).unwrap_or_default();
                        let blank = glyph_text.chars().all(char::is_whitespace);
                        if blank {
                            // Whitespace separates runs rather than being part of one.
                            self.flush(&mut run);
                        } else {
                            if !run.active {
                                let (x, y) = base.apply(0.0, gs.rise);
                                run.x = x;
                                run.y = y;
                                run.end_x = x;
                                run.font_size = (fs * base.vertical_scale()).abs();
                                run.active = true;
                            }
                            run.text.push_str(&glyph_text);
                        }
                        let spacing =
                            gs.char_spacing + if glyph.is_space { gs.word_spacing } else { 0.0 };
                        if font.vertical {
                            // Vertical writing: one run per glyph, advancing down
                            // by one em (the default DW2).
                            run.end_x = run.x + run.font_size;
                            self.flush(&mut run);
                            let ty = -fs + spacing;
                            ts.tm = Matrix::translate(0.0, ty).then(&ts.tm);
                        } else {
                            if !blank {
                                let (ex, _) = base.apply(glyph.width * fs * th, gs.rise);
                                run.end_x = ex;
                            }
                            let tx = (glyph.width * fs + spacing) * th;
                            ts.tm = Matrix::translate(tx, 0.0).then(&ts.tm);
                        }
                    }
                }
                Operand::Number(n) if n.is_finite() => {
                    let em = -n / 1000.0;
                    if font.vertical {
                        ts.tm = Matrix::translate(0.0, em * fs).then(&ts.tm);
                    } else {
                        if !(-SPLIT_BACK_EM..=SPLIT_GAP_EM).contains(&em) {
                            self.flush(&mut run);
                        }
                        ts.tm = Matrix::translate(em * fs * th, 0.0).then(&ts.tm);
                    }
                }
                _ => {}
            }
        }
        self.flush(&mut run);
    }

    /// Emit the pending run unless it is empty, blank or invisibly degenerate.
    fn flush(&mut self, run: &mut PendingRun) {
        if !run.active {
            return;
        }
        run.active = false;
        let mut text = std::mem::take(&mut run.text);
        if text.chars().any(char::is_control) {
            text = text
                .chars()
                .map(|c| if c == '\t' { ' ' } else { c })
                .filter(|c| !c.is_control())
                .collect();
        }
        // NaN sizes fail `>=` and are dropped too.
        let visible_size = run.font_size >= 1e-3;
        if text.is_empty() || !visible_size || self.runs.len() >= MAX_RUNS {
            return;
        }
        if ![run.x, run.y, run.end_x, run.font_size]
            .iter()
            .all(|v| v.is_finite())
        {
            return;
        }
        self.runs.push(TextRun {
            text,
            x: run.x,
            y: run.y,
            end_x: run.end_x,
            font_size: run.font_size,
        });
    }

    /// `Do` on a form XObject: interpret it with its matrix and resources.
    fn invoke_form(
        &mut self,
        resources: Option<&'a Dictionary>,
        name: &[u8],
        gs: &GState,
        depth: usize,
    ) {
        let doc = self.ctx.doc;
        if depth >= MAX_FORM_DEPTH || self.form_calls >= MAX_FORM_CALLS {
            return;
        }
        let Some(xobjects) = resources.and_then(|r| get_dict(doc, r, b"XObject")) else {
            return;
        };
        let Ok(obj) = xobjects.get(name) else { return };
        self.run_form(obj, resources, gs, depth);
    }

    /// Run a form XObject under `gs`: its `/Matrix` is applied on top of
    /// the CTM and its own resources (else the caller's) are used. Streams
    /// whose `/Subtype` is not `/Form` (images) are skipped undecoded.
    fn run_form(
        &mut self,
        obj: &'a Object,
        resources: Option<&'a Dictionary>,
        gs: &GState,
        depth: usize,
    ) {
        let doc = self.ctx.doc;
        if depth >= MAX_FORM_DEPTH || self.form_calls >= MAX_FORM_CALLS {
            return;
        }
        let id = ref_id(obj);
        if let Some(id) = id
            && self.form_stack.contains(&id)
        {
            return;
        }
        let Some(Object::Stream(stream)) = resolve(doc, obj) else {
            return;
        };
        // Appearance streams sometimes omit /Subtype; anything else named
        // (an image, PostScript) is not ours to decode.
        if get_name(doc, &stream.dict, b"Subtype").is_some_and(|s| s != b"Form") {
            return;
        }
        self.form_calls += 1;
        let matrix = objects::get_array(doc, &stream.dict, b"Matrix")
            .map(|a| objects::numbers(doc, a))
            .and_then(|v| Matrix::from_slice(&v))
            .unwrap_or_default();
        let form_resources = get_dict(doc, &stream.dict, b"Resources").or(resources);
        let Some(data) = objects::stream_data(stream, CONTENT_LIMIT) else {
            return;
        };
        let mut inner = gs.clone();
        inner.ctm = matrix.then(&gs.ctm);
        if let Some(id) = id {
            self.form_stack.push(id);
        }
        self.interpret(&data, form_resources, inner, depth + 1);
        if id.is_some() {
            self.form_stack.pop();
        }
    }
}

fn next_line(ts: &mut TextState, tx: f32, ty: f32) {
    ts.tlm = Matrix::translate(tx, ty).then(&ts.tlm);
    ts.tm = ts.tlm;
}

/// Skip an inline dictionary (`<< … >>`), honouring nesting.
fn skip_dict(lexer: &mut Lexer<'_>) {
    let mut depth = 1usize;
    while let Some(token) = lexer.next_token() {
        match token {
            Token::DictStart => depth += 1,
            Token::DictEnd => {
                depth -= 1;
                if depth == 0 {
                    return;
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::dictionary;

    fn runs_for(content: &[u8]) -> Vec<TextRun> {
        let mut doc = Document::new();
        let font = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Courier",
        });
        let resources = dictionary! { "Font" => dictionary! { "F1" => font } };
        let mut ctx = Context::new(&doc);
        ctx.run_page(content, Some(&resources), Matrix::IDENTITY, &[])
    }

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn tj_positions_and_advance() {
        let runs = runs_for(b"BT /F1 10 Tf 100 200 Td (AB) Tj (C) Tj ET");
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].text, "AB");
        assert!(close(runs[0].x, 100.0) && close(runs[0].y, 200.0));
        // Courier: 600 units per glyph.
        assert!(close(runs[0].end_x, 112.0));
        assert!(close(runs[1].x, 112.0) && close(runs[1].end_x, 118.0));
        assert!(close(runs[0].font_size, 10.0));
    }

    #[test]
    fn tj_kerning_moves_pen_and_splits_on_gaps() {
        // -100: small kern, same run; -1000: one em gap, new run.
        let runs = runs_for(b"BT /F1 10 Tf [(A) -100 (B) -1000 (C) 200 (D)] TJ ET");
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].text, "AB");
        assert!(close(runs[0].end_x, 6.0 + 1.0 + 6.0));
        assert_eq!(runs[1].text, "CD");
        assert!(close(runs[1].x, 13.0 + 10.0));
        assert!(close(runs[1].end_x, 23.0 + 6.0 - 2.0 + 6.0));
    }

    #[test]
    fn spacing_scaling_and_matrices() {
        let runs = runs_for(b"q 2 0 0 2 10 10 cm BT /F1 10 Tf 1 Tc 10 Tw 50 Tz (AA BB) Tj ET Q BT /F1 10 Tf 1 0 0 1 5 5 Tm (Z) Tj ET");
        // The space splits the string into two runs.
        assert_eq!(runs.len(), 3);
        let (a, b) = (&runs[0], &runs[1]);
        assert_eq!((a.text.as_str(), b.text.as_str()), ("AA", "BB"));
        assert!(close(a.x, 10.0) && close(a.y, 10.0));
        assert!(close(a.font_size, 20.0));
        // Text space advances: A = (6+1)*0.5; the second A ends at +6*0.5 (Tc excluded).
        assert!(close(a.end_x, 10.0 + 2.0 * (3.5 + 3.0)));
        // Space = (6+1+10)*0.5 with word spacing.
        assert!(close(b.x, 10.0 + 2.0 * (3.5 + 3.5 + 8.5)));
        assert!(close(b.end_x, b.x + 2.0 * (3.5 + 3.0)));
        // Q restored the CTM.
        assert!(close(runs[2].x, 5.0) && close(runs[2].font_size, 10.0));
    }

    #[test]
    fn leading_and_quote_operators() {
        let runs = runs_for(b"BT /F1 10 Tf 12 TL 0 100 Td (a) Tj T* (b) Tj (c) ' 1 2 (d) \" 0 -20 TD (e) Tj T* (f) Tj ET");
        let ys: Vec<f32> = runs.iter().map(|r| r.y).collect();
        assert_eq!(
            runs.iter().map(|r| r.text.as_str()).collect::<String>(),
            "abcdef"
        );
        assert!(
            close(ys[0], 100.0) && close(ys[1], 88.0) && close(ys[2], 76.0) && close(ys[3], 64.0)
        );
        assert!(close(ys[4], 44.0) && close(ys[5], 24.0));
    }

    #[test]
    fn unbalanced_and_garbage_content() {
        let _ = runs_for(b"Q Q Q ET ] ] >> BT (x) Tj /F1 Tf 1 2 3 4 5 Tm [[[[[[[[[[[[(a)]]]] TJ");
        let _ = runs_for(b"BI /W 1 ID \x00\x01 EI BT /F1 9 Tf (ok) Tj ET");
        let runs = runs_for(b"BT /F1 9 Tf <</A <</B 1>> >> BDC (ok) Tj EMC ET");
        assert_eq!(runs.len(), 1);
    }
}
