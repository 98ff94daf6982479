//! `game.toml` read as configuration: validated against the manifest's own
//! generated JSON Schema (so its errors have the same exact spans as a
//! card's), then deserialized into [`Manifest`].

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::{GameSchemas, SchemaDoc, Subject, diagnose};
use crate::config::{self, Manifest};
use crate::diag::{Diagnostic, Diagnostics, FileId, Label, SourceMap};
use crate::load::{SpanIndex, parse_toml, table_to_json};
use crate::suggest;

/// A parsed manifest and where its parts are written.
#[derive(Debug, Clone)]
pub struct LoadedManifest {
    /// The manifest.
    pub manifest: Manifest,
    /// The `game.toml` file.
    pub file: FileId,
    /// Spans of every key and value of `game.toml`, by JSON pointer.
    pub spans: SpanIndex,
    /// `game.toml` as written (integers stay integers, where the manifest
    /// holds millimetres as floats): what the bundle stores.
    pub written: Value,
}

/// Parses and validates the `game.toml` of game `game` (folder name).
pub fn parse(
    game: &str,
    file: FileId,
    sources: &SourceMap,
    diags: &mut Diagnostics,
) -> Option<LoadedManifest> {
    let text = &sources.get(file).text;
    let mut found = Vec::new();
    let (doc, ok) = parse_toml(file, text, &mut found);
    diags.extend(found);
    if !ok {
        return None;
    }
    let instance = match table_to_json(doc.get_ref()) {
        Ok(map) => Value::Object(map),
        Err((span, message)) => {
            diags.push(Diagnostic::error("manifest::value", message).at(file, span, "here"));
            return None;
        }
    };
    if !schema_valid(file, doc.get_ref(), &instance, diags) {
        return None;
    }
    let manifest: Manifest = match serde_json::from_value(instance.clone()) {
        Ok(m) => m,
        Err(e) => {
            diags.push(
                Diagnostic::error("manifest::value", format!("game.toml: {e}")).at(
                    file,
                    0..0,
                    "in this manifest",
                ),
            );
            return None;
        }
    };
    let loaded = LoadedManifest {
        manifest,
        file,
        spans: SpanIndex::new(&doc),
        written: instance,
    };
    sheets_named_once(&loaded, diags);
    play_zone(&loaded, diags);
    play_mulligan(&loaded, diags);
    id_is_folder(&loaded, game, diags).then_some(loaded)
}

/// Reports a spreadsheet (or sheet) that two kinds' `sheets` name: its rows
/// can be cards of one kind only.
fn sheets_named_once(loaded: &LoadedManifest, diags: &mut Diagnostics) {
    let mut first: HashMap<&str, (&str, usize)> = HashMap::new();
    for (kind, decl) in &loaded.manifest.kinds {
        for (i, sheet) in decl.sheets.iter().enumerate() {
            let Some(&(other, j)) = first.get(sheet.as_str()) else {
                first.insert(sheet, (kind, i));
                continue;
            };
            if other == kind {
                continue; // a repeat in one list: the schema's uniqueItems reports it
            }
            let at = |k: &str, n: usize| {
                loaded
                    .spans
                    .value_span(&format!("/kinds/{k}/sheets/{n}"))
                    .unwrap_or(0..0)
            };
            diags.push(
                Diagnostic::error(
                    "manifest::sheet-kind",
                    format!("`{sheet}` is given to two kinds, `{other}` and `{kind}`"),
                )
                .at(loaded.file, at(kind, i), "named again here")
                .with_label(Label::new(loaded.file, at(other, j), "first named here"))
                .with_help(
                    "give a spreadsheet's rows one kind, or a `kind` column that names each row's",
                ),
            );
        }
    }
}

