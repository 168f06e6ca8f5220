//! The two editions of the series' rules (docs/editions.md): every rule that differs between
//! Hastenbeck 1757 and the earlier Fontenoy/Lauffeld book, played in the same situation under
//! both editions. Test names carry the Hastenbeck rule number, then the Fontenoy/Lauffeld one
//! when it differs. The Fontenoy/Lauffeld ruleset is the Hastenbeck scenario with the other
//! `Edition`; where a situation needs data Hastenbeck lacks (Louis XV, the Household, a
//! reinforcement, nationalities, objectives), a clone of the scenario is modified.
mod common;

use common::*;
use hexmap::{Dir, HexId, Vertex};
use saxe::event::Event;
use saxe::scenario::{
    CommanderDef, CommanderIx, HouseholdRule, Nationality, Reinforcement, Scenario, Side, Terrain,
    UnitIx,
};
use saxe::state::{Combat, Frame, GroupKind, Phase, State, flag};
use saxe::{Edition, Saxe};
use std::sync::Arc;

// ------------------------------------------------------------------------------------ helpers

/// The Hastenbeck ruleset and the same scenario under the Fontenoy/Lauffeld rules.
fn both() -> (Saxe, Saxe) {
    let h = rules();
    let fl = Saxe {
        sc: h.sc.clone(),
        options: h.options.clone(),
        edition: Edition::FontenoyLauffeld,
    };
    (h, fl)
}

/// Both editions over a modified copy of the Hastenbeck scenario.
fn both_with(change: impl FnOnce(&mut Scenario)) -> (Saxe, Saxe) {
    let base = rules();
    let mut sc = (*base.sc).clone();
    change(&mut sc);
    let sc = Arc::new(sc);
    (
        Saxe {
            sc: sc.clone(),
            options: base.options.clone(),
            edition: Edition::Hastenbeck,
        },
        Saxe {
            sc,
            options: base.options,
            edition: Edition::FontenoyLauffeld,
        },
    )
}

/// The editions in order, with a flag "is Fontenoy/Lauffeld".
fn editions(h: &Saxe, fl: &Saxe) -> [(Saxe, bool); 2] {
    [(h.clone(), false), (fl.clone(), true)]
}

fn ed(fl: bool) -> &'static str {
    if fl { "F/L" } else { "Hastenbeck" }
}

/// Both editions with the extra Allied field gun of `rules_with_allied_gun`.
fn both_with_allied_gun() -> (Saxe, Saxe, UnitIx) {
    let (hg, gun) = rules_with_allied_gun();
    let flg = Saxe {
        sc: hg.sc.clone(),
        options: hg.options.clone(),
        edition: Edition::FontenoyLauffeld,
    };
    (hg, flg, gun)
}

/// Louis XV added to the French commanders (F/L 0.1: he obeys the army commanders' rules).
fn add_king(sc: &mut Scenario) -> CommanderIx {
    sc.commanders.push(CommanderDef {
        id: "louis-xv".into(),
        name: "Louis XV".into(),
        side: Side::French,
        army: false,
        king: true,
        radius: 0,
        formation: None,
    });
    (sc.commanders.len() - 1) as CommanderIx
}

/// Run the procedures from the current phase until a decision.
fn run(r: &Saxe, s: &mut State) -> Vec<Event> {
    let mut ev = Vec::new();
    r.run(s, &mut ev);
    ev
}

/// Run phase C / D (end of turn) from a quiet state.
fn end_of_turn(r: &Saxe, s: &mut State) -> Vec<Event> {
    s.phase = Phase::EndOfTurn;
    s.frames.clear();
    run(r, s)
}

/// Run the active player's rally phase (Hastenbeck 4.B1) from a quiet state.
fn rally_phase(r: &Saxe, s: &mut State, side: Side) -> Vec<Event> {
    s.active = side;
    s.phase = Phase::Rally;
    s.frames.clear();
    run(r, s)
}

/// The combat `att` → `def` with the defenders (or attackers) in `gone` taken off the map, at the
/// advance stage (11.3); runs until a decision.
fn at_advance(r: &Saxe, s: &mut State, att: &[HexId], def: &[HexId], gone: &[UnitIx]) {
    let mut c: Combat = combat_of(r, s, att, def);
    for &u in gone {
        s.units[usize::from(u)].hex = None;
    }
    c.stage = 5;
    s.frames.push(Frame::Combat(c));
    run(r, s);
}

fn has_id(l: &[String], prefix: &str) -> bool {
    l.iter().any(|i| i.starts_with(prefix))
}

// ------------------------------------------------------------------- 11.4 commander casualties

#[test]
fn r11_4_commander_dies_on_1_to_2_hastenbeck_1_to_3_fl_when_his_units_are_wiped_out() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let mut s = empty_board(&r);
        let du_roi = place(&r, &mut s, "du-roi", go(x, &[Dir::W, Dir::W]), Vertex::N);
        // Broglie's stack was eliminated: he is alone in x.
        let c = place_cmdr(&r, &mut s, "broglie", x);
        s.dice = dice_rolling(&[3]);
        let mut ev = Vec::new();
        r.commander_casualty(&mut s, c, x, true, &mut ev);
        assert_eq!(rolls_of(&ev, "11.4").len(), 1, "{ev:?}");
        let killed = s.commanders[usize::from(c)].aides == 1;
        assert_eq!(killed, fl, "{}: die 3", ed(fl));
        if fl {
            assert!(
                matches!(s.frames.last(), Some(Frame::PlaceAide { .. })),
                "{:?}",
                s.frames
            );
        } else {
            assert_eq!(
                s.commanders[usize::from(c)].hex,
                s.units[usize::from(du_roi)].hex,
                "unhurt, he rejoins his troops (3.2)"
            );
        }
        // After a step loss only: killed on 1 in both editions.
        for (die, dead) in [(1, true), (2, false)] {
            let mut s = empty_board(&r);
            place(&r, &mut s, "du-roi", x, Vertex::N);
            let c = place_cmdr(&r, &mut s, "broglie", x);
            s.dice = dice_rolling(&[die]);
            let mut ev = Vec::new();
            r.commander_casualty(&mut s, c, x, true, &mut ev);
            assert_eq!(
                s.commanders[usize::from(c)].aides == 1,
                dead,
                "{}: step lost, die {die}",
                ed(fl)
            );
        }
    }
}

// ------------------------------------------------------------------------- 13.1 formation morale

#[test]
fn r13_1_dead_commanders_cost_1_and_2_hastenbeck_2_and_3_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let f = formation(&r, "broglie");
        let mut s = empty_board(&r);
        s.formations[usize::from(f)].commanders_lost = 1;
        assert_eq!(
            r.formation_losses(&s, f),
            if fl { 2 } else { 1 },
            "{}",
            ed(fl)
        );
        s.army_commander_lost[Side::French.ix()] = true;
        assert_eq!(
            r.formation_losses(&s, f),
            if fl { 5 } else { 3 },
            "{}",
            ed(fl)
        );
        assert_eq!(
            r.formation_losses(&s, formation(&r, "chevert")),
            if fl { 3 } else { 2 },
            "{}: every formation of the army",
            ed(fl)
        );
    }
}

#[test]
fn r13_1_a_routed_unit_counts_1_hastenbeck_1_per_step_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let f = formation(&r, "broglie");
        let mut s = empty_board(&r);
        // Du Roi: 8 CP, 4 steps; one lost, then routed with 3 steps left.
        let u = place(&r, &mut s, "du-roi", clear_area(&r, 1), Vertex::N);
        s.units[usize::from(u)].lost = 1;
        s.units[usize::from(u)].set(flag::ROUTED, true);
        assert_eq!(
            r.formation_losses(&s, f),
            if fl { 1 + 3 } else { 1 + 1 },
            "{}",
            ed(fl)
        );
    }
}

#[test]
fn r13_1_demoralisation_value_a_third_rounded_up_hastenbeck_to_the_nearest_fl() {
    for (steps, h, fl) in [
        (27, 9, 9),
        (28, 10, 9),
        (29, 10, 10),
        (30, 10, 10),
        (31, 11, 10),
    ] {
        assert_eq!(
            Edition::Hastenbeck.demoralisation_value(steps),
            h,
            "{steps}"
        );
        assert_eq!(
            Edition::FontenoyLauffeld.demoralisation_value(steps),
            fl,
            "{steps}"
        );
    }
    // The F/L example: Hesse-Castel, 29 steps → 10.
    assert_eq!(Edition::FontenoyLauffeld.demoralisation_value(29), 10);
}

#[test]
fn r13_1_demoralised_formation_reorganises_hastenbeck_stays_disorganised_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 3);
        let mut s = empty_board(&r);
        let du_roi = place(&r, &mut s, "du-roi", x, Vertex::N);
        let mailly = place(&r, &mut s, "mailly", go(x, &[Dir::E, Dir::E]), Vertex::N);
        let poitou = place(&r, &mut s, "poitou", go(x, &[Dir::W, Dir::W]), Vertex::N);
        s.units[usize::from(du_roi)].set(flag::DISORG, true);
        s.units[usize::from(mailly)].set(flag::DISORG, true);
        s.units[usize::from(poitou)].set(flag::ROUTED, true);
        s.formations[usize::from(formation(&r, "broglie"))].demoralised = true;
        // Poitou rallies on a 1 (MV 3 − 1 demoralised = 2).
        s.dice = dice_rolling(&[1]);
        if fl {
            end_of_turn(&r, &mut s);
        } else {
            rally_phase(&r, &mut s, Side::French);
        }
        assert_eq!(
            r.has(&s, du_roi, flag::DISORG),
            fl,
            "{}: Du Roi (demoralised Broglie)",
            ed(fl)
        );
        assert!(
            !r.has(&s, mailly, flag::DISORG),
            "{}: Mailly (Contades, not demoralised) reorganises",
            ed(fl)
        );
        // A24 (iv): a routed unit may still rally, and becomes disorganised.
        assert!(!r.has(&s, poitou, flag::ROUTED), "{}", ed(fl));
        assert!(r.has(&s, poitou, flag::DISORG), "{}", ed(fl));
    }
}

// --------------------------------------------------------------------------- 11.4 aide de camp

