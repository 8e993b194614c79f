//! Image colour spaces, reduced to what turns samples into grey levels.

use lopdf::{Dictionary, Document, Object};

use crate::objects::{self, get_dict, resolve};

/// Most components a DeviceN image may have before we give up on it.
pub(crate) const MAX_COMPONENTS: usize = 32;
/// Named colour-space lookups followed before giving up (guards cycles).
const MAX_NAME_DEPTH: usize = 4;

/// How an image's component values (each already scaled to `0..=255`, or an
/// index for [`ColorModel::Indexed`]) become one 8-bit grey level.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ColorModel {
    Gray,
    Rgb,
    Cmyk,
    /// CIE L*a*b*: the grey level is L*.
    Lab,
    /// A palette, already turned into grey levels; indices past its end
    /// take the last entry.
    Indexed(Vec<u8>),
    /// `Separation` / `DeviceN` with this many tints; 1 means full ink,
    /// which we render as black rather than evaluating the tint transform.
    Tints(usize),
}

impl ColorModel {
    /// Components per pixel.
    pub fn components(&self) -> usize {
        match self {
            Self::Gray | Self::Indexed(_) => 1,
            Self::Rgb | Self::Lab => 3,
            Self::Cmyk => 4,
            Self::Tints(n) => *n,
        }
    }

    /// The device space for a JPEG's component count.
    pub fn for_components(n: usize) -> Option<Self> {
        match n {
            1 => Some(Self::Gray),
            3 => Some(Self::Rgb),
            4 => Some(Self::Cmyk),
            _ => None,
        }
    }

    /// Resolve a `/ColorSpace` value: a family name, a name defined in the
    /// resources' `/ColorSpace` dictionary (inline images), or an array.
    /// `None` for what cannot yield grey levels (patterns, garbage).
    pub fn resolve(doc: &Document, obj: &Object, resources: Option<&Dictionary>) -> Option<Self> {
        Self::resolve_at(doc, obj, resources, 0)
    }

    fn resolve_at(
        doc: &Document,
        obj: &Object,
        resources: Option<&Dictionary>,
        depth: usize,
    ) -> Option<Self> {
        if depth > MAX_NAME_DEPTH {
            return None;
        }
        match resolve(doc, obj)? {
            Object::Name(name) => match Self::family(name) {
                Some(model) => Some(model),
                None => {
                    let named = get_dict(doc, resources?, b"ColorSpace")?.get(name).ok()?;
                    Self::resolve_at(doc, named, resources, depth + 1)
                }
            },
            Object::Array(items) => {
                let family = match items.first().and_then(|o| resolve(doc, o)) {
                    Some(Object::Name(n)) => n.as_slice(),
                    _ => return None,
                };
                match family {
                    b"ICCBased" => {
                        let stream = items.get(1).and_then(|o| objects::as_dict(doc, o))?;
                        match objects::get_number(doc, stream, b"N").map(|n| n as i64) {
                            Some(1) => Some(Self::Gray),
                            Some(3) => Some(Self::Rgb),
                            Some(4) => Some(Self::Cmyk),
                            _ => stream
                                .get(b"Alternate")
                                .ok()
                                .and_then(|alt| Self::resolve_at(doc, alt, resources, depth + 1)),
                        }
                    }
                    b"Indexed" | b"I" => Self::indexed(doc, items, resources, depth),
                    b"Separation" => Some(Self::Tints(1)),
                    b"DeviceN" => {
                        let names = items.get(1).and_then(|o| resolve(doc, o));
                        match names {
                            Some(Object::Array(n)) if (1..=MAX_COMPONENTS).contains(&n.len()) => {
                                Some(Self::Tints(n.len()))
                            }
                            _ => None,
                        }
                    }
                    // `[/CalRGB <<…>>]`, `[/DeviceGray]` and the like.
                    other => Self::family(other),
                }
            }
            _ => None,
        }
    }

    /// Families named without parameters (abbreviations are inline images').
    fn family(name: &[u8]) -> Option<Self> {
        match name {
            b"DeviceGray" | b"G" | b"CalGray" => Some(Self::Gray),
            b"DeviceRGB" | b"RGB" | b"CalRGB" => Some(Self::Rgb),
            b"DeviceCMYK" | b"CMYK" => Some(Self::Cmyk),
            b"Lab" => Some(Self::Lab),
            _ => None,
        }
    }

