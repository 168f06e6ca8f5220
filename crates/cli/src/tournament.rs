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

/// What the ladder plays.
pub struct LadderOptions<'a> {
    pub scenarios: Vec<String>,
    pub data_dir: Option<&'a Path>,
    pub agents: Vec<String>,
    /// Games per pairing and scenario (sides swapped every other game).
    pub games: u64,
    pub seed: u64,
    pub json: bool,
}

/// One ladder game: scenario index, the two agents' indices and the first one's score.
struct LadderGame {
    scenario: usize,
    a: usize,
    b: usize,
    /// Score of agent `a`: 1 won, 0.5 drawn, 0 lost.
    score: f64,
    seconds: [f64; 2],
    decisions: [u64; 2],
    max_seconds: [f64; 2],
}

/// `tricorne ladder`: every pair of agents plays `games` games on every scenario; Elo ratings per
/// scenario and over all of them, each with its 95% interval.
pub fn ladder(o: LadderOptions) -> Result<()> {
    if o.agents.len() < 2 {
        bail!("the ladder needs two agents or more");
    }
    for n in &o.agents {
        ai::agent(n, 0).map_err(|e| anyhow!(e))?;
    }
    for sc in &o.scenarios {
        catalog::open(sc, &[], o.data_dir, o.seed).map_err(|e| anyhow!("{e}"))?;
    }
    let mut jobs = Vec::new();
    for s in 0..o.scenarios.len() {
        for a in 0..o.agents.len() {
            for b in a + 1..o.agents.len() {
                for i in 0..o.games {
                    jobs.push((s, a, b, i));
                }
            }
        }
    }
    let pb = ProgressBar::new(jobs.len() as u64);
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed_precise} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let results: Vec<Result<LadderGame>> = jobs
        .par_iter()
        .map(|&(s, a, b, i)| {
            let opts = Options {
                scenario: &o.scenarios[s],
                options: &[],
                data_dir: o.data_dir,
                agents: [o.agents[a].clone(), o.agents[b].clone()],
                games: o.games,
                // Each pairing of a scenario plays the same dice.
                seed: o.seed,
                json: false,
            };
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| play_one(&opts, i)))
                .unwrap_or_else(|_| Err(anyhow!("game {i}: the rules engine panicked")));
            pb.inc(1);
            let p = r.map_err(|e| {
                anyhow!(
                    "{} {} vs {}: {e:#}",
                    o.scenarios[s],
                    o.agents[a],
                    o.agents[b]
                )
            })?;
            // Seat s was played by agent (first_agent + s) % 2 of the pairing [a, b].
            let score = match p.winner_seat {
                None => 0.5,
                Some(w) if (p.first_agent + usize::from(w & 1)) % 2 == 0 => 1.0,
                Some(_) => 0.0,
            };
            Ok(LadderGame {
                scenario: s,
                a,
                b,
                score,
                seconds: p.seconds,
                decisions: p.decisions,
                max_seconds: p.max_seconds,
            })
        })
        .collect();
    pb.finish_and_clear();
    let mut games = Vec::new();
    let mut errors = Vec::new();
    for r in results {
        match r {
            Ok(g) => games.push(g),
            Err(e) => errors.push(format!("{e:#}")),
        }
    }
    let k = o.agents.len();
    let mut columns: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for (s, name) in o.scenarios.iter().enumerate() {
        let pairs: Vec<(usize, usize, f64)> = games
            .iter()
            .filter(|g| g.scenario == s)
            .map(|g| (g.a, g.b, g.score))
            .collect();
        columns.push((name.clone(), elo(k, &pairs)));
    }
    let all: Vec<(usize, usize, f64)> = games.iter().map(|g| (g.a, g.b, g.score)).collect();
    columns.push(("all".into(), elo(k, &all)));
    // Timing per agent over every game it played.
    let mut dec = vec![0u64; k];
    let mut secs = vec![0f64; k];
    let mut maxs = vec![0f64; k];
    for g in &games {
        for (side, who) in [(0, g.a), (1, g.b)] {
            dec[who] += g.decisions[side];
            secs[who] += g.seconds[side];
            maxs[who] = maxs[who].max(g.max_seconds[side]);
        }
    }
    if o.json {
        let rows: Vec<_> = (0..k)
            .map(|a| {
                let ratings: serde_json::Map<String, serde_json::Value> = columns
                    .iter()
                    .map(|(c, r)| {
                        (
                            c.clone(),
                            serde_json::json!({"elo": r[a].0.round(), "ci95": r[a].1.round()}),
                        )
                    })
                    .collect();
                serde_json::json!({"agent": o.agents[a], "ratings": ratings,
                    "mean_ms": 1000.0 * secs[a] / dec[a].max(1) as f64, "max_ms": 1000.0 * maxs[a]})
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "games_per_pairing": o.games, "seed": o.seed, "games": games.len(),
                "agents": rows, "errors": errors,
            }))?
        );
    } else {
        println!(
            "ladder: {} games ({} per pairing and scenario, sides swapped), seed {}; Elo with 95% \
             intervals, the pool's mean at 1500",
            games.len(),
            o.games,
            o.seed
        );
        println!();
        let mut head = "| agent |".to_string();
        let mut rule = "|---|".to_string();
        for (c, _) in &columns {
            head.push_str(&format!(" {c} |"));
            rule.push_str("---|");
        }
        head.push_str(" mean ms | longest ms |");
        rule.push_str("---|---|");
        println!("{head}");
        println!("{rule}");
        for a in 0..k {
            let mut row = format!("| {} |", o.agents[a]);
            for (_, r) in &columns {
                row.push_str(&format!(" {:.0} ± {:.0} |", r[a].0, r[a].1));
            }
            row.push_str(&format!(
                " {:.2} | {:.0} |",
                1000.0 * secs[a] / dec[a].max(1) as f64,
                1000.0 * maxs[a]
            ));
            println!("{row}");
        }
    }
    if !errors.is_empty() {
        for e in &errors {
            eprintln!("{e}");
        }
        bail!("{} of {} games failed", errors.len(), jobs.len());
    }
    Ok(())
}