#[test]
fn r11_4_aide_de_camp_activates_at_minus_1_hastenbeck_no_penalty_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        // 5.1: the activation test shows the value used.
        let x = clear_area(&r, 3);
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        let b = place_cmdr(&r, &mut s, "broglie", x);
        place_cmdr(&r, &mut s, "estrees", go(x, &[Dir::W]));
        s.commanders[usize::from(b)].aides = 1;
        s.dice = dice_rolling(&[3]);
        let ev = act(&r, &mut s, "activate:broglie");
        let roll = rolls_of(&ev, "5.1");
        assert_eq!(roll.len(), 1);
        assert_eq!(
            roll[0].to_string().contains("aide de camp"),
            !fl,
            "{}: {}",
            ed(fl),
            roll[0]
        );

        // 8.6: the reaction test of an Allied cavalry unit whose commander is an aide de camp:
        // less than 3 (Allied value) − 1 (aide) in Hastenbeck, less than 3 in F/L.
        let mut s = empty_board(&r);
        let start = go(x, &[Dir::SW]);
        place(&r, &mut s, "du-roi", start, Vertex::N);
        place_cmdr(&r, &mut s, "broglie", start);
        let cav_hex = go(x, &[Dir::NE, Dir::NE]);
        place(&r, &mut s, "von-urff", cav_hex, Vertex::S);
        let w = place_cmdr(&r, &mut s, "wutginau", cav_hex);
        s.commanders[usize::from(w)].aides = 1;
        activate_auto(&r, &mut s, "broglie");
        act(&r, &mut s, "move-unit:du-roi");
        act(&r, &mut s, "step:NE");
        let l = ids(&r, &s);
        assert!(
            l.contains(&"cavalry-reaction:von-urff".to_string()),
            "{l:?}"
        );
        s.dice = dice_rolling(&[2]);
        let ev = act(&r, &mut s, "cavalry-reaction:von-urff");
        assert_eq!(rolls_of(&ev, "8.6").len(), 1, "{ev:?}");
        let reacts =
            matches!(s.frames.last(), Some(Frame::Moving(m)) if m.kind == GroupKind::Reaction);
        assert_eq!(reacts, fl, "{}: die 2", ed(fl));
    }
}

// ---------------------------------------------------------------------------- 8.6 reaction

#[test]
fn r8_6_cavalry_reacts_to_an_enemy_within_2_hexes_hastenbeck_3_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 3);
        for (dist, offered) in [(2, true), (3, fl)] {
            let mut s = empty_board(&r);
            let start = go(x, &[Dir::SW]);
            place(&r, &mut s, "du-roi", start, Vertex::N);
            place_cmdr(&r, &mut s, "broglie", start);
            let cav_hex = ahead(x, Dir::NE, dist);
            place(&r, &mut s, "von-urff", cav_hex, Vertex::S);
            activate_auto(&r, &mut s, "broglie");
            act(&r, &mut s, "move-unit:du-roi");
            act(&r, &mut s, "step:NE");
            assert_eq!(x.distance(cav_hex), dist as u32);
            let l = ids(&r, &s);
            assert_eq!(
                l.contains(&"cavalry-reaction:von-urff".to_string()),
                offered,
                "{}: enemy {dist} hexes away: {l:?}",
                ed(fl)
            );
        }
    }
}

// -------------------------------------------------------------------- 4.B1 / 4.C rally phase

#[test]
fn r4_b1_rally_in_each_players_phase_hastenbeck_r4_c_both_sides_in_phase_c_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 3);
        let mut s = empty_board(&r);
        let fr = place(&r, &mut s, "du-roi", x, Vertex::N);
        let al = place(&r, &mut s, "von-gilsa", ahead(x, Dir::E, 3), Vertex::S);
        s.units[usize::from(fr)].set(flag::DISORG, true);
        s.units[usize::from(al)].set(flag::DISORG, true);
        // The French phase B begins.
        let ev = rally_phase(&r, &mut s, Side::French);
        assert_eq!(
            r.has(&s, fr, flag::DISORG),
            fl,
            "{}: French unit at the start of the French phase B: {ev:?}",
            ed(fl)
        );
        assert!(r.has(&s, al, flag::DISORG), "{}: not the Allies", ed(fl));
        // End of the turn: F/L phase C reorganises both sides; Hastenbeck nobody.
        let ev = end_of_turn(&r, &mut s);
        assert_eq!(logged(&ev, "4.C: reorganisation phase"), fl, "{ev:?}");
        assert!(!r.has(&s, fr, flag::DISORG), "{}", ed(fl));
        assert_eq!(
            r.has(&s, al, flag::DISORG),
            !fl,
            "{}: Allied unit after the end of the turn",
            ed(fl)
        );
    }
}

// -------------------------------------------------- 4.B5 / 4.B1 step 3: the army commander

#[test]
fn r4_b5_army_commander_moves_after_combat_hastenbeck_r4_b1_3_during_an_activation_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 3);
        let army_hex = go(x, &[Dir::W, Dir::W]);
        for success in [true, false] {
            let mut s = empty_board(&r);
            place(&r, &mut s, "du-roi", x, Vertex::N);
            place_cmdr(&r, &mut s, "broglie", x);
            place_cmdr(&r, &mut s, "estrees", army_hex);
            s.dice = dice_rolling(&[if success { 1 } else { 6 }]);
            act(&r, &mut s, "activate:broglie");
            assert_eq!(top_activation(&s).expect("activation").success, success);
            let l = ids(&r, &s);
            assert_eq!(
                has_id(&l, "commander-step:estrees:"),
                fl,
                "{}: activation {}: {l:?}",
                ed(fl),
                if success {
                    "passed"
                } else {
                    "failed (F/L 5.3)"
                }
            );
        }
        // Phase B5 after the combat phase in Hastenbeck only.
        let mut s = empty_board(&r);
        place_cmdr(&r, &mut s, "estrees", army_hex);
        combat_phase(&mut s, Side::French);
        let mut ev = Vec::new();
        r.next_phase(&mut s, &mut ev);
        assert_eq!(
            matches!(s.phase, Phase::ArmyCommander(6)),
            !fl,
            "{}: {:?}",
            ed(fl),
            s.phase
        );
    }
}

#[test]
fn r8_5_fl_army_commander_moves_6_mp_once_per_turn_during_activations() {
    let (_, r) = both();
    let x = clear_area(&r, 3);
    let army_hex = go(x, &[Dir::W, Dir::W]);
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place_cmdr(&r, &mut s, "broglie", x);
    place(&r, &mut s, "mailly", go(x, &[Dir::E, Dir::E]), Vertex::N);
    place_cmdr(&r, &mut s, "contades", go(x, &[Dir::E, Dir::E]));
    let e = place_cmdr(&r, &mut s, "estrees", army_hex);
    activate_auto(&r, &mut s, "broglie");
    // Two hexes of clear terrain (1 MP each as cavalry).
    let a = go(army_hex, &[Dir::NE]);
    act(&r, &mut s, &format!("commander-step:estrees:{a}"));
    let b = go(a, &[Dir::NE]);
    act(&r, &mut s, &format!("commander-step:estrees:{b}"));
    assert_eq!(s.commanders[usize::from(e)].hex, Some(b));
    assert!(s.commanders[usize::from(e)].moved);
    let act_now = top_activation(&s).expect("activation");
    assert_eq!(act_now.chiefs, vec![(e, 4)], "6 MP − 2");
    act(&r, &mut s, "end-activation");
    // The next activation this turn: he has moved.
    s.dice = dice_rolling(&[1]);
    act(&r, &mut s, "activate:contades");
    let l = ids(&r, &s);
    assert!(!has_id(&l, "commander-step:estrees:"), "{l:?}");
    // Next turn he may move again.
    act(&r, &mut s, "end-activation");
    end_of_turn(&r, &mut s);
    assert!(!s.commanders[usize::from(e)].moved);
    activate_auto(&r, &mut s, "broglie");
    assert!(has_id(&ids(&r, &s), "commander-step:estrees:"));
}

#[test]
fn r8_5_louis_xv_moves_once_per_turn_during_an_activation_fl() {
    let (h, fl) = both_with(|sc| {
        add_king(sc);
    });
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 3);
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place_cmdr(&r, &mut s, "broglie", x);
        place(&r, &mut s, "mailly", go(x, &[Dir::E, Dir::E]), Vertex::N);
        place_cmdr(&r, &mut s, "contades", go(x, &[Dir::E, Dir::E]));
        let kh = go(x, &[Dir::W, Dir::W]);
        let k = place_cmdr(&r, &mut s, "louis-xv", kh);
        activate_auto(&r, &mut s, "broglie");
        let l = ids(&r, &s);
        assert_eq!(
            has_id(&l, "commander-step:louis-xv:"),
            fl,
            "{}: {l:?}",
            ed(fl)
        );
        if !fl {
            continue;
        }
        act(
            &r,
            &mut s,
            &format!("commander-step:louis-xv:{}", go(kh, &[Dir::NE])),
        );
        assert!(s.commanders[usize::from(k)].moved);
        act(&r, &mut s, "end-activation");
        s.dice = dice_rolling(&[1]);
        act(&r, &mut s, "activate:contades");
        assert!(!has_id(&ids(&r, &s), "commander-step:louis-xv:"));
    }
}

#[test]
fn r4_b1_double_action_hastenbeck_always_fl_only_if_the_army_commander_has_not_moved() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 3);
        for moved in [false, true] {
            let mut s = empty_board(&r);
            place(&r, &mut s, "du-roi", x, Vertex::N);
            place_cmdr(&r, &mut s, "broglie", x);
            let e = place_cmdr(&r, &mut s, "estrees", x);
            s.commanders[usize::from(e)].moved = moved;
            activate_auto(&r, &mut s, "broglie");
            let a = top_activation(&s).expect("activation");
            assert_eq!(
                a.actions_left,
                if fl && moved { 1 } else { 2 },
                "{}: army commander moved: {moved}",
                ed(fl)
            );
            if fl && !moved {
                // 4.B1 step 3 comes first: he may move now instead of giving the double action
                // of step 5 (issue 12 finding 6c; the double action is settled at step 5, A7).
                assert_eq!(a.chiefs.len(), 1, "{:?}", a.chiefs);
                assert!(has_id(&ids(&r, &s), "commander-step:estrees:"));
            }
        }
    }
}

// --------------------------------------------------------------- 5.3 failed activation

