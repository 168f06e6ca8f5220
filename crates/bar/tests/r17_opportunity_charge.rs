//! The opportunity charge (17.0–17.3, 19.1 H) on the pursuit drill ground `tests/data/pursuit`
//! with the test charts of `tests/data/ccbox` (T13: difference ≤ −5 '2R/-', 0 '-/-', 3…4
//! '1D/1R', 5…6 '-/2R').
pub mod cc;
mod common;
use bar::Bar;
use bar::state::{Activation, Phase, State};
use cc::*;
use common::*;

fn field() -> Bar {
    Bar::from_dir(&data().join("pursuit"), &data()).unwrap() // the fixture is valid
}

/// Blue IR 1 (6 SP) in 0707 facing N is activated and about to step forward out of 0707 (a trigger,
/// 12.8d) with Red horse (6 SP heavy cavalry, ER 30, CV 0) placed by `more`; the reactive player
/// is asked.
fn about_to_leave(bar: &Bar, more: impl Fn(&mut State)) -> State {
    let mut st = fresh(bar);
    place(bar, &mut st, "i1", "0707", "N");
    more(&mut st);
    let u = unit(bar, "i1");
    st.units[usize::from(u)].activated = true;
    st.activation = Some(Activation {
        side: 0,
        units: vec![u],
        ..Activation::default()
    });
    st.phase = Phase::Movement;
    act(bar, &mut st, &["move:i1", "step:0607"], &[]);
    st
}

fn u(bar: &Bar, st: &State, id: &str) -> bar::state::UnitState {
    st.units[usize::from(unit(bar, id))].clone()
}

#[test]
fn r17_2a_19_1h_a_failed_morale_check_h_shakes_the_cavalry_and_the_move_goes_on() {
    let bar = field();
    // Red horse beside 0707, facing it: a trigger in its front hex.
    let mut st = about_to_leave(&bar, |st| face_to(&bar, st, "h1", "0708", "0707"));
    assert!(matches!(st.phase, Phase::Reaction { .. }), "{:?}", st.phase);
    assert_eq!(legal(&bar, &st), ["opp-charge:h1", "pass"]);
    // MC (H) 10 against ER 30: fails.
    let log = act(&bar, &mut st, &["opp-charge:h1"], &[1, 0]);
    assert_logged(
        &log,
        "Opportunity charge (17.2a, morale check H): Red horse",
    );
    assert_logged(&log, "shaken, does not charge (17.2a)");
    assert!(u(&bar, &st, "h1").shaken);
    assert_eq!(hexes_of(&bar, &st, "h1"), ["0708"]);
    // Back to the reactive player: no second charge (17.1a shaken, 17.1d); the move goes on.
    assert_eq!(legal(&bar, &st), ["pass"]);
    act(&bar, &mut st, &["pass"], &[]);
    assert_eq!(hexes_of(&bar, &st, "i1"), ["0607"]);
    sound(&bar, &st);
}

#[test]
fn r17_2a_a_charge_from_adjacency_moves_no_hex_and_the_winning_mover_goes_on() {
    let bar = field();
    let mut st = about_to_leave(&bar, |st| face_to(&bar, st, "h1", "0708", "0707"));
    // MC (H) passes; the mover's defender MC (B) passes; round: 1 + 2 + 3 (flank attack) − 9 = −3
    // '1M/1M': each loses 1 SP; the cavalry fails its MC (G) (10): −1 SP and routs; the infantry
    // does not test (14.4b).
    let mut log = act(&bar, &mut st, &["opp-charge:h1"], &[9, 9, 9, 9, 1, 9, 1, 0]);
    settle(&bar, &mut st, &mut log);
    assert_logged(
        &log,
        "Opportunity charge (17.2a): Red horse: the mover is adjacent, no movement needed",
    );
    assert_logged(
        &log,
        "Opportunity charge (17.3): close combat: Red horse attacks IR 1/I",
    );
    assert_logged(
        &log,
        "Defender morale (opportunity charge) (13.7a, 17.3a, morale check B): IR 1/I",
    );
    assert_logged(&log, "'1M/1M' (T13)");
    assert!(u(&bar, &st, "h1").routed);
    // 17.3c: the mover won, in good order: its move goes on.
    assert_logged(
        &log,
        "Opportunity charge (17.3c): IR 1/I may go on with its move",
    );
    assert!(matches!(st.phase, Phase::Reaction { .. }), "{:?}", st.phase);
    assert_eq!(legal(&bar, &st), ["pass"]);
    act(&bar, &mut st, &["pass"], &[]);
    assert_eq!(hexes_of(&bar, &st, "i1"), ["0607"]);
    sound(&bar, &st);
}

