//! Formations and formation changes (8.1, 8.3–8.7, 10.12): the book's worked examples E14–E17,
//! E26–E27 and every rule group of `bar::formation`, through positions on the `forms` fixture.
#[path = "data/forms/fixture.rs"]
mod fixture;

use bar::formation::{Change, changes, lengths, sp_layout, square_below_minimum};
use bar::geom::{Facing, Formation};
use fixture::{Pos, budget, forms, hx, hxs, mp};
use hexmap::{Dir, HexId, Vertex};

fn e() -> Facing {
    Facing::Side(Dir::E)
}

fn n() -> Facing {
    Facing::Point(Vertex::N)
}

/// The changes of a rule to a formation.
fn to<'a>(cs: &'a [Change], rule: &str, f: Formation) -> Vec<&'a Change> {
    cs.iter()
        .filter(|c| c.rule == rule && c.formations.iter().all(|(_, x)| *x == f))
        .collect()
}

/// The one change of a rule to exactly these hexes (and facing, if given).
#[track_caller]
fn one<'a>(cs: &'a [Change], rule: &str, hexes: &[HexId], facing: Option<Facing>) -> &'a Change {
    let v: Vec<&Change> = cs
        .iter()
        .filter(|c| c.rule == rule && *c.hexes == hexes && facing.is_none_or(|f| c.facing == f))
        .collect();
    assert_eq!(v.len(), 1, "{rule} to {hexes:?} {facing:?} in {cs:#?}");
    v[0]
}

fn ch(p: &Pos, ids: &[&str], b: &bar::formation::Budget) -> Vec<Change> {
    changes(&p.sc, &p.st, &p.us(ids), b)
}

/// An enemy line whose front hexes include `h` (an EZOC on it).
fn enemy_front_of(p: &mut Pos, h: HexId) {
    let at = h.neighbour(Dir::NW).unwrap(); // well inside the map
    p.place("z1", &[at], Facing::Point(Vertex::S), Formation::Line);
    assert!(bar::command::ezoc(&p.sc, &p.st, 0, h), "the fixture's EZOC");
}

// ------------------------------------------------------------------ 8.1: layouts and lengths

#[test]
fn r8_1a_example_cavalry_sp_layouts_from_the_right() {
    // E14: 12 cavalry SP occupy up to 3 hexes, 8 up to 2; 9 over 2 hexes are 5 and 4; 14 over 3
    // are 5, 5 and 4 from the right.
    let mut p = forms();
    for id in ["c12", "c8", "c9", "c14"] {
        p.place(id, &[hx("1010")], n(), Formation::Line);
    }
    let (sc, st) = (&p.sc, &p.st);
    assert_eq!(lengths(sc, st, &p.us(&["c12"]), Formation::Line), 1..=3);
    assert_eq!(lengths(sc, st, &p.us(&["c8"]), Formation::Line), 1..=2);
    assert_eq!(
        sp_layout(sc, st, &p.us(&["c9"]), Formation::Line, 2),
        Some(vec![5, 4])
    );
    assert_eq!(
        sp_layout(sc, st, &p.us(&["c14"]), Formation::Line, 3),
        Some(vec![5, 5, 4])
    );
    assert_eq!(sp_layout(sc, st, &p.us(&["c8"]), Formation::Line, 3), None);
    // 8.1d: a cavalry march column has the same minimum, from the head.
    assert_eq!(
        sp_layout(sc, st, &p.us(&["c9"]), Formation::MarchColumn, 2),
        Some(vec![5, 4])
    );
    assert!(lengths(sc, st, &p.us(&["c12"]), Formation::Square).is_empty());
}

#[test]
fn r8_1a_infantry_needs_t5_two_hex_minimum_and_spreads_from_the_right() {
    let mut p = forms();
    for id in ["e1", "e2", "i10", "g1"] {
        p.place(id, &[hx("1010")], n(), Formation::Line);
    }
    let (sc, st) = (&p.sc, &p.st);
    // The test T5: two hexes need 5 SP; an infantry line is never longer than 2 hexes.
    assert_eq!(lengths(sc, st, &p.us(&["e1"]), Formation::Line), 1..=1);
    assert_eq!(
        lengths(sc, st, &p.us(&["e1", "e2"]), Formation::Line),
        1..=2
    );
    assert_eq!(lengths(sc, st, &p.us(&["i10"]), Formation::Line), 1..=2);
    assert_eq!(
        sp_layout(sc, st, &p.us(&["g1", "e1"]), Formation::Line, 2),
        Some(vec![5, 5])
    );
    assert_eq!(
        sp_layout(sc, st, &p.us(&["i10", "e1"]), Formation::MarchColumn, 2),
        Some(vec![7, 7])
    );
    assert_eq!(
        sp_layout(sc, st, &p.us(&["g1", "e2", "r1a"]), Formation::Line, 2),
        Some(vec![6, 5]),
        "the extra SP in the right hex"
    );
    assert_eq!(sp_layout(sc, st, &p.us(&["i10"]), Formation::Line, 3), None);
    // 8.1a: hook as line.
    assert_eq!(lengths(sc, st, &p.us(&["i10"]), Formation::HookLeft), 1..=2);
}

