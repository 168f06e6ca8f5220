//! Seeded random playouts checking the invariants after every action (as OpenSpiel's random
//! simulation test and Rally the Troops' fuzzer do): stacking, never two sides in a hex, steps never
//! negative, routed units without ZoC or facing, the decider alone has actions, clone and
//! serialisation round trips, replay equality, and hidden enemy stacks in the views (3.6).
use engine::{Dice, Ruleset, Seat};
use saxe::Saxe;
use saxe::state::State;

fn rules(options: &[&str]) -> Saxe {
    scenario("hastenbeck", options)
}

fn scenario(id: &str, options: &[&str]) -> Saxe {
    let o: Vec<String> = options.iter().map(|s| s.to_string()).collect();
    Saxe::load(id, &o, None).expect("built-in scenario loads") // invariant: shipped data is valid
}

/// The most actions one turn can take (issue 12: a game's length is bounded), from the rules:
/// every hex entered, vertex turned, about-face and change of stack order costs MP (8.1, 8.3,
/// 3.5.1; the tables refuse a free hex), except a column's turns on a road (14.1), at most three a
/// move (8.3). So one group move is at most 2 × MP actions (a column's MP doubled, 14.1), three
/// turns and its stop; a unit moves at most twice a turn (4.B1 double action) and each hex it
/// enters may be answered by one reaction decision (8.6, 9.3), in all 2 × 2 × (2 × MP + 4). Add its
/// activation test, gun facing and fire, reaction fire, attack, evasion, losses, a retreat, a rout
/// of up to its MP, an advance and its two set-up placements (16.2), 20 + MP more. Commanders move
/// at most 12 MP an activation and the army commander again in B5, 24 each.
fn max_actions_per_turn(r: &Saxe) -> usize {
    let mp =
        r.sc.units
            .iter()
            .map(|u| usize::from(u.mp))
            .max()
            .unwrap_or(0);
    r.sc.units.len() * (2 * 2 * (2 * mp + 4) + 20 + mp) + r.sc.commanders.len() * 24
}

/// Play one game; returns (actions, final state, action ids).
fn playout(r: &Saxe, seed: u64, deep_checks: bool) -> (usize, State, Vec<String>) {
    let mut ev = Vec::new();
    let mut s = r.start(seed, &mut ev);
    let turn_max = max_actions_per_turn(r);
    let mut turn = (s.turn, 0usize);
    let mut pick = Dice::new(seed.wrapping_mul(31).wrapping_add(7));
    let mut ids = Vec::new();
    let mut n = 0;
    while let Some(seat) = r.decider(&s) {
        let legal = r.legal_actions(&s);
        assert!(
            !legal.is_empty(),
            "seed {seed}: decider {seat:?} has no legal action at action {n}"
        );
        let a = legal[pick.below(legal.len())].clone();
        let id = r.action_id(&a);
        // Ids are unique among the legal actions.
        if deep_checks {
            let mut all: Vec<String> = legal.iter().map(|x| r.action_id(x)).collect();
            all.sort();
            let before = all.len();
            all.dedup();
            assert_eq!(before, all.len(), "seed {seed}: duplicate action ids");
        }
        let mut evs = Vec::new();
        r.apply_id(&mut s, &id, &mut evs)
            .unwrap_or_else(|e| panic!("seed {seed}: legal action {id} refused: {e}"));
        ids.push(id);
        n += 1;
        let bad = r.check_invariants(&s);
        assert!(
            bad.is_empty(),
            "seed {seed} after action {n} ({}): {bad:?}",
            ids.last().unwrap_or(&String::new())
        );
        if deep_checks && n % 25 == 0 {
            let c = s.clone();
            assert_eq!(c, s);
            let j = serde_json::to_string(&s).expect("state serialises");
            let back: State = serde_json::from_str(&j).expect("state deserialises");
            assert_eq!(back, s, "seed {seed}: serialisation round trip");
            check_views(r, &s);
        }
        if s.turn != turn.0 {
            turn = (s.turn, 0);
        }
        turn.1 += 1;
        assert!(
            turn.1 <= turn_max,
            "seed {seed}: {} actions in turn {}, more than the rules allow ({turn_max})",
            turn.1,
            turn.0
        );
        assert!(n < 200_000, "seed {seed}: game does not end");
    }
    assert!(r.outcome(&s).is_some(), "seed {seed}: over without outcome");
    assert!(r.legal_actions(&s).is_empty());
    (n, s, ids)
}

