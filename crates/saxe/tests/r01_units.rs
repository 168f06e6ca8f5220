//! Rules 1 (units: steps, losses, light units, redoubts) and 2 (facing).
mod common;

use common::*;
use hexmap::{Arc, Dir, Vertex};
use saxe::scenario::{Kind, Side, Terrain, steps_for};
use saxe::state::{Frame, flag};

#[test]
fn r1_1_4_steps_from_combat_points() {
    assert_eq!(steps_for(Kind::Infantry, 8), 4);
    assert_eq!(steps_for(Kind::Infantry, 7), 4);
    assert_eq!(steps_for(Kind::HeavyCavalry, 6), 3);
    assert_eq!(steps_for(Kind::Infantry, 5), 3);
    assert_eq!(steps_for(Kind::Infantry, 4), 2);
    assert_eq!(steps_for(Kind::LightInfantry, 3), 2);
    assert_eq!(steps_for(Kind::LightInfantry, 2), 2);
    assert_eq!(steps_for(Kind::Artillery, 0), 1);
    assert_eq!(steps_for(Kind::Redoubt, 0), 1);
    let r = rules();
    for (id, steps) in [
        ("picardie", 4),          // 8 CP
        ("navarre", 3),           // 6 CP
        ("eu", 2),                // 4 CP
        ("hainaut", 2),           // 3 CP
        ("jager", 2),             // 2 CP
        ("royal-carabiniers", 3), // 6 CP
        ("broglie-art-1314", 1),
        ("wutginau-redoubt-0911", 1),
    ] {
        assert_eq!(r.sc.units[usize::from(unit(&r, id))].steps, steps, "{id}");
    }
    // Every counter of the order of battle follows 1.1.4.
    for u in &r.sc.units {
        let want = if u.kind.is_guns() {
            1
        } else if u.cp >= 7 {
            4
        } else if u.cp >= 5 {
            3
        } else {
            2
        };
        assert_eq!(u.steps, want, "{}", u.id);
    }
}

#[test]
fn r1_1_4_four_step_unit_marker_flip_marker_eliminated() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let u = place(&r, &mut s, "picardie", x, Vertex::N);
    let d = &r.sc.units[usize::from(u)];
    assert_eq!((d.cp, d.steps), (8, 4));
    let mut ev = Vec::new();
    assert_eq!(r.cp(&s, u), 8);
    r.lose_step(&mut s, u, "11.1", &mut ev);
    assert_eq!(r.cp(&s, u), 6, "loss marker: 2 CP less");
    r.lose_step(&mut s, u, "11.1", &mut ev);
    assert_eq!(
        r.cp(&s, u),
        u32::from(d.cp_reduced),
        "marker removed, counter flipped"
    );
    r.lose_step(&mut s, u, "11.1", &mut ev);
    assert_eq!(
        r.cp(&s, u),
        u32::from(d.cp_reduced) - 2,
        "marker again under the flipped counter"
    );
    assert_eq!(s.units[usize::from(u)].hex, Some(x));
    r.lose_step(&mut s, u, "11.1", &mut ev);
    assert_eq!(
        s.units[usize::from(u)].hex,
        None,
        "eliminated at the fourth loss"
    );
}

#[test]
fn r1_1_4_three_step_unit_eliminated_at_third_loss() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let u = place(&r, &mut s, "navarre", x, Vertex::N);
    let d = &r.sc.units[usize::from(u)];
    let mut ev = Vec::new();
    assert_eq!(r.cp(&s, u), 6);
    r.lose_step(&mut s, u, "11.1", &mut ev);
    assert_eq!(r.cp(&s, u), 4);
    r.lose_step(&mut s, u, "11.1", &mut ev);
    assert_eq!(r.cp(&s, u), u32::from(d.cp_reduced));
    assert!(s.units[usize::from(u)].hex.is_some());
    r.lose_step(&mut s, u, "11.1", &mut ev);
    assert_eq!(s.units[usize::from(u)].hex, None);
}

