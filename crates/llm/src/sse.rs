//! Server-sent-events framing: bytes from the network in, complete `data:` payloads out.
//!
//! Network chunks split lines anywhere, including inside a multi-byte UTF-8 character, so
//! the decoder buffers raw bytes and decodes only whole lines (a `\n` byte never occurs
//! inside a UTF-8 sequence, so splitting on it is safe).

/// Longest line accepted; a provider streaming one delta per event never comes close.
const MAX_LINE: usize = 8 * 1024 * 1024;

/// Incremental SSE decoder.
#[derive(Debug, Default)]
pub(crate) struct SseDecoder {
    /// Bytes of the current, unfinished line.
    line: Vec<u8>,
    /// `data:` lines of the current event, joined by `\n` as the SSE spec says.
    data: Option<String>,
}

/// The input broke the framing (an absurdly long line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SseOverflow;

impl SseDecoder {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Feeds bytes, returning the payloads of the events they completed, in order.
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> Result<Vec<String>, SseOverflow> {
        let mut events = Vec::new();
        let mut rest = bytes;
        while let Some(pos) = rest.iter().position(|&b| b == b'\n') {
            let (head, tail) = rest.split_at(pos);
            self.line.extend_from_slice(head);
            rest = tail.get(1..).unwrap_or_default();
            let line = std::mem::take(&mut self.line);
            self.line_done(&line, &mut events);
        }
        self.line.extend_from_slice(rest);
        if self.line.len() > MAX_LINE {
            return Err(SseOverflow);
        }
        Ok(events)
    }

    /// End of the body: a last line without `\n` and an event without the closing blank
    /// line still count (some servers close right after the last `data:` line).
    pub(crate) fn finish(&mut self) -> Vec<String> {
        let mut events = Vec::new();
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.line_done(&line, &mut events);
        }
        if let Some(data) = self.data.take() {
            events.push(data);
        }
        events
    }

    fn line_done(&mut self, line: &[u8], events: &mut Vec<String>) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            if let Some(data) = self.data.take() {
                events.push(data);
            }
            return;
        }
        // A comment, e.g. the keep-alive `: ping` some providers send while thinking.
        if line.starts_with(b":") {
            return;
        }
        let text = String::from_utf8_lossy(line);
        let (field, value) = match text.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (text.as_ref(), ""),
        };
        // `event:`, `id:` and `retry:` carry nothing for chat completions.
        if field == "data" {
            match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_owned()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed_all(decoder: &mut SseDecoder, pieces: &[&[u8]]) -> Vec<String> {
        let mut out = Vec::new();
        for piece in pieces {
            out.extend(decoder.feed(piece).unwrap());
        }
        out.extend(decoder.finish());
        out
    }

    #[test]
    fn whole_events() {
        let mut d = SseDecoder::new();
        let out = feed_all(&mut d, &[b"data: {\"a\":1}\n\ndata: [DONE]\n\n"]);
        assert_eq!(out, vec!["{\"a\":1}", "[DONE]"]);
    }

    #[test]
    fn lines_split_across_chunks_byte_by_byte() {
        let stream = "data: {\"x\":\"hello\"}\r\n\r\n: keep-alive\n\ndata:[DONE]\n\n";
        let bytes = stream.as_bytes();
        let pieces: Vec<&[u8]> = bytes.chunks(1).collect();
        let mut d = SseDecoder::new();
        assert_eq!(
            feed_all(&mut d, &pieces),
            vec!["{\"x\":\"hello\"}", "[DONE]"]
        );
    }

    #[test]
    fn multibyte_character_split_across_chunks() {
        let stream = "data: {\"c\":\"发票金额\"}\n\n".as_bytes();
        // Cut inside the first Chinese character (3 bytes in UTF-8).
        let cut = stream.iter().position(|&b| b >= 0x80).unwrap() + 1;
        let (a, b) = stream.split_at(cut);
        let mut d = SseDecoder::new();
        assert_eq!(feed_all(&mut d, &[a, b]), vec!["{\"c\":\"发票金额\"}"]);
    }

    #[test]
    fn comments_and_other_fields_are_ignored() {
        let mut d = SseDecoder::new();
        let out = feed_all(
            &mut d,
            &[b": ping\n\nevent: message\nid: 7\nretry: 100\ndata: one\n\n:\n\n"],
        );
        assert_eq!(out, vec!["one"]);
    }

    #[test]
    fn multi_line_data_is_joined_and_unterminated_tail_flushed() {
        let mut d = SseDecoder::new();
        let out = feed_all(&mut d, &[b"data: a\ndata: b\n\ndata: tail"]);
        assert_eq!(out, vec!["a\nb", "tail"]);
    }

    #[test]
    fn done_marker_is_an_ordinary_payload() {
        let mut d = SseDecoder::new();
        assert_eq!(d.feed(b"data: [DONE]\n").unwrap(), Vec::<String>::new());
        assert_eq!(d.feed(b"\n").unwrap(), vec!["[DONE]"]);
    }
}
