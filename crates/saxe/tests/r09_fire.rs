//! Rule 9: artillery fire — the Artillery Table, arc and range (9.1), reaction fire (9.3), line of
//! sight (9.4), flank fire (9.4.1), destruction of guns (9.5).
mod common;

use common::*;
use hexmap::{Dir, HexId, Vertex};
use saxe::Saxe;
use saxe::event::Event;
use saxe::state::{Frame, State, flag};

#[test]
fn r9_2_artillery_table_every_printed_row() {
    let r = rules();
    let t = &r.sc.tables;
    for (row, want) in [
        (0, "-"),
        (1, "-"),
        (2, "-"),
        (3, "TM"),
        (4, "TM"),
        (5, "TM+1"),
        (6, "TM+2"),
        (7, "D"),
        (8, "1D-R1"),
        (9, "1D-R2"),
    ] {
        let (got_row, o) = t.artillery(row);
        assert_eq!(got_row as i32, row);
        assert_eq!(o.to_string(), want, "row {row}");
    }
    // "0 and -" and "9 and +".
    assert_eq!(t.artillery(-4).1.to_string(), "-");
    assert_eq!(t.artillery(13).1.to_string(), "1D-R2");
    let o = t.artillery(8).1;
    assert_eq!((o.steps, o.disorganise, o.retreat), (1, true, 1));
}

/// A French 12 lb gun at `x` facing `f`, nothing else on the board.
fn gun_at(r: &Saxe, x: HexId, f: Vertex) -> (State, saxe::scenario::UnitIx) {
    let mut s = empty_board(r);
    let g = place(r, &mut s, "broglie-art-1314", x, f);
    (s, g)
}

#[test]
fn r9_1_fire_arc_through_the_front_hexes_and_range_3() {
    let r = rules();
    let x = clear_area(&r, 3);
    let mut in_arc = 0;
    for y in
        r.sc.map
            .hexes()
            .filter(|y| (1..=3).contains(&y.distance(x)))
    {
        let (mut s, g) = gun_at(&r, x, Vertex::S);
        place(&r, &mut s, "von-gilsa", y, Vertex::N);
        let wedge = Vertex::S.in_fire_arc(x, y);
        in_arc += usize::from(wedge);
        let want: Vec<HexId> = if wedge { vec![y] } else { Vec::new() };
        assert_eq!(r.fire_targets(&s, g), want, "target {y}");
    }
    assert_eq!(in_arc, 2 + 3 + 4, "the 60° wedge");
    // The wedge is made of the front hexes and what lies between their directions.
    assert!(Vertex::S.in_fire_arc(x, go(x, &[Dir::SE, Dir::SW])));
    assert!(!Vertex::S.in_fire_arc(x, go(x, &[Dir::E])));
    assert!(!Vertex::S.in_fire_arc(x, go(x, &[Dir::SE, Dir::E])));
    // Beyond 3 hexes: out of range.
    let far = go(x, &[Dir::SE, Dir::SE, Dir::SW, Dir::SW]);
    assert!(r.sc.map.contains(far));
    let (mut s, g) = gun_at(&r, x, Vertex::S);
    place(&r, &mut s, "von-gilsa", far, Vertex::N);
    assert!(r.fire_targets(&s, g).is_empty(), "4 hexes");
}

#[test]
fn r9_4_a_unit_between_blocks_the_line_of_sight() {
    let r = rules();
    let x = clear_area(&r, 3);
    let y = go(x, &[Dir::SE, Dir::SE]);
    let (mut s, g) = gun_at(&r, x, Vertex::S);
    place(&r, &mut s, "von-gilsa", y, Vertex::N);
    assert_eq!(r.fire_targets(&s, g), vec![y]);
    // A friendly unit between.
    place(&r, &mut s, "poitou", go(x, &[Dir::SE]), Vertex::S);
    assert!(r.fire_targets(&s, g).is_empty());
    assert!(!r.line_of_sight(&s, x, y));
}

#[test]
fn r9_4_along_a_hexside_blocked_only_if_both_hexes_block() {
    let r = rules();
    let x = clear_area(&r, 3);
    // Straight south two hexes: the line runs along the hexside between x+SE and x+SW.
    let y = go(x, &[Dir::SE, Dir::SW]);
    let (mut s, g) = gun_at(&r, x, Vertex::S);
    place(&r, &mut s, "von-gilsa", y, Vertex::N);
    place(&r, &mut s, "poitou", go(x, &[Dir::SE]), Vertex::S);
    assert_eq!(r.fire_targets(&s, g), vec![y], "one side blocked only");
    place(&r, &mut s, "du-roi", go(x, &[Dir::SW]), Vertex::S);
    assert!(r.fire_targets(&s, g).is_empty(), "both sides blocked");
}

