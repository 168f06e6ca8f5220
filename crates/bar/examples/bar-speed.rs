//! Random playouts of a BAR scenario on one thread, for profiling the rules (`perf record`,
//! `valgrind --tool=callgrind`) and for checking that a change meant only to be faster changes
//! nothing: `cargo run --profile bench -p bar --example bar-speed -- [SCENARIO] [GAMES] [check]`
//! (named apart from the French series' `speed` example, whose output file it would overwrite).
//!
//! Prints ms a game, decisions a second (wall clock and this process's CPU time) and a digest of
//! every final state (its JSON) and game length. With `check` the digest also covers every menu
//! of legal actions (their ids) and every event (its JSON), which is slower; the timing then means
//! nothing. The README's figures come from the criterion bench (`cargo bench -p bar`).
use engine::{Dice, Ruleset};
use std::time::Instant;

/// mimalloc, as the `tricorne` binary uses (crates/cli/src/main.rs).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// FNV-1a over bytes.
fn fold(digest: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *digest = (*digest ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
    }
}

/// This process's CPU time so far in seconds (Linux `/proc/self/stat`, user + system, at the
/// kernel's 100 ticks a second), so that figures on a shared machine count only our own work.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let id = a.get(1).map_or("bar-drill", String::as_str);
    let games: u64 = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    let check = a.get(3).is_some_and(|s| s == "check");
    let bar = match bar::Bar::load(id, &[], None) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{}", e.join("; "));
            std::process::exit(2);
        }
    };
    let t = Instant::now();
    let cpu0 = cpu_seconds();
    let mut decisions = 0usize;
    let mut ev = Vec::new();
    let mut digest = 0xcbf2_9ce4_8422_2325_u64;
    let mut finals = 0xcbf2_9ce4_8422_2325_u64;
    for seed in 0..games {
        ev.clear();
        let mut st = bar.start(seed, &mut ev);
        let mut pick = Dice::new(seed ^ 0xabcdef);
        let mut n = 0u64;
        while bar.decider(&st).is_some() {
            let legal = bar.legal_actions(&st);
            let i = pick.below(legal.len());
            if check {
                for e in &ev {
                    fold(&mut digest, &serde_json::to_vec(e).unwrap_or_default());
                }
                for l in &legal {
                    fold(&mut digest, bar.action_id(l).as_bytes());
                    fold(&mut digest, b"|");
                }
            }
            ev.clear();
            bar.apply_legal(&mut st, &legal[i], &mut ev);
            n += 1;
        }
        if check {
            for e in &ev {
                fold(&mut digest, &serde_json::to_vec(e).unwrap_or_default());
            }
        }
        decisions += n as usize;
        // A digest of every final state: a change meant to be only faster must not change it
        // (the same digest as this example's earlier versions printed).
        let json = serde_json::to_vec(&st).unwrap_or_default();
        fold(&mut finals, &json);
        fold(&mut digest, &json);
        fold(&mut digest, &n.to_le_bytes());
    }
    let s = t.elapsed().as_secs_f64();
    let cpu = match (cpu0, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => format!(
            " (CPU time: {:.2} ms a game, {:.0} decisions a second)",
            (b - a) * 1000.0 / games as f64,
            decisions as f64 / (b - a)
        ),
        _ => String::new(),
    };
    println!(
        "{id}: {games} games, {decisions} decisions ({} a game), {:.2} ms a game, {:.0} decisions a second{cpu}; digest {finals:016x}{}",
        decisions / games.max(1) as usize,
        s * 1000.0 / games as f64,
        decisions as f64 / s,
        if check {
            format!(", menus and events {digest:016x}")
        } else {
            String::new()
        }
    );
}
