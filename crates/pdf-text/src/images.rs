//! Page images on request: a separate, graphics-only pass over the content
//! streams that finds where each image is drawn and decodes the ones a
//! query selects, so [`crate::parse`] never pays for pixels.

use std::borrow::Cow;
use std::collections::HashMap;
use std::rc::Rc;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::annotations;
use crate::error::Error;
use crate::image_decode::{self, Gray, Limits};
use crate::interpreter::CONTENT_LIMIT;
use crate::lexer::{Lexer, Token};
use crate::matrix::Matrix;
use crate::model::{ImagePlacement, PageImage};
use crate::objects::{self, get_dict, get_name, ref_id, resolve};
use crate::pages;
use crate::parse;

/// Form XObjects nested deeper than this are not entered.
const MAX_FORM_DEPTH: usize = 12;
/// Form XObject invocations per page (guards exponential fan-out).
const MAX_FORM_CALLS: usize = 10_000;
/// Operators per page, across all forms.
const MAX_OPERATORS: usize = 5_000_000;
/// Images returned per document.
const MAX_IMAGES: usize = 1_000;
/// Grey bytes decoded and returned per document, all images together: a few kilobytes of
/// PDF can hold hundreds of large blank images, each under the per-image limit.
const MAX_DECODED_BYTES: usize = 128 << 20;
/// Saved graphics states kept; deeper pushes are counted, not stored.
const MAX_STATE_STACK: usize = 1024;
/// Operands kept before an operator; more means garbage.
const MAX_OPERANDS: usize = 64;
/// Nesting of dictionaries inside an inline image header.
const MAX_INLINE_DEPTH: usize = 4;

/// Which images [`page_images_with`] decodes. Everything is checked before
/// any pixel is decoded, so a narrow query is cheap.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageQuery {
    /// Only the first this many pages. Default: all.
    pub max_pages: usize,
    /// Images with more pixels than this are skipped. Default: 4 megapixels.
    pub max_pixels: usize,
    /// Larger images are reduced while decoding, by point sampling (the
    /// centre pixel of each block), by the smallest integer factor that
    /// brings both sides within this many pixels; `pixel_width` and
    /// `pixel_height` then give the reduced size. Much cheaper than
    /// decoding in full and shrinking afterwards. Default: no reduction.
    pub max_side: usize,
    /// Longest side over shortest side, both in pixels and as drawn, at
    /// most this. Default: unbounded. QR codes are square: use ~1.2.
    pub max_aspect: f32,
    /// The shorter drawn side at least this many points. Default: 0.
    pub min_side_pt: f32,
    /// The longer drawn side at most this many points. Default: unbounded.
    pub max_side_pt: f32,
}

impl Default for ImageQuery {
    fn default() -> Self {
        Self {
            max_pages: usize::MAX,
            max_pixels: 4_000_000,
            max_side: usize::MAX,
            max_aspect: f32::INFINITY,
            min_side_pt: 0.0,
            max_side_pt: f32::INFINITY,
        }
    }
}

impl ImageQuery {
    fn limits(&self) -> Limits {
        Limits {
            max_pixels: self.max_pixels,
            max_side: self.max_side,
        }
    }

    /// Whether the query wants an image drawn so.
    pub fn accepts(&self, image: &ImagePlacement) -> bool {
        let aspect = |a: f32, b: f32| a.max(b) / a.min(b).max(f32::MIN_POSITIVE);
        let (pw, ph) = (image.pixel_width, image.pixel_height);
        let (w, h) = (image.width_pt, image.height_pt);
        image.page < self.max_pages
            && pw.saturating_mul(ph) <= self.max_pixels
            && aspect(pw as f32, ph as f32) <= self.max_aspect
            && aspect(w, h) <= self.max_aspect
            && w.min(h) >= self.min_side_pt
            && w.max(h) <= self.max_side_pt
    }
}

/// Every image drawn on the document's pages (page content, the form
/// XObjects it calls, inline images and visible annotation appearances),
/// decoded to grey levels, in page order and drawing order within a page.
/// See [`page_images_with`].
pub fn page_images(bytes: &[u8]) -> Result<Vec<PageImage>, Error> {
    page_images_with(bytes, &ImageQuery::default())
}