/// 3.6: a side's view never names the units under the top counter of an enemy stack.
fn check_views(r: &Saxe, s: &State) {
    for seat in [Seat(0), Seat(1)] {
        let text = r.view(s, Some(seat)).to_string();
        for secret in r.hidden_from(s, seat) {
            assert!(
                !text.contains(&format!("\"{secret}\"")),
                "view of seat {seat:?} names hidden {secret}"
            );
        }
    }
    let public = r.public_view(s).to_string();
    for secret in r.hidden_from_public(s) {
        assert!(
            !public.contains(&format!("\"{secret}\"")),
            "public view names hidden {secret}"
        );
    }
    for (seat, side) in [
        (Seat(0), saxe::scenario::Side::French),
        (Seat(1), saxe::scenario::Side::Allies),
    ] {
        let v = r.view(s, Some(seat));
        let text = v.to_string();
        let board = r.render_text(s, Some(seat));
        let mut hexes: Vec<_> = s.units.iter().filter_map(|u| u.hex).collect();
        hexes.sort();
        hexes.dedup();
        for h in hexes {
            let here = r.units_at(s, h);
            if r.side_of(here[0]) == side || here.len() < 2 {
                continue;
            }
            let shown = here
                .iter()
                .copied()
                .find(|&u| r.kind(u).is_guns())
                .unwrap_or(here[0]);
            for &u in &here {
                if u == shown {
                    continue;
                }
                let d = &r.sc.units[usize::from(u)];
                // Another counter of the same name may stand elsewhere, visible: only check unique names.
                let same_name_elsewhere =
                    r.sc.units
                        .iter()
                        .enumerate()
                        .any(|(i, x)| i != usize::from(u) && x.name == d.name);
                if same_name_elsewhere {
                    continue;
                }
                let visible_elsewhere = s
                    .units
                    .iter()
                    .enumerate()
                    .any(|(i, x)| i == usize::from(u) && x.hex != Some(h));
                assert!(
                    visible_elsewhere || !text.contains(&format!("\"{}\"", d.id)),
                    "view of {side:?} leaks {} in {h}",
                    d.id
                );
                // Whole names only ("Foot Guards" is not "Dutch Foot Guards").
                assert!(
                    !board.contains(&format!(": {} [", d.name))
                        && !board.contains(&format!("/ {} [", d.name)),
                    "board of {side:?} leaks {} in {h}",
                    d.name
                );
            }
        }
    }
}

#[test]
fn random_playouts_keep_every_invariant() {
    let r = rules(&[]);
    let mut total = 0;
    for seed in 0..150 {
        let (n, _, _) = playout(&r, seed, seed % 4 == 0);
        total += n;
    }
    assert!(total > 0);
}

#[test]
fn random_playouts_with_battle_perception() {
    let r = rules(&["perception"]);
    for seed in 1000..1080 {
        playout(&r, seed, false);
    }
}

#[test]
fn replay_reproduces_the_state() {
    let r = rules(&[]);
    for seed in [5u64, 17, 99] {
        let (_, end, ids) = playout(&r, seed, false);
        let mut ev = Vec::new();
        let mut s = r.start(seed, &mut ev);
        for id in &ids {
            r.apply_id(&mut s, id, &mut ev)
                .expect("replayed action is legal");
        }
        assert_eq!(s, end, "seed {seed}");
    }
}

#[test]
fn illegal_action_is_refused_and_changes_nothing() {
    let r = rules(&[]);
    let mut ev = Vec::new();
    let mut s = r.start(1, &mut ev);
    let before = s.clone();
    for bad in [
        "",
        "activate:nobody",
        "step:NE",
        "attack:0101>0202",
        "activate:chevert\n",
    ] {
        assert!(
            r.apply_id(&mut s, bad, &mut ev).is_err(),
            "{bad:?} accepted"
        );
        assert_eq!(s, before);
    }
}

#[test]
fn random_playouts_with_the_armentieres_artillery_option() {
    for id in ["hastenbeck", "hastenbeck-free"] {
        let r = scenario(id, &["armentieres-artillery", "perception"]);
        for seed in 3000..3015 {
            playout(&r, seed, seed % 3 == 0);
        }
    }
}

#[test]
fn random_playouts_free_setup_16_2() {
    let r = scenario("hastenbeck-free", &[]);
    let mut columns = 0;
    for seed in 2000..2060 {
        let (_, end, ids) = playout(&r, seed, seed % 5 == 0);
        columns += ids
            .iter()
            .filter(|i| i.starts_with("enter-in-column:"))
            .count();
        assert!(end.setup.is_none(), "seed {seed}: set-up never finished");
    }
    assert!(
        columns > 0,
        "no French formation ever chose the march column"
    );
}

/// The Fontenoy/Lauffeld edition: every scenario and every option combination the book allows
/// (17.2: options 1 or 2 with 3 and 5, not with 4) keeps every invariant.
#[test]
fn random_playouts_of_fontenoy_and_lauffeld() {
    let cases: &[(&str, &[&str])] = &[
        ("fontenoy", &[]),
        ("fontenoy", &["strict-activation"]),
        ("fontenoy-surprise", &[]),
        ("fontenoy-free", &[]),
        ("lauffeld", &[]),
        ("lauffeld", &["fortify-lauffeld"]),
        ("lauffeld", &["fortify-both", "austrians-fight"]),
        (
            "lauffeld-french-arrive",
            &["fortify-lauffeld", "austrians-fight"],
        ),
        ("lauffeld-french-arrive", &["fortify-both"]),
        ("lauffeld-both-arrive", &["austrians-fight"]),
    ];
    for (i, (id, opts)) in cases.iter().enumerate() {
        let r = scenario(id, opts);
        for seed in 0..6u64 {
            let seed = 5000 + 100 * i as u64 + seed;
            playout(&r, seed, seed.is_multiple_of(3));
        }
    }
}