#[test]
fn r8_1f_road_column_4_sp_a_hex_remainder_last_and_guns_1_sp_a_hex() {
    let mut p = forms();
    for id in ["c9", "g1", "m4", "art4"] {
        p.place(id, &[hx("1010")], e(), Formation::MarchColumn);
    }
    p.s("art4").formation = Formation::Limbered;
    let (sc, st) = (&p.sc, &p.st);
    assert_eq!(
        lengths(sc, st, &p.us(&["c9"]), Formation::RoadColumn),
        3..=3
    );
    assert_eq!(
        sp_layout(sc, st, &p.us(&["c9"]), Formation::RoadColumn, 3),
        Some(vec![4, 4, 1])
    );
    assert_eq!(
        sp_layout(sc, st, &p.us(&["g1"]), Formation::RoadColumn, 2),
        Some(vec![4, 2])
    );
    assert_eq!(
        sp_layout(sc, st, &p.us(&["m4"]), Formation::RoadColumn, 1),
        Some(vec![4])
    );
    assert_eq!(
        sp_layout(sc, st, &p.us(&["g1"]), Formation::RoadColumn, 3),
        None
    );
    // 8.1i, 10.4g: an artillery SP counts 4, so 1 SP a hex.
    assert_eq!(
        lengths(sc, st, &p.us(&["art4"]), Formation::RoadColumn),
        4..=4
    );
    assert_eq!(
        sp_layout(sc, st, &p.us(&["art4"]), Formation::RoadColumn, 4),
        Some(vec![1, 1, 1, 1])
    );
}

// ------------------------------------------------------------------ 8.4a–e: column changes

/// E15's road column: head A = 1010 facing E, B = 1011 behind it, C bent off the head's row,
/// D straight behind B.
fn e15(bent: bool) -> Pos {
    let mut p = forms();
    let a = hx("1010");
    let b = a.neighbour(Dir::W).unwrap(); // inside
    let c = if bent {
        b.neighbour(Dir::SW).unwrap() // inside
    } else {
        b.neighbour(Dir::W).unwrap() // inside
    };
    p.place("c9", &[a, b, c], e(), Formation::RoadColumn);
    p
}

#[test]
fn r8_4a_twisted_road_column_costs_two_per_unaligned_hex() {
    // E15: 9-SP cavalry road column A, B, C (4, 4, 1) with C off the head's row: a march column
    // in A–B costs 2 MP, in A alone 3 MP.
    let p = e15(true);
    let cs = ch(&p, &["c9"], &budget(7));
    let a = hx("1010");
    let b = hx("1011");
    assert_eq!(one(&cs, "8.4a", &[a, b], Some(e())).cost, mp(2));
    assert_eq!(one(&cs, "8.4a", &[a], Some(e())).cost, mp(3));
    assert_eq!(
        to(&cs, "8.4a", Formation::MarchColumn).len(),
        2,
        "not longer than 2 hexes"
    );
}

#[test]
fn r8_4a_straight_road_column_costs_one_per_hex_minimum_one() {
    // E15 continued: A, B, D in a row: 1 MP to A–B, 2 MP to A alone.
    let p = e15(false);
    let cs = ch(&p, &["c9"], &budget(7));
    let a = hx("1010");
    let b = hx("1011");
    assert_eq!(one(&cs, "8.4a", &[a, b], None).cost, mp(1));
    assert_eq!(one(&cs, "8.4a", &[a], None).cost, mp(2));
    // A 2-hex road column to a 2-hex march column: no difference, the minimum of 1 MP.
    let mut p = forms();
    p.place("c12", &[a, b], e(), Formation::RoadColumn);
    p.s("c12").lost = 4; // 8 SP: a road column of 2 hexes
    let cs = ch(&p, &["c12"], &budget(7));
    assert_eq!(one(&cs, "8.4a", &[a, b], None).cost, mp(1));
}

#[test]
fn r8_4a_march_column_must_be_straight_behind_the_head() {
    // 12 cavalry SP may hold a 3-hex march column, but not in a road column bent at its third
    // hex: only A–B or A.
    let mut p = e15(true);
    p.place(
        "c12",
        &p.st.units[usize::from(p.u("c9"))].hexes.clone(),
        e(),
        Formation::RoadColumn,
    );
    p.s("c9").hexes.clear();
    let cs = ch(&p, &["c12"], &budget(7));
    let mc = to(&cs, "8.4a", Formation::MarchColumn);
    let lens: Vec<usize> = mc.iter().map(|c| c.hexes.len()).collect();
    assert_eq!(lens, vec![1, 2], "{mc:#?}");
    // Straight, it may keep all three hexes for the minimum 1 MP.
    let mut p = e15(false);
    p.place(
        "c12",
        &p.st.units[usize::from(p.u("c9"))].hexes.clone(),
        e(),
        Formation::RoadColumn,
    );
    p.s("c9").hexes.clear();
    let cs = ch(&p, &["c12"], &budget(7));
    let three = hxs(&["1010", "1011", "1012"]);
    assert_eq!(one(&cs, "8.4a", &three, Some(e())).cost, mp(1));
}

#[test]
fn r8_4b_march_to_road_column_one_plus_one_per_hex() {
    // E16: a 4-SP march column changes for 1 MP; a 12-SP cavalry march column over 3 hexes for
    // 1 MP; the same in 1 hex becomes a 3-hex road column for 1 + 2 = 3 MP.
    let mut p = forms();
    p.place("m4", &[hx("1010")], e(), Formation::MarchColumn);
    let cs = ch(&p, &["m4"], &budget(4));
    assert_eq!(one(&cs, "8.4b", &[hx("1010")], Some(e())).cost, mp(1));

    let mut p = forms();
    let three = hxs(&["1010", "1011", "1012"]);
    p.place("c12", &three, e(), Formation::MarchColumn);
    let cs = ch(&p, &["c12"], &budget(7));
    assert_eq!(one(&cs, "8.4b", &three, Some(e())).cost, mp(1));

    let mut p = forms();
    p.place("c12", &[hx("1010")], e(), Formation::MarchColumn);
    let cs = ch(&p, &["c12"], &budget(7));
    let c = one(&cs, "8.4b", &three, Some(e()));
    assert_eq!(c.cost, mp(3));
    assert_eq!(c.formations, vec![(p.u("c12"), Formation::RoadColumn)]);
    // Without the MPs, no change.
    let cs = ch(&p, &["c12"], &budget(2));
    assert!(to(&cs, "8.4b", Formation::RoadColumn).is_empty());
}