#[test]
fn r5_3_failed_activation_half_moves_hastenbeck_no_unit_moves_and_full_officer_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place(&r, &mut s, "du-roy", go(x, &[Dir::E, Dir::E]), Vertex::N);
        place_cmdr(&r, &mut s, "broglie", x);
        place_cmdr(&r, &mut s, "estrees", go(x, &[Dir::W]));
        s.dice = dice_rolling(&[6]);
        act(&r, &mut s, "activate:broglie");
        let a = top_activation(&s).expect("activation");
        assert!(!a.success);
        assert_eq!(a.cmdr_mp, if fl { 6 } else { 3 }, "{}", ed(fl));
        let l = ids(&r, &s);
        assert_eq!(
            has_id(&l, "move-unit:") || has_id(&l, "move-stack:"),
            !fl,
            "{}: {l:?}",
            ed(fl)
        );
        assert!(has_id(&l, "commander-step:broglie:"), "{l:?}");
    }
}

// ---------------------------------------------------------------- 6.4 / 6.6 stranded units

#[test]
fn r6_4_r6_6_stranded_units_may_turn_one_vertex_hastenbeck_not_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        // 6.6: an independent unit that failed its activation (die 6 + 1 out of radius).
        let mut s = empty_board(&r);
        place(&r, &mut s, "royal-carabiniers", x, Vertex::N);
        s.dice = dice_rolling(&[6]);
        act(&r, &mut s, "activate-independent:royal-carabiniers");
        assert!(!top_activation(&s).expect("activation").success);
        let l = ids(&r, &s);
        assert_eq!(
            has_id(&l, "turn-in-place:royal-carabiniers:"),
            !fl,
            "{}: {l:?}",
            ed(fl)
        );
        // 6.4: an out-of-command unit of an activated formation.
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        let far =
            r.sc.map
                .hexes()
                .find(|&h| h.distance(x) == 8 && plain(&r, h))
                .expect("a clear hex 8 away");
        let p = place(&r, &mut s, "poitou", far, Vertex::N);
        place_cmdr(&r, &mut s, "broglie", x);
        activate_auto(&r, &mut s, "broglie");
        assert!(r.has(&s, p, flag::OOC));
        let l = ids(&r, &s);
        assert_eq!(
            has_id(&l, "turn-in-place:poitou:"),
            !fl,
            "{}: {l:?}",
            ed(fl)
        );
        assert!(!has_id(&l, "move-unit:poitou"), "{l:?}");
    }
}

// ----------------------------------------------- 8.1 / 8.8 / 9.1 — F/L 8.9, 9.5 in battery

#[test]
fn r8_8_r9_1_fire_or_move_turn_by_turn_hastenbeck_r8_9_in_battery_for_good_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 3);
        let target = go(x, &[Dir::SE, Dir::SW]);
        // Turn 1: the gun fires.
        let mut s = empty_board(&r);
        let g = place(&r, &mut s, "broglie-art-1314", x, Vertex::S);
        place(&r, &mut s, "von-gilsa", target, Vertex::N);
        place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::W]));
        activate_auto(&r, &mut s, "broglie");
        s.dice = dice_rolling(&[1]);
        act(&r, &mut s, &format!("art-fire:broglie-art-1314:{target}"));
        let l = ids(&r, &s);
        assert!(!has_id(&l, "move-unit:broglie-art-1314"), "{l:?}");
        act(&r, &mut s, "end-activation");
        // Turn 2: Hastenbeck lets it move; F/L keeps it in battery (it may still fire).
        end_of_turn(&r, &mut s);
        activate_auto(&r, &mut s, "broglie");
        let l = ids(&r, &s);
        assert_eq!(
            has_id(&l, "move-unit:broglie-art-1314"),
            !fl,
            "{}: the turn after firing: {l:?}",
            ed(fl)
        );
        assert!(has_id(&l, "art-fire:broglie-art-1314:"), "{l:?}");
        assert_eq!(r.has(&s, g, flag::IN_BATTERY), fl);

        // Turn 1: the gun moves; turn 2: Hastenbeck 9.1 forbids it to fire, F/L does not.
        let mut s = empty_board(&r);
        place(&r, &mut s, "broglie-art-1314", x, Vertex::S);
        place(
            &r,
            &mut s,
            "von-gilsa",
            go(x, &[Dir::SW, Dir::SE, Dir::SW]),
            Vertex::N,
        );
        place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::W]));
        activate_auto(&r, &mut s, "broglie");
        act(&r, &mut s, "move-unit:broglie-art-1314");
        act(&r, &mut s, "step:SW");
        act(&r, &mut s, "stop");
        act(&r, &mut s, "end-activation");
        end_of_turn(&r, &mut s);
        activate_auto(&r, &mut s, "broglie");
        let l = ids(&r, &s);
        assert_eq!(
            has_id(&l, "art-fire:broglie-art-1314:"),
            fl,
            "{}: the turn after moving: {l:?}",
            ed(fl)
        );
    }
}

#[test]
fn r9_3_reaction_fire_does_not_pin_a_gun_hastenbeck_r8_9_it_does_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 3);
        let mut s = empty_board(&r);
        let g = place(&r, &mut s, "broglie-art-1314", x, Vertex::S);
        let mut ev = Vec::new();
        let y = go(x, &[Dir::SE]);
        let v = place(&r, &mut s, "von-gilsa", y, Vertex::N);
        s.dice = dice_rolling(&[1]);
        r.resolve_fire(&mut s, g, y, vec![v], true, &mut ev);
        assert!(r.has(&s, g, flag::REACT_FIRED));
        assert_eq!(r.gun_pinned(&s, g), fl, "{}", ed(fl));
    }
}

// ------------------------------------------------------------------ 9.1 artillery range

#[test]
fn r9_1_range_3_hastenbeck_2_or_3_for_16_lb_fl() {
    let (h, fl) = both();
    let x = clear_area(&h, 3);
    let two = go(x, &[Dir::SE, Dir::SW]);
    let three = go(x, &[Dir::SE, Dir::SW, Dir::SE]);
    assert!(Vertex::S.in_fire_arc(x, two) && Vertex::S.in_fire_arc(x, three));
    assert_eq!((x.distance(two), x.distance(three)), (2, 3));
    for (r, fl) in editions(&h, &fl) {
        for (target, reached) in [(two, true), (three, !fl)] {
            let mut s = empty_board(&r);
            let g = place(&r, &mut s, "broglie-art-1314", x, Vertex::S);
            place(&r, &mut s, "von-urff", target, Vertex::N);
            assert_eq!(
                r.fire_targets(&s, g).contains(&target),
                reached,
                "{}: 12 lb at {} hexes",
                ed(fl),
                x.distance(target)
            );
        }
    }
    // A 16 lb gun (Fontenoy) reaches 3 hexes in F/L too.
    let g = h.sc.unit_by_id("broglie-art-1314").expect("gun");
    let (h16, fl16) = both_with(|sc| sc.units[usize::from(g)].calibre = 16);
    for (r, fl) in editions(&h16, &fl16) {
        let mut s = empty_board(&r);
        place(&r, &mut s, "broglie-art-1314", x, Vertex::S);
        place(&r, &mut s, "von-urff", three, Vertex::N);
        assert_eq!(r.fire_targets(&s, g), vec![three], "{}: 16 lb", ed(fl));
    }
}

// --------------------------------------------------------------------- 7.1 / 1.3 ZoC in woods

#[test]
fn r1_3_r7_1_light_infantry_zoc_into_woods_hastenbeck_not_fl() {
    let (h, fl) = both();
    let (a, b, _) = pair_next_to(&h, Terrain::Woods, |x| h.sc.map.contains(x));
    for (r, fl) in editions(&h, &fl) {
        let mut s = empty_board(&r);
        let li = place(&r, &mut s, "hainaut", a, Vertex::N);
        assert_eq!(r.zoc_reaches(&s, li, b), !fl, "{}", ed(fl));
        // Normal infantry never.
        let mut s = empty_board(&r);
        let dir = a.direction_to(b).expect("adjacent");
        let inf = place(&r, &mut s, "du-roi", a, facing_toward(dir));
        assert!(r.front_dirs(&s, inf).contains(&dir));
        assert!(!r.zoc_reaches(&s, inf, b), "{}", ed(fl));
    }
}

// ------------------------------------------------------------ 8.5 commanders' terrain costs

#[test]
fn r8_5_commanders_pay_1_clear_2_elsewhere_hastenbeck_cavalry_costs_fl() {
    let (h, fl) = both();
    let s = empty_board(&h);
    let cost = |r: &Saxe, t: Terrain| {
        let (a, b, _) = pair_into(r, t, |x| plain(r, x) || t == Terrain::Woods);
        r.move_cost(&s, saxe::query::Mover::Commander, a, b)
    };
    assert_eq!(cost(&h, Terrain::Clear), Some(1));
    assert_eq!(cost(&fl, Terrain::Clear), Some(1));
    assert_eq!(cost(&h, Terrain::Marsh), Some(2));
    assert_eq!(cost(&fl, Terrain::Marsh), Some(3), "cavalry in marsh");
    assert_eq!(cost(&h, Terrain::Woods), Some(2));
    assert_eq!(
        cost(&fl, Terrain::Woods),
        None,
        "cavalry may not enter woods"
    );
    assert_eq!(cost(&h, Terrain::Town), Some(2));
    assert_eq!(cost(&fl, Terrain::Town), Some(2));
}

// ------------------------------------------------------------------ 14.3 deploying units

#[test]
fn r14_3_attacking_a_deploying_unit_plus_2_hastenbeck_plus_1_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let y = go(x, &[Dir::NW]);
        for deploying in [true, false] {
            let mut s = empty_board(&r);
            place(&r, &mut s, "du-roi", x, Vertex::N);
            let g = place(&r, &mut s, "von-gilsa", y, Vertex::S);
            s.units[usize::from(g)].set(flag::COLUMN, true);
            s.formations[usize::from(formation(&r, "wutginau"))].deploying = deploying;
            combat_phase(&mut s, Side::French);
            let (_, m) = r.combat_modifiers(&s, &combat_of(&r, &s, &[x], &[y]));
            if deploying {
                assert_eq!(
                    modifier(&m, "defender deploying"),
                    Some(if fl { 1 } else { 2 }),
                    "{}: {m:?}",
                    ed(fl)
                );
            } else {
                assert_eq!(modifier(&m, "defender in march column"), Some(2), "{m:?}");
            }
        }
    }
}