#[test]
fn r1_1_4_two_step_unit_flipped_then_eliminated() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let u = place(&r, &mut s, "eu", x, Vertex::N);
    let d = &r.sc.units[usize::from(u)];
    let mut ev = Vec::new();
    assert_eq!(r.cp(&s, u), 4);
    r.lose_step(&mut s, u, "11.1", &mut ev);
    assert_eq!(r.cp(&s, u), u32::from(d.cp_reduced));
    assert!(s.units[usize::from(u)].hex.is_some());
    r.lose_step(&mut s, u, "11.1", &mut ev);
    assert_eq!(s.units[usize::from(u)].hex, None);
}

#[test]
fn r1_1_4_one_step_artillery_eliminated_at_first_loss() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let g = place(&r, &mut s, "broglie-art-1314", x, Vertex::N);
    let mut ev = Vec::new();
    r.lose_step(&mut s, g, "9.2", &mut ev);
    assert_eq!(s.units[usize::from(g)].hex, None);
}

#[test]
fn r1_1_1_redoubts_never_move() {
    // Erratum of 1.1.1: redoubt counters do not move once on the map.
    let r = rules();
    let red = unit(&r, "wutginau-redoubt-0911");
    assert_eq!(r.sc.units[usize::from(red)].mp, 0);
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    place(&r, &mut s, "von-fuerstenberg-1", x, Vertex::S);
    place(&r, &mut s, "wutginau-redoubt-0911", x, Vertex::S);
    place(
        &r,
        &mut s,
        "von-fuerstenberg-2",
        go(x, &[Dir::E]),
        Vertex::S,
    );
    place_cmdr(&r, &mut s, "wutginau", x);
    s.active = Side::Allies;
    s.dice = dice_rolling(&[1]);
    act(&r, &mut s, "activate:wutginau");
    let a = top_activation(&s).expect("activation");
    assert!(a.success);
    let l = ids(&r, &s);
    assert!(
        l.contains(&"move-unit:von-fuerstenberg-1".to_string()),
        "{l:?}"
    );
    assert!(
        !l.iter().any(|i| i.contains("wutginau-redoubt-0911")),
        "a redoubt never moves: {l:?}"
    );
    assert!(
        !l.contains(&format!("move-stack:{x}")),
        "the stack with the redoubt is one infantry unit: no stack move: {l:?}"
    );
}

#[test]
fn r1_3_light_units_have_only_front_hexes() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let li = place(&r, &mut s, "hainaut", x, Vertex::N);
    assert_eq!(r.front_dirs(&s, li).len(), 6);
    for (_, n) in x.neighbours() {
        assert_eq!(r.arc_toward(&s, li, n), Arc::Front);
        assert!(r.zoc_reaches(&s, li, n));
    }
    let y = clear_areas(&r, 1)[5];
    let lc = place(&r, &mut s, "hussards", y, Vertex::S);
    assert_eq!(r.front_dirs(&s, lc).len(), 6);
}

#[test]
fn r1_3_light_infantry_has_a_zoc_in_woods() {
    let r = rules();
    let (c, w, d) = pair_next_to(&r, Terrain::Woods, |a| {
        r.sc.map.terrain(a) == Terrain::Clear
    });
    let mut s = empty_board(&r);
    let jager = place(&r, &mut s, "jager", c, facing_toward(d));
    assert!(
        r.zoc_reaches(&s, jager, w),
        "light infantry ZoC enters woods {w}"
    );
    s.units[usize::from(jager)].hex = None;
    let inf = place(&r, &mut s, "von-gilsa", c, facing_toward(d));
    assert!(r.front_dirs(&s, inf).contains(&d));
    assert!(
        !r.zoc_reaches(&s, inf, w),
        "normal infantry ZoC does not enter woods"
    );
}

#[test]
fn r1_3_light_infantry_evades_one_hex_before_normal_infantry() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place(&r, &mut s, "jager", y, Vertex::S);
    combat_phase(&mut s, Side::French);
    act(&r, &mut s, &format!("attack:{x}>{y}"));
    match s.frames.last() {
        Some(Frame::Evade { hex, hexes, side }) => {
            assert_eq!((*hex, *hexes, *side), (y, 1, Side::Allies));
        }
        other => panic!("expected an evasion choice, got {other:?}"),
    }
    assert_eq!(ids(&r, &s), vec!["evade", "pass"]);
}

