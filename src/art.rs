//! Card art as a checked input. Each art field of a card (the kind's
//! `print.images`, and its schema's `x-carta-art` fields) names a file
//! relative to the game's folder; `carta check` reads it through the
//! workspace's jail and reports, at the card's field:
//!
//! - a missing file (`art::missing`, a warning: the sheets print a
//!   placeholder in its place, so one missing picture never breaks a build);
//! - a path that leaves the game's folder or the workspace
//!   (`sheets::path-escapes`), or a file the jail refuses (`load::…`);
//! - a file that is not an image carta prints (`art::not-an-image`);
//! - a raster image too small for its box: fewer than [`MIN_DPI`] pixels
//!   per inch once it covers the default face's art box (`art::low-resolution`,
//!   a warning). Sizes are read from the file's header (`imagesize`), never
//!   by decoding it.
//!
//! [`field_at`], a card field's span in its file, places every diagnostic
//! about one field, these and the sheets' alike.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Cursor, Read, Seek};
use std::path::PathBuf;

use serde_json::Value;

use crate::config::{
    ArtMode, CardSize, DEFAULT_BLEED, DEFAULT_SAFE, KindPrint, Manifest, SizePreset,
};
use crate::diag::{Diagnostic, Diagnostics, SourceMap};
use crate::load::{Jail, ReadProblem, Workspace, parse_toml, text_of};
use crate::validate::display::Role;
use crate::validate::{GameSchemas, Located, RawCard, locate};

/// The image types art may have, by extension.
pub const IMAGE_TYPES: [&str; 6] = ["png", "jpg", "jpeg", "webp", "gif", "svg"];

/// Pixels per inch below which a picture prints visibly soft.
pub const MIN_DPI: f64 = 200.0;

/// The share of a default face's height (inside the safe area) its art box
/// takes (the face's CSS: `flex: 0 0 38%`).
pub const ART_BOX_SHARE: f64 = 0.38;

/// What an art file turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Picture {
    /// A raster image of this many pixels across and down.
    Raster(usize, usize),
    /// An SVG drawing: sharp at any size.
    Vector,
}

/// Why an art path gave no picture.
#[derive(Debug)]
pub enum ArtProblem {
    /// An absolute path (or a Windows drive or UNC path).
    Absolute,
    /// A `..` component, or a backslash.
    Escapes,
    /// The workspace's rule for reads refused it (missing, outside the
    /// workspace through a symlink, not a regular file, too large).
    Read(ReadProblem),
    /// Not one of [`IMAGE_TYPES`] by its name, or not what its name says.
    NotAnImage(String),
}

impl ArtProblem {
    /// One sentence about `path`, for the diagnostic.
    pub fn message(&self, path: &str) -> String {
        match self {
            ArtProblem::Absolute => format!("`{path}` is an absolute path"),
            ArtProblem::Escapes => format!("`{path}` leaves the game's folder"),
            ArtProblem::Read(ReadProblem::Missing) => format!("art file `{path}` does not exist"),
            ArtProblem::Read(p) => p.message(path),
            ArtProblem::NotAnImage(why) => format!("`{path}` is not an image carta prints: {why}"),
        }
    }

    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            ArtProblem::Read(ReadProblem::Missing) => "art::missing",
            ArtProblem::Read(ReadProblem::OutsideWorkspace)
            | ArtProblem::Absolute
            | ArtProblem::Escapes => "sheets::path-escapes",
            ArtProblem::Read(p) => p.code(),
            ArtProblem::NotAnImage(_) => "art::not-an-image",
        }
    }

    /// Whether the build goes on without the file (printing a placeholder).
    pub fn is_missing(&self) -> bool {
        matches!(self, ArtProblem::Read(ReadProblem::Missing))
    }
}

/// The extension of `rel`, lower case, when it is one of [`IMAGE_TYPES`].
fn image_type(rel: &str) -> Result<String, ArtProblem> {
    let ext = std::path::Path::new(rel)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    if IMAGE_TYPES.contains(&ext.as_str()) {
        Ok(ext)
    } else {
        Err(ArtProblem::NotAnImage(format!(
            "use {}",
            IMAGE_TYPES.join(", ")
        )))
    }
}

