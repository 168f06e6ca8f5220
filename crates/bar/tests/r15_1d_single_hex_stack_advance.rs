//! 15.1d: a stack in a single-hex formation advancing after combat into the hexes left by a
//! multi-hex formation (drill ground `tests/data/cc`, test charts of `tests/data/ccbox`).
pub mod cc;
mod common;
use cc::*;
use common::*;
use hexmap::Dir;

/// The label of the neighbour of `h` in direction `d`.
fn next(bar: &bar::Bar, h: &str, d: Dir) -> String {
    bar.sc.board.label(hex(h).neighbour(d).unwrap()) // the drill ground's middle
}

/// u4 (4 SP) and u1 (1 SP) in a one-hex line at 0707 facing N; the enemy e1 (6 SP) in a two-hex
/// line facing SW on the hex NE of it (in u4's front) and the hex E of it (in u4's flank), the
/// attacker's hex in its front. The attack routs e1 off both hexes. Returns (front hex, flank
/// hex) of the line left.
fn beaten_two_hex_line(bar: &bar::Bar, st: &mut bar::state::State) -> (String, String) {
    place(bar, st, "u4", "0707", "N");
    place(bar, st, "u1", "0707", "N");
    let ne = next(bar, "0707", Dir::NE);
    let e = next(bar, "0707", Dir::E);
    place_as(bar, st, "e1", &[ne.as_str(), e.as_str()], "SW", "line");
    assert!(front(bar, st, "u4").contains(&ne));
    assert!(flank(bar, st, "u4").contains(&e));
    activate(bar, st, &["u4", "u1"]);
    close_combat(bar, st, &[]);
    let log = fight(bar, st, &["attack:u4", "cc-done"], &[9, 9, 9, 9, 9, 1]);
    let mut log = log;
    settle(bar, st, &mut log);
    assert!(
        hexes_of(bar, st, "e1").iter().all(|h| *h != ne && *h != e),
        "{log:?}"
    );
    (ne, e)
}

#[test]
fn r15_1d_a_single_hex_stack_may_advance_into_any_adjacent_hex_left_by_a_multi_hex_formation() {
    let bar = field();
    let mut st = fresh(&bar);
    let (ne, e) = beaten_two_hex_line(&bar, &mut st);
    let l = legal(&bar, &st);
    // Either hex of the line, the front one and the one in the stack's flank, whole or a unit.
    for h in [&ne, &e] {
        for us in ["u4+u1", "u4", "u1"] {
            let id = format!("cc-advance:{us}:{h}");
            assert!(l.contains(&id), "{id} not in {l:?}");
        }
    }
    // 15.1d: a single-hex formation may not extend over the hexes the enemy left.
    assert!(
        l.iter()
            .all(|x| !x.rsplit(':').next().unwrap().contains('-')),
        "{l:?}"
    ); // an id
    sound(&bar, &st);
}

#[test]
fn r15_1d_a_stack_that_can_separate_may_occupy_the_different_hexes_if_its_owner_wishes() {
    let bar = field();
    let mut st = fresh(&bar);
    let (ne, e) = beaten_two_hex_line(&bar, &mut st);
    act(
        &bar,
        &mut st,
        &[format!("cc-advance:u4:{ne}").as_str()],
        &[],
    );
    if legal(&bar, &st).contains(&"cc-face-keep".to_string()) {
        act(&bar, &mut st, &["cc-face-keep"], &[]);
    }
    // The unit left behind may follow into the same hex, go into the other, or stay.
    let l = legal(&bar, &st);
    assert_eq!(
        l,
        vec![
            format!("cc-advance:u1:{ne}"),
            format!("cc-advance:u1:{e}"),
            "cc-advance-done".to_string()
        ]
    );
    let log = act(&bar, &mut st, &[format!("cc-advance:u1:{e}").as_str()], &[]);
    assert_logged(&log, &format!("IR 1 det. advances after combat to {e}"));
    assert_eq!(hexes_of(&bar, &st, "u4"), vec![ne]);
    assert_eq!(hexes_of(&bar, &st, "u1"), vec![e]);
    sound(&bar, &st);
}

#[test]
fn r15_1d_a_single_unit_advances_into_one_hex_and_does_not_extend() {
    let bar = field();
    let mut st = fresh(&bar);
    let (ne, e) = beaten_two_hex_line(&bar, &mut st);
    // u4 and u1 advance together into the flank hex the line left: one hex, the stack whole.
    act(
        &bar,
        &mut st,
        &[format!("cc-advance:u4+u1:{e}").as_str()],
        &[],
    );
    assert_eq!(hexes_of(&bar, &st, "u4"), vec![e.clone()]);
    assert_eq!(hexes_of(&bar, &st, "u1"), vec![e]);
    // Nobody is left to take the other hex: the advance is over (no option left).
    assert!(
        legal(&bar, &st)
            .iter()
            .all(|x| !x.starts_with("cc-advance:") || !x.ends_with(&ne)),
        "{:?}",
        legal(&bar, &st)
    );
    sound(&bar, &st);
}

#[test]
fn r15_1d_15_1b_defending_cavalry_may_advance_into_either_hex_a_beaten_multi_hex_attacker_left() {
    let bar = field();
    let mut st = fresh(&bar);
    // i1 (6 SP) in a two-hex line facing N, right end 0707; h1 (6 cavalry SP) in a one-hex line
    // on the hex NW of 0707 (beside both hexes of the line) facing SW: the line's left hex in its
    // front, its right hex (0707) in its flank.
    line(&bar, &mut st, "i1", "0707", "N", 2);
    let left = hexes_of(&bar, &st, "i1")
        .into_iter()
        .find(|h| h != "0707")
        .unwrap(); // a two-hex line
    let d = next(&bar, "0707", Dir::NW);
    place_as(&bar, &mut st, "h1", &[d.as_str()], "SW", "line");
    assert!(front(&bar, &st, "h1").contains(&left));
    assert!(flank(&bar, &st, "h1").contains(&"0707".to_string()));
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    let mut log = fight(
        &bar,
        &mut st,
        &["attack:i1", "cc-done", "cc-stand"],
        &[9, 9, 9, 9, 1, 9],
    );
    // 14.6a: i1 routs (its owner picks the hex it routs from, 19.7e) and retreats.
    let first = legal(&bar, &st)[0].clone();
    assert!(first.starts_with("rout-hex:"), "{first}");
    log.extend(act(&bar, &mut st, &[first.as_str()], &[]));
    settle(&bar, &mut st, &mut log);
    let l = legal(&bar, &st);
    assert!(
        hexes_of(&bar, &st, "i1")
            .iter()
            .all(|h| *h != left && h != "0707"),
        "{log:?}\n{l:?}"
    );
    for h in [&left, &"0707".to_string()] {
        let id = format!("cc-advance:h1:{h}");
        assert!(l.contains(&id), "{id} not in {l:?}");
    }
    sound(&bar, &st);
}
