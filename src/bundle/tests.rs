//! Round trips, the hostile-input cases, and a proptest of random mutations.

// A test reads as one scenario, top to bottom; splitting it only hides the steps.
#![allow(clippy::too_many_lines)]

use std::cell::Cell;

use indexmap::IndexMap;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::format::{Header, Section, Sections};
use super::numbers::HEADER_LEN;
use super::*;
use crate::config::Manifest;

/// Records the largest single allocation made by the current thread, so the
/// hostile-input tests can check that no length read from a file is trusted.
struct Tracking;

thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards every call to the system allocator unchanged.
unsafe impl std::alloc::GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let _ = LARGEST.try_with(|m| m.set(m.get().max(layout.size())));
        // SAFETY: the caller upholds `alloc`'s contract.
        unsafe { std::alloc::System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new: usize) -> *mut u8 {
        let _ = LARGEST.try_with(|m| m.set(m.get().max(new)));
        // SAFETY: as for `realloc`.
        unsafe { std::alloc::System.realloc(ptr, layout, new) }
    }
}

#[global_allocator]
static ALLOCATOR: Tracking = Tracking;

/// Runs `f` and returns its result with the largest allocation it made.
fn largest_allocation<T>(f: impl FnOnce() -> T) -> (T, usize) {
    LARGEST.with(|m| m.set(0));
    let out = f();
    (out, LARGEST.with(Cell::get))
}

fn manifest() -> Manifest {
    toml::from_str(
        r#"
        id = "demo"
        name = "Démo"
        language = "pt-BR"
        [kinds.unit]
        name = "Unidade"
        [kinds.spell]
        name = "Feitiço"
        "#,
    )
    .unwrap()
}

fn fields(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => unreachable!(),
    }
}

/// A card as the sample holds it: id, kind, name, copies, fields.
type SampleCard = (String, String, String, Option<u32>, Map<String, Value>);

struct Sample {
    cards: Vec<SampleCard>,
    decks: Vec<DeckRecord>,
}

impl Sample {
    fn new() -> Self {
        let card = |id: &str, kind: &str, name: &str, copies, f: Value| {
            (
                id.to_owned(),
                kind.to_owned(),
                name.to_owned(),
                copies,
                fields(f),
            )
        };
        Sample {
            cards: vec![
                card(
                    "zebra",
                    "unit",
                    "Zebra",
                    Some(3),
                    json!({"attack": 1, "speed": 1.0, "tags": ["a", "b"]}),
                ),
                card(
                    "anta",
                    "unit",
                    "Anta Ágil",
                    None,
                    json!({"levels": [{"level": 1, "dice": [{"color": "green", "count": 2}]}], "ratio": 2.5, "big": -9_007_199_254_740_993_i64}),
                ),
                card(
                    "bola-de-fogo",
                    "spell",
                    "Bola de Fogo",
                    None,
                    json!({"text": "Causa 3 de dano. 🔥", "ok": true, "when": "1979-05-27T07:32:00Z"}),
                ),
                card("x", "spell", "X", Some(1), json!({})),
            ],
            decks: vec![DeckRecord {
                name: "Fúria".into(),
                file: "cards/demo/decks/furia.toml".into(),
                zones: IndexMap::from([
                    (
                        "main".to_owned(),
                        IndexMap::from([("zebra".to_owned(), 3), ("anta".to_owned(), 2)]),
                    ),
                    ("team".to_owned(), IndexMap::from([("x".to_owned(), 1)])),
                ]),
            }],
        }
    }

    fn records(&self) -> Vec<CardRecord<'_>> {
        self.cards
            .iter()
            .map(|(id, kind, name, copies, fields)| CardRecord {
                id,
                kind,
                name,
                copies: *copies,
                fields,
                i18n: None,
                errata: &[],
            })
            .collect()
    }

    fn encode(&self) -> Vec<u8> {
        encode(
            &manifest(),
            None,
            &self.records(),
            &self.decks,
            SourceHash::of([("cards/demo/game.toml", "x")]),
        )
        .unwrap()
    }
}

/// Rewrites both checksums of a (possibly mutated) bundle, so that the
/// mutation reaches the parsers behind them.
fn fix_checksums(bytes: &mut [u8]) {
    if bytes.len() < HEADER_LEN {
        return;
    }
    let payload_crc = crc32fast::hash(&bytes[HEADER_LEN..]);
    bytes[84..88].copy_from_slice(&payload_crc.to_le_bytes());
    let header_crc = crc32fast::hash(&bytes[..124]);
    bytes[124..128].copy_from_slice(&header_crc.to_le_bytes());
}

