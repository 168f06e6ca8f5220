//! Seeded random playouts of the test scenario: every game reaches its end, the invariants hold
//! after every action, only the decider acts, a record replays to the same state and the state
//! survives a JSON round trip.
mod common;
use bar::State;
use engine::{Dice, Ruleset};

#[test]
fn r4_0_random_games_reach_the_end_with_the_invariants_after_every_action() {
    let bar = common::mini();
    for seed in 0..200u64 {
        let mut ev = Vec::new();
        let mut st = bar.start(seed, &mut ev);
        let mut pick = Dice::new(seed ^ 0xabcdef);
        let mut ids = Vec::new();
        let mut n = 0;
        while bar.decider(&st).is_some() {
            let bad = bar.check_invariants(&st);
            assert!(bad.is_empty(), "seed {seed}, after {n} actions: {bad:?}");
            let legal = bar.legal_actions(&st);
            assert!(
                !legal.is_empty(),
                "seed {seed}: a decider without actions: {:?}",
                st.phase
            );
            let a = legal[pick.below(legal.len())].clone();
            ids.push(bar.action_id(&a));
            bar.apply_legal(&mut st, &a, &mut ev);
            n += 1;
            assert!(n < 20_000, "seed {seed}: no end after {n} actions");
        }
        assert!(bar.outcome(&st).is_some());
        assert_eq!(
            st.turn, bar.sc.turns,
            "seed {seed}: ended before the last turn"
        );
        // Replay.
        let mut ev2 = Vec::new();
        let mut again = bar.start(seed, &mut ev2);
        for id in &ids {
            bar.apply_id(&mut again, id, &mut ev2).unwrap(); // ids from a legal game
        }
        assert_eq!(again, st, "seed {seed}: replay differs");
        assert_eq!(
            ev.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            ev2.iter().map(|e| e.to_string()).collect::<Vec<_>>()
        );
        let json = serde_json::to_string(&st).unwrap(); // a state serialises
        let back: State = serde_json::from_str(&json).unwrap(); // and reads back
        assert_eq!(back, st);
    }
}

#[test]
fn r4_0_bar_drill_plays_every_turn_with_the_invariants_after_every_action() {
    let bar = bar::Bar::load("bar-drill", &[], None).unwrap(); // the built-in scenario is valid
    let (mut fires, mut opportunity) = (0, 0);
    // 8.5, 11.6: breakdowns, reformation attempts and prolonge steps made.
    let (mut breakdowns, mut reforms, mut prolonges) = (0, 0, 0);
    for seed in 0..40u64 {
        let mut ev = Vec::new();
        let mut st = bar.start(seed, &mut ev);
        let mut pick = Dice::new(seed ^ 0x5eed);
        let mut n = 0;
        let mut activations = 0;
        while bar.decider(&st).is_some() {
            let bad = bar.check_invariants(&st);
            assert!(bad.is_empty(), "seed {seed}, after {n} actions: {bad:?}");
            let legal = bar.legal_actions(&st);
            let a = legal[pick.below(legal.len())].clone();
            bar.apply_legal(&mut st, &a, &mut ev);
            n += 1;
        }
        for e in &ev {
            if matches!(e, bar::Event::Activates { .. }) {
                activations += 1;
            }
            if let bar::Event::Fire { text, .. } = e {
                fires += usize::from(text.starts_with("Fire (12.1)"));
                opportunity += usize::from(text.starts_with("Opportunity fire (12.8)"));
            }
            if let bar::Event::Movement { rule, .. } = e {
                breakdowns += usize::from(rule == "8.5a");
                reforms += usize::from(rule == "8.5b" || rule == "8.5c");
                prolonges += usize::from(rule == "11.6");
            }
        }
        // 6.3a: every brigade is activated once a turn (some by a wing activation, several at once).
        let turns = usize::from(bar.sc.turns);
        assert!(
            activations >= turns,
            "seed {seed}: {activations} activations in {turns} turns"
        );
        assert!(activations <= turns * bar.sc.brigades.len());
        assert_eq!(st.turn, bar.sc.turns);
    }
    // The armies meet: random play fires in the fire phase (12.1) and at movement triggers (12.8).
    assert!(
        fires > 0 && opportunity > 0,
        "{fires} fires, {opportunity} opportunity fires"
    );
    // The drill's parents break down and re-form, its 'P' and 'FP' batteries move by prolonge.
    assert!(
        breakdowns > 0 && reforms > 0 && prolonges > 0,
        "{breakdowns} breakdowns, {reforms} reformation attempts, {prolonges} prolonge steps"
    );
}

