//! `carta check` on the shipped games and on workspaces built in the test.

use crate::harness::{Workspace, repo, run_in};

#[test]
fn the_shipped_games_check_clean() {
    run_in(&repo(), ["check"])
        .succeeds()
        .stderr_has("checked 5 games");
}

#[test]
fn a_missing_workspace_is_a_usage_error() {
    let ws = Workspace::empty();
    ws.run(["-C", "nowhere", "check"])
        .code(2)
        .stderr_has("not a carta workspace");
}

#[test]
fn an_unknown_game_is_a_usage_error_with_a_suggestion() {
    Workspace::shipped(&["intrepidos"])
        .run(["check", "intrepido"])
        .code(2)
        .stderr_has("did you mean `intrepidos`?");
}

#[test]
fn bad_arguments_exit_2() {
    Workspace::empty().run(["check", "--no-such-flag"]).code(2);
    Workspace::empty()
        .run(["--message-format", "xml", "check"])
        .code(2);
}

#[test]
fn json_diagnostics_are_one_object_per_line_on_stdout() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.write(
        "cards/intrepidos/extra.toml",
        "[[card]]\nid = \"x\"\nkind = \"potion\"\nname = \"X\"\nclass = 3\n",
    );
    let run = ws.run(["--message-format", "json", "check"]).fails();
    let diags = run.json();
    assert!(!diags.is_empty());
    let first = &diags[0];
    assert_eq!(first["file"], "cards/intrepidos/extra.toml");
    assert_eq!(first["severity"], "error");
    assert!(
        run.stderr.is_empty(),
        "JSON mode prints nothing on stderr: {}",
        run.stderr
    );
}

#[test]
fn quiet_hides_warnings_and_the_summary() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.write("cards/intrepidos/empty.toml", "# nothing yet\n");
    let loud = ws.run(["check"]).succeeds();
    assert!(loud.stderr.contains("card::empty-file"));
    let quiet = ws.run(["-q", "check"]).succeeds();
    assert!(quiet.stdout.is_empty());
    assert_eq!(quiet.stderr, "");
}

#[test]
fn every_error_of_every_file_is_reported_in_one_run() {
    let ws = Workspace::shipped(&["intrepidos"]);
    ws.write(
        "cards/intrepidos/a.toml",
        "[[card]]\nid = \"a\"\nkind = \"potion\"\nname = \"A\"\nclass = 3\n",
    );
    ws.write(
        "cards/intrepidos/b.toml",
        "[[card]]\nid = \"b\"\nkind = \"potion\"\nname = \"B\"\nmin_level = \"x\"\n",
    );
    let run = ws.run(["--message-format", "json", "check"]).fails();
    let files: Vec<_> = run
        .json()
        .iter()
        .map(|d| d["file"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        files.iter().any(|f| f.ends_with("a.toml")) && files.iter().any(|f| f.ends_with("b.toml")),
        "{files:?}"
    );
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted, "diagnostics are sorted by file");
}
