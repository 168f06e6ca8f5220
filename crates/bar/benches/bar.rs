//! Speed and memory of the BAR ruleset on `bar-drill` and the Prague scenarios (figures go to
//! the README; never asserted).
use bar::Bar;
use criterion::{Criterion, criterion_group, criterion_main};
use engine::{Dice, Ruleset};
use mimalloc::MiMalloc;
use std::alloc::{GlobalAlloc, Layout};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// mimalloc (the allocator of the `tricorne` binary, crates/cli/src/main.rs), counting the bytes
/// it hands out while [`memory`] measures a state: its size plus what cloning it allocates (its
/// heap: vectors, boxed phases). The timed games count nothing (no shared counter on their
/// allocations).
struct Counting;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);
static COUNTING: AtomicBool = AtomicBool::new(false);

// SAFETY: every call is forwarded to `MiMalloc` unchanged; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        }
        // SAFETY: the caller's layout contract is passed on to `MiMalloc`.
        unsafe { MiMalloc.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `MiMalloc.alloc` with this layout.
        unsafe { MiMalloc.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Bytes a state takes in memory: its own size, the heap a clone of it allocates and its units'
/// list, which a clone shares until it changes it (`state::Units`).
fn memory(s: &bar::state::State) -> usize {
    COUNTING.store(true, Ordering::Relaxed);
    let before = ALLOCATED.load(Ordering::Relaxed);
    let c = black_box(s.clone());
    let heap = ALLOCATED.load(Ordering::Relaxed) - before;
    COUNTING.store(false, Ordering::Relaxed);
    drop(c);
    let units = s.units.len() * std::mem::size_of::<bar::state::UnitState>();
    std::mem::size_of::<bar::state::State>() + heap + units
}

fn rules() -> Bar {
    Bar::load("bar-drill", &[], None).expect("built-in scenario") // invariant: shipped data is valid
}

/// A random game (the timed one): its decisions.
fn random_game(r: &Bar, seed: u64) -> usize {
    play(r, seed, false, false).0
}

/// A random game: its decisions and, if `peak_wanted`, the largest state seen every 50
/// decisions (bytes). Each decision a uniform draw among the legal actions: by
/// `Ruleset::random_action` (a moving unit's menu sampled without being listed,
/// `movement::sample`), or with `listed` from the whole list of legal actions.
fn play(r: &Bar, seed: u64, peak_wanted: bool, listed: bool) -> (usize, usize) {
    let mut ev = Vec::new();
    let mut s = r.start(seed, &mut ev);
    let mut pick = Dice::new(seed ^ 0xabcdef);
    let mut n = 0;
    let mut peak = 0;
    while r.decider(&s).is_some() {
        let a = if listed {
            pick.take(r.legal_actions(&s))
        } else {
            r.random_action(&s, &mut pick)
        };
        let Some(a) = a else {
            break;
        };
        ev.clear();
        r.apply_legal(&mut s, &a, &mut ev);
        n += 1;
        if peak_wanted && n % 50 == 0 {
            peak = peak.max(memory(&s));
        }
    }
    (n, peak)
}

fn prague(id: &str) -> Bar {
    Bar::load(id, &[], None).expect("built-in scenario") // invariant: shipped data is valid
}

/// Prague (issue 18): a full random game of Schwerin's attack and of the whole battle, and the
/// state's size at the set-up and at its largest.
fn prague_benches(c: &mut Criterion) {
    for id in ["prague-schwerin", "prague-battle"] {
        let r = prague(id);
        let mut ev = Vec::new();
        let start = r.start(1, &mut ev);
        let games = if id == "prague-battle" { 2 } else { 5 };
        let runs: Vec<(usize, usize)> = (0..games).map(|s| play(&r, s, true, false)).collect();
        eprintln!(
            "{id}: state at the set-up {} bytes in memory, {} bytes as JSON; {} decisions a random \
             game on average; largest state seen in {games} random games {} bytes in memory",
            memory(&start),
            serde_json::to_vec(&start).map(|v| v.len()).unwrap_or(0),
            runs.iter().map(|x| x.0).sum::<usize>() / games as usize,
            runs.iter().map(|x| x.1).max().unwrap_or(0),
        );
        c.bench_function(&format!("bar legal_actions: first decision of {id}"), |b| {
            b.iter(|| black_box(r.legal_actions(black_box(&start))))
        });
        let mut seed = 0u64;
        c.bench_function(&format!("bar full random game of {id}"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(random_game(&r, seed))
            })
        });
    }
}

fn benches(c: &mut Criterion) {
    let r = rules();
    let mut ev = Vec::new();
    let start = r.start(1, &mut ev);
    let decisions: usize = (0..20).map(|s| random_game(&r, s)).sum();
    eprintln!(
        "bar-drill: state at the set-up {} bytes in memory, {} bytes as JSON; {} decisions a random game on average",
        memory(&start),
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
    // The same, every decision's legal actions listed first (what a player's menu costs).
    let mut seed = 0u64;
    c.bench_function(
        "bar full random game of bar-drill, every menu listed",
        |b| {
            b.iter(|| {
                seed += 1;
                black_box(play(&r, seed, false, true).0)
            })
        },
    );
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_group! {
    name = prague_group;
    config = Criterion::default().sample_size(10);
    targets = prague_benches
}
criterion_main!(group, prague_group);
