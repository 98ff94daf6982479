//! `carta diff`: a designer's release, tagged `v1.0` in a git repository
//! written with gix (no `git` binary), then changed — a cost, a rules
//! text, a name, a card removed and two added, a copy limit raised, a card
//! moved to another file, a translation reworded — and compared: the
//! terminal's form, JSON and Markdown against golden files, the example
//! deck the change makes illegal, and the same cards compared between
//! two bundles.

use std::fs;
use std::path::Path;

use super::harness::{Workspace, assert_golden, repo, run_in};

/// Commits every file under `dir` (but `.git/` and `build/`) on top of
/// `HEAD` (a repository is made when there is none), tagged `tag` if given.
pub(crate) fn commit_all(dir: &Path, message: &str, tag: Option<&str>) {
    let repo = gix::open(dir).unwrap_or_else(|_| gix::init(dir).unwrap());
    let empty = repo.empty_tree().id;
    let mut tree = repo.edit_tree(empty).unwrap();
    let mut files = Vec::new();
    collect(dir, dir, &mut files);
    for (rel, bytes) in files {
        let blob = repo.write_blob(&bytes).unwrap().detach();
        tree.upsert(rel.as_str(), gix::object::tree::EntryKind::Blob, blob)
            .unwrap();
    }
    let tree = tree.write().unwrap().detach();
    let parents: Vec<gix::ObjectId> = repo
        .head_id()
        .ok()
        .map(gix::Id::detach)
        .into_iter()
        .collect();
    let who = gix::actor::Signature {
        name: "Designer".into(),
        email: "designer@example.org".into(),
        time: gix::date::Time::new(1_700_000_000 + i64::try_from(parents.len()).unwrap(), 0),
    };
    let mut a = gix::date::parse::TimeBuf::default();
    let mut b = gix::date::parse::TimeBuf::default();
    let commit = repo
        .commit_as(
            who.to_ref(&mut a),
            who.to_ref(&mut b),
            "HEAD",
            message,
            tree,
            parents,
        )
        .unwrap();
    if let Some(tag) = tag {
        repo.tag_reference(
            tag,
            commit,
            gix::refs::transaction::PreviousValue::MustNotExist,
        )
        .unwrap();
    }
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap()).collect();
    entries.sort_by_key(fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name().into_string().unwrap();
        if name == ".git" || name == "build" {
            continue;
        }
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            collect(root, &path, out);
        } else {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.push((rel, fs::read(&path).unwrap()));
        }
    }
}

/// Replaces `from` (which must be there) with `to` in file `rel`.
pub(crate) fn edit(ws: &Workspace, rel: &str, from: &str, to: &str) {
    let text = ws.read(rel);
    assert!(text.contains(from), "{rel} lacks {from:?}");
    ws.write(rel, text.replacen(from, to, 1));
}

/// The starter game of `carta init`, with a translation, tagged `v1.0`.
fn released() -> Workspace {
    release(|_| {})
}

/// [`released`], with `extra` done to the workspace before it is tagged.
pub(crate) fn release(extra: impl FnOnce(&Workspace)) -> Workspace {
    let ws = Workspace::empty();
    fs::remove_dir(ws.path().join("cards")).unwrap();
    run_in(
        ws.path(),
        ["init", ".", "--game", "duel", "--name", "Duel", "-q"],
    )
    .succeeds();
    edit(
        &ws,
        "cards/duel/game.toml",
        "language = \"en\"\n",
        "language = \"en\"\ntranslations = [\"pt-BR\"]\n",
    );
    ws.write(
        "cards/duel/i18n/pt-BR.toml",
        "[cards.ember]\nability = { text = \"Seus feitiços de fogo custam 1 a menos.\" }\n",
    );
    extra(&ws);
    run_in(ws.path(), ["check", "-q"]).succeeds();
    commit_all(ws.path(), "Duel 1.0", Some("v1.0"));
    ws
}