/// The invariants' breaks naming `tag`, in a start position edited by `edit`.
fn breaks_with(edit: impl Fn(&bar::Bar, &mut State), tag: &str) -> Vec<String> {
    let bar = common::mini();
    let mut ev = Vec::new();
    let mut st = bar.start(1, &mut ev);
    edit(&bar, &mut st);
    bar.check_invariants(&st)
        .into_iter()
        .filter(|b| b.contains(tag))
        .collect()
}

#[test]
fn r10_1e_the_invariants_catch_a_stack_of_two_formations_at_rest() {
    // FOR 1 and FOR 2 stacked in line are a stack; FOR 2 in march column with it is not
    // (10.1e), and cavalry with them neither (10.2a).
    let stack = |id: &'static str, form: Option<bar::geom::Formation>| {
        move |bar: &bar::Bar, st: &mut State| {
            let f = usize::from(common::unit(bar, "for1"));
            let (hexes, facing) = (st.units[f].hexes, st.units[f].facing);
            let u = usize::from(common::unit(bar, id));
            st.units[u].hexes = hexes;
            st.units[u].formation = form.unwrap_or(st.units[f].formation);
            st.units[u].facing = facing;
        }
    };
    assert_eq!(
        breaks_with(stack("for2", None), "(10."),
        Vec::<String>::new()
    );
    let march = Some(bar::geom::Formation::MarchColumn);
    assert!(
        breaks_with(stack("for2", march), "(10.1e)")
            .iter()
            .any(|b| b.contains("different formations")),
        "{:?}",
        breaks_with(stack("for2", march), "(10.")
    );
    assert_eq!(
        breaks_with(stack("x2", None), "(10.2a)"),
        ["cavalry stacked with infantry or artillery in 0406 (10.2a)"]
    );
}

#[test]
fn r8_1a_8_1f_the_invariants_catch_a_footprint_its_sps_do_not_fill() {
    // 8.1a: an infantry line holds two hexes only with T5's minimum (the drill ground's 3 ranks:
    // 5 SP); a cavalry line needs 4 SP a hex; 8.1f: a road column holds 4 SP a hex. Drill ground
    // `tests/data/move` (its charts have T5).
    let bar = bar::Bar::from_dir(&common::data().join("move"), &common::data())
        .expect("the fixture is valid");
    let breaks = |id: &str, hexes: &[&str], facing: &str, form: &str, lost: u8| {
        let mut ev = Vec::new();
        let mut st = bar.start(1, &mut ev);
        let f = bar::geom::Formation::parse(form).expect("a formation");
        let u = usize::from(common::unit(&bar, id));
        st.units[u].hexes = hexes.iter().map(|h| common::hex(h)).collect();
        st.units[u].formation = f;
        st.units[u].facing = bar::scenario::parse_facing(facing, f).expect("a facing");
        st.units[u].lost = lost;
        bar.check_invariants(&st)
            .into_iter()
            .filter(|b| b.contains("SP over"))
            .collect::<Vec<_>>()
    };
    // IR 1/I, 6 SP: fills two hexes of line; with 2 lost it does not.
    assert_eq!(
        breaks("i1", &["1205", "1206"], "N", "line", 0),
        Vec::<String>::new()
    );
    assert_eq!(
        breaks("i1", &["1205", "1206"], "N", "line", 2),
        ["IR 1/I: a line of 4 SP over 2 hexes (8.1)"]
    );
    // 12 cavalry SP hold three hexes of line, not with 5 lost.
    assert_eq!(
        breaks("k1", &["1205", "1206", "1207"], "N", "line", 0),
        Vec::<String>::new()
    );
    assert_eq!(
        breaks("k1", &["1205", "1206", "1207"], "N", "line", 5),
        ["KR 1: a line of 7 SP over 3 hexes (8.1)"]
    );
    // A road column of 6 SP is two hexes long (4 + 2), not one.
    assert_eq!(
        breaks("i1", &["1205"], "E", "road", 0),
        ["IR 1/I: a road column of 6 SP over 1 hex (8.1)"]
    );
}
