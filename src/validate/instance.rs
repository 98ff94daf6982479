//! The event reader's tree (`load::tree`) as an instance jsonschema
//! validates in place: a card of a clean file is checked against its
//! kind's schema without being copied into `serde_json` first (no map per
//! table, no hashing of its keys, no string copied). It reads as the JSON
//! the tree turns into (`Item::into_json`), so a schema accepts the one
//! exactly when it accepts the other.

use std::borrow::Cow;

use jsonschema::JsonType;
use jsonschema::json::{Array, Json, Node as JsonNode, NodeIdentity, Object, cmp};
use serde_json::{Number, Value};

use crate::load::tree::{Entry, Item, MAX_KEYS, Node};

/// The representation: a [`tree::Node`] borrowed for the validation.
#[derive(Debug)]
pub struct TreeJson;

impl Json for TreeJson {
    type Node<'a> = &'a Node<'a>;
    type PreparedKey = String;
    type StringBuffer = Option<Node<'static>>;

    // Tables are scanned, not hashed: one pass over a table's keys always
    // costs less than a lookup per keyword, and no table has more than
    // `MAX_KEYS`.
    const KEYS_PER_LOOKUP: usize = MAX_KEYS;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>(
        buffer: &mut Option<Node<'static>>,
        string: &str,
        f: impl FnOnce(Self::Node<'_>) -> T,
    ) -> T {
        // Reuses the buffer's string across calls (`propertyNames`).
        let node = buffer.get_or_insert_with(|| Node {
            span: 0..0,
            item: Item::String(Cow::Owned(String::new())),
        });
        if let Item::String(Cow::Owned(s)) = &mut node.item {
            s.clear();
            s.push_str(string);
        } else {
            node.item = Item::String(Cow::Owned(string.to_owned()));
        }
        f(node)
    }
}

impl<'a> JsonNode<'a, TreeJson> for &'a Node<'a> {
    type Object = &'a [Entry<'a>];
    type Array = &'a [Node<'a>];
    type Number = Number;

    fn as_object(&self) -> Option<&'a [Entry<'a>]> {
        match &self.item {
            Item::Table(t) => Some(&t.entries),
            _ => None,
        }
    }

    fn as_array(&self) -> Option<&'a [Node<'a>]> {
        match &self.item {
            Item::Array(items, _) => Some(items),
            _ => None,
        }
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        match &self.item {
            Item::String(s) => Some(Cow::Borrowed(s)),
            Item::Datetime(s) => Some(Cow::Borrowed(s)),
            _ => None,
        }
    }

    fn as_number(&self) -> Option<Number> {
        number(&self.item)
    }

    fn as_boolean(&self) -> Option<bool> {
        match self.item {
            Item::Boolean(b) => Some(b),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        // TOML has no null.
        false
    }

    fn is_number(&self) -> bool {
        matches!(self.item, Item::Integer(_) | Item::Float(_))
    }

    fn json_type(&self) -> JsonType {
        match self.item {
            Item::String(_) | Item::Datetime(_) => JsonType::String,
            Item::Integer(_) | Item::Float(_) => JsonType::Number,
            Item::Boolean(_) => JsonType::Boolean,
            Item::Array(..) => JsonType::Array,
            Item::Table(_) => JsonType::Object,
        }
    }

    fn equals_value(&self, expected: &Value) -> bool {
        // `const` and `enum` compare scalars without building a `Value`.
        match (&self.item, expected) {
            (Item::String(s), Value::String(e)) => s == e,
            (Item::Datetime(s), Value::String(e)) => s == e,
            (Item::Boolean(b), Value::Bool(e)) => b == e,
            (Item::Integer(_) | Item::Float(_), Value::Number(e)) => {
                number(&self.item).is_some_and(|n| cmp::equal_numbers(&n, e))
            }
            (Item::Array(..) | Item::Table(_), Value::Array(_) | Value::Object(_)) => {
                cmp::equal(&self.item.to_json(), expected)
            }
            _ => false,
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(self.item.to_json())
    }

    fn identity(&self) -> Option<NodeIdentity> {
        Some(NodeIdentity::new(
            std::ptr::from_ref::<Node<'a>>(*self) as usize
        ))
    }
}

/// A TOML number as JSON holds it: an integer as `serde_json` reads one
/// (`u64` when not negative), a float as a float.
fn number(item: &Item<'_>) -> Option<Number> {
    match *item {
        Item::Integer(i) => Some(Number::from(i)),
        Item::Float(f) => Number::from_f64(f),
        _ => None,
    }
}

/// A table's keys and values, in order.
pub struct Members<'a>(std::slice::Iter<'a, Entry<'a>>);

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, &'a Node<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|e| (&*e.key, &e.node))
    }
}

