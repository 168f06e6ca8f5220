//! Stacking (10.1–10.11): legal stacks at the end of movement, interpenetration, the automatic
//! contraction after a separation (E24), road column stacks (E25) and the worst state of a stack,
//! through positions on the `forms` fixture.
#[path = "data/forms/fixture.rs"]
mod fixture;

use bar::geom::{Facing, Formation};
use bar::stacking::{StackError, after_separation, interpenetration, legal_at, worst_state};
use fixture::{Pos, forms, hx, hxs};
use hexmap::{Dir, Vertex};

fn n() -> Facing {
    Facing::Point(Vertex::N)
}

fn e() -> Facing {
    Facing::Side(Dir::E)
}

/// The rule `legal_at` names for the stack in 1010.
fn rule(p: &Pos) -> Option<&'static str> {
    legal_at(&p.sc, &p.st, hx("1010")).err().map(|e| e.rule())
}

/// Put units one above the other in `ids` order (10.6: lower order is higher).
fn order(p: &mut Pos, ids: &[&str]) {
    for (i, id) in ids.iter().enumerate() {
        p.s(id).order = i as u16;
    }
}

#[test]
fn r10_1_a_lone_unit_and_an_empty_hex_are_legal() {
    let mut p = forms();
    assert_eq!(rule(&p), None);
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    assert_eq!(rule(&p), None);
}

#[test]
fn r10_1b_opposing_units_never_share_a_hex() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    p.place("z1", &[hx("1010")], n(), Formation::Line);
    assert_eq!(rule(&p), Some("10.1b"));
}

#[test]
fn r10_1c_tec_sp_limit_per_hex_and_artillery_counts_4() {
    let mut p = forms();
    // Test TEC, clear: infantry 16, cavalry 12, artillery 6.
    for id in ["g1", "g2"] {
        p.place(id, &[hx("1010")], n(), Formation::Line);
    }
    assert_eq!(rule(&p), None, "12 infantry SP");
    p.place("g3", &[hx("1010")], n(), Formation::Line);
    let err = legal_at(&p.sc, &p.st, hx("1010")).unwrap_err(); // 18 > 16
    assert!(
        matches!(
            err,
            StackError::Limit {
                sp: 18,
                limit: 16,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(err.rule(), "10.1c");
    // 10.4g: 10 infantry SP and a 2-SP battery count 10 + 8 = 18.
    let mut p = forms();
    p.place("i10", &[hx("1010")], n(), Formation::Line);
    p.place("art", &[hx("1010")], n(), Formation::Unlimbered);
    order(&mut p, &["art", "i10"]);
    assert!(matches!(
        legal_at(&p.sc, &p.st, hx("1010")),
        Err(StackError::Limit { sp: 18, .. })
    ));
    // 6 + 8 = 14 is fine.
    p.place("i10", &[], n(), Formation::Line);
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    assert_eq!(rule(&p), None);
    // Cavalry: 12 + 4 > 12.
    let mut p = forms();
    p.place("c12", &[hx("1010")], n(), Formation::Line);
    p.place("c4", &[hx("1010")], n(), Formation::Line);
    assert_eq!(rule(&p), Some("10.1c"));
    // A 2-hex line of 12 + 4 holds 8 a hex: legal.
    let two = hxs(&["1010", "1011"]);
    p.place("c12", &two, n(), Formation::Line);
    p.place("c4", &two, n(), Formation::Line);
    assert_eq!(rule(&p), None);
    // In the village (8 infantry SP): 10 SP are too many even alone.
    let mut p = forms();
    p.place("i10", &[hx("1717")], n(), Formation::Line);
    assert!(matches!(
        legal_at(&p.sc, &p.st, hx("1717")),
        Err(StackError::Limit { limit: 8, .. })
    ));
}

#[test]
fn r10_1d_same_hexes_and_same_facing() {
    let mut p = forms();
    p.place("i10", &hxs(&["1010", "1011"]), n(), Formation::Line);
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    assert_eq!(rule(&p), Some("10.1d"));
    assert!(matches!(
        legal_at(&p.sc, &p.st, hx("1010")),
        Err(StackError::Hexes(_))
    ));
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    p.place(
        "g2",
        &[hx("1010")],
        Facing::Point(Vertex::S),
        Formation::Line,
    );
    assert!(matches!(
        legal_at(&p.sc, &p.st, hx("1010")),
        Err(StackError::Facing(_))
    ));
}

#[test]
fn r10_1e_same_formation() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    p.place("g2", &[hx("1010")], n(), Formation::AttackColumn);
    assert_eq!(rule(&p), Some("10.1e"));
}

#[test]
fn r10_1f_routed_and_unrouted_never_together() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    p.place("g2", &[hx("1010")], n(), Formation::Line);
    p.s("g2").routed = true;
    assert_eq!(rule(&p), Some("10.1f"));
}

#[test]
fn r10_2a_cavalry_stacks_only_with_cavalry() {
    let mut p = forms();
    p.place("c4", &[hx("1010")], n(), Formation::Line);
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    assert_eq!(rule(&p), Some("10.2a"));
    let mut p = forms();
    p.place("c4", &[hx("1010")], e(), Formation::MarchColumn);
    p.place("art", &[hx("1010")], e(), Formation::Limbered);
    assert_eq!(rule(&p), Some("10.2a"));
    // 10.2b: with cavalry of the same facing, formation and hexes.
    let mut p = forms();
    p.place("c4", &[hx("1010")], n(), Formation::Line);
    p.place("c8", &[hx("1010")], n(), Formation::Line);
    assert_eq!(rule(&p), None);
}

#[test]
fn r10_3e_infantry_with_limbered_artillery_only_in_march_column_same_facing() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], e(), Formation::MarchColumn);
    p.place("art", &[hx("1010")], e(), Formation::Limbered);
    assert_eq!(rule(&p), None);
    p.s("art").facing = Facing::Side(Dir::W);
    assert_eq!(rule(&p), Some("10.3e"));
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    p.place("art", &[hx("1010")], e(), Formation::Limbered);
    assert_eq!(rule(&p), Some("10.3e"));
}

