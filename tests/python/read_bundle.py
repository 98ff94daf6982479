#!/usr/bin/env python3
"""Reads a carta bundle following only docs/bundle-format.md, with the stock
`msgpack` package, and prints what `carta decompile` prints:
{"game": ..., "cards": [...], "decks": [...]}, every card found through the
index by binary search.

Usage: read_bundle.py BUNDLE
       read_bundle.py BUNDLE --field CARD PATH LANG
         (prints one field of one card in a language, with fallback, as JSON)
       read_bundle.py BUNDLE --manifest SECTION ID FIELD LANG
         (a kind's, zone's, format's, rule's or the game's string in a
         language, with fallback: `kinds action name en`, `game "" name en`)
       read_bundle.py BUNDLE --label VALUE LANG
         (an enum value's printed label in a language, with fallback)
"""

import json
import math
import struct
import sys
import zlib

import msgpack

MAGIC = b"\x89CARTA\r\n"
HEADER_LEN = 128
SECTIONS = ["game", "decks", "index", "cards"]
MAX_BLOCK = 16 * 1024 * 1024
MAX_INFLATE_RATIO = 1032
MAX_NESTING = 66
RESERVED = ("id", "kind", "name", "copies")
MAX_COPIES = 10000


class BundleError(Exception):
    pass


def check(cond, message):
    if not cond:
        raise BundleError(message)


REFUSED = {0xC0: "a nil value", 0xC1: "the unused marker 0xc1",
           0xCA: "a float 32 (the format stores floats as float 64)"}
REFUSED.update({m: "a binary value" for m in range(0xC4, 0xC7)})
REFUSED.update({m: "an extension value" for m in list(range(0xC7, 0xCA)) + list(range(0xD4, 0xD9))})


def check_markers(data):
    """Walks the markers of the one value in `data` (before unpacking it):
    only the types the format allows, strings as map keys, nesting at most
    66 containers deep, finite floats."""
    at, stack = 0, [(1, False)]  # per open container: items left, whether keys come next

    def be(n):
        nonlocal at
        check(at + n <= len(data), "a value runs past the end")
        v = int.from_bytes(data[at:at + n], "big")
        at += n
        return v

    while stack:
        left, is_map = stack.pop()
        if left == 0:
            continue
        stack.append((left - 1, is_map))
        check(at < len(data), "a value runs past the end")
        m = data[at]
        at += 1
        check(m not in REFUSED, REFUSED.get(m, "") + " (the format has none)")
        key_expected = is_map and left % 2 == 0
        is_str = 0xA0 <= m <= 0xBF or 0xD9 <= m <= 0xDB
        check(not key_expected or is_str, "a map key is not a string")
        if is_str:
            n = m & 0x1F if m <= 0xBF else be(1 << (m - 0xD9))
            check(at + n <= len(data), "a string runs past the end")
            at += n
        elif 0xCC <= m <= 0xCF:
            be(1 << (m - 0xCC))
        elif 0xD0 <= m <= 0xD3:
            be(1 << (m - 0xD0))
        elif m == 0xCB:
            (f,) = struct.unpack(">d", data[at:at + 8]) if at + 8 <= len(data) else (0.0,)
            be(8)
            check(math.isfinite(f), f"the float {f} is not finite")
        elif 0x90 <= m <= 0x9F or m in (0xDC, 0xDD) or 0x80 <= m <= 0x8F or m in (0xDE, 0xDF):
            is_container_map = 0x80 <= m <= 0x8F or m in (0xDE, 0xDF)
            if m <= 0x9F:
                n = m & 0x0F
            else:
                n = be(2 if m in (0xDC, 0xDE) else 4)
            check(len(stack) <= MAX_NESTING, "values nest deeper than 64 levels")
            check(n <= len(data) - at, "a container claims more items than there are bytes")
            stack.append((2 * n if is_container_map else n, is_container_map))


