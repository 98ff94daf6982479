//! Writes a synthetic carta workspace: one game, `synth`, with as many cards
//! as asked, shaped like Zodiacus Intrépidos (heroes with three nested
//! levels and dice lists, items, actions with long Portuguese text, relics
//! with floats, and references between cards). The same seed always writes
//! the same files. The benchmark of bundles (`benches/bundle.rs`) uses it.
//!
//! ```text
//! cargo run --release --example synth -- --cards 20000 --decks 1000 --out /tmp/synth [--seed 7]
//! carta -C /tmp/synth build
//! ```
// A generator written as the game it writes, top to bottom.
#![allow(clippy::too_many_lines)]

use std::fs;
use std::io;
use std::path::Path;

use serde_json::json;
use toml::{Table, Value};

/// The kinds, their share of the cards (percent) and their folder.
const KINDS: [(&str, usize); 4] = [("hero", 20), ("item", 30), ("action", 40), ("relic", 10)];

/// Cards per card file.
const PER_FILE: usize = 20;

const WORDS: [&str; 48] = [
    "intrépido",
    "castelo",
    "runa",
    "guardião",
    "torre",
    "dano",
    "ataque",
    "aliado",
    "inimigo",
    "round",
    "território",
    "poção",
    "ação",
    "signo",
    "zodíaco",
    "escudo",
    "espada",
    "magia",
    "resistência",
    "física",
    "mágica",
    "vida",
    "movimento",
    "alvo",
    "level",
    "habilidade",
    "adjacente",
    "sofre",
    "recebe",
    "causa",
    "até",
    "fim",
    "do",
    "da",
    "de",
    "um",
    "uma",
    "seu",
    "sua",
    "o",
    "a",
    "e",
    "no",
    "na",
    "com",
    "por",
    "três",
    "lâmina",
];
const SIGNS: [&str; 12] = [
    "aries",
    "touro",
    "gemeos",
    "cancer",
    "leao",
    "virgem",
    "libra",
    "escorpiao",
    "sagitario",
    "capricornio",
    "aquario",
    "peixes",
];
const COLORS: [&str; 4] = ["green", "blue", "yellow", "red"];
const ATTACKS: [&str; 3] = ["ac", "ad", "am"];

/// A small deterministic generator (`SplitMix64`).
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = usize::try_from(hi - lo + 1).expect("lo ≤ hi");
        lo + i64::try_from(self.below(span)).expect("below the span")
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn text(&mut self, min: usize, max: usize) -> String {
        let n = min + self.below(max - min + 1);
        let mut words: Vec<&str> = (0..n).map(|_| self.pick(&WORDS)).collect();
        let first = words[0].to_owned();
        let capital = first[..1].to_uppercase() + &first[1..];
        words[0] = &capital;
        words.join(" ") + "."
    }
}

/// How many cards of each kind (in `KINDS` order) a game of `cards` cards has.
fn counts(cards: usize) -> Vec<usize> {
    KINDS
        .iter()
        .enumerate()
        .map(|(i, (_, share))| {
            if i + 1 == KINDS.len() {
                let given: usize = KINDS[..i].iter().map(|(_, s)| cards * s / 100).sum();
                cards - given
            } else {
                cards * share / 100
            }
        })
        .collect()
}

/// Writes `decks` legal decks of the game of `cards` cards into
/// `out/cards/synth/decks/`: 15 different items and actions, 3 copies each,
/// and 3 different heroes.
///
/// # Errors
/// When a file cannot be written.
#[allow(dead_code)] // the benchmark includes this file for `generate` only
pub fn generate_decks(out: &Path, cards: usize, decks: usize, seed: u64) -> io::Result<()> {
    let counts = counts(cards);
    let playable: Vec<String> = (0..counts[1])
        .map(|i| format!("item-{i:05}"))
        .chain((0..counts[2]).map(|i| format!("action-{i:05}")))
        .collect();
    if decks > 0 && (playable.len() < 15 || counts[0] < 3) {
        return Err(io::Error::other(
            "decks need at least 15 items and actions and 3 heroes",
        ));
    }
    let mut rng = Rng::new(seed ^ 0xdec4);
    for d in 0..decks {
        let mut pool: Vec<&String> = playable.iter().collect();
        let mut text = format!("game = \"synth\"\nname = \"Deck {d}\"\n\n[main]\n");
        for _ in 0..15 {
            let card = pool.swap_remove(rng.below(pool.len()));
            text.push_str(&format!("{card} = 3\n"));
        }
        text.push_str("\n[team]\n");
        let mut heroes: Vec<usize> = (0..counts[0]).collect();
        for _ in 0..3 {
            let h = heroes.swap_remove(rng.below(heroes.len()));
            text.push_str(&format!("hero-{h:05} = 1\n"));
        }
        write(out, &format!("cards/synth/decks/deck-{d:05}.toml"), &text)?;
    }
    Ok(())
}

