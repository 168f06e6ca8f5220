//! Set-ups of the close combat tests on the drill ground `tests/data/cc`.
#![allow(dead_code)]
use crate::common::*;
use bar::Bar;
use bar::geom::{Facing, FacingExt as _, Formation};
use bar::state::{Activation, Phase, State};
use engine::Ruleset;

/// The close combat drill ground.
pub fn field() -> Bar {
    Bar::from_dir(&data().join("cc"), &data()).unwrap() // the fixture is valid
}

/// Place a unit on hexes with a facing and formation.
pub fn place_as(bar: &Bar, st: &mut State, id: &str, hexes: &[&str], facing: &str, form: &str) {
    let f = Formation::parse(form).unwrap(); // test formations are well formed
    let u = usize::from(unit(bar, id));
    st.units[u].hexes = hexes.iter().map(|h| hex(h)).collect();
    st.units[u].formation = f;
    st.units[u].facing = bar::scenario::parse_facing(facing, f).unwrap(); // test facings
}

/// Place a unit in a one-hex line.
pub fn place(bar: &Bar, st: &mut State, id: &str, h: &str, facing: &str) {
    place_as(bar, st, id, &[h], facing, "line");
}

/// Place a unit in a line of `len` hexes from its right end.
pub fn line(bar: &Bar, st: &mut State, id: &str, right: &str, facing: &str, len: usize) {
    let Some(Facing::Point(v)) = bar::scenario::parse_facing(facing, Formation::Line) else {
        panic!("{facing}: not a hexpoint");
    };
    let fp = hexmap::Footprint::line(&hexmap::Printed, hex(right), v, len).unwrap(); // on the map
    let u = usize::from(unit(bar, id));
    st.units[u].hexes = fp.hexes().to_vec().into();
    st.units[u].formation = Formation::Line;
    st.units[u].facing = Facing::Point(v);
}

/// The front hexes of a unit, as labels.
pub fn front(bar: &Bar, st: &State, id: &str) -> Vec<String> {
    let s = &st.units[usize::from(unit(bar, id))];
    let (f, _, _) = bar::geom::arcs_of(&s.hexes, s.facing, s.formation);
    f.iter().map(|h| bar.sc.board.label(*h)).collect()
}

/// The hexes of a 2-hex unit (labels) and, for each, a front hex beside it and two hexes from
/// the other: where an enemy engages that hex alone.
pub fn fronts_of_each_hex(bar: &Bar, st: &State, id: &str) -> (Vec<String>, Vec<String>) {
    let hexes: Vec<String> = st.units[usize::from(unit(bar, id))]
        .hexes
        .iter()
        .map(|h| bar.sc.board.label(*h))
        .collect();
    let fronts = front(bar, st, id);
    let only = |i: usize, j: usize| {
        fronts
            .iter()
            .find(|f| hex(f).distance(hex(&hexes[i])) == 1 && hex(f).distance(hex(&hexes[j])) == 2)
            .expect("a front hex beside one hex of the line only")
            .clone()
    };
    let each = vec![only(0, 1), only(1, 0)];
    (hexes, each)
}

/// The flank hexes of a unit, as labels.
pub fn flank(bar: &Bar, st: &State, id: &str) -> Vec<String> {
    let s = &st.units[usize::from(unit(bar, id))];
    let (_, f, _) = bar::geom::arcs_of(&s.hexes, s.facing, s.formation);
    f.iter().map(|h| bar.sc.board.label(*h)).collect()
}

/// Place a one-hex line at `h` facing so that `target` is in its front.
pub fn face_to(bar: &Bar, st: &mut State, id: &str, h: &str, target: &str) {
    for f in ["N", "NE", "SE", "S", "SW", "NW"] {
        place(bar, st, id, h, f);
        if front(bar, st, id).contains(&target.to_string()) {
            return;
        }
    }
    panic!("{h} cannot face {target}");
}

/// Activate these units (their side's activation) for the close combat phase.
pub fn activate(bar: &Bar, st: &mut State, ids: &[&str]) {
    let us: Vec<u16> = ids.iter().map(|u| unit(bar, u)).collect();
    let side = bar.sc.units[usize::from(us[0])].side;
    for &u in &us {
        st.units[usize::from(u)].activated = true;
    }
    st.activation = Some(Activation {
        side,
        units: us,
        ..Activation::default()
    });
}

/// Run from the end of movement (4.0 C) to the next decision with loaded dice.
pub fn close_combat(bar: &Bar, st: &mut State, dice: &[u8]) -> Vec<String> {
    run(bar, st, Phase::AfterMovement, dice)
}

