//! Issue 25's differential test: for every shipped game, 10,000 generated
//! decks (near-legal mutations of the example decks, random decks, and
//! malformed ones: no zones, unknown zones, cards and formats, a card in a
//! zone that does not take it, zero, negative and huge counts, formats
//! carried in deck codes), from a seeded generator so a failure
//! reproduces, are judged three ways — by the `carta deck check` binary (in
//! batches of files), by the builder's verdict API (a code's deck through
//! `decode` first) and by the organisers' endpoint — which must agree on
//! every deck: the same legality, and the same broken rules (by id and
//! severity) or, for a deck that cannot be judged, the same reason.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;

use carta::deckcode::{self, CodeDeck};
use carta::diag::Diagnostics;
use carta::game::{Decks, Game, Keep, compile};
use serde_json::{Value, json};

use crate::harness::Workspace;

/// Decks per game.
const PER_GAME: usize = 10_000;
/// The games shipped.
const GAMES: [&str; 5] = ["covil", "exodo", "intrepidos", "kingdoms", "zodiacos"];

/// A 64-bit linear congruential generator (Knuth's MMIX constants): tiny,
/// and the same sequence everywhere.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A generated deck, as written: zones in order, lines in order, any
/// integer as a count.
#[derive(Debug, Clone)]
struct Gen {
    name: String,
    format: Option<String>,
    zones: Vec<(String, Vec<(String, i64)>)>,
}

impl Gen {
    fn toml(&self, game: &str) -> String {
        let mut t = toml::Table::new();
        t.insert("game".into(), game.into());
        t.insert("name".into(), self.name.clone().into());
        if let Some(f) = &self.format {
            t.insert("format".into(), f.clone().into());
        }
        for (z, lines) in &self.zones {
            let mut zone = toml::Table::new();
            for (c, n) in lines {
                zone.insert(c.clone(), (*n).into());
            }
            t.insert(z.clone(), zone.into());
        }
        toml::to_string(&t).unwrap()
    }

    fn json(&self) -> Value {
        let mut zones = serde_json::Map::new();
        for (z, lines) in &self.zones {
            let lines: serde_json::Map<String, Value> =
                lines.iter().map(|(c, n)| (c.clone(), json!(n))).collect();
            zones.insert(z.clone(), Value::Object(lines));
        }
        let mut v = json!({"name": self.name, "zones": zones});
        if let Some(f) = &self.format {
            v["format"] = json!(f);
        }
        v
    }

    /// The deck's code, when its zones and counts fit one.
    fn code(&self, game: &Game) -> Option<String> {
        let deck = CodeDeck {
            game: game.id().to_owned(),
            name: self.name.clone(),
            format: self.format.clone(),
            zones: self
                .zones
                .iter()
                .map(|(z, lines)| {
                    let lines = lines
                        .iter()
                        .map(|(c, n)| {
                            Some((
                                c.clone(),
                                u32::try_from(*n)
                                    .ok()
                                    .filter(|n| (1..=10_000).contains(n))?,
                            ))
                        })
                        .collect::<Option<Vec<_>>>()?;
                    Some((z.clone(), lines))
                })
                .collect::<Option<_>>()?,
        };
        deckcode::encode(&deck, &game.manifest.manifest, &game.pool).ok()
    }
}

/// What the generator knows of a game: its zones with the cards each
/// takes, every card, its formats and its example decks.
struct Shape {
    zones: Vec<(String, Vec<String>)>,
    cards: Vec<String>,
    formats: Vec<String>,
    examples: Vec<Gen>,
}

fn shape(game: &Game, ws: &Workspace) -> Shape {
    let pool: Vec<String> = game.pool.iter().map(|c| c.id.clone()).collect();
    let zones = game
        .rules
        .deck
        .zones
        .iter()
        .map(|z| {
            let takes = pool
                .iter()
                .enumerate()
                .filter(|(i, _)| z.accepts[*i])
                .map(|(_, c)| c.clone())
                .collect();
            (z.id.clone(), takes)
        })
        .collect();
    let dir = ws.path().join("cards").join(game.id()).join("decks");
    let mut examples = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten() {
        let t: toml::Table = std::fs::read_to_string(entry.unwrap().path())
            .unwrap()
            .parse()
            .unwrap();
        let zones = t
            .iter()
            .filter_map(|(k, v)| {
                let lines = v.as_table()?;
                Some((
                    k.clone(),
                    lines
                        .iter()
                        .map(|(c, n)| (c.clone(), n.as_integer().unwrap()))
                        .collect(),
                ))
            })
            .collect();
        examples.push(Gen {
            name: t["name"].as_str().unwrap().to_owned(),
            format: None,
            zones,
        });
    }
    Shape {
        zones,
        cards: pool,
        formats: game.rules.formats.keys().cloned().collect(),
        examples,
    }
}