/// Writes the workspace for `cards` cards into `out` (which should be empty).
///
/// # Errors
/// When a file cannot be written.
pub fn generate(out: &Path, cards: usize, seed: u64) -> io::Result<()> {
    let mut rng = Rng::new(seed);
    write(out, "cards/synth/game.toml", GAME_TOML)?;
    for (name, schema) in schemas() {
        let text = serde_json::to_string_pretty(&schema).expect("JSON") + "\n";
        write(out, &format!("schemas/synth/{name}.schema.json"), &text)?;
    }
    let counts = counts(cards);
    let ids = |kind: &str, n: usize| -> Vec<String> {
        (0..n).map(|i| format!("{kind}-{i:05}")).collect()
    };
    let heroes = ids("hero", counts[0]);
    let actions = ids("action", counts[2]);
    for ((kind, _), &n) in KINDS.iter().zip(&counts) {
        let all = ids(kind, n);
        for (f, chunk) in all.chunks(PER_FILE).enumerate() {
            let cards: Vec<Value> = chunk
                .iter()
                .map(|id| card(&mut rng, kind, id, &heroes, &actions))
                .collect();
            let mut doc = Table::new();
            doc.insert("card".into(), Value::Array(cards));
            let text = toml::to_string(&doc).expect("TOML");
            write(
                out,
                &format!("cards/synth/{kind}/{kind}-{f:04}.toml"),
                &text,
            )?;
        }
    }
    Ok(())
}

fn write(root: &Path, rel: &str, text: &str) -> io::Result<()> {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().expect("a folder"))?;
    fs::write(path, text)
}

fn card(rng: &mut Rng, kind: &str, id: &str, heroes: &[String], actions: &[String]) -> Value {
    let title = rng.text(2, 3);
    let name = title.trim_end_matches('.').to_owned();
    let mut t = Table::new();
    t.insert("id".into(), id.into());
    t.insert("kind".into(), kind.into());
    t.insert("name".into(), name.into());
    let some = |rng: &mut Rng, pool: &[String], n: usize| -> Value {
        let mut chosen: Vec<String> = Vec::new();
        while chosen.len() < n.min(pool.len()) {
            let c = pool[rng.below(pool.len())].clone();
            if c != id && !chosen.contains(&c) {
                chosen.push(c);
            } else if pool.len() <= n + 1 {
                break;
            }
        }
        Value::Array(chosen.into_iter().map(Value::from).collect())
    };
    match kind {
        "hero" => {
            t.insert("sign".into(), rng.pick(&SIGNS).into());
            t.insert("allies".into(), some(rng, heroes, 2));
            t.insert("rivals".into(), some(rng, heroes, 2));
            t.insert("lore".into(), rng.text(40, 90).into());
            let levels: Vec<Value> = (1..=3).map(|l| level(rng, l)).collect();
            t.insert("levels".into(), Value::Array(levels));
        }
        "item" => {
            t.insert(
                "class".into(),
                rng.pick(&["espada", "escudo", "arco", "cajado"]).into(),
            );
            t.insert("min_level".into(), rng.range(1, 3).into());
            let mut bonus = Table::new();
            bonus.insert(
                "attribute".into(),
                rng.pick(&["health", "movement", "magic_resistance"]).into(),
            );
            bonus.insert("value".into(), (rng.range(1, 4) * 5).into());
            t.insert("bonus".into(), bonus.into());
            t.insert("damage".into(), dice(rng));
            if rng.below(2) == 0 {
                t.insert(
                    "for_hero".into(),
                    heroes[rng.below(heroes.len())].clone().into(),
                );
            }
            t.insert("effect".into(), rng.text(15, 40).into());
        }
        "action" => {
            t.insert("effect".into(), rng.text(20, 60).into());
            t.insert("flavour".into(), rng.text(10, 30).into());
            let combos = rng.below(3);
            t.insert("combo".into(), some(rng, actions, combos));
            if rng.below(4) == 0 {
                t.insert("copies".into(), rng.range(1, 3).into());
            }
        }
        _ => {
            t.insert(
                "weight".into(),
                (rng.range(5, 500) as f64 / 10.0 + 0.25).into(),
            );
            t.insert(
                "rarity".into(),
                rng.pick(&["comum", "rara", "lendária"]).into(),
            );
            t.insert("charges".into(), rng.range(0, 9).into());
            t.insert("text".into(), rng.text(15, 45).into());
        }
    }
    Value::Table(t)
}