/// The images [`page_images`] would return, limited to those `query`
/// accepts.
///
/// Supported: Flate (with PNG/TIFF predictors), LZW, ASCII85, ASCIIHex,
/// RunLength, DCT (JPEG) and CCITT fax (Group 4, and Group 3 with EOL codes)
/// data; grey, RGB, CMYK, ICC-based (by component count), Lab, indexed,
/// separation and DeviceN colour; 1, 2, 4, 8 and 16 bits per component;
/// `/Decode` arrays; stencil masks, soft masks and colour-key masks. Images
/// that are unsupported (JPX, JBIG2), broken, or drawn entirely off the
/// page are left out. An image drawn several times is decoded once and
/// reported at every place it is drawn.
///
/// Errors and panic safety are as for [`crate::parse`].
pub fn page_images_with(bytes: &[u8], query: &ImageQuery) -> Result<Vec<PageImage>, Error> {
    page_images_where(bytes, query, |_| true)
}

/// The images [`page_images_with`] would return, further limited to those
/// `keep` accepts, for selections a query cannot express. `keep` sees each
/// drawing the query accepts, before it is decoded.
pub fn page_images_where(
    bytes: &[u8],
    query: &ImageQuery,
    mut keep: impl FnMut(&ImagePlacement) -> bool,
) -> Result<Vec<PageImage>, Error> {
    parse::guarded(bytes, |bytes| {
        let doc = parse::load(bytes)?;
        Ok(collect(&doc, query, &mut keep))
    })
}

fn collect(
    doc: &Document,
    query: &ImageQuery,
    keep: &mut dyn FnMut(&ImagePlacement) -> bool,
) -> Vec<PageImage> {
    let mut out = Vec::new();
    let mut cache = HashMap::new();
    let mut spent = 0usize;
    for (index, page) in pages::collect(doc).iter().enumerate().take(query.max_pages) {
        let content = page.content(doc, CONTENT_LIMIT);
        let (width, height) = page.size();
        let mut walker = Walker {
            doc,
            query,
            keep: &mut *keep,
            page: index,
            page_size: (width, height),
            out: &mut out,
            cache: &mut cache,
            spent: &mut spent,
            operators: 0,
            form_calls: 0,
            form_stack: Vec::new(),
        };
        let matrix = page.matrix();
        walker.walk(&content, page.resources, matrix, 0);
        for appearance in annotations::appearances(doc, page.dict) {
            let ctm = appearance.placement.then(&matrix);
            walker.form(appearance.form, page.resources, ctm, 0);
        }
    }
    out
}

/// An operand, reduced to what `cm` and `Do` need.
enum Operand<'a> {
    Number(f32),
    Name(Cow<'a, [u8]>),
    Other,
}

struct Walker<'w, 'a> {
    doc: &'a Document,
    query: &'w ImageQuery,
    keep: &'w mut dyn FnMut(&ImagePlacement) -> bool,
    page: usize,
    page_size: (f32, f32),
    out: &'w mut Vec<PageImage>,
    /// Decoded XObjects by object id (`None`: failed or unwanted).
    cache: &'w mut HashMap<ObjectId, Option<Rc<Gray>>>,
    /// Bytes decoded and returned so far in the document (see `MAX_DECODED_BYTES`).
    spent: &'w mut usize,
    operators: usize,
    form_calls: usize,
    form_stack: Vec<ObjectId>,
}

