//! Army morale (23): the Current Loss Total and its columns (23.1), the check and the CR spent on
//! it (23.2), with the worked examples E66 and E67 of bar-notes section 3. The test chart has the
//! columns 50+, 75+ and 100+ of the 23.1e example and, in 100+, the 23.2c example's results
//! (9: +10, 6–8: +5, 0–5: O).
mod common;
use bar::army_morale::{clt, due_column};
use bar::state::Phase;
use common::*;

/// Brigade Sc's five units of 30 SP, so that losses reach the 100+ column.
fn big(more: impl Fn(String) -> String) -> bar::Bar {
    mini_with("oob.toml", |t| more(t.replace("sp = 6\n", "sp = 30\n"))).unwrap()
}

/// Blue's SP lost, spread over brigade Sc's units.
fn lose(bar: &bar::Bar, st: &mut bar::State, mut n: u8) {
    for u in ["ams1", "ams2", "for1", "for2", "pvp1"] {
        let take = n.min(29);
        st.units[usize::from(unit(bar, u))].lost = take;
        n -= take;
    }
    assert_eq!(n, 0);
}

#[test]
fn r23_1a_clt_is_sp_lost_plus_sp_routed_plus_killed_leaders() {
    let bar = big(|t| t);
    let mut st = fresh(&bar);
    st.units[usize::from(unit(&bar, "ams1"))].lost = 10;
    st.units[usize::from(unit(&bar, "for1"))].routed = true;
    st.units[usize::from(unit(&bar, "for2"))].routed = true;
    st.units[usize::from(unit(&bar, "for2"))].lost = 4;
    bar::leaders::kill(&bar.sc, &mut st, leader(&bar, "A"));
    // Lost 10 + 4; routed 30 + 26; the army leader's 5.
    assert_eq!(clt(&bar.sc, &st, 0), (14, 56, 5));
    // An eliminated unit counts its whole printed SP.
    let mut ev = Vec::new();
    bar::retreat::eliminate(&bar.sc, &mut st, unit(&bar, "x1"), "test", &mut ev);
    assert_eq!(clt(&bar.sc, &st, 0).0, 18);
}

#[test]
fn r23_1c_e_example_each_column_once_the_last_every_hour_never_back() {
    // E66: 45, 55, 70, 110, then any total.
    let bar = big(|t| t);
    let mut st = fresh(&bar);
    let due = |st: &bar::State| due_column(&bar.sc, st, 0);
    lose(&bar, &mut st, 45);
    assert_eq!(due(&st), Err("below 50+".to_string()));
    lose(&bar, &mut st, 55);
    assert_eq!(due(&st), Ok(0));
    st.armies[0].column = Some(0);
    lose(&bar, &mut st, 70);
    assert_eq!(due(&st), Err("the 50+ column was used".to_string()));
    lose(&bar, &mut st, 110);
    assert_eq!(due(&st), Ok(2), "75+ skipped");
    st.armies[0].column = Some(2);
    lose(&bar, &mut st, 60);
    assert_eq!(
        due(&st),
        Ok(2),
        "the last column every hour, even if the CLT fell (23.1d–e)"
    );
    // 23.1e: never a column left of one used.
    st.armies[0].column = Some(1);
    assert!(due(&st).is_err());
    lose(&bar, &mut st, 80);
    assert!(due(&st).is_err());
    lose(&bar, &mut st, 100);
    assert_eq!(due(&st), Ok(2));
}

