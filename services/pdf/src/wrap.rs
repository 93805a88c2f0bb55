//! Line breaking for text with Thai, which has no spaces between words.

use unicode_segmentation::UnicodeSegmentation;

fn is_thai(c: char) -> bool {
    ('\u{0E00}'..='\u{0E7F}').contains(&c)
}

/// Thai vowels written before their consonant: no break after them.
fn is_leading_vowel(c: char) -> bool {
    ('\u{0E40}'..='\u{0E44}').contains(&c)
}

/// Thai signs that follow their syllable: no break before them.
fn is_trailing_sign(c: char) -> bool {
    matches!(c, '\u{0E2F}' | '\u{0E30}' | '\u{0E32}' | '\u{0E33}' | '\u{0E45}' | '\u{0E46}')
}

/// Byte offsets in `p` where a line may end without a space: between two grapheme clusters of
/// Thai, except after a leading vowel or before a trailing sign.
fn thai_breaks(p: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut prev: Option<char> = None;
    for (i, g) in p.grapheme_indices(true) {
        let first = g.chars().next();
        if let (Some(a), Some(b)) = (prev, first) {
            if is_thai(a) && is_thai(b) && !is_leading_vowel(a) && !is_trailing_sign(b) {
                out.push(i);
            }
        }
        prev = g.chars().last();
    }
    out
}

/// Splits `text` into lines no wider than `max` as measured by `width`. Lines end at newlines,
/// after spaces, and between Thai grapheme clusters (preferring spaces while the line is at
/// least 60% full); a piece too wide on its own is cut between grapheme clusters. Every line
/// holds at least one cluster, so this always ends.
pub(crate) fn lines(text: &str, max: f32, width: impl Fn(&str) -> f32) -> Vec<&str> {
    let mut out = Vec::new();
    for p in text.lines() {
        let p = p.trim_end();
        if p.is_empty() {
            out.push(p);
            continue;
        }
        // Candidate ends, ascending, each marked whether it is at a space (or the end).
        let mut ends: Vec<(usize, bool)> = thai_breaks(p).into_iter().map(|e| (e, false)).collect();
        let mut prev_space = false;
        for (i, c) in p.char_indices() {
            let space = c.is_whitespace();
            if prev_space && !space {
                ends.push((i, true));
            }
            prev_space = space;
        }
        ends.push((p.len(), true));
        ends.sort_unstable();
        ends.dedup_by_key(|e| e.0);

        let mut start = 0;
        while start < p.len() {
            // The last end that fits, and the last one at a space with the width it leaves.
            let mut best = None;
            let mut best_space = None;
            for &(e, at_space) in ends.iter().filter(|e| e.0 > start) {
                let w = width(p[start..e].trim_end());
                if w > max {
                    break;
                }
                best = Some(e);
                if at_space {
                    best_space = Some((e, w));
                }
            }
            // Break inside a Thai run only when a space would leave the line under 60% full.
            if let Some((e, w)) = best_space {
                if w >= 0.6 * max {
                    best = Some(e);
                }
            }
            let end = best.unwrap_or_else(|| {
                // Nothing fits: cut between grapheme clusters, keeping at least one.
                let mut cut = None;
                for (i, g) in p[start..].grapheme_indices(true) {
                    let e = start + i + g.len();
                    if cut.is_none() || width(&p[start..e]) <= max {
                        cut = Some(e);
                    } else {
                        break;
                    }
                }
                cut.unwrap_or(p.len())
            });
            out.push(p[start..end].trim_end());
            start = end;
            start += p[start..].len() - p[start..].trim_start().len();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character is one unit wide.
    fn count(s: &str) -> f32 {
        s.chars().count() as f32
    }

    #[test]
    fn breaks_at_spaces() {
        assert_eq!(lines("aaa bbb ccc", 7.0, count), ["aaa bbb", "ccc"]);
        assert_eq!(lines("aaa   bbb", 4.0, count), ["aaa", "bbb"]);
        assert_eq!(lines("a\nb\n\nc", 10.0, count), ["a", "b", "", "c"]);
        assert!(lines("", 10.0, count).is_empty());
    }

    #[test]
    fn cuts_long_words_between_clusters() {
        assert_eq!(lines("abcdefgh", 3.0, count), ["abc", "def", "gh"]);
        // Even when nothing fits, each line takes one cluster.
        assert_eq!(lines("ab", 0.5, count), ["a", "b"]);
    }

    #[test]
    fn thai_breaks_keep_marks_with_their_consonant() {
        // ที่ is one cluster: never cut between ท and its marks.
        for max in 1..6 {
            for line in lines("ที่นี่ที่นั่น", max as f32, count) {
                let first = line.chars().next().unwrap();
                assert!(!('\u{0E31}'..='\u{0E3A}').contains(&first) && !('\u{0E47}'..='\u{0E4E}').contains(&first));
            }
        }
        assert_eq!(lines("ที่นี่", 3.0, count), ["ที่", "นี่"]);
        // No break after เ or before า/ำ/ะ.
        assert_eq!(thai_breaks("เกา"), Vec::<usize>::new());
        assert_eq!(thai_breaks("น้ำปลา"), vec!["น้ำ".len(), "น้ำป".len()]);
        assert_eq!(thai_breaks("กะทิ"), vec!["กะ".len()]);
        // Latin is only broken at spaces.
        assert!(thai_breaks("abc ก").is_empty());
    }

    #[test]
    fn mixed_text_prefers_spaces_then_thai_breaks() {
        let got = lines("SKU ABC น้ำปลาแท้", 9.0, count);
        assert_eq!(got, ["SKU ABC", "น้ำปลาแท้"]);
        // A space that leaves the line too empty loses to a Thai break.
        assert_eq!(lines("ก น้ำปลาแท้", 8.0, count), ["ก น้ำปลา", "แท้"]);
        assert_eq!(lines("กขคฆงจ น้ำปลาแท้", 9.0, count), ["กขคฆงจ", "น้ำปลาแท้"]);
        let got = lines("น้ำปลาแท้", 4.0, count);
        assert_eq!(got.concat(), "น้ำปลาแท้");
        assert!(got.len() > 1);
    }
}