#[test]
fn r17_2a_16_1a_a_charge_two_hexes_away_moves_one_hex_and_the_winner_advances_and_pursues() {
    let bar = field();
    // Red horse two hexes from 0707, 0807 (i1's rear) and 0806 in its front.
    let mut st = about_to_leave(&bar, |st| face_to(&bar, st, "h1", "0907", "0807"));
    let l = legal(&bar, &st);
    assert!(l.contains(&"opp-charge:h1".to_string()), "{l:?}");
    act(&bar, &mut st, &["opp-charge:h1"], &[]);
    // A48: the reactive player picks the hex when two are open.
    let to = legal(&bar, &st);
    assert!(
        to.iter().all(|a| a.starts_with("opp-charge-to:")) && !to.is_empty(),
        "{to:?}"
    );
    assert!(to.contains(&"opp-charge-to:0807".to_string()), "{to:?}");
    // MC (H) passes, the mover's MC (B) passes; round: 9 + 2 + 3 (rear attack) − 9 = +5 '-/2R'.
    let mut log = act(&bar, &mut st, &["opp-charge-to:0807"], &[9, 9, 9, 9, 9, 9]);
    settle(&bar, &mut st, &mut log);
    assert_logged(
        &log,
        "Opportunity charge (17.2a): Red horse charges one hex into 0807",
    );
    assert_logged(&log, "'-/2R' (T13)");
    assert!(u(&bar, &st, "i1").routed);
    // The charger advances (15.1) and pursues (16.1a); recalled at once (99), it stops; the
    // mover, routed, has ended its move.
    assert_eq!(legal(&bar, &st), ["cc-advance:h1:0707"]);
    let mut log = act(&bar, &mut st, &["cc-advance:h1:0707"], &[3]);
    assert_logged(
        &log,
        "Pursuit (16.2a): Red horse: pursuit points d10 3 = 3 PP",
    );
    assert!(matches!(st.phase, Phase::Pursuit(_)), "{:?}", st.phase);
    log.extend(act(&bar, &mut st, &["recall"], &[9, 9]));
    assert_logged(
        &log,
        "Opportunity charge (17.3): IR 1/I: routed or eliminated, its move is over",
    );
    assert_eq!(hexes_of(&bar, &st, "h1"), ["0707"]);
    assert!(!matches!(
        st.phase,
        Phase::Reaction { .. } | Phase::Moving(_)
    ));
    sound(&bar, &st);
}

#[test]
fn r17_1a_disordered_cavalry_charges_only_a_trigger_in_its_front_hexes() {
    let bar = field();
    let st = about_to_leave(&bar, |st| {
        face_to(&bar, st, "h1", "0907", "0807");
        st.units[usize::from(unit(&bar, "h1"))].disordered = true;
    });
    assert!(!legal(&bar, &st).contains(&"opp-charge:h1".to_string()));
    assert_eq!(
        hexes_of(&bar, &st, "i1"),
        ["0607"],
        "no reaction: the step is taken"
    );
    let st = about_to_leave(&bar, |st| {
        face_to(&bar, st, "h1", "0708", "0707");
        st.units[usize::from(unit(&bar, "h1"))].disordered = true;
    });
    assert!(legal(&bar, &st).contains(&"opp-charge:h1".to_string()));
}

#[test]
fn r17_1b_no_charge_two_hexes_away_with_an_enemy_in_a_front_hex() {
    let bar = field();
    let st = about_to_leave(&bar, |st| {
        face_to(&bar, st, "h1", "0907", "0807");
        // Blue IR 2 in the other front hex of Red horse.
        let front = front(&bar, st, "h1");
        let other = front.iter().find(|h| *h != "0807").unwrap().clone(); // two front hexes
        place(&bar, st, "i2", &other, "N");
    });
    assert!(!legal(&bar, &st).contains(&"opp-charge:h1".to_string()));
}

