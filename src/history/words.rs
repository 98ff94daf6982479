//! Texts compared as the player reads them: markup flattened to its words
//! (a keyword as its name), and two texts diffed word by word.

use serde::Serialize;
use serde_json::Value;
use similar::{ChangeTag, TextDiff};

/// What a run of words did between the two texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// In both texts.
    Same,
    /// Only in the old text.
    Removed,
    /// Only in the new text.
    Added,
}

/// A run of words (with the spaces between them) of one [`Op`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Piece {
    /// What the run did.
    pub op: Op,
    /// Its text.
    pub text: String,
}

/// `old` and `new` diffed word by word, each run of one kind merged.
pub(super) fn diff(old: &str, new: &str) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    for change in TextDiff::from_words(old, new).iter_all_changes() {
        let op = match change.tag() {
            ChangeTag::Equal => Op::Same,
            ChangeTag::Delete => Op::Removed,
            ChangeTag::Insert => Op::Added,
        };
        match out.last_mut() {
            Some(last) if last.op == op => last.text.push_str(change.value()),
            _ => out.push(Piece {
                op,
                text: change.value().to_owned(),
            }),
        }
    }
    out
}

/// Whether a text is prose, worth a word diff, rather than a value
/// (`"mago"`) shown whole.
pub(super) fn is_prose(text: &str) -> bool {
    text.split_whitespace().nth(2).is_some()
}

/// The text the player reads of parsed markup `nodes` (the bundle's form:
/// `{"t"}` text, `{"b"}`/`{"i"}` emphasis, `{"k"}` a keyword): emphasis
/// dropped, a keyword as its name in `keywords` (the game section's).
pub(super) fn reading(nodes: &Value, keywords: Option<&Value>) -> String {
    let mut out = String::new();
    read_into(nodes, keywords, &mut out);
    out
}

fn read_into(nodes: &Value, keywords: Option<&Value>, out: &mut String) {
    for node in nodes.as_array().into_iter().flatten() {
        let Some((key, value)) = node.as_object().and_then(|m| m.iter().next()) else {
            continue;
        };
        match (key.as_str(), value) {
            ("t", Value::String(text)) => out.push_str(text),
            ("b" | "i", children) => read_into(children, keywords, out),
            ("k", Value::String(id)) => {
                let name = keywords
                    .and_then(|k| k.get(id))
                    .and_then(|k| k.get("name"))
                    .and_then(Value::as_str);
                out.push_str(name.unwrap_or(id));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn words_are_diffed_in_runs() {
        let pieces = diff("cura 20 pontos de vida", "cura 30 pontos de vida");
        let ops: Vec<(Op, &str)> = pieces.iter().map(|p| (p.op, p.text.as_str())).collect();
        assert_eq!(
            ops,
            [
                (Op::Same, "cura "),
                (Op::Removed, "20"),
                (Op::Added, "30"),
                (Op::Same, " pontos de vida"),
            ]
        );
    }

    #[test]
    fn markup_reads_as_its_words_and_keywords_as_their_names() {
        let nodes = json!([{"b": [{"t": "Ao entrar:"}]}, {"t": " "}, {"k": "terror"}]);
        let keywords = json!({"terror": {"name": "Terror"}});
        assert_eq!(reading(&nodes, Some(&keywords)), "Ao entrar: Terror");
        assert_eq!(reading(&nodes, None), "Ao entrar: terror");
    }
}
