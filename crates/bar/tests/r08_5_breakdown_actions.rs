//! Breakdown and reformation (8.5) as actions of the movement phase, on the drill ground
//! `tests/data/move` with the parents of `common/field85.rs`: the grenadier battalion `gp`
//! (6 SP, ER 25) of three 2-SP companies `gc1`–`gc3` (ER 24, 26, 27), and the light battalion
//! `lp` (5 SP) of three skirmisher companies `sk1`–`sk3` (1, 2, 2 SP; ER 31, 32, 33: E20).
mod common;
#[path = "common/field85.rs"]
mod field85;
use bar::Bar;
use bar::geom::{FacingExt as _, Formation};
use bar::state::{Phase, State};
use common::*;
use engine::Ruleset;
use field85::*;

fn clt(bar: &Bar, st: &State) -> u32 {
    bar::army_morale::clt_total(&bar.sc, st, 0)
}

#[track_caller]
fn refused(bar: &Bar, st: &State, id: &str) {
    let mut t = st.clone();
    assert!(
        bar.apply_id(&mut t, id, &mut Vec::new()).is_err(),
        "{id} was accepted"
    );
}

fn left(st: &State) -> String {
    match &st.phase {
        Phase::Moving(m) => m.left.to_string(),
        p => panic!("not moving: {p:?}"),
    }
}

/// The grenadier battalion in a one-hex line in 0707 facing north, `lost` SP lost, in its
/// activation's movement phase.
fn parent(bar: &Bar, lost: u8) -> State {
    let mut st = fresh(bar);
    set(bar, &mut st, "gp", &["0707"], "N", "line");
    st.units[usize::from(unit(bar, "gp"))].lost = lost;
    movement(bar, &mut st, &["gp"]);
    st
}

#[test]
fn r8_5a_example_e19_a_parent_with_losses_breaks_down_into_its_current_sps_as_an_action() {
    let bar = field();
    let mut st = parent(&bar, 2);
    let before = clt(&bar, &st);
    let l = label_of(&bar, &st, "breakdown:gp");
    // E19: 6 SP printed, 2 lost: only 4 SP of components, as equally as possible.
    assert!(
        l.contains("Gren. coy 1 2 SP, Gren. coy 2 1 SP, Gren. coy 3 1 SP")
            && l.contains("0 MP")
            && l.contains("(8.5a)"),
        "{l}"
    );
    let log = act(&bar, &mut st, &["breakdown:gp"], &[]);
    assert_logged(
        &log,
        "breaks down into Gren. coy 1 2 SP, Gren. coy 2 1 SP, Gren. coy 3 1 SP in 0707, line facing N",
    );
    assert_logged(&log, "(8.5a)");
    assert!(!st.on_map(unit(&bar, "gp")));
    for (id, lost) in [("gc1", 0), ("gc2", 1), ("gc3", 1)] {
        let s = &st.units[usize::from(unit(&bar, id))];
        assert_eq!(hexes_of(&bar, &st, id), ["0707"], "{id}");
        assert_eq!(
            (s.formation, s.facing.name()),
            (Formation::Line, "N"),
            "{id}"
        );
        assert_eq!(s.lost, lost, "{id}");
        assert!(s.activated);
    }
    // The losses move with the troops: the Current Loss Total counts each SP once (23.1a).
    assert_eq!(clt(&bar, &st), before);
    assert_eq!(st.phase, Phase::Movement);
    invariants(&bar, &st);
    // Free: the components move with their full MPs, alone or together.
    let l = legal(&bar, &st);
    assert!(l.contains(&"move:gc2".to_string()) && l.iter().any(|x| x.starts_with("move-stack:")));
    act(&bar, &mut st, &["move:gc2"], &[]);
    assert_eq!(left(&st), "4");
}

