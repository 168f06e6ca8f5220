//! The agents from fixed positions of Hastenbeck (rule numbers in the test names), their
//! determinism, their legality over many seeded games, and the determinisation of the search (3.6).
use ai::{Agent, HeuristicAgent};
use engine::{AgentHooks, DynGame, Game, Ruleset, Seat};
use hexmap::{HexId, Vertex};
use saxe::Saxe;
use saxe::scenario::{Side, Terrain, UnitIx};
use saxe::state::{ActTarget, Frame, Phase, State};

mod common;
use common::drive;

fn rules() -> Saxe {
    Saxe::load("hastenbeck", &[], None).expect("built-in scenario loads")
}

fn start(r: &Saxe, seed: u64) -> State {
    let mut ev = Vec::new();
    r.start(seed, &mut ev)
}

fn unit(r: &Saxe, id: &str) -> UnitIx {
    r.sc.unit_by_id(id)
        .unwrap_or_else(|| panic!("no unit {id}"))
}

fn in_activation(s: &State) -> bool {
    s.frames.iter().any(|f| matches!(f, Frame::Activation(_)))
}

#[test]
fn r15_heuristic_takes_undefended_hastenbeck() {
    // 16.1: Hastenbeck (1010, 1011) is empty at the start; Broglie's line is three hexes south.
    let r = rules();
    let mut s = start(&r, 3);
    let mut ev = Vec::new();
    r.apply_id(&mut s, "activate-auto:broglie", &mut ev)
        .expect("auto activation");
    let mut h = HeuristicAgent::new(1);
    drive(&r, &mut s, &mut h, Side::French, 200, |s| !in_activation(s));
    // It may take the rest of the turn: let the heuristic play the French until turn 2 ends.
    drive(&r, &mut s, &mut h, Side::French, 4000, |s| s.turn >= 3);
    assert_eq!(
        s.control[0],
        Side::French,
        "Hastenbeck taken by the French (15)"
    );
}

#[test]
fn r6_3_heuristic_does_not_march_units_out_of_command() {
    // The holding side (the Allies) with nothing to attack keeps every unit in command.
    let r = rules();
    for f in
        r.sc.formations
            .iter()
            .enumerate()
            .filter(|(_, f)| f.side == Side::Allies)
            .map(|(i, _)| i as u8)
    {
        let mut s = start(&r, 5);
        s.active = Side::Allies;
        s.second = true;
        s.phase = Phase::ChooseActivation;
        let members = r.formation_units(&s, f);
        let before = r.commanded_units(&s, ActTarget::Formation(f), &members);
        let mut ev = Vec::new();
        r.begin_activation(&mut s, ActTarget::Formation(f), true, &mut ev);
        r.run(&mut s, &mut ev);
        let mut h = HeuristicAgent::new(2);
        drive(&r, &mut s, &mut h, Side::Allies, 300, |s| !in_activation(s));
        let after = r.commanded_units(&s, ActTarget::Formation(f), &members);
        for u in before.into_iter().filter(|&u| !r.kind(u).is_guns()) {
            assert!(
                after.contains(&u),
                "{} left the command of {} (6.3)",
                r.sc.units[usize::from(u)].name,
                r.sc.formations[usize::from(f)].name
            );
        }
    }
}

/// An empty board in the French combat phase with one French unit facing an Allied stack in
/// woods (10.1: not a mandatory attack).
fn odds_position(r: &Saxe, french: &[&str], allies: &[&str]) -> State {
    let mut s = start(r, 1);
    for u in s.units.iter_mut() {
        u.hex = None;
        u.flags = 0;
    }
    for c in s.commanders.iter_mut() {
        c.hex = None;
    }
    s.frames.clear();
    let map = &r.sc.map;
    let (wood, clear, dir) = map
        .hexes()
        .filter(|&h| map.terrain(h) == Terrain::Woods)
        .find_map(|w| {
            w.neighbours().find_map(|(d, c)| {
                (map.contains(c) && map.terrain(c) == Terrain::Clear).then_some((
                    w,
                    c,
                    d.opposite(),
                ))
            })
        })
        .expect("a wood with a clear neighbour");
    let facing = Vertex::ALL
        .into_iter()
        .find(|v| v.front().contains(&dir))
        .expect("a facing toward the wood");
    for (i, f) in french.iter().enumerate() {
        let fu = unit(r, f);
        s.units[usize::from(fu)].hex = Some(clear);
        s.units[usize::from(fu)].facing = facing;
        s.units[usize::from(fu)].order = i as u8;
    }
    for (i, a) in allies.iter().enumerate() {
        let u = unit(r, a);
        s.units[usize::from(u)].hex = Some(wood);
        s.units[usize::from(u)].facing = facing.reversed();
        s.units[usize::from(u)].order = i as u8;
    }
    s.active = Side::French;
    s.phase = Phase::Combat;
    s.attacked_hexes.clear();
    s
}

