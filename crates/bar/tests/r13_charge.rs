//! Cavalry charges (13.1d–f, 13.2b, 13.3–13.7, 13.10a, 19.6d) on the drill ground
//! `tests/data/charge` (the close combat drill ground, a Prussian hussar added) with the test
//! charts `tests/data/ccbox` (T11: Prussian heavy cavalry 3, hussars 4; a clear hex costs 1 of
//! charge range, a village 2 and a DC (A); T13 read by the dice as in `r13_close_combat.rs`).
//! Dice: a check is two d10 (tens, units): 9, 9 passes, 1, 0 (10) fails without a special result.
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

/// The first log line citing `rule` (as "(13.5" or "(14.").
fn first(log: &[String], rule: &str) -> usize {
    log.iter()
        .position(|l| l.contains(rule))
        .unwrap_or_else(|| panic!("no {rule} in {log:#?}"))
}

/// The usual position: KR 1 (heavy, range 3) at 1007 facing N; Red IR in a line at 0607 facing
/// S, four hexes ahead; Red IR 2 in march column at 0805; Red horse at 0810 facing NE (0808 is
/// two hexes away in its frontal arc).
fn position(bar: &bar::Bar) -> State {
    let mut st = fresh(bar);
    place(bar, &mut st, "k1", "1007", "N");
    place(bar, &mut st, "e1", "0607", "S");
    place_as(bar, &mut st, "e2", &["0805"], "E", "march");
    place(bar, &mut st, "h1", "0810", "NE");
    activate(bar, &mut st, &["k1"]);
    close_combat(bar, &mut st, &[]);
    st
}

#[test]
fn r13_3_a_range_3_charge_at_an_infantry_line_reaction_countercharge_combat_log_in_rule_order() {
    let bar = ground();
    let mut st = position(&bar);
    assert_eq!(legal(&bar, &st), ["charge:k1", "cc-done"]);
    let mut log = play(
        &bar,
        &mut st,
        &[
            ("charge:k1", &[]),
            ("cc-done", &[9, 9]),
            // 13.4a: before the first hex, the reactions: Red IR declines, Red IR 2 deploys.
            ("charge-hex:0908", &[]),
            ("pass", &[]),
            ("react:form:line:S:0805", &[9, 9]),
            // Red IR 2 reacted (13.4d): only Red IR is asked again.
            ("charge-hex:0808", &[]),
            ("pass", &[]),
            // 0808 is two hexes away in Red horse's frontal arc: a countercharge, MC (C) fails.
            ("countercharge:0809", &[1, 0]),
            ("charge-hex:0708", &[]),
            // Defender MC (B) passes.
            ("pass", &[9, 9]),
        ],
    );
    // Defensive fire held (13.10); the round: 1 + 5 (CV) − 1 = 5: '-/2R'.
    while legal(&bar, &st) == ["cc-fire", "cc-hold-fire"] {
        log.extend(act(&bar, &mut st, &["cc-hold-fire"], &[1, 1]));
    }
    let k1 = unit(&bar, "k1");
    assert_eq!(hexes_of(&bar, &st, "k1"), ["0708"]);
    assert_logged(
        &log,
        "(13.4e, disorder check D): Red IR 2 ER 30 + 30 (reaction per mp ×3",
    );
    assert_logged(
        &log,
        "Red horse ER 30; d100 tens 1, units 0 = 10 — fails: shaken",
    );
    assert!(st.units[usize::from(unit(&bar, "h1"))].shaken);
    assert_logged(&log, "it enters an enemy ZOC: the charge movement ends");
    assert_logged(&log, "+ 3 (charge of 3 hexes)");
    settle(&bar, &mut st, &mut log);
    let l = legal(&bar, &st);
    let adv = l
        .iter()
        .find(|x| x.starts_with("cc-advance:k1"))
        .unwrap_or_else(|| panic!("{l:?} {log:#?}"))
        .clone();
    log.extend(act(&bar, &mut st, &[adv.as_str()], &[]));
    let order = [
        "(13.3", "(13.4", "(13.5", "(13.6)", "(13.7", "(13.11", "(14.", "(15.1",
    ];
    let at: Vec<usize> = order.iter().map(|r| first(&log, r)).collect();
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "{order:?} at {at:?}: {log:#?}"
    );
    let _ = k1;
    sound(&bar, &st);
}