#[test]
fn r8_5a_each_condition_of_the_breakdown() {
    let bar = field();
    let offered = |st: &State| legal(&bar, st).contains(&"breakdown:gp".to_string());
    assert!(offered(&parent(&bar, 0)));
    // More than 50% of its printed SPs: 3 of 6 is not.
    let st = parent(&bar, 3);
    assert!(!offered(&st));
    refused(&bar, &st, "breakdown:gp");
    // In command.
    let mut st = parent(&bar, 0);
    st.units[usize::from(unit(&bar, "gp"))].ooc = true;
    assert!(!offered(&st));
    // Not disordered (shaken is allowed).
    let mut st = parent(&bar, 0);
    st.units[usize::from(unit(&bar, "gp"))].disordered = true;
    assert!(!offered(&st));
    let mut st = parent(&bar, 0);
    st.units[usize::from(unit(&bar, "gp"))].shaken = true;
    assert!(offered(&st));
    act(&bar, &mut st, &["breakdown:gp"], &[]);
    assert!(st.units[usize::from(unit(&bar, "gc1"))].shaken);
    // Not stacked with another combat unit.
    let mut st = parent(&bar, 0);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    assert!(!offered(&st));
    // Not in an EZOC: the enemy line in 0607 facing south.
    let mut st = parent(&bar, 0);
    set(&bar, &mut st, "e1", &["0607"], "S", "line");
    assert!(!offered(&st));
    // In line or march column only.
    let mut st = parent(&bar, 0);
    set(&bar, &mut st, "gp", &["0707"], "N", "attack");
    assert!(!offered(&st));
    let mut st = parent(&bar, 0);
    set(&bar, &mut st, "gp", &["0707"], "NE", "march");
    assert!(offered(&st));
    // No MP spent: once it has moved, no breakdown.
    let mut st = parent(&bar, 0);
    act(&bar, &mut st, &["move:gp", "stop"], &[]);
    assert!(!offered(&st));
    // Not in a limited activation (6.8b).
    let mut st = parent(&bar, 0);
    st.activation.as_mut().unwrap().limited = true;
    assert!(!offered(&st));
}

/// The three companies stacked in a one-hex line in 0707 facing north, `gc2` with `lost2` lost.
fn companies(bar: &Bar, lost2: u8) -> State {
    let mut st = fresh(bar);
    for id in ["gc1", "gc2", "gc3"] {
        set(bar, &mut st, id, &["0707"], "N", "line");
    }
    st.units[usize::from(unit(bar, "gp"))].hexes.clear();
    st.units[usize::from(unit(bar, "gc2"))].lost = lost2;
    movement(bar, &mut st, &["gc1", "gc2", "gc3"]);
    st
}

#[test]
fn r8_5b_components_re_form_on_a_d100_at_least_their_worst_er_as_an_action() {
    let bar = field();
    let mut st = companies(&bar, 1);
    let before = clt(&bar, &st);
    let id = "reform:gp:0707:line:N";
    let l = label_of(&bar, &st, id);
    assert!(
        l.contains("d100 ≥ 27 needed") && l.contains("(5 SP)") && l.contains("(8.5b)"),
        "{l}"
    );
    let log = act(&bar, &mut st, &[id], &[2, 7]);
    assert_logged(
        &log,
        "try to re-form Gren.-Btl. parent: d100 tens 2, units 7 = 27 ≥ 27 (the worst ER of the components) — re-formed with 5 SP in 0707, line facing N",
    );
    assert_logged(&log, "(8.5b)");
    let g = &st.units[usize::from(unit(&bar, "gp"))];
    assert_eq!(hexes_of(&bar, &st, "gp"), ["0707"]);
    assert_eq!(
        (g.formation, g.facing.name(), g.lost),
        (Formation::Line, "N", 1)
    );
    for id in ["gc1", "gc2", "gc3"] {
        assert!(!st.on_map(unit(&bar, id)), "{id}");
    }
    assert_eq!(clt(&bar, &st), before);
    invariants(&bar, &st);
    // Free: the parent moves with its full MPs.
    act(&bar, &mut st, &["move:gp"], &[]);
    assert_eq!(left(&st), "4");
}

#[test]
fn r8_5b_a_failed_reformation_changes_nothing_and_is_not_tried_again_this_phase() {
    let bar = field();
    let mut st = companies(&bar, 0);
    let log = act(&bar, &mut st, &["reform:gp:0707:line:N"], &[2, 6]);
    assert_logged(&log, "d100 tens 2, units 6 = 26 < 27");
    assert_logged(&log, "no other attempt this movement phase");
    assert!(!st.on_map(unit(&bar, "gp")));
    assert!(ids(&bar, &st, "reform:").is_empty());
    refused(&bar, &st, "reform:gp:0707:line:N");
    // The components keep their full MPs.
    act(&bar, &mut st, &["move:gc1"], &[]);
    assert_eq!(left(&st), "4");
}

