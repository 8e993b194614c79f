//! Parsing of embedded CMaps: ToUnicode maps and CID encoding maps.
//!
//! One parser serves both kinds because they share syntax: codespace ranges
//! say how to split a byte string into codes, `bfchar`/`bfrange` map codes to
//! Unicode text, and `cidchar`/`cidrange` map codes to CIDs.

use crate::glyphs;
use crate::lexer::{Lexer, Token};

/// Ranges up to this size are expanded into single entries at parse time;
/// larger ones stay lazy so `<0000> <FFFF> <0000>` costs nothing.
const EXPAND_LIMIT: u32 = 1024;
/// Caps that keep a hostile CMap from eating memory.
const MAX_ENTRIES: usize = 1 << 20;
const MAX_RANGES: usize = 1 << 16;
/// Total bytes of destination text kept (long destinations times many codes).
const MAX_TEXT: usize = 16 << 20;

/// One codespace range: codes of `len` bytes whose every byte lies between
/// the corresponding bytes of `low` and `high`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Codespace {
    len: usize,
    low: [u8; 4],
    high: [u8; 4],
}

impl Codespace {
    fn matches(&self, bytes: &[u8]) -> bool {
        let Some(code) = bytes.get(..self.len) else {
            return false;
        };
        code.iter()
            .zip(self.low.iter().zip(self.high.iter()))
            .all(|(b, (lo, hi))| lo <= b && b <= hi)
    }
}

/// A large `bfrange` kept unexpanded.
#[derive(Debug, Clone)]
struct LazyRange {
    low: u32,
    high: u32,
    /// Destination of `low` as UTF-16 code units; later codes bump the last unit.
    base: Vec<u16>,
}

/// A `cidrange` (or `cidchar`, with `low == high`).
#[derive(Debug, Clone, Copy)]
struct CidRange {
    low: u32,
    high: u32,
    cid: u32,
}

/// A parsed CMap.
#[derive(Debug, Clone, Default)]
pub(crate) struct CMap {
    codespaces: Vec<Codespace>,
    /// (code, start, end) into `text`, sorted by code.
    entries: Vec<(u32, u32, u32)>,
    text: String,
    lazy: Vec<LazyRange>,
    /// Sorted by `low`.
    cids: Vec<CidRange>,
    /// The predefined CMap named by `usecmap`, if any (e.g. `Identity-H`).
    pub use_cmap: Option<Vec<u8>>,
    /// `/WMode 1`: vertical writing.
    pub vertical: bool,
}

/// Big-endian integer value of up to four bytes.
pub(crate) fn code_value(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .take(4)
        .fold(0u32, |acc, &b| acc << 8 | u32::from(b))
}

/// Bytes to UTF-16 code units; a lone trailing byte is taken as one unit.
fn utf16_units(bytes: &[u8]) -> Vec<u16> {
    if bytes.len() == 1 {
        return bytes.iter().map(|&b| u16::from(b)).collect();
    }
    bytes
        .chunks_exact(2)
        .map(|pair| match pair {
            [hi, lo] => u16::from(*hi) << 8 | u16::from(*lo),
            _ => 0,
        })
        .collect()
}

fn push_utf16(out: &mut String, units: &[u16]) {
    for c in char::decode_utf16(units.iter().copied()) {
        out.push(c.unwrap_or(char::REPLACEMENT_CHARACTER));
    }
}

/// `base` with `offset` added to its last code unit. A single unit is allowed
/// to run past U+FFFF (some producers do that instead of writing pairs).
fn bump(base: &[u16], offset: u32, out: &mut String) {
    match base.split_last() {
        None => {}
        Some((&last, [])) => {
            let value = u32::from(last).saturating_add(offset);
            if value <= 0xFFFF {
                push_utf16(out, &[value as u16]);
            } else {
                out.push(char::from_u32(value).unwrap_or(char::REPLACEMENT_CHARACTER));
            }
        }
        Some((&last, init)) => {
            let value = u32::from(last).saturating_add(offset);
            let mut units = init.to_vec();
            units.push((value & 0xFFFF) as u16);
            push_utf16(out, &units);
        }
    }
}

/// An operand remembered between CMap operators.
enum Operand {
    Int(u32),
    Bytes(Vec<u8>),
    Name(Vec<u8>),
    Array(Vec<Operand>),
}