impl<'a> Walker<'_, 'a> {
    fn walk(
        &mut self,
        content: &[u8],
        resources: Option<&'a Dictionary>,
        ctm: Matrix,
        depth: usize,
    ) {
        let mut ctm = ctm;
        let mut stack: Vec<Matrix> = Vec::new();
        let mut overflow_pushes = 0usize;
        let mut operands: Vec<Operand<'_>> = Vec::new();
        let mut array_depth = 0usize;
        let mut lexer = Lexer::new(content);
        while let Some(token) = lexer.next_token() {
            let operand = match token {
                Token::Number(n) => Operand::Number(n),
                Token::Name(n) => Operand::Name(n),
                Token::ArrayStart => {
                    array_depth += 1;
                    continue;
                }
                Token::ArrayEnd => {
                    array_depth = array_depth.saturating_sub(1);
                    Operand::Other
                }
                Token::DictStart => {
                    skip_dict(&mut lexer);
                    Operand::Other
                }
                Token::String(_) => Operand::Other,
                Token::DictEnd | Token::Brace => continue,
                Token::Keyword(op) => {
                    if matches!(op, b"true" | b"false" | b"null") {
                        operands.push(Operand::Other);
                        continue;
                    }
                    // An operator ends any unterminated array.
                    array_depth = 0;
                    self.operators += 1;
                    if self.operators > MAX_OPERATORS || self.out.len() >= MAX_IMAGES {
                        return;
                    }
                    match op {
                        b"q" => {
                            if stack.len() < MAX_STATE_STACK {
                                stack.push(ctm);
                            } else {
                                overflow_pushes += 1;
                            }
                        }
                        b"Q" => {
                            if overflow_pushes > 0 {
                                overflow_pushes -= 1;
                            } else if let Some(saved) = stack.pop() {
                                ctm = saved;
                            }
                        }
                        b"cm" => {
                            if let Some(m) = last_numbers(&operands) {
                                ctm = m.then(&ctm);
                            }
                        }
                        b"Do" => {
                            if let Some(Operand::Name(name)) = operands.last() {
                                self.draw(resources, name, ctm, depth);
                            }
                        }
                        b"BI" => self.inline_image(&mut lexer, resources, ctm),
                        _ => {}
                    }
                    operands.clear();
                    continue;
                }
            };
            if array_depth > 0 {
                continue;
            }
            if operands.len() >= MAX_OPERANDS {
                operands.clear();
            }
            operands.push(operand);
        }
    }

    /// `Do`: an image is placed, a form is entered.
    fn draw(&mut self, resources: Option<&'a Dictionary>, name: &[u8], ctm: Matrix, depth: usize) {
        let doc = self.doc;
        let Some(xobjects) = resources.and_then(|r| get_dict(doc, r, b"XObject")) else {
            return;
        };
        let Ok(obj) = xobjects.get(name) else { return };
        if image_decode::is_image(doc, obj) {
            self.image(obj, resources, ctm);
        } else {
            self.form(obj, resources, ctm, depth);
        }
    }

    /// Run a form XObject with its `/Matrix` and resources (else the caller's).
    fn form(
        &mut self,
        obj: &'a Object,
        resources: Option<&'a Dictionary>,
        ctm: Matrix,
        depth: usize,
    ) {
        let doc = self.doc;
        if depth >= MAX_FORM_DEPTH || self.form_calls >= MAX_FORM_CALLS {
            return;
        }
        let id = ref_id(obj);
        if id.is_some_and(|id| self.form_stack.contains(&id)) {
            return;
        }
        let Some(Object::Stream(stream)) = resolve(doc, obj) else {
            return;
        };
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
        if let Some(id) = id {
            self.form_stack.push(id);
        }
        self.walk(&data, form_resources, matrix.then(&ctm), depth + 1);
        if id.is_some() {
            self.form_stack.pop();
        }
    }

    /// An image XObject drawn under `ctm`.
    fn image(&mut self, obj: &'a Object, resources: Option<&'a Dictionary>, ctm: Matrix) {
        let doc = self.doc;
        let Some(Object::Stream(stream)) = resolve(doc, obj) else {
            return;
        };
        let Some(placement) = self.placement(&stream.dict, ctm) else {
            return;
        };
        let decoded = match ref_id(obj) {
            Some(id) => match self.cache.get(&id) {
                Some(cached) => cached.clone(),
                None => {
                    let fresh = self
                        .decode_within_budget(&stream.dict, &stream.content, resources)
                        .map(Rc::new);
                    self.cache.insert(id, fresh.clone());
                    fresh
                }
            },
            None => self
                .decode_within_budget(&stream.dict, &stream.content, resources)
                .map(Rc::new),
        };
        if let Some(gray) = decoded {
            self.emit(&gray, placement, ctm);
        }
    }

    /// `BI … ID … EI`: read the header, find the data, decode it.
    fn inline_image(
        &mut self,
        lexer: &mut Lexer<'_>,
        resources: Option<&'a Dictionary>,
        ctm: Matrix,
    ) {
        let mut dict = Dictionary::new();
        loop {
            match lexer.next_token() {
                None => return,
                Some(Token::Keyword(b"ID")) => break,
                Some(Token::Keyword(b"EI")) => return,
                Some(Token::Name(key)) => match lexer.next_token() {
                    None => return,
                    Some(Token::Keyword(b"ID")) => break,
                    Some(value) => {
                        let key = inline_key(&key);
                        if let Some(value) = inline_object(lexer, value, 0) {
                            dict.set(key, value);
                        }
                    }
                },
                Some(_) => {}
            }
        }
        // One whitespace byte separates ID from the data.
        let start = lexer.offset() + 1;
        let input = lexer.input();
        let end = unfiltered_end(self.doc, &dict, resources, input, start)
            .or_else(|| lexer.inline_data_end(start));
        let Some(end) = end else {
            lexer.seek(input.len());
            return;
        };
        let data = input.get(start..end).unwrap_or_default();
        lexer.seek(lexer.inline_data_end(end).map_or(end, |i| i + 2));
        let Some(placement) = self.placement(&dict, ctm) else {
            return;
        };
        if let Some(gray) = self.decode_within_budget(&dict, data, resources) {
            self.emit(&gray, placement, ctm);
        }
    }

    /// Decodes an image unless the document's decoding budget is spent.
    fn decode_within_budget(
        &mut self,
        dict: &Dictionary,
        data: &[u8],
        resources: Option<&'a Dictionary>,
    ) -> Option<Gray> {
        if *self.spent >= MAX_DECODED_BYTES {
            return None;
        }
        let gray = image_decode::decode(self.doc, dict, data, resources, self.query.limits())?;
        *self.spent += gray.luma.len();
        Some(gray)
    }

    /// Where an image with dictionary `dict` is drawn, if it shows on the
    /// page and the query and filter want it.
    fn placement(&mut self, dict: &Dictionary, ctm: Matrix) -> Option<ImagePlacement> {
        let dim = |key: &[u8]| objects::get_number(self.doc, dict, key).filter(|v| *v >= 1.0);
        let (pw, ph) = (dim(b"Width")? as usize, dim(b"Height")? as usize);
        let corners =
            [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map(|(u, v)| ctm.apply(u, v));
        let xs = corners.map(|c| c.0);
        let ys = corners.map(|c| c.1);
        let min = |v: [f32; 4]| v.iter().copied().fold(f32::INFINITY, f32::min);
        let max = |v: [f32; 4]| v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let (x0, x1, y0, y1) = (min(xs), max(xs), min(ys), max(ys));
        if ![x0, x1, y0, y1].iter().all(|v| v.is_finite()) {
            return None;
        }
        let (width, height) = self.page_size;
        let on_page = x1 >= 0.0 && x0 <= width && y1 >= 0.0 && y0 <= height;
        let placement = ImagePlacement {
            page: self.page,
            x: x0,
            y: y0,
            width_pt: x1 - x0,
            height_pt: y1 - y0,
            pixel_width: pw,
            pixel_height: ph,
        };
        (on_page && self.query.accepts(&placement) && (self.keep)(&placement)).then_some(placement)
    }

    fn emit(&mut self, gray: &Gray, placement: ImagePlacement, ctm: Matrix) {
        if self.out.len() >= MAX_IMAGES || *self.spent >= MAX_DECODED_BYTES {
            return;
        }
        let (pixel_width, pixel_height, luma) = upright(gray, ctm);
        *self.spent += luma.len();
        self.out.push(PageImage {
            page: placement.page,
            x: placement.x,
            y: placement.y,
            width_pt: placement.width_pt,
            height_pt: placement.height_pt,
            pixel_width,
            pixel_height,
            luma,
        });
    }
}

