//! `{{#with (card raw.ally)}}{{name}}{{/with}}`: the card a reference
//! names, whole (`id`, `kind`, `kind_name`, `name`, `fields`, `raw`); given
//! a list of ids, the list of cards. An id that names no card of the game
//! is a render error.

use std::sync::Arc;

use handlebars::{
    Context, Handlebars, Helper, HelperDef, RenderContext, RenderError, RenderErrorReason,
    ScopedJson,
};
use serde_json::Value;

use super::required;
use crate::emit::sheets::display::CardIndex;

/// The `card` helper.
pub(super) struct CardHelper(pub(super) Arc<CardIndex>);

impl CardHelper {
    fn one(&self, id: &Value) -> Result<Value, RenderError> {
        let Some(id) = id.as_str() else {
            return Err(RenderErrorReason::InvalidParamType("a card id").into());
        };
        self.0
            .get(id)
            .cloned()
            .ok_or_else(|| RenderErrorReason::Other(format!("no card `{id}` in this game")).into())
    }
}

impl HelperDef for CardHelper {
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