impl CMap {
    /// Parse CMap source. Never fails; unparseable parts are skipped.
    pub fn parse(data: &[u8]) -> CMap {
        let mut cmap = CMap::default();
        let mut pending: Vec<(u32, u32, u32)> = Vec::new();
        let mut lexer = Lexer::new(data);
        let mut operands: Vec<Operand> = Vec::new();
        // Nesting of `[ ]` while collecting an array operand.
        let mut arrays: Vec<Vec<Operand>> = Vec::new();
        let mut last_name: Option<Vec<u8>> = None;
        let mut section: &[u8] = b"";

        while let Some(token) = lexer.next_token() {
            let operand = match token {
                Token::Number(n) => Operand::Int(if n >= 0.0 { n as u32 } else { 0 }),
                Token::String(s) => Operand::Bytes(s),
                Token::Name(n) => {
                    let n = n.into_owned();
                    if n == b"WMode" {
                        last_name = Some(n);
                        continue;
                    }
                    last_name = Some(n.clone());
                    Operand::Name(n)
                }
                Token::ArrayStart => {
                    if arrays.len() < 4 {
                        arrays.push(Vec::new());
                    }
                    continue;
                }
                Token::ArrayEnd => {
                    if let Some(done) = arrays.pop() {
                        Operand::Array(done)
                    } else {
                        continue;
                    }
                }
                Token::Keyword(kw) => {
                    match kw {
                        b"begincodespacerange"
                        | b"beginbfchar"
                        | b"beginbfrange"
                        | b"begincidchar"
                        | b"begincidrange"
                        | b"beginnotdefchar"
                        | b"beginnotdefrange" => {
                            section = kw;
                            operands.clear();
                        }
                        b"endcodespacerange" | b"endbfchar" | b"endbfrange" | b"endcidchar"
                        | b"endcidrange" | b"endnotdefchar" | b"endnotdefrange" => {
                            cmap.apply(section, &operands, &mut pending);
                            section = b"";
                            operands.clear();
                        }
                        b"usecmap" => {
                            if let Some(Operand::Name(n)) = operands.pop() {
                                cmap.use_cmap = Some(n);
                            }
                            operands.clear();
                        }
                        b"def" => {
                            if let (Some(Operand::Int(v)), Some(name)) =
                                (operands.last(), last_name.as_deref())
                                && name == b"WMode"
                            {
                                cmap.vertical = *v == 1;
                            }
                            if section.is_empty() {
                                operands.clear();
                            }
                        }
                        _ => {
                            if section.is_empty() {
                                operands.clear();
                            }
                        }
                    }
                    continue;
                }
                Token::DictStart | Token::DictEnd | Token::Brace => continue,
            };
            match arrays.last_mut() {
                Some(array) => {
                    if array.len() < 65536 {
                        array.push(operand);
                    }
                }
                None => {
                    // Outside a section only the last few operands matter.
                    if !section.is_empty() || operands.len() < 8 {
                        operands.push(operand);
                    } else {
                        operands.clear();
                        operands.push(operand);
                    }
                }
            }
            if operands.len() > MAX_ENTRIES * 3 {
                break;
            }
        }

        cmap.finish(pending);
        cmap
    }

