//! The printed sheets of a selection as one HTML document: cards grouped
//! by card box onto grids, cut into sheets, the cover and its table, each
//! sheet's faces page and (duplex) mirrored backs page — streamed into
//! `index.html` a batch of sheets at a time.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::ops::Range;

use super::assets::ImageCache;
use super::cutter::{self, Cut};
use super::geometry::{self, CardBox, Flip, Grid, PageBox};
use super::page::{self, Cover, GridText, Guides, Heads, Placed, SheetEntry, Side};
use super::renderer::{self, Failures, Renderer};
use super::reuse::{self, FaceCache, FacesAt};
use super::{
    BASE_CSS, Inputs, OutputFile, Print, SHEET_BLEED, Selection, SheetOptions, Subject,
    error_count, image_files, sheet_order,
};
use crate::config::{CutLines, Cutter, Duplex, Orientation, PrintSettings};
use crate::diag::{Diagnostic, SourceMap};
use crate::game::Game;
use crate::load::Jail;

/// The settings of one build, resolved from the manifest and the options.
#[derive(Debug, Clone, Copy)]
pub(super) struct Build {
    pub(super) page: PageBox,
    cut_lines: CutLines,
    pub(super) duplex: Duplex,
    pub(super) ink_saver: bool,
    cutter: Option<Cutter>,
    /// How far the backs move, as seen from the front (mm, right and down).
    pub(super) back_offset: (f64, f64),
    back_guides: bool,
}

impl Build {
    /// How the grids' pages are marked and their backs placed.
    fn guides(&self) -> Guides {
        Guides {
            lines: self.cut_lines,
            cutter: self.cutter,
            back_offset: self.back_offset,
            on_backs: self.back_guides,
        }
    }
}

/// The settings of a build of `print` with options `o`.
pub(super) fn resolve_build(print: &PrintSettings, o: SheetOptions) -> Build {
    let mut page = PageBox {
        paper: o.paper.unwrap_or(print.paper),
        orientation: o.orientation.unwrap_or(print.orientation),
        margin: print.margin,
        gutter: print.gutter,
        keep: None,
    };
    page.keep = o.cutter.map(|c| c.keep(page.size()));
    Build {
        page,
        cut_lines: o.cut_lines.unwrap_or_default(),
        duplex: o.duplex.unwrap_or(print.duplex),
        ink_saver: o.ink_saver.unwrap_or(print.ink_saver),
        cutter: o.cutter,
        back_offset: o.back_offset.unwrap_or((0.0, 0.0)),
        back_guides: !o.bare_backs,
    }
}
/// How many sheets are rendered and written at a time: enough cards for
/// every core, few enough that a build holds a handful of pages.
const SHEETS_PER_BATCH: usize = 16;

/// One printed sheet: its grid and its slots (an index into the prints, and
/// which copy).
struct Sheet {
    grid: usize,
    slots: Vec<(usize, u32)>,
}

