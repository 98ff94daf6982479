//! `carta build`, `carta decompile` and `carta inspect`: round trips of the
//! shipped games, determinism, atomicity, damaged bundles, and a reader in
//! another language.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Map, Value};

use crate::harness::{Workspace, copy_tree, repo, run_in};

const GAMES: [&str; 5] = ["covil", "exodo", "intrepidos", "kingdoms", "zodiacos"];

fn bundle_of(root: &Path, game: &str) -> PathBuf {
    root.join(format!("build/{game}/{game}.carta"))
}

/// A TOML value as JSON, keeping integers and floats apart.
fn toml_to_json(v: &toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s.clone()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Float(f) => Value::from(*f),
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.iter().map(toml_to_json).collect()),
        toml::Value::Table(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.clone(), toml_to_json(v)))
                .collect(),
        ),
    }
}

/// Every card of the game's card files, parsed straight from the TOML, by id.
fn source_cards(root: &Path, game: &str) -> Map<String, Value> {
    let mut files = Vec::new();
    let mut stack = vec![root.join("cards").join(game)];
    while let Some(dir) = stack.pop() {
        for e in fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() && p.file_name().unwrap() != "decks" {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "toml")
                && p.file_name().unwrap() != "game.toml"
            {
                files.push(p);
            }
        }
    }
    let mut cards = Map::new();
    for file in files {
        let doc: toml::Table = toml::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
        for card in doc
            .get("card")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
        {
            let json = toml_to_json(card);
            let id = json["id"].as_str().unwrap().to_owned();
            assert!(cards.insert(id, json).is_none());
        }
    }
    cards
}

/// The deck files of the game, as the bundle holds them.
fn source_decks(root: &Path, game: &str) -> Value {
    let dir = root.join("cards").join(game).join("decks");
    let mut files: Vec<PathBuf> = match fs::read_dir(&dir) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    let decks = files.iter().map(|file| {
        let mut doc: toml::Table = toml::from_str(&fs::read_to_string(file).unwrap()).unwrap();
        let name = doc.remove("name").unwrap();
        doc.remove("game").unwrap();
        let rel = file.strip_prefix(root).unwrap().to_str().unwrap().replace('\\', "/");
        serde_json::json!({ "name": toml_to_json(&name), "file": rel, "zones": toml_to_json(&toml::Value::Table(doc)) })
    });
    Value::Array(decks.collect())
}

fn decompile(root: &Path, game: &str) -> Value {
    let run = run_in(root, ["decompile", &format!("build/{game}/{game}.carta")]).succeeds();
    serde_json::from_str(&run.stdout).unwrap()
}

#[test]
fn decompiling_the_bundle_of_every_shipped_game_gives_back_its_sources() {
    let ws = Workspace::shipped(&[]);
    ws.run(["build"])
        .succeeds()
        .stderr_has("built bundles and sheets of 5 games");
    for game in GAMES {
        let json = decompile(ws.path(), game);
        let mut cards = Map::new();
        for card in json["cards"].as_array().unwrap() {
            // Translations are not in the card files but in `i18n/`.
            let mut card = card.clone();
            card.as_object_mut().unwrap().remove("i18n");
            cards.insert(card["id"].as_str().unwrap().to_owned(), card);
        }
        let sources = source_cards(ws.path(), game);
        assert!(sources.len() > 5, "{game} has cards");
        // serde_json tells 1 from 1.0, so this compares types too
        assert_eq!(cards, sources, "{game}: the cards differ from the sources");
        // the manifest as carta reads it (defaults filled in) ...
        let text = ws.read(&format!("cards/{game}/game.toml"));
        let manifest: carta::config::Manifest = toml::from_str(&text).unwrap();
        let expected = serde_json::to_value(&manifest).unwrap();
        // The labels (from the schemas) and the manifest's translations
        // (from `i18n/`) are beside the manifest's own keys.
        let mut stored = json["game"].clone();
        let map = stored.as_object_mut().unwrap();
        assert!(map.remove("labels").is_some(), "{game} labels enum values");
        map.remove("i18n");
        assert!(
            same_up_to_number_type(&stored, &expected),
            "{game}: manifest {stored} is not {expected}"
        );
        // ... with every value the manifest writes stored as written (type too)
        let written = toml_to_json(&toml::from_str::<toml::Value>(&text).unwrap());
        assert_written(&json["game"], &written, game);
        assert_eq!(
            json["decks"],
            source_decks(ws.path(), game),
            "{game}: decks"
        );
    }
}

