//! `tricorne tournament`: two agents play N games, swapping sides every other game (each pair of
//! games shares its dice seed), on all cores; the table of wins, draws and losses per agent and per
//! side, and of victory levels.
use anyhow::{Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::path::Path;
use std::time::Instant;

/// One game's result.
struct Played {
    /// Index of the agent that held seat 0.
    first_agent: usize,
    winner_seat: Option<u8>,
    level: String,
    rule: String,
    actions: usize,
    /// Per agent: decisions taken and seconds spent deciding.
    decisions: [u64; 2],
    seconds: [f64; 2],
    max_seconds: [f64; 2],
}

/// What to play.
pub struct Options<'a> {
    pub scenario: &'a str,
    pub options: &'a [String],
    pub data_dir: Option<&'a Path>,
    pub agents: [String; 2],
    pub games: u64,
    pub seed: u64,
    pub json: bool,
}

fn play_one(o: &Options, i: u64) -> Result<Played> {
    // Games 2k and 2k+1 share a seed, with the agents' sides swapped.
    let gseed = o.seed.wrapping_mul(1_000_003).wrapping_add(i / 2);
    let first_agent = (i % 2) as usize;
    let (mut g, _) =
        catalog::open(o.scenario, o.options, o.data_dir, gseed).map_err(|e| anyhow!("{e}"))?;
    // Seat s is played by agent (first_agent + s) % 2.
    let mut agents = [
        ai::agent(&o.agents[first_agent], gseed.wrapping_mul(2)).map_err(|e| anyhow!(e))?,
        ai::agent(&o.agents[1 - first_agent], gseed.wrapping_mul(2) + 1).map_err(|e| anyhow!(e))?,
    ];
    let mut decisions = [0u64; 2];
    let mut seconds = [0f64; 2];
    let mut max_seconds = [0f64; 2];
    let mut actions = 0usize;
    while let Some(seat) = g.decider() {
        if actions >= 200_000 {
            bail!("game {i} (seed {gseed}): no result after {actions} actions");
        }
        let s = usize::from(seat.0 & 1);
        let who = (first_agent + s) % 2;
        let t = Instant::now();
        let d = agents[s].decide(g.as_ref());
        let dt = t.elapsed().as_secs_f64();
        decisions[who] += 1;
        seconds[who] += dt;
        max_seconds[who] = max_seconds[who].max(dt);
        g.apply_index_quiet(d.index)
            .map_err(|e| anyhow!("game {i} (seed {gseed}): {e}"))?;
        actions += 1;
    }
    let out = g
        .outcome()
        .ok_or_else(|| anyhow!("game {i} ended without an outcome"))?;
    Ok(Played {
        first_agent,
        winner_seat: out.winner.map(|s| s.0),
        level: out.level,
        rule: out.rule,
        actions,
        decisions,
        seconds,
        max_seconds,
    })
}