#[test]
fn r8_4c_example_march_column_to_3_hex_line_turning_right_costs_5() {
    // E17: a 1-hex cavalry march column to a 3-hex line turning right: 3 (diagram) + 2 (length).
    let mut p = forms();
    p.place("c12", &[hx("1010")], e(), Formation::MarchColumn);
    let cs = ch(&p, &["c12"], &budget(7));
    let lines = to(&cs, "8.4c", Formation::Line);
    let cost = |v: Vertex, len: usize| -> Vec<engine::Half> {
        let mut c: Vec<engine::Half> = lines
            .iter()
            .filter(|c| c.facing == Facing::Point(v) && c.hexes.len() == len)
            .map(|c| c.cost)
            .collect();
        c.dedup();
        c
    };
    // Facing east, turning right is facing south.
    assert_eq!(cost(Vertex::S, 3), vec![mp(5)]);
    assert_eq!(cost(Vertex::S, 1), vec![mp(3)]);
    // The test diagram: 1 beside the front hexside, 5 about.
    let beside = Dir::E.vertices();
    assert_eq!(cost(beside[0], 2), vec![mp(2)]);
    assert_eq!(cost(beside[1], 1), vec![mp(1)]);
    assert_eq!(cost(Vertex::NW, 3), vec![mp(7)]);
    // Every line contains the column's head hex; a 3-hex line has 3 placements per facing.
    assert!(lines.iter().all(|c| c.hexes.contains(&hx("1010"))));
    assert_eq!(
        lines
            .iter()
            .filter(|c| c.facing == Facing::Point(Vertex::S) && c.hexes.len() == 3)
            .count(),
        3
    );
}

#[test]
fn r8_4c_line_to_march_column_any_hexside_from_either_hex() {
    let mut p = forms();
    let two = hxs(&["1010", "1011"]);
    p.place("i10", &two, n(), Formation::Line);
    let cs = ch(&p, &["i10"], &budget(4));
    let cols = to(&cs, "8.4c", Formation::MarchColumn);
    // Facing N, the hexsides beside it are NE and NW (1), E and W turning (1: the infantry's
    // diagram, the 13.4 example E47; cavalry 3), SE, SW about (5 > the 4 MA for a 1-hex column:
    // 5 + 1).
    let c = one(&cs, "8.4c", &two, Some(Facing::Side(Dir::E)));
    assert_eq!(
        c.cost,
        mp(1),
        "a 2-hex line to a 2-hex column facing E, head on the right"
    );
    let c = one(
        &cs,
        "8.4c",
        &[hx("1011"), hx("1010")],
        Some(Facing::Side(Dir::W)),
    );
    assert_eq!(c.cost, mp(1), "facing W, headed on the left");
    assert!(
        cols.iter().all(|c| c.facing != Facing::Side(Dir::SE)),
        "about costs 5 + length > 4"
    );
    assert!(cols.iter().all(|c| two.contains(&c.hexes[0])));
}

#[test]
fn r8_4d_e_attack_column_from_and_to_march_column() {
    let mut p = forms();
    let two = hxs(&["1010", "1011"]);
    p.place("i10", &two, e(), Formation::MarchColumn);
    let cs = ch(&p, &["i10"], &budget(4));
    let ac = to(&cs, "8.4d", Formation::AttackColumn);
    // In the head hex, facing either hexpoint of the front hexside, 1 + 1 (length) MP.
    assert_eq!(ac.len(), 2);
    for c in &ac {
        assert_eq!(c.hexes, vec![hx("1010")]);
        assert_eq!(c.cost, mp(2));
        assert!(matches!(c.facing, Facing::Point(v) if Dir::E.vertices().contains(&v)));
    }
    // 8.4e back: the head in the attack column's hex facing a hexside of its hexpoint.
    let mut p = forms();
    p.place("i10", &[hx("1010")], n(), Formation::AttackColumn);
    let cs = ch(&p, &["i10"], &budget(4));
    let mc = to(&cs, "8.4e", Formation::MarchColumn);
    assert_eq!(mc.len(), 4, "2 hexsides × 1 or 2 hexes");
    for c in &mc {
        assert_eq!(c.hexes[0], hx("1010"));
        assert_eq!(c.cost, mp(c.hexes.len() as u16));
        assert!(matches!(c.facing, Facing::Side(d) if Vertex::N.sides().contains(&d)));
    }
    // A19: no attack column ↔ line link.
    assert!(cs.iter().all(|c| c.formations[0].1 != Formation::Line));
}

// ------------------------------------------------------------------ 8.4f–g: square

#[test]
fn r8_4f_square_from_line_in_either_hex_for_the_whole_ma() {
    let mut p = forms();
    let two = hxs(&["1010", "1011"]);
    p.place("i10", &two, n(), Formation::Line);
    let cs = ch(&p, &["i10"], &budget(4));
    let sq = to(&cs, "8.4f", Formation::Square);
    assert_eq!(sq.len(), 2);
    for (c, h) in sq.iter().zip(&two) {
        assert_eq!(c.hexes, vec![*h]);
        assert_eq!(c.cost, mp(4));
        assert!(c.ends_movement);
    }
    // From a march column: in the head hex.
    p.place("i10", &two, e(), Formation::MarchColumn);
    let cs = ch(&p, &["i10"], &budget(4));
    assert_eq!(one(&cs, "8.4f", &[hx("1010")], None).cost, mp(4));
}

