//! Rule 6: command radius (6.1), command of units (6.3), out of command units (6.4), lines of
//! battle (6.5), independent units (6.6).
mod common;

use common::*;
use hexmap::{Dir, HexId, Vertex};
use saxe::Saxe;
use saxe::scenario::{Side, UnitIx};
use saxe::state::{ActTarget, State, flag};

/// The position of the 6.3 figure, rebuilt from its caption (the figure itself is not available):
/// Wutginau (CR 3) at `c`; Fürstenberg 2 one hex from him, facing north (alone, not in a line);
/// a line facing south of Anhalt 2 (2 hexes from Wutginau), Fürstenberg 1 (3) and Anhalt 1 (4);
/// Gilsa next to Anhalt 1 (5 hexes away) facing south-west; Einsiedel (cavalry) two hexes from
/// Anhalt 1 and more than 3 from Wutginau, adjacent to no other unit.
struct Fig63 {
    s: State,
    c: HexId,
    gilsa: UnitIx,
    einsiedel: UnitIx,
    anhalt1: UnitIx,
    anhalt2: UnitIx,
    f1: UnitIx,
    f2: UnitIx,
}

fn fig_6_3(r: &Saxe) -> Fig63 {
    let mut s = empty_board(r);
    let centre = clear_area(r, 3);
    let c = go(centre, &[Dir::W, Dir::W]);
    let e = |n: usize| ahead(c, Dir::E, n);
    let f2 = place(r, &mut s, "von-fuerstenberg-2", go(c, &[Dir::W]), Vertex::N);
    let anhalt2 = place(r, &mut s, "prinz-von-anhalt-2", e(2), Vertex::S);
    let f1 = place(r, &mut s, "von-fuerstenberg-1", e(3), Vertex::S);
    let anhalt1 = place(r, &mut s, "prinz-von-anhalt-1", e(4), Vertex::S);
    let gilsa = place(r, &mut s, "von-gilsa", e(5), Vertex::SW);
    let eh = go(e(4), &[Dir::NE, Dir::NW]);
    let einsiedel = place(r, &mut s, "von-einsiedel", eh, Vertex::S);
    place_cmdr(r, &mut s, "wutginau", c);
    // The caption's distances.
    assert_eq!(c.distance(go(c, &[Dir::W])), 1);
    assert_eq!(c.distance(e(4)), 4);
    assert_eq!(c.distance(e(5)), 5);
    assert!(c.distance(eh) > 3);
    assert_eq!(eh.distance(e(4)), 2);
    for u in [anhalt2, f1, anhalt1, gilsa, f2] {
        let h = s.units[usize::from(u)].hex.expect("placed");
        assert!(h.distance(eh) >= 2, "Einsiedel adjacent to no unit");
    }
    Fig63 {
        s,
        c,
        gilsa,
        einsiedel,
        anhalt1,
        anhalt2,
        f1,
        f2,
    }
}

fn commanded(r: &Saxe, s: &State) -> Vec<UnitIx> {
    let f = formation(r, "wutginau");
    let members = r.formation_units(s, f);
    r.commanded_units(s, ActTarget::Formation(f), &members)
}

#[test]
fn r6_3_gilsa_out_of_command_by_facing() {
    let r = rules();
    let fig = fig_6_3(&r);
    let cmd = commanded(&r, &fig.s);
    assert!(
        !cmd.contains(&fig.gilsa),
        "Gilsa: outside the CR, not in the line"
    );
    // With the line's facing it would be part of the commanded line.
    let mut s = fig.s.clone();
    s.units[usize::from(fig.gilsa)].facing = Vertex::S;
    assert!(commanded(&r, &s).contains(&fig.gilsa));
}

