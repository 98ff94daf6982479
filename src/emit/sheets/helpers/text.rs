//! `{{text value}}`: card text, HTML-escaped, with its markup printed
//! (`**bold**`, `*italic*`, `[[keyword]]` as the keyword's name in bold
//! and its reminder in italics), its `{icon}` tokens as inline icons and
//! its line breaks kept.

use std::sync::Arc;

use handlebars::{
    Context, Handlebars, Helper, HelperDef, HelperResult, Output, RenderContext, RenderErrorReason,
};

use super::{required, scalar_text};
use crate::config::Manifest;
use crate::emit::sheets::icons::IconSet;
use crate::markup::{self, Node};

/// The `text` helper, with the game's icons and (printed language's) keywords.
pub(super) struct Text<'g>(pub(super) Arc<IconSet>, pub(super) &'g Manifest);

impl HelperDef for Text<'_> {
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
        write_nodes(&markup::parse_in(self.1, &text), &self.0, self.1, &mut html);
        out.write(&html)?;
        Ok(())
    }
}

/// Writes parsed card text as HTML.
fn write_nodes(nodes: &[Node], icons: &IconSet, manifest: &Manifest, out: &mut String) {
    for node in nodes {
        match node {
            Node::Text(t) => icons.write_text(t, out),
            Node::Bold(inner) => {
                out.push_str("<strong>");
                write_nodes(inner, icons, manifest, out);
                out.push_str("</strong>");
            }
            Node::Italic(inner) => {
                out.push_str("<em>");
                write_nodes(inner, icons, manifest, out);
                out.push_str("</em>");
            }
            Node::Keyword(id) => {
                let Some(k) = manifest.keywords.get(id) else {
                    continue;
                };
                out.push_str("<strong class=\"carta-keyword\">");
                icons.write_text(&k.name, out);
                out.push_str("</strong>");
                if let Some(reminder) = &k.reminder {
                    out.push_str(" <em class=\"carta-reminder\">(");
                    icons.write_text(reminder, out);
                    out.push_str(")</em>");
                }
            }
        }
    }
}
