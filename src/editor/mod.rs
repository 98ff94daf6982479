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
//!
//! `mod.rs` keys, writes and associates the files (the deck schema, which
//! lists every card, as a patch of the last one: [`patch`]); what each
//! schema holds is in [`cards`] (a whole card file), [`decks`] (a deck
//! file) and [`manifest`] (`game.toml`), over the translation to draft 7
//! in [`draft7`].

mod cards;
mod decks;
mod draft7;
mod manifest;
mod patch;

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::config::Manifest;
use crate::emit::EmitError;
use crate::game::Game;
use crate::validate::{GameSchemas, uri_of};
use crate::write::{self, Folder, WriteError};

/// Where the editor schemas are written, relative to the workspace root.
pub const DIR: &str = "schemas/carta/editor";

/// The taplo configuration file, at the workspace root.
pub const TAPLO_CONFIG: &str = ".taplo.toml";

/// The first line of a `.taplo.toml` that carta wrote (and may rewrite).
const TAPLO_HEADER: &str = "# Written by carta";

pub(super) const DRAFT7: &str = "http://json-schema.org/draft-07/schema#";

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
const FORMAT: u32 = 10;

/// What a game's editor schemas are derived from.
struct Inputs<'g> {
    manifest: &'g Manifest,
    /// The game's schema documents, by workspace path.
    docs: BTreeMap<String, &'g Value>,
    /// Every card: id, kind, name.
    cards: Vec<(&'g str, &'g str, &'g str)>,
    /// The cards' card files, in order: where each one's cards end in
    /// `cards`, and the digest of their ids, kinds and names.
    files: Vec<(usize, u64)>,
}

impl<'g> Inputs<'g> {
    fn of(game: &'g Game) -> Self {
        Inputs {
            manifest: &game.manifest.manifest,
            docs: documents(&game.schemas),
            cards: game
                .pool
                .iter()
                .map(|c| (c.id.as_str(), c.kind.as_str(), c.name.as_str()))
                .collect(),
            files: card_files(game),
        }
    }

    /// A digest of everything the card-file (`deck == false`) or deck-file
    /// schema is derived from. Written into the file, it lets a check skip
    /// deriving a large game's schemas when nothing they depend on changed.
    /// The head is serialized straight into the hash; the deck key then
    /// takes each card file's digest (of its cards' ids, kinds and names,
    /// which it covers all of), the card-file key each card of a kind a
    /// reference names as it is (its id, kind and name, each after its
    /// length): serializing 20,000 cards as JSON cost more than the hash.
    fn key(&self, deck: bool) -> String {
        let m = self.manifest;
        let mut hasher = HashWriter(Sha256::new());
        let head = (FORMAT, env!("CARGO_PKG_VERSION"), &m.id, &m.name, &m.kinds);
        // Both name the cards: the deck's zones list them all, and the
        // card file's references are enums of the ids (and names) of the
        // kinds they name (a name edit of another kind leaves it as it is).
        let (written, named) = if deck {
            (serde_json::to_writer(&mut hasher, &(head, &m.zones)), None)
        } else {
            let named = cards::referenced_kinds(&self.docs);
            (
                serde_json::to_writer(&mut hasher, &(head, &self.docs)),
                Some(named),
            )
        };
        written.expect("the inputs serialize");
        let Some(named) = named else {
            for &(end, digest) in &self.files {
                hasher.0.update((end as u64).to_le_bytes());
                hasher.0.update(digest.to_le_bytes());
            }
            return crate::digest::hex(&hasher.0.finalize()[..12]);
        };
        for &(id, kind, name) in &self.cards {
            if !named.contains(kind) {
                continue;
            }
            for part in [id, kind, name] {
                hasher.0.update((part.len() as u64).to_le_bytes());
                hasher.0.update(part.as_bytes());
            }
        }
        let digest = hasher.0.finalize();
        crate::digest::hex(&digest[..12])
    }
}

