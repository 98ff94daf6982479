//! `{{join list ", "}}`: the items of a list of scalars, escaped, joined by
//! a separator (default `", "`).

use handlebars::{
    Context, Handlebars, Helper, HelperDef, HelperResult, Output, RenderContext, RenderErrorReason,
};
use serde_json::Value;

use super::{required, scalar_text};
use crate::emit::sheets::icons::escape_into;

/// The `join` helper.
pub(super) struct Join;

impl HelperDef for Join {
    fn call<'reg: 'rc, 'rc>(
        &self,
        h: &Helper<'rc>,
        _: &'reg Handlebars<'reg>,
        _: &'rc Context,
        _: &mut RenderContext<'reg, 'rc>,
        out: &mut dyn Output,
    ) -> HelperResult {
        let Value::Array(items) = required(h.param(0), "join")? else {
            return Err(RenderErrorReason::InvalidParamType("list").into());
        };
        let sep = match h.param(1).map(handlebars::PathAndJson::value) {
            None => ", ".to_owned(),
            Some(v) => scalar_text(v).unwrap_or_default(),
        };
        let mut html = String::new();
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                escape_into(&sep, &mut html);
            }
            let Some(text) = scalar_text(item) else {
                return Err(RenderErrorReason::InvalidParamType("list of scalars").into());
            };
            escape_into(&text, &mut html);
        }
        out.write(&html)?;
        Ok(())
    }
}