/// The pixels as the page shows them, when `ctm` (image space to page) is
/// a multiple of 90° with or without a mirror; otherwise in sample order.
fn upright(gray: &Gray, ctm: Matrix) -> (usize, usize, Vec<u8>) {
    let (w, h) = (gray.width, gray.height);
    let tiny = |v: f32, scale: f32| v.abs() <= 1e-3 * scale;
    let scale = ctm.a.abs() + ctm.b.abs() + ctm.c.abs() + ctm.d.abs();
    // Image columns advance along (a, b); rows advance along (-c, -d),
    // because sample row 0 sits at the top of the unit square.
    let (columns_along_x, col_forward, row_forward) = if tiny(ctm.b, scale) && tiny(ctm.c, scale) {
        (true, ctm.a > 0.0, -ctm.d > 0.0)
    } else if tiny(ctm.a, scale) && tiny(ctm.d, scale) {
        (false, ctm.b > 0.0, -ctm.c > 0.0)
    } else {
        return (w, h, gray.luma.clone());
    };
    if columns_along_x && col_forward && row_forward {
        return (w, h, gray.luma.clone());
    }
    let (out_w, out_h) = if columns_along_x { (w, h) } else { (h, w) };
    let mut luma = Vec::with_capacity(w * h);
    for oy in 0..out_h {
        for ox in 0..out_w {
            // The output's horizontal axis runs along image columns or rows.
            let (along_col, along_row) = if columns_along_x { (ox, oy) } else { (oy, ox) };
            let i = if col_forward {
                along_col
            } else {
                w - 1 - along_col
            };
            let j = if row_forward {
                along_row
            } else {
                h - 1 - along_row
            };
            luma.push(gray.luma.get(j * w + i).copied().unwrap_or(255));
        }
    }
    (out_w, out_h, luma)
}

