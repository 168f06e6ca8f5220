//! Decision time of the agents at the historical set-up of Hastenbeck (one core): the heuristic,
//! and the search at its default budget on a decision it searches (the first activation).
use ai::{Agent, HeuristicAgent, SearchAgent, SearchConfig};
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let (g, _) = catalog::open("hastenbeck", &[], None, 1).expect("open");
    let mut h = HeuristicAgent::new(1);
    c.bench_function("heuristic decision at the set-up", |b| {
        b.iter(|| h.decide(g.as_ref()))
    });
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let mut s = SearchAgent::new(1, SearchConfig::default());
    group.bench_function("search decision (default budget) at the set-up", |b| {
        b.iter(|| s.decide(g.as_ref()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