/// A random deck of cards the zones take, 1 to 3 copies a line.
fn random_deck(rng: &mut Lcg, s: &Shape) -> Gen {
    let zones = s
        .zones
        .iter()
        .filter(|(_, takes)| !takes.is_empty())
        .map(|(z, takes)| {
            let mut lines: Vec<(String, i64)> = Vec::new();
            for _ in 0..rng.below(30) {
                let c = rng.pick(takes);
                if !lines.iter().any(|(l, _)| l == c) {
                    lines.push((c.clone(), 1 + i64::try_from(rng.below(3)).unwrap()));
                }
            }
            (z.clone(), lines)
        })
        .collect();
    Gen {
        name: "Aleatório".into(),
        format: None,
        zones,
    }
}

/// One edit of a deck: a count up or down, a line added or removed.
fn nudge(rng: &mut Lcg, s: &Shape, d: &mut Gen) {
    let Some(zi) = (!d.zones.is_empty()).then(|| rng.below(d.zones.len())) else {
        return;
    };
    let zone = d.zones[zi].0.clone();
    let lines = &mut d.zones[zi].1;
    match rng.below(4) {
        0 if !lines.is_empty() => {
            let i = rng.below(lines.len());
            lines[i].1 += 1;
        }
        1 if !lines.is_empty() => {
            let i = rng.below(lines.len());
            if lines[i].1 > 1 {
                lines[i].1 -= 1;
            } else {
                lines.remove(i);
            }
        }
        _ => {
            if let Some((_, takes)) = s.zones.iter().find(|(z, _)| *z == zone)
                && !takes.is_empty()
            {
                let c = rng.pick(takes).clone();
                if !lines.iter().any(|(l, _)| *l == c) {
                    lines.push((c, 1));
                }
            }
        }
    }
}

/// The `i`th deck of a game: every kind of deck, in a fixed mix.
fn generate(rng: &mut Lcg, s: &Shape, i: usize) -> Gen {
    let mut d = if s.examples.is_empty() || i.is_multiple_of(3) {
        random_deck(rng, s)
    } else {
        let mut d = rng.pick(&s.examples).clone();
        for _ in 0..rng.below(3) {
            nudge(rng, s, &mut d);
        }
        d
    };
    d.name = format!("Deck {i}");
    let zone_names = ["main", "sideboard", "nowhere"];
    match rng.below(20) {
        0 => d.zones.clear(),
        1 => d.zones.push((
            rng.pick(&zone_names).to_string(),
            vec![(rng.pick(&s.cards).clone(), 1)],
        )),
        2 => add_line(&mut d, ("no-such-card".into(), 1)),
        3 => d.format = Some("nope".into()),
        4 => add_line(
            &mut d,
            (
                rng.pick(&s.cards).clone(),
                *rng.pick(&[0, -1, 10_001, 1 << 40]),
            ),
        ),
        5 => add_line(
            &mut d,
            (rng.pick(&s.cards).clone(), *rng.pick(&[5_000, 10_000])),
        ),
        6 if !s.zones.is_empty() => {
            // A card of the pool into a zone picked at random: often one
            // that does not take its kind.
            let (z, _) = rng.pick(&s.zones).clone();
            d.zones.push((z, vec![(rng.pick(&s.cards).clone(), 1)]));
        }
        7..=9 if !s.formats.is_empty() => d.format = Some(rng.pick(&s.formats).clone()),
        _ => {}
    }
    // A zone written twice is one TOML table: keep the first.
    let mut seen = BTreeSet::new();
    d.zones.retain(|(z, _)| seen.insert(z.clone()));
    d
}

fn add_line(d: &mut Gen, line: (String, i64)) {
    match d.zones.first_mut() {
        Some((_, lines)) if !lines.iter().any(|(c, _)| *c == line.0) => lines.push(line),
        Some(_) => {}
        None => d.zones.push(("main".into(), vec![line])),
    }
}

/// A verdict as the three paths are compared: legal, and the broken rules
/// (`severity rule-id`) or, when the deck could not be judged, the codes
/// of why.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Said {
    legal: bool,
    rules: BTreeSet<String>,
    reasons: BTreeSet<String>,
}

/// The rule a diagnostic's label names (`the rule `x` is declared here`).
fn rule_of(d: &Value) -> Option<String> {
    d["labels"].as_array()?.iter().find_map(|l| {
        let m = l["message"].as_str()?;
        let rest = m.strip_prefix("the rule `")?;
        Some(rest.split('`').next()?.to_owned())
    })
}

