//! The cavalry defence option (13.8, 19.6d) in the three situations of its example (E50) on the
//! drill ground `tests/data/charge` with the test charts `tests/data/ccbox` (T13 read by the
//! dice: difference 5…6 '-/2R', 0 '-/-'…). Dice: a check is two d10 (tens, units): 9, 9 passes.
pub mod cc;
mod common;
use bar::state::State;
use cc::*;
use common::*;

/// The charge drill ground.
fn ground() -> bar::Bar {
    bar::Bar::from_dir(&data().join("charge"), &data()).unwrap() // the fixture is valid
}

/// Apply each action (which must be legal) with its dice; the log.
#[track_caller]
fn play(bar: &bar::Bar, st: &mut State, script: &[(&str, &[u8])]) -> Vec<String> {
    let mut log = Vec::new();
    for (id, dice) in script {
        let l = legal(bar, st);
        assert!(
            l.iter().any(|x| x == id),
            "{id} not legal: {l:?}; log {log:#?}"
        );
        log.extend(act(bar, st, &[id], dice));
    }
    log
}

/// Situation 1: A (IR 1/I at 1007 facing N) attacks X (in 0907); Y (Red horse) stands in A's
/// flank hex 1008 with A in its front; units of other brigades are elsewhere.
fn situation_1(bar: &bar::Bar, x: &str) -> State {
    let mut st = fresh(bar);
    place(bar, &mut st, "i1", "1007", "N");
    face_to(bar, &mut st, x, "0907", "1007");
    face_to(bar, &mut st, "h1", "1008", "1007");
    place(bar, &mut st, "e1", "0116", "S");
    st
}

#[test]
fn r13_8c_e50_situation_1_the_cavalry_joins_and_when_x_retreats_a_fights_y_in_place() {
    let bar = ground();
    // X is light infantry: it may retreat before the infantry's attack (20.1).
    let mut st = situation_1(&bar, "rl");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    let mut log = play(&bar, &mut st, &[("attack:i1", &[]), ("cc-done", &[9, 9])]);
    // 13.8a: offered to the reactive player before any defender's MC (B).
    assert_eq!(legal(&bar, &st), ["cc-cavalry-defend:h1", "pass"]);
    assert_not_logged(&log, "Defender morale");
    log.extend(play(
        &bar,
        &mut st,
        &[
            ("cc-cavalry-defend:h1", &[]),
            ("cc-withdraw:0807", &[9, 9]),
            // The cavalry, attacked by infantry, could retreat too; it stands (MC B).
            ("cc-stand", &[9, 9, 5, 5]),
        ],
    ));
    while legal(&bar, &st) == ["cc-fire", "cc-hold-fire"] {
        log.extend(act(&bar, &mut st, &["cc-hold-fire"], &[5, 5]));
    }
    assert_logged(
        &log,
        "(13.8a): Red horse joins the close combat by the cavalry defence option",
    );
    assert_logged(&log, "Red Jäger retreats before close combat");
    // The cavalry tests MC (B) like the other defenders.
    assert_logged(&log, "(13.7a, morale check B): Red horse");
    // A does not advance into the vacated hex: it fights Y without Y in its ZOC (13.6a).
    assert_logged(&log, "(13.11a): round 1");
    assert_not_logged(&log, "every defending hex is vacated");
    assert!(!hexes_of(&bar, &st, "i1").contains(&"0907".to_string()));
    // 13.9a: the Jäger that withdrew is out of the round: the defenders' CV is the horse's alone
    // (no mean with the Jäger's), and on 5, 5 A loses '2R' and routs from 1007.
    assert_logged(
        &log,
        "defender Red horse +0 + 2 (heavy or medium cavalry) + 3 (flank attack) = +5",
    );
    assert_logged(&log, "Rout retreat (20.2): IR 1/I to 1107");
    sound(&bar, &st);
}

#[test]
fn r13_8e_e50_declined_the_attacker_still_suffers_the_flank_minus_3() {
    let bar = ground();
    let mut st = situation_1(&bar, "r6");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    let mut log = play(
        &bar,
        &mut st,
        &[
            ("attack:i1", &[]),
            ("cc-done", &[9, 9]),
            ("pass", &[9, 9, 5, 5]),
        ],
    );
    while legal(&bar, &st) == ["cc-fire", "cc-hold-fire"] {
        log.extend(act(&bar, &mut st, &["cc-hold-fire"], &[5, 5]));
    }
    assert_logged(&log, "(13.8e): Red horse stays out of the close combat");
    assert_logged(&log, "− 3 (enemy outside the combat in its flank)");
    assert_not_logged(&log, "morale check B): Red horse");
}

