//! The partials of a game's templates (`templates/<game>/*.hbs`), checked
//! before anything renders them. The handlebars renderer recurses into each
//! `{{> partial}}` with no limit, so a cycle (`_a.hbs` = `{{> _b}}`,
//! `_b.hbs` = `{{> _a}}`) or a chain thousands of partials deep would
//! overflow its stack and abort the process. Here every template is parsed
//! (with the renderer's own parser) into the partials it may include, and
//! the graph is walked without recursion: a cycle is
//! `template::partial-cycle`, nesting deeper than [`MAX_DEPTH`] (blocks,
//! subexpressions and partials counted together) is
//! `template::too-deep`, and a partial whose name is only known at render
//! time is `template::dynamic-partial`, since neither could be ruled out
//! for it. A template that does not parse is `sheets::template-syntax`
//! (the words the sheets would use), and none of the game's templates is
//! rendered then.

use std::collections::BTreeMap;

use handlebars::TemplateError;
use handlebars::template::{Parameter, Subexpression, Template, TemplateElement};

use crate::diag::{Diagnostic, Diagnostics, FileId, Span};
use crate::i18n::phrases;
use crate::load::{LoadError, Workspace};

/// The deepest a template may nest when rendered: blocks, subexpressions
/// and partials, through every partial it includes. A real card face nests
/// a dozen deep; the renderer's stack holds many times this.
pub const MAX_DEPTH: usize = 96;

/// The partial handlebars gives the block of a `{{#> partial}}…` call: the
/// block's own text, already accounted for where it is written.
const PARTIAL_BLOCK: &str = "@partial-block";

/// One template file to check: its name in the folder (`_a.hbs`), its id
/// and text (the compile checks the files it reads; the tests, texts).
#[cfg(test)]
#[derive(Debug, Clone, Copy)]
pub struct Source<'t> {
    /// The file name within `templates/<game>/`.
    pub name: &'t str,
    /// The file in the source map.
    pub file: FileId,
    /// Its text.
    pub text: &'t str,
}

/// A game's templates as its compile read and checked them: what the
/// sheets render from, without reading or checking them again.
#[derive(Debug, Clone, Default)]
pub struct Templates {
    /// Each `templates/<game>/*.hbs` that could be read, by file name in
    /// name order, with its file in the source map (its text kept there).
    pub files: Vec<(String, FileId)>,
    /// Whether the check found nothing that could make rendering them
    /// recurse without end or too deep; with any problem, none is rendered.
    pub sound: bool,
}

/// Reads game `game`'s templates and reports what could make rendering
/// them recurse without end or too deep. The texts are kept: a template is
/// small, a check's record hashes what it read, and the sheets render
/// from them.
///
/// # Errors
/// When the template folder cannot be listed or a template cannot be read.
pub(super) fn check(
    ws: &mut Workspace,
    game: &str,
    diags: &mut Diagnostics,
) -> Result<Templates, LoadError> {
    let names: Vec<String> = phrases::template_names(ws, game)?
        .into_iter()
        .filter(|n| {
            // Template names are matched exactly, as the kind ids in them are.
            #[allow(clippy::case_sensitive_file_extension_comparisons)]
            n.ends_with(".hbs")
        })
        .collect();
    let rels: Vec<String> = names
        .iter()
        .map(|n| phrases::template_path(game, n))
        .collect();
    let parsed = ws.read_each(&rels, true, diags, |file, _, text| {
        ((file, parse(file, text)), true)
    })?;
    let mut files = Vec::new();
    let mut nodes = Vec::new();
    for (name, read) in names.iter().zip(parsed) {
        let Some((file, scanned)) = read else {
            continue;
        };
        files.push((name.clone(), file));
        nodes.push((name.as_str(), scanned));
    }
    let problems = Graph::new(nodes).problems();
    let sound = problems.is_empty();
    diags.extend(problems);
    Ok(Templates { files, sound })
}

