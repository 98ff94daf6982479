//! Editor schemas: what lets a taplo-based editor (VS Code with Even Better
//! TOML, Helix, Zed, …) check and complete card, deck and manifest files as
//! the designer types.
//!
//! A kind's schema describes one card's fields, but a card file holds
//! `[[card]]` tables of many kinds, so carta derives per game one schema of
//! a whole card file (the reserved fields, then one `if kind = … then <the
//! kind's schema>` per kind), one of a deck file (its zones, each listing the
//! ids of the cards it accepts), and the manifest's; `.taplo.toml` at the workspace root associates
//! them with the files. Every schema is self-contained (other schema files
//! are inlined under `definitions`) and written in draft 7, the newest draft
//! taplo's validator implements: a newer keyword is translated to its
//! draft-7 equivalent where one exists and dropped otherwise, so the editor
//! checks less than carta, never more.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::config::Manifest;
use crate::emit::EmitError;
use crate::game::Game;
use crate::validate::{MAX_COPIES, uri_of};
use crate::write::{self, Folder, WriteError};

/// Where the editor schemas are written, relative to the workspace root.
pub const DIR: &str = "schemas/carta/editor";

/// The taplo configuration file, at the workspace root.
pub const TAPLO_CONFIG: &str = ".taplo.toml";

/// The first line of a `.taplo.toml` that carta wrote (and may rewrite).
const TAPLO_HEADER: &str = "# Written by carta";

const DRAFT7: &str = "http://json-schema.org/draft-07/schema#";

/// One file to write: a workspace-relative path and its content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditorFile {
    /// Relative to the workspace root, `/`-separated.
    pub path: String,
    /// The file's text.
    pub text: String,
}

/// The path of game `game`'s card-file schema.
pub fn cards_schema_path(game: &str) -> String {
    format!("{DIR}/{game}.cards.json")
}

/// The path of game `game`'s deck-file schema.
pub fn deck_schema_path(game: &str) -> String {
    format!("{DIR}/{game}.deck.json")
}

/// The path of the manifest's editor schema.
pub fn manifest_schema_path() -> String {
    format!("{DIR}/manifest.json")
}

/// Bumped whenever the editor schemas are derived differently, so that
/// files written by an older carta count as stale (see [`Inputs::key`]).
const FORMAT: u32 = 1;

/// What a game's editor schemas are derived from.
struct Inputs<'g> {
    manifest: &'g Manifest,
    /// The game's schema documents, by workspace path.
    docs: BTreeMap<String, &'g Value>,
    /// Every card: id, kind, name.
    cards: Vec<(&'g str, &'g str, &'g str)>,
}

impl<'g> Inputs<'g> {
    fn of(game: &'g Game) -> Self {
        Inputs {
            manifest: &game.manifest.manifest,
            docs: game
                .schemas
                .documents()
                .filter_map(|(uri, doc)| {
                    let path = uri.strip_prefix(&uri_of(""))?;
                    Some((path.to_owned(), doc))
                })
                .collect(),
            cards: game
                .pool
                .iter()
                .map(|c| (c.id.as_str(), c.kind.as_str(), c.name.as_str()))
                .collect(),
        }
    }

    /// A digest of everything the card-file (`deck == false`) or deck-file
    /// schema is derived from. Written into the file, it lets a check skip
    /// deriving a large game's schemas when nothing they depend on changed.
    /// The inputs are serialized straight into the hash: the deck key covers
    /// every card, and a JSON tree or string of 20,000 cards would cost more
    /// memory than the rest of the check.
    fn key(&self, deck: bool) -> String {
        let m = self.manifest;
        let mut hasher = HashWriter(Sha256::new());
        let head = (FORMAT, env!("CARGO_PKG_VERSION"), &m.id, &m.name, &m.kinds);
        let written = if deck {
            serde_json::to_writer(&mut hasher, &(head, &m.zones, &self.cards))
        } else {
            serde_json::to_writer(&mut hasher, &(head, &self.docs))
        };
        written.expect("the inputs serialize");
        let digest = hasher.0.finalize();
        crate::digest::hex(&digest[..12])
    }
}