// -------------------------------------------------------------- 10.3 / 12.1 stack morale

#[test]
fn r10_3_r12_1_a_stack_uses_its_top_unit_hastenbeck_its_best_unit_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let y = go(x, &[Dir::NW]);
        let mut s = empty_board(&r);
        let eu = place(&r, &mut s, "eu", x, Vertex::N); // MV 3, on top
        let pic = place(&r, &mut s, "picardie", x, Vertex::N); // MV 4
        place(&r, &mut s, "von-gilsa", y, Vertex::S); // MV 4
        combat_phase(&mut s, Side::French);
        let (_, m) = r.combat_modifiers(&s, &combat_of(&r, &s, &[x], &[y]));
        assert_eq!(
            modifier(&m, "morale"),
            if fl { None } else { Some(-1) },
            "{}: {m:?}",
            ed(fl)
        );
        // A morale test after combat (12.1).
        s.dice = dice_rolling(&[4]);
        let mut ev = Vec::new();
        let ok = r.morale_test(&mut s, &[eu, pic], 0, false, "", "12.1", &mut ev);
        assert_eq!(
            ok,
            fl,
            "{}: die 4 against MV {}",
            ed(fl),
            if fl { 4 } else { 3 }
        );
    }
}

// ----------------------------------------------------------------- 10.3 artillery bonus

#[test]
fn r10_3_artillery_bonus_needs_the_enemy_in_its_arc_hastenbeck_any_gun_taking_part_fl() {
    let (hg, flg, gun) = both_with_allied_gun();
    for (r, fl) in editions(&hg, &flg) {
        let x = clear_area(&r, 2);
        let y = go(x, &[Dir::NW]);
        for (gun_facing, in_arc) in [(Vertex::S, true), (Vertex::N, false)] {
            let mut s = empty_board(&r);
            place(&r, &mut s, "du-roi", x, Vertex::N);
            place(&r, &mut s, "von-gilsa", y, Vertex::S);
            s.units[usize::from(gun)].hex = Some(y);
            s.units[usize::from(gun)].facing = gun_facing;
            s.units[usize::from(gun)].order = 1;
            assert_eq!(gun_facing.in_fire_arc(y, x), in_arc);
            combat_phase(&mut s, Side::French);
            let (_, m) = r.combat_modifiers(&s, &combat_of(&r, &s, &[x], &[y]));
            assert_eq!(
                modifier(&m, "defending artillery"),
                if in_arc || fl { Some(-1) } else { None },
                "{}: gun facing {gun_facing:?}: {m:?}",
                ed(fl)
            );
        }
    }
}

// -------------------------------------------------------------------- 11.3 advance

#[test]
fn r11_3_the_stack_or_its_top_unit_advances_hastenbeck_top_unit_only_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let y = go(x, &[Dir::NW]);
        let mut s = empty_board(&r);
        let pic = place(&r, &mut s, "picardie", x, Vertex::N);
        let nav = place(&r, &mut s, "navarre", x, Vertex::N);
        let gilsa = place(&r, &mut s, "von-gilsa", y, Vertex::S);
        combat_phase(&mut s, Side::French);
        at_advance(&r, &mut s, &[x], &[y], &[gilsa]);
        assert!(matches!(s.frames.last(), Some(Frame::Advance(_))));
        let mut l = ids(&r, &s);
        l.sort();
        let mut want = vec![format!("advance:{x}>{y}"), "pass".to_string()];
        if !fl {
            want.push(format!("advance:{x}>{y}:stack"));
        }
        want.sort();
        assert_eq!(l, want, "{}", ed(fl));
        if !fl {
            act(&r, &mut s, &format!("advance:{x}>{y}:stack"));
            assert_eq!(s.units[usize::from(pic)].hex, Some(y));
            assert_eq!(s.units[usize::from(nav)].hex, Some(y));
        } else {
            act(&r, &mut s, &format!("advance:{x}>{y}"));
            assert_eq!(s.units[usize::from(pic)].hex, Some(y), "the top unit");
            assert_eq!(s.units[usize::from(nav)].hex, Some(x));
        }
    }
}

#[test]
fn r11_3_a_defender_may_not_advance_into_an_enemy_zoc_hastenbeck_may_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let y = go(x, &[Dir::NW]);
        let mut s = empty_board(&r);
        let du_roi = place(&r, &mut s, "du-roi", x, Vertex::N);
        place(&r, &mut s, "von-gilsa", y, Vertex::S);
        // Navarre east of x faces it: x stays in a French ZoC, y does not.
        let e = go(x, &[Dir::E]);
        place(&r, &mut s, "navarre", e, Vertex::SW);
        combat_phase(&mut s, Side::French);
        // The attacker is gone (retreated) when the defender may advance.
        let mut t = s.clone();
        t.units[usize::from(du_roi)].hex = None;
        assert!(r.in_zoc_of(&t, x, Side::French), "x in Navarre's ZoC");
        assert!(!r.in_zoc_of(&t, y, Side::French), "y free");
        at_advance(&r, &mut s, &[x], &[y], &[du_roi]);
        let advance = matches!(s.frames.last(), Some(Frame::Advance(a)) if a.defender);
        assert_eq!(advance, fl, "{}: {:?}", ed(fl), s.frames.last());
        if fl {
            assert!(ids(&r, &s).contains(&format!("advance:{y}>{x}")));
        }
    }
}

#[test]
fn r7_1_r11_3_advance_from_zoc_to_zoc_allowed_hastenbeck_forbidden_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let y = go(x, &[Dir::NW]);
        let w = go(x, &[Dir::W]);
        assert!(Vertex::NE.front().contains(&Dir::E) && Vertex::NE.front().contains(&Dir::NE));
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        let gilsa = place(&r, &mut s, "von-gilsa", y, Vertex::S);
        // Prinz von Anhalt 1 west of x covers both x and y.
        place(&r, &mut s, "prinz-von-anhalt-1", w, Vertex::NE);
        combat_phase(&mut s, Side::French);
        at_advance(&r, &mut s, &[x], &[y], &[gilsa]);
        assert!(r.in_zoc_of(&s, x, Side::Allies) && r.in_zoc_of(&s, y, Side::Allies));
        let advance = matches!(s.frames.last(), Some(Frame::Advance(_)));
        assert_eq!(advance, !fl, "{}: {:?}", ed(fl), s.frames.last());
    }
}

// --------------------------------------------------------------- 10.3 cavalry against a town

#[test]
fn r10_3_cavalry_attacking_a_town_no_modifier_hastenbeck_minus_2_fl() {
    let (h, fl) = both();
    let (a, b, d) = pair_into(&h, Terrain::Town, |x| plain(&h, x));
    assert!(!h.sc.map.fortified.contains(&b));
    for (r, fl) in editions(&h, &fl) {
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roy", a, facing_toward(d));
        place(&r, &mut s, "von-gilsa", b, facing_toward(d.opposite()));
        combat_phase(&mut s, Side::French);
        let (_, m) = r.combat_modifiers(&s, &combat_of(&r, &s, &[a], &[b]));
        assert_eq!(
            modifier(&m, "cavalry against a town"),
            if fl { Some(-2) } else { None },
            "{}: {m:?}",
            ed(fl)
        );
        assert_eq!(modifier(&m, "terrain: town"), Some(-1), "{m:?}");
        assert_eq!(
            modifier(&m, "cavalry against normal infantry"),
            Some(-1),
            "{m:?}"
        );
    }
}

// -------------------------------------------------------------- 13.2 independent units

#[test]
fn r13_2_independent_unit_keeps_its_morale_hastenbeck_loses_1_at_half_its_steps_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let mut s = empty_board(&r);
        // Von Hardenberg 1: 4 CP (2 steps), MV 5; independent.
        let u = place(&r, &mut s, "von-hardenberg-1", x, Vertex::S);
        assert_eq!(r.morale(&s, u), 5);
        s.units[usize::from(u)].lost = 1;
        assert_eq!(r.morale(&s, u), if fl { 4 } else { 5 }, "{}", ed(fl));
        s.dice = dice_rolling(&[5]);
        let mut ev = Vec::new();
        let ok = r.morale_test(&mut s, &[u], 0, false, "", "12.1", &mut ev);
        assert_eq!(ok, !fl, "{}: die 5: {ev:?}", ed(fl));
        // F/L 5.2: it activates on its (reduced) morale; Hastenbeck on the side's value (3).
        s.active = Side::Allies;
        assert_eq!(
            r.activation_value(&s, saxe::state::ActTarget::Independent(u)),
            if fl { 4 } else { 3 },
            "{}",
            ed(fl)
        );
    }
}

#[test]
fn r5_2_independent_units_activate_on_the_sides_value_hastenbeck_on_their_morale_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let s = empty_board(&r);
        for (id, side_value, morale) in [
            ("royal-carabiniers", 4, 5),
            ("hussards", 4, 4),
            ("jager", 3, 4),
            ("breidenbach", 3, 4),
        ] {
            let u = unit(&r, id);
            assert_eq!(
                r.activation_value(&s, saxe::state::ActTarget::Independent(u)),
                if fl { morale } else { side_value },
                "{}: {id}",
                ed(fl)
            );
        }
    }
}

/// F/L 5.1 says "menor que" (less than) while the F/L scenario sheets print "4 or fewer";
/// tricorne follows the sheets by default and offers the literal reading as the option
/// `strict-activation` (docs/editions.md A8).
#[test]
fn r5_1_activation_on_value_or_less_both_editions_less_than_value_with_fl_strict_option() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        for strict in [false, true] {
            let x = clear_area(&r, 2);
            let mut s = empty_board(&r);
            s.options.strict_activation = strict;
            place(&r, &mut s, "du-roi", x, Vertex::N);
            place_cmdr(&r, &mut s, "broglie", x);
            place_cmdr(&r, &mut s, "estrees", go(x, &[Dir::W]));
            s.dice = dice_rolling(&[4]);
            act(&r, &mut s, "activate:broglie");
            assert_eq!(
                top_activation(&s).expect("activation").success,
                !(fl && strict),
                "{}: die 4, value 4, strict {strict}",
                ed(fl)
            );
        }
    }
}

