//! Schema errors in words a card designer understands, placed at the exact
//! span: a bad value at the value, an unknown field at its key, a missing
//! field at the table that lacks it.

use jsonschema::ValidationError;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde_json::Value;
use toml::de::DeTable;

use super::pointer::{Located, locate};
use super::schemas::GameSchemas;
use crate::diag::{Diagnostic, FileId, Span};
use crate::suggest;

/// What the messages need to know about the table being validated.
pub struct Subject<'a, 'src> {
    /// The file the table is in.
    pub file: FileId,
    /// The validated table.
    pub table: &'a DeTable<'src>,
    /// The span of the table itself (a card's `[[card]]` header and body).
    pub span: Span,
    /// What the table is, for messages: "card `rei-frixo`", "game.toml".
    pub noun: String,
    /// Keys allowed at the root besides the schema's (a card's reserved fields).
    pub extra_root_keys: &'a [&'a str],
    /// The game's schemas, to look up allowed names and titles.
    pub schemas: &'a GameSchemas,
}

/// Turns the validation errors of one table into diagnostics (an error
/// about several unknown keys becomes one diagnostic per key). A misspelt
/// required field is one mistake, not two: the unknown key is reported with
/// its correction, and the "missing" error for the correction is dropped.
pub fn diagnose<'e>(
    errors: impl Iterator<Item = ValidationError<'e>>,
    subject: &Subject<'_, '_>,
    out: &mut Vec<Diagnostic>,
) {
    let errors: Vec<ValidationError<'e>> = errors.collect();
    let mut typos = Vec::new();
    for error in &errors {
        if let ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } = error.kind()
        {
            let pointer = error.instance_path().to_string();
            let parent = parent_schema(error, subject);
            for name in unexpected {
                if let Some(fix) = correction(subject, &pointer, name, parent) {
                    typos.push((pointer.clone(), fix.to_owned()));
                }
            }
        }
    }
    for error in &errors {
        diagnose_one(error, subject, &typos, out);
    }
}

fn parent_schema<'s>(error: &ValidationError<'_>, subject: &Subject<'s, '_>) -> Option<&'s Value> {
    let location = error.absolute_keyword_location()?.to_string();
    subject.schemas.parent_of_keyword(&location)
}

/// Where an error is and how to name it: the located value, the field as
/// a person reads it, and the value described.
struct Site<'s, 'a, 't> {
    subject: &'s Subject<'a, 't>,
    at: Located,
    field: String,
    found: String,
}

impl Site<'_, '_, '_> {
    fn error(&self, code: &'static str, message: String, label: String) -> Diagnostic {
        value_error(self.subject, &self.at, code, message, label)
    }

    fn range(&self, bound: &str) -> Diagnostic {
        range(self.subject, &self.at, &self.field, &self.found, bound)
    }

    fn items(&self, bound: &str) -> Diagnostic {
        items(self.subject, &self.at, &self.field, &self.found, bound)
    }

    fn length(&self, bound: &str) -> Diagnostic {
        length(self.subject, &self.at, &self.field, bound)
    }
}

fn diagnose_one(
    error: &ValidationError<'_>,
    subject: &Subject<'_, '_>,
    typos: &[(String, String)],
    out: &mut Vec<Diagnostic>,
) {
    let pointer = error.instance_path().to_string();
    let at = locate(subject.table, subject.span.clone(), &pointer);
    let field = if at.display.is_empty() {
        subject.noun.clone()
    } else {
        format!("`{}`", at.display)
    };
    let site = Site {
        subject,
        at,
        field,
        found: describe_value(error.instance()),
    };
    let parent = parent_schema(error, subject);
    match error.kind() {
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            if !typos.iter().any(|(p, fix)| *p == pointer && fix == name) {
                out.push(missing(subject, &site.at, &site.field, name, parent));
            }
        }
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            for name in unexpected {
                out.push(unknown_field(
                    subject,
                    &pointer,
                    name,
                    parent,
                    error.instance(),
                ));
            }
        }
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            alternatives(error, context, &site, typos, out);
        }
        kind => {
            out.push(bound_error(kind, &site).unwrap_or_else(|| form_error(kind, error, &site)));
        }
    }
}