/// Whether `a` and `b` are equal, an integer equalling the same float.
fn same_up_to_number_type(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_up_to_number_type(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, a), (kb, b))| ka == kb && same_up_to_number_type(a, b))
        }
        _ => a == b,
    }
}

/// Every scalar of `written` is in `stored` at the same place, with its type.
fn assert_written(stored: &Value, written: &Value, at: &str) {
    match written {
        Value::Object(map) => {
            for (k, v) in map {
                assert_written(&stored[k.as_str()], v, &format!("{at}.{k}"));
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                assert_written(&stored[i], v, &format!("{at}[{i}]"));
            }
        }
        _ => assert_eq!(stored, written, "{at} is not stored as written"),
    }
}

/// A one-game workspace whose kind `k` accepts any field.
fn free_form_game() -> Workspace {
    let ws = Workspace::empty();
    ws.write(
        "cards/g/game.toml",
        "id = \"g\"\nname = \"G\"\nlanguage = \"en\"\n[kinds.k]\nname = \"K\"\n",
    );
    ws.write("schemas/g/k.schema.json", r#"{"type": "object"}"#);
    ws
}

#[test]
fn integers_and_floats_keep_their_types_through_a_bundle() {
    let ws = free_form_game();
    let source = "[[card]]\nid = \"t\"\nkind = \"k\"\nname = \"Tipos\"\ncopies = 2\n\
        one = 1\none_f = 1.0\nhalf = 0.5\nneg = -7\nbig = 9007199254740993\nyes = true\n\
        mixed = [1, 2.0, \"três\", [false]]\nnested = { a = { b = [{ c = 1e3 }] } }\n";
    ws.write("cards/g/c.toml", source);
    ws.run(["build"]).succeeds();
    let run = ws.run(["decompile", "build/g/g.carta"]).succeeds();
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    let card = &json["cards"][0];
    assert_eq!(card, &source_cards(ws.path(), "g")["t"]);
    assert!(card["one"].is_i64() && card["one_f"].is_f64() && card["big"].is_i64());
    assert_eq!(card["big"].as_i64(), Some(9_007_199_254_740_993));
    for text in [
        "\"one\": 1,",
        "\"one_f\": 1.0,",
        "\"c\": 1000.0",
        "\"copies\": 2,",
    ] {
        assert!(run.stdout.contains(text), "{text} in {}", run.stdout);
    }
}

#[test]
fn the_same_sources_give_byte_identical_bundles_wherever_they_lie() {
    let a = Workspace::shipped(&[]);
    a.run(["build"]).succeeds();
    let first: Vec<Vec<u8>> = GAMES
        .iter()
        .map(|g| fs::read(bundle_of(a.path(), g)).unwrap())
        .collect();
    a.run(["build"]).succeeds();
    let b = Workspace::empty();
    copy_tree(&a.path().join("cards"), &b.path().join("cards"));
    copy_tree(&a.path().join("schemas"), &b.path().join("schemas"));
    b.run(["build", "--out", "elsewhere"]).succeeds();
    for (game, bytes) in GAMES.iter().zip(first) {
        assert_eq!(
            fs::read(bundle_of(a.path(), game)).unwrap(),
            bytes,
            "{game} rebuilt"
        );
        let moved = b.path().join(format!("elsewhere/{game}/{game}.carta"));
        assert_eq!(fs::read(moved).unwrap(), bytes, "{game} built elsewhere");
    }
}

#[test]
fn the_source_hash_follows_the_sources() {
    let ws = Workspace::shipped(&["intrepidos"]);
    let hash = |ws: &Workspace| {
        ws.run(["build"]).succeeds();
        let run = ws
            .run(["inspect", "build/intrepidos/intrepidos.carta"])
            .succeeds();
        let line = run.stdout.lines().find(|l| l.starts_with("sources"));
        line.unwrap().to_owned()
    };
    let mut seen = vec![hash(&ws)];
    // a comment in each kind of source file changes the hash
    for file in [
        "cards/intrepidos/game.toml",
        "cards/intrepidos/itens/pocoes.toml",
        "cards/intrepidos/decks/furia-de-aries.toml",
    ] {
        let text = ws.read(file);
        ws.write(file, format!("{text}\n# a comment\n"));
        let now = hash(&ws);
        assert!(!seen.contains(&now), "changing {file} changes the hash");
        seen.push(now);
    }
    let schema = "schemas/intrepidos/potion.schema.json";
    let text = ws.read(schema);
    ws.write(schema, format!("{text}\n"));
    assert!(
        !seen.contains(&hash(&ws)),
        "changing {schema} changes the hash"
    );
}

#[test]
fn a_failed_build_shows_the_lines_of_card_files_whose_text_it_did_not_keep() {
    let ws = Workspace::shipped(&["intrepidos"]);
    // The same id as a card of `pocoes.toml`, written differently: the
    // error is in the new file, its "first defined here" label in
    // `pocoes.toml`, whose text the build did not keep (it has nothing to
    // report itself) and reads back to show it.
    ws.write(
        "cards/intrepidos/itens/zz-copia.toml",
        "[[card]]\nid='pocao-de-cura'\nkind = \"potion\"\nname = \"Cópia\"\nclass = \"cura\"\nmin_level = 1\neffect = \"x\"\n",
    );
    let run = ws.run(["build"]).fails();
    let run = run.stderr_has("first defined here");
    run.stderr_has("itens/pocoes.toml")
        .stderr_has("id = \"pocao-de-cura\"");
}

#[test]
fn a_rebuild_from_the_build_cache_sees_every_change_and_writes_the_same_bundle() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["build"]).succeeds();
    assert!(ws.path().join("build/.cache/intrepidos.all").is_dir());
    let file = "cards/intrepidos/itens/pocoes.toml";
    ws.write(
        file,
        ws.read(file)
            .replace("\"Poção de Cura\"", "\"Poção de Cura Maior\""),
    );
    ws.run(["build"]).succeeds();
    let names: Vec<Value> = decompile(ws.path(), "intrepidos")["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].clone())
        .collect();
    assert!(
        names.contains(&Value::from("Poção de Cura Maior")),
        "{names:?}"
    );
    let cached = fs::read(bundle_of(ws.path(), "intrepidos")).unwrap();
    ws.run(["build", "--no-cache"]).succeeds();
    assert_eq!(
        fs::read(bundle_of(ws.path(), "intrepidos")).unwrap(),
        cached,
        "the cache changes nothing in the bundle"
    );
}

