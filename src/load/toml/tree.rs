//! A cheaper reader for the common case: a document built straight from
//! `toml_parser`'s events into a small spanned tree whose scalars are
//! already what JSON holds (`i64`, finite `f64`, datetimes as RFC 3339
//! text), without `toml`'s `DeTable` and its map per table.
//!
//! It follows `toml`'s own builder (`toml::de::parser`) rule for rule —
//! implicit, dotted and inline tables, arrays of tables, key order — but
//! reports nothing: on any error (a syntax error, a duplicate key, an
//! integer that is not an `i64`, a non-finite float) it gives `None`, and
//! the caller reads the file again with [`parse_toml`](super::parse_toml)
//! for the diagnostics, which then are exactly `toml`'s. A table of more
//! than [`MAX_KEYS`] keys gives `None` too: keys are found by a linear scan.

use std::borrow::Cow;

use serde_json::{Map, Number, Value};
use toml_parser::decoder::ScalarKind;
use toml_parser::parser::{Event, EventKind, RecursionGuard, ValidateWhitespace};
use toml_parser::{ParseError, Raw, Source};

use crate::diag::Span;

/// As deep as `toml` lets a document nest (its recursion limit).
const MAX_DEPTH: u32 = 80;

/// The most keys a table may have for this reader; a larger one is left
/// to `toml` (whose tables are hash maps), so a hostile file of many keys
/// costs no quadratic scan.
pub const MAX_KEYS: usize = 64;

/// The room a table is given for its first key.
const FIRST_KEYS: usize = 8;

/// A value and the span of its source text.
#[derive(Debug, Clone, PartialEq)]
pub struct Node<'a> {
    /// Where the value is written (a table of `[[…]]` or `[…]`: its header).
    pub span: Span,
    /// The value.
    pub item: Item<'a>,
}

/// A TOML value as JSON will hold it.
#[derive(Debug, Clone, PartialEq)]
pub enum Item<'a> {
    /// A string, borrowed from the text when it has no escape.
    String(Cow<'a, str>),
    /// An integer (every TOML integer that fits in 64 bits).
    Integer(i64),
    /// A finite float.
    Float(f64),
    /// A boolean.
    Boolean(bool),
    /// A datetime, as RFC 3339 text (as `toml` displays it).
    Datetime(String),
    /// An array; `true` for an array of tables (`[[…]]`).
    Array(Vec<Node<'a>>, bool),
    /// A table.
    Table(Table<'a>),
}

/// One key of a table.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry<'a> {
    /// The key, decoded.
    pub key: Cow<'a, str>,
    /// Where the key is written.
    pub key_span: Span,
    /// Its value.
    pub node: Node<'a>,
}

/// A table: its entries in the order `toml` keeps them (`preserve_order`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table<'a> {
    /// The entries.
    pub entries: Vec<Entry<'a>>,
    /// Made by a dotted key or a deeper header, not defined itself.
    implicit: bool,
    /// Made by a dotted key.
    dotted: bool,
    /// Written `{ … }`.
    inline: bool,
}

