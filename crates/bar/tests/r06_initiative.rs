//! Initiative (6.1), wing activation's condition (6.5), End Turn (6.7) and initiative special
//! results (6.9), with the worked examples E2–E4, E8 and E9 of bar-notes section 3.
mod common;
use bar::state::Phase;
use common::*;

fn etn(n: u8) -> bar::Bar {
    mini_with("scenario.toml", |t| {
        t.replace("etn = 12", &format!("etn = {n}"))
    })
    .unwrap()
}

fn choice(side: u8, wing: bool) -> Phase {
    Phase::InitiativeChoice { side, wing }
}

#[test]
fn r6_1_example_cr_2_beats_cr_1_and_sum_8_moves_end_turn() {
    // E2 (6.1e example): A (CR +2) rolls 4, B (CR +1) rolls 4; ETN 7 or less moves the marker.
    let bar = etn(7);
    let mut st = fresh(&bar);
    let log = run(&bar, &mut st, Phase::Initiative, &[4, 4]);
    assert_eq!(
        log[0],
        "Initiative (6.1): Blue d10 4 + CR 2 = 6, Red d10 4 + CR 1 = 5 — Blue wins; sum 8 > ETN 7: END TURN to box 1 (6.7a)"
    );
    assert_eq!(st.phase, choice(0, false));
    assert_eq!(st.end_box, 1);
    // With ETN 8 the sum does not exceed it.
    let bar = etn(8);
    let mut st = fresh(&bar);
    let log = run(&bar, &mut st, Phase::Initiative, &[4, 4]);
    assert_logged(&log, "sum 8 ≤ ETN 8: END TURN stays (6.7a)");
    assert_eq!(st.end_box, 0);
}

#[test]
fn r6_1b_army_leader_cr_less_2_when_finished_less_cr_spent_never_below_0() {
    let bar = mini();
    let (a, k) = (leader(&bar, "A"), leader(&bar, "K"));
    let mut st = fresh(&bar);
    assert_eq!(bar::initiative::cr(&bar.sc, &st, 0).0, 2);
    st.leaders[usize::from(a)].finished = true;
    assert_eq!(bar::initiative::cr(&bar.sc, &st, 0).0, 0);
    st.leaders[usize::from(a)].finished = false;
    st.armies[0].cr_spent = 1;
    assert_eq!(bar::initiative::cr(&bar.sc, &st, 0).0, 1);
    st.leaders[usize::from(a)].finished = true;
    assert_eq!(bar::initiative::cr(&bar.sc, &st, 0).0, 0, "never below 0");
    // Red's CR 1, FINISHED: 0, not an underflow.
    st.leaders[usize::from(k)].finished = true;
    assert_eq!(bar::initiative::cr(&bar.sc, &st, 1).0, 0);
    // In the roll: Blue 5 + 0 ties Red 4 + 1 (with the printed CR 2 Blue would win).
    st.leaders[usize::from(k)].finished = false;
    st.armies[0].cr_spent = 0;
    let log = run(&bar, &mut st, Phase::Initiative, &[5, 4, 5, 1]);
    assert_logged(
        &log,
        "Blue d10 5 + CR 0 (−2 FINISHED, 6.1b) = 5, Red d10 4 + CR 1 = 5 — tie",
    );
}

#[test]
fn r6_1c_a_tie_is_rolled_again_and_still_moves_end_turn() {
    // E3: a tie whose unmodified sum exceeds the ETN moves the marker; the dice are rolled again.
    let bar = etn(7);
    let mut st = fresh(&bar);
    let log = run(&bar, &mut st, Phase::Initiative, &[5, 6, 3, 1]);
    assert_eq!(
        log[0],
        "Initiative (6.1): Blue d10 5 + CR 2 = 7, Red d10 6 + CR 1 = 7 — tie: roll again (6.1c); sum 11 > ETN 7: END TURN to box 1 (6.7a)"
    );
    assert_logged(
        &log,
        "Blue d10 3 + CR 2 = 5, Red d10 1 + CR 1 = 2 — Blue wins",
    );
    assert_eq!(st.end_box, 1);
    assert_eq!(st.phase, choice(0, false));
}

