//! An image stream's filter chain: general-purpose filters down to packed
//! samples, plus the image codecs (JPEG, CCITT fax) that end a chain.

use std::io::Read;

use lopdf::{Dictionary, Document, Object, Stream};

use crate::objects::{self, resolve};
use crate::predictor::Predictor;
use crate::rows::{self, Rows};

/// Filters named on one stream that we are willing to run.
const MAX_FILTERS: usize = 8;

/// What the filter chain produced.
#[derive(Debug)]
pub(crate) enum Decoded<'c> {
    /// Samples packed as the image dictionary describes them.
    Packed(Rows<'c>),
    /// JPEG pixels, 8 bits per component, interleaved.
    Jpeg {
        width: usize,
        height: usize,
        components: usize,
        data: Vec<u8>,
    },
}

/// Run `/Filter` over `content`. `limit` bounds every intermediate result;
/// `None` for unsupported codecs (JPX, JBIG2) and broken data. A lone
/// Flate filter is inflated lazily, row by row. `jpeg_size` is the smallest
/// size a JPEG may be scaled down to while decoding (DCT scaling).
pub(crate) fn decode<'c>(
    doc: &Document,
    dict: &Dictionary,
    content: &'c [u8],
    limit: usize,
    jpeg_size: (u16, u16),
) -> Option<Decoded<'c>> {
    let filters: Vec<&[u8]> = match dict.get(b"Filter").ok().and_then(|o| resolve(doc, o)) {
        None => Vec::new(),
        Some(Object::Name(n)) => vec![n.as_slice()],
        Some(Object::Array(items)) => items
            .iter()
            .map(|o| match resolve(doc, o) {
                Some(Object::Name(n)) => Some(n.as_slice()),
                _ => None,
            })
            .collect::<Option<_>>()?,
        Some(_) => return None,
    };
    if filters.len() > MAX_FILTERS {
        return None;
    }
    let params_at = |i: usize| -> Option<&Dictionary> {
        match dict
            .get(b"DecodeParms")
            .ok()
            .and_then(|o| resolve(doc, o))?
        {
            Object::Dictionary(d) if i == 0 => Some(d),
            Object::Array(items) => objects::as_dict(doc, items.get(i)?),
            _ => None,
        }
    };
    if let [b"FlateDecode" | b"Fl"] = filters.as_slice() {
        return Rows::inflate(content, predictor(doc, params_at(0))).map(Decoded::Packed);
    }
    let mut data = content.to_vec();
    let last = filters.len().saturating_sub(1);
    for (i, filter) in filters.iter().enumerate() {
        let params = params_at(i);
        data = match *filter {
            b"FlateDecode" | b"Fl" => {
                let inflated = inflate(&data, limit);
                predictor(doc, params).undo(inflated)?
            }
            b"LZWDecode" | b"LZW" | b"ASCII85Decode" | b"A85" | b"ASCIIHexDecode" | b"AHx"
            | b"RunLengthDecode" | b"RL" => lopdf_filter(filter, params, data, limit)?,
            b"DCTDecode" | b"DCT" if i == last => return jpeg(&data, limit, jpeg_size),
            b"CCITTFaxDecode" | b"CCF" if i == last => {
                return ccitt(doc, dict, params, &data).map(|d| Decoded::Packed(Rows::buffered(d)));
            }
            _ => return None,
        };
    }
    Some(Decoded::Packed(Rows::buffered(data)))
}

/// Inflate zlib data (or raw deflate), keeping whatever came out before a
/// corrupt or truncated tail, as viewers do. At most `limit` bytes.
fn inflate(data: &[u8], limit: usize) -> Vec<u8> {
    let cap = u64::try_from(limit).unwrap_or(u64::MAX);
    let mut out = Vec::new();
    let _ = rows::deflate(data).take(cap).read_to_end(&mut out);
    out
}

fn predictor(doc: &Document, params: Option<&Dictionary>) -> Predictor {
    let Some(params) = params else {
        return Predictor::default();
    };
    let int = |key: &[u8], default: f32| {
        objects::get_number(doc, params, key)
            .unwrap_or(default)
            .clamp(0.0, 1e9) as usize
    };
    Predictor {
        kind: objects::get_number(doc, params, b"Predictor").map_or(1, |p| p as i64),
        colors: int(b"Colors", 1.0).max(1),
        bits: int(b"BitsPerComponent", 8.0),
        columns: int(b"Columns", 1.0).max(1),
    }
}

/// The filters lopdf already implements, run on a scratch stream.
fn lopdf_filter(
    filter: &[u8],
    params: Option<&Dictionary>,
    data: Vec<u8>,
    limit: usize,
) -> Option<Vec<u8>> {
    let full: &[u8] = match filter {
        b"LZW" => b"LZWDecode",
        b"A85" => b"ASCII85Decode",
        b"AHx" => b"ASCIIHexDecode",
        b"RL" => b"RunLengthDecode",
        other => other,
    };
    let mut dict = Dictionary::new();
    dict.set("Filter", Object::Name(full.to_vec()));
    if let Some(p) = params {
        dict.set("DecodeParms", Object::Dictionary(p.clone()));
    }
    Stream::new(dict, data)
        .get_plain_content_with_limit(limit)
        .ok()
}

