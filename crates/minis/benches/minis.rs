//! Speed of the miniatures ruleset (figures go to the README; never asserted).
use criterion::{Criterion, criterion_group, criterion_main};
use engine::{Dice, Ruleset};
use minis::Minis;
use std::hint::black_box;

fn rules() -> Minis {
    Minis::load("minis-encounter", &[], None).expect("built-in scenario") // invariant: shipped data is valid
}

fn random_game(r: &Minis, seed: u64) -> usize {
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
        "encounter at the start: {} bytes as JSON",
        serde_json::to_vec(&start).map(|v| v.len()).unwrap_or(0)
    );
    // The centre sector chosen: its guns step (skipped when no gun has a target), then its moves.
    let mut centre = start.clone();
    let _ = r.apply_id(&mut centre, "sector:centre", &mut ev);
    c.bench_function("legal_actions: the centre's first decision", |b| {
        b.iter(|| black_box(r.legal_actions(black_box(&centre))))
    });
    let moves = {
        let mut s = centre.clone();
        let _ = r.apply_id(&mut s, "guns-done", &mut ev);
        s
    };
    c.bench_function(
        "legal_actions: the centre's moves (the menu, each checked)",
        |b| b.iter(|| black_box(r.legal_actions(black_box(&moves)))),
    );
    c.bench_function("apply: a continuous advance, checked along its path", |b| {
        b.iter(|| {
            let mut s = moves.clone();
            let mut e = Vec::new();
            black_box(r.apply_id(&mut s, "advance:b-foot3:2.3", &mut e).is_ok());
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
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(group);
