//! A print-ready `PDF/X-1a` from Chromium's RGB PDF, through Ghostscript's
//! `pdfwrite`: colours converted to CMYK (Ghostscript's default CMYK
//! profile), transparency flattened (PDF 1.3), fonts kept embedded, an
//! output intent for the registered SWOP condition (`CGATS TR 001`,
//! which `DriveThruCards`' own instructions name), and every page's `TrimBox`
//! and `BleedBox` set — Chromium writes only a `MediaBox`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The environment variable that names the Ghostscript binary.
pub const GHOSTSCRIPT_ENV: &str = "CARTA_GHOSTSCRIPT";

/// Why Ghostscript could not make the `PDF/X`.
#[derive(Debug, thiserror::Error)]
pub enum GhostscriptError {
    /// No Ghostscript to run.
    #[error(
        "no Ghostscript to make the CMYK PDF/X with: install Debian's `ghostscript` package (`apt-get install ghostscript`), or set {GHOSTSCRIPT_ENV} to a `gs` binary"
    )]
    Missing,
    /// It ran and failed.
    #[error("Ghostscript failed on {about}: {message}")]
    Failed {
        /// What it was converting.
        about: String,
        /// Its exit status and the end of its output.
        message: String,
    },
}

/// A Ghostscript binary.
#[derive(Debug, Clone)]
pub struct Ghostscript {
    binary: PathBuf,
}

/// A page's boxes in PDF points, from the lower-left corner: the bleed
/// box is the whole page, the trim box `bleed` inside it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Boxes {
    /// The page's width and height.
    pub page: (f64, f64),
    /// The bleed on the left and right, and on the top and bottom.
    pub bleed: (f64, f64),
}

/// Points per mm.
pub const PT_PER_MM: f64 = 72.0 / 25.4;

impl Ghostscript {
    /// `$CARTA_GHOSTSCRIPT`, or `gs` on the `PATH`.
    ///
    /// # Errors
    /// [`GhostscriptError::Missing`] when there is none.
    pub fn find() -> Result<Ghostscript, GhostscriptError> {
        if let Some(p) = std::env::var_os(GHOSTSCRIPT_ENV) {
            let binary = PathBuf::from(p);
            return if binary.is_file() {
                Ok(Ghostscript { binary })
            } else {
                Err(GhostscriptError::Missing)
            };
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path)
            .map(|dir| dir.join("gs"))
            .find(|b| b.is_file())
            .map(|binary| Ghostscript { binary })
            .ok_or(GhostscriptError::Missing)
    }

    /// Converts `input` (of `pages` pages, every one with `boxes`) into the
    /// `PDF/X-1a` `output`, titled `title`; the two PostScript prefixes are
    /// written into `scratch`.
    ///
    /// # Errors
    /// When the prefixes cannot be written or Ghostscript fails.
    pub fn pdfx(
        &self,
        (input, output): (&Path, &Path),
        (pages, boxes): (usize, Boxes),
        title: &str,
        scratch: &Path,
    ) -> Result<(), GhostscriptError> {
        let failed = |message: String| GhostscriptError::Failed {
            about: title.to_owned(),
            message,
        };
        let def = scratch.join("pdfx-def.ps");
        let page_boxes = scratch.join("pdfx-boxes.ps");
        std::fs::write(&def, definitions(title)).map_err(|e| failed(e.to_string()))?;
        std::fs::write(&page_boxes, boxes_prefix(pages, boxes))
            .map_err(|e| failed(e.to_string()))?;
        let out = self
            .command()
            .args([
                "-dPDFX",
                "-sDEVICE=pdfwrite",
                "-sColorConversionStrategy=CMYK",
                "-sProcessColorModel=DeviceCMYK",
                "-dCompatibilityLevel=1.3",
                "-dEmbedAllFonts=true",
            ])
            .arg(format!("-sOutputFile={}", output.display()))
            .arg(&def)
            .arg(&page_boxes)
            .arg(input)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| failed(format!("cannot start `{}`: {e}", self.binary.display())))?;
        if !out.status.success() || !output.is_file() {
            let text = String::from_utf8_lossy(&out.stderr).into_owned()
                + &String::from_utf8_lossy(&out.stdout);
            let tail: String = text.lines().rev().take(8).collect::<Vec<_>>().join(" | ");
            return Err(failed(format!("{}: {tail}", out.status)));
        }
        Ok(())
    }
}

impl Ghostscript {
    /// Ghostscript, run quietly on every page without prompting, in its
    /// safe mode.
    fn command(&self) -> Command {
        let mut command = Command::new(&self.binary);
        command.args(["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER"]);
        command
    }