def unpack_one(data):
    """Exactly one MessagePack value that fills `data`, of the types the
    format allows."""
    check_markers(data)
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=True, max_buffer_size=len(data) or 1)
    unpacker.feed(data)
    try:
        value = unpacker.unpack()
    except UnicodeDecodeError:
        raise BundleError("a string is not UTF-8")
    check(unpacker.tell() == len(data), "bytes after the value")
    return value


def is_str_map(value, depth):
    """Whether `value` is a map of str, nested `depth` levels of maps."""
    if depth == 0:
        return isinstance(value, str)
    return isinstance(value, dict) and all(is_str_map(v, depth - 1) for v in value.values())


# The depth of string maps of each key of a language in the game's `i18n`.
TEXT_KEYS = {"game": 1, "kinds": 2, "zones": 2, "formats": 2, "rules": 2, "labels": 1}


def check_game_texts(game):
    """The game section's `labels` and `i18n` (format 1.1) have the types
    the format gives them; keys this reader does not know are ignored."""
    check(is_str_map(game.get("labels", {}), 1), "game section: labels")
    i18n = game.get("i18n", {})
    check(isinstance(i18n, dict), "game section: i18n")
    for lang, texts in i18n.items():
        check(isinstance(texts, dict), f"game section: i18n of {lang}")
        for key, depth in TEXT_KEYS.items():
            check(is_str_map(texts.get(key, {}), depth), f"game section: i18n {lang} {key}")