#[test]
fn r6_3_einsiedel_cavalry_two_hexes_from_a_commanded_unit() {
    let r = rules();
    let fig = fig_6_3(&r);
    assert!(commanded(&r, &fig.s).contains(&fig.einsiedel));
    // Its facing has no bearing.
    let mut s = fig.s.clone();
    s.units[usize::from(fig.einsiedel)].facing = Vertex::NE;
    assert!(commanded(&r, &s).contains(&fig.einsiedel));
    // Three hexes from every commanded unit: out of command.
    let mut s = fig.s.clone();
    let h = s.units[usize::from(fig.einsiedel)].hex.expect("placed");
    s.units[usize::from(fig.einsiedel)].hex = Some(go(h, &[Dir::NE]));
    assert!(!commanded(&r, &s).contains(&fig.einsiedel));
}

#[test]
fn r6_3_anhalt_1_commanded_as_part_of_a_commanded_line() {
    let r = rules();
    let fig = fig_6_3(&r);
    let cmd = commanded(&r, &fig.s);
    assert!(cmd.contains(&fig.anhalt2), "2 hexes from Wutginau");
    assert!(cmd.contains(&fig.f1), "3 hexes from Wutginau");
    assert!(
        cmd.contains(&fig.anhalt1),
        "4 hexes, but in the commanded line"
    );
    // Break the line (Fürstenberg 1 faces elsewhere): Anhalt 1 is out of command.
    let mut s = fig.s.clone();
    s.units[usize::from(fig.f1)].facing = Vertex::N;
    assert!(!commanded(&r, &s).contains(&fig.anhalt1));
}

#[test]
fn r6_3_fuerstenberg_2_commanded_within_the_radius() {
    let r = rules();
    let fig = fig_6_3(&r);
    assert!(commanded(&r, &fig.s).contains(&fig.f2));
    let mut s = fig.s.clone();
    let far = go(fig.c, &[Dir::W, Dir::W, Dir::W, Dir::W]);
    s.units[usize::from(fig.f2)].hex = Some(far);
    assert!(
        !commanded(&r, &s).contains(&fig.f2),
        "4 hexes away and alone"
    );
}

#[test]
fn r6_3_example_activation_marks_gilsa_out_of_command() {
    let r = rules();
    let mut fig = fig_6_3(&r);
    fig.s.active = Side::Allies;
    fig.s.dice = dice_rolling(&[1]);
    let ev = act(&r, &mut fig.s, "activate:wutginau");
    let a = top_activation(&fig.s).expect("activation");
    assert!(a.success);
    let mut want = vec![fig.anhalt1, fig.anhalt2, fig.f1, fig.f2, fig.einsiedel];
    want.sort();
    assert_eq!(a.commanded, want);
    assert!(r.has(&fig.s, fig.gilsa, flag::OOC));
    assert!(logged(&ev, "Von Gilsa is out of command") || logged(&ev, "is out of command"));
    let l = ids(&r, &fig.s);
    assert!(
        !l.contains(&"move-unit:von-gilsa".to_string()),
        "6.4: {l:?}"
    );
    assert!(l.contains(&"move-unit:von-einsiedel".to_string()), "{l:?}");
}

#[test]
fn r6_3_command_is_checked_at_the_moment_of_activation() {
    let r = rules();
    let mut fig = fig_6_3(&r);
    fig.s.active = Side::Allies;
    fig.s.dice = dice_rolling(&[1]);
    act(&r, &mut fig.s, "activate:wutginau");
    // Wutginau walks toward Gilsa: Gilsa stays out of command for the whole phase.
    for _ in 0..2 {
        let l = ids(&r, &fig.s);
        let g = fig.s.units[usize::from(fig.gilsa)].hex.expect("placed");
        let c = fig.s.commanders[usize::from(cmdr(&r, "wutginau"))]
            .hex
            .expect("placed");
        let step = l
            .iter()
            .filter(|i| i.starts_with("commander-step:wutginau:"))
            .min_by_key(|i| hx(i.rsplit(':').next().expect("hex")).distance(g))
            .expect("a step")
            .clone();
        let to = hx(step.rsplit(':').next().expect("hex"));
        assert!(to.distance(g) < c.distance(g));
        act(&r, &mut fig.s, &step);
    }
    let c = fig.s.commanders[usize::from(cmdr(&r, "wutginau"))]
        .hex
        .expect("placed");
    let g = fig.s.units[usize::from(fig.gilsa)].hex.expect("placed");
    assert!(c.distance(g) <= 3, "now within the CR");
    assert!(
        !top_activation(&fig.s)
            .expect("act")
            .commanded
            .contains(&fig.gilsa)
    );
    assert!(r.has(&fig.s, fig.gilsa, flag::OOC));
    assert!(!ids(&r, &fig.s).contains(&"move-unit:von-gilsa".to_string()));
}