#[test]
fn a_failed_build_writes_nothing_and_keeps_the_previous_bundle() {
    let ws = Workspace::shipped(&["intrepidos", "zodiacos"]);
    ws.run(["build"]).succeeds();
    let path = bundle_of(ws.path(), "intrepidos");
    let before = fs::read(&path).unwrap();
    let zodiacos_before = fs::read(bundle_of(ws.path(), "zodiacos")).unwrap();
    ws.write(
        "cards/intrepidos/itens/pocoes.toml",
        "[[card]]\nid = \"x\"\nkind = \"potion\"\nname = \"X\"\nclass = 3\n",
    );
    ws.write("cards/zodiacos/extra.toml", "# a change that builds\n");
    ws.run(["build"]).fails().stderr_has("nothing written");
    assert_eq!(fs::read(&path).unwrap(), before);
    assert_eq!(
        fs::read(bundle_of(ws.path(), "zodiacos")).unwrap(),
        zodiacos_before,
        "an error in one game writes no game"
    );
    for game in ["intrepidos", "zodiacos"] {
        let mut names: Vec<_> = fs::read_dir(ws.path().join("build").join(game))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        let mut expected = vec![format!("{game}.carta"), "sheets".to_owned()];
        expected.sort();
        assert_eq!(names, expected, "no temporary file is left");
    }
    let fresh = Workspace::shipped(&["intrepidos"]);
    fresh.write(
        "cards/intrepidos/itens/pocoes.toml",
        "[[card]]\nid = \"x\"\nkind = \"potion\"\nname = \"X\"\nclass = 3\n",
    );
    fresh.run(["build"]).fails();
    // Only the cache of the files it read, as `carta check` leaves it.
    let left: Vec<_> = fs::read_dir(fresh.path().join("build"))
        .map(|d| d.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(left.iter().all(|n| n == ".cache"), "{left:?}");
}

#[test]
fn build_takes_games_and_an_output_folder() {
    let ws = Workspace::shipped(&["intrepidos", "zodiacos"]);
    ws.run(["build", "zodiacos", "--out", "out/x"]).succeeds();
    assert!(ws.path().join("out/x/zodiacos/zodiacos.carta").is_file());
    assert!(!ws.path().join("out/x/intrepidos").exists());
    ws.run(["build", "zodiac"])
        .code(2)
        .stderr_has("did you mean `zodiacos`?");
    // -C: the output folder is relative to the workspace
    let root = ws.path().to_owned();
    run_in(
        &root.join("cards"),
        ["-C", root.to_str().unwrap(), "build", "intrepidos"],
    )
    .succeeds();
    assert!(bundle_of(&root, "intrepidos").is_file());
}

#[test]
fn inspect_summarizes_a_bundle() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["build"]).succeeds();
    ws.run(["inspect", "build/intrepidos/intrepidos.carta"])
        .succeeds()
        .stdout_has("game      intrepidos: Zodiacus Intrépidos (pt-BR)")
        .stdout_has(&format!("written by carta {}", env!("CARGO_PKG_VERSION")))
        .stdout_has("  intrepido      12  Intrépido")
        .stdout_has("sources   sha256 ")
        .stdout_has("sections  header 128, game ");
}

