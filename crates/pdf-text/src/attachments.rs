//! Embedded files: the `/EmbeddedFiles` name tree and file attachment
//! annotations.

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::model::Attachment;
use crate::objects::{self, as_dict, get, get_array, get_dict, get_name, ref_id, resolve};
use crate::pages::PageRef;
use crate::text_string::decode_text_string;

/// Largest attachment (decompressed) we return.
const ATTACHMENT_LIMIT: usize = 64 << 20;
const MAX_ATTACHMENTS: usize = 1_000;
const MAX_TREE_NODES: usize = 10_000;
const MAX_TREE_DEPTH: usize = 32;

/// Gathers attachments, skipping ones already seen by stream identity.
struct Collector<'a> {
    doc: &'a Document,
    seen: HashSet<ObjectId>,
    out: Vec<Attachment>,
}

impl<'a> Collector<'a> {
    /// Add the file behind a file specification, if it embeds one.
    fn add_filespec(&mut self, spec: &'a Object, key: Option<&[u8]>) {
        if self.out.len() >= MAX_ATTACHMENTS {
            return;
        }
        let doc = self.doc;
        let Some(spec) = as_dict(doc, spec) else {
            return;
        };
        let Some(ef) = get_dict(doc, spec, b"EF") else {
            return;
        };
        let Some(stream_obj) = [&b"UF"[..], b"F", b"DOS", b"Mac", b"Unix"]
            .iter()
            .find_map(|k| ef.get(k).ok())
        else {
            return;
        };
        if let Some(id) = ref_id(stream_obj)
            && !self.seen.insert(id)
        {
            return;
        }
        let Some(Object::Stream(stream)) = resolve(doc, stream_obj) else {
            return;
        };
        let Some(data) = objects::stream_data(stream, ATTACHMENT_LIMIT) else {
            return;
        };
        let name = [&b"UF"[..], b"F"]
            .iter()
            .find_map(|k| match get(doc, spec, k) {
                Some(Object::String(s, _)) if !s.is_empty() => Some(decode_text_string(s)),
                _ => None,
            })
            .or_else(|| key.map(decode_text_string))
            .unwrap_or_else(|| "attachment".to_owned());
        self.out.push(Attachment { name, data });
    }

    /// Walk a name tree node: `/Names [key value ...]` and `/Kids`.
    fn walk_name_tree(&mut self, root: &'a Object) {
        let doc = self.doc;
        let mut visited: HashSet<ObjectId> = HashSet::new();
        let mut stack: Vec<(&Object, usize)> = vec![(root, 0)];
        let mut nodes = 0;
        while let Some((obj, depth)) = stack.pop() {
            nodes += 1;
            if nodes > MAX_TREE_NODES || depth > MAX_TREE_DEPTH {
                break;
            }
            if let Some(id) = ref_id(obj)
                && !visited.insert(id)
            {
                continue;
            }
            let Some(node) = as_dict(doc, obj) else {
                continue;
            };
            if let Some(names) = get_array(doc, node, b"Names") {
                for pair in names.chunks_exact(2) {
                    if let [key, value] = pair {
                        let key = match resolve(doc, key) {
                            Some(Object::String(s, _)) => Some(s.as_slice()),
                            _ => None,
                        };
                        self.add_filespec(value, key);
                    }
                }
            }
            if let Some(kids) = get_array(doc, node, b"Kids") {
                for kid in kids.iter().rev() {
                    stack.push((kid, depth + 1));
                }
            }
        }
    }

    fn page_annotations(&mut self, page: &'a Dictionary) {
        let doc = self.doc;
        let Some(annots) = get_array(doc, page, b"Annots") else {
            return;
        };
        for annot in annots.iter().take(10_000) {
            let Some(annot) = as_dict(doc, annot) else {
                continue;
            };
            if get_name(doc, annot, b"Subtype") == Some(b"FileAttachment")
                && let Ok(fs) = annot.get(b"FS")
            {
                self.add_filespec(fs, None);
            }
        }
    }
}

/// Every embedded file of the document, name tree first, then annotations
/// page by page.
pub(crate) fn collect(doc: &Document, pages: &[PageRef<'_>]) -> Vec<Attachment> {
    let mut collector = Collector {
        doc,
        seen: HashSet::new(),
        out: Vec::new(),
    };
    let tree = doc
        .trailer
        .get(b"Root")
        .ok()
        .and_then(|r| as_dict(doc, r))
        .and_then(|catalog| get_dict(doc, catalog, b"Names"))
        .and_then(|names| names.get(b"EmbeddedFiles").ok());
    if let Some(tree) = tree {
        collector.walk_name_tree(tree);
    }
    for page in pages {
        collector.page_annotations(page.dict);
    }
    collector.out
}
