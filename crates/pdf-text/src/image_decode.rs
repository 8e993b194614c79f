//! Image XObjects (and inline images) to 8-bit grey pixels: sample
//! unpacking, `/Decode` arrays, colour spaces, stencil masks and soft masks.

use lopdf::{Dictionary, Document, Object};

use crate::color::{ColorModel, MAX_COMPONENTS};
use crate::image_filters::{self, Decoded};
use crate::objects::{self, get, resolve};
use crate::rows::Rows;

/// Widest or tallest image we look at, in pixels.
const MAX_SIDE: usize = 1 << 15;

/// A decoded image in sample order: row 0 is the image's first row.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Gray {
    pub width: usize,
    pub height: usize,
    /// `width * height` grey levels, 0 black to 255 white, row-major.
    pub luma: Vec<u8>,
}

/// How much of an image to decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Images with more pixels than this are not decoded at all.
    pub max_pixels: usize,
    /// Larger images are reduced, by point sampling, by the smallest
    /// integer factor that brings both sides within this.
    pub max_side: usize,
}

/// Decode an image whose dictionary is `dict` and whose (still filtered)
/// data is `content`. `resources` resolves named colour spaces of inline
/// images. `None` for anything unsupported, broken or over the limits.
pub(crate) fn decode(
    doc: &Document,
    dict: &Dictionary,
    content: &[u8],
    resources: Option<&Dictionary>,
    limits: Limits,
) -> Option<Gray> {
    decode_at(doc, dict, content, resources, limits, true)
}

/// The reduction factor that brings `w`×`h` within `max_side`.
fn reduction(w: usize, h: usize, max_side: usize) -> usize {
    w.max(h).div_ceil(max_side.max(1)).max(1)
}

fn decode_at(
    doc: &Document,
    dict: &Dictionary,
    content: &[u8],
    resources: Option<&Dictionary>,
    limits: Limits,
    with_masks: bool,
) -> Option<Gray> {
    let dim = |key: &[u8]| {
        objects::get_number(doc, dict, key)
            .filter(|v| *v >= 1.0 && *v <= MAX_SIDE as f32)
            .map(|v| v as usize)
    };
    let (width, height) = (dim(b"Width")?, dim(b"Height")?);
    if width.checked_mul(height)? > limits.max_pixels {
        return None;
    }
    let stencil = matches!(get(doc, dict, b"ImageMask"), Some(Object::Boolean(true)));
    let model = if stencil {
        ColorModel::Gray
    } else {
        match dict.get(b"ColorSpace") {
            Ok(cs) => ColorModel::resolve(doc, cs, resources)?,
            // JPEGs may leave the colour space to the codestream (which
            // overrides below); anything else without one reads as grey.
            Err(_) => ColorModel::Gray,
        }
    };
    let bits = if stencil {
        1
    } else {
        objects::get_number(doc, dict, b"BitsPerComponent").map_or(8, |b| b as u32)
    };
    if !matches!(bits, 1 | 2 | 4 | 8 | 16) {
        return None;
    }
    // Room for the packed rows (plus PNG predictor tags) or for JPEG's
    // CMYK pixels, whichever is larger: no honest stream decodes to more.
    let packed = width
        .checked_mul(model.components())?
        .checked_mul(bits as usize)?
        .div_ceil(8)
        .checked_add(1)?
        .checked_mul(height)?;
    let limit = packed
        .max(width.checked_mul(height)?.checked_mul(4)?)
        .checked_add(1 << 16)?;
    let k = reduction(width, height, limits.max_side);
    let wanted = |v: usize| u16::try_from(v.div_ceil(k)).unwrap_or(u16::MAX);
    let decoded =
        image_filters::decode(doc, dict, content, limit, (wanted(width), wanted(height)))?;
    let decode_array = objects::get_array(doc, dict, b"Decode").map(|a| objects::numbers(doc, a));
    let mut gray = match decoded {
        Decoded::Packed(mut rows) => {
            let layout = Layout {
                width,
                height,
                bits,
                model: &model,
            };
            let tables = layout.tables(decode_array.as_deref());
            let key = if with_masks {
                color_key(doc, dict, model.components())
            } else {
                None
            };
            layout.unpack(&mut rows, &tables, key.as_deref(), k)
        }
        Decoded::Jpeg {
            width: w,
            height: h,
            components,
            data,
        } => {
            if w.checked_mul(h)? > limits.max_pixels {
                return None;
            }
            // The codestream's component count decides; the dictionary's
            // colour space only when it agrees.
            let model = if model.components() == components && !model.is_indexed() {
                model
            } else {
                ColorModel::for_components(components)?
            };
            let layout = Layout {
                width: w,
                height: h,
                bits: 8,
                model: &model,
            };
            // jpeg-decoder already undoes Adobe's inverted CMYK, which is
            // what a four-component /Decode [1 0 …] is there for.
            let decode = decode_array.as_deref().filter(|_| components != 4);
            let tables = layout.tables(decode);
            let k = reduction(w, h, limits.max_side);
            layout.unpack(&mut Rows::buffered(data), &tables, None, k)
        }
    };
    if stencil {
        // Painted samples (0 unless /Decode says [1 0]) show the fill
        // colour, taken as black; the rest leave the page white.
        for v in &mut gray.luma {
            *v = if *v == 0 { 0 } else { 255 };
        }
    } else if with_masks {
        apply_masks(doc, dict, limits, &mut gray);
    }
    Some(gray)
}

