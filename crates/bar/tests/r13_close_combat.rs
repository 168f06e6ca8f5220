//! Close combat (13.0–13.11) on the drill ground `tests/data/cc` with the test charts
//! `tests/data/ccbox` (the movement test charts plus a test T13 whose ratio columns all read the
//! same row, so that a test picks the result with the dice: difference ≤ −5 '2R/-', −4…−3
//! '1M/1M', −2…−1 'M/M', 0 '-/-', 1…2 '1D/2R', 3…4 '1D/1R', 5…6 '-/2R', ≥ 7 '-/S'; T14 with the
//! book's (0, 3) → '2/2*'). Dice: a morale check is two d10 (tens, units); 9, 9 passes, 1, 0
//! (10) fails without a special result.
pub mod cc;
mod common;
use cc::*;
use common::*;
use engine::Ruleset;

#[test]
fn r13_1_no_attack_possible_passes_through_without_a_decision() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "e1", "0407", "S");
    activate(&bar, &mut st, &["i1"]);
    let log = close_combat(&bar, &mut st, &[]);
    assert_not_logged(&log, "Close combat");
    assert!(!matches!(st.phase, bar::state::Phase::CcDecision(_)));
}

#[test]
fn r13_1a_b_only_eligible_stacks_are_offered_and_designation_is_voluntary() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "e1", "0607", "S");
    // i2 is in square next to e2: 13.1b, not entitled.
    place_as(&bar, &mut st, "i2", &["0710"], "N", "square");
    place(&bar, &mut st, "e2", "0610", "S");
    // i3 is shaken: 13.1a.
    place(&bar, &mut st, "i3", "0712", "N");
    place(&bar, &mut st, "r2", "0612", "S");
    st.units[usize::from(unit(&bar, "i3"))].shaken = true;
    activate(&bar, &mut st, &["i1", "i2", "i3"]);
    close_combat(&bar, &mut st, &[]);
    let l = legal(&bar, &st);
    assert_eq!(l, vec!["attack:i1", "cc-done"], "{l:?}");
    // Declining ends the phase and the activation.
    let log = act(&bar, &mut st, &["cc-done"], &[]);
    assert_logged(&log, "Close combat (13.1c): no close combat attack");
    assert_logged(&log, "activation ends");
}

#[test]
fn r13_2_a_failed_attacker_morale_check_shakes_and_cancels_the_attack() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "e1", "0607", "S");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    let log = fight(&bar, &mut st, &["attack:i1", "cc-done"], &[1, 0]);
    assert_logged(
        &log,
        "Attacker morale (close combat) (13.2, morale check B): IR 1/I",
    );
    assert_logged(&log, "shaken, does not attack (13.2a)");
    assert!(st.units[usize::from(unit(&bar, "i1"))].shaken);
    assert_not_logged(&log, "Defender morale");
    assert_not_logged(&log, "Close combat (13.6)");
}

#[test]
fn r13_6b_a_stack_adjacent_to_two_defending_hexes_attacks_both_in_one_combat_shared_with_another() {
    let bar = field();
    let mut st = fresh(&bar);
    // i1 at 0707 facing N has 0607 and 0606 in its ZOC; i2 at 0708 facing N has 0608 and 0607.
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "i2", "0708", "N");
    place(&bar, &mut st, "e1", "0606", "S");
    place(&bar, &mut st, "e2", "0607", "S");
    activate(&bar, &mut st, &["i1", "i2"]);
    close_combat(&bar, &mut st, &[]);
    let log = fight(
        &bar,
        &mut st,
        &["attack:i1", "attack:i2", "cc-done"],
        &[9, 9, 9, 9],
    );
    // One combat: i1 must attack e1 and e2 together; i2 shares e2 (A38).
    let defs: Vec<&String> = log
        .iter()
        .filter(|l| l.starts_with("Close combat (13.6)"))
        .collect();
    assert_eq!(defs.len(), 1, "{log:#?}");
    assert!(defs[0].contains("IR 1/I and IR 1/II attack"), "{}", defs[0]);
    assert!(
        defs[0].ends_with("Red IR in 0606 and Red IR 2 in 0607"),
        "{}",
        defs[0]
    );
    // 13.6d: the record of the phase holds each unit once; the invariant holds.
    assert!(
        bar.check_invariants(&st).is_empty(),
        "{:?}",
        bar.check_invariants(&st)
    );
}

