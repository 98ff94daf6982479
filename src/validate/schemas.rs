//! The JSON Schemas of one game: read, checked against the meta-schema,
//! compiled once per kind with local `$ref`s resolved offline, and scanned for
//! the `x-carta-ref` keyword that marks card references.

mod walk;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use jsonschema::json::Json;
use jsonschema::{
    Draft, PatternOptions, Registry, Resource, Retrieve, ValidationOptions, Validator,
};
use rayon::prelude::*;
use serde_json::{Map, Value};

use super::display::{self, FaceField, LabelPattern};
use super::documents::{
    PathStep, REF_KEYWORD, SchemaDoc, approx_span, json_pointer_span, parse_schema, uri_of,
    without_uris,
};
use super::instance::TreeJson;

use crate::diag::{Diagnostic, Diagnostics, FileId, SourceMap};
use crate::suggest;

/// What [`GameSchemas::visit`] calls with each schema object and the path
/// of the card's values it applies to.
pub type Visit<'a, 'f> = dyn FnMut(&'a Map<String, Value>, &[PathStep]) + 'f;

/// Where in a card of some kind card references stand, and the kinds they may name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefPattern {
    /// The path from the card's root to the referencing strings.
    pub path: Vec<PathStep>,
    /// The kinds the referenced card may have.
    pub kinds: Arc<[String]>,
}

/// The compiled schema of one kind.
#[derive(Debug, Clone)]
pub struct KindSchema {
    /// The validator of a card as JSON (the one whose errors become
    /// diagnostics), compiled with the game's schemas.
    json: Arc<Validator>,
    /// The same schema for a card of the event reader's tree, compiled
    /// once the kind has had enough cards ([`GameSchemas::tree_validator`]).
    tree: Arc<LazyTree>,
    /// Where its cards' references and labelled values stand, found on
    /// first use ([`GameSchemas::marks`]).
    marks: Arc<OnceLock<Marks>>,
    /// The top-level fields in schema order, as the default face lays them
    /// out, found on first use ([`GameSchemas::face`]).
    face: Arc<OnceLock<Vec<FaceField>>>,
    /// The URI the schema document was registered under.
    pub uri: String,
}

/// Where a kind's schema marks card references and labelled values.
#[derive(Debug, Default)]
pub struct Marks {
    /// Where card references stand in cards of the kind.
    pub refs: Vec<RefPattern>,
    /// Where values with printed labels (`x-carta-labels`) stand.
    pub labels: Vec<LabelPattern>,
}

/// How many cards of a kind are validated as JSON before its schema is
/// compiled a second time, for the event reader's tree: that compile costs
/// about what validating a few hundred cards as JSON costs more than in
/// place, so a small game never pays it.
pub(super) const TREE_AFTER: usize = 256;

/// A kind's validator of the event reader's tree, compiled on demand.
#[derive(Debug, Default)]
struct LazyTree {
    seen: AtomicUsize,
    /// Set by the one thread that compiles the validator.
    compiling: AtomicBool,
    validator: OnceLock<Option<Validator<TreeJson>>>,
}

/// Every compiled kind schema of a game, plus the raw documents (for
/// looking up titles and allowed property names when explaining errors).
#[derive(Debug, Clone, Default)]
pub struct GameSchemas {
    kinds: HashMap<String, KindSchema>,
    docs: HashMap<String, Value>,
    /// The documents' registry, for the validators compiled later.
    registry: Option<Arc<Registry<'static>>>,
}

impl GameSchemas {
    /// Parses schema files already read: each must be JSON and a valid JSON
    /// Schema; `x-carta-ref` values must name declared `kinds`.
    pub fn parse_files(
        files: &[FileId],
        sources: &SourceMap,
        kinds: &[String],
        diags: &mut Diagnostics,
    ) -> Vec<SchemaDoc> {
        let mut docs = Vec::new();
        for &file in files {
            let source = sources.get(file);
            match parse_schema(file, &source.text) {
                Ok(doc) => {
                    check_ref_keywords(&doc, "", file, &source.text, kinds, diags);
                    display::check_keywords(&doc, "", file, &source.text, diags);
                    docs.push(SchemaDoc {
                        uri: uri_of(&source.name),
                        file: Some(file),
                        text: Some(Arc::clone(&source.text)),
                        doc,
                    });
                }
                Err(d) => diags.push(*d),
            }
        }
        docs
    }

