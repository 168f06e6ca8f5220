//! Advance after combat (15.1–15.2) and leaders moving with advancing units (21.2c) on the drill
//! ground `tests/data/cc` with the test T13 of `tests/data/ccbox` (see `r13_close_combat.rs`).
pub mod cc;
mod common;
use cc::*;
use common::*;
use engine::Ruleset;

#[test]
fn r15_1a_the_winner_must_advance_at_least_one_unit_and_may_advance_more() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "u4", "0707", "N");
    place(&bar, &mut st, "u1", "0707", "N");
    place(&bar, &mut st, "r2", "0607", "S");
    activate(&bar, &mut st, &["u4", "u1"]);
    close_combat(&bar, &mut st, &[]);
    // 9 − 1 = +8 → '-/S'.
    fight(
        &bar,
        &mut st,
        &["attack:u4", "cc-done"],
        &[9, 9, 9, 9, 9, 1],
    );
    let l = legal(&bar, &st);
    // The stack, or either unit alone; no "done" before one has advanced.
    assert_eq!(
        l,
        vec![
            "cc-advance:u4+u1:0607",
            "cc-advance:u4:0607",
            "cc-advance:u1:0607"
        ]
    );
    act(&bar, &mut st, &["cc-advance:u4:0607"], &[]);
    // 15.1g: it may face anew (no enemy ZOC there); it keeps its facing, so u1 may follow.
    assert!(legal(&bar, &st).contains(&"cc-face-keep".to_string()));
    act(&bar, &mut st, &["cc-face-keep"], &[]);
    let l = legal(&bar, &st);
    assert_eq!(l, vec!["cc-advance:u1:0607", "cc-advance-done"]);
    act(&bar, &mut st, &["cc-advance-done"], &[]);
    assert_eq!(hexes_of(&bar, &st, "u4"), vec!["0607"]);
    assert_eq!(hexes_of(&bar, &st, "u1"), vec!["0707"]);
    sound(&bar, &st);
}

#[test]
fn r15_1a_artillery_and_inactive_units_stacked_with_the_attackers_never_advance() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "u1", "0707", "N");
    place(&bar, &mut st, "x1", "0707", "N");
    place_as(&bar, &mut st, "g1", &["0707"], "N", "unlimbered");
    for (id, o) in [("u1", 1), ("x1", 2), ("g1", 3)] {
        st.units[usize::from(unit(&bar, id))].order = o;
    }
    place(&bar, &mut st, "r2", "0607", "S");
    activate(&bar, &mut st, &["u1", "g1"]);
    close_combat(&bar, &mut st, &[]);
    // u1 CV +4: 9 + 4 − 5 = +8 → '-/S'.
    fight(
        &bar,
        &mut st,
        &["attack:u1", "cc-done"],
        &[9, 9, 9, 9, 9, 5],
    );
    assert_eq!(legal(&bar, &st), vec!["cc-advance:u1:0607"]);
}

#[test]
fn r15_1a_a45_infantry_and_cavalry_attacking_together_only_the_cavalry_advances() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "e1", "0607", "S");
    place(&bar, &mut st, "i1", "0707", "N");
    face_to(&bar, &mut st, "k1", "0708", "0607");
    activate(&bar, &mut st, &["i1", "k1"]);
    close_combat(&bar, &mut st, &[]);
    fight(
        &bar,
        &mut st,
        &["attack:i1", "attack:k1", "cc-done"],
        &[9, 9, 9, 9, 9, 9, 9, 1],
    );
    assert_eq!(legal(&bar, &st), vec!["cc-advance:k1:0607"]);
}

#[test]
fn r15_1b_defending_cavalry_in_line_advances_into_the_hex_the_attacker_left() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "h1", "0607", "S");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    fight(&bar, &mut st, &["attack:i1", "cc-done"], &[9, 9]);
    // 20.1: cavalry attacked only by infantry may retreat before combat; it stands.
    assert!(legal(&bar, &st).contains(&"cc-stand".to_string()));
    // Round: h1 CV 0 + 2 (heavy): 1 + 0 − (8 + 2) = −9 → '2R/-'.
    let mut log = act(&bar, &mut st, &["cc-stand"], &[9, 9, 1, 8]);
    settle(&bar, &mut st, &mut log);
    assert_logged(&log, "→ '2R/-' (T13)");
    assert!(st.units[usize::from(unit(&bar, "i1"))].routed);
    assert_eq!(bar.decider(&st), Some(engine::Seat(1)));
    assert_eq!(legal(&bar, &st), vec!["cc-advance:h1:0707"]);
    let log = act(&bar, &mut st, &["cc-advance:h1:0707"], &[]);
    assert_logged(
        &log,
        "Close combat (15.1): Red horse advances after combat to 0707",
    );
}