/// Rewrites both checksums, following docs/bundle-format.md.
fn fix_checksums(b: &mut [u8]) {
    let payload = crc32fast::hash(&b[128..]);
    b[84..88].copy_from_slice(&payload.to_le_bytes());
    let header = crc32fast::hash(&b[..124]);
    b[124..128].copy_from_slice(&header.to_le_bytes());
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

/// A bundle of the one-card game whose only record is replaced by `record`.
fn with_record(valid: &[u8], record: &[u8]) -> Vec<u8> {
    rebuilt(valid, None, None, Some(record))
}

/// A bundle of a one-card game with its game section, decks section or
/// only record replaced, the index and block table following, the
/// checksums fixed.
fn rebuilt(
    valid: &[u8],
    game: Option<&[u8]>,
    decks: Option<&[u8]>,
    record: Option<&[u8]>,
) -> Vec<u8> {
    let payload = &valid[128..];
    let section = |i: usize| {
        let (off, len) = (u32_at(valid, 88 + 8 * i), u32_at(valid, 92 + 8 * i));
        &payload[off..off + len]
    };
    let old_cards = section(3);
    let old_record;
    let record = if let Some(r) = record {
        r
    } else {
        let (stored, raw) = (u32_at(old_cards, 8), u32_at(old_cards, 12));
        let mut z = flate2::read::ZlibDecoder::new(&old_cards[16..16 + stored]);
        let mut bytes = Vec::with_capacity(raw);
        std::io::Read::read_to_end(&mut z, &mut bytes).unwrap();
        old_record = bytes;
        &old_record
    };
    // the one index entry: id offset, id length, block, record offset, record length
    let mut index = section(2).to_vec();
    index[20..24].copy_from_slice(&(record.len() as u32).to_le_bytes());
    // one block: count, then offset, stored length, inflated length, then zlib
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut z, record).unwrap();
    let stored = z.finish().unwrap();
    let mut cards = Vec::new();
    for n in [1, 16, stored.len(), record.len()] {
        cards.extend_from_slice(&(n as u32).to_le_bytes());
    }
    cards.extend_from_slice(&stored);
    let mut out = valid[..128].to_vec();
    let mut new_payload = Vec::new();
    let sections = [
        game.unwrap_or(section(0)),
        decks.unwrap_or(section(1)),
        &index,
        &cards,
    ];
    for (i, bytes) in sections.iter().enumerate() {
        out[88 + 8 * i..92 + 8 * i].copy_from_slice(&(new_payload.len() as u32).to_le_bytes());
        out[92 + 8 * i..96 + 8 * i].copy_from_slice(&(bytes.len() as u32).to_le_bytes());
        new_payload.extend_from_slice(bytes);
    }
    out[80..84].copy_from_slice(&(new_payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&new_payload);
    fix_checksums(&mut out);
    out
}

/// A record `{id: "x", kind: "k", name: "X", fields: {f: <value>}}`.
fn record(value: &[u8]) -> Vec<u8> {
    let mut r = vec![0x84];
    for s in ["id", "x", "kind", "k", "name", "X", "fields"] {
        r.push(0xa0 | s.len() as u8);
        r.extend_from_slice(s.as_bytes());
    }
    r.extend_from_slice(&[0x81, 0xa1, b'f']);
    r.extend_from_slice(value);
    r
}

/// A free-form game of one card, built: its workspace and its bundle.
fn one_card_bundle() -> (Workspace, Vec<u8>) {
    let ws = free_form_game();
    ws.write(
        "cards/g/c.toml",
        "[[card]]\nid = \"x\"\nkind = \"k\"\nname = \"X\"\nf = 1\n",
    );
    ws.run(["build"]).succeeds();
    let valid = fs::read(bundle_of(ws.path(), "g")).unwrap();
    (ws, valid)
}

#[test]
fn damaged_and_hostile_bundles_are_refused_with_exit_1() {
    let (ws, valid) = one_card_bundle();
    assert_eq!(
        with_record(&valid, &record(&[1])),
        valid,
        "the crafting follows the format"
    );

    let mut flipped = valid.clone();
    flipped[valid.len() - 3] ^= 0x10;
    let mut version = valid.clone();
    version[8] = 9;
    fix_checksums(&mut version);
    let mut magic = valid.clone();
    magic[0] = b'{';
    let mut deep = vec![0x91; 100_000];
    deep.push(1);
    let huge_str = [&[0xdb][..], &0xffff_fff0_u32.to_be_bytes()].concat();
    let huge_array = [&[0xdd][..], &0xffff_fff0_u32.to_be_bytes(), &[1]].concat();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated", valid[..valid.len() - 10].to_vec(), "truncated"),
        ("truncated header", valid[..40].to_vec(), "truncated"),
        ("bit-flipped", flipped, "payload checksum"),
        (
            "wrong version",
            version,
            "format version 9 is not supported",
        ),
        ("wrong magic", magic, "not a carta bundle"),
        ("empty", Vec::new(), "not a carta bundle"),
        (
            "100,000-deep nesting",
            with_record(&valid, &record(&deep)),
            "nest deeper than 64",
        ),
        (
            "a 4 GiB string",
            with_record(&valid, &record(&huge_str)),
            "damaged",
        ),
        (
            "a 4-billion-item array",
            with_record(&valid, &record(&huge_array)),
            "damaged",
        ),
    ];
    for (name, bytes, message) in cases {
        ws.write("hostile.carta", &bytes);
        for command in ["decompile", "inspect"] {
            let run = ws.run([command, "hostile.carta"]);
            assert_eq!(run.code, Some(1), "{command} of {name}: {}", run.stderr);
            assert!(
                run.stderr.contains(message),
                "{command} of {name}: {}",
                run.stderr
            );
            assert!(
                run.stdout.is_empty(),
                "{command} of {name} printed {}",
                run.stdout
            );
        }
    }
    ws.run(["decompile", "no-such.carta"])
        .code(2)
        .stderr_has("cannot read");
}