#[test]
fn r10_3d_infantry_with_unlimbered_artillery_in_line_type_formations_or_square() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    p.place("art", &[hx("1010")], n(), Formation::Unlimbered);
    order(&mut p, &["art", "g1"]);
    assert_eq!(rule(&p), None);
    p.s("art").facing = Facing::Point(Vertex::S);
    assert_eq!(rule(&p), Some("10.3d"));
    // A square: any facing (10.1d's exception, 10.4c).
    p.s("g1").formation = Formation::Square;
    assert_eq!(rule(&p), None);
    // March column with unlimbered guns: never.
    p.place("g1", &[hx("1010")], e(), Formation::MarchColumn);
    assert_eq!(rule(&p), Some("10.3d"));
    // Limbered and unlimbered guns never together (10.4b–c).
    let mut p = forms();
    p.place("art", &[hx("1010")], n(), Formation::Unlimbered);
    p.place("art4", &[hx("1010")], e(), Formation::Limbered);
    assert_eq!(rule(&p), Some("10.1e"));
}

#[test]
fn r10_6d_e_artillery_on_top_of_a_square_and_never_between_infantry() {
    let mut p = forms();
    for id in ["g1", "r2a"] {
        p.place(id, &[hx("1010")], n(), Formation::Line);
    }
    p.place("art", &[hx("1010")], n(), Formation::Unlimbered);
    order(&mut p, &["g1", "art", "r2a"]);
    assert_eq!(rule(&p), Some("10.6e"));
    order(&mut p, &["art", "g1", "r2a"]);
    assert_eq!(rule(&p), None);
    order(&mut p, &["g1", "r2a", "art"]);
    assert_eq!(rule(&p), None, "at the bottom of a line is allowed");
    for id in ["g1", "r2a"] {
        p.s(id).formation = Formation::Square;
    }
    assert_eq!(rule(&p), Some("10.6d"), "a square's guns must be on top");
    order(&mut p, &["art", "g1", "r2a"]);
    assert_eq!(rule(&p), None);
}

