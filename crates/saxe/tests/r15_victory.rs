//! Rule 15: automatic victory (15.1), victory at the end of the scenario (15.2), control of the
//! villages.
mod common;

use common::*;
use engine::Ruleset;
use hexmap::Vertex;
use saxe::Saxe;
use saxe::scenario::Side;
use saxe::state::{Phase, State, flag};

const FRENCH: Side = Side::French;
const ALLIES: Side = Side::Allies;

/// End turn `turn` with this control of [Hastenbeck, Afferde] and these demoralised formations.
fn end_turn(r: &Saxe, turn: u8, control: [Side; 2], demoralised: &[&str]) -> State {
    let mut s = empty_board(r);
    // One French unit away from the villages, so that a game that goes on stops at the next
    // French activation.
    place(r, &mut s, "du-roi", clear_area(r, 1), Vertex::N);
    s.turn = turn;
    s.second = true;
    s.control = control.to_vec();
    for id in demoralised {
        s.formations[usize::from(formation(r, id))].demoralised = true;
    }
    s.phase = Phase::EndOfTurn;
    s.frames.clear();
    let mut ev = Vec::new();
    r.run(&mut s, &mut ev);
    s
}

fn result(s: &State) -> (Option<Side>, String, String) {
    s.result.clone().expect("the game is over")
}

const ALLIED_ARMY: &[&str] = &["zastrow", "wutginau"];
const FRENCH_ARMY: &[&str] = &["chevert", "armentieres", "contades"];

#[test]
fn r15_2_brilliant_french_victory() {
    let r = rules();
    let s = end_turn(&r, 10, [FRENCH, ALLIES], ALLIED_ARMY);
    assert_eq!(
        result(&s),
        (
            Some(FRENCH),
            "Brilliant French victory".into(),
            "15.2".into()
        )
    );
    assert_eq!(
        r.outcome(&s).expect("outcome").level,
        "Brilliant French victory"
    );
}

#[test]
fn r15_2_limited_french_victory() {
    let r = rules();
    let s = end_turn(&r, 10, [FRENCH, ALLIES], &["imhoff"]);
    assert_eq!(result(&s).0, Some(FRENCH));
    assert_eq!(result(&s).1, "Limited French victory");
    // Not if the French are demoralised themselves.
    let dem: Vec<&str> = FRENCH_ARMY.iter().copied().chain(["imhoff"]).collect();
    let s = end_turn(&r, 10, [FRENCH, ALLIES], &dem);
    assert_ne!(result(&s).0, Some(FRENCH));
}

#[test]
fn r15_2_forfeited_game() {
    let r = rules();
    let s = end_turn(&r, 10, [FRENCH, ALLIES], &[]);
    assert_eq!(result(&s), (None, "Forfeited game".into(), "15.2".into()));
    let both: Vec<&str> = FRENCH_ARMY.iter().chain(ALLIED_ARMY).copied().collect();
    let s = end_turn(&r, 10, [FRENCH, ALLIES], &both);
    assert_eq!(result(&s).1, "Forfeited game");
}

#[test]
fn r15_2_limited_allied_victory() {
    let r = rules();
    for dem in [&[][..], &["broglie"][..]] {
        let s = end_turn(&r, 10, [ALLIES, ALLIES], dem);
        assert_eq!(
            result(&s),
            (Some(ALLIES), "Limited Allied victory".into(), "15.2".into()),
            "{dem:?}"
        );
    }
    // Not if the Army of Observation is demoralised.
    let s = end_turn(&r, 10, [ALLIES, ALLIES], ALLIED_ARMY);
    assert_ne!(result(&s).0, Some(ALLIES));
}

#[test]
fn r15_2_brilliant_allied_victory() {
    let r = rules();
    let s = end_turn(&r, 10, [ALLIES, ALLIES], &["chevert", "broglie"]);
    assert_eq!(result(&s).1, "Brilliant Allied victory");
    assert_eq!(result(&s).0, Some(ALLIES));
    let s = end_turn(
        &r,
        10,
        [ALLIES, ALLIES],
        &["chevert", "broglie", "zastrow", "imhoff"],
    );
    assert_ne!(result(&s).0, Some(ALLIES), "not while demoralised");
}

#[test]
fn r15_2_tremendous_allied_victory() {
    let r = rules();
    let s = end_turn(&r, 10, [ALLIES, ALLIES], FRENCH_ARMY);
    assert_eq!(
        result(&s),
        (
            Some(ALLIES),
            "Tremendous Allied victory".into(),
            "15.2".into()
        )
    );
}

#[test]
fn r15_1_automatic_tremendous_french_victory_at_any_end_of_turn() {
    let r = rules();
    let s = end_turn(&r, 3, [FRENCH, FRENCH], ALLIED_ARMY);
    assert_eq!(
        result(&s),
        (
            Some(FRENCH),
            "Tremendous French victory".into(),
            "15.1".into()
        )
    );
    assert_eq!(s.phase, Phase::Over);
    // Hastenbeck alone is not enough; nor both villages without the Allied army demoralised.
    let s = end_turn(&r, 3, [FRENCH, ALLIES], ALLIED_ARMY);
    assert!(s.result.is_none());
    assert_eq!(s.turn, 4);
    let s = end_turn(&r, 3, [FRENCH, FRENCH], &["zastrow"]);
    assert!(s.result.is_none());
}

#[test]
fn r16_1_1_the_game_ends_after_turn_10() {
    let r = rules();
    let s = end_turn(&r, 9, [ALLIES, ALLIES], &[]);
    assert!(s.result.is_none());
    assert_eq!(s.turn, 10);
    let s = end_turn(&r, 10, [ALLIES, ALLIES], &[]);
    assert!(s.result.is_some());
    assert!(r.legal(&s).is_empty());
}

#[test]
fn r15_control_of_hastenbeck() {
    let r = rules();
    let h = r.sc.objective("hastenbeck")[0];
    let mut s = empty_board(&r);
    assert_eq!(s.control, [ALLIES, ALLIES]);
    let u = place(&r, &mut s, "du-roi", h, Vertex::N);
    s.units[usize::from(u)].set(flag::ROUTED, true);
    let mut ev = Vec::new();
    r.update_control(&mut s, &mut ev);
    assert_eq!(s.control[0], ALLIES, "a routed unit takes nothing");
    s.units[usize::from(u)].set(flag::ROUTED, false);
    r.update_control(&mut s, &mut ev);
    assert_eq!(s.control, [FRENCH, ALLIES]);
    // The French keep it after leaving it empty.
    s.units[usize::from(u)].hex = None;
    r.update_control(&mut s, &mut ev);
    assert_eq!(s.control[0], FRENCH);
}