impl<'a> Object<'a, TreeJson> for &'a [Entry<'a>] {
    type Node = &'a Node<'a>;
    type MemberName = &'a str;
    type MembersIter = Members<'a>;

    fn len(&self) -> usize {
        <[Entry<'a>]>::len(self)
    }

    fn get(&self, key: &String) -> Option<&'a Node<'a>> {
        self.iter().find(|e| e.key == key.as_str()).map(|e| &e.node)
    }

    fn members(&self) -> Members<'a> {
        Members(self.iter())
    }
}

impl<'a> Array<'a, TreeJson> for &'a [Node<'a>] {
    type Node = &'a Node<'a>;
    type ElementsIter = std::slice::Iter<'a, Node<'a>>;

    fn len(&self) -> usize {
        <[Node<'a>]>::len(self)
    }

    fn elements(&self) -> std::slice::Iter<'a, Node<'a>> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use jsonschema::Draft;
    use jsonschema::json::JsonNumber;
    use serde_json::json;

    use super::*;
    use crate::load::tree;

    fn validators(schema: &Value) -> (jsonschema::Validator, jsonschema::Validator<TreeJson>) {
        let serde = jsonschema::options()
            .with_draft(Draft::Draft202012)
            .build(schema)
            .unwrap();
        let tree = jsonschema::options_for::<TreeJson>()
            .with_draft(Draft::Draft202012)
            .build(schema)
            .unwrap();
        (serde, tree)
    }

    /// A schema with every keyword family a card schema uses.
    fn every_keyword() -> Value {
        json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["n"],
            "properties": {
                "n": { "type": "integer", "minimum": 0, "maximum": 9, "multipleOf": 3 },
                "f": { "type": "number", "exclusiveMaximum": 2.5 },
                "whole": { "type": "integer" },
                "s": { "type": "string", "minLength": 2, "maxLength": 3, "pattern": "^[a-zé]+$" },
                "e": { "enum": ["a", 1, 2.0, true, [1, "x"], { "k": 1 }] },
                "c": { "const": { "k": [1, 2] } },
                "b": { "type": "boolean" },
                "d": { "type": "string", "format": "date-time" },
                "u": { "type": "array", "uniqueItems": true, "minItems": 1, "maxItems": 3,
                       "items": { "type": ["integer", "string"] } },
                "t": { "type": "object", "propertyNames": { "pattern": "^[a-z]+$" },
                       "minProperties": 1, "maxProperties": 2,
                       "additionalProperties": { "oneOf": [{ "type": "integer" }, { "type": "string" }] } },
                "any": { "anyOf": [{ "type": "array", "contains": { "const": 2 } }, { "not": { "type": "string" } }] }
            },
            "if": { "properties": { "n": { "const": 0 } } },
            "then": { "required": ["s"] }
        })
    }

    /// Card tables in TOML, valid and not against [`every_keyword`].
    const CASES: &[&str] = &[
        "n = 3\n",
        "n = 4\n",
        "n = -3\n",
        "n = 3.0\n",
        "n = 0\n",
        "n = 0\ns = \"ab\"\n",
        "n = 3\nf = 2.4\n",
        "n = 3\nf = 2.5\n",
        "n = 3\nf = 2\n",
        "n = 3\nwhole = 2.0\n",
        "n = 3\nwhole = 2.5\n",
        "n = 3\ns = \"é\"\n",
        "n = 3\ns = \"éé\"\n",
        "n = 3\ns = \"abcd\"\n",
        "n = 3\ns = \"AB\"\n",
        "n = 3\ne = \"a\"\n",
        "n = 3\ne = 1.0\n",
        "n = 3\ne = 2\n",
        "n = 3\ne = 3\n",
        "n = 3\ne = true\n",
        "n = 3\ne = false\n",
        "n = 3\ne = [1, \"x\"]\n",
        "n = 3\ne = [1.0, \"x\"]\n",
        "n = 3\ne = [\"x\", 1]\n",
        "n = 3\ne = { k = 1 }\n",
        "n = 3\ne = { k = 2 }\n",
        "n = 3\nc = { k = [1, 2.0] }\n",
        "n = 3\nc = { k = [2, 1] }\n",
        "n = 3\nb = true\n",
        "n = 3\nb = 1\n",
        "n = 3\nd = 1979-05-27T07:32:00Z\n",
        "n = 3\nd = 1979-05-27\n",
        "n = 3\nd = \"not a date\"\n",
        "n = 3\nu = [1, 2]\n",
        "n = 3\nu = [1, 1.0]\n",
        "n = 3\nu = []\n",
        "n = 3\nu = [1, 2, 3, 4]\n",
        "n = 3\nu = [true]\n",
        "n = 3\n[t]\na = 1\n",
        "n = 3\n[t]\na = 1\nb = \"x\"\n",
        "n = 3\n[t]\na = 1\nb = 2\nc = 3\n",
        "n = 3\n[t]\nA = 1\n",
        "n = 3\n[t]\na = 1.5\n",
        "n = 3\nt = {}\n",
        "n = 3\nany = [1, 2]\n",
        "n = 3\nany = [1]\n",
        "n = 3\nany = 5\n",
        "n = 3\nany = \"s\"\n",
        "n = 3\nzzz = 1\n",
        "s = \"ab\"\n",
    ];

    /// Each document is valid in the tree exactly when its JSON is: every
    /// keyword family a card schema uses, on values of every TOML type.
    #[test]
    fn the_tree_is_valid_exactly_when_its_json_is() {
        let (serde, tree) = validators(&every_keyword());
        let mut valid = 0;
        for text in CASES {
            let root = tree::read(text).unwrap();
            let node = Node {
                span: 0..0,
                item: Item::Table(root),
            };
            let json = node.item.to_json();
            let expected = serde.is_valid(&json);
            assert_eq!(tree.is_valid(&node), expected, "{text}");
            valid += usize::from(expected);
        }
        // Both outcomes are exercised.
        assert!(valid > 10 && valid < CASES.len() - 10, "{valid}");
    }

    #[test]
    fn numbers_read_as_serde_json_reads_them() {
        for (item, json) in [
            (Item::Integer(3), json!(3)),
            (Item::Integer(-3), json!(-3)),
            (Item::Float(2.0), json!(2.0)),
            (Item::Float(-0.5), json!(-0.5)),
        ] {
            let n = number(&item).unwrap();
            let j = json.as_number().unwrap();
            assert_eq!(&n, j, "{item:?}");
            assert_eq!((n.as_u64(), n.as_i64()), (j.as_u64(), j.as_i64()));
            assert_eq!(JsonNumber::is_integer(&n), JsonNumber::is_integer(j));
        }
    }

    #[test]
    fn property_names_are_checked_through_the_string_buffer() {
        let schema = json!({ "propertyNames": { "maxLength": 2 } });
        let (_, tree) = validators(&schema);
        for (text, valid) in [("ab = 1\nc = 2\n", true), ("ab = 1\nabc = 2\n", false)] {
            let node = Node {
                span: 0..0,
                item: Item::Table(tree::read(text).unwrap()),
            };
            assert_eq!(tree.is_valid(&node), valid, "{text}");
        }
    }
}
