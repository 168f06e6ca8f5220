//! Rule 8: movement, facing changes, leaving a ZoC, commanders, reaction, lines of battle and the
//! cavalry pivot, artillery.
mod common;

use common::*;
use hexmap::{Dir, Vertex};
use saxe::query::Mover;
use saxe::scenario::{Kind, Side, Terrain};
use saxe::state::{Frame, GroupKind, flag};

#[test]
fn r8_1_movement_only_through_front_hexes_light_troops_anywhere() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place_cmdr(&r, &mut s, "broglie", x);
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:du-roi");
    let mut steps: Vec<String> = ids(&r, &s)
        .into_iter()
        .filter(|i| i.starts_with("step:"))
        .collect();
    steps.sort();
    assert_eq!(steps, vec!["step:NE", "step:NW"]);

    let mut s = empty_board(&r);
    place(&r, &mut s, "hainaut", x, Vertex::N);
    place_cmdr(&r, &mut s, "chevert", x);
    activate_auto(&r, &mut s, "chevert");
    act(&r, &mut s, "move-unit:hainaut");
    let steps = ids(&r, &s)
        .into_iter()
        .filter(|i| i.starts_with("step:"))
        .count();
    assert_eq!(steps, 6, "light infantry moves in any direction");
}

#[test]
fn r8_1_terrain_effect_table_costs() {
    let r = rules();
    let s = empty_board(&r);
    let cost = |k: Kind, a, b| r.move_cost(&s, Mover::Unit(k), a, b);
    let (a, b, _) = pair_into(&r, Terrain::Clear, |h| plain(&r, h));
    for k in [
        Kind::Infantry,
        Kind::HeavyCavalry,
        Kind::LightCavalry,
        Kind::Artillery,
    ] {
        assert_eq!(cost(k, a, b), Some(1), "clear {k:?}");
    }
    let (a, b, _) = pair_into(&r, Terrain::Marsh, |h| plain(&r, h));
    assert_eq!(cost(Kind::Infantry, a, b), Some(2), "marsh infantry");
    assert_eq!(cost(Kind::HeavyCavalry, a, b), Some(3), "marsh cavalry");
    assert_eq!(
        cost(Kind::LightCavalry, a, b),
        Some(3),
        "marsh light cavalry"
    );
    let (a, b, _) = pair_into(&r, Terrain::Woods, |h| {
        r.sc.map.terrain(h) == Terrain::Woods
    });
    assert_eq!(cost(Kind::Infantry, a, b), Some(2), "woods infantry");
    assert_eq!(
        cost(Kind::LightInfantry, a, b),
        Some(2),
        "woods light infantry"
    );
    assert_eq!(
        cost(Kind::HeavyCavalry, a, b),
        None,
        "woods forbidden to cavalry"
    );
    assert_eq!(
        cost(Kind::LightCavalry, a, b),
        None,
        "woods forbidden to cavalry"
    );
    let (a, b, _) = pair_into(&r, Terrain::Town, |h| plain(&r, h));
    assert_eq!(cost(Kind::Infantry, a, b), Some(2), "town infantry");
    assert_eq!(cost(Kind::HeavyCavalry, a, b), Some(2), "town cavalry");
}

#[test]
fn r8_5_commanders_pay_1_in_clear_2_elsewhere() {
    let r = rules();
    let s = empty_board(&r);
    let (a, b, _) = pair_into(&r, Terrain::Clear, |h| plain(&r, h));
    assert_eq!(r.move_cost(&s, Mover::Commander, a, b), Some(1));
    for t in [Terrain::Marsh, Terrain::Town] {
        let (a, b, _) = pair_into(&r, t, |h| plain(&r, h));
        assert_eq!(r.move_cost(&s, Mover::Commander, a, b), Some(2), "{t:?}");
    }
    let (a, b, _) = pair_into(&r, Terrain::Woods, |h| {
        r.sc.map.terrain(h) == Terrain::Woods
    });
    assert_eq!(r.move_cost(&s, Mover::Commander, a, b), Some(2), "woods");
}

