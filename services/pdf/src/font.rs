//! The embedded fonts: shaping, and writing them as subsetted Type0 fonts.

use std::collections::HashMap;
use std::sync::OnceLock;

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Filter, Finish, Name, Pdf, Rect, Ref, Str};
use rustybuzz::ttf_parser::GlyphId;
use rustybuzz::GlyphPosition;

use crate::Weight;

static REGULAR: &[u8] = include_bytes!("../fonts/NotoSansThaiLatin-Regular.ttf");
static BOLD: &[u8] = include_bytes!("../fonts/NotoSansThaiLatin-Bold.ttf");

/// One embedded font, parsed once.
pub(crate) struct Font {
    data: &'static [u8],
    face: rustybuzz::Face<'static>,
    ps_name: &'static str,
    weight: u16,
}

impl Font {
    /// The font for a weight.
    pub(crate) fn get(weight: Weight) -> &'static Font {
        static FONTS: [OnceLock<Font>; 2] = [OnceLock::new(), OnceLock::new()];
        let (i, data, ps_name, w) = match weight {
            Weight::Regular => (0, REGULAR, "NotoSansThaiLatin-Regular", 400),
            Weight::Bold => (1, BOLD, "NotoSansThaiLatin-Bold", 700),
        };
        FONTS[i].get_or_init(|| Font {
            data,
            // The fonts are part of the crate; a test parses both.
            face: rustybuzz::Face::from_slice(data, 0).expect("embedded font parses"),
            ps_name,
            weight: w,
        })
    }

    fn upm(&self) -> f32 {
        self.face.units_per_em() as f32
    }

    /// The advance of a glyph in thousandths of an em, as written in the PDF widths.
    fn advance(&self, gid: u16) -> f32 {
        f32::from(self.face.glyph_hor_advance(GlyphId(gid)).unwrap_or(0)) * 1000.0 / self.upm()
    }

    /// Height of a line (ascender to descender plus line gap), in ems.
    pub(crate) fn line_height_em(&self) -> f32 {
        let f = &self.face;
        (f32::from(f.ascender()) - f32::from(f.descender()) + f32::from(f.line_gap())) / self.upm()
    }

    /// Shapes one line of text. Positions are in thousandths of an em.
    ///
    /// Thai and other text are shaped as separate runs, so each gets its script's features;
    /// spaces, digits and punctuation stay with the run they are in.
    pub(crate) fn shape(&self, text: &str) -> Shaped {
        let mut glyphs = Vec::new();
        let mut pen = 0.0;
        let mut start = 0;
        let mut thai: Option<bool> = None;
        for (i, c) in text.char_indices() {
            let this = if is_thai(c) {
                Some(true)
            } else if c.is_alphabetic() {
                Some(false)
            } else {
                None
            };
            if let (Some(run), Some(now)) = (thai, this) {
                if run != now {
                    pen = self.shape_run(&text[start..i], pen, &mut glyphs);
                    start = i;
                }
            }
            thai = this.or(thai);
        }
        if start < text.len() {
            pen = self.shape_run(&text[start..], pen, &mut glyphs);
        }
        Shaped { glyphs, width: pen }
    }

    /// Shapes one run starting at `pen`, appends its glyphs and returns the pen after it.
    fn shape_run(&self, text: &str, mut pen: f32, glyphs: &mut Vec<Glyph>) -> f32 {
        let mut buffer = rustybuzz::UnicodeBuffer::new();
        buffer.push_str(text);
        let out = rustybuzz::shape(&self.face, &[], buffer);
        let scale = 1000.0 / self.upm();
        let infos = out.glyph_infos();
        let positions = out.glyph_positions();

        // A cluster runs from its start to the next larger cluster start.
        let mut starts: Vec<usize> = infos.iter().map(|g| g.cluster as usize).collect();
        starts.sort_unstable();
        starts.dedup();
        let cluster_end = |start: usize| match starts.binary_search(&start) {
            Ok(i) if i + 1 < starts.len() => starts[i + 1],
            _ => text.len(),
        };

        let mut i = 0;
        while i < infos.len() {
            let cluster = infos[i].cluster as usize;
            let mut j = i;
            while j < infos.len() && infos[j].cluster as usize == cluster {
                j += 1;
            }
            let texts = self.cluster_texts(&text[cluster..cluster_end(cluster)], &infos[i..j], &positions[i..j]);
            for (k, t) in (i..j).zip(texts) {
                let p = &positions[k];
                glyphs.push(Glyph {
                    gid: u16::try_from(infos[k].glyph_id).unwrap_or(0),
                    text: t,
                    x: pen + p.x_offset as f32 * scale,
                    y: p.y_offset as f32 * scale,
                    advance: p.x_advance as f32 * scale,
                });
                pen += p.x_advance as f32 * scale;
            }
            i = j;
        }
        pen
    }

    /// Splits a cluster's text over its glyphs for copying and extraction. Only glyphs that
    /// advance the pen carry text, so marks (which readers place by position, often in the
    /// wrong order) carry none and no advancing glyph is left without text. Read in glyph
    /// order, the pieces give the cluster's text back: leading advancing glyphs that are the
    /// font's own glyph for the next character take it, and the last one takes the rest.
    fn cluster_texts(&self, text: &str, infos: &[rustybuzz::GlyphInfo], positions: &[GlyphPosition]) -> Vec<String> {
        let mut out = vec![String::new(); infos.len()];
        let mut carriers: Vec<usize> = (0..infos.len()).filter(|&k| positions[k].x_advance != 0).collect();
        if carriers.is_empty() {
            carriers.push(0);
        }
        let mut chars = text.chars().peekable();
        for (n, &k) in carriers.iter().enumerate() {
            let Some(&c) = chars.peek() else { break };
            let own = self.face.glyph_index(c).is_some_and(|id| u32::from(id.0) == infos[k].glyph_id);
            if own && n + 1 < carriers.len() {
                out[k].push(c);
                chars.next();
            } else {
                out[k].extend(chars.by_ref());
                break;
            }
        }
        out
    }
}

