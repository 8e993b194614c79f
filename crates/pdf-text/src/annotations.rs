//! Annotation appearances: the form XObjects a viewer draws on top of the
//! page for stamps, widgets (form fields) and the like.

use lopdf::{Dictionary, Document, Object};

use crate::matrix::Matrix;
use crate::objects::{self, as_dict, get, get_array, get_dict, get_name, resolve};

const MAX_ANNOTATIONS: usize = 1_000;
/// Annotation flags that keep an annotation off the screen.
const FLAG_HIDDEN: i64 = 1 << 1;
const FLAG_NO_VIEW: i64 = 1 << 5;

/// One visible annotation appearance, ready to run as a form.
pub(crate) struct Appearance<'a> {
    /// The appearance stream (a form XObject), possibly a reference.
    pub form: &'a Object,
    /// Maps the form's (already `/Matrix`-transformed) space onto the
    /// annotation rectangle in page user space.
    pub placement: Matrix,
}

fn rect(doc: &Document, dict: &Dictionary, key: &[u8]) -> Option<[f32; 4]> {
    let v = objects::numbers(doc, get_array(doc, dict, key)?);
    let [x0, y0, x1, y1] = v.as_slice() else {
        return None;
    };
    Some([x0.min(*x1), y0.min(*y1), x0.max(*x1), y0.max(*y1)])
}

/// The visible appearances of a page's annotations, in array order.
pub(crate) fn appearances<'a>(doc: &'a Document, page: &'a Dictionary) -> Vec<Appearance<'a>> {
    let mut out = Vec::new();
    let Some(annots) = get_array(doc, page, b"Annots") else {
        return out;
    };
    for annot in annots.iter().take(MAX_ANNOTATIONS) {
        let Some(annot) = as_dict(doc, annot) else {
            continue;
        };
        if matches!(get_name(doc, annot, b"Subtype"), Some(b"Popup" | b"Link")) {
            continue;
        }
        if let Some(Object::Integer(flags)) = get(doc, annot, b"F")
            && flags & (FLAG_HIDDEN | FLAG_NO_VIEW) != 0
        {
            continue;
        }
        let Some(normal) = get_dict(doc, annot, b"AP").and_then(|ap| ap.get(b"N").ok()) else {
            continue;
        };
        // /N is a stream, or a dictionary of states chosen by /AS.
        let form = match resolve(doc, normal) {
            Some(Object::Stream(_)) => normal,
            Some(Object::Dictionary(states)) => {
                let Some(state) = get_name(doc, annot, b"AS") else {
                    continue;
                };
                match states.get(state) {
                    Ok(obj) => obj,
                    Err(_) => continue,
                }
            }
            _ => continue,
        };
        let Some(Object::Stream(stream)) = resolve(doc, form) else {
            continue;
        };
        let Some(target) = rect(doc, annot, b"Rect") else {
            continue;
        };
        let Some(bbox) = rect(doc, &stream.dict, b"BBox") else {
            continue;
        };
        let matrix = get_array(doc, &stream.dict, b"Matrix")
            .map(|a| objects::numbers(doc, a))
            .and_then(|v| Matrix::from_slice(&v))
            .unwrap_or_default();
        if let Some(placement) = placement(bbox, matrix, target) {
            out.push(Appearance { form, placement });
        }
    }
    out
}

/// The matrix that maps the form's transformed bounding box onto `target`
/// (PDF 32000-1, 12.5.5). `None` for a degenerate box.
fn placement(bbox: [f32; 4], matrix: Matrix, target: [f32; 4]) -> Option<Matrix> {
    let [x0, y0, x1, y1] = bbox;
    let corners = [
        matrix.apply(x0, y0),
        matrix.apply(x1, y0),
        matrix.apply(x0, y1),
        matrix.apply(x1, y1),
    ];
    let min_x = corners.iter().map(|c| c.0).fold(f32::INFINITY, f32::min);
    let max_x = corners
        .iter()
        .map(|c| c.0)
        .fold(f32::NEG_INFINITY, f32::max);
    let min_y = corners.iter().map(|c| c.1).fold(f32::INFINITY, f32::min);
    let max_y = corners
        .iter()
        .map(|c| c.1)
        .fold(f32::NEG_INFINITY, f32::max);
    let (w, h) = (max_x - min_x, max_y - min_y);
    if !(w.abs() > 1e-6 && h.abs() > 1e-6) {
        return None;
    }
    let sx = (target[2] - target[0]) / w;
    let sy = (target[3] - target[1]) / h;
    let m = Matrix::new(
        sx,
        0.0,
        0.0,
        sy,
        target[0] - min_x * sx,
        target[1] - min_y * sy,
    );
    [m.a, m.d, m.e, m.f]
        .iter()
        .all(|v| v.is_finite())
        .then_some(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_maps_bbox_to_rect() {
        let m = placement(
            [0.0, 0.0, 100.0, 50.0],
            Matrix::IDENTITY,
            [10.0, 20.0, 60.0, 45.0],
        )
        .unwrap_or_default();
        assert_eq!(m.apply(0.0, 0.0), (10.0, 20.0));
        assert_eq!(m.apply(100.0, 50.0), (60.0, 45.0));
        assert!(
            placement(
                [0.0, 0.0, 0.0, 50.0],
                Matrix::IDENTITY,
                [0.0, 0.0, 1.0, 1.0]
            )
            .is_none()
        );
    }
}