class Bundle:
    def __init__(self, data):
        check(data[:8] == MAGIC, "not a carta bundle")
        check(len(data) >= HEADER_LEN, "truncated header")
        # Any minor version of major version 1 reads: it only adds map keys,
        # which this reader ignores (or, in game and decks, passes through).
        (version, self.minor) = struct.unpack_from("<HH", data, 8)
        check(version == 1, f"unsupported format version {version}")
        check(zlib.crc32(data[:124]) == struct.unpack_from("<I", data, 124)[0], "damaged header")
        (self.card_count,) = struct.unpack_from("<I", data, 12)
        (self.deck_count,) = struct.unpack_from("<I", data, 120)
        self.source_hash = data[16:48].hex()
        version_field = data[48:80]
        end = version_field.find(b"\0")
        end = len(version_field) if end < 0 else end
        check(not version_field[end:].strip(b"\0"), "the carta version is not NUL-padded")
        self.carta_version = version_field[:end].decode("utf-8")
        payload_len, payload_crc = struct.unpack_from("<II", data, 80)
        payload = data[HEADER_LEN:]
        check(len(payload) == payload_len, "length differs from the header's")
        check(zlib.crc32(payload) == payload_crc, "damaged payload")
        sections = {}
        for i, name in enumerate(SECTIONS):
            off, length = struct.unpack_from("<II", data, 88 + 8 * i)
            check(off + length <= payload_len, f"{name} section outside the payload")
            sections[name] = payload[off:off + length]
        self.game = unpack_one(sections["game"])
        check(isinstance(self.game, dict) and isinstance(self.game.get("kinds"), dict), "game section")
        check_game_texts(self.game)
        self.decks = unpack_one(sections["decks"])
        check(len(self.decks) == self.deck_count, "deck count")
        self.blocks = self._read_blocks(sections["cards"])
        index = sections["index"]
        (self.n,) = struct.unpack_from("<I", index, 0)
        check(self.n == self.card_count, "index count")
        check(4 + 20 * self.n <= len(index), "index entries")
        self.index = index
        self.ids = index[4 + 20 * self.n:]
        self._check_index()

    @staticmethod
    def _read_blocks(cards):
        """The block table: (stored bytes, inflated length) of each block."""
        (count,) = struct.unpack_from("<I", cards, 0)
        expected = 4 + 12 * count
        check(expected <= len(cards), "block table")
        blocks = []
        for b in range(count):
            off, stored, raw = struct.unpack_from("<III", cards, 4 + 12 * b)
            check(off == expected and stored > 0 and raw > 0, f"block {b} misplaced")
            check(raw <= MAX_BLOCK and raw <= stored * MAX_INFLATE_RATIO, f"block {b} too large")
            expected += stored
            check(expected <= len(cards), f"block {b} past the section")
            blocks.append((cards[off:off + stored], raw))
        check(expected == len(cards), "blocks do not fill the section")
        return blocks

    def inflate(self, b):
        stored, raw_len = self.blocks[b]
        z = zlib.decompressobj()
        raw = z.decompress(stored, raw_len)
        check(z.eof and not z.unconsumed_tail and not z.unused_data, f"block {b} is damaged")
        check(len(raw) == raw_len, f"block {b} inflates to {len(raw)} bytes, not {raw_len}")
        return raw

    def entry(self, i):
        id_off, id_len, block, rec_off, rec_len = struct.unpack_from("<IIIII", self.index, 4 + 20 * i)
        return self.ids[id_off:id_off + id_len], block, rec_off, rec_len

    def _check_index(self):
        id_end = rec_end = block = 0
        previous = None
        for i in range(self.n):
            id_off, id_len, b, rec_off, rec_len = struct.unpack_from("<IIIII", self.index, 4 + 20 * i)
            if i > 0 and b == block + 1 and rec_end == self.blocks[block][1]:
                block, rec_end = b, 0
            check(id_off == id_end and b == block and rec_off == rec_end, f"entry {i} not contiguous")
            check(id_len > 0 and rec_len > 0, f"entry {i} empty")
            id_end += id_len
            rec_end += rec_len
            check(block < len(self.blocks) and rec_end <= self.blocks[block][1], f"entry {i} past its block")
            key = self.ids[id_off:id_end]
            check(previous is None or previous < key, f"entry {i} out of order")
            previous = key
        covered = (self.n == 0 and not self.blocks) or (
            block + 1 == len(self.blocks) and rec_end == self.blocks[-1][1])
        check(id_end == len(self.ids) and covered, "index does not cover the ids and blocks")

    def ids_in_order(self):
        return [self.entry(i)[0].decode("utf-8") for i in range(self.n)]

    def card(self, card_id):
        key, lo, hi = card_id.encode("utf-8"), 0, self.n
        while lo < hi:
            mid = (lo + hi) // 2
            mid_id, block, rec_off, rec_len = self.entry(mid)
            if mid_id < key:
                lo = mid + 1
            elif mid_id > key:
                hi = mid
            else:
                raw = self.inflate(block)
                record = unpack_one(raw[rec_off:rec_off + rec_len])
                self.check_record(record)
                check(record["id"] == card_id, "index points at another card")
                return record
        return None


    def check_record(self, record):
        check(isinstance(record, dict), "a record is not a map")
        for key in ("id", "kind", "name", "fields"):
            check(key in record, f"a record has no `{key}`")
        for key in ("id", "kind", "name"):
            check(isinstance(record[key], str), f"`{key}` is not a string")
        check(isinstance(record["fields"], dict), "`fields` is not a map")
        if "copies" in record:
            copies = record["copies"]
            check(type(copies) is int and 1 <= copies <= MAX_COPIES,
                  f"`copies` is not a whole number from 1 to {MAX_COPIES}")
        for key in RESERVED:
            check(key not in record["fields"],
                  f"a record's `fields` holds `{key}`, which is a key of the record itself")
        if "errata" in record:
            check_errata(record)
        check(record["kind"] in self.game["kinds"],
              f"card `{record['id']}` is of kind `{record['kind']}`, which the game section does not declare")


