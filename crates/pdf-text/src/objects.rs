//! Defensive accessors over lopdf objects: bounded dereferencing and typed
//! lookups that return `None` instead of erroring on hostile structure.

use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

/// Longest chain of references followed before giving up (guards cycles).
const MAX_DEREF: usize = 32;

/// Follow references until a direct object; `None` on a dangling or cyclic chain.
pub(crate) fn resolve<'a>(doc: &'a Document, mut obj: &'a Object) -> Option<&'a Object> {
    for _ in 0..MAX_DEREF {
        match obj {
            Object::Reference(id) => obj = doc.objects.get(id)?,
            other => return Some(other),
        }
    }
    None
}

/// The object id behind `obj` when it is a reference.
pub(crate) fn ref_id(obj: &Object) -> Option<ObjectId> {
    match obj {
        Object::Reference(id) => Some(*id),
        _ => None,
    }
}

pub(crate) fn get<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
    resolve(doc, dict.get(key).ok()?)
}

pub(crate) fn as_dict<'a>(doc: &'a Document, obj: &'a Object) -> Option<&'a Dictionary> {
    match resolve(doc, obj)? {
        Object::Dictionary(d) => Some(d),
        // A stream's dictionary serves where a dictionary is expected.
        Object::Stream(s) => Some(&s.dict),
        _ => None,
    }
}

pub(crate) fn get_dict<'a>(
    doc: &'a Document,
    dict: &'a Dictionary,
    key: &[u8],
) -> Option<&'a Dictionary> {
    as_dict(doc, dict.get(key).ok()?)
}

pub(crate) fn get_stream<'a>(
    doc: &'a Document,
    dict: &'a Dictionary,
    key: &[u8],
) -> Option<&'a Stream> {
    match get(doc, dict, key)? {
        Object::Stream(s) => Some(s),
        _ => None,
    }
}

pub(crate) fn get_array<'a>(
    doc: &'a Document,
    dict: &'a Dictionary,
    key: &[u8],
) -> Option<&'a [Object]> {
    match get(doc, dict, key)? {
        Object::Array(a) => Some(a),
        _ => None,
    }
}

pub(crate) fn get_name<'a>(
    doc: &'a Document,
    dict: &'a Dictionary,
    key: &[u8],
) -> Option<&'a [u8]> {
    match get(doc, dict, key)? {
        Object::Name(n) => Some(n),
        _ => None,
    }
}

pub(crate) fn as_number(doc: &Document, obj: &Object) -> Option<f32> {
    match resolve(doc, obj)? {
        Object::Integer(i) => Some(*i as f32),
        Object::Real(r) if r.is_finite() => Some(*r),
        _ => None,
    }
}

pub(crate) fn get_number(doc: &Document, dict: &Dictionary, key: &[u8]) -> Option<f32> {
    as_number(doc, dict.get(key).ok()?)
}

/// Numbers of an array, with non-numbers skipped.
pub(crate) fn numbers(doc: &Document, items: &[Object]) -> Vec<f32> {
    items.iter().filter_map(|o| as_number(doc, o)).collect()
}

/// Decoded stream bytes, bounded by `limit`. Unknown or failing filters
/// yield `None` rather than garbage.
pub(crate) fn stream_data(stream: &Stream, limit: usize) -> Option<Vec<u8>> {
    stream.get_plain_content_with_limit(limit).ok()
}
