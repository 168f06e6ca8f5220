//! Random playouts of a scenario on one thread, for profiling the rules (`perf record`):
//! `cargo run --release -p bar --example speed -- [SCENARIO] [GAMES]`. Prints the decisions a
//! second; the README's figures come from the criterion bench (`cargo bench -p bar`).
use engine::{Dice, Ruleset};
use std::time::Instant;

/// mimalloc, as the `tricorne` binary uses (crates/cli/src/main.rs).
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
    let t = Instant::now();
    let mut decisions = 0usize;
    let mut ev = Vec::new();
    let mut digest = 0xcbf2_9ce4_8422_2325_u64;
    for seed in 0..games {
        let mut st = bar.start(seed, &mut ev);
        let mut pick = Dice::new(seed ^ 0xabcdef);
        while bar.decider(&st).is_some() {
            let legal = bar.legal_actions(&st);
            let i = pick.below(legal.len());
            ev.clear();
            bar.apply_legal(&mut st, &legal[i], &mut ev);
            decisions += 1;
        }
        // A digest of every final state: a change meant to be only faster must not change it.
        for b in serde_json::to_vec(&st).unwrap_or_default() {
            digest = (digest ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{id}: {games} games, {decisions} decisions ({} a game), {:.1} ms a game, {:.0} decisions a second; digest {digest:016x}",
        decisions / games.max(1) as usize,
        s * 1000.0 / games as f64,
        decisions as f64 / s
    );
}
