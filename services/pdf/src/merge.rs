//! PDF files joined into one, their pages in the order given: the marketplaces' shipping
//! labels of many orders printed at once. Each file's objects are renumbered past the
//! previous ones', every page keeps what it inherited from its page tree (size, resources,
//! rotation), and the pages hang from one page tree under the first file's catalogue.

use std::collections::BTreeMap;

use lopdf::{Dictionary, Document, Object, ObjectId};

/// Attributes a page inherits from its page tree.
const INHERITED: [&[u8]; 4] = [b"MediaBox", b"Resources", b"CropBox", b"Rotate"];

/// The most pages a joined file takes.
pub const MAX_PAGES: usize = 1_000;

/// Joins `files` (each a PDF) into one PDF: the pages of the first, then of the second, and
/// so on. A file that cannot be read is named by its place (from 0) in the error.
pub fn merge(files: &[Vec<u8>]) -> Result<Vec<u8>, String> {
    if files.is_empty() {
        return Err("no file to join".into());
    }
    let mut next_id = 1;
    let mut pages: Vec<(ObjectId, Dictionary)> = Vec::new();
    let mut objects: BTreeMap<ObjectId, Object> = BTreeMap::new();
    let mut catalog: Option<(ObjectId, Dictionary)> = None;
    for (n, bytes) in files.iter().enumerate() {
        let mut doc = Document::load_mem(bytes).map_err(|e| format!("file {n}: {e}"))?;
        doc.renumber_objects_with(next_id);
        next_id = doc.max_id + 1;
        for (_, id) in doc.get_pages() {
            let mut page = doc.get_dictionary(id).map_err(|e| format!("file {n}: page: {e}"))?.clone();
            inherit(&doc, &mut page);
            pages.push((id, page));
        }
        if catalog.is_none() {
            let root = doc.trailer.get(b"Root").and_then(Object::as_reference).map_err(|e| format!("file {n}: {e}"))?;
            catalog = Some((root, doc.get_dictionary(root).map_err(|e| format!("file {n}: catalogue: {e}"))?.clone()));
        }
        objects.extend(doc.objects);
        if pages.len() > MAX_PAGES {
            return Err(format!("more than {MAX_PAGES} pages"));
        }
    }
    let (catalog_id, mut catalog) = catalog.expect("one file at least");
    let mut out = Document::with_version("1.5");
    // Everything but the page trees, the pages and the catalogues, which are made anew.
    for (id, obj) in objects {
        let kind = obj.as_dict().ok().and_then(|d| d.get(b"Type").ok()).and_then(|t| t.as_name().ok());
        if !matches!(kind, Some(b"Catalog" | b"Pages" | b"Page" | b"Outlines")) {
            out.objects.insert(id, obj);
        }
    }
    let tree_id = (next_id, 0);
    let kids: Vec<Object> = pages.iter().map(|(id, _)| Object::Reference(*id)).collect();
    let count = i64::try_from(pages.len()).unwrap_or(i64::MAX);
    for (id, mut page) in pages {
        page.set("Parent", Object::Reference(tree_id));
        out.objects.insert(id, Object::Dictionary(page));
    }
    let mut tree = Dictionary::new();
    tree.set("Type", Object::Name(b"Pages".to_vec()));
    tree.set("Kids", Object::Array(kids));
    tree.set("Count", Object::Integer(count));
    out.objects.insert(tree_id, Object::Dictionary(tree));
    catalog.set("Pages", Object::Reference(tree_id));
    catalog.remove(b"Outlines");
    out.objects.insert(catalog_id, Object::Dictionary(catalog));
    out.trailer.set("Root", Object::Reference(catalog_id));
    out.max_id = next_id;
    out.renumber_objects();
    out.compress();
    let mut bytes = Vec::new();
    out.save_to(&mut bytes).map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// Copies into `page` what it inherits from the page tree above it and does not set itself.
fn inherit(doc: &Document, page: &mut Dictionary) {
    let mut parent = page.get(b"Parent").and_then(Object::as_reference).ok();
    // A tree is shallow; a loop in a broken file ends here.
    for _ in 0..32 {
        let Some(id) = parent else { return };
        let Ok(node) = doc.get_dictionary(id) else { return };
        for key in INHERITED {
            if !page.has(key) {
                if let Ok(v) = node.get(key) {
                    page.set(key.to_vec(), v.clone());
                }
            }
        }
        parent = node.get(b"Parent").and_then(Object::as_reference).ok();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Align, Doc, Weight};

    fn label(text: &str, pages: usize) -> Vec<u8> {
        let mut doc = Doc::new(text);
        for n in 0..pages {
            doc.page(100.0, 150.0).text(10.0, 20.0, 12.0, Weight::Bold, Align::Left, &format!("{text} {n}"));
        }
        doc.finish()
    }

    #[test]
    fn the_pages_of_every_file_in_the_order_given() {
        let joined = merge(&[label("TH4100000000001", 1), label("TH4100000000002", 2), label("ป้าย", 1)]).unwrap();
        let doc = Document::load_mem(&joined).unwrap();
        assert_eq!(doc.get_pages().len(), 4);
        for (_, id) in doc.get_pages() {
            let page = doc.get_dictionary(id).unwrap();
            let size: Vec<f32> =
                page.get(b"MediaBox").unwrap().as_array().unwrap().iter().map(|v| v.as_float().unwrap()).collect();
            assert_eq!(size.len(), 4);
            assert!((size[2] - 283.46).abs() < 0.5 && (size[3] - 425.2).abs() < 0.5, "A6 kept: {size:?}");
        }
        if let Some(text) = crate::testing::pdftotext(&joined) {
            let at = |s: &str| text.find(s).unwrap_or_else(|| panic!("{s} missing:\n{text}"));
            assert!(at("TH4100000000001 0") < at("TH4100000000002 0"));
            assert!(at("TH4100000000002 1") < at("ป้าย 0"));
        }
        assert_eq!(merge(&[label("A", 1)]).map(|b| Document::load_mem(&b).unwrap().get_pages().len()), Ok(1));
    }

    #[test]
    fn what_is_not_a_pdf_is_named() {
        assert_eq!(merge(&[]), Err("no file to join".into()));
        let err = merge(&[label("A", 1), b"<html>".to_vec()]).unwrap_err();
        assert!(err.starts_with("file 1:"), "{err}");
    }
}
