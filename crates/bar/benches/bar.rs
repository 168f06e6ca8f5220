//! Speed and memory of the BAR ruleset on `bar-drill` (figures go to the README; never asserted).
use bar::Bar;
use criterion::{Criterion, criterion_group, criterion_main};
use engine::{Dice, Ruleset};
use std::hint::black_box;

fn rules() -> Bar {
    Bar::load("bar-drill", &[], None).expect("built-in scenario") // invariant: shipped data is valid
}

fn random_game(r: &Bar, seed: u64) -> usize {
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
    let decisions: usize = (0..20).map(|s| random_game(&r, s)).sum();
    eprintln!(
        "bar-drill: state at the set-up {} bytes as JSON; {} decisions a random game on average",
        serde_json::to_vec(&start).map(|v| v.len()).unwrap_or(0),
        decisions / 20
    );
    c.bench_function("bar legal_actions: first decision of bar-drill", |b| {
        b.iter(|| black_box(r.legal_actions(black_box(&start))))
    });
    // The command control declarations of the first activation.
    let mut cc = start.clone();
    while cc.phase != bar::state::Phase::CommandControl && r.decider(&cc).is_some() {
        let a = r.legal_actions(&cc)[0].clone();
        r.apply_legal(&mut cc, &a, &mut ev);
    }
    c.bench_function("bar legal_actions: command control declarations", |b| {
        b.iter(|| black_box(r.legal_actions(black_box(&cc))))
    });
    c.bench_function(
        "bar apply: end command control (command status, recovery, end)",
        |b| {
            b.iter(|| {
                let mut s = cc.clone();
                let mut e = Vec::new();
                r.apply_id(&mut s, "command-done", &mut e).ok();
                black_box(s)
            })
        },
    );
    let mut seed = 0u64;
    c.bench_function("bar full random game of bar-drill", |b| {
        b.iter(|| {
            seed += 1;
            black_box(random_game(&r, seed))
        })
    });
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(group);