#[test]
fn r17_1d_one_charge_per_enemy_a_phase() {
    let bar = field();
    let mut st = about_to_leave(&bar, |st| face_to(&bar, st, "h1", "0708", "0707"));
    // MC (H), MC (B) pass; round: 4 + 2 + 3 (flank attack) − 9 = 0 '-/-': nothing happens, the
    // combat is over.
    let mut log = act(&bar, &mut st, &["opp-charge:h1"], &[9, 9, 9, 9, 4, 9]);
    settle(&bar, &mut st, &mut log);
    assert_logged(&log, "'-/-' (T13)");
    assert!(!u(&bar, &st, "h1").shaken);
    // Back at the same trigger: Red horse may not charge IR 1/I again.
    assert_eq!(legal(&bar, &st), ["pass"]);
}

#[test]
fn r17_2d_a_separating_stack_the_charging_player_picks_the_original_or_the_separated_stack() {
    let bar = field();
    for original in [true, false] {
        let mut st = about_to_leave(&bar, |st| {
            face_to(&bar, st, "h1", "0708", "0707");
            // Blue IR 2 stays in 0707, under IR 1/I.
            place(&bar, st, "i2", "0707", "N");
            st.units[usize::from(unit(&bar, "i1"))].order = 1;
            st.units[usize::from(unit(&bar, "i2"))].order = 2;
        });
        act(&bar, &mut st, &["opp-charge:h1"], &[]);
        assert_eq!(
            legal(&bar, &st),
            ["opp-charge-option:a", "opp-charge-option:b"]
        );
        let choice = if original {
            "opp-charge-option:a"
        } else {
            "opp-charge-option:b"
        };
        // MC (H), MC (B) of the stack pass; round: 4 + 2 + 3 − 9 = 0 '-/-'.
        let mut log = act(&bar, &mut st, &[choice], &[9, 9, 9, 9, 4, 9]);
        settle(&bar, &mut st, &mut log);
        assert_logged(&log, "close combat: Red horse attacks IR 1/I, IR 1/II");
        assert_eq!(
            logged(&log, "the moving units' ER and CV, 17.3b"),
            !original,
            "{log:#?}"
        );
        // 17.3b: the SP of the whole stack.
        assert_logged(&log, "defender IR 1/I, IR 1/II 12 = 12");
        sound(&bar, &st);
    }
}

#[test]
fn r17_3c_the_move_goes_on_but_not_into_the_hex_the_charger_took() {
    let bar = field();
    // Red horse two hexes away, 0607 (the hex IR 1/I is about to enter) in its front.
    let mut st = about_to_leave(&bar, |st| face_to(&bar, st, "h1", "0507", "0607"));
    // MC (H), MC (B) pass; round: 7 + 2 − 9 = 0 '-/-'.
    let dice = [9, 9, 9, 9, 7, 9];
    let mut log = act(&bar, &mut st, &["opp-charge:h1"], &dice);
    if matches!(st.phase, Phase::OppCharge(_)) {
        log = act(&bar, &mut st, &["opp-charge-to:0607"], &dice);
    }
    // IR 1/I holds its defensive fire (13.10).
    if legal(&bar, &st) == ["cc-fire", "cc-hold-fire"] {
        log.extend(act(&bar, &mut st, &["cc-hold-fire"], &[7, 9]));
    }
    settle(&bar, &mut st, &mut log);
    assert_logged(&log, "'-/-' (T13)");
    assert_eq!(hexes_of(&bar, &st, "h1"), ["0607"]);
    assert_eq!(legal(&bar, &st), ["pass"]);
    act(&bar, &mut st, &["pass"], &[]);
    // The step into 0607 is closed: the mover stays in 0707 and chooses again.
    assert_eq!(hexes_of(&bar, &st, "i1"), ["0707"]);
    assert!(matches!(st.phase, Phase::Moving(_)), "{:?}", st.phase);
    assert!(!legal(&bar, &st).contains(&"step:0607".to_string()));
    sound(&bar, &st);
}