/// Reads art file `rel` (relative to `cards/<game>/`) through the jail:
/// its extension, and its bytes.
///
/// # Errors
/// When the path is absolute, climbs with `..`, is not an image type, or
/// the jail refuses it.
pub fn read(jail: &Jail, game: &str, rel: &str) -> Result<(String, Vec<u8>), ArtProblem> {
    let (ext, full) = art_path(jail, game, rel)?;
    let bytes = jail.read(&full).map_err(ArtProblem::Read)?;
    Ok((ext, bytes))
}

/// What art file `rel` (relative to `cards/<game>/`) holds, told from its
/// header alone: a check reads no more of a picture than its size needs.
///
/// # Errors
/// As [`read`], and when it is not an image of its type.
pub fn measure(jail: &Jail, game: &str, rel: &str) -> Result<Picture, ArtProblem> {
    let (ext, full) = art_path(jail, game, rel)?;
    let file = jail.open(&full).map_err(ArtProblem::Read)?;
    picture_in(&ext, BufReader::new(file))
}

/// The extension of art file `rel` and its path in the workspace.
fn art_path(jail: &Jail, game: &str, rel: &str) -> Result<(String, PathBuf), ArtProblem> {
    if Jail::is_absolute(rel) {
        return Err(ArtProblem::Absolute);
    }
    if !Jail::is_plain_relative(rel) {
        return Err(ArtProblem::Escapes);
    }
    let ext = image_type(rel)?;
    Ok((ext, jail.root().join("cards").join(game).join(rel)))
}

/// What the bytes of an art file of type `ext` hold.
///
/// # Errors
/// When they are not an image of that type.
pub fn picture(ext: &str, bytes: &[u8]) -> Result<Picture, ArtProblem> {
    picture_in(ext, Cursor::new(bytes))
}

/// [`picture`] from a reader, of which it reads only what it needs: an
/// SVG's first 64 KiB, a raster image's header.
fn picture_in<R: BufRead + Seek>(ext: &str, mut reader: R) -> Result<Picture, ArtProblem> {
    if ext == "svg" {
        let mut head = Vec::new();
        // An unreadable file is no image either.
        let _ = (&mut reader).take(64 * 1024).read_to_end(&mut head);
        return if String::from_utf8_lossy(&head).contains("<svg") {
            Ok(Picture::Vector)
        } else {
            Err(ArtProblem::NotAnImage("it has no `<svg` element".into()))
        };
    }
    match imagesize::reader_size(reader) {
        Ok(size) if size.width > 0 && size.height > 0 => {
            Ok(Picture::Raster(size.width, size.height))
        }
        _ => Err(ArtProblem::NotAnImage(format!(
            "its content is not a readable {} image",
            ext.to_ascii_uppercase()
        ))),
    }
}

/// The fields of `kind` that hold art: its `print.images`, then the
/// `x-carta-art` fields of its schema.
pub fn art_fields(manifest: &Manifest, schemas: &GameSchemas, kind: &str) -> Vec<String> {
    let mut fields: Vec<String> = kind_print(manifest, kind)
        .map(|k| k.images.clone())
        .unwrap_or_default();
    let marked = schemas.kind(kind).into_iter().flat_map(|d| {
        schemas
            .face(d)
            .iter()
            .filter(|f| f.role == Role::Art)
            .map(|f| f.key.clone())
    });
    for f in marked {
        if !fields.contains(&f) {
            fields.push(f);
        }
    }
    fields
}

fn kind_print<'m>(manifest: &'m Manifest, kind: &str) -> Option<&'m KindPrint> {
    manifest.kinds.get(kind).and_then(|k| k.print.as_ref())
}

