//! Rule 12: morale tests (12.1), disorganisation (12.2), rout (12.3, 12.4), rally (12.5).
mod common;

use common::*;
use hexmap::{Dir, HexId, Vertex};
use saxe::Saxe;
use saxe::event::Event;
use saxe::scenario::{Side, UnitIx};
use saxe::state::{Frame, Phase, State, flag};

fn test_once(r: &Saxe, s: &mut State, units: &[UnitIx], best: bool) -> (bool, Event) {
    let mut ev = Vec::new();
    let ok = r.morale_test(s, units, 0, best, "", "12.1", &mut ev);
    let e = rolls_of(&ev, "12.1")[0].clone();
    (ok, e)
}

#[test]
fn r12_1_passed_on_morale_value_or_less() {
    let r = rules();
    let x = clear_area(&r, 1);
    for (die, pass) in [(4, true), (5, false)] {
        let mut s = empty_board(&r);
        let u = place(&r, &mut s, "du-roi", x, Vertex::N);
        s.dice = dice_rolling(&[die]);
        let (ok, _) = test_once(&r, &mut s, &[u], false);
        assert_eq!(ok, pass, "MV 4, die {die}");
    }
}

#[test]
fn r12_1_commander_present_minus_1_demoralised_plus_1() {
    let r = rules();
    let x = clear_area(&r, 1);
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roi", x, Vertex::N);
    place_cmdr(&r, &mut s, "broglie", x);
    s.dice = dice_rolling(&[5]);
    let (ok, e) = test_once(&r, &mut s, &[u], false);
    assert_eq!(modifier(&mods_of(&e), "commander present"), Some(-1));
    assert!(ok, "5 - 1 <= 4");
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roi", x, Vertex::N);
    s.formations[usize::from(formation(&r, "broglie"))].demoralised = true;
    s.dice = dice_rolling(&[4]);
    let (ok, e) = test_once(&r, &mut s, &[u], false);
    assert_eq!(modifier(&mods_of(&e), "demoralised"), Some(1));
    assert!(!ok, "4 + 1 > 4");
}

#[test]
fn r12_1_top_unit_in_combat_best_morale_to_recover() {
    let r = rules();
    let x = clear_area(&r, 1);
    let mut s = empty_board(&r);
    let eu = place(&r, &mut s, "eu", x, Vertex::N); // MV 3, on top
    let pic = place(&r, &mut s, "picardie", x, Vertex::N); // MV 4
    s.dice = dice_rolling(&[4, 4]);
    let (ok, e) = test_once(&r, &mut s, &[eu, pic], false);
    assert!(e.to_string().contains("MV 3"), "{e}");
    assert!(!ok);
    let (ok, e) = test_once(&r, &mut s, &[eu, pic], true);
    assert!(e.to_string().contains("MV 4"), "{e}");
    assert!(ok);
}

#[test]
fn r12_2_a_second_disorganisation_by_combat_routs_not_by_terrain() {
    let r = rules();
    let x = clear_area(&r, 1);
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roi", x, Vertex::N);
    let mut ev = Vec::new();
    r.disorganise(&mut s, u, true, "11.1", &mut ev);
    assert!(r.has(&s, u, flag::DISORG));
    r.disorganise(&mut s, u, false, "8.2", &mut ev);
    assert!(!r.has(&s, u, flag::ROUTED), "terrain never routs");
    r.disorganise(&mut s, u, true, "11.1", &mut ev);
    assert!(r.has(&s, u, flag::ROUTED));
    assert!(!r.has(&s, u, flag::DISORG), "the Routed marker replaces it");
    match s.frames.last() {
        Some(Frame::Rout(rt)) => assert_eq!((rt.unit, rt.left), (u, 3)),
        other => panic!("a rout of 3 hexes: {other:?}"),
    }
}

/// Run the rally phase of the French player.
fn rally(r: &Saxe, s: &mut State) -> Vec<Event> {
    s.active = Side::French;
    s.phase = Phase::Rally;
    s.frames.clear();
    let mut ev = Vec::new();
    r.run(s, &mut ev);
    ev
}

#[test]
fn r12_2_disorganisation_removed_in_the_rally_phase_out_of_enemy_zoc() {
    let r = rules();
    let x = clear_area(&r, 2);
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roi", x, Vertex::N);
    s.units[usize::from(u)].set(flag::DISORG, true);
    let ev = rally(&r, &mut s);
    assert!(!r.has(&s, u, flag::DISORG));
    assert!(rolls_of(&ev, "12.2").is_empty(), "automatic");
    // In an enemy ZoC: a test at +1.
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roi", x, Vertex::N);
    s.units[usize::from(u)].set(flag::DISORG, true);
    place(&r, &mut s, "von-gilsa", go(x, &[Dir::E]), Vertex::NW);
    s.dice = dice_rolling(&[4]);
    let ev = rally(&r, &mut s);
    let t = rolls_of(&ev, "12.2");
    assert_eq!(t.len(), 1, "{ev:?}");
    assert_eq!(modifier(&mods_of(t[0]), "in an enemy ZoC"), Some(1));
    assert!(r.has(&s, u, flag::DISORG), "4 + 1 > 4: still disorganised");
}

/// Rout a unit and follow the first option at every step until it stops; returns its path.
fn rout_path(r: &Saxe, s: &mut State, u: UnitIx) -> Vec<HexId> {
    let mut path = vec![s.units[usize::from(u)].hex.expect("on the map")];
    let mut ev = Vec::new();
    r.rout(s, u, "12.3", &mut ev);
    r.run(s, &mut ev);
    while let Some(Frame::Rout(_)) = s.frames.last() {
        let first = ids(r, s)[0].clone();
        act(r, s, &first);
        if let Some(h) = s.units[usize::from(u)].hex {
            path.push(h);
        }
    }
    path
}