#[test]
fn r8_5b_each_condition_of_the_reformation() {
    let bar = field();
    let offered = |st: &State| !ids(&bar, st, "reform:gp:").is_empty();
    assert!(offered(&companies(&bar, 0)));
    // More than 50% of the parent's printed SPs: 2 + 1 + 0 = 3 of 6 is not.
    let mut st = companies(&bar, 1);
    st.units[usize::from(unit(&bar, "gc3"))].lost = 2;
    st.units[usize::from(unit(&bar, "gc3"))].eliminated = true;
    st.units[usize::from(unit(&bar, "gc3"))].hexes.clear();
    assert!(!offered(&st));
    // Stacked alike: one company elsewhere, or facing elsewhere.
    let mut st = companies(&bar, 0);
    set(&bar, &mut st, "gc3", &["0709"], "N", "line");
    assert!(!offered(&st));
    // In command, not disordered, not in an EZOC, not with another unit, none moved yet.
    let mut st = companies(&bar, 0);
    st.units[usize::from(unit(&bar, "gc1"))].ooc = true;
    assert!(!offered(&st));
    let mut st = companies(&bar, 0);
    st.units[usize::from(unit(&bar, "gc2"))].disordered = true;
    assert!(!offered(&st));
    let mut st = companies(&bar, 0);
    set(&bar, &mut st, "e1", &["0607"], "S", "line");
    assert!(!offered(&st));
    let mut st = companies(&bar, 0);
    set(&bar, &mut st, "i1", &["0707"], "N", "line");
    assert!(!offered(&st));
    let mut st = companies(&bar, 0);
    act(&bar, &mut st, &["move:gc1", "stop"], &[]);
    assert!(!offered(&st));
    // All the components must be activated (8.5b "all activated components").
    let mut st = companies(&bar, 0);
    let gc3 = unit(&bar, "gc3");
    st.activation.as_mut().unwrap().units.retain(|&u| u != gc3);
    assert!(!offered(&st));
}

#[test]
fn r8_5c_example_e20_skirmishers_re_form_in_a_common_hex_on_33_or_more() {
    let bar = field();
    let setup = || {
        let mut st = fresh(&bar);
        st.units[usize::from(unit(&bar, "lp"))].hexes.clear();
        set(&bar, &mut st, "sk1", &["0707"], "N", "skirmish");
        set(&bar, &mut st, "sk2", &["0709"], "N", "skirmish");
        set(&bar, &mut st, "sk3", &["0808"], "N", "skirmish");
        movement(&bar, &mut st, &["sk1", "sk2", "sk3"]);
        st
    };
    let mut st = setup();
    let offers = ids(&bar, &st, "reform:lp:");
    // 0708 is adjacent to all three; line (6 hexpoints) or march column (6 hexsides).
    let here: Vec<&String> = offers.iter().filter(|x| x.contains(":0708:")).collect();
    assert_eq!(here.len(), 12, "{offers:?}");
    assert!(offers.iter().all(|x| x.contains(":0708:")), "{offers:?}");
    let l = label_of(&bar, &st, "reform:lp:0708:line:N");
    assert!(
        l.contains("d100 ≥ 33 needed") && l.contains("(8.5c)"),
        "{l}"
    );
    // E20: 00–32 fails.
    let log = act(&bar, &mut st, &["reform:lp:0708:line:N"], &[3, 2]);
    assert_logged(&log, "d100 tens 3, units 2 = 32 < 33");
    assert!(ids(&bar, &st, "reform:").is_empty());
    // 33–99 re-forms: the parent in the common hex, in the chosen formation and facing.
    let mut st = setup();
    let log = act(&bar, &mut st, &["reform:lp:0708:march:SE"], &[3, 3]);
    assert_logged(&log, "d100 tens 3, units 3 = 33 ≥ 33");
    assert_logged(&log, "(8.5c)");
    let s = &st.units[usize::from(unit(&bar, "lp"))];
    assert_eq!(hexes_of(&bar, &st, "lp"), ["0708"]);
    assert_eq!(
        (s.formation, s.facing.name(), s.lost),
        (Formation::MarchColumn, "SE", 0)
    );
    invariants(&bar, &st);
    // An enemy ZOC on the common hex closes it.
    let mut st = setup();
    set(&bar, &mut st, "e1", &["0608"], "S", "line");
    assert!(
        ids(&bar, &st, "reform:lp:0708").is_empty(),
        "{:?}",
        ids(&bar, &st, "reform:")
    );
}