#[test]
fn r10_11a_example_single_hex_road_column_stacks_of_at_most_4_sp() {
    // E25: four 1-SP units, two 2-SP units in one hex: legal single-hex road columns of any
    // regiments. "One 3-SP unit and three 1-SP units" (6 SP) breaks the rule's own 4 SP: the
    // 4 SP govern (docs/bar-formations.md): 3 + 1 is legal, 3 + 1 + 1 + 1 is not.
    let mut p = forms();
    for id in ["r1a", "r1b", "r1c", "r1d"] {
        p.place(id, &[hx("1010")], e(), Formation::RoadColumn);
    }
    assert_eq!(rule(&p), None);
    let mut p = forms();
    for id in ["r2a", "r2b"] {
        p.place(id, &[hx("1010")], e(), Formation::RoadColumn);
    }
    assert_eq!(rule(&p), None);
    let mut p = forms();
    for id in ["r3", "r1a"] {
        p.place(id, &[hx("1010")], e(), Formation::RoadColumn);
    }
    assert_eq!(rule(&p), None);
    for id in ["r1b", "r1c"] {
        p.place(id, &[hx("1010")], e(), Formation::RoadColumn);
    }
    assert!(matches!(
        legal_at(&p.sc, &p.st, hx("1010")),
        Err(StackError::Limit {
            what: "road column",
            sp: 6,
            limit: 4,
            ..
        })
    ));
}

#[test]
fn r10_11a_a_multi_hex_road_column_stack_is_of_one_regiment() {
    let three = hxs(&["1010", "1011", "1012"]);
    let mut p = forms();
    for id in ["g1", "g2"] {
        p.place(id, &three, e(), Formation::RoadColumn);
    }
    assert_eq!(rule(&p), None);
    p.place("g2", &[], e(), Formation::RoadColumn);
    p.place("h1", &three, e(), Formation::RoadColumn);
    assert_eq!(rule(&p), Some("10.11a"));
    // A one-unit road column over more SPs than 4 a hex allows in its hexes.
    let mut p = forms();
    p.place("g1", &[hx("1010")], e(), Formation::RoadColumn);
    assert_eq!(rule(&p), Some("10.1c"));
}

#[test]
fn r10_8d_example_the_remainder_of_a_2_hex_line_contracts_at_once() {
    // E24: two 4-SP units in a 2-hex line (two hexes need 5 SP); one leaves: the other contracts
    // to one hex at once, free.
    let mut p = forms();
    let two = hxs(&["1010", "1011"]);
    p.place("e1", &two, n(), Formation::Line);
    p.place("e2", &two, n(), Formation::Line);
    assert_eq!(after_separation(&p.sc, &p.st, &p.us(&["e1", "e2"])), None);
    assert_eq!(
        after_separation(&p.sc, &p.st, &p.us(&["e1"])),
        Some(vec![hx("1010")]),
        "it keeps the right-hand hex"
    );
    // A 3-hex cavalry march column of 8 + 4: the 8 keep 2 hexes, from the head.
    let three = hxs(&["1010", "1011", "1012"]);
    p.place("c8", &three, e(), Formation::MarchColumn);
    p.place("c4", &three, e(), Formation::MarchColumn);
    assert_eq!(
        after_separation(&p.sc, &p.st, &p.us(&["c8"])),
        Some(hxs(&["1010", "1011"]))
    );
    // 10 SP left of a 2-hex line need no contraction.
    p.place("i10", &two, n(), Formation::Line);
    assert_eq!(after_separation(&p.sc, &p.st, &p.us(&["i10"])), None);
}