fn is_thai(c: char) -> bool {
    ('\u{0E00}'..='\u{0E7F}').contains(&c)
}

/// A glyph placed relative to the start of its line.
pub(crate) struct Glyph {
    /// Glyph id in the full font.
    pub(crate) gid: u16,
    /// The text this glyph stands for when copied; may be empty.
    pub(crate) text: String,
    /// Origin, in thousandths of an em from the line start (y up).
    pub(crate) x: f32,
    pub(crate) y: f32,
    /// How far it moves the pen, in thousandths of an em.
    pub(crate) advance: f32,
}

/// A shaped line.
pub(crate) struct Shaped {
    pub(crate) glyphs: Vec<Glyph>,
    /// Total advance in thousandths of an em.
    pub(crate) width: f32,
}

/// The glyphs a document uses from one font, each with the text it stands for.
///
/// Each (glyph, text) pair gets its own CID, so a glyph can stand for different text in
/// different places; the CIDToGIDMap points every CID at its glyph in the subset.
pub(crate) struct FontUse {
    weight: Weight,
    cids: HashMap<(u16, String), u16>,
    entries: Vec<(u16, String)>,
}

impl FontUse {
    pub(crate) fn new(weight: Weight) -> Self {
        // CID 0 stays .notdef.
        Self { weight, cids: HashMap::new(), entries: vec![(0, String::new())] }
    }