#[test]
fn r13_5c_e49_a_countercharge_stops_the_charge_which_must_attack_the_countercharger() {
    let bar = ground();
    let mut st = position(&bar);
    let log = play(
        &bar,
        &mut st,
        &[
            ("charge:k1", &[]),
            ("cc-done", &[9, 9]),
            ("charge-hex:0908", &[]),
            ("pass", &[]),
            ("pass", &[]),
            ("charge-hex:0808", &[]),
            ("pass", &[]),
            ("pass", &[]),
            // MC (C) passes: Red horse moves one hex, the charge stops in 0808; the round's
            // dice: 5 and 5.
            ("countercharge:0809", &[9, 9, 5, 5]),
        ],
    );
    assert_logged(
        &log,
        "Red horse countercharges into 0809: the charge of KR 1 stops there",
    );
    assert_logged(&log, "the charge of KR 1 ends in 0808 after 2 hexes");
    // Q must attack Y though Y is not in its front hex (0709, 0708) (13.6a exception).
    assert_logged(&log, "combat 1: KR 1 attacks Red horse in 0809");
    // 13.7a: the countercharger makes no defender MC (B); its MC (C) counted.
    assert_logged(
        &log,
        "Red horse countercharged: its morale check (C) was its defender morale check",
    );
    assert_not_logged(&log, "morale check B): Red horse");
    // 13.11c: Q, with no opponent in its ZOC, has no cavalry modifiers; Y +2 and +1 a hex.
    assert_logged(&log, "+ 2 (heavy or medium cavalry) + 1 (charge of 1 hex)");
    assert_logged(&log, "CV attacker KR 1 +0;");
    assert_not_logged(&log, "charge of 2 hexes");
    sound(&bar, &st);
}

#[test]
fn r13_3e_a_misjudged_charge_goes_back_disorder_shaken_and_the_reactions_stand() {
    let bar = ground();
    let mut st = position(&bar);
    let log = play(
        &bar,
        &mut st,
        &[
            ("charge:k1", &[]),
            ("cc-done", &[9, 9]),
            ("charge-hex:0908", &[]),
            ("pass", &[]),
            ("react:form:line:S:0805", &[9, 9]),
            // No enemy in its ZOC at 0908, no countercharger: misjudged.
            ("charge-stop", &[]),
        ],
    );
    assert_logged(
        &log,
        "(13.3e): misjudged charge: no enemy in the ZOC of KR 1: back to 1007, DISORDER/SHAKEN",
    );
    let k = &st.units[usize::from(unit(&bar, "k1"))];
    assert_eq!(hexes_of(&bar, &st, "k1"), ["1007"]);
    assert!(k.disordered && k.shaken);
    // The reaction stays in effect.
    let e2 = &st.units[usize::from(unit(&bar, "e2"))];
    assert_eq!(e2.formation, bar::geom::Formation::Line);
    assert_not_logged(&log, "(13.6)");
    sound(&bar, &st);
}

#[test]
fn r13_2b_a_charger_that_fails_its_morale_check_does_not_move_and_is_shaken() {
    let bar = ground();
    let mut st = position(&bar);
    let log = play(&bar, &mut st, &[("charge:k1", &[]), ("cc-done", &[1, 0])]);
    assert_logged(&log, "shaken, does not charge: does not move (13.2b)");
    assert_not_logged(&log, "(13.3)");
    assert_eq!(hexes_of(&bar, &st, "k1"), ["1007"]);
    assert!(st.units[usize::from(unit(&bar, "k1"))].shaken);
}
