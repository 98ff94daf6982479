//! The import graph of `src/` against the layer table of ARCHITECTURE.md:
//! a module imports only modules of lower layers, so there is no cycle and
//! no stage depends on a later one.

use std::collections::BTreeMap;
use std::path::Path;

/// The layers as ARCHITECTURE.md declares them: module → layer.
fn layers() -> BTreeMap<String, usize> {
    let doc = std::fs::read_to_string("ARCHITECTURE.md").expect("ARCHITECTURE.md");
    let mut out = BTreeMap::new();
    for line in doc.lines() {
        let Some(rest) = line.strip_prefix("layer ") else {
            continue;
        };
        let (n, modules) = rest.split_once(':').expect("`layer N: modules`");
        let n: usize = n.trim().parse().expect("a layer number");
        for m in modules.split_whitespace() {
            assert!(out.insert(m.to_owned(), n).is_none(), "{m} listed twice");
        }
    }
    out
}

/// Every `crate::<module>` path in a file's code: comments and the unit
/// tests at its end are left out.
fn imports(text: &str) -> Vec<String> {
    let code = text
        .find("#[cfg(test)]\nmod tests")
        .map_or(text, |i| &text[..i]);
    let mut out = Vec::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or_default();
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() {
                // `use crate::{a, b::c}`: every top-level name in the braces.
                let group = rest.strip_prefix('{').unwrap_or_default();
                let group = &group[..group.find('}').unwrap_or(group.len())];
                out.extend(
                    group
                        .split(',')
                        .map(|p| p.trim().split("::").next().unwrap_or_default().to_owned())
                        .filter(|p| !p.is_empty()),
                );
            } else {
                out.push(name);
            }
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_import_goes_to_a_lower_layer_of_architecture_md() {
    let layers = layers();
    let mut files = Vec::new();
    walk(Path::new("src"), &mut files);
    let mut broken = Vec::new();
    for file in files {
        let rel = file.strip_prefix("src").expect("under src");
        let first = rel.components().next().expect("a path");
        let module = first.as_os_str().to_string_lossy();
        let module = module.trim_end_matches(".rs");
        if matches!(module, "main" | "lib") || rel.ends_with("tests.rs") {
            continue;
        }
        let Some(&own) = layers.get(module) else {
            broken.push(format!(
                "module `{module}` is in no layer of ARCHITECTURE.md"
            ));
            continue;
        };
        for import in imports(&std::fs::read_to_string(&file).expect("readable")) {
            if import == module {
                continue;
            }
            match layers.get(&import) {
                Some(&layer) if layer < own => {}
                Some(&layer) => broken.push(format!(
                    "{}: `{module}` (layer {own}) imports `{import}` (layer {layer})",
                    file.display()
                )),
                None => broken.push(format!(
                    "{}: imports `{import}`, which is in no layer",
                    file.display()
                )),
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_import_scanner_sees_plain_grouped_and_not_commented_paths() {
    let text = "use crate::diag::X;\nuse crate::{load::Y, rules};\n// crate::cli\nfn f() { crate::game::g() }\n#[cfg(test)]\nmod tests { use crate::emit; }";
    assert_eq!(imports(text), ["diag", "load", "rules", "game"]);
}

/// The sibling files of folder `dir` (by stem) that each file imports
/// through `super::` in its code (not its unit tests).
fn sibling_imports(dir: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("the folder is readable") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let mut names: Vec<String> = code
            .split("super::")
            .skip(1)
            .map(|rest| {
                rest.chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect()
            })
            .filter(|n: &String| !n.is_empty())
            .collect();
        names.sort();
        names.dedup();
        out.insert(stem, names);
    }
    out
}

#[test]
fn no_two_files_of_the_bundle_or_the_emitters_import_each_other() {
    for dir in ["src/bundle", "src/emit", "src/emit/sheets"] {
        let graph = sibling_imports(dir);
        for (a, names) in &graph {
            for b in names.iter().filter(|b| *b != a && *b != "mod") {
                let back = graph.get(b).is_some_and(|n| n.contains(a));
                assert!(!back, "{dir}: {a}.rs and {b}.rs import each other");
            }
        }
    }
}