/// The problems of a set of templates, each parsed here.
#[cfg(test)]
pub fn problems(sources: &[Source<'_>]) -> Vec<Diagnostic> {
    let nodes = sources
        .iter()
        .map(|s| (s.name, parse(s.file, s.text)))
        .collect();
    Graph::new(nodes).problems()
}

/// The most bytes a template may have: room for inline SVG decorations.
pub const MAX_BYTES: usize = 256 << 10;
/// The most tags (`{{`) a template may have.
pub const MAX_TAGS: usize = 1_000;
/// The most tags × bytes a template may have. The handlebars parser finds
/// the line of each element from the start of the text, so its time grows
/// with tags × bytes, while a large decoration with few tags costs next
/// to nothing.
pub const MAX_TAG_BYTES: usize = MAX_TAGS * (32 << 10);

/// Template `text` of `file` scanned, or its size or syntax error
/// reported.
fn parse(file: FileId, text: &str) -> Scanned {
    let tags = text.matches("{{").count();
    if text.len() > MAX_BYTES || tags > MAX_TAGS || tags * text.len() > MAX_TAG_BYTES {
        return Scanned {
            file,
            body: Body::default(),
            inline: Vec::new(),
            problems: vec![
                Diagnostic::error(
                    "template::too-large",
                    format!(
                        "this template has {} bytes and {tags} tags; a template may have at most {MAX_BYTES} bytes, and one of its size at most {} tags",
                        text.len(),
                        (MAX_TAG_BYTES / text.len().max(1)).min(MAX_TAGS)
                    ),
                )
                .at(file, 0..0, "too large")
                .with_help("split it into partials (`_name.hbs`, included with `{{> _name}}`)"),
            ],
        };
    }
    match Template::compile(text) {
        Ok(template) => scan(&template, file, text),
        Err(e) => Scanned {
            file,
            body: Body::default(),
            inline: Vec::new(),
            problems: vec![syntax_error(&e, file, text)],
        },
    }
}

/// A template that does not parse, at the place the parser stopped: the
/// sheets could not print a card with it.
pub fn syntax_error(e: &TemplateError, file: FileId, text: &str) -> Diagnostic {
    let span = e.pos().map_or(0..0, |(line, col)| {
        let at = offset(text, line, col);
        at..at
    });
    Diagnostic::error(
        "sheets::template-syntax",
        format!("the template does not parse: {}", e.reason()),
    )
    .at(file, span, "here")
    .with_help("see https://handlebarsjs.com/guide/ for the syntax")
}

/// The byte offset of 1-based `line`, 0-based `col` (characters) in `text`.
pub fn offset(text: &str, line: usize, col: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = &text[start.min(text.len())..];
    let line_text = rest.split('\n').next().unwrap_or("");
    start
        + line_text
            .char_indices()
            .nth(col)
            .map_or(line_text.len(), |(i, _)| i)
}

/// A `{{> name}}` and where it is written.
#[derive(Debug, Clone)]
struct Include {
    name: String,
    /// How deep it is nested in its template (0: at the top).
    depth: usize,
    file: FileId,
    span: Span,
}

/// What rendering one template (or one inline partial) may do.
#[derive(Debug, Default)]
struct Body {
    includes: Vec<Include>,
    /// The deepest it nests by itself, and where.
    depth: usize,
    deepest: Span,
}

/// One template file: its own body and the inline partials it defines
/// (`{{#*inline "name"}}…{{/inline}}`), and what cannot be checked.
#[derive(Debug)]
struct Scanned {
    file: FileId,
    body: Body,
    inline: Vec<(String, Body)>,
    /// What cannot be checked (a computed partial name, a template too
    /// large to parse).
    problems: Vec<Diagnostic>,
}

/// Where each element of a template starts: handlebars gives a 1-based
/// line and a 1-based column in characters. The character offsets of a
/// line are listed once, when first asked for, so that many tags on one
/// long line cost linear time.
struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
    chars: std::collections::HashMap<usize, Vec<usize>>,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines {
            text,
            starts,
            chars: std::collections::HashMap::new(),
        }
    }

    fn offset(&mut self, line: usize, col: usize) -> usize {
        let index = line.saturating_sub(1).min(self.starts.len() - 1);
        let start = self.starts[index];
        let end = self
            .starts
            .get(index + 1)
            .map_or(self.text.len(), |e| e - 1);
        let text = &self.text[start..end];
        let col = col.saturating_sub(1);
        let chars = self
            .chars
            .entry(index)
            .or_insert_with(|| text.char_indices().map(|(i, _)| i).collect());
        start + chars.get(col).copied().unwrap_or(text.len())
    }

    /// The span of the tag starting at (`line`, `col`): up to its `}}`.
    fn tag(&mut self, line: usize, col: usize) -> Span {
        let at = self.offset(line, col);
        let end = self.text[at..]
            .find("}}")
            .map_or(self.text.len(), |i| at + i + 2);
        at..end
    }
}

