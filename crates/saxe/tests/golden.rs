//! Golden playthroughs: the log of seeded games as snapshots (insta). A change to the rules that
//! changes a game shows here as a diff to review; accept it with `cargo insta review` (or
//! `INSTA_UPDATE=always`) once it is intended. Also "perft" counts of legal actions from fixed positions.
use engine::{Dice, Ruleset};
use saxe::Saxe;

fn log_of(id: &str, seed: u64, actions: usize) -> String {
    let r = Saxe::load(id, &[], None).expect("built-in scenario"); // invariant: shipped data is valid
    let mut ev = Vec::new();
    let mut s = r.start(seed, &mut ev);
    let mut out: Vec<String> = ev.iter().map(|e| e.to_string()).collect();
    let mut pick = Dice::new(seed);
    for _ in 0..actions {
        if r.decider(&s).is_none() {
            break;
        }
        let legal = r.legal_actions(&s);
        let a = legal[pick.below(legal.len())].clone();
        let aid = r.action_id(&a);
        let mut e = Vec::new();
        r.apply_id(&mut s, &aid, &mut e)
            .expect("legal action applies");
        out.push(format!("> {aid}"));
        out.extend(e.iter().map(|x| format!("  {x}")));
    }
    out.join("\n")
}

#[test]
fn golden_hastenbeck_seed_42_first_250_actions() {
    insta::assert_snapshot!(log_of("hastenbeck", 42, 250));
}

#[test]
fn golden_hastenbeck_free_seed_7_first_250_actions() {
    insta::assert_snapshot!(log_of("hastenbeck-free", 7, 250));
}

/// Number of legal actions after each prefix of a fixed line of play (like a chess engine's perft
/// table): the set-up offers every formation (and its automatic activation on turn 1) and every
/// independent unit of the French.
#[test]
fn perft_legal_action_counts_from_fixed_positions() {
    let r = Saxe::load("hastenbeck", &[], None).expect("built-in scenario"); // invariant
    let mut ev = Vec::new();
    let mut s = r.start(1, &mut ev);
    let mut counts = Vec::new();
    counts.push(("start".to_string(), r.legal_actions(&s).len()));
    for id in ["activate-auto:broglie", "move-line:du-roi"] {
        r.apply_id(&mut s, id, &mut ev)
            .expect("line of play is legal");
        counts.push((id.to_string(), r.legal_actions(&s).len()));
    }
    // 4 French formations × (test + automatic) + 2 independent units.
    assert_eq!(counts[0].1, 10, "{counts:?}");
    insta::assert_debug_snapshot!(counts);
}