#[test]
fn r8_4f_no_square_when_disordered_or_after_spending_or_cavalry() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    p.s("g1").disordered = true;
    assert!(to(&ch(&p, &["g1"], &budget(2)), "8.4f", Formation::Square).is_empty());
    p.s("g1").disordered = false;
    let mut b = budget(4);
    b.spent = true;
    b.left = mp(3);
    assert!(to(&ch(&p, &["g1"], &b), "8.4f", Formation::Square).is_empty());
    // Even with every MP still there (9.1: a whole-MA change is the phase's only action).
    b.left = mp(4);
    assert!(to(&ch(&p, &["g1"], &b), "8.4f", Formation::Square).is_empty());
    p.place("c12", &[hx("1110")], n(), Formation::Line);
    assert!(to(&ch(&p, &["c12"], &budget(7)), "8.4f", Formation::Square).is_empty());
    // 8.1e: fewer than 3 SP cannot form a square.
    p.s("g1").lost = 4;
    assert!(to(&ch(&p, &["g1"], &budget(4)), "8.4f", Formation::Square).is_empty());
}

#[test]
fn r8_4f_square_in_an_ezoc_costs_the_whole_ma_and_no_surcharge() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    enemy_front_of(&mut p, hx("1010"));
    let cs = ch(&p, &["g1"], &budget(4));
    assert_eq!(one(&cs, "8.4f", &[hx("1010")], None).cost, mp(4));
}

#[test]
fn r8_4g_square_to_line_or_march_column_any_direction_whole_ma() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Square);
    let cs = ch(&p, &["g1"], &budget(4));
    let lines = to(&cs, "8.4g", Formation::Line);
    let cols = to(&cs, "8.4g", Formation::MarchColumn);
    // 6 SP: 1- or 2-hex lines facing any of 6 hexpoints, a 2-hex line on either side of the
    // square's hex: 6 + 12; columns headed in the square's hex facing any hexside: 6 + 6.
    assert_eq!(lines.len(), 18);
    assert_eq!(cols.len(), 12);
    assert!(lines.iter().all(|c| c.hexes.contains(&hx("1010"))));
    assert!(cols.iter().all(|c| c.hexes[0] == hx("1010")));
    assert!(
        lines
            .iter()
            .chain(&cols)
            .all(|c| c.cost == mp(4) && c.ends_movement)
    );
    // 8.1e (A17): a disordered square does neither.
    p.s("g1").disordered = true;
    assert!(ch(&p, &["g1"], &budget(2)).is_empty());
}

#[test]
fn r8_4g_square_below_3_sp_becomes_a_disordered_single_hex_line() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Square);
    p.s("g1").lost = 3;
    assert_eq!(square_below_minimum(&p.sc, &p.st, &p.us(&["g1"])), None);
    p.s("g1").lost = 4;
    let b = square_below_minimum(&p.sc, &p.st, &p.us(&["g1"])).unwrap(); // below 3 SP
    assert_eq!(b.hex, hx("1010"));
    assert_eq!(b.facings.len(), 6, "facing at the owner's choice");
    assert!(b.disordered && !b.shaken);
    // Already disordered: shaken and disordered.
    p.s("g1").disordered = true;
    let b = square_below_minimum(&p.sc, &p.st, &p.us(&["g1"])).unwrap(); // below 3 SP
    assert!(b.disordered && b.shaken);
    // Not a square: nothing.
    p.s("g1").formation = Formation::Line;
    assert_eq!(square_below_minimum(&p.sc, &p.st, &p.us(&["g1"])), None);
}

// ------------------------------------------------------------------ 8.4h: skirmish

#[test]
fn r8_4h_a_capable_unit_forms_skirmish_from_a_single_hex_formation_any_direction() {
    let mut p = forms();
    p.place("sk", &[hx("1010")], n(), Formation::Line);
    let cs = ch(&p, &["sk"], &budget(4));
    let sk = to(&cs, "8.4h", Formation::Skirmish);
    assert_eq!(sk.len(), 6);
    assert!(sk.iter().all(|c| c.cost == mp(1) && !c.ends_movement));
    // Not a capable unit: no skirmish.
    p.place("g1", &[hx("1110")], n(), Formation::Line);
    assert!(to(&ch(&p, &["g1"], &budget(4)), "8.4h", Formation::Skirmish).is_empty());
    // Not from a multi-hex formation.
    p.place("i10", &hxs(&["1210", "1211"]), n(), Formation::Line);
    assert!(to(&ch(&p, &["i10"], &budget(4)), "8.4h", Formation::Skirmish).is_empty());
}

#[test]
fn r8_4h_from_skirmish_to_any_single_hex_formation_for_1_mp() {
    let mut p = forms();
    p.place("sk", &[hx("1010")], n(), Formation::Skirmish);
    let cs = ch(&p, &["sk"], &budget(4));
    assert_eq!(to(&cs, "8.4h", Formation::Line).len(), 6);
    assert_eq!(to(&cs, "8.4h", Formation::AttackColumn).len(), 6);
    assert_eq!(to(&cs, "8.4h", Formation::MarchColumn).len(), 6);
    assert_eq!(to(&cs, "8.4h", Formation::RoadColumn).len(), 6);
    assert!(to(&cs, "8.4h", Formation::Square).is_empty(), "2 SP < 3");
    assert!(
        cs.iter()
            .all(|c| c.cost == mp(1) && c.hexes == vec![hx("1010")])
    );
    // Cavalry never forms square; skirmish-only units never change (8.1g).
    p.place("sko", &[hx("1110")], n(), Formation::Skirmish);
    assert!(ch(&p, &["sko"], &budget(4)).is_empty());
    p.place("skc", &[hx("1210")], n(), Formation::Skirmish);
    let cs = ch(&p, &["skc"], &budget(7));
    assert!(to(&cs, "8.4h", Formation::Square).is_empty());
    assert_eq!(to(&cs, "8.4h", Formation::Line).len(), 6);
}