#[test]
fn r8_5_commanders_may_not_enter_enemy_front_or_flank_hexes_unless_friendly() {
    let r = rules();
    let x = clear_area(&r, 2);
    let steps = |s: &saxe::state::State| -> Vec<hexmap::HexId> {
        r.commander_steps(s, x, Side::French, 6)
            .into_iter()
            .map(|(h, _)| h)
            .collect()
    };
    // Front: Gilsa two hexes north-west faces south; x+NW is its front hex.
    let mut s = empty_board(&r);
    place(
        &r,
        &mut s,
        "von-gilsa",
        go(x, &[Dir::NW, Dir::NW]),
        Vertex::S,
    );
    assert_eq!(steps(&s).len(), 5);
    assert!(!steps(&s).contains(&go(x, &[Dir::NW])));
    place(&r, &mut s, "du-roi", go(x, &[Dir::NW]), Vertex::N);
    assert!(
        steps(&s).contains(&go(x, &[Dir::NW])),
        "occupied by a friend"
    );
    // Flank: Gilsa two hexes west faces south; x+W is its flank hex.
    let mut s = empty_board(&r);
    place(&r, &mut s, "von-gilsa", go(x, &[Dir::W, Dir::W]), Vertex::S);
    assert!(!steps(&s).contains(&go(x, &[Dir::W])));
    // Rear: no effect.
    let mut s = empty_board(&r);
    place(
        &r,
        &mut s,
        "von-gilsa",
        go(x, &[Dir::SW, Dir::SW]),
        Vertex::S,
    );
    assert_eq!(steps(&s).len(), 6);
}

#[test]
fn r8_3_facing_costs_1_mp_per_vertex_at_most_three() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let u = place(&r, &mut s, "du-roy", x, Vertex::N);
    place_cmdr(&r, &mut s, "broglie", x);
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:du-roy");
    for (n, mp) in [(1, 5), (2, 4), (3, 3)] {
        let ev = act(&r, &mut s, "turn:cw");
        assert!(rolls_of(&ev, "8.3").is_empty(), "no test out of a ZoC");
        assert_eq!(
            top_moving(&s).expect("moving").mp,
            vec![mp],
            "after {n} vertices"
        );
    }
    assert_eq!(s.units[usize::from(u)].facing, Vertex::S);
    let l = ids(&r, &s);
    assert!(
        !l.iter().any(|i| i.starts_with("turn:")),
        "three vertices at most: {l:?}"
    );
}

#[test]
fn r8_3_facing_in_an_enemy_zoc_costs_2_mp_and_one_morale_test() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let u = place(&r, &mut s, "du-roy", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", go(x, &[Dir::E]), Vertex::NW);
    place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::W]));
    assert!(r.in_zoc_of(&s, x, Side::Allies));
    assert!(!r.enemy_in_own_zoc(&s, u));
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:du-roy");
    let ev = act(&r, &mut s, "turn:ccw");
    assert_eq!(rolls_of(&ev, "8.3").len(), 1, "morale test: {ev:?}");
    assert_eq!(top_moving(&s).expect("moving").mp, vec![4]);
    let ev = act(&r, &mut s, "turn:ccw");
    assert!(rolls_of(&ev, "8.3").is_empty(), "one test only");
    assert_eq!(top_moving(&s).expect("moving").mp, vec![2]);
    assert_eq!(
        s.units[usize::from(u)].facing,
        Vertex::SW,
        "turned whatever the test"
    );
}

#[test]
fn r8_3_no_facing_change_with_an_enemy_in_its_own_zoc() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let u = place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", go(x, &[Dir::NW]), Vertex::N);
    place_cmdr(&r, &mut s, "broglie", x);
    assert!(r.enemy_in_own_zoc(&s, u));
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:du-roi");
    let l = ids(&r, &s);
    assert!(
        !l.iter()
            .any(|i| i.starts_with("turn:") || i == "about-face"),
        "{l:?}"
    );
}

#[test]
fn r8_3_about_face_costs_1_mp_reverses_the_stack_not_in_a_zoc() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let p1 = place(&r, &mut s, "palatinat-1", x, Vertex::N);
    let p2 = place(&r, &mut s, "palatinat-2", x, Vertex::N);
    place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::W]));
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, &format!("move-stack:{x}"));
    act(&r, &mut s, "about-face");
    assert_eq!(top_moving(&s).expect("moving").mp, vec![3, 3]);
    assert_eq!(s.units[usize::from(p1)].facing, Vertex::S);
    assert_eq!(s.units[usize::from(p2)].facing, Vertex::S);
    assert_eq!(
        r.combat_units_at(&s, x),
        vec![p2, p1],
        "bottom unit now on top"
    );

    let mut s = empty_board(&r);
    place(&r, &mut s, "palatinat-1", x, Vertex::N);
    place(&r, &mut s, "palatinat-2", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", go(x, &[Dir::E]), Vertex::NW);
    place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::W]));
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, &format!("move-stack:{x}"));
    assert!(!ids(&r, &s).contains(&"about-face".to_string()));
}