#[test]
fn r13_0_the_attacker_chooses_the_order_of_two_separate_combats() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "e1", "0607", "S");
    place(&bar, &mut st, "i2", "0712", "N");
    place(&bar, &mut st, "e2", "0612", "S");
    activate(&bar, &mut st, &["i1", "i2"]);
    close_combat(&bar, &mut st, &[]);
    fight(
        &bar,
        &mut st,
        &["attack:i1", "attack:i2", "cc-done"],
        &[9, 9, 9, 9],
    );
    let l = legal(&bar, &st);
    assert_eq!(l, vec!["cc-fight:i1", "cc-fight:i2"]);
    // The second first: its defender tests first.
    let log = act(&bar, &mut st, &["cc-fight:i2"], &[9, 9, 5, 5]);
    let first = log
        .iter()
        .position(|l| l.contains("Defender morale"))
        .unwrap(); // logged
    assert!(log[first].contains(&bar.sc.units[usize::from(unit(&bar, "e2"))].name));
}

#[test]
fn r13_7_defender_morale_fails_shaken_then_a_shaken_defender_routs_and_the_attacker_advances() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "e1", "0607", "S");
    st.units[usize::from(unit(&bar, "e1"))].shaken = true;
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    let mut log = fight(&bar, &mut st, &["attack:i1", "cc-done"], &[9, 9, 1, 0]);
    settle(&bar, &mut st, &mut log);
    assert_logged(
        &log,
        "Defender morale (close combat) (13.7a, morale check B)",
    );
    assert_logged(&log, "already shaken: routs (19.1c)");
    assert_logged(&log, "Rout retreat (20.2)");
    assert_logged(&log, "every defending hex is vacated");
    // 13.7e, 15.1a: the attacker must advance into the vacated hex.
    assert_eq!(legal(&bar, &st), vec!["cc-advance:i1:0607"]);
    let log = act(&bar, &mut st, &["cc-advance:i1:0607"], &[]);
    assert_logged(
        &log,
        "Close combat (15.1): IR 1/I advances after combat to 0607",
    );
    assert_eq!(hexes_of(&bar, &st, "i1"), vec!["0607"]);
}

#[test]
fn r13_7d_a_routed_defender_loses_1_sp_and_routs_again_without_a_check() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "e1", "0607", "S");
    st.units[usize::from(unit(&bar, "e1"))].routed = true;
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    let mut log = fight(&bar, &mut st, &["attack:i1", "cc-done"], &[9, 9]);
    settle(&bar, &mut st, &mut log);
    assert_logged(&log, "already routed: loses 1 SP and routs again");
    assert_not_logged(&log, "Defender morale");
    assert_eq!(st.units[usize::from(unit(&bar, "e1"))].lost, 1);
}

#[test]
fn r19_9c_a_non_cavalry_defender_attacked_by_cavalry_adds_5_to_its_er() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "k1", "0707", "N");
    place(&bar, &mut st, "e1", "0607", "S");
    activate(&bar, &mut st, &["k1"]);
    close_combat(&bar, &mut st, &[]);
    let log = fight(
        &bar,
        &mut st,
        &["attack:k1", "cc-done"],
        &[9, 9, 9, 9, 5, 5],
    );
    let line = log.iter().find(|l| l.contains("Defender morale")).unwrap(); // logged
    assert!(line.contains("+ 5 (cavalry attack"), "{line}");
}