/// What `carta deck check` says of each file, by file name.
fn command_says(ws: &Workspace, files: &[String]) -> BTreeMap<String, Said> {
    let mut out: BTreeMap<String, Said> = files
        .iter()
        .map(|f| {
            (
                f.clone(),
                Said {
                    legal: true,
                    ..Said::default()
                },
            )
        })
        .collect();
    for batch in files.chunks(2_500) {
        let args = ["--message-format", "json", "deck", "check"];
        let run = ws.run(args.iter().copied().chain(batch.iter().map(String::as_str)));
        assert!(matches!(run.code, Some(0 | 1)), "{}", run.stderr);
        for d in run.json() {
            let Some(said) = d["file"].as_str().and_then(|f| out.get_mut(f)) else {
                continue;
            };
            let severity = d["severity"].as_str().unwrap();
            if severity == "error" {
                said.legal = false;
            }
            if severity == "advice" {
                continue;
            }
            match rule_of(&d) {
                Some(rule) => said.rules.insert(format!("{severity} {rule}")),
                None => said.reasons.insert(d["code"].as_str().unwrap().to_owned()),
            };
        }
    }
    out
}

/// One keep-alive HTTP/1.1 connection to the server.
struct Conn {
    host: String,
    reader: BufReader<TcpStream>,
}

impl Conn {
    fn open(base: &str) -> Self {
        let host = base
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        let stream = TcpStream::connect(&host).unwrap();
        stream.set_nodelay(true).unwrap();
        Conn {
            host,
            reader: BufReader::new(stream),
        }
    }

    fn post(&mut self, path: &str, body: &Value) -> (u16, Value) {
        let text = body.to_string();
        let stream = self.reader.get_mut();
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{text}",
            self.host,
            text.len()
        )
        .unwrap();
        let mut status = String::new();
        self.reader.read_line(&mut status).unwrap();
        let code: u16 = status[9..12].parse().unwrap();
        let (mut length, mut chunked) = (0, false);
        loop {
            let mut line = String::new();
            self.reader.read_line(&mut line).unwrap();
            let l = line.trim().to_ascii_lowercase();
            if l.is_empty() {
                break;
            }
            if let Some(n) = l.strip_prefix("content-length:") {
                length = n.trim().parse().unwrap();
            }
            chunked |= l == "transfer-encoding: chunked";
        }
        let mut bytes = Vec::new();
        if chunked {
            loop {
                let mut size = String::new();
                self.reader.read_line(&mut size).unwrap();
                let n = usize::from_str_radix(size.trim(), 16).unwrap();
                let mut chunk = vec![0; n + 2];
                self.reader.read_exact(&mut chunk).unwrap();
                if n == 0 {
                    break;
                }
                bytes.extend_from_slice(&chunk[..n]);
            }
        } else {
            bytes.resize(length, 0);
            self.reader.read_exact(&mut bytes).unwrap();
        }
        (code, serde_json::from_slice(&bytes).unwrap())
    }
}

/// The `(deck::…)` code at the end of a refusal, if any.
fn code_in(error: &str) -> Option<String> {
    let (_, rest) = error.rsplit_once("(deck::")?;
    Some(format!("deck::{}", rest.split(')').next()?))
}

/// What the builder says of a deck: its verdict, or why it refused it
/// (`count` for a count outside 1–10000, which the page never sends).
fn builder_says(conn: &mut Conn, game: &str, deck: &Value, code: Option<&str>) -> Said {
    let mut deck = deck.clone();
    if let Some(code) = code {
        let (status, decoded) =
            conn.post(&format!("/api/games/{game}/decode"), &json!({"code": code}));
        assert_eq!(status, 200, "{decoded}");
        deck = decoded;
    }
    let (status, v) = conn.post(&format!("/api/games/{game}/verdict"), &deck);
    if status == 422 {
        let error = v["error"].as_str().unwrap();
        let reason = code_in(error).unwrap_or_else(|| {
            assert!(error.contains("the count of"), "{error}");
            "count".into()
        });
        return Said {
            legal: false,
            reasons: [reason].into(),
            ..Said::default()
        };
    }
    assert_eq!(status, 200, "{v}");
    Said {
        legal: v["legal"].as_bool().unwrap(),
        rules: v["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                format!(
                    "{} {}",
                    p["severity"].as_str().unwrap(),
                    p["rule"].as_str().unwrap()
                )
            })
            .collect(),
        reasons: BTreeSet::new(),
    }
}

