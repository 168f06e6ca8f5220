//! The cavalry line contraction of later close combat rounds (14.5b) and its worked example E59,
//! on the pursuit drill ground `tests/data/pursuit` with the test charts of `tests/data/ccbox`
//! (T13: difference −2…−1 'M/M'; a clear hex holds 12 cavalry SP).
pub mod cc;
mod common;
use bar::Bar;
use cc::*;
use common::*;

/// The pursuit drill ground, its charts' text edited by `edit` (the TEC only).
fn field_with_tec(edit: impl Fn(String) -> String) -> Bar {
    ground_with("pursuit", "tec.toml", edit)
}

/// E59: Cuirassiers 17 (17 SP, CV +2) in a 3-hex line whose right hex 0708 faces Red IR (one hex,
/// 0607); two 'M/M' rounds both sides hold, then a third round. The log.
fn e59(bar: &Bar) -> Vec<String> {
    let mut st = fresh(bar);
    line(bar, &mut st, "c17", "0708", "N", 3);
    place(bar, &mut st, "e1", "0607", "S");
    activate(bar, &mut st, &["c17"]);
    close_combat(bar, &mut st, &[]);
    // MC (B) ×2; round 1: 1 + 2 + 2 − 6 = −1 'M/M', MC (G) ×2 hold; round 2 (no cavalry +2,
    // the infantry line +2 against cavalry): 1 + 2 − (2 + 2) = −1 'M/M', MC (G) ×2 hold;
    // round 3: 9 + 2 − (1 + 2) = +8 '-/S'.
    let dice = [9, 9, 9, 9, 1, 6, 9, 9, 9, 9, 1, 2, 9, 9, 9, 9, 9, 1];
    let mut log = fight(bar, &mut st, &["attack:c17", "cc-done"], &dice);
    settle(bar, &mut st, &mut log);
    sound(bar, &st);
    log
}

#[test]
fn r14_5b_e59_the_cavalry_line_contracts_one_hex_a_round_toward_the_enemy() {
    // A clear hex holding 18 cavalry SP, so that the whole line fits in one hex in round 3.
    let bar = field_with_tec(|t| t.replacen("cavalry = 12,", "cavalry = 18,", 1));
    let log = e59(&bar);
    // Round 1: 6 + 3 (halved, beside a flank hex) + 0 = 9.
    assert_logged(
        &log,
        "round 1: SP attacker Cuirassiers 17 6 + 3 + 0 = 9 (hex 2: 6 halved, beside a flank hex; hex 3: 5 not adjacent)",
    );
    // Round 2: the farthest hex is given up; 9 + 4 = 13.
    assert_logged(
        &log,
        "Close combat (14.5b): Cuirassiers 17 contracts out of",
    );
    assert_logged(
        &log,
        "round 2: SP attacker Cuirassiers 17 9 + 4 = 13 (hex 2: 8 halved, beside a flank hex)",
    );
    // Round 3: the 17 SP in one hex.
    assert_logged(&log, "round 3: SP attacker Cuirassiers 17 17 = 17;");
}

#[test]
fn r14_5b_no_contraction_when_the_stacking_limit_forbids_it() {
    // 12 cavalry SP a clear hex: 9/8 over two hexes is legal, 17 in one is not.
    let bar = field_with_tec(|t| t);
    let log = e59(&bar);
    assert_logged(
        &log,
        "round 2: SP attacker Cuirassiers 17 9 + 4 = 13 (hex 2: 8 halved, beside a flank hex)",
    );
    assert_logged(&log, "cannot contract out of");
    assert_logged(
        &log,
        "round 3: SP attacker Cuirassiers 17 9 + 4 = 13 (hex 2: 8 halved, beside a flank hex)",
    );
}

#[test]
fn r14_5b_an_infantry_line_does_not_contract() {
    let bar = field_with_tec(|t| t);
    let mut st = fresh(&bar);
    line(&bar, &mut st, "i1", "0708", "N", 2);
    place(&bar, &mut st, "e1", "0607", "S");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    // Round 1: 1 + 0 − 2 = −1 'M/M', both hold; round 2: 9 − 1 = +8 '-/S'.
    let mut log = fight(
        &bar,
        &mut st,
        &["attack:i1", "cc-done"],
        &[9, 9, 9, 9, 1, 2, 9, 9, 9, 9, 9, 1],
    );
    settle(&bar, &mut st, &mut log);
    assert_logged(&log, "round 2:");
    assert_not_logged(&log, "(14.5b)");
}