#[test]
fn r6_3_artillery_commanded_through_its_line() {
    let r = rules();
    let mut s = empty_board(&r);
    let centre = clear_area(&r, 3);
    let c = go(centre, &[Dir::W, Dir::W, Dir::W]);
    place_cmdr(&r, &mut s, "broglie", c);
    // Broglie's CR is 4: a line facing north from 2 to 6 hexes away, the gun with the far end.
    let mut line = Vec::new();
    for (n, id) in [
        (2, "du-roi"),
        (3, "grenadiers"),
        (4, "palatinat-1"),
        (5, "palatinat-2"),
    ] {
        line.push(place(&r, &mut s, id, ahead(c, Dir::E, n), Vertex::N));
    }
    let end = ahead(c, Dir::E, 6);
    line.push(place(&r, &mut s, "poitou", end, Vertex::N));
    let gun = place(&r, &mut s, "broglie-art-1314", end, Vertex::N);
    let f = formation(&r, "broglie");
    let members = r.formation_units(&s, f);
    let cmd = r.commanded_units(&s, ActTarget::Formation(f), &members);
    for u in line.iter().chain([&gun]) {
        assert!(cmd.contains(u), "{}", r.sc.units[usize::from(*u)].id);
    }
}

#[test]

fn r6_3_lone_gun_beside_a_commanded_line_is_out_of_command() {
    // 6.5: a gun joins a line only when stacked with a unit of the line; 6.3: infantry or
    // artillery outside the CR is commanded only as part of a commanded line.
    let r = rules();
    let mut s = empty_board(&r);
    let centre = clear_area(&r, 3);
    let c = go(centre, &[Dir::W, Dir::W, Dir::W]);
    place_cmdr(&r, &mut s, "broglie", c);
    for (n, id) in [
        (2, "du-roi"),
        (3, "grenadiers"),
        (4, "palatinat-1"),
        (5, "palatinat-2"),
    ] {
        place(&r, &mut s, id, ahead(c, Dir::E, n), Vertex::N);
    }
    let end = ahead(c, Dir::E, 6);
    place(&r, &mut s, "poitou", end, Vertex::N);
    let gun = place(
        &r,
        &mut s,
        "broglie-art-1314",
        go(end, &[Dir::SE]),
        Vertex::N,
    );
    assert!(c.distance(go(end, &[Dir::SE])) > 4, "outside Broglie's CR");
    let f = formation(&r, "broglie");
    let members = r.formation_units(&s, f);
    let cmd = r.commanded_units(&s, ActTarget::Formation(f), &members);
    assert!(cmd.contains(&unit(&r, "poitou")));
    assert!(!cmd.contains(&gun), "a lone gun is not part of the line");
}

#[test]
fn r6_1_radius_not_traced_through_an_enemy_unit() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let target = go(x, &[Dir::E, Dir::E]);
    assert!(r.command_reach(&s, x, 2, Side::French).contains(&target));
    place(&r, &mut s, "von-gilsa", go(x, &[Dir::E]), Vertex::N);
    assert!(!r.command_reach(&s, x, 2, Side::French).contains(&target));
}

