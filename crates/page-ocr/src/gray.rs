//! An 8-bit grey image, row by row, and the crops the reader frames from it.

/// An 8-bit grey image (a rendered page): 0 is black, 255 white.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gray {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Pixels row by row, one byte each (`width × height` of them).
    pub pixels: Vec<u8>,
}

/// A rectangle in pixels, clamped to an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rect {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
}

impl Gray {
    /// A white image.
    pub fn white(width: u32, height: u32) -> Self {
        Self {
            width,
            height,
            pixels: vec![255; width as usize * height as usize],
        }
    }

    /// Parses a binary PGM (`P5`, maxval 255), as `pdftoppm -gray` writes it.
    pub fn from_pgm(bytes: &[u8]) -> Option<Self> {
        let mut fields = Vec::with_capacity(4);
        let mut at = 0usize;
        while fields.len() < 4 {
            while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
                at += 1;
            }
            if bytes.get(at) == Some(&b'#') {
                while bytes.get(at).is_some_and(|b| *b != b'\n') {
                    at += 1;
                }
                continue;
            }
            let start = at;
            while bytes.get(at).is_some_and(|b| !b.is_ascii_whitespace()) {
                at += 1;
            }
            fields.push(std::str::from_utf8(bytes.get(start..at)?).ok()?);
            if at == start {
                return None;
            }
        }
        let [magic, w, h, max] = fields.as_slice() else {
            return None;
        };
        let (width, height): (u32, u32) = (w.parse().ok()?, h.parse().ok()?);
        if *magic != "P5" || *max != "255" {
            return None;
        }
        let len = (width as usize).checked_mul(height as usize)?;
        let pixels = bytes.get(at + 1..)?.get(..len)?.to_vec();
        Some(Self {
            width,
            height,
            pixels,
        })
    }

    /// A rectangle clamped to the image; `None` when nothing of it is inside.
    pub(crate) fn clamp(&self, x0: f32, y0: f32, x1: f32, y1: f32) -> Option<Rect> {
        let fit = |v: f32, max: u32| v.clamp(0.0, max as f32) as u32;
        let (x, y) = (fit(x0.floor(), self.width), fit(y0.floor(), self.height));
        let (xe, ye) = (fit(x1.ceil(), self.width), fit(y1.ceil(), self.height));
        (xe > x && ye > y).then_some(Rect {
            x,
            y,
            w: xe - x,
            h: ye - y,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_pgm_with_comments() {
        let mut bytes = b"P5\n# made by hand\n3 2\n255\n".to_vec();
        bytes.extend([0, 1, 2, 3, 4, 5]);
        let g = Gray::from_pgm(&bytes).unwrap();
        assert_eq!(
            (g.width, g.height, g.pixels),
            (3, 2, vec![0, 1, 2, 3, 4, 5])
        );
        assert!(Gray::from_pgm(b"P6\n1 1\n255\n\0\0\0").is_none());
        assert!(Gray::from_pgm(b"P5\n4 4\n255\n\0").is_none(), "short");
    }

    #[test]
    fn clamps() {
        let mut src = Gray::white(4, 4);
        src.pixels[5] = 0;
        assert_eq!(
            src.clamp(-3.0, 1.0, 2.2, 9.0),
            Some(Rect {
                x: 0,
                y: 1,
                w: 3,
                h: 3
            })
        );
        assert_eq!(src.clamp(5.0, 0.0, 9.0, 2.0), None);
    }
}
