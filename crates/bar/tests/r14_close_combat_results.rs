//! Close combat results (14.1–14.8) and leaders in close combat (21.2b, 21.4d–e) on the drill
//! ground `tests/data/cc` with the test T13 of `tests/data/ccbox` (see `r13_close_combat.rs`:
//! difference ≤ −5 '2R/-', −4…−3 '1M/1M', −2…−1 'M/M', 0 '-/-', 1…2 '1D/2R', 3…4 '1D/1R', 5…6
//! '-/2R', ≥ 7 '-/S'; T14 (0, 3) → '2/2*').
pub mod cc;
mod common;
use bar::state::Phase;
use cc::*;
use common::*;
use engine::Ruleset;

/// i1 (6 SP, CV 0, ER 30) at 0707 facing N attacks e1 (6 SP, CV 0, ER 30) at 0607 facing S;
/// both pass their morale checks (B); the next dice are the round's.
fn duel(bar: &bar::Bar, round: &[u8]) -> (bar::State, Vec<String>) {
    let mut st = fresh(bar);
    place(bar, &mut st, "i1", "0707", "N");
    place(bar, &mut st, "e1", "0607", "S");
    activate(bar, &mut st, &["i1"]);
    close_combat(bar, &mut st, &[]);
    let mut dice = vec![9, 9, 9, 9];
    dice.extend_from_slice(round);
    let mut log = fight(bar, &mut st, &["attack:i1", "cc-done"], &dice);
    settle(bar, &mut st, &mut log);
    (st, log)
}

#[test]
fn r14_1_the_difference_of_the_modified_dice_reads_the_ratio_column() {
    let bar = field();
    // 6 : 6 = 1:1; 5 − 3 = +2 → '1D/2R': the attacker loses 1 and is disordered, the defender
    // loses 2 and routs; the attacker advances.
    let (st, log) = duel(&bar, &[5, 3]);
    assert_logged(
        &log,
        "SP attacker IR 1/I 6 = 6; defender Red IR 6 = 6; ratio column 1:1",
    );
    assert_logged(&log, "difference +2 in column 1:1 → '1D/2R' (T13)");
    assert_eq!(st.units[usize::from(unit(&bar, "i1"))].lost, 1);
    assert!(st.units[usize::from(unit(&bar, "i1"))].disordered);
    assert_eq!(st.units[usize::from(unit(&bar, "e1"))].lost, 2);
    assert!(st.units[usize::from(unit(&bar, "e1"))].routed);
    assert_logged(&log, "the attackers are disordered");
    assert_logged(&log, "Close combat (14.6a): Red IR routs");
    assert_eq!(legal(&bar, &st), vec!["cc-advance:i1:0607"]);
}

#[test]
fn r14_2a_losses_alternate_from_the_attacker() {
    let bar = field();
    // '1M/1M' (difference −3): the attacker's SP first, then the defender's.
    let (_, log) = duel(&bar, &[2, 5, 9, 9, 1, 0]);
    let a = log
        .iter()
        .position(|l| l.starts_with("IR 1/I loses 1 SP"))
        .unwrap(); // logged
    let d = log
        .iter()
        .position(|l| l.starts_with("Red IR loses 1 SP"))
        .unwrap(); // logged
    assert!(a < d, "{log:#?}");
}

