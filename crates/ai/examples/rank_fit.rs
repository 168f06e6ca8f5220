//! An evaluation that ranks sibling candidates (docs/ai.md, issue 20), fitted to the lines of the
//! `rank_data` example, and a test of whether the candidates differ at all.
//!
//! `cargo run --release -p ai --example rank_fit -- FILE…` fits, by least squares with a small
//! ridge, the weights `w` of `w · terms` to the differences between the results of the candidates
//! of one decision in one world (each centred on its group's mean), on four decisions in five;
//! on the fifth it compares the choices of the fitted and of the hand-set evaluation (the last
//! term), of the heuristic's own order and of a candidate at random with the candidate whose
//! games went best; and it tests, over all decisions, whether the candidate chosen changes the
//! result beyond the dice (`anova`).
use std::collections::BTreeMap;

struct Row {
    rank: usize,
    r: f64,
    t: Vec<f64>,
}

fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        let pivot = a[c].clone();
        for r in c + 1..n {
            let f = a[r][c] / pivot[c];
            for (x, p) in a[r][c..].iter_mut().zip(&pivot[c..]) {
                *x -= f * p;
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = vec![0.0; n];
    for c in (0..n).rev() {
        let s: f64 = (c + 1..n).map(|k| a[c][k] * x[k]).sum();
        x[c] = (b[c] - s) / a[c][c];
    }
    Some(x)
}

fn main() {
    // (decision, world) → rows
    let mut groups: BTreeMap<(u64, u64), Vec<Row>> = BTreeMap::new();
    for f in std::env::args().skip(1) {
        let Ok(text) = std::fs::read_to_string(&f) else {
            eprintln!("cannot read {f}");
            std::process::exit(2);
        };
        for line in text.lines() {
            let v: Vec<&str> = line.split('\t').collect();
            if v.len() < 5 {
                continue;
            }
            let (Ok(d), Ok(w), Ok(rank), Ok(r)) = (
                v[0].parse::<u64>(),
                v[1].parse::<u64>(),
                v[2].parse::<usize>(),
                v[4].parse::<f64>(),
            ) else {
                continue;
            };
            let t: Vec<f64> = v[5..].iter().filter_map(|x| x.parse().ok()).collect();
            groups.entry((d, w)).or_default().push(Row { rank, r, t });
        }
    }
    let dim = groups
        .values()
        .flatten()
        .map(|r| r.t.len())
        .max()
        .unwrap_or(0);
    // Whole groups only: every candidate with its terms (none ended the game before the horizon).
    groups.retain(|_, g| g.len() >= 2 && g.iter().all(|r| r.t.len() == dim));
    let test = |d: u64| d.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 61 == 0; // 1 in 8
    let variants: Vec<(&str, Vec<usize>)> = vec![
        ("hand value only", vec![dim - 1]),
        ("all terms", (0..dim).collect()),
        ("all terms but the hand value", (0..dim - 1).collect()),
    ];
    let n_train = groups.keys().filter(|k| !test(k.0)).count();
    let n_test = groups.keys().filter(|k| test(k.0)).count();
    let informative = groups
        .iter()
        .filter(|(k, g)| !test(k.0) && g.iter().any(|r| r.r != g[0].r))
        .count();
    println!(
        "{dim} terms; groups: {n_train} training ({informative} where results differ), {n_test} held out"
    );
    for (name, cols) in &variants {
        let m = cols.len();
        let mut a = vec![vec![0.0; m]; m];
        let mut b = vec![0.0; m];
        let mut nrows = 0.0;
        for ((d, _), g) in &groups {
            if test(*d) {
                continue;
            }
            let k = g.len() as f64;
            let rm = g.iter().map(|r| r.r).sum::<f64>() / k;
            let tm: Vec<f64> = cols
                .iter()
                .map(|&c| g.iter().map(|r| r.t[c]).sum::<f64>() / k)
                .collect();
            for r in g {
                let x: Vec<f64> = cols.iter().zip(&tm).map(|(&c, m)| r.t[c] - m).collect();
                let y = r.r - rm;
                for i in 0..m {
                    b[i] += x[i] * y;
                    for j in 0..m {
                        a[i][j] += x[i] * x[j];
                    }
                }
                nrows += 1.0;
            }
        }
        for (i, row) in a.iter_mut().enumerate() {
            row[i] += 1e-3 * nrows / 1000.0 + 1e-9;
        }
        let Some(w) = solve(a, b) else {
            println!("{name}: singular");
            continue;
        };
        // Intercept: the mean result less the mean of w·t over the training rows.
        let (mut sr, mut st, mut n) = (0.0, 0.0, 0.0);
        for ((d, _), g) in &groups {
            if test(*d) {
                continue;
            }
            for r in g {
                sr += r.r;
                st += cols.iter().zip(&w).map(|(&c, x)| x * r.t[c]).sum::<f64>();
                n += 1.0;
            }
        }
        let b0 = (sr - st) / n;
        let value = |r: &Row| b0 + cols.iter().zip(&w).map(|(&c, x)| x * r.t[c]).sum::<f64>();
        report(name, &groups, &test, value);
        let mut full = vec![0.0; dim + 1];
        full[0] = b0;
        for (&c, x) in cols.iter().zip(&w) {
            full[c + 1] = *x;
        }
        let s: Vec<String> = full.iter().map(|x| format!("{x:.5}")).collect();
        println!("  intercept and weights: {}", s.join(","));
    }
    anova(&groups);
    report("the heuristic's choice", &groups, &test, |r| {
        -(r.rank as f64)
    });
    report("the hand-set evaluation (as is)", &groups, &test, |r| {
        r.t[dim - 1]
    });
}

/// On the held-out decisions: how often the candidate with the best mean `value` over the worlds
/// is the one whose games went best, and the mean result lost against it (regret).
fn report(
    name: &str,
    groups: &BTreeMap<(u64, u64), Vec<Row>>,
    test: &dyn Fn(u64) -> bool,
    value: impl Fn(&Row) -> f64,
) {
    // decision → rank → (sum value, sum result, n)
    let mut dec: BTreeMap<u64, BTreeMap<usize, (f64, f64, f64)>> = BTreeMap::new();
    let mut sq = 0.0f64;
    let mut nsq = 0.0f64;
    for ((d, _), g) in groups {
        if !test(*d) {
            continue;
        }
        let k = g.len() as f64;
        let rm = g.iter().map(|r| r.r).sum::<f64>() / k;
        let vm = g.iter().map(&value).sum::<f64>() / k;
        for r in g {
            let e = dec.entry(*d).or_default().entry(r.rank).or_default();
            e.0 += value(r);
            e.1 += r.r;
            e.2 += 1.0;
            sq += ((r.r - rm) - (value(r) - vm)).powi(2);
            nsq += 1.0;
        }
    }
    let (mut hit, mut n, mut regret, mut chosen) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let mut uniform = 0.0f64;
    for c in dec.values() {
        let means: Vec<(f64, f64)> = c.values().map(|e| (e.0 / e.2, e.1 / e.2)).collect();
        let best_r = means.iter().map(|m| m.1).fold(f64::NEG_INFINITY, f64::max);
        if means.iter().all(|m| m.1 == best_r) {
            continue; // every candidate went the same way: nothing to rank
        }
        let pick = means
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.0.total_cmp(&b.1.0).then(b.0.cmp(&a.0)))
            .map(|x| x.0)
            .unwrap_or(0);
        n += 1.0;
        uniform += best_r - means.iter().map(|m| m.1).sum::<f64>() / means.len() as f64;
        if means[pick].1 == best_r {
            hit += 1.0;
        }
        regret += best_r - means[pick].1;
        chosen += means[pick].1;
    }
    println!(
        "{name}: on {n} held-out decisions whose candidates went differently, picks a best one {:.1}%, mean result {:.4}, regret {:.4} (a candidate at random: {:.4}); sibling error {:.5}",
        100.0 * hit / n.max(1.0),
        chosen / n.max(1.0),
        regret / n.max(1.0),
        uniform / n.max(1.0),
        sq / nsq.max(1.0)
    );
}