/// A value that fits none of the alternatives of a `oneOf`/`anyOf`: the
/// values of all its choices, or the errors of the alternative the author
/// most likely meant, or else a list of the forms.
fn alternatives(
    error: &ValidationError<'_>,
    context: &[Vec<ValidationError<'static>>],
    site: &Site<'_, '_, '_>,
    typos: &[(String, String)],
    out: &mut Vec<Diagnostic>,
) {
    let pointer = error.instance_path().to_string();
    if let Some(options) = merged_choices(context, &pointer) {
        out.push(choice(
            site.subject,
            &site.at,
            &site.field,
            error.instance(),
            &options,
            "schema::enum",
        ));
        return;
    }
    if let Some(branch) = best_branch(context, &pointer) {
        for e in branch {
            diagnose_one(e, site.subject, typos, out);
        }
        return;
    }
    let forms = context
        .iter()
        .map(|b| describe_branch(b, &pointer))
        .collect::<Vec<_>>()
        .join("; or ");
    out.push(site.error(
        "schema::one-of",
        format!("{} matches none of its allowed forms: {forms}", site.field),
        format!("{} fits no allowed form", site.found),
    ));
}

/// A value out of a numeric, length or count bound, or off its pattern.
fn bound_error(kind: &ValidationErrorKind, site: &Site<'_, '_, '_>) -> Option<Diagnostic> {
    Some(match kind {
        ValidationErrorKind::Minimum { limit } => site.range(&format!("at least {limit}")),
        ValidationErrorKind::Maximum { limit } => site.range(&format!("at most {limit}")),
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            site.range(&format!("greater than {limit}"))
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            site.range(&format!("less than {limit}"))
        }
        ValidationErrorKind::MultipleOf { multiple_of, .. } => {
            site.range(&format!("a multiple of {multiple_of}"))
        }
        ValidationErrorKind::MinLength { limit } => {
            site.length(&format!("at least {limit} character{}", plural(*limit)))
        }
        ValidationErrorKind::MaxLength { limit } => {
            site.length(&format!("at most {limit} character{}", plural(*limit)))
        }
        ValidationErrorKind::MinItems { limit } => {
            site.items(&format!("at least {limit} item{}", plural(*limit)))
        }
        ValidationErrorKind::MaxItems { limit } => {
            site.items(&format!("at most {limit} item{}", plural(*limit)))
        }
        ValidationErrorKind::Pattern { pattern } => site.error(
            "schema::pattern",
            format!(
                "{} does not have the required form: {} does not match `{pattern}`",
                site.field, site.found
            ),
            "does not match the pattern".into(),
        ),
        _ => return None,
    })
}

/// A value of the wrong type, not among the allowed ones, or of a form the
/// schema forbids.
fn form_error(
    kind: &ValidationErrorKind,
    error: &ValidationError<'_>,
    site: &Site<'_, '_, '_>,
) -> Diagnostic {
    let (field, found) = (&site.field, &site.found);
    match kind {
        ValidationErrorKind::Enum { options } => choice(
            site.subject,
            &site.at,
            field,
            error.instance(),
            options,
            "schema::enum",
        ),
        ValidationErrorKind::Constant { expected_value } => {
            let options = Value::Array(vec![(**expected_value).clone()]);
            choice(
                site.subject,
                &site.at,
                field,
                error.instance(),
                &options,
                "schema::const",
            )
        }
        _ => {
            let (code, message, label) = form_words(kind, error, field, found);
            site.error(code, message, label)
        }
    }
}