impl<'a> Table<'a> {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Node<'a>> {
        self.entries.iter().find(|e| e.key == key).map(|e| &e.node)
    }

    fn position(&self, key: &str) -> Option<usize> {
        self.entries.iter().position(|e| e.key == key)
    }

    /// The index of `key`'s entry, made (a table, with `make`) if missing.
    fn child(&mut self, key: &Key<'a>, make: impl FnOnce() -> Table<'a>) -> Option<usize> {
        if let Some(at) = self.position(&key.0) {
            return Some(at);
        }
        self.push(key.clone(), table_node(key.1.clone(), make()))?;
        Some(self.entries.len() - 1)
    }

    /// Adds an entry; `None` when the table would exceed [`MAX_KEYS`].
    fn push(&mut self, key: Key<'a>, node: Node<'a>) -> Option<&mut Node<'a>> {
        if self.entries.len() >= MAX_KEYS {
            return None;
        }
        if self.entries.capacity() == 0 {
            // A card's table has a handful of keys: one allocation for
            // them, not one of four and then one of eight.
            self.entries.reserve_exact(FIRST_KEYS);
        }
        self.entries.push(Entry {
            key: key.0,
            key_span: key.1,
            node,
        });
        self.entries.last_mut().map(|e| &mut e.node)
    }

    /// The table as a JSON object (strings and keys copied out of the text).
    pub fn into_json(self) -> Map<String, Value> {
        self.into_json_where(|_| true)
    }

    /// The table as a JSON object of the keys `keep` accepts (a card's
    /// fields a check keeps: the others are never copied).
    pub fn into_json_where(self, keep: impl Fn(&str) -> bool) -> Map<String, Value> {
        let kept = self.entries.iter().filter(|e| keep(&e.key)).count();
        let mut map = Map::with_capacity(kept);
        for e in self.entries {
            if keep(&e.key) {
                map.insert(e.key.into_owned(), e.node.item.into_json());
            }
        }
        map
    }

    fn to_json(&self) -> Map<String, Value> {
        self.entries
            .iter()
            .map(|e| (e.key.to_string(), e.node.item.to_json()))
            .collect()
    }
}

impl Item<'_> {
    /// The value as JSON.
    pub fn into_json(self) -> Value {
        match self {
            Item::String(s) => Value::String(s.into_owned()),
            Item::Integer(i) => Value::Number(i.into()),
            // Finite by construction (`scalar` refuses the others).
            Item::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
            Item::Boolean(b) => Value::Bool(b),
            Item::Datetime(d) => Value::String(d),
            Item::Array(items, _) => {
                Value::Array(items.into_iter().map(|n| n.item.into_json()).collect())
            }
            Item::Table(t) => Value::Object(t.into_json()),
        }
    }

    /// The value as JSON, copied (for what reads a value whole: an error's
    /// instance, a `const` or `enum` of arrays and tables).
    pub fn to_json(&self) -> Value {
        match self {
            Item::String(s) => Value::String(s.to_string()),
            Item::Integer(i) => Value::Number((*i).into()),
            Item::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
            Item::Boolean(b) => Value::Bool(*b),
            Item::Datetime(d) => Value::String(d.clone()),
            Item::Array(items, _) => Value::Array(items.iter().map(|n| n.item.to_json()).collect()),
            Item::Table(t) => Value::Object(t.to_json()),
        }
    }

    /// The string, if the value is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Item::String(s) => Some(s),
            _ => None,
        }
    }
}

/// A decoded key and its span.
type Key<'a> = (Cow<'a, str>, Span);

/// Reads `text` as a TOML document; `None` when it has any error (or a
/// table too large for this reader): read it with `parse_toml` then.
pub fn read(text: &str) -> Option<Table<'_>> {
    let source = Source::new(text);
    let tokens = source.lex().into_vec();
    // Whitespace, comments and newlines are checked, then dropped: the
    // reader has no use for them, and they were half of all events.
    let mut events = Vec::with_capacity(tokens.len() / 2);
    let mut significant = |event: Event| {
        if !matches!(
            event.kind(),
            EventKind::Whitespace | EventKind::Comment | EventKind::Newline
        ) {
            events.push(event);
        }
    };
    let mut error: Option<ParseError> = None;
    {
        let mut whitespace = ValidateWhitespace::new(&mut significant, source);
        let mut guard = RecursionGuard::new(&mut whitespace, MAX_DEPTH);
        toml_parser::parser::parse_document(&tokens, &mut guard, &mut error);
    }
    if error.is_some() {
        return None;
    }
    Reader {
        text,
        events: &events,
        at: 0,
    }
    .document()
}

/// A header: `[path.key]` or `[[path.key]]`.
struct Header<'a> {
    path: Vec<Key<'a>>,
    key: Key<'a>,
    span: Span,
    is_array: bool,
}