// ------------------------------------------------------------------ 8.4j: hook

#[test]
fn r8_4j_line_to_hook_and_back_for_1_mp_same_hexes() {
    let mut p = forms();
    let two = hxs(&["1010", "1011"]);
    p.place("i10", &two, n(), Formation::Line);
    let cs = ch(&p, &["i10"], &budget(4));
    for f in [Formation::HookLeft, Formation::HookRight] {
        let h = to(&cs, "8.4j", f);
        assert_eq!(h.len(), 1);
        assert_eq!(
            (h[0].hexes.to_vec(), h[0].facing, h[0].cost),
            (two.clone(), n(), mp(1))
        );
    }
    p.s("i10").formation = Formation::HookLeft;
    let cs = ch(&p, &["i10"], &budget(4));
    assert_eq!(cs.len(), 1, "a hook may only go back to line: {cs:#?}");
    assert_eq!(cs[0].formations[0].1, Formation::Line);
    assert_eq!(cs[0].hexes, two);
    // Cavalry has no hook.
    p.place("c12", &[hx("1210")], n(), Formation::Line);
    assert!(to(&ch(&p, &["c12"], &budget(7)), "8.4j", Formation::HookLeft).is_empty());
}

// ------------------------------------------------------------------ 9.1: EZOC

#[test]
fn r9_1_a_change_in_an_ezoc_costs_1_more() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    let before = to(&ch(&p, &["g1"], &budget(4)), "8.4j", Formation::HookLeft)[0].cost;
    enemy_front_of(&mut p, hx("1010"));
    let cs = ch(&p, &["g1"], &budget(4));
    let hooks = to(&cs, "8.4j", Formation::HookLeft);
    assert_eq!((before, hooks[0].cost), (mp(1), mp(2)));
    // With only 1 MP left the change is not offered.
    let mut b = budget(4);
    b.left = mp(1);
    b.spent = true;
    assert!(to(&ch(&p, &["g1"], &b), "8.4j", Formation::HookLeft).is_empty());
}

// ------------------------------------------------------------------ 8.6: artillery

#[test]
fn r8_6b_limber_and_unlimber_for_2_mp_any_facing_in_an_empty_hex() {
    let mut p = forms();
    p.place("art", &[hx("1010")], n(), Formation::Unlimbered);
    let cs = ch(&p, &["art"], &budget(3));
    let l = to(&cs, "8.6b", Formation::Limbered);
    assert_eq!(l.len(), 6);
    assert!(l.iter().all(|c| c.cost == mp(2) && c.must_leave.is_empty()));
    p.place("art", &[hx("1010")], e(), Formation::Limbered);
    let cs = ch(&p, &["art"], &budget(3));
    assert_eq!(to(&cs, "8.6b", Formation::Unlimbered).len(), 6);
}

#[test]
fn r8_6a_a_battery_that_fired_may_not_limber() {
    let mut p = forms();
    p.place("art", &[hx("1010")], n(), Formation::Unlimbered);
    let mut b = budget(3);
    b.fired = true;
    assert!(to(&ch(&p, &["art"], &b), "8.6b", Formation::Limbered).is_empty());
}

#[test]
fn r8_6b_unlimbering_among_infantry_takes_its_facing_limbering_means_leaving() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    p.place("art", &[hx("1010")], e(), Formation::Limbered);
    let cs = ch(&p, &["art"], &budget(3));
    let u = to(&cs, "8.6b", Formation::Unlimbered);
    assert_eq!(u.len(), 1);
    assert_eq!(u[0].facing, n());
    // Beside a square: any facing.
    p.s("g1").formation = Formation::Square;
    assert_eq!(
        to(&ch(&p, &["art"], &budget(3)), "8.6b", Formation::Unlimbered).len(),
        6
    );
    // Limbering in the line's hex: any facing, and it must leave (10.4f) with the MPs to do it.
    p.s("g1").formation = Formation::Line;
    p.place("art", &[hx("1010")], n(), Formation::Unlimbered);
    let cs = ch(&p, &["art"], &budget(3));
    let l = to(&cs, "8.6b", Formation::Limbered);
    assert_eq!(l.len(), 6);
    assert!(l.iter().all(|c| c.must_leave == p.us(&["art"])));
    // 2 MP to limber and 1 to leave into clear: with 2 MP it cannot.
    assert!(to(&ch(&p, &["art"], &budget(2)), "8.6b", Formation::Limbered).is_empty());
}

#[test]
fn r8_6c_d_limbered_to_road_column_and_the_oversize_battery_pays_all() {
    let mut p = forms();
    p.place("art", &[hx("1010")], e(), Formation::Limbered);
    let cs = ch(&p, &["art"], &budget(3));
    let r = one(&cs, "8.6c", &hxs(&["1010", "1011"]), Some(e()));
    assert_eq!((r.cost, r.ends_movement), (mp(2), false));
    // 8.6d: 4 SP, MA 3: 1 + 3 > 3, it costs every MP.
    p.place("art4", &[hx("1210")], e(), Formation::Limbered);
    let cs = ch(&p, &["art4"], &budget(3));
    let r = one(
        &cs,
        "8.6d",
        &hxs(&["1210", "1211", "1212", "1213"]),
        Some(e()),
    );
    assert_eq!((r.cost, r.ends_movement), (mp(3), true));
    let mut b = budget(3);
    b.spent = true;
    b.left = mp(2);
    assert!(to(&ch(&p, &["art4"], &b), "8.6d", Formation::RoadColumn).is_empty());
    p.s("art4").disordered = true;
    assert!(
        to(
            &ch(&p, &["art4"], &budget(3)),
            "8.6d",
            Formation::RoadColumn
        )
        .is_empty()
    );
    // And back (as 8.4a): to the head hex, 1 MP a hex dropped.
    p.place("art", &hxs(&["1010", "1011"]), e(), Formation::RoadColumn);
    let cs = ch(&p, &["art"], &budget(3));
    assert_eq!(one(&cs, "8.6c", &[hx("1010")], Some(e())).cost, mp(1));
}

