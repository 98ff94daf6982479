//! The handlebars helpers the card templates may use, one per file. Each
//! writes HTML-escaped text; none reads anything but its arguments.

mod card;
mod fields;
mod icon;
mod join;
mod t;
mod text;
mod upper;

use std::sync::Arc;

use handlebars::{Handlebars, PathAndJson, RenderError};
use serde_json::Value;

use super::icons::IconSet;
use crate::game::Game;

/// Registers every helper on `hb`, with the game's icons, cards and (in a
/// localized game) its language's template phrases.
pub(super) fn register<'g>(hb: &mut Handlebars<'g>, icons: &Arc<IconSet>, game: &'g Game) {
    hb.register_helper("card", Box::new(card::CardHelper(game)));
    hb.register_helper(
        "text",
        Box::new(text::Text(icons.clone(), &game.manifest.manifest)),
    );
    hb.register_helper("icon", Box::new(icon::IconHelper(icons.clone())));
    hb.register_helper("join", Box::new(join::Join));
    hb.register_helper("fields", Box::new(fields::Fields(icons.clone())));
    hb.register_helper("upper", Box::new(upper::Upper));
    let lang = &game.manifest.manifest.language;
    hb.register_helper("t", Box::new(t::T(game.i18n.phrases(lang))));
}

/// The value of a parameter, or a strict-mode error when it is missing.
fn required<'a>(
    p: Option<&'a PathAndJson<'_>>,
    helper: &'static str,
) -> Result<&'a Value, RenderError> {
    match p {
        None => Err(handlebars::RenderErrorReason::ParamNotFoundForIndex(helper, 0).into()),
        Some(p) if p.is_value_missing() => Err(RenderError::strict_error(p.relative_path())),
        Some(p) => Ok(p.value()),
    }
}

/// A scalar as plain text: strings as they are, numbers and booleans as
/// JSON writes them, null as nothing.
fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(if *b { "✓".into() } else { "✗".into() }),
        Value::Null => Some(String::new()),
        Value::Array(_) | Value::Object(_) => None,
    }
}
