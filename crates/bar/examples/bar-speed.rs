//! Random playouts of a BAR scenario on one thread, for profiling the rules (`perf record`,
//! `valgrind --tool=callgrind`) and for checking that a change meant only to be faster changes
//! nothing: `cargo run --profile bench -p bar --example bar-speed -- [SCENARIO] [GAMES] [check]`
//! (named apart from the French series' `speed` example, whose output file it would overwrite).
//!
//! Prints ms a game, decisions a second (wall clock and this process's CPU time) and a digest of
//! every final state (its JSON). Without `check` each decision is `Ruleset::random_action`'s draw
//! (a moving unit's menu sampled without being listed, `movement::sample`); with `check` every menu
//! of legal actions is listed and one entry drawn, and a second digest covers every menu (the
//! actions' ids), every event (its JSON) and every game's length too, which is slower; the timing
//! then means nothing. The two draw the die differently, so they play different games. The
//! README's figures come from the criterion bench (`cargo bench -p bar`).
use engine::playout::timed_playouts;

/// mimalloc, as the `tricorne` binary uses (crates/cli/src/main.rs).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    let t = timed_playouts(&bar, games, check);
    // The digest of the final states is the one this example printed before `check` existed.
    println!(
        "{}; digest {:016x}{}",
        t.summary(id),
        t.playouts.finals,
        if check {
            format!(", menus and events {:016x}", t.playouts.digest)
        } else {
            String::new()
        }
    );
}