// ------------------------------------------------------------------ 8.7: non-clear terrain

#[test]
fn r8_7_asterisked_change_in_non_clear_terrain_only_fresh_and_ends_movement() {
    let mut p = forms();
    p.place("c12", &[hx("1515")], e(), Formation::MarchColumn);
    let cs = ch(&p, &["c12"], &budget(7));
    let ac = to(&cs, "8.4d", Formation::AttackColumn);
    assert_eq!(ac.len(), 2);
    assert!(ac.iter().all(|c| c.ends_movement && c.cost == mp(1)));
    let mut b = budget(7);
    b.spent = true;
    b.left = mp(6);
    assert!(to(&ch(&p, &["c12"], &b), "8.4d", Formation::AttackColumn).is_empty());
    p.s("c12").disordered = true;
    assert!(
        to(
            &ch(&p, &["c12"], &budget(7)),
            "8.4d",
            Formation::AttackColumn
        )
        .is_empty()
    );
    // In clear it does not end movement.
    p.place("c12", &[hx("1010")], e(), Formation::MarchColumn);
    let cs = ch(&p, &["c12"], &budget(7));
    assert!(
        to(&cs, "8.4d", Formation::AttackColumn)
            .iter()
            .all(|c| !c.ends_movement)
    );
    // A line that deploys into the woods from clear occupies non-clear terrain too.
    p.place(
        "c12",
        &[hx("1514")],
        Facing::Side(Dir::W),
        Formation::MarchColumn,
    );
    let cs = ch(&p, &["c12"], &budget(7));
    let into = cs
        .iter()
        .filter(|c| c.rule == "8.4c" && c.hexes.contains(&hx("1515")))
        .collect::<Vec<_>>();
    assert!(!into.is_empty() && into.iter().all(|c| c.ends_movement));
}

#[test]
fn r8_7_a_column_across_a_stream_hexside_is_in_non_clear_terrain() {
    let mut p = forms();
    p.place("i10", &hxs(&["1212", "1213"]), e(), Formation::MarchColumn);
    let cs = ch(&p, &["i10"], &budget(4));
    assert!(
        to(&cs, "8.4d", Formation::AttackColumn)
            .iter()
            .all(|c| c.ends_movement)
    );
    // Not asterisked: the square (8.4f) is not 8.7's.
    let sq = to(&cs, "8.4f", Formation::Square);
    assert_eq!(sq.len(), 1);
}

// ------------------------------------------------------------------ 10.11a, 10.12: stacks

#[test]
fn r10_11a_example_a_regiment_forms_a_multi_hex_road_column_stack() {
    // E26: a single-hex march column of two 6-SP battalions of one regiment: a 3-hex road column
    // for 3 MP; of two regiments: no stack road column; three 6-SP battalions (MA 4): 18 SP in
    // 4-4-4-4-2, 1 + 4 = 5 MP > MA 4, impossible.
    let mut p = forms();
    for id in ["g1", "g2", "h1", "g3"] {
        p.place(id, &[hx("1010")], e(), Formation::MarchColumn);
    }
    let cs = ch(&p, &["g1", "g2"], &budget(4));
    let r = one(&cs, "8.4b", &hxs(&["1010", "1011", "1012"]), Some(e()));
    assert_eq!(r.cost, mp(3));
    assert_eq!(r.formations.len(), 2);
    assert!(
        to(
            &ch(&p, &["g1", "h1"], &budget(4)),
            "8.4b",
            Formation::RoadColumn
        )
        .is_empty()
    );
    // Even with MPs enough (a rapid march), the printed MA forbids it.
    assert!(
        to(
            &ch(&p, &["g1", "g2", "g3"], &budget(8)),
            "8.4b",
            Formation::RoadColumn
        )
        .is_empty()
    );
    // 10.11a first exception: a single-hex road column stack of at most 4 SP, any regiments.
    for id in ["r1a", "r1c", "r2a"] {
        p.place(id, &[hx("1110")], e(), Formation::MarchColumn);
    }
    let cs = ch(&p, &["r1a", "r1c", "r2a"], &budget(4));
    assert_eq!(one(&cs, "8.4b", &[hx("1110")], Some(e())).cost, mp(1));
}

#[test]
fn r10_12a_a_stack_changes_as_one_unit() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    p.place("e1", &[hx("1010")], n(), Formation::Line);
    let cs = ch(&p, &["g1", "e1"], &budget(4));
    // 10 SP: a 2-hex march column is possible for the stack, not for either alone.
    assert!(
        to(&cs, "8.4c", Formation::MarchColumn)
            .iter()
            .any(|c| c.hexes.len() == 2 && c.formations.len() == 2)
    );
    assert!(
        to(&ch(&p, &["e1"], &budget(4)), "8.4c", Formation::MarchColumn)
            .iter()
            .all(|c| c.hexes.len() == 1)
    );
    // Units that do not share formation and facing are not one stack.
    p.s("e1").facing = Facing::Point(Vertex::S);
    assert!(ch(&p, &["g1", "e1"], &budget(4)).is_empty());
}