fn jpeg(data: &[u8], limit: usize, size: (u16, u16)) -> Option<Decoded<'static>> {
    let mut decoder = jpeg_decoder::Decoder::new(data);
    decoder.set_max_decoding_buffer_size(limit);
    decoder.read_info().ok()?;
    // DCT scaling (1/2, 1/4, 1/8) when a smaller image will do.
    decoder.scale(size.0.max(1), size.1.max(1)).ok()?;
    let info = decoder.info()?;
    let (width, height) = (usize::from(info.width), usize::from(info.height));
    let pixels = decoder.decode().ok()?;
    let (components, data) = match info.pixel_format {
        jpeg_decoder::PixelFormat::L8 => (1, pixels),
        jpeg_decoder::PixelFormat::RGB24 => (3, pixels),
        jpeg_decoder::PixelFormat::CMYK32 => (4, pixels),
        // 16-bit grey (big-endian): keep the high bytes.
        jpeg_decoder::PixelFormat::L16 => (1, pixels.iter().step_by(2).copied().collect()),
    };
    (data.len() >= width * height * components).then_some(Decoded::Jpeg {
        width,
        height,
        components,
        data,
    })
}

/// CCITT Group 4 (`/K` < 0) or Group 3 with EOL codes, to 1-bit rows in the
/// filter's output convention: 0 is black unless `/BlackIs1`.
fn ccitt(
    doc: &Document,
    dict: &Dictionary,
    params: Option<&Dictionary>,
    data: &[u8],
) -> Option<Vec<u8>> {
    let number = |key: &[u8]| params.and_then(|p| objects::get_number(doc, p, key));
    let k = number(b"K").unwrap_or(0.0);
    let width = number(b"Columns")
        .or_else(|| objects::get_number(doc, dict, b"Width"))
        .unwrap_or(1728.0);
    let height = number(b"Rows")
        .or_else(|| objects::get_number(doc, dict, b"Height"))
        .filter(|h| *h >= 1.0);
    if !(1.0..=65_536.0).contains(&width) {
        return None;
    }
    let width = width as u32;
    let height = height.map(|h| h.min(65_536.0) as u32);
    let black_is_1 = matches!(
        params.and_then(|p| p.get(b"BlackIs1").ok()),
        Some(Object::Boolean(true))
    );
    let stride = (width as usize).div_ceil(8);
    let mut out = Vec::new();
    let max_rows = height.unwrap_or(65_536) as usize;
    let mut add_line = |transitions: &[u32]| {
        if out.len() >= max_rows * stride {
            return;
        }
        let mut row = vec![0u8; stride];
        for (x, color) in fax::decoder::pels(transitions, width).enumerate() {
            let black = color == fax::Color::Black;
            if black == black_is_1
                && let Some(b) = row.get_mut(x / 8)
            {
                *b |= 0x80 >> (x % 8);
            }
        }
        out.extend_from_slice(&row);
    };
    let bytes = data.iter().copied();
    let ok = if k < 0.0 {
        fax::decoder::decode_g4(bytes, width, height, &mut add_line)
    } else {
        fax::decoder::decode_g3(bytes, &mut add_line)
    };
    // A stream cut short still yields its complete rows.
    (ok.is_some() || !out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::dictionary;

    fn zlib(data: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(data).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn flate_with_png_predictor() {
        let doc = Document::new();
        // Two rows of three bytes, Sub-filtered.
        let dict = dictionary! {
            "Filter" => "FlateDecode",
            "DecodeParms" => dictionary! { "Predictor" => 12, "Columns" => 3 },
        };
        let content = zlib(&[1, 1, 1, 1, 1, 5, 5, 5]);
        match decode(&doc, &dict, &content, 1 << 20, (u16::MAX, u16::MAX)) {
            Some(Decoded::Packed(mut rows)) => assert_eq!(rows.next_row(6), [1, 2, 3, 5, 10, 15]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn chains_and_unsupported_codecs() {
        let doc = Document::new();
        let dict = dictionary! {
            "Filter" => vec![Object::Name(b"AHx".to_vec()), Object::Name(b"Fl".to_vec())],
        };
        let hex: String = zlib(b"\x07\x08")
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let hex = format!("{hex}>");
        match decode(&doc, &dict, hex.as_bytes(), 1 << 20, (u16::MAX, u16::MAX)) {
            Some(Decoded::Packed(mut rows)) => assert_eq!(rows.next_row(2), [7, 8]),
            other => panic!("{other:?}"),
        }
        let dict = dictionary! { "Filter" => "JPXDecode" };
        assert!(decode(&doc, &dict, b"x", 1 << 20, (u16::MAX, u16::MAX)).is_none());
        // Garbage JPEG data fails cleanly.
        let dict = dictionary! { "Filter" => "DCTDecode" };
        assert!(decode(&doc, &dict, b"\xff\xd8junk", 1 << 20, (u16::MAX, u16::MAX)).is_none());
    }

    #[test]
    fn inflate_is_bounded_and_lenient() {
        let data = zlib(&[0u8; 10_000]);
        assert_eq!(inflate(&data, 100).len(), 100);
        // A truncated stream keeps what it decoded.
        let cut = data.get(..data.len() / 2).unwrap();
        assert!(inflate(cut, 1 << 20).len() <= 10_000);
        assert!(inflate(b"not zlib at all", 1 << 20).len() < 100);
    }
}