/// The changes of the release after `v1.0`.
pub(crate) fn change(ws: &Workspace) {
    let spells = "cards/duel/spells.toml";
    edit(ws, spells, "cost = 3", "cost = 2");
    edit(
        ws,
        spells,
        "Every hero takes 2 damage; draw a card.",
        "Every hero takes 3 damage; then draw a card.",
    );
    edit(ws, spells, "name = \"Mist Step\"", "name = \"Mist Walk\"");
    let text = ws.read(spells);
    let start = text.find("[[card]]\nid = \"ember-shield\"").unwrap();
    let end = start + text[start..].find("\n\n").unwrap() + 2;
    ws.write(spells, format!("{}{}", &text[..start], &text[end..]));
    ws.write(
        "cards/duel/more-spells.toml",
        "[[card]]\nid = \"frost-bolt\"\nkind = \"spell\"\nname = \"Frost Bolt\"\ncost = 2\nelement = \"water\"\neffect = \"Deal 2 damage to a hero.\"\nart = \"art/spell.svg\"\n\n[[card]]\nid = \"ash-rain\"\nkind = \"spell\"\nname = \"Ash Rain\"\ncost = 5\nelement = \"fire\"\neffect = \"Every hero gains [[burn]].\"\nart = \"art/spell.svg\"\n",
    );
    edit(
        ws,
        "cards/duel/game.toml",
        "copies = { max = 2 }",
        "copies = { max = 3 }",
    );
    // A card moved to a file of its own, unchanged.
    let heroes = ws.read("cards/duel/heroes.toml");
    let at = heroes.find("[[card]]\nid = \"tide\"").unwrap();
    ws.write("cards/duel/heroes.toml", &heroes[..at]);
    ws.write("cards/duel/tide.toml", &heroes[at..]);
    // A card changed only in a translation.
    edit(
        ws,
        "cards/duel/i18n/pt-BR.toml",
        "custam 1 a menos",
        "custam 2 a menos",
    );
}