/// A bundle assembled from raw sections, with valid checksums.
fn assemble(
    game: &[u8],
    decks: &[u8],
    index: &[u8],
    cards: &[u8],
    card_count: u32,
    deck_count: u32,
) -> Vec<u8> {
    let mut payload = Vec::new();
    let mut place = |b: &[u8]| {
        let s = Section {
            offset: payload.len() as u32,
            len: b.len() as u32,
        };
        payload.extend_from_slice(b);
        s
    };
    let sections = Sections {
        game: place(game),
        decks: place(decks),
        index: place(index),
        cards: place(cards),
    };
    let header = Header {
        format_version: FORMAT_VERSION,
        format_minor: 0,
        card_count,
        deck_count,
        source_hash: SourceHash::default(),
        carta_version: "test".into(),
        payload_len: payload.len() as u32,
        payload_crc32: crc32fast::hash(&payload),
        sections,
    };
    let mut out = header.to_bytes().to_vec();
    out.extend_from_slice(&payload);
    out
}

/// A one-card index for card `id` whose record is `record_len` bytes.
fn index_of_one(id: &str, record_len: u32) -> Vec<u8> {
    let mut index = Vec::new();
    for n in [1, 0, id.len() as u32, 0, 0, record_len] {
        index.extend_from_slice(&n.to_le_bytes());
    }
    index.extend_from_slice(id.as_bytes());
    index
}

/// A cards section of one block holding `records`, compressed.
fn one_block(records: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut z, records).unwrap();
    raw_block(&z.finish().unwrap(), records.len() as u32)
}

/// A cards section of one block of `stored` bytes said to inflate to `raw_len`.
fn raw_block(stored: &[u8], raw_len: u32) -> Vec<u8> {
    let mut section = Vec::new();
    for n in [1, 16, stored.len() as u32, raw_len] {
        section.extend_from_slice(&n.to_le_bytes());
    }
    section.extend_from_slice(stored);
    section
}

/// A bundle of one card `x` whose record is `record`, checksums valid.
fn with_record(record: &[u8]) -> Vec<u8> {
    let game = rmp_serde::to_vec_named(&manifest()).unwrap();
    assemble(
        &game,
        &[0x90],
        &index_of_one("x", record.len() as u32),
        &one_block(record),
        1,
        0,
    )
}

/// The `MessagePack` of a card record `x` whose field `f` is `value` (raw).
fn record_with_field(value: &[u8]) -> Vec<u8> {
    let mut r = vec![0x84];
    for s in ["id", "x", "kind", "unit", "name", "X", "fields"] {
        r.push(0xa0 | s.len() as u8);
        r.extend_from_slice(s.as_bytes());
    }
    r.extend_from_slice(&[0x81, 0xa1, b'f']);
    r.extend_from_slice(value);
    r
}

/// Opens `bytes` and, if that works, decodes everything; never panics.
fn read_everything(bytes: Vec<u8>) -> Result<(), BundleError> {
    let bundle = Bundle::from_bytes(bytes)?;
    for card in bundle.cards() {
        card?;
    }
    let ids: Vec<String> = bundle.ids().map(str::to_owned).collect();
    for id in ids {
        bundle.card(&id)?;
    }
    bundle.to_json()?;
    summary(&bundle, std::path::Path::new("b.carta"))?;
    Ok(())
}

#[test]
fn every_card_round_trips_with_its_types() {
    let sample = Sample::new();
    let bundle = Bundle::from_bytes(sample.encode()).unwrap();
    assert_eq!(bundle.len(), 4);
    assert_eq!(bundle.manifest(), &manifest());
    assert_eq!(bundle.decks(), &sample.decks[..]);
    for (id, kind, name, copies, fields) in &sample.cards {
        let card = bundle.card(id).unwrap().unwrap();
        assert_eq!(
            (&card.id, &card.kind, &card.name, &card.copies),
            (id, kind, name, copies)
        );
        assert_eq!(&card.fields, fields);
        // key order survives too
        assert!(card.fields.keys().eq(fields.keys()));
    }
    let zebra = bundle.card("zebra").unwrap().unwrap();
    assert!(zebra.fields["attack"].is_i64() && zebra.fields["speed"].is_f64());
    assert_eq!(
        serde_json::to_string(&zebra.fields["speed"]).unwrap(),
        "1.0"
    );
    assert!(bundle.card("nope").unwrap().is_none());
    assert!(bundle.card("").unwrap().is_none());
    let ids: Vec<&str> = bundle.ids().collect();
    assert_eq!(ids, ["anta", "bola-de-fogo", "x", "zebra"]);
}