/// Elo ratings (the pool's mean at 1500) and their 95% half-intervals from games `(a, b, score of
/// a)`: the Bradley–Terry model fitted by Newton's method, with one virtual draw per pair that
/// met (so that a pairing one side always won has a finite rating gap) and the intervals from the
/// inverse of the information matrix.
pub fn elo(k: usize, games: &[(usize, usize, f64)]) -> Vec<(f64, f64)> {
    // (a, b, score, weight)
    let mut obs: Vec<(usize, usize, f64, f64)> =
        games.iter().map(|&(a, b, s)| (a, b, s, 1.0)).collect();
    for a in 0..k {
        for b in a + 1..k {
            if games
                .iter()
                .any(|&(x, y, _)| (x, y) == (a, b) || (x, y) == (b, a))
            {
                obs.push((a, b, 0.5, 1.0));
            }
        }
    }
    // θ in natural units; a weak prior (a ridge) keeps a player who met nobody at the mean.
    let ridge = 1e-3;
    let mut theta = vec![0.0f64; k];
    let mut info = vec![vec![0.0f64; k]; k];
    for _ in 0..100 {
        let mut grad: Vec<f64> = theta.iter().map(|t| -ridge * t).collect();
        info = vec![vec![0.0f64; k]; k];
        for (i, row) in info.iter_mut().enumerate() {
            row[i] = ridge;
        }
        for &(a, b, s, w) in &obs {
            let p = 1.0 / (1.0 + (theta[b] - theta[a]).exp());
            grad[a] += w * (s - p);
            grad[b] -= w * (s - p);
            let v = w * p * (1.0 - p);
            info[a][a] += v;
            info[b][b] += v;
            info[a][b] -= v;
            info[b][a] -= v;
        }
        let Some(step) = solve(&info, &grad) else {
            break;
        };
        let mut change = 0.0f64;
        for i in 0..k {
            theta[i] += step[i];
            change = change.max(step[i].abs());
        }
        if change < 1e-9 {
            break;
        }
    }
    let mean = theta.iter().sum::<f64>() / k as f64;
    let scale = 400.0 / std::f64::consts::LN_10;
    let cov = invert(&info);
    (0..k)
        .map(|i| {
            // The variance of θ_i less the pool's mean.
            let var = cov.as_ref().map_or(f64::NAN, |c| {
                let n = k as f64;
                let row: f64 = c[i].iter().sum::<f64>() / n;
                let all: f64 = c.iter().flatten().sum::<f64>() / (n * n);
                c[i][i] - 2.0 * row + all
            });
            (
                1500.0 + scale * (theta[i] - mean),
                1.96 * scale * var.max(0.0).sqrt(),
            )
        })
        .collect()
}

/// `m x = v` by Gauss–Jordan elimination with partial pivoting; `None` when `m` is singular.
fn solve(m: &[Vec<f64>], v: &[f64]) -> Option<Vec<f64>> {
    let n = v.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .zip(v)
        .map(|(row, &x)| {
            let mut r = row.clone();
            r.push(x);
            r
        })
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        let d = a[c][c];
        for x in a[c].iter_mut() {
            *x /= d;
        }
        let pivot = a[c].clone();
        for (r, row) in a.iter_mut().enumerate() {
            let f = row[c];
            if r != c && f != 0.0 {
                for (x, q) in row.iter_mut().zip(&pivot).skip(c) {
                    *x -= f * q;
                }
            }
        }
    }
    Some(a.into_iter().map(|r| r[n]).collect())
}

/// The inverse of `m`, column by column.
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut cols = Vec::with_capacity(n);
    for j in 0..n {
        let mut e = vec![0.0; n];
        e[j] = 1.0;
        cols.push(solve(m, &e)?);
    }
    // cols[j][i] = inverse[i][j]; the inverse of a symmetric matrix is symmetric.
    Some(cols)
}

#[cfg(test)]
mod tests {
    use super::elo;

    #[test]
    fn elo_of_an_even_match_is_equal_and_a_stronger_player_rates_higher() {
        let even: Vec<(usize, usize, f64)> = (0..40).map(|i| (0, 1, f64::from(i % 2))).collect();
        let r = elo(2, &even);
        assert!((r[0].0 - r[1].0).abs() < 1e-6, "{r:?}");
        assert!(r[0].1 > 50.0 && r[0].1 < 400.0, "{r:?}");
        // 30 of 40: a 75% score is about 190 Elo apart (less for the virtual draw).
        let strong: Vec<(usize, usize, f64)> = (0..40)
            .map(|i| (0, 1, if i < 30 { 1.0 } else { 0.0 }))
            .collect();
        let r = elo(2, &strong);
        let gap = r[0].0 - r[1].0;
        assert!(gap > 150.0 && gap < 200.0, "{r:?}");
        // A clean sweep still has a finite gap.
        let sweep: Vec<(usize, usize, f64)> = (0..40).map(|_| (1, 0, 1.0)).collect();
        let r = elo(2, &sweep);
        assert!(r[1].0 > r[0].0 + 300.0 && r[1].0.is_finite(), "{r:?}");
    }
}
