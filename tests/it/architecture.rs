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

/// The sibling modules a file of `folder` names (`super::x`,
/// `super::{x, y::z}`, `crate::<folder>::x`): its edges in the folder's
/// import graph. `mod.rs` is the folder's face and is left out.
fn sibling_imports(text: &str, module_path: &str, siblings: &[String]) -> Vec<String> {
    let code = text
        .find("#[cfg(test)]\nmod tests")
        .map_or(text, |i| &text[..i]);
    let prefixes = ["super::".to_owned(), format!("{module_path}::")];
    let mut out = Vec::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or_default();
        for prefix in &prefixes {
            let mut rest = line;
            while let Some(i) = rest.find(prefix.as_str()) {
                rest = &rest[i + prefix.len()..];
                let names: Vec<&str> = match rest.strip_prefix('{') {
                    Some(group) => group[..group.find('}').unwrap_or(group.len())]
                        .split(',')
                        .map(|p| p.trim().split("::").next().unwrap_or_default())
                        .collect(),
                    None => vec![
                        &rest[..rest
                            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                            .unwrap_or(rest.len())],
                    ],
                };
                out.extend(
                    names
                        .into_iter()
                        .filter(|n| siblings.iter().any(|s| s == n))
                        .map(str::to_owned),
                );
            }
        }
    }
    out
}

/// A circle in `graph`, as the names along it, if there is one.
fn find_circle(graph: &BTreeMap<String, Vec<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, Vec<String>>,
        path: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == node) {
            let mut circle = path[i..].to_vec();
            circle.push(node.to_owned());
            return Some(circle);
        }
        if done.iter().any(|d| d == node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.push(node.to_owned());
        None
    }
    let mut done = Vec::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

/// The folder-level graph of every folder under `root`: for each folder, its
/// files (and subfolders) and the siblings each one imports.
fn folder_graphs(root: &Path, out: &mut BTreeMap<String, BTreeMap<String, Vec<String>>>) {
    let mut entries: Vec<_> = std::fs::read_dir(root)
        .expect("readable")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    let siblings: Vec<String> = entries
        .iter()
        .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "rs"))
        .map(|p| {
            p.file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| !matches!(n.as_str(), "mod" | "lib" | "main"))
        .collect();
    let rel = root.strip_prefix("src").expect("under src");
    let module_path = std::iter::once("crate".to_owned())
        .chain(
            rel.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned()),
        )
        .collect::<Vec<_>>()
        .join("::");
    let mut graph = BTreeMap::new();
    for path in &entries {
        if path.is_dir() {
            folder_graphs(path, out);
            continue;
        }
        let name = path
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        if !siblings.contains(&name) || name == "tests" {
            continue;
        }
        let text = std::fs::read_to_string(path).expect("readable");
        let mut edges = sibling_imports(&text, &module_path, &siblings);
        edges.retain(|e| *e != name);
        edges.sort();
        edges.dedup();
        graph.insert(name, edges);
    }
    out.insert(root.display().to_string(), graph);
}

#[test]
fn no_two_files_of_a_folder_import_each_other_even_through_others() {
    let mut graphs = BTreeMap::new();
    folder_graphs(Path::new("src"), &mut graphs);
    let circles: Vec<String> = graphs
        .iter()
        .filter_map(|(folder, graph)| {
            find_circle(graph).map(|c| format!("{folder}: {}", c.join(" → ")))
        })
        .collect();
    assert!(
        circles.is_empty(),
        "import circles inside a folder (move what both use into a module of its own):\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_circle_finder_sees_a_circle_through_a_third_file_and_none_in_a_chain() {
    let names = ["a", "b", "c"].map(String::from).to_vec();
    assert_eq!(
        sibling_imports(
            "use super::{b::X, c};\nuse crate::rules::a::Y;\n// super::c\n",
            "crate::rules",
            &names
        ),
        ["b", "c", "a"]
    );
    let graph = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (from, to) in edges {
            g.entry((*from).to_owned())
                .or_default()
                .push((*to).to_owned());
        }
        g
    };
    assert_eq!(
        find_circle(&graph(&[("a", "b"), ("b", "c"), ("c", "a")])),
        Some(["a", "b", "c", "a"].map(String::from).to_vec())
    );
    assert_eq!(
        find_circle(&graph(&[("a", "b"), ("b", "c"), ("a", "c")])),
        None
    );
}