#[test]
fn decompile_json_flattens_cards_as_written() {
    let json = Bundle::from_bytes(Sample::new().encode())
        .unwrap()
        .to_json()
        .unwrap();
    assert_eq!(json["game"]["kinds"]["spell"]["name"], "Feitiço");
    let zebra = &json["cards"][3];
    assert_eq!(
        zebra,
        &json!({"id": "zebra", "kind": "unit", "name": "Zebra", "copies": 3, "attack": 1, "speed": 1.0, "tags": ["a", "b"]})
    );
    assert_eq!(json["decks"][0]["zones"]["main"]["zebra"], 3);
}

#[test]
fn encoding_is_deterministic_and_independent_of_card_order() {
    let sample = Sample::new();
    let a = sample.encode();
    let mut records = sample.records();
    records.reverse();
    let b = encode(
        &manifest(),
        None,
        &records,
        &sample.decks,
        SourceHash::of([("cards/demo/game.toml", "x")]),
    )
    .unwrap();
    assert_eq!(a, b);
}

#[test]
fn duplicate_ids_and_too_deep_fields_are_refused_by_the_writer() {
    let sample = Sample::new();
    let mut records = sample.records();
    records.push(records[0]);
    assert!(
        matches!(encode(&manifest(), None, &records, &[], SourceHash::default()), Err(EncodeError::DuplicateId(id)) if id == "zebra")
    );

    let mut deep = json!(1);
    for _ in 0..MAX_DEPTH {
        deep = json!([deep]);
    }
    let ok = fields(json!({ "f": deep }));
    let card = CardRecord {
        id: "x",
        kind: "unit",
        name: "X",
        copies: None,
        fields: &ok,
        i18n: None,
        errata: &[],
    };
    let bytes = encode(&manifest(), None, &[card], &[], SourceHash::default()).unwrap();
    let read = Bundle::from_bytes(bytes)
        .unwrap()
        .card("x")
        .unwrap()
        .unwrap();
    assert_eq!(
        read.fields["f"], ok["f"],
        "MAX_DEPTH levels are written and read back"
    );

    let too_deep = fields(json!({ "f": [ok["f"].clone()] }));
    let card = CardRecord {
        id: "x",
        kind: "unit",
        name: "X",
        copies: None,
        fields: &too_deep,
        i18n: None,
        errata: &[],
    };
    assert!(matches!(
        encode(&manifest(), None, &[card], &[], SourceHash::default()),
        Err(EncodeError::TooDeep { .. })
    ));
}

/// Two published changes of a card, the later one first.
fn two_errata() -> Vec<crate::validate::errata::Erratum> {
    use crate::validate::errata::Erratum;
    vec![
        Erratum {
            version: "1.10".into(),
            date: "2025-06-01".into(),
            note: "Dano 3.".into(),
            was: fields(json!({ "attack": 2, "speed": 1.5 })),
        },
        Erratum {
            version: "1.2".into(),
            date: "2025-01-15".into(),
            note: String::new(),
            was: Map::new(),
        },
    ]
}

#[test]
fn a_card_round_trips_with_its_errata_and_its_version() {
    let f = fields(json!({ "attack": 3 }));
    let errata = two_errata();
    let card = |id, errata| CardRecord {
        id,
        kind: "unit",
        name: "X",
        copies: None,
        fields: &f,
        i18n: None,
        errata,
    };
    let cards = [card("changed", &errata[..]), card("same", &[])];
    let bytes = encode(&manifest(), None, &cards, &[], SourceHash::default()).unwrap();
    let again = encode(&manifest(), None, &cards, &[], SourceHash::default()).unwrap();
    assert_eq!(bytes, again, "a bundle with errata is byte-deterministic");
    let bundle = Bundle::from_bytes(bytes).unwrap();
    assert_eq!(bundle.header().format_minor, 5);
    let changed = bundle.card("changed").unwrap().unwrap();
    assert_eq!(changed.version.as_deref(), Some("1.10"));
    assert_eq!(changed.errata, errata);
    assert_eq!(changed.fields, f, "errata are no field");
    assert_eq!(
        changed.to_source_json()["errata"][0]["was"]["speed"],
        json!(1.5)
    );
    let same = bundle.card("same").unwrap().unwrap();
    assert_eq!((same.version, same.errata), (None, Vec::new()));
}

