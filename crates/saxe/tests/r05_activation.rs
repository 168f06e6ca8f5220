//! Rules 4.B1 and 5 (activation), 16.1 (first-turn automatic activation, activation values).
mod common;

use common::*;
use hexmap::{Dir, HexId, Vertex};
use saxe::event::Event;
use saxe::scenario::Side;
use saxe::state::{Frame, GroupKind, State, flag};

/// Du Roi with Broglie at `x`, and d'Estrées at `army` (or off the map).
fn broglie_position(r: &saxe::Saxe, army: Option<HexId>) -> (State, HexId) {
    let mut s = empty_board(r);
    let x = clear_area(r, 2);
    place(r, &mut s, "du-roi", x, Vertex::N);
    place(r, &mut s, "mailly", go(x, &[Dir::SE, Dir::SE]), Vertex::N);
    place_cmdr(r, &mut s, "broglie", x);
    if let Some(a) = army {
        place_cmdr(r, &mut s, "estrees", a);
    }
    (s, x)
}

fn activation_roll(ev: &[Event]) -> (u8, Vec<(String, i32)>, i32) {
    let e = rolls_of(ev, "5.1");
    assert_eq!(e.len(), 1, "one activation roll: {ev:?}");
    match e[0] {
        Event::Roll {
            die, mods, total, ..
        } => (*die, mods.clone(), *total),
        _ => unreachable!(),
    }
}

#[test]
fn r16_1_2_french_activation_value_is_4() {
    let r = rules();
    assert_eq!(r.sc.activation, [4, 3]);
    let x = clear_area(&r, 2);
    let (mut s, _) = broglie_position(&r, Some(go(x, &[Dir::E, Dir::E])));
    s.dice = dice_rolling(&[4]);
    let ev = act(&r, &mut s, "activate:broglie");
    assert_eq!(activation_roll(&ev), (4, vec![], 4));
    assert!(top_activation(&s).expect("activation").success);

    let (mut s, _) = broglie_position(&r, Some(go(x, &[Dir::E, Dir::E])));
    s.dice = dice_rolling(&[5]);
    act(&r, &mut s, "activate:broglie");
    assert!(!top_activation(&s).expect("activation").success);
}

#[test]
fn r16_1_2_allied_activation_value_is_3() {
    let r = rules();
    for (die, ok) in [(3, true), (4, false)] {
        let mut s = empty_board(&r);
        let x = clear_area(&r, 2);
        place(&r, &mut s, "von-gilsa", x, Vertex::S);
        place_cmdr(&r, &mut s, "wutginau", x);
        place_cmdr(&r, &mut s, "cumberland", go(x, &[Dir::W]));
        s.active = Side::Allies;
        s.dice = dice_rolling(&[die]);
        act(&r, &mut s, "activate:wutginau");
        assert_eq!(
            top_activation(&s).expect("activation").success,
            ok,
            "die {die}"
        );
    }
}

#[test]
fn r5_1_formation_commander_out_of_army_radius_plus_1() {
    let r = rules();
    let x = clear_area(&r, 2);
    let far =
        r.sc.map
            .hexes()
            .find(|h| h.distance(x) == 7)
            .expect("a hex 7 away");
    let (mut s, _) = broglie_position(&r, Some(far));
    s.dice = dice_rolling(&[4]);
    let ev = act(&r, &mut s, "activate:broglie");
    let (die, mods, total) = activation_roll(&ev);
    assert_eq!((die, total), (4, 5));
    assert_eq!(mods.iter().map(|m| m.1).collect::<Vec<_>>(), vec![1]);
    assert!(!top_activation(&s).expect("activation").success, "5 > 4");
    // 6.2: the counter is flipped all the same.
    assert!(s.commanders[usize::from(cmdr(&r, "broglie"))].flipped);
}

#[test]
fn r5_1_army_commander_stacked_minus_1_and_two_actions() {
    let r = rules();
    let x = clear_area(&r, 2);
    let (mut s, _) = broglie_position(&r, Some(x));
    s.dice = dice_rolling(&[5]);
    let ev = act(&r, &mut s, "activate:broglie");
    let (die, mods, total) = activation_roll(&ev);
    assert_eq!((die, total), (5, 4));
    assert_eq!(mods.iter().map(|m| m.1).collect::<Vec<_>>(), vec![-1]);
    let a = top_activation(&s).expect("activation");
    assert!(a.success);
    assert_eq!(a.actions_left, 2, "4.B1: two different actions");
}

#[test]
fn r4_b1_one_action_or_two_different_ones_with_the_army_commander() {
    let r = rules();
    let x = clear_area(&r, 2);
    let far_stack = go(x, &[Dir::W, Dir::W]);
    for (army, second_allowed) in [(None, false), (Some(x), true)] {
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place(&r, &mut s, "palatinat-1", far_stack, Vertex::NE);
        place(&r, &mut s, "palatinat-2", far_stack, Vertex::NE);
        place_cmdr(&r, &mut s, "broglie", x);
        if let Some(a) = army {
            place_cmdr(&r, &mut s, "estrees", a);
        }
        s.dice = dice_rolling(&[1]);
        act(&r, &mut s, "activate:broglie");
        act(&r, &mut s, "move-unit:du-roi");
        act(&r, &mut s, "step:NE");
        act(&r, &mut s, "stop");
        let l = ids(&r, &s);
        assert!(
            !l.iter().any(|i| i.starts_with("move-unit:")),
            "never two unit moves: {l:?}"
        );
        assert_eq!(
            l.contains(&format!("move-stack:{far_stack}")),
            second_allowed,
            "second (different) action: {l:?}"
        );
    }
}

