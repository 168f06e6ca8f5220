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