fn level(rng: &mut Rng, level: i64) -> Value {
    let mut t = Table::new();
    t.insert("level".into(), level.into());
    t.insert("xp".into(), (100 + 50 * level).into());
    t.insert("attack".into(), rng.pick(&ATTACKS).into());
    t.insert("damage".into(), dice(rng));
    t.insert("target".into(), rng.range(1, 5).into());
    t.insert("health".into(), (rng.range(8, 20) * 5).into());
    t.insert("magic_resistance".into(), (rng.range(0, 4) * 5).into());
    t.insert("physical_resistance".into(), (rng.range(0, 4) * 5).into());
    t.insert("movement".into(), rng.range(3, 8).into());
    let mut ability = Table::new();
    ability.insert("name".into(), rng.text(1, 3).trim_end_matches('.').into());
    let passive = rng.below(3) == 0;
    ability.insert("passive".into(), passive.into());
    if !passive {
        ability.insert("cooldown".into(), rng.range(1, 5).into());
    }
    ability.insert("text".into(), rng.text(12, 35).into());
    t.insert("ability".into(), ability.into());
    Value::Table(t)
}

fn dice(rng: &mut Rng) -> Value {
    let start = rng.below(COLORS.len());
    let n = 1 + rng.below(COLORS.len() - start).min(1);
    let terms = COLORS[start..start + n]
        .iter()
        .map(|c| {
            let mut d = Table::new();
            d.insert("color".into(), (*c).into());
            d.insert("count".into(), rng.range(1, 3).into());
            Value::Table(d)
        })
        .collect();
    Value::Array(terms)
}

const GAME_TOML: &str = r#"id = "synth"
name = "Intrépidos Sintéticos"
language = "pt-BR"
description = "Um jogo gerado para medir os bundles: heróis com três levels, itens, ações e relíquias."

[kinds.hero]
name = "Herói"
description = "Personagem com três levels, cada um com atributos, dados de dano e uma habilidade."

[kinds.item]
name = "Item"
description = "Equipamento com bônus de atributo e dados de dano."

[kinds.action]
name = "Ação"
description = "Carta de ação com efeito e texto ilustrativo."

[kinds.relic]
name = "Relíquia"
description = "Objeto raro com peso e cargas."

[zones.main]
name = "Deck"
kinds = ["item", "action"]

[zones.team]
name = "Equipe"
kinds = ["hero"]

[[deck-rules]]
id = "deck-size"
name = "De 40 a 60 cartas"
zone = "main"
size = { min = 40, max = 60 }

[[deck-rules]]
id = "copies"
name = "Até 3 cópias"
zone = "main"
copies = { max = 3 }

[[deck-rules]]
id = "team"
name = "Três heróis diferentes"
zone = "team"
size = { exact = 3 }

[[deck-rules]]
id = "team-distinct"
name = "Heróis diferentes"
zone = "team"
distinct = {}
"#;