/// Feeds what is written into a SHA-256.
struct HashWriter(Sha256);

impl io::Write for HashWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The editor files of a checked game: its card-file and deck-file schemas.
pub fn game_files(game: &Game) -> Vec<EditorFile> {
    let inputs = Inputs::of(game);
    vec![cards_file(&inputs), deck_file(&inputs)]
}

fn cards_file(inputs: &Inputs<'_>) -> EditorFile {
    let schema = cards_schema(inputs.manifest, &inputs.docs);
    EditorFile {
        path: cards_schema_path(&inputs.manifest.id),
        text: pretty(&keyed(schema, &inputs.key(false))),
    }
}

fn deck_file(inputs: &Inputs<'_>) -> EditorFile {
    let key = inputs.key(true);
    let schema = DeckSchema {
        manifest: inputs.manifest,
        cards: &inputs.cards,
        key: &key,
    };
    EditorFile {
        path: deck_schema_path(&inputs.manifest.id),
        text: pretty(&schema),
    }
}

/// The keys of a game's editor schemas (card file, deck file), as written
/// into them.
pub fn game_keys(game: &Game) -> Vec<String> {
    let inputs = Inputs::of(game);
    vec![inputs.key(false), inputs.key(true)]
}

/// Whether the editor schemas of game `game` in the workspace at `root`
/// carry `keys` (as [`game_keys`] gives them).
pub fn carries_keys(root: &Path, game: &str, keys: &[String]) -> bool {
    let [cards, deck] = keys else {
        return false;
    };
    has_key(root, &cards_schema_path(game), cards) && has_key(root, &deck_schema_path(game), deck)
}

/// The game's editor files whose key differs from the one written in the
/// file on disk (derived only then).
fn stale_game_files(root: &Path, game: &Game) -> Vec<EditorFile> {
    let inputs = Inputs::of(game);
    let mut out = Vec::new();
    if !has_key(
        root,
        &cards_schema_path(&inputs.manifest.id),
        &inputs.key(false),
    ) {
        out.push(cards_file(&inputs));
    }
    if !has_key(
        root,
        &deck_schema_path(&inputs.manifest.id),
        &inputs.key(true),
    ) {
        out.push(deck_file(&inputs));
    }
    out
}

/// The `$comment` that carries a schema's key, right after `$schema`.
fn keyed(schema: Value, key: &str) -> Value {
    let mut out = Map::new();
    let Value::Object(m) = schema else {
        return schema;
    };
    for (k, v) in m {
        let first = k == "$schema";
        out.insert(k, v);
        if first {
            out.insert("$comment".into(), key_comment(key).into());
        }
    }
    Value::Object(out)
}

/// The `$comment` of a schema with key `key`.
fn key_comment(key: &str) -> String {
    format!(
        "Written by carta from the game's manifest, schemas and cards (key {key}); `carta check` rewrites it."
    )
}

/// Whether editor file `rel` of the workspace at `root` begins with the
/// key `key` (it is at most a few hundred bytes in). Anything but a regular
/// file reached without a link has no key (and is refused when written).
fn has_key(root: &Path, rel: &str, key: &str) -> bool {
    use std::io::Read;
    let mut head = [0u8; 512];
    let (dir, name) = write::split(Path::new(rel));
    let opened = Folder::workspace(root)
        .and_then(|root| root.existing(dir))
        .and_then(|dir| dir.map_or(Ok(None), |d| d.open_read(name)));
    let Ok(Some(mut file)) = opened else {
        return false;
    };
    let n = file.read(&mut head).unwrap_or(0);
    let needle = format!("(key {key})");
    String::from_utf8_lossy(&head[..n]).contains(&needle)
}

/// The editor files every workspace has: the manifest schema and the
/// `.taplo.toml` associating each of `games` with its schemas.
pub fn workspace_files(games: &[String]) -> Vec<EditorFile> {
    // The manifest's schema is one document: its refs are local.
    let local = |r: &str| {
        r.starts_with('#')
            .then(|| r.replace("/$defs/", "/definitions/"))
    };
    let manifest = to_draft7(&crate::config::json_schema(), &local);
    vec![
        EditorFile {
            path: manifest_schema_path(),
            text: pretty(&with_draft(manifest)),
        },
        EditorFile {
            path: TAPLO_CONFIG.into(),
            text: taplo_config(games),
        },
    ]
}