#[test]
fn r8_5_parents_and_components_are_checked_when_the_data_is_read() {
    let problems = |edit: &dyn Fn(String) -> String| field_with(edit).unwrap_err();
    let e = problems(&|s| {
        s.replace(
            "[\"gc1\", \"gc2\", \"gc3\"]",
            "[\"gc1\", \"gc2\", \"nope\"]",
        )
    });
    assert!(
        e.iter()
            .any(|x| x.contains("components: unknown unit \"nope\"")),
        "{e:?}"
    );
    let e = problems(&|s| s.replace("[\"sk1\", \"sk2\", \"sk3\"]", "[\"sk1\", \"sk2\", \"gc3\"]"));
    assert!(
        e.iter()
            .any(|x| x.contains("\"gc3\" is already a component of \"gp\"")),
        "{e:?}"
    );
    let e = problems(&|s| s.replace("[\"gc1\", \"gc2\", \"gc3\"]", "[\"gc1\", \"gc2\"]"));
    assert!(
        e.iter()
            .any(|x| x.contains("the components' printed SPs sum to 4, the parent's are 6 (8.5a)")),
        "{e:?}"
    );
    let e = problems(&|s| s.replace("[\"gc1\", \"gc2\", \"gc3\"]", "[\"gc1\"]"));
    assert!(
        e.iter().any(|x| x.contains("at least two components")),
        "{e:?}"
    );
}

#[test]
fn r8_5_a_parent_and_its_components_are_never_on_the_map_together() {
    let bar = field();
    let mut st = parent(&bar, 0);
    set(&bar, &mut st, "gc1", &["0909"], "N", "line");
    let bad = bar.check_invariants(&st);
    assert!(
        bad.iter().any(|x| x.contains("on the map with its parent")),
        "{bad:?}"
    );
}

/// The light battalion (5 SP: skirmisher companies of 1, 2 and 2 SP) in a one-hex line in `hex`
/// facing north, in its activation's movement phase. The movement charts give clear terrain a
/// skirmisher limit of 4 SP a hex (`data/movebox`).
fn light(bar: &Bar, hex: &str) -> State {
    let mut st = fresh(bar);
    set(bar, &mut st, "lp", &[hex], "N", "line");
    movement(bar, &mut st, &["lp"]);
    st
}

#[test]
fn r8_5a_skirmisher_components_over_the_limit_must_spread_out_before_the_phase_ends() {
    let bar = field();
    let mut st = light(&bar, "0707");
    assert!(legal(&bar, &st).contains(&"breakdown:lp".to_string()));
    let log = act(&bar, &mut st, &["breakdown:lp"], &[]);
    assert_logged(
        &log,
        "5 SP of skirmishers in 0707 are over the skirmisher limit of 4 SP",
    );
    assert_logged(&log, "(8.5a)");
    for id in ["sk1", "sk2", "sk3"] {
        assert_eq!(hexes_of(&bar, &st, id), ["0707"], "{id}");
        assert_eq!(
            st.units[usize::from(unit(&bar, id))].formation,
            Formation::Skirmish
        );
    }
    let e = bar::stacking::legal_at(&bar.sc, &st, hex("0707")).unwrap_err();
    assert!(e.to_string().contains("skirmish"), "{e}");
    // The excess is allowed until the end of the phase (the invariants hold), but the phase may
    // not end with it while a component may still move.
    invariants(&bar, &st);
    assert_eq!(st.phase, Phase::Movement);
    assert!(!legal(&bar, &st).contains(&"movement-done".to_string()));
    assert!(
        bar.apply_id(&mut st.clone(), "movement-done", &mut Vec::new())
            .is_err()
    );
    // A component that begins to move may not stop in the crowded hex (10.1c).
    act(&bar, &mut st, &["move:sk2"], &[]);
    assert!(!legal(&bar, &st).contains(&"stop".to_string()));
    let step = ids(&bar, &st, "step:");
    assert!(!step.is_empty(), "{:?}", legal(&bar, &st));
    act(&bar, &mut st, &[step[0].as_str(), "stop"], &[]);
    assert_ne!(hexes_of(&bar, &st, "sk2"), ["0707"]);
    // 3 SP are left in 0707: within the limit, the phase may end.
    assert!(bar::stacking::legal_at(&bar.sc, &st, hex("0707")).is_ok());
    assert!(legal(&bar, &st).contains(&"movement-done".to_string()));
    invariants(&bar, &st);
}

