//! `{{fields card.fields}}`: every field of a card as a definition list,
//! nested lists and tables included; the default face template prints a
//! card of any kind with it. Strings go through the icon renderer.

use std::sync::Arc;

use handlebars::{
    Context, Handlebars, Helper, HelperDef, HelperResult, Output, RenderContext, RenderErrorReason,
};
use serde_json::{Map, Value};

use super::required;
use crate::emit::sheets::icons::{IconSet, escape_into};

/// The `fields` helper.
pub(super) struct Fields(pub(super) Arc<IconSet>);

impl HelperDef for Fields {
    fn call<'reg: 'rc, 'rc>(
        &self,
        h: &Helper<'rc>,
        _: &'reg Handlebars<'reg>,
        _: &'rc Context,
        _: &mut RenderContext<'reg, 'rc>,
        out: &mut dyn Output,
    ) -> HelperResult {
        let Value::Object(map) = required(h.param(0), "fields")? else {
            return Err(RenderErrorReason::InvalidParamType("table").into());
        };
        let mut html = String::new();
        self.table(map, &mut html);
        out.write(&html)?;
        Ok(())
    }
}

impl Fields {
    fn table(&self, map: &Map<String, Value>, html: &mut String) {
        html.push_str("<dl class=\"carta-fields\">");
        for (key, value) in map {
            html.push_str("<dt>");
            escape_into(&key.replace('_', " "), html);
            html.push_str("</dt><dd>");
            self.value(value, html);
            html.push_str("</dd>");
        }
        html.push_str("</dl>");
    }

    fn value(&self, value: &Value, html: &mut String) {
        match value {
            Value::String(s) => self.0.write_text(s, html),
            Value::Number(n) => html.push_str(&n.to_string()),
            Value::Bool(b) => html.push_str(if *b { "✓" } else { "✗" }),
            Value::Null => {}
            Value::Object(map) => self.table(map, html),
            Value::Array(items) if items.iter().all(|v| !v.is_object()) => {
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        html.push_str(", ");
                    }
                    self.value(item, html);
                }
            }
            Value::Array(items) => {
                html.push_str("<ol>");
                for item in items {
                    html.push_str("<li>");
                    self.value(item, html);
                    html.push_str("</li>");
                }
                html.push_str("</ol>");
            }
        }
    }
}