#[test]
fn r12_4_rout_three_hexes_toward_the_friendly_edge() {
    let r = rules();
    let x = clear_area(&r, 2);
    // French: the south edge (rows grow southward).
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roi", x, Vertex::N);
    let p = rout_path(&r, &mut s, u);
    let rows: Vec<u8> = p.iter().map(|h| h.row).collect();
    let want: Vec<u8> = (0..4).map(|i| x.row + i).collect();
    assert_eq!(rows, want, "{p:?}");
    // Allies: the north edge.
    let mut s = empty_board(&r);
    let y = hexmap::HexId::new(x.row + 6, x.col);
    let u = place(&r, &mut s, "von-gilsa", y, Vertex::S);
    let p = rout_path(&r, &mut s, u);
    let rows: Vec<u8> = p.iter().map(|h| h.row).collect();
    let want: Vec<u8> = (0..4).map(|i| y.row - i).collect();
    assert_eq!(rows, want, "{p:?}");
}

#[test]
fn r12_4_a_unit_that_cannot_rout_3_hexes_is_eliminated() {
    let r = rules();
    let last = r.sc.map.rows.1;
    // Two rows from the French edge: it would leave the map.
    let mut s = empty_board(&r);
    let h =
        r.sc.map
            .hexes()
            .find(|h| h.row == last - 1 && plain(&r, *h))
            .expect("a hex by the south edge");
    let u = place(&r, &mut s, "du-roi", h, Vertex::N);
    rout_path(&r, &mut s, u);
    assert_eq!(s.units[usize::from(u)].hex, None);
    // Blocked by enemy units on every hex toward the edge.
    let x = clear_area(&r, 2);
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roi", x, Vertex::N);
    let south: Vec<HexId> = x
        .neighbours()
        .filter(|(_, n)| n.row > x.row)
        .map(|(_, n)| n)
        .collect();
    assert_eq!(south.len(), 2);
    place(&r, &mut s, "von-gilsa", south[0], Vertex::N);
    place(&r, &mut s, "von-urff", south[1], Vertex::N);
    let mut ev = Vec::new();
    r.rout(&mut s, u, "12.3", &mut ev);
    r.run(&mut s, &mut ev);
    assert_eq!(s.units[usize::from(u)].hex, None);
    assert!(logged(&ev, "12.4"), "{ev:?}");
}

#[test]
fn r12_4_friendly_units_passed_through_are_disorganised() {
    let r = rules();
    let x = clear_area(&r, 2);
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roi", x, Vertex::N);
    let mut friends = Vec::new();
    for (n, id) in x
        .neighbours()
        .filter(|(_, n)| n.row > x.row)
        .map(|(_, n)| n)
        .zip(["palatinat-1", "palatinat-2"])
    {
        friends.push(place(&r, &mut s, id, n, Vertex::N));
    }
    rout_path(&r, &mut s, u);
    assert!(s.units[usize::from(u)].hex.is_some());
    assert!(
        friends.iter().any(|&f| r.has(&s, f, flag::DISORG)),
        "the unit passed through was disorganised"
    );
}

/// Commanders placed and the rally modifier expected.
type RallyCase<'a> = (&'a [(&'a str, HexId)], Option<i32>);

#[test]
fn r12_5_rally_test_modifiers_not_cumulative() {
    let r = rules();
    let x = clear_area(&r, 2);
    let adj = go(x, &[Dir::W]);
    // (commanders, expected modifier)
    let cases: [RallyCase<'_>; 6] = [
        (&[], None),
        (&[("broglie", adj)], Some(-1)),
        (&[("broglie", x)], Some(-2)),
        (&[("estrees", adj)], Some(-1)),
        (&[("estrees", adj), ("broglie", x)], Some(-2)),
        (&[("contades", x)], None),
    ];
    for (cmdrs, want) in cases {
        let mut s = empty_board(&r);
        let u = place(&r, &mut s, "du-roi", x, Vertex::N);
        s.units[usize::from(u)].set(flag::ROUTED, true);
        for (c, h) in cmdrs {
            place_cmdr(&r, &mut s, c, *h);
        }
        s.dice = dice_rolling(&[6]);
        let ev = rally(&r, &mut s);
        let t = rolls_of(&ev, "12.5");
        assert_eq!(t.len(), 1, "{cmdrs:?}: {ev:?}");
        let m = mods_of(t[0]);
        let sum: i32 = m.iter().map(|x| x.1).sum();
        assert_eq!(
            if m.is_empty() { None } else { Some(sum) },
            want,
            "{cmdrs:?}"
        );
    }
}

#[test]
fn r12_5_rallied_unit_becomes_disorganised_not_in_enemy_zoc() {
    let r = rules();
    let x = clear_area(&r, 2);
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roi", x, Vertex::N);
    s.units[usize::from(u)].set(flag::ROUTED, true);
    s.dice = dice_rolling(&[4]);
    rally(&r, &mut s);
    assert!(!r.has(&s, u, flag::ROUTED));
    assert!(r.has(&s, u, flag::DISORG));
    // In an enemy ZoC: no rally test.
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "du-roi", x, Vertex::N);
    s.units[usize::from(u)].set(flag::ROUTED, true);
    place(&r, &mut s, "von-gilsa", go(x, &[Dir::E]), Vertex::NW);
    s.dice = dice_rolling(&[1]);
    let ev = rally(&r, &mut s);
    assert!(rolls_of(&ev, "12.5").is_empty());
    assert!(r.has(&s, u, flag::ROUTED));
}