#[test]
fn r15_1b_defending_infantry_never_advances() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "e1", "0607", "S");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    // 1 − 8 = −7 → '2R/-'.
    let mut log = fight(
        &bar,
        &mut st,
        &["attack:i1", "cc-done"],
        &[9, 9, 9, 9, 1, 8],
    );
    settle(&bar, &mut st, &mut log);
    assert_logged(&log, "→ '2R/-' (T13)");
    assert_not_logged(&log, "advance");
    assert!(!matches!(st.phase, bar::state::Phase::CcDecision(_)));
}

#[test]
fn r15_1e_a_two_hex_line_may_advance_with_its_whole_width() {
    let bar = field();
    let mut st = fresh(&bar);
    line(&bar, &mut st, "i1", "0707", "N", 2);
    place(&bar, &mut st, "r2", "0607", "S");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    fight(
        &bar,
        &mut st,
        &["attack:i1", "cc-done"],
        &[9, 9, 9, 9, 9, 1],
    );
    let l = legal(&bar, &st);
    assert!(!l.is_empty(), "{l:?}");
    // The whole width (two hexes) or, contracted (15.1e), the vacated hex alone.
    for x in &l {
        let hexes: Vec<&str> = x.rsplit(':').next().unwrap().split('-').collect(); // an id
        assert!(hexes.len() == 2 || x == "cc-advance:i1:0607", "{x}");
        assert!(hexes.contains(&"0607"), "{x}");
    }
    let first = l[0].clone();
    assert!(
        first.ends_with("0606-0607") || first.ends_with("0607-0608"),
        "{first}"
    );
    act(&bar, &mut st, &[first.as_str()], &[]);
    assert!(hexes_of(&bar, &st, "i1").contains(&"0607".to_string()));
    sound(&bar, &st);
}

#[test]
fn r15_2_21_2c_general_order_stays_and_the_leader_advances_with_his_stack() {
    let bar = field();
    let mut st = fresh(&bar);
    place_as(&bar, &mut st, "i1", &["0707"], "N", "general");
    put_leader(&bar, &mut st, "L1", "0707");
    place(&bar, &mut st, "r2", "0607", "S");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    fight(&bar, &mut st, &["attack:i1", "cc-done"], &[9, 9, 9, 9]);
    act(&bar, &mut st, &["cc-no-leader"], &[9, 1]);
    let log = act(&bar, &mut st, &["cc-advance:i1:0607"], &[]);
    assert_logged(&log, "(still in general order, 15.2)");
    assert_eq!(
        st.leaders[usize::from(leader(&bar, "L1"))].hex,
        Some(hex("0607"))
    );
    assert_eq!(
        st.units[usize::from(unit(&bar, "i1"))].formation,
        bar::geom::Formation::GeneralOrder
    );
}

/// 15.1g: "advancing units may freely change their facing in any direction after moving into the
/// vacated hex but only if that hex is not in an EZOC": offered and applied in the open, not
/// offered next to another enemy.
#[test]
fn r15_1g_a_free_facing_change_after_advancing_unless_the_hex_is_in_an_ezoc() {
    let bar = field();
    for ezoc in [false, true] {
        let mut st = fresh(&bar);
        place(&bar, &mut st, "u4", "0707", "N");
        place(&bar, &mut st, "r2", "0607", "S");
        if ezoc {
            // Another Red battalion facing 0607 from 0507: 0607 is in its ZOC.
            face_to(&bar, &mut st, "r6", "0507", "0607");
        }
        activate(&bar, &mut st, &["u4"]);
        close_combat(&bar, &mut st, &[]);
        let l = legal(&bar, &st);
        let attack: Vec<&str> = if l.contains(&"cc-done".to_string()) {
            vec!["attack:u4", "cc-done"]
        } else {
            vec!["attack:u4"]
        };
        fight(&bar, &mut st, &attack, &[9, 9, 9, 9, 9, 1]);
        while legal(&bar, &st).iter().any(|x| x.starts_with("cc-fight:")) {
            let first = legal(&bar, &st)[0].clone();
            act(&bar, &mut st, &[&first], &[]);
        }
        if !legal(&bar, &st).contains(&"cc-advance:u4:0607".to_string()) {
            panic!("ezoc {ezoc}: {:?}", legal(&bar, &st));
        }
        act(&bar, &mut st, &["cc-advance:u4:0607"], &[]);
        let l = legal(&bar, &st);
        if ezoc {
            assert!(!l.iter().any(|x| x.starts_with("cc-face")), "{l:?}");
        } else {
            assert!(l.contains(&"cc-face:S".to_string()), "{l:?}");
            let log = act(&bar, &mut st, &["cc-face:S"], &[]);
            assert_logged(&log, "Close combat (15.1g): IR 4 face S after advancing");
            let f = st.units[usize::from(unit(&bar, "u4"))].facing;
            assert_eq!(bar::geom::FacingExt::name(f), "S");
        }
    }
}
