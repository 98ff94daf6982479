//! The single-threaded floor that `carta check` is measured against: a plain
//! loop that reads every card file of a game, parses it (toml 1.x) and
//! validates each card (jsonschema) against one equivalent single-file
//! schema. It also writes that schema, for `taplo check --schema`.
//!
//! `events` is the parse column read the way `carta check` reads a card
//! file with nothing to report: `toml_parser`'s events straight into
//! carta's tree (`carta::load::tree`), then JSON — for the cost of the
//! reader alone against `toml`'s.
//!
//! ```text
//! cargo run --release --example floor -- DIR GAME read|parse|events|validate
//! cargo run --release --example floor -- DIR GAME schema OUT.json
//! ```

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{Value, json};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, game, mode, rest @ ..] = &args[..] else {
        eprintln!("usage: floor DIR GAME read|parse|events|validate|schema [OUT]");
        std::process::exit(2);
    };
    let dir = Path::new(dir);
    let schema = single_file_schema(dir, game);
    if mode == "schema" {
        let out = rest.first().expect("schema takes an output path");
        fs::write(out, serde_json::to_string_pretty(&schema).unwrap()).unwrap();
        return;
    }
    let start = Instant::now();
    let mut files = Vec::new();
    walk(&dir.join("cards").join(game), &mut files);
    files.sort();
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .expect("the schema compiles");
    let (mut bytes, mut cards, mut invalid) = (0usize, 0usize, 0usize);
    for f in &files {
        let text = fs::read_to_string(f).unwrap();
        bytes += text.len();
        match mode.as_str() {
            "read" => {}
            "parse" => {
                cards += toml::from_str::<toml::Table>(&text).unwrap()["card"]
                    .as_array()
                    .map_or(0, Vec::len);
            }
            "events" => {
                let doc = carta::load::tree::read(&text).expect("a valid card file");
                cards += Value::Object(doc.into_json())["card"]
                    .as_array()
                    .map_or(0, Vec::len);
            }
            "validate" => {
                let doc: Value = toml::from_str(&text).unwrap();
                cards += doc["card"].as_array().map_or(0, Vec::len);
                invalid += usize::from(!validator.is_valid(&doc));
            }
            other => panic!("unknown mode {other}"),
        }
    }
    println!(
        "{mode}: {} files, {bytes} bytes, {cards} cards, {invalid} invalid, {:.3} s",
        files.len(),
        start.elapsed().as_secs_f64()
    );
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "decks") {
                walk(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "toml")
            && p.file_name().is_some_and(|n| n != "game.toml")
        {
            out.push(p);
        }
    }
}

/// One schema for a whole card file: `card` is an array whose items are
/// validated by their kind's schema (with the reserved fields added), the
/// game's other schema files inlined under `$defs`.
fn single_file_schema(dir: &Path, game: &str) -> Value {
    let mut defs = serde_json::Map::new();
    let mut branches = Vec::new();
    let mut names: Vec<PathBuf> = fs::read_dir(dir.join("schemas").join(game))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for path in names {
        let file = path.file_name().unwrap().to_str().unwrap().to_owned();
        let name = file.trim_end_matches(".schema.json").to_owned();
        // Relative `$ref`s between files become references into `$defs`.
        let text = fs::read_to_string(&path)
            .unwrap()
            .replace("\"#/$defs/", &format!("\"#/$defs/{name}/$defs/"))
            .replace("\"common.schema.json#/", "\"#/$defs/common/");
        let mut schema: Value = serde_json::from_str(&text).unwrap();
        schema.as_object_mut().unwrap().remove("$schema");
        if name != "common" {
            let props = schema["properties"].as_object_mut().unwrap();
            props.insert(
                "id".into(),
                json!({ "type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$" }),
            );
            props.insert("kind".into(), json!({ "const": name }));
            props.insert("name".into(), json!({ "type": "string", "minLength": 1 }));
            props.insert("copies".into(), json!({ "type": "integer", "minimum": 1 }));
            branches.push(json!({ "if": { "properties": { "kind": { "const": name } } }, "then": { "$ref": format!("#/$defs/{name}") } }));
        }
        defs.insert(name, schema);
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": false,
        "required": ["card"],
        "properties": { "card": { "type": "array", "items": { "type": "object", "required": ["id", "kind", "name"], "allOf": branches } } },
        "$defs": defs,
    })
}
