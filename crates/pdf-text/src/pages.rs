//! Walking the page tree, with inherited attributes and page geometry.

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::matrix::Matrix;
use crate::objects::{self, as_dict, get, get_dict, ref_id, resolve};

const MAX_PAGES: usize = 10_000;
const MAX_TREE_DEPTH: usize = 64;
/// US Letter, for pages without a usable media box.
const DEFAULT_BOX: [f32; 4] = [0.0, 0.0, 612.0, 792.0];

/// A page with its inheritable attributes resolved.
pub(crate) struct PageRef<'a> {
    pub dict: &'a Dictionary,
    pub resources: Option<&'a Dictionary>,
    /// Crop box (or media box), normalised to `[x0, y0, x1, y1]` with x0 < x1, y0 < y1.
    pub bbox: [f32; 4],
    /// Rotation in degrees, one of 0, 90, 180, 270.
    pub rotate: i32,
}

/// Attributes a page inherits from its ancestors.
#[derive(Clone, Copy, Default)]
struct Inherited<'a> {
    resources: Option<&'a Dictionary>,
    media_box: Option<[f32; 4]>,
    crop_box: Option<[f32; 4]>,
    rotate: Option<i64>,
}

impl<'a> Inherited<'a> {
    fn update(mut self, doc: &'a Document, node: &'a Dictionary) -> Self {
        if let Some(r) = get_dict(doc, node, b"Resources") {
            self.resources = Some(r);
        }
        if let Some(b) = read_box(doc, node, b"MediaBox") {
            self.media_box = Some(b);
        }
        if let Some(b) = read_box(doc, node, b"CropBox") {
            self.crop_box = Some(b);
        }
        if let Some(Object::Integer(r)) = get(doc, node, b"Rotate") {
            self.rotate = Some(*r);
        }
        self
    }

    fn into_page(self, dict: &'a Dictionary) -> PageRef<'a> {
        let media = self.media_box.unwrap_or(DEFAULT_BOX);
        // The crop box is clipped to the media box; a disjoint one is ignored.
        let bbox = match self.crop_box {
            Some(c) => {
                let clipped = [
                    c[0].max(media[0]),
                    c[1].max(media[1]),
                    c[2].min(media[2]),
                    c[3].min(media[3]),
                ];
                if clipped[2] - clipped[0] > 1.0 && clipped[3] - clipped[1] > 1.0 {
                    clipped
                } else {
                    media
                }
            }
            None => media,
        };
        let rotate = self.rotate.unwrap_or(0).rem_euclid(360);
        let rotate = match rotate {
            90 | 180 | 270 => rotate as i32,
            _ => 0,
        };
        PageRef {
            dict,
            resources: self.resources,
            bbox,
            rotate,
        }
    }
}

fn read_box(doc: &Document, dict: &Dictionary, key: &[u8]) -> Option<[f32; 4]> {
    let values = objects::numbers(doc, objects::get_array(doc, dict, key)?);
    let [x0, y0, x1, y1] = values.as_slice() else {
        return None;
    };
    let b = [x0.min(*x1), y0.min(*y1), x0.max(*x1), y0.max(*y1)];
    (b[2] - b[0] > 1.0 && b[3] - b[1] > 1.0 && b.iter().all(|v| v.abs() < 1e7)).then_some(b)
}

impl PageRef<'_> {
    /// Displayed `(width, height)`.
    pub fn size(&self) -> (f32, f32) {
        let w = self.bbox[2] - self.bbox[0];
        let h = self.bbox[3] - self.bbox[1];
        if self.rotate % 180 == 0 {
            (w, h)
        } else {
            (h, w)
        }
    }

    /// Maps user space to displayed top-left-origin coordinates (y down).
    pub fn matrix(&self) -> Matrix {
        let [x0, y0, x1, y1] = self.bbox;
        match self.rotate {
            90 => Matrix::new(0.0, 1.0, 1.0, 0.0, -y0, -x0),
            180 => Matrix::new(-1.0, 0.0, 0.0, 1.0, x1, -y0),
            270 => Matrix::new(0.0, -1.0, -1.0, 0.0, y1, x1),
            _ => Matrix::new(1.0, 0.0, 0.0, -1.0, -x0, y1),
        }
    }