/// The code, message and label of a form error other than a choice.
fn form_words(
    kind: &ValidationErrorKind,
    error: &ValidationError<'_>,
    field: &str,
    found: &str,
) -> (&'static str, String, String) {
    match kind {
        ValidationErrorKind::Type { kind } => {
            let expected = type_names(kind);
            let message = format!("{field} must be {expected}, but it is {found}");
            ("schema::type", message, format!("expected {expected}"))
        }
        ValidationErrorKind::UniqueItems => (
            "schema::items",
            format!("{field} must not repeat an item"),
            "an item appears twice".into(),
        ),
        ValidationErrorKind::Contains => (
            "schema::items",
            format!("{field} must contain at least one matching item"),
            "no item matches".into(),
        ),
        ValidationErrorKind::OneOfMultipleValid { .. } => (
            "schema::one-of",
            format!("{field} is ambiguous: it matches more than one of its allowed forms"),
            "matches several forms".into(),
        ),
        ValidationErrorKind::Not { .. } => (
            "schema::not",
            format!("{field} has a value the schema forbids"),
            "not allowed".into(),
        ),
        ValidationErrorKind::FalseSchema => (
            "schema::not-allowed",
            format!("{field} is not allowed here"),
            "not allowed".into(),
        ),
        ValidationErrorKind::Format { format } => (
            "schema::format",
            format!("{field} must be a valid {format}, but it is {found}"),
            format!("not a valid {format}"),
        ),
        _ => (
            "schema::other",
            format!("{field}: {}", crate::diag::clip(&error.to_string())),
            "here".into(),
        ),
    }
}

/// In a failed `oneOf`/`anyOf`, the alternative the author most likely meant,
/// found by elimination: drop alternatives of another type than the value,
/// then those whose tag (a `const` on the value or a direct child, such as
/// `type = "reforcos"`) differs; of the rest, the one that got furthest into
/// the value (deepest error). `None` when no alternative fits at all.
fn best_branch<'e>(
    context: &'e [Vec<ValidationError<'static>>],
    pointer: &str,
) -> Option<&'e [ValidationError<'static>]> {
    let depth = |e: &ValidationError<'_>| e.instance_path().to_string().matches('/').count();
    let own_depth = pointer.matches('/').count();
    let same_type: Vec<&Vec<ValidationError<'static>>> = context
        .iter()
        .filter(|b| {
            !b.iter().any(|e| {
                e.instance_path().to_string() == pointer
                    && matches!(e.kind(), ValidationErrorKind::Type { .. })
            })
        })
        .collect();
    if same_type.len() <= 1 {
        return same_type.first().map(|b| b.as_slice());
    }
    let tagged: Vec<&Vec<ValidationError<'static>>> = same_type
        .iter()
        .copied()
        .filter(|b| {
            !b.iter().any(|e| {
                matches!(e.kind(), ValidationErrorKind::Constant { .. })
                    && depth(e) <= own_depth + 1
            })
        })
        .collect();
    let pool = if tagged.is_empty() { same_type } else { tagged };
    pool.into_iter()
        .max_by_key(|b| {
            (
                b.iter().map(depth).max().unwrap_or(0),
                std::cmp::Reverse(b.len()),
            )
        })
        .map(std::vec::Vec::as_slice)
}

