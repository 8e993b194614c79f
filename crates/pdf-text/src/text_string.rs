//! Decoding PDF text strings (file names, metadata) to Rust strings.

/// Decode a PDF text string: UTF-16 with BOM, UTF-8 with or without BOM,
/// GB18030 (common in files from Chinese producers, though not standard),
/// and otherwise PDFDocEncoding, approximated by Latin-1.
pub(crate) fn decode_text_string(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        let units = rest.chunks_exact(2).map(|p| match p {
            [a, b] => u16::from_be_bytes([*a, *b]),
            _ => 0xFFFD,
        });
        return char::decode_utf16(units)
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect();
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        let units = rest.chunks_exact(2).map(|p| match p {
            [a, b] => u16::from_le_bytes([*a, *b]),
            _ => 0xFFFD,
        });
        return char::decode_utf16(units)
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect();
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(s) = std::str::from_utf8(bytes) {
        return s.to_owned();
    }
    let (gb, had_errors) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
    if !had_errors {
        return gb.into_owned();
    }
    bytes.iter().map(|&b| char::from(b)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants() {
        assert_eq!(decode_text_string(b"\xFE\xFF\x00a\x53\xd1"), "a发");
        assert_eq!(decode_text_string(b"\xFF\xFEa\x00"), "a");
        assert_eq!(decode_text_string("发票.xml".as_bytes()), "发票.xml");
        assert_eq!(decode_text_string(b"\xb7\xa2\xc6\xb1.xml"), "发票.xml");
        assert_eq!(decode_text_string(b"caf\xe9"), "café");
        assert_eq!(decode_text_string(b"\xFE\xFF\x00"), "");
    }
}