#[test]
fn r8_4_leaving_a_zoc_by_a_rear_hex_costs_all_mp() {
    let r = rules();
    let x = clear_area(&r, 2);
    let rear: Vec<_> = Vertex::N.rear().iter().map(|&d| go(x, &[d])).collect();
    for (id, turns) in [("du-roi", vec![0]), ("du-roy", vec![-1, 0, 1])] {
        let mut s = empty_board(&r);
        let u = place(&r, &mut s, id, x, Vertex::N);
        place(&r, &mut s, "von-gilsa", go(x, &[Dir::E]), Vertex::NW);
        place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::W, Dir::W]));
        activate_auto(&r, &mut s, "broglie");
        act(&r, &mut s, &format!("move-unit:{id}"));
        let mut got: Vec<String> = ids(&r, &s)
            .into_iter()
            .filter(|i| i.starts_with("leave-zoc:"))
            .collect();
        got.sort();
        let mut want: Vec<String> = rear
            .iter()
            .flat_map(|h| turns.iter().map(move |t| format!("leave-zoc:{h}:{t}")))
            .collect();
        want.sort();
        assert_eq!(got, want, "{id}: rear hexes only");
        let last = want.last().expect("one").clone();
        act(&r, &mut s, &last);
        let to = hx(last.split(':').nth(1).expect("hex"));
        assert_eq!(s.units[usize::from(u)].hex, Some(to));
        let t: i32 = last.rsplit(':').next().expect("turn").parse().expect("int");
        assert_eq!(s.units[usize::from(u)].facing, Vertex::N.turned(t));
        assert!(top_moving(&s).is_none(), "all its MP are spent");
    }
}

#[test]
fn r8_6_cavalry_may_react_to_an_enemy_coming_within_2_hexes() {
    let r = rules();
    let x = clear_area(&r, 2);
    let hod_hex = go(x, &[Dir::NE, Dir::NE, Dir::NE]);
    for blocked in [false, true] {
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place_cmdr(&r, &mut s, "broglie", x);
        place(&r, &mut s, "von-hodenberg", hod_hex, Vertex::S);
        if blocked {
            // A French unit facing Hodenberg puts it in an enemy ZoC.
            place(&r, &mut s, "grenadiers", go(hod_hex, &[Dir::E]), Vertex::NW);
        }
        activate_auto(&r, &mut s, "broglie");
        act(&r, &mut s, "move-unit:du-roi");
        act(&r, &mut s, "step:NE");
        let l = ids(&r, &s);
        let offered = l.contains(&"cavalry-reaction:von-hodenberg".to_string());
        assert_eq!(offered, !blocked, "{l:?}");
        if offered {
            assert!(matches!(s.frames.last(), Some(Frame::Reaction(_))));
            assert!(l.contains(&"pass".to_string()));
        }
    }
}