/// Renders the sheets of `game`, streaming `index.html` into `index` a few
/// sheets at a time (faces rendered on every core), so that memory does
/// not grow with the number of cards. Reports every problem into `diags`
/// and returns the art files to write beside it — only when there was no
/// error; then what was written to `index` is incomplete and must be
/// thrown away.
///
/// With `faces`, each card's face and back come from the faces the last
/// build with the same cache rendered, when nothing they were rendered
/// from changed (see [`FacesAt`]); the output is the same.
///
/// # Errors
/// When `index` cannot be written.
#[allow(clippy::too_many_arguments)] // the emitter's inputs, each needed
pub fn render(
    jail: &Jail,
    sources: &SourceMap,
    game: &Game,
    inputs: &Inputs,
    selection: &Selection<'_>,
    (options, faces): (&SheetOptions, Option<FacesAt<'_>>),
    index: &mut dyn Write,
    diags: &mut Vec<Diagnostic>,
) -> io::Result<Option<Vec<OutputFile>>> {
    let errors_before = error_count(diags);
    let m = &game.manifest.manifest;
    let build = resolve_build(
        m.print.as_ref().unwrap_or(&PrintSettings::default()),
        *options,
    );
    let look = (build.ink_saver, SHEET_BLEED);
    let renderer = Renderer::new(jail, sources, game, inputs, look, diags);
    let prints = sheet_order(game, selection);
    let mut images = ImageCache::default();
    let arts = renderer.prepare_all(jail, sources, &prints, &mut images, diags);

    if let Some(cutter) = build.cutter.filter(|c| !c.takes(build.page.paper)) {
        diags.push(cutter_paper_error(game, cutter, build.page));
        return Ok(None);
    }
    let (groups, radii) = group(&renderer, &prints);
    let mut grids = Vec::new();
    for (b, range) in &groups {
        match Grid::fit(build.page, *b) {
            Some(g) => grids.push(g),
            None => diags.push(layout_error(
                game,
                &prints[range.start].card.kind,
                *b,
                build.page,
            )),
        }
    }
    if grids.len() < groups.len() {
        return Ok(None);
    }
    let sheets = paginate(&prints, &groups, &grids);
    let doc = Document {
        game,
        selection,
        build: &build,
        prints: &prints,
        grids: &grids,
    };
    let mut cache = faces.and_then(|at| {
        let key = reuse::game_key(game, inputs, sources, renderer.icons(), build.ink_saver);
        let duplex = Flip::of(build.duplex, build.page.orientation).is_some();
        FaceCache::open(at, key, (reuse::key_of_debug(&build), duplex))
    });
    let failures = doc.write(&renderer, (&arts, &mut cache), &sheets, index)?;
    failures.report(&renderer, sources, diags);
    if error_count(diags) > errors_before {
        // The old index stays: it describes the output that stays.
        return Ok(None);
    }
    if let Some(cache) = cache {
        cache.finish();
    }
    let mut files = image_files(images);
    if let Some(cutter) = build.cutter {
        files.extend(cut_files(cutter, &grids, &radii));
    }
    Ok(Some(files))
}

/// The name of grid `g`'s cut file, without its extension: `cut` for
/// the first, `cut-2` for the second, ….
fn cut_stem(g: usize) -> String {
    if g == 0 {
        "cut".to_owned()
    } else {
        format!("cut-{}", g + 1)
    }
}

/// The cut files of `grids` (each with its cards' corner radius in
/// `radii`): `cut.svg` for the first grid, `cut-2.svg` for the second, …,
/// and a DXF of each when the machine's software wants one. Every sheet of
/// a grid places its cards alike, so one file cuts them all.
fn cut_files(cutter: Cutter, grids: &[Grid], radii: &[f64]) -> Vec<OutputFile> {
    let mut files = Vec::new();
    for (g, (grid, &radius)) in grids.iter().zip(radii).enumerate() {
        let cuts: Vec<Cut> = (0..grid.per_page())
            .map(|i| Cut {
                trim: grid.trim(i),
                radius,
            })
            .collect();
        let stem = cut_stem(g);
        let page = grid.page.size();
        files.push(OutputFile {
            path: format!("{stem}.svg"),
            bytes: cutter::cut_svg(page, &cuts).into_bytes(),
        });
        if cutter.wants_dxf() {
            files.push(OutputFile {
                path: format!("{stem}.dxf"),
                bytes: cutter::cut_dxf(page, &cuts).into_bytes(),
            });
        }
    }
    files
}

/// The runs of `prints` that share sheets: consecutive kinds with the
/// same card box and corners; each run's box and corner radius.
fn group(
    renderer: &Renderer<'_>,
    prints: &[Print<'_>],
) -> (Vec<(CardBox, Range<usize>)>, Vec<f64>) {
    let mut groups: Vec<(CardBox, Range<usize>)> = Vec::new();
    let mut radii: Vec<f64> = Vec::new();
    for (i, p) in prints.iter().enumerate() {
        let b = renderer.card_box(&p.card.kind);
        let r = renderer.corner_radius(&p.card.kind);
        match (groups.last_mut(), radii.last()) {
            (Some((gb, range)), Some(gr)) if *gb == b && gr.to_bits() == r.to_bits() => {
                range.end = i + 1;
            }
            _ => {
                groups.push((b, i..i + 1));
                radii.push(r);
            }
        }
    }
    (groups, radii)
}

/// Cuts each group's copies into sheets of its grid.
fn paginate(
    prints: &[Print<'_>],
    groups: &[(CardBox, Range<usize>)],
    grids: &[Grid],
) -> Vec<Sheet> {
    let mut sheets = Vec::new();
    for (g, ((_, range), grid)) in groups.iter().zip(grids).enumerate() {
        let copies: Vec<(usize, u32)> = range
            .clone()
            .flat_map(|i| (1..=prints[i].count).map(move |c| (i, c)))
            .collect();
        for chunk in copies.chunks(grid.per_page()) {
            sheets.push(Sheet {
                grid: g,
                slots: chunk.to_vec(),
            });
        }
    }
    sheets
}

/// What every sheet of a document is written with.
struct SheetOut<'t> {
    /// Each grid's text.
    texts: &'t [GridText],
    /// Each grid's key, for the faces cache.
    grid_keys: &'t [reuse::Key],
    /// Whether each sheet has a backs page.
    duplex: bool,
    /// The first print of the batch being written.
    first: usize,
}

/// One sheets document being written: the selection and how it is laid out.
struct Document<'d, 'a> {
    game: &'d Game,
    selection: &'d Selection<'a>,
    build: &'d Build,
    prints: &'d [Print<'a>],
    grids: &'d [Grid],
}

impl<'a> Document<'_, 'a> {
    /// Writes the document: its head, the cover, the sheets in batches
    /// (each batch's cards rendered on every core), its tail. Returns the
    /// template failures met.
    fn write(
        &self,
        renderer: &Renderer<'_>,
        (arts, cache): (&[BTreeMap<String, String>], &mut Option<FaceCache>),
        sheets: &[Sheet],
        out: &mut dyn Write,
    ) -> io::Result<Failures<'a>> {
        let m = &self.game.manifest.manifest;
        let flip = Flip::of(self.build.duplex, self.build.page.orientation);
        let (pw, ph) = self.build.page.size();
        let mut buf = String::new();
        let body = body_attributes(self.build, super::min_text_size(self.game));
        let title = caption(self.game, "title", &[("game", &m.name)]);
        let css = [BASE_CSS, renderer.css()];
        page::document_head(&mut buf, &title, &m.language, (pw, ph), &body, &css);
        let cover = self.cover(sheets, flip, ph);
        cover.write(&mut buf, ph);
        out.write_all(buf.as_bytes())?;
        let texts = self.grid_texts(flip);
        let grid_keys: Vec<reuse::Key> = self.grids.iter().map(reuse::key_of_debug).collect();
        let mut failures = Failures::default();
        // Every print's key in one pass on every core: a pass per batch
        // cost more in waking the cores than it saved.
        let keys = cache.as_mut().map_or_else(Vec::new, |cache| {
            cache.wrote(buf.len());
            cache.keys(self.prints, &arts.iter().collect::<Vec<_>>())
        });
        for (b, batch) in sheets.chunks(SHEETS_PER_BATCH).enumerate() {
            let numbers = &cover.sheets[b * SHEETS_PER_BATCH..];
            let first = batch[0].slots[0].0;
            let end = batch
                .last()
                .and_then(|s| s.slots.last())
                .map_or(first, |s| s.0 + 1);
            let art: Vec<&BTreeMap<String, String>> = arts[first..end].iter().collect();
            let prints = &self.prints[first..end];
            let sheet_out = SheetOut {
                texts: &texts,
                grid_keys: &grid_keys,
                duplex: flip.is_some(),
                first,
            };
            let ins = (prints, &art[..]);
            let outs = (out as &mut dyn Write, &mut failures);
            match cache.as_mut() {
                Some(cache) => {
                    self.write_batch_cached(
                        renderer,
                        ins,
                        (cache, &keys[first..end]),
                        (batch, numbers),
                        &sheet_out,
                        outs,
                    )?;
                }
                None => self.write_batch(renderer, ins, (batch, numbers), &sheet_out, outs)?,
            }
        }
        buf.clear();
        page::document_tail(&mut buf);
        out.write_all(buf.as_bytes())?;
        if let Some(cache) = cache.as_mut() {
            cache.wrote(buf.len());
        }
        Ok(failures)
    }

    /// Writes one batch of sheets, their cards rendered on every core.
    fn write_batch(
        &self,
        renderer: &Renderer<'_>,
        (prints, art): (&[Print<'a>], &[&BTreeMap<String, String>]),
        (batch, numbers): (&[Sheet], &[SheetEntry<'_>]),
        to: &SheetOut<'_>,
        (out, failures): (&mut dyn Write, &mut Failures<'a>),
    ) -> io::Result<()> {
        let first = to.first;
        let mut rendered = renderer.render_all(prints, art);
        for (i, r) in rendered.iter_mut().enumerate() {
            failures.add(self.prints[first + i].card, r);
        }
        let mut buf = String::new();
        for (sheet, entry) in batch.iter().zip(numbers) {
            self.write_sheet(&mut buf, entry.faces_page, sheet, to, |i| {
                &rendered[i - first]
            });
        }
        out.write_all(buf.as_bytes())
    }

    /// Writes one batch of sheets through the faces cache: each sheet the
    /// last output holds as it is copied whole, the others written with
    /// their cards' faces taken from the last output or rendered (on every
    /// core).
    fn write_batch_cached(
        &self,
        renderer: &Renderer<'_>,
        (prints, art): (&[Print<'a>], &[&BTreeMap<String, String>]),
        (cache, keys): (&mut FaceCache, &[reuse::Key]),
        (batch, numbers): (&[Sheet], &[SheetEntry<'_>]),
        to: &SheetOut<'_>,
        (out, failures): (&mut dyn Write, &mut Failures<'a>),
    ) -> io::Result<()> {
        let first = to.first;
        // Each sheet's key, and its cards' keys.
        let wanted: Vec<(reuse::Key, Vec<reuse::Key>)> = batch
            .iter()
            .zip(numbers)
            .map(|(sheet, entry)| {
                let slots: Vec<(reuse::Key, u32)> = sheet
                    .slots
                    .iter()
                    .map(|&(p, copy)| (keys[p - first], copy))
                    .collect();
                let key = cache.sheet_key(entry.faces_page, to.grid_keys[sheet.grid], &slots);
                (key, slots.into_iter().map(|(k, _)| k).collect())
            })
            .collect();
        let mut old = cache.old_sheets(&wanted, self.game);
        let mut needed = vec![false; prints.len()];
        for (_, sheet) in batch.iter().enumerate().filter(|(i, _)| !old.serves(*i)) {
            for &(p, _) in &sheet.slots {
                needed[p - first] = true;
            }
        }
        let mut rendered =
            reuse::render_batch(renderer, self.game, (prints, art, keys), &needed, cache);
        for (i, r) in rendered.iter_mut().enumerate() {
            failures.add(self.prints[first + i].card, r);
        }
        let mut buf = String::new();
        for (i, ((sheet, entry), (key, cards))) in
            batch.iter().zip(numbers).zip(&wanted).enumerate()
        {
            if old.serves(i) {
                old.put(i, cards, cache, out)?;
                continue;
            }
            old.flush(out)?;
            buf.clear();
            let (faces, backs) = self.write_sheet(&mut buf, entry.faces_page, sheet, to, |i| {
                &rendered[i - first]
            });
            out.write_all(buf.as_bytes())?;
            let mut backs = backs.into_iter();
            let placed = sheet
                .slots
                .iter()
                .zip(faces)
                .map(|(&(p, _), face)| (keys[p - first], face, backs.next()));
            cache.wrote_sheet(*key, buf.as_bytes(), placed);
        }
        old.flush(out)?;
        cache.recycle(old);
        Ok(())
    }

    /// What every sheet of each grid prints alike.
    fn grid_texts(&self, flip: Option<Flip>) -> Vec<GridText> {
        let guides = self.build.guides();
        let grids = self.grids.iter().enumerate();
        grids
            .map(|(i, g)| GridText::new(g, flip, guides, &cut_stem(i)))
            .collect()
    }

    /// The cover: what is printed, how, and the table of sheets.
    fn cover(&self, sheets: &[Sheet], flip: Option<Flip>, ph: f64) -> Cover<'_> {
        let m = &self.game.manifest.manifest;
        let mut counts: Vec<(String, usize, u32)> = Vec::new();
        for kind in m.kinds.keys() {
            let ps: Vec<&Print<'_>> = self
                .prints
                .iter()
                .filter(|p| p.card.kind == *kind)
                .collect();
            if !ps.is_empty() {
                let copies = ps.iter().map(|p| p.count).sum();
                counts.push((m.kind_name(kind).to_owned(), ps.len(), copies));
            }
        }
        let game = self.game;
        let subject = match &self.selection.subject {
            Subject::Game => caption(game, "subject-game", &[]),
            Subject::Deck(name) => caption(game, "subject-deck", &[("deck", name)]),
            Subject::Reprint(subject) => subject.clone(),
            Subject::Cards => String::new(),
        };
        let notes = &self.selection.notes;
        let mut cover = Cover {
            game: &m.name,
            subject,
            heads: heads(game),
            instructions: [instructions(game, self.build, flip), notes.clone()].concat(),
            counts,
            sheets: Vec::new(),
        };
        let per_sheet = if flip.is_some() { 2 } else { 1 };
        // The cover's length depends only on how many sheets there are.
        cover.sheets = sheets.iter().map(|_| SheetEntry::default()).collect();
        let first_page = cover.pages(ph) + 1;
        for (i, sheet) in sheets.iter().enumerate() {
            let faces_page = first_page + i * per_sheet;
            let mut kinds: Vec<&str> = Vec::new();
            let mut names: Vec<(&str, u32)> = Vec::new();
            for &(p, _) in &sheet.slots {
                let card = self.prints[p].card;
                let k = m.kind_name(&card.kind);
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
                match names.last_mut() {
                    Some((n, c)) if *n == card.name => *c += 1,
                    _ => names.push((&card.name, 1)),
                }
            }
            cover.sheets[i] = SheetEntry {
                faces_page,
                backs_page: flip.map(|_| faces_page + 1),
                kinds,
                boxes: sheet.slots.len(),
                names,
            };
        }
        cover
    }

    /// Writes one sheet's faces page, and its backs page when duplex;
    /// returns where each card's face and back went in `out`.
    fn write_sheet<'r>(
        &self,
        out: &mut String,
        faces_page: usize,
        sheet: &Sheet,
        to: &SheetOut<'_>,
        rendered: impl Fn(usize) -> &'r renderer::Rendered,
    ) -> (Vec<Range<usize>>, Vec<Range<usize>>) {
        let text = &to.texts[sheet.grid];
        let placed = |side: Side| -> Vec<Placed<'_>> {
            sheet
                .slots
                .iter()
                .enumerate()
                .map(|(slot, &(p, copy))| {
                    let card = self.prints[p].card;
                    let r = rendered(p);
                    Placed {
                        id: &card.id,
                        kind: &card.kind,
                        copy,
                        slot,
                        html: if side == Side::Backs {
                            &r.back
                        } else {
                            &r.face
                        },
                    }
                })
                .collect()
        };
        let faces = page::sheet(out, faces_page, Side::Faces, text, &placed(Side::Faces));
        let backs = if to.duplex {
            page::sheet(out, faces_page + 1, Side::Backs, text, &placed(Side::Backs))
        } else {
            Vec::new()
        };
        (faces, backs)
    }
}

/// The body's attributes, as HTML: its classes (the paper, the
/// orientation, the ink saver) and the smallest readable size of the
/// cards' text, `min_text` points, for the fit script.
fn body_attributes(build: &Build, min_text: f64) -> String {
    format!(
        "class=\"carta-paper-{} carta-{}{}\"{}",
        build.page.paper.class(),
        if build.page.orientation == Orientation::Portrait {
            "portrait"
        } else {
            "landscape"
        },
        if build.ink_saver {
            " carta-ink-saver"
        } else {
            ""
        },
        super::min_text_attribute(min_text)
    )
}

/// carta's caption `id` in the language `game` is printed in.
fn caption(game: &Game, id: &str, values: &[(&str, &str)]) -> String {
    let lang = &game.manifest.manifest.language;
    game.i18n.caption(lang, id, values)
}

/// The heads of the cover's tables, in the language `game` is printed in.
fn heads(game: &Game) -> Heads {
    let head = |id| caption(game, id, &[]);
    Heads {
        kind: head("kind"),
        cards: head("cards"),
        copies: head("copies"),
        total: head("total"),
        sheet: head("sheet"),
        pages: head("pages"),
        kinds: head("kinds"),
        contents: head("contents"),
    }
}

/// The cover's printing instructions.
fn instructions(game: &Game, build: &Build, flip: Option<Flip>) -> Vec<String> {
    let print = match (build.page.orientation, build.cut_lines) {
        (Orientation::Portrait, CutLines::Marks) => "print-portrait",
        (Orientation::Landscape, CutLines::Marks) => "print-landscape",
        (Orientation::Portrait, CutLines::Full) => "print-portrait-lines",
        (Orientation::Landscape, CutLines::Full) => "print-landscape-lines",
    };
    let mut out = vec![caption(
        game,
        print,
        &[("paper", &build.page.paper.label())],
    )];
    out.push(caption(
        game,
        match build.duplex {
            Duplex::None => "duplex-none",
            Duplex::Long => "duplex-long",
            Duplex::Short => "duplex-short",
        },
        &[],
    ));
    if flip.is_some() {
        out.push(caption(game, "single-sided", &[]));
    }
    if build.ink_saver {
        out.push(caption(game, "ink-saver", &[]));
    }
    out
}

fn layout_error(game: &Game, kind: &str, b: CardBox, page: PageBox) -> Diagnostic {
    let spans = &game.manifest.spans;
    let span = spans
        .key_span(&format!("/kinds/{kind}/print"))
        .or_else(|| spans.key_span("/print"))
        .or_else(|| spans.key_span(&format!("/kinds/{kind}")))
        .unwrap_or(0..0);
    let (pw, ph) = page.size();
    let m = geometry::mm;
    Diagnostic::error(
        "sheets::layout",
        format!(
            "cards of kind `{kind}` ({} × {} mm with {} mm bleed) do not fit on {} {} paper with {} mm margins ({} × {} mm to use)",
            m(b.width),
            m(b.height),
            m(b.bleed),
            page.paper.label(),
            if page.orientation == Orientation::Portrait { "portrait" } else { "landscape" },
            m(page.margin),
            m(pw - 2.0 * page.margin),
            m(ph - 2.0 * page.margin)
        ),
    )
    .at(game.manifest.file, span, "this layout")
    .with_help("use a smaller card size, less bleed, smaller margins, or the other orientation")
}

/// The error of a cutting machine asked for on a paper its workflow does
/// not take.
fn cutter_paper_error(game: &Game, cutter: Cutter, page: PageBox) -> Diagnostic {
    let spans = &game.manifest.spans;
    let span = spans
        .key_span("/print/paper")
        .or_else(|| spans.key_span("/print"))
        .unwrap_or(0..0);
    Diagnostic::error(
        "sheets::cutter-paper",
        format!(
            "the {} print-then-cut workflow takes Letter or A4 paper, not {}",
            cutter.label(),
            page.paper.label()
        ),
    )
    .at(game.manifest.file, span, "the paper of these sheets")
    .with_help("pass --paper letter or --paper a4")
}