    /// Renders every page of the CMYK PDF `pdf` at `dpi` into `scratch`
    /// as an 8-bit CMYK PAM image (`ink-0001.pam`, …), for measuring its
    /// ink; returns their paths in page order.
    ///
    /// # Errors
    /// When Ghostscript fails or its output cannot be listed.
    pub fn cmyk_pages(
        &self,
        pdf: &Path,
        dpi: u32,
        scratch: &Path,
    ) -> Result<Vec<PathBuf>, GhostscriptError> {
        let failed = |message: String| GhostscriptError::Failed {
            about: format!("the ink of {}", pdf.display()),
            message,
        };
        let dir = scratch.join("ink");
        std::fs::create_dir_all(&dir).map_err(|e| failed(e.to_string()))?;
        let out = self
            .command()
            .args(["-sDEVICE=pamcmyk32", &format!("-r{dpi}")])
            .arg(format!(
                "-sOutputFile={}",
                dir.join("ink-%04d.pam").display()
            ))
            .arg(pdf)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| failed(format!("cannot start `{}`: {e}", self.binary.display())))?;
        if !out.status.success() {
            let text = String::from_utf8_lossy(&out.stderr).into_owned();
            let tail: String = text.lines().rev().take(8).collect::<Vec<_>>().join(" | ");
            return Err(failed(format!("{}: {tail}", out.status)));
        }
        let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(|e| failed(e.to_string()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "pam"))
            .collect();
        pages.sort();
        Ok(pages)
    }
}

/// A PDF text string as PostScript writes it: `(…)` with `\`, `(` and
/// `)` escaped when it is printable ASCII, else UTF-16BE with its byte
/// order mark as a hex string, as PDF reads text outside `PDFDocEncoding`.
fn ps_string(text: &str) -> String {
    if text.bytes().all(|b| (0x20..=0x7e).contains(&b)) {
        let mut out = String::from("(");
        for c in text.chars() {
            if matches!(c, '\\' | '(' | ')') {
                out.push('\\');
            }
            out.push(c);
        }
        out.push(')');
        return out;
    }
    let mut out = String::from("<FEFF");
    for unit in text.encode_utf16() {
        out.push_str(&format!("{unit:04X}"));
    }
    out.push('>');
    out
}

/// The document's `PDF/X` declarations: its version in the Info
/// dictionary, and the output intent.
fn definitions(title: &str) -> String {
    format!(
        "%!\n\
         [ /GTS_PDFXVersion (PDF/X-1a:2003)\n  /Title {}\n  /Trapped /False\n/DOCINFO pdfmark\n\
         [/_objdef {{OutputIntent_PDFX}} /type /dict /OBJ pdfmark\n\
         [{{OutputIntent_PDFX}} <<\n  /Type /OutputIntent\n  /S /GTS_PDFX\n  \
         /OutputCondition (US Web Coated SWOP)\n  /OutputConditionIdentifier (CGATS TR 001)\n  \
         /RegistryName (http://www.color.org)\n  /Info (SWOP, the registered characterization CGATS TR 001)\n\
         >> /PUT pdfmark\n\
         [{{Catalog}} <</OutputIntents [ {{OutputIntent_PDFX}} ]>> /PUT pdfmark\n",
        ps_string(title)
    )
}

/// Sets every page's `TrimBox` and `BleedBox` as Ghostscript begins it. The
/// guard on the page count keeps the hook from marking the page
/// `pdfwrite` opens after the last one, which is never drawn.
fn boxes_prefix(pages: usize, b: Boxes) -> String {
    let n = |v: f64| format!("{:.2}", v + 0.0);
    let (w, h) = b.page;
    let (bx, by) = b.bleed;
    format!(
        "%!\n<< /BeginPage {{ {pages} lt {{ [/TrimBox [{} {} {} {}] /BleedBox [0 0 {} {}] /PAGE pdfmark }} if }} >> setpagedevice\n",
        n(bx),
        n(by),
        n(w - bx),
        n(h - by),
        n(w),
        n(h)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_postscript_strings_whatever_they_hold() {
        assert_eq!(ps_string("Orc (deck)"), "(Orc \\(deck\\))");
        assert_eq!(ps_string("a\\b"), "(a\\\\b)");
        assert_eq!(
            ps_string("Intrépidos"),
            "<FEFF0049006E0074007200E9007000690064006F0073>"
        );
        assert!(definitions("x) /Evil (y").contains("/Title (x\\) /Evil \\(y)"));
        let hex = ps_string("é) /Evil (");
        assert!(
            hex.starts_with("<FEFF00E90029") && !hex.contains(')'),
            "{hex}"
        );
    }

    #[test]
    fn the_boxes_inset_the_trim_by_the_bleed() {
        let text = boxes_prefix(
            6,
            Boxes {
                page: (198.0, 270.0),
                bleed: (9.0, 9.0),
            },
        );
        assert!(text.contains("6 lt"), "{text}");
        assert!(text.contains("/TrimBox [9.00 9.00 189.00 261.00] /BleedBox [0 0 198.00 270.00]"));
    }
}