/// What is on the walk's stack: a template to go through, how deep it is
/// nested, and whose body it belongs to (`None`: the file's own).
type Pending<'a> = (&'a Template, usize, Option<usize>);

/// A walk through one template file.
struct Walk<'a, 't> {
    file: FileId,
    lines: Lines<'t>,
    stack: Vec<Pending<'a>>,
    out: Scanned,
}

/// The includes, inline partials and depths of template `t` of `file`,
/// walked without recursion.
fn scan(t: &Template, file: FileId, text: &str) -> Scanned {
    let mut walk = Walk {
        file,
        lines: Lines::new(text),
        stack: vec![(t, 0, None)],
        out: Scanned {
            file,
            body: Body::default(),
            inline: Vec::new(),
            problems: Vec::new(),
        },
    };
    while let Some((t, depth, owner)) = walk.stack.pop() {
        for (i, element) in t.elements.iter().enumerate() {
            let at = t.mapping.get(i).map_or((1, 1), |m| (m.0, m.1));
            walk.element(element, at, depth, owner);
        }
    }
    walk.out
}

impl<'a> Walk<'a, '_> {
    fn body(&mut self, owner: Option<usize>) -> &mut Body {
        match owner {
            Some(k) => &mut self.out.inline[k].1,
            None => &mut self.out.body,
        }
    }

    /// Goes through one element at (line, column) `at`, `depth` deep in
    /// the body of `owner`; the blocks it holds are pushed on the stack.
    fn element(
        &mut self,
        element: &'a TemplateElement,
        at: (usize, usize),
        depth: usize,
        owner: Option<usize>,
    ) {
        let (blocks, params, hash) = match element {
            TemplateElement::PartialExpression(d) | TemplateElement::PartialBlock(d) => {
                let span = self.lines.tag(at.0, at.1);
                match partial_name(&d.name) {
                    Some(name) if name == PARTIAL_BLOCK => {}
                    Some(name) => {
                        let file = self.file;
                        let include = Include {
                            name,
                            depth,
                            file,
                            span,
                        };
                        self.body(owner).includes.push(include);
                    }
                    None => self.out.problems.push(dynamic(self.file, span, "partial")),
                }
                ([d.template.as_ref(), None], &d.params, &d.hash)
            }
            TemplateElement::DecoratorBlock(d) | TemplateElement::DecoratorExpression(d) => {
                if d.name.as_name() == Some("inline") {
                    self.inline(d.params.first(), d.template.as_ref(), at);
                    ([None, None], &d.params, &d.hash)
                } else {
                    ([d.template.as_ref(), None], &d.params, &d.hash)
                }
            }
            TemplateElement::HelperBlock(h)
            | TemplateElement::Expression(h)
            | TemplateElement::HtmlExpression(h) => (
                [h.template.as_ref(), h.inverse.as_ref()],
                &h.params,
                &h.hash,
            ),
            // Text and comments; and what a later handlebars may add, which
            // holds nothing this walk knows how to follow.
            _ => return,
        };
        self.stack
            .extend(blocks.into_iter().flatten().map(|b| (b, depth + 1, owner)));
        let deepest = depth + subexpression_depth(params.iter().chain(hash.values()));
        if deepest > self.body(owner).depth {
            let span = self.lines.tag(at.0, at.1);
            let body = self.body(owner);
            body.depth = deepest;
            body.deepest = span;
        }
    }

    /// An inline partial's definition: its body is walked as one of its
    /// own, rendered only where it is included.
    fn inline(&mut self, name: Option<&Parameter>, body: Option<&'a Template>, at: (usize, usize)) {
        if let (Some(Parameter::Literal(serde_json::Value::String(name))), Some(b)) = (name, body) {
            self.out.inline.push((name.clone(), Body::default()));
            self.stack.push((b, 0, Some(self.out.inline.len() - 1)));
        } else {
            let span = self.lines.tag(at.0, at.1);
            self.out
                .problems
                .push(dynamic(self.file, span, "inline partial"));
        }
    }
}

