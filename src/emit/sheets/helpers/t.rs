//! `{{t "Vida"}}`: a caption the template writes, in the language the
//! sheets are printed in. The phrase is looked up under `[phrases]` in the
//! language's translation file and falls back to itself (the source
//! language). Named arguments fill `{name}` placeholders after the lookup,
//! so a translation may move them: `{{t "Nível mínimo {n}" n=fields.min_level}}`.

use std::collections::BTreeMap;

use handlebars::{
    Context, Handlebars, Helper, HelperDef, HelperResult, Output, RenderContext, RenderErrorReason,
};

use super::{required, scalar_text};
use crate::emit::sheets::icons::escape_into;

/// The `t` helper, with the printed language's phrases: source phrase →
/// translation.
pub(super) struct T(pub(super) BTreeMap<String, String>);

impl HelperDef for T {
    fn call<'reg: 'rc, 'rc>(
        &self,
        h: &Helper<'rc>,
        _: &'reg Handlebars<'reg>,
        _: &'rc Context,
        _: &mut RenderContext<'reg, 'rc>,
        out: &mut dyn Output,
    ) -> HelperResult {
        let Some(phrase) = required(h.param(0), "t")?.as_str() else {
            return Err(RenderErrorReason::InvalidParamType("a phrase (a string)").into());
        };
        let mut text = self.0.get(phrase).map_or(phrase, String::as_str).to_owned();
        for (name, value) in h.hash() {
            if value.is_value_missing() {
                return Err(handlebars::RenderError::strict_error(value.relative_path()));
            }
            let Some(filled) = scalar_text(value.value()) else {
                return Err(
                    RenderErrorReason::InvalidParamType("a scalar placeholder value").into(),
                );
            };
            text = text.replace(&format!("{{{name}}}"), &filled);
        }
        let mut html = String::with_capacity(text.len());
        escape_into(&text, &mut html);
        out.write(&html)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn render(template: &str, phrases: &[(&str, &str)], data: &serde_json::Value) -> String {
        let phrases = phrases
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let mut hb = Handlebars::new();
        hb.set_strict_mode(true);
        hb.register_helper("t", Box::new(T(phrases)));
        hb.render_template(template, data)
            .unwrap_or_else(|e| format!("error: {}", e.reason()))
    }

    #[test]
    fn prints_the_translation_or_else_the_phrase_escaped() {
        let en = [
            ("Vida", "Health"),
            ("Nível mínimo {n}", "Minimum <level> {n}"),
        ];
        let data = json!({"lv": 2});
        assert_eq!(render("{{t \"Vida\"}}", &en, &data), "Health");
        assert_eq!(render("{{t \"Ataque\"}}", &en, &data), "Ataque");
        assert_eq!(
            render("{{t \"Nível mínimo {n}\" n=lv}}", &en, &data),
            "Minimum &lt;level&gt; 2"
        );
        assert_eq!(
            render("{{t \"Nível mínimo {n}\" n=lv}}", &[], &data),
            "Nível mínimo 2"
        );
    }

    #[test]
    fn a_missing_value_or_a_phrase_that_is_not_text_is_an_error() {
        let data = json!({"lv": 2, "list": [1]});
        assert!(render("{{t \"x {n}\" n=nope}}", &[], &data).starts_with("error"));
        assert!(render("{{t lv}}", &[], &data).starts_with("error"));
        assert!(render("{{t \"x {n}\" n=list}}", &[], &data).starts_with("error"));
    }
}
