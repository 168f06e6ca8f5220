//! Print the log of one random game of a scenario directory: `cargo run --example trace -- DIR BOXES SEED`.
use engine::{Dice, Ruleset};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let bar = bar::Bar::from_dir(std::path::Path::new(&a[1]), std::path::Path::new(&a[2]))
        .expect("scenario");
    let seed: u64 = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut ev = Vec::new();
    let mut st = bar.start(seed, &mut ev);
    let mut pick = Dice::new(seed ^ 7);
    while bar.decider(&st).is_some() {
        for e in ev.drain(..) {
            println!("{e}");
        }
        let legal = bar.legal_actions(&st);
        let i = pick.below(legal.len());
        println!(
            "  > {} [{}] of {}",
            bar.action_label(&st, &legal[i]),
            bar.action_id(&legal[i]),
            legal.len()
        );
        bar.apply_legal(&mut st, &legal[i], &mut ev);
    }
    for e in ev.drain(..) {
        println!("{e}");
    }
}