/// How deep the subexpressions among `params` nest (`(a (b c))`: 2),
/// counted without recursion.
fn subexpression_depth<'a>(params: impl IntoIterator<Item = &'a Parameter>) -> usize {
    let mut stack: Vec<(&Subexpression, usize)> = params
        .into_iter()
        .filter_map(|p| match p {
            Parameter::Subexpression(s) => Some((s, 1)),
            _ => None,
        })
        .collect();
    let mut deepest = 0;
    while let Some((s, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        if let TemplateElement::Expression(h) = s.as_element() {
            for p in h.params.iter().chain(h.hash.values()) {
                if let Parameter::Subexpression(inner) = p {
                    stack.push((inner, depth + 1));
                }
            }
        }
    }
    deepest
}

/// The name a partial is included by, when it is written out.
fn partial_name(name: &Parameter) -> Option<String> {
    match name {
        Parameter::Name(_) | Parameter::Path(_) => name.as_name().map(str::to_owned),
        Parameter::Literal(serde_json::Value::String(s)) => Some(s.clone()),
        _ => None,
    }
}

fn dynamic(file: FileId, span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        "template::dynamic-partial",
        format!("the name of this {what} is only known when a card is printed"),
    )
    .at(file, span, "computed name")
    .with_help(
        "write the partial's name out (`{{> _ability}}`, `{{#*inline \"box\"}}`): only then can carta rule out partials that include each other forever",
    )
}

/// One template or inline partial: what it is shown as, and its body.
struct Node {
    label: String,
    file: FileId,
    body: Body,
}

/// The templates of a game and what each may include: an include of
/// `name` may render the template `name.hbs` or any inline partial called
/// `name` (one defined by a caller stays visible to what it includes), so
/// every such edge is followed.
struct Graph {
    nodes: Vec<Node>,
    /// Per node: (index of the include in its body, the node it may render).
    edges: Vec<Vec<(usize, usize)>>,
    problems: Vec<Diagnostic>,
}

impl Graph {
    fn new(files: Vec<(&str, Scanned)>) -> Graph {
        let mut nodes = Vec::new();
        let mut problems = Vec::new();
        let mut inline = Vec::new();
        // Which nodes an include of each name may render.
        let mut named: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (name, scanned) in files {
            problems.extend(scanned.problems);
            let file = scanned.file;
            named
                .entry(name.strip_suffix(".hbs").unwrap_or(name).to_owned())
                .or_default()
                .push(nodes.len());
            nodes.push(Node {
                label: name.to_owned(),
                file,
                body: scanned.body,
            });
            for (n, body) in scanned.inline {
                let label = format!("{name} (inline `{n}`)");
                inline.push((n, Node { label, file, body }));
            }
        }
        for (name, node) in inline {
            named.entry(name).or_default().push(nodes.len());
            nodes.push(node);
        }
        let edges = nodes
            .iter()
            .map(|n| {
                let includes = n.body.includes.iter().enumerate();
                includes
                    .flat_map(|(i, inc)| {
                        named
                            .get(&inc.name)
                            .into_iter()
                            .flatten()
                            .map(move |&t| (i, t))
                    })
                    .collect()
            })
            .collect();
        Graph {
            nodes,
            edges,
            problems,
        }
    }

