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

/// The command files a file of `src/commands/` names as `super::<file>`
/// (the shared modules and other commands), comments and unit tests left out.
fn sibling_imports(text: &str, files: &[String]) -> Vec<String> {
    let code = text
        .find("#[cfg(test)]\nmod tests")
        .map_or(text, |i| &text[..i]);
    let mut out = Vec::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or_default();
        let mut rest = line;
        while let Some(i) = rest.find("super::") {
            rest = &rest[i + "super::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if files.contains(&name) && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// A cycle in `graph` (file → the files it imports), if there is one.
fn cycle(graph: &BTreeMap<String, Vec<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, Vec<String>>,
        path: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == node) {
            let mut found = path[i..].to_vec();
            found.push(node.to_owned());
            return Some(found);
        }
        if done.iter().any(|d| d == node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.push(node.to_owned());
        None
    }
    let mut done = Vec::new();
    graph
        .keys()
        .find_map(|k| visit(k, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_two_command_files_import_each_other_in_a_circle() {
    let dir = Path::new("src/commands");
    let files: Vec<String> = std::fs::read_dir(dir)
        .expect("src/commands is readable")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .filter_map(|p| Some(p.file_stem()?.to_string_lossy().into_owned()))
        .filter(|n| n != "mod")
        .collect();
    let mut graph = BTreeMap::new();
    for name in &files {
        let file = dir.join(format!("{name}.rs"));
        let text = std::fs::read_to_string(&file).expect("readable");
        graph.insert(name.clone(), sibling_imports(&text, &files));
    }
    assert_eq!(cycle(&graph), None, "command files in a circle of imports");
}

#[test]
fn the_cycle_finder_finds_a_circle_and_only_a_circle() {
    let files = ["serve".to_owned(), "watch".to_owned(), "report".to_owned()];
    let serve = "use super::Report;\nfn f() { super::watch::open(); super::report::x() }";
    let watch = "// super::report\nfn g() { super::serve::catalog() }";
    assert_eq!(sibling_imports(serve, &files), ["watch", "report"]);
    assert_eq!(sibling_imports(watch, &files), ["serve"]);
    let mut graph = BTreeMap::new();
    graph.insert("serve".to_owned(), vec!["watch".to_owned()]);
    graph.insert("watch".to_owned(), vec!["report".to_owned()]);
    graph.insert("report".to_owned(), vec![]);
    assert_eq!(cycle(&graph), None);
    graph.insert("report".to_owned(), vec!["serve".to_owned()]);
    assert_eq!(
        cycle(&graph),
        Some(vec![
            "report".to_owned(),
            "serve".to_owned(),
            "watch".to_owned(),
            "report".to_owned()
        ])
    );
}
