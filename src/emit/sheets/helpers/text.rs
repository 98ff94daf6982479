//! `{{text value}}`: card text, HTML-escaped, with its `{icon}` tokens
//! printed as inline icons and its line breaks kept.

use std::sync::Arc;

use handlebars::{
    Context, Handlebars, Helper, HelperDef, HelperResult, Output, RenderContext, RenderErrorReason,
};

use super::{required, scalar_text};
use crate::emit::sheets::icons::IconSet;

/// The `text` helper.
pub(super) struct Text(pub(super) Arc<IconSet>);

impl HelperDef for Text {
    fn call<'reg: 'rc, 'rc>(
        &self,
        h: &Helper<'rc>,
        _: &'reg Handlebars<'reg>,
        _: &'rc Context,
        _: &mut RenderContext<'reg, 'rc>,
        out: &mut dyn Output,
    ) -> HelperResult {
        let value = required(h.param(0), "text")?;
        let Some(text) = scalar_text(value) else {
            return Err(RenderErrorReason::InvalidParamType("text or number").into());
        };
        let mut html = String::with_capacity(text.len() + 16);
        self.0.write_text(&text, &mut html);
        out.write(&html)?;
        Ok(())
    }
}