#[test]
fn r9_4_figure_town_blocks_fuerstenberg_1_not_fuerstenberg_2() {
    // The 9.4 figure, rebuilt from its caption: a town hex lies between the gun and Fürstenberg 1;
    // Fürstenberg 2 is in the other front direction with open ground between.
    let base = rules();
    let x = clear_area(&base, 3);
    let town = go(x, &[Dir::SE]);
    let r = rules_with_map(&terrain_toml(&[town], "town"));
    let f1_hex = go(x, &[Dir::SE, Dir::SE]);
    let f2_hex = go(x, &[Dir::SW, Dir::SW]);
    let (mut s, g) = gun_at(&r, x, Vertex::S);
    place(&r, &mut s, "von-fuerstenberg-1", f1_hex, Vertex::N);
    place(&r, &mut s, "von-fuerstenberg-2", f2_hex, Vertex::N);
    assert_eq!(r.fire_targets(&s, g), vec![f2_hex]);
    // A unit in the town itself can be fired at (adjacent, and LoS may enter a blocking hex).
    place(&r, &mut s, "von-gilsa", town, Vertex::N);
    assert!(r.fire_targets(&s, g).contains(&town));
}

#[test]
fn r9_4_woods_block_but_may_be_fired_into() {
    let base = rules();
    let x = clear_area(&base, 3);
    let r = rules_with_map(&terrain_toml(&[go(x, &[Dir::SE])], "woods"));
    let (mut s, g) = gun_at(&r, x, Vertex::S);
    place(
        &r,
        &mut s,
        "von-gilsa",
        go(x, &[Dir::SE, Dir::SE]),
        Vertex::N,
    );
    assert!(r.fire_targets(&s, g).is_empty(), "through woods");
    let r = rules_with_map(&terrain_toml(&[go(x, &[Dir::SE, Dir::SE])], "woods"));
    let (mut s, g) = gun_at(&r, x, Vertex::S);
    let y = go(x, &[Dir::SE, Dir::SE]);
    place(&r, &mut s, "von-gilsa", y, Vertex::N);
    assert_eq!(r.fire_targets(&s, g), vec![y], "into woods");
}

#[test]
fn r9_4_levels() {
    let base = rules();
    let x = clear_area(&base, 3);
    let mid = go(x, &[Dir::SE]);
    let y = go(x, &[Dir::SE, Dir::SE]);
    let los = |extra: String| {
        let r = rules_with_map(&extra);
        let s = empty_board(&r);
        r.line_of_sight(&s, x, y)
    };
    let town = terrain_toml(&[mid], "town");
    // C: same level, a town lower than both does not block; at the same level it does.
    assert!(los(format!("{town}{}", level_toml(&[x, y], 1))));
    assert!(!los(town.clone()));
    // A: one level apart, any blocking element blocks.
    assert!(!los(format!("{town}{}", level_toml(&[x], 1))));
    // B: more than one level apart, blocking elements do not block.
    assert!(los(format!("{town}{}", level_toml(&[x], 2))));
    // Crossing a level higher than both ends blocks, even clear.
    assert!(!los(level_toml(&[mid], 1)));
    assert!(los(String::new()));
}

fn fire_mods(r: &Saxe, s: &mut State, g: saxe::scenario::UnitIx, y: HexId) -> Vec<(String, i32)> {
    let mut ev = Vec::new();
    let v = r.combat_units_at(s, y);
    r.resolve_fire(s, g, y, v, false, &mut ev);
    let rolls: Vec<&Event> = rolls_of(&ev, "Artillery Table");
    assert_eq!(rolls.len(), 1, "{ev:?}");
    mods_of(rolls[0])
}