    pub(crate) fn font(&self) -> &'static Font {
        Font::get(self.weight)
    }

    pub(crate) fn is_used(&self) -> bool {
        self.entries.len() > 1
    }

    /// The CID for a glyph standing for `text`.
    pub(crate) fn cid(&mut self, gid: u16, text: &str) -> u16 {
        if let Some(&cid) = self.cids.get(&(gid, text.to_owned())) {
            return cid;
        }
        let Ok(cid) = u16::try_from(self.entries.len()) else { return 0 };
        if cid == u16::MAX {
            return 0;
        }
        self.entries.push((gid, text.to_owned()));
        self.cids.insert((gid, text.to_owned()), cid);
        cid
    }

    /// Advance of a CID in thousandths of an em.
    pub(crate) fn advance(&self, cid: u16) -> f32 {
        let gid = self.entries.get(usize::from(cid)).map_or(0, |e| e.0);
        self.font().advance(gid)
    }

    /// Writes the Type0 font with its descendant, descriptor, subset font program, CID map and
    /// ToUnicode map. `next` hands out fresh object ids.
    pub(crate) fn write(&self, pdf: &mut Pdf, type0: Ref, next: &mut impl FnMut() -> Ref) {
        let font = self.font();
        let cid_ref = next();
        let descriptor_ref = next();
        let program_ref = next();
        let cid_map_ref = next();
        let to_unicode_ref = next();

        let mut remapper = subsetter::GlyphRemapper::new();
        for (gid, _) in &self.entries {
            remapper.remap(*gid);
        }
        // Fall back to the whole font if subsetting fails, rather than failing the document.
        let (program, subsetted) = match subsetter::subset(font.data, 0, &remapper) {
            Ok(sub) => (sub, true),
            Err(_) => (font.data.to_vec(), false),
        };
        let new_gid = |gid: u16| if subsetted { remapper.get(gid).unwrap_or(0) } else { gid };

        let base_name = format!("{}+{}", subset_tag(&self.entries), font.ps_name);
        let base_name = Name(base_name.as_bytes());
        let system_info = SystemInfo { registry: Str(b"Adobe"), ordering: Str(b"Identity"), supplement: 0 };

        pdf.type0_font(type0)
            .base_font(base_name)
            .encoding_predefined(Name(b"Identity-H"))
            .descendant_font(cid_ref)
            .to_unicode(to_unicode_ref);

        let mut cid = pdf.cid_font(cid_ref);
        cid.subtype(CidFontType::Type2)
            .base_font(base_name)
            .system_info(system_info)
            .font_descriptor(descriptor_ref)
            .default_width(0.0)
            .cid_to_gid_map_stream(cid_map_ref);
        cid.widths().consecutive(0, self.entries.iter().map(|(gid, _)| font.advance(*gid)));
        cid.finish();

        let f = &font.face;
        let to_em = |v: i16| f32::from(v) * 1000.0 / font.upm();
        let bbox = f.global_bounding_box();
        pdf.font_descriptor(descriptor_ref)
            .name(base_name)
            .flags(FontFlags::SYMBOLIC)
            .bbox(Rect::new(to_em(bbox.x_min), to_em(bbox.y_min), to_em(bbox.x_max), to_em(bbox.y_max)))
            .italic_angle(0.0)
            .ascent(to_em(f.ascender()))
            .descent(to_em(f.descender()))
            .cap_height(to_em(f.capital_height().unwrap_or(f.ascender())))
            .stem_v(if font.weight >= 700 { 140.0 } else { 80.0 })
            .weight(font.weight)
            .font_file2(program_ref);

        let packed = deflate(&program);
        pdf.stream(program_ref, &packed)
            .filter(Filter::FlateDecode)
            .pair(Name(b"Length1"), i32::try_from(program.len()).unwrap_or(i32::MAX));

        let map: Vec<u8> = self.entries.iter().flat_map(|(gid, _)| new_gid(*gid).to_be_bytes()).collect();
        pdf.stream(cid_map_ref, &deflate(&map)).filter(Filter::FlateDecode);

        let mut cmap = UnicodeCmap::new(Name(b"Custom"), system_info);
        for (cid, (_, text)) in self.entries.iter().enumerate() {
            if !text.is_empty() {
                cmap.pair_with_multiple(cid as u16, text.chars());
            }
        }
        let cmap = cmap.finish();
        pdf.cmap(to_unicode_ref, &deflate(&cmap)).filter(Filter::FlateDecode);
    }
}

/// Six capital letters naming a subset, from its glyphs.
fn subset_tag(entries: &[(u16, String)]) -> String {
    // FNV-1a over the glyph ids.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (gid, _) in entries {
        for b in gid.to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    (0..6)
        .map(|_| {
            let c = char::from(b'A' + (h % 26) as u8);
            h /= 26;
            c
        })
        .collect()
}

