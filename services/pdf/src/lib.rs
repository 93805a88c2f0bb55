//! A small PDF writer for back-office documents with Thai text: goods-receipt sheets, pick
//! lists, barcode labels and shipping labels.
//!
//! Text is shaped with rustybuzz (so Thai vowels and tone marks sit where the font puts them)
//! and embedded as a subsetted Type0 font with a ToUnicode map, so it can be selected, searched
//! and extracted. Coordinates are millimetres from the top-left corner of the page; font sizes
//! and line widths are in points.
//!
//! The embedded font is Noto Sans Thai merged with the Latin part of Noto Sans (SIL Open Font
//! License 1.1, see `fonts/OFL.txt`).
//!
//! ```
//! use bo_pdf::{Align, Doc, Weight};
//!
//! let mut doc = Doc::new("ใบรับสินค้า");
//! let page = doc.page(210.0, 297.0);
//! page.text(15.0, 20.0, 16.0, Weight::Bold, Align::Left, "ใบรับสินค้า GR2569-000001");
//! page.code128(15.0, 25.0, 60.0, 12.0, "GR2569-000001").unwrap();
//! let pdf = doc.finish();
//! assert!(pdf.starts_with(b"%PDF-"));
//! ```

#![warn(missing_docs)]

pub mod barcode;
pub mod fmt;
mod font;
pub mod merge;
pub mod testing;
mod wrap;

use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

pub use barcode::BarcodeError;
use font::{Font, FontUse, Shaped};

/// Points per millimetre.
const PT_PER_MM: f32 = 72.0 / 25.4;

fn pt(mm: f32) -> f32 {
    mm * PT_PER_MM
}

/// The weight of the embedded font (Noto Sans Thai with Latin).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Weight {
    /// Regular (400).
    Regular,
    /// Bold (700).
    Bold,
}

impl Weight {
    fn index(self) -> usize {
        match self {
            Self::Regular => 0,
            Self::Bold => 1,
        }
    }
}

/// Where `x` is on a line of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Align {
    /// `x` is the start of the text.
    Left,
    /// `x` is the middle of the text.
    Center,
    /// `x` is the end of the text.
    Right,
}

/// Something drawn on a page, in points from the bottom-left corner.
enum Op {
    Text {
        weight: Weight,
        size: f32,
        x: f32,
        y: f32,
        shaped: Shaped,
    },
    Line {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        width: f32,
    },
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        fill: bool,
        width: f32,
    },
    /// Filled rectangles as (x, y, w, h), drawn as one path.
    Bars(Vec<[f32; 4]>),
}

/// A PDF document being built: add pages with [`Doc::page`], then call [`Doc::finish`].
pub struct Doc {
    title: String,
    pages: Vec<Page>,
}

impl Doc {
    /// A new, empty document; `title` goes into the document information.
    pub fn new(title: &str) -> Doc {
        Doc { title: title.to_owned(), pages: Vec::new() }
    }

    /// Appends a page of the given size in millimetres (A4 is 210 × 297) and returns it.
    ///
    /// Sizes below 1 mm are raised to 1 mm.
    pub fn page(&mut self, width_mm: f32, height_mm: f32) -> &mut Page {
        let size = |v: f32| if v.is_finite() { v.max(1.0) } else { 1.0 };
        self.pages.push(Page { width_mm: size(width_mm), height_mm: size(height_mm), ops: Vec::new() });
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    /// The number of pages so far.
    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// Writes the document and returns the PDF bytes. A document without pages gets one empty
    /// A4 page, as a PDF needs at least one.
    pub fn finish(mut self) -> Vec<u8> {
        if self.pages.is_empty() {
            self.page(210.0, 297.0);
        }
        let mut pdf = Pdf::new();
        let mut last_id = 0;
        let mut next = || {
            last_id += 1;
            Ref::new(last_id)
        };
        let catalog_id = next();
        let tree_id = next();
        let info_id = next();
        let font_ids = [next(), next()];
        let font_names = [Name(b"F0"), Name(b"F1")];
        let mut uses = [FontUse::new(Weight::Regular), FontUse::new(Weight::Bold)];

        let mut page_ids = Vec::with_capacity(self.pages.len());
        for page in &self.pages {
            let page_id = next();
            let content_id = next();
            page_ids.push(page_id);
            let (content, used) = page.content(&mut uses, &font_names);
            let (w, h) = (pt(page.width_mm), pt(page.height_mm));
            let mut p = pdf.page(page_id);
            p.media_box(Rect::new(0.0, 0.0, w, h)).parent(tree_id).contents(content_id);
            let mut resources = p.resources();
            let mut fonts = resources.fonts();
            for i in 0..2 {
                if used[i] {
                    fonts.pair(font_names[i], font_ids[i]);
                }
            }
            fonts.finish();
            resources.finish();
            p.finish();
            pdf.stream(content_id, &font::deflate(&content)).filter(Filter::FlateDecode);
        }

        for (i, u) in uses.iter().enumerate() {
            if u.is_used() {
                u.write(&mut pdf, font_ids[i], &mut next);
            }
        }

        pdf.catalog(catalog_id).pages(tree_id).lang(TextStr("th"));
        let count = i32::try_from(page_ids.len()).unwrap_or(i32::MAX);
        pdf.pages(tree_id).kids(page_ids).count(count);
        pdf.document_info(info_id).title(TextStr(&self.title)).producer(TextStr("bo-pdf"));
        pdf.finish()
    }
}

/// One page of a [`Doc`]. Positions are in millimetres from the top-left corner.
pub struct Page {
    width_mm: f32,
    height_mm: f32,
    ops: Vec<Op>,
}

impl Page {
    /// The page width in millimetres.
    pub fn width_mm(&self) -> f32 {
        self.width_mm
    }