#[test]
fn r14_2a_c_e57_the_attackers_wiped_out_the_defender_ignores_its_results_and_the_stack_tests_e() {
    let bar = field();
    let mut st = fresh(&bar);
    // An activated 1-SP infantry, an artillery unit and an inactive infantry unit attack a 2-SP
    // infantry; result '1D/2R'.
    place(&bar, &mut st, "u1", "0707", "N");
    place(&bar, &mut st, "x1", "0707", "N");
    place_as(&bar, &mut st, "g1", &["0707"], "N", "unlimbered");
    for (id, o) in [("u1", 1), ("x1", 2), ("g1", 3)] {
        st.units[usize::from(unit(&bar, id))].order = o;
    }
    place(&bar, &mut st, "r2", "0607", "S");
    activate(&bar, &mut st, &["u1", "g1"]);
    close_combat(&bar, &mut st, &[]);
    // Only the activated infantry takes part (13.1c).
    assert_eq!(legal(&bar, &st), vec!["attack:u1", "cc-done"]);
    // u1 +4 CV: 1 + 4 = 5 against 4 + 0 = 4: +1 → '1D/2R'; then MC (E) 9, 9.
    let log = fight(
        &bar,
        &mut st,
        &["attack:u1", "cc-done"],
        &[9, 9, 9, 9, 1, 4, 9, 9],
    );
    assert_logged(&log, "SP attacker IR 1 det. 1 = 1; defender Red IR 2 2 = 2");
    assert_logged(&log, "→ '1D/2R' (T13)");
    assert_logged(&log, "IR 1 det. is eliminated");
    assert_logged(&log, "the attackers are eliminated: the other side ignores");
    let r2 = &st.units[usize::from(unit(&bar, "r2"))];
    assert_eq!(r2.lost, 0);
    assert!(!r2.routed);
    assert_logged(
        &log,
        "Stacked with attackers eliminated or routed (14.2c, 14.6a, morale check E): Reserve IR (with Battery 6-pdr)",
    );
    sound(&bar, &st);
}

#[test]
fn r14_2b_losses_go_to_the_largest_unit_and_the_owner_chooses_among_equals() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "e1", "0607", "S");
    place(&bar, &mut st, "e2", "0607", "S");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    // 6 : 12 = 1:2; 7 − 0 = +7 … '-/S' would end it; take '1D/2R' with 6 − 4 = +2.
    fight(
        &bar,
        &mut st,
        &["attack:i1", "cc-done"],
        &[9, 9, 9, 9, 6, 4],
    );
    // The attacker's loss first (only i1); then the defender's two: e1 and e2 have 6 each.
    assert!(matches!(st.phase, Phase::CcDecision(_)));
    assert_eq!(legal(&bar, &st), vec!["cc-lose:e1", "cc-lose:e2"]);
    // Red decides.
    assert_eq!(bar.decider(&st), Some(engine::Seat(1)));
    act(&bar, &mut st, &["cc-lose:e2"], &[]);
    // The second SP goes to the larger, e1 (6 against 5): no choice.
    assert_eq!(st.units[usize::from(unit(&bar, "e1"))].lost, 1);
    assert_eq!(st.units[usize::from(unit(&bar, "e2"))].lost, 1);
}

#[test]
fn r14_4_e58_m_two_attackers_the_first_fails_the_second_passes_then_the_defender() {
    let bar = field();
    for defender_passes in [false, true] {
        let mut st = fresh(&bar);
        place(&bar, &mut st, "e1", "0607", "S");
        place(&bar, &mut st, "i1", "0707", "N");
        face_to(&bar, &mut st, "i2", "0708", "0607");
        activate(&bar, &mut st, &["i1", "i2"]);
        close_combat(&bar, &mut st, &[]);
        // MC B ×3; round: 3 − 5 = −2 → 'M/M'; MC G: i1 fails (10), i2 passes, e1 fails or passes.
        let mut dice = vec![9, 9, 9, 9, 9, 9, 3, 5, 1, 0, 9, 9];
        dice.extend_from_slice(if defender_passes { &[9, 9] } else { &[1, 0] });
        dice.extend_from_slice(&[5, 5]);
        let mut log = fight(&bar, &mut st, &["attack:i1", "attack:i2", "cc-done"], &dice);
        settle(&bar, &mut st, &mut log);
        assert_logged(&log, "→ 'M/M' (T13)");
        let g: Vec<&String> = log
            .iter()
            .filter(|l| l.contains("morale check G"))
            .collect();
        assert!(g[0].contains("IR 1/I") && g[0].contains("fails"), "{g:?}");
        assert!(g[1].contains("IR 1/II") && g[1].contains("passes"), "{g:?}");
        assert!(g[2].contains("Red IR"), "{g:?}");
        assert!(st.units[usize::from(unit(&bar, "i1"))].routed);
        assert_eq!(st.units[usize::from(unit(&bar, "i1"))].lost, 1);
        if defender_passes {
            // A new round between the two survivors.
            assert_logged(&log, "both sides hold: a new round");
            assert_logged(
                &log,
                "round 2: SP attacker IR 1/II 6 = 6; defender Red IR 6 = 6",
            );
        } else {
            assert!(st.units[usize::from(unit(&bar, "e1"))].routed);
            assert_eq!(st.units[usize::from(unit(&bar, "e1"))].lost, 1);
            assert_eq!(legal(&bar, &st), vec!["cc-advance:i2:0607"]);
        }
    }
}