fn schemas() -> Vec<(&'static str, serde_json::Value)> {
    let text = json!({ "type": "string", "minLength": 1, "maxLength": 2000 });
    let hero_ref = json!({ "type": "string", "x-carta-ref": "hero" });
    let common = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Definições comuns",
        "$defs": {
            "text": text,
            "damage": {
                "type": "array", "minItems": 1, "maxItems": 4,
                "items": {
                    "type": "object", "additionalProperties": false,
                    "required": ["color", "count"],
                    "properties": {
                        "color": { "enum": COLORS },
                        "count": { "type": "integer", "minimum": 1, "maximum": 6 }
                    }
                }
            },
            "level": {
                "type": "object", "additionalProperties": false,
                "required": ["level", "xp", "attack", "damage", "target", "health",
                             "magic_resistance", "physical_resistance", "movement", "ability"],
                "properties": {
                    "level": { "type": "integer", "minimum": 1, "maximum": 3 },
                    "xp": { "type": "integer", "minimum": 0 },
                    "attack": { "enum": ATTACKS },
                    "damage": { "$ref": "#/$defs/damage" },
                    "target": { "type": "integer", "minimum": 1, "maximum": 6 },
                    "health": { "type": "integer", "minimum": 1 },
                    "magic_resistance": { "type": "integer", "minimum": 0 },
                    "physical_resistance": { "type": "integer", "minimum": 0 },
                    "movement": { "type": "integer", "minimum": 1, "maximum": 12 },
                    "ability": {
                        "type": "object", "additionalProperties": false,
                        "required": ["name", "passive", "text"],
                        "properties": {
                            "name": { "$ref": "#/$defs/text" },
                            "passive": { "type": "boolean" },
                            "cooldown": { "type": "integer", "minimum": 1 },
                            "text": { "$ref": "#/$defs/text" }
                        }
                    }
                }
            }
        }
    });
    let object = |title: &str, required: serde_json::Value, properties: serde_json::Value| {
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": title,
            "type": "object",
            "additionalProperties": false,
            "required": required,
            "properties": properties
        })
    };
    vec![
        ("common", common),
        (
            "hero",
            object(
                "Herói",
                json!(["sign", "allies", "rivals", "lore", "levels"]),
                json!({
                    "sign": { "enum": SIGNS },
                    "allies": { "type": "array", "items": hero_ref, "uniqueItems": true },
                    "rivals": { "type": "array", "items": hero_ref, "uniqueItems": true },
                    "lore": { "$ref": "common.schema.json#/$defs/text" },
                    "levels": { "type": "array", "minItems": 3, "maxItems": 3,
                                "items": { "$ref": "common.schema.json#/$defs/level" } }
                }),
            ),
        ),
        (
            "item",
            object(
                "Item",
                json!(["class", "min_level", "bonus", "damage", "effect"]),
                json!({
                    "class": { "type": "string" },
                    "min_level": { "type": "integer", "minimum": 1, "maximum": 3 },
                    "bonus": {
                        "type": "object", "additionalProperties": false,
                        "required": ["attribute", "value"],
                        "properties": {
                            "attribute": { "type": "string" },
                            "value": { "type": "integer" }
                        }
                    },
                    "damage": { "$ref": "common.schema.json#/$defs/damage" },
                    "for_hero": hero_ref,
                    "effect": { "$ref": "common.schema.json#/$defs/text" }
                }),
            ),
        ),
        (
            "action",
            object(
                "Ação",
                json!(["effect", "flavour", "combo"]),
                json!({
                    "effect": { "$ref": "common.schema.json#/$defs/text" },
                    "flavour": { "$ref": "common.schema.json#/$defs/text" },
                    "combo": { "type": "array", "items": { "type": "string", "x-carta-ref": "action" } }
                }),
            ),
        ),
        (
            "relic",
            object(
                "Relíquia",
                json!(["weight", "rarity", "charges", "text"]),
                json!({
                    "weight": { "type": "number", "exclusiveMinimum": 0 },
                    "rarity": { "enum": ["comum", "rara", "lendária"] },
                    "charges": { "type": "integer", "minimum": 0 },
                    "text": { "$ref": "common.schema.json#/$defs/text" }
                }),
            ),
        ),
    ]
}

#[allow(dead_code)] // the benchmark includes this file for `generate` only
fn main() {
    let mut cards = 20_000;
    let mut out = None;
    let mut seed = 1;
    let mut decks = 0;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{arg} needs a value")))
        };
        match arg.as_str() {
            "--cards" => {
                cards = value()
                    .parse()
                    .unwrap_or_else(|_| usage("--cards takes a number"));
            }
            "--seed" => {
                seed = value()
                    .parse()
                    .unwrap_or_else(|_| usage("--seed takes a number"));
            }
            "--decks" => {
                decks = value()
                    .parse()
                    .unwrap_or_else(|_| usage("--decks takes a number"));
            }
            "--out" => out = Some(value()),
            _ => usage(&format!("unknown argument {arg}")),
        }
    }
    let out = out.unwrap_or_else(|| usage("--out DIR is required"));
    let written = generate(Path::new(&out), cards, seed)
        .and_then(|()| generate_decks(Path::new(&out), cards, decks, seed));
    if let Err(e) = written {
        eprintln!("error: cannot write {out}: {e}");
        std::process::exit(2);
    }
    eprintln!("wrote a workspace with {cards} cards and {decks} decks of game `synth` to {out}");
}

fn usage(problem: &str) -> ! {
    eprintln!("error: {problem}\nusage: synth --cards N [--decks M] --out DIR [--seed N]");
    std::process::exit(2);
}
