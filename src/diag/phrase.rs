//! A message as data: the id of a message in carta's message files and
//! its named arguments, so that one reader (the command line) prints it in
//! English and another (the deck builder) in the player's language.
//! `l10n` words a phrase through Fluent; this module only holds it.

/// A message to be worded in some language: a message id of carta's own
/// (`rule-broken`), or a game's own pattern (a rule's `message` in
/// `game.toml`, already in the game's language, with `{name}` slots), and
/// the values its slots take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phrase {
    /// Which message.
    pub key: PhraseKey,
    /// Its arguments, by name.
    pub args: Vec<(&'static str, Arg)>,
}

/// The message a [`Phrase`] words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PhraseKey {
    /// A message id of carta's message files.
    Id(&'static str),
    /// A game's own pattern, its slots written `{name}`.
    Own(String),
}

/// A value a phrase's slot takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// A count: it picks the plural form.
    Num(u64),
    /// Text shown as it is (a name, an id in backticks, a percentage).
    Text(String),
    /// Another phrase, worded in the same language first.
    Phrase(Box<Phrase>),
}

impl Phrase {
    /// The message `id` of carta's message files, with no arguments yet.
    pub fn new(id: &'static str) -> Self {
        Phrase {
            key: PhraseKey::Id(id),
            args: Vec::new(),
        }
    }

    /// A game's own pattern, with no arguments yet.
    pub fn own(pattern: impl Into<String>) -> Self {
        Phrase {
            key: PhraseKey::Own(pattern.into()),
            args: Vec::new(),
        }
    }

    /// The phrase with argument `name` set to `value`.
    #[must_use]
    pub fn with(mut self, name: &'static str, value: impl Into<Arg>) -> Self {
        self.args.push((name, value.into()));
        self
    }
}

impl From<u64> for Arg {
    fn from(n: u64) -> Self {
        Arg::Num(n)
    }
}

impl From<u32> for Arg {
    fn from(n: u32) -> Self {
        Arg::Num(u64::from(n))
    }
}

impl From<usize> for Arg {
    fn from(n: usize) -> Self {
        Arg::Num(n as u64)
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Self {
        Arg::Text(s)
    }
}

impl From<&str> for Arg {
    fn from(s: &str) -> Self {
        Arg::Text(s.to_owned())
    }
}

impl From<&String> for Arg {
    fn from(s: &String) -> Self {
        Arg::Text(s.clone())
    }
}

impl From<Phrase> for Arg {
    fn from(p: Phrase) -> Self {
        Arg::Phrase(Box::new(p))
    }
}