#[test]
fn r10_2_heuristic_does_not_attack_at_one_to_three_when_it_need_not() {
    let r = rules();
    // Eu (4 CP) against Von Behr 1 + Erbprinz von Brunswick 1 (12 CP) in woods: 1/3.
    let s = odds_position(&r, &["eu"], &["von-behr-1", "erbprinz-von-brunswick-1"]);
    let legal: Vec<String> = r.legal_actions(&s).iter().map(|a| r.action_id(a)).collect();
    assert!(legal.iter().any(|a| a.starts_with("attack:")), "{legal:?}");
    assert!(legal.contains(&"end-combat".to_string()), "{legal:?}");
    let g = Game {
        rules: r.clone(),
        state: s,
        policies: Default::default(),
    };
    let d = HeuristicAgent::new(3).decide(&g);
    assert_eq!(legal[d.index], "end-combat", "{:?}", g.action_scores());
}

#[test]
fn r10_2_heuristic_attacks_at_good_odds() {
    let r = rules();
    // Picardie + Navarre (14 CP) against Von Behr 2 (4 CP) alone in woods and disorganised: 3/1.
    let mut s = odds_position(&r, &["picardie", "navarre"], &["von-behr-2"]);
    let vb = unit(&r, "von-behr-2");
    s.units[usize::from(vb)].set(saxe::state::flag::DISORG, true);
    let legal: Vec<String> = r.legal_actions(&s).iter().map(|a| r.action_id(a)).collect();
    let g = Game {
        rules: r.clone(),
        state: s,
        policies: Default::default(),
    };
    let d = HeuristicAgent::new(3).decide(&g);
    assert!(
        legal[d.index].starts_with("attack:"),
        "{legal:?} {:?}",
        g.action_scores()
    );
    assert!(d.explanation.is_some_and(|e| e.contains("attacks")));
}

fn play(names: [&str; 2], seed: u64, max: usize) -> Vec<String> {
    let (mut g, _) = catalog::open("hastenbeck", &[], None, seed).expect("open");
    let mut agents = [
        ai::agent(names[0], seed * 2).expect("agent"),
        ai::agent(names[1], seed * 2 + 1).expect("agent"),
    ];
    let mut ids = Vec::new();
    while let Some(seat) = g.decider() {
        if ids.len() >= max {
            break;
        }
        let n = g.legal_count();
        let d = agents[usize::from(seat.0)].decide(g.as_ref());
        assert!(
            d.index < n,
            "agent {} chose #{} of {n}",
            names[usize::from(seat.0)],
            d.index
        );
        let (id, _) = g.apply_index(d.index).expect("legal");
        ids.push(id);
        assert!(g.invariants().is_empty(), "{:?}", g.invariants());
    }
    ids
}

#[test]
fn same_seed_same_game() {
    assert_eq!(
        play(["heuristic", "random"], 11, 5000),
        play(["heuristic", "random"], 11, 5000)
    );
    assert_eq!(
        play(["search:4", "heuristic"], 12, 250),
        play(["search:4", "heuristic"], 12, 250)
    );
    assert_eq!(
        play(["heuristic", "plan:4:2"], 13, 250),
        play(["heuristic", "plan:4:2"], 13, 250)
    );
}

#[test]
fn agents_play_only_legal_actions_over_seeded_games() {
    for seed in 0..8 {
        let ids = play(["heuristic", "random"], 100 + seed, 200_000);
        assert!(!ids.is_empty());
        let ids = play(["random", "heuristic"], 200 + seed, 200_000);
        assert!(!ids.is_empty());
    }
    for seed in 0..2 {
        let ids = play(["heuristic", "heuristic"], 300 + seed, 200_000);
        assert!(ids.len() > 100);
    }
    // The search at a small budget, a few hundred actions.
    play(["search:3", "random"], 400, 400);
    play(["random", "search:3"], 401, 400);
    // The planning agent likewise.
    play(["plan:3:2", "random"], 402, 400);
    play(["random", "plan:3:2"], 403, 400);
}

