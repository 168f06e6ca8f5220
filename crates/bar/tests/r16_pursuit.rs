//! Cavalry pursuit (16.0–16.3), the end of pursuit (10.6g, 10.8b, 10.13b) and the worked example
//! E62 (16.2c) on the pursuit drill ground `tests/data/pursuit` (the close combat drill ground with
//! more units) and the test charts of `tests/data/ccbox` (T13: difference 3…4 '1D/1R', 5…6 '-/2R';
//! T19: the re-roll is the PP; DC (F): +10 for a recall).
pub mod cc;
mod common;
use bar::Bar;
use bar::state::Phase;
use cc::*;
use common::*;

/// The pursuit drill ground.
fn field() -> Bar {
    Bar::from_dir(&data().join("pursuit"), &data()).unwrap() // the fixture is valid
}

/// KR 1 (12 SP heavy cavalry, ER 28, CV 0) at 0707 facing N attacks the 3-SP Red IR 3 at 0607
/// facing S; both pass their morale checks (B); '1D/1R' (5 + 2 − 4 = +3): the infantry loses 1
/// and routs 4 hexes, the cavalry loses 1 and is disordered; then the advance into 0607.
fn e62(bar: &Bar) -> (bar::State, Vec<String>) {
    let mut st = fresh(bar);
    place(bar, &mut st, "k1", "0707", "N");
    place(bar, &mut st, "r3", "0607", "S");
    activate(bar, &mut st, &["k1"]);
    close_combat(bar, &mut st, &[]);
    let mut log = fight(bar, &mut st, &["attack:k1", "cc-done"], &[9, 9, 9, 9, 5, 4]);
    settle(bar, &mut st, &mut log);
    (st, log)
}

fn u(bar: &Bar, st: &bar::State, id: &str) -> bar::state::UnitState {
    st.units[usize::from(unit(bar, id))].clone()
}

#[test]
fn r16_2_e62_pursuit_path_losses_recall_check_and_exploitation() {
    let bar = field();
    let (mut st, mut log) = e62(&bar);
    assert_logged(&log, "'1D/1R' (T13)");
    assert!(u(&bar, &st, "r3").routed);
    assert_eq!(u(&bar, &st, "r3").lost, 1);
    assert!(u(&bar, &st, "k1").disordered);
    // The advance, then the PP roll: 7, disordered: halved (rounded) to 4.
    log.extend(act(&bar, &mut st, &["cc-advance:k1:0607"], &[7]));
    assert_logged(
        &log,
        "Pursuit (16.2a): KR 1: pursuit points d10 7 = 7, disordered: halved (rounded) to 4",
    );
    assert_logged(
        &log,
        "Rout retreat (20.2): Red IR 3 to 0608 → 0609 → 0610 → 0611",
    );
    // The cavalry faces the first path hex and follows the path, facing the next hex: each path
    // hex entered costs the infantry 1 SP.
    assert!(matches!(st.phase, Phase::Pursuit(_)));
    assert_eq!(legal(&bar, &st), ["pursue:SW", "pursue:NW", "recall"]);
    log.extend(act(&bar, &mut st, &["pursue:SW"], &[]));
    assert_eq!(hexes_of(&bar, &st, "k1"), ["0608"]);
    assert_eq!(u(&bar, &st, "r3").lost, 2);
    // The second path hex takes its last SP: pursuit movement ends; the recall DC (F) passes (99);
    // 2 PP are left for exploitation.
    let next = legal(&bar, &st)[0].clone();
    log.extend(act(&bar, &mut st, &[next.as_str()], &[9, 9]));
    assert_eq!(hexes_of(&bar, &st, "k1"), ["0609"]);
    assert!(u(&bar, &st, "r3").eliminated);
    assert_logged(&log, "Red IR 3 eliminated: pursuit movement ends");
    assert_logged(&log, "(16.3, disorder check F): KR 1");
    assert_logged(&log, "recalled");
    assert_logged(&log, "Pursuit (16.2b): KR 1: 2 PP left for exploitation");
    // One facing change (1 PP), then one hex forward (1 PP): the exploitation is over.
    let l = legal(&bar, &st);
    assert!(l.contains(&"exploit-done".to_string()), "{l:?}");
    assert_eq!(
        l.iter().filter(|a| a.starts_with("exploit-turn:")).count(),
        5
    );
    log.extend(act(&bar, &mut st, &["exploit-turn:S"], &[]));
    let l = legal(&bar, &st);
    let step = l
        .iter()
        .find(|a| a.starts_with("exploit:"))
        .unwrap()
        .clone(); // a front hex
    log.extend(act(&bar, &mut st, &[step.as_str()], &[]));
    assert_logged(&log, "exploitation over (no PP left)");
    // It ends the pursuit disordered (the '1D' of the combat).
    assert!(u(&bar, &st, "k1").disordered);
    assert!(!u(&bar, &st, "k1").shaken);
    assert_logged(&log, "Pursuit (16.2c): KR 1: end of pursuit");
    assert_logged(&log, "Close combat (13.0): the close combat phase is over");
    sound(&bar, &st);
}
