//! Caches against edits that hide: a file changed in place with its size,
//! inode and modification time put back (`touch -d`, `cp -p`, `unzip -o`
//! of an older archive) is read again, because its change time moved.

use std::fs;
use std::time::Duration;

use crate::harness::run_in;

/// Rewrites `path` in place (same inode, same size) with `text`, then
/// puts its modification time back.
fn edit_hiding_the_time(path: &std::path::Path, text: &str) {
    let before = fs::metadata(path).unwrap();
    assert_eq!(before.len(), text.len() as u64, "a same-size edit");
    let file = fs::OpenOptions::new()
        .write(true)
        .truncate(false)
        .open(path)
        .unwrap();
    std::os::unix::fs::FileExt::write_all_at(&file, text.as_bytes(), 0).unwrap();
    file.set_modified(before.modified().unwrap()).unwrap();
    drop(file);
    let after = fs::metadata(path).unwrap();
    assert_eq!(after.modified().unwrap(), before.modified().unwrap());
    assert_eq!(
        std::os::unix::fs::MetadataExt::ino(&after),
        std::os::unix::fs::MetadataExt::ino(&before)
    );
}

#[test]
fn a_same_size_edit_with_its_time_put_back_is_checked_and_built_anew() {
    let tmp = tempfile::tempdir().unwrap();
    run_in(tmp.path(), ["init", "live", "--name", "Live"]).succeeds();
    let root = tmp.path().join("live");
    let spells = root.join("cards/live/spells.toml");
    let good = fs::read_to_string(&spells).unwrap();
    // Caches written while every stamp is old enough to be trusted.
    std::thread::sleep(Duration::from_millis(1100));
    run_in(&root, ["check"]).succeeds();
    run_in(&root, ["build"]).succeeds();

    // A broken value of the same size: check must see it.
    let broken = good.replacen("cost = 1\n", "cost = x\n", 1);
    edit_hiding_the_time(&spells, &broken);
    // The change time is a second old too: no stamp is young.
    std::thread::sleep(Duration::from_millis(1100));
    run_in(&root, ["check"]).fails().stderr_has("spells.toml");

    // A renamed card of the same size: the build must print the new name.
    let renamed = good.replace("Ember Shield", "Ember Swords");
    edit_hiding_the_time(&spells, &renamed);
    std::thread::sleep(Duration::from_millis(1100));
    run_in(&root, ["check"]).succeeds();
    run_in(&root, ["build"]).succeeds();
    let sheets = fs::read_to_string(root.join("build/live/sheets/index.html")).unwrap();
    assert!(sheets.contains("Ember Swords"), "the build reads the edit");
    assert!(!sheets.contains("Ember Shield"), "nothing of the old text");
}
