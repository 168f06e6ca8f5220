//! Data for an evaluation that ranks the candidates of one decision by how games went on from
//! each (docs/ai.md, "An evaluation ranking sibling candidates"; issue 20).
//!
//! `cargo run --release -p ai --example rank_data -- SCENARIO GAMES FIRST_SEED WORLDS EVERY`
//! plays `heuristic` against itself; at one searched decision in EVERY (by a hash) it takes the
//! search's four candidates and, in each of WORLDS determinised worlds (the same world for every
//! candidate), plays the candidate, then the heuristic to the search's horizon (where the
//! evaluation's terms, `DynGame::eval_terms`, are read), then on to the end of the game. One line
//! per (decision, world, candidate): `decision world rank seat result terms…` (result: the first
//! seat's 1, ½ or 0; its evaluation if 20,000 actions did not end the game). With
//! `RANK_DATA_IDS` set, each decision's candidates are listed on the standard error.
use engine::{DynGame, Seat, best_index};

fn mix(a: u64, b: u64, c: u64) -> u64 {
    let mut x = a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b.wrapping_mul(0xc2b2_ae3d_27d4_eb4f) ^ c;
    x ^= x >> 31;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 29;
    x
}

fn french(g: &dyn DynGame) -> f64 {
    // `evaluate` of seat 0 (the French) is the outcome once the game is over.
    g.evaluate(Seat(0))
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: u64| a.get(i).and_then(|x| x.parse().ok()).unwrap_or(d);
    let scen = a.get(1).cloned().unwrap_or_else(|| "hastenbeck".into());
    let games = arg(2, 10);
    let first = arg(3, 1);
    let worlds = arg(4, 4);
    let every = arg(5, 10).max(1);
    for gi in first..first + games {
        let Ok((mut g, _)) = catalog::open(&scen, &[], None, gi) else {
            eprintln!("cannot open {scen}");
            std::process::exit(2);
        };
        let mut step = 0u64;
        while g.decider().is_some() && step < 20_000 {
            step += 1;
            if g.worth_searching() && mix(gi, step, 7).is_multiple_of(every) {
                sample(g.as_ref(), gi * 100_000 + step, worlds);
            }
            if g.apply_best(mix(gi, step, 1)).is_err() {
                break;
            }
        }
        eprintln!("game {gi}: {step} actions");
    }
}

fn sample(g: &dyn DynGame, id: u64, worlds: u64) {
    let Some(seat) = g.decider() else { return };
    let scores = g.action_scores();
    let best = best_index(&scores, mix(id, 0, 3));
    let mut order: Vec<usize> = (0..scores.len()).filter(|&i| i != best).collect();
    order.sort_by(|&x, &y| scores[y].total_cmp(&scores[x]).then(x.cmp(&y)));
    order.insert(0, best);
    order.truncate(4);
    if order.len() < 2 {
        return;
    }
    let ids: Vec<String> = order
        .iter()
        .filter_map(|&i| g.action_info(i).map(|x| x.id))
        .collect();
    if std::env::var_os("RANK_DATA_IDS").is_some() {
        eprintln!("{id}\t{}", ids.join(" | "));
    }
    for w in 0..worlds {
        let world = mix(id, w + 1, 11);
        for (rank, cid) in ids.iter().enumerate() {
            let mut h = g.determinized(seat, world);
            if h.apply(cid).is_err() {
                continue;
            }
            let root = h.progress();
            let mut n = 0u64;
            while h.decider().is_some() && n < 400 && h.progress() < root + 1 {
                if h.apply_best(world.wrapping_add(n)).is_err() {
                    break;
                }
                n += 1;
            }
            let terms = h.eval_terms();
            while h.decider().is_some() && n < 20_000 {
                if h.apply_best(world.wrapping_add(n)).is_err() {
                    break;
                }
                n += 1;
            }
            let t: Vec<String> = terms.iter().map(|x| format!("{x:.4}")).collect();
            println!(
                "{id}\t{w}\t{rank}\t{}\t{}\t{}",
                seat.0,
                french(h.as_ref()),
                t.join("\t")
            );
        }
    }
}
