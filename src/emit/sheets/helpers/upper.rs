//! `{{upper value}}`: a string in upper case, as a value for other
//! helpers: `{{icon (upper fields.attack)}}` prints icon `AC` for `"ac"`.

use handlebars::{
    Context, Handlebars, Helper, HelperDef, RenderContext, RenderError, RenderErrorReason,
    ScopedJson,
};
use serde_json::Value;

use super::{required, scalar_text};

/// The `upper` helper.
pub(super) struct Upper;

impl HelperDef for Upper {
    fn call_inner<'reg: 'rc, 'rc>(
        &self,
        h: &Helper<'rc>,
        _: &'reg Handlebars<'reg>,
        _: &'rc Context,
        _: &mut RenderContext<'reg, 'rc>,
    ) -> Result<ScopedJson<'rc>, RenderError> {
        let value = required(h.param(0), "upper")?;
        let Some(text) = scalar_text(value) else {
            return Err(RenderErrorReason::InvalidParamType("text").into());
        };
        Ok(ScopedJson::Derived(Value::String(text.to_uppercase())))
    }
}