    /// The page's content streams, decoded and concatenated. Streams that
    /// fail to decode are skipped.
    pub fn content(&self, doc: &Document, limit: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut add = |obj: &Object| {
            if let Some(Object::Stream(s)) = resolve(doc, obj)
                && let Some(data) = objects::stream_data(s, limit.saturating_sub(out.len()))
            {
                out.extend_from_slice(&data);
                out.push(b'\n');
            }
        };
        match get(doc, self.dict, b"Contents") {
            Some(Object::Array(items)) => items.iter().for_each(&mut add),
            Some(Object::Stream(_)) => {
                if let Ok(obj) = self.dict.get(b"Contents") {
                    add(obj);
                }
            }
            _ => {}
        }
        out
    }
}

/// All pages in page-tree order. Falls back to scanning for `/Type /Page`
/// objects when the tree is unusable.
pub(crate) fn collect(doc: &Document) -> Vec<PageRef<'_>> {
    let mut pages = Vec::new();
    let root = doc
        .trailer
        .get(b"Root")
        .ok()
        .and_then(|r| as_dict(doc, r))
        .and_then(|catalog| catalog.get(b"Pages").ok());
    if let Some(root) = root {
        let mut visited: HashSet<ObjectId> = HashSet::new();
        let mut stack: Vec<(&Object, Inherited<'_>, usize)> = vec![(root, Inherited::default(), 0)];
        while let Some((obj, inherited, depth)) = stack.pop() {
            if pages.len() >= MAX_PAGES || depth > MAX_TREE_DEPTH {
                continue;
            }
            if let Some(id) = ref_id(obj)
                && !visited.insert(id)
            {
                continue;
            }
            let Some(node) = as_dict(doc, obj) else {
                continue;
            };
            let inherited = inherited.update(doc, node);
            match objects::get_array(doc, node, b"Kids") {
                Some(kids) if !node.has_type(b"Page") => {
                    for kid in kids.iter().rev() {
                        stack.push((kid, inherited, depth + 1));
                    }
                }
                _ => pages.push(inherited.into_page(node)),
            }
        }
    }
    if pages.is_empty() {
        for obj in doc.objects.values() {
            if pages.len() >= MAX_PAGES {
                break;
            }
            if let Object::Dictionary(d) = obj
                && d.has_type(b"Page")
            {
                pages.push(Inherited::default().update(doc, d).into_page(d));
            }
        }
    }
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(bbox: [f32; 4], rotate: i32) -> PageRef<'static> {
        static EMPTY: std::sync::LazyLock<Dictionary> = std::sync::LazyLock::new(Dictionary::new);
        PageRef {
            dict: &EMPTY,
            resources: None,
            bbox,
            rotate,
        }
    }

    #[test]
    fn page_matrix_maps_corners() {
        // Unrotated: bottom-left of the box is the bottom-left of the page.
        let p = page([10.0, 20.0, 110.0, 220.0], 0);
        assert_eq!(p.size(), (100.0, 200.0));
        assert_eq!(p.matrix().apply(10.0, 20.0), (0.0, 200.0));
        assert_eq!(p.matrix().apply(110.0, 220.0), (100.0, 0.0));
        // 90° clockwise: the box's top-left corner goes to the top right.
        let p = page([0.0, 0.0, 100.0, 200.0], 90);
        assert_eq!(p.size(), (200.0, 100.0));
        assert_eq!(p.matrix().apply(0.0, 200.0), (200.0, 0.0));
        assert_eq!(p.matrix().apply(0.0, 0.0), (0.0, 0.0));
        let p = page([0.0, 0.0, 100.0, 200.0], 180);
        assert_eq!(p.matrix().apply(0.0, 0.0), (100.0, 0.0));
        let p = page([0.0, 0.0, 100.0, 200.0], 270);
        assert_eq!(p.matrix().apply(0.0, 0.0), (200.0, 100.0));
    }
}