/// Take the first legal choice of any rout retreat or retreat loss waiting.
pub fn settle(bar: &Bar, st: &mut State, log: &mut Vec<String>) {
    while matches!(
        st.phase,
        Phase::RoutStep { .. } | Phase::AllocateLoss { .. }
    ) {
        let l = legal(bar, st);
        log.extend(act(bar, st, &[l[0].as_str()], &[]));
    }
}

/// A unit's hexes as labels.
pub fn hexes_of(bar: &Bar, st: &State, id: &str) -> Vec<String> {
    st.units[usize::from(unit(bar, id))]
        .hexes
        .iter()
        .map(|h| bar.sc.board.label(*h))
        .collect()
}

/// The facing name of a unit.
pub fn facing(bar: &Bar, st: &State, id: &str) -> String {
    st.units[usize::from(unit(bar, id))].facing.name().into()
}

/// The invariants hold.
#[track_caller]
pub fn sound(bar: &Bar, st: &State) {
    let bad = bar.check_invariants(st);
    assert!(bad.is_empty(), "{bad:?}");
}

/// Apply actions with loaded dice, the defender holding any defensive fire offered afterwards
/// (13.10: it may fire; the tests of other rules do without).
pub fn fight(bar: &Bar, st: &mut State, ids: &[&str], dice: &[u8]) -> Vec<String> {
    st.loaded = dice.to_vec();
    let mut ev = Vec::new();
    for id in ids {
        if let Err(e) = bar.apply_id(st, id, &mut ev) {
            panic!("{id}: {e:?}; legal: {:?}", legal(bar, st));
        }
    }
    while legal(bar, st) == ["cc-fire", "cc-hold-fire"] {
        bar.apply_id(st, "cc-hold-fire", &mut ev).unwrap(); // legal
    }
    ev.iter().map(|e| e.to_string()).collect()
}

/// Activate `attackers`, run to the close combat phase, attack with each of them and end the
/// designations, with loaded dice: the combat's CV line (13.11b–c).
pub fn attack_cv(bar: &Bar, st: &mut State, attackers: &[&str], dice: &[u8]) -> String {
    activate(bar, st, attackers);
    close_combat(bar, st, &[]);
    let mut ids: Vec<String> = attackers.iter().map(|a| format!("attack:{a}")).collect();
    ids.push("cc-done".into());
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let log = fight(bar, st, &ids, dice);
    let cv = log.iter().find(|l| l.contains("(13.11b–c)")); // a combat was fought
    cv.unwrap_or_else(|| panic!("no CV line: {log:#?}")).clone()
}

/// The drill ground with `edit` applied to the text of its order of battle.
pub fn field_with_oob(edit: impl Fn(String) -> String) -> Bar {
    ground_with("cc", "oob.toml", edit)
}

/// A test ground (`tests/data/<ground>` with the charts of `tests/data/ccbox`) copied with `edit`
/// applied to the text of one of its files (`oob.toml`, `tec.toml`, …).
pub fn ground_with(ground: &str, file: &str, edit: impl Fn(String) -> String) -> Bar {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "bar-{ground}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    for (sub, files) in [
        (ground, vec!["map.toml", "oob.toml", "scenario.toml"]),
        (
            "ccbox/charts",
            vec![
                "tec.toml",
                "checks.toml",
                "command.toml",
                "fire.toml",
                "combat.toml",
                "movement.toml",
            ],
        ),
    ] {
        std::fs::create_dir_all(dir.join(sub)).unwrap(); // test set-up
        for f in files {
            let text = std::fs::read_to_string(data().join(sub).join(f)).unwrap(); // fixture
            let text = if f == file { edit(text) } else { text };
            std::fs::write(dir.join(sub).join(f), text).unwrap(); // test set-up
        }
    }
    Bar::from_dir(&dir.join(ground), &dir).unwrap() // the edited fixture is valid
}

/// `ids` stacked in a line of `len` hexes from 0707 facing N; r2 (2 SP) in 0607, in the front of
/// the right-hand hex only; the attack eliminates r2. Returns the legal advances.
pub fn beaten_in_front_of_a_line(
    bar: &Bar,
    st: &mut State,
    ids: &[&str],
    len: usize,
) -> Vec<String> {
    for id in ids {
        line(bar, st, id, "0707", "N", len);
    }
    place(bar, st, "r2", "0607", "S");
    activate(bar, st, ids);
    close_combat(bar, st, &[]);
    let attack = format!("attack:{}", ids[0]);
    let mut log = fight(bar, st, &[attack.as_str(), "cc-done"], &[9, 9, 9, 9, 9, 1]);
    settle(bar, st, &mut log);
    assert!(
        hexes_of(bar, st, "r2").iter().all(|h| h != "0607"),
        "{log:?}"
    );
    legal(bar, st)
}
