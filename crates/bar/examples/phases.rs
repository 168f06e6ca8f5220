//! Where a random playout's time goes, by the phase of each decision:
//! `cargo run --release -p bar --example phases -- [SCENARIO] [GAMES]`. For each phase kind: the
//! decisions, the mean time to list the legal actions and to apply the one picked, its share of
//! the whole and the mean number of legal actions (the timing itself adds a little).
use engine::{Dice, Ruleset};
use std::collections::BTreeMap;
use std::time::Instant;
/// mimalloc, as the `tricorne` binary uses.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let id = a.get(1).map_or("bar-drill", String::as_str);
    let games: u64 = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    let bar = match bar::Bar::load(id, &[], None) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{}", e.join("; "));
            std::process::exit(2);
        }
    };
    let mut ev = Vec::new();
    let mut tab: BTreeMap<String, (u64, f64, f64, u64)> = BTreeMap::new();
    for seed in 0..games {
        let mut st = bar.start(seed, &mut ev);
        let mut pick = Dice::new(seed ^ 0xabcdef);
        while bar.decider(&st).is_some() {
            let p = format!("{:?}", st.phase);
            let key: String = p.chars().take_while(|c| c.is_alphanumeric()).collect();
            let t = Instant::now();
            let legal = bar.legal_actions(&st);
            let tl = t.elapsed().as_secs_f64();
            let i = pick.below(legal.len());
            ev.clear();
            let t = Instant::now();
            bar.apply_legal(&mut st, &legal[i], &mut ev);
            let ta = t.elapsed().as_secs_f64();
            let e = tab.entry(key).or_default();
            e.0 += 1;
            e.1 += tl;
            e.2 += ta;
            e.3 += legal.len() as u64;
        }
    }
    let tot: f64 = tab.values().map(|e| e.1 + e.2).sum();
    for (k, (n, l, ap, len)) in &tab {
        println!(
            "{k:24} n={n:7} legal {:6.2} us  apply {:6.2} us  share {:5.1}%  avg legal {:.1}",
            l * 1e6 / *n as f64,
            ap * 1e6 / *n as f64,
            (l + ap) * 100.0 / tot,
            *len as f64 / *n as f64
        );
    }
    println!("total {:.1} ms/game", tot * 1000.0 / games as f64);
}
