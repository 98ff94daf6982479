#!/usr/bin/env python3
"""Reads a carta bundle following only docs/bundle-format.md, with the stock
`msgpack` package, and prints what `carta decompile` prints:
{"game": ..., "cards": [...], "decks": [...]}, every card found through the
index by binary search.

Usage: read_bundle.py BUNDLE
"""

import json
import struct
import sys
import zlib

import msgpack

MAGIC = b"\x89CARTA\r\n"
HEADER_LEN = 128
SECTIONS = ["game", "decks", "index", "cards"]


class BundleError(Exception):
    pass


def check(cond, message):
    if not cond:
        raise BundleError(message)


def unpack_one(data):
    """Exactly one MessagePack value that fills `data`, nesting at most 66 deep."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=True, max_buffer_size=len(data) or 1)
    unpacker.feed(data)
    value = unpacker.unpack()
    check(unpacker.tell() == len(data), "bytes after the value")
    return value


class Bundle:
    def __init__(self, data):
        check(data[:8] == MAGIC, "not a carta bundle")
        check(len(data) >= HEADER_LEN, "truncated header")
        (version, flags) = struct.unpack_from("<HH", data, 8)
        check(version == 1, f"unsupported format version {version}")
        check(zlib.crc32(data[:124]) == struct.unpack_from("<I", data, 124)[0], "damaged header")
        check(flags == 0, "unknown flags")
        (self.card_count,) = struct.unpack_from("<I", data, 12)
        (self.deck_count,) = struct.unpack_from("<I", data, 120)
        self.source_hash = data[16:48].hex()
        self.carta_version = data[48:80].rstrip(b"\0").decode("utf-8")
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
        self.decks = unpack_one(sections["decks"])
        check(len(self.decks) == self.deck_count, "deck count")
        self.cards = sections["cards"]
        index = sections["index"]
        (self.n,) = struct.unpack_from("<I", index, 0)
        check(self.n == self.card_count, "index count")
        check(4 + 16 * self.n <= len(index), "index entries")
        self.index = index
        self.ids = index[4 + 16 * self.n:]
        self._check_index()

    def entry(self, i):
        id_off, id_len, rec_off, rec_len = struct.unpack_from("<IIII", self.index, 4 + 16 * i)
        return self.ids[id_off:id_off + id_len], rec_off, rec_len

    def _check_index(self):
        id_end = rec_end = 0
        previous = None
        for i in range(self.n):
            id_off, id_len, rec_off, rec_len = struct.unpack_from("<IIII", self.index, 4 + 16 * i)
            check(id_off == id_end and rec_off == rec_end, f"entry {i} not contiguous")
            check(id_len > 0 and rec_len > 0, f"entry {i} empty")
            id_end += id_len
            rec_end += rec_len
            key = self.ids[id_off:id_end]
            check(previous is None or previous < key, f"entry {i} out of order")
            previous = key
        check(id_end == len(self.ids) and rec_end == len(self.cards), "index does not cover the section")

    def ids_in_order(self):
        return [self.entry(i)[0].decode("utf-8") for i in range(self.n)]

    def card(self, card_id):
        key, lo, hi = card_id.encode("utf-8"), 0, self.n
        while lo < hi:
            mid = (lo + hi) // 2
            mid_id, rec_off, rec_len = self.entry(mid)
            if mid_id < key:
                lo = mid + 1
            elif mid_id > key:
                hi = mid
            else:
                record = unpack_one(self.cards[rec_off:rec_off + rec_len])
                check(record["id"] == card_id, "index points at another card")
                return record
        return None


def as_source(record):
    card = {"id": record["id"], "kind": record["kind"], "name": record["name"]}
    if "copies" in record:
        card["copies"] = record["copies"]
    card.update(record["fields"])
    return card


def main():
    with open(sys.argv[1], "rb") as f:
        bundle = Bundle(f.read())
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