#[test]
fn r17_16_random_games_at_close_quarters_charge_pursue_and_keep_the_invariants() {
    use engine::{Dice, Ruleset};
    let bar = field();
    let (mut charges, mut pursuits) = (0, 0);
    for seed in 0..300u64 {
        // Both armies' cavalry and infantry two or three hexes apart, facing each other.
        let mut st = fresh(&bar);
        st.dice = Dice::new(seed);
        for (id, h, f) in [
            ("i1", "0708", "N"),
            ("i2", "0908", "N"),
            ("k1", "0808", "N"),
            ("c17", "0608", "N"),
            ("e1", "0705", "S"),
            ("e2", "0905", "S"),
            ("h1", "0805", "S"),
            ("rc", "0605", "S"),
        ] {
            place(&bar, &mut st, id, h, f);
        }
        let mut ev = Vec::new();
        bar::flow::advance(&bar.sc, &mut st, &mut ev);
        let mut pick = Dice::new(seed ^ 0x17);
        let mut n = 0;
        while bar.decider(&st).is_some() {
            let bad = bar.check_invariants(&st);
            assert!(
                bad.is_empty(),
                "seed {seed}, after {n} actions: {bad:?}; {:?}; {:#?}",
                st.phase,
                ev.iter()
                    .rev()
                    .take(25)
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
            );
            let legal = bar.legal_actions(&st);
            assert!(!legal.is_empty(), "seed {seed}: {:?}", st.phase);
            // Charge, attack and pursue whenever offered, else at random.
            let a = legal
                .iter()
                .find(|a| {
                    let id = bar.action_id(a);
                    id.starts_with("opp-charge:")
                        || id.starts_with("attack:")
                        || id.starts_with("pursue:")
                })
                .cloned()
                .unwrap_or_else(|| legal[pick.below(legal.len())].clone());
            bar.apply_legal(&mut st, &a, &mut ev);
            n += 1;
            assert!(n < 50_000, "seed {seed}: no end");
        }
        for e in &ev {
            match e {
                bar::Event::OppCharge { rule, .. } if rule == "17.3" => charges += 1,
                bar::Event::Pursuit { rule, .. } if rule == "16.2a" => pursuits += 1,
                _ => {}
            }
        }
    }
    assert!(
        charges > 0 && pursuits > 0,
        "{charges} charges, {pursuits} pursuits"
    );
}

/// Issue 19.5: a reaction policy answers an opportunity charge prompt (17.1) by its cavalry
/// setting — "always" charges, "against cavalry" does not charge a moving battalion, "never"
/// passes.
#[test]
fn r17_1_a_reaction_policy_charges_only_as_its_cavalry_setting_says() {
    use engine::Ruleset;
    use engine::policy::{Cavalry, Policy, React};
    let bar = field();
    let st = about_to_leave(&bar, |st| face_to(&bar, st, "h1", "0708", "0707"));
    assert_eq!(legal(&bar, &st), ["opp-charge:h1", "pass"]);
    let answer = |cavalry: Cavalry| {
        let p = Policy {
            react: React::When,
            fire_within: 2,
            cavalry,
        };
        bar.policy_answer(&st, engine::Seat(1), &p)
            .map(|a| bar.action_id(&a))
    };
    assert_eq!(answer(Cavalry::Always).as_deref(), Some("opp-charge:h1"));
    assert_eq!(answer(Cavalry::AgainstCavalry).as_deref(), Some("pass"));
    assert_eq!(answer(Cavalry::Never).as_deref(), Some("pass"));
}

/// 17.3e: Blue KR 1 (12 SP heavy cavalry, ER 28, MA 7) at 0707 facing N is about to step into
/// 0607; Red horse (6 SP) at 0507 charges one hex into 0607 and attacks it through a front hex.
/// MC (H) and KR 1's MC (B) pass; round: 1 + 2 − (9 + 2) = −8 at 1:2 '2R/-': Red horse routs
/// (0608 → … → 0613) and KR 1, which won, must advance into 0607 (15.1a); its pursuit starts
/// with the d10 `pp` (16.2a: faced SW toward 0608).
fn active_cavalry_wins(bar: &Bar, pp: &[u8]) -> (State, Vec<String>) {
    let mut st = fresh(bar);
    place(bar, &mut st, "k1", "0707", "N");
    face_to(bar, &mut st, "h1", "0507", "0607");
    let u = unit(bar, "k1");
    st.units[usize::from(u)].activated = true;
    st.activation = Some(Activation {
        side: 0,
        units: vec![u],
        ..Activation::default()
    });
    st.phase = Phase::Movement;
    act(bar, &mut st, &["move:k1", "step:0607"], &[]);
    act(bar, &mut st, &["opp-charge:h1"], &[]);
    let mut log = act(bar, &mut st, &["opp-charge-to:0607"], &[9, 9, 9, 9, 1, 9]);
    settle(bar, &mut st, &mut log);
    assert_logged(&log, "'2R/-' (T13)");
    assert_eq!(legal(bar, &st), ["cc-advance:k1:0607"]);
    log.extend(act(bar, &mut st, &["cc-advance:k1:0607"], pp));
    (st, log)
}