#[test]
fn r13_9_20_1_light_infantry_attacked_by_line_infantry_may_retreat_before_combat() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "rl", "0607", "S");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    fight(&bar, &mut st, &["attack:i1", "cc-done"], &[9, 9]);
    let l = legal(&bar, &st);
    assert!(l.contains(&"cc-stand".to_string()), "{l:?}");
    let w: Vec<&String> = l.iter().filter(|x| x.starts_with("cc-withdraw:")).collect();
    assert!(!w.is_empty(), "{l:?}");
    // 20.1a: every end hex is farther from the attacker, one or two hexes away.
    for x in &w {
        let h = hex(&x["cc-withdraw:".len()..]);
        assert!(
            h.distance(hex("0707")) > 1 && h.distance(hex("0607")) <= 2,
            "{x}"
        );
    }
    let target = w.last().unwrap().to_string(); // non-empty
    let log = act(&bar, &mut st, &[target.as_str()], &[9, 9]);
    assert_logged(&log, "retreats before close combat");
    assert_logged(
        &log,
        "Retreat before close combat (13.9c, 20.1a, morale check D)",
    );
    assert_not_logged(&log, "Defender morale");
    // 13.9a: all defenders gone: the attacker must advance (no pursuit).
    assert_eq!(legal(&bar, &st), vec!["cc-advance:i1:0607"]);
}

#[test]
fn r13_9_20_1_a_fusilier_may_not_retreat_before_combat() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "e1", "0607", "S");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    let log = fight(
        &bar,
        &mut st,
        &["attack:i1", "cc-done"],
        &[9, 9, 9, 9, 5, 5],
    );
    assert_logged(&log, "Defender morale");
    assert!(
        !legal(&bar, &st)
            .iter()
            .any(|x| x.starts_with("cc-withdraw"))
    );
}

#[test]
fn r13_11a_e51_sps_of_single_and_multi_hex_formations() {
    let bar = field();
    // COR 4 SP in one hex: 4.
    let mut st = fresh(&bar);
    place(&bar, &mut st, "cor", "0707", "N");
    place(&bar, &mut st, "e1", "0607", "S");
    activate(&bar, &mut st, &["cor"]);
    close_combat(&bar, &mut st, &[]);
    let log = fight(
        &bar,
        &mut st,
        &["attack:cor", "cc-done"],
        &[9, 9, 9, 9, 5, 5],
    );
    assert_logged(&log, "SP attacker COR 4 4 = 4;");
    // MDC 8 SP over 2 hexes, the left hex beside the defender's flank hex: 4 + 2 = 6.
    let mut st = fresh(&bar);
    line(&bar, &mut st, "mdc", "0708", "N", 2);
    place(&bar, &mut st, "e1", "0607", "S");
    activate(&bar, &mut st, &["mdc"]);
    close_combat(&bar, &mut st, &[]);
    let log = fight(
        &bar,
        &mut st,
        &["attack:mdc", "cc-done"],
        &[9, 9, 9, 9, 5, 5],
    );
    assert_logged(
        &log,
        "SP attacker MDC 8 4 + 2 = 6 (hex 2: 4 halved, beside a flank hex) = 6;",
    );
    // 13 SP over 3 hexes (5/4/4): 5 + 2 + 0 = 7.
    let mut st = fresh(&bar);
    line(&bar, &mut st, "c13", "0708", "N", 3);
    place(&bar, &mut st, "e1", "0607", "S");
    activate(&bar, &mut st, &["c13"]);
    close_combat(&bar, &mut st, &[]);
    let log = fight(
        &bar,
        &mut st,
        &["attack:c13", "cc-done"],
        &[9, 9, 9, 9, 5, 5],
    );
    assert_logged(
        &log,
        "SP attacker KR 13 5 + 2 + 0 = 7 (hex 2: 4 halved, beside a flank hex; hex 3: 4 not adjacent) = 7;",
    );
}