    /// The page height in millimetres.
    pub fn height_mm(&self) -> f32 {
        self.height_mm
    }

    /// PDF y (points from the bottom) of a distance in mm from the top.
    fn y(&self, y_mm: f32) -> f32 {
        pt(self.height_mm - y_mm)
    }

    /// Draws one line of text with its baseline at `y_mm` from the top. Newlines and other
    /// control characters are drawn as spaces; characters the font lacks are drawn as its
    /// .notdef glyph (a blank the width of a letter in this font) but still extract as
    /// themselves. Nothing is drawn for a size that is not positive.
    pub fn text(&mut self, x_mm: f32, y_mm: f32, size_pt: f32, weight: Weight, align: Align, text: &str) {
        if !(size_pt.is_finite() && size_pt > 0.0 && x_mm.is_finite() && y_mm.is_finite()) {
            return;
        }
        let clean: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        let shaped = Font::get(weight).shape(&clean);
        if shaped.glyphs.is_empty() {
            return;
        }
        let width = shaped.width * size_pt / 1000.0;
        let x = pt(x_mm)
            - match align {
                Align::Left => 0.0,
                Align::Center => width / 2.0,
                Align::Right => width,
            };
        self.ops.push(Op::Text { weight, size: size_pt, x, y: self.y(y_mm), shaped });
    }

    /// The width in millimetres of `text` on one line, after shaping (kerning included).
    pub fn text_width(&self, size_pt: f32, weight: Weight, text: &str) -> f32 {
        Font::get(weight).shape(text).width * size_pt / 1000.0 / PT_PER_MM
    }

    /// `text` as it fits in `max_mm` at `size_pt`: whole, or cut with "…" after the last
    /// character that fits, never between a consonant and its vowel or tone marks. Shapes
    /// the text once and walks its glyphs, so a long name costs its length, not its square.
    pub fn fit(&self, size_pt: f32, weight: Weight, text: &str, max_mm: f32) -> String {
        let font = Font::get(weight);
        let mm = |w: f32| w * size_pt / 1000.0 / PT_PER_MM;
        let shaped = font.shape(text);
        if mm(shaped.width) <= max_mm {
            return text.to_string();
        }
        let room = max_mm - mm(font.shape("…").width);
        let (mut pen, mut len, mut fits) = (0.0, 0, 0);
        for g in &shaped.glyphs {
            pen += g.advance;
            if mm(pen) > room {
                break;
            }
            // Glyphs read in order give the text back; a mark's glyph carries none, its
            // consonant's carries both, so a cut after a glyph with text keeps them together.
            len += g.text.len();
            if !g.text.is_empty() {
                fits = len;
            }
        }
        format!("{}…", text.get(..fits).unwrap_or(""))
    }

    /// The distance in millimetres between baselines that [`Page::wrap`] uses for `size_pt`.
    pub fn line_height(&self, size_pt: f32) -> f32 {
        Font::get(Weight::Regular).line_height_em() * size_pt / PT_PER_MM
    }

    /// Draws `text` left-aligned in lines no wider than `width_mm`, the first baseline at
    /// `y_mm`, and returns the height used in millimetres (lines × [`Page::line_height`]).
    ///
    /// Lines end at newlines and spaces; a run of Thai (which has no spaces between words) may
    /// also end between syllables, never between a consonant and its vowel or tone marks. A
    /// word too long for a line is cut between grapheme clusters.
    pub fn wrap(&mut self, x_mm: f32, y_mm: f32, width_mm: f32, size_pt: f32, weight: Weight, text: &str) -> f32 {
        let font = Font::get(weight);
        let lines = wrap::lines(text, width_mm, |s| font.shape(s).width * size_pt / 1000.0 / PT_PER_MM);
        let lh = self.line_height(size_pt);
        for (i, line) in lines.iter().enumerate() {
            self.text(x_mm, y_mm + i as f32 * lh, size_pt, weight, Align::Left, line);
        }
        lines.len() as f32 * lh
    }

    /// Draws a straight line `width_pt` wide from (`x1`, `y1`) to (`x2`, `y2`), in millimetres.
    pub fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, width_pt: f32) {
        self.ops.push(Op::Line { x1: pt(x1), y1: self.y(y1), x2: pt(x2), y2: self.y(y2), width: width_pt });
    }

