//! Properties every ruleset keeps, over every scenario of the catalogue, checked with proptest on
//! games played by choosing among the legal actions at random:
//!
//! - any text sent as an action is either applied or refused, never a panic, and a refusal leaves
//!   the game exactly as it was (what the CLI and the server promise for bad input);
//! - a game's record (scenario, options, seed, actions) replays to the identical state;
//! - a saved state loads back to the same state and the same legal actions;
//! - a unit whose actions are repeated whenever one is legal (about-faces, facing changes, the
//!   smallest wheels and steps) cannot hold the game still or make its state grow (issue 12).
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

/// The most actions the scripted run of one unit takes (issue 12).
const SCRIPTED_ACTIONS: usize = 10_000;

/// The longest run of actions without [`DynGame::progress`] moving on (a player's move in the
/// miniatures, an activation or combat phase in the French series) that the scripted run accepts:
/// above a unit's whole phase of the smallest wheels (`Minis::max_unit_actions_per_phase`, 2,462
/// with the built-in tables; docs/minis.md M9), half of [`SCRIPTED_ACTIONS`], so an action that
/// can be repeated for ever fails it.
const STREAK_MAX: usize = 5_000;

/// The serialised state stays within this many bytes of its size at the start (issue 12): the
/// pending procedures of the French series and the contacts of the miniatures come and go; nothing
/// may pile up.
const STATE_GROWTH_MAX: usize = 16 * 1024;

/// The moving group's actions of the French series: after `move-unit:U` (or a stack or line
/// holding U) they move U without naming it.
const GROUP_VERBS: [&str; 5] = ["step", "turn", "about-face", "change-order", "leave-zoc"];

/// Whether an action id names unit `u` (parts split at `:`, `+` and `>`).
fn names(id: &str, u: &str) -> bool {
    id.split([':', '+', '>']).any(|p| p == u)
}

/// Whether an action id ends something (a group's move, an activation, a step of the sequence).
fn ends_something(id: &str) -> bool {
    id == "stop" || id == "pass" || id.starts_with("end-") || id.ends_with("-done")
}

/// The ids of unit `u` to try beyond the legal list: the continuous actions the miniatures accept
/// outside their menu — an about-face, the smallest wheel either way, the smallest step forward.
/// Another ruleset refuses them, which changes nothing.
fn probes(u: &str) -> Vec<String> {
    vec![
        format!("about-face:{u}"),
        format!("wheel:{u}:0.1"),
        format!("wheel:{u}:-0.1"),
        format!("advance:{u}:0.1"),
    ]
}