#[test]
fn r9_4_1_figure_flank_fire_plus_2() {
    // The 9.4.1 figure, rebuilt from its caption: Gilsa presents its flank to the gun,
    // Fürstenberg 2 its front.
    let r = rules();
    let x = clear_area(&r, 3);
    let y = go(x, &[Dir::SE, Dir::SE]);
    let (mut s, g) = gun_at(&r, x, Vertex::S);
    place(&r, &mut s, "von-gilsa", y, Vertex::SE);
    let m = fire_mods(&r, &mut s, g, y);
    assert_eq!(modifier(&m, "flank fire"), Some(2), "{m:?}");
    let (mut s, g) = gun_at(&r, x, Vertex::S);
    place(&r, &mut s, "von-fuerstenberg-2", y, Vertex::NW);
    let m = fire_mods(&r, &mut s, g, y);
    assert_eq!(modifier(&m, "flank fire"), None, "{m:?}");
    // A light unit has no flank.
    let (mut s, g) = gun_at(&r, x, Vertex::S);
    place(&r, &mut s, "jager", y, Vertex::SE);
    let m = fire_mods(&r, &mut s, g, y);
    assert_eq!(modifier(&m, "flank fire"), None, "{m:?}");
    assert_eq!(modifier(&m, "light target"), Some(-1), "{m:?}");
}

#[test]
fn r9_2_artillery_modifiers() {
    let r = rules();
    let x = clear_area(&r, 3);
    // Range: -1 per hex after the first; 12 lb +1.
    let y3 = go(x, &[Dir::SE, Dir::SE, Dir::SE]);
    let (mut s, g) = gun_at(&r, x, Vertex::S);
    place(&r, &mut s, "von-gilsa", y3, Vertex::NW);
    let m = fire_mods(&r, &mut s, g, y3);
    let mut v: Vec<i32> = m.iter().map(|x| x.1).collect();
    v.sort();
    assert_eq!(v, vec![-2, 1], "range 3 and 12 lb: {m:?}");
    // Adjacent +1.
    let y1 = go(x, &[Dir::SE]);
    let (mut s, g) = gun_at(&r, x, Vertex::S);
    place(&r, &mut s, "von-gilsa", y1, Vertex::NW);
    let m = fire_mods(&r, &mut s, g, y1);
    assert_eq!(modifier(&m, "adjacent"), Some(1), "{m:?}");
    assert_eq!(m.iter().map(|x| x.1).sum::<i32>(), 2, "{m:?}");
    // A 6 lb redoubt has no calibre bonus.
    let mut s = empty_board(&r);
    let red = place(&r, &mut s, "wutginau-redoubt-0911", x, Vertex::S);
    place(&r, &mut s, "du-roi", y1, Vertex::NW);
    let m = fire_mods(&r, &mut s, red, y1);
    assert_eq!(modifier(&m, "12 lb"), None, "{m:?}");
    // Shooter disorganised -1.
    let (mut s, g) = gun_at(&r, x, Vertex::S);
    let p = place(&r, &mut s, "poitou", x, Vertex::S);
    s.units[usize::from(p)].set(flag::DISORG, true);
    place(&r, &mut s, "von-gilsa", y1, Vertex::NW);
    let m = fire_mods(&r, &mut s, g, y1);
    assert_eq!(modifier(&m, "shooter disorganised"), Some(-1), "{m:?}");
    // Target in a town -1.
    let rt = rules_with_map(&terrain_toml(&[y1], "town"));
    let (mut s, g) = gun_at(&rt, x, Vertex::S);
    place(&rt, &mut s, "von-gilsa", y1, Vertex::NW);
    let m = fire_mods(&rt, &mut s, g, y1);
    assert_eq!(modifier(&m, "town"), Some(-1), "{m:?}");
}

#[test]
fn r9_1_a_gun_that_moved_the_previous_turn_may_not_fire() {
    let r = rules();
    let x = clear_area(&r, 3);
    for moved in [false, true] {
        let (mut s, g) = gun_at(&r, x, Vertex::S);
        if moved {
            s.units[usize::from(g)].set(flag::MOVED_PREV, true);
        }
        place(
            &r,
            &mut s,
            "von-gilsa",
            go(x, &[Dir::SE, Dir::SE]),
            Vertex::N,
        );
        place_cmdr(&r, &mut s, "broglie", go(x, &[Dir::W]));
        activate_auto(&r, &mut s, "broglie");
        let fires = ids(&r, &s).iter().any(|i| i.starts_with("art-fire:"));
        assert_eq!(fires, !moved);
    }
}