#[test]
fn r3_6_determinisation_keeps_what_the_side_sees_and_reseeds_the_dice() {
    let r = rules();
    let mut s = start(&r, 21);
    let mut ev = Vec::new();
    // Some play, so that stacks and dice have moved on.
    let mut h = HeuristicAgent::new(5);
    let mut h2 = HeuristicAgent::new(6);
    for _ in 0..300 {
        let Some(d) = r.decider(&s) else { break };
        let g = Game {
            rules: r.clone(),
            state: s.clone(),
            policies: Default::default(),
        };
        let i = if d == Seat(0) {
            h.decide(&g).index
        } else {
            h2.decide(&g).index
        };
        let legal = r.legal_actions(&s);
        r.apply_legal(&mut s, &legal[i], &mut ev);
    }
    for side in [Side::French, Side::Allies] {
        let seat = Seat(side.ix() as u8);
        let mut changed = false;
        for seed in 0..6 {
            let t = r.determinize(&s, seat, seed);
            // What the side may see is the same (3.6).
            assert_eq!(r.view(&s, Some(seat)), r.view(&t, Some(seat)));
            assert!(
                r.check_invariants(&t).is_empty(),
                "{:?}",
                r.check_invariants(&t)
            );
            assert_eq!(r.legal_actions(&s), r.legal_actions(&t));
            // The future dice are not the real ones.
            assert_ne!(s.dice, t.dice);
            changed |= t.units != s.units;
        }
        // Re-dealt only among hidden units of one arm, when the stacking rules allow it.
        let _ = changed;
    }
}

#[test]
fn r12_3_heuristic_attacks_a_routed_unit_it_would_leave_alone_formed() {
    // Eu (4 CP) against Von Behr 1 (6 CP) in woods: 2/3, not mandatory (10.1); not worth it
    // against formed troops, but a routed defender is eliminated as soon as it is attacked.
    let r = rules();
    let formed = odds_position(&r, &["eu"], &["von-behr-1"]);
    let mut routed = formed.clone();
    let vb = unit(&r, "von-behr-1");
    routed.units[usize::from(vb)].set(saxe::state::flag::ROUTED, true);
    for (s, attacks) in [(formed, false), (routed, true)] {
        let legal: Vec<String> = r.legal_actions(&s).iter().map(|a| r.action_id(a)).collect();
        assert!(legal.iter().any(|a| a.starts_with("attack:")), "{legal:?}");
        let g = Game {
            rules: r.clone(),
            state: s,
            policies: Default::default(),
        };
        let d = HeuristicAgent::new(3).decide(&g);
        assert_eq!(
            legal[d.index].starts_with("attack:"),
            attacks,
            "{legal:?} {:?}",
            g.action_scores()
        );
    }
}

#[test]
fn r11_2_an_attack_on_a_defender_with_no_retreat_is_worth_more() {
    // The same attack, once every other neighbour of the defender holds a French unit: a
    // retreat result then eliminates it (11.2), which the attack's value counts.
    let r = rules();
    let mut s = odds_position(&r, &["picardie", "navarre"], &["von-behr-1"]);
    let vb = unit(&r, "von-behr-1");
    let wood = s.units[usize::from(vb)].hex.expect("placed");
    // Attacked from its rear (10.3: +3), so that retreat results come up.
    s.units[usize::from(vb)].facing = s.units[usize::from(unit(&r, "picardie"))].facing;
    let clear = s.units[usize::from(unit(&r, "picardie"))]
        .hex
        .expect("placed");
    let open = r.ai_attack_value(&s, &[clear], &[wood]);
    let blockers = [
        "eu",
        "la-marine",
        "belzunce",
        "autriche",
        "alsace",
        "champagne",
    ];
    let mut k = 0;
    for (_, n) in wood.neighbours() {
        if n == clear || !r.sc.map.contains(n) {
            continue;
        }
        let b = unit(&r, blockers[k]);
        s.units[usize::from(b)].hex = Some(n);
        s.units[usize::from(b)].facing = s.units[usize::from(unit(&r, "picardie"))].facing;
        k += 1;
    }
    let trapped = r.ai_attack_value(&s, &[clear], &[wood]);
    assert!(trapped > open + 0.3, "trapped {trapped} vs open {open}");
}