#[test]
fn r5_1_independent_unit_with_the_army_commander_activates_automatically() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    place(&r, &mut s, "royal-carabiniers", x, Vertex::N);
    place_cmdr(&r, &mut s, "estrees", x);
    let ev = act(&r, &mut s, "activate-independent:royal-carabiniers");
    assert!(rolls_of(&ev, "5.1").is_empty(), "no die: {ev:?}");
    assert!(top_activation(&s).expect("activation").success);
    assert!(r.has(&s, unit(&r, "royal-carabiniers"), flag::ACTIVATED));
}

#[test]
fn r5_1_independent_unit_out_of_army_radius_plus_1() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    place(&r, &mut s, "royal-carabiniers", x, Vertex::N);
    s.dice = dice_rolling(&[2]);
    let ev = act(&r, &mut s, "activate-independent:royal-carabiniers");
    let (_, mods, total) = activation_roll(&ev);
    assert_eq!(mods.iter().map(|m| m.1).collect::<Vec<_>>(), vec![1]);
    assert_eq!(total, 3);
}

#[test]
fn r5_1_one_try_per_formation() {
    let r = rules();
    let x = clear_area(&r, 2);
    let (mut s, _) = broglie_position(&r, Some(go(x, &[Dir::E])));
    s.dice = dice_rolling(&[6]);
    act(&r, &mut s, "activate:broglie");
    act(&r, &mut s, "end-activation");
    let l = ids(&r, &s);
    assert!(!l.contains(&"activate:broglie".to_string()), "{l:?}");
    assert!(l.contains(&"activate:contades".to_string()), "{l:?}");
}

#[test]
fn r5_3_failed_activation_half_movement() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "palatinat-1", go(x, &[Dir::W]), Vertex::N);
    place(&r, &mut s, "du-roy", go(x, &[Dir::E, Dir::E]), Vertex::N);
    place_cmdr(&r, &mut s, "broglie", x);
    s.dice = dice_rolling(&[6]);
    act(&r, &mut s, "activate:broglie");
    let a = top_activation(&s).expect("activation");
    assert!(!a.success);
    assert_eq!(a.cmdr_mp, 3, "formation commander at half of 6 MP");
    let l = ids(&r, &s);
    assert!(
        !l.iter().any(|i| i.starts_with("move-line:")),
        "no line movement: {l:?}"
    );
    act(&r, &mut s, "move-unit:du-roy");
    let m = top_moving(&s).expect("moving");
    assert_eq!(m.kind, GroupKind::Half);
    assert_eq!(m.mp, vec![3], "cavalry 6 MP halved");
    act(&r, &mut s, "stop");

    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place_cmdr(&r, &mut s, "broglie", x);
    s.dice = dice_rolling(&[6]);
    act(&r, &mut s, "activate:broglie");
    act(&r, &mut s, "move-unit:du-roi");
    assert_eq!(
        top_moving(&s).expect("moving").mp,
        vec![2],
        "infantry 4 MP halved"
    );
}

#[test]
fn r16_1_first_turn_automatic_activation_once() {
    let r = rules();
    let x = clear_area(&r, 2);
    let (mut s, _) = broglie_position(&r, None);
    assert_eq!((s.turn, s.active), (1, Side::French));
    let l = ids(&r, &s);
    assert!(l.contains(&"activate-auto:broglie".to_string()), "{l:?}");
    let ev = act(&r, &mut s, "activate-auto:broglie");
    assert!(rolls_of(&ev, "5.1").is_empty());
    assert!(top_activation(&s).expect("activation").success);
    act(&r, &mut s, "end-activation");
    let l = ids(&r, &s);
    assert!(!l.iter().any(|i| i.starts_with("activate-auto:")), "{l:?}");

    // Not on turn 2, and never for the Allies.
    let (mut s, _) = broglie_position(&r, None);
    s.turn = 2;
    assert!(!ids(&r, &s).iter().any(|i| i.starts_with("activate-auto:")));
    let mut s = empty_board(&r);
    place(&r, &mut s, "von-gilsa", x, Vertex::S);
    s.active = Side::Allies;
    assert!(!ids(&r, &s).iter().any(|i| i.starts_with("activate-auto:")));
}

#[test]
fn r4_b1_routed_units_of_the_formation_must_rout_first() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    let p = place(&r, &mut s, "poitou", go(x, &[Dir::W, Dir::W]), Vertex::N);
    s.units[usize::from(p)].set(flag::ROUTED, true);
    place_cmdr(&r, &mut s, "broglie", x);
    activate_auto(&r, &mut s, "broglie");
    let start = go(x, &[Dir::W, Dir::W]);
    assert!(
        matches!(s.frames.last(), Some(Frame::Rout(rt)) if rt.unit == p)
            || s.units[usize::from(p)].hex != Some(start),
        "the routed unit moves before anything else"
    );
    while let Some(Frame::Rout(_)) = s.frames.last() {
        let first = ids(&r, &s)[0].clone();
        act(&r, &mut s, &first);
    }
    let h = s.units[usize::from(p)].hex.expect("on the map");
    assert_eq!(h.row, start.row + 3, "three hexes toward the south edge");
    // 12.3: no other movement for a routed unit.
    let l = ids(&r, &s);
    assert!(!l.iter().any(|i| i.contains("poitou")), "{l:?}");
}