#[test]
fn a_packed_record_is_written_as_the_same_bytes_as_its_card_record() {
    use crate::validate::PackedFields;
    let f = fields(
        json!({ "attack": 3, "speed": 2.5, "text": "Guardião {dano}", "list": [1, {"a": null}] }),
    );
    let packed = PackedFields::pack(&f);
    let mut translated = Translated::new();
    translated.insert(
        "en".into(),
        [("name".to_owned(), "Guardian".to_owned())].into(),
    );
    for (copies, i18n) in [
        (None, None),
        (Some(3), None),
        (Some(70_000), Some(&translated)),
        (None, Some(&translated)),
    ] {
        let plain = CardRecord {
            id: "c",
            kind: "unit",
            name: "Guardião",
            copies,
            fields: &f,
            i18n,
            errata: &[],
        };
        let packed = PackedRecord {
            id: "c",
            kind: "unit",
            name: "Guardião",
            copies,
            fields: &packed,
            i18n,
            errata: &[],
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        rmp_serde::encode::write_named(&mut a, &plain).unwrap();
        packed.write(&mut b).unwrap();
        assert_eq!(a, b, "copies {copies:?}, i18n {}", i18n.is_some());
    }
    let errata = two_errata();
    let plain = CardRecord {
        id: "c",
        kind: "unit",
        name: "Guardião",
        copies: None,
        fields: &f,
        i18n: None,
        errata: &errata,
    };
    let with_errata = PackedRecord {
        id: "c",
        kind: "unit",
        name: "Guardião",
        copies: None,
        fields: &packed,
        i18n: None,
        errata: &errata,
    };
    let (mut a, mut b) = (Vec::new(), Vec::new());
    rmp_serde::encode::write_named(&mut a, &plain).unwrap();
    with_errata.write(&mut b).unwrap();
    assert_eq!(a, b, "with errata");
    // Too deep is refused the same way, naming the field.
    let mut deep = json!(1);
    for _ in 0..=MAX_DEPTH {
        deep = json!([deep]);
    }
    let deep = PackedFields::pack(&fields(json!({ "ok": 1, "f": deep })));
    let record = PackedRecord {
        id: "c",
        kind: "unit",
        name: "C",
        copies: None,
        fields: &deep,
        i18n: None,
        errata: &[],
    };
    let err = record.write(&mut Vec::new()).unwrap_err();
    assert!(
        matches!(&err, EncodeError::TooDeep { id, field } if id == "c" && field == "f"),
        "{err}"
    );
}

#[test]
fn an_empty_game_round_trips() {
    let bytes = encode(&manifest(), None, &[], &[], SourceHash::default()).unwrap();
    let bundle = Bundle::from_bytes(bytes).unwrap();
    assert!(bundle.is_empty());
    assert!(bundle.card("x").unwrap().is_none());
    assert_eq!(bundle.to_json().unwrap()["cards"], json!([]));
}

#[test]
fn every_truncation_is_refused() {
    let bytes = Sample::new().encode();
    for len in 0..bytes.len() {
        let err = Bundle::from_bytes(&bytes[..len]).unwrap_err();
        assert!(
            matches!(err, BundleError::NotABundle | BundleError::Truncated { .. }),
            "length {len}: {err}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Bundle::from_bytes(longer),
        Err(BundleError::TrailingBytes { .. })
    ));
}

#[test]
fn every_single_bit_flip_is_refused() {
    let bytes = Sample::new().encode();
    for bit in 0..bytes.len() * 8 {
        let mut b = bytes.clone();
        b[bit / 8] ^= 1 << (bit % 8);
        assert!(
            Bundle::from_bytes(b).is_err(),
            "flipping bit {bit} went unnoticed"
        );
    }
}

#[test]
fn wrong_magic_and_wrong_version_are_named() {
    let bytes = Sample::new().encode();
    let mut b = bytes.clone();
    b[1] = b'X';
    assert!(matches!(
        Bundle::from_bytes(b),
        Err(BundleError::NotABundle)
    ));
    assert!(matches!(
        Bundle::from_bytes(b"{\"game\": 1}".to_vec()),
        Err(BundleError::NotABundle)
    ));
    let mut b = bytes;
    b[8..10].copy_from_slice(&2u16.to_le_bytes());
    fix_checksums(&mut b);
    let err = Bundle::from_bytes(b).unwrap_err();
    assert!(matches!(err, BundleError::Version { found: 2 }));
    assert!(
        err.to_string().contains("version 2 is not supported"),
        "{err}"
    );
}

#[test]
fn a_hundred_thousand_deep_nesting_is_refused_without_recursing() {
    let mut value = vec![0x91; 100_000];
    value.push(0xc0);
    let bytes = with_record(&record_with_field(&value));
    let bundle = Bundle::from_bytes(bytes).unwrap(); // records decode lazily
    let err = bundle.card("x").unwrap_err();
    assert!(err.to_string().contains("nest deeper than"), "{err}");
    // the same for maps
    let mut value = Vec::new();
    for _ in 0..100_000 {
        value.extend_from_slice(&[0x81, 0xa1, b'k']);
    }
    value.push(0xc0);
    assert!(read_everything(with_record(&record_with_field(&value))).is_err());
}

#[test]
fn lengths_claiming_gigabytes_are_refused_without_allocating_them() {
    let game = rmp_serde::to_vec_named(&manifest()).unwrap();
    let huge = 0xffff_fff0_u32.to_be_bytes();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("str32", record_with_field(&[&[0xdb][..], &huge].concat())),
        ("bin32", record_with_field(&[&[0xc6][..], &huge].concat())),
        (
            "array32",
            record_with_field(&[&[0xdd][..], &huge, &[0xc0]].concat()),
        ),
        (
            "map32",
            record_with_field(&[&[0xdf][..], &huge, &[0xa1, b'k', 0xc0]].concat()),
        ),
        (
            "ext32",
            record_with_field(&[&[0xc9][..], &huge, &[1]].concat()),
        ),
    ];
    for (name, record) in cases {
        let (result, largest) = largest_allocation(|| read_everything(with_record(&record)));
        assert!(result.is_err(), "{name} accepted");
        assert!(largest < 1 << 20, "{name}: allocated {largest} bytes");
    }
    // a deck list and a kinds map that claim four billion entries
    let decks = [&[0xdd][..], &huge].concat();
    let (result, largest) = largest_allocation(|| {
        Bundle::from_bytes(assemble(
            &game,
            &decks,
            &index_of_one("x", 1),
            &one_block(&[0xc0]),
            1,
            0,
        ))
    });
    assert!(result.is_err() && largest < 1 << 20, "decks: {largest}");
    let mut kinds = rmp_serde::to_vec_named(&manifest()).unwrap();
    let at = kinds.windows(5).position(|w| w == b"kinds").unwrap() + 5;
    kinds.truncate(at);
    kinds.extend_from_slice(&[&[0xdf][..], &huge].concat());
    let (result, largest) = largest_allocation(|| {
        Bundle::from_bytes(assemble(
            &kinds,
            &[0x90],
            &index_of_one("x", 1),
            &one_block(&[0xc0]),
            1,
            0,
        ))
    });
    assert!(result.is_err() && largest < 1 << 20, "kinds: {largest}");
    // an index that claims four billion entries, and a header that claims 4 GiB
    let mut index = index_of_one("x", 1);
    index[0..4].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = Bundle::from_bytes(assemble(
        &game,
        &[0x90],
        &index,
        &one_block(&[0xc0]),
        u32::MAX,
        0,
    ))
    .unwrap_err();
    assert!(err.to_string().contains("do not fit"), "{err}");
    let mut b = Sample::new().encode();
    b[80..84].copy_from_slice(&u32::MAX.to_le_bytes());
    fix_checksums(&mut b);
    assert!(matches!(
        Bundle::from_bytes(b),
        Err(BundleError::Truncated { .. })
    ));
}