/// The unit ids of a game's board.
fn unit_ids(g: &dyn DynGame) -> Vec<String> {
    g.board()["units"]
        .as_array()
        .map(|us| {
            us.iter()
                .filter_map(|u| u["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The legal ids that are unit `u`'s, `in_group` when U's moving group is on.
fn own_ids(g: &dyn DynGame, u: &str, in_group: bool) -> Vec<String> {
    g.legal()
        .into_iter()
        .map(|a| a.id)
        .filter(|id| {
            names(id, u) || (in_group && GROUP_VERBS.contains(&id.split(':').next().unwrap_or("")))
        })
        .collect()
}

/// What the scripted run saw.
#[derive(Debug, Default)]
struct Scripted {
    /// Actions applied, and of those the unit's.
    actions: usize,
    own: usize,
    /// The longest run without progress.
    streak: usize,
    /// The largest serialised state, and the first.
    bytes: usize,
    start_bytes: usize,
}

/// Scenario `id`, seed `seed`: for up to [`SCRIPTED_ACTIONS`] actions, apply an action of unit `u`
/// whenever one is legal (the `policy`-th choice among them, turning: 0 hammers the first, which
/// is the about-face probe, 1 rotates, 2 takes the last), else the action that soonest gives U
/// one (one step of look-ahead), else an action that ends something, else the first.
fn scripted_run(id: &str, seed: u64, u: &str, policy: usize) -> Scripted {
    let (mut g, _) = catalog::open(id, &[], None, seed).expect("a built-in scenario opens");
    let size = |g: &dyn DynGame| {
        serde_json::to_string(&g.state_json())
            .map(|s| s.len())
            .unwrap_or(usize::MAX)
    };
    let mut r = Scripted {
        start_bytes: size(g.as_ref()),
        ..Scripted::default()
    };
    r.bytes = r.start_bytes;
    let mut in_group = false;
    let mut streak = 0;
    let mut progress = g.progress();
    while r.actions < SCRIPTED_ACTIONS && g.outcome().is_none() {
        let mut own = probes(u);
        own.extend(own_ids(g.as_ref(), u, in_group));
        let k = match policy {
            0 => 0,
            1 => r.actions,
            _ => own.len() - 1,
        };
        let mut applied = false;
        for i in 0..own.len() {
            let a = &own[(k + i) % own.len()];
            if g.apply(a).is_ok() {
                applied = true;
                break;
            }
        }
        if applied {
            in_group = true;
            r.own += 1;
        } else {
            in_group = false;
            let legal: Vec<String> = g.legal().into_iter().map(|a| a.id).collect();
            if legal.is_empty() {
                break;
            }
            let leads = legal.iter().take(16).find(|a| {
                let mut c = g.boxed_clone();
                c.apply(a).is_ok() && !own_ids(c.as_ref(), u, false).is_empty()
            });
            let pick = leads
                .or_else(|| legal.iter().find(|a| ends_something(a)))
                .unwrap_or(&legal[0])
                .clone();
            g.apply(&pick).expect("a legal action applies");
        }
        r.actions += 1;
        r.bytes = r.bytes.max(size(g.as_ref()));
        if g.progress() == progress {
            streak += 1;
            r.streak = r.streak.max(streak);
        } else {
            progress = g.progress();
            streak = 0;
        }
    }
    r
}

/// Issue 12: in every scenario, a unit that repeats its actions — the same about-face, facing
/// change, wheel or step back and forth, whenever one is legal — cannot hold the game still: it
/// moves on (the phase, the activation or the player's move changes, or the unit's actions run
/// out) and the state does not grow.
#[test]
fn a_unit_repeating_its_actions_cannot_stop_the_game_or_grow_it() {
    for s in catalog::scenarios() {
        let (g, _) = catalog::open(s.id, &[], None, 1).expect("opens");
        let units = unit_ids(g.as_ref());
        assert!(!units.is_empty(), "{}: no units on the board", s.id);
        for (n, ui) in [0, units.len() / 2, units.len() - 1]
            .into_iter()
            .enumerate()
        {
            let u = &units[ui];
            let r = scripted_run(s.id, 1 + n as u64, u, n % 3);
            assert!(
                r.streak <= STREAK_MAX,
                "{} {u}: {} actions without the game moving on",
                s.id,
                r.streak
            );
            assert!(
                r.bytes <= r.start_bytes + STATE_GROWTH_MAX,
                "{} {u}: the state grew from {} to {} bytes",
                s.id,
                r.start_bytes,
                r.bytes
            );
        }
    }
}

proptest! {
    #![proptest_config(Config { cases: 12, ..Config::default() })]

    /// The scripted run of issue 12 with any unit, seed and way of choosing among its actions.
    #[test]
    fn any_unit_repeating_its_actions_cannot_stop_the_game_or_grow_it(
        k in 0usize..64,
        unit in any::<usize>(),
        seed in 0u64..1_000,
        policy in 0usize..3,
    ) {
        let ids = scenario_ids();
        let id = &ids[k % ids.len()];
        let (g, _) = catalog::open(id, &[], None, seed).expect("opens");
        let units = unit_ids(g.as_ref());
        let u = &units[unit % units.len()];
        let r = scripted_run(id, seed, u, policy);
        prop_assert!(r.streak <= STREAK_MAX, "{} {}: {:?}", id, u, r);
        prop_assert!(r.bytes <= r.start_bytes + STATE_GROWTH_MAX, "{} {}: {:?}", id, u, r);
    }
}