    fn apply(&mut self, section: &[u8], operands: &[Operand], pending: &mut Vec<(u32, u32, u32)>) {
        match section {
            b"begincodespacerange" => {
                for pair in operands.chunks_exact(2) {
                    if let [Operand::Bytes(lo), Operand::Bytes(hi)] = pair {
                        let len = lo.len().min(hi.len());
                        if !(1..=4).contains(&len) {
                            continue;
                        }
                        // `len` is at most 4 and at most both lengths, so the
                        // slices below are in bounds.
                        let mut low = [0u8; 4];
                        let mut high = [0u8; 4];
                        low[..len].copy_from_slice(&lo[..len]);
                        high[..len].copy_from_slice(&hi[..len]);
                        self.codespaces.push(Codespace { len, low, high });
                    }
                }
            }
            b"beginbfchar" => {
                for pair in operands.chunks_exact(2) {
                    if pending.len() >= MAX_ENTRIES || self.text.len() >= MAX_TEXT {
                        return;
                    }
                    let [Operand::Bytes(src), dst] = pair else {
                        continue;
                    };
                    let start = self.text.len();
                    if !self.push_destination(dst) {
                        continue;
                    }
                    pending.push(self.entry(code_value(src), start));
                }
            }
            b"beginbfrange" => {
                for triple in operands.chunks_exact(3) {
                    let [Operand::Bytes(lo), Operand::Bytes(hi), dst] = triple else {
                        continue;
                    };
                    let (low, high) = (code_value(lo), code_value(hi));
                    if high < low {
                        continue;
                    }
                    match dst {
                        Operand::Bytes(dst) => {
                            let base = utf16_units(dst);
                            if high - low < EXPAND_LIMIT {
                                for offset in 0..=(high - low) {
                                    if pending.len() >= MAX_ENTRIES || self.text.len() >= MAX_TEXT {
                                        return;
                                    }
                                    let start = self.text.len();
                                    bump(&base, offset, &mut self.text);
                                    pending.push(self.entry(low + offset, start));
                                }
                            } else if self.lazy.len() < MAX_RANGES {
                                self.lazy.push(LazyRange { low, high, base });
                            }
                        }
                        Operand::Array(items) => {
                            for (code, item) in (low..=high).zip(items.iter()) {
                                if pending.len() >= MAX_ENTRIES || self.text.len() >= MAX_TEXT {
                                    return;
                                }
                                let start = self.text.len();
                                if self.push_destination(item) {
                                    pending.push(self.entry(code, start));
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            b"begincidchar" => {
                for pair in operands.chunks_exact(2) {
                    if let [Operand::Bytes(src), Operand::Int(cid)] = pair
                        && self.cids.len() < MAX_RANGES
                    {
                        let code = code_value(src);
                        self.cids.push(CidRange {
                            low: code,
                            high: code,
                            cid: *cid,
                        });
                    }
                }
            }
            b"begincidrange" => {
                for triple in operands.chunks_exact(3) {
                    if let [Operand::Bytes(lo), Operand::Bytes(hi), Operand::Int(cid)] = triple
                        && self.cids.len() < MAX_RANGES
                    {
                        let (low, high) = (code_value(lo), code_value(hi));
                        if low <= high {
                            self.cids.push(CidRange {
                                low,
                                high,
                                cid: *cid,
                            });
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Append a bfchar/bfrange destination (UTF-16 bytes or a glyph name)
    /// to the text buffer; false if it is neither.
    fn push_destination(&mut self, dst: &Operand) -> bool {
        match dst {
            Operand::Bytes(b) => {
                push_utf16(&mut self.text, &utf16_units(b));
                true
            }
            Operand::Name(name) => {
                if let Some(t) = std::str::from_utf8(name)
                    .ok()
                    .and_then(glyphs::glyph_to_unicode)
                {
                    self.text.push_str(&t);
                }
                true
            }
            _ => false,
        }
    }

    /// An entry for `code` whose text runs from `start` to the buffer's end.
    fn entry(&self, code: u32, start: usize) -> (u32, u32, u32) {
        let clamp = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        (code, clamp(start), clamp(self.text.len()))
    }

    fn finish(&mut self, mut pending: Vec<(u32, u32, u32)>) {
        // Stable sort keeps file order among duplicates; the last one wins.
        pending.sort_by_key(|e| e.0);
        pending.dedup_by(|later, earlier| {
            if later.0 == earlier.0 {
                *earlier = *later;
                true
            } else {
                false
            }
        });
        self.entries = pending;
        self.cids.sort_by_key(|r| r.low);
    }

    /// True when the CMap defines its own codespace, so it can split strings.
    pub fn has_codespace(&self) -> bool {
        !self.codespaces.is_empty()
    }

    /// Split the next code off `bytes`: `(code, byte length)`. Falls back to
    /// the shortest codespace length (or one byte) when no range matches.
    pub fn next_code(&self, bytes: &[u8]) -> (u32, usize) {
        for len in 1..=4 {
            if bytes.len() < len {
                break;
            }
            if self
                .codespaces
                .iter()
                .any(|cs| cs.len == len && cs.matches(bytes))
            {
                return (code_value(bytes.get(..len).unwrap_or_default()), len);
            }
        }
        let len = self
            .codespaces
            .iter()
            .map(|cs| cs.len)
            .min()
            .unwrap_or(1)
            .clamp(1, bytes.len().max(1));
        (
            code_value(bytes.get(..len).unwrap_or(bytes)),
            len.min(bytes.len()).max(1),
        )
    }

    /// Append the Unicode text for `code` to `out`; false when unmapped.
    pub fn lookup(&self, code: u32, out: &mut String) -> bool {
        if let Ok(i) = self.entries.binary_search_by_key(&code, |e| e.0)
            && let Some(&(_, start, end)) = self.entries.get(i)
        {
            out.push_str(
                self.text
                    .get(start as usize..end as usize)
                    .unwrap_or_default(),
            );
            return true;
        }
        for range in self.lazy.iter().rev() {
            if range.low <= code && code <= range.high {
                bump(&range.base, code - range.low, out);
                return true;
            }
        }
        false
    }

    /// Whether the map has any Unicode entries at all.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.lazy.is_empty()
    }

    /// The CID for `code` from `cidchar`/`cidrange`, if mapped.
    pub fn cid(&self, code: u32) -> Option<u32> {
        let idx = self.cids.partition_point(|r| r.low <= code);
        // Ranges may overlap; search back a little from the last candidate.
        self.cids
            .get(..idx)?
            .iter()
            .rev()
            .take(8)
            .find(|r| code <= r.high)
            .map(|r| r.cid.saturating_add(code - r.low))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(cmap: &CMap, code: u32) -> Option<String> {
        let mut s = String::new();
        cmap.lookup(code, &mut s).then_some(s)
    }

    const SAMPLE: &[u8] = b"/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000> <FFFF>
endcodespacerange
3 beginbfchar
<0003> <0020>
<0010> <53D1>
<0011> <D835DC00>
endbfchar
2 beginbfrange
<0020> <0022> <0041>
<0030> <0032> [<0066> <00660069> <FB01>]
endbfrange
endcmap
CMapName currentdict /CMap defineresource pop
end
end";

    #[test]
    fn bfchar() {
        let c = CMap::parse(SAMPLE);
        assert_eq!(text(&c, 3).as_deref(), Some(" "));
        assert_eq!(text(&c, 0x10).as_deref(), Some("发"));
        assert_eq!(text(&c, 0x99), None);
    }

    #[test]
    fn surrogate_pair_destination() {
        let c = CMap::parse(SAMPLE);
        assert_eq!(text(&c, 0x11).as_deref(), Some("\u{1D400}"));
    }

    #[test]
    fn bfrange_increment() {
        let c = CMap::parse(SAMPLE);
        assert_eq!(text(&c, 0x20).as_deref(), Some("A"));
        assert_eq!(text(&c, 0x22).as_deref(), Some("C"));
        assert_eq!(text(&c, 0x23), None);
    }

    #[test]
    fn bfrange_array_and_ligatures() {
        let c = CMap::parse(SAMPLE);
        assert_eq!(text(&c, 0x30).as_deref(), Some("f"));
        assert_eq!(text(&c, 0x31).as_deref(), Some("fi"));
        assert_eq!(text(&c, 0x32).as_deref(), Some("\u{FB01}"));
    }

    #[test]
    fn large_range_is_lazy() {
        let c = CMap::parse(b"1 beginbfrange <0000> <FFFF> <0000> endbfrange");
        assert!(c.entries.is_empty());
        assert_eq!(text(&c, 0x4E2D).as_deref(), Some("中"));
    }

    #[test]
    fn range_past_bmp_and_surrogate_base() {
        let c = CMap::parse(b"2 beginbfrange <01> <03> <FFFF> <10> <11> <D835DC00> endbfrange");
        assert_eq!(text(&c, 2).as_deref(), Some("\u{10000}"));
        assert_eq!(text(&c, 0x11).as_deref(), Some("\u{1D401}"));
    }

    #[test]
    fn codespace_splitting() {
        let c = CMap::parse(
            b"3 begincodespacerange <00> <80> <8140> <FEFE> <81308130> <FE39FE39> endcodespacerange",
        );
        assert_eq!(c.next_code(b"\x41\xB0\xA1"), (0x41, 1));
        assert_eq!(c.next_code(b"\xB0\xA1"), (0xB0A1, 2));
        assert_eq!(c.next_code(b"\x81\x30\x81\x30"), (0x8130_8130, 4));
        // Nothing matches 0xFF: fall back to the shortest length.
        assert_eq!(c.next_code(b"\xFF\x00"), (0xFF, 1));
        let empty = CMap::parse(b"");
        assert_eq!(empty.next_code(b"\x12\x34"), (0x12, 1));
    }

    #[test]
    fn cid_ranges_and_usecmap() {
        let c = CMap::parse(
            b"/Identity-H usecmap /WMode 1 def 1 begincidrange <0020> <007E> 1 endcidrange 1 begincidchar <8140> 633 endcidchar",
        );
        assert_eq!(c.use_cmap.as_deref(), Some(&b"Identity-H"[..]));
        assert!(c.vertical);
        assert_eq!(c.cid(0x20), Some(1));
        assert_eq!(c.cid(0x41), Some(34));
        assert_eq!(c.cid(0x8140), Some(633));
        assert_eq!(c.cid(0x10), None);
    }

    #[test]
    fn glyph_name_destination() {
        let c = CMap::parse(b"1 beginbfchar <01> /space endbfchar");
        assert_eq!(text(&c, 1).as_deref(), Some(" "));
    }

    #[test]
    fn garbage_does_not_panic() {
        for src in [
            &b"beginbfrange <00> endbfrange"[..],
            b"[[[[[[[[[[",
            b"<FFFFFFFFFF> <00> <0041> endbfrange",
            b"]]]",
        ] {
            let _ = CMap::parse(src);
        }
    }
}