#[test]
fn r10_7b_a_line_through_a_line_without_turning_is_no_interpenetration() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    p.place(
        "g2",
        &[hx("1010")],
        Facing::Point(Vertex::S),
        Formation::Line,
    );
    let (m, s) = (p.us(&["g1"]), p.us(&["g2"]));
    assert!(
        !interpenetration(&p.sc, &p.st, &m, &s, false),
        "regardless of facings"
    );
    assert!(
        interpenetration(&p.sc, &p.st, &m, &s, true),
        "it turned in the hex"
    );
    // A23: a disordered line through a line in order still interpenetrates (18.5e).
    p.s("g1").disordered = true;
    assert!(interpenetration(&p.sc, &p.st, &m, &s, false));
}

#[test]
fn r10_7b_a_skirmisher_never_interpenetrates() {
    let mut p = forms();
    p.place("sk", &[hx("1010")], n(), Formation::Skirmish);
    p.place("c12", &[hx("1010")], e(), Formation::MarchColumn);
    p.s("sk").disordered = true;
    assert!(!interpenetration(
        &p.sc,
        &p.st,
        &p.us(&["sk"]),
        &p.us(&["c12"]),
        true
    ));
}

#[test]
fn r10_7a_types_facings_formations_limits_and_states() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], e(), Formation::MarchColumn);
    p.place("g2", &[hx("1010")], e(), Formation::MarchColumn);
    let (m, s) = (p.us(&["g1"]), p.us(&["g2"]));
    let ip = |p: &Pos| interpenetration(&p.sc, &p.st, &m, &s, false);
    assert!(!ip(&p), "same type, facing, formation, 12 SP ≤ 16");
    p.s("g2").facing = Facing::Side(Dir::W);
    assert!(ip(&p), "different facings");
    p.s("g2").facing = e();
    p.s("g2").formation = Formation::RoadColumn;
    assert!(ip(&p), "different formations");
    p.s("g2").formation = Formation::MarchColumn;
    // Different types: cavalry through infantry.
    p.place("c4", &[hx("1010")], e(), Formation::MarchColumn);
    assert!(interpenetration(&p.sc, &p.st, &p.us(&["c4"]), &s, false));
    // States: disordered either way, a shaken mover, a mover through routed units.
    p.s("g2").disordered = true;
    assert!(ip(&p));
    p.s("g2").disordered = false;
    p.s("g1").shaken = true;
    assert!(ip(&p), "19.4d: shaken through non-shaken");
    p.s("g1").shaken = false;
    p.s("g2").shaken = true;
    assert!(
        !ip(&p),
        "a non-shaken mover through shaken units: not listed"
    );
    p.s("g2").shaken = false;
    p.s("g2").routed = true;
    assert!(ip(&p), "a non-routed unit through a routed one");
}

#[test]
fn r10_7a_the_type_stacking_limit_exceeded() {
    let mut p = forms();
    p.place("i10", &[hx("1010")], e(), Formation::MarchColumn);
    p.place("g1", &[hx("1010")], e(), Formation::MarchColumn);
    p.place("e1", &[hx("1010")], e(), Formation::MarchColumn);
    let s = p.us(&["i10"]);
    assert!(
        !interpenetration(&p.sc, &p.st, &p.us(&["g1"]), &s, false),
        "16 ≤ 16"
    );
    assert!(
        interpenetration(&p.sc, &p.st, &p.us(&["g1", "e1"]), &s, false),
        "20 > 16"
    );
}

#[test]
fn r10_10_a_stack_takes_its_worst_state() {
    let mut p = forms();
    p.place("g1", &[hx("1010")], n(), Formation::Line);
    p.place("g2", &[hx("1010")], n(), Formation::Line);
    let both = p.us(&["g1", "g2"]);
    assert_eq!(worst_state(&p.st, &both), (false, false));
    p.s("g2").shaken = true;
    assert_eq!(worst_state(&p.st, &both), (false, true));
    p.s("g1").disordered = true;
    assert_eq!(worst_state(&p.st, &both), (true, true));
}