    /// Compiles the schema of every kind in `kinds` (kind id → schema URI)
    /// from `docs`, resolving `$ref`s among them and nowhere else. Returns the
    /// schemas and the kinds whose schema document is not among `docs`.
    pub fn compile(
        docs: Vec<SchemaDoc>,
        kinds: &BTreeMap<String, String>,
        diags: &mut Diagnostics,
    ) -> (GameSchemas, Vec<String>) {
        let mut schemas = GameSchemas::default();
        let mut missing = Vec::new();
        let docs = super::schema_refs::drop_unresolvable(docs, diags);
        let Some(registry) = registry(&docs, diags) else {
            return (schemas, missing);
        };
        // The kinds compile on every core (each walks its schema and its
        // `$ref`s on its own): this runs before any card is read, so
        // one core would otherwise idle through it.
        let compile = |(kind, uri): (&String, &String)| {
            let doc = docs.iter().find(|d| &d.uri == uri)?;
            let compiled = validator(jsonschema::options(), &registry, uri, &doc.doc)
                .map(Arc::new)
                .map_err(|e| compile_error(kind, doc, &e));
            Some(compiled)
        };
        let compiled: Vec<_> = kinds.par_iter().map(compile).collect();
        for ((kind, uri), compiled) in kinds.iter().zip(compiled) {
            let Some(compiled) = compiled else {
                missing.push(kind.clone());
                continue;
            };
            match compiled {
                Ok(validator) => {
                    schemas.kinds.insert(
                        kind.clone(),
                        KindSchema {
                            json: validator,
                            tree: Arc::default(),
                            marks: Arc::default(),
                            face: Arc::default(),
                            uri: uri.clone(),
                        },
                    );
                }
                Err(d) => diags.push(d),
            }
        }
        schemas.docs = docs.into_iter().map(|d| (d.uri, d.doc)).collect();
        schemas.registry = Some(Arc::new(registry));
        (schemas, missing)
    }

    /// Every schema document of the game, by the URI it is registered under.
    pub fn documents(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.docs.iter().map(|(uri, doc)| (uri.as_str(), doc))
    }

    /// The compiled schema of `kind`, if it compiled.
    pub fn kind(&self, kind: &str) -> Option<&KindSchema> {
        self.kinds.get(kind)
    }

    /// The validator of a card of kind `k` as JSON.
    pub fn validator<'a>(&self, k: &'a KindSchema) -> Option<&'a Validator> {
        Some(&k.json)
    }

    /// The validator of a card of `kind` as the event reader's tree, for
    /// the cards of a kind after its first [`TREE_AFTER`] (which the
    /// caller validates as JSON): `None` before, while another thread
    /// compiles it, or if it did not compile.
    pub fn tree_validator(&self, kind: &str) -> Option<&Validator<TreeJson>> {
        let k = self.kinds.get(kind)?;
        let tree = &k.tree;
        // Once compiled, a read; the count is written only before, so the
        // threads do not pass its cache line to and fro for every card.
        if let Some(compiled) = tree.validator.get() {
            return compiled.as_ref();
        }
        if tree.seen.fetch_add(1, Ordering::Relaxed) < TREE_AFTER
            || tree.compiling.swap(true, Ordering::AcqRel)
        {
            // Too early, or another thread is compiling it: the other
            // threads validate as JSON meanwhile instead of waiting.
            return None;
        }
        let options = jsonschema::options_for::<TreeJson>();
        let compiled = self
            .registry
            .as_ref()
            .and_then(|r| validator(options, r, &k.uri, &self.docs[&k.uri]).ok());
        tree.validator.get_or_init(|| compiled).as_ref()
    }
}

