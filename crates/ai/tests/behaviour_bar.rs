//! The agents at BAR (`bar::agent`): the heuristic, which fires when it may, closes on the enemy
//! and searches only the big decisions, beats random play in `bar-drill` from either side.
use engine::Seat;

/// Wins and losses of the heuristic playing `seat` against random play over `games` seeds.
fn record(seat: u8, games: u64) -> (u32, u32) {
    let (mut won, mut lost) = (0, 0);
    for seed in 1..=games {
        let (mut g, _) = catalog::open("bar-drill", &[], None, seed).expect("bar-drill opens");
        let h = ai::agent("heuristic", seed).expect("a known agent");
        let r = ai::agent("random", seed + 100).expect("a known agent");
        let mut agents = if seat == 0 { [h, r] } else { [r, h] };
        ai::play_out(g.as_mut(), &mut agents, 50_000).expect("the game ends");
        match g.outcome().and_then(|o| o.winner) {
            Some(w) if w == Seat(seat) => won += 1,
            Some(_) => lost += 1,
            None => {}
        }
    }
    (won, lost)
}

#[test]
fn the_bar_heuristic_beats_random_play_from_either_side() {
    for seat in [0, 1] {
        let (won, lost) = record(seat, 8);
        assert!(
            won >= 4 && won > 2 * lost,
            "seat {seat}: the heuristic won {won}, lost {lost} of 8"
        );
    }
}
