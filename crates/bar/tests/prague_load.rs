//! The Prague scenarios load (1.3c map letters, several maps) and play to their end with random choices.
use engine::{Dice, Ruleset};

#[test]
fn r1_3c_the_prague_scenarios_load_and_play_with_their_map_letters() {
    for id in ["prague-schwerin", "prague-gap", "prague-battle"] {
        let bar = bar::Bar::load(id, &[], None).unwrap_or_else(|e| panic!("{id}: {e:?}"));
        let mut ev = Vec::new();
        let mut st = bar.start(1, &mut ev);
        let mut pick = Dice::new(9);
        let mut n = 0;
        while bar.decider(&st).is_some() && n < 50_000 {
            let legal = bar.legal_actions(&st);
            let a = legal[pick.below(legal.len())].clone();
            bar.apply_legal(&mut st, &a, &mut ev);
            n += 1;
        }
        assert!(bar.outcome(&st).is_some(), "{id}: no end after {n} actions");
        let bad = bar.check_invariants(&st);
        assert!(bad.is_empty(), "{id}: {bad:?}");
        let text = bar.render_text(&st, None);
        let letter = if id == "prague-battle" { "W" } else { "E" };
        assert!(
            text.contains(&format!(" {letter}")),
            "{id}: hexes named with their map letter (1.3c)"
        );
        eprintln!(
            "{id}: {n} decisions, {} units, {} hexes",
            bar.sc.units.len(),
            bar.sc.board.hexes.len()
        );
    }
}