#[test]
fn r10_12c_example_infantry_and_unlimbered_artillery_stack_changes() {
    // E27: an unlimbered battery with infantry in line: the stack may limber the guns and put
    // the infantry in march column, or keep the guns unlimbered and form square; if the guns
    // limber while the infantry forms square, the guns must leave the hex.
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    p.place("art", &[hx("1010")], n(), Formation::Unlimbered);
    let (g, a) = (p.u("g1"), p.u("art"));
    let cs = ch(&p, &["g1", "art"], &budget(3));
    let has = |tf: Formation, af: Formation| -> Vec<&Change> {
        cs.iter()
            .filter(|c| c.formations.contains(&(g, tf)) && c.formations.contains(&(a, af)))
            .collect()
    };
    let march = has(Formation::MarchColumn, Formation::Limbered);
    assert!(!march.is_empty());
    assert!(march.iter().all(|c| c.must_leave.is_empty()));
    // The dearer of the two changes: 1 (beside) for the infantry, 2 for the guns.
    assert!(march.iter().any(|c| c.cost == mp(2)));
    let square = has(Formation::Square, Formation::Unlimbered);
    assert_eq!(square.len(), 1);
    assert!(square[0].must_leave.is_empty() && square[0].cost == mp(3));
    let leave = has(Formation::Square, Formation::Limbered);
    assert!(!leave.is_empty());
    for c in &leave {
        assert_eq!(c.must_leave, vec![a]);
        assert_eq!(c.leave_cost, Some(mp(2)));
        assert!(matches!(c.leave_facing, Some(Facing::Side(_))));
    }
    // 8.6a: a battery that fired does not limber with its stack either.
    let mut fired = budget(3);
    fired.fired = true;
    let cs2 = ch(&p, &["g1", "art"], &fired);
    assert!(!cs2.is_empty());
    assert!(
        cs2.iter()
            .all(|c| !c.formations.contains(&(a, Formation::Limbered)))
    );
    // Incompatible results are never offered: infantry in march column with unlimbered guns.
    assert!(has(Formation::MarchColumn, Formation::Unlimbered).is_empty());
    assert!(has(Formation::Line, Formation::Limbered).is_empty());
}

#[test]
fn r8_3_changes_are_deterministic_and_only_along_the_diagram_links() {
    let mut p = forms();
    p.place("c12", &[hx("1010")], e(), Formation::MarchColumn);
    let a = ch(&p, &["c12"], &budget(7));
    let b = ch(&p, &["c12"], &budget(7));
    assert_eq!(a, b);
    // From a march column: road, line, attack column only (cavalry: no square).
    let mut rules: Vec<&str> = a.iter().map(|c| c.rule).collect();
    rules.dedup();
    assert_eq!(rules, vec!["8.4b", "8.4c", "8.4d"]);
    // Routed units change nothing.
    p.s("c12").routed = true;
    assert!(ch(&p, &["c12"], &budget(7)).is_empty());
}

// ------------------------------------------------------------------ 8.5: breakdown, reformation

#[test]
fn r8_5a_example_a_parent_with_losses_breaks_down_into_its_current_sps() {
    // E19: a parent printed with 6 SP that lost 2 places only 4 SP of components, as equally as
    // possible.
    use bar::formation::breakdown;
    let mut p = forms();
    p.place("p6", &[hx("1010")], n(), Formation::Line);
    p.s("p6").lost = 2;
    let comps = p.us(&["p6a", "p6b", "p6c"]);
    let parts = breakdown(&p.sc, &p.st, p.u("p6"), &comps, &budget(4)).unwrap(); // allowed
    assert_eq!(
        parts,
        vec![(comps[0], 2), (comps[1], 1), (comps[2], 1)],
        "4 SP over three 2-SP components"
    );
    // Not with half its SPs or fewer.
    p.s("p6").lost = 3;
    assert_eq!(breakdown(&p.sc, &p.st, p.u("p6"), &comps, &budget(4)), None);
    p.s("p6").lost = 0;
    assert!(breakdown(&p.sc, &p.st, p.u("p6"), &comps, &budget(4)).is_some());
    // Not disordered, not out of command, not after spending, not in attack column, not stacked,
    // not in an EZOC.
    let no = |p: &Pos, b: &bar::formation::Budget| {
        breakdown(&p.sc, &p.st, p.u("p6"), &p.us(&["p6a", "p6b", "p6c"]), b).is_none()
    };
    p.s("p6").disordered = true;
    assert!(no(&p, &budget(4)));
    p.s("p6").disordered = false;
    p.s("p6").ooc = true;
    assert!(no(&p, &budget(4)));
    p.s("p6").ooc = false;
    let mut spent = budget(4);
    spent.spent = true;
    assert!(no(&p, &spent));
    p.s("p6").formation = Formation::AttackColumn;
    assert!(no(&p, &budget(4)));
    p.s("p6").formation = Formation::Line;
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    assert!(no(&p, &budget(4)));
    p.place("g1", &[], n(), Formation::Line);
    enemy_front_of(&mut p, hx("1010"));
    assert!(no(&p, &budget(4)));
}

#[test]
fn r8_5b_stacked_components_may_try_to_reform_at_their_worst_er() {
    use bar::formation::reformation;
    let mut p = forms();
    for c in ["p6a", "p6b", "p6c"] {
        p.place(c, &[hx("1010")], n(), Formation::Line);
    }
    let comps = p.us(&["p6a", "p6b", "p6c"]);
    let r = reformation(&p.sc, &p.st, p.u("p6"), &comps, &budget(4)).unwrap(); // allowed
    assert_eq!((r.er, r.sp, r.hexes), (34, 6, vec![vec![hx("1010")]]));
    // Shaken is allowed; 4 of 6 SP is more than half; 3 is not.
    p.s("p6a").shaken = true;
    p.s("p6a").lost = 1;
    p.s("p6b").lost = 1;
    assert_eq!(
        reformation(&p.sc, &p.st, p.u("p6"), &comps, &budget(4)).map(|r| r.sp),
        Some(4)
    );
    p.s("p6c").lost = 1;
    assert_eq!(
        reformation(&p.sc, &p.st, p.u("p6"), &comps, &budget(4)),
        None
    );
    p.s("p6c").lost = 0;
    // Not in different facings, not in square, not after spending.
    p.s("p6c").facing = Facing::Point(Vertex::S);
    assert_eq!(
        reformation(&p.sc, &p.st, p.u("p6"), &comps, &budget(4)),
        None
    );
    p.s("p6c").facing = n();
    let mut spent = budget(4);
    spent.spent = true;
    assert_eq!(reformation(&p.sc, &p.st, p.u("p6"), &comps, &spent), None);
}

