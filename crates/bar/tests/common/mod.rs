//! Shared set-ups of the BAR tests: the test charts (`data/testbox`) and the test scenario
//! (`data/mini`), which tests edit as a player checking the engine edits a scenario file.
#![allow(dead_code)]
use bar::Bar;
use std::path::{Path, PathBuf};

/// The tests' data dir.
pub fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// The test scenario with `edit` applied to the text of one of its files.
pub fn mini_with(file: &str, edit: impl Fn(String) -> String) -> Result<Bar, Vec<String>> {
    let tmp = tempdir();
    let sdir = tmp.join("mini");
    std::fs::create_dir_all(&sdir).unwrap(); // test set-up
    for f in ["map.toml", "oob.toml", "scenario.toml"] {
        let text = std::fs::read_to_string(data().join("mini").join(f)).unwrap(); // fixture exists
        let text = if f == file { edit(text) } else { text };
        std::fs::write(sdir.join(f), text).unwrap(); // test set-up
    }
    Bar::from_dir(&sdir, &data())
}

/// The test scenario as it is.
pub fn mini() -> Bar {
    Bar::from_dir(&data().join("mini"), &data()).unwrap() // the fixture is valid
}

fn tempdir() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "bar-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}
