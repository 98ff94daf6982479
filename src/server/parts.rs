//! A game's built sheets (`index.html`) cut into the parts the preview
//! replaces one by one: each page of the document (`<section
//! class="carta-sheet …">`, the cover's pages included) is a part named by
//! the hash of its HTML, and the rest — the head, the body's tag, the
//! text-fitting script after the last page — is the frame, named by its
//! hash too. After a rebuild the page asks for the parts' names
//! (`.carta-parts`), fetches only the parts whose names it does not show,
//! and replaces those alone; a new frame reloads it.

use std::ops::Range;

use std::hash::BuildHasher;

/// The name of a part (or the frame): 128 bits of two fixed-seed foldhash
/// hashes of its bytes, in hex. Only this server compares names (a page
/// against the parts it shows), so no cryptographic hash is needed, and a
/// fast one keeps naming every page of a large game's sheets, on every
/// round, cheap.
fn name_of(bytes: &[u8]) -> String {
    let word = |seed: u64| foldhash::fast::FixedState::with_seed(seed).hash_one(bytes);
    format!("{:016x}{:016x}", word(1), word(2))
}

/// How a page of the sheets starts, at the start of a line (as the sheets
/// emitter writes it).
const PAGE_START: &str = "\n<section class=\"carta-sheet ";
/// How a page of the sheets ends.
const PAGE_END: &str = "</section>\n";
/// The attribute that names a part in the served page.
pub(super) const MARK: &str = "data-carta-part";

/// One game's sheets, cut into their frame and parts.
#[derive(Debug)]
pub(super) struct Sheets {
    text: String,
    /// The head and the body's opening tag.
    head: Range<usize>,
    /// Each page, by its name.
    parts: Vec<(String, Range<usize>)>,
    /// What follows the last page inside the body (the fit script).
    tail: Range<usize>,
    /// The name of the frame: the head, and what is in the body but no page.
    frame: String,
}

impl Sheets {
    /// `text` cut into its parts; a document without `<body>` is all frame.
    pub(super) fn new(text: String) -> Self {
        let body_open = text
            .find("<body")
            .and_then(|b| text[b..].find('>').map(|e| b + e + 1));
        let body_close = text.rfind("</body>");
        let (Some(open), Some(close)) = (body_open, body_close.filter(|&c| Some(c) >= body_open))
        else {
            let frame = name_of(text.as_bytes());
            let len = text.len();
            return Sheets {
                text,
                head: 0..len,
                parts: Vec::new(),
                tail: len..len,
                frame,
            };
        };
        let starts: Vec<usize> = text[open..close]
            .match_indices(PAGE_START)
            .map(|(at, _)| open + at + 1)
            .collect();
        let mut parts = Vec::with_capacity(starts.len());
        let mut end = open;
        for (i, &start) in starts.iter().enumerate() {
            let next = starts.get(i + 1).copied().unwrap_or(close);
            // The last page ends at its closing tag; what follows is frame.
            end = if i + 1 == starts.len() {
                text[start..next]
                    .rfind(PAGE_END)
                    .map_or(next, |e| start + e + PAGE_END.len())
            } else {
                next
            };
            let hash = name_of(&text.as_bytes()[start..end]);
            parts.push((hash, start..end));
        }
        let first = starts.first().copied().unwrap_or(open);
        let mut framing = Vec::new();
        framing.extend_from_slice(&text.as_bytes()[..first]);
        framing.extend_from_slice(&text.as_bytes()[end..]);
        Sheets {
            frame: name_of(&framing),
            head: 0..first,
            parts,
            tail: end..close,
            text,
        }
    }

    /// The length of the document, in bytes.
    pub(super) fn len(&self) -> usize {
        self.text.len()
    }

    /// The name of the frame.
    pub(super) fn frame(&self) -> &str {
        &self.frame
    }

    /// The parts' names, in document order.
    pub(super) fn names(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().map(|(h, _)| h.as_str())
    }

