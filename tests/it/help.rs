//! The command line documents itself: completions for four shells, a man
//! page, and help that lists each command's exit codes and an example, with
//! the global options apart from the command's own.

use crate::harness::Workspace;

#[test]
fn completions_are_printed_for_each_shell() {
    let ws = Workspace::empty();
    for (shell, marker) in [
        ("bash", "_carta()"),
        ("zsh", "#compdef carta"),
        ("fish", "complete -c carta"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let run = ws.run(["completions", shell]).succeeds();
        assert!(run.stdout.contains(marker), "{shell}: no {marker:?}");
        assert!(
            run.stdout.contains("watch") && run.stdout.contains("init"),
            "{shell}"
        );
    }
    ws.run(["completions", "tcsh"]).code(2);
}

#[test]
fn the_man_page_lists_the_commands() {
    let run = Workspace::empty().run(["man"]).succeeds();
    assert!(run.stdout.starts_with(".ie") || run.stdout.contains(".TH carta 1"));
    for command in ["init", "watch", "check", "build", "deck", "completions"] {
        assert!(run.stdout.contains(command), "the man page lacks {command}");
    }
}

/// Every command and subcommand, as the words that name it (`["deck",
/// "check"]`), read from the clap types so that a new command is covered.
fn every_command() -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, path: &[String], out: &mut Vec<Vec<String>>) {
        for sub in cmd.get_subcommands() {
            let mut words = path.to_vec();
            words.push(sub.get_name().to_owned());
            walk(sub, &words, out);
            out.push(words);
        }
    }
    let mut out = Vec::new();
    walk(
        &<carta::cli::Cli as clap::CommandFactory>::command(),
        &[],
        &mut out,
    );
    out
}

#[test]
fn the_man_page_synopsis_gives_option_values() {
    let run = Workspace::empty().run(["man"]).succeeds();
    // clap_mangen alone printed `[-C ]`, an option without its value.
    assert!(!run.stdout.contains("\\-C \\fR]"), "{}", run.stdout);
    assert!(
        run.stdout.contains("\\fBcarta\\fR [OPTIONS] <COMMAND>"),
        "{}",
        run.stdout
    );
}

/// The `carta-…(1)` pages a roff page refers to.
fn references(page: &str) -> Vec<String> {
    page.split(|c: char| c.is_whitespace())
        .filter_map(|word| word.strip_suffix("(1)"))
        .filter(|name| name.starts_with("carta"))
        .map(|name| name.replace("\\-", "-"))
        .collect()
}

#[test]
fn man_out_writes_a_page_per_command_and_each_reference_has_its_page() {
    let ws = Workspace::empty();
    // A fresh home: none of the folders exist yet.
    let run = ws.run(["man", "--out", "share/man/man1"]).succeeds();
    assert!(
        run.stderr.contains("wrote 26 manual pages"),
        "{}",
        run.stderr
    );
    let dir = ws.path().join("share/man/man1");
    for page in [
        "carta",
        "carta-init",
        "carta-diff",
        "carta-deck",
        "carta-deck-code",
        "carta-deck-export",
        "carta-deck-import",
        "carta-deck-odds",
        "carta-i18n-export",
    ] {
        assert!(dir.join(format!("{page}.1")).is_file(), "no {page}.1");
    }
    let top = ws.read("share/man/man1/carta.1");
    assert!(references(&top).len() >= 13, "{top}");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let page = std::fs::read_to_string(&path).unwrap();
        for name in references(&page) {
            assert!(
                dir.join(format!("{name}.1")).is_file(),
                "{} refers to {name}(1), which has no page",
                path.display()
            );
        }
    }
    let init = ws.read("share/man/man1/carta-init.1");
    assert!(
        init.contains("\\fBcarta init\\fR [OPTIONS] [DIR]"),
        "{init}"
    );
}

#[test]
fn a_man_page_renders_with_groff() {
    let ws = Workspace::empty();
    ws.run(["man", "--out", "man1"]).succeeds();
    // groff is what `man` formats with (scripts/install-test-deps.sh
    // installs it): without it the test fails, it does not skip.
    let out = std::process::Command::new("groff")
        .args(["-man", "-Tutf8", "-P-cbou"])
        .arg(ws.path().join("man1/carta-deck-code.1"))
        .output()
        .expect("groff runs (Debian's groff-base)");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("carta deck code [OPTIONS] <FILE>"), "{text}");
    assert!(text.contains("carta 0."), "the footer names carta: {text}");
}

#[test]
fn man_out_does_not_write_through_a_link() {
    let ws = Workspace::empty();
    let victim = tempfile::tempdir().unwrap();
    std::fs::write(victim.path().join("keep"), "mine").unwrap();
    std::fs::create_dir(ws.path().join("man1")).unwrap();
    std::os::unix::fs::symlink(victim.path().join("keep"), ws.path().join("man1/carta.1")).unwrap();
    let run = ws.run(["man", "--out", "man1"]).code(2);
    assert!(run.stderr.contains("symbolic link"), "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(victim.path().join("keep")).unwrap(),
        "mine"
    );
    // A file where the folder should be: refused, left as it was.
    ws.write("pages", "notes");
    ws.run(["man", "--out", "pages"]).code(2);
    assert_eq!(ws.read("pages"), "notes");
}