#[test]
fn r14_4b_no_attacker_passes_the_defender_wins_without_testing() {
    let bar = field();
    let (st, log) = duel(&bar, &[3, 5, 1, 0]);
    assert_logged(&log, "→ 'M/M' (T13)");
    assert_eq!(
        log.iter().filter(|l| l.contains("morale check G")).count(),
        1,
        "{log:#?}"
    );
    assert_logged(&log, "one side has failed entirely");
    assert!(st.units[usize::from(unit(&bar, "i1"))].routed);
    assert!(!st.units[usize::from(unit(&bar, "e1"))].routed);
}

#[test]
fn r14_5a_later_rounds_drop_the_flank_modifier() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "e1", "0607", "S");
    face_to(&bar, &mut st, "i1", "0606", "0607");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    // i1 +3 flank: 1 + 3 = 4 vs 6: −2 'M/M'; both pass; round 2 without the +3.
    let log = fight(
        &bar,
        &mut st,
        &["attack:i1", "cc-done"],
        &[9, 9, 9, 9, 1, 6, 9, 9, 9, 9, 5, 5],
    );
    let cvs: Vec<&String> = log.iter().filter(|l| l.contains("(13.11b–c)")).collect();
    assert!(cvs[0].contains("+ 3 (flank attack)"), "{cvs:?}");
    assert!(!cvs[1].contains("flank attack"), "{cvs:?}");
}

#[test]
fn r14_5d_e60_cavalry_that_fought_two_rounds_is_disordered_not_after_one() {
    let bar = field();
    for two_rounds in [false, true] {
        let mut st = fresh(&bar);
        place(&bar, &mut st, "k1", "0707", "N");
        place(&bar, &mut st, "e1", "0607", "S");
        activate(&bar, &mut st, &["k1"]);
        close_combat(&bar, &mut st, &[]);
        // k1: CV 0 + 2 (heavy cavalry, first round only); 12 : 6 = 2:1.
        let mut dice = vec![9, 9, 9, 9];
        if two_rounds {
            // 1 + 2 − 5 = −2 'M/M', both hold; round 2 (no cavalry +2; the infantry line +2
            // against cavalry, 13.11c): 9 + 0 − (2 + 2) = +5 '-/2R'.
            dice.extend_from_slice(&[1, 5, 9, 9, 9, 9, 9, 2]);
        } else {
            // 9 + 2 − 6 = +5 '-/2R'.
            dice.extend_from_slice(&[9, 6]);
        }
        let mut log = fight(&bar, &mut st, &["attack:k1", "cc-done"], &dice);
        settle(&bar, &mut st, &mut log);
        assert_logged(&log, "'-/2R' (T13)");
        assert!(st.units[usize::from(unit(&bar, "e1"))].routed);
        assert_eq!(
            st.units[usize::from(unit(&bar, "k1"))].disordered,
            two_rounds,
            "{log:#?}"
        );
        assert_eq!(logged(&log, "Close combat (14.5d)"), two_rounds);
    }
}

#[test]
fn r14_7_surrender_eliminates_the_defender() {
    let bar = field();
    // 9 − 0 … the '0' is special; 9 − 1 = +8 → '-/S'.
    let (st, log) = duel(&bar, &[9, 1]);
    assert_logged(&log, "→ '-/S' (T13)");
    assert_logged(&log, "Red IR is eliminated: surrenders (14.7)");
    assert!(st.units[usize::from(unit(&bar, "e1"))].eliminated);
    // 14.7: the attacking infantry must advance.
    assert_eq!(legal(&bar, &st), vec!["cc-advance:i1:0607"]);
}