/// What the organisers' endpoint says of each submission, in order.
fn organisers_say(base: &str, texts: &[String]) -> Vec<Said> {
    let mut conn = Conn::open(base);
    let mut out = Vec::new();
    for batch in texts.chunks(400) {
        let decks: Vec<Value> = batch.iter().map(|t| json!({"text": t})).collect();
        let (status, table) = conn.post("/api/organize", &json!({"decks": decks}));
        assert_eq!(status, 200, "{table}");
        for row in table["rows"].as_array().unwrap() {
            let mut said = Said {
                legal: row["verdict"] == "legal",
                ..Said::default()
            };
            for (severity, list) in [("error", &row["errors"]), ("warning", &row["warnings"])] {
                for f in list.as_array().unwrap() {
                    match f["rule"].as_str() {
                        Some(rule) => said.rules.insert(format!("{severity} {rule}")),
                        None => said.reasons.insert(f["code"].as_str().unwrap().to_owned()),
                    };
                }
            }
            out.push(said);
        }
    }
    out
}

/// Compares one deck's three verdicts.
fn agree(i: usize, deck: &str, cli: &Said, builder: &Said, organisers: &Said) {
    let all = || {
        format!(
            "deck {i}:\n{deck}\ncommand {cli:?}\nbuilder {builder:?}\norganisers {organisers:?}"
        )
    };
    assert_eq!(cli.legal, builder.legal, "{}", all());
    assert_eq!(cli.legal, organisers.legal, "{}", all());
    if cli.reasons.is_empty() {
        // Judged: the same broken rules everywhere.
        assert_eq!(cli.rules, builder.rules, "{}", all());
        assert_eq!(cli.rules, organisers.rules, "{}", all());
        return;
    }
    // Not judged: each path gives a reason the command gives (the page's
    // count refusal stands for the file's `deck::bad-count`).
    for r in &builder.reasons {
        let r = if r == "count" { "deck::bad-count" } else { r };
        assert!(cli.reasons.contains(r), "{}", all());
    }
    assert!(!organisers.reasons.is_empty(), "{}", all());
    assert!(organisers.reasons.is_subset(&cli.reasons), "{}", all());
}

#[test]
fn the_command_the_builder_and_the_organisers_agree_on_10000_generated_decks_per_game() {
    let ws = Workspace::shipped(&[]);
    let mut lib = carta::load::Workspace::open(ws.path()).unwrap();
    let mut generated = Vec::new();
    let mut rng = Lcg(0x2025_1125);
    for game in GAMES {
        let mut diags = Diagnostics::new();
        let compiled = compile(&mut lib, game, Decks::Skip, Keep::All, &mut diags)
            .unwrap()
            .unwrap();
        let s = shape(&compiled, &ws);
        for i in 0..PER_GAME {
            let d = generate(&mut rng, &s, i);
            // A third of the decks that have a code travel as one.
            let code = if i % 3 == 1 { d.code(&compiled) } else { None };
            let file = format!("decks/{game}/{i:05}.toml");
            let text = d.toml(game);
            ws.write(&file, &text);
            generated.push((game, file, d, code, text));
        }
    }
    let files: Vec<String> = generated.iter().map(|g| g.1.clone()).collect();
    let cli = command_says(&ws, &files);
    let (_server, url) = crate::serve::start_serve(ws.path());
    let texts: Vec<String> = generated
        .iter()
        .map(|(_, _, _, code, text)| code.clone().unwrap_or_else(|| text.clone()))
        .collect();
    let organisers = organisers_say(&url, &texts);
    // The builder's verdicts, on two connections at once.
    let half = generated.len() / 2;
    let builder: Vec<Said> = std::thread::scope(|scope| {
        let parts: Vec<_> = generated
            .chunks(half)
            .map(|part| {
                let url = &url;
                scope.spawn(move || {
                    let mut conn = Conn::open(url);
                    part.iter()
                        .map(|(game, _, d, code, _)| {
                            builder_says(&mut conn, game, &d.json(), code.as_deref())
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        parts.into_iter().flat_map(|p| p.join().unwrap()).collect()
    });
    let mut tally: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for (i, (game, file, _, code, text)) in generated.iter().enumerate() {
        let said = &cli[file];
        agree(i, text, said, &builder[i], &organisers[i]);
        let kind = match (said.legal, said.reasons.is_empty(), code.is_some()) {
            (true, _, _) => "legal",
            (false, true, _) => "illegal",
            (false, false, _) => "not judged",
        };
        *tally.entry((game, kind)).or_default() += 1;
        if code.is_some() {
            *tally.entry((game, "by code")).or_default() += 1;
        }
    }
    // Every game's decks are many; those with zones have legal, illegal
    // and unjudgeable ones, and ones that travelled as codes.
    for game in ["intrepidos", "kingdoms"] {
        for kind in ["legal", "illegal", "not judged", "by code"] {
            let n = tally.get(&(game, kind)).copied().unwrap_or(0);
            assert!(n >= PER_GAME / 50, "{game}: {n} {kind} in {tally:?}");
        }
    }
    assert_eq!(generated.len(), PER_GAME * GAMES.len());
}
