//! A game's templates with their plain partial calls spliced in.
//!
//! handlebars renders `{{> _head}}` by deep-copying the whole context (the
//! card's fields twice over) into a new block, so a face made of nested
//! partials copies its card three or four times. A call with no context
//! parameter, no hash and no indent renders the partial's elements over the
//! very same values; when the partial cannot tell where it is — no `../`
//! path, no `@../` variable, no inline partial, no partial block, and only
//! such calls inside it — its parsed elements can stand in the caller's
//! place and print the same bytes without the copy.
//!
//! A call with a hash (`{{> _dice dice=raw.damage}}`) is spliced too when
//! nothing in the partial reads `this`: handlebars gives the partial the
//! hash both as block parameters and merged into its context, and a path
//! that names a hash key finds the block parameter first; the spliced body
//! runs inside the [`HashScope`] helper, which sets those block parameters
//! and nothing else.
//!
//! Spliced templates only ever print: when one fails on a card, the
//! original renders the card again and its error (its template, line and
//! column) is the one reported (`Templates::render`).

use std::collections::HashMap;

use handlebars::template::{
    DecoratorTemplate, HelperTemplate, Parameter, Template, TemplateElement,
};
use handlebars::{
    BlockParamHolder, Context, Handlebars, Helper, HelperDef, HelperResult, Output, Path,
    RenderContext, Renderable,
};

/// The partial a card's block cannot be spliced past: handlebars' own.
const PARTIAL_BLOCK: &str = "@partial-block";

/// The name [`HashScope`] is registered under: one no template can write.
pub(super) const HASH_SCOPE: &str = "carta spliced hash";

/// The block a spliced partial call with a hash becomes: its body rendered
/// over the caller's context, with the hash as block parameters.
pub(super) struct HashScope;

impl HelperDef for HashScope {
    fn call<'reg: 'rc, 'rc>(
        &self,
        h: &Helper<'rc>,
        r: &'reg Handlebars<'reg>,
        ctx: &'rc Context,
        rc: &mut RenderContext<'reg, 'rc>,
        out: &mut dyn Output,
    ) -> HelperResult {
        let Some(body) = h.template() else {
            return Ok(());
        };
        let mut block = rc.block().cloned().unwrap_or_default();
        for (key, value) in h.hash() {
            block.set_block_param(key, BlockParamHolder::Value(value.value().clone()));
        }
        rc.push_block(block);
        let result = body.render(r, ctx, rc, out);
        rc.pop_block();
        result
    }
}

/// `root` with each call it makes, at any depth, to a partial of `all`
/// that can be spliced replaced by that partial's elements (themselves
/// spliced); `None` when nothing was (or when `root` declares inline
/// partials, which could shadow a partial's name).
pub(super) fn splice(root: &Template, all: &HashMap<String, Template>) -> Option<Template> {
    if !root.elements.iter().all(free_of_decorators) {
        return None;
    }
    let (out, spliced) = splice_in(root, all, &mut Vec::new(), false)?;
    spliced.then_some(out)
}

/// `t` with its spliceable calls spliced, and whether any was; in a
/// partial's body (`strict`), `None` when anything in it could tell it was
/// spliced. `stack` holds the partials being spliced around `t`.
fn splice_in(
    t: &Template,
    all: &HashMap<String, Template>,
    stack: &mut Vec<String>,
    strict: bool,
) -> Option<(Template, bool)> {
    let mut spliced = false;
    let mut out = t.clone();
    out.elements.clear();
    out.mapping.clear();
    for (i, e) in t.elements.iter().enumerate() {
        let mapping = t.mapping.get(i).cloned();
        if let Some((name, body, d)) = callee(e, all, stack) {
            stack.push(name.to_owned());
            let inner = splice_in(body, all, stack, true);
            let inner = inner.filter(|(t, _)| d.hash.is_empty() || !reads_this(t, all, stack));
            stack.pop();
            if let Some((inner, _)) = inner {
                spliced = true;
                if d.hash.is_empty() {
                    out.elements.extend(inner.elements);
                    out.mapping.extend(inner.mapping);
                } else {
                    out.elements.push(hash_scope(d, inner));
                    out.mapping.extend(mapping);
                }
                continue;
            }
        }
        if strict && !blind(e, all, stack) {
            return None;
        }
        let (e, inside) = nested(e, all, stack, strict)?;
        spliced |= inside;
        out.elements.push(e);
        out.mapping.extend(mapping);
    }
    Some((out, spliced))
}