#[test]
fn r6_1c_special_results_move_end_turn_double_zero_is_rolled_again() {
    // One 0 (a special result) with sum 9 > ETN 7: the marker moves (6.1c).
    let bar = etn(7);
    let mut st = fresh(&bar);
    let log = run(&bar, &mut st, Phase::Initiative, &[0, 9]);
    assert_logged(&log, "Initiative Special Result (6.9a) read with 9 for Red");
    assert_logged(&log, "sum 9 > ETN 7: END TURN to box 1");
    assert_eq!(st.end_box, 1);
    // The test chart's 9: he must activate a brigade.
    assert_eq!(st.phase, Phase::ChooseBrigade { side: 1 });
    // 6.9b (4.0 B): two 0s are rolled again, and are no special result.
    let mut st = fresh(&bar);
    let log = run(&bar, &mut st, Phase::Initiative, &[0, 0, 3, 1]);
    assert!(
        log[0].contains("both rolled 0: roll again (4.0 B)"),
        "{log:?}"
    );
    assert_eq!(st.isr, 0);
    assert_eq!(st.phase, choice(0, false));
}

#[test]
fn r6_1e_one_side_without_brigades_both_still_roll() {
    let bar = etn(7);
    let mut st = fresh(&bar);
    all_activated(&bar, &mut st, 0);
    // Blue wins but has nothing to activate: Red activates; the marker still moves.
    let log = run(&bar, &mut st, Phase::Initiative, &[7, 1]);
    assert_logged(&log, "Blue wins; sum 8 > ETN 7: END TURN to box 1");
    assert_eq!(st.phase, Phase::ChooseBrigade { side: 1 });
    assert_eq!(legal(&bar, &st), ["activate:c1", "activate:c2"]);
    // Red wins: he activates his own; he cannot make Blue activate.
    let mut st = fresh(&bar);
    all_activated(&bar, &mut st, 0);
    run(&bar, &mut st, Phase::Initiative, &[1, 8]);
    assert_eq!(st.phase, choice(1, false));
    assert_eq!(legal(&bar, &st), ["own:c1", "own:c2"]);
    // Neither side has a brigade left: no roll, the rally phase.
    let mut st = fresh(&bar);
    all_activated(&bar, &mut st, 0);
    all_activated(&bar, &mut st, 1);
    let log = run(&bar, &mut st, Phase::Initiative, &[5, 3]);
    assert!(
        log[0].starts_with("Rally phase (4.0 D): Blue d10 5, Red d10 3"),
        "{log:?}"
    );
}

#[test]
fn r6_7_example_end_turn_from_box_5_makes_the_rest_limited() {
    // E8: ETN 12, the marker on box 5 of 6; Blue has no brigade left, Red two.
    let bar = mini();
    let mut st = fresh(&bar);
    st.end_box = 5;
    all_activated(&bar, &mut st, 0);
    let log = run(&bar, &mut st, Phase::Initiative, &[5, 6]);
    assert_logged(&log, "sum 11 ≤ ETN 12: END TURN stays");
    assert_eq!(st.phase, Phase::ChooseBrigade { side: 1 });
    let log = act(&bar, &mut st, &["activate:c1"], &[]);
    assert_logged(&log, "Red: activation (6.3) of Red brigade 1");
    // 9 + 2 beats 6 + 1, but Blue has no brigade: Red activates (6.1e).
    let log = act(&bar, &mut st, &["command-done", "movement-done"], &[9, 6]);
    assert_logged(
        &log,
        "sum 15 > ETN 12: END TURN to End — limited activations for the rest of the turn (6.7a–b)",
    );
    assert_eq!(st.end_box, 6);
    assert!(st.brigades[usize::from(brigade(&bar, "c2"))].limited);
    let log = act(&bar, &mut st, &["activate:c2"], &[]);
    assert_logged(&log, "Red: limited activation (6.8) (6.3) of Red brigade 2");
    assert!(st.activation.as_ref().is_some_and(|a| a.limited));
}

