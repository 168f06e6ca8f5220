//! Rule 13: formation morale — losses (13.1), independent units (13.2), the army (13.3).
mod common;

use common::*;
use hexmap::{Dir, Vertex};
use saxe::Saxe;
use saxe::scenario::Side;
use saxe::state::{Phase, State, flag};

#[test]
fn r13_1_printed_values_are_a_third_of_the_steps_rounded_up() {
    let r = rules();
    for (id, printed) in [
        ("chevert", 6),
        ("armentieres", 7),
        ("contades", 8),
        ("broglie", 10),
        ("zastrow", 7),
        ("wutginau", 6),
        ("imhoff", 6),
    ] {
        let f = &r.sc.formations[usize::from(formation(&r, id))];
        assert_eq!(f.demoralisation, printed, "{id}: 16.1.4");
        assert_eq!(f.initial_steps.div_ceil(3), printed, "{id}: 13.1");
    }
    // Cannons count, redoubts do not: Wutginau = 2+2+3+3+3+2+2 steps (its redoubt left out).
    assert_eq!(
        r.sc.formations[usize::from(formation(&r, "wutginau"))].initial_steps,
        17
    );
}

#[test]
fn r13_1_what_counts_as_a_loss() {
    let r = rules();
    let x = clear_area(&r, 3);
    let f = formation(&r, "broglie");
    let mut s = empty_board(&r);
    assert_eq!(r.formation_losses(&s, f), 0);
    // A step lost by a unit still on the map: 1.
    let du_roi = place(&r, &mut s, "du-roi", x, Vertex::N);
    s.units[usize::from(du_roi)].lost = 1;
    assert_eq!(r.formation_losses(&s, f), 1);
    // An eliminated unit: all its steps (Palatinat 2 has 3).
    let p2 = place(
        &r,
        &mut s,
        "palatinat-2",
        go(x, &[Dir::W, Dir::W]),
        Vertex::N,
    );
    let mut ev = Vec::new();
    r.eliminate(&mut s, p2, "test", "11.1", &mut ev);
    assert_eq!(r.formation_losses(&s, f), 4);
    // A routed unit: 1.
    let poitou = place(&r, &mut s, "poitou", go(x, &[Dir::E, Dir::E]), Vertex::N);
    s.units[usize::from(poitou)].set(flag::ROUTED, true);
    assert_eq!(r.formation_losses(&s, f), 5);
    // The formation commander dead: 1.
    s.formations[usize::from(f)].commanders_lost = 1;
    assert_eq!(r.formation_losses(&s, f), 6);
    // The army commander dead: 2 for every formation of the army.
    s.army_commander_lost[Side::French.ix()] = true;
    assert_eq!(r.formation_losses(&s, f), 8);
    assert_eq!(r.formation_losses(&s, formation(&r, "chevert")), 2);
    assert_eq!(r.formation_losses(&s, formation(&r, "wutginau")), 0);
}

#[test]
fn r13_1_a_destroyed_redoubt_is_not_a_loss() {
    let r = rules();
    let x = clear_area(&r, 1);
    let mut s = empty_board(&r);
    let red = place(&r, &mut s, "wutginau-redoubt-0911", x, Vertex::S);
    let mut ev = Vec::new();
    r.eliminate(&mut s, red, "test", "11.5", &mut ev);
    assert_eq!(r.formation_losses(&s, formation(&r, "wutginau")), 0);
}

/// Broglie with `n` step losses on units still on the map.
fn broglie_with_losses(r: &Saxe, n: u8) -> State {
    let mut s = empty_board(r);
    let x = clear_area(r, 3);
    let mut left = n;
    for (i, id) in ["du-roi", "grenadiers", "palatinat-1", "royal-suedois"]
        .into_iter()
        .enumerate()
    {
        let u = place(r, &mut s, id, ahead(x, Dir::W, i), Vertex::N);
        let take = left.min(r.sc.units[usize::from(u)].steps - 1);
        s.units[usize::from(u)].lost = take;
        left -= take;
    }
    assert_eq!(left, 0);
    s
}

fn end_of_turn(r: &Saxe, s: &mut State) -> Vec<saxe::event::Event> {
    s.phase = Phase::EndOfTurn;
    s.frames.clear();
    let mut ev = Vec::new();
    r.run(s, &mut ev);
    ev
}

#[test]
fn r13_1_demoralised_in_phase_c_when_losses_reach_the_value() {
    let r = rules();
    let f = usize::from(formation(&r, "broglie"));
    let mut s = broglie_with_losses(&r, 9);
    end_of_turn(&r, &mut s);
    assert!(!s.formations[f].demoralised, "9 < 10");
    let mut s = broglie_with_losses(&r, 10);
    assert_eq!(r.formation_losses(&s, f as u8), 10);
    assert!(!s.formations[f].demoralised, "not before phase C");
    let turn = s.turn;
    let ev = end_of_turn(&r, &mut s);
    assert!(s.formations[f].demoralised);
    assert!(logged(&ev, "13.1"), "{ev:?}");
    assert_eq!(s.turn, turn + 1);
}

#[test]
fn r13_1_demoralised_formation_morale_minus_1() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let u = place(&r, &mut s, "grenadiers", x, Vertex::N);
    assert_eq!(r.morale(&s, u), 5);
    s.formations[usize::from(formation(&r, "broglie"))].demoralised = true;
    assert_eq!(r.morale(&s, u), 4);
}

#[test]
fn r13_1_demoralised_units_may_not_enter_an_enemy_zoc() {
    let r = rules();
    let x = clear_area(&r, 2);
    for dem in [false, true] {
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place(
            &r,
            &mut s,
            "von-gilsa",
            go(x, &[Dir::NW, Dir::NW]),
            Vertex::S,
        );
        place_cmdr(&r, &mut s, "broglie", x);
        s.formations[usize::from(formation(&r, "broglie"))].demoralised = dem;
        activate_auto(&r, &mut s, "broglie");
        act(&r, &mut s, "move-unit:du-roi");
        let l = ids(&r, &s);
        assert!(r.in_zoc_of(&s, go(x, &[Dir::NW]), Side::Allies));
        assert_eq!(l.contains(&"step:NW".to_string()), !dem, "{l:?}");
        assert!(l.contains(&"step:NE".to_string()));
    }
}

#[test]
fn r13_2_independent_units_have_no_formation_morale() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let u = place(&r, &mut s, "royal-carabiniers", x, Vertex::N);
    assert_eq!(r.sc.units[usize::from(u)].formation, None);
    for f in s.formations.iter_mut() {
        f.demoralised = true;
    }
    assert!(!r.demoralised(&s, u));
    assert_eq!(r.morale(&s, u), 5);
}

#[test]
fn r13_3_army_demoralised_with_3_french_or_2_allied_formations() {
    let r = rules();
    let mut s = empty_board(&r);
    for id in ["chevert", "armentieres"] {
        s.formations[usize::from(formation(&r, id))].demoralised = true;
    }
    assert!(!r.army_demoralised(&s, Side::French));
    s.formations[usize::from(formation(&r, "contades"))].demoralised = true;
    assert!(r.army_demoralised(&s, Side::French));
    s.formations[usize::from(formation(&r, "zastrow"))].demoralised = true;
    assert!(!r.army_demoralised(&s, Side::Allies));
    s.formations[usize::from(formation(&r, "imhoff"))].demoralised = true;
    assert!(r.army_demoralised(&s, Side::Allies));
}