    /// The head and the body's opening tag (with what precedes the first page).
    pub(super) fn head(&self) -> &str {
        &self.text[self.head.clone()]
    }

    /// What follows the last page in the body.
    pub(super) fn tail(&self) -> &str {
        &self.text[self.tail.clone()]
    }

    /// Writes every part, each marked with its name, into `out`.
    pub(super) fn write_parts(&self, out: &mut String) {
        for (hash, range) in &self.parts {
            marked(&self.text[range.clone()], hash, out);
        }
    }

    /// The part named `hash`, marked with its name.
    pub(super) fn part(&self, hash: &str) -> Option<String> {
        let (hash, range) = self.parts.iter().find(|(h, _)| h == hash)?;
        let mut out = String::with_capacity(range.len() + 40);
        marked(&self.text[range.clone()], hash, &mut out);
        Some(out)
    }
}

/// `part` with the attribute naming it in its opening tag.
fn marked(part: &str, hash: &str, out: &mut String) {
    // Every part starts with `<section`, as `PAGE_START` found it.
    let (tag, rest) = part.split_at("<section".len());
    out.push_str(tag);
    out.push_str(&format!(" {MARK}=\"{hash}\""));
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(pages: &[&str]) -> String {
        let mut s = String::from(
            "<!DOCTYPE html>\n<html><head><title>t</title></head>\n<body class=\"b\">\n",
        );
        for p in pages {
            s.push_str(&format!(
                "<section class=\"carta-sheet carta-faces\" data-page=\"1\">{p}</section>\n"
            ));
        }
        s.push_str("<script>fit()</script>\n</body>\n</html>\n");
        s
    }

    #[test]
    fn each_page_is_a_part_named_by_its_content_and_the_rest_is_the_frame() {
        let before = Sheets::new(doc(&["one", "two", "three"]));
        let after = Sheets::new(doc(&["one", "TWO", "three"]));
        let names = |s: &Sheets| s.names().map(str::to_owned).collect::<Vec<_>>();
        let (a, b) = (names(&before), names(&after));
        assert_eq!(a.len(), 3);
        assert_eq!(
            (a[0] == b[0], a[1] == b[1], a[2] == b[2]),
            (true, false, true)
        );
        assert_eq!(before.frame(), after.frame());
        assert_eq!(before.tail(), "<script>fit()</script>\n");
        assert!(
            before.head().ends_with("<body class=\"b\">\n"),
            "{}",
            before.head()
        );
        let part = after.part(&b[1]).unwrap();
        assert_eq!(
            part,
            format!(
                "<section {MARK}=\"{}\" class=\"carta-sheet carta-faces\" data-page=\"1\">TWO</section>\n",
                b[1]
            )
        );
        assert!(after.part(&a[1]).is_none());
        // The parts and the frame put back together are the document, marked.
        let mut whole = String::from(after.head());
        after.write_parts(&mut whole);
        whole.push_str(after.tail());
        whole.push_str("</body>\n</html>\n");
        let unmarked = b
            .iter()
            .fold(whole, |w, h| w.replace(&format!(" {MARK}=\"{h}\""), ""));
        assert_eq!(unmarked, doc(&["one", "TWO", "three"]));
    }

    #[test]
    fn a_new_head_or_script_is_a_new_frame_and_a_document_without_body_is_all_frame() {
        let base = Sheets::new(doc(&["one"]));
        let styled = Sheets::new(doc(&["one"]).replace("<title>t</title>", "<title>u</title>"));
        let scripted = Sheets::new(doc(&["one"]).replace("fit()", "fit(1)"));
        assert_ne!(base.frame(), styled.frame());
        assert_ne!(base.frame(), scripted.frame());
        let bare = Sheets::new("<p>no body</p>".to_owned());
        assert_eq!(bare.names().count(), 0);
        assert_eq!(bare.head(), "<p>no body</p>");
    }
}