/// Reports a `[play]` that has no zone to draw from: a game without deck
/// zones, or a `draw-from` that names no declared zone.
fn play_zone(loaded: &LoadedManifest, diags: &mut Diagnostics) {
    let m = &loaded.manifest;
    let Some(play) = &m.play else {
        return;
    };
    if m.zones.is_empty() {
        diags.push(
            at_key(
                loaded,
                "/play",
                Diagnostic::error(
                    "manifest::play-zone",
                    "`[play]` deals hands from a deck, and this game declares no deck zone",
                ),
                "no zone to draw from",
            )
            .with_help("declare the deck's zones (`[zones.main]`), or remove `[play]`"),
        );
        return;
    }
    let Some(zone) = &play.draw_from else {
        return;
    };
    if m.zones.contains_key(zone) {
        return;
    }
    let span = loaded.spans.value_span("/play/draw-from").unwrap_or(0..0);
    diags.push(
        Diagnostic::error(
            "manifest::play-zone",
            format!("`draw-from` names `{zone}`, which is not a zone of this game"),
        )
        .at(loaded.file, span, "no such zone")
        .with_help(suggest::help(
            zone,
            m.zones.keys().map(String::as_str),
            "declared zones",
        )),
    );
}

/// Reports a `[play]` that sizes the hand after a mulligan but allows none:
/// its `mulligan` would never be dealt.
fn play_mulligan(loaded: &LoadedManifest, diags: &mut Diagnostics) {
    let Some(play) = &loaded.manifest.play else {
        return;
    };
    if play.mulligan.is_none() || play.mulligan_count() > 0 {
        return;
    }
    diags.push(
        at_key(
            loaded,
            "/play/mulligan",
            Diagnostic::error(
                "manifest::play-mulligan",
                "`mulligan` sizes the hand drawn after a mulligan, but `mulligans` allows none",
            ),
            "never dealt",
        )
        .with_help("say how many mulligans a game allows (`mulligans = 1`), or remove `mulligan`"),
    );
}

/// Diagnostic `d` placed at the key `pointer` of `game.toml`, labelled.
fn at_key(loaded: &LoadedManifest, pointer: &str, d: Diagnostic, label: &str) -> Diagnostic {
    let span = loaded.spans.key_span(pointer).unwrap_or(0..0);
    d.at(loaded.file, span, label)
}

/// Validates `game.toml` against the manifest's generated schema, reporting
/// every error at its span.
fn schema_valid(
    file: FileId,
    table: &toml::de::DeTable<'_>,
    instance: &Value,
    diags: &mut Diagnostics,
) -> bool {
    let schema = config::json_schema();
    // Most manifests are valid: one validator answers that, and only a
    // manifest with problems pays for what the diagnostics need (the
    // schema's documents, checked and indexed for their titles and spans).
    if jsonschema::options()
        .build(schema)
        .is_ok_and(|v| v.is_valid(instance))
    {
        return true;
    }
    let uri = super::uri_of(config::SCHEMA_PATH);
    let docs = vec![SchemaDoc {
        uri: uri.clone(),
        file: None,
        text: None,
        doc: schema.clone(),
    }];
    let kinds = BTreeMap::from([("manifest".to_owned(), uri)]);
    let (schemas, _) = GameSchemas::compile(docs, &kinds, diags);
    let validator = schemas
        .kind("manifest")
        .and_then(|k| schemas.validator(k))
        .expect("the manifest schema compiles");
    if validator.is_valid(instance) {
        return true;
    }
    let subject = Subject {
        file,
        table,
        span: 0..0,
        noun: "game.toml".into(),
        extra_root_keys: &[],
        schemas: &schemas,
    };
    let mut found = Vec::new();
    diagnose(validator.iter_errors(instance), &subject, &mut found);
    diags.extend(found);
    false
}

/// Whether the manifest's `id` is its folder's name; reports it otherwise.
fn id_is_folder(loaded: &LoadedManifest, game: &str, diags: &mut Diagnostics) -> bool {
    let id = &loaded.manifest.id;
    if id == game {
        return true;
    }
    let span = loaded.spans.value_span("/id").unwrap_or(0..0);
    diags.push(
        Diagnostic::error(
            "manifest::id",
            format!("the game id `{id}` differs from its folder name `{game}`"),
        )
        .at(loaded.file, span, "not the folder name")
        .with_help(format!(
            "write `id = \"{game}\"`, or rename the folder `cards/{id}`"
        )),
    );
    false
}