#[test]
fn r13_1_heuristic_marches_on_the_formation_nearest_demoralisation() {
    // 15.2: the French need a demoralised Allied formation. Picardie stands between Prinz von
    // Anhalt 2 (Wutginau, 3 losses of 6) and Von Kielmansegg 2 (Imhoff, 4 of 6), both 4 CP, three
    // hexes away through either of its front hexes: it marches on Imhoff's unit, either way round.
    let r = rules();
    let map = &r.sc.map;
    let clear = |h: HexId| map.contains(h) && map.terrain(h) == Terrain::Clear;
    let walk = |h: HexId, d: hexmap::Dir, n: usize| -> Option<HexId> {
        let mut x = h;
        for _ in 0..n {
            x = x.neighbour(d).filter(|&y| clear(y))?;
        }
        Some(x)
    };
    let (start_hex, facing, left, right) = map
        .hexes()
        .filter(|&h| clear(h))
        .find_map(|h| {
            Vertex::ALL.into_iter().find_map(|v| {
                let [d1, d2] = v.front();
                let a = walk(h, d1, 3)?;
                let b = walk(h, d2, 3)?;
                // Nothing else of the map's terrain in the way around them.
                (a.neighbours().all(|(_, n)| clear(n)) && b.neighbours().all(|(_, n)| clear(n)))
                    .then_some((h, v, a, b))
            })
        })
        .expect("an open stretch of clear ground");
    for (kiel_at, anhalt_at) in [(left, right), (right, left)] {
        let mut s = odds_position(&r, &[], &[]);
        let pic = unit(&r, "picardie");
        s.units[usize::from(pic)].hex = Some(start_hex);
        s.units[usize::from(pic)].facing = facing;
        let chevert = r.sc.units[usize::from(pic)].formation.expect("Chevert's");
        s.commanders[usize::from(r.formation_commander(chevert))].hex = Some(start_hex);
        let kiel = unit(&r, "von-kielmansegg-2");
        let anhalt = unit(&r, "prinz-von-anhalt-2");
        for (u, h) in [(kiel, kiel_at), (anhalt, anhalt_at)] {
            s.units[usize::from(u)].hex = Some(h);
            s.units[usize::from(u)].facing = facing.reversed();
        }
        // Losses of units off the board: Wutginau 3 (1 + 2), Imhoff 4 (2 + 2), each of 6 (13.1).
        for (id, lost) in [
            ("prinz-von-anhalt-1", 1),
            ("von-urff", 2),
            ("von-behr-1", 2),
            ("erbprinz-von-brunswick-1", 2),
        ] {
            s.units[usize::from(unit(&r, id))].lost = lost;
        }
        let wut = r.sc.units[usize::from(anhalt)]
            .formation
            .expect("Wutginau's");
        let imh = r.sc.units[usize::from(kiel)].formation.expect("Imhoff's");
        assert_eq!(r.formation_losses(&s, wut), 3);
        assert_eq!(r.formation_losses(&s, imh), 4);
        s.phase = Phase::ChooseActivation;
        let mut ev = Vec::new();
        r.begin_activation(&mut s, ActTarget::Formation(chevert), true, &mut ev);
        r.run(&mut s, &mut ev);
        let mut h = HeuristicAgent::new(4);
        drive(&r, &mut s, &mut h, Side::French, 200, |s| !in_activation(s));
        let at = s.units[usize::from(pic)].hex.expect("on the board");
        assert!(
            at.distance(kiel_at) < at.distance(anhalt_at),
            "Picardie went to {at}: {} from Imhoff's unit, {} from Wutginau's",
            at.distance(kiel_at),
            at.distance(anhalt_at)
        );
    }
}

