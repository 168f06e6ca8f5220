//! The Prague charts (T1–T24 of bar-notes) parse and pass the text's constraints.
use bar::charts::{Charts, FILES};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/prague/charts")
}

fn files() -> Vec<(&'static str, Option<String>)> {
    FILES
        .iter()
        .map(|f| (*f, std::fs::read_to_string(dir().join(f)).ok()))
        .collect()
}

#[test]
fn r1_2b_prague_charts_parse_and_pass_check() {
    let c = Charts::parse("prague", &files());
    assert!(c.is_ok(), "{:#?}", c.err());
}
