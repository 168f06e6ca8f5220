//! 15.1c with 10.8d: "The number of units that advance is at the choice of the player owning
//! them": one unit of a multi-hex stack may advance alone; the units left behind are a stack that
//! separated, so a multi-hex line among them "is required to adjust its length if enough SPs leave
//! the original stack … automatically at the instant the moving unit(s) leave the hex" (10.8d).
//! Drill ground `tests/data/cc`, test charts of `tests/data/ccbox` (3 ranks: two hexes need 5 SP;
//! clear holds 16 infantry SP a hex).
pub mod cc;
mod common;
use cc::*;
use common::*;

/// `ids` (top first) stacked in a 2-hex line from 0707 facing N, beaten in front of it (r2
/// eliminated in 0607, `cc::beaten_in_front_of_a_line`). Returns the line's hexes and the legal
/// advances.
fn beaten(bar: &bar::Bar, st: &mut bar::state::State, ids: &[&str]) -> (Vec<String>, Vec<String>) {
    for (i, id) in ids.iter().enumerate() {
        st.units[usize::from(unit(bar, id))].order = i as u16;
    }
    let l = beaten_in_front_of_a_line(bar, st, ids, 2);
    (hexes_of(bar, st, ids[0]), l)
}

#[test]
fn r15_1c_10_8d_one_unit_of_a_line_advances_and_the_remainder_contracts_at_once() {
    let bar = field();
    let mut st = fresh(&bar);
    // IR 1/I (6 SP) on top of the grenadiers (4 SP): 10 SP over two hexes.
    let (two, l) = beaten(&bar, &mut st, &["i1", "gr"]);
    assert_eq!(two[0], "0707");
    // The whole stack, or IR 1/I alone (onto the vacated hex, 15.1e, or with its whole width).
    assert!(
        l.iter().any(|x| x.starts_with("cc-advance:i1+gr:")),
        "{l:?}"
    );
    assert!(l.contains(&"cc-advance:i1:0607".to_string()), "{l:?}");
    let log = act(&bar, &mut st, &["cc-advance:i1:0607"], &[]);
    // The advancing unit in the vacated hex.
    assert_eq!(hexes_of(&bar, &st, "i1"), vec!["0607"]);
    // 10.8d: 4 SP cannot hold two hexes (5 needed): the grenadiers contract at once, free, to
    // one hex, keeping the line's right-hand end.
    assert_eq!(hexes_of(&bar, &st, "gr"), vec!["0707"]);
    assert_logged(&log, "10.8d");
    // The contracted remainder may follow (15.1c: how many advance is the player's choice), once
    // IR 1/I has kept its facing (15.1g).
    act(&bar, &mut st, &["cc-face-keep"], &[]);
    let l = legal(&bar, &st);
    assert!(l.contains(&"cc-advance:gr:0607".to_string()), "{l:?}");
    assert!(l.contains(&"cc-advance-done".to_string()), "{l:?}");
    // Formations and facings kept (15.1f).
    for id in ["i1", "gr"] {
        assert_eq!(
            st.units[usize::from(unit(&bar, id))].formation,
            bar::geom::Formation::Line
        );
        assert_eq!(facing(&bar, &st, id), "N");
    }
    sound(&bar, &st);
}

#[test]
fn r15_1c_10_8d_a_remainder_that_still_holds_its_hexes_keeps_them() {
    let bar = field();
    let mut st = fresh(&bar);
    // 6 + 6: IR 1/II's 6 SP still hold two hexes (5 needed).
    let (two, l) = beaten(&bar, &mut st, &["i1", "i2"]);
    assert!(l.contains(&"cc-advance:i1:0607".to_string()), "{l:?}");
    let log = act(&bar, &mut st, &["cc-advance:i1:0607"], &[]);
    assert_eq!(hexes_of(&bar, &st, "i1"), vec!["0607"]);
    assert_eq!(hexes_of(&bar, &st, "i2"), two);
    assert_not_logged(&log, "10.8d");
    sound(&bar, &st);
}

#[test]
fn r15_1c_a_unit_too_weak_for_two_hexes_advances_alone_only_onto_one() {
    let bar = field();
    let mut st = fresh(&bar);
    // The grenadiers (4 SP, under IR 1/I) alone cannot be a 2-hex line: they may advance alone
    // only by contracting onto the vacated hex (15.1e); IR 1/I (6 SP) stays and keeps both hexes.
    let (two, l) = beaten(&bar, &mut st, &["i1", "gr"]);
    let alone: Vec<&String> = l
        .iter()
        .filter(|x| x.starts_with("cc-advance:gr:"))
        .collect();
    assert_eq!(alone, vec!["cc-advance:gr:0607"], "{l:?}");
    act(&bar, &mut st, &["cc-advance:gr:0607"], &[]);
    assert_eq!(hexes_of(&bar, &st, "gr"), vec!["0607"]);
    assert_eq!(hexes_of(&bar, &st, "i1"), two);
    sound(&bar, &st);
}