#[test]
fn r1_3_light_infantry_does_not_evade_cavalry() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    place(&r, &mut s, "du-roy", x, Vertex::N);
    place(&r, &mut s, "jager", y, Vertex::S);
    combat_phase(&mut s, Side::French);
    s.dice = dice_rolling(&[3, 3, 3, 3]);
    act(&r, &mut s, &format!("attack:{x}>{y}"));
    assert!(
        !s.frames.iter().any(|f| matches!(f, Frame::Evade { .. })),
        "no evasion against cavalry"
    );
}

#[test]
fn r1_3_light_cavalry_evades_two_hexes_before_heavy_cavalry() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::SE]);
    place(&r, &mut s, "hussards", x, Vertex::N);
    place(&r, &mut s, "von-hodenberg", y, Vertex::N);
    // von Hodenberg faces N: the hussars at x are in its NW front hex.
    assert_eq!(go(y, &[Dir::NW]), x);
    combat_phase(&mut s, Side::Allies);
    act(&r, &mut s, &format!("attack:{y}>{x}"));
    match s.frames.last() {
        Some(Frame::Evade { hex, hexes, .. }) => assert_eq!((*hex, *hexes), (x, 2)),
        other => panic!("expected an evasion choice, got {other:?}"),
    }
}

#[test]
fn r2_1_front_flank_rear_hexes_of_a_vertex() {
    assert_eq!(Vertex::N.front(), [Dir::NW, Dir::NE]);
    assert_eq!(Vertex::N.flank(), [Dir::W, Dir::E]);
    assert_eq!(Vertex::N.rear(), [Dir::SW, Dir::SE]);
    assert_eq!(Vertex::S.front(), [Dir::SE, Dir::SW]);
    assert_eq!(Vertex::S.rear(), [Dir::NE, Dir::NW]);
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let u = place(&r, &mut s, "picardie", x, Vertex::N);
    let arcs: Vec<(Dir, Arc)> = x
        .neighbours()
        .map(|(d, n)| (d, r.arc_toward(&s, u, n)))
        .collect();
    assert_eq!(
        arcs,
        vec![
            (Dir::NE, Arc::Front),
            (Dir::E, Arc::Flank),
            (Dir::SE, Arc::Rear),
            (Dir::SW, Arc::Rear),
            (Dir::W, Arc::Flank),
            (Dir::NW, Arc::Front),
        ]
    );
}

#[test]
fn r2_1_redoubt_has_four_front_hexes() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let red = place(&r, &mut s, "wutginau-redoubt-0911", x, Vertex::S);
    let mut f = r.front_dirs(&s, red);
    f.sort();
    assert_eq!(f, vec![Dir::E, Dir::SE, Dir::SW, Dir::W]);
}

#[test]
fn r2_2_routed_units_have_no_facing_and_no_zoc() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 1);
    let u = place(&r, &mut s, "picardie", x, Vertex::N);
    s.units[usize::from(u)].set(flag::ROUTED, true);
    assert!(r.front_dirs(&s, u).is_empty());
    assert!(!r.zoc_reaches(&s, u, go(x, &[Dir::NW])));
}

#[test]
fn r2_3_infantry_in_a_town_has_its_flanks_as_front() {
    let r = rules();
    let mut s = empty_board(&r);
    let t = hx("1010");
    assert_eq!(r.sc.map.terrain(t), Terrain::Town);
    let u = place(&r, &mut s, "von-gilsa", t, Vertex::S);
    let mut f = r.front_dirs(&s, u);
    f.sort();
    assert_eq!(f, vec![Dir::E, Dir::SE, Dir::SW, Dir::W]);
    s.units[usize::from(u)].hex = None;
    let c = place(&r, &mut s, "von-einsiedel", t, Vertex::S);
    assert_eq!(
        r.front_dirs(&s, c).len(),
        2,
        "cavalry in a town: two front hexes"
    );
}