#[test]
fn r14_8_e61_special_result_ranking_by_er_and_the_stop_rule() {
    let bar = field();
    for defender_fails in [false, true] {
        let mut st = fresh(&bar);
        place(&bar, &mut st, "e1", "0607", "S");
        place(&bar, &mut st, "a27", "0707", "N");
        face_to(&bar, &mut st, "a23", "0708", "0607");
        // ER 23 at half strength: + 10 = 33.
        st.units[usize::from(unit(&bar, "a23"))].lost = 3;
        activate(&bar, &mut st, &["a27", "a23"]);
        close_combat(&bar, &mut st, &[]);
        // MC B ×3; round dice 0 and 3 → '2/2*'; losses 4 SP (no choice); no leader: '*' ignored;
        // ranking 33 (a23), 30 (e1), 27 (a27): a23 fails; e1 passes (then a27 passes: new round)
        // or fails (then a27 does not test).
        let mut dice = vec![9, 9, 9, 9, 9, 9, 0, 3, 1, 0];
        dice.extend_from_slice(if defender_fails {
            &[1, 0]
        } else {
            &[9, 9, 9, 9]
        });
        dice.extend_from_slice(&[5, 5]);
        let mut log = fight(
            &bar,
            &mut st,
            &["attack:a27", "attack:a23", "cc-done"],
            &dice,
        );
        settle(&bar, &mut st, &mut log);
        assert_logged(&log, "special result '2/2*' (T14)");
        assert_logged(&log, "'*': no leader gave his CV bonus — ignored");
        assert_logged(
            &log,
            "ranking by ER with the morale check (G) modifiers: IR 23 (attacker) 33, Red IR (defender) 30, IR 27 (attacker) 27",
        );
        // Each side loses 2 SP, alternately from the attacker; the attackers' from the largest,
        // a27 (6, then 5, against a23's 3).
        let sp: Vec<&String> = log
            .iter()
            .filter(|l| l.contains("loses 1 SP: close combat special result"))
            .collect();
        assert_eq!(sp.len(), 4, "{sp:?}");
        assert!(
            sp[0].starts_with("IR 27") && sp[2].starts_with("IR 27"),
            "{sp:?}"
        );
        assert!(
            sp[1].starts_with("Red IR") && sp[3].starts_with("Red IR"),
            "{sp:?}"
        );
        let g: Vec<&String> = log
            .iter()
            .filter(|l| l.contains("morale check G"))
            .collect();
        assert!(g[0].contains("IR 23") && g[0].contains("fails"), "{g:?}");
        assert!(st.units[usize::from(unit(&bar, "a23"))].routed);
        if defender_fails {
            assert_eq!(g.len(), 2, "{g:?}");
            assert_logged(&log, "one side has failed entirely");
        } else {
            assert_eq!(g.len(), 3, "{g:?}");
            assert_logged(&log, "both sides hold: a new round");
        }
    }
}

#[test]
fn r14_8b_21_4d_a_leader_whose_cv_was_used_is_killed_on_0_to_3() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "x1", "0707", "N");
    put_leader(&bar, &mut st, "L4", "0707");
    place(&bar, &mut st, "e1", "0607", "S");
    activate(&bar, &mut st, &["x1"]);
    close_combat(&bar, &mut st, &[]);
    fight(&bar, &mut st, &["attack:x1", "cc-done"], &[9, 9, 9, 9]);
    assert_eq!(legal(&bar, &st), vec!["cc-leader:L4", "cc-no-leader"]);
    // Dice 3 and 0 → '2/2*'; the leader's d10 2: killed.
    let log = act(&bar, &mut st, &["cc-leader:L4"], &[3, 0, 2, 9, 9, 9, 9]);
    assert_logged(&log, "+ 1 (leader Blue reserve brigadier)");
    assert_logged(
        &log,
        "Leader loss (21.4, Leader Loss Table): Blue reserve brigadier d10 2 — 0–3: killed (14.8b, 21.4d)",
    );
    assert_eq!(
        st.leaders[usize::from(leader(&bar, "L4"))].status,
        bar::state::LeaderStatus::Killed
    );
}