/// The box a kind's art fills on the default face, in mm (width, height):
/// the card's width inside its safe area by [`ART_BOX_SHARE`] of its
/// height, or the whole card, bleed included, for full-bleed art.
pub fn art_box(manifest: &Manifest, kind: &str) -> (f64, f64) {
    let print = manifest.print.clone().unwrap_or_default();
    let k = kind_print(manifest, kind);
    let (w, h) = k
        .and_then(|k| k.size)
        .or(print.size)
        .unwrap_or(CardSize::Preset(SizePreset::Poker))
        .mm();
    if k.is_some_and(|k| k.art == Some(ArtMode::FullBleed)) {
        let bleed = k
            .and_then(|k| k.bleed)
            .or(print.bleed)
            .unwrap_or(DEFAULT_BLEED);
        (w + 2.0 * bleed, h + 2.0 * bleed)
    } else {
        let safe = k
            .and_then(|k| k.safe)
            .or(print.safe)
            .unwrap_or(DEFAULT_SAFE);
        (w - 2.0 * safe, (h - 2.0 * safe) * ART_BOX_SHARE)
    }
}

/// The pixels per inch of a `w` × `h` picture cropped to cover a box of
/// `bw` × `bh` mm.
pub fn effective_dpi((w, h): (usize, usize), (bw, bh): (f64, f64)) -> f64 {
    #[allow(clippy::cast_precision_loss, reason = "image sizes are far below 2^52")]
    let (w, h) = (w as f64, h as f64);
    (w * 25.4 / bw).min(h * 25.4 / bh)
}

/// Checks every art field of every card of `cards`, reporting at the field.
pub fn check<'c>(
    ws: &Workspace,
    manifest: &Manifest,
    schemas: &GameSchemas,
    cards: impl Iterator<Item = &'c RawCard>,
    diags: &mut Diagnostics,
) {
    let mut fields_of = std::collections::BTreeMap::new();
    // A picture many cards show is measured once.
    let mut measured = HashMap::new();
    for card in cards {
        let fields = fields_of
            .entry(card.kind.as_str())
            .or_insert_with(|| art_fields(manifest, schemas, &card.kind));
        for field in fields.iter() {
            let Some(value) = card.fields.get(field) else {
                continue;
            };
            if let Some(d) = check_one(ws, manifest, &mut measured, (card, field), value) {
                diags.push(d);
            }
        }
    }
}

/// Whether art file `rel` of a card of kind `kind` is one [`check`] finds
/// nothing to say of: an image that is there and, drawn in pixels, sharp
/// enough for the kind's art box.
pub fn sound(jail: &Jail, manifest: &Manifest, kind: &str, rel: &str) -> bool {
    match measure(jail, &manifest.id, rel) {
        Ok(Picture::Vector) => true,
        Ok(Picture::Raster(w, h)) => !soft((w, h), art_box(manifest, kind)),
        Err(_) => false,
    }
}

/// Whether a picture of `size` pixels prints soft in an art box of
/// `size_mm`: below [`MIN_DPI`].
fn soft(size: (usize, usize), size_mm: (f64, f64)) -> bool {
    effective_dpi(size, size_mm) < MIN_DPI
}