#[test]
fn each_command_s_help_gives_exit_codes_an_example_and_global_options_apart() {
    let ws = Workspace::empty();
    let commands = every_command();
    for expected in [
        &["export"][..],
        &["serve"],
        &["i18n", "import"],
        &["deck", "decode"],
    ] {
        assert!(
            commands.iter().any(|c| c == expected),
            "{expected:?} not among {commands:?}"
        );
    }
    for args in &commands {
        let mut full: Vec<&str> = args.iter().map(String::as_str).collect();
        full.push("--help");
        let run = ws.run(&full).succeeds();
        for part in ["Exit codes:", "Example:", "Global options:", "-C <DIR>"] {
            assert!(
                run.stdout.contains(part),
                "`carta {}` help lacks {part:?}:\n{}",
                args.join(" "),
                run.stdout
            );
        }
        // The command's own options come before the global ones.
        let global = run.stdout.find("Global options:").unwrap();
        assert!(run.stdout[..global].contains("Options:"), "{}", run.stdout);
        // The example runs the command it documents.
        let example = &run.stdout[run.stdout.find("Example:").unwrap()..];
        assert!(
            example.contains(&format!("carta {}", args.join(" "))),
            "`carta {}`: {example}",
            args.join(" ")
        );
    }
}

#[test]
fn no_progress_is_drawn_into_a_pipe_or_json() {
    let ws = Workspace::shipped(&["zodiacos"]);
    for args in [&["build"][..], &["--message-format", "json", "build"][..]] {
        let run = ws.run(args).succeeds();
        assert!(
            !run.stderr.contains("checking zodiacos") && !run.stderr.contains('\r'),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn a_usage_error_under_json_is_one_json_object_on_stdout() {
    let ws = Workspace::empty();
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["--message-format", "json", "--bogus"],
            "unexpected argument '--bogus' found",
            "Usage: carta",
        ),
        (
            &["check", "--message-format=json", "--nocache"],
            "unexpected argument '--nocache' found",
            "a similar argument exists: '--no-cache'",
        ),
        (
            &["--message-format", "json", "serve", "--port", "x"],
            "invalid value 'x' for '--port <N>'",
            "--help",
        ),
        (
            &["--message-format", "json", "deck"],
            "a command is needed",
            "Usage: carta deck",
        ),
        (
            &["--message-format", "json", "-q", "-v", "check"],
            "cannot be used with",
            "Usage:",
        ),
    ];
    for (args, message, help) in cases {
        let run = ws.run(*args).code(2);
        assert_eq!(run.stderr, "", "{args:?}");
        let json = run.json();
        assert_eq!(json.len(), 1, "{args:?}: {}", run.stdout);
        let d = &json[0];
        assert_eq!(d["severity"], "error");
        assert_eq!(d["code"], "cli::usage");
        assert!(d["file"].is_null() && d["line"].is_null(), "{d}");
        let text = d["message"].as_str().unwrap();
        assert!(text.contains(message) && !text.starts_with("error"), "{d}");
        assert!(d["help"].as_str().unwrap().contains(help), "{d}");
    }
    // Help and version stay text on stdout, exit 0; human output keeps
    // clap's text on stderr; a `--message-format` after `--` is no flag.
    let run = ws.run(["--message-format", "json", "--help"]).succeeds();
    assert!(run.stdout.contains("Usage: carta") && !run.stdout.starts_with('{'));
    let run = ws.run(["--message-format", "json", "--version"]).succeeds();
    assert!(run.stdout.starts_with("carta "), "{}", run.stdout);
    let run = ws.run(["--bogus"]).code(2);
    assert!(run.stdout.is_empty() && run.stderr.starts_with("error: unexpected argument"));
    let run = ws.run([
        "--message-format",
        "human",
        "--message-format=json",
        "--bogus",
    ]);
    assert_eq!(run.code(2).json()[0]["code"], "cli::usage");
    let run = ws.run([
        "deck",
        "decode",
        "--bogus",
        "--",
        "--message-format",
        "json",
    ]);
    assert!(run.code(2).stdout.is_empty());
}

/// Runs shell `lines` as a newcomer would: bash in a fresh home, `carta`
/// on `PATH` from outside `~/.local/bin` (where `cargo install` puts it,
/// `~/.cargo/bin`), no `MANPATH`; stopping at the first line that fails.
fn run_as_newcomer(lines: &str) -> std::process::Output {
    let home = tempfile::tempdir().unwrap();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_carta"))
        .parent()
        .unwrap();
    std::process::Command::new("bash")
        .args(["-ec", lines])
        .current_dir(home.path())
        .env_clear()
        .env("HOME", home.path())
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .output()
        .unwrap()
}

/// Issue 53: the README's and `carta man --help`'s advice, run as written
/// by someone whose `PATH` lacks `~/.local/bin`, ends in `man carta-init`
/// showing the page (man-db finds `~/.local/share/man` only through
/// `~/.local/bin` on `PATH`, or through `MANPATH`).
#[test]
fn the_manual_page_advice_finds_the_pages_without_local_bin_on_path() {
    let readme = std::fs::read_to_string(crate::harness::repo().join("README.md")).unwrap();
    let start = readme.find("carta man --out").unwrap();
    let end = start + readme[start..].find("\n```").unwrap();
    let help = Workspace::empty().run(["man", "--help"]).succeeds().stdout;
    let example = &help[help.find("Example:\n").unwrap() + "Example:\n".len()..];
    for (whose, lines) in [("the README", &readme[start..end]), ("the help", example)] {
        assert!(
            lines.trim_end().ends_with("man carta-init"),
            "{whose}: {lines}"
        );
        let out = run_as_newcomer(lines);
        let page = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && page.contains("carta-init"),
            "{whose}'s lines did not show the page:\n{lines}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Issue 53: `serve --help` names the folder the builder saves decks into,
/// the players' `decks/<game>/`, not the game's example decks' folder.
#[test]
fn serve_help_says_where_decks_are_saved() {
    let help = Workspace::empty()
        .run(["serve", "--help"])
        .succeeds()
        .stdout;
    assert!(help.contains("`decks/<game>/`"), "{help}");
    assert!(!help.contains("cards/<game>/decks"), "{help}");
}