/// Python must have the stock `msgpack` package; the project's install
/// script provides it.
/// What `tests/python/read_bundle.py BUNDLE ARGS…` prints, as JSON.
pub(crate) fn python_reads(bundle: &Path, args: &[&str]) -> Value {
    let out = Command::new(python_with_msgpack())
        .arg(repo().join("tests/python/read_bundle.py"))
        .arg(bundle)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        bundle.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn python_with_msgpack() -> &'static str {
    let ok = || {
        Command::new("python3")
            .args(["-c", "import msgpack"])
            .status()
            .is_ok_and(|s| s.success())
    };
    if !ok() {
        let status = Command::new("bash")
            .arg(repo().join("scripts/install-test-deps.sh"))
            .status()
            .unwrap();
        assert!(
            status.success() && ok(),
            "scripts/install-test-deps.sh did not install msgpack"
        );
    }
    "python3"
}

/// Runs the Python reader written from the spec on the bundle at `path`.
fn read_in_python(path: &Path) -> std::process::Output {
    Command::new(python_with_msgpack())
        .arg(repo().join("tests/python/read_bundle.py"))
        .arg(path)
        .output()
        .unwrap()
}

#[test]
fn a_python_reader_written_from_the_spec_finds_every_card() {
    let ws = Workspace::shipped(&[]);
    ws.run(["build"]).succeeds();
    for game in GAMES {
        let out = read_in_python(&bundle_of(ws.path(), game));
        assert!(
            out.status.success(),
            "{game}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let read: Value = serde_json::from_slice(&out.stdout).unwrap();
        let expected = decompile(ws.path(), game);
        assert_eq!(read, expected, "{game}: Python reads what carta decompiles");
        let n = read["cards"].as_array().unwrap().len();
        assert_eq!(n, source_cards(ws.path(), game).len(), "{game}");
    }
}

#[test]
fn the_python_example_in_the_format_spec_runs() {
    let python = python_with_msgpack();
    let spec = std::fs::read_to_string(repo().join("docs/bundle-format.md")).unwrap();
    let code = spec
        .split("```python\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/bundle-format.md has a Python example");
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["build"]).succeeds();
    let out = Command::new(python)
        .args(["-c", code])
        .current_dir(ws.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.starts_with("Zodiacus Intrépidos {'class': 'escudo'"),
        "{stdout}"
    );
}

