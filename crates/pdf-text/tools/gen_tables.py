"""Generate src/tables.rs from pdfminer.six's copies of the PDF Latin
encodings, the Adobe Glyph List and the standard-14 AFM widths.

Usage: python3 tools/gen_tables.py > src/tables.rs && cargo fmt
(needs `pip install pdfminer.six`)
"""
import sys
from pdfminer.latin_enc import ENCODING
from pdfminer.glyphlist import glyphname2unicode
from pdfminer.fontmetrics import FONT_METRICS

names = sorted({row[0] for row in ENCODING})
# extra common names beyond the latin set
extra = ['nbspace','sfthyphen','middot','minus','fi','fl','ff','ffi','ffl','periodcentered','macron','overscore','mu','Omega','Delta','cent','yen','uni00A0']
for e in extra:
    if e not in names and e in glyphname2unicode:
        names.append(e)
names = sorted(set(names))
def uni(n):
    return glyphname2unicode[n]
out = []
out.append("//! Generated tables: Adobe Latin glyph names, their Unicode values, the three")
out.append("//! standard single-byte encodings, and standard-14 font advance widths.")
out.append("//!")
out.append("//! Source: PDF 1.7 Annex D (Latin character set) and the Adobe AFM files, as")
out.append("//! shipped in pdfminer.six. Regenerate with tools/gen_tables.py rather than")
out.append("//! editing by hand.")
out.append("")
out.append("/// Glyph names, sorted for binary search, with the Unicode text each stands for.")
out.append("pub(crate) static GLYPH_NAMES: &[(&str, &str)] = &[")
for n in names:
    u = uni(n)
    esc = ''.join('\\u{%x}' % ord(c) for c in u)
    out.append(f'    ("{n}", "{esc}"),')
out.append("];")
idx = {n:i for i,n in enumerate(names)}
def enc_table(col, label, doc):
    t = [0xFFFF]*256
    for row in ENCODING:
        c = row[col]
        if c is not None:
            t[c] = idx[row[0]]
    if col == 3:
        t[173] = idx['hyphen']
        t[160] = idx['space']
    out.append(f"/// {doc}: code to index into [`GLYPH_NAMES`], `u16::MAX` for none.")
    out.append(f"pub(crate) static {label}: [u16; 256] = [")
    for i in range(0,256,16):
        out.append("    " + " ".join(f"{v}," for v in t[i:i+16]))
    out.append("];")
enc_table(1, "STANDARD", "StandardEncoding")
enc_table(2, "MAC_ROMAN", "MacRomanEncoding")
enc_table(3, "WIN_ANSI", "WinAnsiEncoding")
# WinAnsi: 0xA0 is nbspace -> space, 0xAD hyphen. pdfminer table lacks these.
fonts = ["Helvetica","Helvetica-Bold","Times-Roman","Times-Bold","Times-Italic","Times-BoldItalic"]
out.append("/// Advance widths (1/1000 em) of the standard fonts, parallel to [`GLYPH_NAMES`]; 0 = unknown.")
for f in fonts:
    w = FONT_METRICS[f][1]
    lab = f.upper().replace('-','_')
    vals = [int(w.get(uni(n), 0)) for n in names]
    out.append(f"pub(crate) static {lab}: [u16; {len(names)}] = [")
    for i in range(0,len(vals),16):
        out.append("    " + " ".join(f"{v}," for v in vals[i:i+16]))
    out.append("];")
print("\n".join(out))