#[test]
fn r6_1_radius_not_traced_through_enemy_front_or_flank_hexes_unless_friendly() {
    let r = rules();
    let x = clear_area(&r, 2);
    let mid = go(x, &[Dir::E]);
    let target = go(x, &[Dir::E, Dir::E]);
    let enemy = go(mid, &[Dir::NE]);
    // Facing SE puts `mid` in a flank hex, S in a front hex, N in a rear hex of the enemy.
    for (facing, blocked) in [(Vertex::S, true), (Vertex::SE, true), (Vertex::N, false)] {
        let mut s = empty_board(&r);
        let g = place(&r, &mut s, "von-gilsa", enemy, facing);
        let arc = r.arc_toward(&s, g, mid);
        assert_eq!(
            r.command_reach(&s, x, 2, Side::French).contains(&target),
            !blocked,
            "{facing:?}: mid is {arc:?}"
        );
        // A friendly unit in the hex opens it.
        place(&r, &mut s, "du-roi", mid, Vertex::N);
        assert!(r.command_reach(&s, x, 2, Side::French).contains(&target));
    }
}

#[test]
fn r6_4_out_of_command_unit_turns_one_vertex_with_a_morale_test_plus_1() {
    let r = rules();
    let mut fig = fig_6_3(&r);
    // A French unit whose front covers Gilsa from Gilsa's flank: Gilsa is in an enemy ZoC without
    // an enemy in its own ZoC.
    let g = fig.s.units[usize::from(fig.gilsa)].hex.expect("placed");
    let fr = place(&r, &mut fig.s, "du-roi", go(g, &[Dir::NW]), Vertex::SE);
    assert!(r.zoc_reaches(&fig.s, fr, g));
    assert!(!r.enemy_in_own_zoc(&fig.s, fig.gilsa));
    fig.s.active = Side::Allies;
    // Activation 1, then a failed morale test: 6 + 1 > 4.
    fig.s.dice = dice_rolling(&[1, 6]);
    act(&r, &mut fig.s, "activate:wutginau");
    let l = ids(&r, &fig.s);
    assert!(
        l.contains(&"turn-in-place:von-gilsa:cw".to_string()),
        "{l:?}"
    );
    let ev = act(&r, &mut fig.s, "turn-in-place:von-gilsa:ccw");
    let t = rolls_of(&ev, "6.4");
    assert_eq!(t.len(), 1, "{ev:?}");
    assert_eq!(modifier(&mods_of(t[0]), "changing facing"), Some(1));
    assert_eq!(
        fig.s.units[usize::from(fig.gilsa)].facing,
        Vertex::S,
        "it turns whatever the result"
    );
    assert!(r.has(&fig.s, fig.gilsa, flag::DISORG), "failed test");
    let l = ids(&r, &fig.s);
    assert!(
        !l.iter().any(|i| i.starts_with("turn-in-place:von-gilsa")),
        "one vertex only"
    );
}

#[test]
fn r6_6_independent_unit_failing_activation_turns_one_vertex() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 2);
    let u = place(&r, &mut s, "royal-carabiniers", x, Vertex::N);
    s.dice = dice_rolling(&[6]);
    act(&r, &mut s, "activate-independent:royal-carabiniers");
    assert!(!top_activation(&s).expect("activation").success);
    let mut l = ids(&r, &s);
    l.sort();
    assert_eq!(
        l,
        vec![
            "end-activation",
            "turn-in-place:royal-carabiniers:ccw",
            "turn-in-place:royal-carabiniers:cw"
        ]
    );
    let ev = act(&r, &mut s, "turn-in-place:royal-carabiniers:cw");
    assert!(
        rolls_of(&ev, "6.6").is_empty(),
        "no test outside an enemy ZoC"
    );
    assert_eq!(s.units[usize::from(u)].facing, Vertex::NE);

    // In an enemy ZoC it tests its morale at +1.
    let mut s = empty_board(&r);
    let u = place(&r, &mut s, "royal-carabiniers", x, Vertex::N);
    place(&r, &mut s, "von-gilsa", go(x, &[Dir::E]), Vertex::NW);
    assert!(r.in_zoc_of(&s, x, Side::Allies));
    s.dice = dice_rolling(&[6, 1]);
    act(&r, &mut s, "activate-independent:royal-carabiniers");
    let ev = act(&r, &mut s, "turn-in-place:royal-carabiniers:ccw");
    let t = rolls_of(&ev, "6.6");
    assert_eq!(t.len(), 1, "{ev:?}");
    assert_eq!(modifier(&mods_of(t[0]), "changing facing"), Some(1));
    assert_eq!(s.units[usize::from(u)].facing, Vertex::NW);
}