#[test]
fn r21_4e_a_leader_whose_units_are_all_eliminated_in_close_combat_is_eliminated() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "r2", "0607", "S");
    put_leader(&bar, &mut st, "M1", "0607");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    fight(&bar, &mut st, &["attack:i1", "cc-done"], &[9, 9, 9, 9]);
    // M1 is Red's leader in the defending hex: Red declines his bonus; 6 − 4 = +2 '1D/2R'.
    let log = act(&bar, &mut st, &["cc-no-leader"], &[6, 4]);
    assert!(st.units[usize::from(unit(&bar, "r2"))].eliminated);
    assert_logged(&log, "eliminated in close combat: eliminated (21.4e)");
    assert_eq!(
        st.leaders[usize::from(leader(&bar, "M1"))].status,
        bar::state::LeaderStatus::Killed
    );
}

#[test]
fn r13_6d_seeded_playouts_from_a_close_position_fight_and_end_with_the_invariants_after_every_action()
 {
    let bar = field();
    let mut combats = 0;
    for seed in 0..40u64 {
        let mut st = fresh(&bar);
        st.dice = engine::Dice::new(seed);
        // Blue and Red face each other across rows 06 and 07.
        place(&bar, &mut st, "i1", "0707", "N");
        place(&bar, &mut st, "e1", "0607", "S");
        place(&bar, &mut st, "i2", "0709", "N");
        place(&bar, &mut st, "e2", "0609", "S");
        place(&bar, &mut st, "k1", "0711", "N");
        place(&bar, &mut st, "h1", "0611", "S");
        place(&bar, &mut st, "gr", "0705", "N");
        place(&bar, &mut st, "rl", "0605", "S");
        let mut ev = Vec::new();
        bar::flow::advance(&bar.sc, &mut st, &mut ev);
        let mut pick = engine::Dice::new(seed ^ 0xcc16);
        let mut n = 0;
        while bar.decider(&st).is_some() {
            let bad = bar.check_invariants(&st);
            assert!(bad.is_empty(), "seed {seed}, after {n} actions: {bad:?}");
            let legal = bar.legal_actions(&st);
            assert!(
                !legal.is_empty(),
                "seed {seed}: no action in {:?}",
                st.phase
            );
            // Prefer attacking and ending movement, so that combats happen.
            let a = legal
                .iter()
                .find(|a| {
                    let id = bar.action_id(a);
                    id.starts_with("attack:") || id == "movement-done"
                })
                .cloned()
                .unwrap_or_else(|| legal[pick.below(legal.len())].clone());
            bar.apply_legal(&mut st, &a, &mut ev);
            n += 1;
            assert!(n < 20_000, "seed {seed}: no end after {n} actions");
        }
        assert!(bar.outcome(&st).is_some(), "seed {seed}: not over");
        combats += ev
            .iter()
            .filter(|e| e.to_string().starts_with("Close combat (14.1): dice"))
            .count();
    }
    assert!(combats > 20, "only {combats} combat rounds in 40 games");
}

#[test]
fn r21_4e_a_leader_whose_routed_units_cannot_complete_their_retreat_is_eliminated() {
    let bar = field();
    let mut st = fresh(&bar);
    // r2 (2 SP, shaken) with its leader at 0607, every neighbour held by Blue.
    place(&bar, &mut st, "r2", "0607", "S");
    st.units[usize::from(unit(&bar, "r2"))].shaken = true;
    put_leader(&bar, &mut st, "M1", "0607");
    place(&bar, &mut st, "i1", "0707", "N");
    for (id, h) in [
        ("i2", "0708"),
        ("i3", "0606"),
        ("gr", "0608"),
        ("sp1", "0507"),
        ("jg", "0508"),
    ] {
        face_to(&bar, &mut st, id, h, "0607");
    }
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    // i1 passes; r2 fails its morale check (B) and routs: no hex to enter.
    let log = fight(&bar, &mut st, &["attack:i1", "cc-done"], &[9, 9, 1, 0]);
    assert_logged(&log, "already shaken: routs (19.1c)");
    assert!(
        st.units[usize::from(unit(&bar, "r2"))].eliminated,
        "{log:#?}"
    );
    assert_logged(
        &log,
        "Red infantry brigadier d10 0 — the units he retreated with were eliminated: eliminated (21.4e)",
    );
    assert_eq!(
        st.leaders[usize::from(leader(&bar, "M1"))].status,
        bar::state::LeaderStatus::Killed
    );
}

