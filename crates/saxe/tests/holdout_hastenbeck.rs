//! Issue 12, findings 1, 3, 4 and the set-up part of 11: the positions a player built from edited
//! copies of `scenarios/` to check the engine against the book, rebuilt here hex for hex.
//!
//! - 7.1: a lone redoubt's hex is no way from one enemy ZoC into another.
//! - 3.1 / 2.1: a light unit joining a stack takes the stack's facing (docs/rules-decisions.md 3.1).
//! - 3.1, 3.2, 3.4: a set-up that breaks the stacking limits, puts two sides in a hex or a
//!   commander in an enemy unit's hex is refused, with its file and unit, every problem at once.
mod common;

use common::*;
use engine::Ruleset;
use hexmap::Vertex;
use saxe::Saxe;

// ------------------------------------------------------------------- 7.1: lone redoubts and ZoCs

/// The finding's position: Picardie 1510 facing N, Von Gilsa 1509 SW, the Wutginau redoubt 1410 S,
/// Von Fürstenberg 2 1310 S, Chevert 1610; Chevert activated, Picardie chosen to move. Only the
/// Allied units named in `allies` are set up.
fn redoubt_position(r: &Saxe, allies: &[&str]) -> saxe::state::State {
    let mut s = empty_board(r);
    place(r, &mut s, "picardie", hx("1510"), Vertex::N);
    for &(id, h, f) in &[
        ("von-gilsa", "1509", Vertex::SW),
        ("wutginau-redoubt-0911", "1410", Vertex::S),
        ("von-fuerstenberg-2", "1310", Vertex::S),
    ] {
        if allies.contains(&id) {
            place(r, &mut s, id, hx(h), f);
        }
    }
    place_cmdr(r, &mut s, "chevert", hx("1610"));
    place_cmdr(r, &mut s, "estrees", hx("1614"));
    place_cmdr(r, &mut s, "contades", hx("1713"));
    activate_auto(r, &mut s, "chevert");
    act(r, &mut s, "move-unit:picardie");
    s
}

#[test]
fn r7_1_no_move_from_zoc_to_zoc_through_a_lone_redoubt() {
    let r = rules();
    let s = redoubt_position(
        &r,
        &["von-gilsa", "wutginau-redoubt-0911", "von-fuerstenberg-2"],
    );
    // The geometry the finding relies on.
    let picardie = unit(&r, "picardie");
    assert!(r.zoc_reaches(&s, unit(&r, "von-gilsa"), hx("1510")));
    assert!(r.zoc_reaches(&s, unit(&r, "wutginau-redoubt-0911"), hx("1510")));
    assert!(r.zoc_reaches(&s, unit(&r, "von-fuerstenberg-2"), hx("1410")));
    let l = ids(&r, &s);
    assert!(
        !l.contains(&"step:NW".to_string()),
        "Picardie may not go from Von Gilsa's ZoC into Von Fürstenberg 2's by the redoubt: {l:?}"
    );
    // 8.4 is still the way out.
    assert!(l.iter().any(|i| i.starts_with("leave-zoc:")), "{l:?}");
    assert_eq!(s.units[usize::from(picardie)].hex, Some(hx("1510")));
}

#[test]
fn r7_1_the_lone_redoubt_lifts_only_its_own_zoc() {
    let r = rules();
    // Von Gilsa pins Picardie: leaving his ZoC is by 8.4 only, even into a redoubt that no other
    // unit covers.
    let s = redoubt_position(&r, &["von-gilsa", "wutginau-redoubt-0911"]);
    let l = ids(&r, &s);
    assert!(!l.contains(&"step:NW".to_string()), "{l:?}");
}

#[test]
fn r7_1_no_move_from_a_redoubts_zoc_into_another_units_zoc() {
    let r = rules();
    // Only the redoubt holds Picardie, but its hex lies in Von Fürstenberg 2's ZoC.
    let s = redoubt_position(&r, &["wutginau-redoubt-0911", "von-fuerstenberg-2"]);
    let l = ids(&r, &s);
    assert!(!l.contains(&"step:NW".to_string()), "{l:?}");
}

#[test]
fn r11_5_a_unit_held_only_by_a_lone_redoubt_may_still_enter_and_destroy_it() {
    let r = rules();
    // rules-decisions 9.5 / 11.5 stands: otherwise a lone redoubt would pin its neighbours.
    let mut s = redoubt_position(&r, &["wutginau-redoubt-0911"]);
    let red = unit(&r, "wutginau-redoubt-0911");
    let ev = act(&r, &mut s, "step:NW");
    assert_eq!(s.units[usize::from(red)].hex, None);
    assert!(logged(&ev, "11.5"), "{ev:?}");
    assert_eq!(
        s.units[usize::from(unit(&r, "picardie"))].hex,
        Some(hx("1410"))
    );
    assert!(r.check_invariants(&s).is_empty());
}
