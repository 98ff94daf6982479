//! What the source fuzz targets share: the shipped game they run against,
//! and rendering every diagnostic both ways (the human renderer is where
//! long lines and control characters used to panic).

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

use carta::diag::{Diagnostic, Diagnostics, Format, Renderer, SourceMap};
use carta::game::{self, Decks, Game, Keep};
use carta::load::Workspace;
use carta::validate::GameSchemas;

/// The game every target runs against, and its schemas.
pub struct Shipped {
    /// The compiled game.
    pub game: Game,
    /// Its kinds' compiled schemas.
    pub schemas: GameSchemas,
}

/// The shipped `intrepidos` game, compiled once.
pub fn intrepidos() -> &'static Shipped {
    static GAME: OnceLock<Shipped> = OnceLock::new();
    GAME.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut ws = Workspace::open(&root).expect("the repository is a workspace");
        let mut diags = Diagnostics::new();
        let game = game::compile(&mut ws, "intrepidos", Decks::Skip, Keep::All, &mut diags)
            .expect("the shipped game reads")
            .expect("the shipped game compiles");
        let mut files = ws
            .schema_files("intrepidos", &mut diags)
            .expect("schemas list");
        files.sort();
        let ids = ws.read_many(&files, &mut diags).expect("schemas read");
        let kinds = game.manifest.manifest.kind_ids();
        let docs = GameSchemas::parse_files(&ids, &ws.sources, &kinds, &mut diags);
        let by_uri = game
            .manifest
            .manifest
            .schema_paths()
            .into_iter()
            .map(|(k, p)| (k, carta::validate::uri_of(&p)))
            .collect();
        let (schemas, _) = GameSchemas::compile(docs, &by_uri, &mut diags);
        Shipped { game, schemas }
    })
}

/// Renders every diagnostic as a person and as a script would see it.
pub fn render_all(diagnostics: &[Diagnostic], sources: &SourceMap) {
    for format in [Format::Human, Format::Json] {
        let renderer = Renderer::new(format, false, 80);
        for d in diagnostics {
            let shown = renderer.render(d, sources);
            if format == Format::Human {
                assert!(!shown.contains('\u{1b}'), "an escape reached the terminal");
            }
        }
    }
}