#[test]
fn r8_7_line_of_battle_moves_hex_by_hex_and_a_dropped_unit_stops() {
    // The 8.7 figure, rebuilt from its caption: a line of three infantry advances one hex (1),
    // pivots one vertex to the left (2), advances one hex leaving Poitou in place (3), and advances
    // again (4). Steps (5) and (6) of the caption (total 6 MP) are beyond these counters' 4 MP.
    let r = rules();
    let mut s = empty_board(&r);
    let c = clear_area(&r, 3);
    let x = go(c, &[Dir::E]);
    let du_roi = place(&r, &mut s, "du-roi", x, Vertex::N);
    let p1 = place(&r, &mut s, "palatinat-1", c, Vertex::N);
    let poitou = place(&r, &mut s, "poitou", go(c, &[Dir::W]), Vertex::N);
    place_cmdr(&r, &mut s, "broglie", c);
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-line:du-roi");
    let m = top_moving(&s).expect("moving");
    assert_eq!(m.kind, GroupKind::Line);
    assert_eq!(m.units.len(), 3);
    // (1)
    act(&r, &mut s, "step:NE");
    assert_eq!(s.units[usize::from(du_roi)].hex, Some(go(x, &[Dir::NE])));
    assert_eq!(s.units[usize::from(p1)].hex, Some(go(c, &[Dir::NE])));
    assert_eq!(
        s.units[usize::from(poitou)].hex,
        Some(go(c, &[Dir::W, Dir::NE]))
    );
    // (2)
    act(&r, &mut s, "turn:ccw");
    for u in [du_roi, p1, poitou] {
        assert_eq!(s.units[usize::from(u)].facing, Vertex::NW);
    }
    assert_eq!(top_moving(&s).expect("moving").mp, vec![2, 2, 2]);
    // (3)
    act(&r, &mut s, "drop:poitou");
    assert!(r.has(&s, poitou, flag::DONE));
    let l = ids(&r, &s);
    assert!(
        !l.contains(&"step:W".to_string()),
        "Palatinat may not stack with the stopped Poitou: {l:?}"
    );
    act(&r, &mut s, "step:NW");
    // (4)
    act(&r, &mut s, "step:NW");
    assert_eq!(
        s.units[usize::from(du_roi)].hex,
        Some(go(x, &[Dir::NE, Dir::NW, Dir::NW]))
    );
    assert_eq!(
        s.units[usize::from(p1)].hex,
        Some(go(c, &[Dir::NE, Dir::NW, Dir::NW]))
    );
    assert_eq!(
        s.units[usize::from(poitou)].hex,
        Some(go(c, &[Dir::W, Dir::NE])),
        "Poitou stayed where it was dropped"
    );
    assert_eq!(top_moving(&s).expect("moving").mp, vec![0, 0]);
    let l = ids(&r, &s);
    assert!(
        !l.iter()
            .any(|i| i.starts_with("step:") || i.starts_with("turn:"))
    );
    act(&r, &mut s, "stop");
}

#[test]
fn r8_7_1_cavalry_line_pivots_on_du_roy() {
    // The 8.7.1 figure, rebuilt from its caption: Du Roy pivots one vertex in place and
    // Royal-Pologne, beside it, swings round to realign with it; then the line may advance.
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let du_roy = place(&r, &mut s, "du-roy", x, Vertex::N);
    let rp = place(&r, &mut s, "royal-pologne", go(x, &[Dir::W]), Vertex::N);
    place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::SE]));
    activate_auto(&r, &mut s, "broglie");
    let line = ids(&r, &s)
        .into_iter()
        .find(|i| i.starts_with("move-line:"))
        .expect("a line");
    act(&r, &mut s, &line);
    let l = ids(&r, &s);
    for p in [
        "pivot:du-roy:cw",
        "pivot:du-roy:ccw",
        "pivot:royal-pologne:cw",
        "pivot:royal-pologne:ccw",
    ] {
        assert!(l.contains(&p.to_string()), "{p}: {l:?}");
    }
    act(&r, &mut s, "pivot:du-roy:cw");
    assert_eq!(
        s.units[usize::from(du_roy)].hex,
        Some(x),
        "the pivot stays in place"
    );
    assert_eq!(s.units[usize::from(du_roy)].facing, Vertex::NE);
    assert_eq!(s.units[usize::from(rp)].hex, Some(go(x, &[Dir::NW])));
    assert_eq!(s.units[usize::from(rp)].facing, Vertex::NE);
    // Still a line of battle: Royal-Pologne on Du Roy's flank.
    assert!(Vertex::NE.flank().contains(&Dir::NW));
    // The remaining MP of the unit that moved farthest: 6 - 2.
    assert_eq!(top_moving(&s).expect("moving").mp, vec![4, 4]);
    let l = ids(&r, &s);
    assert!(l.contains(&"step:NE".to_string()), "{l:?}");
    assert!(l.contains(&"step:E".to_string()), "{l:?}");
}

#[test]
fn r8_7_1_pivot_only_in_clear_terrain() {
    let r = rules();
    let x = site(
        &r,
        &[&[], &[Dir::W], &[Dir::SW], &[Dir::SE], &[Dir::NE]],
        |h| plain(&r, h),
        |x| {
            go_checked(x, &[Dir::NW])
                .is_some_and(|h| r.sc.map.contains(h) && r.sc.map.terrain(h) != Terrain::Clear)
                && r.sc.map.side(x, go(x, &[Dir::W])) == 0
        },
    );
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roy", x, Vertex::N);
    place(&r, &mut s, "royal-pologne", go(x, &[Dir::W]), Vertex::N);
    place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::SE]));
    activate_auto(&r, &mut s, "broglie");
    let line = ids(&r, &s)
        .into_iter()
        .find(|i| i.starts_with("move-line:"))
        .expect("a line");
    act(&r, &mut s, &line);
    let l = ids(&r, &s);
    assert!(
        !l.contains(&"pivot:du-roy:cw".to_string()),
        "Royal-Pologne would swing into {:?}: {l:?}",
        r.sc.map.terrain(go(x, &[Dir::NW]))
    );
    assert!(l.contains(&"pivot:du-roy:ccw".to_string()), "{l:?}");
}

