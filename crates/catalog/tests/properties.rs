//! Properties every ruleset keeps, over every scenario of the catalogue, checked with proptest on
//! games played by choosing among the legal actions at random:
//!
//! - any text sent as an action is either applied or refused, never a panic, and a refusal leaves
//!   the game exactly as it was (what the CLI and the server promise for bad input);
//! - a game's record (scenario, options, seed, actions) replays to the identical state;
//! - a saved state loads back to the same state and the same legal actions.
//!
//! When proptest finds a failure it shrinks it to the shortest game and the simplest text.
use engine::DynGame;
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Every scenario of the catalogue, by id.
fn scenario_ids() -> Vec<String> {
    catalog::scenarios()
        .into_iter()
        .map(|s| s.id.to_string())
        .collect()
}

/// A game of scenario `k` (modulo the catalogue) with seed `seed`, after choosing the legal
/// action `picks[i]` (modulo their number) `picks.len()` times or until the end; its actions.
fn played(k: usize, seed: u64, picks: &[usize]) -> (String, Box<dyn DynGame>, Vec<String>) {
    let ids = scenario_ids();
    let id = ids[k % ids.len()].clone();
    let (mut g, _) = catalog::open(&id, &[], None, seed).expect("a built-in scenario opens");
    let mut actions = Vec::new();
    for &p in picks {
        let n = g.legal_count();
        if n == 0 || g.outcome().is_some() {
            break;
        }
        let (a, _) = g.apply_index(p % n).expect("a legal action applies");
        actions.push(a);
    }
    (id, g, actions)
}

/// Texts a client might send: well-formed ids with odd values, ids of the game's own shape with
/// a part changed, and anything at all.
fn action_text() -> impl Strategy<Value = String> {
    let word = "[a-z][a-z-]{0,14}";
    let value = prop_oneof![
        "[0-9]{1,4}",
        "-?[0-9]{1,6}\\.[0-9]{1,3}",
        Just("NaN".to_string()),
        Just("inf".to_string()),
        Just("-inf".to_string()),
        Just("1e308".to_string()),
        Just("-0".to_string()),
        Just("".to_string()),
        "[A-Za-z0-9+]{1,6}",
    ];
    prop_oneof![
        (word, value.clone()).prop_map(|(w, v)| format!("{w}:{v}")),
        (word, word, value.clone()).prop_map(|(w, u, v)| format!("{w}:{u}:{v}")),
        (word, word, value.clone(), value).prop_map(|(w, u, a, b)| format!("{w}:{u}:{a}:{b}")),
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(Config { cases: 96, ..Config::default() })]

    #[test]
    fn any_text_is_applied_or_refused_and_a_refusal_changes_nothing(
        k in 0usize..64,
        seed in 0u64..1_000,
        picks in prop::collection::vec(any::<usize>(), 0..80),
        text in action_text(),
        mutate in any::<bool>(),
    ) {
        let (id, mut g, _) = played(k, seed, &picks);
        // Half the time, a legal id with one of its parts replaced by the generated text's last
        // part: the shape the game expects with a value it may not.
        let text = match (mutate, g.legal().first()) {
            (true, Some(a)) => {
                let mut parts: Vec<&str> = a.id.split(':').collect();
                let last = text.rsplit(':').next().unwrap_or("");
                if let Some(p) = parts.last_mut() {
                    *p = last;
                }
                parts.join(":")
            }
            _ => text,
        };
        let before = g.state_json();
        let legal_before: Vec<String> = g.legal().into_iter().map(|a| a.id).collect();
        match g.apply(&text) {
            Ok(_) => {
                prop_assert!(g.invariants().is_empty(), "{id}: {text:?}: {:?}", g.invariants());
            }
            Err(e) => {
                prop_assert!(!e.to_string().is_empty());
                prop_assert_eq!(&g.state_json(), &before, "{}: {:?} changed the game", id, text);
                let legal_after: Vec<String> = g.legal().into_iter().map(|a| a.id).collect();
                prop_assert_eq!(legal_after, legal_before);
            }
        }
    }

    #[test]
    fn a_record_replays_to_the_identical_state(
        k in 0usize..64,
        seed in 0u64..1_000_000,
        picks in prop::collection::vec(any::<usize>(), 0..150),
    ) {
        let (id, g, actions) = played(k, seed, &picks);
        let rec = catalog::record(g.as_ref(), &id, &[], seed, actions, Vec::new());
        // Through the record's JSON text, as a file or the server stores it.
        let text = serde_json::to_string(&rec).expect("a record serialises");
        let back: engine::GameRecord = serde_json::from_str(&text).expect("and reads back");
        let r = catalog::replay(&back, None, true);
        prop_assert!(r.is_ok(), "{}: {:?}", id, r.err().map(|e| e.to_string()));
    }

    #[test]
    fn a_saved_state_loads_back_with_the_same_legal_actions(
        k in 0usize..64,
        seed in 0u64..1_000_000,
        picks in prop::collection::vec(any::<usize>(), 0..150),
    ) {
        let (id, g, _) = played(k, seed, &picks);
        let (mut fresh, _) = catalog::open(&id, &[], None, seed ^ 1).expect("opens");
        let saved = serde_json::to_string(&g.state_json()).expect("a state serialises");
        let value = serde_json::from_str(&saved).expect("and reads back");
        prop_assert!(fresh.load_state(value).is_ok());
        prop_assert_eq!(fresh.state_json(), g.state_json());
        let a: Vec<String> = g.legal().into_iter().map(|a| a.id).collect();
        let b: Vec<String> = fresh.legal().into_iter().map(|a| a.id).collect();
        prop_assert_eq!(a, b, "{}", id);
    }
}