    /// Every cycle (at the include that closes it) and the deepest
    /// nesting, when it is too deep; with what could not be checked.
    fn problems(mut self) -> Vec<Diagnostic> {
        let (depths, best) = self.walk();
        if let Some(root) = (0..self.nodes.len()).max_by_key(|&n| (depths[n], std::cmp::Reverse(n)))
            && depths[root] > MAX_DEPTH
        {
            self.too_deep(root, depths[root], &best);
        }
        self.problems
    }

    /// A depth-first walk over every node, with a stack of its own instead
    /// of recursion: reports each include that closes a cycle, and returns
    /// how deep each node nests and, per node, the include that leads to
    /// its deepest point (`None`: its own body is).
    fn walk(&mut self) -> (Vec<usize>, Vec<Option<(usize, usize)>>) {
        const NEW: u8 = 0;
        const OPEN: u8 = 1;
        const DONE: u8 = 2;
        let n = self.nodes.len();
        let mut state = vec![NEW; n];
        let mut depth: Vec<usize> = self.nodes.iter().map(|n| n.body.depth).collect();
        let mut best = vec![None; n];
        for root in 0..n {
            if state[root] != NEW {
                continue;
            }
            state[root] = OPEN;
            // (node, the next of its edges to follow)
            let mut stack = vec![(root, 0)];
            while let Some(&(node, next)) = stack.last() {
                let Some(&(include, target)) = self.edges[node].get(next) else {
                    state[node] = DONE;
                    stack.pop();
                    continue;
                };
                match state[target] {
                    NEW => {
                        state[target] = OPEN;
                        stack.push((target, 0));
                        continue;
                    }
                    OPEN => {
                        let path: Vec<usize> = stack.iter().map(|&(k, _)| k).collect();
                        self.cycle(&path, include, target);
                    }
                    _ => {
                        let through =
                            self.nodes[node].body.includes[include].depth + 1 + depth[target];
                        if through > depth[node] {
                            depth[node] = through;
                            best[node] = Some((include, target));
                        }
                    }
                }
                if let Some((_, next)) = stack.last_mut() {
                    *next += 1;
                }
            }
        }
        (depth, best)
    }

    /// Reports the cycle closed by include `include` of the last node of
    /// `path` (the walk's stack), back to `target`.
    fn cycle(&mut self, path: &[usize], include: usize, target: usize) {
        let from = path.iter().position(|&k| k == target).unwrap_or(0);
        let chain: Vec<usize> = path[from..].iter().copied().chain([target]).collect();
        let last = *path.last().unwrap_or(&target);
        let inc = &self.nodes[last].body.includes[include];
        let shown = self.chain(&chain);
        self.problems.push(
            Diagnostic::error(
                "template::partial-cycle",
                format!("these partials include each other without end: {shown}"),
            )
            .at(inc.file, inc.span.clone(), format!("`{}` is included again here", self.nodes[target].label))
            .with_help("a partial must not include itself, directly or through others: remove one of these includes"),
        );
    }

    /// Reports that `root` nests `depth` deep, at the first include on its
    /// deepest path (or at its deepest element).
    fn too_deep(&mut self, root: usize, depth: usize, best: &[Option<(usize, usize)>]) {
        let mut chain = vec![root];
        let mut at = root;
        while let Some((_, next)) = best[at] {
            chain.push(next);
            at = next;
        }
        let node = &self.nodes[root];
        let span = match best[root] {
            Some((include, _)) => node.body.includes[include].span.clone(),
            None => node.body.deepest.clone(),
        };
        let shown = self.chain(&chain);
        self.problems.push(
            Diagnostic::error(
                "template::too-deep",
                format!("this template nests {depth} deep when printed (at most {MAX_DEPTH}): {shown}"),
            )
            .at(node.file, span, "the deepest nesting starts here")
            .with_help("flatten the template: fewer nested blocks, and partials that include fewer partials in turn"),
        );
    }