/// Brings the editor files of the workspace at `root` in step with the
/// checked `games` (the schemas of games that failed to load are left as
/// they were); `all_games` are every game id of the workspace.
///
/// # Errors
/// When a file cannot be read or written.
pub fn refresh<'g>(
    root: &Path,
    games: impl IntoIterator<Item = &'g Game>,
    all_games: &[String],
) -> Result<Written, EmitError> {
    let mut files = workspace_files(all_games);
    files.extend(games.into_iter().flat_map(|g| stale_game_files(root, g)));
    write_changed(root, &files)
}

/// [`refresh`] for a checked workspace, with a warning for a `.taplo.toml`
/// that carta did not write (and so does not rewrite).
///
/// # Errors
/// When the games cannot be listed or a file cannot be read or written.
pub fn refresh_reporting<'g>(
    ws: &crate::load::Workspace,
    checked: impl IntoIterator<Item = &'g Game>,
    diags: &mut crate::diag::Diagnostics,
) -> Result<(), EmitError> {
    let written = refresh(ws.root(), checked, &ws.game_ids()?)?;
    for kept in written.kept {
        diags.push(
            crate::diag::Diagnostic::warning(
                "editor::config",
                format!("`{kept}` was not written by carta, so it does not associate the cards with their editor schemas"),
            )
            .with_help(format!(
                "delete `{kept}` and run `carta check` to have it written, or copy its rules from a new `carta init` workspace"
            )),
        );
    }
    Ok(())
}

/// Writes each file whose content differs from what is on disk (atomically),
/// and returns the paths written. A `.taplo.toml` that carta did not write
/// is left alone and returned in `kept`. Files are read and written only as
/// regular files, never through a link (see [`crate::write`]).
///
/// # Errors
/// When a file cannot be read or written, or a link or a non-regular file
/// is where one goes.
pub fn write_changed(root: &Path, files: &[EditorFile]) -> Result<Written, EmitError> {
    let root = Folder::workspace(root)?;
    let mut out = Written::default();
    for f in files {
        let (dir, name) = write::split(Path::new(&f.path));
        let folder = root.sub(dir)?;
        if f.path == TAPLO_CONFIG {
            // Larger than the limit: not the few lines carta writes.
            let old = folder.open_read(name)?.map(|file| {
                write::read_at_most(file, max_file_bytes())
                    .ok()
                    .flatten()
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .unwrap_or_default()
            });
            if old.as_deref() == Some(f.text.as_str()) {
                continue;
            }
            if old.as_ref().is_some_and(|o| !o.starts_with(TAPLO_HEADER)) {
                out.kept.push(f.path.clone());
                continue;
            }
        } else if holds(&folder, name, f.text.as_bytes())? {
            continue;
        }
        folder.write_atomic(name, f.text.as_bytes(), false)?;
        out.written.push(f.path.clone());
    }
    Ok(out)
}

/// The per-file size limit of reads.
fn max_file_bytes() -> u64 {
    crate::limits::Limits::from_env()
        .unwrap_or_default()
        .max_file_bytes
}

/// Whether file `name` of `folder` holds exactly `bytes`, compared a block
/// at a time: a game's deck schema takes megabytes, and holding the old one
/// beside the new would double them.
fn holds(folder: &Folder, name: &str, bytes: &[u8]) -> Result<bool, WriteError> {
    use std::io::Read;
    let Some(mut file) = folder.open_read(name)? else {
        return Ok(false);
    };
    let io = |source| WriteError::Io {
        path: folder.shown(name),
        source,
    };
    if file.metadata().map_err(io)?.len() != bytes.len() as u64 {
        return Ok(false);
    }
    let mut block = vec![0u8; 64 << 10];
    let mut rest = bytes;
    loop {
        let n = file.read(&mut block).map_err(io)?;
        if n == 0 {
            return Ok(rest.is_empty());
        }
        if rest.len() < n || rest[..n] != block[..n] {
            return Ok(false);
        }
        rest = &rest[n..];
    }
}