#[test]
fn r8_5c_example_skirmishers_reform_in_a_common_hex_on_the_worst_er() {
    // E20: components of ER 31, 32 and 33: 33–99 re-forms, 00–32 fails.
    use bar::formation::skirmish_reformation;
    let mut p = forms();
    let x = hx("1010");
    for (c, d) in [("q1", Dir::NE), ("q2", Dir::E), ("q3", Dir::SE)] {
        p.place(c, &[x.neighbour(d).unwrap()], n(), Formation::Skirmish); // inside
    }
    let comps = p.us(&["q1", "q2", "q3"]);
    let r = skirmish_reformation(&p.sc, &p.st, p.u("q6"), &comps, &budget(4)).unwrap(); // allowed
    assert_eq!((r.er, r.sp), (33, 6));
    assert!(r.hexes.contains(&vec![x]));
    // An occupied common hex does not serve.
    p.place("g1", &[x], n(), Formation::Line);
    let r = skirmish_reformation(&p.sc, &p.st, p.u("q6"), &comps, &budget(4));
    assert!(r.is_none_or(|r| !r.hexes.contains(&vec![x])));
}

#[test]
fn r8_0_terrain_forbids_forming_a_formation_in_it() {
    // The TEC's no_formation (8.0: "a terrain type in a hex may prohibit certain formations from
    // being formed there"): the test chart's woods made to forbid lines.
    let mut p = forms();
    let mut charts = (*p.sc.charts).clone();
    charts
        .tec
        .terrain
        .get_mut("woods")
        .unwrap() // the test TEC has woods
        .no_formation = vec!["line".into()];
    // The board's dense index copies the TEC's rows: built again for the changed chart.
    p.sc.board.index(&charts);
    p.sc.charts = std::sync::Arc::new(charts);
    p.place(
        "c12",
        &[hx("1514")],
        Facing::Side(Dir::W),
        Formation::MarchColumn,
    );
    let cs = ch(&p, &["c12"], &budget(7));
    let lines = to(&cs, "8.4c", Formation::Line);
    assert!(!lines.is_empty());
    assert!(lines.iter().all(|c| !c.hexes.contains(&hx("1515"))));
    // A prohibited hex (a pond) is never entered by a change either.
    p.sc.board.hexes.get_mut(&hx("1513")).unwrap().terrain = "pond".into(); // on the map
    let charts = p.sc.charts.clone();
    p.sc.board.index(&charts);
    let cs = ch(&p, &["c12"], &budget(7));
    assert!(cs.iter().all(|c| !c.hexes.contains(&hx("1513"))));
    assert!(
        to(&cs, "8.4b", Formation::RoadColumn).is_empty(),
        "the road column would extend into it"
    );
}

#[test]
fn r8_1_every_offered_change_gives_a_valid_footprint_and_sp_layout() {
    // Across units, formations and facings: each change's hexes make a footprint of its
    // formation's shape at rest (9.4: march columns straight), of a length the SPs allow, and
    // its cost is within the budget.
    use bar::geom::footprint_kind;
    use hexmap::{Footprint, Printed};
    let starts: Vec<(&str, Formation)> = vec![
        ("c12", Formation::MarchColumn),
        ("c12", Formation::Line),
        ("c9", Formation::RoadColumn),
        ("i10", Formation::Line),
        ("i10", Formation::MarchColumn),
        ("g1", Formation::Square),
        ("g1", Formation::AttackColumn),
        ("sk", Formation::Skirmish),
        ("skc", Formation::Skirmish),
        ("art", Formation::Limbered),
        ("art4", Formation::Unlimbered),
    ];
    let mut seen = 0;
    for (id, f) in starts {
        for k in 0..6 {
            let mut p = forms();
            let facing = if f.faces_hexside() {
                Facing::Side(Dir::from_index(k))
            } else {
                Facing::Point(Vertex::from_index(k))
            };
            let u = p.u(id);
            p.place(id, &[hx("1010")], facing, f);
            let len = *lengths(&p.sc, &p.st, &[u], f).end();
            let fp = Footprint::new(&Printed, footprint_kind(f), facing, vec![hx("1010")])
                .and_then(|mut fp| {
                    while fp.len() < len {
                        fp = fp.extended(&Printed, hexmap::End::Tail)?;
                    }
                    Ok(fp)
                })
                .unwrap(); // room on the map
            p.place(id, fp.hexes(), facing, f);
            let b = budget(u16::from(p.sc.units[usize::from(u)].ma));
            for c in changes(&p.sc, &p.st, &[u], &b) {
                seen += 1;
                let (_, to) = c.formations[0];
                let new = Footprint::new(&Printed, footprint_kind(to), c.facing, c.hexes.to_vec())
                    .unwrap_or_else(|e| panic!("{id} {f:?} → {c:?}: {e}"));
                assert!(new.check_at_rest(&Printed).is_ok(), "{c:?}");
                assert!(
                    sp_layout(&p.sc, &p.st, &[u], to, c.hexes.len()).is_some(),
                    "{id} {f:?} → {c:?}"
                );
                assert!(c.cost <= b.left, "{c:?}");
            }
        }
    }
    assert!(seen > 300, "{seen} changes seen");
}