#[test]
fn r13_8d_e50_only_the_front_defenders_hex_is_open_to_the_advance_as_15_1a_gives() {
    let bar = ground();
    let mut st = situation_1(&bar, "r2");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    let mut log = play(
        &bar,
        &mut st,
        &[
            ("attack:i1", &[]),
            ("cc-done", &[9, 9]),
            ("cc-cavalry-defend:h1", &[9, 9]),
            ("cc-stand", &[9, 9, 9, 1]),
        ],
    );
    while legal(&bar, &st) == ["cc-fire", "cc-hold-fire"] {
        log.extend(act(&bar, &mut st, &["cc-hold-fire"], &[9, 1]));
    }
    settle(&bar, &mut st, &mut log);
    let l = legal(&bar, &st);
    assert!(l.iter().any(|a| a.ends_with(":0907")), "{l:?} {log:#?}");
    assert!(!l.iter().any(|a| a.ends_with(":1008")), "{l:?} {log:#?}");
}

#[test]
fn r13_8a_e50_situation_2_joining_splits_the_combat_c_x_and_a_y() {
    let bar = ground();
    let mut st = situation_1(&bar, "r6");
    // C (IR 1/II, same brigade) attacks X from 0807.
    face_to(&bar, &mut st, "i2", "0807", "0907");
    activate(&bar, &mut st, &["i1", "i2"]);
    close_combat(&bar, &mut st, &[]);
    let log = play(
        &bar,
        &mut st,
        &[
            ("attack:i1", &[]),
            ("attack:i2", &[]),
            ("cc-done", &[9, 9, 9, 9]),
        ],
    );
    assert_logged(&log, "combat 1: IR 1/I and IR 1/II attack Red IR 6 in 0907");
    let l = legal(&bar, &st);
    let id = if l.contains(&"cc-fight:i1".to_string()) {
        "cc-fight:i1"
    } else {
        l[0].as_str()
    }
    .to_string();
    let mut log = if l.contains(&"cc-cavalry-defend:h1".to_string()) {
        Vec::new()
    } else {
        play(&bar, &mut st, &[(id.as_str(), &[])])
    };
    log.extend(play(&bar, &mut st, &[("cc-cavalry-defend:h1", &[9, 9])]));
    assert_logged(
        &log,
        "Red horse joins by the cavalry defence option: IR 1/I now fights it in a combat of its own",
    );
    assert_logged(&log, "combat 1 is resolved: IR 1/II against Red IR 6");
}

#[test]
fn r13_8a_e50_situation_3_no_option_for_an_attacked_cavalry() {
    let bar = ground();
    let mut st = situation_1(&bar, "r6");
    face_to(&bar, &mut st, "i2", "0807", "0907");
    // B (IR 2/I) attacks Y.
    face_to(&bar, &mut st, "i3", "1108", "1008");
    activate(&bar, &mut st, &["i1", "i2", "i3"]);
    close_combat(&bar, &mut st, &[]);
    let mut log = play(
        &bar,
        &mut st,
        &[
            ("attack:i1", &[]),
            ("attack:i2", &[]),
            ("attack:i3", &[]),
            ("cc-done", &[9, 9, 9, 9, 9, 9]),
        ],
    );
    // Two combats (A and C against X, B against Y); Y is attacked: no option anywhere.
    for _ in 0..40 {
        let l = legal(&bar, &st);
        assert!(
            !l.iter().any(|a| a.starts_with("cc-cavalry-defend")),
            "{l:?}"
        );
        let Some(first) = l.first() else { break };
        let id = if l.contains(&"cc-hold-fire".to_string()) {
            "cc-hold-fire".to_string()
        } else {
            first.clone()
        };
        log.extend(act(&bar, &mut st, &[id.as_str()], &[5, 5, 5, 5]));
    }
    assert_logged(&log, "Red horse in 1008");
    assert_not_logged(&log, "(13.8");
}