/// What [`write_changed`] did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// The files (re)written.
    pub written: Vec<String>,
    /// Files carta would have written but left alone because the user owns them.
    pub kept: Vec<String>,
}

fn pretty(v: &impl Serialize) -> String {
    serde_json::to_string_pretty(v).expect("JSON values serialize") + "\n"
}

fn with_draft(schema: Value) -> Value {
    let mut out = Map::new();
    out.insert("$schema".into(), DRAFT7.into());
    if let Value::Object(m) = schema {
        out.extend(m);
    }
    Value::Object(out)
}

/// `.taplo.toml`: one rule per game for its card files and one for its
/// decks, and one for every manifest. A file matched by two rules takes the
/// later one's schema in taplo, so card rules exclude decks, manifests and
/// translations (`i18n/`, which are not card files).
fn taplo_config(games: &[String]) -> String {
    let mut s = format!(
        "{TAPLO_HEADER} (`carta check` keeps it in step with the games; delete this line to keep your own).\n\
         # It gives taplo-based editors (VS Code with Even Better TOML) the schemas in `{DIR}/`.\n"
    );
    for g in games {
        s.push_str(&format!(
            "\n[[rule]]\ninclude = [\"cards/{g}/**/*.toml\"]\n\
             exclude = [\"cards/{g}/game.toml\", \"cards/{g}/decks/**\", \"cards/{g}/i18n/**\"]\n\
             schema = {{ path = \"{}\" }}\n\
             \n[[rule]]\ninclude = [\"cards/{g}/decks/*.toml\"]\n\
             schema = {{ path = \"{}\" }}\n",
            cards_schema_path(g),
            deck_schema_path(g)
        ));
    }
    s.push_str(&format!(
        "\n[[rule]]\ninclude = [\"cards/*/game.toml\"]\nschema = {{ path = \"{}\" }}\n",
        manifest_schema_path()
    ));
    s
}