// ------------------------------------------------------------------------------------- 6.5 lines

fn line_ids(r: &Saxe, s: &State, id: &str) -> Vec<String> {
    let f = formation(r, "broglie");
    let pool = r.formation_units(s, f);
    let mut v: Vec<String> = r
        .line_of(s, unit(r, id), &pool)
        .into_iter()
        .map(|u| r.sc.units[usize::from(u)].id.clone())
        .collect();
    v.sort();
    v
}

fn row(x: HexId, n: usize) -> HexId {
    ahead(x, Dir::W, n)
}

#[test]
fn r6_5_figure_a_is_a_line_of_battle() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = go(clear_area(&r, 3), &[Dir::E, Dir::E]);
    place(&r, &mut s, "du-roi", row(x, 0), Vertex::N);
    place(&r, &mut s, "palatinat-1", row(x, 1), Vertex::N);
    place(&r, &mut s, "poitou", row(x, 2), Vertex::N);
    place(&r, &mut s, "broglie-art-1314", row(x, 2), Vertex::N);
    place(&r, &mut s, "du-roy", row(x, 3), Vertex::N);
    place(&r, &mut s, "royal-pologne", row(x, 4), Vertex::N);
    // Infantry then cavalry, not intercalated; the gun stacked with Poitou joins.
    assert_eq!(
        line_ids(&r, &s, "du-roi"),
        vec![
            "broglie-art-1314",
            "du-roi",
            "du-roy",
            "palatinat-1",
            "poitou",
            "royal-pologne"
        ]
    );
    // 8.7: it may move as a line.
    place_cmdr(&r, &mut s, "broglie", row(x, 2));
    activate_auto(&r, &mut s, "broglie");
    assert!(ids(&r, &s).contains(&"move-line:du-roi".to_string()));
}

#[test]
fn r6_5_figure_b_alternating_arms_and_a_lone_gun_are_not_a_line() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = go(clear_area(&r, 3), &[Dir::E, Dir::E]);
    place(&r, &mut s, "du-roi", row(x, 0), Vertex::N);
    place(&r, &mut s, "du-roy", row(x, 1), Vertex::N);
    place(&r, &mut s, "palatinat-1", row(x, 2), Vertex::N);
    place(&r, &mut s, "royal-pologne", row(x, 3), Vertex::N);
    place(&r, &mut s, "broglie-art-1314", row(x, 4), Vertex::N);
    assert_eq!(line_ids(&r, &s, "du-roi"), vec!["du-roi"]);
    assert_eq!(line_ids(&r, &s, "du-roy"), vec!["du-roy"]);
    assert_eq!(line_ids(&r, &s, "palatinat-1"), vec!["palatinat-1"]);
    assert_eq!(line_ids(&r, &s, "royal-pologne"), vec!["royal-pologne"]);
    place_cmdr(&r, &mut s, "broglie", row(x, 2));
    activate_auto(&r, &mut s, "broglie");
    let l = ids(&r, &s);
    assert!(!l.iter().any(|i| i.starts_with("move-line:")), "{l:?}");
}

#[test]
fn r6_5_figure_c_a_column_is_a_line() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = clear_area(&r, 3);
    place(&r, &mut s, "du-roi", go(x, &[Dir::NW]), Vertex::N);
    place(&r, &mut s, "palatinat-1", x, Vertex::N);
    place(&r, &mut s, "poitou", go(x, &[Dir::SE]), Vertex::N);
    assert_eq!(
        line_ids(&r, &s, "du-roi"),
        vec!["du-roi", "palatinat-1", "poitou"]
    );
}