/// A one-card game with every part of the manifest the game section stores:
/// print settings, icons, a kind's print settings, zones, deck and box
/// rules, and a deck.
fn full_game() -> Workspace {
    let ws = free_form_game();
    ws.write(
        "cards/g/game.toml",
        r#"id = "g"
name = "G"
language = "en"
[print]
margin = 5
gutter = 1.5
[icons]
AC = { label = "attack", svg = '<svg xmlns="http://www.w3.org/2000/svg"/>' }
[kinds.k]
name = "K"
[kinds.k.print]
size = "poker"
bleed = 2
[zones.main]
name = "Main"
kinds = ["k"]
[[deck-rules]]
id = "size"
name = "Size"
size = { min = 1 }
[[box-rules]]
id = "box"
name = "Box"
count = { filter = { kind = "k" }, min = 1 }
"#,
    );
    ws.write(
        "cards/g/c.toml",
        "[[card]]\nid = \"x\"\nkind = \"k\"\nname = \"X\"\ncopies = 2\nf = 1\n",
    );
    ws.write(
        "cards/g/decks/d.toml",
        "game = \"g\"\nname = \"D\"\n\n[main]\nx = 2\n",
    );
    ws.run(["build"]).succeeds();
    ws
}

/// Adds the key `x-future` (a map, as a later version might add) to the map
/// at `pointer`.
fn add_unknown(value: &mut Value, pointer: &str) {
    let target = value
        .pointer_mut(pointer)
        .and_then(Value::as_object_mut)
        .unwrap_or_else(|| panic!("{pointer} is a map"));
    target.insert(
        "x-future".into(),
        serde_json::json!({"added-in": "1.7", "values": [1, 2.5, "three"]}),
    );
}