/// The events of a document that parsed without an error, less its
/// whitespace, comments and newlines, walked as `toml`'s builder walks them.
struct Reader<'e, 'a> {
    text: &'a str,
    events: &'e [Event],
    at: usize,
}

impl<'a> Reader<'_, 'a> {
    fn next(&mut self) -> Option<Event> {
        let e = self.events.get(self.at).copied();
        self.at += 1;
        e
    }

    fn peek(&self, ahead: usize) -> Option<EventKind> {
        self.events.get(self.at + ahead).map(Event::kind)
    }

    fn raw(&self, event: Event) -> Option<Raw<'a>> {
        let span = event.span();
        let text = self.text.get(span.start()..span.end())?;
        Some(Raw::new_unchecked(text, event.encoding(), span))
    }

    fn document(mut self) -> Option<Table<'a>> {
        let mut state = Document::default();
        while let Some(event) = self.next() {
            match event.kind() {
                EventKind::StdTableOpen | EventKind::ArrayTableOpen => {
                    state.finish_table()?;
                    let header = self.header(event)?;
                    state.start_table(header)?;
                }
                EventKind::SimpleKey => {
                    let (path, key) = self.key(event)?;
                    if self.next()?.kind() != EventKind::KeyValSep {
                        return None;
                    }
                    let value = self.value()?;
                    state.key_value(&path, key, value)?;
                }
                _ => return None,
            }
        }
        state.finish_table()?;
        Some(state.root)
    }

    fn header(&mut self, open: Event) -> Option<Header<'a>> {
        let mut name = None;
        loop {
            let event = self.next()?;
            match event.kind() {
                EventKind::SimpleKey => name = Some(self.key(event)?),
                EventKind::StdTableClose | EventKind::ArrayTableClose => {
                    let (path, key) = name?;
                    return Some(Header {
                        path,
                        key,
                        span: open.span().start()..event.span().end(),
                        is_array: open.kind() == EventKind::ArrayTableOpen,
                    });
                }
                _ => return None,
            }
        }
    }

    /// A key, dotted or not: the path to its table and the last key.
    fn key(&mut self, first: Event) -> Option<(Vec<Key<'a>>, Key<'a>)> {
        let first = self.decode_key(first)?;
        if self.peek(0) != Some(EventKind::KeySep) {
            // Most keys are not dotted: no path to allocate.
            return Some((Vec::new(), first));
        }
        let mut keys = vec![first];
        while self.peek(0) == Some(EventKind::KeySep) {
            self.at += 1;
            let event = self.next()?;
            if event.kind() != EventKind::SimpleKey {
                return None;
            }
            keys.push(self.decode_key(event)?);
        }
        let key = keys.pop()?;
        (keys.len() < MAX_DEPTH as usize).then_some((keys, key))
    }

    fn decode_key(&self, event: Event) -> Option<Key<'a>> {
        let mut key = Cow::Borrowed("");
        let mut error: Option<ParseError> = None;
        self.raw(event)?.decode_key(&mut key, &mut error);
        let span = event.span();
        error.is_none().then_some((key, span.start()..span.end()))
    }

    fn value(&mut self) -> Option<Node<'a>> {
        let event = self.next()?;
        match event.kind() {
            EventKind::Scalar => self.scalar(event),
            EventKind::ArrayOpen => self.array(event),
            EventKind::InlineTableOpen => self.inline_table(event),
            _ => None,
        }
    }

    fn scalar(&self, event: Event) -> Option<Node<'a>> {
        let mut text = Cow::Borrowed("");
        let mut error: Option<ParseError> = None;
        let kind = self.raw(event)?.decode_scalar(&mut text, &mut error);
        if error.is_some() {
            return None;
        }
        let item = match kind {
            ScalarKind::String => Item::String(text),
            ScalarKind::Boolean(b) => Item::Boolean(b),
            ScalarKind::DateTime => {
                Item::Datetime(text.parse::<toml::value::Datetime>().ok()?.to_string())
            }
            ScalarKind::Float => Item::Float(text.parse::<f64>().ok().filter(|f| f.is_finite())?),
            ScalarKind::Integer(radix) => {
                Item::Integer(i64::from_str_radix(&text, radix.value()).ok()?)
            }
        };
        let span = event.span();
        Some(Node {
            span: span.start()..span.end(),
            item,
        })
    }

    fn array(&mut self, open: Event) -> Option<Node<'a>> {
        let mut items = Vec::new();
        loop {
            let event = self.next()?;
            let item = match event.kind() {
                EventKind::ValueSep => continue,
                EventKind::Scalar => self.scalar(event)?,
                EventKind::ArrayOpen => self.array(event)?,
                EventKind::InlineTableOpen => self.inline_table(event)?,
                EventKind::ArrayClose => {
                    return Some(Node {
                        span: open.span().start()..event.span().end(),
                        item: Item::Array(items, false),
                    });
                }
                _ => return None,
            };
            items.push(item);
        }
    }

    fn inline_table(&mut self, open: Event) -> Option<Node<'a>> {
        let mut table = Table {
            inline: true,
            ..Table::default()
        };
        loop {
            let event = self.next()?;
            match event.kind() {
                EventKind::ValueSep => {}
                EventKind::SimpleKey => {
                    let (path, key) = self.key(event)?;
                    if self.next()?.kind() != EventKind::KeyValSep {
                        return None;
                    }
                    let value = self.value()?;
                    inline_key_value(&mut table, &path, key, value)?;
                }
                EventKind::InlineTableClose => {
                    return Some(Node {
                        span: open.span().start()..event.span().end(),
                        item: Item::Table(table),
                    });
                }
                _ => return None,
            }
        }
    }
}