#[test]
fn a_crafted_index_is_refused() {
    let game = rmp_serde::to_vec_named(&manifest()).unwrap();
    let record = record_with_field(&[1]);
    let len = record.len() as u32;
    let open = |index: &[u8], count| {
        Bundle::from_bytes(assemble(
            &game,
            &[0x90],
            index,
            &one_block(&record),
            count,
            0,
        ))
    };
    // a record length past the records
    assert!(open(&index_of_one("x", len + 1), 1).is_err());
    // an id that is not the record's
    let bundle = open(&index_of_one("y", len), 1).unwrap();
    assert!(
        bundle
            .card("y")
            .unwrap_err()
            .to_string()
            .contains("points at card `x`")
    );
    // an id that is not UTF-8
    let mut index = index_of_one("x", len);
    *index.last_mut().unwrap() = 0xff;
    assert!(open(&index, 1).is_err());
    // a count that differs from the header's
    assert!(open(&index_of_one("x", len), 2).is_err());
    // sections outside the payload
    let mut b = with_record(&record);
    b[112..116].copy_from_slice(&u32::MAX.to_le_bytes());
    fix_checksums(&mut b);
    assert!(
        Bundle::from_bytes(b)
            .unwrap_err()
            .to_string()
            .contains("outside")
    );
}

