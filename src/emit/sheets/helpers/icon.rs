//! `{{icon "dice" color times=count}}`: one icon, named by its parameters
//! joined with `:`, printed `times` times (default 1). An undeclared icon
//! is a render error.

use std::sync::Arc;

use handlebars::{
    Context, Handlebars, Helper, HelperDef, HelperResult, Output, RenderContext, RenderErrorReason,
};

use super::scalar_text;
use crate::emit::sheets::icons::{IconSet, MAX_REPEAT};

/// The `icon` helper.
pub(super) struct IconHelper(pub(super) Arc<IconSet>);

impl HelperDef for IconHelper {
    fn call<'reg: 'rc, 'rc>(
        &self,
        h: &Helper<'rc>,
        _: &'reg Handlebars<'reg>,
        _: &'rc Context,
        _: &mut RenderContext<'reg, 'rc>,
        out: &mut dyn Output,
    ) -> HelperResult {
        let mut parts = Vec::new();
        for p in h.params() {
            match scalar_text(p.value()) {
                Some(s) if !s.is_empty() => parts.push(s),
                _ => return Err(RenderErrorReason::InvalidParamType("icon name parts").into()),
            }
        }
        let name = parts.join(":");
        let times = match h.hash_get("times").map(|t| t.value().as_u64()) {
            None => 1,
            Some(Some(n)) if n <= u64::from(MAX_REPEAT) => n as u32,
            Some(_) => {
                return Err(RenderErrorReason::HashTypeMismatchForName(
                    "icon",
                    "times".into(),
                    format!("a count from 0 to {MAX_REPEAT}"),
                )
                .into());
            }
        };
        if self.0.resolve(&name) != Some((name.as_str(), 1)) {
            return Err(RenderErrorReason::Other(format!(
                "no icon `{name}` is declared in the game's [icons]"
            ))
            .into());
        }
        let mut html = String::new();
        self.0.write_icon(&name, times, &mut html);
        out.write(&html)?;
        Ok(())
    }
}