#[test]
fn r9_3_reaction_fire_once_per_turn() {
    let r = rules();
    let c = clear_area(&r, 3);
    let red_hex = go(c, &[Dir::NW, Dir::NW]);
    let start = go(red_hex, &[Dir::SE, Dir::SE, Dir::SE, Dir::SE]);
    let mut s = empty_board(&r);
    let red = place(&r, &mut s, "zastrow-redoubt-0515", red_hex, Vertex::S);
    let du_roi = place(&r, &mut s, "du-roi", start, Vertex::N);
    place_cmdr(&r, &mut s, "broglie", start);
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:du-roi");
    act(&r, &mut s, "step:NW");
    let entered = go(red_hex, &[Dir::SE, Dir::SE, Dir::SE]);
    assert_eq!(s.units[usize::from(du_roi)].hex, Some(entered));
    assert!(matches!(s.frames.last(), Some(Frame::Reaction(_))));
    let fire = format!("reaction-fire:zastrow-redoubt-0515:{entered}");
    let l = ids(&r, &s);
    assert!(l.contains(&fire), "{l:?}");
    assert!(
        !l.contains(&format!("reaction-fire:zastrow-redoubt-0515:{start}")),
        "the hex left is out of range: {l:?}"
    );
    // Die 1 - 2 (range 3) = -1: no effect, Du Roi goes on.
    s.dice = dice_rolling(&[1]);
    let ev = act(&r, &mut s, &fire);
    assert_eq!(rolls_of(&ev, "Artillery Table (9.3").len(), 1, "{ev:?}");
    assert!(r.has(&s, red, flag::REACT_FIRED));
    assert!(top_moving(&s).is_some(), "the activated unit may continue");
    act(&r, &mut s, "step:NW");
    assert!(
        !matches!(s.frames.last(), Some(Frame::Reaction(_))),
        "one reaction fire per turn: {:?}",
        ids(&r, &s)
    );
}

#[test]
fn r9_5_a_lone_gun_entered_by_an_enemy_is_destroyed() {
    let r = rules();
    let x = clear_area(&r, 2);
    let y = go(x, &[Dir::NW]);
    let mut s = empty_board(&r);
    let red = place(&r, &mut s, "wutginau-redoubt-0911", y, Vertex::N);
    place(&r, &mut s, "du-roi", x, Vertex::N);
    place_cmdr(&r, &mut s, "broglie", x);
    activate_auto(&r, &mut s, "broglie");
    act(&r, &mut s, "move-unit:du-roi");
    let ev = act(&r, &mut s, "step:NW");
    assert_eq!(s.units[usize::from(red)].hex, None);
    assert!(logged(&ev, "11.5"), "{ev:?}");
}

#[test]
fn r9_5_guns_never_retreat_nor_become_disorganised() {
    let r = rules();
    let x = clear_area(&r, 3);
    let y = go(x, &[Dir::SE]);
    let (mut s, g) = gun_at(&r, x, Vertex::S);
    let target_gun = place(&r, &mut s, "wutginau-redoubt-0911", y, Vertex::N);
    let gilsa = place(&r, &mut s, "von-gilsa", y, Vertex::N);
    // Die 6 + 1 (adjacent) + 1 (12 lb) = 8: 1D-R1.
    s.dice = dice_rolling(&[6]);
    let mut ev = Vec::new();
    let v = r.combat_units_at(&s, y);
    r.resolve_fire(&mut s, g, y, v, false, &mut ev);
    assert!(r.has(&s, gilsa, flag::DISORG) || r.has(&s, gilsa, flag::ROUTED));
    assert!(!r.has(&s, target_gun, flag::DISORG));
    let retreat = s
        .frames
        .iter()
        .find_map(|f| match f {
            Frame::Retreat(rt) => Some(rt.units.clone()),
            _ => None,
        })
        .expect("a retreat");
    assert_eq!(retreat, vec![gilsa], "the redoubt does not retreat");
}

#[test]
fn r9_1_a_redoubt_fires_through_its_two_forward_hexes_only() {
    let r = rules();
    let x = clear_area(&r, 2);
    let mut s = empty_board(&r);
    let red = place(&r, &mut s, "wutginau-redoubt-0911", x, Vertex::S);
    // Its flank hexes count as front for ZoC (2.1) but not for fire (9.1 note).
    let e = go(x, &[Dir::E]);
    place(&r, &mut s, "du-roi", e, Vertex::N);
    assert!(r.zoc_reaches(&s, red, e));
    assert!(r.fire_targets(&s, red).is_empty());
    let se = go(x, &[Dir::SE]);
    place(&r, &mut s, "poitou", se, Vertex::N);
    assert_eq!(r.fire_targets(&s, red), vec![se]);
}