#[test]
fn crafted_blocks_are_refused_without_inflating_past_their_claim() {
    let game = rmp_serde::to_vec_named(&manifest()).unwrap();
    let record = record_with_field(&[1]);
    let len = record.len() as u32;
    let open = |cards: &[u8]| {
        largest_allocation(|| {
            read_everything(assemble(
                &game,
                &[0x90],
                &index_of_one("x", len),
                cards,
                1,
                0,
            ))
        })
    };
    // a block of 20 bytes that claims to inflate past the limit: refused at once
    let (result, largest) = open(&raw_block(&[0x78; 20], 16 << 20));
    assert!(
        result
            .unwrap_err()
            .to_string()
            .contains("claims to inflate")
    );
    assert!(largest < 1 << 20, "{largest}");
    // a zip bomb: megabytes of zeros, but the table says the record's length
    let mut bomb = vec![0u8; 8 << 20];
    bomb[..record.len()].copy_from_slice(&record);
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut z, &bomb).unwrap();
    let (result, largest) = open(&raw_block(&z.finish().unwrap(), len));
    assert!(result.unwrap_err().to_string().contains("inflates to more"));
    assert!(largest < 1 << 20, "{largest}");
    // not zlib at all, a truncated stream, and a stream with bytes after it
    assert!(open(&raw_block(&record, len)).0.is_err());
    let good = one_block(&record);
    assert!(open(&good[..good.len() - 2]).0.is_err());
    let mut trailing = good.clone();
    trailing.push(0);
    assert!(open(&trailing).0.is_err());
    assert!(open(&good).0.is_ok());
    // a block the index does not cover, and an index past the last block
    let mut two = Vec::new();
    for n in [
        2,
        28,
        (good.len() - 16) as u32,
        len,
        (good.len() + 12) as u32,
        (good.len() - 16) as u32,
        len,
    ] {
        two.extend_from_slice(&n.to_le_bytes());
    }
    two.extend_from_slice(&good[16..]);
    two.extend_from_slice(&good[16..]);
    assert!(open(&two).0.is_err());
}

#[test]
fn a_block_must_inflate_to_its_length_and_end_where_its_stored_bytes_end() {
    let game = rmp_serde::to_vec_named(&manifest()).unwrap();
    let record = record_with_field(&[1]);
    let len = record.len() as u32;
    // `record_len`: what the index and the block table say the block
    // inflates to.
    let open = |stored: &[u8], record_len: u32| {
        read_everything(assemble(
            &game,
            &[0x90],
            &index_of_one("x", record_len),
            &raw_block(stored, record_len),
            1,
            0,
        ))
        .map_err(|e| e.to_string())
    };
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut z, &record).unwrap();
    let stream = z.finish().unwrap();
    let (deflate, adler) = stream.split_at(stream.len() - 4);

    let err = open(&stream, len + 1).unwrap_err();
    assert!(err.contains("block 0: inflates to fewer than the"), "{err}");
    let err = open(&stream, len - 1).unwrap_err();
    assert!(err.contains("block 0: inflates to more than the"), "{err}");
    // a byte between the DEFLATE data and the Adler-32
    let err = open(&[deflate, &[0], adler].concat(), len).unwrap_err();
    assert!(err.contains("stops 1 byte short of the Adler-32"), "{err}");
    // a DEFLATE block of the reserved type 3
    let err = open(&[0x78, 0x9c, 0x07, 0, 0, 0, 0], len).unwrap_err();
    assert!(err.contains("block 0: not a valid zlib stream"), "{err}");
    // a stream cut short, its Adler-32 kept
    let err = open(&[&deflate[..deflate.len() - 3], adler].concat(), len).unwrap_err();
    assert!(err.contains("block 0: "), "{err}");
    assert_eq!(open(&stream, len), Ok(()));
}

