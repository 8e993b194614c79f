//! tesseract's TSV: words with their boxes, grouped into the lines tesseract found.

/// A line tesseract found: its words' text joined, and the box around them (pixels).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TsvLine {
    pub text: String,
    pub left: i32,
    pub top: i32,
    pub right: i32,
    pub bottom: i32,
    pub words: Vec<TsvWord>,
}

/// One word and its box (pixels).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TsvWord {
    pub text: String,
    pub left: i32,
    pub top: i32,
    pub right: i32,
    pub bottom: i32,
}

/// The lines of a TSV, in tesseract's reading order.
pub(crate) fn lines(tsv: &str) -> Vec<TsvLine> {
    let mut out: Vec<(Vec<i32>, TsvLine)> = Vec::new();
    for row in tsv.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let [
            level,
            _,
            block,
            par,
            line,
            _,
            left,
            top,
            width,
            height,
            _,
            text,
        ] = cols.as_slice()
        else {
            continue;
        };
        let text = text.trim();
        if *level != "5" || text.is_empty() {
            continue;
        }
        let nums: Option<Vec<i32>> = [block, par, line, left, top, width, height]
            .iter()
            .map(|v| v.parse().ok())
            .collect();
        let Some(n) = nums else { continue };
        let word = TsvWord {
            text: text.to_owned(),
            left: n[3],
            top: n[4],
            right: n[3] + n[5],
            bottom: n[4] + n[6],
        };
        let key = n[..3].to_vec();
        match out.last_mut() {
            Some((k, l)) if *k == key => {
                l.left = l.left.min(word.left);
                l.top = l.top.min(word.top);
                l.right = l.right.max(word.right);
                l.bottom = l.bottom.max(word.bottom);
                l.text.push_str(&word.text);
                l.words.push(word);
            }
            _ => out.push((
                key,
                TsvLine {
                    text: word.text.clone(),
                    left: word.left,
                    top: word.top,
                    right: word.right,
                    bottom: word.bottom,
                    words: vec![word],
                },
            )),
        }
    }
    out.into_iter().map(|(_, l)| l).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_words_into_lines() {
        let tsv = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n\
            4\t1\t1\t1\t1\t0\t10\t10\t100\t20\t-1\t\n\
            5\t1\t1\t1\t1\t1\t10\t10\t40\t20\t90\t发票\n\
            5\t1\t1\t1\t1\t2\t60\t12\t50\t18\t90\t号码:\n\
            5\t1\t1\t1\t2\t1\t10\t40\t30\t20\t90\t名称\n\
            5\t1\t1\t1\t2\t2\t50\t40\t30\t20\t90\t \n";
        let l = lines(tsv);
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].text, "发票号码:");
        assert_eq!(
            (l[0].left, l[0].top, l[0].right, l[0].bottom),
            (10, 10, 110, 30)
        );
        assert_eq!(l[1].words.len(), 1);
    }
}