/// How packed samples are laid out and interpreted.
struct Layout<'m> {
    width: usize,
    height: usize,
    bits: u32,
    model: &'m ColorModel,
}

impl Layout<'_> {
    /// One lookup table per component, from raw sample to component value
    /// (a `0..=255` level, or a palette index), honouring `/Decode`. For
    /// 16-bit samples the table is indexed by the high byte.
    fn tables(&self, decode: Option<&[f32]>) -> Vec<Vec<u8>> {
        let n = self.model.components();
        let table_bits = self.bits.min(8);
        let max = ((1u32 << table_bits) - 1) as f32;
        let (default_lo, default_hi) = self.model.default_decode(table_bits);
        let indexed = self.model.is_indexed();
        (0..n)
            .map(|c| {
                // Lab's /Decode is in L*a*b* units: keep the defaults.
                let (lo, hi) = match decode {
                    Some(d) if d.len() >= 2 * n && self.model != &ColorModel::Lab => {
                        (d[2 * c], d[2 * c + 1])
                    }
                    _ => (default_lo, default_hi),
                };
                (0..=max as u32)
                    .map(|s| {
                        let v = lo + s as f32 * (hi - lo) / max.max(1.0);
                        if indexed {
                            v.round().clamp(0.0, 255.0) as u8
                        } else {
                            (v * 255.0).round().clamp(0.0, 255.0) as u8
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Packed rows (each starting on a byte boundary) to grey levels, every
    /// `k`-th pixel of every `k`-th row (the centre of each `k`×`k` block).
    /// Short data reads as zero samples. `key` lists raw `[min, max]` per
    /// component: matching pixels are masked out (left white).
    fn unpack(
        &self,
        rows: &mut Rows<'_>,
        tables: &[Vec<u8>],
        key: Option<&[(u32, u32)]>,
        k: usize,
    ) -> Gray {
        let n = self.model.components();
        let bits = self.bits as usize;
        let stride = (self.width * n * bits).div_ceil(8);
        let (out_w, out_h) = (self.width.div_ceil(k), self.height.div_ceil(k));
        let columns: Vec<usize> = (0..out_w)
            .map(|i| (i * k + k / 2).min(self.width - 1))
            .collect();
        let table = |c: usize| tables.get(c).map_or(&[][..], Vec::as_slice);
        let convert = Convert::new(self.model, tables, bits, key);
        let mut luma = Vec::with_capacity(out_w * out_h);
        let mut next_row = 0;
        for oy in 0..out_h {
            let y = (oy * k + k / 2).min(self.height - 1);
            while next_row < y {
                rows.skip_row(stride);
                next_row += 1;
            }
            let row = rows.next_row(stride);
            next_row += 1;
            match &convert {
                Convert::Single(grey) if bits == 8 && k == 1 => {
                    luma.extend(row.iter().map(|&s| grey[usize::from(s)]));
                }
                Convert::Single(grey) if bits == 8 => {
                    luma.extend(
                        columns
                            .iter()
                            .map(|&x| grey[usize::from(row.get(x).copied().unwrap_or(0))]),
                    );
                }
                Convert::Single(grey) => {
                    luma.extend(columns.iter().map(|&x| grey[sample(row, x, bits) as usize]));
                }
                Convert::Rgb8(r, g, b) if k == 1 => {
                    let pixels = row.chunks_exact(3).take(out_w);
                    luma.extend(pixels.map(|p| {
                        let (pr, pg, pb) =
                            (usize::from(p[0]), usize::from(p[1]), usize::from(p[2]));
                        ((r[pr] + g[pg] + b[pb] + 128) >> 8).min(255) as u8
                    }));
                    luma.resize((oy + 1) * out_w, 0);
                }
                Convert::Rgb8(r, g, b) => luma.extend(columns.iter().map(|&x| {
                    let at = |c: usize| usize::from(row.get(3 * x + c).copied().unwrap_or(0));
                    ((r[at(0)] + g[at(1)] + b[at(2)] + 128) >> 8).min(255) as u8
                })),
                Convert::General => {
                    let mut raw = [0u32; MAX_COMPONENTS];
                    let mut comps = [0u8; MAX_COMPONENTS];
                    for &x in &columns {
                        for c in 0..n {
                            let s = sample(row, x * n + c, bits);
                            raw[c] = s;
                            // 16-bit samples: the table is indexed by the high byte.
                            let idx = if bits == 16 { s >> 8 } else { s } as usize;
                            comps[c] = table(c).get(idx).copied().unwrap_or(0);
                        }
                        let masked = key.is_some_and(|k| {
                            k.iter()
                                .zip(&raw[..n])
                                .all(|(&(lo, hi), &v)| (lo..=hi).contains(&v))
                        });
                        luma.push(if masked {
                            255
                        } else {
                            self.model.luma(&comps[..n])
                        });
                    }
                }
            }
        }
        Gray {
            width: out_w,
            height: out_h,
            luma,
        }
    }
}

/// The per-pixel conversion [`Layout::unpack`] uses: precomputed tables for
/// the common layouts, the general path for the rest.
enum Convert {
    /// One component of at most 8 bits: raw sample to grey level.
    Single(Box<[u8; 256]>),
    /// 8-bit RGB: each channel's share of the luma, in 1/256ths.
    Rgb8(Box<[u32; 256]>, Box<[u32; 256]>, Box<[u32; 256]>),
    General,
}

impl Convert {
    fn new(
        model: &ColorModel,
        tables: &[Vec<u8>],
        bits: usize,
        key: Option<&[(u32, u32)]>,
    ) -> Self {
        if key.is_some() {
            return Self::General;
        }
        let level = |c: usize, s: usize| tables.get(c).and_then(|t| t.get(s)).copied().unwrap_or(0);
        if model.components() == 1 && bits <= 8 {
            let mut grey = Box::new([0u8; 256]);
            for (s, v) in grey.iter_mut().enumerate() {
                *v = model.luma(&[level(0, s)]);
            }
            return Self::Single(grey);
        }
        if *model == ColorModel::Rgb && bits == 8 {
            let share = |c: usize, weight: u32| {
                let mut t = Box::new([0u32; 256]);
                for (s, v) in t.iter_mut().enumerate() {
                    *v = u32::from(level(c, s)) * weight;
                }
                t
            };
            // Rec. 601 weights, as ColorModel::luma uses.
            return Self::Rgb8(share(0, 77), share(1, 150), share(2, 29));
        }
        Self::General
    }
}

/// Sample `index` of a row of `bits`-bit samples packed MSB first; 0 past
/// the end of the data.
fn sample(row: &[u8], index: usize, bits: usize) -> u32 {
    match bits {
        8 => row.get(index).map_or(0, |&b| u32::from(b)),
        16 => {
            let hi = row.get(2 * index).copied().unwrap_or(0);
            let lo = row.get(2 * index + 1).copied().unwrap_or(0);
            u32::from(u16::from_be_bytes([hi, lo]))
        }
        _ => {
            let bit = index * bits;
            let shift = 8 - bits - bit % 8;
            row.get(bit / 8)
                .map_or(0, |&b| u32::from(b >> shift) & ((1 << bits) - 1))
        }
    }
}

/// A colour-key `/Mask` array: raw sample ranges per component.
fn color_key(doc: &Document, dict: &Dictionary, n: usize) -> Option<Vec<(u32, u32)>> {
    let Some(Object::Array(items)) = get(doc, dict, b"Mask") else {
        return None;
    };
    let v = objects::numbers(doc, items);
    (v.len() >= 2 * n).then(|| {
        v.chunks(2)
            .take(n)
            .map(|p| {
                (
                    p[0].max(0.0) as u32,
                    p.get(1).copied().unwrap_or(0.0).max(0.0) as u32,
                )
            })
            .collect()
    })
}

/// Composite the image over a white page through its `/SMask` (soft mask)
/// or stencil `/Mask`, so transparent areas read as paper, not as whatever
/// colour the hidden samples carry.
fn apply_masks(doc: &Document, dict: &Dictionary, limits: Limits, gray: &mut Gray) {
    let (mask, stencil) = match (get(doc, dict, b"SMask"), get(doc, dict, b"Mask")) {
        (Some(Object::Stream(s)), _) => (s, false),
        (_, Some(Object::Stream(s))) => (s, true),
        _ => return,
    };
    let mut mask_dict = mask.dict.clone();
    if stencil {
        mask_dict.set("ImageMask", true);
    } else if !mask_dict.has(b"ColorSpace") {
        mask_dict.set("ColorSpace", "DeviceGray");
    }
    let Some(mut alpha) = decode_at(doc, &mask_dict, &mask.content, None, limits, false) else {
        return;
    };
    if stencil {
        // A stencil mask paints (is opaque) where its decoded value is 0.
        for a in &mut alpha.luma {
            *a = 255 - *a;
        }
    }
    if alpha.luma.iter().all(|&a| a == 255) || alpha.width == 0 || alpha.height == 0 {
        return;
    }
    let blend = |v: &mut u8, a: u8| {
        let ink = (u32::from(255 - *v) * u32::from(a) + 127) / 255;
        *v = 255 - ink.min(255) as u8;
    };
    if (alpha.width, alpha.height) == (gray.width, gray.height) {
        for (v, &a) in gray.luma.iter_mut().zip(&alpha.luma) {
            blend(v, a);
        }
        return;
    }
    for y in 0..gray.height {
        let ay = y * alpha.height / gray.height;
        for x in 0..gray.width {
            let ax = x * alpha.width / gray.width;
            let a = alpha
                .luma
                .get(ay * alpha.width + ax)
                .copied()
                .unwrap_or(255);
            if let Some(v) = gray.luma.get_mut(y * gray.width + x) {
                blend(v, a);
            }
        }
    }
}

/// Whether `obj` names an image XObject.
pub(crate) fn is_image(doc: &Document, obj: &Object) -> bool {
    match resolve(doc, obj) {
        Some(Object::Stream(s)) => {
            matches!(objects::get_name(doc, &s.dict, b"Subtype"), Some(b"Image"))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::{StringFormat, dictionary};

    fn limits(max_pixels: usize) -> Limits {
        Limits {
            max_pixels,
            max_side: usize::MAX,
        }
    }

    fn gray(dict: Dictionary, data: &[u8]) -> Gray {
        decode(&Document::new(), &dict, data, None, limits(1 << 20)).unwrap()
    }

    #[test]
    fn one_bit_grey_and_decode_inversion() {
        let dict = dictionary! {
            "Width" => 10, "Height" => 2, "BitsPerComponent" => 1, "ColorSpace" => "DeviceGray",
        };
        // Rows pad to whole bytes: 10 bits take 2 bytes.
        let g = gray(dict.clone(), &[0b1010_0000, 0b0100_0000, 0xff, 0xff]);
        assert_eq!(
            g.luma.get(..10).unwrap(),
            [255, 0, 255, 0, 0, 0, 0, 0, 0, 255]
        );
        assert!(g.luma.get(10..).unwrap().iter().all(|&v| v == 255));
        let mut inverted = dict;
        inverted.set("Decode", vec![1.into(), 0.into()]);
        let g = gray(inverted, &[0b1010_0000, 0b0100_0000, 0xff, 0xff]);
        assert_eq!(g.luma.get(..3).unwrap(), [0, 255, 0]);
    }

    #[test]
    fn indexed_two_and_four_bit() {
        let palette = Object::Array(vec![
            Object::Name(b"Indexed".to_vec()),
            Object::Name(b"DeviceGray".to_vec()),
            Object::Integer(3),
            Object::String(vec![0, 85, 170, 255], StringFormat::Literal),
        ]);
        let dict = dictionary! {
            "Width" => 4, "Height" => 1, "BitsPerComponent" => 2, "ColorSpace" => palette.clone(),
        };
        assert_eq!(gray(dict, &[0b0001_1011]).luma, [0, 85, 170, 255]);
        let dict = dictionary! {
            "Width" => 3, "Height" => 1, "BitsPerComponent" => 4, "ColorSpace" => palette,
        };
        // Index 9 is past hival and clamps to the last entry.
        assert_eq!(gray(dict, &[0x31, 0x90]).luma, [255, 85, 255]);
    }

    #[test]
    fn rgb_cmyk_and_sixteen_bit() {
        let dict = dictionary! {
            "Width" => 2, "Height" => 1, "BitsPerComponent" => 8, "ColorSpace" => "DeviceRGB",
        };
        assert_eq!(gray(dict, &[255, 255, 255, 0, 0, 0]).luma, [255, 0]);
        let dict = dictionary! {
            "Width" => 1, "Height" => 1, "BitsPerComponent" => 8, "ColorSpace" => "DeviceCMYK",
        };
        assert_eq!(gray(dict, &[0, 0, 0, 255]).luma, [0]);
        let dict = dictionary! {
            "Width" => 2, "Height" => 1, "BitsPerComponent" => 16, "ColorSpace" => "DeviceGray",
        };
        assert_eq!(gray(dict, &[0xff, 0xff, 0x00, 0x10]).luma, [255, 0]);
    }

    #[test]
    fn stencil_masks_paint_zero_samples() {
        let dict = dictionary! { "Width" => 4, "Height" => 1, "ImageMask" => true };
        assert_eq!(gray(dict, &[0b0011_0000]).luma, [0, 0, 255, 255]);
        let dict = dictionary! {
            "Width" => 4, "Height" => 1, "ImageMask" => true,
            "Decode" => vec![1.into(), 0.into()],
        };
        assert_eq!(gray(dict, &[0b0011_0000]).luma, [255, 255, 0, 0]);
    }

    #[test]
    fn soft_mask_composites_over_white() {
        let mut doc = Document::new();
        let smask = doc.add_object(lopdf::Stream::new(
            dictionary! {
                "Width" => 2, "Height" => 1, "BitsPerComponent" => 8, "ColorSpace" => "DeviceGray",
            },
            vec![255, 0],
        ));
        let dict = dictionary! {
            "Width" => 2, "Height" => 1, "BitsPerComponent" => 8, "ColorSpace" => "DeviceGray",
            "SMask" => smask,
        };
        // Both samples black; the second is fully transparent.
        let g = decode(&doc, &dict, &[0, 0], None, limits(100)).unwrap();
        assert_eq!(g.luma, [0, 255]);
    }

    #[test]
    fn colour_key_mask_and_limits() {
        let dict = dictionary! {
            "Width" => 3, "Height" => 1, "BitsPerComponent" => 8, "ColorSpace" => "DeviceGray",
            "Mask" => vec![0.into(), 10.into()],
        };
        assert_eq!(gray(dict, &[5, 20, 0]).luma, [255, 20, 255]);
        let big = dictionary! {
            "Width" => 5000, "Height" => 5000, "BitsPerComponent" => 8, "ColorSpace" => "DeviceGray",
        };
        assert!(decode(&Document::new(), &big, &[], None, limits(4_000_000)).is_none());
        let bad = dictionary! { "Width" => 2, "Height" => 2, "BitsPerComponent" => 3 };
        assert!(decode(&Document::new(), &bad, &[0; 4], None, limits(100)).is_none());
    }
}
