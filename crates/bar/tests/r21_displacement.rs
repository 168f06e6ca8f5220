//! Leader displacement by enemy movement (21.1b, 21.1d) on the drill ground `tests/data/move`.
mod common;
use bar::Bar;
use bar::geom::Formation;
use bar::state::{Activation, LeaderStatus, Phase, State};
use common::*;
use hexmap::{Dir, HexId};

fn field() -> Bar {
    Bar::from_dir(&data().join("move"), &data()).unwrap() // the fixture is valid
}

fn set(bar: &Bar, st: &mut State, id: &str, hexes: &[HexId], facing: &str, formation: &str) {
    let f = Formation::parse(formation).unwrap(); // test formations are well formed
    let u = usize::from(unit(bar, id));
    st.units[u].hexes = hexes.to_vec().into();
    st.units[u].formation = f;
    st.units[u].facing = bar::scenario::parse_facing(facing, f).unwrap(); // test facings
}

fn movement(bar: &Bar, st: &mut State, units: &[&str]) {
    let mut us: Vec<u16> = units.iter().map(|u| unit(bar, u)).collect();
    us.push(unit(bar, "sp1"));
    for &u in &us {
        st.units[usize::from(u)].activated = true;
    }
    st.activation = Some(Activation {
        side: 0,
        units: us,
        ..Activation::default()
    });
    st.phase = Phase::Movement;
}

fn nb(h: HexId, d: Dir) -> HexId {
    h.neighbour(d).expect("on the map")
}

/// The Red brigadier M1 alone in 0707; IR 1/I comes from the south-west hex, facing north.
fn position(bar: &Bar) -> (State, HexId) {
    let l = hex("0707");
    let mut st = fresh(bar);
    put_leader(bar, &mut st, "M1", "0707");
    set(bar, &mut st, "i1", &[nb(l, Dir::SW)], "N", "line");
    (st, l)
}

#[test]
fn r21_1b_d_a_leader_alone_is_moved_aside_not_blocking_and_not_finished() {
    let bar = field();
    let (mut st, l) = position(&bar);
    // A Red battalion in the hex east of the leader: his own troops are where he goes.
    set(&bar, &mut st, "e1", &[nb(l, Dir::E)], "S", "line");
    movement(&bar, &mut st, &["i1"]);
    let mut log = act(&bar, &mut st, &["move:i1", "step:0707"], &[]);
    // The Red battalion may answer IR 1/I leaving its hex (12.8d): it lets it go.
    if matches!(st.phase, Phase::Reaction { .. }) {
        log.extend(act(&bar, &mut st, &["pass"], &[]));
    }
    assert_eq!(
        st.units[usize::from(unit(&bar, "i1"))].hexes,
        vec![l],
        "the leader does not block the move"
    );
    let m1 = &st.leaders[usize::from(leader(&bar, "M1"))];
    assert_eq!(m1.hex, Some(nb(l, Dir::E)), "{log:#?}");
    assert_eq!(m1.status, LeaderStatus::Present);
    assert!(!m1.finished, "21.1d: not FINISHED by a displacement");
    assert_logged(
        &log,
        "Red infantry brigadier is displaced by the enemy's move from 0707 to",
    );
    // Without friends near: any adjacent hex outside the mover's ZOC (its front hexes, 9.1).
    let (mut st, l) = position(&bar);
    movement(&bar, &mut st, &["i1"]);
    act(&bar, &mut st, &["move:i1", "step:0707"], &[]);
    let to = st.leaders[usize::from(leader(&bar, "M1"))]
        .hex
        .expect("still on the map");
    assert_eq!(to.distance(l), 1);
    assert!(
        to != nb(l, Dir::NE) && to != nb(l, Dir::NW),
        "not into the enemy ZOC"
    );
}

#[test]
fn r21_1b_a_leader_with_no_free_hex_is_eliminated() {
    let bar = field();
    let (mut st, l) = position(&bar);
    // Blue units on every other neighbour; the one at the south-east faces south-west, its front
    // covering the hex IR 1/I leaves.
    for (id, d) in [
        ("i2", Dir::NE),
        ("i3", Dir::E),
        ("gr", Dir::W),
        ("k1", Dir::NW),
    ] {
        set(&bar, &mut st, id, &[nb(l, d)], "N", "line");
    }
    set(&bar, &mut st, "jg", &[nb(l, Dir::SE)], "SW", "line");
    movement(&bar, &mut st, &["i1"]);
    let log = act(&bar, &mut st, &["move:i1", "step:0707"], &[]);
    let m1 = &st.leaders[usize::from(leader(&bar, "M1"))];
    assert_eq!(m1.status, LeaderStatus::Killed, "{log:#?}");
    assert_eq!(m1.hex, None);
    assert_logged(&log, "eliminated (21.1b)");
}