#[test]
fn blocks_of_every_size_read_alike_through_one_reused_buffer() {
    // Cards of 5 to 45 KiB: blocks of one to a few cards, a smaller block
    // after a larger one, so the reused buffer both grows and shrinks.
    let texts: Vec<Map<String, Value>> = [40, 5, 45, 9, 30, 6, 6, 20]
        .iter()
        .enumerate()
        .map(|(i, kib)| fields(json!({ "text": format!("{i}").repeat(kib * 1024) })))
        .collect();
    let ids: Vec<String> = (0..texts.len()).map(|i| format!("c{i}")).collect();
    let records: Vec<CardRecord> = ids
        .iter()
        .zip(&texts)
        .map(|(id, fields)| CardRecord {
            id,
            kind: "unit",
            name: id,
            copies: None,
            fields,
            i18n: None,
            errata: &[],
        })
        .collect();
    let bytes = encode(&manifest(), None, &records, &[], SourceHash::default()).unwrap();
    let bundle = Bundle::from_bytes(bytes).unwrap();
    assert!(bundle.block_count() >= 4, "{}", bundle.block_count());
    let owned: Vec<Card> = bundle.cards().collect::<Result<_, _>>().unwrap();
    assert_eq!(owned, bundle.decode_all().unwrap());
    let mut seen = Vec::new();
    bundle
        .visit(|card| {
            let text = card.field("text").unwrap().and_then(|v| v.as_str());
            seen.push((card.id.to_owned(), text.map(str::len)));
        })
        .unwrap();
    let expected: Vec<_> = owned
        .iter()
        .map(|c| (c.id.clone(), c.fields["text"].as_str().map(str::len)))
        .collect();
    assert_eq!(seen, expected);
    assert_eq!(seen[2].1, Some(45 * 1024));
    for (id, fields) in ids.iter().zip(&texts) {
        assert_eq!(&bundle.card(id).unwrap().unwrap().fields, fields);
    }
}

fn mutation() -> impl Strategy<Value = (usize, u8, u8)> {
    // (position, kind of change, byte)
    (any::<usize>(), 0u8..5, any::<u8>())
}