#[test]
fn r6_7b_after_end_both_sides_activate_limited_and_6_7c_the_roll_decides_who() {
    let bar = mini();
    let mut st = fresh(&bar);
    st.end_box = 5;
    // 8 + 2 = 10 beats 7 + 1 = 8; sum 15 > 12: End.
    run(&bar, &mut st, Phase::Initiative, &[8, 7]);
    assert_eq!(st.end_box, 6);
    for b in ["b1", "b2", "b3", "c1", "c2"] {
        assert!(st.brigades[usize::from(brigade(&bar, b))].limited, "{b}");
    }
    assert_eq!(st.phase, choice(0, false));
    let log = act(&bar, &mut st, &["own:b3"], &[]);
    assert_logged(
        &log,
        "Blue: limited activation (6.8) (6.3) of Blue brigade 3",
    );
    // 6.7c: after End the roll still decides who activates: Red 8 + 1 beats Blue 1 + 2.
    act(&bar, &mut st, &["command-done", "movement-done"], &[1, 8]);
    assert_eq!(st.phase, choice(1, false));
    // 6.7d: only Red has brigades; a special result is still read.
    let mut st = fresh(&bar);
    st.end_box = 6;
    all_activated(&bar, &mut st, 0);
    let log = run(&bar, &mut st, Phase::Initiative, &[0, 8]);
    assert_logged(&log, "Initiative Special Result (6.9a) read with 8 for Red");
    assert_eq!(st.phase, choice(1, false));
}

#[test]
fn r6_5a_wing_activation_needs_double_and_wan() {
    // E4: Blue's WAN is 7.
    let bar = mini();
    for (dice, wing) in [
        ([8, 4], true),  // ≥ WAN and double
        ([8, 5], false), // not double
        ([6, 3], false), // double but below the WAN
        ([7, 3], true),  // the WAN exactly, more than double
        ([7, 4], false), // 7 < 8
    ] {
        let mut st = fresh(&bar);
        run(&bar, &mut st, Phase::Initiative, &dice);
        assert_eq!(st.phase, choice(0, wing), "{dice:?}");
        assert_eq!(
            legal(&bar, &st).contains(&"wing:w".to_string()),
            wing,
            "{dice:?}"
        );
    }
}

#[test]
fn r6_5b_a_finished_or_absent_wing_leader_gives_no_wing_activation() {
    let bar = mini();
    let mut st = fresh(&bar);
    st.leaders[usize::from(leader(&bar, "W"))].finished = true;
    run(&bar, &mut st, Phase::Initiative, &[8, 4]);
    assert_eq!(st.phase, choice(0, false));
    // 21.6c: the wing leader's post is vacant.
    let mut st = fresh(&bar);
    wound(&bar, &mut st, "W");
    run(&bar, &mut st, Phase::Initiative, &[8, 4]);
    assert_eq!(st.phase, choice(0, false));
}

#[test]
fn r6_5b_7_4b_wing_leader_without_loc_rolls_and_a_failure_ends_the_activation() {
    let bar = mini();
    let mut st = fresh(&bar);
    // The army leader (range 8) far from the wing leader.
    put_leader(&bar, &mut st, "A", "1216");
    assert!(hex("1216").distance(hex("0310")) > 8);
    run(&bar, &mut st, Phase::Initiative, &[8, 4]);
    // Fail: d10 5 > initiative 4; the wing leader is FINISHED, back to the initiative.
    let log = act(&bar, &mut st, &["wing:w"], &[5, 3, 1]);
    assert_logged(
        &log,
        "Leader initiative (7.4b): Blue wing leader d10 5 > 4 — out of command",
    );
    assert!(st.leaders[usize::from(leader(&bar, "W"))].finished);
    assert_logged(
        &log,
        "Blue d10 3 + CR 2 = 5, Red d10 1 + CR 1 = 2 — Blue wins",
    );
    // The wing's brigades are unaffected.
    assert_eq!(st.phase, choice(0, false));
    assert_eq!(legal(&bar, &st), ["own:b1", "own:b2", "own:b3", "opponent"]);
    // Pass: d10 4 ≤ 4, the wing activation goes on.
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "A", "1216");
    run(&bar, &mut st, Phase::Initiative, &[8, 4]);
    let log = act(&bar, &mut st, &["wing:w"], &[4]);
    assert_logged(&log, "Blue wing leader d10 4 ≤ 4 — in command");
    assert_eq!(legal(&bar, &st), ["join:b1", "join:b2"]);
}