/// The definitions key of a schema document (its workspace path, made a
/// plain JSON Pointer token).
fn doc_key(path: &str) -> String {
    path.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Resolves `reference` found in document `base` (a workspace path) to the
/// definitions pointer it becomes; `None` when it leaves the known documents.
fn resolve_ref(base: &str, reference: &str, known: &BTreeMap<String, &Value>) -> Option<String> {
    let (path, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    let target = if path.is_empty() {
        base.to_owned()
    } else if path.contains(':') || path.starts_with('/') {
        return None;
    } else {
        let mut parts: Vec<&str> = base.split('/').collect();
        parts.pop();
        for seg in path.split('/') {
            match seg {
                "." | "" => {}
                ".." => {
                    parts.pop()?;
                }
                s => parts.push(s),
            }
        }
        parts.join("/")
    };
    if !known.contains_key(&target) {
        return None;
    }
    if !fragment.is_empty() && !fragment.starts_with('/') {
        return None; // an anchor: draft 7 has no `$anchor`
    }
    let fragment: Vec<&str> = fragment
        .split('/')
        .skip(1)
        .map(|s| if s == "$defs" { "definitions" } else { s })
        .collect();
    let mut pointer = format!("#/definitions/{}", doc_key(&target));
    for s in fragment {
        pointer.push('/');
        pointer.push_str(s);
    }
    Some(pointer)
}

/// The card-file schema of a game.
fn cards_schema(m: &Manifest, docs: &BTreeMap<String, &Value>) -> Value {
    let mut definitions = Map::new();
    let kind_paths = m.schema_paths();
    for (path, doc) in docs {
        let mut converted = to_draft7(doc, &|r| resolve_ref(path, r, docs));
        if kind_paths.values().any(|p| p == path) {
            allow_reserved(&mut converted);
        }
        definitions.insert(doc_key(path), converted);
    }
    let mut branches = Vec::new();
    for kind in m.kinds.keys() {
        let then = match docs.get(&kind_paths[kind]) {
            Some(_) => json!({ "$ref": format!("#/definitions/{}", doc_key(&kind_paths[kind])) }),
            None => json!({}),
        };
        branches.push(json!({
            "if": { "properties": { "kind": { "const": kind } }, "required": ["kind"] },
            "then": then,
        }));
    }
    let kinds: Vec<Value> = m.kinds.keys().map(|k| Value::from(k.as_str())).collect();
    let kind_list = m
        .kinds
        .iter()
        .map(|(id, k)| format!("`{id}` ({})", k.name))
        .collect::<Vec<_>>()
        .join(", ");
    definitions.insert(
        "carta-card".into(),
        json!({
            "title": "Card",
            "description": format!("One card of {}: `id`, `kind` and `name`, then the fields of its kind.", m.name),
            "type": "object",
            "required": ["id", "kind", "name"],
            "properties": reserved_properties(&kind_list, &kinds),
            "allOf": branches,
        }),
    );
    with_draft(json!({
        "title": format!("{} cards", m.name),
        "description": format!("A card file of {}: `[[card]]` tables, each checked against the schema of its kind.", m.name),
        "type": "object",
        "properties": {
            "card": {
                "title": "Cards",
                "description": "Each `[[card]]` table is one card.",
                "type": "array",
                "items": { "$ref": "#/definitions/carta-card" }
            }
        },
        "additionalProperties": false,
        "definitions": definitions,
    }))
}

/// The reserved fields carta checks itself, as schema properties.
fn reserved_properties(kind_list: &str, kinds: &[Value]) -> Value {
    json!({
        "id": {
            "title": "Id",
            "description": "The card's id, unique in the game: lowercase letters, digits and single dashes (`escudo-orc`). Decks and other cards name the card by it.",
            "type": "string",
            "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"
        },
        "kind": {
            "title": "Kind",
            "description": format!("The card's kind, one of the game's: {kind_list}. Its schema describes the other fields."),
            "type": "string",
            "enum": kinds
        },
        "name": {
            "title": "Name",
            "description": "The card's display name, in the game's language.",
            "type": "string"
        },
        "copies": {
            "title": "Copies",
            "description": "How many physical copies of this card the box holds (default 1).",
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_COPIES
        }
    })
}

/// A kind schema describes the fields besides the reserved ones; in a card
/// table those stand beside them, so the kind's root admits them.
fn allow_reserved(schema: &mut Value) {
    if let Some(root) = schema.as_object_mut() {
        if let Some(Value::Object(props)) = root.get_mut("properties") {
            for r in crate::validate::RESERVED {
                props.entry(r).or_insert(Value::Bool(true));
            }
        } else if root.contains_key("additionalProperties") {
            let props: Map<String, Value> = crate::validate::RESERVED
                .iter()
                .map(|r| ((*r).to_owned(), Value::Bool(true)))
                .collect();
            root.insert("properties".into(), Value::Object(props));
        }
    }
}

/// The deck-file schema of a game: `game`, `name`, and a table per zone
/// whose keys are the ids of the cards the zone accepts. It is serialized
/// as it is written: one line per card, and a JSON tree of 20,000 of them
/// would be the largest thing a check holds.
struct DeckSchema<'a> {
    manifest: &'a Manifest,
    cards: &'a [(&'a str, &'a str, &'a str)],
    key: &'a str,
}

impl Serialize for DeckSchema<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.manifest;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("$schema", DRAFT7)?;
        map.serialize_entry("$comment", &key_comment(self.key))?;
        map.serialize_entry("title", &format!("{} deck", m.name))?;
        map.serialize_entry(
            "description",
            &format!(
                "A deck of {}: its game, its name, and a table per zone.",
                m.name
            ),
        )?;
        map.serialize_entry("type", "object")?;
        map.serialize_entry("required", &["game", "name"])?;
        map.serialize_entry("properties", &DeckProperties(self))?;
        map.serialize_entry("additionalProperties", &false)?;
        map.end()
    }
}

/// The properties of a deck file: `game`, `name`, and one per zone.
struct DeckProperties<'a>(&'a DeckSchema<'a>);