/// A game's schema documents, by workspace path.
fn documents(schemas: &GameSchemas) -> BTreeMap<String, &Value> {
    schemas
        .documents()
        .filter_map(|(uri, doc)| {
            let path = uri.strip_prefix(&uri_of(""))?;
            Some((path.to_owned(), doc))
        })
        .collect()
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

/// The card files of `game`'s pool, in order: where each one's cards end
/// in the pool, and a digest of their ids, kinds and names
/// ([`CardsDigest`]). A deck schema's lines are those of the cards in pool
/// order, so a card file's lie together, and the digest says whether they
/// changed.
fn card_files(game: &Game) -> Vec<(usize, u64)> {
    let mut out: Vec<(usize, u64)> = Vec::new();
    let mut digest = CardsDigest::default();
    let mut file = None;
    for (i, c) in game.pool.iter().enumerate() {
        if file.is_some_and(|f| f != c.file) {
            out.push((i, std::mem::take(&mut digest).finish()));
        }
        file = Some(c.file);
        digest.add(&c.id, &c.kind, &c.name);
    }
    if file.is_some() {
        out.push((game.pool.len(), digest.finish()));
    }
    out
}

/// The digest of a card file's cards as the deck schema's lines read
/// them: each card's id, kind and name, each after its length (foldhash
/// with a fixed seed: the same digest in every run, cheaper than `SipHash`
/// on short strings).
#[derive(Clone)]
struct CardsDigest(foldhash::quality::FoldHasher<'static>);

impl Default for CardsDigest {
    fn default() -> Self {
        use std::hash::BuildHasher;
        CardsDigest(foldhash::quality::FixedState::with_seed(0).build_hasher())
    }
}

impl CardsDigest {
    /// Adds a card.
    fn add(&mut self, id: &str, kind: &str, name: &str) {
        use std::hash::Hasher;
        for part in [id, kind, name] {
            self.0.write_u64(part.len() as u64);
            self.0.write(part.as_bytes());
        }
    }

    /// The digest of the cards added.
    fn finish(&self) -> u64 {
        std::hash::Hasher::finish(&self.0)
    }
}

/// The editor files of a checked game: its card-file and deck-file schemas.
pub fn game_files(game: &Game) -> Vec<EditorFile> {
    let inputs = Inputs::of(game);
    let deck_key = inputs.key(true);
    vec![
        cards_file(&inputs, &inputs.key(false)),
        EditorFile {
            path: deck_schema_path(&inputs.manifest.id),
            text: deck_schema(&inputs, &deck_key).text(),
        },
    ]
}

fn cards_file(inputs: &Inputs<'_>, key: &str) -> EditorFile {
    let schema = cards::schema(inputs.manifest, &inputs.docs, &inputs.cards);
    EditorFile {
        path: cards_schema_path(&inputs.manifest.id),
        text: pretty(&keyed(schema, key)),
    }
}

fn deck_schema<'a>(inputs: &'a Inputs<'_>, key: &'a str) -> decks::DeckSchema<'a> {
    decks::DeckSchema {
        manifest: inputs.manifest,
        cards: &inputs.cards,
        files: &inputs.files,
        key,
    }
}

/// Whether the editor schemas of game `game` in the workspace at `root`
/// carry `keys` (as [`refresh`] gives them).
pub fn carries_keys(root: &Path, game: &str, keys: &[String]) -> bool {
    let [cards, deck] = keys else {
        return false;
    };
    has_key(root, &cards_schema_path(game), cards) && has_key(root, &deck_schema_path(game), deck)
}

/// Writes game `game`'s editor schemas whose key differs from the one
/// written in the file on disk (derived only then; the deck schema patched
/// from the last one, [`patch`]); returns the paths written and the keys
/// (card file, deck file). A file that carries its key but that this very
/// carta did not write or check (another build may write it otherwise;
/// without the cache, never known) is derived and written if it differs.
fn refresh_game(root: &Path, game: &Game) -> Result<(Vec<String>, Vec<String>), EmitError> {
    let inputs = Inputs::of(game);
    let id = &inputs.manifest.id;
    let keys = vec![inputs.key(false), inputs.key(true)];
    let verified = if game.cached {
        verified_keys(root, id)
    } else {
        Vec::new()
    };
    let current = |rel: &str, key: &String| has_key(root, rel, key) && verified.contains(key);
    let mut written = Vec::new();
    let cards = cards_schema_path(id);
    if !current(&cards, &keys[0]) {
        written = write_changed(root, &[cards_file(&inputs, &keys[0])])?.written;
    }
    let deck = deck_schema_path(id);
    if has_key(root, &deck, &keys[1]) {
        if !current(&deck, &keys[1]) {
            let text = deck_schema(&inputs, &keys[1]).text();
            let file = EditorFile { path: deck, text };
            written.extend(write_changed(root, &[file])?.written);
        }
    } else {
        patch::write(root, &deck_schema(&inputs, &keys[1]), game.cached)?;
        written.push(deck);
    }
    if game.cached && verified != keys {
        note_verified(root, id, &keys);
    }
    Ok((written, keys))
}