#[test]
fn r6_5c_the_wing_brigades_its_leader_reaches_join_at_the_players_option() {
    let bar = mini();
    let mut st = fresh(&bar);
    run(&bar, &mut st, Phase::Initiative, &[8, 4]);
    act(&bar, &mut st, &["wing:w"], &[]);
    assert_eq!(legal(&bar, &st), ["join:b1", "join:b2"]);
    act(&bar, &mut st, &["join:b2"], &[]);
    assert_eq!(legal(&bar, &st), ["join:b1", "join-done"]);
    let log = act(&bar, &mut st, &["join-done"], &[]);
    assert_logged(
        &log,
        "Blue: wing activation (6.5) of Blue left wing: Blue brigade 2",
    );
    assert!(!st.brigades[usize::from(brigade(&bar, "b1"))].activated);
    // 7.4a: a brigade leader beyond the wing leader's range (6) cannot join.
    let mut st = fresh(&bar);
    put_leader(&bar, &mut st, "L1", "0116");
    assert!(hex("0116").distance(hex("0310")) > 6);
    run(&bar, &mut st, Phase::Initiative, &[8, 4]);
    act(&bar, &mut st, &["wing:w"], &[]);
    assert_eq!(legal(&bar, &st), ["join:b2"]);
}

#[test]
fn r6_5d_wing_brigades_activate_as_one_and_6_4b_attach_only_from_outside_the_wing() {
    let bar = mini();
    let mut st = fresh(&bar);
    // FOR 1 (brigade Sc, of the wing) and Y 1 (brigade 3, outside it) stacked with brigade 2's leader.
    put(&bar, &mut st, "for1", &["0311"]);
    put(&bar, &mut st, "y1", &["0311"]);
    run(&bar, &mut st, Phase::Initiative, &[8, 4]);
    act(&bar, &mut st, &["wing:w", "join:b2", "join-done"], &[]);
    let l = legal(&bar, &st);
    assert!(l.contains(&"attach:y1".to_string()), "{l:?}");
    assert!(!l.contains(&"attach:for1".to_string()), "{l:?}");
    // The same position in a brigade activation of brigade 2: FOR 1 may be attached (6.4a).
    let mut st = fresh(&bar);
    put(&bar, &mut st, "for1", &["0311"]);
    run(&bar, &mut st, Phase::Initiative, &[5, 4]);
    act(&bar, &mut st, &["own:b2"], &[]);
    assert!(legal(&bar, &st).contains(&"attach:for1".to_string()));
    // Both brigades of a wing activation are activated together.
    let mut st = fresh(&bar);
    run(&bar, &mut st, Phase::Initiative, &[8, 4]);
    let log = act(
        &bar,
        &mut st,
        &["wing:w", "join:b1", "join:b2", "join-done"],
        &[],
    );
    assert_logged(
        &log,
        "Blue: wing activation (6.5) of Blue left wing: Brigade Sc, Blue brigade 2",
    );
    for u in ["ams1", "ams2", "for1", "for2", "pvp1", "x1", "x2"] {
        assert!(st.units[usize::from(unit(&bar, u))].activated, "{u}");
    }
    // 6.6e: independents and off-brigade leaders may join a wing activation.
    let l = legal(&bar, &st);
    assert!(l.contains(&"independent:i1".to_string()) && l.contains(&"leader:A".to_string()));
}