/// The partial `e` calls, and the call, when `e` calls a partial of `all`
/// not already being spliced (a cycle is left to handlebars to refuse)
/// without a context parameter or indent, and its hash reads no `this`.
fn callee<'a, 'e>(
    e: &'e TemplateElement,
    all: &'a HashMap<String, Template>,
    stack: &[String],
) -> Option<(&'a str, &'a Template, &'e DecoratorTemplate)> {
    let TemplateElement::PartialExpression(d) = e else {
        return None;
    };
    if !d.params.is_empty() || d.hash.values().any(parameter_reads_this) {
        return None;
    }
    partial(e, all, stack).map(|(name, t)| (name, t, &**d))
}

/// A block of [`HashScope`] with the hash of the call `d` around `body`.
fn hash_scope(d: &DecoratorTemplate, mut body: Template) -> TemplateElement {
    let mut block = Template::compile("{{#scope}}{{/scope}}")
        .expect("a block parses")
        .elements
        .remove(0);
    if let TemplateElement::HelperBlock(h) = &mut block {
        h.name = Parameter::Name(HASH_SCOPE.to_owned());
        h.hash.clone_from(&d.hash);
        body.name = None;
        h.template = Some(body);
    }
    block
}

/// Whether a path anywhere in `t` — its blocks, the partials it calls —
/// starts at `this`, which a partial's hash is merged into.
fn reads_this(t: &Template, all: &HashMap<String, Template>, stack: &mut Vec<String>) -> bool {
    t.elements.iter().any(|e| match e {
        TemplateElement::Expression(h)
        | TemplateElement::HtmlExpression(h)
        | TemplateElement::HelperBlock(h) => {
            helper_reads_this(h)
                || [&h.template, &h.inverse]
                    .into_iter()
                    .flatten()
                    .any(|t| reads_this(t, all, stack))
        }
        TemplateElement::PartialExpression(d) => {
            if d.params
                .iter()
                .chain(d.hash.values())
                .any(parameter_reads_this)
            {
                return true;
            }
            // A call left in a spliced body is of a partial outside
            // `stack` (see `blind`); its context is `this`, hash and all.
            let Some((name, body)) = partial(e, all, stack) else {
                return true;
            };
            stack.push(name.to_owned());
            let reads = reads_this(body, all, stack);
            stack.pop();
            reads
        }
        _ => false,
    })
}

fn helper_reads_this(h: &HelperTemplate) -> bool {
    std::iter::once(&h.name)
        .chain(&h.params)
        .chain(h.hash.values())
        .any(parameter_reads_this)
}

fn parameter_reads_this(p: &Parameter) -> bool {
    match p {
        Parameter::Path(Path::Relative((_, raw))) => {
            raw.starts_with("this") || raw.starts_with('.')
        }
        Parameter::Subexpression(s) => match s.as_element() {
            TemplateElement::Expression(h) => helper_reads_this(h),
            _ => true,
        },
        _ => false,
    }
}

/// The partial `e` calls with whatever parameters, when `e` is a partial
/// call by a fixed name, without indent or block, of a partial of `all`
/// that is not one of `stack`.
fn partial<'a>(
    e: &TemplateElement,
    all: &'a HashMap<String, Template>,
    stack: &[String],
) -> Option<(&'a str, &'a Template)> {
    let TemplateElement::PartialExpression(d) = e else {
        return None;
    };
    let Parameter::Name(name) = &d.name else {
        return None;
    };
    if d.indent.is_some() || d.template.is_some() || name == PARTIAL_BLOCK || stack.contains(name) {
        return None;
    }
    all.get_key_value(name.as_str())
        .map(|(k, t)| (k.as_str(), t))
}

/// `e` with the templates of its block spliced, and whether any call was.
fn nested(
    e: &TemplateElement,
    all: &HashMap<String, Template>,
    stack: &mut Vec<String>,
    strict: bool,
) -> Option<(TemplateElement, bool)> {
    let mut e = e.clone();
    let mut spliced = false;
    if let TemplateElement::HelperBlock(h) = &mut e {
        for t in [&mut h.template, &mut h.inverse].into_iter().flatten() {
            let (inner, inside) = splice_in(t, all, stack, strict)?;
            *t = inner;
            spliced |= inside;
        }
    }
    Some((e, spliced))
}