#[test]
fn r14_8b_the_owner_orders_his_stacks_of_equal_rank() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "e1", "0607", "S");
    place(&bar, &mut st, "i1", "0707", "N");
    face_to(&bar, &mut st, "i2", "0708", "0607");
    activate(&bar, &mut st, &["i1", "i2"]);
    close_combat(&bar, &mut st, &[]);
    // Dice 0 and 5 → '1/1' (test T14); the attacker's SP: i1 or i2, 6 each (14.2b).
    fight(
        &bar,
        &mut st,
        &["attack:i1", "attack:i2", "cc-done"],
        &[9, 9, 9, 9, 9, 9, 0, 5],
    );
    assert_eq!(legal(&bar, &st), vec!["cc-lose:i1", "cc-lose:i2"]);
    let log = act(&bar, &mut st, &["cc-lose:i1"], &[]);
    assert_logged(
        &log,
        "IR 1/I (attacker) 30, IR 1/II (attacker) 30, Red IR (defender) 30",
    );
    // Both attacking stacks rank 30: Blue picks which tests first.
    assert_eq!(legal(&bar, &st), vec!["cc-first:i1", "cc-first:i2"]);
    assert_eq!(bar.decider(&st), Some(engine::Seat(0)));
    let log = act(&bar, &mut st, &["cc-first:i2"], &[9, 9, 9, 9, 9, 9, 5, 5]);
    let g: Vec<&String> = log
        .iter()
        .filter(|l| l.contains("morale check G"))
        .collect();
    assert!(g[0].contains("IR 1/II"), "{g:?}");
    assert!(g[1].contains("IR 1/I ") && g[2].contains("Red IR"), "{g:?}");
}

/// 14.3a: "Artillery and inactive units in the attacker's hex are not disordered if all the
/// attacking infantry stacked with them advances after combat" — and are, when some stays.
#[test]
fn r14_3a_guns_with_attackers_under_d_are_disordered_unless_all_their_infantry_advances() {
    let bar = field();
    for all_advance in [true, false] {
        let mut st = fresh(&bar);
        place(&bar, &mut st, "i1", "0707", "N");
        place(&bar, &mut st, "i2", "0707", "N");
        place_as(&bar, &mut st, "g1", &["0707"], "N", "unlimbered");
        for (id, o) in [("i1", 1), ("i2", 2), ("g1", 3)] {
            st.units[usize::from(unit(&bar, id))].order = o;
        }
        place(&bar, &mut st, "e1", "0607", "S");
        activate(&bar, &mut st, &["i1", "i2", "g1"]);
        close_combat(&bar, &mut st, &[]);
        // 12 : 6 = 2:1; 5 − 3 = +2 → '1D/2R': the attackers disordered, the defender routs.
        let mut log = fight(
            &bar,
            &mut st,
            &["attack:i1", "cc-done"],
            &[9, 9, 9, 9, 5, 3],
        );
        // The attacker's 1 SP: the owner picks between the equal battalions (14.2b).
        log.extend(act(&bar, &mut st, &["cc-lose:i2"], &[]));
        settle(&bar, &mut st, &mut log);
        assert_logged(&log, "→ '1D/2R' (T13)");
        assert!(
            !st.units[usize::from(unit(&bar, "g1"))].disordered,
            "not before the advance"
        );
        let moves: &[&str] = if all_advance {
            &["cc-advance:i1+i2:0607"]
        } else {
            &["cc-advance:i1:0607"]
        };
        log.extend(act(&bar, &mut st, moves, &[]));
        while let Some(x) = legal(&bar, &st)
            .into_iter()
            .find(|x| x == "cc-face-keep" || x == "cc-advance-done")
        {
            log.extend(act(&bar, &mut st, &[&x], &[]));
        }
        assert_eq!(
            st.units[usize::from(unit(&bar, "g1"))].disordered,
            !all_advance,
            "all advance {all_advance}: {log:#?}"
        );
    }
}