#[test]
fn r13_11_e52_whole_ratios_beyond_the_table_add_to_the_die() {
    let bar = field();
    let crt = &bar.sc.charts.combat.as_ref().unwrap().crt; // ccbox has combat.toml
    assert_eq!(crt.column_for(16, 2), (8, 2, 0), "8:1: attacker +2");
    assert_eq!(crt.column_for(1, 4), (0, 0, 1), "1:4: defender +1");
    // In play: 13 SP against a 1-SP defender is 13:1, +7 to the attacker's die.
    let mut st = fresh(&bar);
    place(&bar, &mut st, "c13", "0707", "N");
    place(&bar, &mut st, "r2", "0607", "S");
    st.units[usize::from(unit(&bar, "r2"))].lost = 1;
    activate(&bar, &mut st, &["c13"]);
    close_combat(&bar, &mut st, &[]);
    let log = fight(
        &bar,
        &mut st,
        &["attack:c13", "cc-done"],
        &[9, 9, 9, 9, 1, 9],
    );
    assert_logged(
        &log,
        "ratio column 6:1, attacker +7 to the die (beyond 6:1)",
    );
    assert_logged(&log, "d10 1 +4 (CV) + 7 = 12");
}

#[test]
fn r13_11b_e53_a_line_stack_averages_the_cv_of_the_units_giving_its_first_4_sp_a_hex() {
    let bar = field();
    let mut st = fresh(&bar);
    for id in ["u5", "u4", "u1"] {
        line(&bar, &mut st, id, "0708", "N", 2);
    }
    place(&bar, &mut st, "e1", "0607", "S");
    activate(&bar, &mut st, &["u5", "u4", "u1"]);
    close_combat(&bar, &mut st, &[]);
    let log = fight(
        &bar,
        &mut st,
        &["attack:u5", "cc-done"],
        &[9, 9, 9, 9, 5, 5],
    );
    assert_logged(
        &log,
        "CV attacker mean of IR 5 +3, IR 4 +2 (first 8 SP) = 3;",
    );
}

#[test]
fn r13_11c_e54_a_flank_or_rear_attacker_gets_3_once() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "e1", "0607", "S");
    // C in e1's flank hex 0606, B in e1's rear hex 0507, both facing it.
    face_to(&bar, &mut st, "i1", "0606", "0607");
    place(&bar, &mut st, "i2", "0507", "S");
    let cv = attack_cv(&bar, &mut st, &["i1", "i2"], &[9, 9, 9, 9, 9, 9, 5, 5]);
    assert_eq!(cv.matches("+ 3 (flank attack)").count(), 2, "{cv}");
    // B in the front hex instead: only C.
    let mut st = fresh(&bar);
    place(&bar, &mut st, "e1", "0607", "S");
    face_to(&bar, &mut st, "i1", "0606", "0607");
    place(&bar, &mut st, "i2", "0708", "N");
    let cv = attack_cv(&bar, &mut st, &["i1", "i2"], &[9, 9, 9, 9, 9, 9, 5, 5]);
    assert_eq!(cv.matches("+ 3 (flank attack)").count(), 1, "{cv}");
}

#[test]
fn r13_11c_e55_an_enemy_outside_the_combat_in_the_flank_facing_it_gives_minus_3() {
    let bar = field();
    for (facing_in, expect) in [(true, true), (false, false)] {
        let mut st = fresh(&bar);
        place(&bar, &mut st, "i1", "0707", "N");
        place(&bar, &mut st, "e1", "0607", "S");
        // C = e2 in i1's flank hex 0708, facing i1 (or away).
        if facing_in {
            face_to(&bar, &mut st, "e2", "0708", "0707");
        } else {
            place(&bar, &mut st, "e2", "0708", "NW");
            assert!(!front(&bar, &st, "e2").contains(&"0707".to_string()));
        }
        let cv = attack_cv(&bar, &mut st, &["i1"], &[9, 9, 9, 9, 5, 5]);
        assert_eq!(
            cv.contains("CV attacker IR 1/I +0 − 3 (enemy outside the combat in its flank)"),
            expect,
            "{cv}"
        );
    }
}