/// The work limit (`search:N:C:H:W`): once the playouts of a decision have applied W actions, no
/// further playout starts, but every candidate is tried once; without a limit the full budget is
/// spent. Read from the explanation's playout count at the first French decision (which formation
/// to test for activation, 5.1).
#[test]
fn search_work_limit_stops_the_playouts_after_each_candidate_once() {
    let (g, _) = catalog::open("hastenbeck", &[], None, 5).expect("open");
    let count = |name: &str| -> (u32, u32) {
        let mut a = ai::agent(name, 9).expect("agent");
        let d = a.decide(g.as_ref());
        let e = d.explanation.expect("a searched decision explains itself");
        let num = |after: &str, before: &str| -> u32 {
            let i = e.find(after).map(|i| i + after.len()).expect("pattern");
            let j = e[i..].find(before).expect("pattern") + i;
            e[i..j].trim().parse().expect("a number")
        };
        (num("best of ", " plans"), num("search (", " playouts)"))
    };
    let (plans, unlimited) = count("search:24:4:1");
    assert!(plans >= 2, "a choice between plans");
    assert_eq!(unlimited, 24);
    let (plans_w, limited) = count("search:24:4:1:1");
    assert_eq!(plans_w, plans);
    assert_eq!(limited, plans, "one playout per candidate, then the limit");
    assert!(
        ai::agent("search:24:4:1:0", 1).is_err(),
        "a zero limit is refused"
    );
}

/// The planning agent (online evolutionary planning, docs/ai.md): at the first French decision
/// (which formation to test for activation, 5.1) it plays one of the heuristic's best C actions,
/// plays every plan of its population once a generation, and stops after the first generation
/// once its work limit is spent; malformed specifications are refused.
#[test]
fn plan_plays_a_top_candidate_and_keeps_to_its_budget() {
    let (g, _) = catalog::open("hastenbeck", &[], None, 5).expect("open");
    let scores = g.action_scores();
    let decide = |name: &str| {
        let mut a = ai::agent(name, 9).expect("agent");
        let d = a.decide(g.as_ref());
        let e = d.explanation.expect("a planned decision explains itself");
        let i = e.find(" plans (").expect("pattern") + " plans (".len();
        let j = e[i..].find(" playouts)").expect("pattern") + i;
        let playouts: u32 = e[i..j].parse().expect("a number");
        (d.index, playouts)
    };
    let (index, playouts) = decide("plan:6:4:3:1:100000");
    assert_eq!(playouts, 6 * 4, "every plan of each generation played once");
    let better = scores.iter().filter(|&&s| s > scores[index]).count();
    assert!(
        better < 3,
        "one of the heuristic's best three: {better} score higher"
    );
    let (_, limited) = decide("plan:6:4:3:1:1");
    assert_eq!(limited, 6, "the first generation, then the limit");
    for bad in [
        "plan:0:2",
        "plan:3",
        "plan:3:2:4",
        "plan:3:x",
        "plan:3:2:4:1:0",
    ] {
        assert!(ai::agent(bad, 1).is_err(), "{bad} is refused");
    }
    assert!(ai::agent("plan", 1).is_ok());
}

#[test]
fn r15_2_eval_terms_read_the_hastenbeck_evaluation_and_its_objectives() {
    // The terms an evaluation is fitted on (docs/ai.md): the last is the evaluation itself, the
    // first French control of Hastenbeck (15.2), and none once the game is over.
    let r = rules();
    let mut s = start(&r, 5);
    let t = r.eval_terms(&s);
    assert_eq!(t.len(), 17, "17 terms at Hastenbeck");
    assert_eq!(
        t[16],
        r.evaluate(&s, Seat(0)),
        "the last term is the French evaluation"
    );
    assert_eq!(t[0], 0.0, "Hastenbeck is Allied at the start");
    let before = r.evaluate(&s, Seat(0));
    s.control[0] = Side::French;
    let t = r.eval_terms(&s);
    assert_eq!(t[0], 1.0, "Hastenbeck French");
    assert!(
        t[16] > before,
        "holding Hastenbeck is worth more to the French"
    );
    s.result = Some((Some(Side::French), "15.2".into(), "test".into()));
    assert!(
        r.eval_terms(&s).is_empty(),
        "no terms once the game is over"
    );
    // Fontenoy has its own evaluation (16.1) and no terms.
    let f = Saxe::load("fontenoy", &[], None).expect("built-in scenario loads");
    let fs = start(&f, 5);
    assert!(f.eval_terms(&fs).is_empty());
}