/// Run the tournament and print its table.
pub fn run(o: Options) -> Result<()> {
    for n in &o.agents {
        ai::agent(n, 0).map_err(|e| anyhow!(e))?;
    }
    let (probe, _) =
        catalog::open(o.scenario, o.options, o.data_dir, o.seed).map_err(|e| anyhow!("{e}"))?;
    let levels = probe.outcome_levels();
    let seats = probe.seat_names();
    let pb = ProgressBar::new(o.games);
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed_precise} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let results: Vec<Result<Played>> = (0..o.games)
        .into_par_iter()
        .map(|i| {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| play_one(&o, i)))
                .unwrap_or_else(|_| Err(anyhow!("game {i}: the rules engine panicked")));
            pb.inc(1);
            r
        })
        .collect();
    pb.finish_and_clear();
    let mut played = Vec::new();
    let mut errors = Vec::new();
    for r in results {
        match r {
            Ok(p) => played.push(p),
            Err(e) => errors.push(format!("{e:#}")),
        }
    }
    // [agent][seat] → (wins, draws, losses)
    let mut wdl = [[[0u64; 3]; 2]; 2];
    let mut table: Vec<((String, String), [u64; 2])> =
        levels.into_iter().map(|k| (k, [0, 0])).collect();
    let mut actions = 0usize;
    let mut dec = [0u64; 2];
    let mut secs = [0f64; 2];
    let mut maxs = [0f64; 2];
    for p in &played {
        actions += p.actions;
        for a in 0..2 {
            dec[a] += p.decisions[a];
            secs[a] += p.seconds[a];
            maxs[a] = maxs[a].max(p.max_seconds[a]);
        }
        for seat in 0..2u8 {
            let agent = (p.first_agent + usize::from(seat)) % 2;
            let k = match p.winner_seat {
                Some(w) if w == seat => 0,
                None => 1,
                Some(_) => 2,
            };
            wdl[agent][usize::from(seat)][k] += 1;
        }
        let key = (p.level.clone(), p.rule.clone());
        match table.iter_mut().find(|(k, _)| *k == key) {
            Some((_, c)) => c[p.first_agent] += 1,
            None => {
                let mut c = [0, 0];
                c[p.first_agent] = 1;
                table.push((key, c));
            }
        }
    }
    let n = played.len() as u64;
    let pct = |x: u64, of: u64| 100.0 * x as f64 / of.max(1) as f64;
    let [a0, a1] = &o.agents;
    if o.json {
        let mut rows = Vec::new();
        for (a, name) in o.agents.iter().enumerate() {
            for seat in 0..2 {
                let [w, d, l] = wdl[a][seat];
                rows.push(serde_json::json!({"agent": name, "side": seats[seat], "wins": w, "draws": d, "losses": l}));
            }
        }
        let levels: Vec<_> = table
            .iter()
            .map(|((l, r), c)| serde_json::json!({"level": l, "rule": r, "games": c[0] + c[1], "with_first_agent_as": {seats[0].clone(): c[0], seats[1].clone(): c[1]}}))
            .collect();
        let timing: Vec<_> = (0..2)
            .map(|a| serde_json::json!({"agent": o.agents[a], "decisions": dec[a], "mean_ms": 1000.0 * secs[a] / dec[a].max(1) as f64, "max_ms": 1000.0 * maxs[a]}))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "scenario": o.scenario, "games": n, "seed": o.seed, "agents": o.agents,
                "results": rows, "levels": levels, "timing": timing, "errors": errors,
            }))?
        );
    } else {
        println!(
            "{}: {n} games, seed {}, {a0} vs {a1} (sides swapped every other game)",
            o.scenario, o.seed
        );
        println!(
            "{:<12} {:<8} {:>6} {:>6} {:>6} {:>7} {:>7}",
            "agent", "side", "games", "wins", "draws", "losses", "wins %"
        );
        for (a, name) in o.agents.iter().enumerate() {
            let mut tot = [0u64; 3];
            for seat in 0..2 {
                let r = wdl[a][seat];
                let g = r.iter().sum::<u64>();
                println!(
                    "{:<12} {:<8} {:>6} {:>6} {:>6} {:>7} {:>6.1}%",
                    name,
                    seats[seat],
                    g,
                    r[0],
                    r[1],
                    r[2],
                    pct(r[0], g)
                );
                for k in 0..3 {
                    tot[k] += r[k];
                }
            }
            let g = tot.iter().sum::<u64>();
            println!(
                "{:<12} {:<8} {:>6} {:>6} {:>6} {:>7} {:>6.1}%",
                name,
                "both",
                g,
                tot[0],
                tot[1],
                tot[2],
                pct(tot[0], g)
            );
        }
        println!();
        println!(
            "{:<28} {:>5} {:>6} {:>7}  {:>14} {:>14}",
            "victory level",
            "rule",
            "games",
            "share",
            format!("{a0} {}", seats[0]),
            format!("{a1} {}", seats[0])
        );
        for ((l, r), c) in &table {
            println!(
                "{:<28} {:>5} {:>6} {:>6.1}%  {:>14} {:>14}",
                l,
                r,
                c[0] + c[1],
                pct(c[0] + c[1], n),
                c[0],
                c[1]
            );
        }
        println!();
        for a in 0..2 {
            println!(
                "{}: {} decisions, mean {:.2} ms, longest {:.0} ms",
                o.agents[a],
                dec[a],
                1000.0 * secs[a] / dec[a].max(1) as f64,
                1000.0 * maxs[a]
            );
        }
        println!(
            "mean actions per game: {:.0}",
            actions as f64 / n.max(1) as f64
        );
    }
    if !errors.is_empty() {
        for e in &errors {
            eprintln!("{e}");
        }
        bail!("{} of {} games failed", errors.len(), o.games);
    }
    Ok(())
}