#[test]
fn every_reader_ignores_or_keeps_unknown_keys_of_a_newer_minor_version_as_the_spec_says() {
    let ws = full_game();
    let path = bundle_of(ws.path(), "g");
    let valid = fs::read(&path).unwrap();
    let payload = &valid[128..];
    let section = |i: usize| {
        let (off, len) = (u32_at(&valid, 88 + 8 * i), u32_at(&valid, 92 + 8 * i));
        &payload[off..off + len]
    };
    let original = carta::bundle::Bundle::from_bytes(valid.clone()).unwrap();
    let original_json = original.to_json().unwrap();
    assert_eq!(
        original_json["game"]["print"]["margin"],
        Value::from(5),
        "an integer stays an integer"
    );

    // Unknown keys at every level of the game section, `language` left out.
    let mut game: Value = rmp_serde::from_slice(section(0)).unwrap();
    for pointer in [
        "",
        "/print",
        "/icons/AC",
        "/kinds/k",
        "/kinds/k/print",
        "/zones/main",
        "/deck-rules/0",
        "/deck-rules/0/size",
        "/box-rules/0",
        "/box-rules/0/count",
    ] {
        add_unknown(&mut game, pointer);
    }
    game.as_object_mut().unwrap().shift_remove("language");
    let mut decks: Value = rmp_serde::from_slice(section(1)).unwrap();
    add_unknown(&mut decks, "/0");
    let record = serde_json::json!({
        "id": "x", "kind": "k", "name": "X", "copies": 2,
        "x-future": {"a": [1]}, "fields": {"f": 1},
    });
    let mut future = rebuilt(
        &valid,
        Some(&rmp_serde::to_vec_named(&game).unwrap()),
        Some(&rmp_serde::to_vec_named(&decks).unwrap()),
        Some(&rmp_serde::to_vec_named(&record).unwrap()),
    );
    future[10..12].copy_from_slice(&7u16.to_le_bytes());
    fix_checksums(&mut future);

    // The library: the typed views ignore the unknowns, `game()` keeps them.
    let bundle = carta::bundle::Bundle::from_bytes(future.clone()).unwrap();
    assert_eq!(bundle.header().format_minor, 7);
    let mut expected_manifest = original.manifest().clone();
    expected_manifest.language = "und".into();
    assert_eq!(bundle.manifest(), &expected_manifest);
    assert_eq!(bundle.game(), &game);
    assert_eq!(bundle.decks(), original.decks());
    assert_eq!(bundle.card("x").unwrap(), original.card("x").unwrap());

    // `decompile`: game and decks as stored, cards as written in TOML.
    ws.write("future.carta", &future);
    let run = ws.run(["decompile", "future.carta"]).succeeds();
    let decompiled: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(decompiled["game"], game);
    assert_eq!(decompiled["decks"], decks);
    assert_eq!(decompiled["cards"], original_json["cards"]);

    // `inspect` reads it and names the minor version.
    ws.run(["inspect", "future.carta"])
        .succeeds()
        .stdout_has("format    version 1.7")
        .stdout_has("game      g: G (und)");

    // The Python reader written from the spec prints what `decompile` does.
    let out = read_in_python(&ws.path().join("future.carta"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(read, decompiled);

    // A new major version is refused by every reader.
    let mut major = future.clone();
    major[8..10].copy_from_slice(&2u16.to_le_bytes());
    fix_checksums(&mut major);
    ws.write("major.carta", &major);
    ws.run(["decompile", "major.carta"])
        .code(1)
        .stderr_has("format version 2 is not supported");
    let out = read_in_python(&ws.path().join("major.carta"));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn game_texts_of_the_wrong_types_are_refused_by_every_reader() {
    let (ws, valid) = one_card_bundle();
    let game = carta::bundle::Bundle::from_bytes(valid.clone())
        .unwrap()
        .game()
        .clone();
    let cases = [
        ("labels", serde_json::json!({"fogo": 3})),
        ("i18n", serde_json::json!({"en": {"kinds": {"k": "K"}}})),
        (
            "i18n",
            serde_json::json!({"en": {"labels": {"fogo": ["Fire"]}}}),
        ),
    ];
    for (key, value) in cases {
        let mut crafted = game.clone();
        crafted[key] = value.clone();
        let section = rmp_serde::to_vec_named(&crafted).unwrap();
        ws.write("crafted.carta", rebuilt(&valid, Some(&section), None, None));
        for command in ["decompile", "inspect"] {
            ws.run([command, "crafted.carta"])
                .code(1)
                .stderr_has(&format!("{key}:"));
        }
        let out = read_in_python(&ws.path().join("crafted.carta"));
        assert_eq!(out.status.code(), Some(1), "Python of {key} = {value}");
    }
    // Well typed, with keys a later version may add, they read.
    let mut later = game.clone();
    later["i18n"] =
        serde_json::json!({"en": {"kinds": {"k": {"name": "K", "later": "x"}}, "later": {}}});
    let section = rmp_serde::to_vec_named(&later).unwrap();
    ws.write("later.carta", rebuilt(&valid, Some(&section), None, None));
    let bundle = carta::bundle::Bundle::open(ws.path().join("later.carta")).unwrap();
    assert_eq!(bundle.manifest_in("en").kinds["k"].name, "K");
    assert_eq!(
        read_in_python(&ws.path().join("later.carta")).status.code(),
        Some(0)
    );
}

#[test]
fn a_record_that_breaks_the_record_rules_is_refused_by_every_reader() {
    let (ws, valid) = one_card_bundle();
    let crafted = |record: Value| {
        rebuilt(
            &valid,
            None,
            None,
            Some(&rmp_serde::to_vec_named(&record).unwrap()),
        )
    };
    let cases = [
        (
            "a field named `id`",
            crafted(
                serde_json::json!({"id": "x", "kind": "k", "name": "X", "fields": {"id": "evil"}}),
            ),
            "holds `id`",
        ),
        (
            "a field named `name`",
            crafted(
                serde_json::json!({"id": "x", "kind": "k", "name": "X", "fields": {"name": "Evil"}}),
            ),
            "holds `name`",
        ),
        (
            "a kind the game does not declare",
            crafted(serde_json::json!({"id": "x", "kind": "ghost", "name": "X", "fields": {}})),
            "kind `ghost`",
        ),
        (
            "copies out of range",
            crafted(
                serde_json::json!({"id": "x", "kind": "k", "name": "X", "copies": 0, "fields": {}}),
            ),
            "`copies`",
        ),
        (
            "no name",
            crafted(serde_json::json!({"id": "x", "kind": "k", "fields": {}})),
            "no `name`",
        ),
        ("a nil", with_record(&valid, &record(&[0xc0])), "nil"),
        (
            "a float 32",
            with_record(&valid, &record(&[0xca, 0x3f, 0x80, 0, 0])),
            "float 32",
        ),
        (
            "binary",
            with_record(&valid, &record(&[0xc4, 1, 0])),
            "binary",
        ),
        (
            "an extension",
            with_record(&valid, &record(&[0xd4, 1, 0])),
            "extension",
        ),
        (
            "a key that runs past the record",
            with_record(&valid, &[0x81, 0xd9, 0xff, b'i', b'd']),
            "runs past the end",
        ),
        (
            "a string that is not UTF-8",
            with_record(&valid, &record(&[0xa2, 0xff, 0xfe])),
            "not UTF-8",
        ),
        (
            "an infinite float",
            with_record(&valid, &record(&[0xcb, 0x7f, 0xf0, 0, 0, 0, 0, 0, 0])),
            "not finite",
        ),
    ];
    for (name, bytes, message) in cases {
        ws.write("crafted.carta", &bytes);
        for command in ["decompile", "inspect"] {
            ws.run([command, "crafted.carta"])
                .code(1)
                .stderr_has(message);
        }
        let out = read_in_python(&ws.path().join("crafted.carta"));
        assert_eq!(
            out.status.code(),
            Some(1),
            "Python of {name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn the_game_section_carries_parsed_card_text_and_translated_keywords() {
    let ws = Workspace::empty();
    ws.run(["init", "--game", "duel"]).succeeds();
    let game = ws.read("cards/duel/game.toml");
    ws.write(
        "cards/duel/game.toml",
        game.replace("language = \"en\"", "language = \"en\"\ntranslations = [\"pt-BR\"]"),
    )
    .write(
        "cards/duel/i18n/pt-BR.toml",
        "[keywords.burn]\nname = { text = \"Queimar\" }\n\n[cards.fireball]\neffect = { text = \"Cause 4 de dano. Ganha [[burn]].\" }\n",
    );
    ws.run(["build"]).succeeds();
    let json = decompile(ws.path(), "duel");
    let game = &json["game"];
    assert_eq!(game["keywords"]["burn"]["name"], "Burn");
    assert_eq!(
        game["markup"]["fireball"]["effect"],
        serde_json::json!([{"t": "Deal 4 damage to a hero. It gains "}, {"k": "burn"}, {"t": "."}])
    );
    assert_eq!(
        game["markup"]["mist-step"]["effect"],
        serde_json::json!([{"t": "Draw a card. "}, {"i": [{"t": "The mist hides you."}]}])
    );
    assert!(
        game["markup"].get("tide").is_none(),
        "plain text is not repeated"
    );
    let pt = &game["i18n"]["pt-BR"];
    assert_eq!(pt["keywords"]["burn"]["name"], "Queimar");
    assert_eq!(
        pt["markup"]["fireball"]["effect"][1],
        serde_json::json!({"k": "burn"})
    );
}

#[test]
fn a_rebuild_writes_the_bytes_a_build_without_caches_writes() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.run(["build"]).succeeds();
    let file = "cards/intrepidos/itens/pocoes.toml";
    let fresh = |ws: &Workspace| {
        ws.run(["build", "--no-cache", "--out", "fresh"]).succeeds();
        fs::read(ws.path().join("fresh/intrepidos/intrepidos.carta")).unwrap()
    };
    for (from, to) in [
        ("\"Poção de Cura\"", "\"Poção de Cura Maior\""),
        ("Maior\"", "Menor\""),
    ] {
        ws.write(file, ws.read(file).replace(from, to));
        ws.run(["build"]).succeeds();
        let rebuilt = fs::read(bundle_of(ws.path(), "intrepidos")).unwrap();
        assert_eq!(rebuilt, fresh(&ws), "a rebuild after `{to}`");
    }
}

#[test]
fn a_card_s_errata_and_version_reach_the_bundle_and_every_reader_reads_them() {
    use crate::sheets::{card, mini};
    let errata = "[[card.errata]]\nversion = \"1.2\"\ndate = 2025-01-15\nnote = \"Texto novo.\"\nwas = { text = \"velho\" }\n\n[[card.errata]]\nversion = \"1.10\"\ndate = \"2025-06-01\"\n";
    let ws = mini(&format!(
        "{}\n{errata}\n{}",
        card("a", "text = \"novo\""),
        card("b", "text = \"igual\"")
    ));
    ws.run(["build"]).succeeds();
    let path = bundle_of(ws.path(), "mini");
    let bundle = carta::bundle::Bundle::open(&path).unwrap();
    assert_eq!(bundle.header().format_minor, 5);
    let a = bundle.card("a").unwrap().unwrap();
    assert_eq!(a.version.as_deref(), Some("1.10"), "the latest by number");
    assert_eq!(a.errata.len(), 2);
    assert_eq!(a.errata[0].was["text"], "velho");
    assert_eq!(a.errata[1].note, "", "a note not written is empty");
    let b = bundle.card("b").unwrap().unwrap();
    assert!(b.version.is_none() && b.errata.is_empty());

    let decompiled = decompile(ws.path(), "mini");
    let card_a = &decompiled["cards"][0];
    assert_eq!(card_a["id"], "a");
    assert_eq!(card_a["errata"][0]["date"], "2025-01-15");
    assert_eq!(card_a["errata"][1]["version"], "1.10");
    assert!(decompiled["cards"][1].get("errata").is_none());
    // The reader written from the spec checks `version` against the
    // entries itself, and reads what carta decompiles.
    assert_eq!(python_reads(&path, &[]), decompiled);

    let before = fs::read(&path).unwrap();
    ws.run(["build", "--no-cache"]).succeeds();
    assert_eq!(fs::read(&path).unwrap(), before, "byte for byte again");
}