/// `key = value` inside `{ … }`, as `toml` inserts it.
fn inline_key_value<'a>(
    table: &mut Table<'a>,
    path: &[Key<'a>],
    key: Key<'a>,
    value: Node<'a>,
) -> Option<()> {
    let mut parent = table;
    for step in path {
        let at = parent.child(step, || Table {
            implicit: true,
            dotted: true,
            inline: true,
            ..Table::default()
        })?;
        match &mut parent.entries[at].node.item {
            Item::Table(t) if t.implicit => parent = t,
            _ => return None,
        }
    }
    if parent.dotted == path.is_empty() || parent.position(&key.0).is_some() {
        return None;
    }
    parent.push(key, value).map(|_| ())
}

fn table_node(span: Span, table: Table<'_>) -> Node<'_> {
    Node {
        span,
        item: Item::Table(table),
    }
}

/// The state of `toml`'s document builder: the root, and the table the
/// current header opened (filled apart, put in place at the next header).
#[derive(Default)]
struct Document<'a> {
    root: Table<'a>,
    current: Table<'a>,
    header: Option<Header<'a>>,
}

impl<'a> Document<'a> {
    fn key_value(&mut self, path: &[Key<'a>], key: Key<'a>, value: Node<'a>) -> Option<()> {
        let dotted = !path.is_empty();
        let parent = descend(&mut self.current, path, dotted)?;
        if (dotted && !parent.implicit) || parent.position(&key.0).is_some() {
            return None;
        }
        parent.push(key, value).map(|_| ())
    }

    fn finish_table(&mut self) -> Option<()> {
        let table = std::mem::take(&mut self.current);
        let Some(header) = self.header.take() else {
            self.root = table;
            return Some(());
        };
        let node = table_node(header.span.clone(), table);
        let parent = descend(&mut self.root, &header.path, false)?;
        if !header.is_array {
            if parent.position(&header.key.0).is_some() {
                return None;
            }
            parent.push(header.key, node)?;
            return Some(());
        }
        let array = if let Some(at) = parent.position(&header.key.0) {
            &mut parent.entries[at].node
        } else {
            let array = Node {
                span: header.span.clone(),
                item: Item::Array(Vec::new(), true),
            };
            parent.push(header.key, array)?
        };
        match &mut array.item {
            Item::Array(items, true) => items.push(node),
            _ => return None,
        }
        Some(())
    }

    fn start_table(&mut self, header: Header<'a>) -> Option<()> {
        if !header.is_array {
            // A table defined before only implicitly (by a deeper header)
            // is taken back with its children; any other is defined twice.
            let parent = descend(&mut self.root, &header.path, false)?;
            if let Some(at) = parent.position(&header.key.0) {
                match parent.entries.remove(at).node.item {
                    Item::Table(t) if t.implicit && !t.dotted => self.current = t,
                    _ => return None,
                }
            }
        }
        self.current.implicit = false;
        self.current.dotted = false;
        self.header = Some(header);
        Some(())
    }
}

/// The table at `path` under `table`, made (implicit) where missing; the
/// last table of an array of tables stands for the array.
fn descend<'t, 'a>(
    mut table: &'t mut Table<'a>,
    path: &[Key<'a>],
    dotted: bool,
) -> Option<&'t mut Table<'a>> {
    for step in path {
        let at = table.child(step, || Table {
            implicit: true,
            dotted,
            ..Table::default()
        })?;
        table = match &mut table.entries[at].node.item {
            Item::Array(items, true) => match items.last_mut().map(|n| &mut n.item) {
                Some(Item::Table(t)) => t,
                _ => return None,
            },
            Item::Table(t) if t.inline => return None,
            Item::Table(t) => {
                if dotted && t.implicit {
                    t.dotted = true;
                }
                if dotted && !t.implicit {
                    return None;
                }
                t
            }
            _ => return None,
        };
    }
    Some(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_toml_spans() {
        let text = "[[card]]\nid = \"a\"\n[card.stats]\nhp = 3\n[[card.levels]]\nn = 1\n";
        let root = read(text).unwrap();
        let cards = root.get("card").unwrap();
        assert_eq!(&text[cards.span.clone()], "[[card]]");
        let Item::Array(items, true) = &cards.item else {
            panic!("{cards:?}")
        };
        let Item::Table(card) = &items[0].item else {
            panic!()
        };
        assert_eq!(&text[items[0].span.clone()], "[[card]]");
        assert_eq!(&text[card.get("id").unwrap().span.clone()], "\"a\"");
        assert_eq!(
            &text[card.get("stats").unwrap().span.clone()],
            "[card.stats]"
        );
        let keys: Vec<&str> = card.entries.iter().map(|e| &*e.key).collect();
        assert_eq!(keys, ["id", "stats", "levels"]);
    }

    #[test]
    fn a_table_of_more_keys_than_the_scan_allows_is_left_to_toml() {
        let text: String = (0..=MAX_KEYS).map(|i| format!("k{i} = {i}\n")).collect();
        assert!(read(&text).is_none());
        let text: String = (0..MAX_KEYS).map(|i| format!("k{i} = {i}\n")).collect();
        assert_eq!(read(&text).unwrap().entries.len(), MAX_KEYS);
        let mut diags = Vec::new();
        let long: String = (0..=MAX_KEYS).map(|i| format!("k{i} = {i}\n")).collect();
        let json = super::super::read_toml(crate::diag::FileId(0), &long, &mut diags).unwrap();
        assert_eq!(json.len(), MAX_KEYS + 1);
    }

    #[test]
    fn anything_toml_reports_gives_none() {
        for text in [
            "a = 1\na = 2\n",
            "a = 0x\n",
            "a = 99999999999999999999\n",
            "a = inf\n",
            "[a]\n[a]\n",
            "a = {b = 1}\na.c = 2\n",
            "a = [1]\n[[a]]\n",
            "a = \"\\q\"\n",
            "a = \n",
        ] {
            assert_eq!(read(text), None, "{text}");
        }
    }
}
