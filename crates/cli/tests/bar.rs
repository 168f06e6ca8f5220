//! The BAR ruleset through the command line, as a player checking the engine uses it: validate
//! the drill and a broken copy of its data, play a few actions and replay the file.
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_tricorne");
const DATA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios");

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tricorne-bar-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run tricorne")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

/// A copy of the drill and the Prague charts under `dir`.
fn copy_data(dir: &Path) -> PathBuf {
    let root = dir.join("data");
    for (from, files) in [
        ("bar-drill", &["map.toml", "oob.toml", "scenario.toml"][..]),
        (
            "prague/charts",
            &[
                "tec.toml",
                "checks.toml",
                "command.toml",
                "fire.toml",
                "combat.toml",
                "movement.toml",
            ][..],
        ),
    ] {
        std::fs::create_dir_all(root.join(from)).expect("mkdir");
        for f in files {
            std::fs::copy(
                Path::new(DATA_DIR).join(from).join(f),
                root.join(from).join(f),
            )
            .expect("copy data");
        }
    }
    root
}

#[test]
fn r1_2b_validate_bar_drill_counts_sourced_and_reconstructed_data() {
    let o = run(&["validate", "bar-drill"]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}{}", text(&o.stderr));
    assert!(out.contains("data from the rule book"), "{out}");
    assert!(out.contains("reconstructed"), "{out}");
    assert!(out.contains("valid"), "{out}");
}

#[test]
fn r1_2b_a_broken_copy_of_the_charts_fails_naming_file_and_field() {
    let dir = tmp("charts");
    let data = copy_data(&dir);
    // 18.5a prints "ER is increased by 5 for all disorder checks": make it 7.
    let f = data.join("prague/charts/checks.toml");
    let t = std::fs::read_to_string(&f).expect("read");
    let i = t
        .find("[disorder.modifier.disordered]")
        .expect("the chart has the 18.5a modifier");
    let j = i + t[i..].find("value = 5").expect("its printed value");
    let broken = format!("{}value = 7{}", &t[..j], &t[j + "value = 5".len()..]);
    std::fs::write(&f, broken).expect("write");
    let o = run(&[
        "--data-dir",
        data.to_str().expect("utf-8"),
        "validate",
        "bar-drill",
    ]);
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains("checks.toml") && e.contains("disorder.modifier.disordered"),
        "{e}"
    );
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn r5_0_a_broken_order_of_battle_fails_naming_file_and_field() {
    let dir = tmp("oob");
    let data = copy_data(&dir);
    let f = data.join("bar-drill/oob.toml");
    let t = std::fs::read_to_string(&f).expect("read");
    let i = t.find("brigade = \"").expect("a unit names its brigade");
    let broken = format!(
        "{}brigade = \"no-such-brigade\"{}",
        &t[..i],
        &t[i + t[i..].find('\n').expect("line")..]
    );
    std::fs::write(&f, broken).expect("write");
    let o = run(&[
        "--data-dir",
        data.to_str().expect("utf-8"),
        "validate",
        "bar-drill",
    ]);
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains("oob.toml") && e.contains("brigade") && e.contains("no-such-brigade"),
        "{e}"
    );
}

#[test]
fn r4_0_new_legal_apply_replay_round_trip_on_bar_drill() {
    let dir = tmp("play");
    let g = dir.join("g.json");
    let gs = g.to_str().expect("utf-8");
    let o = run(&["new", "bar-drill", "--seed", "3", "-o", gs]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for _ in 0..12 {
        let o = run(&["legal", gs, "--json"]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let v: Value = serde_json::from_slice(&o.stdout).expect("legal prints JSON");
        let id = v[0]["id"].as_str().expect("an action id").to_string();
        let o = run(&["apply", gs, &id]);
        assert!(o.status.success(), "apply {id}: {}", text(&o.stderr));
    }
    let before = std::fs::read(&g).expect("read");
    let o = run(&["apply", gs, "activate:nobody"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        std::fs::read(&g).expect("read"),
        before,
        "an illegal action changes nothing"
    );
    let o = run(&["replay", gs]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = run(&["show", gs]);
    let out = text(&o.stdout);
    assert!(
        out.contains("turn 1 (09:00)") && out.contains("IR 1/I"),
        "{out}"
    );
}

#[test]
fn r8_5_r11_6_validate_checks_parents_components_and_prolonge_marks() {
    let dir = tmp("components");
    let data = copy_data(&dir);
    let f = data.join("bar-drill/oob.toml");
    let t = std::fs::read_to_string(&f).expect("read");
    // A component that does not exist, one in two parents, and a prolonge mark on infantry.
    let broken = t
        .replacen(
            "components = [\"p-gren1-a\", \"p-gren1-b\"]",
            "components = [\"p-gren1-a\", \"no-such-coy\"]",
            1,
        )
        .replacen(
            "components = [\"a-grenz-1\", \"a-grenz-2\"]",
            "components = [\"a-grenz-1\", \"p-gren1-a\"]",
            1,
        )
        .replacen(
            "sub = \"grenadier\"\n",
            "sub = \"grenadier\"\nprolonge = \"P\"\n",
            1,
        );
    assert_ne!(broken, t, "the drill has parents");
    std::fs::write(&f, broken).expect("write");
    let o = run(&[
        "--data-dir",
        data.to_str().expect("utf-8"),
        "validate",
        "bar-drill",
    ]);
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    for needle in [
        "components: unknown unit \"no-such-coy\"",
        "\"p-gren1-a\" is already a component of \"p-gren1\"",
        "prolonge: only artillery has a prolonge mark (11.6)",
    ] {
        assert!(e.contains(needle), "{needle}: {e}");
    }
    assert!(!e.contains("panicked"), "{e}");
}