    /// `[/Indexed base hival lookup]`, with the lookup table turned into
    /// grey levels once.
    fn indexed(
        doc: &Document,
        items: &[Object],
        resources: Option<&Dictionary>,
        depth: usize,
    ) -> Option<Self> {
        let base = Self::resolve_at(doc, items.get(1)?, resources, depth + 1)?;
        if matches!(base, Self::Indexed(_)) {
            return None;
        }
        let hival = objects::as_number(doc, items.get(2)?)?.clamp(0.0, 255.0) as usize;
        let lookup: Vec<u8> = match resolve(doc, items.get(3)?)? {
            Object::String(bytes, _) => bytes.clone(),
            Object::Stream(s) => objects::stream_data(s, 256 * MAX_COMPONENTS)?,
            _ => return None,
        };
        let n = base.components();
        let mut comps = [0u8; MAX_COMPONENTS];
        let palette = (0..=hival)
            .map(|i| {
                for (k, slot) in comps.iter_mut().take(n).enumerate() {
                    // A short table leaves the missing entries at 0.
                    *slot = lookup.get(i * n + k).copied().unwrap_or(0);
                }
                base.luma(comps.get(..n).unwrap_or_default())
            })
            .collect();
        Some(Self::Indexed(palette))
    }

    /// The default `/Decode` range of every component, in the units the
    /// component lookup tables produce: `0..=1` (of 255) for colour values,
    /// `0..=2^bits - 1` for palette indices.
    pub fn default_decode(&self, bits: u32) -> (f32, f32) {
        match self {
            Self::Indexed(_) => (0.0, ((1u32 << bits.min(8)) - 1) as f32),
            _ => (0.0, 1.0),
        }
    }

    pub fn is_indexed(&self) -> bool {
        matches!(self, Self::Indexed(_))
    }

    /// One pixel's grey level from its components (`components()` of them).
    pub fn luma(&self, c: &[u8]) -> u8 {
        let at = |i: usize| u32::from(c.get(i).copied().unwrap_or(0));
        match self {
            Self::Gray | Self::Lab => at(0) as u8,
            Self::Rgb => rgb_luma(at(0), at(1), at(2)),
            Self::Cmyk => {
                let k = 255 - at(3);
                rgb_luma(
                    (255 - at(0)) * k / 255,
                    (255 - at(1)) * k / 255,
                    (255 - at(2)) * k / 255,
                )
            }
            Self::Indexed(palette) => palette
                .get(at(0) as usize)
                .or(palette.last())
                .copied()
                .unwrap_or(0),
            Self::Tints(n) => {
                let ink = c.iter().take(*n).copied().max().unwrap_or(0);
                255 - ink
            }
        }
    }
}

/// Rec. 601 luma in fixed point, inputs in `0..=255`.
fn rgb_luma(r: u32, g: u32, b: u32) -> u8 {
    ((r * 77 + g * 150 + b * 29 + 128) >> 8).min(255) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::{StringFormat, dictionary};

    #[test]
    fn families_and_luma() {
        let doc = Document::new();
        let name = |n: &str| Object::Name(n.as_bytes().to_vec());
        let gray = ColorModel::resolve(&doc, &name("DeviceGray"), None).unwrap();
        assert_eq!(gray.luma(&[77]), 77);
        let rgb = ColorModel::resolve(&doc, &name("RGB"), None).unwrap();
        assert_eq!(rgb.luma(&[255, 255, 255]), 255);
        assert_eq!(rgb.luma(&[0, 0, 0]), 0);
        let cmyk = ColorModel::resolve(&doc, &name("DeviceCMYK"), None).unwrap();
        assert_eq!(cmyk.luma(&[0, 0, 0, 255]), 0);
        assert_eq!(cmyk.luma(&[0, 0, 0, 0]), 255);
        assert!(ColorModel::resolve(&doc, &name("Pattern"), None).is_none());
    }

    #[test]
    fn icc_by_component_count_and_named_spaces() {
        let mut doc = Document::new();
        let icc = doc.add_object(lopdf::Stream::new(dictionary! { "N" => 3 }, vec![]));
        let array = Object::Array(vec![Object::Name(b"ICCBased".to_vec()), icc.into()]);
        assert_eq!(
            ColorModel::resolve(&doc, &array, None),
            Some(ColorModel::Rgb)
        );
        let resources = dictionary! { "ColorSpace" => dictionary! { "CS0" => array } };
        let named = Object::Name(b"CS0".to_vec());
        assert_eq!(
            ColorModel::resolve(&doc, &named, Some(&resources)),
            Some(ColorModel::Rgb)
        );
    }

    #[test]
    fn indexed_palette_becomes_grey_levels() {
        let doc = Document::new();
        let array = Object::Array(vec![
            Object::Name(b"Indexed".to_vec()),
            Object::Name(b"DeviceRGB".to_vec()),
            Object::Integer(1),
            Object::String(vec![0, 0, 0, 255, 255, 255], StringFormat::Hexadecimal),
        ]);
        let model = ColorModel::resolve(&doc, &array, None).unwrap();
        assert_eq!(model, ColorModel::Indexed(vec![0, 255]));
        // Out-of-range indices clamp to the last entry.
        assert_eq!(model.luma(&[9]), 255);
        assert_eq!(model.components(), 1);
    }
}
