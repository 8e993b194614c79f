//! 2-D affine matrices in PDF's row-vector convention.

/// An affine transform `[a b c d e f]`, applied to row vectors: `[x y 1] × M`.
///
/// PDF concatenates as `new = M × current`, so [`Matrix::then`] reads
/// "apply `self`, then `other`".
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Matrix {
    pub a: f32,
    pub b: f32,
    pub c: f32,
    pub d: f32,
    pub e: f32,
    pub f: f32,
}

impl Default for Matrix {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Matrix {
    pub const IDENTITY: Matrix = Matrix {
        a: 1.0,
        b: 0.0,
        c: 0.0,
        d: 1.0,
        e: 0.0,
        f: 0.0,
    };

    pub fn new(a: f32, b: f32, c: f32, d: f32, e: f32, f: f32) -> Self {
        Self { a, b, c, d, e, f }
    }

    /// Build from six operands; `None` unless all six are finite numbers.
    pub fn from_slice(values: &[f32]) -> Option<Self> {
        match values {
            [a, b, c, d, e, f] if values.iter().all(|v| v.is_finite()) => {
                Some(Self::new(*a, *b, *c, *d, *e, *f))
            }
            _ => None,
        }
    }

    pub fn translate(tx: f32, ty: f32) -> Self {
        Self::new(1.0, 0.0, 0.0, 1.0, tx, ty)
    }

    /// `self × other`: first transform by `self`, then by `other`.
    pub fn then(&self, other: &Matrix) -> Matrix {
        Matrix {
            a: self.a * other.a + self.b * other.c,
            b: self.a * other.b + self.b * other.d,
            c: self.c * other.a + self.d * other.c,
            d: self.c * other.b + self.d * other.d,
            e: self.e * other.a + self.f * other.c + other.e,
            f: self.e * other.b + self.f * other.d + other.f,
        }
    }

    pub fn apply(&self, x: f32, y: f32) -> (f32, f32) {
        (
            x * self.a + y * self.c + self.e,
            x * self.b + y * self.d + self.f,
        )
    }

    /// Length of the transformed unit y vector: how tall one unit of text
    /// space is on the page, i.e. the effective font size factor.
    pub fn vertical_scale(&self) -> f32 {
        self.c.hypot(self.d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn identity_is_neutral() {
        let m = Matrix::new(2.0, 0.5, -1.0, 3.0, 10.0, 20.0);
        assert_eq!(m.then(&Matrix::IDENTITY), m);
        assert_eq!(Matrix::IDENTITY.then(&m), m);
    }

    #[test]
    fn then_applies_left_first() {
        let scale = Matrix::new(2.0, 0.0, 0.0, 2.0, 0.0, 0.0);
        let shift = Matrix::translate(10.0, 5.0);
        // Scale, then shift.
        assert_eq!(scale.then(&shift).apply(1.0, 1.0), (12.0, 7.0));
        // Shift, then scale.
        assert_eq!(shift.then(&scale).apply(1.0, 1.0), (22.0, 12.0));
    }

    #[test]
    fn rotation_and_scale() {
        // 90° rotation: (1, 0) -> (0, 1).
        let rot = Matrix::new(0.0, 1.0, -1.0, 0.0, 0.0, 0.0);
        let (x, y) = rot.apply(1.0, 0.0);
        assert!(close(x, 0.0) && close(y, 1.0));
        let m = Matrix::new(3.0, 0.0, 0.0, 4.0, 0.0, 0.0).then(&rot);
        assert!(close(m.vertical_scale(), 4.0));
    }

    #[test]
    fn from_slice_rejects_bad_input() {
        assert!(Matrix::from_slice(&[1.0, 0.0, 0.0, 1.0, 0.0]).is_none());
        assert!(Matrix::from_slice(&[1.0, 0.0, 0.0, f32::NAN, 0.0, 0.0]).is_none());
        assert!(Matrix::from_slice(&[1.0, 0.0, 0.0, 1.0, 0.0, 0.0]).is_some());
    }
}