#[test]
fn r16_fl_activation_values_by_nationality() {
    let (_, r) = both_with(|sc| {
        sc.activation_by_nationality = Some([4, 4, 3, 2]);
        for f in sc.formations.iter_mut() {
            f.nationality = Some(match f.id.as_str() {
                "zastrow" => Nationality::English,
                "wutginau" => Nationality::Austrian,
                "imhoff" => Nationality::Dutch,
                _ => Nationality::French,
            });
        }
    });
    let s = empty_board(&r);
    let v = |id: &str, s: &State| {
        r.activation_value(s, saxe::state::ActTarget::Formation(formation(&r, id)))
    };
    assert_eq!(v("broglie", &s), 4);
    assert_eq!(v("zastrow", &s), 4);
    assert_eq!(v("imhoff", &s), 3);
    assert_eq!(v("wutginau", &s), 2);
    // 17.2 option 5: the Austrians activate on 3.
    let mut s = s;
    s.options.austrians_fight = true;
    assert_eq!(v("wutginau", &s), 3);
    assert_eq!(v("imhoff", &s), 3);
}

// ------------------------------------------------------------------------ 3.1 stacking

#[test]
fn r3_1_two_units_and_a_gun_hastenbeck_two_counters_in_all_fl() {
    let (h, fl) = both();
    let x = clear_area(&h, 1);
    let (_, town, _) = pair_into(&h, Terrain::Town, |a| plain(&h, a));
    for (r, fl) in editions(&h, &fl) {
        let mut s = empty_board(&r);
        let u = |id: &str| unit(&r, id);
        let ok = |h: HexId, ids: &[&str], s: &State| {
            let v: Vec<UnitIx> = ids.iter().map(|i| u(i)).collect();
            r.stacking_ok(h, &v, s)
        };
        let gun = "broglie-art-1314";
        assert!(ok(x, &["du-roi", "palatinat-1"], &s));
        assert!(ok(x, &["du-roi", gun], &s));
        assert!(ok(x, &["du-roy", gun], &s));
        assert_eq!(
            ok(x, &["du-roi", "palatinat-1", gun], &s),
            !fl,
            "{}",
            ed(fl)
        );
        assert!(
            !ok(x, &["du-roi", "du-roy"], &s),
            "never infantry with cavalry"
        );
        // In a town (village).
        assert_eq!(ok(town, &["du-roi", "palatinat-1"], &s), !fl, "{}", ed(fl));
        assert!(ok(town, &["du-roi", gun], &s));
        assert!(ok(town, &["du-roy", gun], &s), "{}", ed(fl));
        assert!(!ok(town, &["du-roi", "palatinat-1", gun], &s));
        assert_eq!(
            ok(town, &["grenadiers", "grenadiers-reunis", gun], &s),
            !fl,
            "{}: grenadiers",
            ed(fl)
        );
        // With a routed unit (F/L: "huyendo").
        s.units[usize::from(u("palatinat-1"))].set(flag::ROUTED, true);
        assert_eq!(ok(x, &["du-roi", "palatinat-1"], &s), !fl, "{}", ed(fl));
    }
}

#[test]
fn r3_5_2_a_unit_ending_its_move_on_a_friend_goes_under_hastenbeck_on_top_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let from = go(x, &[Dir::SW]);
        let mut s = empty_board(&r);
        let du_roi = place(&r, &mut s, "du-roi", x, Vertex::N);
        let pal = place(&r, &mut s, "palatinat-1", from, Vertex::N);
        place_cmdr(&r, &mut s, "broglie", from);
        activate_auto(&r, &mut s, "broglie");
        act(&r, &mut s, "move-unit:palatinat-1");
        act(&r, &mut s, "step:NE");
        if top_moving(&s).is_some() {
            act(&r, &mut s, "stop");
        }
        let want = if fl {
            vec![pal, du_roi]
        } else {
            vec![du_roi, pal]
        };
        assert_eq!(r.combat_units_at(&s, x), want, "{}", ed(fl));
    }
}

// --------------------------------------------------------------------- 10.1 mandatory attack

#[test]
fn r10_1_attack_mandatory_in_clear_terrain_hastenbeck_never_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let y = go(x, &[Dir::NW]);
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place(&r, &mut s, "von-gilsa", y, Vertex::S);
        combat_phase(&mut s, Side::French);
        let l = ids(&r, &s);
        assert!(l.contains(&format!("attack:{x}>{y}")), "{l:?}");
        assert_eq!(
            l.contains(&"end-combat".to_string()),
            fl,
            "{}: {l:?}",
            ed(fl)
        );
    }
}

// --------------------------------------------------------- Louis XV, Cumberland (3.2, 15.1)

#[test]
fn r3_2_fl_louis_xv_alone_overrun_is_killed_and_the_french_lose_r15_1() {
    let (h, fl) = both_with(|sc| {
        add_king(sc);
    });
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let y = go(x, &[Dir::NW]);
        let mut s = empty_board(&r);
        place(&r, &mut s, "von-gilsa", x, Vertex::N);
        place_cmdr(&r, &mut s, "wutginau", x);
        place(&r, &mut s, "du-roi", ahead(y, Dir::NW, 3), Vertex::N);
        // An ordinary commander alone is displaced (3.2) in both editions.
        let b = place_cmdr(&r, &mut s, "broglie", y);
        s.active = Side::Allies;
        s.dice = dice_rolling(&[1]);
        act(&r, &mut s, "activate:wutginau");
        act(&r, &mut s, "move-unit:von-gilsa");
        act(&r, &mut s, "step:NW");
        assert_eq!(s.result, None, "{}", ed(fl));
        assert_eq!(
            s.commanders[usize::from(b)].hex,
            Some(ahead(y, Dir::NW, 3)),
            "{}: Broglie rejoins Du Roi",
            ed(fl)
        );
        if !fl {
            continue;
        }
        // Louis XV alone (F/L only).
        let mut s = empty_board(&r);
        place(&r, &mut s, "von-gilsa", x, Vertex::N);
        place_cmdr(&r, &mut s, "wutginau", x);
        place(&r, &mut s, "du-roi", ahead(y, Dir::NW, 3), Vertex::N);
        place_cmdr(&r, &mut s, "louis-xv", y);
        s.active = Side::Allies;
        s.dice = dice_rolling(&[1]);
        act(&r, &mut s, "activate:wutginau");
        act(&r, &mut s, "move-unit:von-gilsa");
        let ev = act(&r, &mut s, "step:NW");
        assert!(logged(&ev, "Louis XV"), "{ev:?}");
        assert_eq!(s.phase, Phase::Over);
        let (winner, _, rule) = s.result.clone().expect("game over");
        assert_eq!((winner, rule.as_str()), (Some(Side::Allies), "15.1"));
    }
}

#[test]
fn r11_4_dead_army_commander_replaced_hastenbeck_r15_1_cumberland_killed_loses_the_game_fl() {
    let (h, fl) = both_with(|sc| {
        add_king(sc);
    });
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        // Cumberland's stack loses a step; die 1: killed.
        let mut s = empty_board(&r);
        place(&r, &mut s, "von-gilsa", x, Vertex::N);
        place_cmdr(&r, &mut s, "wutginau", go(x, &[Dir::E]));
        let c = place_cmdr(&r, &mut s, "cumberland", x);
        s.dice = dice_rolling(&[1]);
        let mut ev = Vec::new();
        r.commander_casualty(&mut s, c, x, true, &mut ev);
        if fl {
            let (winner, _, rule) = s.result.clone().expect("game over");
            assert_eq!((winner, rule.as_str()), (Some(Side::French), "15.1"));
            assert_eq!(s.phase, Phase::Over);
        } else {
            assert_eq!(s.result, None);
            assert!(s.army_commander_lost[Side::Allies.ix()]);
            assert!(matches!(
                s.frames.last(),
                Some(Frame::NewArmyCommander { side: Side::Allies })
            ));
        }
        // The French army commander (Saxe at Fontenoy) is replaced in both editions.
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::E]));
        let e = place_cmdr(&r, &mut s, "estrees", x);
        s.dice = dice_rolling(&[1]);
        let mut ev = Vec::new();
        r.commander_casualty(&mut s, e, x, true, &mut ev);
        assert_eq!(s.result, None, "{}", ed(fl));
        assert!(s.army_commander_lost[Side::French.ix()], "{}", ed(fl));
        if fl {
            // Louis XV killed by 11.4: the French lose.
            let mut s = empty_board(&r);
            place(&r, &mut s, "du-roi", x, Vertex::N);
            let k = place_cmdr(&r, &mut s, "louis-xv", x);
            s.dice = dice_rolling(&[1]);
            let mut ev = Vec::new();
            r.commander_casualty(&mut s, k, x, true, &mut ev);
            let (winner, _, rule) = s.result.clone().expect("game over");
            assert_eq!((winner, rule.as_str()), (Some(Side::Allies), "15.1"));
        }
    }
}

// ------------------------------------------------------------------- F/L 8.8 reinforcements

/// A clear hex on the north edge of the map with clear hexes around it.
fn entry_hex(r: &Saxe) -> HexId {
    let rows = r.sc.map.rows;
    r.sc.map
        .hexes()
        .find(|&h| {
            h.row == rows.0
                && h.col > r.sc.map.cols.0 + 3
                && h.col < r.sc.map.cols.1 - 3
                && plain(r, h)
                && h.neighbours()
                    .all(|(_, n)| !r.sc.map.contains(n) || plain(r, n))
        })
        .expect("a clear hex on the north edge")
}

fn with_reinforcement() -> (Saxe, UnitIx, HexId) {
    let h = rules();
    let u = unit(&h, "royal-carabiniers");
    let hex = entry_hex(&h);
    let (_, fl) = both_with(|sc| {
        sc.reinforcements.push(Reinforcement {
            unit: u,
            turn: 2,
            hexes: vec![hex],
            facing: None,
            column: false,
        })
    });
    (fl, u, hex)
}