/// Whether the candidate chosen changes how the game goes on at all: a two-way analysis of
/// variance of the result by candidate and world within each decision (every decision with every
/// candidate in every world), all decisions pooled. F near 1: no effect of the candidate beyond
/// the dice.
fn anova(groups: &BTreeMap<(u64, u64), Vec<Row>>) {
    // decision → world → rank → result
    let mut dec: BTreeMap<u64, BTreeMap<u64, BTreeMap<usize, f64>>> = BTreeMap::new();
    for ((d, w), g) in groups {
        for r in g {
            dec.entry(*d)
                .or_default()
                .entry(*w)
                .or_default()
                .insert(r.rank, r.r);
        }
    }
    let (mut ss_c, mut df_c, mut ss_e, mut df_e, mut n) = (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0);
    let mut k_all = 0.0f64;
    for worlds in dec.values() {
        let Some(first) = worlds.values().next() else {
            continue;
        };
        let cands: Vec<usize> = first
            .keys()
            .copied()
            .filter(|c| worlds.values().all(|w| w.contains_key(c)))
            .collect();
        let (c, k) = (cands.len(), worlds.len());
        if c < 2 || k < 2 {
            continue;
        }
        let y: Vec<Vec<f64>> = cands
            .iter()
            .map(|cd| worlds.values().map(|w| w[cd]).collect())
            .collect();
        let gm = y.iter().flatten().sum::<f64>() / (c * k) as f64;
        let cm: Vec<f64> = y.iter().map(|r| r.iter().sum::<f64>() / k as f64).collect();
        let km: Vec<f64> = (0..k)
            .map(|j| (0..c).map(|i| y[i][j]).sum::<f64>() / c as f64)
            .collect();
        ss_c += k as f64 * cm.iter().map(|m| (m - gm).powi(2)).sum::<f64>();
        for i in 0..c {
            for j in 0..k {
                ss_e += (y[i][j] - cm[i] - km[j] + gm).powi(2);
            }
        }
        df_c += (c - 1) as f64;
        df_e += ((c - 1) * (k - 1)) as f64;
        k_all += k as f64;
        n += 1;
    }
    let (msc, mse) = (ss_c / df_c.max(1.0), ss_e / df_e.max(1.0));
    let k = k_all / f64::from(n.max(1));
    println!(
        "candidate effect: {n} decisions, mean square between candidates {msc:.5}, within {mse:.5}, F = {:.3}; candidate sd {:.4} against a playout's sd {:.4}",
        msc / mse.max(1e-12),
        ((msc - mse) / k).max(0.0).sqrt(),
        mse.sqrt()
    );
}