/// The problem with one art field's value, if any.
fn check_one(
    ws: &Workspace,
    manifest: &Manifest,
    measured: &mut HashMap<String, Result<Picture, ArtProblem>>,
    (card, field): (&RawCard, &str),
    value: &Value,
) -> Option<Diagnostic> {
    let at = || field_at(&ws.sources, ws.jail(), card, &format!("/{field}")).value;
    // A value of another type is the schema's to report (and the sheets').
    let rel = value.as_str()?;
    let found = measured
        .entry(rel.to_owned())
        .or_insert_with(|| measure(ws.jail(), &manifest.id, rel));
    match found {
        Ok(Picture::Vector) => None,
        &mut Ok(Picture::Raster(w, h)) => {
            let (bw, bh) = art_box(manifest, &card.kind);
            let dpi = effective_dpi((w, h), (bw, bh));
            soft((w, h), (bw, bh)).then(|| {
                Diagnostic::warning(
                    "art::low-resolution",
                    format!(
                        "`{rel}` is {w} × {h} px: {dpi:.0} dpi across its {bw:.1} × {bh:.1} mm art box, below {MIN_DPI:.0} dpi"
                    ),
                )
                .at(card.file, at(), "this picture")
                .with_help(format!(
                    "it prints soft; for 300 dpi use at least {:.0} × {:.0} px",
                    (bw / 25.4 * 300.0).ceil(),
                    (bh / 25.4 * 300.0).ceil()
                ))
            })
        }
        Err(problem) => {
            let message = problem.message(rel);
            let d = if problem.is_missing() {
                Diagnostic::warning(problem.code(), message).with_help(
                    "the sheets print a placeholder in its place; art paths are relative to the game's folder",
                )
            } else {
                Diagnostic::error(problem.code(), message).with_help(format!(
                    "art paths are relative to `cards/{}/` and stay inside the workspace",
                    manifest.id
                ))
            };
            Some(d.at(card.file, at(), "this picture"))
        }
    }
}

/// The span of `pointer` (a JSON pointer into the card's fields, such as
/// `/levels/0/ability/text`) in `card`'s file, and the field as a person
/// reads it (`levels[0].ability.text`); the card's header when the card
/// cannot be found again. Cards keep only their id and header spans, so
/// this parses the card's file again (only when there is something to
/// report); a file whose text was not kept is read again through `jail`.
pub fn field_at(sources: &SourceMap, jail: &Jail, card: &RawCard, pointer: &str) -> Located {
    // A file changed since it was read gives no span: the header's.
    let text = text_of(jail, sources.get(card.file)).unwrap_or(Cow::Borrowed(""));
    field_in(&text, card, pointer)
}

/// [`field_at`] in `text`, the card's file as read.
pub fn field_in(text: &str, card: &RawCard, pointer: &str) -> Located {
    let (doc, _) = parse_toml(card.file, text, &mut Vec::new());
    let cards = doc
        .get_ref()
        .iter()
        .find(|(k, _)| k.get_ref() == "card")
        .and_then(|(_, v)| v.get_ref().as_array());
    let table = cards
        .into_iter()
        .flatten()
        .filter_map(|c| c.get_ref().as_table().map(|t| (t, c.span())))
        .find(|(t, _)| {
            t.iter()
                .any(|(k, v)| k.get_ref() == "id" && v.span() == card.id_span)
        });
    match table {
        Some((t, span)) => locate(t, span, pointer),
        None => Located {
            value: card.header.clone(),
            key: None,
            display: pointer.trim_start_matches('/').replace('/', "."),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_are_told_by_their_bytes() {
        let png = {
            let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
            b.extend(640u32.to_be_bytes());
            b.extend(480u32.to_be_bytes());
            b.extend([8, 6, 0, 0, 0]);
            b
        };
        assert_eq!(picture("png", &png).unwrap(), Picture::Raster(640, 480));
        assert_eq!(
            picture("svg", b"<?xml?><svg viewBox='0 0 1 1'/>").unwrap(),
            Picture::Vector
        );
        for (ext, bytes) in [("png", &b"not a png"[..]), ("svg", b"hello"), ("jpg", b"")] {
            assert_eq!(
                picture(ext, bytes).unwrap_err().code(),
                "art::not-an-image",
                "{ext}"
            );
        }
        assert_eq!(image_type("a.txt").unwrap_err().code(), "art::not-an-image");
        assert_eq!(image_type("A.PNG").unwrap(), "png");
    }

    #[test]
    fn resolution_is_what_covers_the_box() {
        // 57.5 mm = 2.264 in: 453 px across is 200 dpi.
        let dpi = effective_dpi((453, 10_000), (57.5, 30.0));
        assert!((dpi - 200.1).abs() < 0.1, "{dpi}");
        // The tighter axis decides.
        let dpi = effective_dpi((10_000, 236), (57.5, 30.0));
        assert!((dpi - 199.8).abs() < 0.1, "{dpi}");
    }
}