#[test]
fn r23_2a_c_the_check_on_the_hour_adds_to_the_modifier_which_never_falls() {
    let bar = big(|t| t);
    let mut st = fresh(&bar);
    lose(&bar, &mut st, 55);
    // Turn 1 (09:00): Blue (CR 2, nothing to spend) rolls 8 in the 50+ column: +5.
    let log = run(&bar, &mut st, Phase::BeginTurn, &[8, 5, 1]);
    assert_logged(
        &log,
        "Army morale (23.1a): Blue CLT 55 = 55 SP lost + 0 SP routed + 0 leader points — checks in the 50+ column",
    );
    assert_logged(
        &log,
        "Red CLT 0 = 0 SP lost + 0 SP routed + 0 leader points — no check (below 50+, 23.1c)",
    );
    assert_logged(
        &log,
        "Army morale check (23.2): Blue d10 8 in the 50+ column: +5, army morale modifier now 5",
    );
    assert_eq!(st.armies[0].morale, 5);
    // Turn 2 (09:20) is not on the hour: no check.
    lose(&bar, &mut st, 110);
    st.turn = 2;
    let log = run(&bar, &mut st, Phase::BeginTurn, &[5, 1]);
    assert_not_logged(&log, "Army morale");
    // Turn 4 (10:00): 110, the 100+ column; a 3 gives O and the modifier stays 5.
    st.turn = 4;
    let log = run(&bar, &mut st, Phase::BeginTurn, &[3, 5, 1]);
    assert_logged(
        &log,
        "Blue d10 3 in the 100+ column: O, no change (modifier 5)",
    );
    assert_eq!(st.armies[0].morale, 5);
    assert_eq!(st.armies[0].column, Some(2));
}

#[test]
fn r23_2b_example_spending_cr_lowers_the_die_and_the_cr_for_the_hour() {
    // E67: CLT 103, army leader CR +3: spending 1 turns a 9 (+10) into an 8 (+5).
    let bar = big(|t| t.replace("cr = 2", "cr = 3"));
    let mut st = fresh(&bar);
    lose(&bar, &mut st, 103);
    run(&bar, &mut st, Phase::BeginTurn, &[]);
    assert_eq!(st.phase, Phase::ArmyMoraleSpend { side: 0 });
    // A CR of 3 may spend 1, never leaving less than 2.
    assert_eq!(legal(&bar, &st), ["spend:0", "spend:1"]);
    let mut no = st.clone();
    let log = act(&bar, &mut st, &["spend:1"], &[9, 5, 1]);
    assert_logged(
        &log,
        "Army morale check (23.2): Blue d10 9 − 1 CR spent (23.2b) = 8 in the 100+ column: +5, army morale modifier now 5",
    );
    // The reduced CR for the initiative, 0 once the army leader is FINISHED (6.1b).
    assert_logged(
        &log,
        "Blue d10 5 + CR 2 (−1 spent on army morale, 23.2b) = 7",
    );
    let a = usize::from(leader(&bar, "A"));
    st.leaders[a].finished = true;
    assert_eq!(bar::initiative::cr(&bar.sc, &st, 0).0, 0);
    st.leaders[a].finished = false;
    // Still 2 on the next turn of the hour; 3 again at the next hour.
    st.turn = 2;
    run(&bar, &mut st, Phase::BeginTurn, &[5, 1]);
    assert_eq!(bar::initiative::cr(&bar.sc, &st, 0).0, 2);
    st.turn = 4;
    run(&bar, &mut st, Phase::BeginTurn, &[]);
    assert_eq!(st.phase, Phase::ArmyMoraleSpend { side: 0 });
    assert_eq!(bar::initiative::cr(&bar.sc, &st, 0).0, 3);
    // Without spending, the 9 gives +10.
    let log = act(&bar, &mut no, &["spend:0"], &[9, 5, 1]);
    assert_logged(
        &log,
        "Blue d10 9 in the 100+ column: +10, army morale modifier now 10",
    );
}

#[test]
fn r23_2b_an_army_leader_of_cr_1_or_2_cannot_spend() {
    let bar = big(|t| t);
    let mut st = fresh(&bar);
    lose(&bar, &mut st, 103);
    assert_eq!(bar::army_morale::spendable(&bar.sc, &st, 0), 0);
    assert_eq!(bar::army_morale::spendable(&bar.sc, &st, 1), 0);
    // No decision: the roll comes at once.
    let log = run(&bar, &mut st, Phase::BeginTurn, &[9, 5, 1]);
    assert_logged(
        &log,
        "Army morale check (23.2): Blue d10 9 in the 100+ column: +10",
    );
}