#[test]
fn r8_8_fl_reinforcements_enter_on_their_turn_paying_the_entry_hex_in_command() {
    let (r, u, hex) = with_reinforcement();
    let mut s = empty_board(&r);
    s.units[usize::from(u)].set(flag::OFFMAP, true);
    s.turn = 1;
    let l = ids(&r, &s);
    assert!(!has_id(&l, "reinforce:"), "not before turn 2: {l:?}");
    s.turn = 2;
    let l = ids(&r, &s);
    assert!(
        l.contains(&format!("reinforce:royal-carabiniers:{hex}")),
        "{l:?}"
    );
    // 8.8 "in command" spares it no activation test (5.2: on its morale); a 1 passes.
    s.dice = dice_rolling(&[1]);
    let ev = act(&r, &mut s, &format!("reinforce:royal-carabiniers:{hex}"));
    assert!(logged(&ev, "8.8"), "{ev:?}");
    assert_eq!(s.units[usize::from(u)].hex, Some(hex));
    assert!(!r.has(&s, u, flag::OFFMAP));
    let a = top_activation(&s).expect("its activation");
    assert_eq!(a.entry_cost, 1, "clear entry hex");
    act(&r, &mut s, "move-unit:royal-carabiniers");
    assert_eq!(top_moving(&s).expect("moving").mp, vec![6 - 1]);
}

#[test]
fn r8_8_fl_an_entry_hex_held_by_the_enemy_delays_the_reinforcement_a_turn() {
    let (r, u, hex) = with_reinforcement();
    let mut s = empty_board(&r);
    s.units[usize::from(u)].set(flag::OFFMAP, true);
    place(&r, &mut s, "von-gilsa", hex, Vertex::S);
    s.turn = 2;
    let l = ids(&r, &s);
    assert!(!has_id(&l, "reinforce:"), "delayed: {l:?}");
    s.turn = 3;
    let entries = r.reinforcement_entries(&s, Side::French);
    assert_eq!(entries.len(), 1, "{entries:?}");
    let (eu, hexes) = &entries[0];
    assert_eq!(*eu, u);
    assert!(!hexes.is_empty());
    assert!(hexes.iter().all(|h| h.distance(hex) >= 2), "{hexes:?}");
    assert!(!hexes.contains(&hex));
}

#[test]
fn r8_8_fl_reinforcements_still_test_their_activation() {
    let (r, u, hex) = with_reinforcement();
    let mut s = empty_board(&r);
    s.units[usize::from(u)].set(flag::OFFMAP, true);
    s.turn = 2;
    // Royal-Carabiniers, independent, MV 5: a 6 fails.
    s.dice = dice_rolling(&[6]);
    let ev = act(&r, &mut s, &format!("reinforce:royal-carabiniers:{hex}"));
    assert_eq!(rolls_of(&ev, "5.1").len(), 1, "an activation test: {ev:?}");
    assert_eq!(s.units[usize::from(u)].hex, None, "it does not enter");
}

// --------------------------------------------------------------- 16.1 / 16.2 the Household

/// Chevert's formation made the King's Household under the given rule, with Louis XV added.
fn with_household(rule: HouseholdRule) -> (Saxe, Saxe) {
    let h = rules();
    let f = formation(&h, "chevert");
    both_with(|sc| {
        add_king(sc);
        sc.household = Some(rule);
        sc.formations[usize::from(f)].household = true;
        for u in sc.units.iter_mut() {
            if u.formation == Some(f) {
                u.household = true;
            }
        }
    })
}

#[test]
fn r16_1_fl_fontenoy_household_acts_once_an_enemy_comes_within_3_hexes_of_louis_xv() {
    let (h, fl) = with_household(HouseholdRule::Fontenoy);
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 3);
        let mut s = empty_board(&r);
        place(&r, &mut s, "hainaut", x, Vertex::N);
        place_cmdr(&r, &mut s, "chevert", x);
        place(&r, &mut s, "du-roi", go(x, &[Dir::W, Dir::W]), Vertex::N);
        place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::W, Dir::W]));
        let k = go(x, &[Dir::E]);
        place_cmdr(&r, &mut s, "louis-xv", k);
        let g = place(&r, &mut s, "von-gilsa", ahead(k, Dir::NE, 5), Vertex::S);
        let l = ids(&r, &s);
        assert!(
            !l.contains(&"activate:chevert".to_string()),
            "{}: {l:?}",
            ed(fl)
        );
        assert!(l.contains(&"activate:broglie".to_string()));
        s.units[usize::from(g)].hex = Some(ahead(k, Dir::NE, 3));
        let mut ev = Vec::new();
        r.update_control(&mut s, &mut ev);
        assert!(s.household_free, "{ev:?}");
        assert!(ids(&r, &s).contains(&"activate:chevert".to_string()));
    }
}

#[test]
fn r16_2_fl_lauffeld_household_acts_alone_or_as_a_formation_once_two_formations_are_demoralised_or_it_is_attacked()
 {
    let (h, fl) = with_household(HouseholdRule::Lauffeld);
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 3);
        let mut s = empty_board(&r);
        place(&r, &mut s, "hainaut", x, Vertex::N);
        place_cmdr(&r, &mut s, "chevert", x);
        let l = ids(&r, &s);
        assert!(!has_id(&l, "activate:chevert"), "{}: {l:?}", ed(fl));
        assert!(!has_id(&l, "activate-independent:hainaut"), "{l:?}");
        // Two French formations demoralised.
        let mut t = s.clone();
        t.formations[usize::from(formation(&r, "broglie"))].demoralised = true;
        t.formations[usize::from(formation(&r, "contades"))].demoralised = true;
        let l = ids(&r, &t);
        assert!(l.contains(&"activate:chevert".to_string()), "{l:?}");
        assert!(
            l.contains(&"activate-independent:hainaut".to_string()),
            "{l:?}"
        );
        // Or the Household is attacked.
        let y = go(x, &[Dir::NW]);
        let mut t = s.clone();
        place(&r, &mut t, "von-gilsa", y, Vertex::S);
        combat_phase(&mut t, Side::Allies);
        let mut ev = Vec::new();
        r.declare_attack(&mut t, &[y], &[x], &mut ev);
        assert!(t.household_free, "{ev:?}");
        assert!(r.household_may_act(&t, &[unit(&r, "hainaut")]));
        // No formation morale for it (13.2 as independents).
        assert!(r.household_independent(formation(&r, "chevert")));
        let mut t = s.clone();
        let hu = unit(&r, "hainaut");
        t.units[usize::from(hu)].hex = None;
        t.units[usize::from(hu)].lost = 2;
        t.units[usize::from(unit(&r, "picardie"))].lost = 4;
        t.units[usize::from(unit(&r, "navarre"))].lost = 3;
        end_of_turn(&r, &mut t);
        assert!(!t.formations[usize::from(formation(&r, "chevert"))].demoralised);
    }
}

// ------------------------------------------------------------- F/L 16 victory conditions

/// The two objectives of the Hastenbeck map renamed for another battle.
fn with_objectives(a: &str, b: &str) -> (Saxe, Saxe) {
    let (a, b) = (a.to_string(), b.to_string());
    both_with(move |sc| {
        sc.objectives[0].key = a;
        sc.objectives[1].key = b;
    })
}

fn demoralise(r: &Saxe, s: &mut State, ids: &[&str]) {
    for id in ids {
        s.formations[usize::from(formation(r, id))].demoralised = true;
    }
}

#[test]
fn r16_1_fl_fontenoy_victory_conditions() {
    let (_, r) = with_objectives("fontenoy", "pontoon");
    let fo = r.sc.objective_ix("fontenoy").expect("fontenoy");
    let po = r.sc.objective_ix("pontoon").expect("pontoon");
    let level = |s: &State| r.standing(s).1;
    // Army demoralisation of the Hastenbeck scenario: French 3, Allies 2.
    let mut s = empty_board(&r);
    s.control = vec![Side::French; 2];
    assert_eq!(level(&s), "Forfeited game");
    demoralise(&r, &mut s, &["zastrow"]);
    assert_eq!(
        r.standing(&s),
        (Some(Side::French), "Limited French victory")
    );
    demoralise(&r, &mut s, &["wutginau"]);
    assert_eq!(level(&s), "Brilliant French victory");
    demoralise(&r, &mut s, &["broglie", "contades", "chevert"]);
    assert_eq!(level(&s), "Forfeited game", "both armies demoralised");

    let mut s = empty_board(&r);
    s.control = vec![Side::French; 2];
    s.control[fo] = Side::Allies;
    assert_eq!(level(&s), "Forfeited game");
    demoralise(&r, &mut s, &["broglie", "contades"]);
    assert_eq!(
        r.standing(&s),
        (Some(Side::Allies), "Limited English victory")
    );
    demoralise(&r, &mut s, &["chevert"]);
    assert_eq!(level(&s), "Limited English victory", "bridge still French");
    s.control[po] = Side::Allies;
    assert_eq!(level(&s), "Brilliant English victory");
    demoralise(&r, &mut s, &["zastrow", "wutginau"]);
    assert_eq!(level(&s), "Forfeited game");
    // 15.2 sends to the scenario's conditions: the standing and the result cite 16.1 (issue 19).
    assert_eq!(r.victory_rule(), "15.2, 16.1");
    assert!(
        engine::Ruleset::outcome_levels(&r)
            .iter()
            .any(|(l, rule)| l == "Brilliant English victory" && rule == "15.2, 16.1")
    );
}

#[test]
fn r16_2_fl_lauffeld_victory_conditions() {
    let (_, r) = with_objectives("lauffeld", "vlitingen");
    let la = r.sc.objective_ix("lauffeld").expect("lauffeld");
    let level = |s: &State| r.standing(s).1;
    let mut s = empty_board(&r);
    s.control = vec![Side::Allies; 2];
    assert_eq!(level(&s), "Forfeited game");
    demoralise(&r, &mut s, &["broglie", "contades", "chevert"]);
    assert_eq!(
        r.standing(&s),
        (Some(Side::Allies), "Brilliant English victory")
    );
    let mut s = empty_board(&r);
    s.control = vec![Side::Allies; 2];
    s.control[la] = Side::French;
    assert_eq!(
        r.standing(&s),
        (Some(Side::French), "Limited French victory")
    );
    demoralise(&r, &mut s, &["zastrow", "wutginau"]);
    assert_eq!(level(&s), "Brilliant French victory");
    // 17.2 option 2: Vlitingen too.
    s.options.fortify_both = true;
    assert_eq!(level(&s), "Limited French victory");
    let mut s = empty_board(&r);
    s.control = vec![Side::Allies; 2];
    s.control[la] = Side::French;
    demoralise(&r, &mut s, &["broglie", "contades", "chevert"]);
    assert_eq!(
        r.standing(&s),
        (Some(Side::Allies), "Limited English victory")
    );
    assert_eq!(r.victory_rule(), "15.2, 16.2");
    let view = r.view_json(&s, None);
    assert_eq!(
        view["standing"]["rule"],
        "15.2, 16.2 (if the game ended now)"
    );
}