impl Serialize for DeckProperties<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.0.manifest;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry(
            "game",
            &json!({
                "title": "Game",
                "description": format!("The game this deck is for: `{}` ({}).", m.id, m.name),
                "const": m.id,
            }),
        )?;
        map.serialize_entry(
            "name",
            &json!({ "title": "Name", "description": "The deck's name.", "type": "string" }),
        )?;
        for (zone_id, zone) in &m.zones {
            let kinds = zone
                .kinds
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let lines = ZoneLines {
                deck: self.0,
                kinds: &zone.kinds,
            };
            map.serialize_entry(
                zone_id,
                &ZoneSchema {
                    title: &zone.name,
                    description: format!(
                        "Zone `{zone_id}`: card id = copies, for cards of kind {kinds}."
                    ),
                    kind: "object",
                    properties: lines,
                    // Not `propertyNames`: taplo reports that at the table's
                    // header, and `additionalProperties` at the unknown id.
                    additional_properties: false,
                },
            )?;
        }
        map.end()
    }
}

/// One zone of a deck file: a table of card id = copies.
#[derive(serde::Serialize)]
struct ZoneSchema<'a> {
    title: &'a str,
    description: String,
    #[serde(rename = "type")]
    kind: &'static str,
    properties: ZoneLines<'a>,
    #[serde(rename = "additionalProperties")]
    additional_properties: bool,
}

/// A zone's lines: one property per card of a kind the zone accepts.
struct ZoneLines<'a> {
    deck: &'a DeckSchema<'a>,
    kinds: &'a [String],
}

impl Serialize for ZoneLines<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.deck.manifest;
        let mut map = s.serialize_map(None)?;
        for &(id, kind, name) in self.deck.cards {
            if !self.kinds.iter().any(|k| k == kind) {
                continue;
            }
            let kind_name = m.kinds.get(kind).map_or(kind, |k| k.name.as_str());
            let line = DeckLine {
                title: name,
                description: format!("{name} ({kind_name}): how many copies the deck holds."),
                kind: "integer",
                minimum: 1,
                maximum: crate::deck::MAX_COUNT,
            };
            map.serialize_entry(id, &line)?;
        }
        map.end()
    }
}

/// One deck line's schema: a card's copies.
#[derive(serde::Serialize)]
struct DeckLine<'a> {
    title: &'a str,
    description: String,
    #[serde(rename = "type")]
    kind: &'static str,
    minimum: i64,
    maximum: i64,
}

/// Translates a draft 2020-12 schema into draft 7: `$defs` becomes
/// `definitions`, `prefixItems`/`items` become `items`/`additionalItems`,
/// `dependentRequired`/`dependentSchemas` become `dependencies`, `$ref`s go
/// through `resolve` (and are dropped when it cannot place them); keywords
/// draft 7 lacks (`unevaluated*`, `minContains`, `$dynamicRef`, …) are
/// dropped, and a `contains` that `minContains: 0` made optional goes too.
fn to_draft7(schema: &Value, resolve: &dyn Fn(&str) -> Option<String>) -> Value {
    let Value::Object(obj) = schema else {
        return schema.clone();
    };
    let mut out = Draft7 {
        out: Map::new(),
        dependencies: Map::new(),
        resolve,
    };
    for (k, v) in obj {
        out.keyword(k, v, obj);
    }
    let Draft7 {
        mut out,
        dependencies,
        ..
    } = out;
    if !dependencies.is_empty() {
        out.insert("dependencies".into(), Value::Object(dependencies));
    }
    Value::Object(out)
}

/// The keywords of draft 2020-12 (and of the schema's identity) a draft 7
/// schema leaves out.
const DRAFT7_LACKS: [&str; 12] = [
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$dynamicRef",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minContains",
    "maxContains",
];

/// A draft 7 schema object being written from a draft 2020-12 one.
struct Draft7<'r> {
    out: Map<String, Value>,
    /// `dependentRequired` and `dependentSchemas`, merged.
    dependencies: Map<String, Value>,
    resolve: &'r dyn Fn(&str) -> Option<String>,
}