fn mutate(bytes: &mut Vec<u8>, (pos, kind, byte): (usize, u8, u8)) {
    if bytes.is_empty() {
        return;
    }
    let at = pos % bytes.len();
    match kind {
        0 => bytes[at] = byte,
        1 => bytes[at] ^= 1 << (byte % 8),
        2 => bytes.truncate(at),
        3 => bytes.insert(at, byte),
        _ => {
            bytes.remove(at);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_mutations_are_refused(mutations in prop::collection::vec(mutation(), 1..8)) {
        let original = Sample::new().encode();
        let mut bytes = original.clone();
        for m in mutations {
            mutate(&mut bytes, m);
        }
        prop_assume!(bytes != original);
        prop_assert!(Bundle::from_bytes(bytes).is_err());
    }

    #[test]
    fn mutations_behind_valid_checksums_never_panic(mutations in prop::collection::vec(mutation(), 1..8)) {
        let mut bytes = Sample::new().encode();
        for m in mutations {
            mutate(&mut bytes, m);
        }
        fix_checksums(&mut bytes);
        let (_, largest) = largest_allocation(|| read_everything(bytes));
        prop_assert!(largest < 1 << 20, "allocated {} bytes", largest);
    }
}

#[test]
fn a_record_over_16_mib_is_named_and_one_under_it_gets_a_block_of_its_own() {
    let big = |len: usize| fields(json!({ "text": "a".repeat(len) }));
    let huge = big(MAX_BLOCK + 1);
    let card = |id, fields| CardRecord {
        id,
        kind: "unit",
        name: "X",
        copies: None,
        fields,
        i18n: None,
        errata: &[],
    };
    let err = encode(
        &manifest(),
        None,
        &[card("x", &huge)],
        &[],
        SourceHash::default(),
    )
    .unwrap_err();
    assert!(matches!(&err, EncodeError::RecordTooLarge { id, .. } if id == "x"));
    assert!(err.to_string().contains("16 MiB"), "{err}");
    assert!(!err.to_string().contains("4 GiB"), "{err}");

    // A few small records, then a record just under the limit: it
    // cannot share the first block, so it starts the next one.
    let large = big(MAX_BLOCK - 100);
    let small = fields(json!({ "text": "b".repeat(20 * 1024) }));
    let bytes = encode(
        &manifest(),
        None,
        &[card("a", &small), card("b", &large)],
        &[],
        SourceHash::default(),
    )
    .unwrap();
    let bundle = Bundle::from_bytes(bytes).unwrap();
    assert_eq!(bundle.block_count(), 2);
    assert_eq!(bundle.card("b").unwrap().unwrap().fields, large);
}

#[test]
fn the_game_section_keeps_integers_as_written() {
    let manifest: Manifest = toml::from_str(
        "id = \"demo\"\nname = \"D\"\nlanguage = \"en\"\n[print]\nmargin = 5\ngutter = 2.0\n[kinds.unit]\nname = \"U\"\n",
    )
    .unwrap();
    let written = json!({"id": "demo", "print": {"margin": 5, "gutter": 2.0}});
    let bytes = encode(&manifest, Some(&written), &[], &[], SourceHash::default()).unwrap();
    let bundle = Bundle::from_bytes(bytes).unwrap();
    let print = &bundle.game()["print"];
    assert!(print["margin"].is_i64(), "{print}");
    assert!(print["gutter"].is_f64(), "{print}");
    // without the written form, numbers are as the manifest's types hold them
    let without = encode(&manifest, None, &[], &[], SourceHash::default()).unwrap();
    assert!(Bundle::from_bytes(without).unwrap().game()["print"]["margin"].is_f64());
    assert_eq!(bundle.manifest(), &manifest);
}

#[test]
fn borrowed_views_read_what_owned_cards_read() {
    let sample = Sample::new();
    let bundle = Bundle::from_bytes(sample.encode()).unwrap();
    let owned: Vec<Card> = bundle.cards().collect::<Result<_, _>>().unwrap();
    let mut seen = Vec::new();
    bundle
        .visit(|card| {
            let ratio = card.field("ratio").unwrap().and_then(|v| v.as_f64());
            assert_eq!(ratio.is_some(), card.id == "anta");
            seen.push(card.to_card().unwrap());
        })
        .unwrap();
    assert_eq!(seen, owned);
    let mut names = Vec::new();
    bundle.visit(|c| names.push(c.name.len())).unwrap();
    assert_eq!(names.len(), sample.cards.len());
}

#[test]
fn write_json_streams_what_to_json_holds() {
    let bytes = Sample::new().encode();
    let bundle = Bundle::from_bytes(bytes).unwrap();
    let mut streamed = Vec::new();
    bundle
        .write_json(&mut streamed, std::path::Path::new("b.carta"))
        .unwrap();
    let whole = serde_json::to_string_pretty(&bundle.to_json().unwrap()).unwrap();
    assert_eq!(String::from_utf8(streamed).unwrap(), whole);
}

#[test]
fn write_json_holds_one_card_at_a_time() {
    struct Count<'a>(&'a mut usize);
    impl std::io::Write for Count<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            *self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    // Four cards of NUL bytes: a bundle of a few kilobytes whose JSON (six
    // bytes a NUL) is far larger.
    let nul = "\0".repeat(2 << 20);
    let mut sample = Sample::new();
    sample.cards = (0..4)
        .map(|i| {
            let f = fields(json!({ "text": nul }));
            (format!("c{i}"), "unit".to_owned(), "N".to_owned(), None, f)
        })
        .collect();
    let bytes = sample.encode();
    assert!(bytes.len() < 64 << 10, "{} bytes", bytes.len());
    let bundle = Bundle::from_bytes(bytes).unwrap();
    let mut written = 0usize;
    let (done, largest) = largest_allocation(|| {
        bundle.write_json(
            std::io::BufWriter::new(Count(&mut written)),
            std::path::Path::new("b"),
        )
    });
    done.unwrap();
    assert!(written > 48 << 20, "{written}");
    assert!(largest < 12 << 20, "largest allocation {largest}");
}