#[test]
fn r6_5_routed_unit_breaks_the_line_disorganised_does_not() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = go(clear_area(&r, 3), &[Dir::E]);
    place(&r, &mut s, "du-roi", row(x, 0), Vertex::N);
    let mid = place(&r, &mut s, "palatinat-1", row(x, 1), Vertex::N);
    place(&r, &mut s, "poitou", row(x, 2), Vertex::N);
    s.units[usize::from(mid)].set(flag::DISORG, true);
    assert_eq!(
        line_ids(&r, &s, "du-roi").len(),
        3,
        "disorganised units stay in line"
    );
    s.units[usize::from(mid)].set(flag::DISORG, false);
    s.units[usize::from(mid)].set(flag::ROUTED, true);
    assert_eq!(line_ids(&r, &s, "du-roi"), vec!["du-roi"]);
    assert_eq!(line_ids(&r, &s, "poitou"), vec!["poitou"]);
}

#[test]
fn r6_5_other_formation_or_facing_breaks_the_line() {
    let r = rules();
    let x = go(clear_area(&r, 3), &[Dir::E]);
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", row(x, 0), Vertex::N);
    place(&r, &mut s, "la-couronne", row(x, 1), Vertex::N);
    place(&r, &mut s, "poitou", row(x, 2), Vertex::N);
    assert_eq!(
        line_ids(&r, &s, "du-roi"),
        vec!["du-roi"],
        "another formation"
    );
    let mut s = empty_board(&r);
    place(&r, &mut s, "du-roi", row(x, 0), Vertex::N);
    place(&r, &mut s, "palatinat-1", row(x, 1), Vertex::NE);
    place(&r, &mut s, "poitou", row(x, 2), Vertex::N);
    assert_eq!(line_ids(&r, &s, "du-roi"), vec!["du-roi"], "another facing");
}

#[test]
fn r6_4_out_of_command_units_may_still_attack() {
    let r = rules();
    let mut fig = fig_6_3(&r);
    let g = fig.s.units[usize::from(fig.gilsa)].hex.expect("placed");
    // A French unit in Gilsa's front (Gilsa faces south-west).
    let target = go(g, &[Dir::SW]);
    place(&r, &mut fig.s, "du-roi", target, Vertex::NE);
    fig.s.units[usize::from(fig.gilsa)].set(flag::OOC, true);
    combat_phase(&mut fig.s, Side::Allies);
    assert!(
        r.legal_attacks(&fig.s)
            .iter()
            .any(|(a, d)| a == &vec![g] && d == &vec![target])
    );
}

#[test]
fn r16_1_3_army_command_radius() {
    let r = rules();
    assert_eq!(r.sc.commanders[usize::from(cmdr(&r, "estrees"))].radius, 5);
    assert_eq!(
        r.sc.commanders[usize::from(cmdr(&r, "cumberland"))].radius,
        4
    );
    let x = clear_area(&r, 2);
    let far =
        r.sc.map
            .hexes()
            .find(|h| h.distance(x) == 5 && r.sc.map.contains(*h))
            .expect("5 hexes away");
    let farther =
        r.sc.map
            .hexes()
            .find(|h| h.distance(x) == 6)
            .expect("6 hexes away");
    let mut s = empty_board(&r);
    place_cmdr(&r, &mut s, "estrees", x);
    assert!(r.in_army_command(&s, Side::French, far));
    assert!(!r.in_army_command(&s, Side::French, farther));
}

#[test]
fn r6_5_a_gun_not_stacked_with_the_line_does_not_join_it() {
    let r = rules();
    let mut s = empty_board(&r);
    let x = go(clear_area(&r, 3), &[Dir::E]);
    place(&r, &mut s, "du-roi", row(x, 0), Vertex::N);
    place(&r, &mut s, "palatinat-1", row(x, 1), Vertex::N);
    place(&r, &mut s, "broglie-art-1314", row(x, 2), Vertex::N);
    assert_eq!(line_ids(&r, &s, "du-roi"), vec!["du-roi", "palatinat-1"]);
    let gun = unit(&r, "broglie-art-1314");
    s.units[usize::from(gun)].hex = Some(row(x, 1));
    assert_eq!(
        line_ids(&r, &s, "du-roi"),
        vec!["broglie-art-1314", "du-roi", "palatinat-1"]
    );
}
