//! Seeded random playouts of every scenario: after every action the invariants hold (no
//! overlapping bases, effectiveness within bounds, generals with live units), the decider has
//! actions, the state survives clone and serde round trips, and replaying the ids gives the same
//! state. Every game ends in a victory by the points rule, and no phase is longer than the bound
//! the rules give (docs/minis.md M9): a sector's phase takes at most
//! `Minis::max_actions_per_sector` actions, a unit at most `Minis::max_unit_actions_per_phase`.
use engine::{Dice, Ruleset};
use minis::Minis;

/// Play a game choosing among the menu at random; with `repeat`, before each choice in the move
/// step, also try the actions the menu leaves out that a player may send any number of times —
/// an about-face, the smallest wheel, the smallest step — of the unit the choice would order.
fn playout_with(
    scenario: &str,
    options: &[String],
    seed: u64,
    check_every: usize,
    repeat: bool,
) -> (String, usize) {
    let rules = Minis::load(scenario, options, None).expect("built-in scenario loads");
    let mut ev = Vec::new();
    let mut st = rules.start(seed, &mut ev);
    let mut pick = Dice::new(seed ^ 0xabcdef);
    let mut ids = Vec::new();
    let mut n = 0;
    // Docs M9: the bound of a sector's phase and of one unit's actions in it.
    let sector_max = rules.max_actions_per_sector();
    let unit_max = rules.max_unit_actions_per_phase();
    let game_max = sector_max * 6 * rules.sc.file.scenario.max_turns as usize;
    let mut phase = (st.turn, st.active, st.sector);
    let mut in_phase = 0;
    let mut per_unit = vec![0usize; st.units.len()];
    let mut about_faces = vec![0usize; st.units.len()];
    let mut last_probe: Option<(String, usize)> = None;
    while rules.decider(&st).is_some() {
        let legal = rules.legal_actions(&st);
        assert!(
            !legal.is_empty(),
            "{scenario} seed {seed}: the decider has no actions"
        );
        let a = &legal[pick.below(legal.len())];
        let mut id = rules.action_id(a);
        let mut unit = a.moving_unit();
        // A repeating player sends his last action again three times in four while it is legal.
        if let Some((t, u)) = last_probe.take()
            && pick.below(4) < 3
            && rules.apply_id(&mut st.clone(), &t, &mut Vec::new()).is_ok()
        {
            id = t.clone();
            unit = Some(u);
            last_probe = Some((t, u));
        } else if repeat && let Some(u) = unit {
            let uid = &rules.sc.file.units[u].id;
            let tries = [
                format!("about-face:{uid}"),
                format!("wheel:{uid}:0.1"),
                format!("wheel:{uid}:-0.1"),
                format!("advance:{uid}:0.1"),
            ];
            let t = &tries[pick.below(tries.len())];
            let mut probe = st.clone();
            if rules.apply_id(&mut probe, t, &mut Vec::new()).is_ok() {
                id = t.clone();
                unit = Some(u);
                last_probe = Some((t.clone(), u));
            }
        }
        rules
            .apply_id(&mut st, &id, &mut ev)
            .unwrap_or_else(|e| panic!("{scenario} seed {seed}: action {id} refused: {e}"));
        let about_face = id.starts_with("about-face:");
        ids.push(id);
        n += 1;
        let now = (st.turn, st.active, st.sector);
        if now != phase {
            phase = now;
            in_phase = 0;
            per_unit.iter_mut().for_each(|c| *c = 0);
            about_faces.iter_mut().for_each(|c| *c = 0);
        }
        in_phase += 1;
        assert!(
            in_phase <= sector_max,
            "{scenario} seed {seed}: {in_phase} actions in one sector's phase"
        );
        if let Some(u) = unit {
            if about_face {
                about_faces[u] += 1;
                assert!(
                    about_faces[u] <= 2,
                    "{scenario} seed {seed}: a third about-face in a phase (M4)"
                );
            }
            per_unit[u] += 1;
            assert!(
                per_unit[u] <= unit_max,
                "{scenario} seed {seed}: {} acted {} times in a phase",
                rules.sc.file.units[u].id,
                per_unit[u]
            );
        }
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
        assert!(
            n <= game_max,
            "{scenario} seed {seed}: longer than the rules allow"
        );
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

fn playout(scenario: &str, options: &[String], seed: u64, check_every: usize) -> (String, usize) {
    playout_with(scenario, options, seed, check_every, false)
}

/// Issue 12: players who repeat the about-face, the smallest wheel and the smallest step of the
/// units they order still play games within the bound (docs/minis.md M4, M9).
#[test]
fn playouts_repeating_free_and_small_actions_stay_within_the_bound() {
    for seed in 11..=12 {
        playout_with("minis-encounter", &[], seed, 50, true);
        playout_with("minis-fontenoy", &[], seed, 50, true);
    }
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