/// When every alternative of the value's type is a choice of values (a
/// `const` or an `enum`, as in `paper`: `"a4"` or `"letter"`), all those
/// values together: picking one branch would list only its own values.
fn merged_choices(context: &[Vec<ValidationError<'static>>], pointer: &str) -> Option<Value> {
    let mut values = Vec::new();
    for branch in context {
        let at_value = |e: &ValidationError<'_>| e.instance_path().to_string() == pointer;
        if branch
            .iter()
            .any(|e| at_value(e) && matches!(e.kind(), ValidationErrorKind::Type { .. }))
        {
            continue;
        }
        for e in branch {
            match e.kind() {
                ValidationErrorKind::Constant { expected_value } if at_value(e) => {
                    values.push((**expected_value).clone());
                }
                ValidationErrorKind::Enum { options } if at_value(e) => {
                    values.extend(options.as_array()?.iter().cloned());
                }
                _ => return None,
            }
        }
    }
    values.dedup();
    (values.len() >= 2).then_some(Value::Array(values))
}

/// A short description of one alternative, from its first error at the value.
fn describe_branch(branch: &[ValidationError<'static>], pointer: &str) -> String {
    let at_value = branch
        .iter()
        .find(|e| e.instance_path().to_string() == pointer)
        .or(branch.first());
    match at_value.map(ValidationError::kind) {
        Some(ValidationErrorKind::Type { kind }) => type_names(kind),
        Some(ValidationErrorKind::Enum { options }) => format!("one of {}", list_values(options)),
        Some(ValidationErrorKind::Constant { expected_value }) => {
            format!("exactly {expected_value}")
        }
        Some(ValidationErrorKind::Minimum { limit }) => format!("a number of at least {limit}"),
        Some(ValidationErrorKind::Maximum { limit }) => format!("a number of at most {limit}"),
        Some(ValidationErrorKind::Pattern { pattern }) => format!("a string matching `{pattern}`"),
        _ => at_value.map_or_else(|| "another form".into(), ToString::to_string),
    }
}

fn value_error(
    subject: &Subject<'_, '_>,
    at: &Located,
    code: &'static str,
    message: String,
    label: String,
) -> Diagnostic {
    Diagnostic::error(code, message).at(subject.file, at.value.clone(), label)
}

fn range(
    subject: &Subject<'_, '_>,
    at: &Located,
    field: &str,
    found: &str,
    bound: &str,
) -> Diagnostic {
    value_error(
        subject,
        at,
        "schema::range",
        format!("{field} must be {bound}, but it is {found}"),
        format!("must be {bound}"),
    )
}

fn length(subject: &Subject<'_, '_>, at: &Located, field: &str, bound: &str) -> Diagnostic {
    value_error(
        subject,
        at,
        "schema::length",
        format!("{field} must have {bound}"),
        format!("must have {bound}"),
    )
}

fn items(
    subject: &Subject<'_, '_>,
    at: &Located,
    field: &str,
    found: &str,
    bound: &str,
) -> Diagnostic {
    value_error(
        subject,
        at,
        "schema::items",
        format!("{field} must have {bound}, but it is {found}"),
        format!("must have {bound}"),
    )
}

fn choice(
    subject: &Subject<'_, '_>,
    at: &Located,
    field: &str,
    value: &Value,
    options: &Value,
    code: &'static str,
) -> Diagnostic {
    let allowed = list_values(options);
    let found = describe_value(value);
    let hint = value.as_str().and_then(|v| {
        let names = options.as_array()?.iter().filter_map(Value::as_str);
        suggest::closest(v, names).map(|c| format!("did you mean \"{c}\"?"))
    });
    let message = match options.as_array().map(Vec::len) {
        Some(1) => format!("{field} must be {allowed}, but it is {found}"),
        _ => format!("{field} must be one of {allowed}, but it is {found}"),
    };
    value_error(subject, at, code, message, "not an allowed value".into())
        .with_help(hint.unwrap_or_else(|| format!("allowed values: {allowed}")))
}

fn missing(
    subject: &Subject<'_, '_>,
    at: &Located,
    field: &str,
    name: &str,
    parent: Option<&Value>,
) -> Diagnostic {
    let property = parent
        .and_then(|p| p.get("properties"))
        .and_then(|p| p.get(name));
    let what = property
        .and_then(describe_property)
        .map(|d| format!(" ({d})"))
        .unwrap_or_default();
    let place = at.key.clone().unwrap_or_else(|| header_span(subject, at));
    Diagnostic::error(
        "schema::required",
        format!("{field} is missing the required field `{name}`{what}"),
    )
    .at(subject.file, place, format!("`{name}`{MISSING_HERE}"))
    .with_help(format!("add `{name} = …` to this table"))
}

/// The end of a `schema::required` diagnostic's label, after the field.
const MISSING_HERE: &str = " is missing here";

/// The field a `schema::required` diagnostic says is missing.
pub(super) fn missing_field(d: &Diagnostic) -> Option<&str> {
    let label = &d.primary.as_ref()?.message;
    (d.code == "schema::required")
        .then(|| {
            label
                .strip_prefix('`')?
                .strip_suffix(MISSING_HERE)?
                .strip_suffix('`')
        })
        .flatten()
}

/// The span to blame for something missing from a table: its header line
/// rather than its whole body.
fn header_span(subject: &Subject<'_, '_>, at: &Located) -> Span {
    let start = at.value.start;
    let end = subject
        .table
        .iter()
        .map(|(k, _)| k.span().start)
        .filter(|&s| s > start)
        .min()
        .unwrap_or(at.value.end);
    // Trim to the first line of the table.
    let end = end.min(at.value.end);
    start..end.max(start)
}

/// An unknown key; when it is a typo of an allowed one, the help suggests
/// the rename (a required field it stands for is then not reported
/// missing), or its removal when the table has the right key too.
fn unknown_field(
    subject: &Subject<'_, '_>,
    pointer: &str,
    name: &str,
    parent: Option<&Value>,
    table: &Value,
) -> Diagnostic {
    let escaped = name.replace('~', "~0").replace('/', "~1");
    let at = locate(
        subject.table,
        subject.span.clone(),
        &format!("{pointer}/{escaped}"),
    );
    let allowed = allowed_keys(subject, pointer, parent);
    let owner = if pointer.is_empty() {
        subject.noun.clone()
    } else {
        format!(
            "`{}`",
            locate(subject.table, subject.span.clone(), pointer).display
        )
    };
    let help = match suggest::closest(name, allowed.iter().copied()) {
        Some(c) if table.get(c).is_some() => {
            format!("`{name}` looks like a misspelt `{c}`, which is set too: keep one of the two")
        }
        Some(c) => format!("did you mean `{c}`?"),
        None if allowed.is_empty() => "this table takes no fields".into(),
        None => format!("allowed fields: {}", allowed.join(", ")),
    };
    Diagnostic::error(
        "schema::unknown-field",
        format!("{owner} has no field `{name}`"),
    )
    .at(subject.file, at.key.unwrap_or(at.value), "unknown field")
    .with_help(help)
}

/// The keys a table may hold: its schema's properties, plus the reserved
/// keys at a card's root.
fn allowed_keys<'a>(
    subject: &Subject<'a, '_>,
    pointer: &str,
    parent: Option<&'a Value>,
) -> Vec<&'a str> {
    let mut allowed: Vec<&str> = parent
        .and_then(|p| p.get("properties"))
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    if pointer.is_empty() {
        allowed.extend(subject.extra_root_keys);
    }
    allowed
}