#[test]
fn a_release_compared_with_its_tag_shows_exactly_what_changed() {
    let ws = released();
    change(&ws);
    let human = ws.run(["diff", "v1.0"]).succeeds();
    let golden = repo().join("tests/fixtures/history");
    assert_golden(&golden.join("expected.human"), &human.stdout);
    assert!(
        human.stderr.contains(
            "diff v1.0 → working tree: 1 of 1 game changed; it makes 1 of 1 deck illegal"
        ),
        "{}",
        human.stderr
    );
    let markdown = ws.run(["diff", "v1.0", "--format", "markdown"]).succeeds();
    assert_golden(&golden.join("expected.md"), &markdown.stdout);
    let json = ws
        .run(["diff", "v1.0", "--message-format", "json"])
        .succeeds();
    let value: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    let pretty = serde_json::to_string_pretty(&value).unwrap() + "\n";
    assert_golden(&golden.join("expected.json"), &pretty);

    // Exactly the changes made, by id.
    let game = &value["games"][0];
    let ids = |list: &str| -> Vec<String> {
        game[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(ids("added"), ["ash-rain", "frost-bolt"]);
    assert_eq!(ids("removed"), ["ember-shield"]);
    assert_eq!(ids("renamed"), ["mist-step"]);
    // `tide` moved to a file of its own: neither removed nor added nor changed.
    assert_eq!(ids("changed"), ["ember", "fireball", "tidal-wave"]);
    let ember = &game["changed"][0];
    assert_eq!(ember["fields"], serde_json::json!([]));
    assert_eq!(ember["translations"][0]["lang"], "pt-BR");
    assert_eq!(ember["translations"][0]["field"], "ability");
    assert_eq!(
        game["changed"][1]["fields"],
        serde_json::json!([{"field": "cost", "old": 3, "new": 2}])
    );
    let rule = &game["manifest"][0];
    assert_eq!(
        (rule["section"].as_str(), rule["id"].as_str()),
        (Some("deck-rules"), Some("two-copies"))
    );
    assert_eq!(
        rule["fields"],
        serde_json::json!([{"field": "copies.max", "old": 2, "new": 3}])
    );
    assert_eq!(game["manifest"].as_array().unwrap().len(), 1);

    // The starter deck played Ember Shield, which is gone.
    let decks = &value["decks"];
    assert_eq!(decks["judged"], 1);
    let starter = &decks["changed"][0];
    assert_eq!(starter["deck"], "cards/duel/decks/starter.toml");
    assert_eq!(starter["old"]["legal"], true);
    assert_eq!(starter["new"]["legal"], false);
    assert!(
        starter["new"]["broken"][0]
            .as_str()
            .unwrap()
            .contains("ember-shield"),
        "{starter}"
    );

    // The worked example of docs/history.md is this run's output.
    let doc = fs::read_to_string(repo().join("docs/history.md")).unwrap();
    assert!(
        doc.contains(&human.stdout),
        "docs/history.md lacks:\n{}",
        human.stdout
    );
    assert!(
        doc.contains(markdown.stdout.trim_end()),
        "docs/history.md lacks the Markdown"
    );
}

#[test]
fn an_events_deck_codes_are_read_under_the_old_version_and_judged_under_both() {
    let ws = released();
    let code = ws
        .run(["deck", "code", "cards/duel/decks/starter.toml"])
        .succeeds()
        .stdout
        .trim()
        .to_owned();
    ws.run(["build", "-q"]).succeeds();
    change(&ws);
    // The new version's pool differs (cards added and removed): the codes
    // made under v1.0 decode only under it.
    ws.write(
        "submissions.txt",
        format!("// round 1\nAna: {code}\nhttp://127.0.0.1:8080/play/duel/deck?code={code}\n"),
    );
    let run = ws
        .run([
            "diff",
            "v1.0",
            "--event",
            "submissions.txt",
            "--message-format",
            "json",
        ])
        .succeeds();
    let value: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let decks = &value["decks"];
    assert_eq!(decks["judged"], 2, "{decks}");
    let names: Vec<&str> = decks["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["deck"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["submissions.txt:2 (Ana)", "submissions.txt:3"]);
    for d in decks["changed"].as_array().unwrap() {
        assert_eq!(
            (d["old"]["legal"].as_bool(), d["new"]["legal"].as_bool()),
            (Some(true), Some(false))
        );
        assert!(
            d["new"]["broken"][0]
                .as_str()
                .unwrap()
                .contains("ember-shield"),
            "{d}"
        );
    }
    // A line that is no code of either version is an error at its line.
    ws.write("bad.txt", "Caio: not-a-code\n");
    ws.run(["diff", "v1.0", "--event", "bad.txt"])
        .code(1)
        .stderr_has("bad.txt:1 (Caio)");
    // Judging decks needs compiled rules on both sides.
    let bundle = "build/duel/duel.carta";
    ws.run(["diff", bundle, bundle, "--event", "submissions.txt"])
        .code(2)
        .stderr_has("a bundle holds no compiled rules");
}

#[test]
fn a_players_deck_made_legal_by_a_raised_copy_limit_is_listed() {
    let ws = released();
    change(&ws);
    ws.write(
        "decks/duel/mine.toml",
        "game = \"duel\"\nname = \"Mine\"\n\n[hero]\nember = 1\n\n[main]\nfireball = 3\ntidal-wave = 2\nmist-step = 1\n",
    );
    let run = ws
        .run([
            "diff",
            "v1.0",
            "--decks",
            "decks/duel/mine.toml",
            "--message-format",
            "json",
        ])
        .succeeds();
    let value: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let mine = &value["decks"]["changed"][0];
    assert_eq!(value["decks"]["judged"], 1);
    assert_eq!(mine["deck"], "decks/duel/mine.toml");
    assert_eq!(mine["old"]["legal"], false);
    assert_eq!(mine["new"]["legal"], true);
    assert!(
        mine["old"]["broken"][0]
            .as_str()
            .unwrap()
            .starts_with("deck::copy-limit"),
        "{mine}"
    );
    ws.run(["diff", "v1.0", "--decks", "decks/duel/mine.toml"])
        .succeeds()
        .stdout_has("decks/duel/mine.toml  illegal → legal");
}

#[test]
fn a_diff_between_two_bundles_gives_the_same_cards_as_between_revisions() {
    let ws = released();
    ws.run(["build", "-q"]).succeeds();
    let old = ws.path().join("old.carta");
    fs::copy(ws.path().join("build/duel/duel.carta"), &old).unwrap();
    change(&ws);
    let by_revision = ws
        .run(["diff", "v1.0", "--message-format", "json"])
        .succeeds();
    // The new version's example deck is illegal: a bundle is built without it.
    fs::remove_file(ws.path().join("cards/duel/decks/starter.toml")).unwrap();
    ws.run(["build", "-q"]).succeeds();
    let by_bundle = ws
        .run([
            "diff",
            "old.carta",
            "build/duel/duel.carta",
            "--message-format",
            "json",
        ])
        .succeeds();
    let games = |run: &super::harness::Run| {
        let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        v["games"].clone()
    };
    assert_eq!(games(&by_bundle), games(&by_revision));
    let v: serde_json::Value = serde_json::from_str(by_bundle.stdout.trim()).unwrap();
    assert_eq!(v["decks"], serde_json::Value::Null);
}

/// A revision from a stranger may hold links (a tree entry of mode
/// 120000) to files outside the workspace: they are left out, as a
/// workspace on disk never follows a link out of itself.
#[test]
fn a_link_committed_in_a_revision_is_never_followed() {
    let ws = released();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.toml");
    fs::write(
        &secret,
        "[[card]]\nid = \"stolen\"\nkind = \"spell\"\nname = \"Stolen Secret\"\ncost = 1\nelement = \"fire\"\neffect = \"x\"\nart = \"art/spell.svg\"\n",
    )
    .unwrap();
    let repo = gix::open(ws.path()).unwrap();
    let head = repo.head_commit().unwrap();
    let mut tree = repo.edit_tree(head.tree_id().unwrap()).unwrap();
    let target = repo
        .write_blob(secret.to_str().unwrap().as_bytes())
        .unwrap()
        .detach();
    tree.upsert(
        "cards/duel/stolen.toml",
        gix::object::tree::EntryKind::Link,
        target,
    )
    .unwrap();
    let tree = tree.write().unwrap().detach();
    let commit = repo.commit("HEAD", "a link out", tree, [head.id]).unwrap();
    repo.tag_reference(
        "evil",
        commit,
        gix::refs::transaction::PreviousValue::MustNotExist,
    )
    .unwrap();
    // The link's target is read neither as the old version nor as the new.
    let run = ws
        .run(["diff", "evil", "--message-format", "json"])
        .succeeds();
    assert!(
        !run.stdout.contains("stolen") && !run.stdout.contains("Stolen"),
        "{}",
        run.stdout
    );
    let run = ws
        .run(["diff", "v1.0", "evil", "--message-format", "json"])
        .succeeds();
    assert!(!run.stdout.contains("Stolen"), "{}", run.stdout);
    let reprint = ws
        .run(["print", "--changed-since", "evil", "--no-fit-check"])
        .succeeds();
    assert!(!reprint.stderr.contains("Stolen"), "{}", reprint.stderr);
}

#[test]
fn a_diff_of_an_unchanged_workspace_is_empty_and_no_error() {
    let ws = released();
    let run = ws.run(["diff"]).succeeds();
    assert_eq!(run.stdout, "decks: 0 of 1 judged change verdict\n");
    assert!(
        run.stderr
            .contains("diff v1.0 → working tree: 0 of 1 game changed"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_unknown_revision_or_no_repository_cannot_run() {
    let ws = released();
    ws.run(["diff", "v1.0", "--game", "dule"])
        .code(2)
        .stderr_has("there is no game `dule` in this workspace (did you mean `duel`?)");
    ws.run(["diff", "v9.9"])
        .code(2)
        .stderr_has("`v9.9` is no revision of this repository");
    let bare = Workspace::shipped(&["kingdoms"]);
    bare.run(["diff"])
        .code(2)
        .stderr_has("the workspace is in no git repository");
}

#[test]
fn a_version_with_errors_is_reported_not_compared() {
    let ws = released();
    edit(
        &ws,
        "cards/duel/spells.toml",
        "cost = 3",
        "cost = \"three\"",
    );
    let run = ws.run(["diff", "v1.0"]).fails();
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(run.stderr.contains("schema::type"), "{}", run.stderr);
    assert!(
        run.stderr.contains("working tree does not check"),
        "{}",
        run.stderr
    );
}