/// Inline-image abbreviations for dictionary keys.
fn inline_key(key: &[u8]) -> Vec<u8> {
    let full: &[u8] = match key {
        b"W" => b"Width",
        b"H" => b"Height",
        b"BPC" => b"BitsPerComponent",
        b"CS" => b"ColorSpace",
        b"D" => b"Decode",
        b"DP" => b"DecodeParms",
        b"F" => b"Filter",
        b"IM" => b"ImageMask",
        b"I" => b"Interpolate",
        other => other,
    };
    full.to_vec()
}

/// A value in an inline image header, starting with `first`.
fn inline_object(lexer: &mut Lexer<'_>, first: Token<'_>, depth: usize) -> Option<Object> {
    Some(match first {
        Token::Number(n) if n.fract() == 0.0 && n.abs() < 1e9 => Object::Integer(n as i64),
        Token::Number(n) => Object::Real(n),
        Token::Name(n) => Object::Name(n.into_owned()),
        Token::String(s) => Object::String(s, lopdf::StringFormat::Literal),
        Token::Keyword(b"true") => Object::Boolean(true),
        Token::Keyword(b"false") => Object::Boolean(false),
        Token::ArrayStart if depth < MAX_INLINE_DEPTH => {
            let mut items = Vec::new();
            loop {
                match lexer.next_token()? {
                    Token::ArrayEnd => break,
                    token => {
                        if let Some(item) = inline_object(lexer, token, depth + 1) {
                            items.push(item);
                        }
                    }
                }
            }
            Object::Array(items)
        }
        Token::DictStart if depth < MAX_INLINE_DEPTH => {
            let mut dict = Dictionary::new();
            loop {
                match lexer.next_token()? {
                    Token::DictEnd => break,
                    Token::Name(key) => {
                        let value = lexer.next_token()?;
                        if let Some(value) = inline_object(lexer, value, depth + 1) {
                            dict.set(inline_key(&key), value);
                        }
                    }
                    _ => {}
                }
            }
            Object::Dictionary(dict)
        }
        _ => return None,
    })
}

/// Where unfiltered inline data ends, from its dimensions, when an `EI`
/// follows there: binary samples may themselves contain " EI ".
fn unfiltered_end(
    doc: &Document,
    dict: &Dictionary,
    resources: Option<&Dictionary>,
    input: &[u8],
    start: usize,
) -> Option<usize> {
    if dict.has(b"Filter") {
        return None;
    }
    let number = |key: &[u8]| objects::get_number(doc, dict, key).map(|v| v.max(0.0) as usize);
    let stencil = matches!(dict.get(b"ImageMask"), Ok(Object::Boolean(true)));
    let (components, bits) = if stencil {
        (1, 1)
    } else {
        let cs = dict.get(b"ColorSpace").ok()?;
        let model = crate::color::ColorModel::resolve(doc, cs, resources)?;
        (model.components(), number(b"BitsPerComponent")?)
    };
    let stride = number(b"Width")?
        .checked_mul(components)?
        .checked_mul(bits)?
        .div_ceil(8);
    let end = start.checked_add(stride.checked_mul(number(b"Height")?)?)?;
    let rest = input.get(end..)?;
    let skip = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
    rest.get(skip..skip + 2)
        .is_some_and(|ei| ei == b"EI")
        .then_some(end)
}

/// The last six operands as a matrix.
fn last_numbers(ops: &[Operand<'_>]) -> Option<Matrix> {
    let tail = ops.get(ops.len().checked_sub(6)?..)?;
    let mut v = [0.0f32; 6];
    for (slot, op) in v.iter_mut().zip(tail) {
        match op {
            Operand::Number(n) => *slot = *n,
            _ => return None,
        }
    }
    Matrix::from_slice(&v)
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
