//! The recognition model's characters: the `character` entry of the ONNX file's
//! `metadata_props` (ModelProto field 14, entries of key 1 and value 2), one per line. Class 0
//! of the output is the CTC blank, class n the n-th character, the last a space.

/// Reads a protobuf varint at `at`, returning it and the position after it.
fn varint(bytes: &[u8], mut at: usize) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(at)?;
        at += 1;
        value |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Some((value, at));
        }
    }
    None
}

/// The top-level fields of a message: (field number, wire type, payload range).
fn fields(bytes: &[u8]) -> Vec<(u64, u64, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some((tag, next)) = varint(bytes, at) {
        let (number, wire) = (tag >> 3, tag & 7);
        let range = match wire {
            0 => match varint(bytes, next) {
                Some((_, end)) => next..end,
                None => break,
            },
            1 => next..next + 8,
            2 => match varint(bytes, next) {
                Some((len, start)) => start..start.saturating_add(len as usize),
                None => break,
            },
            5 => next..next + 4,
            _ => break,
        };
        if range.end > bytes.len() {
            break;
        }
        at = range.end;
        out.push((number, wire, range));
    }
    out
}

/// The characters of a recognition model, from its ONNX bytes.
pub(crate) fn characters(onnx: &[u8]) -> Option<Vec<String>> {
    for (number, wire, range) in fields(onnx) {
        if number != 14 || wire != 2 {
            continue;
        }
        let entry = onnx.get(range)?;
        let parts = fields(entry);
        let text = |n: u64| {
            parts
                .iter()
                .find(|(k, w, _)| *k == n && *w == 2)
                .and_then(|(_, _, r)| entry.get(r.clone()))
                .map(|b| String::from_utf8_lossy(b).into_owned())
        };
        if text(1).as_deref() == Some("character") {
            return Some(text(2)?.split('\n').map(str::to_owned).collect());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_character_entry() {
        // ModelProto { ir_version: 7, metadata_props: [{key: "a", value: "b"}, {key: "character", value: "甲\n乙"}] }
        let mut model = vec![0x08, 0x07];
        for (k, v) in [("a", "b"), ("character", "甲\n乙")] {
            let mut entry = vec![0x0a, k.len() as u8];
            entry.extend(k.as_bytes());
            entry.push(0x12);
            entry.push(v.len() as u8);
            entry.extend(v.as_bytes());
            model.push(0x72);
            model.push(entry.len() as u8);
            model.extend(entry);
        }
        assert_eq!(characters(&model).unwrap(), ["甲", "乙"]);
        assert_eq!(characters(&[0x08, 0x07]), None);
        assert_eq!(characters(&[0xff; 3]), None);
    }
}