/// Whether `e` renders the same wherever it stands: no path or variable
/// that climbs out of its block, no decorator, and a partial call only of
/// a partial (outside `stack`) whose every element is so too. A block's own
/// templates are checked as they are spliced ([`nested`]).
fn blind(e: &TemplateElement, all: &HashMap<String, Template>, stack: &mut Vec<String>) -> bool {
    match e {
        TemplateElement::RawString(_) | TemplateElement::Comment(_) => true,
        TemplateElement::Expression(h)
        | TemplateElement::HtmlExpression(h)
        | TemplateElement::HelperBlock(h) => helper_blind(h),
        TemplateElement::PartialExpression(d) => {
            let Some((name, body)) = partial(e, all, stack) else {
                return false;
            };
            if !(d.params.iter().all(parameter_blind) && d.hash.values().all(parameter_blind)) {
                return false;
            }
            stack.push(name.to_owned());
            let ok = template_blind(body, all, stack);
            stack.pop();
            ok
        }
        _ => false,
    }
}

/// Whether every element of `t`, and of every block in it, is [`blind`].
fn template_blind(t: &Template, all: &HashMap<String, Template>, stack: &mut Vec<String>) -> bool {
    t.elements.iter().all(|e| {
        let inner = match e {
            TemplateElement::HelperBlock(h) => [&h.template, &h.inverse]
                .into_iter()
                .flatten()
                .all(|t| template_blind(t, all, stack)),
            _ => true,
        };
        inner && blind(e, all, stack)
    })
}

fn helper_blind(h: &HelperTemplate) -> bool {
    parameter_blind(&h.name)
        && h.params.iter().all(parameter_blind)
        && h.hash.values().all(parameter_blind)
}

fn parameter_blind(p: &Parameter) -> bool {
    match p {
        Parameter::Name(_) | Parameter::Literal(_) => true,
        Parameter::Path(path) => path_blind(path),
        Parameter::Subexpression(s) => match s.as_element() {
            TemplateElement::Expression(h) => helper_blind(h),
            _ => false,
        },
        _ => false,
    }
}

/// Whether `path` resolves within its own block: no `../x`, no `@../x`.
fn path_blind(path: &Path) -> bool {
    match path {
        Path::Relative((_, raw)) => !raw.contains(".."),
        Path::Local((level, ..)) => *level == 0,
    }
}

/// Whether `e` (and every block in it) declares no inline partial and
/// calls no partial block, which would make partial names depend on where
/// they are looked up.
fn free_of_decorators(e: &TemplateElement) -> bool {
    match e {
        TemplateElement::DecoratorExpression(_)
        | TemplateElement::DecoratorBlock(_)
        | TemplateElement::PartialBlock(_) => false,
        TemplateElement::HelperBlock(h) => [&h.template, &h.inverse]
            .into_iter()
            .flatten()
            .all(|t| t.elements.iter().all(free_of_decorators)),
        _ => true,
    }
}