#[test]
fn r8_5a_a_skirmisher_breakdown_that_could_not_correct_the_excess_is_not_allowed() {
    let bar = field();
    // The corner hex 0101 has two neighbours on the map, 0102 and 0201.
    let corner = |blocked: bool| {
        let mut st = light(&bar, "0101");
        // Friendly cavalry in 0102: infantry may not stack with it (10.2a).
        set(&bar, &mut st, "k1", &["0102"], "N", "line");
        if blocked {
            // A friendly line in 0201: a skirmisher may not stack with it (10.1e).
            set(&bar, &mut st, "i1", &["0201"], "N", "line");
        }
        st
    };
    let st = corner(false);
    assert!(
        legal(&bar, &st).contains(&"breakdown:lp".to_string()),
        "{:?}",
        legal(&bar, &st)
    );
    let st = corner(true);
    assert!(
        !legal(&bar, &st).contains(&"breakdown:lp".to_string()),
        "{:?}",
        legal(&bar, &st)
    );
    refused(&bar, &st, "breakdown:lp");
    // Within the limit no correction is needed: the grenadiers' line components (6 SP of line
    // infantry, limit 16) break down in the same corner.
    let mut st = fresh(&bar);
    set(&bar, &mut st, "gp", &["0101"], "N", "line");
    set(&bar, &mut st, "k1", &["0102"], "N", "line");
    set(&bar, &mut st, "i1", &["0201"], "N", "line");
    movement(&bar, &mut st, &["gp"]);
    assert!(legal(&bar, &st).contains(&"breakdown:gp".to_string()));
}

#[test]
fn r10_1c_the_skirmisher_limit_of_the_tec_binds_units_in_skirmish_order() {
    let bar = field();
    let mut st = fresh(&bar);
    st.units[usize::from(unit(&bar, "lp"))].hexes.clear();
    let at = |st: &State| bar::stacking::legal_at(&bar.sc, st, hex("0707"));
    // 2 + 2 SP in skirmish order: the clear hex's 4.
    set(&bar, &mut st, "sk2", &["0707"], "N", "skirmish");
    set(&bar, &mut st, "sk3", &["0707"], "N", "skirmish");
    assert!(at(&st).is_ok(), "{:?}", at(&st));
    // 5 SP: over it.
    set(&bar, &mut st, "sk1", &["0707"], "N", "skirmish");
    let e = at(&st).unwrap_err().to_string();
    assert!(
        e.contains("skirmish") && e.contains('5') && e.contains('4'),
        "{e}"
    );
    // The same 5 SP in line are held by the infantry limit (16) alone.
    for id in ["sk1", "sk2", "sk3"] {
        set(&bar, &mut st, id, &["0707"], "N", "line");
    }
    assert!(at(&st).is_ok(), "{:?}", at(&st));
}

#[test]
fn r8_5a_random_play_after_an_over_limit_breakdown_always_corrects_the_excess() {
    let bar = field();
    let start = {
        let mut st = light(&bar, "0707");
        act(&bar, &mut st, &["breakdown:lp"], &[]);
        st
    };
    let comps = ["sk1", "sk2", "sk3"].map(|id| unit(&bar, id));
    for seed in 0..200u64 {
        let mut st = start.clone();
        let mut pick = engine::Dice::new(seed);
        let mut steps = 0;
        while matches!(
            st.phase,
            Phase::Movement
                | Phase::Moving(_)
                | Phase::Reaction { .. }
                | Phase::LeaderMoving { .. }
        ) {
            let l = bar.legal_actions(&st);
            assert!(!l.is_empty(), "seed {seed}: no action in {:?}", st.phase);
            let a = l[pick.below(l.len())].clone();
            bar.apply_legal(&mut st, &a, &mut Vec::new());
            let bad = bar.check_invariants(&st);
            assert!(bad.is_empty(), "seed {seed}: {bad:?}");
            steps += 1;
            assert!(steps < 2_000, "seed {seed}: the phase does not end");
        }
        // The phase ended: no unrouted component stands over the limit anywhere (10.1c).
        for &c in &comps {
            let s = &st.units[usize::from(c)];
            if s.routed || !st.on_map(c) {
                continue;
            }
            assert!(
                bar::stacking::legal_at(&bar.sc, &st, s.hexes[0]).is_ok(),
                "seed {seed}: {:?}",
                bar::stacking::legal_at(&bar.sc, &st, s.hexes[0])
            );
        }
    }
}
