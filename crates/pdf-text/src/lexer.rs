//! A lenient PostScript-style tokenizer shared by content streams and CMaps.
//!
//! It never fails: malformed bytes become the nearest sensible token or are
//! skipped, so hostile input can only produce garbage tokens, not errors.

use std::borrow::Cow;

/// One lexical token. Borrowed where the source bytes can be used as-is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Token<'a> {
    Number(f32),
    /// A name without its leading `/`, with `#xx` escapes decoded.
    Name(Cow<'a, [u8]>),
    /// A literal `( )` or hex `< >` string, decoded to raw bytes.
    String(Vec<u8>),
    ArrayStart,
    ArrayEnd,
    DictStart,
    DictEnd,
    /// `{` or `}`: procedure braces, only meaningful in CMaps.
    Brace,
    /// Anything else: operators and keywords such as `Tj`, `true`, `begincmap`.
    Keyword(&'a [u8]),
}

pub(crate) struct Lexer<'a> {
    data: &'a [u8],
    pos: usize,
}

fn is_whitespace(b: u8) -> bool {
    matches!(b, b'\0' | b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

fn is_regular(b: u8) -> bool {
    !is_whitespace(b) && !is_delimiter(b)
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Parse a PDF number leniently: optional signs, digits, at most one point;
/// trailing junk is ignored. Returns `None` when there is no digit at all.
pub(crate) fn parse_number(bytes: &[u8]) -> Option<f32> {
    let mut i = 0;
    let mut negative = false;
    // Some producers write "--5" or "+-5"; take the last sign seen.
    while let Some(&b) = bytes.get(i) {
        match b {
            b'-' => negative = true,
            b'+' => negative = false,
            _ => break,
        }
        i += 1;
    }
    let mut value: f64 = 0.0;
    let mut any_digit = false;
    while let Some(&b) = bytes.get(i) {
        if b.is_ascii_digit() {
            value = value * 10.0 + f64::from(b - b'0');
            any_digit = true;
            i += 1;
        } else {
            break;
        }
    }
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        let mut scale = 0.1;
        while let Some(&b) = bytes.get(i) {
            if b.is_ascii_digit() {
                value += f64::from(b - b'0') * scale;
                scale *= 0.1;
                any_digit = true;
                i += 1;
            } else {
                break;
            }
        }
    }
    if !any_digit {
        return None;
    }
    let value = if negative { -value } else { value };
    // Clamp absurd magnitudes so later arithmetic stays finite.
    Some(value.clamp(-1e30, 1e30) as f32)
}

impl<'a> Lexer<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0 }
    }

    fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    fn skip_whitespace_and_comments(&mut self) {
        while let Some(b) = self.peek() {
            if is_whitespace(b) {
                self.pos += 1;
            } else if b == b'%' {
                while let Some(b) = self.peek() {
                    if b == b'\r' || b == b'\n' {
                        break;
                    }
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    /// The next token, or `None` at end of input.
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        // A loop, not recursion, so long runs of stray delimiters cannot
        // exhaust the stack.
        loop {
            if let Some(token) = self.token_or_skip() {
                return token;
            }
        }
    }

    /// `Some(token)` (where `Some(None)` is end of input), or `None` after
    /// skipping a stray byte.
    fn token_or_skip(&mut self) -> Option<Option<Token<'a>>> {
        self.skip_whitespace_and_comments();
        let Some(b) = self.peek() else {
            return Some(None);
        };
        Some(Some(match b {
            b'(' => {
                self.pos += 1;
                Token::String(self.literal_string())
            }
            b'<' => {
                if self.data.get(self.pos + 1) == Some(&b'<') {
                    self.pos += 2;
                    Token::DictStart
                } else {
                    self.pos += 1;
                    Token::String(self.hex_string())
                }
            }
            b'>' => {
                self.pos += 1;
                if self.peek() == Some(b'>') {
                    self.pos += 1;
                    Token::DictEnd
                } else {
                    // A lone '>' is junk.
                    return None;
                }
            }
            b'[' => {
                self.pos += 1;
                Token::ArrayStart
            }
            b']' => {
                self.pos += 1;
                Token::ArrayEnd
            }
            b'{' | b'}' => {
                self.pos += 1;
                Token::Brace
            }
            b')' => {
                // Unbalanced close paren.
                self.pos += 1;
                return None;
            }
            b'/' => {
                self.pos += 1;
                Token::Name(self.name())
            }
            _ => {
                let start = self.pos;
                while self.peek().is_some_and(is_regular) {
                    self.pos += 1;
                }
                let word = self.data.get(start..self.pos).unwrap_or_default();
                let first = word.first().copied().unwrap_or(0);
                if (first.is_ascii_digit() || matches!(first, b'+' | b'-' | b'.'))
                    && let Some(n) = parse_number(word)
                {
                    Token::Number(n)
                } else {
                    Token::Keyword(word)
                }
            }
        }))
    }

    fn name(&mut self) -> Cow<'a, [u8]> {
        let start = self.pos;
        while self.peek().is_some_and(is_regular) {
            self.pos += 1;
        }
        let raw = self.data.get(start..self.pos).unwrap_or_default();
        if !raw.contains(&b'#') {
            return Cow::Borrowed(raw);
        }
        let mut out = Vec::with_capacity(raw.len());
        let mut i = 0;
        while let Some(&b) = raw.get(i) {
            if b == b'#' {
                let hi = raw.get(i + 1).copied().and_then(hex_value);
                let lo = raw.get(i + 2).copied().and_then(hex_value);
                if let (Some(hi), Some(lo)) = (hi, lo) {
                    out.push(hi << 4 | lo);
                    i += 3;
                    continue;
                }
            }
            out.push(b);
            i += 1;
        }
        Cow::Owned(out)
    }

    fn literal_string(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut depth = 1usize;
        while let Some(b) = self.peek() {
            self.pos += 1;
            match b {
                b'(' => {
                    depth += 1;
                    out.push(b);
                }
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                    out.push(b);
                }
                b'\\' => {
                    let Some(e) = self.peek() else { break };
                    self.pos += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'b' => out.push(0x08),
                        b'f' => out.push(0x0c),
                        b'0'..=b'7' => {
                            let mut value = u32::from(e - b'0');
                            for _ in 0..2 {
                                match self.peek() {
                                    Some(d @ b'0'..=b'7') => {
                                        value = value * 8 + u32::from(d - b'0');
                                        self.pos += 1;
                                    }
                                    _ => break,
                                }
                            }
                            // High-order overflow is ignored, as the spec says.
                            out.push((value & 0xff) as u8);
                        }
                        b'\r' => {
                            // Line continuation; swallow an optional following LF.
                            if self.peek() == Some(b'\n') {
                                self.pos += 1;
                            }
                        }
                        b'\n' => {}
                        other => out.push(other),
                    }
                }
                other => out.push(other),
            }
        }
        out
    }

    fn hex_string(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut high: Option<u8> = None;
        while let Some(b) = self.peek() {
            self.pos += 1;
            if b == b'>' {
                break;
            }
            let Some(v) = hex_value(b) else { continue };
            match high.take() {
                Some(h) => out.push(h << 4 | v),
                None => high = Some(v),
            }
        }
        // An odd final digit is padded with 0.
        if let Some(h) = high {
            out.push(h << 4);
        }
        out
    }

    /// After a `BI` operator: skip the inline image dictionary and data up to
    /// and including `EI`, so binary image bytes are never tokenized.
    pub fn skip_inline_image(&mut self) {
        // Walk tokens to the ID keyword (the dictionary is small).
        loop {
            match self.next_token() {
                None => return,
                Some(Token::Keyword(b"ID")) => break,
                Some(Token::Keyword(b"EI")) => return,
                Some(_) => {}
            }
        }
        // Exactly one whitespace byte separates ID from the data.
        self.pos += 1;
        self.pos = match self.inline_data_end(self.pos) {
            Some(i) => i + 2,
            None => self.data.len(),
        };
    }

    /// Where the `EI` ending inline image data that starts at `start` is:
    /// an `EI` standing alone, preceded by whitespace (or the data start)
    /// and followed by whitespace, a delimiter or the end of the input.
    pub fn inline_data_end(&self, start: usize) -> Option<usize> {
        let mut i = start;
        while i + 1 < self.data.len() {
            if self.data.get(i) == Some(&b'E') && self.data.get(i + 1) == Some(&b'I') {
                let before_ok =
                    i == start || self.data.get(i - 1).copied().is_some_and(is_whitespace);
                let after_ok = self
                    .data
                    .get(i + 2)
                    .is_none_or(|&b| is_whitespace(b) || is_delimiter(b));
                if before_ok && after_ok {
                    return Some(i);
                }
            }
            i += 1;
        }
        None
    }

    /// The whole input being tokenized.
    #[cfg(feature = "images")]
    pub fn input(&self) -> &'a [u8] {
        self.data
    }

    /// The offset of the next unread byte.
    #[cfg(feature = "images")]
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Continue tokenizing at `pos` (clamped to the input).
    #[cfg(feature = "images")]
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos.min(self.data.len());
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        self.next_token()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(src: &[u8]) -> Vec<Token<'_>> {
        Lexer::new(src).collect()
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_number(b"12"), Some(12.0));
        assert_eq!(parse_number(b"-3.5"), Some(-3.5));
        assert_eq!(parse_number(b".5"), Some(0.5));
        assert_eq!(parse_number(b"--2"), Some(-2.0));
        assert_eq!(parse_number(b"4."), Some(4.0));
        assert_eq!(parse_number(b"-"), None);
        assert_eq!(parse_number(b"1.2.3"), Some(1.2));
    }

    #[test]
    fn strings_and_escapes() {
        let t = tokens(br"(a\(b\)c) (x(y)z) (\101\12\n) <48 65 6c6C6f> <7>");
        assert_eq!(
            t,
            vec![
                Token::String(b"a(b)c".to_vec()),
                Token::String(b"x(y)z".to_vec()),
                Token::String(vec![b'A', 0o12, b'\n']),
                Token::String(b"Hello".to_vec()),
                Token::String(vec![0x70]),
            ]
        );
    }

    #[test]
    fn names_operators_and_structure() {
        let t = tokens(b"/F#201 12 Tf [(a) -20 (b)] TJ << /K 1 >> % comment\nBT");
        assert_eq!(t[0], Token::Name(Cow::Owned(b"F 1".to_vec())));
        assert_eq!(t[1], Token::Number(12.0));
        assert_eq!(t[2], Token::Keyword(b"Tf"));
        assert_eq!(t[3], Token::ArrayStart);
        assert_eq!(t[5], Token::Number(-20.0));
        assert_eq!(t[7], Token::ArrayEnd);
        assert_eq!(t[8], Token::Keyword(b"TJ"));
        assert_eq!(t[9], Token::DictStart);
        assert_eq!(t[12], Token::DictEnd);
        assert_eq!(t[13], Token::Keyword(b"BT"));
    }

    #[test]
    fn inline_image_is_skipped() {
        let src = b"BI /W 2 /H 1 ID \x00EI\xffE EI Q";
        let mut lx = Lexer::new(src);
        assert_eq!(lx.next_token(), Some(Token::Keyword(b"BI")));
        lx.skip_inline_image();
        assert_eq!(lx.next_token(), Some(Token::Keyword(b"Q")));
        assert_eq!(lx.next_token(), None);
    }

    #[test]
    fn junk_does_not_loop_or_panic() {
        let t = tokens(b")))>>> ( unterminated \\");
        assert_eq!(t.last(), Some(&Token::String(b" unterminated ".to_vec())));
        let _ = tokens(b"<");
        let _ = tokens(b"/");
        let _ = tokens(b"\\");
    }
}