/// The allowed key an unknown key `name` is most likely a typo of.
fn correction<'a>(
    subject: &Subject<'a, '_>,
    pointer: &str,
    name: &str,
    parent: Option<&'a Value>,
) -> Option<&'a str> {
    suggest::closest(name, allowed_keys(subject, pointer, parent))
}

fn describe_property(schema: &Value) -> Option<String> {
    let title = schema.get("title").and_then(Value::as_str);
    let ty = schema.get("type").and_then(Value::as_str);
    match (title, ty) {
        (Some(t), Some(ty)) => Some(format!("{t}, {ty}")),
        (Some(t), None) => Some(t.to_owned()),
        (None, Some(ty)) => Some(ty.to_owned()),
        (None, None) => None,
    }
}

fn type_names(kind: &TypeKind) -> String {
    let names: Vec<String> = match kind {
        TypeKind::Single(t) => vec![article(&t.to_string())],
        TypeKind::Multiple(set) => set.iter().map(|t| article(&t.to_string())).collect(),
    };
    names.join(" or ")
}

fn article(type_name: &str) -> String {
    match type_name {
        "integer" => "an integer".into(),
        "array" => "an array".into(),
        "object" => "a table".into(),
        "null" => "null".into(),
        other => format!("a {other}"),
    }
}

/// A value as a message shows it: its type and, when short, itself.
fn describe_value(value: &Value) -> String {
    match value {
        Value::String(s) if s.chars().count() <= 40 => format!("the string {value}"),
        Value::String(_) => "a long string".into(),
        Value::Number(n) if n.is_f64() => format!("the float {n}"),
        Value::Number(n) => format!("{n}"),
        Value::Bool(b) => format!("{b}"),
        Value::Array(a) => format!("an array of {} item{}", a.len(), plural(a.len() as u64)),
        Value::Object(_) => "a table".into(),
        Value::Null => "null".into(),
    }
}

fn list_values(options: &Value) -> String {
    match options {
        Value::Array(items) => items
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}