    /// Draws a rectangle with its top-left corner at (`x`, `y`), `w` wide and `h` high, in
    /// millimetres: filled black if `fill`, else outlined with a line `width_pt` wide.
    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: bool, width_pt: f32) {
        self.ops.push(Op::Rect { x: pt(x), y: self.y(y + h), w: pt(w), h: pt(h), fill, width: width_pt });
    }

    /// Draws the bars of a module pattern filling the box at (`x`, `y`), `w` × `h` mm.
    fn bars(&mut self, x: f32, y: f32, w: f32, h: f32, modules: &[bool]) {
        let module = pt(w) / modules.len().max(1) as f32;
        let (x0, y0, hh) = (pt(x), self.y(y + h), pt(h));
        let mut bars = Vec::new();
        let mut i = 0;
        while i < modules.len() {
            if modules[i] {
                let start = i;
                while i < modules.len() && modules[i] {
                    i += 1;
                }
                bars.push([x0 + start as f32 * module, y0, (i - start) as f32 * module, hh]);
            } else {
                i += 1;
            }
        }
        self.ops.push(Op::Bars(bars));
    }

    /// Draws a Code 128 barcode of printable ASCII `data`, its bars stretched to fill the box at
    /// (`x`, `y`), `w` × `h` mm. Leave a quiet zone of 10 modules on each side. Draws nothing
    /// and returns the error if `data` cannot be encoded.
    pub fn code128(&mut self, x: f32, y: f32, w: f32, h: f32, data: &str) -> Result<(), BarcodeError> {
        let modules = barcode::code128(data)?;
        self.bars(x, y, w, h, &modules);
        Ok(())
    }

    /// Draws the bars of an EAN-13 barcode (95 modules) filling the box at (`x`, `y`), `w` × `h`
    /// mm. Takes 12 digits, to which the check digit is added, or 13 digits, whose check digit
    /// is verified. The digits are not printed: use [`Page::text`]. Leave a quiet zone of 11
    /// modules on each side. Draws nothing and returns the error if `digits` are not valid.
    pub fn ean13(&mut self, x: f32, y: f32, w: f32, h: f32, digits: &str) -> Result<(), BarcodeError> {
        let modules = barcode::ean13(digits)?;
        self.bars(x, y, w, h, &modules);
        Ok(())
    }

    /// The content stream of the page, and which fonts it uses.
    fn content(&self, uses: &mut [FontUse; 2], names: &[Name<'static>; 2]) -> (Vec<u8>, [bool; 2]) {
        let mut c = Content::new();
        let mut used = [false; 2];
        for op in &self.ops {
            match op {
                Op::Text { weight, size, x, y, shaped } => {
                    let i = weight.index();
                    used[i] = true;
                    write_text(&mut c, &mut uses[i], names[i], *size, *x, *y, shaped);
                }
                Op::Line { x1, y1, x2, y2, width } => {
                    c.set_line_width(*width).move_to(*x1, *y1).line_to(*x2, *y2).stroke();
                }
                Op::Rect { x, y, w, h, fill: true, .. } => {
                    c.rect(*x, *y, *w, *h).fill_nonzero();
                }
                Op::Rect { x, y, w, h, fill: false, width } => {
                    c.set_line_width(*width).rect(*x, *y, *w, *h).stroke();
                }
                Op::Bars(bars) => {
                    for [x, y, w, h] in bars {
                        c.rect(*x, *y, *w, *h);
                    }
                    if !bars.is_empty() {
                        c.fill_nonzero();
                    }
                }
            }
        }
        (c.finish().into_vec(), used)
    }
}

/// Writes a shaped line: glyphs on the same baseline go in one `TJ` with adjustments that put
/// each glyph where the shaper placed it; a glyph raised or lowered starts a new text matrix.
fn write_text(c: &mut Content, fu: &mut FontUse, name: Name, size: f32, x: f32, y: f32, shaped: &Shaped) {
    let em = size / 1000.0;
    c.begin_text();
    c.set_font(name, size);
    let mut i = 0;
    let glyphs = &shaped.glyphs;
    while i < glyphs.len() {
        let dy = glyphs[i].y;
        c.set_text_matrix([1.0, 0.0, 0.0, 1.0, x + glyphs[i].x * em, y + dy * em]);
        // Where the PDF pen is, in thousandths of an em from the line start.
        let mut pen = glyphs[i].x;
        let mut run: Vec<u8> = Vec::new();
        let mut tj = c.show_positioned();
        let mut items = tj.items();
        while i < glyphs.len() && glyphs[i].y == dy {
            let g = &glyphs[i];
            let gap = g.x - pen;
            if gap.abs() > 0.01 {
                if !run.is_empty() {
                    items.show(Str(&run));
                    run.clear();
                }
                items.adjust(-gap);
            }
            let cid = fu.cid(g.gid, &g.text);
            run.extend(cid.to_be_bytes());
            pen = g.x + fu.advance(cid);
            i += 1;
        }
        if !run.is_empty() {
            items.show(Str(&run));
        }
        items.finish();
        tj.finish();
    }
    c.end_text();
}
