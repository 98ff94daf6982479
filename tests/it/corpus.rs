//! The broken-input corpus: `tests/corpus/<case>/` holds files laid over a
//! base workspace, the command to run, and the expected human and JSON
//! output. A case without expected output fails, and so does a stray file.

use std::fs;
use std::path::{Path, PathBuf};

use crate::harness::{Workspace, assert_golden, repo, run_in};

/// The files a case may hold besides its `overlay/` folder.
const CASE_FILES: [&str; 4] = ["cmd", "base", "expected.human", "expected.json"];

#[test]
fn every_corpus_case_matches_its_expected_output() {
    let cases = cases();
    assert!(
        cases.len() >= 25,
        "the corpus has only {} cases",
        cases.len()
    );
    let mut failures = Vec::new();
    for case in &cases {
        if let Err(e) = std::panic::catch_unwind(|| run_case(case)) {
            let msg = e.downcast_ref::<String>().cloned().or_else(|| {
                e.downcast_ref::<&str>()
                    .map(std::string::ToString::to_string)
            });
            failures.push(format!(
                "{}: {}",
                case.file_name().unwrap().to_string_lossy(),
                msg.unwrap_or_default()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} corpus case(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Every case's folder, sorted.
pub(crate) fn cases() -> Vec<PathBuf> {
    let corpus = repo().join("tests/corpus");
    let mut cases: Vec<_> = fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    cases
}

/// The workspace of a case (its base games with its overlay laid over
/// them) and the command it runs.
pub(crate) fn case_workspace(case: &Path) -> (Workspace, String) {
    let base = fs::read_to_string(case.join("base")).unwrap_or_else(|_| "intrepidos".into());
    let games: Vec<&str> = base.split_whitespace().collect();
    let ws = if games == ["none"] {
        Workspace::empty()
    } else {
        Workspace::shipped(&games)
    };
    if case.join("overlay").is_dir() {
        crate::harness::copy_tree(&case.join("overlay"), ws.path());
    }
    let cmd = fs::read_to_string(case.join("cmd")).unwrap_or_else(|_| "check".into());
    (ws, cmd)
}

fn run_case(case: &Path) {
    for entry in fs::read_dir(case).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            name == "overlay" || CASE_FILES.contains(&name.as_str()),
            "unexpected file `{name}` in the case"
        );
    }
    let (ws, cmd) = case_workspace(case);
    let args: Vec<&str> = cmd.split_whitespace().collect();
    let human = run_in(ws.path(), &args);
    // What a command prints on stdout (`--explain`'s table) is output too.
    let stdout = if human.stdout.is_empty() {
        String::new()
    } else {
        format!("--- stdout\n{}--- stderr\n", human.stdout)
    };
    let human_text = format!(
        "exit: {}\n{stdout}{}",
        human.code.unwrap_or(-1),
        human.stderr
    );
    let mut json_args = vec!["--message-format", "json"];
    json_args.extend(&args);
    let json = run_in(ws.path(), &json_args);
    assert_eq!(human.code, json.code, "the JSON run exits differently");
    for line in json.stdout.lines() {
        let v: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        for key in [
            "severity",
            "code",
            "message",
            "file",
            "line",
            "column",
            "end_line",
            "end_column",
            "help",
            "labels",
        ] {
            assert!(
                v.get(key).is_some(),
                "JSON diagnostic lacks `{key}`: {line}"
            );
        }
    }
    assert_golden(&case.join("expected.human"), &human_text);
    assert_golden(&case.join("expected.json"), &json.stdout);
}
