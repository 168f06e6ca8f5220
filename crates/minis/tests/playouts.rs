//! Seeded random playouts of every scenario: after every action the invariants hold (no
//! overlapping bases, effectiveness within bounds, generals with live units), the decider has
//! actions, the state survives clone and serde round trips, and replaying the ids gives the same
//! state. Every game ends in a victory by the points rule.
use engine::{Dice, Ruleset};
use minis::Minis;

fn playout(scenario: &str, options: &[String], seed: u64, check_every: usize) -> (String, usize) {
    let rules = Minis::load(scenario, options, None).expect("built-in scenario loads");
    let mut ev = Vec::new();
    let mut st = rules.start(seed, &mut ev);
    let mut pick = Dice::new(seed ^ 0xabcdef);
    let mut ids = Vec::new();
    let mut n = 0;
    while rules.decider(&st).is_some() {
        let legal = rules.legal_actions(&st);
        assert!(
            !legal.is_empty(),
            "{scenario} seed {seed}: the decider has no actions"
        );
        let a = &legal[pick.below(legal.len())];
        let id = rules.action_id(a);
        rules
            .apply_id(&mut st, &id, &mut ev)
            .unwrap_or_else(|e| panic!("{scenario} seed {seed}: menu action {id} refused: {e}"));
        ids.push(id);
        n += 1;
        let bad = rules.check_invariants(&st);
        assert!(
            bad.is_empty(),
            "{scenario} seed {seed} after {n} actions: {bad:?}"
        );
        if n % check_every == 0 {
            let c = st.clone();
            assert_eq!(c, st);
            let j = serde_json::to_string(&st).expect("serialises");
            let back: minis::State = serde_json::from_str(&j).expect("deserialises");
            assert_eq!(back, st);
        }
        assert!(n < 100_000, "{scenario} seed {seed}: no result");
    }
    // Replay equality.
    let mut ev2 = Vec::new();
    let mut again = rules.start(seed, &mut ev2);
    for id in &ids {
        rules.apply_id(&mut again, id, &mut ev2).expect("replays");
    }
    assert_eq!(again, st, "{scenario} seed {seed}: replay differs");
    let o = rules.outcome(&st).expect("an outcome");
    (o.rule, n)
}

#[test]
fn playouts_encounter() {
    for seed in 1..=4 {
        let (rule, _) = playout("minis-encounter", &[], seed, 25);
        assert_eq!(rule, "Victory", "seed {seed}");
    }
}

#[test]
fn playouts_fontenoy() {
    for seed in 1..=4 {
        let (rule, _) = playout("minis-fontenoy", &[], seed, 25);
        assert_eq!(rule, "Victory", "seed {seed}");
    }
}

#[test]
fn playouts_with_every_option() {
    let opts: Vec<String> = minis::OPTIONS.iter().map(|s| s.to_string()).collect();
    for seed in 5..=6 {
        playout("minis-encounter", &opts, seed, 50);
        playout("minis-fontenoy", &opts, seed, 50);
    }
}