#[test]
fn r17_3e_active_cavalry_recalled_before_any_pursuit_point_goes_on_with_its_move() {
    let bar = field();
    let (mut st, mut log) = active_cavalry_wins(&bar, &[5]);
    assert_logged(&log, "Pursuit (16.2a): KR 1: pursuit points d10 5 = 5 PP");
    // DC (F) 99: recalled before any PP.
    log.extend(act(&bar, &mut st, &["recall"], &[9, 9]));
    assert_logged(
        &log,
        "Opportunity charge (17.3e): KR 1: recalled before any pursuit, may go on with its move from 0607 (7 MP left)",
    );
    assert_not_logged(&log, "ends its move");
    // On from 0607, facing SW (16.2a's facing; the advance is not movement): all 7 MP left.
    let Phase::Moving(m) = &st.phase else {
        panic!("{:?}", st.phase)
    };
    assert_eq!(m.left.to_string(), "7");
    assert_eq!(facing(&bar, &st, "k1"), "SW");
    let l = legal(&bar, &st);
    assert!(l.contains(&"step:0608".to_string()), "{l:?}");
    act(&bar, &mut st, &["step:0608"], &[]);
    assert_eq!(hexes_of(&bar, &st, "k1"), ["0608"]);
    sound(&bar, &st);
}

#[test]
fn r17_3e_active_cavalry_that_pursued_or_failed_its_recall_ends_its_move() {
    let bar = field();
    // A failed recall (DC F 10): the pursuit goes on, the MPs are ignored.
    let (mut st, mut log) = active_cavalry_wins(&bar, &[5]);
    log.extend(act(&bar, &mut st, &["recall"], &[1, 0]));
    while let Phase::Pursuit(_) = st.phase {
        let l = legal(&bar, &st);
        let a = l
            .iter()
            .find(|a| a.starts_with("pursue:") || *a == "exploit-done" || *a == "pursuit-done")
            .unwrap_or(&l[0])
            .clone();
        log.extend(act(&bar, &mut st, &[a.as_str()], &[9, 9]));
    }
    assert_logged(
        &log,
        "KR 1 ends its move: it advanced after the opportunity charge's combat (17.3e)",
    );
    assert!(!matches!(st.phase, Phase::Moving(_)), "{:?}", st.phase);
    // A recall after one path hex (1 PP spent) passes: too late, the move is over.
    let (mut st, mut log) = active_cavalry_wins(&bar, &[5]);
    let step = legal(&bar, &st)[0].clone();
    log.extend(act(&bar, &mut st, &[step.as_str()], &[]));
    assert!(legal(&bar, &st).contains(&"recall".to_string()));
    log.extend(act(&bar, &mut st, &["recall"], &[9, 9]));
    while let Phase::Pursuit(_) = st.phase {
        let l = legal(&bar, &st);
        let a = if l.contains(&"exploit-done".to_string()) {
            "exploit-done".to_string()
        } else {
            l[l.len() - 1].clone()
        };
        log.extend(act(&bar, &mut st, &[a.as_str()], &[]));
    }
    assert_logged(&log, "recalled, pursuit movement ends");
    assert_logged(&log, "ends its move: it advanced");
    assert_not_logged(&log, "(17.3e): KR 1: recalled before any pursuit");
    sound(&bar, &st);
}

