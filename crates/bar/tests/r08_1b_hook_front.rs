//! 8.1b: a hook increases "its front by one additional hex at the front and side of the counter
//! (right or left)". Read (T9's hook diagram is missing; docs/bar-formations.md, row 8.1b): the
//! flank hex on the hooked side of the hooked end becomes a front hex — in the hook's ZOC (9.1),
//! its fire arc (12.2b), its front for close combat (13.6a, 13.11c) and no longer a flank hex
//! (19.8e). Drill ground `tests/data/cc` (columns grow west: the E neighbour of 0707 is 0706).
pub mod cc;
mod common;
use bar::geom::Formation;
use cc::*;
use common::*;

fn labels(bar: &bar::Bar, hs: &[hexmap::HexId]) -> Vec<String> {
    hs.iter().map(|h| bar.sc.board.label(*h)).collect()
}

fn hooked(bar: &bar::Bar, st: &mut bar::state::State, id: &str, f: Formation) {
    st.units[usize::from(unit(bar, id))].formation = f;
}

#[test]
fn r8_1b_a_hook_turns_the_flank_hex_on_its_hooked_side_into_a_front_hex() {
    let bar = field();
    let mut st = fresh(&bar);
    // One hex facing N: front NW 0607 and NE 0606 (row 07 odd), flank W 0708 and E 0706.
    place(&bar, &mut st, "i1", "0707", "N");
    let mut line_front = front(&bar, &st, "i1");
    line_front.sort();
    assert_eq!(line_front, ["0606", "0607"]);
    let mut line_flank = flank(&bar, &st, "i1");
    line_flank.sort();
    assert_eq!(line_flank, ["0706", "0708"]);
    // A right hook: the right (E) flank hex is front; the left one stays a flank hex.
    place_as(&bar, &mut st, "i1", &["0707"], "N", "hook-right");
    let mut f = front(&bar, &st, "i1");
    f.sort();
    assert_eq!(f, ["0606", "0607", "0706"]);
    assert_eq!(flank(&bar, &st, "i1"), ["0708"]);
    // A left hook: the mirror.
    place_as(&bar, &mut st, "i1", &["0707"], "N", "hook-left");
    let mut f = front(&bar, &st, "i1");
    f.sort();
    assert_eq!(f, ["0606", "0607", "0708"]);
    assert_eq!(flank(&bar, &st, "i1"), ["0706"]);
    // Facing S the right is W: a right hook's hook hex is 0708.
    place_as(&bar, &mut st, "i1", &["0707"], "S", "hook-right");
    assert!(front(&bar, &st, "i1").contains(&"0708".to_string()));
    assert_eq!(flank(&bar, &st, "i1"), ["0706"]);
}

#[test]
fn r8_1b_a_two_hex_hook_adds_its_hook_hex_at_the_hooked_end_only() {
    let bar = field();
    let mut st = fresh(&bar);
    // A 2-hex line facing N, right end 0707: hexes 0707 and 0708.
    line(&bar, &mut st, "i1", "0707", "N", 2);
    let mut hs = hexes_of(&bar, &st, "i1");
    hs.sort();
    assert_eq!(hs, ["0707", "0708"]);
    let mut line_flank = flank(&bar, &st, "i1");
    line_flank.sort();
    assert_eq!(line_flank, ["0706", "0709"]);
    hooked(&bar, &mut st, "i1", Formation::HookRight);
    assert!(front(&bar, &st, "i1").contains(&"0706".to_string()));
    assert_eq!(flank(&bar, &st, "i1"), ["0709"]);
    assert_eq!(
        front(&bar, &st, "i1").len(),
        4,
        "{:?}",
        front(&bar, &st, "i1")
    );
    hooked(&bar, &mut st, "i1", Formation::HookLeft);
    assert!(front(&bar, &st, "i1").contains(&"0709".to_string()));
    assert_eq!(flank(&bar, &st, "i1"), ["0706"]);
    // The geometry functions agree with each other.
    let s = &st.units[usize::from(unit(&bar, "i1"))];
    let x = bar::geom::hook_hex(&s.hexes, s.facing, s.formation).expect("a hook hex");
    assert_eq!(bar.sc.board.label(x), "0709");
    assert!(bar::geom::in_front_of(&s.hexes, s.facing, s.formation, x));
    assert_eq!(
        labels(&bar, &bar::geom::front_of(&s.hexes, s.facing, s.formation)),
        front(&bar, &st, "i1")
    );
}

#[test]
fn r9_1_8_1b_the_hook_hex_is_in_the_hooks_zoc() {
    let bar = field();
    for (formation, zoc) in [("hook-right", true), ("line", false), ("hook-left", false)] {
        let mut st = fresh(&bar);
        place_as(&bar, &mut st, "i1", &["0707"], "N", formation);
        place(&bar, &mut st, "e1", "0706", "SW");
        assert_eq!(
            bar::checks::in_ezoc(&bar.sc, &st, unit(&bar, "e1")),
            zoc,
            "{formation}"
        );
        let set = bar::command::ezoc_set(
            &bar.sc,
            &st,
            bar.sc.units[usize::from(unit(&bar, "e1"))].side,
        );
        assert_eq!(set.contains(&hex("0706")), zoc, "{formation}");
    }
}

#[test]
fn r19_8e_8_1b_an_enemy_in_the_hook_hex_does_not_flank_the_hook_one_on_its_other_side_does() {
    let bar = field();
    for (enemy_at, formation, flanked) in [
        ("0706", "hook-right", false),
        ("0706", "line", true),
        ("0708", "hook-right", true),
    ] {
        let mut st = fresh(&bar);
        place_as(&bar, &mut st, "i1", &["0707"], "N", formation);
        place(&bar, &mut st, "e1", enemy_at, "NW");
        assert_eq!(
            bar::checks::flanked(&bar.sc, &st, unit(&bar, "i1")),
            flanked,
            "{formation}, enemy in {enemy_at}"
        );
    }
}

#[test]
fn r13_11c_8_1b_an_attack_through_the_hook_hex_is_frontal() {
    let bar = field();
    // e1 defends at 0607 facing S; its right is W, so a right hook's hook hex is 0608. i1 attacks
    // from 0608 facing it: a flank attack (+3) on a line, a frontal one on the hook.
    for (formation, flank_attack) in [("line", true), ("hook-right", false)] {
        let mut st = fresh(&bar);
        place_as(&bar, &mut st, "e1", &["0607"], "S", formation);
        face_to(&bar, &mut st, "i1", "0608", "0607");
        let cv = attack_cv(&bar, &mut st, &["i1"], &[9, 9, 9, 9, 5, 5]);
        assert_eq!(
            cv.contains("+ 3 (flank attack)"),
            flank_attack,
            "{formation}: {cv}"
        );
    }
}

#[test]
fn r19_8f_8_1b_a_hook_is_supported_by_its_one_flank_hex() {
    let bar = field();
    // A friend in the W flank hex only: a right hook (whose E flank hex is front) is supported,
    // a line (whose E flank hex is empty clear ground) is not.
    for (formation, supported) in [("hook-right", true), ("line", false)] {
        let mut st = fresh(&bar);
        place_as(&bar, &mut st, "i1", &["0707"], "N", formation);
        place(&bar, &mut st, "i2", "0708", "N");
        assert_eq!(
            bar::checks::supported(&bar.sc, &st, unit(&bar, "i1")),
            supported,
            "{formation}"
        );
    }
}