#[test]
fn r6_5e_the_player_made_to_activate_may_not_wing_activate() {
    let bar = mini();
    let mut st = fresh(&bar);
    // Red 8 + 1 = 9 beats Blue 4 + 2 = 6, 8 ≥ 2 × 4, but Red's WAN is 8 and Red has no wing;
    // Blue wins 8 vs 4 with a wing on offer and makes Red activate: Red only chooses a brigade.
    run(&bar, &mut st, Phase::Initiative, &[8, 4]);
    act(&bar, &mut st, &["opponent"], &[]);
    assert_eq!(st.phase, Phase::ChooseBrigade { side: 1 });
    assert_eq!(legal(&bar, &st), ["activate:c1", "activate:c2"]);
    // Made to activate, Blue (who has a wing) gets no wing either.
    let mut st = fresh(&bar);
    run(&bar, &mut st, Phase::Initiative, &[2, 8]);
    act(&bar, &mut st, &["opponent"], &[]);
    assert_eq!(
        legal(&bar, &st),
        ["activate:b1", "activate:b2", "activate:b3"]
    );
}

#[test]
fn r6_9a_special_result_read_with_the_other_die_for_the_other_player() {
    // E9: Blue rolls 0, Red 6: the test chart's 5–6 (END TURN marker advances) for Red.
    let bar = mini();
    let mut st = fresh(&bar);
    let log = run(&bar, &mut st, Phase::Initiative, &[0, 6, 3, 1]);
    assert_eq!(
        log[0],
        "Initiative (6.1): Blue d10 0, Red d10 6 — one 0: Initiative Special Result (6.9a) read with 6 for Red: the END TURN marker advances a box; roll again; sum 6 ≤ ETN 12: END TURN stays (6.7a)"
    );
    assert_eq!(st.end_box, 1, "by the special result, not the sum");
    assert_eq!(st.isr, 1);
    // Red rolls 0, Blue 8 (7–8: he wins the initiative): for Blue, and no wing activation.
    let mut st = fresh(&bar);
    let log = run(&bar, &mut st, Phase::Initiative, &[8, 0]);
    assert_logged(&log, "read with 8 for Blue: he wins the initiative");
    assert_eq!(st.phase, choice(0, false));
    // Blue rolls 0, Red 7: for Red.
    let mut st = fresh(&bar);
    run(&bar, &mut st, Phase::Initiative, &[0, 7]);
    assert_eq!(st.phase, choice(1, false));
}

#[test]
fn r6_9c_after_the_limit_a_zero_is_an_ordinary_roll() {
    let bar = mini_with("scenario.toml", |t| {
        t.replace("etn = 12", "etn = 12\nisr_limit = 1")
    })
    .unwrap();
    // Below the limit: Red's 0 gives Blue the special result 7 (he wins the initiative).
    let mut st = fresh(&bar);
    run(&bar, &mut st, Phase::Initiative, &[7, 0]);
    assert_eq!(st.isr, 1);
    assert_eq!(st.phase, choice(0, false));
    // The limit reached: 7 + 2 = 9 against 0 + 1 = 1, and 7 ≥ WAN 7, 7 ≥ 2 × 0: a wing
    // activation (A7, literal).
    let mut st = fresh(&bar);
    st.isr = 1;
    let log = run(&bar, &mut st, Phase::Initiative, &[7, 0]);
    assert_logged(
        &log,
        "Blue d10 7 + CR 2 = 9, Red d10 0 + CR 1 = 1 — Blue wins",
    );
    assert_eq!(st.phase, choice(0, true));
    assert_eq!(st.isr, 1);
}

#[test]
fn r6_9a_a_recovery_result_rallies_the_disordered_units_with_a_leader_of_the_other_player() {
    // Blue rolls 0, Red 3 (the test chart's 3–4): Red's disordered units stacked with a leader
    // recover; Blue's do not; the roll is logged first.
    let bar = mini();
    let mut st = fresh(&bar);
    let (z1, a1) = (
        usize::from(unit(&bar, "z1")),
        usize::from(unit(&bar, "ams1")),
    );
    st.units[z1].disordered = true;
    st.units[a1].disordered = true;
    let log = run(&bar, &mut st, Phase::Initiative, &[0, 3, 3, 1]);
    assert!(
        log[0].starts_with("Initiative (6.1): Blue d10 0, Red d10 3 — one 0"),
        "{log:#?}"
    );
    assert_eq!(
        log[1],
        "Disorder recovery (18.6b): Z 1 stacked with Red brigade 1 leader — back in order"
    );
    assert!(!st.units[z1].disordered);
    assert!(st.units[a1].disordered);
}
