//! `{{#with (card raw.ally)}}{{name}}{{/with}}`: the card a reference
//! names, whole (`id`, `kind`, `kind_name`, `name`, `fields`, `raw`); given
//! a list of ids, the list of cards. An id that names no card of the game
//! is a render error.

use handlebars::{
    Context, Handlebars, Helper, HelperDef, RenderContext, RenderError, RenderErrorReason,
    ScopedJson,
};
use serde_json::Value;

use super::required;
use crate::emit::sheets::display::card_value;
use crate::game::Game;

/// The `card` helper: each card's view is made when a template asks for it.
pub(super) struct CardHelper<'g>(pub(super) &'g Game);

impl CardHelper<'_> {
    fn one(&self, id: &Value) -> Result<Value, RenderError> {
        let Some(id) = id.as_str() else {
            return Err(RenderErrorReason::InvalidParamType("a card id").into());
        };
        self.0
            .pool
            .get(id)
            .map(|card| card_value(card, self.0))
            .ok_or_else(|| RenderErrorReason::Other(format!("no card `{id}` in this game")).into())
    }
}

impl HelperDef for CardHelper<'_> {
    fn call_inner<'reg: 'rc, 'rc>(
        &self,
        h: &Helper<'rc>,
        _: &'reg Handlebars<'reg>,
        _: &'rc Context,
        _: &mut RenderContext<'reg, 'rc>,
    ) -> Result<ScopedJson<'rc>, RenderError> {
        let value = match required(h.param(0), "card")? {
            Value::Array(ids) => Value::Array(
                ids.iter()
                    .map(|id| self.one(id))
                    .collect::<Result<_, _>>()?,
            ),
            id => self.one(id)?,
        };
        Ok(ScopedJson::Derived(value))
    }
}