#[test]
fn r13_11c_e56_cv_halved_for_losses_then_flank_woods_and_leader_give_0() {
    let bar = field();
    let mut st = fresh(&bar);
    // r6 (CV +2, 6 SP, lost 3) in the woods 1203 with its leader; attacked from its front; a
    // Blue unit outside the combat in its flank hex, facing it.
    place(&bar, &mut st, "r6", "1203", "S");
    st.units[usize::from(unit(&bar, "r6"))].lost = 3;
    put_leader(&bar, &mut st, "M1", "1203");
    let fr = front(&bar, &st, "r6");
    let fl = flank(&bar, &st, "r6");
    face_to(&bar, &mut st, "i1", &fr[0], "1203");
    face_to(&bar, &mut st, "i2", &fl[0], "1203");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    fight(&bar, &mut st, &["attack:i1", "cc-done"], &[9, 9, 9, 9]);
    // 21.2b: the defender chooses whether his leader adds his CV.
    assert_eq!(legal(&bar, &st), vec!["cc-leader:M1", "cc-no-leader"]);
    let log = act(&bar, &mut st, &["cc-leader:M1"], &[5, 5]);
    assert_logged(
        &log,
        "defender Red IR 6 +1 (halved, ≥50% SP lost) − 3 (enemy outside the combat in its flank) + 1 (terrain of the defender's hex and hexside) + 1 (leader Red infantry brigadier) = +0",
    );
}

#[test]
fn r13_10_the_defender_may_fire_defensively_at_the_attacker_in_its_zoc() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "e1", "0607", "S");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    act(&bar, &mut st, &["attack:i1", "cc-done"], &[9, 9, 9, 9]);
    assert_eq!(legal(&bar, &st), vec!["cc-fire", "cc-hold-fire"]);
    assert_eq!(bar.decider(&st), Some(engine::Seat(1)));
    let log = act(&bar, &mut st, &["cc-fire"], &[5, 5, 9, 9, 9, 9, 5, 5, 5, 5]);
    // The fire module resolves it: +20 against infantry (13.10g), the loss, DC (E) (13.10e);
    // the combat goes on with the attacker's remaining SP.
    assert_logged(&log, "Close combat (13.10): defensive fire at IR 1/I");
    assert_logged(&log, "+20 (at infantry, 13.10g)");
    assert_logged(&log, "IR 1/I loses 1 SP: fire (12.9)");
    assert_logged(&log, "disorder check E");
    assert_logged(&log, "SP attacker IR 1/I 5 = 5");
    // A unit fires once a phase (13.10c): the record holds it.
    match &st.phase {
        bar::state::Phase::CcDecision(cc) | bar::state::Phase::CloseCombat(cc) => {
            assert!(cc.fired.contains(&unit(&bar, "e1")))
        }
        _ => {}
    }
}

#[test]
fn r13_6d_the_invariant_flags_a_unit_in_two_combats_of_one_phase() {
    let bar = field();
    let mut st = fresh(&bar);
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "e1", "0607", "S");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    fight(&bar, &mut st, &["attack:i1", "cc-done"], &[9, 9, 9, 9]);
    sound(&bar, &st);
    // A record holding e1 twice breaks 13.6d.
    let e1 = unit(&bar, "e1");
    if let bar::state::Phase::CcDecision(cc) = &mut st.phase {
        cc.engaged.push(e1);
    } else {
        panic!("not in a close combat decision: {:?}", st.phase);
    }
    let bad = bar.check_invariants(&st);
    assert!(
        bad.iter()
            .any(|b| b.contains("in two close combats of one phase (13.6d)")),
        "{bad:?}"
    );
}

#[test]
fn r13_9a_a55_the_order_of_battle_may_say_which_units_are_light() {
    // The Battle Rules list the units that may retreat before combat (13.9a): a unit's `light`
    // overrides the sub-type default. The Jäger declared not light stands; a fusilier declared
    // light may withdraw.
    let bar = field_with_oob(|t| {
        t.replace(
            "id = \"rl\"\nname = \"Red Jäger\"",
            "id = \"rl\"\nlight = false\nname = \"Red Jäger\"",
        )
        .replace("id = \"e1\"\n", "id = \"e1\"\nlight = true\n")
    });
    for (id, may) in [("rl", false), ("e1", true)] {
        let mut st = fresh(&bar);
        place(&bar, &mut st, "i1", "0707", "N");
        place(&bar, &mut st, id, "0607", "S");
        activate(&bar, &mut st, &["i1"]);
        close_combat(&bar, &mut st, &[]);
        fight(
            &bar,
            &mut st,
            &["attack:i1", "cc-done"],
            &[9, 9, 9, 9, 5, 5],
        );
        assert_eq!(
            legal(&bar, &st).contains(&"cc-stand".to_string()),
            may,
            "{id}"
        );
    }
}