def version_key(version):
    """A dotted version as numbers to compare, trailing zeros dropped."""
    parts = [int(n) for n in version.split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return parts


def check_errata(record):
    """`errata` (format 1.5) is an array of maps, and `version` is the
    latest of their versions."""
    errata = record["errata"]
    check(isinstance(errata, list) and errata, "`errata` is not a non-empty array")
    for e in errata:
        check(isinstance(e, dict) and all(isinstance(e.get(k), str) for k in ("version", "date", "note"))
              and isinstance(e.get("was"), dict), "an erratum is not a map of its four keys")
    latest = max((e["version"] for e in errata), key=version_key)
    version = record.get("version")
    check(isinstance(version, str) and version_key(version) == version_key(latest),
          "`version` is not the latest erratum's")


def as_source(record):
    """The card as written in its TOML file; record keys this reader does
    not know are not card fields and are left out."""
    card = {"id": record["id"], "kind": record["kind"], "name": record["name"]}
    if "copies" in record:
        card["copies"] = record["copies"]
    card.update(record["fields"])
    if "errata" in record:
        card["errata"] = record["errata"]
    if "i18n" in record:
        card["i18n"] = record["i18n"]
    return card


def field_in(record, path, lang):
    """Field `path` (`name`, `effect`, `levels.0.ability.text`) of a card
    record in language `lang`: its translation, else the source value."""
    translated = record.get("i18n", {}).get(lang, {})
    if path in translated:
        return translated[path]
    if path == "name":
        return record["name"]
    value = record["fields"]
    for seg in path.split("."):
        if isinstance(value, list) and seg.isdigit() and int(seg) < len(value):
            value = value[int(seg)]
        elif isinstance(value, dict) and seg in value:
            value = value[seg]
        else:
            return None
    return value


def source_text(game, section, ident, field):
    """A string of the game section in the game's own language, named as
    translation files name it: (`game`, "", `name`), (`kinds`, `action`,
    `back`), (`rules`, `casual.deck-size`, `name`); None when absent."""
    if section == "game":
        return game.get(field)
    if section in ("kinds", "zones", "formats"):
        item = game.get(section, {}).get(ident, {})
        if section == "kinds" and field == "back":
            return item.get("print", {}).get("back")
        return item.get(field)
    if section == "rules":
        fmt, _, rule = ident.rpartition(".")
        if fmt:
            lists = [game.get("formats", {}).get(fmt, {}).get("deck-rules", [])]
        else:
            lists = [game.get("deck-rules", []), game.get("box-rules", [])]
        for rules in lists:
            for r in rules:
                if r.get("id") == rule:
                    return r.get(field)
    return None


def manifest_text_in(game, section, ident, field, lang):
    """A string of the game section in language `lang`: its translation
    (the game section's `i18n`), else the source text."""
    texts = game.get("i18n", {}).get(lang, {})
    if section == "game":
        translated = texts.get("game", {}).get(field)
    else:
        translated = texts.get(section, {}).get(ident, {}).get(field)
    if translated is not None:
        return translated
    return source_text(game, section, ident, field)


def label_in(game, value, lang):
    """The printed label of enum value `value` in `lang`, else in the
    game's own language; None when no schema labels it."""
    translated = game.get("i18n", {}).get(lang, {}).get("labels", {}).get(value)
    return translated if translated is not None else game.get("labels", {}).get(value)


def main():
    with open(sys.argv[1], "rb") as f:
        bundle = Bundle(f.read())
    if len(sys.argv) == 6 and sys.argv[2] == "--field":
        card_id, path, lang = sys.argv[3:]
        record = bundle.card(card_id)
        check(record is not None, f"no card {card_id}")
        json.dump(field_in(record, path, lang), sys.stdout, ensure_ascii=False)
        print()
        return
    if len(sys.argv) == 7 and sys.argv[2] == "--manifest":
        json.dump(manifest_text_in(bundle.game, *sys.argv[3:]), sys.stdout, ensure_ascii=False)
        print()
        return
    if len(sys.argv) == 5 and sys.argv[2] == "--label":
        json.dump(label_in(bundle.game, *sys.argv[3:]), sys.stdout, ensure_ascii=False)
        print()
        return
    cards = [as_source(bundle.card(i)) for i in bundle.ids_in_order()]
    assert bundle.card("no such card, surely") is None
    json.dump({"game": bundle.game, "cards": cards, "decks": bundle.decks}, sys.stdout, ensure_ascii=False)
    print()


if __name__ == "__main__":
    try:
        main()
    except BundleError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
