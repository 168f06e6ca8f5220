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

use bar::scenario::{BrigadeIx, LeaderIx, UnitIx};
use bar::state::{LeaderStatus, Phase, State};
use engine::Ruleset;
use hexmap::HexId;

/// A hex from its printed id.
pub fn hex(s: &str) -> HexId {
    s.parse().unwrap() // test hexes are well formed
}

/// A unit's index by id.
pub fn unit(bar: &Bar, id: &str) -> UnitIx {
    bar.sc.units.iter().position(|u| u.id == id).unwrap() as UnitIx // fixture ids
}

/// A leader's index by id.
pub fn leader(bar: &Bar, id: &str) -> LeaderIx {
    bar.sc.leaders.iter().position(|l| l.id == id).unwrap() as LeaderIx // fixture ids
}

/// A brigade's index by id.
pub fn brigade(bar: &Bar, id: &str) -> BrigadeIx {
    bar.sc.brigades.iter().position(|b| b.id == id).unwrap() as BrigadeIx // fixture ids
}

/// A fresh first turn (seed 0), the procedure reset to the initiative roll of turn 1 with the
/// END TURN marker on box 0 and nothing activated: the position is then set by the test.
pub fn fresh(bar: &Bar) -> State {
    let mut ev = Vec::new();
    let mut st = bar.start(0, &mut ev);
    st.phase = Phase::Initiative;
    st.stack.clear();
    st.jobs.clear();
    st.activation = None;
    st.end_box = 0;
    st.isr = 0;
    st
}

/// Put a unit on hexes (a position set by the test).
pub fn put(bar: &Bar, st: &mut State, id: &str, hexes: &[&str]) {
    let u = usize::from(unit(bar, id));
    st.units[u].hexes = hexes.iter().map(|h| hex(h)).collect();
}

/// Put a leader on a hex.
pub fn put_leader(bar: &Bar, st: &mut State, id: &str, h: &str) {
    let l = usize::from(leader(bar, id));
    st.leaders[l].hex = Some(hex(h));
    st.leaders[l].status = LeaderStatus::Present;
}

/// Take a leader off the map (wounded for the rest of the game).
pub fn wound(bar: &Bar, st: &mut State, id: &str) {
    let l = usize::from(leader(bar, id));
    st.leaders[l].hex = None;
    st.leaders[l].status = LeaderStatus::Wounded(99);
}

/// Load the dice, set the phase and run to the next decision; the log lines.
pub fn run(bar: &Bar, st: &mut State, phase: Phase, dice: &[u8]) -> Vec<String> {
    st.loaded = dice.to_vec();
    st.phase = phase;
    let mut ev = Vec::new();
    bar::flow::advance(&bar.sc, st, &mut ev);
    ev.iter().map(|e| e.to_string()).collect()
}

/// Apply actions by id with loaded dice; the log lines.
pub fn act(bar: &Bar, st: &mut State, ids: &[&str], dice: &[u8]) -> Vec<String> {
    st.loaded = dice.to_vec();
    let mut ev = Vec::new();
    for id in ids {
        if let Err(e) = bar.apply_id(st, id, &mut ev) {
            panic!(
                "{id}: {e:?}; legal: {:?}; log: {:#?}",
                legal(bar, st),
                ev.iter().map(|e| e.to_string()).collect::<Vec<_>>()
            );
        }
    }
    ev.iter().map(|e| e.to_string()).collect()
}

/// The legal action ids now.
pub fn legal(bar: &Bar, st: &State) -> Vec<String> {
    bar.legal_actions(st)
        .iter()
        .map(|a| bar.action_id(a))
        .collect()
}

/// The label of a legal action by id (panics, listing the legal ids, if it is not legal).
pub fn label_of(bar: &Bar, st: &State, id: &str) -> String {
    let a = bar
        .legal_actions(st)
        .into_iter()
        .find(|a| bar.action_id(a) == id)
        .unwrap_or_else(|| panic!("{id} not legal: {:?}", legal(bar, st)));
    bar.action_label(st, &a)
}

/// Whether some log line contains `s`.
pub fn logged(log: &[String], s: &str) -> bool {
    log.iter().any(|l| l.contains(s))
}

/// Assert that some log line contains `s`.
#[track_caller]
pub fn assert_logged(log: &[String], s: &str) {
    assert!(logged(log, s), "no line with {s:?} in {log:#?}");
}

/// Assert that no log line contains `s`.
#[track_caller]
pub fn assert_not_logged(log: &[String], s: &str) {
    assert!(!logged(log, s), "a line with {s:?} in {log:#?}");
}

/// Mark every brigade of a side activated (no brigade left to activate).
pub fn all_activated(bar: &Bar, st: &mut State, side: u8) {
    for (i, b) in bar.sc.brigades.iter().enumerate() {
        if b.side == side {
            st.brigades[i].activated = true;
        }
    }
}