/// 13.10c–d: a 2-hex line attacked by two stacks may fire from one hex at the first and from
/// the other at the second; a one-hex unit fires once a phase.
#[test]
fn r13_10c_a_2_hex_line_fires_from_each_hex_at_a_different_attacker() {
    let bar = field();
    let mut st = fresh(&bar);
    line(&bar, &mut st, "e1", "0607", "S", 2);
    // One attacker in front of each hex of the line.
    let (hexes, each) = fronts_of_each_hex(&bar, &st, "e1");
    face_to(&bar, &mut st, "i1", &each[0], &hexes[0]);
    face_to(&bar, &mut st, "i2", &each[1], &hexes[1]);
    activate(&bar, &mut st, &["i1", "i2"]);
    close_combat(&bar, &mut st, &[]);
    act(
        &bar,
        &mut st,
        &["attack:i1", "attack:i2", "cc-done"],
        &[9, 9, 9, 9],
    );
    while legal(&bar, &st).iter().any(|x| x.starts_with("cc-fight:")) {
        let first = legal(&bar, &st)[0].clone();
        act(&bar, &mut st, &[&first], &[]);
    }
    let l = legal(&bar, &st);
    let from_a = format!("cc-fire-from:{}", hexes[0]);
    assert!(
        l.contains(&"cc-fire".to_string()) && l.contains(&from_a),
        "{l:?}"
    );
    let log = act(&bar, &mut st, &[&from_a], &[0, 1, 0, 1, 0, 1, 9, 9]);
    assert_logged(
        &log,
        &format!("Defensive fire (13.10) at IR 1/I: from {}", hexes[0]),
    );
    // The other hex still fires, at the second attacking stack.
    let l = legal(&bar, &st);
    assert_eq!(l, ["cc-fire", "cc-hold-fire"], "{log:#?}");
    let log = act(&bar, &mut st, &["cc-fire"], &[0, 1, 0, 1, 0, 1, 9, 9]);
    assert_logged(
        &log,
        &format!("Defensive fire (13.10) at IR 1/II: from {}", hexes[1]),
    );
}

/// 13.10f: a 2-hex attacking line that defensive fire leaves too weak for two hexes keeps the
/// hex beside the defender, not the one its contraction would keep (the first, 12.9j).
#[test]
fn r13_10f_an_attacker_reduced_to_one_hex_keeps_the_hex_beside_the_defender() {
    let bar = field();
    let mut st = fresh(&bar);
    line(&bar, &mut st, "mdc", "0708", "N", 2);
    let u = unit(&bar, "mdc");
    let hs = st.units[usize::from(u)].hexes;
    // The weakest MDC that still fills two hexes.
    let lost = (0..8u8)
        .rev()
        .find(|&l| {
            let mut t = st.clone();
            t.units[usize::from(u)].lost = l;
            bar::formation::lengths(&bar.sc, &t, &[u], bar::geom::Formation::Line).contains(&2)
        })
        .expect("a 2-hex MDC");
    st.units[usize::from(u)].lost = lost;
    // The defender in front of the second hex only.
    let fronts = front(&bar, &st, "mdc");
    let d = fronts
        .iter()
        .find(|f| hex(f).distance(hs[1]) == 1 && hex(f).distance(hs[0]) > 1)
        .expect("a front hex of the second hex only")
        .clone();
    face_to(&bar, &mut st, "e1", &d, &bar.sc.board.label(hs[1]));
    activate(&bar, &mut st, &["mdc"]);
    close_combat(&bar, &mut st, &[]);
    act(&bar, &mut st, &["attack:mdc", "cc-done"], &[9, 9]);
    assert!(legal(&bar, &st).contains(&"cc-fire".to_string()));
    let log = act(&bar, &mut st, &["cc-fire"], &[9, 8, 9, 9, 9, 9, 9, 9]);
    let now = &st.units[usize::from(u)].hexes;
    assert_eq!(now.len(), 1, "{log:#?}");
    assert_eq!(now[0], hs[1], "{log:#?}");
    assert_logged(&log, "Close combat (13.10f)");
}