impl Draft7<'_> {
    /// Writes keyword `k` (of value `v`, in the schema object `obj`).
    fn keyword(&mut self, k: &str, v: &Value, obj: &Map<String, Value>) {
        let optional_contains = obj.get("minContains").and_then(Value::as_u64) == Some(0);
        if DRAFT7_LACKS.contains(&k) {
            return;
        }
        match k {
            "$ref" => {
                if let Some(r) = v.as_str().and_then(self.resolve) {
                    self.out.insert("$ref".into(), r.into());
                }
            }
            "$defs" | "definitions" => {
                self.out.insert("definitions".into(), self.map_of(v));
            }
            "properties" | "patternProperties" => {
                self.out.insert(k.to_owned(), self.map_of(v));
            }
            "dependentSchemas" => {
                if let Value::Object(m) = self.map_of(v) {
                    self.dependencies.extend(m);
                }
            }
            "dependentRequired" => {
                if let Value::Object(m) = v {
                    self.dependencies.extend(m.clone());
                }
            }
            "prefixItems" => {
                self.out.insert("items".into(), self.list_of(v));
                if let Some(rest) = obj.get("items") {
                    let rest = to_draft7(rest, self.resolve);
                    self.out.insert("additionalItems".into(), rest);
                }
            }
            "items" if obj.contains_key("prefixItems") => {}
            "contains" if optional_contains => {}
            "allOf" | "anyOf" | "oneOf" => {
                self.out.insert(k.to_owned(), self.list_of(v));
            }
            "items"
            | "contains"
            | "additionalProperties"
            | "propertyNames"
            | "not"
            | "if"
            | "then"
            | "else"
            | "additionalItems" => {
                self.out.insert(k.to_owned(), to_draft7(v, self.resolve));
            }
            _ => {
                self.out.insert(k.to_owned(), v.clone());
            }
        }
    }

    /// An object of schemas (`properties`, `$defs`), each translated.
    fn map_of(&self, v: &Value) -> Value {
        match v {
            Value::Object(m) => Value::Object(
                m.iter()
                    .map(|(k, s)| (k.clone(), to_draft7(s, self.resolve)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// A list of schemas (`allOf`, `prefixItems`), each translated.
    fn list_of(&self, v: &Value) -> Value {
        match v {
            Value::Array(a) => Value::Array(a.iter().map(|s| to_draft7(s, self.resolve)).collect()),
            other => to_draft7(other, self.resolve),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn prefix_items_become_tuple_items() {
        let s = json!({"prefixItems": [{"const": 1}], "items": {"type": "integer"}});
        assert_eq!(
            to_draft7(&s, &none),
            json!({"items": [{"const": 1}], "additionalItems": {"type": "integer"}})
        );
    }

    #[test]
    fn optional_contains_is_dropped_and_dependent_required_is_translated() {
        let s = json!({"contains": {"const": 1}, "minContains": 0, "maxContains": 1,
                       "dependentRequired": {"a": ["b"]}});
        assert_eq!(to_draft7(&s, &none), json!({"dependencies": {"a": ["b"]}}));
        let s = json!({"contains": {"const": 1}, "maxContains": 1});
        assert_eq!(to_draft7(&s, &none), json!({"contains": {"const": 1}}));
    }

    #[test]
    fn a_property_named_like_a_keyword_is_kept() {
        let s = json!({"properties": {"prefixItems": {"type": "string"}}, "enum": [{"$ref": "x"}]});
        assert_eq!(to_draft7(&s, &none), s);
    }

    #[test]
    fn refs_resolve_across_documents() {
        let common = json!({});
        let known = BTreeMap::from([
            ("schemas/g/common.schema.json".to_owned(), &common),
            ("schemas/g/a.schema.json".to_owned(), &common),
        ]);
        let base = "schemas/g/a.schema.json";
        assert_eq!(
            resolve_ref(base, "common.schema.json#/$defs/dice", &known).as_deref(),
            Some("#/definitions/schemas_g_common.schema.json/definitions/dice")
        );
        assert_eq!(
            resolve_ref(base, "#/$defs/x", &known).as_deref(),
            Some("#/definitions/schemas_g_a.schema.json/definitions/x")
        );
        assert_eq!(resolve_ref(base, "../h/other.json", &known), None);
        assert_eq!(
            resolve_ref(base, "https://example.com/s.json", &known),
            None
        );
    }
}