// ------------------------------------------------------------ 10.1 fortified villages

#[test]
fn r10_1_cavalry_never_attacks_a_fortified_village_in_both_editions() {
    let h0 = rules();
    let (a, b, d) = pair_into(&h0, Terrain::Town, |x| plain(&h0, x));
    let (h, fl) = both_with(|sc| sc.map.fortified.push(b));
    for (r, fl) in [(h0.clone(), None), (h, Some(false)), (fl, Some(true))] {
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roy", a, facing_toward(d));
        place(&r, &mut s, "von-gilsa", b, facing_toward(d.opposite()));
        assert_eq!(
            r.attack_targets(&s, a).contains(&b),
            fl.is_none(),
            "{fl:?}: cavalry against {b}"
        );
        // Infantry may.
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", a, facing_toward(d));
        place(&r, &mut s, "von-gilsa", b, facing_toward(d.opposite()));
        assert!(r.attack_targets(&s, a).contains(&b));
    }
}

// ---------------------------------------- F/L rules the code does not follow yet (docs/editions.md)

#[test]
fn r11_1_losses_alternate_hastenbeck_top_unit_first_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 1);
        let mut s = empty_board(&r);
        let top = place(&r, &mut s, "picardie", x, Vertex::N);
        let second = place(&r, &mut s, "navarre", x, Vertex::N);
        let mut ev = Vec::new();
        let hit = r.stack_losses(&mut s, x, 2, "11.1", &mut ev);
        let want = if fl {
            vec![top, top]
        } else {
            vec![top, second]
        };
        assert_eq!(hit, want, "{}", ed(fl));
    }
}

#[test]
fn r10_3_cavalry_against_disorganised_infantry_net_0_hastenbeck_plus_1_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let y = go(x, &[Dir::NW]);
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roy", x, Vertex::N);
        let g = place(&r, &mut s, "von-gilsa", y, Vertex::S);
        s.units[usize::from(g)].set(flag::DISORG, true);
        combat_phase(&mut s, Side::French);
        let (_, m) = r.combat_modifiers(&s, &combat_of(&r, &s, &[x], &[y]));
        let unit_type = modifier(&m, "cavalry against normal infantry").unwrap_or(0)
            + modifier(&m, "cavalry against disorganised infantry").unwrap_or(0);
        assert_eq!(unit_type, if fl { 1 } else { 0 }, "{}: {m:?}", ed(fl));
    }
}

#[test]
fn r9_1_redoubt_fires_through_two_forward_hexes_hastenbeck_r9_6_all_four_front_hexes_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let mut s = empty_board(&r);
        let red = place(&r, &mut s, "wutginau-redoubt-0911", x, Vertex::S);
        let e = go(x, &[Dir::E]);
        place(&r, &mut s, "du-roi", e, Vertex::N);
        assert!(
            r.zoc_reaches(&s, red, e),
            "a front hex of the redoubt (2.1)"
        );
        assert_eq!(r.fire_targets(&s, red).contains(&e), fl, "{}", ed(fl));
    }
}

#[test]
fn r14_4_an_independent_unit_may_march_in_column_hastenbeck_not_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let mut s = empty_board(&r);
        place(&r, &mut s, "royal-carabiniers", x, Vertex::N);
        place_cmdr(&r, &mut s, "estrees", x);
        act(&r, &mut s, "activate-independent:royal-carabiniers");
        let l = ids(&r, &s);
        assert_eq!(
            l.contains(&"column-move:royal-carabiniers".to_string()),
            !fl,
            "{}: {l:?}",
            ed(fl)
        );
    }
}

#[test]
fn r4_b1_officer_moves_in_any_order_hastenbeck_before_the_action_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::W, Dir::W]));
        activate_auto(&r, &mut s, "broglie");
        act(&r, &mut s, "move-unit:du-roi");
        act(&r, &mut s, "step:NE");
        act(&r, &mut s, "stop");
        let l = ids(&r, &s);
        assert_eq!(
            has_id(&l, "commander-step:broglie:"),
            !fl,
            "{}: after the unit's move: {l:?}",
            ed(fl)
        );
    }
}

#[test]
fn r11_5_a_lone_gun_is_entered_and_destroyed_hastenbeck_may_not_be_entered_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 2);
        let y = go(x, &[Dir::NW]);
        let mut s = empty_board(&r);
        place(&r, &mut s, "wutginau-redoubt-0911", y, Vertex::N);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place_cmdr(&r, &mut s, "broglie", x);
        activate_auto(&r, &mut s, "broglie");
        act(&r, &mut s, "move-unit:du-roi");
        let l = ids(&r, &s);
        assert_eq!(l.contains(&"step:NW".to_string()), !fl, "{}: {l:?}", ed(fl));
    }
}

// --------------------------------------------------------- the real F/L scenarios (optional)

/// The Fontenoy scenario from the built-in data, else from the repository's `scenarios/`.
fn fontenoy() -> Saxe {
    Saxe::load("fontenoy", &[], None)
        .or_else(|_| {
            Saxe::load(
                "fontenoy",
                &[],
                Some(std::path::Path::new(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../../scenarios"
                ))),
            )
        })
        .expect("scenarios/fontenoy loads")
}

#[test]
fn r16_1_fontenoy_loads_under_fl_starts_on_turn_4_with_two_allied_automatic_activations() {
    use engine::Ruleset;
    let r = fontenoy();
    assert_eq!(r.edition, Edition::FontenoyLauffeld);
    assert_eq!((r.sc.first_turn, r.sc.turns), (4, 10));
    assert_eq!(r.sc.first, Side::Allies);
    let mut ev = Vec::new();
    let mut s = r.start(1, &mut ev);
    assert_eq!((s.turn, s.active), (4, Side::Allies));
    assert_eq!(r.autos_left(&s, Side::Allies), 2);
    let l = ids(&r, &s);
    let auto: Vec<String> = l
        .iter()
        .filter(|i| i.starts_with("activate-auto:"))
        .cloned()
        .collect();
    assert!(auto.len() >= 2, "{l:?}");
    act(&r, &mut s, &auto[0]);
    act(&r, &mut s, "end-activation");
    assert_eq!(r.autos_left(&s, Side::Allies), 1);
    let l = ids(&r, &s);
    assert!(has_id(&l, "activate-auto:"), "a second one: {l:?}");
    // Normandie enters by 2317 on the first turn of play (the French phase B2).
    let n = unit(&r, "normandie");
    assert!(r.has(&s, n, flag::OFFMAP));
    let entries = r.reinforcement_entries(
        &State {
            active: Side::French,
            ..s.clone()
        },
        Side::French,
    );
    assert!(
        entries
            .iter()
            .any(|(u, hs)| *u == n && hs.contains(&hx("2317"))),
        "{entries:?}"
    );
    // Victory: the French hold Fontenoy at the start, nobody demoralised.
    assert_eq!(r.standing(&s), (None, "Forfeited game"));
}

/// Lauffeld 16.2: the Household stands under the King as a formation ("maison-du-roi", CR 2, no
/// formation morale); it is held back until two French formations are demoralised, then it may
/// act as a formation or unit by unit. Turn 1 gives the French two automatic activations.
#[test]
fn r16_2_lauffeld_household_under_the_king_and_first_turn_activations() {
    let r = Saxe::load("lauffeld", &[], None).expect("built-in Lauffeld");
    assert_eq!(r.edition, saxe::Edition::FontenoyLauffeld);
    let f =
        r.sc.formations
            .iter()
            .position(|f| f.id == "maison-du-roi")
            .expect("the Household formation") as u8;
    let king = r.sc.formations[usize::from(f)].commander;
    assert!(r.sc.commanders[usize::from(king)].king);
    assert_eq!(
        r.sc.commanders[usize::from(king)].radius,
        2,
        "16.2: his CR is 2"
    );
    assert!(r.household_independent(f), "13.2: no formation morale");
    let mut ev = Vec::new();
    let mut s = engine::Ruleset::start(&r, 3, &mut ev);
    assert_eq!(s.turn, 1);
    assert_eq!(s.active, Side::French);
    assert_eq!(
        r.autos_left(&s, Side::French),
        2,
        "16.2: two automatic activations"
    );
    let l = ids(&r, &s);
    assert!(
        !l.iter().any(|i| i.contains("maison-du-roi")),
        "held back at the start: {l:?}"
    );
    // Two French formations demoralised: the Household may act, as a formation or alone.
    let mut n = 0;
    for (i, fd) in r.sc.formations.iter().enumerate() {
        if fd.side == Side::French && !fd.household && n < 2 {
            s.formations[i].demoralised = true;
            n += 1;
        }
    }
    let l = ids(&r, &s);
    assert!(l.contains(&"activate:maison-du-roi".to_string()), "{l:?}");
    let gardes = r.sc.units[usize::from(unit(&r, "gardes-francaises"))]
        .id
        .clone();
    assert!(
        l.contains(&format!("activate-independent:{gardes}")),
        "a Household unit alone: {l:?}"
    );
}

// ------------------------------------- 12.1, 11.1 F/L artillery morale 3, guns share results (A15)

/// A French stack of Picardie and a field gun at `y`, attacked from `x` by Von Gilsa, the combat
/// standing at its results stage (11.1) with `d` for the defender; runs to the next decision.
fn gun_stack_takes(
    r: &Saxe,
    d: saxe::scenario::Outcome,
    in_battery: bool,
) -> (State, UnitIx, UnitIx) {
    let x = clear_area(r, 2);
    let y = go(x, &[Dir::SE]);
    let mut s = empty_board(r);
    place(r, &mut s, "von-gilsa", x, Vertex::S);
    let pic = place(r, &mut s, "picardie", y, Vertex::N);
    let gun = place(r, &mut s, "broglie-art-1314", y, Vertex::N);
    if in_battery {
        s.units[usize::from(gun)].set(flag::IN_BATTERY, true);
    }
    combat_phase(&mut s, Side::Allies);
    let mut c = combat_of(r, &s, &[x], &[y]);
    c.stage = 4;
    c.result = Some((Default::default(), d));
    s.frames.push(Frame::Combat(c));
    run(r, &mut s);
    (s, pic, gun)
}

