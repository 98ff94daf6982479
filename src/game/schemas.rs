//! A game's schema files found (its folder and any path a kind names, inside
//! the workspace) and compiled into one validator per kind.

use std::collections::BTreeMap;

use crate::diag::{Diagnostic, Diagnostics, FileId};
use crate::load::{LoadError, ReadProblem, Workspace};
use crate::validate::{self, GameSchemas, LoadedManifest};

/// The game's schema files — its `schemas/<game>/` folder and any other
/// path a kind names, when it stays inside the workspace — and the paths
/// refused (reported).
fn schema_files(
    ws: &mut Workspace,
    manifest: &LoadedManifest,
    paths: &BTreeMap<String, String>,
    diags: &mut Diagnostics,
) -> Result<(Vec<String>, Vec<String>), LoadError> {
    let mut files = ws.schema_files(&manifest.manifest.id, diags)?;
    let mut refused = Vec::new();
    for (kind, path) in paths {
        if files.contains(path) {
            continue;
        }
        // Refused by the walk of the schemas folder: reported there.
        if ws.was_refused(path) {
            refused.push(path.clone());
            continue;
        }
        // A kind may name any schema file, but only inside the workspace.
        match ws.locate(path) {
            Ok(()) => files.push(path.clone()),
            Err(ReadProblem::Missing) => {}
            Err(problem) => {
                refused.push(path.clone());
                let pointer = format!("/kinds/{kind}/schema");
                let span = manifest.spans.value_span(&pointer).unwrap_or(0..0);
                diags.push(
                    Diagnostic::error(problem.code(), problem.message(path))
                        .at(manifest.file, span, "this schema path")
                        .with_help(
                            "schema paths are relative to the workspace root and stay inside it",
                        ),
                );
            }
        }
    }
    Ok((files, refused))
}

/// Reads the game's schema files (its `schemas/<game>/` folder and any other
/// path a kind names) and compiles one validator per kind.
pub(super) fn compile_schemas(
    ws: &mut Workspace,
    manifest: &LoadedManifest,
    diags: &mut Diagnostics,
) -> Result<(GameSchemas, Vec<FileId>), LoadError> {
    let m = &manifest.manifest;
    let paths = m.schema_paths();
    let (files, refused) = schema_files(ws, manifest, &paths, diags)?;
    let mut ids = ws.read_many(&files, diags)?;
    ids.retain(|&f| ws.is_text(f));
    let kinds = m.kind_ids();
    let docs = GameSchemas::parse_files(&ids, &ws.sources, &kinds, diags);
    let parsed: Vec<String> = docs.iter().map(|d| d.uri.clone()).collect();
    let by_uri = paths
        .iter()
        .map(|(k, p)| (k.clone(), validate::uri_of(p)))
        .collect();
    let (schemas, missing) = GameSchemas::compile(docs, &by_uri, diags);
    for kind in missing {
        let path = &paths[&kind];
        if parsed.contains(&validate::uri_of(path))
            || files.contains(path)
            || refused.contains(path)
        {
            continue; // present but broken or refused: already reported
        }
        let span = manifest
            .spans
            .key_span(&format!("/kinds/{kind}"))
            .unwrap_or(0..0);
        diags.push(
            Diagnostic::error(
                "schema::missing",
                format!("kind `{kind}` has no schema: `{path}` does not exist"),
            )
            .at(manifest.file, span, "declared here")
            .with_help(format!(
                "create `{path}`, or set `schema = \"…\"` on the kind"
            )),
        );
    }
    Ok((schemas, ids))
}
