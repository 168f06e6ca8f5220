//! Speed and memory of the French series ruleset (figures go to the README; never asserted).
use criterion::{Criterion, criterion_group, criterion_main};
use engine::{Dice, Ruleset};
use saxe::Saxe;
use std::hint::black_box;

fn rules() -> Saxe {
    Saxe::load("hastenbeck", &[], None).expect("built-in scenario") // invariant: shipped data is valid
}

fn random_game(r: &Saxe, seed: u64) -> usize {
    let mut ev = Vec::new();
    let mut s = r.start(seed, &mut ev);
    let mut pick = Dice::new(seed ^ 0xabcdef);
    let mut n = 0;
    while r.decider(&s).is_some() {
        let legal = r.legal_actions(&s);
        let a = legal[pick.below(legal.len())].clone();
        ev.clear();
        r.apply_legal(&mut s, &a, &mut ev);
        n += 1;
    }
    n
}

fn benches(c: &mut Criterion) {
    let r = rules();
    let mut ev = Vec::new();
    let start = r.start(1, &mut ev);
    eprintln!(
        "state at the historical set-up: {} bytes in memory, {} bytes as JSON",
        start.memory_bytes(),
        serde_json::to_vec(&start).map(|v| v.len()).unwrap_or(0)
    );
    c.bench_function("legal_actions: historical set-up", |b| {
        b.iter(|| black_box(r.legal_actions(black_box(&start))))
    });
    // A position in the middle of an activation: the line of Contades selected.
    let mut mid = start.clone();
    for id in ["activate-auto:contades", "move-line:colonel-general"] {
        let _ = r.apply_id(&mut mid, id, &mut ev);
    }
    c.bench_function("legal_actions: moving a line", |b| {
        b.iter(|| black_box(r.legal_actions(black_box(&mid))))
    });
    c.bench_function("apply: activate a formation (clone + apply)", |b| {
        b.iter(|| {
            let mut s = start.clone();
            let mut e = Vec::new();
            r.apply_id(&mut s, "activate-auto:broglie", &mut e).ok();
            black_box(s)
        })
    });
    let mut seed = 0u64;
    c.bench_function("full random game", |b| {
        b.iter(|| {
            seed += 1;
            black_box(random_game(&r, seed))
        })
    });
    // Peak state size over a few random games.
    let mut peak = 0usize;
    for sd in 0..20 {
        let mut e = Vec::new();
        let mut s = r.start(sd, &mut e);
        let mut pick = Dice::new(sd);
        while r.decider(&s).is_some() {
            let legal = r.legal_actions(&s);
            let a = legal[pick.below(legal.len())].clone();
            r.apply_legal(&mut s, &a, &mut e);
            peak = peak.max(s.memory_bytes());
        }
    }
    eprintln!("largest state seen in 20 random games: {peak} bytes in memory");
}

criterion_group!(saxe_benches, benches);
criterion_main!(saxe_benches);
