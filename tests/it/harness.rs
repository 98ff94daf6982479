//! A chainable harness: a workspace in a temporary folder, the `carta`
//! binary run in it, and assertions on what it printed.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root (the shipped workspace).
pub(crate) fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folder `scripts/install-test-deps.sh` installs the test tools into,
/// outside the checkout so that a fresh clone finds them:
/// `$CARTA_TEST_TOOLS`, or `~/.cache/carta/test-tools`.
pub(crate) fn test_tools() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARTA_TEST_TOOLS") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").expect("HOME is set (the test tools are under it)");
    Path::new(&home).join(".cache/carta/test-tools")
}

/// Copies a folder tree.
pub(crate) fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &dest);
        } else {
            fs::copy(entry.path(), dest).unwrap();
        }
    }
}

/// A workspace in a temporary folder.
pub(crate) struct Workspace {
    dir: tempfile::TempDir,
}

impl Workspace {
    /// An empty folder with an empty `cards/`.
    pub(crate) fn empty() -> Self {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("cards")).unwrap();
        Workspace { dir }
    }

    /// A copy of the shipped workspace, with only the named games (all if none).
    pub(crate) fn shipped(games: &[&str]) -> Self {
        let ws = Self::empty();
        for top in ["cards", "schemas", "templates"] {
            let from = repo().join(top);
            if !from.is_dir() {
                continue;
            }
            for entry in fs::read_dir(&from).unwrap() {
                let entry = entry.unwrap();
                let name = entry.file_name().into_string().unwrap();
                let keep = games.is_empty()
                    || games.contains(&name.as_str())
                    || (top == "schemas" && name == "carta");
                if entry.file_type().unwrap().is_dir() && keep {
                    copy_tree(&entry.path(), &ws.path().join(top).join(&name));
                }
            }
        }
        ws
    }

    /// The workspace root.
    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a file (creating folders), relative to the root.
    pub(crate) fn write(&self, rel: &str, contents: impl AsRef<[u8]>) -> &Self {
        let path = self.path().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
        self
    }

    /// Reads a file relative to the root.
    pub(crate) fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.path().join(rel)).unwrap()
    }

    /// Runs `carta` in the workspace with `args`.
    pub(crate) fn run<I: IntoIterator<Item = S>, S: AsRef<str>>(&self, args: I) -> Run {
        run_in(self.path(), args)
    }
}

/// Runs `carta` in `dir` with fixed output settings (no color, 80 columns).
pub(crate) fn run_in<I: IntoIterator<Item = S>, S: AsRef<str>>(dir: &Path, args: I) -> Run {
    run_with(dir, args, &[])
}

/// How long one run may take before it counts as hung and is killed.
const HANG: std::time::Duration = std::time::Duration::from_mins(2);

/// [`run_in`] with extra environment variables. A run that takes longer
/// than [`HANG`] is killed and fails the test as a hang.
pub(crate) fn run_with<I: IntoIterator<Item = S>, S: AsRef<str>>(
    dir: &Path,
    args: I,
    env: &[(&str, &str)],
) -> Run {
    use std::io::Read;
    let args: Vec<String> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_carta"))
        .args(&args)
        .current_dir(dir)
        .env("COLUMNS", "80")
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    // A watchdog kills a run that hangs; waiting itself returns the moment
    // the run ends (a test runs carta thousands of times).
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let (done, ended) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let hung = ended.recv_timeout(HANG).is_err();
        if hung {
            // SAFETY: signals the child, not yet reaped (the waiter below
            // has not returned).
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        hung
    });
    let status = child.wait().unwrap();
    let _ = done.send(());
    assert!(
        !watchdog.join().unwrap(),
        "carta {args:?} hung: killed after {HANG:?}"
    );
    let root = dir.to_string_lossy().into_owned();
    let clean = |b: &[u8]| String::from_utf8_lossy(b).replace(&root, "[ROOT]");
    Run {
        args,
        code: status.code(),
        stdout: clean(&out.join().unwrap()),
        stderr: clean(&err.join().unwrap()),
    }
}

/// What a run printed and how it exited.
#[derive(Debug)]
pub(crate) struct Run {
    /// The arguments, for failure messages.
    pub(crate) args: Vec<String>,
    /// The exit code (`None` if killed by a signal).
    pub(crate) code: Option<i32>,
    /// Standard output, with the workspace path replaced by `[ROOT]`.
    pub(crate) stdout: String,
    /// Standard error, likewise.
    pub(crate) stderr: String,
}

impl Run {
    /// Asserts the exit code.
    #[track_caller]
    pub(crate) fn code(self, expected: i32) -> Self {
        assert_eq!(
            self.code,
            Some(expected),
            "carta {:?}\n--- stdout\n{}\n--- stderr\n{}",
            self.args,
            self.stdout,
            self.stderr
        );
        self
    }

    /// Asserts exit 0.
    #[track_caller]
    pub(crate) fn succeeds(self) -> Self {
        self.code(0)
    }

    /// Asserts exit 1 (problems found).
    #[track_caller]
    pub(crate) fn fails(self) -> Self {
        self.code(1)
    }

    /// Asserts that stderr contains `text`.
    #[track_caller]
    pub(crate) fn stderr_has(self, text: &str) -> Self {
        assert!(
            self.stderr.contains(text),
            "stderr lacks {text:?}:\n{}",
            self.stderr
        );
        self
    }

    /// Asserts that stdout contains `text`.
    #[track_caller]
    pub(crate) fn stdout_has(self, text: &str) -> Self {
        assert!(
            self.stdout.contains(text),
            "stdout lacks {text:?}:\n{}",
            self.stdout
        );
        self
    }

    /// The JSON diagnostics printed on stdout.
    pub(crate) fn json(&self) -> Vec<serde_json::Value> {
        self.stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect()
    }
}

/// Compares `actual` with the golden file at `path`; with `CARTA_BLESS=1`
/// writes it instead. A missing golden file fails.
#[track_caller]
pub(crate) fn assert_golden(path: &Path, actual: &str) {
    if std::env::var_os("CARTA_BLESS").is_some() {
        fs::write(path, actual).unwrap();
        return;
    }
    let expected = fs::read_to_string(path).unwrap_or_else(|_| {
        panic!(
            "no expected output {}; run with CARTA_BLESS=1 to create it",
            path.display()
        )
    });
    assert!(
        expected == actual,
        "output differs from {} (run with CARTA_BLESS=1 to accept)\n--- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
}
