//! Writes a large workspace from a real game: a shipped pack's (or, with
//! `--from`, another workspace's) manifest, schemas, templates, icons and
//! art, and its cards replicated until there are
//! as many as asked, so that carta is measured on real schemas (`$ref`,
//! `oneOf`, `x-carta-ref`) and not only on the synthetic game.
//!
//! Replica `k` holds every card of the pack with `-r<k>` added to its id and
//! to every string that names a card id (references stay inside the
//! replica), all in one file (`cards/<game>/r<k>.toml`); each example deck
//! is replicated the same way. The pack's box rules are dropped (they count
//! the box: "exactly 12 intrépidos"); its deck rules are kept.
//!
//! ```text
//! cargo run --release --example replicate -- --game intrepidos --cards 20000 --out /tmp/real
//! carta -C /tmp/real check
//! ```

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use toml::{Table, Value};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let (Some(game), Some(cards), Some(out)) = (flag("--game"), flag("--cards"), flag("--out"))
    else {
        eprintln!("usage: replicate --game GAME --cards N --out DIR [--from WORKSPACE]");
        std::process::exit(2);
    };
    let from = PathBuf::from(flag("--from").unwrap_or_else(|| ".".into()));
    let wanted: usize = cards.parse().expect("--cards takes a number");
    let out = PathBuf::from(out);
    let written = replicate(&from, &game, wanted, &out);
    println!("{written} cards of `{game}` in {}", out.display());
}

/// Writes the workspace; returns the number of cards written.
fn replicate(from: &Path, game: &str, wanted: usize, out: &Path) -> usize {
    let src = from.join("cards").join(game);
    let mut files = Vec::new();
    walk(&src, &mut files);
    files.sort();
    let (mut cards, mut decks) = (Vec::new(), Vec::new());
    for f in &files {
        let text = fs::read_to_string(f).expect("a readable pack file");
        let table: Table = toml::from_str(&text).expect("a pack file that parses");
        if f.parent().is_some_and(|p| p.ends_with("decks")) {
            decks.push((f.file_stem().unwrap().to_string_lossy().into_owned(), table));
        } else if let Some(Value::Array(list)) = table.get("card") {
            cards.extend(list.iter().cloned());
        }
    }
    let ids: BTreeSet<String> = cards
        .iter()
        .filter_map(|c| c.get("id").and_then(Value::as_str).map(str::to_owned))
        .collect();
    let dest = out.join("cards").join(game);
    fs::create_dir_all(dest.join("decks")).unwrap();
    let mut manifest: Table =
        toml::from_str(&fs::read_to_string(src.join("game.toml")).unwrap()).unwrap();
    manifest.remove("box-rules");
    fs::write(dest.join("game.toml"), toml::to_string(&manifest).unwrap()).unwrap();
    for dir in ["schemas", "templates"] {
        copy_dir(&from.join(dir).join(game), &out.join(dir).join(game));
    }
    // Icons, and the starter game's pictures (`carta init`), which its
    // cards name.
    for dir in ["icons", "art"] {
        copy_dir(&src.join(dir), &dest.join(dir));
    }

    let mut written = 0;
    let mut k = 0;
    while written < wanted {
        let suffix = format!("-r{k}");
        let take = (wanted - written).min(cards.len());
        let replica: Vec<Value> = cards[..take]
            .iter()
            .map(|c| rename(c, &ids, &suffix))
            .collect();
        let mut file = Table::new();
        file.insert("card".into(), Value::Array(replica));
        fs::write(
            dest.join(format!("r{k}.toml")),
            toml::to_string(&file).unwrap(),
        )
        .unwrap();
        // A deck is replicated only with a whole replica of the cards.
        if take == cards.len() {
            for (stem, deck) in &decks {
                let deck = rename_deck(deck, &ids, &suffix);
                let path = dest.join("decks").join(format!("{stem}{suffix}.toml"));
                fs::write(path, toml::to_string(&deck).unwrap()).unwrap();
            }
        }
        written += take;
        k += 1;
    }
    written
}

/// `value` with every string that is a card id suffixed.
fn rename(value: &Value, ids: &BTreeSet<String>, suffix: &str) -> Value {
    match value {
        Value::String(s) if ids.contains(s) => Value::String(format!("{s}{suffix}")),
        Value::Array(items) => Value::Array(items.iter().map(|v| rename(v, ids, suffix)).collect()),
        Value::Table(t) => Value::Table(
            t.iter()
                .map(|(k, v)| (k.clone(), rename(v, ids, suffix)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A deck whose zone tables' card ids are suffixed.
fn rename_deck(deck: &Table, ids: &BTreeSet<String>, suffix: &str) -> Table {
    deck.iter()
        .map(|(key, value)| match value {
            Value::Table(zone) => {
                let zone = zone
                    .iter()
                    .map(|(id, n)| {
                        let id = if ids.contains(id) {
                            format!("{id}{suffix}")
                        } else {
                            id.clone()
                        };
                        (id, n.clone())
                    })
                    .collect();
                (key.clone(), Value::Table(zone))
            }
            other => (key.clone(), other.clone()),
        })
        .collect()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

/// Copies a folder's files (one level, as schemas, templates and icons are
/// laid out); an absent folder copies nothing.
fn copy_dir(from: &Path, to: &Path) {
    let Ok(entries) = fs::read_dir(from) else {
        return;
    };
    fs::create_dir_all(to).unwrap();
    for e in entries {
        let p = e.unwrap().path();
        if p.is_file() {
            fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
}
