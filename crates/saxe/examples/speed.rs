//! Random playouts of a French-series scenario on one thread, for profiling the rules (`perf
//! record`) and for checking that a change meant only to be faster changes nothing:
//! `cargo run --release -p saxe --example speed -- [SCENARIO] [GAMES] [check]`.
//!
//! Prints ms a game, decisions a second and a digest of every final state (its JSON) and of the
//! number of actions. With `check` the digest also covers every menu of legal actions (their ids)
//! and every event (its JSON), which is slower; the timing then means nothing. The README's
//! figures come from the criterion bench (`cargo bench -p saxe`).
use engine::playout::timed_playouts;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let id = a.get(1).map_or("hastenbeck", String::as_str);
    let games: u64 = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    let check = a.get(3).is_some_and(|s| s == "check");
    let saxe = match saxe::Saxe::load(id, &[], None) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e:?}");
            std::process::exit(2);
        }
    };
    let t = timed_playouts(&saxe, games, check);
    println!(
        "{}; digest{} {:016x}",
        t.summary(id),
        if check { " (check)" } else { "" },
        t.playouts.digest
    );
}