#[test]
fn r12_1_guns_never_test_hastenbeck_test_on_morale_3_fl() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 1);
        let mut s = empty_board(&r);
        let gun = place(&r, &mut s, "broglie-art-1314", x, Vertex::N);
        for (die, passes_fl) in [(3, true), (4, false)] {
            s.dice = dice_rolling(&[die]);
            let mut ev = Vec::new();
            let ok = r.morale_test(&mut s, &[gun], 0, false, "", "12.1", &mut ev);
            assert_eq!(ok, !fl || passes_fl, "{}: die {die} against MV 3", ed(fl));
            // Hastenbeck rolls nothing for a gun (9.5: artillery never tests).
            assert_eq!(
                rolls_of(&ev, "12.1").len(),
                usize::from(fl),
                "{}: {ev:?}",
                ed(fl)
            );
        }
        assert_eq!(r.morale(&s, gun), if fl { 3 } else { 6 });
    }
}

#[test]
fn r11_1_a_combat_result_reaches_the_guns_of_the_stack_fl_only() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let d = saxe::scenario::Outcome {
            disorganise: true,
            retreat: 1,
            ..Default::default()
        };
        let (s, pic, gun) = gun_stack_takes(&r, d, false);
        assert!(r.has(&s, pic, flag::DISORG));
        assert_eq!(r.has(&s, gun, flag::DISORG), fl, "{}", ed(fl));
        // The stack retreats with its gun (F/L), without it (Hastenbeck 11.5: it never retreats).
        let Some(Frame::Retreat(rt)) = s.frames.last() else {
            panic!("{}: no retreat decision: {:?}", ed(fl), s.frames.last());
        };
        assert!(rt.units.contains(&pic));
        assert_eq!(rt.units.contains(&gun), fl, "{}: {:?}", ed(fl), rt.units);
    }
}

#[test]
fn r11_2_1_fl_a_gun_in_battery_cannot_retreat_and_is_eliminated() {
    let (_, fl) = both();
    let d = saxe::scenario::Outcome {
        retreat: 1,
        ..Default::default()
    };
    let (s, pic, gun) = gun_stack_takes(&fl, d, true);
    assert!(!fl.alive(&s, gun), "the gun in battery is lost (8.9, A15)");
    let Some(Frame::Retreat(rt)) = s.frames.last() else {
        panic!("no retreat decision: {:?}", s.frames.last());
    };
    assert_eq!(rt.units, vec![pic], "Picardie retreats alone");
}

#[test]
fn r12_2_fl_a_disorganised_gun_disorganised_again_routs_or_is_lost_in_battery() {
    let (_, fl) = both();
    let d = saxe::scenario::Outcome {
        disorganise: true,
        ..Default::default()
    };
    for in_battery in [false, true] {
        let x = clear_area(&fl, 2);
        let y = go(x, &[Dir::SE]);
        let mut s = empty_board(&fl);
        place(&fl, &mut s, "von-gilsa", x, Vertex::S);
        place(&fl, &mut s, "picardie", y, Vertex::N);
        let gun = place(&fl, &mut s, "broglie-art-1314", y, Vertex::N);
        s.units[usize::from(gun)].set(flag::DISORG, true);
        s.units[usize::from(gun)].set(flag::IN_BATTERY, in_battery);
        combat_phase(&mut s, Side::Allies);
        let mut c = combat_of(&fl, &s, &[x], &[y]);
        c.stage = 4;
        c.result = Some((Default::default(), d));
        s.frames.push(Frame::Combat(c));
        let ev = run(&fl, &mut s);
        if in_battery {
            assert!(!fl.alive(&s, gun), "in battery it cannot rout: {ev:?}");
            assert!(logged(&ev, "cannot rout"), "{ev:?}");
        } else {
            assert!(fl.has(&s, gun, flag::ROUTED), "{ev:?}");
            assert!(
                s.frames
                    .iter()
                    .any(|f| matches!(f, Frame::Rout(r) if r.unit == gun)),
                "a rout movement of three hexes (12.4)"
            );
        }
    }
}

#[test]
fn r9_2_a_lone_gun_is_no_fire_target_hastenbeck_is_one_fl() {
    let (hg, flg, gun) = both_with_allied_gun();
    for (r, fl) in editions(&hg, &flg) {
        let x = clear_area(&r, 3);
        let y = go(x, &[Dir::SE]);
        let mut s = empty_board(&r);
        let g = place(&r, &mut s, "broglie-art-1314", x, Vertex::S);
        place(&r, &mut s, "contades-art-1309", y, Vertex::N);
        assert_eq!(
            r.fire_targets(&s, g),
            if fl { vec![y] } else { vec![] },
            "{}",
            ed(fl)
        );
        if fl {
            // A 1-step gun hit loses its step (11.1: a lone gun takes the losses itself).
            let mut ev = Vec::new();
            let t = (1..=6)
                .find(|&die| {
                    let mut t = s.clone();
                    t.dice = dice_rolling(&[die]);
                    let mut e = Vec::new();
                    r.resolve_fire(&mut t, g, y, vec![gun], false, &mut e);
                    !r.alive(&t, gun)
                })
                .expect("some die destroys the lone gun");
            s.dice = dice_rolling(&[t]);
            r.resolve_fire(&mut s, g, y, vec![gun], false, &mut ev);
            assert!(!r.alive(&s, gun), "{ev:?}");
        }
    }
}

#[test]
fn r12_5_fl_a_routed_gun_rallies_on_morale_3() {
    let (_, fl) = both();
    let x = clear_area(&fl, 1);
    // No commander near: the test is the unit's morale, 3 (12.1, 12.5).
    for (die, rallies) in [(3, true), (4, false)] {
        let mut s = empty_board(&fl);
        let gun = place(&fl, &mut s, "broglie-art-1314", x, Vertex::N);
        s.units[usize::from(gun)].set(flag::ROUTED, true);
        s.dice = dice_rolling(&[die]);
        let ev = end_of_turn(&fl, &mut s);
        assert_eq!(!fl.has(&s, gun, flag::ROUTED), rallies, "die {die}: {ev:?}");
        assert!(logged(&ev, "MV 3"), "{ev:?}");
    }
}

// ------------------------------------------- 4.B1 step 3: the army commander with his stack (A6)

#[test]
fn r4_b1_step_3_fl_army_commander_moves_with_his_stack_at_its_own_mp() {
    let (h, fl) = both();
    for (r, fl) in editions(&h, &fl) {
        let x = clear_area(&r, 3);
        let mut s = empty_board(&r);
        let du_roi = place(&r, &mut s, "du-roi", x, Vertex::N);
        let e = place_cmdr(&r, &mut s, "estrees", x);
        place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::W]));
        activate_auto(&r, &mut s, "broglie");
        let l = ids(&r, &s);
        assert_eq!(
            l.contains(&"chief-with-stack:estrees".to_string()),
            fl,
            "{}: {l:?}",
            ed(fl)
        );
        if !fl {
            continue;
        }
        let ev = act(&r, &mut s, "chief-with-stack:estrees");
        assert!(logged(&ev, "step 3"), "{ev:?}");
        let to = go(x, &[Dir::NW]);
        act(&r, &mut s, "step:NW");
        assert_eq!(s.units[usize::from(du_roi)].hex, Some(to));
        assert_eq!(s.commanders[usize::from(e)].hex, Some(to), "he goes along");
        act(&r, &mut s, "stop");
        assert!(
            s.commanders[usize::from(e)].moved,
            "his move of the turn (8.5)"
        );
        let l = ids(&r, &s);
        // Du Roi has moved in this activation; the officer's step 4 is still to come.
        assert!(!has_id(&l, "move-unit:du-roi"), "{l:?}");
        assert!(!has_id(&l, "commander-step:estrees:"), "{l:?}");
        assert!(has_id(&l, "commander-step:broglie:"), "{l:?}");
    }
}

#[test]
fn r4_b1_step_3_fl_no_stack_move_for_a_chief_who_moved_or_a_failed_activation() {
    let (_, r) = both();
    let x = clear_area(&r, 3);
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place_cmdr(&r, &mut s, "estrees", x);
    place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::W]));
    let before = s.clone();
    // Having stepped alone, he may not then take the stack.
    activate_auto(&r, &mut s, "broglie");
    act(
        &r,
        &mut s,
        &format!("commander-step:estrees:{}", go(x, &[Dir::E])),
    );
    act(&r, &mut s, &format!("commander-step:estrees:{x}"));
    assert!(!ids(&r, &s).contains(&"chief-with-stack:estrees".to_string()));
    // A failed activation moves no unit (5.3), so none with him either.
    let mut s = before;
    s.turn = 2;
    s.active = Side::French;
    s.phase = Phase::ChooseActivation;
    s.frames.clear();
    s.dice = dice_rolling(&[6]);
    let ev = act(&r, &mut s, "activate:broglie");
    let act_now = top_activation(&s).expect("activation");
    assert!(!act_now.success, "die 6 fails: {ev:?}");
    let l = ids(&r, &s);
    assert!(has_id(&l, "commander-step:estrees:"), "{l:?}");
    assert!(
        !l.contains(&"chief-with-stack:estrees".to_string()),
        "{l:?}"
    );
}

#[test]
fn r16_r17_the_opening_event_cites_the_scenarios_own_rule() {
    use engine::Ruleset;
    for (id, rule) in [
        ("hastenbeck", "16.1"),
        ("hastenbeck-free", "16.2"),
        ("fontenoy", "16.1"),
        ("fontenoy-surprise", "17.1"),
        ("fontenoy-free", "17.1"),
        ("lauffeld", "16.2"),
        ("lauffeld-french-arrive", "17.2"),
        ("lauffeld-both-arrive", "17.2"),
    ] {
        let r = Saxe::load(id, &[], None).expect("built-in scenario loads");
        let mut ev = Vec::new();
        Ruleset::start(&r, 1, &mut ev);
        match ev.first() {
            Some(Event::Rule { rule: got, text }) => {
                assert_eq!(got, rule, "{id}: {text}");
            }
            other => panic!("{id}: {other:?}"),
        }
    }
}