/// How many partial calls that copy the whole context (those without a
/// context parameter) are left in `t`, at any depth.
#[cfg(test)]
pub(super) fn calls_left(t: &Template) -> usize {
    t.elements
        .iter()
        .map(|e| match e {
            TemplateElement::PartialExpression(d) | TemplateElement::PartialBlock(d) => {
                usize::from(d.params.is_empty())
            }
            TemplateElement::HelperBlock(h) => [&h.template, &h.inverse]
                .into_iter()
                .flatten()
                .map(calls_left)
                .sum(),
            _ => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use handlebars::Handlebars;
    use serde_json::json;

    use super::*;

    /// Registers `templates` (the first is the root), splices the root and
    /// returns whether it was, and its output spliced and as written (or
    /// the error).
    fn both(templates: &[(&str, &str)]) -> (bool, String, String) {
        let mut hb = Handlebars::new();
        hb.set_strict_mode(true);
        hb.set_prevent_indent(true);
        hb.register_helper(HASH_SCOPE, Box::new(HashScope));
        for (name, text) in templates {
            hb.register_template_string(name, text).unwrap();
        }
        let data = json!({
            "name": "Ana", "list": [{"a": 1, "b": [1, 2]}, {"a": 2, "b": []}],
            "deep": {"x": "y"}
        });
        let root = templates[0].0;
        let spliced = splice(hb.get_template(root).unwrap(), hb.get_templates());
        let was = spliced.is_some();
        if let Some(t) = spliced {
            hb.register_template("spliced", t);
        }
        let render = |name| {
            hb.render(name, &data)
                .unwrap_or_else(|e| format!("error: {}", e.reason()))
        };
        let (original, out) = (render(root), render(if was { "spliced" } else { root }));
        (was, out, original)
    }

    #[test]
    fn plain_calls_are_spliced_and_print_what_the_partials_print() {
        let cases: &[&[(&str, &str)]] = &[
            &[
                ("f", "<a>{{> _h}}</a>\n{{> _h}}\n"),
                ("_h", "<h1>{{name}}</h1>\n"),
            ],
            // nested, inside blocks, with @index, `this`, @root and a hash call within
            &[
                (
                    "f",
                    "{{#each list}}{{> _i}}{{/each}}{{#if name}}{{> _j}}{{else}}x{{/if}}",
                ),
                (
                    "_i",
                    "[{{@index}} {{a}} {{this.a}} {{@root.name}} {{> _d v=b}}]",
                ),
                (
                    "_j",
                    "{{name}} {{#each this}}{{@key}} {{/each}}{{> _d v=deep}}",
                ),
                (
                    "_d",
                    "{{#each v}}<{{this}}>{{/each}}{{#if v.[0]}}first {{v.[0]}}{{/if}}",
                ),
            ],
            // hashes, at the root and in blocks, shadowing a field, nested
            &[
                (
                    "f",
                    "{{> _h name=deep.x}}|{{#each list}}{{> _h name=a}}{{/each}}|{{name}}",
                ),
                (
                    "_h",
                    "{{name}}:{{#each @root.list}}{{a}}{{/each}}{{#if @root.deep}}{{> _h2 v=name}}{{/if}}",
                ),
                ("_h2", "[{{v}} {{name}}]"),
            ],
            &[
                ("f", "{{#each list as |item i|}}{{> _p}}{{/each}}"),
                ("_p", "{{i}}={{item.a}} {{#with @root.deep}}{{x}}{{/with}}"),
            ],
        ];
        for (n, case) in cases.iter().enumerate() {
            let (was, spliced, original) = both(case);
            assert!(!original.starts_with("error"), "case {n}: {original}");
            assert_eq!(spliced, original, "case {n}");
            assert!(was, "case {n}");
        }
    }

    #[test]
    fn calls_a_partial_could_tell_apart_are_left_to_handlebars() {
        let cases: &[&[(&str, &str)]] = &[
            // a context parameter, or a hash where the partial reads `this`
            &[("f", "{{> _h deep}}"), ("_h", "{{x}}")],
            &[
                ("f", "{{> _h x=name}}"),
                ("_h", "{{#each this}}{{@key}} {{/each}}"),
            ],
            &[("f", "{{> _h x=name}}"), ("_h", "{{this.x}}")],
            &[
                ("f", "{{> _h x=name}}"),
                ("_h", "{{> _i}}"),
                ("_i", "{{./x}}"),
            ],
            // climbing out of the partial, directly or through a local
            &[
                ("f", "{{#with deep}}{{> _h}}{{/with}}"),
                ("_h", "{{../name}}"),
            ],
            &[
                ("f", "{{#each list}}{{> _h}}{{/each}}"),
                ("_h", "{{#each b}}{{@../index}}{{/each}}"),
            ],
            // an inline partial in the root could shadow the partial's name
            &[
                ("f", "{{#*inline \"_h\"}}in{{/inline}}{{> _h}}"),
                ("_h", "out"),
            ],
            // a partial block
            &[
                ("f", "{{#> _h}}block{{/_h}}"),
                ("_h", "{{> @partial-block}}"),
            ],
        ];
        for case in cases {
            let (was, spliced, original) = both(case);
            assert!(!was, "{case:?}");
            assert_eq!(spliced, original);
        }
    }

    #[test]
    fn a_partial_that_includes_itself_is_not_spliced_into_itself() {
        let mut hb = Handlebars::new();
        hb.register_template_string("_a", "{{#if stop}}{{else}}{{> _a stop=true}}{{/if}}")
            .unwrap();
        hb.register_template_string("f", "{{> _a}}").unwrap();
        let t = splice(hb.get_template("f").unwrap(), hb.get_templates());
        assert!(
            t.is_none(),
            "a call of `_a` inside `_a` cannot be told apart"
        );
    }
}