/// The registry of a game's schema documents, which `$ref`s resolve
/// against (and nothing else: no network, no files).
fn registry(docs: &[SchemaDoc], diags: &mut Diagnostics) -> Option<Registry<'static>> {
    let resources: Vec<_> = docs
        .iter()
        .map(|d| (d.uri.clone(), Resource::from_contents(d.doc.clone())))
        .collect();
    let built = Registry::new()
        .draft(Draft::Draft202012)
        .extend(resources)
        .and_then(jsonschema::RegistryBuilder::prepare);
    match built {
        Ok(r) => Some(r),
        Err(e) => {
            diags.push(Diagnostic::error(
                "schema::invalid-schema",
                format!(
                    "the schemas cannot be registered: {}",
                    without_uris(&e.to_string())
                ),
            ));
            None
        }
    }
}

/// The validator of the schema document `doc`, registered at `uri`, for
/// instances of the representation `options` is for.
fn validator<'d, F: Json>(
    options: ValidationOptions<'_, Arc<dyn Retrieve>, F>,
    registry: &Registry<'_>,
    uri: &str,
    doc: &'d Value,
) -> Result<Validator<F>, jsonschema::ValidationError<'d>> {
    options
        .with_draft(Draft::Draft202012)
        .with_registry(registry)
        .with_base_uri(uri.to_owned())
        // The `regex` engine runs in linear time; it refuses
        // backreferences and look-around when the schema compiles
        // instead of giving up on a card's value later.
        .with_pattern_options(PatternOptions::regex())
        .offline()
        .build(doc)
}

/// Why the schema of `kind` did not compile, placed at the keyword.
fn compile_error(kind: &str, doc: &SchemaDoc, e: &jsonschema::ValidationError<'_>) -> Diagnostic {
    let pointer = e.schema_path().to_string();
    let regex = matches!(e.kind(), jsonschema::error::ValidationErrorKind::Format { format } if format == "regex");
    let mut d = if regex {
        let pattern = e
            .instance()
            .as_str()
            .map(crate::diag::clip)
            .unwrap_or_default();
        Diagnostic::error(
            "schema::pattern",
            format!("the pattern `{pattern}` at `{pointer}` cannot be used"),
        )
        .with_help(
            "carta runs patterns in linear time, which rules out backreferences and look-around; \
             rewrite the pattern without them",
        )
    } else {
        Diagnostic::error(
            "schema::invalid-schema",
            format!(
                "the schema of kind `{kind}` cannot be compiled: {}",
                without_uris(&e.to_string())
            ),
        )
    };
    if let (Some(file), Some(text)) = (doc.file, &doc.text) {
        d = d.at(file, json_pointer_span(text, &pointer), "here");
    }
    d
}

/// The kinds named by an `x-carta-ref` value.
fn ref_kinds(value: &Value) -> Option<Vec<String>> {
    match value {
        Value::String(s) => Some(vec![s.clone()]),
        Value::Array(items) => items
            .iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect(),
        _ => None,
    }
}

/// Reports `x-carta-ref` values that are malformed or name undeclared kinds.
fn check_ref_keywords(
    schema: &Value,
    pointer: &str,
    file: FileId,
    text: &str,
    kinds: &[String],
    diags: &mut Diagnostics,
) {
    match schema {
        Value::Object(obj) => {
            for (key, sub) in obj {
                let here = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                if key == REF_KEYWORD {
                    let span = approx_span(text, key);
                    match ref_kinds(sub) {
                        None => diags.push(
                            Diagnostic::error("schema::bad-ref", format!("`{REF_KEYWORD}` at `{here}` must be a kind id or an array of kind ids"))
                                .at(file, span, "not a kind id or list of kind ids"),
                        ),
                        Some(named) => {
                            for k in named.iter().filter(|k| !kinds.contains(*k)) {
                                diags.push(
                                    Diagnostic::error("schema::bad-ref", format!("`{REF_KEYWORD}` at `{here}` names `{k}`, which is not a kind of this game"))
                                        .at(file, span.clone(), "unknown kind")
                                        .with_help(suggest::help(k, kinds.iter().map(String::as_str), "declared kinds")),
                                );
                            }
                        }
                    }
                } else {
                    check_ref_keywords(sub, &here, file, text, kinds, diags);
                }
            }
        }
        Value::Array(items) => {
            for (i, sub) in items.iter().enumerate() {
                check_ref_keywords(sub, &format!("{pointer}/{i}"), file, text, kinds, diags);
            }
        }
        _ => {}
    }
}
