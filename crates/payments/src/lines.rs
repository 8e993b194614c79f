//! What the OCR engine gives the reader: text lines with their boxes, recorded as JSON so
//! the rules can be tested on recorded lines without the engine.

use serde::{Deserialize, Serialize};

/// One text line of a screenshot as the OCR read it, and its box (pixels, right and bottom
/// exclusive).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScreenLine {
    /// The text read.
    pub text: String,
    /// Left edge.
    pub x0: u32,
    /// Top edge.
    pub y0: u32,
    /// Right edge (exclusive).
    pub x1: u32,
    /// Bottom edge (exclusive).
    pub y1: u32,
    /// Slant in radians, clockwise; 0 for a level line (and in recordings without it).
    #[serde(default, skip_serializing_if = "is_level")]
    pub angle: f32,
}

fn is_level(a: &f32) -> bool {
    *a == 0.0
}

/// Every line of one screenshot, top to bottom, and the image's size: what recognition reads
/// the fields from. Serialises as the `*.lines.json` recordings of the `record_lines` example.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScreenText {
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// The lines, top to bottom.
    pub lines: Vec<ScreenLine>,
}

impl ScreenLine {
    /// Vertical centre.
    pub fn cy(&self) -> f32 {
        (self.y0 + self.y1) as f32 / 2.0
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.y1.saturating_sub(self.y0)
    }

    /// The line moved down by `dy` pixels (a line read from a band of the image).
    pub fn shifted(mut self, dy: u32) -> Self {
        self.y0 += dy;
        self.y1 += dy;
        self
    }

    /// Whether the two lines share a row: they overlap vertically by at least 70% of the
    /// shorter one's height (boxes are padded, so lines stacked close overlap a little).
    pub fn shares_row(&self, other: &ScreenLine) -> bool {
        let overlap = self.y1.min(other.y1).saturating_sub(self.y0.max(other.y0));
        overlap * 10 >= self.height().min(other.height()).max(1) * 7
    }
}

impl From<pp_ocr::TextLine> for ScreenLine {
    fn from(l: pp_ocr::TextLine) -> Self {
        Self {
            text: l.text,
            x0: l.x0,
            y0: l.y0,
            x1: l.x1,
            y1: l.y1,
            angle: l.angle,
        }
    }
}