/// zlib-compresses a stream.
pub(crate) fn deflate(data: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(data, 6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_fonts_parse() {
        for w in [Weight::Regular, Weight::Bold] {
            let f = Font::get(w);
            assert_eq!(f.upm(), 1000.0);
            assert!(f.face.glyph_index('ก').is_some());
            assert!(f.face.glyph_index('A').is_some());
        }
    }

    #[test]
    fn cluster_text_reads_back_in_glyph_order() {
        let f = Font::get(Weight::Regular);
        for text in ["น้ำปลา", "ผู้ใหญ่", "ที่", "ปี่", "ฐู", "กำลัง", "AV.", "ข้อความ"]
        {
            let s = f.shape(text);
            let joined: String = s.glyphs.iter().map(|g| g.text.as_str()).collect();
            assert_eq!(joined, text);
            for g in &s.glyphs {
                if f.advance(g.gid) == 0.0 {
                    assert!(g.text.is_empty(), "a mark carries no text in {text}");
                }
            }
        }
        let s = f.shape("น้ำ");
        let texts: Vec<&str> = s.glyphs.iter().map(|g| g.text.as_str()).collect();
        assert_eq!(texts, ["น", "", "", "\u{0E49}\u{0E33}"]);
    }

    /// Where each glyph would sit with cmap glyphs and plain advances, no shaping.
    fn naive_positions(f: &Font, text: &str) -> Vec<(u16, f32)> {
        let mut pen = 0.0;
        text.chars()
            .map(|c| {
                let gid = f.face.glyph_index(c).map_or(0, |g| g.0);
                let at = pen;
                pen += f.advance(gid);
                (gid, at)
            })
            .collect()
    }

    #[test]
    fn shaper_places_thai_tone_marks() {
        for w in [Weight::Regular, Weight::Bold] {
            let f = Font::get(w);
            // ที่: ท, sara ii, mai ek; the tone mark sits on top of the vowel.
            let shaped = f.shape("ที่");
            let naive = naive_positions(f, "ที่");
            assert_eq!(shaped.glyphs.len(), 3);
            let tone = &shaped.glyphs[2];
            assert_ne!((tone.x, tone.y), (naive[2].1, 0.0), "GPOS moved the tone mark");
            // The shaper also swaps in the raised form of mai ek above a vowel.
            assert_ne!(tone.gid, naive[2].0);

            // ปี่: the tall stem of ป pushes the marks to the left, by a good part of an em.
            let shaped = f.shape("ปี่");
            let naive = naive_positions(f, "ปี่");
            assert!(naive[2].1 - shaped.glyphs[2].x > 50.0, "{} vs {}", shaped.glyphs[2].x, naive[2].1);
        }
    }

    #[test]
    fn kerning_is_applied_to_latin_after_thai() {
        let f = Font::get(Weight::Regular);
        let plain = f.advance(f.face.glyph_index('A').unwrap().0) + f.advance(f.face.glyph_index('V').unwrap().0);
        assert!(f.shape("AV").width < plain);
        let thai = f.shape("ก ").width;
        assert!((f.shape("ก AV").width - thai) < plain);
    }

    #[test]
    fn missing_glyphs_are_notdef() {
        let f = Font::get(Weight::Regular);
        let s = f.shape("a\u{4E2D}b");
        assert_eq!(s.glyphs.len(), 3);
        assert_eq!(s.glyphs[1].gid, 0);
        assert_eq!(s.glyphs[1].text, "\u{4E2D}");
    }

    #[test]
    fn cids_are_shared_per_glyph_and_text() {
        let mut u = FontUse::new(Weight::Regular);
        assert!(!u.is_used());
        let a = u.cid(10, "a");
        assert_eq!(u.cid(10, "a"), a);
        assert_ne!(u.cid(10, "ab"), a);
        assert_ne!(a, 0);
        assert!(u.is_used());
    }
}