/// The magic of `build/.cache/<game>.editor` (see [`verified_keys`]).
const VERIFIED: [u8; 8] = *b"carta-k1";

/// The keys of game `game`'s editor schemas that this very carta last
/// wrote or found as it writes them (`build/.cache/<game>.editor`, keyed
/// by the program as every cache file is).
fn verified_keys(root: &Path, game: &str) -> Vec<String> {
    let cache = Folder::workspace(root).and_then(|r| r.existing("build/.cache"));
    let read = cache.ok().flatten().and_then(|c| {
        crate::cache::read_framed::<Vec<String>>(&c, &format!("{game}.editor"), VERIFIED)
    });
    read.and_then(|f| f.under(0)).unwrap_or_default()
}

/// Notes `keys` as game `game`'s editor schemas' keys this carta wrote or
/// checked (see [`verified_keys`]).
fn note_verified(root: &Path, game: &str, keys: &[String]) {
    let cache = crate::cache::folder(root);
    if let Ok(cache) = cache {
        crate::cache::write_framed(&cache, &format!("{game}.editor"), VERIFIED, 0, keys);
    }
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
pub(super) fn key_comment(key: &str) -> String {
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
    vec![manifest_schema_file(), taplo_file(games)]
}

/// The manifest's editor schema (derived from carta's own types).
fn manifest_schema_file() -> EditorFile {
    EditorFile {
        path: manifest_schema_path(),
        text: pretty(&with_draft(manifest::schema())),
    }
}

/// The `.taplo.toml` associating each of `games` with its schemas.
fn taplo_file(games: &[String]) -> EditorFile {
    EditorFile {
        path: TAPLO_CONFIG.into(),
        text: taplo_config(games),
    }
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
    let mut written = write_changed(root, &workspace_files(all_games))?;
    for g in games {
        let (paths, keys) = refresh_game(root, g)?;
        written.written.extend(paths);
        written.keys.push((g.id().to_owned(), keys));
    }
    Ok(written)
}

/// [`refresh`] for a checked workspace, with a warning for a `.taplo.toml`
/// that carta did not write (and so does not rewrite); returns the files
/// written and each checked game's keys (see [`Written::keys`]).
///
/// # Errors
/// When the games cannot be listed or a file cannot be read or written.
pub fn refresh_reporting<'g>(
    ws: &crate::load::Workspace,
    checked: impl IntoIterator<Item = &'g Game>,
    diags: &mut crate::diag::Diagnostics,
) -> Result<Written, EmitError> {
    let mut written = refresh(ws.root(), checked, &ws.game_ids()?)?;
    for foreign in std::mem::take(&mut written.foreign) {
        diags.push(
            crate::diag::Diagnostic::warning(
                "editor::config",
                format!("`{foreign}` was not written by carta, so it does not associate the cards with their editor schemas"),
            )
            .with_help(format!(
                "delete `{foreign}` and run `carta check` to have it written, or copy its rules from a new `carta init` workspace"
            )),
        );
    }
    Ok(written)
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
                out.foreign.push(f.path.clone());
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
    pub foreign: Vec<String>,
    /// Each checked game's keys (card file, deck file), as written into its
    /// editor schemas.
    pub keys: Vec<(String, Vec<String>)>,
}

fn pretty(v: &impl Serialize) -> String {
    serde_json::to_string_pretty(v).expect("JSON values serialize") + "\n"
}

pub(super) fn with_draft(schema: Value) -> Value {
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