#[test]
fn r8_7_1_only_cavalry_lines_of_two_hexes_pivot() {
    let r = rules();
    let x = go(clear_area(&r, 3), &[Dir::E]);
    let cases: [&[&str]; 2] = [
        &["du-roy", "royal-pologne", "royal-cravatte"],
        &["du-roi", "palatinat-1"],
    ];
    for ids_in_line in cases {
        let mut s = empty_board(&r);
        for (i, id) in ids_in_line.iter().enumerate() {
            place(&r, &mut s, id, ahead(x, Dir::W, i), Vertex::N);
        }
        place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::SE]));
        activate_auto(&r, &mut s, "broglie");
        let line = ids(&r, &s)
            .into_iter()
            .find(|i| i.starts_with("move-line:"))
            .expect("a line");
        act(&r, &mut s, &line);
        let l = ids(&r, &s);
        assert!(
            !l.iter().any(|i| i.starts_with("pivot:")),
            "{ids_in_line:?}: {l:?}"
        );
    }
}

#[test]
fn r8_8_artillery_turns_one_vertex_then_fires_and_then_may_not_move() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let gun = place(&r, &mut s, "broglie-art-1314", x, Vertex::N);
    let y = go(x, &[Dir::NE, Dir::NE]);
    place(&r, &mut s, "von-gilsa", y, Vertex::S);
    place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::W]));
    activate_auto(&r, &mut s, "broglie");
    let l = ids(&r, &s);
    assert!(
        l.contains(&"art-face:broglie-art-1314:cw".to_string()),
        "{l:?}"
    );
    assert!(
        l.contains(&"move-unit:broglie-art-1314".to_string()),
        "{l:?}"
    );
    act(&r, &mut s, "art-face:broglie-art-1314:cw");
    assert_eq!(s.units[usize::from(gun)].facing, Vertex::NE);
    let l = ids(&r, &s);
    assert!(
        !l.iter().any(|i| i.starts_with("art-face:")),
        "one vertex only: {l:?}"
    );
    let fire = format!("art-fire:broglie-art-1314:{y}");
    assert!(l.contains(&fire), "{l:?}");
    // Die 1: 1 - 1 (range 2) + 1 (12 lb) = 1, no effect.
    s.dice = dice_rolling(&[1]);
    act(&r, &mut s, &fire);
    assert!(r.has(&s, gun, flag::FIRED));
    let l = ids(&r, &s);
    assert!(
        !l.contains(&"move-unit:broglie-art-1314".to_string()),
        "{l:?}"
    );
}

#[test]
fn r8_6_reaction_test_less_than_the_activation_value() {
    // Imhoff's cavalry: Allied value 3; -1 when its formation commander is not with it.
    let r = rules();
    let x = clear_area(&r, 2);
    let hod_hex = go(x, &[Dir::NE, Dir::NE, Dir::NE]);
    for (with_imhoff, die, reacts) in [(true, 2, true), (false, 2, false), (false, 1, true)] {
        let mut s = empty_board(&r);
        place(&r, &mut s, "du-roi", x, Vertex::N);
        place_cmdr(&r, &mut s, "broglie", x);
        place(&r, &mut s, "von-hodenberg", hod_hex, Vertex::S);
        if with_imhoff {
            place_cmdr(&r, &mut s, "imhoff", hod_hex);
        }
        activate_auto(&r, &mut s, "broglie");
        act(&r, &mut s, "move-unit:du-roi");
        act(&r, &mut s, "step:NE");
        s.dice = dice_rolling(&[die]);
        let ev = act(&r, &mut s, "cavalry-reaction:von-hodenberg");
        assert_eq!(rolls_of(&ev, "8.6").len(), 1);
        let reacting = matches!(
            s.frames.last(),
            Some(Frame::Moving(m)) if m.kind == GroupKind::Reaction
        );
        assert_eq!(reacting, reacts, "Imhoff {with_imhoff}, die {die}");
    }
}