/// 19.7e: a multi-hex defender routed by cavalry "involves a potential pursuit": it keeps the hex
/// into which the cavalry can advance — here its second hex, not the first it would keep alone.
#[test]
fn r19_7e_a_2_hex_line_routed_by_cavalry_keeps_the_hex_the_cavalry_can_advance_into() {
    let bar = field();
    let mut st = fresh(&bar);
    line(&bar, &mut st, "e1", "0607", "S", 2);
    let (hexes, each) = fronts_of_each_hex(&bar, &st, "e1");
    face_to(&bar, &mut st, "cor", &each[1], &hexes[1]);
    activate(&bar, &mut st, &["cor"]);
    close_combat(&bar, &mut st, &[]);
    // Both morale checks pass; attacker d10 3 + 4 (CV) − defender d10 1 = +6: '-/2R'.
    let log = act(
        &bar,
        &mut st,
        &["attack:cor", "cc-done", "cc-hold-fire"],
        &[9, 9, 9, 9, 3, 1],
    );
    assert_logged(&log, "→ '-/2R' (T13)");
    assert_logged(&log, &format!("Red IR routs from {} (19.7e)", hexes[1]));
    assert!(st.units[usize::from(unit(&bar, "e1"))].routed, "{log:#?}");
}

#[test]
fn r13_9a_a_stack_that_retreated_before_combat_is_out_of_the_rounds_while_the_others_fight() {
    let bar = field();
    let mut st = fresh(&bar);
    // i1 at 0707 facing N has 0606 and 0607 in its front: one combat against e2 (fusiliers, who
    // must fight) and rl (light infantry, who may withdraw from line infantry, 20.1).
    place(&bar, &mut st, "i1", "0707", "N");
    place(&bar, &mut st, "e2", "0606", "S");
    place(&bar, &mut st, "rl", "0607", "S");
    activate(&bar, &mut st, &["i1"]);
    close_combat(&bar, &mut st, &[]);
    let mut log = fight(&bar, &mut st, &["attack:i1", "cc-done"], &[9, 9]);
    // e2's morale check (B) passes on 6, 2; rl withdraws, its MC (D) passes on 9, 9.
    let l = legal(&bar, &st);
    let to = l.iter().find(|x| x.starts_with("cc-withdraw:")).cloned();
    let to = to.expect("rl may withdraw");
    log.extend(act(&bar, &mut st, &[to.as_str()], &[6, 2, 9, 9]));
    // No defensive fire (only to keep the round's dice simple), then the round on 5, 5.
    log.extend(act(&bar, &mut st, &["cc-hold-fire"], &[5, 5, 9, 9, 9, 9]));
    assert_logged(&log, "Red Jäger retreats before close combat");
    let sp = log.iter().find(|l| l.contains("round 1: SP attacker"));
    let sp = sp.expect("a round is fought");
    assert!(sp.contains("defender Red IR 2 6 = 6;"), "{sp}");
    let cv = log.iter().find(|l| l.contains("(13.11b–c)"));
    let cv = cv.expect("a round is fought");
    assert!(!cv.contains("Jäger"), "{cv}");
    assert!(!cv.contains("mean of"), "{cv}");
    // 14.4: the morale checks (G) after the round are not the withdrawn stack's.
    assert!(
        !log.iter()
            .any(|l| l.contains("morale check G") && l.contains("Jäger")),
        "{log:#?}"
    );
    sound(&bar, &st);
}
