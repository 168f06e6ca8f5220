//! A random playout's draw of a moving unit's action without listing its menu
//! (`movement::sample`, `Ruleset::random_action`): each entry of the listed menu (11.1: moves and
//! formation changes the unit may make, 10.1a, 11.4 rapid march, stop) is drawn as often as the
//! others, nothing else is drawn, and games drawn that way replay through the listed menus.
mod common;
#[path = "common/field85.rs"]
mod field85;
use bar::state::Phase;
use common::*;
use engine::{Dice, Ruleset};
use field85::*;
use std::collections::BTreeMap;

#[test]
fn r11_1_a_random_action_draws_each_entry_of_the_listed_menu_equally_often() {
    let bar = field();
    // A line facing north with an enemy in one front hex and a friend in the other: steps into
    // the enemy's hex are candidates the menu closes (11.1, 10.1a), others stay open.
    let mut p = fresh(&bar);
    set(&bar, &mut p, "i1", &["0707"], "N", "line");
    set(&bar, &mut p, "e1", &["0607"], "S", "line");
    set(&bar, &mut p, "gr", &["0606"], "N", "line");
    movement(&bar, &mut p, &["i1"]);
    act(&bar, &mut p, &["move:i1"], &[]);
    // Another position (one MP less), whose menu replaces the one kept for `p` between draws:
    // every draw at `p` starts from a menu nobody has checked.
    let mut q = p.clone();
    if let Phase::Moving(m) = &mut q.phase {
        m.left = m.left.saturating_sub(engine::Half::ONE);
    }
    assert_ne!(p, q);
    let listed = legal(&bar, &p);
    assert!(listed.len() >= 4, "{listed:?}");
    assert!(!listed.iter().any(|x| x == "step:0607"), "{listed:?}");
    assert!(listed.iter().any(|x| x == "rapid"), "{listed:?}");
    assert!(listed.iter().any(|x| x == "stop"), "{listed:?}");
    let draws = 4000u64;
    let mut count: BTreeMap<String, u64> = BTreeMap::new();
    for i in 0..draws {
        let _ = bar.legal_actions(&q);
        let a = bar
            .random_action(&p, &mut Dice::new(i))
            .expect("a moving unit has actions");
        let id = bar.action_id(&a);
        assert!(listed.contains(&id), "{id} drawn, not listed: {listed:?}");
        *count.entry(id).or_default() += 1;
    }
    let n = listed.len() as f64;
    for id in &listed {
        let times = listed.iter().filter(|x| *x == id).count() as f64;
        let p1 = times / n;
        let expected = draws as f64 * p1;
        let sigma = (draws as f64 * p1 * (1.0 - p1)).sqrt();
        let got = count.get(id).copied().unwrap_or(0) as f64;
        assert!(
            (got - expected).abs() <= 5.0 * sigma,
            "{id}: drawn {got} times in {draws}, expected {expected:.0} ± {:.0}: {count:?}",
            5.0 * sigma
        );
    }
}

#[test]
fn r11_1_random_games_drawn_without_listing_keep_the_invariants_and_replay_through_the_listed_menus()
 {
    let bar = bar::Bar::load("bar-drill", &[], None).unwrap(); // the built-in scenario is valid
    let mut moving = 0;
    for seed in 0..30u64 {
        let mut ev = Vec::new();
        let mut st = bar.start(seed, &mut ev);
        let mut pick = Dice::new(seed ^ 0xabcdef);
        let mut ids = Vec::new();
        while bar.decider(&st).is_some() {
            moving += usize::from(matches!(st.phase, Phase::Moving(_)));
            let a = bar
                .random_action(&st, &mut pick)
                .unwrap_or_else(|| panic!("seed {seed}: a decider without actions"));
            ids.push(bar.action_id(&a));
            bar.apply_legal(&mut st, &a, &mut ev);
            let bad = bar.check_invariants(&st);
            assert!(
                bad.is_empty(),
                "seed {seed}, after {} actions: {bad:?}",
                ids.len()
            );
            assert!(ids.len() < 20_000, "seed {seed}: no end");
        }
        assert!(bar.outcome(&st).is_some());
        // The same ids again, each looked up in the listed menu (`apply_id` accepts only a listed
        // one): the same game.
        let mut ev2 = Vec::new();
        let mut again = bar.start(seed, &mut ev2);
        for (k, id) in ids.iter().enumerate() {
            if let Err(e) = bar.apply_id(&mut again, id, &mut ev2) {
                panic!("seed {seed}, action {k} {id}: {e}");
            }
        }
        assert_eq!(again, st, "seed {seed}: the replay differs");
        assert_eq!(
            ev.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            ev2.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            "seed {seed}"
        );
    }
    // Many of the draws were a moving unit's, sampled without listing.
    assert!(moving > 3000, "{moving}");
}
