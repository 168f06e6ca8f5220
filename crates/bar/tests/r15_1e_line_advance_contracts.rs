//! 15.1e: a multi-hex line advancing after combat with the width of its entire line, or contracting
//! at no cost onto a hex the loser left, stacking permitting (drill ground `tests/data/cc`, test
//! charts of `tests/data/ccbox`: clear holds 16 infantry SP and 12 cavalry SP a hex).
pub mod cc;
mod common;
use cc::*;
use common::*;

/// The hexes of an advance id.
fn hexes(id: &str) -> Vec<&str> {
    id.rsplit(':')
        .next()
        .unwrap_or_default()
        .split('-')
        .collect()
}

#[test]
fn r15_1e_a_two_hex_line_may_contract_at_no_cost_into_the_hex_the_loser_left() {
    let bar = field();
    let mut st = fresh(&bar);
    let l = beaten_in_front_of_a_line(&bar, &mut st, &["i1", "i2"], 2);
    // The whole width (two hexes), or contracted onto the vacated hex (12 SP ≤ 16).
    assert!(l.contains(&"cc-advance:i1+i2:0607".to_string()), "{l:?}");
    assert!(l.iter().any(|x| hexes(x).len() == 2), "{l:?}");
    // Every advance holds the vacated hex.
    assert!(l.iter().all(|x| hexes(x).contains(&"0607")), "{l:?}");
    let before = facing(&bar, &st, "i1");
    let log = act(&bar, &mut st, &["cc-advance:i1+i2:0607"], &[]);
    assert_logged(&log, "the line contracts from 0707-");
    assert_logged(&log, "to 1 hex, 15.1e");
    for id in ["i1", "i2"] {
        assert_eq!(hexes_of(&bar, &st, id), vec!["0607"]);
        // 15.1f: formation and facing kept.
        assert_eq!(
            st.units[usize::from(unit(&bar, id))].formation,
            bar::geom::Formation::Line
        );
        assert_eq!(facing(&bar, &st, id), before);
    }
    sound(&bar, &st);
}

#[test]
fn r15_1e_no_contraction_when_the_stacked_sps_exceed_the_hex_limit() {
    let bar = field();
    let mut st = fresh(&bar);
    // 18 SP: two hexes of 9, but one clear hex holds 16 infantry SP.
    let l = beaten_in_front_of_a_line(&bar, &mut st, &["i1", "i2", "i3"], 2);
    // The whole stack (one of its units may advance alone, 15.1c: `r15_1c_…`).
    let l: Vec<&String> = l
        .iter()
        .filter(|x| x.starts_with("cc-advance:i1+i2+i3:"))
        .collect();
    assert!(!l.is_empty(), "the whole width still advances");
    assert!(l.iter().all(|x| hexes(x).len() == 2), "{l:?}");
    sound(&bar, &st);
}

#[test]
fn r15_1e_a_three_hex_cavalry_line_contracts_to_two_hexes_but_not_beyond_its_stacking() {
    let bar = field();
    let mut st = fresh(&bar);
    // c13: 13 cavalry SP over three hexes (5, 4, 4); one clear hex holds 12 cavalry SP.
    let l: Vec<String> = beaten_in_front_of_a_line(&bar, &mut st, &["c13"], 3)
        .into_iter()
        .filter(|x| x.starts_with("cc-advance:"))
        .collect();
    assert!(l.iter().all(|x| hexes(x).contains(&"0607")), "{l:?}");
    assert!(l.iter().any(|x| hexes(x).len() == 3), "{l:?}");
    assert!(l.iter().any(|x| hexes(x).len() == 2), "{l:?}");
    assert!(l.iter().all(|x| hexes(x).len() >= 2), "{l:?}");
    let two = l.iter().find(|x| hexes(x).len() == 2).unwrap().clone(); // just checked
    act(&bar, &mut st, &[two.as_str()], &[]);
    assert_eq!(hexes_of(&bar, &st, "c13").len(), 2);
    assert!(hexes_of(&bar, &st, "c13").contains(&"0607".to_string()));
    sound(&bar, &st);
}
