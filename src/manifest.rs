//! The game manifest, `cards/<game>/game.toml`: what a game is and which
//! card kinds it has. Its JSON Schema is generated from these types into
//! `schemas/carta/manifest.schema.json`; a `game.toml` is validated against
//! it with the same span-exact diagnostics as cards, then deserialized.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diag::{Diagnostic, Diagnostics, FileId, SourceMap};
use crate::load::{SpanIndex, parse_toml, table_to_json};
use crate::rules::spec::{Rule, Zone};
use crate::validate::{GameSchemas, SchemaDoc, Subject, diagnose};

/// Where the generated schema of the manifest is committed.
pub const SCHEMA_PATH: &str = "schemas/carta/manifest.schema.json";

/// A game: its identity and its card kinds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[schemars(
    title = "carta game manifest",
    description = "The manifest of one game: `cards/<game>/game.toml`."
)]
pub struct Manifest {
    /// The game's id: the name of its folder under `cards/`.
    #[schemars(regex(pattern = r"^[a-z0-9]+(-[a-z0-9]+)*$"))]
    pub id: String,
    /// The game's display name, in its own language.
    #[schemars(length(min = 1))]
    pub name: String,
    /// The language of the card text, as a BCP 47 tag such as `pt-BR` or `es`.
    #[schemars(regex(pattern = r"^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$"))]
    pub language: String,
    /// One sentence about the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// How the print-and-play sheets are laid out (defaults of every build).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub print: Option<crate::sheets::PrintSettings>,
    /// Inline icons for card text, by token: `{AC}` in a text prints icon `AC`.
    #[serde(default, skip_serializing_if = "indexmap::IndexMap::is_empty")]
    #[schemars(extend("propertyNames" = { "pattern": crate::sheets::ICON_NAME_PATTERN }))]
    pub icons: crate::sheets::Icons,
    /// The card kinds, by kind id (lowercase, kebab-case), in display order.
    #[schemars(length(min = 1))]
    #[schemars(extend("propertyNames" = { "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$" }))]
    pub kinds: IndexMap<String, Kind>,
    /// The zones of a deck (`[zones.main]`), by zone id, in display order.
    /// A game without zones has no deck building.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub zones: IndexMap<String, Zone>,
    /// The rules every deck must keep (`[[deck-rules]]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deck_rules: Vec<Rule>,
    /// The rules the whole card pool must keep (`[[box-rules]]`), each
    /// card counted `copies` times.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub box_rules: Vec<Rule>,
}

/// One kind of card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Kind {
    /// The kind's display name, in the game's language.
    #[schemars(length(min = 1))]
    pub name: String,
    /// What cards of this kind are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of the kind's fields, relative to the workspace root.
    /// Defaults to `schemas/<game>/<kind>.schema.json`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// How cards of this kind print: their size, bleed, safe zone and art fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub print: Option<crate::sheets::KindPrint>,
}

impl Manifest {
    /// The workspace-relative schema path of each kind.
    pub fn schema_paths(&self) -> BTreeMap<String, String> {
        self.kinds
            .iter()
            .map(|(id, kind)| {
                (
                    id.clone(),
                    kind.schema
                        .clone()
                        .unwrap_or_else(|| format!("schemas/{}/{id}.schema.json", self.id)),
                )
            })
            .collect()
    }

    /// The kind ids, in declaration order.
    pub fn kind_ids(&self) -> Vec<String> {
        self.kinds.keys().cloned().collect()
    }
}

/// The JSON Schema of the manifest, as committed in [`SCHEMA_PATH`].
pub fn json_schema() -> Value {
    serde_json::to_value(schemars::schema_for!(Manifest)).expect("schemas serialize")
}

/// A parsed manifest and where its parts are written.
#[derive(Debug, Clone)]
pub struct LoadedManifest {
    /// The manifest.
    pub manifest: Manifest,
    /// The `game.toml` file.
    pub file: FileId,
    /// Spans of every key and value of `game.toml`, by JSON pointer.
    pub spans: SpanIndex,
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
    let uri = crate::validate::uri_of(SCHEMA_PATH);
    let docs = vec![SchemaDoc {
        uri: uri.clone(),
        file: None,
        text: None,
        doc: json_schema(),
    }];
    let (schemas, _) =
        GameSchemas::compile(docs, &BTreeMap::from([("manifest".to_owned(), uri)]), diags);
    let validator = &schemas
        .kind("manifest")
        .expect("the manifest schema compiles")
        .validator;
    if !validator.is_valid(&instance) {
        let subject = Subject {
            file,
            table: doc.get_ref(),
            span: 0..0,
            noun: "game.toml".into(),
            extra_root_keys: &[],
            schemas: &schemas,
        };
        let mut found = Vec::new();
        diagnose(validator.iter_errors(&instance), &subject, &mut found);
        diags.extend(found);
        return None;
    }
    let manifest: Manifest = match serde_json::from_value(instance) {
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
    let spans = SpanIndex::new(&doc);
    if manifest.id != game {
        let span = spans.value_span("/id").unwrap_or(0..0);
        diags.push(
            Diagnostic::error(
                "manifest::id",
                format!(
                    "the game id `{}` differs from its folder name `{game}`",
                    manifest.id
                ),
            )
            .at(file, span, "not the folder name")
            .with_help(format!(
                "write `id = \"{game}\"`, or rename the folder `cards/{}`",
                manifest.id
            )),
        );
        return None;
    }
    Some(LoadedManifest {
        manifest,
        file,
        spans,
    })
}