#[test]
fn lauffeld_options_4_and_1_or_2_exclude_each_other() {
    for bad in [
        ("lauffeld-both-arrive", "fortify-lauffeld"),
        ("lauffeld-both-arrive", "fortify-both"),
    ] {
        assert!(
            Saxe::load(bad.0, &[bad.1.to_string()], None).is_err(),
            "{bad:?}"
        );
    }
    assert!(
        Saxe::load(
            "lauffeld",
            &["fortify-lauffeld".to_string(), "fortify-both".to_string()],
            None
        )
        .is_err()
    );
}

/// 16.2: Allied units that find no hex left stay off the map, and the set-up goes on to the next
/// stage. Placing every Allied unit in the first hex offered (seed 2) crowds the west edge until
/// the last six have nowhere to go; the stage used to end with an action naming no formation,
/// which panicked.
#[test]
fn r16_2_units_left_without_a_hex_stay_off_and_the_set_up_goes_on() {
    let r = scenario("hastenbeck-free", &[]);
    let mut ev = Vec::new();
    let mut s = r.start(2, &mut ev);
    let mut off = 0;
    while s
        .setup
        .as_ref()
        .is_some_and(|st| matches!(st.stage, saxe::state::SetupStage::AlliedUnits))
    {
        let a = r.legal_actions(&s)[0].clone();
        let id = r.action_id(&a);
        let mut evs = Vec::new();
        r.apply_id(&mut s, &id, &mut evs).expect("legal");
        off += evs
            .iter()
            .filter(|e| e.to_string().contains("stays off the map"))
            .count();
        assert!(r.check_invariants(&s).is_empty());
    }
    assert!(off > 0, "no Allied unit was left without a hex");
    assert!(r.decider(&s).is_some() && !r.legal_actions(&s).is_empty());
}

/// 8.1: every hex entered costs MP, so a group's move ends (issue 12: no action may repeat for
/// ever). Tables where entering a hex or moving along a road costs nothing are refused.
#[test]
fn r8_1_tables_where_a_hex_costs_no_mp_are_refused() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    for (from, to) in [
        ("[hexsides.road]\ncost = 1", "[hexsides.road]\ncost = 0"),
        ("cost_infantry = 1", "cost_infantry = 0"),
    ] {
        let dir =
            std::env::temp_dir().join(format!("tricorne-r8-1-{}-{}", std::process::id(), to.len()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("hastenbeck")).expect("temp dir");
        for f in std::fs::read_dir(src.join("hastenbeck")).expect("built-in data") {
            let f = f.expect("entry").path();
            if f.is_file() {
                std::fs::copy(
                    &f,
                    dir.join("hastenbeck").join(f.file_name().expect("name")),
                )
                .expect("copy");
            }
        }
        let t = dir.join("hastenbeck/tables.toml");
        let text = std::fs::read_to_string(&t).expect("tables");
        assert!(text.contains(from), "{from:?} in the tables");
        std::fs::write(&t, text.replacen(from, to, 1)).expect("write");
        assert!(
            Saxe::load("hastenbeck", &[], Some(&dir)).is_err(),
            "{to:?} accepted"
        );
        let e = Saxe::load("hastenbeck", &[], Some(&dir))
            .err()
            .unwrap_or_default()
            .join("; ");
        assert!(e.contains("at least 1 MP"), "{to:?}: {e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Issue 19 item 7: a line's step names each hex it enters once ("Advance NW to 1208, 1209"), not
/// once a unit of its stacks ("1208, 1208, 1208, 1209"), over random games of the three battles.
#[test]
fn a_steps_label_names_each_hex_once() {
    let mut seen = 0;
    for id in ["hastenbeck", "fontenoy", "lauffeld"] {
        let r = scenario(id, &[]);
        for seed in 0..3u64 {
            let mut ev = Vec::new();
            let mut s = r.start(seed, &mut ev);
            let mut pick = Dice::new(seed ^ 0x1abe1);
            for _ in 0..3_000 {
                if r.decider(&s).is_none() {
                    break;
                }
                let legal = r.legal_actions(&s);
                for a in &legal {
                    let l = r.action_label(&s, a);
                    if let Some(rest) = l.strip_prefix("Advance ") {
                        let hexes: Vec<&str> = rest
                            .split_once(" to ")
                            .map_or("", |x| x.1)
                            .split(", ")
                            .collect();
                        let mut d = hexes.clone();
                        d.sort();
                        d.dedup();
                        assert_eq!(d.len(), hexes.len(), "{id}: {l}");
                        seen += usize::from(hexes.len() > 1);
                    }
                }
                let a = legal[pick.below(legal.len())].clone();
                r.apply_legal(&mut s, &a, &mut ev);
            }
        }
    }
    assert!(seen > 0, "no line stepped in these games");
}