#[test]
fn r17_3e_the_automatic_recall_with_no_pp_spent_counts_but_a_disorder_stops_the_move() {
    // T19 edited: a natural 0 gives 0 PP; pursuit movement ends at once and the automatic
    // recall check (16.2b) passes, no PP used: the move goes on.
    let bar = ground_with("pursuit", "combat.toml", |t| {
        t.replace(
            "text = \"The pursuit points are the re-roll.\"",
            "pp = 0\ntext = \"No pursuit.\"",
        )
    });
    let (st, log) = active_cavalry_wins(&bar, &[0, 4, 9, 9]);
    assert_logged(
        &log,
        "Recall at the end of pursuit movement (16.3, disorder check F)",
    );
    assert_logged(&log, "(17.3e): KR 1: recalled before any pursuit");
    assert!(matches!(st.phase, Phase::Moving(_)), "{:?}", st.phase);
    // The same with the horses blown (disordered at once): the move stops (17.3e "has not
    // suffered a disorder result", 18.5d).
    let bar = ground_with("pursuit", "combat.toml", |t| {
        t.replace(
            "text = \"The pursuit points are the re-roll.\"",
            "pp = 0\ndisorder = true\ntext = \"Blown horses.\"",
        )
    });
    let (st, log) = active_cavalry_wins(&bar, &[0, 4, 9, 9]);
    assert_logged(&log, "disordered at once");
    assert_logged(
        &log,
        "KR 1 stops: disordered by the opportunity charge's combat",
    );
    assert!(!matches!(st.phase, Phase::Moving(_)), "{:?}", st.phase);
    sound(&bar, &st);
}

/// Red IR (6 SP) at 0707 facing N is activated and about to step into 0607 (a trigger, 12.8d);
/// Blue's Cuirassiers 17 (17 SP) stand in a 2-hex line 0907-0908 facing N (front 0806, 0807,
/// 0808), two hexes from it; `more` places other units first.
fn line_two_hexes_away(bar: &Bar, more: impl Fn(&mut State)) -> State {
    let mut st = fresh(bar);
    place(bar, &mut st, "e1", "0707", "N");
    line(bar, &mut st, "c17", "0907", "N", 2);
    more(&mut st);
    let u = unit(bar, "e1");
    st.units[usize::from(u)].activated = true;
    st.activation = Some(Activation {
        side: 1,
        units: vec![u],
        ..Activation::default()
    });
    st.phase = Phase::Movement;
    act(bar, &mut st, &["move:e1", "step:0607"], &[]);
    st
}

#[test]
fn r17_2a_a_multi_hex_line_charges_one_hex_forward_as_a_whole() {
    let bar = field();
    let mut st = line_two_hexes_away(&bar, |_| {});
    let l = legal(&bar, &st);
    assert!(l.contains(&"opp-charge:c17".to_string()), "{l:?}");
    act(&bar, &mut st, &["opp-charge:c17"], &[]);
    // The line's footprint one hex ahead into its front hexes, each named by its first hex
    // (A48: the charging player's choice): 0807-0808 or 0806-0807, both beside 0707.
    assert_eq!(
        legal(&bar, &st),
        ["opp-charge-to:0807", "opp-charge-to:0806"]
    );
    // MC (H) and the mover's MC (B) pass; round: 9 + 7 − 1 at 2:1: '-/S'.
    let mut log = act(&bar, &mut st, &["opp-charge-to:0807"], &[9, 9, 9, 9, 9, 1]);
    settle(&bar, &mut st, &mut log);
    assert_logged(
        &log,
        "Opportunity charge (17.2a): Cuirassiers 17 charges one hex into 0807-0808",
    );
    assert_logged(
        &log,
        "Opportunity charge (17.3): close combat: Cuirassiers 17 attacks Red IR",
    );
    // No facing or formation change (17.2a): a 2-hex line facing N.
    assert_eq!(hexes_of(&bar, &st, "c17"), ["0807", "0808"]);
    assert_eq!(facing(&bar, &st, "c17"), "N");
    sound(&bar, &st);
}

#[test]
fn r17_2a_the_hexes_a_line_enters_must_be_unoccupied() {
    let bar = field();
    // Blue IR 2 in 0806: only 0807-0808 is open, taken without a choice.
    let mut st = line_two_hexes_away(&bar, |st| place(&bar, st, "i2", "0806", "N"));
    act(&bar, &mut st, &["opp-charge:c17"], &[9, 9, 9, 9, 9, 1]);
    assert!(!matches!(st.phase, Phase::OppCharge(_)), "{:?}", st.phase);
    assert_eq!(hexes_of(&bar, &st, "c17"), ["0807", "0808"]);
    // Blue IR 2 in 0807, a hex of both: no charge on offer (17.2b: none could reach).
    let st = line_two_hexes_away(&bar, |st| place(&bar, st, "i2", "0807", "N"));
    assert!(!legal(&bar, &st).contains(&"opp-charge:c17".to_string()));
}