    /// A chain of nodes as `a.hbs → b.hbs → a.hbs`, its middle left out
    /// when it is long.
    fn chain(&self, nodes: &[usize]) -> String {
        const SHOWN: usize = 4;
        let label = |k: &usize| format!("`{}`", crate::diag::clip(&self.nodes[*k].label));
        if nodes.len() <= 2 * SHOWN {
            return nodes.iter().map(label).collect::<Vec<_>>().join(" → ");
        }
        let head: Vec<String> = nodes[..SHOWN].iter().map(label).collect();
        let tail: Vec<String> = nodes[nodes.len() - SHOWN..].iter().map(label).collect();
        format!(
            "{} → … ({} more) → {}",
            head.join(" → "),
            nodes.len() - 2 * SHOWN,
            tail.join(" → ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(files: &[(&str, &str)]) -> Vec<(&'static str, String)> {
        let sources: Vec<Source<'_>> = files
            .iter()
            .enumerate()
            .map(|(i, (name, text))| Source {
                name,
                file: FileId(u32::try_from(i).unwrap()),
                text,
            })
            .collect();
        problems(&sources)
            .into_iter()
            .map(|d| (d.code, d.message))
            .collect()
    }

    #[test]
    fn a_cycle_is_reported_once_at_the_include_that_closes_it() {
        let found = codes(&[
            ("_a.hbs", "{{> _b}}"),
            ("_b.hbs", "{{> _c}}"),
            ("_c.hbs", "x {{> _a}}"),
        ]);
        assert_eq!(
            found,
            [(
                "template::partial-cycle",
                "these partials include each other without end: `_a.hbs` → `_b.hbs` → `_c.hbs` → `_a.hbs`".to_owned()
            )]
        );
        let sources = [Source {
            name: "_a.hbs",
            file: FileId(0),
            text: "ab\n é{{> _a}}",
        }];
        let d = &problems(&sources)[0];
        assert_eq!(
            d.primary.as_ref().map(|l| &sources[0].text[l.span.clone()]),
            Some("{{> _a}}")
        );
    }

    #[test]
    fn what_cannot_recurse_is_fine() {
        assert!(
            codes(&[
                (
                    "card.hbs",
                    "{{> _a}}{{> _a}}{{#> _b}}{{> _a}}{{/_b}}{{> missing}}"
                ),
                (
                    "_a.hbs",
                    "{{#*inline \"x\"}}{{> _c}}{{/inline}}{{> x}}{{#each a}}{{> _c}}{{/each}}"
                ),
                ("_b.hbs", "{{> @partial-block}}"),
                ("_c.hbs", "{{lookup (lookup this \"a\") \"b\"}}"),
            ])
            .is_empty()
        );
    }

    #[test]
    fn a_template_that_does_not_parse_is_reported_here() {
        assert_eq!(
            codes(&[("_broken.hbs", "{{> _broken")])[0].0,
            "sheets::template-syntax"
        );
    }

    #[test]
    fn depth_counts_blocks_subexpressions_and_partials() {
        let deep = |n: usize| format!("{}x{}", "{{#if a}}".repeat(n), "{{/if}}".repeat(n));
        assert!(codes(&[("card.hbs", &deep(MAX_DEPTH))]).is_empty());
        assert_eq!(
            codes(&[("card.hbs", &deep(MAX_DEPTH + 2))])[0].0,
            "template::too-deep"
        );
        let half = deep(MAX_DEPTH / 2);
        let nested = format!(
            "{}{{{{> _b}}}}{}",
            "{{#if a}}".repeat(MAX_DEPTH / 2 + 1),
            "{{/if}}".repeat(MAX_DEPTH / 2 + 1)
        );
        assert_eq!(
            codes(&[("card.hbs", &nested), ("_b.hbs", &half)])[0].0,
            "template::too-deep"
        );
        let sub = format!(
            "{{{{x {}a{}}}}}",
            "(x ".repeat(MAX_DEPTH + 1),
            ")".repeat(MAX_DEPTH + 1)
        );
        assert_eq!(codes(&[("card.hbs", &sub)])[0].0, "template::too-deep");
    }

    #[test]
    fn names_known_only_when_printing_are_refused() {
        let found = codes(&[("_a.hbs", "{{> (x)}}{{#*inline name}}y{{/inline}}")]);
        let codes: Vec<&str> = found.iter().map(|(c, _)| *c).collect();
        assert_eq!(codes, ["template::dynamic-partial"; 2]);
    }
}
